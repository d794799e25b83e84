"""Hex grids and custom-move grids (pathcraft.hexgrid) against independent oracles:
scipy's shortest paths on the explicit graph, the generic search, path legality."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from pathcraft._options import kernel_settings
from pathcraft.hexgrid import (
    KNIGHT,
    LAYOUTS,
    SIXTEEN,
    HexGrid,
    MovesGrid,
    axial_to_offset,
    hex_distance,
    offset_to_axial,
)
from pathcraft.search import astar

World = HexGrid | MovesGrid


def explicit(world: World) -> np.ndarray:
    """All-pairs costs by scipy on the graph the world's ``neighbors`` describe."""
    rows, cols = world.shape
    src, dst, w = [], [], []
    for r in range(rows):
        for c in range(cols):
            for (nr, nc), step in world.neighbors((r, c)):
                src.append(r * cols + c)
                dst.append(nr * cols + nc)
                w.append(step)
    n = rows * cols
    graph = csr_matrix((w, (src, dst)), shape=(n, n))
    return shortest_path(graph, method="D", directed=True)


def costs_strategy(max_side: int = 7) -> st.SearchStrategy[np.ndarray]:
    @st.composite
    def build(draw: st.DrawFn) -> np.ndarray:
        rows = draw(st.integers(1, max_side))
        cols = draw(st.integers(1, max_side))
        seed = draw(st.integers(0, 2**32 - 1))
        rng = np.random.default_rng(seed)
        cost = rng.choice([1.0, 1.5, 2.0, 3.25], size=(rows, cols))
        cost[rng.random((rows, cols)) < draw(st.sampled_from([0.0, 0.2, 0.4]))] = np.inf
        return cost

    return build()


def check_against_oracle(world: World, cost: np.ndarray, algorithm: str) -> None:
    rows, cols = cost.shape
    oracle = explicit(world)
    free = [(r, c) for r in range(rows) for c in range(cols) if np.isfinite(cost[r, c])]
    for s in free[:3]:
        field = world.distance_field(s)
        for r in range(rows):
            for c in range(cols):
                expect = oracle[s[0] * cols + s[1], r * cols + c]
                expect = math.inf if not np.isfinite(cost[r, c]) else expect
                assert field[r, c] == pytest.approx(expect)
        for g in free[-3:]:
            res = world.find_path(s, g, algorithm=algorithm)
            expect = oracle[s[0] * cols + s[1], g[0] * cols + g[1]]
            if not np.isfinite(expect):
                assert not res and res.reason == "unreachable"
                continue
            assert res.cost == pytest.approx(expect)
            cells = [(int(r), int(c)) for r, c in res.path.tolist()]
            assert cells[0] == s and cells[-1] == g
            total = 0.0
            for a, b in itertools.pairwise(cells):
                steps = dict(world.neighbors(a))
                assert b in steps  # a legal move
                total += steps[b]
            assert total == pytest.approx(res.cost)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("algorithm", ["astar", "dijkstra"])
@settings(max_examples=15, deadline=None)
@given(cost=costs_strategy())
def test_hexgrid_matches_scipy(layout: str, algorithm: str, cost: np.ndarray) -> None:
    check_against_oracle(HexGrid(cost, layout=layout), cost, algorithm)


@pytest.mark.parametrize("moves", [KNIGHT, SIXTEEN, [(0, 1, 1.0), (2, -1, 0.5), (-1, 0, 3.0)]])
@settings(max_examples=15, deadline=None)
@given(cost=costs_strategy())
def test_moves_grid_matches_scipy(moves: list, cost: np.ndarray) -> None:
    check_against_oracle(MovesGrid(cost, moves), cost, "astar")


def test_hex_neighbours_are_symmetric_and_six() -> None:
    for layout in LAYOUTS:
        grid = HexGrid(np.ones((6, 6)), layout=layout)
        for r in range(1, 5):
            for c in range(1, 5):
                near = [cell for cell, _ in grid.neighbors((r, c))]
                assert len(set(near)) == 6
                for cell in near:
                    assert hex_distance(layout, (r, c), cell) == 1
                    assert (r, c) in [n for n, _ in grid.neighbors(cell)]


