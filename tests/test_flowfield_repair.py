"""Flow fields that follow their grid's edits (issue 18): after every change the
repaired field equals a fresh one, the distances the scipy oracle's, and a change far
from the goals costs what it reaches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import FlowField
from tests._grids import RULES, oracle


def fresh(grid: Grid, goals: list[tuple[int, int]], size: int) -> FlowField | None:
    """The field built from scratch from the goals that are open (fit the unit) now."""
    unit = grid.for_size(size)
    open_goals = [g for g in goals if np.isfinite(unit.cost[g])]
    return FlowField(grid, open_goals, size=size) if open_goals else None


def assert_same(flow: FlowField, grid: Grid, goals: list[tuple[int, int]], size: int) -> None:
    want = fresh(grid, goals, size)
    dist = flow.distance
    if want is None:
        assert np.isinf(dist).all()
        rr, cc = np.indices(grid.shape)
        assert (flow.next_cell == np.stack((rr, cc), axis=-1)).all()
        assert (flow.direction == 0).all()
        return
    ref = want.distance
    assert np.array_equal(np.isinf(dist), np.isinf(ref))
    finite = np.isfinite(ref)
    np.testing.assert_allclose(dist[finite], ref[finite], rtol=1e-12, atol=0)
    # the next cells come out of the same rule on the same distances: the same
    np.testing.assert_array_equal(flow.next_cell, want.next_cell)
    np.testing.assert_array_equal(flow.direction, want.direction)


edits = st.lists(
    st.lists(
        st.tuples(st.integers(0, 9), st.integers(0, 9),
                  st.sampled_from([1.0, 1.0, 2.0, 0.5, 7.0, np.inf, np.inf])),
        min_size=1, max_size=4,
    ),
    min_size=1, max_size=40,
)  # fmt: skip


toggle_cases = given(
    rows=st.integers(2, 10), cols=st.integers(2, 10), rule=st.sampled_from(RULES),
    size=st.sampled_from([1, 1, 1, 2, 3]), walls=st.floats(0.0, 0.4),
    goals=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=3),
    seed=st.integers(0, 2**31), batches=edits,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@toggle_cases
def test_long_random_toggle_sequences_match_a_fresh_field(**case: Any) -> None:
    toggles_match(**case)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@toggle_cases
def test_many_more_toggle_sequences_match_a_fresh_field(**case: Any) -> None:
    toggles_match(**case)


def toggles_match(
    rows: int, cols: int, rule: Any, size: int, walls: float, goals: list[tuple[int, int]],
    seed: int, batches: list[list[tuple[int, int, float]]],
) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    cost = rng.choice([1.0, 1.0, 2.0, 3.0], size=(rows, cols))
    cost[rng.random((rows, cols)) < walls] = np.inf
    goals = [(r % rows, c % cols) for r, c in goals]
    grid = Grid(cost, diagonal=rule)
    for g in goals:
        r0, c0 = g
        grid[r0 : r0 + size, c0 : c0 + size] = 1.0
    goals = [g for g in goals if np.isfinite(grid.for_size(size).cost[g])]
    if not goals:
        return
    flow = FlowField(grid, goals, size=size)
    for batch in batches:
        for r, c, v in batch:  # several edits between two looks
            grid[r % rows, c % cols] = v
        assert_same(flow, grid, goals, size)


@settings(max_examples=30, deadline=None)
@given(rule=st.sampled_from(RULES), seed=st.integers(0, 2**31))
def test_repaired_distances_are_the_scipy_oracles(rule: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.uniform(0.2, 4.0, size=(12, 14))
    cost[rng.random(cost.shape) < 0.25] = np.inf
    cost[0, 0] = cost[11, 13] = 1.0
    goals = [(0, 0), (11, 13)]
    grid = Grid(cost, diagonal=rule)
    flow = FlowField(grid, goals)
    for _ in range(25):
        r, c = int(rng.integers(12)), int(rng.integers(14))
        grid[r, c] = float(rng.choice([np.inf, rng.uniform(0.2, 4.0)]))
        now = grid.cost.copy()
        open_goals = [g for g in goals if np.isfinite(now[g])]
        want = oracle(now, rule, open_goals) if open_goals else np.full(now.shape, np.inf)
        # the oracle reaches walls only as sources: a wall's distance is inf here
        want[~np.isfinite(now)] = np.inf
        np.testing.assert_allclose(flow.distance, want, rtol=1e-9)


def test_the_field_follows_reads_and_counts_what_a_repair_touched() -> None:
    grid = Grid(np.ones((60, 60)), diagonal="never")
    flow = FlowField(grid, (0, 0))
    assert flow.update() == 0 and flow.last_repair is None
    grid[59, 59] = np.inf  # a far corner: nothing below it in the tree
    assert flow.distance[59, 59] == np.inf  # a read repairs
    changed, dropped, expanded, pointed = flow.last_repair  # type: ignore[misc]
    assert (changed, dropped) == (1, 1) and expanded <= 4 and pointed <= 9
    grid[59, 59] = 1.0  # and opens again: one wave that stops at once
    assert flow.next_cell[59, 59].tolist() in ([58, 59], [59, 58])
    assert flow.last_repair[2] <= 4  # type: ignore[index]
    grid[0, 1] = grid[1, 0] = np.inf  # the goal walled in: everything rises
    assert np.isinf(flow.distance).sum() == 60 * 60 - 1
    grid[0, 1] = 1.0
    assert_same(flow, grid, [(0, 0)], 1)


def test_a_walled_goal_is_no_goal_until_it_opens() -> None:
    grid = Grid.from_ascii("....\n....", diagonal="never")
    flow = FlowField(grid, [(0, 0), (1, 3)])
    grid[1, 3] = np.inf
    assert flow.distance[1, 2] == 3.0 and flow.next_cell[1, 2].tolist() == [0, 2]
    grid[0, 0] = np.inf
    assert np.isinf(flow.distance).all() and (flow.direction == 0).all()
    grid[1, 3] = 1.0
    assert flow.distance.tolist() == [[np.inf, 3.0, 2.0, 1.0], [3.0, 2.0, 1.0, 0.0]]


def test_many_changes_rebuild_and_the_log_overflow_answers_every_cell() -> None:
    grid = Grid(np.ones((8, 8)))
    flow = FlowField(grid, (4, 4))
    grid[:, 1:3] = np.inf  # two whole columns: more than an eighth of the cells
    assert flow.update() == 16 and flow.last_repair == (16, 64, 64, 64)
    for k in range(200):  # more edits than the grid's log keeps
        grid[k % 8, 6] = float(k % 3 + 1)
    assert_same(flow, grid, [(4, 4)], 1)


def test_the_arrays_are_repaired_in_place_and_distance_is_read_only() -> None:
    grid = Grid(np.ones((3, 5)), diagonal="never")
    flow = FlowField(grid, (1, 4))
    nxt, dist = flow.next_cell, flow.distance
    grid[1, 2] = np.inf
    flow.update()
    assert nxt[1, 1].tolist() != [1, 2] and dist[1, 0] == 6.0
    with pytest.raises(ValueError):
        dist[0, 0] = 1.0


def test_a_crowds_flow_fields_follow_the_grid() -> None:
    pytest.importorskip("pyrvo")
    from pathcraft.agents import Crowd

    room = Grid.from_ascii(
        """
        .......
        .......
        ###.###
        .......
        """,
        diagonal="never",
    )
    crowd = Crowd(room, [(0.5, 0.5)], [(3, 0)], radius=0.3)
    room[2, 3] = np.inf  # the door closes ...
    room[2, 0] = 1.0  # ... and another opens
    assert crowd.flows[0].next_cell[0, 0].tolist() == [1, 0]
    assert crowd.preferred_velocities()[0].tolist() == [0.0, 1.5]  # south, to the new door


@pytest.mark.slow
def test_moving_ai_doors_and_toggles_match_a_fresh_field(movingai: Path) -> None:
    path = movingai / "maps" / "dao" / "den520d.map"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    grid = Grid.from_movingai(path)
    rng = np.random.default_rng(7)
    free = np.argwhere(grid.walkable)
    goal = tuple(int(x) for x in free[len(free) // 2])
    flow = FlowField(grid, goal)
    for _ in range(60):
        r, c = (int(x) for x in free[rng.integers(len(free))])
        if (r, c) == goal:
            continue
        grid[r, c] = np.inf if np.isfinite(grid[r, c]) else 1.0
        assert_same(flow, grid, [goal], 1)


def test_the_repair_kernel_checks_its_arguments() -> None:
    from pathcraft._core import flowrepair, grid_search

    padded = np.full((5, 6), np.inf)
    padded[1:-1, 1:-1] = 1.0
    dist = np.full((5, 6), np.inf)
    parent = np.full(30, -1, dtype=np.int32)
    goal = np.zeros(30, dtype=np.uint8)
    nxt = np.zeros((3, 4, 2), dtype=np.intp)
    way = np.zeros((3, 4, 2))
    ws = grid_search.Workspace(30)
    with pytest.raises(IndexError, match="changed: padded cell index 0"):
        flowrepair.repair(padded, ws, dist, parent, goal, np.array([0]), nxt, way, diagonal=1)
    with pytest.raises(IndexError, match="cells: padded cell index 29"):
        flowrepair.point(padded, dist, np.array([29]), nxt, way, diagonal=1)
    with pytest.raises(ValueError, match="next_cell has shape"):
        flowrepair.point(padded, dist, np.array([7]), nxt[:2], way, diagonal=1)
    with pytest.raises(ValueError, match="dist must have the padded shape"):
        flowrepair.point(padded, dist[:4], np.array([7]), nxt, way, diagonal=1)
    with pytest.raises(ValueError, match="parent and goal must hold 30"):
        flowrepair.repair(padded, ws, dist, parent[:5], goal, np.array([7]), nxt, way, diagonal=1)
    tiny = np.zeros((0, 0))
    with pytest.raises(ValueError, match="at least 3 x 3 cells; got 0 x 0"):
        flowrepair.point(tiny, tiny, np.array([], dtype=np.intp), nxt[:0, :0], way[:0, :0],
                         diagonal=1)  # fmt: skip
    with pytest.raises(ValueError, match="workspace of 10 cells is too small"):
        flowrepair.repair(
            padded, grid_search.Workspace(10), dist, parent, goal, np.array([7]), nxt, way,
            diagonal=1,
        )  # fmt: skip
