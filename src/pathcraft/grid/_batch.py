"""What is the grid's own in its batches.

:meth:`Grid.find_paths <pathcraft.grid.Grid.find_paths>` and :meth:`Grid.path_costs
<pathcraft.grid.Grid.path_costs>` are the one cell-world glue's
(:func:`pathcraft._cellworld.batch`, over the grid's adapter
:class:`~pathcraft.grid._run.GridCells`); their cells are checked here
(``GridCells.pairs``: an ``(n, 2)`` array each, errors naming ``starts[i]``).
:meth:`Grid.distance_fields <pathcraft.grid.Grid.distance_fields>` runs
:func:`distance_fields` on the shared batch runner (:func:`pathcraft._batch.run_batch`;
its chunk solver :func:`solve_fields` is module-level, so that process pools and Dask
workers can unpickle it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchSettings, run_batch
from pathcraft._core import grid_search as _kernel
from pathcraft._options import SearchOptions
from pathcraft.grid._run import DIAGONAL_RULES, workspace
from pathcraft.grid._sizes import batch_cells, unit_cells

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["distance_fields", "field_settings", "solve_fields"]

Costs = npt.NDArray[np.float64]


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
        tasks = [np.array([i]) for i in batch_cells(grid, world, "sources", sources).tolist()]
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


def _is_cell_array(value: Any) -> bool:
    """Whether ``value`` is an ``(n, 2)`` integer array (or nested lists of one)."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind in "iu"

