"""Bad and hostile Tiled levels: each refused with a ``ValueError`` naming the file and
the layer (and the row, gid or object), within a second and a few MB, before anything
sized by the file's numbers is allocated.

The levels are the bundled ``dungeon`` map (TMX and JSON), edited.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import struct
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("shapely")
pytest.importorskip("pytiled_parser")

from pathcraft import Grid
from pathcraft.io import load, save
from pathcraft.io.tiled import MAX_TILES, bundled_level, read_tiled

#: What a hostile file may cost before it is refused. The memory bound is the sharp
#: check (a bomb expanded allocates gigabytes); the time bound only catches a reader
#: that hangs, and is loose so that a loaded machine (and tracemalloc's own cost) never
#: fails it: a refusal takes milliseconds on a quiet one.
SECONDS = 10.0
PEAK_BYTES = 8 << 20


def level(tmp_path: Path, edit: Callable[[str], str] | None = None, fmt: str = "tmx") -> Path:
    """The bundled level copied into ``tmp_path/level``, its map edited."""
    folder = tmp_path / "level"
    folder.mkdir(exist_ok=True)
    for f in bundled_level().parent.glob("dungeon.*"):
        shutil.copy(f, folder / f.name)
    target = folder / f"dungeon.{fmt}"
    if edit is not None:
        text = target.read_text()
        edited = edit(text)
        assert edited != text, "the edit changed nothing"
        target.write_text(edited)
    return target


def refused(call: Callable[[], Any], match: str, error: type[Exception] = ValueError) -> None:
    """``call`` raises ``error`` matching ``match`` within SECONDS and PEAK_BYTES."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(error, match=match):
            call()
        took = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert took < SECONDS, f"refused after {took:.2f} s"
    assert peak < PEAK_BYTES, f"refused after allocating {peak / 2**20:.1f} MB"


def csv_rows(text: str, layer: str = "ground") -> tuple[int, int]:
    """Where the CSV data of ``layer`` starts and ends in a TMX text."""
    start = text.index(f'name="{layer}"')
    begin = text.index('<data encoding="csv">', start) + len('<data encoding="csv">')
    return begin, text.index("</data>", begin)


def edit_csv(edit: Callable[[list[list[str]]], None], layer: str = "ground") -> Any:
    def apply(text: str) -> str:
        begin, end = csv_rows(text, layer)
        rows = [line.rstrip(",").split(",") for line in text[begin:end].strip().splitlines()]
        edit(rows)
        body = ",\n".join(",".join(r) for r in rows)
        return text[:begin] + "\n" + body + "\n" + text[end:]

    return apply


# ---------------------------------------------------------------- bad tile data


def test_csv_rows_of_wrong_lengths_whose_total_is_right_are_refused(tmp_path: Path) -> None:
    def shift(rows: list[list[str]]) -> None:
        rows[1].pop()  # row 2 one short, row 3 one long: the total is right
        rows[2].append("1")

    path = level(tmp_path, edit_csv(shift))
    refused(
        lambda: read_tiled(path),
        r"level/dungeon\.tmx: tile layer 'ground': CSV row 2 holds 31 tiles; the layer is 32 "
        r"wide \(a short or long row shifts every tile after it\)",
    )


def test_csv_data_of_the_wrong_total_or_row_count_is_refused(tmp_path: Path) -> None:
    path = level(tmp_path, edit_csv(lambda rows: rows.pop()))
    refused(
        lambda: read_tiled(path),
        r"dungeon\.tmx: tile layer 'ground': CSV data of 19 rows and 608 tiles; the layer is "
        r"32x20 \(640 tiles\)",
    )


