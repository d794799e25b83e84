"""The reservation table a game's units share: which place is taken at which time
step, planned around by safe-interval path planning, with a clock and one booking per
unit, so that units moving in one frame loop never collide (windowed cooperative A*
per unit, Silver 2005).

Why no booking ever collides: every unit holds its booking (its place at every step
from the table's clock on, and its last place for good, until it books again), and the
bookings held are pairwise free of conflicts. A unit that books again drops its own,
plans a window ahead around everyone else's, and keeps the plan only when its last
place stays free for good after it arrives; otherwise it keeps the booking it had,
which the others planned around. So a booking always exists, and the invariant holds.
The price: a unit may wait (another unit's booking is in its way), one that reached
its goal does not step aside, and two units face to face in a corridor one place wide
may wait for good (:class:`~pathcraft.mapf.Cooperative`, which plans every unit
again each turn, those at their goals last, gets them past each other).

One idea in one file, a little longer than most: about half of it is the docstrings
and their runnable examples.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._core import sipp as _sipp
from pathcraft._validation import check_limit
from pathcraft.mapf._cooperative import GoalDistances, check_fresh, node_ids, places_of
from pathcraft.mapf._whca import check_window
from pathcraft.result import PathResult

__all__ = ["Booking", "BookingSearch", "BookingStatus", "Reservations"]

BookingStatus = Literal["planned", "kept", "unreachable"]


class Booking(NamedTuple):
    """What :meth:`Reservations.book` gives a unit.

    Attributes
    ----------
    places : list
        Its place at every time step from the table's clock on (``places[0]`` where
        it is now); it stays at the last one until it books again.
    status : str
        ``"planned"`` (a new plan), ``"kept"`` (no plan for the window kept its last
        place free for good: the booking it had is kept, or it waits where it is) or
        ``"unreachable"`` (its goal cannot be reached from where it is, whatever the
        other units do: it waits where it is).
    expanded : int
        The states the search expanded.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Reservations
    >>> table = Reservations(Grid.from_ascii("....", diagonal="never"))
    >>> table.hold("orc", (0, 0))
    >>> table.book("orc", (0, 3))
    Booking(places=[(0, 0), (0, 1), (0, 2), (0, 3)], status='planned', expanded=3)
    >>> walled = Reservations(Grid.from_ascii(".#.", diagonal="never"))
    >>> walled.hold("orc", (0, 0))
    >>> walled.book("orc", (0, 2))   # a wall between: it waits where it is
    Booking(places=[(0, 0)], status='unreachable', expanded=0)
    """

    places: list[Hashable]
    status: BookingStatus
    expanded: int


class Reservations:
    """A reservation table over a world's places: which place is taken at which time
    step, shared by the units of a game so that their plans do not collide.

    Time runs in whole steps (one move to a neighbouring place, or a wait, per step;
    the rules of :mod:`pathcraft.mapf`), counted by the table's clock (:attr:`now`,
    advanced by :meth:`tick`). Two ways to use it:

    - **units that book** (a game loop): each unit, by any hashable ``owner`` key,
      holds its place (:meth:`hold`) and books plans (:meth:`book`): its old booking
      is released, a plan for the next ``window`` steps is found around every other
      unit's booking and reserved in space-time from the clock on. A unit walks its
      booking (:meth:`where`: its place at a time step), books again within
      ``replan`` steps or when its goal changes, and the game calls :meth:`tick` once
      per time step. Bookings never collide (no two units in one place at one step,
      none swapping places; see the module): a unit that finds no safe plan keeps
      the booking it had and waits. :class:`~pathcraft.agents.Pursuer` and
      :class:`~pathcraft.agents.PathRequestQueue` book this way
      (``reservations=``).
    - **plans by hand**: :meth:`plan` a path around what is reserved, then
      :meth:`reserve` it (kept until :meth:`clear`); bookings plan around these too.

    Parameters
    ----------
    world : world
        Any world that lists its places (the ``"places"`` capability of
        :mod:`pathcraft.world`): a :class:`~pathcraft.Grid` (places ``(row, col)``,
        4- or 8-connected by its rule), a hexagonal or move grid (``(row, col)``), a
        :class:`~pathcraft.VoxelGrid` (``(z, row, col)``), a
        :class:`~pathcraft.Level` (``(floor, row, col)``), a
        :class:`~pathcraft.Graph` (node labels). Worlds of continuous positions (a
        navigation mesh, a waypoint graph) refuse by name.
    following : bool
        Also keep units from entering a place another unit leaves in the same step.
    window : int
        Moves a booking plans ahead (>= 1), guided beyond by the true distance to
        the goal. A move of safe-interval path planning is a step to a neighbour
        after any wait it needs, so a plan may span more time steps than moves.
    replan : int or None
        Steps after which a unit books again (1 .. ``window``; None: half the
        window): what the agents that book follow.
    max_tables : int
        True-distance tables kept, one per goal (4 bytes per place; the least
        recently used go first).

    Raises
    ------
    CapabilityError
        A world that refuses ``"places"``, naming it.
    TypeError
        ``world`` is not a world that lists its places.

    The table reads the world's places and moves once: a plan or booking after the
    world was edited raises ``RuntimeError`` (build a new table then).

    Examples
    --------
    Plans by hand:

    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Reservations
    >>> table = Reservations(Grid.from_ascii("...\\n.#.", diagonal="never"))
    >>> first = table.plan((0, 0), (0, 2))
    >>> first
    [(0, 0), (0, 1), (0, 2)]
    >>> table.reserve(first, forever=True)
    >>> table.is_free((0, 1), 1), table.is_free((0, 2), 50)
    (False, False)
    >>> table.plan((1, 2), (0, 0))   # its only way out is the first unit's for good
    []
    >>> table.clear()
    >>> table.plan((1, 2), (0, 0))
    [(1, 2), (0, 2), (0, 1), (0, 0)]

    Two units that book, swapping the ends of a room: the second walks around the
    first.

    >>> room = Grid.from_ascii(".....\\n.....\\n.....", diagonal="never")
    >>> table = Reservations(room, window=8)
    >>> table.hold("a", (1, 0)); table.hold("b", (1, 4))
    >>> goals = {"a": (1, 4), "b": (1, 0)}
    >>> for step in range(12):
    ...     for unit, goal in goals.items():
    ...         if step % 4 == 0:
    ...             booking = table.book(unit, goal)
    ...     table.tick()
    >>> table.where("a"), table.where("b"), table.now
    ((1, 4), (1, 0), 12)
    >>> booking.status, booking.places[:2]
    ('planned', [(1, 0)])
    """

    __slots__ = (
        "_dirty",
        "_distances",
        "_now",
        "_owners",
        "_plain",
        "_problem",
        "_table",
        "_version",
        "expanded",
        "replan",
        "window",
    )

    def __init__(
        self,
        world: Any,
        *,
        following: bool = False,
        window: int = 16,
        replan: int | None = None,
        max_tables: int = 256,
    ) -> None:
        self.window, self.replan = check_window(window, replan)
        self._problem = places_of(world, following)
        self._version = getattr(world, "version", 0)
        self._distances = GoalDistances(self._problem, max_tables)
        self._table = _sipp.Reservations(self._problem.n_nodes, self._problem.following)
        self._now = 0
        # owner -> (time of nodes[0], nodes): its booking, its last node held for good
        self._owners: dict[Hashable, tuple[int, npt.NDArray[np.int32]]] = {}
        # the reservations by hand: (nodes, start_time, until, forever)
        self._plain: list[tuple[npt.NDArray[np.int32], int, int, bool]] = []
        # a booking was dropped where the compiled table cannot drop it alone (with
        # following): the table is built again before its next use
        self._dirty = False
        #: States expanded by every plan and booking so far.
        self.expanded = 0

    # ------------------------------------------------------------------ state

    @property
    def world(self) -> Any:
        """The world the table reserves places of."""
        return self._problem.world

    @property
    def following(self) -> bool:
        """Whether following conflicts are kept out too."""
        return self._problem.following

    @property
    def now(self) -> int:
        """The clock: the current time step (0 at first; :meth:`tick` advances it)."""
        return self._now

    def tick(self, steps: int = 1) -> None:
        """Advance the clock by ``steps`` time steps (>= 0): every unit that books is
        now where its booking puts it at the new time (what has been walked is
        released at the next rebuild).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.hold("orc", (0, 0)); _ = table.book("orc", (0, 2))
        >>> table.tick(); table.now, table.where("orc")
        (1, (0, 1))
        >>> table.tick(5); table.now, table.where("orc")
        (6, (0, 2))
        """
        n = check_limit("steps", steps, integer=True)
        if n is None or n < 0:
            raise ValueError(f"steps must be an int >= 0; got {steps!r}")
        self._now += int(n)

    def __contains__(self, owner: object) -> bool:
        """Whether ``owner`` holds a booking."""
        try:
            return owner in self._owners
        except TypeError:
            return False

    def clear(self) -> None:
        """Drop every reservation and every booking (the clock runs on).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.hold("orc", (0, 1)); table.reserve([(0, 0)], forever=True)
        >>> table.tick(3)
        >>> table.is_free((0, 0), 9), table.is_free((0, 1), 9)
        (False, False)
        >>> table.clear()
        >>> "orc" in table, table.is_free((0, 0), 9), table.is_free((0, 1), 9), table.now
        (False, True, True, 3)
        """
        self._table.clear()
        self._owners.clear()
        self._plain.clear()
        self._dirty = False

    # ------------------------------------------------------------------ by hand

    def reserve(
        self,
        path: Sequence[Hashable],
        *,
        start_time: int = 0,
        until: int | None = None,
        forever: bool = False,
    ) -> None:
        """Reserve a unit's plan: ``path[i]`` at time ``start_time + i`` (and each move,
        so no unit swaps places with it), then its last place up to time ``until`` and,
        with ``forever``, from its arrival there on for good. Kept until
        :meth:`clear`; bookings plan around it (reserve nothing a unit holds: the
        table does not check).

        Raises
        ------
        ValueError
            A place not in the world, a negative ``start_time``.

        Examples
        --------
        A unit at ``(0, 0)`` at time 2, at ``(0, 1)`` at time 3 and staying there up
        to time 4:

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.reserve([(0, 0), (0, 1)], start_time=2, until=4)
        >>> [table.is_free((0, 1), t) for t in range(6)]
        [True, True, True, False, False, True]
        """
        nodes = node_ids(self._problem, "path", path)
        start = check_limit("start_time", start_time, integer=True)
        if start is None or start < 0:
            raise ValueError(f"start_time must be an int >= 0; got {start_time!r}")
        end = check_limit("until", until, integer=True)
        entry = (nodes, int(start), -1 if end is None else int(end), bool(forever))
        self._rebuild()
        self._table.reserve_path(*entry)
        self._plain.append(entry)

    def is_free(self, place: Hashable, time: int) -> bool:
        """Whether ``place`` is free at time step ``time``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("..", diagonal="never"))
        >>> table.hold("orc", (0, 1))   # held for good until it books again
        >>> table.is_free((0, 0), 0), table.is_free((0, 1), 0), table.is_free((0, 1), 99)
        (True, False, False)
        """
        self._rebuild()
        return not self._table.blocked(self._problem.node(place), int(time))

    def plan(
        self,
        start: Hashable,
        goal: Hashable,
        *,
        start_time: int = 0,
        window: int = 0,
        max_expansions: int | None = None,
    ) -> list[Hashable]:
        """The earliest plan from ``start`` (at ``start_time``) to ``goal`` around the
        reservations, ending at the goal free for good; with ``window > 0`` the best
        plan for the next ``window`` moves, a wait before a move counting with it (by
        steps plus the true distance left).
        Safe-interval path planning; the place at every step from ``start_time``, or
        ``[]`` when there is none (or ``max_expansions`` ran out). It reserves nothing.

        Examples
        --------
        Another unit passes ``(0, 1)`` at time 1, so this one waits a step first:

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.reserve([(0, 1)], start_time=1, until=1)
        >>> table.plan((0, 0), (0, 2))
        [(0, 0), (0, 0), (0, 1), (0, 2)]
        """
        status, path = self._search(
            self._problem.node(start), self._problem.node(goal), int(start_time),
            int(window), max_expansions,
        )  # fmt: skip
        if status != _sipp.SIPP_FOUND or path is None:
            return []
        return self._places(path)

    # ------------------------------------------------------------------ bookings

    def hold(self, owner: Hashable, place: Hashable) -> None:
        """Book ``owner`` standing at ``place`` from the clock on, until it books again
        (a unit joining the game).

        Raises
        ------
        ValueError
            ``owner`` holds a booking already; ``place`` is not in the world, or
            another booking or reservation takes it now or later.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.hold("orc", (0, 0))
        >>> table.where("orc"), table.is_free((0, 0), 10)
        ((0, 0), False)
        >>> table.hold("elf", (0, 0))
        Traceback (most recent call last):
        ...
        ValueError: place (0, 0) is taken now or later by another booking
        """
        if owner in self._owners:
            raise ValueError(f"owner {owner!r} holds a booking already")
        self._check_world()
        node = self._problem.node(place)
        self._rebuild()
        if not self._table.free_from(node, self._now):
            raise ValueError(f"place {place!r} is taken now or later by another booking")
        self._book(owner, np.array([node], dtype=np.int32))

    def release(self, owner: Hashable) -> None:
        """Drop ``owner``'s booking (a unit leaving the game); nothing if it has none.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> table.hold("orc", (0, 0)); table.release("orc"); table.release("elf")
        >>> "orc" in table, table.is_free((0, 0), 0)
        (False, True)
        """
        if owner in self._owners:
            self._drop(owner)

    def where(self, owner: Hashable, time: int | None = None) -> Hashable:
        """The place ``owner``'s booking puts it at time step ``time`` (None: now).

        Raises
        ------
        KeyError
            ``owner`` holds no booking.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("....", diagonal="never"))
        >>> table.hold("orc", (0, 0)); _ = table.book("orc", (0, 3))
        >>> table.where("orc"), table.where("orc", 2), table.where("orc", 50)
        ((0, 0), (0, 2), (0, 3))
        """
        t0, nodes = self._owners[owner]
        t = self._now if time is None else int(time)
        k = min(max(t - t0, 0), len(nodes) - 1)
        return self._problem.places[int(nodes[k])]

    def book(
        self, owner: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> Booking:
        """Book ``owner`` a plan toward ``goal`` for the next ``window`` moves from the
        clock on, from where its booking puts it now (:meth:`hold` it first).

        Its old booking is dropped and a plan found around every other booking and
        reservation (safe-interval path planning, guided past the window by the true
        distance to the goal); the plan is kept only when its last place stays free
        for good once the unit is there (the unit holds it until it books again).
        When no such plan exists, or ``max_expansions`` ran out, the old booking is
        kept (``"kept"``); when the goal is out of reach, too (``"unreachable"``).

        Raises
        ------
        KeyError
            ``owner`` holds no booking.
        ValueError
            ``goal`` is not in the world.

        Examples
        --------
        The elf wants the orc's place: it waits the window out there, until the orc
        has moved on.

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"), window=4)
        >>> table.hold("orc", (0, 1)); table.hold("elf", (0, 0))
        >>> table.book("elf", (0, 1)).places
        [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
        >>> table.book("orc", (0, 2))
        Booking(places=[(0, 1), (0, 2)], status='planned', expanded=1)
        >>> table.book("elf", (0, 1)).places
        [(0, 0), (0, 1)]
        """
        goal_node = self._problem.node(goal)
        if owner not in self._owners:
            raise KeyError(f"owner {owner!r} holds no booking: hold() it first")
        self._check_world()
        t0, old = self._drop(owner)
        k = min(max(self._now - t0, 0), len(old) - 1)
        old = old[k:]
        here = int(old[0])
        steps = self._distances(goal_node)
        status: BookingStatus = "unreachable"
        spent = 0
        if steps[here] >= 0:
            found, path = self._search(here, goal_node, self._now, self.window, max_expansions)
            spent = self._table.expanded
            status = "kept"
            if found == _sipp.SIPP_FOUND and path is not None and self._safe_end(path):
                old, status = path, "planned"
        self._book(owner, old)
        return Booking(self._places(old), status, spent)

    def start_booking(
        self, owner: Hashable, start: Hashable, goal: Hashable, *,
        max_expansions: int | None = None,
    ) -> BookingSearch:  # fmt: skip
        """:meth:`book` as a search to be stepped (what a
        :class:`~pathcraft.agents.PathRequestQueue` serves): ``owner`` holds ``start``
        now if it holds nothing yet, and is booked when the search is first stepped,
        from where its booking puts it then.

        Raises
        ------
        ValueError
            ``start`` or ``goal`` is not in the world, or ``start`` is taken (a new
            owner).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("....", diagonal="never"))
        >>> search = table.start_booking("orc", (0, 0), (0, 3))
        >>> search.step(), search.result.path.tolist(), search.booking.status
        ('found', [[0, 0], [0, 1], [0, 2], [0, 3]], 'planned')
        """
        self._problem.node(goal)
        if owner not in self._owners:
            self.hold(owner, start)
        return BookingSearch(self, owner, goal, max_expansions)

    # ------------------------------------------------------------------ inside

    def _search(
        self, start: int, goal: int, start_time: int, window: int, max_expansions: Any
    ) -> tuple[int, npt.NDArray[np.int32] | None]:
        limit = check_limit("max_expansions", max_expansions, integer=True)
        self._check_world()
        self._rebuild()
        found, path = _sipp.sipp(
            self._table,
            self._problem.indptr,
            self._problem.indices,
            self._distances(goal),
            start,
            goal,
            start_time=start_time,
            window=window,
            max_expansions=-1 if limit is None else int(limit),
        )
        self.expanded += self._table.expanded
        return found, path

    def _check_world(self) -> None:
        check_fresh(
            self._problem,
            self._version,
            "table",
            "build a new Reservations (and let the units hold their places in it)",
        )

    def _safe_end(self, path: npt.NDArray[np.int32]) -> bool:
        """Whether the last node of a plan from now is free for good once reached."""
        last = int(path[-1])
        arrival = len(path) - 1
        while arrival > 0 and path[arrival - 1] == last:
            arrival -= 1
        return bool(self._table.free_from(last, self._now + arrival))

    def _drop(self, owner: Hashable) -> tuple[int, npt.NDArray[np.int32]]:
        """Take ``owner``'s booking out of the table (and give it back)."""
        t0, nodes = self._owners.pop(owner)
        if self._problem.following or self._dirty:
            self._dirty = True  # its times spill over: built again without it
        else:
            self._table.release_path(nodes, t0, True)
        return t0, nodes

    def _book(self, owner: Hashable, nodes: npt.NDArray[np.int32]) -> None:
        self._rebuild()
        self._owners[owner] = (self._now, nodes)
        self._table.reserve_path(nodes, self._now, -1, True)

    def _rebuild(self) -> None:
        """After a booking was dropped with following: the compiled table again from
        the bookings held (from the clock on) and the reservations by hand."""
        if not self._dirty:
            return
        self._dirty = False
        self._table.clear()
        now = self._now
        for owner, (t0, nodes) in self._owners.items():
            k = min(max(now - t0, 0), len(nodes) - 1)
            if k:
                nodes = nodes[k:]
            self._owners[owner] = (max(t0, now), nodes)
            self._table.reserve_path(nodes, max(t0, now), -1, True)
        for entry in self._plain:
            self._table.reserve_path(*entry)

    def _places(self, path: npt.NDArray[np.int32]) -> list[Hashable]:
        places = self._problem.places
        return [places[v] for v in path.tolist()]


