"""What a sliced search costs to start and to keep in flight, by map size.

On grids of 256 x 256 to 2048 x 2048 (8-connected, A* and jump point search, each
its own rows): for the one-cell query from the centre of an open grid to its right
neighbour, and a long query:

- **blocking**: ``grid.astar(a, b)`` (``grid.jps(a, b)``), the one-cell query; time
  per call.
- **start + step(1), pooled**: ``s = grid.start_search(a, b); s.step(1); s.cancel()``
  in a loop: a pooled workspace is taken and given back each time.
- **K in flight beyond the pool** (K = 10, 100, 1,000; best of 30, 10 and 3 runs):
  the pool emptied and its four workspaces taken by searches held in flight
  (not counted), then K more searches started and stepped once, all held, so each
  makes a workspace of its own (hashed, where the build has them): time per search
  to start and step, resident memory added per search (the process's RSS from
  /proc/self/statm, before and after, not tracemalloc) and, where the workspace
  reports it, their ``resident_bytes``; then the time per search to finish (its
  workspace freed).
- **long query**: around a wall down the middle of the map (a gap at the bottom; for
  jump point search, one cell in ten a wall too), from a quarter of the way across to
  three quarters: the blocking call against the
  same search sliced in steps of 256 (a pooled workspace), the same beyond the pool
  (a workspace of its own: hashed, moving to dense arrays past 4,096 cells), the same
  on a hashed workspace that never moves (where the build has them; the cost of the
  table's look-ups), and ten of them in flight at once, stepped in turn (six beyond
  the pool).

Each (tree, map) is measured in a fresh process, the trees alternating, so memory
starts from the same place and a loaded machine is compared side by side; *best* of
``--rounds`` rounds for the loops. ``--compare SRC`` runs another checkout's ``src``
beside this one (e.g. the main branch's build).

Usage::

    python bench/sliced_memory.py                        # writes bench/results/sliced_memory.md
    python bench/sliced_memory.py --compare ../main/src  # and main's build beside it
    python bench/sliced_memory.py --quick                # 256 and 1024, prints only
    python bench/sliced_memory.py --algorithms jps       # jump point search's rows only
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine

RESULTS = Path(__file__).resolve().parent / "results" / "sliced_memory.md"
SRC = Path(__file__).resolve().parent.parent / "src"
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: Searches in flight at once; more than this many map-sized workspaces of the old
#: kind would not fit this machine's memory, so larger K are skipped by the budget.
IN_FLIGHT = (10, 100, 1000)
#: Runs of each K, the best kept (a run of ten searches lasts tens of microseconds: a
#: loaded machine's preemptions would swamp a best of three).
RUNS = {10: 30, 100: 10, 1000: 3}
MEMORY_BUDGET = 2 * 2**30


def rss() -> int:
    """This process's resident memory in bytes (/proc/self/statm), 0 where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except OSError:
        return 0


def best_per_call(fn: Callable[[], Any], calls: int, rounds: int) -> float:
    """The fastest round's seconds per call."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def measure(n: int, rounds: int, calls: int, algorithm: str) -> dict[str, Any]:
    """Every figure for one ``n x n`` open grid and ``algorithm``, in this process."""
    from pathcraft import Grid, _sliced

    grid = Grid(np.ones((n, n)))
    a, b = (n // 2, n // 2), (n // 2, n // 2 + 1)
    search = getattr(grid, algorithm)  # the blocking call: grid.astar or grid.jps
    blocking = search(a, b)
    assert blocking.found and blocking.path.tolist() == [list(a), list(b)]
    out: dict[str, Any] = {"n": n, "algorithm": algorithm, "pathcraft": _sliced.__file__}

    def pooled() -> None:
        s = grid.start_search(a, b, algorithm=algorithm)
        s.step(1)
        s.cancel()

    pooled()

    def blocking_call() -> None:
        search(a, b)

    out["blocking_us"] = out["pooled_us"] = float("inf")
    for _ in range(2):  # alternate the two, keep the best of each
        for key, fn in (("blocking_us", blocking_call), ("pooled_us", pooled)):
            out[key] = min(out[key], best_per_call(fn, calls, rounds) * 1e6)
    ws_bytes = (n + 2) * (n + 2) * 16  # what a map-sized workspace held resident before
    for k in IN_FLIGHT:
        if k * ws_bytes * 1.3 > MEMORY_BUDGET and not _lazy():
            out[f"k{k}"] = None  # would not fit: map-sized workspaces resident
            continue
        runs = [in_flight(grid, a, b, k, blocking.cost, algorithm) for _ in range(RUNS[k])]
        out[f"k{k}"] = {key: min(run[key] for run in runs) for key in runs[0]}
    out.update(long_query(n, rounds, algorithm))
    return out


def in_flight(grid: Any, a: Any, b: Any, k: int, cost: float, algorithm: str) -> dict[str, Any]:
    """``k`` one-cell searches started and stepped once, all held, beyond the pool (its
    workspaces taken by searches held first); then each finished: per search, the
    time to start, the memory added, what the workspaces report, and the time to
    finish (the workspace freed)."""
    from pathcraft import _sliced

    _sliced.release_pooled_workspaces()
    pool = [grid.start_search(a, b, algorithm=algorithm) for _ in range(_sliced.POOL_SIZE)]
    for s in pool:
        s.step(1)
    gc.collect()
    # one beyond the pool first: its code and data warm
    warm = grid.start_search(a, b, algorithm=algorithm)
    warm.step(1)
    warm.cancel()
    before = rss()
    t0 = time.perf_counter()
    held = []
    for _ in range(k):
        s = grid.start_search(a, b, algorithm=algorithm)
        s.step(1)
        held.append(s)
    t1 = time.perf_counter()
    after = rss()
    reported = [getattr(s._ws, "resident_bytes", None) for s in held]
    t2 = time.perf_counter()
    for s in held:  # each ends (its workspace given back: the pool keeps four)
        assert s.step() == "found" and s.result.cost == cost
    t3 = time.perf_counter()
    for s in pool:
        s.cancel()
    del held, s, pool
    gc.collect()
    return {
        "start_us": (t1 - t0) / k * 1e6,
        "rss_per_search": (after - before) / k,
        "reported_per_search": -1 if None in reported else sum(reported) / k,
        "finish_us": (t3 - t2) / k * 1e6,
    }


def _lazy() -> bool:
    """Whether this build's workspaces take memory only where searches write."""
    from pathcraft._core import grid_search

    return hasattr(grid_search.Workspace, "resident_bytes")


