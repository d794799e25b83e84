"""Reachability on every world but the grid (``tests/test_grid_reach.py``):
``components()`` equals ``scipy.sparse.csgraph.connected_components`` (strong) over
the world's own ``neighbors`` (graphs: their edges; meshes: their adjacency and
links) after every edit of random edit sequences, ``reachable`` equals a
breadth-first search of the same graph, and a world with labels answers an
unreachable goal at once (nothing expanded) while ``partial=True`` still explores."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components
from shapely import box

from pathcraft import Graph, Level, NavMesh, VoxelGrid, WaypointGraph
from pathcraft._core.components import dag_reaches, strong
from pathcraft._reach import moves_from_edges
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid


def canonical(labels: np.ndarray) -> list[int]:
    """Labels renumbered by first appearance (``-1`` kept): the partition alone."""
    seen: dict[int, int] = {}
    return [-1 if x < 0 else seen.setdefault(x, len(seen)) for x in labels.tolist()]


def oracle(world: Any, shape: tuple[int, ...], walkable: np.ndarray) -> csr_matrix:
    """The move graph from the world's own neighbour function, cell by cell."""
    n = int(np.prod(shape))
    src, dst = [], []
    for cell in np.argwhere(walkable).tolist():
        for near, _ in world.neighbors(tuple(cell)):
            src.append(np.ravel_multi_index(cell, shape))
            dst.append(np.ravel_multi_index(near, shape))
    return csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))


def assert_reach(world: Any, shape: tuple[int, ...], walkable: np.ndarray, rng: Any) -> None:
    graph = oracle(world, shape, walkable)
    _, strong_labels = connected_components(graph, directed=True, connection="strong")
    labels, count = world.components()
    assert labels.shape == shape and labels.dtype == np.int32
    flat = labels.ravel()
    assert (flat[~walkable.ravel()] == -1).all()
    want = np.where(walkable.ravel(), strong_labels, -1)
    assert canonical(flat) == canonical(want)
    assert sorted(set(flat[flat >= 0].tolist())) == list(range(count))
    cells = np.argwhere(walkable)
    if len(cells) == 0:
        return
    for _ in range(6):  # reachable against a breadth-first search, then the search
        a, b = (tuple(int(v) for v in cells[rng.integers(len(cells))]) for _ in range(2))
        seen = breadth_first_order(graph, np.ravel_multi_index(a, shape), return_predecessors=False)
        want_reach = bool(np.ravel_multi_index(b, shape) in set(seen.tolist()))
        assert world.reachable(a, b) is want_reach
        result = world.find_path(a, b)
        assert result.found is want_reach
        if not want_reach:
            assert (result.reason, result.expanded, result.path.shape) == (
                "unreachable", 0, (0, len(shape)),
            )  # fmt: skip
            search = world.start_search(a, b)
            assert search.step(1) == "unreachable" and search.result.expanded == 0


def walls(draw: Any, shape: tuple[int, ...]) -> np.ndarray:
    density = draw(st.floats(0.0, 0.6))
    seed = draw(st.integers(0, 2**32 - 1))
    cost = np.random.default_rng(seed).uniform(1.0, 3.0, shape)
    cost[np.random.default_rng(seed + 1).random(shape) < density] = np.inf
    return cost


def one_way_moves(draw: Any) -> list[tuple[int, int, float]]:
    span = (-2, -1, 0, 1, 2)
    offsets = [(dr, dc) for dr in span for dc in span if (dr, dc) != (0, 0)]
    chosen = draw(st.lists(st.sampled_from(offsets), min_size=1, max_size=5, unique=True))
    return [(dr, dc, 1.0) for dr, dc in chosen]


@st.composite
def stencil_worlds(draw: Any) -> tuple[Any, np.ndarray]:
    shape = (draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    cost = walls(draw, shape)
    kind = draw(st.sampled_from(("hex", "knight", "one-way", "allowed")))
    if kind == "hex":
        layout = draw(st.sampled_from(("odd-r", "even-r", "odd-q", "even-q")))
        return HexGrid(cost, layout), cost
    if kind == "knight":
        return MovesGrid(cost, [(dr, dc, 1.0) for dr, dc in KNIGHT]), cost
    moves = one_way_moves(draw)
    allowed = None
    if kind == "allowed":
        seed = draw(st.integers(0, 2**32 - 1))
        allowed = np.random.default_rng(seed).random((*shape, len(moves))) < 0.7
    return MovesGrid(cost, moves, allowed=allowed), cost


@settings(max_examples=60, deadline=None)
@given(stencil_worlds(), st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.booleans()),
                                  max_size=6), st.integers(0, 2**32 - 1))  # fmt: skip
