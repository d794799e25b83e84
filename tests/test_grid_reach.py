"""Reachability on grids (``Grid.components``, ``Grid.reachable``): the labels equal
scipy's connected components under every move rule and unit size, after every edit of
random edit sequences; ``reachable`` agrees with Dijkstra's finite costs; a search
answers a goal it cannot reach at once once the labels are built (issue 32's repro),
and ``partial=True`` still explores."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _grids import RULES, Case, cases, oracle, oracle_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage
from scipy.sparse.csgraph import connected_components

from pathcraft import Grid
from pathcraft._core.components import label, repair
from pathcraft._reach import Reach

#: The structure of ``scipy.ndimage.label`` joining what each rule joins.
STRUCTURES = {
    "never": ndimage.generate_binary_structure(2, 1),
    "no_corner_cut": ndimage.generate_binary_structure(2, 1),
    "one_free": ndimage.generate_binary_structure(2, 1),
    "always": ndimage.generate_binary_structure(2, 2),
}


def canonical(labels: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """Labels renumbered 0, 1, ... by first appearance in row-major order, -1 on walls."""
    flat = np.where(walls, -1, labels).ravel()
    out = np.full(flat.shape, -1)
    seen: dict[int, int] = {}
    for i, x in enumerate(flat.tolist()):
        if x >= 0:
            out[i] = seen.setdefault(x, len(seen))
    return out.reshape(labels.shape)


def assert_components(grid: Grid, cost: np.ndarray, rule: str, size: int = 1) -> None:
    labels, count = grid.components(size=size)
    view = grid.for_size(size).cost if size > 1 else cost
    walls = ~np.isfinite(view)
    # scipy on the oracle graph of the moves the rule allows (written apart)
    graph = oracle_graph(view, rule)
    _, strong = connected_components(graph, directed=True, connection="strong")
    want = canonical(strong.reshape(view.shape), walls)
    assert labels.dtype == np.int32
    assert canonical(labels, walls).tolist() == want.tolist()  # the same partition
    assert sorted(set(labels[~walls].tolist())) == list(range(count))
    assert count == int(want.max()) + 1
    structured, k = ndimage.label(~walls, structure=STRUCTURES[rule])
    assert canonical(structured - 1, walls).tolist() == want.tolist()
    assert k == count


@settings(max_examples=60, deadline=None)
@given(cases())
def test_labels_equal_scipy(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    assert_components(grid, case.cost, case.rule)


@settings(max_examples=40, deadline=None)
@given(cases(max_side=16), st.sampled_from((2, 3)))
def test_unit_labels_equal_scipy(case: Case, size: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    assert_components(grid, case.cost, case.rule, size)


def _fits(cost: np.ndarray, size: int) -> np.ndarray:
    """Where a unit of ``size`` stands (its square free, inside), cell by cell."""
    rows, cols = cost.shape
    fits = np.zeros((rows, cols), dtype=bool)
    for r in range(rows - size + 1):
        for c in range(cols - size + 1):
            fits[r, c] = bool(np.isfinite(cost[r : r + size, c : c + size]).all())
    return fits


@settings(max_examples=60, deadline=None)
@given(cases(max_side=16), st.sampled_from((1, 1, 2, 3)))
def test_the_move_graph_is_the_oracle_graph(case: Case, size: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    moves = grid._move_graph(size=size)
    rows, cols = case.cost.shape
    fits = _fits(case.cost, size)
    # the hook's moves over padded cells, as row-major cells
    slots = np.repeat(np.arange(moves.offsets.size - 1), np.diff(moves.offsets))
    real = moves.targets >= 0
    tails, heads = (np.divmod(x, cols + 2) for x in (slots[real], moves.targets[real]))
    got = set(zip(((tails[0] - 1) * cols + tails[1] - 1).tolist(),
                  ((heads[0] - 1) * cols + heads[1] - 1).tolist(), strict=True))  # fmt: skip
    want = oracle_graph(np.where(fits, 1.0, np.inf), case.rule).nonzero()
    assert got == set(zip(want[0].tolist(), want[1].tolist(), strict=True))
    assert moves.places.reshape(rows + 2, cols + 2)[1:-1, 1:-1].tolist() == fits.tolist()
    assert not moves.directed and moves.targets.dtype == np.int32
    # labels drawn from it are the grid's compiled ones
    drawn = Reach(moves, grid.version).labels.reshape(rows + 2, cols + 2)[1:-1, 1:-1]
    labels = grid.components(size=size)[0]
    assert canonical(drawn, ~fits).tolist() == canonical(labels, ~fits).tolist()


@settings(max_examples=80, deadline=None)
@given(
    cases(max_side=20),
    st.lists(
        st.tuples(st.floats(0, 1), st.floats(0, 1), st.sampled_from((np.inf, 1.0, 3.0))),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from((1, 1, 2, 3)),
)
def test_labels_stay_current_under_edits(case: Case, edits: list[Any], size: int) -> None:
    cost = case.cost.copy()
    grid = Grid(cost, diagonal=case.rule)
    rows, cols = cost.shape
    grid.prepare("components")
    grid.components(size=size)
    for fr, fc, value in edits:
        r, c = min(int(fr * rows), rows - 1), min(int(fc * cols), cols - 1)
        grid[r, c] = value
        cost[r, c] = value
        assert_components(grid, cost, case.rule, size)
        if size > 1:
            continue
        free = np.argwhere(np.isfinite(cost))
        if len(free) < 2:
            continue
        a, b = (tuple(int(x) for x in free[i]) for i in (0, len(free) - 1))
        finite = bool(np.isfinite(oracle(cost, case.rule, [a])[b]))
        assert grid.reachable(a, b) is finite
        result = grid.astar(a, b)
        assert result.found is finite
        if not finite:
            assert result.reason == "unreachable" and result.expanded == 0


@settings(max_examples=60, deadline=None)
@given(cases())
def test_reachable_is_dijkstra_finite(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    want = bool(np.isfinite(oracle(case.cost, case.rule, [case.start])[case.goal]))
    for algorithm in ("astar", "dijkstra", "greedy"):  # without labels: searched
        assert grid.find_path(case.start, case.goal, algorithm=algorithm).found is want
    assert grid.reachable(case.start, case.goal) is want
    for algorithm in ("astar", "dijkstra", "greedy"):
        result = grid.find_path(case.start, case.goal, algorithm=algorithm)
        assert result.found is want
        if not want:
            assert (result.reason, result.expanded, result.path.shape) == ("unreachable", 0, (0, 2))
            assert result.cost == np.inf


def island(side: int, rule: str = "no_corner_cut") -> Grid:
    """The issue's repro: one open cell walled in by a ring in an open map."""
    cost = np.ones((side, side))
    mid = side // 2
    cost[mid - 1 : mid + 2, mid - 1 : mid + 2] = np.inf
    cost[mid, mid] = 1.0
    return Grid(cost, diagonal=rule)


