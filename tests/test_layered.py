"""Layered levels (pathcraft.layered.Level): floors joined by portals. The oracle is
scipy's Dijkstra on the explicit graph of every floor's moves and every portal edge,
built here independently of the kernel and of ``Level.neighbors``."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _grids import make_cost
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

import pathcraft
from pathcraft import Grid, PathResult
from pathcraft import search as generic
from pathcraft._options import UnsupportedOptionError, kernel_settings
from pathcraft.layered import Level, Portal

RULES = ("never", "no_corner_cut", "one_free", "always")
SQRT2 = math.sqrt(2.0)
RTOL = 1e-9


# --------------------------------------------------------------------------- oracle


def move_cost(cost: np.ndarray, rule: str, a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """The cost of the in-floor move a -> b (``inf`` when it is not a legal move)."""
    f, r, c = a
    g, rr, cc = b
    dr, dc = rr - r, cc - c
    rows, cols = cost.shape[1:]
    if f != g or max(abs(dr), abs(dc)) != 1 or not (0 <= rr < rows and 0 <= cc < cols):
        return math.inf
    if math.isinf(cost[g, rr, cc]):
        return math.inf
    if dr == 0 or dc == 0:
        return float(cost[g, rr, cc])
    if rule == "never":
        return math.inf
    free_a = not math.isinf(cost[f, r + dr, c])
    free_b = not math.isinf(cost[f, r, c + dc])
    if rule == "no_corner_cut" and not (free_a and free_b):
        return math.inf
    if rule == "one_free" and not (free_a or free_b):
        return math.inf
    return float(cost[g, rr, cc]) * SQRT2


def edges(cost: np.ndarray, rule: str, portals: list[Portal]) -> dict[tuple[Any, Any], float]:
    """Every step of the level as ``{(a, b): cheapest cost}``."""
    out: dict[tuple[Any, Any], float] = {}
    floors, rows, cols = cost.shape
    for f in range(floors):
        for r in range(rows):
            for c in range(cols):
                if math.isinf(cost[f, r, c]):
                    continue
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        b = (f, r + dr, c + dc)
                        w = move_cost(cost, rule, (f, r, c), b)
                        if w < math.inf:
                            out[((f, r, c), b)] = w
    for p in portals:
        pairs = [(p.entry, p.exit)] + ([(p.exit, p.entry)] if p.two_way else [])
        for a, b in pairs:
            out[(a, b)] = min(out.get((a, b), math.inf), p.cost)
    return out


def oracle(cost: np.ndarray, rule: str, portals: list[Portal], sources: list[Any]) -> np.ndarray:
    """scipy's Dijkstra from ``sources``: the ``(floors, rows, cols)`` cost field."""
    shape = cost.shape
    step = edges(cost, rule, portals)
    idx = [np.ravel_multi_index(a, shape) for a, _ in step]
    jdx = [np.ravel_multi_index(b, shape) for _, b in step]
    # scipy drops explicit zeros of a sparse matrix: a zero-cost portal becomes a tiny
    # weight far below any real difference.
    w = [max(v, 1e-300) for v in step.values()]
    n = cost.size
    matrix = csr_matrix((w, (idx, jdx)), shape=(n, n))
    flat = [int(np.ravel_multi_index(s, shape)) for s in sources]
    return np.asarray(csgraph_dijkstra(matrix, indices=flat, min_only=True)).reshape(shape)


def check_path(level: Level, result: PathResult, start: Any, goal: Any) -> None:
    """The path is legal (each step an in-floor move or a portal) and costs the sum
    of its steps."""
    path = [tuple(int(v) for v in cell) for cell in result.path]
    assert path[0] == tuple(start) and path[-1] == tuple(goal)
    step = edges(np.asarray(level.cost), level.diagonal, list(level.portals))
    total = 0.0
    for a, b in itertools.pairwise(path):
        assert (a, b) in step, (a, b)
        total += step[(a, b)]
    assert math.isclose(result.cost, total, rel_tol=RTOL, abs_tol=1e-12)


# --------------------------------------------------------------------------- levels


@dataclass
class Case:
    level: Level
    start: tuple[int, int, int]
    goal: tuple[int, int, int]


