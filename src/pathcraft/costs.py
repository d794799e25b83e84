"""Cost layers for game AI: danger zones, reward zones and terrain tables.

A grid's behaviour comes from its cost array (see :class:`~pathcraft.grid.Grid`):
``np.inf`` is a wall, every other cost is finite and > 0, and a step into a cell costs
that cell's cost times the step's length. These helpers compose layers onto such an
array, so an agent avoids danger and prefers rewarding areas without any special case
inside a search:

- :func:`terrain` turns an integer label array (grass, road, mud, rock, ...) into a cost
  array through a table;
- :func:`add_danger` adds a penalty around centres (enemies, fire, traps);
- :func:`add_reward` multiplies costs by a factor below 1 around centres (roads,
  cover, pick-ups).

All of them are pure, vectorised NumPy: they return a new float64 array and never
change their inputs. Cells and centres are ``(row, col)``; distances are Euclidean,
measured between cell indices (a centre may lie between cells or off the grid).
Walls stay walls.

Overlapping zones of one call do not add up: each cell takes the strongest zone that
reaches it (the largest penalty, the smallest multiplier). Placing the same threat
twice therefore changes nothing, and reward multipliers cannot compound towards 0. To
stack layers on purpose, call the helper again on its own result.

Examples
--------
>>> import numpy as np
>>> from pathcraft.costs import add_danger, add_reward, terrain
>>> GRASS, ROAD, ROCK = 0, 1, 2
>>> labels = np.array([[GRASS, ROAD, GRASS], [GRASS, ROAD, ROCK]])
>>> cost = terrain(labels, {GRASS: 2.0, ROAD: 1.0, ROCK: np.inf})
>>> cost
array([[ 2.,  1.,  2.],
       [ 2.,  1., inf]])
>>> add_danger(cost, [(0, 0)], radius=1, penalty=10)
array([[12., 11.,  2.],
       [12.,  1., inf]])
>>> add_reward(cost, [(1, 1)], radius=0, multiplier=0.5)
array([[2. , 1. , 2. ],
       [2. , 0.5, inf]])

A grid from the layered costs (``Grid`` copies the array):

>>> from pathcraft import Grid
>>> grid = Grid(add_danger(cost, [(0, 0)], radius=1, penalty=10))
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._validation import check_choice

__all__ = ["FALLOFFS", "add_danger", "add_reward", "terrain"]

Falloff = Literal["none", "linear"]
FloatArray = npt.NDArray[np.float64]

#: The falloff shapes of :func:`add_danger` and :func:`add_reward`.
FALLOFFS: tuple[str, ...] = ("none", "linear")


# ---------------------------------------------------------------------------- checks


def _real_array(value: Any, name: str, what: str) -> FloatArray:
    """``value`` as a new float64 array; ``TypeError`` unless it holds real numbers."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be {what}; got {value!r}") from exc
    if arr.dtype == np.bool_:
        raise TypeError(f"{name} must be {what}; got a boolean array")
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"{name} must be {what}; got dtype {arr.dtype}")
    return np.array(arr, dtype=np.float64, copy=True)


def _first_cell(mask: npt.NDArray[np.bool_]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(mask)), mask.shape))


def _check_cost(cost: Any, name: str = "cost") -> FloatArray:
    """A new float64 copy of a 2-D cost array: finite > 0 or ``np.inf``."""
    values = _real_array(cost, name, "a 2-D array of numbers (np.inf for walls)")
    if values.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (rows, cols); got {values.ndim}-D shape {values.shape}"
        )
    bad = np.isnan(values) | (values <= 0)
    if bad.any():
        cell = _first_cell(bad)
        raise ValueError(
            f"{name} must be > 0 and not NaN (np.inf marks a wall); got "
            f"{float(values[cell])!r} at cell {cell}"
        )
    return values


def _check_centers(centers: Any) -> FloatArray:
    """Centres as a ``(k, 2)`` float array of ``(row, col)``."""
    what = "a (row, col) pair or a (k, 2) array of them"
    arr = _real_array(centers, "centers", what)
    if arr.shape == (2,):
        arr = arr.reshape(1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"centers must be {what}; got shape {arr.shape}")
    finite = np.isfinite(arr).all(axis=1)
    if not finite.all():
        bad = tuple(float(v) for v in arr[np.argmin(finite)])
        raise ValueError(f"centers must be finite; got {bad} at index {int(np.argmin(finite))}")
    return arr


