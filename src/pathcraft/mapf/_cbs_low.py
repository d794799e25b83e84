"""The low level of conflict-based search: one agent's space-time search and its MDD.

One function, :func:`plan`, serves both CBS and ECBS: a focal search over (node, time)
states whose focal list holds the states with ``f <= w * f_min`` ordered by the number
of conflicts with the other agents' paths. With ``w = 1`` it is A* that breaks ties on
``f`` by fewest conflicts (the conflict-avoidance table of CBS); with ``w > 1`` it is
ECBS's low level and also returns ``f_min``, a lower bound on the agent's cost under its
constraints. Waiting is a move of cost 1; an agent's cost is the time it reaches its goal
for the last time, so a path may only end at a time later than every vertex constraint
on its goal.

Nodes are ints (the CSR node ids of a :class:`~pathcraft.mapf.Problem`), times are ints
(t = 0 is the start). Constraints of one agent are two frozensets: ``vertex`` of
``(node, t)`` and ``edge`` of ``(u, v, t)`` (the move u -> v arriving at time t).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pathcraft.mapf._table import Path, PathTable


class LimitReached(Exception):
    """Raised inside a search when the caller's deadline has passed."""


@dataclass(frozen=True)
class AgentConstraints:
    """The vertex and edge constraints of one agent (immutable, shared by CT nodes)."""

    vertex: frozenset[tuple[int, int]] = frozenset()
    edge: frozenset[tuple[int, int, int]] = frozenset()

    def with_vertex(self, node: int, t: int) -> AgentConstraints:
        return AgentConstraints(self.vertex | {(node, t)}, self.edge)

    def with_edge(self, u: int, v: int, t: int) -> AgentConstraints:
        return AgentConstraints(self.vertex, self.edge | {(u, v, t)})

    def last_time(self) -> int:
        """The latest time any constraint names (-1 if none)."""
        times = [t for _, t in self.vertex] + [t for _, _, t in self.edge]
        return max(times, default=-1)

    def goal_last(self, goal: int) -> int:
        """The latest time the agent is forbidden to stand on ``goal`` (-1 if never)."""
        return max((t for v, t in self.vertex if v == goal), default=-1)


