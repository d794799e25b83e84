"""How the stencil worlds (:class:`~pathcraft.hexgrid.HexGrid`,
:class:`~pathcraft.hexgrid.MovesGrid`) run the compiled stencil kernel
(:mod:`pathcraft._core.stencil`): the padded cost array and move table, checked cells,
checked options turned into kernel settings: the adapter the one cell-world glue
(:mod:`pathcraft._cellworld`) runs its queries through.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._cellworld import Kernel, PaddedCells, check_place, places_by_one
from pathcraft._changes import ChangeLog
from pathcraft._core import stencil as _kernel
from pathcraft._options import SearchOptions
from pathcraft.grid.kit import cost_values, edited_cells, nearest_walkable

#: A move: ``(dr, dc, factor)``.
Move = tuple[int, int, float]


class Stencil(PaddedCells):
    """A world's compiled form: the cost array padded by ``pad`` walls, the move table
    (two parity classes), what the heuristic needs, and the log of its edits. Its
    costs change only through :func:`edit`, which keeps the heuristic's scale
    (``hscale``: the smallest cost times ``hfactor``) and the log up to date."""

    __slots__ = (
        "allowed", "factors", "heuristic", "hfactor", "hscale", "log", "lowest", "max_factor",
        "moves", "name", "pad", "padded", "parity",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        padded: npt.NDArray[np.float64],
        pad: int,
        parity: str,
        moves: npt.NDArray[np.intp],
        factors: npt.NDArray[np.float64],
        heuristic: str,
        hfactor: float,
    ) -> None:
        self.name = name
        self.padded = padded
        self.pad = pad
        self.parity = parity
        self.moves = moves
        self.factors = factors
        self.heuristic = heuristic
        self.hfactor = hfactor
        self.max_factor = float(factors.max())
        #: Per padded cell, bit k set when move k may leave it; None: every move.
        self.allowed: npt.NDArray[np.uint64] | None = None
        rows, cols = self.shape
        self.log = ChangeLog(limit=rows * cols)
        self.lowest = self.hscale = 1.0
        self.rescale()

    noun = "cells"
    #: The stencil kernel's entry points, for :mod:`pathcraft._cellworld`.
    kernel = Kernel.of(_kernel, _kernel.StencilSearch)

    def place(self, name: str, value: Any) -> int:
        return flat_cell(self, name, value)

    def places(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        return places_by_one(self, name, value, 2, "(row, col) cell")

    def flat_moves(
        self,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """Every legal move at once, as flat ``(row, col)`` places (row-major):
        ``(tails, heads, weights)``, a step costing the entered cell's cost times the
        move's factor (as the world's ``neighbors``), one whole-array pass per move."""
        rows, cols = self.shape
        inner = self.inner
        free = np.isfinite(inner)
        r, c = np.nonzero(free)
        klass = {"row": r, "col": c}.get(self.parity, np.zeros_like(r)) & 1
        count = self.factors.shape[1]
        table = self.moves.reshape(2, count, 2)
        width = self.padded.shape[1]
        bits = None if self.allowed is None else self.allowed[(r + self.pad) * width + c + self.pad]
        tails, heads, weights = [], [], []
        for k in range(count):
            nr, nc = r + table[klass, k, 0], c + table[klass, k, 1]
            ok = (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
            if bits is not None:
                ok &= ((bits >> np.uint64(k)) & np.uint64(1)).astype(bool)
            ok[ok] = free[nr[ok], nc[ok]]
            tails.append(r[ok] * cols + c[ok])
            heads.append(nr[ok] * cols + nc[ok])
            weights.append(inner[nr[ok], nc[ok]] * self.factors[klass[ok], k])
        return (
            np.concatenate(tails).astype(np.intp),
            np.concatenate(heads).astype(np.intp),
            np.concatenate(weights),
        )

    def nearest(self, cells: Any, name: str, max_distance: Any = None) -> tuple[Any, bool]:
        """The nearest walkable cell to each ``(row, col)`` cell (Euclidean distance
        between ``(row, col)`` indices, ties to the smallest), over the padded costs
        seen with one layer of walls."""
        p = self.pad - 1
        height, width = self.padded.shape
        view = self.padded[p : height - p, p : width - p]
        return nearest_walkable(view, cells, max_distance, name)

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        """Checked options as the stencil kernel's keyword arguments."""
        heuristic = opts.heuristic or "default"
        if opts.algorithm == "dijkstra" or heuristic == "zero":
            hkind = _kernel.HEURISTICS["zero"]
        else:
            hkind = _kernel.HEURISTICS[self.heuristic]
        return {
            **self.tables(), "hkind": hkind, "hscale": self.hscale,
            "settings": opts.kernel_settings(),
        }  # fmt: skip

    def field_args(self, max_cost: float) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (), {**self.tables(), "max_cost": max_cost}

    def unflat(self, flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``(row, col)`` cells of padded flat indices, an ``(n, 2)`` array."""
        rows, cols = np.divmod(flat, self.padded.shape[1])
        return np.stack((rows - self.pad, cols - self.pad), axis=-1)

    def tables(self) -> dict[str, Any]:
        """The move table as the kernel's keyword arguments."""
        return {
            "pad": self.pad,
            "parity": _kernel.PARITIES[self.parity],
            "moves": self.moves,
            "factors": self.factors,
            "allowed": self.allowed,
        }

    @property
    def shape(self) -> tuple[int, int]:
        rows, cols = self.padded.shape
        return rows - 2 * self.pad, cols - 2 * self.pad

    @property
    def inner(self) -> npt.NDArray[np.float64]:
        """The ``(rows, cols)`` costs: a view of the padded array."""
        p = self.pad
        return self.padded[p:-p, p:-p]

    def rescale(self) -> None:
        """Keep the smallest cell cost (``lowest``, 1.0 when every cell is a wall) and
        the heuristic's scale, ``lowest * hfactor``."""
        inner = self.inner
        finite = inner[np.isfinite(inner)]
        self.lowest = float(finite.min()) if finite.size else 1.0
        self.hscale = self.lowest * self.hfactor


def build(
    name: str,
    cost: npt.NDArray[np.float64],
    tables: tuple[list[Move], list[Move]],
    parity: str,
    heuristic: str,
    hfactor: float,
) -> Stencil:
    """A :class:`Stencil` from a checked cost array and two checked move lists; the
    heuristic is scaled by the smallest cost times ``hfactor``."""
    rows, cols = cost.shape
    # A move longer than the grid never lands on a cell: the kernel's table holds it
    # cut to the grid's side (landing in the padding, a wall, all the same), so the
    # padding, as wide as the longest move, stays at most the grid's size.
    steps = [[(_cut(dr, rows), _cut(dc, cols)) for dr, dc, _ in t] for t in tables]
    pad = max(1, *(max(abs(dr), abs(dc)) for table in steps for dr, dc in table))
    padded = np.full((rows + 2 * pad, cols + 2 * pad), np.inf)
    padded[pad:-pad, pad:-pad] = cost
    moves = np.array([[x for step in t for x in step] for t in steps], dtype=np.intp)
    factors = np.array([[f for _, _, f in t] for t in tables], dtype=np.float64)
    stencil = Stencil(name, padded, pad, parity, moves, factors, heuristic, hfactor)
    check_overflow(stencil, cost, "cost")
    return stencil


_INT64 = 2**63


def _cut(step: int, side: int) -> int:
    """A move's ``step`` along an axis of ``side`` cells, at most ``side`` long (a
    longer one lands off the grid from every cell, as ``side`` does)."""
    return max(-side, min(side, step))


def check_overflow(world: Stencil, values: npt.NDArray[np.float64], name: str) -> None:
    """Refuse costs so large that a path could overflow to ``inf``: no path enters a
    cell twice, so the largest cost times the largest move factor times the number of
    cells must stay finite."""
    finite = values[np.isfinite(values)]
    if not finite.size:
        return
    largest = float(finite.max())
    cells = world.inner.size
    if not math.isfinite(largest * world.max_factor * cells):
        raise ValueError(
            f"{name} holds {largest!r}: with move factors up to {world.max_factor!r} over "
            f"{cells} cells a path's cost could overflow; use smaller costs (np.inf marks "
            "a wall)"
        )


def edit(world: Stencil, key: Any, value: Any) -> None:
    """``world[key] = value`` on the ``(rows, cols)`` costs (NumPy indexing): checked
    values (> 0, ``np.inf`` for a wall), the cells that changed logged, the
    heuristic's scale kept equal to the smallest cost times ``hfactor``."""
    values = cost_values(value)
    check_overflow(world, values, "value")
    inner = world.inner
    touched = edited_cells(inner, key)
    before = inner.ravel()[touched]
    inner[key] = values
    world.log.record(touched[inner.ravel()[touched] != before])
    world.rescale()


def changes_since(world: Stencil, version: Any) -> npt.NDArray[np.intp]:
    """The ``(row, col)`` cells whose cost changed after ``version``, sorted."""
    rows, cols = world.shape
    flat = world.log.since(version, total=rows * cols)
    return np.column_stack(np.unravel_index(flat, (rows, cols))).astype(np.intp)


def check_moves(moves: Any) -> list[Move]:
    """Check a list of ``(dr, dc)`` or ``(dr, dc, factor)`` moves."""
    try:
        items = list(moves)
    except TypeError as exc:
        raise TypeError(f"moves must be a sequence of (dr, dc[, factor]); got {moves!r}") from exc
    if not items:
        raise ValueError("moves must hold at least one move")
    if len(items) > 64:
        raise ValueError(f"moves holds {len(items)} moves; at most 64 are allowed")
    out: list[Move] = []
    seen: set[tuple[int, int]] = set()
    for item in items:
        parts = tuple(item) if isinstance(item, (tuple, list)) else ()
        if len(parts) not in (2, 3):
            raise ValueError(f"each move is (dr, dc) or (dr, dc, factor); got {item!r}")
        dr, dc = parts[0], parts[1]
        if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (dr, dc)):
            raise TypeError(f"a move's dr and dc are integers; got {item!r}")
        if not all(-_INT64 <= v < _INT64 for v in (dr, dc)):
            raise ValueError(f"moves holds {item!r}: a move's dr and dc are 64-bit integers")
        if dr == 0 and dc == 0:
            raise ValueError(f"a move of length zero goes nowhere; got {item!r}")
        if (int(dr), int(dc)) in seen:
            raise ValueError(f"the move ({dr}, {dc}) is given twice")
        seen.add((int(dr), int(dc)))
        factor = float(parts[2]) if len(parts) == 3 else math.hypot(dr, dc)
        if not (math.isfinite(factor) and factor > 0):
            raise ValueError(f"a move's factor is a finite number > 0; got {item!r}")
        out.append((int(dr), int(dc), factor))
    return out


