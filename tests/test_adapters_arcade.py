"""arcade: walls rasterised once from sprite lists, checked against the per-cell
collision loop of ``arcade.AStarBarrierList`` (written again here on boxes, as arcade
is not installable headless beside this Pillow); paths in arcade pixels (y up)
legal and optimal in cells. Sprites are plain objects of arcade's shape."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from _grids import assert_answer, oracle
from hypothesis import given
from hypothesis import strategies as st

from pathcraft.adapters.arcade import BarrierGrid, sprite_boxes


def sprite(x: float, y: float, w: float, h: float, *, centre: bool = False) -> Any:
    if centre:
        return SimpleNamespace(center_x=x, center_y=y, width=w, height=h)
    return SimpleNamespace(left=x - w / 2, right=x + w / 2, bottom=y - h / 2, top=y + h / 2)


def barrier_loop(boxes: np.ndarray, size: float, left: float, top: float, shape: tuple[int, int],
                 half: tuple[float, float]) -> np.ndarray:  # fmt: skip
    """What AStarBarrierList does: put the moving box at every cell centre, test it."""
    rows, cols = shape
    blocked = np.zeros(shape, dtype=bool)
    for r in range(rows):
        for c in range(cols):
            cx = left + (c + 0.5) * size
            cy = top - (r + 0.5) * size
            for lo_x, hi_x, lo_y, hi_y in boxes:
                if (cx - half[0] < hi_x and cx + half[0] > lo_x and cy - half[1] < hi_y
                        and cy + half[1] > lo_y):  # fmt: skip
                    blocked[r, c] = True
                    break
    return blocked


@given(seed=st.integers(0, 2**32 - 1), mover=st.booleans(), size=st.sampled_from([8, 16, 32]))
def test_the_raster_matches_the_collision_loop(seed: int, mover: bool, size: int) -> None:
    rng = np.random.default_rng(seed)
    left, bottom = float(rng.integers(-100, 100)), float(rng.integers(-100, 100))
    width, height = float(rng.integers(1, 20) * size), float(rng.integers(1, 15) * size)
    walls = [sprite(left + rng.uniform(-20, width + 20), bottom + rng.uniform(-20, height + 20),
                    rng.uniform(1, 3 * size), rng.uniform(1, 3 * size), centre=bool(i % 2))
             for i in range(int(rng.integers(0, 25)))]  # fmt: skip
    # Some walls exactly on cell edges: touching must not block.
    walls.append(SimpleNamespace(left=left + size, right=left + 2 * size, bottom=bottom,
                                 top=bottom + size))  # fmt: skip
    hero = sprite(0, 0, rng.uniform(2, 2 * size), rng.uniform(2, 2 * size)) if mover else None
    barriers = BarrierGrid([walls[:5], walls[5:]], tile_size=size, left=left, right=left + width,
                           bottom=bottom, top=bottom + height, moving_sprite=hero)  # fmt: skip
    rows, cols = barriers.grid.shape
    assert (rows, cols) == (math.ceil(height / size), math.ceil(width / size))
    half = (size / 2, size / 2) if hero is None else ((hero.right - hero.left) / 2,
                                                     (hero.top - hero.bottom) / 2)  # fmt: skip
    want = barrier_loop(sprite_boxes(walls), size, left, bottom + height, (rows, cols), half)
    np.testing.assert_array_equal(~barriers.grid.walkable, want)


def test_paths_in_arcade_pixels_are_legal_and_optimal_in_cells() -> None:
    rng = np.random.default_rng(11)
    walls = [sprite(x, y, 32, 32) for x, y in rng.integers(0, 20, (60, 2)) * 32 + 16]
    barriers = BarrierGrid(walls, tile_size=32, left=0, right=640, bottom=0, top=640)
    grid, tiles = barriers.grid, barriers.coords
    free = np.argwhere(grid.walkable)
    for a, b in free[rng.integers(len(free), size=(25, 2))]:
        start, goal = tiles.pixel(a), tiles.pixel(b)
        points = barriers.find_path(start, goal)
        result = barriers.find_result(start, goal, units="tiles")
        assert barriers.find_result(start, goal).cost == pytest.approx(32 * result.cost)
        want = float(oracle(grid.cost, grid.diagonal, [tuple(a)])[tuple(b)])
        if points is None:
            assert math.isinf(want)
            continue
        assert points[0] == start and points[-1] == goal
        cells = tiles.to_cells(np.array(points))
        from dataclasses import replace

        assert_answer(
            grid.cost, grid.diagonal, replace(result, path=cells), tuple(a), tuple(b), want
        )
        # y up: the start's pixel y is larger the higher (smaller row) the cell is.
        assert start[1] == pytest.approx(640 - (a[0] + 0.5) * 32)


def test_diagonal_movement_off_and_recalculate() -> None:
    barriers = BarrierGrid([], tile_size=10, left=0, right=30, bottom=0, top=30, diagonal="never")
    path = barriers.find_path((5, 5), (25, 25))
    assert path is not None and len(path) == 5
    barriers.recalculate([[sprite(15, 15, 30, 10)]])  # a wall across the middle row
    assert barriers.ascii().splitlines() == ["...", "###", "..."]
    assert barriers.find_path((5, 5), (25, 25)) is None
    assert "3x3 cells of 10 px, 3 blocked" in repr(barriers)


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
    with pytest.raises(ValueError, match=r"start \(35.0, 5.0\) is in cell \(2, 3\), outside"):
        BarrierGrid([], **field).find_path((35, 5), (5, 5))


def test_with_arcade_when_it_is_installed() -> None:
    arcade = pytest.importorskip("arcade")
    walls = arcade.SpriteList()
    wall = arcade.SpriteSolidColor(32, 32, color=arcade.color.BLACK)
    wall.position = (48, 48)
    walls.append(wall)
    barriers = BarrierGrid(walls, tile_size=32, left=0, right=96, bottom=0, top=96)
    assert barriers.ascii().splitlines() == ["...", ".#.", "..."]
