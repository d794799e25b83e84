"""The GOAP agent: sensing, executing, failing, replanning, budgets, better goals, and
(hypothesis) facts changed under an executing plan against an independent replay."""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pathcraft.goap import Action, Agent, AgentEvent, Goal, Planner, Sensor, State, add, eq, ge


def kinds(agent: Agent) -> list[tuple[str, str | None]]:
    return [(e.kind, e.action or e.reason) for e in agent.events]


class Script:
    """An executor that reports the statuses it is given, then ``"done"``; records calls."""

    def __init__(self, *statuses: str) -> None:
        self.statuses = deque(statuses)
        self.calls: list[State] = []
        self.starts = self.stops = 0

    def start(self, agent: Agent) -> None:
        self.starts += 1

    def update(self, agent: Agent, dt: float) -> str:
        self.calls.append(agent.beliefs)
        return self.statuses.popleft() if self.statuses else "done"

    def stop(self, agent: Agent) -> None:
        self.stops += 1


def axe_world() -> Planner:
    return Planner(
        [
            Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
            Action("chop", {"has_axe": True}, {"wood": True}, cost=1),
            Action("buy_wood", {"gold": ge(5)}, {"wood": True, "gold": add(-5)}, cost=4),
        ]
    )


START = {"has_axe": False, "wood": False, "gold": 0}


def test_a_plan_runs_to_its_goal_and_the_agent_goes_idle() -> None:
    chop = Script("running", "running")
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        START,
        executors={"get_axe": Script(), "chop": chop, "buy_wood": Script()},
    )
    statuses = [agent.tick() for _ in range(6)]
    assert statuses == ["acting"] * 4 + ["idle", "idle"]
    assert agent.beliefs == {"has_axe": True, "wood": True, "gold": 0}
    assert chop.starts == 1 and len(chop.calls) == 3 and chop.stops == 0
    assert agent.plans == 1 and agent.searches == 1
    assert agent.goal is None and agent.plan is None and agent.action is None
    assert kinds(agent)[-1] == ("reached", None)


def test_a_failed_action_replans_and_the_events_say_why() -> None:
    events: list[AgentEvent] = []
    chop = Script("failed")
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        {**START, "gold": 9},
        executors={"get_axe": Script(), "chop": chop, "buy_wood": Script()},
        on_event=events.append,
    )
    agent.tick()  # plan get_axe, chop (3 < 4); get_axe done
    assert agent.plan is not None and agent.plan.names == ["get_axe", "chop"]
    agent.tick()  # chop fails
    assert ("failed", "chop") in kinds(agent)
    assert agent.tick() == "acting"  # replans: chop again (has the axe now, cost 1)
    assert [e.reason for e in events if e.kind == "replan"] == ["start", "action_failed"]
    assert list(agent.events) == events
    assert agent.beliefs["wood"] and kinds(agent)[-3:] == [
        ("start", "chop"),
        ("done", "chop"),
        ("reached", None),
    ]


def test_facts_changed_under_the_plan_stop_the_action_and_replan() -> None:
    get_axe = Script("running", "running", "running")
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        {**START, "gold": 5},
        executors={"get_axe": get_axe, "chop": Script(), "buy_wood": Script()},
    )
    agent.tick()
    assert agent.action is not None and agent.action.name == "get_axe"
    assert agent.update(has_axe=True)  # someone handed it an axe: get_axe no longer applies
    agent.tick()
    assert get_axe.stops == 1 and len(get_axe.calls) == 1
    assert ("stop", "get_axe") in kinds(agent)
    assert ("replan", "facts_changed") in kinds(agent)
    assert [e.plan for e in agent.events if e.kind == "plan"][-1] == ("chop",)
    assert agent.beliefs["wood"]


def test_a_goal_the_facts_meet_ends_the_plan() -> None:
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        START,
        executors={"get_axe": Script("running"), "chop": Script(), "buy_wood": Script()},
    )
    agent.tick()
    agent.update(wood=True)
    assert agent.tick() == "idle"
    assert kinds(agent)[-2:] == [("reached", None), ("stop", "get_axe")]
    assert agent.events[-1].reason == "goal_met" and agent.searches == 1  # nothing left to plan


def test_sensors_run_on_their_own_intervals_in_ticks_and_seconds() -> None:
    seen: dict[str, list[float]] = {"ticks": [], "seconds": []}
    agent: Agent

    def every3(beliefs: State) -> None:
        seen["ticks"].append(agent.ticks)

    def half(beliefs: State) -> None:
        seen["seconds"].append(round(agent.time, 6))

    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        START,
        executors={"get_axe": Script(*["running"] * 20), "chop": Script(), "buy_wood": Script()},
        sensors=[Sensor(every3, every=3), Sensor(half, seconds=0.5)],
    )
    for _ in range(10):
        agent.tick(0.2)
    assert seen["ticks"] == [1, 4, 7, 10]
    assert seen["seconds"] == [0.2, 0.8, 1.4, 2.0]


