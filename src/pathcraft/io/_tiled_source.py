"""Tiled maps as plain data: what pytiled-parser or pytmx read, in one shape.

:func:`from_file` parses a ``.tmx`` or ``.json`` map with pytiled-parser (the ``tiled``
extra), or, where pytiled-parser is missing or refuses the file (a map saved before
Tiled 1.2, an infinite map, ...), with the reader it is given (pathcraft's own,
:mod:`pathcraft.io._tiled_read`); :func:`from_pytiled` and :func:`from_pytmx` take
maps already loaded by either library (duck-typed: neither is imported here). All
give a :class:`MapData`:
the tile layers as gid arrays, the properties of every gid they use, and the objects
with their outlines in map pixels ``(x, y)``, y down, as Tiled stores them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._tiled_checks import (
    MAX_TILES,
    TilesetRange,
    check_gids,
    check_object,
    check_tiled_file,
    layer_gids,
)

__all__ = ["MapData", "MapObject", "TileLayerData", "from_file", "from_pytiled", "from_pytmx"]

#: Tiled keeps flips in the top bits of a gid.
GID_MASK = 0x0FFFFFFF


@dataclass(frozen=True)
class TileLayerData:
    """A tile layer: ``gids[row, col]`` (0: no tile), its properties and offset."""

    name: str
    gids: npt.NDArray[np.int64]
    properties: dict[str, Any]
    offset: tuple[float, float]


@dataclass(frozen=True)
class MapObject:
    """An object of an object layer, in map pixels (y down).

    ``kind`` is ``"rectangle"``, ``"ellipse"``, ``"polygon"``, ``"polyline"``,
    ``"point"``, ``"tile"`` or ``"text"``. ``points`` holds a polygon's or polyline's
    corners in map pixels (rotation applied); ``x, y, width, height, rotation`` are
    Tiled's own fields (``x, y`` the top-left corner, or the bottom-left corner of a
    tile object).
    """

    id: int
    name: str
    class_: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    rotation: float
    layer: str
    properties: dict[str, Any] = field(default_factory=dict)
    points: npt.NDArray[np.float64] | None = None


@dataclass(frozen=True)
class MapData:
    """A whole orthogonal map, read by either library."""

    where: str
    rows: int
    cols: int
    tile_size: tuple[float, float]
    tile_layers: list[TileLayerData]
    object_layers: dict[str, list[MapObject]]
    gid_properties: dict[int, dict[str, Any]]
    gid_tile_size: dict[int, tuple[float, float]]
    gid_tileset: dict[int, str]
    properties: dict[str, Any]
    #: The pixel ``(x, y)`` of cell (0, 0)'s top-left corner: (0, 0) but on an
    #: infinite map, whose grid covers its chunks wherever they lie.
    origin: tuple[float, float] = (0.0, 0.0)
    #: Every layer in drawing order (bottom first, groups flattened), as
    #: ``("tiles", name)`` or ``("objects", name)``; empty when unknown.
    drawn: tuple[tuple[str, str], ...] = ()


def _error(where: str, message: str) -> ValueError:
    return ValueError(f"{where}: {message}")


def check_orientation(where: str, orientation: Any) -> None:
    """Raise unless the map is orthogonal (the message names the file)."""
    if orientation != "orthogonal":
        raise _error(
            where,
            f"map orientation {orientation!r} is not supported; expected 'orthogonal' "
            "(isometric, staggered and hexagonal maps are not read yet)",
        )


def _plain(value: Any) -> Any:
    """A property value as a plain Python value (pytiled-parser colours and paths too)."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, tuple):  # pytiled-parser's Color is a NamedTuple
        return tuple(value)
    return value


def _props(raw: Any) -> dict[str, Any]:
    return {str(k): _plain(v) for k, v in dict(raw or {}).items()}


def rotated(
    points: npt.NDArray[np.float64], x: float, y: float, degrees: float
) -> npt.NDArray[np.float64]:
    if not degrees:
        return points
    a = math.radians(degrees)  # Tiled rotates clockwise on screen (y down) about (x, y)
    c, s = math.cos(a), math.sin(a)
    d = points - (x, y)
    return np.column_stack((x + c * d[:, 0] - s * d[:, 1], y + s * d[:, 0] + c * d[:, 1]))