def test_stencil_worlds_equal_scipy_after_every_edit(
    made: tuple[Any, np.ndarray], edits: list[Any], seed: int
) -> None:
    world, cost = made
    rng = np.random.default_rng(seed)
    rows, cols = cost.shape
    assert_reach(world, cost.shape, np.isfinite(cost), rng)
    for fr, fc, wall in edits:
        r, c = min(int(fr * rows), rows - 1), min(int(fc * cols), cols - 1)
        cost[r, c] = np.inf if wall else 1.5
        world[r, c] = cost[r, c]
        assert_reach(world, cost.shape, np.isfinite(cost), rng)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_voxel_worlds_equal_scipy(data: Any) -> None:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(3))
    cost = walls(data.draw, shape)
    connectivity = data.draw(st.sampled_from((6, 18, 26)))
    diagonal = data.draw(st.sampled_from(("no_corner_cut", "always")))
    world = VoxelGrid(cost, connectivity=connectivity, diagonal=diagonal)
    assert_reach(world, shape, np.isfinite(cost), np.random.default_rng(0))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_levels_equal_scipy_as_portals_are_added(data: Any) -> None:
    shape = tuple(data.draw(st.integers(1, top)) for top in (3, 6, 6))
    cost = walls(data.draw, shape)
    rule = data.draw(st.sampled_from(("never", "no_corner_cut", "one_free", "always")))
    world = Level(cost, diagonal=rule)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    walkable = np.isfinite(cost)
    cells = [tuple(int(v) for v in c) for c in np.argwhere(walkable)]
    assert_reach(world, shape, walkable, rng)
    for _ in range(data.draw(st.integers(0, 4))):
        if len(cells) < 2:
            break
        a, b = (cells[i] for i in rng.choice(len(cells), 2, replace=False))
        world.add_portal(a, b, cost=1.0, two_way=bool(rng.integers(2)))
        assert_reach(world, shape, walkable, rng)
    tails, heads, _ = world.agent_space().moves()  # the vectorised moves: neighbors' own
    mine = sorted(zip(tails.tolist(), heads.tolist(), strict=True))
    graph = oracle(world, shape, walkable).tocoo()
    assert sorted(set(mine)) == sorted(zip(graph.row.tolist(), graph.col.tolist(), strict=True))


def test_partial_still_explores_and_an_edit_keeps_answers_right() -> None:
    cost = np.ones((5, 5))
    cost[2, :] = np.inf
    world = HexGrid(cost)
    assert world.find_path((0, 0), (4, 4)).expanded == 10  # never asked: searched
    assert not world.reachable((0, 0), (4, 4))
    assert world.find_path((0, 0), (4, 4)).expanded == 0
    partial = world.find_path((0, 0), (4, 4), partial=True)
    assert partial.reason == "unreachable" and partial.expanded == 10 and len(partial.path)
    world[2, 2] = 1.0  # a door: the labels are stale, the search decides
    assert world.find_path((0, 0), (4, 4)).found
    world[2, 2] = np.inf
    first = world.find_path((0, 0), (4, 4))  # searched, and builds the labels again
    assert first.reason == "unreachable" and first.expanded == 10
    assert world.find_path((0, 0), (4, 4)).expanded == 0


