# cython: annotation_typing=False
# (compiled, the types are in _fast.pxd: annotations stay hints)
""":meth:`Planner.plan`, compiled, and its fast path: the default options, facts seen
before.

:class:`FastPlans` is the compiled base class of :class:`~pathcraft.goap.Planner`: its
``plan`` is the planner's (a call without a Python frame of ours: a plan that needs no
search costs a few hundred nanoseconds, and a Python call with nine keyword arguments
was a third of it); what is not for the fast path goes to the planner's general path
(``Planner._general``).

An agent replans from states with the same facts, toward the same goals, every few
frames; a small plan takes a microsecond or two of search, so what surrounds it counts.
After a plan with the default options (``weight``, ``tie_break``, ``seed``,
``max_depth``, ``max_cost``, ``prune`` not given) from a dict state, the planner keeps
a :class:`Fast` entry under the state's fact names and value types and the goal: the
checks that depend on nothing else were passed, the problem is compiled, and the
entry keeps searches to reuse (one per thread at a time). A later call with the same
names, types and goal reads the state's values straight into a search.

:class:`FastPlans` finds the entry: first by the goal object itself (the one an agent
passes again and again; kept, with a copy of a mutable goal to see that it did not
change: a dict's pairs, compared in C object by object), the search then checking the
state's names and types as it reads the values; else by the key of names, types and
goal. The plan is built without its states (see
:class:`Plan`): the search's actions, the start, the counts.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from array import array
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import Any, Literal

from pathcraft import _kernels
from pathcraft._core import goap as _kernel
from pathcraft.goap._action import Action
from pathcraft.goap._compile import MissingFactWarning, Problem, missing_fact_warning
from pathcraft.goap._facts import Condition, State, Value
from pathcraft.goap._goal import Goal
from pathcraft.goap._packed import Packed
from pathcraft.goap._plan import Plan, new_state

__all__ = [
    "DEFAULT_MAX_EXPANSIONS", "ONE", "STATUS", "Ask", "Fast", "FastPlans", "GoalArg",
    "build_plan", "classes_of", "defaults", "fast_key", "remember",
]  # fmt: skip

#: What :meth:`Planner.plan` takes as its goal.
GoalArg = Mapping[str, Value | Condition] | Goal | Sequence[Goal]

#: The default ``max_expansions`` of :meth:`Planner.plan`: enough for every plan a
#: game's agents make in practice (hundreds to thousands of states), small enough that
#: a goal no action sequence reaches over an unbounded fact gives up in under a second
#: (0.75 s measured on a busy 2-core machine) instead of searching until memory runs
#: out. ``max_expansions=None`` lifts it.
DEFAULT_MAX_EXPANSIONS = 20_000
#: The default ``weight`` of :meth:`Planner.plan` (the fast path checks it by identity,
#: as ``max_expansions``: a value given, even the default's, takes the general path).
ONE = 1.0

#: The fields a plan is built with (``path`` and ``states`` come on first access, and
#: ``start`` when the search leaves it unset: from ``_facts``).
_FIELDS = (
    "cost", "found", "reason", "expanded", "generated", "elapsed", "explored",
    "distances", "jump_points", "_parents", "actions", "start", "considered", "goal",
    "_facts",
)  # fmt: skip
_FOUND: int = _kernels.FOUND
_UNREACHABLE: int = _kernels.UNREACHABLE
_PLAN = _kernel.Maker(Plan, _FIELDS)
_CACHE_SIZE = 64
_OTHER: Any = object()  # a state laid out otherwise than the entry's


def _same_items(d: dict[Any, Any], items: tuple[Any, ...]) -> bool:
    return tuple(chain.from_iterable(d.items())) == items


#: Whether a dict holds these pairs (key, value, key, value...): compiled, the kernel's
#: (in C, the very objects compared: no hashing, no ``==``), bound by ``_fast.pxd``.
same_items: Callable[[dict[Any, Any], tuple[Any, ...]], bool]
globals().setdefault("same_items", _same_items)


def defaults(
    weight: Any, tie_break: Any, seed: Any, max_expansions: Any, max_depth: Any,
    max_cost: Any, prune: Any,
) -> bool:
    """Whether :meth:`Planner.plan`'s options are its defaults, not given (an option
    given, even at its default value, takes the general path)."""
    return (
        weight is ONE and tie_break == "g" and seed is None and max_depth is None
        and max_cost is None and prune is True
        and (max_expansions is None or max_expansions is DEFAULT_MAX_EXPANSIONS)
    )  # fmt: skip


def remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, forgetting the oldest entry past the cache's size."""
    if len(cache) >= _CACHE_SIZE:  # threads may race here
        with contextlib.suppress(StopIteration, RuntimeError, KeyError):
            cache.pop(next(iter(cache)), None)
    cache[key] = value


