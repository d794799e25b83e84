"""Game coordinates: grid cells ``(row, col)`` to pixels ``(x, y)`` and back.

A game draws its level in pixels; pathcraft's grids speak cells. :class:`TileCoords`
is the one object that converts between the two, for one tile size, one origin and
one direction of the y axis:

- **y down** (pygame, Tiled, most 2-D engines): the origin is the pixel of the map's
  top-left corner and row 0 is the top row;
- **y up** (arcade, pyglet, OpenGL): the origin is the pixel of the map's bottom-left
  corner, and row 0 is still the top row of the map as it is seen (a Tiled level
  shown in arcade keeps its look), so the converter needs the number of rows.

Every conversion is vectorised: an ``(n, 2)`` array in, an ``(n, 2)`` array out. The
one-point forms (:meth:`TileCoords.pixel`, :meth:`TileCoords.cell`) take a tuple, a
list, a NumPy array or a pygame ``Vector2`` and return a plain tuple.
:meth:`TileCoords.find_path` searches a grid between two pixel positions and returns
the path in pixel centres and its cost in pixels.

Positions in *cell units* (``x = col + 0.5`` at a cell's centre, ``y = row + 0.5``),
which :class:`~pathcraft.agents.Pursuer`, :class:`~pathcraft.agents.Crowd` and
:meth:`pathcraft.NavMesh.from_grid` use, convert with :meth:`TileCoords.units_to_pixels`
and :meth:`TileCoords.pixels_to_units`.

(One class past 500 lines, mostly docstrings with examples: its conversions and its
pixel searches share its tile size, origin and axis, and read as one idea.)

Examples
--------
>>> from pathcraft import Grid
>>> from pathcraft.coords import TileCoords
>>> tiles = TileCoords(32)                     # 32x32 pixel tiles, y down, origin (0, 0)
>>> tiles.pixel((2, 3))                        # the centre of row 2, column 3
(112.0, 80.0)
>>> tiles.cell((112.0, 80.0)), tiles.cell((127.9, 95.9))
((2, 3), (2, 3))
>>> grid = Grid.from_ascii('''
... ....
... .##.
... ....
... ''', diagonal="never")
>>> tiles.find_path(grid, (10, 50), (120, 50)).path.tolist()   # pixels in and out
[[16.0, 48.0], [16.0, 80.0], [48.0, 80.0], [80.0, 80.0], [112.0, 80.0], [112.0, 48.0]]

With y up (arcade), the bottom row is nearest the origin:

>>> up = TileCoords(32, y_up=True, shape=grid.shape)
>>> up.pixel((2, 0)), up.pixel((0, 0))
((16.0, 16.0), (16.0, 80.0))
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._aliases import documented
from pathcraft._options import SUPPORT
from pathcraft.result import PathResult

__all__ = ["Anchor", "TileCoords"]

#: The types of a point's coordinates that :meth:`TileCoords.cell` converts without
#: NumPy (bool is not among them: it is refused the checked way).
_PLAIN = frozenset({float, int, np.float64, np.float32, np.int64, np.int32})

Anchor = Literal["center", "top_left", "bottom_left"]
if not TYPE_CHECKING:
    Anchor = documented(
        Anchor,
        "Which point of a cell :meth:`TileCoords.to_pixels` returns.",
    )
_ANCHORS: dict[str, tuple[float, float]] = {
    # (fraction along x, fraction along the map's downward direction)
    "center": (0.5, 0.5),
    "top_left": (0.0, 0.0),
    "bottom_left": (0.0, 1.0),
}


def _positive_pair(name: str, value: Any) -> tuple[float, float]:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        pair: tuple[Any, ...] = (value, value)
    else:
        try:
            pair = tuple(value)
        except TypeError:
            raise TypeError(
                f"{name} must be a number or a (width, height) pair; got {value!r}"
            ) from None
    if len(pair) != 2 or not all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in pair
    ):
        raise TypeError(f"{name} must be a number or a (width, height) pair; got {value!r}")
    w, h = float(pair[0]), float(pair[1])
    if not (math.isfinite(w) and math.isfinite(h) and w > 0 and h > 0):
        raise ValueError(f"{name} must be finite and > 0; got {value!r}")
    return w, h


def _is_integer(value: Any) -> bool:
    """An integer, and not a bool (NumPy reads True as 1)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _points(name: str, value: Any, *, integer: bool) -> tuple[npt.NDArray[Any], bool]:
    """An ``(n, 2)`` array of the given points and whether one point was given."""
    try:
        arr = np.asarray(value, dtype=None if integer else np.float64)
    except (TypeError, ValueError):
        kind = "(row, col) integers" if integer else "(x, y) numbers"
        raise TypeError(f"{name} must be {kind}; got {value!r}") from None
    if integer and (
        arr.dtype.kind not in "iu"
        or (
            not isinstance(value, np.ndarray)
            and any(isinstance(x, (bool, np.bool_)) for x in np.asarray(value, dtype=object).flat)
        )
    ):
        raise TypeError(f"{name} must be (row, col) integers (not True or False); got {value!r}")
    if arr.dtype == object:
        raise TypeError(f"{name} must be (x, y) numbers; got {value!r}")
    one = arr.ndim == 1
    if one:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 2:
        kind = "(row, col)" if integer else "(x, y)"
        raise ValueError(f"{name} must be a {kind} pair or an (n, 2) array; got shape {arr.shape}")
    if not integer and not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite; got {value!r}")
    return arr, one