def from_file(
    path: str | os.PathLike[str],
    *,
    allow_folders: Sequence[str | os.PathLike[str]] | None = None,
    max_tiles: int = MAX_TILES,
    fallback: Callable[[Path, str], MapData] | None = None,
) -> MapData:
    """Parse a ``.tmx`` or ``.json`` Tiled map, once it passed
    :func:`~pathcraft.io._tiled_checks.check_tiled_file`, with pytiled-parser; where
    it is not installed, refuses the file or reads an infinite map, ``fallback(file,
    why)`` reads it instead (pathcraft's own reader, given by
    :func:`~pathcraft.io.read_tiled`)."""
    where = os.fspath(path)
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{where}: no such Tiled map")
    check_tiled_file(path, allow_folders=allow_folders, max_tiles=max_tiles)
    try:
        import pytiled_parser
    except ImportError as exc:
        if fallback is None:
            raise ImportError(
                'reading Tiled maps needs pytiled-parser: pip install "pathcraft[tiled]"'
            ) from exc
        return fallback(file, "")
    try:
        tiled = pytiled_parser.parse_map(file)
    except Exception as exc:  # the parser raises many kinds on a broken file
        if fallback is not None:
            return fallback(file, f"pytiled-parser: {type(exc).__name__}: {exc}")
        raise _error(
            where, f"not a readable Tiled map (.tmx or .json; truncated?): "
            f"{type(exc).__name__}: {exc}"
        ) from exc  # fmt: skip
    if tiled.infinite and fallback is not None:
        return fallback(file, "")
    return from_pytiled(tiled, where=where)


def _pytiled_layers(
    layers: Any, out: list[tuple[Any, tuple[float, float]]], base: tuple[float, float] = (0, 0)
) -> None:
    """The layers, groups opened, each with its offset (its groups' added)."""
    for layer in layers or []:
        dx, dy = _offset(layer)
        off = (base[0] + dx, base[1] + dy)
        if hasattr(layer, "layers") and not hasattr(layer, "tiled_objects"):  # a group
            _pytiled_layers(layer.layers, out, off)
        else:
            out.append((layer, off))


def _pytiled_object(obj: Any, layer: str, offset: tuple[float, float]) -> MapObject:
    kind = {
        "Rectangle": "rectangle", "Ellipse": "ellipse", "Polygon": "polygon",
        "Polyline": "polyline", "Point": "point", "Tile": "tile", "Text": "text",
    }.get(type(obj).__name__, "rectangle")  # fmt: skip
    x = float(obj.coordinates.x) + offset[0]
    y = float(obj.coordinates.y) + offset[1]
    rotation = float(obj.rotation or 0.0)
    points = None
    if kind in ("polygon", "polyline"):
        rel = np.array([(float(p.x), float(p.y)) for p in obj.points], dtype=np.float64)
        points = rotated(rel + np.array([x, y]), x, y, rotation)
    return MapObject(
        id=int(obj.id), name=str(obj.name or ""), class_=str(obj.class_ or ""), kind=kind,
        x=x, y=y, width=float(obj.size.width), height=float(obj.size.height),
        rotation=rotation, layer=layer, properties=_props(obj.properties), points=points,
    )  # fmt: skip


def _offset(layer: Any) -> tuple[float, float]:
    off = getattr(layer, "offset", None)
    return (float(off.x), float(off.y)) if off is not None else (0.0, 0.0)


