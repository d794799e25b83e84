"""Replanning after the map changes: D* Lite (``grid.replanner``) against A* and JPS
from scratch, per change, on Moving AI maps.

An agent walks a long scenario of each map along its current optimal path. Every
``--every`` steps the script changes the map, one kind of change per run:

- **door ahead**: a 3x3 block of wall lands on the path 8 cells ahead of the agent;
- **wall opens beside**: a wall cell within 3 cells of the agent opens (none: skipped);
- **random toggles**: 5 cells anywhere on the map flip (wall <-> floor).

After each change the three planners answer from the agent's cell: the replanner
(``move_to`` for each step walked, then ``path()``: taking in the edits, the repair
and the path), a fresh ``grid.astar`` and a fresh ``grid.jps``. Every answer's cost is
checked against A*'s. Reported per map and kind: mean and median microseconds per
change, expansions per change (D* Lite's repair; A*'s and JPS's whole searches), and
the ratio of A*'s (and JPS's) mean time to D* Lite's. A first row per map gives the
initial search (D* Lite from nothing, against one A*).

Usage::

    python bench/replan.py            # writes bench/results/replan.md (~1 min)
    python bench/replan.py --quick    # one map, prints only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load, tolerance_ok

from pathcraft import Grid

MAPS = ("dao/den520d", "dao/brc202d", "room/32room_000", "random/random512-40-0")
KINDS = {"door": "door ahead", "beside": "wall opens beside", "random": "random toggles"}


def change(grid: Grid, kind: str, path: np.ndarray, at: int, pos: tuple, goal: tuple,
           rng: Any) -> int:  # fmt: skip
    """Apply one change of ``kind``; return how many cells changed."""
    rows, cols = grid.shape
    keep = {pos, goal}
    cells: list[tuple[int, int]] = []
    if kind == "door":
        r, c = (int(x) for x in path[min(at + 8, len(path) - 2)])
        cells = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        cells = [x for x in cells if 0 <= x[0] < rows and 0 <= x[1] < cols]
        value = np.inf
    elif kind == "beside":
        r, c = pos
        lo_r, lo_c = max(r - 3, 0), max(c - 3, 0)
        near = np.argwhere(~grid.walkable[lo_r : r + 4, lo_c : c + 4]) + np.array([lo_r, lo_c])
        if len(near):
            cells = [tuple(int(x) for x in near[rng.integers(len(near))])]
        value = 1.0
    else:
        cells = [tuple(int(x) for x in rng.integers(0, (rows, cols))) for _ in range(5)]
    n = 0
    for cell in cells:
        if cell in keep:
            continue
        if kind == "random":
            value = 1.0 if np.isinf(grid[cell]) else np.inf
        if grid[cell] != value:
            grid[cell] = value
            n += 1
    return n


def run(walk: np.ndarray, start: tuple, goal: tuple, kind: str, every: int, changes: int,
        seed: int) -> dict[str, list[float]]:  # fmt: skip
    grid = Grid.from_walkable(walk)
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {k: [] for k in ("d", "a", "j", "dx", "ax", "jx", "d0", "a0")}
    t0 = time.perf_counter()
    plan = grid.replanner(start, goal)
    result = plan.path()
    out["d0"].append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    grid.astar(start, goal)
    out["a0"].append(time.perf_counter() - t0)
    pos = start
    path = result.path
    for _ in range(changes):
        if len(path) <= every + 10:
            break
        moved = [tuple(int(x) for x in cell) for cell in path[1 : every + 1]]
        pos = moved[-1]
        if change(grid, kind, path, every, pos, goal, rng) == 0:
            for cell in moved:  # nothing changed: the agent still walks its path
                plan.move_to(cell)
            path = path[every:]
            continue
        t0 = time.perf_counter()
        for cell in moved:
            plan.move_to(cell)
        result = plan.path()
        t1 = time.perf_counter()
        fresh = grid.astar(pos, goal)
        t2 = time.perf_counter()
        jump = grid.jps(pos, goal)
        t3 = time.perf_counter()
        for name, other in (("D* Lite", result), ("JPS", jump)):
            if bool(other) != bool(fresh) or (fresh and not tolerance_ok(other.cost, fresh.cost)):
                raise AssertionError(f"{name} {pos}->{goal}: {other.cost} != A* {fresh.cost}")
        out["d"].append(t1 - t0)
        out["a"].append(t2 - t1)
        out["j"].append(t3 - t2)
        out["dx"].append(result.expanded)
        out["ax"].append(fresh.expanded)
        out["jx"].append(jump.expanded)
        if not result:
            break
        path = result.path
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--scenarios", type=int, default=3, help="scenarios per map")
    p.add_argument("--every", type=int, default=10, help="steps walked between changes")
    p.add_argument("--changes", type=int, default=40, help="changes per scenario at most")
    args = p.parse_args(argv)
    maps = MAPS[:1] if args.quick else MAPS
    rows: list[str] = []
    for name in maps:
        data = load(name)
        order = np.argsort(data.optimal)[::-1][: 40 * args.scenarios : 40]
        first: dict[str, list[float]] = {"d0": [], "a0": []}
        for kind, label in KINDS.items():
            acc: dict[str, list[float]] = {}
            for k, i in enumerate(order):
                s = tuple(int(x) for x in data.starts[i])
                g = tuple(int(x) for x in data.goals[i])
                out = run(data.walkable, s, g, kind, args.every, args.changes, seed=k)
                for key, values in out.items():
                    acc.setdefault(key, []).extend(values)
            if kind == "door":
                first = {"d0": acc["d0"], "a0": acc["a0"]}
            if not acc["d"]:
                continue
            d, a, j = (np.asarray(acc[x]) * 1e6 for x in ("d", "a", "j"))
            md, ma, mj = np.median(d), np.median(a), np.median(j)
            rows.append(
                f"| {name} | {label} | {len(d)} | {md:.0f} | {ma:.0f} | {mj:.0f} | "
                f"{d.mean():.0f} | {a.mean():.0f} | {j.mean():.0f} | "
                f"{statistics.fmean(acc['dx']):.0f} | {statistics.fmean(acc['ax']):.0f} | "
                f"{statistics.fmean(acc['jx']):.0f} | "
                f"{ma / md:.1f}x ({a.mean() / d.mean():.1f}x) | "
                f"{mj / md:.1f}x ({j.mean() / d.mean():.1f}x) |"
            )
            print(rows[-1], flush=True)
        d0, a0 = (np.asarray(first[x]) * 1e6 for x in ("d0", "a0"))
        md0, ma0 = np.median(d0), np.median(a0)
        rows.append(
            f"| {name} | *first search (no change)* | {len(d0)} | {md0:.0f} | {ma0:.0f} | | "
            f"{d0.mean():.0f} | {a0.mean():.0f} | | | | | "
            f"{ma0 / md0:.1f}x ({a0.mean() / d0.mean():.1f}x) | |"
        )
        print(rows[-1], flush=True)
    if args.quick:
        return
    head = [
        "# Replanning after a change: D* Lite against A* and JPS from scratch",
        "",
        f"`python bench/replan.py` on {machine()}; commit {git_rev()}.",
        "",
        f"An agent walks a long scenario ({args.scenarios} per map, 8-connected, no corner "
        f"cutting) along its current optimal path; every {args.every} steps the map changes "
        f"(at most {args.changes} changes per scenario; the run ends when the goal is cut "
        "off). Times in microseconds per change: D* Lite is the replanner's `move_to` for "
        "each step walked plus `path()` (taking in the edits, the repair, the path); A* and "
        "JPS are one search from the agent's cell. Expansions: D* Lite's repair, the other "
        "two's whole search. Every answer's cost is checked against A*'s. Speed-up: the "
        "other planner's median time over D* Lite's, and in brackets the same for the "
        "means (above 1: D* Lite is faster). JPS pays for its jump tables again after "
        "every change (they are rebuilt on first use).",
        "",
        "| map | change | changes | D* Lite median µs | A* median µs | JPS median µs | "
        "D* Lite mean µs | A* mean µs | JPS mean µs | D* Lite exp. | A* exp. | JPS exp. | "
        "D* Lite vs A* | D* Lite vs JPS |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Where D* Lite loses or gains little: its first search (a search from the goal "
        "with D* Lite's bookkeeping: A* is up to 3x faster), changes that raise the "
        "distances of a large region (the doors on random512-40-0 soon wall the agent "
        "in, after 5 changes: D* Lite must re-expand every cell whose distance rose, "
        "more cells than JPS expands, and its lead there is the smallest and varies "
        "most from run to run), and the means, which carry the outliers of a shared "
        "2-core machine (a repair that reaches far, or a scheduling hiccup): by the mean "
        "D* Lite is 1.8x to 41x faster than A* per change where the median says 5x to 105x.",
        "",
    ]
    (RESULTS / "replan.md").write_text("\n".join(head))
    print(f"wrote {RESULTS / 'replan.md'}")


if __name__ == "__main__":
    main()
