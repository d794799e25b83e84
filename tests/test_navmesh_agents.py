"""Agents on a navigation mesh: its agents' space (MeshSpace), a Pursuer chasing a
moving target through holes (blocking, with a frame budget, snapped), the request
queue, and the path corridor's edge cases. Positions are checked against the walkable
area with shapely, paths against find_path."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import box

from pathcraft import CapabilityError, NavMesh
from pathcraft.agents import PathRequestQueue, Pursuer, space_for
from pathcraft.navmesh import MeshSpace, PathCorridor, QueryFilter

TOL = 1e-9

#: A hall with a wall (a gap at the bottom) and two pillars: holes to go around.
HALL = box(0, 0, 30, 12).difference(
    shapely.union_all([box(8, 2, 10, 12), box(16, 3, 18, 6), box(16, 8, 18, 10)])
)


def _hall() -> NavMesh:
    return NavMesh.from_geometry(HALL)


def _loop(t: float) -> tuple[float, float]:
    """The target's walk: a loop behind the pillars, beyond the wall."""
    return 23.0 + 5.0 * math.cos(t), 6.5 + 5.0 * math.sin(t)


def _on(area: Any, p: Any) -> bool:
    return bool(area.buffer(TOL).covers(shapely.Point(p)))


# ---------------------------------------------------------------------- the space


def test_the_space_of_a_mesh_is_its_agent_space_and_its_steps_cost_what_find_path_says() -> None:
    mesh = _hall()
    space = space_for(mesh)
    assert isinstance(space, MeshSpace) and space.world is mesh and space_for(space) is space
    mesh.set_area_cost(mesh.locate([(12, 6), (5, 1)]), 2.5)
    for flt in (None, QueryFilter(area_costs={int(mesh.locate((3, 9))): 4.0})):
        space = mesh.agent_space(filter=flt)
        result = space.find_path((1, 10), (25, 10))
        nodes = space.nodes(result)
        assert nodes[0] == (1.0, 10.0) and nodes[-1] == (25.0, 10.0)
        assert space.step_costs(nodes).sum() == pytest.approx(result.cost, abs=1e-9)
        assert result.cost == pytest.approx(mesh.path_cost(result.path, filter=flt))
    lengths = mesh.agent_space(algorithm="funnel").step_costs([(0.5, 0.5), (3.5, 4.5)])
    assert lengths.tolist() == [5.0]  # inside a polygon of cost 1: the length


def test_the_space_checks_and_snaps_points() -> None:
    mesh = _hall()
    space = mesh.agent_space()
    assert space.key(np.array([1, 1])) == (1.0, 1.0)
    with pytest.raises(ValueError, match=r"^goal \(9.0, 6.0\) is off the mesh"):
        space.key((9, 6), "goal")  # inside the wall
    with pytest.raises(ValueError, match="not finite"):
        space.key((math.nan, 1.0))
    with pytest.raises(TypeError, match="mesh must be a pathcraft NavMesh"):
        MeshSpace("hall")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="algorithm must be one of"):
        mesh.agent_space(algorithm="theta")  # type: ignore[arg-type]
    snapped = space.snap((8.9, 6.0))  # nearest: the wall's left face
    assert snapped == pytest.approx((8.0, 6.0)) and _on(HALL, snapped)
    assert space.snap((3.0, 3.0)) == (3.0, 3.0)


def test_contains_and_slide_keep_points_on_the_mesh() -> None:
    mesh = _hall()
    space = mesh.agent_space()
    rng = np.random.default_rng(3)
    pts = mesh.random_points(200, seed=rng)
    assert space.contains(pts).all()
    probes = rng.uniform((-2, -2), (32, 14), size=(500, 2))
    inside = shapely.covers(HALL, shapely.points(probes))
    assert (space.contains(probes) == inside).all()
    delta = rng.uniform(-2, 2, size=pts.shape)
    moved, blocked = space.slide(pts, delta)
    assert all(_on(HALL, p) for p in moved)
    free = ~blocked
    np.testing.assert_allclose(moved[free], (pts + delta)[free], atol=TOL)
    assert not np.shares_memory(moved, pts)


# ---------------------------------------------------------------------- pursuers


