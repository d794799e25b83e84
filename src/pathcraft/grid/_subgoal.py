"""Subgoal graphs (Uras, Koenig, Hernandez 2013): exact queries on static grids.

A simple subgoal graph (:mod:`pathcraft._core.subgoal`) places a subgoal at every
convex corner of the walls and joins the subgoals that reach each other by a path of
octile length with no other subgoal on the way. A query joins the start and the goal
to the subgoals their sweeps find, runs A* with the octile heuristic over that small
graph and refines its answer to cells: the same optimal length as A* on the cells,
for a fraction of the work on long queries (``bench/subgoal.py``).

It follows the Moving AI rule only: ``diagonal="no_corner_cut"``, one cost for every
walkable cell (the paths are priced at that cost), unit size 1. It is part of the
grid's prepared state (:mod:`pathcraft.grid._prepared`): built by
``prepare("subgoal")`` or the first ``algorithm="subgoal"`` query, dropped when a
cell changes, saved with the grid as a name and built again on load (as JPS+'s table).
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.subgoal import Workspace, build
from pathcraft.grid._checks import cell_indices
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["SubgoalGraph", "check_grid", "find_path"]


class SubgoalGraph:
    """The simple subgoal graph of one version of a grid's padded cells.

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's cells with a border of walls (``inf``); read, never changed, and
        kept by reference: the graph describes these cells as they are now.

    Examples
    --------
    >>> import numpy as np
    >>> padded = np.full((6, 6), np.inf)
    >>> padded[1:5, 1:5] = 1.0
    >>> padded[2, 2] = np.inf                      # one wall: four convex corners
    >>> graph = SubgoalGraph(padded)
    >>> graph.subgoals, graph.edges
    (4, 8)
    >>> length, expanded, cells = graph.path(1 * 6 + 1, 3 * 6 + 3)
    >>> length, cells.tolist()                     # (row, col), no corner cut
    (4.0, [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]])
    """

    __slots__ = ("_arrays", "_local", "seconds")

    def __init__(self, padded: npt.NDArray[np.float64]) -> None:
        t0 = time.perf_counter()
        self._arrays = (padded, *build(padded))
        #: Seconds the build took.
        self.seconds = time.perf_counter() - t0
        self._local = threading.local()  # one workspace per thread

    @property
    def subgoals(self) -> int:
        """The number of subgoals."""
        return len(self._arrays[2])

    @property
    def edges(self) -> int:
        """The number of directed edges (each link counted both ways)."""
        return len(self._arrays[5])

    @property
    def nbytes(self) -> int:
        """The bytes the graph holds (the grid's own cells not counted)."""
        return sum(a.nbytes for a in self._arrays[1:])

    def path(self, start: int, goal: int) -> tuple[float, int, npt.NDArray[np.intp] | None]:
        """The octile length, the subgoals expanded and the ``(row, col)`` cells of a
        shortest path between two walkable padded flat cells (``inf`` and None when
        none joins them)."""
        try:
            ws: Workspace = self._local.ws
        except AttributeError:
            ws = self._local.ws = Workspace(*self._arrays)
        return ws.path(start, goal)

    def __getstate__(self) -> None:
        raise TypeError("a SubgoalGraph is not pickled: the grid builds it again")


def check_grid(grid: Grid) -> float:
    """The one cost of ``grid``'s walkable cells, after checking subgoal graphs apply.

    Raises
    ------
    ValueError
        A rule other than ``diagonal="no_corner_cut"``, or cells of several costs.
    """
    if grid.diagonal != "no_corner_cut":
        raise ValueError(
            "subgoal graphs follow the Moving AI rule: they need diagonal='no_corner_cut'; "
            f"this grid has diagonal={grid.diagonal!r}"
        )
    uniform = grid.uniform_cost
    if uniform is None:
        raise ValueError(
            "subgoal graphs need one cost for every walkable cell; this grid's costs vary "
            "(use algorithm='astar')"
        )
    return uniform


def find_path(grid: Grid, graph: SubgoalGraph, unit: float, start: Any, goal: Any) -> PathResult:
    """The shortest path from ``start`` to ``goal`` (cells ``(row, col)``, checked as
    the grid checks them) on ``graph``, the subgoal graph of the grid's cells, whose
    walkable cells all cost ``unit``."""
    t0 = time.perf_counter()
    padded = grid.padded
    s = cell_indices("start", start, padded, many=False)[0]
    g = cell_indices("goal", goal, padded, many=False)[0]
    length, expanded, cells = graph.path(s, g)
    if cells is None:
        nothing = PathResult.not_found(
            "unreachable", expanded=expanded, elapsed=time.perf_counter() - t0
        )
        return replace(nothing, path=np.empty((0, 2), dtype=np.intp))
    return PathResult(
        path=cells, cost=length * unit, found=True, expanded=expanded,
        elapsed=time.perf_counter() - t0,
    )  # fmt: skip
