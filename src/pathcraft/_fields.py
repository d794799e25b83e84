"""Distance maps as the mappings a goal-less Dijkstra result holds.

``dijkstra(start, None)`` answers with every settled node's cost (``distances``) and
its shortest-path tree (``path_to``). The generic search keeps them in dicts; grids
and graphs compute them as flat arrays in the compiled core, and these read-only
mappings show those arrays as ``{node: cost}`` and ``{node: parent}`` without copying
them into dicts, so :meth:`pathcraft.PathResult.path_to` works the same on every world.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult, build_result

__all__ = ["FieldCosts", "FieldParents", "grid_parents", "settled"]


class FieldCosts(Mapping[Hashable, float]):
    """``{node: cost}`` over a flat cost array, for the nodes with a finite cost."""

    __slots__ = ("_costs", "_index", "_key")

    def __init__(
        self,
        costs: npt.NDArray[np.float64],
        index: Callable[[Hashable], int | None],
        key: Callable[[int], Hashable],
    ) -> None:
        self._costs = costs
        self._index = index
        self._key = key

    def __getitem__(self, node: Hashable) -> float:
        i = self._index(node)
        if i is None or not np.isfinite(self._costs[i]):
            raise KeyError(node)
        return float(self._costs[i])

    def __iter__(self) -> Iterator[Hashable]:
        for i in np.flatnonzero(np.isfinite(self._costs)).tolist():
            yield self._key(i)

    def __len__(self) -> int:
        return int(np.isfinite(self._costs).sum())


class FieldParents(Mapping[Hashable, Hashable]):
    """``{node: parent}`` over a flat parent-index array (-1: no parent)."""

    __slots__ = ("_index", "_key", "_parents")

    def __init__(
        self,
        parents: npt.NDArray[np.int64],
        index: Callable[[Hashable], int | None],
        key: Callable[[int], Hashable],
    ) -> None:
        self._parents = parents
        self._index = index
        self._key = key

    def __getitem__(self, node: Hashable) -> Hashable:
        i = self._index(node)
        if i is None or self._parents[i] < 0:
            raise KeyError(node)
        return self._key(int(self._parents[i]))

    def __iter__(self) -> Iterator[Hashable]:
        for i in np.flatnonzero(self._parents >= 0).tolist():
            yield self._key(i)

    def __len__(self) -> int:
        return int((self._parents >= 0).sum())


def settled(
    costs: npt.NDArray[np.float64],
    parents: npt.NDArray[np.int64],
    index: Callable[[Hashable], int | None],
    key: Callable[[int], Hashable],
    empty: Any,
    t0: float,
) -> PathResult:
    """The result of a goal-less Dijkstra over flat arrays: truthy, ``path`` the
    world's ``empty`` path, ``distances`` and ``path_to`` over the arrays (``index``
    and ``key`` convert between nodes and places in them)."""
    count = int(np.isfinite(costs).sum())
    return build_result(
        None, empty, math.inf, expanded=count, generated=count, t0=t0,
        distances=FieldCosts(costs, index, key), parents=FieldParents(parents, index, key),
    )  # fmt: skip


#: The eight moves, straight ones first: the order parents are looked for in.
_MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def grid_parents(
    padded: npt.NDArray[np.float64], dist: npt.NDArray[np.float64], diagonal: str
) -> npt.NDArray[np.int64]:
    """The shortest-path tree of a grid's distance field, as flat parent indices.

    ``padded`` is the grid's cost array with a wall border, ``dist`` its ``(rows,
    cols)`` distance field. A cell's parent is a neighbour ``p`` it can be entered from
    (under the ``diagonal`` rule) with ``dist[p] + step == dist[cell]``, the step
    computed as the kernel computes it, so the equality is exact. Returns an
    ``(rows * cols,)`` array of ``row * cols + col`` indices; -1 for sources, walls and
    unreached cells. Vectorised over the grid, eight passes.
    """
    rows, cols = dist.shape
    cost = padded[1:-1, 1:-1]
    dpad = np.full((rows + 2, cols + 2), np.inf)
    dpad[1:-1, 1:-1] = dist
    free = np.isfinite(padded)
    parent = np.full(rows * cols, -1, dtype=np.int64)
    todo = np.isfinite(dist) & (dist > 0)
    r_idx, c_idx = np.indices((rows, cols))
    sqrt2 = float(np.sqrt(2.0))
    for dr, dc in _MOVES:
        diag = dr != 0 and dc != 0
        if diag and diagonal == "never":
            continue
        # the parent p = cell - (dr, dc): the move p -> cell is (dr, dc)
        pr, pc = 1 - dr, 1 - dc
        dp = dpad[pr : pr + rows, pc : pc + cols]
        step = cost * sqrt2 if diag else cost
        ok = todo & (dp + step == dist)
        if diag and diagonal != "always":
            # the two cells the move passes between: p + (dr, 0) and p + (0, dc)
            a = free[pr + dr : pr + dr + rows, pc : pc + cols]
            b = free[pr : pr + rows, pc + dc : pc + dc + cols]
            ok &= (a & b) if diagonal == "no_corner_cut" else (a | b)
        flat = ((r_idx - dr) * cols + (c_idx - dc))[ok]
        parent[np.flatnonzero(ok.ravel())] = flat
        todo &= ~ok
    return parent
