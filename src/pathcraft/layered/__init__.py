"""Layered levels: 2-D grid floors joined by portals (stairs, ladders, teleporters,
one-way drops), searched as one world by a compiled kernel. Cells are
``(floor, row, col)``.

Examples
--------
>>> import numpy as np
>>> from pathcraft.layered import Level
>>> level = Level(np.ones((2, 3, 3)), portals=[((0, 2, 2), (1, 2, 2))])
>>> level.find_path((0, 0, 0), (1, 0, 0)).cost
6.656854249492381
"""

from pathcraft.layered._level import Level, Portal

__all__ = ["Level", "Portal"]
