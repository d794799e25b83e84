"""Polygon meshes put together and taken apart by tile: what
:meth:`NavMesh3D.add_tile <pathcraft.navmesh3d.NavMesh3D.add_tile>` and
:meth:`~pathcraft.navmesh3d.NavMesh3D.remove_tile` do to the mesh they search (a tile
is the polygons whose ``tiles`` value is its id; Detour's ``dtNavMesh::addTile`` and
``removeTile``). Tiles are stitched by the 3-D mesh's adjacency: polygons of
neighbouring tiles join where their edges coincide.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique
from pathcraft.navmesh3d._polymesh import Detail, PolyMesh3D

__all__ = ["concat", "fan_detail", "tile_id_of", "without"]


def fan_detail(mesh: PolyMesh3D) -> Detail:
    """The detail mesh of a mesh without one: each polygon's fan from its first vertex
    (its own vertices, so the surface is the one the mesh has without a detail mesh)."""
    polys = mesh.polygons
    m = polys.shape[0]
    counts = mesh.sizes().astype(np.int64) - 2
    poly_of = np.repeat(np.arange(m), counts)
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    tri = np.stack((polys[poly_of, 0], polys[poly_of, k], polys[poly_of, k + 1]), axis=1)
    first = np.cumsum(counts) - counts
    of = np.stack((first, counts), axis=1).astype(np.int32)
    return mesh.vertices.copy(), tri.astype(np.int32), of


def concat(a: PolyMesh3D, b: PolyMesh3D) -> PolyMesh3D:
    """The polygons of ``a`` then those of ``b`` (one mesh; ``b``'s indices shifted),
    with a detail mesh when either has one."""
    nv = a.vertices.shape[0]
    width = max(a.max_verts_per_poly, b.max_verts_per_poly)
    pa, pb = _padded(a.polygons, width), _padded(b.polygons, width)
    pb = np.where(pb >= 0, pb + nv, -1).astype(np.int32)
    detail = None
    if a.detail is not None or b.detail is not None:
        da = a.detail if a.detail is not None else fan_detail(a)
        db = b.detail if b.detail is not None else fan_detail(b)
        dv = np.concatenate((da[0], db[0]))
        dt = np.concatenate((da[1], db[1] + da[0].shape[0])).astype(np.int32)
        of_b = db[2].copy()
        of_b[:, 0] += da[1].shape[0]
        detail = (dv, dt, np.concatenate((da[2], of_b)).astype(np.int32))
    return PolyMesh3D._trusted(
        np.concatenate((a.vertices, b.vertices)),
        np.concatenate((pa, pb)),
        np.concatenate((a.areas, b.areas)),
        np.concatenate((a.tiles, b.tiles)),
        detail,
    )


def _padded(polys: npt.NDArray[np.int32], width: int) -> npt.NDArray[np.int32]:
    extra = width - polys.shape[1]
    if extra == 0:
        return polys
    return np.concatenate((polys, np.full((polys.shape[0], extra), -1, dtype=np.int32)), axis=1)


def without(mesh: PolyMesh3D, keep: npt.NDArray[np.bool_]) -> PolyMesh3D:
    """The polygons ``keep`` of ``mesh`` (at least one), its vertices and detail
    triangles compacted to those they use."""
    polys = mesh.polygons[keep]
    used = sorted_unique(polys[polys >= 0])
    remap = np.full(mesh.vertices.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(used.size)
    polys = np.where(polys >= 0, remap[np.maximum(polys, 0)], -1).astype(np.int32)
    detail = None
    if mesh.detail is not None:
        dv, dt, do = mesh.detail
        do = do[keep]
        counts = do[:, 1].astype(np.int64)
        starts = np.repeat(do[:, 0].astype(np.int64), counts)
        within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        tri = dt[starts + within]
        dused = sorted_unique(tri)
        dmap = np.full(dv.shape[0], -1, dtype=np.int64)
        dmap[dused] = np.arange(dused.size)
        first = np.cumsum(counts) - counts
        detail = (
            dv[dused].copy(),
            dmap[tri].astype(np.int32),
            np.stack((first, counts), axis=1).astype(np.int32),
        )
    return PolyMesh3D._trusted(
        mesh.vertices[used].copy(), polys, mesh.areas[keep].copy(), mesh.tiles[keep].copy(),
        detail,
    )  # fmt: skip


def tile_id_of(tile: PolyMesh3D, taken: set[int]) -> int:
    """The id a new tile's polygons take: theirs when they all name one id (>= 0) not
    yet in the mesh, else the smallest id above every one taken when they are all
    untiled (-1)."""
    ids = np.unique(tile.tiles)
    if ids.size == 1 and ids[0] >= 0:
        tid = int(ids[0])
        if tid in taken:
            raise ValueError(f"tile {tid} is in the mesh already; remove_tile({tid}) first")
        return tid
    if ids.size == 1 and ids[0] == -1:
        return max(taken, default=-1) + 1
    raise ValueError(
        f"a tile's polygons must all name one tile id (or all -1 for a new id); got {ids.tolist()}"
    )
