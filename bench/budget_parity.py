"""Budgeted Pursuers against blocking ones on the Tiled level, side by side.

The three recipes of ``bench/game_loop.py`` chase the same player in the same frames:
blocking ``Pursuer`` s, ``frame_budget`` ones and ``time_budget_us`` ones (the frame's
``--expansions`` / ``--budget-us`` shared out per pursuer, as there), each frame
stepping the three sets in a shuffled order, so the machine's load hits them alike.
Printed per count: each set's p99 frame (ms of this thread's CPU) and the ratio of
each budgeted set's p99 over the blocking set's, with the plans run and the agents
that never moved. ``--gc freeze`` / ``off`` take the collector's full passes out of
the frames (they land in whichever set runs when one triggers). In one process the
sets share one collector: a pass runs when the objects made less those released pass a
threshold, in whichever set's frame that happens, and walks every young object, the
other sets' too. ``--gc isolate`` freezes every object (untimed) before each set's
frame, so that a pass in that frame walks only what that set made in it: each set
pays for the passes its own objects cause, as in a game running one recipe. Nothing
is written: the numbers go into ``bench/results/game_loop.md`` by hand (its paragraph on
budgeted Pursuers on the Tiled level), as medians over runs alternated with the
previous code's (run it with the other code's ``src`` on ``PYTHONPATH``).

``--pairs`` measures instead what a budget adds to each plan where it does not bind
(a frame's p99 is a few frames of a run: too coarse for a price of a few percent).
Each budgeted pursuer is stepped beside a blocking twin from the same cell, the two
timed one after the other by the wall clock. The pursuers stand still (1e-4 cells a
frame) while the target jumps to the next cell of the player's walk every frame, so
that most steps are plans (a target that stepped onto a pursuer's path needs none):
the same plans for both twins while the budget does not bind (the plans are printed:
equal counts). Each twin goes first in every other step (the caches each finds are
alike). A blocking set beside blocking twins gives the
noise. The collector is off while they run. Printed per recipe: microseconds a plan
of each twin, and the difference.

Usage::

    python bench/budget_parity.py               # 20 and 200 pursuers, 300 frames
    python bench/budget_parity.py --runs 3      # three runs in a row
    python bench/budget_parity.py --counts 1000 --gc isolate   # passes charged apart
    python bench/budget_parity.py --pairs --counts 20 --runs 4  # a budget's price a plan
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_loop import FPS, clock, spawns, tiled_world

from pathcraft.agents import GridSpace, Pursuer


def setting(n: int, frames: int, player_speed: float) -> tuple[Any, list[Any], GridSpace]:
    """The Tiled level with the player's walk of ``frames`` frames, ``n`` pursuers'
    starts (as in ``game_loop.py``) and the agents' space on its grid."""
    world = tiled_world(frames, player_speed)
    return world, spawns(world.grid, world.route[0], n, seed=n), GridSpace(world.grid)


