"""The compact heightfield: the walkable spans of a level, their links and regions.

Recast's ``rcCompactHeightfield`` as flat NumPy arrays. The grid is laid over the
level seen from above (z up) as Recast lays it (``_frame``): its rows run from the
box's largest ``y`` toward ``-y``. A column ``c = x + r * width`` is cell ``(x, y)``
with ``y = depth - 1 - r`` in the caller's frame; each column holds its spans bottom
to top.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pathcraft.navmesh3d._frame import row_y
from pathcraft.navmesh3d._polymesh import WALKABLE_AREA

__all__ = ["BORDER_REGION", "DIRECTIONS", "NULL_AREA", "WALKABLE_AREA", "CompactHeightfield"]

#: Recast's ``RC_NULL_AREA``: a span no agent stands on.
NULL_AREA = 0
#: Recast's ``RC_BORDER_REG``: the flag of a region in a tile's border.
BORDER_REGION = 0x8000
#: The neighbour of each column of :attr:`CompactHeightfield.con`, as a step ``(dx, dy)``
#: of :meth:`CompactHeightfield.span_cells`: Recast's order (its ``(-1, 0), (0, 1),
#: (1, 0), (0, -1)`` in its rows, which run along ``-y``).
DIRECTIONS = ((-1, 0), (0, -1), (1, 0), (0, 1))


@dataclass(frozen=True, eq=False)
class CompactHeightfield:
    """The open spans of a level, linked to their neighbours, with regions.

    Made by :func:`~pathcraft.navmesh3d.build_compact`. Positions are ``(x, y, z)``, z
    up; cells are ``(x, y)`` columns, ``cs`` wide, heights are counted in cells of
    ``ch`` above ``bmin[2]``. The arrays are read-only.

    The grid is laid as Recast lays it over a y-up level: column ``x`` starts at
    ``bmin[0] + x * cs``, and the rows are counted from the box's largest ``y`` down,
    row ``r`` from ``bmax[1] - (r + 1) * cs`` to ``bmax[1] - r * cs``. The per-column
    arrays hold the columns in that order (``c = x + r * width``);
    :meth:`span_cells`, :meth:`span_points` and :meth:`column_layer` give the caller's
    frame, cell ``(x, y)`` with ``y = depth - 1 - r`` counted up from
    ``bmax[1] - depth * cs``.

    Attributes
    ----------
    width, depth : int
        Columns along x and along y (``border`` included).
    border : int
        Cells of tile border around the tile proper, on each side.
    bmin, bmax : ndarray of float64, shape (3,)
        The box covered, world ``(x, y, z)`` (border included); row 0 is at
        ``bmax[1]``.
    cs, ch : float
        Cell size (x, y) and cell height (z), world units.
    walkable_height, walkable_climb : int
        The agent's height and climb the heightfield was built for, cells of ``ch``.
    cell_first, cell_count : ndarray of int32, shape (width * depth,)
        The first span of column ``x + r * width`` (row ``r``, ``y = depth - 1 - r``)
        and how many it has.
    z : ndarray of int32, shape (n,)
        Each span's floor, cells of ``ch`` above ``bmin[2]`` (Recast's ``y``).
    h : ndarray of int32, shape (n,)
        The open height above the floor, cells of ``ch``, at most 255 (as Recast's).
    con : ndarray of int32, shape (n, 4)
        The neighbouring span in each of :data:`DIRECTIONS` (-1: none): reachable by
        a step within ``walkable_climb`` with headroom of ``walkable_height``.
    area : ndarray of uint8, shape (n,)
        :data:`WALKABLE_AREA` or :data:`NULL_AREA` (eroded).
    dist : ndarray of uint16, shape (n,)
        The distance field: twice the distance to the nearest border span (Recast's
        chamfer distance, 2 per straight step, 3 per diagonal, then blurred).
    region : ndarray of uint16, shape (n,)
        Each span's region, 1 to ``n_regions`` (0: none); :data:`BORDER_REGION` is set
        on the regions of a tile's border.
    n_regions : int
        The highest region id (ids are 1 to ``n_regions``, every one used; Recast's
        ``maxRegions`` also counts four empty ids when there is a tile border).

    Examples
    --------
    A 6 x 6 floor in cells of 0.3: the field's edge is a ledge (Recast drops it),
    the agent's radius erodes two more cells, and one region is left.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import BuildConfig, build_compact
    >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
    >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]], BuildConfig(agent_radius=0.6))
    >>> chf.width, chf.depth, chf.span_count, int((chf.area > 0).sum()), chf.n_regions
    (20, 20, 324, 196, 1)
    >>> chf
    CompactHeightfield(20 x 20 columns, 324 spans, 1 regions)
    >>> chf.column_layer(chf.region)[10, :4].tolist()  # row y = 10, x = 0..3
    [nan, 0.0, 0.0, 1.0]
    """

    width: int
    depth: int
    border: int
    bmin: npt.NDArray[np.float64]
    bmax: npt.NDArray[np.float64]
    cs: float
    ch: float
    walkable_height: int
    walkable_climb: int
    cell_first: npt.NDArray[np.int32]
    cell_count: npt.NDArray[np.int32]
    z: npt.NDArray[np.int32]
    h: npt.NDArray[np.int32]
    con: npt.NDArray[np.int32]
    area: npt.NDArray[np.uint8]
    dist: npt.NDArray[np.uint16]
    region: npt.NDArray[np.uint16]
    n_regions: int

    def __post_init__(self) -> None:
        for name in (
            "bmin",
            "bmax",
            "cell_first",
            "cell_count",
            "z",
            "h",
            "con",
            "area",
            "dist",
            "region",
        ):
            value = getattr(self, name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                value = value.copy()
                value.flags.writeable = False
                object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return (
            f"CompactHeightfield({self.width} x {self.depth} columns, {self.span_count} "
            f"spans, {self.n_regions} regions)"
        )

    @property
    def span_count(self) -> int:
        """How many spans the heightfield has."""
        return int(self.z.shape[0])

    def span_cells(self) -> npt.NDArray[np.int32]:
        """Each span's column as ``(x, y)`` cells, shape ``(span_count, 2)``.

        ``x`` counts columns from ``bmin[0]``, ``y`` rows up from the grid's lowest
        (``depth - 1 - r`` of row ``r``), as :meth:`column_layer` lays them out.

        Examples
        --------
        A 6 x 6 floor: the edge column is dropped as a ledge, so the first spans
        (Recast's first row, along the grid's largest ``y``) are in row ``y = 18`` of
        20, from ``x = 1`` on.

        >>> import numpy as np
        >>> from pathcraft.navmesh3d import build_compact
        >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
        >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
        >>> chf.span_cells()[:3].tolist()
        [[1, 18], [2, 18], [3, 18]]
        """
        columns = np.repeat(np.arange(self.width * self.depth, dtype=np.int32), self.cell_count)
        rows = columns // self.width
        return np.stack([columns % self.width, self.depth - 1 - rows], axis=1).astype(np.int32)

    def span_points(self) -> npt.NDArray[np.float64]:
        """Each span's floor as a world point ``(x, y, z)``, the centre of its cell.

        Returns
        -------
        ndarray of float64, shape (span_count, 3)

        Examples
        --------
        The floor of a level at z = 0 lies on top of its cells, one ``ch`` (0.2) up; the
        first spans are the centres of cells ``(1, 18)`` and ``(2, 18)``, 0.3 wide.

        >>> import numpy as np
        >>> from pathcraft.navmesh3d import build_compact
        >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
        >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
        >>> chf.span_points()[:2].round(2).tolist()
        [[0.45, 5.55, 0.2], [0.75, 5.55, 0.2]]
        """
        columns = np.repeat(np.arange(self.width * self.depth), self.cell_count)
        points = np.empty((self.span_count, 3), dtype=np.float64)
        points[:, 0] = self.bmin[0] + (columns % self.width + 0.5) * self.cs
        points[:, 1] = row_y(float(self.bmax[1]), columns // self.width + 0.5, self.cs)
        points[:, 2] = self.bmin[2] + self.z * self.ch
        return points

    def column_layer(
        self, values: npt.ArrayLike, *, layer: int = 0, fill: float = np.nan
    ) -> npt.NDArray[np.float64]:
        """A per-span array laid out as a ``(depth, width)`` image of one layer.

        ``layer`` 0 is each column's lowest span, -1 its highest; columns without such
        a span hold ``fill``. Rows are y, columns x (``image[y, x]``, cells of
        :meth:`span_cells`: row 0 the lowest ``y``, as ``imshow(origin="lower")`` draws
        it).

        Parameters
        ----------
        values : array_like, shape (span_count,)
            One value per span (``z``, ``region``, ``dist``, ...).
        layer : int
            Which span of each column: 0 the lowest, 1 the next, -1 the highest.
        fill : float
            The value of the columns that have no such span.

        Returns
        -------
        ndarray of float64, shape (depth, width)

        Raises
        ------
        ValueError
            ``values`` without one entry per span.

        Examples
        --------
        A floor with a shelf 3 above its far half: at ``x = 10`` the row ``y = 15``
        has two spans, the floor (lowest) and the shelf (highest).

        >>> import numpy as np
        >>> from pathcraft.navmesh3d import build_compact
        >>> v = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0],
        ...               [0, 3, 3], [6, 3, 3], [6, 6, 3], [0, 6, 3]], float)
        >>> chf = build_compact(v, [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
        >>> z = chf.span_points()[:, 2]
        >>> chf.column_layer(z)[[5, 15], 10].round(2).tolist()  # rows y = 5 and 15
        [0.2, 0.2]
        >>> chf.column_layer(z, layer=-1)[[5, 15], 10].round(2).tolist()
        [0.2, 3.2]
        """
        vals = np.asarray(values, dtype=np.float64)
        if vals.shape != (self.span_count,):
            raise ValueError(
                f"values must have one entry per span, shape ({self.span_count},); got {vals.shape}"
            )
        image = np.full(self.width * self.depth, fill, dtype=np.float64)
        has = self.cell_count > (layer if layer >= 0 else -layer - 1)
        index = self.cell_first + (layer if layer >= 0 else self.cell_count + layer)
        image[has] = vals[index[has]]
        flipped: npt.NDArray[np.float64] = image.reshape(self.depth, self.width)[::-1].copy()
        return flipped  # row 0 the lowest y (Recast's rows run down)
