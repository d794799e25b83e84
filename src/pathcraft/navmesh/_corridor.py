"""A path corridor on a navigation mesh (:class:`PathCorridor`), after Detour's
``dtPathCorridor``: the polygons from an agent's polygon to its target's, and the next
corners of the string pulled through them, kept current as the agent and its target
move without searching again.

How it stays current (the merges are Detour's ``dtMergeCorridorStartMoved`` and
``dtMergeCorridorEndMoved``, read in Recast & Detour's ``DetourPathCorridor.cpp``):

- :meth:`PathCorridor.move_position` moves the agent along the surface
  (:meth:`NavMesh.move_along_surface <pathcraft.navmesh.NavMesh.move_along_surface>`:
  it slides along walls and never leaves the mesh) and joins the polygons that move
  crossed to the corridor at the furthest polygon they share: the polygons passed are
  dropped from its start, and a step off the corridor is a detour through the polygons
  walked, so the corridor is repaired where the agent left it.
- :meth:`PathCorridor.move_target` moves the target along the surface the same way and
  joins the polygons crossed at the nearest polygon they share with the corridor (a
  target stepping back into the corridor shortens it, where Detour's furthest one
  leaves a U-turn); a target the move cannot reach (behind a wall, or out of reach)
  is planned for afresh.
- After either, the corridor is replaced by the polygons of the straight line when the
  target is in sight (the mesh's raycast), as :meth:`NavMesh.find_path
  <pathcraft.navmesh.NavMesh.find_path>` takes the straight line then.

The corners are the funnel's (the same compiled string pull as ``find_path``), so
while the corridor is the one ``find_path`` would search they are ``find_path``'s
path from the agent's position. A corridor kept by moves is not searched again and can
differ from the one a new search picks (the funnel's corridor search weighs points on
the portals, so a new start can tip it to another corridor, which both pull to paths
of nearly equal length): :meth:`PathCorridor.replan` searches again, and a mesh edit
(:attr:`NavMesh.version <pathcraft.navmesh.NavMesh.version>`) makes the next move do
it.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._options import check_flag
from pathcraft._positions import check_position
from pathcraft.navmesh import _agentq, _query
from pathcraft.navmesh._agentq import MoveResult
from pathcraft.navmesh._filter import Policy, check_filter
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from pathcraft.navmesh._filter import QueryFilter
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["PathCorridor", "merge_end", "merge_start"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


def _copy(a: FloatArray) -> FloatArray:
    out: FloatArray = a.copy()
    return out


def merge_start(path: Polys, visited: Polys) -> Polys | None:
    """The corridor ``path`` after its start moved across ``visited`` (polygons from
    the old start's to the new one's, neighbour to neighbour): the polygons visited
    back from the new start to the furthest polygon of ``path`` they share, then the
    rest of ``path``; None when they share none.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.navmesh._corridor import merge_start
    >>> merge_start(np.array([0, 1, 2]), np.array([0, 1])).tolist()   # passed 0
    [1, 2]
    >>> merge_start(np.array([0, 1, 2]), np.array([0, 5])).tolist()   # stepped aside
    [5, 0, 1, 2]
    """
    shared = np.flatnonzero(np.isin(path, visited))
    if shared.size == 0:
        return None
    i = int(shared[-1])
    j = int(np.flatnonzero(visited == path[i])[0])
    out: Polys = np.concatenate([visited[j:][::-1], path[i + 1 :]]).astype(np.int32)
    return out


def merge_end(path: Polys, visited: Polys) -> Polys | None:
    """The corridor ``path`` after its end moved across ``visited`` (polygons from the
    old end's to the new one's): ``path`` up to the nearest of its polygons that
    ``visited`` holds, then the polygons visited after it; None when they share none.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.navmesh._corridor import merge_end
    >>> merge_end(np.array([0, 1, 2]), np.array([2, 3])).tolist()    # on into 3
    [0, 1, 2, 3]
    >>> merge_end(np.array([0, 1, 2]), np.array([2, 1])).tolist()    # back into 1
    [0, 1]
    """
    shared = np.flatnonzero(np.isin(path, visited))
    if shared.size == 0:
        return None
    i = int(shared[0])
    j = int(np.flatnonzero(visited == path[i])[0])
    out: Polys = np.concatenate([path[: i + 1], visited[j + 1 :]]).astype(np.int32)
    return out


class PathCorridor:
    """The polygons from an agent to its target on a :class:`~pathcraft.navmesh.NavMesh`
    and the corners of the path through them, kept current as both move (Detour's
    ``dtPathCorridor``). Positions are ``(x, y)``.

    Made by one search (:meth:`NavMesh.corridor <pathcraft.navmesh.NavMesh.corridor>`,
    the funnel's), then kept without searching: :meth:`move_position` drops the polygons
    the agent passed and repairs the corridor where it stepped off,
    :meth:`move_target` extends or shortens it where the target went, and a target in
    sight is the straight line (see :mod:`pathcraft.navmesh._corridor`). The agent
    never leaves the mesh: it moves along the surface, sliding along walls.

    Parameters
    ----------
    mesh : NavMesh
        The mesh (without off-mesh links). An edit of it makes the next move search
        again.
    position, target : (x, y)
        Where the agent and its target are, on the mesh.
    filter : QueryFilter or None
        The agent's area costs and excluded polygons (as for
        :meth:`NavMesh.find_path <pathcraft.navmesh.NavMesh.find_path>`).
    snap : bool
        Move a ``position`` or ``target`` off the mesh (here and in the moves) to the
        nearest point on it; without it such a position is a ``ValueError``.

    Attributes
    ----------
    searches : int
        Corridor searches run so far (the first included).
    expanded : int
        Search nodes those searches expanded together.

    Raises
    ------
    TypeError
        ``mesh`` not a NavMesh, a ``filter`` not a QueryFilter.
    ValueError
        A position off the mesh (without ``snap``) or not finite; a mesh with off-mesh
        links.

    Examples
    --------
    A wall with a gap at the bottom, and a target beyond it:

    >>> from shapely import box
    >>> from pathcraft import NavMesh
    >>> from pathcraft.navmesh import PathCorridor
    >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    >>> corridor = PathCorridor(mesh, (1, 9), (9, 9))
    >>> corridor.corners.tolist()
    [[1.0, 9.0], [4.0, 2.0], [6.0, 2.0], [9.0, 9.0]]
    >>> corridor.move_position((3, 4)).tolist()      # walk toward the first corner
    [3.0, 4.0]
    >>> corridor.next_corner.tolist(), corridor.searches
    ([4.0, 2.0], 1)
    >>> corridor.move_position((5, 5)).tolist()      # into the wall: slides along it
    [4.0, 5.0]
    >>> corridor.move_target((9, 8)).tolist()        # the target moved a little
    [9.0, 8.0]
    >>> corridor.corners.tolist(), corridor.searches
    ([[4.0, 5.0], [4.0, 2.0], [6.0, 2.0], [9.0, 8.0]], 1)
    >>> corridor.corners.tolist() == mesh.find_path((4, 5), (9, 8)).path.tolist()
    True
    """

    __slots__ = (
        "_anchor", "_corners", "_end", "_filter", "_found", "_held", "_limit", "_mesh",
        "_policy", "_polys", "_pos", "_scale", "_snap", "_stopped", "_straight", "_target",
        "_version", "expanded", "searches",
    )  # fmt: skip

    def __init__(
        self,
        mesh: NavMesh,
        position: Any,
        target: Any,
        *,
        filter: QueryFilter | None = None,
        snap: bool = False,
    ) -> None:
        if kind_of(mesh) != "navmesh":
            raise TypeError(f"mesh must be a pathcraft NavMesh; got {type(mesh).__name__}")
        self._mesh = mesh
        self._filter = check_filter(filter)
        self._snap = check_flag("snap", snap)
        self.searches = 0
        self.expanded = 0
        self._held: dict[tuple[float, float], Polys] = {}
        self._version = -1
        self._scale = 1.0
        self._policy = self._current()
        self._polys: Polys = np.empty(0, dtype=np.int32)
        self._corners: FloatArray | None = None
        self._straight = False
        self._found = False
        self._pos: FloatArray = self._place("position", position, self._snap)
        self._target: FloatArray = self._place("target", target, self._snap)
        self._end: FloatArray = self._target
        if not hasattr(self, "_limit"):  # (set before by ``capped``)
            self._limit: int | None = None  # max_expansions of its searches
        self._stopped = False  # the last search was stopped by ``_limit``
        self._plan()

    # ------------------------------------------------------------------ state

    @property
    def mesh(self) -> NavMesh:
        """The mesh the corridor lies on."""
        return self._mesh

    @property
    def position(self) -> FloatArray:
        """Where the agent is, ``(x, y)`` (a copy)."""
        return _copy(self._pos)

    @property
    def target(self) -> FloatArray:
        """Where the target is, ``(x, y)`` (a copy)."""
        return _copy(self._target)

    @property
    def found(self) -> bool:
        """Whether the corridor reaches the target (else it ends at the reachable point
        nearest it, :attr:`end`)."""
        return self._found

    @property
    def end(self) -> FloatArray:
        """Where the corners end: the target, or the reachable point nearest it when
        it is out of reach (a copy)."""
        return _copy(self._end)

    @property
    def polygons(self) -> npt.NDArray[np.intp]:
        """The corridor: polygon ids from the agent's to the end's, neighbour to
        neighbour (a copy)."""
        return self._polys.astype(np.intp)

    @property
    def drift(self) -> float:
        """How far the target is from where it was when the corridor was last
        searched: the further, the likelier a new search finds a shorter way (a caller
        can :meth:`replan` past a distance of its choosing).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh([(0, 0), (4, 0), (4, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> corridor = PathCorridor(mesh, (0.5, 0.5), (3.0, 0.5))
        >>> _ = corridor.move_target((3.0, 0.25))
        >>> corridor.drift
        0.25
        """
        return float(np.hypot(*(self._target - self._anchor)))

    @property
    def corners(self) -> FloatArray:
        """The path from the agent's position to :attr:`end` along the corridor, an
        ``(n, 2)`` array of ``(x, y)`` (a copy): the position, the corners where it
        turns, the end (``[position]`` when they are the same point).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> PathCorridor(mesh, (0.5, 0.5), (1.5, 0.25)).corners.tolist()
        [[0.5, 0.5], [1.5, 0.25]]
        """
        if self._corners is None:
            s, g = self._pos, self._end
            if self._straight or self._polys.shape[0] <= 1:
                self._corners = np.stack((s, g)) if (s != g).any() else s[None].copy()
            else:
                self._corners = _query._pull(self._policy.top, s, g, self._polys)
        out: FloatArray = self._corners.copy()
        return out

    @property
    def next_corner(self) -> FloatArray:
        """The next point to walk toward, ``(x, y)``: the first corner past the
        position (the end once it is in a straight line)."""
        corners = self.corners
        return _copy(corners[min(1, corners.shape[0] - 1)])

    @property
    def cost(self) -> float:
        """The cost of :attr:`corners` (their length, times the area costs where the
        mesh or the filter has them: :meth:`NavMesh.path_cost
        <pathcraft.navmesh.NavMesh.path_cost>`)."""
        return float(self._policy.price(self.corners))

    # ------------------------------------------------------------------ moves

    def move_position(self, position: Any) -> FloatArray:
        """Move the agent toward ``position`` (``(x, y)``) along the surface: it slides
        along walls and stops at the mesh's edge. The polygons passed are dropped from
        the corridor's start; a step off it is joined back (see the class).

        Returns
        -------
        ndarray, shape (2,)
            The position reached (``position`` unless a wall stopped it).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)],
        ...                [[0, 1, 4, 5], [1, 2, 3, 4]])
        >>> corridor = PathCorridor(mesh, (0.5, 0.5), (1.5, 0.5))
        >>> corridor.polygons.tolist()
        [0, 1]
        >>> corridor.move_position((1.25, 2.0)).tolist(), corridor.polygons.tolist()
        ([1.25, 1.0], [1])
        """
        end = check_position("position", position, 2)
        if not self._fresh():
            self._pos = self._place("position", self._pos, True)
            self._plan()
        move = self._move(self._pos, end, 0)
        merged = merge_start(self._polys, move.polygons.astype(np.int32))
        self._pos = move.position if merged is None else self._inside(move.position, merged[0])
        if merged is None:
            self._plan()
        else:
            self._polys = merged
            self._shortcut()
        return _copy(self._pos)

    def move_target(self, target: Any) -> FloatArray:
        """Move the target to ``target`` (``(x, y)``, on the mesh or, with ``snap``,
        the nearest point on it). A target the move along the surface reaches extends
        or shortens the corridor where it went; one it does not (behind a wall, in
        another part of the mesh) is searched for afresh.

        Returns
        -------
        ndarray, shape (2,)
            The target (snapped onto the mesh if asked).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> corridor = PathCorridor(mesh, (1, 9), (9, 9))
        >>> corridor.move_target((8, 7)).tolist(), corridor.searches
        ([8.0, 7.0], 1)
        >>> corridor.move_target((2, 9)).tolist(), corridor.searches  # over the wall
        ([2.0, 9.0], 2)
        """
        fresh = self._fresh()
        goal = self._place("target", target, self._snap)
        if not fresh or not self._found:
            self._pos = self._place("position", self._pos, True)
            self._target = goal
            self._plan()
            return _copy(goal)
        move = self._move(self._target, goal, -1)
        self._target = goal
        merged = merge_end(self._polys, move.polygons.astype(np.int32))
        if not move.reached or merged is None or merged[-1] not in self._located(goal):
            self._plan()
        else:
            self._polys = merged
            self._end = goal
            self._shortcut()
        return _copy(goal)

    @classmethod
    def capped(
        cls, mesh: NavMesh, position: FloatArray, target: FloatArray,
        filter: QueryFilter | None, limit: int,
    ) -> tuple[PathCorridor | None, int]:  # fmt: skip
        """A corridor from ``position`` to ``target`` (``(x, y)`` on the mesh) whose
        search stops after ``limit`` expansions: the corridor (None when the limit
        stopped it) and the expansions spent (a budgeted agent's whole plan within
        what is left of a frame).

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
        >>> PathCorridor.capped(mesh, (1, 9), (9, 9), None, 1)[0] is None
        True
        """
        corridor = cls.__new__(cls)
        corridor._limit = limit
        cls.__init__(corridor, mesh, position, target, filter=filter)
        corridor._limit = None
        return (None if corridor._stopped else corridor), corridor.expanded

    def follow(self, position: Any, target: Any, *, drift: float = math.inf) -> bool:
        """Both moves (:meth:`move_position` to ``position``, :meth:`move_target` to
        ``target``, both ``(x, y)`` on the mesh) where neither needs a search and
        the target's :attr:`drift` stays within ``1 / drift`` of its distance from
        ``position``; else False and the corridor as it was (a bounded re-aim: a
        budgeted agent's, whose search must be spread over frames).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh([(0, 0), (4, 0), (4, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> corridor = PathCorridor(mesh, (0.5, 0.5), (3.0, 0.5))
        >>> corridor.follow((1.0, 0.5), (3.0, 0.25), drift=4.0), corridor.searches
        (True, 1)
        >>> corridor.follow((1.0, 0.5), (1.5, 0.5), drift=4.0)   # drifted far
        False
        """
        position = check_position("position", position, 2)
        target = check_position("target", target, 2)
        far = float(np.hypot(*(target - position)))
        if drift * float(np.hypot(*(target - self._anchor))) > far:
            return False
        if self._mesh.version != self._version or not self._found:
            return False
        move = self._move(self._pos, position, 0)
        if float(np.hypot(*(move.position - position))) > 1e-9 * self._scale:
            return False  # a wall stopped it short
        merged = merge_start(self._polys, move.polygons.astype(np.int32))
        if merged is None:
            return False
        hop = self._move(self._target, target, -1)
        joined = merge_end(merged, hop.polygons.astype(np.int32))
        if not hop.reached or joined is None or joined[-1] not in self._located(target):
            return False
        self._pos = self._inside(move.position, joined[0])
        self._polys = joined
        self._target = self._end = target
        self._shortcut()
        return True

    def replan(self) -> None:
        """Search the corridor again from the position to the target (the funnel's
        search: :meth:`NavMesh.corridor <pathcraft.navmesh.NavMesh.corridor>`), for a
        corridor kept by many moves or a mesh that changed.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.navmesh import PathCorridor
        >>> mesh = NavMesh([(0, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3]])
        >>> corridor = PathCorridor(mesh, (0.5, 0.5), (1.5, 0.5))
        >>> corridor.replan()
        >>> corridor.searches
        2
        """
        if not self._fresh():
            self._pos = self._place("position", self._pos, True)
            self._target = self._place("target", self._target, True)
        self._plan()

    # ------------------------------------------------------------------ inside

    def _current(self) -> Policy:
        """The policy of the mesh as it is now (kept while its version stays)."""
        mesh = self._mesh
        if mesh.has_links:
            raise ValueError(
                "PathCorridor needs a mesh without off-mesh links (a link is a jump, not "
                "a corridor of polygons); remove them, or plan with mesh.find_path"
            )
        self._version = mesh.version
        self._held = {}
        # the tolerance of moves along the surface, as the mesh's own (its size)
        self._scale = float(np.abs(mesh.vertices).max()) + 1.0
        return mesh.query_policy(self._filter)

    def _move(self, start: FloatArray, end: FloatArray, k: int) -> MoveResult:
        """Move along the surface from ``start`` toward ``end``, from the corridor's
        polygon ``k`` (which holds ``start``: a point on shared edges or vertices is in
        several, and the walk must start in the corridor)."""
        if self._polys.shape[0] == 0:
            return self._mesh.move_along_surface(start, end, filter=self._filter)
        poly = int(self._polys[k])
        return _agentq.move_along_surface(self._policy.top, poly, start, end, self._scale)

    def _inside(self, p: FloatArray, poly: int) -> FloatArray:
        """``p``, which a move along the surface left in polygon ``poly`` within its
        tolerance, moved toward the polygon's centre by the least of a few hairs that
        puts it on the polygon by the mesh's own test (so a search from it starts
        there too)."""
        if poly in self._holding(p):
            return p
        top = self._policy.top
        centre = top.xy[top.pv[top.poff[poly] : top.poff[poly + 1]]].mean(axis=0)
        for hair in (1e-12, 1e-10, 1e-8, 1e-6):
            q: FloatArray = p + hair * (centre - p)
            if poly in self._holding(q):
                return q
        return p

    def _fresh(self) -> bool:
        """Whether the mesh is unchanged since the corridor was made (else the
        policy is renewed and False returned: the caller searches again)."""
        if self._mesh.version == self._version:
            return True
        self._policy = self._current()
        return False

    def _place(self, name: str, value: Any, snap: bool) -> FloatArray:
        """A checked position on the mesh (moved onto it with ``snap``)."""
        p = check_position(name, value, 2)
        if self._holding(p).size == 0:
            if not snap:
                raise ValueError(
                    f"{name} {tuple(p.tolist())} is off the mesh; pass snap=True to move "
                    "it to the nearest point on the mesh"
                )
            p = self._mesh.nearest_point(p)
        return p

    def _holding(self, p: FloatArray) -> Polys:
        """Every polygon holding ``p``, remembered for the few points the corridor
        asks about again (its position, target and end) while the mesh stays."""
        key = (float(p[0]), float(p[1]))
        polys = self._held.get(key)
        if polys is None:
            if len(self._held) > 8:
                self._held.clear()
            polys = self._held[key] = self._mesh.polygons_at(p)
        return polys

    def _located(self, p: FloatArray) -> Polys:
        """The polygons holding ``p`` that the corridor may enter."""
        return self._policy.allowed(self._holding(p))

    def _plan(self) -> None:
        """Search the corridor from the position to the target: to the reachable
        point nearest it when it is out of reach."""
        mesh, policy, s, g = self._mesh, self._policy, self._pos, self._target
        t0 = time.perf_counter()
        sp, gp = self._located(s), self._located(g)
        self.searches += 1
        self._anchor = g
        self._found = True
        self._end = g
        found = _query.corridor_result(mesh, policy, s, sp, g, gp, t0, self._limit)
        self.expanded += found.expanded
        self._stopped = not found and found.reason == "max_expansions"
        if self._stopped:  # no corridor (``capped`` drops it)
            self._found, self._end, self._polys, self._corners = False, s.copy(), sp[:1], None
            return
        if not found and sp.size:
            self._found = False
            self._end, gp = _query._nearest_reachable(mesh, policy, sp, g)
            found = _query.corridor_result(mesh, policy, s, sp, self._end, gp, t0)
            self.expanded += found.expanded
        self._polys = np.asarray(found.path, dtype=np.int32) if found else sp[:1]
        if not found:  # a position only in excluded polygons: nowhere to go
            self._found, self._end = False, s.copy()
        self._shortcut()

    def _shortcut(self) -> None:
        """The corridor of the straight line when the end is in sight (as
        :meth:`NavMesh.find_path <pathcraft.navmesh.NavMesh.find_path>` takes it)."""
        self._corners = None
        line = _query.straight(
            self._policy, self._pos, self._located(self._pos), self._end,
            self._located(self._end),
        )  # fmt: skip
        self._straight = line is not None
        if line is not None:
            self._polys = line
