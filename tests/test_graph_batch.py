"""Graph batch queries: ``Graph.find_paths`` and ``Graph.path_costs``.

Every batch answer must be exactly the one-by-one ``find_path`` answer, whatever runs
it: the calling thread, the built-in thread pool, a process pool or a Dask cluster.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Graph, PathResult


def random_graph(seed: int, n: int = 60, m: int = 180, labels: bool = False) -> Graph:
    rng = np.random.default_rng(seed)
    coords = rng.random((n, 2)) * 10
    src, dst = rng.integers(n, size=m), rng.integers(n, size=m)
    lengths = np.hypot(*(coords[src] - coords[dst]).T)
    weights = lengths * rng.uniform(1.0, 2.0, size=m)
    names = [f"n{i}" for i in range(n)] if labels else None
    return Graph(n, src, dst, weights, directed=False, coords=coords, labels=names)


def random_pairs(graph: Graph, k: int, seed: int) -> tuple[list[Any], list[Any]]:
    rng = np.random.default_rng(seed)
    labels = graph.labels
    return (
        [labels[i] for i in rng.integers(graph.num_nodes, size=k)],
        [labels[i] for i in rng.integers(graph.num_nodes, size=k)],
    )


def assert_same(got: PathResult, want: PathResult) -> None:
    assert got.path == want.path
    assert got.cost == want.cost
    assert (got.found, got.reason) == (want.found, want.reason)
    assert (got.expanded, got.generated) == (want.expanded, want.generated)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(0, 30),
    workers=st.sampled_from((1, 2, 3)),
    chunk=st.sampled_from((None, 1, 7)),
    labels=st.booleans(),
)
def test_graph_batches_equal_one_by_one_answers(
    seed: int, k: int, workers: int, chunk: int | None, labels: bool
) -> None:
    graph = random_graph(seed, labels=labels)
    starts, goals = random_pairs(graph, k, seed + 1)
    for algorithm in ("astar", "dijkstra", "greedy"):
        want = [
            graph.find_path(s, g, algorithm=algorithm) for s, g in zip(starts, goals, strict=True)
        ]
        got = graph.find_paths(
            starts, goals, algorithm=algorithm, workers=workers, chunk_size=chunk
        )
        assert isinstance(got, list) and len(got) == k
        for a, b in zip(got, want, strict=True):
            assert_same(a, b)
        costs = graph.path_costs(
            starts, goals, algorithm=algorithm, workers=workers, chunk_size=chunk
        )
        assert isinstance(costs, np.ndarray) and costs.dtype == np.float64
        assert costs.tolist() == [r.cost for r in want]


def test_graph_batch_options_reach_every_query() -> None:
    graph = random_graph(3)
    starts, goals = random_pairs(graph, 20, 4)
    for kwargs in (
        {"weight": 2.0},
        {"heuristic": "zero"},
        {"tie_break": "random", "seed": 11},
        {"max_expansions": 3, "partial": True},
        {"max_cost": 4.0},
    ):
        want = [graph.astar(s, g, **kwargs) for s, g in zip(starts, goals, strict=True)]
        for got, one in zip(graph.find_paths(starts, goals, **kwargs), want, strict=True):
            assert_same(got, one)


def test_graph_batches_on_a_process_pool_and_dask(dask_client: Any) -> None:
    graph = random_graph(5, labels=True)
    starts, goals = random_pairs(graph, 24, 6)
    want = graph.find_paths(starts, goals, workers=1)
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=fork) as pool:
        for a, b in zip(graph.find_paths(starts, goals, executor=pool), want, strict=True):
            assert_same(a, b)
    got = graph.find_paths(starts, goals, executor=dask_client, chunk_size=5)
    for a, b in zip(got, want, strict=True):
        assert_same(a, b)
    costs = graph.path_costs(starts, goals, executor=dask_client.get_executor())
    assert costs.tolist() == [r.cost for r in want]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda g: g.find_paths([0], [1, 2]), ValueError, "same length; got 1 and 2"),
        (lambda g: g.find_paths([0, 9], [1, 2]), ValueError, r"starts\[1\] 9 is not a node"),
        (lambda g: g.path_costs([0], ["a"]), TypeError, r"goals\[0\]"),
        (lambda g: g.find_paths(0, [1]), TypeError, "starts must be a sequence"),
        (lambda g: g.find_paths([0], [1], progress="yes"), TypeError, "progress"),
        (lambda g: g.find_paths([0], [1], workers=0), ValueError, "workers"),
        (lambda g: g.path_costs([0], [1], partial=True), TypeError, "partial"),
        (lambda g: g.find_paths([0], [1], algorithm="jps"), ValueError, "algorithm"),
        (lambda g: g.find_paths([0], [1], algorithm="dijkstra", weight=2), TypeError, "weight"),
        (lambda g: g.find_paths([0], [1], record=2), TypeError, "record"),
    ],
)
def test_bad_graph_batches_are_refused(call: Any, error: type, match: str) -> None:
    graph = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)])
    with pytest.raises(error, match=match):
        call(graph)
