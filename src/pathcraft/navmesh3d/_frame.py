"""The frame a build lays its grid in: Recast's, the level mirrored ``y -> -y``.

A y-up level file's ``(X, Y, Z)`` is our ``(X, -Z, Y)`` (a rotation, so that tops stay
up), so Recast lays its rows along the file's ``+Z``, our ``-y``, from the level's
largest ``y``. Our build lays its grid the same way, so that its cells are Recast's:
a face lying exactly on a cell boundary then falls in Recast's cell (Recast's
rasteriser gives it to the cell on its ``+`` side, in its frame), and every scan
(rasterisation, filters, erosion, watershed, contours, polygons) runs in Recast's
order.

The pipeline is entered with the level mirrored (:func:`to_recast`: ``y`` negated, so
that each coordinate is the one Recast reads from the file; a box with
:func:`box_to_recast`). The triangles keep their corners in the caller's order, as
Recast reads them: the slope test takes the top the other way round in this frame, as
Recast's does in its own, and the rasteriser computes in single precision in Recast's
order of operations, so that the heightfield is Recast's span for span. The pipeline
is left through the grid's cells: a heightfield keeps its box in the caller's frame,
and its row ``r`` lies ``r`` cells *below* the box's largest ``y`` (:func:`row_y`).
Every output (polygons, detail heights, contour points, span
points, pictures) is therefore in the caller's frame, and a polygon that Recast winds
one way seen from above in its frame comes out the other way in ours:
counter-clockwise, as :class:`~pathcraft.navmesh3d.PolyMesh3D` wants it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["box_to_recast", "row_y", "to_recast"]

FloatArray = npt.NDArray[np.float64]

#: ``(x, y, z)`` times this is the point in Recast's frame (and back).
MIRROR = np.array([1.0, -1.0, 1.0])


def to_recast(verts: FloatArray) -> FloatArray:
    """The level's points in Recast's frame, ``y`` negated (a new array): its ``(x, y,
    z)`` is then a y-up file's ``(X, Z, Y)``, each coordinate Recast's own."""
    return np.asarray(verts * MIRROR, dtype=np.float64)


def box_to_recast(box: FloatArray) -> FloatArray:
    """A box ``[(xmin, ymin, zmin), (xmax, ymax, zmax)]`` in the other frame: its ``y``
    bounds negated and swapped (the same function both ways)."""
    out = np.array(box, dtype=np.float64)
    out[0, 1], out[1, 1] = -box[1][1], -box[0][1]
    return out


def row_y(top: float, rows: npt.ArrayLike, cs: float) -> FloatArray:
    """The caller's ``y`` of grid rows ``rows`` (fractional: a cell's centre is
    ``r + 0.5``), counted in cells of ``cs`` down from ``top``, the grid's largest
    ``y``."""
    return np.asarray(top - np.asarray(rows, dtype=np.float64) * cs, dtype=np.float64)

