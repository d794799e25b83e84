"""Tiled levels: the bundled map read by pathcraft checked cell by cell and shape by
shape against the same file parsed independently (xml.etree for .tmx, json for .json),
pytmx maps accepted, and every kind of bad map named with its file and layer."""

from __future__ import annotations

import inspect
import json
import math
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
pytest.importorskip("pytiled_parser")

from pathcraft import NavMesh, WaypointGraph  # noqa: E402
from pathcraft.io.tiled import (  # noqa: E402
    ELLIPSE_CORNERS,
    WALKABLE_PROPERTIES,
    WALL_PROPERTIES,
    bundled_level,
    read_tiled,
)

TMX = bundled_level("tmx")
JSON = bundled_level("json")


# ---------------------------------------------------------------- an independent reader


def tmx_truth(path: Path) -> dict[str, Any]:
    """The map's layers, tile properties and objects, read with xml.etree only."""
    root = ET.parse(path).getroot()
    rows, cols = int(root.get("height")), int(root.get("width"))
    tsx = ET.parse(path.parent / root.find("tileset").get("source")).getroot()
    first = int(root.find("tileset").get("firstgid"))
    props: dict[int, dict[str, Any]] = {}
    for tile in tsx.findall("tile"):
        gid = first + int(tile.get("id"))
        for p in tile.find("properties"):
            value: Any = p.get("value")
            if p.get("type") == "bool":
                value = value == "true"
            elif p.get("type") == "float":
                value = float(value)
            props.setdefault(gid, {})[p.get("name")] = value
    layers = {}
    for layer in root.findall("layer"):
        text = layer.find("data").text
        layers[layer.get("name")] = np.array(
            [int(v) for v in text.replace("\n", "").split(",")]
        ).reshape(rows, cols)
    objects = {}
    for group in root.findall("objectgroup"):
        objects[group.get("name")] = [
            {
                "name": o.get("name"), "class": o.get("type", ""),
                "x": float(o.get("x")), "y": float(o.get("y")),
                "w": float(o.get("width", 0)), "h": float(o.get("height", 0)),
                "kind": ("ellipse" if o.find("ellipse") is not None else
                         "polygon" if o.find("polygon") is not None else
                         "point" if o.find("point") is not None else "rectangle"),
                "points": None if o.find("polygon") is None else [
                    tuple(float(v) for v in pair.split(","))
                    for pair in o.find("polygon").get("points").split()
                ],
            }
            for o in group.findall("object")
        ]  # fmt: skip
    return {"rows": rows, "cols": cols, "tile": int(root.get("tilewidth")), "props": props,
            "layers": layers, "objects": objects}  # fmt: skip


def expected_cost(truth: dict[str, Any]) -> np.ndarray:
    """Walls where a tile says walkable=false or collides=true, else the topmost cost."""
    cost = np.ones((truth["rows"], truth["cols"]))
    wall = np.zeros(cost.shape, dtype=bool)
    for gids in truth["layers"].values():  # in drawing order
        for (r, c), gid in np.ndenumerate(gids):
            if not gid:
                continue
            p = truth["props"].get(int(gid), {})
            if p.get("walkable") is False or p.get("collides") is True:
                wall[r, c] = True
            if "cost" in p:
                cost[r, c] = p["cost"]
    cost[wall] = np.inf
    return cost


def expected_shape(obj: dict[str, Any]) -> Any:
    if obj["kind"] == "rectangle":
        return shapely.box(obj["x"], obj["y"], obj["x"] + obj["w"], obj["y"] + obj["h"])
    if obj["kind"] == "polygon":
        return shapely.Polygon([(obj["x"] + dx, obj["y"] + dy) for dx, dy in obj["points"]])
    centre = shapely.Point(obj["x"] + obj["w"] / 2, obj["y"] + obj["h"] / 2)
    return shapely.affinity.scale(centre.buffer(1.0, 64), obj["w"] / 2, obj["h"] / 2)


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return tmx_truth(TMX)


# ---------------------------------------------------------------- the bundled map


@pytest.mark.parametrize("path", [TMX, JSON], ids=["tmx", "json"])
def test_the_grid_matches_the_map_cell_by_cell(path: Path, truth: dict[str, Any]) -> None:
    level = read_tiled(path)
    assert level.shape == (truth["rows"], truth["cols"])
    assert level.tile_size == (truth["tile"], truth["tile"])
    np.testing.assert_array_equal(level.grid().cost, expected_cost(truth))
    for name, gids in truth["layers"].items():
        np.testing.assert_array_equal(level.tile_layer(name).gids, gids)


