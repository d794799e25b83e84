"""Reachability on huge grids (issue 32): what an unreachable goal costs, and the labels.

- **repro**: the issue's map (an open ``n x n`` grid, one open cell walled in by a
  ring at its centre), three queries timed in interleaved rounds: a *one-cell* query
  (a start next to its goal, the call is everything), the walled-in goal *before*
  (the same prepared plan without labels: every reachable cell searched, as every
  query did before the labels) and *after* (the grid's own call once its labels are
  built: one read of two labels). Every answer is checked inside the rounds.
- **labels**: the time of one full labelling
  (:func:`pathcraft._core.components.label`) of ``n x n`` grids, open and with 30 %
  random walls, and what keeping them current after one local edit costs (the next
  ``reachable`` after the edit): a wall built on a random walkable cell and opened
  again (each repaired locally by floods from its neighbours, bounded by the smaller
  side of a split or a join), and the worst case, a door closed and opened in a
  wall across the map.

Usage::

    python bench/reachability.py          # writes bench/results/huge_worlds.md
    python bench/reachability.py --quick  # 1024 and 2048 only, prints only
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine, write_section

from pathcraft import Grid
from pathcraft._core.components import label
from pathcraft._options import SearchOptions
from pathcraft.grid._run import make_plan

RESULTS = Path(__file__).resolve().parent / "results" / "huge_worlds.md"


def island(n: int) -> Grid:
    """The issue's repro map."""
    cost = np.ones((n, n))
    mid = n // 2
    cost[mid - 1 : mid + 2, mid - 1 : mid + 2] = np.inf
    cost[mid, mid] = 1.0
    return Grid(cost)


