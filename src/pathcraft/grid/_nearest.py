"""The nearest walkable cell to any cell, inside the grid or not (issue 29).

A player's physics position can lie in a cell the grid calls a wall, or off the map;
:func:`nearest_walkable` finds the walkable cell whose centre is nearest (Euclidean
distance between cell centres), ties to the smallest ``(row, col)``. The search looks
at square windows of the padded cost array around the cell, doubling their radius
until a walkable cell is found, then once more at the radius that holds every cell as
near as it: the cost is the area searched (about the square of the answer's
distance), never the map's, and a window never reaches past the grid. The same code
serves any number of dimensions (a voxel grid's ``(z, row, col)``: cubic windows).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._validation import check_limit

__all__ = ["FARTHEST", "NONE", "cell_array", "nearest_walkable", "open_cell"]

#: The row of an answer where no walkable cell is near enough.
NONE = (-1, -1)


_FAR = np.iinfo(np.int64).max  # the distance of a wall in a window

#: The largest row or column index taken (its squared distances fit int64 exactly).
FARTHEST = 2**29


def cell_array(name: str, value: Any, dims: int = 2) -> tuple[npt.NDArray[np.int64], bool]:
    """``value`` as an ``(k, dims)`` int64 array and whether one cell was given."""
    what = "(row, col)" if dims == 2 else f"cells of {dims}"
    arr = np.asarray(value)
    if arr.dtype == object or (arr.dtype.kind not in "iu" and arr.size) or (
        not isinstance(value, np.ndarray)
        and any(isinstance(x, (bool, np.bool_)) for x in np.asarray(value, dtype=object).flat)
    ):
        raise TypeError(f"{name} must be {what} integers (not True or False); got {value!r}")
    one = arr.ndim == 1
    if one:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != dims:
        single = "a (row, col) pair" if dims == 2 else f"a cell of {dims} ints"
        raise ValueError(
            f"{name} must be {single} or a (k, {dims}) array; got shape {arr.shape}"
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
    padded: npt.NDArray[np.float64], cell: tuple[int, ...], radius: int
) -> tuple[int, ...] | None:
    """The nearest walkable cell to ``cell`` within Chebyshev ``radius``, or None."""
    lo, window, squares = [], [], []
    for x, n in zip(cell, padded.shape, strict=True):
        a, b = max(x - radius, 0), min(x + radius, n - 3)
        if a > b:
            return None
        lo.append(a)
        window.append(slice(a + 1, b + 2))
        squares.append(np.arange(a - x, b - x + 1, dtype=np.int64) ** 2)
    open_ = np.isfinite(padded[tuple(window)])
    if not open_.any():
        return None
    d2 = functools.reduce(np.add.outer, squares)  # squared distances over the window
    d2[~open_] = _FAR
    at = np.unravel_index(int(d2.argmin()), d2.shape)  # row-major: the smallest cell
    return tuple(a + int(k) for a, k in zip(lo, at, strict=True))


def _one(padded: npt.NDArray[np.float64], cell: tuple[int, ...], limit: float) -> tuple[int, ...]:
    gap = 0  # the Chebyshev distance from the cell to the grid: no smaller window reaches it
    for x, n in zip(cell, padded.shape, strict=True):
        gap = max(gap, -x, x - n + 3)
    if gap == 0 and padded[tuple(x + 1 for x in cell)] != math.inf:
        return cell
    none = (-1,) * len(cell)
    if gap > limit:
        return none
    widest = gap + max(padded.shape) - 2  # a window this wide holds the whole grid
    radius = max(gap, 1)
    while True:
        found = _window(padded, cell, radius)
        if found is not None:
            d = math.dist(found, cell)
            if d > radius:  # a nearer cell may lie outside this window: look once more
                found = _window(padded, cell, math.ceil(d))
                assert found is not None
            near = sum((a - b) ** 2 for a, b in zip(found, cell, strict=True))
            return found if near <= limit * limit else none
        if radius >= widest or radius >= limit:
            return none
        radius = min(radius * 2, widest)


def nearest_walkable(
    padded: npt.NDArray[np.float64], cells: Any, max_distance: Any = None, name: str = "cells"
) -> tuple[npt.NDArray[np.intp], bool]:
    """The nearest walkable cell to each of ``cells`` on the padded cost array
    ``padded`` (walls ``inf``, one layer of them around; any number of dimensions,
    cells as many ints), ``(-1, ...)`` where none lies within ``max_distance``; and
    whether one cell was given (errors name the argument ``name``). See
    :meth:`pathcraft.Grid.nearest_walkable`."""
    limit = _limit(max_distance)
    if padded.ndim == 2 and _plain_pair(cells):  # one (row, col) tuple of ints: no checks
        return np.array([_one(padded, cells, limit)], dtype=np.intp), True
    arr, one = cell_array(name, cells, padded.ndim)
    out = np.empty(arr.shape, dtype=np.intp)
    for k, cell in enumerate(arr.tolist()):
        out[k] = _one(padded, tuple(cell), limit)
    return out, one
