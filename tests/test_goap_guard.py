"""The guard example: a GOAP agent patrols, checks a noise, fetches ammo at the nearer
armory, chases and stops the thief; headless (no window), and in pygame's dummy driver
when pygame is installed."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest
from _grids import oracle

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "goap_guard.py"


def guard() -> dict[str, Any]:
    return runpy.run_path(str(EXAMPLE), run_name="example")


def check_night(result: dict[str, Any]) -> None:
    events = result["events"]
    goals = [goal for goal, _, _ in result["plans"]]
    assert goals[0] == "patrol"
    assert goals.index("check_noise") < goals.index("stop_thief")
    better = [e for e in events if e.kind == "replan" and e.reason == "better_goal"]
    assert [e.goal for e in better] == ["patrol", "patrol"]  # the noise, then the thief
    assert result["thief_down"] and result["frame"] < 800
    # the thief plan: ammo at an armory, the nearer one by path cost from the guard
    (hunt, where) = next((p, n) for g, p, n in result["plans"] if g == "stop_thief")
    go, reload, *rest = hunt
    assert rest == ["chase", "shoot"] and reload == "reload_" + go.removeprefix("go_to_")
    tick = next(e.tick for e in events if e.kind == "plan" and e.goal == "stop_thief")
    start = next(e for e in events if e.kind == "start" and e.tick >= tick)
    assert start.action == go
    # the armory chosen is the nearer by the oracle's path cost from where it stood
    grid, places = result["grid"], result["places"]
    costs = oracle(grid.cost, grid.diagonal, [where])
    nearer = min(places.names, key=lambda n: costs[places.node(n)])
    assert go == "go_to_" + nearer
    assert len({costs[places.node(n)] for n in places.names}) == 2  # a real choice


def test_the_guard_runs_its_night_headless() -> None:
    check_night(guard()["run"](900))


def test_the_guard_runs_in_pygame_with_the_dummy_driver() -> None:
    pytest.importorskip("pygame")
    check_night(guard()["main"](frames=900, headless=True))
