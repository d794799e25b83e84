"""Safe-interval path planning (the reservation table and its search) and prioritized
planning: SIPP's arrival times equal the shortest ones in the time-expanded graph with
the reserved places removed (built here with scipy.sparse); every prioritized solution
passes the independent conflict checker of tests/_mapf.py."""

from __future__ import annotations

import numpy as np
import pytest
from _mapf import assert_solution, grid_step, random_instance
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from pathcraft import Grid
from pathcraft._core.sipp import (
    SIPP_EXPANSION_LIMIT,
    SIPP_FOUND,
    SIPP_NO_PATH,
    Reservations,
    sipp,
)
from pathcraft.mapf import Problem, solve, validate


class Reserved:
    """What the test reserved, kept apart from the kernel: occupied (node, time), moves
    (from, to, arrival time) and the times from which nodes stay occupied for good."""

    def __init__(self, following: bool) -> None:
        self.at: set[tuple[int, int]] = set()
        self.moves: set[tuple[int, int, int]] = set()
        self.forever: dict[int, int] = {}
        self.following = following

    def add(self, path: list[int], forever: bool) -> None:
        for t, v in enumerate(path):
            self.at.add((v, t))
            if t and path[t - 1] != v:
                self.moves.add((path[t - 1], v, t))
        if forever:
            arrive = len(path) - 1
            while arrive and path[arrive - 1] == path[-1]:
                arrive -= 1
            self.forever[path[-1]] = min(self.forever.get(path[-1], 10**9), arrive)

    def taken(self, v: int, t: int) -> bool:
        near = (t - 1, t, t + 1) if self.following else (t,)
        return any((v, s) in self.at or s >= self.forever.get(v, 10**9) for s in near if s >= 0)


def _random_walk(rng, problem: Problem, length: int) -> list[int]:
    v = int(rng.integers(problem.n_nodes))
    walk = [v]
    for _ in range(length):
        nbrs = [*problem.indices[problem.indptr[v] : problem.indptr[v + 1]].tolist(), v]
        v = int(nbrs[rng.integers(len(nbrs))])
        walk.append(v)
    return walk


def _oracle(problem: Problem, res: Reserved, start: int, goal: int, horizon: int) -> int | None:
    """The earliest time the agent can be at the goal and stay there for good, by a
    breadth-first search of the time-expanded graph (None: never)."""
    n = problem.n_nodes
    places = problem.places
    walkable = np.isfinite(problem.world.cost)
    ok = grid_step(walkable, problem.world.diagonal)
    src, dst = [], []
    for t in range(horizon):
        for u in range(n):
            if res.taken(u, t):
                continue
            for v in range(n):
                if res.taken(v, t + 1):
                    continue
                if v != u and not ok(places[u], places[v]):
                    continue
                if v != u and (v, u, t + 1) in res.moves:
                    continue  # a swap with a reserved agent
                src.append(t * n + u)
                dst.append((t + 1) * n + v)
    size = (horizon + 1) * n
    graph = csr_matrix((np.ones(len(src)), (src, dst)), shape=(size, size))
    if res.taken(start, 0):
        return None
    reached = set(breadth_first_order(graph, start, directed=True, return_predecessors=False))
    for t in range(horizon + 1):
        if t * n + goal in reached and not any(res.taken(goal, s) for s in range(t, horizon + 3)):
            return t
    return None


def _check_walk(problem: Problem, res: Reserved, path: np.ndarray, start: int, goal: int) -> None:
    ok = grid_step(np.isfinite(problem.world.cost), problem.world.diagonal)
    assert path[0] == start and path[-1] == goal
    for t, v in enumerate(path.tolist()):
        assert not res.taken(v, t), (v, t)
        if t:
            u = int(path[t - 1])
            assert u == v or ok(problem.places[u], problem.places[v])
            assert (v, u, t) not in res.moves


