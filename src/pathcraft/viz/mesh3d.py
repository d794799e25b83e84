"""Pictures of 3-D navigation meshes: :func:`plot_mesh3d`.

Positions are ``(x, y, z)``, z up. ``view="3d"`` draws the polygons in a matplotlib 3-D
Axes, shaded by height; ``view="top"`` draws them from above (``(x, y)``, the upper
floors over the lower ones, each polygon coloured by its height), with the path on top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from pathcraft._validation import check_choice
from pathcraft.result import PathResult
from pathcraft.viz._image import GOAL_RGB, PATH_RGB, START_RGB
from pathcraft.viz.mesh import _color, _paths

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from pathcraft.navmesh3d import NavMesh3D

__all__ = ["plot_mesh3d"]


def plot_mesh3d(
    mesh: NavMesh3D,
    paths: PathResult | Mapping[str, PathResult] | None = None,
    ax: Axes | None = None,
    *,
    view: Literal["3d", "top"] = "3d",
    title: str | None = None,
) -> Axes:
    """Draw a 3-D navigation mesh and paths on it, in 3-D or from above.

    Parameters
    ----------
    mesh : NavMesh3D
        The mesh.
    paths : PathResult, mapping of str to PathResult, or None
        Paths to draw (``(n, 3)`` points), each labelled with its length.
    ax : matplotlib Axes or None
        Where to draw (a 3-D Axes for ``view="3d"``); a new figure when None.
    view : {"3d", "top"}
        In perspective, or from above.
    title : str or None
        The title; by default the number of polygons.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
    >>> from pathcraft.viz import plot_mesh3d
    >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (6, 0, 2), (6, 2, 2)]
    >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2]]))
    >>> ax = plot_mesh3d(mesh, mesh.find_path((1, 1, 0), (5, 1, 1.5)))
    >>> ax.get_title(), ax.name
    ('3-D navigation mesh: 2 polygons', '3d')
    >>> plot_mesh3d(mesh, view="top").get_aspect()
    1.0
    """
    from matplotlib import colormaps
    from matplotlib.collections import PolyCollection

    check_choice("view", view, ("3d", "top"))
    results = _paths(paths)
    poly = mesh.polymesh
    verts = poly.vertices
    rings = [verts[r[r >= 0]] for r in poly.polygons]
    z = np.array([r[:, 2].mean() for r in rings])
    lo, hi = float(verts[:, 2].min()), float(verts[:, 2].max())
    shade = colormaps["viridis"]((z - lo) / (hi - lo if hi > lo else 1.0))
    shade[:, 3] = 0.55
    import matplotlib.pyplot as plt

    if view == "3d":
        from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # type: ignore[import-untyped]

        if ax is None:
            fig = plt.figure(figsize=(7.0, 6.0))
            ax = fig.add_subplot(projection="3d")
        axes3d: Any = ax
        axes3d.add_collection3d(
            Poly3DCollection(rings, facecolors=shade, edgecolors=(0.3, 0.3, 0.35), linewidths=0.4)
        )
        ax.set_xlim(verts[:, 0].min(), verts[:, 0].max())
        ax.set_ylim(verts[:, 1].min(), verts[:, 1].max())
        axes3d.set_zlim(lo, hi if hi > lo else lo + 1.0)
        axes3d.set_zlabel("z")
    else:
        if ax is None:
            _, ax = plt.subplots(figsize=(7.0, 6.0))
        order = np.argsort(z, kind="stable")  # the upper floors drawn over the lower
        ax.add_collection(
            PolyCollection(
                [rings[i][:, :2] for i in order], facecolors=shade[order],
                edgecolors=(0.3, 0.3, 0.35), linewidths=0.4, zorder=1,
            )
        )  # fmt: skip
        x0, y0 = verts[:, :2].min(axis=0)
        x1, y1 = verts[:, :2].max(axis=0)
        pad = 0.02 * max(x1 - x0, y1 - y0, 1e-9)
        ax.set_xlim(x0 - pad, x1 + pad)
        ax.set_ylim(y0 - pad, y1 + pad)
        ax.set_aspect("equal")
    first = None
    for i, (label, result) in enumerate(results.items()):
        path = np.asarray(result.path, dtype=np.float64).reshape(-1, 3)
        if path.shape[0] == 0:
            continue
        first = path if first is None else first
        coords = (path[:, 0], path[:, 1], path[:, 2]) if view == "3d" else (path[:, 0], path[:, 1])
        ax.plot(*coords, color=_color(PATH_RGB) if i == 0 else None, linewidth=2.2,
                label=f"{label}: {result.cost:.2f}", zorder=5)  # fmt: skip
    if first is not None:
        for point, rgb, marker in ((first[0], START_RGB, "o"), (first[-1], GOAL_RGB, "D")):
            coords = tuple(point) if view == "3d" else tuple(point[:2])
            ax.plot(*([c] for c in coords), linestyle="none", marker=marker, markersize=8,
                    color=_color(rgb), markeredgecolor="black", zorder=10)  # fmt: skip
        ax.legend(loc="best", fontsize=8, framealpha=0.9)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title(
        f"3-D navigation mesh: {mesh.num_polygons:,} polygons" if title is None else title,
        fontsize=10,
    )
    return ax