def test_axial_round_trip() -> None:
    for layout in LAYOUTS:
        for r in range(5):
            for c in range(5):
                assert axial_to_offset(layout, offset_to_axial(layout, (r, c))) == (r, c)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_agrees_with_generic_search(layout: str) -> None:
    rng = np.random.default_rng(7)
    cost = rng.choice([1.0, 2.0, np.inf], size=(12, 12), p=[0.6, 0.25, 0.15])
    cost[0, 0] = cost[11, 11] = 1.0
    grid = HexGrid(cost, layout=layout)
    mine = grid.find_path((0, 0), (11, 11))
    theirs = astar(
        (0, 0), (11, 11), grid.neighbors,
        lambda cell: float(hex_distance(layout, cell, (11, 11))),
    )  # fmt: skip
    assert bool(mine) == bool(theirs)
    if mine:
        assert mine.cost == pytest.approx(theirs.cost)


def test_hex_heuristic_saves_expansions() -> None:
    grid = HexGrid(np.ones((40, 40)))
    a = grid.find_path((0, 0), (39, 39))
    d = grid.find_path((0, 0), (39, 39), algorithm="dijkstra")
    assert a.cost == d.cost and a.expanded < d.expanded


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="odd-r"):
        HexGrid(np.ones((2, 2)), layout="odd")
    with pytest.raises(ValueError, match="> 0"):
        HexGrid([[1.0, -1.0]])
    with pytest.raises(ValueError, match="NaN"):
        HexGrid([[1.0, np.nan]])
    cost = np.ones((3, 3))
    cost[1, 1] = np.inf
    grid = HexGrid(cost)
    with pytest.raises(ValueError, match="start"):
        grid.find_path((5, 0), (0, 0))
    with pytest.raises(ValueError, match="wall"):
        grid.find_path((1, 1), (0, 0))
    with pytest.raises(ValueError, match="length zero"):
        MovesGrid(cost, [(0, 0)])
    with pytest.raises(ValueError, match="factor"):
        MovesGrid(cost, [(0, 1, -1.0)])
    with pytest.raises(ValueError, match="overflow"):
        MovesGrid(cost, [(0, 1, 1e308)])
    with pytest.raises(ValueError, match="twice"):
        MovesGrid(cost, [(0, 1), (0, 1)])
    with pytest.raises(ValueError, match="'astar', 'dijkstra', 'greedy'"):
        grid.find_path((0, 0), (2, 2), algorithm="jps")


def test_options_and_inputs_untouched() -> None:
    cost = np.ones((5, 5))
    before = cost.copy()
    grid = HexGrid(cost)
    res = grid.find_path((0, 0), (4, 4), max_expansions=2, partial=True)
    assert not res and res.reason == "max_expansions" and len(res.path)
    assert grid.find_path((0, 0), (4, 4), record=True).explored
    assert grid.find_path((0, 0), (4, 4), heuristic="zero").cost == 6.0
    np.testing.assert_array_equal(cost, before)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@settings(max_examples=10, deadline=None)
@given(cost=costs_strategy(), weight=st.sampled_from([1.0, 1.5, 3.0]))
def test_weighted_and_greedy_paths_are_legal_and_bounded(
    layout: str, cost: np.ndarray, weight: float
) -> None:
    grid = HexGrid(cost, layout=layout)
    rows, cols = cost.shape
    free = [(r, c) for r in range(rows) for c in range(cols) if np.isfinite(cost[r, c])]
    if not free:
        return
    s, g = free[0], free[-1]
    best = grid.distance_field(s)[g]
    weighted = grid.find_path(s, g, weight=weight)
    greedy = grid.find_path(s, g, algorithm="greedy")
    for res in (weighted, greedy):
        assert bool(res) == np.isfinite(best)
        if res:
            cells = [(int(r), int(c)) for r, c in res.path.tolist()]
            total = sum(dict(grid.neighbors(a))[b] for a, b in itertools.pairwise(cells))
            assert total == pytest.approx(res.cost) and res.cost >= best - 1e-9
    if weighted:
        assert weighted.cost <= weight * best + 1e-9


