"""The squad example: two squads swap sides of a level through doors one cell wide,
run headless, every step checked by the independent conflict checker of the tests."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest
from _mapf import assert_solution, grid_step

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_squads_cross_through_the_doors_without_a_collision(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    pytest.importorskip("PIL")
    main = runpy.run_path(str(EXAMPLES / "squad_doors.py"), run_name="example")["main"]
    gif = tmp_path / "squads.gif"
    out = main(steps=60, headless=True, gif=str(gif))
    cells, goals, grid = out["cells"], out["goals"], out["grid"]
    trails = [list(t) for t in zip(*cells, strict=True)]  # per unit, a cell per step
    assert len(trails) == 16 and all(len(t) == 61 for t in trails)
    step_ok = grid_step(grid.walkable, "never")
    assert_solution(trails, [t[0] for t in trails], goals, step_ok, following=True)
    assert out["arrived"] is not None and out["arrived"] <= 60
    assert all(t[-1] == g for t, g in zip(trails, goals, strict=True))
    # they went through the doors: every unit crossed both inner walls (columns 8, 16)
    for trail in trails:
        cols = np.array([c for _, c in trail])
        assert cols.min() <= 2 and cols.max() >= 21
    assert gif.stat().st_size > 1000
