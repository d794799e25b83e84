"""Where points are on a navigation mesh: locate, nearest point, raycast.

:class:`SpatialIndex` is the helper a :class:`pathcraft.navmesh.NavMesh` owns for its
point queries: an STRtree of its polygons and the flat arrays the compiled raycast
walks. Positions are ``(x, y)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._core import navmesh as _walk
from pathcraft._positions import check_points as _points
from pathcraft.navmesh import _build
from pathcraft.navmesh._agentq import wall_normal
from pathcraft.navmesh._build import Topology

__all__ = ["RaycastHit", "SpatialIndex", "points_arg"]

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
    normal : ndarray, shape (2,)
        The unit normal of the wall hit, pointing into the walkable side; ``(0, 0)``
        when nothing is hit.

    Examples
    --------
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]])
    >>> inside = mesh.raycast((0.5, 0.5), (1.5, 0.5))
    >>> inside.hit, inside.fraction
    (False, 1.0)
    >>> out = mesh.raycast((0.5, 0.5), (0.5, 2.5))
    >>> out.hit, out.fraction, out.point.tolist(), out.normal.tolist()
    (True, 0.25, [0.5, 1.0], [0.0, -1.0])
    """

    fraction: float
    point: FloatArray
    hit: bool
    polygons: npt.NDArray[np.intp]
    normal: FloatArray


class SpatialIndex:
    """Point queries over a mesh's polygons: an STRtree of their shapes and the flat
    arrays the compiled raycast walks. :class:`pathcraft.NavMesh` owns one and
    delegates ``locate``, ``nearest_point`` and ``raycast`` to it; positions arrive
    checked, as ``(n, 2)`` float arrays of ``(x, y)``.
    """

    __slots__ = ("_centroids", "_shapes", "_top", "_tree")

    def __init__(
        self,
        top: Topology,
        centroids: FloatArray,
        shapes: npt.NDArray[Any] | None = None,
        tree: Any = None,
    ) -> None:
        self._top = top
        self._centroids = centroids
        self._shapes = shapes
        self._tree = tree

    @property
    def shapes(self) -> npt.NDArray[Any]:
        """The polygons as shapely shapes, made on first use when the index was given
        none (a mesh loaded from its arrays, :meth:`pathcraft.NavMesh.from_arrays`)."""
        if self._shapes is None:
            self._shapes = _build.shapes(self._top)
        return self._shapes

    @property
    def tree(self) -> Any:
        """The STRtree of :attr:`shapes`, made on first use likewise. Two threads that
        both find it missing build equal trees; either one is kept."""
        if self._tree is None:
            self._tree = shapely.STRtree(self.shapes)
        return self._tree

    def locate(self, pts: FloatArray) -> npt.NDArray[np.intp]:
        """The polygon holding each point (the lowest index on shared edges); -1 off."""
        out = np.full(pts.shape[0], -1, dtype=np.intp)
        if pts.shape[0]:
            which, poly = self.tree.query(shapely.points(pts), predicate="intersects")
            order = np.lexsort((-poly, which))  # the smallest polygon written last
            out[which[order]] = poly[order]
        return out

    def containing(self, p: FloatArray) -> npt.NDArray[np.int32]:
        """Every polygon holding point ``p`` (on shared edges and vertices, several)."""
        found = self.tree.query(shapely.points(p), predicate="intersects")
        return np.sort(found).astype(np.int32)

    def nearest(self, pts: FloatArray, name: str = "points") -> FloatArray:
        """The point of the mesh nearest each point, nudged inside if rounding left a
        snapped point a hair outside. A point too far away to measure (the squared
        distance overflows), or off a mesh with no polygons, raises ValueError naming
        ``name``."""
        out: FloatArray = np.array(pts, dtype=np.float64)
        off = np.flatnonzero(self.locate(pts) < 0)
        if off.size and not len(self.shapes):
            raise ValueError(
                f"{name} has no nearest point on the mesh: it has no polygons left (carved "
                "to nothing)"
            )
        if off.size:
            geoms = shapely.points(pts[off])
            with np.errstate(over="ignore", invalid="ignore"):
                near = self.tree.query_nearest(geoms, all_matches=False)
                poly = np.full(off.size, -1, dtype=np.intp)
                poly[near[0]] = near[1]
                lines = shapely.shortest_line(self.shapes[poly], geoms)
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
                bad = np.flatnonzero(self.locate(snapped) < 0)
                if not bad.size:
                    break
                towards = self._centroids[poly[bad]] - snapped[bad]
                snapped[bad] += towards * step
            out[off] = snapped
        return out

    def raycast(
        self,
        s: FloatArray,
        e: FloatArray,
        top: Topology | None = None,
        poly: int = -1,
        *,
        normal: bool = True,
    ) -> RaycastHit:
        """The straight move from ``s`` to ``e`` walked through the polygons of ``top``
        (the mesh's own by default: a filter's walls its excluded polygons off), from
        polygon ``poly`` (by default the one :meth:`locate` gives ``s``); without
        ``normal`` the wall's normal is not worked out (left zero)."""
        if poly < 0:
            poly = int(self.locate(s[None])[0])
        if poly < 0:
            raise ValueError(f"start {tuple(s.tolist())} is off the mesh")
        top = self._top if top is None else top
        visited = np.empty((top.poff.shape[0] - 1) * 2 + 2, dtype=np.int32)
        t, count = _walk.raycast(
            top.xy, top.poff, top.pv, top.nbr, int(poly),
            float(s[0]), float(s[1]), float(e[0]), float(e[1]), visited,
        )  # fmt: skip
        t = min(max(float(t), 0.0), 1.0)
        polys = visited[: max(int(count), 0)].astype(np.intp)
        point = s + t * (e - s)
        facing = np.zeros(2)
        if normal and t < 1.0 and polys.size:
            facing = wall_normal(top, int(polys[-1]), point)
        return RaycastHit(fraction=t, point=point, hit=t < 1.0, polygons=polys, normal=facing)


def points_arg(name: str, points: npt.ArrayLike) -> tuple[FloatArray, bool]:
    """Checked points ``(x, y)`` as an ``(n, 2)`` array, and whether one was given."""
    try:
        arr = np.array(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a point (x, y) or an array of them") from exc
    single = arr.ndim == 1
    return _points(name, arr[None] if single else arr, (2,)), single
