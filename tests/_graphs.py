"""Random weighted digraphs for the search tests, and scipy's csgraph as their oracle.

Shared by ``test_search.py``, ``test_engine.py`` and ``test_bloom.py``. A graph has
nodes ``0 .. n-1`` and at most one edge per ordered pair (the edges are a dict keyed by
``(u, v)``), so the cost of a path is unambiguous and ``csr_matrix`` never sums
duplicate entries. Weights include explicit zeros, which ``csr_matrix`` keeps as
stored entries and csgraph treats as edges of cost 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

#: Step costs: zero, small integers and floats (ties and zero-cost cycles included).
WEIGHTS = st.one_of(
    st.just(0),
    st.integers(0, 9),
    st.floats(0.0, 10.0, allow_nan=False, allow_infinity=False, allow_subnormal=False),
)
#: Integer step costs, for tests that need exact float arithmetic.
INT_WEIGHTS = st.integers(0, 9)


class Graph:
    """A weighted digraph on ``0 .. n-1`` with at most one edge per ordered pair."""

    def __init__(self, n: int, edges: dict[tuple[int, int], float]) -> None:
        self.n = n
        self.edges = dict(edges)
        self.adj: dict[int, list[tuple[int, float]]] = {u: [] for u in range(n)}
        for (u, v), w in sorted(self.edges.items()):
            self.adj[u].append((v, w))

    def __repr__(self) -> str:
        return f"Graph({self.n}, {self.edges!r})"

    def neighbors(self, node: int) -> list[tuple[int, float]]:
        return self.adj[node]

    @cached_property
    def matrix(self) -> csr_matrix:
        # One entry per (u, v): nothing for csr_matrix to sum; zeros stay explicit.
        rows = np.array([u for u, _ in self.edges], dtype=np.intp)
        cols = np.array([v for _, v in self.edges], dtype=np.intp)
        data = np.array(list(self.edges.values()), dtype=np.float64)
        matrix = csr_matrix((data, (rows, cols)), shape=(self.n, self.n))
        assert matrix.nnz == len(self.edges), "csr_matrix dropped an explicit entry"
        return matrix

    def dist_from(self, start: int) -> np.ndarray:
        """Cheapest cost from ``start`` to every node (inf where unreachable)."""
        return csgraph_dijkstra(self.matrix, directed=True, indices=start)

    def dist_to(self, goal: int) -> np.ndarray:
        """Cheapest cost from every node to ``goal`` (inf where it cannot get there)."""
        return csgraph_dijkstra(self.matrix.T.tocsr(), directed=True, indices=goal)

    def hops_from(self, start: int) -> np.ndarray:
        """Fewest edges from ``start`` to every node (inf where unreachable)."""
        return csgraph_dijkstra(self.matrix, directed=True, indices=start, unweighted=True)

    def path_cost(self, path: Sequence[int]) -> float:
        """The cost of ``path``, summed from the start; fails if a step is not an edge."""
        total = 0.0
        for u, v in pairwise(path):
            assert (u, v) in self.edges, f"{u} -> {v} is not an edge of {self!r}"
            total += self.edges[(u, v)]
        return total


@st.composite
def graphs(
    draw: st.DrawFn,
    min_nodes: int = 1,
    max_nodes: int = 40,
    weights: st.SearchStrategy[Any] = WEIGHTS,
) -> Graph:
    """Random digraphs; about two in three get a cycle through every node (all reachable)."""
    n = draw(st.integers(min_nodes, max_nodes))
    node = st.integers(0, n - 1)
    edges = draw(st.dictionaries(st.tuples(node, node), weights, min_size=n // 2, max_size=4 * n))
    if draw(st.integers(0, 2)) > 0:
        order = draw(st.permutations(range(n)))
        for u, v in pairwise([*order, order[0]]):  # a cycle: every goal reachable
            if (u, v) not in edges:
                edges[(u, v)] = draw(weights)
    return Graph(n, edges)


@st.composite
def problems(
    draw: st.DrawFn,
    min_nodes: int = 1,
    max_nodes: int = 40,
    weights: st.SearchStrategy[Any] = WEIGHTS,
) -> tuple[Graph, int, int]:
    """A graph with a start and a goal drawn from its nodes (now and then the same)."""
    graph = draw(graphs(min_nodes, max_nodes, weights))
    start = draw(st.integers(0, graph.n - 1))
    if graph.n == 1 or draw(st.integers(0, 9)) == 9:
        return graph, start, start
    return graph, start, (start + draw(st.integers(1, graph.n - 1))) % graph.n


def closed_kept(neighbors: Callable[[Any], Any]) -> Callable[[Any], list[tuple[Any, float]]]:
    """``neighbors`` as a search that never reopens an expanded node sees them (weighted
    A* in the compiled worlds): the generic search calls ``neighbors(node)`` once per
    expansion, so the nodes it was called on are the closed ones, and they are left out
    of every later answer. The generic search run on it is that search's reference."""
    closed: set[Any] = set()

    def kept(node: Any) -> list[tuple[Any, float]]:
        closed.add(node)
        return [(nb, w) for nb, w in neighbors(node) if nb not in closed]

    return kept


def admissible_heuristic(to_goal: np.ndarray, factors: Sequence[float]) -> dict[int, float]:
    """``h(n) = factor[n] * true cost to the goal``: admissible, often inconsistent.

    Nodes that cannot reach the goal get ``inf`` (allowed: "known not to reach it").
    """
    return {
        n: math.inf if math.isinf(d) else float(d) * factors[n % len(factors)]
        for n, d in enumerate(to_goal)
    }


def factor_lists() -> st.SearchStrategy[list[float]]:
    return st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40)
