"""3-D voxel grids (pathcraft.VoxelGrid) against independent oracles: scipy's shortest
paths on the explicit graph of the same voxels and moves (built here from the rule as
documented, not from the kernel's tables), the generic search over the world's
neighbours, path legality, and bad input refused before compiled code runs."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

import pathcraft
from pathcraft import VoxelGrid
from pathcraft._options import UnsupportedOptionError, kernel_settings
from pathcraft.search import find_path as generic_find_path

Voxel = tuple[int, int, int]
AXES = {6: 1, 18: 2, 26: 3}


def legal_step(
    cost: np.ndarray, connectivity: int, a: Voxel, b: Voxel, cut: bool = False
) -> float | None:
    """The cost of moving from ``a`` to ``b`` under the documented rule, None if the
    move is not allowed: one step of at most ``AXES[connectivity]`` changing axes into
    a walkable voxel, every voxel it sweeps past (each proper sub-move) walkable unless
    corners may be ``cut``."""
    d = tuple(y - x for x, y in zip(a, b, strict=True))
    changed = sum(1 for x in d if x != 0)
    if changed == 0 or changed > AXES[connectivity] or any(abs(x) > 1 for x in d):
        return None
    shape = cost.shape
    if not all(0 <= b[i] < shape[i] for i in range(3)):
        return None
    for keep in itertools.product((0, 1), repeat=3):
        sub = tuple(x * k for x, k in zip(d, keep, strict=True))
        if all(x == 0 for x in sub) or (cut and sub != d):
            continue
        v = tuple(a[i] + sub[i] for i in range(3))
        if not np.isfinite(cost[v]):
            return None
    return float(cost[b]) * math.sqrt(changed)


def oracle(cost: np.ndarray, connectivity: int, cut: bool = False) -> np.ndarray:
    """All-pairs costs by scipy on the explicit graph of the rule."""
    index = np.arange(cost.size).reshape(cost.shape)
    src, dst, w = [], [], []
    for a in itertools.product(*(range(n) for n in cost.shape)):
        if not np.isfinite(cost[a]):
            continue
        for d in itertools.product((-1, 0, 1), repeat=3):
            b = (a[0] + d[0], a[1] + d[1], a[2] + d[2])
            step = legal_step(cost, connectivity, a, b, cut)
            if step is not None:
                src.append(index[a])
                dst.append(index[b])
                w.append(step)
    graph = csr_matrix((w, (src, dst)), shape=(cost.size, cost.size))
    return shortest_path(graph, method="D", directed=True)


@st.composite
def worlds(draw: st.DrawFn, max_side: int = 5) -> np.ndarray:
    shape = tuple(draw(st.integers(1, max_side)) for _ in range(3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cost = rng.choice([1.0, 1.5, 2.0, 3.25], size=shape)
    cost[rng.random(shape) < draw(st.sampled_from([0.0, 0.2, 0.35]))] = np.inf
    return cost


def check_path(
    cost: np.ndarray, connectivity: int, path: np.ndarray, s: Voxel, g: Voxel, cut: bool = False
) -> float:
    """Assert the path runs from ``s`` to ``g`` by legal moves; its summed cost."""
    voxels = [tuple(int(x) for x in v) for v in path.tolist()]
    assert voxels[0] == s and voxels[-1] == g
    total = 0.0
    for a, b in itertools.pairwise(voxels):
        step = legal_step(cost, connectivity, a, b, cut)
        assert step is not None, (a, b)
        total += step
    return total


def free_voxels(cost: np.ndarray) -> list[Voxel]:
    return [tuple(int(x) for x in v) for v in np.argwhere(np.isfinite(cost))]


@pytest.mark.parametrize("connectivity", [6, 18, 26])
@pytest.mark.parametrize("algorithm", ["astar", "dijkstra"])
@pytest.mark.parametrize("diagonal", ["no_corner_cut", "always"])
@settings(max_examples=15, deadline=None)
@given(cost=worlds())
def test_voxel_grid_matches_scipy(
    connectivity: int, algorithm: str, diagonal: str, cost: np.ndarray
) -> None:
    cut = diagonal == "always"
    world = VoxelGrid(cost, connectivity=connectivity, diagonal=diagonal)
    table = oracle(cost, connectivity, cut)
    index = np.arange(cost.size).reshape(cost.shape)
    free = free_voxels(cost)
    for s in free[:2] + free[-1:]:
        field = world.distance_field(s)
        expect = table[index[s]].reshape(cost.shape)
        expect[~np.isfinite(cost)] = np.inf
        np.testing.assert_allclose(field, expect)
        for g in free[-3:] + free[:1]:
            res = world.find_path(s, g, algorithm=algorithm)
            want = table[index[s], index[g]]
            if not np.isfinite(want):
                assert not res and res.reason == "unreachable" and res.cost == math.inf
                continue
            assert res.found and res.cost == pytest.approx(want)
            assert res.path.shape[1] == 3 and res.path.dtype.kind == "i"
            total = check_path(cost, connectivity, res.path, s, g, cut)
            assert total == pytest.approx(res.cost)


@pytest.mark.parametrize("connectivity", [6, 18, 26])
@settings(max_examples=15, deadline=None)
@given(cost=worlds(), weight=st.sampled_from([1.5, 3.0]))
def test_weighted_and_greedy_paths_are_legal_and_bounded(
    connectivity: int, cost: np.ndarray, weight: float
) -> None:
    world = VoxelGrid(cost, connectivity=connectivity)
    table = oracle(cost, connectivity)
    index = np.arange(cost.size).reshape(cost.shape)
    free = free_voxels(cost)
    for s, g in itertools.product(free[:2], free[-2:]):
        want = table[index[s], index[g]]
        heavy = world.find_path(s, g, weight=weight)
        greedy = world.find_path(s, g, algorithm="greedy")
        assert heavy.found == greedy.found == bool(np.isfinite(want))
        if heavy:
            assert want - 1e-9 <= heavy.cost <= weight * want + 1e-9
            assert check_path(cost, connectivity, heavy.path, s, g) == pytest.approx(heavy.cost)
            assert greedy.cost >= want - 1e-9
            assert check_path(cost, connectivity, greedy.path, s, g) == pytest.approx(greedy.cost)


def test_neighbors_follow_the_rule() -> None:
    rng = np.random.default_rng(3)
    cost = rng.choice([1.0, 2.0], size=(4, 4, 4))
    cost[rng.random(cost.shape) < 0.3] = np.inf
    for connectivity, diagonal in itertools.product((6, 18, 26), ("no_corner_cut", "always")):
        world = VoxelGrid(cost, connectivity=connectivity, diagonal=diagonal)
        for a in itertools.product(range(4), repeat=3):
            got = dict(world.neighbors(a))
            want = {}
            if np.isfinite(cost[a]):
                for d in itertools.product((-1, 0, 1), repeat=3):
                    b = (a[0] + d[0], a[1] + d[1], a[2] + d[2])
                    step = legal_step(cost, connectivity, a, b, diagonal == "always")
                    if step is not None:
                        want[b] = step
            assert got.keys() == want.keys()
            for b, step in want.items():
                assert got[b] == pytest.approx(step)


def test_open_space_moves_and_the_corner_rule() -> None:
    open_ = VoxelGrid(np.ones((3, 3, 3)), connectivity=26)
    assert len(open_.neighbors((1, 1, 1))) == 26
    assert len(VoxelGrid(np.ones((3, 3, 3)), connectivity=18).neighbors((1, 1, 1))) == 18
    assert len(VoxelGrid(np.ones((3, 3, 3)), connectivity=6).neighbors((1, 1, 1))) == 6
    assert open_.find_path((0, 0, 0), (2, 2, 2)).cost == pytest.approx(2 * math.sqrt(3))
    # one edge voxel of the 2x2x2 block blocks the corner move
    cost = np.ones((2, 2, 2))
    cost[0, 1, 1] = np.inf
    world = VoxelGrid(cost, connectivity=26)
    assert (1, 1, 1) not in dict(world.neighbors((0, 0, 0)))
    assert world.find_path((0, 0, 0), (1, 1, 1)).cost == pytest.approx(1 + math.sqrt(2))
    # one face voxel blocks the edge moves beside it
    cost = np.ones((1, 2, 2))
    cost[0, 0, 1] = np.inf
    world = VoxelGrid(cost, connectivity=18)
    assert world.find_path((0, 0, 0), (0, 1, 1)).cost == 2.0


@pytest.mark.parametrize("connectivity", [6, 18, 26])
def test_the_generic_search_agrees(connectivity: int) -> None:
    rng = np.random.default_rng(connectivity)
    cost = rng.choice([1.0, 1.5, 4.0], size=(6, 7, 5))
    cost[rng.random(cost.shape) < 0.25] = np.inf
    world = VoxelGrid(cost, connectivity=connectivity)
    free = free_voxels(cost)
    for s, g in [(free[0], free[-1]), (free[3], free[len(free) // 2])]:
        compiled = world.find_path(s, g)
        generic = generic_find_path(s, g, world.neighbors, algorithm="dijkstra")
        assert compiled.found == generic.found
        if compiled:
            assert compiled.cost == pytest.approx(generic.cost)


def test_heuristic_is_admissible_in_open_space() -> None:
    """In an empty world the octile heuristic is the exact cost: A* expands only
    voxels on some optimal path, and the cost equals the closed form."""
    for connectivity, d, want in [
        (6, (3, 1, 2), 6.0),
        (18, (3, 1, 1), 2 * math.sqrt(2) + 1),
        (18, (2, 2, 2), 3 * math.sqrt(2)),
        (18, (3, 2, 2), 3 * math.sqrt(2) + 1),
        (26, (3, 2, 1), math.sqrt(3) + math.sqrt(2) + 1),
    ]:
        world = VoxelGrid(np.full((4, 4, 4), 2.0), connectivity=connectivity)
        res = world.find_path((0, 0, 0), d)
        assert res.cost == pytest.approx(2 * want)
        assert res.expanded <= len(res.path) * 4


def documented_octile(connectivity: int, d: tuple[int, int, int]) -> float:
    """The heuristic's closed form as VoxelGrid's docstring states it."""
    a, b, c = sorted((abs(x) for x in d), reverse=True)
    if connectivity == 6:
        return a + b + c
    if connectivity == 26:
        return math.sqrt(3) * c + math.sqrt(2) * (b - c) + (a - b)
    if a >= b + c:
        return math.sqrt(2) * (b + c) + (a - b - c)
    s = a + b + c
    return math.sqrt(2) * (s // 2) + s % 2


@pytest.mark.parametrize("connectivity", [6, 18, 26])
def test_the_heuristic_is_the_open_space_distance(connectivity: int) -> None:
    """The documented heuristic equals the exact cost in an empty world (so it never
    overestimates where walls only add cost, and A* expands little there)."""
    field = VoxelGrid(np.ones((6, 5, 7)), connectivity=connectivity).distance_field((0, 0, 0))
    for v in itertools.product(range(6), range(5), range(7)):
        assert field[v] == pytest.approx(documented_octile(connectivity, v))
    res = VoxelGrid(np.ones((9, 9, 9)), connectivity=connectivity).find_path((0, 0, 0), (8, 5, 2))
    assert res.expanded <= 3 * len(res.path)


def test_batches_start_search_record_and_partial() -> None:
    rng = np.random.default_rng(5)
    cost = rng.choice([1.0, 2.0], size=(5, 6, 7))
    cost[rng.random(cost.shape) < 0.2] = np.inf
    world = VoxelGrid(cost)
    free = free_voxels(cost)
    starts, goals = free[:5], free[-5:]
    single = [world.find_path(s, g) for s, g in zip(starts, goals, strict=True)]
    many = world.find_paths(starts, goals, workers=2)
    costs = world.path_costs(starts, goals)
    for one, other, c in zip(single, many, costs, strict=True):
        assert one.cost == other.cost == c
        assert np.array_equal(one.path, other.path)
    search = world.start_search(starts[0], goals[0])
    while search.step(3) == "in_progress":
        pass
    assert np.array_equal(search.result.path, single[0].path)
    recorded = world.find_path(starts[0], goals[0], record=True)
    assert recorded.explored is not None and recorded.explored.nodes.shape[1] == 3
    capped = world.find_path((0, 0, 0) if np.isfinite(cost[0, 0, 0]) else starts[0], goals[0],
                             max_expansions=2, partial=True)  # fmt: skip
    assert capped.reason == "max_expansions" and len(capped.path) >= 1
    field = world.distance_field(np.array(starts[:2]), max_cost=3.0)
    assert np.all((field <= 3.0) | np.isinf(field))


def test_walkable_arrays_ints_and_no_mutation() -> None:
    walk = np.ones((2, 3, 3), dtype=bool)
    walk[0, 1, :] = False
    before = walk.copy()
    world = VoxelGrid(walk, connectivity=6)
    assert np.array_equal(walk, before)
    assert world.cost[0, 1, 0] == math.inf and world.cost[0, 0, 0] == 1.0
    assert world.find_path((0, 0, 0), (0, 2, 0)).cost == 4.0
    ints = np.full((2, 2, 2), 3, dtype=np.int32)
    assert VoxelGrid(ints).min_cost == 3.0
    assert VoxelGrid([[[1, 2]]]).shape == (1, 1, 2)
    with pytest.raises(ValueError, match="read-only"):
        world.cost[0, 0, 0] = 5.0
    assert pathcraft.VoxelGrid is VoxelGrid and pathcraft.voxel.VoxelGrid is VoxelGrid


@pytest.mark.parametrize(
    ("cost", "kwargs", "error", "message"),
    [
        (np.ones((3, 3)), {}, ValueError, r"cost must be 3-D \(depth, rows, cols\).*got 2-D"),
        (np.ones((2, 0, 2)), {}, ValueError, "at least one voxel along each axis"),
        (np.array([[["a"]]]), {}, TypeError, "integer, float or boolean array; got dtype <U1"),
        (np.full((1, 1, 2), -1.0), {}, ValueError, r"> 0 and not NaN.*-1.0 at voxel \(0, 0, 0\)"),
        (np.array([[[1.0, np.nan]]]), {}, ValueError, r"nan at voxel \(0, 0, 1\)"),
        (np.array([[[1.0, 0.0]]]), {}, ValueError, r"got 0.0 at voxel \(0, 0, 1\)"),
        (np.array([[[1.0, -np.inf]]]), {}, ValueError, "got -inf"),
        (np.full((1, 1, 2), 1e308), {}, ValueError, "too large"),
        (np.ones((2, 2, 2)), {"connectivity": 8}, ValueError, "must be 6, 18 or 26; got 8"),
        (np.ones((2, 2, 2)), {"connectivity": "26"}, TypeError, "connectivity must be 6, 18 or 26"),
        (np.ones((2, 2, 2)), {"connectivity": True}, TypeError, "connectivity must be 6, 18 or 26"),
        (np.ones((2, 2, 2)), {"diagonal": "never"}, ValueError,
         "diagonal must be one of 'no_corner_cut', 'always'; got 'never'"),
    ],
)  # fmt: skip
def test_bad_worlds_are_refused(cost: np.ndarray, kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        VoxelGrid(cost, **kwargs)


def test_bad_queries_are_refused() -> None:
    cost = np.ones((2, 3, 4))
    cost[1, 1, 1] = np.inf
    world = VoxelGrid(cost)
    with pytest.raises(
        ValueError, match=r"start \(2, 0, 0\) is outside the grid of shape \(2, 3, 4\)"
    ):
        world.find_path((2, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match=r"goal \(0, 0, -1\) is outside"):
        world.find_path((0, 0, 0), (0, 0, -1))
    with pytest.raises(ValueError, match=r"goal \(1, 1, 1\) is a wall"):
        world.find_path((0, 0, 0), (1, 1, 1))
    with pytest.raises(TypeError, match=r"start must be a \(z, row, col\) voxel; got \(0, 0\)"):
        world.find_path((0, 0), (1, 1, 1))
    with pytest.raises(TypeError, match="of integers"):
        world.find_path((0.0, 0, 0), (0, 0, 1))
    with pytest.raises(TypeError, match="of integers"):
        world.start_search((0, 0, 0), (True, 0, 1))
    with pytest.raises(
        UnsupportedOptionError,
        match=r"VoxelGrid.find_path\(algorithm='dijkstra'\) does not take weight",
    ):
        world.find_path((0, 0, 0), (0, 0, 1), algorithm="dijkstra", weight=2)
    with pytest.raises(UnsupportedOptionError, match="unknown option 'size'"):
        world.find_path((0, 0, 0), (0, 0, 1), size=2)
    with pytest.raises(ValueError, match="heuristic must be one of 'zero', 'octile'"):
        world.find_path((0, 0, 0), (0, 0, 1), heuristic="manhattan")
    with pytest.raises(ValueError, match="algorithm must be one of"):
        world.find_path((0, 0, 0), (0, 0, 1), algorithm="jps")
    with pytest.raises(ValueError, match=r"starts\[1\] \(1, 1, 1\) is a wall"):
        world.path_costs([(0, 0, 0), (1, 1, 1)], [(0, 0, 1), (0, 0, 2)])
    with pytest.raises(ValueError, match="starts has 1 voxels and goals 2"):
        world.find_paths([(0, 0, 0)], [(0, 0, 1), (0, 0, 2)])
    with pytest.raises(ValueError, match=r"\(k, 3\) array"):
        world.distance_field([(0, 0)])
    with pytest.raises(TypeError, match=r"^sources must be a \(z, row, col\) voxel of integers"):
        world.distance_field([(0.0, 0.0, 0.0)])
    with pytest.raises(UnsupportedOptionError, match="path_costs does not take record"):
        world.path_costs([(0, 0, 0)], [(0, 0, 1)], record=True)
    with pytest.raises(ValueError, match="max_cost must be a number >= 0"):
        world.distance_field((0, 0, 0), max_cost=-1)


def test_kernel_entries_check_their_indices() -> None:
    """The compiled entries refuse bad flat indices with IndexError, never a crash."""
    from pathcraft._core import voxel as kernel

    padded = np.pad(np.ones((2, 2, 2)), 1, constant_values=np.inf)  # as VoxelGrid pads
    ws = kernel.Workspace(padded.size)
    settings = {
        "connectivity": 26, "cut_corners": False, "hkind": 1, "hscale": 1.0,
        "settings": kernel_settings("astar"),
    }  # fmt: skip
    with pytest.raises(IndexError, match="not inside the 2 x 2 x 2 grid"):
        kernel.search(padded, ws, np.array([0], dtype=np.intp), 21, None, **settings)
    with pytest.raises(IndexError, match="goal"):
        kernel.search(padded, ws, np.array([21], dtype=np.intp), 10**6, None, **settings)
    with pytest.raises(ValueError, match="too small"):
        kernel.search(
            padded, kernel.Workspace(8), np.array([21], dtype=np.intp), 22, None, **settings
        )
    with pytest.raises(ValueError, match="out_costs has shape"):
        kernel.field(padded, ws, np.array([21], dtype=np.intp), np.empty((2, 2, 3)),
                     connectivity=26, cut_corners=False, max_cost=math.inf)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("connectivity", [6, 18, 26])
@settings(max_examples=60, deadline=None)
@given(cost=worlds(max_side=7))
def test_voxel_grid_matches_scipy_more(connectivity: int, cost: np.ndarray) -> None:
    inner = test_voxel_grid_matches_scipy.hypothesis.inner_test  # type: ignore[attr-defined]
    inner(connectivity, "astar", "no_corner_cut", cost)
    inner(connectivity, "astar", "always", cost)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_large_world_builds_and_searches() -> None:
    rng = np.random.default_rng(0)
    walk = rng.random((96, 96, 96)) > 0.25
    walk[:3, :3, :3] = walk[-3:, -3:, -3:] = True
    world = VoxelGrid(walk, connectivity=26)
    res = world.find_path((0, 0, 0), (95, 95, 95))
    ref = world.find_path((0, 0, 0), (95, 95, 95), algorithm="dijkstra")
    assert res.found and res.cost == pytest.approx(ref.cost)
    assert check_path(world.cost, 26, res.path, (0, 0, 0), (95, 95, 95)) == pytest.approx(res.cost)
