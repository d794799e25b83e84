"""pathcraft.WaypointGraph: line of sight against a per-pair shapely oracle, local updates
against a full rebuild, paths against a Dijkstra on the oracle's visibility graph.

The rule under test: a segment is blocked exactly when its interior meets an obstacle's
interior, ``shapely.relate_pattern(segment, obstacle, "T********")``, obstacle by
obstacle. Grazing a corner, running along an edge and ending on the boundary are clear.
"""

from __future__ import annotations

import math
import subprocess
import sys
from itertools import combinations, pairwise
from typing import Any

import networkx as nx
import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import LineString, Point, box

from pathcraft import WaypointGraph


def segment(a: Any, b: Any) -> Any:
    a, b = tuple(map(float, a)), tuple(map(float, b))
    return Point(a) if a == b else LineString([a, b])


def oracle_clear(a: Any, b: Any, obstacles: list[Any]) -> bool:
    """The per-pair check, one obstacle at a time."""
    seg = segment(a, b)
    return not any(shapely.relate_pattern(seg, o, "T********") for o in obstacles)


def oracle_links(points: np.ndarray, obstacles: list[Any], max_distance: float | None = None):
    out = []
    for i, j in combinations(range(len(points)), 2):
        if max_distance is not None and math.dist(points[i], points[j]) > max_distance:
            continue
        if oracle_clear(points[i], points[j], obstacles):
            out.append((i, j))
    return out


def lattice_scene(seed: int, n_points: int = 30, n_obstacles: int = 6):
    """Integer boxes and integer points: many points on corners and edges, many
    segments along edges and through corners (the degenerate cases)."""
    rng = np.random.default_rng(seed)
    obstacles = []
    for _ in range(n_obstacles):
        x, y = rng.integers(0, 10, size=2)
        w, h = rng.integers(1, 4, size=2)
        obstacles.append(box(x, y, x + w, y + h))
    points = rng.integers(0, 12, size=(n_points, 2)).astype(float)
    corners = np.array([c for o in obstacles for c in o.exterior.coords[:-1]])
    points[: n_points // 3] = corners[rng.integers(len(corners), size=n_points // 3)]
    return points, obstacles


def float_scene(seed: int, n_points: int = 40, n_obstacles: int = 8):
    """Circles, triangles, rotated boxes, a polygon with a hole and a multipolygon."""
    rng = np.random.default_rng(seed)
    obstacles: list[Any] = []
    for k in range(n_obstacles):
        c = rng.random(2) * 100
        kind = k % 5
        if kind == 0:
            obstacles.append(Point(c).buffer(rng.uniform(2, 9)))
        elif kind == 1:
            obstacles.append(shapely.Polygon(c + rng.normal(0, 6, size=(3, 2))).convex_hull)
        elif kind == 2:
            b = box(*(c - 5), *(c + rng.uniform(1, 8, 2)))
            obstacles.append(shapely.affinity.rotate(b, rng.uniform(0, 90)))
        elif kind == 3:
            outer = box(*(c - 8), *(c + 8))
            obstacles.append(outer.difference(box(*(c - 4), *(c + 4))))
        else:
            obstacles.append(shapely.MultiPolygon([box(*c, *(c + 3)), box(*(c + 5), *(c + 7))]))
    obstacles = [o for o in obstacles if o.is_valid and not o.is_empty and o.area > 0]
    points = rng.random((n_points, 2)) * 100
    verts = shapely.get_coordinates(shapely.GeometryCollection(obstacles))
    k = min(5, n_points)
    points[:k] = verts[rng.integers(len(verts), size=k)]  # some on the boundary
    return points, obstacles


# --------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    ("a", "b", "clear"),
    [
        ((0, 2), (8, 10), True),  # grazes the corner (4, 6)
        ((0, 0), (10, 10), False),  # the diagonal through the box
        ((0, 4), (10, 4), True),  # runs along the bottom edge
        ((4, 0), (4, 10), True),  # runs along the left edge
        ((0, 5), (10, 5), False),  # through the middle
        ((0, 0), (4, 4), True),  # ends on a corner from outside
        ((0, 5), (4, 5), True),  # ends on an edge from outside
        ((4, 5), (5, 5), False),  # starts on the edge, goes inside
        ((4, 4), (6, 6), False),  # the diagonal: corner to corner through the inside
        ((4, 4), (6, 4), True),  # an edge, corner to corner
        ((5, 5), (5, 5), False),  # a point inside
        ((4, 5), (4, 5), True),  # a point on the boundary
        ((2, 8), (8, 2), False),  # crosses the box cleanly
        ((3, 6), (6, 3), False),  # cuts the corner region (4,5)-(5,4) inside
        ((2, 6), (6, 2), True),  # touches the corner (4, 4) exactly
    ],
)
def test_what_counts_as_blocked(a: Any, b: Any, clear: bool) -> None:
    wall = box(4, 4, 6, 6)
    assert oracle_clear(a, b, [wall]) == clear  # the oracle agrees with the rule ...
    if a == b:
        wg = WaypointGraph([a], [wall])
        assert (wg.visible(a).tolist() == [0]) == clear
    else:
        wg = WaypointGraph([a, b], [wall])
        assert (wg.links.tolist() == [[0, 1]]) == clear  # ... and so does the graph


