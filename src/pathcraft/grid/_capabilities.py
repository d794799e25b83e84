"""The grid's capabilities (:mod:`pathcraft.world`): its picture, its saved arrays,
its move graph and the replanner's view of it. :class:`~pathcraft.grid.Grid`'s methods
of the same names call these; the agents' space is :mod:`pathcraft.grid._space`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import dstar as _kernel
from pathcraft._reach import Moves
from pathcraft._saved import SavedArrays
from pathcraft.grid._packed import LINE_NAMES, PackedLines
from pathcraft.grid._run import DIAGONAL_RULES

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid
    from pathcraft.result import PathResult

__all__ = ["GridReplan", "from_arrays", "move_graph", "plot", "to_arrays"]

#: The grid's steps ``(row, col)``: the four straight ones, then the four diagonal.
_STRAIGHT = ((-1, 0), (0, -1), (0, 1), (1, 0))
_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def plot(grid: Grid, result: PathResult, ax: Any, **kwargs: Any) -> Any:
    """:func:`pathcraft.viz.plot_search` of ``result`` on ``grid``."""
    from pathcraft.viz.grid import plot_search

    return plot_search(grid, result, ax, **kwargs)


def to_arrays(grid: Grid, mappable: bool = False) -> dict[str, npt.NDArray[Any]]:
    """``cost`` (``cost_padded``, the array the kernels read, when ``mappable``),
    ``diagonal``, ``heuristic``, the jump tables when prepared, and what
    :meth:`Grid.prepare` built that loading builds again (JPS+'s table, the subgoal
    graph, the HPA* hierarchy and its cluster size)."""
    costs = {"cost_padded": grid.padded} if mappable else {"cost": np.array(grid.cost)}
    arrays = {
        **costs,
        "diagonal": np.array(grid.diagonal),
        "heuristic": np.array(grid.heuristic),
    }
    if "jps" in grid.prepared:
        lines = grid.jump_tables[1]
        arrays.update({f"jps_{name}": lines[i] for i, name in enumerate(LINE_NAMES)})
    names = [name for name in ("jps+", "subgoal", "hpa") if name in grid.prepared]
    if names:
        arrays["prepare"] = np.array(names)
    hierarchy = grid.hierarchy
    if hierarchy is not None:  # built again on load, with its cluster size
        arrays["hpa_cluster"] = np.array(hierarchy.size)
    return arrays


def from_arrays(cls: type[Grid], arrays: Mapping[str, npt.NDArray[Any]]) -> Grid:
    """The grid :func:`to_arrays` wrote: costs checked again, jump tables checked
    against the walls (not rebuilt), the offline jump table and the subgoal graph
    built again."""
    a = SavedArrays(arrays, "grid")
    diagonal, heuristic = a.take("diagonal", "str", 0), a.take("heuristic", "str", 0)
    if "cost_padded" in a and "cost" not in a:  # mappable: kept as it is (maybe mapped)
        grid = cls.from_padded(a.take("cost_padded", "float", 2), diagonal, heuristic)
    else:
        grid = cls(a.take("cost", "float", 2), diagonal=diagonal, heuristic=heuristic)
    if "jps_rows" in a:
        grid.use_jump_tables(PackedLines(*(a.take(f"jps_{name}", "int", 2) for name in LINE_NAMES)))
    prepare = a.take("prepare", "str", 1, optional=True)
    cluster = a.take("hpa_cluster", "int", 0, optional=True)
    if prepare is not None:
        grid.prepare(*prepare.tolist(), cluster=None if cluster is None else int(cluster))
    return grid


def move_graph(padded: npt.NDArray[np.float64], diagonal: str) -> Moves:
    """The moves of a grid (``padded``: its costs with their border of walls, as
    :attr:`Grid.padded <pathcraft.grid.Grid.padded>`) over its padded cells' flat
    indices: from every walkable cell to each walkable neighbour the ``diagonal`` rule
    allows (``"never"``: the four straight ones; a diagonal step when both cells it
    passes between are free, ``"no_corner_cut"``, one of them, ``"one_free"``, or
    whatever they are, ``"always"``), one NumPy pass a step. A cell's moves go straight
    ones first; the places are the walkable cells; every move can be undone.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> grid = Grid.from_ascii(".#\\n..", diagonal="no_corner_cut")
    >>> moves = move_graph(grid.padded, grid.diagonal)     # cells 5, 9 and 10 of 4 x 4
    >>> [moves.targets[moves.offsets[v]:moves.offsets[v + 1]].tolist() for v in (5, 9, 10)]
    [[9], [5, 10], [9]]
    """
    width = padded.shape[1]
    free = np.isfinite(padded).ravel()
    cells = np.flatnonzero(free)  # never on the border: every neighbour is inside
    steps = _STRAIGHT if diagonal == "never" else _STRAIGHT + _DIAGONAL
    heads = np.empty((cells.size, len(steps)), dtype=np.int32)
    legal = np.empty((cells.size, len(steps)), dtype=bool)
    for k, (dr, dc) in enumerate(steps):
        heads[:, k] = cells + (dr * width + dc)
        legal[:, k] = free[heads[:, k]]
        if dr and dc and diagonal != "always":
            side_a, side_b = free[cells + dr * width], free[cells + dc]
            legal[:, k] &= (side_a & side_b) if diagonal == "no_corner_cut" else (side_a | side_b)
    offsets = np.zeros(free.size + 1, dtype=np.int64)
    offsets[cells + 1] = legal.sum(axis=1)
    np.cumsum(offsets, out=offsets)
    return Moves(offsets, heads[legal], free, directed=False)


class GridReplan:
    """The grid as D* Lite sees it (:class:`pathcraft.replan.ReplanSpace`): vertices
    are the cells of the padded cost array, whose stencil the kernel walks."""

    __slots__ = ("world",)

    def __init__(self, grid: Grid) -> None:
        self.world = grid

    def vertex(self, node: Any, name: str) -> int:
        grid = self.world
        rows, cols = grid.shape
        if (
            type(node) is tuple
            and len(node) == 2
            and type(node[0]) is int
            and type(node[1]) is int
            and 0 <= node[0] < rows
            and 0 <= node[1] < cols
        ):  # the common case, checked here in a few hundred nanoseconds
            v = (node[0] + 1) * (cols + 2) + node[1] + 1
            if grid.padded.flat[v] != math.inf:
                return v
        r, c = (int(x) for x in grid.check_cells(node, name=name, many=False)[0])
        return (r + 1) * (cols + 2) + c + 1

    def node(self, vertex: int) -> tuple[int, int]:
        r, c = divmod(vertex, self.world.shape[1] + 2)
        return (r - 1, c - 1)

    def planner(self, start: int, goal: int) -> _kernel.Planner:
        grid = self.world
        return _kernel.grid_planner(
            grid.padded, DIAGONAL_RULES[grid.diagonal], start, goal, grid.min_cost
        )

    def scale(self) -> float:
        return self.world.min_cost

    def changed(self, since: int) -> tuple[int, npt.NDArray[np.intp] | None]:
        cells = self.world.changes_since(since)
        vertices = (cells[:, 0] + 1) * (self.world.shape[1] + 2) + cells[:, 1] + 1
        return int(cells.shape[0]), vertices

    def path(self, vertices: npt.NDArray[np.intp] | None) -> npt.NDArray[np.intp]:
        if vertices is None:
            return np.empty((0, 2), dtype=np.intp)
        rows, cols = np.divmod(vertices, self.world.shape[1] + 2)
        return np.stack((rows - 1, cols - 1), axis=1).astype(np.intp)

    def open(self, start: int, goal: int) -> bool:
        padded = self.world.padded.ravel()
        return bool(np.isfinite(padded[start]) and np.isfinite(padded[goal]))