class FastPlans:
    """The compiled base of :class:`~pathcraft.goap.Planner`: its ``plan`` and the fast
    entries (see the module docstring); what is not for the fast path goes to the
    planner's ``_general``."""

    def __init__(self) -> None:
        self._entries: dict[Any, Fast] = {}
        # id(goal) -> (goal, a copy of it when it is mutable, its entry)
        self._recent: dict[int, tuple[Any, Any, Fast]] = {}
        # the last of them, looked at first (compiled: C fields, no tuple to index)
        self._last_goal: Any = None
        self._last_copy: Any = None
        self._last_entry: Fast | None = None

    def plan(
        self,
        state: Mapping[str, Value],
        goal: GoalArg,
        *,
        weight: float = ONE,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: Any = None,
        max_expansions: int | None = DEFAULT_MAX_EXPANSIONS,
        max_depth: int | None = None,
        max_cost: float | None = None,
        prune: bool = True,
    ) -> Plan:
        """The cheapest plan from ``state`` to a state meeting ``goal``.

        A forward A* (:func:`pathcraft.search.astar`) over world states: a node is a
        state, its neighbours are the states the applicable actions lead to, and a
        step costs the action's cost in the state it runs in.

        Parameters
        ----------
        state : mapping
            The current world state: fact name to a bool, int or str.
        goal : mapping, Goal or sequence of Goal
            Fact name to a plain value (equality) or a condition such as ``le(0)``;
            every one must hold at the end. Or a :class:`~pathcraft.goap.Goal`, or
            several: then **one search** finds the plan to the highest priority goal
            that some plan reaches (priorities read on ``state``), the cheapest to
            it; among goals of equal priority, the cheapest plan to any of them.
            :attr:`Plan.goal` names the goal served (see :class:`PlanSearch` for why
            one search is enough).
        weight : float
            ``>= 1``; weighted A*: the plan costs at most ``weight`` times the optimum.
        tie_break : {"g", "fifo", "random"}
            As in :func:`pathcraft.search.astar`. ``"random"`` also tries the actions
            in a random order at each state, so among equally cheap plans each
            ``seed`` picks its own, reproducibly: agents with equal choices vary.
        seed : int or None
            Seed of the ``"random"`` tie-breaking.
        max_expansions : int or None
            Expand at most this many states; then ``reason="max_expansions"``. The
            default, ``DEFAULT_MAX_EXPANSIONS`` (20,000 states, under a second),
            keeps a goal no plan reaches over an unbounded int fact from searching
            until memory runs out; None lifts the limit.
        max_depth : int or None
            Plans of at most this many actions. With it, a node is a state *and* the
            number of actions taken (the same state reached in fewer actions may
            still lead on when a cheaper, longer way to it could not), so the plan is
            the cheapest among those this short; a search that ran out of states
            because of the limit reports ``reason="max_depth"``.
        max_cost : float or None
            Never follow a plan prefix costing more than this; then
            ``reason="max_cost"``.
        prune : bool
            Relevant-action pruning (default on): only actions that change a fact the
            goal needs are considered, where a fact is needed when the goal names it,
            or a considered action's precondition does, or a considered action's
            ``check`` or dynamic cost reads it (its ``reads``, or every fact when not
            declared). Closed this way, no optimal plan is lost, and the states
            searched track the needed facts only; the reported states carry every
            fact. ``prune=False`` searches with every action over every fact.

        Returns
        -------
        Plan
            Truthy with the actions, the state after each and the total cost; falsy
            with ``reason`` when there is none.

        Warns
        -----
        MissingFactWarning
            When no plan is found (``reason="unreachable"``) and the start state lacks
            a fact that a considered action's precondition needs: the warning names
            the fact and the action (a missing fact meets no condition).

        Raises
        ------
        TypeError
            A state, goal, precondition or effect of the wrong kind (a str fact
            compared with an int, ``add`` on a bool...), naming the fact; a bad option.
        ValueError
            A goal or precondition naming a fact that neither the state nor any action
            knows; ``add`` on a fact the state lacks; ``weight < 1``; an unknown
            ``tie_break``; a dynamic cost that is negative, NaN or below its
            ``min_cost`` (naming the action), found during the search.

        Examples
        --------
        >>> from pathcraft.goap import Action, Planner
        >>> planner = Planner([
        ...     Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
        ...     Action("chop", {"has_axe": True}, {"wood": True}, cost=1),
        ...     Action("punch_tree", {}, {"wood": True}, cost=5),
        ... ])
        >>> plan = planner.plan({"has_axe": False, "wood": False}, {"wood": True})
        >>> plan.names, plan.cost
        (['get_axe', 'chop'], 3.0)
        >>> planner.plan({"has_axe": False, "wood": False}, {"wood": True},
        ...              max_expansions=1).reason
        'max_expansions'

        Notes
        -----
        The heuristic is admissible: every unmet goal condition needs an action that
        changes its fact, so it is at least the largest over unmet conditions of the
        cheapest such way (a set effect, or for an int fact the distance left times the
        cheapest cost per unit of its ``add`` effects), and at least ``ceil(unmet / k)``
        times the cheapest action changing a goal fact, where no action changes more
        than ``k`` of them; and at least the exact cost to the goal over a few of its
        facts alone (a pattern database over up to eight facts only ever set to 0 or
        1: the goal's, then those its achievers' preconditions want, then those
        theirs want, and so on; built once per compiled goal). Dynamic costs count as
        their ``min_cost`` (0 when not declared; 0 in the pattern database). With
        ``weight=1`` the plan is optimal.

        Before searching, the planner finds the values at 0 and 1 (bools, and ints or
        ranks of strs equal to 0 or 1) that any sequence of actions could give the
        facts when what effects undo is ignored; a goal asking "equals" one outside
        them is out of reach (every other condition counts as reachable), so a goal
        out of reach ends ``"unreachable"`` with nothing expanded, and among several
        goals a priority class with no goal in reach is passed over without being
        searched. A start that meets a goal of the first class is answered without
        the search (``expanded`` 1, as the search would count).
        """
        if type(state) is dict and defaults(
            weight, tie_break, seed, max_expansions, max_depth, max_cost, prune
        ):
            plan = self._quick(state, goal, max_expansions)
            if plan is not None:
                return plan
        return self._general(
            state, goal, weight, tie_break, seed, max_expansions, max_depth, max_cost, prune
        )

    def _general(
        self, state: Mapping[str, Value], goal: GoalArg, weight: float, tie_break: Any,
        seed: Any, max_expansions: int | None, max_depth: int | None,
        max_cost: float | None, prune: bool,
    ) -> Plan:
        """The plan by the general path (:class:`~pathcraft.goap.Planner` has it)."""
        raise NotImplementedError

    def _quick(
        self, state: dict[str, Any], goal: Any, max_expansions: int | None
    ) -> Plan | None:
        """The plan by an entry kept for this state's names and types and this goal
        (the options are the defaults); None when there is none."""
        entry = self._last_entry
        if goal is not self._last_goal or entry is None:
            entry = None
            seen = self._recent.get(id(goal))
            if seen is not None and seen[0] is goal:
                self._last_goal, self._last_copy, self._last_entry = seen
                entry = self._last_entry
        if entry is not None:
            copy = self._last_copy
            # the goal not changed in place since: a dict's pairs, a list's goals
            if copy is None or (
                same_items(goal, copy) if type(copy) is tuple else copy == goal  # noqa: F821
            ):
                plan = entry.plan(state, max_expansions)
                if plan is not _OTHER:
                    return plan  # type: ignore[no-any-return]
        return self._first(state, goal, max_expansions)  # type: ignore[no-any-return]

    def _first(self, state: dict[str, Any], goal: Any, max_expansions: int | None) -> Any:
        """:meth:`_quick` for a goal other than the last: its entry by the key of the
        state's names and types and the goal, kept as the last (None: none)."""
        entry = self._entry(state, goal)
        if entry is None:
            return None
        kind = type(goal)
        copy = (
            tuple(chain.from_iterable(goal.items())) if kind is dict
            else list(goal) if kind is list else None
        )  # fmt: skip
        remember(self._recent, id(goal), (goal, copy, entry))
        self._last_goal = goal
        self._last_copy = copy
        self._last_entry = entry
        plan = entry.plan(state, max_expansions)
        return None if plan is _OTHER else plan

    def _keep(self, state: Any, goal: Any, problem: Problem, goals: list[Goal]) -> None:
        """Keep an entry for plans from states like ``state`` toward ``goal`` (after a
        plan with the default options took the general path)."""
        key = fast_key(state, goal)
        if key is not None:
            with contextlib.suppress(TypeError):  # an unhashable value in the goal
                remember(self._entries, key, Fast(problem, goals, state))

    def _entry(self, state: Any, goal: Any) -> Fast | None:
        key = fast_key(state, goal)
        if key is None:
            return None
        try:
            return self._entries.get(key)
        except TypeError:  # an unhashable value in the goal
            return None


