"""A budgeted plan is walked while it is found: ``CompiledSearch.best_so_far`` (the
path a partial search stopped now would return) and the :class:`Pursuer` that walks it,
so a pursuer never stands still for lack of a path.

Oracles: the blocking search with ``partial=True`` and ``max_expansions`` set to what
the sliced one expanded (the definition of ``best_so_far``); the grid's own adjacency
and walkable cells for the pursuer's path."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import GridSpace, Pursuer
from pathcraft.hexgrid import HexGrid
from pathcraft.voxel import VoxelGrid


def _maze(seed: int, shape: tuple[int, int] = (30, 30)) -> Grid:
    rng = np.random.default_rng(seed)
    cost = np.where(rng.random(shape) < 0.25, np.inf, rng.integers(1, 4, shape).astype(float))
    cost[0, 0] = cost[-1, -1] = 1.0
    return Grid(cost)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [1, 4, 23, 150])
def test_best_so_far_is_the_partial_search_stopped_there(seed: int, n: int) -> None:
    grid = _maze(seed)
    goal = (29, 29)
    search = grid.start_search((0, 0), goal, algorithm="astar", partial=True)
    if search.step(n) != "in_progress":
        assert search.best_so_far() is None  # ended: read result
        return
    best = search.best_so_far()
    blocking = grid.find_path((0, 0), goal, algorithm="astar", partial=True, max_expansions=n)
    assert best is not None and not best and best.reason == "max_expansions"
    assert best.path.tolist() == blocking.path.tolist() and best.cost == blocking.cost
    assert best.expanded == search.expanded == n
    assert search.step() in ("found", "unreachable")  # stepping on is unaffected
    whole = grid.find_path((0, 0), goal, algorithm="astar", partial=True)
    assert search.result.path.tolist() == whole.path.tolist()


@pytest.mark.parametrize(
    "world, start, goal",
    [
        (HexGrid(np.ones((6, 9))), (0, 0), (5, 8)),
        (VoxelGrid(np.ones((4, 5, 6))), (0, 0, 0), (3, 4, 5)),
    ],
)
def test_best_so_far_on_the_other_cell_worlds(world: object, start: tuple, goal: tuple) -> None:
    search = world.start_search(start, goal, partial=True)  # type: ignore[attr-defined]
    assert search.step(5) == "in_progress"
    best = search.best_so_far()
    blocking = world.find_path(start, goal, partial=True, max_expansions=5)  # type: ignore[attr-defined]
    assert best is not None and best.path.tolist() == blocking.path.tolist()


def test_best_so_far_is_none_where_the_search_cannot_tell() -> None:
    grid = _maze(1)
    plain = grid.start_search((0, 0), (29, 29), algorithm="astar")
    plain.step(3)
    assert plain.best_so_far() is None  # not partial: the node is not tracked
    # a jump point search not asked partial=True does not tell either
    space = GridSpace(Grid(np.ones((30, 30))), algorithm="jps")
    jps = space.start_search((0, 0), (29, 29))
    jps.step(1)
    assert jps.best_so_far() is None
    fresh = grid.start_search((0, 0), (29, 29), algorithm="astar", partial=True)
    assert fresh.best_so_far() is None  # not stepped yet


def _legal(grid: Grid, path: list) -> bool:
    steps = np.abs(np.diff(np.array(path), axis=0))
    return bool((steps.max(axis=1) == 1).all()) and all(grid.walkable[c] for c in path)


def test_a_budgeted_pursuer_moves_from_its_first_frame() -> None:
    cost = np.ones((60, 60))
    cost[:59, 30] = np.inf  # a long wall: the plan takes hundreds of frames at 3 a frame
    grid = Grid(cost)
    enemy = Pursuer(GridSpace(grid, algorithm="astar"), (0, 0), speed=2.0, frame_budget=3)
    positions = []
    for _ in range(40):
        enemy.step((0, 59), dt=0.5)
        positions.append(enemy.position)
        assert _legal(grid, enemy.path)
    assert enemy.plans == 0  # still finding the plan ...
    # ... and walking toward the target meanwhile, from the first frame, up to the wall
    xs = [x for x, _ in positions]
    assert xs[0] > 0.5 and all(b >= a for a, b in itertools.pairwise(xs)) and xs[-1] >= 25.5
    while enemy.step((0, 59), dt=0.5) != "caught":
        assert _legal(grid, enemy.path)
    assert enemy.node == (0, 59) and enemy.plans >= 1


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    budget=st.integers(1, 30),
    moves=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24)), min_size=1, max_size=6),
)
def test_walking_meanwhile_keeps_the_path_legal_and_the_plans_coming(
    seed: int, budget: int, moves: list[tuple[int, int]]
) -> None:
    rng = np.random.default_rng(seed)
    cost = np.where(rng.random((25, 25)) < 0.2, np.inf, 1.0)
    cost[0, 0] = 1.0
    grid = Grid(cost)
    targets = [m for m in moves if grid.walkable[m] and m != (0, 0)] or [(24, 24)]
    cost[targets[0]] = 1.0
    grid = Grid(cost)
    first = grid.find_path((0, 0), targets[0], algorithm="astar")
    bound = -(-first.expanded // budget) + 1  # the first plan's documented bound, in frames
    enemy = Pursuer(GridSpace(grid, algorithm="astar"), (0, 0), speed=3.0, frame_budget=budget)
    for frame in range(bound + 40):
        enemy.step(targets[(frame // 7) % len(targets)], dt=0.2)
        assert _legal(grid, enemy.path)
        if frame + 1 == bound:
            assert enemy.plans >= 1  # delivered within the bound, the target moving


# ------------------------------------------------- searches that tell no partial path


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), goal=st.tuples(st.integers(0, 29), st.integers(0, 29)))
def test_toward_on_a_grid_is_a_legal_greedy_glimpse_closer_to_the_goal(
    seed: int, goal: tuple[int, int]
) -> None:
    grid = _maze(seed)
    space = GridSpace(grid)
    if not grid.walkable[goal]:
        return
    step = space.toward((0, 0), goal)
    blocking = grid.find_path((0, 0), goal, algorithm="greedy", max_expansions=16, partial=True)
    if step is None:  # no cell it reached is closer: the glimpse is the start alone
        assert len(blocking.path) <= 1
        return
    assert step.path.tolist() == blocking.path.tolist()
    grid.smooth(step.path)  # legal steps (the grid's own check raises otherwise)
    octile = lambda c: max(abs(c[0] - goal[0]), abs(c[1] - goal[1]))  # noqa: E731
    assert octile(step.path[-1]) <= octile((0, 0)) and step.path[-1].tolist() != [0, 0]


def test_a_budgeted_jps_pursuer_walks_toward_its_target_while_its_plan_is_found() -> None:
    rng = np.random.default_rng(3)
    cost = np.where(rng.random((60, 60)) < 0.2, np.inf, 1.0)
    cost[:, :3] = cost[-3:, :] = 1.0  # an open border: the goal is reachable
    grid = Grid(cost)
    start, goal = (0, 0), (59, 59)
    expansions = grid.find_path(start, goal, algorithm="jps").expanded
    assert expansions >= 10  # a plan of many frames at one jump point a frame
    enemy = Pursuer(GridSpace(grid, algorithm="jps"), start, speed=1.0, frame_budget=1)
    moved = False
    while enemy.plans == 0:
        enemy.step(goal, dt=1.0)
        grid.smooth(enemy.path)  # legal steps only (the grid's own check raises)
        moved |= enemy.node != start
    assert moved  # it walked toward its target while its plan was found
    for _ in range(500):
        if enemy.step(goal, dt=1.0) == "caught":
            break
        grid.smooth(enemy.path)  # the plan joined by walking back where the two part
    assert enemy.node == goal
