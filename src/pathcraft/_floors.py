"""Floors: where an agent at a continuous ``(x, y)`` point may stand, and how it moves
without leaving that place (the :class:`pathcraft.agents.spaces.Floor` protocol).

A world's agents' space gives its floor (``space.floor()``), or is one itself (a
space with ``walkable`` and ``slide``, as a navigation mesh's): the
:class:`~pathcraft.agents.PathFollower` moves on it. Three floors are written here,
once:

- :class:`SquareFloor`: the walkable square cells of a ``(rows, cols)`` mask (a
  grid's): cell ``(row, col)`` covers ``col <= x < col + 1``, ``row <= y < row + 1``; a
  move into a wall stops at its face and slides along it, one axis at a time.
- :class:`CentreFloor`: cells as the regions nearest to their centres (a hexagonal
  grid's hexes); a move into a wall stops at the boundary (found by bisection) and
  slides along it.
- :class:`FreeSpace`: every point walkable, every move taken as it is (a graph's or
  waypoint graph's edges, a move grid's jumps: the path itself is the legal motion).

A floor with a ``version`` (the world's) tells its agents when the world changed; one
with ``cell_at`` names the node under a point, so agents whose way is cut are given a
new path from there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "CentreFloor", "FreeSpace", "SquareFloor", "slide", "slide_by", "walkable_at",
    "walls_near_floor",
]  # fmt: skip

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

def walkable_at(
    walkable: npt.NDArray[np.bool_], points: npt.NDArray[np.float64]
) -> npt.NDArray[np.bool_]:
    """Which ``(x, y)`` points lie in True cells of a ``(rows, cols)`` mask."""
    rows, cols = walkable.shape
    col = np.floor(points[..., 0])
    row = np.floor(points[..., 1])
    inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
    out = np.zeros(points.shape[:-1], dtype=bool)
    r = row[inside].astype(np.intp)
    c = col[inside].astype(np.intp)
    out[inside] = walkable[r, c]
    return out


def walls_near_floor(walkable: Mask) -> Mask:
    """The wall cells of a ``(rows, cols)`` mask with a walkable cell among their eight
    neighbours (the walls a crowd can touch).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft._floors import walls_near_floor
    >>> walls_near_floor(np.array([[True, False, False]])).tolist()
    [[False, True, False]]
    """
    rows, cols = walkable.shape
    pad = np.zeros((rows + 2, cols + 2), dtype=bool)
    pad[1:-1, 1:-1] = walkable
    near = np.zeros_like(walkable)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            near |= pad[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc]
    out: Mask = ~walkable & near
    return out


_SUBSTEP = 0.45  # at most this far per axis per sub-step: never skip a cell
_EDGE = 1e-7  # how close to a wall's face a blocked point stops


def slide(positions: Array, delta: Array, walkable: Mask) -> tuple[Array, Mask]:
    """Move ``(x, y)`` points by ``delta``, one axis at a time, stopping at walls of
    the square cells of ``walkable`` (a ``(rows, cols)`` mask).

    A point moves along x, then along y, in sub-steps of at most 0.45 cells; a move
    that would enter a wall cell (or leave the map) stops at that wall's face, and the
    other axis still moves: the point slides along the wall. Moving one axis at a time
    never passes diagonally between two walls that touch at a corner. Returns the new
    positions and which axes were blocked, both ``(n, 2)``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft._floors import slide
    >>> moved, blocked = slide(np.array([[0.5, 0.5]]), np.array([[2.0, 0.2]]),
    ...                        np.array([[True, False]]))
    >>> moved.round(3).tolist(), blocked.tolist()
    ([[1.0, 0.7]], [[True, False]])
    """
    return slide_by(
        lambda points: walkable_at(walkable, points), positions, delta, substep=_SUBSTEP,
        face=_square_face,
    )  # fmt: skip


def _square_face(at: Array, move: Array) -> Array:
    """Where points at ``at`` (one axis) moving by ``move`` into the next square cell
    stop: a hair before that cell's face."""
    cell = np.floor(at)
    out: Array = np.where(move > 0, cell + 1.0 - _EDGE, cell + _EDGE)
    return out


