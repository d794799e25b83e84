"""Pictures of a compact heightfield's layers from above, as RecastDemo draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pathcraft._validation import check_choice
from pathcraft.navmesh3d._layers import CompactHeightfield

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["LAYERS", "draw_layers"]

#: What :func:`draw_layers` can draw.
LAYERS = ("regions", "distance", "height", "walkable")


def _region_colors(n: int) -> np.ndarray:
    """A fixed, well-spread colour per region id (0: grey)."""
    rng = np.random.default_rng(35)
    colors = rng.uniform(0.25, 0.95, size=(n + 1, 3))
    colors[0] = (0.55, 0.55, 0.55)
    return colors


def draw_layers(
    chf: CompactHeightfield,
    layer: str = "regions",
    *,
    floor: str = "top",
    ax: Axes | None = None,
) -> Axes:
    """Draw one layer of a compact heightfield seen from above (z up).

    Each column shows one of its spans: the highest (``floor="top"``, as seen from
    above) or the lowest (``"bottom"``). The picture is in world ``(x, y)``: x to the
    right, y up.

    Parameters
    ----------
    chf : CompactHeightfield
        From :func:`~pathcraft.navmesh3d.build_compact`.
    layer : {"regions", "distance", "height", "walkable"}
        The regions in distinct colours (grey: walkable without a region, as a
        filtered one), the distance field (Recast's ``dist``, bright far from
        borders), the floor's height, or walkable (light) and eroded (dark) spans.
    floor : {"top", "bottom"}
        Which span of each column to draw.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        Without matplotlib (the ``viz`` extra).
    ValueError
        An unknown ``layer`` or ``floor``.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft.navmesh3d import build_compact, draw_layers
    >>> floor = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
    >>> chf = build_compact(floor, [[0, 1, 2], [0, 2, 3]])
    >>> ax = draw_layers(chf, "distance")
    >>> ax.get_title()
    'distance field (top spans)'
    """
    check_choice("layer", layer, LAYERS)
    check_choice("floor", floor, ("top", "bottom"))
    if not isinstance(chf, CompactHeightfield):
        raise TypeError(f"chf must be a CompactHeightfield; got {type(chf).__name__}")
    import pathcraft.viz  # noqa: F401  (without matplotlib: an ImportError naming the extra)

    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7.0, 7.0 * chf.depth / max(chf.width, 1) + 0.4))
    which = -1 if floor == "top" else 0
    top = float(chf.bmax[1])  # the grid's rows run down from its largest y
    extent = (chf.bmin[0], chf.bmin[0] + chf.width * chf.cs, top - chf.depth * chf.cs, top)
    has = chf.column_layer(np.ones(chf.span_count), layer=which, fill=0.0) > 0
    if layer == "regions":
        region = chf.column_layer(chf.region & 0x7FFF, layer=which, fill=0).astype(np.int64)
        walkable = chf.column_layer(chf.area, layer=which, fill=0) > 0
        rgb = _region_colors(int(region.max()))[region]
        rgb[~walkable] = (0.25, 0.25, 0.25)
        image = np.concatenate([rgb, has[..., None].astype(float)], axis=2)
        ax.imshow(image, origin="lower", extent=extent, interpolation="nearest")
        title = f"{chf.n_regions} regions"
    elif layer == "distance":
        values = chf.column_layer(chf.dist, layer=which)
        ax.imshow(values, origin="lower", extent=extent, cmap="gray", interpolation="nearest")
        title = "distance field"
    elif layer == "height":
        values = chf.column_layer(chf.bmin[2] + chf.z * chf.ch, layer=which)
        shown = ax.imshow(
            values, origin="lower", extent=extent, cmap="viridis", interpolation="nearest"
        )
        ax.figure.colorbar(shown, ax=ax, shrink=0.8, label="floor height")
        title = "floor height"
    else:
        values = chf.column_layer(chf.area > 0, layer=which)
        ax.imshow(
            values,
            origin="lower",
            extent=extent,
            cmap="gray",
            vmin=-0.5,
            vmax=1.2,
            interpolation="nearest",
        )
        title = "walkable spans"
    ax.set_title(f"{title} ({floor} spans)")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_aspect("equal")
    return ax