def _per_center(value: Any, name: str, k: int) -> FloatArray:
    """A number or one number per centre, as a ``(k,)`` float array (not yet range-checked)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or one number per centre; got {value!r}")
    arr = _real_array(value, name, "a number or one number per centre")
    if arr.ndim == 0:
        return np.full(k, float(arr))
    if arr.shape != (k,):
        raise ValueError(
            f"{name} must be a number or an array of shape ({k},), one per centre; "
            f"got shape {arr.shape}"
        )
    return arr


def _check_range(values: FloatArray, name: str, ok: npt.NDArray[np.bool_], rule: str) -> None:
    if not ok.all():
        raise ValueError(f"{name} must be {rule}; got {float(values[np.argmin(ok)])!r}")


# ---------------------------------------------------------------------------- zones


def _zones(
    shape: tuple[int, ...], centers: FloatArray, radii: FloatArray, falloff: str
) -> Iterator[tuple[int, tuple[slice, slice], npt.NDArray[np.bool_], FloatArray]]:
    """For each centre: its index, its bounding box inside the grid, and there the
    cells in the zone (distance <= radius) and their falloff distance ``t`` in [0, 1].

    ``t`` is ``d / radius`` with ``"linear"`` falloff and 0 everywhere with ``"none"``
    (and for radius 0). Callers turn it into a strength: the full one at ``t = 0``,
    none at ``t = 1``.
    """
    rows, cols = shape
    for k, ((cr, cc), radius) in enumerate(zip(centers, radii, strict=True)):
        r0, r1 = max(int(np.ceil(cr - radius)), 0), min(int(np.floor(cr + radius)), rows - 1)
        c0, c1 = max(int(np.ceil(cc - radius)), 0), min(int(np.floor(cc + radius)), cols - 1)
        if r0 > r1 or c0 > c1:
            continue
        dr = np.arange(r0, r1 + 1, dtype=np.float64)[:, None] - cr
        dc = np.arange(c0, c1 + 1, dtype=np.float64)[None, :] - cc
        d2 = dr * dr + dc * dc
        inside = d2 <= radius * radius
        if falloff == "linear" and radius > 0:
            t = np.minimum(np.sqrt(d2) / radius, 1.0)
        else:
            t = np.zeros(d2.shape)
        yield k, (slice(r0, r1 + 1), slice(c0, c1 + 1)), inside, t


def _zone_arguments(
    cost: Any, centers: Any, radius: Any, falloff: Any
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The checked cost array, centres and per-centre radii of a zone layer."""
    check_choice("falloff", falloff, FALLOFFS)
    values = _check_cost(cost)
    spots = _check_centers(centers)
    radii = _per_center(radius, "radius", len(spots))
    _check_range(radii, "radius", np.isfinite(radii) & (radii >= 0), "finite and >= 0")
    return values, spots, radii