@settings(max_examples=80)
@given(
    seed=st.integers(0, 2**32 - 1),
    rule=st.sampled_from(("never", "no_corner_cut")),
    following=st.booleans(),
    others=st.integers(0, 4),
)
def test_sipp_is_optimal_against_the_time_expanded_graph(
    seed: int, rule: str, following: bool, others: int
) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (4, 5), 0.2, 1)
    problem = Problem(Grid.from_walkable(walkable, diagonal=rule), starts, goals)
    res = Reserved(following)
    table = Reservations(problem.n_nodes, following)
    longest = 0
    for _ in range(others):
        walk = _random_walk(rng, problem, int(rng.integers(0, 10)))
        forever = bool(rng.random() < 0.3)
        res.add(walk, forever)
        table.reserve_path(np.array(walk, dtype=np.int32), forever=forever)
        longest = max(longest, len(walk))
    start, goal = int(problem.starts[0]), int(problem.goals[0])
    for v in range(problem.n_nodes):  # the kernel's table says what the test reserved
        for t in range(longest + 3):
            assert table.blocked(v, t) == res.taken(v, t)
    status, path = sipp(table, problem.indptr, problem.indices, problem.distances(0), start, goal)
    want = _oracle(problem, res, start, goal, longest + problem.n_nodes + 2)
    if want is None:
        assert status == SIPP_NO_PATH and path is None
    else:
        assert status == SIPP_FOUND and path is not None
        assert len(path) - 1 == want
        _check_walk(problem, res, path, start, goal)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), window=st.integers(1, 6))
def test_windowed_sipp_minimises_steps_plus_distance_left(seed: int, window: int) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (4, 5), 0.2, 1)
    problem = Problem(Grid.from_walkable(walkable, diagonal="never"), starts, goals)
    h = problem.distances(0)
    if h[problem.starts[0]] < 0:
        return
    res = Reserved(False)
    table = Reservations(problem.n_nodes)
    for _ in range(3):
        walk = _random_walk(rng, problem, window + 1)
        if walk[0] == problem.starts[0]:
            continue
        res.add(walk, False)
        table.reserve_path(np.array(walk, dtype=np.int32))
    start, goal = int(problem.starts[0]), int(problem.goals[0])
    status, path = sipp(table, problem.indptr, problem.indices, h, start, goal, window=window)
    # the oracle: the best of "at the goal for good at t < window" (cost t) and
    # "somewhere at t = window" (cost window + steps left), over the time-expanded graph
    n = problem.n_nodes
    ok = grid_step(walkable)
    reach = {start}
    best = None
    for t in range(window + 1):
        if goal in reach and not any(res.taken(goal, s) for s in range(t, window + 12)):
            best = t if best is None else min(best, t)
        if t == window:
            costs = [window + int(h[v]) for v in reach if h[v] >= 0]
            if costs:
                best = min(costs) if best is None else min(best, min(costs))
            break
        reach = {
            v
            for u in reach
            for v in range(n)
            if (v == u or ok(problem.places[u], problem.places[v]))
            and not res.taken(v, t + 1)
            and (v, u, t + 1) not in res.moves
        }
    if best is None:
        assert status == SIPP_NO_PATH
        return
    assert status == SIPP_FOUND and path is not None
    for t, v in enumerate(path.tolist()):
        assert not res.taken(v, t)
        if t:
            assert v == path[t - 1] or ok(problem.places[int(path[t - 1])], problem.places[v])
    got = len(path) - 1 if len(path) - 1 < window else len(path) - 1 + int(h[path[-1]])
    assert got == best


def test_sipp_limits_and_bad_input() -> None:
    problem = Problem(Grid.from_ascii("......", diagonal="never"), [(0, 0)], [(0, 5)])
    table = Reservations(problem.n_nodes)
    h = problem.distances(0)
    status, path = sipp(table, problem.indptr, problem.indices, h, 0, 5, max_expansions=2)
    assert status == SIPP_EXPANSION_LIMIT and path is None
    with pytest.raises(IndexError, match="start"):
        sipp(table, problem.indptr, problem.indices, h, 9, 5)
    with pytest.raises(ValueError, match="h has 2 entries"):
        sipp(table, problem.indptr, problem.indices, h[:2].copy(), 0, 5)
    with pytest.raises(IndexError, match="path"):
        table.reserve_path(np.array([0, 7], dtype=np.int32))