@st.composite
def levels(draw: Any, max_side: int = 7, max_portals: int = 8) -> Case:
    floors = draw(st.integers(2, 4), label="floors")
    rows = draw(st.integers(1, max_side), label="rows")
    cols = draw(st.integers(1, max_side), label="cols")
    rule = draw(st.sampled_from(RULES), label="rule")
    kind = draw(st.sampled_from(("unit", "integer", "uniform", "cheap")), label="costs")
    walls = draw(st.sampled_from((0.0, 0.15, 0.35)), label="walls")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    cost = np.stack([make_cost(rng, (rows, cols), kind, walls) for _ in range(floors)])
    free = np.argwhere(np.isfinite(cost))
    if len(free) < 2:
        cost[0, 0, 0] = cost[1, 0, 0] = 1.0
        free = np.argwhere(np.isfinite(cost))
    level = Level(list(cost), diagonal=rule)
    for _ in range(draw(st.integers(0, max_portals), label="portals")):
        a, b = (tuple(int(v) for v in free[i]) for i in rng.integers(len(free), size=2))
        if a == b:
            continue
        kind_of = rng.integers(3)
        price = 0.0 if kind_of == 0 else float(rng.uniform(0.0, 6.0))
        level.add_portal(a, b, cost=price, two_way=bool(rng.integers(2)))  # type: ignore[arg-type]
    i, j = rng.integers(len(free), size=2)
    start = tuple(int(v) for v in free[i])
    goal = tuple(int(v) for v in free[j])
    return Case(level, start, goal)  # type: ignore[arg-type]


def check_case(case: Case) -> None:
    level, start, goal = case.level, case.start, case.goal
    want = oracle(np.asarray(level.cost), level.diagonal, list(level.portals), [start])[goal]
    for algorithm in ("astar", "dijkstra"):
        result = level.find_path(start, goal, algorithm=algorithm)
        if math.isinf(want):
            assert not result and result.reason == "unreachable"
            continue
        assert result, (algorithm, result)
        assert math.isclose(result.cost, want, rel_tol=RTOL, abs_tol=1e-12), (algorithm, want)
        check_path(level, result, start, goal)
    greedy = level.find_path(start, goal, algorithm="greedy")
    assert bool(greedy) == (not math.isinf(want))
    if greedy:
        check_path(level, greedy, start, goal)
        assert greedy.cost >= want - 1e-9
    weighted = level.find_path(start, goal, weight=1.5)
    if weighted:
        check_path(level, weighted, start, goal)
        assert weighted.cost <= 1.5 * want + 1e-9


@settings(max_examples=150)
@given(levels())
def test_astar_and_dijkstra_match_the_scipy_oracle(case: Case) -> None:
    check_case(case)


@pytest.mark.slow
@settings(max_examples=1500)
@given(levels(max_side=12, max_portals=20))
def test_astar_matches_the_oracle_on_many_levels(case: Case) -> None:
    check_case(case)


@settings(max_examples=40)
@given(levels())
def test_distance_field_matches_the_oracle(case: Case) -> None:
    level = case.level
    want = oracle(
        np.asarray(level.cost), level.diagonal, list(level.portals), [case.start, case.goal]
    )
    got = level.distance_field([case.start, case.goal])
    assert got.shape == level.shape
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=1e-12)


@settings(max_examples=30)
@given(levels())
def test_batches_and_the_generic_search_agree(case: Case) -> None:
    level = case.level
    starts = [case.start, case.goal, case.start]
    goals = [case.goal, case.start, case.start]
    single = [level.find_path(s, g) for s, g in zip(starts, goals, strict=True)]
    costs = level.path_costs(starts, goals)
    batch = level.find_paths(starts, goals, workers=2)
    for one, cost, many in zip(single, costs, batch, strict=True):
        assert one.cost == cost == many.cost
        assert np.array_equal(one.path, many.path)
    slow = generic.find_path(case.start, case.goal, level.neighbors, algorithm="dijkstra")
    assert math.isclose(slow.cost, single[0].cost, rel_tol=RTOL, abs_tol=1e-12) or (
        not slow and not single[0]
    )


