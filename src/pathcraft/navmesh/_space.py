"""The navigation mesh as agents' space (:class:`MeshSpace`, a
:class:`pathcraft.agents.Space`): what :meth:`NavMesh.agent_space
<pathcraft.navmesh.NavMesh.agent_space>` returns.

Positions are continuous: a node is an ``(x, y)`` point on the mesh (a tuple of two
floats), a path the funnel's corners from the start to the goal, and a step's cost the
cost :meth:`NavMesh.find_path <pathcraft.navmesh.NavMesh.find_path>` gives its piece
(:meth:`NavMesh.path_cost <pathcraft.navmesh.NavMesh.path_cost>`: the length, times the
area costs where the mesh has them; an off-mesh link's cost where a step is one), so
the step costs of a path add up to its result's ``cost``.

For agents that move freely between their corners (a path follower, a crowd) the space
also says which points are on the mesh (:meth:`MeshSpace.contains`) and moves points
along the surface, sliding along walls (:meth:`MeshSpace.slide`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._positions import check_position
from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.navmesh._corridor import PathCorridor
from pathcraft.navmesh._filter import check_filter
from pathcraft.result import PathResult, build_result
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from pathcraft.navmesh._filter import QueryFilter
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["MeshSpace"]

FloatArray = npt.NDArray[np.float64]
Point = tuple[float, float]

#: A re-aimed corridor is searched again once its target has drifted from where it was
#: last searched by more than 1 / _DRIFT of the distance left to it.
_DRIFT = 4.0


class MeshSpace:
    """A :class:`~pathcraft.navmesh.NavMesh` as a :class:`~pathcraft.agents.Space`:
    nodes are ``(x, y)`` points on the mesh.

    Parameters
    ----------
    mesh : NavMesh
        The mesh; it may change between searches (carved obstacles, area costs).
    algorithm : {"funnel", "optimal"}
        How paths are found (:meth:`NavMesh.find_path
        <pathcraft.navmesh.NavMesh.find_path>`'s ``algorithm``): the funnel by default.
    filter : QueryFilter or None
        Area costs and excluded polygons of these agents' queries (a unit type's
        :class:`~pathcraft.navmesh.QueryFilter`); their steps are priced by it too.

    Examples
    --------
    >>> from shapely import box
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    >>> space = mesh.agent_space()
    >>> path = space.nodes(space.find_path((1, 9), (9, 9)))
    >>> path
    [(1.0, 9.0), (4.0, 2.0), (6.0, 2.0), (9.0, 9.0)]
    >>> [round(c, 3) for c in space.step_costs(path).tolist()], space.point(path[1])
    ([7.616, 2.0, 7.616], (4.0, 2.0))
    """

    __slots__ = ("_end", "algorithm", "filter", "mesh")

    #: Positions are continuous: an agent between two corners plans from where it is
    #: (a :class:`~pathcraft.agents.Pursuer` splits its path there), not from a corner.
    continuous = True

    def __init__(
        self,
        mesh: NavMesh,
        *,
        algorithm: Literal["funnel", "optimal"] = "funnel",
        filter: QueryFilter | None = None,
    ) -> None:
        if kind_of(mesh) != "navmesh":
            raise TypeError(f"mesh must be a pathcraft NavMesh; got {type(mesh).__name__}")
        self.mesh = mesh
        self.algorithm: str = check_choice("algorithm", algorithm, ("funnel", "optimal"))
        checked = check_filter(filter)
        if checked is not None:
            mesh.query_policy(checked)  # checked against the mesh: a bad id raises here
        self.filter = checked
        self._end: tuple[int, Point, int] = (-1, (math.nan, math.nan), -1)  # see toward

    @property
    def world(self) -> Any:
        """The mesh agents move on (its edits are watched)."""
        return self.mesh

    def key(self, node: Any, name: str = "node") -> Point:
        """``node``, an ``(x, y)`` point, checked (finite, on the mesh) as a tuple of
        two floats; ``name`` is the argument's name in the error raised.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.key([1, 0.5])
        (1.0, 0.5)
        >>> space.key((3, 0.5), name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal (3.0, 0.5) is off the mesh; snap=True moves it to the nearest point on it
        """
        p = check_position(name, node, 2)
        if self.mesh.polygons_at(p).size == 0:
            raise ValueError(
                f"{name} {tuple(p.tolist())} is off the mesh; snap=True moves it to the "
                "nearest point on it"
            )
        return float(p[0]), float(p[1])

    def snap(self, node: Any, name: str = "node") -> Point:
        """The point of the mesh nearest ``node`` (``(x, y)``; itself when on the mesh):
        what agents built with ``snap=True`` use in place of :meth:`key`.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.snap((3, 0.5)), space.snap((1, 0.5))
        ((2.0, 0.5), (1.0, 0.5))
        """
        p = check_position(name, node, 2)
        if self.mesh.polygons_at(p).size == 0:
            p = self.mesh.nearest_point(p)
        return float(p[0]), float(p[1])

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The path between two ``(x, y)`` points by :meth:`NavMesh.find_path
        <pathcraft.navmesh.NavMesh.find_path>` (this space's ``algorithm`` and
        ``filter``), giving up after ``max_expansions``.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.find_path((0.5, 0.5), (1.5, 0.5)).cost
        1.0
        """
        return self.mesh.find_path(
            start, goal, algorithm=self.algorithm,  # type: ignore[arg-type]
            filter=self.filter, max_expansions=max_expansions,
        )  # fmt: skip

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """:meth:`find_path`'s search as a compiled search (:meth:`NavMesh.start_search
        <pathcraft.navmesh.NavMesh.start_search>`), stepped a few expansions a frame.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> search = mesh.agent_space().start_search((1, 9), (9, 9))
        >>> while search.step(2) == "in_progress":
        ...     pass
        >>> search.result.path.tolist()
        [[1.0, 9.0], [4.0, 2.0], [6.0, 2.0], [9.0, 9.0]]
        """
        return self.mesh.start_search(
            start, goal, algorithm=self.algorithm,  # type: ignore[arg-type]
            filter=self.filter, max_expansions=max_expansions,
        )  # fmt: skip

    def toward(self, start: Hashable, goal: Hashable) -> PathResult | None:
        """A straight move from ``start`` toward ``goal``, both ``(x, y)`` on the mesh,
        as far as it stays on the mesh (:meth:`NavMesh.raycast
        <pathcraft.navmesh.NavMesh.raycast>`, this space's filter): the path ``[start,
        goal]`` when the goal is in sight, else to where the ray meets a wall; None
        when it cannot move at all. What a budgeted
        :class:`~pathcraft.agents.Pursuer` walks while its plan is found (a mesh
        search in progress tells no partial path): the cheapest move that never
        leaves the walkable area.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> space = mesh.agent_space()
        >>> space.toward((1, 9), (9, 9)).path.tolist()     # up to the wall
        [[1.0, 9.0], [4.0, 9.0]]
        >>> space.toward((1, 1), (9, 1)).path.tolist()     # in sight
        [[1.0, 1.0], [9.0, 1.0]]
        """
        a = np.asarray(start, dtype=np.float64)
        b = np.asarray(goal, dtype=np.float64)
        mesh = self.mesh
        if self.filter is not None:
            ray = mesh.raycast(a, b, filter=self.filter)
        else:  # the mesh's own polygons: walked from the polygon the last move ended in
            spatial, version = mesh.spatial, mesh.version
            was, here, poly = self._end
            if was != version or here != start:
                poly = int(spatial.locate(a[None])[0])
                if poly < 0:
                    raise ValueError(f"start {tuple(a.tolist())} is off the mesh")
            ray = spatial.raycast(a, b, None, poly, normal=False)
        end = b
        if ray.hit:  # stop a hair short of the wall: its rounded point may lie outside
            last = mesh.spatial.shapes[int(ray.polygons[-1])] if ray.polygons.size else None
            for back in (0.0, 1e-9, 1e-6, 1e-3):
                end = a + max(ray.fraction - back, 0.0) * (b - a)
                if last is not None and shapely.intersects_xy(last, end[0], end[1]):
                    break
            else:
                return None
        if float(np.hypot(*(end - a))) <= 1e-9 * (1.0 + float(np.abs(a).max())):
            return None
        path = [(float(a[0]), float(a[1])), (float(end[0]), float(end[1]))]
        if ray.polygons.size:  # where the next move toward starts, most likely
            self._end = (mesh.version, path[1], int(ray.polygons[-1]))
        cost = float(self.step_costs(path)[0])
        return build_result(None if ray.hit is False else "max_expansions", np.array(path), cost)

    def reaim(
        self, corridor: PathCorridor | None, start: Hashable, goal: Hashable,
        *, search: bool = True,
    ) -> tuple[PathCorridor, PathResult] | None:  # fmt: skip
        """Re-aim an agent's path by its :class:`~pathcraft.navmesh.PathCorridor`
        instead of searching: the corridor (a new one when ``corridor`` is None) is
        moved to ``start``, where the agent stands, and to ``goal``, where its target
        went (searched again once the target has drifted from where it was last
        searched by more than a quarter of the straight distance to it, so the
        corridor does not keep a way round that a search would drop), and its
        corners returned as a path from ``start`` to ``goal`` (falsy,
        ``"unreachable"``, when the goal is out of reach). None on a mesh with off-mesh
        links (no corridor there: search instead). What a
        :class:`~pathcraft.agents.Pursuer` does for a target that moves.

        ``search=False`` bounds it (a budgeted pursuer's re-aim, whose searches are
        spread over frames): the corridor is kept only where both moves need no
        search and the target has not drifted past the quarter; else None, the
        corridor unchanged (search instead). It expands nothing.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> space = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10))
        ...                               ).agent_space()
        >>> corridor, plan = space.reaim(None, (1, 9), (9, 9))
        >>> corridor, plan = space.reaim(corridor, (2, 7), (9, 8))
        >>> plan.path.tolist(), plan.expanded, corridor.searches    # no search
        ([[2.0, 7.0], [4.0, 2.0], [6.0, 2.0], [9.0, 8.0]], 0, 1)
        """
        if self.mesh.has_links:
            return None
        here = np.asarray(start, dtype=np.float64)
        if not search:
            return self._follow(corridor, here, goal)
        before = 0 if corridor is None else corridor.expanded
        if corridor is not None and corridor.mesh is self.mesh:
            moved = corridor.move_position(here)
            if float(np.hypot(*(moved - here))) <= 1e-9 * (1.0 + float(np.abs(here).max())):
                corridor.move_target(goal)
                if _DRIFT * corridor.drift > float(np.hypot(*(corridor.target - here))):
                    corridor.replan()  # the target went far: a new search may go another way
            else:  # it could not walk there: a new corridor
                corridor = None
        if corridor is None or corridor.mesh is not self.mesh:
            corridor, before = PathCorridor(self.mesh, here, goal, filter=self.filter), 0
        return corridor, self._corners(corridor, here, corridor.expanded - before)

    def corridor(
        self, start: Hashable, goal: Hashable, max_expansions: int
    ) -> tuple[PathCorridor | None, PathResult]:
        """:meth:`reaim`'s new corridor from ``start`` to ``goal`` (``(x, y)`` on the
        mesh) by a search stopped after ``max_expansions``: the corridor and its path,
        or None and a falsy ``"max_expansions"`` result when the limit stopped it (a
        budgeted :class:`~pathcraft.agents.Pursuer`'s plan run whole within what is
        left of its frame). A mesh with off-mesh links has no corridor: None and a
        result searched by :meth:`find_path` (with the same limit).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> space = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10))
        ...                               ).agent_space()
        >>> corridor, plan = space.corridor((1, 9), (9, 9), max_expansions=1)
        >>> corridor, plan.reason
        (None, 'max_expansions')
        >>> corridor, plan = space.corridor((1, 9), (9, 9), max_expansions=50)
        >>> plan.path.tolist(), corridor.searches
        ([[1.0, 9.0], [4.0, 2.0], [6.0, 2.0], [9.0, 9.0]], 1)
        """
        if self.mesh.has_links:
            return None, self.find_path(start, goal, max_expansions=max_expansions)
        here = np.asarray(start, dtype=np.float64)
        made, spent = PathCorridor.capped(
            self.mesh, here, np.asarray(goal, dtype=np.float64), self.filter, max_expansions
        )
        if made is None:
            return None, PathResult.not_found("max_expansions", expanded=spent)
        return made, self._corners(made, here, spent)

    def _corners(self, corridor: PathCorridor, here: FloatArray, spent: int) -> PathResult:
        """The corridor's path from ``here`` (falsy when its target is out of reach)."""
        if not corridor.found:
            return PathResult.not_found("unreachable", expanded=spent)
        corners = corridor.corners
        corners[0] = here  # where the agent stands, not a hair inside its polygon
        return build_result(None, corners, corridor.cost, expanded=spent)

    def _follow(
        self, corridor: PathCorridor | None, here: FloatArray, goal: Hashable
    ) -> tuple[PathCorridor, PathResult] | None:
        """:meth:`reaim` without a search (see its ``search``)."""
        if corridor is None or corridor.mesh is not self.mesh:
            return None
        if not corridor.follow(here, goal, drift=_DRIFT):
            return None
        return corridor, self._corners(corridor, here, 0)

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The corners of ``result``'s path as ``(x, y)`` tuples.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.nodes(space.find_path((0.5, 0.5), (1.5, 0.5)))
        [(0.5, 0.5), (1.5, 0.5)]
        """
        return [(float(x), float(y)) for x, y in np.asarray(result.path).tolist()]

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The cost of each step of a path of ``(x, y)`` points: its length times the
        area costs of the polygons it crosses (:meth:`NavMesh.path_cost
        <pathcraft.navmesh.NavMesh.path_cost>`, under this space's filter), or the cost
        of the off-mesh link from one end to the other (the cheapest one) when a link
        joins them, as the search priced it.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> space = mesh.agent_space()
        >>> space.step_costs([(0.5, 0.5), (1.5, 0.5), (1.5, 0.0)]).tolist()
        [1.0, 0.5]
        >>> mesh.set_area_cost([1], 3.0)
        >>> space.step_costs([(0.5, 0.5), (1.5, 0.5), (1.5, 0.0)]).tolist()
        [2.0, 1.5]
        """
        pts = np.asarray(path, dtype=np.float64).reshape(-1, 2)
        if pts.shape[0] < 2:
            return np.zeros(0)
        out: FloatArray = np.hypot(*np.diff(pts, axis=0).T)
        if self.filter is None and not self.mesh.has_area_costs and not self.mesh.has_links:
            return out  # the lengths
        policy = self.mesh.query_policy(self.filter)
        links = self.mesh.links if self.mesh.has_links else {}
        for i in range(out.shape[0]):
            if policy.costs is not None:
                out[i] = policy.price(pts[i : i + 2])
            u, v = cast(Point, tuple(pts[i].tolist())), cast(Point, tuple(pts[i + 1].tolist()))
            hops = [
                link.cost for link in links.values()
                if (u, v) == (link.a, link.b) or (link.two_way and (u, v) == (link.b, link.a))
            ]  # fmt: skip
            if hops:
                out[i] = min(hops)
        return out

    def point(self, node: Hashable) -> Point:
        """Where ``node`` is: the point itself, ``(x, y)``.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.point((1.5, 0.25))
        (1.5, 0.25)
        """
        x, y = cast(Point, node)
        return float(x), float(y)

    def contains(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which ``(x, y)`` points (an ``(n, 2)`` array) lie on the mesh (inside a
        polygon or on its boundary).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.contains([(0.5, 0.5), (2.0, 1.0), (2.5, 0.5)]).tolist()
        [True, True, False]
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        out: npt.NDArray[np.bool_] = np.asarray(self.mesh.locate(pts)) >= 0
        return out

    def walkable(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """The :class:`~pathcraft.agents.Floor` protocol's name for :meth:`contains`:
        with it and :meth:`slide` this space is its own floor, so a
        :class:`~pathcraft.agents.PathFollower` walks the mesh.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> space.walkable([(0.5, 0.5), (2.5, 0.5)]).tolist()
        [True, False]
        """
        return self.contains(points)

    def slide(
        self, positions: npt.ArrayLike, delta: npt.ArrayLike
    ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """Move ``(x, y)`` points on the mesh by ``delta`` (both ``(n, 2)``) along the
        surface, sliding along walls and never leaving the mesh
        (:meth:`NavMesh.move_along_surface
        <pathcraft.navmesh.NavMesh.move_along_surface>` for each, under this space's
        filter): the new positions, and which points were stopped short by a wall.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> space = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]]).agent_space()
        >>> moved, blocked = space.slide([(1, 0.5), (1, 0.5)], [(0.5, 0.0), (0.5, 1.0)])
        >>> moved.tolist(), blocked.tolist()
        ([[1.5, 0.5], [1.5, 1.0]], [False, True])
        """
        pts = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
        ends = pts + np.asarray(delta, dtype=np.float64).reshape(-1, 2)
        out = pts.copy()
        blocked = np.zeros(pts.shape[0], dtype=bool)
        for i in range(pts.shape[0]):
            move = self.mesh.move_along_surface(pts[i], ends[i], filter=self.filter)
            out[i] = move.position
            blocked[i] = not move.reached
        return out, blocked
