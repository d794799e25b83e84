"""The sliced search: any slice size gives exactly the blocking search's result (same
engine), statuses, limits, errors; the path-request queue built on it."""

from __future__ import annotations

from typing import Any

import pytest
from _graphs import admissible_heuristic, factor_lists, problems
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft._options import UnsupportedOptionError
from pathcraft.agents import PathRequestQueue
from pathcraft.search import SlicedSearch, astar, bfs, dijkstra, greedy


def summary(result: Any) -> tuple[Any, ...]:
    """Everything but the wall-clock time."""
    explored = result.explored
    return (
        list(result.path), result.cost, result.found, result.reason, result.expanded,
        result.generated,
        None if explored is None else (list(explored.nodes), list(explored.g)),
        None if result.distances is None else list(result.distances.items()),
        None if result._parents is None else list(result._parents.items()),
    )  # fmt: skip


def run_sliced(search: SlicedSearch, sizes: list[int]) -> tuple[Any, list[int]]:
    statuses = []
    i = 0
    while True:
        size = sizes[i % len(sizes)]
        before = search.expanded
        status = search.step(size)
        statuses.append(status)
        i += 1
        if status != "in_progress":
            assert search.expanded - before <= size
            break
        assert search.expanded - before == size  # a slice uses its whole budget
    assert search.status == status
    return search.result, statuses


SLICES = st.lists(st.integers(1, 7), min_size=1, max_size=4)
OPTIONS = st.fixed_dictionaries(
    {
        "tie_break": st.sampled_from(("g", "fifo", "random")),
        "max_expansions": st.one_of(st.none(), st.integers(0, 30)),
        "max_cost": st.one_of(st.none(), st.floats(0, 30)),
        "record": st.booleans(),
    }
)


def sliced_astar_gives_exactly_the_blocking_result(
    problem: Any, factors: list[float], sizes: list[int], options: dict[str, Any],
    partial: bool, weight: float,
) -> None:  # fmt: skip
    graph, start, goal = problem
    h = admissible_heuristic(graph.dist_to(goal), factors)
    heuristic = h.__getitem__
    want = astar(start, goal, graph.neighbors, heuristic, weight=weight, partial=partial,
                 seed=7, **options)  # fmt: skip
    search = SlicedSearch(start, goal, graph.neighbors, heuristic, weight=weight,
                          partial=partial, seed=7, **options)  # fmt: skip
    got, statuses = run_sliced(search, sizes)
    assert summary(got) == summary(want)
    assert statuses[-1] == ("found" if want.found else want.reason)
    assert all(s == "in_progress" for s in statuses[:-1])


@settings(max_examples=30)
@given(problems(), factor_lists(), SLICES, OPTIONS, st.booleans(), st.sampled_from((1.0, 2.5)))
def test_sliced_astar_gives_exactly_the_blocking_result(
    problem: Any, factors: list[float], sizes: list[int], options: dict[str, Any],
    partial: bool, weight: float,
) -> None:  # fmt: skip
    sliced_astar_gives_exactly_the_blocking_result(
        problem, factors, sizes, options, partial, weight
    )


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problems(), factor_lists(), SLICES, OPTIONS, st.booleans(), st.sampled_from((1.0, 2.5)))
def test_sliced_astar_gives_exactly_the_blocking_result_many(
    problem: Any, factors: list[float], sizes: list[int], options: dict[str, Any],
    partial: bool, weight: float,
) -> None:  # fmt: skip
    sliced_astar_gives_exactly_the_blocking_result(
        problem, factors, sizes, options, partial, weight
    )


def sliced_dijkstra_greedy_and_bfs_match_their_blocking_calls(
    problem: Any, sizes: list[int], no_goal: bool, which: int
) -> None:
    graph, start, goal = problem
    nb = graph.neighbors
    h = {n: 0.0 if n == goal else 1.0 for n in range(graph.n)}.__getitem__
    if which == 0:
        target = None if no_goal else goal
        want = dijkstra(start, target, nb)
        search = SlicedSearch(start, target, nb, algorithm="dijkstra")
    elif which == 1:
        want = greedy(start, goal, nb, h, partial=no_goal)
        search = SlicedSearch(start, goal, nb, h, algorithm="greedy", partial=no_goal)
    elif which == 2:
        want = bfs(start, goal, nb, max_depth=3 if no_goal else None)
        search = SlicedSearch(start, goal, nb, algorithm="bfs", max_cost=3 if no_goal else None)
    else:  # a goal predicate
        want = astar(start, lambda n: n == goal, nb)
        search = SlicedSearch(start, lambda n: n == goal, nb)
    got, _ = run_sliced(search, sizes)
    assert summary(got) == summary(want)


@settings(max_examples=30)
@given(problems(), SLICES, st.booleans(), st.integers(0, 3))
def test_sliced_dijkstra_greedy_and_bfs_match_their_blocking_calls(
    problem: Any, sizes: list[int], no_goal: bool, which: int
) -> None:
    sliced_dijkstra_greedy_and_bfs_match_their_blocking_calls(problem, sizes, no_goal, which)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(problems(), SLICES, st.booleans(), st.integers(0, 3))
