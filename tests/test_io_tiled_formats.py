"""Tiled maps of every kind a game may have, and obstacles rasterised by a chosen rule.

The cover rules are checked against an independent rasteriser (tests/_tiled_oracle.py);
the files are written here in each of Tiled's syntaxes, old and new.
"""

from __future__ import annotations

import base64
import gzip
import itertools
import json
import math
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")

from _tiled_oracle import expected_walls  # noqa: E402

from pathcraft.io._tiled_read import read_file  # noqa: E402
from pathcraft.io.tiled import TiledLevel, bundled_level, read_tiled  # noqa: E402

COVERS: list[Any] = ["overlap", "center", 0.5, 0.25, 1.0]

FLIP_H = 0x80000000
FLIP_V = 0x40000000


def tmx_map(
    tmp_path: Path,
    body: str,
    *,
    width: int = 4,
    height: int = 4,
    tile: int = 32,
    attrs: str = 'version="1.10" tiledversion="1.10.2" infinite="0" nextlayerid="9" '
    'nextobjectid="99" renderorder="right-down"',
    tileset: str = '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" '
    'tilecount="4" columns="4"><tile id="1"><properties><property name="solid" '
    'type="bool" value="true"/></properties></tile></tileset>',
    name: str = "level.tmx",
) -> Path:
    text = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map {attrs} orientation="orthogonal" '
        f'width="{width}" height="{height}" tilewidth="{tile}" tileheight="{tile}">\n'
        f"{tileset}\n{body}\n</map>\n"
    )
    path = tmp_path / name
    path.write_text(text)
    return path


def csv_layer(gids: np.ndarray, name: str = "ground") -> str:
    rows = ",\n".join(",".join(str(int(g)) for g in row) for row in gids)
    return f'<layer name="{name}" width="{gids.shape[1]}" height="{gids.shape[0]}">' \
        f'<data encoding="csv">\n{rows}\n</data></layer>'  # fmt: skip


CRATE = '<objectgroup name="things"><object id="1" name="crate" x="16" y="16" width="32" ' \
    'height="32"/></objectgroup>'  # fmt: skip


# ---------------------------------------------------------------- the crate, and the rules


def test_a_crate_straddling_four_tiles_walls_all_four_and_the_path_goes_around(
    tmp_path: Path,
) -> None:
    level = read_tiled(tmx_map(tmp_path, csv_layer(np.ones((4, 4), int)) + CRATE))
    grid = level.grid(obstacles="things")
    assert (~grid.walkable).tolist() == [
        [True, True, False, False],
        [True, True, False, False],
        [False, False, False, False],
        [False, False, False, False],
    ]
    start, goal = (16.0, 80.0), (80.0, 16.0)  # below the crate, and right of it
    result = level.coords.find_path(grid, (16.0, 112.0), (112.0, 16.0))
    assert result
    crate = shapely.box(16, 16, 48, 48)
    assert not shapely.LineString(result.path).intersects(crate)
    # the old rule let it through: no cell centre lies inside the crate
    assert level.grid(obstacles="things", cover="center").walkable.all()
    assert level.coords.find_path(level.grid(obstacles="things", cover="center"), start, goal)


def test_cover_rules_on_the_bundled_level_match_an_independent_rasteriser() -> None:
    level = read_tiled(bundled_level())
    base = ~level.grid().walkable
    shapes = level.obstacles("obstacles")
    counts = []
    for cover in COVERS:
        walls = ~level.grid(obstacles="obstacles", cover=cover).walkable
        want = base | expected_walls(shapes, level.shape, level.tile_size, (0.0, 0.0), cover)
        np.testing.assert_array_equal(walls, want, err_msg=str(cover))
        counts.append(int(walls.sum()))
    overlap, center, half, quarter, whole = counts
    assert overlap >= quarter >= half >= whole and overlap >= center > whole


