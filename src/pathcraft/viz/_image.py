"""The image of a grid search as NumPy arrays: one palette code per cell, then RGBA.

No plotting library here: :func:`search_rgba` is what :func:`~pathcraft.viz.plot_search`
shows, and :meth:`SearchLayers.codes` is what each GIF frame holds, so both pictures use
the same colours and tests can check them cell by cell.

Every cell gets one code of :data:`PALETTE` (256 colours, so a GIF frame stores codes as
they are):

- ``WALL``; terrain in :data:`TERRAIN_LEVELS` greys, the cheapest cell lightest;
- explored cells in :data:`SCALE_LEVELS` steps from yellow (g = 0) to red
  (g >= ``vmax``), where g is the cell's cost from the start when it was expanded;
- ``PATH``, ``START`` and ``GOAL`` on top.

Cells are ``(row, col)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from pathcraft.grid import Grid

__all__ = [
    "GOAL",
    "PALETTE",
    "PATH",
    "SCALE_FIRST",
    "SCALE_LEVELS",
    "START",
    "TERRAIN_FIRST",
    "TERRAIN_LEVELS",
    "WALL",
    "SearchLayers",
    "scale_codes",
    "scale_colors",
    "search_rgba",
]

Codes = npt.NDArray[np.uint8]

# Palette codes.
BACKGROUND = 0
WALL = 1
TERRAIN_FIRST = 2
TERRAIN_LEVELS = 24
SCALE_FIRST = TERRAIN_FIRST + TERRAIN_LEVELS
SCALE_LEVELS = 224
PATH = SCALE_FIRST + SCALE_LEVELS
START = PATH + 1
GOAL = PATH + 2

# Colours, 0-255 RGB.
BACKGROUND_RGB = (255, 255, 255)
WALL_RGB = (40, 42, 54)
TERRAIN_RGB = ((246, 246, 240), (140, 140, 136))  # cheapest, dearest
SCALE_RGB = ((255, 240, 70), (255, 150, 0), (185, 0, 0))  # g = 0, vmax / 2, vmax
PATH_RGB = (20, 90, 255)
START_RGB = (0, 170, 70)
GOAL_RGB = (230, 0, 230)


def _ramp(anchors: Sequence[tuple[int, int, int]], levels: int) -> npt.NDArray[np.uint8]:
    """``levels`` colours evenly spaced along straight lines between the anchors."""
    t = np.linspace(0.0, len(anchors) - 1.0, levels)
    points = np.arange(len(anchors), dtype=np.float64)
    channels = np.asarray(anchors, dtype=np.float64)
    ramp = [np.interp(t, points, channels[:, k]) for k in range(3)]
    return np.rint(np.stack(ramp, axis=1)).astype(np.uint8)


def _palette() -> npt.NDArray[np.uint8]:
    palette = np.zeros((256, 3), dtype=np.uint8)
    palette[:] = BACKGROUND_RGB
    palette[WALL] = WALL_RGB
    palette[TERRAIN_FIRST : TERRAIN_FIRST + TERRAIN_LEVELS] = _ramp(TERRAIN_RGB, TERRAIN_LEVELS)
    palette[SCALE_FIRST : SCALE_FIRST + SCALE_LEVELS] = _ramp(SCALE_RGB, SCALE_LEVELS)
    palette[PATH] = PATH_RGB
    palette[START] = START_RGB
    palette[GOAL] = GOAL_RGB
    palette.flags.writeable = False
    return palette


#: The 256 RGB colours of the codes, shape ``(256, 3)``, uint8.
PALETTE = _palette()
_PALETTE_RGBA = np.concatenate([PALETTE, np.full((256, 1), 255, dtype=np.uint8)], axis=1)


def scale_colors() -> npt.NDArray[np.float64]:
    """The g-cost colour scale from low to high as ``(SCALE_LEVELS, 3)`` floats in [0, 1]."""
    return PALETTE[SCALE_FIRST : SCALE_FIRST + SCALE_LEVELS] / 255.0


def scale_codes(g: npt.ArrayLike, vmax: float) -> Codes:
    """The palette codes of g-costs on the scale from 0 (yellow) to ``vmax`` (red).

    Costs above ``vmax`` take the top colour.

    Examples
    --------
    >>> scale_codes([0.0, 5.0, 10.0, 20.0], 10.0).tolist() == [
    ...     SCALE_FIRST, SCALE_FIRST + 112, SCALE_FIRST + 223, SCALE_FIRST + 223]
    True
    """
    values = np.asarray(g, dtype=np.float64)
    if not vmax > 0:
        return np.full(values.shape, SCALE_FIRST, dtype=np.uint8)
    level = np.rint(np.clip(values / vmax, 0.0, 1.0) * (SCALE_LEVELS - 1))
    return (SCALE_FIRST + level).astype(np.uint8)


def terrain_codes(cost: npt.NDArray[np.float64]) -> Codes:
    """Walls, and greys from the cheapest finite cost (light) to the dearest (dark)."""
    finite = np.isfinite(cost)
    codes = np.full(cost.shape, WALL, dtype=np.uint8)
    if finite.any():
        values = cost[finite]
        low, high = float(values.min()), float(values.max())
        span = high - low
        level = np.zeros(values.shape) if span == 0 else (values - low) / span
        codes[finite] = TERRAIN_FIRST + np.rint(level * (TERRAIN_LEVELS - 1)).astype(np.uint8)
    return codes


@dataclass(frozen=True)
class SearchLayers:
    """What a picture of one search shows, per cell, ready to render at any stage.

    Attributes
    ----------
    terrain : ndarray of uint8, shape (rows, cols)
        The codes of walls and terrain.
    order : ndarray of int64, shape (rows, cols)
        The expansion number (0 for the first expanded cell) at which each cell was
        first expanded; ``expansions`` for cells never expanded.
    g : ndarray of float64, shape (rows, cols)
        The smallest g-cost each cell was expanded with; ``inf`` if never expanded.
    expansions : int
        How many expansions were recorded (a cell reopened counts each time).
    path : ndarray of intp, shape (n, 2)
        The path's cells, ``(row, col)``.
    start, goal : ndarray of intp, shape (k, 2)
        The cells to mark as start and goal (none, one, or several for Dijkstra).
    """

    terrain: Codes
    order: npt.NDArray[np.int64]
    g: npt.NDArray[np.float64]
    expansions: int
    path: npt.NDArray[np.intp]
    start: npt.NDArray[np.intp]
    goal: npt.NDArray[np.intp]

    @property
    def max_g(self) -> float:
        """The largest g-cost of an expanded cell (0 when nothing was recorded)."""
        seen = self.g[np.isfinite(self.g)]
        return float(seen.max()) if seen.size else 0.0

    def codes(self, vmax: float, *, upto: int | None = None, path: bool = True) -> Codes:
        """The palette code of every cell.

        Parameters
        ----------
        vmax : float
            The g-cost drawn in the top (red) colour.
        upto : int or None
            Show only the first ``upto`` expansions (all when None).
        path : bool
            Draw the path (start and goal are always marked).
        """
        limit = self.expansions if upto is None else upto
        shown = self.order < limit
        codes: Codes = self.terrain.copy()
        codes[shown] = scale_codes(self.g[shown], vmax)
        if path and len(self.path):
            codes[self.path[:, 0], self.path[:, 1]] = PATH
        codes[self.start[:, 0], self.start[:, 1]] = START
        codes[self.goal[:, 0], self.goal[:, 1]] = GOAL
        return codes


def _cells_in(grid: Grid, name: str, cells: Any) -> npt.NDArray[np.intp]:
    """``cells`` as a ``(n, 2)`` intp array, each inside ``grid`` (walls allowed)."""
    arr = np.asarray(cells)
    if arr.size == 0:
        return np.empty((0, 2), dtype=np.intp)
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            f"{name} must be an (n, 2) integer array of (row, col) cells; got shape "
            f"{arr.shape} and dtype {arr.dtype}: is this the result of a grid search?"
        )
    rows, cols = grid.shape
    outside = (arr[:, 0] < 0) | (arr[:, 0] >= rows) | (arr[:, 1] < 0) | (arr[:, 1] >= cols)
    if outside.any():
        cell = tuple(int(x) for x in arr[np.argmax(outside)])
        raise ValueError(
            f"{name} holds cell {cell}, outside the grid of shape {(rows, cols)}: "
            "was the result computed on another grid?"
        )
    return arr.astype(np.intp, copy=False)


def _marks(grid: Grid, name: str, cells: Any) -> npt.NDArray[np.intp]:
    """Checked start or goal cells: None, one ``(row, col)`` or a ``(k, 2)`` array."""
    if cells is None:
        return np.empty((0, 2), dtype=np.intp)
    return grid.check_cells(cells, name=name)  # checked: inside and walkable


def layers(grid: Grid, result: PathResult, *, start: Any = None, goal: Any = None) -> SearchLayers:
    """Check ``grid`` and ``result`` and lay out what a picture of the search shows.

    ``start`` and ``goal`` default to the path's ends (the goal only when it was
    found) and to the first expanded cell for the start of a search with no path.
    """
    if kind_of(grid) != "grid":
        raise TypeError(f"grid must be a pathcraft.Grid; got {type(grid).__name__}")
    if not isinstance(result, PathResult):
        raise TypeError(f"result must be a pathcraft.PathResult; got {type(result).__name__}")
    rows, cols = grid.shape
    path = _cells_in(grid, "result.path", result.path)
    order = np.full(rows * cols, np.iinfo(np.int64).max, dtype=np.int64)
    g = np.full(rows * cols, np.inf)
    expansions = 0
    nodes = np.empty((0, 2), dtype=np.intp)
    if result.explored is not None:
        nodes = _cells_in(grid, "result.explored.nodes", result.explored.nodes)
        costs = np.asarray(result.explored.g, dtype=np.float64)
        if costs.shape != (len(nodes),):
            raise ValueError(
                f"result.explored.g must hold one cost per explored cell ({len(nodes)}); "
                f"got shape {costs.shape}"
            )
        expansions = len(nodes)
        flat = nodes[:, 0] * cols + nodes[:, 1]
        np.minimum.at(order, flat, np.arange(expansions, dtype=np.int64))
        np.minimum.at(g, flat, costs)
    order[order == np.iinfo(np.int64).max] = expansions
    starts = _marks(grid, "start", start)
    goals = _marks(grid, "goal", goal)
    if start is None:
        if len(path):
            starts = path[:1]
        elif expansions:
            starts = nodes[:1]
    if goal is None and result.found and len(path):
        goals = path[-1:]
    return SearchLayers(
        terrain=terrain_codes(np.asarray(grid.cost)),
        order=order.reshape(rows, cols),
        g=g.reshape(rows, cols),
        expansions=expansions,
        path=path,
        start=starts,
        goal=goals,
    )


def rgba(codes: Codes) -> npt.NDArray[np.uint8]:
    """The ``(rows, cols, 4)`` uint8 RGBA image of palette codes."""
    image: npt.NDArray[np.uint8] = _PALETTE_RGBA[codes]
    return image


def search_rgba(
    grid: Grid,
    result: PathResult,
    *,
    vmax: float | None = None,
    start: Any = None,
    goal: Any = None,
) -> npt.NDArray[np.uint8]:
    """The ``(rows, cols, 4)`` uint8 RGBA image of a search, one pixel per cell.

    ``vmax`` is the g-cost drawn red; by default the largest g the search expanded.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii("..#.")
    >>> result = grid.astar((0, 0), (0, 1), record=True)
    >>> image = search_rgba(grid, result)
    >>> image.shape, image[0, 2, :3].tolist() == list(WALL_RGB)
    ((1, 4, 4), True)
    """
    layout = layers(grid, result, start=start, goal=goal)
    return rgba(layout.codes(layout.max_g if vmax is None else vmax))
