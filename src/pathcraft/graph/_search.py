"""How a :class:`~pathcraft.graph.Graph` runs its kernel: its adapter for the one
compiled-world glue (:class:`GraphQueries`: labels in and out, checked options as the
kernel's arguments; :mod:`pathcraft._cellworld` runs ``find_path`` and
``start_search``), and the distance arrays.

:func:`kernel_args` and :func:`run_kernel` are the one entry to the graph kernel for
pathcraft's own modules: the graph's methods, and the geometric worlds built on a
graph (waypoint graphs, navigation meshes), which search it with virtual sources and
goals. They read only what a graph shows (:attr:`~pathcraft.graph.Graph.csr`,
:attr:`~pathcraft.graph.Graph.coords`, :attr:`~pathcraft.graph.Graph.heuristic_scale`).
Each thread searches with its own workspace.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._cellworld import Kernel, Solver, kernel_solver
from pathcraft._core import graph_search as _kernel
from pathcraft._fields import settled
from pathcraft._kernels import thread_workspace
from pathcraft._options import SearchOptions, kernel_settings
from pathcraft.result import Answer, PathResult

if TYPE_CHECKING:
    from pathcraft.graph._graph import Graph
    from pathcraft.graph._nodes import NodeIndex

__all__ = [
    "GRAPH_HEURISTICS",
    "GraphQueries",
    "field",
    "kernel_args",
    "run_kernel",
    "settle",
    "workspace",
]

HeuristicName = Literal["euclidean", "zero"]
GraphAlgorithm = Literal["astar", "dijkstra", "greedy"]

#: The graph heuristics and their kernel codes.
GRAPH_HEURISTICS: dict[str, int] = _kernel.HEURISTICS


def workspace(nodes: int) -> Any:
    """This thread's graph workspace, grown to hold at least ``nodes`` nodes."""
    return thread_workspace(_kernel.Workspace, nodes)