def test_a_sensor_that_breaks_the_plan_replans_before_the_action_runs_again() -> None:
    robbed = iter([None, {"has_axe": False}])
    chop = Script("running", "running")
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        {**START, "has_axe": True},
        executors={"get_axe": Script(), "chop": chop, "buy_wood": Script()},
        sensors=[lambda beliefs: next(robbed, None)],
    )
    agent.tick()
    agent.tick()  # the sensor takes the axe before chop runs a second time
    assert len(chop.calls) == 1 and chop.stops == 1
    assert [e.plan for e in agent.events if e.kind == "plan"][-1] == ("get_axe", "chop")
    assert agent.action is not None and agent.action.name == "chop"  # get_axe ran, done


def test_a_goal_of_higher_priority_takes_over_when_it_becomes_achievable() -> None:
    planner = Planner(
        [
            Action("wander", {}, {"bored": False}, cost=1),
            Action("flee", {"danger": True}, {"safe": True}, cost=1),
        ]
    )
    wander = Script(*["running"] * 50)
    goals = [
        Goal("idle", {"bored": False}, priority=1),
        Goal("survive", {"safe": True}, priority=lambda s: 10 if s["danger"] else 0),
    ]
    agent = Agent(
        planner,
        goals,
        {"bored": True, "danger": False, "safe": False},
        executors={"wander": wander, "flee": Script("running")},
    )
    agent.tick()
    agent.tick()
    assert agent.goal.name == "idle"
    agent.update(danger=True)
    agent.tick()
    assert agent.goal.name == "survive" and agent.action.name == "flee"
    assert wander.stops == 1
    assert ("replan", "better_goal") in kinds(agent)


def test_no_plan_is_reported_and_tried_again_when_the_facts_change() -> None:
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        START,
        executors={"get_axe": Script(), "chop": Script(), "buy_wood": Script()},
        max_depth=0,
    )
    assert agent.tick() == "idle"
    assert kinds(agent)[-1] == ("no_plan", "max_depth")
    searches = agent.searches
    agent.tick()
    assert agent.searches == searches  # nothing changed: no new search
    agent.update(gold=1)
    agent.tick()
    assert agent.searches == searches + 1 and ("replan", "retry") in kinds(agent)


def test_a_budget_spreads_a_search_over_ticks() -> None:
    chain = Planner([Action(f"s{i}", {"x": i}, {"x": i + 1}) for i in range(30)])
    agent = Agent(
        chain,
        [Goal("far", {"x": 30})],
        {"x": 0},
        executors={f"s{i}": Script() for i in range(30)},
        budget=4,
    )
    statuses = list(
        itertools.takewhile(lambda s: s == "planning", (agent.tick() for _ in range(100)))
    )
    assert len(statuses) >= 5
    assert agent.plan is not None and len(agent.plan) == 30


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"executors": {"get_axe": Script(), "chop": Script()}}, ValueError, "buy_wood"),
        (
            {"executors": {"get_axe": 1, "chop": Script(), "buy_wood": Script()}},
            TypeError,
            "get_axe",
        ),
        ({"budget": 0}, ValueError, "budget"),
        ({"sensors": [3]}, TypeError, "sensors"),
        ({"history": -1}, ValueError, "history"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, Any], error: type, match: str) -> None:
    options: dict[str, Any] = {
        "executors": {"get_axe": Script(), "chop": Script(), "buy_wood": Script()}
    }
    options.update(kwargs)
    with pytest.raises(error, match=match):
        Agent(axe_world(), [Goal("wood", {"wood": True})], START, **options)


def test_an_executor_returning_a_bad_status_is_named() -> None:
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        START,
        executors={"get_axe": lambda a, dt: "ok", "chop": Script(), "buy_wood": Script()},
    )
    with pytest.raises(ValueError, match="'get_axe' returned 'ok'"):
        agent.tick()


# --------------------------------------------------------------------------- hypothesis

FACTS = ("a", "b", "c", "d")


def holds(conditions: Any, state: Any) -> bool:
    """Conditions tested here, apart from the agent's and the actions' own code."""
    return all(fact in state and cond.test(state[fact]) for fact, cond in conditions.items())


def reachable(actions: list[Action], start: dict[str, bool], goal: Goal) -> bool:
    """Breadth-first over every state of the bool facts: some plan reaches ``goal``."""
    seen = {tuple(sorted(start.items()))}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if holds(goal.conditions, state):
            return True
        for action in actions:
            if holds(action.preconditions, state):
                nxt = {**state, **action.effects}
                key = tuple(sorted(nxt.items()))
                if key not in seen:
                    seen.add(key)
                    frontier.append(nxt)  # type: ignore[arg-type]
    return False


facts_strategy = st.fixed_dictionaries({f: st.booleans() for f in FACTS})
partial = st.dictionaries(st.sampled_from(FACTS), st.booleans(), max_size=2)
some = st.dictionaries(st.sampled_from(FACTS), st.booleans(), min_size=1, max_size=2)