@pytest.mark.parametrize(
    ("cover", "message"),
    [("centre", "cover must be 'overlap', 'center'"), (0.0, r"cover as a fraction must lie in"),
     (1.5, r"in \(0, 1\]"), (math.nan, r"in \(0, 1\]"), (True, "cover must be")],
)  # fmt: skip
def test_a_bad_cover_rule_is_refused_naming_the_rules(cover: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_tiled(bundled_level()).grid(obstacles="obstacles", cover=cover)


def test_rotated_shapes_and_tile_objects_cover_what_they_overlap(tmp_path: Path) -> None:
    body = (
        csv_layer(np.ones((6, 6), int))
        + '<objectgroup name="o">'
        '<object id="1" x="40" y="40" width="50" height="20" rotation="30"/>'
        '<object id="2" gid="1" x="100" y="190" width="32" height="32"/>'
        '<object id="3" x="10" y="120" width="40" height="30"><ellipse/></object>'
        '<object id="4" x="150" y="10"><polygon points="0,0 30,5 10,30"/></object>'
        '<object id="5" x="0" y="0"><polyline points="0,0 190,190"/></object>'
        '<object id="6" x="64" y="64" width="64" height="64"><text>no wall</text></object>'
        "</objectgroup>"
    )
    level = read_tiled(tmx_map(tmp_path, body, width=6, height=6))
    kinds = [o.kind for o in level.objects]
    assert kinds == ["rectangle", "tile", "ellipse", "polygon", "polyline", "text"]
    shapes = level.obstacles("o")
    assert len(shapes) == 4  # the polyline and the text have no area
    tile = level.objects[1]
    assert shapes[1].equals(shapely.box(100, 190 - 32, 132, 190))  # bottom-left anchored
    del tile
    for cover in COVERS:
        walls = ~level.grid(obstacles="o", cover=cover).walkable
        np.testing.assert_array_equal(
            walls, expected_walls(shapes, (6, 6), (32.0, 32.0), (0.0, 0.0), cover)
        )


# ---------------------------------------------------------------- choosing objects


MIXED = '<objectgroup name="objects">' \
    '<object id="1" name="wall" type="wall" x="0" y="0" width="64" height="32"/>' \
    '<object id="2" name="player" type="spawn" x="70" y="70" width="20" height="20"/>' \
    '<object id="3" name="goblin" class="enemy" x="100" y="4"><ellipse/></object>' \
    '<object id="4" name="goblin" class="enemy" x="96" y="96"><point/></object>' \
    '<object id="5" name="coin" x="40" y="100" width="8" height="8">' \
    '<properties><property name="pickup" type="bool" value="true"/>' \
    '<property name="value" type="int" value="5"/></properties></object>' \
    '<object id="6" x="0" y="96"><polygon points="0,0 32,0 32,32"/>' \
    '<properties><property name="solid" type="bool" value="true"/></properties></object>' \
    "</objectgroup>"  # fmt: skip


def test_objects_are_chosen_by_name_class_kind_property_or_a_test(tmp_path: Path) -> None:
    level = read_tiled(tmx_map(tmp_path, csv_layer(np.ones((4, 4), int)) + MIXED))
    ids = lambda objs: [o.id for o in objs]  # noqa: E731
    assert ids(level.select(class_="wall")) == [1]
    assert ids(level.select("objects", name=["goblin", "coin"])) == [3, 4, 5]
    assert ids(level.select(class_="enemy", kind="point")) == [4]
    assert ids(level.select(property="pickup")) == [5]
    assert ids(level.select(property={"value": 5})) == [5]
    assert ids(level.select(property={"value": 6})) == []
    assert ids(level.select(where=lambda o: o.kind == "polygon")) == [6]
    walls = level.select(where=lambda o: o.class_ == "wall" or o.properties.get("solid"))
    grid = level.grid(obstacles=walls)
    assert (~grid.walkable).tolist() == [
        [True, True, False, False],
        [False, False, False, False],
        [False, False, False, False],
        [True, False, False, False],
    ]
    # the whole layer would wall the player's start and the goblins' spawns
    everything = ~level.grid(obstacles="objects").walkable
    assert everything[2, 2] and not grid.walkable[0, 0]
    with pytest.raises(ValueError, match=r"level\.tmx: class_ \['walls'\] matches no object; "
                       r"the objects' classes are \['', 'enemy', 'spawn', 'wall'\]"):  # fmt: skip
        level.select(class_="walls")
    with pytest.raises(ValueError, match=r"property \['pick'\] is not a property of any object"):
        level.select(property="pick")
    with pytest.raises(ValueError, match="kind must be among"):
        level.select(kind="circle")
    with pytest.raises(TypeError, match="where must be a callable"):
        level.select(where="wall")  # type: ignore[arg-type]


def test_spawns_come_from_any_shape_by_name_or_class(tmp_path: Path) -> None:
    level = read_tiled(tmx_map(tmp_path, csv_layer(np.ones((4, 4), int)) + MIXED))
    assert level.spawns() == {"player": [(80.0, 80.0)]}  # a rectangle's centre
    goblins = level.spawns(class_="enemy")
    assert list(goblins) == ["goblin"]
    (ex, ey), (px, py) = goblins["goblin"]
    assert (px, py) == (96.0, 96.0)
    assert math.isclose(ex, 100.0, abs_tol=1e-9) and math.isclose(ey, 4.0, abs_tol=1e-9)  # 0x0
    both = {"player": [(80.0, 80.0)], "coin": [(44.0, 104.0)]}
    assert level.spawns(name=["player", "coin"]) == both
    assert level.spawns(level.select(property="pickup")) == {}  # not spawns by default
    assert level.waypoints(name="coin").tolist() == [[44.0, 104.0]]


# ---------------------------------------------------------------- old and varied files


def test_a_tmx_saved_before_tiled_1_2_loads(tmp_path: Path) -> None:
    gids = np.ones((4, 4), int)
    gids[1, 2] = 2
    old = tmx_map(tmp_path, csv_layer(gids) + CRATE, attrs='version="1.0"', name="old.tmx")
    new = tmx_map(tmp_path, csv_layer(gids) + CRATE, name="new.tmx")
    level = read_tiled(old)
    assert level.shape == (4, 4)
    np.testing.assert_array_equal(
        level.grid(obstacles="things").cost, read_tiled(new).grid(obstacles="things").cost
    )
    assert not level.grid().walkable[1, 2]


def test_a_json_map_of_tiled_before_1_2_with_dict_properties(tmp_path: Path) -> None:
    gids = [1, 2, 1, 1]
    data = {
        "width": 2, "height": 2, "tilewidth": 16, "tileheight": 16, "orientation": "orthogonal",
        "version": 1, "tiledversion": "1.1.5",
        "layers": [
            {"type": "tilelayer", "name": "ground", "width": 2, "height": 2, "data": gids,
             "properties": {"cost": "2"}, "propertytypes": {"cost": "float"}},
            {"type": "objectgroup", "name": "o", "objects": [
                {"id": 1, "name": "start", "type": "spawn", "x": 4, "y": 4, "width": 0,
                 "height": 0, "point": True}]},
        ],
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 16, "tileheight": 16,
                      "tileproperties": {"1": {"solid": True}},
                      "tilepropertytypes": {"1": {"solid": "bool"}}}],
    }  # fmt: skip
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    level = read_tiled(path)
    assert level.grid().cost.tolist() == [[2.0, math.inf], [2.0, 2.0]]
    assert level.spawns() == {"start": [(4.0, 4.0)]}


