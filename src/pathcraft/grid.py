"""Grids: 2-D cost arrays searched by the compiled core.

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

import math
import os
import threading
import time
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._core import grid_search as _kernel
from pathcraft._grid_checks import cell_indices, cost_array, cost_values, parse_ascii
from pathcraft._validation import check_choice, check_limit, check_seed, check_weight
from pathcraft.result import Explored, PathResult

__all__ = ["DIAGONAL_RULES", "GRID_HEURISTICS", "Grid"]

Diagonal = Literal["never", "no_corner_cut", "one_free", "always"]
HeuristicName = Literal["manhattan", "octile", "euclidean", "chebyshev", "zero"]
Cell = Sequence[int] | npt.NDArray[np.integer[Any]]

#: The diagonal-move rules and their kernel codes.
DIAGONAL_RULES: dict[str, int] = {"never": 0, "no_corner_cut": 1, "one_free": 2, "always": 3}
#: The grid heuristics and their kernel codes.
GRID_HEURISTICS: dict[str, int] = {
    "zero": 0,
    "manhattan": 1,
    "octile": 2,
    "euclidean": 3,
    "chebyshev": 4,
}
_MODES = {"astar": 0, "greedy": 1, "dijkstra": 2}
_TIES = {"g": 0, "fifo": 1, "random": 2}
_REASONS = {
    _kernel.UNREACHABLE: "unreachable",
    _kernel.MAX_EXPANSIONS: "max_expansions",
    _kernel.MAX_COST: "max_cost",
}

_local = threading.local()


def _workspace(cells: int) -> Any:
    """This thread's workspace, grown to hold at least ``cells`` cells."""
    ws = getattr(_local, "workspace", None)
    if ws is None or ws.capacity < cells:
        ws = _kernel.Workspace(cells)
        _local.workspace = ws
    return ws


