"""An enemy chasing a player around obstacles, drawn with pygame (pygame-ce).

Run: ``python examples/chase.py`` (arrow keys move the player; without keys it runs
between random spots on its own). ``python examples/chase.py --headless --frames 400``
runs without a window (SDL's dummy video driver) and prints when the enemy caught the
player; the tests run it that way. Needs ``pip install "pathcraft[games]"``.

The enemy is a :class:`pathcraft.agents.Pursuer`: it searches again only when the
player has moved to another cell, and is drawn between cells as it moves.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

from pathcraft import Grid
from pathcraft.agents import Pursuer

MAP = """
........................................
........................................
....######..........#########...........
.........#..................#...........
.........#......######......#....####...
.........#...........#......#.......#...
..####...#...........#..............#...
.....#...............#......#########...
.....#......#######..#..................
.....#............#.....................
..........#.......#.......#######.......
..........#.......######........#.......
..........#.....................#.......
...######.#........#####........#...#...
..........#............#............#...
........................................
"""
CELL = 16
PLAYER_SPEED = 4.0  # cells per second
ENEMY_SPEED = 6.0


class Player:
    """Runs to random free cells along A* paths, or where the arrow keys say."""

    def __init__(self, grid: Grid, cell: tuple[int, int], seed: int) -> None:
        self.grid = grid
        self.cell = cell
        self.rng = np.random.default_rng(seed)
        self.free = np.argwhere(grid.walkable)
        self.route: list[tuple[int, int]] = []
        self.clock = 0.0

    def update(self, dt: float, keys: tuple[int, int] | None) -> tuple[int, int]:
        self.clock += dt * PLAYER_SPEED
        while self.clock >= 1.0:  # one cell at a time
            self.clock -= 1.0
            if keys is not None and keys != (0, 0):
                nxt = (self.cell[0] + keys[0], self.cell[1] + keys[1])
                rows, cols = self.grid.shape
                if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and self.grid.walkable[nxt]:
                    self.cell = nxt
                self.route = []
                continue
            if not self.route:
                goal = tuple(int(x) for x in self.free[self.rng.integers(len(self.free))])
                self.route = [tuple(p) for p in self.grid.astar(self.cell, goal).path.tolist()][1:]
            if self.route:
                self.cell = self.route.pop(0)
        return self.cell


def main(frames: int | None = None, headless: bool = False, seed: int = 0) -> dict[str, Any]:
    """Run the chase; return how it went (``caught``, ``frame``, ``searches``)."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('this example needs pygame-ce: pip install "pathcraft[games]"') from exc
    grid = Grid.from_ascii(MAP)
    rows, cols = grid.shape
    pygame.display.init()  # video only: no sound card needed
    screen = pygame.display.set_mode((cols * CELL, rows * CELL))
    pygame.display.set_caption("pathcraft: chase")
    clock = pygame.time.Clock()
    player = Player(grid, (rows - 1, cols - 1), seed)
    enemy = Pursuer(grid, (0, 0), speed=ENEMY_SPEED)
    dt = 1.0 / 30.0  # a fixed time step: the same run headless or not
    frame = 0
    caught_at = None
    running = True
    while running and (frames is None or frame < frames):
        keys = None
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
        if not headless:
            pressed = pygame.key.get_pressed()
            keys = (int(pressed[pygame.K_DOWN]) - int(pressed[pygame.K_UP]),
                    int(pressed[pygame.K_RIGHT]) - int(pressed[pygame.K_LEFT]))  # fmt: skip
        target = player.update(dt, keys)
        status = enemy.step(target, dt)
        draw(pygame, screen, grid, enemy, target)
        pygame.display.flip()
        if not headless:
            clock.tick(30)
        frame += 1
        if status == "caught":
            caught_at = frame
            if frames is not None:
                break
            enemy = Pursuer(grid, (0, 0), speed=ENEMY_SPEED)  # again, from the corner
    pygame.quit()
    result = {"caught": caught_at is not None, "frame": caught_at, "searches": enemy.plans}
    print(f"caught: {result['caught']} at frame {caught_at}; {enemy.plans} searches")
    return result


def draw(pygame: Any, screen: Any, grid: Grid, enemy: Pursuer, target: tuple[int, int]) -> None:
    screen.fill((235, 235, 225))
    for r, c in np.argwhere(~grid.walkable).tolist():
        screen.fill((60, 60, 70), (c * CELL, r * CELL, CELL, CELL))
    path = [((c + 0.5) * CELL, (r + 0.5) * CELL) for r, c in enemy.path]
    if len(path) > 1:
        pygame.draw.lines(screen, (230, 150, 150), False, path, 2)
    pr, pc = target
    pygame.draw.circle(screen, (40, 110, 220), ((pc + 0.5) * CELL, (pr + 0.5) * CELL), CELL // 2)
    x, y = enemy.position
    pygame.draw.circle(screen, (210, 40, 40), (x * CELL, y * CELL), CELL // 2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headless", action="store_true")
    parser.add_argument("--frames", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    main(args.frames, args.headless, args.seed)
