"""Hostile input on the grid world: ``Grid(cost)``, ``grid[key] = value``, ``size=`` and
the cells of ``find_path``. Each call gives the right answer (scipy's, or the values
converted one by one by Python) or a ``ValueError``/``TypeError`` naming the argument."""

from __future__ import annotations

import math
import pickle
import re
from typing import Any

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pathcraft import Grid

COST = np.array(
    [
        [1.0, 2.0, 1.0, 1.0, 1.0],
        [1.0, np.inf, np.inf, 1.0, 3.0],
        [0.5, 1.0, 3.0, 1.0, 1.0],
        [1.0, 1.0, np.inf, 1.0, 1.0],
    ]
)
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


# --------------------------------------------------------------------------- cells


@pytest.mark.parametrize(
    "cell",
    [
        (0, 2**63),
        (0, 2**64),
        (0, -(2**63) - 1),
        (-(2**70), 0),
        (10**30, 10**30),
        [0, 2**63],
        (np.int8(0), np.uint64(2**63)),
        (np.int64(0), np.uint64(2**64 - 1)),
        np.array([0, 2**63], dtype=np.uint64),
        (0, np.int64(2**62)),
    ],
)
def test_a_huge_integer_cell_is_outside_the_grid(cell: Any) -> None:
    grid = Grid(np.ones((5, 5)))
    with pytest.raises(ValueError, match=r"^start \(.*\) is outside the grid of shape \(5, 5\)"):
        grid.astar(cell, (4, 4))
    with pytest.raises(ValueError, match=r"^goal \(.*\) is outside the grid"):
        grid.find_path((4, 4), cell)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_numpy_integers_of_every_width_and_mixed_signedness_are_cells(dtype: Any) -> None:
    grid = Grid(COST)
    want = float(oracle(COST, "no_corner_cut", [(0, 3)])[3, 4])
    for other in (int, np.int64, np.uint64, np.int8):
        assert grid.astar((dtype(0), other(3)), (other(3), dtype(4))).cost == pytest.approx(want)


@pytest.mark.parametrize("cell", [(True, 0), (0, False), [np.True_, 1], (np.int8(1), True)])
def test_a_bool_is_not_a_cell_coordinate(cell: Any) -> None:
    with pytest.raises(TypeError, match=r"^start must be \(row, col\) integers, not True or False"):
        Grid(COST).astar(cell, (0, 0))


def test_a_timedelta_is_neither_a_cell_nor_a_cost() -> None:
    # NumPy makes timedelta64 a subclass of its integers
    with pytest.raises(TypeError, match=r"^start must be \(row, col\) integers"):
        Grid(COST).astar(np.array([1, 1], dtype="m8[s]"), (0, 0))
    with pytest.raises(TypeError, match=r"^goal must be \(row, col\) integers"):
        Grid(COST).astar((0, 0), (np.timedelta64(1, "s"), 0))
    with pytest.raises(TypeError, match=r"^cost must be an integer or float array; got dtype"):
        Grid(np.ones((2, 2), dtype="m8[s]"))
    with pytest.raises(TypeError, match=r"^value must be a number"):
        Grid(COST)[0, 0] = np.timedelta64(2, "s")


# --------------------------------------------------------------------------- costs


def test_a_huge_integer_cost_is_a_finite_cost() -> None:
    grid = Grid([[1, 2**70]])
    assert grid.cost.tolist() == [[1.0, float(2**70)]]
    assert grid.astar((0, 0), (0, 1)).cost == float(2**70)
    grid[0, 0] = 2**70
    assert grid[0, 0] == float(2**70)
    grid[0, :] = [3, 2**64]
    assert grid.cost.tolist() == [[3.0, float(2**64)]]


def test_an_integer_beyond_float64_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^cost holds 10+ at cell \(0, 1\), beyond the float64"):
        Grid([[1, 10**400]])
    grid = Grid(np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"^value holds 1000\d+, beyond the float64"):
        grid[0, 0] = 10**400
    assert grid.cost.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_a_long_double_float64_cannot_hold_is_refused_not_made_a_wall() -> None:
    big = np.array([[1.0, 1.0]], dtype=np.longdouble)
    big[0, 1] = np.longdouble(10) ** 400
    if not np.isfinite(big[0, 1]):
        pytest.skip("long double is float64 on this platform")
    with pytest.raises(ValueError, match=r"^cost holds .* at cell \(0, 1\), not representable"):
        Grid(big)
    tiny = np.array([[1.0, 1.0]], dtype=np.longdouble)
    tiny[0, 0] = np.longdouble(10) ** -400
    with pytest.raises(ValueError, match=r"^cost holds .* at cell \(0, 0\), not representable"):
        Grid(tiny)
    grid = Grid(np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"^value holds .*, not representable as float64"):
        grid[0, 1] = big[0, 1]
    with_inf = np.array([[1.0, np.inf]], dtype=np.longdouble)
    assert Grid(with_inf).cost.tolist() == [[1.0, math.inf]]  # a wall stays a wall