def from_pytiled(tiled: Any, *, where: str | None = None) -> MapData:
    """A map parsed by pytiled-parser (``pytiled_parser.parse_map``)."""
    where = where or os.fspath(getattr(tiled, "map_file", "<pytiled-parser map>"))
    check_orientation(where, tiled.orientation)
    if tiled.infinite:
        raise _error(
            where, "an infinite map loaded by pytiled-parser is not read; give read_tiled "
            "the file instead (pathcraft's own reader takes its chunks)"
        )  # fmt: skip
    rows, cols = int(tiled.map_size.height), int(tiled.map_size.width)
    flat: list[tuple[Any, tuple[float, float]]] = []
    _pytiled_layers(tiled.layers, flat)
    tile_layers, object_layers, drawn = [], {}, []
    for layer, off in flat:
        if hasattr(layer, "tiled_objects"):
            drawn.append(("objects", str(layer.name)))
            object_layers[layer.name] = [
                _pytiled_object(o, layer.name, off) for o in layer.tiled_objects
            ]
        elif hasattr(layer, "data") or hasattr(layer, "chunks"):
            if layer.data is None:
                raise _error(where, f"layer {layer.name!r} has chunks (an infinite map)")
            raw = layer_gids(where, layer.name, layer.data, rows, cols)
            check_gids(where, layer.name, raw, _pytiled_ranges(tiled))
            gids = raw & GID_MASK
            drawn.append(("tiles", str(layer.name)))
            tile_layers.append(
                TileLayerData(layer.name, gids, _props(layer.properties), off)
            )
    props: dict[int, dict[str, Any]] = {}
    sizes: dict[int, tuple[float, float]] = {}
    names: dict[int, str] = {}
    used = {int(g) for lay in tile_layers for g in np.unique(lay.gids) if g}
    firsts = sorted(tiled.tilesets)
    for gid in used:
        first = max((f for f in firsts if f <= gid), default=None)
        if first is None:
            raise _error(where, f"tile gid {gid} belongs to no tileset")
        tileset = tiled.tilesets[first]
        local = gid - first
        tile = (tileset.tiles or {}).get(local)
        props[gid] = _props(tile.properties if tile is not None else None)
        sizes[gid] = (float(tileset.tile_width), float(tileset.tile_height))
        names[gid] = str(tileset.name)
    for objects in object_layers.values():
        for obj in objects:
            check_object(where, obj)
    return MapData(
        where=where, rows=rows, cols=cols,
        tile_size=(float(tiled.tile_size.width), float(tiled.tile_size.height)),
        tile_layers=tile_layers, object_layers=object_layers, gid_properties=props,
        gid_tile_size=sizes, gid_tileset=names, properties=_props(tiled.properties),
        drawn=tuple(drawn),
    )  # fmt: skip


def _pytiled_ranges(tiled: Any) -> list[TilesetRange]:
    return [
        (int(first), int(getattr(ts, "tile_count", 0) or 0), str(ts.name),
         frozenset(int(i) for i in (ts.tiles or {})))
        for first, ts in tiled.tilesets.items()
    ]  # fmt: skip


def _pytmx_object(
    obj: Any, layer: str, offset: tuple[float, float], shapes: dict[int, str], raised: bool
) -> MapObject:
    x = float(obj.x) + offset[0]
    y = float(obj.y) + offset[1]
    w, h = float(obj.width or 0), float(obj.height or 0)
    rotation = float(getattr(obj, "rotation", 0) or 0)
    points = None
    raw = getattr(obj, "points", None)
    oid = int(getattr(obj, "id", 0) or 0)
    if raw:
        kind = "polygon" if getattr(obj, "closed", True) else "polyline"
        pts = np.array([(float(p[0]), float(p[1])) for p in raw], dtype=np.float64)
        pts = pts + np.array(offset)
        points = rotated(pts, x, y, rotation)
    elif getattr(obj, "gid", 0):
        kind = "tile"
        if raised:  # pytmx moved the tile object's y to its top; Tiled's is its bottom
            y += h
    elif oid in shapes:  # what pytmx does not keep: read from the file
        kind = shapes[oid]
    elif getattr(obj, "text", None) is not None:
        kind = "text"
    elif getattr(obj, "ellipse", False):
        kind = "ellipse"
    elif w == 0 and h == 0:
        kind = "point"
    else:
        kind = "rectangle"
    return MapObject(
        id=oid, name=str(obj.name or ""),
        class_=_pytmx_class(obj),
        kind=kind, x=x, y=y, width=w, height=h, rotation=rotation, layer=layer,
        properties=_props(getattr(obj, "properties", None)), points=points,
    )  # fmt: skip


def _file_root(filename: Any) -> Any:
    """The map file's XML root, or None when there is no file to read."""
    import xml.etree.ElementTree as ET

    try:
        return ET.parse(os.fspath(filename)).getroot()
    except (OSError, TypeError, ET.ParseError):
        return None


