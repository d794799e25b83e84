"""pathcraft.NavMesh queries: Polyanya against the visibility-graph oracle, the funnel's
validity, locate / nearest_point / raycast against shapely, unreachable goals, snapping,
limits, threads and pickling."""

from __future__ import annotations

import itertools
import math
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import shapely
from _scenes import (
    assert_path_inside,
    cells_geometry,
    oracle_length,
    path_length,
    pinch_free_grid,
    polygon_scene,
    sample_points,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import box

from pathcraft import NavMesh, PathResult
from pathcraft._options import UnsupportedOptionError

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def check_against_oracle(mesh: NavMesh, walk: object, rng: np.random.Generator, n: int) -> None:
    points = sample_points(walk, rng, 2 * n)
    for start, goal in zip(points[:n], points[n:], strict=True):
        best = oracle_length(walk, start, goal)
        optimal = mesh.find_path(start, goal, algorithm="optimal")
        funnel = mesh.find_path(start, goal, algorithm="funnel")
        if math.isinf(best):
            assert not optimal and not funnel
            assert optimal.reason == funnel.reason == "unreachable"
            continue
        assert optimal and funnel
        assert optimal.cost == pytest.approx(best, abs=1e-6)
        assert optimal.cost == pytest.approx(path_length(optimal.path), abs=1e-9)
        assert funnel.cost == pytest.approx(path_length(funnel.path), abs=1e-9)
        assert funnel.cost >= optimal.cost - 1e-9
        assert_path_inside(optimal.path, walk, start, goal)
        assert_path_inside(funnel.path, walk, start, goal)


@settings(max_examples=12)
@given(seeds)
def test_optimal_matches_visibility_graph_on_polygon_scenes(seed: int) -> None:
    walk = polygon_scene(seed)
    check_against_oracle(NavMesh.from_geometry(walk), walk, np.random.default_rng(seed), 4)


def optimal_matches_visibility_graph_on_grid_meshes(seed: int) -> None:
    # Grid meshes are full of collinear edges and split vertices: the hard cases for
    # Polyanya's interval projection.
    walkable = pinch_free_grid(seed)
    walk = cells_geometry(walkable)
    check_against_oracle(NavMesh.from_grid(walkable), walk, np.random.default_rng(seed), 4)


@settings(max_examples=4)
@given(seeds)
def test_optimal_matches_visibility_graph_on_grid_meshes(seed: int) -> None:
    optimal_matches_visibility_graph_on_grid_meshes(seed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=12)
@given(seeds)
def test_optimal_matches_visibility_graph_on_grid_meshes_many(seed: int) -> None:
    optimal_matches_visibility_graph_on_grid_meshes(seed)


def test_optimal_through_a_vertex_shared_by_four_polygons() -> None:
    # Four squares around (1, 1): the straight diagonal passes exactly through it.
    vertices = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)]
    squares = [[0, 1, 4, 3], [1, 2, 5, 4], [3, 4, 7, 6], [4, 5, 8, 7]]
    mesh = NavMesh(vertices, squares)
    for mode in ("optimal", "funnel"):
        result = mesh.find_path((0.5, 0.5), (1.5, 1.5), algorithm=mode)
        assert result.path.tolist() == [[0.5, 0.5], [1.5, 1.5]]
        assert result.cost == pytest.approx(math.sqrt(2))


def test_path_along_a_wall_turns_at_both_ends() -> None:
    # A U-shaped corridor on a grid: the path hugs the wall corners.
    walkable = np.array(
        [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]], dtype=bool
    )
    mesh = NavMesh.from_grid(walkable)
    result = mesh.find_path((0.5, 2.5), (4.5, 2.5), algorithm="optimal")
    assert result.path.tolist() == [[0.5, 2.5], [1.0, 3.0], [4.0, 3.0], [4.5, 2.5]]
    assert result.cost == pytest.approx(3 + 2 * math.sqrt(0.5))


