"""Jump point search against A*, and batch throughput on threads and on a Dask cluster.

Three measurements, each with every answer checked, all in this one process (the Dask
workers are its child processes):

1. **JPS against pathcraft A\\*** on every Moving AI map (the goal is on the Dragon Age
   maps, ``dao/``): ``--queries`` evenly spaced scenario lines per map, each solved by
   ``Grid.astar``, ``Grid.jps`` (block jumps, the default) and jump point search with
   cell-by-cell jumps (the same kernel, ``block=False``: is the bit-scanning worth it?),
   interleaved in a rotated order. Every length must match the scenario file's optimum
   (``abs(got - want) <= 1e-5 * max(1, want)``). Goal: A*'s median per query at least
   10x JPS's on each Dragon Age map.
2. **Batch on threads**: ``find_paths`` and ``path_costs`` (A* and JPS) on ``--batch`` queries of
   ``dao/brc202d``, with ``workers=1`` and ``workers=2``, paths and costs only,
   ``--repeats`` runs each alternating 1 and 2 (a burst of load hits both). Every answer
   must equal the one-by-one answer. Goal: 2 threads at least 1.8x the throughput of
   1 for ``find_paths`` with A*.
3. **Batch on a Dask cluster**: the same ``find_paths`` batch on a ``LocalCluster`` of
   two single-threaded worker processes (``executor=client``: the grid is scattered once
   per run) against the built-in pool of 2 threads, alternating. Goal: the cluster
   within 1.5x of the thread pool's time. Cluster start-up is outside the timing; the
   scatter is inside.

Usage::

    python bench/grid_scale.py            # writes bench/results/grid_scale.md (~3 min)
    python bench/grid_scale.py --quick    # fewer queries and repeats, prints only
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_peers import RESULTS, header, load, select, tolerance_ok, us

from pathcraft import Grid
from pathcraft._options import SearchOptions
from pathcraft.grid._run import jps_settings, solve_jps

MAPS = (
    "dao/arena2",
    "dao/brc202d",
    "dao/den520d",
    "dao/lak303d",
    "dao/orz900d",
    "bg512/AR0011SR",
    "maze/maze512-1-0",
    "maze/maze512-32-0",
    "random/random512-10-0",
    "random/random512-40-0",
    "room/32room_000",
    "room/8room_000",
    "sc1/TheFrozenSea",
    "street/Berlin_0_256",
    "street/Boston_0_512",
    "wc3maps512/battleground",
)
BATCH_MAP = "dao/brc202d"


# --------------------------------------------------------------------------- JPS vs A*


def jps_cell_by_cell(grid: Grid, s: tuple, g: tuple) -> Any:
    """``grid.jps(s, g)`` with the cell-by-cell jump kernel instead of block jumps."""
    settings = jps_settings(grid, SearchOptions.check("Grid", "jps"), block=False)
    w = grid.shape[1] + 2
    return solve_jps(grid, (s[0] + 1) * w + s[1] + 1, (g[0] + 1) * w + g[1] + 1, settings, 0.0)


def jps_rows(k: int) -> list[dict[str, Any]]:
    rows = []
    for name in MAPS:
        m = load(name)
        grid = Grid.from_walkable(m.walkable)
        solvers: dict[str, Callable[[tuple, tuple], Any]] = {
            "astar": grid.astar,
            "jps": grid.jps,
            "jps_cells": functools.partial(jps_cell_by_cell, grid),
        }
        idx = select(len(m.optimal), k)
        times: dict[str, list[float]] = {key: [] for key in solvers}
        expanded: dict[str, list[int]] = {key: [] for key in solvers}
        bad = 0
        order = list(solvers)
        first = (tuple(int(x) for x in m.starts[idx[0]]), tuple(int(x) for x in m.goals[idx[0]]))
        for solve in solvers.values():
            solve(*first)  # warm-up: workspaces and the packed lines, untimed
        for q, i in enumerate(idx.tolist()):
            s = (int(m.starts[i][0]), int(m.starts[i][1]))
            g = (int(m.goals[i][0]), int(m.goals[i][1]))
            shift = q % len(order)
            for key in order[shift:] + order[:shift]:
                t0 = time.perf_counter()
                r = solvers[key](s, g)
                times[key].append(time.perf_counter() - t0)
                expanded[key].append(r.expanded)
                if not (r.found and tolerance_ok(r.cost, float(m.optimal[i]))):
                    bad += 1
        a, j, c = (np.array(times[key]) for key in order)
        rows.append(
            {
                "name": name,
                "shape": m.walkable.shape,
                "queries": len(idx),
                "astar_us": float(np.median(a)),
                "jps_us": float(np.median(j)),
                "cells_us": float(np.median(c)),
                "ratio": float(np.median(a) / np.median(j)),
                "per_query": float(np.median(a / j)),
                "block_gain": float(np.median(c) / np.median(j)),
                "astar_exp": float(np.mean(expanded["astar"])),
                "jps_exp": float(np.mean(expanded["jps"])),
                "bad": bad,
            }
        )
        print(
            f"{name}: A* {us(rows[-1]['astar_us'])} us, JPS {us(rows[-1]['jps_us'])}"
            f" us, x{rows[-1]['ratio']:.1f}, block gain x{rows[-1]['block_gain']:.2f}, bad {bad}",
            flush=True,
        )
    return rows


# --------------------------------------------------------------------------- batches


def batch_queries(n: int) -> tuple[Grid, np.ndarray, np.ndarray, np.ndarray]:
    m = load(BATCH_MAP)
    idx = select(len(m.optimal), n)
    return Grid.from_walkable(m.walkable), m.starts[idx], m.goals[idx], m.optimal[idx]


def check_batch(got: Any, want: list[Any], optimal: np.ndarray) -> int:
    """Mismatches: against the one-by-one answers (cost, path) and the optimal lengths."""
    bad = 0
    for k, (one, opt) in enumerate(zip(want, optimal, strict=True)):
        if isinstance(got, np.ndarray):
            same = got[k] == one.cost
        else:
            same = got[k].cost == one.cost and np.array_equal(got[k].path, one.path)
        bad += not (same and tolerance_ok(one.cost, float(opt)))
    return bad


_HALVES: list[tuple[Grid, np.ndarray, np.ndarray]] = []


def _solve_half(k: int) -> float:
    """Calibration work in a forked process: half of the batch, costs only."""
    grid, starts, goals = _HALVES[k]
    grid.path_costs(starts, goals, workers=1)
    return 0.0


def calibration_row(grid: Grid, starts: np.ndarray, goals: np.ndarray, repeats: int) -> dict:
    """What parallelism the machine gives right now: two forked processes solving one
    half of the batch each, against this process solving both halves in turn."""
    _HALVES[:] = [(grid, starts[k::2], goals[k::2]) for k in (0, 1)]
    samples: dict[int, list[float]] = {1: [], 2: []}
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=fork) as pool:
        list(pool.map(_solve_half, (0, 1)))  # warm-up: the processes exist
        for _ in range(repeats):
            t0 = time.perf_counter()
            _solve_half(0)
            _solve_half(1)
            samples[1].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            list(pool.map(_solve_half, (0, 1)))
            samples[2].append(time.perf_counter() - t0)
    t1, t2 = statistics.median(samples[1]), statistics.median(samples[2])
    print(f"calibration: 1 process {t1:.3f} s, 2 processes {t2:.3f} s, x{t1 / t2:.2f}")
    return {
        "call": "calibration: 2 processes, half each (path_costs)",
        "n": len(starts),
        "t1": t1,
        "t2": t2,
        "speedup": t1 / t2,
        "bad": 0,
        "goal": False,
    }


def _call(algorithm: str, paths: bool) -> str:
    """A batch row's label: ``find_paths`` (results) or ``path_costs`` (costs only)."""
    name = "find_paths" if paths else "path_costs"
    return f"{name}(algorithm={algorithm!r})"