def _encoded(gids: np.ndarray, encoding: str) -> str:
    raw = gids.astype("<u4").tobytes()
    if encoding == "xml":
        return "".join(f'<tile gid="{int(g)}"/>' for g in gids.ravel())
    if encoding == "csv":
        return ",".join(str(int(g)) for g in gids.ravel())
    packed = {"base64": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[encoding]
    return base64.b64encode(packed).decode()


@pytest.mark.parametrize("encoding", ["xml", "csv", "base64", "zlib", "gzip"])
def test_every_encoding_and_flipped_gids_read_alike(tmp_path: Path, encoding: str) -> None:
    gids = np.ones((3, 5), dtype=np.int64)
    gids[1, 1:4] = 2
    gids[0, 0] = 0
    flipped = gids.copy()
    flipped[1, 1] |= FLIP_H
    flipped[2, 4] |= FLIP_V
    attr = {"xml": "", "csv": ' encoding="csv"', "base64": ' encoding="base64"'}.get(
        encoding, f' encoding="base64" compression="{encoding}"'
    )
    body = f'<layer name="g" width="5" height="3"><data{attr}>{_encoded(flipped, encoding)}' \
        "</data></layer>"  # fmt: skip
    level = read_tiled(tmx_map(tmp_path, body, width=5, height=3))
    np.testing.assert_array_equal(level.tile_layer("g").gids, gids)
    assert (~level.grid().walkable).sum() == 3


def test_zstd_data_reads_or_names_what_to_install(tmp_path: Path) -> None:
    gids = np.ones((2, 2), dtype="<u4")
    try:
        import zstandard
    except ImportError:
        zstandard = None
    packed = zstandard.ZstdCompressor().compress(gids.tobytes()) if zstandard else b"\x28\xb5"
    body = '<layer name="g" width="2" height="2"><data encoding="base64" compression="zstd">' \
        f"{base64.b64encode(packed).decode()}</data></layer>"  # fmt: skip
    path = tmx_map(tmp_path, body, width=2, height=2)
    if zstandard is None:
        needs = r"'g' is compressed with zstd, which needs the zstandard package: pip install"
        with pytest.raises(ValueError, match=r"level\.tmx: .*" + needs):
            read_tiled(path)
    else:
        assert read_tiled(path).tile_layer("g").gids.tolist() == [[1, 1], [1, 1]]


def test_an_infinite_map_covers_its_chunks(tmp_path: Path) -> None:
    a = np.ones((2, 2), dtype=np.int64)
    b = np.full((2, 2), 2, dtype=np.int64)
    body = (
        '<layer name="g" width="4" height="4"><data encoding="csv">'
        f'<chunk x="-2" y="0" width="2" height="2">{_encoded(a, "csv")}</chunk>'
        f'<chunk x="2" y="2" width="2" height="2">{_encoded(b, "csv")}</chunk>'
        "</data></layer>"
        '<objectgroup name="o"><object id="1" x="-64" y="0" width="16" height="16"/>'
        "</objectgroup>"
    )
    attrs = 'version="1.10" infinite="1"'
    level = read_tiled(tmx_map(tmp_path, body, attrs=attrs))
    assert level.shape == (4, 6) and level.data.origin == (-64.0, 0.0)
    gids = level.tile_layer("g").gids
    assert gids[:2, :2].tolist() == [[1, 1], [1, 1]] and gids[2:, 4:].tolist() == [[2, 2]] * 2
    assert gids[2:, :2].sum() == 0
    assert level.coords.cell((-60.0, 4.0)) == (0, 0)
    grid = level.grid(obstacles="o", empty="wall")
    assert not grid.walkable[0, 0] and grid.walkable[1, 1] and not grid.walkable[2, 4]
    # the same map in JSON
    data = {
        "infinite": True, "width": 4, "height": 4, "tilewidth": 32, "tileheight": 32,
        "orientation": "orthogonal",
        "layers": [{"type": "tilelayer", "name": "g", "chunks": [
            {"x": -2, "y": 0, "width": 2, "height": 2, "data": a.ravel().tolist()},
            {"x": 2, "y": 2, "width": 2, "height": 2,
             "data": _encoded(b, "zlib")}], "encoding": "base64", "compression": "zlib"}],
        "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32}],
    }  # fmt: skip
    data["layers"][0]["chunks"][0]["data"] = _encoded(a, "zlib")
    path = tmp_path / "inf.json"
    path.write_text(json.dumps(data))
    np.testing.assert_array_equal(read_tiled(path).tile_layer("g").gids, gids)


def test_external_tilesets_templates_and_groups(tmp_path: Path) -> None:
    (tmp_path / "tiles.tsj").write_text(json.dumps({
        "name": "ext", "tilewidth": 32, "tileheight": 32,
        "tiles": [{"id": 2, "properties": [{"name": "wall", "type": "bool", "value": True}]}],
    }))  # fmt: skip
    (tmp_path / "crate.tx").write_text(
        '<?xml version="1.0"?><template><object name="crate" type="box" width="32" '
        'height="32"><properties><property name="heavy" type="bool" value="true"/>'
        "</properties></object></template>"
    )
    gids = np.ones((4, 4), int)
    gids[3, 3] = 3
    body = (
        '<group name="level" offsetx="0" offsety="0">'
        + csv_layer(gids)
        + '<group name="inner" offsetx="8" offsety="8"><objectgroup name="props" offsetx="8" '
        'offsety="8"><object id="1" template="crate.tx" x="0" y="0"/>'
        '<object id="2" template="crate.tx" name="big" x="64" y="64" width="40"/>'
        "</objectgroup></group></group>"
    )
    tileset = '<tileset firstgid="1" source="tiles.tsj"/>'
    level = read_tiled(tmx_map(tmp_path, body, tileset=tileset))
    assert [lay.name for lay in level.data.tile_layers] == ["ground"]
    crate, big = level.objects
    assert (crate.name, crate.class_, crate.x, crate.y, crate.width) == ("crate", "box", 16, 16, 32)
    assert (big.name, big.width, big.height, big.properties) == ("big", 40, 32, {"heavy": True})
    assert level.spawns(class_="box") == {"crate": [(32.0, 32.0)], "big": [(100.0, 96.0)]}
    grid = level.grid(obstacles="props")
    assert not grid.walkable[3, 3] and not grid.walkable[0, 0] and grid.walkable[0, 3]


def test_a_file_neither_reader_takes_names_the_file_and_both_reasons(tmp_path: Path) -> None:
    body = '<layer name="g" width="4" height="4"><data encoding="csv">1,1</data></layer>'
    path = tmx_map(tmp_path, body, attrs='version="1.0"')  # pre-1.2: pytiled-parser refuses
    # the checks every file passes first name the file, the layer and the fault ...
    with pytest.raises(ValueError, match=r"level\.tmx: tile layer 'g': CSV data of 1 rows "
                       r"and 2 tiles; the layer is 4x4 \(16 tiles\)"):  # fmt: skip
        read_tiled(path)
    # ... and pathcraft's own reader, the fallback, adds why the other one refused
    expected = (r"level\.tmx: not a readable Tiled map .*tile layer 'g' holds 2 tiles; "
                r"expected 16 \(pytiled-parser: it said no\)")  # fmt: skip
    with pytest.raises(ValueError, match=expected):
        read_file(path, "pytiled-parser: it said no")


# ---------------------------------------------------------------- pytmx


def test_pytmx_objects_read_as_the_file_says(tmp_path: Path) -> None:
    pytmx = pytest.importorskip("pytmx")
    body = (
        csv_layer(np.ones((6, 6), int))
        + '<objectgroup name="o">'
        '<object id="1" x="10" y="120" width="40" height="30"><ellipse/></object>'
        '<object id="2" gid="1" x="100" y="190" width="32" height="32"/>'
        '<object id="3" x="64" y="64" width="64" height="64"><text>no wall</text></object>'
        '<object id="4" x="150" y="10"><polygon points="0,0 30,5 10,30"/></object>'
        "</objectgroup>"
    )
    path = tmx_map(tmp_path, body, width=6, height=6)
    ours, theirs = read_tiled(path), read_tiled(pytmx.TiledMap(str(path)))
    assert [o.kind for o in theirs.objects] == [o.kind for o in ours.objects]
    for a, b in zip(theirs.obstacles(), ours.obstacles(), strict=True):
        assert a.equals(b)
    for cover in COVERS:
        np.testing.assert_array_equal(
            theirs.grid(obstacles="o", cover=cover).cost, ours.grid(obstacles="o", cover=cover).cost
        )


# ---------------------------------------------------------------- the rules, as properties

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@st.composite
def levels(draw: Any) -> Any:
    """A small level of w x h px tiles with a few rectangles, ellipses and polygons
    placed anywhere (off the grid's lines, rotated, partly off the map)."""
    from pathcraft.io._tiled_source import MapData, MapObject
    from pathcraft.io.tiled import TiledLevel

    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    w, h = draw(st.sampled_from([(16.0, 16.0), (32.0, 32.0), (20.0, 12.0)]))
    coord = st.floats(-20, 150, allow_nan=False).map(lambda v: round(v, 2))
    size = st.floats(0.5, 60, allow_nan=False).map(lambda v: round(v, 2))
    objects = []
    for i in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["rectangle", "ellipse", "polygon", "tile"]))
        x, y, ow, oh = draw(coord), draw(coord), draw(size), draw(size)
        rotation = draw(st.sampled_from([0.0, 0.0, 30.0, 90.0, -45.0, 12.5]))
        points = None
        if kind == "polygon":
            points = np.array([(x, y), (x + ow, y), (x + ow / 2, y + oh)])
        objects.append(MapObject(
            id=i + 1, name="", class_="", kind=kind, x=x, y=y, width=ow, height=oh,
            rotation=rotation, layer="o", points=points,
        ))  # fmt: skip
    data = MapData(
        where="prop.tmx", rows=rows, cols=cols, tile_size=(w, h), tile_layers=[],
        object_layers={"o": objects}, gid_properties={}, gid_tile_size={}, gid_tileset={},
        properties={},
    )  # fmt: skip
    return TiledLevel(data)


