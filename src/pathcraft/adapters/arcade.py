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

**Nodes, as arcade has them.** arcade's A* (``arcade/paths.py``: ``AStarBarrierList``
and ``astar_calculate_path``) searches the points ``(cx * grid_size, cy * grid_size)``
for every whole ``cx`` from ``left // grid_size`` to ``right // grid_size`` and ``cy``
from ``bottom // grid_size`` to ``top // grid_size``, both ends included: the corners
of the tiles, not their centres. A position goes to the point at or below-left of it
(``x // grid_size``, ``y // grid_size``, rounded down), and the path comes back as those
points, ``int(cx * grid_size)``. :class:`BarrierGrid` keeps exactly that: cell
``(row, col)`` of :attr:`~BarrierGrid.grid` is the point ``((left // tile_size + col) *
tile_size, (top // tile_size - row) * tile_size)`` (row 0 at the top, as the level is
seen; :attr:`~BarrierGrid.coords` has those points as cell centres, ``y_up=True``), and
:meth:`~BarrierGrid.find_path` returns the list of integer points arcade's call returns
for the same start and end. A point is blocked when a wall's box overlaps the box of
the moving sprite centred on it (without a moving sprite: a box of the tile's size),
strictly: touching edges do not block. That is the test ``AStarBarrierList.recalculate``
makes with ``check_for_collision_with_list``, on boxes.

What stays different: arcade's A* gives up after 500 expansions (None on a larger
field) and prices a diagonal step 1.42 where pathcraft's is ``sqrt(2)``; among paths of
equal cost the two may pick different ones; for a tile size that is not a whole number
of pixels (arcade's ``grid_size`` is an int) arcade's ``int()`` of each node's pixel
position in its collision test is not copied. ``diagonal="always"`` (the default) is
arcade's ``diagonal_movement=True`` (diagonal steps between two walls included),
``"never"`` its ``False``.

Examples
--------
>>> from types import SimpleNamespace as Sprite
>>> from pathcraft.adapters.arcade import BarrierGrid
>>> wall = Sprite(left=64, right=96, bottom=0, top=96)      # a pillar 1 cell wide
>>> barriers = BarrierGrid([wall], tile_size=32, left=0, right=160, bottom=0, top=128)
>>> barriers.grid.shape                               # the points 0, 32, ..., 160 by 0, ..., 128
(5, 6)
>>> barriers.ascii().splitlines()        # points whose tile-sized box overlaps the pillar
['......', '..##..', '..##..', '..##..', '..##..']
>>> path = barriers.find_path((16, 70), (150, 70))   # left of the pillar to its right
>>> path[0], path[-1]                                 # from (0, 64) to (128, 64), as arcade
((0, 64), (128, 64))
>>> len(path)                                         # over the pillar's top: 6 points
6
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.coords import TileCoords, _points
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
        The spacing of the nodes in pixels (arcade's ``grid_size``).
    left, right, bottom, top : float
        The playing field in arcade's pixels: the nodes are the multiples of
        ``tile_size`` from ``left // tile_size`` to ``right // tile_size`` (columns)
        and from ``top // tile_size`` down to ``bottom // tile_size`` (rows), ends
        included, as in ``AStarBarrierList``.
    moving_sprite : sprite or None
        The sprite that will move: a node is blocked when this sprite, centred on it,
        would overlap a wall. None: when a box of the tile's size centred on it would.
    diagonal : {"always", "never", "no_corner_cut", "one_free"}
        The grid's move rule: ``"always"`` is arcade's ``diagonal_movement=True`` (its
        default), ``"never"`` its ``False``; the others keep corners uncut.

    Attributes
    ----------
    grid : Grid
        The rasterised nodes (blocked ones are ``inf``, the others cost 1), a cell
        per node; change its costs as any grid's (``barriers.grid[r, c] = 5.0``).
    coords : TileCoords
        Cells to arcade pixels and back (``y_up=True``): a cell's centre is its node.
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
        diagonal: Diagonal = "always",
    ) -> None:
        size = _number("tile_size", tile_size, positive=True)
        lo_x, hi_x = _number("left", left), _number("right", right)
        lo_y, hi_y = _number("bottom", bottom), _number("top", top)
        if hi_x <= lo_x or hi_y <= lo_y:
            raise ValueError(
                f"the field must have right > left and top > bottom; got left={left}, "
                f"right={right}, bottom={bottom}, top={top}"
            )
        # arcade's nodes: every whole multiple of the tile from left // size to
        # right // size (and bottom to top), both ends included.
        self._first = (int(lo_x // size), int(hi_y // size))  # arcade's own rounding
        cols = int(hi_x // size) - self._first[0] + 1
        rows = self._first[1] - int(lo_y // size) + 1
        if moving_sprite is None:
            half = (size / 2, size / 2)
        else:
            lo_x_, hi_x_, lo_y_, hi_y_ = _box(moving_sprite, "moving_sprite")
            half = ((hi_x_ - lo_x_) / 2, (hi_y_ - lo_y_) / 2)
        self.tile_size = size
        # Cells centred on the nodes: cell (row, col) is the node (first_x + col,
        # first_y - row) times the tile.
        origin = ((self._first[0] - 0.5) * size, (self._first[1] - rows + 0.5) * size)
        self.coords = TileCoords(size, origin=origin, y_up=True, shape=(rows, cols))
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
        """The nodes as text, top row first: ``#`` blocked, ``.`` free."""
        walkable = self.grid.walkable
        return "\n".join("".join("." if w else "#" for w in row) for row in walkable.tolist())

    def node(self, position: Any) -> tuple[int, int]:
        """The node (a ``(row, col)`` cell of :attr:`grid`) that arcade's search takes
        for a position ``(x, y)`` in pixels: the one at or below-left of it (arcade's
        ``x // grid_size``, ``y // grid_size``).

        Raises ``ValueError`` for a position whose node is off the field.

        >>> from pathcraft.adapters.arcade import BarrierGrid
        >>> BarrierGrid([], tile_size=32, left=0, right=96, bottom=0, top=96).node((40, 90))
        (1, 1)
        """
        try:  # tuples, Vec2, positions: two numbers
            x, y = (float(v) for v in position)
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError
        except (TypeError, ValueError):  # the project's message for what is wrong
            arr, one = _points("position", position, integer=False)
            if not one:
                shape = np.shape(position)
                raise ValueError(f"position must be one (x, y) pair; got shape {shape}") from None
            x, y = (float(v) for v in arr[0])
        size = self.tile_size
        row = self._first[1] - int(y // size)
        col = int(x // size) - self._first[0]
        rows, cols = self.grid.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(
                f"position {(x, y)} goes to the node {(row, col)}, outside the field of "
                f"{rows}x{cols} nodes"
            )
        return row, col

    def _nodes(self, start: Any, end: Any) -> tuple[tuple[int, int], tuple[int, int]]:
        ends = []
        for name, position in (("start", start), ("end", end)):
            try:
                ends.append(self.node(position))
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{name}: {exc}{self._swap_hint(name, position)}") from None
        return ends[0], ends[1]

    def _swap_hint(self, name: str, position: Any) -> str:
        """For a position off the field: where its swapped ``(y, x)`` goes, when that
        is a free node (a ``(row, col)`` or ``(y, x)`` pair passed as pixels)."""
        try:
            x, y = (float(v) for v in position)
            r, c = self.node((y, x))
        except (TypeError, ValueError):
            return ""
        if not self.grid.walkable[r, c]:
            return ""
        return (
            f"; positions are pixels (x, y): {name} ({y:g}, {x:g}), swapped, goes to the "
            f"free node {(r, c)}: did you mean it?"
        )

    def find_result(self, start: Any, end: Any, **options: Any) -> PathResult:
        """The search between two arcade positions as a :class:`~pathcraft.PathResult`
        whose ``path`` is an ``(n, 2)`` float array of nodes in arcade pixels (each
        position goes to the node at or below-left of it, as in arcade), and whose
        ``cost`` is in pixels (``units="tiles"``: in steps, a diagonal ``sqrt(2)``).

        ``options`` are the grid's (``algorithm="jps"``, ``weight``, ...; see
        :meth:`pathcraft.coords.TileCoords.find_path`). Positions off the field or on
        a blocked node raise ``ValueError``.
        """
        ends = [self._pixel(cell) for cell in self._nodes(start, end)]
        return self.coords.find_path(self.grid, *ends, **options)

    def _pixel(self, cell: tuple[int, int]) -> tuple[float, float]:
        """A node's position in pixels (the centre of its cell)."""
        (fx, fy), size = self._first, self.tile_size
        return (fx + cell[1]) * size, (fy - cell[0]) * size

    def find_path(self, start: Any, end: Any, **options: Any) -> list[tuple[int, int]] | None:
        """A path between two arcade positions, as ``arcade.astar_calculate_path``
        returns it: the list of integer nodes ``(x, y)`` from the start's node to the
        end's, or None when there is none.

        ``start`` and ``end`` may be tuples, ``Vec2`` or a sprite's ``position``. As in
        arcade, a start on a blocked node leaves it and an end on one gives None (the
        start's node alone when both are the same node); a position whose node is off
        the field raises ``ValueError``. ``options`` are the grid's search options
        (``algorithm="jps"``, ``weight``, ...; see :meth:`pathcraft.Grid.find_path`).
        """
        s, e = self._nodes(start, end)
        (fx, fy), size = self._first, self.tile_size
        walkable = self.grid.walkable
        if s == e:  # arcade's search stops at once, blocked or not
            x, y = self._pixel(s)
            return [(int(x), int(y))]
        if not walkable[e]:
            return None
        grid = self.grid
        if not walkable[s]:  # arcade never tests the start: open that one node
            cost = grid.cost.copy()
            cost[s] = 1.0
            grid = type(grid)(cost, diagonal=self._diagonal)
        result = grid.find_path(s, e, **options)
        if not result:
            return None
        cells = np.asarray(result.path).tolist()
        return [(int((fx + c) * size), int((fy - r) * size)) for r, c in cells]

    def __repr__(self) -> str:
        rows, cols = self.grid.shape
        return (
            f"BarrierGrid({rows}x{cols} cells of {self.tile_size:g} px, "
            f"{int((~self.grid.walkable).sum())} blocked)"
        )
