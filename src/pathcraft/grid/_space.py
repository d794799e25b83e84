"""The grid as agents' space (:class:`GridSpace`, a :class:`pathcraft.agents.Space`):
what :meth:`Grid.agent_space <pathcraft.grid.Grid.agent_space>` returns. Cells are
``(row, col)``; a cell's centre is the point ``(col + 0.5, row + 0.5)`` in ``(x, y)``."""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
import numpy.typing as npt

from pathcraft._core.quick import cell_tuples
from pathcraft._floors import SquareFloor, walkable_at
from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.grid._flow import GridFlow
from pathcraft.grid._nearest import nearest_walkable, open_cell
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid
    from pathcraft.result import PathResult

__all__ = ["GridSpace"]

_SQRT2 = float(np.sqrt(2.0))
#: Lists of up to this many cells get their step costs by a loop, longer ones by arrays.
_SHORT = 512
#: Expansions of the greedy search :meth:`GridSpace.toward` takes (a path of up to
#: about as many cells: a few seconds of walking, for ten microseconds or so).
TOWARD = 16


class GridSpace:
    """A :class:`~pathcraft.grid.Grid` as a :class:`Space`: nodes are ``(row, col)``.

    Parameters
    ----------
    grid : Grid
        The grid; it may change between searches (``grid[r, c] = cost``).
    algorithm : {"auto", "astar", "jps"}
        How paths are found. ``"auto"`` uses jump point search where it applies (an
        8-connected grid of uniform cost: the same optimal cost as A*, many times
        faster on open maps) and A* elsewhere.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import GridSpace
    >>> space = GridSpace(Grid.from_ascii("...", diagonal="never"))
    >>> path = space.nodes(space.find_path((0, 0), (0, 2)))
    >>> path, space.step_costs(path).tolist(), space.point((0, 2))
    ([(0, 0), (0, 1), (0, 2)], [1.0, 1.0], (2.5, 0.5))
    """

    __slots__ = ("algorithm", "grid")

    def __init__(self, grid: Grid, *, algorithm: Literal["auto", "astar", "jps"] = "auto") -> None:
        if kind_of(grid) != "grid":
            raise TypeError(f"grid must be a pathcraft Grid; got {type(grid).__name__}")
        self.grid = grid
        self.algorithm: str = check_choice("algorithm", algorithm, ("auto", "astar", "jps"))

    @property
    def world(self) -> Any:
        """The grid agents move through (its edits are watched)."""
        return self.grid

    def key(self, node: Any, name: str = "node") -> tuple[int, int]:
        """``node``, a ``(row, col)`` cell, checked (on the grid, not a wall) as a tuple
        of ints; ``name`` is the argument's name in the error raised.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..#"))
        >>> space.key(np.array([0, 1]))
        (0, 1)
        >>> space.key((0, 2), name="start")
        Traceback (most recent call last):
        ...
        ValueError: start (0, 2) is a wall
        """
        if open_cell(self.grid.padded, node):  # the common case, without NumPy
            return cast(tuple[int, int], node)
        row, col = self.grid.check_cells(node, name=name, many=False)[0].tolist()
        return row, col

    def open_nodes(self, nodes: Sequence[Any]) -> npt.NDArray[np.bool_]:
        """Which of ``nodes`` :meth:`key` returns as they are: walkable cells given as
        ``(row, col)`` tuples of two ints, checked together (one NumPy pass, not a
        check per node: what a :class:`~pathcraft.agents.PathRequestQueue` renewing
        many agents' requests asks). Any other node is False (:meth:`key` says what is
        wrong with it, or converts it).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..#"))
        >>> space.open_nodes([(0, 0), (0, 2), (0, 9), [0, 1], (0, np.int64(1))]).tolist()
        [True, False, False, False, False]
        """
        padded = self.grid.padded
        cells = None
        if set(map(type, nodes)) == {tuple} and set(map(len, nodes)) == {2}:
            flat = list(chain.from_iterable(nodes))  # all pairs: their items, at C speed
            if set(map(type, flat)) == {int}:
                with contextlib.suppress(OverflowError):  # an int past int64: off the grid
                    cells = np.fromiter(flat, dtype=np.int64, count=len(flat)).reshape(-1, 2)
        if cells is None:  # some are not plain pairs: checked one by one
            return np.array([open_cell(padded, n) for n in nodes], dtype=bool)
        rows, cols = cells[:, 0], cells[:, 1]
        inside = (rows >= 0) & (rows < padded.shape[0] - 2)
        inside &= (cols >= 0) & (cols < padded.shape[1] - 2)
        ok: npt.NDArray[np.bool_] = inside.copy()
        ok[inside] = np.isfinite(padded[rows[inside] + 1, cols[inside] + 1])
        return ok

    def snap(self, node: Any, name: str = "node") -> tuple[int, int]:
        """The nearest walkable cell to ``node``, a ``(row, col)`` cell on a wall or
        outside the grid (:meth:`Grid.nearest_walkable
        <pathcraft.grid.Grid.nearest_walkable>`), checked as :meth:`key` checks it:
        what agents built with ``snap=True`` use in place of :meth:`key`.

        Raises
        ------
        ValueError
            The grid has no walkable cell (the message names ``name``).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..#"))
        >>> space.snap((0, 2)), space.snap((5, -3)), space.snap((0, 0))
        ((0, 1), (0, 0), (0, 0))
        """
        padded = self.grid.padded
        if open_cell(padded, node):  # a walkable cell, the common case: its own answer
            return cast(tuple[int, int], node)
        found, one = nearest_walkable(padded, node, None, name)
        if not one:
            raise ValueError(f"{name} must be one (row, col) pair; got shape {found.shape}")
        row, col = found[0].tolist()
        if row < 0:
            raise ValueError(f"{name} {node!r}: the grid has no walkable cell to move it to")
        return row, col

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The optimal path between two ``(row, col)`` cells, by jump point search or A*
        (see ``algorithm``); ``max_expansions`` as in :meth:`Grid.find_path
        <pathcraft.grid.Grid.find_path>`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> grid = Grid.from_ascii('''
        ... ...
        ... .#.
        ... ...
        ... ''')
        >>> jps = GridSpace(grid).find_path((0, 0), (2, 2))
        >>> astar = GridSpace(grid, algorithm="astar").find_path((0, 0), (2, 2))
        >>> jps.cost, astar.cost, jps.jump_points.tolist(), astar.jump_points
        (4.0, 4.0, [[0, 0], [0, 2], [2, 2]], None)
        """
        if self._astar():  # (called directly: a budgeted pursuer's every plan)
            found: PathResult = self.grid.find_path(
                cast(tuple[int, int], start), cast(tuple[int, int], goal),
                algorithm="astar", max_expansions=max_expansions,
            )  # fmt: skip
            return found
        result: PathResult = self._jps_first(self.grid.find_path, start, goal, max_expansions)
        return result

    def toward(self, start: Hashable, goal: Hashable) -> PathResult | None:
        """A few cells from ``start`` toward ``goal``: a greedy search of
        :data:`TOWARD` expansions with ``partial=True`` (the path to the cell it
        reached closest to the goal, legal steps of this grid); None when no cell
        it reached is closer than ``start``. What a budgeted
        :class:`~pathcraft.agents.Pursuer` walks while a plan that tells no partial
        path is found (a search not asked ``partial=True``).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("." * 40, diagonal="never"))
        >>> len(space.toward((0, 0), (0, 39)).path), space.toward((0, 5), (0, 5))
        (16, None)
        """
        result = self.grid.find_path(
            cast(tuple[int, int], start), cast(tuple[int, int], goal),
            algorithm="greedy", max_expansions=TOWARD, partial=True,
        )  # fmt: skip
        return result if len(result.path) > 1 else None

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
    ) -> CompiledSearch:
        """:meth:`find_path`'s search as a compiled search (``world.start_search``),
        stepped a few expansions at a time (``search.step(n)``); ``partial`` as in
        :meth:`Grid.find_path <pathcraft.grid.Grid.find_path>` (and then the search
        tells its best partial path while in progress, a jump point search through
        its jump points: :meth:`~pathcraft.CompiledSearch.best_so_far`).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> search = GridSpace(Grid.from_ascii("....")).start_search((0, 0), (0, 3))
        >>> search.step(1), search.step(1), search.result.cost    # JPS: two jump points
        ('in_progress', 'found', 3.0)
        """
        if self._astar():  # (called directly: a budgeted pursuer's every sliced plan)
            started: CompiledSearch = self.grid.start_search(
                cast(tuple[int, int], start), cast(tuple[int, int], goal),
                algorithm="astar", max_expansions=max_expansions, partial=partial,
            )  # fmt: skip
            return started
        search: CompiledSearch = self._jps_first(
            self.grid.start_search, start, goal, max_expansions, partial=partial
        )
        return search

    def _astar(self) -> bool:
        """Whether this space searches by A* alone: asked to, or ``"auto"`` on a grid
        where jump point search does not apply (its diagonal rule, or costs that
        vary); else it tries JPS first (:meth:`_jps_first`)."""
        algorithm = self.algorithm
        return algorithm == "astar" or (
            algorithm == "auto"
            and (
                self.grid.diagonal not in ("no_corner_cut", "always")
                or self.grid.uniform_cost is None  # costs vary: no JPS tried and refused
            )
        )

    def _jps_first(
        self, method: Any, start: Hashable, goal: Hashable, limit: int | None, **more: Any
    ) -> Any:
        """``method(start, goal, algorithm="jps", max_expansions=limit, **more)``, or
        with ``"astar"`` where the grid refuses JPS and the space's algorithm is
        ``"auto"`` (where :meth:`_astar` is False)."""
        s, g = cast(tuple[int, int], start), cast(tuple[int, int], goal)
        try:
            return method(s, g, algorithm="jps", max_expansions=limit, **more)
        except ValueError:
            if self.algorithm == "jps":
                raise
            return method(s, g, algorithm="astar", max_expansions=limit, **more)  # costs vary

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The cells of ``result``'s path as ``(row, col)`` tuples.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents.spaces import GridSpace
        >>> space = GridSpace(Grid.from_ascii(".."))
        >>> space.nodes(space.find_path((0, 0), (0, 1)))
        [(0, 0), (0, 1)]
        """
        cells = np.asarray(result.path, dtype=np.intp).reshape(-1, 2)  # (no path: [])
        return cell_tuples(cells)  # type: ignore[return-value]

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The cost of each step of a path of ``(row, col)`` cells: the cost of the cell
        entered, times ``sqrt(2)`` for a diagonal step.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii('''
        ... .2
        ... .4
        ... '''))
        >>> space.step_costs([(0, 0), (0, 1), (1, 0)]).round(4).tolist()
        [2.0, 1.4142]
        """
        n = len(path)
        if n < 2:
            return np.zeros(0)
        if n <= _SHORT and not isinstance(path, np.ndarray):
            # A loop over a list of cells costs a third of the arrays' for a
            # pursuer's short plans (3 against 10 us for 11 cells, most of a plan
            # beside its search: the list's conversion to an array), as much from
            # about 500 cells on; the products are the same floats.
            at = self.grid.padded.item  # (cell (r, c) at (r + 1, c + 1))
            out = []
            listed = cast("Sequence[tuple[int, int]]", path)
            pr, pc = listed[0]
            for r, c in listed[1:]:
                step = at(r + 1, c + 1)
                out.append(step * _SQRT2 if abs(r - pr) + abs(c - pc) == 2 else step * 1.0)
                pr, pc = r, c
            return np.array(out, dtype=np.float64)
        cells = np.asarray(path, dtype=np.intp)
        moves = np.abs(np.diff(cells, axis=0)).sum(axis=1)
        length = np.where(moves == 2, _SQRT2, 1.0)
        return np.asarray(self.grid.cost[cells[1:, 0], cells[1:, 1]] * length, dtype=np.float64)

    def point(self, node: Hashable) -> tuple[float, float]:
        """The centre of cell ``(row, col)`` as ``(x, y)``: ``(col + 0.5, row + 0.5)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> import numpy as np
        >>> GridSpace(Grid(np.ones((2, 3)))).point((1, 2))
        (2.5, 1.5)
        """
        r, c = cast(tuple[int, int], node)
        return float(c) + 0.5, float(r) + 0.5

    def contains(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which ``(x, y)`` points lie in walkable cells (an ``(n, 2)`` array in).

        Cell ``(row, col)`` covers ``col <= x < col + 1``, ``row <= y < row + 1``; points
        off the grid are not walkable.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii(".#"))
        >>> space.contains([(0.5, 0.5), (1.5, 0.5), (-0.5, 0.5)]).tolist()
        [True, False, False]
        """
        return walkable_at(self.grid.walkable, np.asarray(points, dtype=np.float64))

    def floor(self) -> SquareFloor:
        """Where ``(x, y)`` agents may stand: the grid's walkable square cells, read
        again after each edit (:class:`~pathcraft._floors.SquareFloor`; what
        :class:`~pathcraft.agents.PathFollower` moves on).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> floor = Grid.from_ascii("..#").agent_space().floor()
        >>> moved, _ = floor.slide(np.array([[0.5, 0.5]]), np.array([[5.0, 0.0]]))
        >>> moved.round(3).tolist()                     # stopped at the wall's face
        [[2.0, 0.5]]
        """
        grid = self.grid
        return SquareFloor(lambda: grid.walkable, lambda: grid.version)

    def flow_field(self, goals: Any, size: int = 1) -> Any:
        """The grid's flow field toward ``goals`` (``(row, col)`` cells) for units of
        ``size``, repaired in place after edits: what
        :class:`~pathcraft.agents.FlowField` asks for.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").agent_space().flow_field((0, 2)).next_cell[0, 0].tolist()
        [0, 1]
        """
        return GridFlow(self.grid, goals, size=size)

