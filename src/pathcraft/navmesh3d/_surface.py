"""The walkable surface of a :class:`~pathcraft.navmesh3d.PolyMesh3D` as triangles:
heights under points, paths lifted from the plane onto it, nearest and random points.

Each polygon's surface is its detail triangles (Recast's ``rcPolyMeshDetail``) or,
without a detail mesh, the fan of triangles from its first vertex. A path found in
the plane (the funnel through the corridor's portals, ``(x, y)``) is lifted the way
Detour gives heights (``closestPointOnPoly`` / ``getPolyHeight``): each point takes
the height of the surface triangle under it in its own polygon of the corridor, and
the path is cut where it crosses a portal or an edge between two triangles, so each
of its segments lies within one triangle of the surface.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pathcraft.navmesh3d._polymesh import PolyMesh3D, edge_places
from pathcraft.navmesh3d._tiles import fan_detail

__all__ = ["Surface", "closest_points", "corners", "heights", "lift", "path_length", "surface"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]

#: Points closer than this (relative to the mesh's size) are one point of a path.
_SAME = 1e-9


@dataclass(frozen=True)
class Surface:
    """The surface triangles of a mesh's polygons.

    Attributes
    ----------
    corners : ndarray, shape (t, 3, 3)
        Each triangle's corners ``(x, y, z)``, counter-clockwise seen from above.
    poly_of : ndarray of int32, shape (t,)
        The polygon of each triangle; triangles are grouped by polygon.
    first : ndarray of int64, shape (m + 1,)
        Polygon ``p``'s triangles are ``first[p]`` to ``first[p + 1] - 1``.
    area : ndarray, shape (t,)
        Each triangle's area in 3-D.
    scale : float
        The size of the mesh's coordinates (for tolerances).
    inverse : ndarray, shape (t, 2, 2)
        Each triangle's barycentric map seen from above: ``inverse @ (xy - corner 0)``
        gives the weights of corners 1 and 2 (nan for a vertical triangle).
    plane : ndarray, shape (t, 3)
        ``(a, b, c)`` with ``z = a x + b y + c`` on each triangle (nan when vertical).
    """

    corners: FloatArray
    poly_of: IntArray
    first: npt.NDArray[np.int64]
    area: FloatArray
    scale: float
    inverse: FloatArray
    plane: FloatArray


def surface(mesh: PolyMesh3D) -> Surface:
    """The surface triangles of ``mesh`` (detail triangles, else fans)."""
    m = mesh.num_polygons
    dv, dt, do = mesh.detail if mesh.detail is not None else fan_detail(mesh)
    counts = do[:, 1].astype(np.int64)
    starts = np.repeat(do[:, 0].astype(np.int64), counts)
    within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    corners = dv[dt[starts + within]]
    poly_of = np.repeat(np.arange(m, dtype=np.int32), counts)
    # counter-clockwise seen from above (detail triangles may come either way)
    e1 = corners[:, 1, :2] - corners[:, 0, :2]
    e2 = corners[:, 2, :2] - corners[:, 0, :2]
    cw = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] < 0
    corners = corners.copy()
    corners[cw] = corners[cw][:, ::-1]
    first = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.bincount(poly_of, minlength=m), out=first[1:])
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    area = 0.5 * np.sqrt((cross * cross).sum(axis=1))
    scale = float(np.abs(mesh.vertices).max()) + 1.0
    inverse, plane = _planes(corners)
    return Surface(corners, poly_of.astype(np.int32), first, area, scale, inverse, plane)


def _planes(corners: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:attr:`Surface.inverse` and :attr:`Surface.plane` of the triangles ``corners``."""
    e1 = corners[:, 1] - corners[:, 0]
    e2 = corners[:, 2] - corners[:, 0]
    den = e1[:, 0] * e2[:, 1] - e2[:, 0] * e1[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = (
            np.stack(
                (np.stack((e2[:, 1], -e2[:, 0]), axis=1), np.stack((-e1[:, 1], e1[:, 0]), axis=1)),
                axis=1,
            )
            / den[:, None, None]
        )
        a = (e1[:, 2] * e2[:, 1] - e2[:, 2] * e1[:, 1]) / den
        b = (e2[:, 2] * e1[:, 0] - e1[:, 2] * e2[:, 0]) / den
    inv[den == 0] = np.nan
    c = corners[:, 0, 2] - a * corners[:, 0, 0] - b * corners[:, 0, 1]
    return inv, np.stack((a, b, c), axis=1)


def _pairs(surf: Surface, polys: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.intp], ...]:
    """For each query ``i`` in polygon ``polys[i]``, every triangle of that polygon:
    ``(query, triangle)`` index pairs."""
    lo, hi = surf.first[polys], surf.first[polys + 1]
    counts = hi - lo
    query = np.repeat(np.arange(polys.shape[0]), counts)
    tri = (
        np.repeat(lo, counts)
        + np.arange(int(counts.sum()))
        - np.repeat(np.cumsum(counts) - counts, counts)
    )
    return query, tri