@hypothesis.settings(max_examples=60, deadline=None)
@hypothesis.given(level=levels())
def test_every_rule_matches_the_oracle_and_the_rules_nest(level: Any) -> None:
    shapes = level.obstacles("o")
    walls = {}
    for cover in COVERS:
        walls[cover] = ~level.grid(obstacles="o", cover=cover).walkable
        want = expected_walls(shapes, level.shape, level.tile_size, (0.0, 0.0), cover)
        np.testing.assert_array_equal(walls[cover], want, err_msg=str(cover))
    assert not (walls[0.25] & ~walls["overlap"]).any()  # a quarter covered: overlapped
    assert not (walls[0.5] & ~walls[0.25]).any()
    assert not (walls[1.0] & ~walls[0.5]).any()
    assert not (walls["center"] & ~walls["overlap"]).any()


def test_without_pytiled_parser_pathcraft_reads_the_file_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    with_it = read_tiled(bundled_level())
    monkeypatch.setitem(sys.modules, "pytiled_parser", None)  # import fails
    without = read_tiled(bundled_level())
    np.testing.assert_array_equal(
        without.grid(obstacles="obstacles").cost, with_it.grid(obstacles="obstacles").cost
    )
    assert without.spawns() == with_it.spawns()
    with pytest.raises(FileNotFoundError, match="no such Tiled map"):
        read_tiled(Path("nothing.tmx"))


