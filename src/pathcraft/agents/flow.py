"""Flow fields: the next cell toward the nearest goal for every cell of a world, kept
up to date while the world changes (the field :class:`~pathcraft.agents.Crowd`
steers by; also useful alone for many units sharing goals). The world's space builds
it: a grid's is repaired in place (:mod:`pathcraft.grid._flow`), the other
worlds' are built over their moves (:mod:`pathcraft._moveflow`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.agents.spaces import space_for
from pathcraft.world import CapabilityError

__all__ = ["FlowField"]


class FlowField:
    """The next cell toward the nearest goal, for every cell of a world, kept up to
    date while the world changes.

    The world's space builds it (its ``flow_field``; :func:`~pathcraft.agents.space_for`
    asks for the space): on a :class:`~pathcraft.Grid`, repaired in place after edits
    (below); on a hexagonal, move or voxel grid, a level, a graph or a waypoint graph,
    over the world's own moves (:mod:`pathcraft._moveflow`): the exact cost
    from every place to the nearest goal (Dijkstra over the reversed moves, so one-way
    moves and the cost of each cell entered are priced as the agent walks), each
    place pointing at the head of its move minimising step + distance, and built again
    (not repaired) when the world changes. A world without it (a navigation mesh) is
    refused by name (:class:`~pathcraft.world.CapabilityError`).

    **On a grid.** Built from :meth:`Grid.distance_field` of the goals: each cell points at the
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
    grid : world
        A :class:`~pathcraft.Grid`, :class:`~pathcraft.hexgrid.HexGrid`,
        :class:`~pathcraft.hexgrid.MovesGrid`, :class:`~pathcraft.VoxelGrid`,
        :class:`~pathcraft.Level`, :class:`~pathcraft.Graph` or
        :class:`~pathcraft.WaypointGraph` (or their space).
    goals : cell or array_like (k, ndim), or node label(s)
        Goal cells (``(row, col)``, ``(z, row, col)``, ``(floor, row, col)``), or a
        graph's node label or a list of them (a waypoint graph's waypoint indices).
    size : int
        The side of the units' square, in cells (see :meth:`Grid.for_size
        <pathcraft.grid.Grid.for_size>`): the field is then that of their **top-left**
        cells, which never lead the unit over a wall (cells where it does not fit are
        ``inf`` and point at themselves). Goals must fit the unit. Grids only: other
        worlds take 1.

    Attributes
    ----------
    size : int
        The unit size the field was built for.
    grid : world
        The world the field follows.
    goals : ndarray of intp (k, ndim) or (k,)
        The goal cells, or a graph's goal node indices.
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

    On a one-way conveyor of a move grid, and on a graph (next node indices):

    >>> import numpy as np
    >>> from pathcraft import Graph
    >>> from pathcraft.hexgrid import MovesGrid
    >>> belt = FlowField(MovesGrid(np.ones((1, 4)), [(0, 1)]), (0, 3))
    >>> belt.distance.tolist(), belt.next_cell[0, 0].tolist()
    ([[3.0, 2.0, 1.0, 0.0]], [0, 1])
    >>> FlowField(Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)]), 2).next_cell.tolist()
    [1, 2, 2]
    """

    __slots__ = ("_field", "grid")

    def __init__(self, grid: Any, goals: Any, *, size: int = 1) -> None:
        space = space_for(grid)
        make = getattr(space, "flow_field", None)
        if not callable(make):
            raise CapabilityError(
                type(grid).__name__, "agent_space",
                "FlowField needs a space with flow_field(goals, size): a distance field "
                "and the world's moves",
            )  # fmt: skip
        self.grid = grid
        self._field = make(goals, size)

    @property
    def size(self) -> int:
        """The unit size the field was built for."""
        return int(self._field.size)

    @property
    def goals(self) -> npt.NDArray[np.intp]:
        """The goal cells (or a graph's goal node indices)."""
        goals: npt.NDArray[np.intp] = self._field.goals
        return goals

    @property
    def last_repair(self) -> tuple[int, int, int, int] | None:
        """What the last :meth:`update` that found edits did (see the class)."""
        done: tuple[int, int, int, int] | None = self._field.last_repair
        return done

    def update(self) -> int:
        """Take in the world's edits since the field last looked; return how many
        cells changed (0, in a version check, when none did). Reading
        :attr:`distance`, :attr:`next_cell` or :attr:`direction` calls it first.

        On a grid a repair costs what the change reaches; when more than an eighth of
        the cells changed, or the grid's log no longer reaches back to the field's
        version, the field is built again instead (as it always is on other worlds).

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
        return int(self._field.update())

    @property
    def distance(self) -> npt.NDArray[np.float64]:
        """The distance field, shaped as the world's places (inf: walls and cells no
        goal reaches); a read-only view, kept up to date after the world's edits."""
        out: npt.NDArray[np.float64] = self._field.distance
        return out

    @property
    def next_cell(self) -> npt.NDArray[np.intp]:
        """The cell to go to next, its coordinates along the last axis (``(rows, cols,
        2)`` on a grid); a graph's next node indices; a goal and an unreachable
        place point at themselves."""
        out: npt.NDArray[np.intp] = self._field.next_cell
        return out

    @property
    def direction(self) -> npt.NDArray[np.float64]:
        """The unit ``(x, y)`` direction to the next cell's centre (point), shape
        ``(*shape, 2)``; 0 where it is itself."""
        out: npt.NDArray[np.float64] = self._field.direction
        return out
