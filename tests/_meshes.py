"""Navmesh scenes and the independent corridor oracle the navmesh tests share."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import shapely
from scipy.sparse.csgraph import dijkstra

from pathcraft import NavMesh

#: A small map of walkable cells with walls inside it (rows are y, columns x).
HOLED_CELLS = np.array(
    [
        [1, 1, 1, 1, 1, 1, 1, 1],
        [1, 0, 0, 1, 1, 0, 1, 1],
        [1, 1, 1, 1, 0, 0, 1, 1],
        [1, 1, 0, 1, 1, 1, 1, 0],
        [1, 1, 1, 1, 1, 1, 1, 1],
    ],
    dtype=bool,
)


def cells_area(cells: np.ndarray) -> Any:
    """The walkable area of a map of walkable cells, made by shapely (unit squares
    ``[col, col + 1] x [row, row + 1]``), independently of a mesh."""
    rows, cols = np.nonzero(cells)
    return shapely.union_all(shapely.box(cols, rows, cols + 1, rows + 1))


def grid_mesh(n: int = 6) -> NavMesh:
    """An n x n mesh of unit squares (x, y): polygon ``y * n + x`` is the square at
    ``[x, x + 1] x [y, y + 1]``."""
    xs = [(x, y) for y in range(n + 1) for x in range(n + 1)]
    polys = [
        [y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x + 1, (y + 1) * (n + 1) + x]
        for y in range(n)
        for x in range(n)
    ]
    return NavMesh(xs, polys)


def corridor_oracle(mesh: NavMesh, costs: np.ndarray, s: np.ndarray, g: np.ndarray) -> float:
    """The cheapest corridor cost, independently: nodes are points on shared edges
    (ends and midpoints, one node per edge and point: two polygons that touch at a
    corner only are not joined), linked inside each polygon by distance x its cost,
    plus the start and goal joined to the points of their polygons. A polygon of cost
    ``inf`` is excluded (nothing crosses it); ``inf`` when the goal cannot be
    reached."""
    polys, nbrs = mesh.polygons, mesh.polygon_neighbors
    xy = mesh.vertices
    points: dict[tuple[Any, ...], int] = {}
    where: list[np.ndarray] = []
    owners: dict[int, list[int]] = {p: [] for p in range(len(polys))}
    for p, ring in enumerate(polys):
        for i in range(len(ring)):
            if nbrs[p][i] < 0:
                continue
            a, b = xy[ring[i]], xy[ring[(i + 1) % len(ring)]]
            side = (min(p, int(nbrs[p][i])), max(p, int(nbrs[p][i])))
            for f in (0.0, 0.5, 1.0):
                at = a + (b - a) * f
                k = points.setdefault((*side, *np.round(at, 9).tolist()), len(points))
                if k == len(where):
                    where.append(at)
                owners[p].append(k)
    coords = np.array(where, dtype=float)
    n = len(points) + 2
    edges: list[tuple[int, int, float]] = []
    sidx, gidx = n - 2, n - 1
    sp_, gp_ = mesh.locate(s), mesh.locate(g)
    for p, ks in owners.items():
        if not np.isfinite(costs[p]):
            continue
        ks = sorted(set(ks))
        edges += [
            (i, j, np.hypot(*(coords[i] - coords[j])) * costs[p] + 1e-12)
            for i in ks for j in ks if i != j
        ]  # fmt: skip
        if p == sp_:
            edges += [(sidx, j, np.hypot(*(coords[j] - s)) * costs[p] + 1e-12) for j in ks]
        if p == gp_:
            edges += [(j, gidx, np.hypot(*(coords[j] - g)) * costs[p] + 1e-12) for j in ks]
    best: dict[tuple[int, int], float] = {}  # csr_matrix would sum parallel edges
    for r, c, x in edges:
        best[r, c] = min(x, best.get((r, c), np.inf))
    keys = list(best)
    m = sp.csr_matrix(
        (list(best.values()), ([k[0] for k in keys], [k[1] for k in keys])), shape=(n, n)
    )
    return float(dijkstra(m, indices=sidx)[gidx])