def test_templates_in_the_other_format_and_their_shapes(tmp_path: Path) -> None:
    (tmp_path / "pond.tx").write_text(
        '<?xml version="1.0"?><template><object name="pond" type="water" width="40" '
        'height="20"><ellipse/></object></template>'
    )
    (tmp_path / "rock.tj").write_text(json.dumps({"type": "template", "object": {
        "name": "rock", "type": "stone", "width": 0, "height": 0,
        "polygon": [{"x": 0, "y": 0}, {"x": 30, "y": 0}, {"x": 15, "y": 20}],
        "properties": [{"name": "heavy", "type": "bool", "value": True}],
    }}))  # fmt: skip
    data = {
        "width": 4, "height": 4, "tilewidth": 32, "tileheight": 32, "orientation": "orthogonal",
        "layers": [{"type": "objectgroup", "name": "o", "objects": [
            {"id": 1, "template": "pond.tx", "x": 10, "y": 10},
            {"id": 2, "template": "rock.tj", "x": 60, "y": 60},
            {"id": 3, "template": "rock.tj", "x": 0, "y": 90, "point": True},
        ]}], "tilesets": [],
    }  # fmt: skip
    (tmp_path / "level.json").write_text(json.dumps(data))
    body = (
        '<objectgroup name="o"><object id="1" template="pond.tx" x="10" y="10"/>'
        '<object id="2" template="rock.tj" x="60" y="60"/>'
        '<object id="3" template="rock.tj" x="0" y="90"><point/></object></objectgroup>'
    )
    tmx = tmx_map(tmp_path, body)
    for path in (tmp_path / "level.json", tmx):
        pond, rock, marker = read_tiled(path).objects
        assert (pond.kind, pond.name, pond.class_, pond.width) == ("ellipse", "pond", "water", 40)
        assert (rock.kind, rock.class_, rock.properties) == ("polygon", "stone", {"heavy": True})
        assert rock.points is not None and rock.points.tolist() == [[60, 60], [90, 60], [75, 80]]
        assert (marker.kind, marker.name) == ("point", "rock")