def kernel_args(
    graph: Graph,
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

    ``source_costs`` starts each source at that cost; with ``exit_costs`` the goal
    set leads to a virtual goal (index ``num_nodes``, last on the path) by edges of
    those costs, and the heuristic aims at ``target``. The kernel checks indices and
    shapes; the caller checks the option values.
    """
    arrays = (*graph.csr, graph.coords)

    def args(ws: Any) -> tuple[Any, ...]:
        return (*arrays, ws, sources, source_costs, goal, goal_set, exit_costs, target)

    settings = kernel_settings(
        mode, tie_break=tie_break, seed=seed, weight=weight,
        max_expansions=None if max_expansions is None else int(max_expansions),
        max_cost=max_cost, partial=bool(partial), record=bool(record),
    )  # fmt: skip
    return args, {
        "hkind": GRAPH_HEURISTICS[heuristic], "hscale": graph.heuristic_scale,
        "settings": settings,
    }  # fmt: skip


def run_kernel(
    graph: Graph, mode: str, sources: npt.NDArray[np.intp], goal: int,
    goal_set: npt.NDArray[np.intp] | None, **options: Any,
) -> tuple[Any, ...]:  # fmt: skip
    """One blocking search with :func:`kernel_args`'s arguments: the kernel's tuple
    ``(status, path, path_edges, cost, expanded, generated, rec_nodes, rec_g)`` over
    node indices (see ``_core/graph_search.pyx``)."""
    args, settings = kernel_args(graph, mode, sources, goal, goal_set, **options)
    return _kernel.search(*args(workspace(graph.num_nodes + 1)), **settings)


class GraphQueries:
    """A graph's adapter for the one compiled-world glue
    (:mod:`pathcraft._cellworld`): places in are node labels (checked by the
    graph's :class:`~pathcraft.graph._nodes.NodeIndex`), places out labels again;
    the kernel's arguments are the CSR arrays and the coordinates."""

    __slots__ = ("graph", "names")

    name = "Graph"
    noun = "nodes"
    kernel = Kernel(
        _kernel.Workspace, _kernel.search, None, _kernel.field, _kernel.GraphSearch
    )

    def __init__(self, graph: Graph, names: NodeIndex) -> None:
        self.graph = graph
        self.names = names

    @property
    def size(self) -> int:
        return self.graph.num_nodes + 1

    def place(self, name: str, value: Any) -> int:
        return self.names.node(name, value)

    def places(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        return self.names.nodes(name, value)

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        """The kernel's settings: the heuristic the algorithm and the graph allow
        (greedy's default needs coordinates)."""
        graph, algorithm = self.graph, opts.algorithm
        heuristic = "zero" if algorithm == "dijkstra" else opts.heuristic or graph.heuristic
        if algorithm == "greedy" and opts.heuristic is None:
            heuristic = "euclidean"
        if heuristic == "euclidean" and graph.coords is None:
            if opts.heuristic is None:
                raise ValueError("greedy needs node coordinates (coords=...) for its heuristic")
            raise ValueError('heuristic="euclidean" needs node coordinates (coords=...)')
        return kernel_args(
            graph, algorithm, _NONE, -1, None,
            weight=opts.weight, heuristic=heuristic, tie_break=opts.tie_break,
            seed=opts.seed, max_expansions=opts.max_expansions, max_cost=opts.max_cost,
            partial=opts.partial, record=opts.record,
        )[1]  # fmt: skip

    def args(
        self, ws: Any, sources: npt.NDArray[np.intp], goal: int,
        goal_set: npt.NDArray[np.intp] | None,
    ) -> tuple[Any, ...]:  # fmt: skip
        return (*self.graph.csr, self.graph.coords, ws, sources, None, goal, goal_set, None, None)

    def result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        """The kernel's answer over node indices as a :class:`PathResult` of labels."""
        read = Answer.read(answer)
        nodes = None if read.nodes is None else self.names.to_labels(read.nodes)
        return read.result(t0, self.names.to_labels(read.path), nodes)

    def settle(self, start: Any, opts: SearchOptions, t0: float) -> PathResult:
        return settle(self.graph, self.names, self.names.nodes("start", start), opts, t0)

    def runs_on(self, opts: SearchOptions) -> GraphQueries:
        return self

    def solver(self, opts: SearchOptions) -> Solver:
        return kernel_solver(self, opts)

    def pairs(self, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
        """A batch's checked ``(start, goal)`` node indices; errors name
        ``starts[i]``/``goals[i]``."""
        lists = []
        for name, value in (("starts", starts), ("goals", goals)):
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise TypeError(f"{name} must be a sequence of node labels; got {value!r}")
            lists.append([self.names.node(f"{name}[{i}]", node) for i, node in enumerate(value)])
        if len(lists[0]) != len(lists[1]):
            raise ValueError(
                "starts and goals must have the same length; "
                f"got {len(lists[0])} and {len(lists[1])}"
            )
        return list(zip(lists[0], lists[1], strict=True))


_NONE = np.empty(0, dtype=np.intp)


def field(
    graph: Graph, flat: npt.NDArray[np.intp], max_cost: Any
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The costs from the nearest of ``flat`` (checked indices) to every node, and
    each node's parent (-1 for sources and nodes not reached)."""
    limit = SearchOptions.check("Graph", "dijkstra", max_cost=max_cost).max_cost
    n = graph.num_nodes
    dist = np.empty(n)
    parent = np.empty(n, dtype=np.int64)
    offsets, targets, weights = graph.csr
    _kernel.field(
        offsets, targets, weights, workspace(n + 1), flat, None, dist, parent,
        max_cost=math.inf if limit is None else float(limit),
    )  # fmt: skip
    return dist, parent


def reversed_field(
    places: int,
    moves: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]],
    goals: list[int],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """The cost from each of ``places`` to the nearest of ``goals`` over ``moves``
    (``(tails, heads, weights)``, finite, >= 0), and each place's next place on a
    cheapest way there (-1 for goals and places that reach none): one compiled Dijkstra
    from the goals over the moves reversed, whose tree's parents are the next places
    forward.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.graph.kit import reversed_field
    >>> moves = (np.array([0, 1]), np.array([1, 2]), np.array([1.0, 2.0]))   # 0 -> 1 -> 2
    >>> [a.tolist() for a in reversed_field(3, moves, [2])]
    [[3.0, 2.0, 0.0], [1, 2, -1]]
    """
    tails, heads, weights = moves
    order = np.argsort(heads, kind="stable")  # rows of the reversed graph: by head
    offsets = np.zeros(places + 1, dtype=np.int64)
    np.cumsum(np.bincount(heads, minlength=places), out=offsets[1:])
    dist = np.empty(places)
    parent = np.empty(places, dtype=np.int64)
    _kernel.field(
        offsets, np.ascontiguousarray(tails[order], dtype=np.int32),
        np.ascontiguousarray(weights[order], dtype=np.float64), workspace(places + 1),
        np.asarray(goals, dtype=np.intp), None, dist, parent, max_cost=math.inf,
    )  # fmt: skip
    return dist, parent.astype(np.intp)


def settle(
    graph: Graph, names: NodeIndex, sources: npt.NDArray[np.intp], opts: SearchOptions,
    t0: float,
) -> PathResult:  # fmt: skip
    """A goal-less Dijkstra: every reachable node's cost and the tree, as mappings."""
    opts.refuse_beyond(("max_cost",), "goal=None")
    dist, parent = field(graph, sources, opts.max_cost)

    def key(i: int) -> Hashable:
        return names.label(i)

    return settled(dist, parent, names.lookup, key, [], t0)
