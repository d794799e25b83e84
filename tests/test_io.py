"""Reading Moving AI maps and scenarios: every shared file, the quirks, broken files."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pathcraft.io import (
    Scenarios,
    bundled_map,
    bundled_scen,
    lengths_match,
    map_for_scen,
    read_map,
    read_scen,
    read_walkable,
)

# (family, map file) for every map in the shared folder; the README's table.
MAPS = [
    ("dao", "arena2.map", 281, 209),
    ("dao", "brc202d.map", 530, 481),
    ("dao", "den520d.map", 256, 257),
    ("dao", "lak303d.map", 194, 194),
    ("dao", "orz900d.map", 1491, 656),
    ("bg512", "AR0011SR.map", 512, 512),
    ("sc1", "TheFrozenSea.map", 1024, 1024),
    ("wc3maps512", "battleground.map", 512, 512),
    ("maze", "maze512-1-0.map", 512, 512),
    ("maze", "maze512-32-0.map", 512, 512),
    ("random", "random512-10-0.map", 512, 512),
    ("random", "random512-40-0.map", 512, 512),
    ("room", "8room_000.map", 512, 512),
    ("room", "32room_000.map", 512, 512),
    ("street", "Berlin_0_256.map", 256, 256),
    ("street", "Boston_0_512.map", 512, 512),
]
MAP_IDS = [name.removesuffix(".map") for _, name, _, _ in MAPS]
TOTAL_PROBLEMS = 49_822

HEADER = "type octile\nheight {h}\nwidth {w}\nmap\n"


@cache
def _walkable(path: Path) -> npt.NDArray[np.bool_]:
    return read_walkable(path)


@cache
def _scen(path: Path) -> Scenarios:
    return read_scen(path)


def _grid_rows(path: Path) -> list[str]:
    """The grid lines of a map, by plain Python text handling (the test's oracle)."""
    return path.read_text().splitlines()[4:]


def _raises_at(path: Path, line: int, column: int | None = None) -> pytest.RaisesExc[ValueError]:
    where = rf"line {line}" + (rf", column {column}" if column is not None else "") + ":"
    return pytest.raises(ValueError, match=re.escape(str(path)) + ", " + where)


# ---------------------------------------------------------------------------- shared maps


@pytest.mark.parametrize(("family", "name", "width", "height"), MAPS, ids=MAP_IDS)
def test_every_shared_map_reads_with_the_header_shape(
    movingai: Path, family: str, name: str, width: int, height: int
) -> None:
    path = movingai / "maps" / family / name
    walkable = _walkable(path)
    assert walkable.dtype == np.bool_
    assert walkable.shape == (height, width)
    assert walkable.flags.c_contiguous
    rows = _grid_rows(path)
    assert len(rows) == height
    # Oracle: count passable characters in the text, and compare three rows cell by cell.
    body = "".join(rows)
    assert int(walkable.sum()) == sum(body.count(ch) for ch in ".GS")
    for r in (0, height // 2, height - 1):
        assert walkable[r].tolist() == [ch in ".GS" for ch in rows[r]]


@pytest.mark.parametrize(("family", "name", "width", "height"), MAPS, ids=MAP_IDS)
def test_every_scenario_fits_its_map(
    movingai: Path, family: str, name: str, width: int, height: int
) -> None:
    scen_path = movingai / "scen" / family / f"{name}.scen"
    assert map_for_scen(scen_path) == movingai / "maps" / family / name
    scen = _scen(scen_path)
    walkable = _walkable(movingai / "maps" / family / name)
    assert (scen.width, scen.height) == (width, height)
    assert scen.map_name.endswith(name)
    for cells in (scen.starts, scen.goals):
        assert cells.dtype == np.intp and cells.shape == (len(scen), 2)
        assert (cells >= 0).all()
        assert (cells[:, 0] < height).all() and (cells[:, 1] < width).all()
        assert walkable[cells[:, 0], cells[:, 1]].all()
    assert (scen.optimal >= 0).all() and np.isfinite(scen.optimal).all()
    scen.check_against(walkable)


def test_all_49822_problems_are_read(movingai: Path) -> None:
    total = 0
    for family, name, _, _ in MAPS:
        scen = _scen(movingai / "scen" / family / f"{name}.scen")
        walkable = _walkable(movingai / "maps" / family / name)
        assert walkable[tuple(scen.starts.T)].all() and walkable[tuple(scen.goals.T)].all()
        total += len(scen)
    assert total == TOTAL_PROBLEMS


def test_arena2_first_problem_is_converted_from_x_y(movingai: Path) -> None:
    # 0  arena2.map  281  209  99  159  101  162  3.82842712   (x = column, y = row)
    scen = _scen(movingai / "scen" / "dao" / "arena2.map.scen")
    assert scen.starts[0].tolist() == [159, 99]
    assert scen.goals[0].tolist() == [162, 101]
    assert scen.optimal[0] == 3.82842712
    assert scen.bucket[0] == 0


def test_non_square_maps_are_not_transposed(movingai: Path) -> None:
    den = _walkable(movingai / "maps" / "dao" / "den520d.map")
    assert den.shape == (257, 256)  # 256 wide, 257 high
    orz = _walkable(movingai / "maps" / "dao" / "orz900d.map")
    assert orz.shape == (656, 1491)
    assert int(orz.sum()) == 96_603


def test_street_maps_with_crlf_and_no_final_newline(movingai: Path, tmp_path: Path) -> None:
    berlin = movingai / "maps" / "street" / "Berlin_0_256.map"
    raw = berlin.read_bytes()
    assert b"\r\n" in raw and not raw.endswith(b"\n")  # the quirk this test is about
    unix = tmp_path / "Berlin_0_256.map"
    unix.write_bytes(raw.replace(b"\r\n", b"\n") + b"\n")
    assert np.array_equal(read_walkable(berlin), read_walkable(unix))
    assert read_walkable(berlin).shape == (256, 256)

    boston = movingai / "maps" / "street" / "Boston_0_512.map"
    raw = boston.read_bytes()
    assert raw.endswith(b"\r\n")
    unix = tmp_path / "Boston_0_512.map"
    unix.write_bytes(raw.replace(b"\r\n", b"\n"))
    assert np.array_equal(read_walkable(boston), read_walkable(unix))


def test_battleground_swamp_is_passable_and_water_is_not(movingai: Path) -> None:
    path = movingai / "maps" / "wc3maps512" / "battleground.map"
    chars = np.array([list(row) for row in _grid_rows(path)])
    walkable = _walkable(path)
    assert (chars == "S").sum() == 2102 and (chars == "W").sum() == 13_971
    assert walkable[chars == "S"].all()
    assert not walkable[chars == "W"].any()
    assert not walkable[chars == "T"].any() and not walkable[chars == "@"].any()
    assert walkable[chars == "."].all()
    # The README: 124 scenarios start or end on swamp, none touches water.
    scen = _scen(movingai / "scen" / "wc3maps512" / "battleground.map.scen")
    on_start, on_goal = chars[tuple(scen.starts.T)], chars[tuple(scen.goals.T)]
    assert int(((on_start == "S") | (on_goal == "S")).sum()) == 124
    assert not ((on_start == "W") | (on_goal == "W")).any()


@pytest.mark.parametrize(
    ("family", "name", "count"),
    [
        ("maze", "maze512-1-0", 1),
        ("random", "random512-10-0", 3),
        ("room", "8room_000", 1),
        ("wc3maps512", "battleground", 1),
        ("dao", "arena2", 0),
    ],
)
def test_zero_length_problems(movingai: Path, family: str, name: str, count: int) -> None:
    scen = _scen(movingai / "scen" / family / f"{name}.map.scen")
    same = (scen.starts == scen.goals).all(axis=1)
    assert int(same.sum()) == count
    assert (scen.optimal[same] == 0).all() and (scen.optimal[~same] > 0).all()


def test_flavour_a_file_with_paths_and_six_digits(movingai: Path) -> None:
    scen = _scen(movingai / "scen" / "dao" / "brc202d.map.scen")
    assert scen.map_name == "maps/dao/brc202d.map"
    assert scen.optimal[0] == 2.82843
    assert lengths_match(2 * np.sqrt(2), scen.optimal[0])
    orz = _scen(movingai / "scen" / "dao" / "orz900d.map.scen")
    on_boundary = orz.optimal == 1704  # printed without a point, bucket 425 as published
    assert on_boundary.any() and (orz.bucket[on_boundary] == 425).all()


def test_trailing_blank_lines_are_skipped(movingai: Path) -> None:
    path = movingai / "scen" / "dao" / "den520d.map.scen"
    assert path.read_bytes().endswith(b"\n\n\n")  # this file ends with two empty lines
    assert len(_scen(path)) == 888


# ---------------------------------------------------------------------------- bundled


def test_bundled_files_are_the_shared_arena2_byte_for_byte(movingai: Path) -> None:
    assert bundled_map().read_bytes() == (movingai / "maps/dao/arena2.map").read_bytes()
    assert bundled_scen().read_bytes() == (movingai / "scen/dao/arena2.map.scen").read_bytes()


def test_bundled_files_read() -> None:
    assert read_walkable(bundled_map()).shape == (209, 281)
    scen = read_scen(bundled_scen())
    assert len(scen) == 910
    scen.check_against(read_walkable(bundled_map()))
    assert map_for_scen(bundled_scen()) == bundled_map()
    assert (bundled_map().parent / "README.md").is_file()


# ---------------------------------------------------------------------------- small maps


def _write(tmp_path: Path, text: str | bytes, name: str = "tiny.map") -> Path:
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode()
    path.write_bytes(text)
    return path


def test_every_cell_character(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(h=2, w=4) + ".GS@\nOTW.")
    assert read_walkable(path).tolist() == [[True, True, True, False], [False, False, False, True]]


def test_header_variations_accepted(tmp_path: Path) -> None:
    text = "type  octile \r\nwidth\t3\nheight 1\r\nmap\n.@.\n\n\r\n"
    assert read_walkable(_write(tmp_path, text)).tolist() == [[True, False, True]]


def test_one_by_one_map_without_newline(tmp_path: Path) -> None:
    assert read_walkable(_write(tmp_path, HEADER.format(h=1, w=1) + "@")).tolist() == [[False]]


def test_read_walkable_accepts_str_paths(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(h=1, w=2) + "..\n")
    assert read_walkable(str(path)).shape == (1, 2)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("", 1, None, "type octile"),
        ("type octile", 2, None, "'height N' or 'width N'"),
        ("octile\nheight 1\nwidth 1\nmap\n.\n", 1, None, "expected 'type octile'"),
        ("type tile\nheight 1\nwidth 1\nmap\n.\n", 1, None, "'tile' is not supported"),
        ("type octile\nheight x\nwidth 1\nmap\n.\n", 2, None, "whole number > 0"),
        ("type octile\nheight 0\nwidth 1\nmap\n", 2, None, "whole number > 0"),
        ("type octile\nheight -3\nwidth 1\nmap\n.\n", 2, None, "whole number > 0"),
        ("type octile\nheight 1\nheight 1\nmap\n.\n", 3, None, "expected 'width N'"),
        ("type octile\nheight 1\nwidth 1\n.\n", 4, None, "expected 'map'"),
        ("type octile\nheight 1 2\nwidth 1\nmap\n.\n", 2, None, "expected"),
        ("type octile\nheight 1\nwidth 1\nmap\n", 5, None, "ends after 0 grid rows"),
        (HEADER.format(h=3, w=2) + "..\n..\n", 7, None, "ends after 2 grid rows"),
        (HEADER.format(h=2, w=3) + "...\n..\n", 6, None, "has 2 characters"),
        (HEADER.format(h=2, w=3) + "....\n...\n", 5, None, "has 4 characters"),
        (HEADER.format(h=2, w=3) + "...\n.. \n", 6, 3, "unknown map character ' '"),
        (HEADER.format(h=2, w=3) + "...\n.x.\n", 6, 2, "unknown map character 'x'"),
        (HEADER.format(h=1, w=3) + "..\t\n", 5, 3, "unknown map character '\\t'"),
        (HEADER.format(h=1, w=3) + ".\r.\n", 5, 2, "unknown map character '\\r'"),
        (HEADER.format(h=1, w=2) + "..\n..\n", 6, None, "more grid rows"),
        (HEADER.format(h=1, w=2) + "..\n\n..\n", 7, None, "more grid rows"),
        (HEADER.format(h=1, w=2) + "..\n..", 6, None, "more grid rows"),
    ],
    ids=[
        "empty",
        "header-cut",
        "no-type",
        "unknown-type",
        "height-word",
        "height-zero",
        "height-negative",
        "height-twice",
        "no-map-line",
        "height-two-values",
        "no-rows",
        "too-few-rows",
        "short-row",
        "long-row",
        "space-cell",
        "bad-char",
        "tab-cell",
        "stray-return",
        "too-many-rows",
        "rows-after-blank",
        "too-many-no-newline",
    ],
)
def test_malformed_maps_name_file_and_line(
    tmp_path: Path, text: str, line: int, column: int | None, words: str
) -> None:
    path = _write(tmp_path, text, "broken.map")
    with _raises_at(path, line, column) as info:
        read_walkable(path)
    assert words in str(info.value)


