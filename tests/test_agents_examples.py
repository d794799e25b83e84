"""The agent examples run: the chase headless until the enemy catches the player, the
crowd to a GIF."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str) -> dict:
    return runpy.run_path(str(EXAMPLES / name), run_name="example")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_chase_runs_headless_and_the_enemy_catches_the_player(seed: int) -> None:
    pytest.importorskip("pygame")
    result = load("chase.py")["main"](frames=400, headless=True, seed=seed)
    assert result["caught"] and result["frame"] <= 400
    assert result["searches"] >= 1


def test_the_crowd_leaves_the_room_into_a_gif(tmp_path: Path) -> None:
    pytest.importorskip("pyrvo")
    pil = pytest.importorskip("PIL.Image")
    out = tmp_path / "crowd.gif"
    result = load("crowd.py")["main"](str(out), agents=120)
    assert result["exited"] and result["time"] <= 60.0
    with pil.open(out) as gif:
        assert gif.n_frames == result["frames"] > 10
