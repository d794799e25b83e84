"""Units of several sizes on one grid: the clearance of every cell and, per unit size,
the cost array that unit sees, kept up to date when cells change.

A unit of size ``k`` occupies a ``k x k`` square of cells; it is *anchored* at its
**top-left** cell ``(r, c)`` and covers rows ``r .. r + k - 1`` and columns
``c .. c + k - 1``. It may stand where that square is free and inside the grid, that is
where the cell's true clearance (:mod:`pathcraft._core.clearance`) is at least ``k``.
Entering an anchor costs the **most expensive cell under the footprint** (times
``sqrt(2)`` diagonally), and a diagonal move follows the grid's corner rule applied to
the two footprints it passes between (for ``"no_corner_cut"``: both side anchors must
fit the unit). So a size-``k`` search is the ordinary grid search on a derived cost
array, one per size, built on first use, and every kernel runs on it unchanged.

:class:`SizeCache` holds the clearance (built on the first query of a size above 1)
and the derived arrays; after ``grid[key] = value`` it repairs them in the box the edit
can affect only: the clearance from the edited rows upward while it changes, and each
size's array over the anchors whose footprint meets the edited cells.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import clearance as _clearance
from pathcraft._options import SearchOptions
from pathcraft.grid._checks import cell_indices

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["MAX_SIZES", "SizeCache", "check_size", "edit_box", "unit_cells", "unit_grid"]

#: Derived arrays kept at most (one per unit size; the oldest is dropped first).
MAX_SIZES = 8

Box = tuple[int, int, int, int]


def check_size(value: Any, name: str = "size") -> int:
    """A unit size checked: an integer >= 1 (not a bool).

    >>> check_size(3)
    3
    >>> check_size(0)
    Traceback (most recent call last):
    ...
    ValueError: size must be an integer >= 1 (the side of the unit's square, in cells); got 0
    >>> check_size(1.5)
    Traceback (most recent call last):
    ...
    TypeError: size must be an integer >= 1 (the side of the unit's square, in cells); got 1.5
    """
    accepted = f"{name} must be an integer >= 1 (the side of the unit's square, in cells)"
    counted = isinstance(value, (bool, np.bool_, np.timedelta64))  # Integral, to NumPy
    if counted or not isinstance(value, numbers.Integral):
        raise TypeError(f"{accepted}; got {value!r}")
    size = int(value)
    if size < 1:
        raise ValueError(f"{accepted}; got {value!r}")
    if size > 2**31 - 1:  # the kernels' C int: larger would overflow, not "no fit"
        raise ValueError(f"{accepted} and at most 2**31 - 1; got {value!r}")
    return size


def _axis(part: Any, n: int) -> tuple[int, int] | None:
    """The lowest and highest index one key part selects on an axis of length ``n``
    (None: nothing selected); raises TypeError for parts it does not read."""
    if isinstance(part, slice):
        span = range(*part.indices(n))
        if not span:
            return None
        return min(span[0], span[-1]), max(span[0], span[-1])
    if isinstance(part, numbers.Integral) and not isinstance(part, (bool, np.bool_)):
        i = int(part)
        i = i + n if i < 0 else i
        return (i, i) if 0 <= i < n else None
    raise TypeError


def edit_box(key: Any, shape: tuple[int, int]) -> Box | None:
    """The inclusive box ``(r0, r1, c0, c1)`` of the cells ``array[key]`` selects in an
    array of ``shape`` (None when it selects none).

    >>> edit_box((2, slice(1, 4)), (5, 6))
    (2, 2, 1, 3)
    >>> edit_box(([0, 3], [5, 1]), (5, 6))
    (0, 3, 1, 5)
    """
    rows, cols = shape
    if isinstance(key, tuple) and len(key) == 2:
        try:
            r, c = _axis(key[0], rows), _axis(key[1], cols)
        except TypeError:
            pass
        else:
            if r is None or c is None:
                return None
            return r[0], r[1], c[0], c[1]
    flat = np.arange(rows * cols).reshape(shape)[key]
    if np.size(flat) == 0:
        return None
    rr, cc = np.divmod(np.ravel(flat), cols)
    return int(rr.min()), int(rr.max()), int(cc.min()), int(cc.max())


class SizeCache:
    """The clearance of a grid's cells and the cost arrays of unit sizes above 1.

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's padded cost array (read, never written; the same object the grid
        edits in place).
    make : callable
        ``make(padded_k, size)``: the grid object a size-``size`` search runs on, from
        its derived padded cost array.

    Examples
    --------
    >>> import numpy as np
    >>> padded = np.full((5, 5), np.inf)
    >>> padded[1:-1, 1:-1] = 1.0
    >>> padded[1, 3] = np.inf                      # a wall at cell (0, 2)
    >>> cache = SizeCache(padded, lambda arr, k: arr)
    >>> cache.clearance().tolist()
    [[2, 1, 0], [2, 2, 1], [1, 1, 1]]
    >>> np.isfinite(cache.world(2)[1:-1, 1:-1]).tolist()
    [[True, False, False], [True, True, False], [False, False, False]]
    """

    __slots__ = ("_clear", "_make", "_padded", "_worlds")

    def __init__(self, padded: npt.NDArray[np.float64], make: Callable[[Any, int], Any]) -> None:
        self._padded = padded
        self._make = make
        self._clear: npt.NDArray[np.int32] | None = None
        self._worlds: dict[int, tuple[npt.NDArray[np.float64], Any]] = {}

    def _clearance_array(self) -> npt.NDArray[np.int32]:
        if self._clear is None:
            rows, cols = self._padded.shape
            clear = np.empty((rows - 1, cols - 1), dtype=np.int32)
            _clearance.compute(self._padded, clear)
            self._clear = clear
        return self._clear

    def clearance(self) -> npt.NDArray[np.int32]:
        """Every cell's clearance, shape ``(rows, cols)`` (a read-only view)."""
        view = self._clearance_array()[:-1, :-1]
        view.flags.writeable = False
        return view

    def world(self, size: int) -> Any:
        """The object ``make`` built for ``size`` (built now on first use)."""
        entry = self._worlds.get(size)
        if entry is None:
            clear = self._clearance_array()
            derived = np.full_like(self._padded, np.inf)
            rows, cols = self._padded.shape[0] - 2, self._padded.shape[1] - 2
            _clearance.unit_costs(self._padded, clear, size, derived, 0, rows - 1, 0, cols - 1)
            if len(self._worlds) >= MAX_SIZES:
                del self._worlds[next(iter(self._worlds))]
            entry = (derived, self._make(derived, size))
            self._worlds[size] = entry
        return entry[1]

    def repair(self, box: Box) -> list[Any]:
        """Bring the clearance and every size's array up to date after the cells of
        ``box`` (``(r0, r1, c0, c1)``, inclusive) changed; return the worlds whose
        arrays were rewritten (their own caches need dropping)."""
        if self._clear is None:
            return []
        r0, r1, c0, c1 = box
        _clearance.repair(self._padded, self._clear, r0, r1, c0, c1)
        for size, (derived, _) in self._worlds.items():
            _clearance.unit_costs(
                self._padded, self._clear, size, derived, r0 - size + 1, r1, c0 - size + 1, c1
            )
        return [world for _, world in self._worlds.values()]


def unit_grid(grid: Grid, opts: SearchOptions) -> Grid:
    """The grid a search with checked options runs on: :meth:`Grid.for_size
    <pathcraft.grid.Grid.for_size>` of the ``size`` option (checked here; 1 when not
    given)."""
    size = opts.extra.get("size", 1)
    return grid if size == 1 and type(size) is int else grid.for_size(size)


def unit_cells(
    grid: Grid, world: Grid, name: str, value: Any, *, many: bool, indexed: bool = False
) -> npt.NDArray[np.intp]:
    """Cells checked on ``grid`` (inside, not a wall), then where the unit of ``world``
    does not fit (ValueError naming ``name``, like a cell on a wall), as flat indices.

    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii("...#")
    >>> unit_cells(grid, grid.for_size(1), "start", (0, 2), many=False).tolist()  # padded index
    [9]
    >>> unit_cells(grid, grid.for_size(2), "start", (0, 2), many=False)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: start (0, 2) does not fit a unit of size 2: the 2 x 2 square ... is 1)
    """
    flat = cell_indices(name, value, grid.padded, many=many, indexed=indexed)
    if world is grid:
        return flat
    if flat.shape[0] == 1:  # one cell (the common case): no array arithmetic
        if world.padded.flat[int(flat[0])] != math.inf:
            return flat
        misfit = np.ones(1, dtype=bool)
    else:
        misfit = ~np.isfinite(world.padded.ravel()[flat])
    if misfit.any():
        at = int(np.argmax(misfit))
        row, col = divmod(int(flat[at]), grid.padded.shape[1])
        cell = (row - 1, col - 1)
        label = f"{name}[{at}]" if indexed else name
        size = world.unit_size
        raise ValueError(
            f"{label} {cell} does not fit a unit of size {size}: the {size} x {size} "
            "square with this top-left cell holds a wall or leaves the grid (its "
            f"clearance is {int(grid.clearance[cell])})"
        )
    return flat
