"""Agents of several radii on one navigation mesh (issue 17): every radius query against
an independent visibility-graph shortest path (shapely line of sight, scipy Dijkstra)
around the obstacles grown by the radius."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra
from shapely import box

from pathcraft import NavMesh

WIDTH, HEIGHT = 20.0, 12.0


@st.composite
def rooms(draw: Any) -> tuple[list[Any], float, int]:
    """A 20 x 12 room with 1-4 box obstacles inside it, a radius and a seed."""
    obstacles = []
    for _ in range(draw(st.integers(1, 4))):
        x = draw(st.floats(1.0, WIDTH - 4.0))
        y = draw(st.floats(1.0, HEIGHT - 4.0))
        w = draw(st.floats(0.5, 3.0))
        h = draw(st.floats(0.5, 3.0))
        obstacles.append(box(x, y, x + w, y + h))
    radius = draw(st.sampled_from((0.2, 0.45, 0.8)))
    return obstacles, radius, draw(st.integers(0, 2**32 - 1))


def free_space(obstacles: list[Any], radius: float) -> Any:
    """Where an agent's centre may be: the room shrunk by the radius, minus every
    obstacle grown by it (built apart from the mesh's own shrinking)."""
    inner = box(0, 0, WIDTH, HEIGHT).buffer(-radius)
    return inner.difference(shapely.union_all([o.buffer(radius) for o in obstacles]))


def visibility_cost(space: Any, start: np.ndarray, goal: np.ndarray) -> float:
    """The shortest path from start to goal inside ``space``: Dijkstra (scipy) over the
    visibility graph of its vertices, a segment kept where shapely sees it inside."""
    corners = shapely.get_coordinates(shapely.boundary(space))
    nodes = np.unique(np.round(corners, 12), axis=0)
    nodes = np.vstack([start, goal, nodes])
    n = len(nodes)
    i, j = np.triu_indices(n, 1)
    lines = shapely.linestrings(np.stack([nodes[i], nodes[j]], axis=1))
    loose = space.buffer(1e-7)
    seen = shapely.covers(loose, lines)
    length = np.linalg.norm(nodes[i] - nodes[j], axis=1)
    keep = seen & (length > 0)
    graph = csr_matrix((length[keep], (i[keep], j[keep])), shape=(n, n))
    return float(csgraph_dijkstra(graph, directed=False, indices=0)[1])


def points_in(space: Any, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    inside = space.buffer(-1e-3)
    out: list[np.ndarray] = []
    for _ in range(2000):
        p = rng.uniform((0, 0), (WIDTH, HEIGHT))
        if inside.contains(shapely.Point(p)):
            out.append(p)
            if len(out) == count:
                break
    return out


@settings(max_examples=6, deadline=None)
@given(room=rooms())
def test_a_radius_query_is_the_visibility_graph_shortest_path(
    room: tuple[list[Any], float, int],
) -> None:
    check_room(room)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(room=rooms())
def test_many_radius_queries_are_the_visibility_graph_shortest_path(
    room: tuple[list[Any], float, int],
) -> None:
    check_room(room)


def check_room(room: tuple[list[Any], float, int]) -> None:
    obstacles, radius, seed = room
    walkable = box(0, 0, WIDTH, HEIGHT).difference(shapely.union_all(obstacles))
    mesh = NavMesh.from_geometry(walkable)
    space = free_space(obstacles, radius)
    rng = np.random.default_rng(seed)
    points = points_in(space, rng, 6)
    for start, goal in zip(points[::2], points[1::2], strict=False):
        want = visibility_cost(space, start, goal)
        got = mesh.find_path(start, goal, algorithm="optimal", radius=radius)
        assert got.found == math.isfinite(want)
        if not got.found:
            continue
        assert got.cost == pytest.approx(want, abs=1e-6, rel=1e-9)
        assert space.buffer(1e-6).covers(shapely.LineString(got.path))  # clear of walls
        funnel = mesh.find_path(start, goal, radius=radius)
        assert funnel.found and funnel.cost >= want - 1e-6
        assert space.buffer(1e-6).covers(shapely.LineString(funnel.path))


def test_each_radius_mesh_is_built_once_and_kept() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    wide = mesh.for_radius(0.5)
    assert mesh.for_radius(0.5) is wide and mesh.for_radius(0) is mesh
    search = mesh.start_search((1, 9), (9, 9), algorithm="optimal", radius=0.5)
    while search.step(1) == "in_progress":
        pass
    assert (
        search.result.cost == mesh.find_path((1, 9), (9, 9), algorithm="optimal", radius=0.5).cost
    )
    for r in np.linspace(0.05, 0.9, 9):  # more radii than kept: the oldest goes
        mesh.for_radius(float(r))
    assert mesh.for_radius(0.5) is not wide


@pytest.mark.parametrize(
    ("radius", "error", "match"),
    [
        (-0.5, ValueError, "radius must be a finite number >= 0"),
        (math.inf, ValueError, "radius must be a finite number >= 0"),
        (math.nan, ValueError, "radius must be a finite number >= 0"),
        ("1", TypeError, "radius must be a finite number >= 0"),
        (True, TypeError, "radius must be a finite number >= 0"),
        (6.0, ValueError, "nothing is walkable after shrinking by radius=6.0"),
    ],
)
def test_a_bad_radius_is_refused(radius: Any, error: type, match: str) -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
    with pytest.raises(error, match=match):
        mesh.find_path((1, 1), (9, 9), radius=radius)


def test_a_start_too_close_to_a_wall_is_refused_or_snapped() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    with pytest.raises(ValueError, match=r"start \(1.0, 0.2\) is closer than radius=0.5"):
        mesh.find_path((1, 0.2), (9, 9), radius=0.5)
    snapped = mesh.find_path((1, 0.2), (9, 9), radius=0.5, snap=True)
    assert snapped.found and snapped.path[0].tolist() == pytest.approx([1.0, 0.5])


# --------------------------------------------------------------------------- waypoints


@settings(max_examples=5, deadline=None)
@given(room=rooms())
def test_a_waypoint_radius_query_is_the_visibility_graph_shortest_path(
    room: tuple[list[Any], float, int],
) -> None:
    """Waypoints at the corners of the grown obstacles (what a level designer would
    place for that agent): the search with ``radius`` is the shortest path around
    the obstacles grown by it, in the open plane."""
    from pathcraft import WaypointGraph

    obstacles, radius, seed = room
    grown = shapely.union_all([o.buffer(radius) for o in obstacles])  # 16 segments a quarter
    corners = np.unique(shapely.get_coordinates(shapely.boundary(grown)), axis=0)
    graph = WaypointGraph(corners, obstacles)
    plane = box(-50, -50, 70, 62)
    space = plane.difference(grown)
    rng = np.random.default_rng(seed)
    points = points_in(space.intersection(box(0, 0, WIDTH, HEIGHT)), rng, 6)
    for start, goal in zip(points[::2], points[1::2], strict=False):
        want = visibility_cost(space, start, goal)
        got = graph.find_path(start, goal, radius=radius)
        assert got.found and got.cost == pytest.approx(want, abs=1e-6, rel=1e-9)
        assert space.buffer(1e-6).covers(shapely.LineString(got.path))
    assert graph.for_radius(radius).agent_radius == radius


def test_waypoint_radius_graphs_are_cached_until_an_obstacle_changes() -> None:
    from pathcraft import WaypointGraph

    graph = WaypointGraph([(3, 3), (7, 3), (3, -3)], [box(4, 0, 6, 2)])
    wide = graph.for_radius(1.5)
    assert graph.for_radius(1.5) is wide and graph.for_radius(0) is graph
    key = graph.add_obstacle(box(0, -1, 1, 0))
    assert graph.for_radius(1.5) is not wide
    assert key in graph.for_radius(1.5).obstacles
    with pytest.raises(ValueError, match=r"start \(5.0, 2.5\) is inside obstacle 0"):
        graph.find_path((5, 2.5), (3, 3), radius=1.0)
    with pytest.raises(ValueError, match="radius must be a finite number >= 0"):
        graph.find_path((3, 3), (7, 3), radius=-1)
    sighted = WaypointGraph([(0, 0), (1, 0)], line_of_sight=lambda a, b: True)
    with pytest.raises(ValueError, match="radius needs obstacles"):
        sighted.find_path((0, 0), (1, 0), radius=0.5)
