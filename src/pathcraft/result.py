"""The one result type every search returns: :class:`PathResult`."""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._aliases import documented
from pathcraft._display import summary_html
from pathcraft._kernels import FOUND, MAX_COST, MAX_EXPANSIONS, UNREACHABLE

__all__ = ["Answer", "Explored", "PathResult", "Reason", "build_result"]

#: A path or a list of nodes: a list for generic and graph searches, an ``(n, 2)`` int
#: array of cells for grids, an ``(n, 2)`` or ``(n, 3)`` float array of positions for
#: continuous space (waypoint graphs).
Nodes = Sequence[Any] | npt.NDArray[np.intp] | npt.NDArray[np.float64]

#: The reason of each outcome code the compiled kernels report (the codes of
#: :mod:`pathcraft._kernels`; ``FOUND`` has none).
KERNEL_REASONS: dict[int, str] = {
    UNREACHABLE: "unreachable",
    MAX_EXPANSIONS: "max_expansions",
    MAX_COST: "max_cost",
}

Reason = Literal["unreachable", "max_expansions", "max_cost", "max_depth"]
if not TYPE_CHECKING:
    Reason = documented(
        Reason,
        'Why a search ended without reaching its goal. ``"unreachable"``: every node '
        'reachable from the start was searched; ``"max_expansions"`` / ``"max_cost"`` / '
        '``"max_depth"``: it gave up at that limit.',
    )


@dataclass(frozen=True, slots=True)
class Explored:
    """What a recorded search expanded, in expansion order (``record=True``).

    Attributes
    ----------
    nodes : sequence
        The expanded nodes, first expanded first. Generic searches give a list of
        nodes; grid searches give an ``(n, 2)`` array of ``(row, col)`` cells.
    g : sequence of float
        ``g[i]`` is the cost from the start of ``nodes[i]`` when it was expanded.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii("....", diagonal="never")
    >>> explored = grid.astar((0, 0), (0, 2), record=True).explored
    >>> explored.nodes.tolist(), explored.g.tolist(), len(explored)
    ([[0, 0], [0, 1], [0, 2]], [0.0, 1.0, 2.0], 3)
    """

    nodes: Nodes
    g: Sequence[float] | npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.g)