def test_the_heuristic_caps_keep_astar_optimal() -> None:
    """More than 32 portal entries on a floor, and more than 1024 portals: the
    heuristic falls back to its cheaper bounds and A* stays optimal."""
    from pathcraft._core import layered as kernel

    rng = np.random.default_rng(5)
    cost = rng.uniform(0.5, 3.0, size=(3, 24, 24))
    cost[rng.random(cost.shape) < 0.2] = np.inf
    free = [tuple(int(v) for v in cell) for cell in np.argwhere(np.isfinite(cost))]
    for count in (kernel.FLOOR_ENTRIES_CAP * 4, kernel.LB_PORTALS_CAP + 50):
        level = Level(list(cost))
        for i, j in rng.integers(len(free), size=(count, 2)):
            if free[i] != free[j]:
                level.add_portal(free[i], free[j], cost=float(rng.uniform(0, 30)), two_way=False)
        pairs = [tuple(free[k] for k in rng.integers(len(free), size=2)) for _ in range(15)]
        starts, goals = [p[0] for p in pairs], [p[1] for p in pairs]
        astar = level.path_costs(starts, goals)
        exact = level.path_costs(starts, goals, algorithm="dijkstra")
        np.testing.assert_allclose(astar, exact, rtol=RTOL)
        field = oracle(cost, "no_corner_cut", list(level.portals), [starts[0]])
        assert math.isclose(astar[0], field[goals[0]], rel_tol=RTOL)


def test_astar_expands_fewer_cells_than_dijkstra_across_stairs() -> None:
    level = Level(np.ones((3, 40, 40)))
    level.add_portal((0, 39, 39), (1, 39, 39), cost=2.0)
    level.add_portal((1, 0, 0), (2, 0, 0), cost=2.0)
    astar = level.find_path((0, 0, 0), (2, 39, 39))
    dijkstra = level.find_path((0, 0, 0), (2, 39, 39), algorithm="dijkstra")
    assert astar.cost == pytest.approx(dijkstra.cost)
    assert astar.expanded < dijkstra.expanded / 2


# --------------------------------------------------------------------------- API


def test_paths_say_the_floor_and_split_per_floor() -> None:
    level = Level([Grid.from_ascii("...\n..."), Grid.from_ascii("...\n...")])
    level.add_portal((0, 1, 2), (1, 1, 2), cost=3.0)
    result = level.find_path((0, 0, 0), (1, 0, 0))
    assert result.path.shape[1] == 3
    assert result.path[0].tolist() == [0, 0, 0] and result.path[-1].tolist() == [1, 0, 0]
    pieces = level.split_path(result)
    assert [f for f, _ in pieces] == [0, 1]
    assert pieces[0][1][-1].tolist() == [1, 2] and pieces[1][1][0].tolist() == [1, 2]
    assert Level.split_path(np.empty((0, 3))) == []


def test_one_way_drops_and_teleporters() -> None:
    level = Level(np.ones((2, 1, 5)))
    level.add_portal((1, 0, 4), (0, 0, 4), cost=0.0, two_way=False)  # a drop
    level.add_portal((0, 0, 0), (1, 0, 0), cost=10.0)  # stairs
    assert level.find_path((1, 0, 3), (0, 0, 4)).cost == 1.0
    up = level.find_path((0, 0, 4), (1, 0, 4))
    assert up.cost == 4 + 10 + 4
    level.add_portal((0, 0, 3), (0, 0, 1), cost=0.5, two_way=False)  # a teleporter
    assert level.find_path((0, 0, 4), (0, 0, 0)).cost == 1 + 0.5 + 1


def test_grids_bring_their_diagonal_rule() -> None:
    floors = [Grid(np.ones((3, 3)), diagonal="never")] * 2
    level = Level(floors, portals=[((0, 0, 0), (1, 0, 0))])
    assert level.diagonal == "never"
    assert level.find_path((0, 0, 0), (1, 2, 2)).cost == 5.0
    with pytest.raises(
        ValueError, match=r"floors: the Grids' diagonal rule 'never' is not diagonal='always'"
    ):
        Level(floors, diagonal="always")
    with pytest.raises(ValueError, match=r"floors: the Grids have different diagonal rules"):
        Level([Grid(np.ones((3, 3)), diagonal="never"), Grid(np.ones((3, 3)))])


