"""Weighted graphs stored as CSR arrays and searched by the compiled core.

Why this file is longer than 600 lines: a world is one class whose public methods are
its own (``tests/test_layout.py``), each with its documentation and a runnable
example, and :class:`Graph` has 37 (six ways to build one, editing weights, searches,
batches, fields, capabilities); their documentation is more than half of the file.
The code is thin doors onto :mod:`~pathcraft.graph._checks`, :mod:`~pathcraft.graph._csr`,
:mod:`~pathcraft.graph._nodes` and :mod:`~pathcraft.graph._search` (the graph's adapter
of the one glue).

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
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._batch import BatchOptions
from pathcraft._changes import ChangeLog
from pathcraft._options import check_flag
from pathcraft._reach import Moves, Reachability, graph_moves
from pathcraft._sliced import CompiledSearch
from pathcraft._unique import sorted_unique
from pathcraft.graph import _capabilities, _search
from pathcraft.graph import _checks as checks
from pathcraft.graph._nodes import NodeIndex
from pathcraft.graph._search import GRAPH_HEURISTICS, GraphAlgorithm
from pathcraft.graph._space import GraphSpace
from pathcraft.replan import Replanner
from pathcraft.result import PathResult
from pathcraft.world import register_kind

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._options import Options

#: The heuristic scale is lowered by this relative margin against rounding.
_SCALE_MARGIN = 1e-12

__all__ = ["GRAPH_HEURISTICS", "Graph"]


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
        An endpoint that is not a node, a negative or NaN weight, weights whose finite
        sum overflows float64 (a path could cost ``inf``; :meth:`set_weights` refuses
        them too), non-finite coordinates, a wrong shape, repeated labels.

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
        "_lengths",
        "_log",
        "_names",
        "_offsets",
        "_reach",
        "_targets",
        "_views",
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
        checks.weight_total(w)
        self._coords = checks.coordinate_array(coords, n)
        self._names = NodeIndex(n, labels, checks.label_index(labels, n))
        self._directed = bool(directed)
        # the edges in input order (None until asked for in a graph of from_trusted_csr)
        self._edge_sources: npt.NDArray[np.intp] | None = src
        self._edge_targets: npt.NDArray[np.intp] | None = dst
        self._weights_in = w
        # CSR: the edges leaving each node, in input order (for an undirected graph,
        # the edges given as (u, v) first, then those given as (v, u)).
        tails = src if directed else np.concatenate((src, dst))
        heads = dst if directed else np.concatenate((dst, src))
        order = np.argsort(tails, kind="stable")
        place = np.empty(order.shape[0], dtype=np.intp)
        place[order] = np.arange(order.shape[0])
        self._forward: npt.NDArray[np.intp] | None = place[:m]
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
        self._views = _read_only(self._offsets, self._targets, self._weights, self._coords)
        self._log = ChangeLog(limit=m)
        self._reach: Reachability | None = None  # component labels, once asked for

    # ------------------------------------------------------------------ building

    @classmethod
    def from_trusted_csr(
        cls,
        offsets: npt.NDArray[np.int64],
        targets: npt.NDArray[np.int32],
        weights: npt.NDArray[np.float64],
        coords: npt.NDArray[np.float64],
        lengths: npt.NDArray[np.float64],
        ratio: float | None = None,
    ) -> Graph:
        """A directed graph with coordinates from CSR arrays its caller has checked:
        internal, the one constructor pathcraft's own graphs share (the navigation
        mesh's polygon and portal graphs, made again after every local change), not
        for user input (:class:`Graph` checks it).

        Nothing is validated, sorted or copied: the caller guarantees what
        :class:`Graph` would check and build. ``offsets`` (int64, ``n + 1``, from 0,
        non-decreasing), ``targets`` (int32, node indices), ``weights`` (float64,
        finite, ``>= 0``, with a finite sum), ``coords`` (float64, ``(n, 2)`` or
        ``(n, 3)``, finite) and ``lengths`` (float64, the Euclidean length of each
        edge, exactly as :class:`Graph` computes it from ``coords``); ``ratio``, when
        the caller knows it, the smallest ``weight / length`` over the edges of
        positive length (``inf`` when there are none; None: computed here, a pass over
        the edges). The edges' input order is the CSR order (edge ``i`` is place
        ``i``), so the graph equals ``Graph(n, sources, targets, weights, coords=coords)``
        given the edges in that order; the input-order arrays of :attr:`edges` are
        made when first asked for. The arrays are kept: the caller must not write to
        them afterwards (and :meth:`set_weights` writes new weights into ``weights``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Graph
        >>> g = Graph.from_trusted_csr(
        ...     np.array([0, 1, 1]), np.array([1], dtype=np.int32), np.array([2.0]),
        ...     np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([1.0]))
        >>> g.find_path(0, 1).path, g.find_path(0, 1).cost
        ([0, 1], 2.0)
        """
        graph = cls.__new__(cls)
        n = int(offsets.shape[0] - 1)
        m = int(targets.shape[0])
        graph._coords = coords
        graph._names = NodeIndex(n, None, None)
        graph._directed = True
        graph._edge_sources = graph._edge_targets = graph._forward = None  # see _in_order
        graph._weights_in = weights
        graph._backward = None
        graph._offsets = offsets
        graph._targets = targets
        graph._weights = weights  # (the input order is the CSR order)
        graph._lengths = lengths
        graph._heuristic = "euclidean"
        if ratio is None:
            graph._rescale()
        else:
            graph._hscale = ratio * (1.0 - _SCALE_MARGIN) if math.isfinite(ratio) else 0.0
        graph._views = _read_only(graph._offsets, graph._targets, graph._weights, graph._coords)
        graph._log = ChangeLog(limit=m)
        graph._reach = None
        return graph

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
        ``coords`` node attribute. Needs networkx.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], [2.0, 3.0], coords=[[0, 0], [2, 0], [2, 3]])
        >>> nxg = g.to_networkx()
        >>> type(nxg).__name__, list(nxg.edges(data="weight"))
        ('DiGraph', [(0, 1, 2.0), (1, 2, 3.0)])
        >>> nxg.nodes[2]["pos"]
        (2.0, 3.0)
        """
        import networkx as nx

        sources, targets = self._in_order()
        pairs = sources * max(self.num_nodes, 1) + targets
        if not self._directed:
            lo = np.minimum(sources, targets)
            hi = np.maximum(sources, targets)
            pairs = lo * max(self.num_nodes, 1) + hi
        multi = sorted_unique(pairs).shape[0] != pairs.shape[0]
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
            sources.tolist(),
            targets.tolist(),
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
        return int(self._weights_in.shape[0])

    @property
    def directed(self) -> bool:
        """Whether edges are one-way."""
        return self._directed

    @property
    def labels(self) -> list[Hashable]:
        """The node labels, in index order (the indices when none were given)."""
        labels = self._names.labels
        return list(range(self.num_nodes)) if labels is None else list(labels)

    @property
    def coords(self) -> npt.NDArray[np.float64] | None:
        """A read-only view of the node coordinates, or None."""
        view: npt.NDArray[np.float64] | None = self._views[3]
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
        sources, targets = self._in_order()
        return sources.copy(), targets.copy(), self._weights_in.copy()

    @property
    def csr(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """Read-only views of the CSR arrays ``(offsets, targets, weights)``: the edges
        leaving node ``u`` are the places ``offsets[u] .. offsets[u + 1] - 1``."""
        offsets, targets, weights, _coords = self._views
        return offsets, targets, weights

    def index(self, node: Hashable, *, name: str = "node") -> int:
        """The index of the node labelled ``node`` (``name``: the argument's name in
        the error raised for a label that is not a node).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": [], "b": []}).index("b")
        1
        >>> Graph.from_adjacency({"a": []}).index("z", name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal 'z' is not a node of this graph
        """
        return self._names.node(name, node)

    def label(self, index: int) -> Hashable:
        """The label of the node at ``index`` (the inverse of :meth:`index`).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph.from_adjacency({"a": {"b": 1.0}, "b": {}})
        >>> g.label(1), g.label(g.index("a"))
        ('b', 'a')
        >>> g.label(2)
        Traceback (most recent call last):
        ...
        ValueError: index 2 is not in [0, 2)
        """
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise TypeError(f"index must be an integer; got {index!r}")
        i = int(index)
        if not 0 <= i < self.num_nodes:
            raise ValueError(f"index {index} is not in [0, {self.num_nodes})")
        return self._names.label(i)

    def neighbors(self, node: Hashable) -> list[tuple[Hashable, float]]:
        """``(neighbor, weight)`` pairs of the open edges leaving ``node``, in the order
        the searches visit them: a ``neighbors`` function for :mod:`pathcraft.search`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph(3, [0, 0], [2, 1], [2.0, 1.0]).neighbors(0)
        [(2, 2.0), (1, 1.0)]
        """
        u = self._names.node("node", node)
        lo, hi = int(self._offsets[u]), int(self._offsets[u + 1])
        label = self._names.label
        out = []
        for v, w in zip(self._targets[lo:hi].tolist(), self._weights[lo:hi].tolist(), strict=True):
            if w != math.inf:
                out.append((label(v), w))
        return out

    # ------------------------------------------------------------------ searches

    def find_path(
        self,
        start: Hashable | Iterable[Hashable],
        goal: Hashable | Iterable[Hashable] | None,
        *,
        algorithm: GraphAlgorithm = "astar",
        **options: Unpack[Options],
    ) -> PathResult:
        """A path from ``start`` to ``goal`` (node labels), by ``algorithm``.

        The one query every world answers (see the README's options table);
        :meth:`astar`, :meth:`dijkstra` and :meth:`greedy` are this with the algorithm
        chosen. The searches expand exactly the nodes the generic search
        (:func:`pathcraft.search.find_path`) expands on :meth:`neighbors`.

        Parameters
        ----------
        start, goal : hashable
            Node labels. Dijkstra also takes collections of labels for either, and
            ``goal=None`` (see :meth:`dijkstra`).
        algorithm : {"astar", "dijkstra", "greedy"}
            The search.
        weight : float
            ``>= 1``; the cost returned is at most ``weight`` times the optimal cost.
        heuristic : {"euclidean", "zero"} or None
            Overrides the default (:attr:`heuristic`); ``"euclidean"`` needs coordinates.
        tie_break : {"g", "fifo", "random"}
            Among equal priorities: the larger g (default), the first pushed, or at
            random, reproducibly by ``seed``.
        seed : int or None
            In ``[0, 2**64 - 1]``; None draws fresh entropy.
        max_expansions, max_cost : int, float or None
            Limits: give up after that many expansions, never reach a node costing
            more than that.
        partial : bool
            When the goal is not reached (unreachable or a limit), ``path`` leads to the
            expanded node closest to the goal by the heuristic; the result stays falsy.
        record : bool
            Keep the expanded nodes (labels) and their g-costs in ``result.explored``.

        Returns
        -------
        PathResult
            ``path`` is a list of node labels from start to goal.

        Raises
        ------
        UnsupportedOptionError
            An option the algorithm does not take (a ``TypeError`` naming what it takes).
        ValueError
            An unknown node, a bad option value, ``heuristic="euclidean"`` (or greedy's
            default) without coordinates.
        TypeError
            A node index that is not an integer (graphs without labels), a bad option type.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)], directed=False)
        >>> r = g.find_path(2, 0, algorithm="dijkstra")
        >>> r.path, r.cost
        ([2, 1, 0], 2.0)
        >>> g.find_path(2, 0, algorithm="dijkstra", partial=True)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: Graph.find_path(algorithm='dijkstra') ...
        """
        return _cellworld.find_path(
            _search.GraphQueries(self, self._names), start, goal, algorithm, options,
            self._reach,
        )  # fmt: skip

    def start_search(
        self,
        start: Hashable | Iterable[Hashable],
        goal: Hashable | Iterable[Hashable],
        *,
        algorithm: GraphAlgorithm = "astar",
        **options: Unpack[Options],
    ) -> CompiledSearch:
        """Start a compiled search that a game loop spreads over frames.

        ``algorithm`` and ``options`` are :meth:`find_path`'s, checked the same way
        (a goal is needed). ``step(n)`` on the returned object expands at most ``n``
        more nodes with the GIL released and returns ``"in_progress"``, ``"found"``,
        the reason the search ended without its goal, or ``"cancelled"``; its
        ``result`` is then exactly the blocking call's, whatever the slice sizes.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> search = Graph(4, [0, 1, 2], [1, 2, 3]).start_search(0, 3)
        >>> search.step(1), search.step(), search.result.path
        ('in_progress', 'found', [0, 1, 2, 3])
        """
        return _cellworld.start_search(
            _search.GraphQueries(self, self._names), start, goal, algorithm, options, self,
            self._reach,
        )  # fmt: skip

    def astar(self, start: Hashable, goal: Hashable, **options: Unpack[Options]) -> PathResult:
        """A* from ``start`` to ``goal`` (node labels); weighted when ``weight > 1``.

        ``find_path(start, goal, algorithm="astar", **options)``: every option of
        :meth:`find_path` applies.

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
        return self.find_path(start, goal, algorithm="astar", **options)

    def greedy(self, start: Hashable, goal: Hashable, **options: Unpack[Options]) -> PathResult:
        """Greedy best-first search: expand the node nearest the goal first.

        Fast, not optimal. ``find_path(start, goal, algorithm="greedy", **options)``;
        every option but ``weight``. Its heuristic is ``"euclidean"`` (coordinates
        needed) unless ``heuristic=`` says otherwise.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)])
        >>> g.greedy(0, 2).path
        [0, 1, 2]
        """
        return self.find_path(start, goal, algorithm="greedy", **options)

    def dijkstra(
        self,
        start: Hashable | Iterable[Hashable],
        goal: Hashable | Iterable[Hashable] | None = None,
        **options: Unpack[Options],
    ) -> PathResult:
        """Dijkstra from one or many sources to the nearest of one or many goals, or
        to every node (``goal=None``).

        Parameters
        ----------
        start : node label or collection of labels
            The path starts at the source nearest to a goal. A label that is itself a
            tuple is taken for one node when it is a node of the graph.
        goal : node label, collection of labels, or None
            The search ends at the first goal settled (the cheapest to reach). None
            settles every node reachable (within ``max_cost``): ``distances`` maps each
            reached label to its cost, ``path_to(label)`` gives its path, ``path`` is
            empty (the result is truthy). Without a goal only ``max_cost`` is taken;
            :meth:`distance_field` gives the same as arrays.
        **options
            ``tie_break``, ``seed``, ``max_expansions``, ``max_cost``, ``record``, as in
            :meth:`find_path`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(5, [0, 1, 2, 3], [1, 2, 3, 4], directed=False)
        >>> g.dijkstra(2, [0, 4]).path          # a tie: the first goal settled
        [2, 3, 4]
        >>> g.dijkstra([0, 4], 1).cost
        1.0
        >>> every = g.dijkstra(0)
        >>> every.distances[3], every.path_to(3)
        (3.0, [0, 1, 2, 3])
        """
        return self.find_path(start, goal, algorithm="dijkstra", **options)

    def replanner(self, start: Hashable, goal: Hashable) -> Replanner:
        """An incremental planner for one agent going from node ``start`` to node
        ``goal``: it keeps its search (D* Lite) between calls, takes in this graph's
        weight edits by itself, follows the agent (``move_to``) and returns the
        current optimal path (``path()``); see :class:`~pathcraft.replan.Replanner`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1, 0, 2], [1, 3, 2, 3], [1.0, 1.0, 2.0, 2.0], directed=False)
        >>> plan = g.replanner(0, 3)
        >>> plan.path().path
        [0, 1, 3]
        >>> g.set_weight(1, 3, float("inf"))   # close the road
        >>> plan.path().path, plan.path().cost
        ([0, 2, 3], 4.0)
        """
        return Replanner(self, start, goal)

    @overload
    def distance_field(
        self,
        sources: Hashable | Iterable[Hashable],
        *,
        parents: Literal[False] = ...,
        max_cost: float | None = ...,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def distance_field(
        self,
        sources: Hashable | Iterable[Hashable],
        *,
        parents: Literal[True],
        max_cost: float | None = ...,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]: ...
    def distance_field(
        self,
        sources: Hashable | Iterable[Hashable],
        *,
        parents: bool = False,
        max_cost: float | None = None,
    ) -> npt.NDArray[np.float64] | tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """The cost from the nearest source to every node, by node index, and the
        shortest-path tree when asked.

        Parameters
        ----------
        sources : node label or collection of labels
        parents : bool
            Also return each node's parent in the shortest-path tree.
        max_cost : float or None
            Stop at this cost: nodes farther away get ``inf``.

        Returns
        -------
        costs : ndarray of float64, shape (num_nodes,)
            ``inf`` where no source reaches.
        parents : ndarray of int64, shape (num_nodes,)
            Only with ``parents=True``: the index of each node's parent in the tree;
            -1 for sources and for nodes not reached.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1], [1, 2], [2.0, 3.0])
        >>> g.distance_field(0).tolist()
        [0.0, 2.0, 5.0, inf]
        >>> g.distance_field(0, parents=True)[1].tolist()
        [-1, 0, 1, -1]
        """
        check_flag("parents", parents)
        flat = self._names.nodes("sources", sources)
        dist, parent = _search.field(self, flat, max_cost)
        return (dist, parent) if parents else dist


    # ------------------------------------------------------------------ batches

    def find_paths(
        self,
        starts: Sequence[Hashable],
        goals: Sequence[Hashable],
        *,
        algorithm: GraphAlgorithm = "astar",
        **options: Unpack[BatchOptions],
    ) -> list[PathResult]:
        """Many searches at once, in parallel: one :class:`~pathcraft.PathResult` per
        ``(start, goal)`` pair of node labels.

        Each answer is exactly what :meth:`find_path` gives for that pair with the
        same ``algorithm`` and options. Threads overlap in the compiled search, which
        releases the GIL; the per-query Python around it does not, so small graphs
        gain less from threads than big ones (a process pool or Dask cluster through
        ``executor`` has no such limit).

        Parameters
        ----------
        starts, goals : sequence of hashable
            Node labels: query ``i`` goes from ``starts[i]`` to ``goals[i]``.
        algorithm : {"astar", "dijkstra", "greedy"}
            As in :meth:`find_path`.
        workers, executor, chunk_size, progress
            As in :meth:`pathcraft.Grid.find_paths`: threads of the built-in pool (None:
            the CPU count), or an executor (a process pool, a Dask ``Client`` or its
            ``get_executor()``, to which the graph is scattered once), queries per
            task, a progress bar.
        **options
            The options of :meth:`find_path` for ``algorithm``, the same for every query.

        Returns
        -------
        list of PathResult
            In the order of ``starts``.

        Raises
        ------
        ValueError
            ``starts`` and ``goals`` of different lengths, an unknown node (named by
            its place: ``goals[3]``), a bad option or batch argument.
        TypeError
            ``starts`` or ``goals`` not a sequence, a non-boolean ``progress``, an
            option the algorithm does not take.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1, 2], [1, 2, 3], directed=False)
        >>> [r.path for r in g.find_paths([0, 3], [2, 1], workers=2)]
        [[0, 1, 2], [3, 2, 1]]
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            _search.GraphQueries(self, self._names), "find_paths", starts, goals, algorithm,
            options,
        )  # fmt: skip

    def path_costs(
        self,
        starts: Sequence[Hashable],
        goals: Sequence[Hashable],
        *,
        algorithm: GraphAlgorithm = "astar",
        **options: Unpack[BatchOptions],
    ) -> npt.NDArray[np.float64]:
        """Only the costs of many searches, in parallel: a float array (``inf`` where
        the goal is not reached). Arguments as in :meth:`find_paths`; ``partial`` and
        ``record`` are refused (they change nothing here).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1], [1, 2], [2.0, 3.0])
        >>> g.path_costs([0, 2], [2, 0], algorithm="dijkstra").tolist()
        [5.0, inf]
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            _search.GraphQueries(self, self._names), "path_costs", starts, goals, algorithm,
            options,
        )  # fmt: skip

    # ------------------------------------------------------------------ changes

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

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0])
        >>> g.set_weights([np.inf], edges=[1])
        >>> g.astar(0, 2).path
        [0, 2]
        """
        if edges is None:
            sources, targets = self._in_order()
            new_in = checks.weight_array(weights, self.num_edges, sources=sources, targets=targets)
        else:
            ids = checks.edge_ids(edges, self.num_edges)
            new = checks.weight_array(weights, ids.shape[0])
            new_in = self._weights_in.copy()
            new_in[ids] = new
        checks.weight_total(new_in)
        self._log.record(np.flatnonzero(new_in != self._weights_in))
        self._weights_in = new_in
        self._store_weights()

    def set_weight(self, u: Hashable, v: Hashable, weight: float) -> None:
        """Set the weight of every edge ``u -> v`` (either way when undirected).

        ``u`` and ``v`` are labels; ``weight`` is ``>= 0``, ``np.inf`` closes the edge.
        Never change a graph while another thread searches it.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph.from_adjacency({"a": {"b": 1.0, "c": 4.0}, "b": {"c": 1.0}, "c": {}})
        >>> g.astar("a", "c").path
        ['a', 'b', 'c']
        >>> g.set_weight("b", "c", 5.0)
        >>> g.astar("a", "c").path, g.astar("a", "c").cost
        (['a', 'c'], 4.0)
        >>> g.set_weight("c", "a", 1.0)
        Traceback (most recent call last):
        ...
        ValueError: there is no edge 'c' -> 'a'
        """
        a, b = self._names.node("u", u), self._names.node("v", v)
        new = checks.weight_array([weight], 1, name="weight")[0]
        sources, targets = self._in_order()
        hit = (sources == a) & (targets == b)
        if not self._directed:
            hit |= (sources == b) & (targets == a)
        if not hit.any():
            raise ValueError(f"there is no edge {u!r} -> {v!r}")
        new_in = self._weights_in.copy()
        new_in[hit] = new
        checks.weight_total(new_in, "weight")
        self._log.record(np.flatnonzero(new_in != self._weights_in))
        self._weights_in = new_in
        self._store_weights()

    # ------------------------------------------------------------------ reachability

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which nodes reach each other: the strongly connected components (on an
        undirected graph, the connected components) of the edges that are open (an
        edge weighing ``np.inf`` is closed).

        Built on first use (one compiled pass over the edges, and on a directed
        graph one more for the graph of the components: about 1.3 times a search
        that floods a random directed graph of a million nodes) and kept for the
        weights of this version: from
        then on :meth:`find_path` (and the shorthands) and :meth:`start_search`
        answer a goal out of reach at once (``reason="unreachable"``, nothing
        expanded; not with ``partial=True``, which explores to return the closest
        node, nor ``record=True``, several starts or goals; the batches search as
        before). After an edit, the first search that ends unreachable, or the
        next call here, builds them again.

        Returns
        -------
        labels : ndarray of int32, shape (num_nodes,)
            The component of every node, in index order (:attr:`labels`), ``0`` to
            ``count - 1``: numbered so that a component that reaches another has the
            larger label.
        count : int
            The number of components.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1, 2], [1, 0, 3])
        >>> g.components()[0].tolist(), g.components()[1]
        ([0, 0, 2, 1], 3)
        """
        reach = self._reachability().labels()
        return reach.labels.copy(), reach.count

    def places(self) -> list[Hashable]:
        """Capability ``"places"``: every node's label, in index order (what
        :class:`pathcraft.mapf.Reservations` numbers).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph(3, [0], [1], labels=["a", "b", "c"]).places()
        ['a', 'b', 'c']
        """
        return list(self.labels)

    def reachable(self, start: Hashable, goal: Hashable) -> bool:
        """Whether a path leads from node ``start`` to node ``goal`` (labels): the
        same component (:meth:`components`, built on first use), or on a directed
        graph the goal's component reachable from the start's in the condensation
        (the graph of the components: most pairs are answered by comparing two
        labels, the rest by a search over the components, at most their count and
        the edges between them, never the nodes).

        Raises
        ------
        ValueError
            A label that is not a node.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1, 2], [1, 0, 3])
        >>> g.reachable(0, 1), g.reachable(2, 3), g.reachable(3, 2), g.reachable(0, 3)
        (True, True, False, False)
        >>> g.find_path(3, 2).expanded                  # answered from the labels
        0
        """
        return _cellworld.reachable(
            _search.GraphQueries(self, self._names), self._reachability(), start, goal
        )

    def _reachability(self) -> Reachability:
        """The graph's labels keeper, made the first time labels are asked for."""
        reach: Reachability | None = self._reach
        if reach is None:
            reach = self._reach = Reachability(self, self._move_graph)
        return reach

    def _move_graph(self) -> Moves:
        return graph_moves(self.csr, self._directed)

    @property
    def version(self) -> int:
        """How many edits the graph has had (:meth:`set_weights`, :meth:`set_weight`
        calls that changed a weight): keep it, and give it back to
        :meth:`changes_since` later to learn what the edits since touched (edge ids)."""
        return self._log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The edges whose weight changed after ``version`` (a past :attr:`version`).

        The same question every editable world answers (:meth:`Grid.changes_since
        <pathcraft.grid.Grid.changes_since>` gives cells,
        :meth:`WaypointGraph.changes_since
        <pathcraft.waypoints.WaypointGraph.changes_since>` links), in its own terms
        (see the README's "Worlds that change"); a :class:`~pathcraft.replan.Replanner`
        asks it before every answer. The log keeps about as many edge ids as the
        graph has edges; asked about edits older than that, it answers with every
        edge (a correct, if unhelpful, answer).

        Parameters
        ----------
        version : int
            In ``[0, graph.version]``.

        Returns
        -------
        ndarray of intp, shape (k,)
            Edge ids (places in :attr:`edges`), sorted, each once (an edge whose
            weight changed and changed back since ``version`` is listed).

        Raises
        ------
        TypeError
            ``version`` not an integer.
        ValueError
            ``version`` negative or larger than :attr:`version`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0])
        >>> seen = g.version
        >>> g.set_weight(1, 2, 4.0)
        >>> g.set_weights([1.0, 4.0, 2.0])
        >>> g.version, g.changes_since(seen).tolist(), g.changes_since(1).tolist()
        (2, [1, 2], [2])
        """
        return self._log.since(version, total=self.num_edges)

    def _in_order(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The edges' sources and targets in input order (made on first use for a
        graph built by :meth:`from_trusted_csr`, whose input order is its CSR order)."""
        if self._edge_sources is None or self._edge_targets is None:
            n = self.num_nodes
            self._edge_sources = np.repeat(np.arange(n, dtype=np.intp), np.diff(self._offsets))
            self._edge_targets = self._targets.astype(np.intp)
            self._forward = np.arange(self._targets.shape[0], dtype=np.intp)
        return self._edge_sources, self._edge_targets

    def _store_weights(self) -> None:
        """Copy the input-order weights into the CSR array; recompute the scale."""
        self._in_order()
        assert self._forward is not None  # (made by _in_order)
        self._weights[self._forward] = self._weights_in
        if self._backward is not None:
            self._weights[self._backward] = self._weights_in
        self._rescale()

    def _rescale(self) -> None:
        """Recompute the heuristic scale from the weights and the edges' lengths."""
        self._hscale = 0.0
        if self._lengths is not None:
            usable = (self._lengths > 0) & np.isfinite(self._weights_in)
            if usable.any():
                with np.errstate(divide="ignore", invalid="ignore"):
                    ratio = self._weights_in / self._lengths
                ratio[~usable] = np.inf  # (a mask, not a subset: no copies of the arrays)
                self._hscale = float(ratio.min()) * (1.0 - _SCALE_MARGIN)

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world; their code is graph/_capabilities.py.

    #: The name of a saved graph (:func:`pathcraft.io.save`).
    kind = "graph"

    def plot(self, result: PathResult | None = None, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: this graph (it needs coordinates) and ``result`` drawn
        by :func:`pathcraft.viz.plot_graph` (needs the ``viz`` extra).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(2, [0], [1], coords=[(0, 0), (1, 0)])
        >>> g.plot(g.astar(0, 1, record=True)).get_title()
        'cost 1.00, 2 expanded'
        """
        return _capabilities.plot(self, result, ax, **kwargs)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``num_nodes``, the edges, ``directed`` and the
        coordinates and labels if any (labels all ``str`` or all ``int``).

        Raises
        ------
        TypeError
            Labels a file cannot hold (neither all ``str`` nor all ``int``).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> sorted(Graph(2, [0], [1]).to_arrays())
        ['directed', 'num_nodes', 'sources', 'targets', 'weights']
        """
        return _capabilities.to_arrays(self)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> Graph:
        """Capability ``"save"``: the graph :meth:`to_arrays` wrote, checked again.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> roads = Graph.from_adjacency({"a": {"b": 2.0}, "b": {}})
        >>> Graph.from_arrays(roads.to_arrays()).dijkstra("a", "b").cost
        2.0
        """
        return _capabilities.from_arrays(cls, arrays)

    def agent_space(self) -> GraphSpace:
        """Capability ``"agent_space"``: this graph as agents' space
        (:class:`~pathcraft.agents.GraphSpace`, nodes are labels).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph(2, [0], [1], coords=[(0, 0), (3, 4)]).agent_space().point(1)
        (3.0, 4.0)
        """
        return GraphSpace(self)

    def replan_space(self) -> _capabilities.GraphReplan:
        """Capability ``"replanner"``: this graph as D* Lite sees it
        (:class:`pathcraft.replan.ReplanSpace`; :meth:`replanner` uses it).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}).replan_space().node(1)
        'b'
        """
        return _capabilities.GraphReplan(self)

    def __repr__(self) -> str:
        kind = "directed" if self._directed else "undirected"
        xy = "" if self._coords is None else f", coords={self._coords.shape[1]}-D"
        return f"Graph({self.num_nodes} nodes, {self.num_edges} edges, {kind}{xy})"

    def __getstate__(self) -> dict[str, Any]:
        skip = ("_views", "_reach")  # made again where used
        return {name: getattr(self, name) for name in self.__slots__ if name not in skip}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self._reach = None
        self._views = _read_only(self._offsets, self._targets, self._weights, self._coords)


def _read_only(*arrays: Any) -> tuple[Any, ...]:
    """Read-only views of ``arrays`` (None stays None): what :attr:`Graph.csr` and
    :attr:`Graph.coords` show, made once (weights change in place, so the views follow)."""
    views = []
    for arr in arrays:
        view = None if arr is None else arr.view()
        if view is not None:
            view.flags.writeable = False
        views.append(view)
    return tuple(views)


register_kind(Graph)
