"""Batch queries on a graph: the chunk solvers :func:`pathcraft._batch.run_batch` runs.

:meth:`Graph.find_paths <pathcraft.graph.Graph.find_paths>` and :meth:`Graph.path_costs
<pathcraft.graph.Graph.path_costs>` go through :func:`pathcraft._batch.query_batch`
with :data:`DOOR`: the label pairs checked up front, then these module-level solvers
(process pools and Dask workers unpickle them by name). Each query is
:meth:`Graph.find_path <pathcraft.graph.Graph.find_path>` with the same options; the
compiled search releases the GIL, so queries on threads overlap.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchDoor
from pathcraft._options import SearchOptions
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.graph._graph import Graph

__all__ = ["DOOR", "label_pairs", "solve_costs", "solve_paths"]


def solve_paths(
    graph: Graph, tasks: Sequence[tuple[Hashable, Hashable]], opts: SearchOptions
) -> list[PathResult]:
    """The results of a chunk of ``(start, goal)`` label pairs."""
    options = opts.given_options()
    return [graph.find_path(s, g, algorithm=opts.algorithm, **options) for s, g in tasks]  # type: ignore[arg-type]


def solve_costs(
    graph: Graph, tasks: Sequence[tuple[Hashable, Hashable]], opts: SearchOptions
) -> npt.NDArray[np.float64]:
    """The costs of a chunk of searches (``inf`` where the goal was not reached)."""
    results = solve_paths(graph, tasks, opts)
    return np.array([r.cost if r.found else np.inf for r in results], dtype=np.float64)


def label_pairs(
    graph: Graph, starts: Any, goals: Any, opts: SearchOptions
) -> list[tuple[Hashable, Hashable]]:
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


#: What a graph brings to :func:`pathcraft._batch.query_batch`.
DOOR = BatchDoor("Graph", label_pairs, solve_paths, solve_costs)
