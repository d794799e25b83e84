"""Plans over many bool facts and many actions, against the exhaustive oracle: the
step masks turned over per fact (several words of steps past 64 actions), pattern
databases over up to eight facts, the fast path and random tie-breaking."""

from __future__ import annotations

from typing import Any

from _goap import Domain, Spec, check_against_oracle, oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.goap import Action, Planner


@st.composite
def bool_domains(draw: Any, max_actions: int = 80) -> Domain:
    """Like the benchmark's random domains, larger: 6-9 bool facts, up to
    ``max_actions`` actions with equality preconditions and set effects."""
    names = [f"f{i}" for i in range(draw(st.integers(6, 9)))]
    start = {f: draw(st.booleans()) for f in names}
    goal_facts = draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
    goal = {f: ("==", draw(st.booleans())) for f in goal_facts}
    specs = []
    for k in range(draw(st.integers(1, max_actions))):
        wants = draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
        sets = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
        pre = {f: ("==", draw(st.booleans())) for f in wants}
        eff = {f: ("set", draw(st.booleans())) for f in sets}
        specs.append(Spec(f"a{k}", pre, eff, float(draw(st.integers(1, 5)))))
    return Domain(dict.fromkeys(names, "bool"), start, goal, specs)


@settings(max_examples=25, deadline=None)
@given(bool_domains(), st.integers(0, 2**32 - 1))
def test_plans_over_many_bool_facts_are_optimal(domain: Domain, seed: int) -> None:
    planner = domain.planner()
    goal = domain.goal_conditions()
    best = oracle(domain)
    first = planner.plan(domain.start, goal)  # the general path, then the fast one
    again = planner.plan(dict(domain.start), goal)
    shuffled = planner.plan(domain.start, goal, tie_break="random", seed=seed)
    unpruned = planner.plan(domain.start, goal, prune=False)
    for plan in (first, again, shuffled, unpruned):
        check_against_oracle(domain, plan, best)
    assert (again.names, again.expanded, again.generated) == (
        first.names, first.expanded, first.generated,
    )  # fmt: skip


def test_more_than_64_actions_one_way_through() -> None:
    """A chain of 70 stages, each with a dear and a cheap way on (140 steps, three
    words of the masks): the cheap way at every stage, whichever word it is in."""
    stages = 70
    actions = []
    for i in range(stages):
        actions.append(Action(f"slow{i}", {f"s{i}": True}, {f"s{i + 1}": True}, cost=3))
        actions.append(Action(f"fast{i}", {f"s{i}": True}, {f"s{i + 1}": True}, cost=1))
    planner = Planner(actions)
    start = {f"s{i}": i == 0 for i in range(stages + 1)}
    for _ in range(2):  # the general path, then the fast one
        plan = planner.plan(start, {f"s{stages}": True})
        assert plan.names == [f"fast{i}" for i in range(stages)] and plan.cost == stages