def heights(surf: Surface, polys: npt.ArrayLike, xy: FloatArray) -> FloatArray:
    """The height of the surface of polygon ``polys[i]`` at ``xy[i]`` (the triangle that
    holds the point, or the one it is nearest to be inside of when it is a hair out)."""
    p = np.asarray(polys, dtype=np.intp)
    query, tri = _pairs(surf, p)
    d = xy[query] - surf.corners[tri, 0, :2]
    inv = surf.inverse[tri]
    u = inv[:, 0, 0] * d[:, 0] + inv[:, 0, 1] * d[:, 1]
    v = inv[:, 1, 0] * d[:, 0] + inv[:, 1, 1] * d[:, 1]
    inside = np.minimum(np.minimum(u, v), 1.0 - u - v)
    inside[np.isnan(inside)] = -np.inf
    order = np.lexsort((-inside, query))
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = query[order][1:] != query[order][:-1]
    best = tri[order[first]]
    plane = surf.plane[best]
    out: FloatArray = plane[:, 0] * xy[:, 0] + plane[:, 1] * xy[:, 1] + plane[:, 2]
    flat = np.isnan(out)  # a vertical triangle (no other under the point): its middle
    if flat.any():
        out[flat] = surf.corners[best[flat], :, 2].mean(axis=1)
    return out


def path_length(path: FloatArray) -> float:
    """The length of a polyline in 3-D."""
    if path.shape[0] < 2:
        return 0.0
    return float(np.sqrt((np.diff(path, axis=0) ** 2).sum(axis=1)).sum())


def corners(path: FloatArray, scale: float) -> FloatArray:
    """The corners of a path on the surface (Detour's straight path): its first and
    last points and those where it turns seen from above. Of points over one place
    (a step up or down at a portal) the last is kept; the points where the path only
    crosses a portal or a triangle's edge, going straight on seen from above, go."""
    if path.shape[0] < 3:
        short: FloatArray = path.copy()
        return short
    keep = np.ones(path.shape[0], dtype=bool)
    step = np.diff(path[:, :2], axis=0)
    keep[:-1] = np.sqrt((step * step).sum(axis=1)) > _SAME * scale
    pts = path[keep]
    if pts.shape[0] == 1:  # every point over one place: the start, then the goal
        pts = path[[0, -1]]
    pts[0] = path[0]  # the start keeps its height, even at a step
    seen = pts.copy()
    seen[:, 2] = 0.0  # turns seen from above
    out: FloatArray = pts[_bends(seen)]
    return out


