"""The cell worlds as agents' space: :class:`CellSpace`, a
:class:`pathcraft.agents.Space` over a world whose places are tuples of ints (the
hexagonal and move grids' ``(row, col)``, a voxel grid's ``(z, row, col)``, a level's
``(floor, row, col)``), what their ``agent_space()`` returns; and :func:`walkable_at`,
which points of the plane lie in walkable cells (from :mod:`pathcraft._floors`).

It asks the world for everything: ``find_path`` and ``start_search`` plan, the
world's ``neighbors`` give each step's cost, and a point function the world passes in
places a cell in the plane, ``(x, y)``.

Examples
--------
>>> import numpy as np
>>> from pathcraft.hexgrid import MovesGrid
>>> space = MovesGrid(np.ones((1, 4)), [(0, 1), (0, -1)]).agent_space()
>>> path = space.nodes(space.find_path((0, 0), (0, 3)))
>>> path, space.step_costs(path).tolist(), space.point((0, 3))
([(0, 0), (0, 1), (0, 2), (0, 3)], [1.0, 1.0, 1.0], (3.5, 0.5))
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from pathcraft._core.quick import cell_tuples
from pathcraft._floors import walkable_at
from pathcraft._moveflow import MoveFlow, Moves, flat_goals
from pathcraft.graph.kit import reversed_field
from pathcraft.world import refuse

if TYPE_CHECKING:
    from pathcraft.result import PathResult

__all__ = ["NO_FLOOR", "CellSpace", "centre", "walkable_at"]

Cell = tuple[int, ...]

#: Why a world of 3-D cells has no floor for ``(x, y)`` agents.
NO_FLOOR = (
    "its cells are 3-D (voxels, a level's floors): an (x, y) agent position cannot "
    "name its layer; chase it with Pursuer, whose nodes are its cells"
)


def centre(cell: Cell) -> tuple[float, float]:
    """The centre ``(x, y)`` of a square cell whose last two numbers are
    ``(row, col)``: ``(col + 0.5, row + 0.5)`` (a voxel's or floor's ``z`` dropped).

    Examples
    --------
    >>> from pathcraft._cellspace import centre
    >>> centre((2, 1, 3))
    (3.5, 1.5)
    """
    return float(cell[-1]) + 0.5, float(cell[-2]) + 0.5


class CellSpace:
    """A cell world as a :class:`~pathcraft.agents.Space`: nodes are tuples of ints.

    Parameters
    ----------
    world : HexGrid, MovesGrid, VoxelGrid or Level
        The world; it may change between searches where it can.
    cost_at : callable
        The cost of one cell (``inf`` for a wall), read live.
    point : callable
        The ``(x, y)`` of a cell.
    floor : callable or str
        What :meth:`floor` returns, made on demand (a
        :class:`~pathcraft.agents.spaces.Floor`); a string: why the world has none
        (its cells are not places of one plane), the reason :meth:`floor` refuses with.
    costs : callable
        The whole cost array now (the world's shape; ``inf`` walls).
    moves : callable or None
        The world's moves as flat arrays ``(tails, heads, weights)`` (places numbered
        row-major); None: read from the world's ``neighbors``, cell by cell.
    """

    __slots__ = ("_cost_at", "_costs", "_floor", "_moves", "_point", "world")

    def __init__(
        self,
        world: Any,
        cost_at: Callable[[Cell], float],
        point: Callable[[Cell], tuple[float, float]] = centre,
        *,
        floor: Callable[[], Any] | str = NO_FLOOR,
        costs: Callable[[], npt.NDArray[np.float64]],
        moves: Callable[[], Moves] | None = None,
    ) -> None:
        self.world = world
        self._cost_at = cost_at
        self._point = point
        self._floor = floor
        self._costs = costs
        self._moves = moves

    def moves(self) -> Moves:
        """The world's moves now: flat arrays ``(tails, heads, weights)``, a step from
        cell ``tails[i]`` to ``heads[i]`` (numbered row-major over the world's shape)
        costing ``weights[i]``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> tails, heads, weights = MovesGrid(np.ones((1, 3)), [(0, 1)]).agent_space().moves()
        >>> tails.tolist(), heads.tolist(), weights.tolist()
        ([0, 1], [1, 2], [1.0, 1.0])
        """
        if self._moves is not None:
            return self._moves()
        shape = tuple(self.world.shape)
        tails, heads, weights = [], [], []
        for cell in np.argwhere(np.isfinite(self._costs())).tolist():
            here = int(np.ravel_multi_index(cell, shape))
            for near, step in self.world.neighbors(tuple(cell)):
                tails.append(here)
                heads.append(int(np.ravel_multi_index(near, shape)))
                weights.append(step)
        return (
            np.array(tails, dtype=np.intp),
            np.array(heads, dtype=np.intp),
            np.array(weights, dtype=np.float64),
        )

    def flow_field(self, goals: Any, size: int = 1) -> Any:
        """The flow field toward ``goals`` (one cell, or a ``(k, ndim)`` array) over
        the world's moves (:class:`~pathcraft._moveflow.MoveFlow`): what
        :class:`~pathcraft.agents.FlowField` asks for. Units are one cell.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((1, 3))).agent_space().flow_field((0, 2)).next_cell[0, 0].tolist()
        [0, 1]
        """
        if size != 1 or isinstance(size, bool):
            raise ValueError(
                f"size must be 1 on a {type(self.world).__name__} (units larger than one "
                f"cell move on grids); got {size!r}"
            )
        shape = tuple(int(n) for n in self.world.shape)

        def many(value: Any) -> list[Hashable]:
            arr = np.asarray(value)
            if arr.ndim == 1:
                arr = arr.reshape(1, -1)
            if arr.ndim != 2 or arr.shape[1] != len(shape) or arr.shape[0] == 0:
                raise ValueError(
                    f"goals must be a cell of {len(shape)} ints or a (k, {len(shape)}) "
                    f"array; got {value!r}"
                )
            return [self.key(tuple(c), "goals") for c in arr.tolist()]

        flat = flat_goals(goals, many, lambda c: int(np.ravel_multi_index(cast(Cell, c), shape)))

        def cell(i: int) -> Cell:
            return tuple(int(v) for v in np.unravel_index(i, shape))

        return MoveFlow(
            self.world, shape, flat, self.moves, lambda i: self.point(cell(i)),
            lambda i: math.isfinite(self._cost_at(cell(i))), reversed_field, goals,
        )  # fmt: skip

    def floor(self) -> Any:
        """Where ``(x, y)`` agents may stand and how they move there (a
        :class:`~pathcraft.agents.spaces.Floor`): a hex grid's hexes, a move grid's
        free space (its jumps are the motion).

        Raises
        ------
        CapabilityError
            A world whose cells are not places of one plane (a voxel grid, a level's
            floors), naming it.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> VoxelGrid(np.ones((2, 2, 2))).agent_space().floor()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft.world.CapabilityError: VoxelGrid does not provide agent_space: ...
        """
        if isinstance(self._floor, str):
            refuse(self.world, "agent_space", self._floor)
        return self._floor()

    def key(self, node: Any, name: str = "node") -> Cell:
        """``node`` checked (inside the world, not a wall) as a tuple of ints;
        ``name`` is the argument's name in the error raised.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import VoxelGrid
        >>> space = VoxelGrid(np.array([[[True, False]]])).agent_space()
        >>> space.key(np.array([0, 0, 0]))
        (0, 0, 0)
        >>> space.key((0, 0, 1), name="start")
        Traceback (most recent call last):
        ...
        ValueError: start (0, 0, 1) is a wall
        """
        shape = tuple(self.world.shape)
        parts = list(node) if isinstance(node, Sequence | np.ndarray) else None
        if (
            parts is None
            or len(parts) != len(shape)
            or not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in parts)
        ):
            raise TypeError(f"{name} must be a cell of {len(shape)} ints; got {node!r}")
        cell = tuple(int(x) for x in parts)
        if not all(0 <= x < n for x, n in zip(cell, shape, strict=True)):
            raise ValueError(f"{name} {cell} is outside the world of shape {shape}")
        if not math.isfinite(self._cost_at(cell)):
            raise ValueError(f"{name} {cell} is a wall")
        return cell

    def snap(self, node: Any, name: str = "node") -> Cell:
        """The nearest walkable cell to ``node`` (a cell on a wall or outside the
        world; the world's ``nearest_walkable``), checked as :meth:`key` checks it:
        what agents built with ``snap=True`` use in place of :meth:`key`.

        Raises
        ------
        ValueError
            No walkable cell to move it to (the message names ``name``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.array([[1.0, np.inf]])).agent_space().snap((0, 1))
        (0, 0)
        """
        found = self.world.nearest_walkable(node)
        if not isinstance(found, tuple):
            raise ValueError(f"{name} {node!r}: the world has no walkable cell to move it to")
        return self.key(found, name)

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The world's :meth:`find_path` (its default algorithm, A*).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 3))).agent_space().find_path((0, 0), (1, 2)).cost
        3.0
        """
        result: PathResult = self.world.find_path(start, goal, max_expansions=max_expansions)
        return result

    #: Its searches in progress can tell their best partial path (``start_search(...,
    #: partial=True)``, then ``search.best_so_far()``): a budgeted Pursuer walks it.
    PARTIAL_PLANS = True

    def start_search(
        self,
        start: Hashable,
        goal: Hashable,
        *,
        max_expansions: int | None = None,
        partial: bool = False,
    ) -> Any:
        """:meth:`find_path`'s search, stepped a few expansions at a time; with
        ``partial`` it tells its best partial path while in progress
        (:meth:`~pathcraft.CompiledSearch.best_so_far`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> search = HexGrid(np.ones((1, 3))).agent_space().start_search((0, 0), (0, 2))
        >>> search.step(10), search.result.cost
        ('found', 2.0)
        """
        return self.world.start_search(
            start, goal, max_expansions=max_expansions, partial=partial
        )

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The cells of ``result``'s path as tuples.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> space = Level([np.ones((1, 2))]).agent_space()
        >>> space.nodes(space.find_path((0, 0, 0), (0, 0, 1)))
        [(0, 0, 0), (0, 0, 1)]
        """
        width = len(self.world.shape)
        cells = np.asarray(result.path, dtype=np.intp).reshape(-1, width)  # (no path: [])
        return cell_tuples(cells, width)  # type: ignore[return-value]

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The cost of each step of ``path``: the cheapest move of the world's
        ``neighbors`` from one cell to the next.

        Raises
        ------
        ValueError
            Two cells of ``path`` that are not one move apart.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.array([[1.0, 3.0]])).agent_space().step_costs([(0, 0), (0, 1)]).tolist()
        [3.0]
        """
        out = np.empty(max(len(path) - 1, 0))
        for i in range(len(path) - 1):
            here, there = path[i], tuple(cast(Sequence[int], path[i + 1]))
            costs = [w for cell, w in self.world.neighbors(here) if tuple(cell) == there]
            if not costs:
                raise ValueError(f"path steps from {here} to {there}, which is not one move")
            out[i] = min(costs)
        return out

    def point(self, node: Hashable) -> tuple[float, float]:
        """Where cell ``node`` is, ``(x, y)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 2)), layout="odd-r").agent_space().point((1, 0))
        (1.0, 1.5)
        """
        return self._point(node)  # type: ignore[arg-type]
