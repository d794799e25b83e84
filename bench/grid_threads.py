"""Two threads against one on one shared Grid: does the grid search release the GIL?

One :class:`pathcraft.Grid` per map is shared by every thread; each thread searches
with its own workspace (kept per thread by ``pathcraft.grid``). The same list of
Moving AI queries (``--queries`` evenly spaced lines of the ``den520d`` and
``32room_000`` scenario files, alternating between the two maps) is solved by a
``ThreadPoolExecutor`` with 1 and with 2 workers, ``--repeats`` times each, alternating
1 and 2 so a burst of load on this shared machine hits both. The workers are warmed up
(their workspaces allocated) by the executor's initializer, outside the timing.

Every answer of every run must be identical (the same cost and the same path, cell by
cell) to a plain sequential loop, whose costs are checked against the published optimal
lengths. A control workload, pathcraft's generic A* (Python nodes and callables) on the
same den520d queries, holds the GIL and should not speed up.

Usage::

    python bench/grid_threads.py              # writes bench/results/grid_threads.md
    python bench/grid_threads.py --quick      # fewer queries and repeats, prints only
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_peers import RESULTS, header, load, select, tolerance_ok

import pathcraft
from pathcraft import Grid

MAPS = ("dao/den520d", "room/32room_000")


def grid_tasks(k: int) -> tuple[list[tuple[Grid, tuple, tuple]], list[float], list[Grid]]:
    """``k`` queries per map, alternating maps: ``(grid, start, goal)`` and the optima."""
    per_map = []
    grids = []
    for name in MAPS:
        m = load(name)
        grid = Grid.from_walkable(m.walkable)
        grids.append(grid)
        idx = select(len(m.optimal), k)
        per_map.append(
            [
                (
                    grid,
                    (int(m.starts[i][0]), int(m.starts[i][1])),
                    (int(m.goals[i][0]), int(m.goals[i][1])),
                    float(m.optimal[i]),
                )
                for i in idx
            ]
        )
    tasks, optimal = [], []
    for pair in zip(*per_map, strict=False):
        for grid, s, g, want in pair:
            tasks.append((grid, s, g))
            optimal.append(want)
    return tasks, optimal, grids


def solve_grid(task: tuple[Grid, tuple, tuple]) -> tuple[float, bytes]:
    grid, s, g = task
    r = grid.astar(s, g)
    return r.cost, r.path.tobytes()


def python_tasks(walk: np.ndarray, cells: list[tuple[tuple, tuple]]) -> list[Any]:
    """The control: pathcraft's generic A* (Python callables) on the same map and rule."""
    rows, cols = walk.shape
    sqrt2 = math.sqrt(2.0)
    steps = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0)]
    diags = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    free = walk.tolist()

    def neighbors(cell: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        r, c = cell
        out = []
        for dr, dc, w in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and free[rr][cc]:
                out.append(((rr, cc), w))
        for dr, dc in diags:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and free[rr][cc] and free[rr][c] and free[r][cc]:
                out.append(((rr, cc), sqrt2))
        return out

    return [(neighbors, s, g) for s, g in cells]


def solve_python(task: Any) -> tuple[float, bytes]:
    neighbors, s, g = task

    def octile(cell: tuple[int, int]) -> float:
        dr, dc = abs(cell[0] - g[0]), abs(cell[1] - g[1])
        return max(dr, dc) + (math.sqrt(2.0) - 1.0) * min(dr, dc)

    r = pathcraft.astar(s, g, neighbors, octile)
    return r.cost, np.asarray(r.path, dtype=np.intp).tobytes()


def measure(
    solve: Callable[[Any], tuple[float, bytes]],
    tasks: list[Any],
    warm: Callable[[], None],
    repeats: int,
    pool: Callable[[int], Executor] | None = None,
    chunksize: int = 1,
) -> dict[str, Any]:
    """Sequential baseline, then 1 and 2 workers alternately; wall and CPU seconds.

    ``pool(n)`` makes an executor of ``n`` workers (default: threads, warmed up by
    their initializer). CPU seconds are this process's, so they count threads only."""
    warm()
    t0, c0 = time.perf_counter(), time.process_time()
    expected = [solve(t) for t in tasks]
    seq = (time.perf_counter() - t0, time.process_time() - c0)
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    identical = True
    make = pool or (lambda n: ThreadPoolExecutor(n, initializer=warm))
    with make(1) as one, make(2) as two:
        for ex in (one, two):  # start the workers (and warm them) before any timing
            list(ex.map(time.sleep, [0.2] * 4))
        for _ in range(repeats):
            for n, ex in ((1, one), (2, two)):
                t0, c0 = time.perf_counter(), time.process_time()
                got = list(ex.map(solve, tasks, chunksize=chunksize))
                walls[n].append(time.perf_counter() - t0)
                cpus[n].append(time.process_time() - c0)
                identical &= got == expected
    return {
        "expected": expected,
        "seq": seq,
        "walls": walls,
        "cpus": cpus,
        "identical": identical,
    }


_PROCESS_GRIDS: list[Grid] = []


def _process_init(masks: list[np.ndarray]) -> None:
    """A worker process of the calibration: its own grids, warmed up."""
    _PROCESS_GRIDS[:] = [Grid.from_walkable(mask) for mask in masks]
    for grid in _PROCESS_GRIDS:
        cells = np.argwhere(grid.walkable)
        grid.astar(tuple(int(x) for x in cells[0]), tuple(int(x) for x in cells[-1]))


def solve_process(task: tuple[int, tuple, tuple]) -> tuple[float, bytes]:
    k, s, g = task
    r = _PROCESS_GRIDS[k].astar(s, g)
    return r.cost, r.path.tobytes()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=200, help="queries per map")
    parser.add_argument("--control-queries", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.quick:
        args.queries, args.control_queries, args.repeats = 40, 10, 2
    load_start = os.getloadavg()

    tasks, optimal, grids = grid_tasks(args.queries)

    def warm_grids() -> None:
        for grid in sorted(grids, key=lambda g: -g.shape[0] * g.shape[1]):
            cells = np.argwhere(grid.walkable)
            grid.astar(tuple(int(x) for x in cells[0]), tuple(int(x) for x in cells[-1]))

    main_run = measure(solve_grid, tasks, warm_grids, args.repeats)
    # Calibration: the same queries in 1 and 2 worker processes (no GIL to share) show
    # how much parallelism the machine offers right now.
    masks = [grid.walkable for grid in grids]
    process_tasks = [(grids.index(grid), s, g) for grid, s, g in tasks]
    calibration = measure(
        solve_process,
        process_tasks,
        lambda: _process_init(masks),
        args.repeats,
        pool=lambda n: ProcessPoolExecutor(n, initializer=_process_init, initargs=(masks,)),
        chunksize=10,
    )
    matched = sum(
        tolerance_ok(cost, want)
        for (cost, _), want in zip(main_run["expected"], optimal, strict=True)
    )

    den = load(MAPS[0])
    idx = select(len(den.optimal), args.control_queries)
    cells = [
        (
            (int(den.starts[i][0]), int(den.starts[i][1])),
            (int(den.goals[i][0]), int(den.goals[i][1])),
        )
        for i in idx
    ]
    py_tasks = python_tasks(den.walkable, cells)
    control = measure(solve_python, py_tasks, lambda: None, max(2, args.repeats // 2))
    control_matched = sum(
        tolerance_ok(cost, float(den.optimal[i]))
        for (cost, _), i in zip(control["expected"], idx, strict=True)
    )

    rows = []
    for label, run, n_tasks in (
        ("pathcraft `Grid.astar` in threads, one shared Grid per map", main_run, len(tasks)),
        ("calibration: the same in worker processes (no shared GIL)", calibration, len(tasks)),
        (
            "control: pathcraft generic `astar` (Python objects, holds the GIL)",
            control,
            len(py_tasks),
        ),
    ):
        w1, w2 = statistics.median(run["walls"][1]), statistics.median(run["walls"][2])
        c1, c2 = statistics.median(run["cpus"][1]), statistics.median(run["cpus"][2])
        b1, b2 = min(run["walls"][1]), min(run["walls"][2])
        busy1 = statistics.median(
            c / w for c, w in zip(run["cpus"][1], run["walls"][1], strict=True)
        )
        busy2 = statistics.median(
            c / w for c, w in zip(run["cpus"][2], run["walls"][2], strict=True)
        )
        cpu = f"{c1:.2f} / {c2:.2f} | {busy1:.2f} / {busy2:.2f}"
        if run is calibration:
            cpu = "(in the workers) | -"
        rows.append(
            f"| {label} | {n_tasks} | {run['seq'][0]:.3f} | {w1:.3f} ({b1:.3f}) "
            f"| {w2:.3f} ({b2:.3f}) | **{w1 / w2:.2f}x** ({b1 / b2:.2f}x) | {cpu} "
            f"| {'yes' if run['identical'] else '**NO**'} |"
        )

    L = header(
        "Grid search in threads: 2 threads against 1 on one shared Grid",
        load_start,
        dists=("numpy",),
    )
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    L += [
        f"CPUs usable by this process: {usable}.",
        "",
        "## How to read",
        "",
        f"- Workload: {args.queries} evenly spaced scenarios (`numpy.linspace` over the "
        f"bucket-sorted file, rounded) of each of {', '.join(MAPS)}, alternating maps: "
        f"{len(tasks)} `grid.astar(start, goal)` calls, one shared `Grid` per map "
        "(the Moving AI rule). Costs checked against the published optima: "
        f"{matched}/{len(tasks)} matched.",
        "- *sequential*: a plain loop in the main thread. *1 thread* / *2 threads*: "
        "`ThreadPoolExecutor(n).map` over the same list; median wall seconds of "
        f"{args.repeats} runs (best in parentheses), 1 and 2 alternating. *speed-up*: "
        "1-thread median / 2-thread median (best / best in parentheses); 2.0 is the "
        "ceiling on 2 cores.",
        "- *CPU s*: process CPU time (all threads) per run, median. *CPUs busy*: CPU time "
        "over wall time, per run, median: near 1 for one thread, near 2 when two threads "
        "really compute at once. On a loaded machine other processes take cores away, "
        "which lowers both the speed-up and the CPUs busy; the load average above says how "
        "busy the machine was.",
        "- *identical*: every run's answers (cost and every path cell) equal the "
        "sequential loop's.",
        "- Calibration: the same queries in `ProcessPoolExecutor(1)` / `(2)` workers "
        "(each with its own copy of the grids, chunks of 10) measure how much "
        "parallelism the machine offers during the run, GIL or not. Threads whose "
        "speed-up matches the processes' are not held back by the GIL; if the "
        "processes do not reach about 2x either, other load was sharing the cores "
        "and the run says little: run it again on a quiet machine.",
        f"- Control: pathcraft's generic A* (`pathcraft.astar`: Python nodes and a Python "
        "neighbour function of the same rule, holding the GIL throughout) on "
        f"{len(py_tasks)} den520d scenarios "
        f"({control_matched}/{len(py_tasks)} matched the optima): its speed-up stays "
        "near 1 (or below).",
        "",
        "| workload | queries | sequential s | 1 thread s | 2 threads s | speed-up "
        "| CPU s (1 / 2 threads) | CPUs busy (1 / 2 threads) | identical |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
    ]
    text = "\n".join(L)
    out = args.out or (None if args.quick else RESULTS / "grid_threads.md")
    print(text)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
