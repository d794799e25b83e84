"""Levels in the conventions users bring from other tools, each one call to a Grid.

- :func:`grid_from_zero_walls`: an integer (or float) array where 0 is a wall and a
  positive value is the cost of entering the cell, the convention of tcod's path
  finders (``tcod.path``: "0 is blocked") and of python-pathfinding's ``Grid(matrix=...)``
  ("0 and below are obstacles"). pathcraft's own :class:`~pathcraft.Grid` takes
  ``np.inf`` for walls and refuses 0, so that a forgotten wall never becomes a free
  cell silently; this is the one door for the other convention.
- :func:`read_image`: a level painted as an image (PNG, ...; needs Pillow), walls and
  terrain costs picked by a colour table or by a brightness threshold.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._common import StrPath

if TYPE_CHECKING:
    from pathcraft.grid import Diagonal, Grid, HeuristicName

__all__ = ["grid_from_zero_walls", "read_image"]


def grid_from_zero_walls(
    values: npt.ArrayLike,
    *,
    diagonal: Diagonal = "no_corner_cut",
    heuristic: HeuristicName | None = None,
) -> Grid:
    """A grid from an array where 0 (or less) is a wall and a positive value a cost.

    The convention of tcod (``tcod.path``) and python-pathfinding: ``[[1, 0], [1, 1]]``
    is a 2x2 level with one wall, and a cell holding 3 costs three times as much to
    enter. Both libraries index ``array[row, col]`` in this convention (tcod's
    ``order="C"``, the default of ``tcod.path``); pass ``array.T`` for ``[x, y]`` ones.

    Parameters
    ----------
    values : array_like of int or float, shape (rows, cols)
        ``<= 0``: a wall; ``> 0``: the cost of entering the cell. A boolean array is
        refused (use :meth:`pathcraft.Grid.from_walkable`), as are NaN and infinite
        values.
    diagonal, heuristic
        As for :class:`~pathcraft.Grid`.

    Raises
    ------
    TypeError
        A boolean or non-numeric array.
    ValueError
        Not 2-D, empty, NaN or infinite values (the message gives the cell).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.io import grid_from_zero_walls
    >>> grid = grid_from_zero_walls(np.array([[1, 0, 1], [1, 3, 1]]))
    >>> grid.cost.tolist()
    [[1.0, inf, 1.0], [1.0, 3.0, 1.0]]
    >>> grid.astar((0, 0), (0, 2)).cost     # around the wall, through the cell of cost 3
    6.0
    """
    from pathcraft.grid import Grid

    arr = np.asarray(values)
    if arr.dtype == np.bool_:
        raise TypeError(
            "values must be numbers (0: wall, > 0: cost); got a boolean array: use "
            "Grid.from_walkable for walkable masks"
        )
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"values must be an integer or float array; got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.size == 0:
        raise ValueError(
            f"values must be a non-empty 2-D array (rows, cols); got shape {arr.shape}"
        )
    cost = arr.astype(np.float64)
    bad = ~np.isfinite(cost)
    if bad.any():
        cell = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            "values must be finite (0 or less: wall, > 0: cost); got "
            f"{float(cost[cell])!r} at cell {cell}"
        )
    cost[cost <= 0] = np.inf
    return Grid(cost, diagonal=diagonal, heuristic=heuristic)


def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError(
            'reading level images needs Pillow: pip install "pathcraft[viz]"'
        ) from exc
    return Image


def _colour(key: Any) -> tuple[int, int, int]:
    if isinstance(key, str):
        text = key.lstrip("#")
        if len(text) != 6:
            raise ValueError(f"colours must be '#rrggbb' or (r, g, b); got {key!r}")
        try:
            return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
        except ValueError:
            raise ValueError(f"colours must be '#rrggbb' or (r, g, b); got {key!r}") from None
    try:
        r, g, b = (int(v) for v in key)
    except (TypeError, ValueError):
        raise ValueError(f"colours must be '#rrggbb' or (r, g, b); got {key!r}") from None
    if not all(0 <= v <= 255 for v in (r, g, b)):
        raise ValueError(f"colour components must be 0-255; got {key!r}")
    return r, g, b


def read_image(
    path: StrPath,
    *,
    colors: Mapping[Any, float] | None = None,
    threshold: float | None = None,
    dark_is_wall: bool = True,
    diagonal: Diagonal = "no_corner_cut",
    heuristic: HeuristicName | None = None,
) -> Grid:
    """A grid from a level painted as an image: one pixel per cell.

    Pixel ``(x, y)`` of the image becomes cell ``(row, col) = (y, x)``. Give either
    a colour table or a brightness threshold (the default: ``threshold=128``):

    - ``colors``: ``{colour: cost}``, a colour as ``"#rrggbb"`` or ``(r, g, b)``, a cost
      ``> 0`` or ``np.inf`` (a wall). Every pixel must have a colour of the table;
      transparency is ignored.
    - ``threshold``: brightness (``0.299 R + 0.587 G + 0.114 B``, 0-255) below it is a
      wall and the rest floor of cost 1 (``dark_is_wall=False``: the other way round).

    Parameters
    ----------
    path : str or os.PathLike
        The image file (any format Pillow reads: PNG, BMP, GIF, ...). Needs Pillow
        (``pip install "pathcraft[viz]"``).
    colors : mapping or None
        The colour table.
    threshold : float or None
        The brightness threshold, 0-255.
    dark_is_wall : bool
        With ``threshold``: whether the dark side is the wall.
    diagonal, heuristic
        As for :class:`~pathcraft.Grid`.

    Raises
    ------
    ValueError
        Both ``colors`` and ``threshold``; a colour or cost that is not one; a pixel
        whose colour is not in the table (the message names the file, the pixel and
        its colour, and lists the table); a file Pillow cannot read.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> from pathcraft.io import read_image
    >>> image = Image.new("RGB", (4, 2), "white")
    >>> image.putpixel((1, 0), (0, 0, 0)); image.putpixel((2, 1), (0, 128, 0))
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "level.png"
    >>> image.save(path)
    >>> read_image(path).cost.tolist()
    [[1.0, inf, 1.0, 1.0], [1.0, 1.0, inf, 1.0]]
    >>> read_image(path, colors={"#ffffff": 1, "#000000": float("inf"), "#008000": 4}).cost.tolist()
    [[1.0, inf, 1.0, 1.0], [1.0, 1.0, 4.0, 1.0]]
    >>> read_image(path, colors={"#ffffff": 1, "#000000": float("inf")})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../level.png: pixel (x=2, y=1) has colour #008000, which is not in colors ...
    """
    from pathcraft.grid import Grid

    if colors is not None and threshold is not None:
        raise ValueError("give colors or threshold, not both")
    where = os.fspath(path)
    image_mod = _pillow()
    try:
        with image_mod.open(path) as image:
            rgb = np.asarray(image.convert("RGB"), dtype=np.int64)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ValueError(f"{where}: not an image Pillow can read: {exc}") from exc
    if colors is None:
        limit = 128.0 if threshold is None else float(threshold)
        if not 0 <= limit <= 255:
            raise ValueError(f"threshold must be between 0 and 255; got {threshold!r}")
        bright = rgb @ np.array([0.299, 0.587, 0.114])
        wall = bright < limit if dark_is_wall else bright >= limit
        return Grid(np.where(wall, np.inf, 1.0), diagonal=diagonal, heuristic=heuristic)
    table = _table(colors)
    keys = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    known = np.array(sorted(table), dtype=np.int64)
    place = np.clip(np.searchsorted(known, keys), 0, known.size - 1)
    missing = known[place] != keys
    if missing.any():
        y, x = (int(v) for v in np.argwhere(missing)[0])
        listed = ", ".join(f"#{k:06x}" for k in table)
        raise ValueError(
            f"{where}: pixel (x={x}, y={y}) has colour #{int(keys[y, x]):06x}, which is not "
            f"in colors ({listed})"
        )
    costs = np.array([table[int(k)] for k in known])
    return Grid(costs[place], diagonal=diagonal, heuristic=heuristic)


def _table(colors: Mapping[Any, float]) -> dict[int, float]:
    if not isinstance(colors, Mapping) or not colors:
        raise TypeError(f"colors must be a non-empty mapping colour -> cost; got {colors!r}")
    table: dict[int, float] = {}
    for key, value in colors.items():
        r, g, b = _colour(key)
        try:
            cost = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"colors[{key!r}] must be a cost > 0 or inf; got {value!r}") from None
        if not cost > 0:
            raise ValueError(f"colors[{key!r}] must be a cost > 0 or inf; got {value!r}")
        table[(r << 16) | (g << 8) | b] = cost
    return table
