"""Units of several sizes on one grid: the clearance of every cell and, per unit size,
the cost array that unit sees, kept up to date when cells change.

A unit of size ``k`` occupies a ``k x k`` square of cells; it is *anchored* at its
**top-left** cell ``(r, c)`` and covers rows ``r .. r + k - 1`` and columns
``c .. c + k - 1``. It may stand where that square is free and inside the grid, that is
where the cell's true clearance (:mod:`pathcraft._core.clearance`) is at least ``k``.
Entering an anchor costs the **most expensive cell under the footprint** (times
``sqrt(2)`` diagonally), and a diagonal move follows the grid's corner rule applied to
the two side anchors it passes between (the anchors one straight step along each
axis): ``"no_corner_cut"``, both must fit the unit; ``"one_free"``, at least one;
``"always"``, neither need (the unit's square may sweep across a wall's corner, only
the anchor it lands on must fit); ``"never"`` has no diagonal moves. So a size-``k``
search is the ordinary grid search on a derived cost array, one per size, built on
first use, and every kernel runs on it unchanged.

:class:`SizeCache` holds the clearance (built on the first query of a size above 1)
and the derived arrays, an item of the grid's prepared state
(:mod:`pathcraft.grid._prepared`); when the grid's version moves it repairs them in the
box the edits can affect only: the clearance from the edited rows upward while it
changes, and each size's array over the anchors whose footprint meets the edited cells.
"""

from __future__ import annotations

import math
import numbers
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import clearance as _clearance
from pathcraft._options import SearchOptions
from pathcraft.grid._checks import cell_indices

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = [
    "MAX_SIZES",
    "Box",
    "SizeCache",
    "batch_cells",
    "cells_box",
    "check_size",
    "unit_cells",
    "unit_grid",
]

#: Derived arrays kept at most (one per unit size; the oldest is dropped first).
MAX_SIZES = 8

Box = tuple[int, int, int, int]


#: The kernels take a unit size as a C int: a larger one would overflow, not "not fit".
_LARGEST_SIZE = 2**31 - 1


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
    if type(value) is int and 1 <= value <= _LARGEST_SIZE:  # the common case, no ABC checks
        return value
    accepted = f"{name} must be an integer >= 1 (the side of the unit's square, in cells)"
    counted = isinstance(value, (bool, np.bool_, np.timedelta64))  # Integral, to NumPy
    if counted or not isinstance(value, numbers.Integral):
        raise TypeError(f"{accepted}; got {value!r}")
    size = int(value)
    if size < 1:
        raise ValueError(f"{accepted}; got {value!r}")
    if size > _LARGEST_SIZE:
        raise ValueError(f"{accepted} and at most 2**31 - 1; got {value!r}")
    return size


