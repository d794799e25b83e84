"""Moving AI grid benchmark files: ``.map`` grids and ``.scen`` scenario lists.

The Moving AI Lab benchmarks (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding",
IEEE TCIAIG 4(2):144-148, 2012; movingai.com/benchmarks) are the standard test set for
grid pathfinding. This module reads them into NumPy arrays:

- :func:`read_walkable` reads a ``.map`` file into a boolean ``(height, width)`` array;
- :func:`read_map` builds a :class:`~pathcraft.grid.Grid` from it;
- :func:`read_scen` reads a ``.scen`` file into :class:`Scenarios`;
- :func:`lengths_match` compares path costs with the published optimal lengths;
- :func:`map_for_scen` finds the map of a scenario file;
- :func:`bundled_map` and :func:`bundled_scen` locate the small map shipped with the
  package (Dragon Age: Origins, ``arena2``).

Coordinates: the files speak ``x`` = column and ``y`` = row. Everything returned here is
in pathcraft's ``(row, col)`` order; the conversion happens once, in :func:`read_scen`.

Errors in a file raise ``ValueError`` naming the file and the 1-based line (and column
for a bad map cell), so a broken file can be fixed in an editor.

Examples
--------
>>> from pathcraft.io import bundled_map, bundled_scen, read_scen, read_walkable
>>> walkable = read_walkable(bundled_map())
>>> walkable.shape                      # (height, width)
(209, 281)
>>> scen = read_scen(bundled_scen())
>>> len(scen), scen.starts[0].tolist()  # (row, col) of the first problem's start
(910, [159, 99])
>>> bool(walkable[tuple(scen.starts.T)].all())
True
"""

from __future__ import annotations

import dataclasses
import numbers
import os
import re
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pathcraft.grid import Diagonal, Grid

__all__ = [
    "BLOCKED_CHARS",
    "LENGTH_RTOL",
    "PASSABLE_CHARS",
    "Scenarios",
    "bundled_map",
    "bundled_scen",
    "lengths_match",
    "map_for_scen",
    "read_map",
    "read_scen",
    "read_walkable",
]

StrPath = str | os.PathLike[str]

#: Map characters a land agent may stand on: ground (``.``, ``G``) and swamp (``S``).
PASSABLE_CHARS = ".GS"
#: Blocked map characters: out of bounds (``@``, ``O``), trees (``T``), water (``W``).
BLOCKED_CHARS = "@OTW"
#: The relative tolerance of :func:`lengths_match`.
LENGTH_RTOL = 1e-5

# One byte -> 1 (passable), 0 (blocked) or -1 (not a map character).
_CELL_TABLE = np.full(256, -1, dtype=np.int8)
_CELL_TABLE[np.frombuffer(PASSABLE_CHARS.encode(), dtype=np.uint8)] = 1
_CELL_TABLE[np.frombuffer(BLOCKED_CHARS.encode(), dtype=np.uint8)] = 0

_NEWLINE = 0x0A
_RETURN = 0x0D
_UINT = re.compile(r"[0-9]+")
_SCEN_VERSIONS = ("1", "1.0")
_SCEN_FIELDS = 9
_SCEN_NAMES = (
    "bucket",
    "map",
    "width",
    "height",
    "start x",
    "start y",
    "goal x",
    "goal y",
    "optimal length",
)
_DATA = "data"
_MAP_NAME = "arena2.map"
_SCEN_NAME = "arena2.map.scen"


def _error(path: StrPath, line: int, message: str, column: int | None = None) -> ValueError:
    where = f"line {line}" if column is None else f"line {line}, column {column}"
    return ValueError(f"{os.fspath(path)}, {where}: {message}")


# ---------------------------------------------------------------------------- maps


def _header_line(data: bytes, pos: int, line: int, path: StrPath, want: str) -> tuple[str, int]:
    """The text of header line ``line`` starting at byte ``pos``, and the next line's start."""
    if pos >= len(data):
        raise _error(path, line, f"the file ends before the header is complete; expected {want}")
    end = data.find(b"\n", pos)
    stop = len(data) if end < 0 else end
    raw = data[pos:stop].rstrip(b"\r")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise _error(path, line, f"expected {want}; got {raw!r}") from None
    return text, stop + 1


