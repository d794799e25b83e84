"""LaCAM's refinement (the neighbourhood search of pathcraft._core.mapf_lns) and its
spread paths (pathcraft._core.scatter), against oracles written here: every refined
solution through the independent conflict checker of tests/_mapf.py, its cost never
above the solution it started from; spread paths walked step by step over the grid's
moves and measured against scipy's shortest paths."""

from __future__ import annotations

import time

import numpy as np
import pytest
from _mapf import assert_solution, grid_step, random_instance
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from pathcraft import Grid
from pathcraft._core import mapf_lns
from pathcraft._core.scatter import scatter
from pathcraft.io import read_mapf_scen
from pathcraft.mapf import Problem, lacam, pibt


def _configs(problem: Problem, paths) -> np.ndarray:
    """A solution's paths (places) as LaCAM's configurations (steps x agents, node ids),
    every path padded with its goal."""
    index = {problem.place(v): v for v in range(problem.n_nodes)}
    steps = max(len(p) for p in paths)
    out = np.empty((steps, problem.n_agents), dtype=np.int32)
    for i, path in enumerate(paths):
        nodes = [index[c] for c in path]
        out[:, i] = nodes + [nodes[-1]] * (steps - len(nodes))
    return out


def _sum_of_costs(configs: np.ndarray, goals: np.ndarray) -> int:
    """Written apart from the library: per agent, the last step it is off its goal."""
    total = 0
    for i in range(configs.shape[1]):
        away = np.flatnonzero(configs[:, i] != goals[i])
        total += int(away[-1]) + 1 if away.size else 0
    return total


def _paths(problem: Problem, configs: np.ndarray) -> list[list]:
    out = []
    for i in range(problem.n_agents):
        column = configs[:, i].tolist()
        while len(column) > 1 and column[-1] == column[-2]:
            column.pop()
        out.append([problem.place(int(v)) for v in column])
    return out


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    side=st.integers(3, 7),
    agents=st.integers(2, 12),
    following=st.booleans(),
    adaptive=st.booleans(),
    sideways=st.booleans(),
    sipp=st.booleans(),
)
def test_refinement_never_raises_the_cost_nor_returns_a_conflict(
    seed: int, side: int, agents: int, following: bool, adaptive: bool, sideways: bool,
    sipp: bool,
) -> None:
    rng = np.random.default_rng(seed)
    agents = min(agents, side * side // 2)
    walkable, starts, goals = random_instance(rng, (side, side), 0.15, agents)
    grid = Grid.from_walkable(walkable, diagonal="never")
    problem = Problem(grid, starts, goals, following=following)
    first = pibt(problem, time_limit=1.0, max_steps=300, seed=seed % 101)
    if not first:
        return
    configs = _configs(problem, first.paths)
    before = configs.copy()
    dist = np.ascontiguousarray(problem.distance_table())
    bound = int(dist[np.arange(problem.n_agents), problem.starts].sum())
    runs = [
        mapf_lns.refine(
            problem.indptr, problem.indices, problem.goals, dist, configs, np.inf, bound,
            following, seed % 1000, 200, adaptive, sideways, sipp,
        )
        for _ in range(2)
    ]
    assert np.array_equal(configs, before)  # the input untouched
    out, stats = runs[0]
    assert np.array_equal(out, runs[1][0])  # the same seed, the same refinement
    assert np.array_equal(out[0], problem.starts) and np.array_equal(out[-1], problem.goals)
    cost = _sum_of_costs(out, problem.goals)
    assert bound <= cost <= _sum_of_costs(before, problem.goals)
    assert stats["stalled"] or cost == bound
    assert_solution(
        _paths(problem, out), starts, goals, grid_step(walkable), following=following
    )


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    side=st.integers(2, 8),
    agents=st.integers(1, 16),
    margin=st.integers(0, 4),
)
def test_spread_paths_are_walks_to_the_goal_within_the_margin(
    seed: int, side: int, agents: int, margin: int
) -> None:
    rng = np.random.default_rng(seed)
    agents = min(agents, side * side)
    walkable, starts, goals = random_instance(rng, (side, side), 0.2, agents)
    grid = Grid.from_walkable(walkable, diagonal="never")
    problem = Problem(grid, starts, goals)
    dist = np.ascontiguousarray(problem.distance_table())
    guide, stats = scatter(
        problem.indptr, problem.indices, problem.starts, problem.goals, dist, np.inf,
        margin, seed % 1000,
    )
    assert np.array_equal(guide, scatter(
        problem.indptr, problem.indices, problem.starts, problem.goals, dist, np.inf,
        margin, seed % 1000,
    )[0])
    assert stats["rounds"] >= 1
    # the oracle: scipy's unweighted shortest paths over the grid's 4-connected moves
    n = problem.n_nodes
    adjacency = csr_matrix(
        (np.ones(len(problem.indices)), problem.indices, problem.indptr), shape=(n, n)
    )
    far = shortest_path(adjacency, unweighted=True, directed=True)
    step_ok = grid_step(walkable)
    for i in range(problem.n_agents):
        s, g = int(problem.starts[i]), int(problem.goals[i])
        if not np.isfinite(far[s, g]):
            continue  # no path: any guide is fine, LaCAM reports the agent
        v, seen = s, {s}
        while v != g:
            u = int(guide[i, v])
            assert u >= 0 and step_ok(problem.place(v), problem.place(u))
            assert u not in seen  # a simple path
            seen.add(u)
            v = u
        assert far[s, g] <= len(seen) - 1 <= far[s, g] + margin


