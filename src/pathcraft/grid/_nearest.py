"""The nearest walkable cell to any cell, inside the grid or not (issue 29).

A player's physics position can lie in a cell the grid calls a wall, or off the map;
:func:`nearest_walkable` finds the walkable cell whose centre is nearest (Euclidean
distance between cell centres), ties to the smallest ``(row, col)``. The search looks
at square windows of the padded cost array around the cell, doubling their radius
until a walkable cell is found, then once more at the radius that holds every cell as
near as it: the cost is the area searched (about the square of the answer's
distance), never the map's, and a window never reaches past the grid.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._validation import check_limit

__all__ = ["FARTHEST", "NONE", "nearest_walkable", "open_cell"]

#: The row of an answer where no walkable cell is near enough.
NONE = (-1, -1)


#: The largest row or column index taken (its squared distances fit int64 exactly).
FARTHEST = 2**29


def _cells(name: str, value: Any) -> tuple[npt.NDArray[np.int64], bool]:
    """``value`` as an ``(k, 2)`` int64 array and whether one pair was given."""
    arr = np.asarray(value)
    if arr.dtype == object or (arr.dtype.kind not in "iu" and arr.size) or (
        not isinstance(value, np.ndarray)
        and any(isinstance(x, (bool, np.bool_)) for x in np.asarray(value, dtype=object).flat)
    ):
        raise TypeError(f"{name} must be (row, col) integers (not True or False); got {value!r}")
    one = arr.ndim == 1
    if one:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must be a (row, col) pair or a (k, 2) array; got shape {arr.shape}"
        )
    if arr.size and not (np.abs(arr.astype(np.float64)) <= FARTHEST).all():
        raise ValueError(f"{name} must be integers from -2**29 to 2**29; got {value!r}")
    return arr.astype(np.int64), one


def _plain_pair(node: Any) -> bool:
    """``node`` is a tuple of two ints within :data:`FARTHEST` (the common case)."""
    return (
        type(node) is tuple
        and len(node) == 2
        and type(node[0]) is int
        and type(node[1]) is int
        and -FARTHEST <= node[0] <= FARTHEST
        and -FARTHEST <= node[1] <= FARTHEST
    )


def open_cell(padded: npt.NDArray[np.float64], node: Any) -> bool:
    """``node`` is a tuple of two ints naming a walkable cell of the padded cost
    array ``padded``: the check agents make each step, without NumPy."""
    return (
        _plain_pair(node)
        and 0 <= node[0] < padded.shape[0] - 2
        and 0 <= node[1] < padded.shape[1] - 2
        and padded[node[0] + 1, node[1] + 1] != math.inf
    )


def _limit(max_distance: Any) -> float:
    """The largest distance taken: ``max_distance`` checked, inf for None."""
    limit = check_limit("max_distance", max_distance, integer=False)
    return math.inf if limit is None else float(limit)


def _window(
    padded: npt.NDArray[np.float64], r: int, c: int, radius: int
) -> tuple[int, int] | None:
    """The nearest walkable cell to ``(r, c)`` within Chebyshev ``radius``, or None."""
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    r0, r1 = max(r - radius, 0), min(r + radius, rows - 1)
    c0, c1 = max(c - radius, 0), min(c + radius, cols - 1)
    if r0 > r1 or c0 > c1:
        return None
    open_ = np.isfinite(padded[r0 + 1 : r1 + 2, c0 + 1 : c1 + 2])
    if not open_.any():
        return None
    dr = (np.arange(r0, r1 + 1, dtype=np.int64) - r)[:, None]
    dc = (np.arange(c0, c1 + 1, dtype=np.int64) - c)[None, :]
    d2 = np.where(open_, dr * dr + dc * dc, np.iinfo(np.int64).max)
    i, j = divmod(int(np.argmin(d2)), d2.shape[1])  # row-major: the smallest (row, col)
    return r0 + i, c0 + j


def _one(padded: npt.NDArray[np.float64], r: int, c: int, limit: float) -> tuple[int, int]:
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    if 0 <= r < rows and 0 <= c < cols and padded[r + 1, c + 1] != math.inf:
        return r, c
    # Chebyshev distance from the cell to the grid: no window smaller reaches it
    gap = max(-r, r - rows + 1, -c, c - cols + 1, 0)
    if gap > limit:
        return NONE
    widest = gap + max(rows, cols)  # a window this wide holds the whole grid
    radius = max(gap, 1)
    while True:
        found = _window(padded, r, c, radius)
        if found is not None:
            d = math.hypot(found[0] - r, found[1] - c)
            if d > radius:  # a nearer cell may lie outside this window: look once more
                found = _window(padded, r, c, math.ceil(d))
                assert found is not None
            fr, fc = found
            return found if (fr - r) ** 2 + (fc - c) ** 2 <= limit * limit else NONE
        if radius >= widest or radius >= limit:
            return NONE
        radius = min(radius * 2, widest)


def nearest_walkable(
    padded: npt.NDArray[np.float64], cells: Any, max_distance: Any = None, name: str = "cells"
) -> tuple[npt.NDArray[np.intp], bool]:
    """The nearest walkable cell to each of ``cells`` on the padded cost array
    ``padded`` (walls ``inf``), ``(-1, -1)`` where none lies within ``max_distance``;
    and whether one pair was given (errors name the argument ``name``). See
    :meth:`pathcraft.Grid.nearest_walkable`."""
    limit = _limit(max_distance)
    if _plain_pair(cells):  # one (row, col) tuple of ints: no array to check
        return np.array([_one(padded, cells[0], cells[1], limit)], dtype=np.intp), True
    arr, one = _cells(name, cells)
    out = np.empty(arr.shape, dtype=np.intp)
    for k, (r, c) in enumerate(arr.tolist()):
        out[k] = _one(padded, r, c, limit)
    return out, one
