"""The navmesh's optimal mode (Polyanya) against an independent oracle at scale.

The oracle shares no code with pathcraft: the visibility graph of the walkable space's
corners, the start and the goal, each link checked with shapely (``covers``: a segment
may run along the boundary and touch a corner, never enter an obstacle), then scipy's
Dijkstra. Where walls touch only at a corner (a *pinch*: a 2 x 2 block of cells in a
checkerboard) the walkable space is closed: a navmesh built from a grid does not pass
between two cells that share only a corner. The oracle splits each pinch point into two
nodes a hair (1e-9) inside the two walkable cells, so a segment through the point
itself is never a link; that costs at most a few 1e-9 in length.

Families: random grids with pinches, Moving AI windows, polygon scenes; random starts
and goals, and cell centres (whose shortest paths run exactly through wall corners,
where issue 20's dropped interval was). The default run checks a small sample; the
thousands are ``@pytest.mark.slow``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from _scenes import cells_geometry, polygon_scene, sample_points
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from pathcraft import NavMesh

EPS = 1e-9


def pinch_points(walkable: np.ndarray) -> list[tuple[float, float, list[tuple[float, float]]]]:
    """``(x, y, [towards each walkable cell])`` for each pinch of a grid (cell
    ``(row, col)`` is ``[col, col + 1] x [row, row + 1]``)."""
    a, b = walkable[:-1, :-1], walkable[:-1, 1:]
    c, d = walkable[1:, :-1], walkable[1:, 1:]
    out = []
    for r, k in np.argwhere((a & d & ~b & ~c) | (b & c & ~a & ~d)):
        x, y = float(k + 1), float(r + 1)
        # Towards cells (r, k) and (r + 1, k + 1), or (r, k + 1) and (r + 1, k).
        dirs = [(-1.0, -1.0), (1.0, 1.0)] if a[r, k] else [(1.0, -1.0), (-1.0, 1.0)]
        out.append((x, y, dirs))
    return out


class Oracle:
    """Shortest path lengths inside ``walk`` (see the module documentation): the links
    between corners are found once, those of each start and goal per query."""

    def __init__(self, walk: Any, pinches: list[Any]) -> None:
        pinch_xy = {(x, y) for x, y, _ in pinches}
        corners = [
            tuple(p) for p in np.unique(shapely.get_coordinates(walk), axis=0).tolist()
            if tuple(p) not in pinch_xy
        ]  # fmt: skip
        self.first = len(corners)  # pinch k's two nodes: first + 2k, first + 2k + 1
        for x, y, dirs in pinches:
            corners += [(x + EPS * dx, y + EPS * dy) for dx, dy in dirs]
        self.walk = walk
        shapely.prepare(walk)
        self.pinches = pinches
        self.corners = np.array(corners, dtype=np.float64).reshape(-1, 2)
        i, j = np.triu_indices(self.corners.shape[0], 1)
        keep = self.links(self.corners, i, j)
        self.i, self.j = i[keep], j[keep]

    def links(self, points: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Which segments ``points[i] -> points[j]`` are links."""
        segments = shapely.linestrings(np.stack((points[i], points[j]), axis=1))
        seen = shapely.covers(self.walk, segments)
        if not self.pinches:
            return seen
        # A link passing a pinch point (within 1e-7) goes between two cells sharing a
        # corner, unless it ends at one of that pinch's own nodes and its other end is
        # in that node's quadrant (it reaches the point from one side only).
        pinches, first = self.pinches, self.first
        spots = shapely.points(np.array([(x, y) for x, y, _ in pinches]))
        side = np.array([d for _, _, dirs in pinches for d in dirs]).reshape(-1, 2)
        tree = shapely.STRtree(spots)
        cand = np.flatnonzero(seen)
        hit_seg, hit_pinch = tree.query(segments[cand], predicate="dwithin", distance=1e-7)
        a, b = i[cand[hit_seg]], j[cand[hit_seg]]
        ok = np.zeros(a.shape[0], dtype=bool)
        centre = shapely.get_coordinates(spots)[hit_pinch]
        nodes = self.corners.shape[0]
        for end, other in ((a, b), (b, a)):
            mine = (end >= first) & (end < nodes) & ((end - first) // 2 == hit_pinch)
            d = side[np.where(mine, end - first, 0)]
            inside = ((points[other] - centre) * d >= 0).all(axis=1)
            theirs = (other >= first) & (other < nodes) & ((other - first) // 2 == hit_pinch)
            ok |= mine & inside & ~theirs
        seen[cand[hit_seg[~ok]]] = False
        return seen

    def length(self, start: np.ndarray, goal: np.ndarray) -> float:
        """The shortest path length from ``start`` to ``goal``."""
        points = np.vstack((self.corners, start, goal))
        n = points.shape[0]
        others = np.arange(n - 2)
        i = np.concatenate((others, others, [n - 2]))
        j = np.concatenate((np.full(n - 2, n - 2), np.full(n - 2, n - 1), [n - 1]))
        keep = self.links(points, i, j)
        i = np.concatenate((self.i, i[keep]))
        j = np.concatenate((self.j, j[keep]))
        length = np.sqrt(((points[i] - points[j]) ** 2).sum(axis=1))
        graph = csr_matrix((length, (i, j)), shape=(n, n))
        return float(dijkstra(graph, directed=False, indices=n - 2)[n - 1])


def oracle(walk: Any, start: np.ndarray, goal: np.ndarray, pinches: list[Any]) -> float:
    """The shortest path length from ``start`` to ``goal`` inside ``walk``."""
    return Oracle(walk, pinches).length(start, goal)


def check(mesh: NavMesh, walk: Any, pairs: np.ndarray, pinches: list[Any]) -> list[str]:
    """The queries where the optimal mode and the oracle disagree (1e-6)."""
    wrong = []
    paths = Oracle(walk, pinches)
    for start, goal in pairs:
        best = paths.length(start, goal)
        found = mesh.find_path(start, goal, algorithm="optimal")
        got = found.cost if found else math.inf
        if math.isinf(best) != math.isinf(got) or (
            not math.isinf(best) and abs(best - got) > 1e-6
        ):
            wrong.append(f"{start.tolist()} -> {goal.tolist()}: optimal {got}, oracle {best}")
    return wrong


def random_grid(seed: int, n: int = 12, density: float = 0.3) -> np.ndarray:
    """A random walkable grid, pinches included."""
    return np.random.default_rng(seed).random((n, n)) > density


def grid_pairs(walkable: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """Half random points inside walkable cells, half cell centres."""
    free = np.argwhere(walkable)
    cells = free[rng.integers(0, len(free), (count, 2))]
    centres = cells[:, :, ::-1] + 0.5
    jitter = cells[:, :, ::-1] + rng.uniform(0.02, 0.98, (count, 2, 2))
    half = count // 2
    return np.concatenate((centres[:half], jitter[half:]))


def check_grid(walkable: np.ndarray, seed: int, count: int) -> list[str]:
    if walkable.sum() < 2:
        return []
    mesh = NavMesh.from_grid(walkable)
    walk = cells_geometry(walkable)
    pairs = grid_pairs(walkable, np.random.default_rng(seed), count)
    return check(mesh, walk, pairs, pinch_points(walkable))


def check_polygons(seed: int, count: int) -> list[str]:
    walk = polygon_scene(seed)
    mesh = NavMesh.from_geometry(walk)
    points = sample_points(walk, np.random.default_rng(seed), 2 * count)
    return check(mesh, walk, points.reshape(2, count, 2).transpose(1, 0, 2), [])


def test_the_oracle_closes_pinches_and_allows_grazing() -> None:
    # Two cells touching at a corner: no way through; a wall corner grazed: allowed.
    pinch = np.array([[True, False], [False, True]])
    walk = cells_geometry(pinch)
    far = oracle(walk, np.array([0.5, 0.5]), np.array([1.5, 1.5]), pinch_points(pinch))
    assert math.isinf(far)
    bend = np.array([[True, True], [False, True]])
    near = oracle(cells_geometry(bend), np.array([0.5, 0.5]), np.array([1.5, 1.5]), [])
    assert near == pytest.approx(math.sqrt(2))


@pytest.mark.parametrize("seed", range(3))
def test_optimal_matches_the_oracle_on_random_grids(seed: int) -> None:
    assert check_grid(random_grid(seed), seed, 6) == []


def test_optimal_matches_the_oracle_on_a_polygon_scene() -> None:
    assert check_polygons(0, 3) == []


def movingai_windows(root: Path, count: int, size: int, seed: int) -> list[np.ndarray]:
    from pathcraft.io import read_walkable

    rng = np.random.default_rng(seed)
    maps = sorted((root / "maps").rglob("*.map"))
    out: list[np.ndarray] = []
    while len(out) < count:
        walkable = read_walkable(maps[int(rng.integers(len(maps)))])
        h, w = walkable.shape
        r, c = int(rng.integers(0, h - size)), int(rng.integers(0, w - size))
        window = walkable[r : r + size, c : c + size]
        if window.mean() > 0.3:
            out.append(window)
    return out


def test_optimal_matches_the_oracle_on_movingai_windows(movingai: Path) -> None:
    wrong = []
    for k, window in enumerate(movingai_windows(movingai, 1, 20, 0)):
        wrong += check_grid(window, k, 6)
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_optimal_matches_the_oracle_on_thousands_of_grid_queries(block: int) -> None:
    # 10 blocks x 30 grids x 8 queries: 2,400 queries, half from cell centres.
    wrong = []
    for seed in range(1000 + 30 * block, 1000 + 30 * (block + 1)):
        wrong += check_grid(random_grid(seed, int(8 + seed % 9), 0.2 + 0.02 * (seed % 10)), seed, 8)
    assert wrong == []


@pytest.mark.slow
def test_optimal_matches_the_oracle_on_many_polygon_scenes() -> None:
    wrong = []
    for seed in range(100, 200):
        wrong += check_polygons(seed, 6)
    assert wrong == []


@pytest.mark.slow
def test_optimal_matches_the_oracle_on_many_movingai_windows(movingai: Path) -> None:
    wrong = []
    for k, window in enumerate(movingai_windows(movingai, 80, 32, 1)):
        wrong += check_grid(window, k, 12)
    assert wrong == []