def test_sliced_dijkstra_greedy_and_bfs_match_their_blocking_calls_many(
    problem: Any, sizes: list[int], no_goal: bool, which: int
) -> None:
    sliced_dijkstra_greedy_and_bfs_match_their_blocking_calls(problem, sizes, no_goal, which)


def test_statuses_and_the_result_before_the_end() -> None:
    line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]  # noqa: E731
    search = SlicedSearch(0, 9, line)
    assert search.status == "in_progress"
    with pytest.raises(RuntimeError, match="still in progress"):
        _ = search.result
    assert search.step(0) == "in_progress" and search.expanded == 0
    assert search.step(3) == "in_progress" and search.expanded == 3
    assert search.step() == "found"
    assert search.step(5) == "found" and search.expanded == 10
    walled = SlicedSearch(0, 99, line)
    assert walled.step() == "unreachable"
    assert walled.result.reason == "unreachable"
    limited = SlicedSearch(0, 9, line, max_expansions=4)
    assert limited.step(2) == "in_progress"
    assert limited.step(10) == "max_expansions" and limited.result.reason == "max_expansions"


def test_bad_arguments_are_named() -> None:
    line = lambda n: [(n + 1, 1.0)]  # noqa: E731
    with pytest.raises(ValueError, match="algorithm must be one of"):
        SlicedSearch(0, 3, line, algorithm="dfs")  # type: ignore[arg-type]
    with pytest.raises(UnsupportedOptionError, match=r"algorithm='dijkstra'\) does not take heu"):
        SlicedSearch(0, 3, line, lambda n: 0.0, algorithm="dijkstra")
    with pytest.raises(UnsupportedOptionError, match=r"algorithm='bfs'\) does not take partial"):
        SlicedSearch(0, 3, line, algorithm="bfs", partial=True)
    with pytest.raises(TypeError, match="greedy needs a heuristic"):
        SlicedSearch(0, 3, line, algorithm="greedy")
    with pytest.raises(ValueError, match="goal must be a node"):
        SlicedSearch(0, None, line)
    with pytest.raises(TypeError, match="neighbors must be a callable"):
        SlicedSearch(0, 3, "line")
    with pytest.raises(ValueError, match="max_expansions must be >= 0"):
        SlicedSearch(0, 3, line).step(-1)
    with pytest.raises(ValueError, match="step cost"):
        SlicedSearch(0, 3, lambda n: [(n + 1, -1.0)]).step()


# --------------------------------------------------------------------------- queue


def the_queue_serves_every_request_the_blocking_answer_within_budget(
    requests: list[Any], budget: int
) -> None:
    queue = PathRequestQueue(budget)
    for k, (graph, start, goal) in enumerate(requests):
        queue.submit(k, SlicedSearch(start, goal, graph.neighbors))
    results: dict[Any, Any] = {}
    total = sum(dijkstra(s, g, gr.neighbors).expanded for gr, s, g in requests)
    frames = 0
    while len(queue):
        results.update(queue.update())
        frames += 1
        assert frames <= total + len(requests)
    assert frames >= -(-total // budget)  # never more than the budget per frame
    for k, (graph, start, goal) in enumerate(requests):
        assert summary(results[k]) == summary(dijkstra(start, goal, graph.neighbors))


@settings(max_examples=25)
@given(st.lists(problems(min_nodes=2), min_size=1, max_size=6), st.integers(1, 12))
def test_the_queue_serves_every_request_the_blocking_answer_within_budget(
    requests: list[Any], budget: int
) -> None:
    the_queue_serves_every_request_the_blocking_answer_within_budget(requests, budget)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(st.lists(problems(min_nodes=2), min_size=1, max_size=6), st.integers(1, 12))
def test_the_queue_serves_every_request_the_blocking_answer_within_budget_many(
    requests: list[Any], budget: int
) -> None:
    the_queue_serves_every_request_the_blocking_answer_within_budget(requests, budget)


def test_the_queue_replaces_cancels_and_checks() -> None:
    line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 50]  # noqa: E731
    queue = PathRequestQueue(budget=5)
    queue.submit("a", SlicedSearch(0, 40, line))
    queue.submit("b", SlicedSearch(0, 2, line))
    queue.submit("a", SlicedSearch(0, 1, line))  # not served yet: replaced in its place
    assert "a" in queue and len(queue) == 2
    done = queue.update()
    assert sorted(done) == ["a", "b"] and list(done["a"].path) == [0, 1]
    queue.submit("c", SlicedSearch(0, 40, line))
    assert queue.cancel("c") and not queue.cancel("c")
    assert queue.update() == {}
    with pytest.raises(ValueError, match="budget must be an integer >= 1"):
        PathRequestQueue(0)
    with pytest.raises(TypeError, match="search must have step"):
        queue.submit("d", object())  # type: ignore[arg-type]
