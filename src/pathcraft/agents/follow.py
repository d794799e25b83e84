"""Path following for many agents at once: seek, arrive, look-ahead, turn rate.

Positions and velocities are ``(n, 2)`` NumPy arrays in continuous ``(x, y)`` space
and every step is vectorised over the agents. On a grid, cell ``(row, col)`` covers
``col <= x < col + 1``, ``row <= y < row + 1``; its centre is ``(col + 0.5, row + 0.5)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._options import check_flag
from pathcraft._positions import check_number as _number
from pathcraft._positions import check_xy as _points
from pathcraft.agents._motion import slide
from pathcraft.agents.spaces import walkable_at
from pathcraft.grid import Grid
from pathcraft.grid.kit import check_size, unit_cells
from pathcraft.replan import Replanner

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
    keeps trying). With a grid, agents never leave walkable cells: a move into a wall
    stops at its face and slides along it.

    The grid may change while they walk (``grid[r, c] = np.inf``): the next
    :meth:`step` sees the new walls, and every agent whose way on is now cut gets a new
    path, from the centre of its cell through an optimal grid path to its path's end,
    from its own :class:`~pathcraft.replan.Replanner` (kept, so later changes are
    repaired, not searched again; the 32 most recently rerouted agents keep theirs,
    as each holds about 22 bytes per cell). An agent with no way left (or standing in a cell
    that became a wall) is *blocked*: it waits, and is tried again at the next change.

    Parameters
    ----------
    paths : sequence of array_like, each (k, 2)
        One path per agent, ``(x, y)`` points from start to end (use
        :meth:`from_cells` for grid paths of ``(row, col)`` cells).
    grid : Grid or None
        The grid agents must stay on (its walkable cells); None: free space.
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
        With a grid, default False: a position in a wall or off the grid is a
        ``ValueError``. True: such an agent starts at the centre of the nearest
        walkable cell to the cell under it (:meth:`Grid.nearest_walkable
        <pathcraft.grid.Grid.nearest_walkable>`), as ``snap=True`` moves a start
        everywhere. The paths' points are not moved (a path point in a wall is still
        an error).

    Attributes
    ----------
    positions, velocities : ndarray (n, 2)
        The agents' ``(x, y)`` positions and velocities (read them, do not resize).
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
    """

    def __init__(
        self,
        paths: Sequence[npt.ArrayLike],
        *,
        grid: Grid | None = None,
        positions: npt.ArrayLike | None = None,
        max_speed: float = 1.0,
        turn_rate: float = math.inf,
        lookahead: float = 1.0,
        slowing_radius: float = 1.0,
        tolerance: float = 0.1,
        stuck_time: float = 2.0,
        snap: bool = False,
    ) -> None:
        if grid is not None and not isinstance(grid, Grid):
            raise TypeError(f"grid must be a pathcraft Grid or None; got {type(grid).__name__}")
        if isinstance(paths, np.ndarray) or not isinstance(paths, Sequence) or not paths:
            raise TypeError("paths must be a non-empty sequence of (k, 2) point arrays")
        self.max_speed = _number("max_speed", max_speed, low=0.0, inclusive=False)
        self.turn_rate = _number("turn_rate", turn_rate, low=0.0, inclusive=False, inf=True)
        self.lookahead = _number("lookahead", lookahead, low=0.0, inclusive=True)
        self.slowing_radius = _number("slowing_radius", slowing_radius, low=0.0, inclusive=True)
        self.tolerance = _number("tolerance", tolerance, low=0.0, inclusive=False)
        self.stuck_time = _number("stuck_time", stuck_time, low=0.0, inclusive=False)
        pts = [_points(f"paths[{i}]", p) for i, p in enumerate(paths)]
        n = len(pts)
        self._grid = grid
        self._walkable = None if grid is None else grid.walkable
        self._seen = 0 if grid is None else grid.version
        self._planners: dict[int, Replanner] = {}
        self._pack(pts)
        start = self._pts[self._first] if positions is None else _points("positions", positions)
        if start.shape[0] != n:
            raise ValueError(f"positions has {start.shape[0]} rows for {n} paths")
        if check_flag("snap", snap) and grid is not None:
            start = _snapped(grid, start)
        if self._walkable is not None:
            for name, where in (("positions", start), ("paths", self._pts)):
                outside = ~walkable_at(self._walkable, where)
                if outside.any():
                    bad = where[int(np.argmax(outside))].tolist()
                    raise ValueError(f"{name}: point {bad} is not in a walkable cell")
        self.positions: Array = start.copy()
        self.velocities: Array = np.zeros((n, 2))
        self._seg = self._first.copy()  # the segment each agent is on (its first point)
        self.arrived = np.zeros(n, dtype=bool)
        self.stuck = np.zeros(n, dtype=bool)
        self._best = np.full(n, np.inf)  # the smallest distance left along the path
        self._since = np.zeros(n)  # time since that last improved
        self.blocked = np.zeros(n, dtype=bool)
        self.replans = 0
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
        grid: Grid,
        paths: Sequence[npt.ArrayLike],
        *,
        sizes: int | Sequence[int] = 1,
        **options: Any,
    ) -> PathFollower:
        """Followers of grid paths of ``(row, col)`` cells, kept on ``grid``: each
        path runs through the centres of its cells, ``(col + 0.5, row + 0.5)``.

        ``sizes`` gives each agent's unit size (one int for all, or one per path): the
        paths of a unit of size ``k`` (``grid.find_path(..., size=k)``) hold its
        **top-left** cells, and its path runs through the centres of its ``k x k``
        footprints, ``(col + k / 2, row + k / 2)``; every cell must fit the unit.
        ``options`` are those of :class:`PathFollower` (``max_speed``, ``turn_rate``...).

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
        """
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a pathcraft Grid; got {type(grid).__name__}")
        if isinstance(sizes, Sequence):
            if len(sizes) != len(paths):
                raise ValueError(f"sizes has {len(sizes)} entries for {len(paths)} paths")
            each = [check_size(k, f"sizes[{i}]") for i, k in enumerate(sizes)]
        else:
            each = [check_size(sizes, "sizes")] * len(paths)
        points = []
        for i, path in enumerate(paths):
            cells = np.asarray(path)
            if cells.ndim != 2 or cells.shape[1] != 2 or not np.issubdtype(cells.dtype, np.integer):
                raise ValueError(f"paths[{i}] must be a (k, 2) integer array of (row, col) cells")
            k = each[i]
            if k > 1 and len(cells):
                unit = grid.for_size(k)
                unit_cells(grid, unit, f"paths[{i}]", cells, many=True, indexed=True)
            points.append(cells[:, ::-1].astype(np.float64) + k / 2)
        return cls(points, grid=grid, **options)

    def __len__(self) -> int:
        return len(self.positions)

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
        if self._grid is not None and self._grid.version != self._seen:
            self._on_change(self._grid)
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
        if self._walkable is not None:
            new, _ = slide(self.positions, delta, self._walkable)
        else:
            new = self.positions + delta
        self.velocities = (new - self.positions) / dt
        self.positions = new
        self._update_arrived()
        self._update_stuck(left, dt)
        return self.arrived

    # ------------------------------------------------------------------ map edits

    def _on_change(self, grid: Grid) -> None:
        """The grid changed: see the new walls, and give every agent whose way on is
        now cut a new path from the cell it is in (its own incremental planner,
        :class:`~pathcraft.replan.Replanner`, kept for the next change)."""
        self._seen = grid.version
        self._walkable = walkable = grid.walkable
        paths = [self._pts[a : b + 1] for a, b in zip(self._first, self._last, strict=True)]
        on = self._seg - self._first  # each agent's segment, counted in its own path
        renewed = False
        for i in range(len(paths)):
            if self.arrived[i]:
                continue
            ahead = np.vstack([self.positions[i : i + 1], paths[i][on[i] + 1 :]])
            if not self.blocked[i] and _clear(walkable, ahead):
                continue
            new = self._replan(grid, i, paths[i][-1])
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

    def _replan(self, grid: Grid, i: int, end: Array) -> Array | None:
        """A path for agent ``i`` from the centre of its cell to ``end`` through the
        cells of an optimal grid path; None when there is none (or it stands in a wall)."""
        x, y = self.positions[i]
        cell = (math.floor(y), math.floor(x))
        goal = (math.floor(end[1]), math.floor(end[0]))
        if not (math.isfinite(grid[cell]) and math.isfinite(grid[goal])):
            return None
        plan = self._planners.pop(i, None)  # popped and put back: the newest last
        if plan is None or plan.goal != goal:
            plan = grid.replanner(cell, goal)
        else:
            plan.move_to(cell)
        self._planners[i] = plan
        if len(self._planners) > _PLANNERS:  # each holds ~22 bytes per cell: keep a few
            del self._planners[next(iter(self._planners))]
        result = plan.path()
        if not result:
            return None
        centres = np.asarray(result.path)[:, ::-1].astype(np.float64) + 0.5
        return np.vstack([self.positions[i : i + 1], centres[:-1], end[None, :]])

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
        turned = np.stack([np.cos(a), np.sin(a)], axis=1)
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


def _snapped(grid: Grid, points: Array) -> Array:
    """``points`` in walls or off ``grid`` moved to the centres of the nearest walkable
    cells (those already on walkable cells kept); a grid without any is left to the
    positions' check to refuse."""
    off = ~walkable_at(grid.walkable, points)
    if not off.any():
        return points
    with np.errstate(invalid="ignore"):
        under = np.floor(points[off][:, ::-1]).clip(-(2**29), 2**29).astype(np.intp)
    found = np.asarray(grid.nearest_walkable(under), dtype=np.intp)
    moved: Array = points.copy()
    ok = found[:, 0] >= 0
    rows = np.flatnonzero(off)[ok]
    moved[rows] = found[ok][:, ::-1] + 0.5
    return moved


def _clear(walkable: npt.NDArray[np.bool_], points: Array) -> bool:
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
    side = np.stack([-direction[:, 1], direction[:, 0]], axis=1) * 0.02
    inner = samples[1:]
    probe = np.concatenate([samples[:1], inner, inner + side[1:], inner - side[1:]])
    return bool(walkable_at(walkable, probe).all())
