"""``grid.prepare("jps+")``: jump point search from an offline jump table (JPS+),
against the scipy oracle, and kept, dropped and saved like the rest of what a grid
prepares."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import Case, assert_answer, oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_grid_movingai import (
    MAPS,
    assert_legal_octile,
    matches,
    path_length,
    sample_indices,
)
from test_jps import assert_jump_points, uniform_cases

from pathcraft import Grid
from pathcraft._core.jpsplus import DIRECTIONS, build_table
from pathcraft.io import load, read_map, read_scen, save


def plus(cost: np.ndarray) -> Grid:
    return Grid(cost, prepare="jps+")


@settings(max_examples=300, deadline=None)
@given(uniform_cases())
def test_jps_plus_matches_the_scipy_oracle(case: Case) -> None:
    grid = plus(case.cost)
    assert grid.prepared == ("jps", "jps+")
    want = float(oracle(case.cost, "no_corner_cut", [case.start])[case.goal])
    result = grid.jps(case.start, case.goal)
    assert_answer(case.cost, "no_corner_cut", result, case.start, case.goal, want)
    if result:
        assert_jump_points(result)
    assert grid.path_cost(case.start, case.goal, algorithm="jps") == result.cost
    cells = np.array([case.start]), np.array([case.goal])
    assert grid.path_costs(*cells, algorithm="jps", workers=1)[0] == result.cost
    batch = grid.find_paths(*cells, algorithm="jps", workers=1)[0]
    assert batch.path.tolist() == result.path.tolist()
    arrays = grid.find_path(np.array(case.start), np.array(case.goal), algorithm="jps")
    assert arrays.path.tolist() == result.path.tolist()


@settings(max_examples=60, deadline=None)
@given(uniform_cases(max_side=60), st.sampled_from((1.5, 3.0)))
def test_weighted_jps_plus_is_within_weight_times_optimal(case: Case, weight: float) -> None:
    grid = plus(case.cost)
    want = float(oracle(case.cost, "no_corner_cut", [case.start])[case.goal])
    result = grid.jps(case.start, case.goal, weight=weight)
    assert result.found == np.isfinite(want)
    if result:
        assert result.cost <= weight * want * (1 + 1e-9) + 1e-9


def test_the_table_reads_as_documented() -> None:
    grid = Grid.from_ascii(
        """
        .....
        .#...
        .....
        """
    )
    table = build_table(grid.padded).reshape(*grid.padded.shape, 8)
    east = DIRECTIONS.index((0, 1))
    south = DIRECTIONS.index((1, 0))
    # From (0, 0) east: (0, 2) is a jump point (its south side opens past the wall).
    assert table[1, 1, east] == 2
    # From (0, 0) south: (2, 0) (its east side opens past the wall); from (0, 4)
    # east: the border at once.
    assert table[1, 1, south] == 2 and table[1, 5, east] == 0
    assert (table[~np.isfinite(grid.padded)] == 0).all()
    row = build_table(Grid.from_ascii("....").padded).reshape(3, 6, 8)
    assert row[1, 1, east] == -3  # three free steps, then the border


def test_kept_dropped_and_refused() -> None:
    grid = plus(np.ones((20, 30)))
    assert grid.offline_jumps is not None
    grid[5, 5] = np.inf
    assert grid.prepared == () and grid.offline_jumps is None
    grid.prepare("jps+")
    assert grid.jps((0, 0), (19, 29)).cost == pytest.approx(grid.astar((0, 0), (19, 29)).cost)
    with pytest.raises(ValueError, match="no_corner_cut"):
        Grid(np.ones((3, 3)), diagonal="always", prepare="jps+")
    with pytest.raises(ValueError, match="uniform cost"):
        Grid(np.array([[1.0, 2.0]]), prepare="jps+")
    recorded = grid.jps((0, 0), (19, 29), record=True)  # the online search records
    assert recorded.cost == pytest.approx(grid.jps((0, 0), (19, 29)).cost)
    assert recorded.explored is not None


def test_saved_prepared_and_loaded_prepared() -> None:
    rng = np.random.default_rng(4)
    cost = np.where(rng.random((40, 70)) < 0.3, np.inf, 1.0)
    cost[0, 0] = cost[-1, -1] = 1.0
    grid = plus(cost)
    buffer = io.BytesIO()
    save(grid, buffer)
    again = load(io.BytesIO(buffer.getvalue()))
    assert again.prepared == ("jps", "jps+")
    assert np.array_equal(again.offline_jumps, grid.offline_jumps)  # type: ignore[arg-type]
    pairs: list[Any] = [((0, 0), (39, 69)), ((39, 69), (0, 0))]
    for s, g in pairs:
        assert again.jps(s, g).cost == grid.jps(s, g).cost


@pytest.mark.parametrize("name", MAPS)
def test_jps_plus_matches_the_published_lengths(movingai: Path, name: str) -> None:
    """JPS+ on the sample the other Moving AI tests use, against the published
    lengths, every path legal."""
    grid = read_map(movingai / "maps" / f"{name}.map")
    grid.prepare("jps+")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    misses = []
    for i in sample_indices(scen.optimal, name):
        s, g = (tuple(int(x) for x in cell) for cell in (scen.starts[i], scen.goals[i]))
        result = grid.jps(s, g)
        if not (result and matches(result.cost, float(scen.optimal[i]))):
            misses.append((int(i), result.cost, float(scen.optimal[i])))
            continue
        assert_legal_octile(grid.walkable, result.path, s, g)
        assert result.cost == pytest.approx(path_length(result.path), rel=1e-12)
    assert not misses, f"{name}: (problem, got, want) {misses}"
