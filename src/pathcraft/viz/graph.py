"""Pictures of graphs in continuous ``(x, y)`` space: :func:`plot_graph`.

A :class:`~pathcraft.Graph` with node coordinates or a
:class:`~pathcraft.WaypointGraph` is drawn with ``y`` growing upwards: obstacles
(waypoint graphs) dark, edges or links thin and grey, nodes as small dots, the nodes a
recorded search expanded coloured by their g-cost on the grid pictures' yellow-to-red
scale, and the path in the grid pictures' blue with the start and goal marked. Only
``x`` and ``y`` are drawn for 3-D coordinates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult
from pathcraft.viz._image import (
    GOAL_RGB,
    PALETTE,
    PATH_RGB,
    START_RGB,
    WALL_RGB,
    scale_codes,
)
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from pathcraft.graph import Graph
    from pathcraft.waypoints import WaypointGraph

__all__ = ["EDGE_RGB", "NODE_RGB", "plot_graph"]

#: The colour of edges and links, and of nodes a search did not expand.
EDGE_RGB = (170, 176, 190)
NODE_RGB = (90, 96, 110)


def _color(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0)


def _world(world: Any) -> tuple[Any, npt.NDArray[np.float64], npt.NDArray[np.intp], list[Any]]:
    """The graph searched, node ``(x, y)``, edges as ``(k, 2)`` node pairs, obstacles."""
    kind = kind_of(world)
    if kind == "graph":
        if world.coords is None:
            raise ValueError(
                "plot_graph needs node coordinates (x, y); this graph has none: build it "
                "with coords="
            )
        src, dst, _ = world.edges
        return world, world.coords[:, :2], np.column_stack((src, dst)), []
    if kind == "waypoints":
        return world.graph, world.points[:, :2], world.links, list(world.obstacles.values())
    raise TypeError(f"plot_graph draws a Graph or a WaypointGraph; got {type(world).__name__}")


def _path_xy(graph: Graph, result: PathResult, xy: npt.NDArray[np.float64]) -> Any:
    """The path as ``(n, 2)`` positions: a waypoint path already is one; a graph path
    is a list of node labels."""
    return _positions(graph, result.path, xy, "a path through")


def _positions(graph: Graph, nodes: Any, xy: npt.NDArray[np.float64], what: str) -> Any:
    """``nodes`` (a path, or a recording's expansions) as ``(n, 2)`` positions: a
    waypoint graph's are positions already (a float array); a graph's are labels."""
    if isinstance(nodes, np.ndarray) and nodes.dtype.kind == "f":
        return np.asarray(nodes, dtype=np.float64).reshape(len(nodes), -1)[:, :2]
    return xy[_indices(graph, nodes, what)].reshape(-1, 2)


def _indices(graph: Graph, nodes: Any, what: str) -> list[int]:
    """The indices of ``nodes`` (labels), or a ValueError for a result of another graph."""
    try:
        return [graph.index(node) for node in nodes]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"result holds {what} nodes this graph lacks: {exc}") from exc


def _draw_obstacles(ax: Axes, obstacles: list[Any]) -> int:
    """Fill every polygon (holes left open) and draw other geometry as lines; returns
    how many patches were added."""
    import shapely
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    added = 0
    for geometry in obstacles:
        for part in shapely.get_parts(geometry):
            if isinstance(part, shapely.Polygon):
                rings = [part.exterior, *part.interiors]
                vertices = np.concatenate([np.asarray(r.coords)[:, :2] for r in rings])
                codes = np.concatenate(
                    [
                        [Path.MOVETO] + [Path.LINETO] * (len(r.coords) - 2) + [Path.CLOSEPOLY]
                        for r in rings
                    ]
                )
                patch = PathPatch(
                    Path(vertices, codes), facecolor=_color(WALL_RGB), edgecolor="none", zorder=1
                )
                ax.add_patch(patch)
                added += 1
            else:
                coords = np.asarray(shapely.get_coordinates(part))
                ax.plot(coords[:, 0], coords[:, 1], color=_color(WALL_RGB), linewidth=2, zorder=1)
    return added


def plot_graph(
    world: Graph | WaypointGraph,
    result: PathResult | None = None,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    edges: bool = True,
) -> Axes:
    """Draw a graph in ``(x, y)`` space and, optionally, a search on it.

    Parameters
    ----------
    world : Graph or WaypointGraph
        A :class:`~pathcraft.Graph` with node coordinates, or a
        :class:`~pathcraft.WaypointGraph` (its obstacles, waypoints and links).
    result : PathResult or None
        A search of ``world``: a graph search (``graph.astar(...)``; with
        ``record=True`` its expanded nodes are coloured by g-cost) or a waypoint
        ``find_path``. Its path is drawn on top, start and goal marked.
    ax : matplotlib Axes or None
        Where to draw; a new figure when None.
    title : str or None
        The title; by default the result's cost and expansions (nothing without one).
    edges : bool
        Draw the edges or links (thin grey lines).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, in data coordinates ``(x, y)``, aspect equal.

    Raises
    ------
    ValueError
        A graph without coordinates, or a result whose path is not on this graph.
    TypeError
        ``world`` is neither a Graph nor a WaypointGraph.

    Examples
    --------
    >>> from pathcraft import Graph
    >>> from pathcraft.viz import plot_graph
    >>> roads = Graph.from_adjacency(
    ...     {"a": {"b": 1.0}, "b": {"c": 1.5}, "c": {}},
    ...     coords={"a": (0, 0), "b": (1, 0), "c": (2, 1)},
    ... )
    >>> ax = plot_graph(roads, roads.astar("a", "c", record=True))
    >>> ax.get_title()
    'cost 2.50, 3 expanded'
    """
    from matplotlib import patheffects
    from matplotlib import pyplot as plt
    from matplotlib.collections import LineCollection

    from pathcraft.viz.grid import describe

    graph, xy, pairs, obstacles = _world(world)
    if result is not None and not isinstance(result, PathResult):
        raise TypeError(f"result must be a PathResult or None; got {type(result).__name__}")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 5.6))
    _draw_obstacles(ax, obstacles)
    if edges and len(pairs):
        lines = LineCollection(
            list(xy[pairs]), colors=[_color(EDGE_RGB)], linewidths=0.6, zorder=2, label="edges"
        )
        ax.add_collection(lines)
    ax.scatter(xy[:, 0], xy[:, 1], s=6, color=_color(NODE_RGB), zorder=3, label="nodes")
    if result is not None and result.explored is not None and len(result.explored):
        done = _positions(graph, result.explored.nodes, xy, "expansions of")
        g = np.asarray(result.explored.g, dtype=np.float64)
        colors = PALETTE[scale_codes(g, float(g.max()))] / 255.0
        ax.scatter(done[:, 0], done[:, 1], s=22, c=colors, zorder=4, label="explored")
    if result is not None and len(result.path):
        path = _path_xy(graph, result, xy)
        ax.plot(
            path[:, 0], path[:, 1], color=_color(PATH_RGB), linewidth=2.2, zorder=5,
            solid_capstyle="round", label="path",
            path_effects=[patheffects.withStroke(linewidth=4, foreground="white")],
        )  # fmt: skip
        for point, rgb, marker in ((path[0], START_RGB, "o"), (path[-1], GOAL_RGB, "D")):
            ax.plot(
                point[0], point[1], marker=marker, markersize=9, color=_color(rgb),
                markeredgecolor="black", markeredgewidth=0.8, zorder=6, linestyle="none",
            )  # fmt: skip
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    if title is None and result is not None:
        title = describe(result)
    if title:
        ax.set_title(title)
    return ax
