"""A reservation table the units of a game loop share (mapf.Reservations with bookings,
Pursuer, PathFollower and PathRequestQueue with ``reservations=``), checked by a conflict checker
written here: the moves it accepts come from the grid's own cells and corner rule (or
the world's ``neighbors``), not from the table."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pytest
from _mapf import assert_solution, grid_step
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from pathcraft import CapabilityError, Graph, Grid, Level, NavMesh, VoxelGrid, WaypointGraph
from pathcraft.agents import PathFollower, PathRequestQueue, Pursuer
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid
from pathcraft.mapf import Reservations

Moves = Callable[[Hashable], set[Hashable]]
Step = Callable[[Any, Any], bool]


def world_step(world: Any) -> Step:
    """Legality of one move of a world, from its own ``neighbors`` (finite costs)."""
    return lambda a, b: any(p == b and cost < np.inf for p, cost in world.neighbors(a))


def check_trails(trails: Sequence[Sequence[Hashable]], step_ok: Step) -> None:
    """Every unit's place at every time step (tests/_mapf.py's independent checker):
    legal moves or waits, never two units in one place at one step, never two
    swapping places in one step."""
    assert len({len(t) for t in trails}) == 1
    ends = [t[-1] for t in trails]
    assert_solution(trails, [t[0] for t in trails], ends, step_ok)


def grid_moves(walkable: np.ndarray, diagonal: str) -> Moves:
    """The one-step moves of a grid by the same oracle, for the distances alone."""
    ok = grid_step(walkable, diagonal)
    return lambda a: {
        (a[0] + dr, a[1] + dc)  # type: ignore[index]
        for dr in (-1, 0, 1) for dc in (-1, 0, 1)
        if (dr or dc) and ok(a, (a[0] + dr, a[1] + dc))  # type: ignore[index]
    }


def steps_apart(walkable: np.ndarray, moves: Moves, start: Hashable, goal: Hashable) -> float:
    """Steps from start to goal alone (scipy on the graph of the moves)."""
    cells = [tuple(c) for c in np.argwhere(walkable).tolist()]
    index = {c: i for i, c in enumerate(cells)}
    rows, cols = [], []
    for c in cells:
        for d in moves(c):
            rows.append(index[c])
            cols.append(index[d])
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(cells),) * 2)
    return float(shortest_path(graph, unweighted=True, indices=index[start])[index[goal]])


@st.composite
def instances(draw: Any) -> tuple[np.ndarray, str, list[tuple[int, int]], list[tuple[int, int]]]:
    rows, cols = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    walls = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    walkable = ~np.array(walls).reshape(rows, cols) | (np.random.default_rng(0).random(
        (rows, cols)) < 0.6)  # fmt: skip
    cells = [tuple(c) for c in np.argwhere(walkable).tolist()]
    k = draw(st.integers(1, min(6, len(cells) // 2)))
    starts = draw(st.permutations(cells))[:k]
    goals = draw(st.permutations(cells))[:k]
    diagonal = draw(st.sampled_from(["never", "no_corner_cut"]))
    return walkable, diagonal, starts, goals  # type: ignore[return-value]


def _grid(walkable: np.ndarray, diagonal: str) -> Grid:
    return Grid.from_walkable(walkable.tolist(), diagonal=diagonal)


def _run_pursuers(world: Any, table: Reservations, starts: list[Any], goals: list[Any],
                  steps: int) -> tuple[list[Pursuer], list[list[Hashable]]]:  # fmt: skip
    units = [Pursuer(world, s, speed=1.0, reservations=table) for s in starts]
    trails: list[list[Hashable]] = [[u.node] for u in units]
    for _ in range(steps):
        for unit, goal, trail in zip(units, goals, trails, strict=True):
            unit.step(goal, dt=1.0)
            trail.append(unit.node)
        table.tick()
    return units, trails


@settings(max_examples=60, deadline=None)
@given(instances(), st.integers(2, 8))
def test_pursuers_sharing_a_table_never_collide_and_arrive_or_wait(
    case: Any, window: int
) -> None:
    walkable, diagonal, starts, goals = case
    grid = _grid(walkable, diagonal)
    moves = grid_moves(walkable, diagonal)
    table = Reservations(grid, window=window)
    units, trails = _run_pursuers(grid, table, starts, goals, 4 * walkable.size)
    check_trails(trails, grid_step(walkable, diagonal))
    for unit, start, goal in zip(units, starts, goals, strict=True):
        alone = steps_apart(walkable, moves, start, goal)
        if not np.isfinite(alone):
            assert unit.status == "unreachable"
        else:  # arrived, or told it waits (another unit's booking is in its way)
            assert unit.status == "caught" or unit.waiting, (unit.status, unit.node, goal)
            assert unit.node == goal or unit.waiting


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**16))
def test_units_crossing_an_open_room_all_arrive(k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells = [(r, c) for r in range(6) for c in range(6)]
    left = [cells[i] for i in rng.permutation(len(cells))[:k]]
    right = [cells[i] for i in rng.permutation(len(cells))[:k]]
    grid = Grid.from_walkable(np.ones((6, 6), dtype=bool).tolist(), diagonal="never")
    table = Reservations(grid, window=6)
    units, trails = _run_pursuers(grid, table, left, right, 80)
    check_trails(trails, grid_step(np.ones((6, 6), dtype=bool), "never"))
    # with nobody's goal in a way that cannot be walked around, they all get there
    assert [u.node for u in units] == right or any(u.waiting for u in units)


def test_a_unit_waits_for_another_in_a_door_and_both_arrive() -> None:
    grid = Grid.from_ascii("...#...\n.......\n...#...", diagonal="never")
    table = Reservations(grid, window=8)
    starts, goals = [(1, 0), (1, 6)], [(1, 6), (1, 0)]
    units, trails = _run_pursuers(grid, table, starts, goals, 30)
    check_trails(trails, grid_step(grid.walkable, "never"))
    assert [u.node for u in units] == goals
    assert all(u.status == "caught" and u.cost_to_target == 0.0 for u in units)
    assert max(len(set(t)) for t in trails) >= 7


@settings(max_examples=30, deadline=None)
@given(instances(), st.integers(1, 30))
def test_a_request_queue_books_units_that_never_collide(case: Any, budget: int) -> None:
    walkable, diagonal, starts, goals = case
    grid = _grid(walkable, diagonal)
    table = Reservations(grid, window=6)
    queue = PathRequestQueue(budget=budget)
    here = list(starts)
    trails: list[list[Hashable]] = [[s] for s in starts]
    for key, start, goal in zip(range(len(starts)), starts, goals, strict=True):
        queue.request(key, grid, start, goal, reservations=table)
    for step in range(60):
        for key, result in queue.update().items():
            assert (not result) == (result.reason == "unreachable")
            if result:  # the booking starts where the unit is now
                assert tuple(result.path[0].tolist()) == here[key]
        for key in range(len(starts)):
            here[key] = table.where(key, table.now + 1)
            trails[key].append(here[key])
            if step % table.replan == 0 and key not in queue:
                queue.request(key, grid, here[key], goals[key], reservations=table)
        table.tick()
    check_trails(trails, grid_step(walkable, diagonal))


WORLDS = [
    pytest.param(lambda: HexGrid(np.ones((4, 5))), [(0, 0), (3, 4), (0, 4)],
                 [(3, 4), (0, 0), (3, 0)], id="hex"),
    pytest.param(lambda: MovesGrid(np.ones((5, 5)), [*KNIGHT, (0, 1), (1, 0), (0, -1), (-1, 0)]),
                 [(0, 0), (4, 4), (2, 2)], [(4, 4), (0, 0), (0, 4)], id="moves"),
    pytest.param(lambda: VoxelGrid(np.ones((2, 3, 3))), [(0, 0, 0), (1, 2, 2)],
                 [(1, 2, 2), (0, 0, 0)], id="voxel"),
    pytest.param(lambda: Level([np.ones((2, 4)), np.ones((2, 4))],
                               portals=[((0, 1, 3), (1, 1, 3), 1.0)]),
                 [(0, 0, 0), (1, 0, 0)], [(1, 0, 0), (0, 0, 0)], id="level"),
    pytest.param(lambda: Graph(5, [0, 1, 2, 3, 1], [1, 2, 3, 4, 3], directed=False),
                 [0, 4], [4, 0], id="graph"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "starts", "goals"), WORLDS)
def test_every_world_that_lists_its_places_books_units(
    make: Callable[[], Any], starts: list[Any], goals: list[Any]
) -> None:
    world = make()
    table = Reservations(world, window=6)
    units, trails = _run_pursuers(world, table, starts, goals, 40)
    check_trails(trails, world_step(world))
    assert [u.node for u in units] == goals


def test_worlds_of_points_refuse_the_table_by_name() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
    with pytest.raises(CapabilityError, match=r"^NavMesh does not provide places: "):
        Reservations(mesh)
    with pytest.raises(CapabilityError, match=r"^WaypointGraph does not provide places: "):
        Reservations(WaypointGraph([(0, 0), (1, 0)]))
    with pytest.raises(TypeError, match="world must be a world that lists its places"):
        Reservations("maze")


def test_bad_bookings_are_refused_before_anything_changes() -> None:
    grid = Grid.from_ascii("....\n....", diagonal="never")
    table = Reservations(grid, window=4)
    table.hold("a", (0, 0))
    with pytest.raises(ValueError, match="owner 'a' holds a booking already"):
        table.hold("a", (0, 1))
    with pytest.raises(ValueError, match=r"place \(0, 0\) is taken"):
        table.hold("b", (0, 0))
    with pytest.raises(KeyError, match="holds no booking"):
        table.book("b", (1, 1))
    with pytest.raises(ValueError, match="is not a place of the world"):
        table.book("a", (5, 5))
    assert table.where("a", 100) == (0, 0)
    with pytest.raises(ValueError, match="steps must be >= 0"):
        table.tick(-1)
    with pytest.raises(ValueError, match="window must be an int >= 1"):
        Reservations(grid, window=0)
    with pytest.raises(ValueError, match="replan must be an int from 1 to window"):
        Reservations(grid, window=4, replan=5)
    other = Grid.from_ascii("....\n....", diagonal="never")
    with pytest.raises(ValueError, match="a table over the world the agent moves in"):
        Pursuer(other, (1, 1), speed=1.0, reservations=table)
    with pytest.raises(ValueError, match="cannot be combined with frame_budget"):
        Pursuer(grid, (1, 1), speed=1.0, frame_budget=10, reservations=table)
    with pytest.raises(TypeError, match=r"reservations must be a pathcraft\.mapf\.Reservations"):
        Pursuer(grid, (1, 1), speed=1.0, reservations="table")
    queue = PathRequestQueue(budget=10)
    with pytest.raises(ValueError, match="the one other option is max_expansions"):
        queue.request("c", grid, (1, 1), (1, 3), reservations=table, algorithm="dijkstra")
    with pytest.raises(ValueError, match="a table over the world the request is on"):
        queue.request("c", other, (1, 1), (1, 3), reservations=table)
    assert "b" not in table and "c" not in table and "a" in table


def test_a_released_unit_frees_its_place_and_a_booking_replaces_the_last() -> None:
    grid = Grid.from_ascii(".....", diagonal="never")
    table = Reservations(grid, window=4)
    table.hold("a", (0, 2))
    assert not table.is_free((0, 2), 50)
    booking = table.book("a", (0, 4))
    assert booking.status == "planned" and booking.places == [(0, 2), (0, 3), (0, 4)]
    assert table.is_free((0, 2), 1) and not table.is_free((0, 3), 1)
    assert not table.is_free((0, 4), 99)
    table.tick(2)
    table.release("a")
    assert table.is_free((0, 4), 99) and "a" not in table
    table.hold("b", (0, 0))
    walled = Grid.from_ascii("..#..", diagonal="never")
    cut = Reservations(walled)
    cut.hold("c", (0, 0))
    assert cut.book("c", (0, 4)).status == "unreachable" and cut.where("c", 9) == (0, 0)


def test_a_pursuer_with_an_unreachable_target_waits_and_says_so() -> None:
    grid = Grid.from_ascii("..#..", diagonal="never")
    table = Reservations(grid)
    hunter = Pursuer(grid, (0, 0), speed=1.0, reservations=table)
    assert hunter.booking is None
    assert hunter.step((0, 4), dt=1.0) == "unreachable"
    assert hunter.node == (0, 0) and hunter.cost_to_target == np.inf
    assert hunter.booking.status == "unreachable"


def test_nothing_the_caller_passed_is_changed() -> None:
    grid = Grid.from_ascii("...\n...", diagonal="never")
    before = grid.cost.copy()
    path = [(0, 0), (0, 1)]
    table = Reservations(grid)
    table.reserve(path)
    assert path == [(0, 0), (0, 1)]
    np.testing.assert_array_equal(grid.cost, before)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16), st.integers(2, 6))
def test_releasing_a_booking_leaves_the_table_a_fresh_one_of_the_others_would_be(
    seed: int, k: int
) -> None:
    from pathcraft._core.sipp import Reservations as Table

    rng = np.random.default_rng(seed)
    n = 12
    # k walks that never share a node at one time; walk i ends on node i, held for
    # good (no other walk goes there), and passes through nodes k..n-1 before
    free = np.ones((n, 40), dtype=bool)
    walks = []
    for i in range(k):
        start = int(rng.integers(0, 5))
        nodes: list[int] = []
        for t in range(start, start + int(rng.integers(0, 7))):
            choices = k + np.flatnonzero(free[k:, t])
            if not choices.size:
                break
            nodes.append(int(rng.choice(choices)))
            free[nodes[-1], t] = False
        walks.append((np.array([*nodes, i], dtype=np.int32), start))
    gone = int(rng.integers(0, k))
    table, fresh = Table(n), Table(n)
    for i, (nodes, start) in enumerate(walks):
        table.reserve_path(nodes, start, -1, True)
        if i != gone:
            fresh.reserve_path(nodes, start, -1, True)
    table.release_path(walks[gone][0], walks[gone][1], True)
    for v in range(n):
        for t in range(45):
            assert table.blocked(v, t) == fresh.blocked(v, t), (v, t)
        for a in range(n):
            assert table.swap_blocked(v, a, 10) == fresh.swap_blocked(v, a, 10)
        assert table.free_from(v, 0) == fresh.free_from(v, 0)
    with pytest.raises(ValueError, match="not possible with following"):
        Table(n, True).release_path(walks[0][0], 0, True)


@settings(max_examples=25, deadline=None)
@given(instances())
def test_following_units_never_enter_a_place_another_leaves(case: Any) -> None:
    walkable, diagonal, starts, goals = case
    grid = _grid(walkable, diagonal)
    table = Reservations(grid, window=5, following=True)
    _, trails = _run_pursuers(grid, table, starts, goals, 3 * walkable.size)
    ends = [t[-1] for t in trails]
    assert_solution(trails, [t[0] for t in trails], ends, grid_step(walkable, diagonal),
                    following=True)  # fmt: skip


def test_a_table_refuses_to_plan_on_a_world_edited_since() -> None:
    grid = Grid.from_ascii("....", diagonal="never")
    table = Reservations(grid)
    table.hold("a", (0, 0))
    grid[0, 2] = np.inf
    with pytest.raises(RuntimeError, match="the world was edited after the table was built"):
        table.book("a", (0, 3))
    with pytest.raises(RuntimeError, match="edited"):
        table.plan((0, 0), (0, 1))
    with pytest.raises(RuntimeError, match="edited"):
        table.hold("b", (0, 3))
    assert "a" in table and table.where("a") == (0, 0)


# ---------------------------------------------------------------------- followers


def _cell(point: list[float]) -> tuple[int, int]:
    """The grid cell ``(row, col)`` under an ``(x, y)`` point, by hand."""
    return int(np.floor(point[1])), int(np.floor(point[0]))


def _run_mixed(grid: Grid, table: Reservations, starts: list[Any], goals: list[Any],
               followers: list[bool], steps: int) -> tuple[PathFollower, list[Pursuer],
                                                           list[list[Hashable]]]:  # fmt: skip
    """Units sharing ``table``: those marked in ``followers`` agents of one
    PathFollower (its paths: start to goal, a straight line: the booking is the way),
    the others Pursuers; every unit's cell after every step of the table."""
    mine = [i for i, f in enumerate(followers) if f]
    crowd = PathFollower.from_cells(
        grid, [[starts[i], goals[i]] for i in mine], reservations=table
    )
    hunters = {i: Pursuer(grid, starts[i], speed=1.0, reservations=table)
               for i, f in enumerate(followers) if not f}  # fmt: skip
    trails: list[list[Hashable]] = [[s] for s in starts]
    for _ in range(steps):
        crowd.step(0.5)
        for i, hunter in hunters.items():
            hunter.step(goals[i], dt=1.0)
        at = crowd.positions.tolist()
        for k, i in enumerate(mine):
            trails[i].append(_cell(at[k]))
        for i, hunter in hunters.items():
            trails[i].append(hunter.node)
        table.tick()
    return crowd, list(hunters.values()), trails


