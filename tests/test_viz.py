"""``pathcraft.viz``: the image arrays cell by cell, then the saved PNG and GIF pixels.

The colours are checked against an independent statement of the colour scale (straight
lines between the three anchors, computed here with ``np.interp``), the explored g-costs
against ``Grid.distance_field`` (an A* or Dijkstra search with a consistent heuristic
expands each cell at its true distance), and the files read back with Pillow at the
pixels where matplotlib's own transforms put each cell's centre.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import pathcraft
from pathcraft import Explored, Grid, PathResult

plt = pytest.importorskip("matplotlib.pyplot")
Image = pytest.importorskip("PIL.Image")

from pathcraft.viz import _image, animate_search, compare, plot_search  # noqa: E402
from pathcraft.viz._image import (  # noqa: E402
    GOAL_RGB,
    PATH_RGB,
    SCALE_RGB,
    START_RGB,
    TERRAIN_RGB,
    WALL_RGB,
    layers,
    search_rgba,
)

MAZE = """
..........
.#######..
.#.....#..
.#.###.#..
...#.5.#..
####.#.#..
..99.#....
..........
"""


@pytest.fixture(autouse=True)
def _close_figures() -> Any:
    yield
    plt.close("all")


@pytest.fixture()
def grid() -> Grid:
    return Grid.from_ascii(MAZE)


def expected_scale_rgb(g: npt.ArrayLike, vmax: float) -> npt.NDArray[np.float64]:
    """The colour scale, stated independently: yellow -> orange -> red, linear in g."""
    t = np.clip(np.asarray(g, dtype=float) / vmax, 0, 1) * 2.0
    anchors = np.asarray(SCALE_RGB, dtype=float)
    return np.stack([np.interp(t, [0, 1, 2], anchors[:, k]) for k in range(3)], axis=-1)


def explored_cells(result: PathResult) -> set[tuple[int, int]]:
    assert result.explored is not None
    return {(int(r), int(c)) for r, c in np.asarray(result.explored.nodes)}


def plain_explored(result: PathResult) -> set[tuple[int, int]]:
    """Explored cells not hidden under the path, start or goal."""
    return explored_cells(result) - {(int(r), int(c)) for r, c in result.path}


# ---------------------------------------------------------------- the image array


def test_rgba_colours_every_cell_by_its_role(grid: Grid) -> None:
    result = grid.astar((0, 0), (7, 9), record=True)
    image = search_rgba(grid, result)
    rows, cols = grid.shape
    assert image.shape == (rows, cols, 4) and image.dtype == np.uint8
    assert (image[..., 3] == 255).all()
    rgb = image[..., :3].astype(int)
    walls = ~grid.walkable
    assert (rgb[walls] == WALL_RGB).all()
    path = [tuple(cell) for cell in result.path.tolist()]
    for cell in path[1:-1]:
        assert tuple(rgb[cell]) == PATH_RGB
    assert tuple(rgb[path[0]]) == START_RGB and tuple(rgb[path[-1]]) == GOAL_RGB
    # Explored cells follow the g scale up to the largest g expanded.
    field = grid.distance_field((0, 0))
    assert result.explored is not None
    vmax = float(np.max(result.explored.g))
    for cell in plain_explored(result):
        want = expected_scale_rgb(field[cell], vmax)
        assert np.abs(rgb[cell] - want).max() <= 1.5, (cell, rgb[cell], want)
    # Cells never expanded show their terrain: cost 1 lightest, cost 9 darkest.
    untouched = grid.walkable.copy()
    for cell in explored_cells(result) | set(path):
        untouched[cell] = False
    cost = np.asarray(grid.cost)
    assert (rgb[untouched & (cost == 1.0)] == TERRAIN_RGB[0]).all()
    assert (rgb[untouched & (cost == 9.0)] == TERRAIN_RGB[1]).all()
    five = tuple(rgb[4, 5])
    assert five not in (TERRAIN_RGB[0], TERRAIN_RGB[1])  # cost 5: a grey in between
    assert TERRAIN_RGB[1][0] < five[0] < TERRAIN_RGB[0][0] or (4, 5) in explored_cells(result)


def test_explored_g_is_the_distance_from_the_start_and_the_scale_runs_yellow_to_red() -> None:
    grid = Grid(np.ones((30, 40)))
    result = grid.dijkstra((0, 0), (29, 39), record=True)
    layout = layers(grid, result)
    field = grid.distance_field((0, 0))
    seen = np.isfinite(layout.g)
    assert seen.sum() == len(explored_cells(result))
    np.testing.assert_allclose(layout.g[seen], field[seen])
    rgb = search_rgba(grid, result)[..., :3].astype(int)
    cells = sorted(plain_explored(result), key=lambda cell: field[cell])
    low, high = rgb[cells[0]], rgb[cells[-1]]  # the nearest and the farthest
    assert low[0] > 240 and low[1] > 200  # yellow
    assert high[1] < 40 and high[2] < 20 and high[0] > 170  # red
    # Green falls steadily with g, red never rises.
    by_g = np.array([rgb[cell] for cell in cells])
    assert (np.diff(by_g[:, 1]) <= 0).all() and (np.diff(by_g[:, 0]) <= 0).all()
    assert by_g[0, 1] - by_g[-1, 1] > 200


def test_vmax_sets_the_top_of_the_scale(grid: Grid) -> None:
    result = grid.dijkstra((0, 0), (7, 9), record=True)
    image = search_rgba(grid, result, vmax=2.0)[..., :3].astype(int)
    field = grid.distance_field((0, 0))
    for cell in plain_explored(result):
        if field[cell] >= 2.0:  # at and above the top: red
            assert tuple(image[cell]) == SCALE_RGB[2]
        else:
            assert tuple(image[cell]) != SCALE_RGB[2]


def test_a_reopened_cell_shows_its_first_expansion_and_its_lowest_g() -> None:
    grid = Grid(np.ones((1, 4)))
    explored = Explored(np.array([[0, 0], [0, 2], [0, 1], [0, 2]]), np.array([0.0, 5.0, 1.0, 2.0]))
    result = PathResult(path=np.array([[0, 0], [0, 1], [0, 2]]), cost=2.0, found=True,
                        expanded=4, explored=explored)  # fmt: skip
    layout = layers(grid, result)
    assert layout.order.tolist() == [[0, 2, 1, 4]]
    assert layout.g[0, 2] == 2.0 and math.isinf(layout.g[0, 3])
    assert layout.max_g == 2.0


def test_a_search_without_a_path_marks_its_start_and_any_given_goal() -> None:
    grid = Grid.from_ascii("..#..")
    result = grid.astar((0, 0), (0, 4), record=True)
    assert not result
    rgb = search_rgba(grid, result, goal=(0, 4))[..., :3]
    assert tuple(rgb[0, 0]) == START_RGB and tuple(rgb[0, 4]) == GOAL_RGB
    assert tuple(rgb[0, 2]) == WALL_RGB


# ---------------------------------------------------------------- the saved PNG


def pixel(fig: Any, ax: Any, png: npt.NDArray[np.uint8], row: float, col: float) -> Any:
    """The RGB of the saved picture at the centre of cell (row, col) of ``ax``."""
    x, y = ax.transData.transform((col, row))
    return tuple(int(v) for v in png[int(png.shape[0] - y), int(x), :3])


def save(fig: Any, path: Path) -> npt.NDArray[np.uint8]:
    fig.savefig(path)
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def test_plot_search_png_pixels_show_walls_path_marks_and_the_scale(
    grid: Grid, tmp_path: Path
) -> None:
    result = grid.astar((0, 0), (7, 9), record=True)
    ax = plot_search(grid, result)
    fig = ax.figure
    png = save(fig, tmp_path / "search.png")
    width, height = fig.get_size_inches() * fig.dpi
    assert png.shape[:2] == fig.canvas.get_width_height()[::-1]
    assert png.shape[:2] == pytest.approx((height, width), abs=1)
    assert ax.get_title() == f"cost {result.cost:.2f}, {result.expanded:,} expanded"
    for cell in np.argwhere(~grid.walkable):
        assert pixel(fig, ax, png, *cell) == WALL_RGB
    path = result.path.tolist()
    for r, c in path[1:-1]:
        assert pixel(fig, ax, png, r, c) == PATH_RGB
    assert pixel(fig, ax, png, *path[0]) == START_RGB
    assert pixel(fig, ax, png, *path[-1]) == GOAL_RGB
    image = search_rgba(grid, result)
    for cell in plain_explored(result):
        assert pixel(fig, ax, png, *cell) == tuple(image[cell][:3])
    colorbar = fig.axes[1]
    assert colorbar.get_ylim() == pytest.approx((0.0, float(np.max(result.explored.g))))


def test_plot_search_draws_on_a_given_axes_without_a_recording(grid: Grid) -> None:
    fig, ax = plt.subplots()
    result = grid.astar((0, 0), (7, 9))
    assert plot_search(grid, result, ax, colorbar=False, title="mine") is ax
    assert ax.get_title() == "mine" and len(fig.axes) == 1
    assert "(not recorded)" in plot_search(grid, result, colorbar=False).get_title()


def test_compare_panels_share_one_scale_and_astar_explores_fewer_cells(
    grid: Grid, tmp_path: Path
) -> None:
    fig = compare(grid, (0, 0), (7, 9))
    png = save(fig, tmp_path / "compare.png")
    a_ax, d_ax = fig.axes[:2]
    astar = grid.astar((0, 0), (7, 9), record=True)
    dijkstra = grid.dijkstra((0, 0), (7, 9), record=True)
    assert a_ax.get_title() == f"A*: cost {astar.cost:.2f}, {astar.expanded} expanded"
    assert d_ax.get_title() == f"Dijkstra: cost {dijkstra.cost:.2f}, {dijkstra.expanded} expanded"
    scale = {tuple(rgb) for rgb in _image.PALETTE[_image.SCALE_FIRST : _image.PATH].tolist()}

    def explored_count(ax: Any) -> int:
        rows, cols = grid.shape
        return sum(pixel(fig, ax, png, r, c) in scale for r in range(rows) for c in range(cols))

    assert explored_count(a_ax) == len(plain_explored(astar))
    assert explored_count(d_ax) == len(plain_explored(dijkstra))
    assert explored_count(a_ax) < explored_count(d_ax)
    # One scale: a cell both expanded (at the same g) has the same colour in both panels.
    both = plain_explored(astar) & plain_explored(dijkstra)
    assert both
    for cell in both:
        assert pixel(fig, a_ax, png, *cell) == pixel(fig, d_ax, png, *cell)
    vmax = max(float(np.max(r.explored.g)) for r in (astar, dijkstra))  # type: ignore[union-attr]
    assert fig.axes[2].get_ylim() == pytest.approx((0.0, vmax))


def test_compare_checks_its_algorithms(grid: Grid) -> None:
    assert [ax.get_title()[:2] for ax in compare(grid, (0, 0), (7, 9), "astar").axes] == [
        "A*",
        "",
    ]
    with pytest.raises(ValueError, match="at least one"):
        compare(grid, (0, 0), (7, 9), [])
    with pytest.raises(ValueError, match="algorithm must be one of 'astar', 'dijkstra'"):
        compare(grid, (0, 0), (7, 9), ["astar", "bfs"])
    with pytest.raises(ValueError, match=r"start \(1, 1\) is a wall"):
        compare(grid, (1, 1), (7, 9))


def test_bad_arguments_are_named(grid: Grid, tmp_path: Path) -> None:
    result = grid.astar((0, 0), (7, 9), record=True)
    with pytest.raises(TypeError, match=r"grid must be a pathcraft\.Grid"):
        plot_search(np.ones((3, 3)), result)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"result must be a pathcraft\.PathResult"):
        plot_search(grid, result.path)  # type: ignore[arg-type]
    small = Grid(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"outside the grid of shape \(3, 3\).*another grid"):
        plot_search(small, result)
    with pytest.raises(ValueError, match="vmax must be a finite number > 0"):
        plot_search(grid, result, vmax=math.nan)
    with pytest.raises(TypeError, match="vmax must be a number"):
        plot_search(grid, result, vmax="big")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"goal \(1, 1\) is a wall"):
        plot_search(grid, result, goal=(1, 1))
    with pytest.raises(ValueError, match="record=True"):
        animate_search(grid, grid.astar((0, 0), (7, 9)), tmp_path / "a.gif")
    with pytest.raises(ValueError, match=r"must name a \.gif file"):
        animate_search(grid, result, tmp_path / "a.png")
    with pytest.raises(ValueError, match="frames must be an integer >= 1; got 0"):
        animate_search(grid, result, tmp_path / "a.gif", frames=0)
    with pytest.raises(TypeError, match="size must be an integer"):
        animate_search(grid, result, tmp_path / "a.gif", size=100.5)  # type: ignore[arg-type]
    assert not (tmp_path / "a.gif").exists()


# ---------------------------------------------------------------- the GIF


def gif_frames(path: Path) -> tuple[list[npt.NDArray[np.uint8]], list[int]]:
    frames, durations = [], []
    with Image.open(path) as image:
        for i in range(image.n_frames):
            image.seek(i)
            durations.append(image.info["duration"])
            frames.append(np.asarray(image.convert("RGB")))
    return frames, durations


def test_gif_grows_in_expansion_order_and_ends_on_the_path(grid: Grid, tmp_path: Path) -> None:
    result = grid.dijkstra((0, 0), (7, 9), record=True)
    out = animate_search(grid, result, tmp_path / "grow.gif", frames=6, size=200, final_ms=900)
    assert out == tmp_path / "grow.gif"
    frames, durations = gif_frames(out)
    rows, cols = grid.shape
    scale = 200 // max(rows, cols)  # 20 pixels per cell
    assert len(frames) == 7 and durations == [80] * 6 + [900]
    assert all(f.shape == (rows * scale, cols * scale, 3) for f in frames)

    def at(frame: npt.NDArray[np.uint8], r: int, c: int) -> tuple[int, ...]:
        return tuple(int(v) for v in frame[r * scale + scale // 2, c * scale + scale // 2])

    assert result.explored is not None
    order = [tuple(cell) for cell in result.explored.nodes.tolist()]
    marks = {order[0], (7, 9)}
    field = grid.distance_field((0, 0))
    vmax = float(np.max(result.explored.g))
    for k, frame in enumerate(frames[:-1], start=1):
        shown = set(order[: math.ceil(k * len(order) / 6)]) - marks
        for r in range(rows):
            for c in range(cols):
                colour = at(frame, r, c)
                if (r, c) in shown:
                    want = expected_scale_rgb(field[r, c], vmax)
                    assert np.abs(np.subtract(colour, want)).max() <= 1.5
                elif (r, c) not in marks:
                    assert colour in (WALL_RGB, *_terrain_colours()), (k, r, c)
        assert at(frame, 0, 0) == START_RGB and at(frame, 7, 9) == GOAL_RGB
    last = frames[-1]
    for r, c in result.path.tolist()[1:-1]:
        assert at(last, r, c) == PATH_RGB
    for r, c in np.argwhere(~grid.walkable):
        assert at(last, r, c) == WALL_RGB


def _terrain_colours() -> list[tuple[int, ...]]:
    first = _image.TERRAIN_FIRST
    return [tuple(rgb) for rgb in _image.PALETTE[first : first + _image.TERRAIN_LEVELS].tolist()]


def test_gif_frame_count_is_fixed_however_big_the_search(tmp_path: Path) -> None:
    grid = Grid(np.ones((300, 200)))
    result = grid.dijkstra((0, 0), (299, 199), record=True)
    assert result.expanded == 60_000
    out = animate_search(grid, result, tmp_path / "big.gif", frames=12, size=150)
    frames, _ = gif_frames(out)
    assert len(frames) == 13
    assert frames[0].shape == (150, 100, 3)  # scaled down: half a pixel per cell
    # The path stays visible when cells are smaller than a pixel.
    path_pixels = (frames[-1] == PATH_RGB).all(axis=2)
    assert path_pixels.sum() > 150
    assert not (frames[-2] == PATH_RGB).all(axis=2).any()
    # Growth: every frame shows more explored (non-floor) pixels than the one before.
    floor = (frames[0] == TERRAIN_RGB[0]).all(axis=2)
    counts = [int(((f != TERRAIN_RGB[0]).any(axis=2)).sum()) for f in frames[:-1]]
    assert floor.sum() > 0 and counts == sorted(counts) and len(set(counts)) == 12


def test_a_1024_map_renders_its_whole_search(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    cost = np.where(rng.random((1024, 1024)) < 0.1, np.inf, 1.0)
    cost[:2, :2] = cost[-2:, -2:] = 1.0
    grid = Grid(cost)
    result = grid.dijkstra((0, 0), (1023, 1023), record=True)
    assert result
    image = search_rgba(grid, result)
    assert image.shape == (1024, 1024, 4)
    assert (image[~grid.walkable][:, :3] == WALL_RGB).all()
    ax = plot_search(grid, result)
    png = save(ax.figure, tmp_path / "big.png")
    assert pixel(ax.figure, ax, png, 0, 0) == START_RGB


# ---------------------------------------------------------------- without the extra


@pytest.mark.parametrize(("blocked", "package"), [("matplotlib", "matplotlib"), ("PIL", "Pillow")])
def test_without_the_extra_the_import_error_names_it(
    monkeypatch: pytest.MonkeyPatch, blocked: str, package: str
) -> None:
    for name in [m for m in sys.modules if m == "pathcraft.viz" or m.startswith("pathcraft.viz.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, blocked, None)
    with pytest.raises(ImportError, match=rf"needs {package}.*pip install \"pathcraft\[viz\]\""):
        import pathcraft.viz  # noqa: F401


def test_importing_pathcraft_does_not_import_matplotlib() -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None; sys.modules['PIL'] = None\n"
        "import pathcraft, pathcraft.grid, pathcraft.io, pathcraft.cli\n"
        "print(pathcraft.Grid.from_ascii('..').astar((0, 0), (0, 1)).cost)"
    )
    src = str(Path(pathcraft.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONPATH": src}
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1.0"
