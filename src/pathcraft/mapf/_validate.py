"""Checking a multi-agent solution: legal moves, the right starts and goals, and no two
agents in each other's way."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.mapf._problem import Problem, as_problem

__all__ = ["CONFLICT_KINDS", "Conflict", "validate"]

#: The kinds of :class:`Conflict`.
CONFLICT_KINDS = ("vertex", "edge", "following", "move", "start", "goal")


@dataclasses.dataclass(frozen=True)
class Conflict:
    """One fault of a multi-agent solution.

    Attributes
    ----------
    kind : str
        ``"vertex"`` (two agents in one place at one time), ``"edge"`` (two agents
        swap places in one step), ``"following"`` (an agent enters a place another
        leaves in that step), ``"move"`` (a step that is neither a move to a
        neighbour nor a wait, or a place not in the world), ``"start"`` (a path that
        does not begin at the agent's start, or is empty), ``"goal"`` (a path that
        does not end at the agent's goal).
    agents : tuple of int
        The agent or agents at fault (smallest first).
    time : int
        The time step: when the agents meet (vertex), when the step ends (edge,
        following, move), 0 for a start and the path's last step for a goal.
    places : tuple
        The places involved: the shared place (vertex), the two places swapped (edge),
        the place entered (following), the step's two places (move), the path's and
        the agent's place (start, goal).

    Examples
    --------
    Two agents crossing a corridor meet at ``(0, 1)`` at time 1:

    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, validate
    >>> problem = Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0), (0, 2)],
    ...                   [(0, 2), (0, 0)])
    >>> conflict = validate(problem, [[(0, 0), (0, 1), (0, 2)],
    ...                               [(0, 2), (0, 1), (0, 0)]])[0]
    >>> conflict.kind, conflict.agents, conflict.time, conflict.places
    ('vertex', (0, 1), 1, ((0, 1),))
    """

    kind: str
    agents: tuple[int, ...]
    time: int
    places: tuple[Any, ...]


def validate(
    problem_or_world: Any,
    paths: Sequence[Sequence[Hashable]],
    starts: Sequence[Hashable] | None = None,
    goals: Sequence[Hashable] | None = None,
    *,
    following: bool = False,
) -> list[Conflict]:
    """Every fault of a multi-agent solution; an empty list when it is valid.

    Checks each path starts at its agent's start, ends at its goal and moves only to
    neighbours or waits; then, with every agent kept at its goal after its path ends,
    that no two agents share a place at a time step (vertex), swap places in one step
    (edge), or, with ``following``, that no agent enters a place another leaves in the
    same step.

    Parameters
    ----------
    problem_or_world : Problem, Grid, Graph or any world with ``neighbors(place)``
        A :class:`Problem` brings its starts, goals and ``following`` setting.
    paths : sequence of sequences of places
        One per agent: its place at each time step (cells ``(row, col)`` on grids).
    starts, goals : sequences of places, or None
        Needed with a world, refused with a Problem.
    following : bool
        Also report following conflicts (always on for a Problem made with
        ``following=True``).

    Returns
    -------
    list of Conflict
        The path faults agent by agent (start, goal, then moves), then the vertex,
        edge and following conflicts, each kind by time. A faulty step counts as a
        wait when the agents are checked against each other.

    Raises
    ------
    ValueError
        As :class:`Problem` for the starts and goals; a number of paths different
        from the number of agents.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import validate
    >>> grid = Grid.from_ascii("....", diagonal="never")
    >>> validate(grid, [[(0, 0), (0, 1)], [(0, 3), (0, 2)]], [(0, 0), (0, 3)], [(0, 1), (0, 2)])
    []
    >>> validate(grid, [[(0, 1), (0, 2)], [(0, 2), (0, 1)]], [(0, 1), (0, 2)], [(0, 2), (0, 1)])
    [Conflict(kind='edge', agents=(0, 1), time=1, places=((0, 1), (0, 2)))]
    """
    problem = as_problem(problem_or_world, starts, goals, following=following)
    following = bool(following) or problem.following
    if isinstance(paths, (str, bytes)) or len(paths) != problem.n_agents:
        given = len(paths) if hasattr(paths, "__len__") else paths
        raise ValueError(f"paths must have one path per agent ({problem.n_agents}); got {given!r}")
    faults: list[Conflict] = []
    nodes = _path_faults(problem, paths, faults)
    if nodes:
        faults.extend(_agent_conflicts(problem, nodes, following))
    return faults


def _path_faults(
    problem: Problem, paths: Sequence[Sequence[Hashable]], faults: list[Conflict]
) -> list[npt.NDArray[np.int32]]:
    """The paths as node arrays (faulty steps replaced by waits); faults appended."""
    nodes: list[npt.NDArray[np.int32]] = []
    indptr, indices = problem.indptr, problem.indices
    for agent, path in enumerate(paths):
        start = int(problem.starts[agent])
        goal = int(problem.goals[agent])
        if len(path) == 0:
            faults.append(Conflict("start", (agent,), 0, (None, problem.places[start])))
            nodes.append(np.array([start], dtype=np.int32))
            continue
        ids = problem.nodes(path).astype(np.int64)
        if ids[0] != start:
            faults.append(Conflict("start", (agent,), 0, (path[0], problem.places[start])))
        if ids[-1] != goal:
            faults.append(
                Conflict("goal", (agent,), len(path) - 1, (path[-1], problem.places[goal]))
            )
        for t in range(1, len(ids)):
            a, b = int(ids[t - 1]), int(ids[t])
            legal = a >= 0 and b >= 0 and (a == b or _has_edge(indptr, indices, a, b))
            if not legal:
                faults.append(Conflict("move", (agent,), t, (path[t - 1], path[t])))
        if ids[0] < 0:
            ids[0] = start
        for t in range(1, len(ids)):  # keep unknown places out of the conflict check
            if ids[t] < 0:
                ids[t] = ids[t - 1]
        nodes.append(ids.astype(np.int32))
    return nodes


def _has_edge(
    indptr: npt.NDArray[np.int32], indices: npt.NDArray[np.int32], a: int, b: int
) -> bool:
    row = indices[indptr[a] : indptr[a + 1]]
    i = int(np.searchsorted(row, b))
    return i < row.size and int(row[i]) == b


def _agent_conflicts(
    problem: Problem, nodes: list[npt.NDArray[np.int32]], following: bool
) -> list[Conflict]:
    """Vertex, edge and following conflicts, agents held at their last node."""
    k = len(nodes)
    horizon = max(len(p) for p in nodes)
    at = np.empty((k, horizon), dtype=np.int64)
    for agent, path in enumerate(nodes):
        at[agent, : len(path)] = path
        at[agent, len(path) :] = path[-1]
    places = problem.places
    n = problem.n_nodes
    vertex: list[Conflict] = []
    edge: list[Conflict] = []
    follow: list[Conflict] = []
    for t in range(horizon):
        here = at[:, t]
        order = np.argsort(here, kind="stable")
        ordered = here[order]
        same = np.flatnonzero(ordered[1:] == ordered[:-1])
        if same.size:
            groups: dict[int, list[int]] = {}
            for i in same.tolist():
                group = groups.setdefault(int(ordered[i]), [int(order[i])])
                group.append(int(order[i + 1]))
            for node, group in groups.items():
                for a, b in itertools.combinations(sorted(group), 2):
                    vertex.append(Conflict("vertex", (a, b), t, (places[node],)))
        if t == 0:
            continue
        before = at[:, t - 1]
        moving = np.flatnonzero(before != here)
        if moving.size == 0:
            continue
        key = before[moving] * n + here[moving]
        back = here[moving] * n + before[moving]
        swapped = np.flatnonzero(np.isin(key, back))
        if swapped.size:
            lookup: dict[int, list[int]] = {}
            for j, kk in enumerate(key.tolist()):
                lookup.setdefault(kk, []).append(int(moving[j]))
            for j in swapped.tolist():
                a = int(moving[j])
                for b in lookup[int(back[j])]:
                    if a >= b:
                        continue
                    edge.append(
                        Conflict("edge", (a, b), t, (places[int(before[a])], places[int(here[a])]))
                    )
        if following:
            left: dict[int, list[int]] = {}
            for j in moving.tolist():
                left.setdefault(int(before[j]), []).append(j)
            for a in range(k):
                for b in left.get(int(here[a]), ()):
                    if b == a or int(here[b]) == int(before[a]):
                        continue  # a swap (an edge conflict)
                    follow.append(
                        Conflict("following", tuple(sorted((a, b))), t, (places[int(here[a])],))
                    )
    return vertex + edge + follow
