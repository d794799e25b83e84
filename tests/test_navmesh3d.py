"""NavMesh3D: paths on the surface (checked against the source polygons), oracles
(the flat mesh on a level floor, a visibility graph on a tilted plane, scipy over a
densely sampled surface), floors over one another searched apart, the query contract
(options, sliced searches, batches), agents' queries, saving and agents."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from _mesh3d_scenes import (
    bridge_scene,
    flat,
    hills_scene,
    lifted,
    path_on_surface,
    plane_oracle,
    ramp_scene,
    slope,
    stairs_scene,
    storeys_scene,
    surface_oracle,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import box

import pathcraft
from pathcraft import NavMesh
from pathcraft._options import UnsupportedOptionError
from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D

SCENES = {
    "ramp": (ramp_scene, 0.0),
    "stairs": (stairs_scene, 0.5),
    "bridge": (bridge_scene, 0.0),
    "storeys": (storeys_scene, 0.5),
    "hills": (hills_scene, 0.0),
}


def _mesh(name: str) -> tuple[PolyMesh3D, NavMesh3D, float]:
    make, climb = SCENES[name]
    poly = make()
    return poly, NavMesh3D(poly, height_tolerance=climb), climb


@pytest.mark.parametrize("name", list(SCENES))
def test_every_path_lies_on_the_source_polygons(name: str) -> None:
    poly, mesh, climb = _mesh(name)
    pairs = 4 if name == "hills" else 12  # (the checker is slow on many polygons)
    pts = mesh.random_points(2 * pairs, seed=11)
    for a, b in zip(pts[:pairs], pts[pairs:], strict=True):
        result = mesh.find_path(a, b)
        assert result, (a, b, result.reason)
        assert np.allclose(result.path[0], a) and np.allclose(result.path[-1], b)
        assert path_on_surface(poly, result.path, climb), result.path.tolist()
        assert result.cost == pytest.approx(mesh.path_cost(result.path), abs=1e-12)
        assert result.cost >= float(np.linalg.norm(b - a)) - 1e-9
        # a vertical step never climbs more than the tolerance
        steps = np.abs(np.diff(result.path[:, 2]))[
            np.all(np.isclose(np.diff(result.path[:, :2], axis=0), 0), axis=1)
        ]
        assert (steps <= climb + 1e-9).all()


def test_a_level_floor_gives_the_flat_meshs_funnel_path() -> None:
    walk = box(0, 0, 20, 12).difference(box(5, 2, 8, 12)).difference(box(12, 0, 15, 9))
    flat_mesh = NavMesh.from_geometry(walk)
    mesh = NavMesh3D(lifted(flat_mesh, flat(2.5)))
    rng = np.random.default_rng(4)
    for _ in range(25):
        a, b = flat_mesh.random_point(seed=rng), flat_mesh.random_point(seed=rng)
        want = flat_mesh.find_path(a, b)
        got = mesh.find_path((*a, 2.5), (*b, 2.5))
        assert got.cost == pytest.approx(want.cost, rel=1e-9)
        assert np.allclose(got.path[:, 2], 2.5)
        best = flat_mesh.find_path(a, b, algorithm="optimal").cost  # Polyanya: a lower bound
        assert got.cost >= best - 1e-9


def test_a_tilted_plane_against_the_visibility_graph_in_3d() -> None:
    walk = box(0, 0, 20, 12).difference(box(5, 2, 8, 12)).difference(box(12, 0, 15, 9))
    height = slope(1.0, dzdx=0.3, dzdy=-0.2)
    mesh = NavMesh3D(lifted(NavMesh.from_geometry(walk), height))
    rng = np.random.default_rng(8)
    ratios = []
    for _ in range(25):
        a, b = mesh.random_point(seed=rng), mesh.random_point(seed=rng)
        got = mesh.find_path(a, b)
        want = plane_oracle(walk, a, b, height)
        assert got.cost >= want - 1e-7
        ratios.append(got.cost / want)
    assert max(ratios) <= 1.15 and float(np.mean(ratios)) <= 1.03


def test_terrain_against_a_densely_sampled_surface() -> None:
    poly, mesh, _ = _mesh("hills")
    rng = np.random.default_rng(2)
    ratios = []
    for _ in range(6):
        a, b = mesh.random_point(seed=rng), mesh.random_point(seed=rng)
        got = mesh.find_path(a, b)
        want = surface_oracle(poly, a, b, lattice=6)
        ratios.append(got.cost / want)
    # the oracle is a path on the surface a little longer than the shortest; the funnel
    # pulled in the plane and lifted is not the shortest on a bumpy surface either
    assert min(ratios) >= 0.97 and max(ratios) <= 1.15, ratios


def test_ramp_and_stairs_exact() -> None:
    _, ramp, _ = _mesh("ramp")
    result = ramp.find_path((1, 2, 0), (13, 2, 3))
    assert result.path.tolist() == [[1, 2, 0], [4, 2, 0], [10, 2, 3], [13, 2, 3]]
    assert result.cost == pytest.approx(3 + math.hypot(6, 3) + 3)
    _, stairs, _ = _mesh("stairs")
    result = stairs.find_path((1, 1, 0), (12, 1, 3))
    assert result.cost == pytest.approx(11 + 3)  # 11 along, 6 risers of 0.5
    assert (np.diff(result.path[:, 2]) >= 0).all()
    # without the climb the steps are apart
    assert not NavMesh3D(stairs_scene()).find_path((1, 1, 0), (12, 1, 3))


def test_floors_over_one_another_are_searched_apart() -> None:
    _, mesh, _ = _mesh("bridge")
    under = mesh.find_path((1, 5, 0), (11, 5, 0))  # along the floor, under the bridge
    assert under.cost == pytest.approx(10.0) and np.allclose(under.path[:, 2], 0)
    over = mesh.find_path((6, 1, 3), (6, 9, 3))  # along the bridge, over the floor
    assert over.cost == pytest.approx(8.0) and np.allclose(over.path[:, 2], 3)
    # the same (x, y), 3 apart: the floor to the bridge goes round by the ramp
    up = mesh.find_path((6, 5, 0), (6, 5, 3))
    assert up.cost > 20 and up.path[:, 1].min() <= -6 + 1e-9
    assert mesh.locate((6, 5, 0.4)) != mesh.locate((6, 5, 2.6))
    _, storeys, _ = _mesh("storeys")
    climb = storeys.find_path((2, 8, 0), (2, 8, 3))
    assert climb.cost == pytest.approx(10 + 6 + 3 + 2 + math.hypot(14, 4))


def test_nearest_point_and_vertical_tolerance() -> None:
    _, mesh, _ = _mesh("bridge")
    assert mesh.nearest_point((6, 5, 1.0)).tolist() == [6, 5, 0]
    assert mesh.nearest_point((6, 5, 2.0)).tolist() == [6, 5, 3]
    assert mesh.locate((6, 5, 1.5 + 1.6)) >= 0 and mesh.locate((20, 5, 0)) == -1
    # off every polygon: the nearest point in 3-D
    assert mesh.nearest_point((13, 5, 0)).tolist() == [12, 5, 0]
    assert mesh.nearest_point([(13, 5, 0), (6, 5, 2.0)]).shape == (2, 3)
    with pytest.raises(ValueError, match="off the mesh"):
        mesh.find_path((1, 5, 0), (13, 5, 0))
    assert mesh.find_path((1, 5, 0), (13, 5, 0), snap=True).path[-1].tolist() == [12, 5, 0]


def test_raycast_along_the_surface() -> None:
    _, mesh, _ = _mesh("bridge")
    # along the bridge and off its side: it stops at the bridge's edge, at z = 3
    hit = mesh.raycast((6, 5, 3), (10, 5, 3))
    assert hit.hit and hit.point.tolist() == [7, 5, 3] and hit.normal.tolist() == [-1, 0, 0]
    assert hit.fraction == pytest.approx(0.25)
    # the same move on the floor under it goes through
    clear = mesh.raycast((6, 5, 0), (10, 5, 0))
    assert not clear.hit and clear.point.tolist() == [10, 5, 0] and len(clear.polygons) == 2
    _, ramp, _ = _mesh("ramp")
    up = ramp.raycast((2, 2, 0), (8, 2, 0))
    assert not up.hit and up.point.tolist() == [8, 2, 2]


def test_random_points_are_uniform_by_area() -> None:
    _, mesh, _ = _mesh("ramp")
    pts = mesh.random_points(20000, seed=5)
    on_ramp = ((pts[:, 0] > 4) & (pts[:, 0] < 10)).mean()
    ramp_area = 4 * math.hypot(6, 3)
    assert on_ramp == pytest.approx(ramp_area / (ramp_area + 32), abs=0.015)
    assert (mesh.locate(pts[:200]) >= 0).all()
    with pytest.raises(ValueError, match="seed"):
        mesh.random_point(seed=-1)


def test_contract_options_sliced_and_batches() -> None:
    _, mesh, _ = _mesh("storeys")
    a, b = (2, 8, 0), (2, 8, 3)
    full = mesh.find_path(a, b)
    search = mesh.start_search(a, b)
    steps = 0
    while search.step(2) == "in_progress":
        steps += 1
    assert steps > 1 and np.array_equal(search.result.path, full.path)
    assert search.result.cost == full.cost
    heavy = mesh.find_path(a, b, weight=2.0)
    assert full.cost <= heavy.cost <= 2 * full.cost + 1e-9
    capped = mesh.find_path(a, b, max_expansions=1, partial=True)
    assert not capped and capped.reason == "max_expansions" and len(capped.path) >= 1
    assert np.allclose(capped.path[0], a)
    nothing = mesh.find_path(a, b, max_expansions=1)
    assert not nothing and nothing.path.shape == (0, 3) and nothing.cost == math.inf
    with pytest.raises(UnsupportedOptionError, match="does not take tie_break"):
        mesh.find_path(a, b, tie_break="random")
    with pytest.raises(ValueError, match="algorithm must be one of"):
        mesh.find_path(a, b, algorithm="theta")  # type: ignore[arg-type]
    with pytest.raises(UnsupportedOptionError, match="does not take weight"):
        mesh.find_path(a, b, algorithm="optimal", weight=2.0)
    results = mesh.find_paths([a, (1, 1, 0)], [b, (9, 9, 0)])
    assert [r.cost for r in results] == [full.cost, pytest.approx(math.hypot(8, 8))]
    costs = mesh.path_costs([a, (1, 1, 0)], [b, (9, 9, 0)])
    assert costs.tolist() == [r.cost for r in results]
    assert mesh.find_path(a, a).path.tolist() == [[2, 8, 0]]


def test_unreachable_and_partial() -> None:
    _, mesh, _ = _mesh("stairs")
    apart = NavMesh3D(stairs_scene())  # no climb: every step its own floor
    result = apart.find_path((1, 1, 0), (12, 1, 3))
    assert not result and result.reason == "unreachable" and result.expanded == 0
    near = apart.find_path((1, 1, 0), (12, 1, 3), partial=True)
    assert not near and near.reason == "unreachable"
    assert near.path[-1].tolist() == [4, 1, 0]  # the reachable point nearest the goal
    assert mesh.reachable((1, 1, 0), (12, 1, 3)) and not apart.reachable((1, 1, 0), (12, 1, 3))
    labels, count = apart.components()
    assert count == 7 and labels.shape == (8,)  # the last step and the landing: one floor


def test_bad_input() -> None:
    with pytest.raises(TypeError, match="polymesh must be"):
        NavMesh3D("mesh")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="vertical_tolerance"):
        NavMesh3D(ramp_scene(), vertical_tolerance=0)
    with pytest.raises(ValueError, match="height_tolerance"):
        NavMesh3D(ramp_scene(), height_tolerance=-1)
    _, mesh, _ = _mesh("ramp")
    with pytest.raises(ValueError, match="position"):
        mesh.find_path((1, 2), (3, 2, 0))
    with pytest.raises(ValueError, match="not finite"):
        mesh.find_path((1, 2, math.nan), (3, 2, 0))
    with pytest.raises(TypeError, match="snap"):
        mesh.find_path((1, 2, 0), (3, 2, 0), snap="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one goal each"):
        mesh.find_paths([(1, 2, 0)], [(3, 2, 0), (3, 2, 0)])


def test_saving_and_pickling(tmp_path: object) -> None:
    from pathlib import Path

    from pathcraft import io

    _, mesh, _ = _mesh("storeys")
    target = Path(str(tmp_path)) / "level.npz"
    io.save(mesh, target)
    again = io.load(target)
    assert isinstance(again, NavMesh3D) and again.height_tolerance == 0.5
    a, b = (2, 8, 0), (2, 8, 3)
    assert np.array_equal(again.find_path(a, b).path, mesh.find_path(a, b).path)
    clone = pickle.loads(pickle.dumps(mesh))
    assert clone.find_path(a, b).cost == mesh.find_path(a, b).cost
    assert pathcraft.NavMesh3D is NavMesh3D and mesh.kind == "navmesh3d"


def test_plots() -> None:
    pytest.importorskip("matplotlib")
    _, mesh, _ = _mesh("bridge")
    result = mesh.find_path((6, 5, 0), (6, 5, 3))
    ax = mesh.plot(result)
    assert ax.name == "3d" and ax.get_legend().get_texts()[0].get_text().startswith("path: ")
    top = mesh.plot(result, view="top")
    assert top.get_aspect() == 1.0
    with pytest.raises(ValueError, match="view"):
        mesh.plot(view="side")  # type: ignore[arg-type]


def test_pursuer_climbs_the_stairs() -> None:
    from pathcraft.agents import Pursuer

    _, mesh, _ = _mesh("storeys")
    runner = Pursuer(mesh, (2, 8, 0), speed=2.0)
    for _ in range(40):
        if runner.step((2, 8, 3), dt=1.0) == "arrived":
            break
    assert runner.position == pytest.approx((2, 8, 3))
    assert len(runner.position) == 3


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_pairs_on_two_storeys(seed: int) -> None:
    poly, mesh, climb = _mesh("storeys")
    a, b = mesh.random_points(2, seed=seed)
    result = mesh.find_path(a, b)
    assert result and path_on_surface(poly, result.path, climb)
    assert result.cost == pytest.approx(mesh.path_cost(result.path))
    back = mesh.find_path(b, a)
    assert back.cost == pytest.approx(result.cost, rel=0.2)


def test_a_level_where_nobody_can_stand_builds_an_empty_mesh_refused_by_name() -> None:
    from pathcraft.navmesh3d import BuildConfig, NavMesh3D, build

    # a 6 x 6 floor, eroded away whole by an agent of radius 4
    vertices = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], dtype=float)
    triangles = np.array([[0, 1, 2], [0, 2, 3]])
    config = BuildConfig(cell_size=0.25, cell_height=0.1, agent_radius=4)
    mesh = build(vertices, triangles, config)
    assert mesh.num_polygons == 0
    with pytest.raises(ValueError, match="polymesh has no polygons"):
        NavMesh3D(mesh)
    # with a radius that leaves room, the same floor builds and searches
    small = build(vertices, triangles, BuildConfig(cell_size=0.25, cell_height=0.1))
    assert NavMesh3D(small).find_path((2, 2, 0), (4, 4, 0))