def test_steps_batches_and_fields_agree() -> None:
    rng = np.random.default_rng(5)
    cost = rng.choice([1.0, 2.0, np.inf], size=(15, 15), p=[0.6, 0.3, 0.1])
    cost[0, 0] = 1.0
    for world in (HexGrid(cost, "odd-q"), MovesGrid(cost, SIXTEEN)):
        field = world.distance_field((0, 0))
        goals = np.argwhere(np.isfinite(field))[:20]
        costs = world.path_costs(np.zeros_like(goals), goals)
        np.testing.assert_allclose(costs, field[goals[:, 0], goals[:, 1]])
        g = tuple(int(v) for v in goals[-1])
        search = world.start_search((0, 0), g)
        while search.step(3) == "in_progress":
            pass
        assert search.result.cost == pytest.approx(world.find_path((0, 0), g).cost)


def test_kernel_checks_before_releasing_the_gil() -> None:
    from pathcraft._core import stencil

    padded = np.full((5, 5), np.inf)
    padded[1:4, 1:4] = 1.0
    ws = stencil.Workspace(25)
    moves = np.array([[0, 1], [0, 1]], dtype=np.intp)
    factors = np.ones((2, 1))
    common = {"pad": 1, "parity": 0, "moves": moves, "factors": factors, "hkind": 0,
              "hscale": 1.0, "settings": kernel_settings("astar")}  # fmt: skip
    with pytest.raises(IndexError, match="sources"):
        stencil.search(padded, ws, np.array([0], dtype=np.intp), 6, None, **common)
    with pytest.raises(IndexError, match="goal"):
        stencil.search(padded, ws, np.array([6], dtype=np.intp), 24, None, **common)
    far = {**common, "moves": np.array([[0, 2], [0, 2]], dtype=np.intp)}
    with pytest.raises(ValueError, match="padding"):
        stencil.search(padded, ws, np.array([6], dtype=np.intp), 8, None, **far)
    with pytest.raises(ValueError, match="too small"):
        stencil.search(padded, stencil.Workspace(4), np.array([6], dtype=np.intp), 8, None,
                       **common)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@settings(max_examples=40, deadline=None)
@given(cost=costs_strategy(max_side=18))
def test_hexgrid_matches_scipy_larger(layout: str, cost: np.ndarray) -> None:
    check_against_oracle(HexGrid(cost, layout=layout), cost, "astar")


def test_find_paths_batch_equals_single_queries() -> None:
    rng = np.random.default_rng(11)
    cost = rng.choice([1.0, 2.0, np.inf], size=(20, 20), p=[0.6, 0.3, 0.1])
    free = np.argwhere(np.isfinite(cost))
    starts, goals = free[rng.integers(0, len(free), 30)], free[rng.integers(0, len(free), 30)]
    for world in (HexGrid(cost, "even-r"), MovesGrid(cost, KNIGHT)):
        batch = world.find_paths(starts, goals, workers=2, chunk_size=4)
        costs = world.path_costs(starts, goals, workers=2)
        for i, res in enumerate(batch):
            one = world.find_path(tuple(starts[i]), tuple(goals[i]))
            assert res.cost == one.cost == costs[i] or (not res and not one)
            np.testing.assert_array_equal(res.path, one.path)
    with pytest.raises(ValueError, match="goals"):
        HexGrid(cost).find_paths([tuple(free[0])], [(99, 0)])