def add_danger(
    cost: npt.ArrayLike,
    centers: npt.ArrayLike,
    radius: float | npt.ArrayLike,
    penalty: float | npt.ArrayLike,
    *,
    falloff: Falloff = "none",
) -> FloatArray:
    """Add a penalty to the cells near danger centres; return a new cost array.

    A cell within Euclidean distance ``radius`` of a centre gets ``penalty`` added
    (``falloff="none"``) or ``penalty * (1 - d / radius)`` (``falloff="linear"``: the
    full penalty at the centre, 0 at the edge). Where zones overlap a cell takes the
    largest contribution, not the sum. Walls stay walls.

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cell costs: finite and > 0, or ``np.inf`` for walls. Not changed.
    centers : array_like, shape (2,) or (k, 2)
        Danger centres, ``(row, col)``; fractional or off-grid centres are fine.
    radius : float or array_like, shape (k,)
        Zone radius in cells, >= 0 (one for all centres or one per centre). Radius 0
        touches only a centre that sits exactly on a cell.
    penalty : float or array_like, shape (k,)
        Finite cost added at the centre, >= 0. (For no-go areas, set cells to ``np.inf``
        directly.)
    falloff : {"none", "linear"}
        Constant penalty over the zone, or falling linearly to 0 at its edge.

    Returns
    -------
    numpy.ndarray of float64, shape (rows, cols)
        A new array; each cost is >= the input cost.

    Raises
    ------
    TypeError
        ``cost``, ``centers``, ``radius`` or ``penalty`` is not numeric (or is boolean),
        ``falloff`` is not a string.
    ValueError
        ``cost`` is not 2-D or holds NaN, zero or negative values; ``centers`` has the
        wrong shape or is not finite; ``radius`` or ``penalty`` is negative, NaN,
        infinite or of the wrong length; an unknown ``falloff``; a sum overflows to
        ``inf`` (which would turn a cell into a wall).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.costs import add_danger
    >>> cost = np.ones((1, 6))
    >>> add_danger(cost, (0, 0), radius=2, penalty=4)
    array([[5., 5., 5., 1., 1., 1.]])
    >>> add_danger(cost, (0, 0), radius=2, penalty=4, falloff="linear")
    array([[5., 3., 1., 1., 1., 1.]])

    Overlapping zones take the larger penalty:

    >>> add_danger(cost, [(0, 1), (0, 2)], radius=1, penalty=[4, 8])
    array([[5., 9., 9., 9., 1., 1.]])
    >>> add_danger(cost, (0, 0), radius=-1, penalty=4)
    Traceback (most recent call last):
    ...
    ValueError: radius must be finite and >= 0; got -1.0
    >>> add_danger(cost, (0, 0), radius=1, penalty=4, falloff="quadratic")
    Traceback (most recent call last):
    ...
    ValueError: falloff must be one of 'none', 'linear'; got 'quadratic'
    """
    values, spots, radii = _zone_arguments(cost, centers, radius, falloff)
    k = len(spots)
    penalties = _per_center(penalty, "penalty", k)
    _check_range(penalties, "penalty", np.isfinite(penalties) & (penalties >= 0), "finite and >= 0")
    extra = np.zeros_like(values)
    for i, box, inside, t in _zones(values.shape, spots, radii, falloff):
        contribution = np.where(inside, penalties[i] * (1.0 - t), 0.0)
        np.maximum(extra[box], contribution, out=extra[box])
    with np.errstate(over="ignore"):
        out = values + extra
    overflow = np.isinf(out) & np.isfinite(values)
    if overflow.any():
        cell = _first_cell(overflow)
        raise ValueError(
            f"penalty overflows cost to inf at cell {cell} (cost {float(values[cell])!r}); "
            "use np.inf in cost for walls"
        )
    return out


def add_reward(
    cost: npt.ArrayLike,
    centers: npt.ArrayLike,
    radius: float | npt.ArrayLike,
    multiplier: float | npt.ArrayLike,
    *,
    falloff: Falloff = "none",
) -> FloatArray:
    """Multiply the costs near reward centres by a factor < 1; return a new cost array.

    A cell within Euclidean distance ``radius`` of a centre is multiplied by
    ``multiplier`` (``falloff="none"``) or by a factor rising linearly from
    ``multiplier`` at the centre to 1 at the edge (``falloff="linear"``:
    ``multiplier + (1 - multiplier) * d / radius``). Where zones overlap a cell takes
    the smallest factor, not the product, so a cost never falls below
    ``multiplier`` times its value and never reaches 0. Walls stay walls.

    Searches scale their heuristics by the grid's smallest cost, so cheaper cells keep
    A* optimal (at the price of more expansions).

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cell costs: finite and > 0, or ``np.inf`` for walls. Not changed.
    centers : array_like, shape (2,) or (k, 2)
        Reward centres, ``(row, col)``; fractional or off-grid centres are fine.
    radius : float or array_like, shape (k,)
        Zone radius in cells, >= 0 (one for all centres or one per centre).
    multiplier : float or array_like, shape (k,)
        The factor at the centre, in ``(0, 1]``; 1 changes nothing.
    falloff : {"none", "linear"}
        Constant factor over the zone, or rising linearly to 1 at its edge.

    Returns
    -------
    numpy.ndarray of float64, shape (rows, cols)
        A new array; each cost is <= the input cost and > 0.

    Raises
    ------
    TypeError
        ``cost``, ``centers``, ``radius`` or ``multiplier`` is not numeric (or is
        boolean), ``falloff`` is not a string.
    ValueError
        ``cost`` is not 2-D or holds NaN, zero or negative values; ``centers`` has the
        wrong shape or is not finite; ``radius`` is negative, NaN or infinite;
        ``multiplier`` is outside ``(0, 1]``; a length does not match the centres; an
        unknown ``falloff``; a product underflows to 0.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.costs import add_reward
    >>> cost = np.full((1, 6), 2.0)
    >>> add_reward(cost, (0, 0), radius=2, multiplier=0.5)
    array([[1., 1., 1., 2., 2., 2.]])
    >>> add_reward(cost, (0, 0), radius=2, multiplier=0.5, falloff="linear")
    array([[1. , 1.5, 2. , 2. , 2. , 2. ]])
    >>> add_reward(cost, (0, 0), radius=2, multiplier=0)
    Traceback (most recent call last):
    ...
    ValueError: multiplier must be in (0, 1]; got 0.0
    """
    values, spots, radii = _zone_arguments(cost, centers, radius, falloff)
    k = len(spots)
    multipliers = _per_center(multiplier, "multiplier", k)
    _check_range(multipliers, "multiplier", (multipliers > 0) & (multipliers <= 1), "in (0, 1]")
    factor = np.ones_like(values)
    for i, box, inside, t in _zones(values.shape, spots, radii, falloff):
        # multiplier + (non-negative): never below the multiplier, even after rounding.
        m = multipliers[i]
        contribution = np.where(inside, m + (1.0 - m) * t, 1.0)
        np.minimum(factor[box], contribution, out=factor[box])
    with np.errstate(under="ignore"):
        out = values * factor
    underflow = out <= 0
    if underflow.any():
        cell = _first_cell(underflow)
        raise ValueError(
            f"multiplier underflows cost to 0 at cell {cell} (cost {float(values[cell])!r})"
        )
    return out


