"""3-D voxel grids, searched by the compiled voxel kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._cellspace import CellSpace
from pathcraft._reach import Labelled, Moves, cell_components, cell_moves
from pathcraft._saved import SavedArrays
from pathcraft._shorthands import Shorthands
from pathcraft._sliced import CompiledSearch
from pathcraft.result import PathResult
from pathcraft.voxel import _run
from pathcraft.world import refused, register_kind

#: A voxel: ``(z, row, col)``.
Voxel = tuple[int, int, int]

#: Why a voxel grid has no replanner.
_NEVER_EDITED = "a voxel grid is never edited: search it afresh"


class VoxelGrid(Shorthands, Labelled):
    """A 3-D grid of voxels with a cost each; voxels are ``(z, row, col)``.

    Entering a voxel costs its cost times the length of the move (1 along an axis,
    ``sqrt(2)`` when two axes change, ``sqrt(3)`` when all three do), as
    :class:`~pathcraft.Grid` charges a step into a cell; ``np.inf`` (or ``False`` in a
    boolean array) marks a wall. ``connectivity`` picks the moves: 6 (the faces),
    18 (faces and edges: two axes change) or 26 (faces, edges and corners).

    Diagonal moves never cut a corner (the Moving AI rule of :class:`~pathcraft.Grid`
    in 3-D): a move is allowed only if every voxel it sweeps past is walkable. A
    two-axis move such as ``(0, 1, 1)`` needs the two face neighbours it passes between
    (``(0, 1, 0)`` and ``(0, 0, 1)``); a three-axis move such as ``(1, 1, 1)`` needs
    the three face neighbours (``(1, 0, 0)``, ``(0, 1, 0)``, ``(0, 0, 1)``) and the
    three edge neighbours (``(1, 1, 0)``, ``(1, 0, 1)``, ``(0, 1, 1)``), that is,
    every other voxel of the 2 x 2 x 2 block it crosses. Offsets are relative to the
    voxel moved from; the rule depends only on walls, not on costs. With
    ``diagonal="always"`` corners may be cut: a move needs only the voxel it enters.

    A* uses the 3-D octile distance of the connectivity (the cost of the cheapest path
    in empty space, each voxel costing 1) times the smallest voxel cost: with the
    sorted absolute differences ``a >= b >= c``, ``a + b + c`` for 6 neighbours,
    ``sqrt(3) c + sqrt(2) (b - c) + (a - b)`` for 26, and for 18
    ``sqrt(2) (b + c) + (a - b - c)`` when ``a >= b + c``, else ``sqrt(2) floor(s / 2)
    + (s mod 2)`` with ``s = a + b + c``. It never overestimates and is consistent.

    Parameters
    ----------
    cost : array_like, shape (depth, rows, cols)
        Cost of entering each voxel ``(z, row, col)``: numbers > 0, ``np.inf`` for
        walls; or a boolean array, ``True`` walkable (cost 1) and ``False`` a wall.
        Copied: later changes to the array do not reach the grid.
    connectivity : {6, 18, 26}
        The moves (default 26).
    diagonal : {"no_corner_cut", "always"}
        The rule of diagonal moves (the names of :class:`~pathcraft.Grid`'s rules):
        ``"no_corner_cut"`` (default) as above, ``"always"`` to let them cut corners.

    Raises
    ------
    TypeError
        ``cost`` is not an integer, float or boolean array; ``connectivity`` is not
        an integer; ``diagonal`` is not a string.
    ValueError
        ``cost`` is not 3-D or is empty; a cost is NaN or <= 0; ``connectivity`` is
        not 6, 18 or 26; ``diagonal`` is not one of the rules.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import VoxelGrid
    >>> cost = np.ones((3, 4, 5))
    >>> cost[1, :3, :] = np.inf                     # a floor with a gap at row 3
    >>> world = VoxelGrid(cost, connectivity=26)
    >>> result = world.find_path((0, 0, 0), (2, 0, 0))
    >>> result.cost, result.path.shape   # straight up at row 3: no cutting the floor's edge
    (8.0, (9, 3))
    >>> VoxelGrid(np.ones((2, 2, 2)), connectivity=6).find_path((0, 0, 0), (1, 1, 1)).cost
    3.0
    """

    def __init__(
        self, cost: npt.ArrayLike, connectivity: int = 26, diagonal: str = "no_corner_cut"
    ) -> None:
        self._world = _run.build(cost, connectivity, diagonal)

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(depth, rows, cols)``: voxels are ``(z, row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((2, 3, 4))).shape
        (2, 3, 4)
        """
        return self._world.shape

    @property
    def connectivity(self) -> int:
        """The number of moves from a voxel: 6, 18 or 26.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((2, 2, 2)), connectivity=18).connectivity
        18
        """
        return self._world.connectivity

    @property
    def diagonal(self) -> str:
        """The rule of diagonal moves: ``"no_corner_cut"`` or ``"always"``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> cost = np.ones((2, 2, 2)); cost[0, 1, 1] = np.inf
        >>> strict = VoxelGrid(cost)
        >>> loose = VoxelGrid(cost, diagonal="always")
        >>> strict.diagonal, round(strict.find_path((0, 0, 0), (1, 1, 1)).cost, 3)
        ('no_corner_cut', 2.414)
        >>> loose.diagonal, round(loose.find_path((0, 0, 0), (1, 1, 1)).cost, 3)
        ('always', 1.732)
        """
        return self._world.diagonal

    @property
    def min_cost(self) -> float:
        """The smallest voxel cost (1.0 when every voxel is a wall): the scale of the
        A* heuristic.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.full((2, 2, 2), 3.0)).min_cost
        3.0
        """
        return self._world.hscale

    @property
    def cost(self) -> npt.NDArray[np.float64]:
        """The voxel costs, ``(depth, rows, cols)`` indexed by ``(z, row, col)``,
        ``inf`` for walls: a read-only view.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.array([[[True, False]]])).cost.tolist()
        [[[1.0, inf]]]
        """
        view = self._world.padded[1:-1, 1:-1, 1:-1]
        view.flags.writeable = False
        return view

    def neighbors(self, voxel: Voxel) -> list[tuple[Voxel, float]]:
        """The voxels one legal move away from the ``(z, row, col)`` voxel, with the
        cost of each step (the generic search's neighbour function); none from a
        wall.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((1, 2, 2)), connectivity=18).neighbors((0, 0, 0))
        [((0, 0, 1), 1.0), ((0, 1, 0), 1.0), ((0, 1, 1), 1.4142135623730951)]
        """
        _run.flat_voxel(self._world, "voxel", voxel, walkable=False)
        return _run.neighbours(self._world, voxel)

    def nearest_walkable(self, cells: Any, *, max_distance: float | None = None) -> Any:
        """The nearest walkable cell to each cell, inside the world or not: what
        ``snap=True`` moves a start or goal to (:meth:`find_path`, :meth:`start_search`,
        :meth:`find_paths`, :meth:`path_costs`, and agents built with it). A walkable cell
        is its own answer; otherwise the nearest by the Euclidean distance between ``(z,
        row, col)`` voxels, ties to the smallest. ``cells`` is one ``(z, row, col)`` voxel
        or a ``(k, 3)`` array; only cells at most ``max_distance`` away count (None: any).
        Answers, errors and cost (the neighbourhood searched, not the world) as
        :meth:`pathcraft.Grid.nearest_walkable`: a tuple, or None when there is none; for an
        array, ``-1`` rows where there is none.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> walkable = np.zeros((2, 2, 2), dtype=bool)
        >>> walkable[0, 0, :] = walkable[1, 1, 1] = True
        >>> cave = VoxelGrid(walkable)
        >>> cave.nearest_walkable((0, 1, 0)), cave.nearest_walkable((5, 1, 1))
        ((0, 0, 0), (1, 1, 1))
        >>> cave.find_path((0, 1, 0), (0, 0, 1), snap=True).path.tolist()   # from (0, 0, 0)
        [[0, 0, 0], [0, 0, 1]]
        """
        return _cellworld.nearest_walkable(self._world, cells, max_distance)

    def find_path(
        self, start: Voxel, goal: Voxel, *, algorithm: str = "astar", **options: Any
    ) -> PathResult:
        """A cheapest path between two ``(z, row, col)`` voxels.

        Parameters
        ----------
        start, goal : (int, int, int)
            Walkable voxels, ``(z, row, col)``. Dijkstra also takes several voxels (a
            ``(k, 3)`` array) for either, and ``goal=None`` (every reachable voxel: the
            result's ``distances`` and ``path_to``).
        algorithm : str
            ``"astar"`` (3-D octile heuristic), ``"dijkstra"`` or ``"greedy"``.
        **options
            The search options (README, "One way to ask every world"); ``heuristic``
            is ``"octile"`` (the default) or ``"zero"``.

        Returns
        -------
        PathResult
            Its path an ``(n, 3)`` array of ``(z, row, col)`` voxels from start to
            goal; empty (falsy) with a reason when there is no path.

        Raises
        ------
        TypeError, ValueError
            A voxel that is not three integers, is outside the grid or is a wall; an
            unknown algorithm or a bad option value.
        pathcraft._options.UnsupportedOptionError
            An option the algorithm does not take.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> walled = np.ones((2, 1, 3), dtype=bool); walled[:, :, 1] = False
        >>> VoxelGrid(walled).find_path((0, 0, 0), (1, 0, 2)).reason
        'unreachable'
        >>> VoxelGrid(np.ones((1, 1, 4))).find_path((0, 0, 0), (0, 0, 3)).path.tolist()
        [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]]
        """
        return _cellworld.find_path(self._world, start, goal, algorithm, options, self._kept())

    def start_search(
        self, start: Voxel, goal: Voxel, *, algorithm: str = "astar", **options: Any
    ) -> CompiledSearch:
        """The search :meth:`find_path` runs, as a compiled search stepped a few
        expansions at a time (``step(n)``; ``result`` once it ended). Voxels are
        ``(z, row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> line = VoxelGrid(np.ones((5, 1, 1)))
        >>> search = line.start_search((0, 0, 0), (4, 0, 0), algorithm="dijkstra")
        >>> search.step(2), search.step(), search.result.path.tolist()[-1]
        ('in_progress', 'found', [4, 0, 0])
        """
        return _cellworld.start_search(
            self._world, start, goal, algorithm, options, None, self._kept()
        )

    # ------------------------------------------------------------------ reachability

    _EMPTY_PATH = np.empty((0, 3), dtype=np.intp)

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which voxels reach each other: the connected components of the walkable
        ``(z, row, col)`` voxels under the grid's connectivity and diagonal rule.

        Built on first use (one compiled pass over every move) and kept: from then
        on :meth:`find_path` (and the shorthands) and :meth:`start_search` answer a
        goal out of reach at once (``reason="unreachable"``, nothing expanded; not
        with ``partial=True``, which explores to return the closest place, nor
        ``record=True``, several starts or goals; the batches search as before).

        Returns
        -------
        labels : ndarray of int32, shape (depth, rows, cols)
            The component of every voxel, ``0`` to ``count - 1``; ``-1`` on walls.
        count : int
            The number of components.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> cost = np.ones((2, 2, 2)); cost[0, 0, 1] = cost[0, 1, 0] = np.inf
        >>> cost[1] = np.inf
        >>> VoxelGrid(cost, connectivity=26).components()[1]   # corners cut: no
        2
        >>> VoxelGrid(cost, connectivity=26, diagonal="always").components()[1]
        1
        """
        return cell_components(self._world, self._reachability().labels())

    def places(self) -> list[tuple[int, ...]]:
        """Capability ``"places"``: every walkable voxel ``(z, row, col)``, in the order of
        the array (what :class:`pathcraft.mapf.Reservations` numbers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.array([[[1.0, np.inf]], [[1.0, 1.0]]])).places()
        [(0, 0, 0), (1, 0, 0), (1, 0, 1)]
        """
        return _cellworld.labelled_places(self.components()[0])

    def reachable(self, start: Any, goal: Any) -> bool:
        """Whether a path joins the ``(z, row, col)`` voxels ``start`` and ``goal``:
        one read of the labels of :meth:`components` (built on first use).

        Raises
        ------
        ValueError, TypeError
            A voxel :meth:`find_path` refuses (outside the grid, a wall, not three
            integers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> cost = np.ones((3, 1, 1)); cost[1] = np.inf
        >>> grid = VoxelGrid(cost)
        >>> grid.reachable((0, 0, 0), (2, 0, 0)), grid.find_path((0, 0, 0), (2, 0, 0)).expanded
        (False, 0)
        """
        return _cellworld.reachable(self._world, self._reachability(), start, goal)

    def _move_graph(self) -> Moves:
        # a move sweeps the same voxels both ways: every move can be undone
        return cell_moves(self._world, _run.moves(self._world), directed=False)

    def distance_field(
        self, sources: Voxel | npt.ArrayLike, *, parents: bool = False,
        max_cost: float | None = None,
    ) -> npt.NDArray[np.float64] | _cellworld.Tree:  # fmt: skip
        """The cost from the nearest of ``sources`` (one ``(z, row, col)`` voxel or a
        ``(k, 3)`` array of them) to every voxel, ``inf`` for walls and voxels out of
        reach (or beyond ``max_cost``); indexed ``[z, row, col]``.
        With ``parents=True``, also each cell's parent on a cheapest path from the
        nearest source: an array of ``(z, row, col)`` along its last axis, ``-1`` for
        sources, walls and cells not reached (as :meth:`pathcraft.Grid.distance_field`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((2, 1, 3)), connectivity=6).distance_field((0, 0, 0))
        array([[[0., 1., 2.]],
        <BLANKLINE>
               [[1., 2., 3.]]])
        >>> costs, tree = VoxelGrid(np.ones((2, 1, 3)), connectivity=6).distance_field(
        ...     (0, 0, 0), parents=True)
        >>> tree[1, 0, 2].tolist()
        [0, 0, 2]
        """
        return _cellworld.distance_field(self._world, sources, max_cost, parents)

    def find_paths(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, *, algorithm: str = "astar",
        **options: Any,
    ) -> list[PathResult]:  # fmt: skip
        """Many searches at once, in parallel: one result per pair
        ``(starts[i], goals[i])`` of ``(z, row, col)`` voxels, each what
        :meth:`find_path` gives; ``workers``, ``executor``, ``chunk_size`` and
        ``progress`` as in :meth:`pathcraft.Grid.find_paths`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> world = VoxelGrid(np.ones((3, 3, 3)), connectivity=6)
        >>> [r.cost for r in world.find_paths([(0, 0, 0), (1, 1, 1)], [(2, 2, 2), (1, 1, 2)])]
        [6.0, 1.0]
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
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((3, 3, 3))).path_costs([(0, 0, 0), (1, 1, 1)], [(2, 2, 2), (1, 1, 1)])
        array([3.46410162, 0.        ])
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world, "path_costs", starts, goals, algorithm, options
        )

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world.

    #: The name of a saved voxel grid (:func:`pathcraft.io.save`).
    kind = "voxelgrid"

    @property
    def version(self) -> int:
        """Always 0: a voxel grid is never edited (the query contract's ``version``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((1, 1, 2))).version
        0
        """
        return 0

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost``, ``connectivity`` and ``diagonal``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> sorted(VoxelGrid(np.ones((1, 2, 2))).to_arrays())
        ['connectivity', 'cost', 'diagonal']
        """
        return {
            "cost": np.array(self.cost, dtype=np.float64),
            "connectivity": np.array(self.connectivity, dtype=np.int64),
            "diagonal": np.array(self.diagonal),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> VoxelGrid:
        """Capability ``"save"``: the voxel grid :meth:`to_arrays` wrote, checked again.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid.from_arrays(VoxelGrid(np.ones((2, 2, 2)), 6).to_arrays()).connectivity
        6
        """
        a = SavedArrays(arrays, cls.kind)
        return cls(
            a.take("cost", "float", 3), int(a.take("connectivity", "int", 0)),
            a.take("diagonal", "str", 0),
        )  # fmt: skip

    def agent_space(self) -> CellSpace:
        """Capability ``"agent_space"``: agents move from voxel to voxel, nodes
        ``(z, row, col)``, positions ``(col + 0.5, row + 0.5)`` (seen from above).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((2, 2, 2))).agent_space().point((1, 0, 1))
        (1.5, 0.5)
        """
        return CellSpace(
            self, lambda cell: float(self.cost[cell]), costs=lambda: self.cost,
            moves=lambda: _run.moves(self._world),
        )  # fmt: skip

    plot = refused("VoxelGrid", "plot", "plot", "3-D pictures are to come")
    replan_space = refused("VoxelGrid", "replan_space", "replanner", _NEVER_EDITED)
    replanner = refused("VoxelGrid", "replanner", "replanner", _NEVER_EDITED)

register_kind(VoxelGrid)
