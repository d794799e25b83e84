"""The graph's capabilities (:mod:`pathcraft.world`): its picture, its saved arrays and
the replanner's view of it (:class:`GraphReplan`, also the replanner of a waypoint
graph over its pairs). :class:`~pathcraft.graph.Graph`'s methods of the same names
call these; the agents' space is :mod:`pathcraft.graph._space`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import dstar as _kernel
from pathcraft._positions import check_position
from pathcraft._saved import SavedArrays
from pathcraft._unique import sorted_unique

if TYPE_CHECKING:
    from pathcraft.graph._graph import Graph
    from pathcraft.result import PathResult

__all__ = ["GraphReplan", "from_arrays", "plot", "to_arrays"]


def plot(graph: Any, result: PathResult | None, ax: Any, **kwargs: Any) -> Any:
    """:func:`pathcraft.viz.plot_graph` of ``result`` on ``graph`` (a Graph with
    coordinates or a WaypointGraph)."""
    from pathcraft.viz.graph import plot_graph

    return plot_graph(graph, result, ax, **kwargs)


def _label_array(labels: list[Any], n: int) -> npt.NDArray[Any] | None:
    if labels == list(range(n)):
        return None
    if all(isinstance(x, str) for x in labels):
        return np.array(labels, dtype=str) if labels else np.zeros(0, dtype="<U1")
    if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in labels):
        return np.array(labels, dtype=np.int64)
    kinds = sorted({type(x).__name__ for x in labels})
    raise TypeError(
        "graph labels must all be str or all int to be saved (the file holds no pickled "
        f"objects); got labels of type {', '.join(kinds)}"
    )


def to_arrays(graph: Graph) -> dict[str, npt.NDArray[Any]]:
    """``num_nodes``, the edges, ``directed``, and the coordinates and labels if any."""
    sources, targets, weights = graph.edges
    out: dict[str, npt.NDArray[Any]] = {
        "num_nodes": np.array(graph.num_nodes, dtype=np.int64),
        "sources": sources.astype(np.int64),
        "targets": targets.astype(np.int64),
        "weights": weights.astype(np.float64),
        "directed": np.array(bool(graph.directed)),
    }
    if graph.coords is not None:
        out["coords"] = np.array(graph.coords, dtype=np.float64)
    labels = _label_array(graph.labels, graph.num_nodes)
    if labels is not None:
        out["labels"] = labels
    return out


def from_arrays(cls: type[Graph], arrays: Mapping[str, npt.NDArray[Any]]) -> Graph:
    """The graph :func:`to_arrays` wrote, its edges checked again."""
    a = SavedArrays(arrays, "graph")
    given = arrays.get("labels")
    kind = "int" if given is not None and given.dtype.kind in "iu" else "str"
    labels = a.take("labels", kind, 1, optional=True)
    return cls(
        int(a.take("num_nodes", "int", 0)), a.take("sources", "int", 1),
        a.take("targets", "int", 1), a.take("weights", "float", 1),
        directed=bool(a.take("directed", "bool", 0)),
        coords=a.take("coords", "float", 2, optional=True),
        labels=None if labels is None else labels.tolist(),
    )  # fmt: skip


class GraphReplan:
    """A graph as D* Lite sees it (:class:`pathcraft.replan.ReplanSpace`): vertices
    are node indices, successors its CSR; an edited edge touches its tail (both ends
    when undirected).

    D* Lite repairs need positive costs (a cycle of zero-weight edges can hold up a
    distance that is no longer true), so while any edge weighs 0 (or less than 1e-12
    of the finite weights' sum, which rounding can lose) every change starts the
    search again.
    """

    __slots__ = ("edge_nodes", "points", "world")

    def __init__(self, graph: Graph, points: npt.NDArray[np.float64] | None = None) -> None:
        self.world = graph
        sources, targets, _ = graph.edges
        self.edge_nodes = np.stack((sources, targets), axis=1)
        self.points = points  # a waypoint graph's: nodes given as their positions too

    def vertex(self, node: Any, name: str) -> int:
        if self.points is not None and not isinstance(node, int | np.integer):
            xy = check_position(name, node, self.points.shape[1])
            found = np.flatnonzero((self.points == xy).all(axis=1))
            if not found.size:
                raise ValueError(
                    f"{name} {tuple(xy.tolist())} is not a waypoint: the replanner plans "
                    "between waypoints (find_path joins any position to them)"
                )
            return int(found[0])
        return self.world.index(node, name=name)

    def node(self, vertex: int) -> Hashable:
        return self.world.label(vertex)

    def planner(self, start: int, goal: int) -> _kernel.Planner:
        graph = self.world
        offsets, heads, weights = graph.csr
        return _kernel.graph_planner(
            offsets, heads, weights, graph.coords, start, goal, self.scale()
        )

    def scale(self) -> float:
        graph = self.world
        return graph.heuristic_scale if graph.coords is not None else 0.0

    def _zero_weights(self) -> bool:
        weights = self.world.csr[2]
        finite = weights[np.isfinite(weights)]
        return finite.size > 0 and bool(finite.min() <= 1e-12 * finite.sum())

    def changed(self, since: int) -> tuple[int, npt.NDArray[np.intp] | None]:
        edges = self.world.changes_since(since)
        if self._zero_weights():
            return int(edges.shape[0]), None
        ends = self.edge_nodes[edges]
        vertices = sorted_unique(ends if not self.world.directed else ends[:, 0])
        return int(edges.shape[0]), vertices

    def path(self, vertices: npt.NDArray[np.intp] | None) -> list[Hashable]:
        if vertices is None:
            return []
        return [self.world.label(int(v)) for v in vertices]

    def open(self, start: int, goal: int) -> bool:
        return True
