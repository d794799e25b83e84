"""Grid batch queries: ``find_paths``, ``path_costs`` and ``distance_fields``.

Every batch answer must be exactly the one-by-one answer (same path, cost, counts and
reason), whatever runs it: the calling thread, the built-in thread pool, a thread or
process pool executor, or a real Dask ``LocalCluster`` of two worker processes.
"""

from __future__ import annotations

import math
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid, PathResult


def random_grid(seed: int, shape: tuple[int, int] = (40, 60), walls: float = 0.3) -> Grid:
    rng = np.random.default_rng(seed)
    return Grid(np.where(rng.random(shape) < walls, np.inf, 1.0))


def random_pairs(grid: Grid, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    free = np.argwhere(grid.walkable)
    return free[rng.integers(len(free), size=n)], free[rng.integers(len(free), size=n)]


def assert_same(got: PathResult, want: PathResult) -> None:
    assert got.path.tolist() == want.path.tolist()
    assert got.cost == want.cost
    assert (got.found, got.reason) == (want.found, want.reason)
    assert (got.expanded, got.generated) == (want.expanded, want.generated)
    if want.jump_points is not None:
        assert got.jump_points is not None
        assert got.jump_points.tolist() == want.jump_points.tolist()


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 40),
    workers=st.sampled_from((1, 2, 3)),
    chunk=st.sampled_from((None, 1, 7)),
    walls=st.sampled_from((0.0, 0.3, 0.45)),
)
def test_batches_equal_one_by_one_answers(
    seed: int, n: int, workers: int, chunk: int | None, walls: float
) -> None:
    grid = random_grid(seed, walls=walls)
    starts, goals = random_pairs(grid, n, seed + 1)
    for algorithm in ("astar", "jps", "greedy", "dijkstra"):
        want = [
            grid.find_path(s, g, algorithm=algorithm) for s, g in zip(starts, goals, strict=True)
        ]
        got = grid.find_paths(starts, goals, algorithm=algorithm, workers=workers, chunk_size=chunk)
        assert isinstance(got, list) and len(got) == n
        for a, b in zip(got, want, strict=True):
            assert_same(a, b)
        costs = grid.path_costs(
            starts, goals, algorithm=algorithm, workers=workers, chunk_size=chunk
        )
        assert isinstance(costs, np.ndarray) and costs.dtype == np.float64
        assert costs.shape == (n,)
        assert costs.tolist() == [r.cost for r in want]


def test_search_options_reach_every_query() -> None:
    grid = random_grid(3, (30, 30), walls=0.2)
    starts, goals = random_pairs(grid, 20, 4)
    options: list[dict[str, Any]] = [
        {"weight": 2.0},
        {"heuristic": "zero"},
        {"tie_break": "random", "seed": 11},
        {"tie_break": "fifo"},
        {"max_expansions": 5},
        {"max_cost": 8.0},
    ]
    for kwargs in options:
        want = [grid.astar(s, g, **kwargs) for s, g in zip(starts, goals, strict=True)]
        for got, one in zip(grid.find_paths(starts, goals, **kwargs), want, strict=True):
            assert_same(got, one)
        costs = grid.path_costs(starts, goals, **kwargs)
        assert costs.tolist() == [r.cost for r in want]
    partial = grid.find_paths(starts, goals, max_expansions=3, partial=True, record=True)
    for got, (s, g) in zip(partial, zip(starts, goals, strict=True), strict=True):
        one = grid.astar(s, g, max_expansions=3, partial=True, record=True)
        assert_same(got, one)
        assert got.explored is not None and one.explored is not None
        assert got.explored.nodes.tolist() == one.explored.nodes.tolist()
    limited = grid.find_paths(starts, goals, algorithm="jps", max_expansions=1, weight=1.5)
    for got, (s, g) in zip(limited, zip(starts, goals, strict=True), strict=True):
        assert_same(got, grid.jps(s, g, max_expansions=1, weight=1.5))


