"""GOAP test domains as raw data, and the exhaustive oracle that reads them.

The oracle is a plain uniform-cost search over every reachable world state, written
here from the domain's raw data (fact, operator string, value) with its own condition
and effect code: it shares nothing with pathcraft's search or pathcraft.goap.
"""

from __future__ import annotations

import heapq
import itertools
import math
import operator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import strategies as st

from pathcraft.goap import Action, Plan, Planner, State, add, eq, ge, gt, le, lt, ne

# --------------------------------------------------------------------------- domains

OPS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip
BUILDERS = {"==": eq, "!=": ne, "<": lt, "<=": le, ">": gt, ">=": ge}
LOW, HIGH = 0, 4  # int facts stay within [LOW, HIGH]: adds carry a guard
STRS = ("a", "b", "c")


@dataclass
class Spec:
    """One action as raw data, turned into a pathcraft Action and read by the oracle."""

    name: str
    pre: dict[str, tuple[str, Any]]  # fact -> (op, value)
    eff: dict[str, tuple[str, Any]]  # fact -> ("set" | "add", value)
    base: float
    dyn: tuple[str, float] | None = None  # cost = base + coef * state[fact]
    check: tuple[str, int] | None = None  # runs only when state[fact] % 2 == parity
    declare_reads: bool = False

    def cost_at(self, state: dict[str, Any]) -> float:
        if self.dyn is None:
            return self.base
        fact, coef = self.dyn
        return self.base + coef * state[fact]

    def runs_in(self, state: dict[str, Any]) -> bool:
        for fact, (op, value) in self.pre.items():
            if fact not in state or not OPS[op](state[fact], value):
                return False
        return self.check is None or state[self.check[0]] % 2 == self.check[1]

    def after(self, state: dict[str, Any]) -> dict[str, Any]:
        new = dict(state)
        for fact, (how, value) in self.eff.items():
            new[fact] = new[fact] + value if how == "add" else value
        return new

    def action(self) -> Action:
        pre = {f: BUILDERS[op](v) for f, (op, v) in self.pre.items()}
        eff = {f: add(v) if how == "add" else v for f, (how, v) in self.eff.items()}
        kwargs: dict[str, Any] = {}
        reads: set[str] = set()
        cost: Any = self.base
        if self.dyn is not None:
            fact, coef = self.dyn
            base = self.base
            cost = lambda s, f=fact, c=coef, b=base: b + c * s[f]  # noqa: E731
            kwargs["min_cost"] = self.base  # coef >= 0 and ints >= 0: a true bound
            reads.add(fact)
        if self.check is not None:
            fact, parity = self.check
            kwargs["check"] = lambda s, f=fact, p=parity: s[f] % 2 == p
            reads.add(fact)
        if self.declare_reads and reads:
            kwargs["reads"] = sorted(reads)
        return Action(self.name, pre, eff, cost, **kwargs)


@dataclass
class Domain:
    facts: dict[str, str]  # name -> kind
    start: dict[str, Any]
    goal: dict[str, tuple[str, Any]]
    specs: list[Spec] = field(default_factory=list)

    def planner(self) -> Planner:
        return Planner([s.action() for s in self.specs])

    def goal_conditions(self) -> dict[str, Any]:
        return {f: BUILDERS[op](v) for f, (op, v) in self.goal.items()}

    def meets_goal(self, state: dict[str, Any]) -> bool:
        return all(f in state and OPS[op](state[f], v) for f, (op, v) in self.goal.items())


def _value(draw: Any, kind: str) -> Any:
    if kind == "bool":
        return draw(st.booleans())
    if kind == "int":
        return draw(st.integers(LOW, HIGH))
    return draw(st.sampled_from(STRS))


def _condition(draw: Any, kind: str) -> tuple[str, Any]:
    ops = ["==", "!="] if kind == "bool" else list(OPS)
    return draw(st.sampled_from(ops)), _value(draw, kind)


