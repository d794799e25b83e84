"""LDtk levels: real projects from game repositories (tests/data/ldtk_corpus) and the
bundled one read by pathcraft, checked level by level against the same files read
independently (plain json and NumPy), paths on their grids checked against
scipy.sparse.csgraph; the grid rule and the entity selection (bad projects: in
test_io_ldtk_errors.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _grids import assert_answer, oracle
from _ldtk import (
    CORPUS,
    PROJECTS,
    corpus_levels,
    hero,
    tiny_project,
    truth_centres,
    truth_defs,
    truth_levels,
    truth_values,
    write,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft.io import bundled_ldtk, read_ldtk

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
    walls, costs = ["wall"], {"mud": 3, "water": np.inf}
    g = level.grid(costs=costs)
    np.testing.assert_array_equal(g.cost, np.select([values == 3, values != 0], [3, np.inf], 1))
    level.grid(walls=walls, costs=costs)
    values[:] = 0  # a copy: the level is not changed, nor what the caller passed
    assert walls == ["wall"] and costs == {"mud": 3, "water": np.inf}
    assert level.values("Collisions").any()
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
    project = tiny_project(values)
    path.write_text(json.dumps(project))
    level = read_ldtk(path)
    names = {1: "a", 2: "b", 3: "c"}
    costs = {(names[k] if named else k): c for k, c in priced.items()}
    arr = np.array(values).reshape(3, 4)
    want = np.ones((3, 4))
    for v in (1, 2, 3):
        want[arr == v] = priced.get(v, np.inf)
    np.testing.assert_array_equal(level.grid(costs=costs).cost, want)


def test_a_tiny_project_reads(tmp_path: Path) -> None:
    level = read_ldtk(write(tmp_path, tiny_project([0, 1, 2, 3] * 3)))
    assert level.values("Ground").tolist() == [[0, 1, 2, 3]] * 3
    (hero,) = level.entities()
    assert (hero.x, hero.y, hero.cell) == (12.0, 4.0, (0, 1))
    assert level.world_coords.pixel((0, 0), anchor="top_left") == (8.0, 16.0)


def test_a_multi_world_project_lists_every_world_s_levels(tmp_path: Path) -> None:
    project = tiny_project([0] * 12)
    second = json.loads(json.dumps(project["levels"][0]))
    second.update(identifier="M", iid="y")
    project["worlds"] = [
        {"identifier": "W1", "levels": project["levels"]},
        {"identifier": "W2", "levels": [second]},
    ]
    project["levels"] = []
    level = read_ldtk(write(tmp_path, project), "M")
    assert level.levels == ["L", "M"] and level.data.world == "W2"


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
    project = tiny_project([0] * 12)
    things = project["levels"][0]["layerInstances"][0]
    things.update(__pxTotalOffsetX=3, __pxTotalOffsetY=-2)
    hero(project)["fieldInstances"] = [{"__identifier": "goal", "__value": {"cx": 1, "cy": 2}}]
    (moved,) = read_ldtk(write(tmp_path, project)).entities()
    assert (moved.x, moved.y) == (12.0 + 3, 4.0 - 2)
    assert moved.points("goal").tolist() == [[12.0 + 3, 20.0 - 2]]


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


@pytest.mark.parametrize("end", ["start", "goal"])
def test_a_swapped_position_on_a_wall_gets_the_hint_for_the_start_as_for_the_goal(
    end: str,
) -> None:
    """(24, 152) is in the wall cell (9, 1); read as (y, x) it is in the floor cell (1, 9)."""
    level = read_ldtk(bundled_ldtk())
    grid = level.grid()
    assert not grid.walkable[9, 1] and grid.walkable[1, 9]
    ends = ((24, 152), (40, 40)) if end == "start" else ((40, 40), (24, 152))
    hint = rf"{end} \(9, 1\) is a wall; positions are pixels \(x, y\): {end} \(152, 24\), " \
        r"swapped, is in the walkable cell \(1, 9\): did you mean it\?"  # fmt: skip
    with pytest.raises(ValueError, match=hint):
        level.coords.find_path(grid, *ends)
