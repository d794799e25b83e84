"""PathFollower: agents reach their goals within tolerance and never leave walkable
cells on random maps; speed and turn limits hold; stuck agents are reported."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_agents_chase import free_cells, random_map

from pathcraft import Grid
from pathcraft.agents import PathFollower
from pathcraft.agents._motion import slide
from pathcraft.agents.spaces import walkable_at


def paths_on(grid: Grid, n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    cells = free_cells(grid)
    out = []
    while len(out) < n:
        a, b = (cells[i] for i in rng.choice(len(cells), 2, replace=False))
        out.append(grid.astar(a, b).path)
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("turn_rate", [math.inf, 4.0])
def test_agents_arrive_within_tolerance_and_stay_on_walkable_cells(
    seed: int, turn_rate: float
) -> None:
    grid = random_map(seed, side=20, walls=0.3)
    paths = paths_on(grid, 40, seed)
    follower = PathFollower.from_cells(
        grid, paths, max_speed=3.0, turn_rate=turn_rate, lookahead=0.8, tolerance=0.1
    )
    walkable = grid.walkable
    dt = 0.05
    for _ in range(4000):
        before = follower.positions.copy()
        arrived = follower.step(dt)
        assert walkable_at(walkable, follower.positions).all()
        moved = np.linalg.norm(follower.positions - before, axis=1)
        assert (moved <= 3.0 * dt + 1e-9).all()  # never faster than max_speed
        if arrived.all():
            break
    assert follower.arrived.all(), np.flatnonzero(~follower.arrived)
    ends = np.array([p[-1][::-1] + 0.5 for p in paths])
    assert (np.linalg.norm(follower.positions - ends, axis=1) <= 0.1).all()
    assert not follower.stuck.any()
    assert (follower.velocities == 0).all()


def test_the_turn_rate_limits_how_fast_the_heading_changes() -> None:
    # a U-turn in free space: the heading may change by at most turn_rate * dt
    follower = PathFollower([[(0.0, 0.0), (5.0, 0.0), (5.0, 1.0), (0.0, 1.0)]],
                            max_speed=2.0, turn_rate=1.0, lookahead=0.5)  # fmt: skip
    dt = 0.1
    prev = None
    for _ in range(400):
        follower.step(dt)
        v = follower.velocities[0]
        if prev is not None and np.linalg.norm(v) > 1e-6 and np.linalg.norm(prev) > 1e-6:
            angle = abs(math.atan2(prev[0] * v[1] - prev[1] * v[0], prev @ v))
            assert angle <= 1.0 * dt + 1e-6
        prev = v.copy()
        if follower.arrived[0]:
            break
    assert follower.arrived[0]


def test_lookahead_rounds_corners() -> None:
    grid = Grid(np.ones((6, 6)), diagonal="never")
    path = [grid.astar((0, 0), (5, 5)).path]  # a staircase or an L
    sharp = PathFollower.from_cells(grid, path, lookahead=0.0, max_speed=1.0)
    smooth = PathFollower.from_cells(grid, path, lookahead=2.0, max_speed=1.0)
    times = []
    for follower in (sharp, smooth):
        steps = next((t for t in range(2000) if follower.step(0.05)[0]), None)
        assert steps is not None and follower.arrived[0]
        times.append(steps)
    assert times[1] < times[0]  # cutting the corners is shorter


def test_an_agent_that_cannot_get_through_is_reported_stuck() -> None:
    grid = Grid.from_ascii(
        """
        ...#...
        ...#...
        ...#...
        """
    )
    # both points are walkable, but the wall between them is closed
    follower = PathFollower([[(1.5, 1.5), (5.5, 1.5)]], grid=grid, stuck_time=1.0)
    for _ in range(100):
        follower.step(0.1)
    assert follower.stuck[0] and not follower.arrived[0]
    assert follower.positions[0, 0] == pytest.approx(3.0, abs=1e-6)  # at the wall's face
    assert walkable_at(grid.walkable, follower.positions).all()


def test_slide_moves_along_walls_and_never_through_corners() -> None:
    walkable = np.array([[True, False], [False, True]])
    pos = np.array([[0.5, 0.5]])
    new, blocked = slide(pos, np.array([[1.0, 1.0]]), walkable)  # diagonal gap
    assert walkable_at(walkable, new).all() and blocked.all()
    open_floor = np.ones((3, 3), dtype=bool)
    open_floor[1, 1] = False
    new, blocked = slide(np.array([[0.5, 0.5]]), np.array([[2.0, 0.6]]), open_floor)
    assert new[0] == pytest.approx((2.5, 1.1)) and not blocked.any()


def test_bad_input_is_named() -> None:
    grid = Grid.from_ascii("..#")
    with pytest.raises(TypeError, match="paths must be a non-empty sequence"):
        PathFollower([])
    with pytest.raises(ValueError, match=r"paths\[0\] must be an \(n, 2\) array"):
        PathFollower([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match=r"paths: point .* is not in a walkable cell"):
        PathFollower([[(0.5, 0.5), (2.5, 0.5)]], grid=grid)
    with pytest.raises(ValueError, match="max_speed must be a finite number > 0"):
        PathFollower([[(0.5, 0.5)]], max_speed=0)
    with pytest.raises(ValueError, match="positions has 2 rows for 1 paths"):
        PathFollower([[(0.5, 0.5)]], positions=[(0, 0), (1, 1)])
    with pytest.raises(ValueError, match=r"paths\[0\] must be a \(k, 2\) integer array"):
        PathFollower.from_cells(grid, [[(0.5, 0.5)]])
    follower = PathFollower([[(0.5, 0.5), (1.5, 0.5)]], grid=grid)
    with pytest.raises(ValueError, match="dt must be a finite number >= 0"):
        follower.step(-1.0)
    assert not follower.step(0.0)[0]


# --------------------------------------------------------------------------- map edits


def _cells_of(points: np.ndarray) -> set[tuple[int, int]]:
    return {(int(np.floor(y)), int(np.floor(x))) for x, y in points}


def test_a_follower_never_steps_into_a_cell_that_became_a_wall() -> None:
    rng = np.random.default_rng(7)
    cost = np.ones((24, 24))
    cost[rng.random((24, 24)) < 0.15] = np.inf
    cost[:, 0] = cost[:, -1] = 1.0
    grid = Grid(cost)
    starts = [(r, 0) for r in range(0, 24, 3)]
    goals = [(23 - r, 23) for r, _ in starts]
    paths = [grid.astar(s, g).path for s, g in zip(starts, goals, strict=True)]
    crowd = PathFollower.from_cells(grid, paths, max_speed=3.0, tolerance=0.2)
    for tick in range(400):
        if tick % 3 == 0:  # toggle a cell: often one just ahead of an agent
            i = int(rng.integers(len(crowd)))
            v = crowd.velocities[i]
            ahead = crowd.positions[i] + 1.5 * v / max(float(np.linalg.norm(v)), 1e-9)
            x, y = ahead if tick % 2 else rng.uniform(0, 24, 2)
            cell = (int(np.clip(np.floor(y), 0, 23)), int(np.clip(np.floor(x), 0, 23)))
            if cell not in _cells_of(crowd.positions) and cell[1] not in (0, 23):
                grid[cell] = np.inf if np.isfinite(grid[cell]) else 1.0
        walls = ~grid.walkable
        crowd.step(0.1)
        for x, y in crowd.positions:  # never inside a wall that was there before it moved
            assert not walls[int(np.floor(y)), int(np.floor(x))], f"tick {tick}"
        if crowd.arrived.all():
            break
    assert crowd.replans > 0
    assert (crowd.arrived | crowd.blocked).all() or tick == 399


def test_a_door_closing_reroutes_and_a_closed_way_blocks_until_it_opens() -> None:
    grid = Grid.from_ascii(
        """
        .........
        ....#....
        ....#....
        ....#....
        .........
        """
    )
    follower = PathFollower.from_cells(grid, [grid.astar((2, 0), (2, 8)).path], max_speed=2.0)
    follower.step(0.5)
    grid[0, 4] = grid[4, 4] = np.inf  # both ways closed: no path
    follower.step(0.5)
    assert follower.blocked[0] and not follower.arrived[0]
    held = follower.positions.copy()
    for _ in range(5):
        follower.step(0.5)
    assert (follower.positions == held).all()
    grid[4, 4] = 1.0  # the bottom door opens
    for _ in range(100):
        if follower.step(0.2).all():
            break
    assert follower.arrived[0] and not follower.blocked[0]
    assert follower.replans == 1


def test_only_the_last_rerouted_agents_keep_a_replanner(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcraft.agents import follow

    monkeypatch.setattr(follow, "_PLANNERS", 1)
    grid = Grid(np.ones((12, 12)))
    paths = [grid.astar((r, 0), (r, 11)).path for r in (2, 6, 9)]
    crowd = PathFollower.from_cells(grid, paths, max_speed=2.0)
    crowd.step(0.5)
    grid[:, 5] = np.inf
    grid[0, 5] = 1.0  # one gap at the top
    for _ in range(200):
        if crowd.step(0.2).all():
            break
    assert crowd.arrived.all() and crowd.replans == 3
    for x, y in crowd.positions:
        assert grid.walkable[int(y), int(x)]
