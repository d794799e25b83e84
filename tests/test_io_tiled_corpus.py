"""Real Tiled maps from public game repositories (tests/data/tiled_corpus, see its
README): each loads; its tile layers equal a decoding written here with the standard
library; its obstacle objects make the walls an independent rasterisation
(tests/_tiled_oracle.py) finds, under every cover rule, from shapes built here with
shapely's own affine transforms."""

from __future__ import annotations

import base64
import json
import math
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
affinity = pytest.importorskip("shapely.affinity")
from _tiled_oracle import expected_walls  # noqa: E402

from pathcraft.io.tiled import ELLIPSE_CORNERS, bundled_level, read_tiled  # noqa: E402

CORPUS = Path(__file__).parent / "data" / "tiled_corpus"
MAPS = sorted(
    str(p.relative_to(CORPUS))
    for p in CORPUS.rglob("*")
    if p.suffix in (".tmx", ".tmj") or (p.suffix == ".json" and '"layers"' in p.read_text())
)
COVERS: list[Any] = ["overlap", "center", 0.5, 1.0]
FLAGS = 0xF0000000
KINDS = ("ellipse", "point", "polygon", "polyline", "text")

try:
    import zstandard
except ImportError:
    zstandard = None


def test_the_corpus_is_what_its_readme_says() -> None:
    readme = (CORPUS / "README.md").read_text()
    assert len(MAPS) >= 8
    assert len({m.split("/")[0] for m in MAPS}) >= 5
    for name in MAPS:
        assert f"`{name}`" in readme or f"`{name}` (+" in readme, name
    for folder in {m.split("/")[0] for m in MAPS}:
        assert "MIT" in (CORPUS / folder / "LICENSE").read_text()


# ---------------------------------------------------------------- an independent reading


def _gids(values: Any, encoding: str | None, compression: str | None) -> np.ndarray:
    if isinstance(values, list):
        raw = np.array(values, dtype=np.uint64)
    elif encoding == "csv":
        raw = np.array([int(v) for v in values.replace("\n", "").split(",") if v.strip()])
    else:
        data = base64.b64decode(values.strip())
        if compression in ("zlib", "gzip"):
            data = zlib.decompress(data, 47)  # either header
        elif compression == "zstd":
            data = zstandard.ZstdDecompressor().decompress(data)
        raw = np.frombuffer(data, dtype="<u4")
    return (raw.astype(np.uint64) & ~np.uint64(FLAGS)).astype(np.int64)


def _shape(kind: str, x: float, y: float, w: float, h: float, rot: float, pts: Any) -> Any:
    if kind in ("polygon",):
        geom = shapely.Polygon([(x + px, y + py) for px, py in pts])
    elif kind == "ellipse":
        t = np.linspace(0.0, 2 * math.pi, ELLIPSE_CORNERS, endpoint=False)
        geom = shapely.Polygon(np.column_stack((x + w / 2 * (1 + np.cos(t)),
                                                y + h / 2 * (1 + np.sin(t)))))  # fmt: skip
    elif kind == "tile":
        geom = shapely.box(x, y - h, x + w, y)
    else:
        geom = shapely.box(x, y, x + w, y + h)
    geom = affinity.rotate(geom, rot, origin=(x, y))  # clockwise on a y-down screen
    return geom if geom.is_valid else shapely.make_valid(geom)


def _area_object(kind: str, w: float, h: float) -> bool:
    return kind == "polygon" or (kind in ("rectangle", "ellipse", "tile") and w > 0 and h > 0)


def read_tmx(path: Path) -> dict[str, Any]:
    root = ET.parse(path).getroot()
    layers: dict[str, Any] = {}
    shapes: list[Any] = []
    groups: list[str] = []

    def walk(parent: ET.Element, ox: float, oy: float) -> None:
        for el in parent:
            dx = ox + float(el.get("offsetx", 0))
            dy = oy + float(el.get("offsety", 0))
            if el.tag == "group":
                walk(el, dx, dy)
            elif el.tag == "layer":
                data = el.find("data")
                chunks = data.findall("chunk")
                enc, comp = data.get("encoding"), data.get("compression")
                if chunks:
                    layers[el.get("name")] = [
                        (int(c.get("x")), int(c.get("y")),
                         _gids(c.text, enc, comp).reshape(int(c.get("height")), -1))
                        for c in chunks
                    ]  # fmt: skip
                elif enc is None:
                    layers[el.get("name")] = _gids([int(t.get("gid", 0)) for t in data], None, None)
                else:
                    layers[el.get("name")] = _gids(data.text, enc, comp)
            elif el.tag == "objectgroup":
                groups.append(el.get("name"))
                for o in el.findall("object"):
                    tags = [t for t in KINDS if o.find(t) is not None]
                    kind = tags[0] if tags else "tile" if o.get("gid") else "rectangle"
                    w, h = float(o.get("width", 0)), float(o.get("height", 0))
                    if not _area_object(kind, w, h):
                        continue
                    pts = None
                    if kind == "polygon":
                        pts = [tuple(map(float, p.split(",")))
                               for p in o.find("polygon").get("points").split()]  # fmt: skip
                    shapes.append(_shape(kind, float(o.get("x", 0)) + dx,
                                         float(o.get("y", 0)) + dy, w, h,
                                         float(o.get("rotation", 0)), pts))  # fmt: skip

    walk(root, 0.0, 0.0)
    return {"rows": int(root.get("height")), "cols": int(root.get("width")),
            "tile": (float(root.get("tilewidth")), float(root.get("tileheight"))),
            "layers": layers, "shapes": shapes, "groups": groups}  # fmt: skip


