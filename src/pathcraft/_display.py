"""The notebook display of a :class:`~pathcraft.result.PathResult`: an HTML summary and,
when the path is drawable without its world, a small SVG of it.

Pure Python and NumPy: a notebook shows a result whether or not the ``viz`` extra is
installed (drawing a result on its world, with matplotlib, is ``result.plot(world)``).
Grid paths are ``(row, col)`` cells, drawn with row 0 at the top; continuous paths are
``(x, y)`` (or ``(x, y, z)``, drawn from above) with ``y`` up.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pathcraft.result import PathResult

__all__ = ["path_svg", "summary_html"]

#: The size of the drawing's longer side, in pixels.
SIZE = 240
#: Explored cells drawn at most (a bigger recording is thinned evenly).
MAX_EXPLORED = 4000


def summary_html(result: PathResult) -> str:
    """The HTML of a result's notebook display: a table of its numbers and a drawing.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import PathResult
    >>> html = summary_html(PathResult(path=np.array([[0, 0], [0, 1]]), cost=1.0, found=True))
    >>> "<svg" in html and "cost" in html
    True
    """
    rows = [
        ("found", "yes" if result.found else "no"),
        ("cost", f"{result.cost:.6g}"),
        ("path", f"{len(result.path)} nodes" + (" (partial)" if _partial(result) else "")),
        ("expanded", f"{result.expanded:,}"),
        ("generated", f"{result.generated:,}"),
        ("time", f"{result.elapsed * 1e3:.3g} ms"),
    ]
    if result.reason is not None:
        rows.insert(1, ("reason", result.reason))
    cells = "".join(
        f"<tr><th style='text-align:left'>{name}</th><td>{html.escape(value)}</td></tr>"
        for name, value in rows
    )
    table = f"<table><caption>PathResult</caption>{cells}</table>"
    picture = path_svg(result)
    if picture is None:
        return table
    return (
        "<div style='display:flex;gap:1em;align-items:flex-start'>"
        f"{table}<div>{picture}</div></div>"
    )


def _partial(result: PathResult) -> bool:
    return not result.found and len(result.path) > 0


def _points(value: Any) -> npt.NDArray[Any] | None:
    """``value`` as an ``(n, 2)`` or ``(n, 3)`` numeric array, or None."""
    if not isinstance(value, np.ndarray) or value.ndim != 2 or value.shape[1] not in (2, 3):
        return None
    if value.dtype.kind not in "iuf" or value.shape[0] == 0:
        return None
    return value


def path_svg(result: PathResult) -> str | None:
    """An SVG drawing of the path (and of the recorded explored cells of a grid
    search), or None when the path is not an array of cells or positions.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import PathResult
    >>> path_svg(PathResult(path=["a", "b"], cost=1.0, found=True)) is None
    True
    >>> path_svg(PathResult(path=np.array([[0.0, 0.0], [3.0, 4.0]]), cost=5.0, found=True))[:4]
    '<svg'
    """
    points = _points(result.path)
    if points is None:
        return None
    cells = points.dtype.kind in "iu"
    explored = None
    if cells and result.explored is not None:
        explored = _points(np.asarray(result.explored.nodes))
    if cells:  # (row, col): x is the column, y the row, row 0 at the top
        xy = points[:, ::-1].astype(np.float64) + 0.5
        lo = xy.min(axis=0) - 0.5
        hi = xy.max(axis=0) + 0.5
        if explored is not None:
            ex = explored[:, ::-1].astype(np.float64)
            lo = np.minimum(lo, ex.min(axis=0))
            hi = np.maximum(hi, ex.max(axis=0) + 1.0)
        flip = False
    else:  # (x, y): y up
        xy = points[:, :2].astype(np.float64)
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        flip = True
    span = float(max(hi[0] - lo[0], hi[1] - lo[1], 1e-9))
    scale = (SIZE - 16) / span
    width = (hi[0] - lo[0]) * scale + 16
    height = (hi[1] - lo[1]) * scale + 16

    def at(x: float, y: float) -> tuple[float, float]:
        px = 8 + (x - lo[0]) * scale
        py = 8 + ((hi[1] - y) if flip else (y - lo[1])) * scale
        return px, py

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
        f"viewBox='0 0 {width:.1f} {height:.1f}'>",
        f"<rect width='{width:.1f}' height='{height:.1f}' fill='#f7f7f7'/>",
    ]
    if explored is not None:
        step = max(1, len(explored) // MAX_EXPLORED)
        size = max(scale, 0.5)
        for r, c in explored[::step, :2].tolist():
            x, y = at(c, r)
            parts.append(
                f"<rect x='{x:.1f}' y='{y:.1f}' width='{size:.1f}' height='{size:.1f}' "
                "fill='#f6c177'/>"
            )
    line = " ".join("{:.1f},{:.1f}".format(*at(x, y)) for x, y in xy.tolist())
    color = "#1f5fbf" if result.found else "#888888"
    parts.append(
        f"<polyline points='{line}' fill='none' stroke='{color}' stroke-width='2' "
        "stroke-linejoin='round'/>"
    )
    sx, sy = at(*xy[0])
    gx, gy = at(*xy[-1])
    parts.append(f"<circle cx='{sx:.1f}' cy='{sy:.1f}' r='4' fill='#2ca02c'/>")
    parts.append(f"<circle cx='{gx:.1f}' cy='{gy:.1f}' r='4' fill='#c0399b'/>")
    parts.append("</svg>")
    return "".join(parts)
