"""``pathcraft.grid.Grid``: oracles, legal paths, the generic search's semantics, threads.

The oracle is ``scipy.sparse.csgraph.dijkstra`` on a sparse matrix that encodes the
same move rule (built here, vectorised, independently of the kernel). The reference
semantics is :mod:`pathcraft.search` run on a neighbours function that yields the
kernel's neighbours in the kernel's order: expansions and paths must be identical.
"""

from __future__ import annotations

import math
import pickle
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from _graphs import closed_kept
from _grids import (
    ADMISSIBLE,
    HEURISTICS,
    RTOL,
    Case,
    _sg,
    as_cells,
    assert_answer,
    assert_legal,
    assert_same_run,
    bucket_reference,
    cases,
    default_heuristic,
    h_value,
    make_cost,
    neighbours,
    oracle,
    steps_cost,
    uses_buckets,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid, search

# --------------------------------------------------------------------------- oracle


@settings(max_examples=300)
@given(cases())
def test_astar_dijkstra_and_field_match_the_scipy_oracle(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    dist = oracle(case.cost, case.rule, [case.start])
    want = float(dist[case.goal])
    assert_answer(case.cost, case.rule, grid.astar(case.start, case.goal), *_sg(case), want)
    for heuristic in ADMISSIBLE[case.rule]:
        result = grid.astar(case.start, case.goal, heuristic=heuristic)
        assert_answer(case.cost, case.rule, result, *_sg(case), want)
    assert_answer(case.cost, case.rule, grid.dijkstra(case.start, case.goal), *_sg(case), want)
    field = grid.distance_field(case.start)
    assert field.shape == case.cost.shape and field.dtype == np.float64
    np.testing.assert_allclose(field, dist, rtol=RTOL, atol=0.0)
    assert np.isinf(field[~np.isfinite(case.cost)]).all()
    assert field[case.start] == 0.0


@settings(max_examples=40)
@given(cases(rules=("never",)))
def test_every_admissible_heuristic_stays_optimal_4_connected(case: Case) -> None:
    # Manhattan is the tightest here; with diagonals it would overestimate.
    grid = Grid(case.cost, diagonal="never", heuristic="manhattan")
    assert grid.heuristic == "manhattan"
    want = float(oracle(case.cost, "never", [case.start])[case.goal])
    for heuristic in ADMISSIBLE["never"]:
        result = grid.astar(case.start, case.goal, heuristic=heuristic)
        assert_answer(case.cost, "never", result, *_sg(case), want)


def test_default_heuristic_is_the_tightest_admissible_one() -> None:
    assert Grid(np.ones((2, 2)), diagonal="never").heuristic == "manhattan"
    for rule in ("no_corner_cut", "one_free", "always"):
        assert Grid(np.ones((2, 2)), diagonal=rule).heuristic == "octile"
    assert Grid(np.ones((2, 2)), heuristic="euclidean").heuristic == "euclidean"


@settings(max_examples=120)
@given(cases(), st.floats(1.0, 6.0))
def test_weighted_astar_is_within_weight_times_optimal(case: Case, weight: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    want = float(oracle(case.cost, case.rule, [case.start])[case.goal])
    result = grid.astar(case.start, case.goal, weight=weight)
    if math.isinf(want):
        assert_answer(case.cost, case.rule, result, *_sg(case), want)
        return
    assert result
    assert_legal(case.cost, case.rule, result.path, case.start, case.goal)
    assert result.cost == pytest.approx(steps_cost(case.cost, result.path), rel=1e-12)
    assert want * (1 - RTOL) <= result.cost <= weight * want * (1 + RTOL)


@settings(max_examples=120)
@given(cases())
def test_greedy_finds_a_legal_path_exactly_when_one_exists(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    want = float(oracle(case.cost, case.rule, [case.start])[case.goal])
    result = grid.greedy(case.start, case.goal)
    if math.isinf(want):
        assert_answer(case.cost, case.rule, result, *_sg(case), want)
        return
    assert result and result.reason is None
    assert_legal(case.cost, case.rule, result.path, case.start, case.goal)
    assert result.cost == pytest.approx(steps_cost(case.cost, result.path), rel=1e-12)
    assert result.cost >= want * (1 - RTOL)


@settings(max_examples=120)
@given(cases(), st.integers(1, 4), st.integers(1, 4))
def test_many_sources_many_goals_match_the_oracle_minimum(
    case: Case, n_sources: int, n_goals: int
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    sources = case.pick(n_sources, salt=1)
    goals = case.pick(n_goals, salt=2)
    dist = oracle(case.cost, case.rule, sources)
    want = min(float(dist[g]) for g in goals)
    result = grid.dijkstra(np.array(sources), goals)
    assert_answer(case.cost, case.rule, result, sources, goals, want)
    if result:
        # The path starts at the source nearest to the goal it reaches.
        from_first = oracle(case.cost, case.rule, [as_cells(result.path)[0]])
        assert result.cost == pytest.approx(float(from_first[tuple(result.path[-1])]), rel=RTOL)
    np.testing.assert_allclose(grid.distance_field(sources), dist, rtol=RTOL, atol=0.0)


@settings(max_examples=30)
@given(cases(), st.floats(0.0, 20.0))
def test_distance_field_max_cost_cuts_the_unbounded_field(case: Case, limit: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    full = grid.distance_field(case.start)
    bounded = grid.distance_field(case.start, max_cost=limit)
    np.testing.assert_array_equal(bounded, np.where(full <= limit, full, np.inf))


def test_start_equal_to_goal_is_a_one_cell_path_of_cost_zero() -> None:
    grid = Grid(np.ones((3, 3)))
    for result in (
        grid.astar((1, 1), (1, 1)),
        grid.greedy((1, 1), (1, 1)),
        grid.dijkstra((1, 1), (1, 1)),
        grid.dijkstra([(1, 1), (0, 0)], [(2, 2), (1, 1)]),
    ):
        assert result and result.cost == 0.0
        assert result.path.tolist() == [[1, 1]]
        assert result.expanded == 1


def test_unreachable_goal_is_a_falsy_answer_not_an_exception() -> None:
    grid = Grid.from_ascii(
        """
        ..#..
        ..#..
        ..#..
        """
    )
    for result in (
        grid.astar((0, 0), (2, 4)),
        grid.greedy((0, 0), (2, 4)),
        grid.dijkstra((0, 0), (2, 4)),
    ):
        assert not result and result.reason == "unreachable"
        assert result.path.shape == (0, 2) and result.cost == math.inf
        assert result.expanded == 6  # every cell on the start's side
    assert Grid.from_ascii("..#..").distance_field((0, 0)).tolist() == [
        [0.0, 1.0, math.inf, math.inf, math.inf]
    ]


def test_integer_cost_arrays_give_the_float_answers() -> None:
    rng = np.random.default_rng(5)
    ints = rng.integers(1, 9, size=(15, 17))
    as_int, as_float = Grid(ints), Grid(ints.astype(np.float64))
    assert as_int.cost.dtype == np.float64
    np.testing.assert_array_equal(as_int.cost, as_float.cost)
    a, b = as_int.astar((0, 0), (14, 16)), as_float.astar((0, 0), (14, 16))
    assert a.path.tolist() == b.path.tolist() and a.cost == b.cost and a.expanded == b.expanded


def test_from_walkable_and_from_ascii_build_the_costs() -> None:
    grid = Grid.from_walkable(np.array([[True, False], [True, True]]), diagonal="always")
    assert grid.diagonal == "always"
    assert grid.cost.tolist() == [[1.0, math.inf], [1.0, 1.0]]
    assert grid.walkable.tolist() == [[True, False], [True, True]]
    grid = Grid.from_ascii(
        """
            .#9
            .12
        """,
        diagonal="never",
    )
    assert grid.shape == (2, 3)
    assert grid.cost.tolist() == [[1.0, math.inf, 9.0], [1.0, 1.0, 2.0]]
    assert grid.astar((0, 0), (0, 2)).cost == 1.0 + 1.0 + 2.0 + 9.0


# --------------------------------------------------------------------------- the generic search


@settings(max_examples=250)
@given(
    cases(max_side=20),
    st.sampled_from(("g", "fifo")),
    st.sampled_from((1.0, 1.0, 1.5, 3.0)),
    st.sampled_from((None, *HEURISTICS)),
)
def test_astar_expands_exactly_like_the_generic_search(
    case: Case, tie_break: str, weight: float, heuristic: str | None
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    kind = heuristic or default_heuristic(case.rule)
    scale = grid.min_cost

    def h(cell: tuple[int, int]) -> float:
        return h_value(case.rule, kind, scale, cell, case.goal)

    got = grid.astar(
        case.start, case.goal, tie_break=tie_break, weight=weight, heuristic=heuristic,
        record=True,
    )  # fmt: skip
    if uses_buckets(grid, "astar", tie_break, weight, kind):
        want = bucket_reference(case.cost, case.start, case.goal, kind, scale, record=True)
    else:
        nbrs = neighbours(case.cost, case.rule)
        want = search.astar(
            case.start, case.goal, nbrs if weight == 1.0 else closed_kept(nbrs), h,
            tie_break=tie_break, weight=weight, record=True,
        )  # fmt: skip
    assert_same_run(got, want)


@settings(max_examples=120)
@given(cases(max_side=20), st.sampled_from(("g", "fifo")))
def test_greedy_and_dijkstra_expand_exactly_like_the_generic_search(
    case: Case, tie_break: str
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    nbrs = neighbours(case.cost, case.rule)
    kind, scale = default_heuristic(case.rule), grid.min_cost

    def h(cell: tuple[int, int]) -> float:
        return h_value(case.rule, kind, scale, cell, case.goal)

    got = grid.greedy(case.start, case.goal, tie_break=tie_break, record=True)
    want = search.greedy(case.start, case.goal, nbrs, h, tie_break=tie_break, record=True)
    assert_same_run(got, want)
    got = grid.dijkstra(case.start, case.goal, tie_break=tie_break, record=True)
    if uses_buckets(grid, "dijkstra", tie_break):
        want = bucket_reference(case.cost, case.start, case.goal, "zero", scale, record=True)
    else:
        want = search.dijkstra(case.start, case.goal, nbrs, tie_break=tie_break, record=True)
    assert_same_run(got, want)


@settings(max_examples=120)
@given(cases(max_side=20), st.integers(1, 4), st.integers(1, 4), st.sampled_from(("g", "fifo")))
def test_many_source_dijkstra_expands_like_the_generic_search_from_a_root(
    case: Case, n_sources: int, n_goals: int, tie_break: str
) -> None:
    # The generic search has one start: a virtual root with free edges to every source
    # (in the given order) is the same search, one expansion longer.
    sources, goals = case.pick(n_sources, salt=3), case.pick(n_goals, salt=4)
    nbrs = neighbours(case.cost, case.rule)
    root = "root"

    def rooted(node: Any):
        if node == root:
            return [(s, 0.0) for s in sources]
        return nbrs(node)

    goal_set = set(goals)
    grid = Grid(case.cost, diagonal=case.rule)
    got = grid.dijkstra(sources, goals, tie_break=tie_break)
    if len(sources) == 1 and uses_buckets(grid, "dijkstra", tie_break):
        want = bucket_reference(case.cost, sources[0], goal_set, "zero", grid.min_cost)
        assert as_cells(got.path) == want.path
        assert got.expanded == want.expanded
        assert got.cost == want.cost
        assert got.found == want.found and got.reason == want.reason
        return
    want = search.dijkstra(root, goal_set.__contains__, rooted, tie_break=tie_break)
    assert as_cells(got.path) == list(want.path[1:])
    assert got.expanded == want.expanded - 1
    assert got.cost == want.cost
    assert got.found == want.found and got.reason == want.reason


@settings(max_examples=200)
@given(
    cases(max_side=16),
    st.sampled_from(("astar", "greedy")),
    st.one_of(st.none(), st.integers(0, 40)),
    st.one_of(st.none(), st.floats(0.0, 12.0)),
    st.booleans(),
)
def test_limits_and_partial_paths_match_the_generic_search(
    case: Case, method: str, max_expansions: int | None, max_cost: float | None, partial: bool
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    kind, scale = default_heuristic(case.rule), grid.min_cost

    def h(cell: tuple[int, int]) -> float:
        return h_value(case.rule, kind, scale, cell, case.goal)

    options = dict(max_expansions=max_expansions, max_cost=max_cost, partial=partial, record=True)
    got = getattr(grid, method)(case.start, case.goal, **options)
    if uses_buckets(grid, method):
        want = bucket_reference(case.cost, case.start, case.goal, kind, scale, **options)
    else:
        generic = getattr(search, method)
        want = generic(case.start, case.goal, neighbours(case.cost, case.rule), h, **options)
    assert_same_run(got, want)


# --------------------------------------------------------------------------- tie-breaking


def test_random_tie_break_is_reproducible_and_varies_with_the_seed() -> None:
    for rule, goal in (("never", (11, 11)), ("no_corner_cut", (11, 5))):
        grid = Grid(np.ones((12, 12)), diagonal=rule)
        want = float(oracle(grid.cost, rule, [(0, 0)])[goal])
        paths = set()
        for seed in range(30):
            first = grid.astar((0, 0), goal, tie_break="random", seed=seed)
            again = grid.astar((0, 0), goal, tie_break="random", seed=seed)
            assert first.path.tolist() == again.path.tolist()
            assert first.expanded == again.expanded
            assert_answer(grid.cost, rule, first, (0, 0), goal, want)
            paths.add(tuple(map(tuple, first.path.tolist())))
        assert len(paths) > 1, f"{rule}: one path for 30 seeds"


def test_random_tie_break_dijkstra_and_greedy_are_reproducible() -> None:
    grid = Grid(np.ones((10, 10)), diagonal="never")
    for seed in (0, 1, 2**40):
        a = grid.dijkstra((0, 0), (9, 9), tie_break="random", seed=seed)
        b = grid.dijkstra((0, 0), (9, 9), tie_break="random", seed=seed)
        assert a.path.tolist() == b.path.tolist() and a.cost == b.cost == 18.0
        a = grid.greedy((0, 0), (9, 9), tie_break="random", seed=seed)
        b = grid.greedy((0, 0), (9, 9), tie_break="random", seed=seed)
        assert a.path.tolist() == b.path.tolist()


def test_default_tie_break_prefers_larger_g_and_expands_only_the_path() -> None:
    # On an open grid every cell on a monotone path has the same f; preferring the
    # larger g walks straight to the goal.
    grid = Grid(np.ones((12, 12)), diagonal="never")
    by_g = grid.astar((0, 0), (11, 11))
    assert by_g.expanded == 23 == len(by_g.path)
    assert grid.astar((0, 0), (11, 11), tie_break="fifo").expanded > 23


# ---------------------------------------------------------------- limits, partial, record


@settings(max_examples=120)
@given(cases(max_side=20), st.integers(0, 60))
def test_max_expansions_stops_the_search_at_the_limit(case: Case, limit: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    free = grid.astar(case.start, case.goal)
    limited = grid.astar(case.start, case.goal, max_expansions=limit)
    assert limited.expanded <= limit
    if limit >= free.expanded:
        assert limited.path.tolist() == free.path.tolist()
        assert (limited.cost, limited.reason, limited.expanded) == (
            free.cost,
            free.reason,
            free.expanded,
        )
    else:
        assert not limited and limited.reason == "max_expansions"
        assert limited.expanded == limit
        assert limited.path.shape == (0, 2) and limited.cost == math.inf


@settings(max_examples=120)
@given(cases(max_side=20), st.floats(0.0, 0.999))
def test_max_cost_below_the_optimum_gives_reason_max_cost(case: Case, fraction: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    free = grid.astar(case.start, case.goal)
    if not free or free.cost == 0.0:
        return
    exact = grid.astar(case.start, case.goal, max_cost=free.cost)
    assert exact and exact.cost == free.cost
    for method in (grid.astar, grid.dijkstra, grid.greedy):
        short = method(case.start, case.goal, max_cost=free.cost * fraction)
        assert not short and short.reason == "max_cost"
        assert short.path.shape == (0, 2) and short.cost == math.inf


@settings(max_examples=120)
@given(cases(max_side=20), st.integers(0, 30))
def test_partial_path_leads_to_the_expanded_cell_closest_to_the_goal(
    case: Case, limit: int
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    result = grid.astar(case.start, case.goal, max_expansions=limit, partial=True, record=True)
    if result:
        assert_legal(case.cost, case.rule, result.path, case.start, case.goal)
        return
    assert result.reason in ("max_expansions", "unreachable")
    explored = as_cells(result.explored.nodes)
    assert len(result.path) >= 1
    end = as_cells(result.path)[-1]
    assert_legal(case.cost, case.rule, result.path, case.start, end)
    assert result.cost == pytest.approx(steps_cost(case.cost, result.path), rel=1e-12)
    if not explored:  # max_expansions=0: the start itself
        assert end == case.start
        return
    kind = default_heuristic(case.rule)
    hs = [h_value(case.rule, kind, grid.min_cost, cell, case.goal) for cell in explored]
    assert end == explored[hs.index(min(hs))]  # the first expanded with the smallest h
    # With a consistent heuristic an expanded cell's g is final: the path's cost.
    assert result.cost == pytest.approx(result.explored.g[explored.index(end)], rel=1e-12)


@settings(max_examples=120)
@given(cases(max_side=20))
def test_record_keeps_every_expansion_in_order_with_its_g(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    dist = oracle(case.cost, case.rule, [case.start])
    for method in ("astar", "dijkstra"):
        plain = getattr(grid, method)(case.start, case.goal)
        assert plain.explored is None
        result = getattr(grid, method)(case.start, case.goal, record=True)
        assert result.expanded == plain.expanded and result.path.tolist() == plain.path.tolist()
        nodes, g = result.explored.nodes, np.asarray(result.explored.g)
        assert np.issubdtype(nodes.dtype, np.integer)
        assert nodes.shape == (result.expanded, 2) and g.shape == (result.expanded,)
        assert len(result.explored) == result.expanded
        assert as_cells(nodes)[0] == case.start and g[0] == 0.0
        # A cell is expanded again only when reached more cheaply (with a consistent
        # heuristic that happens only by rounding: sqrt2 + sqrt2 + 1 != sqrt2 + 1 + sqrt2).
        first_g: dict[tuple[int, int], float] = {}
        for cell, gc in zip(as_cells(nodes), g.tolist(), strict=True):
            assert gc < first_g.get(cell, math.inf), f"{cell} expanded again at g {gc}"
            first_g[cell] = gc
        if result:
            assert as_cells(nodes)[-1] == case.goal and g[-1] == result.cost
        # Expanded cells are settled: their g is the oracle's distance.
        np.testing.assert_allclose(g, dist[nodes[:, 0], nodes[:, 1]], rtol=RTOL, atol=0.0)
        if method == "dijkstra":  # keys rounded to 41 bits: order up to 2**-40 of g
            assert (g[1:] >= g[:-1] * (1 - 2.0**-40)).all()


def test_max_cost_on_an_unbounded_search_is_the_same_search() -> None:
    grid = Grid(np.ones((6, 6)))
    a = grid.astar((0, 0), (5, 5))
    b = grid.astar((0, 0), (5, 5), max_cost=math.inf, max_expansions=10**9)
    assert a.path.tolist() == b.path.tolist() and a.expanded == b.expanded


# --------------------------------------------------------------------------- editing


@settings(max_examples=120)
@given(cases(max_side=20))
def test_a_new_wall_is_avoided_without_a_rebuild(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    first = grid.astar(case.start, case.goal)
    if len(first.path) < 3:
        return
    blocked = tuple(int(x) for x in first.path[len(first.path) // 2])
    grid[blocked] = np.inf
    assert grid[blocked] == math.inf and not grid.walkable[blocked]
    edited = case.cost.copy()
    edited[blocked] = np.inf
    dist = oracle(edited, case.rule, [case.start])
    result = grid.astar(case.start, case.goal)
    assert blocked not in as_cells(result.path)
    assert_answer(edited, case.rule, result, *_sg(case), float(dist[case.goal]))
    np.testing.assert_allclose(grid.distance_field(case.start), dist, rtol=RTOL, atol=0.0)


@settings(max_examples=120)
@given(cases(max_side=20), st.floats(0.001, 0.9))
def test_a_cost_below_the_old_minimum_keeps_astar_optimal(case: Case, factor: float) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    cheap = case.pick(3, salt=5)
    edited = case.cost.copy()
    new = grid.min_cost * factor
    for cell in cheap:
        grid[cell] = new
        edited[cell] = new
    assert grid.min_cost == new
    want = float(oracle(edited, case.rule, [case.start])[case.goal])
    for heuristic in ADMISSIBLE[case.rule]:
        result = grid.astar(case.start, case.goal, heuristic=heuristic)
        assert_answer(edited, case.rule, result, *_sg(case), want)


def test_min_cost_scales_the_heuristic_after_an_edit() -> None:
    # A corridor of 0.01-cost cells under a row of 1s: with the heuristic still scaled
    # by 1, A* would walk the top row for 9.0 instead of taking the corridor for 1.1.
    grid = Grid(np.ones((3, 10)), diagonal="never")
    assert grid.min_cost == 1.0
    grid[1, :] = 0.01
    assert grid.min_cost == 0.01
    result = grid.astar((0, 0), (0, 9))
    assert result.cost == pytest.approx(0.01 * 10 + 1.0)
    grid[1, :] = 1.0  # raising the minimum again tightens the heuristic back
    assert grid.min_cost == 1.0 and grid.astar((0, 0), (0, 9)).cost == 9.0
    grid[:, :] = np.inf
    assert grid.min_cost == 1.0  # all walls: a neutral scale


def test_cost_is_read_only_and_the_callers_array_is_copied_never_changed() -> None:
    rng = np.random.default_rng(11)
    array = make_cost(rng, (9, 9), "uniform", 0.2)
    array[0, 0] = array[8, 8] = array[4, 4] = 1.0
    before = array.copy()
    grid = Grid(array)
    with pytest.raises(ValueError, match="read-only"):
        grid.cost[0, 0] = 5.0
    # Searching and editing the grid leave the caller's array alone ...
    cells = np.array([[0, 0], [8, 8]])
    cells_before = cells.copy()
    grid.astar(cells[0], cells[1], record=True, partial=True)
    grid.dijkstra(cells, (4, 4), record=True)
    grid.distance_field(cells)
    np.testing.assert_array_equal(cells, cells_before)
    grid[3, 3] = np.inf
    grid[1:3, 1:3] = 7.0
    np.testing.assert_array_equal(array, before)
    # ... and changing the caller's array does not reach the grid.
    snapshot = grid.cost.copy()
    array[:] = 100.0
    np.testing.assert_array_equal(grid.cost, snapshot)
    # A read-only input array is accepted as it is.
    frozen = before.copy()
    frozen.flags.writeable = False
    assert Grid(frozen).astar((0, 0), (8, 8)).cost == Grid(before).astar((0, 0), (8, 8)).cost


def test_getitem_returns_copies() -> None:
    grid = Grid(np.ones((3, 3)))
    block = grid[0:2, 0:2]
    block[:] = 50.0
    assert grid.cost.tolist() == np.ones((3, 3)).tolist()
    assert grid[1, 1] == 1.0 and isinstance(grid[1, 1], float)


def test_pickle_round_trip_gives_identical_answers() -> None:
    rng = np.random.default_rng(3)
    cost = make_cost(rng, (30, 30), "cheap", 0.25)
    grid = Grid(cost, diagonal="one_free", heuristic="euclidean")
    copy = pickle.loads(pickle.dumps(grid))
    assert (copy.shape, copy.diagonal, copy.heuristic, copy.min_cost) == (
        grid.shape,
        grid.diagonal,
        grid.heuristic,
        grid.min_cost,
    )
    np.testing.assert_array_equal(copy.cost, grid.cost)
    free = np.argwhere(np.isfinite(cost))
    pairs = free[rng.integers(len(free), size=(20, 2))]
    for start, goal in pairs:
        for method in ("astar", "greedy", "dijkstra"):
            a = getattr(grid, method)(start, goal, record=True)
            b = getattr(copy, method)(start, goal, record=True)
            assert a.path.tolist() == b.path.tolist()
            assert (a.cost, a.expanded, a.reason) == (b.cost, b.expanded, b.reason)
            np.testing.assert_array_equal(a.explored.nodes, b.explored.nodes)
        np.testing.assert_array_equal(grid.distance_field(start), copy.distance_field(start))
    # The copy is independent of the original.
    copy[tuple(free[0])] = np.inf
    assert grid[tuple(free[0])] != math.inf


# --------------------------------------------------------------------------- threads


def test_threads_sharing_one_grid_get_the_serial_answers() -> None:
    rng = np.random.default_rng(2024)
    cost = make_cost(rng, (100, 100), "uniform", 0.3)
    grid = Grid(cost)
    free = np.argwhere(np.isfinite(cost))
    queries = [
        (i % 5, tuple(free[a]), tuple(free[b]))
        for i, (a, b) in enumerate(rng.integers(len(free), size=(200, 2)))
    ]

    def answer(query: tuple[int, Any, Any]) -> tuple[Any, ...]:
        kind, start, goal = query
        if kind == 0:
            r = grid.astar(start, goal)
        elif kind == 1:
            r = grid.astar(start, goal, tie_break="random", seed=7, record=True)
        elif kind == 2:
            r = grid.dijkstra([start, tuple(free[0])], [goal, tuple(free[-1])])
        elif kind == 3:
            r = grid.greedy(start, goal)
        else:
            field = grid.distance_field(start)
            return (field.tobytes(),)
        return (r.path.tobytes(), r.cost, r.expanded, r.reason, r.generated)

    serial = [answer(q) for q in queries]
    barrier = threading.Barrier(8)

    def chunk(part: list[tuple[int, Any, Any]]) -> list[tuple[Any, ...]]:
        barrier.wait()  # all eight threads search at once
        return [answer(q) for q in part]

    parts = [queries[i::8] for i in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(chunk, parts))
    for i, got in enumerate(results):
        assert got == serial[i::8], f"thread {i} disagrees with the serial answers"
    assert len(set(r[0] for r in serial if len(r) > 1)) > 100  # varied queries


# --------------------------------------------------------------------------- buckets


def test_uniform_4_connected_grids_search_on_buckets_and_stay_optimal() -> None:
    """A 4-connected grid of one cost runs A* and Dijkstra on the bucket open list:
    costs equal scipy's, each cell expanded at most once, the sliced search and the
    batch answer the same; an edit that makes costs differ goes back to the heap."""
    rng = np.random.default_rng(7)
    cost = np.where(rng.random((40, 40)) < 0.3, np.inf, 2.5)
    grid = Grid(cost, diagonal="never")
    assert grid.uniform_cost == 2.5
    free = [tuple(int(x) for x in c) for c in np.argwhere(np.isfinite(cost))]
    pairs = [(free[i], free[j]) for i, j in rng.integers(len(free), size=(40, 2))]
    for start, goal in pairs:
        want = float(oracle(cost, "never", [start])[goal])
        for method in ("astar", "dijkstra"):
            result = getattr(grid, method)(start, goal)
            assert_answer(cost, "never", result, start, goal, want)
            assert result.expanded <= len(free)
            assert uses_buckets(grid, method)
            reference = bucket_reference(
                cost, start, goal, "manhattan" if method == "astar" else "zero", 2.5
            )
            assert_same_run(result, reference)
        search = grid.start_search(start, goal)
        while search.step(5) == "in_progress":
            pass
        assert search.result.path.tolist() == grid.astar(start, goal).path.tolist()
    costs = grid.path_costs([p[0] for p in pairs], [p[1] for p in pairs])
    want = [float(oracle(cost, "never", [s])[g]) for s, g in pairs]
    np.testing.assert_allclose(costs, want, rtol=1e-12)
    grid[free[0]] = 1.0  # costs now differ: the heap, still optimal
    assert grid.uniform_cost is None and not uses_buckets(grid, "astar")
    changed = grid.cost
    for start, goal in pairs[:10]:
        want = float(oracle(changed, "never", [start])[goal])
        assert_answer(changed, "never", grid.astar(start, goal), start, goal, want)
