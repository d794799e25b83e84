"""ChaseField (issue 29, moving goals for flow fields): next cells toward a moving
target checked against the scipy oracle, chasers that always catch a target that
stops, the grid's edits followed, and bad input refused."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import ChaseField
from tests._grids import RULES, SQRT2, Case, cases, oracle, step_allowed


def assert_downhill(cost: np.ndarray, rule: str, dist: np.ndarray, cell, nxt) -> None:
    """``nxt`` is one legal move from ``cell`` on a cheapest way to the source of the
    oracle's ``dist`` (the field's convention: a step pays for the cell it leaves
    toward the source, entered walking from it)."""
    cell, nxt = tuple(cell), tuple(nxt)
    if dist[cell] == 0.0 or not math.isfinite(dist[cell]):
        assert nxt == cell
        return
    assert step_allowed(cost, rule, cell, nxt), (cell, nxt)
    diagonal = cell[0] != nxt[0] and cell[1] != nxt[1]
    step = cost[cell] * (SQRT2 if diagonal else 1.0)
    assert dist[nxt] + step == pytest.approx(dist[cell], rel=1e-9, abs=1e-12)


def check_field(case: Case, chase: ChaseField) -> None:
    """Every walkable cell's next cell: exact toward the target within the radius,
    toward the anchor beyond it."""
    to_target = oracle(case.cost, case.rule, [chase.target])
    to_anchor = oracle(case.cost, case.rule, [chase.anchor])
    cells = case.free_cells()
    before = cells.copy()
    nxt = chase.next_cells(cells)
    assert np.array_equal(cells, before)  # nothing passed in is modified
    assert nxt.shape == cells.shape and nxt.dtype == np.intp
    for cell, step in zip(cells, nxt, strict=True):
        near = to_target[tuple(cell)] <= chase.radius
        assert_downhill(case.cost, case.rule, to_target if near else to_anchor, cell, step)


@settings(max_examples=60, deadline=None)
@given(cases(max_side=30), st.sampled_from((1.5, 4.0, 9.0)), st.integers(0, 2**16))
def test_next_cells_follow_the_oracle(case: Case, radius: float, seed: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    chase = ChaseField(grid, case.start, radius=radius, background=False)
    check_field(case, chase)
    rng = np.random.default_rng(seed)
    for target in case.pick(4, salt=seed):
        chase.move_target(target)
        check_field(case, chase)
        if rng.random() < 0.5:  # the anchor also moves by a far field computed now
            assert chase.anchor == target or chase.rebuilds >= 1


@settings(max_examples=40, deadline=None)
@given(cases(max_side=24, rules=("never", "no_corner_cut")), st.integers(0, 2**16))
def test_chasers_catch_a_target_that_moves_every_frame_then_stops(case: Case, seed: int) -> None:
    """The target walks a random legal step every frame (or stays, or turns back);
    each chaser takes its next cell every frame; once the target stops, every chaser
    that can reach it gets there."""
    cost = case.cost.copy()
    cost[np.isfinite(cost)] = 1.0  # uniform: distances are the chasers' own
    grid = Grid(cost, diagonal=case.rule)
    chase = ChaseField(grid, case.start, radius=3.0, background=False)
    chasers = np.array(case.pick(6, salt=1), dtype=np.intp).reshape(-1, 2)
    rng = np.random.default_rng(seed)
    target = case.start
    for _ in range(60):
        moves = [(target[0] + dr, target[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        legal = [m for m in moves if m == target or step_allowed(cost, case.rule, target, m)]
        target = legal[int(rng.integers(len(legal)))]
        chase.move_target(target)
        chasers = chase.next_cells(chasers)
    reach = oracle(cost, case.rule, [target])
    for _ in range(cost.size + 1):
        chasers = chase.next_cells(chasers)
    for cell in chasers.tolist():
        assert tuple(cell) == target or math.isinf(reach[tuple(cell)])


def test_a_far_field_on_the_worker_thread_lands_and_is_adopted() -> None:
    grid = Grid(np.ones((200, 200)), diagonal="never")
    chase = ChaseField(grid, (100, 100), radius=8)
    assert chase.rebuilds == 1 and not chase.rebuilding
    for col in range(101, 120):  # 19 cells: past radius / 2, a far field starts
        chase.move_target((100, col))
    chase.wait()
    assert not chase.rebuilding and chase.rebuilds >= 2 and chase.anchor != (100, 100)
    far = chase.next_cells([(0, 0)])[0]
    to_anchor = oracle(np.ones((200, 200)), "never", [chase.anchor])
    assert to_anchor[tuple(far)] == to_anchor[0, 0] - 1


def test_the_grid_edits_are_followed() -> None:
    cost = np.ones((30, 30))
    grid = Grid(cost, diagonal="no_corner_cut")
    chase = ChaseField(grid, (15, 15), radius=5)
    chase.wait()
    assert chase.next_cells([(15, 25)]).tolist() == [[15, 24]]
    grid[5:25, 20] = np.inf  # a wall between: near and far must go around it
    cost[5:25, 20] = np.inf
    for _ in range(2):
        nxt = chase.next_cells([(15, 25), (15, 21), (0, 29)])
        assert np.isfinite(cost[nxt[:, 0], nxt[:, 1]]).all()  # never into the wall
        chase.wait()
    case = Case(cost, "no_corner_cut", (15, 15), (0, 0), 0)
    check_field(case, chase)
    grid[15, 15] = np.inf  # the target's own cell walled: no near field, no error
    assert chase.next_cells([(15, 16)]).shape == (1, 2)


@pytest.mark.parametrize("rule", RULES)
def test_the_near_window_is_exact_on_cheap_cells(rule: str) -> None:
    """Cells cheaper than 1 make a path of cost ``radius`` longer than ``radius``
    cells: the window grows with ``radius / min_cost``."""
    rng = np.random.default_rng(3)
    cost = rng.uniform(0.1, 1.0, size=(40, 40))
    cost[rng.random(cost.shape) < 0.2] = np.inf
    cost[20, 20] = 1.0
    grid = Grid(cost, diagonal=rule)
    chase = ChaseField(grid, (20, 20), radius=3.0, background=False)
    check_field(Case(cost, rule, (20, 20), (0, 0), 0), chase)


def test_bad_input_is_refused_by_name() -> None:
    grid = Grid.from_ascii("..#\n...")
    with pytest.raises(TypeError, match="grid must be a pathcraft Grid; got ndarray"):
        ChaseField(np.ones((3, 3)), (0, 0))  # type: ignore[arg-type]
    for bad in (0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="radius"):
            ChaseField(grid, (0, 0), radius=bad)
    with pytest.raises(TypeError, match="radius"):
        ChaseField(grid, (0, 0), radius="far")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="target"):
        ChaseField(grid, (0, 2))
    with pytest.raises(TypeError, match="background"):
        ChaseField(grid, (0, 0), background="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="snap"):
        ChaseField(grid, (0, 0), snap=1)  # type: ignore[arg-type]
    chase = ChaseField(grid, (0, 0), background=False)
    with pytest.raises(ValueError, match="target"):
        chase.move_target((5, 5))
    with pytest.raises(ValueError, match="cells"):
        chase.next_cells([(1, 1), (0, 2)])
    assert chase.next_cells(np.empty((0, 2), dtype=int)).shape == (0, 2)


def test_snap_moves_a_target_in_a_wall_or_off_the_grid_to_the_nearest_walkable_cell() -> None:
    grid = Grid.from_ascii("....#\n.....")
    chase = ChaseField(grid, (0, 4), background=False, snap=True)
    assert chase.target == (0, 3) == grid.nearest_walkable((0, 4))
    chase.move_target((9, -3))
    assert chase.target == grid.nearest_walkable((9, -3)) == (1, 0)
    with pytest.raises(ValueError, match="target"):
        chase.move_target((0, 4), snap=False)
    assert chase.next_cells([(0, 3)]).tolist() == [[0, 2]]
