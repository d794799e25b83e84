"""What other packages share of the grid's internals, under public-internal names: the
one place they import them from (not the public API, which is :mod:`pathcraft.grid`;
these may change with the package).

The cell worlds check costs as a grid does (:func:`cost_array`, :func:`cost_values`,
:func:`edited_cells`, :func:`check_cost_scale`, :func:`check_not_masked`,
:func:`check_float64_kept`); agents and the command line use the
grid's units, fields and search table (:func:`check_size`, :func:`unit_cells`,
:func:`field`, :data:`DIAGONAL_RULES`, :func:`workspace`, :func:`optimal_algorithms`);
the cell worlds find nearest walkable cells as a grid does (:func:`nearest_walkable`, over
a padded cost array of any number of dimensions, and :func:`cell_array`).
"""

from __future__ import annotations

from pathcraft.grid._checks import (
    check_cost_scale,
    check_float64_kept,
    check_not_masked,
    cost_array,
    cost_values,
    edited_cells,
)
from pathcraft.grid._nearest import cell_array, nearest_walkable
from pathcraft.grid._queries import field
from pathcraft.grid._run import DIAGONAL_RULES, optimal_algorithms, workspace
from pathcraft.grid._sizes import check_size, unit_cells

__all__ = [
    "DIAGONAL_RULES",
    "cell_array",
    "check_cost_scale",
    "check_float64_kept",
    "check_not_masked",
    "check_size",
    "cost_array",
    "cost_values",
    "edited_cells",
    "field",
    "nearest_walkable",
    "optimal_algorithms",
    "unit_cells",
    "workspace",
]
