"""Batch queries on a graph: the chunk solvers :func:`pathcraft._batch.run_batch` runs.

:meth:`Graph.find_paths <pathcraft.graph.Graph.find_paths>` and :meth:`Graph.path_costs
<pathcraft.graph.Graph.path_costs>` check every node up front, then hand the runner one
of these module-level solvers (process pools and Dask workers unpickle them by name).
Each query is :meth:`Graph.find_path <pathcraft.graph.Graph.find_path>` with the same
options; the compiled search releases the GIL, so queries on threads overlap.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import check_batch, refuse_cost_flags, run_batch
from pathcraft._options import SearchOptions
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._options import Options
    from pathcraft.graph._graph import Graph
    from pathcraft.graph._queries import GraphAlgorithm

__all__ = ["find_paths", "path_costs", "solve_costs", "solve_paths"]

#: A chunk's payload: ``(algorithm, options)`` as the caller gave them (checked).
Payload = tuple[str, dict[str, Any]]


def solve_paths(
    graph: Graph, tasks: Sequence[tuple[Hashable, Hashable]], payload: Payload
) -> list[PathResult]:
    """The results of a chunk of ``(start, goal)`` label pairs."""
    algorithm, options = payload
    return [graph.find_path(s, g, algorithm=algorithm, **options) for s, g in tasks]  # type: ignore[arg-type]


def solve_costs(
    graph: Graph, tasks: Sequence[tuple[Hashable, Hashable]], payload: Payload
) -> npt.NDArray[np.float64]:
    """The costs of a chunk of searches (``inf`` where the goal was not reached)."""
    results = solve_paths(graph, tasks, payload)
    return np.array([r.cost if r.found else np.inf for r in results], dtype=np.float64)


# --------------------------------------------------------------------------- front doors
# Methods of Graph (``Graph.find_paths = find_paths``): the graph comes first.


def find_paths(
    graph: Graph,
    starts: Sequence[Hashable],
    goals: Sequence[Hashable],
    *,
    algorithm: GraphAlgorithm = "astar",
    workers: int | None = None,
    executor: Any = None,
    chunk_size: int | None = None,
    progress: bool = False,
    **options: Unpack[Options],
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
    batch = check_batch(workers, executor, chunk_size, progress)
    payload, tasks = _batch_queries(graph, starts, goals, algorithm, options)
    return run_batch(graph, solve_paths, tasks, payload, batch, desc=algorithm)  # type: ignore[return-value]


def path_costs(
    graph: Graph,
    starts: Sequence[Hashable],
    goals: Sequence[Hashable],
    *,
    algorithm: GraphAlgorithm = "astar",
    workers: int | None = None,
    executor: Any = None,
    chunk_size: int | None = None,
    progress: bool = False,
    **options: Unpack[Options],
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
    batch = check_batch(workers, executor, chunk_size, progress)
    refuse_cost_flags("Graph", dict(options))
    payload, tasks = _batch_queries(graph, starts, goals, algorithm, options)
    costs = run_batch(graph, solve_costs, tasks, payload, batch, desc=algorithm, row_shape=())
    return costs  # type: ignore[return-value]


def _batch_queries(
    graph: Graph, starts: Any, goals: Any, algorithm: Any, options: Any
) -> tuple[tuple[str, dict[str, Any]], list[tuple[Hashable, Hashable]]]:
    """The checked ``(algorithm, options)`` payload and label pairs of a batch."""
    SearchOptions.check("Graph", algorithm, **options)
    return (algorithm, dict(options)), _label_pairs(graph, starts, goals)


def _label_pairs(graph: Graph, starts: Any, goals: Any) -> list[tuple[Hashable, Hashable]]:
    """Checked ``(start, goal)`` label pairs; errors name ``starts[i]``/``goals[i]``."""
    lists = []
    for name, value in (("starts", starts), ("goals", goals)):
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a sequence of node labels; got {value!r}")
        items = list(value)
        for i, node in enumerate(items):
            graph.index(node, name=f"{name}[{i}]")
        lists.append(items)
    if len(lists[0]) != len(lists[1]):
        raise ValueError(
            f"starts and goals must have the same length; got {len(lists[0])} and {len(lists[1])}"
        )
    return list(zip(lists[0], lists[1], strict=True))