@dataclass(frozen=True, slots=True)
class PathResult:
    """The outcome of a search: a path, or the reason there is none.

    A result is truthy exactly when the goal was reached (``found``). "No path" is an
    answer, never an exception: ``reason`` then says whether the goal is unreachable or
    the search gave up at a limit.

    Attributes
    ----------
    path : sequence
        The nodes from start to goal, both included (``[start]`` when the start is the
        goal). Empty when nothing was found, unless the search was asked for a
        ``partial`` path, which then leads to the explored node closest to the goal.
        Generic and graph searches give a list of nodes; grid searches an ``(n, 2)`` int
        array; waypoint graphs an ``(n, 2)`` or ``(n, 3)`` float array of positions.
    cost : float
        The sum of the step costs along ``path``; ``inf`` when ``path`` is empty.
    found : bool
        Whether the goal was reached (for a Dijkstra search without a goal: whether
        every reachable node was settled).
    reason : str or None
        ``None`` when found; otherwise ``"unreachable"`` (every node reachable was
        searched) or the limit that stopped the search: ``"max_expansions"``,
        ``"max_cost"`` or ``"max_depth"`` (breadth-first search).
    expanded : int
        How many nodes were expanded (popped from the open list and searched).
    generated : int
        How many nodes were pushed on the open list, the start included.
    elapsed : float
        Wall-clock seconds the search took.
    explored : Explored or None
        The expansion order and the g-cost of each expanded node, when the search was
        called with ``record=True``; ``None`` otherwise.
    distances : mapping or None
        For a Dijkstra search without a goal: the cost from the start of every settled
        node. ``None`` otherwise.
    jump_points : sequence or None
        For a jump point search: the jump points on the path, from start to goal (the
        cells where it turns or leaves a wall behind), an ``(n, 2)`` array; between
        consecutive ones the path runs diagonally first, then straight. ``None`` for
        other searches.

    Examples
    --------
    >>> from pathcraft import PathResult
    >>> result = PathResult(path=["a", "b"], cost=2.0, found=True)
    >>> bool(result), result.cost
    (True, 2.0)
    >>> nothing = PathResult.not_found("unreachable", expanded=7)
    >>> bool(nothing), nothing.reason, nothing.cost
    (False, 'unreachable', inf)
    """

    path: Nodes
    cost: float
    found: bool
    reason: Reason | None = None
    expanded: int = 0
    generated: int = 0
    elapsed: float = 0.0
    explored: Explored | None = None
    distances: Mapping[Hashable, float] | None = None
    jump_points: Nodes | None = None
    _parents: Mapping[Hashable, Hashable] | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.found

    def __len__(self) -> int:
        """The number of nodes on the path."""
        return len(self.path)

    def __repr__(self) -> str:
        """A one-line summary: found, cost, path length, expansions, reason (never the
        path itself: print ``result.path`` for that)."""
        head = f"found, cost={self.cost:.6g}" if self.found else f"not found ({self.reason})"
        partial = ", partial" if not self.found and len(self.path) else ""
        return (
            f"PathResult({head}, {len(self.path)} nodes{partial}, "
            f"{self.expanded} expanded, {self.elapsed * 1e3:.3g} ms)"
        )

    def _repr_html_(self) -> str:
        """The notebook display: the summary and, for paths of ``(row, col)`` cells or
        ``(x, y)`` positions, a small drawing of the path (pure SVG, no extra needed;
        :meth:`plot` draws it on its world with matplotlib)."""
        return summary_html(self)

    def plot(self, world: Any, ax: Any = None, **kwargs: Any) -> Any:
        """Draw this result on the world it searched: ``world.plot(self, ax, **kwargs)``
        (the plotting capability of :mod:`pathcraft.world`; needs the ``viz`` extra).

        Parameters
        ----------
        world : world
            The world that was searched: a grid draws with
            :func:`pathcraft.viz.plot_search` (the hexagonal and move grids as grids of
            cells), a graph with coordinates or a waypoint graph with
            :func:`pathcraft.viz.plot_graph`, a navigation mesh with
            :func:`pathcraft.viz.plot_mesh`.
        ax : matplotlib Axes or None
            Where to draw; a new figure when None.
        **kwargs
            Passed on to the drawing function.

        Returns
        -------
        matplotlib Axes

        Raises
        ------
        ImportError
            Without the ``viz`` extra (the message says how to install it).
        CapabilityError
            A world without pictures (a voxel grid, a level), naming it.
        TypeError
            ``world`` is not a world.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("....")
        >>> grid.astar((0, 0), (0, 3), record=True).plot(grid).get_title()
        'cost 3.00, 4 expanded'
        """
        draw = getattr(world, "plot", None)
        if not callable(draw):
            raise TypeError(
                f"world must be the world that was searched; got {type(world).__name__}"
            )
        return draw(self, ax, **kwargs)

    @classmethod
    def not_found(cls, reason: Reason, **metrics: Any) -> PathResult:
        """An empty result for a search that ended without a path, with its reason.

        ``metrics`` are the other fields (``expanded``, ``generated``, ``elapsed``, ...).

        Examples
        --------
        >>> from pathcraft import PathResult
        >>> result = PathResult.not_found("max_expansions", expanded=100)
        >>> bool(result), result.path, result.cost, result.reason, result.expanded
        (False, [], inf, 'max_expansions', 100)
        """
        return cls(path=[], cost=float("inf"), found=False, reason=reason, **metrics)

    def path_to(self, node: Hashable) -> list[Any]:
        """The path from the start to ``node`` in a Dijkstra search without a goal.

        Parameters
        ----------
        node : hashable
            A node the search settled (a key of :attr:`distances`).

        Returns
        -------
        list
            The nodes from the start to ``node``, both included.

        Raises
        ------
        ValueError
            If the search kept no shortest-path tree (it had a goal) or did not settle
            ``node``.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> g = Graph(4, [0, 1, 0], [1, 2, 3], [1.0, 1.0, 1.0])
        >>> tree = g.dijkstra(0, None)
        >>> tree.path_to(2), tree.distances[2]
        ([0, 1, 2], 2.0)
        >>> g.dijkstra(0, 2).path_to(1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: path_to needs the shortest-path tree of a Dijkstra search ...
        """
        if self._parents is None or self.distances is None:
            raise ValueError(
                "path_to needs the shortest-path tree of a Dijkstra search run with "
                "goal=None; this result has none"
            )
        if node not in self.distances:
            raise ValueError(f"node {node!r} was not settled by this search")
        path = [node]
        parents = self._parents
        while path[-1] in parents:
            path.append(parents[path[-1]])
        path.reverse()
        return path


