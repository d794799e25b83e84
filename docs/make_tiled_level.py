"""Write the small Tiled level bundled with pathcraft (``src/pathcraft/data/dungeon.*``).

The level ``dungeon`` is written twice, as Tiled's XML map (``dungeon.tmx``) and as
its JSON map (``dungeon.json``), both using the external tileset ``dungeon.tsx`` and
its image ``dungeon.png`` (four 16x16 tiles: floor, mud, wall, water). Both open in
the Tiled editor. It has:

- a tile layer ``ground`` (floor everywhere, a patch of mud whose tiles say
  ``cost = 3``);
- a tile layer ``walls`` (stone tiles with ``walkable = false``, a pond of water tiles
  with ``collides = true``; empty elsewhere);
- an object layer ``obstacles``: crates (a rectangle), a rock (a polygon) and a
  pillar (an ellipse), in pixels;
- an object layer ``markers``: the spawn points ``player`` and ``enemy`` (points of
  class ``spawn``) and patrol points named ``waypoint``.

Run ``python docs/make_tiled_level.py`` to write the files again (needs Pillow).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "src" / "pathcraft" / "data"
TILE = 16
ROWS, COLS = 20, 32
FLOOR, MUD, WALL, WATER = 1, 2, 3, 4  # gids (firstgid 1)

WALLS = """
################################
#..............#...............#
#..............#...............#
#....######....#....#######....#
#.........#.........#..........#
#.........#.........#..........#
#.........#####.....#....~~~...#
#...................#...~~~~~..#
#...................#....~~~...#
######.....#######..#..........#
#..........#.....#.............#
#..........#.....#.............#
#...####...#.....######....#####
#......#...#...................#
#......#...........#...........#
#......#...........#...........#
#......#########...#....####...#
#..................#.......#...#
#..................#.......#...#
################################
"""

OBSTACLES = [
    {"id": 1, "name": "crates", "shape": "rectangle", "x": 40, "y": 200, "w": 40, "h": 24},
    {"id": 2, "name": "rock", "shape": "polygon", "x": 400, "y": 40,
     "points": [(0, 0), (36, -8), (52, 20), (20, 36), (-6, 22)]},
    {"id": 3, "name": "pillar", "shape": "ellipse", "x": 272, "y": 224, "w": 24, "h": 24},
]  # fmt: skip
MARKERS = [
    {"id": 10, "name": "player", "class": "spawn", "x": 40, "y": 40},
    {"id": 11, "name": "enemy", "class": "spawn", "x": 472, "y": 280},
    {"id": 12, "name": "enemy", "class": "spawn", "x": 296, "y": 56},
    {"id": 13, "name": "waypoint", "class": "", "x": 136, "y": 120},
    {"id": 14, "name": "waypoint", "class": "", "x": 360, "y": 168},
    {"id": 15, "name": "waypoint", "class": "", "x": 200, "y": 280},
    {"id": 16, "name": "waypoint", "class": "", "x": 456, "y": 72},
]


def layers() -> tuple[np.ndarray, np.ndarray]:
    rows = [line for line in WALLS.strip().splitlines()]
    chars = np.array([list(r) for r in rows])
    assert chars.shape == (ROWS, COLS), chars.shape
    ground = np.full((ROWS, COLS), FLOOR)
    ground[10:16, 22:30] = MUD
    walls = np.zeros((ROWS, COLS), dtype=int)
    walls[chars == "#"] = WALL
    walls[chars == "~"] = WATER
    return ground, walls


def tileset_xml() -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="dungeon" tilewidth="{TILE}" tileheight="{TILE}" tilecount="4" columns="4">
 <image source="dungeon.png" width="{4 * TILE}" height="{TILE}"/>
 <tile id="1">
  <properties>
   <property name="cost" type="float" value="3"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collides" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
"""  # noqa: E501


def object_xml(obj: dict) -> str:
    head = f' <object id="{obj["id"]}" name="{obj["name"]}"'
    if obj.get("class"):
        head += f' type="{obj["class"]}"'
    head += f' x="{obj["x"]}" y="{obj["y"]}"'
    shape = obj.get("shape", "point")
    if shape in ("rectangle", "ellipse"):
        head += f' width="{obj["w"]}" height="{obj["h"]}"'
    if shape == "rectangle":
        return head + "/>"
    if shape == "ellipse":
        return head + ">\n   <ellipse/>\n  </object>"
    if shape == "polygon":
        pts = " ".join(f"{x},{y}" for x, y in obj["points"])
        return head + f'>\n   <polygon points="{pts}"/>\n  </object>'
    return head + ">\n   <point/>\n  </object>"


