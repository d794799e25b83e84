"""Chasing a moving target: a pursuer that re-plans cheaply as its target moves.

How it re-plans was chosen by measurement (``bench/chase.py``, results in
``bench/results/chase.md``): the pursuer keeps its optimal path and searches again
only when the target has moved to another node, and not even then when the target
stepped onto the path the pursuer already has (a part of a shortest path is a
shortest path). Each new plan is one compiled A* from the node the pursuer is at or
is about to reach. A distance field from the target, recomputed whenever the target
changes node, costs a whole-map Dijkstra per move: it lost to A* for one pursuer on
every map measured, and pays only when many agents share one target (a
:class:`~pathcraft.agents.Crowd` does exactly that).

When the map changes under it (a grid cell or a graph weight edited, seen through the
world's ``version``), the pursuer repairs its path with a
:class:`~pathcraft.replan.Replanner` (D* Lite) aimed at the target: the first repair
for a target is a whole search, later ones only redo what the edits reach. It never
keeps walking a path that a new wall cuts.

With a frame budget (``frame_budget=`` expansions and/or ``time_budget_us=`` per
step) a plan is a sliced search that no target move cancels, so the pursuer never
starves however fast its target moves: the search in flight is finished and adopted
(an optimal path to where the target was when it started), then the next one aims
at the newest target. Each next plan starts from a node ahead on the path the
pursuer walks meanwhile (as far as it will walk while the plan is computed, judged
by how many frames the last sliced plan took, and one frame more: a plan on time finds
it still walking its old path), and is spliced there: the pursuer keeps
moving and never turns back. Only a world edit cancels the plan in flight (its answer
would mix two maps). On a navigation mesh a budgeted pursuer re-aims its path
corridor as a blocking one does, and slices a search only where that needs one
longer than what is left of the frame.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Hashable
from itertools import accumulate
from time import perf_counter
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from pathcraft._aliases import documented
from pathcraft._options import check_flag
from pathcraft._sliced import WorldChangedError
from pathcraft._validation import check_limit
from pathcraft.agents._booked import BookedWalk, check_table
from pathcraft.agents._budget import FrameBudget, check_budgets
from pathcraft.agents.spaces import Space, space_for
from pathcraft.replan import Replanner
from pathcraft.result import PathResult
from pathcraft.world import CapabilityError

__all__ = ["ChaseStatus", "Pursuer"]

#: Steps a budgeted pursuer whose ``toward`` took no step from a node waits before it
#: tries again from there (a target moving every frame would have it try every frame:
#: on a mesh a ray cast each, for every pursuer standing at a wall).
RETRY = 15

#: The kinds of a plain target's coordinates, whose key a pursuer keeps (see _aim).
_PLAIN = (int, float)

ChaseStatus = Literal["chasing", "caught", "unreachable", "max_expansions"]
if not TYPE_CHECKING:
    ChaseStatus = documented(
        ChaseStatus,
        'What :meth:`Pursuer.step` returns: ``"chasing"`` (on its way), ``"caught"`` '
        '(within ``stop_range`` of the target), ``"unreachable"`` (the target is out of '
        "reach; the pursuer waits and tries again when the target moves), "
        '``"max_expansions"`` (the search budget is spent; the pursuer stops for good): '
        "the reasons spelt as :attr:`PathResult.reason "
        "<pathcraft.result.PathResult.reason>` spells them.",
    )


def _positive(name: str, value: Any, *, allow_zero: bool) -> float:
    if type(value) is float and 0.0 < value < math.inf:  # a frame's dt: no more checks
        return value
    number = check_limit(name, value, integer=False)
    if number is None or math.isinf(number) or (number == 0 and not allow_zero):
        kind = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {kind}; got {value!r}")
    return float(number)


class Pursuer:
    """An agent that chases a moving target over a grid, a graph or any :class:`Space`.

    Each :meth:`step` takes where the target is now and how much time passed, plans
    if it must, and moves the pursuer along its path by ``speed * dt`` of path cost
    (on a grid a step into a cell of cost 3 takes three times as long). Its path is
    always optimal for the current target: a shortest path from the node it plans
    from (where it stands, or the next node when it is between two) to the target.
    With a frame budget its path is a shortest path from the node each plan started
    at to where the target was when it started (a plan in flight is never dropped for
    a newer target: see ``frame_budget``).

    Parameters
    ----------
    world : Grid, Graph, NavMesh or Space
        Where the chase happens; grid nodes are ``(row, col)`` cells, graph nodes are
        labels, a navigation mesh's are ``(x, y)`` points on it (its space is
        continuous: a plan starts where the pursuer is, between corners too).
    start : node
        Where the pursuer starts.
    speed : float
        Path cost covered per unit of time, > 0.
    stop_range : float
        Stop once the path cost left to the target is at most this (0: reach the
        target's node).
    budget : int or None
        Give up (``"max_expansions"``, for good) once the searches together have expanded
        this many nodes; None: no budget.
    max_expansions : int or None
        Limit of each search; a search stopped by it spends the budget and the pursuer
        gives up too.
    frame_budget : int or None
        Expansions per :meth:`step` (per frame): a new plan is a compiled search
        (``world.start_search``) advanced within this budget each step, and adopted
        when it ends (the same path a blocking search finds from where it started).
        A target move never cancels it: it is finished, and the next plan, toward the
        newest target, starts the frame it ends (with what is left of that frame's
        budget), from the node the pursuer will have reached by then on its path. So
        a plan that needs E expansions is adopted within ``ceil(E / frame_budget) + 1``
        frames of its start, counting that frame; the target
        the pursuer aims at is at most two plans old. Meanwhile it walks on along its
        last path to the node the plan starts from, and on along the plan's best
        partial path so far (:meth:`~pathcraft.CompiledSearch.best_so_far`: toward the
        node the search reached closest to the target; for jump point search, the jump
        point it expanded closest to it), so it never stands still for
        lack of a path; a plan that arrives where the pursuer already walked past the
        point the two part is joined by walking back to it. Spaces whose searches do
        not tell a partial path walk their space's ``toward`` meanwhile (a navigation
        mesh: a straight move toward the target up to the first wall), joined the same
        way;
        spaces without one (graphs) wait at the node the plan starts from. A map edit cancels
        the plan in flight and starts it again (the incremental repair of a static
        target is one blocking search, so it is used only without a budget). A plan
        after one that needed no more expansions than are left of the frame is first
        run whole, as one blocking search capped at what is left (a plan that ends
        within its frame costs what a blocking call costs, not a search started,
        stepped and read); if the cap stops it, its expansions are spent and the plan
        is sliced from the next frame. With ``time_budget_us`` what is left is what
        the time left allows at the rate measured so far (before any measure, one
        expansion a microsecond; a search of fewer expansions than a slice, mostly
        its call's fixed price, moves it only while none is known), and at least
        the frame's first slice while none ran this frame (the slice a sliced plan
        would run anyway: what the time allows, at least 8 expansions); the first
        plan too, nothing known of its length, is tried whole so. On a navigation
        mesh a plan is first its path corridor re-aimed without a search, as
        without a budget (the space's ``reaim``: none of the frame's expansions);
        where that needs a search, a new corridor is searched whole, capped at what
        is left of the frame, when the last plan fitted in it; else the plan is
        sliced. None (and no ``time_budget_us``): each plan is one blocking search.
    snap : bool
        Default False: a ``start`` or target on a wall (or off the grid) is a
        ``ValueError``. True: it is moved to the nearest walkable node (the space's
        ``snap``: on a grid :meth:`Grid.nearest_walkable
        <pathcraft.grid.Grid.nearest_walkable>`, on a mesh its nearest point), so a
        target read from a physics position that strayed into a wall keeps being
        chased; :meth:`step` can override it per call. Worlds whose space has no
        ``snap`` (graphs, hexagonal, move and voxel grids, levels) refuse it
        (:class:`~pathcraft.world.CapabilityError`).
    time_budget_us : float or None
        Microseconds of search per :meth:`step`, > 0, alone or with ``frame_budget``
        (whichever runs out first): the plan is stepped in small slices until the time
        is used, overrunning it by at most one slice (32 expansions), and a first
        slice runs every frame, so every plan still ends: as many expansions as the
        time allows at the rate measured, at least 8 (a budget below one slice's
        price binds there, at 8 expansions a frame). It bounds the search's
        steps; turning an ended search into the pursuer's path costs on top (about
        0.5-0.8 ms for a 500-cell path on a grid). The clock is
        :func:`time.perf_counter` (wall time), read only around search work: none
        in a step without a plan, one a slice, two around a plan run whole (the
        time left before, the rate after).
    reservations : pathcraft.mapf.Reservations or None
        A reservation table over ``world`` shared by many units (one frame loop):
        the pursuer holds ``start`` in it from the table's clock on and moves on the
        table's time, not by ``speed`` and ``dt``: each :meth:`step` puts it where its
        booking (:meth:`~pathcraft.mapf.Reservations.book`) puts it at the table's
        next time step (one place, or a wait); call the table's ``tick()`` once per
        step of the game, after every unit stepped. It books again when the target
        moves, every ``replan`` steps of the table, and when it stands at the end of
        a booking short of the target; the units of one table never share a place at
        one step nor swap places, and one may wait for another (:attr:`waiting`). A
        bad target raises as without; ``max_expansions`` caps each booking's search;
        not with ``budget``, ``frame_budget``, ``time_budget_us`` nor
        ``stop_range > 0`` (ValueError). Worlds whose places are points (a
        navigation mesh, a waypoint graph) refuse the table itself
        (:class:`~pathcraft.world.CapabilityError`); a world edited after the table
        was built makes the next booking raise ``RuntimeError``.

    Attributes
    ----------
    plans : int
        Searches run (and adopted) so far (bookings, with ``reservations``).
    expanded : int
        Nodes expanded by them together.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import Pursuer
    >>> grid = Grid.from_ascii('''
    ... ......
    ... #####.
    ... ......
    ... ''', diagonal="never")
    >>> enemy = Pursuer(grid, (0, 0), speed=2.0)
    >>> enemy.step((2, 0), dt=1.0), enemy.node, enemy.cost_to_target
    ('chasing', (0, 2), 10.0)
    >>> for _ in range(5):
    ...     status = enemy.step((2, 0), dt=1.0)
    >>> status, enemy.node, enemy.plans
    ('caught', (2, 0), 1)

    Two pursuers sharing a reservation table never meet in one cell:

    >>> from pathcraft.mapf import Reservations
    >>> table = Reservations(grid, window=8)
    >>> a = Pursuer(grid, (0, 3), speed=1.0, reservations=table)
    >>> b = Pursuer(grid, (0, 5), speed=1.0, reservations=table)
    >>> for _ in range(12):
    ...     moves = a.step((2, 1), dt=1.0), b.step((2, 0), dt=1.0)
    ...     assert a.node != b.node
    ...     table.tick()
    >>> a.node, b.node, a.status, b.status, a.plans
    ((2, 1), (2, 0), 'caught', 'caught', 2)

    With a frame budget, a target that moves every frame never cancels the plan in
    flight (30 expansions at 8 a frame: adopted in the fourth frame), and the hunter
    walks the plan's best partial path meanwhile:

    >>> line = Grid.from_ascii("." * 30, diagonal="never")
    >>> hunter = Pursuer(line, (0, 0), speed=1.0, frame_budget=8)
    >>> for frame in range(4):
    ...     status = hunter.step((0, 29 - frame % 2), dt=1.0)
    >>> hunter.plans, hunter.node, hunter.last_plan.path[-1].tolist()
    (1, (0, 4), [0, 29])
    """

    __slots__ = (
        "_aimed", "_booked", "_budget", "_clock", "_continuous", "_corridor", "_costs",
        "_counted", "_cut", "_dt", "_end",
        "_find", "_goal", "_i", "_lag", "_last", "_max_exp", "_partial", "_path", "_plan",
        "_plan_k", "_progress", "_reaimer", "_replanner", "_replans", "_search",
        "_seen", "_snap", "_space", "_started", "_status", "_suffix", "_tail", "_target",
        "_ticks", "_tried", "_world",
        "expanded", "plans", "speed", "stop_range",
    )  # fmt: skip

    def __init__(
        self,
        world: Any,
        start: Any,
        *,
        speed: float,
        stop_range: float = 0.0,
        budget: int | None = None,
        max_expansions: int | None = None,
        frame_budget: int | None = None,
        time_budget_us: float | None = None,
        snap: bool = False,
        reservations: Any = None,
    ) -> None:
        self._space: Space = space_for(world)
        # (looked up once: a plan's price beside a search of a few microseconds)
        self._find = self._space.find_path
        self._reaimer = getattr(self._space, "reaim", None)  # a mesh's path corridor
        self._continuous = bool(getattr(self._space, "continuous", False))  # a mesh's
        self._snap = check_flag("snap", snap)
        if self._snap and not callable(getattr(self._space, "snap", None)):
            raise CapabilityError(
                type(world).__name__, "snap", "its agents' space has no nearest walkable node"
            )
        self.speed = _positive("speed", speed, allow_zero=False)
        self.stop_range = _positive("stop_range", stop_range, allow_zero=True)
        limit = check_limit("budget", budget, integer=True)
        self._budget = None if limit is None else int(limit)
        limit = check_limit("max_expansions", max_expansions, integer=True)
        self._max_exp = None if limit is None else int(limit)
        frame, micro = check_budgets("frame_budget", frame_budget, time_budget_us)
        budgeted = frame is not None or micro is not None
        self._clock = FrameBudget(frame, micro) if budgeted else None
        self._search: Any = None  # the compiled search of a plan in progress
        # A space whose searches tell their best partial path: walked meanwhile.
        self._partial = budgeted and bool(getattr(self._space, "PARTIAL_PLANS", False))
        self._goal: Hashable | None = None  # the target it aims at
        self._counted = 0  # its expansions counted in ``expanded`` so far
        self._plan_k = 0  # the index on _path it plans from
        self._ticks = 0  # steps taken
        self._started = 0  # the step the plan in progress started at
        self._lag = 0  # steps the last budgeted plan took (0: none yet)
        self._last: int | None = None  # expansions of the last plan (None: none yet)
        self._dt = 0.0  # the last step's dt
        node = self._key(start, "start", self._snap)
        self._path: list[Hashable] = [node]
        # The cost of each step of the path, and of the path left from each node:
        # lists of floats (a plan's few nodes cost less so than as arrays).
        self._costs: list[float] = []
        self._suffix: list[float] = [0.0]
        # The suffix sums at the path's end (not 0 once a path was cut: the cost left
        # from node i is suffix[i] - end, so a cut costs no new sums).
        self._end = 0.0
        self._i = 0  # index on _path of the last node reached
        self._progress = 0.0  # cost covered along the edge _path[i] -> _path[i + 1]
        self._target: Hashable | None = None
        self._plan: PathResult | None = None
        self._status: ChaseStatus = "chasing"
        self.plans = 0
        self.expanded = 0
        self._world = _editable(self._space)
        self._seen = -1 if self._world is None else self._world.version
        self._replans = self._world is not None and _replans(self._world)
        self._replanner: Replanner | None = None
        self._corridor: Any = None  # a mesh's path corridor, kept between plans
        self._tried: Any = None  # (node, step to retry at) of a ``toward`` that took no step
        self._cut = False  # the path is still to be cut at the plan's start node
        # The path before its last cut, kept until a new path replaces it (see _truncate)
        self._tail: list[Hashable] | None = None
        # (target, snap, world version, its key) of the last target checked
        self._aimed: tuple[Any, Any, int, Hashable] | None = None
        self._booked: BookedWalk | None = None  # its booking in a shared table
        if reservations is not None:
            check_table(reservations, world, self._space)
            given = [
                name for name, value in (
                    ("budget", budget), ("frame_budget", frame_budget),
                    ("time_budget_us", time_budget_us),
                ) if value is not None
            ] + (["stop_range"] if self.stop_range else [])  # fmt: skip
            if given:
                raise ValueError(f"reservations cannot be combined with {', '.join(given)}")
            self._booked = BookedWalk(reservations, self, node)

    # ------------------------------------------------------------------ state

    @property
    def node(self) -> Hashable:
        """The last node the pursuer reached (it may be partway to the next)."""
        return self._path[self._i]

    @property
    def status(self) -> ChaseStatus:
        """The status the last :meth:`step` returned."""
        return self._status

    @property
    def planning(self) -> bool:
        """A budgeted plan is in progress (its search is stepped by the next steps)."""
        return self._search is not None

    @property
    def path(self) -> list[Hashable]:
        """The rest of the current path: from :attr:`plan_start` to the target (while
        a budgeted plan is in progress: to the node that plan starts from)."""
        return self._path[self._plan_index() :]

    @property
    def plan_start(self) -> Hashable:
        """The node the current path starts from: the pursuer's node, or the next one
        when it is partway along an edge (it never turns back mid-edge)."""
        return self._path[self._plan_index()]

    @property
    def waiting(self) -> bool:
        """With ``reservations``: its booking keeps it where it is for the next step,
        short of its target (another unit is in its way). False without."""
        return self._booked is not None and self._booked.waiting()

    @property
    def booking(self) -> Any:
        """With ``reservations``: its last :class:`~pathcraft.mapf.Booking` (None
        before the first step, and without)."""
        return None if self._booked is None else self._booked.booking

    @property
    def cost_to_target(self) -> float:
        """The path cost left from where the pursuer is to the target (inf: no path;
        with ``reservations``: the time steps its booking takes to the target, inf
        when it ends elsewhere)."""
        if self._booked is not None:
            left = self._booked.steps_left()
            return math.inf if left is None else float(left)
        if self._status in ("unreachable", "max_expansions") and self._path[-1] != self._target:
            return math.inf
        return self._suffix[self._i] - self._end - self._progress

    @property
    def position(self) -> tuple[float, ...]:
        """Where the pursuer is, ``(x, y)`` (``(x, y, z)`` in a 3-D space): between two
        nodes' points when partway."""
        here = self._space.point(self._path[self._i])
        if self._progress == 0.0 or self._i + 1 >= len(self._path):
            return tuple(here)
        there = self._space.point(self._path[self._i + 1])
        t = self._progress / self._costs[self._i]
        return tuple(a + t * (b - a) for a, b in zip(here, there, strict=True))

    def _plan_index(self) -> int:
        return self._i + 1 if self._progress > 0.0 else self._i

    # ------------------------------------------------------------------ moving

    def step(self, target: Any, dt: float, *, snap: bool | None = None) -> ChaseStatus:
        """Re-plan toward ``target`` if it moved, then move for ``dt`` time units.

        Parameters
        ----------
        target : node
            Where the target is now (a walkable cell or a node; with ``snap``, any
            cell).
        dt : float
            Time passed, >= 0.
        snap : bool or None
            Move a target on a wall or off the grid to the nearest walkable node
            instead of raising (see the class); None: the constructor's ``snap``.

        Raises
        ------
        ValueError
            A target on a wall or off the grid without ``snap``, a bad ``dt``.

        Returns
        -------
        str
            ``"chasing"``, ``"caught"``, ``"unreachable"`` or ``"max_expansions"``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import Pursuer
        >>> grid = Grid.from_ascii("......")
        >>> hunter = Pursuer(grid, (0, 0), speed=1.0)
        >>> hunter.step((0, 5), dt=2.0), hunter.plans
        ('chasing', 1)
        >>> hunter.step((0, 5), dt=5.0)     # the target stood still: no new search
        'caught'
        >>> hunter.plans
        1
        >>> hunter.step((3, 9), dt=1.0, snap=True), hunter.node   # off the map: (0, 5)
        ('caught', (0, 5))
        """
        goal = self._aim(target, self._snap if snap is None else snap)
        dt = _positive("dt", dt, allow_zero=True)
        if self._booked is not None:
            return self._walk_booking(goal)
        if self._status == "max_expansions":
            return self._status
        self._ticks += 1
        self._dt = dt
        clock = self._clock
        changed = self._world is not None and self._world.version != self._seen
        if changed and goal == self._target and clock is None and self._replans:
            self._repair(goal)
        elif (
            changed or self._search is not None or goal != self._target
            or self._status == "unreachable"
        ):  # fmt: skip
            if clock is not None:
                clock.start()  # the frame's budget (a step without search work reads none)
            if changed:
                self._retarget(goal, fresh=True)
            elif self._search is not None:
                self._target = goal  # the plan in flight is finished first: never starved
            else:
                self._retarget(goal)
            if self._search is not None:
                self._continue()
        if self._status in ("unreachable", "max_expansions"):
            return self._status
        self._advance(self.speed * dt)
        return self._status

    def _walk_booking(self, goal: Hashable) -> ChaseStatus:
        """A step on the shared table's time: book again if due, stand where the
        booking puts it at the table's next step."""
        assert self._booked is not None
        status, node, booked = self._booked.step(goal, self._max_exp)
        if booked is not None:
            self.plans += 1
            self.expanded += booked.expanded
        self._target = goal
        self._set_path([node], [], keep=True)
        self._i, self._progress = 0, 0.0
        self._status = status  # type: ignore[assignment]
        return self._status

    def _aim(self, target: Any, snap: Any) -> Hashable:
        """The target checked: the last one's key again when it is the same plain
        ``(x, y)`` or ``(row, col)`` tuple, under the same ``snap``, on a world not
        edited since (a check costs a lookup: on a mesh a spatial query, tens of
        microseconds, every frame for every agent)."""
        world, aimed = self._world, self._aimed
        plain = (
            world is not None and type(target) is tuple and len(target) == 2
            and type(target[0]) in _PLAIN and type(target[1]) in _PLAIN
        )  # fmt: skip
        if (
            plain and aimed is not None and aimed[0] == target and aimed[1] is snap
            and aimed[2] == world.version
        ):  # fmt: skip
            return aimed[3]
        goal = self._key(target, "target", snap)
        if plain and type(snap) is bool:
            self._aimed = (target, snap, world.version, goal)
        return goal

    def _key(self, node: Any, name: str, snap: Any) -> Hashable:
        """``node`` checked by the space, or snapped to the nearest walkable node."""
        if snap is False:
            return self._space.key(node, name)
        if not check_flag("snap", snap):
            return self._space.key(node, name)
        snapper = getattr(self._space, "snap", None)
        if snapper is None:
            raise CapabilityError(
                type(self._space).__name__, "snap", "no nearest walkable node in this space"
            )
        found: Hashable = snapper(node, name)
        return found

    def _repair(self, goal: Hashable) -> None:
        """The world changed and the target did not move: repair the path with the
        incremental planner, from the node the pursuer plans from."""
        self._drop_search()
        world = self._world
        assert world is not None
        self._seen = world.version
        self._target = goal
        if self._budget is not None and self.expanded >= self._budget:
            self._status = "max_expansions"
            return
        k = self._start_node()
        if self._walled(self._path[k]):
            self._adopt(PathResult.not_found("unreachable"), k)
            return
        if self._replanner is None or self._replanner.goal != goal:
            if self._replanner is None:
                self._replanner = Replanner(world, self._path[k], goal)
            else:
                self._replanner.move_to(self._path[k])
                self._replanner.retarget(goal)
        else:
            self._replanner.move_to(self._path[k])
        result = self._replanner.path()
        self.plans += 1
        self.expanded += result.expanded
        self._plan = result
        self._adopt(result, k)

    def _start_node(self) -> int:
        """Where a new plan starts: the next node when partway along an edge, unless
        a wall went up on it (a grid): then the pursuer turns back to its last node."""
        k = self._plan_index()
        if k != self._i and self._walled(self._path[k]):
            self._progress = 0.0
            return self._i
        return k

    def _walled(self, node: Hashable) -> bool:
        """A wall went up where the pursuer stands: it waits there (unreachable)."""
        if self._world is None:
            return False
        try:
            self._space.key(node)
        except ValueError:
            return True
        return False

    def _adopt(self, result: PathResult, k: int) -> None:
        """Follow ``result``'s path from ``self._path[k]`` (or stop there: no path)."""
        # The nodes before both the plan's start and the pursuer are dropped (else
        # the path grows with the chase, and every plan's price with it).
        m = min(self._i, k)
        if m > 0:
            self._path = self._path[m:]
            self._costs = self._costs[m:]
            self._suffix = self._suffix[m:]
            self._i -= m
            k -= m
        if not result:
            spent = result.reason == "max_expansions"
            self._status = "max_expansions" if spent else "unreachable"
            # stop at the next node: the pursuer never turns back mid-edge
            self._truncate(max(k, self._committed()))
            return
        path = self._space.nodes(result)
        if self._committed() > k:  # it walked a partial path meanwhile
            self._splice(k, path)
            self._status = "chasing"
            return
        costs = _floats(self._space.step_costs(path))
        if k:
            self._set_path(self._path[:k] + path, self._costs[:k] + costs, keep=True)
        else:
            self._set_path(path, costs, keep=True)
        self._status = "chasing"

    def _retarget(self, goal: Hashable, *, fresh: bool = False) -> None:
        self._drop_search()
        self._target = goal
        if self._continuous:
            self._stand_here(fresh)
        if self._world is not None:
            self._seen = self._world.version
        k = self._start_node() if fresh else self._plan_index()
        if fresh and self._walled(self._path[k]):
            self._adopt(PathResult.not_found("unreachable"), k)
            return
        # The target stepped onto our path: the prefix up to it is a shortest path.
        # (``in`` first: a search for a node not there is cheaper than index's error)
        path, j = self._path, -1
        if goal in path:
            with contextlib.suppress(ValueError):  # (there, but before k)
                j = path.index(goal, k)
        if j >= 0 and self._status != "unreachable" and not fresh:
            self._truncate(j)
            return
        if self._budget is not None and self.expanded >= self._budget:
            self._status = "max_expansions"
            return
        limit = self._max_exp
        if self._budget is not None:
            left = self._budget - self.expanded
            limit = left if limit is None else min(limit, left)
        clock = self._clock
        if clock is None:
            result = None
            if self._reaimer is not None:
                result = self._reaim(k, goal, fresh or limit is not None)
            if result is None:
                result = self._find(self._path[k], goal, max_expansions=limit)
        else:
            if self._reaimer is not None and self._reaimed(k, goal, fresh or limit is not None):
                return
            # A plan like the last one, which fits in what is left of this frame, is
            # first run whole, as a blocking search capped at that (the cost of a
            # blocking call, not of a search started, stepped and read): adopted if it
            # ended, else its expansions are spent and the plan is sliced.
            ran = clock.whole(self._find, self._path[k], goal, self._last, limit)
            if ran is None:
                self._slice(k, goal, limit, fresh)
                return
            result, capped = ran
            if capped and result.reason == "max_expansions":  # (a found result has none)
                self.expanded += result.expanded
                self._last = None  # longer than a frame: sliced from here
                self._slice(k, goal, limit, fresh)
                return
            self._lag = 1
            self._last = result.expanded
        self.plans += 1
        self.expanded += result.expanded
        self._plan = result
        self._adopt(result, k)

    def _slice(self, k: int, goal: Hashable, limit: int | None, fresh: bool) -> None:
        """Start a budgeted plan from ``self._path[k]`` sliced over the next frames
        (``fresh``: after a world edit)."""
        self._corridor = None  # the sliced plan may go another way
        # Planned over the next frames; meanwhile go on to the node planned from, as
        # far ahead on the path as the pursuer walks while the plan runs.
        if not fresh:
            k = self._lookahead(k)
        if self._partial:
            self._search = self._space.start_search(  # type: ignore[call-arg]
                self._path[k], goal, max_expansions=limit, partial=True
            )
        else:
            self._search = self._space.start_search(self._path[k], goal, max_expansions=limit)
        self._goal = goal
        self._counted = 0
        self._started = self._ticks
        self._plan_k = k
        self._cut = True  # the path ends at k unless the plan ends this frame
        self._status = "chasing"

    def _reaimed(self, k: int, goal: Hashable, search: bool) -> bool:
        """A budgeted plan by the space's ``reaim`` (a mesh's path corridor), adopted at
        once (True): the corridor kept without a search where it can be, else a new
        one searched (whole) when the last plan fitted what is left of the frame, its
        expansions spent; False where neither can (then the plan is searched as any
        other: no corridor after a world edit or with an expansion limit)."""
        reaim = self._reaimer
        if reaim is None or search:
            self._corridor = None
            return False
        clock = self._clock
        assert clock is not None
        found = reaim(self._corridor, self._path[k], goal, search=False)
        if found is None:
            self._corridor = None
            cap = clock.allowance()
            if self._last is None or self._last > cap:
                return False
            began = perf_counter()
            corridor, result = self._space.corridor(  # type: ignore[attr-defined]
                self._path[k], goal, max_expansions=cap
            )
            clock.spend(result.expanded, perf_counter() - began)
            if not result and result.reason == "max_expansions":
                self.expanded += result.expanded  # longer than a frame: sliced from here
                self._last = None
                return False
            self._last = result.expanded
            found = corridor, result
        self._corridor, result = found
        self.plans += 1
        self.expanded += result.expanded
        self._lag = 1
        self._plan = result
        self._adopt(result, k)
        return True

    def _reaim(self, k: int, goal: Hashable, search: bool) -> PathResult | None:
        """The path from ``self._path[k]`` to ``goal`` by the space's ``reaim`` (a
        mesh's path corridor, kept as the pursuer and its target move), or None where
        the space has none or a search must run (a world edit, an expansion limit)."""
        reaim = self._reaimer
        if reaim is None or search:
            self._corridor = None
            return None
        found = reaim(self._corridor, self._path[k], goal)
        if found is None:
            return None
        self._corridor, result = found
        return result  # type: ignore[no-any-return]

    def _stand_here(self, fresh: bool) -> None:
        """In a continuous space (a navigation mesh) a plan starts where the pursuer
        is: its position becomes the node it stands on (the edge it is on split there),
        the nodes passed are dropped, and after a world edit (``fresh``) a position the
        edit walled in is moved to the nearest walkable point (the space's ``snap``)."""
        i, path = self._i, self._path
        if self._progress > 0.0 and i + 1 < len(path):
            here = self._key(self.position, "position", hasattr(self._space, "snap"))
            split = _floats(self._space.step_costs([path[i], here, path[i + 1]]))
            path = [here, *path[i + 1 :]]
            costs = split[1:] + self._costs[i + 1 :]
        else:
            path, costs = path[i:], self._costs[i:]
        if fresh and self._walled(path[0]):
            path, costs = [self._key(path[0], "position", True)], []
        self._i, self._progress = 0, 0.0
        self._set_path(path, costs, keep=True)

    def _lookahead(self, k: int) -> int:
        """The index on the path, from ``k`` on, of the first node at least as far
        from the pursuer as it walks while a sliced plan runs and one frame more (as
        many frames as the last sliced plan took, at least two), so that a plan on
        time finds it still walking (not near the end, asking for partial paths each
        frame); the path's end if none is."""
        last = len(self._path) - 1
        if k >= last:
            return k
        reach = self.speed * self._dt * max(self._lag, 2)
        suffix = self._suffix
        bound = suffix[self._i] - self._progress - reach  # (the suffix sums less reach)
        if bound < self._end:  # (the end's is the least: none is far enough)
            return last
        while suffix[k] > bound:  # (a loop: the node is a few steps on)
            k += 1
        return k

    def _continue(self) -> None:
        """Spend this frame's budget on the plan in progress; adopt it once it ended,
        then start the next plan if the target moved meanwhile (with what is left)."""
        clock = self._clock
        assert clock is not None
        while self._search is not None and not clock.spent:
            search = self._search
            try:
                status = clock.run(search)
            except WorldChangedError:  # a world without ``version`` checks of ours
                self._search = None
                self._retarget(self._target, fresh=True)
                continue
            self.expanded += search.expanded - self._counted
            self._counted = search.expanded
            if status == "in_progress":
                self._cut_to_plan()
                self._walk_meanwhile(search)
                return
            self._search = None
            self._cut = False  # adopting it replaces the path past the node it starts from
            self.plans += 1
            self._lag = self._ticks - self._started + 1
            self._last = search.expanded
            self._plan = search.result
            self._adopt(search.result, self._plan_k)
            if self._status != "max_expansions" and self._target != self._goal:
                self._retarget(self._target)  # the target moved: aim at where it is now
        self._cut_to_plan()

    def _cut_to_plan(self) -> None:
        """A plan goes on over the next frames: the pursuer walks no further than the
        node it starts from (cut only then: a plan that ends in the frame it started,
        as on small maps, replaces the path at once, for one path update, not two)."""
        if self._cut:
            self._cut = False
            self._truncate(self._plan_k)

    def _committed(self) -> int:
        """The index on the path of the node the pursuer stands on, or walks to (it
        never turns back mid-edge)."""
        return self._i + 1 if self._progress > 0.0 else self._i

    def _walk_meanwhile(self, search: Any) -> None:
        """While a plan is found over frames, walk the search's best partial path so
        far (:meth:`~pathcraft.CompiledSearch.best_so_far`: toward the expanded node
        closest to the target), so a pursuer never stands still for lack of a path.
        Asked only when the pursuer would reach the end of its path within two frames
        (reading the partial path costs a walk along it and a result: not every
        frame for every pursuer)."""
        left = self._suffix[self._i] - self._end - self._progress
        if left > 2.0 * self.speed * self._dt:
            return
        if not self._partial:
            self._toward()
            return
        best = search.best_so_far()
        if best is None:  # a search that cannot tell
            self._toward()
        elif len(best.path) >= 2:
            self._splice(self._plan_k, self._space.nodes(best))

    def _toward(self) -> None:
        """A plan whose search tells no partial path (a mesh's):
        walk on meanwhile by the space's ``toward`` (a few legal steps from the end
        of the path toward the target: a greedy search of 16 expansions on a grid, a
        straight move up to the first wall on a mesh), appended to the path. A space
        without one, or with no step to take (the last try from this node took
        none, fewer than :data:`RETRY` steps ago), waits."""
        toward = getattr(self._space, "toward", None)
        end = self._path[-1]
        if toward is None or end == self._target:
            return
        if self._tried is not None and self._tried[0] == end and self._ticks < self._tried[1]:
            return
        step = toward(end, self._target)
        if step is None:
            self._tried = (end, self._ticks + RETRY)
            return
        path = self._space.nodes(step)
        costs = self._costs + _floats(self._space.step_costs(path))
        self._set_path(self._path + path[1:], costs, keep=True)

    def _splice(self, k: int, path: list[Hashable]) -> None:
        """Follow ``path`` (from ``self._path[k]``) from where the pursuer is. Past
        ``k`` it walked an earlier partial path of the same search; both are paths of
        the search's tree from its root, so they share a prefix: the pursuer finishes
        its edge, walks back to where they part (nothing when it is at or before it)
        and goes on along ``path``."""
        c = self._committed()
        if c <= k:
            costs = self._costs[:k] + _floats(self._space.step_costs(path))
            self._set_path(self._path[:k] + path, costs, keep=True)
            return
        walked = self._path[k : c + 1]
        t = 0
        while t + 1 < min(len(walked), len(path)) and walked[t + 1] == path[t + 1]:
            t += 1
        back = walked[t:][::-1]  # from the committed node back to the parting one
        step_costs = self._space.step_costs
        costs = self._costs[:c] + _floats(step_costs(back)) + _floats(step_costs(path[t:]))
        self._set_path(self._path[: c + 1] + back[1:] + path[t + 1 :], costs, keep=True)

    def _drop_search(self) -> None:
        """A plan in progress toward an old target or an old world: cancelled."""
        if self._search is not None:
            self._search.cancel()
            self._search = None

    def _truncate(self, k: int) -> None:
        """The path ends at its node ``k`` (the costs left read off the suffix sums, less
        the sum at ``k``: no new sums). The nodes cut off are released with the path
        that replaces them, not now: CPython's collector counts objects made less
        objects released, never below zero, so a frame's cuts (most of a budgeted
        set's pursuers cut when the target moves) would release thousands of nodes
        that the count forgets, and the plans adopted over the next frames would
        count theirs in full: about three times the collector's passes of blocking
        pursuers, whose adoption releases the old nodes as it makes the new."""
        self._tail = self._path
        self._path = self._path[: k + 1]
        self._costs = self._costs[:k]
        self._suffix = self._suffix[: k + 1]
        self._end = self._suffix[k]

    def _set_path(
        self, path: list[Hashable], costs: list[float], *, keep: bool
    ) -> None:
        self._path = path
        self._tail = None
        self._costs = costs
        # the same sums as numpy's cumsum of the reversed costs (summed in order)
        suffix = list(accumulate(reversed(costs), initial=0.0))
        suffix.reverse()
        self._suffix = suffix
        self._end = 0.0

    def _advance(self, distance: float) -> None:
        if self._status != "chasing":
            if self._status != "caught":
                return
            self._status = "chasing"  # the target moved off: run again
        stop = self.stop_range
        last = len(self._path) - 1
        end = self._end
        while True:
            left = self._suffix[self._i] - end - self._progress
            if left <= stop + 1e-12:
                if self._search is None:  # else: waiting for the plan in progress
                    self._status = "caught"
                return
            if distance <= 0.0 or self._i >= last:
                return
            edge = self._costs[self._i]
            # never walk past the point where the target comes within range
            room = min(edge - self._progress, left - stop)
            if distance < room:
                self._progress += distance
                distance = 0.0
            elif room < edge - self._progress:
                self._progress += room
                distance = 0.0
            else:
                distance -= edge - self._progress
                self._i += 1
                self._progress = 0.0

    @property
    def last_plan(self) -> PathResult | None:
        """The result of the most recent search (None before the first)."""
        return self._plan


def _floats(costs: Any) -> list[float]:
    """A space's step costs (an array) as a list of floats, as a pursuer keeps them."""
    if type(costs) is np.ndarray and costs.dtype == np.float64:
        return costs.tolist()  # type: ignore[no-any-return]
    return np.asarray(costs, dtype=np.float64).tolist()  # type: ignore[no-any-return]


def _editable(space: Space) -> Any:
    """The world behind a space, whose edits the pursuer watches and repairs with a
    :class:`~pathcraft.replan.Replanner` (None for a space of the caller's own)."""
    world = getattr(space, "world", None)
    return world if world is not None and hasattr(world, "version") else None


def _replans(world: Any) -> bool:
    """Whether ``world`` has a replanner (else a change means a fresh search)."""
    try:
        world.replan_space()
    except CapabilityError:
        return False
    return True
