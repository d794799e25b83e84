"""Square grids with a custom set of moves, searched by the compiled stencil kernel."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._cellspace import CellSpace
from pathcraft._saved import SavedArrays
from pathcraft._shorthands import Shorthands
from pathcraft._sliced import CompiledSearch
from pathcraft.grid.kit import cost_array
from pathcraft.hexgrid import _capabilities, _stencil
from pathcraft.replan import Replanner
from pathcraft.result import PathResult
from pathcraft.world import register_kind

#: The eight moves of a chess knight, factor sqrt(5) (their length).
KNIGHT: list[tuple[int, int]] = [
    (-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1),
]  # fmt: skip
#: The 16-neighbourhood: the eight king moves and the eight knight moves.
SIXTEEN: list[tuple[int, int]] = [
    (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1), *KNIGHT,
]  # fmt: skip


class MovesGrid(Shorthands):
    """A square grid whose moves are given: each ``(dr, dc, factor)`` steps ``dr``
    rows and ``dc`` columns; cells are ``(row, col)``.

    Entering a cell by a move costs the cell's cost times the move's factor (the
    factor defaults to the move's length, ``hypot(dr, dc)``); ``np.inf`` marks a
    wall. A move jumps: the cells it passes over are not looked at.

    A* uses the Euclidean distance times ``h = min_cost * min(factor / hypot(dr, dc))``.
    It is admissible and consistent: a step by move ``m`` into a cell of cost ``c``
    costs ``c * factor_m >= min_cost * factor_m >= h * |m|``, so a path costs at least
    ``h`` times the summed lengths of its moves, which (triangle inequality) is at
    least ``h`` times the straight-line distance from start to goal.

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cost of entering each cell, > 0, ``np.inf`` for walls.
    moves : sequence of (int, int) or (int, int, float)
        At most 64 distinct moves, none of length zero; factors finite and > 0.
    allowed : array_like of bool, shape (rows, cols, len(moves)), optional
        Which moves may leave each cell (``allowed[r, c, k]``: move ``k`` from
        ``(r, c)``): conveyor belts that carry one way, one-way doors, ledges to jump
        down but not up. None (the default): every move from every cell. Fewer moves
        only make paths dearer, so the heuristic stays admissible.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
    >>> knight = MovesGrid(np.ones((8, 8)), moves=[(dr, dc, 1.0) for dr, dc in KNIGHT])
    >>> knight.find_path((0, 0), (7, 7)).cost
    6.0

    A conveyor: the middle row carries east only (moves up, down, left, right):

    >>> steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    >>> allowed = np.ones((3, 5, 4), dtype=bool)
    >>> allowed[1, 1:4] = [False, False, False, True]
    >>> belt = MovesGrid(np.ones((3, 5)), steps, allowed=allowed)
    >>> belt.find_path((1, 1), (1, 4)).cost, belt.find_path((1, 4), (1, 1)).cost
    (3.0, 5.0)
    """

    def __init__(self, cost: npt.ArrayLike, moves: Any, *, allowed: Any = None) -> None:
        arr = cost_array(cost)
        self.moves = _stencil.check_moves(moves)
        hfactor = min(f / math.hypot(dr, dc) for dr, dc, f in self.moves)
        self._world = _stencil.build(
            "MovesGrid", arr, (self.moves, self.moves), "none", "euclidean", hfactor
        )
        if allowed is not None:
            _stencil.restrict(self._world, allowed, len(self.moves))

    @property
    def allowed(self) -> npt.NDArray[np.bool_]:
        """Which moves may leave each cell: a boolean array ``(rows, cols, moves)``
        (a copy; every entry True when the grid was made without ``allowed``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((1, 2)), [(0, 1), (0, -1)]).allowed.tolist()
        [[[True, True], [True, True]]]
        """
        rows, cols = self.shape
        k = len(self.moves)
        masks = self._world.allowed
        if masks is None:
            return np.ones((rows, cols, k), dtype=np.bool_)
        p = self._world.pad
        inner = masks.reshape(self._world.padded.shape)[p:-p, p:-p]
        bits = np.left_shift(np.uint64(1), np.arange(k, dtype=np.uint64))
        out: npt.NDArray[np.bool_] = (inner[:, :, None] & bits) != 0
        return out

    @property
    def min_cost(self) -> float:
        """The smallest cell cost (1.0 when every cell is a wall), kept up to date
        when cells change; the heuristic's scale is it times the smallest factor per
        unit of move length.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> knight = MovesGrid(np.full((3, 3), 2.0), moves=[(1, 2), (2, 1)])
        >>> knight[0, 0] = 0.5
        >>> knight.min_cost
        0.5
        """
        return self._world.lowest

    def __getitem__(self, key: Any) -> Any:
        """The cost of cells, by NumPy indexing of the ``(rows, cols)`` array (a copy).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((2, 3)), moves=[(0, 1)])[0, 1]
        1.0
        """
        value = self._world.inner[key]
        return value.copy() if isinstance(value, np.ndarray) else float(value)

    def __setitem__(self, key: Any, value: npt.ArrayLike) -> None:
        """Change cell costs between queries (``np.inf`` builds a wall; values > 0),
        by NumPy indexing of the ``(rows, cols)`` array. A sliced search under way is
        cancelled (``WorldChangedError``); never change the grid while another thread
        searches it.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> belt = MovesGrid(np.ones((1, 4)), moves=[(0, 1)])    # a one-way conveyor
        >>> belt[0, 1] = 5.0
        >>> belt.find_path((0, 0), (0, 3)).cost
        7.0
        """
        _stencil.edit(self._world, key, value)

    @property
    def version(self) -> int:
        """How many edits changed a cost (see :meth:`changes_since`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> grid = MovesGrid(np.ones((2, 2)), moves=[(0, 1), (1, 0)])
        >>> grid[0, 0] = np.inf
        >>> grid.version
        1
        """
        return self._world.log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The ``(row, col)`` cells whose cost changed after ``version`` (a past
        :attr:`version`), sorted, each once (README, "Worlds that change").

        Raises
        ------
        TypeError
            ``version`` not an integer.
        ValueError
            ``version`` negative or larger than :attr:`version`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> grid = MovesGrid(np.ones((2, 2)), moves=[(0, 1), (1, 0)])
        >>> seen = grid.version
        >>> grid[1] = 3.0
        >>> grid.changes_since(seen).tolist()
        [[1, 0], [1, 1]]
        """
        return _stencil.changes_since(self._world, version)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
        >>> MovesGrid(np.ones((2, 3)), KNIGHT).shape
        (2, 3)
        """
        return self._world.shape

    def neighbors(self, cell: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        """The cells the moves reach from the ``(row, col)`` cell, with the cost of
        each step (the generic search's neighbour function).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((3, 3)), [(1, 2, 2.0)]).neighbors((0, 0))
        [((1, 2), 2.0)]
        """
        rows, cols = self.shape
        r, c = int(cell[0]), int(cell[1])
        inner = self._world.inner
        masks = self._world.allowed
        mask = -1
        if masks is not None:
            p = self._world.pad
            mask = int(masks[(r + p) * self._world.padded.shape[1] + c + p])
        out = []
        for k, (dr, dc, factor) in enumerate(self.moves):
            nr, nc = r + dr, c + dc
            if not (mask >> k) & 1:
                continue
            if 0 <= nr < rows and 0 <= nc < cols and np.isfinite(inner[nr, nc]):
                out.append(((nr, nc), float(inner[nr, nc]) * factor))
        return out

    def find_path(
        self, start: tuple[int, int], goal: tuple[int, int], *, algorithm: str = "astar",
        **options: Any,
    ) -> PathResult:  # fmt: skip
        """A cheapest path between two ``(row, col)`` cells.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)``. Dijkstra also takes several cells (a
            ``(k, 2)`` array) for either, and ``goal=None`` (every reachable cell: the
            result's ``distances`` and ``path_to``).
        algorithm : str
            ``"astar"`` (scaled Euclidean heuristic), ``"dijkstra"`` or ``"greedy"``.
        **options
            The search options (README, "One way to ask every world"); ``heuristic``
            is ``"euclidean"`` (the default) or ``"zero"``.

        Returns
        -------
        PathResult
            Its path an ``(n, 2)`` array of ``(row, col)`` cells from start to goal;
            empty (falsy) with a reason when there is no path.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
        >>> MovesGrid(np.ones((3, 3)), KNIGHT).find_path((0, 0), (1, 1)).reason
        'unreachable'
        """
        return _cellworld.find_path(self._world, start, goal, algorithm, options)

    def start_search(
        self, start: tuple[int, int], goal: tuple[int, int], *, algorithm: str = "astar",
        **options: Any,
    ) -> CompiledSearch:  # fmt: skip
        """The search :meth:`find_path` runs, as a compiled search stepped a few
        expansions at a time (``step(n)``; ``result`` once it ended). Cells are
        ``(row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> line = MovesGrid(np.ones((1, 5)), [(0, 1)])
        >>> search = line.start_search((0, 0), (0, 4), algorithm="dijkstra")
        >>> search.step(2), search.step(), search.result.path.tolist()[-1]
        ('in_progress', 'found', [0, 4])
        """
        return _cellworld.start_search(self._world, start, goal, algorithm, options, self)

    def distance_field(
        self, sources: tuple[int, int] | npt.ArrayLike, *, parents: bool = False,
        max_cost: float | None = None,
    ) -> npt.NDArray[np.float64] | _cellworld.Tree:  # fmt: skip
        """The cost from the nearest of ``sources`` (``(row, col)`` cells) to every
        cell, ``inf`` for walls and cells out of reach (or beyond ``max_cost``).
        With ``parents=True``, also each cell's parent on a cheapest path from the
        nearest source: an array of ``(row, col)`` along its last axis, ``-1`` for
        sources, walls and cells not reached (as :meth:`pathcraft.Grid.distance_field`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((1, 4)), [(0, 2, 1.0), (0, -1, 1.0)]).distance_field((0, 0))
        array([[0., 2., 1., 3.]])
        >>> costs, tree = MovesGrid(np.ones((1, 3)), [(0, 1)]).distance_field((0, 0), parents=True)
        >>> tree[0, 2].tolist()
        [0, 1]
        """
        return _cellworld.distance_field(self._world, sources, max_cost, parents)

    def find_paths(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, *, algorithm: str = "astar",
        **options: Any,
    ) -> list[PathResult]:  # fmt: skip
        """Many searches at once, in parallel: one result per pair
        ``(starts[i], goals[i])`` of ``(row, col)`` cells, each what :meth:`find_path`
        gives; ``workers``, ``executor``, ``chunk_size`` and ``progress`` as in
        :meth:`pathcraft.Grid.find_paths`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import SIXTEEN, MovesGrid
        >>> moves = MovesGrid(np.ones((4, 4)), SIXTEEN)
        >>> [r.cost for r in moves.find_paths([(0, 0), (1, 1)], [(3, 3), (0, 1)])]
        [4.242640687119286, 1.0]
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world, "find_paths", starts, goals, algorithm, options
        )

    def path_costs(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, *, algorithm: str = "astar",
        **options: Any,
    ) -> npt.NDArray[np.float64]:  # fmt: skip
        """Only the costs of many searches (``inf`` where there is none), in parallel;
        arguments as in :meth:`find_paths` (``partial`` and ``record`` refused).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import SIXTEEN, MovesGrid
        >>> MovesGrid(np.ones((4, 4)), SIXTEEN).path_costs([(0, 0), (1, 1)], [(3, 3), (1, 1)])
        array([4.24264069, 0.        ])
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world, "path_costs", starts, goals, algorithm, options
        )

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world; their code is hexgrid/_capabilities.py.

    #: The name of a saved move grid (:func:`pathcraft.io.save`).
    kind = "movesgrid"

    def plot(self, result: PathResult, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: ``result`` drawn on this grid's cells as squares of
        the offset layout (:func:`pathcraft.viz.plot_search`; needs the ``viz`` extra).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> rook = MovesGrid(np.ones((2, 3)), [(0, 1), (1, 0)])
        >>> rook.plot(rook.find_path((0, 0), (1, 2), record=True)).get_title()
        'cost 3.00, 4 expanded'
        """
        return _capabilities.plot(self._world.inner.copy(), result, ax, **kwargs)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost``, ``moves`` (``(k, 2)``), ``factors`` and,
        when some moves are forbidden, ``allowed``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> sorted(MovesGrid(np.ones((2, 2)), [(0, 1)]).to_arrays())
        ['cost', 'factors', 'moves']
        """
        arrays = {
            "cost": self._world.inner.copy(),
            "moves": np.array([(dr, dc) for dr, dc, _ in self.moves], dtype=np.int64),
            "factors": np.array([f for _, _, f in self.moves], dtype=np.float64),
        }
        if self._world.allowed is not None:
            arrays["allowed"] = self.allowed
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> MovesGrid:
        """Capability ``"save"``: the move grid :meth:`to_arrays` wrote, checked again.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
        >>> knight = MovesGrid(np.ones((8, 8)), [(dr, dc, 1.0) for dr, dc in KNIGHT])
        >>> MovesGrid.from_arrays(knight.to_arrays()).find_path((0, 0), (7, 7)).cost
        6.0
        """
        a = SavedArrays(arrays, cls.kind)
        moves, factors = a.take("moves", "int", 2), a.take("factors", "float", 1)
        if moves.shape[1:] != (2,) or factors.shape != moves.shape[:1]:
            raise ValueError(
                f"moves must be (k, 2) and factors (k,); got {moves.shape} and {factors.shape}"
            )
        table = [(int(dr), int(dc), float(f)) for (dr, dc), f in zip(moves, factors, strict=True)]
        allowed = a.take("allowed", "bool", 3, optional=True)
        return cls(a.take("cost", "float", 2), table, allowed=allowed)

    def agent_space(self) -> CellSpace:
        """Capability ``"agent_space"``: agents move by the grid's moves, nodes
        ``(row, col)``, positions the cells' centres ``(col + 0.5, row + 0.5)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((2, 2)), [(0, 1)]).agent_space().point((1, 1))
        (1.5, 1.5)
        """
        return _capabilities.space(self, None)

    def replan_space(self) -> _capabilities.StencilReplan:
        """Capability ``"replanner"``: the cells as D* Lite sees them (one edge per
        move, :class:`pathcraft.replan.ReplanSpace`), with the grid's heuristic.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((2, 2)), [(0, 1)]).replan_space().node(5)
        (0, 0)
        """
        return _capabilities.StencilReplan(self, self._world, heuristic=True)

    def replanner(self, start: tuple[int, int], goal: tuple[int, int]) -> Replanner:
        """An incremental planner (D* Lite) from cell ``start`` to ``goal``, both
        ``(row, col)``, that takes in this grid's edits by itself; see
        :class:`~pathcraft.replan.Replanner`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
        >>> knight = MovesGrid(np.ones((5, 5)), KNIGHT)
        >>> plan = knight.replanner((0, 0), (4, 4))
        >>> plan.path().cost == knight.find_path((0, 0), (4, 4)).cost
        True
        >>> knight[2, 1] = np.inf
        >>> plan.path().cost == knight.find_path((0, 0), (4, 4)).cost
        True
        """
        return Replanner(self, start, goal)


register_kind(MovesGrid)
