"""A small pygame game on the Tiled level bundled with pathcraft: enemies chase the player.

Run: ``python examples/tiled_game.py`` (arrow keys move the player; without keys the
player patrols the level's waypoints). ``python examples/tiled_game.py --headless
--frames 300`` runs without a window (SDL's dummy video driver); the tests run it that
way. ``--screenshot out.png`` saves the last frame. Needs ``pip install
"pathcraft[games,tiled]"``.

Everything comes from the Tiled map (``pathcraft/data/dungeon.tmx``): the grid
(walls from tile properties, mud that costs 3, the crates, rock and pillar objects as
walls of every cell they overlap, though they straddle tiles), the spawn points and the
patrol waypoints. The player walks pixel paths from
:meth:`pathcraft.coords.TileCoords.find_path`; each enemy is a
:class:`pathcraft.agents.Pursuer` that searches again only when the player changes
cell, drawn between cells with :meth:`~pathcraft.coords.TileCoords.units_to_pixels`.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

from pathcraft.agents import Pursuer
from pathcraft.io.tiled import bundled_level, read_tiled

PLAYER_SPEED = 70.0  # pixels per second
ENEMY_SPEED = 3.5  # cells (of path cost) per second: mud slows them down
SCALE = 2  # window pixels per map pixel
COLOURS = {"floor": (214, 206, 186), "mud": (176, 150, 104), "wall": (70, 70, 84),
           "water": (60, 120, 200), "object": (120, 84, 84)}  # fmt: skip


class Player:
    """Walks to the level's waypoints in turn along pixel paths, or where keys say."""

    def __init__(self, level: Any, grid: Any) -> None:
        self.tiles = level.coords
        self.grid = grid
        self.pos = np.array(level.spawns()["player"][0], dtype=float)
        self.waypoints = level.waypoints()
        self.next_waypoint = 0
        self.route: list[np.ndarray] = []

    @property
    def cell(self) -> tuple[int, int]:
        return self.tiles.cell(self.pos)

    def update(self, dt: float, keys: tuple[int, int] | None) -> None:
        step = PLAYER_SPEED * dt
        if keys is not None and keys != (0, 0):
            self.route = []
            moved = self.pos + np.array(keys, dtype=float) * step
            r, c = self.tiles.to_cells(moved)[0]
            if (
                0 <= r < self.grid.shape[0]
                and 0 <= c < self.grid.shape[1]
                and self.grid.walkable[r, c]
            ):
                self.pos = moved
            return
        if not self.route:
            goal = self.waypoints[self.next_waypoint]
            self.next_waypoint = (self.next_waypoint + 1) % len(self.waypoints)
            result = self.tiles.find_path(self.grid, self.pos, goal)
            self.route = list(np.asarray(result.path))
        while self.route and step > 0:
            delta = self.route[0] - self.pos
            dist = float(np.hypot(*delta))
            if dist <= step:
                self.pos = self.route.pop(0).astype(float)
                step -= dist
            else:
                self.pos = self.pos + delta / dist * step
                step = 0.0