def _crossings(
    path: FloatArray, left: FloatArray, right: FloatArray
) -> tuple[npt.NDArray[np.intp], FloatArray, FloatArray]:
    """Where the planar ``path`` crosses each portal ``(left[i], right[i])`` in turn:
    the segment of the path, the parameter along it and the point (on the portal)."""
    k = left.shape[0]
    seg = np.zeros(k, dtype=np.intp)
    param = np.zeros(k)
    point = np.zeros((k, 2))
    j, last_seg, last_u = 0, -1, 0.0
    n = path.shape[0] - 1
    slack = 1e-7
    for i in range(k):
        a, e = left[i], right[i] - left[i]
        ee = float(e @ e)
        while True:
            p, d = path[j], path[j + 1] - path[j]
            den = float(d[0] * e[1] - d[1] * e[0])
            u = t = 0.0
            if den != 0.0:
                w = a - p
                u = float(w[0] * e[1] - w[1] * e[0]) / den
                t = float(w[0] * d[1] - w[1] * d[0]) / den
            # the segment meets the portal itself (not its line's extension)
            if (den != 0.0 and u <= 1.0 + slack and -slack <= t <= 1.0 + slack) or j >= n - 1:
                break
            j += 1
        u = min(max(u, last_u if j == last_seg else 0.0), 1.0)
        x = p + u * d
        t = 0.0 if ee == 0.0 else min(max(float((x - a) @ e) / ee, 0.0), 1.0)
        seg[i], param[i], point[i] = j, u, a + t * e
        last_seg, last_u = j, u
    return seg, param, point


def lift(
    surf: Surface,
    corridor: npt.NDArray[np.int32],
    path: FloatArray,
    left: FloatArray,
    right: FloatArray,
    start_z: float,
    goal_z: float,
) -> FloatArray:
    """The planar ``path`` (``(n, 2)``, the funnel's corners through ``corridor``'s
    portals ``left[i]``-``right[i]``, between ``corridor[i]`` and ``corridor[i + 1]``)
    lifted onto the surface as an ``(N, 3)`` path: cut where it crosses each portal
    and each edge between two surface triangles of a polygon, every point at the
    height of its polygon's surface; the ends keep ``start_z`` and ``goal_z`` (the
    start's and goal's heights, on the surface already)."""
    seg, param, cross = _crossings(path, left, right)
    n = path.shape[0]
    # events in walking order: corners (param 0 of their segment) and crossings
    e_seg = np.concatenate((np.arange(n), seg))
    e_par = np.concatenate((np.zeros(n), param))
    e_kind = np.concatenate((np.zeros(n, dtype=np.intp), np.ones(seg.shape[0], dtype=np.intp)))
    e_pt = np.concatenate((path, cross))
    order = np.lexsort((e_kind, e_par, e_seg))
    e_pt, e_kind = e_pt[order], e_kind[order]
    # the corridor polygon each event is in (a crossing: the polygon before it)
    passed = np.cumsum(e_kind) - e_kind
    poly = corridor[passed].astype(np.intp)
    after = corridor[np.minimum(passed + e_kind, corridor.shape[0] - 1)].astype(np.intp)
    # of points at one place (a corner at a portal's end, portals meeting at a
    # vertex) the last is kept: its polygon is the one the path goes on in
    keep = _last_of_runs(e_pt, surf.scale)
    e_pt, poly, after = e_pt[keep], poly[keep], after[keep]
    # cut each segment where it crosses an edge between triangles of its polygon
    pts, polys = _cut(surf, e_pt, after)
    z = heights(surf, polys, pts)
    # a portal between polygons at different heights (a step Detour climbs within
    # walkableClimb): the path goes straight up or down at the crossing
    below = np.full(z.shape[0], np.nan)
    if z.shape[0] > 1:
        below[1:] = heights(surf, polys[:-1], pts[1:])
    step = np.abs(below - z) > 1e-9 * surf.scale
    step[0] = False
    at = np.repeat(np.arange(z.shape[0]), np.where(step, 2, 1))
    zz = z[at]
    firsts = np.flatnonzero(np.r_[True, at[1:] != at[:-1]])
    stepped = step[at[firsts]]
    zz[firsts[stepped]] = below[at[firsts[stepped]]]
    out: FloatArray = np.concatenate((pts[at], zz[:, None]), axis=1)
    out[0, 2], out[-1, 2] = start_z, goal_z
    del poly
    return _drop_straight(out, surf.scale)


