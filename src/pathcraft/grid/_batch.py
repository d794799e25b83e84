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

from pathcraft._batch import check_batch, refuse_cost_flags, run_batch
from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._options import SearchOptions
from pathcraft.grid._checks import cell_indices
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
    from typing_extensions import Unpack

    from pathcraft._options import Options
    from pathcraft.grid._grid import Grid, GridAlgorithm

__all__ = [
    "distance_fields",
    "field_settings",
    "find_paths",
    "path_costs",
    "solve_costs",
    "solve_fields",
    "solve_paths",
]

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


# --------------------------------------------------------------------------- front doors
# Methods of Grid (``Grid.find_paths = find_paths``): the grid comes first.


def find_paths(
    grid: Grid,
    starts: npt.ArrayLike,
    goals: npt.ArrayLike,
    *,
    algorithm: GridAlgorithm = "astar",
    workers: int | None = None,
    executor: Any = None,
    chunk_size: int | None = None,
    progress: bool = False,
    **options: Unpack[Options],
) -> list[PathResult]:
    """Many searches at once, in parallel: one :class:`~pathcraft.PathResult` per
    ``(start, goal)`` pair.

    Each answer is exactly what :meth:`find_path` gives for that pair with the
    same ``algorithm`` and options (with ``tie_break="random"``, every query uses
    the same ``seed``).

    Parameters
    ----------
    starts, goals : array_like of int, shape (n, 2)
        ``(row, col)`` cells: query ``i`` goes from ``starts[i]`` to ``goals[i]``.
    algorithm : {"astar", "dijkstra", "greedy", "jps"}
        As in :meth:`find_path`.
    workers : int or None
        Threads of the built-in pool (None: the CPU count; 1: run in the calling
        thread). Each thread searches with its own workspace, the GIL released.
    executor : concurrent.futures.Executor or distributed.Client, optional
        Solve the chunks there instead: a process pool, or a Dask cluster (a
        ``distributed.Client`` or its ``get_executor()``), to which the grid is
        scattered once per worker. Not together with ``workers``.
    chunk_size : int or None
        Queries per task (None: about four tasks per worker).
    progress : bool
        Show a progress bar (tqdm) as chunks finish.
    **options
        The options of :meth:`find_path` for ``algorithm``, the same for every query.

    Returns
    -------
    list of PathResult
        In the order of ``starts``.

    Raises
    ------
    ValueError
        ``starts`` or ``goals`` not ``(n, 2)``, of different lengths, or holding a
        cell outside the grid or on a wall (named by its index: ``goals[3]``); a
        bad option or batch argument.
    TypeError
        Cells that are not integers; a non-boolean ``progress``; an option the
        algorithm does not take (:class:`~pathcraft.UnsupportedOptionError`).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii('''
    ... .....
    ... .###.
    ... .....
    ... ''')
    >>> results = grid.find_paths([(0, 0), (2, 0)], [(2, 4), (2, 2)], workers=2)
    >>> [r.cost for r in results], [len(r.path) for r in results]
    ([6.0, 2.0], [7, 3])
    >>> grid.find_paths([(0, 0)], [(0, 4)], algorithm="jps")[0].cost
    4.0
    """
    batch = check_batch(workers, executor, chunk_size, progress)
    opts, tasks = _batch_queries(grid, starts, goals, algorithm, options)
    return run_batch(grid, solve_paths, tasks, opts, batch, desc=algorithm)  # type: ignore[return-value]


def path_costs(
    grid: Grid,
    starts: npt.ArrayLike,
    goals: npt.ArrayLike,
    *,
    algorithm: GridAlgorithm = "astar",
    workers: int | None = None,
    executor: Any = None,
    chunk_size: int | None = None,
    progress: bool = False,
    **options: Unpack[Options],
) -> npt.NDArray[np.float64]:
    """Only the costs of many searches, in parallel: a float array.

    Each cost is the ``cost`` of :meth:`find_path` for that pair (``inf`` where the
    goal is not reached); one compiled loop per chunk builds no results, so this
    is the fastest way to ask many queries. Arguments as in :meth:`find_paths`;
    ``partial`` and ``record`` are refused (they change nothing here).

    Returns
    -------
    ndarray of float64, shape (n,)
        In the order of ``starts``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> grid = Grid(np.ones((4, 50)))
    >>> grid.path_costs([(0, 0), (3, 0)], [(0, 49), (0, 3)], algorithm="jps").tolist()
    [49.0, 4.242640687119286]
    >>> grid.path_costs([(0, 0)], [(0, 49)], max_expansions=3).tolist()
    [inf]
    """
    batch = check_batch(workers, executor, chunk_size, progress)
    refuse_cost_flags("Grid", dict(options))
    opts, tasks = _batch_queries(grid, starts, goals, algorithm, options)
    costs = run_batch(grid, solve_costs, tasks, opts, batch, desc=algorithm, row_shape=())
    return costs  # type: ignore[return-value]


