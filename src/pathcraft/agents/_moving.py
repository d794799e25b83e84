"""Many chasers of one moving target: a flow field that follows the target.

Why not a :class:`~pathcraft.agents.FlowField` rebuilt at every move: its build is a
whole-map Dijkstra plus a next cell for every cell (about 50 ms on a 512x512 Moving
AI map and 470 ms on a 1024x1024 one, measured in ``bench/game_loop.py``), and its
incremental repair cannot help: moving the only goal drops every cell's way to it, so
the repair settles the whole map again. :class:`ChaseField` splits the work in two:

- **near the target** (path cost at most ``radius``) the distances are exact and
  fresh: recomputed whenever the target changes cell, on a window of the grid just
  big enough to hold every path of cost ``radius`` (``ceil(radius / min_cost)``
  cells each way), so a move costs what the radius covers, not the map;
- **farther away** agents follow the distance field from an *anchor*, a cell where
  the target was; it is computed again when the target has walked more than
  ``radius / 2`` from it, on a worker thread by default (the compiled field releases
  the GIL), so no frame pays for it. Following it, an agent reaches the near region
  (the anchor lies inside it) and from there the exact field leads it to the target.

Next cells are computed only for the cells asked about (the agents' cells), by the
compiled pointing of :mod:`pathcraft._core.flowrepair`, with the same rule and tie
order as :class:`~pathcraft.agents.FlowField`.
"""

from __future__ import annotations

import math
import threading
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from pathcraft._core import flowrepair as _repair
from pathcraft._options import check_flag
from pathcraft._validation import check_limit
from pathcraft.grid import Diagonal, Grid
from pathcraft.grid.kit import DIAGONAL_RULES, unit_cells

__all__ = ["ChaseField"]

Array = npt.NDArray[Any]


class _Build:
    """One far field being computed (on a worker thread, or at once)."""

    __slots__ = ("anchor", "error", "padded", "thread", "version")

    def __init__(self, grid: Grid, anchor: tuple[int, int], background: bool) -> None:
        self.anchor = anchor
        self.version = grid.version
        self.padded: Array | None = None
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        if background:
            self.thread = threading.Thread(target=self._run, args=(grid,), daemon=True)
            self.thread.start()
        else:
            self._run(grid)

    def _run(self, grid: Grid) -> None:
        try:
            dist = grid.distance_field(self.anchor)
            padded = np.full((dist.shape[0] + 2, dist.shape[1] + 2), np.inf)
            padded[1:-1, 1:-1] = dist
            self.padded = padded
        except BaseException as exc:  # raised again on the main thread
            self.error = exc

    def done(self) -> bool:
        return self.thread is None or not self.thread.is_alive()

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()


