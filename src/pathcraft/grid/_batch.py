"""Batch queries on a grid: the chunk solvers :func:`pathcraft._batch.run_batch` runs.

:meth:`Grid.find_paths <pathcraft.grid.Grid.find_paths>`, :meth:`Grid.path_costs
<pathcraft.grid.Grid.path_costs>` and :meth:`Grid.distance_fields
<pathcraft.grid.Grid.distance_fields>` check their queries, turn cells into flat
indices and hand the runner one of the solvers here: module-level functions, so that
process pools and Dask workers can unpickle them. Costs-only batches run one compiled
loop per chunk.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._options import SearchOptions
from pathcraft.grid._run import (
    DIAGONAL_RULES,
    jps_settings,
    search_settings,
    solve,
    solve_jps,
    workspace,
)
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid import Grid

__all__ = ["field_settings", "solve_costs", "solve_fields", "solve_paths"]

Costs = npt.NDArray[np.float64]


def solve_paths(
    grid: Grid, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> list[PathResult]:
    """The results of a chunk of ``(start, goal)`` flat-cell pairs."""
    if opts.algorithm == "jps":
        settings = jps_settings(grid, opts)
        return [solve_jps(grid, s, g, settings, time.perf_counter()) for s, g in tasks]
    settings = search_settings(grid, opts)
    return [
        solve(grid, np.array([s]), np.array([g]), settings, time.perf_counter()) for s, g in tasks
    ]


def solve_costs(grid: Grid, tasks: Sequence[tuple[int, int]], opts: SearchOptions) -> Costs:
    """The costs of a chunk of searches (``inf`` where the goal was not reached), from
    one compiled loop over them all."""
    kernel: Any
    if opts.algorithm == "jps":
        settings = jps_settings(grid, opts)
        kernel = _jps_kernel.jps_costs
    else:
        settings = search_settings(grid, opts)
        kernel = _kernel.search_costs
    pairs = np.array(tasks, dtype=np.intp).reshape(-1, 2)
    costs = np.empty(len(pairs))
    lines = settings.pop("lines", None)
    extra = () if lines is None else (lines,)
    padded = grid.padded
    kernel(
        padded,
        workspace(padded.size),
        np.ascontiguousarray(pairs[:, 0]),
        np.ascontiguousarray(pairs[:, 1]),
        *extra,
        costs,
        **settings,
    )
    return costs


def field_settings(grid: Grid, max_cost: float | None) -> dict[str, Any]:
    """The distance-field kernel's keyword arguments (``max_cost`` checked)."""
    return {
        "diagonal": DIAGONAL_RULES[grid.diagonal],
        "max_cost": math.inf if max_cost is None else float(max_cost),
    }


def solve_fields(
    grid: Grid, tasks: Sequence[npt.NDArray[np.intp]], settings: dict[str, Any]
) -> Costs:
    """The distance fields of a chunk of source sets (flat cells)."""
    fields = np.empty((len(tasks), *grid.shape))
    padded = grid.padded
    ws = workspace(padded.size)
    for i, sources in enumerate(tasks):
        _kernel.field(padded, ws, sources, fields[i], **settings)
    return fields