def test_a_seam_between_two_obstacles_is_a_gap_unless_grown_or_merged() -> None:
    left, right = box(0, 0, 2, 4), box(2, 0, 4, 4)
    points = [(2, -1), (2, 5)]
    assert WaypointGraph(points, [left, right]).links.tolist() == [[0, 1]]
    assert WaypointGraph(points, [shapely.union_all([left, right])]).links.tolist() == []
    assert WaypointGraph(points, [left, right], agent_radius=0.1).links.tolist() == []


@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1))
def test_links_equal_the_per_pair_oracle_on_lattice_scenes(seed: int) -> None:
    points, obstacles = lattice_scene(seed)
    wg = WaypointGraph(points, obstacles)
    assert sorted(map(tuple, wg.links.tolist())) == oracle_links(points, obstacles)


@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1), st.sampled_from((None, 30.0)))
def test_links_equal_the_per_pair_oracle_on_float_scenes(seed: int, limit: float | None) -> None:
    points, obstacles = float_scene(seed)
    wg = WaypointGraph(points, obstacles, max_distance=limit)
    assert sorted(map(tuple, wg.links.tolist())) == oracle_links(points, obstacles, limit)


def test_agent_radius_grows_the_obstacles_and_lines_become_walls() -> None:
    rng = np.random.default_rng(3)
    points = rng.random((40, 2)) * 20
    wall = LineString([(5, 0), (5, 15)])
    grown = [wall.buffer(1.5)]  # corners of 16 segments a quarter circle
    wg = WaypointGraph(points, [wall], agent_radius=1.5)
    assert sorted(map(tuple, wg.links.tolist())) == oracle_links(points, grown)
    assert wg.obstacles[0].equals(grown[0])


# --------------------------------------------------------------------------- changes


def adding_and_removing_obstacles_equals_a_full_rebuild(seed: int) -> None:
    rng = np.random.default_rng(seed)
    points, obstacles = float_scene(seed, n_points=50, n_obstacles=6)
    extra = float_scene(seed + 1, n_points=1, n_obstacles=5)[1]
    wg = WaypointGraph(points, obstacles)
    live = dict(enumerate(obstacles))
    for step in range(6):
        if extra and (step % 2 == 0 or not live):
            geom = extra.pop()
            live[wg.add_obstacle(geom)] = geom
        else:
            key = list(live)[int(rng.integers(len(live)))]
            wg.remove_obstacle(key)
            del live[key]
        fresh = WaypointGraph(points, list(live.values()))
        np.testing.assert_array_equal(wg.links, fresh.links)
        assert sorted(wg.obstacles) == sorted(live)
        free = [p for p in points if oracle_clear(p, p, list(live.values()))]
        for s, g in zip(free[0:6:2], free[1:6:2], strict=False):
            a, b = wg.find_path(s, g), fresh.find_path(s, g)
            assert (a.cost, a.expanded, a.path.tolist()) == (b.cost, b.expanded, b.path.tolist())


