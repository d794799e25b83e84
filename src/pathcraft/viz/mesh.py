"""Pictures of navigation meshes: :func:`plot_mesh`.

Positions are ``(x, y)``, drawn with ``y`` upwards (pass ``invert_y=True`` for a mesh
made from a grid, whose rows grow downwards). The polygons are drawn as one matplotlib
collection, so meshes of tens of thousands of polygons draw in a moment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pathcraft.result import PathResult
from pathcraft.viz._image import GOAL_RGB, PATH_RGB, START_RGB, WALL_RGB

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from pathcraft.navmesh import NavMesh

__all__ = ["plot_mesh"]

#: Line colours of the paths after the first (which is drawn in the path blue).
_OTHER_PATHS = ((230, 120, 0), (0, 150, 150), (150, 60, 200))
_CORRIDOR_RGB = (255, 226, 140)
_FLOOR_RGB = (236, 240, 246)


def _color(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0)


def _paths(paths: Any) -> dict[str, PathResult]:
    if paths is None:
        return {}
    if isinstance(paths, PathResult):
        return {"path": paths}
    if isinstance(paths, Mapping):
        out = dict(paths)
        for label, result in out.items():
            if not isinstance(result, PathResult):
                raise TypeError(
                    f"paths[{label!r}] must be a PathResult; got {type(result).__name__}"
                )
        return {str(k): v for k, v in out.items()}
    raise TypeError(
        "paths must be a PathResult, a mapping of labels to PathResults, or None; "
        f"got {type(paths).__name__}"
    )


def plot_mesh(
    mesh: NavMesh,
    paths: PathResult | Mapping[str, PathResult] | None = None,
    ax: Axes | None = None,
    *,
    corridor: Sequence[int] | np.ndarray | PathResult | None = None,
    title: str | None = None,
    invert_y: bool = False,
) -> Axes:
    """Draw a navigation mesh, a corridor of polygons and paths on it.

    The walkable polygons are light with thin outlines, the corridor's polygons are
    yellow, the first path is blue and the others orange, teal and violet, each with
    its label and length in the legend; the first path's start is a green disc and
    its end a magenta diamond.

    Parameters
    ----------
    mesh : NavMesh
        The mesh.
    paths : PathResult, mapping of str to PathResult, or None
        Paths to draw (``{"funnel": ..., "optimal": ...}`` to compare them).
    ax : matplotlib Axes or None
        Where to draw; a new figure when None.
    corridor : sequence of int, PathResult or None
        Polygon indices to highlight, or the result of :meth:`NavMesh.corridor`.
    title : str or None
        The title; by default the number of polygons.
    invert_y : bool
        Draw ``y`` growing downwards (for meshes made from grids).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        ``paths`` is not a PathResult or a mapping of them.
    ValueError
        A corridor polygon that is not in the mesh.

    Examples
    --------
    >>> from shapely import box
    >>> from pathcraft import NavMesh
    >>> from pathcraft.viz import plot_mesh
    >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    >>> ax = plot_mesh(mesh, {"optimal": mesh.find_path((1, 9), (9, 9), algorithm="optimal")},
    ...                corridor=mesh.corridor((1, 9), (9, 9)))
    >>> ax.get_title(), ax.get_legend().get_texts()[0].get_text()
    ('navigation mesh: 3 polygons', 'optimal: 17.23')
    """
    from matplotlib import patheffects
    from matplotlib.collections import PolyCollection

    results = _paths(paths)
    n = mesh.num_polygons
    chosen = np.zeros(n, dtype=bool)
    if corridor is not None:
        ids = corridor.path if isinstance(corridor, PathResult) else corridor
        idx = np.asarray(ids, dtype=np.intp).reshape(-1)
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:
            raise ValueError(
                f"corridor names polygon {int(bad[0])}; the mesh has polygons 0 to {n - 1}"
            )
        chosen[idx] = True
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7.0, 6.0))
    xy = mesh.vertices
    rings = [xy[p] for p in mesh.polygons]
    faces = np.where(chosen[:, None], _color(_CORRIDOR_RGB), _color(_FLOOR_RGB))
    ax.add_collection(
        PolyCollection(
            rings, facecolors=faces, edgecolors=(0.55, 0.58, 0.65), linewidths=0.4, zorder=1
        )
    )
    ax.set_facecolor(_color(WALL_RGB))
    colors = [PATH_RGB, *_OTHER_PATHS]
    first = None
    for i, (label, result) in enumerate(results.items()):
        path = np.asarray(result.path, dtype=np.float64).reshape(-1, 2)
        if path.shape[0] == 0:
            continue
        if first is None:
            first = path
        ax.plot(
            path[:, 0], path[:, 1], color=_color(colors[i % len(colors)]), linewidth=2.0,
            solid_capstyle="round", solid_joinstyle="round", zorder=3 + i,
            label=f"{label}: {result.cost:.2f}",
            path_effects=[patheffects.withStroke(linewidth=3.6, foreground="white")],
        )  # fmt: skip
    if first is not None:
        for point, rgb, marker in ((first[0], START_RGB, "o"), (first[-1], GOAL_RGB, "D")):
            ax.plot(
                point[0], point[1], linestyle="none", marker=marker, markersize=8,
                color=_color(rgb), markeredgecolor="black", markeredgewidth=0.8, zorder=10,
            )  # fmt: skip
        ax.legend(loc="best", fontsize=8, framealpha=0.9)
    x0, y0 = xy.min(axis=0)
    x1, y1 = xy.max(axis=0)
    pad = 0.02 * max(x1 - x0, y1 - y0)
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim((y1 + pad, y0 - pad) if invert_y else (y0 - pad, y1 + pad))
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.tick_params(labelsize=8)
    ax.set_title(f"navigation mesh: {n:,} polygons" if title is None else title, fontsize=10)
    return ax
