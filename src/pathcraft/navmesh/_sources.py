"""Convex polygons from other descriptions of walkable space: shapely geometry and grids.

- :func:`from_geometry`: a constrained Delaunay triangulation of the walkable area
  (``shapely.constrained_delaunay_triangles``), then triangles merged into larger convex
  polygons by Hertel and Mehlhorn's rule (remove a diagonal when both of its ends stay
  convex; diagonals tried longest first). Hertel-Mehlhorn keeps at most four times the
  optimal number of convex pieces; on game levels it typically leaves several times
  fewer polygons than triangles.
- :func:`from_walkable`: the walkable cells of a grid merged into rectangles (each row
  cut into runs, a run stacked on the identical run above), then every rectangle side
  split at the corners of its neighbours, so neighbouring rectangles share whole edges
  (no T-junctions) and every portal is exact. Cell ``(row, col)`` is the unit square
  ``[col, col + 1] x [row, row + 1]`` in ``(x, y)``; its centre is
  ``(col + 0.5, row + 0.5)``. Cells touching only at a corner are not connected (the
  mesh cannot squeeze through a point), the any-angle analogue of no corner cutting.
"""

from __future__ import annotations

import bisect
import math
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._positions import QUAD_SEGS, check_extent
from pathcraft._validation import check_limit

__all__ = [
    "from_geometry",
    "from_walkable",
    "merge_convex",
    "oriented",
    "shrunk",
    "triangles",
    "walkable_cells",
]

Polygons = tuple[npt.NDArray[np.float64], list[npt.NDArray[np.intp]]]


def shrunk(walkable: Any, agent_radius: Any) -> Any:
    """``walkable`` (:meth:`NavMesh.from_geometry <pathcraft.NavMesh.from_geometry>`'s
    argument) checked, shrunk by ``agent_radius`` (checked: finite, ``>= 0``)."""
    if not isinstance(walkable, shapely.Geometry):
        raise TypeError(f"walkable must be a shapely geometry; got {type(walkable).__name__}")
    radius = check_limit("agent_radius", agent_radius, integer=False)
    if radius is not None and not math.isfinite(radius):
        raise ValueError(f"agent_radius must be finite; got {agent_radius!r}")
    if walkable.is_empty:
        raise ValueError("walkable is an empty geometry: a mesh needs some walkable area")
    if walkable.geom_type not in ("Polygon", "MultiPolygon"):
        raise ValueError(f"walkable must be a Polygon or MultiPolygon; got a {walkable.geom_type}")
    coords = shapely.get_coordinates(walkable)
    if not np.isfinite(coords).all():
        raise ValueError("walkable has non-finite coordinates")
    check_extent("walkable", coords)
    if not shapely.is_valid(walkable):
        reason = shapely.is_valid_reason(walkable)
        raise ValueError(f"walkable is not a valid geometry ({reason})")
    if not radius:
        return walkable
    geom = shapely.buffer(walkable, -float(radius), quad_segs=QUAD_SEGS)
    if geom.is_empty or shapely.area(geom) == 0:
        raise ValueError(f"nothing is walkable after shrinking by agent_radius={agent_radius!r}")
    return geom


def walkable_cells(grid: Any) -> npt.NDArray[np.bool_]:
    """The walkable cells of ``grid`` (:meth:`NavMesh.from_grid
    <pathcraft.NavMesh.from_grid>`'s argument: a Grid or a 2-D boolean array), checked."""
    from pathcraft.grid import Grid

    if isinstance(grid, Grid):
        walkable: npt.NDArray[np.bool_] = grid.walkable
    else:
        walkable = np.asarray(grid)
        if walkable.dtype != np.bool_ or walkable.ndim != 2:
            raise TypeError(
                "grid must be a pathcraft.Grid or a 2-D boolean array (True: walkable); "
                f"got {type(grid).__name__} of dtype {walkable.dtype} and shape "
                f"{walkable.shape}"
            )
    if not walkable.any():
        raise ValueError("grid has no walkable cell: a mesh needs at least one")
    return walkable


def from_geometry(geom: Any) -> Polygons:
    """Vertices and convex polygons covering a polygonal shapely geometry (its
    straight-angle vertices dropped first, ``shapely.simplify(geom, 0)``)."""
    geom = shapely.simplify(geom, 0.0)
    coords, _ = triangles(geom)
    xy, inverse = np.unique(coords.reshape(-1, 2), axis=0, return_inverse=True)
    idx = oriented(xy, inverse.reshape(-1, 3))
    return xy, merge_convex(xy, idx)


def triangles(geom: Any) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """The constrained Delaunay triangles of a polygonal geometry (or of each of an
    array of them), ``(k, 3, 2)``, and the index of the geometry each came from."""
    tris, owner = shapely.get_parts(shapely.constrained_delaunay_triangles(geom), return_index=True)
    coords: npt.NDArray[np.float64] = shapely.get_coordinates(tris).reshape(-1, 4, 2)[:, :3]
    return coords, owner.astype(np.intp)