@settings(max_examples=5)
@given(st.integers(0, 2**32 - 1))
def test_adding_and_removing_obstacles_equals_a_full_rebuild(seed: int) -> None:
    adding_and_removing_obstacles_equals_a_full_rebuild(seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=15)
@given(st.integers(0, 2**32 - 1))
def test_adding_and_removing_obstacles_equals_a_full_rebuild_many(seed: int) -> None:
    adding_and_removing_obstacles_equals_a_full_rebuild(seed)


def test_a_new_obstacle_cuts_only_the_links_it_blocks() -> None:
    points = [(0, 0), (10, 0), (0, 10), (10, 10)]
    wg = WaypointGraph(points)
    assert len(wg.links) == 6
    key = wg.add_obstacle(box(4, -1, 6, 1))
    assert wg.links.tolist() == [[0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    wg.remove_obstacle(key)
    assert len(wg.links) == 6


# --------------------------------------------------------------------------- paths


def oracle_path_cost(points, obstacles, start, goal, max_distance=None) -> float:
    """Dijkstra (networkx) on the visibility graph of the waypoints plus start and goal,
    built pair by pair with shapely."""
    if oracle_clear(start, goal, obstacles):
        return math.dist(start, goal)
    allp = [tuple(start), tuple(goal), *map(tuple, points)]
    g = nx.Graph()
    g.add_nodes_from(range(len(allp)))
    for i, j in combinations(range(len(allp)), 2):
        d = math.dist(allp[i], allp[j])
        if (max_distance is None or d <= max_distance) and oracle_clear(
            allp[i], allp[j], obstacles
        ):
            g.add_edge(i, j, weight=d)
    try:
        return nx.dijkstra_path_length(g, 0, 1)
    except nx.NetworkXNoPath:
        return math.inf


def find_path_is_the_shortest_through_the_waypoints(seed: int, limit: float | None) -> None:
    points, obstacles = float_scene(seed, n_points=30)
    wg = WaypointGraph(points, obstacles, max_distance=limit)
    rng = np.random.default_rng(seed)
    free = [p for p in rng.random((40, 2)) * 100 if oracle_clear(p, p, obstacles)]
    for start, goal in zip(free[0::2], free[1::2], strict=False):
        want = oracle_path_cost(points, obstacles, start, goal, limit)
        got = wg.find_path(start, goal)
        if math.isinf(want):
            assert not got and got.reason == "unreachable" and got.path.shape == (0, 2)
            continue
        assert got.found and got.cost == pytest.approx(want, rel=1e-9)
        path = got.path
        assert path[0].tolist() == list(start) and path[-1].tolist() == list(goal)
        steps = np.linalg.norm(np.diff(path, axis=0), axis=1)
        assert got.cost == pytest.approx(steps.sum(), rel=1e-12)
        for a, b in pairwise(path):
            assert oracle_clear(a, b, obstacles)
        weighted = wg.find_path(start, goal, weight=2.0)
        assert weighted.cost <= 2.0 * want * (1 + 1e-9)


@settings(max_examples=5)
@given(st.integers(0, 2**32 - 1), st.sampled_from((None, 35.0)))
def test_find_path_is_the_shortest_through_the_waypoints(seed: int, limit: float | None) -> None:
    find_path_is_the_shortest_through_the_waypoints(seed, limit)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.sampled_from((None, 35.0)))
def test_find_path_is_the_shortest_through_the_waypoints_many(
    seed: int, limit: float | None
) -> None:
    find_path_is_the_shortest_through_the_waypoints(seed, limit)


def test_start_equal_to_goal_limits_and_no_waypoints() -> None:
    wall = box(4, -5, 6, 5)
    wg = WaypointGraph([(4, 5), (6, 5)], [wall])
    same = wg.find_path((1, 1), (1, 1))
    assert same.path.tolist() == [[1.0, 1.0]] and same.cost == 0.0
    around = wg.find_path((0, 0), (10, -1))
    assert around.found and around.path.shape == (4, 2)
    tired = wg.find_path((0, 0), (10, 0), max_expansions=0)
    assert not tired and tired.reason == "max_expansions"
    cheap = wg.find_path((0, 0), (10, 0), max_cost=5.0)
    assert not cheap and cheap.reason == "max_cost"
    alone = WaypointGraph(np.empty((0, 2)), [wall])
    none = alone.find_path((0, 0), (10, 0))
    assert not none and none.reason == "unreachable" and none.expanded == 0


def test_three_d_points_with_a_line_of_sight_callable() -> None:
    # A floor at z = 0 with a ceiling slab: sight is blocked when the segment passes
    # through the slab x in [4, 6] below z = 8.
    def los(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        seg = LineString([a[:2], b[:2]])
        if not seg.intersects(box(4, -100, 6, 100)):
            return True
        return min(a[2], b[2]) >= 8.0

    rng = np.random.default_rng(4)
    points = np.column_stack((rng.random((25, 2)) * 10, rng.random(25) * 12))
    wg = WaypointGraph(points, line_of_sight=los)
    want = [
        (i, j) for i, j in combinations(range(25), 2) if los(tuple(points[i]), tuple(points[j]))
    ]
    assert sorted(map(tuple, wg.links.tolist())) == want
    start, goal = (0.0, 0.0, 1.0), (10.0, 0.0, 1.0)
    result = wg.find_path(start, goal)
    g = nx.Graph()
    allp = [start, goal, *map(tuple, points)]
    for i, j in combinations(range(len(allp)), 2):
        if los(allp[i], allp[j]):
            g.add_edge(i, j, weight=math.dist(allp[i], allp[j]))
    assert result.cost == pytest.approx(nx.dijkstra_path_length(g, 0, 1))
    assert result.path.shape[1] == 3


def test_graph_property_searches_between_waypoints() -> None:
    points, obstacles = float_scene(9)
    wg = WaypointGraph(points, obstacles)
    graph = wg.graph
    assert graph.num_edges == len(wg.links) and graph.heuristic_scale == pytest.approx(1.0)
    dist = graph.distance_field(0)
    g = nx.Graph()
    g.add_nodes_from(range(len(points)))
    for i, j in wg.links.tolist():
        g.add_edge(i, j, weight=math.dist(points[i], points[j]))
    for node, d in nx.single_source_dijkstra_path_length(g, 0).items():
        assert dist[node] == pytest.approx(d)


# --------------------------------------------------------------------------- bad input


BOWTIE = shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        (
            dict(points=[(0, 0), (1, math.nan)]),
            ValueError,
            r"points\[1\] = \[1.0, nan\] is not finite",
        ),
        (dict(points=[(0, 0, 0, 0)]), ValueError, r"points must have shape \(n, 2\) or \(n, 3\)"),
        (dict(points=[("a", "b")]), TypeError, r"points must be an array of points"),
        (
            dict(obstacles=[BOWTIE]),
            ValueError,
            r"obstacles\[0\] is not a valid geometry \(Self-intersection",
        ),
        (dict(obstacles=["box"]), TypeError, r"obstacles\[0\] must be a shapely geometry; got str"),
        (
            dict(obstacles=[Point(0, 0).buffer(1), shapely.Polygon()]),
            ValueError,
            r"obstacles\[1\] is an empty",
        ),
        (
            dict(obstacles=[LineString([(0, 0), (1, 1)])]),
            ValueError,
            r"obstacles\[0\] is a LineString; obstacles must be polygons",
        ),
        (dict(agent_radius=-1.0), ValueError, r"agent_radius must be"),
        (dict(agent_radius=math.inf), ValueError, r"agent_radius must be finite"),
        (dict(max_distance=math.nan), ValueError, r"max_distance must be"),
        (dict(points=[(0, 0, 0)]), ValueError, r"3-D points \(x, y, z\) need line_of_sight"),
        (
            dict(line_of_sight=lambda a, b: True, obstacles=[box(0, 0, 1, 1)]),
            ValueError,
            r"not both",
        ),
        (dict(line_of_sight=5), TypeError, r"line_of_sight must be a callable or None"),
        (
            dict(line_of_sight=lambda a, b: "yes"),
            TypeError,
            r"line_of_sight must return a bool; got 'yes'",
        ),
    ],
)
def test_bad_construction_names_the_argument(kwargs: dict[str, Any], kind: type, message: str):
    args: dict[str, Any] = dict(points=[(0, 0), (9, 9)])
    args.update(kwargs)
    with pytest.raises(kind, match=message):
        WaypointGraph(args.pop("points"), **args)