def _read_header(data: bytes, path: StrPath) -> tuple[int, int, int]:
    """Parse the four header lines; return ``(height, width, offset of the grid)``."""
    text, pos = _header_line(data, 0, 1, path, "'type octile'")
    words = text.split()
    if not words or words[0] != "type" or len(words) != 2:
        raise _error(path, 1, f"expected 'type octile'; got {text!r}")
    if words[1] != "octile":
        raise _error(
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
            raise _error(path, line, f"expected {want}; got {text!r}")
        key, value = words
        if not _UINT.fullmatch(value) or int(value) == 0:
            raise _error(path, line, f"{key} must be a whole number > 0; got {value!r}")
        sizes[key] = int(value)
    text, pos = _header_line(data, pos, 4, path, "'map'")
    if text.split() != ["map"]:
        raise _error(path, 4, f"expected 'map'; got {text!r}")
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
        raise _error(
            path,
            first + i,
            f"grid row {i + 1} has {int(lengths[i])} characters; the header says width {width}",
        )
    if starts.size < height:
        raise _error(
            path,
            first + starts.size,
            f"the file ends after {starts.size} grid rows; the header says height {height}",
        )
    extra = np.flatnonzero(lengths[height:] != 0)
    if extra.size:
        raise _error(
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
        raise _error(
            path,
            first + int(row),
            f"unknown map character {char!r}; passable are {', '.join(PASSABLE_CHARS)}, "
            f"blocked are {', '.join(BLOCKED_CHARS)}",
            column=int(col) + 1,
        )
    walkable: npt.NDArray[np.bool_] = codes == 1
    return walkable


def read_map(path: StrPath, *, diagonal: Diagonal = "no_corner_cut") -> Grid:
    """Read a Moving AI ``.map`` file into a :class:`~pathcraft.grid.Grid` of unit costs.

    Passable cells cost 1, blocked cells are walls (see :func:`read_walkable`). With
    the default ``diagonal="no_corner_cut"`` (8-connected, no corner cutting) the
    grid follows the rules the published optimal lengths assume.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.map`` file.
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The grid's diagonal-move rule.

    Returns
    -------
    Grid

    Raises
    ------
    OSError, ValueError
        As :func:`read_walkable`; ``ValueError`` also for an unknown ``diagonal``.

    Examples
    --------
    >>> from pathcraft.io import bundled_map, read_map
    >>> grid = read_map(bundled_map())
    >>> grid.shape, grid.diagonal
    ((209, 281), 'no_corner_cut')
    """
    from pathcraft.grid import Grid

    return Grid.from_walkable(read_walkable(path), diagonal=diagonal)


# ---------------------------------------------------------------------------- scenarios


def _frozen(values: Any, dtype: Any, ndim: int, name: str) -> npt.NDArray[Any]:
    """A read-only copy of ``values`` as ``dtype`` with ``ndim`` dimensions."""
    arr = np.array(values, dtype=dtype, copy=True)
    if arr.ndim != ndim or (ndim == 2 and arr.shape[1] != 2):
        want = "(n, 2)" if ndim == 2 else "(n,)"
        raise ValueError(f"{name} must have shape {want}; got {arr.shape}")
    arr.flags.writeable = False
    return arr


@dataclasses.dataclass(frozen=True, eq=False)
class Scenarios:
    """The problems of a Moving AI ``.scen`` file, as NumPy arrays (cells ``(row, col)``).

    Usually made by :func:`read_scen`. The arrays are read-only copies. Indexing with
    anything NumPy accepts on a 1-D array (an int, a slice, an integer array, a boolean
    mask) gives a new ``Scenarios`` holding those problems; an int gives one problem,
    still as a ``Scenarios`` of length 1.

    Attributes
    ----------
    bucket : numpy.ndarray of int64, shape (n,)
        The file's bucket of each problem (``floor(optimal / 4)`` as published; kept
        as read, never recomputed).
    map_name : str
        The map field of the file: a label only (``arena2.map`` or
        ``maps/dao/brc202d.map``); use :func:`map_for_scen` to find the map.
    width, height : int
        The map size the file states (columns, rows).
    starts, goals : numpy.ndarray of intp, shape (n, 2)
        ``(row, col)`` cells: the file's ``(y, x)``.
    optimal : numpy.ndarray of float64, shape (n,)
        Published optimal lengths, printed with limited precision: compare with
        :func:`lengths_match`, never with ``==``.

    Examples
    --------
    >>> from pathcraft.io import bundled_scen, read_scen
    >>> scen = read_scen(bundled_scen())
    >>> scen
    Scenarios('arena2.map', 910 problems, height=209, width=281, buckets 0-90)
    >>> short = scen[scen.optimal < 2]
    >>> len(short), short.optimal.tolist()
    (2, [1.0, 1.0])
    >>> scen[:2].goals.tolist()
    [[162, 101], [131, 109]]
    >>> len(scen.sample(50, seed=1))
    50
    """

    bucket: npt.NDArray[np.int64]
    map_name: str
    width: int
    height: int
    starts: npt.NDArray[np.intp]
    goals: npt.NDArray[np.intp]
    optimal: npt.NDArray[np.float64]

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name} must be an integer; got {value!r}")
            object.__setattr__(self, name, int(value))
        if not isinstance(self.map_name, str):
            raise TypeError(f"map_name must be a str; got {self.map_name!r}")
        arrays = {
            "bucket": _frozen(self.bucket, np.int64, 1, "bucket"),
            "starts": _frozen(self.starts, np.intp, 2, "starts"),
            "goals": _frozen(self.goals, np.intp, 2, "goals"),
            "optimal": _frozen(self.optimal, np.float64, 1, "optimal"),
        }
        sizes = {name: len(arr) for name, arr in arrays.items()}
        if len(set(sizes.values())) > 1:
            raise ValueError(f"bucket, starts, goals and optimal differ in length: {sizes}")
        for name, arr in arrays.items():
            object.__setattr__(self, name, arr)

    def __len__(self) -> int:
        return len(self.optimal)

    def __getitem__(self, index: Any) -> Scenarios:
        """The problems at ``index`` (int, slice, integer array or boolean mask)."""
        if isinstance(index, bool | np.bool_):
            raise TypeError("a Scenarios index must be an int, a slice or an array; got a bool")
        if isinstance(index, numbers.Integral):
            index = [int(index)]
        if isinstance(index, tuple):
            raise TypeError("a Scenarios index must be one-dimensional; got a tuple")
        return dataclasses.replace(
            self,
            bucket=self.bucket[index],
            starts=self.starts[index],
            goals=self.goals[index],
            optimal=self.optimal[index],
        )

    def __repr__(self) -> str:
        buckets = f", buckets {self.bucket.min()}-{self.bucket.max()}" if len(self) else ""
        return (
            f"Scenarios({self.map_name!r}, {len(self)} problems, height={self.height}, "
            f"width={self.width}{buckets})"
        )

    def sample(self, k: int, *, seed: int | np.random.Generator | None = None) -> Scenarios:
        """``k`` distinct problems drawn at random, kept in file order.

        ``seed`` makes the draw reproducible (an int or a ``numpy.random.Generator``).

        >>> from pathcraft.io import bundled_scen, read_scen
        >>> scen = read_scen(bundled_scen())
        >>> scen.sample(5, seed=0).bucket.tolist() == scen.sample(5, seed=0).bucket.tolist()
        True
        >>> scen.sample(1000)
        Traceback (most recent call last):
        ...
        ValueError: k must be between 0 and 910 (the number of problems); got 1000
        """
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"k must be an integer; got {k!r}")
        if not 0 <= k <= len(self):
            raise ValueError(
                f"k must be between 0 and {len(self)} (the number of problems); got {k}"
            )
        rng = np.random.default_rng(seed)
        return self[np.sort(rng.choice(len(self), size=int(k), replace=False))]

    def check_against(self, walkable: npt.ArrayLike) -> None:
        """Raise ``ValueError`` unless these problems fit the map ``walkable``.

        Checks that ``walkable`` (a boolean ``(rows, cols)`` array, e.g. from
        :func:`read_walkable`) has the stated ``(height, width)`` and that every start
        and goal is on a passable cell.

        >>> from pathcraft.io import bundled_map, bundled_scen, read_scen, read_walkable
        >>> scen = read_scen(bundled_scen())
        >>> scen.check_against(read_walkable(bundled_map()))
        >>> scen.check_against(read_walkable(bundled_map()).T)
        Traceback (most recent call last):
        ...
        ValueError: the map has shape (281, 209); the scenarios say (height, width) = (209, 281)
        """
        mask = np.asarray(walkable)
        if mask.dtype != np.bool_:
            raise TypeError(f"walkable must be a boolean array; got dtype {mask.dtype}")
        if mask.shape != (self.height, self.width):
            raise ValueError(
                f"the map has shape {mask.shape}; the scenarios say (height, width) = "
                f"({self.height}, {self.width})"
            )
        for name, cells in (("start", self.starts), ("goal", self.goals)):
            rows, cols = cells[:, 0], cells[:, 1]
            outside = (rows < 0) | (rows >= self.height) | (cols < 0) | (cols >= self.width)
            blocked = np.ones(len(cells), dtype=bool)
            blocked[~outside] = ~mask[rows[~outside], cols[~outside]]
            if blocked.any():
                i = int(np.argmax(blocked))
                cell = (int(rows[i]), int(cols[i]))
                what = "is outside the map" if outside[i] else "is not passable"
                raise ValueError(f"problem {i}: {name} {cell} (row, col) {what}")