def slide_by(
    walkable: Callable[[Array], Mask],
    positions: Array,
    delta: Array,
    *,
    substep: float = 0.2,
    face: Callable[[Array, Array], Array] | None = None,
) -> tuple[Array, Mask]:
    """:func:`slide` for any walkable test of points (``walkable(points)``): one axis
    at a time in sub-steps of at most ``substep``; a blocked sub-step goes as far as
    the test allows (bisection, to about 1e-6 of the boundary), or to
    ``face(coordinates, moves)`` when given (where a blocked point stops on that axis).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft._floors import slide_by
    >>> inside = lambda p: np.hypot(p[:, 0], p[:, 1]) < 1.0      # the unit disc
    >>> moved, blocked = slide_by(inside, np.zeros((1, 2)), np.array([[3.0, 0.0]]))
    >>> round(float(moved[0, 0]), 4), blocked.tolist()
    (1.0, [[True, False]])
    """
    pos = positions.copy()
    blocked = np.zeros(pos.shape, dtype=bool)
    largest = float(np.abs(delta).max()) if delta.size else 0.0
    steps = max(1, math.ceil(largest / substep))
    part = delta / steps
    for _ in range(steps):
        for axis in (0, 1):
            move = part[:, axis]
            trial = pos.copy()
            trial[:, axis] += move
            ok = walkable(trial)
            pos[ok, axis] = trial[ok, axis]
            stop = np.flatnonzero(~ok & (move != 0.0))
            if stop.size and face is not None:
                pos[stop, axis] = face(pos[stop, axis], move[stop])
                blocked[stop, axis] = True
            elif stop.size:
                lo, hi = np.zeros(stop.size), np.ones(stop.size)  # fractions of the move
                for _ in range(20):
                    mid = (lo + hi) / 2
                    probe = pos[stop].copy()
                    probe[:, axis] += mid * move[stop]
                    fine = walkable(probe)
                    lo = np.where(fine, mid, lo)
                    hi = np.where(fine, hi, mid)
                pos[stop, axis] += lo * move[stop]
                blocked[stop, axis] = True
    return pos, blocked


class SquareFloor:
    """The walkable square cells of a world, read live: ``mask()`` gives the
    ``(rows, cols)`` walkable mask, ``version()`` the world's version (the mask is
    read again only when it grows). Nodes are ``(row, col)`` cells.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> floor = Grid.from_ascii(".#").agent_space().floor()
    >>> floor.walkable(np.array([(0.5, 0.5), (1.5, 0.5)])).tolist(), floor.cell_at((0.2, 0.9))
    ([True, False], (0, 0))
    """

    __slots__ = ("_mask", "_seen", "_version", "_walk")

    def __init__(self, mask: Callable[[], Mask], version: Callable[[], int]) -> None:
        self._mask = mask
        self._version = version
        self._seen = -1
        self._walk: Mask = np.zeros((0, 0), dtype=bool)

    @property
    def version(self) -> int:
        """The world's version."""
        return self._version()

    def mask(self) -> Mask:
        """The walkable mask, ``(rows, cols)``, as of the world's current version."""
        now = self._version()
        if now != self._seen:
            self._walk, self._seen = self._mask(), now
        return self._walk

    def walkable(self, points: Array) -> Mask:
        """Which ``(x, y)`` points lie in walkable cells."""
        return walkable_at(self.mask(), points)

    def slide(self, points: Array, delta: Array) -> tuple[Array, Mask]:
        """Move ``points`` by ``delta`` without entering a wall (:func:`slide`)."""
        return slide(points, delta, self.mask())

    def cell_at(self, point: Any) -> Hashable:
        """The ``(row, col)`` cell under ``point`` (it may lie off the map)."""
        return math.floor(point[1]), math.floor(point[0])