def test_the_json_map_has_the_same_tiles_as_the_tmx_map() -> None:
    raw = json.loads(JSON.read_text())
    tmx = read_tiled(TMX)
    for layer in raw["layers"]:
        if layer["type"] == "tilelayer":
            gids = np.array(layer["data"]).reshape(layer["height"], layer["width"])
            np.testing.assert_array_equal(tmx.tile_layer(layer["name"]).gids, gids)


@pytest.mark.parametrize("path", [TMX, JSON], ids=["tmx", "json"])
def test_obstacles_match_the_map_shape_by_shape(path: Path, truth: dict[str, Any]) -> None:
    shapes = read_tiled(path).obstacles("obstacles")
    objs = truth["objects"]["obstacles"]
    assert len(shapes) == len(objs)
    for shape, obj in zip(shapes, objs, strict=True):
        want = expected_shape(obj)
        if obj["kind"] == "ellipse":  # a 32-gon inscribed in the ellipse
            assert len(shape.exterior.coords) == ELLIPSE_CORNERS + 1
            assert want.contains(shape) or want.buffer(1e-9).contains(shape)
            assert shape.area == pytest.approx(want.area, rel=0.01)
            np.testing.assert_allclose(shape.bounds, want.bounds, atol=1e-9)
        else:
            assert shape.equals_exact(want, 1e-9) or shape.equals(want)


@pytest.mark.parametrize("path", [TMX, JSON], ids=["tmx", "json"])
def test_waypoints_and_spawns_match_the_points_of_the_map(
    path: Path, truth: dict[str, Any]
) -> None:
    level = read_tiled(path)
    points = truth["objects"]["markers"]
    want = [(o["x"], o["y"]) for o in points if o["name"] == "waypoint"]
    np.testing.assert_array_equal(level.waypoints(), np.array(want))
    spawns: dict[str, list[tuple[float, float]]] = {}
    for o in points:
        if o["class"] == "spawn":
            spawns.setdefault(o["name"], []).append((o["x"], o["y"]))
    assert level.spawns() == spawns


def test_obstacle_layers_make_walls_of_the_cells_whose_centres_they_cover(
    truth: dict[str, Any],
) -> None:
    level = read_tiled(TMX)
    with_objects = level.grid(obstacles="obstacles", cover="center")
    base = expected_cost(truth)
    shapes = [expected_shape(o) for o in truth["objects"]["obstacles"]]
    for (r, c), cost in np.ndenumerate(with_objects.cost):
        centre = ((c + 0.5) * 16, (r + 0.5) * 16)
        covered = any(s.contains(shapely.Point(centre)) for s in shapes)
        assert cost == (np.inf if covered else base[r, c]), (r, c)


def test_collision_layer_and_named_properties() -> None:
    level = read_tiled(TMX)
    walls = level.tile_layer("walls").gids != 0
    only_ground = level.grid(collision_layer="walls")
    np.testing.assert_array_equal(~only_ground.walkable, walls)
    assert only_ground.cost[12, 23] == 3.0  # mud, read from the ground layer
    by_name = level.grid(wall_property="collides", walkable_property="walkable")
    np.testing.assert_array_equal(by_name.cost, level.grid().cost)
    water_only = level.grid(wall_property="collides", walkable_property=[])
    np.testing.assert_array_equal(~water_only.walkable, level.tile_layer("walls").gids == 4)
    no_costs = level.grid(layers=["walls"], empty="floor")
    assert set(np.unique(no_costs.cost).tolist()) == {1.0, math.inf}
    closed = level.grid(layers=["walls"], empty="wall")
    assert not closed.walkable.any()
    assert "collides" in WALL_PROPERTIES and "walkable" in WALKABLE_PROPERTIES


def test_layer_properties_apply_to_every_tile_of_the_layer() -> None:
    level = read_tiled(TMX)
    layer = level.tile_layer("walls")
    layer.properties["cost"] = 7.0
    try:
        grid = level.grid(layers=["walls"], wall_property=[], walkable_property=[])
    finally:
        del layer.properties["cost"]
    np.testing.assert_array_equal(grid.cost == 7.0, layer.gids != 0)