def test_bad_char_position_with_crlf(tmp_path: Path) -> None:
    path = _write(tmp_path, (HEADER.format(h=3, w=4) + "....\n....\n..@?\n").replace("\n", "\r\n"))
    with _raises_at(path, 7, 4):
        read_walkable(path)


def test_non_ascii_header_and_cells(tmp_path: Path) -> None:
    path = _write(tmp_path, "type octile\nheight 1\nwidth 1\nmap\n\xe9\n".encode("latin-1"))
    with _raises_at(path, 5, 1):
        read_walkable(path)
    path = _write(tmp_path, b"type \xff\nheight 1\nwidth 1\nmap\n.\n", "h.map")
    with _raises_at(path, 1):
        read_walkable(path)


def test_missing_map_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_walkable(tmp_path / "nowhere.map")


# ---------------------------------------------------------------------------- small scens


SCEN_LINE = "{b}\tt.map\t4\t3\t{sx}\t{sy}\t{gx}\t{gy}\t{opt}\n"


def _scen_text(*lines: str, version: str = "version 1\n") -> str:
    return version + "".join(lines)


def _line(b: int = 0, sx: int = 0, sy: int = 1, gx: int = 3, gy: int = 2, opt: str = "3.4") -> str:
    return SCEN_LINE.format(b=b, sx=sx, sy=sy, gx=gx, gy=gy, opt=opt)