def test_a_map_size_that_does_not_match_its_layers_is_refused(tmp_path: Path) -> None:
    path = level(tmp_path, lambda t: t.replace('width="32" height="20" tilewidth', 'width="33" '
                                               'height="20" tilewidth'))  # fmt: skip
    refused(
        lambda: read_tiled(path),
        r"dungeon\.tmx: tile layer 'ground': row 1 holds 32 tiles; the map is 33 wide",
    )
    path = level(tmp_path, fmt="json")
    raw = json.loads(path.read_text())
    raw["layers"][1]["data"] = raw["layers"][1]["data"][:-3]
    path.write_text(json.dumps(raw))
    refused(
        lambda: read_tiled(path),
        r"dungeon\.json: tile layer 'walls' holds 637 tiles; its size 32x20 needs 640",
    )


@pytest.mark.parametrize("gid", [-1, 99, 5, 2**31 - 1])
def test_gids_that_belong_to_no_tile_are_refused_without_a_table_as_long_as_the_gid(
    tmp_path: Path, gid: int
) -> None:
    def put(rows: list[list[str]]) -> None:
        rows[3][7] = str(gid)

    path = level(tmp_path, edit_csv(put, "walls"))
    said = {
        -1: r"holds the gid -1; gids are unsigned 32-bit numbers",
        99: r"holds gid 99 at \(row 3, col 7\), which belongs to no tile of the tilesets "
        r"\('dungeon' gids 1-4\)",
        5: r"holds gid 5 at \(row 3, col 7\), which belongs to no tile",
        2**31 - 1: r"holds gid 2147483647 \(tile 268435455 once flips are cleared\) at "
        r"\(row 3, col 7\)",
    }[gid]
    refused(lambda: read_tiled(path), rf"dungeon\.tmx: tile layer 'walls' {said}")


def test_flipped_tiles_are_still_tiles(tmp_path: Path) -> None:
    def flip(rows: list[list[str]]) -> None:
        rows[0][0] = str(0x80000000 | 4)  # tile 4 (a wall), flipped horizontally

    level_ = read_tiled(level(tmp_path, edit_csv(flip, "walls")))
    assert level_.tile_layer("walls").gids[0, 0] == 4


def test_the_gid_tables_are_as_long_as_the_distinct_gids() -> None:
    from pathcraft.io._tiled_tiles import gid_tables

    data = read_tiled(bundled_level()).data
    layer = data.tile_layers[0]
    at, wall, cost = gid_tables(data, layer, ["collides"], ["walkable"], "cost")
    assert len(wall) == len(cost) == len(np.unique(layer.gids))
    assert at.shape == layer.gids.shape


# ---------------------------------------------------------------- bad objects and arguments


def test_an_object_at_nan_names_the_file_the_layer_and_the_object(tmp_path: Path) -> None:
    path = level(tmp_path, lambda t: t.replace('name="crates" x="40"', 'name="crates" x="nan"'))
    refused(
        lambda: read_tiled(path),
        r"dungeon\.tmx: object layer 'obstacles': object 1 \('crates'\) is at x=nan, y=200\.0, "
        r"40\.0x24\.0, rotation 0\.0; expected finite numbers",
    )


def test_a_property_name_that_is_not_a_name_is_a_type_error_naming_the_file() -> None:
    level_ = read_tiled(bundled_level())
    refused(
        lambda: level_.grid(wall_property=5),  # type: ignore[arg-type]
        r"dungeon\.tmx: wall_property must be a name or a list of names \(str\); got 5",
        TypeError,
    )


# ---------------------------------------------------------------- files from strangers


