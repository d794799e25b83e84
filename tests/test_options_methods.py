"""Refusals name the method the caller called, and the cache of checked options never
answers for a value it did not check."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from shapely import box

from pathcraft import Graph, Grid, NavMesh, WaypointGraph
from pathcraft._options import SearchOptions, UnsupportedOptionError

GRID = Grid(np.ones((3, 3)))
GRAPH = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)])
WAYPOINTS = WaypointGraph([(5, -1), (5, 3)], obstacles=[box(4, 0, 6, 2)])
MESH = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])

#: (world, method, a call with ``partial=True`` under an algorithm that refuses it)
CALLS: list[tuple[str, str, Callable[[], Any]]] = [
    ("Grid", "find_path",
     lambda: GRID.find_path((0, 0), (2, 2), algorithm="dijkstra", partial=True)),
    ("Grid", "start_search",
     lambda: GRID.start_search((0, 0), (2, 2), algorithm="dijkstra", partial=True)),
    ("Grid", "find_paths",
     lambda: GRID.find_paths([(0, 0)], [(2, 2)], algorithm="dijkstra", partial=True)),
    ("Grid", "path_costs",
     lambda: GRID.path_costs([(0, 0)], [(2, 2)], algorithm="jps", weight=1.0, seed=3)),
    ("Graph", "find_path", lambda: GRAPH.find_path(0, 2, algorithm="dijkstra", partial=True)),
    ("Graph", "start_search",
     lambda: GRAPH.start_search(0, 2, algorithm="dijkstra", partial=True)),
    ("Graph", "find_paths",
     lambda: GRAPH.find_paths([0], [2], algorithm="dijkstra", partial=True)),
    ("Graph", "path_costs",
     lambda: GRAPH.path_costs([0], [2], algorithm="dijkstra", weight=2.0)),
    ("WaypointGraph", "find_path",
     lambda: WAYPOINTS.find_path((3, 1), (7, 1), algorithm="dijkstra", partial=True)),
    ("WaypointGraph", "start_search",
     lambda: WAYPOINTS.start_search((3, 1), (7, 1), algorithm="dijkstra", partial=True)),
    ("NavMesh", "find_path",
     lambda: MESH.find_path((0.5, 0.5), (1.5, 0.5), algorithm="optimal", record=True)),
    ("NavMesh", "start_search",
     lambda: MESH.start_search((0.5, 0.5), (1.5, 0.5), algorithm="optimal", record=True)),
]  # fmt: skip


@pytest.mark.parametrize(("world", "method", "call"), CALLS, ids=[f"{w}.{m}" for w, m, _ in CALLS])
def test_a_refusal_names_the_method_called(world: str, method: str, call: Any) -> None:
    with pytest.raises(UnsupportedOptionError, match=rf"^{world}\.{method}\(algorithm=") as err:
        call()
    assert "does not take" in str(err.value)
    if method != "find_path":
        assert "find_path(" not in str(err.value)


def test_path_costs_refuses_partial_and_record_by_its_own_name() -> None:
    for world, call in (
        ("Grid", lambda: GRID.path_costs([(0, 0)], [(2, 2)], partial=True)),
        ("Graph", lambda: GRAPH.path_costs([0], [2], record=True)),
    ):
        with pytest.raises(UnsupportedOptionError, match=rf"^{world}\.path_costs does not take"):
            call()


def test_an_option_named_like_a_check_argument_is_an_unknown_option() -> None:
    for name in ("world", "algorithm_", "method", "options"):
        with pytest.raises(UnsupportedOptionError, match=re.escape(f"unknown option {name!r}")):
            GRID.find_path((0, 0), (2, 2), **{name: 1})  # type: ignore[arg-type]


def test_the_cache_never_answers_for_a_value_it_did_not_check() -> None:
    assert SearchOptions.check("Grid", "astar", partial=True).partial is True
    with pytest.raises(TypeError, match="partial must be True or False; got 1"):
        SearchOptions.check("Grid", "astar", partial=1)
    assert SearchOptions.check("Grid", "astar", max_expansions=5).max_expansions == 5
    with pytest.raises(TypeError, match="max_expansions must be an integer"):
        SearchOptions.check("Grid", "astar", max_expansions=5.0)
    once = SearchOptions.check("Graph", "astar", weight=2, seed=4)
    assert SearchOptions.check("Graph", "astar", weight=2, seed=4) is once
    assert SearchOptions.check("Graph", "astar", weight=2, seed=5).seed == 5
    with pytest.raises(UnsupportedOptionError, match=r"^Grid\.find_paths"):
        SearchOptions.check_call("Grid", "find_paths", "dijkstra", {"partial": True})
    # an unhashable (bad) value is checked, not looked up
    with pytest.raises(TypeError, match="weight must be a real number"):
        SearchOptions.check("Grid", "astar", weight=[2])


def test_checked_options_pass_on_as_the_same_search() -> None:
    opts = SearchOptions.check("Graph", "greedy", heuristic="zero", max_cost=3)
    assert opts.given_options() == {"heuristic": "zero", "max_cost": 3.0}
    again = SearchOptions.check("Graph", "greedy", **opts.given_options())
    assert (again.heuristic, again.max_cost, again.given) == ("zero", 3.0, opts.given)


def test_the_generic_searches_refuse_options_by_the_uniform_error() -> None:
    from pathcraft import search

    def line(n: int) -> list[tuple[int, float]]:
        return [(n + 1, 1.0)] if n < 3 else []

    refused = r"^search\.find_path\(algorithm='{}'\) does not take {}"
    with pytest.raises(UnsupportedOptionError, match=refused.format("dijkstra", "weight")):
        search.dijkstra(0, 3, line, weight=2.0)  # type: ignore[call-arg]
    with pytest.raises(UnsupportedOptionError, match=refused.format("bfs", "partial")):
        search.bfs(0, 3, line, partial=True)  # type: ignore[call-arg]
    assert search.bfs(0, 3, line, max_depth=2).reason == "max_depth"
    assert search.astar(0, 3, line, lambda n: 3.0 - n, weight=2.0, closed="exact").cost == 3.0
