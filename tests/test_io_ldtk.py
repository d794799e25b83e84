"""LDtk levels: real projects from game repositories (tests/data/ldtk_corpus) and the
bundled one read by pathcraft, checked level by level against the same files read
independently (plain json and NumPy), paths on their grids checked against
scipy.sparse.csgraph, and every kind of bad project named with its file, level and
layer."""

from __future__ import annotations

import json
import shutil
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import assert_answer, oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.io import bundled_ldtk, read_ldtk
from pathcraft.io.ldtk import MAX_CELLS

CORPUS = Path(__file__).parent / "data" / "ldtk_corpus"
PROJECTS = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.ldtk"))


# ---------------------------------------------------------------- an independent reader


def truth_levels(path: Path) -> list[dict[str, Any]]:
    """Every level of a project as the file says it, with its layers read from the
    project or from its external file."""
    project = json.loads(path.read_text(encoding="utf-8"))
    levels = project["levels"] or [lv for w in project.get("worlds", []) for lv in w["levels"]]
    out = []
    for level in levels:
        if level.get("layerInstances") is None:
            external = json.loads((path.parent / level["externalRelPath"]).read_text())
            level = {**level, "layerInstances": external["layerInstances"]}
        out.append(level)
    return out


def truth_defs(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))["defs"]


def truth_values(layer: dict[str, Any], defs: dict[str, Any]) -> np.ndarray:
    """An IntGrid layer's values: the CSV, or (before LDtk 0.8) the sparse list whose
    ``v`` is the 0-based index of the value in the layer's definition."""
    rows, cols = layer["__cHei"], layer["__cWid"]
    if layer.get("intGridCsv"):
        return np.array(layer["intGridCsv"]).reshape(rows, cols)
    (spec,) = [d for d in defs["layers"] if d["uid"] == layer["layerDefUid"]]
    values = [d.get("value", i + 1) for i, d in enumerate(spec["intGridValues"])]
    flat = np.zeros(rows * cols, dtype=int)
    for entry in layer["intGrid"]:
        flat[entry["coordId"]] = values[entry["v"]]
    return flat.reshape(rows, cols)


def truth_centres(layer: dict[str, Any], defs: dict[str, Any]) -> list[tuple[str, float, float]]:
    out = []
    for e in layer["entityInstances"]:
        (spec,) = [d for d in defs["entities"] if d["identifier"] == e["__identifier"]]
        w, h = e.get("width", spec["width"]), e.get("height", spec["height"])
        px, py = e.get("__pivot", [spec["pivotX"], spec["pivotY"]])
        x = e["px"][0] + layer["__pxTotalOffsetX"] + (0.5 - px) * w
        y = e["px"][1] + layer["__pxTotalOffsetY"] + (0.5 - py) * h
        out.append((e["__identifier"], x, y))
    return out


def corpus_levels() -> list[tuple[str, int]]:
    return [(name, i) for name in PROJECTS for i in range(len(truth_levels(CORPUS / name)))]


# ---------------------------------------------------------------- the corpus


def test_the_corpus_is_several_repositories_and_versions() -> None:
    readme = (CORPUS / "README.md").read_text()
    versions = {json.loads((CORPUS / n).read_text())["jsonVersion"] for n in PROJECTS}
    assert len(PROJECTS) >= 3 and len(versions) >= 3, versions
    for name in PROJECTS:
        assert Path(name).name in readme


