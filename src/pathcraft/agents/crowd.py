"""Crowds: many agents to one goal or a few, a flow field each, ORCA between them.

A :class:`~pathcraft.agents.FlowField` (:mod:`pathcraft.agents.flow`) turns a distance
field into a next cell (and a direction) per cell; a :class:`Crowd` steers every agent
toward the centre of its cell's next cell and lets ORCA (reciprocal velocity
obstacles, RVO2 through the ``pyrvo`` binding: ``pip install "pathcraft[crowd]"``)
pick velocities that keep agents from colliding with each other and with the walls.
Agents never leave walkable cells: after ORCA's move, each move is replayed against
the grid and stops at (slides along) any wall it would cross. Where ORCA cannot keep
two discs apart (it relaxes its constraints when a dense crowd leaves no safe
velocity), a positional pass pushes overlapping pairs apart, found by a uniform
spatial hash in array code. Positions are ``(x, y)``; cell ``(row, col)`` covers
``col <= x < col + 1``, ``row <= y < row + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._floors import walls_near_floor
from pathcraft._positions import check_number as _number
from pathcraft._positions import check_xy as _points
from pathcraft.agents._motion import separate, slide
from pathcraft.agents.flow import FlowField
from pathcraft.agents.spaces import floor_for, walkable_at
from pathcraft.grid import Grid
from pathcraft.grid.kit import check_size
from pathcraft.world import CapabilityError

__all__ = ["Crowd", "FlowField"]

Array = npt.NDArray[np.float64]
Point = tuple[float, float]


def _wall_boxes(walkable: npt.NDArray[np.bool_]) -> list[list[tuple[float, float]]]:
    """Wall cells next to floor, merged into rectangles along rows, and the map's
    border: counter-clockwise polygons in ``(x, y)`` for RVO2."""
    rows, cols = walkable.shape
    keep = walls_near_floor(walkable)
    boxes = []
    for r in range(rows):
        row = np.concatenate([[False], keep[r], [False]]).astype(np.int8)
        edges = np.flatnonzero(np.diff(row))
        for c0, c1 in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
            boxes.append((float(c0), float(r), float(c1), float(r + 1)))
    boxes += [
        (-1.0, -1.0, cols + 1.0, 0.0),
        (-1.0, float(rows), cols + 1.0, rows + 1.0),
        (-1.0, 0.0, 0.0, float(rows)),
        (float(cols), 0.0, cols + 1.0, float(rows)),
    ]
    return [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in boxes]


class Crowd:
    """Many agents leaving for the nearest of their goals, without walking through
    each other or through walls.

    Parameters
    ----------
    grid : Grid or HexGrid
        The floor; agents stay on its walkable cells. On a hex grid (a floor of cells
        with ``cells_at``, ``centres`` and ``obstacles``: ORCA steers around its wall
        hexes) units are one hex and goals ``(row, col)`` hexes. Another world is
        refused by name (:class:`~pathcraft.world.CapabilityError`).
    positions : array_like (n, 2)
        Start ``(x, y)`` of each agent, in walkable cells.
    goals : array_like (k, 2), or a sequence of them
        Goal cells ``(row, col)``: one array for one group (each agent heads for the
        nearest), or a sequence of arrays, one flow field per group, with ``group``.
    group : array_like of int (n,) or None
        Each agent's goal group (index into ``goals``); None: all in group 0.
    sizes : int or array_like of int (n,)
        Each agent's unit size (one int for all): the side of its square in cells, as
        ``size=`` of the grid searches. An agent of size ``k`` follows its group's flow
        field for units of that size (:class:`FlowField` with ``size=k``), is a disc of
        radius ``radius * k`` to ORCA, and its centre ``(x, y)`` stays where its
        footprint fits: the ``k x k`` cells nearest to it, whose top-left cell is
        ``(floor(y - (k - 1) / 2), floor(x - (k - 1) / 2))`` (for ``k = 1``, the cell
        the centre is in). It heads for the goals of its group that fit it
        (a unit's goal is the top-left cell of its footprint); a group none of whose
        goals fit it is refused.
    radius : float
        The radius of an agent of size 1, in cells, > 0.
    max_speed : float
        Cells per unit of time, > 0.
    neighbor_dist, max_neighbors, time_horizon
        ORCA's settings: how far and how many neighbours each agent considers, and how
        far ahead (time) it avoids them.

    Attributes
    ----------
    positions, velocities : ndarray (n, 2)
    exited : ndarray of bool (n,)
        Agents that reached a goal cell (the top-left cell of their footprint on one);
        they leave the simulation.
    sizes : ndarray of intp (n,)
    flows : list of FlowField
        One per group, for units of size 1 (:meth:`flow` gives any size's).

    Raises
    ------
    ImportError
        Without the ``pyrvo`` package (the ``crowd`` extra).

    Notes
    -----
    The flow fields follow the grid's later edits (see :class:`FlowField`), so agents
    head for a door that opened; the walls they collide with and slide along are
    those of the grid when the crowd was made (RVO2 cannot remove an obstacle).

    A crowd pickles: the RVO2 simulator (which cannot be pickled) is rebuilt on load
    from each agent's position, velocity, radius and top speed in it, so the copy
    steps on exactly as the original does.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import Crowd
    >>> room = Grid.from_ascii('''
    ... ........
    ... ........
    ... ########
    ... ''')
    >>> room[2, 7] = 1.0  # a door in the wall
    >>> crowd = Crowd(room, [(0.5, 0.5), (1.5, 0.5), (2.5, 1.5)], [(2, 7)], radius=0.3)
    >>> for _ in range(200):
    ...     if crowd.step(0.1).all():
    ...         break
    >>> crowd.exited.tolist()
    [True, True, True]

    A unit of size 2 (a cart, radius 0.6) heads for the goals it fits (the wide gate);
    one of size 1 takes the nearest door:

    >>> yard = Grid.from_ascii('''
    ... ........
    ... ........
    ... #.##..##
    ... #.##..##
    ... ''')
    >>> crowd = Crowd(yard, [(1.0, 1.0), (1.5, 0.5)], [(3, 1), (2, 4)], sizes=[2, 1])
    >>> float(crowd.flow(0, 2).distance[3, 1]), float(crowd.flow(0, 1).distance[3, 1])
    (inf, 0.0)
    >>> for _ in range(300):
    ...     if crowd.step(0.1).all():
    ...         break
    >>> crowd.exited.tolist()
    [True, True]
    """

    def __init__(
        self,
        grid: Grid,
        positions: npt.ArrayLike,
        goals: Any,
        *,
        group: npt.ArrayLike | None = None,
        sizes: int | npt.ArrayLike = 1,
        radius: float = 0.3,
        max_speed: float = 1.5,
        neighbor_dist: float = 2.0,
        max_neighbors: int = 10,
        time_horizon: float = 1.0,
    ) -> None:
        floor = floor_for(grid, "Crowd")
        square = callable(getattr(floor, "mask", None))
        if not square and not all(
            callable(getattr(floor, m, None)) for m in ("cells_at", "centres", "obstacles")
        ):
            raise CapabilityError(
                type(grid).__name__, "agent_space",
                "Crowd needs a floor of cells (cells_at, centres) with walls ORCA can steer "
                "around (obstacles): a Grid's or a HexGrid's; move agents on this world with "
                "PathFollower, or steer them by a FlowField",
            )  # fmt: skip
        try:
            import pyrvo  # type: ignore[import-untyped]  # noqa: F401 (used by _simulator)
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                'Crowd needs the pyrvo package (RVO2): pip install "pathcraft[crowd]"'
            ) from exc
        self.radius = _number("radius", radius, low=0.0, inclusive=False)
        self.max_speed = _number("max_speed", max_speed, low=0.0, inclusive=False)
        neighbor_dist = _number("neighbor_dist", neighbor_dist, low=0.0, inclusive=False)
        time_horizon = _number("time_horizon", time_horizon, low=0.0, inclusive=False)
        if isinstance(max_neighbors, bool) or not isinstance(max_neighbors, int):
            raise TypeError(f"max_neighbors must be an integer >= 1; got {max_neighbors!r}")
        if max_neighbors < 1:
            raise ValueError(f"max_neighbors must be an integer >= 1; got {max_neighbors!r}")
        pos = _points("positions", positions)
        n = len(pos)
        self.sizes = _sizes(sizes, n)
        self._grid = grid
        #: The floor of cells of a world that is not a grid (None on a grid, whose
        #: walkable cells when the crowd was made are ``_walkable``).
        self._cells: Any = None if square else floor
        self._walkable = grid.walkable if square else np.zeros((0, 0), dtype=bool)
        if not square and (self.sizes != 1).any():
            raise ValueError(
                f"sizes must all be 1 on a {type(grid).__name__}: units larger than one "
                "cell move on grids only"
            )
        for k in np.unique(self.sizes).tolist():
            mine = self.sizes == k
            outside = ~self._fits(pos[mine], k)
            if outside.any():
                bad = pos[mine][int(np.argmax(outside))].tolist()
                where = "a walkable cell" if k == 1 else f"a place where a unit of size {k} fits"
                raise ValueError(f"positions: point {bad} is not in {where}")
        self._groups: Sequence[Any] = goals if _is_group_list(goals) else [goals]
        self.flows = [FlowField(grid, g) for g in self._groups]
        self._flows: dict[tuple[int, int], FlowField] = {
            (g, 1): flow for g, flow in enumerate(self.flows)
        }
        if group is None:
            self.group = np.zeros(n, dtype=np.intp)
        else:
            self.group = np.asarray(group)
            if self.group.shape != (n,) or not np.issubdtype(self.group.dtype, np.integer):
                raise ValueError(f"group must be {n} integers; got {group!r}")
            if ((self.group < 0) | (self.group >= len(self.flows))).any():
                raise ValueError(f"group values must be in [0, {len(self.flows)})")
            self.group = self.group.astype(np.intp)
        for g, k in sorted(set(zip(self.group.tolist(), self.sizes.tolist(), strict=True))):
            self.flow(g, k)  # built now: goals that do not fit a unit are refused here
        self.positions = pos.copy()
        self.velocities = np.zeros((n, 2))
        self.exited = np.zeros(n, dtype=bool)
        self.time = 0.0
        self._dt = 0.1
        self._orca = (neighbor_dist, max_neighbors, time_horizon)
        self._sim = self._simulator(
            [((x, y), (0.0, 0.0), self.radius * float(k), self.max_speed)
             for (x, y), k in zip(pos.tolist(), self.sizes.tolist(), strict=True)]
        )  # fmt: skip
        self._check_exits()

    def _simulator(self, agents: list[tuple[Point, Point, float, float]]) -> Any:
        """A new RVO2 simulator with this crowd's settings and walls, and ``agents``,
        each ``(position, velocity, radius, max_speed)``, in order."""
        import pyrvo

        neighbor_dist, max_neighbors, time_horizon = self._orca
        sim = pyrvo.RVOSimulator()
        sim.set_time_step(self._dt)
        sim.set_agent_defaults(
            neighbor_dist, max_neighbors, time_horizon, time_horizon, self.radius, self.max_speed
        )
        for i, (position, velocity, radius, max_speed) in enumerate(agents):
            sim.add_agent(position)
            sim.set_agent_velocity(i, velocity)
            sim.set_agent_radius(i, radius)
            sim.set_agent_max_speed(i, max_speed)
        walls = _wall_boxes(self._walkable) if self._cells is None else self._cells.obstacles()
        for box in walls:
            sim.add_obstacle(box)
        sim.process_obstacles()
        return sim

    def __getstate__(self) -> dict[str, Any]:
        """Pickling: RVO2's simulator cannot be pickled; each agent's state in it
        (position, velocity, radius, top speed) is, and :meth:`__setstate__` builds a
        new simulator from it, so a loaded crowd steps on as the saved one would."""
        state = self.__dict__.copy()
        state["_cells"] = self._cells is not None  # a floor holds the world's callables
        sim = state.pop("_sim")
        agents = []
        for i in range(len(self)):
            p, v = sim.get_agent_position(i), sim.get_agent_velocity(i)
            agents.append(
                ((p.x, p.y), (v.x, v.y), sim.get_agent_radius(i), sim.get_agent_max_speed(i))
            )
        state["_sim"] = agents
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._cells = floor_for(self._grid, "Crowd") if state["_cells"] else None
        self._sim = self._simulator(state["_sim"])

    def __len__(self) -> int:
        return len(self.positions)

    def flow(self, group: int, size: int = 1) -> FlowField:
        """The flow field of goal group ``group`` for units of ``size`` (built on first
        use and kept).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import Crowd
        >>> crowd = Crowd(Grid.from_walkable([[True] * 4] * 2), [(0.5, 0.5)], [(0, 2)])
        >>> crowd.flow(0, 2).size, crowd.flow(0) is crowd.flows[0]
        (2, True)
        """
        key = (int(group), check_size(size))
        if not 0 <= key[0] < len(self.flows):
            raise ValueError(f"group must be in [0, {len(self.flows)}); got {group!r}")
        known = self._flows.get(key)
        if known is None:
            goals = self._groups[key[0]]
            if key[1] > 1:  # the goals a unit of this size fits (the others are not its)
                cells = self._grid.check_cells(goals, name="goals")
                cells = cells[self._grid.clearance[cells[:, 0], cells[:, 1]] >= key[1]]
                if not len(cells):
                    raise ValueError(
                        f"no goal of group {key[0]} fits a unit of size {key[1]} "
                        f"(goals are top-left cells: see Grid.clearance)"
                    )
                goals = cells
            known = self._flows[key] = FlowField(self._grid, goals, size=key[1])
        return known

    def _fits(self, points: npt.NDArray[np.float64], size: int) -> npt.NDArray[np.bool_]:
        """Which centres ``(x, y)`` of units of ``size`` have their footprint free."""
        if self._cells is not None:
            walkable: npt.NDArray[np.bool_] = self._cells.walkable(points)
            return walkable
        if size == 1:
            return walkable_at(self._walkable, points)
        return walkable_at(self._grid.for_size(size).walkable, points - (size - 1) / 2)

    def _anchors(self, idx: npt.NDArray[np.intp], size: int) -> tuple[Array, Array]:
        """The top-left cells ``(row, col)`` of the footprints of agents ``idx``."""
        if self._cells is not None:
            cells = self._cells.cells_at(self.positions[idx])
            return cells[:, 0], cells[:, 1]
        corner = self.positions[idx] - (size - 1) / 2
        return np.floor(corner[:, 1]).astype(np.intp), np.floor(corner[:, 0]).astype(np.intp)

    def _slide(self, idx: npt.NDArray[np.intp], points: Array, delta: Array) -> Array:
        """:func:`slide` of agents ``idx`` (at ``points``) by ``delta``, each against
        the cells where its footprint fits."""
        if self._cells is not None:
            moved: Array = self._cells.slide(points, delta)[0]
            return moved
        out: Array = points.copy()
        for k in np.unique(self.sizes[idx]).tolist():
            mine = self.sizes[idx] == k
            shift = (k - 1) / 2
            walk = self._walkable if k == 1 else self._grid.for_size(k).walkable
            moved, _ = slide(points[mine] - shift, delta[mine], walk)
            out[mine] = moved + shift
        return out

    def preferred_velocities(self) -> npt.NDArray[np.float64]:
        """Where each agent would like to go: at full speed toward the centre of its
        cell's next cell in its group's flow field (slower to land on it).

        Returns
        -------
        numpy.ndarray
            ``(n, 2)`` velocities ``(vx, vy)``; zero for the agents that exited.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import Crowd
        >>> hall = Grid.from_ascii("......")
        >>> crowd = Crowd(hall, [(0.5, 0.5)], [(0, 5)], max_speed=2.0)
        >>> crowd.preferred_velocities().tolist()   # east, at full speed
        [[2.0, 0.0]]
        """
        pos = self.positions
        pref: npt.NDArray[np.float64] = np.zeros_like(pos)
        for (g, k), flow in self._flows.items():
            mine = np.flatnonzero((self.group == g) & (self.sizes == k) & ~self.exited)
            if not len(mine):
                continue
            nxt = flow.next_cell[self._anchors(mine, k)]
            if self._cells is not None:
                target = self._cells.centres(nxt)
            else:
                target = nxt[:, ::-1].astype(np.float64) + k / 2  # the next footprint's centre
            to = target - pos[mine]
            dist = np.linalg.norm(to, axis=1)
            speed = np.minimum(self.max_speed, dist / self._dt)
            pref[mine] = np.divide(to * speed[:, None], dist[:, None], out=np.zeros_like(to),
                                   where=dist[:, None] > 1e-9)  # fmt: skip
        return pref

    def step(self, dt: float) -> npt.NDArray[np.bool_]:
        """Advance every agent by ``dt``; return :attr:`exited`.

        Each agent asks for its :meth:`preferred_velocities`, ORCA (RVO2) picks
        velocities that keep the agents apart, each move is replayed against the walls,
        and agents that reach an exit cell leave.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import Crowd
        >>> hall = Grid.from_ascii("......")
        >>> crowd = Crowd(hall, [(0.5, 0.5), (1.5, 0.5)], [(0, 5)], radius=0.3)
        >>> crowd.step(0.1).tolist()
        [False, False]
        >>> bool((crowd.positions[:, 0] > [0.5, 1.5]).all())   # both moved east
        True
        """
        dt = _number("dt", dt, low=0.0, inclusive=False)
        if dt != self._dt:
            self._sim.set_time_step(dt)
            self._dt = dt
        active = np.flatnonzero(~self.exited).tolist()
        pref = self.preferred_velocities()
        sim = self._sim
        for i in active:
            sim.set_agent_pref_velocity(i, (float(pref[i, 0]), float(pref[i, 1])))
        sim.do_step()
        new = self.positions.copy()
        for i in active:
            p = sim.get_agent_position(i)
            new[i, 0] = p.x
            new[i, 1] = p.y
        # keep every agent on the floor: replay its move against the walls
        idx = np.asarray(active, dtype=np.intp)
        moved = self._slide(idx, self.positions[idx], new[idx] - self.positions[idx])
        # where ORCA could not keep discs apart (dense crowds, walls), push them apart
        radii = self.radius * self.sizes[idx].astype(np.float64)
        moved = separate(moved, radii, lambda p, d: self._slide(idx, p, d))
        for k in np.flatnonzero((moved != new[idx]).any(axis=1)).tolist():
            sim.set_agent_position(int(idx[k]), (float(moved[k, 0]), float(moved[k, 1])))
        new[idx] = moved
        self.velocities = (new - self.positions) / dt
        self.positions = new
        self.time += dt
        self._check_exits()
        return self.exited

    def _check_exits(self) -> None:
        done = np.zeros(len(self), dtype=bool)
        for (g, k), flow in self._flows.items():
            mine = np.flatnonzero((self.group == g) & (self.sizes == k))
            if len(mine):
                done[mine] = flow.distance[self._anchors(mine, k)] == 0.0
        newly = np.flatnonzero(done & ~self.exited)
        for i in newly.tolist():  # park far away, apart, standing still
            self._sim.set_agent_position(i, (-1e5 - 10.0 * i, -1e5))
            self._sim.set_agent_pref_velocity(i, (0.0, 0.0))
            self._sim.set_agent_velocity(i, (0.0, 0.0))
            self._sim.set_agent_max_speed(i, 0.0)
        self.exited |= done
        self.velocities[self.exited] = 0.0


def _sizes(sizes: Any, n: int) -> npt.NDArray[np.intp]:
    """``sizes=`` of :class:`Crowd` checked: one unit size for all, or ``n`` of them."""
    if isinstance(sizes, (list, tuple, np.ndarray)):
        values = list(np.asarray(sizes, dtype=object).reshape(-1)) if len(sizes) else []
        if np.ndim(sizes) != 1 or len(values) != n:
            raise ValueError(f"sizes must be one integer or {n} of them; got {sizes!r}")
        return np.array([check_size(k, f"sizes[{i}]") for i, k in enumerate(values)],
                        dtype=np.intp)  # fmt: skip
    return np.full(n, check_size(sizes, "sizes"), dtype=np.intp)


def _is_group_list(goals: Any) -> bool:
    """A sequence of goal arrays (groups) rather than one (k, 2) array or one cell."""
    if isinstance(goals, np.ndarray) or not isinstance(goals, (list, tuple)) or not goals:
        return False
    first = goals[0]
    return (isinstance(first, np.ndarray) and first.ndim == 2) or (
        isinstance(first, (list, tuple)) and bool(first) and isinstance(first[0], (list, tuple))
    )
