"""Input checks of :class:`pathcraft.grid.Grid`: cost arrays, cell values, cells, text.

Each raises before any compiled code runs, with a message naming the argument.
"""

from __future__ import annotations

import math
import numbers
import textwrap
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "cell_indices",
    "check_float64_kept",
    "check_not_masked",
    "cost_array",
    "cost_values",
    "edited_cells",
    "parse_ascii",
]


def cost_array(cost: Any, name: str = "cost") -> npt.NDArray[np.float64]:
    """Check a cost array and return it as a new float64 array."""
    check_not_masked(cost, name)
    if isinstance(cost, np.ndarray):
        arr = cost
    else:
        try:
            arr = np.asarray(cost)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be a 2-D array of numbers; got {cost!r}") from exc
    if arr.dtype == np.bool_:
        raise TypeError(
            f"{name} must hold numbers (np.inf for walls); got a boolean array: "
            "use Grid.from_walkable for walkable masks"
        )
    if arr.dtype == object and arr is not cost:
        arr = _python_numbers(arr, name, "at cell")
    if arr.dtype.kind not in "iuf":  # not timedelta64, a subclass of NumPy's integers
        raise TypeError(f"{name} must be an integer or float array; got dtype {arr.dtype}")
    if arr is not cost and _holds_bool(cost):
        raise TypeError(f"{name} must hold numbers, not True or False (np.inf for walls)")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (rows, cols); got {arr.ndim}-D shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column; got {arr.shape}")
    out = _as_float64(arr, name, "at cell")
    check_cost_values(out, name)
    check_cost_scale(out, out.size, name)
    return out


def check_not_masked(value: Any, name: str) -> None:
    """Refuse a NumPy masked array (TypeError naming ``name``): reading it as an array
    would drop its mask."""
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(
            f"{name} must be a plain array, not a NumPy masked array (its mask would be "
            "lost): fill the masked cells first, e.g. with .filled(np.inf) to make them walls"
        )


#: What NumPy counts among its numbers and a cost or a cell coordinate is not.
_NOT_NUMBERS = (bool, np.bool_, np.timedelta64)


def _holds_bool(value: Any) -> bool:
    """Whether a (nested) sequence NumPy read as numbers holds a bool (read as 0 or 1):
    one look at each item, for input that is not an array already."""
    return any(isinstance(x, (bool, np.bool_)) for x in np.asarray(value, dtype=object).flat)


def _python_numbers(arr: npt.NDArray[Any], name: str, where_label: str) -> npt.NDArray[Any]:
    """An object array NumPy made of a sequence of Python numbers (ints too big for
    any NumPy integer, such as ``2**70``) as float64; the object array unchanged when
    it holds anything else (refused by the caller's dtype check). ValueError naming
    ``name`` for an int beyond float64's range."""
    if not arr.size or not all(
        isinstance(x, numbers.Real) and not isinstance(x, _NOT_NUMBERS) for x in arr.flat
    ):
        return arr
    out = np.empty(arr.shape, dtype=np.float64)
    for index, x in np.ndenumerate(arr):
        try:
            out[index] = float(x)
        except OverflowError:
            where = f" {where_label} {index}" if index else ""
            raise ValueError(
                f"{name} holds {x!r}{where}, beyond the float64 range (about 1.8e308) "
                "costs are kept in; np.inf marks a wall"
            ) from None
    return out


def _as_float64(arr: npt.NDArray[Any], name: str, where_label: str) -> npt.NDArray[np.float64]:
    """A new float64 copy of a numeric array; ValueError naming ``name`` where a value
    is not representable (a long double beyond float64's range would become ``inf``, a
    wall, or a tiny one 0)."""
    with np.errstate(over="ignore", under="ignore"):
        out = np.array(arr, dtype=np.float64, copy=True)
    check_float64_kept(arr, out, name, where_label)
    return out


def check_float64_kept(
    given: npt.NDArray[Any], out: npt.NDArray[np.float64], name: str, where_label: str
) -> None:
    """Refuse (ValueError naming ``name``) a wider float ``given`` whose float64 copy
    ``out`` lost a value: a long double beyond float64's range became ``inf`` (a wall)
    or a tiny one 0."""
    if given.dtype.kind != "f" or given.dtype.itemsize <= 8:
        return
    lost = (np.isfinite(given) & ~np.isfinite(out)) | ((given != 0) & (out == 0))
    if lost.any():
        index = tuple(int(i) for i in np.argwhere(lost)[0]) if given.ndim else ()
        where = f" {where_label} {index}" if index else ""
        raise ValueError(
            f"{name} holds {given[index]!r}{where}, not representable as float64 "
            "(finite costs from about 4.9e-324 to 1.8e308; np.inf marks a wall)"
        )


