"""Units crossing a map in a game loop, for ``bench/game_loop.py``: half of them from
its left third to its right third, half back, one cell (or a wait) a frame.

- **reservations (WHCA*)**: every unit a ``Pursuer`` sharing one
  ``pathcraft.mapf.Reservations`` (``reservations=``): each books ``window`` steps
  ahead around the others' bookings, again every ``replan`` frames; the table ticks
  once a frame.
- **independent**: the same units, each its own ``Grid.astar`` from its cell to its
  goal every ``replan`` frames, walking its path (nothing keeps them apart).

Every frame the script checks the units' cells: no two on one cell, no two swapping
cells, every move to a neighbouring cell of the grid (its corner rule) or a wait. The
reservations recipe must make no collision (asserted); the independent one's are
counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from pathcraft import Grid
from pathcraft.agents import Pursuer
from pathcraft.mapf import Reservations

Cell = tuple[int, int]


def _thirds(grid: Grid, region: Cell) -> tuple[np.ndarray, np.ndarray]:
    """The cells of the region of ``region`` in the map's left and right thirds."""
    field = grid.distance_field(region)
    cols = grid.shape[1]
    col = np.arange(cols)[None, :]
    ok = np.isfinite(field)
    return np.argwhere(ok & (col < cols // 3)), np.argwhere(ok & (col >= cols - cols // 3))


def room(grid: Grid, region: Cell) -> int:
    """How many units can cross: distinct starts and goals in each third."""
    left, right = _thirds(grid, region)
    return min(len(left), len(right))


def crossing(grid: Grid, region: Cell, n: int, seed: int) -> tuple[list[Cell], list[Cell]]:
    """``n`` distinct starts and goals in the region of ``region``: half from the left
    third of the map to the right third, half back (``n`` at most :func:`room`)."""
    left, right = _thirds(grid, region)
    if n > min(len(left), len(right)):
        raise ValueError(f"{n} units cannot cross: room for {min(len(left), len(right))}")
    rng = np.random.default_rng(seed)
    a = [tuple(int(v) for v in c) for c in left[rng.permutation(len(left))[:n]]]
    b = [tuple(int(v) for v in c) for c in right[rng.permutation(len(right))[:n]]]
    half = n // 2
    starts = a[:half] + b[half:n]
    goals = b[:half] + a[half:n]
    return starts, goals  # type: ignore[return-value]


def conflicts(grid: Grid, before: list[Cell], after: list[Cell]) -> int:
    """Vertex and swap conflicts of one frame's moves (illegal moves raise)."""
    walkable = np.isfinite(grid.cost)
    for a, b in zip(before, after, strict=True):
        dr, dc = b[0] - a[0], b[1] - a[1]
        assert max(abs(dr), abs(dc)) <= 1 and walkable[b], (a, b)
        if dr and dc:
            assert grid.diagonal != "never"
            assert walkable[a[0] + dr, a[1]] and walkable[a[0], a[1] + dc], (a, b)
    found = len(after) - len(set(after))
    moved = {(a, b) for a, b in zip(before, after, strict=True) if a != b}
    found += sum((b, a) in moved for a, b in moved) // 2
    return found


def run(
    grid: Grid,
    region: Cell,
    n: int,
    frames: int,
    cap: float,
    clock: Callable[[], float],
    *,
    recipe: str,
    window: int = 16,
    replan: int = 8,
) -> tuple[list[float], int, int, str]:
    """One recipe: (seconds of pathfinding per frame, plans made, units that never
    moved, a note: arrivals and collisions)."""
    starts, goals = crossing(grid, region, n, seed=n)
    cells = list(starts)
    moved = [False] * len(cells)
    times: list[float] = []
    collisions = 0
    wall = time.perf_counter()
    plans = 0
    if recipe == "reservations":
        table = Reservations(grid, window=window, replan=replan)
        units = [Pursuer(grid, s, speed=1.0, reservations=table) for s in starts]
    else:
        paths: list[list[Cell]] = [[] for _ in starts]
        at = [0] * len(starts)
    for frame in range(frames):
        t0 = clock()
        if recipe == "reservations":
            for unit, goal in zip(units, goals, strict=True):
                unit.step(goal, dt=1.0)
            after = [unit.node for unit in units]
        else:
            after = []
            for k, goal in enumerate(goals):
                if frame % replan == 0 and cells[k] != goal:
                    paths[k] = [tuple(c) for c in grid.astar(cells[k], goal).path.tolist()]
                    at[k] = 0
                    plans += 1
                at[k] = min(at[k] + 1, len(paths[k]) - 1) if paths[k] else 0
                after.append(paths[k][at[k]] if paths[k] else cells[k])
        times.append(clock() - t0)
        collisions += conflicts(grid, cells, after)  # type: ignore[arg-type]
        moved = [m or a != b for m, a, b in zip(moved, cells, after, strict=True)]
        cells = after  # type: ignore[assignment]
        if recipe == "reservations":
            table.tick()
        if time.perf_counter() - wall > cap or cells == goals:
            break
    if recipe == "reservations":
        assert collisions == 0, f"{collisions} collisions with reservations"
        plans = sum(unit.plans for unit in units)
        waiting = sum(unit.waiting for unit in units)
        extra = f", {waiting} waiting"
    else:
        extra = ""
    arrived = sum(c == g for c, g in zip(cells, goals, strict=True))
    home = f"all arrived at frame {len(times)}" if cells == goals else (
        f"{arrived} of {len(goals)} arrived{extra}")  # fmt: skip
    mean = np.mean(times[1:]) * 1e3 if len(times) > 1 else 0.0
    first = "distance tables, first bookings" if recipe == "reservations" else "first A*s"
    note = (
        f"; {home}, {collisions} collisions; mean {mean:.2f} ms a frame after the "
        f"first ({times[0] * 1e3:.0f} ms: {first})"
    )
    return times, plans, len(moved) - sum(moved), note