@pytest.mark.parametrize("budget", [{}, {"frame_budget": 6}, {"time_budget_us": 50.0}])
def test_a_pursuer_catches_a_target_walking_round_the_holes_and_never_leaves_the_mesh(
    budget: dict[str, Any],
) -> None:
    mesh = _hall()
    enemy = Pursuer(mesh, (1.0, 11.0), speed=4.0, stop_range=0.5, **budget)
    dt = 1 / 30
    caught = None
    for frame in range(1500):
        status = enemy.step(_loop(frame * dt * 0.25), dt=dt)
        assert _on(HALL, enemy.position), (frame, enemy.position)
        if status == "caught":
            caught = frame
            break
    assert caught is not None, enemy.status
    gap = np.hypot(*(np.array(enemy.position) - _loop(caught * dt * 0.25)))
    assert gap <= 0.5 + 1e-6
    assert enemy.plans > 1  # it re-aimed as the target walked


def test_a_pursuer_re_aims_by_its_corridor_along_legal_paths() -> None:
    mesh = _hall()
    enemy = Pursuer(mesh, (1.0, 11.0), speed=2.0)
    walkable = HALL.buffer(TOL)
    worst, searched = 1.0, 0
    for frame in range(60):
        target = _loop(frame * 0.05)
        enemy.step(target, dt=0.1)
        assert enemy.last_plan is not None
        searched += enemy.last_plan.expanded > 0
        plan = np.array(enemy.path)
        assert plan[-1].tolist() == list(target)
        shape = shapely.LineString(plan) if len(plan) > 1 else shapely.Point(plan[0])
        assert walkable.covers(shape)
        best = mesh.find_path(enemy.plan_start, target, algorithm="optimal").cost
        left = float(np.hypot(*np.diff(plan, axis=0).T).sum())
        assert left >= best - 1e-9  # never shorter than the shortest path
        worst = max(worst, left / best)
    assert worst <= 1.2  # this walk's worst (1.14): searched again as the target drifts
    assert enemy.plans == 60 and 0 < searched < 20  # most plans re-aimed without a search
    still = Pursuer(mesh, (1.0, 11.0), speed=2.0)  # a target standing still: find_path's
    for _ in range(5):
        still.step((25.0, 10.0), dt=0.5)
    expected = mesh.find_path(still.plan_start, (25.0, 10.0))
    np.testing.assert_allclose(np.array(still.path), expected.path, atol=TOL)


def test_a_budgeted_pursuer_re_aims_by_its_corridor_without_searching() -> None:
    mesh = _hall()
    blocking = Pursuer(mesh, (1.0, 11.0), speed=2.0)
    budgeted = Pursuer(mesh, (1.0, 11.0), speed=2.0, frame_budget=50)
    walkable = HALL.buffer(TOL)
    free = 0
    for frame in range(60):
        target = _loop(frame * 0.05)
        before = budgeted.expanded
        budgeted.step(target, dt=0.1)
        blocking.step(target, dt=0.1)
        assert budgeted.expanded - before <= 50  # the frame's budget
        assert walkable.covers(shapely.Point(budgeted.position))
        plan = np.array(budgeted.path)
        shape = shapely.LineString(plan) if len(plan) > 1 else shapely.Point(plan[0])
        assert walkable.covers(shape)
        if budgeted.planning:
            continue
        assert plan[-1].tolist() == list(target)  # aimed at where the target is now
        assert budgeted.last_plan is not None
        free += budgeted.last_plan.expanded == 0
        best = mesh.find_path(budgeted.plan_start, target, algorithm="optimal").cost
        assert float(np.hypot(*np.diff(plan, axis=0).T).sum()) >= best - 1e-9
    assert free >= 40  # most plans kept the corridor, as without a budget
    assert budgeted.plans == blocking.plans == 60
    assert budgeted.expanded <= 2 * blocking.expanded


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), frame_budget=st.sampled_from([2, 5, 40]))
def test_budgeted_pursuers_keep_their_budget_move_every_frame_and_catch(
    seed: int, frame_budget: int
) -> None:
    mesh = _hall()
    rng = np.random.default_rng(seed)
    start, spot = (tuple(p) for p in mesh.random_points(2, seed=rng))
    enemy = Pursuer(mesh, start, speed=6.0, frame_budget=frame_budget, stop_range=0.25)
    walkable = HALL.buffer(TOL)
    target = np.array(spot)
    status = "chasing"
    for frame in range(400):
        if frame < 100:  # a jittering target, then one standing still
            target = np.array(mesh.nearest_point(target + rng.uniform(-0.3, 0.3, 2)))
        before, was = enemy.expanded, enemy.position
        status = enemy.step(tuple(target), dt=1 / 20)
        assert enemy.expanded - before <= frame_budget, frame
        assert walkable.covers(shapely.Point(enemy.position)), frame
        if status == "caught":
            break
        # it waits only while a sliced plan is found (the straight move meanwhile
        # stopped by a wall)
        assert enemy.position != was or enemy.planning, frame
    assert status == "caught"


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    frame_budget=st.sampled_from([None, 3, 10]),
    pattern=st.sampled_from(["alternating", "random", "jitter"]),
)
def test_a_pursuer_never_leaves_the_walkable_area_however_its_target_moves(
    seed: int, frame_budget: int | None, pattern: str
) -> None:
    mesh = _hall()
    rng = np.random.default_rng(seed)
    spots = mesh.random_points(3, seed=rng)
    enemy = Pursuer(mesh, tuple(spots[0]), speed=5.0, frame_budget=frame_budget, snap=True)
    walkable = HALL.buffer(TOL)
    target = spots[1]
    for frame in range(80):
        if pattern == "alternating":
            target = spots[1 + frame % 2]
        elif pattern == "random":
            target = rng.uniform((-1, -1), (31, 13))  # off the mesh too: snapped
        else:
            target = target + rng.uniform(-0.5, 0.5, 2)
        enemy.step(tuple(target), dt=1 / 20)
        assert walkable.covers(shapely.Point(enemy.position)), (frame, enemy.position)
        rest = np.array(enemy.path)
        shape = shapely.LineString(rest) if len(rest) > 1 else shapely.Point(rest[0])
        assert walkable.covers(shape)
    assert enemy.plans > 0


