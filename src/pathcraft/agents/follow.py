"""Path following for many agents at once: seek, arrive, look-ahead, turn rate.

Positions and velocities are ``(n, 2)`` NumPy arrays in continuous ``(x, y)`` space
(``(n, 3)``, ``(x, y, z)``, on a floor of three dimensions: a 3-D navigation mesh's)
and every step is vectorised over the agents. The world's floor
(:class:`~pathcraft.agents.spaces.Floor`, from :func:`~pathcraft.agents.floor_for`)
says where agents may stand and how they slide along what blocks them: on a grid, cell
``(row, col)`` covers ``col <= x < col + 1``, ``row <= y < row + 1``; its centre is
``(col + 0.5, row + 0.5)``.

One idea in one file (agents following paths, rerouted after edits, or walking
bookings in a shared reservation table), a little longer than most: about half of it
is the docstrings and their runnable examples.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._options import check_flag
from pathcraft._positions import check_number as _number
from pathcraft._positions import check_points, check_xy
from pathcraft.agents._booked import BookedUnits
from pathcraft.agents.spaces import Floor, floor_for, space_for
from pathcraft.grid.kit import check_size, unit_cells
from pathcraft.replan import Replanner
from pathcraft.world import CapabilityError

__all__ = ["PathFollower"]

Array = npt.NDArray[np.float64]
_PLANNERS = 32  # the replanners a PathFollower keeps (the agents rerouted last)


class PathFollower:
    """Many agents, each following its own path of ``(x, y)`` points, in one step.

    Each :meth:`step` steers every agent toward a *carrot*: the point ``lookahead``
    further along its path than its own projection onto the path, which rounds the
    path's corners. Agents turn at most ``turn_rate`` radians per unit of time, go at
    most ``max_speed``, and slow down (arrive) within ``slowing_radius`` of their
    path's end. An agent within ``tolerance`` of its end has *arrived* and stops; one
    whose progress along its path has not improved for ``stuck_time`` is *stuck* (it
    keeps trying). With a world, agents never leave its floor
    (:func:`~pathcraft.agents.floor_for`): on a grid, a move into a wall stops at its
    face and slides along it; on a hex grid, at the hex's edge; a move grid, a graph
    with coordinates and a waypoint graph are free space (their moves and edges are
    the motion); on a 3-D navigation mesh (:class:`~pathcraft.navmesh3d.NavMesh3D`,
    whose floor has ``dims`` 3) paths, positions and velocities are ``(x, y, z)``
    and agents move along its surface, turning in the plane; a world whose cells are
    3-D (a voxel grid, a level) is refused by name
    (:class:`~pathcraft.world.CapabilityError`).

    The world may change while they walk (``grid[r, c] = np.inf``, on a world whose
    floor has a ``version``): the next :meth:`step` sees the new walls, and every agent
    whose way on is now cut gets a new path, from the centre of its cell through an
    optimal path of the world to its path's end, from its own
    :class:`~pathcraft.replan.Replanner` (kept, so later changes are repaired, not
    searched again; the 32 most recently rerouted agents keep theirs, as each holds
    about 22 bytes per cell on a grid). An agent with no way left (or standing in a
    cell that became a wall) is *blocked*: it waits, and is tried again at the next
    change.

    Parameters
    ----------
    paths : sequence of array_like, each (k, 2)
        One path per agent, ``(x, y)`` points from start to end (use
        :meth:`from_cells` for grid paths of ``(row, col)`` cells); ``(k, 3)``
        ``(x, y, z)`` points on a 3-D navigation mesh.
    grid : world, Space, Floor or None
        The world whose floor agents stay on (a :class:`~pathcraft.Grid`'s walkable
        cells, a :class:`~pathcraft.hexgrid.HexGrid`'s hexes, free space on a move
        grid, graph or waypoint graph; any space with ``walkable`` and ``slide``, a
        navigation mesh's); None: free space.
    positions : array_like (n, 2) or None
        Where the agents start; None: at their paths' first points.
    max_speed : float
        Distance per unit of time, > 0.
    turn_rate : float
        Radians per unit of time an agent may turn, > 0 (``inf``: no limit).
    lookahead : float
        How far ahead along the path the carrot is, >= 0.
    slowing_radius : float
        Distance from the end at which arriving agents start to slow, >= 0.
    tolerance : float
        Distance from the end that counts as arrived, > 0.
    stuck_time : float
        Time without progress after which an agent is reported stuck, > 0.
    snap : bool
        With a world, default False: a position off its floor (in a wall, off the
        map) is a ``ValueError``. True: such an agent starts at the point of the
        nearest walkable cell to the cell under it (its space's ``snap``, as
        :meth:`Grid.nearest_walkable <pathcraft.grid.Grid.nearest_walkable>`), as
        ``snap=True`` moves a start everywhere; a world whose space cannot snap
        refuses it. The paths' points are not moved (a path point in a wall is still
        an error).
    reservations : pathcraft.mapf.Reservations or None
        A reservation table over the world (``grid``) shared by the units of one
        frame loop (other followers, :class:`~pathcraft.agents.Pursuer` objects and
        :class:`~pathcraft.agents.PathRequestQueue` bookings given the same table),
        with the meaning it has for a Pursuer: each agent holds the place under its
        position (on a grid its ``(row, col)`` cell) from the table's clock on and
        books its way (:meth:`~pathcraft.mapf.Reservations.book`) to the place under
        its path's end: the path gives its goal, the booking its way. Each
        :meth:`step` puts every agent at the point of the place its booking gives it
        at the table's next time step (one place, or a wait), whatever ``max_speed``
        and ``dt``; call the table's ``tick()`` once per step of the game, after
        every unit stepped (one clock for all). An agent books again every
        ``replan`` steps of the table and when it stands at the end of a booking
        short of its goal; the units of one table never share a place at one step
        nor swap places, one may wait for another (:attr:`waiting`), and one whose
        goal is out of reach is :attr:`blocked`. Starting places must be distinct
        and free in the table (ValueError; then none is held). A world without
        places (a navigation mesh, a waypoint graph) or whose floor names no place
        under a point (free space: a move grid, a graph) is refused by name
        (:class:`~pathcraft.world.CapabilityError`), a bad table as by a Pursuer
        (TypeError, ValueError); a world edited after the table was built makes the
        next booking raise ``RuntimeError``.

    Attributes
    ----------
    positions, velocities : ndarray (n, 2)
        The agents' ``(x, y)`` positions and velocities (read them, do not resize);
        ``(n, 3)``, ``(x, y, z)``, on a 3-D navigation mesh.
    arrived, stuck, blocked : ndarray of bool (n,)
    replans : int
        New paths given after grid changes, all agents together.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import PathFollower
    >>> grid = Grid.from_ascii('''
    ... .....
    ... .###.
    ... .....
    ... ''')
    >>> paths = [grid.astar((0, 0), (2, 4)).path, grid.astar((2, 0), (0, 4)).path]
    >>> crowd = PathFollower.from_cells(grid, paths, max_speed=2.0, tolerance=0.05)
    >>> for _ in range(100):
    ...     if crowd.step(0.1).all():
    ...         break
    >>> crowd.arrived.tolist(), crowd.positions.round(1).tolist()
    ([True, True], [[4.5, 2.5], [4.5, 0.5]])

    Two followers and a pursuer sharing one reservation table (one clock) take
    turns through a door one cell wide and never stand in one cell:

    >>> from pathcraft.agents import Pursuer
    >>> from pathcraft.mapf import Reservations
    >>> hall = Grid.from_ascii('''
    ... ..#..
    ... .....
    ... ..#..
    ... ''', diagonal="never")
    >>> table = Reservations(hall, window=8)
    >>> squad = PathFollower.from_cells(hall, [[(0, 0), (0, 4)], [(2, 0), (2, 4)]],
    ...                                 reservations=table)
    >>> scout = Pursuer(hall, (1, 4), speed=1.0, reservations=table)
    >>> for _ in range(20):
    ...     arrived = squad.step(1.0)
    ...     status = scout.step((1, 0), dt=1.0)
    ...     assert len({*map(tuple, squad.positions.tolist()), scout.position}) == 3
    ...     table.tick()
    >>> arrived.tolist(), squad.positions.tolist(), status
    ([True, True], [[4.5, 0.5], [4.5, 2.5]], 'caught')
    """

    def __init__(
        self,
        paths: Sequence[npt.ArrayLike],
        *,
        grid: Any = None,
        positions: npt.ArrayLike | None = None,
        max_speed: float = 1.0,
        turn_rate: float = math.inf,
        lookahead: float = 1.0,
        slowing_radius: float = 1.0,
        tolerance: float = 0.1,
        stuck_time: float = 2.0,
        snap: bool = False,
        reservations: Any = None,
    ) -> None:
        floor: Floor | None = None if grid is None else floor_for(grid, "PathFollower")
        if isinstance(paths, np.ndarray) or not isinstance(paths, Sequence) or not paths:
            raise TypeError("paths must be a non-empty sequence of (k, 2) point arrays")
        self.max_speed = _number("max_speed", max_speed, low=0.0, inclusive=False)
        self.turn_rate = _number("turn_rate", turn_rate, low=0.0, inclusive=False, inf=True)
        self.lookahead = _number("lookahead", lookahead, low=0.0, inclusive=True)
        self.slowing_radius = _number("slowing_radius", slowing_radius, low=0.0, inclusive=True)
        self.tolerance = _number("tolerance", tolerance, low=0.0, inclusive=False)
        self.stuck_time = _number("stuck_time", stuck_time, low=0.0, inclusive=False)
        dims = 2 if floor is None else int(getattr(floor, "dims", 2))
        pts = [_points(f"paths[{i}]", p, dims) for i, p in enumerate(paths)]
        n = len(pts)
        self._world = grid
        self._floor = floor
        self._seen = getattr(floor, "version", 0)
        self._planners: dict[int, Replanner] = {}
        self._pack(pts)
        start = (
            self._pts[self._first] if positions is None else _points("positions", positions, dims)
        )
        if start.shape[0] != n:
            raise ValueError(f"positions has {start.shape[0]} rows for {n} paths")
        if check_flag("snap", snap) and floor is not None:
            start = _snapped(grid, floor, start)
        if floor is not None:
            for name, where in (("positions", start), ("paths", self._pts)):
                outside = ~floor.walkable(where)
                if outside.any():
                    bad = where[int(np.argmax(outside))].tolist()
                    raise ValueError(f"{name}: point {bad} is not in a walkable cell")
        self.positions: Array = start.copy()
        self.velocities: Array = np.zeros((n, dims))
        self._seg = self._first.copy()  # the segment each agent is on (its first point)
        self.arrived = np.zeros(n, dtype=bool)
        self.stuck = np.zeros(n, dtype=bool)
        self._best = np.full(n, np.inf)  # the smallest distance left along the path
        self._since = np.zeros(n)  # time since that last improved
        self.blocked = np.zeros(n, dtype=bool)
        self.replans = 0
        self._booked: BookedUnits | None = None
        if reservations is not None:
            if floor is None:
                raise ValueError("reservations needs the world the agents move in (grid=)")
            self._booked = BookedUnits(
                reservations, grid, space_for(grid), floor, self, self.positions, self._end,
                "PathFollower",
            )  # fmt: skip
        self._update_arrived()

    def _pack(self, pts: list[Array]) -> None:
        """Packed paths: points, the first point of each path, segment lengths and the
        arc length at each point on one increasing axis (paths one unit apart)."""
        lengths = np.array([len(p) for p in pts], dtype=np.intp)
        self._first = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
        self._last = self._first + lengths - 1
        self._pts = np.concatenate(pts)
        seg = np.linalg.norm(np.diff(self._pts, axis=0), axis=1)
        seg[self._last[:-1]] = 0.0  # no segment between two paths
        arc = np.concatenate([[0.0], np.cumsum(seg)])
        total = arc[self._last] - arc[self._first]
        # shift each path so that paths never share an arc value
        shift = np.concatenate([[0.0], np.cumsum(total + 1.0)[:-1]]) - arc[self._first]
        self._arc = arc + np.repeat(shift, lengths)
        self._seg_len = np.concatenate([seg, [0.0]])
        self._end = self._pts[self._last]
        self._end_arc = self._arc[self._last]

    @classmethod
    def from_cells(
        cls,
        grid: Any,
        paths: Sequence[npt.ArrayLike],
        *,
        sizes: int | Sequence[int] = 1,
        **options: Any,
    ) -> PathFollower:
        """Followers of paths of a world's nodes, kept on its floor: each path runs
        through its nodes' points (the world's space's ``point``: on a grid the centres
        of its ``(row, col)`` cells, ``(col + 0.5, row + 0.5)``; on a hex grid the
        hexes' centres; on a graph its coordinates).

        On a grid, ``sizes`` gives each agent's unit size (one int for all, or one per path): the
        paths of a unit of size ``k`` (``grid.find_path(..., size=k)``) hold its
        **top-left** cells, and its path runs through the centres of its ``k x k``
        footprints, ``(col + k / 2, row + k / 2)``; every cell must fit the unit (other
        worlds have units of size 1). ``options`` are those of :class:`PathFollower`
        (``max_speed``, ``turn_rate``...).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathFollower
        >>> grid = Grid.from_ascii("....")
        >>> movers = PathFollower.from_cells(grid, [grid.astar((0, 0), (0, 3)).path])
        >>> movers.positions.tolist()        # at the centre of the first cell, (x, y)
        [[0.5, 0.5]]
        >>> hall = Grid.from_walkable([[True] * 4] * 2)
        >>> tank = PathFollower.from_cells(hall, [hall.astar((0, 0), (0, 2), size=2).path],
        ...                                sizes=2)
        >>> tank.positions.tolist()          # the centre of its 2 x 2 footprint
        [[1.0, 1.0]]
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((2, 3)), "odd-r")
        >>> walker = PathFollower.from_cells(hexes, [hexes.astar((0, 0), (1, 2)).path])
        >>> while not walker.step(0.1).all():
        ...     pass
        >>> float(np.hypot(*(walker.positions[0] - (3.0, 1.5)))) <= 0.1   # the last hex's centre
        True
        """
        space = space_for(grid)
        if isinstance(sizes, Sequence):
            if len(sizes) != len(paths):
                raise ValueError(f"sizes has {len(sizes)} entries for {len(paths)} paths")
            each = [check_size(k, f"sizes[{i}]") for i, k in enumerate(sizes)]
        else:
            each = [check_size(sizes, "sizes")] * len(paths)
        if options.get("reservations") is not None and max(each, default=1) > 1:
            raise ValueError("reservations books units of size 1 only: a place each")
        points = []
        for i, path in enumerate(paths):
            cells = np.asarray(path)
            if cells.ndim != 1 and not (cells.ndim == 2 and np.issubdtype(cells.dtype, np.integer)):
                raise ValueError(
                    f"paths[{i}] must be a (k, 2) integer array of (row, col) cells (a "
                    "(k, 3) one of 3-D cells), or a sequence of a graph's nodes"
                )
            k = each[i]
            if k > 1:
                if not callable(getattr(grid, "for_size", None)):
                    raise ValueError(
                        f"sizes[{i}] is {k}: units larger than one cell move on grids only"
                    )
                if len(cells):
                    unit_cells(grid, grid.for_size(k), f"paths[{i}]", cells, many=True,
                               indexed=True)  # fmt: skip
                points.append(cells[:, ::-1].astype(np.float64) + k / 2)
            else:
                nodes = [tuple(c) for c in cells.tolist()] if cells.ndim == 2 else list(path)  # type: ignore[arg-type]
                keys = [space.key(n, f"paths[{i}]") for n in nodes]
                points.append(np.array([space.point(n) for n in keys], dtype=np.float64))
        return cls(points, grid=grid, **options)

    def __len__(self) -> int:
        return len(self.positions)

    @property
    def waiting(self) -> npt.NDArray[np.bool_]:
        """With ``reservations``: the agents their bookings keep where they are for
        the next step, short of their goals (all False without)."""
        if self._booked is None:
            return np.zeros(len(self), dtype=bool)
        return self._booked.waiting()

    # ------------------------------------------------------------------ stepping

    def _project(self) -> tuple[Array, Array]:
        """Advance each agent's segment past the points it has passed; return its
        projection onto the path and that point's arc value."""
        pos = self.positions
        for _ in range(8):  # a few segments per step at most; more waits a step
            a = self._pts[self._seg]
            b = self._pts[np.minimum(self._seg + 1, len(self._pts) - 1)]
            ab = b - a
            ln = self._seg_len[self._seg]
            t = np.where(ln > 0, ((pos - a) * ab).sum(axis=1) / np.maximum(ln * ln, 1e-300), 1.0)
            move = (t >= 1.0) & (self._seg < self._last)
            if not move.any():
                break
            self._seg[move] += 1
        t = np.clip(t, 0.0, 1.0)
        proj = a + t[:, None] * ab
        return proj, self._arc[self._seg] + t * ln

    def _carrot(self, arc: Array, ahead: float) -> Array:
        goal = np.minimum(arc + ahead, self._end_arc)
        i = np.searchsorted(self._arc, goal, side="right") - 1
        i = np.clip(i, self._first, self._last)
        nxt = np.minimum(i + 1, self._last)
        ln = self._seg_len[i]
        t = np.where(ln > 0, (goal - self._arc[i]) / np.maximum(ln, 1e-300), 0.0)
        t = np.clip(t, 0.0, 1.0)
        out: Array = self._pts[i] + t[:, None] * (self._pts[nxt] - self._pts[i])
        return out

    def step(self, dt: float) -> npt.NDArray[np.bool_]:
        """Advance every agent by ``dt`` time units; return :attr:`arrived`.

        Examples
        --------
        >>> from pathcraft.agents import PathFollower
        >>> movers = PathFollower([[(0.0, 0.0), (4.0, 0.0)]], max_speed=1.0)
        >>> movers.step(1.0).tolist(), movers.positions.round(2).tolist()
        ([False], [[1.0, 0.0]])
        >>> while not movers.step(1.0).all():
        ...     pass
        >>> movers.positions.round(1).tolist()
        [[4.0, 0.0]]
        """
        dt = _number("dt", dt, low=0.0, inclusive=True)
        if self._booked is not None:
            return self._walk_bookings(dt)
        if self._floor is not None and getattr(self._floor, "version", 0) != self._seen:
            self._on_change(self._floor)
        if dt == 0.0:
            return self.arrived
        moving = ~self.arrived & ~self.blocked
        proj, arc = self._project()
        # at least one step ahead: a carrot at the agent's own projection would only
        # pull it sideways onto the path, back and forth, never along
        carrot = self._carrot(arc, max(self.lookahead, self.max_speed * dt))
        to_carrot = carrot - self.positions
        dist = np.linalg.norm(to_carrot, axis=1)
        heading = np.divide(to_carrot, dist[:, None], out=np.zeros_like(to_carrot),
                            where=dist[:, None] > 1e-12)  # fmt: skip
        # arrive: slow down over the last slowing_radius of the path
        left = self._end_arc - arc + np.linalg.norm(self.positions - proj, axis=1)
        left = np.maximum(left, np.linalg.norm(self._end - self.positions, axis=1))
        speed = np.full(len(self), self.max_speed)
        if self.slowing_radius > 0:
            speed *= np.clip(left / self.slowing_radius, 0.0, 1.0)
        speed = np.maximum(speed, np.minimum(self.max_speed, 0.5 * self.tolerance / dt))
        at_end = np.linalg.norm(carrot - self._end, axis=1) <= 1e-12
        speed = np.where(at_end, np.minimum(speed, dist / dt), speed)  # never overshoot
        turned, slow = self._turn(heading, dt)
        velocity = turned * (speed * slow)[:, None]
        velocity[~moving] = 0.0
        delta = velocity * dt
        if self._floor is not None:
            new, _ = self._floor.slide(self.positions, delta)
        else:
            new = self.positions + delta
        self.velocities = (new - self.positions) / dt
        self.positions = new
        self._update_arrived()
        self._update_stuck(left, dt)
        return self.arrived

    def _walk_bookings(self, dt: float) -> npt.NDArray[np.bool_]:
        """A step on the shared table's time: every agent books again if due and
        stands at the point of its place at the table's next step."""
        assert self._booked is not None
        new, status = self._booked.step()
        self.velocities = (new - self.positions) / dt if dt > 0.0 else np.zeros_like(new)
        self.positions = new
        state = np.array(status)
        self.arrived = state == "caught"
        self.blocked = state == "unreachable"
        self._update_stuck(self._booked.steps_left(), max(dt, 1e-9))
        return self.arrived

    # ------------------------------------------------------------------ map edits

    def _on_change(self, floor: Any) -> None:
        """The world changed: see the new walls, and give every agent whose way on is
        now cut a new path from the cell it is in (its own incremental planner,
        :class:`~pathcraft.replan.Replanner`, kept for the next change)."""
        self._seen = floor.version
        walkable = floor.walkable
        paths = [self._pts[a : b + 1] for a, b in zip(self._first, self._last, strict=True)]
        on = self._seg - self._first  # each agent's segment, counted in its own path
        renewed = False
        for i in range(len(paths)):
            if self.arrived[i]:
                continue
            ahead = np.vstack([self.positions[i : i + 1], paths[i][on[i] + 1 :]])
            if not self.blocked[i] and _clear(walkable, ahead):
                continue
            new = self._replan(floor, i, paths[i][-1])
            self.blocked[i] = new is None
            if new is None:
                self.velocities[i] = 0.0
                continue
            paths[i], on[i] = new, 0
            self._best[i], self._since[i] = np.inf, 0.0
            self.replans += 1
            renewed = True
        if renewed:
            self._pack(paths)
            self._seg = self._first + on

    def _replan(self, floor: Any, i: int, end: Array) -> Array | None:
        """A path for agent ``i`` from the point of its cell to ``end`` through the
        nodes of an optimal path of the world; None when there is none (or it stands
        in a wall, or the floor cannot name the cell under a point)."""
        cell_at = getattr(floor, "cell_at", None)
        if cell_at is None:
            return None
        space = space_for(self._world)
        try:
            cell = space.key(cell_at(self.positions[i].tolist()))
            goal = space.key(cell_at(end.tolist()))
        except (ValueError, TypeError):  # in a wall, or off the map
            return None
        world = getattr(space, "world", self._world)
        plan = self._planners.pop(i, None)  # popped and put back: the newest last
        if plan is None or plan.goal != goal:
            try:
                plan = world.replanner(cell, goal)
            except CapabilityError:  # a world without replanning: a search each time
                result = space.find_path(cell, goal)
                return self._through(space, result, i, end) if result else None
        else:
            plan.move_to(cell)
        self._planners[i] = plan
        if len(self._planners) > _PLANNERS:  # each holds ~22 bytes per cell: keep a few
            del self._planners[next(iter(self._planners))]
        result = plan.path()
        return self._through(space, result, i, end) if result else None

    def _through(self, space: Any, result: Any, i: int, end: Array) -> Array:
        """Agent ``i``'s new path: from where it is through the points of
        ``result``'s nodes after the first (the node it stands in: going back to its
        centre first would turn it around), the last node's point replaced by ``end``."""
        points = np.array([space.point(n) for n in space.nodes(result)], dtype=np.float64)
        return np.vstack([self.positions[i : i + 1], points[1:-1], end[None, :]])

    def _turn(self, desired: Array, dt: float) -> tuple[Array, Array]:
        """Turn each agent's heading toward ``desired`` by at most turn_rate * dt;
        also a speed factor, cos of the angle still to turn (0 past a right angle), so
        agents slow down for sharp turns instead of swinging wide into walls."""
        if math.isinf(self.turn_rate):
            return desired, np.ones(len(desired))
        speed = np.linalg.norm(self.velocities, axis=1)
        current = np.divide(self.velocities, speed[:, None], out=np.zeros_like(desired),
                            where=speed[:, None] > 1e-9)  # fmt: skip
        a0 = np.arctan2(current[:, 1], current[:, 0])
        a1 = np.arctan2(desired[:, 1], desired[:, 0])
        diff = (a1 - a0 + np.pi) % (2 * np.pi) - np.pi
        limit = self.turn_rate * dt
        a = a0 + np.clip(diff, -limit, limit)
        turned = desired.copy()  # turned in the plane; a height keeps the desired slope
        flat = np.linalg.norm(desired[:, :2], axis=1) if desired.shape[1] > 2 else 1.0
        turned[:, 0], turned[:, 1] = np.cos(a) * flat, np.sin(a) * flat
        free = (speed <= 1e-9) | ~np.isfinite(a0)  # standing agents face any way
        nothing = np.linalg.norm(desired, axis=1) <= 1e-12
        out = np.where(free[:, None], desired, turned)
        out[nothing] = 0.0
        rest = np.where(free, 0.0, np.abs(diff) - np.minimum(np.abs(diff), limit))
        return out, np.clip(np.cos(rest), 0.0, 1.0)

    def _update_arrived(self) -> None:
        near = np.linalg.norm(self.positions - self._end, axis=1) <= self.tolerance
        newly = near & ~self.arrived
        self.arrived |= near
        self.velocities[newly] = 0.0
        self.stuck &= ~self.arrived

    def _update_stuck(self, left: Array, dt: float) -> None:
        better = left < self._best - 1e-3 * self.max_speed * dt
        self._best = np.where(better, left, self._best)
        self._since = np.where(better | self.arrived, 0.0, self._since + dt)
        self.stuck = (self._since >= self.stuck_time) & ~self.arrived