def test_a_grid_never_asked_searches_as_before() -> None:
    grid = island(32)
    for _ in range(2):
        assert grid.astar((0, 0), (16, 16)).expanded == 32 * 32 - 9
    assert grid.prepared == ()


@pytest.mark.parametrize("rule", RULES)
def test_after_an_edit_the_first_unreachable_answer_builds_the_labels(rule: str) -> None:
    grid = island(64, rule)
    mid = 32
    grid.prepare("components")
    grid[5, 7:10:2] = np.inf  # two walls at once: labelled again, when first needed
    assert grid.prepared == ()
    first = grid.astar((0, 0), (mid, mid))
    assert first.reason == "unreachable" and first.expanded == 64 * 64 - 11
    assert grid.prepared == ("components",)
    again = grid.astar((0, 0), (mid, mid))
    assert (again.found, again.reason, again.expanded, again.generated) == (
        False, "unreachable", 0, 0,
    )  # fmt: skip
    assert grid.dijkstra((mid, mid), (5, 5)).expanded == 0
    assert grid.find_path((0, 0), (63, 63)).found  # the labels never refuse a reachable goal
    assert grid.path_cost((0, 0), (mid, mid)) == np.inf


def test_prepared_labels_answer_the_first_query() -> None:
    grid = island(64)
    grid.prepare("components")
    assert grid.prepared == ("components",)
    assert grid.astar((0, 0), (32, 32)).expanded == 0
    assert grid.jps((0, 0), (32, 32)).expanded == 0
    jps = grid.jps((0, 0), (32, 32))
    assert jps.jump_points is not None and jps.jump_points.shape == (0, 2)
    grid.prepare("jps+")
    assert grid.find_path((0, 0), (32, 32), algorithm="jps").expanded == 0
    assert grid.find_path((0, 0), (32, 32), max_cost=5.0).reason == "unreachable"
    batch = grid.find_paths([(0, 0), (1, 1)], [(32, 32), (2, 2)])
    assert batch[0].expanded == 0 and batch[1].found


