"""Flow fields: the next cell toward the nearest goal for every cell of a grid, kept
up to date while the grid changes (the field :class:`~pathcraft.agents.Crowd`
steers by; also useful alone for many units sharing goals)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import flowrepair as _repair
from pathcraft._fields import grid_parents
from pathcraft.grid import Grid
from pathcraft.grid.kit import DIAGONAL_RULES, field, unit_cells, workspace

__all__ = ["FlowField"]


class FlowField:
    """The next cell toward the nearest goal, for every cell of a grid, kept up to
    date while the grid changes.

    Built from :meth:`Grid.distance_field` of the goals: each cell points at the
    neighbour (allowed by the grid's diagonal rule) that minimises the neighbour's
    distance plus the step, a step from cell ``x`` costing ``cost[x]`` times its
    length (1 straight, sqrt(2) diagonal). On grids of uniform cost (where distances
    are symmetric) following it is a shortest path to the nearest goal; on weighted
    grids the distance field prices a step by the cell it enters walking from the
    goal, which is the cell an agent *leaves* walking to it: following the field is
    the cheapest path when each step costs the cell left (the start's included, the
    goal's not), not the cell entered as :meth:`Grid.find_path` prices it.

    **A grid that changes.** The field follows its grid's edits by itself: reading
    :attr:`distance`, :attr:`next_cell` or :attr:`direction` first asks the grid what
    changed since the field last looked (``grid.changes_since``, a version check when
    nothing did) and repairs the field where the change can matter, in the compiled
    core (:meth:`update`): cells whose distance can only rise (a wall built, a cost
    raised) lose it with everything below them in the shortest-path tree and are
    settled again from the region's boundary; cells whose distance can fall (a wall
    removed, a cost lowered) are reached by one Dijkstra wave that stops where it
    improves nothing. The repaired field equals a fresh one up to the rounding of
    equal-cost paths summed in another order (1e-12 relative). A goal that becomes a
    wall (or no longer fits the unit) is no goal until it opens again; its cells are
    then ``inf`` unless another goal reaches them. The arrays are updated in place.

    Parameters
    ----------
    grid : Grid
    goals : (int, int) or array_like (k, 2)
        Goal cells, ``(row, col)``.
    size : int
        The side of the units' square, in cells (see :meth:`Grid.for_size
        <pathcraft.grid.Grid.for_size>`): the field is then that of their **top-left**
        cells, which never lead the unit over a wall (cells where it does not fit are
        ``inf`` and point at themselves). Goals must fit the unit.

    Attributes
    ----------
    size : int
        The unit size the field was built for.
    grid : Grid
        The grid the field follows.
    goals : ndarray of intp (k, 2)
        The goal cells, ``(row, col)``.
    last_repair : tuple of int or None
        What the last :meth:`update` that found edits did: ``(changed, dropped,
        expanded, pointed)`` cells (the grid's changed cells, the cells whose distance
        was dropped and settled again, the cells the repair's wave expanded, the cells
        whose next cell was recomputed); every cell after a full rebuild. None before.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import FlowField
    >>> grid = Grid.from_ascii('''
    ... ...
    ... .#.
    ... ...
    ... ''')
    >>> flow = FlowField(grid, (2, 2))
    >>> flow.next_cell[0, 0].tolist(), flow.next_cell[1, 2].tolist(), flow.direction[0, 2].tolist()
    ([1, 0], [2, 2], [0.0, 1.0])
    >>> grid[1, 0] = float("inf")                 # a wall: the field follows
    >>> flow.next_cell[0, 0].tolist(), float(flow.distance[0, 0])
    ([0, 1], 4.0)
    >>> big = FlowField(Grid.from_ascii('''
    ... ....
    ... ....
    ... ..#.
    ... '''), (0, 2), size=2)
    >>> big.next_cell[1, 0].tolist(), float(big.distance[1, 1])
    ([0, 0], inf)
    """

    __slots__ = (
        "_dir",
        "_dist",
        "_goal_mask",
        "_next",
        "_parent",
        "_version",
        "goals",
        "grid",
        "last_repair",
        "size",
    )  # fmt: skip

    def __init__(self, grid: Grid, goals: Any, *, size: int = 1) -> None:
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a pathcraft Grid; got {type(grid).__name__}")
        unit = grid.for_size(size)
        flat = unit_cells(grid, unit, "goals", goals, many=True)  # errors name the goals
        self.grid = grid
        self.size = unit.unit_size
        width = grid.shape[1] + 2
        self.goals = np.stack(np.divmod(np.unique(flat), width), axis=1).astype(np.intp) - 1
        self._goal_mask = np.zeros(grid.padded.size, dtype=np.uint8)
        self._goal_mask[flat] = 1
        rows, cols = grid.shape
        self._next = np.empty((rows, cols, 2), dtype=np.intp)
        self._dir = np.empty((rows, cols, 2))
        self._dist = np.full((rows + 2, cols + 2), np.inf)
        self._parent = np.full(self._dist.size, -1, dtype=np.int32)
        self.last_repair: tuple[int, int, int, int] | None = None
        self._version = grid.version
        self._rebuild(unit)

    def _rebuild(self, unit: Grid) -> None:
        """The whole field again, from the goals that are open now."""
        padded = unit.padded
        rows, cols = self.grid.shape
        width = cols + 2
        mask = self._goal_mask.astype(bool) & np.isfinite(padded.ravel())
        open_goals = np.flatnonzero(mask)
        self._dist.fill(np.inf)
        self._parent.fill(-1)
        if open_goals.size:
            dist = field(unit, open_goals, None)
            self._dist[1:-1, 1:-1] = dist
            tree = grid_parents(padded, dist, unit.diagonal)
            has = tree >= 0
            r, c = np.divmod(tree[has], cols)
            inner = np.flatnonzero(has)
            ir, ic = np.divmod(inner, cols)
            self._parent[(ir + 1) * width + ic + 1] = ((r + 1) * width + c + 1).astype(np.int32)
        everything = ((np.arange(rows)[:, None] + 1) * width + np.arange(cols) + 1).ravel()
        _repair.point(
            padded, self._dist, everything, self._next, self._dir,
            diagonal=DIAGONAL_RULES[unit.diagonal],
        )  # fmt: skip

    def update(self) -> int:
        """Take in the grid's edits since the field last looked; return how many cells
        changed (0, in a version check, when none did). Reading :attr:`distance`,
        :attr:`next_cell` or :attr:`direction` calls it first.

        A repair costs what the change reaches (see the class documentation); when
        more than an eighth of the cells changed, or the grid's log no longer reaches
        back to the field's version, the field is built again instead.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import FlowField
        >>> grid = Grid(np.ones((50, 50)), diagonal="never")
        >>> flow = FlowField(grid, (0, 0))
        >>> grid[40:, 45] = np.inf                   # a wall in a far corner
        >>> flow.update(), flow.update()
        (10, 0)
        >>> changed, dropped, expanded, pointed = flow.last_repair
        >>> bool(expanded < 200), float(flow.distance[49, 49])   # 98 before
        (True, 98.0)
        """
        grid = self.grid
        if grid.version == self._version:
            return 0
        cells = grid.changes_since(self._version)
        self._version = grid.version
        unit = grid.for_size(self.size)
        rows, cols = grid.shape
        k = self.size
        if k > 1:  # the anchors whose k x k square holds a changed cell
            dr, dc = np.divmod(np.arange(k * k), k)
            r = (cells[:, :1] - dr).ravel()
            c = (cells[:, 1:] - dc).ravel()
            keep = (r >= 0) & (c >= 0)
            anchors = np.unique((r[keep] + 1) * (cols + 2) + c[keep] + 1)
        else:
            anchors = (cells[:, 0] + 1) * (cols + 2) + cells[:, 1] + 1
        if anchors.size * 8 > rows * cols:
            self._rebuild(unit)
            self.last_repair = (len(cells), rows * cols, rows * cols, rows * cols)
            return len(cells)
        dropped, expanded, pointed = _repair.repair(
            unit.padded, workspace(unit.padded.size), self._dist, self._parent,
            self._goal_mask, anchors.astype(np.intp), self._next, self._dir,
            diagonal=DIAGONAL_RULES[unit.diagonal],
        )  # fmt: skip
        self.last_repair = (len(cells), int(dropped), int(expanded), int(pointed))
        return len(cells)

    @property
    def distance(self) -> npt.NDArray[np.float64]:
        """The distance field, ``(rows, cols)`` (inf: walls and cells no goal
        reaches); a read-only view, repaired in place after the grid's edits."""
        self.update()
        view = self._dist[1:-1, 1:-1]
        view.flags.writeable = False
        return view

    @property
    def next_cell(self) -> npt.NDArray[np.intp]:
        """The ``(row, col)`` to go to next, ``(rows, cols, 2)`` intp; a goal cell and
        an unreachable one point at themselves."""
        self.update()
        return self._next

    @property
    def direction(self) -> npt.NDArray[np.float64]:
        """The unit ``(x, y)`` direction to the next cell's centre, ``(rows, cols,
        2)``; 0 where it is itself."""
        self.update()
        return self._dir
