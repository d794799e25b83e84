"""Area costs of navmeshes (issue 20): the funnel's corridor search weighs polygons by
their multiplier; checked against scipy's Dijkstra on the portal graph built here."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from _meshes import corridor_oracle, grid_mesh
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import box

from pathcraft import NavMesh
from pathcraft.navmesh import _query

WALL = box(0, 0, 10, 10).difference(box(4, 2, 6, 8))


def test_doc_example_and_cost() -> None:
    mesh = NavMesh.from_geometry(WALL)
    mesh.set_area_cost(mesh.locate((5, 9)), 3.0)
    low = mesh.find_path((1, 5), (9, 5))
    assert low.path[:, 1].min() == 2.0
    assert low.cost == pytest.approx(2 + 2 * np.hypot(3, 3))
    assert mesh.area_costs.tolist().count(3.0) == 1


def test_corridor_search_cost_equals_scipy_oracle() -> None:
    rng = np.random.default_rng(5)
    mesh = grid_mesh(6)
    for _ in range(20):
        costs = rng.choice([1.0, 1.0, 2.5, 8.0], size=mesh.num_polygons)
        mesh.set_area_cost(np.arange(mesh.num_polygons), 1.0)
        for c in (2.5, 8.0):
            mesh.set_area_cost(np.flatnonzero(costs == c), c)
        s, g = rng.uniform(0.05, 5.95, size=(2, 2))
        if mesh.locate(s) == mesh.locate(g):
            continue
        found = mesh.corridor(s, g)
        assert found and found.cost == mesh.find_path(s, g).cost  # the path's cost
        sp, gp = mesh.polygons_at(s), mesh.polygons_at(g)
        searched = _query.corridor(mesh._policy(None), s, sp, g, gp, None)[4]
        assert searched == pytest.approx(corridor_oracle(mesh, costs, s, g), rel=1e-9, abs=1e-9)


def test_cost_is_recomputed_cost_and_not_below_length() -> None:
    mesh = grid_mesh(5)
    mesh.set_area_cost([6, 7, 8, 11, 12, 13], 5.0)
    res = mesh.find_path((0.5, 2.5), (4.5, 2.5))
    assert res.cost == pytest.approx(mesh.path_cost(res.path))
    length = float(np.hypot(*np.diff(res.path, axis=0).T).sum())
    assert res.cost >= length - 1e-12
    # the mud row 1..3 x 1..3 is avoided: the straight line would cost 2 + 3 * 5
    assert res.cost < 2 + 3 * 5


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([1.0, 2.0, 6.0]), min_size=25, max_size=25),
    st.tuples(st.floats(0.01, 4.99), st.floats(0.01, 4.99)),
    st.tuples(st.floats(0.01, 4.99), st.floats(0.01, 4.99)),
)
def test_invariants(costs: list[float], s: tuple[float, float], g: tuple[float, float]) -> None:
    mesh = grid_mesh(5)
    arr = np.array(costs)
    for c in (2.0, 6.0):
        if (arr == c).any():
            mesh.set_area_cost(np.flatnonzero(arr == c), c)
    res = mesh.find_path(s, g)
    assert res
    assert res.path[0].tolist() == list(s) and res.path[-1].tolist() == list(g)
    assert res.cost == pytest.approx(mesh.path_cost(res.path), rel=1e-9, abs=1e-9)
    mids = (res.path[:-1] + res.path[1:]) / 2
    assert all(np.asarray(mesh.locate(m)) >= 0 for m in mids)
    # never cheaper than the straight line at the cheapest cost, nor dearer than the
    # funnel path of the corridor at the dearest cost
    assert res.cost >= np.hypot(g[0] - s[0], g[1] - s[1]) - 1e-9


def test_bad_input() -> None:
    mesh = grid_mesh(2)
    for bad in (0, -1, 0.5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="multiplier"):
            mesh.set_area_cost([0], bad)
    with pytest.raises(TypeError, match="multiplier"):
        mesh.set_area_cost([0], "2")
    with pytest.raises(ValueError, match="polygons: polygon id 9"):
        mesh.set_area_cost([9], 2.0)
    with pytest.raises(TypeError, match="polygons"):
        mesh.set_area_cost([0.5], 2.0)
    assert mesh.area_costs.tolist() == [1.0] * 4  # nothing changed


def test_optimal_and_radius_refuse_with_costs() -> None:
    mesh = NavMesh.from_geometry(WALL)
    assert mesh.find_path((1, 5), (9, 5), algorithm="optimal")
    mesh.set_area_cost([0], 2.0)
    with pytest.raises(ValueError, match="algorithm='funnel'"):
        mesh.find_path((1, 5), (9, 5), algorithm="optimal")
    with pytest.raises(ValueError, match="radius"):
        mesh.find_path((1, 5), (9, 5), radius=0.2)
    mesh.set_area_cost([0], 1.0)  # back to uniform: Polyanya again
    assert mesh.find_path((1, 5), (9, 5), algorithm="optimal")


def test_costs_survive_pickle_and_reset_portals() -> None:
    mesh = NavMesh.from_geometry(WALL)
    mesh.set_area_cost(mesh.locate((5, 9)), 3.0)
    copy = pickle.loads(pickle.dumps(mesh))
    assert copy.area_costs.tolist() == mesh.area_costs.tolist()
    assert (
        copy.find_path((1, 5), (9, 5)).path.tolist() == mesh.find_path((1, 5), (9, 5)).path.tolist()
    )


def test_costs_are_saved_with_the_baked_mesh(tmp_path: Path) -> None:
    from pathcraft import io

    mesh = NavMesh.from_geometry(WALL)
    assert "area_costs" not in mesh.to_arrays()  # none set: the plain baked mesh
    mesh.set_area_cost(mesh.locate((5, 9)), 3.0)
    want = mesh.find_path((1, 5), (9, 5))
    again = NavMesh.from_arrays(mesh.to_arrays())
    io.save(mesh, tmp_path / "mesh.npz")
    loaded = io.load(tmp_path / "mesh.npz")
    for copy in (again, loaded):
        assert copy.area_costs.tolist() == mesh.area_costs.tolist()
        got = copy.find_path((1, 5), (9, 5))
        assert got.path.tolist() == want.path.tolist() and got.cost == want.cost
    arrays = mesh.to_arrays()
    for bad in (arrays["area_costs"][:-1], arrays["area_costs"] * 0.5,
                np.full(mesh.num_polygons, np.nan)):  # fmt: skip
        with pytest.raises(ValueError, match="area_costs must hold"):
            NavMesh.from_arrays({**arrays, "area_costs": bad})
