"""``Grid.jps``: jump point search against the scipy oracle and against A*.

Jump point search is only correct on 8-connected grids of uniform cost, so the random
grids here have one cost per grid (1 or another value) and walls. Both jump kernels run
on every case: by 64-cell blocks (the default) and cell by cell.
"""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy as np
import pytest
from _grids import Case, assert_answer, assert_legal, oracle, steps_cost
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid, PathResult
from pathcraft._options import SearchOptions
from pathcraft.grid._checks import cell_indices
from pathcraft.grid._run import jps_settings, solve_jps

JPS_RULES = ("no_corner_cut", "always")


@st.composite
def uniform_cases(draw: Any, max_side: int = 150) -> Case:
    """Uniform-cost grids with walls: mostly small, one in four up to ``max_side`` (so
    jumps cross 64-cell blocks), walls as scattered cells, bars and rooms."""
    side = max_side if draw(st.integers(0, 3)) == 0 else 14
    rows = draw(st.integers(1, side), label="rows")
    cols = draw(st.integers(1, side), label="cols")
    rule = draw(st.sampled_from(JPS_RULES), label="rule")
    unit = draw(st.sampled_from((1.0, 1.0, 2.5, 0.3)), label="unit")
    walls = draw(st.sampled_from((0.0, 0.05, 0.2, 0.35, 0.5)), label="walls")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    blocked = rng.random((rows, cols)) < walls
    if draw(st.booleans(), label="bars"):  # long walls with gaps: many forced neighbours
        for r in range(1, rows, 4):
            blocked[r, :] = rng.random(cols) > 0.1
    cost = np.where(blocked, np.inf, unit)
    free = np.argwhere(~blocked)
    if len(free) == 0:
        cost[0, 0] = unit
        free = np.argwhere(np.isfinite(cost))
    start, goal = (tuple(int(x) for x in free[i]) for i in rng.integers(len(free), size=2))
    return Case(cost, rule, start, goal, seed)


def jps_run(grid: Grid, start: Any, goal: Any, *, block: bool, **options: Any) -> PathResult:
    """A jump point search with the block or the cell-by-cell jump kernel."""
    settings_ = jps_settings(
        grid,
        SearchOptions.check("Grid", "jps", **options),
        block=block,
    )
    cells = [cell_indices(name, cell, grid.padded, many=False) for name, cell in
             (("start", start), ("goal", goal))]  # fmt: skip
    return solve_jps(grid, int(cells[0][0]), int(cells[1][0]), settings_, 0.0)


def assert_jump_points(result: PathResult) -> None:
    """The jump points lie on the path, in order, from its first cell to its last, and
    the path runs diagonally then straight between consecutive ones."""
    jumps, path = result.jump_points, result.path
    assert isinstance(jumps, np.ndarray) and jumps.shape[1] == 2
    where = [next(i for i, p in enumerate(path.tolist()) if p == j) for j in jumps.tolist()]
    assert where[0] == 0 and where[-1] == len(path) - 1
    assert where == sorted(where)
    for n in range(1, len(where)):
        dr, dc = np.abs(jumps[n] - jumps[n - 1])
        assert where[n] - where[n - 1] == max(dr, dc)


# --------------------------------------------------------------------------- oracle


