"""``Grid(prepare="jps")`` / ``grid.prepare("jps")``: jump point search's packed lines
built when the game asks, kept until a cell changes, saved and loaded with the grid
(``pathcraft.io``), and checked when loaded."""

from __future__ import annotations

import io

import numpy as np
import pytest

from pathcraft import Grid
from pathcraft.grid._packed import pack_lines
from pathcraft.io import load, save
from pathcraft.io._archive import write_archive


def maze(seed: int = 0, shape: tuple[int, int] = (70, 130)) -> Grid:
    rng = np.random.default_rng(seed)
    cost = np.where(rng.random(shape) < 0.25, np.inf, 1.0)
    cost[0, 0] = cost[-1, -1] = 1.0
    return Grid(cost)


def saved(grid: Grid) -> bytes:
    buffer = io.BytesIO()
    save(grid, buffer)
    return buffer.getvalue()


def test_prepared_at_construction_and_kept_by_queries() -> None:
    grid = Grid(maze().cost, prepare="jps")
    assert grid.prepared == ("jps",)
    tables = grid.jump_tables
    result = grid.jps((0, 0), (69, 129))
    assert grid.jump_tables is tables  # the query built nothing
    assert result.cost == maze().jps((0, 0), (69, 129)).cost
    lazy = maze()
    assert lazy.prepared == ()
    lazy.jps((0, 0), (1, 1))
    assert lazy.prepared == ("jps",)  # built by the first query, as before


def test_an_edit_drops_it_and_prepare_builds_it_again() -> None:
    grid = maze()
    grid.prepare("jps")
    grid[1:3, 1:3] = np.inf
    assert grid.prepared == ()
    grid.prepare("jps")
    assert grid.prepared == ("jps",)
    free = np.isfinite(grid.padded)
    assert np.array_equal(grid.jump_tables[1].rows, pack_lines(grid.padded, corner_cut=False).rows)
    assert not free[2, 2]


@pytest.mark.parametrize("bad", ["jpsx", 3, ["jps", "astar"]])
def test_unknown_preparations_are_refused(bad: object) -> None:
    with pytest.raises((ValueError, TypeError), match="prepare"):
        Grid(np.ones((2, 2)), prepare=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cost", "diagonal", "match"),
    [
        (np.ones((3, 3)), "never", "8-connected"),
        (np.ones((3, 3)), "one_free", "8-connected"),
        (np.array([[1.0, 2.0]]), "no_corner_cut", "uniform cost"),
    ],
)
def test_grids_jps_cannot_search_are_refused_at_once(
    cost: np.ndarray, diagonal: str, match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        Grid(cost, diagonal=diagonal, prepare="jps")  # type: ignore[arg-type]


@pytest.mark.parametrize("diagonal", ["no_corner_cut", "always"])
def test_saved_and_loaded_ready(diagonal: str) -> None:
    grid = Grid(maze(1).cost, diagonal=diagonal, prepare="jps")  # type: ignore[arg-type]
    again = load(io.BytesIO(saved(grid)))
    assert again.prepared == ("jps",)
    for mine, theirs in zip(again.jump_tables[1], grid.jump_tables[1], strict=True):
        assert mine.dtype == np.uint64 and np.array_equal(mine, theirs)
    rng = np.random.default_rng(5)
    free = np.argwhere(np.isfinite(grid.cost))
    for _ in range(30):
        s, g = (tuple(int(x) for x in free[i]) for i in rng.integers(len(free), size=2))
        a, b = again.jps(s, g), grid.jps(s, g)
        assert a.cost == b.cost and a.path.tolist() == b.path.tolist()


def test_a_grid_without_tables_saves_and_loads_as_before() -> None:
    data = saved(maze())
    assert not any(name.startswith("jps_") for name in np.load(io.BytesIO(data)).files)
    again = load(io.BytesIO(data))
    assert again.prepared == ()
    assert again.jps((0, 0), (69, 129)).cost == maze().jps((0, 0), (69, 129)).cost


def _flip(words: np.ndarray, row: int, word: int, bit: int) -> np.ndarray:
    out = words.copy()
    out[row, word] ^= np.uint64(bit)
    return out


def _tamper(data: bytes, name: str, change: object) -> bytes:
    """The file written again with one array changed and a new checksum (as a bad
    writer would make it: a damaged file is refused before its tables are looked at)."""
    arrays = dict(np.load(io.BytesIO(data)))
    del arrays["checksum"]
    arrays[name] = change(arrays[name])  # type: ignore[operator]
    out = io.BytesIO()
    write_archive(out, arrays)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "change", "match"),
    [
        ("jps_rows", lambda a: a[:-1], "shape"),
        ("jps_cols", lambda a: a.astype(np.int64), "dtype"),
        ("jps_rows", lambda a: _flip(a, 3, 0, 1 << 2), "does not match the grid's walls"),
        ("jps_cols_mirrored", lambda a: _flip(a, 3, 1, 1 << 40), "border"),
        ("jps_forced_rows", lambda a: a[:, :-1], "shape"),
        ("jps_rows_mirrored", lambda a: a & np.uint64(0), "does not match the grid's walls"),
    ],
)
def test_bad_tables_in_a_file_are_refused(name: str, change: object, match: str) -> None:
    grid = Grid(maze(2).cost, prepare="jps")
    data = _tamper(saved(grid), name, change)
    with pytest.raises(ValueError, match=match):
        load(io.BytesIO(data))


def test_the_line_names_are_the_fields() -> None:
    from pathcraft.grid._packed import LINE_NAMES, PackedLines

    assert PackedLines._fields == LINE_NAMES
