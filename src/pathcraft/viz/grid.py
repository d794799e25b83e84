"""Pictures of grid searches on matplotlib Axes: :func:`plot_search` and :func:`compare`.

Cells are ``(row, col)``. Cell ``(r, c)`` covers the square of data coordinates
``[c - 0.5, c + 0.5] x [r - 0.5, r + 0.5]`` with rows growing downwards, so
``ax.plot(col, row, ...)`` draws on top of cell ``(row, col)``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pathcraft._validation import check_choice
from pathcraft.result import PathResult
from pathcraft.viz._image import (
    GOAL_RGB,
    PATH_RGB,
    START_RGB,
    SearchLayers,
    layers,
    rgba,
    scale_colors,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from pathcraft.grid import Grid

__all__ = ["ALGORITHMS", "compare", "describe", "plot_search"]

#: The grid searches :func:`compare` runs, and their names in titles.
ALGORITHMS: dict[str, str] = {
    "astar": "A*",
    "dijkstra": "Dijkstra",
    "greedy": "Greedy",
    "jps": "JPS",
    "theta": "Theta*",
}

_PANEL_INCHES = 4.8


def describe(result: PathResult) -> str:
    """A one-line summary of a search for a title: its cost and its expansions.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii(".#.")
    >>> describe(grid.astar((0, 0), (0, 0), record=True))
    'cost 0.00, 1 expanded'
    >>> describe(grid.astar((0, 0), (0, 2)))
    'no path (unreachable), 1 expanded (not recorded)'
    """
    if result.found:
        text = f"cost {result.cost:.2f}, {result.expanded:,} expanded"
    else:
        text = f"no path ({result.reason}), {result.expanded:,} expanded"
    if result.explored is None and result.expanded:
        text += " (not recorded)"
    return text


def _color(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0)


def _check_vmax(vmax: Any, default: float) -> float:
    """The g-cost drawn red: ``vmax`` if given (a number > 0), else ``default`` or 1."""
    if vmax is None:
        return default if default > 0 else 1.0
    if isinstance(vmax, bool) or not isinstance(vmax, numbers.Real):
        raise TypeError(f"vmax must be a number > 0 or None; got {vmax!r}")
    value = float(vmax)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"vmax must be a finite number > 0 or None; got {vmax!r}")
    return value


def _panel_size(shape: tuple[int, int]) -> tuple[float, float]:
    """Width and height in inches of one map panel with its title: about the area of a
    4.8-inch square, wider for wide maps and taller for tall ones, within limits."""
    rows, cols = shape
    width = min(max(_PANEL_INCHES * math.sqrt(cols / rows), 3.6), 1.5 * _PANEL_INCHES)
    height = min(max(width * rows / cols, 2.0), 2.0 * _PANEL_INCHES)
    return width, height + 0.6


def _draw(ax: Axes, layout: SearchLayers, vmax: float) -> None:
    """The search image, the path line and the start and goal marks on ``ax``."""
    from matplotlib import patheffects

    rows, cols = layout.terrain.shape
    ax.imshow(
        rgba(layout.codes(vmax, path=False)),  # the path is the line drawn on top
        extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
        interpolation="nearest",
        origin="upper",
        zorder=1,
    )
    if len(layout.path) > 1:
        ax.plot(
            layout.path[:, 1], layout.path[:, 0], color=_color(PATH_RGB), linewidth=1.8,
            solid_capstyle="round", solid_joinstyle="round", zorder=3,
            path_effects=[patheffects.withStroke(linewidth=3.4, foreground="white")],
        )  # fmt: skip
    for cells, rgb, marker in ((layout.start, START_RGB, "o"), (layout.goal, GOAL_RGB, "D")):
        if len(cells):
            ax.plot(
                cells[:, 1], cells[:, 0], linestyle="none", marker=marker, markersize=8,
                color=_color(rgb), markeredgecolor="black", markeredgewidth=0.8, zorder=4,
                clip_on=False,
            )  # fmt: skip
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xlabel("col")
    ax.set_ylabel("row")
    ax.tick_params(labelsize=8)


def _colorbar(fig: Figure, axes: Sequence[Axes], vmax: float) -> None:
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import ListedColormap, Normalize

    scale = ScalarMappable(norm=Normalize(0.0, vmax), cmap=ListedColormap(scale_colors()))
    fig.colorbar(scale, ax=list(axes), label="g: cost from the start", shrink=0.85)


def plot_search(
    grid: Grid,
    result: PathResult,
    ax: Axes | None = None,
    *,
    start: Any = None,
    goal: Any = None,
    vmax: float | None = None,
    title: str | None = None,
    colorbar: bool = True,
) -> Axes:
    """Draw one grid search: walls, terrain, explored cells by g-cost, path, start, goal.

    Walls are dark; other cells are grey by cost, the cheapest lightest. Each cell the
    search expanded is coloured by its g-cost (its cost from the start) from yellow
    (0) to red (``vmax``). The path is drawn in blue on top, the start as a green
    disc and the goal as a magenta diamond.

    Parameters
    ----------
    grid : Grid
        The grid that was searched.
    result : PathResult
        A search of ``grid``; run it with ``record=True`` so that the explored cells
        can be drawn (without a recording only the map and the path are drawn, and the
        title says "not recorded").
    ax : matplotlib Axes or None
        Where to draw; a new figure when None.
    start, goal : (int, int), (k, 2) array or None
        Cells ``(row, col)`` to mark. By default the path's first cell (or the first
        expanded cell when there is no path) and, when the goal was found, its last.
    vmax : float or None
        The g-cost drawn red (pass one value to several plots to share the scale); by
        default the largest g-cost the search expanded.
    title : str or None
        The title; by default the cost and the number of expansions.
    colorbar : bool
        Add a colour bar of the g-cost scale beside ``ax``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. Cell ``(r, c)`` is centred at data point ``(c, r)``.

    Raises
    ------
    TypeError
        ``grid`` is not a Grid or ``result`` not a PathResult; ``vmax`` not a number.
    ValueError
        ``result`` holds cells outside ``grid`` (a result of another grid); a bad
        ``start``/``goal`` cell; ``vmax`` not finite and > 0.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.viz import plot_search
    >>> grid = Grid.from_ascii('''
    ... ......
    ... .####.
    ... ......
    ... ''', diagonal="never")
    >>> ax = plot_search(grid, grid.dijkstra((2, 0), (0, 5), record=True))
    >>> ax.get_title()
    'cost 7.00, 14 expanded'
    >>> plot_search(grid, grid.astar((2, 0), (0, 5)), vmax=-1.0)
    Traceback (most recent call last):
    ...
    ValueError: vmax must be a finite number > 0 or None; got -1.0
    """
    layout = layers(grid, result, start=start, goal=goal)
    top = _check_vmax(vmax, layout.max_g)
    if ax is None:
        import matplotlib.pyplot as plt

        width, height = _panel_size(grid.shape)
        _, ax = plt.subplots(figsize=(width + (1.0 if colorbar else 0.0), height))
    _draw(ax, layout, top)
    ax.set_title(describe(result) if title is None else title, fontsize=10)
    if colorbar:
        _colorbar(ax.figure, [ax], top)  # type: ignore[arg-type]
    return ax


def compare(
    grid: Grid,
    start: Any,
    goal: Any,
    algorithm: str | Sequence[str] = ("astar", "dijkstra"),
    *,
    colorbar: bool = True,
    dpi: float = 100.0,
) -> Figure:
    """Run several searches of one query and draw them side by side on one colour scale.

    Parameters
    ----------
    grid : Grid
        The grid to search.
    start, goal : (int, int)
        The query's cells, ``(row, col)``.
    algorithm : str or sequence of {"astar", "dijkstra", "greedy", "jps"}
        The search, or the searches, one panel each, left to right (the grid's
        default heuristic; ``"jps"`` draws the jump points it expanded).
    colorbar : bool
        Add one colour bar of the shared g-cost scale.
    dpi : float
        The figure's resolution in dots per inch.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per search, in order (``fig.axes[:len(algorithm)]``), each titled
        with the search's name, the path cost and the number of expansions. Every
        panel colours g-costs on the same scale, up to the largest g any search
        expanded.

    Raises
    ------
    ValueError
        An empty or unknown ``algorithm`` entry; a bad ``start`` or ``goal``.

    Examples
    --------
    >>> from pathcraft.io import bundled_map, read_map
    >>> from pathcraft.viz import compare
    >>> grid = read_map(bundled_map())
    >>> fig = compare(grid, (55, 182), (207, 254))
    >>> [ax.get_title() for ax in fig.axes[:2]]
    ['A*: cost 201.20, 4,202 expanded', 'Dijkstra: cost 201.20, 23,898 expanded']
    >>> compare(grid, (55, 182), (207, 254), ["astar", "bfs"])
    Traceback (most recent call last):
    ...
    ValueError: algorithm must be one of 'astar', 'dijkstra', 'greedy', 'jps', 'theta'; got 'bfs'
    """
    import matplotlib.pyplot as plt

    names = [algorithm] if isinstance(algorithm, str) else list(algorithm)
    if not names:
        raise ValueError("algorithm must name at least one search; got none")
    for name in names:
        check_choice("algorithm", name, tuple(ALGORITHMS))
    results = [getattr(grid, name)(start, goal, record=True) for name in names]
    layouts = [layers(grid, result) for result in results]
    top = _check_vmax(None, max(layout.max_g for layout in layouts))
    width, height = _panel_size(grid.shape)
    fig, axes = plt.subplots(
        1, len(names), figsize=(width * len(names) + (1.0 if colorbar else 0.0), height),
        squeeze=False, dpi=dpi, layout="constrained",
    )  # fmt: skip
    row = list(axes[0])
    for ax, name, result, layout in zip(row, names, results, layouts, strict=True):
        _draw(ax, layout, top)
        ax.set_title(f"{ALGORITHMS[name]}: {describe(result)}", fontsize=10)
    if colorbar:
        _colorbar(fig, row, top)
    return fig