@pytest.mark.parametrize("fmt", ["tmx", "json"])
def test_a_tileset_outside_the_level_folder_is_refused_unless_allowed(
    tmp_path: Path, fmt: str
) -> None:
    outside = tmp_path / "shared"
    outside.mkdir()
    path = level(tmp_path, fmt=fmt)
    shutil.move(path.parent / "dungeon.tsx", outside / "dungeon.tsx")
    path.write_text(path.read_text().replace('"dungeon.tsx"', '"../shared/dungeon.tsx"'))
    refused(
        lambda: read_tiled(path),
        rf"dungeon\.{fmt}: the tileset '\.\./shared/dungeon\.tsx' lies outside the level's "
        r"folder '.*level'; a level may read files only from its own folder \(pass "
        r"allow_folders=\[\.\.\.\] to read_tiled to allow others\)",
    )
    assert read_tiled(path, allow_folders=[outside]).shape == (20, 32)
    absolute = str((outside / "dungeon.tsx").resolve())
    path.write_text(path.read_text().replace('"../shared/dungeon.tsx"', json.dumps(absolute)))
    refused(lambda: read_tiled(path), r"the tileset '/.*shared/dungeon\.tsx' lies outside")


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    path = level(tmp_path)
    shutil.move(path.parent / "dungeon.tsx", outside / "dungeon.tsx")
    (path.parent / "dungeon.tsx").symlink_to(outside / "dungeon.tsx")
    refused(lambda: read_tiled(path), r"the tileset 'dungeon\.tsx' lies outside")


def test_a_template_outside_the_level_folder_is_refused(tmp_path: Path) -> None:
    path = level(
        tmp_path,
        lambda t: t.replace('<object id="1" name="crates"',
                            '<object id="1" template="../../etc/crate.tx" name="crates"'),
    )  # fmt: skip
    refused(lambda: read_tiled(path), r"the template '\.\./\.\./etc/crate\.tx' lies outside")


