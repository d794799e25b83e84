"""Per-query filters of navmeshes (issue 28): area costs and excluded polygons or links
for one query, the mesh unchanged. Checked against scipy's Dijkstra on the portal graph
built here (tests/_meshes.py), against a second mesh with the costs set on it, and
against a mesh built without the excluded polygons."""

from __future__ import annotations

import pickle
import threading
from typing import Any

import numpy as np
import pytest
import shapely
from _meshes import corridor_oracle, grid_mesh
from _scenes import polygon_scene, sample_points
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import box

from pathcraft import NavMesh
from pathcraft.navmesh import QueryFilter, _query

WALL = box(0, 0, 10, 10).difference(box(4, 2, 6, 8))


def _arrays_equal(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _portal_arrays(mesh: NavMesh) -> list[np.ndarray]:
    graph = mesh.portal_graph
    return [x.copy() for x in (*graph.graph.csr, graph.costs, graph.lengths)]


def _costed(mesh: NavMesh, costs: np.ndarray) -> NavMesh:
    """A second mesh of the same polygons with ``costs`` set on it."""
    other = NavMesh(mesh.vertices, mesh.polygons)
    for c in np.unique(costs):
        if c != 1.0:
            other.set_area_cost(np.flatnonzero(costs == c), float(c))
    return other


def _without(mesh: NavMesh, excluded: list[int]) -> tuple[NavMesh, np.ndarray]:
    """A mesh of the polygons not excluded, and the old id of each of its polygons."""
    keep = np.array([p for p in range(mesh.num_polygons) if p not in set(excluded)])
    polys = mesh.polygons
    return NavMesh(mesh.vertices, [polys[p] for p in keep]), keep


def test_two_units_query_one_mesh_each_its_own_optimum() -> None:
    rng = np.random.default_rng(28)
    mesh = grid_mesh(7)
    n = mesh.num_polygons
    before, portals = mesh.to_arrays(), _portal_arrays(mesh)
    units = [rng.choice([1.0, 1.0, 2.5, 8.0], size=n) for _ in range(2)]
    # one unit's filter given as an array, the other's as a mapping
    filters = [
        QueryFilter(area_costs=units[0]),
        QueryFilter(area_costs={int(p): float(c) for p, c in enumerate(units[1])}),
    ]
    seconds = [_costed(mesh, c) for c in units]
    checked = 0
    for _ in range(25):
        s, g = rng.uniform(0.05, 6.95, size=(2, 2))
        if mesh.locate(s) == mesh.locate(g):
            continue
        results = []
        for costs, flt, other in zip(units, filters, seconds, strict=True):
            corridor = mesh.corridor(s, g, filter=flt)
            want = corridor_oracle(mesh, costs, s, g)
            sp, gp = mesh.polygons_at(s), mesh.polygons_at(g)
            searched = _query.corridor(mesh._policy(flt), s, sp, g, gp, None)[4]
            assert searched == pytest.approx(want, rel=1e-9, abs=1e-9)
            assert corridor.path.tolist() == other.corridor(s, g).path.tolist()
            got, ref = mesh.find_path(s, g, filter=flt), other.find_path(s, g)
            assert corridor.cost == got.cost
            assert got.path.tolist() == ref.path.tolist() and got.cost == ref.cost
            assert got.cost == pytest.approx(mesh.path_cost(got.path, filter=flt))
            results.append(got)
        if results[0].path.tolist() != results[1].path.tolist():
            checked += 1
    assert checked > 3  # the two units really went different ways
    assert _arrays_equal(mesh.to_arrays(), before) and not mesh.has_area_costs
    for a, b in zip(_portal_arrays(mesh), portals, strict=True):
        assert np.array_equal(a, b)


def test_a_filter_overrides_the_mesh_costs_only_where_it_names_polygons() -> None:
    mesh = NavMesh.from_geometry(WALL)
    top, low = int(mesh.locate((5, 9))), int(mesh.locate((5, 1)))
    mesh.set_area_cost(top, 3.0)  # the mesh's default: mud over the wall
    assert mesh.find_path((1, 5), (9, 5)).path[:, 1].min() == 2.0  # under it
    deeper = QueryFilter(area_costs={low: 4.0})  # and deeper mud under it for this unit
    over = mesh.find_path((1, 5), (9, 5), filter=deeper)
    assert over.path[:, 1].max() == 8.0 and over.cost == pytest.approx(14.4853, abs=1e-4)
    clean = QueryFilter(area_costs={top: 1.0})  # this unit does not mind the mud
    assert mesh.find_path((1, 5), (9, 5), filter=clean).path[:, 1].max() == 8.0
    with pytest.raises(ValueError, match=r"filter\.area_costs"):
        mesh.find_path((1, 5), (9, 5), algorithm="optimal", filter=deeper)
    # every cost back to 1 under the filter: Polyanya may run
    ones = QueryFilter(area_costs=np.ones(mesh.num_polygons))
    best = mesh.find_path((1, 5), (9, 5), algorithm="optimal", filter=ones)
    assert best.cost == pytest.approx(2 * np.hypot(3, 3) + 2)
    assert mesh.area_costs[top] == 3.0  # the mesh's own stays
    mesh.set_area_cost(top, 1.0)  # an edit: the cached policies are of an old version
    assert mesh.find_path((1, 5), (9, 5), filter=deeper).path[:, 1].max() == 8.0


def _crossing(mesh: NavMesh, path: np.ndarray, excluded: list[int]) -> float:
    """How far ``path`` runs inside the excluded polygons (along their edges is out)."""
    if path.shape[0] < 2 or not excluded:
        return 0.0
    inside = shapely.buffer(shapely.union_all(mesh.shapes[excluded]), -1e-9)
    return float(shapely.length(shapely.intersection(shapely.linestrings(path), inside)))


#: A point inside a cell of the 6 x 6 grid mesh (on no edge: one polygon holds it).
INSIDE = st.tuples(
    st.integers(0, 5), st.floats(0.05, 0.95), st.integers(0, 5), st.floats(0.05, 0.95)
).map(lambda v: (v[0] + v[1], v[2] + v[3]))


@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(0, 35), max_size=12), INSIDE, INSIDE)
def test_excluded_polygons_are_walls_for_the_query(
    excluded: set[int], s: tuple[float, float], g: tuple[float, float]
) -> None:
    mesh = grid_mesh(6)
    out = sorted(excluded)
    flt = QueryFilter(excluded=out)
    sp_, gp_ = int(mesh.locate(s)), int(mesh.locate(g))
    sub, keep = _without(mesh, out)
    costs = np.where(np.isin(np.arange(mesh.num_polygons), out), np.inf, 1.0)
    corridor = mesh.corridor(s, g, filter=flt)
    if sp_ in excluded or gp_ in excluded:
        assert not corridor and corridor.reason == "unreachable"
        assert not mesh.find_path(s, g, filter=flt)
        return
    want = corridor_oracle(mesh, costs, s, g) if sp_ != gp_ else 0.0
    for algorithm in ("funnel", "optimal"):
        got = mesh.find_path(s, g, algorithm=algorithm, filter=flt)
        ref = sub.find_path(s, g, algorithm=algorithm)
        assert bool(got) == bool(ref) == np.isfinite(want)
        if got:
            assert _crossing(mesh, got.path, out) < 1e-9
            if algorithm == "optimal":
                assert got.cost == pytest.approx(ref.cost, rel=1e-9, abs=1e-9)
            else:  # the funnel of the same corridor search, but for ties
                assert got.cost >= sub.optimal(s, g).cost - 1e-9
    assert bool(corridor) == np.isfinite(want)
    if corridor:
        assert not set(corridor.path.tolist()) & excluded
        assert corridor.cost == mesh.find_path(s, g, filter=flt).cost
        if sp_ != gp_ and len(corridor.path) > 1 and not _in_sight(mesh, s, g, excluded):
            sp, gp = mesh.polygons_at(s), mesh.polygons_at(g)
            policy = mesh._policy(flt)
            searched = _query.corridor(policy, np.array(s), policy.allowed(sp), np.array(g),
                                       policy.allowed(gp), None)[4]  # fmt: skip
            assert searched == pytest.approx(want, rel=1e-9, abs=1e-9)
        assert set(corridor.path.tolist()) <= set(keep.tolist())


