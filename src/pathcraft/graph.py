"""Weighted graphs stored as CSR arrays and searched by the compiled core.

A :class:`Graph` is directed or undirected, with weights ``>= 0`` (``np.inf`` closes an
edge) and optional node coordinates ``(x, y)`` or ``(x, y, z)``. Nodes have labels:
any hashable values, or by default the indices ``0 .. n-1``. Build one from edge arrays,
an adjacency mapping, a networkx graph or a scipy sparse matrix.

Searches have the semantics of :mod:`pathcraft.search` (tie-breaking, ``weight``,
limits, partial paths, recording, "no path" as a falsy result) and return a
:class:`~pathcraft.result.PathResult` whose ``path`` is a list of node labels. They
expand exactly the nodes the generic search expands on ``graph.neighbors``. A graph
holds no search state: each thread searches with its own workspace, and the compiled
loop releases the GIL.

**The heuristic.** With coordinates, A* and greedy use the Euclidean distance to the
goal times :attr:`Graph.heuristic_scale`, the smallest ratio ``weight / length`` over
the edges (length: the Euclidean distance between the edge's ends), lowered by a
relative 1e-12 against rounding. No path can then cost less than the straight-line
distance times the scale, so the heuristic is admissible (and consistent) whatever
the weights. It is recomputed whenever weights change. ``heuristic="zero"`` turns it
off.

Examples
--------
>>> from pathcraft import Graph
>>> roads = Graph.from_adjacency(
...     {"a": {"b": 4.0, "c": 1.0}, "b": {"d": 1.0}, "c": {"b": 1.0}, "d": {}},
... )
>>> result = roads.astar("a", "d")
>>> result.path, result.cost
(['a', 'c', 'b', 'd'], 3.0)
>>> roads.set_weight("c", "b", 5.0)        # change a weight: no rebuild
>>> roads.astar("a", "d").path
['a', 'b', 'd']
"""

from __future__ import annotations

import math
import numbers
import threading
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft import _graph_checks as checks
from pathcraft._core import graph_search as _kernel
from pathcraft._validation import check_choice, check_limit, check_seed, check_weight
from pathcraft.result import Explored, PathResult

__all__ = ["GRAPH_HEURISTICS", "Graph"]

HeuristicName = Literal["euclidean", "zero"]
TieBreak = Literal["g", "fifo", "random"]

#: The graph heuristics and their kernel codes.
GRAPH_HEURISTICS: dict[str, int] = {"zero": 0, "euclidean": 1}
_MODES = {"astar": 0, "greedy": 1, "dijkstra": 2}
_TIES = {"g": 0, "fifo": 1, "random": 2}
_REASONS = {
    _kernel.UNREACHABLE: "unreachable",
    _kernel.MAX_EXPANSIONS: "max_expansions",
    _kernel.MAX_COST: "max_cost",
}
#: The heuristic scale is lowered by this relative margin against rounding.
_SCALE_MARGIN = 1e-12

_local = threading.local()


def _workspace(nodes: int) -> Any:
    """This thread's workspace, grown to hold at least ``nodes`` nodes."""
    ws = getattr(_local, "workspace", None)
    if ws is None or ws.capacity < nodes:
        ws = _kernel.Workspace(nodes)
        _local.workspace = ws
    return ws


