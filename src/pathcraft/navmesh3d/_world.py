"""The :class:`NavMesh3D` world: a :class:`~pathcraft.navmesh3d.PolyMesh3D` searched in
``(x, y, z)``, floors over one another kept apart, tiles added and removed at run time.

How a query runs (Detour's ``findPath`` then ``findStraightPath``): the start and goal
are located in 3-D (the polygon over or under the point within the vertical
tolerance, the nearest in height); A* runs over the portal graph of the flat mesh's
search (:mod:`pathcraft.navmesh._portals`: points on the portals, joined inside each
polygon) with the portals' points in 3-D, so a ramp or a stair costs its slope; the
string is pulled taut through the corridor's portals in the plane (the flat mesh's
funnel; the corridor follows the 3-D adjacency, so a bridge and the floor under it
are different polygons) and the path is lifted onto the surface
(:func:`pathcraft.navmesh3d._surface.lift`). With ``algorithm="optimal"`` the flat
mesh's Polyanya kernel searches the same plane projection instead (it walks polygon
adjacency only, so floors stay apart) and returns the polygons its path passes
through; the string pulled through them is its path, lifted the same way. The
searches run on the plane projection of the polygons, whose vertices are numbered per
floor: vertices two polygons share in 3-D are one, vertices over one another stay
apart.

This file holds the class, past 500 lines because its docstrings (with runnable
examples, one per query and capability) are most of it; the search arrays and the
searches are in :mod:`~pathcraft.navmesh3d._search`, the geometry in
:mod:`~pathcraft.navmesh3d._surface`, the tiles' bookkeeping in
:mod:`~pathcraft.navmesh3d._tiles`.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._options import SearchOptions, check_flag
from pathcraft._positions import check_number, check_points, check_position
from pathcraft._reach import Moves
from pathcraft._saved import SavedArrays
from pathcraft._sliced import CompiledSearch
from pathcraft.navmesh.kit import (
    MoveResult,
    check_count,
    seeded_rng,
)
from pathcraft.navmesh3d import _search, _surface, _tiles
from pathcraft.navmesh3d._polymesh import PolyMesh3D
from pathcraft.navmesh3d._space import MeshSpace3D
from pathcraft.result import PathResult
from pathcraft.world import refused, register_kind

__all__ = ["NavMesh3D", "SurfaceHit"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


@dataclass(frozen=True)
class SurfaceHit:
    """Where a move along the surface from a start towards an end leaves the mesh
    (:meth:`NavMesh3D.raycast`, Detour's ``raycast``).

    Attributes
    ----------
    fraction : float
        The part of the move (in the plane) done before it leaves the mesh, in
        [0, 1]: 1.0 when the whole move stays on the surface.
    point : ndarray, shape (3,)
        Where it stops ``(x, y, z)``, on the surface.
    hit : bool
        Whether it leaves the mesh (``fraction < 1``).
    polygons : ndarray of int
        The polygons crossed, in order, from the start's.
    normal : ndarray, shape (3,)
        The unit normal of the wall hit, horizontal, pointing into the walkable side;
        zeros when nothing is hit.

    Examples
    --------
    >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
    >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 1), (2, 0, 1), (2, 1, 1), (0, 1, 1)],
    ...                             [[0, 1, 2, 3]]))
    >>> hit = mesh.raycast((0.5, 0.5, 1), (0.5, 3, 1))
    >>> hit.hit, hit.point.tolist(), hit.normal.tolist()
    (True, [0.5, 1.0, 1.0], [0.0, -1.0, 0.0])
    """

    fraction: float
    point: FloatArray
    hit: bool
    polygons: npt.NDArray[np.intp]
    normal: FloatArray


class NavMesh3D:
    """A navigation mesh of a 3-D level: convex polygons with heights, floors over
    one another, searched in ``(x, y, z)`` (z up).

    Parameters
    ----------
    polymesh : PolyMesh3D
        The polygons (built by hand or by a Recast-style build). Polygons join where
        they share an edge in 3-D (:meth:`PolyMesh3D.adjacency`); a bridge over a room
        is a floor of its own.
    height_tolerance : float
        How far apart in height two edges may be and still join (world units, >= 0;
        Detour joins tiles within ``walkableClimb``); default 0.
    vertical_tolerance : float
        How far above or below the surface a position may be and still be on it
        (world units, > 0; the vertical half-extent of Detour's query box); default 1.

    Raises
    ------
    TypeError
        ``polymesh`` not a :class:`PolyMesh3D`.
    ValueError
        A tolerance out of range; a mesh of no polygons.

    Examples
    --------
    A floor of two squares and a bridge over the second, 3 higher, reached by a ramp:

    >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
    >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (4, 0, 0), (4, 2, 0),
    ...          (0, 4, 3), (4, 4, 3), (4, 2, 3), (2, 2, 3), (0, 2, 3),
    ...          (0, 8, 0), (4, 8, 0)]
    >>> polys = [[0, 1, 2, 3, -1], [1, 4, 5, 2, -1], [6, 10, 9, 8, 7], [6, 7, 12, 11, -1]]
    >>> mesh = NavMesh3D(PolyMesh3D(verts, polys))
    >>> mesh.locate([(1, 1, 0), (1, 3, 3), (1, 3, 9)]).tolist()
    [0, 2, -1]
    >>> path = mesh.find_path((1, 3, 3), (1, 7, 0.5))
    >>> path.path.round(3).tolist()
    [[1.0, 3.0, 3.0], [1.0, 4.0, 3.0], [1.0, 7.0, 0.75]]
    >>> round(path.cost, 3)
    4.75
    >>> mesh.find_path((1, 1, 0), (1, 3, 3)).reason   # the floor never meets the bridge
    'unreachable'
    """

    #: The name of a saved 3-D navigation mesh (:func:`pathcraft.io.save`).
    kind = "navmesh3d"

    def __init__(
        self,
        polymesh: PolyMesh3D,
        *,
        height_tolerance: float = 0.0,
        vertical_tolerance: float = 1.0,
    ) -> None:
        if not isinstance(polymesh, PolyMesh3D):
            raise TypeError(
                f"polymesh must be a pathcraft.navmesh3d.PolyMesh3D; got {type(polymesh).__name__}"
            )
        if polymesh.num_polygons == 0:
            raise ValueError(
                "polymesh has no polygons: nothing to search (was the level built with "
                "nowhere an agent of the configured size can stand?)"
            )
        self._htol = check_number("height_tolerance", height_tolerance, low=0.0, inclusive=True)
        self._vtol = check_number(
            "vertical_tolerance", vertical_tolerance, low=0.0, inclusive=False
        )
        self._version = 0
        self._built = _search.prepare(polymesh, self._htol)

    # ------------------------------------------------------------------ the mesh

    @property
    def polymesh(self) -> PolyMesh3D:
        """The polygons searched now (with every tile added so far)."""
        return self._built.mesh

    @property
    def num_polygons(self) -> int:
        """How many polygons the mesh has."""
        return self._built.mesh.num_polygons

    @property
    def version(self) -> int:
        """A number that grows with every edit (a tile added or removed)."""
        return self._version

    @property
    def height_tolerance(self) -> float:
        """How far apart in height two edges may be and still join."""
        return self._htol

    @property
    def vertical_tolerance(self) -> float:
        """How far above or below the surface a position may be and be on it."""
        return self._vtol

    def __repr__(self) -> str:
        return f"NavMesh3D({self.num_polygons} polygons, version {self._version})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_loaded, (self.to_arrays(),))

    # ------------------------------------------------------------------ locating

    def _at(self, p: FloatArray) -> Polys:
        return _search.at(self._built, p, self._vtol)

    def locate(self, points: npt.ArrayLike) -> Any:
        """The polygon holding each point ``(x, y, z)``: the one over or under it
        within :attr:`vertical_tolerance`, the nearest in height (the lowest index on
        a shared edge); -1 for none.

        Parameters
        ----------
        points : (x, y, z) or array_like of shape (n, 3)

        Returns
        -------
        int or ndarray of int
            One index for one point, an ``(n,)`` array for ``n`` points.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 1), (2, 0, 1), (2, 2, 1), (0, 2, 1)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.locate((1, 1, 1.5)), mesh.locate([(1, 1, 5), (3, 1, 1)]).tolist()
        (0, [-1, -1])
        """
        pts, single = _points_arg("points", points)
        out = _search.located(self._built, pts, self._vtol)[0].astype(np.intp)
        return int(out[0]) if single else out

    def nearest_point(self, points: npt.ArrayLike) -> FloatArray:
        """The point of the surface for each point ``(x, y, z)``: straight down or up
        onto the polygon holding it (:meth:`locate`), else the nearest point of the
        surface in 3-D (Detour's ``findNearestPoly`` then ``closestPointOnPoly``).

        Returns a ``(3,)`` array for one point, ``(n, 3)`` for ``n``.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 1), (2, 0, 1), (2, 2, 1), (0, 2, 1)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.nearest_point((1, 1, 1.5)).tolist(), mesh.nearest_point((3, 1, 1)).tolist()
        ([1.0, 1.0, 1.0], [2.0, 1.0, 1.0])
        """
        pts, single = _points_arg("points", points)
        out = self._nearest(pts)[0]
        return out[0].copy() if single else out

    def _nearest(self, pts: FloatArray) -> tuple[FloatArray, Polys]:
        return _search.nearest(self._built, pts, self._vtol)

    def surface_point(self, point: Any, *, snap: bool = False, name: str = "point") -> FloatArray:
        """The point of the surface at ``point`` ``(x, y, z)``: straight down or up onto
        the polygon holding it (a new ``(3,)`` array).

        Raises
        ------
        ValueError
            ``point`` off the mesh (without ``snap``, which moves it to the nearest
            point of the surface) or not finite; ``name`` is its name in the message.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 1, 1), (0, 1, 1)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.surface_point((1, 0.5, 0.9)).tolist()
        [1.0, 0.5, 0.5]
        >>> mesh.surface_point((1, 3, 0), snap=True).tolist()
        [1.0, 1.0, 1.0]
        """
        check_flag("snap", snap)
        return self._place(name, point, snap)[0]

    def _place(self, name: str, value: Any, snap: bool) -> tuple[FloatArray, Polys]:
        """A checked position on the surface and the polygons holding it."""
        p = check_position(name, value, 3)
        polys = self._at(p)
        if polys.size == 0:
            if not snap:
                raise ValueError(
                    f"{name} {tuple(p.tolist())} is off the mesh (no polygon within "
                    f"vertical_tolerance={self._vtol:g} over or under it); pass snap=True "
                    "to move it to the nearest point on the mesh"
                )
            q, w = self._nearest(p[None])
            p = q[0]
            polys = self._at(p)
            if polys.size == 0:  # rounding left it a hair outside
                polys = w[:1]
        else:
            p = p.copy()
        p[2] = _surface.heights(self._built.surface, polys[:1], p[None, :2])[0]
        return p, polys

    # ------------------------------------------------------------------ searching

    def find_path(
        self,
        start: Any,
        goal: Any,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False,
        **options: Any,
    ) -> PathResult:
        """A path from ``start`` to ``goal``, both ``(x, y, z)``, along the surface.

        Parameters
        ----------
        start, goal : (x, y, z)
            Positions on the mesh: over or under a polygon within
            :attr:`vertical_tolerance` (they are moved onto its surface).
        algorithm : {"funnel", "optimal"}
            ``"funnel"`` (the default): A* over the portal graph (points on the
            shared edges, in 3-D), then the string pulled taut through the
            corridor's portals in the plane and lifted onto the surface (Detour's
            way). Not always the shortest path: the corridor is the best by the
            portals' points. ``"optimal"``: Polyanya (the flat
            :class:`~pathcraft.navmesh.NavMesh`'s ``"optimal"``) over the polygons
            seen from above, walking their 3-D adjacency (so floors stay apart):
            the path shortest *seen from above*, lifted onto the surface the same
            way. On flat floors it is the shortest path; over slopes the lengths
            optimised are those seen from above, so in 3-D it is at most
            ``1 / cos(a)`` times the shortest, ``a`` the steepest slope it crosses
            (on six game levels it was now and then longer in 3-D than the
            funnel's path, by at most 1.8%; ``bench/results/navmesh3d.md``).
        snap : bool
            Move a start or goal off the mesh to the nearest point on it (in 3-D).
        weight : float
            ``>= 1``: weighted A* over the portal graph (``"funnel"`` only).
        partial : bool
            When the goal is not reached, the path to the explored place nearest
            the goal (the result stays falsy, with its reason); with
            ``"optimal"``, the shortest path to where the funnel's search with the
            same limit gets.
        max_expansions : int or None
            Give up after expanding this many portal points (``"funnel"``) or
            search nodes (``"optimal"``: intervals of edges) (reason
            ``"max_expansions"``).

        Returns
        -------
        PathResult
            ``path`` an ``(n, 3)`` float array from start to goal on the surface
            (cut where it crosses a portal or a surface triangle's edge, so each
            segment lies on one triangle); ``cost`` its length in 3-D.

        Raises
        ------
        ValueError
            A position off the mesh without ``snap`` or not finite, an unknown
            algorithm or a bad option value.
        UnsupportedOptionError
            An option the funnel does not take (a ``TypeError`` naming those it takes).

        Examples
        --------
        A ramp rising 2 over 4 between two landings:

        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (6, 0, 2), (6, 2, 2),
        ...          (8, 0, 2), (8, 2, 2)]
        >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2], [4, 6, 7, 5]]))
        >>> result = mesh.find_path((1, 1, 0), (7, 1, 2))
        >>> result.path.tolist()
        [[1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [6.0, 1.0, 2.0], [7.0, 1.0, 2.0]]
        >>> round(result.cost, 4)   # 1 + sqrt(20) + 1
        6.4721
        >>> best = mesh.find_path((1, 1, 0), (7, 1, 2), algorithm="optimal")
        >>> best.path.tolist() == result.path.tolist(), best.cost == result.cost
        (True, True)
        >>> mesh.find_path((1, 1, 0), (7, 1, 9))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: goal (7.0, 1.0, 9.0) is off the mesh (no polygon within vertical_tolerance=1 ...
        """
        t0 = time.perf_counter()
        search = self._start("find_path", start, goal, algorithm, snap, options)
        search.step()
        return dataclasses.replace(search.result, elapsed=time.perf_counter() - t0)

    def start_search(
        self,
        start: Any,
        goal: Any,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False,
        **options: Any,
    ) -> CompiledSearch:
        """Start the search of :meth:`find_path` (same arguments, checked the same
        way) to be stepped over frames: ``step(n)`` expands at most ``n`` more portal
        points and returns ``"in_progress"``, ``"found"`` or the reason it ended;
        its ``result`` is then :meth:`find_path`'s. Adding or removing a tile cancels
        it at its next step.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (4, 0, 1), (4, 2, 1)]
        >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2]]))
        >>> search = mesh.start_search((1, 1, 0), (3, 1, 0.5))
        >>> while search.step(1) == "in_progress":
        ...     pass
        >>> search.result.path.tolist()
        [[1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [3.0, 1.0, 0.5]]
        """
        return self._start("start_search", start, goal, algorithm, snap, options)

    def _start(
        self, method: str, start: Any, goal: Any, algorithm: Any, snap: Any,
        options: Mapping[str, Any],
    ) -> CompiledSearch:  # fmt: skip
        opts = SearchOptions.check_call("NavMesh3D", method, algorithm, options)
        check_flag("snap", snap)
        s, sp = self._place("start", start, snap)
        g, gp = self._place("goal", goal, snap)
        return _search.start(self._built, self, s, sp, g, gp, opts, self._vtol)

    def find_paths(
        self, starts: Any, goals: Any, *, algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False, **options: Any,
    ) -> list[PathResult]:  # fmt: skip
        """:meth:`find_path` for each pair ``starts[i]``, ``goals[i]`` (``(n, 3)``
        arrays of ``(x, y, z)``), one result each.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> [r.cost for r in mesh.find_paths([(0, 0.5, 0), (1, 0.5, 0)], [(4, 0.5, 0)] * 2)]
        [4.0, 3.0]
        """
        s, g = _pairs_arg(starts, goals)
        return [
            self.find_path(a, b, algorithm=algorithm, snap=snap, **options)
            for a, b in zip(s, g, strict=True)
        ]

    def path_costs(
        self, starts: Any, goals: Any, *, algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False, **options: Any,
    ) -> FloatArray:  # fmt: skip
        """The cost of each of :meth:`find_paths`' paths (``inf`` where none).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.path_costs([(0, 0.5, 0)], [(4, 0.5, 0)]).tolist()
        [4.0]
        """
        results = self.find_paths(starts, goals, algorithm=algorithm, snap=snap, **options)
        return np.array([r.cost if r else math.inf for r in results], dtype=np.float64)

    def path_cost(self, path: npt.ArrayLike) -> float:
        """The cost of a path of points ``(x, y, z)``: its length in 3-D (what
        :meth:`find_path` gives as ``cost``).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.path_cost([(0, 0, 0), (3, 0, 0), (3, 0, 4)])
        7.0
        """
        return _surface.path_length(check_points("path", path, (3,)))

    def corners(self, path: npt.ArrayLike) -> FloatArray:
        """The corners of a path of points ``(x, y, z)`` on the surface (what Detour's
        ``findStraightPath`` gives): its start, its goal and the points where it turns
        seen from above, as a new ``(k, 3)`` array.

        :meth:`find_path`'s ``path`` follows the surface (a point wherever it crosses
        a portal or a detail triangle's edge) and its ``cost`` is the length walked
        over the bumps; the corners are what an agent steers by, and their length
        (straight lines between them, :meth:`path_cost`) cuts under the bumps as
        Detour's straight path does. At a step (a portal between polygons at
        different heights) the corner takes the height of the polygon the path goes
        on in.

        Raises
        ------
        ValueError
            ``path`` not of shape ``(n, 3)`` or not finite.
        TypeError
            ``path`` not numbers.

        Examples
        --------
        Over a ridge, 1 high, between two slopes:

        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> verts = [(0, 0, 0), (2, 0, 1), (2, 2, 1), (0, 2, 0), (4, 0, 0), (4, 2, 0)]
        >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2]]))
        >>> result = mesh.find_path((0.5, 0.5, 0), (3.5, 1.5, 0))
        >>> result.path.tolist(), result.cost
        ([[0.5, 0.5, 0.25], [2.0, 1.0, 1.0], [3.5, 1.5, 0.25]], 3.5)
        >>> corners = mesh.corners(result.path)
        >>> corners.tolist(), round(mesh.path_cost(corners), 4)
        ([[0.5, 0.5, 0.25], [3.5, 1.5, 0.25]], 3.1623)
        """
        return _surface.corners(check_points("path", path, (3,)), self._built.surface.scale)

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Capability ``"reachability"``: the connected part of every polygon and
        their number (a bridge and the floor under it are apart unless joined).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> verts = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 3), (1, 0, 3),
        ...          (1, 1, 3), (0, 1, 3)]
        >>> labels, n = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [4, 5, 6, 7]])).components()
        >>> labels.tolist(), n
        ([0, 1], 2)
        """
        labels = self._built.component.copy()
        return labels, int(labels.max()) + 1 if labels.size else 0

    def reachable(self, start: Any, goal: Any) -> bool:
        """Capability ``"reachability"``: whether a path leads from ``start`` to
        ``goal`` (``(x, y, z)`` positions on the mesh).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.reachable((0, 0.5, 0), (4, 0.5, 0))
        True
        """
        comp = self._built.component
        sp = self._place("start", start, False)[1]
        gp = self._place("goal", goal, False)[1]
        return bool(np.isin(comp[gp], comp[sp]).any())

    def _move_graph(self) -> Moves:
        # the polygons and their shared edges, both ways, as the labels are walked
        top = self._built.top
        return Moves(top.poff, top.nbr, None, directed=False)

    # ------------------------------------------------------------------ agents' queries

    def raycast(self, start: Any, end: Any, *, snap: bool = False) -> SurfaceHit:
        """How far the move from ``start`` towards ``end`` (both ``(x, y, z)``) goes
        along the surface before it leaves the mesh (Detour's ``raycast``): the
        segment is walked in the plane from the start's polygon through the portals
        it crosses (so it stays on the start's floor), its heights the surface's.

        Parameters
        ----------
        start, end : (x, y, z)
            ``start`` on the mesh; only ``end``'s ``(x, y)`` steers the move.
        snap : bool
            Move a ``start`` off the mesh to the nearest point on it first.

        Returns
        -------
        SurfaceHit
            ``hit``, ``fraction``, the ``point`` reached (on the surface), the wall's
            horizontal ``normal`` and the ``polygons`` crossed.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (4, 0, 1), (4, 2, 1)]
        >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2]]))
        >>> hit = mesh.raycast((1, 1, 0), (6, 1, 0))
        >>> hit.hit, hit.fraction, hit.point.tolist(), hit.normal.tolist()
        (True, 0.6, [4.0, 1.0, 1.0], [-1.0, 0.0, 0.0])
        >>> hit.polygons.tolist()
        [0, 1]
        """
        check_flag("snap", snap)
        built = self._built
        s, sp = self._place("start", start, snap)
        e = check_position("end", end, 3)
        flat = built.spatial.raycast(s[:2], e[:2], built.top, int(sp[0]))
        last = int(flat.polygons[-1]) if flat.polygons.size else int(sp[0])
        z = _surface.heights(built.surface, [last], flat.point[None])[0]
        point = np.array([flat.point[0], flat.point[1], z])
        normal = np.array([flat.normal[0], flat.normal[1], 0.0])
        return SurfaceHit(flat.fraction, point, flat.hit, flat.polygons, normal)

    def move_along_surface(self, start: Any, end: Any, *, snap: bool = False) -> MoveResult:
        """Move from ``start`` towards ``end`` (both ``(x, y, z)``; ``end``'s ``(x, y)``
        steers) along the surface, sliding along walls, never leaving the mesh nor the
        start's floor (Detour's ``moveAlongSurface``, as
        :meth:`NavMesh.move_along_surface <pathcraft.navmesh.NavMesh.move_along_surface>`
        does over the polygons seen from above): an agent's step this frame.

        Parameters
        ----------
        start, end : (x, y, z)
        snap : bool
            Move a ``start`` off the mesh to the nearest point on it first.

        Returns
        -------
        MoveResult
            The ``position`` reached, ``(x, y, z)`` on the surface; whether it is
            ``end`` seen from above (``reached``); the ``polygons`` from the start's to
            the one holding it.

        Raises
        ------
        ValueError
            ``start`` off the mesh (without ``snap``), a position not finite.

        Examples
        --------
        A ramp rising 1 over 2; a move into its side slides along it, up the slope:

        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 1), (2, 1, 1), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> move = mesh.move_along_surface((0.5, 0.5, 0.25), (1.0, 1.5, 0.5))
        >>> move.position.tolist(), move.reached
        ([1.0, 1.0, 0.5], False)
        """
        check_flag("snap", snap)
        s, sp = self._place("start", start, snap)
        e = check_position("end", end, 3)
        return _search.move_along(self._built, s, sp, e)

    def random_point(self, *, seed: int | np.random.Generator | None = None) -> FloatArray:
        """A random point ``(x, y, z)`` of the surface, uniform by its area in 3-D
        (Detour's ``findRandomPoint``; a ramp weighs its slope's area).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                             [[0, 1, 2, 3]]))
        >>> p = mesh.random_point(seed=3)
        >>> mesh.locate(p), p.tolist() == mesh.random_point(seed=3).tolist()
        (0, True)
        """
        point: FloatArray = self.random_points(1, seed=seed)[0].copy()
        return point

    def random_points(self, n: int, *, seed: int | np.random.Generator | None = None) -> FloatArray:
        """``n`` random points ``(x, y, z)``, uniform by area, as an ``(n, 3)`` array.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.random_points(5, seed=1).shape
        (5, 3)
        """
        count = check_count(n)
        return _surface.random_points(self._built.surface, count, seeded_rng(seed))[0]

    # ------------------------------------------------------------------ tiles

    @property
    def tile_ids(self) -> list[int]:
        """The ids of the tiles in the mesh, sorted (polygons untiled, -1, are not one)."""
        ids = np.unique(self._built.mesh.tiles)
        return [int(t) for t in ids if t >= 0]

    def add_tile(self, tile: PolyMesh3D) -> int:
        """Add a tile's polygons (Detour's ``addTile``): they join the polygons of
        neighbouring tiles where their edges coincide (within
        :attr:`height_tolerance`). Returns the tile's id: its polygons' ``tiles``
        value, or the next free id when they are all -1. The :attr:`version` grows;
        searches in progress are cancelled at their next step.

        Raises
        ------
        TypeError
            ``tile`` not a :class:`PolyMesh3D`.
        ValueError
            Its polygons name several tiles, or a tile the mesh has.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> west = PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0)], [[0, 1, 2, 3]],
        ...                   tiles=[0])
        >>> east = PolyMesh3D([(2, 0, 0), (4, 0, 0), (4, 2, 0), (2, 2, 0)], [[0, 1, 2, 3]])
        >>> mesh = NavMesh3D(west)
        >>> mesh.add_tile(east), mesh.version, mesh.tile_ids
        (1, 1, [0, 1])
        >>> mesh.find_path((1, 1, 0), (3, 1, 0)).cost
        2.0
        >>> mesh.remove_tile(1)
        >>> mesh.find_path((1, 1, 0), (3, 1, 0))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: goal (3.0, 1.0, 0.0) is off the mesh ...
        """
        if not isinstance(tile, PolyMesh3D):
            raise TypeError(f"tile must be a PolyMesh3D; got {type(tile).__name__}")
        tid = _tiles.tile_id_of(tile, set(self.tile_ids))
        tagged = PolyMesh3D._trusted(
            tile.vertices, tile.polygons, tile.areas,
            np.full(tile.num_polygons, tid, dtype=np.int32), tile.detail,
        )  # fmt: skip
        self._rebuild(_tiles.concat(self._built.mesh, tagged))
        return tid

    def remove_tile(self, tile_id: int) -> None:
        """Remove the polygons of tile ``tile_id`` (Detour's ``removeTile``); the
        :attr:`version` grows.

        Raises
        ------
        ValueError
            No such tile, or it holds every polygon left (a mesh keeps one).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> square = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
        >>> mesh = NavMesh3D(PolyMesh3D(square, [[0, 1, 2, 3]]))
        >>> mesh.add_tile(PolyMesh3D([(x + 1, y, z) for x, y, z in square], [[0, 1, 2, 3]]))
        0
        >>> mesh.remove_tile(0)
        >>> mesh.num_polygons, mesh.version
        (1, 2)
        """
        if isinstance(tile_id, bool) or not isinstance(tile_id, (int, np.integer)):
            raise TypeError(f"tile_id must be an int; got {tile_id!r}")
        tiles = self._built.mesh.tiles
        gone = tiles == int(tile_id)
        if tile_id < 0 or not gone.any():
            raise ValueError(
                f"tile_id {tile_id!r} is not in the mesh; its tiles are {self.tile_ids}"
            )
        if gone.all():
            raise ValueError(f"tile {tile_id} holds every polygon: a mesh keeps at least one")
        self._rebuild(_tiles.without(self._built.mesh, ~gone))

    def _rebuild(self, mesh: PolyMesh3D) -> None:
        self._built = _search.prepare(mesh, self._htol)
        self._version += 1

    # ------------------------------------------------------------------ capabilities

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: the polygon mesh's arrays
        (:meth:`PolyMesh3D.to_arrays`) and the two tolerances, for :meth:`from_arrays`
        and :func:`pathcraft.io.save`.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]))
        >>> NavMesh3D.from_arrays(mesh.to_arrays()).num_polygons
        1
        """
        return self._built.mesh.to_arrays() | {
            "height_tolerance": np.array(self._htol),
            "vertical_tolerance": np.array(self._vtol),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> NavMesh3D:
        """Capability ``"save"``: the mesh :meth:`to_arrays` wrote, checked as
        :class:`PolyMesh3D` checks its arrays.

        Raises
        ------
        ValueError
            An array missing, of the wrong dtype or shape, or holding bad values.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]),
        ...                  vertical_tolerance=0.5)
        >>> NavMesh3D.from_arrays(mesh.to_arrays()).vertical_tolerance
        0.5
        """
        saved = SavedArrays(arrays, cls.kind)
        return cls(
            PolyMesh3D.from_arrays(arrays),
            height_tolerance=saved.take("height_tolerance", "float", 0),
            vertical_tolerance=saved.take("vertical_tolerance", "float", 0),
        )

    def plot(
        self, result: PathResult | None = None, ax: Any = None, *,
        view: Literal["3d", "top"] = "3d", **kwargs: Any,
    ) -> Any:  # fmt: skip
        """Capability ``"plot"``: the mesh and ``result``'s path in 3-D or from above
        (:func:`pathcraft.viz.plot_mesh3d`; needs the ``viz`` extra).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 1)], [[0, 1, 2]]))
        >>> mesh.plot(view="top").get_aspect()
        1.0
        """
        from pathcraft.viz import plot_mesh3d

        return plot_mesh3d(self, result, ax, view=view, **kwargs)

    def agent_space(self, *, algorithm: Literal["funnel", "optimal"] = "funnel") -> Any:
        """Capability ``"agent_space"``: this mesh as agents' space
        (:class:`~pathcraft.navmesh3d.MeshSpace3D`): nodes are ``(x, y, z)`` points
        on the surface, paths :meth:`find_path`'s (by ``algorithm``).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.agent_space().key((3, 0.5, 0.2))
        (3.0, 0.5, 0.0)
        """
        return MeshSpace3D(self, algorithm=algorithm)

    replanner = refused(
        "NavMesh3D", "replanner", "replanner", "a mesh's tiles rebuild polygons; search it afresh"
    )
    replan_space = refused(
        "NavMesh3D", "replan_space", "replanner",
        "a mesh's tiles rebuild polygons; search it afresh",
    )  # fmt: skip
    places = refused(
        "NavMesh3D", "places", "places", "its places are (x, y, z) points, not a list to number"
    )


def _loaded(arrays: Mapping[str, npt.NDArray[Any]]) -> NavMesh3D:
    return NavMesh3D.from_arrays(arrays)


def _points_arg(name: str, points: npt.ArrayLike) -> tuple[FloatArray, bool]:
    """Checked points ``(x, y, z)`` as an ``(n, 3)`` array, and whether one was given."""
    arr = np.asarray(points)
    single = arr.ndim == 1
    return check_points(name, arr[None] if single else arr, (3,)), single


def _pairs_arg(starts: Any, goals: Any) -> tuple[FloatArray, FloatArray]:
    s = check_points("starts", starts, (3,))
    g = check_points("goals", goals, (3,))
    if s.shape[0] != g.shape[0]:
        raise ValueError(f"starts has {s.shape[0]} points and goals {g.shape[0]}: one goal each")
    return s, g


register_kind(NavMesh3D)
