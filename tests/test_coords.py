"""Game coordinates: cells <-> pixels both ways (y down and y up), vectorised, pygame
Vector2 accepted; paths found between pixel positions are, back in cells, legal and
optimal (oracle: scipy's Dijkstra on the same grid, and the same query on cells)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from _grids import RULES, assert_answer, cases, oracle
from hypothesis import given
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import Pursuer
from pathcraft.coords import TileCoords

sizes = st.tuples(st.sampled_from([1.0, 8.0, 16.0, 24.0, 32.5]),
                  st.sampled_from([1.0, 8.0, 16.0, 20.0]))  # fmt: skip
origins = st.tuples(st.integers(-500, 500), st.integers(-500, 500))


@given(size=sizes, origin=origins, y_up=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_point_of_a_cell_maps_back_to_it(
    size: tuple[float, float], origin: tuple[int, int], y_up: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 30)), int(rng.integers(1, 30)))
    tiles = TileCoords(size, origin=origin, y_up=y_up, shape=shape)
    cells = np.column_stack((rng.integers(0, shape[0], 50), rng.integers(0, shape[1], 50)))
    centres = tiles.to_pixels(cells)
    np.testing.assert_array_equal(tiles.to_cells(centres), cells)
    # Any point strictly inside the cell, and the cell's corner of smallest pixel coordinates
    # (the map covers [origin, origin + size) on both axes) belong to it.
    jitter = (rng.random((50, 2)) - 0.5) * 0.98 * np.array(size)
    np.testing.assert_array_equal(tiles.to_cells(centres + jitter), cells)
    corner = tiles.to_pixels(cells, anchor="bottom_left" if y_up else "top_left")
    np.testing.assert_array_equal(tiles.to_cells(corner), cells)
    units = tiles.pixels_to_units(centres)
    np.testing.assert_allclose(units, cells[:, ::-1] + 0.5, atol=1e-9)
    np.testing.assert_allclose(tiles.units_to_pixels(units), centres, atol=1e-9)


def test_y_up_puts_row_zero_at_the_top_and_the_origin_at_the_bottom_left() -> None:
    tiles = TileCoords(10, origin=(5, 100), y_up=True, shape=(3, 4))
    assert tiles.pixel((2, 0), anchor="bottom_left") == (5.0, 100.0)
    assert tiles.pixel((0, 0), anchor="top_left") == (5.0, 130.0)
    assert tiles.pixel((0, 3)) == (40.0, 125.0)
    assert tiles.cell((5.0, 100.0)) == (2, 0)
    assert tiles.cell((5.0, 129.99)) == (0, 0)
    down = TileCoords(10, origin=(5, 100), shape=(3, 4))
    assert down.pixel((0, 0), anchor="top_left") == (5.0, 100.0)
    assert down.pixel((2, 3)) == (40.0, 125.0)


def test_pygame_vectors_tuples_lists_and_arrays_are_all_points() -> None:
    pygame = pytest.importorskip("pygame")
    tiles = TileCoords(16, shape=(4, 4))
    for point in ((40, 24), [40.0, 24.0], np.array([40.0, 24.0]), pygame.Vector2(40, 24)):
        assert tiles.cell(point) == (1, 2)
    many = tiles.to_cells([pygame.Vector2(40, 24), pygame.Vector2(1, 1)])
    assert many.tolist() == [[1, 2], [0, 0]]
    assert pygame.Vector2(tiles.pixel((1, 2))) == pygame.Vector2(40, 24)


@given(case=cases(max_side=25), size=sizes, origin=origins, y_up=st.booleans())
def test_paths_found_in_pixels_are_legal_and_optimal_in_cells(
    case, size: tuple[float, float], origin: tuple[int, int], y_up: bool
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    tiles = TileCoords(size, origin=origin, y_up=y_up, shape=grid.shape)
    rng = np.random.default_rng(case.seed)
    # Any point of the start and goal cells, not only their centres.
    start_px = tiles.pixel(case.start) + (rng.random(2) - 0.5) * 0.9 * np.array(size)
    goal_px = tiles.pixel(case.goal) + (rng.random(2) - 0.5) * 0.9 * np.array(size)
    result = tiles.find_path(grid, start_px, goal_px, units="tiles")
    want = float(oracle(case.cost, case.rule, [case.start])[case.goal])
    back = tiles.to_cells(result.path) if result.path.size else np.zeros((0, 2), dtype=np.intp)
    cells_result = grid.astar(case.start, case.goal)
    assert result.cost == cells_result.cost
    np.testing.assert_array_equal(back, cells_result.path)
    np.testing.assert_allclose(result.path, tiles.to_pixels(cells_result.path) if len(back) else
                               np.zeros((0, 2)))  # fmt: skip
    from dataclasses import replace

    assert_answer(case.cost, case.rule, replace(result, path=back), case.start, case.goal, want)


@pytest.mark.parametrize("algorithm", ["astar", "jps", "dijkstra", "greedy", "theta"])
def test_every_grid_search_runs_in_pixels(algorithm: str) -> None:
    grid = Grid.from_ascii("""
        ........
        .####...
        ........
    """)
    tiles = TileCoords(32, origin=(100, 100))
    result = tiles.find_path(grid, (110, 110), (100 + 7 * 32 + 5, 100 + 2 * 32 + 5),
                             algorithm=algorithm)  # fmt: skip
    assert result and result.path[0].tolist() == [116.0, 116.0]
    assert result.path[-1].tolist() == [100 + 7.5 * 32, 100 + 2.5 * 32]
    if algorithm != "greedy":
        cells = grid.find_path((0, 0), (2, 7), algorithm=algorithm)
        assert result.cost == pytest.approx(32 * cells.cost)
        assert tiles.find_path(grid, (110, 110), (100 + 7 * 32 + 5, 100 + 2 * 32 + 5),
                               algorithm=algorithm, units="tiles").cost == cells.cost  # fmt: skip


def test_no_path_keeps_an_empty_pixel_path() -> None:
    grid = Grid.from_ascii(".#.", diagonal="never")
    result = TileCoords(10).find_path(grid, (5, 5), (25, 5))
    assert not result and result.reason == "unreachable" and result.path.shape == (0, 2)


def test_a_pursuer_is_drawn_between_cells_in_pixels() -> None:
    grid = Grid.from_ascii("....", diagonal="never")
    tiles = TileCoords(16, origin=(8, 8))
    enemy = Pursuer(grid, (0, 0), speed=1.0)
    enemy.step((0, 3), dt=1.5)
    assert tiles.units_to_pixels([enemy.position]).tolist() == [[8 + 2.0 * 16, 8 + 0.5 * 16]]
    assert tiles.path_to_pixels(enemy.path).tolist() == [[48.0, 16.0], [64.0, 16.0]]


def test_bad_input_names_the_argument() -> None:
    with pytest.raises(ValueError, match="tile_size must be finite and > 0; got -1"):
        TileCoords(-1)
    with pytest.raises(TypeError, match="tile_size must be a number or a"):
        TileCoords("16")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="y_up=True needs shape"):
        TileCoords(16, y_up=True)
    with pytest.raises(ValueError, match="shape must be two integers > 0"):
        TileCoords(16, shape=(0, 3))
    with pytest.raises(ValueError, match="origin must be finite"):
        TileCoords(16, origin=(math.nan, 0))
    tiles = TileCoords(16, shape=(2, 2))
    with pytest.raises(TypeError, match=r"cells must be \(row, col\) integers"):
        tiles.to_pixels([(0.5, 1.0)])
    with pytest.raises(ValueError, match=r"points must be a \(x, y\) pair or an \(n, 2\) array"):
        tiles.to_cells([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="anchor must be one of"):
        tiles.to_pixels([(0, 0)], anchor="middle")  # type: ignore[arg-type]
    grid = Grid.from_ascii("..")
    with pytest.raises(ValueError, match=r"start \(-3.0, 5.0\) is in cell \(0, -1\), outside "
                       r"the map of shape \(1, 2\)"):  # fmt: skip
        TileCoords(16).find_path(grid, (-3.0, 5.0), (20, 5))
    with pytest.raises(ValueError, match="algorithm must be one of"):
        TileCoords(16).find_path(grid, (3, 5), (20, 5), algorithm="bfs")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"goal \(0, 1\) is a wall"):
        TileCoords(16).find_path(Grid.from_ascii(".#"), (3, 5), (20, 5))


@pytest.mark.parametrize("rule", RULES)
def test_a_pixel_query_answers_as_the_cell_query_with_options(rule: str) -> None:
    rng = np.random.default_rng(7)
    cost = rng.integers(1, 5, (30, 30)).astype(float)
    cost[rng.random((30, 30)) < 0.25] = np.inf
    cost[0, 0] = cost[29, 29] = 1.0
    grid = Grid(cost, diagonal=rule)
    tiles = TileCoords((8, 12), origin=(-40, 3), y_up=True, shape=grid.shape)
    got = tiles.find_path(grid, tiles.pixel((0, 0)), tiles.pixel((29, 29)), weight=1.5,
                          units="tiles")  # fmt: skip
    want = grid.astar((0, 0), (29, 29), weight=1.5)
    assert got.cost == want.cost and got.expanded == want.expanded


def test_bools_are_not_shape_or_cell_integers() -> None:
    for shape in ((True, 2), (2, np.False_)):
        with pytest.raises(TypeError, match=r"^shape must be two integers > 0"):
            TileCoords(16, shape=shape)
    tiles = TileCoords(16)
    for cells in ([(True, 0)], (0, False), [[1, 2], [np.True_, 3]]):
        with pytest.raises(TypeError, match=r"^cells must be \(row, col\) integers \(not True"):
            tiles.to_pixels(cells)
    with pytest.raises(TypeError, match=r"^cell must be \(row, col\) integers \(not True"):
        tiles.pixel((True, 1))
    assert tiles.to_pixels(np.array([[1, 2]], dtype=np.uint8)).tolist() == [[40.0, 24.0]]


@pytest.mark.parametrize(
    ("size", "point"),
    [(16, (1e300, 0)), (16, (2.0**70, 0)), (1e-300, (1e10, 0)), (16, (0, -1e300)),
     ((1, 1e-300), (0, 1e10)), (1.0, (2.0**63, 0)), (1.0, (-(2.0**63) - 4096, 0))],
)  # fmt: skip
def test_a_point_whose_cell_does_not_fit_int64_is_refused_by_name(
    size: Any, point: tuple[float, float]
) -> None:
    tiles = TileCoords(size)
    with pytest.raises(ValueError, match=r"^points\[1\] = .* beyond what a 64-bit integer holds"):
        tiles.to_cells([(0.0, 0.0), point])
    with pytest.raises(ValueError, match=r"^point \(.* beyond what a 64-bit integer holds"):
        tiles.cell(point)
    up = TileCoords(size, y_up=True, shape=(3, 3))
    with pytest.raises(ValueError, match=r"^points\[0\] = .* beyond what a 64-bit integer"):
        up.to_cells([point])
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError, match=r"^points must be finite"):
            tiles.to_cells([(bad, 0.0)])
    # the largest cell below 2**63 is still an answer
    assert TileCoords(1.0).to_cells([(2.0**62, 0.0)]).tolist() == [[0, 2**62]]


@given(
    size=sizes,
    origin=origins,
    y_up=st.booleans(),
    known=st.booleans(),
    x=st.one_of(st.floats(-2000, 2000), st.integers(-2000, 2000)),
    y=st.one_of(st.floats(-2000, 2000), st.integers(-2000, 2000)),
)
def test_cell_of_plain_numbers_is_the_checked_conversion(
    size: tuple[float, float], origin: tuple[int, int], y_up: bool, known: bool, x: Any, y: Any
) -> None:
    """``cell`` converts two plain numbers without NumPy: the same cell (or the same
    error) as the vectorised conversion."""
    shape = (13, 17) if known or y_up else None
    tiles = TileCoords(size, origin=origin, y_up=y_up, shape=shape)
    (want,) = tiles.to_cells([(x, y)]).tolist()
    inside = shape is None or (0 <= want[0] < shape[0] and 0 <= want[1] < shape[1])
    if inside:
        assert tiles.cell((x, y)) == tuple(want)
        assert tiles.cell([np.float64(x), np.float64(y)]) == tuple(want)
    else:
        with pytest.raises(ValueError, match="outside the map"):
            tiles.cell((x, y))
    for bad in ((math.nan, 0.0), (math.inf, 1.0), (1e300, 0.0)):
        with pytest.raises(ValueError):
            TileCoords(1e-300, shape=shape).cell(bad) if bad[0] == 1e300 else tiles.cell(bad)


@pytest.mark.parametrize("algorithm", ["astar", "jps", "dijkstra"])
@pytest.mark.parametrize("rule", RULES)
def test_a_cost_in_pixels_on_tiles_that_are_not_square_is_measured_step_by_step(
    algorithm: str, rule: str
) -> None:
    if algorithm == "jps" and rule in ("never", "one_free"):
        pytest.skip("jps runs on 8-connected rules without one_free")
    rng = np.random.default_rng(11)
    cost = rng.integers(1, 4, (12, 15)).astype(float)
    if algorithm == "jps":  # it runs on grids of one cost
        cost[:] = 2.0
    cost[rng.random(cost.shape) < 0.2] = np.inf
    cost[0, 0] = cost[11, 14] = 2.0
    grid = Grid(cost, diagonal=rule)
    assert grid.find_path((0, 0), (11, 14))
    tiles = TileCoords((16, 9), origin=(3, -7))
    got = tiles.find_path(grid, tiles.pixel((0, 0)), tiles.pixel((11, 14)), algorithm=algorithm)
    cells = grid.find_path((0, 0), (11, 14), algorithm=algorithm)
    full = [tuple(cells.path[0])]  # the cells the path enters, jump points filled in
    for a, b in zip(cells.path[:-1], cells.path[1:], strict=True):
        n = int(np.abs(b - a).max())
        full += [tuple(a + (b - a) // n * k) for k in range(1, n + 1)]
    want = 0.0
    for (r0, c0), (r1, c1) in itertools.pairwise(full):
        want += cost[r1, c1] * math.hypot((c1 - c0) * 16, (r1 - r0) * 9)
    assert got.cost == pytest.approx(want)
    with pytest.raises(ValueError, match=r"tiles of 16x9 px \(not square\).*units='tiles'"):
        tiles.find_path(Grid(np.ones((6, 6))), tiles.pixel((0, 0)), tiles.pixel((4, 4)), size=2)
    flat = Grid(np.where(np.isfinite(cost), 2.0, np.inf), diagonal=rule)
    theta = tiles.find_path(flat, tiles.pixel((0, 0)), tiles.pixel((11, 14)), algorithm="theta")
    corners = tiles.to_pixels(flat.find_path((0, 0), (11, 14), algorithm="theta").path)
    assert theta.cost == pytest.approx(2.0 * np.hypot(*np.diff(corners, axis=0).T).sum())
    with pytest.raises(ValueError, match="units must be 'pixels' or 'tiles'; got 'px'"):
        tiles.find_path(grid, (5, 5), (5, 5), units="px")  # type: ignore[arg-type]


def test_a_swapped_start_or_goal_gets_a_hint_whichever_it_is() -> None:
    grid = Grid.from_ascii("""
        ....
        .#..
        ....
        ....
    """)
    tiles = TileCoords(10)
    walkable_swap = (35.0, 15.0)  # (35, 15) is in (1, 3), a wall; (15, 35) in (3, 1)
    grid2 = Grid.from_ascii("""
        ....
        ...#
        ....
        ....
    """)
    hint = r"positions are pixels \(x, y\): {} \(15, 35\), swapped, is in the walkable cell "
    hint += r"\(3, 1\)"
    with pytest.raises(ValueError, match=r"start \(1, 3\) is a wall; " + hint.format("start")):
        tiles.find_path(grid2, walkable_swap, (5, 5))
    with pytest.raises(ValueError, match=r"goal \(1, 3\) is a wall; " + hint.format("goal")):
        tiles.find_path(grid2, (5, 5), walkable_swap)
    with pytest.raises(ValueError, match=r"goal \(15.0, 45.0\) is in cell \(4, 1\), outside.*"
                       r"goal \(45, 15\), swapped, is in the walkable cell \(1, 4\)"):  # fmt: skip
        TileCoords(10, shape=(2, 5)).find_path(Grid.from_ascii(".....\n....."), (5, 5), (15, 45))
    with pytest.raises(ValueError, match=r"^start \(1, 1\) is a wall$"):  # swapped: a wall too
        tiles.find_path(grid, (15, 15), (5, 5))
