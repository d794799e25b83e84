"""Bad input to the generic search: the exception type, and a message naming the culprit."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pathcraft.search import BloomClosed, SlicedSearch, astar, bfs, dijkstra, greedy


def line(n: int) -> list[tuple[int, float]]:
    return [(n + 1, 1.0)] if n < 5 else []


def zero(n: Any) -> float:
    return 0.0


# One call per public search, all with the same (start, goal, neighbors) shape.
SEARCHES: dict[str, Callable[..., Any]] = {
    "astar": lambda s, g, nb, **kw: astar(s, g, nb, zero, **kw),
    "dijkstra": lambda s, g, nb, **kw: dijkstra(s, g, nb, **kw),
    "greedy": lambda s, g, nb, **kw: greedy(s, g, nb, zero, **kw),
    "bfs": lambda s, g, nb, **kw: bfs(s, g, nb, **kw),
}
WITH_HEURISTIC = {"astar": astar, "greedy": greedy}
CLOSED = ("exact", "bloom")


# --------------------------------------------------------------------------- during the search


@pytest.mark.parametrize("closed", CLOSED)
@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize("bad", [-1.0, -1e-300, math.nan, math.inf, -math.inf])
def test_bad_step_cost_names_the_edge(name: str, bad: float, closed: str) -> None:
    def nbrs(n: str) -> list[tuple[str, float]]:
        return {"a": [("b", 1.0)], "b": [("c", bad)]}.get(n, [])

    with pytest.raises(ValueError, match=r"neighbors\('b'\) gave step cost .* 'b' -> 'c'"):
        SEARCHES[name]("a", "z", nbrs, closed=closed)


@pytest.mark.parametrize("closed", CLOSED)
@pytest.mark.parametrize("name", WITH_HEURISTIC)
@pytest.mark.parametrize("bad", [-1.0, -1, math.nan, -math.inf])
@pytest.mark.parametrize("where", ["start", "neighbour"])
def test_bad_heuristic_names_the_node(name: str, bad: float, where: str, closed: str) -> None:
    culprit = "a" if where == "start" else "b"

    def h(n: str) -> float:
        return bad if n == culprit else 0.0

    def nbrs(n: str) -> list[tuple[str, float]]:
        return {"a": [("b", 1.0)], "b": [("c", 1.0)]}.get(n, [])

    with pytest.raises(ValueError, match=rf"heuristic\('{culprit}'\) returned"):
        WITH_HEURISTIC[name]("a", "c", nbrs, h, closed=closed)


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("weight", [0.999, 0, -2.0, math.nan, math.inf])
def test_weight_below_one_or_not_finite(weight: float) -> None:
    with pytest.raises(ValueError, match="weight must be a finite number >= 1"):
        astar(0, 5, line, zero, weight=weight)


@pytest.mark.parametrize("weight", ["2", None, True, 1j])
def test_weight_not_a_real_number(weight: Any) -> None:
    with pytest.raises(TypeError, match="weight must be a real number"):
        astar(0, 5, line, zero, weight=weight)


@pytest.mark.parametrize("name", ["astar", "dijkstra", "greedy"])
def test_unknown_tie_break_lists_the_choices(name: str) -> None:
    with pytest.raises(
        ValueError, match="tie_break must be one of 'g', 'fifo', 'random'; got 'lifo'"
    ):
        SEARCHES[name](0, 5, line, tie_break="lifo")
    with pytest.raises(TypeError, match="tie_break must be a string"):
        SEARCHES[name](0, 5, line, tie_break=0)


def test_bfs_refuses_tie_break_g() -> None:
    with pytest.raises(ValueError, match="tie_break must be one of 'fifo', 'random'; got 'g'"):
        bfs(0, 5, line, tie_break="g")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", SEARCHES)
def test_unknown_closed_lists_the_choices(name: str) -> None:
    with pytest.raises(ValueError, match="closed must be one of 'exact', 'bloom'; got 'fuzzy'"):
        SEARCHES[name](0, 5, line, closed="fuzzy")
    with pytest.raises(TypeError, match="closed must be a string"):
        SEARCHES[name](0, 5, line, closed=None)


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize("neighbors", [None, 3, [(1, 1.0)], {0: [(1, 1.0)]}])
def test_neighbors_not_callable(name: str, neighbors: Any) -> None:
    with pytest.raises(TypeError, match="neighbors must be a callable"):
        SEARCHES[name](0, 5, neighbors)


@pytest.mark.parametrize("name", WITH_HEURISTIC)
@pytest.mark.parametrize("heuristic", [3.0, "manhattan", {0: 1.0}])
def test_heuristic_not_callable(name: str, heuristic: Any) -> None:
    with pytest.raises(TypeError, match="heuristic must be a callable"):
        WITH_HEURISTIC[name](0, 5, line, heuristic)


def test_greedy_needs_a_heuristic() -> None:
    with pytest.raises(TypeError, match="greedy needs a heuristic"):
        greedy(0, 5, line, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", SEARCHES)
def test_max_expansions_negative_or_not_an_integer(name: str) -> None:
    accepted = r"max_expansions must be an integer from 0 to 9223372036854775807 or None"
    with pytest.raises(ValueError, match=accepted + "; got -1"):
        SEARCHES[name](0, 5, line, max_expansions=-1)
    with pytest.raises(ValueError, match=accepted + "; got 9223372036854775808"):
        SEARCHES[name](0, 5, line, max_expansions=2**63)
    for bad in (1.5, 2.0, "3", True):
        with pytest.raises(TypeError, match="max_expansions must be an integer"):
            SEARCHES[name](0, 5, line, max_expansions=bad)


@pytest.mark.parametrize("name", ["astar", "dijkstra", "greedy"])
def test_max_cost_negative_or_nan(name: str) -> None:
    for bad in (-1, -0.5, math.nan, -math.inf):
        with pytest.raises(ValueError, match=r"max_cost must be a number >= 0"):
            SEARCHES[name](0, 5, line, max_cost=bad)
    for bad in ("1", True):
        with pytest.raises(TypeError, match=r"max_cost must be a number"):
            SEARCHES[name](0, 5, line, max_cost=bad)


def test_bfs_max_depth_negative_or_not_an_integer() -> None:
    with pytest.raises(ValueError, match="max_depth must be an integer >= 0 or None; got -1"):
        bfs(0, 5, line, max_depth=-1)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError, match="max_depth must be an integer"):
            bfs(0, 5, line, max_depth=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["astar", "greedy", "bfs"])
def test_goal_none_is_refused_where_it_has_no_meaning(name: str) -> None:
    with pytest.raises(ValueError, match=r"goal must be a node or a predicate .* got None"):
        SEARCHES[name](0, None, line)


@pytest.mark.parametrize("closed", ["bloom", BloomClosed()])
def test_dijkstra_without_goal_refuses_bloom(closed: Any) -> None:
    with pytest.raises(ValueError, match=re.escape('closed="bloom" needs a goal')):
        dijkstra(0, None, line, closed=closed)


# --------------------------------------------------------------------------- callbacks


class CallbackError(Exception):
    """Raised by a test callback; must reach the caller as it is."""


@pytest.mark.parametrize("closed", CLOSED)
@pytest.mark.parametrize("name", SEARCHES)
def test_exception_in_neighbors_propagates_unchanged(name: str, closed: str) -> None:
    error = CallbackError("from neighbors")

    def nbrs(n: int) -> Iterator[tuple[int, float]]:
        yield n + 1, 1.0
        if n == 2:
            raise error

    with pytest.raises(CallbackError) as info:
        SEARCHES[name](0, 9, nbrs, closed=closed)
    assert info.value is error


@pytest.mark.parametrize("closed", CLOSED)
@pytest.mark.parametrize("name", WITH_HEURISTIC)
@pytest.mark.parametrize("at", [0, 3])
def test_exception_in_heuristic_propagates_unchanged(name: str, at: int, closed: str) -> None:
    error = KeyError(at)

    def h(n: int) -> float:
        if n == at:
            raise error
        return 5.0 - n

    with pytest.raises(KeyError) as info:
        WITH_HEURISTIC[name](0, 5, line, h, closed=closed)
    assert info.value is error


@pytest.mark.parametrize("closed", CLOSED)
@pytest.mark.parametrize("name", SEARCHES)
def test_exception_in_goal_predicate_propagates_unchanged(name: str, closed: str) -> None:
    error = CallbackError("from the goal predicate")

    def is_goal(n: int) -> bool:
        if n == 3:
            raise error
        return False

    with pytest.raises(CallbackError) as info:
        SEARCHES[name](0, is_goal, line, closed=closed)
    assert info.value is error


# --------------------------------------------------------------------------- unhashable nodes


@pytest.mark.parametrize("closed", ["exact", "bloom"])
@pytest.mark.parametrize("bad", [[1], {1}, {"a": 1}])
def test_an_unhashable_neighbor_is_named_with_the_node_that_gave_it(
    bad: Any, closed: str
) -> None:
    def neighbors(n: int) -> list[tuple[Any, float]]:
        return [(n + 1, 1.0)] if n < 3 else [(bad, 1.0)]

    message = rf"^neighbors\(3\) gave the neighbor {re.escape(repr(bad))}, which is not hashable"
    with pytest.raises(TypeError, match=message):
        astar(0, 9, neighbors, lambda n: 0, closed=closed)
    with pytest.raises(TypeError, match=message):
        dijkstra(0, 9, neighbors, closed=closed)
    with pytest.raises(TypeError, match=r"^neighbors\(0\) gave the neighbor \[1\]"):
        astar(0, 5, lambda n: [([1], 1.0)], lambda n: 0, closed=closed)


@pytest.mark.parametrize("name", ["start", "goal"])
def test_an_unhashable_start_or_goal_is_named(name: str) -> None:
    start, goal = ([0], 5) if name == "start" else (0, [5])
    message = rf"^{name} must be a hashable node .*got \[\d\] \(unhashable type: 'list'\)"
    with pytest.raises(TypeError, match=message):
        astar(start, goal, lambda n: [(1, 1.0)], lambda n: 0)
    with pytest.raises(TypeError, match=message):
        bfs(start, goal, lambda n: [(1, 1.0)])
    with pytest.raises(TypeError, match=message):
        SlicedSearch(start, goal, lambda n: [(1, 1.0)])
    # a predicate goal is not a node: its own hash is never asked
    assert astar(0, lambda n: n == 1, lambda n: [(1, 1.0)]).path == [0, 1]


def test_a_type_error_of_the_user_s_own_still_propagates_unchanged() -> None:
    def neighbors(n: int) -> list[tuple[int, float]]:
        if n == 2:
            raise TypeError("the user's own")
        return [(n + 1, 1.0)]

    with pytest.raises(TypeError, match=r"^the user's own$"):
        astar(0, 9, neighbors, lambda n: 0)
