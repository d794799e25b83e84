"""Convex polygons from region contours, and their detail heights.

Recast's ``rcBuildPolyMesh`` (ear clipping, welding, greedy merging into convex
polygons of at most ``verts_per_poly`` vertices: ``pathcraft._core.recast_poly``; then,
in a tile, the removal of the vertices its contours flagged on the tile's edges where
two regions meet the border, the polygons round each one taken out and the hole
ear-clipped and merged again, as Recast's ``removeVertex``) and Recast's
``rcBuildPolyMeshDetail`` (``_detail``).
"""

from __future__ import annotations

import numbers

import numpy as np
import numpy.typing as npt

from pathcraft._core import recast_poly
from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._contours import ContourSet, check_config
from pathcraft.navmesh3d._detail import build_detail
from pathcraft.navmesh3d._layers import CompactHeightfield
from pathcraft.navmesh3d._polymesh import PolyMesh3D

__all__ = ["build_polymesh"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]


def _polygon_areas(verts: FloatArray, polys: IntArray) -> FloatArray:
    """Signed areas seen from above (counter-clockwise positive)."""
    used = polys >= 0
    nvp = polys.shape[1]
    n = used.sum(axis=1)
    nxt = np.where(np.arange(nvp)[None, :] + 1 < n[:, None], np.arange(nvp)[None, :] + 1, 0)
    xy = verts[np.maximum(polys, 0), :2]
    xy2 = np.take_along_axis(xy, nxt[:, :, None], axis=1)
    cross = xy[..., 0] * xy2[..., 1] - xy2[..., 0] * xy[..., 1]
    return np.asarray(0.5 * np.where(used, cross, 0.0).sum(axis=1), dtype=np.float64)


def _can_remove(polys: list[list[int]], rem: int) -> bool:
    """Recast's test before removing a vertex: enough edges would be left to make a
    polygon, and the polygons round it form one fan (at most two open edges)."""
    remaining = 0
    shared: dict[int, int] = {}
    for p in polys:
        if rem not in p:
            continue
        remaining += len(p) - 2
        n = len(p)
        for k in range(n):
            a, b = p[k], p[(k + 1) % n]
            if rem in (a, b):
                other = b if a == rem else a
                shared[other] = shared.get(other, 0) + 1
    if remaining <= 2:
        return False
    return sum(1 for c in shared.values() if c < 2) <= 2


def _remove_vertex(
    mverts: IntArray, polys: list[list[int]], areas: list[tuple[int, int]], rem: int, nvp: int
) -> tuple[IntArray, list[list[int]], list[tuple[int, int]]]:
    """Recast's ``removeVertex``: the polygons round ``rem`` taken out, the hole they
    leave chained from their other edges, ear-clipped and merged again. ``areas`` are
    the polygons' (area, region) pairs; the new polygons take the hole's region, or 0
    (Recast's ``RC_MULTIPLE_REGS``) where the polygons taken out had several (Recast
    decides that per merged triangle; this per hole)."""
    edges = []
    kept, kept_areas = [], []
    hole_area = 0
    hole_regions = set()
    for p, pa in zip(polys, areas, strict=True):
        if rem in p:
            n = len(p)
            edges += [(p[k - 1], p[k]) for k in range(n) if rem not in (p[k - 1], p[k])]
            hole_area = pa[0]
            hole_regions.add(pa[1])
        else:
            kept.append(p)
            kept_areas.append(pa)
    hole_region = hole_regions.pop() if len(hole_regions) == 1 else 0
    mverts = np.delete(mverts, rem, axis=0)
    kept = [[v - (v > rem) for v in p] for p in kept]
    edges = [(a - (a > rem), b - (b > rem)) for a, b in edges]
    if not edges:
        return mverts, kept, kept_areas
    hole = [edges[0][0]]
    left = edges[:]
    while left:
        for k, (a, b) in enumerate(left):
            if hole[0] == b:
                hole.insert(0, a)
            elif hole[-1] == a:
                hole.append(b)
            else:
                continue
            del left[k]
            break
        else:
            break
    ring = np.zeros((len(hole), 4), dtype=np.int32)
    ring[:, :3] = mverts[hole]
    local, new, _, _, _, _ = recast_poly.build_polygons(
        ring, np.array([0], np.int32), np.array([len(hole)], np.int32),
        np.array([hole_area], np.uint8), nvp,
    )  # fmt: skip
    where = {tuple(v): hole[k] for k, v in reversed(list(enumerate(ring[:, :3].tolist())))}
    back = [where[tuple(v)] for v in local.tolist()]
    for row in new.tolist():
        kept.append([back[v] for v in row if v >= 0])
        kept_areas.append((hole_area, hole_region))
    return mverts, kept, kept_areas