def _points(name: str, value: Any, dims: int) -> Array:
    """Checked points of ``dims`` coordinates, ``(x, y)`` or ``(x, y, z)``."""
    return check_xy(name, value) if dims == 2 else check_points(name, value, (dims,))


def _snapped(world: Any, floor: Any, points: Array) -> Array:
    """``points`` off ``floor`` moved to the points of the nearest walkable cells to
    the cells under them (those already on the floor kept; the world's space's
    ``snap``); a world without any walkable cell is left to the positions' check to
    refuse, one whose space cannot snap refuses ``snap=True`` by name."""
    off = ~floor.walkable(points)
    if not off.any():
        return points
    space = space_for(world)
    snap = getattr(space, "snap", None)
    if snap is None:
        raise CapabilityError(
            type(world).__name__, "agent_space", "snap=True needs a space with snap(node)"
        )
    # the node under a point: a cell (the floor's cell_at), or the point itself (a
    # space of continuous positions, as a mesh's)
    cell_at = getattr(floor, "cell_at", None) or tuple
    moved: Array = points.copy()
    for k in np.flatnonzero(off).tolist():
        with np.errstate(invalid="ignore"):
            where = tuple(np.clip(points[k], -(2.0**29), 2.0**29).tolist())
        with contextlib.suppress(ValueError):  # no walkable cell: the check refuses it
            moved[k] = space.point(snap(cell_at(where), "positions"))
    return moved


def _clear(walkable: Any, points: Array) -> bool:
    """Whether the polyline through ``points`` stays on walkable cells: sampled every
    0.1 along each segment, and 0.02 to each side past the first point (a diagonal
    step between cell centres passes exactly through a corner, between two cells)."""
    if len(points) < 2:
        return True
    a, b = points[:-1], points[1:]
    length = np.linalg.norm(b - a, axis=1)
    counts = np.maximum(np.ceil(length / 0.1).astype(np.intp), 1)
    t = np.concatenate([np.arange(k + 1) / k for k in counts.tolist()])
    which = np.repeat(np.arange(len(a)), counts + 1)
    samples = a[which] + t[:, None] * (b - a)[which]
    direction = (b - a)[which] / np.maximum(length[which], 1e-12)[:, None]
    side = np.zeros_like(direction)  # to each side in the plane
    side[:, 0], side[:, 1] = -0.02 * direction[:, 1], 0.02 * direction[:, 0]
    inner = samples[1:]
    probe = np.concatenate([samples[:1], inner, inner + side[1:], inner - side[1:]])
    return bool(walkable(probe).all())
