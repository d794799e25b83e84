"""HPA* on grids (``prepare("hpa")``, ``find_path(algorithm="hpa")``): every path legal
and priced as its steps, never cheaper than scipy's Dijkstra, found exactly when one
exists, and kept right across edits by the repair of the touched clusters."""

from __future__ import annotations

import itertools
import math
import pickle

import numpy as np
import pytest
from _grids import RULES, Case, assert_legal, cases, oracle, steps_cost
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from pathcraft import Grid
from pathcraft._core import hpa as _kernel
from pathcraft.grid import _hpa
from pathcraft.grid._hpa import _SMOOTH_AREA, Hierarchy


def check(case: Case, grid: Grid, pairs: list[tuple[tuple[int, int], tuple[int, int]]]) -> None:
    cost = np.array(grid.cost)
    for start, goal in pairs:
        want = oracle(cost, case.rule, [start])[goal]
        got = grid.find_path(start, goal, algorithm="hpa")
        if math.isinf(want):
            assert not got and got.reason == "unreachable"
            assert got.path.shape == (0, 2)
            continue
        assert got, (start, goal)
        assert_legal(cost, case.rule, got.path, start, goal)
        assert got.cost == pytest.approx(steps_cost(cost, got.path), rel=1e-9)
        assert got.cost >= want * (1 - 1e-9)


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=40), cluster=st.integers(2, 9))
def test_hpa_paths_are_legal_priced_by_their_steps_and_never_below_optimal(
    case: Case, cluster: int
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    grid.prepare("hpa", cluster=cluster)
    check(
        case, grid, [(case.start, case.goal), *zip(case.pick(4), case.pick(4, salt=1), strict=True)]
    )


def contents(h: Hierarchy) -> tuple[object, ...]:
    """What a hierarchy holds, wherever in its buffers: its transitions, its nodes
    cluster by cluster, and per cluster the intra costs and refinement fields."""
    count = np.diff(h._cl_ptr).tolist()
    mats = {c: h._mats[h._mat_off[c] : h._mat_off[c] + n * n].tolist() for c, n in enumerate(count)}
    size = [n * int(a) for n, a in zip(count, h._area, strict=True)]
    dirs = {c: h._dirs[h._dir_off[c] : h._dir_off[c] + n].tobytes() for c, n in enumerate(size)}
    pairs = {k: sorted(v) for k, v in h._pairs.items() if v}
    return pairs, h._node_cell.tolist(), h._cl_ptr.tolist(), mats, dirs


@settings(max_examples=30, deadline=None)
@given(case=cases(max_side=30), cluster=st.integers(2, 8), data=st.data())
def test_hpa_after_edits_repairs_to_the_same_answers(
    case: Case, cluster: int, data: st.DataObject
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    grid.prepare("hierarchy", cluster=cluster)
    rows, cols = case.cost.shape
    for _ in range(data.draw(st.integers(1, 4))):
        r, c = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
        grid[r, c] = data.draw(st.sampled_from([np.inf, 1.0, 3.0]))
        free = np.argwhere(np.isfinite(np.array(grid.cost)))
        if len(free) == 0:
            continue
        a, b = (
            tuple(int(x) for x in free[i])
            for i in np.random.default_rng(case.seed).integers(len(free), size=2)
        )
        check(case, grid, [(a, b)])
        # the repaired hierarchy has the edges a fresh build has
        fresh = Hierarchy(grid, cluster)
        assert contents(grid._hier) == contents(fresh)


def test_hpa_is_near_optimal_on_an_open_maze() -> None:
    rng = np.random.default_rng(7)
    cost = np.ones((96, 96))
    cost[rng.random(cost.shape) < 0.2] = np.inf
    grid = Grid(cost, prepare="hpa")
    free = np.argwhere(np.isfinite(cost))
    ratios = []
    for _ in range(20):
        a, b = (tuple(int(x) for x in free[j]) for j in rng.integers(len(free), size=2))
        want = grid.astar(a, b)
        got = grid.find_path(a, b, algorithm="hpa")
        assert bool(got) == bool(want)
        if want and want.cost > 0:
            ratios.append(got.cost / want.cost)
    assert np.mean(ratios) < 1.05 and max(ratios) < 1.25, ratios


def test_unreachable_is_answered_without_search_and_prepared_is_listed() -> None:
    cost = np.ones((40, 40))
    cost[:, 20] = np.inf
    grid = Grid(cost)
    grid.prepare("hpa", cluster=8)
    assert grid.prepared == ("components", "hpa")
    got = grid.find_path((0, 0), (0, 39), algorithm="hpa")
    assert not got and got.reason == "unreachable" and got.expanded == 0


def test_bad_input_is_refused_at_the_boundary() -> None:
    grid = Grid(np.ones((8, 8)))
    with pytest.raises(ValueError, match="cluster"):
        grid.prepare("hpa", cluster=1)
    with pytest.raises(TypeError, match="hpa"):
        grid.find_path((0, 0), (1, 1), algorithm="hpa", weight=2.0)
    with pytest.raises(ValueError):
        grid.find_path((0, 0), (9, 9), algorithm="hpa")
    grid[1, 1] = np.inf
    with pytest.raises(ValueError, match="wall"):
        grid.find_path((0, 0), (1, 1), algorithm="hpa")
    # an array is no algorithm: refused by name, never compared elementwise with "hpa"
    with pytest.raises(TypeError, match="algorithm must be a string"):
        grid.find_path((0, 0), (2, 2), algorithm=np.array([0, 0], dtype=object))  # type: ignore[arg-type]


def test_the_first_hpa_query_builds_the_hierarchy_and_a_pickle_builds_it_again() -> None:
    grid = Grid(np.ones((20, 20)))
    assert grid.find_path((0, 0), (19, 19), algorithm="hpa").cost == pytest.approx(
        19 * math.sqrt(2)
    )
    assert "hpa" in grid.prepared
    back = pickle.loads(pickle.dumps(grid))
    assert "hpa" not in back.prepared
    assert back.find_path((0, 0), (19, 0), algorithm="hpa").cost == pytest.approx(19.0)


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_on_a_one_cell_and_a_single_cluster_grid(rule: str) -> None:
    grid = Grid(np.ones((1, 1)), diagonal=rule)  # type: ignore[arg-type]
    assert grid.find_path((0, 0), (0, 0), algorithm="hpa").cost == 0.0
    grid = Grid(np.ones((5, 5)), diagonal=rule, prepare="hpa")  # type: ignore[arg-type]
    assert grid.find_path((0, 0), (4, 4), algorithm="hpa")


def test_a_saved_grid_loads_with_its_hierarchy(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathcraft import io

    grid = Grid(np.ones((30, 30)))
    grid.prepare("hpa", cluster=6)
    io.save(grid, tmp_path / "g.npz")
    back = io.load(tmp_path / "g.npz")
    assert "hpa" in back.prepared and back._hier.size == 6
    assert (
        back.find_path((0, 0), (29, 3), algorithm="hpa").cost
        == grid.find_path((0, 0), (29, 3), algorithm="hpa").cost
    )


def test_many_repairs_fill_and_compact_the_buffers_and_stay_equal_to_a_fresh_build() -> None:
    rng = np.random.default_rng(3)
    grid = Grid(np.where(rng.random((24, 24)) < 0.2, np.inf, 1.0), prepare="hpa")
    grid.prepare("hpa", cluster=4)
    h = grid._hier
    sizes = {len(h._mats)}
    for _ in range(40):
        r, c = (int(x) for x in rng.integers(24, size=2))
        grid[r, c] = np.inf if np.isfinite(grid.cost[r, c]) else 2.0
        h.repair(grid)
        sizes.add(len(h._mats))
        assert contents(h) == contents(Hierarchy(grid, 4))
    assert len(sizes) > 1  # the buffers were compacted (and grown) on the way
    free = np.argwhere(np.isfinite(np.array(grid.cost)))
    case = Case(np.array(grid.cost), "no_corner_cut", tuple(free[0]), tuple(free[-1]), 0)
    check(case, grid, [(tuple(free[0]), tuple(free[-1])), (tuple(free[5]), tuple(free[-9]))])


@pytest.mark.parametrize("rule", RULES)
def test_open_clusters_take_octile_fields_that_refine_to_legal_paths(rule: str) -> None:
    cost = np.full((30, 33), 2.0)
    cost[12:15, 3:20] = np.inf  # some clusters with a wall, most open
    grid = Grid(cost, diagonal=rule)  # type: ignore[arg-type]
    hierarchy = Hierarchy(grid, 7)
    case = Case(cost, rule, (0, 0), (29, 32), 0)
    rng = np.random.default_rng(5)
    free = np.argwhere(np.isfinite(cost))
    for a, b in free[rng.integers(len(free), size=(12, 2))].tolist():
        raw, _ = hierarchy.path(a[0] * 33 + a[1], b[0] * 33 + b[1])
        assert raw is not None
        assert_legal(cost, case.rule, raw, tuple(a), tuple(b))
        want = oracle(cost, rule, [tuple(a)])[tuple(b)]
        assert hierarchy.path_cost(raw) >= want * (1 - 1e-9)


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=24), data=st.data())
def test_the_smoothing_box_search_is_the_cheapest_path_inside_its_box(
    case: Case, data: st.DataObject
) -> None:
    from pathcraft._core import hpa as kernel
    from pathcraft.grid._run import DIAGONAL_RULES

    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    rows, cols = case.cost.shape
    r0, c0 = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    r1, c1 = data.draw(st.integers(r0 + 1, rows)), data.draw(st.integers(c0 + 1, cols))
    box = case.cost[r0:r1, c0:c1]
    free = np.argwhere(np.isfinite(box))
    if len(free) == 0:
        return
    a, b = (free[data.draw(st.integers(0, len(free) - 1))] for _ in range(2))
    scale = float(case.cost[np.isfinite(case.cost)].min())
    fa, fb = (int((p[0] + r0) * cols + p[1] + c0) for p in (a, b))
    got = kernel.box_path(grid.padded, DIAGONAL_RULES[case.rule], scale, r0, r1, c0, c1, fa, fb)
    want = oracle(box, case.rule, [tuple(a)])[tuple(b)]
    if math.isinf(want):
        assert got is None
        return
    assert got is not None
    assert_legal(box, case.rule, got - (r0, c0), tuple(a), tuple(b))
    assert steps_cost(box, got - (r0, c0)) == pytest.approx(want, rel=1e-9)


def abstract_graph(h: Hierarchy) -> csr_matrix:
    """The hierarchy's abstract graph as a directed sparse graph, written out apart
    from the kernel: per cluster its finite intra costs, and every straight step from
    a node to a node of the next cluster (costing the entered cell)."""
    cost = np.array(h._cost)
    rows, cols = cost.shape
    node = {int(cell): i for i, cell in enumerate(h._node_cell.tolist())}
    src, dst, weight = [], [], []
    for c in range(len(h._cl_ptr) - 1):
        first, n = int(h._cl_ptr[c]), int(h._cl_ptr[c + 1] - h._cl_ptr[c])
        mat = h._mats[h._mat_off[c] : h._mat_off[c] + n * n].reshape(n, n)
        for k, m in zip(*np.nonzero(np.isfinite(mat)), strict=True):
            if k != m:
                src.append(first + k), dst.append(first + m), weight.append(mat[k, m])
    for cell, i in node.items():
        r, c = divmod(cell, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            j = node.get(nr * cols + nc) if 0 <= nr < rows and 0 <= nc < cols else None
            if j is not None and h.cluster_of(nr * cols + nc) != h.cluster_of(cell):
                src.append(i), dst.append(j), weight.append(cost[nr, nc])
    n = h.nodes
    return csr_matrix((weight, (src, dst)), shape=(n, n))


@settings(max_examples=40, deadline=None)
@given(case=cases(max_side=30), cluster=st.integers(2, 8), data=st.data())
def test_abstract_costs_and_landmark_tables_equal_scipy_on_the_abstract_graph(
    case: Case, cluster: int, data: st.DataObject
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    h = Hierarchy(grid, cluster, landmarks=3)
    if h.nodes == 0:
        return
    graph = abstract_graph(h)
    src = data.draw(st.integers(0, h.nodes - 1))
    for backward in (False, True):
        want = dijkstra(graph.T if backward else graph, indices=src)
        assert np.allclose(h._abstract(src, backward), want, rtol=1e-12)
    # each landmark column: the costs from (then to) one node, stored in float32
    marks = h._lm.shape[1] // 2
    for k in range(marks):
        landmark = int(np.flatnonzero(h._lm[:, k] == 0)[0])
        want = dijkstra(graph, indices=landmark).astype(np.float32)
        assert np.array_equal(h._lm[:, k], want)
        back = dijkstra(graph.T, indices=landmark).astype(np.float32)
        assert np.allclose(h._lm[:, marks + k], back, rtol=1e-6)


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=40), cluster=st.integers(2, 9))
def test_landmarks_keep_the_abstract_path_cost_and_cut_no_path(case: Case, cluster: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    h = Hierarchy(grid, cluster)
    plain = h._lm[:, :0].copy()
    cols = case.cost.shape[1]
    for a, b in [(case.start, case.goal), *zip(case.pick(4), case.pick(4, salt=1), strict=True)]:
        fa, fb = a[0] * cols + a[1], b[0] * cols + b[1]
        args = (grid.padded, h._rule, h.size, h._min, h._cl_ptr, h._node_cell)
        rest = (h._mat_off, h._dir_off, h._mats, h._dirs)
        cells, cost, _ = _kernel.query(*args, *rest, h._lm, fa, fb)
        base, want, _ = _kernel.query(*args, *rest, plain, fa, fb)
        assert (cells is None) == (base is None)
        if cells is not None:
            assert cost == pytest.approx(want, rel=1e-9)
            assert h.path_cost(cells) == pytest.approx(cost, rel=1e-9)


def test_landmarks_are_checked_and_far_apart() -> None:
    grid = Grid(np.ones((64, 64)))
    for bad in (-1, 17, 2.0):
        with pytest.raises(ValueError, match="landmarks"):
            Hierarchy(grid, 8, landmarks=bad)  # type: ignore[arg-type]
    h = Hierarchy(grid, 8, landmarks=5)
    assert h._lm.shape == (h.nodes, 10)
    # the first four at the corners' nodes, the fifth away from all of them
    marks = [int(np.flatnonzero(h._lm[:, k] == 0)[0]) for k in range(5)]
    cells = [divmod(int(h._node_cell[m]), 64) for m in marks]
    assert [(r // 32, c // 32) for r, c in cells[:4]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert min(abs(cells[4][0] - r) + abs(cells[4][1] - c) for r, c in cells[:4]) >= 16
    assert Hierarchy(grid, 8, landmarks=0)._lm.shape == (h.nodes, 0)


def smooth_by_boxes(h: Hierarchy, path: np.ndarray) -> np.ndarray:
    """The smoothing written apart from its compiled loop: per stretch between the
    turning cells, :func:`box_path`'s path where it is cheaper."""
    cols = h._cost.shape[1]
    at = h._turns(path).tolist()
    parts = [path[:1]]
    for ia, ib in itertools.pairwise(at):
        (ar, ac), (br, bc) = path[ia].tolist(), path[ib].tolist()
        box = (min(ar, br), max(ar, br) + 1, min(ac, bc), max(ac, bc) + 1)
        piece = path[ia : ib + 1]
        if ib - ia > 1 and (box[1] - box[0]) * (box[3] - box[2]) <= _SMOOTH_AREA:
            other = _kernel.box_path(
                h._padded, h._rule, h._min, *box, ar * cols + ac, br * cols + bc
            )
            if other is not None and h.path_cost(other) < h.path_cost(piece) - 1e-9:
                piece = other
        parts.append(piece[1:])
    return np.concatenate(parts)


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=40), cluster=st.integers(2, 9))
def test_the_compiled_smoothing_takes_every_cheaper_box_path(case: Case, cluster: int) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    h = Hierarchy(grid, cluster)
    cols = case.cost.shape[1]
    for a, b in [(case.start, case.goal), *zip(case.pick(3), case.pick(3, salt=2), strict=True)]:
        raw, _ = h.path(a[0] * cols + a[1], b[0] * cols + b[1])
        if raw is None or len(raw) < 3:
            continue
        got = h.smooth(raw)
        assert_legal(case.cost, case.rule, got, a, b)
        assert h.path_cost(got) <= h.path_cost(raw) * (1 + 1e-12)
        assert h.path_cost(got) == pytest.approx(h.path_cost(smooth_by_boxes(h, raw)), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(case=cases(max_side=30), cluster=st.integers(2, 8))
def test_intra_costs_equal_scipy_inside_each_cluster(case: Case, cluster: int) -> None:
    # one cost a cell (Dial's buckets), several (the heap), open clusters (octile)
    h = Hierarchy(Grid(case.cost, diagonal=case.rule), cluster)  # type: ignore[arg-type]
    cols = case.cost.shape[1]
    for c in range(len(h._cl_ptr) - 1):
        first, n = int(h._cl_ptr[c]), int(h._cl_ptr[c + 1] - h._cl_ptr[c])
        if n == 0:
            continue
        i, j = divmod(c, h.clusters[1])
        r0, c0 = i * cluster, j * cluster
        box = case.cost[r0 : r0 + cluster, c0 : c0 + cluster]
        cells = [divmod(int(x), cols) for x in h._node_cell[first : first + n]]
        local = [(r - r0, q - c0) for r, q in cells]
        mat = h._mats[h._mat_off[c] : h._mat_off[c] + n * n].reshape(n, n)
        for k in range(n):
            want = oracle(box, case.rule, [local[k]])
            assert np.allclose(mat[k], [want[p] for p in local], rtol=1e-9), (c, k)


def assert_feasible(h: Hierarchy) -> None:
    """Every landmark column of ``h`` a feasible potential of its abstract graph (no
    edge's cost below the difference its ends' values give, so the ALT bounds are
    admissible and consistent), and every bound it gives at most the true abstract
    cost (scipy's all-pairs Dijkstra)."""
    marks = h._lm.shape[1] // 2
    if h.nodes == 0 or marks == 0:
        return
    graph = abstract_graph(h).tocoo()
    u, v, w = graph.row, graph.col, graph.data
    truth = dijkstra(abstract_graph(h))  # truth[v, t]: from v to t
    with np.errstate(invalid="ignore"):
        for k in range(marks):
            f, b = h._lm[:, k].astype(float), h._lm[:, marks + k].astype(float)
            # within the query's slack for the float32 table: a millionth of the terms
            assert not (f[v] - 1e-6 * (f[v] + f[u]) > f[u] + w).any(), k  # from it
            assert not (b[u] - 1e-6 * (b[u] + b[v]) > w + b[v]).any(), k  # to it
            for x, y in ((f[None, :], f[:, None]), (b[:, None], b[None, :])):
                bound = x - y - 1e-6 * (x + y)
                known = np.isfinite(bound)
                assert (bound[known] <= truth[known]).all(), k


@settings(max_examples=25, deadline=None)
@given(case=cases(max_side=30), cluster=st.integers(2, 8), data=st.data())
def test_a_repair_keeps_the_landmarks_feasible_and_the_abstract_path_cost(
    case: Case, cluster: int, data: st.DataObject
) -> None:
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    grid.prepare("hpa", cluster=cluster)
    h = grid._hier
    rows, cols = case.cost.shape
    for _ in range(data.draw(st.integers(1, 5))):
        for _ in range(data.draw(st.integers(1, 3))):  # walls added, opened, costs changed
            r, c = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
            grid[r, c] = data.draw(st.sampled_from([np.inf, 1.0, 2.5]))
        h.repair(grid)
        assert h._lm.shape[0] == h.nodes
        assert contents(h) == contents(Hierarchy(grid, cluster, landmarks=0))
        assert_feasible(h)
        free = np.argwhere(np.isfinite(np.array(grid.cost)))
        if len(free) == 0:
            continue
        args = (grid.padded, h._rule, h.size, h._min, h._cl_ptr, h._node_cell)
        rest = (h._mat_off, h._dir_off, h._mats, h._dirs)
        for i, j in np.random.default_rng(case.seed).integers(len(free), size=(3, 2)).tolist():
            fa, fb = (int(free[x][0]) * cols + int(free[x][1]) for x in (i, j))
            cells, cost, _ = _kernel.query(*args, *rest, h._lm, fa, fb)
            base, want, _ = _kernel.query(*args, *rest, h._lm[:, :0].copy(), fa, fb)
            assert (cells is None) == (base is None)
            if cells is not None:
                assert cost == pytest.approx(want, rel=1e-9)


def test_an_opened_wall_keeps_the_landmarks_and_a_refresh_computes_a_fresh_builds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(11)
    cost = np.where(rng.random((48, 48)) < 0.25, np.inf, 1.0)
    grid = Grid(cost)
    grid.prepare("hpa", cluster=8)
    h = grid._hier
    assert h._lm.shape == (h.nodes, 16)
    free = np.argwhere(np.isfinite(cost))
    a, b = tuple(int(x) for x in free[0]), tuple(int(x) for x in free[-1])
    before = grid.find_path(a, b, algorithm="hpa")
    wall = np.argwhere(~np.isfinite(cost))[5]
    grid[tuple(wall)] = 1.0  # a wall opened: the costs behind it lowered, not dropped
    after = grid.find_path(a, b, algorithm="hpa")
    assert h._lm.shape == (h.nodes, 16)
    assert_feasible(h)
    assert bool(after) >= bool(before)  # an opened wall disconnects nothing
    h.refresh_landmarks()
    fresh = Hierarchy(grid, 8)
    assert np.array_equal(h._lm, fresh._lm)
    grid[tuple(wall)] = 2.0  # a second cost: the costs to the landmarks searched apart
    h.repair(grid)
    assert_feasible(h)
    h.refresh_landmarks()
    assert np.array_equal(h._lm, Hierarchy(grid, 8)._lm)
    # a lowering past its budget drops its landmark's pair of columns, no other
    monkeypatch.setattr(_hpa, "_LOWER_SHARE", 0.0)
    monkeypatch.setattr(_hpa, "_LOWER_FLOOR", 0)
    grid[tuple(wall)] = np.inf
    h.repair(grid)
    assert h._lm.shape == (h.nodes, 0)  # every lowering settles its seeds
    assert_feasible(h)