def test_followers_and_pursuers_share_a_table_through_a_narrow_door() -> None:
    grid = Grid.from_ascii(
        "....#....\n"
        "....#....\n"
        ".........\n"
        "....#....\n"
        "....#....",
        diagonal="never",
    )
    starts = [(0, 0), (2, 0), (4, 0), (1, 8), (3, 8), (0, 1)]
    goals = [(4, 8), (2, 8), (0, 8), (1, 0), (3, 0), (4, 7)]
    followers = [True, False, True, False, True, False]
    table = Reservations(grid, window=12)
    crowd, hunters, trails = _run_mixed(grid, table, starts, goals, followers, 80)
    check_trails(trails, grid_step(grid.walkable, "never"))
    assert [t[-1] for t in trails] == goals
    assert crowd.arrived.all() and not crowd.blocked.any() and not crowd.waiting.any()
    assert all(h.status == "caught" for h in hunters)
    # they took turns in the door: someone waited for someone
    assert any(len(t) - len(set(t)) > 1 for t in trails)
    # positions are the centres of the cells walked, (x, y)
    ends = [goals[i] for i in (0, 2, 4)]
    np.testing.assert_array_equal(crowd.positions, [[c + 0.5, r + 0.5] for r, c in ends])


@settings(max_examples=40, deadline=None)
@given(instances(), st.integers(2, 8), st.integers(0, 2**16))
def test_followers_and_pursuers_on_one_table_never_collide(
    case: Any, window: int, seed: int
) -> None:
    walkable, diagonal, starts, goals = case
    grid = _grid(walkable, diagonal)
    moves = grid_moves(walkable, diagonal)
    rng = np.random.default_rng(seed)
    followers = rng.random(len(starts)) < 0.5
    followers[0] = True
    table = Reservations(grid, window=window)
    crowd, _, trails = _run_mixed(grid, table, starts, goals, followers.tolist(),
                                  4 * walkable.size)  # fmt: skip
    check_trails(trails, grid_step(walkable, diagonal))
    mine = np.flatnonzero(followers).tolist()
    for k, i in enumerate(mine):
        alone = steps_apart(walkable, moves, starts[i], goals[i])
        if not np.isfinite(alone):
            assert crowd.blocked[k] and not crowd.arrived[k]
            assert trails[i][-1] == starts[i]
        else:  # arrived, or told it waits (another unit's booking is in its way)
            assert crowd.arrived[k] or crowd.waiting[k], (trails[i][-1], goals[i])
            assert crowd.arrived[k] == (trails[i][-1] == goals[i])