def test_bad_queries_and_changes_name_the_argument() -> None:
    wall = box(4, -5, 6, 5)
    wg = WaypointGraph([(4, 5), (6, 5)], [wall])
    before = wg.links.copy()
    with pytest.raises(ValueError, match=r"start \(5.0, 0.0\) is inside obstacle 0"):
        wg.find_path((5, 0), (10, 0))
    with pytest.raises(ValueError, match=r"goal \(5.0, 1.0\) is inside obstacle 0"):
        wg.find_path((0, 0), (5, 1))
    with pytest.raises(ValueError, match=r"start \(0.0, inf\) is not finite"):
        wg.find_path((0, math.inf), (10, 0))
    with pytest.raises(ValueError, match=r"goal must be a position \(x, y\); got \(1, 2, 3\)"):
        wg.find_path((0, 0), (1, 2, 3))
    with pytest.raises(ValueError, match=r"weight must be"):
        wg.find_path((0, 0), (10, 0), weight=0.5)
    with pytest.raises(ValueError, match=r"geom is not a valid geometry"):
        wg.add_obstacle(BOWTIE)
    with pytest.raises(ValueError, match=r"key 7 is not an obstacle id; ids: \[0\]"):
        wg.remove_obstacle(7)
    with pytest.raises(TypeError, match=r"key must be an obstacle id"):
        wg.remove_obstacle("0")  # type: ignore[arg-type]
    np.testing.assert_array_equal(wg.links, before)
    sight = WaypointGraph([(0, 0, 0)], line_of_sight=lambda a, b: True)
    with pytest.raises(ValueError, match=r"add_obstacle needs obstacles; this graph uses line_of"):
        sight.add_obstacle(wall)