def build_plan(
    reason: str | None,
    actions: tuple[Action, ...],
    start: State,
    goal: Goal | None,
    elapsed: float,
    expanded: int,
    generated: int,
    considered: int,
    cost: float = math.inf,
) -> Plan:
    """The plan, its fields as :func:`pathcraft.result.build_result` sets them (no path
    and an infinite cost unless found), set directly: a plan is built on every call of
    a planner whose smallest plans take a few microseconds, and the dataclass's checked
    ``__init__`` took most of them. The states after each action come on first access
    (replayed from the full start state, so effects on facts the search did not track
    appear too)."""
    found = reason is None
    return _PLAN.make((  # type: ignore[no-any-return]
        cost if found else math.inf, found, reason, expanded, generated, elapsed, None,
        None, None, None, actions, start, considered, goal, None,
    ))  # fmt: skip


def fast_key(state: Any, goal: Any) -> Any:
    """The key of a plan call's fast entry, or None when it has none (a state that is
    not a plain dict, a goal of another kind); it may hold unhashable values."""
    if type(state) is not dict:
        return None
    kind = type(goal)
    try:
        if kind is dict:
            g: Any = tuple(goal.items())
        elif kind is Goal:
            g = goal
        elif kind is list or kind is tuple:
            g = tuple(goal)
        else:
            return None
        return (tuple(state), tuple([type(v) for v in state.values()]), kind, g)
    except TypeError:
        return None