def test_a_follower_refuses_a_bad_table_as_a_pursuer_does() -> None:
    grid = Grid.from_ascii("....\n....", diagonal="never")
    other = Grid.from_ascii("....\n....", diagonal="never")
    table = Reservations(grid, window=4)
    table.hold("a", (0, 0))
    path = [[(1, 1), (1, 3)]]
    with pytest.raises(ValueError, match="a table over the world the agent moves in"):
        PathFollower.from_cells(other, path, reservations=table)
    with pytest.raises(TypeError, match=r"reservations must be a pathcraft\.mapf\.Reservations"):
        PathFollower.from_cells(grid, path, reservations="table")
    with pytest.raises(ValueError, match="needs the world the agents move in"):
        PathFollower([[(1.5, 1.5), (3.5, 1.5)]], reservations=table)
    with pytest.raises(ValueError, match="units of size 1 only"):
        PathFollower.from_cells(grid, [[(0, 2), (0, 2)]], sizes=2, reservations=table)
    # a start place taken (by "a", or by an agent before it): none is held
    with pytest.raises(ValueError, match=r"positions\[1\]: place \(0, 0\) is taken"):
        PathFollower.from_cells(grid, [[(1, 1), (1, 3)], [(0, 0), (0, 3)]],
                                reservations=table)  # fmt: skip
    with pytest.raises(ValueError, match=r"positions\[1\]: place \(1, 1\) is taken"):
        PathFollower.from_cells(grid, [[(1, 1), (1, 3)], [(1, 1), (0, 3)]],
                                reservations=table)  # fmt: skip
    assert table.is_free((1, 1), table.now) and table.is_free((1, 1), 50)
    assert not table.is_free((0, 0), 50)