def read_json(path: Path) -> dict[str, Any]:
    root = json.loads(path.read_text())
    layers: dict[str, Any] = {}
    shapes: list[Any] = []
    groups: list[str] = []

    def walk(items: list[Any], ox: float, oy: float) -> None:
        for el in items:
            dx, dy = ox + el.get("offsetx", 0), oy + el.get("offsety", 0)
            enc, comp = el.get("encoding", "csv"), el.get("compression")
            if el["type"] == "group":
                walk(el["layers"], dx, dy)
            elif el["type"] == "tilelayer" and "chunks" in el:
                layers[el["name"]] = [(c["x"], c["y"], _gids(c["data"], enc, comp).reshape(
                    c["height"], c["width"])) for c in el["chunks"]]  # fmt: skip
            elif el["type"] == "tilelayer":
                layers[el["name"]] = _gids(el["data"], enc, comp)
            elif el["type"] == "objectgroup":
                groups.append(el["name"])
                for o in el["objects"]:
                    tags = [k for k in KINDS if o.get(k)]
                    kind = tags[0] if tags else "tile" if o.get("gid") else "rectangle"
                    if not _area_object(kind, o.get("width", 0), o.get("height", 0)):
                        continue
                    pts = [(p["x"], p["y"]) for p in o["polygon"]] if kind == "polygon" else None
                    size = (o.get("width", 0), o.get("height", 0))
                    shapes.append(_shape(kind, o["x"] + dx, o["y"] + dy, *size,
                                         o.get("rotation", 0), pts))  # fmt: skip

    walk(root["layers"], 0.0, 0.0)
    return {"rows": root["height"], "cols": root["width"],
            "tile": (float(root["tilewidth"]), float(root["tileheight"])),
            "layers": layers, "shapes": shapes, "groups": groups}  # fmt: skip


# ---------------------------------------------------------------- the comparisons


@pytest.mark.parametrize("name", MAPS)
def test_each_map_loads_and_matches_an_independent_reading(name: str) -> None:
    path = CORPUS / name
    if zstandard is None and "zstd" in path.read_text():
        with pytest.raises(ValueError, match=rf"{path.name}: .*pip install zstandard"):
            read_tiled(path)
        return
    truth = read_tmx(path) if path.suffix == ".tmx" else read_json(path)
    level = read_tiled(path)
    w, h = truth["tile"]
    assert level.tile_size == (w, h)
    chunked = [c for v in truth["layers"].values() if isinstance(v, list) for c in v]
    origin = (0.0, 0.0)
    if chunked:  # infinite: the grid covers every chunk
        c0, r0 = min(c[0] for c in chunked), min(c[1] for c in chunked)
        origin = (c0 * w, r0 * h)
        for layer_name, chunks in truth["layers"].items():
            gids = level.tile_layer(layer_name).gids
            for cx, cy, block in chunks:
                got = gids[cy - r0 : cy - r0 + block.shape[0], cx - c0 : cx - c0 + block.shape[1]]
                np.testing.assert_array_equal(got, block)
    else:
        assert level.shape == (truth["rows"], truth["cols"])
        for layer_name, gids in truth["layers"].items():
            np.testing.assert_array_equal(
                level.tile_layer(layer_name).gids.ravel(), gids, err_msg=layer_name
            )
    assert level.data.origin == origin
    assert [lay.name for lay in level.data.tile_layers] == list(truth["layers"])
    if not truth["groups"]:
        return
    assert len(level.obstacles()) == len(truth["shapes"])
    for cover in COVERS:
        grid = level.grid(layers=[], obstacles=truth["groups"], cover=cover)
        want = expected_walls(truth["shapes"], level.shape, (w, h), origin, cover)
        np.testing.assert_array_equal(~grid.walkable, want, err_msg=f"{name} {cover}")


