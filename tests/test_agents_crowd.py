"""Crowds: flow fields against the scipy oracle, no overlaps over a 60-second
simulation, everyone exits through two doors, agents stay on the floor."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _grids import oracle

from pathcraft import Grid
from pathcraft.agents import Crowd, FlowField
from pathcraft.agents.spaces import walkable_at

pytest.importorskip("pyrvo")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rule", ["never", "no_corner_cut", "always"])
def test_following_the_flow_field_is_a_shortest_path_to_the_nearest_goal(
    seed: int, rule: str
) -> None:
    rng = np.random.default_rng(seed)
    cost = np.ones((15, 15))
    cost[rng.random((15, 15)) < 0.3] = np.inf
    free = np.argwhere(np.isfinite(cost))
    goals = [tuple(int(x) for x in free[i]) for i in rng.choice(len(free), 2, replace=False)]
    grid = Grid(cost, diagonal=rule)  # type: ignore[arg-type]
    flow = FlowField(grid, goals)
    want = oracle(cost, rule, goals)  # uniform costs: symmetric
    np.testing.assert_allclose(flow.distance, want)
    for r, c in free.tolist():
        if not math.isfinite(want[r, c]):
            assert flow.next_cell[r, c].tolist() == [r, c]
            continue
        total, cell = 0.0, (r, c)
        for _ in range(300):
            if want[cell] == 0:
                break
            nxt = tuple(int(x) for x in flow.next_cell[cell])
            diagonal = nxt[0] != cell[0] and nxt[1] != cell[1]
            total += math.sqrt(2.0) if diagonal else 1.0
            cell = nxt
        assert want[cell] == 0
        assert total == pytest.approx(want[r, c])


def two_door_room() -> tuple[Grid, list[tuple[int, int]]]:
    rows, cols = 30, 40
    cost = np.ones((rows, cols))
    cost[-1, :] = np.inf  # the bottom wall, with two doors
    doors = [(rows - 1, c) for c in (8, 9, 10, 29, 30, 31)]  # two doors, 3 cells wide
    for d in doors:
        cost[d] = 1.0
    cost[10:20, 18:22] = np.inf  # a pillar in the middle
    return Grid(cost), doors


def test_a_crowd_leaves_through_two_doors_without_overlaps_or_leaving_the_floor() -> None:
    grid, doors = two_door_room()
    rng = np.random.default_rng(0)
    radius = 0.3
    # 250 agents on a jittered lattice in the top of the room, no two overlapping
    xs, ys = np.meshgrid(np.arange(1.0, 39.0, 1.0), np.arange(0.5, 9.5, 1.1))
    start = np.stack([xs.ravel(), ys.ravel()], axis=1)[:250]
    start += rng.uniform(-0.15, 0.15, start.shape)
    crowd = Crowd(grid, start, doors, radius=radius, max_speed=1.5)
    dt = 0.1
    worst = 0.0
    for _ in range(600):  # 60 seconds
        crowd.step(dt)
        assert walkable_at(grid.walkable, crowd.positions).all()
        inside = crowd.positions[~crowd.exited]
        if len(inside) > 1:
            d = np.linalg.norm(inside[:, None, :] - inside[None, :, :], axis=-1)
            np.fill_diagonal(d, np.inf)
            worst = max(worst, 2 * radius - float(d.min()))
        if crowd.exited.all():
            break
    assert crowd.exited.all(), int((~crowd.exited).sum())
    # measured: 0.0298 cells at most (10% of a radius), agents pressed on the walls by the doors
    assert worst <= 0.15 * radius, worst
    assert crowd.time <= 60.0


def test_groups_head_for_their_own_goals() -> None:
    grid = Grid(np.ones((5, 20)))
    crowd = Crowd(grid, [(10.5, 2.5), (10.5, 1.5)], [[(2, 0)], [(2, 19)]], group=[0, 1])
    for _ in range(200):
        crowd.step(0.1)
    assert crowd.exited.all()
    assert crowd.positions[0, 0] < 1.0 or crowd.positions[0, 0] < -1000  # parked


def test_bad_input_is_named() -> None:
    grid = Grid.from_ascii("..#")
    with pytest.raises(ValueError, match=r"positions: point \[2.5, 0.5\] is not in a walkable"):
        Crowd(grid, [(2.5, 0.5)], [(0, 0)])
    with pytest.raises(ValueError, match="radius must be a finite number > 0"):
        Crowd(grid, [(0.5, 0.5)], [(0, 0)], radius=0)
    with pytest.raises(ValueError, match="group must be 1 integers"):
        Crowd(grid, [(0.5, 0.5)], [(0, 0)], group=[0, 1])
    with pytest.raises(ValueError, match="group values must be in"):
        Crowd(grid, [(0.5, 0.5)], [(0, 0)], group=[3])
    with pytest.raises(ValueError, match=r"goals .* is a wall"):
        FlowField(grid, (0, 2))
    with pytest.raises(ValueError, match="dt must be a finite number > 0"):
        Crowd(grid, [(0.5, 0.5)], [(0, 0)]).step(0.0)


# --------------------------------------------------------------------------- unit sizes


def footprint_fits(grid: Grid, points: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Whether each agent's footprint (the k x k cells nearest its centre) is free."""
    corner = np.floor(points - ((sizes - 1) / 2)[:, None]).astype(np.intp)
    rows, cols = grid.shape
    inside = (corner >= 0).all(axis=1) & (corner[:, 1] < rows) & (corner[:, 0] < cols)
    out = np.zeros(len(points), dtype=bool)
    c, r = corner[inside, 0], corner[inside, 1]
    out[inside] = grid.clearance[r, c] >= sizes[inside]
    return out


