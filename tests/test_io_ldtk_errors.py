"""LDtk projects that are wrong: each bad value, bad JSON, a missing level, a level file
outside the project's folder, a size past the limit, damaged copies and every field
replaced by values of every kind give a ValueError naming the file, the level and the
layer (or a level), never another exception."""

from __future__ import annotations

import json
import shutil
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _ldtk import CORPUS, ground, hero, tiny_project, write

from pathcraft.io import bundled_ldtk, read_ldtk
from pathcraft.io.ldtk import MAX_CELLS


def _csv(last: Any) -> Any:
    return lambda p: ground(p).update(intGridCsv=[0] * 11 + [last])


def _sparse(*entries: dict[str, int]) -> Any:
    return lambda p: ground(p).update(intGridCsv=[], intGrid=list(entries))


BAD_PROJECTS = [
    (
        lambda p: ground(p).update(intGridCsv=[0] * 11),
        r"'intGridCsv' holds 11 values; expected __cWid x __cHei = 4 x 3 = 12",
    ),
    (_csv(7), r"IntGrid value 7 at cell \(row, col\) \(2, 3\) is not one the layer defines"),
    (_csv(7), r"defines \(1 'a', 2 'b', 3 'c'\)"),
    (_csv(-1), "IntGrid value -1"),
    (_csv(2**70), "IntGrid value 1180591620717411303424"),
    (_csv("1"), r"'intGridCsv' value '1' at cell \(2, 3\) is not an integer"),
    (_csv(1.5), "is not an integer"),
    (lambda p: ground(p).update(__cWid=0), r"'__cWid' must be an integer from 1 to 2\*\*31 - 1"),
    (lambda p: ground(p).update(__cWid="4"), r"'__cWid' must be int; got '4'"),
    (lambda p: ground(p).update(__cWid=True), r"'__cWid' must be int; got True"),
    (lambda p: ground(p).pop("__gridSize"), "missing '__gridSize'"),
    (_sparse({"coordId": 99, "v": 0}), r"coordId must be a cell 0\.\.11"),
    (_sparse({"coordId": 1, "v": 3}), r"v must index the layer's values 0\.\.2"),
    (lambda p: ground(p).update(intGridCsv=[]), "without 'intGridCsv' or 'intGrid' data"),
    (lambda p: p["defs"]["layers"].clear(), "no layer definition for this layer"),
    (
        lambda p: p["defs"]["layers"][0]["intGridValues"].append({"value": 0}),
        "must have an integer value > 0",
    ),
    (lambda p: hero(p).pop("px"), "entity 'Hero': missing 'px'"),
    (lambda p: hero(p).update(px=[1]), "entity 'Hero': 'px' must be two finite numbers"),
    (lambda p: hero(p).update(__tags="boss"), "'__tags' must be a list of strings"),
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
    project = tiny_project([0, 1, 2, 3] * 3)
    edit(project)
    path = write(tmp_path, project)
    with pytest.raises(ValueError, match=message) as info:
        read_ldtk(path)
    text = str(info.value)
    assert text.startswith(str(path)), text
    if any(w in message for w in ("IntGrid", "intGrid", "__c", "__grid", "layer definition")):
        assert "level 'L'" in text and "layer 'Ground'" in text, text


def test_bad_json_gives_its_line(tmp_path: Path) -> None:
    good = json.dumps(tiny_project([0] * 12), indent=1)
    broken = good.replace('"pxHei": 24,', '"pxHei": 24')  # a missing comma
    line = broken[: broken.index('"pxHei": 24')].count("\n") + 2
    with pytest.raises(ValueError, match=rf"bad.ldtk: not valid JSON .*\(line {line}, column"):
        read_ldtk(write(tmp_path, broken))
    with pytest.raises(ValueError, match=r"not valid JSON .*\(line \d+, column \d+\)"):
        read_ldtk(write(tmp_path, good[: len(good) // 2]))
    with pytest.raises(ValueError, match="NaN is not a JSON number"):
        read_ldtk(write(tmp_path, good.replace('"worldX": 8', '"worldX": NaN')))
    with pytest.raises(ValueError, match="not valid JSON"):
        read_ldtk(write(tmp_path, "[" * 100_000))
    (tmp_path / "bin.ldtk").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match=r"bin\.ldtk: not an LDtk file"):
        read_ldtk(tmp_path / "bin.ldtk")
    with pytest.raises(ValueError, match=r"open its \.ldtk project"):
        read_ldtk(write(tmp_path, {"identifier": "L", "layerInstances": []}))
    with pytest.raises(FileNotFoundError, match="no such LDtk project"):
        read_ldtk(tmp_path / "none.ldtk")


def test_missing_levels_are_named(tmp_path: Path) -> None:
    path = write(tmp_path, tiny_project([0] * 12))
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


def test_layers_of_another_size_or_offset_are_refused_by_name(tmp_path: Path) -> None:
    project = tiny_project([0] * 12)
    fine = ground(project)
    project["levels"][0]["layerInstances"].append(
        {**fine, "__identifier": "Fine", "__gridSize": 4, "__cWid": 8, "__cHei": 6,
         "intGridCsv": [0] * 48}
    )  # fmt: skip
    project["defs"]["layers"].append({**project["defs"]["layers"][0], "uid": 3})
    project["levels"][0]["layerInstances"][-1]["layerDefUid"] = 3
    level = read_ldtk(write(tmp_path, project))
    with pytest.raises(ValueError, match="IntGrid layer 'Fine' has 6x8 cells of 4 px; the level"):
        level.grid()
    assert level.grid(layers="Ground").shape == (3, 4)
    ground(project)["__pxTotalOffsetX"] = 4
    with pytest.raises(ValueError, match="'Ground' is drawn at an offset"):
        read_ldtk(write(tmp_path, project)).grid(layers="Ground")


def test_external_level_files_outside_the_folder_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    shutil.copytree(CORPUS / "separate_levels", folder)
    project = json.loads((folder / "SeparateLevelFiles.ldtk").read_text())
    secret = tmp_path / "secret.ldtkl"
    shutil.copy(folder / "SeparateLevelFiles" / "World_Level_0.ldtkl", secret)
    for rel in ("../secret.ldtkl", str(secret), "SeparateLevelFiles/../../secret.ldtkl"):
        project["levels"][0]["externalRelPath"] = rel
        path = write(folder, project, "p.ldtk")
        with pytest.raises(ValueError, match="outside the project's folder") as info:
            read_ldtk(path)
        assert str(path) in str(info.value) and "level 'World_Level_0'" in str(info.value)
    (folder / "link.ldtkl").symlink_to(secret)
    project["levels"][0]["externalRelPath"] = "link.ldtkl"
    with pytest.raises(ValueError, match="outside the project's folder"):
        read_ldtk(write(folder, project, "p.ldtk"))
    for odd, message in [("a\x00b", "is not a file name"), ("x" * 300, "cannot be read")]:
        project["levels"][0]["externalRelPath"] = odd
        with pytest.raises(ValueError, match=message):
            read_ldtk(write(folder, project, "p.ldtk"))
    project["levels"][0]["externalRelPath"] = "SeparateLevelFiles/gone.ldtkl"
    with pytest.raises(ValueError, match=r"external level file .*gone\.ldtkl' not found"):
        read_ldtk(write(folder, project, "p.ldtk"))
    (folder / "SeparateLevelFiles" / "World_Level_1.ldtkl").write_text("{")
    with pytest.raises(ValueError, match=r"World_Level_1.ldtkl, level 'World_Level_1': not valid"):
        read_ldtk(folder / "SeparateLevelFiles.ldtk", 1)


def test_a_huge_declared_size_is_refused_before_allocating(tmp_path: Path) -> None:
    project = tiny_project([0] * 12)
    ground(project).update(__cWid=2**20, __cHei=2**20, intGridCsv=[], intGrid=[])
    path = write(tmp_path, project)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=f"more than the limit of {MAX_CELLS}"):
            read_ldtk(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000, peak
    ground(project).update(intGridCsv=[0] * 12, intGrid=None)
    with pytest.raises(ValueError, match="'intGridCsv' holds 12 values"):
        read_ldtk(write(tmp_path, project))


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
    base = tiny_project([0, 1, 2, 3] * 3)
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