@pytest.mark.parametrize("seed", range(4))
def test_excluded_polygons_on_a_triangulated_scene(seed: int) -> None:
    """Polyanya on the walled topology against Polyanya on a mesh built of the other
    polygons (their own portals, corners and dead ends): the same lengths."""
    walk = polygon_scene(seed)
    mesh = NavMesh.from_geometry(walk)
    rng = np.random.default_rng(seed)
    out = sorted(rng.choice(mesh.num_polygons, mesh.num_polygons // 6, replace=False).tolist())
    flt = QueryFilter(excluded=out)
    sub, keep = _without(mesh, out)
    pts = sample_points(walk, rng, 24)
    found = 0
    for s, g in zip(pts[:12], pts[12:], strict=True):
        if not set(mesh.polygons_at(s).tolist()) - set(out):
            continue
        if not set(mesh.polygons_at(g).tolist()) - set(out):
            continue
        got = mesh.find_path(s, g, algorithm="optimal", filter=flt)
        ref = sub.find_path(s, g, algorithm="optimal")
        assert bool(got) == bool(ref)
        if got:
            found += 1
            assert got.cost == pytest.approx(ref.cost, rel=1e-9, abs=1e-9)
            assert _crossing(mesh, got.path, out) < 1e-9
            funnel = mesh.find_path(s, g, filter=flt)
            assert funnel.cost >= got.cost - 1e-9 and _crossing(mesh, funnel.path, out) < 1e-9
            corridor = mesh.corridor(s, g, filter=flt).path.tolist()
            assert not set(corridor) & set(out) and set(corridor) <= set(keep.tolist())
    assert found


def _in_sight(mesh: NavMesh, s: Any, g: Any, excluded: set[int]) -> bool:
    """Whether the straight line stays on the mesh outside the excluded polygons (then
    the corridor is the line's, priced by its length, not a search's)."""
    hit = mesh.raycast(s, g)
    return not hit.hit and not set(hit.polygons.tolist()) & excluded


def test_a_goal_only_excluded_polygons_hold_is_reached_in_part() -> None:
    mesh = grid_mesh(4)
    flt = QueryFilter(excluded=[15, 14, 11])  # the top right corner, fenced in
    result = mesh.find_path((0.5, 0.5), (3.5, 3.5), filter=flt, partial=True)
    assert not result and result.reason == "unreachable"
    assert _crossing(mesh, result.path, [15, 14, 11]) < 1e-9
    assert result.path[-1].tolist() != [3.5, 3.5] and len(result.path) >= 2
    start_fenced = mesh.find_path((3.5, 3.5), (0.5, 0.5), filter=flt, partial=True)
    assert not start_fenced and start_fenced.reason == "unreachable"
    assert len(start_fenced.path) == 0


def test_excluded_links_are_not_taken() -> None:
    rooms = box(0, 0, 10, 10).difference(box(4, 0, 6, 10))
    mesh = NavMesh.from_geometry(rooms)
    door = mesh.add_link((4, 5), (6, 5), cost=1.0)
    ladder = mesh.add_link((4, 9), (6, 9), cost=5.0)
    assert mesh.find_path((1, 5), (9, 5)).links.tolist() == [-1, door, -1]
    locked = mesh.find_path((1, 5), (9, 5), filter=QueryFilter(excluded_links=door))
    assert locked.links.tolist() == [-1, ladder, -1]
    assert locked.cost == pytest.approx(mesh.path_cost(locked.path, links=locked.links))
    both = QueryFilter(excluded_links=[door, ladder])
    none = mesh.find_path((1, 5), (9, 5), filter=both)
    assert not none and none.reason == "unreachable" and none.links is not None
    assert not mesh.corridor((1, 5), (9, 5), filter=both)
    assert mesh.find_path((1, 5), (9, 5)).links.tolist() == [-1, door, -1]  # unchanged


def test_a_link_whose_end_only_excluded_polygons_hold_is_out_of_reach() -> None:
    mesh = grid_mesh(4)
    hop = mesh.add_link((0.5, 0.5), (3.5, 2.5), cost=0.1)  # into polygon 11
    assert hop in mesh.find_path((0.5, 0.2), (3.5, 3.8)).links.tolist()
    walled = QueryFilter(excluded=[11])
    walk = mesh.find_path((0.5, 0.2), (3.5, 3.8), filter=walled)
    assert walk and walk.links.tolist() == [-1] * (len(walk.path) - 1)
    assert _crossing(mesh, walk.path, [11]) < 1e-9
    assert 11 not in mesh.corridor((0.5, 0.2), (3.5, 3.8), filter=walled).path.tolist()


def test_threads_with_two_filters_share_one_mesh() -> None:
    mesh = grid_mesh(8)
    rng = np.random.default_rng(3)
    filters = [QueryFilter(area_costs={int(p): 6.0 for p in rng.choice(64, 20)}),
               QueryFilter(excluded=[int(p) for p in rng.choice(64, 10)])]  # fmt: skip
    pairs = [(tuple(a), tuple(b)) for a, b in rng.uniform(0.1, 7.9, size=(40, 2, 2))]
    want = [[mesh.find_path(s, g, filter=f) for s, g in pairs] for f in filters]
    got: list[list[Any]] = [[], []]
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            for _ in range(3):
                got[k] = [mesh.find_path(s, g, filter=filters[k]) for s, g in pairs]
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for k in (0, 1):
        for a, b in zip(got[k], want[k], strict=True):
            assert a.path.tolist() == b.path.tolist() and a.found == b.found


def test_a_sliced_search_takes_the_filter() -> None:
    mesh = NavMesh.from_geometry(WALL)
    flt = QueryFilter(area_costs={int(mesh.locate((5, 9))): 5.0})
    search = mesh.start_search((1, 5), (9, 5), filter=flt)
    while search.step(1) == "in_progress":
        pass
    assert search.result.path.tolist() == mesh.find_path((1, 5), (9, 5), filter=flt).path.tolist()
    assert search.result.path[:, 1].min() == 2.0
    assert mesh.funnel((1, 5), (9, 5), filter=flt).cost == search.result.cost


def test_filters_are_values() -> None:
    a = QueryFilter(area_costs={3: 2.0, 1: 5}, excluded=[4, 2, 4], excluded_links=0)
    b = QueryFilter(area_costs={1: 5.0, 3: 2.0}, excluded=(2, 4), excluded_links=[0])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.area_costs == {1: 5.0, 3: 2.0} and a.excluded == (2, 4)
    assert a.excluded_links == (0,)
    assert pickle.loads(pickle.dumps(a)) == a
    assert a != QueryFilter(area_costs=[1.0, 5.0, 1.0, 2.0])  # dense: one per polygon
    text = "QueryFilter(area_costs={1: 5.0, 3: 2.0}, excluded=[2, 4], excluded_links=[0])"
    assert repr(a) == text
    with pytest.raises(TypeError):
        a.area_costs[1] = 2.0  # type: ignore[index]
    assert QueryFilter().is_empty and not a.is_empty


def test_bad_filters_get_clear_errors() -> None:
    mesh = grid_mesh(2)
    for bad in (0, 0.5, float("nan"), float("inf"), -2):
        with pytest.raises(ValueError, match=r"area_costs\[1\] must be a finite number >= 1"):
            QueryFilter(area_costs={1: bad})
    with pytest.raises(ValueError, match=r"area_costs\[1\] must be a finite number >= 1"):
        QueryFilter(area_costs=[1.0, 0.5])
    with pytest.raises(TypeError, match=r"area_costs\[0\]"):
        QueryFilter(area_costs={0: "2"})
    with pytest.raises(TypeError, match="area_costs must be a mapping"):
        QueryFilter(area_costs=[[1.0]])
    with pytest.raises(TypeError, match="excluded must be a polygon id"):
        QueryFilter(excluded=[0.5])
    with pytest.raises(TypeError, match="excluded must be a polygon id"):
        QueryFilter(excluded=[True])
    with pytest.raises(ValueError, match="excluded must hold polygon ids >= 0"):
        QueryFilter(excluded=[-1])
    with pytest.raises(TypeError, match="excluded_links must be a link id"):
        QueryFilter(excluded_links="door")
    with pytest.raises(TypeError, match=r"filter must be a pathcraft\.navmesh\.QueryFilter"):
        mesh.find_path((0.5, 0.5), (1.5, 1.5), filter={0: 2.0})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"filter.excluded: polygon id 4 is not in \[0, 4\)"):
        mesh.find_path((0.5, 0.5), (1.5, 1.5), filter=QueryFilter(excluded=4))
    with pytest.raises(ValueError, match=r"filter.area_costs: polygon id 9"):
        mesh.corridor((0.5, 0.5), (1.5, 1.5), filter=QueryFilter(area_costs={9: 2.0}))
    with pytest.raises(ValueError, match=r"filter\.area_costs holds 3 multipliers; the mesh has 4"):
        mesh.start_search((0.5, 0.5), (1.5, 1.5), filter=QueryFilter(area_costs=[1.0] * 3))
    with pytest.raises(ValueError, match=r"filter\.excluded_links: 0 is not a link"):
        mesh.find_path((0.5, 0.5), (1.5, 1.5), filter=QueryFilter(excluded_links=0))
    with pytest.raises(ValueError, match="filter= names polygons"):
        mesh.find_path((0.5, 0.5), (1.5, 1.5), radius=0.1, filter=QueryFilter(excluded=0))
    with pytest.raises(ValueError, match=r"filter\.area_costs"):
        mesh.optimal((0.5, 0.5), (1.5, 1.5), filter=QueryFilter(area_costs={0: 2.0}))
    with pytest.raises(ValueError, match=r"filter.area_costs: polygon id 9"):
        mesh.path_cost([(0.5, 0.5), (1.5, 1.5)], filter=QueryFilter(area_costs={9: 2.0}))
    # an empty filter is no filter: radius= and Polyanya take it
    assert mesh.find_path((0.5, 0.5), (1.5, 1.5), radius=0.1, filter=QueryFilter())