def test_the_corpus_has_walls_to_compare() -> None:
    """The comparisons above are not vacuous: most maps have obstacles, and the rules
    differ on them (the default walls more than the centre rule)."""
    with_walls = 0
    for name in MAPS:
        path = CORPUS / name
        if zstandard is None and "zstd" in path.read_text():
            continue
        level = read_tiled(path)
        if not level.data.object_layers or not level.obstacles():
            continue
        groups = list(level.data.object_layers)
        overlap = (~level.grid(layers=[], obstacles=groups).walkable).sum()
        centre = (~level.grid(layers=[], obstacles=groups, cover="center").walkable).sum()
        assert overlap >= centre
        with_walls += overlap > centre
    assert with_walls >= 4


GROUPED = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down"
     width="2" height="2" tilewidth="32" tileheight="32" infinite="0" nextlayerid="9"
     nextobjectid="9">
 <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="4"/>
 <layer id="1" name="ground" width="2" height="2"><data encoding="csv">1,2,3,1</data></layer>
 <group id="2" name="g" offsetx="8" offsety="4">
  <objectgroup id="3" name="props" offsetx="8" offsety="8">
   <object id="1" x="0" y="0" width="32" height="32"/>
   <object id="2" x="10" y="5" rotation="30"><polygon points="0,0 20,0 10,15"/></object>
  </objectgroup>
 </group>
</map>
"""


def _both(path: Path) -> tuple[Any, Any] | None:
    pytest.importorskip("pytiled_parser")
    from pathcraft.io._tiled_read import read_file
    from pathcraft.io._tiled_source import from_file

    try:
        theirs = from_file(path)  # pytiled-parser only, no fallback
    except ValueError:
        return None
    return theirs, read_file(path)


@pytest.mark.parametrize("name", [*MAPS, "grouped.tmx", "dungeon.tmx", "dungeon.json"])
def test_pytiled_parser_and_pathcraft_s_reader_agree(name: str, tmp_path: Path) -> None:
    path = CORPUS / name
    if name.startswith("dungeon"):
        path = bundled_level(name.split(".")[1])  # type: ignore[arg-type]
    elif name == "grouped.tmx":
        path = tmp_path / name
        path.write_text(GROUPED)
    both = _both(path)
    if both is None:
        pytest.skip("pytiled-parser refuses this file")
    theirs, ours = both
    assert (theirs.rows, theirs.cols, theirs.tile_size) == (ours.rows, ours.cols, ours.tile_size)
    assert [(t.name, t.offset, t.properties) for t in theirs.tile_layers] == [
        (t.name, t.offset, t.properties) for t in ours.tile_layers
    ]
    for a, b in zip(theirs.tile_layers, ours.tile_layers, strict=True):
        np.testing.assert_array_equal(a.gids, b.gids)
    assert theirs.gid_properties == ours.gid_properties
    assert theirs.gid_tile_size == ours.gid_tile_size
    assert list(theirs.object_layers) == list(ours.object_layers)
    for layer, objects in theirs.object_layers.items():
        for a, b in zip(objects, ours.object_layers[layer], strict=True):
            fields = ("id", "name", "class_", "kind", "x", "y", "width", "height", "rotation")
            assert [getattr(a, f) for f in fields] == pytest.approx([getattr(b, f) for f in fields])
            assert a.properties == b.properties
            assert (a.points is None) == (b.points is None)
            if a.points is not None:
                np.testing.assert_allclose(a.points, b.points)



def test_the_tile_layers_below_the_player_on_real_maps() -> None:
    """flixel's test2.tmx draws its player (class ``player``) in ``events``, after
    bg..bg4 and before fg..fg3; melonJS's map1.tmx draws ``Front Layer`` above the
    object layer ``Player``."""
    flixel = read_tiled(CORPUS / "flixel-demos" / "test2.tmx")
    assert [lay.name for lay in flixel.below_player()] == ["bg", "bg2", "bg3", "bg4"]
    np.testing.assert_array_equal(
        flixel.grid(empty="wall").cost, flixel.grid(layers=["bg", "bg2", "bg3", "bg4"],
                                                    empty="wall").cost
    )  # fmt: skip
    melon = read_tiled(CORPUS / "melonjs-examples" / "map1.tmx")
    assert [lay.name for lay in melon.below_player()] == ["Back Layer 2", "Back Layer 1"]
    assert [lay.name for lay in melon.below_player("Flies")] == [
        "Back Layer 2", "Back Layer 1", "Front Layer"]  # fmt: skip
    with pytest.raises(ValueError, match="no object layer 'Playr'; the object layers are"):
        melon.below_player("Playr")
    # pytmx lists tile layers before object layers: the order is read from the file
    pytmx = pytest.importorskip("pytmx")
    for name in ("flixel-demos/test2.tmx", "melonjs-examples/map1.tmx"):
        ours, theirs = read_tiled(CORPUS / name), read_tiled(pytmx.TiledMap(str(CORPUS / name)))
        assert theirs.data.drawn == ours.data.drawn
        assert [lay.name for lay in theirs.below_player()] == [
            lay.name for lay in ours.below_player()]  # fmt: skip
