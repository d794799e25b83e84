"""closed="bloom": the scalable Bloom filter closed set, its bound, and what it can cost."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from _graphs import INT_WEIGHTS, Graph, graphs, problems
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft._bloom import BloomClosed, ScalableBloom
from pathcraft.search import astar, bfs, dijkstra, greedy

# False positives in these searches: the default filter is sized for 65,536 nodes at an
# error rate of 1e-6, and these graphs put at most 40 nodes in it. A Bloom filter's
# false-positive rate at fill n/m with k hashes is about (1 - exp(-k n / m))^k, here
# around (4e-4)^20 = 1e-68 per lookup: astronomically unlikely. The tiny filters some
# tests use on purpose (to force chaining) are set to 1e-9 per lookup, a few thousand
# lookups in all. Ints and tuples of ints hash the same in every process, so each case
# is deterministic: it passes always or fails always, never now and then.


def summary(result: Any) -> tuple[Any, ...]:
    explored = result.explored
    return (
        list(result.path), result.cost, result.found, result.reason, result.expanded,
        result.generated,
        None if explored is None else (list(explored.nodes), list(explored.g)),
    )  # fmt: skip


@settings(max_examples=100)
@given(problem=problems(weights=INT_WEIGHTS), scale=st.sampled_from([0.0, 0.5, 1.0]))
def test_bloom_is_optimal_with_a_consistent_heuristic(
    problem: tuple[Graph, int, int], scale: float
) -> None:
    graph, start, goal = problem
    optimal = graph.dist_from(start)[goal]
    # scale * (true cost to the goal) is consistent for 0 <= scale <= 1; integer step
    # costs and halves keep every sum exact.
    to_goal = graph.dist_to(goal)
    h = {n: math.inf if math.isinf(d) else scale * float(d) for n, d in enumerate(to_goal)}
    for tie_break in ("g", "fifo", "random"):
        for closed in ("bloom", BloomClosed(initial_capacity=2, error_rate=1e-9)):
            opts: dict[str, Any] = {"tie_break": tie_break, "seed": 7, "closed": closed}
            results = [
                astar(start, goal, graph.neighbors, h.__getitem__, record=True, **opts),
                dijkstra(start, goal, graph.neighbors, record=True, **opts),
            ]
            for result in results:
                assert bool(result) == math.isfinite(optimal)
                if result:
                    assert result.cost == optimal
                    assert result.path[0] == start and result.path[-1] == goal
                    assert result.cost == graph.path_cost(result.path)
                else:
                    assert result.reason == "unreachable"
            # With a consistent heuristic no node is ever reopened, so the Bloom
            # closed set changes nothing: the same expansions, the same answer.
            exact = [
                astar(start, goal, graph.neighbors, h.__getitem__, record=True,
                      **{**opts, "closed": "exact"}),
                dijkstra(start, goal, graph.neighbors, record=True,
                         **{**opts, "closed": "exact"}),
            ]  # fmt: skip
            assert [summary(r) for r in results] == [summary(r) for r in exact]


@settings(max_examples=100)
@given(problem=problems(), hvals=st.lists(st.floats(0, 30), min_size=1, max_size=40))
def test_bloom_bfs_and_greedy_match_the_exact_closed_set(
    problem: tuple[Graph, int, int], hvals: list[float]
) -> None:
    graph, start, goal = problem
    hops = graph.hops_from(start)[goal]

    def h(n: int) -> float:
        return hvals[n % len(hvals)]

    for tie_break in ("fifo", "random"):
        shortest = bfs(start, goal, graph.neighbors, tie_break=tie_break, seed=3, closed="bloom")
        assert bool(shortest) == math.isfinite(hops)
        if shortest:
            assert len(shortest.path) - 1 == hops
            assert shortest.cost == graph.path_cost(shortest.path)
        exact = bfs(start, goal, graph.neighbors, tie_break=tie_break, seed=3)
        assert summary(shortest) == summary(exact)
    for tie_break in ("g", "fifo", "random"):
        found = greedy(start, goal, graph.neighbors, h, tie_break=tie_break, seed=3, closed="bloom")
        exact = greedy(start, goal, graph.neighbors, h, tie_break=tie_break, seed=3)
        assert summary(found) == summary(exact)
        assert bool(found) == math.isfinite(hops)


def test_a_search_larger_than_the_first_filter_chains_filters_and_stays_optimal() -> None:
    size = 40  # an open 40x40 grid: 1,600 cells through filters of 16, 32, 64, ...
    made: list[ScalableBloom] = []
    original_init = ScalableBloom.__init__

    def nbrs(cell: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        r, c = cell
        return [
            ((a, b), 1.0 + (a * 7 + b * 3) % 5)
            for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
            if 0 <= a < size and 0 <= b < size
        ]

    def spying_init(self: ScalableBloom, settings: BloomClosed) -> None:
        original_init(self, settings)
        made.append(self)

    mp = pytest.MonkeyPatch()
    with mp.context() as patch:
        patch.setattr(ScalableBloom, "__init__", spying_init)
        chained = dijkstra((0, 0), (size - 1, size - 1), nbrs,
                           closed=BloomClosed(initial_capacity=16, error_rate=1e-9))  # fmt: skip
    exact = dijkstra((0, 0), (size - 1, size - 1), nbrs)
    assert chained and chained.cost == exact.cost
    assert chained.expanded == exact.expanded > 1000
    assert len(made) == 1
    assert len(made[0]._filters) >= 6  # 16 + 32 + ... + 512 < 1,000 expanded nodes


def test_scalable_bloom_keeps_its_false_positive_bound_far_beyond_its_capacity() -> None:
    bound = 1e-3
    bloom = ScalableBloom(BloomClosed(error_rate=bound, initial_capacity=1000))
    first = bloom.nbytes
    members = range(50_000)  # 50x the first filter's capacity
    for item in members:
        bloom.add(item)
    assert all(item in bloom for item in members), "a Bloom filter has no false negatives"
    # Ints and tuples of ints hash without per-process randomisation: the same items
    # give the same count on every run (195 of 200,000 with CPython 3.11, rbloom 1.5).
    # Five full filters put the expected rate at (1 - 0.5**5) * bound = 0.97 * bound.
    # The bound is on the expected rate; a sample of 200,000 has a standard deviation
    # of about 14 false positives around ~195, so 1.3x the bound (260) is over four
    # standard deviations away, while a broken chain (one overfilled filter) gives
    # many times the bound.
    absent = range(1_000_000, 1_200_000)
    false_positives = sum(1 for item in absent if item in bloom)
    assert false_positives / len(absent) <= 1.3 * bound
    # Capacities 1000, 2000, 4000, ... : six filters hold 50,000 items.
    assert len(bloom._filters) == 6
    assert bloom.nbytes > first


def test_node_zero_is_not_confused_with_node_one_regression() -> None:
    # rbloom seeds its bit positions with hash(item) through an LCG, and hash(0) = 0 is
    # one LCG step before hash(1) = 1: the two shared k - 1 positions, so with 1 stored
    # 0 was "present" whenever one more bit was set (about half the time in a full
    # filter). ScalableBloom now stores (node,), whose hash is well mixed.
    rng = random.Random(20240601)
    hits = 0
    for _ in range(200):
        bloom = ScalableBloom(BloomClosed(error_rate=1e-3, initial_capacity=1000))
        bloom.add(1)
        for _ in range(999):  # fill the first filter to its capacity
            bloom.add(rng.getrandbits(48) + 2)
        hits += 0 in bloom
    assert hits <= 2  # expected 200 * 1e-3 = 0.2; it was about 90


@pytest.mark.parametrize("capacity", [100, 1000])
def test_a_ring_ending_at_node_zero_is_searched_to_the_end_regression(capacity: int) -> None:
    # 1 -> 2 -> ... -> n -> 0: node 1 is closed first and 0 is tested last, with every
    # filter full. Before the fix the goal 0 was a false positive: "unreachable".
    n = capacity

    def ring(v: int) -> list[tuple[int, float]]:
        return [((v + 1) % (n + 1), 1.0)] if v != 0 else []

    closed = BloomClosed(initial_capacity=capacity, error_rate=1e-9)
    result = dijkstra(1, 0, ring, closed=closed)
    assert result and result.cost == n and result.expanded == n + 1


def test_nodes_with_equal_hashes_are_always_confused() -> None:
    # The documented limit of any filter built on hash(): CPython gives -1 and -2 the
    # same hash, so storing one makes the other "present" with certainty.
    assert hash(-1) == hash(-2)
    bloom = ScalableBloom(BloomClosed())
    bloom.add(-2)
    assert -1 in bloom and (5, -1) not in bloom
    bloom.add((5, -2))
    assert (5, -1) in bloom


def test_a_single_filter_overfilled_the_same_way_would_break_the_bound() -> None:
    # The reason for the chain: one filter sized for 1,000 items holding 50,000 says
    # yes to almost everything.
    from rbloom import Bloom

    single = Bloom(1000, 1e-3)
    for item in range(50_000):
        single.add(item)
    false_positives = sum(1 for item in range(1_000_000, 1_010_000) if item in single)
    assert false_positives / 10_000 > 0.5


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"error_rate": 0.0}, "error_rate"),
        ({"error_rate": 1.0}, "error_rate"),
        ({"error_rate": -0.1}, "error_rate"),
        ({"error_rate": math.nan}, "error_rate"),
        ({"initial_capacity": 0}, "initial_capacity"),
        ({"initial_capacity": -5}, "initial_capacity"),
        ({"growth": 1}, "growth"),
        ({"growth": -3}, "growth"),
        ({"tightening": 0.0}, "tightening"),
        ({"tightening": 1.0}, "tightening"),
        ({"tightening": math.nan}, "tightening"),
    ],
)
def test_bloom_settings_are_checked(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        BloomClosed(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"error_rate": "0.01"}, "error_rate"),
        ({"error_rate": None}, "error_rate"),
        ({"tightening": True}, "tightening"),
        ({"initial_capacity": 10.0}, "initial_capacity"),
        ({"initial_capacity": True}, "initial_capacity"),
        ({"initial_capacity": "10"}, "initial_capacity"),
        ({"growth": 2.5}, "growth"),
        ({"growth": True}, "growth"),
    ],
)
def test_bloom_settings_of_the_wrong_kind(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(TypeError, match=rf"^{name} must be"):
        BloomClosed(**kwargs)


def test_bloom_settings_accept_numpy_numbers() -> None:
    settings = BloomClosed(error_rate=np.float64(1e-4), initial_capacity=np.int64(8))
    assert settings.initial_capacity == 8 and type(settings.initial_capacity) is int
    bloom = ScalableBloom(settings)
    for item in range(100):
        bloom.add(item)
    assert all(item in bloom for item in range(100))


def test_bloom_settings_are_frozen() -> None:
    settings = BloomClosed(error_rate=1e-4)
    assert settings.error_rate == 1e-4 and settings.initial_capacity == 1 << 16
    with pytest.raises(AttributeError):
        settings.error_rate = 0.5  # type: ignore[misc]


# --------------------------------------------------------------------------- the documented cost


def roads(n: str) -> list[tuple[str, float]]:
    return {
        "s": [("a", 1.0), ("b", 5.0)],
        "a": [("t", 1.0)],
        "b": [("t", 5.0)],
        "t": [],
    }[n]


def pretend_closed(monkeypatch: pytest.MonkeyPatch, *victims: str) -> None:
    """Make the filter answer "closed" for ``victims``: a forced false positive."""
    original = ScalableBloom.__contains__

    def contains(self: ScalableBloom, node: Any) -> bool:
        return node in victims or original(self, node)

    monkeypatch.setattr(ScalableBloom, "__contains__", contains)


def test_a_false_positive_can_make_the_path_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = astar("s", "t", roads, closed="bloom")
    assert honest.path == ["s", "a", "t"] and honest.cost == 2.0
    pretend_closed(monkeypatch, "a")
    fooled = astar("s", "t", roads, closed="bloom")
    assert fooled  # still found ...
    assert fooled.path == ["s", "b", "t"] and fooled.cost == 10.0  # ... but not optimal
    assert astar("s", "t", roads).cost == 2.0  # the exact closed set is unaffected


def test_a_false_positive_can_make_the_goal_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_closed(monkeypatch, "a", "b")
    fooled = dijkstra("s", "t", roads, closed="bloom")
    assert not fooled and fooled.reason == "unreachable"
    assert dijkstra("s", "t", roads)  # the exact closed set still finds it


@settings(max_examples=30)
@given(graph=graphs(min_nodes=2, max_nodes=20, weights=INT_WEIGHTS), data=st.data())
def test_a_forced_false_positive_never_makes_a_path_cheaper(graph: Graph, data: Any) -> None:
    start, goal, victim = (data.draw(st.integers(0, graph.n - 1)) for _ in range(3))
    optimal = graph.dist_from(start)[goal]
    with pytest.MonkeyPatch.context() as patch:
        original = ScalableBloom.__contains__
        patch.setattr(
            ScalableBloom, "__contains__", lambda self, n: n == victim or original(self, n)
        )
        result = astar(start, goal, graph.neighbors, closed="bloom")
    if result:
        assert result.cost >= optimal
        assert result.cost == graph.path_cost(result.path)
        assert victim == start or victim not in result.path[1:]
    else:
        assert result.reason == "unreachable"
