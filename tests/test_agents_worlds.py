"""Every world x every agent kind: exercised (the agent reaches its goal on a path
legal on the world, at the cost the contract table's oracle gives) or refused by name
(:class:`~pathcraft.world.CapabilityError`, naming the world). The worlds are the
contract table's (``test_contract_table.CASES``), the table of expectations is
:data:`EXPECT`.

A navigation mesh's agents' space (:class:`~pathcraft.navmesh.MeshSpace`) is continuous
and its own floor (``walkable``/``slide``): the agents built on a space and a floor
exercise it; a flow field and a crowd of cells mean nothing there and are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_contract_table import CASES, Case

from pathcraft.agents import FlowField, PathFollower, PathRequestQueue, Pursuer, space_for
from pathcraft.agents.spaces import floor_for
from pathcraft.world import CapabilityError

WORLDS = list(CASES)
AGENTS = ("Pursuer", "Pursuer, frame_budget", "PathFollower", "PathRequestQueue", "Crowd",
          "FlowField")  # fmt: skip


#: agent -> world -> "works", or "refused" (a CapabilityError naming the world).
EXPECT: dict[str, dict[str, str]] = {
    "Pursuer": dict.fromkeys(WORLDS, "works"),
    "Pursuer, frame_budget": dict.fromkeys(WORLDS, "works"),
    "PathFollower": dict.fromkeys(WORLDS, "works")
    | {"VoxelGrid": "refused", "Level": "refused"},
    "PathRequestQueue": dict.fromkeys(WORLDS, "works"),
    "Crowd": dict.fromkeys(WORLDS, "refused") | {"Grid": "works", "HexGrid": "works"},
    "FlowField": dict.fromkeys(WORLDS, "works") | {"NavMesh": "refused"},
}


def _same(a: Any, b: Any) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float)))


def _optimal(case: Case) -> float:
    """The cost from ``a`` to ``g``: the oracle's, or the mesh's own funnel path."""
    cost = case.dist([case.a])(case.g)
    return float(case.world.find_path(case.a, case.g).cost) if np.isnan(cost) else cost


def _nodes(case: Case) -> tuple[Any, Any, float]:
    """``a``, ``g`` and the optimal cost between them as the agents' space's nodes: a
    waypoint graph's are its waypoints' indices (its queries take positions)."""
    if type(case.world).__name__ != "WaypointGraph":
        return case.a, case.g, _optimal(case)
    return 1, 0, float(case.world.agent_space().find_path(1, 0).cost)


def _legal(case: Case, nodes: list[Any]) -> None:
    """Consecutive nodes of an agent's plan are moves of the world (the space prices
    each step; it raises for a pair that is not one move)."""
    space = space_for(case.world)
    costs = space.step_costs(nodes)
    assert len(costs) == len(nodes) - 1 and np.isfinite(costs).all()


def pursuer(case: Case, frame_budget: int | None) -> None:
    start, goal, optimal = _nodes(case)
    enemy = Pursuer(case.world, start, speed=2.0, frame_budget=frame_budget)
    frames = 0
    while enemy.step(goal, dt=0.25) != "caught":
        frames += 1
        assert frames < 400, (enemy.status, enemy.node)
        if enemy.last_plan is not None and frames == 1 and frame_budget is None:
            assert enemy.last_plan.cost == pytest.approx(optimal)
    assert _same(enemy.node, goal)
    assert enemy.plans >= 1 and enemy.last_plan is not None
    first = enemy.last_plan  # the plan it caught the target along (legal moves)
    _legal(case, space_for(case.world).nodes(first))


def pursuer_plain(case: Case) -> None:
    pursuer(case, None)


def pursuer_budgeted(case: Case) -> None:
    pursuer(case, 2)


def follower(case: Case) -> None:
    world = case.world
    result = world.find_path(case.a, case.g)
    path = np.asarray(result.path)
    if np.issubdtype(path.dtype, np.floating):  # positions already (waypoints, a mesh)
        walkers = PathFollower([path], grid=world, max_speed=2.0, tolerance=0.05)
        end = path[-1]
    else:
        space = space_for(world)
        nodes = space.nodes(result)
        walkers = PathFollower.from_cells(world, [nodes], max_speed=2.0, tolerance=0.05)
        end = np.array(space.point(nodes[-1]))
    floor = floor_for(world)
    for _ in range(2000):
        done = walkers.step(0.05)
        assert floor.walkable(walkers.positions).all()  # never off the floor
        if done.all():
            break
    assert walkers.arrived.all()
    assert np.linalg.norm(walkers.positions[0] - end) <= 0.05


def queue(case: Case) -> None:
    jobs = PathRequestQueue(budget=3)
    jobs.request("unit", case.world, case.a, case.g)
    for _ in range(500):
        done = jobs.update()
        if "unit" in done:
            result = done["unit"]
            assert result.found and result.cost == pytest.approx(_optimal(case))
            assert _same(np.asarray(result.path)[-1], case.g)
            return
    raise AssertionError("the queue never delivered")


def crowd(case: Case) -> None:
    from pathcraft.agents import Crowd

    a, g, _ = _nodes(case)
    start = space_for(case.world).point(a)
    people = Crowd(case.world, [start], [g], radius=0.3)
    for _ in range(600):
        if people.step(0.1).all():
            break
    assert people.exited.all()


def flow(case: Case) -> None:
    world = case.world
    space = space_for(world)
    start, goal, cost = _nodes(case)
    field = FlowField(world, [goal] if not isinstance(goal, tuple) else goal)
    nxt = field.next_cell
    node: Any = start
    nodes = [node]
    for _ in range(200):
        there = tuple(int(v) for v in nxt[node]) if isinstance(node, tuple) else int(nxt[node])
        if there == node:
            break
        nodes.append(there)
        node = there
    assert node == goal
    assert float(np.sum(space.step_costs(nodes))) == pytest.approx(cost)
    assert float(field.distance[start]) == pytest.approx(cost)


RUN: dict[str, Callable[[Case], None]] = {
    "Pursuer": pursuer_plain,
    "Pursuer, frame_budget": pursuer_budgeted,
    "PathFollower": follower,
    "PathRequestQueue": queue,
    "Crowd": crowd,
    "FlowField": flow,
}


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("agent", AGENTS)
def test_every_agent_on_every_world_works_or_is_refused_by_name(agent: str, world: str) -> None:
    case = CASES[world]()
    if EXPECT[agent][world] == "works":
        RUN[agent](case)
        return
    with pytest.raises(CapabilityError, match=f"^{world} does not provide agent_space: ") as err:
        RUN[agent](case)
    assert err.value.world == world and err.value.capability == "agent_space"


def test_the_table_covers_every_world_and_agent() -> None:
    assert set(EXPECT) == set(AGENTS) == set(RUN)
    assert all(set(row) == set(WORLDS) for row in EXPECT.values())


def test_followers_on_a_hex_grid_reroute_around_new_walls() -> None:
    from pathcraft.hexgrid import HexGrid

    hexes = HexGrid(np.ones((5, 8)), "odd-r")
    route = hexes.find_path((2, 0), (2, 7)).path
    walkers = PathFollower.from_cells(hexes, [route], max_speed=2.0, tolerance=0.05)
    walkers.step(0.1)
    hexes[1:4, 4] = np.inf  # a wall across the way
    floor = floor_for(hexes)
    for _ in range(2000):
        done = walkers.step(0.05)
        assert floor.walkable(walkers.positions).all()
        if done.all():
            break
    assert walkers.arrived.all() and walkers.replans >= 1
    assert np.linalg.norm(walkers.positions[0] - hexes.agent_space().point((2, 7))) <= 0.05


def test_hex_floor_slides_and_never_enters_a_wall() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from pathcraft.hexgrid import HexGrid

    cost = np.ones((4, 5))
    cost[1, 1:4] = np.inf
    cost[2, 2] = np.inf
    floor = floor_for(HexGrid(cost, "even-q"))

    @settings(max_examples=60, deadline=None)
    @given(
        x=st.floats(0.6, 4.4), y=st.floats(0.6, 3.4),
        dx=st.floats(-3, 3), dy=st.floats(-3, 3),
    )  # fmt: skip
    def moves(x: float, y: float, dx: float, dy: float) -> None:
        start = np.array([[x, y]])
        if not floor.walkable(start).all():
            return
        moved, blocked = floor.slide(start, np.array([[dx, dy]]))
        assert floor.walkable(moved).all()
        if not blocked.any():
            assert np.allclose(moved, start + np.array([dx, dy]))

    moves()


def test_floors_refused_by_name() -> None:
    from pathcraft import Graph

    with pytest.raises(CapabilityError, match=r"^Graph does not provide agent_space: .*coords="):
        PathFollower([[(0.0, 0.0), (1.0, 0.0)]], grid=Graph(2, [0], [1]))
    with pytest.raises(TypeError, match="world must be a pathcraft world or a Space"):
        PathFollower([[(0.0, 0.0), (1.0, 0.0)]], grid="maze")
    with pytest.raises(ValueError, match="units larger than one cell move on grids only"):
        from pathcraft.hexgrid import HexGrid

        PathFollower.from_cells(HexGrid(np.ones((2, 2))), [[(0, 0), (0, 1)]], sizes=2)


def test_a_space_of_continuous_positions_is_its_own_floor_and_snaps_points() -> None:
    """What a navigation mesh's space brings: walkable/slide on the space, and snap of
    a point to the nearest walkable point."""
    from pathcraft._floors import slide_by

    class DiscSpace:  # the unit disc, continuous positions
        def walkable(self, points: np.ndarray) -> np.ndarray:
            return np.hypot(points[..., 0], points[..., 1]) < 1.0

        def slide(self, points: np.ndarray, delta: np.ndarray) -> Any:
            return slide_by(self.walkable, points, delta)

        def snap(self, node: Any, name: str = "node") -> tuple[float, float]:
            x, y = node
            r = float(np.hypot(x, y))
            return (x, y) if r < 1.0 else (0.9 * x / r, 0.9 * y / r)

        def point(self, node: Any) -> tuple[float, float]:
            return float(node[0]), float(node[1])

    class DiscWorld:
        def agent_space(self) -> DiscSpace:
            return DiscSpace()

    world = DiscWorld()
    assert isinstance(floor_for(world), DiscSpace)
    walker = PathFollower([[(0.0, 0.0), (0.5, 0.0)]], grid=world, positions=[(3.0, 0.0)],
                          snap=True, tolerance=0.01)  # fmt: skip
    assert walker.positions.tolist() == [[0.9, 0.0]]
    for _ in range(200):
        if walker.step(0.1).all():
            break
    assert walker.arrived.all()


def test_a_crowd_on_a_hex_grid_leaves_by_the_door_and_pickles() -> None:
    import pickle

    from pathcraft.agents import Crowd
    from pathcraft.hexgrid import HexGrid

    cost = np.ones((6, 8))
    cost[3, :6] = np.inf  # a wall with a gap on the right
    hexes = HexGrid(cost, "odd-r")
    space = hexes.agent_space()
    starts = [space.point(c) for c in [(0, 0), (0, 2), (1, 1), (2, 4), (1, 6)]]
    people = Crowd(hexes, starts, [(5, 0)], radius=0.25)
    floor = floor_for(hexes)
    for k in range(600):
        if k == 5:
            copy = pickle.loads(pickle.dumps(people))
            people.step(0.1)
            copy.step(0.1)
            assert np.array_equal(copy.positions, people.positions)
        if people.step(0.1).all():
            break
        assert floor.walkable(people.positions[~people.exited]).all()
    assert people.exited.all()
    with pytest.raises(ValueError, match="sizes must all be 1 on a HexGrid"):
        Crowd(hexes, starts[:1], [(5, 0)], sizes=2)
    with pytest.raises(ValueError, match="not in a walkable cell"):
        Crowd(hexes, [space.point((3, 0))], [(5, 0)])