def check_cost_scale(values: npt.NDArray[np.float64], cells: int, name: str) -> None:
    """Refuse costs so large that a path could overflow to ``inf``: no path visits a
    cell twice, so the largest finite cost times sqrt(2) times the number of cells
    must stay finite (otherwise a search could report ``found`` with ``cost=inf``)."""
    finite = values[np.isfinite(values)]
    if not finite.size:
        return
    largest = float(finite.max())
    limit = np.finfo(np.float64).max / (math.sqrt(2.0) * max(cells, 1))
    if largest > limit:
        raise ValueError(
            f"{name} holds {largest!r}, too large for a grid of {cells} cells: a path "
            f"could cost more than float64 holds; costs must be at most {limit:.3g} here "
            "(np.inf marks a wall)"
        )


def check_padded(padded: Any, name: str = "padded") -> None:
    """Check a grid's costs with their border of walls (:meth:`Grid.from_padded`), a
    band of rows at a time so that no temporary is as large as the grid."""
    if not isinstance(padded, np.ndarray) or padded.dtype != np.float64:
        raise TypeError(
            f"{name} must be a float64 NumPy array; got "
            + (f"dtype {padded.dtype}" if isinstance(padded, np.ndarray) else type(padded).__name__)
        )
    if padded.ndim != 2 or padded.shape[0] < 3 or padded.shape[1] < 3:
        raise ValueError(
            f"{name} must be 2-D, at least 3 x 3 (a cell and its border); got shape {padded.shape}"
        )
    if not (padded.flags.c_contiguous and padded.flags.writeable and padded.flags.aligned):
        raise ValueError(f"{name} must be C-contiguous, aligned and writeable")
    border = (padded[0], padded[-1], padded[:, 0], padded[:, -1])
    if not all(np.all(np.isposinf(side)) for side in border):
        raise ValueError(f"{name} must have a border of walls (inf) all round")
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    band = max(1, (1 << 20) // cols)
    largest = -math.inf
    for top in range(0, rows, band):
        values = padded[1 + top : 1 + min(rows, top + band), 1:-1]
        bad = np.isnan(values) | (values <= 0) | np.isneginf(values)
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"{name} must hold costs > 0 and not NaN (np.inf marks a wall); got "
                f"{float(values[r, c])!r} at cell {(top + r, c)}"
            )
        finite = values[np.isfinite(values)]
        if finite.size:
            largest = max(largest, float(finite.max()))
    if largest > -math.inf:
        check_cost_scale(np.array([largest]), rows * cols, name)


def check_cost_values(
    values: npt.NDArray[np.float64], name: str, where_label: str = "at cell"
) -> None:
    bad = np.isnan(values) | (values <= 0) | np.isneginf(values)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0]) if values.ndim else ()
        value = float(values[where] if values.ndim else values)
        raise ValueError(
            f"{name} must be > 0 and not NaN (np.inf marks a wall); got {value!r}"
            + (f" {where_label} {where}" if where else "")
        )


def cost_values(value: Any) -> npt.NDArray[np.float64]:
    """Check the value of ``grid[key] = value``: numbers > 0 or ``np.inf``."""
    wrong_kind = f"value must be a number or an array of numbers (np.inf: a wall); got {value!r}"
    check_not_masked(value, "value")
    try:
        given = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(wrong_kind) from exc
    if given.dtype == object and given is not value:
        given = _python_numbers(given, "value", "at index")
    if given.dtype.kind not in "iuf":
        raise TypeError(wrong_kind)
    if given is not value and not isinstance(value, np.generic) and _holds_bool(value):
        raise TypeError(wrong_kind)
    values = _as_float64(given, "value", "at index")
    check_cost_values(values, "value", where_label="at index")
    return values


def cell_indices(
    name: str, value: Any, padded: npt.NDArray[np.float64], *, many: bool, indexed: bool = False
) -> npt.NDArray[np.intp]:
    """One ``(row, col)`` cell, or with ``many`` also a ``(k, 2)`` array of cells,
    checked to be in bounds and walkable, as flat indices into the padded array.
    ``indexed``: errors name the bad cell's row in the array (``starts[3]``)."""
    if type(value) is tuple and len(value) == 2:  # the common case, checked without NumPy
        flat = _one_cell(value, padded)
        if flat >= 0:
            return np.array([flat], dtype=np.intp)
    arr = _integer_cells(name, value)
    if arr.ndim == 1 and arr.shape == (2,):
        arr = arr.reshape(1, 2)
    elif not (many and arr.ndim == 2 and arr.shape[1] == 2 and arr.shape[0] > 0):
        kind = "a (row, col) pair or a (k, 2) array of cells" if many else "a (row, col) pair"
        raise ValueError(f"{name} must be {kind}; got shape {arr.shape}")
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    r, c = arr[:, 0], arr[:, 1]  # compared in their own dtype: nothing wraps around
    outside = (r < 0) | (r >= rows) | (c < 0) | (c >= cols)
    if outside.any():
        at = int(np.argmax(outside))
        row, col = (int(x) for x in arr[at])
        label = f"{name}[{at}]" if indexed else name
        hint = ""
        if 0 <= col < rows and 0 <= row < cols:
            hint = f"; grids take (row, col): did you mean ({col}, {row})?"
        raise ValueError(
            f"{label} {(row, col)} is outside the grid of shape {(rows, cols)}: rows run "
            f"from 0 to {rows - 1}, columns from 0 to {cols - 1}{hint}"
        )
    cells = arr.astype(np.intp)
    r, c = cells[:, 0], cells[:, 1]
    flat = (r + 1) * (cols + 2) + (c + 1)
    walls = ~np.isfinite(padded.ravel()[flat])
    if walls.any():
        at = int(np.argmax(walls))
        cell = tuple(int(x) for x in cells[at])
        label = f"{name}[{at}]" if indexed else name
        raise ValueError(f"{label} {cell} is a wall")
    return np.ascontiguousarray(flat, dtype=np.intp)