@dataclasses.dataclass(frozen=True)
class TileCoords:
    """Converts grid cells ``(row, col)`` to pixel positions ``(x, y)`` and back.

    Parameters
    ----------
    tile_size : float or (float, float)
        The size of a cell in pixels: one number for square tiles or
        ``(width, height)``.
    origin : (float, float)
        The pixel position of the map's top-left corner (y down) or of its
        bottom-left corner (y up).
    y_up : bool
        False: pixel y grows downward (pygame, Tiled). True: it grows upward (arcade,
        pyglet); row 0 stays the top row of the map, so ``shape`` is needed.
    shape : (int, int) or None
        The grid's ``(rows, cols)``. Needed with ``y_up``; when given, :meth:`find_path`
        and :meth:`cell` name pixel positions that fall outside the map.

    Raises
    ------
    TypeError, ValueError
        A tile size that is not a positive finite number or pair, an origin that is
        not two finite numbers, ``y_up`` without ``shape``, a shape that is not two
        positive integers.

    Examples
    --------
    >>> from pathcraft.coords import TileCoords
    >>> tiles = TileCoords((16, 8), origin=(100, 50))
    >>> tiles.to_pixels([(0, 0), (1, 2)]).tolist()
    [[108.0, 54.0], [140.0, 62.0]]
    >>> tiles.to_cells([[108.0, 54.0], [99.0, 50.0]]).tolist()  # (99, 50) is left of the map
    [[0, 0], [0, -1]]
    >>> TileCoords(0)
    Traceback (most recent call last):
    ...
    ValueError: tile_size must be finite and > 0; got 0
    """

    tile_size: tuple[float, float]
    origin: tuple[float, float]
    y_up: bool
    shape: tuple[int, int] | None

    def __init__(
        self,
        tile_size: float | Sequence[float],
        *,
        origin: Sequence[float] | npt.ArrayLike = (0.0, 0.0),
        y_up: bool = False,
        shape: tuple[int, int] | None = None,
    ) -> None:
        size = _positive_pair("tile_size", tile_size)
        start, one = _points("origin", origin, integer=False)
        if not one:
            raise ValueError(f"origin must be one (x, y) pair; got {origin!r}")
        if not isinstance(y_up, (bool, np.bool_)):
            raise TypeError(f"y_up must be True or False; got {y_up!r}")
        dims: tuple[int, int] | None = None
        if shape is not None:
            try:
                rows, cols = shape
            except (TypeError, ValueError):
                raise TypeError(f"shape must be (rows, cols); got {shape!r}") from None
            if not all(_is_integer(v) for v in (rows, cols)):
                raise TypeError(f"shape must be two integers > 0 (rows, cols); got {shape!r}")
            if not all(int(v) > 0 for v in (rows, cols)):
                raise ValueError(f"shape must be two integers > 0 (rows, cols); got {shape!r}")
            dims = (int(rows), int(cols))
        if y_up and dims is None:
            raise ValueError(
                "y_up=True needs shape=(rows, cols): row 0 is the top row, drawn farthest "
                "from the origin"
            )
        object.__setattr__(self, "tile_size", size)
        object.__setattr__(self, "origin", (float(start[0, 0]), float(start[0, 1])))
        object.__setattr__(self, "y_up", bool(y_up))
        object.__setattr__(self, "shape", dims)

    # ------------------------------------------------------------------ vectorised

    def _down(self, rows_from_top: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Pixel y of a distance (in rows) measured down from the map's top edge."""
        h = self.tile_size[1]
        if self.y_up:
            assert self.shape is not None
            return self.origin[1] + (self.shape[0] - rows_from_top) * h
        return self.origin[1] + rows_from_top * h

    def _rows_from_top(self, y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        h = self.tile_size[1]
        if self.y_up:
            assert self.shape is not None
            return self.shape[0] - (y - self.origin[1]) / h
        return (y - self.origin[1]) / h

    def to_pixels(self, cells: npt.ArrayLike, *, anchor: Anchor = "center") -> npt.NDArray[Any]:
        """The pixel positions of cells: an ``(n, 2)`` float array of ``(x, y)``.

        Parameters
        ----------
        cells : array_like of int, shape (n, 2) or (2,)
            ``(row, col)`` cells (a path's ``result.path``, for instance); a cell
            whose pixel position float64 cannot hold is refused (ValueError).
        anchor : {"center", "top_left", "bottom_left"}
            Which point of each cell: its centre, or the corner a y-down
            (``"top_left"``) or y-up (``"bottom_left"``) sprite is placed by.

        Examples
        --------
        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(10).to_pixels([(0, 0), (2, 1)], anchor="top_left").tolist()
        [[0.0, 0.0], [10.0, 20.0]]
        """
        arr, _ = _points("cells", cells, integer=True)
        if anchor not in _ANCHORS:
            raise ValueError(f"anchor must be one of {sorted(_ANCHORS)}; got {anchor!r}")
        fx, fy = _ANCHORS[anchor]
        rc = arr.astype(np.float64)
        out = np.empty_like(rc)
        with np.errstate(over="ignore", invalid="ignore"):
            out[:, 0] = self.origin[0] + (rc[:, 1] + fx) * self.tile_size[0]
            out[:, 1] = self._down(rc[:, 0] + fy)
        far = ~np.isfinite(out).all(axis=1)
        if far.any():
            i = int(np.argmax(far))
            label = f"cells[{i}] =" if len(arr) > 1 else "cells"
            raise ValueError(
                f"{label} {tuple(int(v) for v in arr[i])} lies beyond the pixels float64 "
                f"holds (about 1.8e308; tiles of {self.tile_size} pixels)"
            )
        return out

    def to_cells(self, points: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The cells under pixel positions: an ``(n, 2)`` int array of ``(row, col)``.

        A point on the line between two cells belongs to the cell on the side of the
        larger pixel coordinate (right; below with y down, above with y up), so the
        map covers ``[origin, origin + size)`` on both axes. Points outside the map give
        cells outside the grid (negative or too large): nothing is clamped.

        Examples
        --------
        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(10).to_cells([(0, 0), (9.99, 10.0), (-0.5, 0)]).tolist()
        [[0, 0], [1, 0], [0, -1]]
        """
        arr, _ = _points("points", points, integer=False)
        return self._cells_of("points", arr)

    def _cells_of(self, name: str, arr: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
        """:meth:`to_cells` of checked points; ValueError naming ``name`` for a point
        whose cell index does not fit the answer's 64-bit integers."""
        cells = np.empty(arr.shape)
        with np.errstate(over="ignore"):
            cells[:, 1] = np.floor((arr[:, 0] - self.origin[0]) / self.tile_size[0])
            rows = self._rows_from_top(arr[:, 1])
        cells[:, 0] = np.ceil(rows) - 1 if self.y_up else np.floor(rows)
        # a cell index must fit the int64 of the answer (2**63 is the first float past it)
        far = ~(np.abs(cells) < 2.0**63).all(axis=1)
        if far.any():
            i = int(np.argmax(far))
            label = f"{name}[{i}] =" if len(arr) > 1 or name == "points" else name
            raise ValueError(
                f"{label} {tuple(arr[i].tolist())} lies in cell (row, col) = "
                f"{tuple(cells[i].tolist())}, beyond what a 64-bit integer holds (tiles of "
                f"{self.tile_size} pixels)"
            )
        return cells.astype(np.intp)

    def units_to_pixels(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Positions in cell units (``(col + 0.5, row + 0.5)`` at a cell's centre, as
        :attr:`pathcraft.agents.Pursuer.position` gives them) to pixels.

        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(10).units_to_pixels([(0.5, 0.5), (2.0, 1.25)]).tolist()
        [[5.0, 5.0], [20.0, 12.5]]
        """
        arr, _ = _points("points", points, integer=False)
        out = np.empty_like(arr)
        out[:, 0] = self.origin[0] + arr[:, 0] * self.tile_size[0]
        out[:, 1] = self._down(arr[:, 1])
        return out

    def pixels_to_units(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Pixels to positions in cell units: the inverse of :meth:`units_to_pixels`.

        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(10).pixels_to_units([(5.0, 5.0)]).tolist()
        [[0.5, 0.5]]
        """
        arr, _ = _points("points", points, integer=False)
        out = np.empty_like(arr)
        out[:, 0] = (arr[:, 0] - self.origin[0]) / self.tile_size[0]
        out[:, 1] = self._rows_from_top(arr[:, 1])
        return out

    # ------------------------------------------------------------------ one point

    def pixel(self, cell: Any, *, anchor: Anchor = "center") -> tuple[float, float]:
        """The pixel position ``(x, y)`` of one cell ``(row, col)``, as a tuple.

        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(16).pixel((1, 2))
        (40.0, 24.0)
        """
        arr, one = _points("cell", cell, integer=True)
        if not one:
            raise ValueError(f"cell must be one (row, col) pair; got shape {np.shape(cell)}")
        x, y = self.to_pixels(arr, anchor=anchor)[0].tolist()
        return x, y

    def cell(self, point: Any) -> tuple[int, int]:
        """The cell ``(row, col)`` under one pixel position ``(x, y)``.

        ``point`` may be a tuple, a list, an array or a pygame ``Vector2``. When the
        converter knows the grid's ``shape``, a point off the map is an error.

        >>> from pathcraft.coords import TileCoords
        >>> tiles = TileCoords(16, shape=(4, 4))
        >>> tiles.cell((40.0, 24.0))
        (1, 2)
        >>> tiles.cell((70.0, 10.0))
        Traceback (most recent call last):
        ...
        ValueError: point (70.0, 10.0) is in cell (0, 4), outside the map of shape (4, 4)
        """
        try:
            x, y = point  # the fast way for two plain numbers (a tuple, a Vector2)
        except (TypeError, ValueError):
            return self._cell("point", point)
        if type(x) in _PLAIN and type(y) in _PLAIN:
            ox, oy = self.origin
            w, h = self.tile_size
            fx = (x - ox) / w
            if self.y_up:
                assert self.shape is not None
                fy = self.shape[0] - (y - oy) / h
                limit = 2.0**63 - 1.0
                if -limit < fx < limit and -limit < fy < limit:  # finite, fits int64
                    r, c = math.ceil(fy) - 1, math.floor(fx)
                    if 0 <= r < self.shape[0] and 0 <= c < self.shape[1]:
                        return r, c
            else:
                fy = (y - oy) / h
                limit = 2.0**63 - 1.0
                if -limit < fx < limit and -limit < fy < limit:
                    r, c = math.floor(fy), math.floor(fx)
                    shape = self.shape
                    if shape is None or (0 <= r < shape[0] and 0 <= c < shape[1]):
                        return r, c
        return self._cell("point", point)  # the checked way, and its errors

    def _cell_anywhere(self, name: str, point: Any) -> tuple[int, int]:
        """The cell under one point, on the map or off it."""
        arr, one = _points(name, point, integer=False)
        if not one:
            raise ValueError(f"{name} must be one (x, y) pair; got shape {np.shape(point)}")
        r, c = self._cells_of(name, arr)[0].tolist()
        return r, c

    def _cell(self, name: str, point: Any) -> tuple[int, int]:
        arr, one = _points(name, point, integer=False)
        if not one:
            raise ValueError(f"{name} must be one (x, y) pair; got shape {np.shape(point)}")
        r, c = (int(v) for v in self._cells_of(name, arr)[0])
        if self.shape is not None and not (0 <= r < self.shape[0] and 0 <= c < self.shape[1]):
            xy = tuple(float(v) for v in arr[0])
            raise ValueError(
                f"{name} {xy} is in cell {(r, c)}, outside the map of shape {self.shape}"
            )
        return r, c

    # ------------------------------------------------------------------ searching

    def find_path(
        self,
        grid: Any,
        start: Any,
        goal: Any,
        *,
        algorithm: str = "astar",
        units: Literal["pixels", "tiles"] = "pixels",
        **options: Any,
    ) -> PathResult:
        """Search ``grid`` between two pixel positions; the path and its cost come back
        in pixels.

        The start and goal are the cells under the two positions; the search is the
        grid's own (``grid.find_path(..., algorithm=algorithm)``), with the same
        options and the same costs, so the answer is the one the same query on cells
        gives. The path is the ``(n, 2)`` float array of the cells' centres in pixels;
        its cost is in pixels (the grid's cost times a tile's side, as a navigation
        mesh of the same level measures it), or with ``units="tiles"`` the grid's own.

        Parameters
        ----------
        grid : Grid
            Any world of ``(row, col)`` cells with a ``find_path``.
        start, goal : (float, float)
            Pixel positions (tuples, arrays or pygame ``Vector2``).
        algorithm : {"astar", "dijkstra", "greedy", "jps", "theta"}
            The grid's search to run (every ``algorithm=`` of
            :class:`~pathcraft.Grid`, as ``pathcraft._options.SUPPORT`` lists them).
        units : {"pixels", "tiles"}
            The cost's unit. In pixels a step costs the grid's cost of the cell it
            enters times its length in pixels: on tiles that are not square, a
            straight step along x is a tile's width, along y its height (the path is
            the one the grid finds; a query with ``size=`` on such tiles is refused:
            its steps are the unit's). ``"tiles"``: the grid's cost as it is.
        **options
            Passed to that search (``weight``, ``max_expansions``, ...); with
            ``snap=True`` a position on a wall or off the map starts (or ends) the
            search at the nearest walkable cell.

        Returns
        -------
        PathResult
            As the grid's, with ``path`` in pixel centres; ``explored.nodes`` (when
            recorded) stays in cells.

        Raises
        ------
        ValueError
            A position off the map (the message gives its cell) or on a wall (without
            ``snap``; when the position with x and y swapped is walkable, the message
            says so), an unknown algorithm or unit; the grid's own errors for its
            options.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.coords import TileCoords
        >>> grid = Grid.from_ascii("...")
        >>> TileCoords(8, origin=(100, 0)).find_path(grid, (101, 4), (123, 4)).cost
        16.0
        >>> TileCoords(8, origin=(100, 0)).find_path(grid, (101, 4), (123, 4), units="tiles").cost
        2.0
        >>> TileCoords(8, origin=(100, 0)).find_path(grid, (90, 4), (123, 40), snap=True).cost
        16.0
        """
        searches = list(SUPPORT["Grid"].algorithms)
        if algorithm not in searches:
            raise ValueError(f"algorithm must be one of {searches}; got {algorithm!r}")
        if units not in ("pixels", "tiles"):
            raise ValueError(f"units must be 'pixels' or 'tiles'; got {units!r}")
        shape = tuple(getattr(grid, "shape", ()))
        checked = self if self.shape is not None or len(shape) != 2 else self._with_shape(shape)
        try:
            if options.get("snap") is True:  # off the map too: the grid moves it on
                s = checked._cell_anywhere("start", start)
                g = checked._cell_anywhere("goal", goal)
            else:
                s = checked._cell("start", start)
                g = checked._cell("goal", goal)
            result: PathResult = grid.find_path(s, g, algorithm=algorithm, **options)
        except ValueError as exc:
            hint = checked._swap_hint(grid, (("start", start), ("goal", goal)))
            if hint:
                raise ValueError(f"{exc}{hint}") from exc
            raise
        path = np.asarray(result.path)
        pixels = self.to_pixels(path) if path.size else np.zeros((0, 2))
        cost = result.cost
        if units == "pixels":
            cost = self._pixel_cost(grid, path, cost, algorithm, options)
        return dataclasses.replace(result, path=pixels, cost=cost)

    def _pixel_cost(
        self, grid: Any, path: npt.NDArray[Any], cost: float, algorithm: str, options: Any
    ) -> float:
        """A path's cost in pixels: a square tile's side times its cost in cells, or on
        other tiles each step's cost times its length in pixels."""
        w, h = self.tile_size
        if w == h or len(path) < 2 or not math.isfinite(cost):
            return cost * w
        steps = np.diff(path.astype(np.intp), axis=0)
        if algorithm == "theta":  # any-angle lines on a grid of one cost: lengths scale
            cells_long = np.hypot(steps[:, 0], steps[:, 1]).sum()
            return float(cost * np.hypot(steps[:, 0] * h, steps[:, 1] * w).sum() / cells_long)
        if options.get("size", 1) != 1 or not hasattr(grid, "cost"):
            raise ValueError(
                f"a cost in pixels on tiles of {w:g}x{h:g} px (not square) is measured step "
                "by step, for the grid's own steps without size=; pass units='tiles' for "
                "the grid's cost"
            )
        count = np.abs(steps).max(axis=1)  # a jump point search's straight runs, expanded
        unit = np.repeat(steps // count[:, None], count, axis=0)
        cells = path[0] + np.cumsum(unit, axis=0)
        straight_x, straight_y = unit[:, 0] == 0, unit[:, 1] == 0
        length = np.where(straight_x, w, np.where(straight_y, h, math.hypot(w, h)))
        return float((np.asarray(grid.cost)[cells[:, 0], cells[:, 1]] * length).sum())

    def _swap_hint(self, grid: Any, ends: Any) -> str:
        """For an end on a wall or off the grid: where its swapped ``(y, x)`` lies, when
        that is a walkable cell (a ``(row, col)`` or ``(y, x)`` pair passed as pixels)."""
        walkable = getattr(grid, "walkable", None)
        if walkable is None:
            return ""

        def walkable_at(r: int, c: int) -> bool:
            rows, cols = walkable.shape
            return bool(0 <= r < rows and 0 <= c < cols and walkable[r, c])

        for name, point in ends:
            try:
                x, y = (float(v) for v in np.asarray(point, dtype=float).ravel())
                cell = self._cell_anywhere(name, (x, y))
                rr, cc = self._cell_anywhere(name, (y, x))
            except (TypeError, ValueError):
                continue
            if walkable_at(*cell):
                continue
            if walkable_at(rr, cc):
                return (
                    f"; positions are pixels (x, y): {name} ({y:g}, {x:g}), swapped, is "
                    f"in the walkable cell {(rr, cc)}: did you mean it?"
                )
        return ""

    def nearest_walkable(
        self, points: npt.ArrayLike, grid: Any, *, max_distance: float | None = None
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
        """Pixel positions snapped to walkable cells: each point's cell (under it, on
        the map or off it) is moved to its nearest walkable cell by
        :meth:`Grid.nearest_walkable <pathcraft.grid.Grid.nearest_walkable>`
        (Euclidean distance between cell centres, in cells; ties to the smallest
        ``(row, col)``); a point in a walkable cell keeps its cell.

        Parameters
        ----------
        points : array_like, shape (n, 2) or (2,)
            Pixel positions ``(x, y)``, anywhere (a physics position in a wall or
            beyond the map's edge included).
        grid : Grid
            The grid whose walkable cells count (anything with ``nearest_walkable``).
        max_distance : float or None
            In cells, as in :meth:`Grid.nearest_walkable`; None: any distance.

        Returns
        -------
        pixels : ndarray of float64, shape (n, 2)
            The centres of the cells found, in pixels; NaN where no walkable cell
            lies within ``max_distance`` (or the grid has none).
        cells : ndarray of intp, shape (n, 2)
            The cells found, ``(row, col)``; ``(-1, -1)`` where none.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.coords import TileCoords
        >>> grid = Grid.from_ascii('''
        ... ..#
        ... .##
        ... ''')
        >>> pixels, cells = TileCoords(10).nearest_walkable([(25, 15), (5, 5), (99, 5)], grid)
        >>> cells.tolist(), pixels.tolist()
        ([[0, 1], [0, 0], [0, 1]], [[15.0, 5.0], [5.0, 5.0], [15.0, 5.0]])
        """
        arr, _ = _points("points", points, integer=False)
        found = np.asarray(
            grid.nearest_walkable(self._cells_of("points", arr), max_distance=max_distance),
            dtype=np.intp,
        )
        pixels = self.to_pixels(found)
        pixels[found[:, 0] < 0] = np.nan
        return pixels, found

    def path_to_pixels(self, path: Any) -> npt.NDArray[np.float64]:
        """A path of cells (a ``PathResult`` or its ``path``; a list of ``(row, col)``
        too) as pixel centres, an ``(n, 2)`` float array.

        >>> from pathcraft.coords import TileCoords
        >>> TileCoords(2).path_to_pixels([(0, 0), (0, 1)]).tolist()
        [[1.0, 1.0], [3.0, 1.0]]
        """
        cells = path.path if isinstance(path, PathResult) else path
        arr = np.asarray(cells)
        if arr.size == 0:
            return np.zeros((0, 2))
        return self.to_pixels(arr)

    def _with_shape(self, shape: tuple[Any, ...]) -> TileCoords:
        return TileCoords(
            self.tile_size, origin=self.origin, y_up=self.y_up, shape=(shape[0], shape[1])
        )
