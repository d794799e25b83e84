"""Region contours of a compact heightfield: the outlines the polygons are cut from.

Recast's ``rcBuildContours`` (the steps are told in ``pathcraft._core.recast_poly``):
each region's boundary traced along its cells, simplified to within ``edge_max_error``
of the cells, wall edges split to at most ``edge_max_len``, and holes joined to their
region's outline. Contours are kept both in cell units (what the polygon build reads)
and as world points (what pictures draw).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pathcraft._core import recast_poly
from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._frame import row_y
from pathcraft.navmesh3d._layers import CompactHeightfield

__all__ = ["ContourSet", "build_contours", "check_config"]

IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class ContourSet:
    """The region contours of a compact heightfield (Recast's ``rcContourSet``).

    Made by :func:`build_contours`. Points are cell corners ``(x, h, y)`` with the
    heightfield's border taken off, in Recast's grid: ``x`` counts cells of ``cs``
    from ``origin`` along ``+x``, ``y`` cells of ``cs`` from it along ``-y`` (the
    heightfield's rows, :class:`~pathcraft.navmesh3d.CompactHeightfield`), ``h`` cells
    of ``ch`` above it; :meth:`world` gives ``(x, y, z)`` world points (z up) in the
    caller's frame.

    Attributes
    ----------
    verts : ndarray of int32, shape (k, 4)
        Simplified points ``(x, h, y, flags)``; ``flags & 0xFFFF`` is the region across
        the edge that starts at the point (0: a wall).
    start, count : ndarray of int32, shape (c,)
        Contour ``i`` is ``verts[start[i]:start[i] + count[i]]`` (a hole joined to its
        outline keeps ``count`` 0).
    region : ndarray of int32, shape (c,)
        The region each contour bounds.
    area : ndarray of uint8, shape (c,)
        Its area id.
    raw, raw_start, raw_count : ndarray of int32
        The traced points before simplification, laid out the same way.
    origin : ndarray of float64, shape (3,)
        The world point of cell corner ``(0, 0, 0)``: the grid's smallest ``x`` and
        ``z`` and its largest ``y`` (border taken off).
    cs, ch : float
        Cell size and cell height, world units.

    Examples
    --------
    A 10 x 10 floor under a slab 1.5 up (too low to walk under, too small to stand
    on): two regions round the hole, each with its contour.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import build_compact, build_contours
    >>> v = np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0],
    ...               [4, 4, 1.5], [6, 4, 1.5], [6, 6, 1.5], [4, 6, 1.5]], float)
    >>> chf = build_compact(v, [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
    >>> contours = build_contours(chf)
    >>> contours.region.tolist(), contours.count.tolist(), contours.raw_count.tolist()
    ([1, 2], [10, 6], [128, 56])
    >>> contours.verts[0].tolist()  # x, h, y in cells; region 2 across the edge
    [3, 1, 16, 2]
    """

    verts: IntArray
    start: IntArray
    count: IntArray
    region: IntArray
    area: npt.NDArray[np.uint8]
    raw: IntArray
    raw_start: IntArray
    raw_count: IntArray
    origin: npt.NDArray[np.float64]
    cs: float
    ch: float

    def world(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Cell points ``(x, h, y, ...)`` as world points ``(x, y, z)``, shape (k, 3).

        Parameters
        ----------
        points : array_like, shape (k, 3) or (k, 4)
            Cell corners ``(x, h, y)`` as :attr:`verts` holds them (a fourth column is
            ignored).

        Examples
        --------
        A 6 x 6 floor: its contour's first corner is 3 cells of 0.3 in from the
        origin (a ledge cell and the agent's radius; the origin is the grid's corner at
        its smallest ``x`` and largest ``y``, 6) and one cell of 0.2 up.

        >>> import numpy as np
        >>> from pathcraft.navmesh3d import build_compact, build_contours
        >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
        >>> contours = build_contours(build_compact(floor, [[0, 1, 2], [0, 2, 3]]))
        >>> contours.verts[:2, :3].tolist()
        [[3, 1, 3], [3, 1, 17]]
        >>> contours.world(contours.verts[:2]).round(2).tolist()
        [[0.9, 5.1, 0.2], [0.9, 0.9, 0.2]]
        """
        p = np.asarray(points)
        out = np.empty((p.shape[0], 3), dtype=np.float64)
        out[:, 0] = self.origin[0] + p[:, 0] * self.cs
        out[:, 1] = row_y(float(self.origin[1]), p[:, 2], self.cs)
        out[:, 2] = self.origin[2] + p[:, 1] * self.ch
        return out

    def outlines(self, *, raw: bool = False) -> list[npt.NDArray[np.float64]]:
        """Each non-empty contour as world points ``(x, y, z)``, for pictures.

        Parameters
        ----------
        raw : bool
            The traced points instead of the simplified ones.

        Returns
        -------
        list of ndarray of float64, each of shape (k, 3)

        Examples
        --------
        A 6 x 6 floor, eroded by the agent's radius: one square outline, traced along
        56 cell corners before it was simplified to 4.

        >>> import numpy as np
        >>> from pathcraft.navmesh3d import build_compact, build_contours
        >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
        >>> contours = build_contours(build_compact(floor, [[0, 1, 2], [0, 2, 3]]))
        >>> [ring.round(2).tolist() for ring in contours.outlines()]
        [[[0.9, 5.1, 0.2], [0.9, 0.9, 0.2], [5.1, 0.9, 0.2], [5.1, 5.1, 0.2]]]
        >>> [len(ring) for ring in contours.outlines(raw=True)]
        [56]
        """
        verts, start, count = (
            (self.raw, self.raw_start, self.raw_count)
            if raw
            else (self.verts, self.start, self.count)
        )
        return [self.world(verts[s : s + c]) for s, c in zip(start, count, strict=True) if c > 0]


def check_config(config: object) -> BuildConfig:
    """``config``, or RecastDemo's defaults for None; TypeError for another kind."""
    if config is None:
        return BuildConfig()
    if not isinstance(config, BuildConfig):
        raise TypeError(f"config must be a BuildConfig or None; got {type(config).__name__}")
    return config


def build_contours(chf: CompactHeightfield, config: BuildConfig | None = None) -> ContourSet:
    """Trace and simplify the region contours of ``chf`` (Recast's ``rcBuildContours``).

    Parameters
    ----------
    chf : CompactHeightfield
        A heightfield with regions, from :func:`~pathcraft.navmesh3d.build_compact`.
    config : BuildConfig, optional
        Uses ``edge_max_error`` (Recast's ``maxSimplificationError``, world units) and
        ``edge_max_len`` (world units; Recast's ``maxEdgeLen = edge_max_len / cs``
        cells). RecastDemo's defaults when omitted.

    Returns
    -------
    ContourSet

    Raises
    ------
    TypeError
        ``chf`` or ``config`` of the wrong kind.

    Examples
    --------
    A 6 x 6 floor: one region, one contour of 4 corners. With ``edge_max_len`` 1.5
    (5 cells) its sides of 14 cells are halved until they fit: 4 pieces each.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import BuildConfig, build_compact, build_contours
    >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
    >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
    >>> build_contours(chf).count.tolist()
    [4]
    >>> build_contours(chf, BuildConfig(edge_max_len=1.5)).count.tolist()
    [16]
    """
    if not isinstance(chf, CompactHeightfield):
        raise TypeError(f"chf must be a CompactHeightfield; got {type(chf).__name__}")
    vox = check_config(config).voxels()
    verts, start, count, region, area, raw, raw_start, raw_count = recast_poly.build_contours(
        int(chf.width),
        int(chf.depth),
        int(chf.border),
        np.ascontiguousarray(chf.cell_first, dtype=np.int32),
        np.ascontiguousarray(chf.cell_count, dtype=np.int32),
        np.ascontiguousarray(chf.z, dtype=np.int32),
        np.ascontiguousarray(chf.con, dtype=np.int32),
        np.ascontiguousarray(chf.area, dtype=np.uint8),
        np.ascontiguousarray(chf.region, dtype=np.uint16),
        float(vox.max_simplification_error),
        int(vox.max_edge_len),
    )
    origin = np.array(chf.bmin, dtype=np.float64)
    origin[0] += chf.border * chf.cs
    origin[1] = chf.bmax[1] - chf.border * chf.cs  # row 0's edge
    return ContourSet(
        verts=verts,
        start=start,
        count=count,
        region=region,
        area=area,
        raw=raw,
        raw_start=raw_start,
        raw_count=raw_count,
        origin=origin,
        cs=float(chf.cs),
        ch=float(chf.ch),
    )