def test_an_edit_drops_the_labels_and_the_next_query_is_right() -> None:
    grid = island(32)
    grid.prepare("components")
    assert not grid.reachable((0, 0), (16, 16))
    grid[15, 16] = 1.0  # open the ring: a join, repaired when next needed
    assert grid.prepared == ()
    assert grid.astar((0, 0), (16, 16)).found
    assert grid.prepared == ("components",)  # the plan made repaired them
    assert grid.reachable((0, 0), (16, 16))
    grid[15, 16] = np.inf
    assert not grid.reachable((0, 0), (16, 16))
    assert grid.astar((0, 0), (16, 16)).expanded == 0
    assert grid.astar((0, 0), (16, 16), max_expansions=3).reason == "unreachable"


def test_one_cell_edits_carry_the_labels_over() -> None:
    grid = island(32)
    grid.prepare("components")

    def carried() -> bool:
        assert grid.prepared == ()
        assert grid.astar((2, 2), (2, 3)).found  # the plan made carries them over
        return grid.prepared == ("components",)

    grid[0, 5] = 3.0  # a cost
    assert carried() and grid.components()[1] == 2
    grid[16, 16] = np.inf  # the island closed: its component vanishes
    assert carried() and grid.components()[1] == 1
    grid[16, 16] = 1.0  # opened alone
    assert carried() and grid.components()[1] == 2
    assert grid.astar((0, 1), (16, 16)).expanded == 0
    grid[0, 1] = np.inf  # a wall beside (0, 0) and (0, 2): joined round it by row 1
    assert carried() and grid.components()[1] == 2
    grid[1, 0] = np.inf  # (0, 0) left with no walkable neighbour: split off
    assert carried() and grid.components()[1] == 3
    assert grid.astar((0, 0), (5, 5)).expanded == 0
    grid[0, 0] = np.inf  # a wall built on a cell alone: its component vanishes
    assert carried() and grid.components()[1] == 2
    grid[0, 0] = 2.0  # opened alone again
    assert grid.components()[1] == 3
    grid[1, 0] = 1.0  # opened between (0, 0) and the open map: a join
    assert grid.components()[1] == 2
    assert grid.astar((0, 0), (5, 5)).found
    grid[20, 20] = np.inf  # a wall in the open: its neighbours stay joined around it
    assert carried() and grid.astar((0, 2), (16, 16)).expanded == 0
    grid[3:5, 3:5] = np.inf  # several walls at once: labelled afresh when needed
    assert not carried() and grid.components()[1] == 2
    row = Grid(np.ones((1, 5)), diagonal="always")
    row.prepare("components")
    row[0, 2] = np.inf  # splits the row: repaired by two floods of two cells
    assert row.astar((0, 0), (0, 4)).expanded == 0 and row.components()[1] == 2


def test_a_stepped_search_ends_before_its_first_step() -> None:
    grid = island(32)
    grid.prepare("components")
    search = grid.start_search((0, 0), (16, 16))
    assert search.step(1) == "unreachable"
    result = search.result
    assert (result.found, result.reason, result.expanded, result.path.shape) == (
        False, "unreachable", 0, (0, 2),
    )  # fmt: skip
    search = grid.start_search((0, 0), (31, 31))  # reachable: searched as ever
    while search.step(50) == "in_progress":
        pass
    assert search.result.found and search.result.cost == grid.astar((0, 0), (31, 31)).cost


