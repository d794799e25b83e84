"""CBS and ECBS against a joint-state A* written here (no part of the solvers): the same
optimal sum of costs, "no solution" only where the joint search proves none, every
solution checked by the tests' own conflict checker, ECBS within ``w``."""

from __future__ import annotations

import heapq
import itertools
import math
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path

import numpy as np
import pytest
from _mapf import assert_solution, grid_step, random_instance
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.io import read_mapf_scen
from pathcraft.mapf import MAPFResult, Problem, cbs, ecbs, lower_bound, solve

Cell = tuple[int, int]
Instance = tuple[np.ndarray, list[Cell], list[Cell]]


# ------------------------------------------------------------------ the joint-state oracle


def _moves(walkable: np.ndarray, rule: str) -> Callable[[Cell], list[Cell]]:
    """Where one step from a cell leads (the cell itself first: waiting)."""
    ok = grid_step(walkable, rule)
    rows, cols = walkable.shape

    def moves(cell: Cell) -> list[Cell]:
        r, c = cell
        out = [cell]
        for dr, dc in itertools.product((-1, 0, 1), repeat=2):
            nxt = (r + dr, c + dc)
            if (dr or dc) and 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and ok(cell, nxt):
                out.append(nxt)
        return out

    return moves


def _bfs(moves: Callable[[Cell], list[Cell]], goal: Cell) -> dict[Cell, int]:
    """Steps to ``goal`` from every cell that reaches it (moves are symmetric)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        cell = queue.popleft()
        for nxt in moves(cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def joint_optimum(
    walkable: np.ndarray,
    starts: Sequence[Cell],
    goals: Sequence[Cell],
    rule: str = "never",
    following: bool = False,
) -> int | None:
    """The least sum of costs by A* over joint states, or None when none exists.

    A joint state is every agent's cell and whether it has *parked*: an agent on its
    goal may park (it then waits there for ever, at no cost); every step of an agent
    not parked costs 1. An agent's cost is thus the time it parks, the last time it
    reaches its goal. Joint moves forbid two agents in one cell and two agents swapping
    cells (and, with ``following``, entering a cell another agent has just left).
    """
    moves = _moves(walkable, rule)
    k = len(starts)
    dists = [_bfs(moves, g) for g in goals]
    if any(s not in d for s, d in zip(starts, dists, strict=True)):
        return None

    def h(cells: tuple[Cell, ...], parked: tuple[bool, ...]) -> int:
        return sum(0 if parked[i] else dists[i][cells[i]] for i in range(k))

    start = (tuple(starts), (False,) * k)
    best = {start: 0}
    tick = itertools.count()
    heap = [(h(*start), next(tick), 0, start)]
    while heap:
        _, _, g, state = heapq.heappop(heap)
        if best.get(state, math.inf) < g:
            continue
        cells, parked = state
        if all(parked):
            return g
        options = []
        for i in range(k):
            if parked[i]:
                options.append([(cells[i], True)])
                continue
            here = [(nxt, False) for nxt in moves(cells[i]) if nxt in dists[i]]
            if cells[i] == goals[i]:
                here.append((cells[i], True))
            options.append(here)
        for choice in itertools.product(*options):
            new = tuple(c for c, _ in choice)
            if len(set(new)) < k:
                continue
            if any(
                new[i] == cells[j] and new[j] == cells[i] and new[i] != cells[i]
                for i in range(k) for j in range(i + 1, k)
            ):
                continue
            if following and any(
                new[i] == cells[j] and new[i] != cells[i]
                for i in range(k) for j in range(k) if i != j
            ):
                continue
            nparked = tuple(p for _, p in choice)
            ng = g + sum(1 for i in range(k) if not parked[i] and not nparked[i])
            nstate = (new, nparked)
            if ng < best.get(nstate, math.inf):
                best[nstate] = ng
                heapq.heappush(heap, (ng + h(new, nparked), next(tick), ng, nstate))
    return None


# ---------------------------------------------------------------------------- helpers


def _check(result: MAPFResult, walkable: np.ndarray, starts: Sequence[Hashable],
           goals: Sequence[Hashable], rule: str = "never", following: bool = False) -> None:
    assert result, result
    assert_solution(result.paths, starts, goals, grid_step(walkable, rule), following=following)
    costs = [len(p) - 1 for p in result.paths]
    assert result.sum_of_costs == sum(costs)
    assert result.makespan == max(costs)


@st.composite
def instances(draw: st.DrawFn, max_agents: int = 4) -> Instance:
    agents = draw(st.integers(2, max_agents))
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 5 if agents <= 3 else 4))
    walls = draw(st.sampled_from([0.0, 0.15, 0.3]))
    seed = draw(st.integers(0, 2**32 - 1))
    walkable, starts, goals = random_instance(np.random.default_rng(seed), (rows, cols), walls,
                                              agents)
    # At most one agent per two free cells: denser puzzles (4 agents in 5 cells) take
    # CBS tens of thousands of nodes, which belongs in a benchmark, not here.
    assume(int(walkable.sum()) >= 2 * agents)
    return walkable, starts, goals


# ------------------------------------------------------------------------------ oracle


#: CBS's tree grows exponentially with the gap between the optimum and the sum of the
#: agents' shortest paths: up to this gap every instance must be solved; beyond it (dense
#: puzzles, a gap of 21 on 4 agents in 10 cells) it may stop at its node limit instead.
SOLVED_GAP = 6


def _against_the_oracle(solver: Callable[..., MAPFResult], case: Instance, w: float = 1.0,
                        rule: str = "never", following: bool = False,
                        bypass: bool = False) -> None:
    walkable, starts, goals = case
    grid = Grid.from_walkable(walkable, diagonal=rule)
    problem = Problem(grid, starts, goals, following=following)
    optimum = joint_optimum(walkable, starts, goals, rule=rule, following=following)
    options: dict[str, float | bool] = {"w": w, "bypass": bypass} if solver is ecbs else {}
    if optimum is None:
        result = solver(problem, node_limit=200, **options)
        assert not result
        assert result.status in ("no solution", "node limit", "time limit")
        return
    gap = optimum - lower_bound(problem)
    result = solver(problem, node_limit=None if gap <= SOLVED_GAP else 400, time_limit=60.0,
                    **options)
    if gap > SOLVED_GAP and not result:
        assert result.status in ("node limit", "time limit"), result
        return
    _check(result, walkable, starts, goals, rule, following)
    assert optimum <= result.sum_of_costs <= w * optimum + 1e-9
    if solver is cbs:
        assert result.optimal
    if result.optimal:
        assert result.sum_of_costs == optimum
    if solver is ecbs:
        assert result.stats["lower_bound"] <= optimum


@settings(max_examples=60, deadline=None)
@given(instances())
def test_cbs_sum_of_costs_is_the_joint_optimum(case: Instance) -> None:
    _against_the_oracle(cbs, case)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(instances())
def test_cbs_sum_of_costs_is_the_joint_optimum_more(case: Instance) -> None:
    _against_the_oracle(cbs, case)


@settings(max_examples=40, deadline=None)
@given(instances(max_agents=3), st.sampled_from([1.0, 1.2, 1.5, 2.0]), st.booleans())
def test_ecbs_within_w_of_the_optimum(case: Instance, w: float, bypass: bool) -> None:
    _against_the_oracle(ecbs, case, w=w, bypass=bypass)


@settings(max_examples=25, deadline=None)
@given(instances(max_agents=3))
def test_cbs_on_eight_connected_grids(case: Instance) -> None:
    _against_the_oracle(cbs, case, rule="no_corner_cut")


@settings(max_examples=15, deadline=None)
@given(instances(max_agents=3), st.sampled_from([1.0, 1.5]))
def test_following_conflicts(case: Instance, w: float) -> None:
    _against_the_oracle(cbs, case, following=True)
    _against_the_oracle(ecbs, case, w=w, following=True)


@pytest.mark.parametrize("options", [
    {"prioritize": False, "bypass": False, "heuristic": False},
    {"prioritize": True, "bypass": False, "heuristic": False},
    {"prioritize": False, "bypass": True, "heuristic": False},
    {"prioritize": False, "bypass": False, "heuristic": True},
])
def test_every_improvement_alone_keeps_the_optimum(options: dict[str, bool]) -> None:
    rng = np.random.default_rng(7)
    for _ in range(15):
        walkable, starts, goals = random_instance(rng, (4, 4), 0.15, 3)
        optimum = joint_optimum(walkable, starts, goals)
        if optimum is None:
            continue
        problem = Problem(Grid.from_walkable(walkable, diagonal="never"), starts, goals)
        result = cbs(problem, time_limit=20.0, **options)
        _check(result, walkable, starts, goals)
        assert result.sum_of_costs == optimum


# ------------------------------------------------------------------------ known cases


def test_a_corridor_with_a_pocket() -> None:
    grid = Grid.from_ascii("....\n#.##", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)])
    result = cbs(problem)
    assert result.sum_of_costs == 8 and result.optimal and result.solver == "cbs"
    assert result.stats["expansions"] >= 1
    assert solve(problem, solver="cbs").sum_of_costs == 8
    assert solve(problem, solver="ecbs", w=1.5).sum_of_costs <= 12


def test_an_unreachable_goal_is_no_solution() -> None:
    grid = Grid.from_ascii(".#.\n.#.", diagonal="never")
    problem = Problem(grid, [(0, 0), (1, 2)], [(1, 0), (0, 0)])
    for solver in (cbs, ecbs):
        result = solver(problem)
        assert not result and result.status == "no solution"
        assert "agent 1" in result.reason and result.solver == solver.__name__


def test_a_proven_dead_end_is_no_solution() -> None:
    # Agent 1 must wait where agent 0's only way passes: every branch is infeasible
    # once agent 0 may not enter its goal through the single cell.
    grid = Grid.from_ascii("..", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 1)], [(0, 1), (0, 0)])
    assert joint_optimum(np.ones((1, 2), bool), [(0, 0), (0, 1)], [(0, 1), (0, 0)]) is None
    result = cbs(problem, node_limit=200)
    assert not result and result.status in ("no solution", "node limit")


def test_limits_are_reported() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 2)], [(0, 2), (0, 0)])
    result = cbs(problem, node_limit=20)
    assert not result and result.status == "node limit" and "20" in result.reason
    result = ecbs(problem, time_limit=0.05)
    assert not result and result.status == "time limit"


def test_agents_already_home_cost_nothing() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 2)], [(0, 0), (0, 2)])
    for result in (cbs(problem), cbs(problem, node_limit=0), ecbs(problem, node_limit=0)):
        assert result.sum_of_costs == 0 and result.paths == [[(0, 0)], [(0, 2)]]
        assert result.optimal


def test_bad_input() -> None:
    grid = Grid.from_ascii("...", diagonal="never")
    problem = Problem(grid, [(0, 0)], [(0, 2)])
    with pytest.raises(TypeError, match="Problem"):
        cbs(grid)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="w must be"):
        ecbs(problem, w=0.9)
    with pytest.raises(ValueError, match="w must be"):
        ecbs(problem, w=float("nan"))
    with pytest.raises(ValueError, match="node_limit"):
        cbs(problem, node_limit=-1)
    with pytest.raises(TypeError, match="node_limit"):
        cbs(problem, node_limit=2.5)
    with pytest.raises(TypeError, match="bypass"):
        cbs(problem, bypass="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="time_limit"):
        cbs(problem, time_limit=-1)


def test_the_problem_is_not_modified() -> None:
    grid = Grid.from_ascii("....\n#.##", diagonal="never")
    problem = Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)])
    starts, goals = problem.starts.copy(), problem.goals.copy()
    cbs(problem)
    ecbs(problem, w=1.3)
    assert np.array_equal(problem.starts, starts) and np.array_equal(problem.goals, goals)


@pytest.mark.parametrize("name", ["random-32-32-20", "room-32-32-4"])
def test_a_benchmark_instance(mapf_benchmark: Path, name: str) -> None:
    grid, starts, goals = read_mapf_scen(mapf_benchmark / "scen-random" / f"{name}-random-1.scen",
                                         k=12)
    problem = Problem(grid, starts, goals)
    walkable = np.isfinite(grid.cost)
    exact = cbs(problem, time_limit=60.0)
    _check(exact, walkable, starts, goals)
    assert exact.optimal and exact.sum_of_costs >= exact.lower_bound
    bounded = ecbs(problem, w=1.1, time_limit=60.0)
    _check(bounded, walkable, starts, goals)
    assert exact.sum_of_costs <= bounded.sum_of_costs <= 1.1 * exact.sum_of_costs + 1e-9