@pytest.mark.parametrize(("name", "index"), corpus_levels())
def test_corpus_levels_read_as_the_file_says(name: str, index: int) -> None:
    path = CORPUS / name
    raw, defs = truth_levels(path)[index], truth_defs(path)
    level = read_ldtk(path, index)
    assert level.identifier == raw["identifier"]
    assert read_ldtk(path, raw["identifier"]).identifier == raw["identifier"]
    assert level.layer_names == [lay["__identifier"] for lay in raw["layerInstances"]]
    grids = [lay for lay in raw["layerInstances"] if lay["__type"] == "IntGrid"]
    walls = np.zeros(level.shape, dtype=bool)
    for layer in grids:
        want = truth_values(layer, defs)
        np.testing.assert_array_equal(level.values(layer["__identifier"]), want)
        walls |= want != 0
    if grids:
        size = grids[0]["__gridSize"]
        assert level.tile_size == (size, size)
        assert level.shape == (grids[0]["__cHei"], grids[0]["__cWid"])
        # the default rule: every value is a wall
        np.testing.assert_array_equal(~level.grid().walkable, walls)
        np.testing.assert_array_equal(~level.grid(empty="wall").walkable, np.ones_like(walls))
    want_entities = [
        t for lay in raw["layerInstances"] if lay["__type"] == "Entities"
        for t in truth_centres(lay, defs)
    ]  # fmt: skip
    got = [(e.identifier, e.x, e.y) for e in level.entities()]
    assert got == want_entities
    for e in level.entities():
        assert e.cell == level.coords.cell((e.x, e.y)) or not (
            0 <= e.cell[0] < level.shape[0] and 0 <= e.cell[1] < level.shape[1]
        )
    linear = json.loads(path.read_text())["worldLayout"] in ("LinearHorizontal", "LinearVertical")
    assert level.world_position == (None if linear else (raw["worldX"], raw["worldY"]))


