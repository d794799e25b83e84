"""Flow fields on a changing map: the local repair of a ``FlowField`` against a fresh
field per change, on Moving AI maps.

One goal per map (the goal of a long scenario); a ``FlowField`` to it. Each change is
one of:

- **door near the goal**: a 3x3 block of wall closes on floor 6 to 12 steps from the
  goal (a change whose region below it in the shortest-path tree is large), then
  opens again at the next change;
- **door far from the goal**: the same at a cell among the 10% farthest from the goal
  (little lies below it);
- **random toggles**: 5 cells anywhere flip (wall <-> floor).

After each change: the repair (``flow.update()``: asking the grid what changed, the
compiled repair of the distances, the tree and the next cells), then the peers in the
same process: a fresh ``FlowField(grid, goal)`` (distance field, tree, next cells) and
a fresh ``grid.distance_field(goal)`` alone (the distances only: a lower bound on any
fresh field). The repaired distances are checked against the fresh ones (1e-9
relative) and the next cells for equality after every change.

Usage::

    python bench/flowfield_repair.py           # writes bench/results/flowfield_repair.md
    python bench/flowfield_repair.py --quick   # one map, prints only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load

from pathcraft import Grid
from pathcraft.agents import FlowField

MAPS = ("dao/den520d", "dao/brc202d", "room/32room_000", "random/random512-40-0")
KINDS = ("near", "far", "random")


def door(grid: Grid, centre: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
    """The floor cells of the 3x3 block around ``centre`` (not the goal)."""
    rows, cols = grid.shape
    r, c = centre
    block = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    return [
        x for x in block
        if 0 <= x[0] < rows and 0 <= x[1] < cols and x != goal and np.isfinite(grid[x])
    ]  # fmt: skip


def changes(grid: Grid, flow: FlowField, goal: tuple[int, int], kind: str, n: int, rng: Any):
    """Yield ``(label, apply)`` for ``n`` changes of ``kind``; ``apply()`` edits the grid."""
    dist = flow.distance.copy()
    finite = np.isfinite(dist)
    if kind == "random":
        rows, cols = grid.shape
        for _ in range(n):
            cells = [tuple(int(x) for x in rng.integers(0, (rows, cols))) for _ in range(5)]

            def toggle(cells: list[tuple[int, int]] = cells) -> None:
                for cell in cells:
                    if cell != goal:
                        grid[cell] = 1.0 if np.isinf(grid[cell]) else np.inf

            yield "random toggles (5 cells)", toggle
        return
    if kind == "near":
        pool = np.argwhere(finite & (dist >= 6) & (dist <= 12))
        where = "near the goal"
    else:
        pool = np.argwhere(finite & (dist >= np.quantile(dist[finite], 0.9)))
        where = "far from the goal"
    for _ in range(n // 2):
        centre = tuple(int(x) for x in pool[rng.integers(len(pool))])
        cells = door(grid, centre, goal)

        def close(cells: list[tuple[int, int]] = cells) -> None:
            for cell in cells:
                grid[cell] = np.inf

        def reopen(cells: list[tuple[int, int]] = cells) -> None:
            for cell in cells:
                grid[cell] = 1.0

        yield f"door closes {where}", close
        yield f"door opens {where}", reopen


def ratio(x: float) -> str:
    """A speed-up, with a decimal below 10."""
    return f"{x:.1f}x" if x < 10 else f"{x:.0f}x"


def run(name: str, n: int, seed: int) -> list[str]:
    data = load(name)
    i = int(np.argsort(data.optimal)[::-1][0])  # the longest scenario's goal
    goal = tuple(int(x) for x in data.goals[i])
    rng = np.random.default_rng(seed)
    rows = []
    for kind in KINDS:
        grid = Grid.from_walkable(data.walkable)
        flow = FlowField(grid, goal)
        acc: dict[str, dict[str, list[float]]] = {}
        for label, apply in changes(grid, flow, goal, kind, n, rng):
            apply()
            t0 = time.perf_counter()
            flow.update()
            t1 = time.perf_counter()
            fresh = FlowField(grid, goal)
            t2 = time.perf_counter()
            grid.distance_field(goal)
            t3 = time.perf_counter()
            got, want = flow.distance, fresh.distance
            same = np.array_equal(np.isinf(got), np.isinf(want)) and np.allclose(
                got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-9
            )
            if not same or not np.array_equal(flow.next_cell, fresh.next_cell):
                raise AssertionError(f"{name} {label}: the repaired field differs")
            assert flow.last_repair is not None
            row = acc.setdefault(label, {"r": [], "f": [], "d": [], "x": [], "c": []})
            row["r"].append(t1 - t0)
            row["f"].append(t2 - t1)
            row["d"].append(t3 - t2)
            row["x"].append(flow.last_repair[2])
            row["c"].append(flow.last_repair[1])
        for label, row in acc.items():
            r, f, d = (np.asarray(row[k]) * 1e6 for k in ("r", "f", "d"))
            mr, mf, md = np.median(r), np.median(f), np.median(d)
            rows.append(
                f"| {name} | {label} | {len(r)} | {mr:.0f} | {mf:.0f} | {md:.0f} | "
                f"{r.mean():.0f} | {f.mean():.0f} | {np.mean(row['c']):.0f} | "
                f"{np.mean(row['x']):.0f} | {ratio(mf / mr)} ({ratio(f.mean() / r.mean())}) | "
                f"{ratio(md / mr)} ({ratio(d.mean() / r.mean())}) |"
            )
            print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--changes", type=int, default=30, help="changes per map and kind")
    args = p.parse_args(argv)
    rows: list[str] = []
    for k, name in enumerate(MAPS[:1] if args.quick else MAPS):
        rows += run(name, args.changes, seed=k)
    if args.quick:
        return
    text = [
        "# Flow fields on a changing map: local repair against a fresh field",
        "",
        f"`python bench/flowfield_repair.py` on {machine()}; commit {git_rev()}.",
        "",
        "One goal per map (the longest scenario's), 8-connected, no corner cutting; "
        f"{args.changes} changes per map and kind, each followed by the repair "
        "(`flow.update()`: the grid's change log, the compiled repair of distances, tree "
        "and next cells) and, in the same process, a fresh `FlowField` and a fresh "
        "`grid.distance_field` alone (distances only, no next cells: less than any fresh "
        "flow field costs). Every repaired field was checked against the fresh one "
        "(distances to 1e-9, next cells equal). Times in microseconds per change. "
        "Dropped: cells whose distance the change could have raised (invalidated and "
        "settled again); expanded: cells the repair's Dijkstra wave settled. Speed-up: "
        "the fresh time over the repair's, medians (means in brackets).",
        "",
        "| map | change | changes | repair median µs | fresh FlowField median µs | "
        "fresh distance_field median µs | repair mean µs | fresh FlowField mean µs | "
        "dropped | expanded | vs fresh FlowField | vs fresh distance_field |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Where the repair gains little or loses: a change whose region below it in the "
        "shortest-path tree is most of the map. On random512-40-0 a door 6 to 12 steps "
        "from the goal cuts off most of the reachable map (69,000 cells dropped and "
        "settled again, or re-settled by the wave when it opens): the repair is then "
        "slower than a fresh `distance_field` alone (about 0.5x) and only 1.4x to 1.9x "
        "faster than a fresh `FlowField` (whose tree and next cells cost 2 to 3 times "
        "the distances). Where little lies below the change (doors far from the goal, "
        "most toggles) a repair costs 95 to 280 µs whatever the map (about 30 µs of it "
        "is `grid.changes_since`), 60x to 520x below a fresh FlowField by the median; the "
        "means carry the few large repairs and a shared 2-core machine's hiccups.",
        "",
    ]
    (RESULTS / "flowfield_repair.md").write_text("\n".join(text))
    print(f"wrote {RESULTS / 'flowfield_repair.md'}")


if __name__ == "__main__":
    main()