def test_start_equals_goal_and_same_polygon() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 4, 6, 6)))
    for mode in ("funnel", "optimal"):
        same = mesh.find_path((1, 1), (1, 1), algorithm=mode)
        assert same.path.tolist() == [[1.0, 1.0]] and same.cost == 0.0 and same
        # A corner of the hole: on the boundary, still on the mesh.
        corner = mesh.find_path((4, 4), (6, 6), algorithm=mode)
        assert corner and corner.cost == pytest.approx(4.0)
        assert corner.path[0].tolist() == [4.0, 4.0] and corner.path[-1].tolist() == [6.0, 6.0]


def test_funnel_is_longer_on_a_misleading_corridor() -> None:
    # Long thin triangles make centroid distances a poor guide: the funnel's corridor
    # can differ from the optimal one; it is still a valid path and never shorter.
    walk = polygon_scene(7, holes=14)
    mesh = NavMesh.from_geometry(walk)
    rng = np.random.default_rng(3)
    points = sample_points(walk, rng, 40)
    ratios = []
    for start, goal in zip(points[:20], points[20:], strict=True):
        optimal = mesh.find_path(start, goal, algorithm="optimal")
        funnel = mesh.find_path(start, goal, algorithm="funnel")
        assert bool(optimal) == bool(funnel)
        if optimal:
            assert_path_inside(funnel.path, walk, start, goal)
            ratios.append(funnel.cost / optimal.cost)
    assert min(ratios) >= 1.0 - 1e-12


def test_unreachable_goal_is_falsy_and_partial_reaches_nearest_point() -> None:
    two_rooms = shapely.union_all([box(0, 0, 4, 4), box(6, 0, 10, 4)])
    mesh = NavMesh.from_geometry(two_rooms)
    for mode in ("funnel", "optimal"):
        nothing = mesh.find_path((1, 1), (9, 1), algorithm=mode)
        assert not nothing and nothing.reason == "unreachable"
        assert nothing.path.shape == (0, 2) and math.isinf(nothing.cost)
        part = mesh.find_path((1, 1), (9, 1), algorithm=mode, partial=True)
        assert not part and part.reason == "unreachable"
        assert part.path[0].tolist() == [1.0, 1.0]
        assert part.path[-1].tolist() == pytest.approx([4.0, 1.0])
        assert part.cost == pytest.approx(3.0)


def test_off_mesh_positions_error_or_snap() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 4, 6, 6)))
    with pytest.raises(ValueError, match=r"start \(5.0, 5.0\) is off the mesh; pass snap=True"):
        mesh.find_path((5, 5), (1, 1))
    with pytest.raises(ValueError, match=r"goal \(-1.0, 1.0\) is off the mesh"):
        mesh.find_path((1, 1), (-1, 1), algorithm="optimal")
    for mode in ("funnel", "optimal"):
        result = mesh.find_path((5, 4.5), (1, 12), algorithm=mode, snap=True)
        assert result
        assert result.path[0].tolist() == pytest.approx([5.0, 4.0])
        assert result.path[-1].tolist() == pytest.approx([1.0, 10.0])


def test_max_expansions_gives_up() -> None:
    walkable = pinch_free_grid(5, n=30)
    mesh = NavMesh.from_grid(walkable)
    free = np.argwhere(walkable)
    start, goal = free[0][::-1] + 0.5, free[-1][::-1] + 0.5
    for mode in ("funnel", "optimal"):
        full = mesh.find_path(start, goal, algorithm=mode)
        assert full.expanded > 1
        capped = mesh.find_path(start, goal, algorithm=mode, max_expansions=1)
        assert not capped and capped.reason == "max_expansions"
        assert capped.expanded <= 1


@pytest.mark.parametrize("algorithm", ["funnel", "optimal"])
def test_partial_after_max_expansions_leads_toward_the_goal(algorithm: str) -> None:
    walkable = pinch_free_grid(5, n=30)
    mesh = NavMesh.from_grid(walkable)
    free = np.argwhere(walkable)
    start, goal = free[0][::-1] + 0.5, free[-1][::-1] + 0.5
    capped = mesh.find_path(start, goal, algorithm=algorithm, max_expansions=3, partial=True)
    assert not capped and capped.reason == "max_expansions"
    assert capped.path[0].tolist() == pytest.approx(start.tolist())
    end = capped.path[-1]
    # it got somewhere, closer to the goal than the start is, along a path on the mesh
    assert np.hypot(*(end - goal)) < np.hypot(*(start - goal))
    assert capped.cost == pytest.approx(float(np.hypot(*np.diff(capped.path, axis=0).T).sum()))
    assert mesh.locate(capped.path).min() >= 0
    # the same limit without partial: no path
    assert mesh.find_path(start, goal, algorithm=algorithm, max_expansions=3).path.shape == (0, 2)


