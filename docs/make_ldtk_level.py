"""Write the small LDtk project bundled with pathcraft (``src/pathcraft/data/dungeon.ldtk``).

The bundled Tiled level (``dungeon.tmx``, written by ``make_tiled_level.py``) drawn
again in LDtk's JSON layout (``jsonVersion`` 1.5.3, levels kept in the project, the
fields LDtk's loaders read), so that the two readers can be compared on one level:

- level ``Dungeon`` (32 x 20 cells of 16 px, at world position (0, 0)): an IntGrid
  layer ``Collisions`` whose values are ``1 wall`` (the stone tiles), ``2 water`` (the
  pond) and ``3 mud`` (the mud patch); an entity layer ``Markers`` with a ``Player``
  and two ``Enemy`` entities (tag ``spawn``; the enemies' field ``kind`` is ``"bat"``
  or ``"rat"``, and the bat's ``patrol``, an array of points, names two cells) and
  four ``Waypoint`` entities, at the Tiled level's points;
- level ``Cellar`` (8 x 6 cells, at world position (512, 32)): a walled room with one
  ``Waypoint``.

Run ``python docs/make_ldtk_level.py`` to write the file again (needs the ``tiled``
extra, to read the Tiled level).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pathcraft.io.tiled import bundled_level, read_tiled

OUT = Path(__file__).resolve().parents[1] / "src" / "pathcraft" / "data" / "dungeon.ldtk"
GRID = 16
VALUES = [(1, "wall", "#404040"), (2, "water", "#3060C0"), (3, "mud", "#806040")]
ENTITIES = [("Player", ["spawn"], "#40C040"), ("Enemy", ["spawn"], "#C04040"),
            ("Waypoint", [], "#C0C040")]  # fmt: skip
LAYER_UID, ENTITY_LAYER_UID, KIND_UID, PATROL_UID = 1, 2, 10, 11


def collisions() -> np.ndarray:
    """The Tiled level's walls, pond and mud as IntGrid values."""
    level = read_tiled(bundled_level())
    props = level.data.gid_properties
    values = np.zeros(level.shape, dtype=int)
    ground, walls = level.tile_layer("ground").gids, level.tile_layer("walls").gids
    mud = np.vectorize(lambda g: props.get(int(g), {}).get("cost") == 3)(ground)
    values[mud] = 3
    wall = np.vectorize(lambda g: props.get(int(g), {}).get("walkable") is False)(walls)
    water = np.vectorize(lambda g: props.get(int(g), {}).get("collides") is True)(walls)
    values[wall] = 1
    values[water] = 2
    return values


