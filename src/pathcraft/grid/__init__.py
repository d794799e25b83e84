"""Grids: 2-D cost arrays searched by the compiled core (cells are ``(row, col)``).

The world itself is :class:`Grid` (see its documentation and the module
:mod:`pathcraft.grid._grid` for the cost model and the diagonal rules).
"""

from pathcraft.grid._grid import (
    DIAGONAL_RULES,
    GRID_HEURISTICS,
    Cell,
    Diagonal,
    Grid,
    HeuristicName,
)
from pathcraft.grid._space import GridSpace

__all__ = [
    "DIAGONAL_RULES",
    "GRID_HEURISTICS",
    "Cell",
    "Diagonal",
    "Grid",
    "GridSpace",
    "HeuristicName",
]
