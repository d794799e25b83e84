"""Nearest walkable cell on the hexagonal, move and voxel grids and levels (and their
``snap=``): the answer is the brute-force nearest walkable cell (Euclidean distance
between cell indices, ties to the smallest cell; a level's on the cell's own floor),
and ``snap=True`` queries are the queries at the moved cells."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Level, VoxelGrid
from pathcraft._options import UnsupportedOptionError
from pathcraft.agents import PathFollower, Pursuer
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid


def brute(walkable: np.ndarray, cell: tuple[int, ...], limit: float = np.inf) -> Any:
    """The nearest True cell of ``walkable`` to ``cell`` by looking at every one."""
    best, answer = np.inf, None
    for other in itertools.product(*(range(n) for n in walkable.shape)):  # row-major
        if walkable[other]:
            d = sum((a - b) ** 2 for a, b in zip(other, cell, strict=True))
            if d < best:
                best, answer = d, other
    return answer if answer is not None and best <= limit * limit else None


masks = st.lists(st.booleans(), min_size=24, max_size=24).map(
    lambda v: np.array(v, dtype=bool).reshape(4, 6)
)
coords = st.integers(-8, 12)


@settings(max_examples=60, deadline=None)
@given(mask=masks, r=coords, c=coords, kind=st.sampled_from(["hex", "moves"]))
def test_hex_and_move_grids_match_brute_force(mask: np.ndarray, r: int, c: int, kind: str) -> None:
    cost = np.where(mask, 1.0, np.inf)
    world = HexGrid(cost, "odd-r") if kind == "hex" else MovesGrid(cost, KNIGHT)
    assert world.nearest_walkable((r, c)) == brute(mask, (r, c))
    assert world.nearest_walkable((r, c), max_distance=2) == brute(mask, (r, c), 2.0)
    many = world.nearest_walkable([(r, c), (0, 0)])
    expect = [brute(mask, (r, c)) or (-1, -1), brute(mask, (0, 0)) or (-1, -1)]
    assert [tuple(x) for x in many.tolist()] == expect


@settings(max_examples=40, deadline=None)
@given(
    mask=st.lists(st.booleans(), min_size=27, max_size=27).map(
        lambda v: np.array(v, dtype=bool).reshape(3, 3, 3)
    ),
    cell=st.tuples(coords, coords, coords),
)
def test_voxel_grid_matches_brute_force(mask: np.ndarray, cell: tuple[int, int, int]) -> None:
    world = VoxelGrid(mask) if mask.any() else VoxelGrid(np.where(mask, 1.0, np.inf))
    assert world.nearest_walkable(cell) == brute(mask, cell)


@settings(max_examples=40, deadline=None)
@given(mask=masks, other=masks, f=st.integers(0, 1), r=coords, c=coords)
def test_level_matches_brute_force_on_the_cells_floor(
    mask: np.ndarray, other: np.ndarray, f: int, r: int, c: int
) -> None:
    floors = [np.where(mask, 1.0, np.inf), np.where(other, 1.0, np.inf)]
    level = Level(floors)
    flat = brute([mask, other][f], (r, c))
    assert level.nearest_walkable((f, r, c)) == (None if flat is None else (f, *flat))


def test_snap_moves_ends_on_every_query_of_every_cell_world() -> None:
    cost = np.ones((4, 5))
    cost[1, 1:4] = np.inf
    worlds: list[tuple[Any, Any, Any]] = [
        (HexGrid(cost), (1, 2), (3, 4)),
        (MovesGrid(cost, KNIGHT), (1, 2), (3, 4)),
        (VoxelGrid(np.stack([cost, cost])), (0, 1, 2), (1, 3, 4)),
        (Level([cost, cost], portals=[((0, 0, 0), (1, 0, 0), 1.0)]), (0, 1, 2), (1, 3, 4)),
    ]
    for world, wall, goal in worlds:
        moved = world.nearest_walkable(wall)
        assert moved is not None and moved != wall
        with pytest.raises(ValueError, match="is a wall"):
            world.find_path(wall, goal)
        plain = world.find_path(moved, goal)
        snapped = world.find_path(wall, goal, snap=True)
        assert snapped.found == plain.found and snapped.cost == plain.cost
        assert np.array_equal(snapped.path, plain.path)
        search = world.start_search(wall, goal, snap=True)
        search.step()
        assert search.result.cost == plain.cost
        batch = world.find_paths([wall, moved], [goal, goal], snap=True)
        assert [r.cost for r in batch] == [plain.cost, plain.cost]
        costs = world.path_costs([wall], [goal], snap=True)
        assert costs.tolist() == [plain.cost]
        with pytest.raises(TypeError, match="snap must be True or False"):
            world.find_path(wall, goal, snap="yes")
        assert world.find_path(moved, goal, snap=False).cost == plain.cost


def test_snap_refusals_and_bad_cells() -> None:
    with pytest.raises(UnsupportedOptionError, match="snap"):
        Graph(2, [0], [1]).find_path(0, 1, snap=True)
    hexes = HexGrid(np.full((2, 2), np.inf))
    assert hexes.nearest_walkable((0, 0)) is None
    assert hexes.nearest_walkable([(0, 0)]).tolist() == [[-1, -1]]
    with pytest.raises(ValueError, match="is a wall"):  # no cell to move to: refused
        hexes.find_path((0, 0), (1, 1), snap=True)
    with pytest.raises(TypeError, match="integers"):
        hexes.nearest_walkable((0.5, 1))
    with pytest.raises(ValueError, match=r"a cell of 3 ints or a \(k, 3\) array"):
        VoxelGrid(np.ones((2, 2, 2))).nearest_walkable((0, 0))
    with pytest.raises(ValueError, match="on no floor of the 1"):
        Level([np.ones((2, 2))]).nearest_walkable((3, 0, 0))
    with pytest.raises(ValueError, match="max_distance"):
        MovesGrid(np.ones((2, 2)), KNIGHT).nearest_walkable((0, 0), max_distance=-1)


def test_agents_snap_on_cell_worlds() -> None:
    cost = np.ones((3, 4))
    cost[1, :3] = np.inf
    hexes = HexGrid(cost, "odd-r")
    hunter = Pursuer(hexes, (1, 0), speed=3.0, snap=True)
    assert hunter.node == hexes.nearest_walkable((1, 0))
    voxels = VoxelGrid(np.stack([cost, cost]))
    assert Pursuer(voxels, (0, 1, 1), speed=1.0, snap=True).node == (0, 0, 1)
    # a follower starting in a wall of the hex grid starts at its nearest hex's centre
    path = [(0.5, 0.5), (3.5, 0.5)]
    walker = PathFollower([path], grid=hexes, positions=[(1.2, 1.5)], snap=True)
    assert walker.positions.tolist() == [[0.5, 0.5]]  # hex (1, 0) is a wall: (0, 0)
    with pytest.raises(ValueError, match="not in a walkable cell"):
        PathFollower([path], grid=hexes, positions=[(1.2, 1.5)])