def main(
    frames: int | None = None, headless: bool = False, screenshot: str | None = None
) -> dict[str, Any]:
    """Run the game; return how it went (``frames``, ``caught``, ``searches``, and the
    positions drawn: ``player`` and ``enemies`` per frame, in map pixels)."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('this example needs pygame-ce: pip install "pathcraft[games]"') from exc

    level = read_tiled(bundled_level())
    grid = level.grid(obstacles="obstacles")  # walls, mud costs, objects as walls
    tiles = level.coords
    player = Player(level, grid)
    enemies = [Pursuer(grid, tiles.cell(xy), speed=ENEMY_SPEED) for xy in level.spawns()["enemy"]]

    pygame.display.init()
    rows, cols = grid.shape
    tw, th = (int(v) for v in tiles.tile_size)
    screen = pygame.display.set_mode((cols * tw * SCALE, rows * th * SCALE))
    pygame.display.set_caption("pathcraft: a Tiled level")
    background = draw_level(pygame, level, grid)
    clock = pygame.time.Clock()
    dt = 1.0 / 30.0  # a fixed time step: the same run headless or not
    trace: dict[str, list[Any]] = {"player": [], "enemies": []}
    caught_at = None
    frame = 0
    running = True
    while running and (frames is None or frame < frames):
        keys = None
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
        if not headless:
            pressed = pygame.key.get_pressed()
            keys = (int(pressed[pygame.K_RIGHT]) - int(pressed[pygame.K_LEFT]),
                    int(pressed[pygame.K_DOWN]) - int(pressed[pygame.K_UP]))  # fmt: skip
        player.update(dt, keys)
        statuses = [enemy.step(player.cell, dt) for enemy in enemies]
        if "caught" in statuses and caught_at is None:
            caught_at = frame + 1
        where = tiles.units_to_pixels([enemy.position for enemy in enemies])
        trace["player"].append(player.pos.copy())
        trace["enemies"].append(where)
        draw(pygame, screen, background, tiles, player, enemies, where)
        pygame.display.flip()
        if not headless:
            clock.tick(30)
        frame += 1
    if screenshot:
        pygame.image.save(screen, screenshot)
    pygame.quit()
    searches = sum(enemy.plans for enemy in enemies)
    print(f"{frame} frames; caught at frame {caught_at}; {searches} searches")
    return {"frames": frame, "caught": caught_at, "searches": searches, "grid": grid,
            "tiles": tiles, **trace}  # fmt: skip


def draw_level(pygame: Any, level: Any, grid: Any) -> Any:
    """The level drawn once: floor, mud, walls and the obstacle objects."""
    rows, cols = grid.shape
    tw, th = (int(v) for v in level.tile_size)
    surface = pygame.Surface((cols * tw * SCALE, rows * th * SCALE))
    tiles = level.coords
    wet = [gid for gid, props in level.data.gid_properties.items() if props.get("collides")]
    water = np.isin(level.tile_layer("walls").gids, wet)  # the tiles that say collides
    for (r, c), cost in np.ndenumerate(grid.cost):
        kind = "wall" if not np.isfinite(cost) else ("mud" if cost > 1 else "floor")
        kind = "water" if water[r, c] else kind
        x, y = tiles.pixel((r, c), anchor="top_left")
        surface.fill(COLOURS[kind], (x * SCALE, y * SCALE, tw * SCALE, th * SCALE))
    for shape in level.obstacles("obstacles"):
        outline = [(x * SCALE, y * SCALE) for x, y in np.asarray(shape.exterior.coords)]
        pygame.draw.polygon(surface, COLOURS["object"], outline)
    for x, y in level.waypoints():
        pygame.draw.circle(surface, (90, 160, 90), (x * SCALE, y * SCALE), 3 * SCALE)
    return surface


def draw(pygame: Any, screen: Any, background: Any, tiles: Any, player: Player,
         enemies: list[Pursuer], where: np.ndarray) -> None:  # fmt: skip
    screen.blit(background, (0, 0))
    for enemy, (ex, ey) in zip(enemies, where, strict=True):
        path = tiles.path_to_pixels(enemy.path) * SCALE
        if len(path) > 1:
            pygame.draw.lines(screen, (230, 150, 150), False, [tuple(p) for p in path], 2)
        pygame.draw.circle(screen, (210, 40, 40), (ex * SCALE, ey * SCALE), 6 * SCALE)
    px, py = player.pos
    pygame.draw.circle(screen, (40, 110, 220), (px * SCALE, py * SCALE), 6 * SCALE)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headless", action="store_true")
    parser.add_argument("--frames", type=int, default=None)
    parser.add_argument("--screenshot", default=None)
    args = parser.parse_args()
    main(args.frames, args.headless, args.screenshot)
