"""A grid's flow field, repaired in the compiled core as the grid changes: what a
grid's agents' space builds for :class:`~pathcraft.agents.FlowField` (its
``flow_field``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import flowrepair as _repair
from pathcraft._fields import grid_parents
from pathcraft._unique import sorted_unique
from pathcraft.grid._queries import field
from pathcraft.grid._run import DIAGONAL_RULES, workspace
from pathcraft.grid._sizes import unit_cells

__all__ = ["GridFlow"]


class GridFlow:
    """The next cell toward the nearest goal for every cell of a grid, repaired where
    its edits reach (see :class:`~pathcraft.agents.FlowField`, which documents it)."""


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

    def __init__(self, grid: Any, goals: Any, *, size: int = 1) -> None:
        unit = grid.for_size(size)
        flat = unit_cells(grid, unit, "goals", goals, many=True)  # errors name the goals
        self.grid = grid
        self.size = unit.unit_size
        width = grid.shape[1] + 2
        self.goals = np.stack(np.divmod(sorted_unique(flat), width), axis=1).astype(np.intp) - 1
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

    def _rebuild(self, unit: Any) -> None:
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
        """Take in the grid's edits since the field last looked (see
        :meth:`pathcraft.agents.FlowField.update`)."""
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
            anchors = sorted_unique((r[keep] + 1) * (cols + 2) + c[keep] + 1)
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
