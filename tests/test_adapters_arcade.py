"""arcade: walls rasterised once from sprite lists, checked against the per-node
collision loop of ``arcade.AStarBarrierList`` and the answers of
``arcade.astar_calculate_path`` (both written again here from arcade/paths.py, on
boxes, as arcade is not installable headless beside this Pillow; the test at the end
runs arcade itself where it is installed). Sprites are plain objects of arcade's
shape."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from _grids import assert_answer, oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from pathcraft.adapters.arcade import BarrierGrid, sprite_boxes


def sprite(x: float, y: float, w: float, h: float, *, centre: bool = False) -> Any:
    if centre:
        return SimpleNamespace(center_x=x, center_y=y, width=w, height=h)
    return SimpleNamespace(left=x - w / 2, right=x + w / 2, bottom=y - h / 2, top=y + h / 2)


def arcade_nodes(size: int, left: float, right: float, bottom: float, top: float) -> list:
    """AStarBarrierList's nodes (cx, cy): every whole cx from left // size to
    right // size and cy from bottom // size to top // size, ends included."""
    return [(cx, cy) for cx in range(int(left // size), int(right // size) + 1)
            for cy in range(int(bottom // size), int(top // size) + 1)]  # fmt: skip


def arcade_barriers(boxes: np.ndarray, size: int, field: tuple, half: tuple) -> set:
    """AStarBarrierList.recalculate: the moving box centred on every node's pixel
    (cx * size, cy * size); the node is a barrier when the box overlaps a wall."""
    out = set()
    for cx, cy in arcade_nodes(size, *field):
        x, y = cx * size, cy * size
        for lo_x, hi_x, lo_y, hi_y in boxes:
            hx, hy = half
            if x - hx < hi_x and x + hx > lo_x and y - hy < hi_y and y + hy > lo_y:
                out.add((cx, cy))
                break
    return out


def arcade_cost(path: list) -> float:
    """A path's cost as arcade's _AStarGraph.move_cost prices it: 1 straight, 1.42
    diagonal."""
    return sum(1.42 if a[0] != b[0] and a[1] != b[1] else 1.0 for a, b in itertools.pairwise(path))


def arcade_distance(size: int, field: tuple, barriers: set, start: tuple, end: tuple,
                    diagonal: bool) -> float:  # fmt: skip
    """The cost of astar_calculate_path's answer (its A* with an admissible heuristic
    is optimal on these small fields, under its 500 expansions), by scipy: nodes
    within the field, a step into a barrier never taken (the start itself is never
    tested), king moves with diagonal_movement, rook moves without."""
    sx, sy = int(start[0] // size), int(start[1] // size)
    ex, ey = int(end[0] // size), int(end[1] // size)
    nodes = arcade_nodes(size, *field)
    index = {n: i for i, n in enumerate(nodes)}
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (-1, 1), (1, -1), (-1, -1)]
    rows, cols, weights = [], [], []
    for (cx, cy), i in index.items():
        for dx, dy in steps:
            j = index.get((cx + dx, cy + dy))
            if j is not None and (cx + dx, cy + dy) not in barriers:
                rows.append(i)
                cols.append(j)
                weights.append(1.42 if dx and dy else 1.0)
    graph = coo_matrix((weights, (rows, cols)), shape=(len(nodes),) * 2).tocsr()
    return float(dijkstra(graph, indices=index[(sx, sy)])[index[(ex, ey)]])


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), mover=st.booleans(), size=st.sampled_from([8, 16, 32]))
def test_the_raster_matches_arcades_collision_loop(seed: int, mover: bool, size: int) -> None:
    rng = np.random.default_rng(seed)
    left, bottom = float(rng.integers(-100, 100)), float(rng.integers(-100, 100))
    width, height = float(rng.integers(1, 20) * size), float(rng.integers(1, 15) * size)
    width += float(rng.integers(0, size))  # fields that end between two nodes too
    walls = [sprite(left + rng.uniform(-20, width + 20), bottom + rng.uniform(-20, height + 20),
                    rng.uniform(1, 3 * size), rng.uniform(1, 3 * size), centre=bool(i % 2))
             for i in range(int(rng.integers(0, 25)))]  # fmt: skip
    # A wall whose edges pass exactly through nodes: touching must not block.
    x0, y0 = (left // size + 1) * size, (bottom // size + 1) * size
    walls.append(SimpleNamespace(left=x0, right=x0 + size, bottom=y0, top=y0 + size))
    hero = sprite(0, 0, rng.uniform(2, 2 * size), rng.uniform(2, 2 * size)) if mover else None
    field = (left, left + width, bottom, bottom + height)
    left, right, bottom, top = field
    barriers = BarrierGrid([walls[:5], walls[5:]], tile_size=size, left=left, right=right,
                           bottom=bottom, top=top, moving_sprite=hero)  # fmt: skip
    half = (size / 2, size / 2) if hero is None else ((hero.right - hero.left) / 2,
                                                     (hero.top - hero.bottom) / 2)  # fmt: skip
    want = arcade_barriers(sprite_boxes(walls), size, field, half)
    rows, cols = barriers.grid.shape
    assert rows * cols == len(arcade_nodes(size, *field))
    got = set()
    for r, c in np.argwhere(~barriers.grid.walkable).tolist():
        x, y = barriers.coords.pixel((r, c))
        got.add((round(x / size), round(y / size)))
    assert got == want


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), diagonal=st.booleans())
def test_paths_are_what_astar_calculate_path_returns(seed: int, diagonal: bool) -> None:
    rng = np.random.default_rng(seed)
    size = 16
    field = (float(rng.integers(-40, 40)), 0.0, float(rng.integers(-40, 40)), 0.0)
    field = (field[0], field[0] + rng.uniform(32, 160), field[2], field[2] + rng.uniform(32, 160))
    walls = [sprite(rng.uniform(field[0], field[1]), rng.uniform(field[2], field[3]),
                    rng.uniform(4, 40), rng.uniform(4, 40))
             for _ in range(int(rng.integers(0, 8)))]  # fmt: skip
    barriers = BarrierGrid(walls, tile_size=size, left=field[0], right=field[1], bottom=field[2],
                           top=field[3], diagonal="always" if diagonal else "never")  # fmt: skip
    blocked = arcade_barriers(sprite_boxes(walls), size, field, (size / 2, size / 2))
    for _ in range(5):
        start = (rng.uniform(field[0], field[1]), rng.uniform(field[2], field[3]))
        end = (rng.uniform(field[0], field[1]), rng.uniform(field[2], field[3]))
        path = barriers.find_path(start, end)
        want = arcade_distance(size, field, blocked, start, end, diagonal)
        if math.isinf(want):
            assert path is None
            continue
        assert path is not None
        # arcade's ends: the nodes at or below-left of the positions, as integers.
        assert path[0] == (int(start[0] // size * size), int(start[1] // size * size))
        assert path[-1] == (int(end[0] // size * size), int(end[1] // size * size))
        assert all(type(v) is int for point in path for v in point)
        nodes = [(x // size, y // size) for x, y in path]
        for a, b in itertools.pairwise(nodes):
            step = (abs(b[0] - a[0]), abs(b[1] - a[1]))
            assert step in ({(1, 0), (0, 1), (1, 1)} if diagonal else {(1, 0), (0, 1)})
            assert b not in blocked
        assert arcade_cost(nodes) == pytest.approx(want)


def test_a_blocked_start_is_left_and_a_blocked_end_gives_none_as_in_arcade() -> None:
    wall = SimpleNamespace(left=20, right=44, bottom=20, top=44)  # blocks the node (32, 32)
    barriers = BarrierGrid([wall], tile_size=32, left=0, right=96, bottom=0, top=96)
    assert barriers.ascii().splitlines() == ["....", "....", ".#..", "...."]
    assert barriers.find_path((40, 40), (96, 96)) == [(32, 32), (64, 64), (96, 96)]
    assert barriers.find_path((0, 0), (33, 35)) is None
    assert barriers.grid.walkable.sum() == 15  # the grid itself is untouched
    with pytest.raises(ValueError, match="wall"):
        barriers.find_result((40, 40), (96, 96))


def test_the_start_gets_the_swap_hint_as_the_goal_does() -> None:
    wall = SimpleNamespace(left=-10, right=100, bottom=-10, top=70)  # the lower rows
    barriers = BarrierGrid([wall], tile_size=32, left=0, right=96, bottom=0, top=96)
    with pytest.raises(ValueError, match=r"start .*swapped.*did you mean"):
        barriers.find_result((96, 10), (0, 96))
    # off the field: the swapped position's node, for the start as for the end
    tall = BarrierGrid([], tile_size=32, left=0, right=96, bottom=0, top=640)
    for ends, name in ((((500, 30), (0, 0)), "start"), (((0, 0), (500, 30)), "end")):
        hint = (rf"{name}: position \(500.0, 30.0\) goes to the node \(20, 15\), outside "
                rf".*{name} \(30, 500\), swapped, goes to the free node \(5, 0\): did you")
        with pytest.raises(ValueError, match=hint):
            tall.find_path(*ends)


def test_paths_in_arcade_pixels_are_optimal_on_the_grid() -> None:
    rng = np.random.default_rng(11)
    walls = [sprite(x, y, 32, 32) for x, y in rng.integers(0, 20, (60, 2)) * 32 + 16]
    barriers = BarrierGrid(walls, tile_size=32, left=0, right=640, bottom=0, top=640)
    grid, tiles = barriers.grid, barriers.coords
    free = np.argwhere(grid.walkable)
    for a, b in free[rng.integers(len(free), size=(25, 2))]:
        start, goal = tiles.pixel(a), tiles.pixel(b)
        result = barriers.find_result(start, goal, units="tiles")
        assert barriers.find_result(start, goal).cost == pytest.approx(32 * result.cost)
        want = float(oracle(grid.cost, grid.diagonal, [tuple(a)])[tuple(b)])
        if not result:
            assert math.isinf(want)
            continue
        cells = tiles.to_cells(np.asarray(result.path))
        assert_answer(grid.cost, grid.diagonal, replace(result, path=cells), tuple(a), tuple(b),
                      want)  # fmt: skip
        # y up: the start's pixel y is larger the higher (smaller row) the node is.
        assert start[1] == pytest.approx(640 - a[0] * 32)


def test_diagonal_movement_off_and_recalculate() -> None:
    barriers = BarrierGrid([], tile_size=10, left=0, right=30, bottom=0, top=30, diagonal="never")
    path = barriers.find_path((5, 5), (25, 25))
    assert path is not None and len(path) == 5  # (0, 0) to (20, 20), 4 rook moves
    barriers.recalculate([[sprite(15, 10, 40, 2)]])  # a wall along the nodes at y = 10
    assert barriers.ascii().splitlines() == ["....", "....", "####", "...."]
    assert barriers.find_path((5, 5), (25, 25)) is None
    assert "4x4 cells of 10 px, 4 blocked" in repr(barriers)


def test_bad_input() -> None:
    field = {"tile_size": 10, "left": 0, "right": 30, "bottom": 0, "top": 30}
    with pytest.raises(TypeError, match=r"walls must be a SpriteList .* not one sprite"):
        BarrierGrid(sprite(1, 1, 1, 1), **field)
    with pytest.raises(TypeError, match=r"walls\[0\] must be a sprite or a SpriteList"):
        BarrierGrid([3], **field)
    with pytest.raises(TypeError, match=r"walls\[0\]\[0\] must be a sprite"):
        BarrierGrid([[SimpleNamespace(left=0)]], **field)
    with pytest.raises(ValueError, match="not finite or not ordered"):
        BarrierGrid([SimpleNamespace(left=5, right=1, bottom=0, top=1)], **field)
    with pytest.raises(ValueError, match="tile_size must be finite and > 0"):
        BarrierGrid([], **{**field, "tile_size": 0})
    with pytest.raises(ValueError, match="right > left and top > bottom"):
        BarrierGrid([], **{**field, "right": -5})
    off = r"start: position \(45.0, 5.0\) goes to the node \(3, 4\), outside"
    with pytest.raises(ValueError, match=off):
        BarrierGrid([], **field).find_path((45, 5), (5, 5))
    with pytest.raises(TypeError, match=r"end: position must be \(x, y\) numbers"):
        BarrierGrid([], **field).find_path((5, 5), "here")


def test_with_arcade_when_it_is_installed() -> None:
    arcade = pytest.importorskip("arcade")
    walls = arcade.SpriteList()
    wall = arcade.SpriteSolidColor(32, 32, color=arcade.color.BLACK)
    wall.position = (48, 48)
    walls.append(wall)
    barriers = BarrierGrid(walls, tile_size=32, left=0, right=96, bottom=0, top=96)
    assert barriers.ascii().splitlines() == ["....", ".##.", ".##.", "...."]
    hero = arcade.SpriteSolidColor(32, 32, color=arcade.color.RED)
    theirs = arcade.AStarBarrierList(hero, walls, 32, 0, 96, 0, 96)
    assert sorted(theirs.barrier_list) == sorted(
        (round(x / 32), round(y / 32))
        for x, y in map(barriers.coords.pixel, np.argwhere(~barriers.grid.walkable).tolist())
    )
    want = arcade.astar_calculate_path((5, 5), (90, 90), theirs, diagonal_movement=True)
    got = barriers.find_path((5, 5), (90, 90))
    assert got is not None and want is not None
    assert (got[0], got[-1], len(got)) == (tuple(want[0]), tuple(want[-1]), len(want))