def thread_rows(n: int, repeats: int) -> list[dict[str, Any]]:
    grid, starts, goals, optimal = batch_queries(n)
    rows = [calibration_row(grid, starts, goals, repeats)]
    for method in ("astar", "jps"):
        want = [grid.find_path(s, g, algorithm=method) for s, g in zip(starts, goals, strict=True)]
        for paths in (True, False):
            samples: dict[int, list[float]] = {1: [], 2: []}
            bad = 0
            for _ in range(repeats):
                for workers in (1, 2):
                    t0 = time.perf_counter()
                    many = grid.find_paths if paths else grid.path_costs
                    got = many(starts, goals, algorithm=method, workers=workers)
                    seconds = time.perf_counter() - t0
                    samples[workers].append(seconds)
                    bad += check_batch(got, want, optimal)
            t1, t2 = statistics.median(samples[1]), statistics.median(samples[2])
            rows.append(
                {
                    "call": _call(method, paths),
                    "n": len(starts),
                    "t1": t1,
                    "t2": t2,
                    "speedup": t1 / t2,
                    "bad": bad,
                    "goal": method == "astar" and paths,
                }
            )
            print(f"{rows[-1]['call']}: 1 thread {t1:.3f} s, 2 threads {t2:.3f} s, "
                  f"x{t1 / t2:.2f}, bad {bad}", flush=True)  # fmt: skip
    return rows


