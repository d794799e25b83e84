"""LaCAM, LaCAM* and PIBT (pathcraft.mapf.lacam / pibt) against oracles written here:
every solution through the independent conflict checker of tests/_mapf.py, and a
joint-state search (Dijkstra over every agent's place at once) that decides whether a
small instance has a solution and what its least sum of loss is."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable

import numpy as np
import pytest
from _mapf import assert_solution, grid_step, random_instance
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Grid
from pathcraft.io import read_mapf_scen
from pathcraft.mapf import Problem, lacam, lower_bound, pibt, solve, validate


def _check(problem: Problem, result, step_ok) -> None:
    """A solved result: valid by the independent checker, costs as its paths say."""
    starts = [problem.place(int(v)) for v in problem.starts]
    goals = [problem.place(int(v)) for v in problem.goals]
    assert_solution(result.paths, starts, goals, step_ok, following=problem.following)
    assert result.sum_of_costs == sum(len(p) - 1 for p in result.paths)
    assert result.makespan == max(len(p) - 1 for p in result.paths)
    assert result.sum_of_costs >= result.lower_bound == lower_bound(problem)


def _joint_search(
    problem: Problem,
) -> int | None:
    """The least sum of loss (agent-steps not spent staying at the goal) over every
    solution, by Dijkstra over joint configurations; None when the goal configuration
    cannot be reached. Written from the rules alone: every agent moves to a neighbour
    or waits, no two agents on one node, no two exchanging nodes (and, with
    following conflicts, no agent entering a node another leaves)."""
    n = problem.n_agents
    nbrs = [
        [v, *problem.indices[problem.indptr[v] : problem.indptr[v + 1]].tolist()]
        for v in range(problem.n_nodes)
    ]
    start = tuple(int(v) for v in problem.starts)
    goal = tuple(int(v) for v in problem.goals)
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, conf = heapq.heappop(heap)
        if conf == goal:
            return cost
        if cost > best[conf]:
            continue
        for nxt in itertools.product(*(nbrs[v] for v in conf)):
            if len(set(nxt)) < n:
                continue
            bad = False
            for i in range(n):
                for j in range(n):
                    # i enters j's node: a swap if j enters i's, a following conflict
                    # if j moves at all (forbidden when asked)
                    if (
                        i != j
                        and nxt[i] == conf[j] != conf[i]
                        and (nxt[j] == conf[i] or (problem.following and nxt[j] != conf[j]))
                    ):
                        bad = True
            if bad:
                continue
            step = sum(1 for i in range(n) if not (conf[i] == goal[i] == nxt[i]))
            if cost + step < best.get(nxt, 1 << 60):
                best[nxt] = cost + step
                heapq.heappush(heap, (cost + step, nxt))
    return None


def _grid(walkable: np.ndarray, rule: str = "never") -> Grid:
    return Grid.from_walkable(walkable, diagonal=rule)


# ------------------------------------------------------------------ small instances


@settings(max_examples=30, deadline=None)
@example(seed=880416, rows=2, cols=4, agents=3, rule="never", following=False)  # LNS ran after
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 4),
    cols=st.integers(2, 4),
    agents=st.integers(1, 3),
    rule=st.sampled_from(["never", "no_corner_cut"]),
    following=st.booleans(),
)
def test_lacam_solves_exactly_the_solvable(
    seed: int, rows: int, cols: int, agents: int, rule: str, following: bool
) -> None:
    rng = np.random.default_rng(seed)
    agents = min(agents, rows * cols)
    walkable, starts, goals = random_instance(rng, (rows, cols), 0.25, agents)
    problem = Problem(_grid(walkable, rule), starts, goals, following=following)
    best = _joint_search(problem)
    result = lacam(problem, time_limit=30.0, seed=seed % 1000)
    if best is None:
        assert not result and result.status == "no solution", result
        return
    assert result, (result, best)
    _check(problem, result, grid_step(walkable, rule))
    # LaCAM* refines to the least sum of loss once it has searched everything
    star = lacam(problem, time_limit=30.0, refine=True, seed=seed % 1000)
    assert star and star.stats["stopped"] == "exhausted"
    assert star.stats["sum_of_loss"] == best
    assert star.stats["first_sum_of_loss"] >= best
    _check(problem, star, grid_step(walkable, rule))
    if star.optimal:
        assert star.sum_of_costs == best


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    side=st.integers(2, 7),
    agents=st.integers(1, 8),
    rule=st.sampled_from(["never", "no_corner_cut", "always"]),
    following=st.booleans(),
    swap=st.booleans(),
)
def test_every_solution_passes_the_checker(
    seed: int, side: int, agents: int, rule: str, following: bool, swap: bool
) -> None:
    rng = np.random.default_rng(seed)
    agents = min(agents, side * (side + 1))
    walkable, starts, goals = random_instance(rng, (side, side + 1), 0.2, agents)
    problem = Problem(_grid(walkable, rule), starts, goals, following=following)
    for result in (
        lacam(problem, time_limit=2.0, swap=swap, seed=seed % 97),
        lacam(problem, time_limit=0.2, refine=True, swap=swap),
        pibt(problem, time_limit=1.0, max_steps=200, swap=swap, seed=seed % 97),
    ):
        if result:
            _check(problem, result, grid_step(walkable, rule))
            assert not validate(problem, result.paths)
        else:
            assert result.status in ("no solution", "time limit", "iteration limit")
            assert result.paths == [] and result.reason


def test_two_agents_cannot_swap_in_a_corridor() -> None:
    corridor = Grid.from_ascii(".....", diagonal="never")
    problem = Problem(corridor, [(0, 0), (0, 4)], [(0, 4), (0, 0)])
    assert _joint_search(problem) is None
    result = lacam(problem, refine=True)
    assert not result and result.status == "no solution"
    assert "every configuration" in result.reason
    assert result.stats["stopped"] == "exhausted"
    # a side pocket makes room: the joint search and LaCAM agree that it is solvable
    pocket = Grid.from_ascii(".....\n..#.#", diagonal="never")
    problem = Problem(pocket, [(0, 0), (0, 4)], [(0, 4), (0, 0)])
    best = _joint_search(problem)
    result = lacam(problem, refine=True)
    assert best is not None and result and result.stats["sum_of_loss"] == best
    _check(problem, result, grid_step(np.isfinite(pocket.cost)))


def test_an_agent_walled_off_has_no_solution() -> None:
    grid = Grid.from_ascii("..#..", diagonal="never")
    problem = Problem(grid, [(0, 0)], [(0, 4)])
    for solver in (lacam, pibt):
        result = solver(problem)
        assert not result and result.status == "no solution"
        assert "agent 0 cannot reach its goal (0, 4)" in result.reason


def test_pibt_gives_up_at_its_step_limit() -> None:
    grid = Grid.from_ascii("......", diagonal="never")
    result = pibt(Problem(grid, [(0, 0)], [(0, 5)]), max_steps=3)
    assert not result and result.status == "iteration limit" and "3 steps" in result.reason
    assert pibt(Problem(grid, [(0, 0)], [(0, 5)]), max_steps=5).sum_of_costs == 5


def test_node_and_time_limits_are_reported() -> None:
    grid = Grid.from_ascii(".....", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 4)], [(0, 4), (0, 0)])
    result = lacam(problem, node_limit=2)
    assert not result and result.status == "node limit" and "2 configurations" in result.reason


def test_on_a_graph_and_through_solve() -> None:
    graph = Graph(5, [0, 1, 2, 1], [1, 2, 3, 4], directed=False, labels=list("abcde"))
    problem = Problem(graph, ["a", "d"], ["d", "a"])
    best = _joint_search(problem)
    edges = {frozenset(e) for e in ("ab", "bc", "cd", "be")}

    def ok(x: Hashable, y: Hashable) -> bool:
        return frozenset((x, y)) in edges

    for result in (
        lacam(problem, refine=True),
        solve(graph, ["a", "d"], ["d", "a"], solver="lacam", refine=True),
        solve(problem, solver="pibt"),
    ):
        assert result and result.paths[0][0] == "a" and result.paths[0][-1] == "d"
        _check(problem, result, ok)
    assert lacam(problem, refine=True).stats["sum_of_loss"] == best


def test_same_seed_same_run_and_inputs_untouched() -> None:
    grid = Grid.from_ascii("......\n.#..#.\n......\n..#...", diagonal="never")
    starts = [(0, 0), (2, 5), (3, 0), (0, 5)]
    goals = [(3, 5), (0, 0), (0, 3), (2, 0)]
    problem = Problem(grid, starts, goals)
    before = [a.copy() for a in (problem.indptr, problem.indices, problem.starts, problem.goals)]
    one = lacam(problem, seed=7)
    two = lacam(problem, seed=7)
    assert one.paths == two.paths
    after = (problem.indptr, problem.indices, problem.starts, problem.goals)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert starts == [(0, 0), (2, 5), (3, 0), (0, 5)]


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"refine": 1}, TypeError, "refine must be True or False"),
        ({"swap": "yes"}, TypeError, "swap must be True or False"),
        ({"node_limit": 0}, ValueError, "node_limit must be a positive integer"),
        ({"node_limit": 2.5}, TypeError, "node_limit must be a positive integer or None"),
        ({"seed": -1}, TypeError, "seed must be an integer >= 0"),
        ({"time_limit": -1}, ValueError, "time_limit must be a number >= 0 or None"),
        ({"time_limit": "1"}, TypeError, "time_limit must be a number >= 0 or None"),
        ({"nodes": 3}, TypeError, "unexpected keyword"),
    ],
)
def test_bad_options_are_refused(options: dict, error: type, match: str) -> None:
    problem = Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0)], [(0, 2)])
    with pytest.raises(error, match=match):
        lacam(problem, **options)


def test_pibt_refuses_bad_steps() -> None:
    problem = Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0)], [(0, 2)])
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        pibt(problem, max_steps=0)


# ------------------------------------------------------------------ the benchmark


def _bench_check(
    mapf_benchmark, name: str, number: int, k: int | None, refine: bool, limit: float = 60.0
):
    grid, starts, goals = read_mapf_scen(
        mapf_benchmark / "scen-random" / f"{name}-random-{number}.scen", k
    )
    problem = Problem(grid, starts, goals)
    result = lacam(problem, time_limit=limit, refine=refine)
    assert result, result
    _check(problem, result, grid_step(np.isfinite(grid.cost)))
    return result


def test_lacam_on_a_benchmark_instance(mapf_benchmark) -> None:
    _bench_check(mapf_benchmark, "room-32-32-4", 1, 80, refine=False)


def test_refinement_lowers_the_sum_of_costs(mapf_benchmark) -> None:
    result = _bench_check(mapf_benchmark, "random-32-32-20", 2, 120, refine=True, limit=1.5)
    assert result.stats["lns_iterations"] > 0 and result.stats["lns_accepted"] > 0
    assert result.sum_of_costs < result.stats["lacam_sum_of_costs"]
    assert result.time_s < 3.0


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 2, 3])
def test_lacam_solves_whole_random_32_32_20_scen_files(mapf_benchmark, number: int) -> None:
    _bench_check(mapf_benchmark, "random-32-32-20", number, None, refine=False)
