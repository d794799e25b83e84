"""Subgoal graphs (``prepare("subgoal")``, ``find_path(algorithm="subgoal")``): optimal
lengths against the scipy oracle and the published Moving AI lengths, legal paths,
kept, dropped and saved like JPS+'s table, refused where they mean nothing."""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import Case, assert_answer, oracle
from hypothesis import given, settings
from test_grid_movingai import MAPS, assert_legal_octile, matches, path_length, sample_indices
from test_jps import uniform_cases

from pathcraft import Grid
from pathcraft._core.subgoal import build
from pathcraft.io import load, read_map, read_scen, save

RULE = "no_corner_cut"


@settings(max_examples=150, deadline=None)
@given(uniform_cases())
def test_subgoal_paths_match_the_scipy_oracle(case: Case) -> None:
    grid = Grid(case.cost, prepare="subgoal")
    want = float(oracle(case.cost, RULE, [case.start])[case.goal])
    got = grid.find_path(case.start, case.goal, algorithm="subgoal")
    assert_answer(case.cost, RULE, got, case.start, case.goal, want)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("density", [0.05, 0.2, 0.35])
def test_every_goal_from_one_start_has_its_optimal_length(seed: int, density: float) -> None:
    """All walkable goals of random maps (scattered walls, rooms, bars) from one start,
    against one Dijkstra field of the oracle: every sweep bound is exercised."""
    rng = np.random.default_rng(seed)
    rows, cols = 30 + seed * 7, 45 - seed * 3
    blocked = rng.random((rows, cols)) < density
    for r in range(int(rng.integers(2, 6)), rows, int(rng.integers(5, 9))):  # walls with doors
        blocked[r, :] = rng.random(cols) > 0.15
    cost = np.where(blocked, np.inf, 1.0)
    free = np.argwhere(~blocked)
    start = tuple(int(x) for x in free[rng.integers(len(free))])
    want = oracle(cost, RULE, [start])
    grid = Grid(cost, prepare="subgoal")
    walkable = ~blocked
    for goal in map(tuple, free[:: max(1, len(free) // 300)]):
        got = grid.find_path(start, goal, algorithm="subgoal")
        expected = float(want[goal])
        if math.isinf(expected):
            assert not got and got.reason == "unreachable" and got.path.shape == (0, 2)
            continue
        assert got.cost == pytest.approx(expected, rel=1e-9, abs=1e-12), (start, goal)
        assert_legal_octile(walkable, got.path, start, goal)
        assert got.cost == pytest.approx(path_length(got.path), rel=1e-12)


def test_subgoals_are_the_convex_corners_and_costs_scale() -> None:
    grid = Grid.from_ascii(
        """
        ......
        ..#...
        ......
        ....#.
        """
    )
    ids = build(grid.padded)[0].reshape(grid.padded.shape)[1:-1, 1:-1]
    corners = {tuple(map(int, rc)) for rc in np.argwhere(ids >= 0)}
    # the four cells diagonal to (1, 2), and the three of (3, 4) inside the map
    assert corners == {(0, 1), (0, 3), (2, 1), (2, 3), (2, 5)}
    cheap = Grid(np.where(np.isfinite(grid.cost), 0.5, np.inf))
    got = cheap.find_path((0, 0), (3, 5), algorithm="subgoal")
    assert got.cost == pytest.approx(0.5 * grid.astar((0, 0), (3, 5)).cost)
    assert cheap.find_path((1, 1), (1, 1), algorithm="subgoal").path.tolist() == [[1, 1]]


def test_kept_until_an_edit_saved_and_loaded() -> None:
    rng = np.random.default_rng(4)
    cost = np.where(rng.random((40, 70)) < 0.3, np.inf, 1.0)
    cost[0, 0] = cost[-1, -1] = 1.0
    grid = Grid(cost)
    assert grid.prepared == ()
    first = grid.find_path((0, 0), (39, 69), algorithm="subgoal")  # builds it
    assert grid.prepared == ("subgoal",)
    buffer = io.BytesIO()
    save(grid, buffer)
    again = load(io.BytesIO(buffer.getvalue()))
    assert again.prepared == ("subgoal",)
    assert again.find_path((0, 0), (39, 69), algorithm="subgoal").cost == first.cost
    grid[0, 1] = np.inf if np.isfinite(grid[0, 1]) else 1.0  # an edit drops it
    assert grid.prepared == ()
    want = grid.astar((0, 0), (39, 69))
    got = grid.find_path((0, 0), (39, 69), algorithm="subgoal")
    assert bool(got) == bool(want) and (not want or got.cost == pytest.approx(want.cost))


def test_bad_input_is_refused_by_name() -> None:
    grid = Grid(np.ones((8, 8)))
    with pytest.raises(TypeError, match=r"subgoal.*no options"):
        grid.find_path((0, 0), (1, 1), algorithm="subgoal", size=2)
    with pytest.raises(TypeError, match="subgoal"):
        grid.find_path((0, 0), (1, 1), algorithm="subgoal", weight=2.0)
    with pytest.raises(ValueError, match=r"outside|in bounds|grid"):
        grid.find_path((0, 0), (9, 9), algorithm="subgoal")
    with pytest.raises(ValueError, match="no_corner_cut"):
        Grid(np.ones((4, 4)), diagonal="never", prepare="subgoal")
    with pytest.raises(ValueError, match="no_corner_cut"):
        Grid(np.ones((4, 4)), diagonal="always").find_path((0, 0), (1, 1), algorithm="subgoal")
    with pytest.raises(ValueError, match="one cost"):
        Grid(np.array([[1.0, 2.0], [1.0, 1.0]]), prepare="subgoal")
    grid[1, 1] = np.inf
    with pytest.raises(ValueError, match="wall"):
        grid.find_path((1, 1), (0, 0), algorithm="subgoal")
    walled = Grid.from_ascii("..#..")
    got = walled.find_path((0, 0), (0, 4), algorithm="subgoal")
    assert not got and got.reason == "unreachable"
    snapped = grid.find_path((1, 1), (7, 7), algorithm="subgoal", snap=True)
    assert snapped and snapped.path[0].tolist() != [1, 1]


def check_scenarios(movingai: Path, name: str, which: Any) -> None:
    grid = read_map(movingai / "maps" / f"{name}.map")
    grid.prepare("subgoal")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    misses = []
    for i in which(scen):
        s, g = (tuple(int(x) for x in cell) for cell in (scen.starts[i], scen.goals[i]))
        result = grid.find_path(s, g, algorithm="subgoal")
        if not (result and matches(result.cost, float(scen.optimal[i]))):
            misses.append((int(i), result.cost, float(scen.optimal[i])))
            continue
        assert_legal_octile(grid.walkable, result.path, s, g)
        assert result.cost == pytest.approx(path_length(result.path), rel=1e-12)
    assert not misses, f"{name}: (problem, got, want) {misses}"


#: The maps of the default test: one or two per family, the ones whose graphs build
#: in milliseconds (every map, every scenario: the slow test below).
QUICK_MAPS = (
    "bg512/AR0011SR",
    "dao/arena2",
    "dao/den520d",
    "dao/orz900d",
    "maze/maze512-32-0",
    "room/32room_000",
    "street/Berlin_0_256",
    "wc3maps512/battleground",
)


@pytest.mark.parametrize("name", QUICK_MAPS)
def test_subgoal_matches_the_published_lengths(movingai: Path, name: str) -> None:
    """The sample the other Moving AI tests use, plus the top bucket of the map."""

    def which(scen: Any) -> np.ndarray:
        top = np.flatnonzero(scen.bucket == scen.bucket.max())
        return np.union1d(sample_indices(scen.optimal, name), top)

    check_scenarios(movingai, name, which)


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_subgoal_matches_every_published_length(movingai: Path, name: str) -> None:
    check_scenarios(movingai, name, lambda scen: range(len(scen.optimal)))


def test_threads_share_one_grid() -> None:
    """Each thread searches with its own workspace: the same answers as one thread."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(11)
    cost = np.where(rng.random((60, 80)) < 0.25, np.inf, 1.0)
    free = np.argwhere(np.isfinite(cost))
    pairs = [
        tuple(tuple(int(x) for x in free[j]) for j in rng.integers(len(free), size=2))
        for _ in range(200)
    ]
    grid = Grid(cost, prepare="subgoal")
    alone = [grid.find_path(a, b, algorithm="subgoal").cost for a, b in pairs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: grid.find_path(*p, algorithm="subgoal").cost, pairs))
    assert together == alone
    assert alone == [pytest.approx(grid.astar(a, b).cost) for a, b in pairs]
