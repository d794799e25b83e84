"""Compiling a planning problem: checks, relevant actions, the heuristic's tables.

A search node tracks only the facts some considered action or a goal depends on,
sorted by name; :mod:`pathcraft.goap._packed` packs them into int64 codes for the
compiled planner, :mod:`pathcraft._core.goap`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pathcraft.goap._action import Action
from pathcraft.goap._facts import OPERATORS, Add, Condition, State, Value, kind_of

__all__ = [
    "MISSING",
    "GoalTable",
    "MissingFactWarning",
    "Problem",
    "Step",
    "compile_problem",
    "missing_fact_warning",
]

_INF = math.inf


class _Missing:
    """The value of a fact the state does not have (yet): it meets no condition."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(slots=True)
class Step:
    """An action compiled against the tracked facts (indices into the node tuple)."""

    action: Action
    pre: list[tuple[int, Callable[[Any, Any], bool], Value]]  # fact index, compare, value
    sets: list[tuple[int, Value]]
    adds: list[tuple[int, int]]
    static: float | None  # the cost, or None for a dynamic one
    needs_state: bool  # check or dynamic cost: build a State for it


@dataclass(slots=True)
class _GoalFact:
    """A goal condition with the tables its cost bound needs."""

    index: int
    cond: Condition
    compare: Callable[[Any, Any], bool]  # the condition's operator
    value: Value  # the condition's value
    set_bound: float  # cheapest way to meet it with a set effect among the actions used
    up: float  # cheapest cost per unit increase by add effects (inf: none)
    down: float  # cheapest cost per unit decrease
    any_add: float  # cheapest add effect of any nonzero delta


@dataclass(slots=True)
class GoalTable:
    """One goal compiled: its conditions with their bounds, and the count bound's terms."""

    facts: list[_GoalFact]
    per_action_goals: int  # most goal facts one considered action changes
    min_goal_cost: float  # cheapest considered action that changes a goal fact


@dataclass(slots=True)
class Problem:
    names: tuple[str, ...]  # the tracked facts, sorted
    kinds: dict[str, str]  # every fact known to the start state or an effect: its kind
    steps: list[Step]
    goals: list[GoalTable]  # in the order given
    packed: Any = None  # the kernel's tables (pathcraft.goap._packed), built on first use


GoalSpec = tuple[str, dict[str, Condition]]  # who owns it (for messages), conditions


def compile_problem(
    actions: tuple[Action, ...],
    kinds: dict[str, str],
    goal: dict[str, Condition] | list[GoalSpec],
    prune: bool,
) -> Problem:
    """Check the problem, choose the relevant actions and compile them.

    ``kinds`` maps each fact of the start state to its kind; ``goal`` is one goal's
    conditions or a list of ``(owner, conditions)``, one per goal (the facts tracked
    and the actions considered serve them all).
    """
    goals = [("goal", goal)] if isinstance(goal, dict) else goal
    # Every fact known to the state or to an action's effect, with one kind each.
    kinds = dict(kinds)
    for action in actions:
        for fact, effect in action.effects.items():
            if isinstance(effect, Add):
                if fact not in kinds:
                    raise ValueError(
                        f"action {action.name!r} adds to fact {fact!r}, which the start "
                        "state lacks; give the fact a starting value"
                    )
                if kinds[fact] != "int":
                    raise TypeError(
                        f"action {action.name!r} adds to fact {fact!r}, which is a "
                        f"{kinds[fact]}; add(n) works on int facts"
                    )
                continue
            kind = kind_of(effect)
            assert kind is not None  # Action checked it
            known = kinds.setdefault(fact, kind)
            if known != kind:
                raise TypeError(
                    f"action {action.name!r} sets fact {fact!r} to {effect!r} (a {kind}), "
                    f"but the fact is a {known} elsewhere"
                )

    def check_conditions(owner: str, conds: Mapping[str, Condition], what: str) -> None:
        for fact, cond in conds.items():
            if fact not in kinds:
                raise ValueError(
                    f"{owner}: the {what} names fact {fact!r}, which neither the start "
                    "state nor any action's effects know"
                )
            kind = kind_of(cond.value)
            if kind != kinds[fact]:
                raise TypeError(
                    f"{owner}: the {what} {cond!r} on fact {fact!r} compares a "
                    f"{kinds[fact]} fact with a {kind}"
                )
            if cond.op not in ("==", "!=") and kinds[fact] == "bool":
                raise TypeError(f"{owner}: the {what} {cond!r} orders the bool fact {fact!r}")

    for owner, conds in goals:
        check_conditions(owner, conds, "goal")
    for action in actions:
        owner = f"action {action.name!r}"
        check_conditions(owner, action.preconditions, "precondition")
        for fact in action.reads or ():
            if fact not in kinds:
                raise ValueError(
                    f"{owner}: reads names fact {fact!r}, which neither the start state "
                    "nor any action's effects know"
                )

    # Relevant actions: those changing a needed fact, closed through what they read.
    every = set(kinds)
    if prune:
        needed = {fact for _owner, conds in goals for fact in conds}
        used = [False] * len(actions)
        changed = True
        while changed:
            changed = False
            for i, action in enumerate(actions):
                if used[i] or needed.isdisjoint(action.effects):
                    continue
                used[i] = changed = True
                needed.update(action.preconditions)
                if action.check is not None or action.dynamic:
                    needed.update(every if action.reads is None else action.reads)
        chosen = [a for a, u in zip(actions, used, strict=True) if u]
    else:
        needed, chosen = every, list(actions)

    names = tuple(sorted(needed))
    index = {name: i for i, name in enumerate(names)}
    steps = []
    for action in chosen:
        sets: list[tuple[int, Value]] = []
        adds: list[tuple[int, int]] = []
        for fact, effect in action.effects.items():
            if fact in index:  # effects on untracked facts matter to no tracked action
                if isinstance(effect, Add):
                    adds.append((index[fact], effect.delta))
                else:
                    sets.append((index[fact], effect))
        steps.append(
            Step(
                action,
                [(index[f], OPERATORS[c.op], c.value) for f, c in action.preconditions.items()],
                sets,
                adds,
                None if action.dynamic else action.min_cost,
                action.check is not None or action.dynamic,
            )
        )

    tables = [_goal_table(steps, index, conds) for _owner, conds in goals]
    return Problem(names, kinds, steps, tables)


