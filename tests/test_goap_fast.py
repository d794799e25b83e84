"""The planner's fast path: entries found by the goal object, states read by their
layout, plans whose states are built on first access; always the general answer."""

from __future__ import annotations

import copy
import pickle
import warnings
from dataclasses import replace
from typing import Any

import pytest
from _goap import domains
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.goap import Action, Goal, MissingFactWarning, Plan, Planner, State, add

pytestmark = pytest.mark.filterwarnings("ignore::pathcraft.goap.MissingFactWarning")

CAMP = {"wood": 0, "fire": False, "warm": False, "rested": False}


def camp() -> Planner:
    return Planner([
        Action("chop", {}, {"wood": add(1)}, cost=2),
        Action("light", {"wood": 1}, {"fire": True, "wood": 0}, cost=1),
        Action("sit", {"fire": True}, {"warm": True}, cost=1),
        Action("nap", {}, {"rested": True}, cost=4),
    ])  # fmt: skip


def general(planner: Planner, state: dict[str, Any], goal: Any) -> Plan:
    """The general path: an option given (even at its default) skips the fast one."""
    return planner.plan(state, goal, max_expansions=int("20000"))


def same(a: Plan, b: Plan) -> None:
    assert (a.names, a.cost, a.reason, a.goal, a.expanded, a.generated, a.considered) == (
        b.names, b.cost, b.reason, b.goal, b.expanded, b.generated, b.considered,
    )  # fmt: skip
    assert a.start == b.start and a.states == b.states and a.path == b.path


def test_a_goal_changed_in_place_is_planned_anew() -> None:
    planner = camp()
    goal: dict[str, Any] = {"warm": True}
    for _ in range(2):
        assert planner.plan(CAMP, goal).names == ["chop", "light", "sit"]
    goal["warm"] = False
    assert planner.plan(CAMP, goal).names == []
    goal["rested"] = True
    assert planner.plan(CAMP, goal).names == ["nap"]
    del goal["warm"]
    assert planner.plan(CAMP, goal).names == ["nap"]


def test_a_list_of_goals_changed_in_place_is_planned_anew() -> None:
    planner = camp()
    goals = [Goal("warm", {"warm": True}, priority=1), Goal("rest", {"rested": True})]
    for _ in range(2):
        assert planner.plan(CAMP, goals).goal is goals[0]
    goals[0] = Goal("warm", {"warm": True}, priority=-1)
    assert planner.plan(CAMP, goals).goal is goals[1]
    goals.append(Goal("fire", {"fire": True}, priority=5))
    assert planner.plan(CAMP, goals).goal is goals[2]


def test_one_goal_from_states_of_other_layouts() -> None:
    planner = camp()
    goal = Goal("warm", {"warm": True})
    layouts = [
        CAMP,
        dict(reversed(CAMP.items())),  # the same facts in another order
        {**CAMP, "wood": 2},
        {**CAMP, "tired": True},  # one fact more
        {k: v for k, v in CAMP.items() if k != "rested"},  # one fact fewer
        {**CAMP, "mood": "calm"},
        {**CAMP, "mood": 3},  # the same names, another type
    ]
    for _ in range(2):
        for state in layouts:
            same(planner.plan(state, goal), general(planner, state, goal))


def test_a_plan_keeps_the_state_it_started_from() -> None:
    planner = camp()
    state = dict(CAMP)
    for _ in range(2):
        plan = planner.plan(state, {"warm": True})
    state["wood"] = 5
    assert plan.start == CAMP and plan.path[0] == CAMP
    assert [s["wood"] for s in plan.states] == [1, 0, 0]
    assert plan.final == {"wood": 0, "fire": True, "warm": True, "rested": False}


def test_states_built_on_first_access_are_the_plan_s() -> None:
    planner = camp()
    planner.plan(CAMP, {"warm": True})
    fresh = [planner.plan(CAMP, {"warm": True}) for _ in range(5)]
    # pickled, copied or compared before the states were read: the same plan
    states = general(planner, CAMP, {"warm": True}).states
    for plan in fresh[:3]:
        again = pickle.loads(pickle.dumps(plan)) if plan is fresh[0] else copy.copy(plan)
        assert isinstance(again, Plan) and again.states == states
    assert fresh[3] == replace(fresh[4], elapsed=fresh[3].elapsed)
    assert fresh[3].path == [fresh[3].start, *fresh[3].states]
    assert fresh[3].states is fresh[3].states  # built once, then kept
    with pytest.raises(AttributeError, match="no attribute 'colour'"):
        _ = fresh[4].colour  # type: ignore[attr-defined]
    nothing = planner.plan(CAMP, {"warm": True}, max_expansions=None, max_cost=1)
    assert nothing.path == [] and nothing.states == () and nothing.final == CAMP


