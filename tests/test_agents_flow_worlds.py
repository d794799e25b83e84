"""FlowField beyond the grid: on every world with moves (hexagonal, move and voxel
grids, levels, graphs, waypoint graphs) the field's distance is the cost from each place
to its nearest goal as ``scipy.sparse.csgraph`` computes it over the world's own
``neighbors`` (reversed), and following ``next_cell`` from any place reaches a goal at
exactly that cost."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from test_contract_table import CASES

from pathcraft import Graph, VoxelGrid
from pathcraft.agents import FlowField
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid
from pathcraft.layered import Level

CELL_WORLDS = ("HexGrid", "MovesGrid", "VoxelGrid", "Level")


def _matrix(world: Any, shape: tuple[int, ...]) -> csr_matrix:
    """The world's moves from its own neighbour function (cheapest of parallel moves)."""
    n = int(np.prod(shape))
    best: dict[tuple[int, int], float] = {}
    for flat in range(n):
        cell = tuple(int(v) for v in np.unravel_index(flat, shape))
        if not np.isfinite(world.cost[cell] if hasattr(world, "cost") else world[cell]):
            continue
        for near, step in world.neighbors(cell):
            key = (flat, int(np.ravel_multi_index(near, shape)))
            best[key] = min(step, best.get(key, np.inf))
    rows, cols = zip(*best, strict=True) if best else ((), ())
    return csr_matrix((list(best.values()), (rows, cols)), shape=(n, n))


def _to_goals(matrix: csr_matrix, goals: list[int]) -> np.ndarray:
    """The cost from every place to its nearest goal: Dijkstra on the reversed graph."""
    return np.asarray(dijkstra(matrix.T.tocsr(), directed=True, indices=goals, min_only=True))


def _walk(flow: FlowField, matrix: csr_matrix, shape: tuple[int, ...], start: int) -> float:
    """Follow ``next_cell`` from ``start`` to a goal; the cost of the moves taken."""
    nxt = flow.next_cell.reshape(-1, len(shape)) if len(shape) > 1 else flow.next_cell
    dense = matrix.tocsr()
    here, total = start, 0.0
    for _ in range(int(np.prod(shape)) + 1):
        there = int(np.ravel_multi_index(tuple(nxt[here]), shape)) if len(shape) > 1 else int(
            nxt[here]
        )
        if there == here:
            return total
        step = dense[here, there]
        assert step > 0, f"next of {here} is {there}, which is not one move"
        total += float(step)
        here = there
    raise AssertionError("following the field loops")


def _check(world: Any, goals: list[Any]) -> None:
    flow = FlowField(world, np.array(goals) if len(goals) > 1 else goals[0])
    shape = tuple(world.shape)
    matrix = _matrix(world, shape)
    flat_goals = [int(np.ravel_multi_index(g, shape)) for g in goals]
    oracle = _to_goals(matrix, flat_goals)
    np.testing.assert_allclose(flow.distance.ravel(), oracle, rtol=1e-9)
    for flat in np.flatnonzero(np.isfinite(oracle)).tolist():
        assert _walk(flow, matrix, shape, flat) == pytest.approx(oracle[flat], rel=1e-9)
    unreached = np.flatnonzero(~np.isfinite(oracle))
    nxt = flow.next_cell.reshape(-1, len(shape))
    for flat in unreached.tolist():  # no way to a goal: points at itself
        assert int(np.ravel_multi_index(tuple(nxt[flat]), shape)) == flat


@pytest.mark.parametrize("name", CELL_WORLDS)
def test_flow_field_matches_csgraph_on_the_contract_worlds(name: str) -> None:
    case = CASES[name]()
    _check(case.world, [case.g])
    _check(case.world, [case.g, case.a])  # the nearest of two goals


def test_one_way_moves_point_the_way_they_go() -> None:
    belt = MovesGrid(np.array([[1.0, 3.0, 1.0, 1.0]]), [(0, 1)])  # a conveyor, one way
    _check(belt, [(0, 3)])
    flow = FlowField(belt, (0, 0))  # nothing reaches the belt's start but itself
    assert flow.distance.tolist() == [[0.0, np.inf, np.inf, np.inf]]


