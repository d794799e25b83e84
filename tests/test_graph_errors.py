"""``pathcraft.Graph``: every bad input raises, names the argument and changes nothing."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import pytest
from scipy.sparse import csr_array

from pathcraft import Graph


def make_graph() -> Graph:
    return Graph(
        4, [0, 1, 2, 0], [1, 2, 3, 3], [1.0, 1.0, 1.0, 5.0], coords=[(0, 0), (1, 0), (2, 0), (3, 0)]
    )


def answers(graph: Graph) -> tuple[Any, ...]:
    r = graph.astar(0, 3)
    return (r.path, r.cost, graph.heuristic_scale, graph.edges[2].tolist())


BAD_BUILDS = [
    pytest.param(dict(num_nodes=-1), ValueError, r"num_nodes must be in \[0, ", id="negative n"),
    pytest.param(dict(num_nodes=2.0), TypeError, r"num_nodes must be an integer", id="float n"),
    pytest.param(
        dict(targets=[1, 9, 3]),
        ValueError,
        r"targets\[1\] = 9 is not a node: .* 0 to 3 \(the graph has 4 nodes\)",
        id="unknown target",
    ),
    pytest.param(
        dict(sources=[-1, 1, 2]),
        ValueError,
        r"sources\[0\] = -1 is not a node",
        id="negative source",
    ),
    pytest.param(
        dict(sources=[0.0, 1.0, 2.0]), TypeError, r"sources must hold integer", id="float sources"
    ),
    pytest.param(dict(sources=[[0, 1, 2]]), ValueError, r"sources must be 1-D", id="2-D"),
    pytest.param(dict(targets=[1, 2]), ValueError, r"same length; got 3 and 2", id="lengths"),
    pytest.param(
        dict(weights=[1.0, -2.0, 1.0]),
        ValueError,
        r"weights\[1\] = -2.0 \(edge 1 -> 2\): weights must be >= 0",
        id="negative weight",
    ),
    pytest.param(
        dict(weights=[1.0, 1.0, math.nan]),
        ValueError,
        r"weights\[2\] = nan \(edge 2 -> 3\)",
        id="NaN weight",
    ),
    pytest.param(
        dict(weights=[1.0, 1.0]), ValueError, r"weights must have shape \(3,\)", id="short weights"
    ),
    pytest.param(
        dict(weights=["a", "b", "c"]), TypeError, r"weights must hold numbers", id="str weights"
    ),
    pytest.param(
        dict(coords=[(0, 0)] * 3),
        ValueError,
        r"coords must have shape \(4, 2\) or",
        id="few coords",
    ),
    pytest.param(
        dict(coords=[(0, 0, 0, 0)] * 4), ValueError, r"coords must have shape", id="4-D coords"
    ),
    pytest.param(
        dict(coords=[(0, 0), (1, math.inf), (2, 0), (3, 0)]),
        ValueError,
        r"coords\[1\] = \[1.0, inf\] is not finite",
        id="inf coords",
    ),
    pytest.param(
        dict(coords=[(0, 0), (1, 0), (math.nan, 0), (3, 0)]),
        ValueError,
        r"coords\[2\] = \[nan, 0.0\] is not finite",
        id="NaN coords",
    ),
    pytest.param(dict(coords="abc"), TypeError, r"coords must be an array", id="str coords"),
    pytest.param(
        dict(labels=["a", "b", "a", "c"]),
        ValueError,
        r"labels\[2\] = 'a' repeats labels\[0\]",
        id="repeated label",
    ),
    pytest.param(
        dict(labels=["a", "b"]), ValueError, r"one label per node \(4\); got 2", id="few labels"
    ),
    pytest.param(
        dict(labels=["a", "b", [1], "c"]),
        TypeError,
        r"labels\[2\] .* not hashable",
        id="unhashable label",
    ),
]


@pytest.mark.parametrize(("change", "kind", "message"), BAD_BUILDS)
def test_bad_construction_names_the_argument(change: dict[str, Any], kind: type, message: str):
    args: dict[str, Any] = dict(
        num_nodes=4, sources=[0, 1, 2], targets=[1, 2, 3], weights=[1.0, 1.0, 1.0]
    )
    args.update(change)
    n = args.pop("num_nodes")
    with pytest.raises(kind, match=message):
        Graph(n, **args)


def test_bad_adjacency_networkx_and_scipy_inputs() -> None:
    with pytest.raises(ValueError, match=r"adjacency\['a'\] has an edge to 'z', which is not"):
        Graph.from_adjacency({"a": {"z": 1.0}, "b": {}})
    with pytest.raises(TypeError, match=r"adjacency must be a mapping"):
        Graph.from_adjacency([("a", "b")])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"adjacency\['a'\]\['b'\] must be a number; got 'x'"):
        Graph.from_adjacency({"a": {"b": "x"}, "b": {}})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"weights\[0\] = -1.0"):
        Graph.from_adjacency({"a": {"b": -1.0}, "b": {}})
    with pytest.raises(ValueError, match=r"undirected edge 'b' - 'a' twice with different"):
        Graph.from_adjacency({"a": {"b": 1.0}, "b": {"a": 2.0}}, directed=False)
    with pytest.raises(ValueError, match=r"coords has no position for node 'b'"):
        Graph.from_adjacency({"a": [], "b": []}, coords={"a": (0, 0)})
    g = nx.DiGraph()
    g.add_edge("a", "b", weight="heavy")
    with pytest.raises(TypeError, match=r"edge 'a' -> 'b' has weight='heavy'"):
        Graph.from_networkx(g)
    g = nx.path_graph(3)
    with pytest.raises(ValueError, match=r"node 0 has no 'pos' attribute"):
        Graph.from_networkx(g, coords="pos")
    with pytest.raises(TypeError, match=r"graph must be a networkx graph; got dict"):
        Graph.from_networkx({})
    with pytest.raises(ValueError, match=r"matrix must be square"):
        Graph.from_scipy(csr_array(np.ones((2, 3))))
    with pytest.raises(TypeError, match=r"matrix must be a scipy.sparse"):
        Graph.from_scipy(np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"weights\[1\] = -3.0"):
        Graph.from_scipy(csr_array(np.array([[0, 1.0], [-3.0, 0]])))


QUERIES = [
    pytest.param("astar", (0, 7), {}, ValueError, r"goal 7 is not a node", id="goal"),
    pytest.param("astar", (-1, 3), {}, ValueError, r"start -1 is not a node", id="start"),
    pytest.param("astar", ("a", 3), {}, TypeError, r"start must be a node index", id="label"),
    pytest.param("astar", (0, 3), dict(weight=0.5), ValueError, r"weight must be", id="weight"),
    pytest.param(
        "astar",
        (0, 3),
        dict(heuristic="octile"),
        ValueError,
        r"heuristic must be one of 'zero', 'euclidean'",
        id="heuristic",
    ),
    pytest.param(
        "astar", (0, 3), dict(tie_break="lifo"), ValueError, r"tie_break must be one", id="tie"
    ),
    pytest.param(
        "astar",
        (0, 3),
        dict(max_expansions=-1),
        ValueError,
        r"max_expansions must",
        id="max_expansions",
    ),
    pytest.param(
        "astar", (0, 3), dict(max_cost=math.nan), ValueError, r"max_cost must", id="max_cost"
    ),
    pytest.param("astar", (0, 3), dict(seed=-2), ValueError, r"seed must be", id="seed"),
    pytest.param(
        "astar",
        (0, 3),
        dict(max_expansions=2**63),
        ValueError,
        r"max_expansions must be an integer from 0 to 9223372036854775807 or None",
        id="max_expansions too large",
    ),
    pytest.param(
        "astar", (0, 3), dict(partial="yes"), TypeError, r"partial must be True or", id="partial"
    ),
    pytest.param(
        "astar", (0, 3), dict(record=2), TypeError, r"record must be True or False", id="record"
    ),
    pytest.param(
        "distance_field",
        (0,),
        dict(parents=1),
        TypeError,
        r"parents must be True or False; got 1",
        id="parents",
    ),
    pytest.param(
        "dijkstra", ([0, 9], 3), {}, ValueError, r"start\[1\] 9 is not a node", id="many starts"
    ),
    pytest.param(
        "dijkstra", (0, []), {}, ValueError, r"goal must be a node or a non-empty", id="no goals"
    ),
    pytest.param(
        "distance_field", ([0, 4],), {}, ValueError, r"sources\[1\] 4 is not a node", id="sources"
    ),
]


@pytest.mark.parametrize(("method", "args", "options", "kind", "message"), QUERIES)
def test_bad_queries_raise_and_change_nothing(
    method: str, args: tuple[Any, ...], options: dict[str, Any], kind: type, message: str
) -> None:
    graph = make_graph()
    before = answers(graph)
    with pytest.raises(kind, match=message):
        getattr(graph, method)(*args, **options)
    assert answers(graph) == before


def test_unknown_labels_heuristics_without_coordinates_and_bad_weight_changes() -> None:
    roads = Graph.from_adjacency({"a": {"b": 1.0}, "b": {}})
    with pytest.raises(ValueError, match=r"goal 'z' is not a node of this graph"):
        roads.astar("a", "z")
    with pytest.raises(ValueError, match=r"start \['a'\] is not a node of this graph"):
        roads.astar(["a"], "b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r'heuristic="euclidean" needs node coordinates'):
        roads.astar("a", "b", heuristic="euclidean")
    with pytest.raises(ValueError, match=r"greedy needs node coordinates"):
        roads.greedy("a", "b")
    graph = make_graph()
    before = answers(graph)
    with pytest.raises(ValueError, match=r"weights\[2\] = -1.0 \(edge 2 -> 3\)"):
        graph.set_weights([1.0, 1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"weights\[0\] = nan"):
        graph.set_weights([math.nan], edges=[1])
    with pytest.raises(ValueError, match=r"edges\[0\] = 4 is not an edge id"):
        graph.set_weights([1.0], edges=[4])
    with pytest.raises(ValueError, match=r"there is no edge 3 -> 0"):
        graph.set_weight(3, 0, 1.0)
    with pytest.raises(ValueError, match=r"weight\[0\] = -5.0"):
        graph.set_weight(0, 1, -5.0)
    assert answers(graph) == before
