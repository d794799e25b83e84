"""The searches of :class:`pathcraft.graph.Graph`: node arguments and kernel calls.

A mixin: :class:`GraphQueries` holds the query methods of ``Graph`` (A*, greedy,
Dijkstra, distance arrays, sliced searches, and the private kernel call the geometric
front doors build on) and the conversion of node labels to indices; ``Graph`` holds
the arrays and everything that builds or changes them. Each thread searches with its
own workspace.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from pathcraft._core import graph_search as _kernel
from pathcraft._fields import settled
from pathcraft._kernels import MODES, TIES, thread_workspace
from pathcraft._options import SearchOptions, check_flag, kernel_seed
from pathcraft._sliced import CompiledSearch
from pathcraft.result import PathResult, build_result

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._options import Options

__all__ = ["GRAPH_HEURISTICS", "GraphQueries"]

HeuristicName = Literal["euclidean", "zero"]
GraphAlgorithm = Literal["astar", "dijkstra", "greedy"]

#: The graph heuristics and their kernel codes.
GRAPH_HEURISTICS: dict[str, int] = {"zero": 0, "euclidean": 1}


def _workspace(nodes: int) -> Any:
    """This thread's graph workspace, grown to hold at least ``nodes`` nodes."""
    return thread_workspace(_kernel.Workspace, nodes)


