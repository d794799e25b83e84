"""A unit that walks its booking in a shared reservation table
(:class:`pathcraft.mapf.Reservations`): what a :class:`~pathcraft.agents.Pursuer`
and each agent of a :class:`~pathcraft.agents.PathFollower` built with
``reservations=`` do instead of planning alone.

Its time is the table's clock: each step it stands where its booking puts it at the
table's next time step (one place per step, or a wait), and it books again when its
target moves, every ``replan`` steps of the table (not once at its goal, nor while its
target stays there), and when its booking ends short of the target.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.world import CapabilityError

__all__ = ["BookedUnits", "BookedWalk", "check_table"]


def check_table(table: Any, world: Any, space: Any) -> None:
    """TypeError unless ``table`` is a reservation table; ValueError unless it is one
    over ``world`` (or the world of the space ``world``)."""
    if not all(callable(getattr(table, n, None)) for n in ("hold", "book", "where", "tick")):
        raise TypeError(
            f"reservations must be a pathcraft.mapf.Reservations; got {type(table).__name__}"
        )
    if table.world is not world and table.world is not getattr(space, "world", None):
        raise ValueError("reservations must be a table over the world the agent moves in")


class BookedWalk:
    """One unit's booking in ``table`` under the key ``owner``, holding ``start`` from
    the table's clock on."""

    __slots__ = ("_at", "_goal", "_table", "booking", "owner")

    def __init__(self, table: Any, owner: Hashable, start: Hashable) -> None:
        table.hold(owner, start)
        self._table = table
        self.owner = owner
        self._goal: Hashable | None = None
        self._at = -1  # the table's time of the last booking (-1: none yet)
        #: The last :class:`~pathcraft.mapf.Booking` (None before the first).
        self.booking: Any = None

    def step(self, goal: Hashable, max_expansions: int | None) -> tuple[str, Hashable, Any]:
        """Book again if due; the status (``"chasing"``, ``"caught"`` or
        ``"unreachable"``), the place at the table's next step, and the new booking
        (None when none was made)."""
        table = self._table
        now = table.now
        booked = None
        if self._due(goal, now):
            booked = table.book(self.owner, goal, max_expansions=max_expansions)
            self.booking = booked
            self._goal = goal
            self._at = now
        node = table.where(self.owner, now + 1)
        if self.booking is not None and self.booking.status == "unreachable":
            return "unreachable", node, booked
        return ("caught" if node == goal else "chasing"), node, booked

    def _due(self, goal: Hashable, now: int) -> bool:
        if goal != self._goal or self.booking is None:
            return True
        ends = self._table.where(self.owner, now + 10**9)
        if ends == goal and self.booking.status == "planned":
            return False  # it walks to its goal and holds it
        return bool(now - self._at >= self._table.replan or self._table.where(self.owner) == ends)

    def waiting(self) -> bool:
        """Its booking keeps it where it is next step, short of its target."""
        now = self._table.now
        here = self._table.where(self.owner, now)
        ahead = self._table.where(self.owner, now + 1)
        return bool(here == ahead) and bool(here != self._goal)

    def steps_left(self) -> int | None:
        """Time steps until its booking ends at its target (None: it ends elsewhere)."""
        table, now = self._table, self._table.now
        if table.where(self.owner, now + 10**9) != self._goal:
            return None
        n = 0
        while table.where(self.owner, now + n) != self._goal:
            n += 1
        return n


class BookedUnits:
    """Many units' walks in one table, under the keys ``(owner, i)``: unit ``i`` from
    the place under ``starts[i]`` to the place under ``ends[i]`` (``(x, y)`` points of
    ``floor``, a floor of ``space``, which names the place under a point with
    ``cell_at``). Every unit holds its place in ``table`` on success, none on failure.

    Raises
    ------
    CapabilityError
        A world that refuses ``"places"``, or whose floor names no place under a point
        (``cell_at``: refused as ``"agent_space"``), naming ``world``.
    TypeError, ValueError
        :func:`check_table`'s; a start place taken (by another unit, or one of these).
    """

    __slots__ = ("_goals", "_space", "walks")

    def __init__(
        self, table: Any, world: Any, space: Any, floor: Any, owner: Hashable,
        starts: npt.NDArray[np.float64], ends: npt.NDArray[np.float64], agent: str,
    ) -> None:  # fmt: skip
        cell_at = getattr(floor, "cell_at", None)
        if not callable(cell_at):
            every = getattr(world, "places", None)
            if callable(every):
                every()  # a world whose places are points refuses "places" by name
            raise CapabilityError(
                type(world).__name__, "agent_space",
                f"a {agent} with reservations stands on places, and its floor names "
                "none under a point",
            )  # fmt: skip
        check_table(table, world, space)
        self._space = space
        self._goals = [space.key(cell_at(p), "paths") for p in ends.tolist()]
        self.walks: list[BookedWalk] = []
        try:
            for i, point in enumerate(starts.tolist()):
                place = space.key(cell_at(point), "positions")
                try:
                    self.walks.append(BookedWalk(table, (owner, i), place))
                except ValueError as exc:
                    raise ValueError(f"positions[{i}]: {exc}") from None
        except BaseException:
            for walk in self.walks:  # nothing held is left behind
                table.release(walk.owner)
            raise

    def step(self) -> tuple[npt.NDArray[np.float64], list[str]]:
        """Every unit's step (:meth:`BookedWalk.step`): the points of their places at
        the table's next step and their statuses."""
        moves = [w.step(g, None) for w, g in zip(self.walks, self._goals, strict=True)]
        point = self._space.point
        places = np.array([point(node) for _, node, _ in moves], dtype=np.float64)
        return places, [status for status, _, _ in moves]

    def waiting(self) -> npt.NDArray[np.bool_]:
        """Which units their bookings keep where they are next step, short of goal."""
        return np.array([w.waiting() for w in self.walks], dtype=bool)

    def steps_left(self) -> npt.NDArray[np.float64]:
        """Each unit's time steps until its booking ends at its goal (inf: elsewhere)."""
        left = [w.steps_left() for w in self.walks]
        return np.array([np.inf if n is None else n for n in left], dtype=np.float64)
