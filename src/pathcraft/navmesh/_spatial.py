"""Where points are on a navigation mesh: locate, nearest point, raycast.

A mixin of :class:`pathcraft.navmesh.NavMesh`: the point queries that read the mesh's
STRtree of polygons and its flat arrays (the raycast walks them in the compiled core).
Positions are ``(x, y)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._core import navmesh as _walk
from pathcraft._positions import check_points as _points
from pathcraft._positions import check_position as _position
from pathcraft.navmesh._build import Topology

__all__ = ["RaycastHit", "SpatialQueries"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RaycastHit:
    """Where a straight move from a start towards an end leaves the mesh.

    Attributes
    ----------
    fraction : float
        The part of the segment inside the mesh before it first leaves it, in [0, 1]:
        1.0 when the whole segment is on the mesh.
    point : ndarray, shape (2,)
        ``start + fraction * (end - start)``, ``(x, y)``.
    hit : bool
        Whether the segment leaves the mesh (``fraction < 1``).
    polygons : ndarray of int
        The polygons the segment crosses, in order, from the start's.
    """

    fraction: float
    point: FloatArray
    hit: bool
    polygons: npt.NDArray[np.intp]


class SpatialQueries:
    """The point queries of :class:`pathcraft.NavMesh` (see there)."""

    # Set by NavMesh._setup.
    _top: Topology
    _shapes: npt.NDArray[Any]
    _tree: Any
    _centroids: FloatArray

    @property
    def num_polygons(self) -> int:
        """The number of polygons."""
        return int(self._top.poff.shape[0] - 1)

    def locate(self, points: npt.ArrayLike) -> Any:
        """The polygon holding each point ``(x, y)``; -1 off the mesh.

        A point on an edge or vertex shared by several polygons gets the lowest index.

        Parameters
        ----------
        points : (x, y) or array_like of shape (n, 2)

        Returns
        -------
        int or ndarray of int
            One index for one point, an ``(n,)`` array for ``n`` points.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> mesh.locate((0.5, 0.5)), mesh.locate([(2, 0), (1, 1)]).tolist()
        (0, [-1, 0])
        """
        pts, single = self._many("points", points)
        out = self._locate(pts)
        return int(out[0]) if single else out

    def _many(self, name: str, points: npt.ArrayLike) -> tuple[FloatArray, bool]:
        try:
            arr = np.array(points, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be a point (x, y) or an array of them") from exc
        single = arr.ndim == 1
        return _points(name, arr[None] if single else arr, (2,)), single

    def _locate(self, pts: FloatArray) -> npt.NDArray[np.intp]:
        out = np.full(pts.shape[0], -1, dtype=np.intp)
        if pts.shape[0]:
            which, poly = self._tree.query(shapely.points(pts), predicate="intersects")
            order = np.lexsort((-poly, which))  # the smallest polygon written last
            out[which[order]] = poly[order]
        return out

    def polygons_at(self, p: FloatArray) -> npt.NDArray[np.int32]:
        """Every polygon holding the point ``p``, an ``(x, y)`` float array (on shared
        edges and vertices, several), sorted; empty off the mesh. Unchecked: for
        pathcraft's own modules (:meth:`locate` checks its input)."""
        found = self._tree.query(shapely.points(p), predicate="intersects")
        return np.sort(found).astype(np.int32)

    def nearest_point(self, points: npt.ArrayLike) -> FloatArray:
        """The point of the mesh nearest each point ``(x, y)`` (itself when on it).

        Returns an ``(2,)`` array for one point, ``(n, 2)`` for ``n``. A point snapped
        onto the boundary is nudged inside by a hair (about 1e-9 of the coordinates'
        size) if rounding left it just outside, so it always locates.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> mesh.nearest_point((3, 0.5)).tolist()
        [1.0, 0.5]
        """
        pts, single = self._many("points", points)
        out = self._nearest(pts, "points")
        return out[0].copy() if single else out

    def _nearest(self, pts: FloatArray, name: str) -> FloatArray:
        out: FloatArray = np.array(pts, dtype=np.float64)
        off = np.flatnonzero(self._locate(pts) < 0)
        if off.size:
            geoms = shapely.points(pts[off])
            with np.errstate(over="ignore", invalid="ignore"):
                near = self._tree.query_nearest(geoms, all_matches=False)
                poly = np.full(off.size, -1, dtype=np.intp)
                poly[near[0]] = near[1]
                lines = shapely.shortest_line(self._shapes[poly], geoms)
            lost = np.flatnonzero(
                (poly < 0) | shapely.is_missing(lines) | shapely.is_empty(lines)
            )
            if lost.size:  # the squared distance overflowed: no nearest point to measure
                far = pts[off[lost[0]]]
                label = name if pts.shape[0] == 1 else f"{name}[{int(off[lost[0]])}]"
                raise ValueError(
                    f"{label} {tuple(far.tolist())} is too far from the mesh to find the "
                    "nearest point on it (distances overflow); positions are (x, y) within "
                    "about 1e150 of the mesh"
                )
            snapped = shapely.get_coordinates(lines)[0::2]
            for step in (0.0, 1e-9, 1e-7, 1e-5):
                bad = np.flatnonzero(self._locate(snapped) < 0)
                if not bad.size:
                    break
                towards = self._centroids[poly[bad]] - snapped[bad]
                snapped[bad] += towards * step
            out[off] = snapped
        return out

    def raycast(self, start: Any, end: Any) -> RaycastHit:
        """How far the straight move from ``start`` to ``end`` (both ``(x, y)``) gets
        before it leaves the mesh.

        Raises
        ------
        ValueError
            ``start`` is off the mesh, or a position is not finite.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> hit = mesh.raycast((0.5, 0.5), (4.5, 0.5))
        >>> hit.hit, hit.fraction, hit.point.tolist(), hit.polygons.tolist()
        (True, 0.375, [2.0, 0.5], [0, 1])
        """
        s = _position("start", start, 2)
        e = _position("end", end, 2)
        poly = self._locate(s[None])[0]
        if poly < 0:
            raise ValueError(f"start {tuple(s.tolist())} is off the mesh")
        visited = np.empty(self.num_polygons * 2 + 2, dtype=np.int32)
        t, count = _walk.raycast(
            self._top.xy, self._top.poff, self._top.pv, self._top.nbr, int(poly),
            float(s[0]), float(s[1]), float(e[0]), float(e[1]), visited,
        )  # fmt: skip
        t = min(max(float(t), 0.0), 1.0)
        polys = visited[: max(int(count), 0)].astype(np.intp)
        return RaycastHit(fraction=t, point=s + t * (e - s), hit=t < 1.0, polygons=polys)
