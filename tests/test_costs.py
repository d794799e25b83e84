"""Cost layers: danger, reward and terrain on hand-computed arrays, properties, bad input."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pathcraft.costs import FALLOFFS, add_danger, add_reward, terrain

INF = np.inf


def _line(n: int = 6, value: float = 1.0) -> npt.NDArray[np.float64]:
    return np.full((1, n), value)


# ---------------------------------------------------------------------------- danger


def test_danger_constant_disc() -> None:
    cost = np.ones((5, 5))
    out = add_danger(cost, (2, 2), radius=1.5, penalty=2.0)
    expected = np.array(
        [
            [1, 1, 1, 1, 1],
            [1, 3, 3, 3, 1],
            [1, 3, 3, 3, 1],
            [1, 3, 3, 3, 1],
            [1, 1, 1, 1, 1],
        ],
        dtype=float,
    )
    np.testing.assert_array_equal(out, expected)
    # radius 2: the four cells at distance exactly 2 are in, (0, 1) at sqrt(5) is not.
    out = add_danger(cost, (2, 2), radius=2, penalty=2.0)
    assert out[0, 2] == out[2, 0] == out[4, 2] == out[2, 4] == 3.0
    assert out[0, 1] == 1.0 and out[1, 1] == 3.0


def test_danger_linear_falloff_values() -> None:
    cost = np.ones((3, 3))
    out = add_danger(cost, (0, 0), radius=2, penalty=4, falloff="linear")
    d = np.hypot(*np.indices((3, 3)))
    expected = 1 + np.where(d <= 2, 4 * (1 - d / 2), 0)
    np.testing.assert_allclose(out, expected)
    assert out[0, 0] == 5.0 and out[0, 1] == 3.0 and out[0, 2] == 1.0
    assert out[1, 1] == pytest.approx(1 + 4 * (1 - math.sqrt(2) / 2))


def test_danger_overlap_takes_the_max_not_the_sum() -> None:
    out = add_danger(_line(), [(0, 1), (0, 2)], radius=1, penalty=[4, 8])
    np.testing.assert_array_equal(out, [[5, 9, 9, 9, 1, 1]])
    # The same centre twice changes nothing.
    once = add_danger(_line(), [(0, 2)], radius=2, penalty=3)
    twice = add_danger(_line(), [(0, 2), (0, 2)], radius=2, penalty=3)
    np.testing.assert_array_equal(once, twice)
    # Stacking on purpose: call again.
    again = add_danger(once, [(0, 2)], radius=2, penalty=3)
    np.testing.assert_array_equal(again, [[7, 7, 7, 7, 7, 1]])


def test_danger_per_centre_radius_and_linear_overlap() -> None:
    out = add_danger(_line(8), [(0, 0), (0, 7)], radius=[2, 4], penalty=[10, 4], falloff="linear")
    np.testing.assert_allclose(out, [[11, 6, 1, 1, 2, 3, 4, 5]])
    out = add_danger(_line(3), [(0, 0), (0, 2)], radius=2, penalty=[4, 2], falloff="linear")
    # cell 1: max(4 * 0.5, 2 * 0.5) = 2, cell 2: max(0, 2) = 2
    np.testing.assert_allclose(out, [[5, 3, 3]])


def test_danger_walls_stay_walls_and_input_untouched() -> None:
    cost = np.array([[1.0, INF, 2.0], [INF, 3.0, 1.0]])
    before = cost.copy()
    out = add_danger(cost, (0, 1), radius=5, penalty=7, falloff="linear")
    np.testing.assert_array_equal(cost, before)
    assert out is not cost and not np.shares_memory(out, cost)
    assert np.isinf(out[0, 1]) and np.isinf(out[1, 0])
    assert np.isfinite(out[[0, 0, 1, 1], [0, 2, 1, 2]]).all()


def test_danger_fractional_and_off_grid_centres() -> None:
    out = add_danger(np.ones((2, 2)), (0.5, 0.5), radius=0.71, penalty=1)
    np.testing.assert_array_equal(out, np.full((2, 2), 2.0))
    out = add_danger(np.ones((2, 3)), (-1, 1), radius=1, penalty=1)
    np.testing.assert_array_equal(out, [[1, 2, 1], [1, 1, 1]])
    out = add_danger(np.ones((2, 3)), (50, 50), radius=3, penalty=1)
    np.testing.assert_array_equal(out, np.ones((2, 3)))


def test_danger_edge_cases() -> None:
    cost = np.ones((3, 3))
    # radius 0 marks only the centre cell, with either falloff.
    for falloff in FALLOFFS:
        out = add_danger(cost, (1, 1), radius=0, penalty=2, falloff=falloff)  # type: ignore[arg-type]
        assert out.sum() == 9 + 2 and out[1, 1] == 3
    # no centres, zero penalty: a plain copy.
    np.testing.assert_array_equal(add_danger(cost, np.empty((0, 2)), radius=1, penalty=1), cost)
    np.testing.assert_array_equal(add_danger(cost, (1, 1), radius=1, penalty=0), cost)
    # integer costs are fine; the result is float64.
    out = add_danger(np.ones((2, 2), dtype=np.int32), (0, 0), radius=0, penalty=1)
    assert out.dtype == np.float64 and out.tolist() == [[2.0, 1.0], [1.0, 1.0]]
    # read-only inputs (like Grid.cost) are accepted.
    ro = np.ones((2, 2))
    ro.flags.writeable = False
    assert add_danger(ro, (0, 0), radius=1, penalty=1).flags.writeable


def test_danger_overflow_is_refused() -> None:
    with pytest.raises(ValueError, match=r"penalty overflows cost to inf at cell \(0, 0\)"):
        add_danger(np.full((1, 1), 1e308), (0, 0), radius=1, penalty=1e308)


# ---------------------------------------------------------------------------- reward


def test_reward_constant_and_linear() -> None:
    cost = _line(value=2.0)
    np.testing.assert_array_equal(
        add_reward(cost, (0, 0), radius=2, multiplier=0.5), [[1, 1, 1, 2, 2, 2]]
    )
    np.testing.assert_allclose(
        add_reward(cost, (0, 0), radius=4, multiplier=0.2, falloff="linear"),
        [[0.4, 0.8, 1.2, 1.6, 2.0, 2.0]],
    )


def test_reward_overlap_takes_the_smallest_factor() -> None:
    out = add_reward(_line(value=4.0), [(0, 1), (0, 2)], radius=1, multiplier=[0.5, 0.25])
    np.testing.assert_array_equal(out, [[2, 1, 1, 1, 4, 4]])
    twice = add_reward(_line(), [(0, 2), (0, 2)], radius=2, multiplier=0.5)
    np.testing.assert_array_equal(twice, add_reward(_line(), (0, 2), radius=2, multiplier=0.5))


def test_reward_walls_stay_walls_and_input_untouched() -> None:
    cost = np.array([[INF, 1.0], [2.0, INF]])
    before = cost.copy()
    out = add_reward(cost, [(0, 0), (1, 1)], radius=3, multiplier=0.1)
    np.testing.assert_array_equal(cost, before)
    np.testing.assert_allclose(out, [[INF, 0.1], [0.2, INF]])


def test_reward_multiplier_one_is_a_copy() -> None:
    cost = np.arange(1.0, 7.0).reshape(2, 3)
    out = add_reward(cost, (0, 0), radius=10, multiplier=1.0, falloff="linear")
    np.testing.assert_array_equal(out, cost)
    assert not np.shares_memory(out, cost)


def test_reward_underflow_is_refused() -> None:
    with pytest.raises(ValueError, match=r"multiplier underflows cost to 0 at cell \(0, 0\)"):
        add_reward(np.full((1, 1), 1e-300), (0, 0), radius=1, multiplier=1e-300)


# ---------------------------------------------------------------------------- terrain


def test_terrain_from_mapping_and_array() -> None:
    labels = np.array([[0, 1, 2], [2, 1, 0]], dtype=np.uint8)
    table = {0: 1.0, 1: 2.5, 2: INF}
    expected = np.array([[1.0, 2.5, INF], [INF, 2.5, 1.0]])
    np.testing.assert_array_equal(terrain(labels, table), expected)
    np.testing.assert_array_equal(terrain(labels, [1.0, 2.5, INF]), expected)
    np.testing.assert_array_equal(terrain(labels, np.array([1, 2.5, INF])), expected)
    out = terrain(labels, table)
    assert out.dtype == np.float64 and out.shape == labels.shape


def test_terrain_sparse_negative_and_numpy_keys() -> None:
    labels = np.array([[-5, 100], [7, -5]])
    table = {np.int64(100): 3.0, -5: 1.0, 7: 2}
    np.testing.assert_array_equal(terrain(labels, table), [[1.0, 3.0], [2.0, 1.0]])


def test_terrain_does_not_change_inputs() -> None:
    labels = np.array([[0, 1]])
    table = np.array([1.0, 2.0])
    terrain(labels, table)[0, 0] = 99
    assert labels.tolist() == [[0, 1]] and table.tolist() == [1.0, 2.0]


def test_terrain_unknown_labels_are_named() -> None:
    labels = np.array([[0, 3, 9], [3, -1, 0]])
    with pytest.raises(ValueError, match=r"labels hold 3 labels missing from table: \[-1, 3, 9\]"):
        terrain(labels, {0: 1.0})
    with pytest.raises(ValueError, match=r"missing from table: \[-1, 3, 9\]"):
        terrain(labels, [1.0, 1.0])
    many = np.arange(20).reshape(4, 5)
    with pytest.raises(ValueError, match=r"\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, \.\.\. \(20 in all\)\]"):
        terrain(many, {})


@pytest.mark.parametrize(
    ("table", "error", "words"),
    [
        ({0: 0.0}, ValueError, r"table\[0\] must be > 0"),
        ({0: 1.0, 4: -2.0}, ValueError, r"table\[4\] must be > 0 .*got -2\.0"),
        ([1.0, np.nan], ValueError, r"table\[1\] must be > 0 and not NaN"),
        ({0: 1.0, "grass": 2.0}, TypeError, "table labels must be integers; got 'grass'"),
        ({True: 1.0}, TypeError, "table labels must be integers"),
        ({0: "x"}, TypeError, "table must be a mapping"),
        ([[1.0, 2.0]], ValueError, r"table must be a mapping or a 1-D array .*shape \(1, 2\)"),
        ("abc", TypeError, "table must be"),
    ],
)
def test_terrain_bad_tables(table: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        terrain(np.zeros((2, 2), dtype=int), table)


@pytest.mark.parametrize(
    ("labels", "error", "words"),
    [
        (np.zeros((2, 2)), TypeError, "labels must be an integer array; got dtype float64"),
        (
            np.zeros((2, 2), dtype=bool),
            TypeError,
            "labels must be an integer array; got dtype bool",
        ),
        (np.zeros(3, dtype=int), ValueError, r"labels must be 2-D \(rows, cols\); got 1-D"),
        (np.zeros((1, 2, 2), dtype=int), ValueError, "labels must be 2-D"),
    ],
)
def test_terrain_bad_labels(labels: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        terrain(labels, [1.0])


# ---------------------------------------------------------------------------- bad input

GOOD: dict[str, Any] = {"cost": np.ones((3, 3)), "centers": (1, 1), "radius": 1.0}


@pytest.mark.parametrize("func", [add_danger, add_reward], ids=["danger", "reward"])
@pytest.mark.parametrize(
    ("name", "value", "error", "words"),
    [
        ("cost", np.ones(3), ValueError, r"cost must be 2-D \(rows, cols\); got 1-D"),
        ("cost", np.ones((2, 2, 2)), ValueError, "cost must be 2-D"),
        ("cost", np.ones((2, 2), dtype=bool), TypeError, "cost must be .*boolean"),
        ("cost", np.array([["a"]]), TypeError, "cost must be .*got dtype <U1"),
        ("cost", np.ones((2, 2), dtype=complex), TypeError, "cost must be .*complex128"),
        (
            "cost",
            [[1.0, np.nan]],
            ValueError,
            r"cost must be > 0 and not NaN.*nan at cell \(0, 1\)",
        ),
        ("cost", [[1.0], [0.0]], ValueError, r"cost must be > 0 .*got 0\.0 at cell \(1, 0\)"),
        ("cost", [[-1.0]], ValueError, r"cost must be > 0 .*got -1\.0"),
        ("cost", [[-INF]], ValueError, r"cost must be > 0 .*got -inf"),
        ("centers", (1, 2, 3), ValueError, r"centers must be a \(row, col\) pair .*shape \(3,\)"),
        ("centers", [[[1, 1]]], ValueError, r"centers must be .*shape \(1, 1, 2\)"),
        (
            "centers",
            [(1, np.nan)],
            ValueError,
            r"centers must be finite; got \(1\.0, nan\) at index 0",
        ),
        ("centers", [(True, False)], TypeError, "centers must be .*boolean"),
        ("centers", "ab", TypeError, "centers must be"),
        ("radius", -1.0, ValueError, r"radius must be finite and >= 0; got -1\.0"),
        ("radius", np.nan, ValueError, "radius must be finite and >= 0; got nan"),
        ("radius", INF, ValueError, "radius must be finite and >= 0; got inf"),
        ("radius", [1.0, 2.0], ValueError, r"radius must be a number or an array of shape \(1,\)"),
        ("radius", True, TypeError, "radius must be a number"),
        ("radius", "1", TypeError, "radius must be a number"),
    ],
)
def test_bad_input_names_the_argument(
    func: Any, name: str, value: Any, error: type[Exception], words: str
) -> None:
    args = {**GOOD, name: value}
    strength = {"penalty": 1.0} if func is add_danger else {"multiplier": 0.5}
    with pytest.raises(error, match=words):
        func(args["cost"], args["centers"], args["radius"], **strength)


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (-0.5, ValueError, r"penalty must be finite and >= 0; got -0\.5"),
        (INF, ValueError, "penalty must be finite and >= 0; got inf"),
        (np.nan, ValueError, "penalty must be finite and >= 0; got nan"),
        ([1.0, 2.0], ValueError, r"penalty must be a number or an array of shape \(1,\)"),
        (False, TypeError, "penalty must be a number"),
        (None, TypeError, "penalty must be"),
    ],
)
def test_bad_penalty(value: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        add_danger(np.ones((2, 2)), (0, 0), 1.0, value)


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (0.0, ValueError, r"multiplier must be in \(0, 1\]; got 0\.0"),
        (-0.5, ValueError, r"multiplier must be in \(0, 1\]; got -0\.5"),
        (1.5, ValueError, r"multiplier must be in \(0, 1\]; got 1\.5"),
        (np.nan, ValueError, r"multiplier must be in \(0, 1\]; got nan"),
        ([0.5, 0.0], ValueError, r"multiplier must be in \(0, 1\]; got 0\.0"),
        (True, TypeError, "multiplier must be a number"),
    ],
)
def test_bad_multiplier(value: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        add_reward(np.ones((2, 2)), [(0, 0), (1, 1)], 1.0, value)


@pytest.mark.parametrize("func", [add_danger, add_reward], ids=["danger", "reward"])
def test_unknown_falloff_lists_the_choices(func: Any) -> None:
    with pytest.raises(ValueError, match="falloff must be one of 'none', 'linear'; got 'cubic'"):
        func(np.ones((2, 2)), (0, 0), 1.0, 0.5, falloff="cubic")
    with pytest.raises(TypeError, match="falloff must be a string"):
        func(np.ones((2, 2)), (0, 0), 1.0, 0.5, falloff=None)


# ---------------------------------------------------------------------------- properties

costs_2d = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12),
    elements=st.one_of(
        st.floats(min_value=1e-3, max_value=1e3, allow_nan=False), st.just(float("inf"))
    ),
)
centers_st = hnp.arrays(
    np.float64,
    st.tuples(st.integers(0, 4), st.just(2)),
    elements=st.floats(min_value=-3, max_value=15, allow_nan=False),
)
radius_st = st.floats(min_value=0, max_value=10, allow_nan=False)
falloff_st = st.sampled_from(FALLOFFS)


@given(costs_2d, centers_st, radius_st, st.floats(0, 1e3), falloff_st)
def test_danger_never_lowers_a_cost(
    cost: npt.NDArray[np.float64],
    centers: npt.NDArray[np.float64],
    radius: float,
    penalty: float,
    falloff: Any,
) -> None:
    before = cost.copy()
    out = add_danger(cost, centers, radius, penalty, falloff=falloff)
    np.testing.assert_array_equal(cost, before)
    assert out.shape == cost.shape and out.dtype == np.float64
    assert (out >= cost).all()
    assert (out - np.where(np.isinf(cost), 0, cost) <= penalty + 1e-9)[np.isfinite(cost)].all()
    np.testing.assert_array_equal(np.isinf(out), np.isinf(cost))


@given(
    costs_2d,
    centers_st,
    radius_st,
    st.floats(min_value=1e-6, max_value=1, exclude_min=False),
    falloff_st,
)
def test_reward_never_raises_a_cost_nor_reaches_zero(
    cost: npt.NDArray[np.float64],
    centers: npt.NDArray[np.float64],
    radius: float,
    multiplier: float,
    falloff: Any,
) -> None:
    before = cost.copy()
    out = add_reward(cost, centers, radius, multiplier, falloff=falloff)
    np.testing.assert_array_equal(cost, before)
    assert (out <= cost).all() and (out > 0).all()
    finite = np.isfinite(cost)
    assert (out[finite] >= cost[finite] * multiplier * (1 - 1e-12)).all()
    np.testing.assert_array_equal(np.isinf(out), np.isinf(cost))


@given(
    st.floats(min_value=-2, max_value=2),
    st.floats(min_value=0.5, max_value=12),
    st.floats(min_value=0.01, max_value=100),
    st.floats(min_value=0.01, max_value=1),
)
def test_linear_falloff_is_monotone_in_distance(
    offset: float, radius: float, penalty: float, multiplier: float
) -> None:
    # One row of cells, the centre at column `offset` (maybe off-grid): the further a
    # cell, the smaller its extra cost and the larger its reward factor.
    cost = np.ones((1, 16))
    centre = (0.0, offset)
    dist = np.abs(np.arange(16) - offset)
    order = np.argsort(dist, kind="stable")
    danger = add_danger(cost, centre, radius, penalty, falloff="linear")[0, order]
    reward = add_reward(cost, centre, radius, multiplier, falloff="linear")[0, order]
    assert (np.diff(danger) <= 1e-12).all()
    assert (np.diff(reward) >= -1e-12).all()
    # The edge and beyond: unchanged.
    outside = dist[order] >= radius
    assert (danger[outside] == 1).all() and (reward[outside] == 1).all()
    # Inside: the exact formula.
    inside = ~outside
    d = dist[order][inside]
    np.testing.assert_allclose(danger[inside], 1 + penalty * (1 - d / radius))
    np.testing.assert_allclose(reward[inside], multiplier + (1 - multiplier) * d / radius)


@given(
    hnp.arrays(
        np.int16,
        hnp.array_shapes(min_dims=2, max_dims=2, max_side=10),
        elements=st.integers(-3, 3),
    )
)
def test_terrain_matches_a_python_lookup(labels: npt.NDArray[np.int16]) -> None:
    table = {v: float(v + 4) if v != 0 else INF for v in range(-3, 4)}
    out = terrain(labels, table)
    assert out.tolist() == [[table[int(v)] for v in row] for row in labels]