@settings(max_examples=250)
@given(uniform_cases())
def test_jps_matches_the_scipy_oracle(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    want = float(oracle(case.cost, case.rule, [case.start])[case.goal])
    for block in (True, False):
        result = jps_run(grid, case.start, case.goal, block=block)
        assert_answer(case.cost, case.rule, result, case.start, case.goal, want)
        if result:
            assert_jump_points(result)
            # No "JPS expands no more than A*" here: it is false in general (hypothesis
            # found JPS popping 48 jump points where A* expands 45 cells, and 5 vs 4);
            # a jump point stands for many cells, but pruning does not bound the count.
    public = grid.jps(case.start, case.goal)
    assert public.cost == jps_run(grid, case.start, case.goal, block=True).cost
    assert public.path.tolist() == jps_run(grid, case.start, case.goal, block=True).path.tolist()


@settings(max_examples=100)
@given(uniform_cases(max_side=60), st.sampled_from((1.0, 1.5, 3.0)))
def test_weighted_jps_is_within_weight_times_optimal(case: Case, weight: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    want = float(oracle(case.cost, case.rule, [case.start])[case.goal])
    result = grid.jps(case.start, case.goal, weight=weight)
    assert bool(result) == math.isfinite(want)
    if result:
        assert_legal(case.cost, case.rule, result.path, case.start, case.goal)
        assert result.cost <= weight * want * (1 + 1e-12)
        assert result.cost == pytest.approx(steps_cost(case.cost, result.path), rel=1e-12)


@settings(max_examples=150)
@given(uniform_cases(max_side=80), st.sampled_from((0.0, 0.5, 0.9, 1.0 + 1e-9, 1.2)))
def test_max_cost_agrees_with_astar(case: Case, fraction: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    full = grid.find_path(case.start, case.goal)
    limit = full.cost * fraction if full else 3.0
    astar = grid.find_path(case.start, case.goal, max_cost=limit)
    for block in (True, False):
        jps = jps_run(grid, case.start, case.goal, block=block, max_cost=limit)
        assert bool(jps) == bool(astar)
        if astar:
            assert jps.cost == pytest.approx(astar.cost, rel=1e-12)
            assert_legal(case.cost, case.rule, jps.path, case.start, case.goal)
        elif full:  # the goal is reachable, beyond the limit: both say so
            assert jps.reason == astar.reason == "max_cost"
        else:  # unreachable: A* may have pruned where JPS met a dead end first
            assert jps.reason in ("max_cost", "unreachable")
    found = grid.find_path(case.start, case.goal, algorithm="jps", max_cost=limit)
    assert bool(found) == bool(astar)
    costs = grid.path_costs([case.start], [case.goal], algorithm="jps", max_cost=limit)
    assert costs[0] == (found.cost if found else math.inf)
    if case.rule != "no_corner_cut":  # JPS+ follows the Moving AI rule only
        return
    grid.prepare("jps+")  # the offline table's searches prune the same way
    table = grid.find_path(case.start, case.goal, algorithm="jps", max_cost=limit)
    # equal lengths; the two may take different paths of that length, summed apart
    assert bool(table) == bool(found) and table.cost == pytest.approx(found.cost, rel=1e-12)
    assert grid.path_cost(case.start, case.goal, algorithm="jps", max_cost=limit) == (
        pytest.approx(found.cost, rel=1e-12) if found else math.inf
    )


def test_a_corridor_and_open_floor() -> None:
    grid = Grid.from_ascii(
        """
        ..........
        .########.
        ..........
        """
    )
    result = grid.jps((2, 0), (0, 9))  # around either end of the wall: 11 steps
    assert result.cost == 11.0 == grid.astar((2, 0), (0, 9)).cost
    assert result.path[0].tolist() == [2, 0] and result.path[-1].tolist() == [0, 9]
    # Open floor: one straight jump, two jump points.
    open_floor = Grid(np.ones((5, 300)))
    line = open_floor.jps((2, 0), (2, 299))
    assert line.cost == 299.0 and line.jump_points.tolist() == [[2, 0], [2, 299]]
    assert line.expanded == 2
    assert len(line.path) == 300


def test_start_equal_to_goal() -> None:
    result = Grid(np.ones((3, 3))).jps((1, 1), (1, 1))
    assert result and result.cost == 0.0 and result.path.tolist() == [[1, 1]]
    assert result.jump_points.tolist() == [[1, 1]]


def test_unreachable_goal_is_a_falsy_answer() -> None:
    grid = Grid.from_ascii(
        """
        ..#..
        ..#..
        """
    )
    result = grid.jps((0, 0), (1, 4))
    assert not result and result.reason == "unreachable"
    assert result.path.shape == (0, 2) and result.jump_points.shape == (0, 2)
    assert result.cost == math.inf


def test_corner_rules_differ_where_walls_touch_diagonally() -> None:
    text = """
        .#
        #.
        """
    assert not Grid.from_ascii(text, diagonal="no_corner_cut").jps((0, 0), (1, 1))
    squeeze = Grid.from_ascii(text, diagonal="always").jps((0, 0), (1, 1))
    assert squeeze.cost == pytest.approx(math.sqrt(2))


def test_max_expansions_and_record() -> None:
    rng = np.random.default_rng(5)
    cost = np.where(rng.random((80, 80)) < 0.3, np.inf, 1.0)
    cost[0, 0] = cost[79, 79] = 1.0
    grid = Grid(cost)
    full = grid.jps((0, 0), (79, 79), record=True)
    if not full:
        pytest.skip("no path on this map")
    assert len(full.explored) == full.expanded
    assert full.explored.nodes[0].tolist() == [0, 0]
    assert full.explored.nodes[-1].tolist() == [79, 79]
    assert np.isfinite(cost[tuple(full.explored.nodes.T)]).all()
    stopped = grid.jps((0, 0), (79, 79), max_expansions=2)
    assert not stopped and stopped.reason == "max_expansions" and stopped.expanded == 2


def test_the_cache_follows_cell_changes_and_is_not_pickled() -> None:
    grid = Grid(np.ones((3, 6)))
    assert grid.jps((1, 0), (1, 5)).cost == 5.0
    grid[:, 2] = np.inf
    assert not grid.jps((1, 0), (1, 5))
    grid[1, 2] = 1.0
    assert grid.jps((1, 0), (1, 5)).cost == 5.0
    clone = pickle.loads(pickle.dumps(grid))
    assert clone.prepared == ()  # derived state is not shipped
    assert clone.jps((1, 0), (1, 5)).cost == 5.0
    grid[0, 0] = 2.0
    with pytest.raises(ValueError, match="uniform cost"):
        grid.jps((1, 0), (1, 5))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("rule", ["never", "one_free"])
def test_rules_jps_cannot_search_are_refused(rule: str) -> None:
    grid = Grid(np.ones((3, 3)), diagonal=rule)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"diagonal={rule!r}: use astar"):
        grid.jps((0, 0), (2, 2))


def test_terrain_costs_are_refused_with_the_range() -> None:
    grid = Grid.from_ascii("1.5")
    with pytest.raises(ValueError, match=r"costing from 1.0 to 5.0; use astar"):
        grid.jps((0, 0), (0, 2))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"start": (0, 9)}, ValueError, r"start \(0, 9\) is outside the grid"),
        ({"goal": (1, 1)}, ValueError, r"goal \(1, 1\) is a wall"),
        ({"start": (0.5, 0)}, TypeError, "start must be"),
        ({"weight": 0.5}, ValueError, "weight"),
        ({"max_expansions": -1}, ValueError, "max_expansions"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, Any], error: type, match: str) -> None:
    grid = Grid.from_ascii(
        """
        ...
        .#.
        """
    )
    args = {"start": (0, 0), "goal": (1, 2)} | kwargs
    start, goal = args.pop("start"), args.pop("goal")
    with pytest.raises(error, match=match):
        grid.jps(start, goal, **args)
