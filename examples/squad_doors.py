"""Two squads swap sides of a level through narrow doors without walking into each other.

Run: ``python examples/squad_doors.py`` (a pygame window; ``--headless`` runs without
one, SDL's dummy video driver, as the tests do; ``--gif out.gif`` saves the run as an
animation, with Pillow). Needs ``pip install "pathcraft[games]"``.

Every unit is a :class:`pathcraft.agents.Pursuer` sharing one
:class:`pathcraft.mapf.Reservations`: each books the next few steps around the other
units' bookings (windowed cooperative A*), so no two units are ever on one cell at one
step nor swap cells, and a unit waits at a door while another comes through. The
table's clock ticks once per game step (every ``FRAMES_PER_STEP`` frames); units are
drawn sliding between the cells of two steps.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

from pathcraft import Grid
from pathcraft.agents import Pursuer
from pathcraft.mapf import Reservations

LEVEL = """\
#########################
#.......#.......#.......#
#.......#.......#.......#
#...............#.......#
#.......#...............#
#.......#.......#.......#
#.......#.......#.......#
#...............#.......#
#.......#...............#
#.......#.......#.......#
#########################"""
CELL = 28  # window pixels per cell
FRAMES_PER_STEP = 6  # frames per step of the table's clock (30 frames a second)
SQUADS = {  # colour: (cells it starts on, cells it goes to)
    (40, 110, 220): ([(r, c) for r in (2, 4, 6, 8) for c in (1, 2)],
                     [(r, c) for r in (2, 4, 6, 8) for c in (22, 21)]),
    (210, 60, 40): ([(r, c) for r in (2, 4, 6, 8) for c in (22, 21)],
                    [(r, c) for r in (2, 4, 6, 8) for c in (1, 2)]),
}  # fmt: skip


def squads(grid: Grid) -> tuple[Reservations, list[Pursuer], list[Any], list[Any]]:
    """The shared table, every unit, their goals and colours."""
    # following=True: no unit enters a cell another leaves in the same step (drawn
    # sliding between cells, they would overlap)
    table = Reservations(grid, window=12, replan=4, following=True)
    units, goals, colours = [], [], []
    for colour, (starts, ends) in SQUADS.items():
        for start, goal in zip(starts, ends, strict=True):
            units.append(Pursuer(grid, start, speed=1.0, reservations=table))
            goals.append(goal)
            colours.append(colour)
    return table, units, goals, colours


def main(
    steps: int | None = 80, headless: bool = False, gif: str | None = None
) -> dict[str, Any]:
    """Run the level; return how it went: ``cells`` (every unit's cell at every step),
    ``goals``, ``arrived`` (the step all were home, or None) and the ``grid``."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('this example needs pygame-ce: pip install "pathcraft[games]"') from exc

    grid = Grid.from_ascii(LEVEL, diagonal="never")
    table, units, goals, colours = squads(grid)
    pygame.display.init()
    rows, cols = grid.shape
    screen = pygame.display.set_mode((cols * CELL, rows * CELL))
    pygame.display.set_caption("pathcraft: squads through doors")
    clock = pygame.time.Clock()
    cells = [[unit.node for unit in units]]
    frames: list[Any] = []
    arrived = None
    step = 0
    running = True
    while running and (steps is None or step < steps):
        for unit, goal in zip(units, goals, strict=True):
            unit.step(goal, dt=1.0)  # where its booking puts it at the next step
        cells.append([unit.node for unit in units])
        table.tick()
        step += 1
        if arrived is None and cells[-1] == goals:
            arrived = step
        for frame in range(FRAMES_PER_STEP):
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    running = False
            draw(pygame, screen, grid, cells[-2], cells[-1], colours,
                 (frame + 1) / FRAMES_PER_STEP)  # fmt: skip
            pygame.display.flip()
            if gif and frame % 2 == 0:
                frames.append(pygame.image.tobytes(screen, "RGB"))
            if not headless:
                clock.tick(30)
        if arrived is not None and steps is None:
            break
    size = screen.get_size()
    pygame.quit()
    if gif:
        save_gif(gif, frames, size)
    print(f"{step} steps; all units home at step {arrived}")
    return {"cells": cells, "goals": goals, "arrived": arrived, "grid": grid}


def draw(pygame: Any, screen: Any, grid: Grid, before: list[Any], after: list[Any],
         colours: list[Any], t: float) -> None:  # fmt: skip
    """The level, and every unit ``t`` of the way from its cell before to after."""
    screen.fill((214, 206, 186))
    for r, c in np.argwhere(~grid.walkable):
        screen.fill((70, 70, 84), (c * CELL, r * CELL, CELL, CELL))
    for (r0, c0), (r1, c1), colour in zip(before, after, colours, strict=True):
        x = (c0 + t * (c1 - c0) + 0.5) * CELL
        y = (r0 + t * (r1 - r0) + 0.5) * CELL
        pygame.draw.circle(screen, colour, (x, y), CELL * 0.4)


def save_gif(path: str, frames: list[bytes], size: tuple[int, int]) -> None:
    """The frames as an animated GIF (Pillow, the ``viz`` extra)."""
    from PIL import Image

    images = [Image.frombytes("RGB", size, f).quantize(colors=16) for f in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=66, loop=0,
                   optimize=True)  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headless", action="store_true")
    parser.add_argument("--steps", type=int, default=None, help="default: until all arrive")
    parser.add_argument("--gif", default=None)
    args = parser.parse_args()
    main(args.steps, args.headless, args.gif)
