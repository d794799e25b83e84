"""A compiled problem packed for the compiled planner: facts as int64 codes.

A bool is 0 or 1, an int itself, a str its rank among the strings the problem knows
(its actions' and goals' constants, and the start state's), so that order conditions
on strs compare ranks as they compare the strings. A missing fact is
:data:`pathcraft._core.goap.MISSING`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from pathcraft._core import goap as _kernel
from pathcraft.goap._compile import MISSING, Problem
from pathcraft.goap._facts import State

__all__ = ["Packed", "heuristic", "packed"]

_OPS = {"==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5}
_MISSING: int = _kernel.MISSING
_LIMIT: int = _kernel.LIMIT


class Packed:
    """The kernel's tables of one problem, and how its states are coded."""

    __slots__ = ("_kinds", "names", "rank", "strings", "tables")

    def __init__(self, problem: Problem, more: frozenset[str] = frozenset()) -> None:
        names = problem.names
        index = {name: i for i, name in enumerate(names)}
        strings = set(more)
        for step in problem.steps:
            strings.update(v for _i, _c, v in step.pre if isinstance(v, str))
            strings.update(v for _i, v in step.sets if isinstance(v, str))
        for table in problem.goals:
            strings.update(g.value for g in table.facts if isinstance(g.value, str))
        self.strings = sorted(strings)
        self.rank = {s: i for i, s in enumerate(self.strings)}
        self.names = names
        self._kinds = tuple(problem.kinds[name] for name in names)
        code = self.code
        pre, eff, costs = [], [], []
        for step in problem.steps:
            pre.append([
                (index[f], _OPS[c.op], code(c.value, f))
                for f, c in step.action.preconditions.items()
            ])  # fmt: skip
            eff.append(
                [(i, 0, code(v, names[i])) for i, v in step.sets]
                + [(i, 1, _int(d, names[i])) for i, d in step.adds]
            )
            costs.append(None if step.needs_state else step.static)
        goals = [
            (
                [(g.index, _OPS[g.cond.op], code(g.value, names[g.index]), g.set_bound, g.up,
                  g.down, g.any_add) for g in table.facts],
                table.per_action_goals,
                table.min_goal_cost,
            )
            for table in problem.goals
        ]  # fmt: skip
        self.tables = _kernel.Tables(len(names), pre, eff, costs, goals)

    def code(self, value: Any, fact: str) -> int:
        """The code of a constant (strs known to the table)."""
        if isinstance(value, str):
            return self.rank[value]
        return _int(int(value), fact)

    def encode(self, state: State) -> array[int] | None:
        """The packed state; None when it holds a str the tables do not know."""
        out = array("q")
        rank = self.rank
        for name, kind in zip(self.names, self._kinds, strict=True):
            value = state.get(name, _MISSING)
            if value is _MISSING:
                out.append(_MISSING)
            elif kind == "str":
                r = rank.get(value)  # type: ignore[arg-type]
                if r is None:
                    return None
                out.append(r)
            else:
                out.append(_int(int(value), name))
        return out

    def bound(self, which: int, values: tuple[Any, ...]) -> float:
        """The heuristic's bound toward goal ``which`` from fact values (``MISSING``
        of :mod:`pathcraft.goap._compile` for a missing fact)."""
        codes = array("q", [
            _MISSING if v is MISSING else self.code(v, name)
            for v, name in zip(values, self.names, strict=True)
        ])  # fmt: skip
        return float(self.tables.bound_of(which, codes))

    def decode(self, codes: tuple[int, ...]) -> State:
        """The tracked facts of a packed state (missing ones left out)."""
        facts: dict[str, Any] = {}
        strings = self.strings
        for name, kind, c in zip(self.names, self._kinds, codes, strict=True):
            if c == _MISSING:
                continue
            facts[name] = c != 0 if kind == "bool" else strings[c] if kind == "str" else c
        return State.from_checked(facts)


def packed(problem: Problem, start: State) -> tuple[Packed, array[int]]:
    """The problem's tables (built once, then kept on it) and the start state packed;
    a start with strs the tables do not know gets tables of its own."""
    tables = problem.packed
    if tables is None:
        tables = problem.packed = Packed(problem)
    codes = tables.encode(start)
    if codes is None:
        more = frozenset(v for v in start.values() if isinstance(v, str))
        tables = Packed(problem, more)
        codes = tables.encode(start)
        assert codes is not None
    return tables, codes


def _int(value: int, fact: str) -> int:
    if not -_LIMIT <= value <= _LIMIT:
        raise ValueError(
            f"fact {fact!r}: the planner packs int facts and constants within "
            f"-2**62..2**62; got {value!r}"
        )
    return value


def heuristic(problem: Problem, which: int = 0) -> Callable[[tuple[Any, ...]], float]:
    """The planner's bound toward goal ``which`` (by its place in the list compiled)
    from one tuple of fact values (``MISSING`` of :mod:`pathcraft.goap._compile` for a
    missing fact), the tracked facts in the order of ``problem.names``.

    Each unmet goal condition needs at least one action changing its fact, so the
    bound is the larger of (a) the dearest single condition, each bounded by its
    cheapest set effect or, for ints, the distance left times the cheapest cost per
    unit of its add effects, and (b) ceil(unmet / k) actions of the cheapest cost
    among those changing a goal fact, where one action changes at most k goal facts.
    Costs are the actions' ``min_cost`` (a dynamic cost's declared lower bound, else 0).
    And (c), when its facts hold 0 or 1: a pattern database of the goal, the cheapest
    cost to it over up to eight facts only ever set to 0 or 1 (the goal's, then those
    its achievers' preconditions want, then those theirs want, and so on), each action
    running where its preconditions on them hold, at its static cost (0 when dynamic);
    made once per compiled problem.

    The bound is also consistent: an action of cost c changes one condition's term by
    at most c (a set costs at least the set bound, an add of d at least d times the
    cost per unit) and lowers the count of unmet conditions by at most k. The pattern
    database is consistent as any abstraction's exact costs are, and its facts, once at
    0 or 1, stay so. So along any
    action, h drops by at most its cost, and A* settles each state at its cheapest.
    The compiled planner (:mod:`pathcraft._core.goap`) computes it; this reads it.
    """

    def h(values: tuple[Any, ...]) -> float:
        more = frozenset(v for v in values if isinstance(v, str))
        return Packed(problem, more).bound(which, values)

    return h