def test_a_masked_array_is_refused_rather_than_its_mask_lost() -> None:
    masked = np.ma.masked_array(np.ones((2, 2)), mask=[[False, True], [False, False]])
    with pytest.raises(TypeError, match=r"^cost must be a plain array, not a NumPy masked"):
        Grid(masked)
    assert Grid(masked.filled(np.inf)).cost.tolist() == [[1.0, math.inf], [1.0, 1.0]]
    grid = Grid(np.ones((2, 2)))
    with pytest.raises(TypeError, match=r"^value must be a plain array, not a NumPy masked"):
        grid[0, :] = np.ma.masked_array([1.0, 2.0], mask=[True, False])


def test_a_bool_among_costs_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^cost must hold numbers, not True or False"):
        Grid([[1, True], [2, 3]])
    grid = Grid(np.ones((2, 2)))
    with pytest.raises(TypeError, match=r"^value must be a number"):
        grid[0, :] = [2, True]


# --------------------------------------------------------------------------- size


@pytest.mark.parametrize("size", [2**31, 2**40, 2**63, 2**64, 10**30])
def test_a_size_beyond_the_kernels_int_names_size(size: int) -> None:
    grid = Grid(np.ones((5, 5)))
    for call in (
        lambda: grid.find_path((0, 0), (4, 4), size=size),
        lambda: grid.astar((0, 0), (4, 4), size=size),
        lambda: grid.dijkstra((0, 0), (4, 4), size=size),
        lambda: grid.greedy((0, 0), (4, 4), size=size),
        lambda: grid.jps((0, 0), (4, 4), size=size),
        lambda: grid.path_cost((0, 0), (4, 4), size=size),
        lambda: grid.find_paths([(0, 0)], [(4, 4)], size=size),
        lambda: grid.path_costs([(0, 0)], [(4, 4)], size=size),
        lambda: grid.start_search((0, 0), (4, 4), size=size),
        lambda: grid.distance_field([(0, 0)], size=size),
        lambda: grid.for_size(size),
    ):
        with pytest.raises(ValueError, match=r"^size must be an integer >= 1 .* at most 2\*\*31"):
            call()
    # the largest size the kernels take is an answer: no unit that big fits
    with pytest.raises(ValueError, match=r"^start \(0, 0\) does not fit a unit of size 2147483647"):
        grid.find_path((0, 0), (4, 4), size=2**31 - 1)


# --------------------------------------------------------------------------- fuzz
NUMPY_DTYPES = [
    *INT_DTYPES, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
    np.complex128, np.bool_, np.dtype("U3"), np.dtype("S3"), np.dtype("M8[s]"),
    np.dtype("m8[s]"),
]  # fmt: skip

numpy_scalars = st.sampled_from(NUMPY_DTYPES).flatmap(
    lambda dt: hnp.from_dtype(np.dtype(dt), allow_nan=True, allow_infinity=True)
    if np.dtype(dt).kind in "fc"
    else hnp.from_dtype(np.dtype(dt))
)
scalars = st.one_of(
    st.integers(-3, 8),
    st.integers(-(2**80), 2**80),
    st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True),
    st.sampled_from([1e308, 5e-324, 0.5, 2.0, math.inf]),
    st.booleans(),
    st.text(max_size=3),
    numpy_scalars,
)


def is_integer(x: Any) -> bool:
    # NumPy's timedelta64 is a subclass of its integers; not a number here
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_, np.timedelta64))


def cell_of(value: Any) -> tuple[int, int] | None:
    """The cell ``value`` names by the documented contract, judged apart from the
    grid's checks: two integers (Python or NumPy, never bools), as a tuple, list or
    integer array; None for anything else."""
    if isinstance(value, np.ndarray):
        if value.shape != (2,) or value.dtype.kind not in "iu":
            return None
        return int(value[0]), int(value[1])
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None
    if not all(is_integer(x) for x in value):
        return None
    return int(value[0]), int(value[1])


cells = st.one_of(
    st.tuples(st.integers(-2, 6), st.integers(-2, 6)),
    st.tuples(scalars, scalars),
    st.lists(st.one_of(st.integers(-2, 6), scalars), max_size=3),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=2),
    hnp.arrays(st.sampled_from(INT_DTYPES), st.sampled_from([(2,), (1, 2), (3,)])),
    scalars,
)


