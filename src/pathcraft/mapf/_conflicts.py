"""Conflicts between the agents' paths of a CBS node, their constraints and their kinds.

A conflict is a tuple ``(kind, a, b, place, t)``:

- ``("vertex", a, b, v, t)``: both agents at node v at time t (a finished agent stands
  on its goal for ever);
- ``("edge", a, b, (u, v), t)``: a moves u -> v while b moves v -> u, arriving at t;
- ``("following", a, b, v, t)``: a enters v at t, which b left at t - 1.

Each is resolved by two constraints, one per agent (:func:`split`). Cardinal conflicts
(both agents' MDDs have one node there) raise the cost of both children; the cardinal
conflict graph's minimum vertex cover is the CG heuristic of Felner et al. (2018).
"""

from __future__ import annotations

from pathcraft.mapf._cbs_low import AgentConstraints
from pathcraft.mapf._table import Conflict

# Conflicts recorded per pair of agents (the earliest ones): enough to find a cardinal one.
PER_PAIR = 8


def split(
    conflict: Conflict,
) -> tuple[tuple[int, tuple[str, tuple[int, ...]]], tuple[int, tuple[str, tuple[int, ...]]]]:
    """The two constraints that resolve a conflict, as (agent, (kind, data))."""
    kind, a, b, place, t = conflict
    if kind == "vertex":
        assert isinstance(place, int)
        return (a, ("vertex", (place, t))), (b, ("vertex", (place, t)))
    if kind == "edge":
        assert isinstance(place, tuple)
        u, v = place
        return (a, ("edge", (u, v, t))), (b, ("edge", (v, u, t)))
    assert isinstance(place, int)
    return (a, ("vertex", (place, t))), (b, ("vertex", (place, t - 1)))


def constrain(old: AgentConstraints, constraint: tuple[str, tuple[int, ...]]) -> AgentConstraints:
    kind, data = constraint
    if kind == "vertex":
        return old.with_vertex(data[0], data[1])
    return old.with_edge(data[0], data[1], data[2])


def _narrow(layers: list[set[int]], t: int) -> bool:
    """True if every path of the MDD passes one node at time t (or has finished)."""
    return t >= len(layers) - 1 or len(layers[t]) == 1


def cardinality(conflict: Conflict, mdd_a: list[set[int]], mdd_b: list[set[int]]) -> int:
    """2 for cardinal, 1 for semi-cardinal, 0 for non-cardinal."""
    kind, _, _, _, t = conflict
    if kind == "vertex":
        na, nb = _narrow(mdd_a, t), _narrow(mdd_b, t)
    elif kind == "edge":
        na = _narrow(mdd_a, t) and _narrow(mdd_a, t - 1)
        nb = _narrow(mdd_b, t) and _narrow(mdd_b, t - 1)
    else:
        na, nb = _narrow(mdd_a, t), _narrow(mdd_b, t - 1)
    return int(na) + int(nb)


def min_vertex_cover(edges: set[tuple[int, int]]) -> int:
    """The size of a minimum vertex cover (exact on small graphs, else a matching bound).

    Either way the value never exceeds the true minimum, so the heuristic built on it
    stays admissible.
    """
    if not edges:
        return 0
    if len(edges) > 40:
        used: set[int] = set()
        size = 0
        for u, v in sorted(edges):
            if u not in used and v not in used:
                used.update((u, v))
                size += 1
        return size
    degree: dict[int, set[int]] = {}
    for u, v in edges:
        degree.setdefault(u, set()).add(v)
        degree.setdefault(v, set()).add(u)
    top = max(degree, key=lambda x: len(degree[x]))
    others = degree[top]
    take_top = 1 + min_vertex_cover({e for e in edges if top not in e})
    if len(others) == 1:
        return take_top
    take_others = len(others) + min_vertex_cover(
        {e for e in edges if e[0] not in others and e[1] not in others}
    )
    return min(take_top, take_others)