def test_small_scen(tmp_path: Path) -> None:
    path = _write(
        tmp_path, _scen_text(_line(), _line(b=1, sx=2, sy=0, gx=2, gy=0, opt="0")), "t.scen"
    )
    scen = read_scen(path)
    assert len(scen) == 2 and (scen.width, scen.height) == (4, 3) and scen.map_name == "t.map"
    assert scen.starts.tolist() == [[1, 0], [0, 2]]
    assert scen.goals.tolist() == [[2, 3], [0, 2]]
    assert scen.optimal.tolist() == [3.4, 0.0]
    assert scen.bucket.dtype == np.int64 and scen.bucket.tolist() == [0, 1]
    assert scen.optimal.dtype == np.float64
    assert scen.starts.dtype == np.intp


def test_scen_variations_accepted(tmp_path: Path) -> None:
    spaced = "0  t.map 4 3   0 1 3 2 3.4\r\n"
    text = _scen_text(_line().replace("\n", "\r\n"), "\n", spaced, " \n", version="version 1.0\r\n")
    scen = read_scen(_write(tmp_path, text.rstrip("\n"), "t.scen"))
    assert len(scen) == 2
    assert scen.starts.tolist() == [[1, 0], [1, 0]]


def test_scen_map_name_with_spaces_when_tab_separated(tmp_path: Path) -> None:
    line = _line().replace("t.map", "my maps/t.map")
    assert read_scen(_write(tmp_path, _scen_text(line), "t.scen")).map_name == "my maps/t.map"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (_scen_text(_line(), version=""), 1, "expected 'version 1'"),
        ("", 1, "expected 'version 1'"),
        (_scen_text(_line(), version="version 2\n"), 1, "'2' is not supported"),
        (_scen_text(_line(), version="version\n"), 1, "expected 'version 1'"),
        (_scen_text(), 2, "no problems"),
        (_scen_text(_line(), _line().replace("\t3.4", "")), 3, "got 8"),
        (_scen_text(_line(), _line().replace("\n", "\textra\n")), 3, "got 10"),
        (_scen_text(_line(), _line(), "0 t.map 4 3 0 1 3 2\n"), 4, "got 8"),
        (_scen_text(_line(), _line(opt="x")), 3, "optimal length must be a number; got 'x'"),
        (_scen_text(_line(), _line(opt="nan")), 3, "optimal length must be finite"),
        (_scen_text(_line(opt="-1")), 2, "optimal length must be finite and >= 0"),
        (_scen_text(_line(), "0\tt.map\t4\t3\t1.5\t1\t3\t2\t3.4\n"), 3, "start x must be a whole"),
        (_scen_text(_line(), "x\tt.map\t4\t3\t1\t1\t3\t2\t3.4\n"), 3, "bucket must be a whole"),
        (_scen_text(_line(b=-1)), 2, "bucket must be >= 0"),
        (_scen_text(_line(), _line(gx=10**20)), 3, "goal x must be a whole number (64-bit)"),
        (_scen_text(_line(), _line(opt="1e999")), 3, "optimal length must be finite"),
        (_scen_text(_line(), _line(sx=4)), 3, "start x must be in [0, 4)"),
        (_scen_text(_line(), _line(gy=3)), 3, "goal y must be in [0, 3)"),
        (_scen_text(_line(), _line(sy=-1)), 3, "start y must be in [0, 3)"),
        (_scen_text(_line(), _line().replace("\t4\t3\t", "\t5\t3\t")), 3, "width '5' differs"),
        (_scen_text(_line(), _line().replace("\t4\t3\t", "\t4\t9\t")), 3, "height '9' differs"),
        (_scen_text(_line(), _line().replace("t.map", "u.map")), 3, "map 'u.map' differs"),
        (_scen_text("0\tt.map\t0\t0\t0\t0\t0\t0\t0\n"), 2, "width and height must be > 0"),
    ],
    ids=[
        "no-version",
        "empty",
        "version-2",
        "version-bare",
        "no-problems",
        "eight-fields",
        "ten-fields",
        "eight-spaced",
        "optimal-text",
        "optimal-nan",
        "optimal-negative",
        "x-float",
        "bucket-text",
        "bucket-negative",
        "x-huge",
        "optimal-overflow",
        "start-x-out",
        "goal-y-out",
        "start-y-negative",
        "width-differs",
        "height-differs",
        "map-differs",
        "zero-size",
    ],
)
def test_malformed_scens_name_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    path = _write(tmp_path, text, "broken.scen")
    with _raises_at(path, line) as info:
        read_scen(path)
    assert words in str(info.value)


