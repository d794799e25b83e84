"""LDtk projects as plain data: one level of a ``.ldtk`` file, checked, in one shape.

:func:`from_file` reads a project with the standard library's ``json`` (no extra
needed), picks one level (by index, identifier or iid; from ``levels`` or, in a
multi-world project, from every world's ``levels`` in order), reads its layers from the
project or from its external ``.ldtkl`` file, and gives a :class:`LevelData`: the
IntGrid layers as value arrays ``(rows, cols)``, the entities with their centres in
level pixels, and what the project defines (entity identifiers, tags, field names) so
a caller's selection can be checked against it.

The JSON versions read: LDtk 1.0 to the current release, and the older files still
found in game repositories (0.6 onwards): IntGrid cells as ``intGridCsv`` (0.8+) or as
the sparse ``intGrid`` list of ``{coordId, v}`` with ``v`` the 0-based index of the
value (before 0.8), entity sizes and pivots from the entity's definition when the
instance does not carry them.

Every check happens before anything is allocated from a number the file gives: a
CSV must hold exactly ``__cWid * __cHei`` numbers (it is in memory already), and the
sparse format's size is refused above :data:`MAX_CELLS`. Errors are ``ValueError``
naming the file, the level, the layer and the bad value.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.io._ldtk_json import Place, count, get, load_json, number, pair

__all__ = ["MAX_CELLS", "Entity", "IntGridLayer", "LevelData", "from_file"]

#: The most cells a level in LDtk's sparse pre-0.8 ``intGrid`` format may declare
#: (4096 x 4096): that format gives the size apart from the data, so a damaged file
#: could otherwise ask for any allocation.
MAX_CELLS = 4096 * 4096

_LINEAR = ("LinearHorizontal", "LinearVertical")


@dataclass(frozen=True)
class IntGridLayer:
    """An IntGrid layer: ``values[row, col]`` (0: empty), its cell size in pixels,
    its offset in pixels and the identifier of each value it defines."""

    name: str
    values: npt.NDArray[np.int64]
    grid_size: int
    offset: tuple[float, float]
    names: dict[int, str]


@dataclass(frozen=True)
class Entity:
    """An entity of a level, in level pixels ``(x, y)``, y down.

    ``x, y`` is the centre of the entity's rectangle (whatever its pivot), ``cell`` the
    level grid's ``(row, col)`` holding that centre, ``bounds`` the rectangle
    ``(left, top, right, bottom)``; ``fields`` maps each field's identifier to its
    value as the file holds it (a point is ``{"cx": col, "cy": row}``, a cell of the
    entity layer's grid: ``grid_size`` pixels, drawn at ``offset``).
    """

    identifier: str
    iid: str
    layer: str
    tags: tuple[str, ...]
    x: float
    y: float
    width: float
    height: float
    cell: tuple[int, int]
    fields: dict[str, Any] = field(default_factory=dict)
    grid_size: int = 16
    offset: tuple[float, float] = (0.0, 0.0)

    def points(self, name: str) -> npt.NDArray[np.float64]:
        """The centres, in level pixels ``(x, y)``, of the cells a point field names
        (a ``Point`` or an ``Array<Point>``: a patrol route, say), as an ``(n, 2)``
        array in the field's order; empty points are left out.

        Raises
        ------
        ValueError
            No such field, or a field that does not hold points.

        Examples
        --------
        >>> from pathcraft.io import bundled_ldtk, read_ldtk
        >>> bat = read_ldtk(bundled_ldtk()).entities(fields={"kind": "bat"})[0]
        >>> bat.fields["patrol"], bat.points("patrol").tolist()
        ([{'cx': 22, 'cy': 10}, {'cx': 28, 'cy': 4}], [[360.0, 168.0], [456.0, 72.0]])
        """
        if name not in self.fields:
            raise ValueError(
                f"entity {self.identifier!r} has no field {name!r}; its fields are "
                f"{list(self.fields)}"
            )
        raw = self.fields[name]
        items = raw if isinstance(raw, list) else [raw]
        cells = []
        for item in items:
            if item is None:
                continue
            if not isinstance(item, dict) or not all(
                type(item.get(k)) is int for k in ("cx", "cy")
            ):
                raise ValueError(
                    f"field {name!r} of entity {self.identifier!r} does not hold points "
                    f"({{'cx': col, 'cy': row}}); got {raw!r}"
                )
            cells.append((item["cx"], item["cy"]))
        centres: npt.NDArray[np.float64] = (
            np.array(cells, dtype=np.float64).reshape(-1, 2) + 0.5
        ) * self.grid_size + np.array(self.offset)
        return centres

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` in level pixels."""
        hw, hh = self.width / 2, self.height / 2
        return self.x - hw, self.y - hh, self.x + hw, self.y + hh


@dataclass(frozen=True)
class LevelData:
    """One level of a project, read."""

    where: str
    identifier: str
    iid: str
    index: int
    levels: list[str]
    world: str | None
    world_position: tuple[float, float] | None
    json_version: str
    grid_size: int
    rows: int
    cols: int
    layer_names: list[str]
    int_grids: list[IntGridLayer]
    entity_layers: dict[str, list[Entity]]
    fields: dict[str, Any]
    entity_identifiers: list[str]
    entity_tags: list[str]
    entity_fields: list[str]


# ------------------------------------------------------------------ the project


def _all_levels(project: dict[str, Any], place: Place) -> list[tuple[dict[str, Any], str | None]]:
    worlds = project.get("worlds") or []
    if worlds:
        if not isinstance(worlds, list):
            raise place.error(f"'worlds' must be a list; got {type(worlds).__name__}")
        out: list[tuple[dict[str, Any], str | None]] = []
        for world in worlds:
            name = str(get(world, "identifier", str, place))
            levels = get(world, "levels", list, place)
            out.extend((lvl, name) for lvl in levels)
        return out
    return [(lvl, None) for lvl in get(project, "levels", list, place)]


def _pick(
    levels: list[tuple[dict[str, Any], str | None]], level: int | str, place: Place
) -> tuple[int, dict[str, Any], str | None]:
    names = [_level_name(lvl) for lvl, _ in levels]
    if isinstance(level, bool) or not isinstance(level, (int, str)):
        raise TypeError(f"level must be an index (int) or a level identifier (str); got {level!r}")
    if isinstance(level, int):
        if not -len(levels) <= level < len(levels):
            raise place.error(f"no level {level}: the project has {len(levels)} levels {names}")
        index = level % len(levels)
    else:
        iids = [lvl.get("iid") if isinstance(lvl, dict) else None for lvl, _ in levels]
        if level in names:
            index = names.index(level)
        elif level in iids:
            index = iids.index(level)
        else:
            raise place.error(f"no level {level!r}; the levels are {names}")
    chosen, world = levels[index]
    if not isinstance(chosen, dict):
        raise place.error(f"level {index} is not a JSON object")
    return index, chosen, world


def _external(project_file: Path, level: dict[str, Any], place: Place) -> tuple[Any, Place]:
    """The layers of a level saved in its own file, read only from the project's folder."""
    rel = get(level, "externalRelPath", str, place)
    folder = project_file.parent.resolve()
    if "\x00" in rel:
        raise place.error(f"external level file {rel!r} is not a file name")
    outside = PurePosixPath(rel).is_absolute() or PureWindowsPath(rel).is_absolute()
    target = (folder / rel).resolve()
    if outside or not target.is_relative_to(folder):
        raise place.error(
            f"external level file {rel!r} is outside the project's folder ({folder}); "
            "level files are read only from inside it"
        )
    try:
        found = target.is_file()
    except OSError as exc:  # a name too long, say
        raise place.error(f"external level file {rel!r} cannot be read: {exc}") from None
    if not found:
        raise place.error(f"external level file {rel!r} not found (looked at {target})")
    file_place = Place(os.fspath(target), place.level)
    return load_json(target, file_place), file_place


def from_file(path: str | os.PathLike[str], level: int | str = 0) -> LevelData:
    """Read one level of a ``.ldtk`` project (see the module documentation)."""
    where = os.fspath(path)
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{where}: no such LDtk project")
    place = Place(where)
    project = load_json(file, place)
    if not isinstance(project, dict) or "defs" not in project:
        hint = (
            " (a single level's .ldtkl file: open its .ldtk project)"
            if isinstance(project, dict) and "layerInstances" in project
            else ""
        )
        raise place.error(f"not an LDtk project: no 'defs' at the top{hint}")
    defs = get(project, "defs", dict, place)
    levels = _all_levels(project, place)
    if not levels:
        raise place.error("the project has no levels")
    index, raw, world = _pick(levels, level, place)
    ident = str(get(raw, "identifier", str, place.at(level=f"#{index}")))
    lplace = place.at(level=ident)
    layers_raw = raw.get("layerInstances")
    body, bplace = raw, lplace
    if layers_raw is None and raw.get("externalRelPath"):
        body, bplace = _external(file, raw, lplace)
        layers_raw = body.get("layerInstances") if isinstance(body, dict) else None
    if not isinstance(layers_raw, list):
        raise bplace.error("'layerInstances' must be a list of layers")
    px_wid, px_hei = count(raw, "pxWid", lplace), count(raw, "pxHei", lplace)
    layer_defs = get(defs, "layers", list, place)
    entity_defs = {
        str(d.get("identifier")): d for d in get(defs, "entities", list, place)
        if isinstance(d, dict)
    }  # fmt: skip
    int_grids: list[IntGridLayer] = []
    entity_layers: dict[str, list[Entity]] = {}
    names: list[str] = []
    layer_info = []
    for layer in layers_raw:
        name = str(get(layer, "__identifier", str, bplace))
        kind = str(get(layer, "__type", str, bplace.at(layer=name)))
        names.append(name)
        layer_info.append((layer, name, kind))
    grid_size, rows, cols = _level_grid(project, layer_info, (px_hei, px_wid), bplace)
    for layer, name, kind in layer_info:
        at = bplace.at(layer=name)
        if kind == "IntGrid":
            int_grids.append(_int_grid(layer, name, layer_defs, at))
        elif kind == "Entities":
            entity_layers[name] = [
                _entity(e, name, layer, entity_defs, grid_size, at)
                for e in get(layer, "entityInstances", list, at)
            ]
    position = None
    if project.get("worldLayout") not in _LINEAR:
        position = (number(raw, "worldX", lplace, 0.0), number(raw, "worldY", lplace, 0.0))
    tags = sorted({str(t) for t in _listed(entity_defs, "tags")})
    fields = sorted({
        str(f.get("identifier")) for f in _listed(entity_defs, "fieldDefs") if isinstance(f, dict)
    })  # fmt: skip
    return LevelData(
        where=where, identifier=ident, iid=str(raw.get("iid") or ""), index=index,
        levels=[_level_name(lvl) for lvl, _ in levels],
        world=world, world_position=position, json_version=str(project.get("jsonVersion", "")),
        grid_size=grid_size, rows=rows, cols=cols, layer_names=names, int_grids=int_grids,
        entity_layers=entity_layers, fields=_fields(raw.get("fieldInstances"), lplace),
        entity_identifiers=sorted(entity_defs), entity_tags=tags, entity_fields=fields,
    )  # fmt: skip


def _level_name(level: Any) -> str:
    return str(level.get("identifier")) if isinstance(level, dict) else "?"


def _listed(defs: dict[str, Any], key: str) -> list[Any]:
    """The items of a list field of every definition (a field that is not a list: none)."""
    return [item for d in defs.values() if isinstance(d.get(key), list) for item in d[key]]


def _level_grid(
    project: dict[str, Any], layers: list[tuple[Any, str, str]], px: tuple[int, int], place: Place
) -> tuple[int, int, int]:
    """The level's cell size and ``(rows, cols)``: its first IntGrid layer's, or (a level
    without one) the project's default cell size over the level's pixels."""
    first = next(((lay, name) for lay, name, kind in layers if kind == "IntGrid"), None)
    if first is not None:
        at = place.at(layer=first[1])
        return (
            count(first[0], "__gridSize", at), count(first[0], "__cHei", at),
            count(first[0], "__cWid", at),
        )  # fmt: skip
    size = count(project, "defaultGridSize", place) if "defaultGridSize" in project else 16
    return size, -(-px[0] // size), -(-px[1] // size)


# ------------------------------------------------------------------ layers


def _value_names(
    layer: dict[str, Any], layer_defs: list[Any], place: Place
) -> list[tuple[int, str]]:
    """The values an IntGrid layer defines, in definition order (before 0.8 a value had
    no ``value`` field: it was its 1-based position)."""
    uid, name = layer.get("layerDefUid"), layer.get("__identifier")
    found = [d for d in layer_defs if isinstance(d, dict) and d.get("uid") == uid]
    found = found or [d for d in layer_defs if isinstance(d, dict) and d.get("identifier") == name]
    if not found:
        raise place.error(f"no layer definition for this layer (layerDefUid {uid!r}) in 'defs'")
    out = []
    for i, entry in enumerate(get(found[0], "intGridValues", list, place)):
        value = entry.get("value", i + 1) if isinstance(entry, dict) else None
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise place.error(
                f"IntGrid value definition {i} must have an integer value > 0; got {entry!r}"
            )
        out.append((int(value), str(entry.get("identifier") or "")))
    return out


def _int_grid(
    layer: dict[str, Any], name: str, layer_defs: list[Any], place: Place
) -> IntGridLayer:
    cwid, chei = count(layer, "__cWid", place), count(layer, "__cHei", place)
    size = count(layer, "__gridSize", place)
    offset = (
        number(layer, "__pxTotalOffsetX", place, 0.0),
        number(layer, "__pxTotalOffsetY", place, 0.0),
    )
    defined = _value_names(layer, layer_defs, place)
    known = {v for v, _ in defined}
    n = cwid * chei
    csv = layer.get("intGridCsv")
    if csv:  # 0.8 onwards (older files hold an empty list beside the sparse one)
        if not isinstance(csv, list) or len(csv) != n:
            got = len(csv) if isinstance(csv, list) else type(csv).__name__
            raise place.error(
                f"'intGridCsv' holds {got} values; expected __cWid x __cHei = {cwid} x {chei} = {n}"
            )
        bad = next((i for i, v in enumerate(csv) if type(v) is not int), None)
        if bad is not None:
            raise place.error(
                f"'intGridCsv' value {csv[bad]!r} at cell {divmod(bad, cwid)} is not an integer"
            )
        try:
            flat = np.array(csv, dtype=np.int64)
        except OverflowError:
            flat = np.array([v if -(2**62) < v < 2**62 else -1 for v in csv], dtype=np.int64)
        unknown = np.flatnonzero((flat != 0) & ~np.isin(flat, sorted(known)))
        if unknown.size:
            i = int(unknown[0])
            raise place.error(
                f"IntGrid value {csv[i]!r} at cell (row, col) {divmod(i, cwid)} is not one "
                f"the layer defines ({_listing(defined)})"
            )
        values = flat.reshape(chei, cwid)
    else:
        values = _sparse(layer, defined, cwid, chei, place)
    return IntGridLayer(name, values, size, offset, dict(defined))


def _sparse(
    layer: dict[str, Any], defined: list[tuple[int, str]], cwid: int, chei: int, place: Place
) -> npt.NDArray[np.int64]:
    """The pre-0.8 ``intGrid`` list: ``{coordId: flat cell, v: 0-based value index}``."""
    raw = layer.get("intGrid")
    if raw is None:
        raise place.error("an IntGrid layer without 'intGridCsv' or 'intGrid' data")
    if not isinstance(raw, list):
        raise place.error(f"'intGrid' must be a list; got {type(raw).__name__}")
    n = cwid * chei
    if n > MAX_CELLS:
        raise place.error(f"{cwid} x {chei} cells is more than the limit of {MAX_CELLS}")
    values = np.zeros(n, dtype=np.int64)
    for entry in raw:
        cell, v = (
            (entry.get("coordId"), entry.get("v")) if isinstance(entry, dict) else (None, None)
        )
        if type(cell) is not int or not 0 <= cell < n:
            raise place.error(f"'intGrid' entry {entry!r}: coordId must be a cell 0..{n - 1}")
        if type(v) is not int or not 0 <= v < len(defined):
            raise place.error(
                f"'intGrid' entry {entry!r}: v must index the layer's values 0..{len(defined) - 1}"
            )
        values[cell] = defined[v][0]
    return values.reshape(chei, cwid)


def _listing(defined: list[tuple[int, str]]) -> str:
    return ", ".join(f"{v} {n!r}" if n else str(v) for v, n in defined) or "none"


def _fields(raw: Any, place: Place) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise place.error(f"'fieldInstances' must be a list; got {type(raw).__name__}")
    return {str(get(f, "__identifier", str, place)): f.get("__value") for f in raw}


def _entity(
    raw: Any, layer: str, layer_raw: dict[str, Any], defs: dict[str, Any], grid: int, place: Place
) -> Entity:
    ident = str(get(raw, "__identifier", str, place))
    at = place.at(entity=ident)
    spec = defs.get(ident, {})
    px = pair(raw, "px", at, (math.nan, math.nan))
    if math.isnan(px[0]):
        raise at.error("missing 'px' (its position in pixels)")
    width = number(raw, "width", at, number(spec, "width", at, 0.0))
    height = number(raw, "height", at, number(spec, "height", at, 0.0))
    pivot = pair(
        raw, "__pivot", at, (number(spec, "pivotX", at, 0.0), number(spec, "pivotY", at, 0.0))
    )
    dx, dy = (
        number(layer_raw, "__pxTotalOffsetX", at, 0.0),
        number(layer_raw, "__pxTotalOffsetY", at, 0.0),
    )
    x = px[0] + dx + (0.5 - pivot[0]) * width
    y = px[1] + dy + (0.5 - pivot[1]) * height
    if width < 0 or height < 0 or not (math.isfinite(x) and math.isfinite(y)):
        raise at.error(
            f"size {width:g} x {height:g} at px {list(px)} (pivot {list(pivot)}) gives no "
            "finite place; expected sizes >= 0 and positions in range"
        )
    tags = raw.get("__tags")
    if tags is None:
        tags = spec.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise at.error(f"'__tags' must be a list of strings; got {tags!r}")
    return Entity(
        identifier=ident, iid=str(raw.get("iid") or ""), layer=layer, tags=tuple(tags),
        x=x, y=y, width=width, height=height, cell=(math.floor(y / grid), math.floor(x / grid)),
        fields=_fields(raw.get("fieldInstances"), at),
        grid_size=count(layer_raw, "__gridSize", place), offset=(dx, dy),
    )  # fmt: skip