class Grid:
    """A 2-D grid of step costs, searched by compiled A*, Dijkstra and greedy kernels.

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cost of entering each cell: finite and > 0, or ``np.inf`` for a wall. Integer
        arrays are accepted. The array is copied: later changes to it do not reach the
        grid; change the grid with item assignment (``grid[r, c] = value``).
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The diagonal-move rule (see the module documentation).
    heuristic : {"manhattan", "octile", "euclidean", "chebyshev", "zero"} or None
        The default A* heuristic, scaled by the grid's smallest cost so it stays
        admissible on cheap cells. None picks the tightest admissible one for the
        move rule: ``"manhattan"`` when 4-connected, ``"octile"`` otherwise.

    Raises
    ------
    TypeError
        ``cost`` is not a numeric array (a boolean mask goes to :meth:`from_walkable`).
    ValueError
        ``cost`` is not 2-D or is empty, holds NaN, zero, negative or ``-inf`` values;
        an unknown ``diagonal`` or ``heuristic``.

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

    __slots__ = ("_diagonal", "_heuristic", "_min_cost", "_padded")

    def __init__(
        self,
        cost: npt.ArrayLike,
        *,
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> None:
        check_choice("diagonal", diagonal, tuple(DIAGONAL_RULES))
        if heuristic is not None:
            check_choice("heuristic", heuristic, tuple(GRID_HEURISTICS))
        values = cost_array(cost)
        rows, cols = values.shape
        padded = np.full((rows + 2, cols + 2), np.inf)
        padded[1:-1, 1:-1] = values
        self._padded = padded
        self._diagonal: str = diagonal
        self._heuristic: str = heuristic or ("manhattan" if diagonal == "never" else "octile")
        self._min_cost = self._smallest_cost()

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
        row must have the same length.

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
        """A grid from a Moving AI ``.map`` file (see :func:`pathcraft.io.read_map`)."""
        from pathcraft.io import read_map

        return read_map(path, diagonal=diagonal)

    # ------------------------------------------------------------------ state

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        rows, cols = self._padded.shape
        return rows - 2, cols - 2

    @property
    def cost(self) -> npt.NDArray[np.float64]:
        """A read-only view of the cost array; change cells with ``grid[r, c] = v``."""
        view = self._padded[1:-1, 1:-1]
        view.flags.writeable = False
        return view

    @property
    def walkable(self) -> npt.NDArray[np.bool_]:
        """A boolean array: True where the cell is not a wall."""
        return np.isfinite(self._padded[1:-1, 1:-1])

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
        return self._min_cost

    def _smallest_cost(self) -> float:
        inner = self._padded[1:-1, 1:-1]
        finite = inner[np.isfinite(inner)]
        return float(finite.min()) if finite.size else 1.0

    def __getitem__(self, key: Any) -> Any:
        """The cost of cells, by NumPy indexing of the ``(rows, cols)`` array."""
        value = self._padded[1:-1, 1:-1][key]
        return value.copy() if isinstance(value, np.ndarray) else float(value)

    def __setitem__(self, key: Any, value: npt.ArrayLike) -> None:
        """Change cell costs between queries (``np.inf`` builds a wall).

        Never change a grid while another thread searches it.
        """
        values = cost_values(value)
        self._padded[1:-1, 1:-1][key] = values
        self._min_cost = self._smallest_cost()

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (
            f"Grid({rows}x{cols}, diagonal={self._diagonal!r}, heuristic={self._heuristic!r}, "
            f"walkable={int(self.walkable.sum())})"
        )

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def _cells(self, name: str, value: Any, *, many: bool) -> npt.NDArray[np.intp]:
        """Checked cells as flat indices into the padded cost array."""
        return cell_indices(name, value, self._padded, many=many)

    # ------------------------------------------------------------------ searches

    def astar(
        self,
        start: Cell,
        goal: Cell,
        *,
        weight: float = 1.0,
        heuristic: HeuristicName | None = None,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> PathResult:
        """A* from ``start`` to ``goal``, both ``(row, col)``; weighted when ``weight > 1``.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)``.
        weight : float
            ``>= 1``; the cost returned is at most ``weight`` times the optimal cost.
        heuristic : str or None
            Overrides the grid's default heuristic for this query. Only admissible
            ones guarantee optimal paths: ``"manhattan"`` overestimates with diagonal
            moves; ``"octile"``, ``"euclidean"``, ``"chebyshev"`` and ``"zero"`` are
            admissible under every rule. The default is the tightest admissible one.
        tie_break : {"g", "fifo", "random"}
            As in :func:`pathcraft.search.astar`; ``"random"`` is reproducible by
            ``seed`` (a seed of None draws fresh entropy).
        max_expansions, max_cost, partial, record
            As in :func:`pathcraft.search.astar`. Recorded cells come back as an
            ``(n, 2)`` array in ``result.explored.nodes``.

        Returns
        -------
        PathResult
            ``path`` is an ``(n, 2)`` int array of cells from start to goal.

        Raises
        ------
        ValueError
            A cell outside the grid or on a wall, an unknown option, ``weight < 1``,
            a negative or NaN limit.
        TypeError
            A cell that is not a pair of integers.

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
        return self._search(
            "astar", start, goal, weight=check_weight(weight), heuristic=heuristic,
            tie_break=tie_break, seed=seed, max_expansions=max_expansions,
            max_cost=max_cost, partial=partial, record=record,
        )  # fmt: skip

    def greedy(
        self,
        start: Cell,
        goal: Cell,
        *,
        heuristic: HeuristicName | None = None,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> PathResult:
        """Greedy best-first search from ``start`` to ``goal``, both ``(row, col)``.

        Expands the cell with the smallest heuristic first; fast, not optimal. Options
        as in :meth:`astar`.

        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("......")
        >>> grid.greedy((0, 0), (0, 5)).expanded
        6
        """
        return self._search(
            "greedy", start, goal, weight=1.0, heuristic=heuristic, tie_break=tie_break,
            seed=seed, max_expansions=max_expansions, max_cost=max_cost, partial=partial,
            record=record,
        )  # fmt: skip

    def dijkstra(
        self,
        start: Cell | npt.ArrayLike,
        goal: Cell | npt.ArrayLike,
        *,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: int | None = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        record: bool = False,
    ) -> PathResult:
        """Dijkstra from one or many sources to the nearest of one or many goals.

        Parameters
        ----------
        start : (int, int) or array_like of shape (k, 2)
            One source cell or several, ``(row, col)``; the path starts at the one
            nearest to a goal.
        goal : (int, int) or array_like of shape (m, 2)
            One goal cell or several; the search ends at the first one settled (the
            cheapest to reach).
        tie_break, seed, max_expansions, max_cost, record
            As in :meth:`astar`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("........")
        >>> grid.dijkstra((0, 3), [(0, 0), (0, 7)]).path.tolist()
        [[0, 3], [0, 2], [0, 1], [0, 0]]
        """
        return self._search(
            "dijkstra", start, goal, weight=1.0, heuristic="zero", tie_break=tie_break,
            seed=seed, max_expansions=max_expansions, max_cost=max_cost, partial=False,
            record=record,
        )  # fmt: skip

    def distance_field(
        self, sources: Cell | npt.ArrayLike, *, max_cost: float | None = None
    ) -> npt.NDArray[np.float64]:
        """The cost from every cell's nearest source: a Dijkstra map.

        Parameters
        ----------
        sources : (int, int) or array_like of shape (k, 2)
            Walkable source cells, ``(row, col)``.
        max_cost : float or None
            Stop at this cost: cells farther away get ``inf``.

        Returns
        -------
        ndarray of float64, shape (rows, cols)
            The cost of the cheapest path from any source to each cell (moving under
            the grid's diagonal rule), ``inf`` for walls and unreachable cells. Costs
            are symmetric only where step costs are: the path pays to enter cells.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("..#.", diagonal="never").distance_field((0, 0)).tolist()
        [[0.0, 1.0, inf, inf]]
        """
        flat = self._cells("sources", sources, many=True)
        limit = check_limit("max_cost", max_cost, integer=False)
        out = np.empty(self.shape)
        _kernel.field(
            self._padded, _workspace(self._padded.size), flat, out,
            diagonal=DIAGONAL_RULES[self._diagonal],
            max_cost=math.inf if limit is None else float(limit),
        )  # fmt: skip
        return out

    def _search(
        self,
        mode: str,
        start: Any,
        goal: Any,
        *,
        weight: float,
        heuristic: str | None,
        tie_break: str,
        seed: int | None,
        max_expansions: int | None,
        max_cost: float | None,
        partial: bool,
        record: bool,
    ) -> PathResult:
        t0 = time.perf_counter()
        check_choice("tie_break", tie_break, tuple(_TIES))
        if heuristic is not None:
            check_choice("heuristic", heuristic, tuple(GRID_HEURISTICS))
        limit_exp = check_limit("max_expansions", max_expansions, integer=True)
        limit_cost = check_limit("max_cost", max_cost, integer=False)
        check_seed(seed)
        many = mode == "dijkstra"
        sources = self._cells("start", start, many=many)
        goals = self._cells("goal", goal, many=many)
        single_goal = goals.shape[0] == 1
        rng_seed = 0  # only random tie-breaking draws: skip the entropy read otherwise
        if tie_break == "random":
            rng_seed = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
        status, path, cost, expanded, generated, rec_cells, rec_g = _kernel.search(
            self._padded,
            _workspace(self._padded.size),
            sources,
            int(goals[0]) if single_goal else -1,
            None if single_goal else goals,
            diagonal=DIAGONAL_RULES[self._diagonal],
            hkind=GRID_HEURISTICS[heuristic or self._heuristic],
            mode=_MODES[mode],
            tie=_TIES[tie_break],
            hscale=self._min_cost,
            weight=weight,
            max_expansions=-1 if limit_exp is None else int(limit_exp),
            max_cost=math.inf if limit_cost is None else float(limit_cost),
            partial=bool(partial),
            record=bool(record),
            seed=int(rng_seed),
        )
        explored = None
        if rec_cells is not None and rec_g is not None:
            explored = Explored(self._to_cells(rec_cells), rec_g)
        found = status == _kernel.FOUND
        return PathResult(
            path=self._to_cells(path),
            cost=float(cost),
            found=found,
            reason=None if found else _REASONS[status],  # type: ignore[arg-type]
            expanded=int(expanded),
            generated=int(generated),
            elapsed=time.perf_counter() - t0,
            explored=explored,
        )

    def _to_cells(self, flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """Padded flat indices to an ``(n, 2)`` array of ``(row, col)`` cells."""
        rows, cols = np.divmod(flat, self._padded.shape[1])
        return np.stack((rows - 1, cols - 1), axis=1)
