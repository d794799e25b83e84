"""pathcraft.Graph: the compiled CSR searches against scipy's csgraph and the generic search.

The oracle for costs is ``scipy.sparse.csgraph.dijkstra``; the oracle for the expansion
order is :mod:`pathcraft.search` run on ``graph.neighbors`` with the same heuristic,
which must expand the same nodes in the same order and return the same path.
"""

from __future__ import annotations

import math
import pickle
import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Any

import networkx as nx
import numpy as np
import pytest
from _graphs import Graph as RefGraph
from _graphs import closed_kept, graphs, problems
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

from pathcraft import Graph, search
from pathcraft.graph._search import run_kernel


def to_graph(ref: RefGraph, coords: Any = None, directed: bool = True) -> Graph:
    src = [u for u, _ in ref.edges]
    dst = [v for _, v in ref.edges]
    return Graph(ref.n, src, dst, list(ref.edges.values()), coords=coords, directed=directed)


@st.composite
def geometric(draw: st.DrawFn, max_nodes: int = 30, dim: int = 2) -> tuple[Graph, int, int]:
    """A graph with coordinates and weights >= the Euclidean length times a factor."""
    n = draw(st.integers(1, max_nodes))
    coords = np.array(
        draw(st.lists(st.tuples(*[st.integers(0, 20)] * dim), min_size=n, max_size=n)), float
    )
    node = st.integers(0, n - 1)
    pairs = draw(st.lists(st.tuples(node, node), max_size=4 * n))
    extra = draw(
        st.lists(
            st.sampled_from((1.0, 1.0, 1.5, 2.0, 3.0)), min_size=len(pairs), max_size=len(pairs)
        )
    )
    factor = draw(st.sampled_from((0.5, 1.0, 2.0)))
    src = np.array([u for u, _ in pairs], dtype=np.intp)
    dst = np.array([v for _, v in pairs], dtype=np.intp)
    length = np.linalg.norm(coords[src] - coords[dst], axis=1) if pairs else np.empty(0)
    weights = factor * length * np.array(extra) if pairs else np.empty(0)
    directed = draw(st.booleans())
    graph = Graph(n, src, dst, weights, coords=coords, directed=directed)
    return graph, draw(node), draw(node)


def matrix_of(graph: Graph) -> csr_array:
    """The graph as a csgraph matrix: the cheapest open edge per ordered pair."""
    src, dst, w = graph.edges
    if not graph.directed:
        src, dst, w = np.concatenate((src, dst)), np.concatenate((dst, src)), np.concatenate((w, w))
    keep = np.isfinite(w)
    best: dict[tuple[int, int], float] = {}
    for u, v, c in zip(src[keep].tolist(), dst[keep].tolist(), w[keep].tolist(), strict=True):
        best[(u, v)] = min(c, best.get((u, v), math.inf))
    n = graph.num_nodes
    rows = [u for u, _ in best]
    cols = [v for _, v in best]
    return csr_array((list(best.values()), (rows, cols)), shape=(n, n))


def oracle(graph: Graph, sources: Any) -> np.ndarray:
    return csgraph_dijkstra(matrix_of(graph), directed=True, indices=sources, min_only=True)


def h_of(graph: Graph, goal: int):
    coords, scale = graph.coords, graph.heuristic_scale
    assert coords is not None
    gx = coords[goal].tolist()

    def h(node: int) -> float:
        p = coords[node].tolist()
        return math.sqrt(sum((a - b) * (a - b) for a, b in zip(p, gx, strict=True))) * scale

    return h


def assert_legal(
    graph: Graph, result: Any, start: int, goal: int, *, cheapest: bool = True
) -> None:
    """Right ends, every step an open edge, cost the sum of the cheapest steps used
    (greedy keeps the first edge found, which may be a dearer parallel one)."""
    path = result.path
    assert path[0] == start and path[-1] == goal
    total = 0.0
    for u, v in pairwise(path):
        steps = [w for nb, w in graph.neighbors(u) if nb == v]
        assert steps, f"{u} -> {v} is not an edge"
        total += min(steps)
    if cheapest:
        assert result.cost == pytest.approx(total, rel=1e-12, abs=1e-12)
    else:
        assert result.cost >= total - 1e-12