def best_of(call: object, rounds: int) -> tuple[float, float]:
    """The fastest and the median time of ``rounds`` calls, in seconds."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def repro(n: int, rounds: int, before: bool) -> dict[str, float]:
    grid = island(n)
    mid = n // 2
    plain = make_plan(grid, SearchOptions.check("Grid", "astar"))  # no labels: floods
    assert plain is not None
    grid.prepare("components")

    def one() -> None:
        assert grid.astar((5, 5), (5, 6)).found

    def flood() -> None:
        r = plain.find((0, 0), (mid, mid), time.perf_counter())
        assert r is not None and r.reason == "unreachable" and r.expanded == n * n - 9

    def labelled() -> None:
        r = grid.astar((0, 0), (mid, mid))
        assert r.reason == "unreachable" and r.expanded == 0

    calls = 200
    t_one: list[float] = []
    t_after: list[float] = []
    t_before: list[float] = []
    for _ in range(rounds):  # interleaved
        t_one.append(best_of(one, calls)[0])
        t_after.append(best_of(labelled, calls)[0])
        if before:
            t_before.append(best_of(flood, 1)[0])
    out = {"one": min(t_one), "after": min(t_after)}
    if before:
        out["before"] = min(t_before)
    return out


def labelling(n: int, walls: float, rounds: int, edits: int) -> dict[str, float]:
    rng = np.random.default_rng(n)
    cost = np.ones((n, n))
    cost[rng.random((n, n)) < walls] = np.inf
    grid = Grid(cost)
    padded = grid.padded
    flat = np.empty(padded.size, np.int32)
    queue = np.empty(padded.size, np.intp)
    full = sorted(best_of(lambda: label(padded, False, flat, queue), 1)[0] for _ in range(rounds))
    free = np.argwhere(np.isfinite(cost))
    a, b = (tuple(int(x) for x in free[i]) for i in (0, -1))
    grid.components()
    walled, opened = [], []
    for _ in range(edits):
        r, c = (int(x) for x in free[1 + rng.integers(len(free) - 2)])  # not a or b
        for value, times in ((np.inf, walled), (1.0, opened)):
            grid[r, c] = value  # not timed: the assignment's own cost is the grid's
            t0 = time.perf_counter()
            grid.reachable(a, b)  # what the next query pays: the labels of the new cells
            times.append(time.perf_counter() - t0)
    labels, count = grid.components()
    check, _ = Grid(grid.cost).components()  # labelled afresh: the same partition
    assert count == _ == int(flat.max()) + 1
    pairs = np.unique(np.stack([labels.ravel(), check.ravel()]), axis=1)
    assert len(set(pairs[0])) == len(set(pairs[1])) == pairs.shape[1]  # one-to-one
    return {
        "full": statistics.median(full),
        "count": count,
        "wall": statistics.median(walled),
        "wall max": max(walled),
        "open": statistics.median(opened),
        "open max": max(opened),
    }


def labelling_time(n: int) -> float:
    """The median of 5 full labellings of the open ``n x n`` grid."""
    padded = Grid(np.ones((n, n))).padded
    flat = np.empty(padded.size, np.int32)
    queue = np.empty(padded.size, np.intp)
    return statistics.median(
        best_of(lambda: label(padded, False, flat, queue), 1)[0] for _ in range(5)
    )


def door(n: int, rounds: int) -> dict[str, float]:
    """The worst case of a local repair: a wall across the map, and its one door
    closed and opened again (each side is half the map)."""
    cost = np.ones((n, n))
    cost[:, n // 2] = np.inf
    cost[n // 2, n // 2] = 1.0
    grid = Grid(cost)
    grid.components()
    closed, opened = [], []
    for _ in range(rounds):
        for value, times in ((np.inf, closed), (1.0, opened)):
            grid[n // 2, n // 2] = value
            t0 = time.perf_counter()
            grid.reachable((0, 0), (0, 1))
            times.append(time.perf_counter() - t0)
    return {"close": statistics.median(closed), "open": statistics.median(opened)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1024 and 2048 only, print only")
    args = parser.parse_args()
    sides = (1024, 2048) if args.quick else (1024, 2048, 4096)
    lines = [
        "# Huge worlds: reachability",
        "",
        f"`python bench/reachability.py` on {machine()}; commit {git_rev()}; load average "
        f"{os.getloadavg()[0]:.1f} when it began (a shared machine: the slowest edits "
        "include the scheduler's stalls).",
        "",
        "The issue's repro (an open n x n grid, one cell walled in at its centre): a "
        "one-cell query, the walled-in goal searched without labels (*before*: every "
        "reachable cell expanded) and with them (*after*, the grid's own `astar`). "
        "Fastest of 5 interleaved rounds (200 calls each for the quick queries, one for "
        "the flood), in microseconds.",
        "",
        "| n | one-cell µs | before µs | after µs | before / one-cell | after / one-cell |",
        "|---|---|---|---|---|---|",
    ]
    for n in sides:
        t = repro(n, 5, before=n <= 2048)
        before = t.get("before")
        b = f"{before * 1e6:.0f}" if before else "not run"
        br = f"{before / t['one']:.0f}x" if before else "-"
        lines.append(
            f"| {n} | {t['one'] * 1e6:.2f} | {b} | {t['after'] * 1e6:.2f} | {br} | "
            f"{t['after'] / t['one']:.2f}x |"
        )
        print(lines[-1], flush=True)
    lines += [
        "",
        "Labelling: one full pass (`components.label` into arrays allocated once, "
        "median of 5), and what keeping the labels current costs: the next query "
        "(`reachable`) after one edit, median and slowest of 200 random walkable cells "
        "each walled (*a wall*: a local repair, floods from its neighbours stopped once "
        "at most one side is left) and opened again (*an opening*: the smaller sides of "
        "a join relabelled), in milliseconds. The labels after all the edits are checked "
        "against a fresh labelling.",
        "",
        "| n | walls | components | full labelling ms | after a wall ms (slowest) "
        "| wall / full | after an opening ms (slowest) | opening / full |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in sides:
        for walls in (0.0, 0.3, 0.4):
            t = labelling(n, walls, 5, 200)
            lines.append(
                f"| {n} | {walls:.0%} | {t['count']:.0f} | {t['full'] * 1e3:.1f} | "
                f"{t['wall'] * 1e3:.3f} ({t['wall max'] * 1e3:.1f}) | "
                f"{t['wall'] / t['full']:.4f}x | "
                f"{t['open'] * 1e3:.3f} ({t['open max'] * 1e3:.1f}) | "
                f"{t['open'] / t['full']:.4f}x |"
            )
            print(lines[-1], flush=True)
    lines += [
        "",
        "The worst case of a local repair: a wall across the open map with one door, "
        "closed and opened (both sides half the map: the floods cover them), median of "
        "5, in milliseconds.",
        "",
        "| n | close the door ms | open it ms | full labelling ms |",
        "|---|---|---|---|",
    ]
    for n in sides:
        t = door(n, 5)
        full = labelling_time(n)
        lines.append(f"| {n} | {t['close'] * 1e3:.1f} | {t['open'] * 1e3:.1f} | {full * 1e3:.1f} |")
        print(lines[-1], flush=True)
    if not args.quick:
        write_section(RESULTS, "Reachability", "\n".join(lines[1:]), "# Huge worlds")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
