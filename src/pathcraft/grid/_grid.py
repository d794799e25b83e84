"""Grids: 2-D cost arrays searched by the compiled core.

Why this file is longer than 600 lines: a world is one class whose public methods are
its own (``tests/test_layout.py``: no mixins, each method defined in the class with
its documentation and a runnable example), and :class:`Grid` has 42 of them
(building, editing, unit sizes, preparation, searches, batches, fields, capabilities);
their documentation is about three fifths of the file. The code is thin doors onto
focused modules: :mod:`~pathcraft.grid._checks` (input), :mod:`~pathcraft.grid._prepared`
(state derived from the cells), :mod:`~pathcraft.grid._sizes` (unit sizes),
:mod:`~pathcraft.grid._run` (the grid's adapter of the one glue,
:mod:`pathcraft._cellworld`) and :mod:`~pathcraft.grid._space` (agents).

Cells are ``(row, col)`` everywhere. A grid is a float cost array: ``np.inf`` is a wall
and every other cost is finite and > 0. A step into cell ``b`` costs ``cost[b]`` when
straight and ``cost[b] * sqrt(2)`` when diagonal. Diagonal moves follow one of four
rules:

- ``"never"``: 4-connected;
- ``"no_corner_cut"`` (default): a diagonal move needs both cells it passes between to
  be free (the Moving AI rule);
- ``"one_free"``: it needs at least one of them free;
- ``"always"``: only the target cell must be free.

Searches have the semantics of :mod:`pathcraft.search` (tie-breaking, ``weight``,
limits, partial paths, recording, "no path" as a falsy result) and return a
:class:`~pathcraft.result.PathResult` whose ``path`` is an ``(n, 2)`` int array of
``(row, col)`` cells. A grid holds no search state: each thread searches with its own
workspace, so one grid serves any number of threads at once, and the compiled loop
releases the GIL.

Examples
--------
>>> import numpy as np
>>> from pathcraft import Grid
>>> grid = Grid.from_ascii('''
... .....
... .###.
... .....
... ''')
>>> result = grid.astar((0, 0), (2, 4))
>>> result.path.tolist()
[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 4], [2, 4]]
>>> result.cost
6.0
>>> grid[1, 1:4] = 1.0             # open the wall: one assignment, no rebuild
>>> round(grid.astar((0, 0), (2, 4)).cost, 4)
4.8284
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast, overload

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._aliases import documented
from pathcraft._batch import BatchOptions, check_batch
from pathcraft._changes import ChangeLog
from pathcraft._movingai import read_walkable
from pathcraft._options import SUPPORT, SearchOptions, UnsupportedOptionError, check_flag
from pathcraft._reach import Moves, compact
from pathcraft._sliced import CompiledSearch
from pathcraft._validation import MAX_EXPANSIONS, check_choice
from pathcraft.grid import _batch, _capabilities, _nearest, _queries
from pathcraft.grid._checks import (
    cell_indices,
    check_cost_scale,
    check_padded,
    cost_array,
    cost_values,
    edited_cells,
    parse_ascii,
)
from pathcraft.grid._packed import PackedLines, check_lines
from pathcraft.grid._prepared import Labels, Prepared
from pathcraft.grid._run import DIAGONAL_RULES, GRID_HEURISTICS, GridCells, planned_search
from pathcraft.grid._sizes import SizeCache, cells_box, check_size
from pathcraft.grid._space import GridSpace
from pathcraft.replan import Replanner
from pathcraft.result import PathResult
from pathcraft.world import register_kind

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pathcraft._core.quick import Plan
    from pathcraft._options import GridOptions
    from pathcraft.grid._hpa import Hierarchy
    from pathcraft.grid._subgoal import SubgoalGraph

__all__ = ["DIAGONAL_RULES", "GRID_HEURISTICS", "Grid"]

Diagonal = Literal["never", "no_corner_cut", "one_free", "always"]
if not TYPE_CHECKING:
    Diagonal = documented(
        Diagonal,
        'A diagonal-move rule: ``"never"`` (4-connected), ``"no_corner_cut"`` (the '
        'default: both cells a diagonal move passes between must be free), ``"one_free"`` '
        '(at least one of them) or ``"always"`` (only the target cell).',
    )
HeuristicName = Literal["manhattan", "octile", "euclidean", "chebyshev", "zero"]
if not TYPE_CHECKING:
    HeuristicName = documented(
        HeuristicName,
        "The name of an A* heuristic on a grid, scaled by the grid's smallest cost: "
        '``"manhattan"``, ``"octile"``, ``"euclidean"``, ``"chebyshev"`` or ``"zero"`` '
        "(Dijkstra's order).",
    )
Cell = Sequence[int] | npt.NDArray[np.integer[Any]]
if not TYPE_CHECKING:
    Cell = documented(
        Cell,
        "A grid cell, ``(row, col)``: a pair of ints or an integer array of shape "
        "``(2,)``.",
    )
GridAlgorithm = Literal["astar", "dijkstra", "greedy", "jps", "theta"]


class Grid:
    """A 2-D grid of step costs, searched by compiled A*, Dijkstra and greedy kernels.

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cost of entering each cell: finite and > 0, or ``np.inf`` for a wall. Integer
        arrays (Python ints too big for int64 too) are accepted and kept as float64.
        The array is copied: later changes to it do not reach the grid; change the grid
        with item assignment (``grid[r, c] = value``).
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The diagonal-move rule (see the module documentation).
    heuristic : {"manhattan", "octile", "euclidean", "chebyshev", "zero"} or None
        The default A* heuristic, scaled by the grid's smallest cost so it stays
        admissible on cheap cells. None picks the tightest admissible one for the
        move rule: ``"manhattan"`` when 4-connected, ``"octile"`` otherwise.
    prepare : {"jps", "jps+", "components"}, sequence of them, or None
        Build now what a search would otherwise build inside its first query (see
        :meth:`prepare`): ``"jps"``, jump point search's packed lines (1-30 ms on
        game maps). None: build on first use.

    Raises
    ------
    TypeError
        ``cost`` is not a numeric array (a boolean mask goes to :meth:`from_walkable`),
        or is a NumPy masked array (refused rather than its mask lost: fill it first,
        ``cost.filled(np.inf)`` to make the masked cells walls).
    ValueError
        ``cost`` is not 2-D or is empty, holds NaN, zero, negative or ``-inf`` values,
        a value float64 cannot hold (a long double or Python int beyond its range),
        or costs so large that a path could overflow (the largest finite cost times
        ``sqrt(2)`` times the number of cells must stay below the float64 maximum, so
        a found path never costs ``inf``); an unknown ``diagonal`` or ``heuristic``;
        ``prepare="jps"`` on a grid jump point search cannot search.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> cost = np.ones((3, 4))
    >>> cost[1, :3] = np.inf
    >>> grid = Grid(cost, diagonal="never")
    >>> grid.shape, grid.heuristic
    ((3, 4), 'manhattan')
    >>> grid.astar((0, 0), (2, 0)).cost
    8.0
    >>> Grid(np.zeros((2, 2)))
    Traceback (most recent call last):
    ...
    ValueError: cost must be > 0 and not NaN (np.inf marks a wall); got 0.0 at cell (0, 0)
    """

    __slots__ = (
        "_base",
        "_diagonal",
        "_heuristic",
        "_hier",
        "_lock",
        "_log",
        "_padded",
        "_prep",
        "_unit",
    )

    def __init__(
        self,
        cost: npt.ArrayLike,
        *,
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
        prepare: str | Sequence[str] | None = None,
    ) -> None:
        check_choice("diagonal", diagonal, tuple(DIAGONAL_RULES))
        what = _preparations(prepare)
        if heuristic is not None:
            check_choice("heuristic", heuristic, tuple(GRID_HEURISTICS))
        values = cost_array(cost)
        rows, cols = values.shape
        padded = np.full((rows + 2, cols + 2), np.inf)
        padded[1:-1, 1:-1] = values
        self._setup(padded, diagonal, heuristic)
        if what:
            self.prepare(*what)

    def _setup(self, padded: npt.NDArray[np.float64], diagonal: str, heuristic: str | None) -> None:
        rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
        self._padded = padded
        self._diagonal: str = diagonal
        self._heuristic: str = heuristic or ("manhattan" if diagonal == "never" else "octile")
        self._unit = 1
        self._base: Grid | None = None  # the grid a unit's view comes from (for_size)
        self._log = ChangeLog(limit=rows * cols)
        self._prep = Prepared(0)
        self._hier: Any = None  # HPA*'s Hierarchy (prepare("hpa"))
        self._lock = threading.Lock()

    @classmethod
    def from_padded(
        cls,
        padded: npt.NDArray[np.float64],
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> Grid:
        """A grid that keeps ``padded`` as its costs, without a copy: the costs with a
        border of walls all round, as :attr:`padded` returns them (cell ``(r, c)`` at
        ``(r + 1, c + 1)``).

        For arrays the grid may own and change (``grid[r, c] = v`` writes into it), such
        as a memory-mapped file: :func:`pathcraft.io.load` with ``mmap=True`` builds
        grids this way. Checked as :class:`Grid` checks ``cost``, row by row (no
        temporary as large as the grid), and the border must be all walls.

        Raises
        ------
        TypeError
            ``padded`` is not a float64 NumPy array.
        ValueError
            Not 2-D, smaller than 3 x 3, not C-contiguous and writeable, a border cell
            that is not ``inf``, a cost :class:`Grid` refuses; an unknown ``diagonal``
            or ``heuristic``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> padded = np.full((4, 5), np.inf)
        >>> padded[1:-1, 1:-1] = 1.0
        >>> grid = Grid.from_padded(padded, diagonal="never")
        >>> grid.shape, grid.astar((0, 0), (1, 2)).cost
        ((2, 3), 3.0)
        >>> grid.padded is padded
        True
        """
        check_choice("diagonal", diagonal, tuple(DIAGONAL_RULES))
        if heuristic is not None:
            check_choice("heuristic", heuristic, tuple(GRID_HEURISTICS))
        check_padded(padded)
        grid = object.__new__(cls)
        grid._setup(padded, diagonal, heuristic)
        return grid

    # ------------------------------------------------------------------ building

    @classmethod
    def from_walkable(
        cls,
        walkable: npt.ArrayLike,
        *,
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> Grid:
        """A grid of unit costs from a boolean mask (True = walkable, False = wall).

        Parameters
        ----------
        walkable : array_like of bool, shape (rows, cols)
            True where a cell can be entered; indexed ``[row, col]``.
        diagonal, heuristic
            As for :class:`Grid`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_walkable([[True, False], [True, True]]).cost.tolist()
        [[1.0, inf], [1.0, 1.0]]
        """
        mask = np.asarray(walkable)
        if mask.dtype != np.bool_:
            raise TypeError(f"walkable must be a boolean array; got dtype {mask.dtype}")
        if mask.ndim != 2:
            raise ValueError(f"walkable must be 2-D (rows, cols); got shape {mask.shape}")
        return cls(np.where(mask, 1.0, np.inf), diagonal=diagonal, heuristic=heuristic)

    @classmethod
    def from_ascii(
        cls,
        text: str,
        *,
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> Grid:
        """A grid from text: ``#`` wall, ``.`` floor (cost 1), digits ``1``-``9`` costs.

        Leading and trailing blank lines and common indentation are removed; every
        row must have the same length. Lines of text are rows, top first; characters
        are columns: cells are ``(row, col)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii('''
        ...     .#9
        ...     ..2
        ... ''').cost.tolist()
        [[1.0, inf, 9.0], [1.0, 1.0, 2.0]]
        >>> Grid.from_ascii(".x.")
        Traceback (most recent call last):
        ...
        ValueError: text line 1, column 2: unknown cell 'x'; use '#' (wall), '.' (floor) or 1-9
        """
        return cls(parse_ascii(text), diagonal=diagonal, heuristic=heuristic)

    @classmethod
    def from_movingai(
        cls, path: str | os.PathLike[str], *, diagonal: Diagonal = "no_corner_cut"
    ) -> Grid:
        """A grid from a Moving AI ``.map`` file (see :func:`pathcraft.io.read_map`).

        Passable cells cost 1, blocked cells are walls; the file's row ``r``, column
        ``c`` is cell ``(r, c)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.io import bundled_map
        >>> grid = Grid.from_movingai(bundled_map(), diagonal="never")
        >>> grid.shape, grid.diagonal
        ((209, 281), 'never')
        """
        return cls.from_walkable(read_walkable(path), diagonal=diagonal)

    # ------------------------------------------------------------------ state

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        rows, cols = self._padded.shape
        return rows - 2, cols - 2

    @property
    def cost(self) -> npt.NDArray[np.float64]:
        """A read-only view of the cost array; change cells with ``grid[r, c] = v``."""
        view = self._cells()[1:-1, 1:-1]
        view.flags.writeable = False
        return view

    @property
    def padded(self) -> npt.NDArray[np.float64]:
        """The cost array with a border of walls (``inf``) all round, as the compiled
        kernels read it: shape ``(rows + 2, cols + 2)``; cell ``(r, c)`` is at
        ``(r + 1, c + 1)``. For pathcraft's own modules (kernels, pictures): never
        write to it; change cells with ``grid[r, c] = value``."""
        return self._cells()

    @property
    def walkable(self) -> npt.NDArray[np.bool_]:
        """A boolean array: True where the cell is not a wall."""
        return np.isfinite(self._cells()[1:-1, 1:-1])

    @property
    def diagonal(self) -> str:
        """The diagonal-move rule."""
        return self._diagonal

    @property
    def heuristic(self) -> str:
        """The default heuristic of :meth:`astar` and :meth:`greedy`."""
        return self._heuristic

    @property
    def min_cost(self) -> float:
        """The smallest cell cost: the scale of the heuristics (1 when all are walls)."""
        return self._derived().scale(self._padded)[0]

    @property
    def uniform_cost(self) -> float | None:
        """The one cost of every walkable cell, or None when the costs vary.

        A 4-connected grid of uniform cost runs A* and Dijkstra on a bucket open list
        (O(1) per push and pop) instead of a heap.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> Grid(np.ones((3, 3))).uniform_cost
        1.0
        >>> Grid(np.array([[1.0, 2.0], [1.0, np.inf]])).uniform_cost is None
        True
        """
        return self._derived().scale(self._padded)[1] or None

    def _cells(self) -> npt.NDArray[np.float64]:
        """The padded cost array, current: a unit's view's cells are derived state,
        brought up to date with its grid's edits first."""
        if self._base is not None and self._prep.version != self._log.version:
            self._renew()
        return self._padded

    def _derived(self) -> Prepared:
        """The prepared state of the current cells (:mod:`pathcraft.grid._prepared`):
        every derived item is asked for here, and none outlives the version of the
        cells it was built from."""
        prep = self._prep
        if prep.version != self._log.version:
            prep = self._renew()
        return prep

    def _renew(self) -> Prepared:
        """The prepared state of a new version: the unit views repaired (on the grid
        they come from), the rest built again on first use."""
        base = self._base
        with self._lock:
            prep = self._prep
            version = self._log.version
            if prep.version != version:
                if base is None:
                    prep = prep.renewed(version)
                else:  # a unit's view: its cells are repaired by its grid's cache
                    sizes = base._size_cache()
                    if not sizes.holds(self._unit, self._padded):
                        sizes.rederive(self._unit, self._padded)  # dropped from the cache
                    scale = base._derived().scale(base._padded)
                    prep = Prepared(version, scale=scale, reach=prep.reach)
                self._prep = prep  # published once complete
        return prep

    def _changed_box(self, version: int) -> tuple[int, int, int, int] | None:
        """The box of the cells whose cost changed after ``version``."""
        flat = self._log.since(version, total=self._padded[1:-1, 1:-1].size)
        return cells_box(flat, self._padded.shape[1] - 2)

    def __getitem__(self, key: Any) -> Any:
        """The cost of cells, by NumPy indexing of the ``(rows, cols)`` array."""
        value = self._cells()[1:-1, 1:-1][key]
        return value.copy() if isinstance(value, np.ndarray) else float(value)

    def __setitem__(self, key: Any, value: npt.ArrayLike) -> None:
        """Change cell costs between queries (``np.inf`` builds a wall).

        Never change a grid while another thread searches it.
        """
        if self._unit != 1:
            raise TypeError(
                f"this grid is the view of a unit of size {self._unit} (Grid.for_size): "
                "it changes with the grid it came from; change that grid's cells"
            )
        values = cost_values(value)
        inner = self._padded[1:-1, 1:-1]
        check_cost_scale(values, inner.size, "value")
        touched = edited_cells(inner, key)
        at = np.unravel_index(touched, inner.shape)  # no copy of the (strided) interior
        before = inner[at]
        inner[key] = values
        self._log.record(touched[inner[at] != before])  # the version moves

    @property
    def version(self) -> int:
        """How many edits the grid has had (``grid[...] = value`` that changed a
        cost): keep it, and give it back to :meth:`changes_since` later to learn what
        the edits since touched (cells)."""
        return self._log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The cells whose cost changed after ``version`` (a past :attr:`version`).

        The same question every editable world answers (:meth:`Graph.changes_since
        <pathcraft.graph.Graph.changes_since>` gives edge ids,
        :meth:`WaypointGraph.changes_since
        <pathcraft.waypoints.WaypointGraph.changes_since>` links), in its own terms
        (see the README's "Worlds that change"); a :class:`~pathcraft.replan.Replanner`
        and a :class:`~pathcraft.agents.FlowField` ask it before every answer. The
        log keeps about as many cells as the grid has; asked about edits older than
        that, it answers with every cell (a correct, if unhelpful, answer).

        Parameters
        ----------
        version : int
            In ``[0, grid.version]``.

        Returns
        -------
        ndarray of intp, shape (k, 2)
            The ``(row, col)`` cells, sorted, each once (an assignment that left a
            cost as it was is not a change; a cell changed and changed back since
            ``version`` is listed: the edits touched it, whatever its cost now).

        Raises
        ------
        TypeError
            ``version`` not an integer.
        ValueError
            ``version`` negative or larger than :attr:`version`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("....")
        >>> seen = grid.version
        >>> grid[0, 1] = float("inf")
        >>> grid[0, 2:] = [1.0, 5.0]          # (0, 2) keeps its cost
        >>> grid.version, grid.changes_since(seen).tolist()
        (2, [[0, 1], [0, 3]])
        >>> grid.changes_since(grid.version).tolist()
        []
        """
        flat = self._log.since(version, total=self._padded[1:-1, 1:-1].size)
        rows, cols = np.divmod(flat, self._padded.shape[1] - 2)
        return np.stack((rows, cols), axis=1).astype(np.intp)

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (
            f"Grid({rows}x{cols}, diagonal={self._diagonal!r}, heuristic={self._heuristic!r}, "
            f"walkable={int(self.walkable.sum())})"
        )

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name, None) for name in self.__slots__ if name != "_lock"}
        state["_hier"] = None  # HPA*'s hierarchy too: the receiver's first query builds it
        # Derived state is rebuilt by the receiver if it searches (ship less; plans
        # point into this process's arrays), but for the heuristic's scale, which a
        # unit's view takes from its grid (not shipped: the view travels alone).
        state["_prep"] = self._derived().shipped(self._padded)
        state["_base"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        padded = state["_padded"]
        log = state.get("_log") or ChangeLog(limit=padded[1:-1, 1:-1].size)
        for name in ("_diagonal", "_heuristic", "_padded"):
            object.__setattr__(self, name, state[name])
        self._unit = state.get("_unit", 1)
        self._base = None
        self._log = log
        self._prep = state.get("_prep") or Prepared(log.version)
        self._hier = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ unit sizes

    def _size_cache(self) -> SizeCache:
        if self._unit != 1:
            raise ValueError(
                f"this grid is already the view of a unit of size {self._unit}; "
                "call for_size on the grid it came from"
            )
        return self._derived().sizes(self._new_sizes)

    def _new_sizes(self, version: int) -> SizeCache:
        return SizeCache(self._padded, self._unit_view, version, self._changed_box)

    def _unit_view(self, padded: npt.NDArray[np.float64], size: int) -> Grid:
        view = object.__new__(Grid)
        view._padded = padded
        view._diagonal = self._diagonal
        view._heuristic = self._heuristic
        view._unit = size
        view._base = self  # repairs the view's cells when its version moves
        view._log = self._log  # the base grid's edits are the view's
        # The grid's scale: its smallest cost is <= every cost of the view (admissible)
        # and the view's walkable cells are some of the grid's (uniform stays uniform).
        prep = self._prep  # current: for_size asked for it (and SizeCache's lock is held)
        view._prep = Prepared(prep.version, scale=prep.scale(self._padded))
        view._lock = threading.Lock()
        return view

    @property
    def clearance(self) -> npt.NDArray[np.int32]:
        """The true clearance of every cell: the side of the largest square of free
        cells whose **top-left** cell it is (0 on a wall; squares stay inside the grid).

        Harabor and Botea's measure ("Hierarchical path planning for multi-size agents
        in heterogeneous environments", 2008). A unit of size ``k`` may stand at
        ``(row, col)`` (its top-left cell) exactly where ``clearance >= k``. Computed in
        the compiled core on first use; after ``grid[key] = value`` it is repaired,
        when next asked for, over the cells the edits can affect only. A read-only
        ``(rows, cols)`` int32 array.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ....
        ... ...#
        ... ....
        ... ''')
        >>> grid.clearance.tolist()
        [[3, 2, 1, 1], [2, 2, 1, 0], [1, 1, 1, 1]]
        >>> grid[1, 1] = float("inf")
        >>> grid.clearance.tolist()
        [[1, 1, 1, 1], [1, 0, 1, 0], [1, 1, 1, 1]]
        """
        if self._unit != 1:
            raise ValueError(f"this grid is the view of a unit of size {self._unit}")
        return self._size_cache().clearance()

    @property
    def unit_size(self) -> int:
        """The size of the unit this grid is searched for: 1, or ``k`` on the view
        :meth:`for_size` returns.

        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").for_size(2).unit_size
        2
        """
        return self._unit

    def for_size(self, size: int) -> Grid:
        """The grid a unit of ``size`` x ``size`` cells sees: what every search with
        ``size=`` runs on.

        A unit is anchored at its **top-left** cell: standing at ``(row, col)`` it
        covers rows ``row .. row + size - 1`` and columns ``col .. col + size - 1``,
        and it may stand there when all those cells are free (``clearance >= size``).
        Entering a cell costs the **most expensive cell under the unit** (times
        ``sqrt(2)`` diagonally), and a diagonal move follows this grid's diagonal rule
        applied to the unit's footprints (``"no_corner_cut"``: the unit must also fit
        at both cells it passes between). The view is built on first use and kept
        (up to 8 sizes), repaired when next used after this grid's cells change, and
        read-only.

        Parameters
        ----------
        size : int
            ``>= 1``; 1 returns this grid.

        Returns
        -------
        Grid
            The same shape; cells where the unit does not fit are walls.

        Raises
        ------
        TypeError, ValueError
            ``size`` not an integer >= 1.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ..9.
        ... ...#
        ... ....
        ... ''')
        >>> grid.for_size(2).cost.tolist()      # the 9 is under the unit at (0, 1)
        [[1.0, 9.0, inf, inf], [1.0, 1.0, inf, inf], [inf, inf, inf, inf]]
        >>> r = grid.find_path((0, 0), (1, 1), size=2)
        >>> r.path.tolist(), round(r.cost, 4)
        ([[0, 0], [1, 1]], 1.4142)
        >>> grid.for_size(0)
        Traceback (most recent call last):
        ...
        ValueError: size must be an integer >= 1 (the side of the unit's square, in cells); got 0
        """
        size = check_size(size)
        if size == self._unit:
            return self
        result: Grid = self._size_cache().world(size)
        return result

    def check_cells(
        self, cells: Any, *, name: str = "cells", many: bool = True
    ) -> npt.NDArray[np.intp]:
        """Cells checked to be inside the grid and walkable, as a ``(k, 2)`` array.

        Parameters
        ----------
        cells : (int, int) or array_like of shape (k, 2)
            ``(row, col)`` cells (one pair only when ``many`` is False).
        name : str
            The argument's name, for the error messages.
        many : bool
            Accept a ``(k, 2)`` array of cells as well as one pair.

        Returns
        -------
        ndarray of intp, shape (k, 2)
            The cells, ``(row, col)``.

        Raises
        ------
        ValueError
            A cell outside the grid or on a wall, a wrong shape (named by ``name``).
        TypeError
            Cells that are not integers.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii(".#.")
        >>> grid.check_cells([(0, 0), (0, 2)]).tolist()
        [[0, 0], [0, 2]]
        >>> grid.check_cells((0, 1), name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal (0, 1) is a wall
        """
        flat = cell_indices(name, cells, self._cells(), many=many)
        rows, cols = np.divmod(flat, self._padded.shape[1])
        return np.stack((rows - 1, cols - 1), axis=1).astype(np.intp)

    @overload
    def nearest_walkable(
        self, cells: tuple[int, int], *, max_distance: float | None = None
    ) -> tuple[int, int] | None: ...
    @overload
    def nearest_walkable(
        self, cells: npt.ArrayLike, *, max_distance: float | None = None
    ) -> tuple[int, int] | npt.NDArray[np.intp] | None: ...
    def nearest_walkable(
        self, cells: Any, *, max_distance: float | None = None
    ) -> tuple[int, int] | npt.NDArray[np.intp] | None:
        """The nearest walkable cell to each cell, inside the grid or outside it.

        A walkable cell is its own answer. Otherwise the answer is the walkable cell
        whose centre is nearest by Euclidean distance (in cells), ties broken toward
        the smallest ``(row, col)``. A cell outside the grid is a legitimate input
        (a physics position that left the map): its nearest walkable cell is inside.
        The cost grows with the square of the distance searched, not with the map.
        With ``snap=True``, :meth:`find_path` and the agents move a start or goal on a
        wall or off the map to this cell.

        Parameters
        ----------
        cells : (int, int) or array_like of int, shape (k, 2)
            ``(row, col)`` cells, each within ``[-2**29, 2**29]``.
        max_distance : float or None
            Only cells at most this far (Euclidean, in cells) count; None: any.

        Returns
        -------
        (int, int) or None, or ndarray of intp, shape (k, 2)
            For one pair, the cell as a tuple, or None when no walkable cell lies
            within ``max_distance`` (or the grid has none). For an array, one row per
            cell, ``(-1, -1)`` where there is none. Never raises for "none found".

        Raises
        ------
        TypeError
            Cells that are not integers, a ``max_distance`` that is not a number.
        ValueError
            A wrong shape, a cell beyond ``2**29``, a negative or NaN
            ``max_distance``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .#.
        ... ###
        ... .#.
        ... ''')
        >>> grid.nearest_walkable((0, 0)), grid.nearest_walkable((1, 1))  # 4 ties: (0, 0)
        ((0, 0), (0, 0))
        >>> grid.nearest_walkable([(1, 2), (-5, 1), (-1, 2)], max_distance=1).tolist()
        [[0, 2], [-1, -1], [0, 2]]
        >>> grid.nearest_walkable((7, 7), max_distance=3) is None
        True
        """
        found, one = _nearest.nearest_walkable(self._cells(), cells, max_distance)
        if not one:
            return found
        r, c = found[0].tolist()
        return None if r < 0 else (r, c)

    @property
    def jump_tables(self) -> tuple[tuple[float, float] | None, PackedLines]:
        """What jump point search reads besides the costs, built on first use and
        kept until a cell changes: the ``(lowest, highest)`` open-cell cost (None
        when every cell is a wall) and the walkable cells packed 64 to a word (for
        :mod:`pathcraft.grid._run`; internal)."""
        return self._derived().jump_tables(self._padded, self._diagonal)

    def prepare(self, *what: str, cluster: int | None = None) -> None:
        """Build now what searches would otherwise build inside their first query, so
        a game pays it at a moment it chooses (loading a level), not in a frame.

        Kept until a cell changes (``grid[r, c] = value`` drops it; the next search
        or :meth:`prepare` builds it again) and saved with the grid by
        :func:`pathcraft.io.save`.

        Parameters
        ----------
        *what : {"jps", "jps+", "components", "hpa", "subgoal"}
            ``"hpa"`` (or its synonym ``"hierarchy"``): the abstract graph of HPA*
            (:mod:`pathcraft.grid._hpa`) that ``find_path(..., algorithm="hpa")``
            searches, with the component labels; unlike the others it is kept
            across edits, its touched clusters repaired before the next HPA* query.
            ``"components"``: the component labels of :meth:`components` (one pass
            over every cell, about as long as one search that floods the grid; 4
            bytes a cell), from which the searches answer a goal they cannot reach
            at once; kept from then on (see :meth:`components`).
            ``"jps"``: jump point search's packed lines, the walkable cells packed 64
            to a word per row and column (about 1 ms for 256 x 256 cells, 20 ms for
            1024 x 1024; 1.2 MB there). ``"jps+"``: also an offline jump table for a
            static map (JPS+): for every cell and direction, how far a jump goes
            (32 bytes a cell: 32 MiB for 1024 x 1024 cells, built in about 90 ms
            there). Jump point searches answered by :meth:`find_path`, :meth:`jps`,
            :meth:`path_cost`, :meth:`find_paths` and :meth:`path_costs` then read
            the table instead of jumping: the same optimal costs, other counters
            (``expanded`` counts JPS+ jump points) and possibly another of the
            optimal paths; ``record=True`` and :meth:`start_search` still jump. Only
            for ``diagonal="no_corner_cut"`` (the Moving AI rule).
            ``"subgoal"``: a simple subgoal graph (Uras, Koenig and Hernandez 2013;
            :mod:`pathcraft.grid._subgoal`) that ``find_path(...,
            algorithm="subgoal")`` searches: optimal paths, long queries tens to
            hundreds of times faster than A* but several times slower than JPS+, in
            about 21 bytes a cell against JPS+'s 32 (built in tens of ms on the
            Dragon Age and Baldur's Gate maps, seconds on a 1024 x 1024 StarCraft
            map; dropped when a cell changes, as JPS+'s table). Only for
            ``diagonal="no_corner_cut"`` and one cost for every walkable
            cell.

        Raises
        ------
        ValueError
            An unknown name; ``"jps"`` on a grid jump point search cannot search
            (4-connected or ``"one_free"``, or more than one cell cost); ``"jps+"``
            on a grid whose rule is not ``"no_corner_cut"``; ``"subgoal"`` on such
            a grid or on cells of several costs; ``cluster`` not an int >= 2.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> grid = Grid(np.ones((64, 64)))
        >>> grid.prepared
        ()
        >>> grid.prepare("jps")
        >>> grid.prepared
        ('jps',)
        >>> grid[0, 0] = np.inf                   # an edit drops what was prepared
        >>> grid.prepared
        ()
        >>> Grid(np.ones((3, 3)), diagonal="never", prepare="jps")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: jps needs an 8-connected grid with diagonal='no_corner_cut' or 'always'; ...
        """
        for name in _preparations(what):
            if name in ("hpa", "hierarchy"):
                from pathcraft.grid._hpa import DEFAULT_CLUSTER, Hierarchy

                self._hier = Hierarchy(self, DEFAULT_CLUSTER if cluster is None else cluster)
                self._derived().labels(self._padded, self._diagonal, self.changes_since)
                continue
            if name == "components":
                self._derived().labels(self._padded, self._diagonal, self.changes_since)
                continue
            if name == "subgoal":
                self._subgoal_graph()
                continue
            if name == "jps+" and self._diagonal != "no_corner_cut":
                raise ValueError(
                    "jps+ (the offline jump table) follows the Moving AI rule: it needs "
                    f"diagonal='no_corner_cut'; this grid has diagonal={self._diagonal!r}"
                )
            self._plan(SearchOptions.check("Grid", "jps"))  # builds, or refuses
            if name == "jps+":
                self._derived().build_table(self._padded)  # plans read it from now on

    def _subgoal_graph(self) -> SubgoalGraph:
        """The subgoal graph of the current cells (built now if needed), after
        checking the grid is one it applies to."""
        from pathcraft.grid._subgoal import check_grid

        check_grid(self)
        return self._derived().subgoal_graph(self._padded)

    @property
    def subgoal_graph(self) -> SubgoalGraph | None:
        """The subgoal graph (:class:`pathcraft.grid._subgoal.SubgoalGraph`) of
        ``prepare("subgoal")`` or of the first ``algorithm="subgoal"`` query; None
        until then, and again after a cell changes (until the next)."""
        return self._derived().subgoals

    @property
    def hierarchy(self) -> Hierarchy | None:
        """HPA*'s hierarchy (:class:`pathcraft.grid._hpa.Hierarchy`) of
        ``prepare("hpa")`` or of the first ``algorithm="hpa"`` query; None until then
        (kept across edits, repaired by the next such query)."""
        hier: Hierarchy | None = getattr(self, "_hier", None)
        return hier

    @property
    def prepared(self) -> tuple[str, ...]:
        """What :meth:`prepare` (or a search) built and the grid keeps, of
        ``("jps", "jps+", "components", "subgoal", "hpa")`` in that order."""
        built = self._derived().built()
        return (*built, "hpa") if getattr(self, "_hier", None) is not None else built

    # ------------------------------------------------------------------ reachability

    def components(self, *, size: int = 1) -> tuple[npt.NDArray[np.int32], int]:
        """Which cells a unit can walk between: the connected components of the
        walkable cells under the grid's move rule.

        Built on first use (one pass over every cell, as long as about one search
        that floods the grid) and kept for the cells of this version. While they are kept,
        the grid's searches (:meth:`find_path`, :meth:`astar`, :meth:`dijkstra`,
        :meth:`greedy`, :meth:`jps`, :meth:`path_cost`, :meth:`find_paths`,
        :meth:`start_search`; not ``algorithm="theta"``, ``record=True``, several
        starts or goals, nor :meth:`path_costs` but with JPS+) answer a goal in another
        component than their start at once: ``reason="unreachable"`` whatever the
        limits, nothing expanded (not with ``partial=True``, which explores to
        return the closest place). Once asked for (per unit size), the grid keeps
        them: after an edit, its first search that ends unreachable, or the next
        call here, carries them over when one edit cannot join or split a
        call here, carries them over: unchanged when costs changed between finite
        values, repaired locally when one cell became or stopped being a wall
        (floods from its neighbours that stop once at most one side of a split or
        a join is left: the work of the smaller sides, not the grid's), and
        labelled afresh after several walls or openings at once. A grid never
        asked for them (nor :meth:`reachable`, nor ``prepare("components")``)
        searches as before.

        Parameters
        ----------
        size : int
            The side of the unit's square (see :meth:`for_size`): the components of
            the cells where it fits, by its moves.

        Returns
        -------
        labels : ndarray of int32, shape (rows, cols)
            The component of every ``(row, col)`` cell, numbered ``0`` to
            ``count - 1`` (labelled afresh: in row-major order of their first
            cell; after local repairs, not necessarily); ``-1`` on walls (and where the unit
            does not fit). Every diagonal rule but ``"always"`` joins the same cells
            as 4-connected moves; ``"always"`` joins the 8 neighbours.
        count : int
            The number of components.

        Raises
        ------
        TypeError, ValueError
            ``size`` not an integer >= 1.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ..#.
        ... ..#.
        ... ##..
        ... ''', diagonal="never")
        >>> labels, count = grid.components()
        >>> labels.tolist(), count
        ([[0, 0, -1, 1], [0, 0, -1, 1], [-1, -1, 1, 1]], 2)
        >>> Grid(grid.cost, diagonal="always").components()[1]  # (1, 1) touches (2, 2)
        1
        >>> grid.components(size=2)[1]
        1
        """
        flat, top = self._labels(size)
        padded = self.for_size(size)._cells()
        return compact(flat.reshape(padded.shape)[1:-1, 1:-1], top)

    def places(self) -> list[tuple[int, ...]]:
        """Capability ``"places"``: every walkable cell ``(row, col)``, row by row (what
        :class:`pathcraft.mapf.Reservations` numbers).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#\\n..").places()
        [(0, 0), (1, 0), (1, 1)]
        """
        rows, cols = np.nonzero(self.walkable)  # row by row, as argwhere; zip: 4x faster
        return list(zip(rows.tolist(), cols.tolist(), strict=True))

    def _move_graph(self, *, size: int = 1) -> Moves:
        """The world's move graph (:meth:`pathcraft.world.World._move_graph`): the
        moves of a unit of ``size`` (its view, :meth:`for_size`) under the grid's
        diagonal rule, over the padded cells (:attr:`padded`'s flat indices; the places
        are the cells where the unit fits). The grid's own labels
        (:meth:`components`) come from its compiled labelling, not from this.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> moves = Grid.from_ascii("..", diagonal="never")._move_graph()
        >>> moves.offsets.tolist()[4:8], moves.targets.tolist()
        ([0, 0, 1, 2], [6, 5])
        """
        view = self if size == 1 else self.for_size(size)  # a unit's view: its own
        return _capabilities.move_graph(view.padded, view.diagonal)

    def reachable(self, start: Cell, goal: Cell, *, size: int = 1) -> bool:
        """Whether a path joins ``start`` and ``goal``, both ``(row, col)``: one read
        of the component labels (:meth:`components`, built on first use).

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)`` (with ``size=``, where the unit fits).
        size : int
            The side of the unit's square (see :meth:`for_size`).

        Returns
        -------
        bool
            True when :meth:`find_path` between them finds a path.

        Raises
        ------
        ValueError
            A cell outside the grid or on a wall (where the unit does not fit), as
            :meth:`find_path` refuses it; ``size`` not >= 1.
        TypeError
            A cell that is not a pair of integers; ``size`` not an integer.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ...#.
        ... ...#.
        ... ''')
        >>> grid.reachable((0, 0), (1, 2)), grid.reachable((0, 0), (0, 4))
        (True, False)
        >>> grid.astar((0, 0), (0, 4)).expanded        # answered from the labels
        0
        >>> grid.reachable((0, 0), (0, 2), size=2)     # a 2 x 2 unit at (0, 2) covers (0, 3)
        Traceback (most recent call last):
        ...
        ValueError: goal (0, 2) is a wall
        """
        padded = self.for_size(size)._cells()
        s = cell_indices("start", start, padded, many=False)[0]
        g = cell_indices("goal", goal, padded, many=False)[0]
        flat = self._labels(size)[0]
        return bool(flat[s] == flat[g])

    def _labels(self, size: int) -> Labels:
        """The component labels of the unit's view (:mod:`pathcraft.grid._prepared`),
        carried over from an earlier version where the grid's edits allow."""
        world = self.for_size(size)
        changes = self.changes_since if world is self and self._unit == 1 else None
        return world._derived().labels(world._cells(), world._diagonal, changes)

    @property
    def offline_jumps(self) -> npt.NDArray[np.int32] | None:
        """The offline jump table of ``prepare("jps+")`` (None until then; dropped
        when a cell changes): for :mod:`pathcraft.grid._run`, internal."""
        return self._derived().table

    def use_jump_tables(self, lines: PackedLines) -> None:
        """Keep jump point search's packed lines built elsewhere (saved with the grid:
        :func:`pathcraft.io.load` calls this), after checking they fit this grid
        (:func:`pathcraft.grid._packed.check_lines`).

        Raises
        ------
        ValueError
            Lines of another shape, or that do not match the grid's walls.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> grid = Grid(np.ones((8, 8)), prepare="jps")
        >>> other = Grid(np.ones((8, 8)))
        >>> other.use_jump_tables(grid.jump_tables[1])
        >>> other.prepared
        ('jps',)
        """
        self._derived().use_lines(check_lines(lines, self._padded), self._padded)

    # ------------------------------------------------------------------ searches

    def find_path(
        self,
        start: Cell | npt.ArrayLike,
        goal: Cell | npt.ArrayLike | None,
        *,
        algorithm: GridAlgorithm | Literal["hpa", "subgoal"] = "astar",
        **options: Unpack[GridOptions],
    ) -> PathResult:
        """A path from ``start`` to ``goal``, both ``(row, col)``, by ``algorithm``.

        The one query every world answers (see the README's options table for which
        option each algorithm takes); :meth:`astar`, :meth:`dijkstra`, :meth:`greedy`
        and :meth:`jps` are this with the algorithm chosen.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)``. Dijkstra also takes several cells (a
            ``(k, 2)`` array) for either, and ``goal=None`` (see :meth:`dijkstra`).
        algorithm : {"astar", "dijkstra", "greedy", "jps", "theta", "hpa", "subgoal"}
            The search. ``"jps"`` needs an 8-connected grid of uniform cost.
            ``"hpa"``: HPA* on the hierarchy of ``prepare("hpa")`` (built by the
            first such query with the default cluster when not prepared; it takes
            no options): a smoothed, near-optimal path (not always the cheapest; see
            :mod:`pathcraft.grid._hpa`) for long queries on large maps.
            ``"subgoal"``: A* on the subgoal graph of ``prepare("subgoal")`` (built
            by the first such query when not prepared; it takes no options: unit
            size 1 only): an optimal path, for long queries on static maps of one
            cost under ``diagonal="no_corner_cut"``; ``expanded`` counts subgoals.
            ``"theta"`` (Theta*, any-angle) needs a grid of uniform cost: its ``path``
            holds the turning cells, joined by straight segments between cell centres
            that pass the grid's line of sight (walls, and grid corners by the
            ``diagonal`` rule), and ``cost`` is their Euclidean length times the cost.
        weight : float
            ``>= 1``; the cost returned is at most ``weight`` times the optimal cost
            (``astar``, ``jps``). Above 1 no cell is expanded twice (the grid's own
            heuristics are consistent, which keeps that bound).
        heuristic : {"manhattan", "octile", "euclidean", "chebyshev", "zero"} or None
            Overrides the grid's default for this query (``astar``, ``greedy``). Only
            admissible ones guarantee optimal paths: ``"manhattan"`` overestimates
            with diagonal moves.
        tie_break : {"g", "fifo", "random"}
            Among equal priorities: the larger g (default), the first pushed, or at
            random, reproducibly by ``seed`` (None draws fresh entropy).
        seed : int or None
            In ``[0, 2**64 - 1]``.
        max_expansions : int or None
            Give up after expanding this many cells (jump points for ``jps``). A
            limit that changes every call (a frame budget's allowance) costs what a
            fixed one does: the grid prepares a query's other options once and passes
            the limit to each search.
        max_cost : float or None
            Never reach a cell costing more than this from the start.
        partial : bool
            When the goal is not reached (unreachable or a limit), ``path`` leads to the
            expanded cell closest to the goal by the heuristic; the result stays falsy.
        record : bool
            Keep the expanded cells (an ``(n, 2)`` array) and their g-costs in
            ``result.explored``.
        size : int
            The side of the unit's square, in cells (default 1; every algorithm but
            ``theta``). The cells (``start``, ``goal``, the path) are then the unit's
            **top-left** cells, the unit never overlaps a wall, a step costs the most expensive
            cell under the unit, and diagonals follow the grid's rule applied to the
            two side anchors a diagonal step passes between (``"no_corner_cut"``: the
            unit fits at both; ``"one_free"``: at one; ``"always"``: only where it
            lands): the search of :meth:`for_size`. A ``start`` or ``goal``
            where the unit does not fit is refused like one on a wall.
        snap : bool
            Default False: a ``start`` or ``goal`` on a wall or outside the grid is a
            ``ValueError``. True: it is moved to its nearest walkable cell
            (:meth:`nearest_walkable`; with ``size=``, the nearest where the unit
            fits) and the search runs from there, as
            :meth:`pathcraft.NavMesh.find_path` moves a point off its mesh. A grid with
            no walkable cell still refuses it. Every algorithm takes it.

        Returns
        -------
        PathResult
            ``path`` is an ``(n, 2)`` int array of cells from start to goal.

        Raises
        ------
        UnsupportedOptionError
            An option the algorithm does not take (a ``TypeError``; the message names
            what it takes).
        ValueError
            A cell outside the grid or on a wall, a bad option value, ``jps`` or
            ``subgoal`` on a grid it does not apply to.
        TypeError
            A cell that is not a pair of integers, an option of the wrong type.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ....
        ... .##.
        ... ....
        ... ''', diagonal="never")
        >>> r = grid.find_path((1, 0), (1, 3), algorithm="dijkstra")
        >>> r.cost, len(r.path)
        (5.0, 6)
        >>> grid.find_path((1, 0), (1, 3), algorithm="greedy", weight=2.0)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: Grid.find_path(algorithm='greedy') does not ...
        >>> grid.find_path((1, 1), (1, 3))
        Traceback (most recent call last):
        ...
        ValueError: start (1, 1) is a wall
        >>> grid.find_path((1, 1), (1, 3), snap=True).path[0].tolist()   # from (0, 1)
        [0, 1]
        """
        t0 = time.perf_counter()
        if not options and type(algorithm) is str:  # the common case: one look-up
            result = self._lean(algorithm, start, goal, t0)
            if result is not None:
                return result
        elif "snap" in options:  # the cells moved, then the query as if given there
            options, start, goal = self._snapped(options, start, goal)
            return self.find_path(start, goal, algorithm=algorithm, **options)
        elif len(options) == 1 and "size" in options and type(algorithm) is str:
            result = self._lean_unit(algorithm, options["size"], start, goal, t0)  # its view's
            if result is not None:
                return result
        elif "max_expansions" in options:  # one plan for every limit
            limited = self._limited("find_path", algorithm, options)
            if limited is not None:
                result = limited[0].find(start, goal, t0, True, limited[1])
                if result is not None:
                    return result
        if type(algorithm) is str and algorithm == "hpa":  # anything else: checked below
            return self._hpa_path(start, goal, options)
        if type(algorithm) is str and algorithm == "subgoal":
            return self._subgoal_path(start, goal, options)
        opts = SearchOptions.check("Grid", algorithm, **options)
        plan = self._plan(opts)
        if plan is not None:
            result = plan.find(start, goal, t0)
            if result is not None:
                return result
        return _cellworld.query(self._adapter(), opts, start, goal, t0)

    def _hpa_path(self, start: Any, goal: Any, options: GridOptions) -> PathResult:
        """HPA*'s answer on the prepared hierarchy (built now with the default
        cluster when the grid has none)."""
        from pathcraft.grid import _hpa

        if options:
            raise TypeError(
                f"Grid.find_path(algorithm='hpa') takes no options; got {sorted(options)}"
            )
        if getattr(self, "_hier", None) is None:
            self.prepare("hpa")
        return _hpa.find_path(self, self._hier, start, goal)

    def _subgoal_path(self, start: Any, goal: Any, options: GridOptions) -> PathResult:
        """The answer on the subgoal graph (built now when the cells have none)."""
        from pathcraft.grid import _subgoal

        if options:
            raise TypeError(
                "Grid.find_path(algorithm='subgoal') takes no options (unit size 1 only); "
                f"got {sorted(options)}"
            )
        unit = _subgoal.check_grid(self)
        graph = self._derived().subgoal_graph(self._padded)
        return _subgoal.find_path(self, graph, unit, start, goal)

    def _snapped(
        self, options: GridOptions, start: Any, goal: Any
    ) -> tuple[GridOptions, Any, Any]:
        """``options`` without ``snap``, and with ``snap=True`` the start and goal
        moved to their nearest walkable cells (:meth:`nearest_walkable`; of the
        unit's view with ``size=``). A cell with none is kept (and refused later)."""
        rest = dict(options)
        if not check_flag("snap", rest.pop("snap")):
            return cast("GridOptions", rest), start, goal
        size: Any = rest.get("size", 1)
        world = self if type(size) is int and size == 1 else self.for_size(size)
        cells = world._cells()
        start, goal = _cellworld.moved_ends(
            start, goal, lambda at, name: _nearest.nearest_walkable(cells, at, None, name)
        )
        return cast("GridOptions", rest), start, goal

    def _adapter(self) -> GridCells:
        """The grid's adapter for the one cell-world glue, taking its plans."""
        return GridCells(self, self, self._plan)

    def _lean(
        self, algorithm: str, start: Any, goal: Any, t0: float, fill: bool = True
    ) -> PathResult | None:
        """The answer of the plan already made for ``algorithm`` without options, or
        None (no plan yet, or cells it does not take): the cheapest call."""
        prep = self._prep  # self._derived(), inlined: this is the cheapest call
        if prep.version != self._log.version:
            prep = self._renew()
        known = prep.plans.get(algorithm)
        if known is None or known[1] is None:
            return None
        return known[1].find(start, goal, t0, fill)

    def _lean_unit(
        self, algorithm: str, size: Any, start: Any, goal: Any, t0: float
    ) -> PathResult | None:
        """``find_path(size=k)`` without other options: :meth:`_lean` on the unit's
        view (its plan for ``algorithm`` is made by the first call, the checked way),
        or None."""
        if type(size) is not int or size < 1:
            return None
        if size == 1:
            return self._lean(algorithm, start, goal, t0)
        prep = self._prep  # current, and its views repaired: else the checked way does it
        units = prep.units
        version = self._log.version
        if units is None or units.version != version or prep.version != version:
            return None
        view: Grid | None = units.view(size)
        return None if view is None else view._lean(algorithm, start, goal, t0)

    def _plan(self, opts: SearchOptions) -> Plan | None:
        """The prepared settings of checked options (kept while the cells are those
        of this version), or None when they need the checked way (see
        ``_run.make_plan``). With ``size=k`` the plan is the unit's view's: its cells
        are the view's (where the unit fits), its answers the view's."""
        size = opts.extra.get("size", 1)
        world = self if type(size) is int and size == 1 else self.for_size(size)
        prep = world._prep  # world._derived(), inlined: every checked query asks
        if prep.version != world._log.version:
            prep = world._renew()
        return prep.plan(opts, world)

    def _limited(
        self, method: str, algorithm: Any, options: Mapping[str, object]
    ) -> tuple[Plan, int] | None:
        """The plan of ``options`` but ``max_expansions``, and that limit as the plan
        takes it per query (-1: none). The limit stays out of the checked options
        and the plan's key, so a limit that changes every call (a frame budget's
        allowance) shares one checked option set and one plan, and the search stops
        at exactly that limit. None where the checked way answers: no
        ``max_expansions`` given, a value it reports (not an int in range nor
        None), an algorithm without plans, options no plan takes. ``method`` names
        the call in refusals."""
        limit = options.get("max_expansions", False)  # False: not given
        if limit is None:
            cap = -1
        elif type(limit) is int and 0 <= limit <= MAX_EXPANSIONS:
            cap = limit
        else:
            return None
        if type(algorithm) is not str or algorithm not in _PLANNED:
            return None
        if len(options) == 1:  # the algorithm's plain plan, as _lean takes it
            prep = self._prep
            if prep.version != self._log.version:
                prep = self._renew()
            known = prep.plans.get(algorithm)
            if known is not None:
                return None if known[1] is None else (known[1], cap)
        rest = {name: value for name, value in options.items() if name != "max_expansions"}
        partial = rest.get("partial")
        if len(rest) == 1 and type(partial) is bool:
            # ``partial`` alone (a budgeted agent's sliced plan, every plan it starts):
            # its plan kept under a key of its own, so its options are checked once
            prep = self._prep
            if prep.version != self._log.version:
                prep = self._renew()
            key = (algorithm, "partial", partial)
            known = prep.plans.get(key)
            if known is None:
                opts = SearchOptions.check_call("Grid", method, algorithm, rest)
                known = (opts, self._plan(opts))
                prep.plans[key] = known
            return None if known[1] is None else (known[1], cap)
        plan = self._plan(SearchOptions.check_call("Grid", method, algorithm, rest))
        return None if plan is None else (plan, cap)

    def _shorthand(
        self, algorithm: GridAlgorithm, start: Any, goal: Any, options: GridOptions
    ) -> PathResult:
        """``astar``, ``greedy``, ``dijkstra`` past their inline lean path: ``size=k``
        alone on its view's lean path, else :meth:`find_path` with the algorithm."""
        if len(options) == 1 and "size" in options:
            result = self._lean_unit(algorithm, options["size"], start, goal, time.perf_counter())
            if result is not None:
                return result
        return self.find_path(start, goal, algorithm=algorithm, **options)

    def astar(self, start: Cell, goal: Cell, **options: Unpack[GridOptions]) -> PathResult:
        """A* from ``start`` to ``goal``, both ``(row, col)``; weighted when ``weight > 1``.

        ``find_path(start, goal, algorithm="astar", **options)``: every option of
        :meth:`find_path` applies.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ....
        ... .##.
        ... ....
        ... ''', diagonal="never")
        >>> r = grid.astar((1, 0), (1, 3))
        >>> r.cost, r.expanded, len(r.path)
        (5.0, 6, 6)
        >>> grid.astar((1, 1), (0, 0))
        Traceback (most recent call last):
        ...
        ValueError: start (1, 1) is a wall
        """
        if not options:  # the lean path inline: a call less on the cheapest query
            result = self._lean("astar", start, goal, time.perf_counter())
            if result is not None:
                return result
        return self._shorthand("astar", start, goal, options)

    def greedy(self, start: Cell, goal: Cell, **options: Unpack[GridOptions]) -> PathResult:
        """Greedy best-first search from ``start`` to ``goal``, both ``(row, col)``.

        Expands the cell with the smallest heuristic first; fast, not optimal.
        ``find_path(start, goal, algorithm="greedy", **options)``; it takes every option
        of :meth:`find_path` but ``weight``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("......")
        >>> grid.greedy((0, 0), (0, 5)).expanded
        6
        """
        if not options:  # the lean path inline: a call less on the cheapest query
            result = self._lean("greedy", start, goal, time.perf_counter())
            if result is not None:
                return result
        return self._shorthand("greedy", start, goal, options)

    def dijkstra(
        self,
        start: Cell | npt.ArrayLike,
        goal: Cell | npt.ArrayLike | None = None,
        **options: Unpack[GridOptions],
    ) -> PathResult:
        """Dijkstra from one or many sources to the nearest of one or many goals, or
        to every cell (``goal=None``).

        Parameters
        ----------
        start : (int, int) or array_like of shape (k, 2)
            One source cell or several, ``(row, col)``; the path starts at the one
            nearest to a goal.
        goal : (int, int), array_like of shape (m, 2), or None
            One goal cell or several; the search ends at the first one settled (the
            cheapest to reach). None settles every cell reachable (within
            ``max_cost``): the result's ``distances`` maps each reached ``(row, col)``
            to its cost, ``path_to(cell)`` gives its path as a list of cells, and
            ``path`` is empty (the result is truthy). Without a goal only ``max_cost``
            is taken; :meth:`distance_field` gives the same as arrays.
        **options
            ``tie_break``, ``seed``, ``max_expansions``, ``max_cost``, ``record``, as in
            :meth:`find_path`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("........")
        >>> grid.dijkstra((0, 3), [(0, 0), (0, 7)]).path.tolist()
        [[0, 3], [0, 2], [0, 1], [0, 0]]
        >>> every = grid.dijkstra((0, 3))
        >>> every.distances[(0, 7)], every.path_to((0, 1))
        (4.0, [(0, 3), (0, 2), (0, 1)])
        """
        if not options:  # the lean path inline: a call less on the cheapest query
            result = self._lean("dijkstra", start, goal, time.perf_counter())
            if result is not None:
                return result
        return self._shorthand("dijkstra", start, goal, options)

    def jps(
        self, start: Cell, goal: Cell, *, fill: bool = True, **options: Unpack[GridOptions]
    ) -> PathResult:
        """Jump point search from ``start`` to ``goal``, both ``(row, col)``.

        A* that pushes only *jump points*, the cells where an optimal path may turn,
        and skips the symmetric paths between them: the same optimal cost as
        :meth:`astar`, often ten times faster or more on open maps. It needs an
        8-connected grid (``diagonal="no_corner_cut"`` or ``"always"``) of uniform
        cost (every open cell costs the same); use :meth:`astar` on other grids.
        ``find_path(start, goal, algorithm="jps", **options)``; it takes ``weight``,
        ``max_expansions`` (jump points expanded) and ``record``.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)``.
        fill : bool
            True: ``path`` is every cell of the path. False: ``path`` holds only the
            jump points (the same array as ``jump_points``), the cheapest answer when
            the caller walks from jump point to jump point itself; ``cost`` and the
            counters are the same.
        **options
            ``weight``, ``max_expansions``, ``record``, as in :meth:`find_path`.

        Returns
        -------
        PathResult
            ``path`` is the full ``(n, 2)`` array of cells from start to goal (any of
            the optimal paths: it may differ from A*'s, its cost does not), or its
            jump points with ``fill=False``; ``jump_points`` the jump points on it,
            between which it runs diagonally first, then straight; ``expanded``
            counts jump points expanded.

        Raises
        ------
        ValueError
            A 4-connected or ``"one_free"`` grid, a grid with more than one cell cost,
            a cell outside the grid or on a wall, ``weight < 1``, a negative limit.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ........
        ... ..####..
        ... ........
        ... ''')
        >>> r = grid.jps((1, 0), (1, 7))
        >>> round(r.cost, 4), len(r.path), r.jump_points.tolist()
        (7.8284, 8, [[1, 0], [0, 6], [1, 7]])
        >>> round(grid.astar((1, 0), (1, 7)).cost, 4)
        7.8284
        >>> Grid.from_ascii("..2").jps((0, 0), (0, 2))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: jps needs a grid of uniform cost, ... from 1.0 to 2.0; use astar
        >>> grid.jps((1, 0), (1, 7), fill=False).path.tolist()
        [[1, 0], [0, 6], [1, 7]]
        """
        t0 = time.perf_counter()
        if "snap" in options:
            options, start, goal = self._snapped(options, start, goal)
        if not options:
            result = self._lean("jps", start, goal, t0, check_flag("fill", fill))
            if result is not None:
                return result
        if check_flag("fill", fill):
            return self.find_path(start, goal, algorithm="jps", **options)
        limited = self._limited("find_path", "jps", options)
        if limited is not None:
            result = limited[0].find(start, goal, t0, False, limited[1])
            if result is not None:
                return result
        opts = SearchOptions.check("Grid", "jps", **options)
        plan = self._plan(opts)
        if plan is not None:
            result = plan.find(start, goal, t0, False)
            if result is not None:
                return result
        full = _cellworld.query(self._adapter(), opts, start, goal, t0)
        jumps = full.jump_points
        return full if jumps is None else dataclasses.replace(full, path=jumps)

    def path_cost(
        self,
        start: Cell | npt.ArrayLike,
        goal: Cell | npt.ArrayLike,
        *,
        algorithm: GridAlgorithm = "astar",
        **options: Unpack[GridOptions],
    ) -> float:
        """Only the cost of the path from ``start`` to ``goal``, both ``(row, col)``.

        The ``cost`` of :meth:`find_path` with the same arguments, without building a
        result or a path: the cheapest single query (:meth:`path_costs` answers many).

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)`` (Dijkstra also takes ``(k, 2)`` arrays).
        algorithm : {"astar", "dijkstra", "greedy", "jps", "theta"}
            As in :meth:`find_path`.
        **options
            The options of :meth:`find_path` for ``algorithm`` but ``partial`` and
            ``record``, which change nothing here and are refused.

        Returns
        -------
        float
            The path's cost; ``inf`` when the goal is not reached (unreachable, or a
            limit stopped the search).

        Raises
        ------
        UnsupportedOptionError
            ``partial``, ``record``, or an option the algorithm does not take.
        ValueError, TypeError
            As :meth:`find_path`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .###.
        ... .....
        ... ''')
        >>> grid.path_cost((0, 0), (2, 4))
        6.0
        >>> grid.path_cost((0, 0), (2, 4), max_expansions=2)
        inf
        """
        for name in ("partial", "record"):
            if name in options:
                raise UnsupportedOptionError(
                    f"Grid.path_cost does not take {name}: it returns only the cost "
                    "(inf where the goal is not reached); use find_path for the path"
                )
        if "snap" in options:
            options, start, goal = self._snapped(options, start, goal)
        limited = self._limited("path_cost", algorithm, options)
        if limited is not None:
            cost = limited[0].cost(start, goal, limited[1])
            if cost is not None:
                return cost
        opts = SearchOptions.check_call("Grid", "path_cost", algorithm, options)
        plan = self._plan(opts)
        if plan is not None:
            cost = plan.cost(start, goal)
            if cost is not None:
                return cost
        return _cellworld.query(self._adapter(), opts, start, goal, 0.0).cost

    def start_search(
        self,
        start: Cell | npt.ArrayLike,
        goal: Cell | npt.ArrayLike,
        *,
        algorithm: GridAlgorithm = "astar",
        **options: Unpack[GridOptions],
    ) -> CompiledSearch:
        """Start a compiled search that a game loop spreads over frames.

        ``algorithm`` and ``options`` are :meth:`find_path`'s, checked the same way
        (a goal is needed: ``goal=None`` is :meth:`distance_field`'s work).
        ``step(n)`` on the returned object expands at most ``n`` more cells (jump
        points for ``"jps"``), with the GIL released, and returns ``"in_progress"``,
        ``"found"``, the reason the search ended without its goal, or
        ``"cancelled"``; its ``result`` is then exactly the blocking call's, whatever
        the slice sizes.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii(".....", diagonal="never")
        >>> search = grid.start_search((0, 0), (0, 4), algorithm="dijkstra")
        >>> search.step(2), search.step(), search.result.path.tolist()[-1]
        ('in_progress', 'found', [0, 4])
        """
        if "snap" in options:
            options, start, goal = self._snapped(options, start, goal)
        if not options:  # the plan already made for the algorithm, as _lean takes it
            known = self._derived().plans.get(algorithm) if type(algorithm) is str else None
            if known is not None and known[1] is not None:
                search = planned_search(self, known[1], start, goal)
                if search is not None:
                    return search
        limited = self._limited("start_search", algorithm, options)
        if limited is not None:
            search = planned_search(self, limited[0], start, goal, limited[1])
            if search is not None:
                return search
        opts = SearchOptions.check_call("Grid", "start_search", algorithm, options)
        plan = self._plan(opts)
        if plan is not None:  # plain cells: the plan's query, stepped
            search = planned_search(self, plan, start, goal)
            if search is not None:
                return search
        return _cellworld.stepped(self._adapter(), opts, start, goal, self)

    def smooth(self, path: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """``path`` (cells ``(row, col)``, e.g. an A* path) string-pulled by this
        grid's line of sight: the turning cells of a path that goes straight between
        cell centres wherever it can.

        From each kept cell the path goes straight to the last cell of ``path`` it
        still sees (the segment between centres enters no wall, and crosses grid
        corners only as the ``diagonal`` rule lets a diagonal step, as
        ``find_path(..., algorithm="theta")`` sees). Never longer than ``path``
        (each segment replaces the part of ``path`` between its ends), never across a
        wall or a forbidden corner; ``path`` is not modified.

        Parameters
        ----------
        path : (n, 2) array-like of int
            Cells ``(row, col)``, each step between two of them clear (the steps of
            any path this grid's searches return are).

        Returns
        -------
        numpy.ndarray
            ``(m, 2)`` int array of the kept cells, the first and last of ``path``
            among them (empty for an empty path).

        Raises
        ------
        ValueError
            A cell outside the grid or on a wall, or a step that is not clear.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... ......
        ... ......
        ... ......
        ... ''')
        >>> grid.smooth(grid.astar((0, 0), (2, 5)).path).tolist()
        [[0, 0], [2, 5]]
        """
        return _queries.smooth(self, path)

    def replanner(self, start: Cell, goal: Cell) -> Replanner:
        """An incremental planner for one agent going from ``start`` to ``goal``, both
        ``(row, col)``: it keeps its search (D* Lite) between calls, takes in this
        grid's edits by itself, follows the agent (``move_to``) and returns the
        current optimal path (``path()``); see :class:`~pathcraft.replan.Replanner`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .....
        ... ''', diagonal="never")
        >>> plan = grid.replanner((0, 0), (0, 4))
        >>> plan.path().cost
        4.0
        >>> grid[0, 2] = float("inf")         # a wall on the path: repaired, not redone
        >>> plan.path().cost, plan.path().path[2:5].tolist()
        (6.0, [[1, 1], [1, 2], [1, 3]])
        """
        return Replanner(self, start, goal)

    @overload
    def distance_field(
        self,
        sources: Cell | npt.ArrayLike,
        *,
        parents: Literal[False] = ...,
        max_cost: float | None = ...,
        size: int = ...,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def distance_field(
        self,
        sources: Cell | npt.ArrayLike,
        *,
        parents: Literal[True],
        max_cost: float | None = ...,
        size: int = ...,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]: ...
    def distance_field(
        self,
        sources: Cell | npt.ArrayLike,
        *,
        parents: bool = False,
        max_cost: float | None = None,
        size: int = 1,
    ) -> npt.NDArray[np.float64] | tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
        """The cost from every cell's nearest source (a Dijkstra map), and the
        shortest-path tree when asked.

        Parameters
        ----------
        sources : (int, int) or array_like of shape (k, 2)
            Walkable source cells, ``(row, col)``.
        parents : bool
            Also return each cell's parent in the shortest-path tree.
        max_cost : float or None
            Stop at this cost: cells farther away get ``inf``.
        size : int
            The unit's size (see :meth:`find_path`): the field of its top-left cell,
            ``inf`` where it does not fit.

        Returns
        -------
        costs : ndarray of float64, shape (rows, cols)
            The cost of the cheapest path from any source to each cell (moving under
            the grid's diagonal rule), ``inf`` for walls and unreachable cells. Costs
            are symmetric only where step costs are: the path pays to enter cells.
        parents : ndarray of intp, shape (rows, cols, 2)
            Only with ``parents=True``: the ``(row, col)`` of each cell's parent on a
            cheapest path from the nearest source (follow them to reach a source);
            ``(-1, -1)`` for sources, walls and unreached cells.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("..#.", diagonal="never")
        >>> grid.distance_field((0, 0)).tolist()
        [[0.0, 1.0, inf, inf]]
        >>> costs, tree = grid.distance_field((0, 0), parents=True)
        >>> tree[0, 1].tolist(), tree[0, 0].tolist()
        ([0, 0], [-1, -1])
        """
        tree = check_flag("parents", parents)
        cells = GridCells(self.for_size(size), self)
        return _cellworld.distance_field(cells, sources, max_cost, tree)

    # ------------------------------------------------------------------ batches

    def find_paths(
        self,
        starts: npt.ArrayLike,
        goals: npt.ArrayLike,
        *,
        algorithm: GridAlgorithm = "astar",
        **options: Unpack[BatchOptions],
    ) -> list[PathResult]:
        """Many searches at once, in parallel: one :class:`~pathcraft.PathResult` per
        ``(start, goal)`` pair.

        Each answer is exactly what :meth:`find_path` gives for that pair with the
        same ``algorithm`` and options (with ``tie_break="random"``, every query uses
        the same ``seed``).

        Parameters
        ----------
        starts, goals : array_like of int, shape (n, 2)
            ``(row, col)`` cells: query ``i`` goes from ``starts[i]`` to ``goals[i]``.
        algorithm : {"astar", "dijkstra", "greedy", "jps", "theta"}
            As in :meth:`find_path`.
        workers : int or None
            Threads of the built-in pool (None: the CPU count; 1: run in the calling
            thread). Each thread searches with its own workspace, the GIL released.
        executor : concurrent.futures.Executor or distributed.Client, optional
            Solve the chunks there instead: a process pool, or a Dask cluster (a
            ``distributed.Client`` or its ``get_executor()``), to which the grid is
            scattered once per worker. Not together with ``workers``.
        chunk_size : int or None
            Queries per task (None: about four tasks per worker).
        progress : bool
            Show a progress bar (tqdm) as chunks finish.
        **options
            The options of :meth:`find_path` for ``algorithm`` (``snap`` too), the same
            for every query.

        Returns
        -------
        list of PathResult
            In the order of ``starts``.

        Raises
        ------
        ValueError
            ``starts`` or ``goals`` not ``(n, 2)``, of different lengths, or holding a
            cell outside the grid or on a wall (named by its index: ``goals[3]``); a
            bad option or batch argument.
        TypeError
            Cells that are not integers; a non-boolean ``progress``; an option the
            algorithm does not take (:class:`~pathcraft.UnsupportedOptionError`).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .....
        ... .###.
        ... .....
        ... ''')
        >>> results = grid.find_paths([(0, 0), (2, 0)], [(2, 4), (2, 2)], workers=2)
        >>> [r.cost for r in results], [len(r.path) for r in results]
        ([6.0, 2.0], [7, 3])
        >>> grid.find_paths([(0, 0)], [(0, 4)], algorithm="jps")[0].cost
        4.0
        """
        if "snap" in options:  # every start and goal moved, as find_path(snap=True) does
            rest, starts, goals = self._snapped(cast(Any, options), starts, goals)
            options = cast(BatchOptions, rest)
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._adapter(), "find_paths", starts, goals, algorithm, options
        )

    def path_costs(
        self,
        starts: npt.ArrayLike,
        goals: npt.ArrayLike,
        *,
        algorithm: GridAlgorithm = "astar",
        **options: Unpack[BatchOptions],
    ) -> npt.NDArray[np.float64]:
        """Only the costs of many searches, in parallel: a float array.

        Each cost is the ``cost`` of :meth:`find_path` for that pair (``inf`` where the
        goal is not reached); one compiled loop per chunk builds no results, so this
        is the fastest way to ask many queries. Arguments as in :meth:`find_paths`;
        ``partial`` and ``record`` are refused (they change nothing here).

        Returns
        -------
        ndarray of float64, shape (n,)
            In the order of ``starts``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> grid = Grid(np.ones((4, 50)))
        >>> grid.path_costs([(0, 0), (3, 0)], [(0, 49), (0, 3)], algorithm="jps").tolist()
        [49.0, 4.242640687119286]
        >>> grid.path_costs([(0, 0)], [(0, 49)], max_expansions=3).tolist()
        [inf]
        """
        if "snap" in options:  # every start and goal moved, as find_path(snap=True) does
            rest, starts, goals = self._snapped(cast(Any, options), starts, goals)
            options = cast(BatchOptions, rest)
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._adapter(), "path_costs", starts, goals, algorithm, options
        )

    def distance_fields(
        self,
        sources: npt.ArrayLike | Sequence[npt.ArrayLike],
        *,
        max_cost: float | None = None,
        workers: int | None = None,
        executor: Any = None,
        chunk_size: int | None = None,
        progress: bool = False,
        size: int = 1,
    ) -> npt.NDArray[np.float64]:
        """Many distance fields at once, in parallel (see :meth:`distance_field`).

        Parameters
        ----------
        sources : array_like of int, shape (n, 2), or sequence of cells
            An ``(n, 2)`` array: one field per ``(row, col)`` cell. A sequence: one
            field per item, each a cell or a ``(k, 2)`` array of source cells.
        max_cost : float or None
            As in :meth:`distance_field`.
        workers, executor, chunk_size, progress
            As in :meth:`find_paths`.
        size : int
            As in :meth:`distance_field`.

        Returns
        -------
        ndarray of float64, shape (n, rows, cols)
            ``out[i]`` is ``distance_field(sources[i])``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("....", diagonal="never")
        >>> grid.distance_fields([(0, 0), (0, 3)]).tolist()
        [[[0.0, 1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0, 0.0]]]
        >>> grid.distance_fields([[(0, 0), (0, 3)]]).tolist()
        [[[0.0, 1.0, 1.0, 0.0]]]
        """
        batch = check_batch(workers, executor, chunk_size, progress)
        return _batch.distance_fields(self, sources, max_cost, batch, size)

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world; their code is grid/_capabilities.py.

    #: The name of a saved grid (:func:`pathcraft.io.save`).
    kind = "grid"

    def plot(self, result: PathResult, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: ``result`` drawn on this grid by
        :func:`pathcraft.viz.plot_search` (needs the ``viz`` extra; ``kwargs`` are
        its options).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("....")
        >>> grid.plot(grid.astar((0, 0), (0, 3), record=True)).get_title()
        'cost 3.00, 4 expanded'
        """
        return _capabilities.plot(self, result, ax, **kwargs)

    def to_arrays(self, *, mappable: bool = False) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost``, ``diagonal``, ``heuristic`` and the
        prepared jump tables, the arrays :func:`pathcraft.io.save` writes; with
        ``mappable``, ``cost_padded`` (:attr:`padded`) instead of ``cost``, as
        ``save(grid, path, mappable=True)`` writes it for ``load(path, mmap=True)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> sorted(Grid.from_ascii("..").to_arrays())
        ['cost', 'diagonal', 'heuristic']
        """
        return _capabilities.to_arrays(self, mappable)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> Grid:
        """Capability ``"save"``: the grid :meth:`to_arrays` wrote, checked again.

        Raises
        ------
        ValueError
            A missing array, one of the wrong dtype or shape, or bad costs.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii(".#.", diagonal="never")
        >>> Grid.from_arrays(grid.to_arrays()).diagonal
        'never'
        """
        return _capabilities.from_arrays(cls, arrays)

    def agent_space(self) -> GridSpace:
        """Capability ``"agent_space"``: this grid as agents' space
        (:class:`~pathcraft.agents.GridSpace`, nodes ``(row, col)``).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").agent_space().point((0, 2))
        (2.5, 0.5)
        """
        return GridSpace(self)

    def replan_space(self) -> _capabilities.GridReplan:
        """Capability ``"replanner"``: this grid as D* Lite sees it
        (:class:`pathcraft.replan.ReplanSpace`; :meth:`replanner` uses it).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").replan_space().node(6)   # the padded array's vertex 6
        (0, 0)
        """
        return _capabilities.GridReplan(self)


#: The algorithms whose queries run on the grid's plans (:meth:`Grid._limited`).
_PLANNED = frozenset(SUPPORT["Grid"].algorithms)

#: What :meth:`Grid.prepare` builds.
PREPARATIONS = ("jps", "jps+", "components", "hpa", "hierarchy", "subgoal")


def _preparations(what: str | Sequence[str] | None) -> tuple[str, ...]:
    """``prepare=`` as a tuple of checked names."""
    if what is None:
        return ()
    if isinstance(what, str):
        names: tuple[str, ...] = (what,)
    elif isinstance(what, (list, tuple)):
        names = tuple(what)
    else:
        raise TypeError(
            f"prepare must be one of {PREPARATIONS}, a sequence of them or None; got {what!r}"
        )
    for name in names:
        check_choice("prepare", name, PREPARATIONS)
    return names


register_kind(Grid)
