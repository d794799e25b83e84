"""A guard run by GOAP: it patrols, investigates a noise, reloads and chases a thief.

Run: ``python examples/goap_guard.py`` (pygame-ce, ``pip install "pathcraft[games]"``);
``python examples/goap_guard.py --headless --frames 900`` runs without a window (SDL's
dummy video driver) and prints what the guard did; the tests run it that way.

The guard is a :class:`pathcraft.goap.Agent` with three goals: patrolling (priority 1),
checking a noise (5) and stopping the thief (10 once it saw the thief, else 0). Its
ears and eyes are :class:`~pathcraft.goap.Sensor` s on their own intervals. Going to
an armory is a moving action (:class:`~pathcraft.goap.Places`): its cost is the path's
cost from where the guard stands, read for both armories in one batched call, so the
plan takes the nearer one; the walk is a :class:`~pathcraft.goap.Walker` (a
:class:`~pathcraft.agents.PathFollower`), the chase a :class:`~pathcraft.agents.Pursuer`.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
from typing import Any

import numpy as np

from pathcraft import Grid
from pathcraft.agents import Pursuer
from pathcraft.goap import Action, Agent, Goal, Places, Planner, Sensor, Walker, add, ge

MAP = """
..............................
.#####..........######.......A
.#..................#.........
.#.....#######......#.........
.#...........#......#####.....
.............#................
.....####....#.......#........
.....#...............#........
A....#.......#########........
..............................
"""
CELL = 20
DT = 1.0 / 30.0  # a fixed time step: the same run headless or not
GUARD_SPEED = 5.0  # cells per second
THIEF_SPEED = 2.0
SIGHT = 7.0  # cells
RANGE = 3.0  # the guard's shots reach this far
NOISE_FRAME, NOISE_CELL = 40, (7, 8)
THIEF_FRAME, THIEF_ROUTE = 330, [(9, 12), (5, 10), (0, 12)]
POSTS = [(0, 0), (0, 27), (9, 27)]


def cells(marks: str) -> list[tuple[int, int]]:
    rows = MAP.strip("\n").splitlines()
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in marks]


def build(grid: Grid) -> tuple[Places, list[Action]]:
    """The guard's places and actions."""
    west, east = sorted(cells("A"), key=lambda rc: rc[1])
    places = Places(grid, {"armory_west": west, "armory_east": east})
    actions = [
        *places.actions(),
        Action("patrol", {}, {"patrolled": True}, cost=1),
        Action("investigate", {"noise_heard": True}, {"noise_heard": False}, cost=2),
        Action("chase", {"alerted": True, "ammo": ge(1)}, {"thief_near": True}, cost=3),
        Action("shoot", {"thief_near": True, "ammo": ge(1)},
               {"ammo": add(-1), "thief_down": True}, cost=1),
        *(Action(f"reload_{name}", {"at": name, "ammo": 0}, {"ammo": 2}, cost=1)
          for name in places.names),
    ]  # fmt: skip
    return places, actions


GOALS = [
    Goal("patrol", {"patrolled": True}, priority=1),
    Goal("check_noise", {"noise_heard": False}, priority=5),
    Goal("stop_thief", {"thief_down": True},
         priority=lambda s: 10.0 if s["alerted"] else 0.0),
]  # fmt: skip


class Thief:
    """Walks its route once, from the frame it appears; stops when hit."""

    def __init__(self, grid: Grid) -> None:
        self.path: list[tuple[int, int]] = []
        for a, b in itertools.pairwise(THIEF_ROUTE):
            legs = [tuple(p) for p in grid.astar(a, b).path.tolist()]
            self.path += legs[1:] if self.path else legs
        self.t = 0.0
        self.here = False
        self.down = False

    @property
    def cell(self) -> tuple[int, int]:
        return self.path[min(int(self.t), len(self.path) - 1)]

    def update(self, frame: int) -> None:
        self.here = (frame >= THIEF_FRAME and int(self.t) < len(self.path) - 1) or self.down
        if self.here and not self.down:
            self.t += THIEF_SPEED * DT


