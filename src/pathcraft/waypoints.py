"""Waypoint graphs: points linked where they see each other, searched by the CSR core.

Why this file is longer than 600 lines: one class, :class:`WaypointGraph`, whose 24
public methods are each documented with a runnable example (half of the file), and
its searches from any two positions (see below: not through the one glue); the
line-of-sight tests are :mod:`pathcraft._visibility`.

Positions are ``(x, y)`` (or ``(x, y, z)`` with your own line of sight). Two waypoints
are linked when the segment between them is clear (and, if given, no longer than
``max_distance``); a link costs its Euclidean length. :meth:`WaypointGraph.find_path`
takes any two positions: the straight line when they see each other, else a search
from the waypoints the start sees to those the goal sees.

**What blocks.** A segment is blocked when its interior meets the interior of an
obstacle. Touching the boundary is clear: a segment may graze a corner, run along an
edge or end on the boundary, which is where the shortest paths around obstacles run.
Obstacles are tested one by one, so two obstacles that share an edge leave a
zero-width seam a segment can follow; merge them with ``shapely.union_all`` or give
``agent_radius > 0`` (each obstacle is then grown by the radius, and they overlap).

A waypoint strictly inside an obstacle gets no links (until the obstacle is removed).
Change a waypoint graph (add or remove obstacles) only while no thread searches it.

The test is vectorised over all candidate segments (an STRtree query of the obstacles,
a compiled pre-test against disks around each obstacle, then shapely predicates for
the close calls; see :mod:`pathcraft._visibility`). There are ``n (n - 1) / 2``
candidate pairs without ``max_distance``: 2,000 waypoints are two million segments.

Needs shapely (``pip install pathcraft[geometry]``).

A waypoint graph searches its :attr:`~WaypointGraph.graph` with the graph kernel
itself (:func:`pathcraft.graph.kit.kernel_args`), not through the one glue of the
compiled worlds (:mod:`pathcraft._cellworld`): that glue turns each end of a query
into flat places, and an end here is a position that sees several waypoints at
several costs (a virtual goal joins the goal's), or sees the other end (a straight
line, no search), or sees no waypoint (no search either). Its
:meth:`~WaypointGraph.find_path` is one unlimited step of the search
:meth:`~WaypointGraph.start_search` returns, so the two cannot differ.

Examples
--------
>>> from shapely import box
>>> from pathcraft import WaypointGraph
>>> wall = box(4, -5, 6, 5)
>>> corners = [(4, 5), (6, 5), (4, -5), (6, -5)]
>>> wg = WaypointGraph(corners, [wall])
>>> result = wg.find_path((0, 0), (10, 0))
>>> result.path.tolist()
[[0.0, 0.0], [4.0, 5.0], [6.0, 5.0], [10.0, 0.0]]
>>> round(result.cost, 4)
14.8062
>>> wg.find_path((0, 0), (3, 1)).path.tolist()       # in sight: a straight line
[[0.0, 0.0], [3.0, 1.0]]
>>> wg.find_path((5, 0), (10, 0))
Traceback (most recent call last):
...
ValueError: start (5.0, 0.0) is inside obstacle 0
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

try:
    import shapely
except ImportError as exc:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "pathcraft.WaypointGraph needs shapely: pip install pathcraft[geometry]"
    ) from exc

from pathcraft import _visibility as vis
from pathcraft import _waypoint_world
from pathcraft._changes import ChangeLog
from pathcraft._core import graph_search as _kernel
from pathcraft._kernels import UNREACHABLE
from pathcraft._options import SearchOptions
from pathcraft._positions import EXTENT, QUAD_SEGS, check_extent
from pathcraft._positions import check_points as _points
from pathcraft._positions import check_position as _position
from pathcraft._reach import Labelled, Moves, graph_moves
from pathcraft._sliced import CompiledSearch, WorldChangedError
from pathcraft._validation import check_callable, check_limit
from pathcraft.graph import Graph, GraphSpace
from pathcraft.graph.kit import kernel_args
from pathcraft.navmesh.kit import MAX_RADII, check_radius
from pathcraft.replan import Replanner, ReplanSpace
from pathcraft.result import Answer, PathResult, build_result
from pathcraft.world import refused, register_kind

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._options import Options

__all__ = ["WaypointGraph"]

LineOfSight = Callable[[tuple[float, ...], tuple[float, ...]], bool]


def _place(name: str, value: Any, dim: int) -> npt.NDArray[np.float64]:
    """A checked position within the extent distances stay finite in."""
    p = _position(name, value, dim)
    check_extent(name, p)
    return p


def _obstacle(name: str, geom: Any, radius: float) -> Any:
    """Check one obstacle and return it grown by ``radius``."""
    if not isinstance(geom, shapely.Geometry):
        raise TypeError(f"{name} must be a shapely geometry; got {type(geom).__name__}")
    if geom.is_empty:
        raise ValueError(f"{name} is an empty geometry")
    if not shapely.is_valid(geom):
        reason = shapely.is_valid_reason(geom)
        raise ValueError(f"{name} is not a valid geometry ({reason}): {vis.describe(geom)}")
    coords = shapely.get_coordinates(geom)
    if not np.isfinite(coords).all():
        raise ValueError(f"{name} has non-finite coordinates")
    check_extent(name, coords)
    polygonal = geom.geom_type in ("Polygon", "MultiPolygon")
    if radius > 0:
        grown = shapely.buffer(geom, radius, quad_segs=QUAD_SEGS)
        if not grown.is_empty:
            return grown
        if not polygonal:  # (GEOS grows nothing by a radius far below the geometry's size)
            raise ValueError(
                f"{name} is a {geom.geom_type} and the radius {radius!r} too small to grow "
                "it into a polygon; give a larger radius or a polygon"
            )
        return geom  # (the same: the radius is below the coordinates' rounding)
    if not polygonal:
        raise ValueError(
            f"{name} is a {geom.geom_type}; obstacles must be polygons (or give "
            "agent_radius > 0, which grows lines and points into polygons)"
        )
    return geom


class WaypointGraph(Labelled):
    """Waypoints linked by line of sight, with searches between arbitrary positions.

    Parameters
    ----------
    points : array_like, shape (n, 2) or (n, 3)
        The waypoints, ``(x, y)``; ``(x, y, z)`` needs ``line_of_sight``.
    obstacles : iterable of shapely geometries
        Polygons or multipolygons (any geometry when ``agent_radius > 0``). Each gets
        an id, its place in this list; see :meth:`add_obstacle`.
    agent_radius : float
        Grow every obstacle by this radius (``obstacle.buffer(agent_radius)``: its
        corners rounded by 16 segments a quarter circle, as every continuous world
        grows space for an agent), so paths keep the agent's centre this far from
        them.
    max_distance : float or None
        Link only waypoints at most this far apart (also the reach of the start and
        goal of :meth:`find_path`). None: no limit.
    line_of_sight : callable or None
        ``line_of_sight(a, b) -> bool`` for two positions (tuples); replaces the
        obstacles (give one or the other). It is called once per candidate pair, in
        Python.

    Raises
    ------
    TypeError
        Non-numeric points, an obstacle that is not a shapely geometry, a
        ``line_of_sight`` that is not callable.
    ValueError
        Non-finite points, a wrong shape, an invalid or empty obstacle (the message
        gives shapely's reason), a non-polygonal obstacle without a radius, a negative
        radius or distance, 3-D points without ``line_of_sight``, both obstacles and
        ``line_of_sight``.

    Examples
    --------
    A wall between two positions, grown by the agent's radius: the path runs round
    its corners, which the waypoints mark.

    >>> from shapely import box
    >>> from pathcraft import WaypointGraph
    >>> corners = [(3, 6), (7, 6), (3, -6), (7, -6)]
    >>> wg = WaypointGraph(corners, [box(4, -5, 6, 5)], agent_radius=0.5)
    >>> len(wg.links), wg.find_path((0, 0), (10, 0)).path.tolist()
    (4, [[0.0, 0.0], [3.0, 6.0], [7.0, 6.0], [10.0, 0.0]])

    Your own line of sight instead of obstacles, here in 3-D:

    >>> rises_gently = lambda a, b: abs(a[2] - b[2]) <= 1.0
    >>> hill = WaypointGraph([(0, 0, 0), (5, 0, 1), (10, 0, 2)], line_of_sight=rises_gently)
    >>> hill.find_path((0, 0, 0), (10, 0, 2)).path.tolist()
    [[0.0, 0.0, 0.0], [5.0, 0.0, 1.0], [10.0, 0.0, 2.0]]
    """

    def __init__(
        self,
        points: npt.ArrayLike,
        obstacles: Iterable[Any] = (),
        *,
        agent_radius: float = 0.0,
        max_distance: float | None = None,
        line_of_sight: LineOfSight | None = None,
    ) -> None:
        check_callable("line_of_sight", line_of_sight, optional=True)
        # Edits, and the set-up of a query (reading the obstacles, links and graph),
        # hold it: a query reads one map, whatever other threads edit meanwhile.
        self._lock = threading.RLock()
        self._points = _points("points", points, (2, 3))
        check_extent("points", self._points)
        self._dim = int(self._points.shape[1])
        radius = check_limit("agent_radius", agent_radius, integer=False)
        self._radius = float(radius or 0.0)
        if not math.isfinite(self._radius) or self._radius > EXTENT:
            raise ValueError(
                f"agent_radius must be finite and at most {EXTENT:g}; got {agent_radius!r}"
            )
        limit = check_limit("max_distance", max_distance, integer=False)
        self._max_distance = None if limit is None else float(limit)
        self._los = line_of_sight
        given = list(obstacles)
        if line_of_sight is not None and given:
            raise ValueError("give obstacles or line_of_sight, not both")
        if self._dim == 3 and line_of_sight is None:
            raise ValueError("3-D points (x, y, z) need line_of_sight=callable(a, b) -> bool")
        self._obstacles: dict[int, Any] = {
            i: _obstacle(f"obstacles[{i}]", g, self._radius) for i, g in enumerate(given)
        }
        self._next_id = len(given)
        self._set = vis.ObstacleSet.of(list(self._obstacles.values()))
        self._set_ids = np.array(list(self._obstacles), dtype=np.intp)
        self._pairs = self._candidate_pairs()
        self._blocked = self._count_blocking()
        self._graph = self._link_graph()
        self._radii: dict[float, WaypointGraph] = {}  # for_radius's graphs (issue 17)
        self._log = ChangeLog(limit=self._pairs.shape[0])
        self._replan_graph: Graph | None = None  # every candidate pair, for replanners

    def __getstate__(self) -> dict[str, Any]:
        state = {k: getattr(self, k) for k in vars(self)}
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ building

    def _candidate_pairs(self) -> npt.NDArray[np.intp]:
        """Every pair ``i < j`` within ``max_distance``, as a ``(k, 2)`` array."""
        n = self._points.shape[0]
        if self._max_distance is None:
            i, j = np.triu_indices(n, 1)
            return np.stack((i, j), axis=1).astype(np.intp)
        if self._dim == 2:
            geoms = shapely.points(self._points)
            tree = shapely.STRtree(geoms)
            i, j = tree.query(geoms, predicate="dwithin", distance=self._max_distance)
        else:  # 3-D: by rows, to bound the memory
            parts = []
            for part in vis.chunks(n, 512):
                d = np.linalg.norm(self._points[part, None, :] - self._points[None], axis=2)
                r, c = np.nonzero(d <= self._max_distance)
                parts.append(np.stack((r + part.start, c), axis=1))
            both = np.concatenate(parts) if parts else np.empty((0, 2), dtype=np.intp)
            i, j = both[:, 0], both[:, 1]
        keep = i < j
        pairs = np.stack((i[keep], j[keep]), axis=1).astype(np.intp)
        order = np.lexsort((pairs[:, 1], pairs[:, 0]))
        return pairs[order]

    def _count_blocking(self) -> npt.NDArray[np.int32]:
        """How many obstacles block each candidate pair (or 0/1 from line_of_sight)."""
        pairs = self._pairs
        if self._los is not None:
            return self._call_los(self._points[pairs[:, 0]], self._points[pairs[:, 1]])
        seg, _ = vis.blocking_pairs(self._points[pairs[:, 0]], self._points[pairs[:, 1]], self._set)
        return np.bincount(seg, minlength=pairs.shape[0]).astype(np.int32)

    def _call_los(
        self, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.int32]:
        """1 where the user's line_of_sight says blocked, 0 where clear."""
        los = self._los
        assert los is not None
        out = np.zeros(a.shape[0], dtype=np.int32)
        for k, (p, q) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            seen = los(tuple(p), tuple(q))
            if not isinstance(seen, (bool, np.bool_)):
                raise TypeError(f"line_of_sight must return a bool; got {seen!r} for {p}, {q}")
            out[k] = 0 if seen else 1
        return out

    def _link_graph(self) -> Graph:
        """The links as an undirected graph over the waypoint indices."""
        links = self.links
        a, b = self._points[links[:, 0]], self._points[links[:, 1]]
        lengths = np.sqrt(((a - b) ** 2).sum(axis=1))
        return Graph(
            self._points.shape[0], links[:, 0], links[:, 1], lengths,
            directed=False, coords=self._points,
        )  # fmt: skip

    @property
    def graph(self) -> Graph:
        """The links as an undirected :class:`~pathcraft.Graph` over the waypoint
        indices, weighted by length, with the waypoints as coordinates. Rebuilt (in
        NumPy, without retesting any link) after an obstacle changes."""
        return self._graph

    # ------------------------------------------------------------------ state

    @property
    def points(self) -> npt.NDArray[np.float64]:
        """A read-only view of the waypoints."""
        view: npt.NDArray[np.float64] = self._points.view()
        view.flags.writeable = False
        return view

    @property
    def links(self) -> npt.NDArray[np.intp]:
        """The linked pairs ``(i, j)``, ``i < j``, sorted, as a ``(k, 2)`` array."""
        with self._lock:
            out: npt.NDArray[np.intp] = self._pairs[self._blocked == 0]
        return out

    @property
    def obstacles(self) -> dict[int, Any]:
        """The obstacles by id, as tested (grown by the agent radius)."""
        return dict(self._obstacles)

    @property
    def agent_radius(self) -> float:
        """The radius every obstacle was grown by (0: none)."""
        return self._radius

    @property
    def max_distance(self) -> float | None:
        """The longest link (and reach of a query's start and goal); None: no limit."""
        return self._max_distance

    @property
    def line_of_sight(self) -> LineOfSight | None:
        """The user's line-of-sight callable, or None when obstacles decide."""
        return self._los

    def __repr__(self) -> str:
        return (
            f"WaypointGraph({self._points.shape[0]} points, {len(self._obstacles)} obstacles, "
            f"{int((self._blocked == 0).sum())} links)"
        )

    # ------------------------------------------------------------------ changes

    def add_obstacle(self, geom: Any) -> int:
        """Add an obstacle; only the links it blocks are removed. Returns its id.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (10, 0)])
        >>> len(wg.links), wg.add_obstacle(box(4, -1, 6, 1)), len(wg.links)
        (1, 0, 0)
        """
        self._require_obstacles("add_obstacle")
        grown = _obstacle("geom", geom, self._radius)
        with self._lock:
            key = self._next_id
            self._next_id += 1
            self._obstacles[key] = grown
            self._rebuild_set()
            self._update(key, +1)
            self._radii.clear()
        return key

    def remove_obstacle(self, key: int) -> None:
        """Remove the obstacle with id ``key``; only the pairs it blocked are retested.

        ``key`` is the id the obstacle was given: its place in ``obstacles``, or what
        :meth:`add_obstacle` returned. Ids are never reused.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (10, 0)], [box(4, -1, 6, 1)])
        >>> len(wg.links), wg.find_path((0, 0), (10, 0)).found
        (0, False)
        >>> wg.remove_obstacle(0)
        >>> len(wg.links), wg.find_path((0, 0), (10, 0)).cost
        (1, 10.0)
        >>> wg.remove_obstacle(0)
        Traceback (most recent call last):
        ...
        ValueError: key 0 is not an obstacle id; ids: []
        """
        self._require_obstacles("remove_obstacle")
        if isinstance(key, bool) or not isinstance(key, numbers.Integral):
            raise TypeError(f"key must be an obstacle id (an integer); got {key!r}")
        with self._lock:
            if key not in self._obstacles:
                ids = sorted(self._obstacles)
                raise ValueError(f"key {key!r} is not an obstacle id; ids: {ids}")
            self._update(int(key), -1)
            del self._obstacles[int(key)]
            self._rebuild_set()
            self._radii.clear()

    def for_radius(self, radius: float) -> WaypointGraph:
        """The waypoint graph of an agent of ``radius``: what every query with
        ``radius=`` runs on.

        The same waypoints and ``max_distance``, every obstacle grown by ``radius``
        more (``shapely.buffer``; on a graph built with ``agent_radius`` the radii
        add up), links retested. Waypoints inside a grown obstacle get no links.
        Built on the first query of a radius and kept (8 radii at most, the oldest
        dropped first) until an obstacle is added or removed.

        Raises
        ------
        TypeError, ValueError
            ``radius`` not a finite number >= 0; a graph that uses ``line_of_sight``
            (it has no obstacles to grow).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(3, 3), (7, 3)], [box(4, 0, 6, 2)])
        >>> len(wg.links), len(wg.for_radius(1.5).links), wg.for_radius(1.5).agent_radius
        (1, 0, 1.5)
        """
        r = check_radius(radius)
        if r == 0:
            return self
        if self._los is not None:
            raise ValueError("radius needs obstacles; this graph uses line_of_sight")
        with self._lock:
            wide = self._radii.get(r)
            if wide is None:
                wide = WaypointGraph(
                    self._points, list(self._obstacles.values()), agent_radius=r,
                    max_distance=self._max_distance,
                )  # fmt: skip
                wide._obstacles = dict(
                    zip(self._obstacles, wide._obstacles.values(), strict=True)
                )
                wide._rebuild_set()
                wide._next_id = self._next_id
                wide._radius = self._radius + r
                if len(self._radii) >= MAX_RADII:
                    del self._radii[next(iter(self._radii))]
                self._radii[r] = wide
        return wide

    # ------------------------------------------------------------------ reachability

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which waypoints reach each other: the connected components of the
        :attr:`graph` of links (those the obstacles leave open).

        Built on first use (one compiled pass over the links) and kept for the
        obstacles of this version: from then on :meth:`find_path` (and the
        shorthands) and :meth:`start_search` answer a goal whose seen waypoints
        are all in other components than the start's at once
        (``reason="unreachable"``, nothing expanded; not with ``partial=True``,
        which explores to return the closest place, nor ``record=True``, nor with
        ``radius=``, whose
        graph keeps its own). After an obstacle edit, the first search that ends
        unreachable, or the next call here, builds them again.

        Returns
        -------
        labels : ndarray of int32, shape (len(points),)
            The component of every waypoint, ``0`` to ``count - 1``.
        count : int
            The number of components.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (0, 4), (10, 0), (10, 4)], [box(4, -20, 6, 20)])
        >>> wg.components()[1]
        2
        """
        reach = self._reachability().labels()
        return reach.labels.copy(), reach.count

    def reachable(self, start: Sequence[float], goal: Sequence[float]) -> bool:
        """Whether a path through the waypoints (or straight) joins the positions
        ``start`` and ``goal``: in sight of each other, or a waypoint the start sees
        in the component of one the goal sees (:meth:`components`, built on first
        use).

        Raises
        ------
        ValueError
            A position not finite or inside an obstacle.
        TypeError
            A position that is not numbers.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (0, 4), (10, 0), (10, 4)], [box(4, -20, 6, 20)])
        >>> wg.reachable((1, 1), (0, 3)), wg.reachable((1, 1), (9, 1))
        (True, False)
        >>> wg.find_path((1, 1), (9, 1)).expanded     # answered from the labels
        0
        """
        with self._lock:
            s = _place("start", start, self._dim)
            g = _place("goal", goal, self._dim)
            self._check_free("start", s)
            self._check_free("goal", g)
            if bool(self._clear(s[None], g[None])[0]):
                return True
            sources, goals = self._sight(s)[0], self._sight(g)[0]
            reach = self._reachability()
            reach.labels()
            return bool(sources.size and goals.size) and not reach.apart_any(sources, goals)

    def _move_graph(self) -> Moves:
        return graph_moves(self.graph.csr, directed=False)

    @property
    def version(self) -> int:
        """How many edits the waypoint graph has had (:meth:`add_obstacle` and
        :meth:`remove_obstacle` calls, whether or not they opened or closed a link of
        this graph: an obstacle grown by a query's ``radius`` may close others): keep
        it, and give it back to :meth:`changes_since` later to learn what the edits
        since touched (links)."""
        return self._log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The links that opened or closed after ``version`` (a past :attr:`version`).

        The same question every editable world answers (:meth:`Grid.changes_since
        <pathcraft.grid.Grid.changes_since>` gives cells, :meth:`Graph.changes_since
        <pathcraft.graph.Graph.changes_since>` edge ids), in its own terms (see the
        README's "Worlds that change"); a :meth:`replanner` asks it (through its
        graph) before every answer. An obstacle added or removed retests only the
        links it crosses, and logs those that opened or closed. The log keeps about
        as many pairs as there are candidate pairs; asked about edits older than
        that, it answers with every pair (a correct, if unhelpful, answer).

        Parameters
        ----------
        version : int
            In ``[0, waypoint_graph.version]``.

        Returns
        -------
        ndarray of intp, shape (k, 2)
            Waypoint index pairs ``(i, j)``, ``i < j``, sorted, each once (a link
            closed and opened again since ``version`` is listed): compare with
            :attr:`links` to see which are open now.

        Raises
        ------
        TypeError
            ``version`` not an integer.
        ValueError
            ``version`` negative or larger than :attr:`version`.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (10, 0), (0, 10)])
        >>> seen = wg.version
        >>> key = wg.add_obstacle(box(4, -1, 6, 1))
        >>> wg.version, wg.changes_since(seen).tolist()
        (1, [[0, 1]])
        >>> wg.remove_obstacle(key)
        >>> wg.changes_since(seen).tolist(), len(wg.links)
        ([[0, 1]], 3)
        """
        ids = self._log.since(version, total=self._pairs.shape[0])
        out: npt.NDArray[np.intp] = self._pairs[ids]
        return out

    def _pair_weights(self, ids: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """The length of each candidate pair ``ids``, ``inf`` where it is blocked."""
        a, b = self._points[self._pairs[ids, 0]], self._points[self._pairs[ids, 1]]
        lengths = np.sqrt(((a - b) ** 2).sum(axis=1))
        return np.where(self._blocked[ids] == 0, lengths, np.inf)

    def replanner(
        self, start: int | Sequence[float], goal: int | Sequence[float]
    ) -> Replanner:
        """An incremental planner for one agent going from waypoint ``start`` to
        waypoint ``goal``, each given as its ``(x, y)`` position (as :meth:`find_path`
        takes them) or its index into :attr:`points`: it keeps its search (D* Lite)
        between calls, takes in the links that :meth:`add_obstacle` and
        :meth:`remove_obstacle` open or close by itself, follows the agent
        (``move_to(waypoint)``) and returns the current shortest path over the links
        (``path()``: a list of waypoint indices, ``points[path]`` their positions);
        see :class:`~pathcraft.replan.Replanner`.

        It plans over every candidate pair, a blocked one weighing ``inf``, so an
        obstacle edit is a change of weights it repairs locally. Its
        :attr:`~pathcraft.replan.Replanner.world` is that graph.

        Raises
        ------
        ValueError
            ``start`` or ``goal`` neither a waypoint's position nor its index.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (10, 0), (5, 6), (5, -6)])
        >>> plan = wg.replanner((0, 0), (10, 0))
        >>> plan.path().path
        [0, 1]
        >>> wall = wg.add_obstacle(box(4, -1, 6, 1))        # a wall across the way
        >>> r = plan.path()
        >>> r.path, round(r.cost, 4)
        ([0, 2, 1], 15.6205)
        >>> wg.remove_obstacle(wall)
        >>> plan.path().path
        [0, 1]
        >>> wg.replanner((1, 1), 1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: start (1.0, 1.0) is not a waypoint: the replanner plans between ...
        """
        return Replanner(self, start, goal)

    def _pairs_graph(self) -> Graph:
        """The graph of every candidate pair, a blocked one weighing ``inf``, kept up
        to date with the obstacles (what replanners and agents plan on)."""
        if self._replan_graph is None:
            pairs = self._pairs
            ids = np.arange(pairs.shape[0], dtype=np.intp)
            self._replan_graph = Graph(
                self._points.shape[0], pairs[:, 0], pairs[:, 1], self._pair_weights(ids),
                directed=False, coords=self._points,
            )  # fmt: skip
        return self._replan_graph

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world (saving: pathcraft/_waypoint_world.py).

    #: The name of a saved waypoint graph (:func:`pathcraft.io.save`).
    kind = "waypoints"

    def plot(self, result: PathResult | None = None, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: the obstacles, links, waypoints and ``result`` drawn
        by :func:`pathcraft.viz.plot_graph` (needs the ``viz`` extra).

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (4, 0)])
        >>> wg.plot(wg.find_path((0, 0), (4, 0))).get_title()
        'cost 4.00, 0 expanded'
        """
        from pathcraft.viz.graph import plot_graph

        return plot_graph(self, result, ax, **kwargs)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: the points, the obstacles as tested (WKB),
        ``max_distance`` and ``agent_radius``.

        Raises
        ------
        TypeError
            The graph tests sight with a ``line_of_sight`` callable (a file holds no
            code).

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> sorted(WaypointGraph([(0, 0), (1, 1)]).to_arrays())[:2]
        ['agent_radius', 'max_distance']
        """
        return _waypoint_world.to_arrays(self)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> WaypointGraph:
        """Capability ``"save"``: the waypoint graph :meth:`to_arrays` wrote, its
        obstacles as they were tested (grown) and ``agent_radius`` 0.

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(0, 0), (3, 4)])
        >>> WaypointGraph.from_arrays(wg.to_arrays()).find_path((0, 0), (3, 4)).cost
        5.0
        """
        return _waypoint_world.from_arrays(cls, arrays)

    def agent_space(self) -> GraphSpace:
        """Capability ``"agent_space"``: agents move between waypoints (nodes are
        waypoint indices, positions :attr:`points`) over the graph of every candidate
        pair, kept up to date with the obstacles (a blocked pair weighs ``inf``).

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> space = WaypointGraph([(0, 0), (3, 4), (6, 0)]).agent_space()
        >>> space.nodes(space.find_path(0, 2)), space.point(1)
        ([0, 2], (3.0, 4.0))
        """
        return self._pairs_graph().agent_space()

    places = refused(
        "WaypointGraph", "places", "places",
        "its places are (x, y) positions anywhere on its links, not a list to number",
    )

    def replan_space(self) -> ReplanSpace:
        """Capability ``"replanner"``: the graph of every candidate pair as D* Lite
        sees it (:class:`pathcraft.replan.ReplanSpace`; :meth:`replanner` uses it).

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> WaypointGraph([(0, 0), (1, 0)]).replan_space().node(1)
        1
        """
        space = self._pairs_graph().replan_space()
        space.points = self._points  # waypoints may be given by position
        return space

    def _require_obstacles(self, what: str) -> None:
        if self._los is not None:
            raise ValueError(f"{what} needs obstacles; this graph uses line_of_sight")

    def _rebuild_set(self) -> None:
        self._set = vis.ObstacleSet.of(list(self._obstacles.values()))
        self._set_ids = np.array(list(self._obstacles), dtype=np.intp)

    def _update(self, key: int, delta: int) -> None:
        """Add ``delta`` to the count of every pair obstacle ``key`` blocks."""
        place = int(np.flatnonzero(self._set_ids == key)[0])
        pairs = self._pairs
        seg, _ = vis.blocking_pairs(
            self._points[pairs[:, 0]], self._points[pairs[:, 1]], self._set,
            which=np.array([place], dtype=np.intp),
        )  # fmt: skip
        flipped = np.empty(0, dtype=np.intp)
        if seg.shape[0]:
            was_open = self._blocked[seg] == 0
            self._blocked[seg] += delta
            flipped = seg[was_open != (self._blocked[seg] == 0)]
            self._graph = self._link_graph()
            if self._replan_graph is not None and flipped.size:
                self._replan_graph.set_weights(self._pair_weights(flipped), edges=flipped)
        self._log.record(flipped, empty=True)  # a version, if it flips no link too

    # ------------------------------------------------------------------ queries

    def visible(self, position: Sequence[float]) -> npt.NDArray[np.intp]:
        """The waypoints seen from ``position`` (within ``max_distance``), by index.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> WaypointGraph([(0, 0), (10, 0)], [box(4, -1, 6, 1)]).visible((5, 3)).tolist()
        [0, 1]
        """
        p = _place("position", position, self._dim)
        with self._lock:
            return self._sight(p)[0]

    def _sight(
        self, p: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """The waypoints ``p`` sees and their distances."""
        d = np.sqrt(((self._points - p) ** 2).sum(axis=1))
        cand = np.arange(self._points.shape[0], dtype=np.intp)
        if self._max_distance is not None:
            cand = cand[d <= self._max_distance]
        clear = self._clear(np.broadcast_to(p, (cand.shape[0], self._dim)), self._points[cand])
        seen = cand[clear]
        return seen, d[seen]

    def _clear(self, a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> Any:
        """A boolean array: whether each segment ``a[i] -> b[i]`` is clear."""
        if self._los is not None:
            return self._call_los(a, b) == 0
        seg, _ = vis.blocking_pairs(np.ascontiguousarray(a), b, self._set)
        blocked = np.zeros(a.shape[0], dtype=bool)
        blocked[seg] = True
        return ~blocked

    def _check_free(self, name: str, p: npt.NDArray[np.float64]) -> None:
        if self._los is not None or not self._obstacles:
            return
        _, inside = vis.blocking_pairs(p[None], p[None], self._set)
        if inside.shape[0]:
            key = int(self._set_ids[inside[0]])
            grown = f" (grown by the radius {self._radius:g})" if self._radius else ""
            raise ValueError(f"{name} {tuple(p.tolist())} is inside obstacle {key}{grown}")

    def find_path(
        self,
        start: Sequence[float],
        goal: Sequence[float],
        *,
        algorithm: Literal["astar", "dijkstra", "greedy"] = "astar",
        radius: float = 0.0,
        **options: Unpack[Options],
    ) -> PathResult:
        """A path from ``start`` to ``goal`` through the waypoints, by ``algorithm``.

        Parameters
        ----------
        start, goal : (x, y) or (x, y, z)
            Any positions outside the obstacles (they need not be waypoints).
        algorithm : {"astar", "dijkstra", "greedy"}
            The search over the waypoints (greedy: fast, not the shortest).
        radius : float
            The agent's radius (``>= 0``, default 0): the search runs on
            :meth:`for_radius`, every obstacle grown by it (built once per radius,
            then cached; corners rounded as ``agent_radius``'s), so the path keeps the
            agent's centre that far from them.
        weight : float
            ``>= 1``: weighted A*, at most ``weight`` times the best cost.
        heuristic : {"euclidean", "zero"} or None
            The straight-line distance to the goal (default), or none.
        tie_break, seed, max_expansions, max_cost, record
            As in :meth:`pathcraft.Graph.find_path`; recorded nodes come back as
            positions (the goal last when it was reached).
        partial : bool
            When the goal is not reached (unreachable or a limit), ``path`` leads to
            the expanded waypoint closest to the goal (just ``[start]`` when the start
            sees no waypoint); the result stays falsy.

        Returns
        -------
        PathResult
            ``path`` is an ``(m, 2)`` (or ``(m, 3)``) float array of positions from
            start to goal; ``cost`` its length. When start sees goal the path is the
            straight line (``expanded == 0``), whatever ``max_distance``; otherwise
            the search runs from the waypoints the start sees to those the goal sees.

        Raises
        ------
        UnsupportedOptionError
            An option the algorithm does not take (a ``TypeError`` naming what it takes).
        ValueError
            A non-finite position or one inside an obstacle, a bad option.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wp = WaypointGraph([(5, -1), (5, 3)], obstacles=[box(4, 0, 6, 2)])
        >>> r = wp.find_path((3, 1), (7, 1), algorithm="dijkstra")
        >>> r.path.tolist(), round(r.cost, 3)
        ([[3.0, 1.0], [5.0, -1.0], [7.0, 1.0]], 5.657)
        """
        t0 = time.perf_counter()
        while True:
            with self._lock:
                wide = self.for_radius(radius)
                search = wide._start("find_path", start, goal, algorithm, options, self)
            try:
                search.step()
            except WorldChangedError:
                continue  # another thread edited the obstacles meanwhile: ask the new map
            return dataclasses.replace(search.result, elapsed=time.perf_counter() - t0)

    def start_search(
        self,
        start: Sequence[float],
        goal: Sequence[float],
        *,
        algorithm: Literal["astar", "dijkstra", "greedy"] = "astar",
        radius: float = 0.0,
        **options: Unpack[Options],
    ) -> CompiledSearch:
        """Start a compiled search that a game loop spreads over frames.

        ``algorithm``, ``radius`` and ``options`` are :meth:`find_path`'s, checked the
        same way. ``step(n)`` on the returned object expands at most ``n`` more waypoints with
        the GIL released and returns ``"in_progress"``, ``"found"``, the reason the
        search ended without its goal, or ``"cancelled"``; its ``result`` is then
        exactly :meth:`find_path`'s. :meth:`find_path` is one unlimited step of it.
        An obstacle edit (:meth:`add_obstacle`, :meth:`remove_obstacle`) while it runs
        cancels it, with or without ``radius``: its next ``step`` raises
        :class:`~pathcraft.WorldChangedError` (its answer would be for the obstacles
        before the edit); start a new search, or plan with :meth:`replanner`.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import WaypointGraph
        >>> wg = WaypointGraph([(4, 5), (6, 5), (4, -5), (6, -5)], [box(4, -5, 6, 5)])
        >>> search = wg.start_search((0, 0), (10, 0))
        >>> search.step(1), search.step(), round(search.result.cost, 4)
        ('in_progress', 'found', 14.8062)
        """
        with self._lock:
            wide = self.for_radius(radius)
            return wide._start("start_search", start, goal, algorithm, options, self)

    def _start(
        self, method: str, start: Any, goal: Any, algorithm: Any, options: Mapping[str, Any],
        watch: WaypointGraph,
    ) -> CompiledSearch:  # fmt: skip
        """The search of :meth:`find_path` and :meth:`start_search` (``method``: the
        one called, which refusals name); ``watch``: the graph whose obstacle edits
        cancel it (the one asked, whose :meth:`for_radius` graph this may be)."""
        with self._lock:  # the map of one version
            return self._started(method, start, goal, algorithm, options, watch)

    def _started(
        self, method: str, start: Any, goal: Any, algorithm: Any, options: Mapping[str, Any],
        watch: WaypointGraph,
    ) -> CompiledSearch:  # fmt: skip
        """:meth:`_start`, the graph's lock held."""
        t0 = time.perf_counter()
        opts = SearchOptions.check_call("WaypointGraph", method, algorithm, options)
        s = _place("start", start, self._dim)
        g = _place("goal", goal, self._dim)
        self._check_free("start", s)
        self._check_free("goal", g)
        direct = float(np.sqrt(((s - g) ** 2).sum()))
        limit_cost = opts.max_cost
        no_record = (np.empty((0, self._dim)), np.empty(0)) if opts.record else None
        if bool(self._clear(s[None], g[None])[0]) and (limit_cost is None or direct <= limit_cost):
            path = s[None].copy() if direct == 0.0 else np.stack((s, g))
            return CompiledSearch.ended(build_result(None, path, direct, t0=t0, explored=no_record))
        sources, source_costs = self._sight(s)
        goals, exit_costs = self._sight(g)
        reach = self._kept()
        if not (sources.shape[0] and goals.shape[0]) or (
            reach is not None and not (opts.partial or opts.record)
            and reach.apart_any(sources, goals)
        ):
            stay = s[None].copy() if opts.partial else np.empty((0, self._dim))
            return CompiledSearch.ended(
                build_result("unreachable", stay, 0.0, t0=t0, explored=no_record)
            )
        heuristic = opts.heuristic or "euclidean"
        if algorithm == "dijkstra":
            heuristic = "zero"
        args, settings = kernel_args(
            self.graph, algorithm, sources, -1, goals, source_costs=source_costs,
            exit_costs=exit_costs,
            target=g, weight=opts.weight, heuristic=heuristic, tie_break=opts.tie_break,
            seed=opts.seed, max_expansions=opts.max_expansions, max_cost=limit_cost,
            partial=opts.partial, record=opts.record,
        )  # fmt: skip
        places = np.concatenate((self._points, g[None]))  # the virtual goal: index n

        def finish(answer: tuple[Any, ...], t0: float) -> PathResult:
            read = Answer.read(answer)
            if reach is not None and read.status == UNREACHABLE:
                reach.missed()
            nodes = read.path
            path = np.concatenate((s[None], places[nodes])) if len(nodes) else places[nodes]
            return read.result(t0, path, None if read.nodes is None else places[read.nodes])

        return CompiledSearch(
            lambda ws: _kernel.GraphSearch(*args(ws), **settings), finish,
            _kernel.Workspace, self.graph.num_nodes + 1, watch,
        )  # fmt: skip

    def astar(
        self, start: Sequence[float], goal: Sequence[float], **options: Unpack[Options]
    ) -> PathResult:
        """A* between two positions: ``find_path(start, goal, algorithm="astar", ...)``.

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> WaypointGraph([(0, 0), (1, 0)], line_of_sight=lambda a, b: True).astar(
        ...     (0, 0), (3, 4)).cost
        5.0
        """
        return self.find_path(start, goal, algorithm="astar", **options)

    def dijkstra(
        self, start: Sequence[float], goal: Sequence[float], **options: Unpack[Options]
    ) -> PathResult:
        """Dijkstra between two positions: ``find_path(..., algorithm="dijkstra")``.

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> WaypointGraph([(0, 0), (1, 0)], line_of_sight=lambda a, b: True).dijkstra(
        ...     (0, 0), (1, 0)).path.tolist()
        [[0.0, 0.0], [1.0, 0.0]]
        """
        return self.find_path(start, goal, algorithm="dijkstra", **options)

    def greedy(
        self, start: Sequence[float], goal: Sequence[float], **options: Unpack[Options]
    ) -> PathResult:
        """Greedy best-first search between two positions (fast, not the shortest):
        ``find_path(start, goal, algorithm="greedy", ...)``.

        Examples
        --------
        >>> from pathcraft import WaypointGraph
        >>> WaypointGraph([(0, 0), (1, 0)], line_of_sight=lambda a, b: True).greedy(
        ...     (0, 0), (2, 0)).cost
        2.0
        """
        return self.find_path(start, goal, algorithm="greedy", **options)


register_kind(WaypointGraph)
