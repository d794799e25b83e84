"""The stencil worlds' capabilities (:mod:`pathcraft.world`) for
:class:`~pathcraft.hexgrid.HexGrid` and :class:`~pathcraft.hexgrid.MovesGrid`: a
picture (their cells drawn as a grid of squares), their saved arrays, the agents'
space and the replanner's view of them (:class:`StencilReplan`: the CSR of their
moves, kept up to date with their edits)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._cellspace import CellSpace
from pathcraft._core import dstar as _kernel
from pathcraft._floors import CentreFloor, FreeSpace
from pathcraft._unique import sorted_unique

if TYPE_CHECKING:
    from pathcraft.hexgrid._stencil import Stencil
    from pathcraft.result import PathResult

__all__ = ["StencilReplan", "hex_cells", "hex_centre", "plot", "space"]


def plot(cost: npt.NDArray[np.float64], result: PathResult, ax: Any, **kwargs: Any) -> Any:
    """:func:`pathcraft.viz.plot_search` of ``result`` on the cells of ``cost``, each
    drawn as a square (the offset layout's rows and columns)."""
    from pathcraft.grid import Grid
    from pathcraft.viz.grid import plot_search

    return plot_search(Grid(cost, diagonal="never"), result, ax, **kwargs)


def hex_centre(layout: str, cell: tuple[int, ...]) -> tuple[float, float]:
    """The centre ``(x, y)`` of hex cell ``(row, col)`` in units of cells: rows (or
    columns, for ``-q`` layouts) the layout shoves are half a cell further.

    Examples
    --------
    >>> from pathcraft.hexgrid._capabilities import hex_centre
    >>> hex_centre("odd-r", (1, 0)), hex_centre("even-q", (0, 0))
    ((1.0, 1.5), (0.5, 1.0))
    """
    row, col = cell[0], cell[1]
    shoved = 1 if layout.startswith("odd") else 0
    x, y = col + 0.5, row + 0.5
    if layout.endswith("-r") and row % 2 == shoved:
        x += 0.5
    elif layout.endswith("-q") and col % 2 == shoved:
        y += 0.5
    return x, y


#: The corners of a hex's region (the points nearer its centre than any other) around
#: its centre, counter-clockwise, for ``-r`` layouts (``-q``: x and y swapped).
_HEX_ROWS = np.array([(0.5, -0.375), (0.5, 0.375), (0.0, 0.625), (-0.5, 0.375),
                      (-0.5, -0.375), (0.0, -0.625)])  # fmt: skip


def hex_centres(layout: str, cells: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """:func:`hex_centre` of ``(n, 2)`` cells at once, ``(n, 2)`` points.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid._capabilities import hex_centres
    >>> hex_centres("odd-r", np.array([[1, 0], [0, 0]])).tolist()
    [[1.0, 1.5], [0.5, 0.5]]
    """
    row, col = cells[:, 0], cells[:, 1]
    shoved = 1 if layout.startswith("odd") else 0
    x, y = col + 0.5, row + 0.5
    if layout.endswith("-r"):
        x = x + np.where(row % 2 == shoved, 0.5, 0.0)
    else:
        y = y + np.where(col % 2 == shoved, 0.5, 0.0)
    return np.stack((x, y), axis=1).astype(np.float64)


def hex_outlines(layout: str, cells: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """The corners of each cell's region, ``(n, 6, 2)``, counter-clockwise."""
    corners = _HEX_ROWS if layout.endswith("-r") else _HEX_ROWS[::-1, ::-1]
    out: npt.NDArray[np.float64] = hex_centres(layout, cells)[:, None, :] + corners[None]
    return out


def hex_cells(
    layout: str, shape: tuple[int, int], points: npt.NDArray[np.float64]
) -> npt.NDArray[np.intp]:
    """The hex cell ``(row, col)`` whose centre (:func:`hex_centre`) is nearest each
    ``(x, y)`` point, ``(-1, -1)`` where that centre is off the grid of ``shape``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid._capabilities import hex_cells
    >>> hex_cells("odd-r", (2, 2), np.array([(1.1, 1.4), (0.6, 1.4), (5.0, 0.5)])).tolist()
    [[1, 0], [1, 0], [-1, -1]]
    """
    shoved = 1 if layout.startswith("odd") else 0
    by_row = layout.endswith("-r")
    along, across = (points[:, 0], points[:, 1]) if by_row else (points[:, 1], points[:, 0])
    best = np.full(len(points), np.inf)
    lines = np.zeros(len(points), dtype=np.intp)
    steps = np.zeros(len(points), dtype=np.intp)
    for dr in (-1, 0, 1):
        line = np.floor(across).astype(np.intp) + dr  # the row (or column) of centres
        shift = np.where(line % 2 == shoved, 0.5, 0.0)
        step = np.floor(along - shift).astype(np.intp)  # the nearest centre along it
        d = (along - (step + 0.5 + shift)) ** 2 + (across - (line + 0.5)) ** 2
        nearer = d < best
        best = np.where(nearer, d, best)
        lines = np.where(nearer, line, lines)
        steps = np.where(nearer, step, steps)
    rows, cols = (lines, steps) if by_row else (steps, lines)
    out = np.stack((rows, cols), axis=1)
    off = (rows < 0) | (rows >= shape[0]) | (cols < 0) | (cols >= shape[1])
    out[off] = -1
    return out


def space(world: Any, stencil: Stencil, layout: str | None) -> CellSpace:
    """The agents' space of a stencil world; ``layout`` for a hex grid's centres (and
    its floor, :class:`~pathcraft._floors.CentreFloor`); a move grid's floor is free
    space (its jumps are the motion)."""
    costs, moves = (lambda: world[:, :]), stencil.flat_moves
    if layout is None:
        return CellSpace(
            world, lambda cell: float(world[cell]), floor=FreeSpace, costs=costs, moves=moves
        )

    def floor() -> CentreFloor:
        return CentreFloor(
            lambda: np.isfinite(world[:, :]),
            lambda: int(world.version),
            lambda points: hex_cells(layout, world.shape, points),
            lambda cells: hex_centres(layout, cells),
            lambda cells: hex_outlines(layout, cells),
        )

    return CellSpace(
        world, lambda cell: float(world[cell]), lambda c: hex_centre(layout, c), floor=floor,
        costs=costs, moves=moves,
    )  # fmt: skip


class StencilReplan:
    """A stencil world as D* Lite sees it (:class:`pathcraft.replan.ReplanSpace`):
    vertices are padded cells, each with one edge per move (``inf`` into a wall, or
    where ``allowed`` forbids it), weights recomputed where cells change.

    The heuristic: a move grid's own (the Euclidean distance times its scale, over
    cell coordinates); none on a hex grid (Euclidean offset coordinates overestimate
    a hex step), so its repairs are Dijkstra's.

    Memory: per padded cell and move, a head (4 bytes) and a weight (8), and what the
    kernel derives (the predecessors, about 16); for a hex grid about 170 bytes a cell,
    8 times a grid replanner's: plan for a few agents this way.
    """

    __slots__ = ("_stencil", "coords", "heads", "inner", "klass", "offsets", "weights", "world")

    def __init__(self, world: Any, stencil: Stencil, heuristic: bool) -> None:
        self.world = world
        self._stencil = stencil
        height, width = stencil.padded.shape
        p = stencil.pad
        k = stencil.factors.shape[1]
        rows, cols = np.divmod(np.arange(height * width, dtype=np.intp), width)
        self.inner = (rows >= p) & (rows < height - p) & (cols >= p) & (cols < width - p)
        klass = np.zeros(rows.shape, dtype=np.intp)
        if stencil.parity == "row":
            klass = (rows - p) % 2
        elif stencil.parity == "col":
            klass = (cols - p) % 2
        self.klass = klass.astype(np.int8)
        moves = stencil.moves.reshape(2, k, 2)[klass]  # (vertices, k, 2)
        targets = (rows[:, None] + moves[:, :, 0]) * width + cols[:, None] + moves[:, :, 1]
        # the border's edges loop back (weighing inf): every head stays inside the array
        targets = np.where(self.inner[:, None], targets, np.arange(rows.size)[:, None])
        self.heads = targets.astype(np.int32).ravel()
        self.offsets = np.arange(0, rows.size * k + 1, k, dtype=np.int64)
        self.weights = np.empty(rows.size * k, dtype=np.float64)
        self._reweigh(np.arange(rows.size, dtype=np.intp))
        self.coords = np.column_stack((cols, rows)).astype(np.float64) if heuristic else None

    def _reweigh(self, vertices: npt.NDArray[np.intp]) -> None:
        """Recompute the weights of the edges leaving ``vertices``, in place."""
        stencil = self._stencil
        k = stencil.factors.shape[1]
        factors = stencil.factors[self.klass[vertices]]
        if stencil.allowed is not None:
            bits = np.left_shift(np.uint64(1), np.arange(k, dtype=np.uint64))
            factors = np.where((stencil.allowed[vertices, None] & bits) != 0, factors, np.inf)
        factors = np.where(self.inner[vertices, None], factors, np.inf)
        out = stencil.padded.ravel()[self.heads.reshape(-1, k)[vertices]] * factors
        place = (vertices[:, None] * k + np.arange(k)).ravel()
        self.weights[place] = out.ravel()

    def vertex(self, node: Any, name: str) -> int:
        cell = self.world.agent_space().key(node, name)
        width = self._stencil.padded.shape[1]
        p = self._stencil.pad
        return int((cell[0] + p) * width + cell[1] + p)

    def node(self, vertex: int) -> Hashable:
        row, col = divmod(vertex, self._stencil.padded.shape[1])
        p = self._stencil.pad
        return (row - p, col - p)

    def planner(self, start: int, goal: int) -> _kernel.Planner:
        return _kernel.graph_planner(
            self.offsets, self.heads, self.weights, self.coords, start, goal, self.scale()
        )

    def scale(self) -> float:
        return self._stencil.hscale if self.coords is not None else 0.0

    def changed(self, since: int) -> tuple[int, npt.NDArray[np.intp] | None]:
        cells = self.world.changes_since(since)
        width = self._stencil.padded.shape[1]
        p = self._stencil.pad
        flat = (cells[:, 0] + p) * width + cells[:, 1] + p
        reach = self._stencil.moves.reshape(-1, 2)
        near = (flat[:, None] - (reach[:, 0] * width + reach[:, 1])).ravel()
        k = self._stencil.factors.shape[1]
        near = sorted_unique(near[(near >= 0) & (near < self.inner.shape[0])])
        tails = near[np.isin(self.heads.reshape(-1, k)[near], flat).any(axis=1)]
        self._reweigh(tails)
        return int(cells.shape[0]), tails

    def path(self, vertices: npt.NDArray[np.intp] | None) -> npt.NDArray[np.intp]:
        if vertices is None:
            return np.empty((0, 2), dtype=np.intp)
        rows, cols = np.divmod(vertices, self._stencil.padded.shape[1])
        return np.stack((rows, cols), axis=1).astype(np.intp) - self._stencil.pad

    def open(self, start: int, goal: int) -> bool:
        padded = self._stencil.padded.ravel()
        return bool(np.isfinite(padded[start]) and np.isfinite(padded[goal]))
