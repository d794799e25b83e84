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

import time
import warnings
from collections.abc import Sequence
from typing import Any

from pathcraft._core import goap as _kernel
from pathcraft.goap._compile import Problem, missing_fact_warning
from pathcraft.goap._facts import State
from pathcraft.goap._goal import Goal
from pathcraft.goap._packed import Packed
from pathcraft.goap._plan import Plan, build_plan
from pathcraft.goap._search import STATUS, Ask

__all__ = ["Fast", "classes_of", "fast_key"]


def fast_key(state: Any, goal: Any) -> Any:
    """The key of a plan call's fast entry, or None when it has none (a state that is
    not a plain dict, a goal of another kind, or unhashable values)."""
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
        key = (tuple(state), tuple(map(type, state.values())), kind, g)
        hash(key)
    except TypeError:
        return None
    return key


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
        "_classes", "_goals", "_names", "_pool", "_positions", "_problem", "_sorted",
        "_strs", "_tables",
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
        self._pool: list[Any] = []

    def plan(self, state: dict[str, Any], max_expansions: int | None, t0: float) -> Plan | None:
        """The plan, or None when the state holds a str the tables do not know (the
        caller takes the general path)."""
        facts = state.copy() if self._sorted else {n: state[n] for n in self._names}
        start = State.from_checked(facts)
        goals = self._goals
        classes = self._classes
        try:
            search = self._pool.pop()
        except IndexError:
            search = self._search()
        if not search.reset(
            tuple(state.values()), self._positions, self._strs, self._tables._rank,
            classes if classes is not None else classes_of(goals, start),
            -1 if max_expansions is None else max_expansions,
        ):  # fmt: skip
            return None
        status, path, cost, goal, expanded, generated = search.solve()
        self._pool.append(search)
        steps = self._problem.steps
        reason = STATUS[status]
        if reason == "unreachable" and (missing := missing_fact_warning(self._problem, start)):
            warnings.warn(missing, stacklevel=3)
        return build_plan(
            None if status == _kernel.FOUND else reason,
            tuple([steps[s].action for s in path]), start, goals[goal],
            time.perf_counter() - t0, expanded, generated, len(steps), cost,
        )  # fmt: skip

    def _search(self) -> Any:
        tables = self._tables
        ask = Ask(self._problem, tables) if tables.tables.callbacks else None
        width = tables.tables.width
        return _kernel.Search(
            tables.tables, _kernel_start(width), [list(range(len(self._goals)))], ask,
            1.0, 0, 0, -1, -1, float("inf"),
        )  # fmt: skip


def _kernel_start(width: int) -> Any:
    from array import array

    return array("q", [_kernel.MISSING] * width)