def test_distance_fields_equal_single_fields() -> None:
    grid = random_grid(8, (25, 35), walls=0.25)
    cells, _ = random_pairs(grid, 6, 9)
    fields = grid.distance_fields(cells, workers=2, chunk_size=2)
    assert fields.shape == (6, 25, 35)
    for i, cell in enumerate(cells):
        np.testing.assert_array_equal(fields[i], grid.distance_field(cell))
    groups = [cells[:2], cells[2], [tuple(c) for c in cells[3:]]]
    grouped = grid.distance_fields(groups, max_cost=10.0)
    for i, group in enumerate(groups):
        np.testing.assert_array_equal(grouped[i], grid.distance_field(group, max_cost=10.0))


def test_empty_batches() -> None:
    grid = random_grid(1)
    assert grid.find_paths([], []) == []
    empty = np.empty((0, 2), int)
    assert grid.path_costs(empty, empty, algorithm="jps").shape == (0,)
    assert grid.distance_fields(np.empty((0, 2), int)).shape == (0, *grid.shape)


def test_executors_give_the_same_answers() -> None:
    grid = random_grid(5)
    starts, goals = random_pairs(grid, 30, 6)
    want = grid.find_paths(starts, goals, workers=1)
    with ThreadPoolExecutor(3) as pool:
        for got, one in zip(grid.find_paths(starts, goals, executor=pool), want, strict=True):
            assert_same(got, one)
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=fork) as pool:
        got = grid.find_paths(starts, goals, executor=pool, chunk_size=8)
        for a, b in zip(got, want, strict=True):
            assert_same(a, b)
        costs = grid.path_costs(starts, goals, algorithm="jps", executor=pool)
        assert costs.tolist() == [r.cost for r in grid.find_paths(starts, goals, algorithm="jps")]
        fields = grid.distance_fields(starts[:3], executor=pool)
        np.testing.assert_array_equal(fields[2], grid.distance_field(starts[2]))


def test_a_process_pool_answers_a_units_batch_and_the_offline_table_its_costs() -> None:
    """The unit's view is made again where the chunks run (it travels as its grid),
    and a grid prepared for JPS+ answers costs from its table, as single queries do."""
    grid = Grid(np.ones((24, 24)))
    grid[8, 3:20] = np.inf
    free = np.argwhere(np.isfinite(grid.for_size(2).cost))
    starts, goals = free[::7], free[::-7][: len(free[::7])]
    want = [grid.find_path(a, b, size=2) for a, b in zip(starts, goals, strict=True)]
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=fork) as pool:
        got = grid.find_paths(starts, goals, size=2, executor=pool, chunk_size=3)
    for a, b in zip(got, want, strict=True):
        assert_same(a, b)
    grid.prepare("jps+")
    singles = [grid.path_cost(a, b, algorithm="jps") for a, b in zip(starts, goals, strict=True)]
    assert grid.path_costs(starts, goals, algorithm="jps", workers=2).tolist() == singles


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    grid = random_grid(2)
    starts, goals = random_pairs(grid, 12, 3)
    grid.find_paths(starts, goals, progress=True, chunk_size=3, workers=2)
    assert "astar" in capsys.readouterr().err


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda g: g.find_paths([(0, 0)], [(0, 1), (0, 2)]),
            ValueError,
            "same length; got 1 and 2",
        ),
        (lambda g: g.find_paths((0, 0), (0, 1)), ValueError, r"starts must be an \(n, 2\) array"),
        (
            lambda g: g.path_costs([(0, 0)], [[[0, 1]]], algorithm="jps"),
            ValueError,
            r"goals must be an \(n, 2\)",
        ),
        (
            lambda g: g.find_paths([(0, 0), (1, 1)], [(0, 1)] * 2),
            ValueError,
            r"starts\[1\] \(1, 1\) is a wall",
        ),
        (lambda g: g.find_paths([(0, 0)], [(9, 0)]), ValueError, r"goals\[0\] \(9, 0\) is outside"),
        (lambda g: g.find_paths([(0, 0.5)], [(0, 1)]), TypeError, "starts must be"),
        (
            lambda g: g.find_paths([(0, 0)], [(0, 1)], workers=0),
            ValueError,
            "workers must be an integer >= 1",
        ),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], chunk_size=1.5), TypeError, "chunk_size"),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], progress="yes"), TypeError, "progress"),
        (lambda g: g.path_costs([(0, 0)], [(0, 1)], progress=2), TypeError, "progress"),
        (lambda g: g.path_costs([(0, 0)], [(0, 1)], progress=None), TypeError, "progress"),
        (lambda g: g.path_costs([(0, 0)], [(0, 1)], partial=True), TypeError, "partial"),
        (lambda g: g.path_costs([(0, 0)], [(0, 1)], record=True), TypeError, "record"),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], partial="yes"), TypeError, "partial"),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], algorithm="x"), ValueError, "algorithm"),
        (
            lambda g: g.find_paths([(0, 0)], [(0, 1)], algorithm="jps", tie_break="fifo"),
            TypeError,
            "tie_break",
        ),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], paths=False), TypeError, "paths"),
        (
            lambda g: g.find_paths([(0, 0)], [(0, 1)], executor="pool"),
            TypeError,
            "executor must be",
        ),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], weight=0.5), ValueError, "weight"),
        (lambda g: g.find_paths([(0, 0)], [(0, 1)], tie_break="x"), ValueError, "tie_break"),
        (lambda g: g.distance_fields([[(1, 1)]]), ValueError, r"sources\[0\] \(1, 1\) is a wall"),
        (lambda g: g.distance_fields(3), TypeError, "sources must be"),
        (lambda g: g.distance_fields([(0, 0)], max_cost=-1.0), ValueError, "max_cost"),
    ],
)
def test_bad_batches_are_refused_before_any_search(call: Any, error: type, match: str) -> None:
    grid = Grid.from_ascii(
        """
        ...
        .#.
        """
    )
    with pytest.raises(error, match=match):
        call(grid)


