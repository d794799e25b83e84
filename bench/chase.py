"""Chasing a moving target: what a pursuer's re-planning costs per tick, three ways.

On Moving AI maps, a player runs between random destinations (its own A* paths) at
``--target-speed`` cells per tick while an enemy chases it at 1 cell per tick, until
caught. The chase is run once with :class:`pathcraft.agents.Pursuer` (search again
only when the target changed cell, and not even then when it stepped onto the
enemy's path), recording every tick's node the enemy plans from and the target's
cell. The two other strategies replay exactly that sequence of (plan node, target):

- **A\\* every tick**: a fresh ``Grid.astar`` from the plan node to the target;
- **field on move**: ``Grid.distance_field(target)`` (a whole-map compiled Dijkstra)
  recomputed whenever the target changed cell, and one steepest-descent step read
  from it each tick (what a pursuer following the field needs).

Every tick's answer is checked: the Pursuer's path cost equals A*'s cost and the
field's value at the plan node (the maps have uniform costs, so the field from the
target is the cost to it). Reported: mean, median, 99th percentile and maximum time
per tick, and the mean's ratio to A* every tick.

Usage::

    python bench/chase.py            # writes bench/results/chase.md (~1 min)
    python bench/chase.py --quick    # two maps, one chase each, prints only
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
from pathcraft.agents import GridSpace, Pursuer

MAPS = (
    "dao/den520d",
    "dao/brc202d",
    "room/32room_000",
    "maze/maze512-1-0",
    "random/random512-40-0",
)
OFFSETS = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]


def player_path(grid: Grid, cell: tuple[int, int], free: np.ndarray, rng: Any) -> list:
    while True:
        goal = tuple(int(x) for x in free[rng.integers(len(free))])
        result = grid.astar(cell, goal)
        if result and len(result.path) > 10:
            return [tuple(int(x) for x in p) for p in result.path.tolist()]


def chase(space: GridSpace, start: tuple, target: tuple, free: np.ndarray, rng: Any,
          target_speed: float, max_ticks: int) -> dict[str, Any]:  # fmt: skip
    grid = space.grid
    enemy = Pursuer(space, start, speed=1.0)
    route = player_path(grid, target, free, rng)
    progress = 0.0
    ticks: list[tuple[tuple, tuple, float]] = []
    times: list[float] = []
    status = "chasing"
    for _ in range(max_ticks):
        progress += target_speed
        while progress >= 1.0:  # the player moves a cell at a time
            progress -= 1.0
            route.pop(0)
            if len(route) == 1:
                route = player_path(grid, route[0], free, rng)
        target = route[0]
        t0 = time.perf_counter()
        status = enemy.step(target, dt=1.0)
        times.append(time.perf_counter() - t0)
        if status == "caught":
            break
        ticks.append((enemy.plan_start, target, float(sum(grid_costs(grid, enemy.path)))))
    return {"times": times, "ticks": ticks, "status": status, "plans": enemy.plans}


def grid_costs(grid: Grid, path: list) -> list[float]:
    cells = np.asarray(path)
    if len(cells) < 2:
        return [0.0]
    diag = np.abs(np.diff(cells, axis=0)).sum(axis=1) == 2
    return list(np.where(diag, np.sqrt(2.0), 1.0) * grid.cost[cells[1:, 0], cells[1:, 1]])


def replay_search(grid: Grid, ticks: list, method: str) -> list[float]:
    times = []
    search = getattr(grid, method)
    for plan, target, want in ticks:
        t0 = time.perf_counter()
        result = search(plan, target)
        times.append(time.perf_counter() - t0)
        if not tolerance_ok(result.cost, want):
            raise AssertionError(f"{method} {plan}->{target}: {result.cost} != pursuer {want}")
    return times


def replay_field(grid: Grid, ticks: list) -> list[float]:
    times = []
    rows, cols = grid.shape
    field = None
    last = None
    for plan, target, want in ticks:
        t0 = time.perf_counter()
        if target != last:
            field = grid.distance_field(target)
            last = target
        assert field is not None
        r, c = plan
        best = None
        for dr, dc in OFFSETS:  # one descent step: the neighbour nearest the target
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and field[rr, cc] < (best or (np.inf,))[0]:
                best = (field[rr, cc], rr, cc)
        times.append(time.perf_counter() - t0)
        if not tolerance_ok(float(field[r, c]), want):
            raise AssertionError(f"field at {plan} for {target}: {field[r, c]} != {want}")
    return times


def stats(times: list[float]) -> tuple[float, float, float, float]:
    a = np.asarray(times) * 1e6
    return float(a.mean()), float(np.median(a)), float(np.percentile(a, 99)), float(a.max())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--chases", type=int, default=4, help="chases per map")
    p.add_argument("--target-speed", type=float, default=0.7)
    p.add_argument("--max-ticks", type=int, default=3000)
    args = p.parse_args(argv)
    maps = MAPS[:2] if args.quick else MAPS
    chases = 1 if args.quick else args.chases
    rows: list[str] = []
    labels = {
        "astar": "A* every tick",
        "jps": "JPS every tick",
        "field": "field on move",
        "pursuer_astar": "Pursuer, A* (replan on move)",
        "pursuer": "Pursuer, default: JPS (replan on move)",
    }
    for name in maps:
        data = load(name)
        grid = Grid.from_walkable(data.walkable)
        free = np.argwhere(data.walkable)
        per: dict[str, list[float]] = {key: [] for key in labels}
        plans = n_ticks = caught = 0
        # long scenario lines: start far from the player
        order = np.argsort(data.optimal)[::-1][: 50 * chases : 50]
        for method, key in (("astar", "pursuer_astar"), ("auto", "pursuer")):
            rng = np.random.default_rng(1)  # the same player runs for both pursuers
            for i in order:
                s = tuple(int(x) for x in data.starts[i])
                g = tuple(int(x) for x in data.goals[i])
                space = GridSpace(grid, algorithm=method)  # type: ignore[arg-type]
                run = chase(space, s, g, free, rng, args.target_speed, args.max_ticks)
                per[key] += run["times"]
                if method == "auto":
                    caught += run["status"] == "caught"
                    plans += run["plans"]
                    n_ticks += len(run["times"])
                    per["astar"] += replay_search(grid, run["ticks"], "astar")
                    per["jps"] += replay_search(grid, run["ticks"], "jps")
                    per["field"] += replay_field(grid, run["ticks"])
        base = statistics.fmean(per["astar"])
        for key, label in labels.items():
            mean, med, p99, mx = stats(per[key])
            rows.append(
                f"| {name} | {label} | {mean:.1f} | {med:.1f} | {p99:.0f} | {mx:.0f} | "
                f"{base / statistics.fmean(per[key]):.2f}x |"
            )
        rows.append(
            f"| {name} | {n_ticks} ticks, {plans} searches, caught {caught}/{chases} "
            "(default Pursuer) | | | | | |"
        )
        print("\n".join(rows[-6:]), flush=True)
    head = [
        "# Chasing a moving target: re-planning cost per tick",
        "",
        f"`python bench/chase.py` on {machine()}; commit {git_rev()}.",
        "",
        f"The player moves {args.target_speed} cells per tick between random destinations; "
        "the enemy 1 cell per tick (8-connected, no corner cutting). Times in microseconds "
        "per tick: the Pursuer's whole `step` (planning and moving); the other two replay "
        "the same (plan node, target) sequence and time only their planning. Speed-up is "
        "A* every tick's mean over the strategy's mean. Every tick's cost is checked "
        "against A*.",
        "",
        "| map | strategy | mean µs | median µs | p99 µs | max µs | speed-up (mean) |",
        "|---|---|---|---|---|---|---|",
    ]
    text = "\n".join(head + rows) + "\n"
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "chase.md").write_text(text)


if __name__ == "__main__":
    main()