def test_a_pursuer_snaps_a_target_in_a_wall_onto_the_mesh() -> None:
    mesh = _hall()
    with pytest.raises(ValueError, match="off the mesh"):
        Pursuer(mesh, (1.0, 1.0), speed=1.0).step((9.0, 6.0), dt=0.1)
    enemy = Pursuer(mesh, (9.0, 6.0), speed=100.0, snap=True)  # a start in the wall too
    assert enemy.node == pytest.approx((8.0, 6.0))
    for _ in range(5):
        status = enemy.step((17.0, 4.5), dt=1.0)  # in a pillar: its nearest face
    assert status == "caught" and _on(HALL, enemy.position)
    assert enemy.node == pytest.approx(mesh.nearest_point((17.0, 4.5)).tolist())


def test_a_pursuer_goes_round_an_obstacle_carved_mid_chase() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    enemy = Pursuer(mesh, (1.0, 5.0), speed=2.0)
    enemy.step((19.0, 5.0), dt=1.0)
    assert enemy.last_plan is not None and len(enemy.last_plan.path) == 2  # in sight
    rock = box(8, 2, 12, 8)
    mesh.add_obstacle(rock)
    area = box(0, 0, 20, 10).difference(rock)
    for _ in range(30):
        status = enemy.step((19.0, 5.0), dt=1.0)
        assert _on(area, enemy.position)
        line = shapely.LineString(np.array(enemy.path)) if len(enemy.path) > 1 else None
        assert line is None or area.buffer(TOL).covers(line)
    assert status == "caught"


def test_an_unreachable_target_on_a_mesh_is_reported_and_the_pursuer_waits() -> None:
    mesh = NavMesh.from_geometry(shapely.union_all([box(0, 0, 4, 4), box(6, 0, 10, 4)]))
    enemy = Pursuer(mesh, (1.0, 1.0), speed=1.0)
    assert enemy.step((8.0, 2.0), dt=1.0) == "unreachable"
    assert enemy.position == (1.0, 1.0)
    assert enemy.step((3.0, 1.0), dt=1.0) == "chasing"


# ---------------------------------------------------------------------- the queue


def test_the_request_queue_serves_mesh_searches_however_often_the_goal_moves() -> None:
    mesh = _hall()
    queue = PathRequestQueue(budget=8)
    delivered = []
    for frame in range(300):
        queue.request("orc", mesh, (1.0, 11.0), _loop(frame * 0.02))
        queue.request("elf", mesh, (2.0, 1.0), (28.0, 1.0 + (frame % 7)))
        for key, result in queue.update().items():
            delivered.append((key, result))
    assert {key for key, _ in delivered} == {"orc", "elf"}
    assert sum(key == "orc" for key, _ in delivered) >= 10
    for _key, result in delivered:
        assert result
        start, goal = result.path[0], result.path[-1]
        expected = mesh.find_path(start, goal)
        np.testing.assert_allclose(result.path, expected.path, atol=TOL)


