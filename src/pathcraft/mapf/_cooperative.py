"""Cooperative pathfinding for a game loop: a reservation table many units share, and a
helper that plans a window ahead for every unit each turn so that none collide
(windowed cooperative A*, Silver 2005)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import sipp as _sipp
from pathcraft._validation import check_limit
from pathcraft.graph import Graph
from pathcraft.grid import Grid
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._whca import check_window, plan_window

__all__ = ["Cooperative", "Reservations"]


def _places_of(world: Any, following: bool) -> Problem:
    if not isinstance(world, (Grid, Graph)):
        raise TypeError(
            f"world must be a Grid or a Graph (its places known in advance); got "
            f"{type(world).__name__}"
        )
    return Problem(world, [], [], following=following)


def _node_ids(
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


class Reservations:
    """A reservation table over a world's places: which place is taken at which time
    step, shared by the units of a game so that their plans do not collide.

    Time runs in whole steps (one move to a neighbouring place, or a wait, per step;
    the rules of :mod:`pathcraft.mapf`). Each unit plans around what the units before it
    reserved (:meth:`plan`) and then reserves its own plan (:meth:`reserve`); at the
    next turn the table is cleared and planned again (:meth:`clear`), or kept when time
    runs on (plan with ``start_time``).

    Parameters
    ----------
    world : Grid or Graph
        Grid places are cells ``(row, col)`` (4- or 8-connected by its rule); graph
        places are node labels.
    following : bool
        Also keep units from entering a place another unit leaves in the same step.

    Examples
    --------
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
    """

    __slots__ = ("_problem", "_table")

    def __init__(self, world: Any, *, following: bool = False) -> None:
        self._problem = _places_of(world, following)
        self._table = _sipp.Reservations(self._problem.n_nodes, self._problem.following)

    @property
    def following(self) -> bool:
        """Whether following conflicts are kept out too."""
        return self._problem.following

    def clear(self) -> None:
        """Drop every reservation."""
        self._table.clear()

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
        with ``forever``, from its arrival there on for good.

        Raises
        ------
        ValueError
            A place not in the world, a negative ``start_time``.
        """
        nodes = _node_ids(self._problem, "path", path)
        start = check_limit("start_time", start_time, integer=True)
        if start is None or start < 0:
            raise ValueError(f"start_time must be an int >= 0; got {start_time!r}")
        end = check_limit("until", until, integer=True)
        self._table.reserve_path(nodes, int(start), -1 if end is None else int(end), bool(forever))

    def is_free(self, place: Hashable, time: int) -> bool:
        """Whether ``place`` is free at time step ``time``."""
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
        plan for the next ``window`` steps (by steps plus the true distance left).
        Safe-interval path planning; the place at every step from ``start_time``, or
        ``[]`` when there is none (or ``max_expansions`` ran out). It reserves nothing.
        """
        node_start = self._problem.node(start)
        node_goal = self._problem.node(goal)
        limit = check_limit("max_expansions", max_expansions, integer=True)
        steps = self._problem.steps_to(node_goal)
        status, path = _sipp.sipp(
            self._table,
            self._problem.indptr,
            self._problem.indices,
            steps,
            node_start,
            node_goal,
            start_time=int(start_time),
            window=int(window),
            max_expansions=-1 if limit is None else int(limit),
        )
        if status != _sipp.SIPP_FOUND or path is None:
            return []
        places = self._problem.places
        return [places[v] for v in path.tolist()]


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
    world : Grid or Graph
        Grid places are cells ``(row, col)``.
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
        "_max_tables",
        "_problem",
        "_table",
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
        tables = check_limit("max_tables", max_tables, integer=True)
        if tables is None or tables < 1:
            raise ValueError(f"max_tables must be an int >= 1; got {max_tables!r}")
        self._max_tables = int(tables)
        self._problem = _places_of(world, following)
        self._table = _sipp.Reservations(self._problem.n_nodes, self._problem.following)
        self._distances: OrderedDict[int, npt.NDArray[np.int32]] = OrderedDict()
        self._goals: npt.NDArray[np.int32] | None = None
        self._arrived = np.zeros(0, dtype=bool)
        #: Expansions of the last :meth:`plan`.
        self.expanded = 0

    @property
    def window(self) -> int:
        """Steps planned ahead."""
        return self._window

    def _steps_to(self, goal: int) -> npt.NDArray[np.int32]:
        table = self._distances.get(goal)
        if table is None:
            table = self._problem.steps_to(goal, keep=False)
            self._distances[goal] = table
            if len(self._distances) > self._max_tables:
                self._distances.popitem(last=False)
        else:
            self._distances.move_to_end(goal)
        return table

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
        """
        here = _node_ids(self._problem, "positions", positions, distinct=True)
        ends = _node_ids(self._problem, "goals", goals, distinct=True)
        if here.size != ends.size:
            raise ValueError(
                f"positions and goals must have one entry per unit; got {here.size} "
                f"positions and {ends.size} goals"
            )
        heads = [self._steps_to(int(g)) for g in ends.tolist()]
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
        """Where every unit goes this step: the second place of its :meth:`plan`."""
        return [plan[1] for plan in self.plan(positions, goals)]