def assert_same_run(got: Any, want: Any) -> None:
    assert list(got.path) == list(want.path)
    assert got.expanded == want.expanded
    assert got.generated == want.generated
    assert got.cost == want.cost
    assert got.found == want.found
    assert got.reason == want.reason
    if want.explored is not None:
        assert list(got.explored.nodes) == list(want.explored.nodes)
        assert list(got.explored.g) == list(want.explored.g)


# --------------------------------------------------------------------------- oracle


def astar_and_dijkstra_costs_equal_csgraph(problem: Any, directed: bool) -> None:
    ref, start, goal = problem
    graph = to_graph(ref, directed=directed)
    want = float(oracle(graph, start)[goal])
    for result in (graph.astar(start, goal), graph.dijkstra(start, goal)):
        if math.isinf(want):
            assert not result and result.reason == "unreachable" and result.path == []
            assert result.cost == math.inf
        else:
            assert result.found
            assert result.cost == pytest.approx(want, rel=1e-12, abs=1e-12)
            assert_legal(graph, result, start, goal)


@settings(max_examples=60)
@given(problems(), st.booleans())
def test_astar_and_dijkstra_costs_equal_csgraph(problem: Any, directed: bool) -> None:
    astar_and_dijkstra_costs_equal_csgraph(problem, directed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=300)
@given(problems(), st.booleans())
def test_astar_and_dijkstra_costs_equal_csgraph_many(problem: Any, directed: bool) -> None:
    astar_and_dijkstra_costs_equal_csgraph(problem, directed)


def euclidean_astar_is_optimal_and_greedy_legal(case: Any) -> None:
    graph, start, goal = case
    want = float(oracle(graph, start)[goal])
    got = graph.astar(start, goal)
    greedy = graph.greedy(start, goal)
    assert got.found == greedy.found == (not math.isinf(want))
    if got.found:
        assert got.cost == pytest.approx(want, rel=1e-9)
        assert_legal(graph, got, start, goal)
        assert_legal(graph, greedy, start, goal, cheapest=False)
        weighted = graph.astar(start, goal, weight=2.0)
        assert weighted.cost <= 2.0 * want * (1 + 1e-9)


@settings(max_examples=60)
@given(geometric())
def test_euclidean_astar_is_optimal_and_greedy_legal(case: Any) -> None:
    euclidean_astar_is_optimal_and_greedy_legal(case)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=300)
@given(geometric())
def test_euclidean_astar_is_optimal_and_greedy_legal_many(case: Any) -> None:
    euclidean_astar_is_optimal_and_greedy_legal(case)


@settings(max_examples=100)
@given(geometric(dim=3))
def test_three_d_coordinates_give_an_optimal_astar(case: Any) -> None:
    graph, start, goal = case
    want = float(oracle(graph, start)[goal])
    assert graph.astar(start, goal).cost == pytest.approx(want, rel=1e-9)


def distances_and_tree_equal_csgraph_from_many_sources(
    ref: RefGraph, picks: list[int], directed: bool
) -> None:
    graph = to_graph(ref, directed=directed)
    sources = sorted({p % ref.n for p in picks})
    want = oracle(graph, sources)
    dist, parent = graph.distance_field(sources, parents=True)
    np.testing.assert_allclose(dist, want, rtol=1e-12, atol=1e-12)
    for v in range(ref.n):
        if v in sources or math.isinf(dist[v]):
            assert parent[v] == -1
        else:
            steps = [w for nb, w in graph.neighbors(int(parent[v])) if nb == v]
            assert dist[parent[v]] + min(steps) == pytest.approx(dist[v], abs=1e-12)
    limit = float(np.nanmedian(np.where(np.isinf(want), np.nan, want)))
    cut = graph.distance_field(sources, max_cost=limit)
    np.testing.assert_allclose(cut, np.where(want <= limit, want, np.inf), rtol=1e-12)