def _goal_table(steps: list[Step], index: dict[str, int], goal: dict[str, Condition]) -> GoalTable:
    """The heuristic's tables for one goal."""
    goal_facts = []
    for fact, cond in goal.items():
        i = index[fact]
        set_any = set_sat = up = down = any_add = _INF
        for step in steps:
            lb = step.action.min_cost
            for j, value in step.sets:
                if j == i:
                    set_any = min(set_any, lb)
                    if cond.test(value):
                        set_sat = min(set_sat, lb)
            for j, delta in step.adds:
                if j == i and delta != 0:
                    any_add = min(any_add, lb)
                    if delta > 0:
                        up = min(up, lb / delta)
                    else:
                        down = min(down, lb / -delta)
        # With add effects, a set to any value may be followed by adds that finish the
        # job; without them the last set must itself meet the condition.
        set_bound = set_any if any_add < _INF else set_sat
        goal_facts.append(
            _GoalFact(i, cond, OPERATORS[cond.op], cond.value, set_bound, up, down, any_add)
        )

    goal_index = {g.index for g in goal_facts}
    per_action, min_goal = 0, _INF
    for step in steps:
        touched = {j for j, _ in step.sets} | {j for j, d in step.adds if d != 0}
        count = len(touched & goal_index)
        if count:
            per_action = max(per_action, count)
            min_goal = min(min_goal, step.action.min_cost)
    return GoalTable(goal_facts, per_action, min_goal)


class MissingFactWarning(UserWarning):
    """A plan came back unreachable while the start state lacks a fact that an
    action's precondition needs (a missing fact meets no condition): the likely
    reason, named, so that "unreachable" is not the only word a caller gets.

    Examples
    --------
    >>> import warnings
    >>> from pathcraft.goap import Action, MissingFactWarning, Planner
    >>> planner = Planner([
    ...     Action("eat", {"has_food": True}, {"hungry": False}),
    ...     Action("drop_food", {"has_food": True}, {"has_food": False}),
    ... ])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     plan = planner.plan({"hungry": True}, {"hungry": False})
    >>> plan.reason, caught[0].category is MissingFactWarning
    ('unreachable', True)
    """


def missing_fact_warning(problem: Problem, start: State) -> MissingFactWarning | None:
    """Why a plan may be unreachable because the start state lacks a fact: a warning
    naming the first missing fact a considered action's precondition needs, or None.
    Goal facts may well be missing at the start (actions set them); one that no action
    can give is refused before the search."""
    for i, name in enumerate(problem.names):
        if name in start:
            continue
        for step in problem.steps:
            if any(index == i for index, _compare, _value in step.pre):
                cond = step.action.preconditions[name]
                return MissingFactWarning(
                    f"no plan reaches the goal, and the start state lacks fact {name!r}, "
                    f"which action {step.action.name!r} needs ({name} {cond!r}); give the "
                    "fact a starting value (a missing fact meets no condition)"
                )
    return None
