"""An independent rasterisation of Tiled obstacles, for the tests: one cell at a time,
by other shapely predicates than the reader's (interiors meeting, for "overlap",
beyond a sliver of 1e-9 of a cell that rounding makes of an edge on a tile's line;
a point inside, for "center"; an area clipped here, ring by ring, for a fraction)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely


def expected_walls(
    shapes: list[Any],
    shape: tuple[int, int],
    tile: tuple[float, float],
    origin: tuple[float, float],
    cover: str | float,
) -> np.ndarray:
    rows, cols = shape
    w, h = tile
    ox, oy = origin
    out = np.zeros(shape, dtype=bool)
    if not shapes:
        return out
    union = shapely.union_all(shapes)
    for s in shapes:
        x0, y0, x1, y1 = s.bounds
        for r in range(max(math.floor((y0 - oy) / h), 0), min(math.ceil((y1 - oy) / h), rows)):
            for c in range(max(math.floor((x0 - ox) / w), 0), min(math.ceil((x1 - ox) / w), cols)):
                left, top = ox + c * w, oy + r * h
                if cover == "overlap":  # interiors meet, by more than rounding's slivers
                    hit = s.relate_pattern(shapely.box(left, top, left + w, top + h), "T********")
                    hit = hit and _clipped(s, left, top, w, h) > 1e-9 * w * h
                elif cover == "center":
                    hit = union.contains(shapely.Point(left + w / 2, top + h / 2))
                else:
                    part = _clipped(union, left, top, w, h)
                    hit = part / (w * h) >= float(cover) - 1e-9
                out[r, c] |= bool(hit)
    return out


def _ring_area_in(ring: Any, left: float, top: float, w: float, h: float) -> float:
    """The area of one ring inside a rectangle, by Sutherland-Hodgman clipping (exact
    for any simple ring against a convex window) and the shoelace formula."""
    pts = [tuple(p) for p in np.asarray(ring.coords)[:-1]]
    edges = [
        (lambda p: p[0] >= left, lambda a, b: _at_x(a, b, left)),
        (lambda p: p[0] <= left + w, lambda a, b: _at_x(a, b, left + w)),
        (lambda p: p[1] >= top, lambda a, b: _at_y(a, b, top)),
        (lambda p: p[1] <= top + h, lambda a, b: _at_y(a, b, top + h)),
    ]
    for inside, cross in edges:
        out = []
        for i, cur in enumerate(pts):
            prev = pts[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(cross(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cross(prev, cur))
        pts = out
        if not pts:
            return 0.0
    xs, ys = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
    return float(abs(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1))) / 2)


def _at_x(a: Any, b: Any, x: float) -> tuple[float, float]:
    t = (x - a[0]) / (b[0] - a[0])
    return x, a[1] + t * (b[1] - a[1])


def _at_y(a: Any, b: Any, y: float) -> tuple[float, float]:
    t = (y - a[1]) / (b[1] - a[1])
    return a[0] + t * (b[0] - a[0]), y


def _clipped(shape: Any, left: float, top: float, w: float, h: float) -> float:
    """The area of ``shape`` (a polygon or several) inside one cell: each outer ring's
    clipped area less its holes'."""
    total = 0.0
    for poly in getattr(shape, "geoms", [shape]):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        total += _ring_area_in(poly.exterior, left, top, w, h)
        total -= sum(_ring_area_in(r, left, top, w, h) for r in poly.interiors)
    return total