@settings(max_examples=40)
@given(graphs(), st.lists(st.integers(0, 39), min_size=1, max_size=4), st.booleans())
def test_distances_and_tree_equal_csgraph_from_many_sources(
    ref: RefGraph, picks: list[int], directed: bool
) -> None:
    distances_and_tree_equal_csgraph_from_many_sources(ref, picks, directed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(graphs(), st.lists(st.integers(0, 39), min_size=1, max_size=4), st.booleans())
def test_distances_and_tree_equal_csgraph_from_many_sources_many(
    ref: RefGraph, picks: list[int], directed: bool
) -> None:
    distances_and_tree_equal_csgraph_from_many_sources(ref, picks, directed)


def many_sources_many_goals_reach_the_cheapest_pair(
    ref: RefGraph, n_sources: int, n_goals: int
) -> None:
    graph = to_graph(ref)
    rng = np.random.default_rng(ref.n * 31 + n_sources * 7 + n_goals)
    sources = rng.choice(ref.n, size=min(n_sources, ref.n), replace=False).tolist()
    goals = rng.choice(ref.n, size=min(n_goals, ref.n), replace=False).tolist()
    want = float(oracle(graph, sources)[goals].min())
    got = graph.dijkstra(sources, goals)
    assert got.found == (not math.isinf(want))
    if got.found:
        assert got.cost == pytest.approx(want, abs=1e-12)
        assert got.path[0] in sources and got.path[-1] in goals
        assert_legal(graph, got, got.path[0], got.path[-1])


@settings(max_examples=40)
@given(graphs(), st.integers(1, 4), st.integers(1, 4))
def test_many_sources_many_goals_reach_the_cheapest_pair(
    ref: RefGraph, n_sources: int, n_goals: int
) -> None:
    many_sources_many_goals_reach_the_cheapest_pair(ref, n_sources, n_goals)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(graphs(), st.integers(1, 4), st.integers(1, 4))
def test_many_sources_many_goals_reach_the_cheapest_pair_many(
    ref: RefGraph, n_sources: int, n_goals: int
) -> None:
    many_sources_many_goals_reach_the_cheapest_pair(ref, n_sources, n_goals)


# --------------------------------------------------------------------------- the generic search


@settings(max_examples=250)
@given(
    geometric(),
    st.sampled_from(("g", "fifo")),
    st.sampled_from((1.0, 1.0, 1.5, 3.0)),
    st.sampled_from(("euclidean", "zero")),
)
def test_astar_expands_exactly_like_the_generic_search(
    case: Any, tie_break: str, weight: float, heuristic: str
) -> None:
    graph, start, goal = case
    h = h_of(graph, goal) if heuristic == "euclidean" else None
    got = graph.astar(
        start, goal, tie_break=tie_break, weight=weight, heuristic=heuristic, record=True
    )
    nbrs = graph.neighbors if weight == 1.0 else closed_kept(graph.neighbors)
    want = search.astar(start, goal, nbrs, h, tie_break=tie_break, weight=weight, record=True)
    assert_same_run(got, want)


def greedy_and_dijkstra_expand_exactly_like_the_generic_search(
    case: Any, tie_break: str
) -> None:
    graph, start, goal = case
    h = h_of(graph, goal)
    got = graph.greedy(start, goal, tie_break=tie_break, record=True)
    want = search.greedy(start, goal, graph.neighbors, h, tie_break=tie_break, record=True)
    assert_same_run(got, want)
    got = graph.dijkstra(start, goal, tie_break=tie_break, record=True)
    want = search.dijkstra(start, goal, graph.neighbors, tie_break=tie_break, record=True)
    assert_same_run(got, want)


@settings(max_examples=40)
@given(geometric(), st.sampled_from(("g", "fifo")))
def test_greedy_and_dijkstra_expand_exactly_like_the_generic_search(
    case: Any, tie_break: str
) -> None:
    greedy_and_dijkstra_expand_exactly_like_the_generic_search(case, tie_break)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(geometric(), st.sampled_from(("g", "fifo")))
def test_greedy_and_dijkstra_expand_exactly_like_the_generic_search_many(
    case: Any, tie_break: str
) -> None:
    greedy_and_dijkstra_expand_exactly_like_the_generic_search(case, tie_break)


def many_source_dijkstra_expands_like_the_generic_search_from_a_root(
    problem: Any, n_sources: int, n_goals: int, tie_break: str
) -> None:
    ref, start, goal = problem
    graph = to_graph(ref)
    sources = [(start + 3 * i) % ref.n for i in range(n_sources)]
    goals = [(goal + 5 * i) % ref.n for i in range(n_goals)]
    root = "root"

    def rooted(node: Any) -> list[tuple[Any, float]]:
        return [(s, 0.0) for s in sources] if node == root else graph.neighbors(node)

    goal_set = set(goals)
    got = graph.dijkstra(sources, goals, tie_break=tie_break)
    want = search.dijkstra(root, goal_set.__contains__, rooted, tie_break=tie_break)
    assert got.path == list(want.path[1:])
    assert got.expanded == want.expanded - 1
    assert got.cost == want.cost
    assert got.found == want.found and got.reason == want.reason


@settings(max_examples=40)
@given(problems(), st.integers(1, 4), st.integers(1, 4), st.sampled_from(("g", "fifo")))
def test_many_source_dijkstra_expands_like_the_generic_search_from_a_root(
    problem: Any, n_sources: int, n_goals: int, tie_break: str
) -> None:
    many_source_dijkstra_expands_like_the_generic_search_from_a_root(
        problem, n_sources, n_goals, tie_break
    )


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(problems(), st.integers(1, 4), st.integers(1, 4), st.sampled_from(("g", "fifo")))
def test_many_source_dijkstra_expands_like_the_generic_search_from_a_root_many(
    problem: Any, n_sources: int, n_goals: int, tie_break: str
) -> None:
    many_source_dijkstra_expands_like_the_generic_search_from_a_root(
        problem, n_sources, n_goals, tie_break
    )


@settings(max_examples=200)
@given(
    geometric(),
    st.sampled_from(("astar", "greedy")),
    st.one_of(st.none(), st.integers(0, 30)),
    st.one_of(st.none(), st.floats(0.0, 40.0)),
    st.booleans(),
)
def test_limits_and_partial_paths_match_the_generic_search(
    case: Any, method: str, max_expansions: int | None, max_cost: float | None, partial: bool
) -> None:
    graph, start, goal = case
    options = dict(max_expansions=max_expansions, max_cost=max_cost, partial=partial, record=True)
    got = getattr(graph, method)(start, goal, **options)
    want = getattr(search, method)(start, goal, graph.neighbors, h_of(graph, goal), **options)
    assert_same_run(got, want)


def test_random_tie_break_is_reproducible_and_varies_with_the_seed() -> None:
    side = 8
    grid = nx.grid_2d_graph(side, side)
    graph = Graph.from_networkx(grid, coords={n: n for n in grid})
    paths = set()
    for seed in range(20):
        a = graph.astar((0, 0), (side - 1, side - 1), tie_break="random", seed=seed)
        b = graph.astar((0, 0), (side - 1, side - 1), tie_break="random", seed=seed)
        assert a.path == b.path and a.expanded == b.expanded and a.cost == 2 * (side - 1)
        paths.add(tuple(a.path))
    assert len(paths) > 1


# --------------------------------------------------------------------------- conversions


def test_from_networkx_round_trips_labels_weights_and_positions() -> None:
    rng = np.random.default_rng(5)
    for kind in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        g = kind()
        labels = ["a", (1, 2), 3.5, frozenset({1}), 0, "f"]
        for i, label in enumerate(labels):
            g.add_node(label, pos=(float(i), float(i % 2)))
        for _ in range(15):
            u, v = rng.choice(len(labels), size=2)
            g.add_edge(labels[u], labels[v], weight=float(rng.integers(1, 9)))
        graph = Graph.from_networkx(g, coords="pos")
        assert graph.labels == labels and graph.directed == g.is_directed()
        back = graph.to_networkx()
        assert type(back) is type(g) or (not g.is_multigraph())
        assert list(back.nodes) == list(g.nodes)
        assert dict(back.nodes(data="pos")) == dict(g.nodes(data="pos"))
        want = sorted(map(repr, g.edges(data="weight")))
        assert sorted(map(repr, back.edges(data="weight"))) == want
        for source in labels:
            lengths = nx.single_source_dijkstra_path_length(g, source)
            dist = graph.distance_field(source)
            for target, d in lengths.items():
                assert dist[graph.index(target)] == pytest.approx(d)
                assert graph.dijkstra(source, target).cost == pytest.approx(d)


def test_from_networkx_default_weight_and_attribute_name() -> None:
    g = nx.DiGraph()
    g.add_edge("a", "b", cost=4.0)
    g.add_edge("b", "c")
    graph = Graph.from_networkx(g, weight="cost", default_weight=2.5)
    assert graph.edges[2].tolist() == [4.0, 2.5]
    assert graph.astar("a", "c").cost == 6.5 and not graph.astar("c", "a")


def test_from_scipy_keeps_explicit_zeros_and_matches_csgraph() -> None:
    rng = np.random.default_rng(11)
    dense = rng.integers(0, 4, size=(30, 30)).astype(float) * (rng.random((30, 30)) < 0.15)
    matrix = csr_array(dense)
    matrix.data[::4] = 0.0  # explicit zeros: edges of cost 0 for csgraph
    for directed in (True, False):
        graph = Graph.from_scipy(matrix, directed=directed)
        assert graph.num_edges == matrix.nnz
        want = csgraph_dijkstra(matrix, directed=directed)
        for s in range(30):
            np.testing.assert_allclose(graph.distance_field(s), want[s])


def test_from_adjacency_with_lists_mappings_and_coordinates() -> None:
    adj = {"a": {"b": 1.0, "c": 4.0}, "b": {"a": 1.0, "c": 1.0}, "c": {}}
    graph = Graph.from_adjacency(
        adj, directed=False, coords={"a": (0, 0), "b": (1, 0), "c": (2, 0)}
    )
    assert graph.num_edges == 3  # a-b listed from both ends counts once
    assert graph.heuristic == "euclidean" and graph.heuristic_scale == pytest.approx(1.0)
    assert graph.astar("c", "a").path == ["c", "b", "a"]
    unit = Graph.from_adjacency({0: [1, 2], 1: [2], 2: []})
    assert unit.dijkstra(0, 2).cost == 1.0 and unit.labels == [0, 1, 2]


def test_tuple_labels_are_single_nodes_and_lists_are_many() -> None:
    g = nx.path_graph([(0, 0), (0, 1), (0, 2)])
    graph = Graph.from_networkx(g)
    assert graph.dijkstra((0, 0), (0, 2)).path == [(0, 0), (0, 1), (0, 2)]
    assert graph.dijkstra([(0, 0), (0, 2)], [(0, 1)]).cost == 1.0


# --------------------------------------------------------------------------- weights


def test_set_weights_equals_a_fresh_build_and_rescales_the_heuristic() -> None:
    rng = np.random.default_rng(7)
    n = 60
    coords = rng.random((n, 2)) * 10
    src, dst = rng.integers(n, size=300), rng.integers(n, size=300)
    length = np.linalg.norm(coords[src] - coords[dst], axis=1)
    graph = Graph(n, src, dst, length * 2, coords=coords, directed=False)
    assert graph.heuristic_scale == pytest.approx(2.0)
    new = length * rng.uniform(0.3, 3.0, size=300)
    new[::17] = np.inf  # closed roads
    graph.set_weights(new)
    fresh = Graph(n, src, dst, new, coords=coords, directed=False)
    finite = np.isfinite(new) & (length > 0)
    assert graph.heuristic_scale == fresh.heuristic_scale
    assert graph.heuristic_scale == pytest.approx((new[finite] / length[finite]).min())
    for s, t in rng.integers(n, size=(40, 2)):
        a, b = graph.astar(int(s), int(t), record=True), fresh.astar(int(s), int(t), record=True)
        assert (a.path, a.cost, a.expanded) == (b.path, b.cost, b.expanded)
        assert a.cost == pytest.approx(float(oracle(fresh, int(s))[t]))
    graph.set_weights([5.0, 6.0], edges=[0, 1])
    assert graph.edges[2][:2].tolist() == [5.0, 6.0]


def test_set_weight_by_labels_and_inf_closes_an_edge() -> None:
    graph = Graph.from_adjacency({"a": {"b": 1.0, "c": 5.0}, "b": {"c": 1.0}, "c": {}})
    assert graph.astar("a", "c").path == ["a", "b", "c"]
    graph.set_weight("b", "c", math.inf)
    assert graph.astar("a", "c").path == ["a", "c"]
    assert ("c", math.inf) not in graph.neighbors("b") and graph.neighbors("b") == []
    graph.set_weight("a", "c", math.inf)
    blocked = graph.astar("a", "c")
    assert not blocked and blocked.reason == "unreachable"


def test_start_equal_to_goal_and_empty_graphs() -> None:
    graph = Graph(3, [], [])
    r = graph.astar(1, 1)
    assert r.path == [1] and r.cost == 0.0 and r.expanded == 1
    assert not graph.dijkstra(0, 2)
    assert graph.distance_field(2).tolist() == [math.inf, math.inf, 0.0]
    assert Graph(0, [], []).num_nodes == 0


def test_csr_views_are_read_only_and_inputs_are_copied() -> None:
    src, dst, w = np.array([0, 1]), np.array([1, 0]), np.array([1.0, 2.0])
    graph = Graph(2, src, dst, w)
    offsets, targets, weights = graph.csr
    assert offsets.tolist() == [0, 1, 2] and targets.tolist() == [1, 0]
    with pytest.raises(ValueError):
        weights[0] = 5.0
    graph.set_weights([3.0, 4.0])
    assert w.tolist() == [1.0, 2.0] and src.tolist() == [0, 1]


# --------------------------------------------------------------------------- threads, pickle


def road_graph(n_side: int = 40, seed: int = 1) -> tuple[Graph, np.ndarray]:
    rng = np.random.default_rng(seed)
    g = nx.grid_2d_graph(n_side, n_side)
    coords = {node: (node[0] + rng.random() * 0.3, node[1] + rng.random() * 0.3) for node in g}
    for u, v in g.edges:
        g.edges[u, v]["weight"] = math.dist(coords[u], coords[v]) * rng.uniform(1, 2)
    graph = Graph.from_networkx(g, coords=coords)
    return graph, rng.integers(graph.num_nodes, size=(200, 2))


def test_pickle_round_trip_gives_identical_answers() -> None:
    graph, pairs = road_graph(15)
    copy = pickle.loads(pickle.dumps(graph))
    assert copy.labels == graph.labels and copy.heuristic_scale == graph.heuristic_scale
    labels = graph.labels
    for s, t in pairs[:30]:
        a, b = graph.astar(labels[s], labels[t]), copy.astar(labels[s], labels[t])
        assert (a.path, a.cost, a.expanded) == (b.path, b.cost, b.expanded)


def test_threads_sharing_one_graph_get_the_serial_answers() -> None:
    graph, pairs = road_graph()
    labels = graph.labels

    def answer(i: int) -> tuple[Any, ...]:
        s, t = labels[pairs[i][0]], labels[pairs[i][1]]
        if i % 3 == 0:
            r = graph.astar(s, t)
        elif i % 3 == 1:
            r = graph.dijkstra([s, labels[0]], [t, labels[-1]])
        else:
            return (graph.distance_field(s).tobytes(),)
        return (tuple(r.path), r.cost, r.expanded, r.generated)

    serial = [answer(i) for i in range(len(pairs))]
    barrier = threading.Barrier(4)

    def chunk(k: int) -> list[tuple[Any, ...]]:
        barrier.wait()
        return [answer(i) for i in range(k, len(pairs), 4)]

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(chunk, range(4)))
    for k, got in enumerate(results):
        assert got == serial[k::4]


