"""Square grids with a custom set of moves, searched by the compiled stencil kernel."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._saved import SavedArrays
from pathcraft.grid.kit import cost_array
from pathcraft.hexgrid import _stencil
from pathcraft.hexgrid._stencilgrid import StencilGrid
from pathcraft.world import register_kind

#: The eight moves of a chess knight, factor sqrt(5) (their length).
KNIGHT: list[tuple[int, int]] = [
    (-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1),
]  # fmt: skip
#: The 16-neighbourhood: the eight king moves and the eight knight moves.
SIXTEEN: list[tuple[int, int]] = [
    (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1), *KNIGHT,
]  # fmt: skip


class MovesGrid(StencilGrid):
    """A square grid whose moves are given: each ``(dr, dc, factor)`` steps ``dr``
    rows and ``dc`` columns; cells are ``(row, col)``.

    Entering a cell by a move costs the cell's cost times the move's factor (the
    factor defaults to the move's length, ``hypot(dr, dc)``); ``np.inf`` marks a
    wall. A move jumps: the cells it passes over are not looked at.

    A* uses the Euclidean distance times ``h = min_cost * min(factor / hypot(dr, dc))``.
    It is admissible and consistent: a step by move ``m`` into a cell of cost ``c``
    costs ``c * factor_m >= min_cost * factor_m >= h * |m|``, so a path costs at least
    ``h`` times the summed lengths of its moves, which (triangle inequality) is at
    least ``h`` times the straight-line distance from start to goal.

    Parameters
    ----------
    cost : array_like, shape (rows, cols)
        Cost of entering each cell, > 0, ``np.inf`` for walls.
    moves : sequence of (int, int) or (int, int, float)
        At most 64 distinct moves, none of length zero; factors finite and > 0.
        A move longer than the grid is kept (it never lands on a cell).
    allowed : array_like of bool, shape (rows, cols, len(moves)), optional
        Which moves may leave each cell (``allowed[r, c, k]``: move ``k`` from
        ``(r, c)``): conveyor belts that carry one way, one-way doors, ledges to jump
        down but not up. None (the default): every move from every cell. Fewer moves
        only make paths dearer, so the heuristic stays admissible.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
    >>> knight = MovesGrid(np.ones((8, 8)), moves=[(dr, dc, 1.0) for dr, dc in KNIGHT])
    >>> knight.find_path((0, 0), (7, 7)).cost
    6.0

    A conveyor: the middle row carries east only (moves up, down, left, right):

    >>> steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    >>> allowed = np.ones((3, 5, 4), dtype=bool)
    >>> allowed[1, 1:4] = [False, False, False, True]
    >>> belt = MovesGrid(np.ones((3, 5)), steps, allowed=allowed)
    >>> belt.find_path((1, 1), (1, 4)).cost, belt.find_path((1, 4), (1, 1)).cost
    (3.0, 5.0)
    """

    def __init__(self, cost: npt.ArrayLike, moves: Any, *, allowed: Any = None) -> None:
        arr = cost_array(cost)
        self.moves = _stencil.check_moves(moves)
        hfactor = min(f / math.hypot(dr, dc) for dr, dc, f in self.moves)
        self._world = _stencil.build(
            "MovesGrid", arr, (self.moves, self.moves), "none", "euclidean", hfactor
        )
        if allowed is not None:
            _stencil.restrict(self._world, allowed, len(self.moves))

    @property
    def allowed(self) -> npt.NDArray[np.bool_]:
        """Which moves may leave each cell: a boolean array ``(rows, cols, moves)``
        (a copy; every entry True when the grid was made without ``allowed``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> MovesGrid(np.ones((1, 2)), [(0, 1), (0, -1)]).allowed.tolist()
        [[[True, True], [True, True]]]
        """
        rows, cols = self.shape
        k = len(self.moves)
        masks = self._world.allowed
        if masks is None:
            return np.ones((rows, cols, k), dtype=np.bool_)
        p = self._world.pad
        inner = masks.reshape(self._world.padded.shape)[p:-p, p:-p]
        bits = np.left_shift(np.uint64(1), np.arange(k, dtype=np.uint64))
        out: npt.NDArray[np.bool_] = (inner[:, :, None] & bits) != 0
        return out

    # ------------------------------------------------------------------ capabilities
    # The rest of pathcraft.world's capabilities: StencilGrid's (hexgrid/_stencilgrid.py).

    #: The name of a saved move grid (:func:`pathcraft.io.save`).
    kind = "movesgrid"

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: ``cost``, ``moves`` (``(k, 2)``), ``factors`` and,
        when some moves are forbidden, ``allowed``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import MovesGrid
        >>> sorted(MovesGrid(np.ones((2, 2)), [(0, 1)]).to_arrays())
        ['cost', 'factors', 'moves']
        """
        arrays = {
            "cost": self._world.inner.copy(),
            "moves": np.array([(dr, dc) for dr, dc, _ in self.moves], dtype=np.int64),
            "factors": np.array([f for _, _, f in self.moves], dtype=np.float64),
        }
        if self._world.allowed is not None:
            arrays["allowed"] = self.allowed
        return arrays

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> MovesGrid:
        """Capability ``"save"``: the move grid :meth:`to_arrays` wrote, checked again.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import KNIGHT, MovesGrid
        >>> knight = MovesGrid(np.ones((8, 8)), [(dr, dc, 1.0) for dr, dc in KNIGHT])
        >>> MovesGrid.from_arrays(knight.to_arrays()).find_path((0, 0), (7, 7)).cost
        6.0
        """
        a = SavedArrays(arrays, cls.kind)
        moves, factors = a.take("moves", "int", 2), a.take("factors", "float", 1)
        if moves.shape[1:] != (2,) or factors.shape != moves.shape[:1]:
            raise ValueError(
                f"moves must be (k, 2) and factors (k,); got {moves.shape} and {factors.shape}"
            )
        table = [(int(dr), int(dc), float(f)) for (dr, dc), f in zip(moves, factors, strict=True)]
        allowed = a.take("allowed", "bool", 3, optional=True)
        return cls(a.take("cost", "float", 2), table, allowed=allowed)


register_kind(MovesGrid)
