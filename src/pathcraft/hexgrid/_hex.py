"""Hexagonal grids in offset coordinates, searched by the compiled stencil kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._saved import SavedArrays
from pathcraft._validation import check_choice
from pathcraft.grid.kit import cost_array
from pathcraft.hexgrid import _stencil
from pathcraft.hexgrid._stencilgrid import StencilGrid
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


class HexGrid(StencilGrid):
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

    #: Its replanner's repairs are Dijkstra's: the Euclidean distance over offset
    #: coordinates can overestimate a hex step.
    _replan_heuristic = False

    def __init__(self, cost: npt.ArrayLike, layout: str = "odd-r") -> None:
        self.layout = check_choice("layout", layout, tuple(LAYOUTS))
        arr = cost_array(cost)
        even, odd = LAYOUTS[self.layout]
        self._world = _stencil.build(
            "HexGrid", arr,
            ([(dr, dc, 1.0) for dr, dc in even], [(dr, dc, 1.0) for dr, dc in odd]),
            "row" if self.layout.endswith("-r") else "col", self.layout, 1.0,
        )  # fmt: skip

    def _centres(self) -> str:
        return self.layout

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

    # ------------------------------------------------------------------ capabilities
    # The rest of pathcraft.world's capabilities: StencilGrid's (hexgrid/_stencilgrid.py).

    #: The name of a saved hex grid (:func:`pathcraft.io.save`).
    kind = "hexgrid"

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


register_kind(HexGrid)