def _drop_straight(path: FloatArray, scale: float) -> FloatArray:
    """``path`` without the points where it goes straight on in 3-D (a cut between
    two triangles of one plane, a portal crossed without a bend) and without repeats."""
    if path.shape[0] < 3:
        return path
    step = np.diff(path, axis=0)
    size = np.sqrt((step * step).sum(axis=1))
    keep = np.ones(path.shape[0], dtype=bool)
    keep[1:-1] = size[:-1] > _SAME * scale  # a repeated point goes
    path = path[keep]
    out: FloatArray = path[_bends(path)]
    return out


def _bends(path: FloatArray) -> npt.NDArray[np.bool_]:
    """A mask keeping the ends of ``path`` (``(n, 3)``) and the points where it turns
    (does not go straight on: a point where it turns back stays)."""
    keep = np.ones(path.shape[0], dtype=bool)
    if path.shape[0] < 3:
        return keep
    step = np.diff(path, axis=0)
    a, b = step[:-1], step[1:]
    turn = np.cross(a, b)
    bend = np.sqrt((turn * turn).sum(axis=1))
    length = np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1))
    ahead = (a * b).sum(axis=1) > 0
    keep[1:-1] = ~((bend <= 1e-9 * length) & ahead)
    return keep


def _cut(
    surf: Surface, pts: FloatArray, polys: npt.NDArray[np.intp]
) -> tuple[FloatArray, npt.NDArray[np.intp]]:
    """``pts`` with the points where each segment ``pts[i]``-``pts[i + 1]`` (in polygon
    ``polys[i]``) crosses an inner edge of that polygon's triangles inserted, and each
    point's polygon (the one its segment runs in; the last point: the last's)."""
    n = pts.shape[0]
    if n < 2:
        return pts, polys
    segs = polys[:-1]
    many = np.flatnonzero(surf.first[segs + 1] - surf.first[segs] > 1)
    if many.size == 0:
        return pts, polys
    query, tri = _pairs(surf, segs[many])
    seg_of = many[query]
    a, b = pts[seg_of], pts[seg_of + 1]
    d = b - a
    found_seg: list[npt.NDArray[np.intp]] = []
    found_t: list[FloatArray] = []
    for k in range(3):
        c0 = surf.corners[tri, k, :2]
        c1 = surf.corners[tri, (k + 1) % 3, :2]
        e = c1 - c0
        den = d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]
        w = c0 - a
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / den
            s = (w[:, 0] * d[:, 1] - w[:, 1] * d[:, 0]) / den
        hit = (den != 0) & (t > 1e-9) & (t < 1 - 1e-9) & (s >= -1e-12) & (s <= 1 + 1e-12)
        found_seg.append(seg_of[hit])
        found_t.append(t[hit])
    fs = np.concatenate(found_seg)
    ft = np.concatenate(found_t)
    if fs.size == 0:
        return pts, polys
    all_seg = np.concatenate((np.arange(n), fs))
    all_t = np.concatenate((np.zeros(n), ft))
    order = np.lexsort((all_t, all_seg))
    all_seg, all_t = all_seg[order], all_t[order]
    last = np.minimum(all_seg + 1, n - 1)
    new_pts = pts[all_seg] + all_t[:, None] * (pts[last] - pts[all_seg])
    keep = _last_of_runs(new_pts, surf.scale)
    return new_pts[keep], polys[all_seg[keep]]


def _last_of_runs(pts: FloatArray, scale: float) -> npt.NDArray[np.bool_]:
    """A mask keeping the last of each run of points at one place."""
    keep = np.ones(pts.shape[0], dtype=bool)
    keep[:-1] = np.sqrt(((pts[1:] - pts[:-1]) ** 2).sum(axis=1)) > _SAME * scale
    return keep