class ChaseField:
    """The next cell toward one moving target, for the cells of many chasers on a
    grid: exact near the target, an anchor's field farther away (see the module).

    Parameters
    ----------
    grid : Grid
        The world; its edits are followed (the near field is recomputed, the far
        field computed again, meanwhile cells that became walls are closed in it).
    target : (int, int)
        The target's cell, ``(row, col)``, walkable.
    radius : float
        Path cost from the target within which next cells are exact for the
        current target, > 0 (default 32: a 65 x 65 window on a grid of unit costs).
        A move costs a bounded Dijkstra over about ``(2 * radius / min_cost)**2``
        cells; agents farther away head for the anchor.
    background : bool
        Default True: compute the far field on a worker thread (the caller's frames
        pay only for starting it and adopting it); False: at once, in
        :meth:`move_target` (a whole-map Dijkstra in that frame). The first far
        field is computed in the constructor either way.
    snap : bool
        Default False: a target on a wall or off the grid is a ``ValueError``; True:
        it is moved to the nearest walkable cell (a player's physics position that
        strayed into a wall keeps being chased); :meth:`move_target` can override it.

    Attributes
    ----------
    grid : Grid
    radius : float
    rebuilds : int
        Far fields adopted so far (the constructor's first one included).
    anchor : (int, int)
        The cell the far field leads to (where the target was when it was started).
    background, snap : bool
        As given.

    Notes
    -----
    Agents are led to the target as long as it walks less than ``radius / 2`` while
    one far field is computed (the anchor then stays inside the near region); a
    faster target can leave far agents waiting at the old anchor (their next cell is
    their own) until the next far field lands. Distances use the grid's convention
    (:meth:`Grid.distance_field <pathcraft.grid.Grid.distance_field>` from the
    target: a step pays for the cell it enters walking from the target), as
    :class:`~pathcraft.agents.FlowField` does; on grids of uniform cost they are the
    agents' shortest paths. A far field computed while the grid was edited is
    dropped and computed again.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import ChaseField
    >>> grid = Grid(np.ones((40, 40)), diagonal="never")
    >>> chase = ChaseField(grid, (20, 20), radius=6, background=False)
    >>> chase.next_cells([(20, 24), (0, 0)]).tolist()   # near: exact; far: to the anchor
    [[20, 23], [1, 0]]
    >>> chase.move_target((20, 21))                      # a move costs a 13 x 13 window
    >>> chase.next_cells([(20, 24)]).tolist(), chase.anchor
    ([[20, 23]], (20, 20))
    >>> for col in range(22, 30):
    ...     chase.move_target((20, col))
    >>> chase.anchor, chase.rebuilds       # more than 3 from the anchor at 24, then 28
    ((20, 28), 3)
    """

    __slots__ = (
        "_build", "_diag", "_far", "_far_dir", "_far_next", "_near", "_origin",
        "_space", "_target", "_version", "_window", "anchor", "background", "grid",
        "radius", "rebuilds", "snap",
    )  # fmt: skip

    def __init__(
        self,
        grid: Grid,
        target: Any,
        *,
        radius: float = 32.0,
        background: bool = True,
        snap: bool = False,
    ) -> None:
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a pathcraft Grid; got {type(grid).__name__}")
        value = check_limit("radius", radius, integer=False)
        if value is None or not 0 < value < math.inf:
            raise ValueError(f"radius must be a finite number > 0; got {radius!r}")
        self.grid = grid
        self.radius = float(value)
        self.background = check_flag("background", background)
        self.snap = check_flag("snap", snap)
        self._space = grid.agent_space()
        self._diag = DIAGONAL_RULES[grid.diagonal]
        self._target = self._cell(target, "target", self.snap)
        self.anchor = self._target
        self.rebuilds = 0
        rows, cols = grid.shape
        # Untouched pages cost no memory: only the agents' cells are ever written.
        self._far_next = np.empty((rows, cols, 2), dtype=np.intp)
        self._far_dir = np.empty((rows, cols, 2))
        self._build: _Build | None = _Build(grid, self._target, background=False)
        self._far: Array = np.empty(0)
        self._adopt()
        self._near: Array = np.empty(0)
        self._origin = (0, 0)
        self._window: Grid = grid
        self._version = grid.version
        self._near_field()

    # ------------------------------------------------------------------ state

    @property
    def target(self) -> tuple[int, int]:
        """The target's cell, ``(row, col)``."""
        return self._target

    @property
    def rebuilding(self) -> bool:
        """A far field is being computed on the worker thread."""
        return self._build is not None and not self._build.done()

    def wait(self) -> None:
        """Block until a far field being computed lands, and adopt it (for tests and
        loading screens; a game loop never needs to).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import ChaseField
        >>> chase = ChaseField(Grid(np.ones((30, 30))), (0, 0), radius=4)
        >>> chase.move_target((0, 3))          # 3 > radius / 2: a far field from (0, 3)
        >>> chase.wait()
        >>> chase.rebuilding, chase.anchor, chase.rebuilds
        (False, (0, 3), 2)
        """
        if self._build is not None:
            self._build.wait()
            self._poll()

    # ------------------------------------------------------------------ moving

    def move_target(self, target: Any, *, snap: bool | None = None) -> None:
        """The target is at ``target`` now: recompute the near field if it changed
        cell (or the grid changed), and start a far field from it once it is more
        than ``radius / 2`` from the anchor.

        Parameters
        ----------
        target : (int, int)
            The target's cell, ``(row, col)``, walkable (with ``snap``, any cell).
        snap : bool or None
            Move a target on a wall or off the grid to the nearest walkable cell
            (:meth:`Grid.nearest_walkable <pathcraft.grid.Grid.nearest_walkable>`)
            instead of raising; None: the constructor's ``snap``.

        Raises
        ------
        ValueError
            ``target`` off the grid or on a wall, without ``snap``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import ChaseField
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .##..
        ... .....
        ... ''')
        >>> chase = ChaseField(grid, (0, 0), radius=3, background=False)
        >>> chase.move_target((1, 1), snap=True)   # a physics position in a wall
        >>> chase.target
        (0, 1)
        """
        cell = self._cell(target, "target", self.snap if snap is None else snap)
        self._poll()
        if cell != self._target or self.grid.version != self._version:
            self._target = cell
            self._refresh()

    def _refresh(self) -> None:
        """The near field for the target now, the grid's edits taken in, and a far
        field started when due."""
        edited = self.grid.version != self._version
        if edited:
            self._edited()
        self._near_field()
        if self._build is None and (edited or self._anchor_cost() > self.radius / 2):
            self._start()

    def next_cells(self, cells: Any) -> npt.NDArray[np.intp]:
        """The cell each agent should step to: toward the target within ``radius`` of
        it, else toward the anchor; a cell at the target, or that reaches neither, is
        its own next cell.

        Parameters
        ----------
        cells : array_like of int, shape (n, 2)
            The agents' cells, ``(row, col)``, walkable (one pair is one agent).

        Returns
        -------
        ndarray of intp, shape (n, 2)
            Their next cells, ``(row, col)``: one legal move each (the grid's diagonal
            rule), on a cheapest way to the target within ``radius``.

        Raises
        ------
        ValueError
            A cell off the grid or on a wall.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import ChaseField
        >>> chase = ChaseField(Grid.from_ascii("......"), (0, 5), background=False)
        >>> chase.next_cells([(0, 0), (0, 4), (0, 5)]).tolist()
        [[0, 1], [0, 5], [0, 5]]
        """
        self._poll()
        if self.grid.version != self._version:
            self._refresh()
        if np.shape(cells) == (0, 2):
            return np.empty((0, 2), dtype=np.intp)
        flat = unit_cells(self.grid, self.grid, "cells", cells, many=True)
        width = self.grid.shape[1] + 2
        rc = np.stack(np.divmod(flat, width), axis=1) - 1
        out = np.empty((len(flat), 2), dtype=np.intp)
        local = rc - np.asarray(self._origin)
        h, w = self._near.shape[0] - 2, self._near.shape[1] - 2
        inside = (local >= 0).all(axis=1) & (local[:, 0] < h) & (local[:, 1] < w)
        near = np.zeros(len(flat), dtype=bool)
        loc = (local[inside, 0] + 1) * (w + 2) + local[inside, 1] + 1
        near[inside] = np.isfinite(self._near.ravel()[loc])
        if near.any():
            picked = loc[near[inside]]
            nxt = np.empty((h, w, 2), dtype=np.intp)
            _repair.point(
                self._window.padded, self._near, picked, nxt, np.empty((h, w, 2)),
                diagonal=self._diag,
            )  # fmt: skip
            lr, lc = np.divmod(picked, w + 2)
            out[near] = nxt[lr - 1, lc - 1] + np.asarray(self._origin)
        far = ~near
        if far.any():
            _repair.point(
                self.grid.padded, self._far, flat[far], self._far_next, self._far_dir,
                diagonal=self._diag,
            )  # fmt: skip
            out[far] = self._far_next[rc[far, 0], rc[far, 1]]
        return out

    # ------------------------------------------------------------------ inside

    def _cell(self, value: Any, name: str, snap: Any) -> tuple[int, int]:
        """``value`` checked as a walkable cell, or snapped to the nearest one."""
        if check_flag("snap", snap):
            return self._space.snap(value, name)
        flat = int(unit_cells(self.grid, self.grid, name, value, many=False)[0])
        r, c = divmod(flat, self.grid.shape[1] + 2)
        return (r - 1, c - 1)

    def _near_field(self) -> None:
        """Exact distances within ``radius`` of the target, on the window that holds
        every path of that cost (a step costs at least ``min_cost`` and moves one
        cell at most each way), padded with ``inf``."""
        grid = self.grid
        reach = min(math.ceil(self.radius / grid.min_cost), max(grid.shape))
        r, c = self._target
        r0, c0 = max(0, r - reach), max(0, c - reach)
        r1, c1 = min(grid.shape[0], r + reach + 1), min(grid.shape[1], c + reach + 1)
        cells = grid.padded[r0 + 1 : r1 + 1, c0 + 1 : c1 + 1]
        window = Grid(cells, diagonal=cast(Diagonal, grid.diagonal))
        near = np.full((r1 - r0 + 2, c1 - c0 + 2), np.inf)
        if math.isfinite(grid.padded[r + 1, c + 1]):  # (an edit may have walled it)
            near[1:-1, 1:-1] = window.distance_field((r - r0, c - c0), max_cost=self.radius)
        self._window, self._near, self._origin = window, near, (r0, c0)
        self._version = grid.version

    def _anchor_cost(self) -> float:
        """The near field's distance of the anchor (inf outside it)."""
        r, c = self.anchor[0] - self._origin[0], self.anchor[1] - self._origin[1]
        if 0 <= r < self._near.shape[0] - 2 and 0 <= c < self._near.shape[1] - 2:
            return float(self._near[r + 1, c + 1])
        return math.inf

    def _edited(self) -> None:
        """Close the cells that became walls in the far field until the next lands."""
        cells = self.grid.changes_since(self._version)
        if len(cells):
            walls = ~np.isfinite(self.grid.padded[cells[:, 0] + 1, cells[:, 1] + 1])
            self._far[cells[walls, 0] + 1, cells[walls, 1] + 1] = np.inf

    def _start(self) -> None:
        r, c = self._target
        if not math.isfinite(self.grid.padded[r + 1, c + 1]):
            return  # an edit walled the target: the far field waits for its next move
        self._build = _Build(self.grid, self._target, self.background)
        self._poll()

    def _poll(self) -> None:
        """Adopt a far field that landed (a stale one is computed again)."""
        build = self._build
        if build is None or not build.done():
            return
        if build.version != self.grid.version:
            self._build = None
            self._start()
            return
        self._adopt()

    def _adopt(self) -> None:
        build = self._build
        assert build is not None
        self._build = None
        if build.error is not None:
            raise build.error
        assert build.padded is not None
        self._far = build.padded
        self.anchor = build.anchor
        self.rebuilds += 1
