"""Damaged Tiled levels: the bundled map (TMX and JSON) and its tileset cut short, bytes
flipped, attributes or keys dropped; each damaged level either reads (its grid, shapes,
spawns and waypoints) or raises ``ValueError`` naming the file, never another
exception.

Unlike a saved world, a level file has no checksum: an edit that leaves a valid level
(a ``1`` flipped to a ``0`` in the tiles) reads as that level, which is what Tiled
would show too. A fixed sample runs by default; every byte under ``-m slow``.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("shapely")
pytest.importorskip("pytiled_parser")

from pathcraft.io.tiled import bundled_level, read_tiled

FILES = ["dungeon.tmx", "dungeon.json", "dungeon.tsx"]


def _use(level: Any) -> None:
    """Everything a game asks of a level."""
    level.grid()
    for name in level.data.object_layers:
        level.obstacles(name)
    level.spawns()
    level.waypoints()
    level.grid(obstacles=[n for n in level.data.object_layers if n == "obstacles"])


def _check(folder: Path, mapfile: str) -> str:
    path = folder / mapfile
    try:
        _use(read_tiled(path))
    except ValueError as exc:
        assert str(exc).startswith(str(path)), str(exc)
        return "refused"
    return "read"


def _xml_without_attributes(text: str) -> Iterator[str]:
    root = ET.fromstring(text)
    for index, element in enumerate(root.iter()):
        for name in list(element.attrib):
            copy = ET.fromstring(text)
            target = list(copy.iter())[index]
            del target.attrib[name]
            yield ET.tostring(copy, encoding="unicode")


def _json_without_keys(text: str) -> Iterator[str]:
    doc = json.loads(text)
    paths: list[list[Any]] = []

    def walk(item: Any, at: list[Any]) -> None:
        if isinstance(item, dict):
            for key, value in item.items():
                paths.append([*at, key])
                walk(value, [*at, key])
        elif isinstance(item, list):
            for i, value in enumerate(item[:3]):  # the first few items of a list
                walk(value, [*at, i])

    walk(doc, [])
    for path in paths:
        copy = json.loads(text)
        holder = copy
        for step in path[:-1]:
            holder = holder[step]
        del holder[path[-1]]
        yield json.dumps(copy)


def _damaged(text: bytes, name: str, every: bool) -> Iterator[bytes]:
    n = len(text)
    rng = np.random.default_rng(n)
    cuts = range(n) if every else sorted(rng.choice(n, size=min(n, 25), replace=False))
    for cut in cuts:
        yield text[:cut]
    spots = range(n) if every else sorted(rng.choice(n, size=min(n, 60), replace=False))
    for spot in spots:
        for value in (b"0", b"-", b"\xff", b'"', b"<") if every else (b"0", b'"'):
            yield text[:spot] + value + text[spot + 1 :]
    dropped = _json_without_keys if name.endswith(".json") else _xml_without_attributes
    for i, edited in enumerate(dropped(text.decode())):
        if every or i % 4 == 0:
            yield edited.encode()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for f in bundled_level().parent.glob("dungeon.*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _run(folder: Path, damaged_file: str, every: bool) -> list[str]:
    original = (folder / damaged_file).read_bytes()
    maps = ["dungeon.tmx", "dungeon.json"] if damaged_file == "dungeon.tsx" else [damaged_file]
    outcomes = []
    for damaged in _damaged(original, damaged_file, every):
        (folder / damaged_file).write_bytes(damaged)
        outcomes += [_check(folder, m) for m in maps]
    (folder / damaged_file).write_bytes(original)
    return outcomes


@pytest.mark.parametrize("damaged_file", FILES)
def test_a_damaged_level_reads_or_is_refused_naming_the_file(
    folder: Path, damaged_file: str
) -> None:
    outcomes = _run(folder, damaged_file, every=False)
    assert "refused" in outcomes and "read" in outcomes


@pytest.mark.slow
@pytest.mark.parametrize("damaged_file", FILES)
def test_every_cut_and_byte_of_a_level(folder: Path, damaged_file: str) -> None:
    _run(folder, damaged_file, every=True)
