"""The search arrays of a :class:`~pathcraft.navmesh3d.PolyMesh3D` and the searches
:class:`~pathcraft.navmesh3d.NavMesh3D` runs on them (see its module,
:mod:`pathcraft.navmesh3d._world`, for how a query runs).

:func:`prepare` makes the arrays once per mesh (again when tiles change): the plane
projection of the polygons with their vertices numbered per floor (vertices two
polygons share in 3-D are one, vertices over one another stay apart), the portal graph
over it with the portals' points in 3-D, the surface triangles, the STRtree and the
connected parts. The rest locates points in 3-D and turns a search's answer into a
path on the surface.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._core import graph_search as _graph_kernel
from pathcraft._core import navmesh as _walk
from pathcraft._core import polyanya as _polyanya
from pathcraft._kernels import FOUND
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.graph.kit import kernel_args
from pathcraft.navmesh.kit import (
    MoveResult,
    SpatialIndex,
    Topology,
    build_portals,
    corridor_of,
    move_along_surface,
    pull_string,
    topology,
)
from pathcraft.navmesh3d import _surface
from pathcraft.navmesh3d._polymesh import PolyMesh3D, edge_matches, next_places
from pathcraft.result import Answer, PathResult, build_result

__all__ = ["Built", "at", "located", "move_along", "nearest", "nothing", "prepare", "start"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Built:
    """What the queries read of one polygon mesh, made again when tiles change."""

    mesh: PolyMesh3D
    top: Topology  # the plane projection, vertices numbered per floor
    portals: Any
    surface: _surface.Surface
    spatial: SpatialIndex
    component: npt.NDArray[np.int32]


def prepare(mesh: PolyMesh3D, height_tolerance: float) -> Built:
    """The search arrays of ``mesh`` (see the module documentation)."""
    verts, polys = mesh.vertices, mesh.polygons
    mine, theirs = edge_matches(verts, polys, height_tolerance)
    # vertices of shared edges made one: a's start is b's end and the other way round
    flat = polys.ravel().astype(np.int64)
    nxt = next_places(polys)
    u = np.concatenate((flat[mine], flat[nxt[mine]]))
    v = np.concatenate((flat[nxt[theirs]], flat[theirs]))
    label = np.arange(verts.shape[0], dtype=np.int64)
    while u.size:
        low = np.minimum(label[u], label[v])
        if (label[u] == low).all() and (label[v] == low).all():
            break
        np.minimum.at(label, u, low)
        np.minimum.at(label, v, low)
        label = label[label]
    used = polys >= 0
    labelled = label[np.maximum(polys, 0)]
    counts = used.sum(axis=1)
    rows = np.split(labelled[used].astype(np.intp), np.cumsum(counts)[:-1])
    top = topology(np.ascontiguousarray(verts[:, :2]), rows)
    top3 = dataclasses.replace(top, xy=np.ascontiguousarray(verts))
    portals = build_portals(top3)
    corners = np.where(used[:, :, None], verts[labelled, :2], 0.0)
    centroids = corners.sum(axis=1) / counts[:, None]
    component = np.full(polys.shape[0], -1, dtype=np.int32)
    _walk.components(top.poff, top.nbr, component)
    return Built(
        mesh, top, portals, _surface.surface(mesh), SpatialIndex(top, centroids), component
    )


def at(built: Built, p: FloatArray, vertical: float) -> Polys:
    """The polygons holding ``p`` in 3-D: over or under it within ``vertical``, at the
    height nearest it (several on a shared edge)."""
    cand = built.spatial.containing(p[:2])
    if cand.size == 0:
        return cand
    h = _surface.heights(built.surface, cand, np.repeat(p[None, :2], cand.size, axis=0))
    dz = np.abs(h - p[2])
    best = float(dz.min())
    if best > vertical:
        return np.empty(0, dtype=np.int32)
    out: Polys = cand[dz <= best + 1e-9 * built.surface.scale].astype(np.int32)
    return out


def move_along(built: Built, s: FloatArray, sp: Polys, e: FloatArray) -> MoveResult:
    """Detour's ``moveAlongSurface`` from ``s`` (held by the polygons ``sp``) towards
    ``e``'s ``(x, y)``, over the plane projection (so it stays on ``s``'s floor), the
    point reached lifted onto the surface."""
    move = move_along_surface(built.top, int(sp[0]), s[:2], e[:2], built.surface.scale)
    z = _surface.heights(built.surface, move.polygons[-1:], move.position[None])[0]
    point = np.array([move.position[0], move.position[1], z])
    return dataclasses.replace(move, position=point)


def nearest(built: Built, pts: FloatArray, vertical: float) -> tuple[FloatArray, Polys]:
    """The point of the surface for each point (see :meth:`NavMesh3D.nearest_point
    <pathcraft.navmesh3d.NavMesh3D.nearest_point>`) and its polygon."""
    poly, height = located(built, pts, vertical)
    out = pts.copy()
    out[:, 2] = height
    off = np.flatnonzero(poly < 0)
    if off.size:  # the nearest point of the surface in 3-D
        q, w = _surface.closest_points(built.surface, pts[off])
        out[off], poly[off] = q, w
    return out, poly


def located(built: Built, pts: FloatArray, vertical: float) -> tuple[Polys, FloatArray]:
    """For each point the polygon :func:`at` gives first (-1 for none) and the surface's
    height there (nan for none), all points at once."""
    which, cand = built.spatial.tree.query(shapely.points(pts[:, :2]), predicate="intersects")
    poly = np.full(pts.shape[0], -1, dtype=np.int32)
    height = np.full(pts.shape[0], np.nan)
    if which.size:
        h = _surface.heights(built.surface, cand, pts[which, :2])
        dz = np.abs(h - pts[which, 2])
        near = dz <= vertical
        which, cand, h, dz = which[near], cand[near], h[near], dz[near]
        order = np.lexsort((cand, dz, which))  # per point: nearest in height, lowest id
        first = order[np.r_[True, which[order][1:] != which[order][:-1]]] if order.size else order
        poly[which[first]] = cand[first]
        height[which[first]] = h[first]
    return poly, height


def start(
    built: Built, world: Any, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    opts: SearchOptions, vertical: float,
) -> CompiledSearch:  # fmt: skip
    """The search from ``s`` (held by the polygons ``sp``) to ``g`` (``gp``) as a
    step machine whose result is the path on the surface; an edit of ``world``
    (its ``version``) cancels it."""
    unreachable = not np.isin(built.component[gp], built.component[sp]).any()
    if unreachable and not opts.partial:
        return CompiledSearch.ended(nothing("unreachable", 0, 0))
    if unreachable:  # the reachable point nearest the goal
        g, gp = _nearest_in(built, built.component[sp], g, vertical)
    common = np.intersect1d(sp, gp)
    if common.size or built.portals.sides.shape[0] == 0:
        poly = common[:1] if common.size else sp[:1]
        found = _walk_corridor(built, s, g, poly.astype(np.int32))
        if unreachable:
            found = dataclasses.replace(found, found=False, reason="unreachable")
        return CompiledSearch.ended(found)
    if opts.algorithm == "optimal":
        return _optimal(built, world, s, sp, g, gp, opts, vertical, unreachable)
    portals = built.portals
    src, src_cost = portals.ends(sp, s)
    dst, dst_cost = portals.ends(gp, g)
    args, settings = kernel_args(
        portals.graph, "astar", src, -1, dst, source_costs=src_cost, exit_costs=dst_cost,
        target=g, heuristic="euclidean", max_expansions=opts.max_expansions,
        weight=opts.weight, partial=opts.partial,
    )  # fmt: skip

    def make(ws: Any) -> Any:
        return _graph_kernel.GraphSearch(*args(ws), **settings)

    def finish(answer: tuple[Any, ...], t0: float) -> PathResult:
        result = _finish(built, answer, s, sp, g, gp, opts.partial)
        if unreachable:
            result = dataclasses.replace(result, found=False, reason="unreachable")
        return dataclasses.replace(result, elapsed=time.perf_counter() - t0)

    size = portals.graph.num_nodes + 1
    return CompiledSearch(make, finish, _graph_kernel.Workspace, size, world=world)


class _CorridorSearch(_polyanya.PolyanyaSearch):
    """Polyanya's step machine whose answer carries the polygons its path passes
    through (its corridor), read before the search gives its workspace back."""

    def answer(self) -> tuple[Any, ...]:
        return (*super().answer(), self.corridor())


def _optimal(
    built: Built, world: Any, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    opts: SearchOptions, vertical: float, unreachable: bool,
) -> CompiledSearch:  # fmt: skip
    """Polyanya's search from ``s`` to ``g`` over the plane projection (the flat
    mesh's kernel, fed the polygons with their vertices numbered per floor, so it
    walks the 3-D adjacency): the shortest path seen from above, pulled through the
    polygons it passes and lifted onto the surface."""
    top = built.top
    limit = -1 if opts.max_expansions is None else int(opts.max_expansions)

    def make(ws: Any) -> Any:
        return _CorridorSearch(
            top.xy, top.poff, top.pv, top.nbr, top.twin, top.poly_of, top.corner,
            top.degree, ws, float(s[0]), float(s[1]), sp, float(g[0]), float(g[1]), gp,
            limit,
        )  # fmt: skip

    def finish(answer: tuple[Any, ...], t0: float) -> PathResult:
        status, _path, _cost, expanded, generated = Answer.read(answer[:5])[:5]
        done, made = int(expanded), int(generated)
        if status == FOUND:
            walked = _walk_corridor(built, s, g, answer[5])
            result = dataclasses.replace(walked, expanded=done, generated=made)
        elif opts.partial:
            result = _partial(built, world, s, sp, g, gp, opts, vertical)
            result = dataclasses.replace(
                result, reason=nothing(status).reason, expanded=done, generated=made
            )
        else:
            result = nothing(status, done, made)
        if unreachable:
            result = dataclasses.replace(result, found=False, reason="unreachable")
        return dataclasses.replace(result, elapsed=time.perf_counter() - t0)

    size = max(top.xy.shape[0], top.poff.shape[0] - 1)
    return CompiledSearch(make, finish, _polyanya.Workspace, size, world=world)


def _partial(
    built: Built, world: Any, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    opts: SearchOptions, vertical: float,
) -> PathResult:  # fmt: skip
    """A falsy result whose path is the shortest to where the funnel's search with
    the same limit gets (the point nearest the goal on the polygon it expanded
    closest to the goal), as the flat mesh's ``"optimal"`` answers ``partial``."""
    funnel = dataclasses.replace(opts, algorithm="funnel")
    toward = _run(start(built, world, s, sp, g, gp, funnel, vertical))
    end = toward.path[-1]
    held = at(built, end, vertical)
    whole = dataclasses.replace(opts, max_expansions=None, partial=False)
    best = toward
    if held.size:
        best = _run(_optimal(built, world, s, sp, end, held, whole, vertical, False)) or toward
    return dataclasses.replace(best, found=False)


