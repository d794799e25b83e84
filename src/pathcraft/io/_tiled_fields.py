"""What pathcraft's Tiled reader (:mod:`pathcraft.io._tiled_read`) shares between its
two syntaxes, TMX (XML) and JSON: numbers and properties as Tiled writes them, tile
data in every encoding, infinite maps' chunks on one frame, objects, and the builder
of :class:`~pathcraft.io._tiled_source.MapData`.

Every fault raises :class:`FileFault`, which the reader reports with the file's name.
"""

from __future__ import annotations

import base64
import json
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._tiled_source import GID_MASK, MapData, MapObject, TileLayerData, rotated

__all__ = [
    "Chunk",
    "FileFault",
    "MapBuilder",
    "assemble",
    "decode",
    "inflate",
    "integer",
    "load_json",
    "load_xml",
    "make_object",
    "number",
    "referenced",
    "typed",
]

Chunk = tuple[int, int, npt.NDArray[np.int64]]  # (col, row) of the top-left tile, gids


class FileFault(ValueError):
    """A fault in the file, reported by the reader with the file's name."""


def referenced(base: Path, source: str) -> Path:
    """The file an external tileset or template names, relative to the file naming it."""
    return base.parent / source


def load_json(file: Path) -> Any:
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileFault(f"{file.name}: not readable JSON: {exc}") from None


def load_xml(file: Path) -> ET.Element:
    try:
        return ET.parse(file).getroot()
    except (OSError, ET.ParseError) as exc:
        raise FileFault(f"{file.name}: not readable XML: {exc}") from None


def number(value: Any, what: str, default: float | None = None) -> float:
    if value is None:
        if default is None:
            raise FileFault(f"{what} is missing")
        return default
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise FileFault(f"{what} = {value!r} is not a number") from None
    if out != out or out in (float("inf"), float("-inf")):
        raise FileFault(f"{what} = {value!r} is not a finite number")
    return out


def integer(value: Any, what: str, default: int | None = None) -> int:
    out = number(value, what, None if default is None else float(default))
    if out != int(out):
        raise FileFault(f"{what} = {value!r} is not a whole number")
    return int(out)


def typed(kind: str | None, value: Any) -> Any:
    """A property's value as Tiled types it (TMX stores every value as text)."""
    if not isinstance(value, str):
        return value
    if kind == "bool":
        return value.strip().lower() == "true"
    if kind in ("int", "object"):
        try:
            return int(value)
        except ValueError:
            return value
    if kind == "float":
        try:
            return float(value)
        except ValueError:
            return value
    return value


# ------------------------------------------------------------------ tile data


def inflate(raw: bytes, compression: str, expected: int, what: str) -> bytes:
    """Decompress a layer's base64 data; stops reading past ``expected`` bytes."""
    if not compression:
        return raw
    try:
        if compression in ("zlib", "gzip"):
            wbits = zlib.MAX_WBITS | (16 if compression == "gzip" else 0)
            inflater = zlib.decompressobj(wbits)
            return inflater.decompress(raw, expected + 1)
        if compression == "zstd":
            return _unzstd(raw, expected, what)
    except (zlib.error, OSError, EOFError) as exc:
        raise FileFault(f"{what}: its {compression} data does not decompress: {exc}") from None
    raise FileFault(
        f"{what}: compression {compression!r} is not known; expected 'zlib', 'gzip', 'zstd' or none"
    )


def _unzstd(raw: bytes, expected: int, what: str) -> bytes:
    try:
        import zstandard
    except ImportError:
        raise FileFault(
            f"{what} is compressed with zstd, which needs the zstandard package: "
            "pip install zstandard (or save the map with zlib, gzip or CSV in Tiled)"
        ) from None
    try:
        out: bytes = zstandard.ZstdDecompressor().decompress(raw, max_output_size=expected + 1)
    except zstandard.ZstdError as exc:
        raise FileFault(f"{what}: its zstd data does not decompress: {exc}") from None
    return out


def decode(
    text: str | list[Any] | None, encoding: str, compression: str, count: int, what: str
) -> npt.NDArray[np.int64]:
    """``count`` gids from a layer's (or chunk's) data, flip bits cleared."""
    if isinstance(text, list):
        values = text
    elif encoding == "csv":
        values = [v for v in (text or "").replace("\n", ",").split(",") if v.strip()]
    elif encoding == "base64":
        try:
            raw = base64.b64decode((text or "").strip(), validate=False)
        except ValueError as exc:
            raise FileFault(f"{what}: its base64 data does not decode: {exc}") from None
        raw = inflate(raw, compression, 4 * count, what)
        if len(raw) != 4 * count:
            raise FileFault(f"{what} holds {len(raw) // 4} tiles; expected {count}")
        return np.frombuffer(raw, dtype="<u4").astype(np.int64) & GID_MASK
    else:
        raise FileFault(f"{what}: encoding {encoding!r} is not known; expected 'csv' or 'base64'")
    if len(values) != count:
        raise FileFault(f"{what} holds {len(values)} tiles; expected {count}")
    try:
        gids = np.array([int(str(v).strip()) for v in values], dtype=np.int64)
    except (ValueError, OverflowError) as exc:
        raise FileFault(f"{what}: a tile that is not a gid: {exc}") from None
    if gids.size and (gids.min() < 0 or gids.max() > 0xFFFFFFFF):
        raise FileFault(f"{what}: gids must lie in 0..4294967295")
    return gids & GID_MASK