def test_workers_and_executor_are_exclusive() -> None:
    grid = Grid(np.ones((2, 2)))
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="not both"):
        grid.find_paths([(0, 0)], [(1, 1)], workers=2, executor=pool)


def test_jps_batches_refuse_grids_jps_cannot_search() -> None:
    with pytest.raises(ValueError, match="uniform cost"):
        Grid.from_ascii("..3").find_paths([(0, 0)], [(0, 1)], algorithm="jps")
    with pytest.raises(ValueError, match="use astar"):
        Grid(np.ones((2, 2)), diagonal="never").path_costs([(0, 0)], [(1, 1)], algorithm="jps")


# --------------------------------------------------------------------------- Dask


def test_a_dask_cluster_gives_the_same_answers(dask_client: Any, monkeypatch: Any) -> None:
    grid = random_grid(7, (50, 70), walls=0.3)
    starts, goals = random_pairs(grid, 64, 8)
    want = grid.find_paths(starts, goals)

    shipped = []
    getstate = Grid.__getstate__

    def counting(self: Grid) -> dict[str, Any]:
        shipped.append(1)
        return getstate(self)

    monkeypatch.setattr(Grid, "__getstate__", counting)
    got = grid.find_paths(starts, goals, executor=dask_client.get_executor(), chunk_size=4)
    # 16 chunks, but the grid went over the wire once (scattered to every worker).
    assert 1 <= len(shipped) <= 2
    for a, b in zip(got, want, strict=True):
        assert_same(a, b)
    costs = grid.path_costs(starts, goals, algorithm="jps", executor=dask_client, progress=True)
    assert costs.tolist() == [r.cost for r in grid.find_paths(starts, goals, algorithm="jps")]
    fields = grid.distance_fields(starts[:4], executor=dask_client)
    np.testing.assert_array_equal(fields[3], grid.distance_field(starts[3]))
    assert math.isfinite(float(fields[0][tuple(starts[0])]))
