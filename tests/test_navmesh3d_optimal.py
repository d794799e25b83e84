"""NavMesh3D's ``algorithm="optimal"`` (Polyanya over the polygons seen from above,
walking their 3-D adjacency): on one floor, the flat mesh's optimal length and a
visibility graph's (shapely and scipy, written here); on a tilted plane, the shortest
seen from above and within ``1 / cos`` of the slope of the shortest in 3-D; floors over
one another searched apart; the query contract. On RecastDemo's levels:
``test_navmesh3d_levels.py``."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
import shapely
from _mesh3d_scenes import (
    bridge_scene,
    flat,
    lifted,
    path_on_surface,
    ramp_scene,
    slope,
    stairs_scene,
    storeys_scene,
)
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely import box

from pathcraft import NavMesh
from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D

FloatArray = npt.NDArray[np.float64]
Height = Callable[[float, float], float]


def _seen_from_above(path: FloatArray) -> float:
    return float(np.sqrt((np.diff(path[:, :2], axis=0) ** 2).sum(axis=1)).sum())


def _visibility(walk: object, a: FloatArray, b: FloatArray, height: Height) -> tuple[float, float]:
    """The shortest path from ``a`` to ``b`` over the walkable area ``walk`` (shapely),
    seen from above and in 3-D on the plane ``z = height(x, y)`` (linear, so a straight
    line seen from above is straight on it): Dijkstra (scipy) over the graph of the
    area's corners, ``a`` and ``b``, two of them linked where the segment between them
    lies in the area."""
    pts = np.vstack((np.unique(shapely.get_coordinates(walk), axis=0), a[:2], b[:2]))
    n = pts.shape[0]
    i, j = np.triu_indices(n, 1)
    lines = shapely.linestrings(np.stack((pts[i], pts[j]), axis=1))
    seen = shapely.covers(shapely.buffer(walk, 1e-9), lines)
    i, j = i[seen], j[seen]
    p3 = np.column_stack((pts, [height(float(x), float(y)) for x, y in pts]))
    out = []
    for p in (pts, p3):
        w = np.sqrt(((p[i] - p[j]) ** 2).sum(axis=1))
        graph = csr_matrix((w, (i, j)), shape=(n, n))
        out.append(float(dijkstra(graph, directed=False, indices=n - 2)[n - 1]))
    return out[0], out[1]


def _rooms(seed: int) -> object:
    """A hall of 24 x 14 with pillars and walls at random places (seeded)."""
    rng = np.random.default_rng(seed)
    walk = box(0, 0, 24, 14)
    for _ in range(7):
        x, y = rng.uniform(1, 21), rng.uniform(1, 11)
        w, h = rng.uniform(0.5, 3), rng.uniform(0.5, 3)
        walk = walk.difference(box(x, y, x + w, y + h))
    return max(shapely.get_parts(walk), key=lambda part: part.area)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_floor_against_the_flat_meshs_optimal_and_a_visibility_graph(seed: int) -> None:
    walk = _rooms(seed)
    flat_mesh = NavMesh.from_geometry(walk)
    mesh = NavMesh3D(lifted(flat_mesh, flat(1.5)))
    rng = np.random.default_rng(seed)
    shorter = 0
    for _ in range(25):
        a, b = flat_mesh.random_point(seed=rng), flat_mesh.random_point(seed=rng)
        got = mesh.find_path((*a, 1.5), (*b, 1.5), algorithm="optimal")
        want, _ = _visibility(walk, a, b, flat(1.5))
        assert got and got.cost == pytest.approx(want, rel=1e-7)
        assert got.cost == pytest.approx(
            flat_mesh.find_path(a, b, algorithm="optimal").cost, rel=1e-9
        )
        assert np.allclose(got.path[0], (*a, 1.5)) and np.allclose(got.path[-1], (*b, 1.5))
        assert np.allclose(got.path[:, 2], 1.5)
        funnel = mesh.find_path((*a, 1.5), (*b, 1.5))
        assert funnel.cost >= got.cost - 1e-9
        shorter += funnel.cost > got.cost * (1 + 1e-6)
    assert shorter >= 1  # pillars the funnel's corridor goes round the long way


def test_a_tilted_plane_is_shortest_seen_from_above_and_within_the_slope_bound() -> None:
    walk = _rooms(4)
    dzdx, dzdy = 0.3, -0.2
    height = slope(1.0, dzdx=dzdx, dzdy=dzdy)
    bound = math.hypot(1.0, math.hypot(dzdx, dzdy))  # 1 / cos of the plane's slope
    mesh = NavMesh3D(lifted(NavMesh.from_geometry(walk), height))
    rng = np.random.default_rng(8)
    for _ in range(25):
        a, b = mesh.random_point(seed=rng), mesh.random_point(seed=rng)
        got = mesh.find_path(a, b, algorithm="optimal")
        above, in_3d = _visibility(walk, a, b, height)
        assert _seen_from_above(got.path) == pytest.approx(above, rel=1e-7)
        assert in_3d - 1e-7 <= got.cost <= bound * in_3d + 1e-9
        assert got.cost == pytest.approx(mesh.path_cost(got.path), abs=1e-12)
        assert _seen_from_above(mesh.find_path(a, b).path) >= above - 1e-9


@pytest.mark.parametrize(
    ("make", "climb"),
    [(ramp_scene, 0.0), (stairs_scene, 0.5), (bridge_scene, 0.0), (storeys_scene, 0.5)],
)
def test_paths_on_the_scenes_lie_on_the_surface_and_beat_the_funnel(
    make: Callable[[], PolyMesh3D], climb: float
) -> None:
    poly = make()
    mesh = NavMesh3D(poly, height_tolerance=climb)
    pts = mesh.random_points(24, seed=3)
    for a, b in zip(pts[:12], pts[12:], strict=True):
        got = mesh.find_path(a, b, algorithm="optimal")
        funnel = mesh.find_path(a, b)
        assert bool(got) == bool(funnel), (a, b)
        if not got:
            continue
        assert path_on_surface(poly, got.path, climb), got.path.tolist()
        assert _seen_from_above(got.path) <= _seen_from_above(funnel.path) + 1e-9
        assert got.cost <= funnel.cost + 1e-9  # flat floors and ramps crossed straight


def test_floors_over_one_another_are_searched_apart() -> None:
    mesh = NavMesh3D(bridge_scene())
    under = mesh.find_path((1, 5, 0), (11, 5, 0), algorithm="optimal")
    assert under.cost == pytest.approx(10.0) and np.allclose(under.path[:, 2], 0)
    over = mesh.find_path((6, 1, 3), (6, 9, 3), algorithm="optimal")
    assert over.cost == pytest.approx(8.0) and np.allclose(over.path[:, 2], 3)
    up = mesh.find_path((6, 5, 0), (6, 5, 3), algorithm="optimal")  # round by the ramp
    assert up.cost == pytest.approx(mesh.find_path((6, 5, 0), (6, 5, 3)).cost, rel=1e-9)
    assert up.path[:, 1].min() <= -6 + 1e-9
    stairs = NavMesh3D(stairs_scene(), height_tolerance=0.5)
    climb = stairs.find_path((1, 1, 0), (12, 1, 3), algorithm="optimal")
    assert climb.cost == pytest.approx(11 + 3)  # 11 along, 6 risers of 0.5
    apart = NavMesh3D(stairs_scene()).find_path((1, 1, 0), (12, 1, 3), algorithm="optimal")
    assert not apart and apart.reason == "unreachable"


def test_contract_sliced_partial_and_batches() -> None:
    mesh = NavMesh3D(storeys_scene(), height_tolerance=0.5)
    a, b = (2, 8, 0), (2, 8, 3)
    full = mesh.find_path(a, b, algorithm="optimal")
    assert full and full.expanded > 1
    search = mesh.start_search(a, b, algorithm="optimal")
    steps = 0
    while search.step(1) == "in_progress":
        steps += 1
    assert steps > 1 and np.array_equal(search.result.path, full.path)
    assert search.result.cost == full.cost and search.result.expanded == full.expanded
    capped = mesh.find_path(a, b, algorithm="optimal", max_expansions=1, partial=True)
    assert not capped and capped.reason == "max_expansions" and capped.expanded == 1
    assert np.allclose(capped.path[0], a) and capped.path.shape[0] >= 1
    toward = mesh.find_path(a, b, max_expansions=1, partial=True)  # the funnel's way
    assert np.allclose(capped.path[-1], toward.path[-1])
    assert capped.cost <= toward.cost + 1e-9
    nothing = mesh.find_path(a, b, algorithm="optimal", max_expansions=1)
    assert not nothing and nothing.path.shape == (0, 3) and nothing.cost == math.inf
    results = mesh.find_paths([a, (1, 1, 0)], [b, (9, 9, 0)], algorithm="optimal")
    assert [r.cost for r in results] == [full.cost, pytest.approx(math.hypot(8, 8))]
    costs = mesh.path_costs([a, (1, 1, 0)], [b, (9, 9, 0)], algorithm="optimal")
    assert costs.tolist() == [r.cost for r in results]
    assert mesh.find_path(a, a, algorithm="optimal").path.tolist() == [[2, 8, 0]]
    apart = NavMesh3D(stairs_scene())
    near = apart.find_path((1, 1, 0), (12, 1, 3), algorithm="optimal", partial=True)
    assert not near and near.reason == "unreachable"
    assert near.path[-1].tolist() == [4, 1, 0]  # the reachable point nearest the goal


def test_the_agents_space_searches_by_its_algorithm() -> None:
    walk = _rooms(1)
    flat_mesh = NavMesh.from_geometry(walk)
    mesh = NavMesh3D(lifted(flat_mesh, flat(1.5)))
    rng = np.random.default_rng(1)
    funnel_space, optimal_space = mesh.agent_space(), mesh.agent_space(algorithm="optimal")
    assert (funnel_space.algorithm, optimal_space.algorithm) == ("funnel", "optimal")
    differ = 0
    for _ in range(25):
        a, b = flat_mesh.random_point(seed=rng), flat_mesh.random_point(seed=rng)
        a3, b3 = (*a, 1.5), (*b, 1.5)
        for space, algorithm in ((funnel_space, "funnel"), (optimal_space, "optimal")):
            want = mesh.find_path(a3, b3, algorithm=algorithm)
            got = space.find_path(a3, b3)
            assert np.array_equal(got.path, want.path) and got.cost == want.cost
            search = space.start_search(a3, b3)
            while search.step(3) == "in_progress":
                pass
            assert np.array_equal(search.result.path, want.path)
            assert space.step_costs(space.nodes(got)).sum() == pytest.approx(got.cost)
        best, funnel = optimal_space.find_path(a3, b3), funnel_space.find_path(a3, b3)
        assert best.cost <= funnel.cost + 1e-9
        differ += best.cost < funnel.cost * (1 - 1e-6)
    assert differ >= 1  # the two spaces do not give the same paths
    with pytest.raises(ValueError, match=r"^algorithm must be one of 'funnel', 'optimal'"):
        mesh.agent_space(algorithm="jps")  # type: ignore[arg-type]
