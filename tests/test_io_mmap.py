"""Worlds mapped from their file: ``save(world, path, mappable=True)`` then
``load(path, mmap=True)`` gives the same world, its costs backed by the file (copy on
write: edits never reach the file), checked as strictly as a normal load; wrong uses
are refused by name."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Grid
from pathcraft.io import load, save
from pathcraft.io._archive import MAP_MIN_BYTES


def _mapped(arr: np.ndarray) -> bool:
    """Whether ``arr`` is (a view of) a memory map."""
    while arr is not None:
        if isinstance(arr, np.memmap):
            return True
        arr = arr.base if isinstance(arr.base, np.ndarray) else None
    return False


def _maze(rows: int, cols: int, seed: int = 0) -> Grid:
    rng = np.random.default_rng(seed)
    cost = rng.choice([1.0, 2.0, 5.0], size=(rows, cols))
    cost[rng.random((rows, cols)) < 0.25] = np.inf
    cost[0, 0] = cost[-1, -1] = 1.0
    return Grid(cost)


def test_a_mapped_grid_is_the_saved_grid_backed_by_the_file(tmp_path: Path) -> None:
    grid = _maze(120, 90)
    path = tmp_path / "maze.npz"
    save(grid, path, mappable=True)
    mapped = load(path, mmap=True)
    copied = load(path)  # a mappable file also loads the usual way, copied
    assert _mapped(mapped.padded) and not _mapped(copied.padded)
    assert mapped.padded.nbytes >= MAP_MIN_BYTES
    np.testing.assert_array_equal(mapped.cost, grid.cost)
    np.testing.assert_array_equal(copied.cost, grid.cost)
    assert (mapped.diagonal, mapped.heuristic) == (grid.diagonal, grid.heuristic)
    for goal in [(119, 89), (60, 45), (0, 89)]:
        want = grid.astar((0, 0), goal)
        got = mapped.astar((0, 0), goal)
        assert bool(got) == bool(want) and got.cost == want.cost
    with np.load(path, allow_pickle=False) as raw:  # still a plain npz
        assert raw["cost_padded"].shape == (122, 92) and bool(raw["mappable"])
    # every member's data starts at a multiple of 64 bytes (mapped arrays are aligned)
    with zipfile.ZipFile(path) as zf, open(path, "rb") as file:
        for info in zf.infolist():
            file.seek(info.header_offset + 26)
            names, extra = np.frombuffer(file.read(4), dtype="<u2")
            start = info.header_offset + 30 + int(names) + int(extra)
            file.seek(start + 8)
            header = int.from_bytes(file.read(2), "little")
            assert (start + 10 + header) % 64 == 0, info.filename


def test_editing_a_mapped_grid_never_changes_the_file(tmp_path: Path) -> None:
    grid = _maze(100, 100, seed=3)
    path = tmp_path / "maze.npz"
    save(grid, path, mappable=True)
    before = path.read_bytes()
    mapped = load(path, mmap=True)
    mapped[:, 50] = np.inf  # a wall across: no path left to the far side
    assert not mapped.astar((0, 0), (99, 99))
    assert mapped.version > 0
    assert path.read_bytes() == before
    again = load(path, mmap=True)
    np.testing.assert_array_equal(again.cost, grid.cost)


@settings(max_examples=25)
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    seed=st.integers(0, 2**16),
    diagonal=st.sampled_from(["never", "no_corner_cut", "one_free", "always"]),
)
def test_mapped_grids_answer_as_scipy_does(
    tmp_path_factory: pytest.TempPathFactory, rows: int, cols: int, seed: int, diagonal: str
) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.choice([1.0, 1.5, 3.0, np.inf], size=(rows, cols), p=[0.5, 0.2, 0.1, 0.2])
    cost[0, 0] = 1.0
    grid = Grid(cost, diagonal=diagonal)  # type: ignore[arg-type]
    path = tmp_path_factory.mktemp("mm") / "g.npz"
    save(grid, path, mappable=True)
    mapped = load(path, mmap=True)
    dist = oracle(cost, diagonal, [(0, 0)])  # scipy.sparse.csgraph on the same graph
    for r in range(rows):
        for c in range(cols):
            if np.isfinite(cost[r, c]):
                got = mapped.astar((0, 0), (r, c))
                want = dist[r, c]
                assert (got.cost if got else np.inf) == pytest.approx(want)


def test_a_damaged_mapped_array_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "maze.npz"
    save(_maze(100, 100), path, mappable=True)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("cost_padded.npy")
    data[info.header_offset + 200 + 5000] ^= 0x40  # a byte inside the costs
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC-32"):
        load(path, mmap=True)


def test_an_unaligned_file_loads_with_mmap_by_reading(tmp_path: Path) -> None:
    # a version 1 file (no checksum) written by numpy.savez, whose members start where
    # the zip puts them (an unknown array in front shifts them: readers ignore it):
    # an array that is not aligned is read instead of mapped
    grid = _maze(90, 90, seed=5)
    path = tmp_path / "numpy.npz"
    np.savez(
        path,
        a_filler=np.zeros(3, dtype=np.uint8),
        cost_padded=grid.padded,
        diagonal=np.array(grid.diagonal),
        format=np.array("pathcraft.world"),
        heuristic=np.array(grid.heuristic),
        kind=np.array("grid"),
        mappable=np.array(True),
        version=np.array(1, dtype=np.int64),
    )
    with zipfile.ZipFile(path) as zf, open(path, "rb") as file:
        info = zf.getinfo("cost_padded.npy")
        file.seek(info.header_offset + 26)
        names, extra = np.frombuffer(file.read(4), dtype="<u2")
        start = info.header_offset + 30 + int(names) + int(extra)
        file.seek(start + 8)
        data = start + 10 + int.from_bytes(file.read(2), "little")
    assert data % 8  # not aligned for float64: the case this test is about
    loaded = load(path, mmap=True)
    np.testing.assert_array_equal(loaded.cost, grid.cost)
    assert loaded.padded.flags.aligned and not _mapped(loaded.padded)


def test_wrong_uses_are_refused_by_name(tmp_path: Path) -> None:
    grid = _maze(10, 10)
    plain, mappable = tmp_path / "plain.npz", tmp_path / "mappable.npz"
    save(grid, plain)
    save(grid, mappable, mappable=True)
    with pytest.raises(ValueError, match=r"save\(world, path, mappable=True\)"):
        load(plain, mmap=True)
    with open(mappable, "rb") as file, pytest.raises(TypeError, match="give its name"):
        load(file, mmap=True)
    with pytest.raises(TypeError, match="mmap must be True or False"):
        load(mappable, mmap=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mappable must be True or False"):
        save(grid, tmp_path / "x.npz", mappable="yes")  # type: ignore[arg-type]
    graph = Graph.from_adjacency({"a": {"b": 1.0}, "b": {}})
    with pytest.raises(ValueError, match=r"a graph has no layout .* \['grid'\]"):
        save(graph, tmp_path / "g.npz", mappable=True)
    assert not (tmp_path / "g.npz").exists()


def test_from_padded_checks_what_it_keeps() -> None:
    padded = np.full((4, 4), np.inf)
    padded[1:-1, 1:-1] = 1.0
    grid = Grid.from_padded(padded)
    grid[0, 0] = 2.0
    assert padded[1, 1] == 2.0  # kept, not copied
    bad_border = padded.copy()
    bad_border[0, 2] = 1.0
    with pytest.raises(ValueError, match="border of walls"):
        Grid.from_padded(bad_border)
    bad_cost = padded.copy()
    bad_cost[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"got nan at cell \(1, 0\)"):
        Grid.from_padded(bad_cost)
    with pytest.raises(TypeError, match="float64"):
        Grid.from_padded(padded.astype(np.float32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 3 x 3"):
        Grid.from_padded(np.full((2, 5), np.inf))
    frozen = padded.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        Grid.from_padded(frozen)
    with pytest.raises(ValueError, match="diagonal"):
        Grid.from_padded(padded, diagonal="sideways")  # type: ignore[arg-type]
