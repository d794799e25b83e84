"""Units of several sizes on a grid (issue 17): the clearance against a brute-force
oracle (also after random edits), and every size-k search against scipy on the
explicit graph of the cells where a k x k unit fits."""

from __future__ import annotations

import itertools
import math
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import RTOL, Case, cases, oracle, oracle_graph, steps_cost
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

from pathcraft import Graph, Grid
from pathcraft._options import UnsupportedOptionError
from pathcraft.io import read_map

SIZES = (1, 2, 3, 4)


# --------------------------------------------------------------------------- oracles


def brute_clearance(cost: np.ndarray) -> np.ndarray:
    """The largest k with cost[r:r+k, c:c+k] free and inside, cell by cell."""
    free = np.isfinite(cost)
    rows, cols = cost.shape
    out = np.zeros(cost.shape, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            k = 0
            while r + k < rows and c + k < cols and free[r : r + k + 1, c : c + k + 1].all():
                k += 1
            out[r, c] = k
    return out


def unit_cost(cost: np.ndarray, k: int) -> np.ndarray:
    """The explicit cost a unit of size k pays to enter each top-left cell: the most
    expensive cell under it, ``inf`` where its square leaves the grid or holds a wall."""
    rows, cols = cost.shape
    out = np.full(cost.shape, np.inf)
    for r in range(rows - k + 1):
        for c in range(cols - k + 1):
            out[r, c] = cost[r : r + k, c : c + k].max()
    return out


def fitting(cost: np.ndarray, k: int, cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    ok = np.isfinite(unit_cost(cost, k))
    return [cell for cell in cells if ok[cell]]


# --------------------------------------------------------------------------- clearance


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=20))
def test_clearance_equals_the_brute_force_oracle(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    got = grid.clearance
    assert got.shape == case.cost.shape and got.dtype == np.int32
    np.testing.assert_array_equal(got, brute_clearance(case.cost))
    assert not got.flags.writeable


@st.composite
def edits(draw: Any) -> tuple[Case, list[tuple[Any, float]]]:
    case = draw(cases(max_side=16))
    rows, cols = case.cost.shape
    out = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(("cell", "slice", "fancy", "negative")))
        value = draw(st.sampled_from((np.inf, 1.0, 2.5)))
        r = draw(st.integers(0, rows - 1))
        c = draw(st.integers(0, cols - 1))
        if kind == "cell":
            key: Any = (r, c)
        elif kind == "negative":
            key = (r - rows, c - cols)
        elif kind == "slice":
            key = (slice(r, r + draw(st.integers(0, 3))), slice(c, None, draw(st.integers(1, 3))))
        else:
            key = ([r, draw(st.integers(0, rows - 1))], [c, draw(st.integers(0, cols - 1))])
        out.append((key, value))
    return case, out


@settings(max_examples=60, deadline=None)
@given(data=edits(), sizes=st.lists(st.sampled_from((2, 3)), max_size=2))
def test_clearance_and_unit_views_are_repaired_after_edits(
    data: tuple[Case, list[tuple[Any, float]]], sizes: list[int]
) -> None:
    case, changes = data
    grid = Grid(case.cost, diagonal=case.rule)
    assert grid.clearance.shape == case.cost.shape  # built before the edits: they repair it
    for k in sizes:
        grid.for_size(k)
    cost = case.cost.copy()
    for key, value in changes:
        grid[key] = value
        cost[key] = value
        np.testing.assert_array_equal(grid.clearance, brute_clearance(cost))
        for k in sizes:
            np.testing.assert_array_equal(grid.for_size(k).cost, unit_cost(cost, k))


def test_a_wall_repairs_only_the_cells_above_and_left_of_it() -> None:
    from pathcraft._core import clearance as kernel

    grid = Grid(np.ones((200, 200)))
    padded = grid.padded.copy()
    clear = np.empty((201, 201), dtype=np.int32)
    kernel.compute(padded, clear)
    padded[190, 190] = np.inf  # cell (189, 189)
    work = kernel.repair(padded, clear, 189, 189, 189, 189)
    want = np.empty_like(clear)
    kernel.compute(padded, want)
    np.testing.assert_array_equal(clear, want)
    assert work < 200 * 200 / 4  # a corner region, not the grid


# --------------------------------------------------------------------------- searches


def _pairs(case: Case, k: int, count: int = 4) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    cells = fitting(case.cost, k, [tuple(int(x) for x in p) for p in case.free_cells()])
    if not cells:
        return []
    rng = np.random.default_rng([case.seed, k])
    picks = rng.integers(len(cells), size=(count, 2))
    return [(cells[a], cells[b]) for a, b in picks]


