"""``pathcraft.grid.Grid``: every bad input raises, names the argument and changes nothing."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest

from pathcraft import Grid


def make_grid() -> Grid:
    cost = np.array(
        [
            [1.0, 2.0, 1.0, 1.0],
            [1.0, np.inf, np.inf, 1.0],
            [0.5, 1.0, 3.0, 1.0],
        ]
    )
    return Grid(cost, diagonal="no_corner_cut")


WALL = (1, 1)


def snapshot(grid: Grid) -> tuple[Any, ...]:
    return (grid.cost.copy(), grid.min_cost, grid.diagonal, grid.heuristic, grid.shape)


def assert_unchanged(grid: Grid, before: tuple[Any, ...]) -> None:
    np.testing.assert_array_equal(grid.cost, before[0])
    assert (grid.min_cost, grid.diagonal, grid.heuristic, grid.shape) == before[1:]
    # ... and it still answers as before.
    assert grid.astar((0, 0), (2, 3)).cost == make_grid().astar((0, 0), (2, 3)).cost


# --------------------------------------------------------------------------- the cost array

BAD_COSTS = [
    pytest.param(np.ones(5), ValueError, r"cost must be 2-D .*1-D shape \(5,\)", id="1-D"),
    pytest.param(np.ones((2, 2, 2)), ValueError, r"cost must be 2-D .*3-D", id="3-D"),
    pytest.param(np.float64(1.0), ValueError, r"cost must be 2-D .*0-D", id="scalar"),
    pytest.param(np.ones((0, 3)), ValueError, r"cost must have at least one row", id="no rows"),
    pytest.param(
        np.ones((3, 0)), ValueError, r"cost must have at least one .*column", id="no cols"
    ),
    pytest.param([], ValueError, r"cost must be 2-D", id="empty list"),
    pytest.param(
        np.ones((2, 2), dtype=bool), TypeError, r"cost .*boolean.*from_walkable", id="bool"
    ),
    pytest.param(np.array([["1", "2"]]), TypeError, r"cost must be .*float.*dtype <U1", id="str"),
    pytest.param(np.ones((2, 2), dtype=complex), TypeError, r"cost .*complex128", id="complex"),
    pytest.param(np.ones((2, 2), dtype=object), TypeError, r"cost .*object", id="object"),
    pytest.param([[1.0, 2.0], [3.0]], TypeError, r"cost must be a 2-D array", id="ragged"),
    pytest.param(
        [[1.0, np.nan]], ValueError, r"cost must be > 0 .*got nan at cell \(0, 1\)", id="NaN"
    ),
    pytest.param(
        [[1.0], [0.0]], ValueError, r"cost must be > 0 .*got 0.0 at cell \(1, 0\)", id="zero"
    ),
    pytest.param(
        [[1, -2]], ValueError, r"cost must be > 0 .*got -2.0 at cell \(0, 1\)", id="negative"
    ),
    pytest.param(
        [[-np.inf, 1.0]], ValueError, r"cost must be > 0 .*got -inf at cell \(0, 0\)", id="-inf"
    ),
    pytest.param(
        np.zeros((2, 2), dtype=np.int32), ValueError, r"cost must be > 0 .*0.0", id="int zero"
    ),
]


@pytest.mark.parametrize(("cost", "kind", "message"), BAD_COSTS)
def test_bad_cost_arrays_are_refused(cost: Any, kind: type, message: str) -> None:
    before = np.array(cost, dtype=object, copy=True) if isinstance(cost, np.ndarray) else None
    with pytest.raises(kind, match=message):
        Grid(cost)
    if before is not None:  # the caller's array is never modified
        np.testing.assert_array_equal(np.asarray(cost, dtype=object), before)


@pytest.mark.parametrize("constructor", ["init", "from_walkable", "from_ascii"])
def test_unknown_diagonal_lists_the_choices(constructor: str) -> None:
    build = {
        "init": lambda **kw: Grid(np.ones((2, 2)), **kw),
        "from_walkable": lambda **kw: Grid.from_walkable(np.ones((2, 2), dtype=bool), **kw),
        "from_ascii": lambda **kw: Grid.from_ascii("..\n..", **kw),
    }[constructor]
    listed = "'never', 'no_corner_cut', 'one_free', 'always'"
    with pytest.raises(ValueError, match=re.escape(f"diagonal must be one of {listed}; got 'x'")):
        build(diagonal="x")
    with pytest.raises(TypeError, match=r"diagonal must be a string"):
        build(diagonal=8)
    with pytest.raises(ValueError, match=r"heuristic must be one of .*'octile'.*; got 'l2'"):
        build(heuristic="l2")


def test_from_walkable_needs_a_2d_boolean_mask() -> None:
    with pytest.raises(TypeError, match=r"walkable must be a boolean array; got dtype float64"):
        Grid.from_walkable(np.ones((2, 2)))
    with pytest.raises(TypeError, match=r"walkable must be a boolean array; got dtype int64"):
        Grid.from_walkable([[1, 0], [1, 1]])
    with pytest.raises(ValueError, match=r"walkable must be 2-D"):
        Grid.from_walkable(np.ones(4, dtype=bool))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("...\n..\n...", r"text line 2 has 2 cells; line 1 has 3"),
        ("..\n...", r"text line 2 has 3 cells; line 1 has 2"),
        ("...\n.x.", r"text line 2, column 2: unknown cell 'x'"),
        ("..0", r"text line 1, column 3: unknown cell '0'"),
        ("#\t.", r"text line 1, column 2: unknown cell '\\t'"),
        ("", r"text holds no grid rows"),
        ("\n\n", r"text holds no grid rows"),
    ],
)
def test_from_ascii_names_the_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Grid.from_ascii(text)


def test_from_ascii_needs_text() -> None:
    with pytest.raises(TypeError, match=r"text must be a str; got bytes"):
        Grid.from_ascii(b"...")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- query arguments

SEARCHES = ["astar", "greedy", "dijkstra"]


def run(grid: Grid, method: str, start: Any = (0, 0), goal: Any = (2, 3), **options: Any) -> Any:
    return getattr(grid, method)(start, goal, **options)


BAD_CELLS = [
    pytest.param(
        (3, 0), ValueError, r"{name} \(3, 0\) is outside the grid of shape \(3, 4\)", id="row"
    ),
    pytest.param((0, 4), ValueError, r"{name} \(0, 4\) is outside the grid", id="col"),
    pytest.param((-1, 0), ValueError, r"{name} \(-1, 0\) is outside the grid", id="negative"),
    pytest.param(WALL, ValueError, r"{name} \(1, 1\) is a wall", id="wall"),
    pytest.param(
        (0, 0, 0), ValueError, r"{name} must be .*\(row, col\).*; got shape \(3,\)", id="3 long"
    ),
    pytest.param((0,), ValueError, r"{name} must be .*; got shape \(1,\)", id="1 long"),
    pytest.param(
        (0.0, 1.0),
        TypeError,
        r"{name} must be \(row, col\) integers; got \(0.0, 1.0\)",
        id="floats",
    ),
    pytest.param(
        np.array([0.0, 1.0]), TypeError, r"{name} must be \(row, col\) integers", id="float array"
    ),
    pytest.param((True, False), TypeError, r"{name} must be \(row, col\) integers", id="bools"),
    pytest.param("ab", TypeError, r"{name} must be \(row, col\) integers", id="str"),
    pytest.param(None, TypeError, r"{name} must be \(row, col\) integers; got None", id="None"),
    pytest.param((0, "1"), TypeError, r"{name} must be \(row, col\) integers", id="mixed"),
]


@pytest.mark.parametrize("which", ["start", "goal"])
@pytest.mark.parametrize("method", SEARCHES)
@pytest.mark.parametrize(("cell", "kind", "message"), BAD_CELLS)
def test_bad_start_or_goal_is_refused_by_name(
    method: str, which: str, cell: Any, kind: type, message: str
) -> None:
    if cell is None and which == "goal" and method == "dijkstra":
        pytest.skip("dijkstra(start, None) settles every cell: tested in test_contract.py")
    grid = make_grid()
    before = snapshot(grid)
    cells = {"start": (0, 0), "goal": (2, 3), which: cell}
    with pytest.raises(kind, match=message.format(name=which)):
        run(grid, method, cells["start"], cells["goal"])
    assert_unchanged(grid, before)


@pytest.mark.parametrize("method", ["astar", "greedy"])
def test_astar_and_greedy_take_one_cell_not_many(method: str) -> None:
    with pytest.raises(ValueError, match=r"start must be a \(row, col\) pair; got shape \(1, 2\)"):
        run(make_grid(), method, [(0, 0)])
    with pytest.raises(ValueError, match=r"goal must be a \(row, col\) pair; got shape \(2, 2\)"):
        run(make_grid(), method, (0, 0), [(2, 3), (0, 3)])


def test_dijkstra_checks_every_source_and_goal() -> None:
    grid = make_grid()
    with pytest.raises(ValueError, match=r"start \(1, 2\) is a wall"):
        grid.dijkstra([(0, 0), (1, 2)], (2, 3))
    with pytest.raises(ValueError, match=r"goal \(9, 9\) is outside the grid"):
        grid.dijkstra((0, 0), np.array([(2, 3), (9, 9)]))
    with pytest.raises(
        ValueError, match=r"start must be .*\(k, 2\) array of cells; got shape \(0, 2\)"
    ):
        grid.dijkstra(np.zeros((0, 2), dtype=int), (2, 3))
    with pytest.raises(ValueError, match=r"goal must be .*; got shape \(2, 3\)"):
        grid.dijkstra((0, 0), [(0, 0, 0), (1, 1, 1)])
    with pytest.raises(TypeError, match=r"start must be \(row, col\) integers"):
        grid.dijkstra([(0.5, 0.0)], (2, 3))
    with pytest.raises(ValueError, match=r"sources \(1, 1\) is a wall"):
        grid.distance_field([(0, 0), WALL])
    with pytest.raises(TypeError, match=r"sources must be \(row, col\) integers"):
        grid.distance_field((0.0, 0.0))


@pytest.mark.parametrize("method", SEARCHES)
@pytest.mark.parametrize(
    ("options", "kind", "message"),
    [
        (
            {"tie_break": "lifo"},
            ValueError,
            r"tie_break must be one of 'g', 'fifo', 'random'; got 'lifo'",
        ),
        ({"tie_break": None}, TypeError, r"tie_break must be a string"),
        ({"max_cost": -1.0}, ValueError, r"max_cost must be a number >= 0 or None; got -1.0"),
        ({"max_cost": math.nan}, ValueError, r"max_cost must be a number >= 0 or None; got nan"),
        ({"max_cost": "5"}, TypeError, r"max_cost must be a number"),
        (
            {"max_expansions": -1},
            ValueError,
            r"max_expansions must be an integer from 0 to 9223372036854775807 or None; got -1",
        ),
        (
            {"max_expansions": 2**63},
            ValueError,
            r"max_expansions must be an integer from 0 to 9223372036854775807 or None; got 9223",
        ),
        ({"max_expansions": 2.0}, TypeError, r"max_expansions must be an integer"),
        ({"max_expansions": True}, TypeError, r"max_expansions must be an integer"),
        ({"seed": 1.5, "tie_break": "random"}, TypeError, r"seed must be an integer from 0 to"),
        ({"seed": -1, "tie_break": "random"}, ValueError, r"seed must be an integer from 0 to"),
        ({"seed": 2**64, "tie_break": "random"}, ValueError, r"seed must be an integer from 0"),
        ({"record": "yes"}, TypeError, r"record must be True or False; got 'yes'"),
        ({"record": None}, TypeError, r"record must be True or False; got None"),
    ],
)
def test_bad_search_options_name_the_option(
    method: str, options: dict[str, Any], kind: type, message: str
) -> None:
    grid = make_grid()
    before = snapshot(grid)
    with pytest.raises(kind, match=message):
        run(grid, method, **options)
    assert_unchanged(grid, before)


@pytest.mark.parametrize("method", ["astar", "greedy"])
def test_unknown_heuristic_lists_the_choices(method: str) -> None:
    listed = "'zero', 'manhattan', 'octile', 'euclidean', 'chebyshev'"
    with pytest.raises(ValueError, match=re.escape(f"heuristic must be one of {listed}; got 'l1'")):
        run(make_grid(), method, heuristic="l1")


@pytest.mark.parametrize(
    ("weight", "kind", "message"),
    [
        (0.5, ValueError, r"weight must be a finite number >= 1; got 0.5"),
        (0.999999, ValueError, r"weight must be a finite number >= 1"),
        (-2, ValueError, r"weight must be a finite number >= 1; got -2"),
        (math.nan, ValueError, r"weight must be a finite number >= 1; got nan"),
        (math.inf, ValueError, r"weight must be a finite number >= 1; got inf"),
        ("2", TypeError, r"weight must be a real number >= 1; got '2'"),
        (True, TypeError, r"weight must be a real number"),
    ],
)
def test_bad_weight_is_refused(weight: Any, kind: type, message: str) -> None:
    with pytest.raises(kind, match=message):
        make_grid().astar((0, 0), (2, 3), weight=weight)


def test_distance_field_limits_are_checked() -> None:
    grid = make_grid()
    with pytest.raises(ValueError, match=r"max_cost must be a number >= 0 or None; got -0.5"):
        grid.distance_field((0, 0), max_cost=-0.5)
    with pytest.raises(ValueError, match=r"max_cost must be a number >= 0 or None; got nan"):
        grid.distance_field((0, 0), max_cost=math.nan)


def test_good_edge_values_are_accepted() -> None:
    # The boundaries of the checks above: these must not raise.
    grid = make_grid()
    assert grid.astar((0, 0), (2, 3), weight=1, max_cost=0.0, max_expansions=0).reason in (
        "max_cost",
        "max_expansions",
    )
    assert grid.astar(np.array([0, 0], dtype=np.uint8), np.int64([2, 3]))
    assert grid.astar((0, 0), (2, 3), seed=0, tie_break="random")
    assert grid.dijkstra(np.array([[0, 0]]), [[2, 3]])


# --------------------------------------------------------------------------- editing


@pytest.mark.parametrize(
    ("value", "kind", "message"),
    [
        (0, ValueError, r"value must be > 0 .*got 0.0"),
        (0.0, ValueError, r"value must be > 0 .*got 0.0"),
        (math.nan, ValueError, r"value must be > 0 and not NaN .*got nan"),
        (-1.0, ValueError, r"value must be > 0 .*got -1.0"),
        (-math.inf, ValueError, r"value must be > 0 .*got -inf"),
        ("x", TypeError, r"value must be .*numbers?.*; got 'x'"),
        (None, TypeError, r"value must be .*numbers?.*; got None"),
        (True, TypeError, r"value must be .*numbers?.*; got True"),
        ([1.0, None], TypeError, r"value must be .*numbers?.*; got \[1.0, None\]"),
    ],
)
@pytest.mark.parametrize("key", [(0, 0), (slice(0, 2), 0), (slice(None), slice(None))])
def test_bad_cell_assignment_is_refused_and_changes_nothing(
    key: Any, value: Any, kind: type, message: str
) -> None:
    grid = make_grid()
    before = snapshot(grid)
    with pytest.raises(kind, match=message):
        grid[key] = value
    assert_unchanged(grid, before)


def test_an_array_assignment_with_one_bad_value_changes_nothing() -> None:
    grid = make_grid()
    before = snapshot(grid)
    with pytest.raises(ValueError, match=r"value must be > 0 .*got 0.0 at index \(2,\)"):
        grid[0, :] = [1.0, 5.0, 0.0, 2.0]
    with pytest.raises(ValueError, match=r"value must be > 0 .*got nan"):
        grid[:, 0] = np.array([np.nan, 1.0, 1.0])
    with pytest.raises(IndexError):
        grid[3, 0] = 1.0
    with pytest.raises(ValueError):  # NumPy's broadcasting error
        grid[0, :] = [1.0, 2.0]
    assert_unchanged(grid, before)


def test_the_cost_view_cannot_be_written() -> None:
    grid = make_grid()
    before = snapshot(grid)
    with pytest.raises(ValueError, match=r"read-only"):
        grid.cost[0, 0] = 0.0
    with pytest.raises(ValueError, match=r"read-only"):
        grid.cost[:] = 5.0
    assert_unchanged(grid, before)
