"""Cooperative pathfinding for a game loop: a helper that plans a window ahead for every
unit each turn so that none collide (windowed cooperative A*, Silver 2005), and what
it shares with the reservation table (:mod:`pathcraft.mapf._bookings`)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import sipp as _sipp
from pathcraft._validation import check_limit
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._whca import check_window, plan_window

__all__ = ["Cooperative", "GoalDistances", "check_fresh", "node_ids", "places_of"]


def places_of(world: Any, following: bool) -> Problem:
    return Problem.of_places(world, following=following)


def check_fresh(problem: Problem, version: int, what: str, remedy: str) -> None:
    """RuntimeError if ``problem``'s world was edited since its ``version`` was read:
    the places and moves ``what`` holds are the old ones."""
    if getattr(problem.world, "version", 0) != version:
        raise RuntimeError(
            f"the world was edited after the {what} was built: its places and moves "
            f"are the old ones; {remedy}"
        )


def node_ids(
    problem: Problem, name: str, places: Sequence[Hashable], *, distinct: bool = False
) -> npt.NDArray[np.int32]:
    """The node ids of ``places``; ValueError naming the first place not in the world
    (or, with ``distinct``, the first two units sharing one)."""
    if isinstance(places, (str, bytes)) or not hasattr(places, "__len__"):
        raise TypeError(f"{name} must be a sequence of places; got {places!r}")
    nodes = problem.nodes(places)
    bad = np.flatnonzero(nodes < 0)
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name}[{i}] = {places[i]!r} is not a place of the world")
    if distinct and nodes.size:
        order = np.argsort(nodes, kind="stable")
        same = np.flatnonzero(nodes[order][1:] == nodes[order][:-1])
        if same.size:
            a, b = sorted((int(order[same[0]]), int(order[same[0] + 1])))
            raise ValueError(f"{name} must be distinct: units {a} and {b} share {places[a]!r}")
    return nodes


class GoalDistances:
    """Steps to a goal from every node of a problem's world, one table per goal (4
    bytes per place), the ``max_tables`` most recently asked kept."""

    __slots__ = ("_problem", "_tables", "max_tables")

    def __init__(self, problem: Problem, max_tables: Any) -> None:
        tables = check_limit("max_tables", max_tables, integer=True)
        if tables is None or tables < 1:
            raise ValueError(f"max_tables must be an int >= 1; got {max_tables!r}")
        self.max_tables = int(tables)
        self._problem = problem
        self._tables: OrderedDict[int, npt.NDArray[np.int32]] = OrderedDict()

    def __call__(self, goal: int) -> npt.NDArray[np.int32]:
        table = self._tables.get(goal)
        if table is None:
            table = self._problem.steps_to(goal, keep=False)
            self._tables[goal] = table
            if len(self._tables) > self.max_tables:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(goal)
        return table


class Cooperative:
    """Plans the next ``window`` steps of many units at once so that none collide
    (windowed cooperative A*): call :meth:`plan` (or :meth:`step`) every turn with
    where the units are and where they go.

    Each call clears its reservation table, then the units plan in turn (in the order
    given, a fixed priority, but those already at their goals last so they step aside),
    each by safe-interval path planning around the ones before it, guided past the
    window by its true distance to its goal. A unit that finds no plan is tried first
    in a new round. Between calls the units walk the first steps of their plans; replan
    at least every ``window`` steps.

    Parameters
    ----------
    world : world
        Any world that lists its places (the ``"places"`` capability of
        :mod:`pathcraft.world`: grids, hexagonal, move and voxel grids, levels,
        graphs); grid places are cells ``(row, col)``.
    window : int
        Steps planned ahead (>= 1).
    following : bool
        Also keep units from entering a place another leaves in the same step.
    max_tables : int
        The true-distance tables kept (one per goal, 4 bytes per place; the oldest
        goals' go first).

    Examples
    --------
    Two squads swap sides through a door one cell wide:

    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Cooperative
    >>> grid = Grid.from_ascii("..#..\\n.....\\n..#..", diagonal="never")
    >>> coop = Cooperative(grid, window=8)
    >>> units = [(0, 0), (2, 0), (0, 4), (2, 4)]
    >>> goals = [(0, 4), (2, 4), (0, 0), (2, 0)]
    >>> for turn in range(40):
    ...     units = coop.step(units, goals)
    >>> units == goals
    True
    """

    __slots__ = (
        "_arrived",
        "_distances",
        "_goals",
        "_problem",
        "_table",
        "_version",
        "_window",
        "expanded",
    )

    def __init__(
        self,
        world: Any,
        *,
        window: int = 16,
        following: bool = False,
        max_tables: int = 4096,
    ) -> None:
        self._window, _ = check_window(window, None)
        self._problem = places_of(world, following)
        self._version = getattr(world, "version", 0)
        self._distances = GoalDistances(self._problem, max_tables)
        self._table = _sipp.Reservations(self._problem.n_nodes, self._problem.following)
        self._goals: npt.NDArray[np.int32] | None = None
        self._arrived = np.zeros(0, dtype=bool)
        #: Expansions of the last :meth:`plan`.
        self.expanded = 0

    @property
    def window(self) -> int:
        """Steps planned ahead."""
        return self._window

    def plan(
        self, positions: Sequence[Hashable], goals: Sequence[Hashable]
    ) -> list[list[Hashable]]:
        """Every unit's plan for the next ``window`` steps: its place at each step,
        starting where it is, ``window + 1`` places (a unit at its goal early waits
        there). The plans never collide with each other.

        Raises
        ------
        ValueError
            Different numbers of positions and goals, a place not in the world, two
            units in one place or with one goal, a goal a unit cannot reach.
        RuntimeError
            No order of the units gave every unit a plan (rare: units boxed in by
            each other); planning again with fewer units or a shorter window helps.
            Or the world was edited after this helper was built (its places, moves
            and distance tables are the old ones): build a new one.

        Examples
        --------
        Two units in a corridor, the second one step from its goal: each waits at its
        goal once there.

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Cooperative
        >>> coop = Cooperative(Grid.from_ascii(".....", diagonal="never"), window=4)
        >>> for plan in coop.plan([(0, 0), (0, 4)], [(0, 2), (0, 3)]):
        ...     print(plan)
        [(0, 0), (0, 1), (0, 2), (0, 2), (0, 2)]
        [(0, 4), (0, 3), (0, 3), (0, 3), (0, 3)]
        """
        check_fresh(self._problem, self._version, "helper", "build a new Cooperative")
        here = node_ids(self._problem, "positions", positions, distinct=True)
        ends = node_ids(self._problem, "goals", goals, distinct=True)
        if here.size != ends.size:
            raise ValueError(
                f"positions and goals must have one entry per unit; got {here.size} "
                f"positions and {ends.size} goals"
            )
        heads = [self._distances(int(g)) for g in ends.tolist()]
        left = np.array([h[v] for h, v in zip(heads, here.tolist(), strict=True)])
        if left.size and left.min() < 0:
            unit = int(np.argmin(left))
            raise ValueError(f"unit {unit} cannot reach its goal {goals[unit]!r}")
        if self._goals is None or not np.array_equal(self._goals, ends):
            self._arrived = np.zeros(ends.size, dtype=bool)
            self._goals = ends
        self._arrived |= left == 0
        order = [int(a) for a in np.lexsort((np.arange(left.size), self._arrived))]
        plans, self.expanded = plan_window(
            self._table,
            self._problem.indptr,
            self._problem.indices,
            here,
            ends,
            heads,
            order,
            self._window,
            math.inf,
        )
        if plans is None:
            raise RuntimeError("no order of the units gave every unit a plan for the window")
        places = self._problem.places
        out = []
        for plan in plans:
            cells = [places[v] for v in plan[: self._window + 1].tolist()]
            cells += [cells[-1]] * (self._window + 1 - len(cells))
            out.append(cells)
        return out

    def step(self, positions: Sequence[Hashable], goals: Sequence[Hashable]) -> list[Hashable]:
        """Where every unit goes this step: the second place of its :meth:`plan`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Cooperative
        >>> coop = Cooperative(Grid.from_ascii(".....", diagonal="never"), window=4)
        >>> units, goals = [(0, 0), (0, 4)], [(0, 2), (0, 3)]
        >>> units = coop.step(units, goals); units
        [(0, 1), (0, 3)]
        >>> units = coop.step(units, goals); units
        [(0, 2), (0, 3)]
        """
        return [plan[1] for plan in self.plan(positions, goals)]
