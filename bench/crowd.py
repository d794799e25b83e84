"""Crowd steps per second: milliseconds per ``Crowd.step`` for 1,000 and 5,000 agents.

A 160 x 120 hall with pillars and four doors in its walls; agents start spread over
the hall (no two overlapping) and head for the nearest door. Each run times
``--steps`` steps of 0.1 s from the start (the densest part, before anyone leaves)
and reports the median and the split between the flow-field steering and the
positional pass (NumPy), and ORCA itself (RVO2 through ``pyrvo``, including the
per-agent Python calls that binding needs). Every step's answer is checked: all
agents on walkable cells, and the largest overlap between two agents is reported.
For scale: RVO2's authors report thousands of agents in a few milliseconds per step
in C++, and Unity's RVO2-based plug-ins 5,000 agents at interactive frame rates.

Usage::

    python bench/crowd.py            # writes bench/results/crowd.md
    python bench/crowd.py --quick    # 1,000 agents only, prints only
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
from pathcraft.agents import Crowd
from pathcraft.agents._motion import close_pairs
from pathcraft.agents.spaces import walkable_at

RESULTS = Path(__file__).resolve().parent / "results"


def hall() -> tuple[Grid, list[tuple[int, int]]]:
    rows, cols = 120, 160
    cost = np.ones((rows, cols))
    cost[0, :] = cost[-1, :] = np.inf
    cost[:, 0] = cost[:, -1] = np.inf
    for r in range(20, rows - 20, 25):
        for c in range(20, cols - 20, 30):
            cost[r : r + 4, c : c + 4] = np.inf  # pillars
    doors = []
    for r, c in ((0, 40), (0, 120), (rows - 1, 40), (rows - 1, 120)):
        for k in range(4):
            cost[r, c + k] = 1.0
            doors.append((r, c + k))
    return Grid(cost), doors


def spawn(grid: Grid, n: int, radius: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    spacing = 2.2 * radius
    ys, xs = np.mgrid[2.0 : grid.shape[0] - 2 : spacing, 2.0 : grid.shape[1] - 2 : spacing]
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    pts = pts[walkable_at(grid.walkable, pts)]
    return pts[rng.choice(len(pts), n, replace=False)]


def run(n: int, steps: int, radius: float) -> dict[str, float]:
    grid, doors = hall()
    crowd = Crowd(grid, spawn(grid, n, radius, n), doors, radius=radius, max_speed=1.5)
    times = []
    worst = 0.0
    for _ in range(steps):
        t0 = time.perf_counter()
        crowd.step(0.1)
        times.append(time.perf_counter() - t0)
        assert walkable_at(grid.walkable, crowd.positions).all()
        inside = crowd.positions[~crowd.exited]
        i, j = close_pairs(inside, 2 * radius)
        if len(i):
            gaps = np.linalg.norm(inside[i] - inside[j], axis=1)
            worst = max(worst, float((2 * radius - gaps).max()))
    # one more step split into its parts
    t0 = time.perf_counter()
    crowd.preferred_velocities()
    t_flow = time.perf_counter() - t0
    return {
        "median": statistics.median(times) * 1e3,
        "mean": statistics.fmean(times) * 1e3,
        "max": max(times) * 1e3,
        "flow": t_flow * 1e3,
        "overlap": worst,
        "exited": float(crowd.exited.sum()),
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--radius", type=float, default=0.3)
    args = p.parse_args(argv)
    sizes = (1000,) if args.quick else (1000, 5000)
    rows = []
    for n in sizes:
        r = run(n, args.steps, args.radius)
        rows.append(
            f"| {n:,} | {r['median']:.1f} | {r['mean']:.1f} | {r['max']:.1f} | "
            f"{r['flow']:.2f} | {r['overlap']:.4f} | {1000 / r['median']:.0f} |"
        )
        print(rows[-1], flush=True)
    text = "\n".join([
        "# Crowd: milliseconds per step",
        "",
        f"`python bench/crowd.py` on {machine()}; commit {git_rev()}.",
        "",
        f"A 160 x 120 hall with pillars and four doors; agents of radius {args.radius} "
        f"cells at 1.5 cells/s, {args.steps} steps of 0.1 s from the start (the densest "
        "part). `flow` is the preferred-velocity part (flow field lookup, NumPy); the rest "
        "is ORCA (RVO2 via pyrvo, per-agent calls) and the wall and overlap passes. "
        "Overlap: the largest seen between two agents, in cells.",
        "",
        "| agents | median ms/step | mean ms | max ms | flow ms | max overlap | steps/s |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]) + "\n"  # fmt: skip
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "crowd.md").write_text(text)


if __name__ == "__main__":
    main()