class Graph:
    """A weighted graph in CSR arrays, searched by compiled A*, Dijkstra and greedy.

    Parameters
    ----------
    num_nodes : int
        The number of nodes; nodes are the indices ``0 .. num_nodes - 1`` inside.
    sources, targets : array_like of int
        The edges, ``sources[i] -> targets[i]``, as node indices.
    weights : array_like of float or None
        One per edge, ``>= 0``; ``np.inf`` closes an edge. None: all 1.
    directed : bool
        False makes every edge usable both ways (stored once per direction).
    coords : array_like, shape (num_nodes, 2) or (num_nodes, 3), or None
        The position ``(x, y)`` or ``(x, y, z)`` of each node, for the Euclidean
        heuristic (see the module documentation).
    labels : sequence of hashable, or None
        One label per node: searches take and return labels. None: the indices.

    Raises
    ------
    TypeError
        Non-integer endpoints, non-numeric weights or coordinates, unhashable labels.
    ValueError
        An endpoint that is not a node, a negative or NaN weight, non-finite
        coordinates, a wrong shape, repeated labels.

    Examples
    --------
    >>> from pathcraft import Graph
    >>> g = Graph(4, [0, 1, 2, 0], [1, 2, 3, 3], [1.0, 1.0, 1.0, 5.0])
    >>> g.dijkstra(0, 3).path, g.num_edges
    ([0, 1, 2, 3], 4)
    >>> Graph(2, [0], [5])
    Traceback (most recent call last):
    ...
    ValueError: targets[0] = 5 is not a node: node indices run from 0 to 1 (the graph has 2 nodes)
    """

    __slots__ = (
        "_backward",
        "_coords",
        "_directed",
        "_edge_sources",
        "_edge_targets",
        "_forward",
        "_heuristic",
        "_hscale",
        "_index",
        "_labels",
        "_lengths",
        "_offsets",
        "_targets",
        "_weights",
        "_weights_in",
    )

    def __init__(
        self,
        num_nodes: int,
        sources: npt.ArrayLike,
        targets: npt.ArrayLike,
        weights: npt.ArrayLike | None = None,
        *,
        directed: bool = True,
        coords: npt.ArrayLike | None = None,
        labels: Sequence[Hashable] | None = None,
    ) -> None:
        n = checks.node_count(num_nodes)
        src = checks.edge_endpoints("sources", sources, n)
        dst = checks.edge_endpoints("targets", targets, n)
        if src.shape != dst.shape:
            raise ValueError(
                f"sources and targets must have the same length; got {src.shape[0]} "
                f"and {dst.shape[0]}"
            )
        m = src.shape[0]
        w = checks.weight_array(weights, m, sources=src, targets=dst)
        self._coords = checks.coordinate_array(coords, n)
        self._index = checks.label_index(labels, n)
        self._labels: list[Hashable] | None = None if labels is None else list(labels)
        self._directed = bool(directed)
        self._edge_sources = src
        self._edge_targets = dst
        self._weights_in = w
        # CSR: the edges leaving each node, in input order (for an undirected graph,
        # the edges given as (u, v) first, then those given as (v, u)).
        tails = src if directed else np.concatenate((src, dst))
        heads = dst if directed else np.concatenate((dst, src))
        order = np.argsort(tails, kind="stable")
        place = np.empty(order.shape[0], dtype=np.intp)
        place[order] = np.arange(order.shape[0])
        self._forward = place[:m]
        self._backward = None if directed else place[m:]
        self._offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(tails, minlength=n), out=self._offsets[1:])
        self._targets = heads[order].astype(np.int32)
        self._weights = np.empty(order.shape[0])
        self._lengths = None
        if self._coords is not None:
            delta = self._coords[src] - self._coords[dst]
            self._lengths = np.sqrt((delta * delta).sum(axis=1))
        self._heuristic: str = "euclidean" if self._coords is not None else "zero"
        self._hscale = 0.0
        self._store_weights()

    # ------------------------------------------------------------------ building

    @classmethod
    def from_adjacency(
        cls,
        adjacency: Mapping[Hashable, Mapping[Hashable, float] | Iterable[Hashable]],
        *,
        directed: bool = True,
        coords: Mapping[Hashable, Sequence[float]] | npt.ArrayLike | None = None,
    ) -> Graph:
        """A graph from ``{node: {neighbor: weight}}`` or ``{node: [neighbor, ...]}``.

        Every node must be a key (with an empty mapping if it has no edges). Undirected
        graphs may list an edge from both ends, with the same weight.

        Parameters
        ----------
        adjacency : mapping
            Node label to a mapping of neighbor to weight, or to a list of neighbors
            (weight 1).
        directed : bool
            As in :class:`Graph`.
        coords : mapping or array_like or None
            Node label to ``(x, y)`` or ``(x, y, z)``, or an array in key order.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": ["b"], "b": ["a"]}, directed=False).num_edges
        1
        >>> Graph.from_adjacency({"a": {"z": 1.0}})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: adjacency['a'] has an edge to 'z', which is not a node ...
        """
        nodes, (src, dst, w), xy = checks.adjacency_edges(adjacency, coords, directed=directed)
        return cls(len(nodes), src, dst, w, directed=directed, coords=xy, labels=nodes)

    @classmethod
    def from_networkx(
        cls,
        graph: Any,
        *,
        weight: str = "weight",
        default_weight: float = 1.0,
        coords: str | Mapping[Hashable, Sequence[float]] | npt.ArrayLike | None = None,
    ) -> Graph:
        """A graph from a networkx graph: its nodes (as labels), edges and weights.

        Directed and multi-graphs keep their kind and parallel edges.

        Parameters
        ----------
        graph : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
        weight : str
            The edge attribute holding the weight.
        default_weight : float
            The weight of edges without that attribute.
        coords : str or mapping or array_like or None
            A node attribute holding ``(x, y)`` or ``(x, y, z)`` (e.g. ``"pos"``), a
            mapping node -> position, or an array in ``graph.nodes`` order.

        Examples
        --------
        >>> import networkx as nx
        >>> from pathcraft import Graph
        >>> g = Graph.from_networkx(nx.path_graph(["x", "y", "z"]))
        >>> g.directed, g.labels, g.astar("x", "z").cost
        (False, ['x', 'y', 'z'], 2.0)
        """
        nodes, (src, dst, w), xy = checks.networkx_edges(graph, weight, default_weight, coords)
        directed = bool(graph.is_directed())
        return cls(len(nodes), src, dst, w, directed=directed, coords=xy, labels=nodes)

    @classmethod
    def from_scipy(
        cls,
        matrix: Any,
        *,
        directed: bool = True,
        coords: npt.ArrayLike | None = None,
        labels: Sequence[Hashable] | None = None,
    ) -> Graph:
        """A graph from a square scipy sparse matrix: each stored entry ``[i, j]`` is an
        edge ``i -> j`` of that weight (explicit zeros included, as in
        ``scipy.sparse.csgraph``). With ``directed=False`` every entry is usable both
        ways (a symmetric matrix then gives each edge twice, which changes nothing for
        the searches).

        Examples
        --------
        >>> from scipy.sparse import csr_array
        >>> from pathcraft import Graph
        >>> g = Graph.from_scipy(csr_array([[0, 2.0], [0, 0]]))
        >>> g.num_nodes, g.num_edges, g.astar(0, 1).cost
        (2, 1, 2.0)
        """
        n, (src, dst, w) = checks.scipy_edges(matrix)
        return cls(n, src, dst, w, directed=directed, coords=coords, labels=labels)

    def to_networkx(self, *, weight: str = "weight", coords: str = "pos") -> Any:
        """The graph as a networkx ``Graph``/``DiGraph`` (``Multi*`` when it has parallel
        edges), with the labels, a ``weight`` attribute and, with coordinates, a
        ``coords`` node attribute."""
        import networkx as nx

        pairs = self._edge_sources * max(self.num_nodes, 1) + self._edge_targets
        if not self._directed:
            lo = np.minimum(self._edge_sources, self._edge_targets)
            hi = np.maximum(self._edge_sources, self._edge_targets)
            pairs = lo * max(self.num_nodes, 1) + hi
        multi = np.unique(pairs).shape[0] != pairs.shape[0]
        kinds = {(True, True): nx.MultiDiGraph, (True, False): nx.DiGraph,
                 (False, True): nx.MultiGraph, (False, False): nx.Graph}  # fmt: skip
        out = kinds[(self._directed, multi)]()
        labels = self.labels
        for i, label in enumerate(labels):
            if self._coords is None:
                out.add_node(label)
            else:
                out.add_node(label, **{coords: tuple(self._coords[i].tolist())})
        for u, v, w in zip(
            self._edge_sources.tolist(),
            self._edge_targets.tolist(),
            self._weights_in.tolist(),
            strict=True,
        ):
            out.add_edge(labels[u], labels[v], **{weight: w})
        return out

    # ------------------------------------------------------------------ state

    @property
    def num_nodes(self) -> int:
        """The number of nodes."""
        return int(self._offsets.shape[0] - 1)

    @property
    def num_edges(self) -> int:
        """The number of edges as given (an undirected edge counts once)."""
        return int(self._edge_sources.shape[0])

    @property
    def directed(self) -> bool:
        """Whether edges are one-way."""
        return self._directed

    @property
    def labels(self) -> list[Hashable]:
        """The node labels, in index order (the indices when none were given)."""
        if self._labels is None:
            return list(range(self.num_nodes))
        return list(self._labels)

    @property
    def coords(self) -> npt.NDArray[np.float64] | None:
        """A read-only view of the node coordinates, or None."""
        if self._coords is None:
            return None
        view: npt.NDArray[np.float64] = self._coords.view()
        view.flags.writeable = False
        return view

    @property
    def heuristic(self) -> str:
        """The default heuristic: ``"euclidean"`` with coordinates, else ``"zero"``."""
        return self._heuristic

    @property
    def heuristic_scale(self) -> float:
        """The Euclidean heuristic's factor: the smallest ``weight / length`` over the
        edges of positive length, less a relative 1e-12 (0 without coordinates)."""
        return self._hscale

    @property
    def edges(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """Copies of ``(sources, targets, weights)`` in input order, as node indices;
        the edge ids of :meth:`set_weights` are places in these arrays."""
        return self._edge_sources.copy(), self._edge_targets.copy(), self._weights_in.copy()

    @property
    def csr(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """Read-only views of the CSR arrays ``(offsets, targets, weights)``: the edges
        leaving node ``u`` are the places ``offsets[u] .. offsets[u + 1] - 1``."""
        views = (self._offsets.view(), self._targets.view(), self._weights.view())
        for view in views:
            view.flags.writeable = False
        return views

    def index(self, node: Hashable) -> int:
        """The index of the node labelled ``node``.

        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": [], "b": []}).index("b")
        1
        """
        return self._node("node", node)

    def label(self, index: int) -> Hashable:
        """The label of the node at ``index``."""
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise TypeError(f"index must be an integer; got {index!r}")
        i = int(index)
        if not 0 <= i < self.num_nodes:
            raise ValueError(f"index {index} is not in [0, {self.num_nodes})")
        return i if self._labels is None else self._labels[i]

    def neighbors(self, node: Hashable) -> list[tuple[Hashable, float]]:
        """``(neighbor, weight)`` pairs of the open edges leaving ``node``, in the order
        the searches visit them: a ``neighbors`` function for :mod:`pathcraft.search`.

        >>> from pathcraft import Graph
        >>> Graph(3, [0, 0], [2, 1], [2.0, 1.0]).neighbors(0)
        [(2, 2.0), (1, 1.0)]
        """
        u = self._node("node", node)
        lo, hi = int(self._offsets[u]), int(self._offsets[u + 1])
        labels = self._labels
        out = []
        for v, w in zip(self._targets[lo:hi].tolist(), self._weights[lo:hi].tolist(), strict=True):
            if w != math.inf:
                out.append((v if labels is None else labels[v], w))
        return out

    def set_weights(self, weights: npt.ArrayLike, edges: npt.ArrayLike | None = None) -> None:
        """Change edge weights between queries, without a rebuild.

        Parameters
        ----------
        weights : array_like of float
            The new weights (``>= 0``; ``np.inf`` closes an edge): one per edge of
            :attr:`edges` when ``edges`` is None, else one per id in ``edges``.
        edges : array_like of int or None
            Edge ids: places in the input order of :attr:`edges`.

        Never change a graph while another thread searches it.

        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0])
        >>> g.set_weights([np.inf], edges=[1])
        >>> g.astar(0, 2).path
        [0, 2]
        """
        if edges is None:
            self._weights_in = checks.weight_array(
                weights, self.num_edges, sources=self._edge_sources, targets=self._edge_targets
            )
        else:
            ids = checks.edge_endpoints("edges", edges, self.num_edges)
            new = checks.weight_array(weights, ids.shape[0])
            self._weights_in[ids] = new
        self._store_weights()

    def set_weight(self, u: Hashable, v: Hashable, weight: float) -> None:
        """Set the weight of every edge ``u -> v`` (either way when undirected)."""
        a, b = self._node("u", u), self._node("v", v)
        new = checks.weight_array([weight], 1, name="weight")[0]
        hit = (self._edge_sources == a) & (self._edge_targets == b)
        if not self._directed:
            hit |= (self._edge_sources == b) & (self._edge_targets == a)
        if not hit.any():
            raise ValueError(f"there is no edge {u!r} -> {v!r}")
        self._weights_in[hit] = new
        self._store_weights()

    def _store_weights(self) -> None:
        """Copy the input-order weights into the CSR array; recompute the scale."""
        self._weights[self._forward] = self._weights_in
        if self._backward is not None:
            self._weights[self._backward] = self._weights_in
        self._hscale = 0.0
        if self._lengths is not None:
            usable = (self._lengths > 0) & np.isfinite(self._weights_in)
            if usable.any():
                ratio = float((self._weights_in[usable] / self._lengths[usable]).min())
                self._hscale = ratio * (1.0 - _SCALE_MARGIN)

    def __repr__(self) -> str:
        kind = "directed" if self._directed else "undirected"
        xy = "" if self._coords is None else f", coords={self._coords.shape[1]}-D"
        return f"Graph({self.num_nodes} nodes, {self.num_edges} edges, {kind}{xy})"

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def _node(self, name: str, node: Any) -> int:
        """The index of one node label; errors name the argument."""
        if self._index is None:
            if isinstance(node, bool) or not isinstance(node, numbers.Integral):
                raise TypeError(f"{name} must be a node index (an integer); got {node!r}")
            if not 0 <= int(node) < self.num_nodes:
                raise ValueError(
                    f"{name} {node!r} is not a node: node indices run from 0 to "
                    f"{self.num_nodes - 1}"
                )
            return int(node)
        try:
            return self._index[node]
        except (KeyError, TypeError):
            raise ValueError(f"{name} {node!r} is not a node of this graph") from None

    def _nodes(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        """One node or a collection of nodes, as an index array (at least one)."""
        single = (
            isinstance(value, numbers.Integral) and not isinstance(value, bool)
            if self._index is None
            else _is_key(self._index, value)
        )
        if single:
            return np.array([self._node(name, value)], dtype=np.intp)
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            self._node(name, value)  # raises the single-node error
        items = list(value)
        if not items:
            raise ValueError(f"{name} must be a node or a non-empty collection of nodes")
        return np.array(
            [self._node(f"{name}[{i}]", item) for i, item in enumerate(items)], dtype=np.intp
        )

    def _to_labels(self, indices: npt.NDArray[np.intp]) -> list[Hashable]:
        if self._labels is None:
            return list(indices.tolist())
        labels = self._labels
        return [labels[i] for i in indices.tolist()]

    # ------------------------------------------------------------------ searches

    def astar(
        self,
        start: Hashable,
        goal: Hashable,
        *,
        weight: float = 1.0,
        heuristic: HeuristicName | None = None,
        tie_break: TieBreak = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> PathResult:
        """A* from ``start`` to ``goal`` (node labels); weighted when ``weight > 1``.

        Parameters
        ----------
        start, goal : hashable
            Node labels.
        weight : float
            ``>= 1``; the cost returned is at most ``weight`` times the optimal cost.
        heuristic : {"euclidean", "zero"} or None
            Overrides the default (:attr:`heuristic`); ``"euclidean"`` needs coordinates.
        tie_break, seed, max_expansions, max_cost, partial, record
            As in :func:`pathcraft.search.astar`; ``result.explored.nodes`` holds labels.

        Returns
        -------
        PathResult
            ``path`` is a list of node labels from start to goal.

        Raises
        ------
        ValueError
            An unknown node, an unknown option, ``weight < 1``, a negative or NaN limit,
            ``heuristic="euclidean"`` without coordinates.
        TypeError
            A node index that is not an integer (graphs without labels), a bad option type.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)], directed=False)
        >>> r = g.astar(2, 0)
        >>> r.path, r.cost, r.expanded
        ([2, 1, 0], 2.0, 3)
        >>> g.astar(0, 9)
        Traceback (most recent call last):
        ...
        ValueError: goal 9 is not a node: node indices run from 0 to 2
        """
        return self._search(
            "astar", start, goal, weight=check_weight(weight), heuristic=heuristic,
            tie_break=tie_break, seed=seed, max_expansions=max_expansions,
            max_cost=max_cost, partial=partial, record=record,
        )  # fmt: skip

    def greedy(
        self,
        start: Hashable,
        goal: Hashable,
        *,
        tie_break: TieBreak = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> PathResult:
        """Greedy best-first search: expand the node nearest the goal (Euclidean) first.

        Fast, not optimal; needs coordinates. Options as in :meth:`astar`.

        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)])
        >>> g.greedy(0, 2).path
        [0, 1, 2]
        """
        if self._coords is None:
            raise ValueError("greedy needs node coordinates (coords=...) for its heuristic")
        return self._search(
            "greedy", start, goal, weight=1.0, heuristic="euclidean", tie_break=tie_break,
            seed=seed, max_expansions=max_expansions, max_cost=max_cost, partial=partial,
            record=record,
        )  # fmt: skip

    def dijkstra(
        self,
        start: Hashable | Iterable[Hashable],
        goal: Hashable | Iterable[Hashable],
        *,
        tie_break: TieBreak = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        record: bool = False,
    ) -> PathResult:
        """Dijkstra from one or many sources to the nearest of one or many goals.

        Parameters
        ----------
        start : node label or collection of labels
            The path starts at the source nearest to a goal. A label that is itself a
            tuple is taken for one node when it is a node of the graph.
        goal : node label or collection of labels
            The search ends at the first goal settled (the cheapest to reach).
        tie_break, seed, max_expansions, max_cost, record
            As in :meth:`astar`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(5, [0, 1, 2, 3], [1, 2, 3, 4], directed=False)
        >>> g.dijkstra(2, [0, 4]).path          # a tie: the first goal settled
        [2, 3, 4]
        >>> g.dijkstra([0, 4], 1).cost
        1.0
        """
        return self._search(
            "dijkstra", start, goal, weight=1.0, heuristic="zero", tie_break=tie_break,
            seed=seed, max_expansions=max_expansions, max_cost=max_cost, partial=False,
            record=record,
        )  # fmt: skip

    def distances(
        self, sources: Hashable | Iterable[Hashable], *, max_cost: float | None = None
    ) -> npt.NDArray[np.float64]:
        """The cost from the nearest source to every node, by node index.

        Parameters
        ----------
        sources : node label or collection of labels
        max_cost : float or None
            Stop at this cost: nodes farther away get ``inf``.

        Returns
        -------
        ndarray of float64, shape (num_nodes,)
            ``inf`` where no source reaches.

        >>> from pathcraft import Graph
        >>> Graph(4, [0, 1], [1, 2], [2.0, 3.0]).distances(0).tolist()
        [0.0, 2.0, 5.0, inf]
        """
        return self.shortest_path_tree(sources, max_cost=max_cost)[0]

    def shortest_path_tree(
        self, sources: Hashable | Iterable[Hashable], *, max_cost: float | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """Costs and parents of the shortest-path tree from the nearest source.

        Returns
        -------
        distances : ndarray of float64, shape (num_nodes,)
            As in :meth:`distances`.
        parents : ndarray of int64, shape (num_nodes,)
            The index of each node's parent in the tree; -1 for sources and for nodes
            not reached.

        >>> from pathcraft import Graph
        >>> Graph(3, [0, 1], [1, 2]).shortest_path_tree(0)[1].tolist()
        [-1, 0, 1]
        """
        flat = self._nodes("sources", sources)
        limit = check_limit("max_cost", max_cost, integer=False)
        dist = np.empty(self.num_nodes)
        parent = np.empty(self.num_nodes, dtype=np.int64)
        _kernel.field(
            self._offsets, self._targets, self._weights, _workspace(self.num_nodes + 1),
            flat, None, dist, parent, max_cost=math.inf if limit is None else float(limit),
        )  # fmt: skip
        return dist, parent

    def _search(
        self,
        mode: str,
        start: Any,
        goal: Any,
        *,
        weight: float,
        heuristic: str | None,
        tie_break: str,
        seed: int | None,
        max_expansions: int | None,
        max_cost: float | None,
        partial: bool,
        record: bool,
    ) -> PathResult:
        t0 = time.perf_counter()
        check_choice("tie_break", tie_break, tuple(_TIES))
        if heuristic is not None:
            check_choice("heuristic", heuristic, tuple(GRAPH_HEURISTICS))
            if heuristic == "euclidean" and self._coords is None:
                raise ValueError('heuristic="euclidean" needs node coordinates (coords=...)')
        limit_exp = check_limit("max_expansions", max_expansions, integer=True)
        limit_cost = check_limit("max_cost", max_cost, integer=False)
        check_seed(seed)
        if mode == "dijkstra":
            sources = self._nodes("start", start)
            goals = self._nodes("goal", goal)
        else:
            sources = np.array([self._node("start", start)], dtype=np.intp)
            goals = np.array([self._node("goal", goal)], dtype=np.intp)
        single = goals.shape[0] == 1
        status, path, _edges, cost, expanded, generated, rec_nodes, rec_g = self.run(
            mode, sources, int(goals[0]) if single else -1, None if single else goals,
            weight=weight, heuristic=heuristic or self._heuristic, tie_break=tie_break,
            seed=seed, max_expansions=limit_exp, max_cost=limit_cost, partial=partial,
            record=record,
        )  # fmt: skip
        explored = None
        if rec_nodes is not None and rec_g is not None:
            explored = Explored(self._to_labels(rec_nodes), rec_g)
        found = status == _kernel.FOUND
        return PathResult(
            path=self._to_labels(path),
            cost=float(cost),
            found=found,
            reason=None if found else _REASONS[status],  # type: ignore[arg-type]
            expanded=int(expanded),
            generated=int(generated),
            elapsed=time.perf_counter() - t0,
            explored=explored,
        )

    def run(
        self,
        mode: str,
        sources: npt.NDArray[np.intp],
        goal: int,
        goal_set: npt.NDArray[np.intp] | None,
        *,
        source_costs: npt.NDArray[np.float64] | None = None,
        exit_costs: npt.NDArray[np.float64] | None = None,
        target: npt.NDArray[np.float64] | None = None,
        weight: float = 1.0,
        heuristic: str = "zero",
        tie_break: str = "g",
        seed: int | None = None,
        max_expansions: int | float | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> tuple[Any, ...]:
        """The kernel call on checked node indices: the building block of the front
        doors here and of the geometric ones (waypoint graphs, navigation meshes).

        ``source_costs`` starts each source at that cost; with ``exit_costs`` the
        goal set leads to a virtual goal (index ``num_nodes``, last on the path) by
        edges of those costs, and the heuristic aims at ``target``. Returns the
        kernel's tuple ``(status, path, path_edges, cost, expanded, generated,
        rec_nodes, rec_g)`` over node indices (see ``_core/graph_search.pyx``).
        Arguments are trusted: check them first.
        """
        rng_seed = 0  # only random tie-breaking draws: skip the entropy read otherwise
        if tie_break == "random":
            rng_seed = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
        return _kernel.search(
            self._offsets, self._targets, self._weights, self._coords,
            _workspace(self.num_nodes + 1), sources, source_costs, goal, goal_set,
            exit_costs, target, hkind=GRAPH_HEURISTICS[heuristic], mode=_MODES[mode],
            tie=_TIES[tie_break], hscale=self._hscale, weight=weight,
            max_expansions=-1 if max_expansions is None else int(max_expansions),
            max_cost=math.inf if max_cost is None else float(max_cost),
            partial=bool(partial), record=bool(record), seed=int(rng_seed),
        )  # fmt: skip


def _is_key(index: dict[Hashable, int], value: Any) -> bool:
    try:
        return value in index
    except TypeError:  # unhashable: a collection of nodes
        return False