@pytest.mark.parametrize("seed", range(40))
def test_strong_and_the_condensation_equal_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    m = int(rng.integers(0, 3 * n))
    tails, heads = rng.integers(0, n, m), rng.integers(0, n, m)
    moves = moves_from_edges(n, tails, heads, None, True)
    labels = np.empty(n, dtype=np.int32)
    count = strong(moves.offsets, moves.targets, labels)
    graph = csr_matrix((np.ones(m), (tails, heads)), shape=(n, n))
    k, want = connected_components(graph, directed=True, connection="strong")
    assert count == k and canonical(labels) == canonical(want)
    for a in range(n):
        seen = set(breadth_first_order(graph, a, return_predecessors=False).tolist())
        for b in range(n):
            # a component reaching another has the larger label
            assert (labels[a] >= labels[b]) or b not in seen
    a_labels = labels[tails]
    b_labels = labels[heads]
    cross = a_labels != b_labels
    dag = moves_from_edges(count, a_labels[cross].astype(np.intp), b_labels[cross].astype(np.intp),
                           None, True)  # fmt: skip
    marks = np.zeros(count + 1, dtype=np.int32)
    for a in range(n):
        seen = set(breadth_first_order(graph, a, return_predecessors=False).tolist())
        for b in range(n):  # nothing cleared between questions
            got = dag_reaches(dag.offsets, dag.targets, int(labels[a]), int(labels[b]), marks)
            assert got == (b in seen)


@st.composite
def graphs(draw: Any) -> tuple[Graph, np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(1, 14))
    m = draw(st.integers(0, 3 * n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    tails, heads = rng.integers(0, n, m), rng.integers(0, n, m)
    weights = np.where(rng.random(m) < 0.2, np.inf, rng.uniform(1, 3, m))
    directed = draw(st.booleans())
    return Graph(n, tails, heads, weights, directed=directed), tails, heads, weights


def graph_oracle(graph: Graph, tails: Any, heads: Any, weights: Any) -> csr_matrix:
    n = graph.num_nodes
    open_ = np.isfinite(weights)
    src, dst = tails[open_], heads[open_]
    if not graph.directed:
        src, dst = np.concatenate((src, dst)), np.concatenate((dst, src))
    return csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n))


@settings(max_examples=60, deadline=None)
@given(graphs(), st.lists(st.tuples(st.floats(0, 1), st.booleans()), max_size=5))
def test_graphs_equal_scipy_after_every_edit(made: Any, edits: list[Any]) -> None:
    graph, tails, heads, weights = made
    weights = weights.copy()
    for step in range(len(edits) + 1):
        if step and len(weights):
            pick, close = edits[step - 1]
            k = min(int(pick * len(weights)), len(weights) - 1)
            weights[k] = np.inf if close else 2.0
            graph.set_weights([weights[k]], edges=[k])
        oracle_graph = graph_oracle(graph, tails, heads, weights)
        _, want = connected_components(oracle_graph, directed=True, connection="strong")
        labels, count = graph.components()
        assert canonical(labels) == canonical(want) and labels.max(initial=-1) == count - 1
        for a in range(graph.num_nodes):
            seen = set(breadth_first_order(oracle_graph, a, return_predecessors=False).tolist())
            for b in range(graph.num_nodes):
                assert graph.reachable(a, b) is (b in seen)
            b = graph.num_nodes - 1 - a
            result = graph.find_path(a, b, heuristic="zero")
            assert result.found is (b in seen)
            if b not in seen:
                assert (result.reason, result.expanded, result.path) == ("unreachable", 0, [])
                assert graph.find_path(a, b, partial=True, heuristic="zero").expanded > 0
                assert graph.start_search(a, b, heuristic="zero").step(1) == "unreachable"


def test_waypoints_answer_from_the_labels_and_follow_the_obstacles() -> None:
    wg = WaypointGraph([(0, 0), (0, 4), (10, 0), (10, 4)], [box(4, -20, 6, 20)])
    assert wg.find_path((1, 1), (9, 1)).expanded == 2  # never asked: searched
    labels, count = wg.components()
    assert count == 2 and labels[0] == labels[1] != labels[2] == labels[3]
    assert not wg.reachable((1, 1), (9, 1))
    assert wg.find_path((1, 1), (9, 1)).expanded == 0
    assert wg.find_path((1, 1), (9, 1), partial=True).expanded == 2
    assert wg.start_search((1, 1), (9, 1)).step(1) == "unreachable"
    wall = next(iter(wg.obstacles))
    wg.remove_obstacle(wall)  # stale labels: the search decides
    assert wg.find_path((1, 1), (9, 1)).found and wg.reachable((1, 1), (9, 1))
    assert wg.components()[1] == 1
    key = wg.add_obstacle(box(4, -20, 6, 20))
    first = wg.find_path((0, 1), (10, 1))  # searched, then the labels are built again
    assert first.reason == "unreachable" and first.expanded == 2
    assert wg.find_path((0, 1), (10, 1)).expanded == 0
    wg.remove_obstacle(key)
    links = wg.links  # the open links, (k, 2) waypoint pairs
    edges = csr_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(4, 4))
    k, want = connected_components(edges, directed=False)
    labels, count = wg.components()
    assert count == k == 1 and canonical(labels) == canonical(want)


