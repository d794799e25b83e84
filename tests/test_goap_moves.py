"""Actions that move: Places' costs against the scipy oracle, plans that pick the nearer
place, Walker executors that walk there (and fail or stop honestly)."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from _grids import cases, oracle
from hypothesis import given, settings

from pathcraft import Graph, Grid
from pathcraft.goap import Action, Agent, Goal, Places, Planner, Walker


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=20))
def test_place_costs_are_the_oracles_path_costs(case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    spots = case.pick(4, salt=1)
    places = Places(grid, {f"p{i}": cell for i, cell in enumerate(spots)})
    want = oracle(case.cost, case.rule, [case.start])
    origin = places.label(case.start)
    for name, (r, c) in zip(places.names, spots, strict=True):
        got = places.cost(origin, name)
        assert got == pytest.approx(want[r, c], rel=1e-9) or got == want[r, c] == math.inf
        between = oracle(case.cost, case.rule, [spots[0]])[r, c]
        assert places.cost("p0", name) == pytest.approx(between, rel=1e-9) or math.isinf(between)


def test_a_plan_goes_to_the_nearer_place_from_where_the_agent_stands() -> None:
    grid = Grid.from_ascii(
        """
        ..........
        .########.
        ..........
        """,
        diagonal="never",
    )
    places = Places(grid, {"west": (2, 0), "east": (2, 9)})
    planner = Planner([*places.actions(), Action("drink", {"at": "west"}, {"thirsty": False}),
                       Action("sip", {"at": "east"}, {"thirsty": False})])  # fmt: skip
    goal = {"thirsty": False}
    near_west = planner.plan({"at": places.label((0, 1)), "thirsty": True}, goal)
    near_east = planner.plan({"at": places.label((0, 8)), "thirsty": True}, goal)
    assert near_west.names == ["go_to_west", "drink"] and near_west.cost == 4.0
    assert near_east.names == ["go_to_east", "sip"] and near_east.cost == 4.0


def test_a_place_no_path_reaches_is_no_option() -> None:
    grid = Grid.from_ascii("..#..", diagonal="never")
    places = Places(grid, {"far": (0, 4)})
    plan = Planner(places.actions()).plan({"at": places.label((0, 0))}, {"at": "far"})
    assert not plan and plan.reason == "unreachable"
    assert places.cost(places.label((0, 0)), "far") == math.inf


def test_costs_follow_the_world_when_it_changes() -> None:
    grid = Grid.from_ascii(".....", diagonal="never")
    places = Places(grid, {"end": (0, 4)})
    here = places.label((0, 0))
    assert places.cost(here, "end") == 4.0
    grid[0, 2] = 5.0
    assert places.cost(here, "end") == 8.0


def test_places_on_a_graph_and_actions_that_pickle() -> None:
    graph = Graph(3, [0, 1], [1, 2], [2.0, 3.0], directed=False)
    places = Places(graph, {"a": 0, "c": 2})
    assert places.cost("a", "c") == 5.0
    actions = pickle.loads(pickle.dumps(places.actions(prefix="walk_", scale=0.5)))
    plan = Planner(actions).plan({"at": "a"}, {"at": "c"})
    assert plan.names == ["walk_c"] and plan.cost == 2.5


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("maze", {"a": (0, 0)}), TypeError),
        ((Grid.from_ascii(".."), {}), ValueError),
        ((Grid.from_ascii(".#"), {"a": (0, 1)}), ValueError),
        ((Grid.from_ascii(".."), {"@a": (0, 0)}), TypeError),
    ],
)
def test_bad_places_are_refused(args: tuple, error: type) -> None:
    with pytest.raises(error):
        Places(*args)


def test_a_walker_walks_to_each_place_and_the_agent_believes_where_it_is() -> None:
    grid = Grid.from_ascii(
        """
        .......
        .#####.
        .......
        """,
    )
    places = Places(grid, {"a": (2, 0), "b": (0, 6)})
    legs = Walker(places, (0, 0), speed=4.0)
    planner = Planner([*places.actions(), Action("wave", {"at": "b"}, {"waved": True})])
    start = {"at": places.label((0, 0)), "waved": False}
    executors = {**legs.executors(), "wave": lambda a, dt: "done"}
    agent = Agent(planner, [Goal("greet", {"waved": True})], start, executors=executors)
    trail = []
    while agent.tick(0.05) != "idle":
        trail.append(legs.position)
        assert agent.ticks < 200
    assert legs.node == (0, 6) and agent.beliefs["at"] == "b" and agent.beliefs["waved"]
    xs = np.array(trail)
    assert np.all(grid.walkable[xs[:, 1].astype(int), xs[:, 0].astype(int)])


def test_a_stopped_walk_leaves_the_agent_where_it_stands() -> None:
    grid = Grid.from_ascii("..........", diagonal="never")
    places = Places(grid, {"end": (0, 9)})
    legs = Walker(places, (0, 0), speed=2.0)
    planner = Planner([*places.actions(), Action("rest", {}, {"rested": True}, cost=1)])
    goals = [Goal("go", {"at": "end"}, priority=1),
             Goal("rest", {"rested": True}, priority=lambda s: 5 if s["tired"] else 0)]  # fmt: skip
    agent = Agent(planner, goals, {"at": places.label((0, 0)), "rested": False, "tired": False},
                  executors={**legs.executors(), "rest": lambda a, dt: "running"})  # fmt: skip
    for _ in range(20):
        agent.tick(0.1)
    agent.update(tired=True)
    agent.tick(0.1)
    assert agent.goal.name == "rest"
    assert legs.node == (0, 4) and agent.beliefs["at"] == "@(0, 4)" and not legs.path


def test_a_walk_to_a_place_no_path_reaches_fails() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    places = Places(grid, {"end": (0, 2)})
    legs = Walker(places, (0, 0), speed=1.0)
    walk = legs.to("end")
    grid[0, 1] = np.inf
    walk.start(None)
    assert walk.update(None, 0.1) == "failed" and legs.node == (0, 0)