def build_result(
    outcome: int | str | None,
    path: Nodes,
    cost: float,
    *,
    expanded: int = 0,
    generated: int = 0,
    t0: float | None = None,
    elapsed: float | None = None,
    explored: tuple[Nodes, Sequence[float] | npt.NDArray[np.float64]] | None = None,
    distances: Mapping[Hashable, float] | None = None,
    parents: Mapping[Hashable, Hashable] | None = None,
    jump_points: Nodes | None = None,
    kind: type[PathResult] | None = None,
    fields: Mapping[str, Any] | None = None,
) -> PathResult:
    """The one way every search, on every world, turns its answer into a result.

    Parameters
    ----------
    outcome : int, str or None
        How the search ended: a kernel's outcome code (0 found, else a key of
        :data:`KERNEL_REASONS`), a reason string (:data:`Reason`), or None (found).
    path : sequence
        The path in the world's own terms (node labels, cells, positions), already
        converted; empty when nothing was found and no partial path was asked for.
    cost : float
        The cost of ``path``; replaced by ``inf`` when the path is empty and the goal
        was not reached.
    expanded, generated : int
        The search's counters.
    t0, elapsed : float or None
        ``time.perf_counter()`` when the query began (``elapsed`` is then measured
        here), or the elapsed seconds themselves; neither: 0.
    explored : (nodes, g) or None
        What a recorded search expanded, converted to the world's terms.
    distances, parents, jump_points
        The extras of a goal-less Dijkstra search and of jump point search.
    kind, fields
        A subclass of :class:`PathResult` to build (a GOAP plan) and the values of the
        fields it adds.

    Returns
    -------
    PathResult
        Of type ``kind`` when given.

    Examples
    --------
    >>> from pathcraft.result import build_result
    >>> r = build_result(0, [1, 2], 3.0, expanded=2)
    >>> bool(r), r.path, r.cost, r.expanded
    (True, [1, 2], 3.0, 2)
    >>> r = build_result(2, [], 0.0)
    >>> bool(r), r.reason, r.cost
    (False, 'max_expansions', inf)
    """
    if outcome is None or isinstance(outcome, str):
        reason = outcome
    else:
        reason = None if int(outcome) == FOUND else KERNEL_REASONS[int(outcome)]
    found = reason is None
    if not found and len(path) == 0:
        cost = math.inf
    if elapsed is None:
        elapsed = 0.0 if t0 is None else time.perf_counter() - t0
    return (kind or PathResult)(
        path=path,
        cost=float(cost),
        found=found,
        reason=reason,  # type: ignore[arg-type]
        expanded=int(expanded),
        generated=int(generated),
        elapsed=float(elapsed),
        explored=None if explored is None else Explored(explored[0], explored[1]),
        distances=distances,
        jump_points=jump_points,
        _parents=parents,
        **(fields or {}),
    )


class Answer(NamedTuple):
    """A compiled kernel's answer, read from its tuple in one place (:meth:`read`) and
    turned into a result by one builder (:meth:`result`).

    Attributes
    ----------
    status : int
        The outcome code (0 found, else a key of :data:`KERNEL_REASONS`).
    path : array
        The kernel's path (flat places, node indices, cells or positions).
    cost : float
        Its cost.
    expanded, generated : int
        The search's counters.
    nodes, g : array or None
        What a recorded search expanded, and the costs it had then.
    extra : array or None
        A kernel's third item, when it has one: the jump points of jump point
        search, the edges of a graph search's path.

    Examples
    --------
    >>> from pathcraft.result import Answer
    >>> answer = Answer.read((1, [], float("inf"), 7, 9, None, None))
    >>> answer.expanded, bool(answer.result(None)), answer.result(None).reason
    (7, False, 'unreachable')
    """

    status: int
    path: Any
    cost: float
    expanded: int
    generated: int
    nodes: Any = None
    g: Any = None
    extra: Any = None

    @classmethod
    def read(cls, answer: Sequence[Any]) -> Answer:
        """The answer tuple of any kernel: ``(status, path, cost, expanded,
        generated)`` (Polyanya), the same with the recording ``(nodes, g)`` (the cell
        kernels, Theta*), or with an ``extra`` third (jump points, path edges).

        Examples
        --------
        >>> from pathcraft.result import Answer
        >>> Answer.read((0, [4, 5], [9], 1.0, 2, 3, None, None)).extra
        [9]
        """
        if len(answer) == 8:
            status, path, extra, cost, expanded, generated, nodes, g = answer
            return cls(status, path, cost, expanded, generated, nodes, g, extra)
        return cls(*answer)

    def result(
        self,
        t0: float | None,
        path: Nodes | None = None,
        nodes: Nodes | None = None,
        jump_points: Nodes | None = None,
    ) -> PathResult:
        """:func:`build_result` of this answer; ``path`` and ``nodes`` replace the
        kernel's path and recorded nodes when given (converted to the world's terms).

        Examples
        --------
        >>> from pathcraft.result import Answer
        >>> r = Answer(0, [4, 5], 1.0, 2, 3).result(None, path=["a", "b"])
        >>> r.path, r.cost, r.expanded
        (['a', 'b'], 1.0, 2)
        """
        explored = None
        if self.nodes is not None and self.g is not None:
            explored = (self.nodes if nodes is None else nodes, self.g)
        return build_result(
            self.status, self.path if path is None else path, self.cost,
            expanded=self.expanded, generated=self.generated, t0=t0, explored=explored,
            jump_points=jump_points,
        )  # fmt: skip
