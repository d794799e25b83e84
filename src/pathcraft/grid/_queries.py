"""The queries of a :class:`~pathcraft.grid.Grid` behind its methods: caller's cells
checked and turned into flat indices, the search run through :mod:`pathcraft.grid._run`,
and the distance fields. Each function takes the grid and options already checked by
the method the caller called (:meth:`~pathcraft.grid.Grid.find_path`,
:meth:`~pathcraft.grid.Grid.start_search`, :meth:`~pathcraft.grid.Grid.distance_field`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import grid_search as _kernel
from pathcraft._core import theta as _theta_kernel
from pathcraft._core.quick import Plan
from pathcraft._fields import grid_parents, settled
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.grid._run import (
    ALGORITHMS,
    DIAGONAL_RULES,
    search_settings,
    sliced_search,
    solve,
    workspace,
)
from pathcraft.grid._sizes import unit_cells, unit_grid
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["distance_field", "field", "find_path", "smooth", "start_search"]


def find_path(
    grid: Grid, opts: SearchOptions, start: Any, goal: Any, t0: float, plan: Plan | None = None
) -> PathResult:
    """:meth:`Grid.find_path <pathcraft.grid.Grid.find_path>` with checked options
    (``size``: the search runs on :meth:`Grid.for_size <pathcraft.grid.Grid.for_size>`;
    ``plan``: the grid's plan for them, which answers once the cells are checked)."""
    world = unit_grid(grid, opts)
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None:
        settings = entry.settings(world, opts)
        start_cell = int(unit_cells(grid, world, "start", start, many=False)[0])
        goal_cell = int(unit_cells(grid, world, "goal", goal, many=False)[0])
        if plan is not None:
            return plan.find_flat(start_cell, goal_cell, t0)
        return entry.solve(world, start_cell, goal_cell, settings, t0)
    many = opts.algorithm == "dijkstra"
    sources = unit_cells(grid, world, "start", start, many=many)
    if goal is None and many:
        return _settle(world, sources, opts, t0)
    goals = unit_cells(grid, world, "goal", goal, many=many)
    return solve(world, sources, goals, search_settings(world, opts), t0)


def start_search(grid: Grid, opts: SearchOptions, start: Any, goal: Any) -> CompiledSearch:
    """:meth:`Grid.start_search <pathcraft.grid.Grid.start_search>` with checked
    options."""
    world = unit_grid(grid, opts)
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None:
        entry.settings(world, opts)  # refuses a grid it cannot search, before the cells
    many = opts.algorithm == "dijkstra"
    sources = unit_cells(grid, world, "start", start, many=many)
    goals = unit_cells(grid, world, "goal", goal, many=many)
    return sliced_search(world, sources, goals, opts)


def field(grid: Grid, flat: npt.NDArray[np.intp], max_cost: Any) -> npt.NDArray[np.float64]:
    """The distance field from checked flat sources (``max_cost`` checked here)."""
    limit = SearchOptions.check("Grid", "dijkstra", max_cost=max_cost).max_cost
    out = np.empty(grid.shape)
    _kernel.field(
        grid.padded, workspace(grid.padded.size), flat, out,
        diagonal=DIAGONAL_RULES[grid.diagonal],
        max_cost=math.inf if limit is None else float(limit),
    )  # fmt: skip
    return out


def distance_field(
    grid: Grid, sources: Any, parents: bool, max_cost: Any, size: Any = 1
) -> npt.NDArray[np.float64] | tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """:meth:`Grid.distance_field <pathcraft.grid.Grid.distance_field>` (``parents``
    checked; ``size`` checked here, the field then that of :meth:`Grid.for_size
    <pathcraft.grid.Grid.for_size>`)."""
    world = grid.for_size(size)
    flat = unit_cells(grid, world, "sources", sources, many=True)
    grid = world
    costs = field(grid, flat, max_cost)
    if not parents:
        return costs
    index = grid_parents(grid.padded, costs, grid.diagonal)
    cols = grid.shape[1]
    tree = np.full((*grid.shape, 2), -1, dtype=np.intp)
    has = index >= 0
    tree.reshape(-1, 2)[has] = np.stack(divmod(index[has], cols), axis=1)
    return costs, tree


def _settle(
    grid: Grid, sources: npt.NDArray[np.intp], opts: SearchOptions, t0: float
) -> PathResult:
    """A goal-less Dijkstra: every reachable cell's cost and the tree, as mappings."""
    opts.refuse_beyond(("max_cost", "size"), "goal=None")
    costs = field(grid, sources, opts.max_cost).ravel()
    rows, cols = grid.shape
    tree = grid_parents(grid.padded, costs.reshape(rows, cols), grid.diagonal)

    def index(cell: Any) -> int | None:
        if not (isinstance(cell, tuple) and len(cell) == 2):
            return None
        r, c = cell
        if not (0 <= r < rows and 0 <= c < cols):
            return None
        return int(r) * cols + int(c)

    def key(i: int) -> tuple[int, int]:
        return divmod(i, cols)

    return settled(costs, tree, index, key, np.empty((0, 2), dtype=np.intp), t0)


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