def _deflate_bomb(gib: int) -> bytes:
    """A raw deflate stream that expands to ``gib`` GiB of zeros (about 1 MB a GiB):
    one flushed block of 1 MiB of zeros, repeated, then an empty final block."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(bytes(1 << 20)) + packer.flush(zlib.Z_FULL_FLUSH)
    return block * (gib << 10) + b"\x03\x00"


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_layer_whose_compressed_data_expands_to_gigabytes_is_refused(
    tmp_path: Path, compression: str
) -> None:
    head = b"\x78\xda" if compression == "zlib" else b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    bomb = base64.b64encode(head + _deflate_bomb(2)).decode()
    assert len(bomb) < 4 << 20

    def swap(text: str) -> str:
        begin, end = csv_rows(text, "walls")
        start = text.rindex("<data", 0, begin)
        data = f'<data encoding="base64" compression="{compression}">{bomb}'
        return text[:start] + data + text[end:]

    path = level(tmp_path, swap)
    refused(
        lambda: read_tiled(path),
        r"dungeon\.tmx: tile layer 'walls' holds 2561 bytes of tiles; its size 32x20 needs "
        r"2560 \(4 per tile\)",
    )


def test_compressed_layers_of_the_right_size_load(tmp_path: Path) -> None:
    gids = read_tiled(bundled_level()).tile_layer("walls").gids
    packed = zlib.compress(struct.pack(f"<{gids.size}I", *gids.ravel().tolist()))

    def swap(text: str) -> str:
        begin, end = csv_rows(text, "walls")
        start = text.rindex("<data", 0, begin)
        data = base64.b64encode(packed).decode()
        return f'{text[:start]}<data encoding="base64" compression="zlib">{data}{text[end:]}'

    again = read_tiled(level(tmp_path, swap))
    np.testing.assert_array_equal(again.tile_layer("walls").gids, gids)
    np.testing.assert_array_equal(again.grid().cost, read_tiled(bundled_level()).grid().cost)


def test_a_map_larger_than_max_tiles_is_refused_before_reading_its_layers(tmp_path: Path) -> None:
    path = level(tmp_path, lambda t: t.replace('width="32" height="20" tilewidth', 'width="100000" '
                                               'height="100000" tilewidth'))  # fmt: skip
    refused(
        lambda: read_tiled(path),
        rf"dungeon\.tmx: layer '\(the map\)' is 100000x100000 tiles; expected at most "
        rf"max_tiles={MAX_TILES} \(raise it with read_tiled\(path, max_tiles=\.\.\.\)\)",
    )
    small = level(tmp_path)
    refused(lambda: read_tiled(small, max_tiles=100), r"layer '\(the map\)' is 32x20 tiles")


def test_an_entity_bomb_is_refused(tmp_path: Path) -> None:
    lol = "".join(
        f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10 if i else "lol"}">' for i in range(10)
    )
    path = level(tmp_path, lambda t: t.replace("<map ", f"<!DOCTYPE map [{lol}]>\n<map ")
                 .replace('name="crates"', 'name="&l9;"'))  # fmt: skip
    refused(lambda: read_tiled(path), r"dungeon\.tmx: not a readable Tiled map")


def test_a_saved_world_with_a_pickled_member_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "world.npz"
    save(Grid(np.ones((4, 4))), path)
    with np.load(path, allow_pickle=False) as raw:
        arrays = {k: raw[k] for k in raw.files}
    buffer = io.BytesIO()
    np.savez(buffer, **{**arrays, "cost": np.array([{"a": 1}], dtype=object)})
    path.write_bytes(buffer.getvalue())
    refused(lambda: load(path), r"world\.npz: .*the array 'cost' holds Python objects")


def test_a_zstd_layer_is_read_only_with_a_size_limit(tmp_path: Path) -> None:
    def swap(text: str) -> str:
        begin, end = csv_rows(text, "walls")
        start = text.rindex("<data", 0, begin)
        data = '<data encoding="base64" compression="zstd">KLUv/QBYAQAA'
        return text[:start] + data + text[end:]

    path = level(tmp_path, swap)
    try:
        import zstandard  # noqa: F401
    except ImportError:
        refused(
            lambda: read_tiled(path),
            r"tile layer 'walls' is zstd-compressed: reading it safely \(with a size limit\) "
            r"needs the zstandard package",
        )
    else:  # pragma: no cover - zstandard is not a dependency
        refused(lambda: read_tiled(path), r"tile layer 'walls'")


@pytest.mark.parametrize("gid", [-1, 99, 2**31 - 1])
def test_a_json_level_names_the_gid_that_belongs_to_no_tile(tmp_path: Path, gid: int) -> None:
    path = level(tmp_path, fmt="json")
    raw = json.loads(path.read_text())
    raw["layers"][1]["data"][5] = gid
    path.write_text(json.dumps(raw))
    refused(lambda: read_tiled(path), rf"dungeon\.json: tile layer 'walls' holds (the )?gid {gid}")


def test_a_json_layer_whose_zlib_data_expands_to_gigabytes_is_refused(tmp_path: Path) -> None:
    path = level(tmp_path, fmt="json")
    raw = json.loads(path.read_text())
    raw["layers"][1].update(
        data=base64.b64encode(b"\x78\xda" + _deflate_bomb(2)).decode(),
        encoding="base64",
        compression="zlib",
    )
    path.write_text(json.dumps(raw))
    refused(
        lambda: read_tiled(path),
        r"dungeon\.json: tile layer 'walls' holds 2561 bytes of tiles; its size 32x20 needs 2560",
    )


def test_the_limits_are_checked_as_arguments() -> None:
    with pytest.raises(ValueError, match="max_tiles must be >= 1; got 0"):
        read_tiled(bundled_level(), max_tiles=0)
    with pytest.raises(TypeError, match="max_tiles must be an int; got float"):
        read_tiled(bundled_level(), max_tiles=1e6)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="allow_folders must be a list of folders"):
        read_tiled(bundled_level(), allow_folders="../shared")  # type: ignore[arg-type]


def test_a_pytmx_map_with_an_object_at_nan_is_refused_too(tmp_path: Path) -> None:
    pytmx = pytest.importorskip("pytmx")
    path = level(tmp_path, lambda t: t.replace('name="crates" x="40"', 'name="crates" x="nan"'))
    refused(
        lambda: read_tiled(pytmx.TiledMap(str(path))),
        r"dungeon\.tmx: object layer 'obstacles': object 1 \('crates'\) is at x=nan",
    )
