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

Usage::

    python bench/budget_parity.py               # 20 and 200 pursuers, 300 frames
    python bench/budget_parity.py --runs 3      # three runs in a row
    python bench/budget_parity.py --counts 1000 --gc isolate   # passes charged apart
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game_loop import FPS, clock, spawns, tiled_world

from pathcraft.agents import GridSpace, Pursuer


def parity(n: int, frames: int, speed: float, player_speed: float, expansions: int,
           budget_us: float, seed: int, gc_mode: str = "on") -> dict[str, Any]:
    """One side-by-side run of ``n`` pursuers of each recipe; p99s and counts."""
    world = tiled_world(frames, player_speed)
    starts = spawns(world.grid, world.route[0], n, seed=n)
    space = GridSpace(world.grid)
    sets = {
        "blocking": {},
        f"frame_budget={max(1, expansions // n)}": {"frame_budget": max(1, expansions // n)},
        f"time_budget_us={budget_us / n:g}": {"time_budget_us": budget_us / n},
    }
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
    args = p.parse_args(argv)
    for run in range(args.runs):
        for n in (int(c) for c in args.counts.split(",")):
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
