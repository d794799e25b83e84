"""The graph as agents' space (:class:`GraphSpace`, a :class:`pathcraft.agents.Space`):
what :meth:`Graph.agent_space <pathcraft.graph.Graph.agent_space>` returns. Nodes are
the graph's labels; positions ``(x, y)`` come from its coordinates."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._floors import FreeSpace
from pathcraft._moveflow import MoveFlow, flat_goals
from pathcraft._sliced import CompiledSearch
from pathcraft.graph._search import reversed_field
from pathcraft.world import kind_of, refuse

if TYPE_CHECKING:
    from pathcraft.graph._graph import Graph
    from pathcraft.result import PathResult

__all__ = ["GraphSpace"]


class GraphSpace:
    """A :class:`~pathcraft.graph.Graph` as a :class:`Space`: nodes are its labels.

    ``point`` needs the graph's coordinates (``coords=``).

    Examples
    --------
    >>> from pathcraft import Graph
    >>> from pathcraft.agents import GraphSpace
    >>> space = GraphSpace(Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0]))
    >>> path = space.nodes(space.find_path(0, 2))
    >>> path, space.step_costs(path).tolist()
    ([0, 1, 2], [1.0, 1.0])
    """

    __slots__ = ("graph",)

    def __init__(self, graph: Graph) -> None:
        if kind_of(graph) != "graph":
            raise TypeError(f"graph must be a pathcraft Graph; got {type(graph).__name__}")
        self.graph = graph

    @property
    def world(self) -> Any:
        """The graph agents move through (its edits are watched)."""
        return self.graph

    def key(self, node: Any, name: str = "node") -> Hashable:
        """``node`` checked to be a label of the graph; ``name`` is the argument's name
        in the error raised.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}))
        >>> space.key("b")
        'b'
        >>> space.key("z", name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal 'z' is not a node of this graph
        """
        return self.graph.label(self.graph.index(node, name=name))

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The optimal path between two labels, by the graph's A* (its default
        heuristic); ``max_expansions`` as in :meth:`Graph.find_path
        <pathcraft.graph.Graph.find_path>`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0]))
        >>> space.find_path(0, 2).path, space.find_path(2, 0).found
        ([0, 1, 2], False)
        """
        return self.graph.astar(start, goal, max_expansions=max_expansions)

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """The graph's A* (as in :meth:`find_path`) to be advanced frame by frame.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> plan = GraphSpace(Graph(3, [0, 1], [1, 2], [1.0, 1.0])).start_search(0, 2)
        >>> [plan.step(1), plan.step(5)], plan.result.path
        (['in_progress', 'found'], [0, 1, 2])
        """
        return self.graph.start_search(start, goal, max_expansions=max_expansions)

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The labels on ``result``'s path.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents.spaces import GraphSpace
        >>> space = GraphSpace(Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}))
        >>> space.nodes(space.find_path("a", "b"))
        ['a', 'b']
        """
        return list(result.path)

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The weight of each step of a path of labels (the cheapest of parallel edges).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(3, [0, 0, 1], [1, 1, 2], [4.0, 2.0, 3.0]))
        >>> space.step_costs([0, 1, 2]).tolist()
        [2.0, 3.0]
        """
        out = np.empty(max(len(path) - 1, 0))
        for i in range(len(path) - 1):
            out[i] = min(w for v, w in self.graph.neighbors(path[i]) if v == path[i + 1])
        return out

    def point(self, node: Hashable) -> tuple[float, float]:
        """Where the node labelled ``node`` is, ``(x, y)`` from the graph's coordinates.

        Raises
        ------
        ValueError
            The graph has no coordinates.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(2, [0], [1], coords=[(0, 0), (3, 4)]))
        >>> space.point(1)
        (3.0, 4.0)
        >>> GraphSpace(Graph(2, [0], [1])).point(1)
        Traceback (most recent call last):
        ...
        ValueError: positions need node coordinates: build the Graph with coords=
        """
        coords = self.graph.coords
        if coords is None:
            raise ValueError("positions need node coordinates: build the Graph with coords=")
        x, y = coords[self.graph.index(node)][:2]
        return float(x), float(y)

    def floor(self) -> FreeSpace:
        """Where ``(x, y)`` agents may stand: anywhere (free space: the graph's edges
        are the legal motion, so a path between its nodes' coordinates is followed as
        it is). A graph with 3-D coordinates is followed in its ``(x, y)``.

        Raises
        ------
        CapabilityError
            A graph without coordinates (its nodes are no places of the plane).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> type(Graph(2, [0], [1], coords=[(0, 0), (1, 0)]).agent_space().floor()).__name__
        'FreeSpace'
        >>> Graph(2, [0], [1]).agent_space().floor()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft.world.CapabilityError: Graph does not provide agent_space: ...
        """
        if self.graph.coords is None:
            refuse(
                self.graph, "agent_space", "its nodes have no coordinates (build it with coords=)"
            )
        return FreeSpace()

    def moves(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """The graph's edges as node indices ``(tails, heads, weights)`` (both ways on
        an undirected graph; an edge weighing ``inf`` is none).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> [a.tolist() for a in Graph(2, [0], [1], [2.0], directed=False).agent_space().moves()]
        [[0, 1], [1, 0], [2.0, 2.0]]
        """
        offsets, heads, weights = self.graph.csr
        tails = np.repeat(np.arange(len(offsets) - 1, dtype=np.intp), np.diff(offsets))
        return tails, heads.astype(np.intp), np.asarray(weights, dtype=np.float64)

    def flow_field(self, goals: Any, size: int = 1) -> Any:
        """The flow field toward ``goals`` (a node label, or a list of them) over the
        graph's edges (:class:`~pathcraft._moveflow.MoveFlow`): its
        ``next_cell`` holds each node's next node index. Units are one node.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph(3, [0, 1], [1, 2]).agent_space().flow_field([2]).next_cell.tolist()
        [1, 2, 2]
        """
        if size != 1 or isinstance(size, bool):
            raise ValueError(f"size must be 1 on a graph (one node a unit); got {size!r}")
        graph = self.graph

        def many(value: Any) -> list[Hashable]:
            listed = value if isinstance(value, list) else [value]
            return [self.key(v, "goals") for v in listed]

        flat = flat_goals(goals, many, lambda label: graph.index(label, name="goals"))
        return MoveFlow(
            graph, (graph.num_nodes,), flat, self.moves, lambda i: self.point(graph.label(i)),
            lambda i: True, reversed_field, goals,
        )  # fmt: skip

