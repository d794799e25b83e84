"""arcade: a grid rasterised once from ``SpriteList``\\ s of walls, paths in arcade's pixels.

arcade ships ``AStarBarrierList`` (blocked cells found by moving a sprite over every
cell and testing collisions, in Python) and ``astar_calculate_path`` (a pure-Python
A*). :class:`BarrierGrid` is the same idea at the speed of pathcraft: the walls are
rasterised once, in NumPy, into a :class:`~pathcraft.Grid`, and every path is a
compiled search whose answer comes back in arcade's coordinates (y up, pixels).

Nothing here imports arcade: walls are any objects with ``left``, ``right``,
``bottom`` and ``top`` (arcade's ``Sprite`` and ``BasicSprite``), or with
``center_x``, ``center_y``, ``width`` and ``height``; a ``SpriteList`` is any iterable
of them.

**Cells.** Cell ``(row, col)`` is the square of side ``tile_size`` whose bottom-left
corner is ``(left + col * tile_size, top - (row + 1) * tile_size)``: row 0 is the top
row, as the level is seen (the convention of :class:`~pathcraft.coords.TileCoords`
with ``y_up=True``). A cell is blocked when a wall's box overlaps the box of the
moving sprite placed at the cell's centre (without a moving sprite: the cell itself),
strictly: touching edges do not block. That is the test ``AStarBarrierList`` makes
with ``check_for_collision_with_list``, on boxes.

Examples
--------
>>> from types import SimpleNamespace as Sprite
>>> from pathcraft.adapters.arcade import BarrierGrid
>>> wall = Sprite(left=64, right=96, bottom=0, top=96)      # a pillar 1 cell wide
>>> barriers = BarrierGrid([wall], tile_size=32, left=0, right=160, bottom=0, top=128)
>>> barriers.grid.shape
(4, 5)
>>> barriers.ascii().splitlines()
['.....', '..#..', '..#..', '..#..']
>>> path = barriers.find_path((16, 16), (144, 16))   # bottom-left to bottom-right
>>> path[:4], path[-1]                                 # up and over the pillar
([(16.0, 16.0), (48.0, 48.0), (48.0, 80.0), (48.0, 112.0)], (144.0, 16.0))
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.coords import TileCoords
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid import Diagonal, Grid

__all__ = ["BarrierGrid", "sprite_boxes"]


def _box(sprite: Any, name: str) -> tuple[float, float, float, float]:
    try:
        if hasattr(sprite, "left"):
            box = (sprite.left, sprite.right, sprite.bottom, sprite.top)
        else:
            hw, hh = sprite.width / 2, sprite.height / 2
            box = (sprite.center_x - hw, sprite.center_x + hw, sprite.center_y - hh,
                   sprite.center_y + hh)  # fmt: skip
        out = tuple(float(v) for v in box)
    except (AttributeError, TypeError, ValueError):
        raise TypeError(
            f"{name} must be a sprite: left/right/bottom/top or center_x/center_y/width/"
            f"height numbers; got {sprite!r}"
        ) from None
    if not all(math.isfinite(v) for v in out) or out[0] > out[1] or out[2] > out[3]:
        raise ValueError(f"{name} has a box that is not finite or not ordered: {out}")
    return out[0], out[1], out[2], out[3]


def _is_sprite(item: Any) -> bool:
    return hasattr(item, "left") or hasattr(item, "center_x")


def sprite_boxes(walls: Any) -> npt.NDArray[np.float64]:
    """The boxes ``(left, right, bottom, top)`` of a sprite list, or of several lists,
    as an ``(n, 4)`` array.

    >>> from types import SimpleNamespace as Sprite
    >>> from pathcraft.adapters.arcade import sprite_boxes
    >>> sprite_boxes([Sprite(center_x=10, center_y=20, width=4, height=2)]).tolist()
    [[8.0, 12.0, 19.0, 21.0]]
    """
    if _is_sprite(walls):
        raise TypeError("walls must be a SpriteList (or a list of them), not one sprite")
    try:
        items = list(walls)
    except TypeError:
        raise TypeError(
            f"walls must be a SpriteList or a list of SpriteLists; got {type(walls).__name__}"
        ) from None
    boxes: list[tuple[float, float, float, float]] = []
    for i, item in enumerate(items):
        if _is_sprite(item):
            boxes.append(_box(item, f"walls[{i}]"))
        else:
            try:
                inner = list(item)
            except TypeError:
                raise TypeError(
                    f"walls[{i}] must be a sprite or a SpriteList; got {type(item).__name__}"
                ) from None
            boxes.extend(_box(s, f"walls[{i}][{j}]") for j, s in enumerate(inner))
    return np.array(boxes, dtype=np.float64).reshape(-1, 4)


def _number(name: str, value: Any, *, positive: bool = False) -> float:
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number; got {value!r}")
    out = float(value)
    if not math.isfinite(out) or (positive and out <= 0):
        raise ValueError(f"{name} must be finite{' and > 0' if positive else ''}; got {value!r}")
    return out


def _index_range(
    low: npt.NDArray[np.float64], high: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The integers ``i`` with ``low < i + 0.5 < high`` (cell centres strictly inside)."""
    first = np.floor(low - 0.5).astype(np.int64) + 1
    last = np.ceil(high - 0.5).astype(np.int64) - 1
    return first, last