def plan(
    steps: Sequence[Sequence[int]],
    h: Sequence[int],
    start: int,
    goal: int,
    constraints: AgentConstraints,
    avoid: PathTable,
    w: float = 1.0,
    deadline: float | None = None,
    counter: list[int] | None = None,
) -> tuple[Path, int] | None:
    """One agent's path under its constraints, and a lower bound on its cost.

    ``steps[v]`` lists where an agent on node v may be one step later: v itself first
    (waiting), then its neighbours.

    Returns ``(path, f_min)`` -- the path as node ids from t = 0 to the arrival at the
    goal, with cost ``len(path) - 1 <= w * f_min`` -- or None when no path satisfies
    the constraints. ``counter[0]`` (if given) is increased by the states expanded.
    Raises :class:`LimitReached` when ``deadline`` (a ``time.perf_counter()`` value)
    passes.
    """
    if h[start] < 0:
        return None
    vertex, edge = constraints.vertex, constraints.edge
    if (start, 0) in vertex:
        return None
    goal_last = constraints.goal_last(goal)
    parked_last = avoid.last_visit(goal)
    at, moves, parked = avoid.at, avoid.moves, avoid.parked
    push, pop = heapq.heappush, heapq.heappop
    timed = {t for _, t in vertex} | {t for _, _, t in edge}

    # A state is the int (t * n + node) * 2 + terminal: terminal states are arrivals at
    # the goal that end the path there; they carry the conflicts of standing there ever
    # after. Every state has one f (t + h), so only its conflicts can improve; a closed
    # state stays closed.
    n = len(steps)
    best: dict[int, int] = {}
    parent: dict[int, int] = {}
    closed: set[int] = set()
    open_heap: list[tuple[int, int, int]] = []
    focal: list[tuple[int, int, int, int, int]] = []
    pending: list[tuple[int, int, int, int]] = []
    seq = 0
    f_min = h[start]
    bound = w * f_min + 1e-9
    root = start * 2
    best[root] = 0
    parent[root] = -1
    push(open_heap, (f_min, 0, root))
    push(focal, (0, f_min, 0, 0, root))
    if start == goal and goal_last < 0:
        best[root + 1] = 1 if parked_last >= 0 else 0
        parent[root + 1] = root
        push(open_heap, (0, 1, root + 1))
        push(focal, (best[root + 1], 0, 0, 1, root + 1))
        seq = 1
    expansions = 0
    while True:
        while open_heap and open_heap[0][2] in closed:
            pop(open_heap)
        if not open_heap:
            if counter is not None:
                counter[0] += expansions
            return None
        if open_heap[0][0] > f_min:
            f_min = open_heap[0][0]
            bound = w * f_min + 1e-9
            while pending and pending[0][0] <= bound:
                f, conf, s, key = pop(pending)
                push(focal, (conf, f, -(key // (2 * n)), s, key))
        conf, f, _, s, key = pop(focal)
        if key in closed or best[key] != conf:
            continue
        closed.add(key)
        if key & 1:
            if counter is not None:
                counter[0] += expansions
            path: Path = []
            step = parent[key]
            while step >= 0:
                path.append((step >> 1) % n)
                step = parent[step]
            path.reverse()
            return path, f_min
        expansions += 1
        if deadline is not None and not expansions & 255 and time.perf_counter() > deadline:
            raise LimitReached
        node = (key >> 1) % n
        nt = (key >> 1) // n + 1
        constrained = nt in timed
        base = nt * n
        for v in steps[node]:
            hv = h[v]
            if hv < 0 or (constrained and (
                (v, nt) in vertex or (v != node and (node, v, nt) in edge)
            )):
                continue
            nconf = conf + len(at.get((v, nt), ()))
            if v != node:
                nconf += len(moves.get((v, node, nt), ()))
            owner = parked.get(v)
            if owner is not None and owner[1] <= nt:
                nconf += 1
            nf = nt + hv
            nkey = (base + v) * 2
            offers: tuple[tuple[int, int, int], ...] = ((nkey, nconf, key),)
            if v == goal and nt > goal_last:  # also end the path here
                offers += ((nkey + 1, nconf + (parked_last >= nt), nkey),)
            for skey, sconf, came in offers:
                if skey in closed:
                    continue
                old = best.get(skey)
                if old is not None and old <= sconf:
                    continue
                best[skey] = sconf
                parent[skey] = came
                seq += 1
                if old is None:
                    push(open_heap, (nf, seq, skey))
                if nf <= bound:
                    push(focal, (sconf, nf, -nt, seq, skey))
                else:
                    push(pending, (nf, sconf, seq, skey))


def mdd(
    steps: Sequence[Sequence[int]],
    h: Sequence[int],
    start: int,
    goal: int,
    cost: int,
    constraints: AgentConstraints,
) -> list[set[int]]:
    """The multi-valued decision diagram of an agent at ``cost``: for each time t the
    set of nodes some constraint-respecting path of exactly that cost visits at t."""
    vertex, edge = constraints.vertex, constraints.edge
    layers: list[set[int]] = [{start}]
    for t in range(1, cost + 1):
        left = cost - t
        layer: set[int] = set()
        for u in layers[-1]:
            for v in steps[u]:
                hv = h[v]
                if 0 <= hv <= left and (v, t) not in vertex and (u == v or (u, v, t) not in edge):
                    layer.add(v)
        layers.append(layer)
    layers[cost] = {goal} & layers[cost]
    for t in range(cost - 1, -1, -1):
        after = layers[t + 1]
        layers[t] = {
            u for u in layers[t]
            if (u in after) or any(v in after and (u, v, t + 1) not in edge for v in steps[u])
        }
    return layers