def test_navmesh_refuses_options_its_algorithms_do_not_take() -> None:
    mesh = NavMesh.from_grid(pinch_free_grid(5, n=10))
    with pytest.raises(
        UnsupportedOptionError,
        match=r"NavMesh.find_path\(algorithm='optimal'\) "
        r"does not take weight; it takes max_expansions, partial \(and snap, radius, filter\)",
    ):
        mesh.find_path((0.5, 0.5), (1.5, 0.5), algorithm="optimal", weight=2.0)
    with pytest.raises(TypeError, match=r"partial must be True or False; got 'yes'"):
        mesh.find_path((0.5, 0.5), (1.5, 0.5), partial="yes")
    with pytest.raises(ValueError, match=r"algorithm must be one of 'funnel', 'optimal'"):
        mesh.find_path((0.5, 0.5), (1.5, 0.5), algorithm="astar")


def test_corridor_to_another_island_is_a_falsy_result_with_the_reason() -> None:
    apart = NavMesh(
        [(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1)],
        [[0, 1, 2, 3], [4, 5, 6, 7]],
    )
    none = apart.corridor((0.5, 0.5), (2.5, 0.5))
    assert isinstance(none, PathResult) and not none
    assert none.reason == "unreachable" and none.path.tolist() == [] and none.cost == math.inf
    same = apart.corridor((0.2, 0.5), (0.8, 0.5))
    assert same and same.path.tolist() == [0] and same.expanded == 0  # in sight: no search


def test_corridor_is_a_chain_of_neighbours() -> None:
    walk = polygon_scene(11)
    mesh = NavMesh.from_geometry(walk)
    start, goal = sample_points(walk, np.random.default_rng(1), 2)
    found = mesh.corridor(start, goal)
    assert found and found.reason is None and found.cost >= float(np.hypot(*(goal - start))) - 1e-9
    corridor = found.path
    neighbours = mesh.polygon_neighbors
    assert corridor[0] == mesh.locate(start) and corridor[-1] == mesh.locate(goal)
    for a, b in itertools.pairwise(corridor):
        assert b in neighbours[a]


@settings(max_examples=10)
@given(seeds)
def test_locate_and_nearest_point_agree_with_shapely(seed: int) -> None:
    walk = polygon_scene(seed)
    mesh = NavMesh.from_geometry(walk)
    rng = np.random.default_rng(seed)
    points = rng.uniform(-20, 120, (300, 2))
    found = mesh.locate(points)
    shapes = mesh.shapes
    inside = shapely.covers(walk, shapely.points(points))
    np.testing.assert_array_equal(found >= 0, inside)
    hit = found >= 0
    assert shapely.covers(shapes[found[hit]], shapely.points(points[hit])).all()
    near = mesh.nearest_point(points)
    np.testing.assert_array_equal(near[hit], points[hit])
    expected = shapely.distance(walk, shapely.points(points))
    got = np.sqrt(((near - points) ** 2).sum(axis=1))
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert (mesh.locate(near) >= 0).all()


@settings(max_examples=10)
@given(seeds)
def test_raycast_agrees_with_shapely(seed: int) -> None:
    walk = polygon_scene(seed)
    mesh = NavMesh.from_geometry(walk)
    rng = np.random.default_rng(seed)
    starts = sample_points(walk, rng, 20)
    ends = rng.uniform(-20, 120, (20, 2))
    for s, e in zip(starts, ends, strict=True):
        ray = mesh.raycast(s, e)
        segment = shapely.LineString([s, e])
        if shapely.covers(walk, segment):
            assert not ray.hit and ray.fraction == 1.0
            continue
        assert ray.hit
        # The part before the hit is on the mesh; a little further is not.
        assert shapely.covers(walk.buffer(1e-9), shapely.LineString([s, ray.point]))
        beyond = s + min(ray.fraction + 1e-6, 1.0) * (e - s)
        piece = shapely.LineString([s, beyond])
        assert not shapely.covers(walk, piece)