def test_units_of_several_sizes_never_overlap_a_wall_and_leave_by_exits_they_fit() -> None:
    rows, cols = 24, 30
    cost = np.ones((rows, cols))
    cost[-3:, :] = np.inf  # the bottom wall, three cells thick, with two exits
    for c in (4, 20, 21, 22):  # a door one cell wide, a gate three cells wide
        cost[-3:, c] = 1.0
    cost[8:14, 12:16] = np.inf  # a pillar
    grid = Grid(cost)
    exits = [(rows - 2, 4), (rows - 3, 20)]  # the door, the gate (its top-left corner)
    rng = np.random.default_rng(3)
    sizes = np.array([1, 1, 1, 2, 2, 3, 1, 2, 3, 1])
    starts = []
    while len(starts) < len(sizes):
        k = int(sizes[len(starts)])
        p = rng.uniform((k / 2, k / 2), (cols - k / 2, 8.0))
        if footprint_fits(grid, p[None], np.array([k]))[0] and all(
            np.linalg.norm(p - q) > 3.2 for q in starts
        ):
            starts.append(p)
    crowd = Crowd(grid, np.array(starts), exits, sizes=sizes, radius=0.3)
    assert crowd.sizes.tolist() == sizes.tolist()
    for k in (2, 3):  # the door is too narrow for them: only the gate is their goal
        assert crowd.flow(0, k).distance[exits[0]] == np.inf
        assert crowd.flow(0, k).distance[exits[1]] == 0.0
    for _ in range(1200):
        done = crowd.step(0.1)
        live = ~done
        assert footprint_fits(grid, crowd.positions[live], sizes[live]).all()
        if done.all():
            break
    assert crowd.exited.all()


def test_a_unit_steers_for_the_centre_of_its_next_footprint() -> None:
    hall = Grid.from_walkable([[True] * 8] * 3)
    crowd = Crowd(hall, [(1.0, 1.0)], [(0, 6)], sizes=2, max_speed=1.0)
    nxt = crowd.flow(0, 2).next_cell[0, 0]
    want = nxt[::-1] + 1.0 - crowd.positions[0]  # its next footprint's centre, (x, y)
    got = crowd.preferred_velocities()[0]
    assert got.tolist() == pytest.approx((want / np.linalg.norm(want)).tolist())


def test_sizes_are_checked() -> None:
    hall = Grid.from_ascii("""
    ......
    ......
    ..#...
    """)
    with pytest.raises(ValueError, match=r"sizes must be one integer or 2 of them"):
        Crowd(hall, [(0.5, 0.5), (1.5, 0.5)], [(0, 5)], sizes=[1, 2, 3])
    with pytest.raises(ValueError, match=r"sizes\[1\] must be an integer >= 1"):
        Crowd(hall, [(0.5, 0.5), (1.5, 0.5)], [(0, 5)], sizes=[1, 0])
    with pytest.raises(TypeError, match="sizes must be an integer >= 1"):
        Crowd(hall, [(0.5, 0.5)], [(0, 5)], sizes=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not in a place where a unit of size 2 fits"):
        Crowd(hall, [(2.0, 2.0)], [(0, 4)], sizes=2)  # its footprint holds the wall
    with pytest.raises(ValueError, match="no goal of group 0 fits a unit of size 3"):
        Crowd(hall, [(4.5, 1.5)], [(0, 4)], sizes=3)
    with pytest.raises(ValueError, match="group must be in"):
        Crowd(hall, [(0.5, 0.5)], [(0, 4)]).flow(1)


def test_hostile_sizes_and_positions_are_named() -> None:
    g = Grid(np.ones((5, 5)))
    with pytest.raises(ValueError, match=r"^sizes\[1\] must be an integer >= 1 .*at most 2\*\*31"):
        Crowd(g, [(0.5, 0.5), (2.5, 2.5)], [(4, 4), (0, 4)], sizes=[1, 2**63])
    with pytest.raises(ValueError, match=r"^sizes must be an integer >= 1 .*at most 2\*\*31"):
        Crowd(g, [(0.5, 0.5)], [(4, 4)], sizes=2**40)
    for bad in ("ab", [("x", 1.0)], object()):
        with pytest.raises(TypeError, match=r"^positions must be an \(n, 2\) array of \(x, y\)"):
            Crowd(g, bad, [(4, 4)])


def test_a_pickled_crowd_steps_on_as_the_original() -> None:
    import pickle

    yard = Grid.from_ascii("""
    ........
    ........
    #.##..##
    #.##..##
    """)
    crowd = Crowd(yard, [(1.0, 1.0), (1.5, 0.5), (6.5, 0.5)], [(3, 1), (2, 4)], sizes=[2, 1, 1])
    for _ in range(5):
        crowd.step(0.1)
    copy = pickle.loads(pickle.dumps(crowd))
    assert copy.positions.tolist() == crowd.positions.tolist()
    for _ in range(300):
        done = crowd.step(0.1)
        assert copy.step(0.1).tolist() == done.tolist()
        assert copy.positions.tolist() == crowd.positions.tolist()
        assert copy.velocities.tolist() == crowd.velocities.tolist()
        if done.all():
            break
    assert crowd.exited.all() and copy.time == crowd.time
