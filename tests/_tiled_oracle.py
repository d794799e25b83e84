"""An independent rasterisation of Tiled obstacles, for the tests: one cell at a time,
by other shapely predicates than the reader's (interiors meeting, for "overlap";
a point inside, for "center"; a clipped area, for a fraction)."""

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
                if cover == "overlap":
                    hit = s.relate_pattern(shapely.box(left, top, left + w, top + h), "T********")
                elif cover == "center":
                    hit = union.contains(shapely.Point(left + w / 2, top + h / 2))
                else:
                    part = shapely.clip_by_rect(union, left, top, left + w, top + h).area
                    hit = part / (w * h) >= float(cover) - 1e-9
                out[r, c] |= bool(hit)
    return out