def long_query(n: int, rounds: int, algorithm: str) -> dict[str, Any]:
    """A long query blocking and sliced (steps of 256), one alone and ten at once: from
    the left half to the right one, around a wall down the middle that leaves a gap at
    the bottom (A* fills much of the left half first). For jump point search, one cell
    in ten is a wall too (seeded), so that it meets jump points all the way."""
    from pathcraft import Grid, _sliced

    cost = np.ones((n, n))
    cost[: n - n // 8, n // 2] = np.inf
    a, b = (n // 4, n // 4), (n // 4, 3 * n // 4)
    if algorithm == "jps":  # an open map holds a handful of jump points
        cost[np.random.default_rng(1).random((n, n)) < 0.1] = np.inf
        cost[a] = cost[b] = 1.0
    grid = Grid(cost)
    search = getattr(grid, algorithm)
    blocking = search(a, b)

    def sliced() -> None:
        s = grid.start_search(a, b, algorithm=algorithm)
        while s.step(256) == "in_progress":
            pass
        assert s.result.cost == blocking.cost

    def beyond() -> None:
        pool = [grid.start_search(a, b, algorithm=algorithm) for _ in range(_sliced.POOL_SIZE)]
        for s in pool:
            s.step(0)
        sliced()
        for s in pool:
            s.cancel()

    hashed_only = _hashed_only(grid, a, b, blocking.cost, algorithm)

    def ten() -> None:
        held = [grid.start_search(a, b, algorithm=algorithm) for _ in range(10)]
        while "in_progress" in [s.step(256) for s in held]:  # each a slice in turn
            pass
        for s in held:
            assert s.result.cost == blocking.cost

    r = max(2, rounds // 2)
    best_b = best_s = best_t = best_y = best_h = float("inf")
    for _ in range(2):
        best_b = min(best_b, best_per_call(lambda: search(a, b), 3, r))
        best_s = min(best_s, best_per_call(sliced, 3, r))
        best_y = min(best_y, best_per_call(beyond, 3, r))
        if hashed_only is not None:
            best_h = min(best_h, best_per_call(hashed_only, 3, r))
        _sliced.release_pooled_workspaces()
        best_t = min(best_t, best_per_call(ten, 1, r) / 10)
    return {
        "long_expanded": blocking.expanded,
        "long_blocking_ms": best_b * 1e3,
        "long_sliced_ms": best_s * 1e3,
        "long_beyond_ms": best_y * 1e3,
        "long_hashed_ms": None if hashed_only is None else best_h * 1e3,
        "long_ten_ms": best_t * 1e3,
    }


def _hashed_only(
    grid: Any, a: Any, b: Any, cost: float, algorithm: str
) -> Callable[[], None] | None:
    """The long query sliced by 256 on a hashed workspace that never moves to dense
    arrays (None where the build has no hashed workspaces for ``algorithm``)."""
    try:
        from pathcraft._core.hashed import hashed_workspace
        from pathcraft._kernels import IN_PROGRESS
        from pathcraft._options import SearchOptions
    except ImportError:
        return None
    plan = grid._plan(SearchOptions.check_call("Grid", "start_search", algorithm, {}))

    def run() -> None:
        machine = plan.start(hashed_workspace(grid.padded.size, 2**31 - 2), a, b)
        while machine.step(256) == IN_PROGRESS:
            pass
        assert machine.result(0.0).cost == cost

    try:
        run()
    except ValueError:  # a build whose jump point search needs a dense workspace
        return None
    return run


def child(src: Path, n: int, rounds: int, calls: int, algorithm: str) -> dict[str, Any]:
    """:func:`measure` in a fresh process running the package in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, __file__, "--one", str(n), "--rounds", str(rounds)]
    args += ["--calls", str(calls), "--algorithms", algorithm]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def mb(x: float | None) -> str:
    return "-" if x is None or x < 0 else f"{x / 2**20:.3f}"


def table(results: list[tuple[str, dict[str, Any]]]) -> list[str]:
    columns = (
        "build", "algorithm", "map", "blocking us", "start+step(1) pooled us (x blocking)", "K",
        "start+step(1) beyond the pool us each (x blocking)", "RSS added MB each",
        "workspaces report MB each", "finish (workspace freed) us each",
    )  # fmt: skip
    lines = ["| " + " | ".join(columns) + " |", "|---" * len(columns) + "|"]
    for name, r in results:
        n, blk = r["n"], r["blocking_us"]
        pooled = r["pooled_us"]
        head = f"| {name} | {r['algorithm']} | {n}x{n} | {blk:.2f} | "
        head += f"{pooled:.2f} ({pooled / blk:.1f}x) "
        for k in IN_FLIGHT:
            f = r[f"k{k}"]
            if f is None:
                skipped = f"skipped: {k} map-sized workspaces would not fit"
                lines.append(head + f"| {k:,} | {skipped} | | | |")
            else:
                lines.append(
                    head + f"| {k:,} | {f['start_us']:.1f} ({f['start_us'] / blk:.1f}x) | "
                    f"{mb(f['rss_per_search'])} | {mb(f['reported_per_search'])} | "
                    f"{f['finish_us']:.1f} |"
                )
            head = "| | | | | "
    return lines


def long_table(results: list[tuple[str, dict[str, Any]]]) -> list[str]:
    columns = (
        "build", "algorithm", "map", "expanded", "blocking ms", "sliced by 256, pooled, ms (ratio)",
        "sliced beyond the pool, ms (ratio)", "hashed, never dense, ms (ratio)",
        "ten at once, ms each (ratio)",
    )  # fmt: skip
    lines = ["| " + " | ".join(columns) + " |", "|---" * len(columns) + "|"]
    for name, r in results:
        b = r["long_blocking_ms"]
        cells = [r["long_sliced_ms"], r["long_beyond_ms"], r["long_hashed_ms"], r["long_ten_ms"]]
        shown = ["-" if ms is None else f"{ms:.2f} ({ms / b:.2f})" for ms in cells]
        lines.append(
            f"| {name} | {r['algorithm']} | {r['n']}x{r['n']} | {r['long_expanded']:,} | {b:.2f} | "
            + " | ".join(shown)
            + " |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="256 and 1024 only, print")
    parser.add_argument("--compare", type=Path, help="another checkout's src to run beside")
    parser.add_argument("--sizes", type=int, nargs="*", default=None)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--algorithms", nargs="*", default=["astar", "jps"])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one, args.rounds, args.calls, args.algorithms[0])))
        return
    sizes = args.sizes or ([256, 1024] if args.quick else [256, 512, 1024, 2048])
    trees = [("this branch", SRC)]
    if args.compare is not None:
        trees.append(("compared", args.compare.resolve()))
    results = []
    for algorithm in args.algorithms:
        for n in sizes:
            for name, src in trees:
                r = child(src, n, args.rounds, args.calls, algorithm)
                results.append((name, r))
                print(name, algorithm, n, json.dumps(r), flush=True)
    lines = [*table(results), "", *long_table(results)]
    print("\n".join(lines))
    if args.quick:
        return
    compared = "" if args.compare is None else f" beside `{args.compare}` (its own build)"
    text = [
        "# What a sliced search costs to start and keep in flight",
        "",
        f"`python bench/sliced_memory.py` on {machine()}; commit {git_rev()}{compared}.",
        "",
        f"Open grids, 8-connected, {' and '.join(args.algorithms)}; the one-cell query "
        "from the centre to its right neighbour. Each build, algorithm and map in a fresh "
        "process, the builds alternating.",
        "",
        *lines,
        "",
    ]
    RESULTS.write_text("\n".join(text))
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