def _run(search: CompiledSearch) -> PathResult:
    """The result of ``search`` run to its end at once."""
    search.step()
    return search.result


def _finish(
    built: Built, answer: tuple[Any, ...], s: FloatArray, sp: Polys, g: FloatArray,
    gp: Polys, partial: bool,
) -> PathResult:  # fmt: skip
    """The search's answer as a path on the surface."""
    status, nodes, _cost, expanded, generated = Answer.read(answer)[:5]
    done, made = int(expanded), int(generated)
    if status == FOUND:
        polys = corridor_of(built.portals, np.asarray(nodes[:-1]), sp, gp)
        walked = _walk_corridor(built, s, g, polys)
        return dataclasses.replace(walked, expanded=done, generated=made)
    if not partial:
        return nothing(status, done, made)
    polys = corridor_of(built.portals, np.asarray(nodes), sp, None) if len(nodes) else sp[:1]
    near = _nearest_on(built, int(polys[-1]), g)
    toward = _walk_corridor(built, s, near, polys)
    failed = nothing(status, done, made)
    return dataclasses.replace(failed, path=toward.path, cost=toward.cost)


def _walk_corridor(built: Built, s: FloatArray, g: FloatArray, polys: Polys) -> PathResult:
    """The string pulled through the corridor ``polys`` and lifted onto the surface."""
    if (s == g).all():
        return build_result(None, s[None].copy(), 0.0)
    top = built.top
    flat = pull_string(top, s[:2], g[:2], polys)
    k = polys.shape[0]
    left, right = np.empty((k - 1, 2)), np.empty((k - 1, 2))
    if k > 1:
        _walk.corridor_portals(top.xy, top.poff, top.pv, top.nbr, polys, left, right)
    path = _surface.lift(built.surface, polys, flat, left, right, float(s[2]), float(g[2]))
    return build_result(None, path, _surface.path_length(path))