def _file_shapes(root: Any) -> dict[int, str]:
    """The objects' shapes pytmx does not keep (ellipse, point, text), by object id,
    read from the map's file (empty when there is no file to read)."""
    out: dict[int, str] = {}
    for obj in root.iter("object") if root is not None else ():
        for tag in ("ellipse", "point", "text"):
            if obj.find(tag) is not None and (obj.get("id") or "").isdigit():
                out[int(obj.get("id", "0"))] = tag
    return out


def _file_order(
    root: Any, tile_layers: list[Any], object_layers: dict[str, Any]
) -> tuple[tuple[str, str], ...]:
    """The drawing order pytmx does not keep (it lists every tile layer before every
    object layer), read from the map's file: empty when there is no file, or when its
    layers are not the ones pytmx gave."""
    kinds = {"layer": "tiles", "objectgroup": "objects"}
    drawn = tuple(
        (kinds[e.tag], e.get("name", ""))
        for e in (root.iter() if root is not None else ())
        if e.tag in kinds
    )
    tiles = [name for kind, name in drawn if kind == "tiles"]
    objects = {name for kind, name in drawn if kind == "objects"}
    if tiles != [lay.name for lay in tile_layers] or objects != set(object_layers):
        return ()
    return drawn


def _pytmx_class(obj: Any) -> str:
    """An object's class: ``type`` before Tiled 1.9, ``class`` after (a plain str)."""
    for name in ("type", "class", "class_"):
        value = getattr(obj, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


def _pytmx_layers(layers: Any, out: list[Any]) -> None:
    for layer in layers:
        if hasattr(layer, "data") or isinstance(layer, list) or hasattr(layer, "objects"):
            out.append(layer)
        elif hasattr(layer, "layers"):  # pragma: no cover - pytmx flattens groups
            _pytmx_layers(layer.layers, out)


def from_pytmx(tmx: Any, *, where: str | None = None) -> MapData:
    """A map loaded by pytmx (``pytmx.TiledMap`` or ``pytmx.load_pygame``)."""
    where = where or os.fspath(getattr(tmx, "filename", None) or "<pytmx map>")
    check_orientation(where, getattr(tmx, "orientation", "orthogonal"))
    rows, cols = int(tmx.height), int(tmx.width)
    flat: list[Any] = []
    _pytmx_layers(tmx.layers, flat)
    root = _file_root(getattr(tmx, "filename", None))
    shapes = _file_shapes(root)
    raised = bool(getattr(tmx, "invert_y", False))
    tile_layers, object_layers = [], {}
    for layer in flat:
        off = (float(getattr(layer, "offsetx", 0) or 0), float(getattr(layer, "offsety", 0) or 0))
        if hasattr(layer, "data"):
            gids = layer_gids(where, str(layer.name), layer.data, rows, cols)
            tile_layers.append(
                TileLayerData(
                    str(layer.name), gids, _props(getattr(layer, "properties", None)), off
                )
            )
        else:
            object_layers[str(layer.name)] = [
                _pytmx_object(o, str(layer.name), off, shapes, raised) for o in layer
            ]
    props: dict[int, dict[str, Any]] = {}
    sizes: dict[int, tuple[float, float]] = {}
    names: dict[int, str] = {}
    for gid in {int(g) for lay in tile_layers for g in np.unique(lay.gids) if g}:
        props[gid] = _props(tmx.get_tile_properties_by_gid(gid))
        tileset = tmx.get_tileset_from_gid(gid)
        sizes[gid] = (float(tileset.tilewidth), float(tileset.tileheight))
        names[gid] = str(tileset.name)
    for objects in object_layers.values():
        for obj in objects:
            check_object(where, obj)
    return MapData(
        where=where, rows=rows, cols=cols,
        tile_size=(float(tmx.tilewidth), float(tmx.tileheight)),
        tile_layers=tile_layers, object_layers=object_layers, gid_properties=props,
        gid_tile_size=sizes, gid_tileset=names,
        properties=_props(getattr(tmx, "properties", None)),
        drawn=_file_order(root, tile_layers, object_layers),
    )  # fmt: skip