def test_floors_and_portals_are_copied_not_kept() -> None:
    ground = np.ones((2, 2))
    level = Level([ground, ground])
    ground[0, 1] = np.inf
    assert level.cost[0, 0, 1] == 1.0
    with pytest.raises(ValueError):
        level.cost[0, 0, 0] = 5.0


def test_start_search_steps_to_the_same_answer() -> None:
    level = Level(np.ones((2, 6, 6)), portals=[((0, 5, 5), (1, 0, 0), 1.0)])
    search = level.start_search((0, 0, 0), (1, 5, 5))
    while search.step(3) == "in_progress":
        pass
    direct = level.find_path((0, 0, 0), (1, 5, 5))
    assert search.result.cost == direct.cost
    assert np.array_equal(search.result.path, direct.path)


def test_limits_partial_and_record() -> None:
    level = Level(np.ones((2, 8, 8)), portals=[((0, 7, 7), (1, 7, 7))])
    capped = level.find_path((0, 0, 0), (1, 0, 0), max_expansions=5, partial=True)
    assert not capped and capped.reason == "max_expansions" and len(capped.path) >= 1
    recorded = level.find_path((0, 0, 0), (1, 0, 0), record=True)
    assert recorded.explored is not None and recorded.explored.nodes.shape[1] == 3
    assert not level.find_path((0, 0, 0), (1, 0, 0), max_cost=3.0)
    field = level.distance_field((0, 0, 0), max_cost=3.0)
    assert np.isinf(field[1]).all() and field[0, 2, 2] < 3 and np.isinf(field[0, 3, 3])


def test_unsupported_options_are_refused() -> None:
    level = Level(np.ones((2, 2, 2)))
    with pytest.raises(
        UnsupportedOptionError,
        match=r"Level.find_path\(algorithm='dijkstra'\) does not take weight",
    ):
        level.find_path((0, 0, 0), (0, 1, 1), algorithm="dijkstra", weight=2.0)
    with pytest.raises(ValueError, match=r"heuristic must be one of"):
        level.find_path((0, 0, 0), (0, 1, 1), heuristic="octile")
    assert level.find_path((0, 0, 0), (0, 1, 1), heuristic="zero").cost == pytest.approx(SQRT2)


def test_the_lazy_export() -> None:
    assert pathcraft.Level is Level
    assert "Level" in dir(pathcraft)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("portal", "kind", "message"),
    [
        (
            ((0, 0, 0), (2, 0, 0)),
            ValueError,
            r"portals\[0\]: exit \(2, 0, 0\) is outside the level of shape \(2, 2, 3\)",
        ),
        (
            ((0, 0, 0), (1, 3, 0)),
            ValueError,
            r"portals\[0\]: exit \(1, 3, 0\) is outside the level of shape \(2, 2, 3\)",
        ),
        (((0, 0, 1), (1, 0, 0)), ValueError, r"portals\[0\]: entry \(0, 0, 1\) is a wall"),
        (
            ((0, 0, 0), (1, 0, 0), -1.0),
            ValueError,
            r"portals\[0\]: cost must be a finite number >= 0; got -1.0",
        ),
        (
            ((0, 0, 0), (1, 0, 0), math.nan),
            ValueError,
            r"portals\[0\]: cost must be a finite number >= 0; got nan",
        ),
        (
            ((0, 0, 0), (1, 0, 0), math.inf),
            ValueError,
            r"portals\[0\]: cost must be a finite number >= 0; got inf",
        ),
        (
            ((0, 0, 0), (1, 0, 0), "1"),
            TypeError,
            r"portals\[0\]: cost must be a finite number >= 0; got '1'",
        ),
        (
            ((0, 0, 0), (1, 0, 0), 1.0, 1),
            TypeError,
            r"portals\[0\]: two_way must be True or False; got 1",
        ),
        (
            ((0, 0, 0), (0, 0, 0)),
            ValueError,
            r"portals\[0\]: a portal from \(0, 0, 0\) to itself goes nowhere",
        ),
        (
            ((0, 0), (1, 0, 0)),
            TypeError,
            r"portals\[0\]: entry must be a \(floor, row, col\) cell; got \(0, 0\)",
        ),
        (
            ((0, 0, 0.5), (1, 0, 0)),
            TypeError,
            r"portals\[0\]: entry must be a \(floor, row, col\) cell of integers",
        ),
        (
            ((0, 0, 0),),
            TypeError,
            r"portals\[0\]: a portal is \(entry, exit\[, cost\[, two_way\]\]\)",
        ),
    ],
)
def test_bad_portals_are_refused_by_name(portal: Any, kind: type, message: str) -> None:
    cost = np.ones((2, 2, 3))
    cost[0, 0, 1] = np.inf
    with pytest.raises(kind, match=message):
        Level(list(cost), portals=[portal])


