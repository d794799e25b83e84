"""One large world served by several processes: throughput and memory, mapped or copied.

``python bench/shared_world.py`` saves a large grid once (``save(..., mappable=True)``:
the bundled Dragon Age map tiled ``--side`` x ``--side`` times), then runs the same
batch of queries

- in one worker process, and
- split between two worker processes running at once,

each worker opening the world either with ``load(path, mmap=True)`` (mapped: the
costs shared through the page cache) or with ``load(path)`` (copied: each its own).
Workers load first, then wait for a common start; the wall time runs from the start to
the last worker's end. Memory per worker: its anonymous (private, not file-backed)
resident memory from ``/proc/self/smaps_rollup``, after loading and after its queries,
against the world's costs array. Results to ``bench/results/huge_worlds.md`` (the
section "Shared worlds"), replaced on each run.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine, write_section

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "examples"))
from shared_world import pairs, tiled_world  # noqa: E402

from pathcraft.io import load, save  # noqa: E402

RESULTS = REPO / "bench" / "results" / "huge_worlds.md"


def anonymous_mib() -> float:
    """This process's anonymous resident memory (what it holds privately), MiB."""
    with open("/proc/self/smaps_rollup") as file:
        for line in file:
            if line.startswith("Anonymous:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def worker(
    path: str, mmap: bool, starts: Any, goals: Any, algorithm: str, go: Any, ready: Any, out: Any
) -> None:
    base = anonymous_mib()
    world = load(path, mmap=mmap)
    loaded = anonymous_mib()
    world.path_cost(tuple(starts[0]), tuple(goals[0]), algorithm=algorithm)  # warm
    ready.put(True)
    go.wait()
    t = time.perf_counter()
    costs = world.path_costs(starts, goals, algorithm=algorithm, workers=1)
    took = time.perf_counter() - t
    out.put((took, loaded - base, anonymous_mib() - base, float(np.nansum(costs))))


def run(
    path: str, mmap: bool, parts: int, starts: Any, goals: Any, algorithm: str
) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    go, ready, out = ctx.Event(), ctx.Queue(), ctx.Queue()
    cuts = np.array_split(np.arange(len(starts)), parts)
    procs = [
        ctx.Process(
            target=worker, args=(path, mmap, starts[c], goals[c], algorithm, go, ready, out)
        )
        for c in cuts
    ]
    for p in procs:
        p.start()
    for _ in procs:  # every worker has loaded and waits for the start
        ready.get()
    t = time.perf_counter()
    go.set()
    results = [out.get() for _ in procs]
    wall = time.perf_counter() - t
    for p in procs:
        p.join()
    return {
        "wall": wall,
        "loaded": [r[1] for r in results],
        "after": [r[2] for r in results],
        "check": sum(r[3] for r in results),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="one world, several processes")
    parser.add_argument("--side", type=int, default=16)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--algorithm", default="jps")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    world = tiled_world(args.side)
    starts, goals = pairs(world, args.queries)
    size = world.padded.nbytes / 2**20
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "world.npz")
        save(world, path, mappable=True)
        for mmap in (True, False):
            walls = {1: [], 2: []}
            memory: dict[int, Any] = {}
            for _ in range(args.repeat):
                for parts in (1, 2):
                    got = run(path, mmap, parts, starts, goals, args.algorithm)
                    walls[parts].append(got["wall"])
                    memory[parts] = got
            one, two = np.median(walls[1]), np.median(walls[2])
            rows.append(
                f"| {'mapped' if mmap else 'copied'} | {one:.2f} | {two:.2f} | {one / two:.2f}x | "
                + " / ".join(f"{m:+.1f}" for m in memory[2]["loaded"])
                + " | "
                + " / ".join(f"{m:+.1f}" for m in memory[2]["after"])
                + " |"
            )
            print(rows[-1], flush=True)
    load_avg = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    text = "\n".join(
        [
            f"`python bench/shared_world.py --side {args.side} --queries {args.queries} "
            f"--algorithm {args.algorithm} --repeat {args.repeat}` on {machine()}; commit "
            f"{git_rev()}; "
            f"load average at the end {load_avg}.",
            "",
            f"The world: the bundled Dragon Age map tiled {args.side} x {args.side} "
            f"({world.shape[0]} x {world.shape[1]} cells, {size:.0f} MiB of costs), saved "
            f"once with `mappable=True`; {args.queries} random pairs that reach each other, "
            f"`path_costs(..., algorithm={args.algorithm!r}, workers=1)` in each worker "
            "process. Wall time from a common start (after every worker loaded) to the "
            f"last worker's end, median of {args.repeat}; memory: each of the two "
            "workers' anonymous (private) resident MiB over its start, after loading "
            "and after its queries (a search's own state: jump point search's dense "
            "arrays, an entry per cell of the map, which each process holds for itself, "
            "as one process does).",
            "",
            "| load | 1 process s | 2 processes s | speed-up | MiB each, loaded "
            "| MiB each, after queries |",
            "|---|---:|---:|---:|---|---|",
            *rows,
        ]
    )
    write_section(RESULTS, "Shared worlds", text)
    print(text)


if __name__ == "__main__":
    main()