class CentreFloor:
    """Cells as the regions of the plane nearest to their centres: a point stands in
    the cell whose centre is nearest (``nearest(points)`` gives its ``(row, col)``,
    ``-1`` off the map), and is walkable there when that cell is (``mask()``).
    ``centres(cells)`` gives the cells' centres, ``outline`` the corners of a cell's
    region around its centre (for the obstacles a crowd avoids; None: none).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid import HexGrid
    >>> hexes = HexGrid(np.array([[1.0, np.inf], [1.0, 1.0]]), "odd-r")
    >>> floor = hexes.agent_space().floor()
    >>> floor.walkable(np.array([(0.5, 0.5), (1.5, 0.5), (1.0, 1.5)])).tolist()
    [True, False, True]
    """

    __slots__ = ("_centres", "_floor", "_nearest", "_outline")

    def __init__(
        self,
        mask: Callable[[], Mask],
        version: Callable[[], int],
        nearest: Callable[[Array], npt.NDArray[np.intp]],
        centres: Callable[[npt.NDArray[np.intp]], Array],
        outline: Callable[[npt.NDArray[np.intp]], Array],
    ) -> None:
        self._floor = SquareFloor(mask, version)
        self._nearest = nearest
        self._centres = centres
        self._outline = outline

    def cells_at(self, points: Array) -> npt.NDArray[np.intp]:
        """The ``(row, col)`` cells under ``(n, 2)`` points (``-1`` rows off the map)."""
        return self._nearest(np.asarray(points, dtype=np.float64).reshape(-1, 2))

    def centres(self, cells: npt.NDArray[np.intp]) -> Array:
        """The ``(x, y)`` centres of ``(n, 2)`` cells."""
        return self._centres(np.asarray(cells, dtype=np.intp).reshape(-1, 2))

    def obstacles(self) -> list[list[tuple[float, float]]]:
        """The wall cells next to walkable ones as counter-clockwise polygons in
        ``(x, y)`` (what ORCA steers around; the slide keeps agents on the map).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> floor = HexGrid(np.array([[1.0, np.inf]]), "odd-r").agent_space().floor()
        >>> [len(p) for p in floor.obstacles()]
        [6]
        """
        cells = np.argwhere(walls_near_floor(self._floor.mask())).astype(np.intp)
        corners = self._outline(cells)  # (n, k, 2)
        return [[(float(x), float(y)) for x, y in poly] for poly in corners.tolist()]

    @property
    def version(self) -> int:
        """The world's version."""
        return self._floor.version

    def walkable(self, points: Array) -> Mask:
        """Which ``(x, y)`` points lie in walkable cells."""
        cells = self._nearest(np.asarray(points, dtype=np.float64).reshape(-1, 2))
        out = np.zeros(len(cells), dtype=bool)
        inside = cells[:, 0] >= 0
        out[inside] = self._floor.mask()[cells[inside, 0], cells[inside, 1]]
        return out.reshape(np.shape(points)[:-1])

    def slide(self, points: Array, delta: Array) -> tuple[Array, Mask]:
        """Move ``points`` by ``delta`` without entering a wall (:func:`slide_by`)."""
        return slide_by(self.walkable, points, delta)

    def cell_at(self, point: Any) -> Hashable:
        """The cell whose centre is nearest ``point``, ``(row, col)``."""
        r, c = self._nearest(np.array([point], dtype=np.float64))[0].tolist()
        return int(r), int(c)


class FreeSpace:
    """A floor everywhere: every point walkable, every move taken as it is.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft._floors import FreeSpace
    >>> moved, blocked = FreeSpace().slide(np.zeros((1, 2)), np.array([[3.0, 4.0]]))
    >>> moved.tolist(), blocked.tolist(), FreeSpace().walkable(moved).tolist()
    ([[3.0, 4.0]], [[False, False]], [True])
    """

    __slots__ = ()

    def walkable(self, points: Array) -> Mask:
        """All True."""
        return np.ones(np.shape(points)[:-1], dtype=bool)

    def slide(self, points: Array, delta: Array) -> tuple[Array, Mask]:
        """``points + delta``, nothing blocked."""
        return points + delta, np.zeros(np.shape(points), dtype=bool)
