"""Issue 14's list of bad input: each gets a clear error of one exact type whose
message names the argument (or the callable, or the fact) and what is accepted."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from pathcraft import Graph, Grid, NavMesh
from pathcraft._options import UnsupportedOptionError
from pathcraft.goap import Action, MissingFactWarning, Planner, add, ge
from pathcraft.search import astar


def square_mesh() -> NavMesh:
    return NavMesh([(0, 0), (10, 0), (10, 2), (0, 2)], [[0, 1, 2, 3]])


CHOP = [
    Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
    Action("chop", {"has_axe": True}, {"wood": True}),
]

CASES: list[tuple[str, Any, type[Exception], list[str]]] = [
    (
        "a cell too big for any integer type",
        lambda: Grid(np.ones((4, 4))).astar((2**70, 0), (1, 1)),
        ValueError,
        ["start (1180591620717411303424, 0) is outside the grid of shape (4, 4)", "rows run"],
    ),
    (
        "a uint64 cell",
        lambda: Grid(np.ones((4, 4))).astar(np.array([2**64 - 1, 0], np.uint64), (1, 1)),
        ValueError,
        ["start (18446744073709551615, 0) is outside the grid"],
    ),
    (
        "a uint64 cell in a batch",
        lambda: Grid(np.ones((4, 4))).find_paths(
            np.array([[0, 0], [2**64 - 1, 0]], np.uint64), [(1, 1), (1, 1)]
        ),
        ValueError,
        ["starts[1] (18446744073709551615, 0) is outside the grid"],
    ),
    (
        "(x, y) floats where a grid takes cells",
        lambda: Grid(np.ones((4, 4))).astar((1.5, 0.5), (1, 1)),
        TypeError,
        ["start must be (row, col) integers", "not (x, y) positions"],
    ),
    (
        "a cell that looks swapped",
        lambda: Grid(np.ones((2, 5))).astar((0, 0), (4, 1)),
        ValueError,
        ["goal (4, 1) is outside the grid", "grids take (row, col): did you mean (1, 4)?"],
    ),
    (
        "a point too far from a mesh to measure",
        lambda: square_mesh().nearest_point([(1e300, 1e300)]),
        ValueError,
        ["points (1e+300, 1e+300) is too far from the mesh", "(x, y)"],
    ),
    (
        "one of several points too far from a mesh",
        lambda: square_mesh().nearest_point([(20.0, 1.0), (-1e300, 1e300)]),
        ValueError,
        ["points[1] (-1e+300, 1e+300) is too far from the mesh"],
    ),
    (
        "a far start snapped onto a mesh",
        lambda: square_mesh().find_path((1e300, -1e300), (1.0, 1.0), snap=True),
        ValueError,
        ["start (1e+300, -1e+300) is too far from the mesh"],
    ),
    (
        "a (row, col) cell given to a mesh",
        lambda: square_mesh().find_path((1, 5), (0.5, 1)),
        ValueError,
        ["start (1.0, 5.0) is off the mesh", "positions are (x, y); (5.0, 1.0) is on the mesh"],
    ),
    (
        "an edge id that is not an edge",
        lambda: Graph(3, [0, 1], [1, 2]).set_weights([1.0], edges=[7]),
        ValueError,
        ["edges[0] = 7 is not an edge id", "from 0 to 1 (the graph has 2 edges)"],
    ),
    (
        "a negative edge id",
        lambda: Graph(3, [0, 1], [1, 2]).set_weights([1.0], edges=[-1]),
        ValueError,
        ["edges[0] = -1 is not an edge id"],
    ),
    (
        "a neighbours function yielding bare nodes",
        lambda: astar(0, 3, lambda n: [n + 1], None),
        TypeError,
        ["neighbors(0) must yield (neighbor, step_cost) pairs", "a bare node without its cost"],
    ),
    (
        "a neighbours function yielding triples",
        lambda: astar(0, 3, lambda n: [(n + 1, 1.0, "x")], None),
        TypeError,
        ["neighbors(0) must yield (neighbor, step_cost) pairs; it yielded (1, 1.0, 'x')"],
    ),
    (
        "a neighbours function returning a number",
        lambda: astar(0, 3, lambda n: 5, None),
        TypeError,
        ["neighbors(0) must return an iterable of (neighbor, step_cost) pairs"],
    ),
    (
        "a step cost that is a string",
        lambda: astar(0, 3, lambda n: [(n + 1, "1")], None),
        TypeError,
        ["neighbors(0) gave step cost '1' (str)"],
    ),
    (
        "a heuristic returning a string",
        lambda: astar(0, 3, lambda n: [(n + 1, 1.0)], lambda n: "far"),
        TypeError,
        ["heuristic(0) returned 'far' (str)", "a number >= 0"],
    ),
    (
        "Planner(None)",
        lambda: Planner(None),  # type: ignore[arg-type]
        TypeError,
        ["actions must be an iterable of Action objects", "NoneType"],
    ),
    (
        "Planner(one action)",
        lambda: Planner(CHOP[0]),  # type: ignore[arg-type]
        TypeError,
        ["actions must be an iterable of Action objects"],
    ),
    (
        "a goal of None",
        lambda: Planner(CHOP).plan({"has_axe": False}, None),  # type: ignore[arg-type]
        TypeError,
        ["goal must be a mapping of fact names", "got None"],
    ),
    (
        "grid costs whose paths overflow",
        lambda: Grid(np.full((3, 3), 1e308)),
        ValueError,
        ["cost holds 1e+308, too large for a grid of 9 cells", "at most"],
    ),
    (
        "a grid cell set to an overflowing cost",
        lambda: Grid(np.ones((3, 3))).__setitem__((1, 1), 1e308),
        ValueError,
        ["value holds 1e+308"],
    ),
    (
        "graph weights whose paths overflow",
        lambda: Graph(3, [0, 1], [1, 2], [1e308, 1e308]),
        ValueError,
        ["weights are too large: their sum overflows"],
    ),
    (
        "set_weights making paths overflow",
        lambda: Graph(3, [0, 1], [1, 2]).set_weights([1e308, 1e308]),
        ValueError,
        ["weights are too large"],
    ),
    (
        "set_weight making paths overflow",
        lambda: Graph(3, [0, 1], [1, 2], [1e308, 1.0]).set_weight(1, 2, 1e308),
        ValueError,
        ["weight are too large"],
    ),
    (
        "progress='yes' on a batch",
        lambda: Grid(np.ones((2, 2))).find_paths([(0, 0)], [(1, 1)], progress="yes"),
        TypeError,
        ["progress must be True or False; got 'yes'"],
    ),
    (
        "progress=None on a graph batch",
        lambda: Graph(2, [0], [1]).path_costs([0], [1], progress=None),
        TypeError,
        ["progress must be True or False; got None"],
    ),
    (
        "partial=2 on a batch",
        lambda: Grid(np.ones((2, 2))).find_paths([(0, 0)], [(1, 1)], partial=2),
        TypeError,
        ["partial must be True or False; got 2"],
    ),
    (
        "record='yes' on a batch",
        lambda: Graph(2, [0], [1]).find_paths([0], [1], record="yes"),
        TypeError,
        ["record must be True or False; got 'yes'"],
    ),
    (
        "paths= (gone: path_costs is its own function)",
        lambda: Grid(np.ones((2, 2))).find_paths([(0, 0)], [(1, 1)], paths=False),
        UnsupportedOptionError,
        ["paths"],
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "parts"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_gets_a_clear_error(call: Any, error: type[Exception], parts: list[str]) -> None:
    with pytest.raises(Exception) as caught:
        call()
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    for part in parts:
        assert part in str(caught.value)


def test_an_overflowing_grid_is_refused_before_it_can_answer_inf() -> None:
    near = np.full((3, 3), 1e306)  # large, yet every path stays finite: accepted
    result = Grid(near).astar((0, 0), (2, 2))
    assert result.found and np.isfinite(result.cost)
    assert Graph(3, [0, 1], [1, 2], [1e307, 1e307]).astar(0, 2).cost == 2e307


def test_a_users_own_type_error_still_comes_through() -> None:
    def neighbors(node: int) -> list[tuple[int, float]]:
        if node == 2:
            raise TypeError("my own bug")
        return [(node + 1, 1.0)]

    with pytest.raises(TypeError, match="my own bug"):
        astar(0, 5, neighbors, None)


def test_goap_objects_pickle() -> None:
    actions = [
        Action("inc", {"x": ge(0)}, {"x": add(2)}, cost=1.5),
        Action("set", {"x": ge(4)}, {"done": True}),
    ]
    planner = Planner(actions)
    plan = planner.plan({"x": 0, "done": False}, {"done": True})
    for thing in (actions[0], plan):
        again = pickle.loads(pickle.dumps(thing))
        assert repr(again) == repr(thing)
    assert [repr(a) for a in pickle.loads(pickle.dumps(planner)).actions] == [
        repr(a) for a in actions
    ]
    action = pickle.loads(pickle.dumps(actions[0]))
    assert dict(action.preconditions) == dict(actions[0].preconditions)
    with pytest.raises(TypeError):
        action.effects["x"] = 1  # type: ignore[index]  # still read-only
    replanned = pickle.loads(pickle.dumps(planner)).plan({"x": 0, "done": False}, {"done": True})
    assert replanned.cost == plan.cost
    assert [a.name for a in replanned.actions] == [a.name for a in plan.actions]


def test_navmesh_spells_neighbors_like_every_other_world() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    assert [n.tolist() for n in mesh.polygon_neighbors] == [[-1, 1, -1, -1], [-1, -1, -1, 0]]
    assert not hasattr(mesh, "neighbours")


def test_a_start_state_missing_a_needed_fact_is_named() -> None:
    planner = Planner(
        [
            Action("go", {"door": "open"}, {"out": True}),
            Action("open", {"door": "closed"}, {"door": "open"}),
        ]
    )
    with pytest.warns(MissingFactWarning) as caught:
        plan = planner.plan({}, {"out": True})
    assert not plan and plan.reason == "unreachable"  # still an answer, not an exception
    message = str(caught[0].message)
    assert "the start state lacks fact 'door'" in message
    assert "give the fact a starting value" in message
    assert caught[0].filename == __file__  # points at the caller's line


def test_a_users_value_error_inside_neighbors_comes_through_once() -> None:
    calls = []

    def neighbors(node: int) -> list[tuple[int, float]]:
        calls.append(node)
        if node == 0 and len(calls) > 1:
            raise ValueError("asked again")
        if node == 1:
            raise ValueError("my own check")
        return [(node + 1, 1.0)]

    with pytest.raises(ValueError, match="my own check") as caught:
        astar(0, 5, neighbors, None)
    assert caught.value.__context__ is None  # no second error chained onto it