def test_scen_not_utf8(tmp_path: Path) -> None:
    path = _write(tmp_path, _scen_text(_line()).encode() + b"0\t\xff.map\n", "t.scen")
    with _raises_at(path, 3):
        read_scen(path)


# ---------------------------------------------------------------------------- Scenarios


def _bundled() -> Scenarios:
    return _scen(bundled_scen())


def test_scenarios_arrays_are_read_only() -> None:
    scen = _bundled()
    for arr in (scen.bucket, scen.starts, scen.goals, scen.optimal):
        assert not arr.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        scen.optimal[0] = 1.0
    with pytest.raises(AttributeError):
        scen.width = 3  # type: ignore[misc]


def test_scenarios_indexing() -> None:
    scen = _bundled()
    one = scen[5]
    assert isinstance(one, Scenarios) and len(one) == 1
    assert one.starts.tolist() == [scen.starts[5].tolist()]
    assert len(scen[-1]) == 1 and scen[-1].optimal[0] == scen.optimal[-1]
    assert len(scen[10:20]) == 10
    assert len(scen[np.array([3, 1, 3])]) == 3
    mask = scen.bucket == 7
    sub = scen[mask]
    assert len(sub) == int(mask.sum()) and (sub.bucket == 7).all()
    assert (sub.map_name, sub.width, sub.height) == (scen.map_name, scen.width, scen.height)
    assert len(scen[scen.bucket > 1000]) == 0
    with pytest.raises(IndexError):
        scen[910]
    with pytest.raises(TypeError):
        scen[True]
    with pytest.raises(TypeError):
        scen[1, 2]