# --------------------------------------------------------------------------- edits


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@settings(max_examples=10, deadline=None)
@given(cost=costs_strategy(), seed=st.integers(0, 2**32 - 1))
def test_edited_worlds_answer_as_worlds_built_from_the_final_costs(
    layout: str, cost: np.ndarray, seed: int
) -> None:
    """After random edits (walls, cheaper and dearer cells), a hex grid and a moves
    grid answer as fresh worlds built from the final costs (scipy oracle), the
    heuristic's scale follows the smallest cost, and the log names the changed cells."""
    rng = np.random.default_rng(seed)
    worlds = (HexGrid(cost, layout=layout), MovesGrid(cost, KNIGHT))
    final = cost.copy()
    for world in worlds:
        assert world.version == 0
    changed: set[tuple[int, int]] = set()
    for _ in range(4):
        r, c = int(rng.integers(cost.shape[0])), int(rng.integers(cost.shape[1]))
        value = float(rng.choice([np.inf, 0.5, 1.0, 4.0]))
        if final[r, c] != value:
            changed.add((r, c))
        final[r, c] = value
        for world in worlds:
            world[r, c] = value
    for world in worlds:
        assert world[:, :].tolist() == final.tolist()
        finite = final[np.isfinite(final)]
        assert world.min_cost == (float(finite.min()) if finite.size else 1.0)
        assert {tuple(x) for x in world.changes_since(0).tolist()} == changed
        assert world.changes_since(world.version).shape == (0, 2)
    check_against_oracle(worlds[0], final, "astar")
    check_against_oracle(worlds[1], final, "astar")


def test_edits_are_checked_logged_and_cancel_sliced_searches() -> None:
    from pathcraft._sliced import WorldChangedError

    hexes = HexGrid(np.ones((3, 4)))
    with pytest.raises(ValueError, match="value must be > 0"):
        hexes[0, 0] = -1.0
    with pytest.raises(ValueError, match="not NaN"):
        hexes[0, 0] = np.nan
    with pytest.raises(TypeError, match="value must be a number"):
        hexes[0, 0] = "mud"
    with pytest.raises(IndexError):
        hexes[3, 0] = 2.0
    with pytest.raises(ValueError, match="overflow"):
        MovesGrid(np.ones((2, 2)), moves=[(0, 1, 1e300)])[0, 0] = 1e10
    assert hexes.version == 0 and hexes[:, :].tolist() == np.ones((3, 4)).tolist()
    search = hexes.start_search((0, 0), (2, 3))
    assert search.step(1) == "in_progress"
    hexes[1, :] = 2.0
    hexes[1, :] = 2.0  # no change: not an edit
    assert hexes.version == 1
    assert hexes.changes_since(0).tolist() == [[1, 0], [1, 1], [1, 2], [1, 3]]
    with pytest.raises(WorldChangedError, match="HexGrid changed"):
        search.step()
    with pytest.raises(ValueError, match="version must be in"):
        hexes.changes_since(2)


# --------------------------------------------------------------------------- per-cell moves


@settings(max_examples=25, deadline=None)
@given(cost=costs_strategy(), seed=st.integers(0, 2**32 - 1))
def test_per_cell_moves_match_scipy_on_the_directed_graph(cost: np.ndarray, seed: int) -> None:
    """Moves allowed per cell (conveyors, one-way doors): costs, fields and batches
    equal scipy's on the directed graph built here from the cost array, the moves and
    the mask (not from the world's neighbours); paths take only allowed moves."""
    rng = np.random.default_rng(seed)
    moves = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0), (1, 1, 1.5), (-2, 1, 2.0)]
    rows, cols = cost.shape
    allowed = rng.random((rows, cols, len(moves))) < 0.6
    world = MovesGrid(cost, moves, allowed=allowed)
    assert world.allowed.tolist() == allowed.tolist()
    src, dst, w = [], [], []
    for r in range(rows):
        for c in range(cols):
            for k, (dr, dc, f) in enumerate(moves):
                nr, nc = r + dr, c + dc
                inside = 0 <= nr < rows and 0 <= nc < cols
                if allowed[r, c, k] and inside and np.isfinite(cost[nr, nc]):
                    src.append(r * cols + c)
                    dst.append(nr * cols + nc)
                    w.append(cost[nr, nc] * f)
    n = rows * cols
    oracle = shortest_path(csr_matrix((w, (src, dst)), shape=(n, n)), method="D", directed=True)
    free = [(r, c) for r in range(rows) for c in range(cols) if np.isfinite(cost[r, c])]
    for s in free[:3]:
        field = world.distance_field(s)
        for g in free[-4:]:
            want = oracle[s[0] * cols + s[1], g[0] * cols + g[1]]
            assert field[g] == pytest.approx(want)
            for algorithm in ("astar", "dijkstra"):
                res = world.find_path(s, g, algorithm=algorithm)
                if not np.isfinite(want):
                    assert not res and res.reason == "unreachable"
                    continue
                assert res.cost == pytest.approx(want)
                cells = [tuple(x) for x in res.path.tolist()]
                for a, b in itertools.pairwise(cells):
                    ks = [
                        k for k, (dr, dc, _) in enumerate(moves)
                        if (a[0] + dr, a[1] + dc) == b and allowed[a[0], a[1], k]
                    ]  # fmt: skip
                    assert ks, f"{a} -> {b} is not an allowed move"
        goals = free[-4:]
        np.testing.assert_allclose(
            world.path_costs([s] * len(goals), goals),
            [oracle[s[0] * cols + s[1], g[0] * cols + g[1]] for g in goals],
        )