class GraphQueries:
    """The query methods of :class:`pathcraft.Graph` (see there)."""

    __slots__ = ()

    # Set by Graph.__init__.
    _offsets: npt.NDArray[np.int64]
    _targets: npt.NDArray[np.int32]
    _weights: npt.NDArray[np.float64]
    _coords: npt.NDArray[np.float64] | None
    _index: dict[Hashable, int] | None
    _labels: list[Hashable] | None
    _heuristic: str
    _hscale: float

    @property
    def num_nodes(self) -> int:
        """The number of nodes."""
        return int(self._offsets.shape[0] - 1)

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
        t0 = time.perf_counter()
        opts = SearchOptions.check("Graph", algorithm, **options)
        if algorithm == "dijkstra" and goal is None:
            return self._settle(self._nodes("start", start), opts, t0)
        args, settings = self._prepare(opts, start, goal)
        answer = _kernel.search(*args(_workspace(self.num_nodes + 1)), **settings)
        return self._to_result(answer, t0)

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
        opts = SearchOptions.check("Graph", algorithm, **options)
        args, settings = self._prepare(opts, start, goal)
        return CompiledSearch(
            lambda ws: _kernel.GraphSearch(*args(ws), **settings),
            self._to_result, _kernel.Workspace, self.num_nodes + 1,
        )  # fmt: skip

    def _prepare(
        self, opts: SearchOptions, start: Any, goal: Any
    ) -> tuple[Any, dict[str, Any]]:
        """A search's checked arguments (see :meth:`_kernel_args`): its heuristic,
        start and goal nodes as indices."""
        algorithm = opts.algorithm
        heuristic = "zero" if algorithm == "dijkstra" else opts.heuristic or self._heuristic
        if algorithm == "greedy" and opts.heuristic is None:
            heuristic = "euclidean"
        if heuristic == "euclidean" and self._coords is None:
            if opts.heuristic is None:
                raise ValueError("greedy needs node coordinates (coords=...) for its heuristic")
            raise ValueError('heuristic="euclidean" needs node coordinates (coords=...)')
        if algorithm == "dijkstra":
            sources = self._nodes("start", start)
            goals = self._nodes("goal", goal)
        else:
            sources = np.array([self._node("start", start)], dtype=np.intp)
            goals = np.array([self._node("goal", goal)], dtype=np.intp)
        single = goals.shape[0] == 1
        return self._kernel_args(
            algorithm, sources, int(goals[0]) if single else -1, None if single else goals,
            weight=opts.weight, heuristic=heuristic, tie_break=opts.tie_break,
            seed=opts.seed, max_expansions=opts.max_expansions, max_cost=opts.max_cost,
            partial=opts.partial, record=opts.record,
        )  # fmt: skip

    def _to_result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        """The kernel's answer over node indices as a :class:`PathResult` of labels."""
        status, path, _edges, cost, expanded, generated, rec_nodes, rec_g = answer
        explored = None
        if rec_nodes is not None and rec_g is not None:
            explored = (self._to_labels(rec_nodes), rec_g)
        return build_result(
            status, self._to_labels(path), cost, expanded=expanded, generated=generated,
            t0=t0, explored=explored,
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
        flat = self._nodes("sources", sources)
        dist, parent = self._field(flat, max_cost)
        return (dist, parent) if parents else dist

    def _field(
        self, flat: npt.NDArray[np.intp], max_cost: Any
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        limit = SearchOptions.check("Graph", "dijkstra", max_cost=max_cost).max_cost
        dist = np.empty(self.num_nodes)
        parent = np.empty(self.num_nodes, dtype=np.int64)
        _kernel.field(
            self._offsets, self._targets, self._weights, _workspace(self.num_nodes + 1),
            flat, None, dist, parent, max_cost=math.inf if limit is None else float(limit),
        )  # fmt: skip
        return dist, parent

    def _settle(self, sources: npt.NDArray[np.intp], opts: SearchOptions, t0: float) -> PathResult:
        """A goal-less Dijkstra: every reachable node's cost and the tree, as mappings."""
        opts.refuse_beyond(("max_cost",), "goal=None")
        dist, parent = self._field(sources, opts.max_cost)
        index = self._index

        def to_index(node: Hashable) -> int | None:
            if index is not None:
                return index.get(node) if _is_key(index, node) else None
            if isinstance(node, bool) or not isinstance(node, numbers.Integral):
                return None
            return int(node) if 0 <= int(node) < dist.shape[0] else None

        labels = self._labels

        def key(i: int) -> Hashable:
            return i if labels is None else labels[i]

        return settled(dist, parent, to_index, key, [], t0)

    def _run(
        self, mode: str, sources: npt.NDArray[np.intp], goal: int,
        goal_set: npt.NDArray[np.intp] | None, **options: Any,
    ) -> tuple[Any, ...]:  # fmt: skip
        """The kernel call on node indices: the building block of the geometric front
        doors (waypoint graphs, navigation meshes). Options as in :meth:`_kernel_args`;
        returns the kernel's tuple ``(status, path, path_edges, cost, expanded,
        generated, rec_nodes, rec_g)`` over node indices (see
        ``_core/graph_search.pyx``). Private: the kernel checks indices and shapes, the
        caller the option values."""
        args, settings = self._kernel_args(mode, sources, goal, goal_set, **options)
        return _kernel.search(*args(_workspace(self.num_nodes + 1)), **settings)

    def _kernel_args(
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
    ) -> tuple[Any, dict[str, Any]]:
        """The kernel's arguments for a search on node indices: a function of a
        workspace giving the positional ones, and the settings.

        ``source_costs`` starts each source at that cost; with ``exit_costs`` the
        goal set leads to a virtual goal (index ``num_nodes``, last on the path) by
        edges of those costs, and the heuristic aims at ``target``.
        """
        rng_seed = kernel_seed(tie_break, seed)
        arrays = (self._offsets, self._targets, self._weights, self._coords)

        def args(ws: Any) -> tuple[Any, ...]:
            return (*arrays, ws, sources, source_costs, goal, goal_set, exit_costs, target)

        return args, {
            "hkind": GRAPH_HEURISTICS[heuristic], "mode": MODES[mode],
            "tie": TIES[tie_break], "hscale": self._hscale, "weight": weight,
            "max_expansions": -1 if max_expansions is None else int(max_expansions),
            "max_cost": math.inf if max_cost is None else float(max_cost),
            "partial": bool(partial), "record": bool(record), "seed": int(rng_seed),
        }  # fmt: skip


def _is_key(index: dict[Hashable, int], value: Any) -> bool:
    try:
        return value in index
    except TypeError:  # unhashable: a collection of nodes
        return False
