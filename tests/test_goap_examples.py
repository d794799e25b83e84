"""The GOAP examples run and print the plans they promise."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(name: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out.splitlines()


def test_hunger_example(capsys: pytest.CaptureFixture[str]) -> None:
    out = run("goap_hunger.py", capsys)
    steps = [line.split()[1] for line in out[2:8]]
    assert out[0] == "hunger 3 -> 0: found"
    assert steps == ["search_berries", "gather_berries", "eat", "eat", "gather_berries", "eat"]
    assert out[7].endswith("'hunger': 0}") and out[8].startswith("  total cost 7,")
    assert out[9] == "within 4 actions: no plan (max_depth)"
    assert out[-1].startswith("  total cost 0,")


def test_soldier_example(capsys: pytest.CaptureFixture[str]) -> None:
    out = run("goap_soldier.py", capsys)
    plans = {line.split(":")[0].strip(): line.split(":", 1)[1] for line in out if ":" in line}
    rifle = "take_cover, pick_up_rifle, reload, shoot, shoot, shoot  [cost 7,"
    assert plans["rifle nearby, two clips"].strip().startswith(rifle)
    assert "draw_knife, approach, stab, stab  [cost 8.5," in plans["no rifle around"]
    assert "take_cover, throw_grenade  [cost 2," in plans["a grenade in the pocket"]
    assert plans["unarmed"].strip() == "no plan (unreachable)"
    assert plans["knife only, at most 2 actions"].strip() == "no plan (max_depth)"
    agents = [plans[f"seed {s}"].split("[")[0].strip() for s in range(4)]
    assert set(agents) == {"take_cover, shoot", "take_cover, throw_grenade"}
    assert all("[cost 2," in plans[f"seed {s}"] for s in range(4))
