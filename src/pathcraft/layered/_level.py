"""Layered levels: 2-D grid floors of one shape joined by portals."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._cellspace import CellSpace
from pathcraft._reach import Labelled, Moves, cell_components, cell_moves
from pathcraft._saved import SavedArrays
from pathcraft._shorthands import Shorthands
from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.grid import Grid
from pathcraft.grid.kit import check_cost_scale, cost_array
from pathcraft.layered import _run
from pathcraft.result import PathResult
from pathcraft.world import refused, register_kind

Cell = tuple[int, int, int]

_DIAGONALS = ("never", "no_corner_cut", "one_free", "always")


class Portal(NamedTuple):
    """A portal of a :class:`Level`: from ``entry`` to ``exit`` (``(floor, row, col)``
    cells) for ``cost``; back too when ``two_way``.

    Examples
    --------
    >>> from pathcraft.layered import Portal
    >>> Portal((0, 1, 1), (1, 1, 1), 2.0, True).exit
    (1, 1, 1)
    """

    entry: Cell
    exit: Cell
    cost: float
    two_way: bool


#: Why a level has no replanner.
_PORTALS = "portals are not in the replanner's kernel yet"


class Level(Shorthands, Labelled):
    """Several 2-D grid floors of one shape joined by portals; cells are
    ``(floor, row, col)``.

    Each floor is a :class:`~pathcraft.Grid` or a 2-D cost array (cost of entering a
    cell, > 0; ``np.inf`` marks a wall); all floors have the same ``(rows, cols)`` and
    the same diagonal rule (``diagonal``, as :class:`~pathcraft.Grid`'s: a straight
    step into a cell costs its cost, a diagonal one its cost times ``sqrt(2)``). A
    portal joins any two walkable cells: stairs and ladders (two-way, between floors),
    one-way drops (``two_way=False``) and teleporters (between any cells, on one floor
    or two). Taking a portal costs the portal's ``cost`` (>= 0), not the cost of the
    cell it leads to.

    One search spans every floor (A*, Dijkstra, greedy, in the compiled core). A*'s
    heuristic, ``"portal"``, is the octile distance (Manhattan with
    ``diagonal="never"``) times the smallest cell cost to the goal when on its floor,
    or through the portals: the smallest of ``distance to a portal's entry + a lower
    bound of the rest through that portal``, the bounds computed per goal by a small
    Dijkstra over the portals. It never overestimates, so A* is optimal (see
    :mod:`pathcraft._core.layered` for the proof).

    Parameters
    ----------
    floors : sequence of Grid or array_like, or array_like of shape (floors, rows, cols)
        The floors, bottom (floor 0) first.
    portals : iterable, optional
        :class:`Portal` values or tuples ``(entry, exit[, cost[, two_way]])`` (cost
        1.0 and two-way unless given), as :meth:`add_portal` takes them.
    diagonal : {"never", "no_corner_cut", "one_free", "always"}, optional
        The diagonal rule of every floor. None (the default): the floors' own rule
        when they are Grids (they must agree), else ``"no_corner_cut"``.

    Raises
    ------
    ValueError
        No floors, floors of different shapes, Grids with different diagonal rules
        (or one other than ``diagonal``), bad costs, or a bad portal (see
        :meth:`add_portal`).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.layered import Level
    >>> ground, upstairs = np.ones((3, 4)), np.ones((3, 4))
    >>> level = Level([ground, upstairs], portals=[((0, 2, 3), (1, 2, 3), 2.0)])
    >>> result = level.find_path((0, 0, 0), (1, 0, 3))
    >>> result.cost
    7.82842712474619
    >>> result.path[:, 0].tolist()        # the floor of each step
    [0, 0, 0, 0, 1, 1, 1]
    """

    def __init__(
        self,
        floors: Sequence[Grid | npt.ArrayLike] | npt.ArrayLike,
        *,
        portals: Iterable[Any] = (),
        diagonal: str | None = None,
    ) -> None:
        self._cost, self._diagonal = _check_floors(floors, diagonal)
        check_cost_scale(self._cost, self._cost.size, "floors")
        finite = self._cost[np.isfinite(self._cost)]
        self.min_cost = float(finite.min()) if finite.size else 1.0
        self._portals: list[Portal] = []
        self._compiled: _run.Compiled | None = None
        self._steps: dict[Cell, list[tuple[Cell, float]]] | None = None  # portals by cell
        finite_max = float(finite.max()) if finite.size else 0.0
        self._cells_bound = finite_max * math.sqrt(2.0) * self._cost.size
        self._portal_total = 0.0
        for i, item in enumerate(portals):
            self._add(_portal_from(self._cost, f"portals[{i}]", item), f"portals[{i}]: ")

    # ------------------------------------------------------------------ state

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(floors, rows, cols)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> Level(np.ones((2, 3, 4))).shape
        (2, 3, 4)
        """
        f, r, c = self._cost.shape
        return int(f), int(r), int(c)

    @property
    def cost(self) -> npt.NDArray[np.float64]:
        """A read-only ``(floors, rows, cols)`` view of the cell costs.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> Level([np.ones((1, 2)), np.full((1, 2), 3.0)]).cost[1].tolist()
        [[3.0, 3.0]]
        """
        view: npt.NDArray[np.float64] = self._cost.view()
        view.flags.writeable = False
        return view

    @property
    def diagonal(self) -> str:
        """The diagonal rule of every floor.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> Level(np.ones((1, 2, 2)), diagonal="never").diagonal
        'never'
        """
        return self._diagonal

    @property
    def portals(self) -> tuple[Portal, ...]:
        """The portals, in the order they were added.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 2, 2)))
        >>> level.add_portal((0, 0, 0), (1, 0, 0), cost=0.5, two_way=False)
        >>> level.portals
        (Portal(entry=(0, 0, 0), exit=(1, 0, 0), cost=0.5, two_way=False),)
        """
        return tuple(self._portals)

    def add_portal(
        self, entry: Cell, exit: Cell, *, cost: float = 1.0, two_way: bool = True
    ) -> None:
        """Join two walkable ``(floor, row, col)`` cells: stepping from ``entry`` to
        ``exit`` costs ``cost``; from ``exit`` to ``entry`` too when ``two_way``.

        Parameters
        ----------
        entry, exit : (int, int, int)
            Walkable ``(floor, row, col)`` cells, on one floor or two, not the same.
        cost : float
            The cost of taking the portal: finite, >= 0.
        two_way : bool
            False for a one-way portal (a drop, a one-way teleporter).

        Raises
        ------
        ValueError
            A cell on a floor that does not exist or off its floor, a cell on a wall,
            ``entry == exit``, a negative, NaN or infinite cost.
        TypeError
            A cell that is not three integers, a cost that is not a number,
            ``two_way`` not a bool.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 3)))
        >>> level.add_portal((0, 0, 2), (1, 0, 0), cost=0.0, two_way=False)   # a drop
        >>> level.find_path((0, 0, 0), (1, 0, 2)).cost
        4.0
        >>> level.find_path((1, 0, 2), (0, 0, 0)).reason
        'unreachable'
        >>> level.add_portal((0, 0, 0), (5, 0, 0))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: exit (5, 0, 0) is outside the level of shape (2, 1, 3): floor 0 to 1, ...
        """
        self._add(_portal_from(self._cost, "", (entry, exit, cost, two_way)), "")

    def _add(self, portal: Portal, prefix: str) -> None:
        total = self._portal_total + portal.cost
        if not math.isfinite(total + self._cells_bound):
            raise ValueError(
                f"{prefix}cost {portal.cost!r}: the portals' costs ({total!r} in all) and "
                "the cells' could overflow a path's cost; use smaller costs"
            )
        self._portal_total = total
        self._portals.append(portal)
        self._compiled = None
        self._steps = None

    def _edges(self) -> list[tuple[Cell, Cell, float]]:
        """The portals as directed edges ``(entry, exit, cost)``."""
        edges = []
        for p in self._portals:
            edges.append((p.entry, p.exit, p.cost))
            if p.two_way:
                edges.append((p.exit, p.entry, p.cost))
        return edges

    def _world(self) -> _run.Compiled:
        if self._compiled is None:
            self._compiled = _run.compile_level(
                self._cost, self._diagonal, self._edges(), self.min_cost
            )
        return self._compiled

    def _moves(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """Every move of :meth:`neighbors` at once (see :func:`_run.moves`)."""
        return _run.moves(self._world(), self._diagonal, self._edges())

    def neighbors(self, cell: Cell) -> list[tuple[Cell, float]]:
        """The cells one step from the ``(floor, row, col)`` cell (in-floor moves, then
        portals) and each step's cost: the generic search's neighbour function.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 2)), portals=[((0, 0, 0), (1, 0, 0), 3.0)])
        >>> level.neighbors((0, 0, 0))
        [((0, 0, 1), 1.0), ((1, 0, 0), 3.0)]
        """
        f, r, c = _run.check_cell(self.shape, "cell", cell)
        _, rows, cols = self.shape
        floor = self._cost[f]
        out: list[tuple[Cell, float]] = []

        def free(rr: int, cc: int) -> bool:
            return 0 <= rr < rows and 0 <= cc < cols and not math.isinf(floor[rr, cc])

        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if free(r + dr, c + dc):
                out.append(((f, r + dr, c + dc), float(floor[r + dr, c + dc])))
        if self._diagonal != "never":
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                if not free(r + dr, c + dc):
                    continue
                a, b = free(r + dr, c), free(r, c + dc)
                if (self._diagonal == "no_corner_cut" and not (a and b)) or (
                    self._diagonal == "one_free" and not (a or b)
                ):
                    continue
                out.append(((f, r + dr, c + dc), float(floor[r + dr, c + dc]) * math.sqrt(2)))
        if self._steps is None:
            self._steps = {}
            for p in self._portals:
                self._steps.setdefault(p.entry, []).append((p.exit, p.cost))
                if p.two_way:
                    self._steps.setdefault(p.exit, []).append((p.entry, p.cost))
        out.extend(self._steps.get((f, r, c), ()))
        return out

    @staticmethod
    def split_path(path: PathResult | npt.ArrayLike) -> list[tuple[int, npt.NDArray[np.intp]]]:
        """A path cut where it changes floor: ``(floor, (k, 2) array of (row, col))``
        pieces in order (a teleporter within one floor does not cut).

        Parameters
        ----------
        path : PathResult or array_like of shape (n, 3)
            A result of this level, or its ``(floor, row, col)`` path.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 3)), portals=[((0, 0, 2), (1, 0, 2))])
        >>> result = level.find_path((0, 0, 1), (1, 0, 0))
        >>> [(f, cells.tolist()) for f, cells in level.split_path(result)]
        [(0, [[0, 1], [0, 2]]), (1, [[0, 2], [0, 1], [0, 0]])]
        """
        cells = np.asarray(path.path if isinstance(path, PathResult) else path, dtype=np.intp)
        if cells.size == 0:
            return []
        if cells.ndim != 2 or cells.shape[1] != 3:
            raise ValueError(
                f"path must be an (n, 3) array of (floor, row, col); got {cells.shape}"
            )
        cuts = np.flatnonzero(np.diff(cells[:, 0])) + 1
        return [(int(piece[0, 0]), piece[:, 1:].copy()) for piece in np.split(cells, cuts)]

    def __repr__(self) -> str:
        floors, rows, cols = self.shape
        return (
            f"Level({floors} floors of {rows}x{cols}, diagonal={self._diagonal!r}, "
            f"{len(self._portals)} portals)"
        )

    # ------------------------------------------------------------------ queries

    def nearest_walkable(self, cells: Any, *, max_distance: float | None = None) -> Any:
        """The nearest walkable cell to each cell, inside the world or not: what
        ``snap=True`` moves a start or goal to (:meth:`find_path`, :meth:`start_search`,
        :meth:`find_paths`, :meth:`path_costs`, and agents built with it). A walkable cell
        is its own answer; otherwise the nearest by the Euclidean distance between ``(row,
        col)`` cells on the cell's own floor (a player stays on the floor it is on; the
        floor must be one of the level's), ties to the smallest. ``cells`` is one ``(floor,
        row, col)`` cell or a ``(k, 3)`` array; only cells at most ``max_distance`` away
        count (None: any). Answers, errors and cost (the neighbourhood searched, not the
        world) as :meth:`pathcraft.Grid.nearest_walkable`: a tuple, or None when there is
        none; for an array, ``-1`` rows where there is none.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level([np.array([[1.0, np.inf, np.inf]]), np.array([[np.inf, np.inf, 1.0]])])
        >>> level.nearest_walkable((0, 0, 2)), level.nearest_walkable((1, 0, 0))
        ((0, 0, 0), (1, 0, 2))
        >>> level.nearest_walkable((1, 5, 5), max_distance=2) is None
        True
        """
        return _cellworld.nearest_walkable(self._world(), cells, max_distance)

    def find_path(
        self, start: Cell, goal: Cell, *, algorithm: str = "astar", **options: Any
    ) -> PathResult:
        """A cheapest path between two ``(floor, row, col)`` cells, across floors.

        Parameters
        ----------
        start, goal : (int, int, int)
            Walkable ``(floor, row, col)`` cells. Dijkstra also takes several starts (a
            ``(k, 3)`` array; one goal), and ``goal=None`` (every reachable cell: the
            result's ``distances`` and ``path_to``).
        algorithm : str
            ``"astar"`` (the portal heuristic), ``"dijkstra"`` or ``"greedy"``.
        **options
            The search options (README, "One way to ask every world"); ``heuristic``
            is ``"portal"`` (the default) or ``"zero"``.

        Returns
        -------
        PathResult
            Its path an ``(n, 3)`` array of ``(floor, row, col)`` cells from start to
            goal (:meth:`split_path` cuts it per floor); empty (falsy) with a reason
            when there is no path.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 2, 2)))
        >>> level.find_path((0, 0, 0), (1, 1, 1)).reason        # no stairs yet
        'unreachable'
        >>> level.add_portal((0, 1, 1), (1, 0, 0))
        >>> level.find_path((0, 0, 0), (1, 1, 1)).path.tolist()
        [[0, 0, 0], [0, 1, 1], [1, 0, 0], [1, 1, 1]]
        """
        return _cellworld.find_path(self._world(), start, goal, algorithm, options, self._kept())

    def start_search(
        self, start: Cell, goal: Cell, *, algorithm: str = "astar", **options: Any
    ) -> CompiledSearch:
        """The search :meth:`find_path` runs, as a compiled search stepped a few
        expansions at a time (``step(n)``; ``result`` once it ended). Cells are
        ``(floor, row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 4)), portals=[((0, 0, 3), (1, 0, 3))])
        >>> search = level.start_search((0, 0, 0), (1, 0, 0), algorithm="dijkstra")
        >>> search.step(2), search.step(), search.result.path.tolist()[-1]
        ('in_progress', 'found', [1, 0, 0])
        """
        return _cellworld.start_search(
            self._world(), start, goal, algorithm, options, None, self._kept()
        )

    # ------------------------------------------------------------------ reachability

    _EMPTY_PATH = np.empty((0, 3), dtype=np.intp)

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Which cells reach each other: the strongly connected components of the
        walkable ``(floor, row, col)`` cells under the in-floor moves and the
        portals (a one-way portal joins nothing by itself: see :meth:`reachable`).

        Built on first use (one compiled pass over every move) and kept for the
        level of this version: from then on :meth:`find_path` (and the shorthands)
        and :meth:`start_search` answer a goal out of reach at once
        (``reason="unreachable"``, nothing expanded; not with ``partial=True``,
        which explores to return the closest place, nor ``record=True``; the
        batches search as before).
        After a portal is added, the first search that ends unreachable, or the
        next call here, builds them again.

        Returns
        -------
        labels : ndarray of int32, shape (floors, rows, cols)
            The component of every cell, ``0`` to ``count - 1`` (a component that
            reaches another has the larger label); ``-1`` on walls.
        count : int
            The number of components.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 2)), portals=[((0, 0, 1), (1, 0, 0), 1.0, False)])
        >>> labels, count = level.components()        # a drop: floor 0 reaches floor 1
        >>> labels.tolist(), count
        ([[[1, 1]], [[0, 0]]], 2)
        """
        return cell_components(self._world(), self._reachability().labels())

    def places(self) -> list[tuple[int, ...]]:
        """Capability ``"places"``: every walkable cell ``(floor, row, col)``, floor by floor (what
        :class:`pathcraft.mapf.Reservations` numbers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Level
        >>> Level([np.ones((1, 2)), np.array([[np.inf, 1.0]])]).places()
        [(0, 0, 0), (0, 0, 1), (1, 0, 1)]
        """
        return _cellworld.labelled_places(self.components()[0])

    def reachable(self, start: Cell, goal: Cell) -> bool:
        """Whether a path leads from ``start`` to ``goal``, both ``(floor, row,
        col)``: the same component (:meth:`components`, built on first use), or the
        goal's component reachable from the start's through one-way portals (a
        search over the components, not the cells).

        Raises
        ------
        ValueError, TypeError
            A cell :meth:`find_path` refuses (off the level, a wall, not three
            integers).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 2)), portals=[((0, 0, 1), (1, 0, 0), 1.0, False)])
        >>> level.reachable((0, 0, 0), (1, 0, 1)), level.reachable((1, 0, 1), (0, 0, 0))
        (True, False)
        >>> level.find_path((1, 0, 1), (0, 0, 0)).expanded   # answered from the labels
        0
        """
        return _cellworld.reachable(self._world(), self._reachability(), start, goal)

    def _move_graph(self) -> Moves:
        one_way = any(not p.two_way for p in self._portals)
        return cell_moves(self._world(), self._moves(), directed=one_way)

    def distance_field(
        self, sources: Cell | npt.ArrayLike, *, parents: bool = False,
        max_cost: float | None = None,
    ) -> npt.NDArray[np.float64] | _cellworld.Tree:  # fmt: skip
        """The cost from the nearest of ``sources`` (``(floor, row, col)`` cells) to
        every cell, as a ``(floors, rows, cols)`` array; ``inf`` for walls and cells
        out of reach (or beyond ``max_cost``).
        With ``parents=True``, also each cell's parent on a cheapest path from the
        nearest source: an array of ``(floor, row, col)`` along its last axis, ``-1`` for
        sources, walls and cells not reached (as :meth:`pathcraft.Grid.distance_field`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 3)), portals=[((0, 0, 2), (1, 0, 2), 0.5)])
        >>> level.distance_field((0, 0, 0))
        array([[[0. , 1. , 2. ]],
        <BLANKLINE>
               [[4.5, 3.5, 2.5]]])
        >>> costs, tree = level.distance_field((0, 0, 0), parents=True)
        >>> tree[1, 0, 2].tolist(), tree[0, 0, 0].tolist()
        ([0, 0, 2], [-1, -1, -1])
        """
        return _cellworld.distance_field(self._world(), sources, max_cost, parents)

    def find_paths(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, *, algorithm: str = "astar",
        **options: Any,
    ) -> list[PathResult]:  # fmt: skip
        """Many searches at once, in parallel: one result per pair
        ``(starts[i], goals[i])`` of ``(floor, row, col)`` cells, each what
        :meth:`find_path` gives; ``workers``, ``executor``, ``chunk_size`` and
        ``progress`` as in :meth:`pathcraft.Grid.find_paths`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 3)), portals=[((0, 0, 2), (1, 0, 2))])
        >>> [r.cost for r in level.find_paths([(0, 0, 0), (1, 0, 0)], [(1, 0, 0), (1, 0, 1)])]
        [5.0, 1.0]
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world(), "find_paths", starts, goals, algorithm, options
        )

    def path_costs(
        self, starts: npt.ArrayLike, goals: npt.ArrayLike, *, algorithm: str = "astar",
        **options: Any,
    ) -> npt.NDArray[np.float64]:  # fmt: skip
        """Only the costs of many searches (``inf`` where there is none), in parallel;
        arguments as in :meth:`find_paths` (``partial`` and ``record`` refused). Cells
        are ``(floor, row, col)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level(np.ones((2, 1, 3)))
        >>> level.path_costs([(0, 0, 0), (0, 0, 0)], [(0, 0, 2), (1, 0, 0)])
        array([ 2., inf])
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world(), "path_costs", starts, goals, algorithm, options
        )

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world.

    #: The name of a saved level (:func:`pathcraft.io.save`).
    kind = "level"

    @property
    def version(self) -> int:
        """The number of portals: adding one is the only edit a level takes (the
        query contract's ``version``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level([np.ones((1, 2)), np.ones((1, 2))])
        >>> level.add_portal((0, 0, 0), (1, 0, 0)); level.version
        1
        """
        return len(self._portals)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost``, ``diagonal`` and the portals
        (``portal_entries``, ``portal_exits``, ``portal_costs``, ``portal_two_way``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> Level([np.ones((1, 2))], portals=[((0, 0, 0), (0, 0, 1))]).to_arrays()["portal_exits"]
        array([[0, 0, 1]])
        """
        portals = self._portals
        return {
            "cost": np.array(self._cost, dtype=np.float64),
            "diagonal": np.array(self._diagonal),
            "portal_entries": np.array([p.entry for p in portals], dtype=np.int64).reshape(-1, 3),
            "portal_exits": np.array([p.exit for p in portals], dtype=np.int64).reshape(-1, 3),
            "portal_costs": np.array([p.cost for p in portals], dtype=np.float64),
            "portal_two_way": np.array([p.two_way for p in portals], dtype=np.bool_),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> Level:
        """Capability ``"save"``: the level :meth:`to_arrays` wrote, its portals
        checked again.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> level = Level([np.ones((2, 2)), np.ones((2, 2))], portals=[((0, 1, 1), (1, 1, 1))])
        >>> round(Level.from_arrays(level.to_arrays()).find_path((0, 0, 0), (1, 0, 0)).cost, 4)
        3.8284
        """
        a = SavedArrays(arrays, cls.kind)
        entries, exits = a.take("portal_entries", "int", 2), a.take("portal_exits", "int", 2)
        costs, two_way = a.take("portal_costs", "float", 1), a.take("portal_two_way", "bool", 1)
        k = costs.shape[0]
        if entries.shape != (k, 3) or exits.shape != (k, 3) or two_way.shape != (k,):
            raise ValueError(
                "portal_entries and portal_exits must be (k, 3) and portal_two_way (k,), k "
                f"portal costs; got {entries.shape}, {exits.shape}, {two_way.shape}, {k}"
            )
        portals = [
            (tuple(e), tuple(x), float(c), bool(w))
            for e, x, c, w in zip(entries.tolist(), exits.tolist(), costs, two_way, strict=True)
        ]
        return cls(
            a.take("cost", "float", 3), portals=portals, diagonal=a.take("diagonal", "str", 0)
        )

    def agent_space(self) -> CellSpace:
        """Capability ``"agent_space"``: agents move from cell to cell and through
        portals, nodes ``(floor, row, col)``, positions ``(col + 0.5, row + 0.5)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.layered import Level
        >>> Level([np.ones((2, 2))]).agent_space().point((0, 1, 0))
        (0.5, 1.5)
        """
        return CellSpace(
            self, lambda cell: float(self._cost[cell]), costs=lambda: self._cost, moves=self._moves
        )

    plot = refused("Level", "plot", "plot", "pictures of floors are to come")
    replan_space = refused("Level", "replan_space", "replanner", _PORTALS)
    replanner = refused("Level", "replanner", "replanner", _PORTALS)

def _check_floors(floors: Any, diagonal: str | None) -> tuple[npt.NDArray[np.float64], str]:
    """The floors stacked as one new ``(floors, rows, cols)`` cost array, and the
    diagonal rule they share."""
    if diagonal is not None:
        check_choice("diagonal", diagonal, _DIAGONALS)
    if isinstance(floors, np.ndarray) and floors.ndim == 3:
        items: list[Any] = list(floors)
    elif isinstance(floors, Grid):
        raise TypeError("floors must be a sequence of floors; got one Grid (wrap it in a list)")
    else:
        try:
            items = list(floors)
        except TypeError as exc:
            raise TypeError(
                f"floors must be a sequence of Grids or 2-D cost arrays; got {floors!r}"
            ) from exc
    if not items:
        raise ValueError("floors must hold at least one floor")
    rules = {item.diagonal for item in items if isinstance(item, Grid)}
    if len(rules) > 1:
        raise ValueError(f"floors: the Grids have different diagonal rules {sorted(rules)}")
    if rules and diagonal is not None and rules != {diagonal}:
        raise ValueError(
            f"floors: the Grids' diagonal rule {rules.pop()!r} is not diagonal={diagonal!r}"
        )
    rule = diagonal or (rules.pop() if rules else "no_corner_cut")
    arrays = [
        np.array(item.cost) if isinstance(item, Grid) else cost_array(item, f"floors[{i}]")
        for i, item in enumerate(items)
    ]
    shape = arrays[0].shape
    for i, arr in enumerate(arrays):
        if arr.shape != shape:
            raise ValueError(
                f"floors[{i}] has shape {arr.shape}; every floor must have floor 0's shape {shape}"
            )
    return np.stack(arrays).astype(np.float64), rule


def _portal_from(cost: npt.NDArray[np.float64], where: str, item: Any) -> Portal:
    """A checked :class:`Portal` from ``(entry, exit[, cost[, two_way]])``; errors
    name ``where`` (``portals[i]``) or, when empty, the argument."""
    prefix = f"{where}: " if where else ""
    parts = tuple(item) if isinstance(item, (tuple, list)) else ()
    if not 2 <= len(parts) <= 4:
        raise TypeError(
            f"{prefix}a portal is (entry, exit[, cost[, two_way]]) of (floor, row, col) "
            f"cells; got {item!r}"
        )
    price = parts[2] if len(parts) > 2 else 1.0
    two_way = parts[3] if len(parts) > 3 else True
    entry = _run.walkable_cell(cost, f"{prefix}entry", parts[0])
    exit_ = _run.walkable_cell(cost, f"{prefix}exit", parts[1])
    if entry == exit_:
        raise ValueError(f"{prefix}a portal from {entry} to itself goes nowhere")
    if isinstance(price, (bool, np.bool_)) or not isinstance(price, numbers.Real):
        raise TypeError(f"{prefix}cost must be a finite number >= 0; got {price!r}")
    value = float(price)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{prefix}cost must be a finite number >= 0; got {price!r}")
    if not isinstance(two_way, (bool, np.bool_)):
        raise TypeError(f"{prefix}two_way must be True or False; got {two_way!r}")
    return Portal(entry, exit_, value, bool(two_way))


register_kind(Level)
