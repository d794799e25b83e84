"""The generic search (`pathcraft.search`): oracles, properties, limits, ties, threads."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Any

import pytest
from _graphs import INT_WEIGHTS, Graph, admissible_heuristic, factor_lists, graphs, problems
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.search import astar, bfs, dijkstra, greedy

TIE_BREAKS = ("g", "fifo", "random")
SEEDS = st.integers(0, 2**32 - 1)


def approx(value: float) -> Any:
    return pytest.approx(value, rel=1e-9, abs=1e-9)


def assert_legal(graph: Graph, result: Any, start: int, goal: Any = None) -> None:
    """The path runs from start (to goal) over edges and ``cost`` is its exact sum."""
    path = list(result.path)
    assert path, f"empty path in {result!r}"
    assert path[0] == start
    if goal is not None:
        assert goal(path[-1]) if callable(goal) else path[-1] == goal
    assert result.cost == graph.path_cost(path)


def assert_unreachable(result: Any) -> None:
    assert not result
    assert result.found is False
    assert result.reason == "unreachable"
    assert list(result.path) == []
    assert result.cost == math.inf


# --------------------------------------------------------------------------- oracle


def optimal_searches_match_the_scipy_oracle(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    graph, start, goal = problem
    optimal = graph.dist_from(start)[goal]
    h = admissible_heuristic(graph.dist_to(goal), factors)
    for tie_break in TIE_BREAKS:
        opts: dict[str, Any] = {"tie_break": tie_break, "seed": seed}
        results = {
            "dijkstra": dijkstra(start, goal, graph.neighbors, **opts),
            "astar, no heuristic": astar(start, goal, graph.neighbors, **opts),
            "astar, zero heuristic": astar(start, goal, graph.neighbors, lambda n: 0, **opts),
            "astar, admissible": astar(start, goal, graph.neighbors, h.__getitem__, **opts),
        }
        for name, result in results.items():
            if math.isinf(optimal):
                assert_unreachable(result)
            else:
                assert result, (name, tie_break)
                assert result.reason is None
                assert result.cost == approx(optimal), (name, tie_break)
                assert_legal(graph, result, start, goal)


@settings(max_examples=40)
@given(problem=problems(), factors=factor_lists(), seed=SEEDS)
def test_optimal_searches_match_the_scipy_oracle(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    optimal_searches_match_the_scipy_oracle(problem, factors, seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(problem=problems(), factors=factor_lists(), seed=SEEDS)
def test_optimal_searches_match_the_scipy_oracle_many(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    optimal_searches_match_the_scipy_oracle(problem, factors, seed)


def dijkstra_without_goal_settles_every_reachable_node(graph: Graph, data: Any) -> None:
    start = data.draw(st.integers(0, graph.n - 1))
    dist = graph.dist_from(start)
    expected = {n: float(d) for n, d in enumerate(dist) if math.isfinite(d)}
    for tie_break in TIE_BREAKS:
        result = dijkstra(start, None, graph.neighbors, tie_break=tie_break, seed=1)
        assert result.found and result.reason is None
        assert list(result.path) == []
        assert result.distances is not None
        assert set(result.distances) == set(expected)
        assert result.expanded == len(expected)
        for node, d in expected.items():
            assert result.distances[node] == approx(d)
            path = result.path_to(node)
            assert path[0] == start and path[-1] == node
            assert graph.path_cost(path) == result.distances[node]


@settings(max_examples=25)
@given(graph=graphs(), data=st.data())
def test_dijkstra_without_goal_settles_every_reachable_node(graph: Graph, data: Any) -> None:
    dijkstra_without_goal_settles_every_reachable_node(graph, data)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(graph=graphs(), data=st.data())
def test_dijkstra_without_goal_settles_every_reachable_node_many(graph: Graph, data: Any) -> None:
    dijkstra_without_goal_settles_every_reachable_node(graph, data)


def weighted_astar_is_within_weight_times_optimal(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    graph, start, goal = problem
    optimal = graph.dist_from(start)[goal]
    h = admissible_heuristic(graph.dist_to(goal), factors)
    for weight in (1, 1.5, 2.0, 5.0):
        for tie_break in TIE_BREAKS:
            result = astar(
                start, goal, graph.neighbors, h.__getitem__, weight=weight,
                tie_break=tie_break, seed=seed,
            )  # fmt: skip
            if math.isinf(optimal):
                assert_unreachable(result)
                continue
            assert result
            assert_legal(graph, result, start, goal)
            assert optimal - 1e-9 <= result.cost <= weight * optimal + 1e-9 * max(1.0, optimal)


@settings(max_examples=25)
@given(problem=problems(), factors=factor_lists(), seed=SEEDS)
def test_weighted_astar_is_within_weight_times_optimal(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    weighted_astar_is_within_weight_times_optimal(problem, factors, seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems(), factors=factor_lists(), seed=SEEDS)
def test_weighted_astar_is_within_weight_times_optimal_many(
    problem: tuple[Graph, int, int], factors: list[float], seed: int
) -> None:
    weighted_astar_is_within_weight_times_optimal(problem, factors, seed)


def bfs_path_has_the_fewest_edges(problem: tuple[Graph, int, int], seed: int) -> None:
    graph, start, goal = problem
    hops = graph.hops_from(start)[goal]
    for tie_break in ("fifo", "random"):
        result = bfs(start, goal, graph.neighbors, tie_break=tie_break, seed=seed)
        if math.isinf(hops):
            assert_unreachable(result)
        else:
            assert result
            assert len(result.path) - 1 == hops
            assert_legal(graph, result, start, goal)


@settings(max_examples=25)
@given(problem=problems(), seed=SEEDS)
def test_bfs_path_has_the_fewest_edges(problem: tuple[Graph, int, int], seed: int) -> None:
    bfs_path_has_the_fewest_edges(problem, seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems(), seed=SEEDS)
def test_bfs_path_has_the_fewest_edges_many(problem: tuple[Graph, int, int], seed: int) -> None:
    bfs_path_has_the_fewest_edges(problem, seed)


def greedy_finds_a_path_iff_one_exists(
    problem: tuple[Graph, int, int], hvals: list[float], seed: int
) -> None:
    graph, start, goal = problem
    optimal = graph.dist_from(start)[goal]

    def h(n: int) -> float:
        return hvals[n % len(hvals)]

    for tie_break in TIE_BREAKS:
        result = greedy(start, goal, graph.neighbors, h, tie_break=tie_break, seed=seed)
        if math.isinf(optimal):
            assert_unreachable(result)
        else:
            assert result
            assert_legal(graph, result, start, goal)
            assert result.cost >= optimal - 1e-9


@settings(max_examples=25)
@given(problem=problems(), hvals=st.lists(st.floats(0, 50), min_size=1, max_size=40), seed=SEEDS)
def test_greedy_finds_a_path_iff_one_exists(
    problem: tuple[Graph, int, int], hvals: list[float], seed: int
) -> None:
    greedy_finds_a_path_iff_one_exists(problem, hvals, seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems(), hvals=st.lists(st.floats(0, 50), min_size=1, max_size=40), seed=SEEDS)
def test_greedy_finds_a_path_iff_one_exists_many(
    problem: tuple[Graph, int, int], hvals: list[float], seed: int
) -> None:
    greedy_finds_a_path_iff_one_exists(problem, hvals, seed)


def goal_predicate_finds_the_cheapest_goal_of_the_set(
    graph: Graph, data: Any, seed: int
) -> None:
    start = data.draw(st.integers(0, graph.n - 1))
    goals = data.draw(st.frozensets(st.integers(0, graph.n - 1), max_size=5))
    dist, hops = graph.dist_from(start), graph.hops_from(start)
    cheapest = min((dist[g] for g in goals), default=math.inf)
    fewest = min((hops[g] for g in goals), default=math.inf)

    def is_goal(n: int) -> bool:
        return n in goals

    for tie_break in TIE_BREAKS:
        opts: dict[str, Any] = {"tie_break": tie_break, "seed": seed}
        for result in (
            dijkstra(start, is_goal, graph.neighbors, **opts),
            astar(start, is_goal, graph.neighbors, **opts),
            astar(start, is_goal, graph.neighbors, lambda n: 0.0, **opts),
        ):
            if math.isinf(cheapest):
                assert_unreachable(result)
            else:
                assert result
                assert result.cost == approx(cheapest)
                assert_legal(graph, result, start, is_goal)
        found = greedy(start, is_goal, graph.neighbors, lambda n: float(n), **opts)
        assert bool(found) == math.isfinite(cheapest)
        if found:
            assert_legal(graph, found, start, is_goal)
    for tie_break in ("fifo", "random"):
        shortest = bfs(start, is_goal, graph.neighbors, tie_break=tie_break, seed=seed)
        if math.isinf(fewest):
            assert_unreachable(shortest)
        else:
            assert len(shortest.path) - 1 == fewest
            assert_legal(graph, shortest, start, is_goal)


@settings(max_examples=25)
@given(graph=graphs(), data=st.data(), seed=SEEDS)
def test_goal_predicate_finds_the_cheapest_goal_of_the_set(
    graph: Graph, data: Any, seed: int
) -> None:
    goal_predicate_finds_the_cheapest_goal_of_the_set(graph, data, seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(graph=graphs(), data=st.data(), seed=SEEDS)
def test_goal_predicate_finds_the_cheapest_goal_of_the_set_many(
    graph: Graph, data: Any, seed: int
) -> None:
    goal_predicate_finds_the_cheapest_goal_of_the_set(graph, data, seed)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_start_equal_to_goal_is_a_one_node_path(tie_break: str) -> None:
    def nbrs(n: int) -> list[tuple[int, float]]:
        return [(n + 1, 1.0), (n - 1, 0.0)]

    results = [
        astar(3, 3, nbrs, lambda n: abs(n - 3), tie_break=tie_break),
        dijkstra(3, 3, nbrs, tie_break=tie_break),
        greedy(3, 3, nbrs, lambda n: abs(n - 3), tie_break=tie_break),
        astar(3, 3, nbrs, closed="bloom", tie_break=tie_break),
    ]
    if tie_break != "g":
        results.append(bfs(3, 3, nbrs, tie_break=tie_break))
    for result in results:
        assert result and result.found and result.reason is None
        assert result.path == [3]
        assert result.cost == 0.0
        assert result.expanded == 1


def test_a_goal_outside_the_graph_is_unreachable_not_an_error() -> None:
    edges = {0: [(1, 1.0)], 1: [(2, 1.0)], 2: [(0, 1.0)]}

    def nbrs(n: int) -> list[tuple[int, float]]:
        return edges[n]

    for result in (
        astar(0, 99, nbrs),
        dijkstra(0, 99, nbrs),
        greedy(0, 99, nbrs, lambda n: 1.0),
        bfs(0, 99, nbrs),
        astar(0, 99, nbrs, closed="bloom"),
    ):
        assert_unreachable(result)
        assert result.expanded == 3


# --------------------------------------------------------------------------- limits


def max_expansions_stops_the_search_exactly_there(
    problem: tuple[Graph, int, int], factors: list[float], data: Any
) -> None:
    graph, start, goal = problem
    h = admissible_heuristic(graph.dist_to(goal), factors).__getitem__
    searches: dict[str, Callable[..., Any]] = {
        "astar": lambda **kw: astar(start, goal, graph.neighbors, h, **kw),
        "dijkstra": lambda **kw: dijkstra(start, goal, graph.neighbors, **kw),
        "greedy": lambda **kw: greedy(start, goal, graph.neighbors, h, **kw),
        "bfs": lambda **kw: bfs(start, goal, graph.neighbors, **kw),
        "astar bloom": lambda **kw: astar(start, goal, graph.neighbors, h, closed="bloom", **kw),
    }
    for name, search in searches.items():
        free = search()
        limit = data.draw(st.integers(0, free.expanded + 1), label=name)
        limited = search(max_expansions=limit, record=True)
        assert limited.expanded <= limit
        assert len(limited.explored) == limited.expanded
        if limit >= free.expanded:  # the limit was never reached: the same answer
            assert limited.found == free.found and limited.reason == free.reason
            assert limited.path == free.path and limited.expanded == free.expanded
        else:
            assert not limited
            assert limited.reason == "max_expansions"
            assert limited.expanded == limit
            assert limited.path == [] and limited.cost == math.inf


@settings(max_examples=25)
@given(problem=problems(), factors=factor_lists(), data=st.data())
def test_max_expansions_stops_the_search_exactly_there(
    problem: tuple[Graph, int, int], factors: list[float], data: Any
) -> None:
    max_expansions_stops_the_search_exactly_there(problem, factors, data)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems(), factors=factor_lists(), data=st.data())
def test_max_expansions_stops_the_search_exactly_there_many(
    problem: tuple[Graph, int, int], factors: list[float], data: Any
) -> None:
    max_expansions_stops_the_search_exactly_there(problem, factors, data)


def test_max_expansions_zero_expands_nothing() -> None:
    calls: list[int] = []

    def nbrs(n: int) -> list[tuple[int, float]]:
        calls.append(n)
        return [(n + 1, 1.0)]

    for result in (
        astar(0, 0, nbrs, max_expansions=0, record=True),
        dijkstra(0, 5, nbrs, max_expansions=0, record=True),
        dijkstra(0, None, nbrs, max_expansions=0, record=True),
        greedy(0, 5, nbrs, lambda n: 5 - n, max_expansions=0, record=True),
        bfs(0, 5, nbrs, max_expansions=0, record=True),
        astar(0, 5, nbrs, max_expansions=0, record=True, closed="bloom"),
    ):
        assert not result
        assert result.reason == "max_expansions"
        assert result.expanded == 0
        assert result.explored is not None and len(result.explored) == 0
    assert calls == []


def test_max_cost_gives_its_reason_when_the_only_path_is_too_expensive() -> None:
    edges = {"a": [("b", 2.0)], "b": [("c", 2.0)], "c": []}

    def nbrs(n: str) -> list[tuple[str, float]]:
        return edges[n]

    for max_cost in (0, 3.0, 3.999):
        for result in (
            astar("a", "c", nbrs, max_cost=max_cost),
            dijkstra("a", "c", nbrs, max_cost=max_cost),
            greedy("a", "c", nbrs, lambda n: 0.0, max_cost=max_cost),
            astar("a", "c", nbrs, max_cost=max_cost, closed="bloom"),
        ):
            assert not result
            assert result.reason == "max_cost"
            assert result.path == [] and result.cost == math.inf
    for max_cost in (4, 4.0, 100.0, math.inf):
        result = dijkstra("a", "c", nbrs, max_cost=max_cost)
        assert result and result.path == ["a", "b", "c"] and result.cost == 4.0
    # Without a goal, max_cost bounds what is settled and the search still completes.
    bounded = dijkstra("a", None, nbrs, max_cost=2.0)
    assert bounded.found and dict(bounded.distances or {}) == {"a": 0.0, "b": 2.0}


def max_cost_finds_the_goal_iff_the_optimal_cost_is_within_it(
    problem: tuple[Graph, int, int], factors: list[float], max_cost: float
) -> None:
    graph, start, goal = problem
    optimal = graph.dist_from(start)[goal]
    h = admissible_heuristic(graph.dist_to(goal), factors).__getitem__
    for result in (
        dijkstra(start, goal, graph.neighbors, max_cost=max_cost),
        astar(start, goal, graph.neighbors, h, max_cost=max_cost),
        astar(start, goal, graph.neighbors, max_cost=max_cost, closed="bloom"),
    ):
        if optimal <= max_cost:
            assert result and result.cost == optimal
            assert_legal(graph, result, start, goal)
        else:
            assert not result and result.path == []
            # Reachable but too dear: the limit is named. Unreachable: either reason
            # (the search cannot tell whether a pruned edge led to the goal).
            if math.isfinite(optimal):
                assert result.reason == "max_cost"
            else:
                assert result.reason in ("max_cost", "unreachable")


@settings(max_examples=25)
@given(
    problem=problems(weights=INT_WEIGHTS),
    factors=factor_lists(),
    max_cost=st.integers(0, 40).map(lambda c: c + 0.5),
)
def test_max_cost_finds_the_goal_iff_the_optimal_cost_is_within_it(
    problem: tuple[Graph, int, int], factors: list[float], max_cost: float
) -> None:
    max_cost_finds_the_goal_iff_the_optimal_cost_is_within_it(problem, factors, max_cost)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(
    problem=problems(weights=INT_WEIGHTS),
    factors=factor_lists(),
    max_cost=st.integers(0, 40).map(lambda c: c + 0.5),
)
def test_max_cost_finds_the_goal_iff_the_optimal_cost_is_within_it_many(
    problem: tuple[Graph, int, int], factors: list[float], max_cost: float
) -> None:
    max_cost_finds_the_goal_iff_the_optimal_cost_is_within_it(problem, factors, max_cost)


def bfs_max_depth(problem: tuple[Graph, int, int], max_depth: int) -> None:
    graph, start, goal = problem
    hops = graph.hops_from(start)[goal]
    result = bfs(start, goal, graph.neighbors, max_depth=max_depth)
    if hops <= max_depth:
        assert result and len(result.path) - 1 == hops
        assert_legal(graph, result, start, goal)
    else:
        assert not result and result.path == []
        if math.isfinite(hops):
            assert result.reason == "max_depth"
        else:
            assert result.reason in ("max_depth", "unreachable")


@settings(max_examples=25)
@given(problem=problems(), max_depth=st.integers(0, 12))
def test_bfs_max_depth(problem: tuple[Graph, int, int], max_depth: int) -> None:
    bfs_max_depth(problem, max_depth)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems(), max_depth=st.integers(0, 12))
def test_bfs_max_depth_many(problem: tuple[Graph, int, int], max_depth: int) -> None:
    bfs_max_depth(problem, max_depth)


def test_bfs_max_depth_on_a_line() -> None:
    def line(n: int) -> list[tuple[int, float]]:
        return [(n + 1, 1.0)]

    assert bfs(0, 3, line, max_depth=3).path == [0, 1, 2, 3]
    stopped = bfs(0, 3, line, max_depth=2)
    assert not stopped and stopped.reason == "max_depth"


def partial_path_leads_to_the_expanded_node_with_the_smallest_heuristic(
    problem: tuple[Graph, int, int], hvals: list[float], limit: int | None
) -> None:
    graph, start, goal = problem

    def h(n: int) -> float:
        return 0.0 if n == goal else hvals[n % len(hvals)]

    for closed in ("exact", "bloom"):
        for search in (astar, greedy):
            result = search(
                start, goal, graph.neighbors, h, max_expansions=limit, partial=True,
                record=True, closed=closed,
            )  # fmt: skip
            if result:
                assert_legal(graph, result, start, goal)
                continue
            assert result.found is False
            assert result.reason in ("max_expansions", "unreachable")
            assert_legal(graph, result, start)
            assert result.explored is not None
            if result.expanded == 0:
                assert result.path == [start]
            else:
                assert result.path[-1] in result.explored.nodes
                assert h(result.path[-1]) == min(h(n) for n in result.explored.nodes)


@settings(max_examples=25)
@given(
    problem=problems(),
    hvals=st.lists(st.integers(0, 6).map(float), min_size=1, max_size=40),
    limit=st.none() | st.integers(0, 40),
)
def test_partial_path_leads_to_the_expanded_node_with_the_smallest_heuristic(
    problem: tuple[Graph, int, int], hvals: list[float], limit: int | None
) -> None:
    partial_path_leads_to_the_expanded_node_with_the_smallest_heuristic(problem, hvals, limit)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(
    problem=problems(),
    hvals=st.lists(st.integers(0, 6).map(float), min_size=1, max_size=40),
    limit=st.none() | st.integers(0, 40),
)
def test_partial_path_leads_to_the_expanded_node_with_the_smallest_heuristic_many(
    problem: tuple[Graph, int, int], hvals: list[float], limit: int | None
) -> None:
    partial_path_leads_to_the_expanded_node_with_the_smallest_heuristic(problem, hvals, limit)


def test_partial_path_on_a_line() -> None:
    def line(n: int) -> list[tuple[int, float]]:
        return [(m, 2.0) for m in (n - 1, n + 1) if 0 <= m < 5]

    stopped = astar(0, 4, line, lambda n: 2.0 * (4 - n), max_expansions=2, partial=True)
    assert not stopped and stopped.reason == "max_expansions"
    assert stopped.path == [0, 1] and stopped.cost == 2.0
    no_partial = astar(0, 4, line, lambda n: 2.0 * (4 - n), max_expansions=2)
    assert no_partial.path == [] and no_partial.cost == math.inf
    # Unreachable goal: the partial path goes to the closest node that was reached.
    island = astar(0, 9, line, lambda n: 9 - n, partial=True)
    assert not island and island.reason == "unreachable"
    assert island.path == [0, 1, 2, 3, 4] and island.cost == 8.0


def record_keeps_every_expansion_in_order(problem: tuple[Graph, int, int]) -> None:
    graph, start, goal = problem
    calls: list[int] = []

    def nbrs(n: int) -> list[tuple[int, float]]:
        calls.append(n)
        return graph.neighbors(n)

    for target in (goal, None):
        calls.clear()
        result = dijkstra(start, target, nbrs, record=True)
        explored = result.explored
        assert explored is not None
        assert len(explored) == result.expanded == len(explored.nodes)
        nodes, g = list(explored.nodes), list(explored.g)
        assert nodes[0] == start and g[0] == 0.0
        # neighbors() is called once per expansion, in expansion order; the goal is
        # expanded (counted, recorded) but its neighbours are never asked for.
        assert calls == (nodes[:-1] if target is not None and result else nodes)
        # keys are rounded to 41 bits (_engine.key_round): order up to 2**-40 of g
        assert all(a * (1 - 2.0**-40) <= b for a, b in pairwise(g)), "dijkstra's g decreased"
        assert len(set(nodes)) == len(nodes)
        if target is not None and result:
            assert nodes[-1] == goal and g[-1] == result.cost
        if target is None:
            assert dict(zip(nodes, g, strict=True)) == dict(result.distances or {})
    assert astar(start, goal, graph.neighbors).explored is None


@settings(max_examples=25)
@given(problem=problems())
def test_record_keeps_every_expansion_in_order(problem: tuple[Graph, int, int]) -> None:
    record_keeps_every_expansion_in_order(problem)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problem=problems())
def test_record_keeps_every_expansion_in_order_many(problem: tuple[Graph, int, int]) -> None:
    record_keeps_every_expansion_in_order(problem)


# --------------------------------------------------------------------------- ties


def open_grid(size: int) -> Callable[[tuple[int, int]], Iterator[tuple[tuple[int, int], float]]]:
    def neighbors(cell: tuple[int, int]) -> Iterator[tuple[tuple[int, int], float]]:
        r, c = cell
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nxt[0] < size and 0 <= nxt[1] < size:
                yield nxt, 1.0

    return neighbors


def manhattan_to(goal: tuple[int, int]) -> Callable[[tuple[int, int]], float]:
    return lambda cell: float(abs(cell[0] - goal[0]) + abs(cell[1] - goal[1]))


def test_random_ties_vary_the_path_over_seeds_and_repeat_for_one_seed() -> None:
    nbrs, goal = open_grid(8), (7, 7)
    h = manhattan_to(goal)
    for search in (
        lambda seed: astar((0, 0), goal, nbrs, h, tie_break="random", seed=seed),
        lambda seed: dijkstra((0, 0), goal, nbrs, tie_break="random", seed=seed),
        lambda seed: bfs((0, 0), goal, nbrs, tie_break="random", seed=seed),
    ):
        paths = set()
        for seed in range(30):
            result = search(seed)
            assert result and result.cost == 14.0 and len(result.path) == 15
            again = search(seed)
            assert again.path == result.path and again.expanded == result.expanded
            paths.add(tuple(result.path))
        assert len(paths) > 1


@settings(max_examples=50)
@given(problem=problems(), seed=SEEDS)
def test_the_same_seed_gives_the_same_answer(problem: tuple[Graph, int, int], seed: int) -> None:
    graph, start, goal = problem
    for search in (
        lambda: astar(start, goal, graph.neighbors, tie_break="random", seed=seed),
        lambda: greedy(start, goal, graph.neighbors, float, tie_break="random", seed=seed),
        lambda: bfs(start, goal, graph.neighbors, tie_break="random", seed=seed),
    ):
        first, second = search(), search()
        assert (first.path, first.cost, first.expanded) == (
            second.path,
            second.cost,
            second.expanded,
        )


def test_default_ties_prefer_larger_g_and_are_deterministic() -> None:
    nbrs, goal = open_grid(8), (7, 7)
    h = manhattan_to(goal)
    results = [astar((0, 0), goal, nbrs, h) for _ in range(5)]
    assert all(r.path == results[0].path for r in results)
    # Every cell of a shortest path has f = 14; preferring the larger g walks straight
    # down one of them, so only the 15 cells of the path are expanded.
    assert results[0].cost == 14.0 and results[0].expanded == 15
    fifo = astar((0, 0), goal, nbrs, h, tie_break="fifo")
    assert fifo.cost == 14.0 and fifo.expanded > 15


# --------------------------------------------------------------------------- threads


def test_threads_sharing_one_graph_get_the_serial_answers() -> None:
    rng = random.Random(20240601)
    n = 300
    edges: dict[tuple[int, int], float] = {}
    for u in range(n):
        for _ in range(4):
            edges[(u, rng.randrange(n))] = float(rng.randint(0, 9))
    graph = Graph(n, edges)
    h = {node: 0.5 * float(d) for node, d in enumerate(graph.dist_to(0))}

    def query(i: int) -> tuple[Any, ...]:
        start, goal, kind = (i * 7919) % n, (i * 104729) % n, i % 5
        if kind == 0:
            r = dijkstra(start, goal, graph.neighbors)
        elif kind == 1:
            r = astar(start, 0, graph.neighbors, h.__getitem__)
        elif kind == 2:
            r = astar(start, goal, graph.neighbors, tie_break="random", seed=i)
        elif kind == 3:
            r = bfs(start, goal, graph.neighbors, tie_break="random", seed=i)
        else:
            r = greedy(start, goal, graph.neighbors, float, tie_break="fifo")
        return (r.found, r.reason, tuple(r.path), r.cost, r.expanded)

    queries = list(range(160))
    serial = [query(i) for i in queries]
    assert sum(found for found, *_ in serial) > 40  # the queries do real work
    with ThreadPoolExecutor(max_workers=8) as pool:
        rounds = [list(pool.map(query, queries)) for _ in range(3)]
    for parallel in rounds:
        assert parallel == serial


# --------------------------------------------------------------------------- nodes


class Box:
    """A hashable wrapper around a dict, with no ordering."""

    __slots__ = ("payload",)

    def __init__(self, payload: dict[str, int]) -> None:
        self.payload = payload

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.payload.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and self.payload == other.payload

    def __repr__(self) -> str:
        return f"Box({self.payload!r})"


LABELS: list[Hashable] = [
    Box({"x": 0}), 1, "a", frozenset({1}), frozenset({2}), (1, "b"), Box({"x": 1}),
    2.5, b"raw", None, Box({"y": 2}), "b", frozenset(),
]  # fmt: skip


@settings(max_examples=60)
@given(
    problem=problems(min_nodes=2, max_nodes=len(LABELS), weights=st.sampled_from([0, 1, 1.0])),
    seed=SEEDS,
)
def test_unorderable_nodes_are_never_compared(problem: tuple[Graph, int, int], seed: int) -> None:
    graph, start, goal = problem
    index = {label: i for i, label in enumerate(LABELS)}
    assert len(index) == len(LABELS)

    def nbrs(label: Hashable) -> list[tuple[Hashable, float]]:
        return [(LABELS[v], w) for v, w in graph.neighbors(index[label])]

    optimal = graph.dist_from(start)[goal]
    hops = graph.hops_from(start)[goal]
    s = LABELS[start]
    # goal=None means "no goal" (dijkstra) or is refused: a None goal is a predicate.
    t: Any = LABELS[goal] if LABELS[goal] is not None else (lambda n: n is None)
    for tie_break in TIE_BREAKS:
        for closed in ("exact", "bloom"):
            opts: dict[str, Any] = {"tie_break": tie_break, "seed": seed, "closed": closed}
            results = [
                astar(s, t, nbrs, lambda n: 0.0, **opts),
                dijkstra(s, t, nbrs, **opts),
                dijkstra(s, lambda n: n == LABELS[goal], nbrs, **opts),
            ]
            if tie_break != "g":
                shortest = bfs(s, t, nbrs, **opts)
                assert bool(shortest) == math.isfinite(hops)
                if shortest:
                    assert len(shortest.path) - 1 == hops
            for result in results:
                assert bool(result) == math.isfinite(optimal)
                if result:
                    assert result.cost == approx(optimal)
                    path = [index[label] for label in result.path]
                    assert path[0] == start and path[-1] == goal
                    assert result.cost == graph.path_cost(path)
            found = greedy(s, t, nbrs, lambda n: 1.0, **opts)
            assert bool(found) == math.isfinite(optimal)
            if found:
                path = [index[label] for label in found.path]
                assert path[0] == start and path[-1] == goal
                assert found.cost == graph.path_cost(path)
        everything = dijkstra(s, None, nbrs, tie_break=tie_break, seed=seed)
        assert {index[n] for n in everything.distances or {}} == {
            n for n, d in enumerate(graph.dist_from(start)) if math.isfinite(d)
        }


def test_none_is_an_ordinary_node() -> None:
    edges: dict[Any, list[tuple[Any, float]]] = {
        "s": [(None, 1.0), ("x", 5.0)],
        None: [("t", 1.0)],
        "x": [("t", 1.0)],
        "t": [],
    }

    def nbrs(n: Any) -> list[tuple[Any, float]]:
        return edges[n]

    for closed in ("exact", "bloom"):
        assert astar("s", "t", nbrs, closed=closed).path == ["s", None, "t"]
        assert dijkstra("s", "t", nbrs, closed=closed).path == ["s", None, "t"]
        h = {"s": 2.0, None: 1.0, "x": 3.0, "t": 0.0}.__getitem__
        assert greedy("s", "t", nbrs, h, closed=closed).path == ["s", None, "t"]
        assert bfs("s", "t", nbrs, closed=closed).path == ["s", None, "t"]

        # Regression: the engine took a goal node None for "goal not reached".
        def is_none(n: Any) -> bool:
            return n is None

        for to_none in (
            astar("s", is_none, nbrs, closed=closed),
            dijkstra("s", is_none, nbrs, closed=closed),
            greedy("s", is_none, nbrs, h, closed=closed),
            bfs("s", is_none, nbrs, closed=closed),
        ):
            assert to_none and to_none.path == ["s", None] and to_none.cost == 1.0
        from_none = astar(None, "t", nbrs, closed=closed)
        assert from_none.path == [None, "t"] and from_none.cost == 1.0
        at_none = dijkstra(None, lambda n: n is None, nbrs, closed=closed)
        assert at_none.path == [None] and at_none.cost == 0.0
    everything = dijkstra("s", None, nbrs)
    assert dict(everything.distances or {}) == {"s": 0.0, None: 1.0, "x": 5.0, "t": 2.0}
    assert everything.path_to(None) == ["s", None]
    assert everything.path_to("t") == ["s", None, "t"]
    from_none_all = dijkstra(None, None, nbrs)
    assert dict(from_none_all.distances or {}) == {None: 0.0, "t": 1.0}
    assert from_none_all.path_to(None) == [None]
    assert from_none_all.path_to("t") == [None, "t"]