def assert_unit_path(cost: np.ndarray, rule: str, k: int, path: np.ndarray, want: float) -> None:
    """Legal for the unit (written apart from the kernels): every step's footprints
    free, diagonals under the rule on the unit's side cells; cost the sum of steps."""
    explicit = unit_cost(cost, k)
    free = np.isfinite(explicit)
    cells = [tuple(p) for p in path.tolist()]
    for a, b in itertools.pairwise(cells):
        dr, dc = b[0] - a[0], b[1] - a[1]
        assert max(abs(dr), abs(dc)) == 1 and free[b]
        if dr and dc:
            sides = (free[a[0] + dr, a[1]], free[a[0], a[1] + dc])
            assert {"never": False, "no_corner_cut": all(sides), "one_free": any(sides),
                    "always": True}[rule]  # fmt: skip
    assert math.isclose(steps_cost(explicit, path), want, rel_tol=RTOL)


@settings(max_examples=80, deadline=None)
@given(case=cases(max_side=24))
def test_every_size_matches_scipy_on_the_cells_the_unit_fits(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    for k in SIZES:
        explicit = unit_cost(case.cost, k)
        pairs = _pairs(case, k)
        if not pairs:
            continue
        for start, goal in pairs:
            want = float(oracle(explicit, case.rule, [start])[goal])
            for algorithm in ("astar", "dijkstra"):
                r = grid.find_path(start, goal, algorithm=algorithm, size=k)
                if math.isinf(want):
                    assert not r.found and r.reason == "unreachable"
                    continue
                assert r.found and math.isclose(r.cost, want, rel_tol=RTOL)
                assert_unit_path(case.cost, case.rule, k, r.path, want)
            greedy = grid.greedy(start, goal, size=k)
            assert greedy.found == (not math.isinf(want))
            if greedy.found:
                assert_unit_path(case.cost, case.rule, k, greedy.path, greedy.cost)
        start = pairs[0][0]
        field = grid.distance_field(start, size=k)
        np.testing.assert_allclose(field, oracle(explicit, case.rule, [start]), rtol=RTOL)
        starts = np.array([p[0] for p in pairs])
        goals = np.array([p[1] for p in pairs])
        costs = grid.path_costs(starts, goals, size=k, workers=1)
        singles = [grid.astar(s, g, size=k).cost for s, g in pairs]
        np.testing.assert_allclose(costs, singles, rtol=RTOL)
        batch = grid.find_paths(starts, goals, size=k, workers=2)
        assert [r.cost for r in batch] == singles
        search = grid.start_search(pairs[0][0], pairs[0][1], size=k)
        while search.step(3) == "in_progress":
            pass
        assert search.result.cost == singles[0]


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=24, rules=("no_corner_cut", "always")))
def test_jump_point_search_takes_every_size_on_uniform_grids(case: Case) -> None:
    cost = np.where(np.isfinite(case.cost), 1.0, np.inf)
    grid = Grid(cost, diagonal=case.rule)
    for k in SIZES:
        explicit = unit_cost(cost, k)
        for start, goal in _pairs(Case(cost, case.rule, case.start, case.goal, case.seed), k):
            want = float(oracle(explicit, case.rule, [start])[goal])
            r = grid.jps(start, goal, size=k)
            assert r.found == (not math.isinf(want))
            if r.found:
                assert math.isclose(r.cost, want, rel_tol=RTOL)
                assert_unit_path(cost, case.rule, k, r.path, want)


def test_dijkstra_without_a_goal_and_distance_fields_take_size() -> None:
    grid = Grid.from_ascii("""
    .....
    .....
    ...#.
    """)
    every = grid.dijkstra((0, 0), size=2)
    assert set(every.distances) == {(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)}
    fields = grid.distance_fields([(0, 0), (1, 1)], size=2, workers=1)
    np.testing.assert_array_equal(fields[0], grid.distance_field((0, 0), size=2))
    np.testing.assert_array_equal(fields[1], grid.distance_field((1, 1), size=2))
    costs, tree = grid.distance_field((0, 0), size=2, parents=True)
    assert tree[1, 1].tolist() == [0, 0] and math.isinf(costs[2, 0])


def test_a_path_for_a_big_unit_goes_round_a_gap_a_small_one_takes() -> None:
    grid = Grid.from_ascii(
        """
    ..........
    ..........
    #####.####
    ..........
    ..........
    """,
        diagonal="never",
    )
    small = grid.find_path((0, 0), (3, 0))
    big = grid.find_path((0, 0), (3, 0), size=2)
    assert small.found and small.cost == 13.0
    assert not big.found and big.reason == "unreachable"


