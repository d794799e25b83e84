"""Several goals in one search, and plans searched a slice at a time.

The oracle for several goals is independent of the planner: one exhaustive
uniform-cost search per goal (tests/_goap.py), then the highest priority class with a
reachable goal, then the cheapest plan among its goals.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from _goap import BUILDERS, Domain, _condition, assert_replays, domains, oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.agents import PathRequestQueue
from pathcraft.goap import Action, Goal, Plan, Planner, PlanSearch, State, add, ge

pytestmark = pytest.mark.filterwarnings("ignore::pathcraft.goap.MissingFactWarning")


@st.composite
def multi_goal_domains(draw: Any) -> tuple[Domain, list[tuple[dict[str, Any], float]]]:
    """A random domain and 2-4 goals (raw conditions) with priorities in {0, 1, 2}."""
    domain = draw(domains())
    names = sorted(domain.facts)
    goals = [(domain.goal, float(draw(st.integers(0, 2))))]
    for _ in range(draw(st.integers(1, 3))):
        facts = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
        raw = {f: _condition(draw, domain.facts[f]) for f in facts}
        goals.append((raw, float(draw(st.integers(0, 2)))))
    return domain, goals


def as_goals(goals: list[tuple[dict[str, Any], float]]) -> list[Goal]:
    return [
        Goal(f"g{i}", {f: BUILDERS[op](v) for f, (op, v) in raw.items()}, priority=p)
        for i, (raw, p) in enumerate(goals)
    ]


def expected(domain: Domain, goals: list[tuple[dict[str, Any], float]]) -> tuple[float, set[str]]:
    """The oracle: (cost, names of the goals a right plan may serve); (inf, set()) if none."""
    costs = [oracle(replace(domain, goal=raw)) for raw, _p in goals]
    for priority in sorted({p for _raw, p in goals}, reverse=True):
        members = [i for i, (_raw, p) in enumerate(goals) if p == priority]
        best = min(costs[i] for i in members)
        if best < math.inf:
            return best, {f"g{i}" for i in members if costs[i] == best}
    return math.inf, set()


def several_goals_against_the_oracle(
    domain: Domain, goals: list[tuple[dict[str, Any], float]], tie: str
) -> None:
    cost, allowed = expected(domain, goals)
    plan = domain.planner().plan(domain.start, as_goals(goals), tie_break=tie, seed=7)
    assert plan.found == (cost < math.inf), (plan, cost)
    if not plan.found:
        assert plan.reason == "unreachable" and plan.cost == math.inf
        return
    assert plan.goal is not None and plan.goal.name in allowed, (plan.goal, allowed)
    assert plan.cost == pytest.approx(cost, abs=1e-9)
    raw = goals[int(plan.goal.name[1:])][0]
    assert_replays(replace(domain, goal=raw), plan)


@settings(max_examples=40)
@given(multi_goal_domains(), st.sampled_from(["g", "fifo", "random"]))
def test_several_goals_against_the_oracle(
    case: tuple[Domain, list[tuple[dict[str, Any], float]]], tie: str
) -> None:
    several_goals_against_the_oracle(*case, tie)


@pytest.mark.slow
@settings(max_examples=300)
@given(multi_goal_domains(), st.sampled_from(["g", "fifo", "random"]))
def test_several_goals_against_the_oracle_many(
    case: tuple[Domain, list[tuple[dict[str, Any], float]]], tie: str
) -> None:
    several_goals_against_the_oracle(*case, tie)


def same_plan_however_sliced(
    domain: Domain, goals: list[tuple[dict[str, Any], float]], budgets: list[int]
) -> None:
    planner = domain.planner()
    for goal in (domain.goal_conditions(), as_goals(goals)):
        whole = planner.plan(domain.start, goal, tie_break="random", seed=3)
        search = planner.start(domain.start, goal, tie_break="random", seed=3)
        turn = 0
        while search.step(budgets[turn % len(budgets)]) == "in_progress":
            turn += 1
        sliced = search.result
        assert search.status == ("found" if whole.found else whole.reason)
        assert (sliced.names, sliced.cost, sliced.reason, sliced.goal) == (
            whole.names, whole.cost, whole.reason, whole.goal,
        )  # fmt: skip
        assert (sliced.expanded, sliced.generated) == (whole.expanded, whole.generated)
        assert search.expanded == whole.expanded


@settings(max_examples=30)
@given(multi_goal_domains(), st.lists(st.integers(0, 4), min_size=1, max_size=4))
def test_the_same_plan_however_sliced(
    case: tuple[Domain, list[tuple[dict[str, Any], float]]], budgets: list[int]
) -> None:
    same_plan_however_sliced(*case, [*budgets, 1])


# --------------------------------------------------------------------------- examples


def camp() -> Planner:
    return Planner([
        Action("chop", {"axe": True}, {"wood": add(1)}, cost=2),
        Action("get_axe", {"axe": False}, {"axe": True}, cost=1),
        Action("fire", {"wood": ge(2)}, {"wood": add(-2), "warm": True}, cost=1),
        Action("nap", {}, {"rested": True}, cost=4),
    ])  # fmt: skip


CAMP = {"axe": False, "wood": 0, "warm": False, "rested": False}


def test_the_highest_priority_reachable_goal_wins_over_a_cheaper_one() -> None:
    warm = Goal("warm", {"warm": True}, priority=2)
    rest = Goal("rest", {"rested": True}, priority=1)
    plan = camp().plan(CAMP, [rest, warm])
    assert plan.goal is warm and plan.names == ["get_axe", "chop", "chop", "fire"]
    assert plan.cost == 6.0


def test_equal_priorities_give_the_cheapest_plan_to_any() -> None:
    warm = Goal("warm", {"warm": True}, priority=1)
    rest = Goal("rest", {"rested": True}, priority=1)
    plan = camp().plan(CAMP, [warm, rest])
    assert plan.goal is rest and plan.names == ["nap"] and plan.cost == 4.0


def test_an_unreachable_top_goal_falls_to_the_next() -> None:
    fly = Goal("fly", {"flying": True}, priority=9)
    warm = Goal("warm", {"warm": True}, priority=2)
    rest = Goal("rest", {"rested": True}, priority=1)
    planner = camp()
    state = {**CAMP, "flying": False}
    plan = planner.plan(state, [fly, warm, rest])
    assert plan.goal is warm and plan.cost == 6.0
    # without an axe to get, warmth is out of reach too (its bound is finite: the
    # search explores until it knows), and resting wins
    no_axe = Planner([a for a in planner.actions if a.name != "get_axe"])
    plan = no_axe.plan(state, [fly, warm, rest])
    assert plan.goal is rest and plan.names == ["nap"]
    none = Planner([Action("idle")]).plan({"x": 0}, [Goal("a", {"x": 1}), Goal("b", {"x": 2})])
    assert not none and none.reason == "unreachable"


def test_priorities_read_on_the_start_state() -> None:
    warm = Goal("warm", {"warm": True}, priority=lambda s: 3 - s["wood"])
    rest = Goal("rest", {"rested": True}, priority=2)
    planner = camp()
    assert planner.plan(CAMP, [warm, rest]).goal is warm  # priority 3
    assert planner.plan({**CAMP, "wood": 2}, [warm, rest]).goal is rest  # priority 1


def test_a_goal_already_met_gives_an_empty_plan_by_priority() -> None:
    warm = Goal("warm", {"warm": True}, priority=2)
    rest = Goal("rest", {"rested": True}, priority=1)
    plan = camp().plan({**CAMP, "rested": True}, [warm, rest])
    assert plan.goal is warm and len(plan) == 4  # resting is met, but warmth comes first
    plan = camp().plan({**CAMP, "warm": True}, [warm, rest])
    assert plan.goal is warm and plan.names == [] and plan.found


def test_a_mapping_goal_is_named_goal_and_a_cut_off_names_what_it_served() -> None:
    plan = camp().plan(CAMP, {"warm": True})
    assert plan.goal is not None and plan.goal.name == "goal"
    assert dict(plan.goal.conditions) == {"warm": Goal("x", {"warm": True}).conditions["warm"]}
    warm = Goal("warm", {"warm": True}, priority=2)
    rest = Goal("rest", {"rested": True}, priority=1)
    cut = camp().plan(CAMP, [rest, warm], max_expansions=2)
    assert not cut and cut.reason == "max_expansions" and cut.goal is warm


def test_goal_arguments_are_checked() -> None:
    planner = camp()
    with pytest.raises(TypeError, match="non-empty sequence of Goals"):
        planner.plan(CAMP, [])
    with pytest.raises(TypeError, match="non-empty sequence of Goals"):
        planner.plan(CAMP, [Goal("a", {"warm": True}), {"rested": True}])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="two goals are named 'a'"):
        planner.plan(CAMP, [Goal("a", {"warm": True}), Goal("a", {"rested": True})])
    with pytest.raises(ValueError, match="goal 'b': the goal names fact 'gold'"):
        planner.plan(CAMP, [Goal("a", {"warm": True}), Goal("b", {"gold": 1})])
    with pytest.raises(TypeError, match="goal 'a': priority must be a number"):
        Goal("a", {"warm": True}, priority="high")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="goal 'a': priority must be finite"):
        Goal("a", {"warm": True}, priority=math.nan)
    with pytest.raises(ValueError, match="priority must be finite; got inf in State"):
        planner.plan(CAMP, [Goal("a", {"warm": True}, priority=lambda s: math.inf),
                            Goal("b", {"rested": True})])  # fmt: skip
    with pytest.raises(TypeError, match="a goal's name must be a str"):
        Goal(3, {"warm": True})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must not be empty"):
        Goal("", {"warm": True})
    with pytest.raises(TypeError, match="goal 'a': conditions must be a mapping"):
        Goal("a", None)  # type: ignore[arg-type]


def test_a_goal_pickles_and_compares() -> None:
    import pickle

    warm = Goal("warm", {"warm": True}, priority=2)
    assert pickle.loads(pickle.dumps(warm)) == warm
    assert hash(warm) == hash(Goal("warm", {"warm": True}))
    assert warm != Goal("warm", {"warm": True}, priority=1)


def test_a_search_in_steps_ends_cancels_and_refuses_early_results() -> None:
    search = camp().start(CAMP, {"warm": True})
    assert isinstance(search, PlanSearch) and search.status == "in_progress"
    with pytest.raises(RuntimeError):
        _ = search.result
    assert search.step(1) == "in_progress" and search.expanded == 1
    search.cancel()
    assert search.status == "cancelled" and search.step(5) == "cancelled"
    with pytest.raises(RuntimeError):
        _ = search.result
    done = camp().start(CAMP, {"warm": True})
    assert done.step() == "found" and done.step(3) == "found"
    assert isinstance(done.result, Plan) and done.result.cost == 6.0
    with pytest.raises(TypeError):
        done.step(1.5)  # type: ignore[arg-type]


def test_a_request_queue_runs_plan_searches() -> None:
    planner = camp()
    queue = PathRequestQueue(budget=3)
    queue.submit("guard", planner.start(CAMP, {"warm": True}))
    results: dict[Any, Any] = {}
    for _ in range(20):
        results.update(queue.update())
        if "guard" in results:
            break
    plan = results["guard"]
    assert isinstance(plan, Plan) and plan.names == planner.plan(CAMP, {"warm": True}).names


def test_caller_goals_and_state_not_modified() -> None:
    state = dict(CAMP)
    goals = [Goal("warm", {"warm": True}, priority=2), Goal("rest", {"rested": True})]
    kept = list(goals)
    camp().plan(state, goals)
    assert state == CAMP and goals == kept and isinstance(State(state), State)


# --------------------------------------------------------------------------- fast path


def slow(planner: Planner, state: dict[str, Any], goal: Any) -> Plan:
    """The general path: an option given (even at its default) skips the fast one."""
    return planner.plan(state, goal, max_expansions=int("20000"))


def fast_path_agrees(domain: Domain, goals: list[tuple[dict[str, Any], float]]) -> None:
    planner = domain.planner()
    for goal in (domain.goal_conditions(), as_goals(goals)):
        first = planner.plan(domain.start, goal)  # compiles, keeps a fast entry
        for start in (domain.start, {**domain.start}, _variant(domain)):
            again, general = planner.plan(start, goal), slow(planner, start, goal)
            assert (again.names, again.cost, again.reason, again.goal) == (
                general.names, general.cost, general.reason, general.goal,
            )  # fmt: skip
            assert again.states == general.states and again.start == general.start
            assert (again.expanded, again.generated) == (general.expanded, general.generated)
        assert first.names == planner.plan(domain.start, goal).names


def _variant(domain: Domain) -> dict[str, Any]:
    """The same facts in reverse order, ints moved and strs changed (some unknown)."""
    out: dict[str, Any] = {}
    for fact in reversed(list(domain.start)):
        value = domain.start[fact]
        if domain.facts[fact] == "int":
            value = (value + 1) % 5
        elif domain.facts[fact] == "str":
            value = {"a": "b", "b": "zz", "c": "a"}[value]
        out[fact] = value
    return out


@settings(max_examples=30)
@given(multi_goal_domains())
def test_the_fast_path_gives_the_general_answer(
    case: tuple[Domain, list[tuple[dict[str, Any], float]]],
) -> None:
    fast_path_agrees(*case)


def test_the_fast_path_reads_dynamic_priorities_and_checks_ints() -> None:
    warm = Goal("warm", {"warm": True}, priority=lambda s: 3 - s["wood"])
    rest = Goal("rest", {"rested": True}, priority=2)
    planner = camp()
    for _ in range(3):
        assert planner.plan(CAMP, [warm, rest]).goal is warm
        assert planner.plan({**CAMP, "wood": 2}, [warm, rest]).goal is rest
    with pytest.raises(ValueError, match=r"-2\*\*62\.\.2\*\*62"):
        planner.plan({**CAMP, "wood": 2**70}, [warm, rest])


def test_a_raising_cost_fails_the_search_and_the_plan_call() -> None:
    def boom(state: State) -> float:
        raise RuntimeError("no cost here")

    planner = Planner([Action("a", {}, {"x": True}, cost=boom)])
    with pytest.raises(RuntimeError, match="no cost here"):
        planner.plan({"x": False}, {"x": True})
    search = planner.start({"x": False}, {"x": True})
    with pytest.raises(RuntimeError, match="no cost here"):
        search.step()
    assert search.status == "failed" and search.step() == "failed"
    with pytest.raises(RuntimeError, match="failed"):
        _ = search.result
    # the planner still plans afterwards (no search left broken in its pool)
    ok = Planner([Action("a", {}, {"x": True}, cost=lambda s: 2.0)])
    for _ in range(3):
        assert ok.plan({"x": False}, {"x": True}).cost == 2.0
