"""The game side of pathcraft.mapf: a shared reservation table and cooperative planning
per turn. Squads cross a level through doors one cell wide, every turn checked by the
independent conflict checker of tests/_mapf.py."""

from __future__ import annotations

import numpy as np
import pytest
from _mapf import assert_solution, grid_step

from pathcraft import Graph, Grid
from pathcraft.mapf import Cooperative, Reservations


def _level(rows: int = 30, half: int = 12, doors: tuple[int, ...] = (4, 12, 20, 27)):
    walkable = np.ones((rows, 2 * half + 1), dtype=bool)
    walkable[:, half] = False
    walkable[list(doors), half] = True
    return walkable


def _squads(seed: int, units: int, rows: int = 30, half: int = 12):
    rng = np.random.default_rng(seed)
    left = [(r, c) for r in range(rows) for c in range(half)]
    right = [(r, c) for r in range(rows) for c in range(half + 1, 2 * half + 1)]

    def pick(cells: list, k: int) -> list:
        return [cells[i] for i in rng.choice(len(cells), k, replace=False)]

    a, b = units // 2, units - units // 2
    return pick(left, a) + pick(right, b), pick(right, a) + pick(left, b)


def _cross(units: int, seed: int, window: int = 16, turns: int = 300) -> tuple[int, list]:
    walkable = _level()
    grid = Grid.from_walkable(walkable, diagonal="never")
    here, goals = _squads(seed, units)
    coop = Cooperative(grid, window=window)
    walked = [[cell] for cell in here]
    for turn in range(turns):
        if here == goals:
            return turn, walked
        plans = coop.plan(here, goals)
        assert all(len(p) == window + 1 and p[0] == h for p, h in zip(plans, here, strict=True))
        # the plans of one turn never collide, for the whole window
        assert_solution(plans, here, [p[-1] for p in plans], grid_step(walkable))
        here = [p[1] for p in plans]
        for path, cell in zip(walked, here, strict=True):
            path.append(cell)
    return turns, walked


@pytest.mark.parametrize(("units", "seed"), [(50, 1), (100, 2)])
def test_squads_cross_through_doors_without_colliding(units: int, seed: int) -> None:
    turns, walked = _cross(units, seed)
    here, goals = _squads(seed, units)
    assert turns < 300, "the squads did not all arrive"
    assert_solution(walked, here, goals, grid_step(_level()))


@pytest.mark.slow
def test_two_hundred_units_cross_through_doors_without_colliding() -> None:
    turns, walked = _cross(200, 3)
    here, goals = _squads(3, 200)
    assert turns < 300, "the squads did not all arrive"
    assert_solution(walked, here, goals, grid_step(_level()))


def test_reservations_on_a_graph() -> None:
    # a triangle with a tail: 0 - 1 - 2 - 0, 2 - 3
    graph = Graph(4, [0, 1, 2, 2], [1, 2, 0, 3], directed=False, labels=list("abcd"))
    table = Reservations(graph)
    first = table.plan("a", "d")
    assert first == ["a", "c", "d"]
    table.reserve(first, until=5)
    assert not table.is_free("c", 1) and not table.is_free("d", 5) and table.is_free("d", 6)
    # from d to a while d and c are taken: wait for d to free up... it never leaves d
    # before 5, so the second unit (at b) must not enter c at 1 nor swap with it
    second = table.plan("b", "a")
    assert second[0] == "b" and second[-1] == "a"
    for t, place in enumerate(second):
        assert table.is_free(place, t)


def test_reservations_and_cooperative_refuse_bad_input() -> None:
    grid = Grid.from_ascii("...\n...", diagonal="never")
    with pytest.raises(TypeError, match="world must be a world that lists its places"):
        Reservations(object())
    table = Reservations(grid)
    with pytest.raises(ValueError, match=r"path\[1\] = \(5, 5\) is not a place"):
        table.reserve([(0, 0), (5, 5)])
    with pytest.raises(ValueError, match="start_time must be >= 0"):
        table.reserve([(0, 0)], start_time=-1)
    with pytest.raises(ValueError, match="is not a place of the world"):
        table.plan((0, 0), (9, 9))
    coop = Cooperative(grid, window=4)
    with pytest.raises(ValueError, match="positions must be distinct: units 0 and 1"):
        coop.plan([(0, 0), (0, 0)], [(1, 0), (1, 1)])
    with pytest.raises(ValueError, match="one entry per unit"):
        coop.plan([(0, 0)], [(1, 0), (1, 1)])
    with pytest.raises(ValueError, match="window must be an int >= 1"):
        Cooperative(grid, window=0)
    walled = Grid.from_ascii(".#.", diagonal="never")
    with pytest.raises(ValueError, match="unit 0 cannot reach its goal"):
        Cooperative(walled).plan([(0, 0)], [(0, 2)])
    here = [(0, 0), (1, 2)]
    before = list(here)
    coop.plan(here, [(1, 2), (0, 0)])
    assert here == before


def test_cooperative_refuses_to_plan_on_a_world_edited_since() -> None:
    grid = Grid.from_ascii("....", diagonal="never")
    coop = Cooperative(grid, window=3)
    assert coop.step([(0, 0)], [(0, 3)]) == [(0, 1)]
    grid[0, 2] = np.inf  # the wall it would walk through with its old moves
    with pytest.raises(RuntimeError, match="edited after the helper was built"):
        coop.plan([(0, 1)], [(0, 3)])
    fresh = Cooperative(grid, window=3)
    with pytest.raises(ValueError, match="cannot reach"):
        fresh.plan([(0, 1)], [(0, 3)])