def _integer_cells(name: str, value: Any) -> npt.NDArray[Any]:
    """``value`` as an integer array, or TypeError naming ``name``. Python ints too big
    for any NumPy integer stay exact (an object array), to be reported as outside."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be (row, col) integers; got {value!r}") from exc
    if arr.dtype.kind in "fO" and not isinstance(value, np.ndarray):
        # Python ints too big for int64, or NumPy ints of mixed signedness (2**63 with
        # an int64 0), which NumPy promotes to float: kept exact as Python objects.
        exact = np.asarray(value, dtype=object)
        if exact.size and all(
            isinstance(x, numbers.Integral) and not isinstance(x, _NOT_NUMBERS)
            for x in exact.flat
        ):
            return exact  # exact comparisons, then "outside the grid"
    if arr.dtype.kind in "iu" and not isinstance(value, np.ndarray) and _holds_bool(value):
        raise TypeError(f"{name} must be (row, col) integers, not True or False; got {value!r}")
    if arr.dtype.kind not in "iu":
        hint = ""
        if np.issubdtype(arr.dtype, np.floating):
            hint = " (grid cells are (row, col) integers, not (x, y) positions)"
        raise TypeError(f"{name} must be (row, col) integers; got {value!r}{hint}")
    return arr


def _one_cell(cell: tuple[Any, Any], padded: npt.NDArray[np.float64]) -> int:
    """The flat padded index of a ``(row, col)`` tuple of Python ints inside the grid
    and walkable; -1 for anything else (the array path then checks and reports it)."""
    r, c = cell
    flat: int
    if type(r) is not int or type(c) is not int:
        return -1
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    if not (0 <= r < rows and 0 <= c < cols):
        return -1
    flat = (r + 1) * (cols + 2) + c + 1
    if padded.flat[flat] == math.inf:
        return -1
    return flat


def parse_ascii(text: Any) -> npt.NDArray[np.float64]:
    """Costs from text: ``#`` wall, ``.`` floor (1), digits ``1``-``9`` (their value)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    lines = [line.rstrip() for line in textwrap.dedent(text).strip("\n").splitlines()]
    if not lines or not lines[0]:
        raise ValueError("text holds no grid rows")
    width = len(lines[0])
    table = {"#": math.inf, ".": 1.0} | {str(d): float(d) for d in range(1, 10)}
    cost = np.empty((len(lines), width))
    for r, line in enumerate(lines):
        if len(line) != width:
            raise ValueError(
                f"text line {r + 1} has {len(line)} cells; line 1 has {width}: "
                "every row must have the same length"
            )
        for c, ch in enumerate(line):
            value = table.get(ch)
            if value is None:
                raise ValueError(
                    f"text line {r + 1}, column {c + 1}: unknown cell {ch!r}; "
                    "use '#' (wall), '.' (floor) or 1-9"
                )
            cost[r, c] = value
    return cost


def edited_cells(inner: npt.NDArray[np.float64], key: Any) -> npt.NDArray[np.intp]:
    """The flat indices (into the ``(rows, cols)`` array) of the cells ``inner[key]``
    names, for the change log: O(1) for one ``(row, col)``, else a mask of the grid.

    >>> import numpy as np
    >>> edited_cells(np.ones((2, 3)), (1, -1)).tolist(), edited_cells(np.ones((2, 3)), 0).tolist()
    ([5], [0, 1, 2])
    """
    rows, cols = inner.shape
    if isinstance(key, tuple) and len(key) == 2 and all(
        isinstance(k, numbers.Integral) and not isinstance(k, bool) for k in key
    ):
        r, c = int(key[0]), int(key[1])
        if -rows <= r < rows and -cols <= c < cols:
            return np.array([(r % rows) * cols + c % cols], dtype=np.intp)
    mask = np.zeros((rows, cols), dtype=np.bool_)
    mask[key] = True
    return np.flatnonzero(mask)