class Guard:
    """The agent, its body, and the executors of its actions."""

    def __init__(self, grid: Grid, thief: Thief) -> None:
        self.grid, self.thief = grid, thief
        self.places, self.actions = build(grid)
        self.legs = Walker(self.places, POSTS[0], speed=GUARD_SPEED, tolerance=0.2)
        self.post = 0
        self.noise: tuple[int, int] | None = None
        self.heard: tuple[int, int] | None = None
        self.pursuer: Pursuer | None = None
        self.leg: Any = None
        self.wait = 0.0
        self.plan_log: list[tuple[str, tuple[str, ...], Any]] = []
        executors: dict[str, Any] = {
            **self.legs.executors(),
            "patrol": Steps(self.patrol_start, self.walk),
            "investigate": Steps(self.investigate_start, self.walk_then_look),
            "chase": Steps(self.chase_start, self.chase),
            "shoot": lambda agent, dt: self.shoot(),
            **{f"reload_{n}": Steps(self.pause, self.waiting) for n in self.places.names},
        }
        beliefs = {"at": self.places.label(self.legs.node), "ammo": 0, "patrolled": False,
                   "noise_heard": False, "alerted": False, "thief_near": False,
                   "thief_down": False}  # fmt: skip
        self.agent = Agent(
            Planner(self.actions), GOALS, beliefs, executors=executors,
            sensors=[Sensor(self.ears, every=3), Sensor(self.eyes, every=5),
                     Sensor(self.restless)],
            budget=200, history=1000, on_event=self.noted,
        )  # fmt: skip

    # sensors
    def ears(self, beliefs: Any) -> dict[str, bool] | None:
        if self.noise is None:
            return None
        self.heard, self.noise = self.noise, None
        return {"noise_heard": True}

    def eyes(self, beliefs: Any) -> dict[str, bool]:
        x, y = self.legs.position
        near = False
        if self.thief.here and not self.thief.down:
            r, c = self.thief.cell
            d = math.hypot(c + 0.5 - x, r + 0.5 - y)
            if d <= SIGHT:  # once seen, the guard hunts it down (it hears it run)
                return {"alerted": True, "thief_near": d <= RANGE}
        return {"thief_near": near}

    def restless(self, beliefs: Any) -> dict[str, bool] | None:
        return {"patrolled": False} if beliefs["patrolled"] else None

    def noted(self, event: Any) -> None:
        if event.kind == "plan":  # where it stood when it adopted each plan
            self.plan_log.append((event.goal, event.plan, self.legs.node))

    # executors
    def patrol_start(self, agent: Agent) -> None:
        self.post = (self.post + 1) % len(POSTS)
        self.leg = self.legs.to(POSTS[self.post])
        self.leg.start(agent)

    def walk(self, agent: Agent, dt: float) -> str:
        status: str = self.leg.update(agent, dt)
        return status

    def investigate_start(self, agent: Agent) -> None:
        self.leg = self.legs.to(self.heard or self.legs.node)
        self.leg.start(agent)
        self.wait = 1.0  # looks around for a second once there

    def walk_then_look(self, agent: Agent, dt: float) -> str:
        if self.leg is not None:
            if self.walk(agent, dt) != "done":
                return "running"
            self.leg = None
        return self.waiting(agent, dt)

    def pause(self, agent: Agent) -> None:
        self.wait = 0.5

    def waiting(self, agent: Agent, dt: float) -> str:
        self.wait -= dt
        return "done" if self.wait <= 0 else "running"

    def chase_start(self, agent: Agent) -> None:
        self.pursuer = Pursuer(self.grid, self.legs.node, speed=GUARD_SPEED, stop_range=RANGE - 1)

    def chase(self, agent: Agent, dt: float) -> str:
        assert self.pursuer is not None
        status = self.pursuer.step(self.thief.cell, dt)
        self.legs.stand(self.pursuer.node, agent, self.pursuer.position)
        if status == "caught":
            return "done"
        return "running" if status == "chasing" else "failed"

    def shoot(self) -> str:
        r, c = self.thief.cell
        x, y = self.legs.position
        if math.hypot(c + 0.5 - x, r + 0.5 - y) > RANGE:
            return "failed"
        self.thief.down = True
        return "done"


