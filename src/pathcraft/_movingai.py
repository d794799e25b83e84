"""Moving AI ``.map`` files, read into a walkable mask: a grid of characters under a
four-line header (the reader :func:`pathcraft.io.read_map` and
:meth:`pathcraft.Grid.from_movingai` share; it knows no world, so grids can read maps
without importing :mod:`pathcraft.io`), and the file-and-line error of every Moving
AI reader."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["BLOCKED_CHARS", "PASSABLE_CHARS", "StrPath", "file_error", "read_walkable"]

StrPath = str | os.PathLike[str]


def file_error(path: StrPath, line: int, message: str, column: int | None = None) -> ValueError:
    """The error for a bad line of a map or scenario file, naming the file and line."""
    where = f"line {line}" if column is None else f"line {line}, column {column}"
    return ValueError(f"{os.fspath(path)}, {where}: {message}")


#: Map characters a land agent may stand on: ground (``.``, ``G``) and swamp (``S``).
PASSABLE_CHARS = ".GS"
#: Blocked map characters: out of bounds (``@``, ``O``), trees (``T``), water (``W``).
BLOCKED_CHARS = "@OTW"
#: The relative tolerance of :func:`lengths_match`.

# One byte -> 1 (passable), 0 (blocked) or -1 (not a map character).
_CELL_TABLE = np.full(256, -1, dtype=np.int8)
_CELL_TABLE[np.frombuffer(PASSABLE_CHARS.encode(), dtype=np.uint8)] = 1
_CELL_TABLE[np.frombuffer(BLOCKED_CHARS.encode(), dtype=np.uint8)] = 0

_NEWLINE = 0x0A
_RETURN = 0x0D
_UINT = re.compile(r"[0-9]+")


def _header_line(data: bytes, pos: int, line: int, path: StrPath, want: str) -> tuple[str, int]:
    """The text of header line ``line`` starting at byte ``pos``, and the next line's start."""
    if pos >= len(data):
        raise file_error(
            path, line, f"the file ends before the header is complete; expected {want}"
        )
    end = data.find(b"\n", pos)
    stop = len(data) if end < 0 else end
    raw = data[pos:stop].rstrip(b"\r")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise file_error(path, line, f"expected {want}; got {raw!r}") from None
    return text, stop + 1


def _read_header(data: bytes, path: StrPath) -> tuple[int, int, int]:
    """Parse the four header lines; return ``(height, width, offset of the grid)``."""
    text, pos = _header_line(data, 0, 1, path, "'type octile'")
    words = text.split()
    if not words or words[0] != "type" or len(words) != 2:
        raise file_error(path, 1, f"expected 'type octile'; got {text!r}")
    if words[1] != "octile":
        raise file_error(
            path,
            1,
            f"map type {words[1]!r} is not supported; only 'type octile' maps can be read",
        )
    sizes: dict[str, int] = {}
    for line in (2, 3):
        missing = [key for key in ("height", "width") if key not in sizes]
        want = " or ".join(f"'{key} N'" for key in missing)
        text, pos = _header_line(data, pos, line, path, want)
        words = text.split()
        if len(words) != 2 or words[0] not in missing:
            raise file_error(path, line, f"expected {want}; got {text!r}")
        key, value = words
        if not _UINT.fullmatch(value) or int(value) == 0:
            raise file_error(path, line, f"{key} must be a whole number > 0; got {value!r}")
        sizes[key] = int(value)
    text, pos = _header_line(data, pos, 4, path, "'map'")
    if text.split() != ["map"]:
        raise file_error(path, 4, f"expected 'map'; got {text!r}")
    return sizes["height"], sizes["width"], pos


def read_walkable(path: StrPath) -> npt.NDArray[np.bool_]:
    """Read a Moving AI ``.map`` file into a boolean array (True = passable).

    The file is a four-line header (``type octile``, ``height H``, ``width W``, ``map``)
    followed by ``H`` rows of exactly ``W`` characters. ``.``, ``G`` and ``S`` (swamp)
    are passable; ``@``, ``O`` (out of bounds), ``T`` (trees) and ``W`` (water, which a
    land agent never enters) are blocked.

    Accepted variations: LF or CRLF line endings (mixed too), no newline after the last
    row, empty lines after the last row, runs of spaces or tabs inside header lines, and
    ``height`` and ``width`` in either order. Anything else is an error, in particular
    a ``type`` other than ``octile``: other types mean other movement rules, so reading
    such a map as octile would silently give wrong paths.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.map`` file.

    Returns
    -------
    numpy.ndarray of bool, shape (height, width)
        ``walkable[row, col]``; row 0 is the first grid line, column 0 its first
        character (Moving AI ``y`` and ``x``).

    Raises
    ------
    OSError
        The file cannot be read.
    ValueError
        A bad header, a row of the wrong length, too few or too many rows, or an
        unknown character. The message names the file and the 1-based line (and
        column, for a bad character).

    Examples
    --------
    >>> from pathcraft.io import bundled_map, read_walkable
    >>> walkable = read_walkable(bundled_map())
    >>> walkable.shape, walkable.dtype
    ((209, 281), dtype('bool'))
    >>> int(walkable.sum())                 # the '.' cells of arena2
    24311

    A file that is not a map names the file and the line:

    >>> from pathcraft.io import bundled_scen
    >>> read_walkable(bundled_scen())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../arena2.map.scen, line 1: expected 'type octile'; got 'version 1'
    """
    data = Path(path).read_bytes()
    height, width, offset = _read_header(data, path)
    first = 5  # the file line of the first grid row
    body = np.frombuffer(data, dtype=np.uint8)[offset:]
    newlines = np.flatnonzero(body == _NEWLINE)
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [body.size]))
    if starts[-1] == body.size:  # the file ends with a newline: no line after it
        starts, ends = starts[:-1], ends[:-1]
    has_return = ends > starts
    has_return[has_return] = body[ends[has_return] - 1] == _RETURN
    ends = ends - has_return
    lengths = ends - starts

    rows = min(height, starts.size)
    wrong = np.flatnonzero(lengths[:rows] != width)
    if wrong.size:
        i = int(wrong[0])
        raise file_error(
            path,
            first + i,
            f"grid row {i + 1} has {int(lengths[i])} characters; the header says width {width}",
        )
    if starts.size < height:
        raise file_error(
            path,
            first + starts.size,
            f"the file ends after {starts.size} grid rows; the header says height {height}",
        )
    extra = np.flatnonzero(lengths[height:] != 0)
    if extra.size:
        raise file_error(
            path,
            first + height + int(extra[0]),
            f"more grid rows than the header's height {height} (only empty lines may follow "
            "the last row)",
        )

    cells = body[starts[:height, None] + np.arange(width)]
    codes = _CELL_TABLE[cells]
    bad = codes < 0
    if bad.any():
        row, col = np.unravel_index(int(np.argmax(bad)), bad.shape)
        char = chr(int(cells[row, col]))
        raise file_error(
            path,
            first + int(row),
            f"unknown map character {char!r}; passable are {', '.join(PASSABLE_CHARS)}, "
            f"blocked are {', '.join(BLOCKED_CHARS)}",
            column=int(col) + 1,
        )
    walkable: npt.NDArray[np.bool_] = codes == 1
    return walkable