def test_scenarios_sample() -> None:
    scen = _bundled()
    a, b = scen.sample(40, seed=3), scen.sample(40, seed=3)
    assert len(a) == 40 and np.array_equal(a.optimal, b.optimal)
    assert np.array_equal(a.starts, b.starts)
    assert len(scen.sample(len(scen))) == len(scen)
    assert len(scen.sample(0)) == 0
    rng = np.random.default_rng(1)
    assert len(scen.sample(5, seed=rng)) == 5
    with pytest.raises(ValueError, match="k must be between 0 and 910"):
        scen.sample(911)
    with pytest.raises(TypeError, match="k must be an integer"):
        scen.sample(2.5)  # type: ignore[arg-type]


def _make(bucket: Any, width: Any, height: Any, starts: Any, goals: Any, optimal: Any) -> Scenarios:
    """A Scenarios for map ``x.map`` from plain lists."""
    return Scenarios(
        bucket=np.array(bucket),
        map_name="x.map",
        width=width,
        height=height,
        starts=np.array(starts),
        goals=np.array(goals),
        optimal=np.array(optimal),
    )


def test_scenarios_repr_and_construction() -> None:
    scen = _make([0, 1], 3, 2, [[0, 0], [1, 2]], [[1, 1], [0, 0]], [1.5, 2.0])
    assert repr(scen) == "Scenarios('x.map', 2 problems, height=2, width=3, buckets 0-1)"
    assert repr(scen[:0]) == "Scenarios('x.map', 0 problems, height=2, width=3)"
    with pytest.raises(ValueError, match="differ in length"):
        _make([0], 3, 2, [[0, 0]], [[0, 0]], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"starts must have shape \(n, 2\)"):
        _make([0], 3, 2, [0, 0], [[0, 0]], [1.0])
    with pytest.raises(TypeError, match="width must be an integer"):
        _make([0], 3.0, 2, [[0, 0]], [[0, 0]], [1.0])