def _far_pair(cost: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A start on the first open cell and the open cell farthest from it (by the oracle)."""
    open_cells = np.argwhere(np.isfinite(cost))
    if len(open_cells) < 2:
        return None
    start = tuple(int(v) for v in open_cells[0])
    dist = oracle(cost, "no_corner_cut", [start])
    reach = np.where(np.isfinite(dist), dist, -1.0)
    goal = tuple(int(v) for v in np.unravel_index(np.argmax(reach), cost.shape))
    return start, goal  # type: ignore[return-value]


@pytest.mark.parametrize(("name", "index"), corpus_levels())
def test_corpus_paths_match_the_csgraph_oracle(name: str, index: int) -> None:
    level = read_ldtk(CORPUS / name, index)
    if not level.data.int_grids:
        pytest.skip("no IntGrid layer")
    grid = level.grid(walls=list(level.value_names(level.data.int_grids[0].name))[:1])
    cost = np.where(grid.walkable, 1.0, np.inf)
    np.testing.assert_array_equal(grid.cost, cost)
    pair = _far_pair(cost)
    assert pair is not None
    start, goal = pair
    want = oracle(cost, "no_corner_cut", [start])[goal]
    assert_answer(cost, "no_corner_cut", grid.find_path(start, goal), start, goal, want)
    # in pixels: the same search through the level's coordinates
    px = level.coords.find_path(grid, level.coords.pixel(start), level.coords.pixel(goal))
    assert px.found and len(px.path) >= 1


def test_terrain_values_become_costs() -> None:
    """LDtkLoader's level: grass, dirt and water in one IntGrid layer."""
    path = CORPUS / "ldtkloader_sfml_1.2.5.ldtk"
    for index, raw in enumerate(truth_levels(path)):
        level = read_ldtk(path, index)
        assert level.value_names("IntLayer") == {1: "grass", 2: "dirt", 3: "water"}
        (layer,) = [lay for lay in raw["layerInstances"] if lay["__type"] == "IntGrid"]
        values = truth_values(layer, truth_defs(path))
        want = np.select([values == 3, values == 2], [np.inf, 2.5], 1.0)
        by_name = level.grid(walls="water", costs={"dirt": 2.5})
        by_number = level.grid(costs={1: 1, 2: 2.5})  # water, not named, is a wall
        np.testing.assert_array_equal(by_name.cost, want)
        np.testing.assert_array_equal(by_number.cost, want)
        pair = _far_pair(want)
        if pair is None:
            continue
        start, goal = pair
        dist = oracle(want, "never", [start])[goal]
        four = level.grid(walls="water", costs={"dirt": 2.5}, diagonal="never")
        assert_answer(want, "never", four.find_path(start, goal), start, goal, dist)


def test_level_three_is_wider_than_its_pixels() -> None:
    # 300 px on a 16 px grid: 19 cells, the last partly outside the level.
    level = read_ldtk(CORPUS / "ldtkloader_sfml_1.2.5.ldtk", "Level3")
    assert level.shape == (32, 19)
    assert level.world_coords.pixel((0, 0)) == (256 + 8, 192 + 8)


def test_old_sparse_intgrid_and_entity_defaults() -> None:
    """LDtk 0.6.1: values as ``{coordId, v}`` and entities without size or pivot."""
    path = CORPUS / "ldtkgo_example_0.6.1.ldtk"
    level = read_ldtk(path)
    assert level.data.json_version == "0.6.1"
    assert level.value_names("IntGrid") == {1: "Ground", 2: "Pillars"}
    (player,) = level.entities(identifier="Player")
    # defined 32 x 16 with pivot (0, 0), placed at px (16, 128)
    assert (player.x, player.y, player.width, player.height) == (32.0, 136.0, 32.0, 16.0)
    assert player.bounds == (16.0, 128.0, 48.0, 144.0)
    assert player.fields["Health"] == 40


def test_world_positions_of_a_gridvania_world() -> None:
    path = CORPUS / "collectathon.ldtk"
    for raw in truth_levels(path):
        level = read_ldtk(path, raw["identifier"])
        assert level.world_position == (raw["worldX"], raw["worldY"])
        x, y = level.world_coords.pixel((0, 0), anchor="top_left")
        assert (x, y) == (raw["worldX"], raw["worldY"])
    level = read_ldtk(path, "Level_0")
    assert sorted(level.spawns()) == ["Coin", "Player"]
    assert level.spawns(identifier="Player") == {"Player": [level.spawns()["Player"][0]]}


def test_external_levels_are_read_from_the_project_folder() -> None:
    path = CORPUS / "separate_levels" / "SeparateLevelFiles.ldtk"
    level = read_ldtk(path, -1)
    assert level.identifier == "World_Level_2" and level.levels[0] == "World_Level_0"
    with pytest.raises(ValueError, match="no world position"):
        _ = level.world_coords


# ---------------------------------------------------------------- the bundled project


def test_the_bundled_project_is_the_bundled_tiled_level() -> None:
    pytest.importorskip("pytiled_parser")
    from pathcraft.io import bundled_level, read_tiled

    tiled, ldtk = read_tiled(bundled_level()), read_ldtk(bundled_ldtk())
    np.testing.assert_array_equal(tiled.grid().cost, ldtk.grid(costs={"mud": 3}).cost)
    assert ldtk.spawns(tag="spawn") == {
        {"player": "Player", "enemy": "Enemy"}[k]: v for k, v in tiled.spawns().items()
    }
    np.testing.assert_array_equal(tiled.waypoints(), ldtk.waypoints())


def test_selection_by_identifier_tag_fields_and_predicate() -> None:
    level = read_ldtk(bundled_ldtk())
    assert [e.identifier for e in level.entities(tag=["spawn"])] == ["Player", "Enemy", "Enemy"]
    assert level.entities(identifier="Enemy", fields={"kind": "rat"})[0].cell == (3, 18)
    assert [e.identifier for e in level.entities(where=lambda e: e.x < 100)] == ["Player"]
    assert level.spawns(identifier="Waypoint", where=lambda e: e.y > 200) == {
        "Waypoint": [(200.0, 280.0)]
    }
    assert level.entities("Markers") == level.entities()
    assert level.waypoints(name="WAYPOINT").shape == (4, 2)
    assert level.waypoints(name="spawn").shape == (3, 2)  # by tag
    rat = level.entities(fields={"kind": "rat"})[0]
    assert rat.points("patrol").shape == (0, 2)
    with pytest.raises(ValueError, match="no field 'route'"):
        rat.points("route")
    with pytest.raises(ValueError, match="does not hold points"):
        rat.points("kind")
    for kwargs, message in [
        ({"tag": "boss"}, "no entity tag 'boss'"),
        ({"fields": {"colour": 1}}, "no entity field 'colour'"),
        ({"identifier": ["Player", "Ghost"]}, "no entity identifier 'Ghost'"),
    ]:
        with pytest.raises(ValueError, match=message):
            level.entities(**kwargs)
    with pytest.raises(ValueError, match="no entity layer 'Things'; the entity layers are"):
        level.entities("Things")
    with pytest.raises(TypeError, match="fields must be a mapping"):
        level.entities(fields=["kind"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="where must be a callable"):
        level.entities(where=3)  # type: ignore[arg-type]


def test_grid_rules_and_their_errors() -> None:
    level = read_ldtk(bundled_ldtk())
    values = level.values("Collisions")
    np.testing.assert_array_equal(level.grid().walkable, values == 0)
    np.testing.assert_array_equal(level.grid(walls=[1, "water"]).walkable, values % 3 == 0)
    g = level.grid(costs={"mud": 3, "water": np.inf})
    np.testing.assert_array_equal(g.cost, np.select([values == 3, values != 0], [3, np.inf], 1))
    cases = [
        ({"walls": "wall", "costs": {"wall": 2}}, "both in walls and in costs"),
        ({"costs": {"mud": 0}}, r"costs\['mud'\] must be a cost > 0"),
        ({"costs": {"mud": "x"}}, r"costs\['mud'\] must be a cost > 0"),
        ({"costs": {9: 2}}, "no value 9 in IntGrid layers"),
        ({"walls": "lava"}, "no value 'lava'"),
        ({"layers": "Walls"}, "no IntGrid layer 'Walls'"),
        ({"layers": []}, "no IntGrid layer to read"),
        ({"empty": "void"}, "empty must be 'floor' or 'wall'"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            level.grid(**kwargs)
    for kwargs in ({"walls": [True]}, {"costs": [1, 2]}, {"walls": [1.5]}):
        with pytest.raises(TypeError):
            level.grid(**kwargs)


# ---------------------------------------------------------------- hypothesis: the rule


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.integers(0, 3), min_size=12, max_size=12),
    priced=st.dictionaries(st.sampled_from([1, 2, 3]), st.floats(0.5, 9), max_size=3),
    named=st.booleans(),
)
def test_the_grid_rule_holds_for_any_layer(
    tmp_path_factory: pytest.TempPathFactory, values: list[int], priced: dict[int, float],
    named: bool,
) -> None:  # fmt: skip
    path = tmp_path_factory.mktemp("ldtk") / "p.ldtk"
    project = _tiny_project(values)
    path.write_text(json.dumps(project))
    level = read_ldtk(path)
    names = {1: "a", 2: "b", 3: "c"}
    costs = {(names[k] if named else k): c for k, c in priced.items()}
    arr = np.array(values).reshape(3, 4)
    want = np.ones((3, 4))
    for v in (1, 2, 3):
        want[arr == v] = priced.get(v, np.inf)
    np.testing.assert_array_equal(level.grid(costs=costs).cost, want)


def _tiny_project(values: list[int], rows: int = 3, cols: int = 4) -> dict[str, Any]:
    return {
        "jsonVersion": "1.5.3",
        "worldLayout": "Free",
        "defaultGridSize": 8,
        "defs": {
            "layers": [{"uid": 1, "identifier": "Ground", "type": "IntGrid", "gridSize": 8,
                        "intGridValues": [{"value": v, "identifier": n}
                                          for v, n in ((1, "a"), (2, "b"), (3, "c"))]}],
            "entities": [{"identifier": "Hero", "uid": 2, "tags": [], "width": 8,
                          "height": 8, "pivotX": 0, "pivotY": 0, "fieldDefs": []}],
        },
        "levels": [{
            "identifier": "L", "iid": "x", "worldX": 8, "worldY": 16,
            "pxWid": cols * 8, "pxHei": rows * 8, "fieldInstances": [],
            "layerInstances": [
                {"__identifier": "Things", "__type": "Entities", "__cWid": cols,
                 "__cHei": rows, "__gridSize": 8, "__pxTotalOffsetX": 0,
                 "__pxTotalOffsetY": 0, "layerDefUid": 2, "intGridCsv": [],
                 "entityInstances": [{"__identifier": "Hero", "px": [8, 0],
                                      "fieldInstances": []}]},
                {"__identifier": "Ground", "__type": "IntGrid", "__cWid": cols,
                 "__cHei": rows, "__gridSize": 8, "__pxTotalOffsetX": 0,
                 "__pxTotalOffsetY": 0, "layerDefUid": 1, "intGridCsv": values,
                 "entityInstances": []},
            ],
        }],
    }  # fmt: skip


# ---------------------------------------------------------------- bad projects


def _write(tmp_path: Path, project: Any, name: str = "bad.ldtk") -> Path:
    path = tmp_path / name
    path.write_text(project if isinstance(project, str) else json.dumps(project, indent=1))
    return path


def _ground(project: dict[str, Any]) -> dict[str, Any]:
    layer: dict[str, Any] = project["levels"][0]["layerInstances"][1]
    return layer


def test_a_tiny_project_reads(tmp_path: Path) -> None:
    level = read_ldtk(_write(tmp_path, _tiny_project([0, 1, 2, 3] * 3)))
    assert level.values("Ground").tolist() == [[0, 1, 2, 3]] * 3
    (hero,) = level.entities()
    assert (hero.x, hero.y, hero.cell) == (12.0, 4.0, (0, 1))
    assert level.world_coords.pixel((0, 0), anchor="top_left") == (8.0, 16.0)


def _hero(project: dict[str, Any]) -> dict[str, Any]:
    hero: dict[str, Any] = project["levels"][0]["layerInstances"][0]["entityInstances"][0]
    return hero


def _csv(last: Any) -> Any:
    return lambda p: _ground(p).update(intGridCsv=[0] * 11 + [last])


def _sparse(*entries: dict[str, int]) -> Any:
    return lambda p: _ground(p).update(intGridCsv=[], intGrid=list(entries))


BAD_PROJECTS = [
    (
        lambda p: _ground(p).update(intGridCsv=[0] * 11),
        r"'intGridCsv' holds 11 values; expected __cWid x __cHei = 4 x 3 = 12",
    ),
    (_csv(7), r"IntGrid value 7 at cell \(row, col\) \(2, 3\) is not one the layer defines"),
    (_csv(7), r"defines \(1 'a', 2 'b', 3 'c'\)"),
    (_csv(-1), "IntGrid value -1"),
    (_csv(2**70), "IntGrid value 1180591620717411303424"),
    (_csv("1"), r"'intGridCsv' value '1' at cell \(2, 3\) is not an integer"),
    (_csv(1.5), "is not an integer"),
    (lambda p: _ground(p).update(__cWid=0), r"'__cWid' must be an integer from 1 to 2\*\*31 - 1"),
    (lambda p: _ground(p).update(__cWid="4"), r"'__cWid' must be int; got '4'"),
    (lambda p: _ground(p).update(__cWid=True), r"'__cWid' must be int; got True"),
    (lambda p: _ground(p).pop("__gridSize"), "missing '__gridSize'"),
    (_sparse({"coordId": 99, "v": 0}), r"coordId must be a cell 0\.\.11"),
    (_sparse({"coordId": 1, "v": 3}), r"v must index the layer's values 0\.\.2"),
    (lambda p: _ground(p).update(intGridCsv=[]), "without 'intGridCsv' or 'intGrid' data"),
    (lambda p: p["defs"]["layers"].clear(), "no layer definition for this layer"),
    (
        lambda p: p["defs"]["layers"][0]["intGridValues"].append({"value": 0}),
        "must have an integer value > 0",
    ),
    (lambda p: _hero(p).pop("px"), "entity 'Hero': missing 'px'"),
    (lambda p: _hero(p).update(px=[1]), "entity 'Hero': 'px' must be two finite numbers"),
    (lambda p: _hero(p).update(__tags="boss"), "'__tags' must be a list of strings"),
    (
        lambda p: p["levels"][0].update(layerInstances={}),
        "'layerInstances' must be a list of layers",
    ),
    (lambda p: p["levels"][0].update(pxWid=-3), "'pxWid' must be an integer from 1"),
    (lambda p: p["levels"][0].update(worldX="far"), r"'worldX' must be int/float; got 'far'"),
    (lambda p: p["levels"].clear(), "the project has no levels"),
    (lambda p: p.pop("defs"), "not an LDtk project: no 'defs' at the top"),
]


@pytest.mark.parametrize(("edit", "message"), BAD_PROJECTS)
def test_bad_projects_name_the_file_level_layer_and_value(
    tmp_path: Path, edit: Any, message: str
) -> None:
    project = _tiny_project([0, 1, 2, 3] * 3)
    edit(project)
    path = _write(tmp_path, project)
    with pytest.raises(ValueError, match=message) as info:
        read_ldtk(path)
    text = str(info.value)
    assert text.startswith(str(path)), text
    if any(w in message for w in ("IntGrid", "intGrid", "__c", "__grid", "layer definition")):
        assert "level 'L'" in text and "layer 'Ground'" in text, text


def test_bad_json_gives_its_line(tmp_path: Path) -> None:
    good = json.dumps(_tiny_project([0] * 12), indent=1)
    broken = good.replace('"pxHei": 24,', '"pxHei": 24')  # a missing comma
    line = broken[: broken.index('"pxHei": 24')].count("\n") + 2
    with pytest.raises(ValueError, match=rf"bad.ldtk: not valid JSON .*\(line {line}, column"):
        read_ldtk(_write(tmp_path, broken))
    with pytest.raises(ValueError, match=r"not valid JSON .*\(line \d+, column \d+\)"):
        read_ldtk(_write(tmp_path, good[: len(good) // 2]))
    with pytest.raises(ValueError, match="NaN is not a JSON number"):
        read_ldtk(_write(tmp_path, good.replace('"worldX": 8', '"worldX": NaN')))
    with pytest.raises(ValueError, match="not valid JSON"):
        read_ldtk(_write(tmp_path, "[" * 100_000))
    (tmp_path / "bin.ldtk").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match=r"bin\.ldtk: not an LDtk file"):
        read_ldtk(tmp_path / "bin.ldtk")
    with pytest.raises(ValueError, match=r"open its \.ldtk project"):
        read_ldtk(_write(tmp_path, {"identifier": "L", "layerInstances": []}))
    with pytest.raises(FileNotFoundError, match="no such LDtk project"):
        read_ldtk(tmp_path / "none.ldtk")


def test_missing_levels_are_named(tmp_path: Path) -> None:
    path = _write(tmp_path, _tiny_project([0] * 12))
    with pytest.raises(ValueError, match=r"bad.ldtk: no level 'M'; the levels are \['L'\]"):
        read_ldtk(path, "M")
    with pytest.raises(ValueError, match=r"no level 1: the project has 1 levels \['L'\]"):
        read_ldtk(path, 1)
    assert read_ldtk(path, "x").identifier == "L"  # by iid
    for bad in (True, 1.0, None):
        with pytest.raises(TypeError, match="level must be an index"):
            read_ldtk(path, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"path must be a \.ldtk file path"):
        read_ldtk(3)  # type: ignore[arg-type]


def test_a_multi_world_project_lists_every_world_s_levels(tmp_path: Path) -> None:
    project = _tiny_project([0] * 12)
    second = json.loads(json.dumps(project["levels"][0]))
    second.update(identifier="M", iid="y")
    project["worlds"] = [
        {"identifier": "W1", "levels": project["levels"]},
        {"identifier": "W2", "levels": [second]},
    ]
    project["levels"] = []
    level = read_ldtk(_write(tmp_path, project), "M")
    assert level.levels == ["L", "M"] and level.data.world == "W2"


def test_layers_of_another_size_or_offset_are_refused_by_name(tmp_path: Path) -> None:
    project = _tiny_project([0] * 12)
    fine = _ground(project)
    project["levels"][0]["layerInstances"].append(
        {**fine, "__identifier": "Fine", "__gridSize": 4, "__cWid": 8, "__cHei": 6,
         "intGridCsv": [0] * 48}
    )  # fmt: skip
    project["defs"]["layers"].append({**project["defs"]["layers"][0], "uid": 3})
    project["levels"][0]["layerInstances"][-1]["layerDefUid"] = 3
    level = read_ldtk(_write(tmp_path, project))
    with pytest.raises(ValueError, match="IntGrid layer 'Fine' has 6x8 cells of 4 px; the level"):
        level.grid()
    assert level.grid(layers="Ground").shape == (3, 4)
    _ground(project)["__pxTotalOffsetX"] = 4
    with pytest.raises(ValueError, match="'Ground' is drawn at an offset"):
        read_ldtk(_write(tmp_path, project)).grid(layers="Ground")


def test_external_level_files_outside_the_folder_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    shutil.copytree(CORPUS / "separate_levels", folder)
    project = json.loads((folder / "SeparateLevelFiles.ldtk").read_text())
    secret = tmp_path / "secret.ldtkl"
    shutil.copy(folder / "SeparateLevelFiles" / "World_Level_0.ldtkl", secret)
    for rel in ("../secret.ldtkl", str(secret), "SeparateLevelFiles/../../secret.ldtkl"):
        project["levels"][0]["externalRelPath"] = rel
        path = _write(folder, project, "p.ldtk")
        with pytest.raises(ValueError, match="outside the project's folder") as info:
            read_ldtk(path)
        assert str(path) in str(info.value) and "level 'World_Level_0'" in str(info.value)
    (folder / "link.ldtkl").symlink_to(secret)
    project["levels"][0]["externalRelPath"] = "link.ldtkl"
    with pytest.raises(ValueError, match="outside the project's folder"):
        read_ldtk(_write(folder, project, "p.ldtk"))
    for odd, message in [("a\x00b", "is not a file name"), ("x" * 300, "cannot be read")]:
        project["levels"][0]["externalRelPath"] = odd
        with pytest.raises(ValueError, match=message):
            read_ldtk(_write(folder, project, "p.ldtk"))
    project["levels"][0]["externalRelPath"] = "SeparateLevelFiles/gone.ldtkl"
    with pytest.raises(ValueError, match=r"external level file .*gone\.ldtkl' not found"):
        read_ldtk(_write(folder, project, "p.ldtk"))
    (folder / "SeparateLevelFiles" / "World_Level_1.ldtkl").write_text("{")
    with pytest.raises(ValueError, match=r"World_Level_1.ldtkl, level 'World_Level_1': not valid"):
        read_ldtk(folder / "SeparateLevelFiles.ldtk", 1)


def test_a_huge_declared_size_is_refused_before_allocating(tmp_path: Path) -> None:
    project = _tiny_project([0] * 12)
    _ground(project).update(__cWid=2**20, __cHei=2**20, intGridCsv=[], intGrid=[])
    path = _write(tmp_path, project)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=f"more than the limit of {MAX_CELLS}"):
            read_ldtk(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000, peak
    _ground(project).update(intGridCsv=[0] * 12, intGrid=None)
    with pytest.raises(ValueError, match="'intGridCsv' holds 12 values"):
        read_ldtk(_write(tmp_path, project))


def test_damaged_copies_load_or_raise_value_error(tmp_path: Path) -> None:
    """Truncations and flipped bytes of the bundled project: either a level or a
    ValueError naming the file, never another exception."""
    data = bundled_ldtk().read_bytes()
    rng = np.random.default_rng(7)
    path = tmp_path / "d.ldtk"
    cuts = rng.integers(0, len(data), 60).tolist()
    flips = rng.integers(0, len(data), 240).tolist()
    damaged = [data[:c] for c in cuts]
    for i in flips:
        b = bytearray(data)
        b[i] ^= 1 << int(rng.integers(0, 8))
        damaged.append(bytes(b))
    loaded = refused = 0
    for blob in damaged:
        path.write_bytes(blob)
        try:
            level = read_ldtk(path)
            level.grid()
            level.spawns()
            loaded += 1
        except ValueError as exc:
            assert str(exc).startswith(str(path)), exc
            refused += 1
    assert loaded and refused and loaded + refused == len(damaged)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (the document itself aside)."""
    out = [here] if here else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:2]):
            out += _paths(v, (*here, i))
    return out


ODD_VALUES = [None, -1, 0, 2**70, 10**400, 1e308, "x", "", [], {}, True, [1, "a"], {"a": 1}]


def test_any_field_of_any_kind_gives_a_level_or_a_value_error(tmp_path: Path) -> None:
    """Every place of a small project replaced by values of every JSON kind: a level
    (whose grid and entities then read) or a ValueError naming the file."""
    base = _tiny_project([0, 1, 2, 3] * 3)
    path = tmp_path / "m.ldtk"
    outcomes = {"loaded": 0, "refused": 0}
    for where in _paths(base):
        for odd in ODD_VALUES:
            project = json.loads(json.dumps(base))
            node = project
            for key in where[:-1]:
                node = node[key]
            node[where[-1]] = odd
            path.write_text(json.dumps(project))
            try:
                level = read_ldtk(path)
                level.grid()
                level.spawns()
                level.waypoints()
                outcomes["loaded"] += 1
            except ValueError as exc:
                assert str(exc).startswith(str(path)), (where, odd, exc)
                outcomes["refused"] += 1
    assert outcomes["loaded"] > 50 and outcomes["refused"] > 50, outcomes


def test_point_fields_are_cells_of_the_entity_layer() -> None:
    """LDtkLoader's player: a ``Point`` and an ``Array<Point>`` field (a route)."""
    path = CORPUS / "ldtkloader_sfml_1.2.5.ldtk"
    raw = truth_levels(path)[0]
    (layer,) = [lay for lay in raw["layerInstances"] if lay["__type"] == "Entities"]
    players = [e for e in layer["entityInstances"] if e["__identifier"] == "Player"]
    got = read_ldtk(path).entities(identifier="Player")
    size = layer["__gridSize"]
    for want, entity in zip(players, got, strict=True):
        fields = {f["__identifier"]: f["__value"] for f in want["fieldInstances"]}
        route = [
            ((p["cx"] + 0.5) * size, (p["cy"] + 0.5) * size) for p in fields["pointarrayfield"]
        ]
        assert entity.points("pointarrayfield").tolist() == [list(p) for p in route]
        one = fields["pointfield"]
        assert entity.points("pointfield").tolist() == [
            [(one["cx"] + 0.5) * size, (one["cy"] + 0.5) * size]
        ]
        assert entity.fields == fields


def test_an_entity_layer_drawn_at_an_offset_moves_its_entities(tmp_path: Path) -> None:
    project = _tiny_project([0] * 12)
    things = project["levels"][0]["layerInstances"][0]
    things.update(__pxTotalOffsetX=3, __pxTotalOffsetY=-2)
    _hero(project)["fieldInstances"] = [{"__identifier": "goal", "__value": {"cx": 1, "cy": 2}}]
    (hero,) = read_ldtk(_write(tmp_path, project)).entities()
    assert (hero.x, hero.y) == (12.0 + 3, 4.0 - 2)
    assert hero.points("goal").tolist() == [[12.0 + 3, 20.0 - 2]]


@pytest.mark.parametrize("index", range(6))
def test_walkable_area_covers_exactly_the_walkable_cells(index: int) -> None:
    shapely = pytest.importorskip("shapely")
    level = read_ldtk(CORPUS / "collectathon.ldtk", index)
    walkable = level.grid().walkable
    area = level.walkable_area()
    assert area.area == pytest.approx(16 * 16 * walkable.sum())
    rows, cols = np.indices(level.shape)
    inside = shapely.contains_xy(area, (cols + 0.5) * 16, (rows + 0.5) * 16)
    np.testing.assert_array_equal(inside, walkable)