def entity(ident: str, tags: list[str], x: float, y: float, n: int, **fields: Any) -> dict:
    kinds = {"kind": ("String", KIND_UID), "patrol": ("Array<Point>", PATROL_UID)}
    """An entity of 16 x 16 px, pivot at its centre, placed at pixel (x, y)."""
    return {
        "__identifier": ident, "__grid": [int(x // GRID), int(y // GRID)],
        "__pivot": [0.5, 0.5], "__tags": tags, "__tile": None, "__smartColor": "#FFFFFF",
        "iid": f"00000000-0000-4000-8000-{n:012d}", "width": GRID, "height": GRID,
        "defUid": 3 + [e[0] for e in ENTITIES].index(ident), "px": [x, y],
        "fieldInstances": [
            {"__identifier": k, "__type": kinds[k][0], "__value": v, "__tile": None,
             "defUid": kinds[k][1], "realEditorValues": []}
            for k, v in fields.items()
        ],
        "__worldX": None, "__worldY": None,
    }  # fmt: skip


def level(name: str, uid: int, values: np.ndarray, world: tuple[int, int], things: list) -> dict:
    rows, cols = values.shape
    common = {"__cWid": cols, "__cHei": rows, "__gridSize": GRID, "__opacity": 1,
              "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0, "__tilesetDefUid": None,
              "__tilesetRelPath": None, "levelId": uid, "pxOffsetX": 0, "pxOffsetY": 0,
              "visible": True, "optionalRules": [], "autoLayerTiles": [], "seed": 1,
              "overrideTilesetUid": None, "gridTiles": []}  # fmt: skip
    return {
        "identifier": name, "iid": f"00000000-0000-4000-9000-{uid:012d}", "uid": uid,
        "worldX": world[0], "worldY": world[1], "worldDepth": 0,
        "pxWid": cols * GRID, "pxHei": rows * GRID, "__bgColor": "#202020",
        "bgColor": None, "useAutoIdentifier": False, "bgRelPath": None, "bgPos": None,
        "bgPivotX": 0.5, "bgPivotY": 0.5, "__smartColor": "#808080", "__bgPos": None,
        "externalRelPath": None, "fieldInstances": [],
        "layerInstances": [
            {"__identifier": "Markers", "__type": "Entities", **common,
             "iid": f"00000000-0000-4000-a000-{uid:012d}", "layerDefUid": ENTITY_LAYER_UID,
             "intGridCsv": [], "entityInstances": things},
            {"__identifier": "Collisions", "__type": "IntGrid", **common,
             "iid": f"00000000-0000-4000-b000-{uid:012d}", "layerDefUid": LAYER_UID,
             "intGridCsv": [int(v) for v in values.ravel()], "entityInstances": []},
        ],
        "__neighbours": [],
    }  # fmt: skip


def project() -> dict:
    tiled = read_tiled(bundled_level())
    spawns = tiled.spawns()
    things = [entity("Player", ["spawn"], *spawns["player"][0], 1)]
    kinds = zip(spawns["enemy"], ("bat", "rat"), strict=True)
    patrols = [[{"cx": 22, "cy": 10}, {"cx": 28, "cy": 4}], []]  # the bat's two waypoints
    things += [
        entity("Enemy", ["spawn"], x, y, 2 + i, kind=k, patrol=patrols[i])
        for i, ((x, y), k) in enumerate(kinds)
    ]
    things += [entity("Waypoint", [], x, y, 10 + i) for i, (x, y) in enumerate(tiled.waypoints())]
    cellar = np.zeros((6, 8), dtype=int)
    cellar[[0, -1], :] = 1
    cellar[:, [0, -1]] = 1
    layer_def = {
        "__type": "IntGrid", "identifier": "Collisions", "type": "IntGrid", "uid": LAYER_UID,
        "gridSize": GRID, "pxOffsetX": 0, "pxOffsetY": 0,
        "intGridValues": [{"value": v, "identifier": n, "color": c, "tile": None, "groupUid": 0}
                          for v, n, c in VALUES],
        "autoRuleGroups": [], "autoSourceLayerDefUid": None, "tilesetDefUid": None,
    }  # fmt: skip
    entity_layer = {"__type": "Entities", "identifier": "Markers", "type": "Entities",
                    "uid": ENTITY_LAYER_UID, "gridSize": GRID, "pxOffsetX": 0, "pxOffsetY": 0,
                    "intGridValues": [], "requiredTags": [], "excludedTags": []}  # fmt: skip
    entity_defs = [
        {"identifier": n, "uid": 3 + i, "tags": t, "width": GRID, "height": GRID,
         "color": c, "pivotX": 0.5, "pivotY": 0.5,
         "fieldDefs": [{"identifier": "kind", "__type": "String", "uid": KIND_UID,
                        "type": "F_String", "canBeNull": True},
                       {"identifier": "patrol", "__type": "Array<Point>", "uid": PATROL_UID,
                        "type": "F_Point", "isArray": True, "canBeNull": False}]
                       if n == "Enemy" else []}
        for i, (n, t, c) in enumerate(ENTITIES)
    ]  # fmt: skip
    return {
        "__header__": {"fileType": "LDtk Project JSON", "app": "LDtk",
                       "doc": "https://ldtk.io/json", "appVersion": "1.5.3",
                       "url": "https://ldtk.io"},
        "iid": "00000000-0000-4000-8000-000000000000", "jsonVersion": "1.5.3",
        "nextUid": 20, "worldLayout": "Free", "worldGridWidth": 256, "worldGridHeight": 256,
        "defaultLevelWidth": 512, "defaultLevelHeight": 320, "defaultPivotX": 0.5,
        "defaultPivotY": 0.5, "defaultGridSize": GRID, "bgColor": "#202020",
        "minifyJson": False, "externalLevels": False, "flags": [],
        "defs": {"layers": [entity_layer, layer_def], "entities": entity_defs,
                 "tilesets": [], "enums": [], "externalEnums": [], "levelFields": []},
        "levels": [
            level("Dungeon", 0, collisions(), (0, 0), things),
            level("Cellar", 1, cellar, (512, 32), [entity("Waypoint", [], 40, 40, 20)]),
        ],
        "worlds": [],
    }  # fmt: skip


if __name__ == "__main__":
    OUT.write_text(json.dumps(project(), indent=1) + "\n")
    print(f"wrote {OUT}")