@st.composite
def domains(draw: Any) -> tuple[list[Action], list[Goal]]:
    n = draw(st.integers(1, 6))
    actions = [
        Action(f"act{i}", draw(partial), draw(some), cost=draw(st.integers(1, 4))) for i in range(n)
    ]
    goals = [
        Goal(f"goal{i}", draw(some), priority=draw(st.integers(0, 3)))
        for i in range(draw(st.integers(1, 3)))
    ]
    return actions, goals


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # "no plan" found for beliefs that changed while it searched: it asks anew
    domain=(
        [Action("act0", {}, {"c": True}, cost=1.0), Action("act1", {}, {"a": False}, cost=1.0)],
        [Goal("goal0", {"c": eq(False)}), Goal("goal1", {"a": eq(False), "c": eq(True)})],
    ),
    start={"a": False, "b": False, "c": False, "d": False},
    script=[
        ("running", {"a": True, "c": True}, False),
        ("running", {"a": False}, False),
        ("running", {"c": False}, False),
    ],
    budget=1,
)
@given(
    domain=domains(),
    start=facts_strategy,
    script=st.lists(
        st.tuples(st.sampled_from(["running", "done", "failed"]), partial, st.booleans()),
        min_size=1,
        max_size=40,
    ),
    budget=st.sampled_from([None, 1, 3]),
)
def test_facts_changed_under_an_executing_plan_never_run_a_broken_action(
    domain: tuple[list[Action], list[Goal]],
    start: dict[str, bool],
    script: list[tuple[str, dict[str, bool], bool]],
    budget: int | None,
) -> None:
    actions, goals = domain
    ran: list[tuple[str, dict[str, Any]]] = []
    moves = iter(script)
    pending: list[dict[str, bool]] = []

    def run(agent: Agent, dt: float) -> str:
        assert agent.action is not None
        ran.append((agent.action.name, dict(agent.beliefs)))
        status, _, _ = next(moves, ("done", {}, False))
        return status

    def sensor(beliefs: State) -> dict[str, bool] | None:
        return pending.pop() if pending else None

    agent = Agent(
        Planner(actions),
        goals,
        start,
        budget=budget,
        sensors=[sensor],
        executors={a.name: run for a in actions},
        history=0,
    )
    by_name = {a.name: a for a in actions}
    for _, facts, sense in script:
        if sense:
            pending.append(facts)
        else:
            agent.update(facts)
        agent.tick()
    status = "acting"
    for _ in range(200):  # the script is over: every action is done in one tick
        status = agent.tick()
        if status == "idle":
            break
    # never an action whose preconditions do not hold on what the agent believed
    for name, beliefs in ran:
        assert holds(by_name[name].preconditions, beliefs), (name, beliefs)
    final = dict(agent.beliefs)
    if status == "idle":  # no plan: every goal met, or none of those left reachable
        assert agent.plan is None and not agent.searching
        for goal in goals:
            assert holds(goal.conditions, final) or not reachable(actions, final, goal), goal
    elif agent.plan is not None:  # (goals that undo each other: it plans on and on)
        assert_valid(agent)


def assert_valid(agent: Agent) -> None:
    state = dict(agent.beliefs)
    for action in agent.remaining:
        assert holds(action.preconditions, state)
        state.update(action.effects)  # type: ignore[arg-type]
    assert holds(agent.goal.conditions, state)


@settings(max_examples=100, deadline=None)
@given(domain=domains(), start=facts_strategy, changes=st.lists(partial, max_size=6))
def test_the_plan_kept_is_valid_on_the_beliefs_after_every_tick(
    domain: tuple[list[Action], list[Goal]],
    start: dict[str, bool],
    changes: list[dict[str, bool]],
) -> None:
    actions, goals = domain
    agent = Agent(
        Planner(actions),
        goals,
        start,
        history=0,
        executors={a.name: (lambda agent, dt: "running") for a in actions},
    )
    for facts in [{}, *changes]:
        agent.update(facts)
        agent.tick()
        if agent.plan is None:
            continue
        assert_valid(agent)
        best = max(
            g.priority_in(agent.beliefs)
            for g in goals
            if not holds(g.conditions, agent.beliefs) and reachable(actions, dict(agent.beliefs), g)
        )
        assert agent.goal.priority_in(agent.beliefs) == best


def test_an_executor_whose_start_breaks_its_own_preconditions_is_not_updated() -> None:
    class Clumsy(Script):
        def start(self, agent: Agent) -> None:
            super().start(agent)
            agent.update(has_axe=False)  # drops the axe as it starts to chop

    chop = Clumsy()
    agent = Agent(
        axe_world(),
        [Goal("wood", {"wood": True})],
        {**START, "has_axe": True},
        executors={"get_axe": Script("running"), "chop": chop, "buy_wood": Script()},
    )
    agent.tick()
    assert chop.starts == 1 and chop.calls == [] and chop.stops == 1
    assert agent.events[-1].kind == "stop" and agent.events[-1].reason == "facts_changed"
    agent.tick()  # plans again: fetch the axe first
    assert ("replan", "facts_changed") in kinds(agent) and agent.action.name == "get_axe"
