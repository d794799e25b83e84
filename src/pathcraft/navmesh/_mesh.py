"""The :class:`NavMesh` class: convex polygons, their portals and the queries on them.

Why this file is longer than 600 lines: a world is one class whose public methods are
its own (``tests/test_layout.py``: no mixins, each method defined in the class with
its documentation and a runnable example), and a navmesh has many (building, points,
area costs, links, carving, queries). Their documentation is about two thirds of the
file; the code is thin doors onto the focused modules that do the work:
:mod:`~pathcraft.navmesh._build` and :mod:`~pathcraft.navmesh._sources` (building and
checking), :mod:`~pathcraft.navmesh._baked` (saved arrays),
:mod:`~pathcraft.navmesh._spatial` (points), :mod:`~pathcraft.navmesh._graphs` (the
polygon and portal graphs, patched after edits), :mod:`~pathcraft.navmesh._areas`,
:mod:`~pathcraft.navmesh._links`, :mod:`~pathcraft.navmesh._carve`,
:mod:`~pathcraft.navmesh._filter` (per-query filters) and
:mod:`~pathcraft.navmesh._query` (the searches).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import partial as partial_fn
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._changes import ChangeLog
from pathcraft._core import navmesh as _walk
from pathcraft._options import SearchOptions, check_flag
from pathcraft._positions import check_number as _check_number
from pathcraft._positions import check_position as _position
from pathcraft._reach import Labelled, Moves, moves_from_edges
from pathcraft._shorthands import RefusedShorthands
from pathcraft._sliced import CompiledSearch
from pathcraft.navmesh import _agentq, _areas, _baked, _build, _carve, _query, _sources
from pathcraft.navmesh._filter import Policy, PolicyCache, QueryFilter, check_filter, filtered
from pathcraft.navmesh._filter import pricing as _pricing
from pathcraft.navmesh._graphs import MeshGraphs, MeshParts
from pathcraft.navmesh._links import Link, LinkGraph, LinkSet
from pathcraft.navmesh._portals import Portals
from pathcraft.navmesh._radius import RadiusCache, check_radius
from pathcraft.navmesh._space import MeshSpace
from pathcraft.navmesh._spatial import RaycastHit, SpatialIndex, points_arg
from pathcraft.result import PathResult
from pathcraft.world import refused, register_kind

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._options import Options

__all__ = ["NavMesh", "RaycastHit"]

FloatArray = npt.NDArray[np.float64]


class NavMesh(RefusedShorthands, Labelled):
    """A navigation mesh: convex polygons in ``(x, y)`` sharing edges (portals).

    Parameters
    ----------
    vertices : array_like, shape (V, 2)
        The vertex coordinates ``(x, y)``, each point once.
    polygons : sequence of sequences of int
        One vertex-index list per polygon, in order around it. Each polygon must be
        convex (straight angles allowed) and simple; clockwise ones are reversed, so
        every polygon is stored counter-clockwise. Polygons connect where they share a
        whole edge; they must not overlap, and a vertex may not sit inside another
        polygon's edge (a T-junction: split the edge there).

    Raises
    ------
    TypeError
        Non-numeric vertices, polygons that are not index lists.
    ValueError
        Non-finite or repeated vertices, an empty mesh, an index out of range, a
        non-convex, self-intersecting or degenerate polygon, overlapping polygons, a
        T-junction. Each message names the polygon or vertex.

    See Also
    --------
    NavMesh.from_geometry : a mesh of walkable shapely geometry.
    NavMesh.from_grid : a mesh of a grid's walkable cells.

    Examples
    --------
    Two squares side by side share the edge from vertex 1 to vertex 4:

    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
    ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
    >>> mesh.num_polygons, mesh.locate([(0.5, 0.5), (1.5, 0.2), (3, 3)]).tolist()
    (2, [0, 1, -1])
    >>> mesh.find_path((0.2, 0.5), (1.8, 0.5)).path.tolist()
    [[0.2, 0.5], [1.8, 0.5]]
    >>> NavMesh([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)], [[0, 1, 2, 3, 4]])
    Traceback (most recent call last):
    ...
    ValueError: polygons[0] is not convex: it turns the wrong way at vertex 2 (1.0, 1.0)
    """

    def __init__(self, vertices: npt.ArrayLike, polygons: Any) -> None:
        xy = _build.check_vertices(vertices)
        polys = _build.check_convex(xy, _build.check_polygons(polygons, xy.shape[0]))
        self._setup(_build.topology(xy, polys), check=True)

    # ------------------------------------------------------------------ building

    @classmethod
    def _trusted(cls, xy: FloatArray, polys: list[npt.NDArray[np.intp]]) -> NavMesh:
        """A mesh of counter-clockwise convex polygons known to be valid."""
        mesh = cls.__new__(cls)
        mesh._setup(_build.topology(xy, polys), check=False)
        return mesh

    @classmethod
    def from_geometry(cls, walkable: Any, *, agent_radius: float = 0.0) -> NavMesh:
        """A mesh covering walkable shapely geometry (an outline with holes).

        The area is triangulated (constrained Delaunay, by shapely) and the triangles
        merged into convex polygons (Hertel-Mehlhorn; see :mod:`pathcraft.navmesh`).

        Parameters
        ----------
        walkable : shapely Polygon or MultiPolygon
            The walkable space in ``(x, y)``; holes are obstacles.
        agent_radius : float
            Shrink the walkable space by this radius first (``shapely.buffer`` with a
            negative distance; corners rounded by 16 segments a quarter circle, as
            :meth:`for_radius` and every continuous world's radius), so paths keep an
            agent's centre this far from walls.

        Raises
        ------
        TypeError
            ``walkable`` is not a shapely geometry.
        ValueError
            An invalid, empty or non-polygonal geometry, non-finite coordinates, a
            negative radius, or nothing left after shrinking.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> room = box(0, 0, 10, 10).difference(box(4, 0, 6, 8))
        >>> mesh = NavMesh.from_geometry(room)
        >>> result = mesh.find_path((1, 1), (9, 1), algorithm="optimal")
        >>> result.path.tolist()
        [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
        """
        return cls._trusted(*_sources.from_geometry(_sources.shrunk(walkable, agent_radius)))

    @classmethod
    def from_grid(cls, grid: Any) -> NavMesh:
        """A mesh of a grid's walkable cells (a :class:`~pathcraft.Grid` or a boolean
        ``(rows, cols)`` array, True where walkable).

        Cell ``(row, col)`` becomes the unit square ``[col, col + 1] x [row, row + 1]``
        in ``(x, y)``, so its centre is ``(col + 0.5, row + 0.5)``. Cells are merged
        into rectangles whose sides are split where neighbours' corners meet them (no
        T-junctions); cells that touch only at a corner are not connected. Terrain
        costs are not kept: the mesh is walkable or not.

        Raises
        ------
        TypeError
            Neither a Grid nor a 2-D boolean array.
        ValueError
            No walkable cell.

        Examples
        --------
        >>> from pathcraft import Grid, NavMesh
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .###.
        ... .....
        ... ''')
        >>> mesh = NavMesh.from_grid(grid)
        >>> mesh.num_polygons
        4
        >>> round(mesh.find_path((0.5, 0.5), (4.5, 2.5), algorithm="optimal").cost, 4)
        5.1167
        """
        return cls._trusted(*_sources.from_walkable(_sources.walkable_cells(grid)))

    @classmethod
    def from_arrays(cls, arrays: _baked.Arrays) -> NavMesh:
        """A mesh from the arrays :meth:`to_arrays` wrote, without rebuilding it.

        The baked form of a mesh: no convexity or overlap check, no portal search, no
        triangulation, so a game loads its level's mesh in milliseconds
        (:func:`pathcraft.io.load` reads it from a file). Only what could make the
        compiled queries read out of bounds is checked: every array present with its
        dtype and shape, every index in range, portals paired. The polygons' shapely
        shapes and their STRtree are made on the first query that needs them
        (:meth:`locate` and the searches do).

        Raises
        ------
        ValueError
            The first array that is missing, of the wrong dtype or shape, or that holds
            an index out of range (its name in the message).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> again = NavMesh.from_arrays(mesh.to_arrays())
        >>> again.find_path((0.2, 0.5), (1.8, 0.5)).path.tolist()
        [[0.2, 0.5], [1.8, 0.5]]
        """
        top, derived = _baked.check_baked(arrays)
        mesh = cls.__new__(cls)
        mesh._setup(top, check=False, lazy=True, **derived)
        if "area_costs" in arrays:  # optional: a mesh saved with area costs
            costs = _areas.check_costs("area_costs", arrays["area_costs"], mesh.num_polygons)
            mesh._area_costs = costs
        mesh._links = LinkSet.from_arrays(arrays)  # optional: a mesh saved with links
        return mesh

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The mesh as named flat NumPy arrays, for :meth:`from_arrays` (and the files
        of :func:`pathcraft.io.save`): vertices, polygons, portals, centroids and
        components, and ``area_costs`` when some polygon costs other than 1
        (:meth:`set_area_cost`), and ``link_ids``, ``link_points``, ``link_costs``,
        ``link_two_way`` when it has links (:meth:`add_link`). New arrays; nothing
        needs pickle. A carved mesh is written as it stands, its obstacles part of
        its walls: the mesh read back has no :attr:`obstacles` to remove (write the
        mesh before carving, and carve again after reading, to keep them removable).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> arrays = NavMesh([(0, 0), (1, 0), (0, 1)], [[0, 1, 2]]).to_arrays()
        >>> arrays["offsets"].tolist(), arrays["indices"].tolist()
        ([0, 3], [0, 1, 2])
        """
        costs = {} if self._area_costs is None else {"area_costs": self._area_costs.copy()}
        return _baked.baked(self._top, self._centroids, self._component) | costs | (
            self._links.to_arrays()
        )

    def _setup(
        self,
        top: _build.Topology,
        *,
        check: bool,
        lazy: bool = False,
        centroids: FloatArray | None = None,
        component: npt.NDArray[np.int32] | None = None,
    ) -> None:
        self._top = top
        shapes = tree = None
        if not lazy:
            shapes = _build.shapes(top)
            tree = shapely.STRtree(shapes)
            if check:
                _build.check_overlaps(top, shapes, tree)
        if centroids is None:
            polys = shapes if shapes is not None else _build.shapes(top)
            centroids = shapely.get_coordinates(shapely.centroid(polys))
        self._centroids = centroids
        self._spatial = SpatialIndex(top, centroids, shapes, tree)
        if component is None:
            component = np.empty(self.num_polygons, dtype=np.int32)
            _walk.components(top.poff, top.nbr, component)
        self._component = component
        # the polygon graph and the portal graph, patched after edits: see _graphs
        self._graphs = MeshGraphs(top, centroids)
        self._scale = float(np.abs(top.xy).max()) + 1.0
        # the meshes of query radii (issue 17), built on first use: see for_radius
        self._radii = RadiusCache(self._walkable_area, NavMesh.from_geometry)
        # area costs per polygon (issue 20): None while every polygon costs 1
        self._area_costs: FloatArray | None = None
        # off-mesh links (issue 20): see add_link
        self._links = LinkSet()
        # obstacles carved at run time and the log of edits (issue 18): see _carve
        self._carving: _carve.Carving | None = None
        self._log = ChangeLog(limit=self.num_polygons)
        # the policies of the last query filters, by version (see _filter)
        self._filters = PolicyCache()
        # what the agents' queries derive of a topology (triangles, walls): see _agentq
        self._agentq = _agentq.AgentCache()

    # ------------------------------------------------------------------ radii

    def _walkable_area(self) -> Any:
        return shapely.union_all(self._spatial.shapes)

    def for_radius(self, radius: float) -> NavMesh:
        """The mesh an agent of ``radius`` walks on: what every query with
        ``radius=`` runs on.

        It covers the walkable area (the union of this mesh's polygons) shrunk by
        ``radius`` (``shapely.buffer`` with distance ``-radius``: where the centre of a
        disc of that radius fits), triangulated and merged like
        :meth:`from_geometry`'s. Built on the first query of a radius and kept (8
        radii per mesh at most, the oldest dropped first), so a game pays for each of
        its agent sizes once. On a mesh built with ``agent_radius``, the radii add up.

        Parameters
        ----------
        radius : float
            A finite number ``>= 0``; 0 returns this mesh.

        Raises
        ------
        TypeError, ValueError
            ``radius`` not a finite number >= 0; nothing left after shrinking.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> round(mesh.for_radius(0.5).area, 4), round(mesh.area, 4)
        (57.1079, 84.0)
        >>> mesh.for_radius(0.5) is mesh.for_radius(0.5)
        True
        """
        r = check_radius(radius)
        if r == 0:
            return self
        built: NavMesh = self._radii.mesh(r)
        return built

    def __reduce__(self) -> tuple[Any, ...]:
        polys = self.polygons
        state = {
            "_area_costs": self._area_costs, "_links": self._links, "_carving": self._carving,
        }
        return (NavMesh._trusted, (self._top.xy, polys), state)

    # ------------------------------------------------------------------ properties

    @property
    def vertices(self) -> FloatArray:
        """The vertex coordinates, ``(V, 2)`` ``(x, y)`` (a read-only view)."""
        view = self._top.xy.view()
        view.flags.writeable = False
        return view  # type: ignore[no-any-return]

    @property
    def polygons(self) -> list[npt.NDArray[np.intp]]:
        """Each polygon's vertex indices, counter-clockwise (new arrays)."""
        return _build.per_polygon(self._top, self._top.pv)

    @property
    def polygon_neighbors(self) -> list[npt.NDArray[np.intp]]:
        """For each polygon, the polygon across each of its edges (-1: a wall); edge
        ``k`` runs from vertex ``k`` of the polygon to vertex ``k + 1`` (new arrays).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> [n.tolist() for n in mesh.polygon_neighbors]
        [[-1, 1, -1, -1], [-1, -1, -1, 0]]
        """
        return _build.per_polygon(self._top, self._top.nbr)

    @property
    def shapes(self) -> npt.NDArray[Any]:
        """The polygons as shapely Polygons (an object array)."""
        shapes: npt.NDArray[Any] = self._spatial.shapes.copy()
        return shapes

    @property
    def area(self) -> float:
        """The walkable area."""
        return float(shapely.area(self._spatial.shapes).sum())

    def __repr__(self) -> str:
        portals = int((self._top.nbr >= 0).sum()) // 2
        return (
            f"NavMesh({self.num_polygons} polygons, {self._top.xy.shape[0]} vertices, "
            f"{portals} portals)"
        )

    # ------------------------------------------------------------------ points

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
        pts, single = points_arg("points", points)
        out = self._spatial.locate(pts)
        return int(out[0]) if single else out

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
        pts, single = points_arg("points", points)
        out = self._spatial.nearest(pts, "points")
        return out[0].copy() if single else out

    def raycast(
        self,
        start: Any,
        end: Any,
        *,
        filter: QueryFilter | None = None,
        snap: bool = False,
    ) -> RaycastHit:
        """How far the straight move from ``start`` to ``end`` (both ``(x, y)``) gets
        before it leaves the mesh (Detour's ``raycast``): the segment is walked from
        the start's polygon through the portals it crosses.

        Parameters
        ----------
        start, end : (x, y)
        filter : QueryFilter, optional
            Polygons it excludes are walls to the ray.
        snap : bool
            Move a ``start`` off the mesh to the nearest point on it first.

        Returns
        -------
        RaycastHit
            ``hit``, the ``fraction`` of the segment walked and the ``point`` reached
            (``end`` when nothing is hit), the wall's unit ``normal`` (into the
            walkable side) and the ``polygons`` crossed, in order.

        Raises
        ------
        ValueError
            ``start`` is off the mesh (without ``snap``) or only in excluded polygons,
            or a position is not finite.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> hit = mesh.raycast((0.5, 0.5), (4.5, 0.5))
        >>> hit.hit, hit.fraction, hit.point.tolist(), hit.polygons.tolist()
        (True, 0.375, [2.0, 0.5], [0, 1])
        >>> hit.normal.tolist()
        [-1.0, 0.0]
        """
        check_flag("snap", snap)
        policy = self._policy(check_filter(filter))
        s, poly = self._agent_start("start", start, snap, policy)
        return self._spatial.raycast(s, _position("end", end, 2), policy.top, poly)

    def _agent_start(
        self, name: str, value: Any, snap: bool, policy: Policy
    ) -> tuple[FloatArray, int]:
        """A checked start and the first polygon holding it that ``policy`` allows."""
        p, polys = self._place(name, value, snap)
        allowed = policy.allowed(polys)
        if allowed.size == 0:
            raise ValueError(
                f"{name} {tuple(p.tolist())} is only in polygons the filter excludes "
                f"({polys.tolist()})"
            )
        return p, int(allowed[0])

    def random_point(
        self,
        *,
        seed: int | np.random.Generator | None = None,
        filter: QueryFilter | None = None,
    ) -> FloatArray:
        """A random point ``(x, y)`` of the walkable area, uniform by area (Detour's
        ``findRandomPoint``): a triangle of the polygons (each fanned from its first
        vertex) drawn by area, then a uniform point in it.

        Parameters
        ----------
        seed : int, numpy.random.Generator or None
            Makes the draw reproducible; a Generator is drawn from (and advanced).
        filter : QueryFilter, optional
            Polygons it excludes are never drawn.

        Returns
        -------
        ndarray, shape (2,)

        Raises
        ------
        TypeError, ValueError
            ``seed`` not an int >= 0, a Generator or None; every polygon excluded.

        See Also
        --------
        random_points : many at once.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (4, 0), (4, 2), (0, 2)], [[0, 1, 2, 3]])
        >>> p = mesh.random_point(seed=7)
        >>> mesh.locate(p), p.tolist() == mesh.random_point(seed=7).tolist()
        (0, True)
        """
        point: FloatArray = self.random_points(1, seed=seed, filter=filter)[0].copy()
        return point

    def random_points(
        self,
        n: int,
        *,
        seed: int | np.random.Generator | None = None,
        filter: QueryFilter | None = None,
        around: Any = None,
        max_distance: float | None = None,
    ) -> FloatArray:
        """``n`` random points of the walkable area, independent and uniform by area, as
        an ``(n, 2)`` array of ``(x, y)``: spawn points, wandering targets.

        Parameters
        ----------
        n : int
            How many, ``>= 0``.
        seed, filter
            As for :meth:`random_point`.
        around : (x, y), optional
            With ``max_distance``: draw within the disc of that radius around this
            point on the mesh (Detour's ``findRandomPointAroundCircle``, but uniform):
            uniform over the walkable area of the disc in the connected part of the
            mesh holding ``around`` (points of the disc drawn, those off the mesh or
            in another part rejected).
        max_distance : float, optional
            The radius of that disc, a finite number ``> 0``.

        Raises
        ------
        TypeError, ValueError
            ``n`` not an integer >= 0; a bad ``seed``; ``around`` off the mesh or
            without ``max_distance`` (or the reverse); every polygon excluded.

        Examples
        --------
        >>> import numpy as np
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 4, 6, 6)))
        >>> pts = mesh.random_points(1000, seed=0)
        >>> pts.shape, bool((mesh.locate(pts) >= 0).all())
        ((1000, 2), True)
        >>> near = mesh.random_points(100, seed=0, around=(1, 1), max_distance=2.0)
        >>> bool((np.hypot(*(near - (1, 1)).T) <= 2.0).all())
        True
        """
        count = _agentq.check_count(n)
        policy = self._policy(check_filter(filter))
        if around is None:
            if max_distance is not None:
                raise ValueError("max_distance needs around=(x, y), the centre of the disc")
            return _agentq.random_points(self._agentq.get(policy.top, policy.blocked), count, seed)
        centre, poly = self._agent_start("around", around, False, policy)
        if max_distance is None:
            raise ValueError("around needs max_distance=, the radius of the disc")
        reach = _check_number("max_distance", max_distance, low=0.0, inclusive=False)
        component = policy.component
        part = component[poly]

        def kept(pts: FloatArray) -> npt.NDArray[np.bool_]:
            where = self._spatial.locate(pts)
            ok = where >= 0
            ok[ok] = component[where[ok]] == part
            if policy.blocked is not None:
                ok[ok] = ~policy.blocked[where[ok]]
            return ok

        return _agentq.random_around(count, seed, centre, reach, kept)

    def distance_to_wall(
        self,
        points: npt.ArrayLike,
        *,
        max_distance: float = np.inf,
        filter: QueryFilter | None = None,
    ) -> _agentq.WallDistance:
        """The distance from each point ``(x, y)`` to the nearest wall (the boundary of
        the walkable area), that wall point and the normal there (Detour's
        ``findDistanceToWall``, vectorised: an STRtree of the walls).

        Parameters
        ----------
        points : (x, y) or array_like of shape (n, 2)
            On the mesh.
        max_distance : float
            Walls farther away are not looked for: ``inf`` distance and NaN points
            there. ``inf`` by default.
        filter : QueryFilter, optional
            The edges of polygons it excludes are walls too.

        Returns
        -------
        WallDistance
            ``distance`` (a float for one point, ``(n,)`` for ``n``), ``point`` and
            ``normal`` (``(2,)`` or ``(n, 2)``; the normal is a unit vector from the
            wall point towards the query point).

        Raises
        ------
        ValueError
            A point off the mesh (or only in excluded polygons), not finite, or a
            ``max_distance`` not > 0.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (4, 0), (4, 2), (0, 2)], [[0, 1, 2, 3]])
        >>> near = mesh.distance_to_wall([(1, 0.5), (3.5, 1.0)])
        >>> near.distance.tolist(), near.point.tolist()
        ([0.5, 0.5], [[1.0, 0.0], [4.0, 1.0]])
        >>> mesh.distance_to_wall((2, 1), max_distance=0.5).distance
        inf
        >>> mesh.distance_to_wall((5, 1))
        Traceback (most recent call last):
        ...
        ValueError: points[0] (5.0, 1.0) is off the mesh
        """
        pts, single = points_arg("points", points)
        reach = _check_number("max_distance", max_distance, low=0.0, inclusive=False, inf=True)
        policy = self._policy(check_filter(filter))
        where = self._spatial.locate(pts)
        off = np.flatnonzero(where < 0)
        if off.size:
            i = int(off[0])
            raise ValueError(f"points[{i}] {tuple(pts[i].tolist())} is off the mesh")
        if policy.blocked is not None:
            for i in np.flatnonzero(policy.blocked[where]).tolist():
                self._agent_start(f"points[{i}]", pts[i], False, policy)
        out = _agentq.wall_distance(self._agentq.get(policy.top, policy.blocked), pts, reach)
        if single:
            return _agentq.WallDistance(float(out.distance[0]), out.point[0], out.normal[0])
        return out

    def move_along_surface(
        self,
        start: Any,
        end: Any,
        *,
        filter: QueryFilter | None = None,
        snap: bool = False,
    ) -> _agentq.MoveResult:
        """Move from ``start`` towards ``end`` (both ``(x, y)``) along the surface of the
        mesh, sliding along walls, never leaving it (Detour's ``moveAlongSurface``): an
        agent's step this frame.

        The polygons near the move (those reached through portals within the circle
        around it, centred halfway, of half its length) are searched breadth first;
        the move ends at ``end`` when one of them holds it (always so when the
        straight segment stays on the mesh), else at the point of their walls nearest
        ``end`` (the start if no wall point is nearer), moved a hair inside if rounding
        left it out, so the next move can start there. Meant for short moves; a long
        one is a path (:meth:`find_path`).

        Parameters
        ----------
        start, end : (x, y)
        filter : QueryFilter, optional
            Polygons it excludes are walls.
        snap : bool
            Move a ``start`` off the mesh to the nearest point on it first.

        Returns
        -------
        MoveResult
            The ``position`` reached, whether it is ``end`` (``reached``) and the
            ``polygons`` from the start's to the one holding it.

        Raises
        ------
        ValueError
            ``start`` off the mesh (without ``snap``) or only in excluded polygons, a
            position not finite.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 0, 6, 6)))
        >>> move = mesh.move_along_surface((3, 3), (5, 4))   # into the pillar: slides
        >>> move.position.tolist(), move.reached
        ([4.0, 4.0], False)
        >>> mesh.move_along_surface((3, 3), (3, 5)).reached
        True
        """
        check_flag("snap", snap)
        policy = self._policy(check_filter(filter))
        s, poly = self._agent_start("start", start, snap, policy)
        e = _position("end", end, 2)
        return _agentq.move_along_surface(policy.top, poly, s, e, self._scale)

    def polygons_at(self, p: FloatArray) -> npt.NDArray[np.int32]:
        """Every polygon holding the point ``p``, an ``(x, y)`` float array (on shared
        edges and vertices, several), sorted; empty off the mesh. Unchecked: for
        pathcraft's own modules (:meth:`locate` checks its input).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.polygons_at(np.array([1.0, 0.5])).tolist()   # on the shared edge
        [0, 1]
        """
        return self._spatial.containing(p)

    @property
    def parts(self) -> MeshParts:
        """The arrays a query reads, bundled (internal: see
        :class:`~pathcraft.navmesh._graphs.MeshParts`)."""
        graph = self._graphs.polygon_graph(self._top, self._centroids)
        return MeshParts(self._top, self._spatial.shapes, self._centroids, self._component, graph)

    @property
    def spatial(self) -> SpatialIndex:
        """Where points and rays fall on the polygons (internal: see
        :class:`~pathcraft.navmesh._spatial.SpatialIndex`); replaced when the mesh is
        carved."""
        return self._spatial

    @property
    def portal_graph(self) -> Portals:
        """The graph of portals (shared edges, at their midpoints) the funnel's corridor
        search runs on, built on first use (internal: see
        :mod:`pathcraft.navmesh._portals`). After carving or new area costs it is
        patched on first use: only the rows of the portals around the change are
        made again (:func:`~pathcraft.navmesh._portals.patch_portals`)."""
        return self._graphs.portal_graph(self._top, self._area_costs)

    # ------------------------------------------------------------------ area costs
    @property
    def area_costs(self) -> FloatArray:
        """The area cost (multiplier) of each polygon, a copy (all 1 by default):
        see :meth:`set_area_cost`.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.area_costs.tolist()
        [1.0, 1.0]
        """
        out: FloatArray = (
            np.ones(self.num_polygons) if self._area_costs is None else self._area_costs.copy()
        )
        return out

    @property
    def has_area_costs(self) -> bool:
        """Whether some polygon costs other than 1 (see :meth:`set_area_cost`).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.has_area_costs
        False
        """
        return self._area_costs is not None

    def set_area_cost(self, polygons: Any, multiplier: float) -> None:
        """Give the polygons ``polygons`` (ids, one or a sequence) the area cost
        ``multiplier``: mud, water or a road, which the funnel weighs.

        The funnel's corridor search (``algorithm="funnel"``) weighs each move across a
        polygon by its multiplier, so it picks the corridor cheapest by those costs;
        the path is then the string pulled taut inside that corridor, the corridor's
        shortest line (not the cheapest line inside it when its polygons' costs
        differ). With any cost other than 1 the funnel always searches (no straight
        line shortcut, except inside one polygon) and the result's ``cost`` is the sum
        over the path's pieces of length x the multiplier of the polygon each piece lies
        in (a piece along a shared edge at the cheaper one). Polyanya
        (``algorithm="optimal"``) knows only lengths: it refuses a mesh with area costs
        (a ``ValueError`` naming the funnel), as do queries with ``radius=`` (the
        shrunk mesh's polygons are other polygons). These costs are the mesh's own,
        every query's default: units that value areas differently each pass a
        :class:`~pathcraft.navmesh.QueryFilter` (``filter=``) instead of changing
        the mesh.

        Parameters
        ----------
        polygons : int or sequence of int
            Polygon ids, in ``[0, num_polygons)``.
        multiplier : float
            A finite number ``>= 1`` (1, the default, restores a polygon): a road is
            the cheap area among costlier ones, so the search's Euclidean heuristic
            stays admissible.

        Raises
        ------
        TypeError, ValueError
            ``polygons`` not polygon ids of this mesh; ``multiplier`` not a finite
            number >= 1 (below 1, zero, negative, NaN).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 8)))
        >>> mesh.find_path((1, 5), (9, 5)).path.tolist()         # over the wall
        [[1.0, 5.0], [4.0, 8.0], [6.0, 8.0], [9.0, 5.0]]
        >>> mesh.set_area_cost(mesh.locate((5, 9)), 3.0)         # mud over the wall
        >>> mesh.find_path((1, 5), (9, 5)).path.tolist()         # under it instead
        [[1.0, 5.0], [4.0, 2.0], [6.0, 2.0], [9.0, 5.0]]
        >>> mesh.set_area_cost(mesh.locate((5, 1)), 4.0)         # deeper mud under it
        >>> path = mesh.find_path((1, 5), (9, 5))
        >>> path.path.tolist(), round(path.cost, 4)              # 2 units in mud x 3
        ([[1.0, 5.0], [4.0, 8.0], [6.0, 8.0], [9.0, 5.0]], 14.4853)
        """
        ids = _areas.check_ids("polygons", polygons, self.num_polygons)
        cost = _areas.check_cost("multiplier", multiplier)
        costs = self.area_costs
        before = costs[ids]
        costs[ids] = cost
        self._area_costs = None if bool((costs == 1.0).all()) else costs
        self._graphs.recosted(np.atleast_1d(ids))
        self._log.record(np.atleast_1d(ids)[np.atleast_1d(before) != cost])

    def path_cost(
        self, path: npt.ArrayLike, *, links: npt.ArrayLike | None = None,
        filter: QueryFilter | None = None,
    ) -> float:  # fmt: skip
        """The cost of ``path`` (``(n, 2)`` points ``(x, y)`` on the mesh) under the
        area costs: the sum over its pieces of length x the multiplier of the polygon
        each piece lies in (its length when every polygon costs 1). A point of the
        path off the mesh is refused (ValueError).

        ``filter`` (a :class:`~pathcraft.navmesh.QueryFilter`): price by its area
        costs, as a query with that filter prices its path (its exclusions do not
        price: a path is priced, not checked).

        ``links`` (a result's :attr:`~pathcraft.PathResult.links`): for each of the
        ``n - 1`` segments, the id of the off-mesh link it takes (:meth:`add_link`)
        or -1 when it is walked; a link segment costs the link's cost and must run
        from one of its ends to the other (the way it may be taken).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.set_area_cost([1], 3.0)
        >>> mesh.path_cost([(0.5, 0.5), (1.5, 0.5)])
        2.0
        >>> from pathcraft.navmesh import QueryFilter
        >>> mesh.path_cost([(0.5, 0.5), (1.5, 0.5)], filter=QueryFilter(area_costs={1: 5.0}))
        3.0
        """
        pts = np.asarray(path, dtype=np.float64)
        if pts.ndim != 2 or pts.shape[1] != 2 or not np.isfinite(pts).all():
            raise ValueError(
                f"path must be an (n, 2) array of finite (x, y), got shape {pts.shape}"
            )
        off = np.flatnonzero(self._spatial.locate(pts) < 0)
        if off.size:
            i = int(off[0])
            raise ValueError(
                f"path[{i}] = {tuple(pts[i].tolist())} is off the mesh: path_cost prices "
                f"paths whose points lie on it{self._swap_hint(pts[i])}"
            )
        price = self._policy(check_filter(filter)).price
        if links is not None:
            return self._links.path_cost(pts, links, price)
        return price(pts)

    def query_policy(self, filter: QueryFilter | None = None) -> Policy:
        """What a query with ``filter`` reads (internal: the search graph, topology,
        area costs and pricing of :mod:`pathcraft.navmesh._filter`), the filter checked
        against this mesh; the mesh's own without one.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> mesh.query_policy().costs is None
        True
        """
        return self._policy(check_filter(filter))

    def _policy(self, flt: QueryFilter | None) -> Policy:
        """What a query with the checked filter ``flt`` reads (see
        :mod:`pathcraft.navmesh._filter`): the mesh's own arrays without one."""
        if flt is not None:
            make = partial_fn(filtered, self, flt, self._spatial.tree)
            return self._filters.get(flt, self.version, make)
        parts = self.parts
        costs = self._area_costs
        return Policy(
            parts.top, parts.component, costs, None,
            _pricing(parts.shapes, self._spatial.tree, costs), self.has_links,
            lambda: (self.portal_graph, self.link_graph if self.has_links else None),
        )  # fmt: skip

    # ------------------------------------------------------------------ links
    def add_link(
        self, a: Any, b: Any, *, cost: float | None = None, two_way: bool = True
    ) -> int:
        """Add an off-mesh link from ``a`` to ``b`` (both ``(x, y)`` on the mesh): a
        jump, a ladder, a door or a teleporter; its id.

        The funnel (``algorithm="funnel"``, :meth:`corridor`, :meth:`start_search`)
        may take the link as one step of its cost: its corridor search runs on the
        portal graph with a node at each link end, joined to the portals of the
        polygons holding it (see :mod:`pathcraft.navmesh`). The path is pulled taut
        piece by piece between the hops; it holds both ends of each link taken, and
        the result's ``links`` gives the link id of each segment (-1 where it is
        walked). Its ``cost`` is the walked pieces' (under the area costs) plus the
        links'. Polyanya (``algorithm="optimal"``) knows only straight moves: it
        refuses a mesh with links (a ``ValueError`` naming the funnel), as do
        queries with ``radius=``.

        Parameters
        ----------
        a, b : (x, y)
            The ends, on the mesh (on a polygon or its boundary, as :meth:`locate`
            finds them).
        cost : float or None
            What taking the link costs: a finite number ``>= 0``; ``None`` (the
            default) is the straight distance from ``a`` to ``b``.
        two_way : bool
            Whether the link can be taken from ``b`` to ``a`` too (default True).

        Returns
        -------
        int
            The link's id, for :meth:`remove_link` and :attr:`links` (ids are never
            reused).

        Raises
        ------
        TypeError, ValueError
            An end that is not a finite ``(x, y)`` or is off the mesh (the message
            names ``a`` or ``b`` and how far from the mesh it is), a cost that is
            negative, NaN or infinite, a ``two_way`` that is not a bool.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 0, 6, 10)))
        >>> bool(mesh.find_path((1, 5), (9, 5)))                # a wall between
        False
        >>> jump = mesh.add_link((4, 5), (6, 5), cost=3.0, two_way=False)
        >>> path = mesh.find_path((1, 5), (9, 5))
        >>> path.path.tolist(), path.links.tolist(), path.cost
        ([[1.0, 5.0], [4.0, 5.0], [6.0, 5.0], [9.0, 5.0]], [-1, 0, -1], 9.0)
        >>> mesh.path_cost(path.path, links=path.links)
        9.0
        >>> bool(mesh.find_path((9, 5), (1, 5)))                # one way
        False
        """
        ident = self._links.add(self, a, b, cost, two_way)
        self._log_link(self._links.view[ident])
        return ident

    def _log_link(self, link: Link) -> None:
        """A link added or removed is an edit: of the polygons holding its ends."""
        ends = [self.polygons_at(np.asarray(p, dtype=np.float64)) for p in (link.a, link.b)]
        self._log.record(np.concatenate(ends))

    def remove_link(self, link_id: int) -> None:
        """Remove the off-mesh link ``link_id`` (an id :meth:`add_link` returned).

        Raises
        ------
        TypeError, KeyError
            ``link_id`` not an int; not a link of this mesh (never added, or removed).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> door = mesh.add_link((0.5, 0.5), (0.9, 0.9))
        >>> mesh.remove_link(door)
        >>> len(mesh.links)
        0
        >>> mesh.remove_link(door)
        Traceback (most recent call last):
        ...
        KeyError: 'link_id 0 is not a link of this mesh (it was removed)'
        """
        link = self._links.view.get(link_id) if isinstance(link_id, int) else None
        self._links.remove(link_id)
        if link is not None:
            self._log_link(link)

    @property
    def links(self) -> Mapping[int, Link]:
        """The off-mesh links by id, a read-only mapping of
        :class:`~pathcraft.navmesh._links.Link` (``a``, ``b``, ``cost``, ``two_way``):
        see :meth:`add_link`."""
        return self._links.view

    @property
    def has_links(self) -> bool:
        """Whether the mesh has off-mesh links (see :meth:`add_link`)."""
        return len(self._links) > 0

    @property
    def link_graph(self) -> LinkGraph:
        """The portal graph with the links' ends, built on first use (internal: see
        :mod:`pathcraft.navmesh._links`)."""
        return self._links.graph(self)

    def link_parts(self) -> LinkSet:
        """The links' store (internal, for :mod:`pathcraft.navmesh._query`).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> len(NavMesh([(0, 0), (1, 0), (0, 1)], [[0, 1, 2]]).link_parts())
        0
        """
        return self._links

    def _nearest(self, pts: FloatArray, name: str) -> FloatArray:
        return self._spatial.nearest(pts, name)

    def _swap_hint(self, p: FloatArray) -> str:
        """A hint when ``p`` swapped would be on the mesh: meshes take ``(x, y)``."""
        if self.polygons_at(p[::-1].copy()).size == 0:
            return ""
        return (
            f" (positions are (x, y); ({float(p[1])!r}, {float(p[0])!r}) is on the mesh: "
            "was a (row, col) cell passed?)"
        )

    # ------------------------------------------------------------------ carving
    def add_obstacle(self, shape: Any) -> int:
        """Carve an obstacle out of the mesh at run time: a building goes up, a door
        closes. Returns its id, for :meth:`remove_obstacle`.

        Only the polygons the obstacle touches are rebuilt: their area minus the
        obstacle is triangulated and merged into convex polygons the way
        :meth:`from_geometry` builds a mesh (one area per area cost, so a new piece
        keeps the cost of the polygons it came from), and spliced in place of them
        (the portals of the polygons around them matched again). The new pieces take
        the ids of the polygons they replace; when there are fewer of them, the
        polygons with the highest ids move into the ids left over.
        :meth:`changes_since` names every id whose polygon changed. The walkable
        area, and so every optimal (Polyanya) path, is the same as a mesh built from
        scratch from the final geometry (the polygons may differ, and with them the
        funnel's choice of corridor).

        The mesh knows no agents: a later query from a point now inside an obstacle
        is off the mesh, like any such point (a ``ValueError``, or ``snap=True`` to
        move it to the nearest walkable point). A search started before the carve
        raises ``WorldChangedError`` (a ``RuntimeError``) at its next ``step``. The
        obstacle is carved as given (grow it by ``shape.buffer(r)`` for an agent of
        radius ``r``); the meshes of query radii (:meth:`for_radius`) are built again
        on their next use, while the funnel's portal graph and the polygon graph are
        patched on it (only the rows around the carve are made again: about 7 ms on
        a 16,000-polygon mesh, against some 70 ms to build them whole).

        Parameters
        ----------
        shape : shapely Polygon or MultiPolygon, or array_like of shape (n, 2)
            The obstacle in ``(x, y)``: a valid polygon with area, or the points
            ``(x, y)`` around one.

        Returns
        -------
        int
            The obstacle's id (ids are never reused).

        Raises
        ------
        TypeError, ValueError
            ``shape`` is not a polygon or points, is invalid (self-intersecting),
            empty, without area, or has non-finite coordinates.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 4))
        >>> mesh.find_path((1, 2), (9, 2), algorithm="optimal").cost
        8.0
        >>> wall = mesh.add_obstacle(box(4, 1, 6, 4))            # a wall from above
        >>> mesh.find_path((1, 2), (9, 2), algorithm="optimal").path.tolist()
        [[1.0, 2.0], [4.0, 1.0], [6.0, 1.0], [9.0, 2.0]]
        >>> mesh.find_path((5, 2), (9, 2))                      # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: start (5.0, 2.0) is off the mesh; pass snap=True to move it ...
        >>> mesh.remove_obstacle(wall)
        >>> mesh.find_path((1, 2), (9, 2), algorithm="optimal").cost
        8.0
        """
        carving = self._carver()
        ident, splice = carving.add(shape, self._carve_input())
        if splice is not None:
            self._splice(splice)
        return ident

    def remove_obstacle(self, obstacle_id: int) -> None:
        """Take out an obstacle :meth:`add_obstacle` carved: the area under it that
        was walkable when the mesh was built, less the obstacles that remain, is
        walkable again (rebuilt with the polygons around it, as :meth:`add_obstacle`
        rebuilds; the restored area has the area cost it had when the mesh was
        first carved).

        Raises
        ------
        TypeError
            ``obstacle_id`` is not an int.
        KeyError
            No obstacle has that id (never carved, or removed already).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
        >>> rock = mesh.add_obstacle([(4, 4), (6, 4), (5, 6)])
        >>> mesh.area
        98.0
        >>> mesh.remove_obstacle(rock)
        >>> mesh.area, mesh.obstacles
        (100.0, {})
        >>> mesh.remove_obstacle(rock)
        Traceback (most recent call last):
        ...
        KeyError: 'no obstacle 0 on this mesh (it was removed already); its obstacles are []'
        """
        carving = self._carver()
        splice = carving.remove(obstacle_id, self._carve_input())
        if splice is not None:
            self._splice(splice)

    @property
    def obstacles(self) -> dict[int, Any]:
        """The obstacles carved by :meth:`add_obstacle` and not removed, by id (a new
        dict of shapely polygons in ``(x, y)``).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
        >>> mesh.add_obstacle(box(1, 1, 2, 2)), mesh.add_obstacle(box(5, 5, 6, 6))
        (0, 1)
        >>> {k: v.bounds for k, v in mesh.obstacles.items()}
        {0: (1.0, 1.0, 2.0, 2.0), 1: (5.0, 5.0, 6.0, 6.0)}
        """
        return {} if self._carving is None else self._carving.obstacles

    @property
    def version(self) -> int:
        """How many edits changed the mesh (:meth:`add_obstacle`,
        :meth:`remove_obstacle`, :meth:`add_link`, :meth:`remove_link` and
        :meth:`set_area_cost` calls that changed some polygon or link): keep it, and
        give it back to :meth:`changes_since` later.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
        >>> mesh.version
        0
        >>> _ = mesh.add_obstacle(box(4, 4, 6, 6)); mesh.version
        1
        """
        return self._log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The polygons that are new or changed after ``version`` (a past
        :attr:`version`): the ids, in today's numbering, of the polygons a carve
        made or moved, of those whose area cost changed and of those holding the ends
        of a link added or removed.

        The same question every editable world answers (:meth:`Grid.changes_since
        <pathcraft.grid.Grid.changes_since>` gives cells, :meth:`Graph.changes_since
        <pathcraft.graph.Graph.changes_since>` edge ids,
        :meth:`WaypointGraph.changes_since
        <pathcraft.waypoints.WaypointGraph.changes_since>` links), in its own terms.
        Ids from :attr:`num_polygons` up are gone (the mesh has fewer polygons); a
        polygon not named is the polygon it was. Asked about edits older than the
        log keeps (about as many ids as the mesh has polygons), it answers with
        every polygon.

        Raises
        ------
        TypeError, ValueError
            ``version`` not an integer in ``[0, mesh.version]``.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 8)))
        >>> seen = mesh.version
        >>> mesh.set_area_cost([0], 2.0)
        >>> mesh.changes_since(seen).tolist(), mesh.changes_since(mesh.version).tolist()
        ([0], [])
        """
        ids = self._log.since(version, total=self.num_polygons)
        out: npt.NDArray[np.intp] = ids[ids < self.num_polygons]
        return out

    def _carver(self) -> _carve.Carving:
        if self._carving is None:
            self._carving = _carve.Carving(self._carve_input())
        return self._carving

    def _carve_input(self) -> _carve.Mesh:
        return _carve.Mesh(
            self._top, self._spatial.shapes, self._spatial.tree, self._centroids,
            self.area_costs, self._scale,
        )  # fmt: skip

    def _splice(self, splice: _carve.Splice) -> None:
        """Swap in a locally rebuilt mesh (see :mod:`pathcraft.navmesh._carve`)."""
        top = splice.top
        self._top = top
        self._centroids = splice.centroids
        self._spatial = SpatialIndex(top, splice.centroids, splice.shapes,
                                     shapely.STRtree(splice.shapes))  # fmt: skip
        component = np.empty(self.num_polygons, dtype=np.int32)
        _walk.components(top.poff, top.nbr, component)
        self._component = component
        self._graphs.spliced(splice.changed)
        # self._scale stays: every new vertex lies inside the walkable area as built
        self._radii = RadiusCache(self._walkable_area, NavMesh.from_geometry)
        costs = splice.costs
        self._area_costs = None if bool((costs == 1.0).all()) else costs
        self._log.record(splice.changed)

    # ------------------------------------------------------------------ queries
    def corridor(
        self, start: Any, goal: Any, *, snap: bool = False, filter: QueryFilter | None = None
    ) -> PathResult:
        """The polygons a funnel path crosses from ``start`` to ``goal`` (``(x, y)``), in
        order: the straight line's polygons when the goal is in sight, else A* over
        the portal graph (see :meth:`find_path`), priced and restricted by ``filter``
        as :meth:`find_path`'s (an excluded polygon is never in it).

        Returns
        -------
        PathResult
            ``path`` is an int array of polygon ids from the start's polygon to the
            goal's, those :meth:`find_path`'s path crosses (where it takes an
            off-mesh link, consecutive polygons are not always neighbours); ``cost``
            is that path's, ``find_path(start, goal).cost``. When the goal cannot be
            reached the result is falsy, ``path`` is empty and ``reason`` says why
            (``"unreachable"``).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.corridor((0.5, 0.5), (1.5, 0.5)).path.tolist()
        [0, 1]
        >>> apart = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1)],
        ...                 [[0, 1, 2, 3], [4, 5, 6, 7]])
        >>> corridor = apart.corridor((0.5, 0.5), (2.5, 0.5))
        >>> bool(corridor), corridor.reason, corridor.path.tolist()
        (False, 'unreachable', [])
        """
        t0 = time.perf_counter()
        check_flag("snap", snap)
        policy = self._policy(check_filter(filter))
        s, sp = self._place("start", start, snap)
        g, gp = self._place("goal", goal, snap)
        return _query.corridor_result(self, policy, s, sp, g, gp, t0)

    # ------------------------------------------------------------------ reachability

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which polygons reach each other: the strongly connected components of the
        polygons joined by their shared edges and by the off-mesh links in the
        directions they can be taken (a one-way link joins nothing by itself: see
        :meth:`reachable`).

        Built on first use (one compiled pass over the polygons' edges and the
        links) and kept for the mesh of this version (carving and links are edits).
        Searches answer a goal in another connected part at once whether or not
        these were asked for (the parts the links join either way, for every
        query filter).

        Returns
        -------
        labels : ndarray of int32, shape (num_polygons,)
            The component of every polygon, ``0`` to ``count - 1``: a component
            that reaches another has the larger label.
        count : int
            The number of components.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1)],
        ...                [[0, 1, 2, 3], [4, 5, 6, 7]])
        >>> mesh.components()[1]
        2
        >>> _ = mesh.add_link((0.5, 0.5), (2.5, 0.5), two_way=False)   # a jump down
        >>> labels, count = mesh.components()
        >>> labels.tolist(), count
        ([1, 0], 2)
        """
        reach = self._reachability().labels()
        return reach.labels.copy(), reach.count

    def reachable(self, start: Any, goal: Any) -> bool:
        """Whether a path leads from ``start`` to ``goal``, both ``(x, y)`` on the
        mesh: a polygon holding the goal in the component of one holding the start
        (:meth:`components`, built on first use), or reachable from it through
        one-way links (a search over the components, not the polygons).

        Raises
        ------
        ValueError
            A position off the mesh, or not finite.
        TypeError
            A position that is not two numbers.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1)],
        ...                [[0, 1, 2, 3], [4, 5, 6, 7]])
        >>> _ = mesh.add_link((0.5, 0.5), (2.5, 0.5), two_way=False)
        >>> mesh.reachable((0.2, 0.2), (2.8, 0.8)), mesh.reachable((2.8, 0.8), (0.2, 0.2))
        (True, False)
        """
        _, sp = self._place("start", start, False)
        _, gp = self._place("goal", goal, False)
        reach = self._reachability().labels()
        return any(reach.reaches(int(a), int(b)) for a in sp for b in gp)

    def _move_graph(self) -> Moves:
        top = self._top
        n = self.num_polygons
        tails = [np.repeat(np.arange(n, dtype=np.intp), np.diff(top.poff))]
        heads = [top.nbr.astype(np.intp)]
        for link in self.links.values():
            a = self.polygons_at(np.asarray(link.a, dtype=np.float64))
            b = self.polygons_at(np.asarray(link.b, dtype=np.float64))
            for u, v in ((a, b), (b, a)) if link.two_way else ((a, b),):
                tails.append(np.repeat(u, v.size).astype(np.intp))
                heads.append(np.tile(v, u.size).astype(np.intp))
        tail, head = np.concatenate(tails), np.concatenate(heads)
        real = head >= 0  # -1: a boundary edge
        return moves_from_edges(n, tail[real], head[real], None, self.has_links)

    def _place(self, name: str, value: Any, snap: bool) -> tuple[FloatArray, npt.NDArray[np.int32]]:
        """A checked position and the polygons holding it (snapped on if asked)."""
        p = _position(name, value, 2)
        polys = self.polygons_at(p)
        if polys.size == 0:
            if not snap:
                raise ValueError(
                    f"{name} {tuple(p.tolist())} is off the mesh; pass snap=True to move "
                    f"it to the nearest point on the mesh{self._swap_hint(p)}"
                )
            p = self._nearest(p[None], name)[0]
            polys = self.polygons_at(p)
        return p, polys

    def find_path(
        self,
        start: Any,
        goal: Any,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False,
        radius: float = 0.0,
        filter: QueryFilter | None = None,
        **options: Unpack[Options],
    ) -> PathResult:
        """A path from ``start`` to ``goal``, both ``(x, y)``.

        Parameters
        ----------
        start, goal : (x, y)
            Positions on the mesh (on a polygon or its boundary).
        algorithm : {"funnel", "optimal"}
            ``"funnel"`` (what game engines ship): when the goal is in sight (the
            mesh's raycast reaches it) the straight line; otherwise A* over the
            portals (the edges polygons share), then the string pulled taut through
            the portals of that corridor. The portal graph's nodes are points on each
            portal (its ends and midpoint), linked inside each polygon by the straight
            distance between them; the start and goal join the portals of their
            polygons by their distance to those points (start costs and exit costs of
            the compiled graph search, so no graph is rebuilt per query), with the
            Euclidean heuristic. The corridor is the best one by those distances, not
            necessarily the one holding the shortest path, so a
            funnel path can be longer than optimal (never shorter). ``"optimal"``:
            the Euclidean shortest path, by Polyanya (Cui, Harabor and Grastien, 2017).
            On a mesh with area costs (:meth:`set_area_cost`) only the funnel runs,
            weighing its corridor by them; ``"optimal"`` and ``radius > 0`` raise a
            ``ValueError``. The same holds on a mesh with off-mesh links
            (:meth:`add_link`), which the funnel takes as edges of their cost.
        snap : bool
            Move a start or goal that is off the mesh to the nearest point on it;
            without it such a position is an error.
        radius : float
            The agent's radius (``>= 0``, default 0): the search runs on
            :meth:`for_radius`, the walkable area shrunk by it (built on the first
            query of each radius, then cached), so the path keeps the agent's centre
            at least ``radius`` from walls. A start or goal closer than that to a wall
            is off that mesh (``snap=True`` moves it to the nearest point that fits).
        filter : QueryFilter or None
            Area costs and excluded polygons or off-mesh links for this query only
            (:class:`~pathcraft.navmesh.QueryFilter`, Detour's ``dtQueryFilter``): the
            funnel weighs its corridor and prices its path by the filter's area costs
            (over the mesh's own, :meth:`set_area_cost`), and never enters an excluded
            polygon nor takes an excluded link; ``"optimal"`` takes excluded polygons
            (as walls) but refuses area costs, like the mesh's own. The mesh is not
            changed: queries with other filters may run at the same time. Not with
            ``radius > 0`` (the shrunk mesh has other polygons).
        weight : float
            ``>= 1``: weighted A* over the polygon graph (``"funnel"`` only).
        partial : bool
            When the goal is not reached, for any reason, return the path to the
            explored place nearest the goal (the result stays falsy, with its reason):
            for a goal in another part of the mesh, the reachable point nearest it;
            after ``max_expansions``, the point nearest the goal on the polygon the
            corridor search expanded closest to it.
        max_expansions : int or None
            Give up after expanding this many search nodes (points on portals for
            ``"funnel"``, intervals for ``"optimal"``): a falsy result with reason
            ``"max_expansions"``.

        Returns
        -------
        PathResult
            ``path`` is an ``(n, 2)`` float array from start to goal, both included
            (``[start]`` when they are the same point); ``cost`` its length;
            ``expanded`` and ``generated`` count search nodes. On a mesh with
            off-mesh links, its ``links`` gives the link id of each segment (-1 where
            it is walked) and ``cost`` adds the links' costs (see :meth:`add_link`).

        Raises
        ------
        ValueError
            A non-finite position, one off the mesh without ``snap``, an unknown
            algorithm, a bad option value; ``"optimal"`` or ``radius > 0`` on a mesh
            with area costs or off-mesh links, or with a ``filter`` whose area costs
            are not all 1 (``radius > 0``: with any filter); a ``filter`` naming a
            polygon or link the mesh does not have.
        TypeError
            A ``filter`` that is not a :class:`~pathcraft.navmesh.QueryFilter`.
        UnsupportedOptionError
            An option the algorithm does not take (a ``TypeError`` naming what it takes).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> fast = mesh.find_path((1, 9), (9, 9))
        >>> best = mesh.find_path((1, 9), (9, 9), algorithm="optimal")
        >>> best.path.tolist()
        [[1.0, 9.0], [4.0, 2.0], [6.0, 2.0], [9.0, 9.0]]
        >>> fast.cost >= best.cost
        True
        >>> mesh.find_path((1, 9), (20, 9))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: goal (20.0, 9.0) is off the mesh; pass snap=True to move it to the ...
        >>> mesh.find_path((1, 9), (20, 9), snap=True).path[-1].tolist()
        [10.0, 9.0]
        >>> wide = mesh.find_path((1, 9), (9, 9), algorithm="optimal", radius=0.5)
        >>> round(wide.cost, 4), round(float(wide.path[:, 1].min()), 4)   # 0.5 above y=2
        (18.4298, 1.5)
        """
        t0 = time.perf_counter()
        search = self._start("find_path", start, goal, algorithm, snap, options, radius, filter)
        search.step()
        return _query.timed(search.result, time.perf_counter() - t0)

    def start_search(
        self,
        start: Any,
        goal: Any,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        snap: bool = False,
        radius: float = 0.0,
        filter: QueryFilter | None = None,
        **options: Unpack[Options],
    ) -> CompiledSearch:
        """Start a compiled search that a game loop spreads over frames.

        ``algorithm``, ``snap``, ``radius``, ``filter`` and ``options`` are
        :meth:`find_path`'s,
        checked the same way. ``step(n)`` on the returned object expands at most ``n``
        more search nodes (portal points for the funnel, intervals for Polyanya) with
        the GIL released and returns ``"in_progress"``, ``"found"``, the reason the
        search ended without its goal, or ``"cancelled"``; its ``result`` is then
        exactly :meth:`find_path`'s (:meth:`find_path` is one unlimited step of it).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> search = mesh.start_search((1, 9), (9, 9), algorithm="optimal")
        >>> while search.step(1) == "in_progress":
        ...     pass
        >>> search.result.path.tolist()
        [[1.0, 9.0], [4.0, 2.0], [6.0, 2.0], [9.0, 9.0]]
        """
        return self._start(
            "start_search", start, goal, algorithm, snap, options, radius, filter
        )

    def _start(
        self, method: str, start: Any, goal: Any, algorithm: Any, snap: Any,
        options: Mapping[str, Any], radius: Any = 0.0, flt: Any = None,
        world: NavMesh | None = None,
    ) -> CompiledSearch:  # fmt: skip
        """The search of :meth:`find_path` and :meth:`start_search` (``method``: the
        one called, which refusals name; ``flt``: the ``filter`` given; ``world``: the
        mesh whose edits cancel it, this one by default)."""
        opts = SearchOptions.check_call("NavMesh", method, algorithm, options)
        check_flag("snap", snap)
        checked = check_filter(flt)
        wide = check_radius(radius) > 0
        policy = None if wide else self._policy(checked)
        costs = self.has_area_costs if policy is None else policy.costs is not None
        _query.refuse(opts.algorithm, radius, wide, checked is not None, costs, self.has_links)
        if policy is None:
            return self._start_wide(method, start, goal, algorithm, snap, options, radius)
        s, sp = self._place("start", start, snap)
        g, gp = self._place("goal", goal, snap)
        return _query.start_search(
            self, policy, s, sp, g, gp, opts, world if world is not None else self
        )

    def _start_wide(
        self, method: str, start: Any, goal: Any, algorithm: Any, snap: bool,
        options: Mapping[str, Any], radius: Any,
    ) -> CompiledSearch:  # fmt: skip
        """:meth:`_start` for an agent of ``radius`` > 0, on :meth:`for_radius`: a
        position on this mesh but too close to a wall is named so."""
        wide = self.for_radius(radius)
        if not snap:
            for name, value in (("start", start), ("goal", goal)):
                p = _position(name, value, 2)
                if wide.polygons_at(p).size == 0 and self.polygons_at(p).size > 0:
                    raise ValueError(
                        f"{name} {tuple(p.tolist())} is closer than radius={radius!r} to a "
                        "wall (off the mesh shrunk by it); pass snap=True to move it to "
                        "the nearest point where the agent fits"
                    )
        return wide._start(method, start, goal, algorithm, snap, options, world=self)

    def funnel(
        self, start: Any, goal: Any, *, filter: QueryFilter | None = None,
        **options: Unpack[Options],
    ) -> PathResult:  # fmt: skip
        """The funnel path: ``find_path(start, goal, algorithm="funnel", filter=filter,
        **options)``.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.funnel((0.5, 0.5), (1.5, 0.5)).cost
        1.0
        """
        return self.find_path(start, goal, algorithm="funnel", filter=filter, **options)

    def optimal(
        self, start: Any, goal: Any, *, filter: QueryFilter | None = None,
        **options: Unpack[Options],
    ) -> PathResult:  # fmt: skip
        """The Euclidean shortest path (Polyanya):
        ``find_path(start, goal, algorithm="optimal", filter=filter, **options)``.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> mesh.optimal((0.5, 0.5), (1.5, 0.5)).cost
        1.0
        """
        return self.find_path(start, goal, algorithm="optimal", filter=filter, **options)

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world (saving: to_arrays and from_arrays above).

    #: The name of a saved navigation mesh (:func:`pathcraft.io.save`).
    kind = "navmesh"

    def plot(self, result: PathResult | None = None, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: this mesh and ``result`` drawn by
        :func:`pathcraft.viz.plot_mesh` (needs the ``viz`` and ``geometry`` extras).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> mesh.plot(mesh.find_path((0.2, 0.2), (0.8, 0.8))).get_aspect()
        1.0
        """
        from pathcraft.viz.mesh import plot_mesh

        return plot_mesh(self, result, ax, **kwargs)

    def agent_space(
        self,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        filter: QueryFilter | None = None,
    ) -> MeshSpace:
        """Capability ``"agent_space"``: this mesh as agents' space
        (:class:`~pathcraft.navmesh.MeshSpace`): nodes are ``(x, y)`` points on the
        mesh, paths :meth:`find_path`'s corners (by ``algorithm``, under ``filter``).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.agents import Pursuer
        >>> mesh = NavMesh([(0, 0), (4, 0), (4, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> mesh.agent_space().key((3, 0.5))
        (3.0, 0.5)
        >>> runner = Pursuer(mesh, (0.5, 0.5), speed=1.0)
        >>> runner.step((3.5, 0.5), dt=2.0), runner.position
        ('chasing', (2.5, 0.5))
        """
        return MeshSpace(self, algorithm=algorithm, filter=filter)

    replanner = refused(
        "NavMesh", "replanner", "replanner", "a mesh's edits rebuild polygons; search it afresh"
    )
    replan_space = refused(
        "NavMesh", "replan_space", "replanner", "a mesh's edits rebuild polygons; search it afresh"
    )
    places = refused(
        "NavMesh", "places", "places", "its places are (x, y) points, not a list to number"
    )


register_kind(NavMesh)
