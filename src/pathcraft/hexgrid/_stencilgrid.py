"""What the stencil worlds (:class:`~pathcraft.hexgrid.HexGrid`,
:class:`~pathcraft.hexgrid.MovesGrid`) share, written once: :class:`StencilGrid`, the
query contract, cell edits and capabilities over their compiled form
(:class:`~pathcraft.hexgrid._stencil.Stencil`). A subclass builds that form in its
``__init__`` and keeps only what is its own (its layout or moves, ``kind``, saving).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._cellspace import CellSpace
from pathcraft._core.components import stencil_targets
from pathcraft._reach import Labelled, Moves, cell_components
from pathcraft._shorthands import Shorthands
from pathcraft._sliced import CompiledSearch
from pathcraft.hexgrid import _capabilities, _stencil
from pathcraft.replan import Replanner
from pathcraft.result import PathResult

__all__ = ["StencilGrid"]


class StencilGrid(Shorthands, Labelled):
    """A grid of cells searched by the compiled stencil kernel; cells are
    ``(row, col)``. The base of :class:`~pathcraft.hexgrid.HexGrid` and
    :class:`~pathcraft.hexgrid.MovesGrid`: a subclass sets ``_world`` (a
    :class:`~pathcraft.hexgrid._stencil.Stencil`, whose ``name`` is the subclass's,
    so messages name the right world) and, where it differs, the two hooks below."""

    _world: _stencil.Stencil
    _EMPTY_PATH = np.empty((0, 2), dtype=np.intp)
    #: Whether the replanner's repairs use the world's A* heuristic (see
    #: :class:`~pathcraft.hexgrid._capabilities.StencilReplan`).
    _replan_heuristic: ClassVar[bool] = True

    def _centres(self) -> str | None:
        """The hex layout whose centres are the agents' positions; None: the centres
        of square cells."""
        return None

    @property
    def min_cost(self) -> float:
        """The smallest cell cost (1.0 when every cell is a wall), kept up to date
        when cells change: the scale of the heuristic (on a move grid, times the
        smallest factor per unit of move length).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> hexes = HexGrid(np.full((2, 2), 3.0))
        >>> hexes[0, 0] = 0.5
        >>> hexes.min_cost
        0.5
        >>> MovesGrid(np.full((3, 3), 2.0), moves=[(1, 2), (2, 1)]).min_cost
        2.0
        """
        return self._world.lowest

    def __getitem__(self, key: Any) -> Any:
        """The cost of cells, by NumPy indexing of the ``(rows, cols)`` array (a copy);
        cells are ``(row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> HexGrid(np.ones((2, 3)))[0, 1]
        1.0
        >>> MovesGrid(np.ones((2, 3)), moves=[(0, 1)])[1].tolist()
        [1.0, 1.0, 1.0]
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
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> hexes = HexGrid(np.ones((1, 4)))
        >>> hexes[0, 2] = np.inf
        >>> hexes.find_path((0, 0), (0, 3)).reason
        'unreachable'
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((2, 2)))
        >>> hexes[1, 1] = 2.0; hexes[1, 1] = 2.0     # the second changes nothing
        >>> hexes.version
        1
        """
        return self._world.log.version

    def changes_since(self, version: int) -> npt.NDArray[np.intp]:
        """The ``(row, col)`` cells whose cost changed after ``version`` (a past
        :attr:`version`), sorted, each once: the question every editable world answers
        (README, "Worlds that change").

        Raises
        ------
        TypeError
            ``version`` not an integer.
        ValueError
            ``version`` negative or larger than :attr:`version`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> hexes = HexGrid(np.ones((2, 3)))
        >>> seen = hexes.version
        >>> hexes[:, 2] = np.inf
        >>> hexes.changes_since(seen).tolist()
        [[0, 2], [1, 2]]
        >>> grid = MovesGrid(np.ones((2, 2)), moves=[(0, 1), (1, 0)])
        >>> grid[1] = 3.0
        >>> grid.changes_since(0).tolist()
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
        """The walkable cells the moves reach from the ``(row, col)`` cell (on a hex
        grid, its six neighbours; on a move grid, the moves ``allowed`` there), with
        the cost of each step: the cell's cost times the move's factor (the generic
        search's neighbour function).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> sorted(HexGrid(np.ones((3, 3))).neighbors((0, 0)))
        [((0, 1), 1.0), ((1, 0), 1.0)]
        >>> MovesGrid(np.ones((3, 3)), [(1, 2, 2.0)]).neighbors((0, 0))
        [((1, 2), 2.0)]
        """
        world = self._world
        rows, cols = world.shape
        r, c = int(cell[0]), int(cell[1])
        klass = {"row": r, "col": c}.get(world.parity, 0) & 1
        moves = world.moves[klass].tolist()
        mask = -1
        if world.allowed is not None:
            p = world.pad
            mask = int(world.allowed[(r + p) * world.padded.shape[1] + c + p])
        inner = world.inner
        out = []
        for k, factor in enumerate(world.factors[klass].tolist()):
            nr, nc = r + moves[2 * k], c + moves[2 * k + 1]
            if not (mask >> k) & 1:
                continue
            if 0 <= nr < rows and 0 <= nc < cols and np.isfinite(inner[nr, nc]):
                out.append(((nr, nc), float(inner[nr, nc]) * factor))
        return out

    def nearest_walkable(self, cells: Any, *, max_distance: float | None = None) -> Any:
        """The nearest walkable cell to each cell, inside the world or not: what
        ``snap=True`` moves a start or goal to (:meth:`find_path`, :meth:`start_search`,
        :meth:`find_paths`, :meth:`path_costs`, and agents built with it). A walkable cell
        is its own answer; otherwise the nearest by the Euclidean distance between ``(row,
        col)`` indices (the offset layout's rows and columns, not the hex distance), ties to
        the smallest. ``cells`` is one ``(row, col)`` cell or a ``(k, 2)`` array; only cells
        at most ``max_distance`` away count (None: any). Answers, errors and cost (the
        neighbourhood searched, not the world) as :meth:`pathcraft.Grid.nearest_walkable`: a
        tuple, or None when there is none; for an array, ``-1`` rows where there is none.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.array([[1.0, np.inf, np.inf], [1.0, 1.0, 1.0]]))
        >>> hexes.nearest_walkable((0, 2)), hexes.nearest_walkable((-3, 1))
        ((1, 2), (0, 0))
        >>> hexes.nearest_walkable([(0, 1), (9, 9)], max_distance=2).tolist()
        [[0, 0], [-1, -1]]
        >>> hexes.find_path((0, 1), (1, 2), snap=True).path[0].tolist()   # from (0, 0)
        [0, 0]
        """
        return _cellworld.nearest_walkable(self._world, cells, max_distance)

    def find_path(
        self, start: tuple[int, int], goal: tuple[int, int], *, algorithm: str = "astar",
        **options: Any,
    ) -> PathResult:  # fmt: skip
        """A cheapest path between two ``(row, col)`` cells.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)`` (in a hex grid's offset layout). Dijkstra
            also takes several cells (a ``(k, 2)`` array) for either, and ``goal=None``
            (every reachable cell: the result's ``distances`` and ``path_to``).
        algorithm : str
            ``"astar"`` (a hex grid's hex-distance heuristic, a move grid's scaled
            Euclidean one), ``"dijkstra"`` or ``"greedy"``.
        **options
            The search options (README, "One way to ask every world"); ``heuristic``
            is the world's own (``"hex"`` or ``"euclidean"``, the default) or
            ``"zero"``.

        Returns
        -------
        PathResult
            Its path an ``(n, 2)`` array of ``(row, col)`` cells from start to goal;
            empty (falsy) with a reason when there is no path.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid
        >>> cost = np.ones((3, 3)); cost[1, :2] = np.inf
        >>> HexGrid(cost).find_path((0, 0), (2, 0)).path.tolist()
        [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0]]
        >>> MovesGrid(np.ones((3, 3)), KNIGHT).find_path((0, 0), (1, 1)).reason
        'unreachable'
        """
        return _cellworld.find_path(self._world, start, goal, algorithm, options, self._kept())

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
        return _cellworld.start_search(
            self._world, start, goal, algorithm, options, self, self._kept()
        )

    # ------------------------------------------------------------------ reachability

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which cells reach each other: the strongly connected components of the
        walkable ``(row, col)`` cells under the world's moves (and ``allowed``).

        Built on first use (the moves listed in NumPy, then one compiled pass over
        them: two to four times one search that floods a 1024 x 1024 world) and kept
        for the cells of this version. From
        then on :meth:`find_path` (and the shorthands) and :meth:`start_search`
        answer a goal out of reach at once: ``reason="unreachable"``, nothing
        expanded (not with ``partial=True``, which explores to return the closest
        place, nor ``record=True``, several starts or goals; the batches search as
        before). After an edit the labels are built again by the first search that
        ends unreachable, or the next call here.

        Returns
        -------
        labels : ndarray of int32, shape (rows, cols)
            The component of every cell, ``0`` to ``count - 1``; ``-1`` on walls.
            Moves that cannot be undone (one-way moves, a move set that is not
            symmetric) split components: a component reaching another has the larger
            label (see :meth:`reachable`).
        count : int
            The number of components.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> cost = np.ones((3, 3)); cost[:, 1] = np.inf
        >>> labels, count = HexGrid(cost).components()
        >>> labels.tolist(), count
        ([[0, -1, 1], [0, -1, 1], [0, -1, 1]], 2)
        >>> MovesGrid(np.ones((1, 3)), [(0, 1)]).components()   # a one-way conveyor
        (array([[2, 1, 0]], dtype=int32), 3)
        """
        return cell_components(self._world, self._reachability().labels())

    def places(self) -> list[tuple[int, ...]]:
        """Capability ``"places"``: every walkable cell ``(row, col)``, row by row (what
        :class:`pathcraft.mapf.Reservations` numbers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.array([[1.0, np.inf, 1.0]])).places()
        [(0, 0), (0, 2)]
        """
        return _cellworld.labelled_places(self.components()[0])

    def reachable(self, start: tuple[int, int], goal: tuple[int, int]) -> bool:
        """Whether a path leads from ``start`` to ``goal``, both ``(row, col)``: the
        same component (:meth:`components`, built on first use), or, where moves
        cannot all be undone, the goal's component reachable from the start's
        through the components (a search over the components, not the cells:
        at most their count and the moves between them).

        Raises
        ------
        ValueError, TypeError
            A cell :meth:`find_path` refuses (outside the grid, a wall, not a
            pair of integers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> belt = MovesGrid(np.ones((1, 3)), [(0, 1)])
        >>> belt.reachable((0, 0), (0, 2)), belt.reachable((0, 2), (0, 0))
        (True, False)
        >>> belt.find_path((0, 2), (0, 0)).expanded     # answered from the labels
        0
        """
        return _cellworld.reachable(self._world, self._reachability(), start, goal)

    def _move_graph(self) -> Moves:
        """The moves over the padded cells, ``k`` slots a cell (``-1``: none): every
        head of a walkable cell stays inside the padding, which is all walls."""
        world = self._world
        height, width = world.padded.shape
        k = world.factors.shape[1]
        table = world.moves.reshape(2, k, 2)
        delta = np.ascontiguousarray(table[:, :, 0] * width + table[:, :, 1], dtype=np.int64)
        targets = np.empty(height * width * k, dtype=np.int32)
        flat = np.ascontiguousarray(world.padded, dtype=np.float64).ravel()
        parity = {"row": 1, "col": 2}.get(world.parity, 0)
        stencil_targets(flat, width, world.pad, parity, delta, world.allowed, targets)
        free = np.isfinite(flat)
        offsets = np.arange(0, height * width * k + 1, k, dtype=np.int64)
        directed = world.allowed is not None or not _undone(world)
        return Moves(offsets, targets, free, directed)

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
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> HexGrid(np.ones((2, 3))).distance_field((0, 0))
        array([[0., 1., 2.],
               [1., 2., 3.]])
        >>> costs, tree = HexGrid(np.ones((1, 3))).distance_field((0, 0), parents=True)
        >>> tree.tolist()
        [[[-1, -1], [0, 0], [0, 1]]]
        >>> MovesGrid(np.ones((1, 4)), [(0, 2, 1.0), (0, -1, 1.0)]).distance_field((0, 0))
        array([[0., 2., 1., 3.]])
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
        >>> from pathcraft.hexgrid import SIXTEEN, HexGrid, MovesGrid
        >>> hexes = HexGrid(np.ones((4, 4)))
        >>> [r.cost for r in hexes.find_paths([(0, 0), (1, 1)], [(3, 3), (0, 1)])]
        [5.0, 1.0]
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
        arguments as in :meth:`find_paths` (``partial`` and ``record`` refused); cells
        are ``(row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import SIXTEEN, HexGrid, MovesGrid
        >>> HexGrid(np.ones((4, 4))).path_costs([(0, 0), (1, 1)], [(3, 3), (1, 1)])
        array([5., 0.])
        >>> MovesGrid(np.ones((4, 4)), SIXTEEN).path_costs([(0, 0), (1, 1)], [(3, 3), (1, 1)])
        array([4.24264069, 0.        ])
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world, "path_costs", starts, goals, algorithm, options
        )

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world; their code is hexgrid/_capabilities.py.

    def plot(self, result: PathResult, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: ``result`` drawn on this grid's ``(row, col)`` cells
        as squares (a hex grid's offset layout; :func:`pathcraft.viz.plot_search`;
        needs the ``viz`` extra).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((2, 3)))
        >>> hexes.plot(hexes.find_path((0, 0), (1, 2), record=True)).get_title()
        'cost 3.00, 4 expanded'
        """
        return _capabilities.plot(self._world.inner.copy(), result, ax, **kwargs)

    def agent_space(self) -> CellSpace:
        """Capability ``"agent_space"``: agents move by the grid's moves, nodes
        ``(row, col)``, positions the cells' centres: a hex's centre on a hex grid
        (:func:`hex_centre <pathcraft.hexgrid._capabilities.hex_centre>`),
        ``(col + 0.5, row + 0.5)`` on a move grid.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> HexGrid(np.ones((2, 2))).agent_space().point((1, 1))
        (2.0, 1.5)
        >>> MovesGrid(np.ones((2, 2)), [(0, 1)]).agent_space().point((1, 1))
        (1.5, 1.5)
        """
        return _capabilities.space(self, self._world, self._centres())

    def replan_space(self) -> _capabilities.StencilReplan:
        """Capability ``"replanner"``: the ``(row, col)`` cells as D* Lite sees them
        (one edge per move, :class:`pathcraft.replan.ReplanSpace`), with a move grid's
        heuristic (none on a hex grid: its repairs are Dijkstra's).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid, MovesGrid
        >>> HexGrid(np.ones((2, 2))).replan_space().node(5)
        (0, 0)
        >>> MovesGrid(np.ones((2, 2)), [(0, 1)]).replan_space().scale()
        1.0
        """
        return _capabilities.StencilReplan(self, self._world, heuristic=self._replan_heuristic)

    def replanner(self, start: tuple[int, int], goal: tuple[int, int]) -> Replanner:
        """An incremental planner (D* Lite) from cell ``start`` to ``goal``, both
        ``(row, col)``, that takes in this grid's edits by itself; see
        :class:`~pathcraft.replan.Replanner`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid
        >>> hexes = HexGrid(np.ones((3, 4)))
        >>> plan = hexes.replanner((1, 0), (1, 3))
        >>> plan.path().cost
        3.0
        >>> hexes[1, 1:3] = np.inf
        >>> plan.path().cost == hexes.find_path((1, 0), (1, 3)).cost
        True
        >>> knight = MovesGrid(np.ones((5, 5)), KNIGHT)
        >>> plan = knight.replanner((0, 0), (4, 4))
        >>> knight[2, 1] = np.inf
        >>> plan.path().cost == knight.find_path((0, 0), (4, 4)).cost
        True
        """
        return Replanner(self, start, goal)


def _undone(world: _stencil.Stencil) -> bool:
    """Whether every move can be undone by a move of the cell it lands on (a hex
    grid's, a symmetric move set): then the components need no condensation."""
    k = world.factors.shape[1]
    table = world.moves.reshape(2, k, 2).tolist()
    for klass in (0, 1):
        for dr, dc in table[klass]:
            step = {"row": dr, "col": dc}.get(world.parity, 0)
            if [-dr, -dc] not in table[(klass + step) & 1]:
                return False
    return True
