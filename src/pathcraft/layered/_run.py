"""How :class:`~pathcraft.layered.Level` runs the compiled layered kernel
(:mod:`pathcraft._core.layered`): checked ``(floor, row, col)`` cells as padded flat
indices and checked options as kernel settings: the adapter the one cell-world glue
(:mod:`pathcraft._cellworld`) runs its queries through.

Why a kernel of its own rather than the graph kernel on an explicit CSR of every move:
the floors stay flat cost arrays (no per-cell edge lists: a 4 x 256 x 256 level would be
two million edges), the in-floor moves are the grid's constant offsets with its corner
rules, only the few portal edges live in a CSR table, and the portal-aware heuristic
(see :mod:`pathcraft._core.layered`) needs the cells' floors and coordinates, which the
graph kernel does not have.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from pathcraft._cellworld import Kernel, PaddedCells, check_place, places_by_one
from pathcraft._core import layered as _kernel
from pathcraft._options import SearchOptions
from pathcraft.grid.kit import cell_array, nearest_walkable

#: A cell of a level: ``(floor, row, col)``.
Cell = tuple[int, int, int]


@dataclass(frozen=True)
class Compiled(PaddedCells):
    """A level's compiled form: the stacked padded costs, the kernel's tables and what
    the heuristic needs."""

    padded: npt.NDArray[np.float64]
    tables: Any
    shape: tuple[int, int, int]
    min_cost: float
    cost: npt.NDArray[np.float64]

    #: The name of the world in :data:`pathcraft._options.SUPPORT` and in messages.
    name: ClassVar[str] = "Level"
    noun: ClassVar[str] = "cells"
    #: The layered kernel's entry points (no goal sets), for :mod:`pathcraft._cellworld`.
    kernel: ClassVar[Kernel] = Kernel.of(_kernel, _kernel.LayeredSearch, goal_sets=False)

    def flat(self, cell: Cell) -> int:
        f, r, c = cell
        rows, cols = self.shape[1], self.shape[2]
        return (f * (rows + 1) + 1 + r) * (cols + 2) + c + 1

    @property
    def data(self) -> Any:
        return self.tables

    def place(self, name: str, value: Any) -> int:
        return self.flat(walkable_cell(self.cost, name, value))

    def places(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        return places_by_one(self, name, value, 3, "(floor, row, col) cell")

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        """Checked options as the layered kernel's keyword arguments."""
        zero = opts.algorithm == "dijkstra" or opts.heuristic == "zero"
        return {
            "hkind": _kernel.HEURISTICS["zero" if zero else "portal"],
            "hscale": self.min_cost,
            "settings": opts.kernel_settings(),
        }

    def field_args(self, max_cost: float) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (max_cost,), {}

    def nearest(self, cells: Any, name: str, max_distance: Any = None) -> tuple[Any, bool]:
        """The nearest walkable cell to each ``(floor, row, col)`` cell on its own
        floor (Euclidean distance between cells, ties to the smallest; the row and
        column may lie off the floor, the floor must be one of the level's)."""
        arr, one = cell_array(name, cells, 3)
        floors, rows = self.shape[0], self.shape[1]
        out = np.empty(arr.shape, dtype=np.intp)
        for k, (f, r, c) in enumerate(arr.tolist()):
            if not 0 <= f < floors:
                raise ValueError(f"{name} {(f, r, c)} is on no floor of the {floors}")
            view = self.padded[f * (rows + 1) : f * (rows + 1) + rows + 2]
            found, _ = nearest_walkable(view, (r, c), max_distance, name)
            out[k] = (f, *found[0].tolist()) if found[0, 0] >= 0 else (-1, -1, -1)
        return out, one

    def unflat(self, flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``(floor, row, col)`` cells of padded flat indices (the inverse of
        :meth:`flat`), an ``(n, 3)`` array."""
        row, col = np.divmod(flat, self.shape[2] + 2)
        floor, r = np.divmod(row - 1, self.shape[1] + 1)
        return np.stack((floor, r, col - 1), axis=-1)


def compile_level(
    cost: npt.NDArray[np.float64],
    diagonal: str,
    edges: Sequence[tuple[Cell, Cell, float]],
    min_cost: float,
) -> Compiled:
    """Stack the ``(floors, rows, cols)`` costs with wall rows between floors and build
    the portal CSR over the padded cells from the directed ``edges``."""
    floors, rows, cols = cost.shape
    padded = np.full((floors * (rows + 1) + 1, cols + 2), np.inf)
    for f in range(floors):
        top = f * (rows + 1) + 1
        padded[top : top + rows, 1:-1] = cost[f]
    world = Compiled(padded, None, (floors, rows, cols), min_cost, cost)
    src = np.array([world.flat(a) for a, _, _ in edges], dtype=np.intp)
    dst = np.array([world.flat(b) for _, b, _ in edges], dtype=np.intp)
    weights = np.array([w for _, _, w in edges], dtype=np.float64)
    order = np.argsort(src, kind="stable")
    src, dst, weights = src[order], dst[order], weights[order]
    indptr = np.zeros(padded.size + 1, dtype=np.int64)
    np.add.at(indptr, src + 1, 1)
    np.cumsum(indptr, out=indptr)
    tables = _kernel.Tables(padded, floors, _kernel.DIAGONALS[diagonal], indptr, dst, weights)
    return Compiled(padded, tables, (floors, rows, cols), min_cost, cost)


def check_cell(shape: tuple[int, int, int], name: str, cell: Any) -> Cell:
    """``cell`` as a checked ``(floor, row, col)`` of integers inside the level."""
    f, r, c = check_place(name, cell, shape, "(floor, row, col)", "level")
    return f, r, c


def walkable_cell(cost: npt.NDArray[np.float64], name: str, cell: Any) -> Cell:
    """A checked cell that is not a wall."""
    f, r, c = check_cell(cost.shape, name, cell)
    if math.isinf(cost[f, r, c]):
        raise ValueError(f"{name} {(f, r, c)} is a wall")
    return f, r, c




#: The in-floor moves ``(dr, dc)``: the four straight ones, then the diagonals.
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def moves(
    world: Compiled, diagonal: str, edges: Sequence[tuple[Cell, Cell, float]]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Every legal move of the level's ``neighbors`` at once, as flat ``(floor, row,
    col)`` cells (row-major over its shape): ``(tails, heads, weights)``, the
    in-floor moves by the diagonal rule (one whole-array pass per move over the
    stacked floors, whose wall rows keep floors apart) and then the portal
    ``edges``."""
    padded = world.padded
    height, width = padded.shape
    free = np.isfinite(padded)
    inner = free[1:-1, 1:-1]
    index = np.arange(padded.size, dtype=np.intp).reshape(height, width)[1:-1, 1:-1]

    def shifted(dr: int, dc: int) -> npt.NDArray[np.bool_]:
        return free[1 + dr : height - 1 + dr, 1 + dc : width - 1 + dc]

    tails, heads, weights = [], [], []
    for k, (dr, dc) in enumerate(_STEPS[: 4 if diagonal == "never" else 8]):
        ok = inner & shifted(dr, dc)
        if k >= 4 and diagonal != "always":
            beside = (shifted(dr, 0), shifted(0, dc))
            ok &= beside[0] & beside[1] if diagonal == "no_corner_cut" else beside[0] | beside[1]
        tail = index[ok]
        tails.append(tail)
        heads.append(tail + dr * width + dc)
        weights.append(padded.ravel()[heads[-1]] * (math.sqrt(2.0) if k >= 4 else 1.0))
    rows, cols = world.shape[1], world.shape[2]

    def row_major(flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        cells = world.unflat(flat)
        return np.asarray((cells[:, 0] * rows + cells[:, 1]) * cols + cells[:, 2], dtype=np.intp)

    portal = np.array([(world.flat(a), world.flat(b)) for a, b, _ in edges], dtype=np.intp)
    return (
        row_major(np.concatenate([*tails, portal[:, 0] if len(edges) else portal])),
        row_major(np.concatenate([*heads, portal[:, 1] if len(edges) else portal])),
        np.concatenate([*weights, np.array([w for _, _, w in edges], dtype=np.float64)]),
    )
