"""Pictures of the second half of a build from above: contours and polygons, as
RecastDemo draws them (its "Contours", "Raw Contours" and "Poly Mesh" views); the
heightfield's own layers are :func:`~pathcraft.navmesh3d.draw_layers`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pathcraft.navmesh3d._contours import ContourSet
from pathcraft.navmesh3d._polymesh import PolyMesh3D

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["draw_build"]


def _need_viz() -> None:
    """Without matplotlib, importing :mod:`pathcraft.viz` raises ImportError naming the
    ``viz`` extra."""
    import pathcraft.viz  # noqa: F401


def draw_build(
    contours: ContourSet | None = None,
    mesh: PolyMesh3D | None = None,
    *,
    raw: bool = False,
    ax: Axes | None = None,
) -> Axes:
    """Draw region contours and/or polygons of a build seen from above (z up).

    Parameters
    ----------
    contours : ContourSet, optional
        From :func:`~pathcraft.navmesh3d.build_contours`: each region's outline in its
        own colour (the colours :func:`~pathcraft.navmesh3d.draw_layers` gives regions).
    mesh : PolyMesh3D, optional
        From :func:`~pathcraft.navmesh3d.build_polymesh` or
        :func:`~pathcraft.navmesh3d.build`: the polygons filled, coloured by height,
        their edges drawn.
    raw : bool
        The traced contours (cell by cell) instead of the simplified ones.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        Without matplotlib (the ``viz`` extra).
    TypeError
        An argument of the wrong kind, or neither ``contours`` nor ``mesh``.

    Examples
    --------
    >>> from pathcraft.navmesh3d import build_compact, build_contours, build_polymesh
    >>> from pathcraft.navmesh3d import draw_build
    >>> floor = [[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]]
    >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
    >>> contours = build_contours(chf)
    >>> ax = draw_build(contours, build_polymesh(contours, chf))
    >>> ax.get_title()
    '1 contours, 1 polygons'
    """
    if contours is None and mesh is None:
        raise TypeError("draw_build needs contours, mesh or both")
    if contours is not None and not isinstance(contours, ContourSet):
        raise TypeError(f"contours must be a ContourSet; got {type(contours).__name__}")
    if mesh is not None and not isinstance(mesh, PolyMesh3D):
        raise TypeError(f"mesh must be a PolyMesh3D; got {type(mesh).__name__}")
    _need_viz()
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection

    from pathcraft.navmesh3d._drawlayers import _region_colors

    if ax is None:
        _, ax = plt.subplots(figsize=(7.0, 7.0))
    title = []
    if mesh is not None:
        rings = [mesh.vertices[p[p >= 0]] for p in mesh.polygons]
        heights = np.array([r[:, 2].mean() for r in rings]) if rings else np.zeros(0)
        cells = PolyCollection(
            [r[:, :2] for r in rings], array=heights, cmap="viridis", alpha=0.55,
            edgecolors="0.15", linewidths=0.6,
        )  # fmt: skip
        ax.add_collection(cells)
        title.append(f"{mesh.num_polygons} polygons")
    if contours is not None:
        colors = _region_colors(int(contours.region.max(initial=0)))
        shown = 0
        verts, start, count = (
            (contours.raw, contours.raw_start, contours.raw_count)
            if raw
            else (contours.verts, contours.start, contours.count)
        )
        for k in range(start.shape[0]):
            if count[k] == 0:
                continue
            ring = contours.world(verts[start[k] : start[k] + count[k]])
            closed = np.vstack([ring, ring[:1]])
            ax.plot(closed[:, 0], closed[:, 1], color=colors[contours.region[k]], linewidth=1.5)
            shown += 1
        title.insert(0, f"{shown} {'raw ' if raw else ''}contours")
    ax.autoscale_view()
    ax.set_title(", ".join(title))
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_aspect("equal")
    return ax