def test_add_portal_errors_name_the_argument() -> None:
    level = Level(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match=r"^entry \(0, 5, 0\) is outside the level of shape "):
        level.add_portal((0, 5, 0), (1, 0, 0))
    with pytest.raises(ValueError, match=r"^cost must be a finite number >= 0; got -0.5$"):
        level.add_portal((0, 0, 0), (1, 0, 0), cost=-0.5)
    assert level.portals == ()
    level.add_portal((0, 0, 0), (1, 0, 0), cost=1e308)
    with pytest.raises(ValueError, match=r"^cost 1e\+308: the portals' costs \(inf in all\)"):
        level.add_portal((0, 0, 0), (1, 0, 0), cost=1e308)
    assert len(level.portals) == 1


@pytest.mark.parametrize(
    ("floors", "kind", "message"),
    [
        ([], ValueError, r"floors must hold at least one floor"),
        (
            [np.ones((2, 2)), np.ones((2, 3))],
            ValueError,
            r"floors\[1\] has shape \(2, 3\); every floor must have floor 0's shape \(2, 2\)",
        ),
        ([np.ones((2, 2)), -np.ones((2, 2))], ValueError, r"floors\[1\] must be > 0 and not NaN"),
        ([np.ones(3)], ValueError, r"floors\[0\] must be 2-D"),
        (5, TypeError, r"floors must be a sequence of Grids or 2-D cost arrays; got 5"),
        (Grid(np.ones((2, 2))), TypeError, r"floors must be a sequence of floors; got one Grid"),
    ],
)
def test_bad_floors_are_refused(floors: Any, kind: type, message: str) -> None:
    with pytest.raises(kind, match=message):
        Level(floors)


def test_bad_cells_are_refused_before_the_kernel() -> None:
    cost = np.ones((2, 2, 2))
    cost[1, 1, 1] = np.inf
    level = Level(cost)
    with pytest.raises(ValueError, match=r"^start \(1, 1, 1\) is a wall$"):
        level.find_path((1, 1, 1), (0, 0, 0))
    with pytest.raises(ValueError, match=r"^goal \(3, 0, 0\) is outside the level of shape"):
        level.find_path((0, 0, 0), (3, 0, 0))
    with pytest.raises(TypeError, match=r"^goal must be a \(floor, row, col\) cell; got \(0, 0\)$"):
        level.find_path((0, 0, 0), (0, 0))
    with pytest.raises(ValueError, match=r"starts\[1\] \(0, 2, 0\) is outside"):
        level.path_costs([(0, 0, 0), (0, 2, 0)], [(0, 1, 1), (0, 1, 1)])
    with pytest.raises(ValueError, match=r"sources \(1, 1, 1\) is a wall"):
        level.distance_field((1, 1, 1))
    with pytest.raises(ValueError, match=r"diagonal must be one of"):
        Level(cost, diagonal="sometimes")


# --------------------------------------------------------------------------- kernel boundary


