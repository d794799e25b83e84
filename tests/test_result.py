"""`PathResult` and `Explored`: truthiness, the "not found" shape, immutability, path_to."""

from __future__ import annotations

import dataclasses
import math

import pytest

from pathcraft.result import Explored, PathResult
from pathcraft.search import astar, dijkstra


def test_truthiness_is_found() -> None:
    assert PathResult(path=["a", "b"], cost=1.0, found=True)
    assert not PathResult(path=["a"], cost=0.0, found=False, reason="max_expansions")
    # A found result with a one-node path is still truthy; len is the number of nodes.
    one = PathResult(path=["a"], cost=0.0, found=True)
    assert one and len(one) == 1
    assert len(PathResult(path=["a", "b", "c"], cost=2.0, found=True)) == 3


@pytest.mark.parametrize("reason", ["unreachable", "max_expansions", "max_cost", "max_depth"])
def test_not_found_is_an_empty_falsy_result(reason: str) -> None:
    result = PathResult.not_found(reason, expanded=7, generated=9)  # type: ignore[arg-type]
    assert not result and result.found is False
    assert result.reason == reason
    assert list(result.path) == [] and len(result) == 0
    assert result.cost == math.inf
    assert (result.expanded, result.generated) == (7, 9)
    assert result.explored is None and result.distances is None


def test_results_are_frozen() -> None:
    result = PathResult(path=[1, 2], cost=1.0, found=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.cost = 0.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.found = False  # type: ignore[misc]
    explored = Explored(nodes=[1, 2], g=[0.0, 1.0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        explored.g = []  # type: ignore[misc]
    assert len(explored) == 2
    # slots: no new attributes either
    with pytest.raises((AttributeError, TypeError)):
        result.extra = 1  # type: ignore[attr-defined]


def test_path_to_needs_a_shortest_path_tree() -> None:
    with pytest.raises(ValueError, match="path_to needs the shortest-path tree"):
        PathResult(path=[1, 2], cost=1.0, found=True).path_to(2)
    searched = astar(0, 2, lambda n: [(n + 1, 1.0)])
    assert searched
    with pytest.raises(ValueError, match="path_to needs the shortest-path tree"):
        searched.path_to(1)


def test_path_to_refuses_a_node_that_was_not_settled() -> None:
    edges = {0: [(1, 1.0), (2, 5.0)], 1: [(2, 1.0)], 2: [], 9: [(0, 1.0)]}
    everything = dijkstra(0, None, lambda n: edges[n], max_cost=1.5)
    assert dict(everything.distances or {}) == {0: 0.0, 1: 1.0}
    assert everything.path_to(1) == [0, 1]
    assert everything.path_to(0) == [0]
    for node in (2, 9, "elsewhere"):
        with pytest.raises(ValueError, match=f"node {node!r} was not settled"):
            everything.path_to(node)


def test_equality_ignores_the_private_tree() -> None:
    a = PathResult(path=[1], cost=0.0, found=True, _parents={1: 0})
    b = PathResult(path=[1], cost=0.0, found=True)
    assert a == b
    assert "_parents" not in repr(a)
