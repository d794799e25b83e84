"""The rules that turn a Tiled map's tiles into walls and costs, and objects into outlines.

Functions over :class:`~pathcraft.io._tiled_source.MapData`, used by
:class:`pathcraft.io.tiled.TiledLevel`; every error names the file and the layer.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._tiled_source import MapData, MapObject, TileLayerData, rotated

__all__ = [
    "COST_PROPERTY",
    "ELLIPSE_CORNERS",
    "WALKABLE_PROPERTIES",
    "WALL_PROPERTIES",
    "check_tiles",
    "gid_tables",
    "names",
    "outline",
    "property_names",
    "truthy",
]

#: Tile or layer properties that make a wall when true.
WALL_PROPERTIES = ("collides", "collision", "solid", "blocked", "wall")
#: Tile or layer properties that make a wall when false.
WALKABLE_PROPERTIES = ("walkable", "passable")
#: The property holding a tile's step cost.
COST_PROPERTY = "cost"
#: Ellipse objects become polygons with this many corners.
ELLIPSE_CORNERS = 32


def _error(data: MapData, message: str) -> ValueError:
    return ValueError(f"{data.where}: {message}")


def names(arg: str, value: str | Iterable[str] | None) -> list[str] | None:
    """A name or a list of names as a list (None stays None)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    out = list(value) if isinstance(value, Iterable) else None
    if out is None or not all(isinstance(n, str) for n in out):
        raise TypeError(f"{arg} must be a name or a list of names (str); got {value!r}")
    return out


def truthy(value: Any) -> bool:
    """A property's value as a boolean (``"true"``, ``"1"``, ``"yes"`` in text too)."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value)


def check_tiles(data: MapData, layer: TileLayerData) -> None:
    """Raise unless the layer's tiles sit on the map's cells, at the map's tile size."""
    if layer.offset != (0.0, 0.0):
        raise _error(
            data,
            f"tile layer {layer.name!r} is drawn at an offset {layer.offset}; a grid needs "
            "its tiles on the map's cells (offset (0, 0))",
        )
    for gid in np.unique(layer.gids).tolist():
        if gid and data.gid_tile_size[gid] != data.tile_size:
            tw, th = data.gid_tile_size[gid]
            mw, mh = data.tile_size
            raise _error(
                data,
                f"tile layer {layer.name!r} uses tileset {data.gid_tileset[gid]!r} of "
                f"{tw:g}x{th:g} px tiles on a map of {mw:g}x{mh:g} px tiles; expected tiles "
                "of the map's size",
            )


def property_names(
    data: MapData,
    arg: str,
    given: str | Sequence[str] | None,
    usual: Sequence[str],
    *,
    single: bool = False,
) -> list[str]:
    """The property names to look for: ``usual`` when none are given; given names must
    occur in the map (on a tile or a tile layer)."""
    if given is None:
        return list(usual)
    if single and not isinstance(given, str):
        raise TypeError(f"{arg} must be a property name (str); got {given!r}")
    try:
        chosen = names(arg, given) or []
    except TypeError as exc:
        raise TypeError(f"{data.where}: {exc}") from None
    known = {k for p in data.gid_properties.values() for k in p}
    known.update(k for lay in data.tile_layers for k in lay.properties)
    for name in chosen:
        if name not in known:
            raise _error(
                data,
                f"{arg} {name!r} is not a property of any tile or tile layer; the properties "
                f"are {sorted(known)}",
            )
    return chosen


def gid_tables(
    data: MapData, layer: TileLayerData, walls_by: list[str], open_by: list[str], cost_by: str
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Per cell of ``layer``, the index of its gid among the layer's gids; and per gid
    (in that order): whether it is a wall, and its cost (NaN: none). A tile's own
    properties override its layer's. The tables are as long as the layer has distinct
    gids, never as long as the largest gid."""
    used, at = np.unique(layer.gids, return_inverse=True)
    is_wall = np.zeros(len(used), dtype=bool)
    cost = np.full(len(used), np.nan)
    for i, gid in enumerate(used.tolist()):
        if not gid:
            continue
        props = {**layer.properties, **data.gid_properties.get(gid, {})}
        is_wall[i] = any(truthy(props[n]) for n in walls_by if n in props) or any(
            not truthy(props[n]) for n in open_by if n in props
        )
        if cost_by in props:
            cost[i] = _cost_value(data, layer, gid, props[cost_by], cost_by)
    return at.reshape(layer.gids.shape), is_wall, cost


def _cost_value(data: MapData, layer: TileLayerData, gid: int, value: Any, name: str) -> float:
    number = value
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    ok = isinstance(number, numbers.Real) and not isinstance(number, bool)
    if not ok or not (math.isfinite(float(number)) and float(number) > 0):
        raise _error(
            data,
            f"tile layer {layer.name!r}: tile gid {gid} (tileset "
            f"{data.gid_tileset.get(gid, '?')!r}) has {name} = {value!r}; expected a finite "
            "number > 0 (mark walls with a wall property)",
        )
    return float(number)


def outline(obj: MapObject) -> npt.NDArray[np.float64] | None:
    """The corners of an area object in map pixels (None: no area)."""
    if obj.kind == "polygon":
        return obj.points
    if obj.kind not in ("rectangle", "tile", "ellipse") or obj.width <= 0 or obj.height <= 0:
        return None
    top = obj.y - obj.height if obj.kind == "tile" else obj.y  # tiles: bottom-left
    if obj.kind == "ellipse":
        t = np.linspace(0.0, 2 * math.pi, ELLIPSE_CORNERS, endpoint=False)
        local = np.column_stack((obj.width / 2 * (1 + np.cos(t)), obj.height / 2 * (1 + np.sin(t))))
    else:
        local = np.array(
            [(0, 0), (obj.width, 0), (obj.width, obj.height), (0, obj.height)], dtype=float
        )
    pts: npt.NDArray[np.float64] = local + np.array([obj.x, top])
    if obj.rotation:
        pts = rotated(pts, obj.x, obj.y, obj.rotation)
    return pts
