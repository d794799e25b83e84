"""Batch queries on a graph: the chunk solvers :func:`pathcraft._batch.run_batch` runs.

:meth:`Graph.find_paths <pathcraft.graph.Graph.find_paths>` and :meth:`Graph.path_costs
<pathcraft.graph.Graph.path_costs>` check every node up front, then hand the runner one
of these module-level solvers (process pools and Dask workers unpickle them by name).
Each query is :meth:`Graph.find_path <pathcraft.graph.Graph.find_path>` with the same
options; the compiled search releases the GIL, so queries on threads overlap.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.graph import Graph

__all__ = ["solve_costs", "solve_paths"]

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