def map_xml(ground: np.ndarray, walls: np.ndarray) -> str:
    def csv(data: np.ndarray) -> str:
        return "\n" + ",\n".join(",".join(str(v) for v in row) for row in data) + "\n"

    obstacles = "\n ".join(object_xml(o) for o in OBSTACLES)
    markers = "\n ".join(object_xml(o) for o in MARKERS)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{COLS}" height="{ROWS}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" nextlayerid="5" nextobjectid="17">
 <tileset firstgid="1" source="dungeon.tsx"/>
 <layer id="1" name="ground" width="{COLS}" height="{ROWS}">
  <data encoding="csv">{csv(ground)}</data>
 </layer>
 <layer id="2" name="walls" width="{COLS}" height="{ROWS}">
  <data encoding="csv">{csv(walls)}</data>
 </layer>
 <objectgroup id="3" name="obstacles">
 {obstacles}
 </objectgroup>
 <objectgroup id="4" name="markers">
 {markers}
 </objectgroup>
</map>
"""  # noqa: E501


def object_json(obj: dict) -> dict:
    shape = obj.get("shape", "point")
    out = {
        "id": obj["id"], "name": obj["name"], "type": obj.get("class", ""),
        "x": obj["x"], "y": obj["y"], "width": obj.get("w", 0), "height": obj.get("h", 0),
        "rotation": 0, "visible": True,
    }  # fmt: skip
    if shape == "ellipse":
        out["ellipse"] = True
    elif shape == "polygon":
        out["polygon"] = [{"x": x, "y": y} for x, y in obj["points"]]
    elif shape == "point":
        out["point"] = True
    return out


def map_json(ground: np.ndarray, walls: np.ndarray) -> dict:
    def tile_layer(lid: int, name: str, data: np.ndarray) -> dict:
        return {
            "id": lid, "name": name, "type": "tilelayer", "width": COLS, "height": ROWS,
            "x": 0, "y": 0, "opacity": 1, "visible": True,
            "data": [int(v) for v in data.ravel()],
        }  # fmt: skip

    def object_layer(lid: int, name: str, objs: list[dict]) -> dict:
        return {
            "id": lid, "name": name, "type": "objectgroup", "draworder": "topdown",
            "x": 0, "y": 0, "opacity": 1, "visible": True,
            "objects": [object_json(o) for o in objs],
        }  # fmt: skip

    return {
        "compressionlevel": -1, "height": ROWS, "width": COLS, "infinite": False,
        "orientation": "orthogonal", "renderorder": "right-down",
        "tiledversion": "1.10.2", "version": "1.10", "type": "map",
        "tilewidth": TILE, "tileheight": TILE, "nextlayerid": 5, "nextobjectid": 17,
        "tilesets": [{"firstgid": 1, "source": "dungeon.tsx"}],
        "layers": [
            tile_layer(1, "ground", ground), tile_layer(2, "walls", walls),
            object_layer(3, "obstacles", OBSTACLES), object_layer(4, "markers", MARKERS),
        ],
    }  # fmt: skip


def tileset_png(path: Path) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (4 * TILE, TILE))
    draw = ImageDraw.Draw(image)
    colours = [(214, 206, 186), (139, 110, 70), (70, 70, 84), (60, 120, 200)]
    for i, colour in enumerate(colours):
        draw.rectangle((i * TILE, 0, (i + 1) * TILE - 1, TILE - 1), fill=colour)
    draw.rectangle((2 * TILE + 1, 1, 3 * TILE - 2, TILE - 2), outline=(100, 100, 116))
    image.save(path)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    ground, walls = layers()
    (OUT / "dungeon.tsx").write_text(tileset_xml())
    (OUT / "dungeon.tmx").write_text(map_xml(ground, walls))
    (OUT / "dungeon.json").write_text(json.dumps(map_json(ground, walls), indent=1) + "\n")
    tileset_png(OUT / "dungeon.png")
    print(f"wrote the dungeon level to {OUT}")


if __name__ == "__main__":
    main()