def distance_fields(
    grid: Grid,
    sources: npt.ArrayLike | Sequence[npt.ArrayLike],
    *,
    max_cost: float | None = None,
    workers: int | None = None,
    executor: Any = None,
    chunk_size: int | None = None,
    progress: bool = False,
) -> npt.NDArray[np.float64]:
    """Many distance fields at once, in parallel (see :meth:`distance_field`).

    Parameters
    ----------
    sources : array_like of int, shape (n, 2), or sequence of cells
        An ``(n, 2)`` array: one field per ``(row, col)`` cell. A sequence: one
        field per item, each a cell or a ``(k, 2)`` array of source cells.
    max_cost : float or None
        As in :meth:`distance_field`.
    workers, executor, chunk_size, progress
        As in :meth:`find_paths`.

    Returns
    -------
    ndarray of float64, shape (n, rows, cols)
        ``out[i]`` is ``distance_field(sources[i])``.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii("....", diagonal="never")
    >>> grid.distance_fields([(0, 0), (0, 3)]).tolist()
    [[[0.0, 1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0, 0.0]]]
    >>> grid.distance_fields([[(0, 0), (0, 3)]]).tolist()
    [[[0.0, 1.0, 1.0, 0.0]]]
    """
    batch = check_batch(workers, executor, chunk_size, progress)
    limit = SearchOptions.check("Grid", "dijkstra", max_cost=max_cost).max_cost
    tasks: list[npt.NDArray[np.intp]]
    if _is_cell_array(sources):
        tasks = [np.array([i]) for i in _batch_cells(grid, "sources", sources).tolist()]
    elif isinstance(sources, Sequence) and not isinstance(sources, str):
        tasks = [
            cell_indices(f"sources[{i}]", item, grid.padded, many=True)
            for i, item in enumerate(sources)
        ]
    else:
        raise TypeError(
            "sources must be an (n, 2) array of cells or a sequence of cells or cell "
            f"arrays; got {type(sources).__name__}"
        )
    settings = field_settings(grid, limit)
    fields = run_batch(
        grid, solve_fields, tasks, settings, batch, desc="field", row_shape=grid.shape
    )
    return fields  # type: ignore[return-value]


def _batch_cells(grid: Grid, name: str, value: Any) -> npt.NDArray[np.intp]:
    """Checked ``(n, 2)`` cells as flat padded indices (``n`` may be 0)."""
    arr = np.asarray(value)
    if arr.size == 0 and arr.ndim <= 2:
        return np.empty(0, dtype=np.intp)  # no queries: nothing to do
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            f"{name} must be an (n, 2) array of (row, col) cells; got shape {arr.shape}"
        )
    return cell_indices(name, arr, grid.padded, many=True, indexed=True)


def _batch_queries(
    grid: Grid, starts: Any, goals: Any, algorithm: Any, options: Any
) -> tuple[SearchOptions, list[tuple[int, int]]]:
    """The checked options and ``(start, goal)`` flat-cell pairs of a batch."""
    opts = SearchOptions.check("Grid", algorithm, **options)
    if algorithm == "jps":
        jps_settings(grid, opts)  # refuse a grid jps cannot search before dispatch
    return opts, _pairs(grid, starts, goals)


def _pairs(grid: Grid, starts: Any, goals: Any) -> list[tuple[int, int]]:
    flat_starts = _batch_cells(grid, "starts", starts)
    flat_goals = _batch_cells(grid, "goals", goals)
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