def oriented(xy: npt.NDArray[np.float64], idx: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Triangles (vertex ids into ``xy``) counter-clockwise, those without area dropped."""
    p = xy[idx]
    area2 = (p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1]) - (p[:, 1, 1] - p[:, 0, 1]) * (
        p[:, 2, 0] - p[:, 0, 0]
    )
    idx = idx[area2 != 0]
    flip = area2[area2 != 0] < 0
    idx[flip] = idx[flip][:, ::-1]
    return idx


def _turn(xy: npt.NDArray[np.float64], a: int, b: int, c: int) -> float:
    return float(
        (xy[b, 0] - xy[a, 0]) * (xy[c, 1] - xy[b, 1])
        - (xy[b, 1] - xy[a, 1]) * (xy[c, 0] - xy[b, 0])
    )


def _convex(xy: npt.NDArray[np.float64], a: int, b: int, c: int) -> bool:
    """Whether ``a -> b -> c`` turns left or goes straight on (not back)."""
    turn = _turn(xy, a, b, c)
    if turn != 0:
        return turn > 0
    return float(np.dot(xy[b] - xy[a], xy[c] - xy[b])) > 0


def merge_convex(
    xy: npt.NDArray[np.float64], tris: npt.NDArray[np.intp]
) -> list[npt.NDArray[np.intp]]:
    """Hertel-Mehlhorn: merge counter-clockwise triangles across their shared edges
    while the merged polygon stays convex (straight angles allowed)."""
    polys: dict[int, list[int]] = {i: [int(v) for v in t] for i, t in enumerate(tris)}
    owner: dict[tuple[int, int], int] = {}
    for i, t in polys.items():
        for k in range(3):
            owner[(t[k], t[(k + 1) % 3])] = i
    diagonals = [(u, v) for (u, v) in owner if u < v and (v, u) in owner]
    lengths = [float(np.hypot(*(xy[u] - xy[v]))) for u, v in diagonals]
    for d in np.argsort(lengths)[::-1]:
        u, v = diagonals[int(d)]
        p = owner.get((u, v))
        q = owner.get((v, u))
        if p is None or q is None or p == q:
            continue
        pp, qq = polys[p], polys[q]
        i = pp.index(u)
        j = qq.index(v)
        np_, nq = len(pp), len(qq)
        around_p = [pp[(i + 1 + k) % np_] for k in range(np_)]  # v ... u
        rest_q = [qq[(j + 2 + k) % nq] for k in range(nq - 2)]  # after u ... before v
        at_u = _convex(xy, around_p[-2], u, rest_q[0])
        if not (at_u and _convex(xy, rest_q[-1], v, around_p[1])):
            continue
        merged = around_p + rest_q
        if len(set(merged)) != len(merged):  # they share two edges in a straight line
            continue
        polys[p] = merged
        del polys[q], owner[(u, v)], owner[(v, u)]
        for k in range(nq):
            edge = (qq[k], qq[(k + 1) % nq])
            if edge != (v, u):
                owner[edge] = p
    return [np.array(poly, dtype=np.intp) for poly in polys.values()]


def _rectangles(walkable: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Walkable cells as rectangles ``(c0, c1, r0, r1)`` (cells c0..c1-1, r0..r1-1)."""
    rects: list[list[int]] = []
    open_runs: dict[tuple[int, int], int] = {}
    pad = np.zeros(walkable.shape[1] + 2, dtype=np.int8)
    for r in range(walkable.shape[0]):
        pad[1:-1] = walkable[r]
        d = np.diff(pad)
        runs = zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(), strict=True)
        still: dict[tuple[int, int], int] = {}
        for run in runs:
            k = open_runs.get(run)
            if k is None:
                rects.append([run[0], run[1], r, r + 1])
                k = len(rects) - 1
            else:
                rects[k][3] = r + 1
            still[run] = k
        open_runs = still
    return np.array(rects, dtype=np.int64).reshape(-1, 4)


def _line_points(
    keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64]
) -> dict[int, list[int]]:
    """For each line (key), the sorted distinct positions of the corners on it."""
    out: dict[int, list[int]] = {}
    pairs = np.unique(np.stack((keys, values), axis=1), axis=0)
    for k, v in pairs.tolist():
        out.setdefault(k, []).append(v)
    return out


def _between(line: list[int], lo: int, hi: int) -> list[int]:
    return line[bisect.bisect_right(line, lo) : bisect.bisect_left(line, hi)]


def from_walkable(walkable: npt.NDArray[np.bool_]) -> Polygons:
    """Vertices and rectangles (with their sides split at neighbours' corners)."""
    rects = _rectangles(walkable)
    c0, c1, r0, r1 = rects.T
    # Corners on each horizontal line y = r and each vertical line x = c.
    on_row = _line_points(np.concatenate((r0, r0, r1, r1)), np.concatenate((c0, c1, c0, c1)))
    on_col = _line_points(np.concatenate((c0, c1, c0, c1)), np.concatenate((r0, r0, r1, r1)))
    index: dict[tuple[int, int], int] = {}
    polys: list[npt.NDArray[np.intp]] = []
    for a0, a1, b0, b1 in rects.tolist():
        ring = [(a0, b0)]
        ring += [(x, b0) for x in _between(on_row[b0], a0, a1)]
        ring.append((a1, b0))
        ring += [(a1, y) for y in _between(on_col[a1], b0, b1)]
        ring.append((a1, b1))
        ring += [(x, b1) for x in reversed(_between(on_row[b1], a0, a1))]
        ring.append((a0, b1))
        ring += [(a0, y) for y in reversed(_between(on_col[a0], b0, b1))]
        polys.append(np.array([index.setdefault(pt, len(index)) for pt in ring], dtype=np.intp))
    xy = np.array(list(index), dtype=np.float64).reshape(-1, 2)
    return xy, polys
