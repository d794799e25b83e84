"""Batch queries on a grid: many searches or distance fields in one call.

The queries are checked once, up front, then split into chunks that run on a thread
pool (each thread with its own workspace; the compiled loops release the GIL, so
threads really run in parallel) or on any :class:`concurrent.futures.Executor`. With a
Dask cluster (a ``distributed.Client`` or its ``get_executor()``) the grid is scattered
to every worker once, and chunks refer to it instead of carrying a copy. Answers come
back in the caller's order, whatever order the chunks finish in.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any, Literal, cast, overload

import numpy as np
import numpy.typing as npt
from tqdm.auto import tqdm

from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._options import SearchOptions
from pathcraft._validation import check_limit
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
    from pathcraft.grid import Grid, HeuristicName

__all__ = ["BatchQueries"]

Cells = npt.ArrayLike
Costs = npt.NDArray[np.float64]
Kind = Literal["astar", "jps", "field"]


# --------------------------------------------------------------------------- workers


def _solve_chunk(
    grid: Grid, kind: Kind, tasks: Sequence[Any], options: dict[str, Any], paths: bool
) -> list[PathResult] | Costs:
    """Solve one chunk on whatever thread or process runs it. ``tasks`` holds
    ``(start, goal)`` flat-cell pairs (searches) or source arrays (fields)."""
    if kind == "field":
        fields = np.empty((len(tasks), *grid.shape))
        ws = workspace(grid._padded.size)
        for i, sources in enumerate(tasks):
            _kernel.field(grid._padded, ws, sources, fields[i], **options)
        return fields
    if kind == "jps":
        settings = jps_settings(grid, options["opts"])
        if not paths:
            return _costs(grid, tasks, _jps_kernel.jps_costs, settings)
        return [solve_jps(grid, s, g, settings, time.perf_counter()) for s, g in tasks]
    if not paths:
        return _costs(grid, tasks, _kernel.search_costs, options)
    return [
        solve(grid, np.array([s]), np.array([g]), options, time.perf_counter()) for s, g in tasks
    ]


def _costs(
    grid: Grid, tasks: Sequence[tuple[int, int]], kernel: Callable[..., None], settings: Any
) -> Costs:
    """The costs of a chunk of searches, from one compiled loop over them all."""
    pairs = np.array(tasks, dtype=np.intp).reshape(-1, 2)
    costs = np.empty(len(pairs))
    options = dict(settings)
    lines = options.pop("lines", None)
    extra = () if lines is None else (lines,)
    kernel(
        grid._padded,
        workspace(grid._padded.size),
        np.ascontiguousarray(pairs[:, 0]),
        np.ascontiguousarray(pairs[:, 1]),
        *extra,
        costs,
        **options,
    )
    return costs


def _dask_client(executor: Any) -> Any:
    """The ``distributed.Client`` behind ``executor`` (itself or the one its
    ``get_executor()`` wraps), or None for any other executor."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    if isinstance(executor, distributed.Client):
        return executor
    from distributed.cfexecutor import ClientExecutor

    if isinstance(executor, ClientExecutor):
        return executor._client
    return None


