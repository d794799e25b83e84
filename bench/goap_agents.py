"""1,000 GOAP agents ticking, beside 1,000 ``Pursuer.step`` calls, in one process.

A frame of each recipe, on one core (CPU time of this thread, ``time.thread_time``),
the recipes taking turns round after round so that the machine's load falls on all
alike:

- **Pursuer.step**: 1,000 pursuers on a 256x256 grid, each walking its path toward a
  target that does not move (no new search once the first plan is made: the cost of
  a step without replanning);
- **Agent.tick, no replanning**: 1,000 :class:`pathcraft.goap.Agent` s of a
  guard's domain (5 actions, 3 goals with a priority function) in the middle of a long
  action (its executor reports ``"running"``), with two sensors: one every 10 ticks
  that reports facts the agent already believes, one every 30 ticks that reports
  nothing;
- **Agent.tick running a Pursuer**: the same agents whose running action is a chase,
  its executor one ``Pursuer.step`` (the agent's cost on top of the motion);
- **Agent.tick, a sensor changes a fact**: the same as the second, but one agent in
  ten each frame gets a fact changed that leaves its plan valid (the rest of the plan
  is replayed on its beliefs; no search).

The brief's bound: an agent's tick without replanning costs at most 2x a
``Pursuer.step``.

Usage::

    python bench/goap_agents.py            # writes bench/results/goap_agents.md
    python bench/goap_agents.py --quick    # fewer agents and rounds: prints only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import git_rev, machine

from pathcraft import Grid
from pathcraft.agents import Pursuer
from pathcraft.goap import Action, Agent, Goal, Planner, Sensor, add, ge

OUT = Path(__file__).resolve().parent / "results" / "goap_agents.md"
DT = 1.0 / 60.0
SIDE = 256


def domain() -> tuple[Planner, list[Goal]]:
    planner = Planner([
        Action("patrol", {}, {"patrolled": True}, cost=1),
        Action("investigate", {"noise": True}, {"noise": False}, cost=2),
        Action("chase", {"alerted": True}, {"near": True}, cost=3),
        Action("shoot", {"near": True, "ammo": ge(1)}, {"ammo": add(-1), "down": True}, cost=1),
        Action("reload", {"ammo": 0}, {"ammo": 2}, cost=1),
    ])  # fmt: skip
    goals = [
        Goal("patrol", {"patrolled": True}, priority=1),
        Goal("check", {"noise": False}, priority=5),
        Goal("stop", {"down": True}, priority=lambda s: 10.0 if s["alerted"] else 0.0),
    ]
    return planner, goals


BELIEFS = {"patrolled": False, "noise": False, "alerted": False, "near": False,
           "down": False, "ammo": 2}  # fmt: skip


def world(seed: int) -> Grid:
    rng = np.random.default_rng(seed)
    cost = np.ones((SIDE, SIDE))
    cost[rng.random((SIDE, SIDE)) < 0.15] = np.inf
    cost[:, :2] = cost[:, -2:] = 1.0
    return Grid(cost)


def pursuers(grid: Grid, n: int) -> tuple[list[Pursuer], Any]:
    rows = np.arange(n) % SIDE
    hunters = [Pursuer(grid, (int(r), 0), speed=1.0) for r in rows]
    target = (SIDE // 2, SIDE - 1)
    for p in hunters:  # the first plan: not timed
        p.step(target, DT)
    return hunters, target


def frame_pursuers(hunters: list[Pursuer], target: Any) -> None:
    for p in hunters:
        p.step(target, DT)


def agents(n: int, executor: Callable[[int], Any]) -> list[Agent]:
    planner, goals = domain()
    out = []
    for i in range(n):
        same = Sensor(lambda b: {"noise": False}, every=10)
        quiet = Sensor(lambda b: None, every=30)
        executors = {a.name: executor(i) for a in planner.actions}
        agent = Agent(planner, goals, BELIEFS, executors=executors, sensors=[same, quiet],
                      history=0)  # fmt: skip
        out.append(agent)
    for agent in out:  # the first plan: not timed
        agent.tick(DT)
        assert agent.action is not None and agent.action.name == "patrol"
    return out


def running(i: int) -> Callable[[Agent, float], str]:
    return lambda agent, dt: "running"


def frame_agents(crowd: list[Agent]) -> None:
    for agent in crowd:
        agent.tick(DT)


def frame_changing(crowd: list[Agent], k: list[int]) -> None:
    n = len(crowd)
    k[0] += 1
    flip = k[0] % 2 == 0
    for i in range(k[0] % 10, n, 10):
        crowd[i].update(near=flip)  # a fact the patrol's plan does not read
    for agent in crowd:
        agent.tick(DT)


def timed(step: Callable[[], None], frames: int) -> float:
    t0 = time.thread_time()
    for _ in range(frames):
        step()
    return (time.thread_time() - t0) / frames


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.agents, args.rounds, args.frames = 100, 3, 5
    n = args.agents
    grid = world(0)
    hunters, target = pursuers(grid, n)
    idle = agents(n, running)
    chase_hunters, _ = pursuers(grid, n)

    def chase(i: int) -> Callable[[Agent, float], str]:
        hunter = chase_hunters[i]
        return lambda agent, dt: "running" if hunter.step(target, dt) == "chasing" else "done"

    chasers = agents(n, chase)
    changing = agents(n, running)
    k = [0]
    recipes: dict[str, Callable[[], None]] = {
        "Pursuer.step": lambda: frame_pursuers(hunters, target),
        "Agent.tick, no replanning": lambda: frame_agents(idle),
        "Agent.tick running a Pursuer": lambda: frame_agents(chasers),
        "Agent.tick, a fact changes for 1 in 10": lambda: frame_changing(changing, k),
    }
    times: dict[str, list[float]] = {name: [] for name in recipes}
    for _ in range(args.rounds):
        for name, step in recipes.items():
            times[name].append(timed(step, args.frames))
    for crowd in (idle, chasers, changing):
        assert all(a.plans == 1 for a in crowd), "an agent replanned"
        assert all(a.action is not None and a.action.name == "patrol" for a in crowd)
    assert sum(h.plans for h in hunters) == n, "a pursuer searched again"
    base = statistics.median(times["Pursuer.step"])
    lines = [
        "# 1,000 GOAP agents ticking, beside 1,000 Pursuer.step calls",
        "",
        f"`python bench/goap_agents.py` -- {machine()}; commit {git_rev()}.",
        "",
        f"{n} agents, {args.rounds} rounds of {args.frames} frames per recipe, the recipes "
        "taking turns; CPU time of this thread per frame (all agents), median over the "
        "rounds (min-max); the ratio is to the median frame of the Pursuer.step recipe. "
        "No agent replanned (checked), no pursuer searched again (checked).",
        "",
        "| recipe | ms per frame | us per agent | ratio to Pursuer.step |",
        "|---|---:|---:|---:|",
    ]
    for name, values in times.items():
        med = statistics.median(values)
        lines.append(
            f"| {name} | {med * 1e3:.2f} ({min(values) * 1e3:.2f}-{max(values) * 1e3:.2f}) | "
            f"{med / n * 1e6:.2f} | {med / base:.2f}x |"
        )
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.quick:
        OUT.write_text(report)
    return report


if __name__ == "__main__":
    main()