def test_points_and_obstacles_are_not_changed() -> None:
    points = np.array([[0.0, 0.0], [10.0, 0.0]])
    wall = box(4, -1, 6, 1)
    wg = WaypointGraph(points, [wall], agent_radius=0.5)
    assert points.tolist() == [[0.0, 0.0], [10.0, 0.0]] and wall.equals(box(4, -1, 6, 1))
    with pytest.raises(ValueError):
        wg.points[0, 0] = 5.0


def test_import_without_shapely_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['shapely'] = None\n"
        "import pathcraft\n"
        "assert pathcraft.Graph(2, [0], [1]).astar(0, 1).cost == 1.0\n"
        "try:\n"
        "    pathcraft.WaypointGraph\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install pathcraft[geometry]" in out.stdout


def test_pickle_round_trip_keeps_links_paths_and_updates() -> None:
    import pickle

    points, obstacles = float_scene(21)
    wg = WaypointGraph(points, obstacles, max_distance=40.0)
    copy = pickle.loads(pickle.dumps(wg))
    np.testing.assert_array_equal(copy.links, wg.links)
    free = [p for p in points if oracle_clear(p, p, obstacles)]
    a, b = wg.find_path(free[0], free[1]), copy.find_path(free[0], free[1])
    assert (a.cost, a.path.tolist()) == (b.cost, b.path.tolist())
    wall = box(40, 40, 60, 60)
    assert copy.add_obstacle(wall) == wg.add_obstacle(wall)
    np.testing.assert_array_equal(copy.links, wg.links)


def test_threads_sharing_one_waypoint_graph_get_the_serial_answers() -> None:
    from concurrent.futures import ThreadPoolExecutor

    points, obstacles = float_scene(33, n_points=80)
    wg = WaypointGraph(points, obstacles)
    rng = np.random.default_rng(33)
    free = [p for p in rng.random((200, 2)) * 100 if oracle_clear(p, p, obstacles)]
    pairs = list(zip(free[0::2], free[1::2], strict=False))

    def answer(pair: Any) -> tuple[Any, ...]:
        r = wg.find_path(*pair)
        return (r.path.tobytes(), r.cost, r.expanded)

    serial = [answer(p) for p in pairs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(answer, pairs)) == serial
