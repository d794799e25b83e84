"""Moving AI ``.scen`` files: start/goal problems with their optimal lengths."""

from __future__ import annotations

import dataclasses
import numbers
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._common import StrPath, file_error

__all__ = ["LENGTH_RTOL", "Scenarios", "lengths_match", "read_scen"]

#: The relative tolerance of :func:`lengths_match`.
LENGTH_RTOL = 1e-5
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

        Examples
        --------
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

        Examples
        --------
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
        raise file_error(path, 1, f"expected 'version 1' as the first line; got {line!r}")
    if words[1] not in _SCEN_VERSIONS:
        raise file_error(
            path, 1, f"scenario version {words[1]!r} is not supported; only version 1 is"
        )


#: The format's number syntax, as C's ``printf`` writes it (``%d``, ``%g``, ``%.8f``):
#: ASCII digits only (no other script's digits, no ``_`` separators as Python's ``int``
#: and NumPy accept), an optional sign, point and exponent; ``inf`` and ``nan`` parse
#: (and are then refused as lengths by name).
_SYNTAX = {
    "integer": r" *[-+]?[0-9]+ *",
    "number": r" *[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|inf|infinity|nan) *",
}
_FIELD = {kind: re.compile(pattern, re.ASCII | re.IGNORECASE) for kind, pattern in _SYNTAX.items()}
_COLUMN = {
    kind: re.compile(f"(?:{pattern})(?:\n(?:{pattern}))*", re.ASCII | re.IGNORECASE)
    for kind, pattern in _SYNTAX.items()
}


def _column(
    fields: list[str], dtype: Any, linenos: list[int], path: StrPath, what: str
) -> npt.NDArray[Any]:
    """Convert one column of strings; on failure, name the first bad line. The whole
    column's syntax is checked by one regular expression (no loop over lines unless
    it fails)."""
    integer = dtype is np.int64
    syntax = "integer" if integer else "number"
    if _COLUMN[syntax].fullmatch("\n".join(fields)):
        try:
            return np.array(fields, dtype=str).astype(dtype)
        except (ValueError, OverflowError):
            pass
    for text, lineno in zip(fields, linenos, strict=True):
        try:
            if not _FIELD[syntax].fullmatch(text):
                raise ValueError(text)
            np.array([text], dtype=str).astype(dtype)
        except (ValueError, OverflowError):
            kind = "a whole number (64-bit)" if integer else "a number"
            raise file_error(
                path,
                lineno,
                f"{what} must be {kind}; got {text!r} (the format writes numbers in ASCII "
                "digits, with an optional sign" + ("" if integer else ", point and exponent")
                + ")",
            ) from None
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
        raise file_error(path, bad_line, "the file is not UTF-8 text") from None
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
            raise file_error(
                path,
                lineno,
                f"expected {_SCEN_FIELDS} TAB-separated fields ({', '.join(_SCEN_NAMES)}); "
                f"got {len(fields)}",
            )
        rows.append(fields)
        linenos.append(lineno)
    if not rows:
        raise file_error(path, len(lines), "no problems after the version line")

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
            raise file_error(
                path,
                linenos[j],
                f"{_SCEN_NAMES[i]} {columns[i][j]!r} differs from {columns[i][0]!r} "
                f"on line {linenos[0]}",
            )
    width, height = int(ints["width"][0]), int(ints["height"][0])
    if width <= 0 or height <= 0:
        raise file_error(path, linenos[0], f"width and height must be > 0; got {width} x {height}")

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
            raise file_error(path, linenos[j], f"{_SCEN_NAMES[i]} {rule}; got {columns[i][j]!r}")

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