# ---------------------------------------------------------------- the level in use


def test_navmesh_and_waypoint_graph_from_the_level_find_paths_inside_it() -> None:
    level = read_tiled(TMX)
    area = level.walkable_area("obstacles")
    mesh = NavMesh.from_geometry(area)
    start, goal = level.spawns()["player"][0], level.spawns()["enemy"][0]
    params = inspect.signature(NavMesh.find_path).parameters  # mode= until issue 14 lands
    result = mesh.find_path(
        start, goal, **{"algorithm" if "algorithm" in params else "mode": "optimal"}
    )
    assert result
    line = shapely.LineString(result.path)
    assert area.buffer(1e-6).contains(line)
    rows, cols = level.shape
    blocked = shapely.box(0, 0, cols * 16, rows * 16).difference(area)  # the same space
    # The map's waypoints plus every corner of the space: a visibility graph, whose
    # shortest path is the Euclidean optimum the mesh found.
    corners = np.unique(shapely.get_coordinates(area.boundary), axis=0)
    graph = WaypointGraph(np.vstack((level.waypoints(), corners)), [blocked])
    route = graph.find_path(start, goal)
    assert route.cost == pytest.approx(result.cost, rel=1e-9)
    assert area.buffer(1e-6).contains(shapely.LineString(route.path))


def test_object_layers_can_be_the_walkable_area() -> None:
    level = read_tiled(TMX)
    area = level.walkable_area(area_layers="obstacles")  # the three shapes as floor
    want = shapely.union_all([expected_shape(o) for o in tmx_truth(TMX)["objects"]["obstacles"]])
    assert area.symmetric_difference(want).area < 0.01 * want.area  # the ellipse's 32-gon
    less = level.walkable_area("obstacles", area_layers="obstacles")
    assert less.is_empty
    with pytest.raises(ValueError, match="give area_layers or grid options, not both"):
        level.walkable_area(area_layers="obstacles", empty="wall")


# ---------------------------------------------------------------- pytmx and duck types


def test_a_pytmx_map_reads_the_same_as_the_file() -> None:
    pytmx = pytest.importorskip("pytmx")
    tmx = pytmx.TiledMap(str(TMX))
    ours, theirs = read_tiled(TMX), read_tiled(tmx)
    np.testing.assert_array_equal(theirs.grid().cost, ours.grid().cost)
    np.testing.assert_array_equal(theirs.waypoints(), ours.waypoints())
    assert theirs.spawns() == ours.spawns()
    for a, b in zip(
        theirs.obstacles("obstacles")[:2], ours.obstacles("obstacles")[:2], strict=True
    ):
        assert a.equals(b)


def test_a_pytmx_map_of_tiled_1_9_reads_object_classes(tmp_path: Path) -> None:
    pytmx = pytest.importorskip("pytmx")
    path = copy_level(tmp_path, lambda t: t.replace('type="spawn"', 'class="spawn"'))
    assert read_tiled(pytmx.TiledMap(str(path))).spawns() == read_tiled(TMX).spawns()
    assert read_tiled(path).spawns() == read_tiled(TMX).spawns()


def fake_pytmx(orientation: str = "orthogonal") -> Any:
    """The shape of a pytmx map, for the checks that need no pytmx."""
    layer = SimpleNamespace(name="ground", data=[[1, 2], [0, 1]], properties={})
    wall = SimpleNamespace(name="crate", type=None, x=0.0, y=0.0, width=8.0, height=8.0,
                           rotation=0, gid=0, properties={})  # fmt: skip
    spawn = SimpleNamespace(name="player", type="spawn", x=20.0, y=4.0, width=0, height=0,
                            rotation=0, gid=0, properties={})  # fmt: skip

    class Group(list):  # type: ignore[type-arg]
        name = "things"

    tileset = SimpleNamespace(tilewidth=16, tileheight=16, name="t")
    return SimpleNamespace(
        width=2, height=2, tilewidth=16, tileheight=16, orientation=orientation,
        layers=[layer, Group([wall, spawn])], filename="fake.tmx",
        get_tile_properties_by_gid=lambda gid: {"solid": True} if gid == 2 else {},
        get_tileset_from_gid=lambda gid: tileset,
    )  # fmt: skip


