"""Walkable cells packed into bits: the lines the jump point search jumps along.

Bit ``j`` of word ``w`` of a line is position ``64 w + j`` on it. Each grid gives four
orientations, for jumps right (rows), left (rows mirrored), down (columns) and up
(columns mirrored), so every jump reads toward higher positions; and two bit sets per
orientation: the free cells, and the cells where a jump moving that way finds a forced
neighbour (a jump point candidate, under the grid's diagonal rule). A jump then reads
two words per 64 cells. Lines carry two spare words of walls, so a jump may read past
the line's end.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["PackedLines", "cost_range", "pack_lines"]

Words = npt.NDArray[np.uint64]


class PackedLines(NamedTuple):
    """The packed lines of a padded cost array: free cells, then forced cells."""

    rows: Words
    rows_mirrored: Words
    cols: Words
    cols_mirrored: Words
    forced_rows: Words
    forced_rows_mirrored: Words
    forced_cols: Words
    forced_cols_mirrored: Words


def _pack(free: npt.NDArray[np.bool_]) -> Words:
    """Each row of a boolean array as little-endian 64-bit words, two spare words."""
    words = (free.shape[1] >> 6) + 2
    out = np.zeros((free.shape[0], words * 8), dtype=np.uint8)
    packed = np.packbits(free, axis=1, bitorder="little")
    out[:, : packed.shape[1]] = packed
    return np.ascontiguousarray(out.view("<u8").astype(np.uint64))


def _forced(free: npt.NDArray[np.bool_], corner_cut: bool) -> npt.NDArray[np.bool_]:
    """Where a jump along each row of ``free``, toward higher columns, meets a forced
    neighbour: without corner cutting, a side cell free whose predecessor is blocked;
    with it, a side cell blocked whose successor is free."""
    above = np.zeros_like(free)
    below = np.zeros_like(free)
    above[1:] = free[:-1]
    below[:-1] = free[1:]
    forced = np.zeros_like(free)
    for side in (above, below):
        if corner_cut:
            forced[:, :-1] |= ~side[:, :-1] & side[:, 1:]
        else:
            forced[:, 1:] |= side[:, 1:] & ~side[:, :-1]
    return forced


def pack_lines(padded: npt.NDArray[np.float64], *, corner_cut: bool) -> PackedLines:
    """The packed lines of a padded cost array (``inf`` is a wall), for the rule
    ``"always"`` (``corner_cut``) or ``"no_corner_cut"``.

    >>> import numpy as np
    >>> lines = pack_lines(np.array([[1.0, np.inf, 1.0, 1.0]]), corner_cut=False)
    >>> bin(int(lines.rows[0, 0])), bin(int(lines.rows_mirrored[0, 0]))
    ('0b1101', '0b1011')
    """
    free = np.isfinite(padded)
    views = (free, free[:, ::-1], free.T, free.T[:, ::-1])
    return PackedLines(
        *(_pack(v) for v in views), *(_pack(_forced(v, corner_cut)) for v in views)
    )


def cost_range(padded: npt.NDArray[np.float64]) -> tuple[float, float] | None:
    """The smallest and largest finite cost, or None when every cell is a wall.

    >>> import numpy as np
    >>> cost_range(np.array([[2.0, np.inf, 3.0]]))
    (2.0, 3.0)
    """
    finite = padded[np.isfinite(padded)]
    if finite.size == 0:
        return None
    return float(finite.min()), float(finite.max())
