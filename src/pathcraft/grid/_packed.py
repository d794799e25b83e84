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

__all__ = ["LINE_NAMES", "PackedLines", "check_lines", "cost_range", "pack_lines"]

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


#: The names of the eight line sets, in order (the fields of :class:`PackedLines`).
LINE_NAMES: tuple[str, ...] = (
    "rows",
    "rows_mirrored",
    "cols",
    "cols_mirrored",
    "forced_rows",
    "forced_rows_mirrored",
    "forced_cols",
    "forced_cols_mirrored",
)


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


def check_lines(lines: PackedLines, padded: npt.NDArray[np.float64]) -> PackedLines:
    """Packed lines from elsewhere (a saved file) checked against the padded cost array
    they claim to describe, as contiguous ``uint64`` arrays; ValueError naming the
    first array that is wrong.

    Checked exactly: every shape and dtype, the free cells of the rows (equal to the
    walls of ``padded``), and, for memory safety, that no line marks a cell free on
    the border or past the line's end (a jump then always stops on its line). The
    other orientations are trusted to be the rows mirrored and transposed (their
    number of free cells is checked), and the forced cells to follow the grid's
    diagonal rule: checking them bit by bit would cost as much as building them.

    >>> import numpy as np
    >>> padded = np.full((3, 4), np.inf)
    >>> padded[1, 1:3] = 1.0
    >>> lines = pack_lines(padded, corner_cut=False)
    >>> check_lines(lines, padded).rows.tolist() == lines.rows.tolist()
    True
    >>> check_lines(lines._replace(rows=lines.cols), padded)
    Traceback (most recent call last):
    ...
    ValueError: jump table 'rows' has shape (4, 2); this grid needs (3, 2)
    """
    height, width = padded.shape
    free = np.isfinite(padded)
    out = []
    for i, name in enumerate(LINE_NAMES):
        arr = np.asarray(lines[i])
        count, length = (height, width) if i % 4 < 2 else (width, height)
        shape = (count, (length >> 6) + 2)
        if arr.dtype != np.uint64:
            raise ValueError(f"jump table {name!r} has dtype {arr.dtype}; it must be uint64")
        if arr.shape != shape:
            raise ValueError(f"jump table {name!r} has shape {arr.shape}; this grid needs {shape}")
        arr = np.ascontiguousarray(arr)
        if i < 4:
            bits = np.unpackbits(arr.view(np.uint8), axis=1, bitorder="little")
            if bits[:, 0].any() or bits[:, length - 1 :].any():
                raise ValueError(f"jump table {name!r} marks cells on the border or past it")
        out.append(arr)
    packed = PackedLines(*out)
    if not np.array_equal(packed.rows, _pack(free)):
        raise ValueError("jump table 'rows' does not match the grid's walls")
    walkable = int(free.sum())
    for i in range(1, 4):
        if int(np.bitwise_count(packed[i]).sum()) != walkable:
            raise ValueError(
                f"jump table {LINE_NAMES[i]!r} does not match the grid's walls"
            )
    return packed