def dask_rows(n: int, repeats: int) -> list[dict[str, Any]]:
    from distributed import Client, LocalCluster

    grid, starts, goals, optimal = batch_queries(n)
    want = [grid.astar(s, g) for s, g in zip(starts, goals, strict=True)]
    rows = []
    t0 = time.perf_counter()
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        startup = time.perf_counter() - t0
        grid.find_paths(starts[:8], goals[:8], executor=client)  # warm-up: imports on workers
        for paths in (True, False):
            samples: dict[str, list[float]] = {"threads": [], "dask": []}
            bad = 0
            for _ in range(repeats):
                for where in ("threads", "dask"):
                    options: dict[str, Any] = (
                        {"workers": 2} if where == "threads" else {"executor": client}
                    )
                    t0 = time.perf_counter()
                    many = grid.find_paths if paths else grid.path_costs
                    got = many(starts, goals, **options)
                    seconds = time.perf_counter() - t0
                    samples[where].append(seconds)
                    bad += check_batch(got, want, optimal)
            th, dk = statistics.median(samples["threads"]), statistics.median(samples["dask"])
            rows.append(
                {
                    "call": _call("astar", paths),
                    "n": len(starts),
                    "threads": th,
                    "dask": dk,
                    "ratio": dk / th,
                    "bad": bad,
                    "startup": startup,
                }
            )
            print(f"{rows[-1]['call']}: threads {th:.3f} s, dask {dk:.3f} s, x{dk / th:.2f}, "
                  f"bad {bad}", flush=True)  # fmt: skip
    return rows


# --------------------------------------------------------------------------- report


