"""An enemy chasing the player through walls in arcade, planned by pathcraft.

Run: ``python examples/arcade_chase.py`` (arrow keys move the player). Needs arcade
(``pip install arcade``), which is imported only by :func:`main`.

The walls are an arcade ``SpriteList``; :class:`pathcraft.adapters.arcade.BarrierGrid`
rasterises them once (as ``arcade.AStarBarrierList`` does, with the enemy's size as
clearance) and every path comes back in arcade's pixels, y up: the list of tile
corners ``arcade.astar_calculate_path`` would return, found by a compiled search.
"""

from __future__ import annotations

from typing import Any

from pathcraft.adapters.arcade import BarrierGrid

TILE = 32
WIDTH, HEIGHT = 20 * TILE, 15 * TILE
ENEMY_SPEED = 2.5  # pixels per frame


def plan(
    walls: Any, enemy: Any, target: tuple[float, float], *, width: int = WIDTH, height: int = HEIGHT
) -> tuple[BarrierGrid, list[tuple[int, int]] | None]:
    """The barrier grid of ``walls`` for ``enemy``, and its path to ``target``."""
    barriers = BarrierGrid(walls, tile_size=TILE, left=0, right=width, bottom=0, top=height,
                           moving_sprite=enemy)  # fmt: skip
    return barriers, barriers.find_path((enemy.center_x, enemy.center_y), target)


def main() -> None:  # pragma: no cover - needs a display and arcade
    import arcade

    class Game(arcade.Window):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(WIDTH, HEIGHT, "pathcraft: arcade chase")
            self.walls = arcade.SpriteList(use_spatial_hash=True)
            for col in range(3, 17):
                for row in (4, 10):
                    if col not in (5, 6, 13, 14):  # gaps 2 tiles wide: arcade's nodes
                        # are tile corners, and the enemy needs a corner clear of walls
                        wall = arcade.SpriteSolidColor(TILE, TILE, color=arcade.color.GRAY)
                        wall.position = (col * TILE + TILE / 2, row * TILE + TILE / 2)
                        self.walls.append(wall)
            self.player = arcade.SpriteCircle(10, arcade.color.BLUE)
            self.player.position = (WIDTH - 48, HEIGHT - 48)
            self.enemy = arcade.SpriteCircle(10, arcade.color.RED)
            self.enemy.position = (48, 48)
            self.sprites = arcade.SpriteList()
            self.sprites.extend([self.player, self.enemy])
            self.barriers, self.path = plan(self.walls, self.enemy, self.player.position)
            self.keys: set[int] = set()

        def on_key_press(self, key: int, modifiers: int) -> None:
            self.keys.add(key)

        def on_key_release(self, key: int, modifiers: int) -> None:
            self.keys.discard(key)

        def on_update(self, delta_time: float) -> None:
            dx = (arcade.key.RIGHT in self.keys) - (arcade.key.LEFT in self.keys)
            dy = (arcade.key.UP in self.keys) - (arcade.key.DOWN in self.keys)
            self.player.center_x += 3 * dx
            self.player.center_y += 3 * dy
            try:
                self.path = self.barriers.find_path(self.enemy.position, self.player.position)
            except ValueError:  # the player stands on a blocked cell or off the field
                return
            if self.path and len(self.path) > 1:
                tx, ty = self.path[1]
                ex, ey = self.enemy.position
                dist = max(((tx - ex) ** 2 + (ty - ey) ** 2) ** 0.5, 1e-9)
                step = min(ENEMY_SPEED, dist)
                self.enemy.position = (ex + (tx - ex) / dist * step, ey + (ty - ey) / dist * step)

        def on_draw(self) -> None:
            self.clear()
            self.walls.draw()
            if self.path:
                arcade.draw_line_strip(self.path, arcade.color.PINK, 2)
            self.sprites.draw()

    Game()
    arcade.run()


if __name__ == "__main__":
    main()
