"""One large world, several processes: batches answered by worker processes that
share the world's memory instead of each holding a copy.

The recipe:

1. save the world once with ``pathcraft.io.save(world, path, mappable=True)``;
2. every worker process opens it with ``pathcraft.io.load(path, mmap=True)`` (once:
   :func:`world_at` keeps it), which maps the costs from the file: the pages are read
   as searches touch them and shared by all the processes (the operating system's page
   cache holds the world once), so a second worker adds its searches' own memory, not
   another copy of the world;
3. split the batch into chunks and send each to a worker: :func:`costs_at` answers one
   chunk there (``path_costs`` with one thread, as the processes are the parallelism).

With a process pool (this machine's cores)::

    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(2) as pool:
        costs = answer(pool, "world.npz", starts, goals)

and with a Dask cluster whose workers see the file at the same path (a shared disk),
``client.get_executor()`` as the pool: ``answer(client.get_executor(), path, ...)``.
Dask's workers then keep one mapped world per process, as the pool's do.

Run ``python examples/shared_world.py`` for a demonstration on a bundled map tiled
into a larger world (``--side`` tiles per side, ``--queries`` pairs, ``--workers``).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import numpy as np

from pathcraft import Grid
from pathcraft.io import bundled_map, load, read_map, save

_OPEN: dict[str, Any] = {}


def world_at(path: str) -> Any:
    """The world saved at ``path``, mapped once per process and kept."""
    world = _OPEN.get(path)
    if world is None:
        world = _OPEN[path] = load(path, mmap=True)
    return world


def costs_at(path: str, starts: np.ndarray, goals: np.ndarray, algorithm: str) -> np.ndarray:
    """One chunk of a batch, answered in a worker process on the mapped world."""
    return world_at(path).path_costs(starts, goals, algorithm=algorithm, workers=1)  # type: ignore[no-any-return]


def answer(
    pool: Executor,
    path: str,
    starts: np.ndarray,
    goals: np.ndarray,
    *,
    chunk: int = 64,
    algorithm: str = "astar",
) -> np.ndarray:
    """The costs of every ``(starts[i], goals[i])`` pair (cells ``(row, col)``), the
    batch cut into chunks of ``chunk`` pairs answered by ``pool``'s workers."""
    cuts = range(0, len(starts), chunk)
    futures = [
        pool.submit(costs_at, path, starts[i : i + chunk], goals[i : i + chunk], algorithm)
        for i in cuts
    ]
    return np.concatenate([f.result() for f in futures]) if futures else np.empty(0)


def tiled_world(side: int) -> Grid:
    """The bundled Dragon Age map repeated ``side`` x ``side`` times, the copies joined
    by a walkable row and column between them (a larger world of real terrain)."""
    tile = read_map(bundled_map()).cost
    rows, cols = tile.shape
    cost = np.ones((side * (rows + 1), side * (cols + 1)))
    for i in range(side):
        for j in range(side):
            top, left = i * (rows + 1), j * (cols + 1)
            cost[top : top + rows, left : left + cols] = tile
    return Grid(cost)


def pairs(grid: Grid, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random pairs of walkable cells that reach each other."""
    rng = np.random.default_rng(seed)
    labels, _ = grid.components()
    open_cells = np.argwhere(np.isfinite(grid.cost))
    label = labels[open_cells[:, 0], open_cells[:, 1]]
    order = np.argsort(label, kind="stable")  # open cells grouped by component
    first = np.searchsorted(label[order], label, side="left")
    size = np.searchsorted(label[order], label, side="right") - first
    picked = rng.integers(len(open_cells), size=count)
    partner = order[first[picked] + (rng.random(count) * size[picked]).astype(np.intp)]
    return open_cells[picked], open_cells[partner]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--side", type=int, default=4, help="tiles per side (default 4)")
    parser.add_argument("--queries", type=int, default=400, help="pairs (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args()
    world = tiled_world(args.side)
    starts, goals = pairs(world, args.queries)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "world.npz")
        save(world, path, mappable=True)
        with ProcessPoolExecutor(args.workers) as pool:
            t = time.perf_counter()
            costs = answer(pool, path, starts, goals)
            took = time.perf_counter() - t
    check = world.path_costs(starts[:20], goals[:20])
    assert np.allclose(costs[:20], check)
    print(
        f"{world.shape[0]} x {world.shape[1]} cells ({world.padded.nbytes / 2**20:.0f} MiB of "
        f"costs), {len(costs)} queries on {args.workers} processes in {took:.2f} s; "
        f"all found: {bool(np.isfinite(costs).all())}"
    )


if __name__ == "__main__":
    main()