class BarrierGrid:
    """Walls rasterised once into a grid; paths between arcade positions (y up).

    Parameters
    ----------
    walls : SpriteList or list of SpriteLists
        The blocking sprites (see the module documentation for what counts).
    tile_size : float
        The side of a cell in pixels (arcade's ``grid_size``).
    left, right, bottom, top : float
        The playing field in arcade's pixels; cells cover it from ``(left, top)``,
        ``ceil((right - left) / tile_size)`` columns by ``ceil((top - bottom) /
        tile_size)`` rows.
    moving_sprite : sprite or None
        The sprite that will move: a cell is blocked when this sprite, centred on it,
        would overlap a wall. None: when the cell itself overlaps one.
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The grid's move rule (arcade's ``diagonal_movement=False`` is ``"never"``).

    Attributes
    ----------
    grid : Grid
        The rasterised level (walls are ``inf``, floor costs 1); change its costs as
        any grid's (``barriers.grid[r, c] = 5.0``).
    coords : TileCoords
        Cells to arcade pixels and back (``y_up=True``).
    """

    def __init__(
        self,
        walls: Any,
        *,
        tile_size: float,
        left: float,
        right: float,
        bottom: float,
        top: float,
        moving_sprite: Any = None,
        diagonal: Diagonal = "no_corner_cut",
    ) -> None:
        size = _number("tile_size", tile_size, positive=True)
        lo_x, hi_x = _number("left", left), _number("right", right)
        lo_y, hi_y = _number("bottom", bottom), _number("top", top)
        if hi_x <= lo_x or hi_y <= lo_y:
            raise ValueError(
                f"the field must have right > left and top > bottom; got left={left}, "
                f"right={right}, bottom={bottom}, top={top}"
            )
        cols = math.ceil((hi_x - lo_x) / size)
        rows = math.ceil((hi_y - lo_y) / size)
        if moving_sprite is None:
            half = (size / 2, size / 2)
        else:
            lo_x_, hi_x_, lo_y_, hi_y_ = _box(moving_sprite, "moving_sprite")
            half = ((hi_x_ - lo_x_) / 2, (hi_y_ - lo_y_) / 2)
        self.tile_size = size
        self.coords = TileCoords(size, origin=(lo_x, hi_y - rows * size), y_up=True,
                                 shape=(rows, cols))  # fmt: skip
        self._half = half
        self._diagonal: Diagonal = diagonal
        self.grid: Grid = self._rasterise(sprite_boxes(walls))

    def _rasterise(self, boxes: npt.NDArray[np.float64]) -> Grid:
        from pathcraft.grid import Grid

        rows, cols = self.coords.shape or (0, 0)
        ox, oy = self.coords.origin
        size = self.tile_size
        hx, hy = self._half
        # Column c's centre is ox + (c + 0.5) size; j counts rows from the bottom.
        c0, c1 = _index_range((boxes[:, 0] - hx - ox) / size, (boxes[:, 1] + hx - ox) / size)
        j0, j1 = _index_range((boxes[:, 2] - hy - oy) / size, (boxes[:, 3] + hy - oy) / size)
        c0, c1 = np.maximum(c0, 0), np.minimum(c1, cols - 1)
        j0, j1 = np.maximum(j0, 0), np.minimum(j1, rows - 1)
        keep = (c0 <= c1) & (j0 <= j1)
        c0, c1, j0, j1 = c0[keep], c1[keep], j0[keep], j1[keep]
        diff = np.zeros((rows + 1, cols + 1), dtype=np.int64)
        np.add.at(diff, (j0, c0), 1)
        np.add.at(diff, (j0, c1 + 1), -1)
        np.add.at(diff, (j1 + 1, c0), -1)
        np.add.at(diff, (j1 + 1, c1 + 1), 1)
        blocked_from_bottom = diff.cumsum(axis=0).cumsum(axis=1)[:rows, :cols] > 0
        blocked = blocked_from_bottom[::-1]  # row 0 is the top row
        return Grid(np.where(blocked, np.inf, 1.0), diagonal=self._diagonal)

    def recalculate(self, walls: Any) -> None:
        """Rasterise new walls (when they moved), keeping the field and tile size.

        Costs set on the old grid are dropped."""
        self.grid = self._rasterise(sprite_boxes(walls))

    def ascii(self) -> str:
        """The grid as text, top row first: ``#`` blocked, ``.`` free."""
        walkable = self.grid.walkable
        return "\n".join("".join("." if w else "#" for w in row) for row in walkable.tolist())

    def find_result(self, start: Any, end: Any, **options: Any) -> PathResult:
        """The search between two arcade positions as a :class:`~pathcraft.PathResult`
        whose ``path`` is an ``(n, 2)`` float array of cell centres in arcade pixels,
        and whose ``cost`` is in pixels too (``units="tiles"``: in cells).

        ``options`` are the grid's (``algorithm="jps"``, ``weight``, ...; see
        :meth:`pathcraft.coords.TileCoords.find_path`). Positions off the field or in
        a blocked cell raise ``ValueError``.
        """
        return self.coords.find_path(self.grid, start, end, **options)

    def find_path(self, start: Any, end: Any, **options: Any) -> list[tuple[float, float]] | None:
        """A path between two arcade positions, as ``arcade.astar_calculate_path``
        returns it: a list of ``(x, y)`` cell centres, or None when there is none.

        ``start`` and ``end`` may be tuples, ``Vec2`` or a sprite's ``position``; the
        path runs from the centre of the start's cell to the centre of the end's.
        """
        result = self.find_result(start, end, **options)
        if not result:
            return None
        return [(float(x), float(y)) for x, y in np.asarray(result.path).tolist()]

    def __repr__(self) -> str:
        rows, cols = self.grid.shape
        return (
            f"BarrierGrid({rows}x{cols} cells of {self.tile_size:g} px, "
            f"{int((~self.grid.walkable).sum())} blocked)"
        )
