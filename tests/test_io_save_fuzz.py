"""Damaged saved worlds: every kind of world :func:`pathcraft.io.save` accepts, cut short,
its bytes flipped, its members dropped or renamed, its zip directory edited; each damaged
copy loads as the identical world or raises ``ValueError`` naming the file, never another
exception and never a different world.

A fixed sample of every kind of damage runs by default (a few seconds); every byte and
every cut runs under ``-m slow``.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")

from pathcraft import Graph, Grid, Level, NavMesh, VoxelGrid, WaypointGraph  # noqa: E402
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid  # noqa: E402
from pathcraft.io import load, save  # noqa: E402

WHERE = "<file object>:"


def _grid() -> Grid:
    rng = np.random.default_rng(1)
    return Grid(np.where(rng.random((9, 13)) < 0.25, np.inf, 1.0), prepare="jps+")


def _costs() -> Grid:
    rng = np.random.default_rng(5)
    cost = np.where(rng.random((7, 6)) < 0.2, np.inf, rng.integers(1, 4, (7, 6)) * 1.0)
    return Grid(cost, diagonal="one_free", heuristic="euclidean")


def _graph() -> Graph:
    rng = np.random.default_rng(2)
    return Graph(
        12, rng.integers(0, 12, 30), rng.integers(0, 12, 30), rng.integers(1, 9, 30) * 1.0,
        coords=rng.uniform(0, 9, (12, 2)), labels=[f"n{i}" for i in range(12)],
    )  # fmt: skip


def _waypoints() -> WaypointGraph:
    rng = np.random.default_rng(3)
    obstacles = [shapely.box(x, y, x + 3, y + 2) for x, y in rng.uniform(0, 20, (4, 2))]
    return WaypointGraph(rng.uniform(0, 25, (15, 2)), obstacles, max_distance=12.0)


def _navmesh() -> NavMesh:
    mesh = NavMesh.from_geometry(shapely.box(0, 0, 10, 10).difference(shapely.box(4, 0, 6, 8)))
    mesh.add_link((1, 1), (9, 1), cost=2.5, two_way=False)
    mesh.set_area_cost([0], 3.0)
    return mesh


def _moves() -> MovesGrid:
    allowed = np.ones((5, 5, 8), dtype=bool)
    allowed[2, 2, :4] = False
    return MovesGrid(np.ones((5, 5)), [(dr, dc, 1.0) for dr, dc in KNIGHT], allowed=allowed)


def _level() -> Level:
    floors = [np.ones((3, 4)), np.ones((3, 4))]
    floors[0][1, 1:3] = np.inf
    return Level(floors, portals=[((0, 2, 3), (1, 2, 3), 2.0), ((1, 0, 0), (0, 0, 0), 1.0, False)])


WORLDS: dict[str, Callable[[], Any]] = {
    "grid": _grid,
    "grid-costs": _costs,
    "graph": _graph,
    "waypoints": _waypoints,
    "navmesh": _navmesh,
    "hexgrid": lambda: HexGrid(np.where(np.eye(4, 5) > 0, np.inf, 2.0), layout="even-q"),
    "movesgrid": _moves,
    "voxelgrid": lambda: VoxelGrid(np.ones((2, 3, 4)), connectivity=18),
    "level": _level,
}


def _saved(kind: str) -> bytes:
    buffer = io.BytesIO()
    save(WORLDS[kind](), buffer)
    return buffer.getvalue()


def _arrays(world: Any) -> dict[str, Any]:
    return {k: np.asarray(v) for k, v in world.to_arrays().items()}


def _same(got: Any, want: dict[str, Any]) -> bool:
    mine = _arrays(got)
    return sorted(mine) == sorted(want) and all(
        mine[k].dtype == want[k].dtype
        and mine[k].shape == want[k].shape
        and np.array_equal(mine[k], want[k], equal_nan=mine[k].dtype.kind == "f")
        for k in want
    )


def _check(damaged: bytes, kind: str, want: dict[str, Any]) -> str:
    """``"same"`` or ``"refused"``; anything else fails the test."""
    try:
        got = load(io.BytesIO(damaged))
    except ValueError as exc:
        assert str(exc).startswith(WHERE), str(exc)
        return "refused"
    assert type(got) is type(WORLDS[kind]())
    assert _same(got, want), f"a damaged {kind} file loaded as another world"
    return "same"


# ------------------------------------------------------------------ damage


def _zip_records(data: bytes) -> Iterator[tuple[int, int]]:
    """``(offset, length)`` of each central directory record (46 fixed bytes + name)."""
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, at + 28)
        yield at, 46 + name_len + extra_len + comment_len
        at = data.find(b"PK\x01\x02", at + 46)


def _without(data: bytes, drop: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename != drop:
                dst.writestr(info, src.read(info))
    return out.getvalue()


def _renamed(data: bytes, name: str, new: str) -> bytes:
    """The member ``name`` renamed in both its local header and the directory (the same
    length, so every offset still holds)."""
    assert len(name) == len(new)
    return data.replace(name.encode(), new.encode())


def _flips(data: bytes, positions: Any, masks: tuple[int, ...]) -> Iterator[bytes]:
    for at in positions:
        for mask in masks:
            damaged = bytearray(data)
            damaged[at] ^= mask
            yield bytes(damaged)


def _directory_edits(data: bytes, every: bool) -> Iterator[bytes]:
    """Each field of each central directory record changed: versions, flags (encrypted),
    compression method, CRC, sizes, name length, offset; each byte when ``every``."""
    fields = [4, 6, 8, 10, 16, 20, 24, 28, 42]  # made by, needs, flags, method, crc, ...
    for at, length in _zip_records(data):
        spots = range(at + 4, at + length) if every else [at + f for f in fields]
        for spot in spots:
            for value in (0x01, 0x80, 0xFF) if every else (0x01, 0xFF):
                damaged = bytearray(data)
                damaged[spot] ^= value
                yield bytes(damaged)
        for method in (1, 9, 12, 14, 93, 99):  # shrunk, deflate64, bzip2, lzma, zstd, aes
            damaged = bytearray(data)
            struct.pack_into("<H", damaged, at + 10, method)
            yield bytes(damaged)
        damaged = bytearray(data)
        struct.pack_into("<H", damaged, at + 8, 0x0001)  # marked encrypted
        yield bytes(damaged)
        damaged = bytearray(data)
        struct.pack_into("<H", damaged, at + 6, 63)  # needs zip 6.3
        yield bytes(damaged)


def _member_edits(data: bytes) -> Iterator[bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
    for name in names:
        yield _without(data, name)
        yield _renamed(data, name, name[:-5] + ("X" if name[-5] != "X" else "Y") + ".npy")
    yield _renamed(data, names[0], names[1]) if len(names[0]) == len(names[1]) else data
    # a member added twice
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a") as z, pytest.warns(UserWarning, match="Duplicate name"):
        z.writestr(names[0], b"\x93NUMPY")
    yield out.getvalue()


def _damaged(data: bytes, every: bool) -> Iterator[bytes]:
    n = len(data)
    cuts = range(n) if every else sorted({int(f * n) for f in np.linspace(0, 1, 41)[:-1]})
    for cut in cuts:
        yield data[:cut]
    rng = np.random.default_rng(n)
    spots = range(n) if every else sorted(rng.choice(n, size=min(n, 250), replace=False))
    yield from _flips(data, spots, (0x01, 0xFF) if every else (0x01,))
    yield from _directory_edits(data, every)
    yield from _member_edits(data)


@pytest.mark.parametrize("kind", list(WORLDS))
def test_a_damaged_saved_world_is_refused_or_identical(kind: str) -> None:
    data = _saved(kind)
    want = _arrays(load(io.BytesIO(data)))
    outcomes = [_check(damaged, kind, want) for damaged in _damaged(data, every=False)]
    assert outcomes.count("refused") > len(outcomes) // 2  # the damage is mostly seen


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(WORLDS))
def test_every_cut_and_every_byte_flipped(kind: str) -> None:
    data = _saved(kind)
    want = _arrays(load(io.BytesIO(data)))
    for damaged in _damaged(data, every=True):
        _check(damaged, kind, want)


def test_the_issue_repro_a_shape_edited_in_a_header_is_refused() -> None:
    buffer = io.BytesIO()
    save(Grid(np.ones((20, 25))), buffer)
    data = bytearray(buffer.getvalue())
    data[data.find(b"(20, 25)") + 6] ^= 1  # (20, 24): a smaller array, the CRC unread
    with pytest.raises(ValueError, match=r"claims shape \(20, 24\)"):
        load(io.BytesIO(bytes(data)))


def test_a_huge_header_is_refused_before_allocating() -> None:
    buffer = io.BytesIO()
    save(Grid(np.ones((20, 25))), buffer)
    data = buffer.getvalue().replace(b"(20, 25), }        ", b"(100000, 100000), }")
    with pytest.raises(ValueError, match=r"claims shape \(100000, 100000\) of <f8 \(80000000000 "):
        load(io.BytesIO(data))


def test_a_zip_bomb_is_refused_by_its_directory_within_max_bytes() -> None:
    grid = Grid(np.ones((300, 300)))
    buffer = io.BytesIO()
    save(grid, buffer)
    with pytest.raises(ValueError, match=r"more than max_bytes=100000 \(raise the limit"):
        load(io.BytesIO(buffer.getvalue()), max_bytes=100_000)
    assert load(io.BytesIO(buffer.getvalue()), max_bytes=1_000_000).shape == (300, 300)
    bomb = io.BytesIO()  # 64 MB of zeros in 64 kB, declared as such
    with (
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z,
        z.open("cost.npy", "w", force_zip64=True) as member,
    ):
        for _ in range(64):
            member.write(bytes(1 << 20))
    assert len(bomb.getvalue()) < 1 << 20
    with pytest.raises(ValueError, match="more than max_bytes=10000000"):
        load(io.BytesIO(bomb.getvalue()), max_bytes=10_000_000)
    with pytest.raises(ValueError, match="max_bytes must be >= 0"):
        load(io.BytesIO(buffer.getvalue()), max_bytes=-1)


def test_a_directory_claiming_more_than_the_file_holds_is_refused_before_allocating() -> None:
    buffer = io.BytesIO()
    save(Grid(np.ones((20, 25))), buffer)
    data = bytearray(buffer.getvalue())
    for at, _ in _zip_records(bytes(data)):
        name_len = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + name_len] == b"cost.npy":
            struct.pack_into("<I", data, at + 24, 3 << 30)  # file size: 3 GiB, stored
    with pytest.raises(ValueError, match=r"the member 'cost\.npy' claims 3221225472 bytes"):
        load(io.BytesIO(bytes(data)))