def test_check_against() -> None:
    scen = _make([0, 0], 3, 2, [[0, 0], [1, 2]], [[1, 1], [0, 1]], [1.0, 1.0])
    walkable = np.ones((2, 3), dtype=bool)
    scen.check_against(walkable)
    walkable[0, 1] = False
    with pytest.raises(ValueError, match=r"problem 1: goal \(0, 1\) \(row, col\) is not passable"):
        scen.check_against(walkable)
    with pytest.raises(ValueError, match=r"the map has shape \(3, 2\)"):
        scen.check_against(np.ones((3, 2), dtype=bool))
    with pytest.raises(TypeError, match="walkable must be a boolean array"):
        scen.check_against(np.ones((2, 3)))
    outside = _make([0], 3, 2, [[5, 0]], [[0, 0]], [1.0])
    with pytest.raises(ValueError, match=r"problem 0: start \(5, 0\) .* is outside the map"):
        outside.check_against(np.ones((2, 3), dtype=bool))


# ---------------------------------------------------------------------------- lengths


def test_lengths_match_rule() -> None:
    # Flavour A: six significant digits, off by up to 5e-6 relative.
    assert lengths_match(2 * np.sqrt(2), 2.82843)
    assert lengths_match(1007.2249, 1007.22)
    assert lengths_match(1704.004, 1704)  # 0.004 absolute is fine above 1000 ...
    assert not lengths_match(3.004, 3.0)  # ... but not for a short path
    assert lengths_match(0.000009, 0.0) and not lengths_match(0.00002, 0.0)
    assert not lengths_match(np.inf, 5.0) and not lengths_match(np.nan, 5.0)
    assert lengths_match(3.004, 3.0, rtol=1e-2)


def test_lengths_match_is_vectorised() -> None:
    got = np.array([[1.0, 2.0], [3.0, 4.0]])
    ok = lengths_match(got, [1.0, 2.1])
    assert ok.dtype == np.bool_ and ok.tolist() == [[True, False], [False, False]]
    assert lengths_match(1.0, 1.0).shape == ()
    with pytest.raises(ValueError, match="rtol must be a number >= 0; got -1"):
        lengths_match(1.0, 1.0, rtol=-1)
    with pytest.raises(ValueError, match="rtol must be a number >= 0; got nan"):
        lengths_match(1.0, 1.0, rtol=float("nan"))
    with pytest.raises(TypeError, match="rtol must be a number"):
        lengths_match(1.0, 1.0, rtol="1e-5")  # type: ignore[arg-type]