def test_an_unreachable_fast_plan_warns_of_a_missing_fact_each_time() -> None:
    planner = Planner(
        [
            Action("eat", {"has_food": True}, {"hungry": False}),
            Action("drop", {"has_food": True}, {"has_food": False}),
        ]
    )
    for _ in range(3):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            plan = planner.plan({"hungry": True}, {"hungry": False})
        assert plan.reason == "unreachable"
        assert [type(w.message) for w in caught] == [MissingFactWarning]
        assert caught[0].filename == __file__


def test_the_general_path_warns_at_the_caller_too() -> None:
    planner = Planner([
        Action("eat", {"has_food": True}, {"hungry": False}),
        Action("drop", {"has_food": True}, {"has_food": False}),
    ])  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan = planner.plan({"hungry": True}, {"hungry": False}, max_expansions=int("9"))
    assert plan.reason == "unreachable" and caught[0].filename == __file__


def test_a_planner_pickles_and_copies_without_its_compiled_entries() -> None:
    planner = camp()
    plans = [planner.plan(CAMP, {"warm": True}) for _ in range(2)]  # an entry kept
    for other in (pickle.loads(pickle.dumps(planner)), copy.copy(planner),
                  copy.deepcopy(planner)):  # fmt: skip
        assert isinstance(other, Planner)
        assert [a.name for a in other.actions] == [a.name for a in planner.actions]
        for _ in range(2):
            plan = other.plan(CAMP, {"warm": True})
            assert (plan.names, plan.cost, plan.expanded, plan.final) == (
                plans[1].names, plans[1].cost, plans[1].expanded, plans[1].final,
            )  # fmt: skip


def test_a_plan_from_the_fast_path_makes_its_start_on_first_access() -> None:
    planner = camp()
    state = dict(reversed(list(CAMP.items())))  # keys out of order: sorted in the start
    planner.plan(state, {"rested": True})
    plan = planner.plan(state, {"rested": True})
    state["wood"] = 3
    assert isinstance(plan.start, State) and list(plan.start) == sorted(CAMP)
    assert plan.start == CAMP and plan.start is plan.start and plan.final["rested"]


@settings(max_examples=25, deadline=None)
@given(domains(max_actions=12), st.randoms(use_true_random=False))
def test_reused_goal_objects_give_the_general_answer(domain: Any, rnd: Any) -> None:
    planner = domain.planner()
    goal = domain.goal_conditions()
    starts = [domain.start, dict(reversed(list(domain.start.items())))]
    for _ in range(6):
        start = rnd.choice(starts)
        same(planner.plan(start, goal), general(planner, start, goal))
    assert isinstance(State(domain.start), State)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_starts_out_of_reach_met_or_searched_in_turn_give_the_general_answer(
    rnd: Any, several: bool
) -> None:
    # bool facts f0..f5; no action sets f5 to True, so a goal wanting it is out of reach
    # at once from a start where it is False (nothing expanded), and the fast path's
    # search, reused, answers such starts, starts meeting the goal and searched ones
    names = [f"f{i}" for i in range(6)]
    actions = []
    for k in range(10):
        pre = {f: rnd.random() < 0.5 for f in rnd.sample(names, rnd.randint(0, 2))}
        eff = {f: rnd.random() < 0.5 for f in rnd.sample(names[:5], rnd.randint(1, 2))}
        if rnd.random() < 0.2:
            eff["f5"] = False
        actions.append(Action(f"a{k}", pre, eff, cost=rnd.randint(1, 4)))
    planner = Planner(actions)
    want = {f: rnd.random() < 0.5 for f in rnd.sample(names[:5], 2)}
    goal: Any = {**want, "f5": True}
    if several:
        goal = [Goal("far", goal, priority=2), Goal("near", want, priority=rnd.randint(1, 2))]
    seen = set()
    for _ in range(12):
        start = {f: rnd.random() < 0.5 for f in names}
        plan = planner.plan(start, goal)
        same(plan, general(planner, start, goal))
        seen.add((plan.reason, plan.expanded == 0))
    if not several:
        assert ("unreachable", True) in seen or all(s[0] is None for s in seen)


def test_a_goal_given_equal_values_anew_or_changed_in_place_is_planned_right() -> None:
    planner = Planner([
        Action("chop", {}, {"wood": add(1)}, cost=2),
        Action("burn", {"wood": 3}, {"fire": True}, cost=1),
    ])  # fmt: skip
    state = {"wood": 0, "fire": False}
    goal: dict[str, Any] = {"wood": 1000}
    first = planner.plan(state, goal, max_expansions=None)
    goal["wood"] = int("1000")  # equal, another object
    for _ in range(2):
        assert planner.plan(state, goal, max_expansions=None).cost == first.cost == 2000
    del goal["wood"]
    goal["fire"] = True
    assert planner.plan(state, goal).names == ["chop", "chop", "chop", "burn"]
    goal["wood"] = 4
    same(planner.plan(state, goal), general(planner, state, goal))
    assert planner.plan(state, goal).names == ["chop", "chop", "chop", "burn", "chop"]