def test_the_kernel_checks_its_inputs_before_running() -> None:
    from pathcraft._core import layered as kernel

    level = Level(np.ones((2, 2, 3)), portals=[((0, 0, 0), (1, 1, 2))])
    padded = np.full((2 * 3 + 1, 5), np.inf)
    padded[1:3, 1:4] = padded[4:6, 1:4] = 1.0
    n = padded.size
    indptr = np.zeros(n + 1, dtype=np.int64)
    targets = np.array([], dtype=np.intp)
    pcost = np.array([], dtype=np.float64)
    tables = kernel.Tables(padded, 2, 1, indptr, targets, pcost)
    settings = {"hkind": 1, "hscale": 1.0, "settings": kernel_settings("astar")}
    ws = kernel.Workspace(n)
    with pytest.raises(IndexError, match="sources: padded cell index 15 is not a cell"):
        kernel.search(tables, ws, np.array([15], dtype=np.intp), 6, **settings)  # wall row
    with pytest.raises(IndexError, match="goal: padded cell index 999"):
        kernel.search(tables, ws, np.array([6], dtype=np.intp), 999, **settings)
    with pytest.raises(ValueError, match="workspace of 3 cells is too small"):
        kernel.search(tables, kernel.Workspace(3), np.array([6], dtype=np.intp), 7, **settings)
    with pytest.raises(ValueError, match="indptr has"):
        kernel.Tables(padded, 2, 1, indptr[:-1], targets, pcost)
    with pytest.raises(ValueError, match="a stack of 4 floors"):
        kernel.Tables(padded, 4, 1, indptr, targets, pcost)
    with pytest.raises(ValueError, match="padded: row 2 separates floors"):
        kernel.Tables(padded, 3, 1, indptr, targets, pcost)
    with pytest.raises(ValueError, match="padded: row 0 has no wall at both ends"):
        kernel.Tables(np.ones_like(padded), 2, 1, indptr, targets, pcost)
    bad = indptr.copy()
    bad[7:] = 1
    with pytest.raises(IndexError, match="targets: padded cell index 0"):
        kernel.Tables(padded, 2, 1, bad, np.array([0], dtype=np.intp), np.array([1.0]))
    with pytest.raises(ValueError, match=r"portal 0 costs -1\.0"):
        kernel.Tables(padded, 2, 1, bad, np.array([6], dtype=np.intp), np.array([-1.0]))
    wall = indptr.copy()
    wall[1:] = 1
    with pytest.raises(IndexError, match="portal entry: padded cell index 0"):
        kernel.Tables(padded, 2, 1, wall, np.array([6], dtype=np.intp), np.array([1.0]))
    out = np.empty((2, 2, 2))
    with pytest.raises(ValueError, match=r"out_costs has shape \(2, 2, 2\)"):
        kernel.field(tables, ws, np.array([6], dtype=np.intp), out, math.inf)
    assert level.find_path((0, 0, 0), (1, 1, 2)).cost == 1.0


# --------------------------------------------------------------------------- Moving AI


@pytest.mark.slow
def test_stacked_movingai_maps_match_the_oracle(movingai: Any) -> None:
    """Three floors cut from Moving AI maps (120 x 120), joined by stairs, drops and a
    teleporter: A* and Dijkstra agree with scipy on random queries across floors."""
    names = ("dao/lak303d.map", "dao/den520d.map", "street/Berlin_0_256.map")
    side = 120
    costs = [np.array(Grid.from_movingai(movingai / "maps" / n).cost)[:side, :side] for n in names]
    level = Level(costs)
    rng = np.random.default_rng(11)
    free = np.isfinite(level.cost)
    for f in range(len(names) - 1):
        both = np.argwhere(free[f] & free[f + 1])
        for i in rng.choice(len(both), size=3, replace=False):
            r, c = (int(v) for v in both[i])
            level.add_portal((f, r, c), (f + 1, r, c), cost=float(rng.uniform(0, 8)))
    cells = [(int(f), int(r), int(c)) for f, r, c in np.argwhere(free)]
    for _ in range(4):
        a, b = (cells[i] for i in rng.integers(len(cells), size=2))
        if a != b:
            level.add_portal(a, b, cost=float(rng.uniform(0, 20)), two_way=False)
    for _ in range(3):
        start, *goals = (cells[i] for i in rng.integers(len(cells), size=8))
        want = oracle(np.asarray(level.cost), level.diagonal, list(level.portals), [start])
        for goal in goals:
            astar = level.find_path(start, goal)
            exact = level.find_path(start, goal, algorithm="dijkstra")
            if math.isinf(want[goal]):
                assert not astar and not exact
                continue
            assert math.isclose(astar.cost, want[goal], rel_tol=RTOL)
            assert math.isclose(exact.cost, want[goal], rel_tol=RTOL)
            check_path(level, astar, start, goal)