def test_navmesh_components_follow_the_links_directions() -> None:
    mesh = NavMesh(
        [(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1), (4, 0), (5, 0),
         (5, 1), (4, 1)],
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
    )  # fmt: skip
    assert mesh.components()[1] == 3
    jump = mesh.add_link((0.5, 0.5), (2.5, 0.5), two_way=False)
    mesh.add_link((2.5, 0.8), (4.5, 0.5))  # two ways
    labels, count = mesh.components()
    edges = csr_matrix(([1, 1, 1], ([0, 1, 2], [1, 2, 1])), shape=(3, 3))
    _, want = connected_components(edges, directed=True, connection="strong")
    assert count == 2 and canonical(labels) == canonical(want)
    assert mesh.reachable((0.5, 0.2), (4.5, 0.2)) and not mesh.reachable((4.5, 0.2), (0.5, 0.2))
    assert mesh.find_path((4.5, 0.2), (0.5, 0.2)).reason == "unreachable"
    mesh.remove_link(jump)
    assert not mesh.reachable((0.5, 0.2), (4.5, 0.2)) and mesh.components()[1] == 2
    mesh.add_obstacle(box(4.2, -1, 4.8, 2))  # carving splits the third square
    labels, count = mesh.components()
    assert count == len(set(labels.tolist())) and labels.shape == (mesh.num_polygons,)
    with pytest.raises(ValueError, match="off the mesh"):
        mesh.reachable((9, 9), (0.5, 0.5))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.booleans(), min_size=1, max_size=6))
def test_waypoint_components_equal_scipy_after_every_obstacle_edit(
    seed: int, adds: list[bool]
) -> None:
    rng = np.random.default_rng(seed)
    wg = WaypointGraph(rng.uniform(0, 10, (int(rng.integers(2, 12)), 2)))
    keys: list[int] = []
    for add in adds:
        if add or not keys:
            x, y = rng.uniform(0, 9, 2)
            keys.append(wg.add_obstacle(box(x, y, x + rng.uniform(0.2, 3), y + 0.5)))
        else:
            wg.remove_obstacle(keys.pop(int(rng.integers(len(keys)))))
        n = len(wg.points)
        links = wg.links
        edges = csr_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
        k, want = connected_components(edges, directed=False)
        labels, count = wg.components()
        assert count == k and canonical(labels) == canonical(want)
        a, b = wg.points[0], wg.points[-1]
        try:
            reach = wg.reachable(a, b)
        except ValueError:  # an end inside an obstacle: refused, as find_path refuses it
            continue
        result = wg.find_path(a, b)
        assert result.found is reach
        if not result.found:
            assert result.expanded == 0


def test_worlds_with_labels_pickle_without_them() -> None:
    import copy
    import pickle

    cost = np.ones((3, 3))
    cost[:, 1] = np.inf
    worlds = [
        (HexGrid(cost), (0, 0), (0, 2)),
        (Graph(3, [0, 1], [1, 0]), 0, 2),
        (VoxelGrid(cost[None]), (0, 0, 0), (0, 0, 2)),
        (WaypointGraph([(0, 0), (10, 0)], [box(4, -20, 6, 20)]), (1, 0), (9, 0)),
    ]
    for world, a, b in worlds:
        assert not world.reachable(a, b)
        for again in (pickle.loads(pickle.dumps(world)), copy.deepcopy(world)):
            assert again.find_path(a, b).reason == "unreachable"
            assert not again.reachable(a, b) and again.find_path(a, b).expanded == 0
            assert again.components()[1] == world.components()[1]
        assert len(pickle.dumps(world)) < 10_000


def test_a_recorded_search_explores_as_before() -> None:
    cost = np.ones((3, 3))
    cost[:, 1] = np.inf
    world = HexGrid(cost)
    assert not world.reachable((0, 0), (0, 2))
    recorded = world.find_path((0, 0), (0, 2), record=True)
    assert recorded.reason == "unreachable" and recorded.expanded == 3
    assert recorded.explored is not None
