"""Windowed cooperative A* (WHCA*): every solution passes the independent conflict
checker of tests/_mapf.py; its limits end in falsy results with their reasons."""

from __future__ import annotations

import numpy as np
import pytest
from _mapf import assert_solution, grid_step, random_instance
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.mapf import Problem, solve


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    agents=st.integers(1, 10),
    rule=st.sampled_from(("never", "no_corner_cut")),
    following=st.booleans(),
    window=st.integers(1, 8),
)
def test_whca_solutions_pass_the_independent_checker(
    seed: int, agents: int, rule: str, following: bool, window: int
) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (6, 7), 0.15, agents)
    problem = Problem(
        Grid.from_walkable(walkable, diagonal=rule), starts, goals, following=following
    )
    result = solve(problem, solver="whca", window=window, time_limit=2.0, max_steps=200)
    if result:
        assert_solution(result.paths, starts, goals, grid_step(walkable, rule), following=following)
        assert result.sum_of_costs >= result.lower_bound
    else:
        assert result.status in ("no solution", "time limit", "iteration limit")
        assert result.reason
        if result.status == "no solution":
            assert any(problem.distances(a)[problem.starts[a]] < 0 for a in range(agents))


def test_whca_crosses_a_door_both_ways() -> None:
    grid = Grid.from_ascii(
        """
        ....#....
        ....#....
        .........
        ....#....
        ....#....
        """.replace(" ", "").strip(),
        diagonal="never",
    )
    starts = [(r, c) for r in range(5) for c in range(2)]
    goals = [(r, 8 - c) for r in range(5) for c in range(2)]
    result = solve(grid, starts + goals, goals + starts, solver="whca", window=12)
    assert result, result.reason
    assert_solution(result.paths, starts + goals, goals + starts, grid_step(np.isfinite(grid.cost)))
    assert result.stats["rounds"] >= 2


def test_whca_options_and_limits() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    with pytest.raises(ValueError, match="window must be an int >= 1"):
        solve(grid, [(0, 0)], [(0, 2)], solver="whca", window=0)
    with pytest.raises(ValueError, match=r"replan must be an int from 1 to window \(4\)"):
        solve(grid, [(0, 0)], [(0, 2)], solver="whca", window=4, replan=5)
    # two agents that must swap in a corridor: WHCA* cannot, and says why
    result = solve(grid, [(0, 0), (0, 2)], [(0, 2), (0, 0)], solver="whca")
    assert not result and result.status == "iteration limit"
    assert "WHCA* is incomplete" in result.reason
    long = Grid.from_ascii("." * 30, diagonal="never")
    result = solve(long, [(0, 0)], [(0, 29)], solver="whca", window=4, max_steps=8)
    assert not result and result.status == "iteration limit"
    assert "max_steps=8" in result.reason and result.stats["steps"] == 8
    cut = Grid.from_ascii(".#.", diagonal="never")
    result = solve(cut, [(0, 0)], [(0, 2)], solver="whca")
    assert not result and result.status == "no solution"
