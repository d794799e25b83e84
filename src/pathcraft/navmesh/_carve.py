"""Carving obstacles into a navigation mesh at run time, and taking them out again.

:meth:`NavMesh.add_obstacle <pathcraft.NavMesh.add_obstacle>` cuts a polygon out of the
walkable area; :meth:`NavMesh.remove_obstacle <pathcraft.NavMesh.remove_obstacle>`
gives the area back. Only the polygons an obstacle touches are rebuilt:

1. the *region*: the polygons within rounding (1e-9 of the coordinates' size) of the
   obstacle, touching included, found with the mesh's STRtree. When removing, the area
   under the obstacle that was walkable before any carving (the polygons of the mesh
   as it was first carved) minus the obstacles that remain is added to it;
2. each polygon of the region minus the obstacle (when adding) is triangulated
   (constrained Delaunay, its straight-angle vertices dropped first) and the triangles
   of one area cost are merged across the region into convex polygons, by the
   functions :meth:`NavMesh.from_geometry <pathcraft.NavMesh.from_geometry>` builds
   with (:func:`pathcraft.navmesh._sources.triangles`, ``oriented``, ``merge_convex``),
   so a new piece keeps the cost of the polygons it came from. A point computed twice
   (where an obstacle's outline crosses an edge) within rounding of a vertex is that
   vertex;
3. every vertex lying inside an edge of a new piece (or of a polygon next to the
   region) is inserted into that edge, so neighbours share whole edges (no
   T-junctions); straight-angle corners no other polygon uses are dropped (two walls
   in line, which a hair of rounding would make a hair concave);
4. :func:`splice` puts the pieces in the dead polygons' places and moves the last
   polygons into the places left over, so polygon ids stay put except for the ones
   reported as changed; every living polygon's arrays shift by one offset, and only
   the edges that faced a dead polygon and the pieces' edges are matched again.

The result covers the same walkable area as a mesh built from scratch from the final
geometry, so the optimal (Polyanya) path lengths are the same (the decomposition may
differ, and with it the funnel's corridor choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._unique import sorted_unique
from pathcraft.navmesh import _sources
from pathcraft.navmesh._build import Topology

__all__ = ["Carving", "Splice", "check_obstacle", "splice"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def check_obstacle(shape: Any) -> Any:
    """A valid shapely Polygon (or MultiPolygon) with area, from ``shape``: a shapely
    polygon or an ``(n, 2)`` array of ``(x, y)`` points around it."""
    if isinstance(shape, shapely.Geometry):
        geom = shape
        if geom.geom_type not in ("Polygon", "MultiPolygon"):
            raise ValueError(f"shape must be a Polygon or MultiPolygon; got a {geom.geom_type}")
    else:
        try:
            pts = np.array(shape, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                "shape must be a shapely Polygon or an (n, 2) array of points (x, y); "
                f"got {type(shape).__name__}"
            ) from exc
        if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 3:
            raise ValueError(
                f"shape must be an (n, 2) array of at least 3 points (x, y); got shape {pts.shape}"
            )
        if not np.isfinite(pts).all():
            raise ValueError("shape has non-finite coordinates")
        geom = shapely.Polygon(pts)
    if geom.is_empty or not np.isfinite(shapely.get_coordinates(geom)).all():
        raise ValueError("shape is empty or has non-finite coordinates")
    if not shapely.is_valid(geom):
        raise ValueError(f"shape is not a valid polygon ({shapely.is_valid_reason(geom)})")
    if shapely.area(geom) <= 0:
        raise ValueError("shape has no area")
    return geom


@dataclass(frozen=True)
class Splice:
    """A mesh after a local rebuild: what :class:`pathcraft.NavMesh` swaps in.

    Attributes
    ----------
    top : Topology
        The new flat arrays.
    shapes, centroids, costs : ndarray
        Per polygon, in the new numbering (``costs``: the area costs).
    changed : ndarray of intp
        The ids (new numbering) of the polygons that are new or moved.
    removed : int
        How many polygons the mesh lost (ids from the new count up are gone).
    """

    top: Topology
    shapes: npt.NDArray[Any]
    centroids: FloatArray
    costs: FloatArray
    changed: IntArray
    removed: int


@dataclass(frozen=True)
class Mesh:
    """What a rebuild reads from a mesh (:attr:`pathcraft.NavMesh.parts` and costs)."""

    top: Topology
    shapes: npt.NDArray[Any]
    tree: Any
    centroids: FloatArray
    costs: FloatArray
    scale: float


def _ring_ids(top: Topology, polys: IntArray) -> IntArray:
    """The polygons across the edges of ``polys`` that are not in ``polys``."""
    places = (
        np.concatenate([np.arange(top.poff[p], top.poff[p + 1]) for p in polys.tolist()])
        if polys.size
        else np.empty(0, dtype=np.int64)
    )
    nbr = top.nbr[places]
    nbr = sorted_unique(nbr[nbr >= 0]).astype(np.intp)
    return nbr[~np.isin(nbr, polys)]


def _near(tree: Any, geom: Any, scale: float) -> Any:
    """The polygons of ``tree`` touching ``geom`` or within rounding of it (1e-9 of the
    coordinates' size ``scale``: a corner computed where an obstacle's outline crossed
    an edge can lie a hair outside the obstacle)."""
    return tree.query(geom, predicate="dwithin", distance=1e-9 * scale)


def _parts(shapes: Any, costs: Any, obstacle: Any) -> list[tuple[Any, float]]:
    """Each shape minus ``obstacle`` (when given) with its area cost, empty ones
    dropped."""
    geoms = np.asarray(shapes, dtype=object)
    if obstacle is not None:
        geoms = shapely.difference(geoms, obstacle)
    pieces, owner = shapely.get_parts(geoms, return_index=True)
    keep = (shapely.get_type_id(pieces) == shapely.GeometryType.POLYGON) & (
        shapely.area(pieces) > 0
    )
    cost = np.asarray(costs, dtype=np.float64)[owner[keep]]
    return list(zip(pieces[keep].tolist(), cost.tolist(), strict=True))


def _ids(
    pts: FloatArray, xy: FloatArray, known: IntArray, eps: float
) -> tuple[IntArray, FloatArray]:
    """Vertex ids for points ``pts``: the id of a vertex of ``known`` within ``eps``
    (the same point, computed twice), else a new vertex appended to ``xy`` (points
    within ``eps`` of each other become one)."""
    uniq, inverse = np.unique(pts, axis=0, return_inverse=True)
    ids = np.full(uniq.shape[0], -1, dtype=np.intp)
    geoms = shapely.points(uniq)
    if known.size:
        tree = shapely.STRtree(shapely.points(xy[known]))
        which, near = tree.query(geoms, predicate="dwithin", distance=eps)
        ids[which[::-1]] = known[near[::-1]]  # the first match wins
    fresh = np.flatnonzero(ids < 0)
    if fresh.size:
        rep = np.arange(fresh.size)
        tree = shapely.STRtree(geoms[fresh])
        a, b = tree.query(geoms[fresh], predicate="dwithin", distance=eps)
        for i, j in zip(a.tolist(), b.tolist(), strict=True):
            rep[max(i, j)] = min(rep[max(i, j)], rep[min(i, j)])
        first = np.flatnonzero(rep == np.arange(fresh.size))
        slot = np.empty(fresh.size, dtype=np.intp)
        slot[first] = xy.shape[0] + np.arange(first.size)
        slot = slot[rep]
        ids[fresh] = slot
        xy = np.concatenate((xy, uniq[fresh[first]]))
    return ids[inverse.ravel()], xy


def _pieces(
    xy: FloatArray, parts: list[tuple[Any, float]], known: IntArray, eps: float
) -> tuple[FloatArray, list[IntArray], list[float]]:
    """The convex pieces of ``parts`` (polygons with their area costs): each part
    triangulated (constrained Delaunay) and the triangles of one area cost merged
    across the parts (Hertel-Mehlhorn), by the functions
    :meth:`NavMesh.from_geometry` builds with. Vertex ids index the returned ``xy``
    (``xy`` with the new points appended, see :func:`_ids`)."""
    pieces: list[IntArray] = []
    costs: list[float] = []
    if not parts:
        return xy, pieces, costs
    geoms = shapely.simplify(np.array([g for g, _ in parts], dtype=object), 0.0)  # as from_geometry
    coords, owner = _sources.triangles(geoms)
    which = np.array([c for _, c in parts])[owner]
    flat = coords.reshape(-1, 2)
    ids, xy = _ids(flat, xy, known, eps)
    tris = ids.reshape(-1, 3)
    distinct = (tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) & (tris[:, 0] != tris[:, 2])
    for cost in np.unique(which).tolist():
        group = _sources.oriented(xy, tris[distinct & (which == cost)])
        merged = _sources.merge_convex(xy, group)
        pieces += merged
        costs += [float(cost)] * len(merged)
    return xy, pieces, costs


def _split_edges(
    xy: FloatArray, polys: list[IntArray], candidates: IntArray, scale: float
) -> list[IntArray]:
    """``polys`` with every candidate vertex that lies inside one of their edges
    inserted there (in order along the edge)."""
    if not polys or candidates.size == 0:
        return polys
    sizes = np.array([p.size for p in polys])
    flat = np.concatenate(polys)
    start = np.repeat(np.cumsum(sizes) - sizes, sizes)
    nxt_local = np.arange(flat.size) - start + 1
    nxt_local[nxt_local == np.repeat(sizes, sizes)] = 0
    a = flat
    b = flat[start + nxt_local]
    segs = shapely.linestrings(
        np.stack((xy[a], xy[b]), axis=1).reshape(-1, 2), indices=np.repeat(np.arange(a.size), 2)
    )
    eps = 1e-9 * scale
    tree = shapely.STRtree(shapely.points(xy[candidates]))
    edge, cand = tree.query(segs, predicate="dwithin", distance=eps)
    if edge.size == 0:
        return polys
    c = candidates[cand]
    keep = (c != a[edge]) & (c != b[edge])
    edge, c = edge[keep], c[keep]
    d = xy[b[edge]] - xy[a[edge]]
    t = ((xy[c] - xy[a[edge]]) * d).sum(axis=1) / (d * d).sum(axis=1)
    inside = (t > 1e-12) & (t < 1 - 1e-12)
    edge, c, t = edge[inside], c[inside], t[inside]
    if edge.size == 0:
        return polys
    order = np.lexsort((t, edge))
    edge, c = edge[order], c[order]
    insert: dict[int, list[int]] = {}
    for e, v in zip(edge.tolist(), c.tolist(), strict=True):
        insert.setdefault(e, []).append(v)
    out: list[IntArray] = []
    base = 0
    for poly in polys:
        ring: list[int] = []
        for k, v in enumerate(poly.tolist()):
            ring.append(v)
            ring += insert.get(base + k, [])
        out.append(np.array(ring, dtype=np.intp))
        base += poly.size
    return out


def _drop_straight(
    xy: FloatArray, pieces: list[IntArray], elsewhere: npt.NDArray[Any], scale: float
) -> list[IntArray]:
    """The pieces without their straight-angle corners (within rounding) that no other
    polygon uses (two walls in line), as ``shapely.simplify(geom, 0)`` leaves
    :meth:`NavMesh.from_geometry`'s outline: a corner a hair off the line would be a
    hair concave."""
    if not pieces:
        return pieces
    flat = np.concatenate(pieces)
    count = np.bincount(flat, minlength=xy.shape[0])
    count[elsewhere] += 1
    sizes = np.array([p.size for p in pieces])
    start = np.repeat(np.cumsum(sizes) - sizes, sizes)
    local = np.arange(flat.size) - start
    size = np.repeat(sizes, sizes)
    pts = xy[flat]
    prev = xy[flat[start + (local - 1) % size]]
    nxt = xy[flat[start + (local + 1) % size]]
    a = pts - prev
    b = nxt - pts
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]  # |cross| / |next - prev|: off the line
    straight = (np.abs(cross) <= 1e-9 * scale * np.hypot(*(nxt - prev).T)) & (
        (a * b).sum(axis=1) > 0
    )
    drop = straight & (count[flat] == 1)
    if not drop.any():
        return pieces
    out: list[IntArray] = []
    base = 0
    for poly in pieces:
        keep = ~drop[base : base + poly.size]
        base += poly.size
        out.append(poly[keep] if keep.sum() >= 3 else poly)
    return out


def splice(top: Topology, xy: FloatArray, dead: IntArray, pieces: list[IntArray]) -> tuple[
    Topology, IntArray, IntArray
]:  # fmt: skip
    """The flat arrays with polygons ``dead`` (sorted old ids) replaced by ``pieces``
    (counter-clockwise, vertex ids into ``xy``, a superset of ``top.xy``).

    Returns ``(topology, remap, slots)``: ``remap[old id]`` is its new id (-1: dead),
    ``slots[i]`` the id of ``pieces[i]``. The pieces take the dead polygons' ids; when
    there are fewer pieces, the polygons with the highest ids move into the ids left
    over. Vertices no polygon uses any more stay in ``xy`` (see :func:`compact`)."""
    n = top.poff.shape[0] - 1
    k, m = dead.size, len(pieces)
    remap = np.arange(n + 1, dtype=np.intp)  # remap[-1]: -1 for "no neighbour"
    remap[dead] = -1
    remap[n] = -1
    if m >= k:
        new_n = n + m - k
        slots = np.concatenate((dead, np.arange(n, new_n))).astype(np.intp)
    else:
        new_n = n - (k - m)
        slots = dead[:m].astype(np.intp)
        holes = dead[m:]
        holes = holes[holes < new_n]
        movers = np.flatnonzero(remap[new_n:n] >= 0) + new_n
        remap[movers] = holes
    remap_n = remap[:n]
    alive = remap_n >= 0
    old_start = top.poff[:-1]
    old_sizes = top.poff[1:] - old_start
    piece_sizes = np.array([p.size for p in pieces], dtype=np.int64)
    sizes = np.zeros(new_n, dtype=np.int64)
    sizes[remap_n[alive]] = old_sizes[alive]
    sizes[slots] = piece_sizes
    poff = np.zeros(new_n + 1, dtype=np.int64)
    np.cumsum(sizes, out=poff[1:])
    total = int(poff[-1])
    # a living polygon's places all shift by one amount
    delta = np.zeros(n + 1, dtype=np.int64)
    delta[:n][alive] = poff[remap_n[alive]] - old_start[alive]
    places = np.flatnonzero(alive[top.poly_of])
    shift = delta[top.poly_of[places]]
    new_place = places + shift
    pv = np.empty(total, dtype=np.int32)
    pv[new_place] = top.pv[places]
    old_nbr = top.nbr[places]
    nbr_new = remap[old_nbr]  # -1 for walls and dead neighbours
    nbr = np.full(total, -1, dtype=np.int32)
    nbr[new_place] = nbr_new
    twin = np.full(total, -1, dtype=np.int64)
    still = nbr_new >= 0
    old_twin = top.twin[places[still]]
    twin[new_place[still]] = old_twin + delta[old_nbr[still]]
    poly_of = np.repeat(np.arange(new_n, dtype=np.int32), sizes)
    nxt = np.arange(1, total + 1, dtype=np.int64)
    nxt[poff[1:] - 1] = poff[:-1]
    # match the open edges again: the pieces' and those that faced a dead polygon
    piece_places = np.empty(0, dtype=np.int64)
    if m:
        starts = np.repeat(poff[slots] - (np.cumsum(piece_sizes) - piece_sizes), piece_sizes)
        piece_places = starts + np.arange(int(piece_sizes.sum()))
        pv[piece_places] = np.concatenate(pieces)
    faced = (old_nbr >= 0) & ~still
    open_places = np.concatenate((new_place[faced], piece_places))
    if open_places.size:
        nv = xy.shape[0]
        u = pv[open_places].astype(np.int64)
        v = pv[nxt[open_places]].astype(np.int64)
        key = u * nv + v
        order = np.argsort(key)
        sorted_keys = key[order]
        rev = v * nv + u
        pos = np.minimum(np.searchsorted(sorted_keys, rev), sorted_keys.size - 1)
        hit = sorted_keys[pos] == rev
        other = open_places[order[pos[hit]]]
        twin[open_places[hit]] = other
        nbr[open_places[hit]] = poly_of[other]
    boundary = nbr < 0
    corner = np.zeros(xy.shape[0], dtype=np.uint8)
    corner[pv[boundary]] = 1
    corner[pv[nxt[boundary]]] = 1
    degree = (sizes - np.add.reduceat(boundary, poff[:-1]) if new_n else sizes).astype(np.int32)
    new_top = Topology(
        xy=np.ascontiguousarray(xy), poff=poff, pv=pv, nbr=nbr, twin=twin,
        poly_of=poly_of, corner=corner, degree=degree,
    )  # fmt: skip
    return new_top, remap_n, slots


def compact(top: Topology) -> Topology:
    """``top`` without the vertices no polygon uses, once they are a fifth of all (they
    do no harm: no polygon names them and no search visits them)."""
    used = np.bincount(top.pv, minlength=top.xy.shape[0]) > 0
    if 5 * int(used.sum()) > 4 * used.size:
        return top
    index = (np.cumsum(used) - 1).astype(np.int32)
    return Topology(
        xy=np.ascontiguousarray(top.xy[used]), poff=top.poff, pv=index[top.pv], nbr=top.nbr,
        twin=top.twin, poly_of=top.poly_of, corner=top.corner[used], degree=top.degree,
    )  # fmt: skip


def rebuild(mesh: Mesh, dead: IntArray, parts: list[tuple[Any, float]]) -> Splice:
    """Replace the polygons ``dead`` by the convex pieces of ``parts`` (polygons, each
    with its area cost), fixing T-junctions with the polygons around them."""
    top = mesh.top
    ring = _ring_ids(top, dead)
    touching = sorted_unique(_near(mesh.tree, mesh.shapes[dead], mesh.scale)[1])
    around = np.union1d(dead, touching)
    vids = sorted_unique(np.concatenate(
        [top.pv[top.poff[p] : top.poff[p + 1]] for p in around.tolist()] + [np.empty(0, np.int32)]
    ))  # fmt: skip
    scale = mesh.scale
    xy, pieces, costs = _pieces(top.xy, parts, vids.astype(np.intp), 1e-9 * scale)
    ring_polys = [top.pv[top.poff[p] : top.poff[p + 1]].astype(np.intp) for p in ring.tolist()]
    new_ids = sorted_unique(np.concatenate(pieces)) if pieces else np.empty(0, dtype=np.intp)
    candidates = np.union1d(vids, new_ids).astype(np.intp)
    pieces = _split_edges(xy, pieces, candidates, scale)
    fixed = _split_edges(xy, ring_polys, new_ids, scale)
    elsewhere = np.concatenate(
        [top.pv[top.poff[p] : top.poff[p + 1]] for p in np.setdiff1d(around, dead).tolist()]
        + [np.empty(0, np.int32)]
    )  # fmt: skip
    pieces = _drop_straight(xy, pieces, elsewhere, scale)
    grown = [i for i, (a, b) in enumerate(zip(ring_polys, fixed, strict=True)) if a.size != b.size]
    if grown:  # a polygon next to the region gained a vertex: replace it too
        dead = np.sort(np.concatenate((dead, ring[grown]))).astype(np.intp)
        pieces = pieces + [fixed[i] for i in grown]
        costs = costs + [float(mesh.costs[ring[i]]) for i in grown]
    new_top, remap, slots = splice(top, xy, dead, pieces)
    n = new_top.poff.shape[0] - 1
    old_n = top.poff.shape[0] - 1
    kept = np.flatnonzero(remap >= 0)
    shapes = np.empty(n, dtype=object)
    centroids = np.empty((n, 2), dtype=np.float64)
    new_costs = np.ones(n, dtype=np.float64)
    shapes[remap[kept]] = mesh.shapes[kept]
    centroids[remap[kept]] = mesh.centroids[kept]
    new_costs[remap[kept]] = mesh.costs[kept]
    if pieces:
        made = np.asarray(
            shapely.polygons(
                shapely.linearrings(
                    xy[np.concatenate(pieces)],
                    indices=np.repeat(np.arange(len(pieces)), [p.size for p in pieces]),
                )
            )
        )
        shapes[slots] = made
        centroids[slots] = shapely.get_coordinates(shapely.centroid(made))
        new_costs[slots] = costs
    moved = remap[kept][remap[kept] != kept]
    changed = sorted_unique(np.concatenate((slots, moved))).astype(np.intp)
    return Splice(compact(new_top), shapes, centroids, new_costs, changed, max(old_n - n, 0))


class Carving:
    """The obstacles carved into one mesh and what removing them needs: the polygons
    (with their area costs) of the mesh before its first carve.

    Examples
    --------
    >>> from shapely import box
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
    >>> ident = mesh.add_obstacle(box(4, 4, 6, 6))
    >>> mesh.area, list(mesh.obstacles)
    (96.0, [0])
    """

    __slots__ = ("_base", "_costs", "_next", "_obstacles", "_tree")

    def __init__(self, mesh: Mesh) -> None:
        self._base = mesh.shapes  # the walkable area before any carving
        self._tree = mesh.tree
        self._costs = mesh.costs
        self._obstacles: dict[int, Any] = {}
        self._next = 0

    @property
    def obstacles(self) -> dict[int, Any]:
        """The obstacles by id (a new dict)."""
        return dict(self._obstacles)

    def add(self, shape: Any, mesh: Mesh) -> tuple[int, Splice | None]:
        """Carve ``shape`` (checked): its id and the rebuilt mesh (None when it
        touches no polygon)."""
        obstacle = check_obstacle(shape)
        ident = self._next
        self._next += 1
        self._obstacles[ident] = obstacle
        dead = np.sort(_near(mesh.tree, obstacle, mesh.scale)).astype(np.intp)
        if dead.size == 0:
            return ident, None
        parts = _parts(mesh.shapes[dead], mesh.costs[dead], obstacle)
        return ident, rebuild(mesh, dead, parts)

    def check_id(self, obstacle_id: Any) -> int:
        """``obstacle_id`` as the int id of a carved obstacle, or a clear error."""
        if isinstance(obstacle_id, bool) or not isinstance(obstacle_id, (int, np.integer)):
            raise TypeError(f"obstacle_id must be an int (from add_obstacle); got {obstacle_id!r}")
        ident = int(obstacle_id)
        if ident not in self._obstacles:
            known = sorted(self._obstacles)
            gone = " (it was removed already)" if 0 <= ident < self._next else ""
            raise KeyError(f"no obstacle {ident} on this mesh{gone}; its obstacles are {known}")
        return ident

    def remove(self, obstacle_id: Any, mesh: Mesh) -> Splice | None:
        """Take obstacle ``obstacle_id`` out: the rebuilt mesh (None when nothing
        under it was walkable)."""
        ident = self.check_id(obstacle_id)
        obstacle = self._obstacles.pop(ident)
        base = self._tree.query(obstacle, predicate="intersects")  # exact: built once
        if base.size == 0:
            return None
        others = [o for o in self._obstacles.values() if o.intersects(obstacle)]
        under = shapely.intersection(self._base[base], obstacle)  # walkable when built
        freed = _parts(under, self._costs[base], shapely.union_all(others) if others else None)
        if not freed:
            return None
        dead = np.sort(_near(mesh.tree, obstacle, mesh.scale)).astype(np.intp)
        parts = _parts(mesh.shapes[dead], mesh.costs[dead], None) + freed
        return rebuild(mesh, dead, parts)