def test_lacam_with_and_without_spread_paths() -> None:
    grid = Grid.from_ascii("......\n.#..#.\n......\n..#...", diagonal="never")
    starts = [(0, 0), (2, 5), (3, 0), (0, 5)]
    goals = [(3, 5), (0, 0), (0, 3), (2, 0)]
    problem = Problem(grid, starts, goals)
    walkable = np.isfinite(grid.cost)
    for spread in (True, False, None):
        for refine in (True, False):
            result = lacam(problem, refine=refine, scatter=spread, time_limit=1.0)
            assert result
            assert_solution(result.paths, starts, goals, grid_step(walkable))
            assert ("scatter_rounds" in result.stats) == (
                spread is True or (spread is None and refine)
            )
            if spread is None and refine:  # both first solutions, the cheaper one kept
                without, with_ = result.stats["scatter_first_costs"]
                assert result.stats["scatter_used"] == (with_ < without)
                assert result.stats["lacam_sum_of_costs"] == min(without, with_)
    with pytest.raises(TypeError, match="scatter must be True or False"):
        lacam(problem, scatter=1)



def test_the_first_solution_compared_is_kept_when_the_search_runs_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``refine`` and ``scatter=None`` both first solutions are found before the
    search proper; when that search then finds nothing in its time (a limit of a few
    milliseconds on a loaded machine), the cheaper first solution is the answer."""
    from pathcraft.mapf import _lacam

    real = _lacam._search
    calls = []

    def search(problem, dist, t0, limit, nodes, refine, *rest):  # type: ignore[no-untyped-def]
        calls.append(refine)
        if refine:  # the search after the comparison: its time already spent
            return real(problem, dist, t0, 0.0, nodes, refine, *rest)
        return real(problem, dist, t0, limit, nodes, refine, *rest)

    monkeypatch.setattr(_lacam, "_search", search)
    grid = Grid.from_ascii("......\n.#..#.\n......\n..#...", diagonal="never")
    starts = [(0, 0), (2, 5), (3, 0), (0, 5)]
    goals = [(3, 5), (0, 0), (0, 3), (2, 0)]
    problem = Problem(grid, starts, goals)
    result = lacam(problem, refine=True, time_limit=1.0)
    assert calls == [False, False, True]
    assert result, result
    assert result.stats["stopped"] == "time limit"
    assert_solution(result.paths, starts, goals, grid_step(np.isfinite(grid.cost)))
    cheaper = min(result.stats["scatter_first_costs"])
    assert result.stats["lacam_sum_of_costs"] == cheaper
    assert result.stats["time_to_first_s"] is not None
    assert result.sum_of_costs <= cheaper
    monkeypatch.setattr(_lacam, "_search", lambda *args: real(*args[:3], 0.0, *args[4:]))
    assert not lacam(problem, refine=True, time_limit=1.0)  # nothing found at all: none

def test_spread_paths_lower_the_first_solution_on_a_crowded_map(mapf_benchmark) -> None:
    grid, starts, goals = read_mapf_scen(
        mapf_benchmark / "scen-random" / "random-32-32-20-random-1.scen", 150
    )
    problem = Problem(grid, starts, goals)
    walkable = np.isfinite(grid.cost)
    plain = [lacam(problem, seed=seed).stats["first_sum_of_loss"] for seed in range(3)]
    spread = [lacam(problem, scatter=True, seed=seed) for seed in range(3)]
    # the checker is slow in Python on many agents: one solution through it
    assert_solution(spread[0].paths, starts, goals, grid_step(walkable))
    assert sorted(r.stats["first_sum_of_loss"] for r in spread)[1] < sorted(plain)[1]


def test_refinement_stops_at_its_deadline() -> None:
    grid = Grid.from_walkable(np.ones((12, 12), dtype=bool), diagonal="never")
    rng = np.random.default_rng(3)
    cells = [(int(r), int(c)) for r, c in np.argwhere(np.ones((12, 12), dtype=bool))]
    picks = rng.permutation(len(cells))
    starts = [cells[k] for k in picks[:60]]
    goals = [cells[k] for k in picks[60:120]]
    problem = Problem(grid, starts, goals)
    first = lacam(problem)
    configs = _configs(problem, first.paths)
    dist = np.ascontiguousarray(problem.distance_table())
    began = time.perf_counter()
    out, _ = mapf_lns.refine(
        problem.indptr, problem.indices, problem.goals, dist, configs, began + 0.2, 0,
        False, 0, 1 << 40,
    )
    assert time.perf_counter() - began < 1.5
    assert _sum_of_costs(out, problem.goals) <= _sum_of_costs(configs, problem.goals)
