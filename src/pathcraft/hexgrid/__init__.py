"""Hexagonal grids and square grids with custom moves, on one compiled kernel.

Examples
--------
>>> import numpy as np
>>> from pathcraft.hexgrid import HexGrid
>>> HexGrid(np.ones((3, 3)), layout="even-q").find_path((0, 0), (2, 2)).cost
3.0
"""

from pathcraft.hexgrid._hex import LAYOUTS, HexGrid, axial_to_offset, hex_distance, offset_to_axial
from pathcraft.hexgrid._moves import KNIGHT, SIXTEEN, MovesGrid

__all__ = [
    "KNIGHT",
    "LAYOUTS",
    "SIXTEEN",
    "HexGrid",
    "MovesGrid",
    "axial_to_offset",
    "hex_distance",
    "offset_to_axial",
]
