"""A Tiled map's objects: choosing them, their centres, and the cells they cover.

- :func:`select`: objects by layer, name, class (``type`` before Tiled 1.9), kind,
  property or a predicate;
- :func:`centre`: where an object is, for spawns and waypoints (a point's position,
  the centroid of any other shape);
- :func:`covered_cells`: the cells a set of area objects makes walls of, by the rule
  the caller picks (``cover``): any overlap of positive area (the default: no wall
  vanishes between cells), the cell's centre, or a covered fraction of the cell.

Positions are map pixels ``(x, y)``, y down; cells are ``(row, col)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._aliases import documented
from pathcraft.io._tiled_source import MapData, MapObject
from pathcraft.io._tiled_tiles import names, outline, truthy

__all__ = ["COVER_RULES", "OVERLAP_TOLERANCE", "Cover", "centre", "covered_cells", "select"]

Cover = Literal["overlap", "center"] | float
if not TYPE_CHECKING:
    Cover = documented(
        Cover,
        "``cover=``: a wall where an object overlaps a cell (by positive area), where one "
        "covers its centre, or (a number in (0, 1]) where objects cover that fraction of "
        "it.",
    )
COVER_RULES = ("overlap", "center")
#: Overlaps smaller than this fraction of a cell are rounding, not area (an object
#: whose edge lies on a tile border, rotated by a few degrees' round-off).
OVERLAP_TOLERANCE = 1e-9

KINDS = ("rectangle", "ellipse", "polygon", "polyline", "point", "tile", "text")


def check_cover(cover: Any) -> None:
    """Raise unless ``cover`` is a rule of :data:`Cover`."""
    if isinstance(cover, str):
        if cover in COVER_RULES:
            return
    elif isinstance(cover, (int, float)) and not isinstance(cover, bool):
        if math.isfinite(cover) and 0 < cover <= 1:
            return
        raise ValueError(f"cover as a fraction must lie in (0, 1]; got {cover!r}")
    raise ValueError(
        f"cover must be 'overlap', 'center' or a fraction in (0, 1] of a cell; got {cover!r}"
    )


def covered_cells(data: MapData, shapes: Sequence[Any], cover: Cover) -> npt.NDArray[np.bool_]:
    """The ``(rows, cols)`` mask of the cells ``shapes`` (shapely, map pixels) cover
    under ``cover``: the shapes are merged first, so two objects covering half a cell
    each cover it whole."""
    import shapely

    check_cover(cover)
    rows, cols = data.rows, data.cols
    w, h = data.tile_size
    ox, oy = data.origin
    out = np.zeros((rows, cols), dtype=bool)
    if not shapes:
        return out
    window = np.zeros((rows, cols), dtype=bool)
    for shape in shapes:  # only the cells under some shape's bounds are looked at
        x0, y0, x1, y1 = shape.bounds
        if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            continue  # an empty shape (a polygon of fewer than three points): no area
        r0, r1 = max(math.floor((y0 - oy) / h), 0), min(math.floor((y1 - oy) / h) + 1, rows)
        c0, c1 = max(math.floor((x0 - ox) / w), 0), min(math.floor((x1 - ox) / w) + 1, cols)
        if r0 < r1 and c0 < c1:
            window[r0:r1, c0:c1] = True
    cells = np.argwhere(window)
    if not len(cells):
        return out
    union = shapely.union_all(list(shapes))
    shapely.prepare(union)
    left, top = ox + cells[:, 1] * w, oy + cells[:, 0] * h
    if cover == "center":
        hit = shapely.contains_xy(union, left + w / 2, top + h / 2)
    else:
        boxes = shapely.box(left, top, left + w, top + h)
        area = shapely.area(shapely.intersection(union, boxes)) / (w * h)
        if cover == "overlap":
            hit = area > OVERLAP_TOLERANCE
        else:
            hit = area >= float(cover) - OVERLAP_TOLERANCE
    out[cells[hit, 0], cells[hit, 1]] = True
    return out


def centre(obj: MapObject) -> tuple[float, float] | None:
    """Where an object is, in map pixels: a point's position, the centroid of a
    rectangle's, ellipse's, polygon's or tile object's area, the middle of a polyline
    (the centroid of its line); None for text."""
    if obj.kind == "point":
        return obj.x, obj.y
    if obj.kind == "polyline" and obj.points is not None and len(obj.points):
        import shapely

        line = shapely.LineString(obj.points) if len(obj.points) > 1 else None
        if line is None or line.length == 0:
            x, y = obj.points[0]
            return float(x), float(y)
        c = line.centroid
        return float(c.x), float(c.y)
    ring = outline(obj)
    if ring is None:
        if obj.kind in ("rectangle", "ellipse", "tile"):  # no size: where it was put
            return obj.x, obj.y
        return None
    import shapely

    if not len(ring):  # a polygon without points: where it was put
        return obj.x, obj.y
    c = shapely.Polygon(ring).centroid
    if c.is_empty:  # a degenerate polygon (every corner on one line)
        x, y = ring.mean(axis=0)
        return float(x), float(y)
    return float(c.x), float(c.y)


def _matches(arg: str, value: str | Iterable[str] | None) -> set[str] | None:
    chosen = names(arg, value)
    return None if chosen is None else set(chosen)


def select(
    where: str,
    objects: Sequence[MapObject],
    *,
    name: str | Iterable[str] | None = None,
    class_: str | Iterable[str] | None = None,
    kind: str | Iterable[str] | None = None,
    property: str | Mapping[str, Any] | None = None,
    predicate: Callable[[MapObject], bool] | None = None,
) -> list[MapObject]:
    """The objects that pass every test given (see :meth:`TiledLevel.select`); a name,
    class or property that no object has is an error naming the ones there are."""
    names_ = _matches("name", name)
    classes = _matches("class_", class_)
    kinds = _matches("kind", kind)
    if kinds is not None and not kinds <= set(KINDS):
        raise ValueError(f"kind must be among {list(KINDS)}; got {sorted(kinds)}")
    if property is not None and not isinstance(property, (str, Mapping)):
        raise TypeError(
            f"property must be a property name or a mapping of names to values; got {property!r}"
        )
    if predicate is not None and not callable(predicate):
        raise TypeError(f"where must be a callable taking a MapObject; got {predicate!r}")
    for arg, plural, wanted, have in (
        ("name", "names", names_, {o.name for o in objects}),
        ("class_", "classes", classes, {o.class_ for o in objects}),
    ):
        if wanted is not None and not wanted & have:
            raise ValueError(
                f"{where}: {arg} {sorted(wanted)} matches no object; the objects' "
                f"{plural} are {sorted(have)}"
            )
    if property is not None:
        wanted_props = {property} if isinstance(property, str) else set(property)
        have_props = {k for o in objects for k in o.properties}
        if not wanted_props <= have_props:
            raise ValueError(
                f"{where}: property {sorted(wanted_props - have_props)} is not a property of "
                f"any object; the objects' properties are {sorted(have_props)}"
            )
    out = []
    for o in objects:
        if names_ is not None and o.name not in names_:
            continue
        if classes is not None and o.class_ not in classes:
            continue
        if kinds is not None and o.kind not in kinds:
            continue
        if isinstance(property, str) and not truthy(o.properties.get(property, False)):
            continue
        if isinstance(property, Mapping) and any(
            k not in o.properties or o.properties[k] != v for k, v in property.items()
        ):
            continue
        if predicate is not None and not predicate(o):
            continue
        out.append(o)
    return out