@st.composite
def domains(draw: Any, max_actions: int = 30) -> Domain:
    n_bool = draw(st.integers(1, 3))
    n_int = draw(st.integers(1, 2))
    n_str = draw(st.integers(0, 1))
    facts = {f"b{i}": "bool" for i in range(n_bool)}
    facts.update({f"i{i}": "int" for i in range(n_int)})
    facts.update({f"s{i}": "str" for i in range(n_str)})
    names = sorted(facts)
    ints = [f for f in names if facts[f] == "int"]
    start = {}
    for f in names:
        # bool facts may be missing at the start: only a set effect brings them in
        if facts[f] == "bool" and draw(st.booleans()) and draw(st.booleans()):
            continue
        start[f] = _value(draw, facts[f])
    goal_facts = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    goal = {f: _condition(draw, facts[f]) for f in goal_facts}
    specs = []
    for k in range(draw(st.integers(1, max_actions))):
        pre_facts = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
        pre = {f: _condition(draw, facts[f]) for f in pre_facts}
        eff = {}
        for f in draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True)):
            if facts[f] == "int" and draw(st.booleans()):
                delta = draw(st.sampled_from([-2, -1, 1, 2]))
                eff[f] = ("add", delta)
                # the guard keeps the fact within [LOW, HIGH]: a finite state space
                pre[f] = ("<=", HIGH - delta) if delta > 0 else (">=", LOW - delta)
            elif f in goal and goal[f][0] == "==" and draw(st.booleans()):
                eff[f] = ("set", goal[f][1])  # often meet the goal: multi-goal actions
            else:
                eff[f] = ("set", _value(draw, facts[f]))
        base = draw(st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.0, 3.0, 5.0]))
        dyn = chk = None
        if draw(st.integers(0, 4)) == 0:
            dyn = (draw(st.sampled_from(ints)), draw(st.sampled_from([0.5, 1.0])))
        if draw(st.integers(0, 5)) == 0:
            chk = (draw(st.sampled_from(ints)), draw(st.integers(0, 1)))
        specs.append(Spec(f"a{k}", pre, eff, base, dyn, chk, draw(st.booleans())))
    combo = {f: ("set", v) for f, (op, v) in goal.items() if op == "=="}
    if len(combo) > 1 and draw(st.booleans()):  # one action meeting several goal facts
        cost = draw(st.sampled_from([0.5, 1.0, 2.0]))
        specs.append(Spec(f"a{len(specs)}", {}, combo, cost))
    for f in names:  # a fact neither the start nor an effect knows is an input error
        if f not in start and not any(f in s.eff for s in specs):
            start[f] = _value(draw, facts[f])
    return Domain(facts, start, goal, specs)


# --------------------------------------------------------------------------- the oracle


def _key(state: dict[str, Any]) -> frozenset[tuple[str, Any]]:
    return frozenset((f, (type(v).__name__, v)) for f, v in state.items())


def oracle(domain: Domain, max_depth: int | None = None) -> float:
    """The cheapest plan's cost by uniform-cost search over (state[, depth]); inf if none."""
    start = dict(domain.start)
    count = itertools.count()
    first = (_key(start), 0 if max_depth is not None else None)
    best = {first: 0.0}
    heap = [(0.0, next(count), start, 0)]
    while heap:
        g, _, state, depth = heapq.heappop(heap)
        node = (_key(state), depth if max_depth is not None else None)
        if g > best[node]:
            continue
        if domain.meets_goal(state):
            return g
        if max_depth is not None and depth >= max_depth:
            continue
        for spec in domain.specs:
            if not spec.runs_in(state):
                continue
            new = spec.after(state)
            d = g + spec.cost_at(state)
            nd = depth + 1
            key = (_key(new), nd if max_depth is not None else None)
            if d < best.get(key, math.inf):
                best[key] = d
                heapq.heappush(heap, (d, next(count), new, nd))
    return math.inf


def assert_replays(domain: Domain, plan: Plan) -> None:
    """Every action may run where it runs; the states, cost and goal all agree."""
    specs = {s.name: s for s in domain.specs}
    state = dict(domain.start)
    assert plan.start == state
    total = 0.0
    assert len(plan.states) == len(plan.actions)
    for action, reported in zip(plan.actions, plan.states, strict=True):
        spec = specs[action.name]
        assert spec.runs_in(state), (action.name, state)
        total += spec.cost_at(state)
        state = spec.after(state)
        assert reported == state
        assert isinstance(reported, State)
    assert domain.meets_goal(state)
    assert plan.cost == pytest.approx(total, abs=1e-9)


def check_against_oracle(domain: Domain, plan: Plan, best: float, weight: float = 1.0) -> None:
    assert plan.found == (best < math.inf), (plan, best)
    assert bool(plan) == plan.found
    if plan.found:
        assert plan.reason is None
        assert_replays(domain, plan)
        assert plan.cost <= weight * best + 1e-9
        if weight == 1.0:
            assert plan.cost == pytest.approx(best, abs=1e-9)
    else:
        assert plan.reason == "unreachable"
        assert plan.actions == () and plan.states == () and plan.cost == math.inf