# ---------------------------------------------------------------------- the corridor


def test_a_corridor_to_an_unreachable_target_leads_to_the_nearest_reachable_point() -> None:
    mesh = NavMesh.from_geometry(shapely.union_all([box(0, 0, 4, 4), box(6, 0, 10, 4)]))
    corridor = PathCorridor(mesh, (1.0, 1.0), (8.0, 2.0))
    assert not corridor.found
    expected = mesh.find_path((1.0, 1.0), (8.0, 2.0), partial=True)
    np.testing.assert_allclose(corridor.corners, expected.path, atol=TOL)
    assert corridor.end.tolist() == [4.0, 2.0]
    corridor.move_target((3.0, 3.0))  # back in reach: searched again
    assert corridor.found and corridor.corners.tolist() == [[1.0, 1.0], [3.0, 3.0]]


def test_a_corridor_searches_again_after_the_mesh_changed() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    corridor = PathCorridor(mesh, (1.0, 5.0), (19.0, 5.0))
    assert corridor.corners.tolist() == [[1.0, 5.0], [19.0, 5.0]] and corridor.searches == 1
    rock = box(3, 2, 12, 8)
    mesh.add_obstacle(rock)
    corridor.move_position((2.0, 5.0))
    assert corridor.searches == 2
    expected = mesh.find_path((2.0, 5.0), (19.0, 5.0))
    np.testing.assert_allclose(corridor.corners, expected.path, atol=TOL)
    mesh.add_obstacle(box(1.5, 4.5, 2.5, 5.5))  # over the agent: moved out of it
    corridor.move_position(corridor.position)
    area = box(0, 0, 20, 10).difference(rock).difference(box(1.5, 4.5, 2.5, 5.5))
    assert _on(area, corridor.position) and corridor.searches == 3


def test_a_corridor_never_enters_polygons_its_filter_excludes() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10).difference(box(8, 3, 12, 7)))
    above = int(mesh.locate((10, 8.5)))
    flt = QueryFilter(excluded=[above])
    corridor = PathCorridor(mesh, (2.0, 5.0), (18.0, 5.0), filter=flt)
    assert above not in corridor.polygons.tolist()
    expected = mesh.find_path((2.0, 5.0), (18.0, 5.0), filter=flt)
    np.testing.assert_allclose(corridor.corners, expected.path, atol=TOL)
    for _ in range(10):
        corridor.move_position(corridor.position + np.array([0.3, 0.6]))
        assert above not in corridor.polygons.tolist()
        assert corridor.mesh.locate(corridor.position) != above


def test_a_corridor_checks_its_input_and_changes_none_of_it() -> None:
    mesh = _hall()
    start, goal = np.array([1.0, 11.0]), np.array([25.0, 10.0])
    corridor = PathCorridor(mesh, start, goal)
    corridor.move_position(start + 0.5)
    corridor.move_target(goal - 0.5)
    assert start.tolist() == [1.0, 11.0] and goal.tolist() == [25.0, 10.0]
    corridor.position[0] = -50.0  # a copy
    assert _on(HALL, corridor.position)
    with pytest.raises(ValueError, match=r"^target \(9.0, 6.0\) is off the mesh; pass snap"):
        PathCorridor(mesh, start, (9.0, 6.0))
    with pytest.raises(ValueError, match=r"target .* is off the mesh"):
        corridor.move_target((9.0, 6.0))
    with pytest.raises(ValueError, match="must be a position"):
        corridor.move_position((1.0, 2.0, 3.0))
    with pytest.raises(TypeError, match="mesh must be a pathcraft NavMesh"):
        PathCorridor("hall", start, goal)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="filter must be"):
        PathCorridor(mesh, start, goal, filter={"excluded": [1]})  # type: ignore[arg-type]
    snapped = PathCorridor(mesh, start, (9.0, 6.0), snap=True)
    assert snapped.target == pytest.approx([10.0, 6.0]) or snapped.target == pytest.approx(
        [8.0, 6.0]
    )
    linked = _hall()
    linked.add_link((1.0, 1.0), (28.0, 1.0), cost=1.0)
    with pytest.raises(ValueError, match="without off-mesh links"):
        PathCorridor(linked, start, goal)