class BookingSearch:
    """A booking (:meth:`Reservations.book`) run as a search to be stepped: its one
    step books the owner, whole (a windowed search: about ``window`` expansions when
    nothing is in the way), whatever budget the step is given.

    ``result`` is a :class:`~pathcraft.result.PathResult` of the booking's places from
    the clock on (an ``(n, k)`` array of cells on cell worlds, a list of nodes on
    graphs; waits repeat a place); its ``cost`` is the time steps to the booking's
    end. Found unless the goal is out of reach (``reason="unreachable"``); a booking
    that kept the old one (``booking.status == "kept"``) is found too: it is where
    the owner goes.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Reservations
    >>> table = Reservations(Grid.from_ascii("...\\n.#.", diagonal="never"))
    >>> search = table.start_booking("orc", (1, 0), (1, 2))
    >>> search.booking is None, search.step(), search.result.cost
    (True, 'found', 4.0)
    >>> search.result.path.tolist()
    [[1, 0], [0, 0], [0, 1], [0, 2], [1, 2]]
    """

    __slots__ = ("_goal", "_limit", "_owner", "_status", "_table", "booking", "result")

    def __init__(self, table: Reservations, owner: Hashable, goal: Hashable, limit: Any) -> None:
        self._table = table
        self._owner = owner
        self._goal = goal
        self._limit = limit
        self._status = "in_progress"
        #: The booking once stepped (None before).
        self.booking: Booking | None = None
        #: The booking's places once stepped (before: an empty result).
        self.result = PathResult(path=[], cost=float("inf"), found=False)

    @property
    def expanded(self) -> int:
        """States expanded (0 before the step)."""
        return 0 if self.booking is None else self.booking.expanded

    def step(self, max_expansions: int | None = None) -> str:
        """Book (the first time; ``max_expansions`` is not a cap: see the class); the
        status, ``"found"`` or ``"unreachable"`` (``"cancelled"`` after :meth:`cancel`).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii(".#.", diagonal="never"))
        >>> search = table.start_booking("orc", (0, 0), (0, 2))
        >>> search.step(), search.result.reason, search.booking.places
        ('unreachable', 'unreachable', [(0, 0)])
        >>> search.step()   # once booked, it answers the same
        'unreachable'
        """
        if self._status != "in_progress":
            return self._status
        booking = self._table.book(self._owner, self._goal, max_expansions=self._limit)
        self.booking = booking
        places: Any = booking.places
        if places and isinstance(places[0], tuple):
            places = np.array(places, dtype=np.intp)
        if booking.status == "unreachable":
            self.result = PathResult(
                path=[], cost=float("inf"), found=False, reason="unreachable",
                expanded=booking.expanded,
            )  # fmt: skip
            self._status = "unreachable"
        else:
            self.result = PathResult(
                path=places, cost=float(len(booking.places) - 1), found=True,
                expanded=booking.expanded,
            )  # fmt: skip
            self._status = "found"
        return self._status

    def cancel(self) -> None:
        """Stop before the step (the owner keeps the booking it holds).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Reservations
        >>> table = Reservations(Grid.from_ascii("...", diagonal="never"))
        >>> search = table.start_booking("orc", (0, 0), (0, 2))
        >>> search.cancel()
        >>> search.step(), search.booking, table.where("orc", 5)
        ('cancelled', None, (0, 0))
        """
        if self._status == "in_progress":
            self._status = "cancelled"