# ---------------------------------------------------------------------------- terrain


def _check_table(table: Any) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """A label -> cost table as sorted int64 labels and their float64 costs."""
    if isinstance(table, Mapping):
        keys = list(table.keys())
        for key in keys:
            if isinstance(key, bool | np.bool_) or not isinstance(key, numbers.Integral):
                raise TypeError(f"table labels must be integers; got {key!r}")
        labels = np.array([int(key) for key in keys], dtype=np.int64)
        costs = _real_array(
            [table[key] for key in keys] if keys else np.empty(0),
            "table",
            "a mapping from integer labels to costs, or a 1-D array of costs",
        )
    else:
        costs = _real_array(
            table, "table", "a mapping from integer labels to costs, or a 1-D array of costs"
        )
        if costs.ndim != 1:
            raise ValueError(
                f"table must be a mapping or a 1-D array of costs indexed by label; "
                f"got shape {costs.shape}"
            )
        labels = np.arange(costs.size, dtype=np.int64)
    bad = np.isnan(costs) | (costs <= 0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"table[{int(labels[i])}] must be > 0 and not NaN (np.inf marks a wall); "
            f"got {float(costs[i])!r}"
        )
    order = np.argsort(labels, kind="stable")
    return labels[order], costs[order]


def terrain(labels: npt.ArrayLike, table: Mapping[int, float] | npt.ArrayLike) -> FloatArray:
    """A cost array from an integer label array and a label -> cost table.

    Parameters
    ----------
    labels : array_like of int, shape (rows, cols)
        The terrain label of each cell. Not changed.
    table : mapping of int to float, or array_like of float, shape (n,)
        The cost of each label: a mapping ``{label: cost}`` or an array indexed by
        label (label ``i`` costs ``table[i]``). Costs are finite and > 0, or
        ``np.inf`` for labels that are walls.

    Returns
    -------
    numpy.ndarray of float64, shape (rows, cols)
        A new array.

    Raises
    ------
    TypeError
        ``labels`` is not an integer array (booleans and floats are refused), or the
        table's labels or costs are not numbers.
    ValueError
        ``labels`` is not 2-D; a cost in the table is NaN, zero or negative; ``labels``
        holds labels the table lacks (the message lists them).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.costs import terrain
    >>> labels = np.array([[0, 1], [2, 1]])
    >>> terrain(labels, [1.0, 3.0, np.inf])
    array([[ 1.,  3.],
           [inf,  3.]])
    >>> terrain(labels, {0: 1.0, 1: 3.0})
    Traceback (most recent call last):
    ...
    ValueError: labels hold 1 label missing from table: [2]
    """
    arr = np.asarray(labels)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"labels must be an integer array; got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"labels must be 2-D (rows, cols); got {arr.ndim}-D shape {arr.shape}")
    keys, costs = _check_table(table)
    if keys.size:
        pos = np.minimum(np.searchsorted(keys, arr), keys.size - 1)
        known = keys[pos] == arr
    else:
        pos = np.zeros(arr.shape, dtype=np.intp)
        known = np.zeros(arr.shape, dtype=bool)
    if not known.all():
        missing = np.unique(arr[~known])
        shown = ", ".join(str(int(v)) for v in missing[:10])
        more = f", ... ({missing.size} in all)" if missing.size > 10 else ""
        plural = "label" if missing.size == 1 else "labels"
        raise ValueError(f"labels hold {missing.size} {plural} missing from table: [{shown}{more}]")
    if not keys.size:
        return np.zeros(arr.shape, dtype=np.float64)  # labels is empty
    result: FloatArray = costs[pos]
    return result
