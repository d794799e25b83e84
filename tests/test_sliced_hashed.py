"""Sliced grid searches beyond the pool's workspaces run on a hashed workspace (state
sized by the cells reached, ``pathcraft._core.hashed``): the same answers as the
dense workspace (path, cost, expanded, generated, reason) on random grids and Moving
AI scenarios, for every algorithm the grid's plans serve, with or without the move to
dense arrays mid-search; costs against the scipy oracle; best_so_far, cancel and
WorldChangedError on them; what they hold."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import assert_answer, cases, oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sliced_kernels import run_sliced, summary

from pathcraft import Grid, WorldChangedError, _sliced
from pathcraft._core import hashed
from pathcraft.grid import _run
from pathcraft.io import read_map, read_scen

#: Options of the searches a grid's plan serves (and so a hashed workspace runs).
ALGORITHMS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("astar", {}),
    ("dijkstra", {}),
    ("greedy", {}),
    ("astar", {"weight": 1.7}),
    ("astar", {"partial": True, "max_expansions": 9}),
    ("astar", {"max_cost": 6.5}),
    ("astar", {"tie_break": "fifo"}),
    ("astar", {"tie_break": "random", "seed": 7}),
)


@pytest.fixture
def dense_at() -> Iterator[Any]:
    """Set the cells after which hashed searches move to dense arrays (None: the
    default share of the map); put back after the test."""
    made = _run.hashed_workspace

    def use(cells: int | None) -> None:
        _run.hashed_workspace = (  # type: ignore[assignment]
            made if cells is None else functools.partial(made, dense_at=cells)
        )

    yield use
    _run.hashed_workspace = made  # type: ignore[assignment]


class PoolTaken:
    """``POOL_SIZE`` searches held in flight on a grid, so that every search started
    while they are held gets a hashed workspace."""

    def __init__(self) -> None:
        _sliced.release_pooled_workspaces()
        holder = Grid(np.ones((3, 3)))
        self.held = [holder.start_search((0, 0), (2, 2)) for _ in range(_sliced.POOL_SIZE)]
        for search in self.held:
            search.step(0)

    def __enter__(self) -> PoolTaken:
        return self

    def __exit__(self, *exc: object) -> None:
        for search in self.held:
            search.cancel()


def start_hashed(grid: Grid, start: Any, goal: Any, algorithm: str, **opts: Any) -> Any:
    """``grid.start_search`` beyond the pool (the caller holds a :class:`PoolTaken`)."""
    search = grid.start_search(start, goal, algorithm=algorithm, **opts)  # type: ignore[arg-type]
    search.step(0)
    assert type(search._ws) is hashed.HashedWorkspace
    return search


@settings(max_examples=60, deadline=None)
@given(
    case=cases(max_side=24),
    which=st.integers(0, len(ALGORITHMS) - 1),
    sizes=st.lists(st.integers(0, 30), min_size=1, max_size=4).filter(any),
    dense=st.sampled_from((None, 0, 1, 7, 40)),
)
def test_hashed_searches_answer_as_the_blocking_call(
    case: Any, which: int, sizes: list[int], dense: int | None
) -> None:
    made = _run.hashed_workspace
    if dense is not None:
        _run.hashed_workspace = functools.partial(made, dense_at=dense)  # type: ignore[assignment]
    try:
        algorithm, opts = ALGORITHMS[which]
        grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
        want = getattr(grid, algorithm)(case.start, case.goal, **opts)
        with PoolTaken():
            search = start_hashed(grid, case.start, case.goal, algorithm, **opts)
            got = run_sliced(search, sizes)
        assert summary(got) == summary(want)
        if algorithm == "dijkstra" or (algorithm == "astar" and not opts):
            best = oracle(case.cost, case.rule, [case.start])[case.goal]
            assert_answer(case.cost, case.rule, got, case.start, case.goal, best)
    finally:
        _run.hashed_workspace = made  # type: ignore[assignment]


@pytest.mark.parametrize("dense", [None, 0, 25])
@pytest.mark.parametrize("algorithm", ["astar", "dijkstra"])
def test_buckets_on_a_uniform_four_connected_grid(
    dense_at: Any, dense: Any, algorithm: str
) -> None:
    # The 4-connected uniform grid runs on buckets of f (grid_search.run_buckets).
    rng = np.random.default_rng(3)
    cost = np.where(rng.random((30, 40)) < 0.25, np.inf, 2.0)
    cost[0, 0] = cost[29, 39] = 2.0
    grid = Grid(cost, diagonal="never")
    dense_at(dense)
    for start, goal in (((0, 0), (29, 39)), ((29, 39), (0, 0)), ((0, 0), (0, 0))):
        want = getattr(grid, algorithm)(start, goal)
        with PoolTaken():
            got = run_sliced(start_hashed(grid, start, goal, algorithm), [5, 13])
        assert summary(got) == summary(want)


@pytest.mark.parametrize("name", ["dao/den520d", "maze/maze512-1-0", "street/Berlin_0_256"])
def test_moving_ai_scenarios_hashed_and_dense(movingai: Path, dense_at: Any, name: str) -> None:
    # Scenarios spread from the shortest to the longest, a hashed search moving to
    # dense arrays at the default 4,096 cells and at 2,000; published lengths the oracle.
    grid = Grid.from_movingai(movingai / "maps" / f"{name}.map")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    assert read_map(movingai / "maps" / f"{name}.map").shape == grid.shape
    picks = np.linspace(0, len(scen) - 1, 8).astype(int)
    for dense in (None, 2000):
        dense_at(dense)
        for i in picks:
            start = tuple(int(x) for x in scen.starts[i])
            goal = tuple(int(x) for x in scen.goals[i])
            optimal = float(scen.optimal[i])
            want = grid.astar(start, goal)
            with PoolTaken():
                search = start_hashed(grid, start, goal, "astar")
                got = run_sliced(search, [700])
            assert summary(got) == summary(want)
            assert math.isclose(got.cost, optimal, rel_tol=1e-5, abs_tol=1e-5)


def test_best_so_far_cancel_and_world_changes_on_a_hashed_search(dense_at: Any) -> None:
    cost = np.ones((40, 40))
    cost[:36, 20] = np.inf
    grid = Grid(cost)
    dense_at(60)
    with PoolTaken():
        dense = grid.start_search((0, 0), (0, 39), partial=True)
        search = start_hashed(grid, (0, 0), (0, 39), "astar", partial=True)
        for step in (1, 20, 50):  # hashed, then past 60 cells reached: dense arrays
            dense.step(step)
            search.step(step)
            assert summary(search.best_so_far()) == summary(dense.best_so_far())
        assert search._ws.dense
        search.cancel()
        assert search.status == "cancelled" and search._ws is None
        dense.cancel()
        other = start_hashed(grid, (0, 0), (39, 39), "astar")
        other.step(3)
        grid[25, 30] = np.inf
        with pytest.raises(WorldChangedError):
            other.step(3)
        assert other.status == "cancelled"


def test_hashed_workspaces_hold_what_they_reach_and_are_never_pooled() -> None:
    grid = Grid(np.ones((1024, 1024)))
    a, b = (512, 512), (512, 513)
    with PoolTaken():
        held = [start_hashed(grid, a, b, "astar") for _ in range(10)]
        for search in held:
            assert search.step(1) == "in_progress"
        reported = [search._ws.resident_bytes for search in held]
        assert all(0 < r < 16 * 1024 for r in reported), reported  # the map: 16 MB
        assert [search._ws.slots for search in held] == [9] * 10  # the start, 8 around
        for search in held:
            assert search.step() == "found" and search.result.cost == 1.0
        assert all(search._ws is None for search in held)
        assert hashed.HashedWorkspace not in _sliced._pool
    assert len(_sliced._pool[grid.start_search(a, b)._kind]) == _sliced.POOL_SIZE


def test_a_hashed_search_moves_to_dense_arrays_past_its_share() -> None:
    ws = hashed.hashed_workspace(100_000)
    assert ws.dense_at == hashed.DENSE_AT
    assert not ws.dense and ws.capacity == 1 and ws.map_cells == 100_000
    grid = Grid(np.ones((60, 60)))
    plan = grid._plan(_opts(grid))
    assert plan is not None
    ws = hashed.hashed_workspace(grid.padded.size, dense_at=100)
    machine = plan.start(ws, (0, 0), (59, 59))
    assert machine is not None
    machine.step(10)
    assert not ws.dense and 10 < ws.slots < 100
    machine.step(40)
    assert ws.dense and ws.resident_bytes > 0
    machine.step()
    assert summary(machine.result(0.0)) == summary(grid.astar((0, 0), (59, 59)))
    again = plan.start(ws, (59, 59), (0, 0))  # a new query on it: slots again
    assert again is not None and not ws.dense and ws.slots == 1
    again.step()
    assert again.result(0.0).cost == grid.astar((59, 59), (0, 0)).cost


def test_hashed_workspaces_refuse_what_they_cannot_hold() -> None:
    with pytest.raises(ValueError, match="too many"):
        hashed.hashed_workspace(2**31)
    with pytest.raises(ValueError, match="dense_at"):
        hashed.hashed_workspace(100, dense_at=-2)
    grid = Grid(np.ones((10, 10)))
    plan = grid._plan(_opts(grid))
    assert plan is not None
    with pytest.raises(ValueError, match="smaller than the grid"):
        plan.start(hashed.hashed_workspace(50), (0, 0), (9, 9))


def _opts(grid: Grid, algorithm: str = "astar") -> Any:
    from pathcraft._options import SearchOptions

    return SearchOptions.check_call("Grid", "start_search", algorithm, {})
