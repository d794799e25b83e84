"""Starvation: 20 enemies chasing a player who walks on, with and without a budget.

The two game-loop recipes of issue 29's repros, on Moving AI maps: a player walks
between random destinations (its own A* paths) at ``--player-speed`` cells per frame,
and 20 enemies, spawned at random cells of its region, chase it at ``--speed`` cells
per frame for ``--frames`` frames (60 a second):

- **Pursuer**: ``Pursuer.step(player, dt)`` for each enemy every frame, blocking
  (a whole search when the player changed cell), with ``frame_budget=`` expansions,
  or with ``time_budget_us=`` per enemy and frame;
- **queue**: each enemy asks ``PathRequestQueue.request`` again whenever the player
  changed cell, from the cell ahead on its path where it will be when the answer
  comes; one ``update()`` a frame serves them all within ``budget=`` expansions (or
  ``time_budget_us=``); an enemy walks its newest path. The blocking baseline runs
  each request's ``Grid.astar`` at once.

Reported per recipe: paths delivered per second (of game time), enemies that never
moved, and the pathfinding time per frame (all 20 enemies' steps, or the queue's
update; median, 99th percentile, max, in ms of the thread's CPU time, so that other
processes on a shared machine do not count). Every delivered path is checked: its
cost equals a fresh ``Grid.astar`` between its ends (a sample of 50).

Usage::

    python bench/starve.py               # writes bench/results/starve.md (~4 min)
    python bench/starve.py --quick       # one map, prints only
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load, tolerance_ok

from pathcraft import Grid
from pathcraft.agents import GridSpace, PathRequestQueue, Pursuer

MAPS = ("bg512/AR0011SR", "dao/den520d")
FPS = 60.0


def player_route(grid: Grid, start: tuple, frames: int, speed: float, seed: int) -> list:
    """The player's cell every frame: A* paths between random destinations."""
    rng = np.random.default_rng(seed)
    field = np.isfinite(grid.distance_field(start))
    free = np.argwhere(field)
    cells: list[tuple[int, int]] = []
    here, route, progress = start, [start], 0.0
    while len(cells) < frames:
        progress += speed
        while progress >= 1.0:
            progress -= 1.0
            if len(route) <= 1:
                goal = tuple(int(x) for x in free[rng.integers(len(free))])
                route = [tuple(p) for p in grid.astar(here, goal).path.tolist()]
            route.pop(0)
            here = route[0] if route else here
        cells.append(here)
    return cells


def spawns(grid: Grid, start: tuple, n: int, seed: int) -> list[tuple[int, int]]:
    field = grid.distance_field(start)
    free = np.argwhere(np.isfinite(field) & (field > 60))  # not next to the player
    rng = np.random.default_rng(seed + 1)
    return [tuple(int(x) for x in free[k]) for k in rng.choice(len(free), n, replace=False)]


def run_pursuers(
    grid: Grid, route: list, starts: list, speed: float, algorithm: str, **budget: Any
) -> dict:
    space = GridSpace(grid, algorithm=algorithm)  # type: ignore[arg-type]
    enemies = [Pursuer(space, s, speed=speed * FPS, **budget) for s in starts]
    times, checked = [], []
    first = [len(route)] * len(enemies)
    for frame, target in enumerate(route):
        t0 = time.thread_time()
        for enemy in enemies:
            enemy.step(target, dt=1 / FPS)
        times.append(time.thread_time() - t0)
        first = [min(f, frame if e.plans else f) for f, e in zip(first, enemies, strict=True)]
        if len(checked) < 50:
            checked += [e.last_plan for e in enemies if e.last_plan is not None][:1]
    for plan in checked:
        if plan is not None and plan:
            a, b = (tuple(int(x) for x in plan.path[k]) for k in (0, -1))
            assert tolerance_ok(plan.cost, grid.astar(a, b).cost), "a plan is not optimal"
    return {
        "times": times,
        "plans": sum(e.plans for e in enemies),
        "first": first,
        "still": sum(e.node == s and e.position == space.point(s)
                     for e, s in zip(enemies, starts, strict=True)),
    }  # fmt: skip


