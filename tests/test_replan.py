"""Incremental replanning (D* Lite): after every change in long random sequences the
replanner's answer costs what scipy's Dijkstra (and a fresh A*) says, on grids and on
graphs; bad input is refused at the boundary."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from _graphs import WEIGHTS
from _grids import RULES, assert_answer, oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

from pathcraft import Graph, Grid
from pathcraft.replan import Replanner

# --------------------------------------------------------------------------- grids

OPS = st.lists(
    st.tuples(
        st.sampled_from(("near", "near", "anywhere", "cost", "walk", "walk", "jump", "goal")),
        st.integers(0, 2**31),
    ),
    min_size=1,
    max_size=30,
)


def _grid_check(grid: Grid, plan: Replanner, start: tuple[int, int], goal: tuple[int, int]):
    cost = grid.cost
    want = math.inf
    if math.isfinite(cost[start]) and math.isfinite(cost[goal]):
        want = float(oracle(cost, grid.diagonal, [start])[goal])
    result = plan.path()
    assert_answer(cost, grid.diagonal, result, start, goal, want)
    if math.isfinite(want):
        assert result.cost == pytest.approx(grid.astar(start, goal).cost, rel=1e-9)
    return result


@settings(max_examples=80, deadline=None)
@given(
    rows=st.integers(2, 14),
    cols=st.integers(2, 14),
    rule=st.sampled_from(RULES),
    kind=st.sampled_from(("unit", "integer")),
    seed=st.integers(0, 2**32 - 1),
    ops=OPS,
)
def test_grid_replanner_matches_the_oracle_after_every_change(
    rows: int, cols: int, rule: str, kind: str, seed: int, ops: list[tuple[str, int]]
) -> None:
    rng = np.random.default_rng(seed)
    cost = np.ones((rows, cols)) if kind == "unit" else rng.integers(1, 6, (rows, cols)) * 1.0
    cost[rng.random((rows, cols)) < 0.2] = np.inf
    cost[0, 0] = cost[-1, -1] = 1.0
    grid = Grid(cost, diagonal=rule)  # type: ignore[arg-type]
    start, goal = (0, 0), (rows - 1, cols - 1)
    plan = grid.replanner(start, goal)
    result = _grid_check(grid, plan, start, goal)
    for op, salt in ops:
        r = np.random.default_rng([seed, salt])
        if op in ("near", "anywhere", "cost"):
            if op == "near" and result:  # a cell on or beside the current path
                on = result.path[r.integers(len(result.path))]
                cell = np.clip(on + r.integers(-1, 2, 2), 0, [rows - 1, cols - 1])
            else:
                cell = r.integers(0, [rows, cols])
            value = float(r.integers(1, 4)) if op == "cost" else (
                1.0 if math.isinf(grid.cost[tuple(cell)]) else np.inf
            )  # fmt: skip
            grid[int(cell[0]), int(cell[1])] = value
        elif op == "walk" and result and len(result.path) > 1:
            step = tuple(int(x) for x in result.path[1])
            plan.move_to(step)
            start = step  # type: ignore[assignment]
        elif op == "jump":
            free = np.argwhere(np.isfinite(grid.cost))
            cell = tuple(int(x) for x in free[r.integers(len(free))])
            plan.move_to(cell)
            start = cell  # type: ignore[assignment]
        elif op == "goal":
            free = np.argwhere(np.isfinite(grid.cost))
            goal = tuple(int(x) for x in free[r.integers(len(free))])  # type: ignore[assignment]
            plan.retarget(goal)
        result = _grid_check(grid, plan, start, goal)


def test_a_door_closing_ahead_costs_far_less_than_a_fresh_search() -> None:
    grid = Grid(np.ones((60, 60)))
    grid[10:50, 30] = np.inf  # a wall with a door at the top
    plan = grid.replanner((30, 5), (30, 55))
    first = plan.path()
    assert first.cost == pytest.approx(grid.astar((30, 5), (30, 55)).cost)
    # the agent walks ten steps, then a cell just ahead on its path turns into a wall
    for cell in first.path[1:11]:
        plan.move_to(tuple(cell))
    ahead = tuple(first.path[14])
    grid[ahead] = np.inf
    again = plan.path()
    fresh = grid.astar(tuple(first.path[10]), (30, 55))
    assert again.cost == pytest.approx(fresh.cost)
    assert again.expanded < fresh.expanded


def test_walking_along_the_path_needs_no_work() -> None:
    grid = Grid(np.ones((20, 20)))
    plan = grid.replanner((0, 0), (19, 19))
    path = plan.path().path
    for cell in path[1:]:
        plan.move_to(tuple(cell))
        r = plan.path()
        assert r.expanded == 0 and r.path[0].tolist() == cell.tolist()
    assert plan.path().path.tolist() == [[19, 19]] and plan.path().cost == 0.0


def test_a_cheaper_cell_than_any_before_restarts_the_search_admissibly() -> None:
    grid = Grid(np.full((6, 6), 4.0), diagonal="never")
    plan = grid.replanner((0, 0), (5, 5))
    assert plan.path().cost == 40.0
    grid[0, 1:] = 0.5
    grid[1:, 5] = 0.5
    assert plan.path().cost == pytest.approx(grid.astar((0, 0), (5, 5)).cost) == 5.0


def test_the_agent_walled_in_or_the_goal_walled_up_is_unreachable_until_it_opens() -> None:
    grid = Grid(np.ones((3, 3)))
    plan = grid.replanner((1, 1), (0, 0))
    grid[1, 1] = np.inf  # a wall built on the agent's own cell
    r = plan.path()
    assert not r and r.reason == "unreachable" and r.cost == math.inf
    grid[1, 1] = 1.0
    grid[0, 0] = np.inf  # on the goal
    assert plan.path().reason == "unreachable"
    grid[0, 0] = 1.0
    assert plan.path().cost == pytest.approx(math.sqrt(2))


def test_retarget_and_state() -> None:
    grid = Grid(np.ones((4, 4)))
    plan = grid.replanner((0, 0), (3, 3))
    assert plan.position == (0, 0) and plan.goal == (3, 3) and plan.world is grid
    plan.retarget((0, 3))
    assert plan.goal == (0, 3) and plan.path().cost == 3.0
    assert "Replanner(Grid, at (0, 0), goal (0, 3)" in repr(plan)
    assert plan.expanded > 0


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda g: g.replanner((5, 0), (0, 0)), ValueError, "start"),
        (lambda g: g.replanner((0, 0), (1, 1)), ValueError, r"goal \(1, 1\) is a wall"),
        (lambda g: g.replanner((0, 0), (0, 2)).move_to((1, 1)), ValueError, "node"),
        (lambda g: g.replanner((0, 0), (0, 2)).move_to((0, 9)), ValueError, "node"),
        (lambda g: g.replanner((0, 0), (0, 2)).retarget((1, 1)), ValueError, "goal"),
        (lambda g: Replanner("grid", (0, 0), (0, 1)), TypeError, "a pathcraft world"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_refused(call, error, match) -> None:  # type: ignore[no-untyped-def]
    grid = Grid.from_ascii("...\n.#.\n...")
    with pytest.raises(error, match=match):
        call(grid)


def test_the_kernel_checks_indices_at_its_boundary() -> None:
    from pathcraft._core import dstar

    grid = Grid(np.ones((3, 3)))
    plan = dstar.grid_planner(grid.padded, 1, 6, 18, 1.0)
    with pytest.raises(IndexError, match="vertex"):
        plan.move_to(25)
    with pytest.raises(IndexError, match="vertices"):
        plan.update(np.array([99], dtype=np.intp))
    with pytest.raises(IndexError, match="border"):
        plan.update(np.array([0], dtype=np.intp))
    with pytest.raises(IndexError, match="goal"):
        plan.reset(6, -1, 1.0)
    with pytest.raises(ValueError, match="offsets"):
        dstar.graph_planner(np.array([0, 5]), np.array([0], np.int32), np.ones(1), None, 0, 0, 0.0)
    with pytest.raises(IndexError, match="targets"):
        dstar.graph_planner(np.array([0, 1]), np.array([3], np.int32), np.ones(1), None, 0, 0, 0.0)


# --------------------------------------------------------------------------- graphs


@st.composite
def _graph_runs(draw: st.DrawFn):  # type: ignore[no-untyped-def]
    n = draw(st.integers(2, 25))
    node = st.integers(0, n - 1)
    pairs = draw(st.lists(st.tuples(node, node), min_size=1, max_size=4 * n))
    weights = draw(st.lists(WEIGHTS, min_size=len(pairs), max_size=len(pairs)))
    directed = draw(st.booleans())
    coords = draw(st.booleans())
    start, goal = draw(node), draw(node)
    if draw(st.booleans()):  # positive weights: the incremental repair (0 restarts)
        weights = [w + 1.0 for w in weights]
    edits = draw(st.lists(st.tuples(st.integers(0, len(pairs) - 1),
                                    st.one_of(WEIGHTS, st.just(math.inf)), st.booleans()),
                          max_size=25))  # fmt: skip
    return n, pairs, weights, directed, coords, start, goal, edits


def _graph_oracle(g: Graph, start: int) -> np.ndarray:
    src, dst, w = g.edges
    keep = np.isfinite(w)
    src, dst, w = src[keep], dst[keep], w[keep]
    if not g.directed:
        src, dst, w = np.concatenate((src, dst)), np.concatenate((dst, src)), np.concatenate((w, w))
    # parallel edges: keep the cheapest (csr_matrix would sum them)
    best: dict[tuple[int, int], float] = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist(), strict=True):
        best[(u, v)] = min(best.get((u, v), math.inf), x)
    rows = np.array([u for u, _ in best], dtype=np.intp)
    cols = np.array([v for _, v in best], dtype=np.intp)
    m = csr_matrix((np.array(list(best.values())), (rows, cols)), shape=(g.num_nodes,) * 2)
    return np.asarray(csgraph_dijkstra(m, directed=True, indices=start))


def _graph_path_cost(g: Graph, path: list[int]) -> float:
    src, dst, w = g.edges
    total = 0.0
    for u, v in itertools.pairwise(path):
        hit = (src == u) & (dst == v)
        if not g.directed:
            hit |= (src == v) & (dst == u)
        assert hit.any(), f"{u} -> {v} is not an edge"
        total += float(w[hit].min())
    return total


@settings(max_examples=80, deadline=None)
@given(_graph_runs())
def test_graph_replanner_matches_the_oracle_after_every_change(run) -> None:  # type: ignore[no-untyped-def]
    n, pairs, weights, directed, with_coords, start, goal, edits = run
    src = [u for u, _ in pairs]
    dst = [v for _, v in pairs]
    coords = np.random.default_rng(n).uniform(0, 3, (n, 2)) if with_coords else None
    if coords is not None:  # weights at least the straight-line length: a real heuristic
        weights = [w + float(np.linalg.norm(coords[u] - coords[v])) for (u, v), w in
                   zip(pairs, weights, strict=True)]  # fmt: skip
    g = Graph(n, src, dst, weights, directed=directed, coords=coords)
    plan = g.replanner(start, goal)
    for k in range(len(edits) + 1):
        if k > 0:
            edge, weight, walk = edits[k - 1]
            if min(weights) >= 1.0:
                weight += 1.0
            if coords is not None and math.isfinite(weight):
                u, v = pairs[edge]
                weight += float(np.linalg.norm(coords[u] - coords[v]))
            g.set_weights([weight], edges=[edge])
            if walk and result and len(result.path) > 1:  # noqa: F821
                start = result.path[1]  # noqa: F821
                plan.move_to(start)
        want = float(_graph_oracle(g, start)[goal])
        result = plan.path()
        if math.isinf(want):
            assert not result and result.reason == "unreachable" and result.path == []
            continue
        assert result, (want, result)
        assert result.path[0] == start and result.path[-1] == goal
        assert result.cost == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert _graph_path_cost(g, result.path) == pytest.approx(result.cost, rel=1e-9, abs=1e-12)
        assert result.cost == pytest.approx(g.astar(start, goal).cost, rel=1e-9, abs=1e-12)


# --------------------------------------------------------------------------- sliced searches


@pytest.mark.parametrize("algorithm", ["astar", "jps", "dijkstra"])
def test_editing_a_grid_under_a_running_sliced_search_cancels_it_clearly(algorithm: str) -> None:
    cost = np.ones((30, 30))
    cost[5::6, :-1] = np.inf  # walls with a gap at the end: a long zigzag
    grid = Grid(cost)
    search = grid.start_search((0, 0), (28, 0), algorithm=algorithm)  # type: ignore[arg-type]
    assert search.step(2) == "in_progress"
    grid[15, 15] = np.inf
    changed = r"the Grid changed under this search \(version 0 -> 1\)"
    with pytest.raises(RuntimeError, match=changed):
        search.step(5)
    assert search.status == "cancelled" and search.step(5) == "cancelled"
    with pytest.raises(RuntimeError):
        _ = search.result
    fresh = grid.start_search((0, 0), (28, 0), algorithm=algorithm)  # type: ignore[arg-type]
    assert fresh.step() == "found"


def test_editing_a_graph_under_a_running_sliced_search_cancels_it_and_an_ended_one_stays() -> None:
    g = Graph(4, [0, 1, 2], [1, 2, 3])
    search = g.start_search(0, 3)
    assert search.step(1) == "in_progress"
    g.set_weights([2.0], edges=[2])
    with pytest.raises(RuntimeError, match="the Graph changed under this search"):
        search.step()
    done = g.start_search(0, 3)
    assert done.step() == "found"
    g.set_weights([1.0], edges=[2])
    assert done.step() == "found" and done.result.cost == 4.0  # ended: its answer stays


def test_the_request_queue_starts_a_search_again_when_its_grid_is_edited() -> None:
    from pathcraft.agents import PathRequestQueue

    grid = Grid(np.ones((40, 40)))
    queue = PathRequestQueue(budget=20)
    queue.request("orc", grid, (0, 0), (39, 39), algorithm="dijkstra")
    queue.request("elf", grid, (0, 39), (39, 0), algorithm="dijkstra")
    assert queue.update() == {}
    grid[20, 0:30] = np.inf  # a wall across the map while both searches run
    grid[0, 39] = np.inf  # on the elf's start
    done: dict = {}
    for _ in range(1000):
        done.update(queue.update())
        if len(queue) == 0:
            break
    assert done["orc"].cost == pytest.approx(grid.astar((0, 0), (39, 39)).cost)
    assert not done["elf"] and done["elf"].reason == "unreachable"
    submitted = grid.start_search((0, 0), (39, 39))
    queue.submit("imp", submitted)
    queue.update()
    grid[5, 5] = np.inf
    with pytest.raises(RuntimeError, match="changed under this search"):
        queue.update()
    assert len(queue) == 0


# --------------------------------------------------------------------------- Moving AI


@pytest.mark.slow
@pytest.mark.parametrize("name", ["dao/den520d", "room/32room_000", "random/random512-40-0"])
def test_long_random_changes_on_a_moving_ai_map_match_a_fresh_astar(movingai, name) -> None:  # type: ignore[no-untyped-def]
    from pathcraft.io import read_map, read_scen

    grid = read_map(movingai / "maps" / f"{name}.map")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    longest = int(np.argmax(scen.optimal))
    start = tuple(int(x) for x in scen.starts[longest])
    goal = tuple(int(x) for x in scen.goals[longest])
    published = scen.optimal[longest]  # rounded: the data set compares to 1e-5
    assert grid.replanner(start, goal).path().cost == pytest.approx(published, rel=1e-5)
    plan = grid.replanner(start, goal)
    rng = np.random.default_rng(3)
    result = plan.path()
    for _ in range(150):
        path = result.path
        if len(path) > 3:  # walk a few steps
            start = tuple(int(x) for x in path[min(3, len(path) - 1)])
            plan.move_to(start)
        for _ in range(int(rng.integers(1, 4))):  # cells near the path toggle
            near = path[int(rng.integers(len(path)))] if len(path) else np.array(start)
            cell = tuple(int(x) for x in np.clip(near + rng.integers(-2, 3, 2), 0,
                                                 np.array(grid.shape) - 1))  # fmt: skip
            if cell not in (start, goal):
                grid[cell] = 1.0 if np.isinf(grid[cell]) else np.inf
        result = plan.path()
        fresh = grid.astar(start, goal)
        assert bool(result) == bool(fresh)
        if fresh:
            assert result.cost == pytest.approx(fresh.cost, rel=1e-9)


@pytest.mark.parametrize("vertex", [-1, 0, 3, 5, 9, 10, 14, 20, 24, 30])
def test_the_kernel_refuses_the_grids_border(vertex: int) -> None:
    from pathcraft._core import dstar

    grid = Grid(np.ones((3, 3)))  # padded 5 x 5: the border is row 0, row 4, col 0, col 4
    plan = dstar.grid_planner(grid.padded, 1, 6, 18, 1.0)
    for call in (plan.move_to, lambda v: plan.reset(6, v, 1.0), lambda v: plan.reset(v, 6, 1.0)):
        with pytest.raises(IndexError):
            call(vertex)
    with pytest.raises(IndexError):
        plan.update(np.array([6, vertex], dtype=np.intp))
