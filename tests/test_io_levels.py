"""Levels in other tools' conventions: tcod / python-pathfinding arrays (0 is a wall)
and levels painted as images, each one call, checked against the same level built
by hand and against the peers' own answers where they are installed."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pathcraft import Grid
from pathcraft.io import grid_from_zero_walls, read_image

Image = pytest.importorskip("PIL.Image")


def test_zero_is_a_wall_and_positive_values_are_costs() -> None:
    values = np.array([[1, 0, 2], [1, -1, 5], [3, 1, 1]])
    grid = grid_from_zero_walls(values, diagonal="never")
    want = np.where(values <= 0, np.inf, values.astype(float))
    np.testing.assert_array_equal(grid.cost, want)
    np.testing.assert_array_equal(values, [[1, 0, 2], [1, -1, 5], [3, 1, 1]])  # untouched
    assert grid.diagonal == "never"
    assert grid_from_zero_walls([[0.5, 0.0]]).cost.tolist() == [[0.5, math.inf]]


def test_the_same_costs_as_tcod_on_a_random_level() -> None:
    tcod = pytest.importorskip("tcod")
    rng = np.random.default_rng(4)
    values = rng.integers(1, 6, (40, 40))
    values[rng.random(values.shape) < 0.3] = 0
    values[0, 0] = values[-1, -1] = 1
    grid = grid_from_zero_walls(values, diagonal="never")
    graph = tcod.path.SimpleGraph(cost=values.astype(np.int32), cardinal=1, diagonal=0)
    finder = tcod.path.Pathfinder(graph)
    finder.add_root((0, 0))
    path = finder.path_to((39, 39))
    result = grid.astar((0, 0), (39, 39))
    if len(path) <= 1:
        assert not result
    else:
        theirs = float(values[tuple(np.asarray(path)[1:].T)].sum())
        assert result.cost == pytest.approx(theirs)


def test_zero_wall_bad_input() -> None:
    with pytest.raises(TypeError, match=r"got a boolean array: use Grid\.from_walkable"):
        grid_from_zero_walls(np.array([[True, False]]))
    with pytest.raises(TypeError, match="values must be an integer or float array"):
        grid_from_zero_walls(np.array([["a"]]))
    with pytest.raises(ValueError, match=r"values must be finite .* got nan at cell \(0, 1\)"):
        grid_from_zero_walls([[1.0, math.nan]])
    with pytest.raises(ValueError, match="non-empty 2-D array"):
        grid_from_zero_walls([1, 0, 1])


@pytest.fixture
def painted(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """A 12x9 level painted in four colours, and the costs it stands for."""
    rng = np.random.default_rng(5)
    palette = np.array([(255, 255, 255), (0, 0, 0), (0, 128, 0), (90, 60, 20)], dtype=np.uint8)
    costs = np.array([1.0, np.inf, 2.0, 5.0])
    kinds = rng.integers(0, 4, (9, 12))
    path = tmp_path / "level.png"
    Image.fromarray(palette[kinds]).save(path)
    return path, costs[kinds]


def test_a_colour_table_picks_walls_and_costs(painted: tuple[Path, np.ndarray]) -> None:
    path, want = painted
    table = {"#ffffff": 1, (0, 0, 0): math.inf, "#008000": 2.0, (90, 60, 20): 5}
    grid = read_image(path, colors=table, diagonal="always")
    np.testing.assert_array_equal(grid.cost, want)
    assert grid.shape == (9, 12) and grid.diagonal == "always"


def test_a_threshold_picks_walls_by_brightness(painted: tuple[Path, np.ndarray]) -> None:
    path, want = painted
    rgb = np.asarray(Image.open(path).convert("RGB"), dtype=float)
    bright = rgb @ [0.299, 0.587, 0.114]
    np.testing.assert_array_equal(read_image(path).walkable, bright >= 128)
    np.testing.assert_array_equal(read_image(path, threshold=60).walkable, bright >= 60)
    np.testing.assert_array_equal(
        read_image(path, threshold=60, dark_is_wall=False).walkable, bright < 60
    )
    assert np.isinf(want[~read_image(path, threshold=1).walkable]).all()  # black only


def test_an_image_with_transparency_is_read_by_colour(tmp_path: Path) -> None:
    path = tmp_path / "rgba.png"
    Image.fromarray(np.array([[[0, 0, 0, 0], [255, 255, 255, 255]]], dtype=np.uint8)).save(path)
    assert read_image(path).cost.tolist() == [[math.inf, 1.0]]


def test_image_bad_input(painted: tuple[Path, np.ndarray], tmp_path: Path) -> None:
    path, _ = painted
    with pytest.raises(ValueError, match=r"level\.png: pixel \(x=\d+, y=\d+\) has colour "
                       r"#[0-9a-f]{6}, which is not in colors \(#ffffff\)"):  # fmt: skip
        read_image(path, colors={"#ffffff": 1.0})
    with pytest.raises(ValueError, match="give colors or threshold, not both"):
        read_image(path, colors={"#ffffff": 1.0}, threshold=3)
    with pytest.raises(ValueError, match="colours must be '#rrggbb' or"):
        read_image(path, colors={"white": 1.0})
    with pytest.raises(ValueError, match=r"colors\['#000000'\] must be a cost > 0 or inf"):
        read_image(path, colors={"#000000": 0})
    with pytest.raises(ValueError, match="threshold must be between 0 and 255"):
        read_image(path, threshold=300)
    broken = tmp_path / "broken.png"
    broken.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ValueError, match=r"broken\.png: not an image Pillow can read"):
        read_image(broken)
    with pytest.raises(FileNotFoundError):
        read_image(tmp_path / "missing.png")


def test_an_image_level_is_the_grid_a_user_would_build_by_hand(
    painted: tuple[Path, np.ndarray],
) -> None:
    path, want = painted
    grid = read_image(path, colors={"#ffffff": 1, "#000000": np.inf, "#008000": 2, "#5a3c14": 5})
    by_hand = Grid(want)
    free = np.argwhere(by_hand.walkable)
    a, b = tuple(free[0]), tuple(free[-1])
    assert grid.astar(a, b).cost == by_hand.astar(a, b).cost
