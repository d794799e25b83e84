"""What one grid query costs when the search itself is nothing: a start next to its goal.

Every call goes through Python: ``Grid.find_path`` (and ``astar``, ``jps``,
``path_cost``) with the cells as ``(row, col)`` tuples, on a 64 x 64 open grid. Two ways
are timed in the same process, interleaved:

- *lean*: the public call as shipped (a prepared plan per grid and option set,
  ``pathcraft._core.quick``);
- *checked*: the way every call went before the plans, still the path for what a plan
  does not take (``record``, cells given as arrays): ``SearchOptions.check`` then
  ``grid._queries.find_path`` (cells checked by ``cell_indices``, settings as a keyword
  dictionary, the kernel's ``search``/``jps`` entry, ``build_result``).

Each row times ``--calls`` calls per round, ``--rounds`` rounds; *best* is the fastest
round's time per call (this VM's CPU switches between two speeds about 1.8x apart, so
the fastest is the steadiest figure), *median* the median round.

Usage::

    python bench/call_overhead.py            # writes bench/results/call_overhead.md
    python bench/call_overhead.py --quick    # prints only
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine

import pathcraft
from pathcraft import Grid
from pathcraft._options import SearchOptions
from pathcraft.grid import _queries

RESULTS = Path(__file__).resolve().parent / "results" / "call_overhead.md"


def checked(grid: Grid, start: Any, goal: Any, algorithm: str, **options: Any) -> Any:
    """The checked way: what ``Grid.find_path`` did for every call before plans."""
    t0 = time.perf_counter()
    opts = SearchOptions.check("Grid", algorithm, **options)
    return _queries.find_path(grid, opts, start, goal, t0)


def rows(grid: Grid) -> list[tuple[str, Callable[[], Any], Callable[[], Any] | None]]:
    a, b = (5, 5), (5, 6)
    return [
        ("find_path astar", lambda: grid.find_path(a, b), lambda: checked(grid, a, b, "astar")),
        (
            "find_path dijkstra",
            lambda: grid.find_path(a, b, algorithm="dijkstra"),
            lambda: checked(grid, a, b, "dijkstra"),
        ),
        (
            "find_path greedy",
            lambda: grid.find_path(a, b, algorithm="greedy"),
            lambda: checked(grid, a, b, "greedy"),
        ),
        (
            "find_path jps",
            lambda: grid.find_path(a, b, algorithm="jps"),
            lambda: checked(grid, a, b, "jps"),
        ),
        (
            "find_path astar, weight=1.5",
            lambda: grid.find_path(a, b, weight=1.5),
            lambda: checked(grid, a, b, "astar", weight=1.5),
        ),
        ("astar()", lambda: grid.astar(a, b), None),
        ("jps(fill=False)", lambda: grid.jps(a, b, fill=False), None),
        ("path_cost astar", lambda: grid.path_cost(a, b), None),
        ("path_cost jps", lambda: grid.path_cost(a, b, algorithm="jps"), None),
    ]


def time_call(fn: Callable[[], Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="fewer calls, print only")
    args = parser.parse_args()
    calls = 3000 if args.quick else args.calls
    load0 = os.getloadavg()[0]
    grid = Grid(np.ones((64, 64)))
    table = rows(grid)
    times: dict[tuple[str, str], list[float]] = {}
    for _, lean, old in table:  # warm up: plans made, workspaces grown
        lean()
        if old is not None:
            old()
    for _ in range(args.rounds):
        for name, lean, old in table:
            times.setdefault((name, "lean"), []).append(time_call(lean, calls))
            if old is not None:
                times.setdefault((name, "checked"), []).append(time_call(old, calls))
    load1 = os.getloadavg()[0]
    lines = [
        "# One grid query's fixed cost: the call, the checks, the result",
        "",
        f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f} (a machine "
        "shared by seven sessions: ratios in the same run are steadier than times)",
        f"- Versions: pathcraft {pathcraft.__version__} (git {git_rev()}), numpy {np.__version__}",
        f"- Command: `python {' '.join(['bench/call_overhead.py', *sys.argv[1:]])}`",
        "",
        "Start `(5, 5)`, goal `(5, 6)` on a 64 x 64 grid of ones, cells as tuples; "
        f"{calls} calls per round, {args.rounds} rounds. Microseconds per call: *best* "
        "round and *median* round. *checked*: the way every call went before the plans "
        "(see the script's docstring); *lean / checked*: the ratio of the best rounds.",
        "",
        "| call | lean best us | lean median us | checked best us | checked median us "
        "| lean / checked |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, _, old in table:
        lean_t = times[(name, "lean")]
        cells = [f"{min(lean_t) * 1e6:.2f}", f"{statistics.median(lean_t) * 1e6:.2f}"]
        if old is not None:
            old_t = times[(name, "checked")]
            cells += [
                f"{min(old_t) * 1e6:.2f}",
                f"{statistics.median(old_t) * 1e6:.2f}",
                f"{min(lean_t) / min(old_t):.3f}",
            ]
        else:
            cells += ["-", "-", "-"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
