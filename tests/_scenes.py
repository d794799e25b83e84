"""Shared helpers for the navmesh tests: random polygonal scenes and grids, the
visibility-graph oracle (WaypointGraph links, scipy Dijkstra) and path checks."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely import box

from pathcraft import WaypointGraph

SIZE = 100.0


def polygon_scene(seed: int, holes: int = 8) -> Any:
    """Walkable space: a 100 x 100 box minus random rectangles and convex polygons
    (overlapping ones merge; float coordinates, so nothing touches at a single point)."""
    rng = np.random.default_rng(seed)
    outer = box(0, 0, SIZE, SIZE)
    shapes = []
    for _ in range(holes):
        x, y = rng.uniform(0, 90, 2)
        if rng.random() < 0.5:
            w, h = rng.uniform(3, 25, 2)
            shapes.append(box(x, y, x + w, y + h))
        else:
            n = int(rng.integers(3, 8))
            ang = np.sort(rng.uniform(0, 2 * np.pi, n))
            r = rng.uniform(3, 12)
            pts = np.array([x, y]) + r * np.c_[np.cos(ang), np.sin(ang)]
            shapes.append(shapely.convex_hull(shapely.multipoints(pts)))
    return outer.difference(shapely.union_all(shapes))


def pinch_free_grid(seed: int, n: int = 14, density: float = 0.3) -> np.ndarray:
    """A random walkable grid where no two cells touch only at a corner (in both the
    walkable and the blocked parts), so the union of cells has no pinch points."""
    rng = np.random.default_rng(seed)
    w = rng.random((n, n)) > density
    while True:
        a, b, c, d = w[:-1, :-1], w[:-1, 1:], w[1:, :-1], w[1:, 1:]
        pinch = (a & d & ~b & ~c) | (b & c & ~a & ~d)
        if not pinch.any():
            return w
        r, k = np.argwhere(pinch)[0]
        w[r : r + 2, k : k + 2] = True


def cells_geometry(walkable: np.ndarray) -> Any:
    """The union of the walkable cells, cell (row, col) = [col, col+1] x [row, row+1]."""
    return shapely.union_all([box(c, r, c + 1, r + 1) for r, c in np.argwhere(walkable)])


def sample_points(walk: Any, rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` random points strictly inside ``walk``."""
    x0, y0, x1, y1 = walk.bounds
    out: list[np.ndarray] = []
    while len(out) < count:
        p = rng.uniform((x0, y0), (x1, y1))
        if walk.contains(shapely.points(p)):
            out.append(p)
    return np.array(out)


def oracle_length(walk: Any, start: np.ndarray, goal: np.ndarray) -> float:
    """The Euclidean shortest path length from start to goal inside ``walk``: Dijkstra
    (scipy) over the visibility graph of the obstacle vertices, start and goal, its
    links found by :class:`pathcraft.WaypointGraph`. The obstacles are everything
    outside ``walk`` within a larger frame, merged, so no seam runs between them."""
    x0, y0, x1, y1 = walk.bounds
    frame = box(x0 - 10, y0 - 10, x1 + 10, y1 + 10)
    obstacles = list(shapely.get_parts(frame.difference(walk)))
    corners = np.unique(shapely.get_coordinates(walk), axis=0)
    points = np.vstack((corners, start, goal))
    wg = WaypointGraph(points, obstacles)
    links = wg.links
    n = points.shape[0]
    length = np.sqrt(((points[links[:, 0]] - points[links[:, 1]]) ** 2).sum(axis=1))
    graph = csr_matrix((length, (links[:, 0], links[:, 1])), shape=(n, n))
    dist = dijkstra(graph, directed=False, indices=n - 2)
    return float(dist[n - 1])


def path_length(path: np.ndarray) -> float:
    return float(np.sqrt((np.diff(path, axis=0) ** 2).sum(axis=1)).sum())


def assert_path_inside(path: np.ndarray, walk: Any, start: Any, goal: Any) -> None:
    """The path runs from start to goal and every segment lies in the walkable space."""
    assert path.ndim == 2 and path.shape[1] == 2 and path.dtype == np.float64
    np.testing.assert_array_equal(path[0], start)
    np.testing.assert_array_equal(path[-1], goal)
    if path.shape[0] > 1:
        segments = shapely.linestrings(np.stack((path[:-1], path[1:]), axis=1))
        assert shapely.covers(walk, segments).all(), path.tolist()
