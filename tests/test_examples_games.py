"""The game examples: the pygame game on the bundled Tiled level runs headless for
hundreds of frames, every drawn position on a walkable cell, the enemies catching
the player; the arcade example's planning runs on sprites of arcade's shape."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str) -> dict:
    return runpy.run_path(str(EXAMPLES / name), run_name="example")


def test_the_tiled_game_runs_headless_and_the_enemies_catch_the_player(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    pytest.importorskip("pytiled_parser")
    shot = tmp_path / "shot.png"
    out = load("tiled_game.py")["main"](frames=300, headless=True, screenshot=str(shot))
    assert out["frames"] == 300
    assert out["caught"] is not None and out["caught"] <= 300
    assert out["searches"] >= 2
    grid, tiles = out["grid"], out["tiles"]
    player = np.array(out["player"])
    enemies = np.concatenate(out["enemies"])
    for where in (player, enemies):
        cells = tiles.to_cells(where)
        assert grid.walkable[cells[:, 0], cells[:, 1]].all()
    assert np.abs(np.diff(player, axis=0)).max() > 0  # the player moved
    assert shot.stat().st_size > 1000
    # The level's crates, rock and pillar straddle tiles: the centre rule would leave
    # cells of theirs open; no one drawn ever stands inside one of them.
    shapely = pytest.importorskip("shapely")
    from pathcraft.io.tiled import bundled_level, read_tiled

    level = read_tiled(bundled_level())
    assert (grid.walkable != level.grid(obstacles="obstacles", cover="center").walkable).any()
    solid = shapely.union_all(level.obstacles("obstacles"))
    for where in (player, enemies):
        assert not shapely.contains_xy(solid, where[:, 0], where[:, 1]).any()


def test_the_arcade_example_plans_on_sprites_of_arcades_shape() -> None:
    plan = load("arcade_chase.py")["plan"]
    walls = [SimpleNamespace(center_x=x * 32 + 16, center_y=64 + 16, width=32, height=32)
             for x in range(1, 9)]  # fmt: skip
    enemy = SimpleNamespace(center_x=16.0, center_y=16.0, width=24, height=24)
    barriers, path = plan([walls], enemy, (16.0, 300.0), width=320, height=320)
    assert path is not None and path[0] == (0, 0) and path[-1] == (0, 288)  # arcade's nodes
    cells = barriers.coords.to_cells(np.array(path))
    assert barriers.grid.walkable[cells[:, 0], cells[:, 1]].all()