class Steps:
    """An executor from a start function and an update function."""

    def __init__(self, start: Any, update: Any) -> None:
        self.start, self.update = start, update


def run(frames: int, on_frame: Any = None) -> dict[str, Any]:
    """The guard's night, ``frames`` frames of :data:`DT` (no window: ``on_frame(grid,
    guard, thief)`` draws each); what it did (``events``, ``thief_down``, ``frame``...)."""
    grid = Grid.from_ascii(MAP.replace("A", "."))
    thief = Thief(grid)
    guard = Guard(grid, thief)
    down_at = None
    for frame in range(frames):
        if frame == NOISE_FRAME:
            guard.noise = NOISE_CELL  # a bottle falls
        thief.update(frame)
        guard.agent.tick(DT)
        if thief.down and down_at is None:
            down_at = frame
        if on_frame is not None and on_frame(grid, guard, thief) is False:
            break
    agent = guard.agent
    plans = guard.plan_log
    for goal, plan, _ in plans:
        print(f"{goal}: {', '.join(plan)}")
    print(f"thief down: {thief.down} at frame {down_at}; {agent.plans} plans, "
          f"{agent.searches} searches")  # fmt: skip
    return {"events": list(agent.events), "plans": plans, "thief_down": thief.down,
            "frame": down_at, "agent": agent, "places": guard.places, "actions": guard.actions,
            "grid": grid}  # fmt: skip


def main(frames: int | None = None, headless: bool = False) -> dict[str, Any]:
    """Run the guard in a pygame window (SDL's dummy driver when ``headless``)."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('this example needs pygame-ce: pip install "pathcraft[games]"') from exc
    rows, cols = Grid.from_ascii(MAP.replace("A", ".")).shape
    pygame.display.init()
    screen = pygame.display.set_mode((cols * CELL, rows * CELL))
    pygame.display.set_caption("pathcraft: a GOAP guard")
    clock = pygame.time.Clock()

    def frame(grid: Grid, guard: Guard, thief: Thief) -> bool:
        if any(event.type == pygame.QUIT for event in pygame.event.get()):
            return False
        draw(pygame, screen, grid, guard, thief)
        pygame.display.flip()
        if not headless:
            clock.tick(30)
        return True

    try:
        return run(frames if frames is not None else 10**9, frame)
    finally:
        pygame.quit()


COLOURS = {"patrol": (60, 140, 60), "check_noise": (220, 160, 30), "stop_thief": (210, 40, 40)}


def draw(pygame: Any, screen: Any, grid: Grid, guard: Guard, thief: Thief) -> None:
    screen.fill((235, 235, 225))
    for r, c in np.argwhere(~grid.walkable).tolist():
        screen.fill((60, 60, 70), (c * CELL, r * CELL, CELL, CELL))
    for r, c in cells("A"):
        screen.fill((150, 150, 200), (c * CELL, r * CELL, CELL, CELL))
    if guard.heard is not None and guard.agent.beliefs["noise_heard"]:
        r, c = guard.heard
        pygame.draw.circle(screen, (220, 160, 30), ((c + 0.5) * CELL, (r + 0.5) * CELL), CELL, 2)
    path = [((c + 0.5) * CELL, (r + 0.5) * CELL) for r, c in guard.legs.path]
    if len(path) > 1:
        pygame.draw.lines(screen, (150, 200, 150), False, path, 2)
    if thief.here:
        r, c = thief.cell
        colour = (120, 120, 120) if thief.down else (40, 110, 220)
        pygame.draw.circle(screen, colour, ((c + 0.5) * CELL, (r + 0.5) * CELL), CELL // 2)
    x, y = guard.legs.position
    colour = COLOURS.get(guard.agent.goal.name if guard.agent.goal else "", (90, 90, 90))
    pygame.draw.circle(screen, colour, (x * CELL, y * CELL), CELL // 2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headless", action="store_true")
    parser.add_argument("--frames", type=int, default=None)
    args = parser.parse_args()
    main(args.frames, args.headless)