def test_a_duck_typed_pytmx_map() -> None:
    level = read_tiled(fake_pytmx())
    assert level.grid().cost.tolist() == [[1.0, math.inf], [1.0, 1.0]]
    assert level.spawns() == {"player": [(20.0, 4.0)]}
    assert level.obstacles()[0].equals(shapely.box(0, 0, 8, 8))


# ---------------------------------------------------------------- bad maps


def copy_level(tmp_path: Path, edit: Any = None, name: str = "dungeon.tmx") -> Path:
    for f in TMX.parent.glob("dungeon.*"):
        shutil.copy(f, tmp_path / f.name)
    target = tmp_path / name
    if edit is not None:
        target.write_text(edit(target.read_text()))
    return target


@pytest.mark.parametrize("orientation", ["isometric", "hexagonal", "staggered"])
def test_an_unknown_orientation_names_the_file_and_what_is_read(
    tmp_path: Path, orientation: str
) -> None:
    path = copy_level(tmp_path, lambda t: t.replace('"orthogonal"', f'"{orientation}"'))
    with pytest.raises(ValueError, match=rf"dungeon\.tmx: map orientation '{orientation}' is "
                       r"not supported; expected 'orthogonal'"):  # fmt: skip
        read_tiled(path)
    with pytest.raises(ValueError, match=r"fake\.tmx: map orientation 'isometric'"):
        read_tiled(fake_pytmx("isometric"))


def test_a_truncated_map_names_the_file(tmp_path: Path) -> None:
    path = copy_level(tmp_path, lambda t: t[: len(t) // 2])
    with pytest.raises(ValueError, match=r"dungeon\.tmx: not a readable Tiled map"):
        read_tiled(path)
    path = copy_level(tmp_path, lambda t: t[: len(t) // 3], name="dungeon.json")
    with pytest.raises(ValueError, match=r"dungeon\.json: not a readable Tiled map"):
        read_tiled(path)
    with pytest.raises(FileNotFoundError, match="no such Tiled map"):
        read_tiled(tmp_path / "nothing.tmx")


def test_missing_layers_and_properties_name_the_file_and_the_names_there_are() -> None:
    level = read_tiled(TMX)
    with pytest.raises(ValueError, match=r"dungeon\.tmx: no tile layer 'roof'; the tile "
                       r"layers are \['ground', 'walls'\]"):  # fmt: skip
        level.grid(layers=["ground", "roof"])
    with pytest.raises(ValueError, match=r"no object layer 'enemies'; the object layers are "
                       r"\['obstacles', 'markers'\]"):  # fmt: skip
        level.obstacles("enemies")
    with pytest.raises(
        ValueError,
        match=r"wall_property 'solid' is not a property of any tile "
        r"or tile layer; the properties are \['collides', 'cost', 'walkable'\]",
    ):
        level.grid(wall_property="solid")
    with pytest.raises(ValueError, match="cost_property 'speed' is not a property"):
        level.grid(cost_property="speed")
    with pytest.raises(ValueError, match="empty must be 'floor' or 'wall'"):
        level.grid(empty="void")  # type: ignore[arg-type]


def test_inconsistent_tile_sizes_name_the_layer_and_the_sizes(tmp_path: Path) -> None:
    path = copy_level(tmp_path)
    tsx = tmp_path / "dungeon.tsx"
    tsx.write_text(tsx.read_text().replace('tilewidth="16" tileheight="16"',
                                           'tilewidth="32" tileheight="32"'))  # fmt: skip
    with pytest.raises(ValueError, match=r"dungeon\.tmx: tile layer 'ground' uses tileset "
                       r"'dungeon' of 32x32 px tiles on a map of 16x16 px tiles"):  # fmt: skip
        read_tiled(path).grid()


def test_a_bad_cost_names_the_layer_and_the_tile(tmp_path: Path) -> None:
    path = copy_level(tmp_path)
    tsx = tmp_path / "dungeon.tsx"
    tsx.write_text(tsx.read_text().replace('type="float" value="3"', 'type="float" value="-2"'))
    with pytest.raises(
        ValueError,
        match=r"tile layer 'ground': tile gid 2 \(tileset "
        r"'dungeon'\) has cost = -2.0; expected a finite number > 0",
    ):
        read_tiled(path).grid()


def test_not_a_map() -> None:
    with pytest.raises(TypeError, match=r"source must be a \.tmx or \.json path"):
        read_tiled(42)