def test_partial_still_explores() -> None:
    grid = island(32)
    grid.prepare("components")
    result = grid.astar((0, 0), (16, 16), partial=True)
    assert not result.found and result.reason == "unreachable"
    assert result.expanded == 32 * 32 - 9
    assert len(result.path) > 1 and abs(result.path[-1] - 16).max() == 2


def test_unit_sizes() -> None:
    grid = Grid.from_ascii(
        """
        ....#...
        ....#...
        ........
        ......#.
        """
    )
    assert grid.reachable((0, 0), (0, 6))
    assert not grid.reachable((0, 0), (0, 6), size=2)  # a 2 x 2 unit cannot pass (2, 5)-(3, 6)
    assert grid.astar((0, 0), (0, 6), size=2).reason == "unreachable"
    assert grid.astar((0, 0), (0, 6), size=2).expanded == 0
    labels, count = grid.components(size=2)
    assert count == 2 and labels[3, 7] == -1


def test_components_hands_out_a_copy() -> None:
    grid = island(16)
    labels, _ = grid.components()
    labels[:] = 0
    assert not grid.reachable((0, 0), (8, 8))
    assert grid.astar((0, 0), (8, 8)).expanded == 0


def test_bad_input() -> None:
    grid = Grid.from_ascii(".#.")
    with pytest.raises(ValueError, match=r"goal \(0, 1\) is a wall"):
        grid.reachable((0, 0), (0, 1))
    with pytest.raises(ValueError, match="outside the grid"):
        grid.reachable((0, 0), (0, 3))
    with pytest.raises(TypeError, match="integers"):
        grid.reachable((0, 0), (0.0, 2.0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size must be an integer >= 1"):
        grid.components(size=0)
    with pytest.raises(ValueError, match="prepare"):
        grid.prepare("component")


@settings(max_examples=60, deadline=None)
@given(
    cases(max_side=16),
    st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=30),
)
def test_local_repair_equals_scipy_after_every_edit(case: Case, edits: list[Any]) -> None:
    """The compiled repair with no limit (a grid gives up on large floods and labels
    afresh, so small grids would seldom reach it): one cell toggled at a time."""
    eight = case.rule == "always"
    rows, cols = case.cost.shape
    padded = np.full((rows + 2, cols + 2), np.inf)
    padded[1:-1, 1:-1] = case.cost
    flat = np.empty(padded.size, dtype=np.int32)
    top = label(padded, eight, flat, np.empty(padded.size, dtype=np.intp))
    marks = np.zeros(padded.size, dtype=np.int32)
    for fr, fc in edits:
        r, c = min(int(fr * rows), rows - 1) + 1, min(int(fc * cols), cols - 1) + 1
        padded[r, c] = np.inf if np.isfinite(padded[r, c]) else 1.0
        top = repair(padded, eight, flat, r * (cols + 2) + c, top, marks, padded.size)
        assert not marks.any() and flat.max() < top
        walls = ~np.isfinite(padded)
        want, _ = ndimage.label(~walls, structure=STRUCTURES[case.rule])
        got = flat.reshape(padded.shape)
        assert canonical(got, walls).tolist() == canonical(want - 1, walls).tolist()


def test_a_repair_that_would_flood_half_the_grid_labels_afresh() -> None:
    cost = np.ones((64, 64))
    cost[:, 32] = np.inf
    cost[32, 32] = 1.0  # a door in a wall across the map
    grid = Grid(cost)
    grid.prepare("components")
    grid[32, 32] = np.inf  # both sides are half the map: beyond the repair's share
    assert not grid.reachable((0, 0), (0, 63))
    assert grid.components()[1] == 2
    grid[32, 32] = 1.0
    assert grid.reachable((0, 0), (0, 63)) and grid.components()[1] == 1