def _read_version(line: str, path: StrPath) -> None:
    words = line.split()
    if len(words) != 2 or words[0] != "version":
        raise _error(path, 1, f"expected 'version 1' as the first line; got {line!r}")
    if words[1] not in _SCEN_VERSIONS:
        raise _error(path, 1, f"scenario version {words[1]!r} is not supported; only version 1 is")


def _column(
    fields: list[str], dtype: Any, linenos: list[int], path: StrPath, what: str
) -> npt.NDArray[Any]:
    """Convert one column of strings; on failure, name the first bad line."""
    try:
        return np.array(fields, dtype=str).astype(dtype)
    except (ValueError, OverflowError):
        pass
    integer = dtype is np.int64
    for text, lineno in zip(fields, linenos, strict=True):
        try:
            np.array([text], dtype=str).astype(dtype)
        except (ValueError, OverflowError):
            kind = "a whole number (64-bit)" if integer else "a number"
            raise _error(path, lineno, f"{what} must be {kind}; got {text!r}") from None
    raise AssertionError("unreachable: a column failed but none of its fields")  # pragma: no cover


def read_scen(path: StrPath) -> Scenarios:
    """Read a Moving AI ``.scen`` file (version 1).

    The first line is ``version 1`` (``version 1.0`` is accepted too). Every other
    line is one problem of nine fields: bucket, map name, map width, map height,
    start x, start y, goal x, goal y, optimal length. ``x`` is the column and ``y`` the
    row; the returned cells are ``(row, col)`` = ``(y, x)``.

    Fields are separated by one TAB each (map names may then hold spaces). A line with
    no TAB at all is split on runs of spaces instead, as in some older releases.
    Empty lines are skipped (some files end with several), CRLF is accepted, and a
    final newline is optional. Both published flavours of version 1 are read: map
    paths or bare names, 8 decimals or 6 significant digits.

    Every line must state the same map name, width and height; coordinates must lie
    inside that size; lengths must be finite and >= 0.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.scen`` file.

    Returns
    -------
    Scenarios

    Raises
    ------
    OSError
        The file cannot be read.
    ValueError
        A missing or unknown version line, a line without nine fields, a field that
        is not a number, disagreeing sizes, a coordinate outside the map, a bad length,
        or no problems at all. The message names the file and the 1-based line.

    Examples
    --------
    >>> from pathcraft.io import bundled_scen, read_scen
    >>> scen = read_scen(bundled_scen())
    >>> scen.map_name, scen.width, scen.height, len(scen)
    ('arena2.map', 281, 209, 910)

    The first line of the file is ``0 arena2.map 281 209 99 159 101 162 3.82842712``:

    >>> scen.starts[0].tolist(), scen.goals[0].tolist(), float(scen.optimal[0])
    ([159, 99], [162, 101], 3.82842712)
    """
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + 1
        raise _error(path, bad_line, "the file is not UTF-8 text") from None
    lines = text.split("\n")
    _read_version(lines[0].rstrip("\r"), path)

    rows: list[list[str]] = []
    linenos: list[int] = []
    for lineno, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) != _SCEN_FIELDS:
            raise _error(
                path,
                lineno,
                f"expected {_SCEN_FIELDS} TAB-separated fields ({', '.join(_SCEN_NAMES)}); "
                f"got {len(fields)}",
            )
        rows.append(fields)
        linenos.append(lineno)
    if not rows:
        raise _error(path, len(lines), "no problems after the version line")

    columns = [list(column) for column in zip(*rows, strict=True)]
    ints = {
        name: _column(columns[i], np.int64, linenos, path, name)
        for i, name in enumerate(_SCEN_NAMES)
        if i not in (1, 8)
    }
    optimal = _column(columns[8], np.float64, linenos, path, "optimal length")
    map_names = np.array(columns[1], dtype=str)

    for i, values in ((1, map_names), (2, ints["width"]), (3, ints["height"])):
        differs = np.flatnonzero(values != values[0])
        if differs.size:
            j = int(differs[0])
            raise _error(
                path,
                linenos[j],
                f"{_SCEN_NAMES[i]} {columns[i][j]!r} differs from {columns[i][0]!r} "
                f"on line {linenos[0]}",
            )
    width, height = int(ints["width"][0]), int(ints["height"][0])
    if width <= 0 or height <= 0:
        raise _error(path, linenos[0], f"width and height must be > 0; got {width} x {height}")

    x_range, y_range = f"must be in [0, {width})", f"must be in [0, {height})"
    checks = [
        (0, ints["bucket"] < 0, "must be >= 0"),
        (4, (ints["start x"] < 0) | (ints["start x"] >= width), x_range),
        (5, (ints["start y"] < 0) | (ints["start y"] >= height), y_range),
        (6, (ints["goal x"] < 0) | (ints["goal x"] >= width), x_range),
        (7, (ints["goal y"] < 0) | (ints["goal y"] >= height), y_range),
        (8, ~np.isfinite(optimal) | (optimal < 0), "must be finite and >= 0"),
    ]
    for i, bad, rule in checks:
        if bad.any():
            j = int(np.argmax(bad))
            raise _error(path, linenos[j], f"{_SCEN_NAMES[i]} {rule}; got {columns[i][j]!r}")

    return Scenarios(
        bucket=ints["bucket"],
        map_name=columns[1][0],
        width=width,
        height=height,
        starts=np.column_stack((ints["start y"], ints["start x"])),
        goals=np.column_stack((ints["goal y"], ints["goal x"])),
        optimal=optimal,
    )


