"""The pursuer: it catches slower targets, its path is optimal every tick (checked by
a fresh A* and by the scipy oracle), range, budget, no path, graphs, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _grids import oracle, steps_cost

from pathcraft import Graph, Grid
from pathcraft.agents import GridSpace, Pursuer

OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def random_map(seed: int, side: int = 24, walls: float = 0.25, cheap: bool = False) -> Grid:
    rng = np.random.default_rng(seed)
    cost = rng.uniform(0.5, 3.0, (side, side)) if cheap else np.ones((side, side))
    cost[rng.random((side, side)) < walls] = np.inf
    # keep the largest connected region open and wall the rest
    grid = Grid(np.where(np.isfinite(cost), cost, np.inf), diagonal="no_corner_cut")
    free = np.argwhere(np.isfinite(cost))
    best = None
    for cell in free[rng.permutation(len(free))[:5]]:
        field = grid.distance_field(tuple(int(x) for x in cell))
        if best is None or np.isfinite(field).sum() > np.isfinite(best).sum():
            best = field
    assert best is not None
    return Grid(np.where(np.isfinite(best), cost, np.inf), diagonal="no_corner_cut")


def free_cells(grid: Grid) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]


def walk(grid: Grid, cell: tuple[int, int], rng: np.random.Generator, away_from=None):
    """One 4-connected step of the target: random, or away from a point."""
    options = [(cell[0] + dr, cell[1] + dc) for dr, dc in OFFSETS]
    rows, cols = grid.shape
    options = [o for o in options if 0 <= o[0] < rows and 0 <= o[1] < cols and grid.walkable[o]]
    if not options:
        return cell
    if away_from is not None:
        field = away_from
        return max(options, key=lambda o: (field[o], rng.random()))
    return options[int(rng.integers(len(options)))]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("flee", [False, True])
def test_the_pursuer_catches_a_slower_target_with_an_optimal_path_every_tick(
    seed: int, flee: bool
) -> None:
    grid = random_map(seed, cheap=seed % 2 == 1)
    cells = free_cells(grid)
    rng = np.random.default_rng(seed)
    start, target = (cells[i] for i in rng.choice(len(cells), 2, replace=False))
    enemy = Pursuer(grid, start, speed=1.0 * grid.cost[grid.walkable].max() * 1.5)
    # the target moves one cell every other tick: slower than the pursuer
    checked = 0
    for tick in range(2000):
        if tick % 2 == 0:
            away = grid.distance_field(enemy.node) if flee else None
            target = walk(grid, target, rng, away)
        status = enemy.step(target, dt=1.0)
        if tick % 7 == 0 and status == "chasing":
            fresh = grid.astar(enemy.plan_start, target)
            path = np.array(enemy.path)
            assert tuple(path[0]) == enemy.plan_start and tuple(path[-1]) == target
            assert steps_cost(grid.cost, path) == pytest.approx(fresh.cost, rel=1e-9)
            want = oracle(np.array(grid.cost), "no_corner_cut", [enemy.plan_start])[target]
            assert fresh.cost == pytest.approx(want, rel=1e-9)
            checked += 1
        if status == "caught":
            break
    assert status == "caught", (seed, flee, tick)
    assert enemy.node == target
    assert checked >= 1 or tick < 7


def test_a_target_on_the_path_needs_no_new_search() -> None:
    grid = Grid.from_ascii("." * 20, diagonal="never")
    enemy = Pursuer(grid, (0, 0), speed=1.0)
    enemy.step((0, 19), dt=1.0)
    for col in range(18, 10, -1):  # the target walks toward the pursuer
        enemy.step((0, col), dt=1.0)
    assert enemy.plans == 1
    assert enemy.path[-1] == (0, 11)
    assert enemy.cost_to_target == pytest.approx(11 - 9)


def test_stop_range_stops_at_the_range_even_mid_cell() -> None:
    grid = Grid.from_ascii("." * 12, diagonal="never")
    enemy = Pursuer(grid, (0, 0), speed=4.0, stop_range=2.5)
    statuses = [enemy.step((0, 11), dt=1.0) for _ in range(4)]
    assert statuses == ["chasing", "chasing", "caught", "caught"]
    assert enemy.cost_to_target == pytest.approx(2.5)
    assert enemy.position == pytest.approx((9.0, 0.5))  # 8.5 cells from (0, 0)'s centre


def test_the_pursuer_moves_on_when_the_target_leaves_the_range() -> None:
    grid = Grid.from_ascii("." * 12, diagonal="never")
    enemy = Pursuer(grid, (0, 0), speed=3.0, stop_range=1.0)
    while enemy.step((0, 5), dt=1.0) != "caught":
        pass
    assert enemy.step((0, 11), dt=1.0) == "chasing"


def test_no_path_waits_and_recovers_when_the_target_comes_back() -> None:
    grid = Grid.from_ascii(
        """
        ...#...
        ...#...
        .......
        """,
        diagonal="never",
    )
    grid[2, 3] = np.inf  # the two rooms are apart
    enemy = Pursuer(grid, (0, 0), speed=1.0)
    assert enemy.step((0, 6), dt=1.0) == "unreachable"
    assert enemy.node == (0, 0) and math.isinf(enemy.cost_to_target)
    assert enemy.last_plan is not None and enemy.last_plan.reason == "unreachable"
    assert enemy.step((2, 2), dt=1.0) == "chasing"


def test_the_budget_makes_it_give_up_for_good() -> None:
    cost = np.ones((40, 40))
    cost[:39, 20] = np.inf  # a long wall: the search must go round it
    grid = Grid(cost)
    enemy = Pursuer(GridSpace(grid, algorithm="astar"), (0, 0), speed=1.0, budget=50)
    assert enemy.step((0, 39), dt=1.0) == "max_expansions"
    assert enemy.expanded == 50
    assert enemy.step((0, 1), dt=1.0) == "max_expansions"
    assert enemy.node == (0, 0)


def test_a_pursuer_partway_along_an_edge_replans_from_the_next_node() -> None:
    grid = Grid.from_ascii("." * 10, diagonal="never")
    enemy = Pursuer(grid, (0, 5), speed=0.5)
    enemy.step((0, 9), dt=1.0)
    assert enemy.node == (0, 5) and enemy.plan_start == (0, 6)
    enemy.step((0, 0), dt=1.0)  # the target jumps behind it
    assert enemy.node == (0, 6) and enemy.path[0] == (0, 6) and enemy.path[-1] == (0, 0)


def test_the_pursuer_runs_on_graphs_with_labels_and_coordinates() -> None:
    # a ring of 12 nodes with a chord; node i at angle i
    n = 12
    src = [*range(n), 0]
    dst = [*((i + 1) % n for i in range(n)), 6]
    coords = [(math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i in range(n)]
    weights = [1.0] * n + [2.0]
    labels = [f"n{i}" for i in range(n)]
    graph = Graph(n, src, dst, weights, directed=False, coords=coords, labels=labels)
    enemy = Pursuer(graph, "n0", speed=1.0)
    target = "n7"
    assert enemy.step(target, dt=1.0) == "chasing"
    assert enemy.path == ["n6", "n7"] and enemy.plan_start == "n6"
    assert enemy.position == pytest.approx((0.5 * coords[0][0] + 0.5 * coords[6][0], 0.0))
    for _ in range(3):
        status = enemy.step(target, dt=1.0)
    assert status == "caught" and enemy.node == "n7"


def test_bad_input_is_named() -> None:
    grid = Grid.from_ascii("..#")
    with pytest.raises(ValueError, match=r"start .* is a wall"):
        Pursuer(grid, (0, 2), speed=1.0)
    with pytest.raises(ValueError, match="speed must be a finite number > 0"):
        Pursuer(grid, (0, 0), speed=0.0)
    with pytest.raises(ValueError, match="stop_range must be"):
        Pursuer(grid, (0, 0), speed=1.0, stop_range=-1)
    with pytest.raises(TypeError, match="budget must be an integer"):
        Pursuer(grid, (0, 0), speed=1.0, budget=2.5)
    with pytest.raises(TypeError, match="world must be a pathcraft world or a Space"):
        Pursuer("map", (0, 0), speed=1.0)
    enemy = Pursuer(grid, (0, 0), speed=1.0)
    with pytest.raises(ValueError, match=r"target .* outside the grid"):
        enemy.step((5, 5), dt=1.0)
    with pytest.raises(ValueError, match="dt must be"):
        enemy.step((0, 1), dt=float("nan"))
    assert GridSpace(grid).key(np.array([0, 1]), "x") == (0, 1)


def test_grid_spaces_use_jump_point_search_where_it_applies() -> None:
    uniform = Grid(np.ones((30, 30)))
    uniform[:25, 15] = np.inf
    jps = GridSpace(uniform).find_path((0, 0), (0, 29))
    path = GridSpace(uniform).nodes(jps)
    plain = GridSpace(uniform, algorithm="astar").find_path((0, 0), (0, 29))
    assert jps.jump_points is not None and plain.jump_points is None
    assert jps.cost == pytest.approx(plain.cost) and jps.expanded < plain.expanded
    assert path[0] == (0, 0) and path[-1] == (0, 29) and len(path) == len(jps.path)
    varied = Grid(np.where(uniform.walkable, 1.0 + np.arange(30) % 2, np.inf))
    assert GridSpace(varied).find_path((0, 0), (0, 29)).jump_points is None
    with pytest.raises(ValueError, match="jps needs a grid of uniform cost"):
        GridSpace(varied, algorithm="jps").find_path((0, 0), (0, 29))
    with pytest.raises(ValueError, match="algorithm must be one of"):
        GridSpace(uniform, algorithm="fast")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- map edits


def test_a_wall_across_the_path_is_repaired_incrementally_and_never_entered() -> None:
    grid = Grid(np.ones((30, 30)), diagonal="no_corner_cut")
    hunter = Pursuer(grid, (15, 0), speed=1.0)
    target = (15, 29)
    assert hunter.step(target, dt=3.0) == "chasing"
    rng = np.random.default_rng(5)
    for tick in range(200):
        if tick % 4 == 0:  # a door closes on the path ahead, or a random cell toggles
            path = hunter.path
            if tick % 8 == 0 and len(path) > 4:
                r, c = path[3]
            else:
                r, c = (int(x) for x in rng.integers(0, 30, 2))
            if (r, c) not in (target, hunter.node, hunter.plan_start):
                grid[r, c] = np.inf if math.isfinite(grid[r, c]) else 1.0
        status = hunter.step(target, dt=0.5)
        assert math.isfinite(grid[hunter.node]), f"tick {tick}: walked into a wall"
        if status == "caught":
            break
        if status == "chasing":  # optimal for the current map, every tick
            start = hunter.plan_start
            want = oracle(grid.cost, grid.diagonal, [start])[target]
            assert steps_cost(grid.cost, np.array(hunter.path)) == pytest.approx(want)
    assert status == "caught"
    assert hunter.plans > 1


def test_repairs_cost_less_than_fresh_searches() -> None:
    grid = Grid(np.ones((80, 80)))
    hunter = Pursuer(grid, (40, 0), speed=1.0)
    target = (40, 79)
    hunter.step(target, dt=1.0)
    grid[0, 0] = 2.0  # a first edit: the replanner starts (a whole search)
    hunter.step(target, dt=1.0)
    before = hunter.expanded
    fresh = 0
    for _ in range(10):
        ahead = hunter.path[6]
        grid[ahead] = np.inf
        fresh += grid.astar(hunter.plan_start, target).expanded
        hunter.step(target, dt=1.0)
        assert math.isfinite(grid[hunter.node])
    assert hunter.expanded - before < fresh


def test_a_wall_on_the_pursuer_makes_it_wait_until_it_opens() -> None:
    grid = Grid(np.ones((5, 5)))
    hunter = Pursuer(grid, (0, 0), speed=1.0)
    hunter.step((4, 4), dt=0.0)
    grid[0, 0] = np.inf
    assert hunter.step((4, 4), dt=1.0) == "unreachable" and hunter.node == (0, 0)
    grid[0, 0] = 1.0
    assert hunter.step((4, 4), dt=1.0) == "chasing"


def test_graph_pursuer_follows_weight_edits() -> None:
    g = Graph(4, [0, 1, 0, 2], [1, 3, 2, 3], [1.0, 1.0, 2.0, 2.0], directed=False)
    hunter = Pursuer(g, 0, speed=0.5)
    hunter.step(3, dt=0.0)
    assert hunter.path == [0, 1, 3]
    g.set_weight(1, 3, np.inf)
    hunter.step(3, dt=0.0)
    assert hunter.path == [0, 2, 3] and hunter.cost_to_target == 4.0

@pytest.mark.parametrize("algorithm", ["astar", "jps"])
@pytest.mark.parametrize("frame", [1, 7, 40])
def test_a_frame_budget_steps_the_plan_and_reaches_the_same_path(
    algorithm: str, frame: int
) -> None:
    cost = np.ones((40, 40))
    cost[:39, 20] = np.inf  # a long wall: a plan of many expansions
    grid = Grid(cost)
    space = GridSpace(grid, algorithm=algorithm)
    blocking = Pursuer(space, (0, 0), speed=1.0)
    sliced = Pursuer(space, (0, 0), speed=1.0, frame_budget=frame)
    assert blocking.step((0, 39), dt=0.0) == "chasing"
    frames = 0
    while sliced.plans == 0:
        before = sliced.expanded
        assert sliced.step((0, 39), dt=1.0) == "chasing"
        assert 0 < sliced.expanded - before <= frame  # never more than the frame's budget
        grid.smooth(sliced.path)  # legal steps only, meanwhile too
        frames += 1
    assert frames == -(-blocking.expanded // frame)
    assert sliced.expanded == blocking.expanded
    assert sliced.last_plan is not None and blocking.last_plan is not None
    assert np.array_equal(sliced.last_plan.path, blocking.last_plan.path)
    assert sliced.last_plan.cost == blocking.last_plan.cost
    # it walked meanwhile, legally: the search's best partial path (A*), or greedy
    # glimpses toward the target (a search that tells none)
    assert frames < 3 or sliced.path[0] != (0, 0) or sliced.node != (0, 0)
    steps = np.diff(np.array(sliced.path), axis=0)
    assert (np.abs(steps).max(axis=1) == 1).all()
    assert all(grid.walkable[cell] for cell in sliced.path)
    for _ in range(200):
        if sliced.step((0, 39), dt=1.0) == "caught":
            break
    assert sliced.node == (0, 39)


def test_a_frame_budget_finishes_its_plan_when_the_target_moves_and_keeps_the_budget() -> None:
    grid = Grid.from_ascii("." * 30, diagonal="never")
    enemy = Pursuer(grid, (0, 0), speed=1.0, frame_budget=3)
    assert enemy.step((0, 29), dt=1.0) == "chasing" and enemy.expanded == 3
    assert enemy.step((0, 10), dt=1.0) == "chasing"  # the plan in flight goes on
    while enemy.plans == 0:
        enemy.step((0, 10), dt=1.0)
    assert enemy.plans == 1 and enemy.last_plan is not None
    assert enemy.last_plan.path[-1].tolist() == [0, 29]  # finished toward where it aimed
    assert enemy.path[-1] == (0, 10) and not enemy.planning  # then cut: (0, 10) is on it
    stingy = Pursuer(grid, (0, 0), speed=1.0, frame_budget=4, budget=10)
    statuses = [stingy.step((0, 29), dt=0.0) for _ in range(4)]
    assert statuses[-1] == "max_expansions" and stingy.expanded == 10
    with pytest.raises(ValueError, match="frame_budget must be"):
        Pursuer(grid, (0, 0), speed=1.0, frame_budget=0)


def test_a_frame_budget_plan_in_progress_is_dropped_when_the_map_changes() -> None:
    cost = np.ones((30, 30))
    cost[:29, 15] = np.inf  # a long wall: a plan of many expansions
    grid = Grid(cost)
    space = GridSpace(grid, algorithm="astar")  # many expansions: several frames
    hunter = Pursuer(space, (0, 0), speed=1.0, frame_budget=5)
    target = (0, 29)
    assert hunter.step(target, dt=0.0) == "chasing" and hunter.plans == 0
    grid[29, 15] = np.inf  # the only gap closes while the plan is under way
    assert hunter.step(target, dt=0.0) == "chasing"  # a fresh plan on the new map
    while hunter.status == "chasing" and hunter.plans == 0:
        hunter.step(target, dt=0.0)
    assert hunter.status == "unreachable" and hunter.node == (0, 0)
    grid[29, 15] = 1.0  # it opens again: a new plan, the optimal path of this map
    while hunter.plans < 2:
        assert hunter.step(target, dt=0.0) in ("chasing", "unreachable")
    want = oracle(grid.cost, grid.diagonal, [hunter.plan_start])[target]
    assert steps_cost(grid.cost, np.array(hunter.path)) == pytest.approx(want)