def closest_points(surf: Surface, pts: FloatArray) -> tuple[FloatArray, IntArray]:
    """The point of the surface nearest each point in 3-D, and its polygon
    (the closest point on each triangle, Ericson's region test, vectorised)."""
    out = np.empty((pts.shape[0], 3))
    poly = np.empty(pts.shape[0], dtype=np.int32)
    a, b, c = surf.corners[:, 0], surf.corners[:, 1], surf.corners[:, 2]
    for i in range(pts.shape[0]):
        q = _on_triangles(a, b, c, pts[i])
        dist = ((q - pts[i]) ** 2).sum(axis=1)
        best = int(np.argmin(dist))
        out[i], poly[i] = q[best], surf.poly_of[best]
    return out, poly


def _on_triangles(a: FloatArray, b: FloatArray, c: FloatArray, p: FloatArray) -> FloatArray:
    """The closest point to ``p`` on each triangle ``(a, b, c)`` (rows)."""
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(1), (ac * ap).sum(1)
    bp = p - b
    d3, d4 = (ab * bp).sum(1), (ac * bp).sum(1)
    cp = p - c
    d5, d6 = (ab * cp).sum(1), (ac * cp).sum(1)
    vc = d1 * d4 - d3 * d2
    vb = d5 * d2 - d1 * d6
    va = d3 * d6 - d5 * d4
    with np.errstate(divide="ignore", invalid="ignore"):
        den = 1.0 / (va + vb + vc)
        v_in, w_in = vb * den, vc * den
        out = a + ab * v_in[:, None] + ac * w_in[:, None]
        # edge regions
        t_ab = d1 / (d1 - d3)
        t_ac = d2 / (d2 - d6)
        t_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
    on_bc = (va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0)
    out = np.where(on_bc[:, None], b + (c - b) * np.nan_to_num(t_bc)[:, None], out)
    on_ac = (vb <= 0) & (d2 >= 0) & (d6 <= 0)
    out = np.where(on_ac[:, None], a + ac * np.nan_to_num(t_ac)[:, None], out)
    on_ab = (vc <= 0) & (d1 >= 0) & (d3 <= 0)
    out = np.where(on_ab[:, None], a + ab * np.nan_to_num(t_ab)[:, None], out)
    # vertex regions
    out = np.where(((d6 >= 0) & (d5 <= d6))[:, None], c, out)
    out = np.where(((d3 >= 0) & (d4 <= d3))[:, None], b, out)
    out = np.where(((d1 <= 0) & (d2 <= 0))[:, None], a, out)
    bad = ~np.isfinite(out).all(axis=1)  # a degenerate triangle: its nearest corner
    if bad.any():
        corners = np.stack((a[bad], b[bad], c[bad]), axis=1)
        near = ((corners - p) ** 2).sum(axis=2).argmin(axis=1)
        out[bad] = corners[np.arange(corners.shape[0]), near]
    return out


def random_points(surf: Surface, n: int, rng: np.random.Generator) -> tuple[FloatArray, IntArray]:
    """``n`` points uniform by area over the surface (3-D area), and their polygons."""
    weights = surf.area / surf.area.sum()
    tri = rng.choice(surf.area.shape[0], size=n, p=weights)
    r1, r2 = rng.random(n), rng.random(n)
    s = np.sqrt(r1)
    a, b, c = (surf.corners[tri, k] for k in range(3))
    pts = (1 - s)[:, None] * a + (s * (1 - r2))[:, None] * b + (s * r2)[:, None] * c
    return pts, surf.poly_of[tri]


def walls(mesh: PolyMesh3D, adjacency: IntArray) -> tuple[FloatArray, FloatArray]:
    """The boundary edges of the mesh (no polygon across): their end points (3-D)."""
    polys = mesh.polygons
    place, nxt = edge_places(polys)
    wall = adjacency.ravel()[place] < 0
    flat = polys.ravel()
    a = mesh.vertices[flat[place[wall]]]
    b = mesh.vertices[flat[nxt[wall]]]
    return a, b
