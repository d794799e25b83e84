"""What a :class:`~pathcraft.grid.Grid` answers besides the query contract (which the
one cell-world glue answers, :mod:`pathcraft._cellworld`): string pulling
(:meth:`~pathcraft.grid.Grid.smooth`) and the plain distance field of checked flat
sources that flow fields repair from (:mod:`pathcraft.agents.flow`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import theta as _theta_kernel
from pathcraft._options import SearchOptions
from pathcraft.grid._run import DIAGONAL_RULES, GridCells
from pathcraft.grid._sizes import unit_cells

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["field", "smooth"]


def field(grid: Grid, flat: npt.NDArray[np.intp], max_cost: Any) -> npt.NDArray[np.float64]:
    """The distance field from checked flat sources (``max_cost`` checked here)."""
    limit = SearchOptions.check("Grid", "dijkstra", max_cost=max_cost).max_cost
    return GridCells(grid).field(flat, math.inf if limit is None else float(limit), False)[0]


def smooth(grid: Grid, path: Any) -> npt.NDArray[np.intp]:
    """:meth:`Grid.smooth <pathcraft.grid.Grid.smooth>`: the cells checked (inside,
    not walls), every step checked clear, then string-pulled in the compiled core."""
    if np.shape(path) == (0, 2) or np.shape(path) == (0,):
        return np.empty((0, 2), dtype=np.intp)
    flat = unit_cells(grid, grid, "path", path, many=True)
    kept, bad = _theta_kernel.smooth_path(grid.padded, flat, DIAGONAL_RULES[grid.diagonal])
    if bad >= 0:
        cells = np.asarray(path).reshape(-1, 2)
        a, b = tuple(cells[bad].tolist()), tuple(cells[bad + 1].tolist())
        raise ValueError(
            f"path: the step path[{bad}] -> path[{bad + 1}], {a} -> {b}, is not clear "
            f"(a wall or a corner the rule diagonal={grid.diagonal!r} forbids lies between)"
        )
    return kept
