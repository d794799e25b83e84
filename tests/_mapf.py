"""Shared helpers for the multi-agent tests: an independent conflict checker (plain
dicts and loops, written apart from :func:`pathcraft.mapf.validate`), random small
instances, and the grid-move oracle's legality rule."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

Place = Hashable


def conflicts(
    paths: Sequence[Sequence[Place]],
    starts: Sequence[Place],
    goals: Sequence[Place],
    step_ok: Callable[[Place, Place], bool],
    *,
    following: bool = False,
) -> set[tuple[str, tuple[int, ...], int]]:
    """Every fault of a solution as ``(kind, agents, time)``: the MAPF rules checked
    step by step with every agent held at its last place after its path ends.

    ``step_ok(a, b)``: whether moving from ``a`` to ``b`` (a != b) in one step is legal.
    """
    found: set[tuple[str, tuple[int, ...], int]] = set()
    for i, path in enumerate(paths):
        if len(path) == 0 or path[0] != starts[i]:
            found.add(("start", (i,), 0))
        if len(path) == 0:
            continue
        if path[-1] != goals[i]:
            found.add(("goal", (i,), len(path) - 1))
        for t in range(1, len(path)):
            if path[t] != path[t - 1] and not step_ok(path[t - 1], path[t]):
                found.add(("move", (i,), t))
    horizon = max((len(p) for p in paths), default=0)

    def at(i: int, t: int) -> Place:
        path = paths[i]
        return path[min(t, len(path) - 1)]

    live = [i for i, p in enumerate(paths) if len(p)]
    for t in range(horizon):
        for x in range(len(live)):
            for y in range(x + 1, len(live)):
                i, j = live[x], live[y]
                if at(i, t) == at(j, t):
                    found.add(("vertex", (i, j), t))
                if t == 0:
                    continue
                pi, pj, ni, nj = at(i, t - 1), at(j, t - 1), at(i, t), at(j, t)
                if pi != ni and pi == nj and pj == ni:
                    found.add(("edge", (i, j), t))
                elif (
                    following and ni != nj and ((ni == pj and pj != nj) or (nj == pi and pi != ni))
                ):
                    found.add(("following", (i, j), t))
    return found


def assert_solution(
    paths: Sequence[Sequence[Place]],
    starts: Sequence[Place],
    goals: Sequence[Place],
    step_ok: Callable[[Place, Place], bool],
    *,
    following: bool = False,
) -> None:
    """Fail unless ``paths`` is a valid solution by :func:`conflicts`."""
    faults = conflicts(paths, starts, goals, step_ok, following=following)
    assert not faults, sorted(faults, key=lambda f: (f[2], f[0]))[:10]


def grid_step(walkable: np.ndarray, rule: str = "never") -> Callable[[Any, Any], bool]:
    """Legality of one grid move under ``rule`` (``walkable``: boolean (rows, cols))."""
    rows, cols = walkable.shape

    def ok(a: Any, b: Any) -> bool:
        (r0, c0), (r1, c1) = a, b
        dr, dc = r1 - r0, c1 - c0
        if max(abs(dr), abs(dc)) != 1:
            return False
        if not (0 <= r1 < rows and 0 <= c1 < cols and walkable[r1, c1] and walkable[r0, c0]):
            return False
        if dr == 0 or dc == 0:
            return True
        side_a, side_b = bool(walkable[r0 + dr, c0]), bool(walkable[r0, c0 + dc])
        return {
            "never": False,
            "no_corner_cut": side_a and side_b,
            "one_free": side_a or side_b,
            "always": True,
        }[rule]

    return ok


def random_instance(
    rng: np.random.Generator, shape: tuple[int, int], walls: float, agents: int
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """A random walkable mask and distinct starts and distinct goals on free cells
    (goals not necessarily reachable)."""
    walkable = rng.random(shape) >= walls
    free = np.argwhere(walkable)
    if len(free) < agents:
        walkable[:] = True
        free = np.argwhere(walkable)
    starts = free[rng.choice(len(free), agents, replace=False)]
    goals = free[rng.choice(len(free), agents, replace=False)]
    return (
        walkable,
        [(int(r), int(c)) for r, c in starts],
        [(int(r), int(c)) for r, c in goals],
    )