def test_raycast_reports_the_polygons_crossed() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    inside = mesh.raycast((0.5, 0.5), (1.5, 0.5))
    assert not inside.hit and inside.polygons.tolist() == [0, 1]
    assert inside.point.tolist() == [1.5, 0.5]
    up = mesh.raycast((0.5, 0.5), (0.5, 3.0))
    assert up.hit and up.fraction == pytest.approx(0.2) and up.polygons.tolist() == [0]
    with pytest.raises(ValueError, match=r"start .* is off the mesh"):
        mesh.raycast((5, 5), (0, 0))


def test_threads_share_one_mesh() -> None:
    walk = polygon_scene(4)
    mesh = NavMesh.from_geometry(walk)
    points = sample_points(walk, np.random.default_rng(4), 40)
    pairs = list(zip(points[:20], points[20:], strict=True))
    expected = [mesh.find_path(s, g, algorithm="optimal").cost for s, g in pairs]
    with ThreadPoolExecutor(4) as pool:
        got = list(
            pool.map(lambda p: mesh.find_path(p[0], p[1], algorithm="optimal").cost, pairs * 3)
        )
    assert got == expected * 3


def test_pickle_round_trip() -> None:
    walkable = pinch_free_grid(2)
    mesh = NavMesh.from_grid(walkable)
    copy = pickle.loads(pickle.dumps(mesh))
    assert copy.num_polygons == mesh.num_polygons
    np.testing.assert_array_equal(copy.vertices, mesh.vertices)
    free = np.argwhere(walkable)[:, ::-1] + 0.5
    a = mesh.find_path(free[0], free[-1], algorithm="optimal")
    b = copy.find_path(free[0], free[-1], algorithm="optimal")
    assert a
    np.testing.assert_array_equal(a.path, b.path)


def test_inputs_are_not_changed_and_views_are_read_only() -> None:
    start = np.array([1.0, 1.0])
    points = np.array([[1.0, 1.0], [20.0, 1.0]])
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
    mesh.find_path(start, (9, 9))
    mesh.nearest_point(points)
    assert start.tolist() == [1.0, 1.0] and points.tolist() == [[1.0, 1.0], [20.0, 1.0]]
    with pytest.raises(ValueError):
        mesh.vertices[0, 0] = 3.0


