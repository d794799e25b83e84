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
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._core import graph_search as _kernel
from pathcraft._kernels import MODES, REASONS, TIES, thread_workspace
from pathcraft._sliced import CompiledSearch, bind_options
from pathcraft._validation import check_choice, check_limit, check_seed, check_weight
from pathcraft.result import Explored, PathResult

__all__ = ["GRAPH_HEURISTICS", "GraphQueries"]

HeuristicName = Literal["euclidean", "zero"]
TieBreak = Literal["g", "fifo", "random"]

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

    def _search(self, mode: str, start: Any, goal: Any, **options: Any) -> PathResult:
        t0 = time.perf_counter()
        args, settings = self._prepare(mode, start, goal, **options)
        answer = _kernel.search(*args(_workspace(self.num_nodes + 1)), **settings)
        return self._to_result(answer, t0)

    def start_search(
        self, start: Hashable | Iterable[Hashable], goal: Hashable | Iterable[Hashable],
        *, algorithm: Literal["astar", "dijkstra", "greedy"] = "astar", **options: Any,
    ) -> CompiledSearch:  # fmt: skip
        """Start a compiled search that a game loop spreads over frames.

        ``algorithm`` names the blocking method whose search it is, and ``options`` are
        that method's (checked the same way). ``step(n)`` on the returned object
        expands at most ``n`` more nodes with the GIL released and returns
        ``"in_progress"``, ``"found"``, the reason the search ended without its goal,
        or ``"cancelled"``; its ``result`` is then exactly the blocking call's,
        whatever the slice sizes.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> search = Graph(4, [0, 1, 2], [1, 2, 3]).start_search(0, 3)
        >>> search.step(1), search.step(), search.result.path
        ('in_progress', 'found', [0, 1, 2, 3])
        """
        named = bind_options(self, algorithm, ("astar", "dijkstra", "greedy"), options)
        if algorithm == "astar":
            named["weight"] = check_weight(named["weight"])
        elif algorithm == "greedy":
            if self._coords is None:
                raise ValueError("greedy needs node coordinates (coords=...) for its heuristic")
            named.update(weight=1.0, heuristic="euclidean")
        else:
            named.update(weight=1.0, heuristic="zero", partial=False)
        args, settings = self._prepare(algorithm, start, goal, **named)
        return CompiledSearch(
            lambda ws: _kernel.GraphSearch(*args(ws), **settings),
            self._to_result, _kernel.Workspace, self.num_nodes + 1,
        )  # fmt: skip

    def _prepare(
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
    ) -> tuple[Any, dict[str, Any]]:
        """Checked arguments of a search: a function of a workspace giving the kernel's
        positional arguments, and its settings."""
        check_choice("tie_break", tie_break, tuple(TIES))
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
        return self._kernel_args(
            mode, sources, int(goals[0]) if single else -1, None if single else goals,
            weight=weight, heuristic=heuristic or self._heuristic, tie_break=tie_break,
            seed=seed, max_expansions=limit_exp, max_cost=limit_cost, partial=partial,
            record=record,
        )  # fmt: skip

    def _to_result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        """The kernel's answer over node indices as a :class:`PathResult` of labels."""
        status, path, _edges, cost, expanded, generated, rec_nodes, rec_g = answer
        explored = None
        if rec_nodes is not None and rec_g is not None:
            explored = Explored(self._to_labels(rec_nodes), rec_g)
        found = status == _kernel.FOUND
        return PathResult(
            path=self._to_labels(path),
            cost=float(cost),
            found=found,
            reason=None if found else REASONS[status],  # type: ignore[arg-type]
            expanded=int(expanded),
            generated=int(generated),
            elapsed=time.perf_counter() - t0,
            explored=explored,
        )

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
        rng_seed = 0  # only random tie-breaking draws: skip the entropy read otherwise
        if tie_break == "random":
            rng_seed = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
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
