"""From triangles to a compact heightfield with regions: the first half of Recast.

The stages, each a compiled kernel over flat arrays (``pathcraft._core.recast_hf``):
walkable triangles by slope, rasterisation into spans, the three span filters, the
compact heightfield with neighbour links, erosion by the agent's radius, the distance
field and the watershed regions. They run on the level mirrored into Recast's frame
(``_frame``), the slope test and the rasteriser in single precision as Recast's, so
that the grid's cells, its spans and every scan are Recast's; the heightfield's box is
given back in the caller's frame.
"""

from __future__ import annotations

import numbers
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import recast_hf
from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._frame import box_to_recast, to_recast
from pathcraft.navmesh3d._layers import CompactHeightfield
from pathcraft.navmesh3d._polymesh import _float_array, _int_array
from pathcraft.navmesh3d._regions import merge_and_filter

__all__ = ["build_compact", "check_mesh"]


def check_mesh(
    vertices: Any, triangles: Any
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
    """``vertices`` float64 (n, 3) and ``triangles`` int32 (t, 3), checked and copied.

    Raises
    ------
    TypeError
        Arrays of the wrong kind (triangles not integers).
    ValueError
        Wrong shapes, non-finite vertices, indices out of range, no triangles.
    """
    verts = _float_array("vertices", vertices, 3)
    tris = _int_array("triangles", triangles, 2)
    if tris.size == 0:
        raise ValueError("triangles is empty: the mesh needs at least one triangle")
    if tris.shape[1] != 3:
        raise ValueError(f"triangles must have shape (t, 3); got {tris.shape}")
    low, high = int(tris.min()), int(tris.max())
    if low < 0 or high >= len(verts):
        bad = int(np.flatnonzero(((tris < 0) | (tris >= len(verts))).any(axis=1))[0])
        raise ValueError(
            f"triangles index vertices 0 to {len(verts) - 1}; triangle {bad} is "
            f"{tris[bad].tolist()}"
        )
    return verts, np.ascontiguousarray(tris, dtype=np.int32)


def _check_bounds(bounds: Any) -> npt.NDArray[np.float64] | None:
    """``bounds`` as float64 (2, 3) ``[(xmin, ymin, zmin), (xmax, ymax, zmax)]`` or None."""
    if bounds is None:
        return None
    try:
        box = np.array(bounds, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"bounds must be ((xmin, ymin, zmin), (xmax, ymax, zmax)) or None; got {bounds!r}"
        ) from None
    if box.shape != (2, 3) or not np.isfinite(box).all() or (box[1] <= box[0]).any():
        raise ValueError(
            "bounds must be ((xmin, ymin, zmin), (xmax, ymax, zmax)), finite, each max "
            f"above its min; got {bounds!r}"
        )
    return box


def build_compact(
    vertices: npt.ArrayLike,
    triangles: npt.ArrayLike,
    config: BuildConfig | None = None,
    *,
    bounds: npt.ArrayLike | None = None,
    border: int = 0,
) -> CompactHeightfield:
    """Voxelise a triangle mesh and keep where an agent stands, split into regions.

    Recast's pipeline up to ``rcBuildRegions``: ``rcMarkWalkableTriangles``,
    ``rcRasterizeTriangles``, ``rcFilterLowHangingWalkableObstacles``,
    ``rcFilterLedgeSpans``, ``rcFilterWalkableLowHeightSpans``,
    ``rcBuildCompactHeightfield``, ``rcErodeWalkableArea``, ``rcBuildDistanceField``
    and the watershed ``rcBuildRegions``.

    Parameters
    ----------
    vertices : array_like, shape (n, 3)
        World points ``(x, y, z)``, z up.
    triangles : array_like of int, shape (t, 3)
        Vertex indices of each triangle; the side from which the vertices turn
        counter-clockwise is the top (as Recast's ``rcMarkWalkableTriangles``).
    config : BuildConfig, optional
        The build's parameters (RecastDemo's defaults when omitted).
    bounds : array_like, shape (2, 3), optional
        The box to build, ``((xmin, ymin, zmin), (xmax, ymax, zmax))`` world units (a
        tile's box); the mesh's own bounds when omitted. The grid's rows are counted
        from ``ymax`` down, as Recast's (:class:`CompactHeightfield`).
    border : int
        Extra cells added around ``bounds`` on each side (Recast's ``borderSize``);
        its regions carry :data:`~pathcraft.navmesh3d.BORDER_REGION`.

    Returns
    -------
    CompactHeightfield

    Raises
    ------
    TypeError, ValueError
        Bad vertices, triangles, config, bounds or border (each named).

    Examples
    --------
    A floor with a step of 0.6 (within RecastDemo's climb of 0.9): one region. The
    step's top is 3 cells of 0.2 exactly in single precision (Recast's arithmetic), and
    a span's top is at least a cell above its bottom's cell, so its floor is cell 4.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import build_compact
    >>> low = [[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]]
    >>> high = [[6, 0, 0.6], [12, 0, 0.6], [12, 6, 0.6], [6, 6, 0.6]]
    >>> quads = [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]]
    >>> chf = build_compact(low + high, quads)
    >>> chf.n_regions, sorted(set(chf.z.tolist()))  # floors, cells of 0.2
    (1, [1, 4])
    >>> build_compact(low, [[0, 1, 9]])
    Traceback (most recent call last):
    ...
    ValueError: triangles index vertices 0 to 3; triangle 0 is [0, 1, 9]
    """
    return _build(vertices, triangles, config, bounds=bounds, border=border)[0]


def _build(
    vertices: npt.ArrayLike,
    triangles: npt.ArrayLike,
    config: BuildConfig | None = None,
    *,
    bounds: npt.ArrayLike | None = None,
    border: int = 0,
) -> tuple[CompactHeightfield, dict[str, float]]:
    """:func:`build_compact` and the seconds each stage took (for the benchmarks)."""
    verts, tris = check_mesh(vertices, triangles)
    if config is None:
        config = BuildConfig()
    elif not isinstance(config, BuildConfig):
        raise TypeError(f"config must be a BuildConfig or None; got {type(config).__name__}")
    box = _check_bounds(bounds)
    if isinstance(border, bool) or not isinstance(border, numbers.Integral):
        raise TypeError(f"border must be an integer >= 0 (cells); got {border!r}")
    if border < 0:
        raise ValueError(f"border must be an integer >= 0 (cells); got {border!r}")
    v = config.voxels()
    verts = to_recast(verts)  # laid as Recast lays it (the module's note)
    box = np.stack([verts.min(axis=0), verts.max(axis=0)]) if box is None else box_to_recast(box)
    bmin, bmax = box[0].copy(), box[1].copy()
    bmin[:2] -= border * v.cs
    bmax[:2] += border * v.cs
    # Recast's rcCalcGridSize; a mesh flat along x or y still gets one column
    width = max(1, int((bmax[0] - bmin[0]) / v.cs + 0.5))
    depth = max(1, int((bmax[1] - bmin[1]) / v.cs + 0.5))
    if width * depth > 2**31 - 1:
        raise ValueError(
            f"the heightfield would have {width} x {depth} columns; raise cell_size "
            f"(now {v.cs}) or build in tiles"
        )
    times: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        times[stage] = now - clock
        clock = now

    tri_areas = np.empty(len(tris), dtype=np.uint8)
    recast_hf.mark_walkable(verts, tris, v.walkable_slope, tri_areas)
    col_first, col_count, smin, smax, sarea = recast_hf.rasterize(
        verts, tris, tri_areas, bmin, bmax, v.cs, v.ch, width, depth, v.walkable_climb
    )
    lap("rasterize")
    recast_hf.filter_low_hanging(col_first, col_count, smax, sarea, v.walkable_climb)
    recast_hf.filter_ledges(
        col_first,
        col_count,
        smin,
        smax,
        sarea,
        width,
        depth,
        v.walkable_height,
        v.walkable_climb,
    )
    recast_hf.filter_low_height(col_first, col_count, smin, smax, sarea, v.walkable_height)
    lap("filter")
    cell_first, cell_count, z, h, area, con = recast_hf.compact(
        col_first,
        col_count,
        smin,
        smax,
        sarea,
        width,
        depth,
        v.walkable_height,
        v.walkable_climb,
    )
    lap("compact")
    recast_hf.erode(con, area, v.walkable_radius)
    lap("erode")
    dist = np.zeros(len(z), dtype=np.uint16)
    max_dist = recast_hf.distance_field(con, area, dist)
    lap("distance")
    region = np.zeros(len(z), dtype=np.uint16)
    n_raw = recast_hf.watershed(
        cell_first, cell_count, con, area, dist, max_dist, width, depth, border, region
    )
    if n_raw < 0:
        raise ValueError(
            "the level has more than 65535 watershed regions (Recast's limit); build it "
            "in tiles (config.tile_size)"
        )
    lap("watershed")
    n_regions = merge_and_filter(
        con,
        cell_first,
        cell_count,
        area,
        region,
        n_raw,
        v.min_region_area,
        v.merge_region_area,
    )
    lap("merge")
    bmax[2] += v.walkable_height * v.ch  # as rcBuildCompactHeightfield
    bmin, bmax = box_to_recast(np.stack([bmin, bmax]))  # the box back in the caller's frame
    for array in (bmin, bmax, cell_first, cell_count, z, h, con, area, dist, region):
        array.flags.writeable = False  # ours alone: read-only without a copy
    chf = CompactHeightfield(
        width=width,
        depth=depth,
        border=int(border),
        bmin=bmin,
        bmax=bmax,
        cs=v.cs,
        ch=v.ch,
        walkable_height=v.walkable_height,
        walkable_climb=v.walkable_climb,
        cell_first=cell_first,
        cell_count=cell_count,
        z=z,
        h=h,
        con=con,
        area=area,
        dist=dist,
        region=region,
        n_regions=n_regions,
    )
    return chf, times
