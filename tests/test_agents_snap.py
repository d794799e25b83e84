"""``snap=`` on the agents: a Pursuer whose target strays into a wall (or off the map)
keeps chasing with ``snap=True`` and raises the documented error without it; the
request queue and PathFollower move starts the same way; worlds without a nearest
walkable node refuse ``snap=True`` by name; TileCoords snaps pixel positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathcraft import Graph, Grid
from pathcraft.agents import PathFollower, PathRequestQueue, Pursuer
from pathcraft.coords import TileCoords
from pathcraft.hexgrid import HexGrid
from pathcraft.world import CapabilityError

MAP = """
..........
..........
...####...
...####...
..........
"""


def test_a_pursuer_keeps_chasing_a_target_in_a_wall_only_with_snap() -> None:
    grid = Grid.from_ascii(MAP, diagonal="never")
    plain = Pursuer(grid, (0, 0), speed=1.0)
    with pytest.raises(ValueError, match=r"target \(2, 4\) is a wall"):
        plain.step((2, 4), dt=1.0)
    for frame_budget in (None, 5):
        enemy = Pursuer(grid, (0, 0), speed=1.0, snap=True, frame_budget=frame_budget)
        status = "chasing"
        for _ in range(60):
            status = enemy.step((2, 4), dt=1.0)  # inside the block: (1, 4) is nearest
        assert status == "caught" and enemy.node == (1, 4), frame_budget
        # off the map too; and step(snap=False) overrides the constructor
        for _ in range(10):  # a budgeted plan takes a few frames
            status = enemy.step((-3, 20), dt=100.0)
        assert status == "caught" and enemy.node == (0, 9), frame_budget
        with pytest.raises(ValueError, match="outside the grid"):
            enemy.step((-3, 20), dt=1.0, snap=False)


def test_a_pursuer_snaps_its_start_and_per_step_targets() -> None:
    grid = Grid.from_ascii(MAP)
    enemy = Pursuer(grid, (3, 5), speed=1.0, snap=True)
    assert enemy.node == (4, 5)  # 1 away; (1, 5) is 2 away
    hunter = Pursuer(grid, (0, 0), speed=50.0)
    assert hunter.step((3, 3), dt=1.0, snap=True) == "caught"
    assert hunter.node == (3, 2)  # (3, 2) and (4, 3) are both 1 away: the smaller row
    with pytest.raises(ValueError, match="start"):
        Pursuer(Grid(np.full((2, 2), np.inf)), (0, 0), speed=1.0, snap=True)
    with pytest.raises(TypeError, match="snap must be True or False"):
        Pursuer(grid, (0, 0), speed=1.0, snap="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="snap must be True or False"):
        hunter.step((0, 0), dt=1.0, snap=1)  # type: ignore[arg-type]


@given(
    target=st.tuples(st.integers(-6, 12), st.integers(-6, 16)),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_snapped_chase_ends_at_the_nearest_walkable_cell(
    target: tuple[int, int], seed: int
) -> None:
    walkable = np.random.default_rng(seed).random((6, 10)) < 0.7
    walkable[0, 0] = True
    grid = Grid(np.where(walkable, 1.0, np.inf))
    enemy = Pursuer(grid, (0, 0), speed=1000.0, snap=True)
    status = enemy.step(target, dt=1.0)
    nearest = grid.nearest_walkable(target)
    assert nearest is not None
    if grid.find_path((0, 0), nearest):
        assert status == "caught" and enemy.node == nearest
    else:
        assert status == "unreachable"


def test_worlds_without_a_nearest_walkable_node_refuse_snap_by_name() -> None:
    with pytest.raises(CapabilityError, match="Graph does not provide snap"):
        Pursuer(Graph(2, [0], [1]), 0, speed=1.0, snap=True)
    with pytest.raises(CapabilityError, match="HexGrid does not provide snap"):
        Pursuer(HexGrid(np.ones((2, 2))), (0, 0), speed=1.0, snap=True)
    chaser = Pursuer(Graph(2, [0], [1]), 0, speed=1.0)
    with pytest.raises(CapabilityError, match="snap"):
        chaser.step(1, dt=1.0, snap=True)


def test_the_queue_passes_snap_to_the_world() -> None:
    grid = Grid.from_ascii(MAP)
    queue = PathRequestQueue(budget=1000)
    queue.request("zombie", grid, (2, 3), (3, 6), snap=True)
    got = queue.update()["zombie"]
    want = grid.find_path((1, 3), (3, 7))  # (3, 7) and (4, 6) tie: the smaller row
    assert got.path.tolist() == want.path.tolist()
    with pytest.raises(ValueError, match="is a wall"):
        queue.request("ghoul", grid, (2, 3), (0, 0))


def test_a_path_follower_starts_snapped_positions_on_walkable_cells() -> None:
    grid = Grid.from_ascii(MAP)
    path = grid.astar((1, 0), (1, 9)).path
    with pytest.raises(ValueError, match="positions: point"):
        PathFollower.from_cells(grid, [path], positions=[(4.5, 2.5)])
    movers = PathFollower.from_cells(grid, [path, path], positions=[(4.5, 2.2), (0.2, 0.7)],
                                     snap=True)  # fmt: skip
    assert movers.positions.tolist() == [[4.5, 1.5], [0.2, 0.7]]
    far = PathFollower([path[:, ::-1] + 0.5], grid=grid, positions=[(-40.0, 1.5)], snap=True)
    assert far.positions.tolist() == [[0.5, 1.5]]
    with pytest.raises(TypeError, match="snap"):
        PathFollower([path[:, ::-1] + 0.5], grid=grid, snap=None)  # type: ignore[arg-type]


def test_tile_coords_snap_pixels_to_walkable_cells() -> None:
    grid = Grid.from_ascii(MAP)
    for tiles in (TileCoords(16), TileCoords((8, 4), origin=(5, -7), y_up=True, shape=grid.shape)):
        points = np.array([[3.0 * 16 + 5, 2.5 * 16], [-100.0, -100.0], [0.0, 0.0]])
        pixels, cells = tiles.nearest_walkable(points, grid)
        want = grid.nearest_walkable(tiles.to_cells(points))
        assert cells.tolist() == np.asarray(want).tolist()
        assert pixels.tolist() == tiles.to_pixels(cells).tolist()
    walls = Grid(np.full((2, 2), np.inf))
    pixels, cells = TileCoords(10).nearest_walkable([(5, 5)], walls)
    assert cells.tolist() == [[-1, -1]] and np.isnan(pixels).all()
    pixels, cells = TileCoords(10).nearest_walkable((500, 5), grid, max_distance=3)
    assert cells.tolist() == [[-1, -1]]


def test_tile_coords_find_path_with_snap_is_the_search_from_the_snapped_cells() -> None:
    grid = Grid.from_ascii(MAP)
    tiles = TileCoords(16, shape=grid.shape)
    start, goal = (4 * 16 + 3, 2 * 16 + 9), (-50.0, 400.0)  # in the block; off the map
    with pytest.raises(ValueError, match="outside the map"):
        tiles.find_path(grid, (8, 8), goal)
    got = tiles.find_path(grid, start, goal, snap=True)
    want = grid.find_path((1, 4), (4, 0))
    assert got.path.tolist() == tiles.to_pixels(want.path).tolist() and got.cost == 16 * want.cost