def test_graph_and_waypoint_graph_flow_by_node() -> None:
    case = CASES["Graph"]()
    graph = case.world
    flow = FlowField(graph, case.g)
    src, dst, w = graph.edges
    n = graph.num_nodes
    matrix = csr_matrix((np.r_[w, w], (np.r_[src, dst], np.r_[dst, src])), shape=(n, n))
    oracle = _to_goals(matrix, [graph.index(case.g)])
    np.testing.assert_allclose(flow.distance, oracle)
    for node in range(n):
        assert _walk(flow, matrix, (n,), node) == pytest.approx(oracle[node])
    waypoints = CASES["WaypointGraph"]().world
    field = FlowField(waypoints, [0])
    assert float(field.distance[0]) == 0.0 and np.isfinite(field.distance).all()
    assert field.direction.shape == (waypoints.agent_space().graph.num_nodes, 2)


def test_flow_field_follows_edits_and_refuses_sizes() -> None:
    hexes = HexGrid(np.ones((3, 4)))
    flow = FlowField(hexes, (1, 3))
    assert float(flow.distance[1, 0]) == 3.0
    hexes[:, 2] = np.inf
    hexes[0, 2] = 1.0
    assert flow.update() == 3 and flow.update() == 0  # the cells edited, each once
    _check(hexes, [(1, 3)])
    with pytest.raises(ValueError, match="size must be 1 on a HexGrid"):
        FlowField(hexes, (1, 3), size=2)
    with pytest.raises(ValueError, match=r"goals \(1, 2\) is a wall"):
        FlowField(hexes, (1, 2))
    with pytest.raises(ValueError, match="goals must be a cell of 3 ints"):
        FlowField(VoxelGrid(np.ones((2, 2, 2))), (0, 0))
    with pytest.raises(ValueError, match="goals"):
        FlowField(Graph(2, [0], [1]), [7])


@settings(max_examples=25, deadline=None)
@given(
    cost=st.lists(st.sampled_from([1.0, 2.0, 5.0, np.inf]), min_size=20, max_size=20),
    kind=st.sampled_from(["hex", "knight", "level"]),
    goal=st.integers(0, 19),
)
def test_flow_field_is_exact_on_random_weighted_worlds(
    cost: list[float], kind: str, goal: int
) -> None:
    grid = np.array(cost).reshape(4, 5)
    r, c = divmod(goal, 5)
    grid[r, c] = 1.0
    world: Any
    if kind == "hex":
        world, cell = HexGrid(grid, "odd-q"), (r, c)
    elif kind == "knight":
        world, cell = MovesGrid(grid, KNIGHT), (r, c)
    else:
        grid[0, 0] = 1.0  # the portal's entry (a one-way portal, weighing 2)
        world = Level([grid, np.ones((4, 5))], portals=[((0, 0, 0), (1, 3, 4), 2.0)])
        cell = (0, r, c)
    _check(world, [cell])


def _same_moves(world: Any, cost: np.ndarray) -> None:
    """The space's moves at once are exactly the world's neighbours, cell by cell."""
    fast = sorted(zip(*(a.tolist() for a in world.agent_space().moves()), strict=True))
    slow = []
    for cell in np.argwhere(np.isfinite(cost)).tolist():
        here = int(np.ravel_multi_index(cell, cost.shape))
        for near, step in world.neighbors(tuple(cell)):
            slow.append((here, int(np.ravel_multi_index(near, cost.shape)), step))
    assert len(fast) == len(slow)
    for (a, b, w), (c, d, v) in zip(fast, sorted(slow), strict=True):
        assert (a, b) == (c, d) and w == pytest.approx(v)


@pytest.mark.parametrize("connectivity", [6, 18, 26])
@pytest.mark.parametrize("diagonal", ["no_corner_cut", "always"])
def test_voxel_moves_at_once_are_its_neighbours(connectivity: int, diagonal: str) -> None:
    rng = np.random.default_rng(connectivity)
    cost = np.where(rng.random((3, 4, 5)) < 0.25, np.inf, rng.integers(1, 4, (3, 4, 5)) * 1.0)
    if connectivity == 6:
        _same_moves(VoxelGrid(cost, connectivity=6), cost)
    else:
        _same_moves(VoxelGrid(cost, connectivity=connectivity, diagonal=diagonal), cost)


@pytest.mark.parametrize("layout", ["odd-r", "even-r", "odd-q", "even-q"])
def test_stencil_moves_at_once_are_their_neighbours(layout: str) -> None:
    rng = np.random.default_rng(7)
    cost = np.where(rng.random((5, 6)) < 0.25, np.inf, rng.integers(1, 4, (5, 6)) * 1.0)
    _same_moves(HexGrid(cost, layout), cost)
    _same_moves(MovesGrid(cost, KNIGHT), cost)
    allowed = rng.random((5, 6, 3)) < 0.6
    _same_moves(MovesGrid(cost, [(0, 1, 1.0), (1, 0, 2.0), (-1, -1, 1.5)], allowed=allowed), cost)