def classes_of(goals: Sequence[Goal], start: State) -> list[list[int]]:
    """The goals' indices grouped by priority (read on the start state), highest first."""
    if len(goals) == 1:
        return [[0]]
    by: dict[float, list[int]] = {}
    for i, g in enumerate(goals):
        by.setdefault(g.priority_in(start), []).append(i)
    return [by[p] for p in sorted(by, reverse=True)]


class Fast:
    """What a plan call with a known key needs (see the module docstring)."""

    def __init__(self, problem: Problem, goals: list[Goal], state: dict[str, Any]) -> None:
        tables = problem.packed
        if tables is None:
            tables = problem.packed = Packed(problem)
        self._problem = problem
        self._tables: Packed = tables
        self._goals = goals
        keys = list(state)
        self._keys = tuple(keys)
        self._types = tuple([type(v) for v in state.values()])
        where = {name: i for i, name in enumerate(keys)}
        self._positions = tuple(where.get(name, -1) for name in problem.names)
        self._strs = tuple(problem.kinds[name] == "str" for name in problem.names)
        self._sorted = keys == sorted(keys)
        self._names = tuple(sorted(keys))
        dynamic = any(callable(g.priority) for g in goals)
        self._classes = None if dynamic else classes_of(goals, State(state))
        self._actions = tuple(step.action for step in problem.steps)
        self._considered = len(self._actions)
        self._idle: Any = None
        self._pool: list[Any] = []
        self._missing: Any = self  # not looked for yet
        self._idle = self._search()  # made now: the first plan it serves costs no more

    def missing(self, start: State) -> MissingFactWarning | None:
        """The warning naming a fact the start lacks that an action needs, if any: the
        same for every state of this entry (they have the same facts), found once."""
        if self._missing is self:
            self._missing = missing_fact_warning(self._problem, start)
        return self._missing  # type: ignore[no-any-return]

    def plan(self, state: dict[str, Any], max_expansions: int | None) -> Any:
        """The plan; ``_OTHER`` when the state's names or value types are not this
        entry's; None when it holds a str the tables do not know (the caller takes the
        general path)."""
        # the rare cases in methods of their own: the common one's code kept short
        start = None
        classes = None
        if self._classes is None:  # priorities read on the start state
            start = self._dynamic(state)
            if start is None:
                return _OTHER
            classes = classes_of(self._goals, start)
        # one search kept at hand, more in the pool while other threads plan too (no
        # Python code runs between a read and a write of these slots: the lock is the
        # GIL); a search that raised is dropped (the next is made anew)
        search = self._idle
        self._idle = None
        if search is None:
            search = self._spare()
        out = search.plan(state, -1 if max_expansions is None else max_expansions, classes, start)
        if self._idle is None:
            self._idle = search
        else:
            self._pool.append(search)
        if out is None:
            return _OTHER
        if out is False:
            return None
        if search.status == _UNREACHABLE and self._missing is not None:
            self._warn(out)
        return out

    def _dynamic(self, state: dict[str, Any]) -> State | None:
        """The start state, for priorities read on it; None when the state's names or
        value types are not this entry's."""
        types = tuple([type(v) for v in state.values()])
        if tuple(state) != self._keys or types != self._types:
            return None
        return self._start(state)

    def _spare(self) -> Any:
        """A search for a plan while the one at hand serves another thread's."""
        return self._pool.pop() if self._pool else self._search()

    def _warn(self, plan: Plan) -> None:
        """Warn of a fact the start lacks that an action needs (an unreachable plan)."""
        missing = self.missing(plan.start)  # type: ignore[arg-type]
        if missing is not None:  # compiled, this has no frame: level 1 is the caller's
            warnings.warn(missing, stacklevel=1)

    def _start(self, state: dict[str, Any]) -> State:
        return new_state(state.copy() if self._sorted else {n: state[n] for n in self._names})

    def _search(self) -> Any:
        tables = self._tables
        ask = Ask(self._problem, tables) if tables.tables.callbacks else None
        width = tables.tables.width
        search = _kernel.Search(
            tables.tables, array("q", [_kernel.MISSING] * width),
            self._classes or [list(range(len(self._goals)))], ask, 1.0, 0, 0, -1, -1, math.inf,
        )  # fmt: skip
        search.bind(
            self._keys, self._types, self._positions, self._strs, tables.rank, self._actions,
            _PLAN, tuple(self._goals), self._considered,
            None if self._sorted else self._names, STATUS,
        )  # fmt: skip
        return search


class Ask:
    """The Python half of actions with a check or a dynamic cost: the kernel calls it
    with a step, a node and the search; the State is built once per packed state."""

    __slots__ = ("_codes", "_packed", "_state", "_steps")

    def __init__(self, problem: Problem, tables: Packed) -> None:
        self._steps = problem.steps
        self._packed = tables
        self._codes: tuple[int, ...] | None = None
        self._state = State()

    def __call__(self, s: int, node: int, search: Any) -> float:
        codes = search.state(node)
        if codes != self._codes:
            self._state = self._packed.decode(codes)
            self._codes = codes
        state = self._state
        step = self._steps[s]
        check = step.action.check
        if check is not None and not check(state):
            return -1.0
        return step.static if step.static is not None else step.action.cost_in(state)


#: The words of the kernel's outcomes (as :attr:`PathResult.reason` spells them).
STATUS = {
    _kernels.FOUND: "found", _kernels.UNREACHABLE: "unreachable",
    _kernels.MAX_EXPANSIONS: "max_expansions", _kernels.MAX_COST: "max_cost",
    _kernel.MAX_DEPTH: "max_depth", _kernels.IN_PROGRESS: "in_progress",
}  # fmt: skip