class Walker:
    """An enemy walking its newest path (a list of cells), ``speed`` cells a frame.

    Its path holds every cell it walked (``path[: i + 1]``) and the cells ahead; an
    answer (or a partial path) starting at a cell it already passed is joined where
    the two part, the walker going back along its own steps to there: it never jumps.
    """

    def __init__(self, cell: tuple[int, int], speed: float) -> None:
        self.path, self.i, self.progress, self.speed = [cell], 0, 0.0, speed
        self.moved = False
        self.asked_from: tuple[int, int] | None = None
        self.wait = 1  # frames the last answer took

    @property
    def cell(self) -> tuple[int, int]:
        return self.path[self.i]

    @property
    def idle(self) -> bool:
        """At the end of its path: nothing left to walk."""
        return self.i + 1 >= len(self.path)

    def ahead(self) -> tuple[int, int]:
        """Where it will be when an answer comes: as far on as the last one took."""
        k = min(self.i + math.ceil(self.speed * self.wait) + 1, len(self.path) - 1)
        self.path = self.path[: k + 1]  # it walks no further than where it asked from
        return self.path[k]

    def adopt(self, path: list) -> bool:
        """Walk on along ``path`` (an answer, a partial path, a glimpse), from where
        its first cell is on the walker's path (the last place; False, unchanged, when
        it is not there: an answer to a request it has walked away from)."""
        first, k = path[0], len(self.path) - 1
        while k >= 0 and self.path[k] != first:  # near the end, as a rule
            k -= 1
        if k < 0:
            return False
        if k >= self.i:
            self.path = self.path[:k] + path
            return True
        walked = self.path[k : self.i + 1]
        t = 0
        while t + 1 < min(len(walked), len(path)) and walked[t + 1] == path[t + 1]:
            t += 1
        back = walked[t:][::-1]  # from its cell back to where the two part
        self.path = self.path[: self.i + 1] + back[1:] + path[t + 1 :]
        return True

    def walk(self) -> None:
        self.progress += self.speed
        while self.progress >= 1.0 and self.i + 1 < len(self.path):
            self.progress -= 1.0
            self.i += 1
            self.moved = True
        if self.i + 1 >= len(self.path):
            self.progress = 0.0


def deliver(
    done: dict,
    walkers: list[Walker],
    asked_at: dict,
    frame: int,
    queue: Any,
    checked: list,
    keep: int,
) -> int:
    """Hand the answers ``done`` (by walker index) to their walkers, note how long
    each took (``asked_at``: the frame each pending request was asked), keep up to
    ``keep`` in ``checked``; return how many were delivered."""
    for k, result in done.items():
        w = walkers[k]
        w.wait = frame - asked_at.pop(k, frame) + 1
        if queue is not None and k in queue:
            asked_at[k] = frame  # a newer goal is queued behind it
        if result:
            w.adopt(list(map(tuple, result.path.tolist())))
            if len(checked) < keep:
                checked.append(result)
    return len(done)


def run_queue(
    grid: Grid, route: list, starts: list, speed: float, algorithm: str, **budget: Any
) -> dict:
    walkers = [Walker(s, speed) for s in starts]
    first = [len(route)] * len(walkers)
    queue = PathRequestQueue(**budget) if budget else None
    asked_at: dict[int, int] = {}
    times, plans, checked = [], 0, []
    last = None
    for frame, target in enumerate(route):
        t0 = time.thread_time()
        done: dict[Any, Any] = {}
        if target != last:
            for k, w in enumerate(walkers):
                start = w.ahead()
                if queue is None:
                    done[k] = grid.find_path(start, target, algorithm=algorithm)
                else:
                    queue.request(k, grid, start, target, algorithm=algorithm)
                    asked_at.setdefault(k, frame)
            last = target
        if queue is not None:
            done = queue.update()
        times.append(time.thread_time() - t0)
        for k in done:
            first[k] = min(first[k], frame)
        plans += deliver(done, walkers, asked_at, frame, queue, checked, keep=50)
        for w in walkers:
            w.walk()
    for result in checked:
        a, b = (tuple(int(x) for x in result.path[k]) for k in (0, -1))
        assert tolerance_ok(result.cost, grid.astar(a, b).cost), "a path is not optimal"
    still = sum(not w.moved for w in walkers)
    return {"times": times, "plans": plans, "still": still, "first": first}


