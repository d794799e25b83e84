"""The fast path of :meth:`Planner.plan`: the default options, facts seen before.

An agent replans from states with the same facts, toward the same goals, every few
frames; a small plan takes a few microseconds of search, so what surrounds it counts.
After a plan with the default options (``weight``, ``tie_break``, ``seed``,
``max_depth``, ``max_cost``, ``prune`` not given) from a dict state, the planner keeps
a :class:`Fast` entry under the state's fact names and value types and the goal: the
checks that depend on nothing else were passed, the problem is compiled, and the
entry keeps searches to reuse (one per thread at a time). A later call with the same
names, types and goal reads the state's values straight into a search.
"""

from __future__ import annotations

import math
import time
from array import array
from collections.abc import Sequence
from typing import Any, cast

from pathcraft import _kernels
from pathcraft._core import goap as _kernel
from pathcraft.goap._action import Action
from pathcraft.goap._compile import MissingFactWarning, Problem, missing_fact_warning
from pathcraft.goap._facts import State
from pathcraft.goap._goal import Goal
from pathcraft.goap._packed import Packed
from pathcraft.goap._plan import Plan

__all__ = ["STATUS", "Ask", "Fast", "build_plan", "classes_of", "fast_key", "fast_plan"]

_FIELDS = (
    "path", "cost", "found", "reason", "expanded", "generated", "elapsed", "explored",
    "distances", "jump_points", "_parents", "actions", "states", "start", "considered",
    "goal",
)  # fmt: skip
_FOUND: int = _kernels.FOUND
_PLAN = _kernel.Maker(Plan, _FIELDS)
_STATE = _kernel.Maker(State, ("_facts", "_hash"))


def fast_plan(
    entries: dict[Any, Fast], state: Any, goal: Any, max_expansions: int | None, t0: float
) -> tuple[Plan | None, Any, MissingFactWarning | None]:
    """The plan by the entry kept for this call, or None; the call's key (None when
    it can have no entry); the warning to give when the plan is unreachable for a
    fact the start lacks (the caller warns: this module is compiled, so its
    functions have no frames for a stack level to count)."""
    key = fast_key(state, goal)
    if key is None:
        return None, None, None
    try:
        fast = entries.get(key)
    except TypeError:  # an unhashable value in the goal
        return None, None, None
    if fast is None:
        return None, key, None
    plan = fast.plan(state, max_expansions, t0)
    if plan is None or plan.reason != "unreachable":
        return plan, key, None
    return plan, key, fast.missing(cast(State, plan.start))


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
    """The plan: the states after each action replayed from the full start state (so
    effects on facts the search did not track appear too), the fields as
    :func:`pathcraft.result.build_result` sets them (no path and an infinite cost
    unless found), set directly: a plan is built on every call of a planner whose
    smallest plans take a few microseconds, and the dataclass's checked ``__init__``
    took most of them."""
    return _make(
        reason, actions, start, start.to_dict(), goal, elapsed, expanded, generated,
        considered, cost,
    )  # fmt: skip


def _make(
    reason: str | None,
    actions: tuple[Action, ...],
    start: State,
    facts: dict[str, Any],
    goal: Goal | None,
    elapsed: float,
    expanded: int,
    generated: int,
    considered: int,
    cost: float,
) -> Plan:
    """:func:`build_plan` with the start's facts given (a dict sorted by name, left
    unchanged: the fast path has it already, and the copy cost a tenth of a plan)."""
    after = _STATE.replay(facts, actions) if actions else []
    found = reason is None
    values = (
        [start, *after] if found else [], cost if found else math.inf, found, reason,
        expanded, generated, elapsed, None, None, None, None, actions, tuple(after), start,
        considered, goal,
    )  # fmt: skip
    return _PLAN.make(values)  # type: ignore[no-any-return]


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

    __slots__ = (
        "_actions", "_classes", "_goals", "_missing", "_names", "_pool", "_positions",
        "_problem", "_sorted", "_strs", "_tables",
    )  # fmt: skip

    def __init__(self, problem: Problem, goals: list[Goal], state: dict[str, Any]) -> None:
        tables = problem.packed
        if tables is None:
            tables = problem.packed = Packed(problem)
        self._problem = problem
        self._tables: Packed = tables
        self._goals = goals
        keys = list(state)
        where = {name: i for i, name in enumerate(keys)}
        self._positions = tuple(where.get(name, -1) for name in problem.names)
        self._strs = tuple(problem.kinds[name] == "str" for name in problem.names)
        self._sorted = keys == sorted(keys)
        self._names = tuple(sorted(keys))
        dynamic = any(callable(g.priority) for g in goals)
        self._classes = None if dynamic else classes_of(goals, State(state))
        self._actions = tuple(step.action for step in problem.steps)
        self._pool: list[Any] = []
        self._missing: Any = self  # not looked for yet

    def missing(self, start: State) -> MissingFactWarning | None:
        """The warning naming a fact the start lacks that an action needs, if any: the
        same for every state of this entry (they have the same facts), found once."""
        if self._missing is self:
            self._missing = missing_fact_warning(self._problem, start)
        return self._missing  # type: ignore[no-any-return]

    def plan(self, state: dict[str, Any], max_expansions: int | None, t0: float) -> Plan | None:
        """The plan, or None when the state holds a str the tables do not know (the
        caller takes the general path)."""
        facts = state.copy() if self._sorted else {n: state[n] for n in self._names}
        start = _STATE.state(facts)
        goals = self._goals
        classes = self._classes
        try:
            search = self._pool.pop()
        except IndexError:
            search = self._search()
        if not search.reset(
            tuple(state.values()), self._tables.rank,
            None if classes is not None else classes_of(goals, start),
            -1 if max_expansions is None else max_expansions,
        ):  # fmt: skip
            return None
        actions = self._actions
        status, path, cost, goal, expanded, generated = search.solve(actions)
        self._pool.append(search)
        reason = None if status == _FOUND else STATUS[status]
        return _make(
            reason, path, start, facts, goals[goal],
            time.perf_counter() - t0, expanded, generated, len(actions), cost,
        )  # fmt: skip

    def _search(self) -> Any:
        tables = self._tables
        ask = Ask(self._problem, tables) if tables.tables.callbacks else None
        width = tables.tables.width
        search = _kernel.Search(
            tables.tables, array("q", [_kernel.MISSING] * width),
            self._classes or [list(range(len(self._goals)))], ask, 1.0, 0, 0, -1, -1, math.inf,
        )  # fmt: skip
        search.bind(self._positions, self._strs)
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