def test_a_follower_in_a_world_without_places_is_refused_by_name() -> None:
    table = Reservations(Grid.from_ascii("..", diagonal="never"))
    mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
    with pytest.raises(CapabilityError, match=r"^NavMesh does not provide places: "):
        PathFollower([[(0.2, 0.2), (0.8, 0.8)]], grid=mesh, reservations=table)
    with pytest.raises(CapabilityError, match=r"^WaypointGraph does not provide places: "):
        PathFollower([[(0.0, 0.0), (1.0, 0.0)]], grid=WaypointGraph([(0, 0), (1, 0)]),
                     reservations=table)  # fmt: skip


def test_a_follower_with_an_unreachable_goal_is_blocked_and_waits() -> None:
    grid = Grid.from_ascii("..#..", diagonal="never")
    table = Reservations(grid)
    crowd = PathFollower.from_cells(grid, [[(0, 0), (0, 4)], [(0, 3), (0, 4)]],
                                    reservations=table)  # fmt: skip
    for _ in range(4):
        crowd.step(1.0)
        table.tick()
    assert crowd.blocked.tolist() == [True, False] and crowd.arrived.tolist() == [False, True]
    assert crowd.positions.tolist() == [[0.5, 0.5], [4.5, 0.5]]
    assert crowd.velocities.tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_followers_on_a_hex_grid_book_their_hexes() -> None:
    hexes = HexGrid(np.ones((4, 5)))
    table = Reservations(hexes, window=6)
    starts, goals = [(0, 0), (3, 4), (0, 4)], [(3, 4), (0, 0), (3, 0)]
    crowd = PathFollower.from_cells(hexes, [[s, g] for s, g in zip(starts, goals, strict=True)],
                                    reservations=table)  # fmt: skip
    space = hexes.agent_space()
    hex_at = {tuple(space.point(p)): p for p in hexes.places()}
    trails: list[list[Hashable]] = [[s] for s in starts]
    for _ in range(30):
        crowd.step(1.0)
        for trail, point in zip(trails, crowd.positions.tolist(), strict=True):
            trail.append(hex_at[tuple(point)])
        table.tick()
    check_trails(trails, world_step(hexes))
    assert [t[-1] for t in trails] == goals and crowd.arrived.all()
    moves = MovesGrid(np.ones((3, 3)), [(0, 1), (1, 0), (0, -1), (-1, 0)])
    with pytest.raises(CapabilityError, match=r"^MovesGrid does not provide agent_space: .*none"):
        PathFollower.from_cells(moves, [[(0, 0), (0, 1)]], reservations=Reservations(moves))
