"""Batch queries on a grid: the chunk solvers :func:`pathcraft._batch.run_batch` runs.

:meth:`Grid.find_paths <pathcraft.grid.Grid.find_paths>` and :meth:`Grid.path_costs
<pathcraft.grid.Grid.path_costs>` go through :func:`pathcraft._batch.query_batch` with
:data:`DOOR` (cells checked and turned into flat indices by :func:`cell_pairs`);
:meth:`Grid.distance_fields <pathcraft.grid.Grid.distance_fields>` through
:func:`distance_fields`. The runner gets one of the solvers here: module-level
functions, so that process pools and Dask workers can unpickle them. Costs-only
batches run one compiled loop per chunk.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchDoor, BatchSettings, run_batch
from pathcraft._core import grid_search as _kernel
from pathcraft._options import SearchOptions
from pathcraft.grid._run import (
    ALGORITHMS,
    DIAGONAL_RULES,
    make_plan,
    search_settings,
    solve,
    workspace,
)
from pathcraft.grid._sizes import unit_cells, unit_grid
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = [
    "DOOR",
    "cell_pairs",
    "distance_fields",
    "field_settings",
    "solve_costs",
    "solve_fields",
    "solve_paths",
]

Costs = npt.NDArray[np.float64]


def solve_paths(
    grid: Grid, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> list[PathResult]:
    """The results of a chunk of ``(start, goal)`` flat-cell pairs."""
    grid = unit_grid(grid, opts)
    plan = make_plan(grid, opts)
    if plan is not None:  # the lean way of a single query, same answers
        return [plan.find_flat(s, g, time.perf_counter()) for s, g in tasks]
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None:
        settings = entry.settings(grid, opts)
        return [entry.solve(grid, s, g, settings, time.perf_counter()) for s, g in tasks]
    settings = search_settings(grid, opts)
    return [
        solve(grid, np.array([s]), np.array([g]), settings, time.perf_counter()) for s, g in tasks
    ]


def solve_costs(grid: Grid, tasks: Sequence[tuple[int, int]], opts: SearchOptions) -> Costs:
    """The costs of a chunk of searches (``inf`` where the goal was not reached), from
    one compiled loop over them all."""
    grid = unit_grid(grid, opts)
    entry = ALGORITHMS.get(opts.algorithm)
    plan = make_plan(grid, opts) if entry is not None else None
    if plan is not None and plan.offline:  # JPS+: the offline table answers
        return np.array([plan.cost_flat(s, g) for s, g in tasks], dtype=np.float64)
    pairs = np.array(tasks, dtype=np.intp).reshape(-1, 2)
    starts = np.ascontiguousarray(pairs[:, 0])
    goals = np.ascontiguousarray(pairs[:, 1])
    costs = np.empty(len(pairs))
    if entry is not None:
        entry.costs(grid, starts, goals, costs, entry.settings(grid, opts))
        return costs
    padded = grid.padded
    _kernel.search_costs(
        padded, workspace(padded.size), starts, goals, costs, **search_settings(grid, opts)
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


def distance_fields(
    grid: Grid, sources: Any, max_cost: Any, batch: BatchSettings, size: Any = 1
) -> npt.NDArray[np.float64]:
    """:meth:`Grid.distance_fields <pathcraft.grid.Grid.distance_fields>` with the
    batch arguments checked (``size`` checked here: the fields of :meth:`Grid.for_size
    <pathcraft.grid.Grid.for_size>`)."""
    limit = SearchOptions.check("Grid", "dijkstra", max_cost=max_cost).max_cost
    world = grid.for_size(size)
    tasks: list[npt.NDArray[np.intp]]
    if _is_cell_array(sources):
        tasks = [np.array([i]) for i in _batch_cells(grid, world, "sources", sources).tolist()]
    elif isinstance(sources, Sequence) and not isinstance(sources, str):
        tasks = [
            unit_cells(grid, world, f"sources[{i}]", item, many=True)
            for i, item in enumerate(sources)
        ]
    else:
        raise TypeError(
            "sources must be an (n, 2) array of cells or a sequence of cells or cell "
            f"arrays; got {type(sources).__name__}"
        )
    settings = field_settings(grid, limit)
    fields = run_batch(
        world, solve_fields, tasks, settings, batch, desc="field", row_shape=grid.shape
    )
    return fields  # type: ignore[return-value]


def _batch_cells(grid: Grid, world: Grid, name: str, value: Any) -> npt.NDArray[np.intp]:
    """Checked ``(n, 2)`` cells as flat padded indices (``n`` may be 0)."""
    arr = np.asarray(value)
    if arr.size == 0 and arr.ndim <= 2:
        return np.empty(0, dtype=np.intp)  # no queries: nothing to do
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must be an (n, 2) array of (row, col) cells; got shape {arr.shape}"
        )
    return unit_cells(grid, world, name, arr, many=True, indexed=True)


def cell_pairs(grid: Grid, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
    """Checked ``(start, goal)`` flat-cell pairs; errors name ``starts[i]``/``goals[i]``
    (a grid jump point search cannot run on is refused first)."""
    world = unit_grid(grid, opts)
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None:
        entry.settings(world, opts)
    flat_starts = _batch_cells(grid, world, "starts", starts)
    flat_goals = _batch_cells(grid, world, "goals", goals)
    if len(flat_starts) != len(flat_goals):
        raise ValueError(
            "starts and goals must have the same length; "
            f"got {len(flat_starts)} and {len(flat_goals)}"
        )
    return list(zip(flat_starts.tolist(), flat_goals.tolist(), strict=True))


def _is_cell_array(value: Any) -> bool:
    """Whether ``value`` is an ``(n, 2)`` integer array (or nested lists of one)."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind in "iu"


#: What a grid brings to :func:`pathcraft._batch.query_batch`.
DOOR = BatchDoor("Grid", cell_pairs, solve_paths, solve_costs)
