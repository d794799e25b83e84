"""Hostile input on the navigation mesh: off-mesh links never make a path dearer than
ignoring them, ``corridor().cost`` is ``find_path().cost``, and the mesh's edges
(carved to nothing, a link to itself, a path off the mesh, coordinates far out) are
refused by name."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from _scenes import polygon_scene, sample_points
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcraft import NavMesh
from pathcraft.navmesh import QueryFilter

shapely = pytest.importorskip("shapely")
box = shapely.box


def _linked(seed: int, links: int, costly: bool) -> tuple[Any, NavMesh, NavMesh]:
    """A random scene (its walkable geometry), the mesh without links and the same
    mesh with ``links`` random links (random costs and ways), both with the same
    random area costs when ``costly``."""
    rng = np.random.default_rng(seed)
    walk = polygon_scene(seed, holes=6)
    bare, linked = NavMesh.from_geometry(walk), NavMesh.from_geometry(walk)
    if costly:
        costs = rng.choice([1.0, 1.0, 2.0, 5.0], size=bare.num_polygons)
        for mesh in (bare, linked):
            for c in (2.0, 5.0):
                mesh.set_area_cost(np.flatnonzero(costs == c), c)
    ends = sample_points(walk, rng, 2 * links)
    for a, b in zip(ends[::2], ends[1::2], strict=True):
        if (a == b).all():
            continue
        span = float(np.hypot(*(b - a)))
        cost = [None, 0.0, float(rng.uniform(0, 2)) * span][int(rng.integers(3))]
        linked.add_link(a, b, cost=cost, two_way=bool(rng.integers(2)))
    return walk, bare, linked


@settings(
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 2**31 - 1), st.integers(1, 4), st.booleans())
def test_a_link_never_makes_a_path_dearer_and_the_corridor_costs_the_path(
    seed: int, links: int, costly: bool
) -> None:
    walk, bare, linked = _linked(seed, links, costly)
    rng = np.random.default_rng(seed + 1)
    pts = sample_points(walk, rng, 8)
    for s, g in zip(pts[::2], pts[1::2], strict=True):
        without, with_links = bare.find_path(s, g), linked.find_path(s, g)
        if without:
            assert with_links and with_links.cost <= without.cost * (1 + 1e-9) + 1e-9
        if with_links:
            links_of = with_links.links  # type: ignore[attr-defined]
            price = linked.path_cost(with_links.path, links=links_of)
            assert with_links.cost == pytest.approx(price, rel=1e-9, abs=1e-9)
        for mesh, found in ((bare, without), (linked, with_links)):
            corridor = mesh.corridor(s, g)
            assert bool(corridor) == bool(found)
            assert corridor.cost == found.cost or not found
        ignored = linked.find_path(s, g, filter=QueryFilter(excluded_links=list(linked.links)))
        if ignored:  # the same query with every link excluded by its filter
            assert with_links and with_links.cost <= ignored.cost * (1 + 1e-9) + 1e-9


def test_the_issue_s_free_one_way_link_no_longer_makes_the_path_longer() -> None:
    walls = [box(56, 72, 74, 95), box(52, 15, 74, 29), box(60, 78, 83, 102),
             box(19, 48, 43, 52), box(30, 81, 42, 97), box(5, 42, 14, 53)]  # fmt: skip
    area = box(0, 0, 100, 100).difference(shapely.union_all(walls))
    bare, mesh = NavMesh.from_geometry(area), NavMesh.from_geometry(area)
    mesh.add_link((5, 20), (5, 60), cost=0.0, two_way=False)
    without, linked = bare.find_path((33, 7), (39, 64)), mesh.find_path((33, 7), (39, 64))
    assert linked.cost <= without.cost == pytest.approx(58.851, abs=1e-3)
    assert mesh.corridor((33, 7), (39, 64)).cost == linked.cost


def test_the_corridor_in_one_costly_polygon_costs_find_path_s_cost() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    mesh.set_area_cost([0], 4.0)
    assert mesh.num_polygons == 1
    assert mesh.corridor((3, 5), (6, 5)).cost == mesh.find_path((3, 5), (6, 5)).cost == 12.0
    mesh.add_link((19, 1), (19, 9))  # elsewhere: the same answer
    assert mesh.corridor((3, 5), (6, 5)).cost == mesh.find_path((3, 5), (6, 5)).cost == 12.0


def _carved() -> NavMesh:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    mesh.add_obstacle(box(-1, -1, 21, 11))
    assert mesh.num_polygons == 0
    return mesh


def test_a_mesh_carved_to_nothing_refuses_by_name() -> None:
    with pytest.raises(ValueError, match=r"^link end a \(1.0, 1.0\) is off the mesh: it has no"):
        _carved().add_link((1, 1), (2, 2))
    with pytest.raises(ValueError, match=r"^start has no nearest point on the mesh"):
        _carved().find_path((1, 1), (2, 2), snap=True)
    with pytest.raises(ValueError, match=r"^points has no nearest point on the mesh"):
        _carved().nearest_point([(1, 1)])
    with pytest.raises(ValueError, match=r"^start \(1.0, 1.0\) is off the mesh"):
        _carved().find_path((1, 1), (2, 2))


def test_a_link_from_a_point_to_itself_is_refused() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    with pytest.raises(ValueError, match=r"^a and b must be two points: a link from \(1.0, 1.0\)"):
        mesh.add_link((1, 1), (1, 1))
    assert len(mesh.links) == 0


def test_path_cost_of_a_path_off_the_mesh_is_refused() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    with pytest.raises(ValueError, match=r"^path\[0\] = \(30.0, 30.0\) is off the mesh"):
        mesh.path_cost([(30, 30), (40, 40)])
    with pytest.raises(ValueError, match=r"^path\[1\] = \(5.0, 15.0\) is off the mesh.*\(x, y\)"):
        mesh.path_cost([(1, 1), (5, 15)])  # (15, 5) is on it: the swap hint
    assert mesh.path_cost([(1, 1), (4, 5)]) == 5.0


@pytest.mark.parametrize(
    "geometry",
    [
        box(0, 0, 1e300, 1e300),
        box(0, 0, 1e300, 1e300).difference(box(1e299, 0, 2e299, 9e299)),
        box(-2e75, 0, 0, 1),
    ],
)
def test_coordinates_far_out_are_refused_by_name(geometry: Any) -> None:
    with pytest.raises(ValueError, match=r"^walkable holds the point .* too far out"):
        NavMesh.from_geometry(geometry)


def test_vertices_far_out_are_refused_and_near_the_limit_answer_finite() -> None:
    with pytest.raises(ValueError, match=r"^vertices holds the point \(1e\+300, 0.0\)"):
        NavMesh([(0, 0), (1e300, 0), (1e300, 1e300)], [[0, 1, 2]])
    mesh = NavMesh.from_geometry(box(0, 0, 1e75, 1e75).difference(box(1e74, 0, 2e74, 9e74)))
    res = mesh.find_path((1, 1), (9e74, 9e74))
    assert res and np.isfinite(res.cost) and res.cost > np.hypot(9e74, 9e74)


def test_a_radius_beyond_the_extent_is_refused_by_name() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 20, 10))
    with pytest.raises(
        ValueError, match=r"^radius must be a finite number >= 0 .* at most 1e\+75"
    ):
        mesh.find_path((1, 1), (2, 2), radius=1e300)