def lengths_match(
    got: npt.ArrayLike, want: npt.ArrayLike, *, rtol: float = LENGTH_RTOL
) -> npt.NDArray[np.bool_]:
    """Whether path costs ``got`` match published lengths ``want``, element by element.

    The rule is ``abs(got - want) <= rtol * max(1.0, want)`` with ``rtol = 1e-5``.
    Why: the older ("flavour A") scenario files print lengths with six significant
    digits (``%g``: ``2.82843``, ``1007.22``), so a printed length can be off by up
    to 5e-6 relative, i.e. 0.005 above 1000; the newer files print 8 decimals. A
    relative tolerance of 1e-5 covers six significant digits with a margin of two; an
    absolute tolerance alone would have to be 0.005, far too loose for short paths.
    Below length 1 the bound is absolute (1e-5), so a length of 0 must be matched
    by a cost within 1e-5 of 0. NaN and ``inf`` costs (no path) never match.

    Parameters
    ----------
    got, want : array_like of float
        Broadcastable arrays (or numbers).
    rtol : float
        The relative tolerance, >= 0. Do not go below 1e-5 on six-digit files.

    Returns
    -------
    numpy.ndarray of bool
        The broadcast shape of ``got`` and ``want`` (0-d for two numbers).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.io import lengths_match
    >>> lengths_match([2 * np.sqrt(2), 1007.2249, 3.0], [2.82843, 1007.22, 3.0001])
    array([ True,  True, False])
    >>> bool(lengths_match(np.inf, 12.5))
    False
    """
    if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real):
        raise TypeError(f"rtol must be a number >= 0; got {rtol!r}")
    if not rtol >= 0:
        raise ValueError(f"rtol must be a number >= 0; got {rtol!r}")
    got_arr = np.asarray(got, dtype=np.float64)
    want_arr = np.asarray(want, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        ok = np.abs(got_arr - want_arr) <= float(rtol) * np.maximum(1.0, want_arr)
    return np.asarray(ok, dtype=np.bool_)


# ---------------------------------------------------------------------------- files


def map_for_scen(scen_path: StrPath) -> Path:
    """The ``.map`` file of a scenario file, found from the scenario file's own name.

    The map's name is the scenario file's name without ``.scen``
    (``arena2.map.scen`` -> ``arena2.map``). The map field inside the file is not used:
    it is only a label and its form differs between releases. Places looked at, in
    order:

    1. ``<root>/maps/<family>/<name>`` when the scenario file is
       ``<root>/scen/<family>/<name>.scen`` (the layout of the Moving AI downloads);
    2. ``<name>`` beside the scenario file.

    Parameters
    ----------
    scen_path : str or os.PathLike
        The ``.scen`` file (it need not exist).

    Returns
    -------
    pathlib.Path
        The first place that holds a file.

    Raises
    ------
    ValueError
        The name does not end in ``.scen``.
    FileNotFoundError
        No map in any of the places; the message lists them.

    Examples
    --------
    >>> from pathcraft.io import bundled_map, bundled_scen, map_for_scen
    >>> map_for_scen(bundled_scen()) == bundled_map()
    True
    """
    scen = Path(scen_path)
    if not scen.name.endswith(".scen") or scen.name == ".scen":
        raise ValueError(f"scen_path must name a .scen file; got {os.fspath(scen_path)!r}")
    name = scen.name[: -len(".scen")]
    places = []
    if scen.parent.parent.name == "scen":
        places.append(scen.parent.parent.parent / "maps" / scen.parent.name / name)
    places.append(scen.parent / name)
    for place in places:
        if place.is_file():
            return place
    looked = ", ".join(str(place) for place in places)
    raise FileNotFoundError(f"no map {name!r} for {os.fspath(scen_path)}: looked at {looked}")


def _bundled(name: str) -> Path:
    # pathcraft ships compiled extensions, so it is always installed as plain files
    # (never run from a zip): the resource is a real path.
    return Path(str(files("pathcraft") / _DATA / name))


def bundled_map() -> Path:
    """The path of the bundled Moving AI map ``arena2.map`` (Dragon Age: Origins).

    281 columns by 209 rows; see ``pathcraft/data/README.md`` for its origin.

    >>> from pathcraft.io import bundled_map
    >>> bundled_map().name
    'arena2.map'
    """
    return _bundled(_MAP_NAME)


def bundled_scen() -> Path:
    """The path of the bundled scenario file ``arena2.map.scen`` (910 problems).

    >>> from pathcraft.io import bundled_scen
    >>> bundled_scen().name
    'arena2.map.scen'
    """
    return _bundled(_SCEN_NAME)