def test_the_size_views_survive_pickling_and_edits() -> None:
    grid = Grid(np.ones((6, 6)))
    assert grid.astar((0, 0), (4, 4), size=2).cost == pytest.approx(4 * math.sqrt(2))
    grid[2, 2] = np.inf
    clone = pickle.loads(pickle.dumps(grid))
    for g in (grid, clone):
        r = g.astar((0, 0), (4, 4), size=2)
        assert r.found and all(not (p[0] <= 2 <= p[0] + 1 and p[1] <= 2 <= p[1] + 1)
                               for p in r.path.tolist())  # fmt: skip
    view = grid.for_size(2)
    assert view.unit_size == 2 and grid.for_size(2) is view and grid.for_size(1) is grid
    with pytest.raises(TypeError, match="view of a unit of size 2"):
        view[0, 0] = 1.0


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("size", "error"),
    [
        (0, ValueError),
        (-2, ValueError),
        (1.5, TypeError),
        (2.0, TypeError),
        (True, TypeError),
        ("2", TypeError),
        (None, TypeError),
    ],
)
def test_a_bad_size_is_refused_naming_size(size: Any, error: type) -> None:
    grid = Grid(np.ones((4, 4)))
    for call in (
        lambda: grid.find_path((0, 0), (1, 1), size=size),
        lambda: grid.jps((0, 0), (1, 1), size=size),
        lambda: grid.distance_field((0, 0), size=size),
        lambda: grid.path_costs([(0, 0)], [(1, 1)], size=size),
        lambda: grid.start_search((0, 0), (1, 1), size=size),
    ):
        with pytest.raises(error, match=r"^size must be an integer >= 1"):
            call()


def test_numpy_integers_are_sizes() -> None:
    grid = Grid(np.ones((4, 4)))
    assert grid.astar((0, 0), (2, 2), size=np.int64(2)).cost == pytest.approx(2 * math.sqrt(2))


def test_a_start_or_goal_the_unit_does_not_fit_is_refused_like_a_wall() -> None:
    grid = Grid.from_ascii("""
    ....
    ..#.
    ....
    """)
    with pytest.raises(ValueError, match=r"^start \(0, 1\) does not fit a unit of size 2"):
        grid.astar((0, 1), (0, 0), size=2)
    with pytest.raises(ValueError, match=r"^goal \(2, 0\) does not fit a unit of size 2"):
        grid.dijkstra((0, 0), (2, 0), size=2)
    with pytest.raises(ValueError, match=r"^goals\[1\] \(1, 3\) does not fit"):
        grid.find_paths([(0, 0), (0, 0)], [(0, 0), (1, 3)], size=2)
    with pytest.raises(ValueError, match=r"^start \(1, 2\) is a wall"):
        grid.astar((1, 2), (0, 0), size=2)  # a wall is still named a wall


def test_other_worlds_refuse_size() -> None:
    graph = Graph(2, [0], [1], [1.0])
    with pytest.raises(UnsupportedOptionError, match="unknown option 'size'"):
        graph.find_path(0, 1, size=2)  # type: ignore[call-arg]


# --------------------------------------------------------------------------- Moving AI


@pytest.mark.parametrize("name", ["dao/arena2", "room/8room_000"])
def test_moving_ai_maps_match_scipy_for_every_size(movingai: Path, name: str) -> None:
    grid = read_map(movingai / "maps" / f"{name}.map")
    cost = np.array(grid.cost)
    rng = np.random.default_rng(17)
    for k in (1, 2, 3):
        explicit = np.full(cost.shape, np.inf)
        fits = grid.clearance >= k
        explicit[fits] = 1.0
        np.testing.assert_array_equal(np.isfinite(unit_cost_fast(cost, k)), fits)
        graph = oracle_graph(explicit, grid.diagonal)
        cells = np.argwhere(fits)
        picks = cells[rng.integers(len(cells), size=(6, 2))]
        starts, goals = picks[:, 0], picks[:, 1]
        dist = csgraph_dijkstra(graph, indices=starts[:, 0] * cost.shape[1] + starts[:, 1])
        want = dist[np.arange(len(starts)), goals[:, 0] * cost.shape[1] + goals[:, 1]]
        got = grid.path_costs(starts, goals, size=k, workers=1)
        np.testing.assert_allclose(got, want, rtol=RTOL)
        np.testing.assert_allclose(
            grid.path_costs(starts, goals, size=k, algorithm="jps", workers=1), want, rtol=RTOL
        )


