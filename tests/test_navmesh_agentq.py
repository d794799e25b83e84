"""The mesh queries for agents (random points, raycast normals, distance to wall, move
along the surface), against shapely as the oracle on meshes built three ways."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
import shapely
from _meshes import HOLED_CELLS, cells_area
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from shapely import box

from pathcraft import NavMesh
from pathcraft.navmesh import QueryFilter

TOL = 1e-9

_ROOMS = (
    box(0, 0, 20, 10)
    .difference(box(4, 2, 6, 8))
    .difference(shapely.Polygon([(10, 3), (14, 3), (12, 7)]))
)


def _scene(kind: str) -> tuple[NavMesh, Any]:
    """A mesh and its walkable area, made independently of the mesh."""
    if kind == "holes":
        return NavMesh.from_geometry(_ROOMS), _ROOMS
    if kind == "grid":
        return NavMesh.from_grid(HOLED_CELLS), cells_area(HOLED_CELLS)
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    rock = box(8, 3, 11, 6)
    mesh.add_obstacle(rock)
    return mesh, box(0, 0, 20, 10).difference(rock)


KINDS = ["holes", "grid", "carved"]


def _pairs(mesh: NavMesh, n: int, reach: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    starts = mesh.random_points(n, seed=rng)
    ends = starts + rng.uniform(-reach, reach, size=(n, 2))
    return starts, ends


def _cells_pvalue(pts: np.ndarray, region: Any, k: int = 6) -> float:
    """The chi-square p-value of ``pts`` against uniform over ``region``, binned by a
    ``k`` x ``k`` grid over its bounds (cells expecting fewer than 5 merged)."""
    x0, y0, x1, y1 = region.bounds
    ex, ey = np.linspace(x0, x1, k + 1), np.linspace(y0, y1, k + 1)
    lo_x, lo_y = np.meshgrid(ex[:-1], ey[:-1], indexing="ij")
    hi_x, hi_y = np.meshgrid(ex[1:], ey[1:], indexing="ij")
    cells = shapely.box(lo_x.ravel(), lo_y.ravel(), hi_x.ravel(), hi_y.ravel())
    share = shapely.area(shapely.intersection(cells, region))
    ix = np.clip(np.searchsorted(ex, pts[:, 0]) - 1, 0, k - 1)
    iy = np.clip(np.searchsorted(ey, pts[:, 1]) - 1, 0, k - 1)
    counts = np.bincount(ix * k + iy, minlength=k * k)
    expected = share / share.sum() * pts.shape[0]
    big = expected >= 5
    observed = np.append(counts[big], counts[~big].sum())
    expected = np.append(expected[big], expected[~big].sum())
    keep = expected > 0
    assert keep.sum() >= 4
    want = expected[keep] * observed.sum() / expected[keep].sum()
    return float(stats.chisquare(observed[keep], want).pvalue)


# ------------------------------------------------------------------ random points


@pytest.mark.parametrize("kind", KINDS)
def test_random_points_uniform_by_area(kind: str) -> None:
    mesh, area = _scene(kind)
    pts = mesh.random_points(40_000, seed=1)
    assert pts.shape == (40_000, 2)
    assert shapely.covers(area.buffer(TOL), shapely.points(pts)).all()
    where = mesh.locate(pts)
    assert (where >= 0).all()
    counts = np.bincount(where, minlength=mesh.num_polygons)
    areas = shapely.area(mesh.shapes)
    expected = areas / areas.sum() * pts.shape[0]
    assert expected.min() >= 5
    assert stats.chisquare(counts, expected).pvalue > 1e-3
    assert _cells_pvalue(pts, area, k=8) > 1e-3  # and uniform inside the polygons


def test_random_points_are_reproducible_and_take_generators() -> None:
    mesh, _ = _scene("holes")
    a = mesh.random_points(50, seed=3)
    assert np.array_equal(a, mesh.random_points(50, seed=3))
    assert not np.array_equal(a, mesh.random_points(50, seed=4))
    gen = np.random.default_rng(3)
    assert np.array_equal(mesh.random_points(50, seed=gen), a)
    assert mesh.random_point(seed=3).tolist() == mesh.random_points(1, seed=3)[0].tolist()
    assert mesh.random_points(0, seed=3).shape == (0, 2)


def test_random_points_skip_excluded_polygons() -> None:
    mesh, _ = _scene("holes")
    banned = list(range(0, mesh.num_polygons, 2))
    pts = mesh.random_points(2000, seed=0, filter=QueryFilter(excluded=banned))
    assert not np.isin(mesh.locate(pts), banned).any()
    with pytest.raises(ValueError, match="no walkable area"):
        mesh.random_points(3, filter=QueryFilter(excluded=range(mesh.num_polygons)))


@pytest.mark.parametrize("kind", KINDS)
def test_random_points_around_uniform_in_the_disc(kind: str) -> None:
    mesh, area = _scene(kind)
    centre = mesh.random_point(seed=11)
    reach = 3.0
    pts = mesh.random_points(20_000, seed=12, around=centre, max_distance=reach)
    disc = shapely.Point(centre).buffer(reach, quad_segs=256)
    assert shapely.covers(area.buffer(TOL), shapely.points(pts)).all()
    assert (np.hypot(*(pts - centre).T) <= reach).all()
    where = mesh.locate(pts)
    part = mesh.parts.component
    assert (part[where] == part[mesh.locate(centre)]).all()
    region = shapely.union_all(mesh.shapes[part == part[mesh.locate(centre)]]).intersection(disc)
    assert _cells_pvalue(pts, region) > 1e-3


def test_random_points_around_keeps_to_the_centres_part_and_checks_input() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1), (2, 0), (3, 0), (3, 1), (2, 1)],
                   [[0, 1, 2, 3], [4, 5, 6, 7]])  # fmt: skip
    pts = mesh.random_points(500, seed=0, around=(0.9, 0.5), max_distance=2.0)
    assert (mesh.locate(pts) == 0).all()
    with pytest.raises(ValueError, match=r"around \(5.0, 5.0\) is off the mesh"):
        mesh.random_points(2, around=(5, 5), max_distance=1.0)
    with pytest.raises(ValueError, match="around needs max_distance"):
        mesh.random_points(2, around=(0.5, 0.5))
    with pytest.raises(ValueError, match="max_distance needs around"):
        mesh.random_points(2, max_distance=1.0)
    with pytest.raises(ValueError, match="max_distance must be"):
        mesh.random_points(2, around=(0.5, 0.5), max_distance=-1.0)
    with pytest.raises(ValueError, match="only in polygons the filter excludes"):
        mesh.random_points(2, around=(0.5, 0.5), max_distance=1.0,
                           filter=QueryFilter(excluded=[0]))  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n": -1}, ValueError, "n must be >= 0"),
        ({"n": 2.5}, TypeError, "n must be an integer"),
        ({"n": 2, "seed": "x"}, TypeError, "seed must be"),
        ({"n": 2, "seed": -3}, ValueError, "seed must be >= 0"),
    ],
)
def test_random_points_bad_input(kwargs: dict[str, Any], error: type, match: str) -> None:
    mesh, _ = _scene("grid")
    with pytest.raises(error, match=match):
        mesh.random_points(**kwargs)


# ------------------------------------------------------------------ raycast


@pytest.mark.parametrize("kind", KINDS)
def test_raycast_against_boundary_intersection(kind: str) -> None:
    mesh, area = _scene(kind)
    boundary = area.boundary
    starts, ends = _pairs(mesh, 300, 8.0, seed=5)
    hits = 0
    for s, e in zip(starts, ends, strict=True):
        ray = mesh.raycast(s, e)
        seg = shapely.LineString([s, e])
        crossing = shapely.get_coordinates(shapely.intersection(seg, boundary))
        if not ray.hit:
            assert area.buffer(TOL).covers(seg)
            assert ray.point.tolist() == e.tolist() and ray.normal.tolist() == [0.0, 0.0]
            continue
        hits += 1
        first = np.sqrt(((crossing - s) ** 2).sum(axis=1)).min()
        length = float(np.hypot(*(e - s)))
        assert ray.fraction * length == pytest.approx(first, abs=1e-7)
        assert boundary.distance(shapely.Point(ray.point)) < 1e-7
        assert np.hypot(*ray.normal) == pytest.approx(1.0)
        assert float(np.dot(ray.normal, e - s)) < 0  # the wall faces the ray
        assert area.buffer(TOL).covers(shapely.Point(ray.point + 1e-6 * ray.normal))
        # the polygons crossed: from the start's, neighbour to neighbour, to the hit's
        polys = ray.polygons.tolist()
        assert polys[0] == mesh.locate(s)
        nbrs = mesh.polygon_neighbors
        assert all(b in nbrs[a] for a, b in itertools.pairwise(polys))
        assert mesh.shapes[polys[-1]].distance(shapely.Point(ray.point)) < 1e-9
    assert 30 < hits < 300


def test_raycast_filter_makes_excluded_polygons_walls() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    ray = mesh.raycast((0.5, 0.5), (1.5, 0.5), filter=QueryFilter(excluded=[1]))
    assert ray.hit and ray.point.tolist() == [1.0, 0.5] and ray.normal.tolist() == [-1.0, 0.0]
    assert not mesh.raycast((0.5, 0.5), (1.5, 0.5)).hit
    with pytest.raises(ValueError, match=r"start .* only in polygons the filter excludes"):
        mesh.raycast((1.5, 0.5), (0.5, 0.5), filter=QueryFilter(excluded=[1]))
    snapped = mesh.raycast((-1, 0.5), (0.5, 0.5), snap=True)
    assert not snapped.hit and snapped.polygons.tolist() == [0]


# ------------------------------------------------------------------ distance to wall


@pytest.mark.parametrize("kind", KINDS)
def test_distance_to_wall_against_boundary_distance(kind: str) -> None:
    mesh, area = _scene(kind)
    pts = mesh.random_points(500, seed=2)
    near = mesh.distance_to_wall(pts)
    want = shapely.distance(area.boundary, shapely.points(pts))
    np.testing.assert_allclose(near.distance, want, atol=1e-9)
    assert (shapely.distance(area.boundary, shapely.points(near.point)) < 1e-9).all()
    np.testing.assert_allclose(np.hypot(near.normal[:, 0], near.normal[:, 1]), 1.0)
    np.testing.assert_allclose(near.point + near.normal * near.distance[:, None], pts, atol=1e-9)
    capped = mesh.distance_to_wall(pts, max_distance=1.0)
    inside = want <= 1.0 - 1e-9
    np.testing.assert_allclose(capped.distance[inside], want[inside], atol=1e-9)
    assert np.isinf(capped.distance[want > 1.0 + 1e-9]).all()
    assert np.isnan(capped.point[want > 1.0 + 1e-9]).all()


def test_distance_to_wall_one_point_on_the_wall_and_filter() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    on = mesh.distance_to_wall((0.5, 0.0))
    assert on.distance == 0.0 and on.normal.tolist() == [0.0, 1.0]
    assert mesh.distance_to_wall((0.9, 0.5)).distance == pytest.approx(0.5)
    walled = mesh.distance_to_wall((0.9, 0.5), filter=QueryFilter(excluded=[1]))
    assert walled.distance == pytest.approx(0.1) and walled.point.tolist() == [1.0, 0.5]


@pytest.mark.parametrize(
    ("points", "kwargs", "error", "match"),
    [
        ((9, 9), {}, ValueError, r"points\[0\] \(9.0, 9.0\) is off the mesh"),
        ((np.nan, 0.5), {}, ValueError, "not finite"),
        ([(0.5, 0.5, 1)], {}, ValueError, "points must have shape"),
        ("ab", {}, TypeError, "points must be"),
        ((0.5, 0.5), {"max_distance": 0}, ValueError, "max_distance must be"),
        ((0.5, 0.5), {"max_distance": "far"}, TypeError, "max_distance must be a number"),
    ],
)
def test_distance_to_wall_bad_input(
    points: Any, kwargs: dict[str, Any], error: type, match: str
) -> None:
    mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
    with pytest.raises(error, match=match):
        mesh.distance_to_wall(points, **kwargs)


# ------------------------------------------------------------------ move along surface


@pytest.mark.parametrize("kind", KINDS)
def test_move_along_surface_stays_on_the_mesh(kind: str) -> None:
    mesh, area = _scene(kind)
    cover = area.buffer(1e-9)
    starts, ends = _pairs(mesh, 300, 3.0, seed=9)
    clear = 0
    for s, e in zip(starts, ends, strict=True):
        move = mesh.move_along_surface(s, e)
        assert cover.covers(shapely.Point(move.position))
        assert np.hypot(*(move.position - e)) <= np.hypot(*(s - e)) + 1e-12
        polys = move.polygons.tolist()
        assert polys[0] == mesh.locate(s)
        assert polys[-1] in mesh.polygons_at(move.position).tolist()
        if area.covers(shapely.LineString([s, e])):
            clear += 1
            assert move.reached and move.position.tolist() == e.tolist()
        elif move.reached:
            assert cover.covers(shapely.Point(e))
    assert 30 < clear < 300


@settings(max_examples=60, deadline=None)
@given(
    st.tuples(st.floats(0.01, 19.99), st.floats(0.01, 9.99)),
    st.tuples(st.floats(-3, 23), st.floats(-3, 13)),
)
def test_move_along_surface_never_leaves_property(s: tuple[float, float], e: Any) -> None:
    mesh, area = _scene("holes")
    if mesh.locate(s) < 0:
        return
    move = mesh.move_along_surface(s, e)
    assert area.buffer(1e-9).covers(shapely.Point(move.position))
    if move.reached:
        assert move.position.tolist() == list(map(float, e))


def test_move_along_surface_filter_and_bad_input() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    stopped = mesh.move_along_surface((0.5, 0.5), (1.5, 0.7), filter=QueryFilter(excluded=[1]))
    assert stopped.position.tolist() == [1.0, 0.7] and not stopped.reached
    assert mesh.move_along_surface((0.5, 0.5), (1.5, 0.7)).polygons.tolist() == [0, 1]
    with pytest.raises(ValueError, match=r"start \(3.0, 3.0\) is off the mesh"):
        mesh.move_along_surface((3, 3), (0.5, 0.5))
    with pytest.raises(ValueError, match=r"end .* is not finite"):
        mesh.move_along_surface((0.5, 0.5), (np.inf, 0.5))
    with pytest.raises(ValueError, match="start must be a position"):
        mesh.move_along_surface((0.5, 0.5, 0.5), (1, 1))
    assert mesh.move_along_surface((3, 0.5), (0.5, 0.5), snap=True).reached


def test_queries_follow_the_mesh_after_carving() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    assert mesh.distance_to_wall((5, 5)).distance == pytest.approx(5.0)
    assert not mesh.raycast((1, 5), (9, 5)).hit
    rock = mesh.add_obstacle(box(6, 4, 7, 6))
    assert mesh.distance_to_wall((5, 5)).distance == pytest.approx(1.0)
    assert mesh.raycast((1, 5), (9, 5)).point.tolist() == [6.0, 5.0]
    spawns = shapely.points(mesh.random_points(2000, seed=0))
    assert not shapely.contains_properly(box(6, 4, 7, 6), spawns).any()
    mesh.remove_obstacle(rock)
    assert mesh.distance_to_wall((5, 5)).distance == pytest.approx(5.0)
