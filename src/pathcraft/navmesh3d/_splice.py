"""Tiles' polygons put together: the tiles of a tiled build joined into one mesh
(:func:`join`), and one tile's polygons built anew put in place of its old ones
(:func:`splice`, what :func:`~pathcraft.navmesh3d.rebuild_tile` does).

Polygons of side-by-side tiles share the vertices of their common edge: vertices on a
tile edge are welded (the same cell corner and band of heights) and each polygon's
tile-edge sides take in the vertices of the polygons across as straight angles
(:func:`split_tile_edges`), so that :meth:`PolyMesh3D.adjacency
<pathcraft.navmesh3d.PolyMesh3D.adjacency>` links them (Detour links tiles by
overlapping edges instead). ``size`` is a tile's side in world units.

A splice works in proportion to the tile and its four neighbours (their rows are
redone one by one); over the rest of the mesh it only copies arrays and runs a few
masks, without sorting or hashing, so that rebuilding a tile costs little more than
building it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique
from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._polymesh import Detail, PolyMesh3D
from pathcraft.navmesh3d._tiles import fan_detail

__all__ = ["join", "splice", "split_tile_edges", "weld_keys"]


def weld_keys(verts: npt.NDArray[np.float64], config: BuildConfig) -> npt.NDArray[np.int64]:
    """One integer per vertex, equal for vertices welded together: the same cell corner
    in (x, y) and the same band of 3 cell heights (21 bits each)."""
    cells = np.round(verts[:, :2] / config.cell_size).astype(np.int64)
    level = np.floor(verts[:, 2] / (3 * config.cell_height)).astype(np.int64)
    span = 1 << 20
    return ((cells[:, 0] + span) << 42) | ((cells[:, 1] + span) << 21) | (level + span)


def join(pieces: list[PolyMesh3D], config: BuildConfig, size: float) -> PolyMesh3D:
    """One mesh of tiles' meshes, vertices on tile edges welded (same cell corner and
    height band) and put into the tile-edge sides of the polygons across."""
    pieces = [p for p in pieces if p.num_polygons]
    if not pieces:
        raise ValueError("the level has no walkable place: no polygon was built")
    nvp = max(p.max_verts_per_poly for p in pieces)
    verts = np.concatenate([p.vertices for p in pieces])
    polys = []
    offset = 0
    for p in pieces:
        rows = np.full((p.num_polygons, nvp), -1, dtype=np.int64)
        rows[:, : p.max_verts_per_poly] = np.where(p.polygons >= 0, p.polygons + offset, -1)
        polys.append(rows)
        offset += p.vertices.shape[0]
    poly = np.concatenate(polys)
    _, first, inverse = np.unique(weld_keys(verts, config), return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    new_verts = verts[first]
    poly = np.where(poly >= 0, inverse[np.maximum(poly, 0)], -1)
    tiles = np.concatenate([p.tiles for p in pieces])
    poly = split_tile_edges(new_verts, poly, config, size)
    details = [p.detail for p in pieces]
    detail = None
    if all(d is not None for d in details):
        dv, dt, do = [], [], []
        vbase = tbase = 0
        for d in details:
            assert d is not None
            dv.append(d[0])
            dt.append(d[1] + vbase)
            do.append(d[2] + np.array([tbase, 0]))
            vbase += d[0].shape[0]
            tbase += d[1].shape[0]
        detail = (np.concatenate(dv), np.concatenate(dt), np.concatenate(do))
    return PolyMesh3D(
        new_verts,
        poly,
        areas=np.concatenate([p.areas for p in pieces]),
        tiles=tiles,
        detail=detail,
    )


def splice(
    mesh: PolyMesh3D,
    fresh: PolyMesh3D,
    config: BuildConfig,
    size: float,
    corner: tuple[float, float],
    number: int,
    redo: list[int],
) -> PolyMesh3D:
    """``mesh`` with the polygons of tile ``number`` (its square's lower corner
    ``corner``) replaced by ``fresh``'s (none: the tile emptied; ``mesh`` keeps other
    tiles' polygons). ``fresh``'s vertices on the tile's sides are welded to
    ``mesh``'s there, and the sides along the tile's square of the polygons of the
    tiles ``redo`` (the tile and its four neighbours) are redone; vertices no polygon
    uses any more are dropped. The rows kept stay in order, ``fresh``'s follow."""
    gone = mesh.tiles == number
    keep = ~gone
    v = mesh.vertices
    nv = v.shape[0]
    bound = _boundary(v, corner, size)
    fbound = _boundary(fresh.vertices, corner, size)
    found = nv + np.arange(fresh.vertices.shape[0])
    if bound and fbound:  # the same cell corner and band of heights: one vertex
        ids, fids = list(bound), list(fbound)
        points = [bound[k][2] for k in ids] + [fbound[k][2] for k in fids]
        keys = weld_keys(np.array(points), config).tolist()
        known = dict(zip(keys[: len(ids)], ids, strict=True))
        for f, key in zip(fids, keys[len(ids) :], strict=True):
            found[f] = known.get(key, found[f])
        new = found >= nv
        found[new] = nv + np.arange(int(new.sum()))
        verts = np.concatenate([v, fresh.vertices[new]])
    else:
        verts = np.concatenate([v, fresh.vertices])
    numbers = found.tolist()
    for f, where in fbound.items():  # a welded vertex keeps its own point
        bound.setdefault(numbers[f], where)
    kept = mesh.polygons[keep]
    fp = fresh.polygons
    poly = np.full(
        (kept.shape[0] + fp.shape[0], max(kept.shape[1], fp.shape[1])), -1, dtype=np.int64
    )
    poly[: kept.shape[0], : kept.shape[1]] = kept
    poly[kept.shape[0] :, : fp.shape[1]] = np.where(fp >= 0, found[fp], -1)
    tiles = np.concatenate([mesh.tiles[keep], fresh.tiles]).astype(np.int32)
    areas = np.concatenate([mesh.areas[keep], fresh.areas])
    index = np.flatnonzero((tiles[:, None] == np.asarray(redo)).any(axis=1))
    rows = {  # those with a side on the square
        r: [p for p in row if p >= 0]
        for r, row in zip(index.tolist(), poly[index].tolist(), strict=True)
        if sum(p in bound for p in row) >= 2
    }
    _redo_sides(rows, bound, config.agent_max_climb)
    width = max([poly.shape[1], *(len(row) for row in rows.values())])
    if width > poly.shape[1]:
        poly = np.concatenate(
            [poly, np.full((poly.shape[0], width - poly.shape[1]), -1, dtype=np.int64)], axis=1
        )
    if rows:
        poly[list(rows)] = [row + [-1] * (width - len(row)) for row in rows.values()]
    used = np.zeros(verts.shape[0] + 1, dtype=bool)
    used[poly.ravel()] = True  # -1 marks the last place, not a vertex
    used = used[:-1]
    if not used.all():  # the old tile's own vertices
        remap = np.append(np.cumsum(used) - 1, -1)
        verts = verts[used]
        poly = remap[poly]
    detail = _spliced_detail(mesh, gone, fresh)
    return PolyMesh3D._trusted(verts, poly.astype(np.int32), areas, tiles, detail)