def test_refusals_name_the_space_when_it_cannot_snap() -> None:
    class Bare:  # a Space of the caller's own, without snap
        def key(self, node: Any, name: str = "node") -> Any:
            return node

        def find_path(self, start: Any, goal: Any, *, max_expansions: Any = None) -> Any:
            return _hall().find_path(start, goal)

        def nodes(self, result: Any) -> list[Any]:
            return [tuple(p) for p in result.path.tolist()]

        def step_costs(self, path: Any) -> Any:
            return np.hypot(*np.diff(np.asarray(path), axis=0).T)

        def point(self, node: Any) -> Any:
            return node

    with pytest.raises(CapabilityError, match="snap"):
        Pursuer(Bare(), (1.0, 1.0), speed=1.0, snap=True)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_toward_moves_straight_and_never_leaves_the_mesh(seed: int) -> None:
    mesh = _hall()
    space = mesh.agent_space()
    a, b = (tuple(p) for p in mesh.random_points(2, seed=seed))
    step = space.toward(a, b)
    walkable = HALL.buffer(TOL)
    seen = walkable.covers(shapely.LineString([a, b]))
    if step is None:  # a wall right ahead
        assert not seen
        return
    path = np.asarray(step.path)
    assert walkable.covers(shapely.LineString(path)) and path[0].tolist() == list(a)
    assert mesh.locate(path[-1]) >= 0
    # straight toward the goal, all the way when it is in sight
    (dx, dy), (gx, gy) = path[1] - path[0], np.subtract(b, a)
    assert abs(dx * gy - dy * gx) <= 1e-9 * (1 + float(np.ptp(path)))
    assert bool(step) == seen and (not seen or np.allclose(path[-1], b))
    assert step.cost == pytest.approx(float(np.hypot(*(path[1] - path[0]))))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_toward_from_where_the_last_move_ended_and_after_a_carve(seed: int) -> None:
    # toward starts from the polygon its last move ended in: moves chained from their
    # ends, and one after the mesh is carved (its polygons renumbered), are the moves
    # the same oracle allows
    mesh = _hall()
    space = mesh.agent_space()
    rng = np.random.default_rng(seed)
    here = tuple(mesh.random_points(1, seed=seed)[0])
    walkable = HALL.buffer(TOL)
    for k in range(6):
        if k == 3:
            hole = shapely.Point(mesh.random_points(1, seed=seed + 1)[0]).buffer(0.4)
            if hole.covers(shapely.Point(here)):
                return
            mesh.add_obstacle(hole)
            walkable = HALL.difference(hole).buffer(TOL)
        goal = tuple(mesh.random_points(1, seed=int(rng.integers(1 << 30)))[0])
        step = space.toward(here, goal)
        seen = walkable.covers(shapely.LineString([here, goal]))
        if step is None:
            assert not seen
            continue
        path = np.asarray(step.path)
        assert walkable.covers(shapely.LineString(path)) and path[0].tolist() == list(here)
        assert mesh.locate(path[-1]) >= 0
        assert bool(step) == seen and (not seen or np.allclose(path[-1], goal))
        here = (float(path[-1][0]), float(path[-1][1]))



def test_a_capped_corridor_is_find_paths_path_or_none_when_the_cap_stops_it() -> None:
    mesh = _hall()
    space = mesh.agent_space()
    full = mesh.find_path((1.0, 11.0), (25.0, 10.0))
    corridor, plan = space.corridor((1.0, 11.0), (25.0, 10.0), max_expansions=10_000)
    assert corridor is not None and corridor.searches == 1
    np.testing.assert_allclose(plan.path, full.path, atol=TOL)
    assert plan.expanded == corridor.expanded > 1
    stopped, spent = space.corridor((1.0, 11.0), (25.0, 10.0), max_expansions=1)
    assert stopped is None and not spent and spent.reason == "max_expansions"
    assert spent.expanded <= 1
    mesh.add_link((5.0, 1.0), (12.0, 1.0))  # no corridor on a mesh with links: a search
    none, linked = space.corridor((1.0, 11.0), (25.0, 10.0), max_expansions=10_000)
    expected = mesh.find_path((1.0, 11.0), (25.0, 10.0))
    assert none is None and linked.cost == pytest.approx(expected.cost)