def test_lengths_match_on_flavour_a_files(movingai: Path) -> None:
    # Every flavour A length is within half a unit of the 6th significant digit of itself.
    scen = _scen(movingai / "scen" / "dao" / "orz900d.map.scen")
    wobble = scen.optimal * (1 + 4.9e-6)
    assert lengths_match(wobble, scen.optimal).all()
    assert not lengths_match(scen.optimal * (1 + 2e-5) + 1e-4, scen.optimal).any()


# ---------------------------------------------------------------------------- map_for_scen


def test_map_for_scen_beside(tmp_path: Path) -> None:
    scen = _write(tmp_path, "", "a.map.scen")
    the_map = _write(tmp_path, "", "a.map")
    assert map_for_scen(scen) == the_map
    assert map_for_scen(str(scen)) == the_map


def test_map_for_scen_prefers_the_maps_folder(tmp_path: Path) -> None:
    (tmp_path / "scen" / "fam").mkdir(parents=True)
    (tmp_path / "maps" / "fam").mkdir(parents=True)
    scen = _write(tmp_path / "scen" / "fam", "", "b.map.scen")
    _write(tmp_path / "scen" / "fam", "", "b.map")
    in_maps = _write(tmp_path / "maps" / "fam", "", "b.map")
    assert map_for_scen(scen) == in_maps


def test_map_for_scen_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no map 'c.map' for .*looked at"):
        map_for_scen(tmp_path / "c.map.scen")
    with pytest.raises(ValueError, match=r"must name a \.scen file"):
        map_for_scen(tmp_path / "c.map")


# ---------------------------------------------------------------------------- read_map


def test_read_map_builds_a_grid() -> None:
    grid_module = pytest.importorskip("pathcraft.grid")
    grid = read_map(bundled_map())
    assert isinstance(grid, grid_module.Grid)
    assert grid.shape == (209, 281)
    assert grid.diagonal == "no_corner_cut"
    assert np.array_equal(grid.walkable, read_walkable(bundled_map()))
    assert read_map(bundled_map(), diagonal="never").diagonal == "never"
    with pytest.raises(ValueError, match="diagonal must be one of"):
        read_map(bundled_map(), diagonal="sometimes")  # type: ignore[arg-type]


def test_read_map_solves_bundled_scenarios() -> None:
    pytest.importorskip("pathcraft.grid")
    grid = read_map(bundled_map())
    scen = read_scen(bundled_scen())
    picks = scen[np.argsort(scen.optimal)[:: len(scen) // 12]]
    costs = [
        grid.astar(tuple(s), tuple(g)).cost for s, g in zip(picks.starts, picks.goals, strict=True)
    ]
    assert lengths_match(costs, picks.optimal).all()


@pytest.mark.parametrize("text", ["٠", "１", "3_0", "0_3", "1_0.5", "²", "0x1", "1e5"])
@pytest.mark.parametrize(
    ("field", "words"),
    [(0, "bucket must be a whole number"), (2, "width must be a whole number"),
     (4, "start x must be a whole number"), (7, "goal y must be a whole number"),
     (8, "optimal length must be a number")],
)  # fmt: skip
def test_scen_numbers_are_ascii_digits_in_the_format_s_syntax(
    tmp_path: Path, text: str, field: int, words: str
) -> None:
    if field == 8 and text == "1e5":
        return  # an exponent is the C syntax of a length (%g), not of a coordinate
    fields = _line().rstrip("\n").split("\t")
    fields[field] = text
    path = _write(tmp_path, _scen_text(_line(), "\t".join(fields) + "\n"), "t.scen")
    with _raises_at(path, 3) as info:
        read_scen(path)
    assert f"{words}" in str(info.value) and repr(text) in str(info.value)
    assert "ASCII digits" in str(info.value)


def test_scen_numbers_in_every_syntax_c_writes_are_read(tmp_path: Path) -> None:
    lines = [_line(opt=opt) for opt in ("3", "3.4", "3.82842712", "1007.22", "1e+03", ".5")]
    scen = read_scen(_write(tmp_path, _scen_text(*lines, "+0\tt.map\t4\t3\t0\t1\t3\t2\t2.\n"),
                            "t.scen"))  # fmt: skip
    assert scen.optimal.tolist() == [3.0, 3.4, 3.82842712, 1007.22, 1000.0, 0.5, 2.0]
