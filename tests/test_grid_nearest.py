"""The nearest walkable cell (``Grid.nearest_walkable``) against a brute-force oracle:
the argmin of squared distances over every walkable cell, ties to the smallest
``(row, col)``, for cells inside and outside random grids (all-wall grids too); and
``snap=True`` on ``find_path`` and ``start_search``: the same answer as the query from
the snapped cells."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft._options import UnsupportedOptionError


def oracle(walkable: np.ndarray, cell: tuple[int, int], limit: float | None) -> tuple[int, int]:
    """The nearest walkable cell by brute force, or (-1, -1)."""
    rows, cols = np.nonzero(walkable)  # row-major: ties keep the smallest (row, col)
    if rows.size == 0:
        return (-1, -1)
    d2 = (rows - cell[0]) ** 2 + (cols - cell[1]) ** 2
    k = int(np.argmin(d2))
    if limit is not None and d2[k] > limit * limit:
        return (-1, -1)
    return int(rows[k]), int(cols[k])


@st.composite
def grids(draw: Any) -> np.ndarray:
    rows, cols = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    density = draw(st.sampled_from([0.0, 0.02, 0.2, 0.5, 0.9, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    walkable = np.random.default_rng(seed).random((rows, cols)) < density
    return walkable


@given(
    walkable=grids(),
    cells=st.lists(st.tuples(st.integers(-25, 40), st.integers(-25, 40)), min_size=1, max_size=8),
    limit=st.one_of(st.none(), st.floats(0, 30), st.integers(0, 12)),
)
def test_nearest_walkable_equals_the_brute_force_oracle(
    walkable: np.ndarray, cells: list[tuple[int, int]], limit: float | None
) -> None:
    grid = Grid(np.where(walkable, 1.0, np.inf))
    expected = [oracle(walkable, c, limit) for c in cells]
    many = grid.nearest_walkable(np.array(cells), max_distance=limit)
    assert isinstance(many, np.ndarray) and many.dtype == np.intp
    assert many.tolist() == [list(e) for e in expected]
    for cell, want in zip(cells, expected, strict=True):
        one = grid.nearest_walkable(cell, max_distance=limit)
        assert one == (None if want[0] < 0 else want)


def test_a_walkable_cell_is_its_own_answer_and_ties_go_to_the_smallest_cell() -> None:
    grid = Grid.from_ascii("""
    .#.
    ###
    .#.
    """)
    assert grid.nearest_walkable((2, 2)) == (2, 2)
    assert grid.nearest_walkable((1, 1)) == (0, 0)  # four corners at sqrt(2)
    assert grid.nearest_walkable((1, 2)) == (0, 2)  # (0, 2) and (2, 2) at 1
    assert grid.nearest_walkable((2, 1)) == (2, 0)


def test_far_outside_cells_and_all_walls_answer_without_raising() -> None:
    grid = Grid(np.ones((3, 4)))
    assert grid.nearest_walkable((-10**6, 10**6)) == (0, 3)
    assert grid.nearest_walkable((-10**6, 10**6), max_distance=10) is None
    walls = Grid(np.full((5, 5), np.inf))
    assert walls.nearest_walkable((2, 2)) is None
    assert walls.nearest_walkable([(2, 2), (9, 9)]).tolist() == [[-1, -1], [-1, -1]]
    assert Grid(np.ones((2, 2))).nearest_walkable(np.zeros((0, 2), dtype=int)).shape == (0, 2)


def test_the_search_looks_at_the_neighbourhood_not_the_map() -> None:
    big = np.full((3000, 3000), np.inf)
    big[1500, 1503] = 1.0
    big[0, 0] = 1.0
    grid = Grid(big)
    assert grid.nearest_walkable((1500, 1500)) == (1500, 1503)
    assert grid.nearest_walkable((1500, 1500), max_distance=2) is None


@pytest.mark.parametrize(
    ("cells", "kwargs", "error", "match"),
    [
        ((0.5, 1), {}, TypeError, "cells must be .row, col. integers"),
        ((True, 1), {}, TypeError, "not True or False"),
        ("ab", {}, TypeError, "cells must be"),
        ((1, 2, 3), {}, ValueError, "shape"),
        ((2**40, 0), {}, ValueError, "2\\*\\*29"),
        ((0, 0), {"max_distance": -1}, ValueError, "max_distance must be a number >= 0"),
        ((0, 0), {"max_distance": float("nan")}, ValueError, "max_distance"),
        ((0, 0), {"max_distance": "far"}, TypeError, "max_distance"),
        ((0, 0), {"max_distance": True}, TypeError, "max_distance"),
    ],
)
def test_bad_input_is_named(cells: Any, kwargs: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        Grid(np.ones((3, 3))).nearest_walkable(cells, **kwargs)


# --------------------------------------------------------------------------- snap=


@given(
    walkable=grids(),
    start=st.tuples(st.integers(-4, 16), st.integers(-4, 16)),
    goal=st.tuples(st.integers(-4, 16), st.integers(-4, 16)),
    algorithm=st.sampled_from(["astar", "dijkstra", "greedy"]),
)
def test_find_path_with_snap_is_the_query_from_the_snapped_cells(
    walkable: np.ndarray, start: tuple[int, int], goal: tuple[int, int], algorithm: str
) -> None:
    grid = Grid(np.where(walkable, 1.0, np.inf))
    s, g = oracle(walkable, start, None), oracle(walkable, goal, None)
    if s[0] < 0:  # no walkable cell: snapping cannot help, the cell is refused
        with pytest.raises(ValueError, match="start"):
            grid.find_path(start, goal, algorithm=algorithm, snap=True)  # type: ignore[arg-type]
        return
    got = grid.find_path(start, goal, algorithm=algorithm, snap=True)  # type: ignore[arg-type]
    want = grid.find_path(s, g, algorithm=algorithm)  # type: ignore[arg-type]
    assert got.path.tolist() == want.path.tolist()
    assert got.cost == want.cost and got.found == want.found
    search = grid.start_search(start, goal, algorithm=algorithm, snap=True)  # type: ignore[arg-type]
    search.step()
    assert search.result.path.tolist() == want.path.tolist()


def test_snap_false_keeps_the_error_and_every_algorithm_takes_snap() -> None:
    grid = Grid.from_ascii("""
    .....
    .###.
    .....
    """)
    with pytest.raises(ValueError, match=r"goal \(1, 2\) is a wall"):
        grid.find_path((0, 0), (1, 2))
    with pytest.raises(ValueError, match="is a wall"):
        grid.find_path((0, 0), (1, 2), snap=False)
    for algorithm in ("astar", "dijkstra", "greedy", "jps", "theta"):
        r = grid.find_path((1, 2), (9, 9), algorithm=algorithm, snap=True)  # type: ignore[arg-type]
        assert r.path[0].tolist() == [0, 2] and r.path[-1].tolist() == [2, 4], algorithm
    assert grid.astar((1, 1), (2, 4), snap=True).path[0].tolist() == [0, 1]
    with pytest.raises(TypeError, match="snap must be True or False"):
        grid.find_path((0, 0), (1, 2), snap="yes")  # type: ignore[typeddict-item]
    with pytest.raises(UnsupportedOptionError):
        grid.find_path((0, 0), (0, 4), algorithm="jps", snap=True, tie_break="fifo")


def test_snap_with_a_unit_size_moves_to_where_the_unit_fits() -> None:
    grid = Grid.from_ascii("""
    ......
    ......
    ..#...
    ......
    """)
    r = grid.find_path((2, 2), (0, 4), size=2, snap=True)
    assert r.found
    start = tuple(r.path[0].tolist())
    assert start == grid.for_size(2).nearest_walkable((2, 2))
    assert r.path.tolist() == grid.find_path(start, (0, 4), size=2).path.tolist()


def test_snap_moves_each_of_several_dijkstra_sources() -> None:
    grid = Grid.from_ascii("""
    .....
    ..#..
    """)
    r = grid.find_path([(1, 2), (9, -9)], (1, 4), algorithm="dijkstra", snap=True)
    want = grid.find_path([(0, 2), (1, 0)], (1, 4), algorithm="dijkstra")
    assert r.path.tolist() == want.path.tolist() == [[0, 2], [0, 3], [1, 4]]


def test_batches_and_path_cost_snap_every_start_and_goal() -> None:
    grid = Grid.from_ascii("""
    .....
    ..#..
    """)
    starts, goals = [(1, 2), (5, 5)], [(-3, 0), (1, 2)]
    snapped_starts, snapped_goals = [(0, 2), (1, 4)], [(0, 0), (0, 2)]
    got = grid.find_paths(starts, goals, snap=True)  # type: ignore[call-arg]
    want = grid.find_paths(snapped_starts, snapped_goals)
    assert [r.path.tolist() for r in got] == [r.path.tolist() for r in want]
    costs = grid.path_costs(starts, goals, snap=True)  # type: ignore[call-arg]
    assert costs.tolist() == grid.path_costs(snapped_starts, snapped_goals).tolist()
    assert grid.path_cost((1, 2), (-3, 0), snap=True) == grid.path_cost((0, 2), (0, 0))
    with pytest.raises(ValueError, match="outside the grid"):
        grid.find_paths(starts, goals)