#: A vertex on a tile's square: whether it lies on one of the square's two sides
#: across x and across y, which of the two (the far one: True), and its point.
Bound = dict[int, tuple[list[bool], list[bool], list[float]]]


def _boundary(verts: npt.NDArray[np.float64], corner: tuple[float, float], size: float) -> Bound:
    """The vertices on the sides of the square of side ``size`` from ``corner``."""
    tol = 1e-6
    rel = (verts[:, :2] - np.asarray(corner)) / size
    inside = (rel > -tol) & (rel < 1 + tol)
    on = ((np.abs(rel) < tol) | (np.abs(rel - 1) < tol)) & inside[:, ::-1]
    idx = np.flatnonzero(on.any(axis=1))
    return dict(
        zip(
            idx.tolist(),
            zip(on[idx].tolist(), (rel[idx] > 0.5).tolist(), verts[idx].tolist(), strict=True),
            strict=True,
        )
    )


def _redo_sides(rows: dict[int, list[int]], bound: Bound, climb: float) -> None:
    """The rows' sides along one side of the square redone in place: the straight
    angles put in before taken out, then the rows' vertices on that side put in."""

    def same_side(a: int, b: int) -> int:
        """The axis of the square's side both vertices lie on, else -1."""
        if a not in bound or b not in bound:
            return -1
        (oa, la, _), (ob, lb, _) = bound[a], bound[b]
        for axis in (0, 1):
            if oa[axis] and ob[axis] and la[axis] == lb[axis]:
                return axis
        return -1

    for r, row in rows.items():
        n = len(row)
        rows[r] = [
            row[k]
            for k in range(n)
            if not (
                (axis := same_side(row[k - 1], row[k])) >= 0
                and same_side(row[k], row[(k + 1) % n]) == axis
            )
        ]
    sides: dict[tuple[int, bool], dict[int, list[float]]] = {}
    for row in rows.values():
        for p in row:
            if p in bound:
                on, far, point = bound[p]
                for axis in (0, 1):
                    if on[axis]:
                        sides.setdefault((axis, far[axis]), {})[p] = point
    for r, row in rows.items():
        out: list[int] = []
        n = len(row)
        for e in range(n):
            a, b = row[e], row[(e + 1) % n]
            out.append(a)
            axis = same_side(a, b)
            if axis >= 0:
                cands = sides[(axis, bound[a][1][axis])].items()
                out.extend(_between(bound[a][2], bound[b][2], 1 - axis, cands, climb))
        rows[r] = out