# ---------------------------------------------------------------- layers above the player


def test_layers_drawn_above_the_player_are_not_read(tmp_path: Path) -> None:
    """A roof of solid tiles drawn above the player's object layer (the player walks
    under it) makes no walls by default; read on purpose (``layers=`` or a later
    ``player_layer``) it does. Group layers count in drawing order too."""
    ground = csv_layer(np.ones((4, 4), int))
    roof_gids = np.zeros((4, 4), int)
    roof_gids[1, :3] = 2  # tile id 1 (gid 2) is solid
    roof = csv_layer(roof_gids, "roof")
    hero = ('<objectgroup name="sprites"><object id="1" name="hero" type="player" x="8" '
            'y="8"><point/></object></objectgroup>')  # fmt: skip
    late = '<objectgroup name="late"/>'
    bodies = (ground + hero + roof + late, ground + hero + f'<group name="g">{roof}</group>')
    for body, reader in itertools.product(bodies, ("pytiled-parser", "pathcraft")):
        path = tmx_map(tmp_path, body)
        level = read_tiled(path) if reader != "pathcraft" else TiledLevel(read_file(path))
        assert [lay.name for lay in level.below_player()] == ["ground"]
        assert level.grid().walkable.all()
        walled = level.grid(layers=["ground", "roof"])
        assert (~walled.walkable).sum() == 3
        if "late" in body:
            np.testing.assert_array_equal(level.grid(player_layer="late").cost, walled.cost)
        with pytest.raises(ValueError, match="not both"):
            level.grid(layers=["ground"], player_layer="sprites")
    # no player anywhere: every tile layer is read, as before
    level = read_tiled(tmx_map(tmp_path, ground + roof + late))
    assert (~level.grid().walkable).sum() == 3
    # a roof below the player is read
    level = read_tiled(tmx_map(tmp_path, ground + roof + hero))
    assert (~level.grid().walkable).sum() == 3