def recipes(n: int, expansions: int, budget_us: float) -> dict[str, dict[str, Any]]:
    """The three recipes for ``n`` pursuers: label -> the Pursuer's budget options (the
    frame's budgets shared out, as in ``game_loop.py``)."""
    return {
        "blocking": {},
        f"frame_budget={max(1, expansions // n)}": {"frame_budget": max(1, expansions // n)},
        f"time_budget_us={budget_us / n:g}": {"time_budget_us": budget_us / n},
    }


def parity(n: int, frames: int, speed: float, player_speed: float, expansions: int,
           budget_us: float, seed: int, gc_mode: str = "on") -> dict[str, Any]:
    """One side-by-side run of ``n`` pursuers of each recipe; p99s and counts."""
    world, starts, space = setting(n, frames, player_speed)
    sets = recipes(n, expansions, budget_us)
    agents = {
        label: [Pursuer(space, s, speed=speed * FPS, **opts) for s in starts]
        for label, opts in sets.items()
    }
    times: dict[str, list[float]] = {label: [] for label in sets}
    gc.collect()
    if gc_mode == "freeze":
        gc.freeze()
    elif gc_mode == "off":
        gc.disable()
    order = list(sets)
    rng = random.Random(seed)
    # agents that have not left their start yet (looked at outside the timed part)
    waiting = {label: {k: e.position for k, e in enumerate(group)}
               for label, group in agents.items()}
    for frame in range(len(world.route)):
        rng.shuffle(order)
        for label in order:
            if gc_mode == "isolate":
                gc.freeze()  # (untimed) a pass in this set's frame sees only what it made
            t0 = clock()[0]
            target = world.to_cell(frame)
            for enemy in agents[label]:
                enemy.step(target, dt=1 / FPS)
            times[label].append(clock()[0] - t0)
        for label, left in waiting.items():
            for k in [k for k, at in left.items() if agents[label][k].position != at]:
                del left[k]
    gc.enable()
    gc.unfreeze()
    p99 = {label: float(np.percentile(t, 99)) * 1e3 for label, t in times.items()}
    return {
        "p99": p99,
        "ratio": {label: p99[label] / p99["blocking"] for label in sets},
        "plans": {label: sum(e.plans for e in agents[label]) for label in sets},
        "still": {label: len(left) for label, left in waiting.items()},
    }


def pairs(n: int, frames: int, player_speed: float, expansions: int, budget_us: float,
          passes: int) -> dict[str, dict[str, float]]:
    """Each recipe's ``n`` pursuers stepped beside blocking twins (see the module): per
    recipe, microseconds a plan of the twins and of the recipe's own, and plans."""
    world, starts, space = setting(n, frames, player_speed)
    cells: list[Any] = []  # the cells of the player's walk, each once in a row
    for frame in range(len(world.route)):
        cell = world.to_cell(frame)
        if not cells or cell != cells[-1]:
            cells.append(cell)
    out = {}
    gc.collect()
    gc.disable()
    now = time.perf_counter
    for label, opts in recipes(n, expansions, budget_us).items():
        twins = [Pursuer(space, s, speed=1e-4) for s in starts]
        own = [Pursuer(space, s, speed=1e-4, **opts) for s in starts]
        t_twin = t_own = 0.0
        for frame in range(passes * len(cells)):
            target = cells[frame % len(cells)]
            for a, b in zip(twins, own, strict=True):
                first, second = (a, b) if frame % 2 else (b, a)  # the twin first, or not
                t0 = now()
                first.step(target, dt=1 / FPS)
                t1 = now()
                second.step(target, dt=1 / FPS)
                t2 = now()
                t_twin += t1 - t0 if first is a else t2 - t1
                t_own += t2 - t1 if first is a else t1 - t0
        plans_twin = sum(e.plans for e in twins)
        plans_own = sum(e.plans for e in own)
        out[label] = {
            "twin_us": t_twin / plans_twin * 1e6, "own_us": t_own / plans_own * 1e6,
            "plans_twin": plans_twin, "plans_own": plans_own,
        }  # fmt: skip
    gc.enable()
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--frames", type=int, default=300)
    p.add_argument("--counts", default="20,200")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--player-speed", type=float, default=0.25, help="cells per frame")
    p.add_argument("--speed", type=float, default=0.2, help="agent cells per frame")
    p.add_argument("--expansions", type=int, default=4000, help="per frame, all agents")
    p.add_argument("--budget-us", type=float, default=2000.0, help="per frame, all agents")
    p.add_argument("--seed", type=int, default=0, help="of the shuffled orders")
    p.add_argument("--gc", choices=("on", "freeze", "off", "isolate"), default="on")
    p.add_argument("--pairs", action="store_true",
                   help="a budget's price a plan: each pursuer beside a blocking twin")
    p.add_argument("--passes", type=int, default=8, help="with --pairs: walks of targets")
    args = p.parse_args(argv)
    counts = [int(c) for c in args.counts.split(",")]
    if args.pairs:
        for _ in range(args.runs):
            for n in counts:
                price = pairs(n, args.frames, args.player_speed, args.expansions,
                              args.budget_us, args.passes)
                cells = "  ".join(
                    f"{label}: {v['own_us']:.2f} us a plan, twins {v['twin_us']:.2f}, "
                    f"{v['own_us'] - v['twin_us']:+.2f} "
                    f"({v['own_us'] / v['twin_us'] - 1:+.1%}; "
                    f"{v['plans_own']} / {v['plans_twin']} plans)"
                    for label, v in price.items()
                )
                print(f"n={n}  {cells}", flush=True)
        return
    for run in range(args.runs):
        for n in counts:
            out = parity(n, args.frames, args.speed, args.player_speed, args.expansions,
                         args.budget_us, args.seed + run, args.gc)
            cells = "  ".join(
                f"{label}: p99 {out['p99'][label]:.3f} ms x{out['ratio'][label]:.2f} "
                f"({out['plans'][label]} plans, {out['still'][label]} still)"
                for label in out["p99"]
            )
            print(f"n={n}  {cells}", flush=True)

if __name__ == "__main__":
    main()