def _between(
    pa: list[float],
    pb: list[float],
    along: int,
    cands: Iterable[tuple[int, list[float]]],
    climb: float,
) -> list[int]:
    """The candidates strictly between ``pa`` and ``pb`` along axis ``along`` (on
    their line) and within ``climb`` of the side's height there, from ``pa``."""
    span = pb[along] - pa[along]
    inside = []
    for c, pc in cands:
        t = (pc[along] - pa[along]) / span
        if 1e-9 < t < 1 - 1e-9 and abs(pc[2] - pa[2] - t * (pb[2] - pa[2])) <= climb:
            inside.append((t, c))
    return [c for _, c in sorted(inside)]


def _spliced_detail(
    mesh: PolyMesh3D, gone: npt.NDArray[np.bool_], fresh: PolyMesh3D
) -> Detail | None:
    """``mesh``'s detail without the polygons ``gone``, then ``fresh``'s (a fan for
    a mesh without one, when the other has one). The gone polygons' triangles and
    points are left where they are, unused (retired), until they outnumber the used
    ones: then they are dropped, so the arrays stay within twice what is used."""
    if mesh.detail is None and fresh.detail is None:
        return None
    dv, dt, do = mesh.detail if mesh.detail is not None else fan_detail(mesh)
    fv, ft, fo = fresh.detail if fresh.detail is not None else fan_detail(fresh)
    of = do[~gone]
    if 2 * int(of[:, 1].sum()) < dt.shape[0]:
        dv, dt, of = _compact_detail(dv, dt, of)
    fo = fo + np.array([dt.shape[0], 0], dtype=np.int32)
    return (
        np.concatenate((dv, fv)),
        np.concatenate((dt, ft + dv.shape[0])).astype(np.int32),
        np.concatenate((of, fo)).astype(np.int32),
    )


