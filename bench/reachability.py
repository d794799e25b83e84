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
  ``reachable`` after the edit): a wall built on a random walkable cell (carried
  over when its neighbours stay joined around it, else labelled afresh: no local
  relabelling of splits yet), and a cost changed between finite values (carried
  over).

Usage::

    python bench/reachability.py          # writes bench/results/huge_worlds.md
    python bench/reachability.py --quick  # 1024 and 2048 only, prints only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine

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


def labelling(n: int, walls: float, rounds: int) -> dict[str, float]:
    rng = np.random.default_rng(n)
    cost = np.ones((n, n))
    cost[rng.random((n, n)) < walls] = np.inf
    grid = Grid(cost)
    padded = grid.padded
    flat = np.empty(padded.size, np.int32)
    queue = np.empty(padded.size, np.intp)
    full = best_of(lambda: label(padded, False, flat, queue), rounds)[0]
    free = np.argwhere(np.isfinite(cost))
    a, b = (tuple(int(x) for x in free[i]) for i in (0, -1))
    grid.components()
    out = {"full": full}
    for kind, value in (("wall", np.inf), ("cost", 2.0)):
        edits = []
        for _ in range(rounds):
            r, c = (int(x) for x in free[1 + rng.integers(len(free) - 2)])  # not a or b
            grid[r, c] = value  # not timed: the assignment's own cost is the grid's
            t0 = time.perf_counter()
            grid.reachable(a, b)  # what the next query pays: the labels of the new cells
            edits.append(time.perf_counter() - t0)
            grid[r, c] = 1.0
            grid.components()
        out[kind] = min(edits)
        out[kind + " max"] = max(edits)
    out["count"] = grid.components()[1]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1024 and 2048 only, print only")
    args = parser.parse_args()
    sides = (1024, 2048) if args.quick else (1024, 2048, 4096)
    lines = [
        "# Huge worlds: reachability",
        "",
        f"`python bench/reachability.py` on {machine()}; commit {git_rev()}.",
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
        "fastest of 5), and what the next query pays after one edit of a random "
        "walkable cell (`reachable` after the edit; fastest and slowest of 5): *a wall* "
        "(carried over when the cell's walkable neighbours stay joined through the 8 "
        "cells around it, else labelled afresh into new arrays: no local relabelling "
        "of splits yet) and *a cost* (2.0 instead of 1.0: carried over), in "
        "milliseconds.",
        "",
        "| n | walls | components | full labelling ms | after a wall ms (slowest) "
        "| wall / full | after a cost ms | cost / full |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in sides:
        for walls in (0.0, 0.3):
            t = labelling(n, walls, 5)
            lines.append(
                f"| {n} | {walls:.0%} | {t['count']:.0f} | {t['full'] * 1e3:.1f} | "
                f"{t['wall'] * 1e3:.3f} ({t['wall max'] * 1e3:.1f}) | "
                f"{t['wall'] / t['full']:.4f}x | "
                f"{t['cost'] * 1e3:.3f} | {t['cost'] / t['full']:.4f}x |"
            )
            print(lines[-1], flush=True)
    if not args.quick:
        RESULTS.write_text("\n".join(lines) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