def _remove_border_vertices(
    mverts: IntArray,
    polys: IntArray,
    areas: npt.NDArray[np.uint8],
    regions: npt.NDArray[np.uint16],
    flags: npt.NDArray[np.uint8],
) -> tuple[IntArray, IntArray, npt.NDArray[np.uint8], npt.NDArray[np.uint16]]:
    """Remove the tile-border vertices the contours flagged, as Recast does (in the
    order of their indices, each where it can be removed)."""
    nvp = polys.shape[1]
    rows = [[v for v in r if v >= 0] for r in polys.tolist()]
    area_list = list(zip(areas.tolist(), regions.tolist(), strict=True))
    marks = flags.astype(bool).tolist()
    i = 0
    while i < len(marks):
        if marks[i] and _can_remove(rows, i):
            mverts, rows, area_list = _remove_vertex(mverts, rows, area_list, i, nvp)
            del marks[i]
            continue
        i += 1
    out = np.full((len(rows), nvp), -1, dtype=np.int32)
    for k, r in enumerate(rows):
        out[k, : len(r)] = r
    pairs = np.asarray(area_list, dtype=np.int64).reshape(-1, 2)
    return mverts, out, pairs[:, 0].astype(np.uint8), pairs[:, 1].astype(np.uint16)


def build_polymesh(
    contours: ContourSet,
    chf: CompactHeightfield,
    config: BuildConfig | None = None,
    *,
    tile: int = -1,
) -> PolyMesh3D:
    """Cut the contours into convex polygons with detail heights.

    Recast's ``rcBuildPolyMesh`` (``maxVertsPerPoly`` = ``config.verts_per_poly``) and
    Recast's ``rcBuildPolyMeshDetail`` (``detail_sample_dist`` cells of ``cs`` between
    height samples along the edges and inside, ``detail_sample_max_error`` cells of
    ``ch``: triangles refined until every sample is within it).

    Parameters
    ----------
    contours : ContourSet
        From :func:`~pathcraft.navmesh3d.build_contours` on ``chf``.
    chf : CompactHeightfield
        The heightfield the contours came from (read for the detail heights).
    config : BuildConfig, optional
        RecastDemo's defaults when omitted.
    tile : int
        The tile number written for every polygon (-1: untiled).

    Returns
    -------
    PolyMesh3D
        World ``(x, y, z)`` vertices, z up; polygons counter-clockwise seen from above.

    Raises
    ------
    TypeError
        An argument of the wrong kind.

    Examples
    --------
    The last steps of :func:`~pathcraft.navmesh3d.build`, one by one, on a 6 x 6
    floor: one square polygon, counter-clockwise seen from above.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import build_compact, build_contours, build_polymesh
    >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
    >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
    >>> mesh = build_polymesh(build_contours(chf), chf)
    >>> mesh
    PolyMesh3D(4 vertices, 1 polygons, nvp=6, detail)
    >>> mesh.vertices[mesh.polygons[0, :4]].round(2).tolist()
    [[0.9, 5.1, 0.2], [0.9, 0.9, 0.2], [5.1, 0.9, 0.2], [5.1, 5.1, 0.2]]
    """
    if not isinstance(contours, ContourSet):
        raise TypeError(f"contours must be a ContourSet; got {type(contours).__name__}")
    if not isinstance(chf, CompactHeightfield):
        raise TypeError(f"chf must be a CompactHeightfield; got {type(chf).__name__}")
    config = check_config(config)
    if isinstance(tile, bool) or not isinstance(tile, numbers.Integral) or tile < -1:
        raise TypeError(f"tile must be an integer tile number >= -1; got {tile!r}")
    vox = config.voxels()
    nvp = int(vox.max_verts_per_poly)
    mverts, polys, areas, pcont, border_vertex, _ = recast_poly.build_polygons(
        contours.verts, contours.start, contours.count, contours.area, nvp
    )
    regions = contours.region[pcont].astype(np.uint16)
    if border_vertex.any():
        mverts, polys, areas, regions = _remove_border_vertices(
            mverts, polys, areas, regions, border_vertex
        )
    # Recast's polygons, in its order: counter-clockwise seen from above in the
    # caller's frame (the grid's rows run along -y, see _frame)
    verts = contours.world(mverts)
    if polys.shape[0]:
        keep = _polygon_areas(verts, polys) > 1e-9 * contours.cs * contours.cs
        polys, areas, regions = polys[keep], areas[keep], regions[keep]
    if polys.shape[0] == 0:
        return PolyMesh3D._trusted(
            np.zeros((0, 3)),
            np.zeros((0, nvp), dtype=np.int32),
            np.zeros(0, dtype=np.uint8),
            np.zeros(0, dtype=np.int32),
            None,
        )
    detail = build_detail(chf, contours.origin, mverts, polys, regions, verts, config)
    return PolyMesh3D(
        verts, polys, areas=areas, tiles=np.full(polys.shape[0], tile, dtype=np.int32),
        detail=detail,
    )  # fmt: skip
