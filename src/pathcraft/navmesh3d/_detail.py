"""The detail mesh of a polygon mesh: Recast's ``rcBuildPolyMeshDetail``.

The per-polygon work (height patch, edge samples, hull triangulation, interior
samples and Delaunay refinement) is ``pathcraft._core.recast_detail``, a port of
recastnavigation's ``RecastMeshDetail.cpp`` (zlib licence). This module feeds it the
polygons in cells and Recast's single-precision settings, and lays its output in the
caller's frame as :data:`~pathcraft.navmesh3d._polymesh.Detail`: each polygon's
corners are the mesh's own vertices (as Detour reads them) and its other detail
vertices are Recast's, one cell height ``ch`` above the sampled floor (Recast's
offset), those on an edge put on the edge exactly (seen from above).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from pathcraft._core import recast_detail
from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._layers import CompactHeightfield
from pathcraft.navmesh3d._polymesh import Detail

__all__ = ["build_detail"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]


def build_detail(
    chf: CompactHeightfield,
    origin: FloatArray,
    mverts: IntArray,
    polys: IntArray,
    regions: npt.NDArray[np.uint16],
    verts: FloatArray,
    config: BuildConfig,
) -> Detail:
    """The detail mesh of ``polys`` (Recast's order, vertices ``mverts`` in cells
    ``(x, h, r)``, world vertices ``verts``), each polygon's ``regions`` entry its
    region (0: several). ``origin`` is the cells' corner (a contour set's)."""
    f32 = np.float32
    cs, ch = f32(chf.cs), f32(chf.ch)
    # RecastDemo's settings, multiplied in single precision as it multiplies them
    sample_dist = f32(0.0)
    if config.detail_sample_dist >= 0.9:
        sample_dist = f32(config.cell_size) * f32(config.detail_sample_dist)
    max_error = f32(config.cell_height) * f32(config.detail_sample_max_error)
    dv32, dt, meshes, along = recast_detail.build_detail(
        np.ascontiguousarray(mverts, dtype=np.int32),
        np.ascontiguousarray(polys, dtype=np.int32),
        np.ascontiguousarray(regions, dtype=np.uint16),
        chf.width, chf.depth, chf.border,
        chf.cell_first, chf.cell_count, chf.z, chf.con, chf.region,
        float(cs), float(ch),
        float(sample_dist), float(max_error),
        max(1, math.ceil(float(f32(config.edge_max_error)))),
    )  # fmt: skip
    # Recast's frame (x, height, -y) to the caller's, with its origin and offset added
    # in single precision as Recast adds them
    ox, oh, oz = f32(origin[0]), f32(origin[2]) + ch, -f32(origin[1])
    dv = np.empty((dv32.shape[0], 3), dtype=np.float64)
    dv[:, 0] = dv32[:, 0] + ox
    dv[:, 1] = -(dv32[:, 2] + oz)
    dv[:, 2] = dv32[:, 1] + oh
    # each polygon's corners: the mesh's vertices (Detour reads them, not the copies)
    first_v = meshes[:, 0].astype(np.int64)
    n = (polys >= 0).sum(axis=1)
    owner = np.repeat(np.arange(polys.shape[0]), n)
    k = np.arange(owner.size) - np.repeat(np.cumsum(n) - n, n)
    dv[first_v[owner] + k] = verts[polys[owner, k]]
    # the samples on the polygons' edges: on the edge itself, seen from above (Recast
    # puts them there in single precision, a few 1e-6 off the line at coordinates
    # near 100; then a straight path across them would bend by as much)
    on_edge = np.flatnonzero(along[:, 0] >= 0)
    if on_edge.size:
        vert_owner = np.repeat(np.arange(polys.shape[0]), meshes[:, 1])[on_edge]
        a = verts[polys[vert_owner, along[on_edge, 0]], :2]
        b = verts[polys[vert_owner, along[on_edge, 1]], :2]
        u = along[on_edge, 2] / along[on_edge, 3]
        dv[on_edge, :2] = a + (b - a) * u[:, None]
    tri_owner = np.repeat(np.arange(polys.shape[0]), meshes[:, 3])
    tris = (dt + meshes[tri_owner, 0][:, None]).astype(np.int32)
    detail_of = np.ascontiguousarray(meshes[:, 2:4], dtype=np.int32)
    return dv, tris, detail_of
