"""Sliced jump point searches beyond the pool's workspaces run on a hashed workspace
(``jps.run_jps_hashed``): the same answers as the blocking call on a dense workspace
(path, jump points, cost, expanded, generated, reason) on random grids under both
diagonal rules and on Moving AI scenarios, staying on slots or moving to dense arrays
mid-search; costs against the scipy oracle; what they hold; a jump table's search
still refused."""

from __future__ import annotations

import contextlib
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
from test_sliced_hashed import PoolTaken, _opts, start_hashed
from test_sliced_kernels import run_sliced, summary

from pathcraft import Grid
from pathcraft._core import hashed
from pathcraft.grid import _run
from pathcraft.io import read_scen

#: Options jump point search takes on a plan (and so a hashed workspace runs).
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"weight": 1.6},
    {"max_expansions": 3},
    {"max_cost": 7.5},
)


@contextlib.contextmanager
def moving_dense_at(cells: int | None) -> Iterator[None]:
    """Hashed searches started inside move to dense arrays at ``cells`` reached
    (None: the default share)."""
    made = _run.hashed_workspace
    if cells is not None:
        _run.hashed_workspace = functools.partial(made, dense_at=cells)  # type: ignore[assignment]
    try:
        yield
    finally:
        _run.hashed_workspace = made  # type: ignore[assignment]


@settings(max_examples=80, deadline=None)
@given(
    case=cases(max_side=32, rules=("no_corner_cut", "always")),
    unit=st.sampled_from((1.0, 2.5)),
    which=st.integers(0, len(OPTIONS) - 1),
    sizes=st.lists(st.integers(0, 9), min_size=1, max_size=4).filter(any),
    dense=st.sampled_from((None, 0, 1, 3, 12)),
)
def test_hashed_jump_point_searches_answer_as_the_blocking_call(
    case: Any, unit: float, which: int, sizes: list[int], dense: int | None
) -> None:
    cost = np.where(np.isfinite(case.cost), unit, np.inf)  # jps: cells of one cost
    opts = OPTIONS[which]
    grid = Grid(cost, diagonal=case.rule)  # type: ignore[arg-type]
    want = grid.jps(case.start, case.goal, **opts)
    with moving_dense_at(dense), PoolTaken():
        search = start_hashed(grid, case.start, case.goal, "jps", **opts)
        got = run_sliced(search, sizes)
    assert summary(got) == summary(want)
    if not opts:
        best = oracle(cost, case.rule, [case.start])[case.goal]
        assert_answer(cost, case.rule, got, case.start, case.goal, best)


@pytest.mark.parametrize(
    ("name", "rule"),
    [("dao/den520d", "no_corner_cut"), ("maze/maze512-1-0", "no_corner_cut"),
     ("street/Berlin_0_256", "always")],
)  # fmt: skip
def test_moving_ai_jump_point_searches_hashed_and_dense(
    movingai: Path, name: str, rule: str
) -> None:
    # Scenarios spread from the shortest to the longest, a hashed search moving to
    # dense arrays at the default 4,096 cells and at 50 (a few jump points in); the
    # published lengths the oracle under the Moving AI rule.
    grid = Grid.from_movingai(movingai / "maps" / f"{name}.map", diagonal=rule)  # type: ignore[arg-type]
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    picks = np.linspace(0, len(scen) - 1, 8).astype(int)
    for dense in (None, 50):
        for i in picks:
            start = tuple(int(x) for x in scen.starts[i])
            goal = tuple(int(x) for x in scen.goals[i])
            want = grid.jps(start, goal)
            with moving_dense_at(dense), PoolTaken():
                search = start_hashed(grid, start, goal, "jps")
                got = run_sliced(search, [40])
            assert summary(got) == summary(want)
            if rule == "no_corner_cut":
                optimal = float(scen.optimal[i])
                assert math.isclose(got.cost, optimal, rel_tol=1e-5, abs_tol=1e-5)


def test_a_hashed_jump_point_search_holds_what_it_reaches() -> None:
    grid = Grid(np.ones((1024, 1024)))
    a, b = (512, 512), (512, 513)
    with PoolTaken():
        held = [start_hashed(grid, a, b, "jps") for _ in range(10)]
        for search in held:
            assert search.step(1) == "in_progress"
        reported = [search._ws.resident_bytes for search in held]
        assert all(0 < r < 16 * 1024 for r in reported), reported  # the map: 16 MB
        assert all(not search._ws.dense for search in held)
        for search in held:
            assert search.step() == "found" and search.result.cost == 1.0


def test_a_hashed_jump_point_search_moves_to_dense_arrays_past_its_share() -> None:
    rng = np.random.default_rng(5)
    cost = np.where(rng.random((60, 60)) < 0.3, np.inf, 1.0)  # many jump points
    cost[0, 0] = cost[59, 59] = 1.0
    grid = Grid(cost)
    plan = grid._plan(_opts(grid, "jps"))
    assert plan is not None and plan.jps
    ws = hashed.hashed_workspace(grid.padded.size, dense_at=40)
    machine = plan.start(ws, (0, 0), (59, 59))
    assert machine is not None
    machine.step(4)
    assert not ws.dense and 4 < ws.slots < 40
    machine.step(60)
    assert ws.dense and ws.resident_bytes > 0
    machine.step()
    assert summary(machine.result(0.0)) == summary(grid.jps((0, 0), (59, 59)))
    again = plan.start(ws, (59, 59), (0, 0))  # a new query on it: slots again
    assert again is not None and not ws.dense and ws.slots == 1
    again.step()
    assert summary(again.result(0.0)) == summary(grid.jps((59, 59), (0, 0)))


def test_a_jump_table_search_still_needs_a_dense_workspace() -> None:
    grid = Grid(np.ones((10, 10)))
    grid.prepare("jps+")
    plan = grid._plan(_opts(grid, "jps"))
    assert plan is not None and plan.offline
    with pytest.raises(ValueError, match="jump table needs a dense workspace"):
        plan.start(hashed.hashed_workspace(grid.padded.size), (0, 0), (9, 9))
    with PoolTaken():
        search = grid.start_search((0, 0), (9, 9), algorithm="jps")
        search.step(0)
        assert type(search._ws) is not hashed.HashedWorkspace
        assert search.step() == "found"
        assert summary(search.result) == summary(grid.jps((0, 0), (9, 9)))