def flat_cell(world: Stencil, name: str, cell: Any, *, walkable: bool = True) -> int:
    """The padded flat index of the ``(row, col)`` cell ``cell``, checked."""
    r, c = check_place(name, cell, world.shape, "(row, col)")
    p = world.pad
    flat = (int(r) + p) * int(world.padded.shape[1]) + int(c) + p
    if walkable and math.isinf(world.padded.flat[flat]):
        raise ValueError(f"{name} {(int(r), int(c))} is a wall")
    return flat


def restrict(world: Stencil, allowed: Any, moves: int) -> None:
    """Let only some moves leave each cell: ``allowed`` is a boolean array of shape
    ``(rows, cols, moves)`` (True: the move may leave the cell), kept as one bit mask
    per padded cell."""
    try:
        arr = np.asarray(allowed)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"allowed must be a boolean array; got {allowed!r}") from exc
    rows, cols = world.shape
    if arr.dtype != np.bool_:
        raise TypeError(f"allowed must be a boolean array; got dtype {arr.dtype}")
    if arr.shape != (rows, cols, moves):
        raise ValueError(
            f"allowed must have shape (rows, cols, moves) = {(rows, cols, moves)}; got "
            f"{arr.shape}"
        )
    bits = np.left_shift(np.uint64(1), np.arange(moves, dtype=np.uint64))
    masks = np.zeros(world.padded.shape, dtype=np.uint64)
    p = world.pad
    masks[p:-p, p:-p] = np.bitwise_or.reduce(np.where(arr, bits, np.uint64(0)), axis=2)
    world.allowed = masks.ravel()
