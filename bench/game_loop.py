"""A game loop: 20, 200 and 1,000 agents chasing a player who moves every frame.

On a 512x512 and a 1024x1024 Moving AI map and on the bundled Tiled level, the same
scripted player (a walk along A* paths between seeded random destinations,
``--player-speed`` cells a frame) is chased for ``--frames`` frames (60 a second) by
agents spawned at seeded random cells of its region, by each recipe:

- **Pursuer, blocking**: ``Pursuer.step(player, dt)`` for every agent, a whole search
  when the player changed cell;
- **Pursuer, frame_budget / time_budget_us**: the same with the frame's budget
  (``--expansions`` expansions or ``--budget-us`` microseconds) shared out per agent
  (a Pursuer's budget is its own);
- **queue, budget / time_budget_us**: each agent asks ``PathRequestQueue.request``
  again when the player changed cell (from the cell ahead where it will be when the
  answer comes) and walks its newest path; one ``update()`` a frame spends the
  frame's whole budget;
- **FlowField, rebuilt**: one field toward the player, built again when the player
  changed cell (a moving goal cannot be repaired: it drops the whole field's tree);
- **ChaseField**: the flow field that follows a moving target
  (``pathcraft.agents.ChaseField``: exact within ``--radius``, an anchor's field beyond,
  computed again on a worker thread);
- **mesh Pursuer, blocking / frame_budget**: ``Pursuer`` s on a ``NavMesh`` built
  from the grid (``NavMesh.from_grid``), chasing the player's cell centre;
- **crossing, reservations (WHCA*) / independent**: no player: the agents cross the
  map (half from its left third to its right third, half back), one cell a frame,
  as ``Pursuer`` s sharing one ``pathcraft.mapf.Reservations`` or each replanning
  alone (``bench/_crossing.py``; every frame's moves checked for collisions).

Measured per frame: the pathfinding time (every agent's step or request and the
queue's update; the flow fields' updates and next cells), in ms of this thread's CPU
time (``time.thread_time``: other processes on a shared machine do not count; the
time budgets read the wall clock), median, p95, p99 and max; the worker thread's CPU
per frame on top (ChaseField); paths delivered per second of game time (flow fields:
fields computed); agents that never moved; the process's RSS growth over the run.
A run that is too slow is stopped after ``--cap`` seconds and says so (the frames it
did are reported). Answers are checked: a sample of delivered paths against a fresh
``Grid.astar``, a sample of the flow fields' next cells against a distance field.
The Tiled level's player is a pixel position, turned into its cell by
``TileCoords.cell`` every frame (its cost is reported apart).

Usage::

    python bench/game_loop.py             # writes bench/results/game_loop.md (~10 min)
    python bench/game_loop.py --quick     # a tiny map, a few frames: prints only
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _crossing
from _machine import git_rev, machine, movingai_dir, reset_peak_rss, vm_status
from starve import Walker, deliver, player_route

from pathcraft import Grid, NavMesh
from pathcraft.agents import ChaseField, FlowField, GridSpace, PathRequestQueue, Pursuer
from pathcraft.io import read_scen, read_walkable

RESULTS = Path(__file__).resolve().parent / "results"
FPS = 60.0
MAPS = ("bg512/AR0011SR", "sc1/TheFrozenSea")
COUNTS = (20, 200, 1000)
Cell = tuple[int, int]


@dataclass
class World:
    """A map, the player's cell every frame, and (Tiled) the pixel position that
    yields it."""

    name: str
    grid: Grid
    route: list[Cell]
    to_cell: Callable[[int], Cell]  # the frame's player cell, as the game computes it


@dataclass
class Run:
    times: list[float]  # pathfinding per frame, s of this thread's CPU
    worker: float  # CPU of other threads over the run, s
    delivered: int  # paths (or fields) delivered
    still: int  # agents that never moved
    frames: int  # frames run (fewer when stopped by the cap)
    rss: int  # peak RSS growth over the run, bytes
    note: str = ""


def spawns(grid: Grid, start: Cell, n: int, seed: int) -> list[Cell]:
    """``n`` agents (repeats allowed) on cells of the player's region, away from it
    (farther than a quarter of the region's reach)."""
    field = grid.distance_field(start)
    reach = field[np.isfinite(field)].max()
    free = np.argwhere(np.isfinite(field) & (field > reach / 4))
    rng = np.random.default_rng(seed)
    return [(int(r), int(c)) for r, c in free[rng.integers(len(free), size=n)]]


def clock() -> tuple[float, float]:
    return time.thread_time(), time.process_time()


def rss() -> int:
    """This process's RSS now, bytes (0 where /proc is absent)."""
    status = vm_status()
    return 0 if status is None else status["VmRSS"]


def peak_growth(base: int) -> int:
    """How far the peak RSS rose over ``base`` since :func:`reset_peak_rss`."""
    status = vm_status()
    return 0 if status is None else status["VmHWM"] - base


#: Run in a fresh process (a process's RSS keeps memory freed earlier, so growth in
#: this one would read low): the memory ten sliced searches in flight hold, each
#: started and stepped once as a budgeted pursuer's is, past the pool's workspaces.
PROBE = """
import sys, numpy as np
from pathcraft import Grid, NavMesh
from _machine import vm_status
grid = Grid(np.load(sys.argv[1]))
cells = [tuple(int(v) for v in c) for c in np.load(sys.argv[2])]
held = [grid.start_search(cells[0], g) for g in cells[1:5]]
for s in held:
    s.step(1)
before = vm_status()["VmRSS"]
more = [grid.start_search(cells[0], g) for g in cells[5:15]]
for s in more:
    s.step(1)
print((vm_status()["VmRSS"] - before) / len(more))
"""


def inflight_bytes(grid: Grid, start: Cell, goals: list[Cell]) -> float:
    """The memory one sliced search in flight holds on this map, bytes (measured in
    a fresh process; 0 where /proc is absent)."""
    if vm_status() is None or len(goals) < 14:
        return 0.0
    with tempfile.TemporaryDirectory() as tmp:
        np.save(Path(tmp) / "cost.npy", grid.cost)
        np.save(Path(tmp) / "cells.npy", np.array([start, *goals[:14]]))
        out = subprocess.run(
            [sys.executable, "-c", PROBE, str(Path(tmp) / "cost.npy"),
             str(Path(tmp) / "cells.npy")],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )  # fmt: skip
    return max(0.0, float(out.stdout.split()[-1]))


# ---------------------------------------------------------------------- recipes


class Watch:
    """Which agents have left their start (looked at after each frame, outside the
    timed part: an agent back on its start cell at the end still moved)."""

    def __init__(self, enemies: list[Pursuer]) -> None:
        self.enemies = enemies
        self.waiting = {k: e.position for k, e in enumerate(enemies)}

    def look(self) -> None:
        for k in [k for k, p in self.waiting.items() if self.enemies[k].position != p]:
            del self.waiting[k]


def run_pursuers(
    world: World,
    starts: list[Cell],
    speed: float,
    cap: float,
    algorithm: str = "astar",
    **budget: Any,
) -> Run:
    space = GridSpace(world.grid, algorithm=algorithm)  # type: ignore[arg-type]
    enemies = [Pursuer(space, s, speed=speed * FPS, **budget) for s in starts]
    watch = Watch(enemies)
    times: list[float] = []
    wall = time.perf_counter()
    base = rss()
    note = ""
    for frame in range(len(world.route)):
        t0, _ = clock()
        target = world.to_cell(frame)
        for k, enemy in enumerate(enemies):
            enemy.step(target, dt=1 / FPS)
            if time.perf_counter() - wall > cap and k + 1 < len(enemies):
                note = f" in frame {frame + 1} after {k + 1} of {len(enemies)} agents"
                break
        times.append(clock()[0] - t0)
        watch.look()
        if time.perf_counter() - wall > cap:
            break
    for e in enemies[:20]:  # the last plans are optimal
        plan = e.last_plan
        if plan:
            a, b = (tuple(int(x) for x in plan.path[k]) for k in (0, -1))
            assert abs(plan.cost - world.grid.astar(a, b).cost) <= 1e-6 * max(1.0, plan.cost)
    still = len(watch.waiting)
    plans = sum(e.plans for e in enemies)
    return Run(times, 0.0, plans, still, len(times), peak_growth(base), note)


#: Expansions of the greedy glimpse an agent without a path takes toward the player.
GLIMPSE = 16
#: Frames an agent whose glimpse found no step waits before it glimpses again.
STUCK = 30


def run_queue(
    world: World,
    starts: list[Cell],
    speed: float,
    cap: float,
    algorithm: str = "astar",
    **budget: Any,
) -> Run:
    """Agents served by one queue: all ask again (``request_many``) when the player
    changed cell; an agent at the end of its path walks meanwhile its request's best
    partial path (``best_so_far``, a search under way with ``partial=True``), else a
    greedy glimpse toward the player (a ``GLIMPSE``-expansion partial greedy search:
    requests waiting in line). Timed apart: the queue (requests
    and update, the table's ms) and the agents (where they ask from, adopting
    answers, partial paths and glimpses, walking)."""
    grid = world.grid
    walkers = [Walker(s, speed) for s in starts]
    keys = list(range(len(walkers)))
    queue = PathRequestQueue(**budget)
    asked_at: dict[int, int] = {}
    times: list[float] = []
    agents: list[float] = []  # the agents' own time per frame
    glimpses = partials = 0
    delivered, last = 0, None
    checked: list[Any] = []
    stuck: dict[int, int] = {}  # agents whose glimpse found nothing: the frame to retry
    wall = time.perf_counter()
    base = rss()
    for frame in range(len(world.route)):
        t0, _ = clock()
        target = world.to_cell(frame)
        own = 0.0
        if target != last:
            for k, w in enumerate(walkers):  # a pending request: it waited this long yet
                w.wait = max(w.wait, frame - asked_at.get(k, frame) + 1)
            aheads = [w.ahead() for w in walkers]
            t1, _ = clock()
            own += t1 - t0
            queue.request_many(keys, grid, aheads, target, algorithm=algorithm, partial=True)
            for k in keys:
                asked_at.setdefault(k, frame)
            last = target
        done = queue.update()
        t2, _ = clock()
        times.append(t2 - t0 - own)
        delivered += deliver(done, walkers, asked_at, frame, queue, checked, keep=20)
        for k, w in enumerate(walkers):
            if w.idle and stuck.get(k, 0) <= frame:
                best = queue.best_so_far(k)
                if (
                    best is not None
                    and len(best.path) > 1
                    and w.adopt(list(map(tuple, best.path.tolist())))
                ):
                    partials += 1
                else:
                    glimpse = grid.find_path(
                        w.cell, target, algorithm="greedy", max_expansions=GLIMPSE,
                        partial=True,
                    )  # fmt: skip
                    glimpses += 1
                    if len(glimpse.path) > 1:
                        w.adopt(list(map(tuple, glimpse.path.tolist())))
                    else:  # a wall between it and the player: it waits a while
                        stuck[k] = frame + STUCK
            w.walk()
        agents.append(own + clock()[0] - t2)
        if time.perf_counter() - wall > cap:
            break
    for result in checked:
        a, b = (tuple(int(x) for x in result.path[k]) for k in (0, -1))
        assert abs(result.cost - grid.astar(a, b).cost) <= 1e-6 * max(1.0, result.cost)
    for w in walkers:  # every step walked is legal: the grid's own check of a path
        grid.smooth(w.path[: w.i + 1])
    still = sum(not w.moved for w in walkers)
    n = max(len(times), 1)
    note = (
        f"; agents' own p99 {np.percentile(agents, 99) * 1e3:.2f} ms "
        f"({partials / n:.1f} partial paths, {glimpses / n:.1f} glimpses a frame)"
    )
    return Run(times, 0.0, delivered, still, len(times), peak_growth(base), note)


class Flock:
    """Agents stepping from cell to next cell at ``speed`` cells a frame (a diagonal
    step is sqrt(2) long), all moved by one vectorised call a frame."""

    def __init__(self, starts: list[Cell], speed: float) -> None:
        self.cells = np.array(starts, dtype=np.intp).reshape(-1, 2)
        self.moved = np.zeros(len(starts), dtype=bool)
        self.progress = np.zeros(len(starts))
        self.speed = speed

    def step(self, next_cells: Callable[[np.ndarray], np.ndarray]) -> None:
        self.progress += self.speed
        ready = np.flatnonzero(self.progress >= 1.0)
        if ready.size:
            nxt = next_cells(self.cells[ready])
            diagonal = (nxt != self.cells[ready]).all(axis=1)
            stays = (nxt == self.cells[ready]).all(axis=1)
            self.moved[ready] |= ~stays
            self.cells[ready] = nxt
            self.progress[ready] -= np.where(diagonal, math.sqrt(2.0), 1.0)
            self.progress[ready[stays]] = 0.0

    def still(self) -> int:
        return int((~self.moved).sum())


def check_downhill(grid: Grid, target: Cell, cells: np.ndarray, nxt: np.ndarray) -> None:
    """A sample of next cells each lowers the distance to ``target`` by its step."""
    dist = grid.distance_field(target)
    for a, b in zip(cells[:50].tolist(), nxt[:50].tolist(), strict=True):
        if a != b and np.isfinite(dist[tuple(a)]):
            step = math.sqrt(2.0) if a[0] != b[0] and a[1] != b[1] else 1.0
            assert abs(dist[tuple(b)] + step * grid.cost[tuple(a)] - dist[tuple(a)]) < 1e-6


def field_steps(field: FlowField) -> Callable[[np.ndarray], np.ndarray]:
    return lambda cells: field.next_cell[cells[:, 0], cells[:, 1]]


def run_flowfield(world: World, starts: list[Cell], speed: float, cap: float) -> Run:
    flock = Flock(starts, speed)
    times: list[float] = []
    field, last, built = None, None, 0
    wall = time.perf_counter()
    base = rss()
    for frame in range(len(world.route)):
        t0, _ = clock()
        target = world.to_cell(frame)
        if target != last:
            field, last, built = FlowField(world.grid, target), target, built + 1
        assert field is not None
        flock.step(field_steps(field))
        times.append(clock()[0] - t0)
        if time.perf_counter() - wall > cap:
            break
    assert field is not None and last is not None
    nxt = field.next_cell[flock.cells[:, 0], flock.cells[:, 1]]
    check_downhill(world.grid, last, flock.cells, nxt)
    return Run(times, 0.0, built, flock.still(), len(times), peak_growth(base))


def run_chasefield(
    world: World, starts: list[Cell], speed: float, cap: float, radius: float
) -> Run:
    flock = Flock(starts, speed)
    times: list[float] = []
    wall = time.perf_counter()
    base = rss()
    chase = ChaseField(world.grid, world.to_cell(0), radius=radius)
    p0 = time.process_time()
    own = 0.0
    moves, last = 0, None
    for frame in range(len(world.route)):
        t0, _ = clock()
        target = world.to_cell(frame)
        chase.move_target(target)
        moves += target != last
        last = target
        flock.step(chase.next_cells)
        t1, _ = clock()
        times.append(t1 - t0)
        own += t1 - t0
        if time.perf_counter() - wall > cap:
            break
    worker = max(0.0, time.process_time() - p0 - own)
    chase.wait()
    near = chase.next_cells(flock.cells)
    # within the radius the next cells are exact toward the player
    dist = world.grid.distance_field(chase.target)
    close = dist[flock.cells[:, 0], flock.cells[:, 1]] <= radius
    check_downhill(world.grid, chase.target, flock.cells[close], near[close])
    note = f"; {chase.rebuilds} far fields"
    return Run(times, worker, moves, flock.still(), len(times), peak_growth(base), note)


def run_mesh_pursuers(
    world: World, starts: list[Cell], speed: float, cap: float, **budget: Any
) -> Run:
    """``Pursuer`` s on a ``NavMesh`` of the grid's walkable cells (built outside the
    timed frames; cell ``(r, c)`` is the square ``[c, c + 1] x [r, r + 1]``): agents
    and the player at cell centres, ``(x, y)``."""
    mesh = NavMesh.from_grid(world.grid)
    points = [(c + 0.5, r + 0.5) for r, c in starts]
    enemies = [Pursuer(mesh, p, speed=speed * FPS, **budget) for p in points]
    watch = Watch(enemies)
    times: list[float] = []
    wall = time.perf_counter()
    base = rss()
    for frame in range(len(world.route)):
        t0, _ = clock()
        r, c = world.to_cell(frame)
        for enemy in enemies:
            enemy.step((c + 0.5, r + 0.5), dt=1 / FPS)
        times.append(clock()[0] - t0)
        watch.look()
        if time.perf_counter() - wall > cap:
            break
    assert all(mesh.locate(e.position) >= 0 for e in enemies), "an agent left the mesh"
    still = len(watch.waiting)
    plans = sum(e.plans for e in enemies)
    return Run(times, 0.0, plans, still, len(times), peak_growth(base))


def run_crossing(world: World, starts: list[Cell], speed: float, cap: float, **how: Any) -> Run:
    """Units crossing the map (``bench/_crossing.py``): as many as ``starts``, their
    own starts and goals; ``speed`` is one cell a frame here."""
    base = rss()
    times, plans, still, note = _crossing.run(
        world.grid, world.route[0], len(starts), len(world.route), cap,
        lambda: clock()[0], **how,
    )  # fmt: skip
    return Run(times, 0.0, plans, still, len(times), peak_growth(base), note)


# ---------------------------------------------------------------------- worlds


def movingai_world(name: str, frames: int, player_speed: float) -> World:
    """A Moving AI map; the player starts where its longest scenario does (a big
    region)."""
    root = movingai_dir()
    walkable = np.asarray(read_walkable(root / "maps" / f"{name}.map"), dtype=bool)
    grid = Grid.from_walkable(walkable)
    scen = read_scen(root / "scen" / f"{name}.map.scen")
    start = tuple(int(x) for x in scen.starts[int(np.argmax(scen.optimal))])
    label = f"{name} ({grid.shape[1]}x{grid.shape[0]})"
    return scripted(label, grid, (start[0], start[1]), frames, player_speed)


def scripted(name: str, grid: Grid, start: Cell, frames: int, player_speed: float) -> World:
    """The player walks from ``start``, ``player_speed`` cells a frame, along A* paths
    to random destinations (seed 7: the same walk for every recipe)."""
    route = player_route(grid, start, frames, player_speed, seed=7)
    return World(name, grid, route, route.__getitem__)


def tiled_world(frames: int, player_speed: float) -> World:
    """The bundled Tiled level; the player is a pixel position (between cell
    centres along its walk), turned into a cell by ``TileCoords.cell`` each frame."""
    from pathcraft.io.tiled import bundled_level, read_tiled

    level = read_tiled(bundled_level())
    grid = level.grid(obstacles="obstacles")
    tiles = level.coords
    start = tiles.cell(level.spawns()["player"][0])
    label = f"bundled Tiled level ({grid.shape[1]}x{grid.shape[0]})"
    world = scripted(label, grid, start, frames, player_speed)
    centres = tiles.to_pixels(np.array(world.route))
    # a quarter tile off the centre, toward the next cell: a physics position
    ahead = np.roll(centres, -1, axis=0)
    ahead[-1] = centres[-1]
    points = [(float(x), float(y)) for x, y in (centres + 0.25 * (ahead - centres)).tolist()]
    world.to_cell = lambda frame: tiles.cell(points[frame])
    return world


def tilecoords_cost(world: World, n: int = 20000) -> float:
    """Microseconds per ``TileCoords.cell`` call, over the player's positions."""
    t0 = time.perf_counter()
    for k in range(n):
        world.to_cell(k % len(world.route))
    return (time.perf_counter() - t0) / n * 1e6


# ---------------------------------------------------------------------- report


def row(world: str, n: int, label: str, run: Run, total: int) -> str:
    t = np.asarray(run.times) * 1e3
    seconds = run.frames / FPS
    done = run.frames >= total or "all arrived" in run.note  # (crossing: done early)
    stopped = "" if done else f" (stopped at frame {run.frames})"
    if run.note.startswith(" in frame"):  # stopped inside a frame: its time is partial
        stopped, run.note = f" (stopped{run.note}: times are lower bounds)", ""
    worker = f"{run.worker / max(run.frames, 1) * 1e3:.2f}" if run.worker else "-"
    return (
        f"| {world} | {n} | {label}{stopped}{run.note} | {np.median(t):.2f} | "
        f"{np.percentile(t, 95):.2f} | {np.percentile(t, 99):.2f} | {t.max():.2f} | "
        f"{worker} | {run.delivered / seconds:.0f} | {run.still} | "
        f"{run.rss / 2**20:+.1f} |"
    )


def recipes(args: argparse.Namespace, n: int) -> list[tuple[str, Callable[..., Run], dict]]:
    expansions = max(1, args.expansions // n)
    micro = args.budget_us / n
    return [
        ("Pursuer, blocking", run_pursuers, {}),
        (f"Pursuer, frame_budget={expansions}", run_pursuers, {"frame_budget": expansions}),
        (f"Pursuer, time_budget_us={micro:g}", run_pursuers, {"time_budget_us": micro}),
        (f"queue, budget={args.expansions}", run_queue, {"budget": args.expansions}),
        (f"queue, time_budget_us={args.budget_us:g}", run_queue,
         {"time_budget_us": args.budget_us}),
        (f"Pursuer, time_budget_us={micro:g}, jps", run_pursuers,
         {"time_budget_us": micro, "algorithm": "jps"}),
        (f"queue, time_budget_us={args.budget_us:g}, jps", run_queue,
         {"time_budget_us": args.budget_us, "algorithm": "jps"}),
        ("FlowField, rebuilt per player cell", run_flowfield, {}),
        (f"ChaseField, radius={args.radius:g}", run_chasefield, {"radius": args.radius}),
        ("mesh Pursuer, blocking", run_mesh_pursuers, {}),
        (f"mesh Pursuer, frame_budget={expansions}", run_mesh_pursuers,
         {"frame_budget": expansions}),
        ("crossing, reservations (WHCA*, window=16, replan=8)", run_crossing,
         {"recipe": "reservations"}),
        ("crossing, independent (astar every 8 frames)", run_crossing,
         {"recipe": "independent"}),
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="a tiny map, a few frames; prints")
    p.add_argument("--frames", type=int, default=300)
    p.add_argument("--counts", default=",".join(map(str, COUNTS)))
    p.add_argument("--player-speed", type=float, default=0.25, help="cells per frame")
    p.add_argument("--speed", type=float, default=0.2, help="agent cells per frame")
    p.add_argument("--expansions", type=int, default=4000, help="per frame, all agents")
    p.add_argument("--budget-us", type=float, default=2000.0, help="per frame, all agents")
    p.add_argument("--radius", type=float, default=32.0, help="ChaseField radius")
    p.add_argument("--cap", type=float, default=6.0, help="seconds a run may take")
    p.add_argument("--max-gb", type=float, default=2.0,
                   help="skip budgeted pursuers whose searches would hold more")  # fmt: skip
    p.add_argument(
        "--only", default="", help="run only recipes whose label holds this (prints only)"
    )
    p.add_argument(
        "--maps",
        default="",
        help="comma list of maps to run, 'tiled' for the Tiled level (prints only)",
    )
    args = p.parse_args(argv)
    partial_run = bool(args.only or args.maps)
    if args.quick:
        rng = np.random.default_rng(1)
        walkable = rng.random((40, 48)) > 0.2
        walkable[20, :] = True
        grid = Grid.from_walkable(walkable)
        worlds = [scripted("random 48x40 (quick)", grid, (20, 0), 40, args.player_speed)]
        counts = [5, 20]
        args.radius = min(args.radius, 8.0)
    else:
        names = args.maps.split(",") if args.maps else [*MAPS, "tiled"]
        worlds = [movingai_world(m, args.frames, args.player_speed)
                  for m in names if m != "tiled"]  # fmt: skip
        if "tiled" in names:
            worlds.append(tiled_world(args.frames, args.player_speed))
        counts = [int(c) for c in args.counts.split(",")]
    rows: list[str] = []
    for world in worlds:
        per_search = 0.0  # a tiny map's searches hold little: not probed
        if not args.quick and not partial_run:
            probe = spawns(world.grid, world.route[0], 14, seed=0)
            per_search = inflight_bytes(world.grid, world.route[0], probe)
        for n in counts:
            starts = spawns(world.grid, world.route[0], n, seed=n)
            held = n * per_search
            for label, run, options in recipes(args, n):
                if args.only and args.only not in label:
                    continue
                if options.get("algorithm") == "jps" and world.grid.uniform_cost is None:
                    rows.append(f"| {world.name} | {n} | {label}: skipped, jps needs "
                                "uniform costs | | | | | | | | |")  # fmt: skip
                    continue
                if run is run_crossing and n > _crossing.room(world.grid, world.route[0]):
                    rows.append(f"| {world.name} | {n} | {label}: skipped, room for "
                                f"{_crossing.room(world.grid, world.route[0])} units a "
                                "side | | | | | | | | |")  # fmt: skip
                    print(rows[-1], flush=True)
                    continue
                budgeted = "frame_budget" in options or "time_budget_us" in options
                if budgeted and run is run_pursuers and held > args.max_gb * 2**30:
                    rows.append(
                        f"| {world.name} | {n} | {label}: skipped, {n} searches in flight "
                        f"would hold ~{held / 2**30:.1f} GB (measured: {per_search / 2**20:.1f} MB "
                        "each) | | | | | | | | |"
                    )
                    print(rows[-1], flush=True)
                    continue
                gc.collect()
                reset_peak_rss()
                result = run(world, starts, args.speed, args.cap, **options)
                rows.append(row(world.name, n, label, result, len(world.route)))
                print(rows[-1], flush=True)
    notes = [
        "Mesh agents: `Pursuer` s on `NavMesh.from_grid(grid)` (walkable or not: the Tiled "
        "level's mud costs are not kept), positions at cell centres; every agent checked "
        "on the mesh at the end.",
        "Crossing: no player; the agents cross the map one cell a frame (half left third "
        "to right third, half back; distinct starts and goals), until all arrive or the "
        "frames run out. *reservations*: `Pursuer(..., reservations=table)` sharing one "
        "`pathcraft.mapf.Reservations` (each books 16 steps ahead around the others, "
        "again every 8 frames; paths/s counts bookings); *independent*: one `Grid.astar` "
        "per agent every 8 frames, nothing keeping them apart. Every frame's moves are "
        "checked (vertex and swap conflicts; none allowed with reservations).",
    ]
    if not args.quick and not partial_run:
        tiled = worlds[-1]
        notes.append(
            f"`TileCoords.cell(pos)` on the Tiled level's player positions: "
            f"{tilecoords_cost(tiled):.2f} us a call (plain float tuples)."
        )
    head = [
        "# A game loop: agents chasing a player who moves every frame",
        "",
        f"`python bench/game_loop.py` on {machine()}; commit {git_rev()}. The machine "
        "was shared with other jobs while it ran (CPU times below count this process's "
        "threads only, yet caches and memory bandwidth were shared).",
        "",
        f"The player walks {args.player_speed} cells a frame (a new cell every "
        f"{1 / args.player_speed:g} frames) for {len(worlds[0].route)} frames at 60 a "
        f"second; agents walk {args.speed} cells a frame (8-connected, no corner "
        f"cutting). The frame's budget: {args.expansions} expansions or "
        f"{args.budget_us:g} us for all agents (a Pursuer's is the frame's / agents: it "
        "bounds that pursuer's searching only, so a Pursuer row's frame is the sum of "
        "every pursuer's step, its budget plus its fixed cost, checking the target, "
        "walking, starting and adopting plans, tens of microseconds a plan; the queue's "
        "budget is the frame's, its requests, searches and answers together). "
        "ms: pathfinding per frame on the main thread (CPU), median / p95 / p99 / max; "
        "worker ms: CPU of the ChaseField's worker thread per frame, on top; paths/s: "
        "paths delivered (flow fields: fields computed, ChaseField: near fields) per "
        "second of game time; "
        "still: agents that never moved; RSS: peak growth over the run. A run over "
        f"{args.cap:g} s is stopped (the frames it ran are reported).",
        "",
        "| map | agents | recipe | median | p95 | p99 | max | worker ms | paths/s | "
        "still | RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    text = "\n".join(head + rows + [""] + [n for n in notes if n]) + "\n"
    print(text)
    if not args.quick and not partial_run:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "game_loop.md").write_text(text)
    return text


if __name__ == "__main__":
    main()