def cells_box(flat: npt.NDArray[np.intp], cols: int) -> Box | None:
    """The inclusive box ``(r0, r1, c0, c1)`` of flat cell indices in a grid of
    ``cols`` columns (None for none).

    >>> import numpy as np
    >>> cells_box(np.array([7, 2, 13]), 5)
    (0, 2, 2, 3)
    """
    if flat.size == 0:
        return None
    rows, cols_ = np.divmod(flat, cols)
    return int(rows.min()), int(rows.max()), int(cols_.min()), int(cols_.max())


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
    version : int
        The version of the cells (``Grid.version``) the cache is built for.
    changed : callable
        ``changed(version)``: the box ``(r0, r1, c0, c1)`` (inclusive) of the cells
        edited since ``version``, or None; :meth:`update` asks it.

    Examples
    --------
    >>> import numpy as np
    >>> padded = np.full((5, 5), np.inf)
    >>> padded[1:-1, 1:-1] = 1.0
    >>> padded[1, 3] = np.inf                      # a wall at cell (0, 2)
    >>> cache = SizeCache(padded, lambda arr, k: arr, 0, lambda v: None)
    >>> cache.clearance().tolist()
    [[2, 1, 0], [2, 2, 1], [1, 1, 1]]
    >>> np.isfinite(cache.world(2)[1:-1, 1:-1]).tolist()
    [[True, False, False], [True, True, False], [False, False, False]]
    """

    __slots__ = ("_changed", "_clear", "_lock", "_make", "_padded", "_worlds", "version")

    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        make: Callable[[Any, int], Any],
        version: int,
        changed: Callable[[int], Box | None],
    ) -> None:
        self._padded = padded
        self._make = make
        self._clear: npt.NDArray[np.int32] | None = None
        self._worlds: dict[int, tuple[npt.NDArray[np.float64], Any]] = {}
        self._lock = threading.Lock()  # builds and repairs: one thread at a time
        #: The version of the cells the clearance and the arrays describe.
        self.version = version
        self._changed = changed

    def _clearance_array(self) -> npt.NDArray[np.int32]:
        clear = self._clear
        if clear is None:
            with self._lock:
                clear = self._clear
                if clear is None:
                    rows, cols = self._padded.shape
                    clear = np.empty((rows - 1, cols - 1), dtype=np.int32)
                    _clearance.compute(self._padded, clear)
                    self._clear = clear  # published once complete
        return clear

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
            with self._lock:
                entry = self._worlds.get(size)
                if entry is None:
                    derived = np.full_like(self._padded, np.inf)
                    self._derive(size, derived, clear)
                    if len(self._worlds) >= MAX_SIZES:
                        del self._worlds[next(iter(self._worlds))]
                    entry = (derived, self._make(derived, size))
                    self._worlds[size] = entry
        return entry[1]

    def _derive(
        self, size: int, derived: npt.NDArray[np.float64], clear: npt.NDArray[np.int32]
    ) -> None:
        rows, cols = self._padded.shape[0] - 2, self._padded.shape[1] - 2
        _clearance.unit_costs(self._padded, clear, size, derived, 0, rows - 1, 0, cols - 1)

    def view(self, size: int) -> Any:
        """The object kept for ``size``, or None (no building, no update)."""
        entry = self._worlds.get(size)
        return None if entry is None else entry[1]

    def holds(self, size: int, derived: npt.NDArray[np.float64]) -> bool:
        """Whether ``derived`` is the array this cache keeps (and repairs) for
        ``size``: False for the array of a view dropped to make room for others."""
        entry = self._worlds.get(size)
        return entry is not None and entry[0] is derived

    def rederive(self, size: int, derived: npt.NDArray[np.float64]) -> None:
        """Bring the array of a dropped view (see :meth:`holds`) up to date, all of
        it: nothing repaired it since it was dropped."""
        clear = self._clearance_array()
        with self._lock:
            self._derive(size, derived, clear)

    def update(self, version: int) -> None:
        """Bring the clearance and every size's array up to ``version`` of the cells:
        repaired over the box of the cells edited since :attr:`version` (see
        :meth:`repair`), once, whichever thread asks first (the others wait)."""
        if self.version == version:
            return
        with self._lock:
            if self.version != version:
                box = self._changed(self.version)
                if box is not None:
                    self.repair(box)
                self.version = version

    def repair(self, box: Box) -> None:
        """Bring the clearance and every size's array up to date after the cells of
        ``box`` (``(r0, r1, c0, c1)``, inclusive) changed (the caller holds the lock)."""
        if self._clear is not None:
            r0, r1, c0, c1 = box
            _clearance.repair(self._padded, self._clear, r0, r1, c0, c1)
            for size, (derived, _) in self._worlds.items():
                _clearance.unit_costs(
                    self._padded, self._clear, size, derived, r0 - size + 1, r1, c0 - size + 1, c1
                )


def unit_grid(grid: Grid, opts: SearchOptions) -> Grid:
    """The grid a search with checked options runs on: :meth:`Grid.for_size
    <pathcraft.grid.Grid.for_size>` of the ``size`` option (checked here; 1 when not
    given)."""
    size = opts.extra.get("size", 1)
    return grid if type(size) is int and size == 1 else grid.for_size(size)


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


def batch_cells(grid: Grid, world: Grid, name: str, value: Any) -> npt.NDArray[np.intp]:
    """A batch's :func:`unit_cells`: an ``(n, 2)`` array of cells (``n`` may be 0)
    as flat padded indices; errors name the row (``starts[3]``)."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nesting, odd objects
        raise TypeError(
            f"{name} must be an (n, 2) array of (row, col) cells; got {value!r}"
        ) from exc
    if arr.size == 0 and arr.ndim <= 2:
        return np.empty(0, dtype=np.intp)  # no queries: nothing to do
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must be an (n, 2) array of (row, col) cells; got shape {arr.shape}"
        )
    # the given value, not the array: its integers checked as given (a uint64 beside
    # an int64 is no float), and a bool among them refused
    return unit_cells(grid, world, name, value, many=True, indexed=True)