def report(
    args: argparse.Namespace,
    jps: list[dict[str, Any]],
    threads: list[dict[str, Any]],
    dask: list[dict[str, Any]],
    load_start: tuple[float, ...],
) -> str:
    dists = ("numpy", "dask", "distributed")
    L = header("Grid scale: jump point search, batches on threads and on Dask", load_start, dists)
    L += [
        f"- CPUs seen by Python: {os.cpu_count()}",
        "",
        "## Jump point search against A* (pathcraft, 8-connected, no corner cutting)",
        "",
        f"{args.queries} evenly spaced scenario lines per map (fewer where the file is "
        "shorter), each solved by `Grid.astar`, `Grid.jps` and JPS with cell-by-cell "
        "jumps, interleaved; microseconds per query including the Python call. "
        "*A\\* / JPS*: the ratio of the medians (goal >= 10 on the Dragon Age maps); "
        "*per-query*: the median of each query's A* time over its JPS time; *block gain*: "
        "cell-by-cell JPS median over block JPS median (above 1: the 64-cell block jumps "
        "pay). *mismatches*: lengths off the scenario file's optimum, any of the three.",
        "",
        "| map | size | queries | A* median us | JPS median us | A* / JPS | per-query "
        "| goal >= 10 | cell-by-cell JPS us | block gain | A* mean expanded "
        "| JPS mean expanded | mismatches |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in jps:
        dao = r["name"].startswith("dao/")
        verdict = ("**holds**" if r["ratio"] >= 10 else "**fails**") if dao else "(no goal)"
        L.append(
            f"| {r['name']} | {r['shape'][0]} x {r['shape'][1]} | {r['queries']} "
            f"| {us(r['astar_us'])} | {us(r['jps_us'])} | {r['ratio']:.1f} "
            f"| {r['per_query']:.1f} | {verdict} | {us(r['cells_us'])} | {r['block_gain']:.2f} "
            f"| {r['astar_exp']:,.0f} | {r['jps_exp']:,.0f} | {r['bad']} |"
        )
    L += [
        "",
        f"## Batches on threads ({BATCH_MAP}, one shared grid)",
        "",
        f"Median seconds of {args.repeats} runs per row (1 and 2 workers alternating); "
        "every answer compared with the one-by-one answer (path and cost; costs only for "
        "`path_costs`) and with the optimum. Goal: `find_paths` (A*) with 2 "
        "threads at least 1.8x the throughput of 1. The calibration row is the same work "
        "on two forked processes against one: the parallelism this shared machine gave "
        "during the run, the ceiling for the thread rows.",
        "",
        "| call | queries | 1 thread s | 2 threads s | speedup | queries/s (2 threads) "
        "| goal >= 1.8 | mismatches |",
        "|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in threads:
        verdict = ("**holds**" if r["speedup"] >= 1.8 else "**fails**") if r["goal"] else ""
        L.append(
            f"| `{r['call']}` | {r['n']} | {r['t1']:.3f} | {r['t2']:.3f} | {r['speedup']:.2f} "
            f"| {r['n'] / r['t2']:,.0f} | {verdict} | {r['bad']} |"
        )
    L += [
        "",
        "## The same batch on a Dask LocalCluster",
        "",
        "Two worker processes of one thread each (`LocalCluster(n_workers=2, "
        "threads_per_worker=1)`), `executor=client`: the grid is scattered to both "
        "workers once per call (inside the timing), chunks of queries are tasks, answers "
        "gathered in order. Against the built-in pool of 2 threads, alternating, "
        f"{args.repeats} runs each. Goal: Dask's time at most 1.5x the threads' time. "
        f"Cluster start-up (not timed below): {dask[0]['startup']:.1f} s."
        if dask
        else "Dask was not run.",
        "",
        "| call | queries | 2 threads s | Dask 2 processes s | Dask / threads "
        "| goal <= 1.5 | mismatches |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in dask:
        verdict = "**holds**" if r["ratio"] <= 1.5 else "**fails**"
        L.append(
            f"| `{r['call']}` | {r['n']} | {r['threads']:.3f} | {r['dask']:.3f} "
            f"| {r['ratio']:.2f} | {verdict} | {r['bad']} |"
        )
    L.append("")
    return "\n".join(L)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=300, help="JPS vs A*: queries per map")
    parser.add_argument("--batch", type=int, default=1000, help="queries per batch")
    parser.add_argument("--repeats", type=int, default=5, help="runs per batch row")
    parser.add_argument("--quick", action="store_true", help="small sizes, print only")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask rows")
    parser.add_argument("--out", type=Path, help="where to write the markdown")
    args = parser.parse_args(argv)
    if args.quick:
        args.queries, args.batch, args.repeats = 40, 200, 2
    load_start = os.getloadavg()
    jps = jps_rows(args.queries)
    threads = thread_rows(args.batch, args.repeats)
    try:
        importlib.metadata.version("distributed")
        have_dask = True
    except importlib.metadata.PackageNotFoundError:
        have_dask = False
    dask = dask_rows(args.batch, args.repeats) if have_dask and not args.no_dask else []
    text = report(args, jps, threads, dask, load_start)
    out = args.out or (None if args.quick else RESULTS / "grid_scale.md")
    if out is None:
        print(text)
    else:
        out.write_text(text)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