def test_per_cell_moves_bad_input() -> None:
    cost = np.ones((2, 3))
    shape = r"allowed must have shape \(rows, cols, moves\) = \(2, 3, 2\)"
    with pytest.raises(ValueError, match=shape):
        MovesGrid(cost, [(0, 1), (1, 0)], allowed=np.ones((2, 3, 3), dtype=bool))
    with pytest.raises(TypeError, match="allowed must be a boolean array; got dtype int64"):
        MovesGrid(cost, [(0, 1), (1, 0)], allowed=np.ones((2, 3, 2), dtype=np.int64))
    mask = np.ones((2, 3, 2), dtype=bool)
    world = MovesGrid(cost, [(0, 1), (1, 0)], allowed=mask)
    mask[:] = False  # the world keeps its own masks
    assert world.find_path((0, 0), (1, 2)).cost == 3.0


# ------------------------------------------------------------------ one base, two worlds


def test_the_shared_base_keeps_what_each_world_has_its_own() -> None:
    """HexGrid and MovesGrid write their methods once (StencilGrid); what differs
    still differs: the replanner's heuristic (none on hexes), the agents' positions,
    the neighbours (per cell parity, per allowed move) and the class messages name."""
    from pathcraft._options import UnsupportedOptionError
    from pathcraft._sliced import WorldChangedError

    cost = np.full((4, 5), 2.0)
    cost[1, 2] = 0.5
    hexes = HexGrid(cost, layout="even-q")
    rng = np.random.default_rng(7)
    allowed = rng.random((4, 5, len(SIXTEEN))) < 0.5
    moves = MovesGrid(cost, SIXTEEN, allowed=allowed)
    assert hexes.replan_space().scale() == 0.0
    assert moves.replan_space().scale() == pytest.approx(0.5)
    assert hexes.agent_space().point((0, 0)) == (0.5, 1.0)  # even-q: column 0 is shoved
    assert moves.agent_space().point((0, 0)) == (0.5, 0.5)
    for r, c in itertools.product(range(4), range(5)):
        even, odd = LAYOUTS["even-q"]
        want_hex = [
            ((r + dr, c + dc), cost[r + dr, c + dc]) for dr, dc in (odd if c % 2 else even)
            if 0 <= r + dr < 4 and 0 <= c + dc < 5
        ]  # fmt: skip
        assert hexes.neighbors((r, c)) == want_hex
        want_moves = [
            ((r + dr, c + dc), cost[r + dr, c + dc] * math.hypot(dr, dc))
            for k, (dr, dc) in enumerate(SIXTEEN)
            if allowed[r, c, k] and 0 <= r + dr < 4 and 0 <= c + dc < 5
        ]
        assert moves.neighbors((r, c)) == want_moves
    for world, name in ((hexes, "HexGrid"), (moves, "MovesGrid")):
        with pytest.raises(UnsupportedOptionError, match=rf"{name}\.find_path\("):
            world.find_path((0, 0), (3, 4), size=2)
        search = world.start_search((0, 0), (3, 4))
        world[2, 2] = 3.0
        with pytest.raises(WorldChangedError, match=f"{name} changed"):
            search.step()
