"""Level files from strangers: the checks a Tiled map passes before any parser reads it,
and the checks on what the parser gives back.

:func:`check_tiled_file` reads the ``.tmx``/``.json`` file itself first (XML through
expat, which refuses entity bombs; JSON through :mod:`json`) and refuses, with a
``ValueError`` naming the file and the layer:

- an external tileset or object template outside the level's own folder (or the
  folders the caller allows): no ``../`` escapes, no absolute paths elsewhere, no
  symbolic links out (images are never opened, so their paths are not checked);
- a map or layer of more than ``max_tiles`` tiles (:data:`MAX_TILES`), so nothing sized
  by the file's numbers is allocated beyond it;
- CSV data whose rows are not the layer's width (a short row would shift every tile
  after it), or whose row count or total is not the layer's;
- base64 data that does not decode, and compressed data (zlib, gzip, zstd) that would
  expand beyond the layer's own ``4 x width x height`` bytes: decompressed with a
  ``max_length``, never whole, so a decompression bomb costs nothing.

:func:`layer_gids`, :func:`check_gids` and :func:`check_object` then check what the
parser read: tile data of the map's size, every gid in a tileset (checked against the
tilesets' ranges, never through a table as long as the gid), objects at finite places.

Examples
--------
>>> from pathcraft.io._tiled_checks import check_tiled_file
>>> from pathcraft.io.tiled import bundled_level
>>> check_tiled_file(bundled_level())  # nothing to say: it passes
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "MAX_TILES",
    "TilesetRange",
    "check_gids",
    "check_object",
    "check_tiled_file",
    "layer_gids",
]

#: The most tiles a Tiled map, or one of its layers or chunks, may have (16.7 million:
#: 4096 x 4096); ``read_tiled(path, max_tiles=...)`` raises it.
MAX_TILES = 1 << 24
#: Tiled keeps flips in the top bits of a gid; a gid is an unsigned 32-bit number.
_GID_MASK = 0x0FFFFFFF
_GID_END = 1 << 32

#: ``(firstgid, tilecount, name, ids)`` of one tileset: gids ``firstgid ..
#: firstgid + tilecount - 1`` and ``firstgid + id`` for each listed tile id.
TilesetRange = tuple[int, int, str, frozenset[int]]


def _error(where: str, message: str) -> ValueError:
    return ValueError(f"{where}: {message}")


# ------------------------------------------------------------------ the file itself


def check_tiled_file(
    path: str | os.PathLike[str],
    *,
    allow_folders: Sequence[str | os.PathLike[str]] | None = None,
    max_tiles: int = MAX_TILES,
) -> None:
    """Raise ``ValueError`` unless the map file at ``path`` is safe to hand to a parser
    (see the module). ``allow_folders``: folders besides the level's own from which
    external tilesets and templates may be read."""
    if isinstance(max_tiles, bool) or not isinstance(max_tiles, int):
        raise TypeError(f"max_tiles must be an int; got {type(max_tiles).__name__}")
    if max_tiles < 1:
        raise ValueError(f"max_tiles must be >= 1; got {max_tiles}")
    if isinstance(allow_folders, (str, os.PathLike)):
        raise TypeError("allow_folders must be a list of folders, not one folder")
    where = os.fspath(path)
    file = Path(path)
    roots = [file.resolve().parent]
    roots += [Path(f).resolve() for f in allow_folders or []]
    _check_document(file, where, roots, max_tiles, depth=0)


def _check_document(file: Path, where: str, roots: list[Path], max_tiles: int, depth: int) -> None:
    try:
        with file.open("rb") as opened:
            first = opened.read(256).lstrip()[:1]
        if first in (b"{", b"["):
            doc: Any = json.loads(file.read_bytes())
            refs = list(_json_references(doc))
            _json_layers(doc, where, max_tiles)
        else:
            root = ET.parse(file).getroot()  # read in pieces, not held whole
            refs = list(_xml_references(root))
            _xml_layers(root, where, max_tiles)
    except (ET.ParseError, LookupError, UnicodeError, json.JSONDecodeError, RecursionError) as exc:
        raise _error(
            where,
            f"not a readable Tiled map (.tmx or .json; truncated?): {type(exc).__name__}: {exc}",
        ) from exc
    for kind, ref in refs:
        target = _inside(file, ref, where, kind, roots)
        if depth < 2 and target.is_file():  # a template's tileset, a tileset's ... once
            _check_document(target, f"{where} ({kind} {ref!r})", roots, max_tiles, depth + 1)


def _inside(file: Path, ref: str, where: str, kind: str, roots: list[Path]) -> Path:
    target = (file.parent / ref).resolve()
    if not any(target.is_relative_to(root) for root in roots):
        raise _error(
            where,
            f"the {kind} {ref!r} lies outside the level's folder {str(roots[0])!r}; a level "
            "may read files only from its own folder (pass allow_folders=[...] to "
            "read_tiled to allow others)",
        )
    return target


def _xml_references(root: ET.Element) -> Iterator[tuple[str, str]]:
    for element in root.iter():
        if element.tag == "tileset" and element.get("source"):
            yield "tileset", str(element.get("source"))
        if element.tag == "object" and element.get("template"):
            yield "template", str(element.get("template"))


def _json_references(doc: Any) -> Iterator[tuple[str, str]]:
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            if isinstance(item.get("template"), str):
                yield "template", item["template"]
            tilesets = item.get("tilesets")
            listed = tilesets if isinstance(tilesets, list) else []
            for tileset in [*listed, item.get("tileset")]:  # a map's, a template's
                if isinstance(tileset, dict) and isinstance(tileset.get("source"), str):
                    yield "tileset", tileset["source"]
            stack.extend(
                v for k, v in item.items() if k != "data" and isinstance(v, (dict, list))
            )  # not the tiles


def _size(where: str, layer: str, width: Any, height: Any, max_tiles: int) -> tuple[int, int]:
    try:
        w, h = int(width), int(height)
    except (TypeError, ValueError) as exc:
        raise _error(
            where, f"layer {layer!r} has width {width!r} and height {height!r}; expected integers"
        ) from exc
    if w < 0 or h < 0 or w * h > max_tiles:
        raise _error(
            where,
            f"layer {layer!r} is {w}x{h} tiles; expected at most max_tiles={max_tiles} "
            "(raise it with read_tiled(path, max_tiles=...))",
        )
    return w, h


def _xml_layers(root: ET.Element, where: str, max_tiles: int) -> None:
    if root.tag == "map":
        _size(where, "(the map)", root.get("width", 0), root.get("height", 0), max_tiles)
    for layer in root.iter("layer"):
        name = layer.get("name", "")
        data = layer.find("data")
        if data is None:
            continue
        parts = data.findall("chunk") or [data]
        for part in parts:
            holder = layer if part is data else part
            w, h = _size(where, name, holder.get("width"), holder.get("height"), max_tiles)
            _check_data(where, name, data.get("encoding"), data.get("compression"), part.text, w, h)


def _json_layers(doc: Any, where: str, max_tiles: int) -> None:
    if not isinstance(doc, dict):
        return
    if "width" in doc and "height" in doc and "layers" in doc:
        _size(where, "(the map)", doc["width"], doc["height"], max_tiles)
    stack = list(doc.get("layers") or []) if isinstance(doc.get("layers"), list) else []
    while stack:
        layer = stack.pop()
        if not isinstance(layer, dict):
            continue
        if isinstance(layer.get("layers"), list):
            stack.extend(layer["layers"])
        if layer.get("type") != "tilelayer":
            continue
        name = str(layer.get("name", ""))
        chunks = layer.get("chunks")
        parts: list[Any] = chunks if isinstance(chunks, list) else [layer]
        for part in parts:
            if not isinstance(part, dict) or "data" not in part:
                continue
            w, h = _size(where, name, part.get("width"), part.get("height"), max_tiles)
            data = part["data"]
            if isinstance(data, list):
                if len(data) != w * h:
                    raise _error(
                        where,
                        f"tile layer {name!r} holds {len(data)} tiles; its size {w}x{h} needs "
                        f"{w * h}",
                    )
            else:
                encoding = layer.get("encoding", "base64")
                _check_data(where, name, encoding, layer.get("compression"), data, w, h)


def _check_data(
    where: str, layer: str, encoding: Any, compression: Any, text: Any, w: int, h: int
) -> None:
    if encoding == "csv":
        _check_csv(where, layer, text or "", w, h)
    elif encoding == "base64":
        if not isinstance(text, str):
            raise _error(where, f"tile layer {layer!r}: base64 data must be text")
        try:
            raw = base64.b64decode(text, validate=False)
        except (binascii.Error, UnicodeError, ValueError) as exc:
            raise _error(where, f"tile layer {layer!r}: its base64 data does not decode") from exc
        expected = 4 * w * h
        size = len(raw) if not compression else _expanded(where, layer, compression, raw, expected)
        if size != expected:
            raise _error(
                where,
                f"tile layer {layer!r} holds {size} bytes of tiles; its size {w}x{h} needs "
                f"{expected} (4 per tile)",
            )


def _expanded(where: str, layer: str, compression: str, raw: bytes, expected: int) -> int:
    """The length of ``raw`` decompressed, found without expanding past ``expected + 1``."""
    limit = expected + 1
    try:
        if compression in ("zlib", "gzip"):
            inflate = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
            return len(inflate.decompress(raw, limit))
        if compression == "zstd":
            return _zstd_length(where, layer, raw, limit)
    except zlib.error as exc:
        raise _error(
            where, f"tile layer {layer!r}: its {compression} data is damaged ({exc})"
        ) from exc
    raise _error(
        where,
        f"tile layer {layer!r} uses compression {compression!r}; expected 'zlib', 'gzip' or 'zstd'",
    )


def _zstd_length(where: str, layer: str, raw: bytes, limit: int) -> int:
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]  # optional
    except ImportError as exc:
        raise _error(
            where,
            f"tile layer {layer!r} is zstd-compressed: reading it safely (with a size limit) "
            "needs the zstandard package (pip install zstandard)",
        ) from exc
    try:
        with zstandard.ZstdDecompressor().stream_reader(raw) as reader:
            return len(reader.read(limit))
    except zstandard.ZstdError as exc:
        raise _error(where, f"tile layer {layer!r}: its zstd data is damaged ({exc})") from exc


def _check_csv(where: str, layer: str, text: str, w: int, h: int) -> None:
    rows = [line.strip() for line in text.strip().splitlines() if line.strip()]
    for number, row in enumerate(rows, start=1):
        cells = row.rstrip(",").split(",")
        if len(cells) != w and len(rows) != 1:  # one line: rows not marked, count the total
            raise _error(
                where,
                f"tile layer {layer!r}: CSV row {number} holds {len(cells)} tiles; the layer is "
                f"{w} wide (a short or long row shifts every tile after it)",
            )
    total = sum(len(row.rstrip(",").split(",")) for row in rows) if rows else 0
    if total != w * h or (len(rows) != 1 and len(rows) != h):
        raise _error(
            where,
            f"tile layer {layer!r}: CSV data of {len(rows)} rows and {total} tiles; the layer is "
            f"{w}x{h} ({w * h} tiles)",
        )


# ------------------------------------------------------------------ what was parsed


def layer_gids(where: str, layer: str, data: Any, rows: int, cols: int) -> npt.NDArray[np.int64]:
    """A tile layer's gids as a ``(rows, cols)`` int64 array (flip bits as in the file),
    after checking the data is ``rows`` rows of ``cols`` unsigned 32-bit gids."""
    try:
        fast = np.asarray(data)  # the usual case: a rectangle of ints, read at once
    except (ValueError, OverflowError):
        fast = None
    if (
        fast is not None
        and fast.dtype.kind in "iu"
        and fast.shape in ((rows, cols), (rows * cols,))
        and (fast.size == 0 or (int(fast.min()) >= 0 and int(fast.max()) < _GID_END))
    ):
        return fast.astype(np.int64).reshape(rows, cols)
    return _diagnose(where, layer, data, rows, cols)


def _diagnose(where: str, layer: str, data: Any, rows: int, cols: int) -> npt.NDArray[np.int64]:
    """The slow way through tile data that is not a rectangle of gids: the first fault."""
    flat: list[Any] = []
    nested = isinstance(data, list) and bool(data) and isinstance(data[0], list)
    if nested:
        for number, row in enumerate(data, start=1):
            if not isinstance(row, list) or len(row) != cols:
                size = len(row) if isinstance(row, list) else type(row).__name__
                raise _error(
                    where, f"tile layer {layer!r}: row {number} holds {size} tiles; the map is "
                    f"{cols} wide",
                )  # fmt: skip
            flat.extend(row)
    else:
        flat = list(data or [])
    if len(flat) != rows * cols or (nested and len(data) != rows):
        raise _error(
            where,
            f"tile layer {layer!r} holds {len(flat)} tiles; the map is {rows}x{cols} "
            f"({rows * cols} tiles)",
        )
    for gid in flat:
        if not isinstance(gid, (int, np.integer)) or isinstance(gid, bool):
            raise _error(where, f"tile layer {layer!r} holds the gid {gid!r}; expected integers")
        if not 0 <= gid < _GID_END:
            raise _error(
                where,
                f"tile layer {layer!r} holds the gid {gid}; gids are unsigned 32-bit numbers "
                "(0 for no tile)",
            )
    return np.array(flat, dtype=np.int64).reshape(rows, cols)


def check_gids(
    where: str, layer: str, gids: npt.NDArray[np.int64], tilesets: Sequence[TilesetRange]
) -> None:
    """Raise unless every gid of the layer (as in the file: flip bits are cleared here;
    0 is no tile) is a tile of one of ``tilesets``, naming the first gid that is not and
    where it sits."""
    tiles = gids & _GID_MASK
    used = np.unique(tiles)
    ordered = sorted(tilesets, key=lambda t: t[0])
    for gid in used.tolist():
        if not gid:
            continue
        owner = next((t for t in reversed(ordered) if t[0] <= gid), None)
        if owner is not None and (gid - owner[0] < owner[1] or gid - owner[0] in owner[3]):
            continue
        r, c = (int(v) for v in np.argwhere(tiles == gid)[0])
        raw = int(gids[r, c])
        said = f"gid {raw}" if raw == gid else f"gid {raw} (tile {gid} once flips are cleared)"
        known = ", ".join(f"{t[2]!r} gids {t[0]}-{t[0] + max(t[1], 1) - 1}" for t in ordered)
        raise _error(
            where,
            f"tile layer {layer!r} holds {said} at (row {r}, col {c}), which belongs to no "
            f"tile of the tilesets ({known or 'none'})",
        )


def check_object(where: str, obj: Any) -> None:
    """Raise unless an object's position, size, rotation and points are finite numbers."""
    values = [obj.x, obj.y, obj.width, obj.height, obj.rotation]
    if obj.points is not None:
        values += np.asarray(obj.points, dtype=float).ravel().tolist()
    if not all(math.isfinite(v) for v in values):
        raise _error(
            where,
            f"object layer {obj.layer!r}: object {obj.id} ({obj.name!r}) is at x={obj.x!r}, "
            f"y={obj.y!r}, {obj.width!r}x{obj.height!r}, rotation {obj.rotation!r}; expected "
            "finite numbers",
        )
