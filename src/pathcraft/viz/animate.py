"""A GIF of a grid search: the explored region growing in expansion order, then the path.

Frames are built as arrays of palette codes (:mod:`pathcraft.viz._image`) and written
by Pillow with that one palette, so every frame shows exactly the colours of
:func:`~pathcraft.viz.plot_search` and the work per frame does not depend on how many
cells the search expanded.
"""

from __future__ import annotations

import math
import numbers
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult
from pathcraft.viz._image import GOAL, PALETTE, PATH, START, WALL, SearchLayers, layers

if TYPE_CHECKING:
    from PIL import Image

    from pathcraft.grid import Grid

__all__ = ["animate_search"]


def _check_int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer >= {low}; got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    return int(value)


def cell_scale(shape: tuple[int, int], size: int) -> float:
    """Pixels per cell so the longer side fits in ``size`` pixels: a whole number of
    pixels when cells are at least one pixel, a fraction when the map is larger.

    Examples
    --------
    >>> cell_scale((209, 281), 600), cell_scale((1024, 1024), 512)
    (2.0, 0.5)
    """
    scale = size / max(shape)
    return float(math.floor(scale)) if scale >= 1 else scale


def _resample(codes: npt.NDArray[np.uint8], scale: float) -> npt.NDArray[np.uint8]:
    """Nearest-neighbour scaling of a code image by ``scale`` pixels per cell."""
    rows, cols = codes.shape
    height, width = max(1, round(rows * scale)), max(1, round(cols * scale))
    r = np.minimum(((np.arange(height) + 0.5) / scale).astype(np.intp), rows - 1)
    c = np.minimum(((np.arange(width) + 0.5) / scale).astype(np.intp), cols - 1)
    scaled: npt.NDArray[np.uint8] = codes[r[:, None], c[None, :]]
    return scaled


def frame_limits(layout: SearchLayers, count: int) -> list[int]:
    """How many expansions each of ``count`` growth frames shows: frame ``k`` shows the
    first ``ceil(k * m / count)`` distinct cells of the ``m`` the search expanded.

    Counting distinct cells, not expansions, keeps the growth even when a search
    expands some cells again (reopened at a lower cost).
    """
    firsts = np.sort(layout.order[layout.order < layout.expansions], axis=None)
    m = len(firsts)
    if not m:
        return [0] * count
    return [int(firsts[math.ceil(k * m / count) - 1]) + 1 for k in range(1, count + 1)]


def _centre(cells: npt.NDArray[np.intp], scale: float) -> list[tuple[float, float]]:
    """Pixel ``(x, y)`` of the centres of ``(row, col)`` cells."""
    return [((c + 0.5) * scale, (r + 0.5) * scale) for r, c in cells.tolist()]


def _frame(
    layout: SearchLayers, vmax: float, scale: float, upto: int | None, *, path: bool
) -> Image.Image:
    from PIL import Image, ImageDraw

    codes = np.ascontiguousarray(_resample(layout.codes(vmax, upto=upto, path=path), scale))
    image = Image.frombytes("P", (codes.shape[1], codes.shape[0]), codes.tobytes())
    image.putpalette(PALETTE.tobytes())
    draw = ImageDraw.Draw(image)
    if path and len(layout.path) > 1:
        width = max(3, int(scale // 2))
        draw.line(_centre(layout.path, scale), fill=PATH, width=width, joint="curve")
    radius = max(5.0, 0.6 * scale)
    for x, y in _centre(layout.start, scale):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=START, outline=WALL)
    for x, y in _centre(layout.goal, scale):
        diamond = [(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)]
        draw.polygon(diamond, fill=GOAL, outline=WALL)
    return image


def animate_search(
    grid: Grid,
    result: PathResult,
    path_to_gif: str | os.PathLike[str],
    *,
    frames: int = 48,
    frame_ms: int = 80,
    final_ms: int = 2500,
    size: int = 600,
    start: Any = None,
    goal: Any = None,
) -> Path:
    """Write a GIF of a grid search growing in expansion order, ending on the path.

    Frame ``k`` of ``frames`` shows the first ``ceil(k * m / frames)`` of the ``m``
    cells the search expanded, in expansion order, coloured by g-cost as in
    :func:`~pathcraft.viz.plot_search` (one scale for the whole GIF); a last frame
    adds the path and is held for ``final_ms``. The frame count does not grow with
    the search: a GIF has ``frames + 1`` frames (fewer only for a search of fewer
    than ``frames`` cells, whose identical consecutive frames Pillow merges).

    Parameters
    ----------
    grid : Grid
        The grid that was searched.
    result : PathResult
        A search of ``grid`` run with ``record=True``.
    path_to_gif : str or os.PathLike
        The file to write; its name must end in ``.gif``.
    frames : int
        How many frames show the growth (>= 1).
    frame_ms, final_ms : int
        How long each growth frame and the last frame show, in milliseconds (>= 10).
    size : int
        The longer side of the picture in pixels (>= 16). Cells are a whole number of
        pixels wide when the map fits; a larger map is scaled down (nearest cell), and
        its path, start and goal are drawn wide enough to see.
    start, goal : (int, int), (k, 2) array or None
        Cells ``(row, col)`` to mark, as in :func:`~pathcraft.viz.plot_search`.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        ``result.explored`` is None (the search ran without ``record=True``); a name
        not ending in ``.gif``; a bad option or cell.
    TypeError
        A wrong kind of argument.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from PIL import Image
    >>> from pathcraft import Grid
    >>> from pathcraft.viz import animate_search
    >>> grid = Grid.from_ascii('''
    ... ..........
    ... ..######..
    ... ..........
    ... ''')
    >>> result = grid.dijkstra((2, 0), (0, 9), record=True)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     gif = animate_search(grid, result, Path(tmp) / "search.gif", frames=10, size=100)
    ...     with Image.open(gif) as image:
    ...         image.size, image.n_frames
    ((100, 30), 11)
    >>> animate_search(grid, grid.astar((2, 0), (0, 9)), "search.gif")
    Traceback (most recent call last):
    ...
    ValueError: result.explored is None: run the search with record=True to animate it
    """
    layout = layers(grid, result, start=start, goal=goal)
    if result.explored is None:
        raise ValueError("result.explored is None: run the search with record=True to animate it")
    if not isinstance(path_to_gif, str | os.PathLike):
        raise TypeError(f"path_to_gif must be a str or os.PathLike; got {path_to_gif!r}")
    target = Path(path_to_gif)
    if target.suffix.lower() != ".gif":
        raise ValueError(f"path_to_gif must name a .gif file; got {str(target)!r}")
    count = _check_int("frames", frames, 1)
    durations = [_check_int("frame_ms", frame_ms, 10)] * count
    durations.append(_check_int("final_ms", final_ms, 10))
    scale = cell_scale(grid.shape, _check_int("size", size, 16))
    vmax = layout.max_g if layout.max_g > 0 else 1.0
    images = [_frame(layout, vmax, scale, upto, path=False) for upto in frame_limits(layout, count)]
    images.append(_frame(layout, vmax, scale, None, path=True))
    images[0].save(
        target, save_all=True, append_images=images[1:], duration=durations, loop=0,
        optimize=False,
    )  # fmt: skip
    return target
