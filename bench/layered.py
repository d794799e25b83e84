"""Layered levels: the compiled layered kernel (pathcraft.layered.Level) against the
generic pure-Python search (pathcraft.search) on the same four-floor level.

Run on purpose, not in CI::

    python bench/layered.py            # ~1.5 minutes; writes bench/results/layered.md
    python bench/layered.py --quick    # smoke run, nothing written

The level: four Moving AI maps cropped to 256 x 256 and stacked (den520d, Berlin_0_256,
32room_000, random512-10-0; 8-connected, no corner cutting), floor i joined to floor
i + 1 by 6 two-way staircases (cost 5) at random cells walkable on both floors, plus 4
one-way drops (cost 0) from floor 3 down to floor 0. Queries: random pairs with the start
on floor 0 and the goal on floor 3, both in the region the first start reaches (seeded).

The generic search gets ``Level.neighbors`` (a dict of ``(cell, cost)`` lists built
from it before any timing, so both see the same moves) and, for A*, the same portal
heuristic written in Python (the per-goal portal bounds computed before its timer
starts); each answer's cost is checked equal. Per query the two are interleaved and
each timed once; the table reports the medians and the ratio of the medians (generic /
compiled). tcod cannot express portals between floors (its pathfinders take one 2-D or
n-D cost array with fixed neighbours) and is not compared.
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from _machine import cpu_model, git_rev, movingai_dir

from pathcraft import Grid
from pathcraft.layered import Level
from pathcraft.search import astar, dijkstra

OUT = Path(__file__).resolve().parent / "results" / "layered.md"
MAPS = movingai_dir() / "maps"
FLOORS = (
    "dao/den520d.map",
    "street/Berlin_0_256.map",
    "room/32room_000.map",
    "random/random512-10-0.map",
)
OCTILE_DIAG = math.sqrt(2.0) - 1.0


def build_level(side: int, rng: np.random.Generator) -> Level:
    costs = [np.array(Grid.from_movingai(MAPS / name).cost)[:side, :side] for name in FLOORS]
    level = Level(costs)
    free = np.isfinite(level.cost)
    for f in range(len(FLOORS) - 1):
        both = np.argwhere(free[f] & free[f + 1])
        for i in rng.choice(len(both), size=6, replace=False):
            r, c = (int(v) for v in both[i])
            level.add_portal((f, r, c), (f + 1, r, c), cost=5.0)
    top, bottom = np.argwhere(free[-1]), np.argwhere(free[0])
    for _ in range(4):
        a, b = top[rng.integers(len(top))], bottom[rng.integers(len(bottom))]
        level.add_portal(
            (len(FLOORS) - 1, int(a[0]), int(a[1])), (0, int(b[0]), int(b[1])), cost=0.0,
            two_way=False,
        )  # fmt: skip
    return level


def octile(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    dr, dc = abs(a[1] - b[1]), abs(a[2] - b[2])
    return max(dr, dc) + OCTILE_DIAG * min(dr, dc)


def portal_heuristic(level: Level, goal: tuple[int, int, int]):
    """The kernel's portal heuristic in Python (see pathcraft._core.layered)."""
    scale = level.min_cost
    edges = [(p.entry, p.exit, p.cost) for p in level.portals]
    edges += [(p.exit, p.entry, p.cost) for p in level.portals if p.two_way]
    lb = [c + octile(x, goal) * scale if x[0] == goal[0] else math.inf for _, x, c in edges]
    heap = [(v, i) for i, v in enumerate(lb) if v < math.inf]
    heapq.heapify(heap)
    done = [False] * len(edges)
    while heap:
        m, i = heapq.heappop(heap)
        if done[i]:
            continue
        done[i] = True
        entry = edges[i][0]
        for j, (_, x, c) in enumerate(edges):
            if not done[j] and x[0] == entry[0]:
                cand = c + octile(x, entry) * scale + m
                if cand < lb[j]:
                    lb[j] = cand
                    heapq.heappush(heap, (cand, j))
    by_floor: dict[int, list[tuple[tuple[int, int, int], float]]] = {}
    for (e, _, _), v in zip(edges, lb, strict=True):
        by_floor.setdefault(e[0], []).append((e, v))

    def h(cell: tuple[int, int, int]) -> float:
        best = octile(cell, goal) * scale if cell[0] == goal[0] else math.inf
        for e, v in by_floor.get(cell[0], ()):
            if v < best:
                best = min(best, octile(cell, e) * scale + v)
        return best

    return h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    side, n_astar, n_dijkstra = (64, 4, 2) if args.quick else (256, 20, 4)
    rng = np.random.default_rng(19)
    load0 = os.getloadavg()[0]
    level = build_level(side, rng)
    floors, rows, cols = level.shape
    free = np.argwhere(np.isfinite(level.cost))
    seed = tuple(int(v) for v in free[free[:, 0] == 0][0])
    reach = np.argwhere(np.isfinite(level.distance_field(seed)))
    starts, goals = reach[reach[:, 0] == 0], reach[reach[:, 0] == floors - 1]
    t = time.perf_counter()
    cells = [(int(f), int(r), int(c)) for f, r, c in free]
    adjacency = {cell: level.neighbors(cell) for cell in cells}
    build_s = time.perf_counter() - t
    table = []
    for algorithm, count in (("astar", n_astar), ("dijkstra", n_dijkstra)):
        fast, slow, expanded, generic_expanded = [], [], [], []
        for _ in range(count):
            s = tuple(int(v) for v in starts[rng.integers(len(starts))])
            g = tuple(int(v) for v in goals[rng.integers(len(goals))])
            t = time.perf_counter()
            mine = level.find_path(s, g, algorithm=algorithm)
            fast.append(time.perf_counter() - t)
            if algorithm == "astar":
                h = portal_heuristic(level, g)
                t = time.perf_counter()
                theirs = astar(s, g, adjacency.__getitem__, h)
            else:
                t = time.perf_counter()
                theirs = dijkstra(s, g, adjacency.__getitem__)
            slow.append(time.perf_counter() - t)
            assert math.isclose(mine.cost, theirs.cost, rel_tol=1e-9), (s, g, mine, theirs)
            expanded.append(mine.expanded)
            generic_expanded.append(theirs.expanded)
        mf, ms = statistics.median(fast), statistics.median(slow)
        table.append(
            (algorithm, count, statistics.median(expanded), statistics.median(generic_expanded),
             mf * 1e3, ms * 1e3, ms / mf)
        )  # fmt: skip
    load1 = os.getloadavg()[0]
    lines = [
        "# Layered levels: compiled layered kernel vs the generic search",
        "",
        f"- Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores; {platform.system()}; "
        f"CPython {platform.python_version()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f} "
        "(a shared machine: the ratios, measured in the same run, are steadier than times)",
        f"- Versions: pathcraft (git {git_rev()}), numpy {np.__version__}",
        "- Command: `python bench/layered.py`",
        "",
        f"{floors} floors of {rows} x {cols} (Moving AI maps, see the script's docstring), "
        f"{len(level.portals)} portals (18 two-way staircases, 4 one-way drops); start on "
        f"floor 0, goal on floor {floors - 1}. `Level.find_path` against "
        "`pathcraft.search` with `Level.neighbors` (a dict of lists built before timing, "
        f"{build_s:.1f} s) and, for A*, the same portal heuristic in Python; costs checked "
        "equal. tcod: cannot express portals between floors, not compared.",
        "",
        "| search | queries | median expanded (compiled) | median expanded (generic) "
        "| compiled median ms | generic median ms | generic / compiled |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, q, e, ge, mf, ms, ratio in table:
        lines.append(f"| {name} | {q} | {e:.0f} | {ge:.0f} | {mf:.2f} | {ms:.1f} | {ratio:.0f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