def row(name: str, label: str, run: dict, frames: int) -> str:
    t = np.asarray(run["times"]) * 1e3
    per_s = run["plans"] / (frames / FPS)
    first = np.asarray(run["first"])
    late = "" if first.max() < frames else f" ({int((first >= frames).sum())} never)"
    return (
        f"| {name} | {label} | {per_s:.0f} | {run['still']} | {np.median(first):.0f} / "
        f"{first.max()}{late} | {np.median(t):.2f} | {np.percentile(t, 99):.2f} | "
        f"{t.max():.2f} |"
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--enemies", type=int, default=20)
    p.add_argument("--player-speed", type=float, default=0.25, help="cells per frame")
    p.add_argument("--speed", type=float, default=0.2, help="enemy cells per frame")
    p.add_argument("--frame-budget", type=int, default=100, help="per Pursuer")
    p.add_argument("--time-budget", type=float, default=50.0, help="us per Pursuer")
    p.add_argument("--queue-budget", type=int, default=2000, help="per frame, all")
    p.add_argument("--queue-time", type=float, default=1000.0, help="us per frame, all")
    p.add_argument("--algorithms", default="astar,jps")
    args = p.parse_args(argv)
    maps = MAPS[:1] if args.quick else MAPS
    recipes = [
        ("Pursuer, blocking", run_pursuers, {}),
        (f"Pursuer, frame_budget={args.frame_budget}", run_pursuers,
         {"frame_budget": args.frame_budget}),
        (f"Pursuer, time_budget_us={args.time_budget:g}", run_pursuers,
         {"time_budget_us": args.time_budget}),
        ("queue, blocking (astar at once)", run_queue, {}),
        (f"queue, budget={args.queue_budget}", run_queue, {"budget": args.queue_budget}),
        (f"queue, time_budget_us={args.queue_time:g}", run_queue,
         {"time_budget_us": args.queue_time}),
    ]  # fmt: skip
    rows: list[str] = []
    for name in maps:
        data = load(name)
        grid = Grid.from_walkable(data.walkable)
        start = tuple(int(x) for x in data.starts[int(np.argmax(data.optimal))])
        route = player_route(grid, start, args.frames, args.player_speed, seed=7)
        starts = spawns(grid, start, args.enemies, seed=7)
        for algorithm in args.algorithms.split(","):
            for label, run, budget in recipes:
                result = run(grid, route, starts, args.speed, algorithm, **budget)
                where = f"{name} ({grid.shape[1]}x{grid.shape[0]})"
                rows.append(row(where, f"{algorithm}: {label}", result, args.frames))
                print(rows[-1], flush=True)
    head = [
        "# Starvation: 20 enemies chasing a walking player, with and without a budget",
        "",
        f"`python bench/starve.py` on {machine()}; commit {git_rev()}.",
        "",
        f"{args.enemies} enemies ({args.speed} cells a frame) chase a player walking "
        f"{args.player_speed} cells a frame (a new cell every {1 / args.player_speed:g} "
        f"frames) for {args.frames} frames at 60 a second (8-connected, no corner "
        "cutting). Pursuer budgets are per enemy and frame, queue budgets per frame for "
        "all. Paths/s: plans or answers delivered per second of game time; still: "
        "enemies that never moved; first path: the frame of an enemy's first path, "
        "median / max; times: pathfinding per frame (all enemies' steps, or the queue's "
        "requests and update), ms of CPU time of the thread (`time.thread_time`: another "
        "process taking the core does not count; the time budgets read the wall "
        "clock). A frame's p99 and max include the first steps of searches beyond the "
        "pool's four workspaces, each allocating one the size of the map (about 2 ms "
        "on 512x512).",
        "",
        "| map | recipe | paths/s | still | first path | median ms | p99 ms | max ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    text = "\n".join(head + rows) + "\n"
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "starve.md").write_text(text)


if __name__ == "__main__":
    main()
