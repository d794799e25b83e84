"""The pictures of the command line: ``pathcraft demo`` and ``pathcraft show``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from pathcraft.cli import main

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("matplotlib")

from pathcraft.viz._image import (  # noqa: E402
    GOAL_RGB,
    PALETTE,
    PATH,
    PATH_RGB,
    SCALE_FIRST,
    START_RGB,
    WALL_RGB,
)
from pathcraft.viz.grid import _panel_size  # noqa: E402

SCALE = {tuple(rgb) for rgb in PALETTE[SCALE_FIRST:PATH].tolist()}

TEXT_MAP = """\
..........
.######...
.#....#...
......#...
"""


def read_png(path: Path) -> npt.NDArray[np.uint8]:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def halves(picture: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """Explored-coloured pixels in the left and the right half of a picture."""
    explored = np.zeros(picture.shape[:2], dtype=bool)
    flat = picture.reshape(-1, 3)
    codes = flat[:, 0].astype(np.int64) << 16 | flat[:, 1].astype(np.int64) << 8 | flat[:, 2]
    scale = np.array([r << 16 | g << 8 | b for r, g, b in SCALE])
    explored = np.isin(codes, scale).reshape(picture.shape[:2])
    middle = picture.shape[1] // 2
    return int(explored[:, :middle].sum()), int(explored[:, middle:].sum())


def has(picture: npt.NDArray[np.uint8], rgb: tuple[int, int, int]) -> int:
    return int((picture == rgb).all(axis=2).sum())


@pytest.fixture()
def text_map(tmp_path: Path) -> Path:
    path = tmp_path / "rooms.txt"
    path.write_text(TEXT_MAP)
    return path


def test_demo_writes_astar_beside_dijkstra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo.png"
    assert main(["demo", "--scenarios", "3", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"Wrote {out.resolve()}: A* beside Dijkstra from (" in printed
    picture = read_png(out)
    width, height = _panel_size((209, 281))
    assert picture.shape == pytest.approx((height * 100, (2 * width + 1) * 100, 3), abs=1)
    astar, dijkstra = halves(picture)
    assert 0 < astar < dijkstra
    assert has(picture, PATH_RGB) > 100 and has(picture, WALL_RGB) > 10_000
    assert has(picture, START_RGB) > 20 and has(picture, GOAL_RGB) > 20


def test_demo_writes_to_the_current_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--scenarios", "2"]) == 0
    assert (tmp_path / "pathcraft-demo.png").is_file()
    assert str(tmp_path / "pathcraft-demo.png") in capsys.readouterr().out


def _without_viz(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "pathcraft.viz" or m.startswith("pathcraft.viz.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)


def test_demo_without_the_extra_says_how_to_install_it_and_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without_viz(monkeypatch)
    out = tmp_path / "demo.png"
    assert main(["demo", "--scenarios", "2", "-o", str(out)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    hint = 'install the viz extra: pip install "pathcraft[viz]"'
    assert last == f"To also draw A* beside Dijkstra in {out}, {hint}"
    assert not out.exists()


def test_show_draws_several_algorithms_side_by_side(
    movingai: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "den.png"
    map_path = movingai / "maps" / "dao" / "den520d.map"
    args = ["show", str(map_path), "--start", "2,244", "--goal", "204,18"]
    assert main([*args, "--algorithm", "astar,dijkstra", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"Wrote {out.resolve()}: den520d.map from (2,244) to (204,18); A*:")
    assert "; Dijkstra: cost" in printed
    picture = read_png(out)
    astar, dijkstra = halves(picture)
    assert 0 < astar < dijkstra
    assert has(picture, PATH_RGB) > 100


def test_show_draws_jump_point_search(
    movingai: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "den-jps.png"
    map_path = movingai / "maps" / "dao" / "den520d.map"
    args = ["show", str(map_path), "--start", "2,244", "--goal", "204,18"]
    assert main([*args, "--algorithm", "jps,astar", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "; JPS: cost" in printed or ": JPS: cost" in printed
    assert "A*: cost" in printed
    jps, astar = halves(read_png(out))
    assert 0 < jps < astar  # JPS expands far fewer cells than A*


def test_show_writes_a_gif_of_one_search(
    text_map: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rooms.gif"
    args = ["show", str(text_map), "--start", "3,0", "--goal", "2,5", "--algorithm", "dijkstra"]
    assert main([*args, "--gif", "--frames", "5", "-o", str(out)]) == 0
    assert "Dijkstra: cost" in capsys.readouterr().out
    with Image.open(out) as image:
        assert image.n_frames == 6 and image.size == (600, 240)  # 60 pixels per cell
        image.seek(5)
        last = np.asarray(image.convert("RGB"))
    assert tuple(last[1 * 60 + 30, 3 * 60 + 30]) == WALL_RGB  # cell (1, 3)
    assert tuple(last[3 * 60 + 30, 0 * 60 + 30]) == START_RGB  # cell (3, 0)
    assert tuple(last[2 * 60 + 30, 5 * 60 + 30]) == GOAL_RGB  # cell (2, 5)
    assert has(last, PATH_RGB) > 60 * 60


def test_show_default_output_is_named_after_the_map(
    text_map: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["show", str(text_map), "--start", "0,0", "--goal", "3,9"]) == 0
    assert read_png(tmp_path / "rooms-astar.png").shape[2] == 3
    assert main(["show", str(text_map), "--start", "0,0", "--goal", "3,9", "--gif"]) == 0
    assert (tmp_path / "rooms-astar.gif").is_file()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--start", "1,1", "--goal", "0,0"], "start (1, 1) is a wall"),
        (["--start", "0,0", "--goal", "9,0"], "goal (9, 0) is outside the grid of shape (4, 10)"),
        (
            ["--start", "0,0", "--goal", "3,9", "--algorithm", "astar,greedy", "--gif"],
            "--gif animates one search; got 2: astar,greedy",
        ),
        (["--start", "0,0", "--goal", "3,9", "--gif", "-o", "x.png"], "--gif writes a .gif file"),
        (["--start", "0,0", "--goal", "3,9", "-o", "x.gif"], "add --gif to write a GIF"),
        (["--start", "0,0", "--goal", "3,9", "-o", "x.doc"], "--output must end in one of .gif"),
    ],
)
def test_show_refuses_bad_queries_with_a_clear_error(
    text_map: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["show", str(text_map), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pathcraft show: error: ") and message in err
    assert list(tmp_path.iterdir()) == [text_map]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--start", "1;1", "--goal", "0,0"], "expected ROW,COL (two whole numbers"),
        (["--start", "1,1,1", "--goal", "0,0"], "got '1,1,1'"),
        (["--start", "0,0"], "the following arguments are required: --goal"),
        (["--start", "0,0", "--goal", "3,9", "--algorithm", "bfs"], "unknown algorithm 'bfs'"),
    ],
)
def test_show_arguments_are_checked_by_the_parser(
    text_map: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["show", str(text_map), *extra])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_show_reports_a_missing_map_and_a_missing_extra(
    tmp_path: Path,
    text_map: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["show", str(tmp_path / "none.map"), "--start", "0,0", "--goal", "1,1"]) == 2
    assert "none.map" in capsys.readouterr().err
    _without_viz(monkeypatch)
    assert main(["show", str(text_map), "--start", "0,0", "--goal", "3,9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pathcraft show: error: pathcraft.viz needs matplotlib")
    assert 'pip install "pathcraft[viz]"' in err
