# cython: annotation_typing=False
# (compiled, the types are in _fast.pxd: annotations stay hints)
"""The fast path of :meth:`Planner.plan`: the default options, facts seen before.

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
change), the search then checking the state's names and types as it reads the values;
else by the key of names, types and goal. The plan is built without its states (see
:class:`Plan`): the search's actions, the start, the counts.
"""

from __future__ import annotations

import contextlib
import math
from array import array
from collections.abc import Sequence
from typing import Any

from pathcraft import _kernels
from pathcraft._core import goap as _kernel
from pathcraft.goap._action import Action
from pathcraft.goap._compile import MissingFactWarning, Problem, missing_fact_warning
from pathcraft.goap._facts import State
from pathcraft.goap._goal import Goal
from pathcraft.goap._packed import Packed
from pathcraft.goap._plan import STATE as _STATE
from pathcraft.goap._plan import Plan, new_state

__all__ = [
    "DEFAULT_MAX_EXPANSIONS", "ONE", "STATUS", "Ask", "Fast", "FastPlans", "build_plan",
    "classes_of", "defaults", "fast_key", "remember",
]  # fmt: skip

#: The default ``max_expansions`` of :meth:`Planner.plan`: enough for every plan a
#: game's agents make in practice (hundreds to thousands of states), small enough that
#: a goal no action sequence reaches over an unbounded fact gives up in under a second
#: (0.75 s measured on a busy 2-core machine) instead of searching until memory runs
#: out. ``max_expansions=None`` lifts it.
DEFAULT_MAX_EXPANSIONS = 20_000
#: The default ``weight`` of :meth:`Planner.plan` (the fast path checks it by identity,
#: as ``max_expansions``: a value given, even the default's, takes the general path).
ONE = 1.0

#: The fields a plan is built with (``path`` and ``states`` come on first access).
_FIELDS = (
    "cost", "found", "reason", "expanded", "generated", "elapsed", "explored",
    "distances", "jump_points", "_parents", "actions", "start", "considered", "goal",
)  # fmt: skip
_FOUND: int = _kernels.FOUND
_PLAN = _kernel.Maker(Plan, _FIELDS)
_CACHE_SIZE = 64
_OTHER: Any = object()  # a state laid out otherwise than the entry's


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
    """A planner's fast entries (see the module docstring)."""

    def __init__(self) -> None:
        self._entries: dict[Any, Fast] = {}
        # id(goal) -> (goal, a copy of it when it is mutable, its entry)
        self._recent: dict[int, tuple[Any, Any, Fast]] = {}
        self._last: Any = None  # the last of them, looked at first

    def plan(
        self, state: Any, goal: Any, weight: Any, tie_break: Any, seed: Any,
        max_expansions: Any, max_depth: Any, max_cost: Any, prune: Any,
    ) -> Plan | None:
        """The plan by an entry kept for this state's names and types and this goal,
        when the options are the defaults (:meth:`Planner.plan`'s, as given to it);
        None when there is none (the caller takes the general path)."""
        if type(state) is not dict or not defaults(
            weight, tie_break, seed, max_expansions, max_depth, max_cost, prune
        ):
            return None
        seen = self._last
        if seen is None or seen[0] is not goal:
            seen = self._recent.get(id(goal))
        if seen is not None and seen[0] is goal and (seen[1] is None or seen[1] == goal):
            self._last = seen
            fast = seen[2]
            plan = fast.plan(state, max_expansions)
            if plan is not _OTHER:
                return plan  # type: ignore[no-any-return]
        entry = self._entry(state, goal)
        if entry is None:
            return None
        kind = type(goal)
        copy = dict(goal) if kind is dict else list(goal) if kind is list else None
        seen = (goal, copy, entry)
        remember(self._recent, id(goal), seen)
        self._last = seen
        plan = entry.plan(state, max_expansions)
        return None if plan is _OTHER else plan

    def remember(self, state: Any, goal: Any, problem: Problem, goals: list[Goal]) -> None:
        """Keep an entry for plans from states like ``state`` toward ``goal`` (after a
        plan with the default options took the general path)."""
        key = fast_key(state, goal)
        if key is not None:
            with contextlib.suppress(TypeError):  # an unhashable value in the goal
                remember(self._entries, key, Fast(problem, goals, state))

    def missing(self, state: Any, goal: Any, start: State) -> MissingFactWarning | None:
        """The warning to give for an unreachable plan this found: a fact the start
        lacks that an action needs (the caller warns, as this module is compiled: its
        functions have no frames for a stack level to count)."""
        seen = self._last  # the entry that made the plan, most often
        fast = seen[2] if seen is not None and seen[0] is goal else self._entry(state, goal)
        return None if fast is None else fast.missing(start)

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
        None, None, None, actions, start, considered, goal,
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
        start = None
        classes = None
        if self._classes is None:  # priorities read on the start state
            types = tuple([type(v) for v in state.values()])
            if tuple(state) != self._keys or types != self._types:
                return _OTHER
            start = self._start(state)
            classes = classes_of(self._goals, start)
        # one search kept at hand, more in the pool while other threads plan too (no
        # Python code runs between a read and a write of these slots: the lock is the GIL)
        search = self._idle
        self._idle = None
        if search is None:
            search = self._pool.pop() if self._pool else self._search()
        try:
            out = search.plan(
                state, -1 if max_expansions is None else max_expansions, classes, start
            )
        finally:
            if self._idle is None:
                self._idle = search
            else:
                self._pool.append(search)
        if out is None:
            return _OTHER
        if out is False:
            return None
        return out

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
            _PLAN, _STATE, tuple(self._goals), self._considered,
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