def unit_cost_fast(cost: np.ndarray, k: int) -> np.ndarray:
    """:func:`unit_cost` by sliding windows (for big maps)."""
    from numpy.lib.stride_tricks import sliding_window_view

    out = np.full(cost.shape, np.inf)
    windows = sliding_window_view(cost, (k, k)).max(axis=(2, 3))
    out[: windows.shape[0], : windows.shape[1]] = windows
    return out


# --------------------------------------------------------------------------- flow fields


@settings(max_examples=40, deadline=None)
@given(case=cases(max_side=16, rules=("never", "no_corner_cut", "always")))
def test_a_flow_field_for_a_size_leads_the_unit_to_the_goal(case: Case) -> None:
    from pathcraft.agents import FlowField

    cost = np.where(np.isfinite(case.cost), 1.0, np.inf)  # uniform: fields are symmetric
    grid = Grid(cost, diagonal=case.rule)
    for k in (2, 3):
        pairs = _pairs(Case(cost, case.rule, case.start, case.goal, case.seed), k, count=1)
        if not pairs:
            continue
        goal = pairs[0][1]
        flow = FlowField(grid, goal, size=k)
        explicit = unit_cost(cost, k)
        np.testing.assert_allclose(flow.distance, oracle(explicit, case.rule, [goal]), rtol=RTOL)
        assert flow.size == k
        for start in zip(*np.nonzero(np.isfinite(flow.distance)), strict=True):
            cell = tuple(int(x) for x in start)
            path = [cell]
            while cell != goal:
                cell = tuple(int(x) for x in flow.next_cell[cell])
                path.append(cell)
                assert len(path) <= cost.size
            assert_unit_path(cost, case.rule, k, np.array(path), float(flow.distance[path[0]]))


def test_a_flow_field_goal_must_fit_the_unit() -> None:
    from pathcraft.agents import FlowField

    grid = Grid.from_ascii("...\n..#")
    with pytest.raises(ValueError, match=r"^goals \(0, 1\) does not fit a unit of size 2"):
        FlowField(grid, (0, 1), size=2)


# --------------------------------------------------------------------------- followers


def test_followers_of_units_of_several_sizes_arrive_through_their_footprints() -> None:
    from pathcraft.agents import PathFollower

    grid = Grid.from_ascii("""
    ..........
    ..........
    ..........
    ####..####
    ..........
    ..........
    """)
    paths = [grid.astar((0, 0), (4, 8), size=k).path for k in (1, 2)]
    movers = PathFollower.from_cells(grid, paths, sizes=[1, 2], max_speed=2.0, tolerance=0.05)
    assert movers.positions.tolist() == [[0.5, 0.5], [1.0, 1.0]]
    for _ in range(200):
        if movers.step(0.1).all():
            break
    assert movers.arrived.all()
    np.testing.assert_allclose(movers.positions, [[8.5, 4.5], [9.0, 5.0]], atol=0.05)
    with pytest.raises(ValueError, match=r"^paths\[0\]\[0\] \(2, 0\) does not fit a unit"):
        PathFollower.from_cells(grid, [np.array([(2, 0), (2, 1)])], sizes=2)
    with pytest.raises(ValueError, match="sizes has 1 entries for 2 paths"):
        PathFollower.from_cells(grid, paths, sizes=[2])
    with pytest.raises(ValueError, match=r"^sizes\[1\] must be an integer >= 1"):
        PathFollower.from_cells(grid, paths, sizes=[1, 0])


def test_shorthands_with_size_alone_take_the_views_lean_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``astar/greedy/dijkstra(..., size=k)``: once the view's plan is made, the
    answer comes from it without going through ``find_path``, and is its answer."""
    grid = Grid.from_ascii(
        """
        ......
        ......
        ..#...
        ......
        """
    )
    a, b = (0, 0), (2, 4)
    want = {name: grid.find_path(a, b, algorithm=name, size=2) for name in ("astar", "greedy")}
    want["dijkstra"] = grid.find_path(a, b, algorithm="dijkstra", size=2)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("find_path called")

    monkeypatch.setattr(Grid, "find_path", refuse)
    for name, one in want.items():
        got = getattr(grid, name)(a, b, size=2)
        assert got.path.tolist() == one.path.tolist() and got.cost == one.cost
    with pytest.raises(AssertionError, match="find_path called"):
        grid.astar(a, b, size=2, weight=1.5)  # other options: the checked way