def _nearest_on(built: Built, poly: int, g: FloatArray) -> FloatArray:
    """The point of polygon ``poly``'s surface nearest ``g`` in 3-D."""
    surf = built.surface
    lo, hi = int(surf.first[poly]), int(surf.first[poly + 1])
    sub = dataclasses.replace(surf, corners=surf.corners[lo:hi], poly_of=surf.poly_of[lo:hi])
    near: FloatArray = _surface.closest_points(sub, g[None])[0][0]
    return near


def _nearest_in(
    built: Built, parts: npt.NDArray[np.int32], g: FloatArray, vertical: float
) -> tuple[FloatArray, Polys]:
    """The point nearest ``g`` on the polygons of the components ``parts``."""
    surf = built.surface
    keep = np.isin(built.component[surf.poly_of], parts)
    sub = dataclasses.replace(surf, corners=surf.corners[keep], poly_of=surf.poly_of[keep])
    q, w = _surface.closest_points(sub, g[None])
    held = at(built, q[0], vertical)
    held = held[np.isin(built.component[held], parts)] if held.size else held
    return q[0], (held if held.size else w[:1]).astype(np.int32)


def nothing(status: int | str, expanded: int = 0, generated: int = 0) -> PathResult:
    """No path: a falsy result of ``status`` with an empty ``(0, 3)`` path."""
    return build_result(status, np.empty((0, 3)), math.inf, expanded=expanded, generated=generated)