def _compact_detail(
    dv: npt.NDArray[np.float64], dt: npt.NDArray[np.int32], of: npt.NDArray[np.int32]
) -> Detail:
    """The detail triangles ``of`` names, in polygon order, and the points they use."""
    counts = of[:, 1].astype(np.int64)
    first = np.cumsum(counts) - counts
    tri = dt[np.repeat(of[:, 0] - first, counts) + np.arange(int(counts.sum()))]
    used = np.zeros(dv.shape[0], dtype=bool)
    used[tri.ravel()] = True
    tri = (np.cumsum(used) - 1)[tri]
    return dv[used], tri.astype(np.int32), np.stack((first, counts), axis=1).astype(np.int32)


def split_tile_edges(
    verts: npt.NDArray[np.float64],
    poly: npt.NDArray[np.int64],
    config: BuildConfig,
    size: float,
) -> npt.NDArray[np.int64]:
    """Polygons with the vertices of the next tile that lie on their tile-edge sides
    put into those sides (straight angles), so that the polygons on either side of a
    tile edge share their vertices and :meth:`PolyMesh3D.adjacency` links them (Detour
    links tiles by overlapping edges instead). Rows may grow past ``verts_per_poly``.
    (:func:`splice` redoes those of one tile's square, in place.)"""
    eps = 1e-6 * size
    climb = config.agent_max_climb
    line_of = np.round(verts[:, :2] / size).astype(np.int64)
    on = np.abs(verts[:, :2] - line_of * size) < eps  # (n, 2): on an x line, a y line
    on_axis = [np.flatnonzero(on[:, axis]) for axis in (0, 1)]
    lines: dict[tuple[int, int], list[tuple[int, list[float]]]] = {}

    def line(axis: int, k: int) -> list[tuple[int, list[float]]]:
        """The vertices on tile line ``k`` across ``axis``, with their points (Python
        values: a side's test runs over a few of them)."""
        if (axis, k) not in lines:
            idx = on_axis[axis]
            idx = idx[line_of[idx, axis] == k]
            lines[(axis, k)] = list(zip(idx.tolist(), verts[idx].tolist(), strict=True))
        return lines[(axis, k)]

    touched = np.any(on, axis=1)[poly] & (poly >= 0)  # -1 reads the last vertex
    todo = touched.sum(axis=1) >= 2
    picked = poly[todo]
    rows = dict(zip(np.flatnonzero(todo).tolist(), picked.tolist(), strict=True))
    rows = {r: [v for v in row if v >= 0] for r, row in rows.items()}
    # the tile lines of the vertices of these rows, as Python values
    ids = sorted_unique(picked[picked >= 0])
    where = dict(
        zip(
            ids.tolist(),
            zip(on[ids].tolist(), line_of[ids].tolist(), verts[ids].tolist(), strict=True),
            strict=True,
        )
    )

    def same_line(a: int, b: int) -> int:
        """The axis of the tile line both vertices lie on, else -1."""
        (oa, la, _), (ob, lb, _) = where[a], where[b]
        for axis in (0, 1):
            if oa[axis] and ob[axis] and la[axis] == lb[axis]:
                return axis
        return -1

    changed = False
    for r, row in rows.items():
        n = len(row)
        out: list[int] = []
        for e in range(n):
            a, b = row[e], row[(e + 1) % n]
            out.append(a)
            axis = same_line(a, b)
            if axis < 0:
                continue
            along = 1 - axis
            inside = _between(where[a][2], where[b][2], along, line(axis, where[a][1][axis]), climb)
            if inside:
                out.extend(inside)
                changed = True
        rows[r] = out
    if not changed:
        return poly
    width = max([poly.shape[1], *(len(row) for row in rows.values())])
    grown = np.full((poly.shape[0], width), -1, dtype=np.int64)
    grown[:, : poly.shape[1]] = poly
    grown[list(rows)] = [row + [-1] * (width - len(row)) for row in rows.values()]
    return grown
