"""Hexagonal grids in offset coordinates, searched by the compiled stencil kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft import _cellworld
from pathcraft._cellspace import CellSpace
from pathcraft._saved import SavedArrays
from pathcraft._shorthands import Shorthands
from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.grid.kit import cost_array
from pathcraft.hexgrid import _capabilities, _stencil
from pathcraft.replan import Replanner
from pathcraft.result import PathResult
from pathcraft.world import register_kind

#: The offset layouts (Red Blob Games' names) and the neighbours of a cell on an even
#: and on an odd row (``-r``, pointy tops) or column (``-q``, flat tops), as
#: ``(dr, dc)``.
LAYOUTS: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {
    "odd-r": (
        [(0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0)],
        [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1)],
    ),
    "even-r": (
        [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1)],
        [(0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0)],
    ),
    "odd-q": (
        [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
        [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
    ),
    "even-q": (
        [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
        [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
    ),
}


def offset_to_axial(layout: str, cell: tuple[int, int]) -> tuple[int, int]:
    """The axial ``(q, r)`` coordinates of the offset ``(row, col)`` cell ``cell``.

    Examples
    --------
    >>> from pathcraft.hexgrid import offset_to_axial
    >>> offset_to_axial("odd-r", (3, 2))
    (1, 3)
    """
    check_choice("layout", layout, tuple(LAYOUTS))
    row, col = int(cell[0]), int(cell[1])
    if layout == "odd-r":
        return col - (row - (row & 1)) // 2, row
    if layout == "even-r":
        return col - (row + (row & 1)) // 2, row
    if layout == "odd-q":
        return col, row - (col - (col & 1)) // 2
    return col, row - (col + (col & 1)) // 2


def axial_to_offset(layout: str, axial: tuple[int, int]) -> tuple[int, int]:
    """The offset ``(row, col)`` cell of the axial coordinates ``(q, r)``.

    Examples
    --------
    >>> from pathcraft.hexgrid import axial_to_offset
    >>> axial_to_offset("odd-r", (1, 3))
    (3, 2)
    """
    check_choice("layout", layout, tuple(LAYOUTS))
    q, r = int(axial[0]), int(axial[1])
    if layout == "odd-r":
        return r, q + (r - (r & 1)) // 2
    if layout == "even-r":
        return r, q + (r + (r & 1)) // 2
    if layout == "odd-q":
        return r + (q - (q & 1)) // 2, q
    return r + (q + (q & 1)) // 2, q


def hex_distance(layout: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    """The number of hex steps between the offset ``(row, col)`` cells ``a`` and ``b``.

    Examples
    --------
    >>> from pathcraft.hexgrid import hex_distance
    >>> hex_distance("odd-r", (0, 0), (2, 1))
    2
    """
    q1, r1 = offset_to_axial(layout, a)
    q2, r2 = offset_to_axial(layout, b)
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class HexGrid(Shorthands):
    """A hexagonal grid stored as a 2-D cost array in an offset layout; cells are
    ``(row, col)``.

    Entering a cell costs its cost (each of the six moves has factor 1); ``np.inf``
    marks a wall. The layout names are Red Blob Games': ``"odd-r"`` and ``"even-r"``
    stagger rows (pointy-topped hexagons, odd or even rows shoved half a cell right),
    ``"odd-q"`` and ``"even-q"`` stagger columns (flat-topped, odd or even columns
    shoved half a cell down). Tiled's staggered hexagonal maps map onto them:
    ``staggeraxis="y"`` is ``-r``, ``staggeraxis="x"`` is ``-q``, and
    ``staggerindex="odd"``/``"even"`` is ``odd-``/``even-`` (Tiled's tile ``(x, y)`` is
    the cell ``(row=y, col=x)``).

    A* uses the hex distance times the smallest cell cost: every step changes the hex
    distance by at most 1 and costs at least the smallest cost, so it never
    overestimates (admissible and consistent).

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cost of entering each cell, > 0, ``np.inf`` for walls.
    layout : str
        ``"odd-r"`` (the default), ``"even-r"``, ``"odd-q"`` or ``"even-q"``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid import HexGrid
    >>> hexes = HexGrid(np.ones((4, 5)), layout="odd-r")
    >>> hexes.top
    'pointy'
    >>> path = hexes.find_path((0, 0), (3, 2))
    >>> path.cost, len(path)
    (4.0, 5)
    """

    def __init__(self, cost: npt.ArrayLike, layout: str = "odd-r") -> None:
        self.layout = check_choice("layout", layout, tuple(LAYOUTS))
        arr = cost_array(cost)
        even, odd = LAYOUTS[self.layout]
        self._world = _stencil.build(
            "HexGrid", arr,
            ([(dr, dc, 1.0) for dr, dc in even], [(dr, dc, 1.0) for dr, dc in odd]),
            "row" if self.layout.endswith("-r") else "col", self.layout, 1.0,
        )  # fmt: skip

    @property
    def min_cost(self) -> float:
        """The smallest cell cost (1.0 when every cell is a wall): the scale of the hex
        distance heuristic, kept up to date when cells change.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.full((2, 2), 3.0))
        >>> hexes[0, 0] = 0.5
        >>> hexes.min_cost
        0.5
        """
        return self._world.lowest

    def __getitem__(self, key: Any) -> Any:
        """The cost of cells, by NumPy indexing of the ``(rows, cols)`` array (a copy).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 3)))[0, 1]
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((1, 4)))
        >>> hexes[0, 2] = np.inf
        >>> hexes.find_path((0, 0), (0, 3)).reason
        'unreachable'
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((2, 3)))
        >>> seen = hexes.version
        >>> hexes[:, 2] = np.inf
        >>> hexes.changes_since(seen).tolist()
        [[0, 2], [1, 2]]
        """
        return _stencil.changes_since(self._world, version)

    @property
    def top(self) -> str:
        """``"pointy"`` for the row-staggered layouts, ``"flat"`` for the others.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 2)), layout="even-q").top
        'flat'
        """
        return "pointy" if self.layout.endswith("-r") else "flat"

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 3))).shape
        (2, 3)
        """
        return self._world.shape

    def neighbors(self, cell: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        """The walkable neighbours of the ``(row, col)`` cell and the cost of entering
        each (the generic search's neighbour function).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> sorted(HexGrid(np.ones((3, 3))).neighbors((0, 0)))
        [((0, 1), 1.0), ((1, 0), 1.0)]
        """
        rows, cols = self.shape
        r, c = int(cell[0]), int(cell[1])
        even, odd = LAYOUTS[self.layout]
        table = odd if (r if self.layout.endswith("-r") else c) & 1 else even
        p = self._world.pad
        inner = self._world.padded[p:-p, p:-p]
        out = []
        for dr, dc in table:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and np.isfinite(inner[nr, nc]):
                out.append(((nr, nc), float(inner[nr, nc])))
        return out

    def find_path(
        self, start: tuple[int, int], goal: tuple[int, int], *, algorithm: str = "astar",
        **options: Any,
    ) -> PathResult:  # fmt: skip
        """A cheapest path between two ``(row, col)`` cells.

        Parameters
        ----------
        start, goal : (int, int)
            Walkable cells, ``(row, col)`` in the grid's offset layout. Dijkstra also
            takes several cells (a ``(k, 2)`` array) for either, and ``goal=None``
            (every reachable cell: the result's ``distances`` and ``path_to``).
        algorithm : str
            ``"astar"`` (hex-distance heuristic), ``"dijkstra"`` or ``"greedy"``.
        **options
            The search options (README, "One way to ask every world"); ``heuristic``
            is ``"hex"`` (the default) or ``"zero"``.

        Returns
        -------
        PathResult
            Its path an ``(n, 2)`` array of ``(row, col)`` cells from start to goal;
            empty (falsy) with a reason when there is no path.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> cost = np.ones((3, 3)); cost[1, :2] = np.inf
        >>> HexGrid(cost).find_path((0, 0), (2, 0)).path.tolist()
        [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0]]
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> search = HexGrid(np.ones((1, 5))).start_search((0, 0), (0, 4), algorithm="dijkstra")
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 3))).distance_field((0, 0))
        array([[0., 1., 2.],
               [1., 2., 3.]])
        >>> costs, tree = HexGrid(np.ones((1, 3))).distance_field((0, 0), parents=True)
        >>> tree.tolist()
        [[[-1, -1], [0, 0], [0, 1]]]
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((4, 4)))
        >>> [r.cost for r in hexes.find_paths([(0, 0), (1, 1)], [(3, 3), (0, 1)])]
        [5.0, 1.0]
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
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((4, 4))).path_costs([(0, 0), (1, 1)], [(3, 3), (1, 1)])
        array([5., 0.])
        """
        return _cellworld.batch(  # type: ignore[no-any-return]
            self._world, "path_costs", starts, goals, algorithm, options
        )

    # ------------------------------------------------------------------ capabilities
    # The capabilities of pathcraft.world; their code is hexgrid/_capabilities.py.

    #: The name of a saved hex grid (:func:`pathcraft.io.save`).
    kind = "hexgrid"

    def plot(self, result: PathResult, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: ``result`` drawn on this grid's cells as squares of
        the offset layout (:func:`pathcraft.viz.plot_search`; needs the ``viz`` extra).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((2, 3)))
        >>> hexes.plot(hexes.find_path((0, 0), (1, 2), record=True)).get_title()
        'cost 3.00, 4 expanded'
        """
        return _capabilities.plot(self._world.inner.copy(), result, ax, **kwargs)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost`` and ``layout``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> sorted(HexGrid(np.ones((2, 2))).to_arrays())
        ['cost', 'layout']
        """
        return {"cost": self._world.inner.copy(), "layout": np.array(self.layout)}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> HexGrid:
        """Capability ``"save"``: the hex grid :meth:`to_arrays` wrote, checked again.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid.from_arrays(HexGrid(np.ones((2, 2)), "even-q").to_arrays()).layout
        'even-q'
        """
        a = SavedArrays(arrays, cls.kind)
        return cls(a.take("cost", "float", 2), layout=a.take("layout", "str", 0))

    def agent_space(self) -> CellSpace:
        """Capability ``"agent_space"``: agents move from hex to hex, nodes
        ``(row, col)``, positions the hexes' centres (:func:`hex_centre
        <pathcraft.hexgrid._capabilities.hex_centre>`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 2))).agent_space().point((1, 1))
        (2.0, 1.5)
        """
        return _capabilities.space(self, self.layout)

    def replan_space(self) -> _capabilities.StencilReplan:
        """Capability ``"replanner"``: the hexes as D* Lite sees them (one edge per
        move, :class:`pathcraft.replan.ReplanSpace`).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((2, 2))).replan_space().node(5)
        (0, 0)
        """
        return _capabilities.StencilReplan(self, self._world, heuristic=False)

    def replanner(self, start: tuple[int, int], goal: tuple[int, int]) -> Replanner:
        """An incremental planner (D* Lite) from cell ``start`` to ``goal``, both
        ``(row, col)``, that takes in this grid's edits by itself; see
        :class:`~pathcraft.replan.Replanner`.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> hexes = HexGrid(np.ones((3, 4)))
        >>> plan = hexes.replanner((1, 0), (1, 3))
        >>> plan.path().cost
        3.0
        >>> hexes[1, 1:3] = np.inf
        >>> plan.path().cost == hexes.find_path((1, 0), (1, 3)).cost
        True
        """
        return Replanner(self, start, goal)


register_kind(HexGrid)
