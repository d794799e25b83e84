"""What adopting a plan costs a pursuer: a grid path's step costs (a loop over short
lists, arrays over long ones, the same floats; their sum is the search's cost) and a
path that keeps only what is ahead of the pursuer, however long the chase."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pathcraft.grid._space as grid_space
from pathcraft import Grid
from pathcraft.agents import GridSpace, Pursuer


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    diagonal=st.sampled_from(["never", "always", "no_corner_cut"]),
    side=st.integers(2, 40),
)
def test_short_and_long_step_costs_are_the_same_floats_summing_to_the_cost(
    seed: int, diagonal: str, side: int
) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 9, (side, side)).astype(np.float32) / 2
    cost[rng.random((side, side)) < 0.2] = np.inf
    cost[0, 0] = cost[-1, -1] = 1.0
    grid = Grid(cost, diagonal=diagonal)
    space = GridSpace(grid)
    result = space.find_path((0, 0), (side - 1, side - 1))
    if not result:
        return
    nodes = space.nodes(result)
    assert all(type(r) is int and type(c) is int for r, c in nodes)
    short = space.step_costs(nodes)  # the loop (paths of at most _SHORT cells)
    arrays = space.step_costs(np.array(nodes))  # an array is never looped over
    assert short.dtype == arrays.dtype == np.float64
    assert short.tolist() == arrays.tolist()
    assert float(short.sum()) == pytest.approx(result.cost, rel=1e-9)


def test_lists_longer_than_the_loop_takes_go_by_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    grid = Grid(np.arange(1.0, 26.0).reshape(5, 5), diagonal="always")
    space = GridSpace(grid)
    path = [(0, 0), (1, 1), (1, 2), (2, 2), (3, 3), (4, 3)]
    looped = space.step_costs(path).tolist()
    monkeypatch.setattr(grid_space, "_SHORT", 2)
    assert space.step_costs(path).tolist() == looped
    assert looped == pytest.approx([7 * 2**0.5, 8, 13, 19 * 2**0.5, 24])
    assert space.step_costs(path[:1]).shape == (0,)


@pytest.mark.parametrize("opts", [{}, {"frame_budget": 12}, {"time_budget_us": 50.0}])
def test_a_long_chase_keeps_only_the_path_ahead(opts: dict) -> None:
    grid = Grid(np.ones((40, 40)), diagonal="never")
    corners = [(39, 39), (0, 39), (39, 0), (0, 0)]
    enemy = Pursuer(grid, (20, 20), speed=8.0, **opts)
    longest = 2 * 39  # cells of the longest shortest path on this map, less one
    for frame in range(3000):  # 50 s at 8 cells a second: about 400 cells walked
        target = corners[(frame // 150) % 4] if frame % 2 else (20, 20 + frame % 7)
        enemy.step(target, dt=1 / 60)
        # the walked prefix is dropped at each plan: what is kept is at most a plan's
        # path and the partial path walked meanwhile, not the whole walk
        assert len(enemy._path) <= 2 * (longest + 1)
    assert enemy.plans > 100 and enemy.status == "chasing"
    assert enemy.node in enemy._path[:2]