def assemble(
    layers: list[tuple[str, list[Chunk]]],
) -> tuple[list[tuple[str, npt.NDArray[np.int64]]], int, int]:
    """Chunked layers on one frame covering every chunk: the gid arrays and the
    ``(col, row)`` of the frame's top-left tile."""
    spans = [(c, r, g.shape[1], g.shape[0]) for _, chunks in layers for c, r, g in chunks]
    if not spans:
        return [(name, np.zeros((0, 0), dtype=np.int64)) for name, _ in layers], 0, 0
    c0 = min(s[0] for s in spans)
    r0 = min(s[1] for s in spans)
    cols = max(s[0] + s[2] for s in spans) - c0
    rows = max(s[1] + s[3] for s in spans) - r0
    out = []
    for name, chunks in layers:
        gids = np.zeros((rows, cols), dtype=np.int64)
        for c, r, g in chunks:
            gids[r - r0 : r - r0 + g.shape[0], c - c0 : c - c0 + g.shape[1]] = g
        out.append((name, gids))
    return out, c0, r0


# ------------------------------------------------------------------ one reader, two syntaxes


class MapBuilder:
    """What both syntaxes share: tilesets by first gid, layers, then the MapData."""

    def __init__(self, file: Path, where: str) -> None:
        self.file = file
        self.where = where
        self.tilesets: dict[int, dict[str, Any]] = {}  # first gid: name, size, tile props
        self.tile_layers: list[tuple[str, Any, dict[str, Any], tuple[float, float]]] = []
        self.objects: dict[str, list[MapObject]] = {}
        self.drawn: list[tuple[str, str]] = []
        self.infinite = False
        self.rows = self.cols = 0
        self.tile_size = (0.0, 0.0)

    def finish(self, properties: dict[str, Any]) -> MapData:
        origin = (0.0, 0.0)
        if self.infinite:
            frames, c0, r0 = assemble([(name, data) for name, data, _, _ in self.tile_layers])
            if frames and frames[0][1].size:
                self.rows, self.cols = frames[0][1].shape
                origin = (c0 * self.tile_size[0], r0 * self.tile_size[1])
            gids_of = [g for _, g in frames]
        else:
            gids_of = [data for _, data, _, _ in self.tile_layers]
        layers = [
            TileLayerData(name, gids.reshape(self.rows, self.cols), props, offset)
            for (name, _, props, offset), gids in zip(self.tile_layers, gids_of, strict=True)
        ]
        firsts = sorted(self.tilesets)
        props: dict[int, dict[str, Any]] = {}
        sizes: dict[int, tuple[float, float]] = {}
        names: dict[int, str] = {}
        for layer in layers:
            for gid in np.unique(layer.gids).tolist():
                if not gid or gid in props:
                    continue
                first = max((f for f in firsts if f <= gid), default=None)
                if first is None:
                    raise FileFault(
                        f"tile layer {layer.name!r}: tile gid {gid} belongs to no tileset"
                    )
                tileset = self.tilesets[first]
                props[gid] = dict(tileset["tiles"].get(gid - first, {}))
                sizes[gid] = tileset["size"]
                names[gid] = tileset["name"]
        return MapData(
            where=self.where, rows=self.rows, cols=self.cols, tile_size=self.tile_size,
            tile_layers=layers, object_layers=self.objects, gid_properties=props,
            gid_tile_size=sizes, gid_tileset=names, properties=properties, origin=origin,
            drawn=tuple(self.drawn),
        )  # fmt: skip

    def add_tiles(self, name: str, data: Any, props: dict[str, Any],
                  offset: tuple[float, float]) -> None:  # fmt: skip
        self.tile_layers.append((name, data, props, offset))
        self.drawn.append(("tiles", name))

    def add_objects(self, name: str, objects: list[MapObject]) -> None:
        self.drawn.append(("objects", name))
        if name in self.objects:  # two object layers of one name (in groups): one list
            self.objects[name] = self.objects[name] + objects
        else:
            self.objects[name] = objects


def make_object(
    fields: dict[str, Any],
    kind: str,
    rel: list[tuple[float, float]] | None,
    layer: str,
    offset: tuple[float, float],
    properties: dict[str, Any],
) -> MapObject:
    what = f"object layer {layer!r}: object {fields.get('id', '?')}"
    x = number(fields.get("x"), f"{what}: x", 0.0) + offset[0]
    y = number(fields.get("y"), f"{what}: y", 0.0) + offset[1]
    w = number(fields.get("width"), f"{what}: width", 0.0)
    h = number(fields.get("height"), f"{what}: height", 0.0)
    rotation = number(fields.get("rotation"), f"{what}: rotation", 0.0)
    points = None
    if rel is not None:
        corners = np.array(rel, dtype=np.float64).reshape(-1, 2) + np.array([x, y])
        points = rotated(corners, x, y, rotation)
    cls = fields.get("class") or fields.get("type") or ""
    return MapObject(
        id=integer(fields.get("id"), f"{what}: id", 0), name=str(fields.get("name") or ""),
        class_=str(cls), kind=kind, x=x, y=y, width=w, height=h, rotation=rotation,
        layer=layer, properties=properties, points=points,
    )  # fmt: skip
