"""The agents' paths of a CBS node as a table of who is where when, kept up to date.

Consecutive nodes of a constraint tree share most paths (a child replans one agent), so
one :class:`PathTable` follows the search: :meth:`PathTable.sync` swaps in only the paths
that differ (compared by identity). With one agent taken out, the table counts the
conflicts a move would make with the others (the low level's conflict-avoidance table)
and lists the conflicts of that agent's new path (the child's conflicts, without
comparing every pair again).
"""

from __future__ import annotations

from collections.abc import Sequence

Path = list[int]
# (kind, a, b, place, t): see _conflicts.
Conflict = tuple[str, int, int, object, int]


class PathTable:
    """Where the agents are: ``at[v, t]`` the agents on v at t before they finish,
    ``moves[u, v, t]`` those moving u -> v arriving at t, ``parked[v]`` the agent
    that finishes on v and when, ``times[v]`` every time an agent stands on v."""

    def __init__(self, n_agents: int) -> None:
        self.paths: list[Path | None] = [None] * n_agents
        self.at: dict[tuple[int, int], list[int]] = {}
        self.moves: dict[tuple[int, int, int], list[int]] = {}
        self.parked: dict[int, tuple[int, int]] = {}
        self.times: dict[int, list[int]] = {}

    def add(self, agent: int, path: Path) -> None:
        at, moves, times = self.at, self.moves, self.times
        end = len(path) - 1
        prev = -1
        for t, v in enumerate(path):
            if t < end:
                at.setdefault((v, t), []).append(agent)
            if t and prev != v:
                moves.setdefault((prev, v, t), []).append(agent)
            times.setdefault(v, []).append(t)
            prev = v
        self.parked[path[end]] = (agent, end)
        self.paths[agent] = path

    def remove(self, agent: int) -> None:
        path = self.paths[agent]
        if path is None:
            return
        at, moves, times = self.at, self.moves, self.times
        end = len(path) - 1
        prev = -1
        for t, v in enumerate(path):
            if t < end:
                at[v, t].remove(agent)
            if t and prev != v:
                moves[prev, v, t].remove(agent)
            times[v].remove(t)
            prev = v
        del self.parked[path[end]]
        self.paths[agent] = None

    def sync(self, paths: Sequence[Path]) -> None:
        """Make the table hold ``paths`` (only the ones not already held are swapped)."""
        for agent, path in enumerate(paths):
            if self.paths[agent] is not path:
                self.remove(agent)
                self.add(agent, path)

    def last_visit(self, node: int) -> int:
        """The latest time an agent in the table stands on ``node`` (-1 if never)."""
        return max(self.times.get(node, ()), default=-1)

    def conflicts_of(self, a: int, path: Path, following: bool,
                     per_pair: int) -> list[Conflict]:
        """The conflicts of agent ``a`` on ``path`` with the agents in the table (which
        must not hold ``a``), at most ``per_pair`` with each, earliest first."""
        at, moves, parked = self.at, self.moves, self.parked
        found: list[Conflict] = []
        seen: dict[int, int] = {}

        def note(c: Conflict, b: int) -> None:
            n = seen.get(b, 0)
            if n < per_pair:
                seen[b] = n + 1
                found.append(c)

        end = len(path) - 1
        prev = -1
        for t, v in enumerate(path):
            for b in at.get((v, t), ()):
                note(("vertex", a, b, v, t), b)
            owner = parked.get(v)
            if owner is not None and owner[1] <= t:
                note(("vertex", a, owner[0], v, t), owner[0])
            if t and prev != v:
                swappers = moves.get((v, prev, t), ())
                for b in swappers:
                    note(("edge", a, b, (prev, v), t), b)
                if following:
                    for b in at.get((v, t - 1), ()):
                        if b not in swappers:
                            note(("following", a, b, v, t), b)
                    for b in at.get((prev, t), ()):
                        note(("following", b, a, prev, t), b)
                    owner = parked.get(prev)
                    if owner is not None and owner[1] == t:
                        note(("following", owner[0], a, prev, t), owner[0])
            prev = v
        goal = path[end]
        for t in sorted(set(self.times.get(goal, ()))):
            if t > end:
                for b in at.get((goal, t), ()):
                    note(("vertex", b, a, goal, t), b)
        found.sort(key=lambda c: c[4])
        return found


def find(paths: Sequence[Path], following: bool, per_pair: int) -> list[Conflict]:
    """Every conflict of ``paths`` (at most ``per_pair`` per pair), earliest first."""
    table = PathTable(len(paths))
    found: list[Conflict] = []
    for a, path in enumerate(paths):
        found += table.conflicts_of(a, path, following, per_pair)
        table.add(a, path)
    found.sort(key=lambda c: c[4])
    return found
