"""``pathcraft.viz.plot_graph``: graphs and waypoint graphs in (x, y) space.

What is drawn is checked on the artists (every edge a segment, the path line through
the path's positions, every obstacle a patch, expanded nodes on the g-cost scale) and on
the saved PNG (path, start, goal and obstacle pixels carry their colours).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="the viz extra is not installed")
shapely = pytest.importorskip("shapely", reason="the geometry extra is not installed")

from matplotlib import pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from PIL import Image  # noqa: E402

from pathcraft import Graph, WaypointGraph  # noqa: E402
from pathcraft.viz import plot_graph  # noqa: E402
from pathcraft.viz._image import (  # noqa: E402
    GOAL_RGB,
    PALETTE,
    PATH_RGB,
    START_RGB,
    WALL_RGB,
    scale_codes,
)


@pytest.fixture(autouse=True)
def _close_figures() -> Any:
    yield
    plt.close("all")


def ring_graph() -> Graph:
    angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    coords = np.column_stack((np.cos(angles), np.sin(angles))) * 10
    src = np.arange(12)
    return Graph(
        12, src, (src + 1) % 12, np.full(12, 2 * np.pi * 10 / 12), directed=False, coords=coords
    )


def save(ax: Any, path: Path) -> np.ndarray:
    ax.figure.savefig(path)
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def pixel(ax: Any, png: np.ndarray, x: float, y: float) -> tuple[int, ...]:
    px, py = ax.transData.transform((x, y))
    return tuple(int(v) for v in png[int(png.shape[0] - py), int(px), :3])


def test_a_graph_search_draws_edges_nodes_explored_and_path(tmp_path: Path) -> None:
    graph = ring_graph()
    result = graph.astar(0, 4, record=True)
    ax = plot_graph(graph, result)
    assert ax.get_title() == f"cost {result.cost:.2f}, {result.expanded:,} expanded"
    (edges,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(edges.get_segments()) == graph.num_edges
    scatters = [c for c in ax.collections if isinstance(c, PathCollection)]
    nodes, explored = scatters
    assert len(nodes.get_offsets()) == 12
    want = [graph.coords[n] for n in result.explored.nodes]
    np.testing.assert_allclose(explored.get_offsets(), want)
    g = np.asarray(result.explored.g)
    np.testing.assert_allclose(
        explored.get_facecolors()[:, :3], PALETTE[scale_codes(g, float(g.max()))] / 255.0
    )
    path_line = next(line for line in ax.lines if line.get_label() == "path")
    np.testing.assert_allclose(path_line.get_xydata(), graph.coords[[0, 1, 2, 3, 4]])

    png = save(ax, tmp_path / "graph.png")
    start, goal = graph.coords[0], graph.coords[4]
    assert pixel(ax, png, *start) == START_RGB
    assert pixel(ax, png, *goal) == GOAL_RGB
    middle = (graph.coords[1] + graph.coords[2]) / 2
    assert pixel(ax, png, *middle) == PATH_RGB


def test_a_waypoint_graph_draws_obstacles_links_and_the_path(tmp_path: Path) -> None:
    wall = shapely.box(4, -5, 6, 5)
    donut = shapely.Point(15, 0).buffer(3).difference(shapely.Point(15, 0).buffer(1))
    points = [(4, 5.5), (6, 5.5), (4, -5.5), (6, -5.5), (15, 4), (15, -4)]
    wg = WaypointGraph(points, [wall, donut])
    result = wg.find_path((0, 0), (10, 0))
    assert result
    ax = plot_graph(wg, result)
    patches = [p for p in ax.patches if isinstance(p, PathPatch)]
    assert len(patches) == 2
    (links,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(links.get_segments()) == len(wg.links)
    path_line = next(line for line in ax.lines if line.get_label() == "path")
    np.testing.assert_allclose(path_line.get_xydata(), result.path)

    png = save(ax, tmp_path / "waypoints.png")
    assert pixel(ax, png, 5, 0) == WALL_RGB  # inside the wall
    assert pixel(ax, png, 15, -2) == WALL_RGB  # the donut's ring
    assert pixel(ax, png, 15, 0) != WALL_RGB  # its hole stays open
    assert pixel(ax, png, 0, 0) == START_RGB
    assert pixel(ax, png, 10, 0) == GOAL_RGB
    a, b = result.path[1], result.path[2]
    assert pixel(ax, png, *((a + b) / 2)) == PATH_RGB


def test_a_graph_without_a_search_and_on_a_given_axes() -> None:
    _, given = plt.subplots()
    ax = plot_graph(ring_graph(), ax=given, edges=False, title="ring")
    assert ax is given and ax.get_title() == "ring"
    assert not [c for c in ax.collections if isinstance(c, LineCollection)]


def test_bad_worlds_and_results_are_named() -> None:
    plain = Graph.from_adjacency({"a": {"b": 1.0}, "b": {}})
    with pytest.raises(ValueError, match="needs node coordinates"):
        plot_graph(plain)
    with pytest.raises(TypeError, match="draws a Graph or a WaypointGraph; got list"):
        plot_graph([1, 2])  # type: ignore[arg-type]
    other = Graph.from_adjacency({"x": {"y": 1.0}, "y": {}}, coords={"x": (0, 0), "y": (1, 0)})
    with pytest.raises(ValueError, match="path through nodes this graph lacks"):
        plot_graph(ring_graph(), other.astar("x", "y"))
    with pytest.raises(TypeError, match="result must be a PathResult"):
        plot_graph(ring_graph(), "path")  # type: ignore[arg-type]
