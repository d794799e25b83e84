"""What one grid query costs when the search itself is nothing: a start next to its goal.

Every call goes through Python: ``Grid.find_path`` (and ``astar``, ``jps``,
``path_cost``) with the cells as ``(row, col)`` tuples, on a 64 x 64 open grid. Two ways
are timed in the same process, interleaved:

- *lean*: the public call as shipped (a prepared plan per grid and option set,
  ``pathcraft._core.quick``);
- *checked*: the way every call went before the plans, still the path for what a plan
  does not take (``record``, cells given as arrays): ``SearchOptions.check`` then
  the one cell-world glue over the grid's adapter without plans
  (``_cellworld.query(GridCells(grid), ...)``: cells checked by ``cell_indices``,
  settings as a keyword dictionary, the kernel's ``search``/``jps`` entry,
  ``build_result``).

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
from pathcraft._cellworld import query
from pathcraft._options import SearchOptions
from pathcraft.grid._run import GridCells

RESULTS = Path(__file__).resolve().parent / "results" / "call_overhead.md"
REPO_SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "movingai"


def checked(grid: Grid, start: Any, goal: Any, algorithm: str, **options: Any) -> Any:
    """The checked way: what ``Grid.find_path`` did for every call before plans."""
    t0 = time.perf_counter()
    opts = SearchOptions.check("Grid", algorithm, **options)
    return query(GridCells(grid), opts, start, goal, t0)


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


def prepare_rows(folder: Path) -> list[str]:
    """Jump point search's per-map preparation on three Moving AI maps: inside the
    first query, by ``prepare("jps")``, and loaded with a saved grid (milliseconds,
    the fastest of three)."""
    import io as _io

    from pathcraft.io import load, read_map, save

    out = [
        "",
        "## Jump point search's per-map preparation (ms, fastest of 3)",
        "",
        "*first query*: the first `jps` call on a fresh grid (it builds the packed "
        "lines); *prepare*: `grid.prepare(\"jps\")`; *first after prepare*: the same "
        "query then; *load*: `pathcraft.io.load` of the saved grid without / with the "
        "tables (with them the grid is ready: checked, not rebuilt).",
        "",
        "| map | first query | prepare | first after prepare | load | load with tables |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in ("den520d", "Boston_0_512", "TheFrozenSea"):
        found = sorted(folder.glob(f"maps/**/{name}.map"))
        if not found:
            continue
        best: dict[str, float] = {}
        for _ in range(3):
            grid = read_map(found[0])
            free = np.argwhere(grid.walkable)
            s, g = (tuple(int(x) for x in free[i]) for i in (0, 1))
            ready = read_map(found[0])
            plain, tables = _io.BytesIO(), _io.BytesIO()
            save(grid, plain)
            marks = {"first": time.perf_counter()}
            grid.jps(s, g)
            marks["prepare"] = time.perf_counter()
            ready.prepare("jps")
            marks["after"] = time.perf_counter()
            ready.jps(s, g)
            marks["end"] = time.perf_counter()
            save(ready, tables)
            t0 = time.perf_counter()
            load(_io.BytesIO(plain.getvalue()))
            t1 = time.perf_counter()
            load(_io.BytesIO(tables.getvalue()))
            t2 = time.perf_counter()
            times = {
                "first": marks["prepare"] - marks["first"],
                "prepare": marks["after"] - marks["prepare"],
                "after": marks["end"] - marks["after"],
                "load": t1 - t0,
                "tables": t2 - t1,
            }
            for key, value in times.items():
                best[key] = min(best.get(key, np.inf), value * 1e3)
        keys = ("first", "prepare", "after", "load", "tables")
        out.append(f"| {name} | " + " | ".join(f"{best[k]:.2f}" for k in keys) + " |")
    return out


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
    parser.add_argument(
        "--movingai",
        type=Path,
        default=Path(os.environ.get("PATHCRAFT_MOVINGAI", REPO_SHARED)),
        help="the Moving AI folder (maps/, scen/) for the preparation table",
    )
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
        "(see the script's docstring); *lean / checked*: the ratio of the best rounds. "
        "For the record, the public `find_path` at commit 38e109a (before the plans) "
        "took 15.9 us (astar), 15.2 us (dijkstra) and 21.1 us (jps) per call here, "
        "best of 5 x 20,000 (load 0.6).",
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
    if args.movingai.is_dir():
        lines += prepare_rows(args.movingai)
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
