"""``pathcraft show`` on Tiled levels (--layer, --obstacles, --cover, --pixels) and LDtk
projects (--level, --layer, --pixels); ``solve`` refusing a level with a message that
says what to run."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pathcraft.cli import main
from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
from pathcraft.io.tiled import bundled_level, read_tiled

pytest.importorskip("matplotlib")
pytest.importorskip("shapely")

CRATE = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.0" orientation="orthogonal" width="4" height="4" tilewidth="32"
     tileheight="32">
 <objectgroup name="things">
  <object id="1" name="crate" x="16" y="16" width="32" height="32"/>
 </objectgroup>
</map>
"""


def _cost(printed: str) -> float:
    found = re.search(r"cost ([0-9.]+)", printed)
    assert found, printed
    return float(found.group(1))


def test_show_reads_a_tiled_level_in_pixels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    level = read_tiled(bundled_level())
    out = tmp_path / "dungeon.png"
    args = ["show", str(bundled_level()), "--start", "40,40", "--goal", "472,280", "--pixels"]
    assert main([*args, "--obstacles", "obstacles", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    start, goal = level.coords.cell((40, 40)), level.coords.cell((472, 280))
    assert f"from ({start[0]},{start[1]}) to ({goal[0]},{goal[1]})" in printed
    want = level.grid(obstacles="obstacles").find_path(start, goal).cost
    assert _cost(printed) == pytest.approx(want, abs=0.01)
    assert out.stat().st_size > 0
    # the tile layers chosen, the obstacles' rule
    assert main([*args, "--layer", "ground", "--cover", "center", "--obstacles", "obstacles",
                 "-o", str(out)]) == 0  # fmt: skip
    picked = level.grid(layers=["ground"], obstacles="obstacles", cover="center")
    assert _cost(capsys.readouterr().out) == pytest.approx(
        picked.find_path(start, goal).cost, abs=0.01
    )


def test_show_goes_around_a_crate_straddling_tiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "crate.tmx"
    path.write_text(CRATE)
    args = ["show", str(path), "--start", "3,0", "--goal", "0,3", "--obstacles", "things"]
    assert main([*args, "-o", str(tmp_path / "a.png")]) == 0
    around = _cost(capsys.readouterr().out)
    assert main([*args, "--cover", "center", "-o", str(tmp_path / "b.png")]) == 0
    through = _cost(capsys.readouterr().out)
    assert through == pytest.approx(3 * np.sqrt(2), abs=0.01)  # the old rule: the diagonal
    assert around > through


@pytest.mark.parametrize(
    ("map_name", "extra", "message"),
    [
        ("rooms.txt", ["--obstacles", "things"], "--layer, --obstacles, --level and --pixels are "
         "for Tiled levels (.tmx, .tmj, .json) and LDtk projects (.ldtk)"),
        ("rooms.txt", ["--level", "2"], "--level and --pixels are for Tiled levels"),
        ("crate.tmx", ["--level", "Cellar"], "--level picks a level of an LDtk project; a "
         "Tiled map is one level"),
        ("crate.tmx", ["--obstacles", "walls"], "crate.tmx: no object layer 'walls'; the object "
         "layers are ['things']"),
        ("crate.tmx", ["--pixels", "--start", "500,5"],
         "--start point (500.0, 5.0) is in cell (0, 15), outside the map"),
    ],
)  # fmt: skip
def test_show_on_a_tiled_level_names_what_is_wrong(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    map_name: str,
    extra: list[str],
    message: str,
) -> None:
    (tmp_path / "crate.tmx").write_text(CRATE)
    (tmp_path / "rooms.txt").write_text("....\n....\n")
    args = ["show", str(tmp_path / map_name), "--start", "0,0", "--goal", "1,1"]
    assert main([*args, *extra, "-o", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err


def test_show_checks_the_cover_rule() -> None:
    with pytest.raises(SystemExit) as stop:
        main(["show", "x.tmx", "--start", "0,0", "--goal", "1,1", "--cover", "half"])
    assert stop.value.code == 2


def test_solve_says_a_tiled_level_is_drawn_with_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(bundled_level()), "level.scen"]) == 2
    err = capsys.readouterr().err
    assert "dungeon.tmx is a Tiled level: draw searches on it with pathcraft show" in err


def test_solve_says_an_ldtk_level_is_drawn_with_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(bundled_ldtk()), "level.scen"]) == 2
    err = capsys.readouterr().err
    assert "dungeon.ldtk is an LDtk project: draw searches on it with pathcraft show" in err
    # a level given where the scenario file goes
    assert main(["solve", "den.map", str(bundled_level())]) == 2
    assert "dungeon.tmx is a Tiled level: draw searches" in capsys.readouterr().err


@pytest.mark.parametrize("level", [None, "Cellar", "1", "-1"])
def test_show_reads_an_ldtk_level_in_cells_and_pixels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], level: str | None
) -> None:
    project = read_ldtk(bundled_ldtk(), 0 if level is None else level if level == "Cellar"
                        else int(level))  # fmt: skip
    grid = project.grid()
    free = np.argwhere(grid.walkable)
    start = tuple(int(v) for v in free[0])
    goal = next(tuple(int(v) for v in cell) for cell in free[::-1]
                if grid.find_path(start, tuple(cell)))  # the last cell reachable  # fmt: skip
    want = grid.find_path(start, goal).cost
    out = tmp_path / "level.png"
    chosen = [] if level is None else ["--level", level]
    cells = ["--start", f"{start[0]},{start[1]}", "--goal", f"{goal[0]},{goal[1]}"]
    assert main(["show", str(bundled_ldtk()), *chosen, *cells, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"from ({start[0]},{start[1]}) to ({goal[0]},{goal[1]})" in printed
    assert _cost(printed) == pytest.approx(want, abs=0.01)
    assert out.stat().st_size > 0
    # the same ends as level pixels (x, y), anywhere inside their cells
    w, h = project.tile_size
    sx, sy = start[1] * w + w - 1, start[0] * h + 1
    gx, gy = goal[1] * w + 2, goal[0] * h + h - 2
    pixels = ["--pixels", "--start", f"{sx:g},{sy:g}", "--goal", f"{gx:g},{gy:g}"]
    assert main(["show", str(bundled_ldtk()), *chosen, *pixels, "--layer", "Collisions",
                 "-o", str(out)]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    assert f"from ({start[0]},{start[1]}) to ({goal[0]},{goal[1]})" in printed
    assert _cost(printed) == pytest.approx(want, abs=0.01)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--level", "Attic"], "no level 'Attic'; the levels are ['Dungeon', 'Cellar']"),
        (["--level", "7"], "dungeon.ldtk"),
        (["--layer", "Floor"], "Floor"),
        (["--obstacles", "Markers"], "--obstacles and --cover are for Tiled object layers"),
        (["--cover", "center"], "an LDtk level's walls are its IntGrid values"),
        (["--pixels", "--start", "900,5"], "--start point (900.0, 5.0) is in cell"),
        (["--pixels", "--start", "24,152"], "--pixels: start (9, 1) is a wall; positions are "
         "pixels (x, y): start (152, 24), swapped, is in the walkable cell (1, 9): did you "
         "mean it?"),
        (["--pixels", "--start", "40,40", "--goal", "24,152"], "--pixels: goal (9, 1) is a "
         "wall; positions are pixels (x, y): goal (152, 24), swapped"),
    ],
)
def test_show_on_an_ldtk_level_names_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    args = ["show", str(bundled_ldtk()), "--start", "1,1", "--goal", "1,2", *extra]
    assert main([*args, "-o", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err