# --------------------------------------------------------------------------- virtual ends


@settings(max_examples=150)
@given(geometric(), st.integers(1, 4), st.integers(1, 4), st.sampled_from(("g", "fifo")))
def test_run_with_start_and_exit_costs_expands_like_the_generic_search(
    case: Any, n_sources: int, n_goals: int, tie_break: str
) -> None:
    # Graph.run's virtual start (source costs) and virtual goal (exit costs), as used by
    # waypoint and navmesh queries, is the generic search on a graph with a root joined
    # to the sources and the goals joined to an end node, the heuristic aiming at a point.
    graph, start, goal = case
    n = graph.num_nodes
    coords = graph.coords
    assert coords is not None
    rng = np.random.default_rng(start * 97 + goal + n_sources * 13 + n_goals)
    sources = rng.integers(n, size=n_sources)
    goals = rng.integers(n, size=n_goals)
    source_costs = rng.integers(0, 5, size=n_sources).astype(float)
    exit_costs = rng.integers(0, 5, size=n_goals).astype(float)
    target = coords[goal] + rng.integers(-2, 3, size=coords.shape[1])
    scale = graph.heuristic_scale
    root, end = "root", n

    def h(node: Any) -> float:
        if node in (root, end):
            return 0.0
        p = coords[node].tolist()
        return math.sqrt(sum((a - b) * (a - b) for a, b in zip(p, target, strict=True))) * scale

    exits: dict[int, float] = {}
    for g, c in zip(goals.tolist(), exit_costs.tolist(), strict=True):
        exits[g] = min(c, exits.get(g, math.inf))

    def nbrs(node: Any) -> list[tuple[Any, float]]:
        if node == root:
            return list(zip(sources.tolist(), source_costs.tolist(), strict=True))
        if node == end:
            return []
        out = graph.neighbors(node)
        return [*out, (end, exits[node])] if node in exits else out

    got = run_kernel(
        graph, "astar", sources, -1, goals, source_costs=source_costs, exit_costs=exit_costs,
        target=target, heuristic="euclidean", tie_break=tie_break, record=True,
    )  # fmt: skip
    status, path, _edges, cost, expanded, generated, rec_nodes, rec_g = got
    # The generic search from the root pushes the sources in the order given; a repeated
    # source is pushed again only when cheaper, as the kernel does.
    want = search.astar(root, end, nbrs, h, tie_break=tie_break, record=True)
    assert (status == 0) == want.found
    assert path.tolist() == list(want.path[1:])
    assert expanded == want.expanded - 1 and generated == want.generated - 1
    assert rec_g.tolist() == list(want.explored.g[1:])
    assert rec_nodes.tolist() == list(want.explored.nodes[1:])
    assert cost == want.cost or (math.isinf(cost) and math.isinf(want.cost))
