"""pathcraft's own reader of Tiled files, for the maps pytiled-parser refuses.

Tiled has written its formats for fifteen years; pytiled-parser reads the current ones
and refuses a TMX saved before Tiled 1.2 (no ``infinite``, ``nextlayerid`` or
``tiledversion``), among others. :func:`read_file` reads, with the standard library
only: TMX/TSX/TX and JSON/TMJ/TSJ/TJ maps, tilesets and templates of any Tiled
version (attributes a version did not write take the value Tiled itself gives them),
fixed-size and infinite maps (chunks), embedded and external tilesets, tile data as
XML, CSV or base64 (uncompressed, zlib, gzip, or zstd with the ``zstandard`` package),
flipped gids, object templates, ``class`` or the older ``type``, and group layers
(their offsets added to their children's). It gives the same
:class:`~pathcraft.io._tiled_source.MapData` as the readers of loaded maps.

An infinite map's grid covers the chunks of its tile layers; ``MapData.origin`` is the
pixel of its top-left cell.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._tiled_fields import (
    Chunk,
    FileFault,
    MapBuilder,
    decode,
    integer,
    load_json,
    load_xml,
    make_object,
    number,
    referenced,
    typed,
)
from pathcraft.io._tiled_source import MapData, MapObject, check_orientation

__all__ = ["read_file", "template_object", "tileset_of"]


def read_file(path: str | os.PathLike[str], refused: str = "") -> MapData:
    """Read a ``.tmx``/``.tmj``/``.json`` Tiled map (any Tiled version) into MapData.

    Raises ``ValueError`` naming the file (and the layer or tileset) for a file that is
    not a Tiled map or lacks what a map needs; ``refused`` (why another reader refused
    it) is added to the message.
    """
    where = os.fspath(path)
    file = Path(path)
    try:
        if _is_json(file):
            return _JsonMap(file, where).read()
        return _TmxMap(file, where).read()
    except FileFault as exc:
        why = f" ({refused})" if refused else ""
        raise ValueError(
            f"{where}: not a readable Tiled map (.tmx or .json; truncated?): {exc}{why}"
        ) from None


def _is_json(file: Path) -> bool:
    if file.suffix.lower() in (".json", ".tmj", ".tsj", ".tj"):
        return True
    if file.suffix.lower() in (".tmx", ".tsx", ".tx"):
        return False
    return file.read_bytes()[:64].lstrip().startswith(b"{")


class _TmxMap(MapBuilder):
    def read(self) -> MapData:
        root = load_xml(self.file)
        if root.tag != "map":
            raise FileFault(f"not a Tiled map: the root element is <{root.tag}>, expected <map>")
        check_orientation(self.where, root.get("orientation", "orthogonal"))
        self.infinite = root.get("infinite", "0") == "1"
        self.rows = integer(root.get("height"), "map height")
        self.cols = integer(root.get("width"), "map width")
        self.tile_size = (
            number(root.get("tilewidth"), "map tilewidth"),
            number(root.get("tileheight"), "map tileheight"),
        )
        for ts in root.findall("tileset"):
            self._tileset(ts, self.file)
        self._layers(root, (0.0, 0.0))
        return self.finish(_xml_properties(root))

    def _tileset(self, ts: ET.Element, base: Path) -> None:
        first = integer(ts.get("firstgid"), "tileset firstgid")
        self.tilesets[first] = tileset_of(ts, base, self.tile_size)

    def _layers(self, parent: ET.Element, offset: tuple[float, float]) -> None:
        for elem in parent:
            off = (
                offset[0] + number(elem.get("offsetx"), "layer offsetx", 0.0),
                offset[1] + number(elem.get("offsety"), "layer offsety", 0.0),
            )
            name = elem.get("name", "")
            if elem.tag == "group":
                self._layers(elem, off)
            elif elem.tag == "layer":
                self.add_tiles(name, self._tiles(elem), _xml_properties(elem), off)
            elif elem.tag == "objectgroup":
                objs = [self._object(o, name, off) for o in elem.findall("object")]
                self.add_objects(name, objs)

    def _tiles(self, layer: ET.Element) -> Any:
        what = f"tile layer {layer.get('name', '')!r}"
        data = layer.find("data")
        if data is None:
            raise FileFault(f"{what} has no <data>")
        encoding = data.get("encoding", "")
        compression = data.get("compression", "")
        chunks = data.findall("chunk")
        if self.infinite:
            out: list[Chunk] = []
            for ch in chunks:
                w = integer(ch.get("width"), f"{what}: chunk width")
                h = integer(ch.get("height"), f"{what}: chunk height")
                gids = self._data(ch, encoding, compression, w * h, what)
                out.append(
                    (integer(ch.get("x"), f"{what}: chunk x"),
                     integer(ch.get("y"), f"{what}: chunk y"), gids.reshape(h, w))
                )  # fmt: skip
            return out
        return self._data(data, encoding, compression, self.rows * self.cols, what)

    def _data(
        self, elem: ET.Element, encoding: str, compression: str, count: int, what: str
    ) -> npt.NDArray[np.int64]:
        if not encoding:  # the oldest form: one <tile gid=".."/> per cell
            values: list[Any] = [t.get("gid", "0") for t in elem.findall("tile")]
            return decode(values, "", "", count, what)
        return decode(elem.text, encoding, compression, count, what)

    def _object(self, obj: ET.Element, layer: str, offset: tuple[float, float]) -> MapObject:
        fields: dict[str, Any] = dict(obj.attrib)
        props: dict[str, Any] = {}
        shape = None
        if obj.get("template"):
            base, props, shape = template_object(self.file, str(obj.get("template")))
            fields = {**base, **fields}
        props.update(_xml_properties(obj))
        if shape is None or any(obj.find(t) is not None for t in _SHAPES):
            shape = _tmx_shape(obj, fields)
        return make_object(fields, *shape, layer, offset, props)


_SHAPES = ("ellipse", "point", "polygon", "polyline", "text")


def _xml_properties(elem: ET.Element) -> dict[str, Any]:
    out: dict[str, Any] = {}
    block = elem.find("properties")
    for p in [] if block is None else block.findall("property"):
        value = p.get("value")
        if value is None:
            value = p.text or ""
        out[str(p.get("name"))] = typed(p.get("type"), value)
    return out


def tileset_of(ts: ET.Element, base: Path, tile_size: tuple[float, float]) -> dict[str, Any]:
    """A TMX ``<tileset>`` (embedded, or naming a TSX/TSJ file beside ``base``): its name,
    tile size and the properties of its tiles by local id."""
    if ts.get("source"):
        source = str(ts.get("source"))
        file = referenced(base, source)
        if file.suffix.lower() in (".json", ".tsj"):
            return _json_tileset(load_json(file), source)
        ts = load_xml(file)
    name = ts.get("name", "")
    tiles: dict[int, dict[str, Any]] = {}
    for tile in ts.findall("tile"):
        props = _xml_properties(tile)
        if props:
            tiles[integer(tile.get("id"), f"tileset {name!r}: tile id")] = props
    size = (
        number(ts.get("tilewidth"), f"tileset {name!r}: tilewidth", tile_size[0]),
        number(ts.get("tileheight"), f"tileset {name!r}: tileheight", tile_size[1]),
    )
    return {"name": name, "size": size, "tiles": tiles}


def _tmx_shape(
    elem: ET.Element, fields: dict[str, Any]
) -> tuple[str, list[tuple[float, float]] | None]:
    for tag in _SHAPES:
        child = elem.find(tag)
        if child is None:
            continue
        if tag in ("polygon", "polyline"):
            try:
                pts = [
                    (float(a), float(b))
                    for a, b in (pair.split(",") for pair in child.get("points", "").split())
                ]
            except ValueError:
                raise FileFault(f"object {fields.get('id', '?')}: bad {tag} points") from None
            return tag, pts
        return tag, None
    if fields.get("gid"):
        return "tile", None
    return "rectangle", None


def _json_properties(raw: Any, types: Any = None) -> dict[str, Any]:
    if isinstance(raw, dict):  # before Tiled 1.2: a dict, with "propertytypes" beside it
        kinds = types if isinstance(types, dict) else {}
        return {str(k): typed(kinds.get(k), v) for k, v in raw.items()}
    out: dict[str, Any] = {}
    for p in raw or []:
        if isinstance(p, dict) and "name" in p:
            out[str(p["name"])] = typed(p.get("type"), p.get("value"))
    return out


def _json_tileset(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise FileFault(f"tileset {where!r} is not a Tiled tileset")
    name = str(data.get("name", ""))
    tiles: dict[int, dict[str, Any]] = {}
    raw = data.get("tiles")
    if isinstance(raw, list):  # Tiled 1.2 on
        for tile in raw:
            props = _json_properties(tile.get("properties"))
            if props:
                tiles[integer(tile.get("id"), f"tileset {name!r}: tile id")] = props
    else:  # before: "tileproperties" {"id": {...}}, "tiles" {"id": {...}}
        types = data.get("tilepropertytypes") or {}
        for key, props in (data.get("tileproperties") or {}).items():
            tiles[integer(key, f"tileset {name!r}: tile id")] = _json_properties(
                props, types.get(key)
            )
    size = (
        number(data.get("tilewidth"), f"tileset {name!r}: tilewidth"),
        number(data.get("tileheight"), f"tileset {name!r}: tileheight"),
    )
    return {"name": name, "size": size, "tiles": tiles}


class _JsonMap(MapBuilder):
    def read(self) -> MapData:
        root = load_json(self.file)
        if not isinstance(root, dict) or "layers" not in root:
            raise FileFault("not a Tiled map: a JSON map is an object with 'layers'")
        check_orientation(self.where, root.get("orientation", "orthogonal"))
        self.infinite = bool(root.get("infinite", False))
        self.rows = integer(root.get("height"), "map height")
        self.cols = integer(root.get("width"), "map width")
        self.tile_size = (
            number(root.get("tilewidth"), "map tilewidth"),
            number(root.get("tileheight"), "map tileheight"),
        )
        for ts in root.get("tilesets") or []:
            first = integer(ts.get("firstgid"), "tileset firstgid")
            if ts.get("source"):
                elem = ET.Element("tileset", source=str(ts["source"]))
                self.tilesets[first] = tileset_of(elem, self.file, self.tile_size)
            else:
                self.tilesets[first] = _json_tileset(ts, str(ts.get("name", "")))
        self._layers(root.get("layers") or [], (0.0, 0.0))
        return self.finish(_json_properties(root.get("properties"), root.get("propertytypes")))

    def _layers(self, layers: list[Any], offset: tuple[float, float]) -> None:
        for layer in layers:
            off = (
                offset[0] + number(layer.get("offsetx"), "layer offsetx", 0.0),
                offset[1] + number(layer.get("offsety"), "layer offsety", 0.0),
            )
            name = str(layer.get("name", ""))
            kind = layer.get("type")
            props = _json_properties(layer.get("properties"), layer.get("propertytypes"))
            if kind == "group":
                self._layers(layer.get("layers") or [], off)
            elif kind == "tilelayer":
                self.add_tiles(name, self._tiles(layer, name), props, off)
            elif kind == "objectgroup":
                objs = [self._object(o, name, off) for o in layer.get("objects") or []]
                self.add_objects(name, objs)

    def _tiles(self, layer: dict[str, Any], name: str) -> Any:
        what = f"tile layer {name!r}"
        encoding = str(layer.get("encoding") or "csv")
        compression = str(layer.get("compression") or "")
        if self.infinite:
            out: list[Chunk] = []
            for ch in layer.get("chunks") or []:
                w = integer(ch.get("width"), f"{what}: chunk width")
                h = integer(ch.get("height"), f"{what}: chunk height")
                gids = decode(ch.get("data"), encoding, compression, w * h, what)
                out.append(
                    (integer(ch.get("x"), f"{what}: chunk x"),
                     integer(ch.get("y"), f"{what}: chunk y"), gids.reshape(h, w))
                )  # fmt: skip
            return out
        return decode(layer.get("data"), encoding, compression, self.rows * self.cols, what)

    def _object(self, obj: dict[str, Any], layer: str, offset: tuple[float, float]) -> MapObject:
        fields = dict(obj)
        props: dict[str, Any] = {}
        shape = None
        if obj.get("template"):
            base, props, shape = template_object(self.file, str(obj["template"]))
            fields = {**base, **obj}
        props.update(_json_properties(obj.get("properties"), obj.get("propertytypes")))
        if shape is None:
            shape = _json_shape(fields)
        elif any(obj.get(k) is not None for k in _SHAPES):  # the instance's own shape
            shape = _json_shape({**{k: v for k, v in fields.items() if k not in _SHAPES}, **obj})
        return make_object(fields, *shape, layer, offset, props)


Shape = tuple[str, "list[tuple[float, float]] | None"]


def _json_shape(fields: dict[str, Any]) -> Shape:
    """A JSON object's kind, and a polygon's or polyline's corners (relative)."""
    for kind in ("polygon", "polyline"):
        if fields.get(kind) is not None:
            try:
                return kind, [(float(p["x"]), float(p["y"])) for p in fields[kind]]
            except (TypeError, KeyError, ValueError):
                raise FileFault(f"object {fields.get('id', '?')}: bad {kind} points") from None
    for kind in ("ellipse", "point"):
        if fields.get(kind):
            return kind, None
    if fields.get("text") is not None:
        return "text", None
    return ("tile" if fields.get("gid") else "rectangle"), None


def template_object(base: Path, source: str) -> tuple[dict[str, Any], dict[str, Any], Shape]:
    """An object template (``.tx`` XML or ``.tj``/``.json``, whichever the map's own
    format): its object's fields, properties and shape."""
    file = referenced(base, source)
    if file.suffix.lower() in (".tj", ".json"):
        data = load_json(file)
        obj = data.get("object") if isinstance(data, dict) else None
        if not isinstance(obj, dict):
            raise FileFault(f"template {source!r} holds no object")
        return obj, _json_properties(obj.get("properties")), _json_shape(obj)
    root = load_xml(file)
    elem = root.find("object")
    if elem is None:
        raise FileFault(f"template {source!r} holds no object")
    fields: dict[str, Any] = dict(elem.attrib)
    return fields, _xml_properties(elem), _tmx_shape(elem, fields)