def test_prioritized_on_a_door_and_a_swap() -> None:
    # two agents swap ends of a corridor with one side pocket: one must step aside
    grid = Grid.from_ascii("#.##\n....", diagonal="never")
    problem = Problem(grid, [(1, 0), (1, 3)], [(1, 3), (1, 0)])
    result = solve(problem, solver="prioritized")
    assert result, result.reason
    assert validate(problem, result.paths) == []
    assert_solution(
        result.paths, [(1, 0), (1, 3)], [(1, 3), (1, 0)], grid_step(np.isfinite(grid.cost))
    )
    assert result.sum_of_costs == 3 + 5 and result.lower_bound == 6


def test_prioritized_says_no_solution_only_when_a_goal_is_cut_off() -> None:
    grid = Grid.from_ascii("..#..", diagonal="never")
    result = solve(grid, [(0, 0)], [(0, 4)], solver="sipp")
    assert not result and result.status == "no solution"
    assert "agent 0 cannot reach its goal (0, 4)" in result.reason
    # a corridor two agents cannot pass each other in: incomplete, so a time limit
    corridor = Grid.from_ascii("...", diagonal="never")
    result = solve(corridor, [(0, 0), (0, 2)], [(0, 2), (0, 0)], solver="sipp", time_limit=0.2)
    assert not result and result.status == "time limit"
    assert "prioritized planning is incomplete" in result.reason


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    agents=st.integers(1, 8),
    rule=st.sampled_from(("never", "no_corner_cut")),
    following=st.booleans(),
    order=st.sampled_from(("longest", "shortest", "index")),
)
def test_prioritized_solutions_pass_the_independent_checker(
    seed: int, agents: int, rule: str, following: bool, order: str
) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (6, 7), 0.2, agents)
    problem = Problem(
        Grid.from_walkable(walkable, diagonal=rule), starts, goals, following=following
    )
    result = solve(problem, solver="prioritized", time_limit=2.0, order=order)
    if result:
        assert_solution(result.paths, starts, goals, grid_step(walkable, rule), following=following)
        assert result.sum_of_costs >= result.lower_bound
        assert result.sum_of_costs == sum(len(p) - 1 for p in result.paths)
    else:
        assert result.status in ("no solution", "time limit")
        if result.status == "no solution":
            assert any(problem.distances(a)[problem.starts[a]] < 0 for a in range(agents))


def test_prioritized_refuses_bad_options() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    with pytest.raises(ValueError, match="order must be one of 'longest'"):
        solve(grid, [(0, 0)], [(0, 2)], solver="prioritized", order="random")
    with pytest.raises(TypeError, match="unexpected keyword"):
        solve(grid, [(0, 0)], [(0, 2)], solver="prioritized", windw=3)


def test_prioritized_on_a_benchmark_instance(mapf_benchmark) -> None:
    from pathcraft.io import read_mapf_scen

    scen = mapf_benchmark / "scen-random" / "random-32-32-20-random-1.scen"
    grid, starts, goals = read_mapf_scen(scen, k=60)
    result = solve(grid, starts, goals, solver="prioritized", time_limit=20.0)
    assert result, result.reason
    assert_solution(result.paths, starts, goals, grid_step(np.isfinite(grid.cost)))
    assert result.lower_bound <= result.sum_of_costs


def test_prioritized_on_a_hex_grid() -> None:
    from pathcraft.hexgrid import HexGrid

    hexes = HexGrid(np.ones((4, 5)), "odd-r")
    starts, goals = [(0, 0), (3, 4), (0, 4)], [(3, 4), (0, 0), (3, 0)]
    problem = Problem(hexes, starts, goals)
    result = solve(problem, solver="prioritized")
    assert result, result.reason

    def step_ok(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return b in {place for place, _cost in hexes.neighbors(a)}

    assert_solution(result.paths, starts, goals, step_ok)
    assert validate(problem, result.paths) == []