def test_optimal_passes_through_a_wall_corner_on_its_straight_line() -> None:
    # Issue 20's reproducer: the shortest path runs from one wall corner (6, 2) straight
    # through another (5, 5) to a third (4, 8). The interval seen through (5, 5) shrinks
    # to that single corner point, which used to be dropped (cost 9.6405 instead of the
    # optimal 8.7388, checked against the visibility-graph oracle).
    rows = [".........", ".........", "......#..", ".........", ".........",
            ".##..#...", "..##.#...", "...#.#...", ".........", "........."]
    walkable = np.array([[c == "." for c in r] for r in rows])
    mesh = NavMesh.from_grid(walkable)
    start, goal = np.array([6.5, 1.5]), np.array([2.5, 7.5])
    best = oracle_length(cells_geometry(walkable), start, goal)
    result = mesh.find_path(tuple(start), tuple(goal), algorithm="optimal")
    assert result.cost == pytest.approx(best, abs=1e-9)
    assert result.cost == pytest.approx(8.738768882709854, abs=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_optimal_matches_visibility_graph_between_cell_centres(seed: int) -> None:
    optimal_matches_visibility_graph_between_cell_centres(seed)


@pytest.mark.slow  # 32 more seeds: `pytest -m slow`
@pytest.mark.parametrize("seed", range(8, 40))
def test_optimal_matches_visibility_graph_between_cell_centres_many(seed: int) -> None:
    optimal_matches_visibility_graph_between_cell_centres(seed)


def optimal_matches_visibility_graph_between_cell_centres(seed: int) -> None:
    # Cell centres line up with wall corners, so straight lines through corners (the
    # degenerate intervals above) are common here, unlike with random float points.
    walkable = pinch_free_grid(seed, n=16)
    walk = cells_geometry(walkable)
    mesh = NavMesh.from_grid(walkable)
    rng = np.random.default_rng(seed)
    free = np.argwhere(walkable)[:, ::-1] + 0.5
    for a, b in rng.integers(0, len(free), (8, 2)):
        best = oracle_length(walk, free[a], free[b])
        result = mesh.find_path(tuple(free[a]), tuple(free[b]), algorithm="optimal")
        if np.isinf(best):
            assert not result
        else:
            assert result.cost == pytest.approx(best, abs=1e-6)


@settings(max_examples=10)
@given(seeds)
def test_funnel_takes_the_straight_line_when_the_goal_is_in_sight(seed: int) -> None:
    # Issue 20: a goal in sight (straight line 17.9) got a funnel path of 47.3. Grid
    # meshes split sides at their neighbours' corners, so the raycast must pick, among
    # collinear edges, the one the segment really crosses.
    walkable = pinch_free_grid(seed)
    walk = cells_geometry(walkable)
    mesh = NavMesh.from_grid(walkable)
    points = sample_points(walk, np.random.default_rng(seed), 24)
    for start, goal in zip(points[:12], points[12:], strict=True):
        seen = bool(walk.covers(shapely.LineString([start, goal])))
        hit = mesh.raycast(start, goal)
        if seen:
            assert not hit.hit
            funnel = mesh.find_path(start, goal)
            assert funnel.path.tolist() == [start.tolist(), goal.tolist()]
            assert funnel.cost == pytest.approx(math.dist(start, goal))
            assert funnel.expanded == 0
        else:
            assert hit.hit
            stop = shapely.LineString([start, hit.point])
            assert walk.buffer(1e-9).covers(stop)


def test_funnel_corridor_follows_the_portals_not_the_polygon_centres() -> None:
    # A long thin strip whose centre is far from the way through: by centres the
    # corridor went round; by points on the portals it goes through the strip's end.
    rows = ["...........", ".#########.", ".#.......#.", ".#.#####.#.", "...#...#...",
            "####.#.####", "...........", ".#########.", "..........."]  # fmt: skip
    walkable = np.array([[c == "." for c in r] for r in rows])
    mesh = NavMesh.from_grid(walkable)
    walk = cells_geometry(walkable)
    rng = np.random.default_rng(3)
    points = sample_points(walk, rng, 60)
    for start, goal in zip(points[:30], points[30:], strict=True):
        funnel = mesh.find_path(start, goal)
        best = mesh.find_path(start, goal, algorithm="optimal")
        if not best:
            assert not funnel and funnel.reason == "unreachable"
            continue
        assert best.cost - 1e-9 <= funnel.cost <= 1.3 * best.cost
        assert_path_inside(funnel.path, walk, start, goal)
        corridor = mesh.corridor(start, goal)
        assert np.isin(corridor.path[[0]], mesh.polygons_at(start)).all()
        assert np.isin(corridor.path[[-1]], mesh.polygons_at(goal)).all()
        nbrs = mesh.polygon_neighbors
        assert all(b in nbrs[a] for a, b in zip(corridor.path[:-1], corridor.path[1:], strict=True))


def test_optimal_does_not_walk_round_a_corner_for_ever(movingai: Path) -> None:
    # After corner points were kept (commit 4a17d4b), a point interval went round the
    # fan of polygons at its corner at the same cost, for ever: seconds and gigabytes
    # on dao/orz900d. Each polygon is now entered through a corner once per cost.
    from pathcraft.io import read_scen, read_walkable

    walkable = read_walkable(movingai / "maps" / "dao" / "orz900d.map")
    scen = read_scen(movingai / "scen" / "dao" / "orz900d.map.scen")
    mesh = NavMesh.from_grid(walkable)
    for i, expected in ((1476, 556.6678909811721), (2584, 976.1828225734773)):
        start, goal = scen.starts[i][::-1] + 0.5, scen.goals[i][::-1] + 0.5
        best = mesh.find_path(start, goal, algorithm="optimal", max_expansions=200_000)
        assert best and best.cost == pytest.approx(expected, rel=1e-12)
        assert best.cost <= scen.optimal[i] + 1e-9