def _check_count(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1 or None; got {value!r}")
    return int(value)


def _run(
    grid: Grid,
    kind: Kind,
    tasks: Sequence[Any],
    options: dict[str, Any],
    *,
    paths: bool,
    workers: int | None,
    executor: Any,
    chunk_size: int | None,
    progress: bool,
) -> list[PathResult] | Costs:
    """Split ``tasks`` into chunks, solve them where asked, join the answers in order.

    Chunk ``j`` of ``k`` takes tasks ``j, j + k, j + 2k, ...``: callers often sort
    their queries (by length, by region), and slicing a sorted list into runs would
    give the last chunk all the long queries and leave the other workers idle."""
    workers = _check_count("workers", workers)
    chunk_size = _check_count("chunk_size", chunk_size)
    if executor is not None and workers is not None:
        raise ValueError(
            "pass workers= for the built-in thread pool or executor= for your own, not both"
        )
    if executor is not None and not (
        isinstance(executor, Executor) or _dask_client(executor) is not None
    ):
        raise TypeError(
            "executor must be a concurrent.futures.Executor, a dask distributed.Client or "
            f"its get_executor(); got {type(executor).__name__}"
        )
    n = len(tasks)
    parallel = executor is not None or (workers or os.cpu_count() or 1) > 1
    slots = getattr(executor, "_max_workers", None) or workers or os.cpu_count() or 1
    size = chunk_size or max(1, math.ceil(n / (4 * slots)))
    count = math.ceil(n / size)
    chunks = [tasks[j::count] for j in range(count)]
    parts: list[Any] = [None] * len(chunks)
    bar = tqdm(total=n, desc=kind, unit="query", disable=not progress, leave=False)
    try:
        if not parallel or len(chunks) <= 1:
            for i, chunk in enumerate(chunks):
                parts[i] = _solve_chunk(grid, kind, chunk, options, paths)
                bar.update(len(chunk))
        else:
            _run_parallel(grid, kind, chunks, options, paths, parts, bar, workers, executor)
    finally:
        bar.close()
    if paths and kind != "field":
        results: list[PathResult] = [None] * n  # type: ignore[list-item]
        for j, part in enumerate(parts):
            results[j::count] = part
        return results
    out = np.empty((n, *grid.shape) if kind == "field" else n)
    for j, part in enumerate(parts):
        out[j::count] = part
    return out


def _run_parallel(
    grid: Grid,
    kind: Kind,
    chunks: list[Sequence[Any]],
    options: dict[str, Any],
    paths: bool,
    parts: list[Any],
    bar: Any,
    workers: int | None,
    executor: Any,
) -> None:
    pool = executor
    own_pool = executor is None
    if own_pool:
        pool = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    client = _dask_client(executor)
    shipped: Any = grid
    submit: Callable[..., Any] = pool.submit
    if client is not None:
        shipped = client.scatter(grid, broadcast=True, hash=False)  # once per worker, not per chunk
        if pool is client:
            submit = client.get_executor().submit
    try:
        order: dict[Future[Any], int] = {}
        for i, chunk in enumerate(chunks):
            order[submit(_solve_chunk, shipped, kind, chunk, options, paths)] = i
        for future in as_completed(order):
            parts[order[future]] = future.result()
            bar.update(len(chunks[order[future]]))
    finally:
        if own_pool:
            pool.shutdown(wait=True, cancel_futures=True)


# --------------------------------------------------------------------------- front doors


class BatchQueries:
    """The batch methods of :class:`~pathcraft.Grid` (a mixin: see there)."""

    __slots__ = ()
    _padded: npt.NDArray[np.float64]
    _diagonal: str

    def _batch_cells(self, name: str, value: Cells) -> npt.NDArray[np.intp]:
        """Checked ``(n, 2)`` cells as flat padded indices (``n`` may be 0)."""
        arr = np.asarray(value)
        if arr.size == 0 and arr.ndim <= 2:
            return np.empty(0, dtype=np.intp)  # no queries: nothing to do
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(
                f"{name} must be an (n, 2) array of (row, col) cells; got shape {arr.shape}"
            )
        return cell_indices(name, arr, self._padded, many=True, indexed=True)

    def _pairs(self, starts: Cells, goals: Cells) -> list[tuple[int, int]]:
        flat_starts = self._batch_cells("starts", starts)
        flat_goals = self._batch_cells("goals", goals)
        if len(flat_starts) != len(flat_goals):
            raise ValueError(
                "starts and goals must have the same length; "
                f"got {len(flat_starts)} and {len(flat_goals)}"
            )
        return list(zip(flat_starts.tolist(), flat_goals.tolist(), strict=True))

    @overload
    def astar_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: Literal[True] = ...,
        weight: float = ...,
        heuristic: HeuristicName | None = ...,
        tie_break: Literal["g", "fifo", "random"] = ...,
        seed: int | None = ...,
        max_expansions: int | None = ...,
        max_cost: float | None = ...,
        workers: int | None = ...,
        executor: Any = ...,
        chunk_size: int | None = ...,
        progress: bool = ...,
    ) -> list[PathResult]: ...
    @overload
    def astar_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: Literal[False],
        weight: float = ...,
        heuristic: HeuristicName | None = ...,
        tie_break: Literal["g", "fifo", "random"] = ...,
        seed: int | None = ...,
        max_expansions: int | None = ...,
        max_cost: float | None = ...,
        workers: int | None = ...,
        executor: Any = ...,
        chunk_size: int | None = ...,
        progress: bool = ...,
    ) -> Costs: ...
    def astar_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: bool = True,
        weight: float = 1.0,
        heuristic: HeuristicName | None = None,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        workers: int | None = None,
        executor: Any = None,
        chunk_size: int | None = None,
        progress: bool = False,
    ) -> list[PathResult] | Costs:
        """A* for many ``(start, goal)`` pairs at once, in parallel.

        Each answer is exactly what :meth:`astar` gives for that pair with the same
        options (with ``tie_break="random"``, every query uses the same ``seed``).

        Parameters
        ----------
        starts, goals : array_like of int, shape (n, 2)
            ``(row, col)`` cells: query ``i`` goes from ``starts[i]`` to ``goals[i]``.
        paths : bool
            True: a list of :class:`~pathcraft.PathResult`. False: only the costs, a
            float array with ``inf`` where no path was found (less to build and ship).
        weight, heuristic, tie_break, seed, max_expansions, max_cost
            As in :meth:`astar`, the same for every query.
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

        Returns
        -------
        list of PathResult, or ndarray of float64, shape (n,)
            In the order of ``starts``.

        Raises
        ------
        ValueError
            ``starts`` or ``goals`` not ``(n, 2)``, of different lengths, or holding a
            cell outside the grid or on a wall (named by its index); a bad option.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .###.
        ... .....
        ... ''')
        >>> grid.astar_many([(0, 0), (2, 0)], [(2, 4), (2, 2)], paths=False, workers=2)
        array([6., 2.])
        >>> [len(r.path) for r in grid.astar_many([(0, 0)], [(0, 4)])]
        [5]
        """
        options = search_settings(
            self,  # type: ignore[arg-type]
            SearchOptions.check(
                "Grid", "astar", weight=weight, heuristic=heuristic, tie_break=tie_break,
                seed=seed, max_expansions=max_expansions, max_cost=max_cost,
            ),
        )  # fmt: skip
        return _run(
            self,  # type: ignore[arg-type]
            "astar",
            self._pairs(starts, goals),
            options,
            paths=paths,
            workers=workers,
            executor=executor,
            chunk_size=chunk_size,
            progress=progress,
        )

    @overload
    def jps_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: Literal[True] = ...,
        weight: float = ...,
        max_expansions: int | None = ...,
        workers: int | None = ...,
        executor: Any = ...,
        chunk_size: int | None = ...,
        progress: bool = ...,
    ) -> list[PathResult]: ...
    @overload
    def jps_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: Literal[False],
        weight: float = ...,
        max_expansions: int | None = ...,
        workers: int | None = ...,
        executor: Any = ...,
        chunk_size: int | None = ...,
        progress: bool = ...,
    ) -> Costs: ...
    def jps_many(
        self,
        starts: Cells,
        goals: Cells,
        *,
        paths: bool = True,
        weight: float = 1.0,
        max_expansions: int | None = None,
        workers: int | None = None,
        executor: Any = None,
        chunk_size: int | None = None,
        progress: bool = False,
    ) -> list[PathResult] | Costs:
        """Jump point search for many ``(start, goal)`` pairs at once, in parallel.

        Each answer is exactly what :meth:`jps` gives for that pair. Parameters,
        returns and errors as in :meth:`astar_many`; the grid must suit :meth:`jps`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> grid = Grid(np.ones((4, 50)))
        >>> grid.jps_many([(0, 0), (3, 0)], [(0, 49), (0, 3)], paths=False).tolist()
        [49.0, 4.242640687119286]
        """
        opts = SearchOptions.check("Grid", "jps", weight=weight, max_expansions=max_expansions)
        options = {"opts": opts}
        jps_settings(self, opts)  # type: ignore[arg-type]  # check before dispatch
        return _run(
            self,  # type: ignore[arg-type]
            "jps",
            self._pairs(starts, goals),
            options,
            paths=paths,
            workers=workers,
            executor=executor,
            chunk_size=chunk_size,
            progress=progress,
        )

    def distance_fields(
        self,
        sources: Cells | Sequence[Cells],
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
            As in :meth:`astar_many`.

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
        limit = check_limit("max_cost", max_cost, integer=False)
        tasks: list[npt.NDArray[np.intp]]
        if _is_cell_array(sources):
            tasks = [
                np.array([i]) for i in self._batch_cells("sources", cast(Cells, sources)).tolist()
            ]
        elif isinstance(sources, Sequence) and not isinstance(sources, str):
            tasks = [
                cell_indices(f"sources[{i}]", item, self._padded, many=True)
                for i, item in enumerate(sources)
            ]
        else:
            raise TypeError(
                "sources must be an (n, 2) array of cells or a sequence of cells or cell "
                f"arrays; got {type(sources).__name__}"
            )
        options = {
            "diagonal": DIAGONAL_RULES[self._diagonal],
            "max_cost": math.inf if limit is None else float(limit),
        }
        fields = _run(
            self,  # type: ignore[arg-type]
            "field",
            tasks,
            options,
            paths=False,
            workers=workers,
            executor=executor,
            chunk_size=chunk_size,
            progress=progress,
        )
        return cast(Costs, fields)


def _is_cell_array(value: Any) -> bool:
    """Whether ``value`` is an ``(n, 2)`` integer array (or nested lists of one)."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind in "iu"