@given(start=cells, goal=cells, rule=st.sampled_from(["never", "no_corner_cut", "always"]))
@settings(max_examples=400, deadline=None)
def test_find_path_cells_get_the_oracle_s_answer_or_a_named_error(
    start: Any, goal: Any, rule: str
) -> None:
    grid = Grid(COST, diagonal=rule)
    want = {name: cell_of(v) for name, v in (("start", start), ("goal", goal))}
    inside = {
        name: c is not None and 0 <= c[0] < 4 and 0 <= c[1] < 5 and bool(np.isfinite(COST[c]))
        for name, c in want.items()
    }
    try:
        result = grid.find_path(start, goal)
    except (ValueError, TypeError) as exc:
        bad = "start" if not inside["start"] else "goal"
        assert not inside[bad], f"valid cells refused: {exc!r}"
        assert str(exc).startswith(bad), str(exc)
        return
    assert inside["start"] and inside["goal"], f"accepted {start!r} -> {goal!r}"
    s, g = want["start"], want["goal"]
    assert s is not None and g is not None
    best = float(oracle(COST, rule, [s])[g])
    if math.isinf(best):
        assert not result and result.reason == "unreachable"
    else:
        assert result.cost == pytest.approx(best, rel=1e-9)


def float_of(x: Any) -> float | None:
    """A cost item as the float64 the contract makes of it, judged apart from the
    grid's checks; None for what is not a number (bool, str, complex, dates)."""
    if not (is_integer(x) or isinstance(x, (float, np.floating))):
        return None
    try:
        value = float(x)
    except OverflowError:
        return None
    if isinstance(x, np.floating) and x.dtype.itemsize > 8 and (
        (np.isfinite(x) and not math.isfinite(value)) or (x != 0 and value == 0)
    ):
        return None
    if math.isnan(value) or value <= 0:
        return None
    return value


costs = st.one_of(
    st.lists(st.lists(scalars, min_size=1, max_size=3), min_size=1, max_size=3),
    st.lists(
        st.lists(st.sampled_from([1, 2, 2.5, math.inf, 2**70]), min_size=2, max_size=2),
        min_size=1,
        max_size=3,
    ),
    hnp.arrays(
        st.sampled_from(NUMPY_DTYPES), hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)
    ),
    scalars,
    st.builds(lambda a: np.ma.masked_array(a, mask=a > 2), hnp.arrays(np.float64, (2, 2))),
)


@given(cost=costs)
@settings(max_examples=400, deadline=None)
def test_grid_costs_are_kept_exactly_or_refused_by_name(cost: Any) -> None:
    arr = None
    if not isinstance(cost, np.ma.MaskedArray):
        try:
            arr = np.array(cost, dtype=object)
        except ValueError:
            arr = None  # ragged
    valid = arr is not None and arr.ndim == 2 and arr.size > 0
    if isinstance(cost, np.ndarray) and cost.dtype.kind not in "iuf":
        valid = False  # dates, text, ...: as objects a date past 9999 reads as an int
    values = [float_of(x) for x in arr.flat] if valid and arr is not None else []
    valid = valid and all(v is not None for v in values)
    try:
        grid = Grid(cost)
    except (ValueError, TypeError) as exc:
        assert str(exc).startswith("cost "), str(exc)
        if valid:  # only the overflow guard may refuse numbers that are all valid
            assert "too large for a grid" in str(exc), str(exc)
        return
    assert valid, f"accepted {cost!r}"
    assert arr is not None
    assert grid.cost.ravel().tolist() == values
    assert grid.shape == arr.shape
    assert pickle.loads(pickle.dumps(grid)).cost.tolist() == grid.cost.tolist()


@given(value=st.one_of(scalars, st.lists(scalars, min_size=1, max_size=2)))
@settings(max_examples=300, deadline=None)
def test_cell_assignment_keeps_the_number_or_refuses_value_by_name(value: Any) -> None:
    grid = Grid(COST)
    items = value if isinstance(value, list) else [value]
    want = [float_of(x) for x in items]
    key: Any = (0, slice(0, len(items))) if isinstance(value, list) else (0, 0)
    try:
        grid[key] = value
    except (ValueError, TypeError) as exc:
        assert str(exc).startswith("value "), str(exc)
        if all(w is not None for w in want):
            assert "too large for a grid" in str(exc), str(exc)
        assert grid.cost.tolist() == COST.tolist()  # nothing changed
        return
    assert all(w is not None for w in want), f"accepted {value!r}"
    assert grid.cost[0, : len(items)].tolist() == want


@given(size=scalars)
@settings(max_examples=300, deadline=None)
def test_size_is_a_unit_size_or_refused_by_name(size: Any) -> None:
    grid = Grid(np.ones((4, 5)))
    valid = is_integer(size) and 1 <= int(size) <= 2**31 - 1
    try:
        result = grid.find_path((0, 0), (2, 2), size=size)
    except (ValueError, TypeError) as exc:
        if valid:  # a unit too big for the grid: the cells it cannot stand on are named
            assert re.match(r"(start \(0, 0\)|goal \(2, 2\)) does not fit a unit", str(exc))
            assert int(size) > 2
        else:
            assert str(exc).startswith("size must be an integer >= 1"), str(exc)
        return
    assert valid, f"accepted size={size!r}"
    # a k x k unit on an open 4 x 5 floor: its top-left cell moves as a cell does
    want = float(oracle(np.ones((5 - int(size), 6 - int(size))), "no_corner_cut", [(0, 0)])[2, 2])
    assert result.cost == pytest.approx(want)
