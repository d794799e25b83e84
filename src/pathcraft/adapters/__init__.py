"""Adapters for game frameworks; each imports its framework only when used.

- :mod:`pathcraft.adapters.arcade`: a grid rasterised once from arcade ``SpriteList``\\ s
  of walls (the shape of ``arcade.AStarBarrierList``), paths in arcade's coordinates
  (y up).

pygame needs no adapter: :class:`pathcraft.coords.TileCoords` converts cells and pixels
and takes pygame ``Vector2`` positions; ``examples/tiled_game.py`` is a whole game.
The conventions of tcod and python-pathfinding (0 is a wall) and levels painted as
images are :func:`pathcraft.io.grid_from_zero_walls` and :func:`pathcraft.io.read_image`.
"""

__all__: list[str] = []
