"""Batch queries on any world: many searches (or distance maps) in one call.

A world's batch front door checks every query up front, then hands :func:`run_batch`
a list of tasks and a *chunk solver*: a module-level function
``solve(world, tasks, payload)`` that answers a run of tasks and returns a list (of
:class:`~pathcraft.result.PathResult`) or an array with one row per task. The tasks are
split into chunks that run on a thread pool (each thread with its own workspace; the
compiled kernels release the GIL, so threads really run in parallel) or on any
:class:`concurrent.futures.Executor`. With a Dask cluster (a ``distributed.Client`` or
its ``get_executor()``) the world is scattered to every worker once, and chunks refer
to it instead of carrying a copy. Answers come back in the caller's order, whatever
order the chunks finish in. Nothing here knows what a grid or a graph is.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._options import Options, SearchOptions, UnsupportedOptionError, check_flag

__all__ = [
    "BatchDoor",
    "BatchOptions",
    "BatchSettings",
    "check_batch",
    "query_batch",
    "refuse_cost_flags",
    "run_batch",
]

#: A chunk solver: ``solve(world, tasks, payload)`` -> a list or an array, one per task.
ChunkSolver = Callable[[Any, Sequence[Any], Any], Any]


class BatchOptions(Options, total=False):
    """The keyword arguments of every batch of searches (``find_paths``,
    ``path_costs``): the search options and how the batch runs."""

    workers: int | None
    executor: Any
    chunk_size: int | None
    progress: bool


class BatchDoor(NamedTuple):
    """What one world brings to :func:`query_batch`.

    Attributes
    ----------
    world : str
        The world's name in :data:`pathcraft._options.SUPPORT` and in messages.
    pairs : callable
        ``pairs(world, starts, goals, opts)``: the checked ``(start, goal)`` tasks
        (errors name ``starts[i]``/``goals[i]``); it may refuse the options for this
        world (``opts``: the checked :class:`~pathcraft._options.SearchOptions`).
    solve_paths, solve_costs : callable
        Module-level chunk solvers ``solve(world, tasks, opts)``: a list of results,
        and a float array of costs.
    """

    world: str
    pairs: Callable[[Any, Any, Any, SearchOptions], list[Any]]
    solve_paths: ChunkSolver
    solve_costs: ChunkSolver


class BatchSettings:
    """The checked ``workers``, ``executor``, ``chunk_size`` and ``progress`` of a batch."""

    __slots__ = ("chunk_size", "executor", "progress", "workers")

    def __init__(
        self, workers: int | None, executor: Any, chunk_size: int | None, progress: bool
    ) -> None:
        self.workers = _check_count("workers", workers)
        self.chunk_size = _check_count("chunk_size", chunk_size)
        self.progress = check_flag("progress", progress)
        if executor is not None and workers is not None:
            raise ValueError(
                "pass workers= for the built-in thread pool or executor= for your own, not both"
            )
        if executor is not None and not (
            isinstance(executor, Executor) or dask_client(executor) is not None
        ):
            raise TypeError(
                "executor must be a concurrent.futures.Executor, a dask distributed.Client "
                f"or its get_executor(); got {type(executor).__name__}"
            )
        self.executor = executor


def check_batch(
    workers: int | None, executor: Any, chunk_size: int | None, progress: bool
) -> BatchSettings:
    """Check the batch arguments every batch front door takes (errors name them).

    >>> check_batch(2, None, None, False).workers
    2
    >>> check_batch(None, None, None, "yes")
    Traceback (most recent call last):
    ...
    TypeError: progress must be True or False; got 'yes'
    """
    return BatchSettings(workers, executor, chunk_size, progress)


def query_batch(
    door: BatchDoor,
    world: Any,
    method: str,
    starts: Any,
    goals: Any,
    algorithm: Any,
    given: Mapping[str, Any],
) -> Any:
    """The one front door of every batch of searches: ``world.find_paths`` (a list of
    results) or ``world.path_costs`` (``method``; a float array).

    ``given`` holds the caller's keyword arguments (:class:`BatchOptions`): the batch
    arguments are checked, then the search options (refusals name ``method``), then
    every query, before any search runs.
    """
    options = dict(given)
    batch = check_batch(
        options.pop("workers", None),
        options.pop("executor", None),
        options.pop("chunk_size", None),
        options.pop("progress", False),
    )
    costs = method == "path_costs"
    if costs:
        refuse_cost_flags(door.world, options)
    opts = SearchOptions.check_call(door.world, method, algorithm, options)
    tasks = door.pairs(world, starts, goals, opts)
    if costs:
        return run_batch(world, door.solve_costs, tasks, opts, batch, desc=algorithm, row_shape=())
    return run_batch(world, door.solve_paths, tasks, opts, batch, desc=algorithm)


def refuse_cost_flags(world: str, options: dict[str, Any]) -> None:
    """``path_costs`` answers costs only: ``partial`` and ``record`` would change
    nothing it returns, so they are refused rather than ignored."""
    for name in ("partial", "record"):
        if name in options:
            raise UnsupportedOptionError(
                f"{world}.path_costs does not take {name}: it returns only the costs "
                "(inf where the goal is not reached); use find_paths for paths"
            )


def _check_count(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer >= 1 or None; got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be an integer >= 1 or None; got {value!r}")
    return int(value)


def dask_client(executor: Any) -> Any:
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


def run_batch(
    world: Any,
    solve: ChunkSolver,
    tasks: Sequence[Any],
    payload: Any,
    settings: BatchSettings,
    *,
    desc: str,
    row_shape: tuple[int, ...] | None = None,
) -> list[Any] | npt.NDArray[np.float64]:
    """Split ``tasks`` into chunks, solve them where ``settings`` say, join in order.

    Parameters
    ----------
    world : object
        What every chunk is solved on (a grid, a graph); pickled to process pools and
        scattered once to a Dask cluster.
    solve : callable
        ``solve(world, chunk, payload)``, a module-level function (it may be pickled).
    tasks : sequence
        One item per query, already checked.
    payload : object
        The checked options, the same for every chunk.
    settings : BatchSettings
        From :func:`check_batch`.
    desc : str
        The progress bar's label.
    row_shape : tuple of int, or None
        None: the solver returns lists, and so does this. Otherwise it returns float
        arrays of shape ``(len(chunk), *row_shape)``, and this one of
        ``(len(tasks), *row_shape)``.

    Returns
    -------
    list or ndarray
        One answer per task, in the order of ``tasks``.

    Notes
    -----
    Chunk ``j`` of ``k`` takes tasks ``j, j + k, j + 2k, ...``: callers often sort their
    queries (by length, by region), and slicing a sorted list into runs would give the
    last chunk all the long queries and leave the other workers idle.

    Examples
    --------
    >>> def double(world, chunk, factor):
    ...     return [world * factor * x for x in chunk]
    >>> run_batch(1, double, [1, 2, 3], 2, check_batch(2, None, 1, False), desc="x")
    [2, 4, 6]
    """
    n = len(tasks)
    executor, workers = settings.executor, settings.workers
    parallel = executor is not None or (workers or os.cpu_count() or 1) > 1
    slots = getattr(executor, "_max_workers", None) or workers or os.cpu_count() or 1
    size = settings.chunk_size or max(1, math.ceil(n / (4 * slots)))
    count = math.ceil(n / size)
    chunks = [tasks[j::count] for j in range(count)]
    parts: list[Any] = [None] * len(chunks)
    bar = _progress_bar(n, desc, settings.progress)
    try:
        if not parallel or len(chunks) <= 1:
            for i, chunk in enumerate(chunks):
                parts[i] = solve(world, chunk, payload)
                bar.update(len(chunk))
        else:
            _run_parallel(world, solve, chunks, payload, parts, bar, workers, executor)
    finally:
        bar.close()
    if row_shape is None:
        results: list[Any] = [None] * n
        for j, part in enumerate(parts):
            results[j::count] = part
        return results
    out = np.empty((n, *row_shape))
    for j, part in enumerate(parts):
        out[j::count] = part
    return out


def _run_parallel(
    world: Any,
    solve: ChunkSolver,
    chunks: list[Sequence[Any]],
    payload: Any,
    parts: list[Any],
    bar: Any,
    workers: int | None,
    executor: Any,
) -> None:
    pool = executor
    own_pool = executor is None
    if own_pool:
        pool = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    client = dask_client(executor)
    shipped: Any = world
    submit: Callable[..., Any] = pool.submit
    if client is not None:
        shipped = client.scatter(world, broadcast=True, hash=False)  # once per worker
        if pool is client:
            submit = client.get_executor().submit
    try:
        order: dict[Future[Any], int] = {}
        for i, chunk in enumerate(chunks):
            order[submit(solve, shipped, chunk, payload)] = i
        for future in as_completed(order):
            parts[order[future]] = future.result()
            bar.update(len(chunks[order[future]]))
    finally:
        if own_pool:
            pool.shutdown(wait=True, cancel_futures=True)


class _NoBar:
    """The progress bar when none is shown: tqdm is imported only to show one."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, desc: str, show: bool) -> Any:
    """A tqdm bar over ``total`` queries if ``show``, else one that draws nothing."""
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="query", leave=False)
