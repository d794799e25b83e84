"""The portal graph and the polygon graph patched after carving (issue 18): only the
rows of the portals and polygons around a change are made again, and the result is the
graph built from scratch.

After every edit of random carving sequences (the scenes of ``test_navmesh_carve``),
with area costs set in between and several edits sometimes waiting for one patch,
the patched graphs are compared with ``build_portals`` and ``polygon_graph`` of the
mesh as it is:

- array for array, bit for bit: the portals (polygon pairs, numbered by pair, and the
  points on each), each polygon's portal list, the graph's CSR arrays (edges, weights,
  lengths, node coordinates) and heuristic scale; the polygon graph's too. (Equal
  arrays are more than the same edge sets with the same weights: the patch keeps the
  full build's numbering, so every search, ties included, goes the same way.)
- the funnel's corridor and path costs the same (1e-9) as on the mesh saved and loaded
  (``from_arrays``: the same polygons, area costs and links), whose graphs are built
  from scratch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from _scenes import pinch_free_grid, polygon_scene, sample_points
from shapely import box
from test_navmesh_carve import random_obstacle

from pathcraft import Graph, NavMesh
from pathcraft.graph._csr import splice_rows
from pathcraft.navmesh import _graphs
from pathcraft.navmesh._graphs import polygon_graph
from pathcraft.navmesh._portals import build_portals


def check_graphs(mesh: NavMesh) -> None:
    """The mesh's (patched) portal and polygon graphs equal the ones built from scratch,
    array for array."""
    top = mesh.parts.top
    got = mesh.portal_graph
    want = build_portals(top, mesh.area_costs)
    for name in ("sides", "mid", "offsets", "members", "costs", "lengths"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
    assert got.sides.dtype == want.sides.dtype and got.members.dtype == want.members.dtype
    _same_graph(got.graph, want.graph)
    _same_graph(mesh.parts.graph, polygon_graph(top, mesh.parts.centroids))
    assert mesh.parts.graph.num_nodes == mesh.num_polygons


def _same_graph(got: Graph, want: Graph) -> None:
    for name, x, y in zip(("offsets", "targets", "weights"), got.csr, want.csr, strict=True):
        np.testing.assert_array_equal(x, y, err_msg=name)
        assert x.dtype == y.dtype, name
    np.testing.assert_array_equal(got.coords, want.coords)  # type: ignore[arg-type]
    assert got.heuristic_scale == want.heuristic_scale
    assert got.num_nodes == want.num_nodes and got.num_edges == want.num_edges


def check_answers(mesh: NavMesh, rng: np.random.Generator, count: int) -> None:
    """Funnel corridors and paths on ``mesh`` cost what they cost on the same mesh saved
    and loaded (polygons, area costs and links), whose graphs are built from scratch."""
    ref = NavMesh.from_arrays(mesh.to_arrays())  # its graphs built from scratch
    walk = shapely.union_all(mesh.shapes)
    pts = sample_points(walk, rng, 2 * count)
    for a, b in zip(pts[:count], pts[count:], strict=True):
        got, want = mesh.corridor(a, b, snap=True), ref.corridor(a, b, snap=True)
        assert bool(got) == bool(want)
        if got:
            assert math.isclose(got.cost, want.cost, rel_tol=1e-9, abs_tol=1e-9)
        got, want = mesh.find_path(a, b, snap=True), ref.find_path(a, b, snap=True)
        assert bool(got) == bool(want)
        if got:
            assert math.isclose(got.cost, want.cost, rel_tol=1e-9, abs_tol=1e-9)


def run(seed: int, steps: int, grid: bool, queries: int) -> None:
    """A random carving sequence with area costs and a link, graphs checked after most
    edits (sometimes two or three edits wait for one patch)."""
    rng = np.random.default_rng(seed)
    if grid:
        mesh = NavMesh.from_grid(pinch_free_grid(seed, n=20, density=0.25))
    else:
        mesh = NavMesh.from_geometry(polygon_scene(seed))
    walk0 = shapely.union_all(mesh.shapes)
    a, b = sample_points(walk0, rng, 2)
    mesh.add_link(a, b, cost=1.0)
    check_graphs(mesh)
    live: list[int] = []
    for _ in range(steps):
        r = rng.random()
        if live and r < 0.35:
            mesh.remove_obstacle(live.pop(int(rng.integers(len(live)))))
        elif r < 0.45 and mesh.num_polygons:
            ids = rng.choice(mesh.num_polygons, size=min(3, mesh.num_polygons), replace=False)
            mesh.set_area_cost(ids, float(rng.choice([1.0, 2.0, 3.5])))
        elif grid:
            x, y = rng.integers(0, 18, 2)
            w, h = rng.integers(1, 6, 2)
            live.append(mesh.add_obstacle(box(x, y, x + w, y + h)))
        else:
            live.append(mesh.add_obstacle(random_obstacle(rng)))
        if mesh.num_polygons == 0 or rng.random() < 0.3:
            continue  # the next check patches for several edits at once
        check_graphs(mesh)
        if queries:
            check_answers(mesh, rng, queries)


@pytest.mark.parametrize("seed", range(3))
def test_patched_graphs_equal_graphs_built_from_scratch(seed: int) -> None:
    run(seed, steps=12, grid=False, queries=2)


@pytest.mark.parametrize("seed", range(3))
def test_patched_graphs_on_grid_meshes(seed: int) -> None:
    run(seed, steps=15, grid=True, queries=2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 15))
def test_long_patch_sequences(seed: int) -> None:
    run(seed, steps=40, grid=seed % 2 == 0, queries=3)


def test_graphs_are_patched_not_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a carve, a removal or new area costs, neither graph is built again from
    scratch: both are patched."""
    walkable = np.ones((12, 12), dtype=bool)
    walkable[6:8, 2:10] = False
    mesh = NavMesh.from_grid(walkable)
    assert mesh.portal_graph.graph.num_edges and mesh.parts.graph.num_edges

    def refuse(*_: object) -> None:
        raise AssertionError("built from scratch")

    monkeypatch.setattr(_graphs, "build_portals", refuse)
    monkeypatch.setattr(_graphs, "polygon_graph", refuse)
    ident = mesh.add_obstacle(box(3, 3, 5, 6))
    mesh.set_area_cost([0, 1], 2.0)
    before = mesh.portal_graph
    assert mesh.find_path((0.5, 0.5), (11.5, 11.5))
    mesh.remove_obstacle(ident)
    assert mesh.portal_graph is not before
    monkeypatch.undo()
    check_graphs(mesh)


def test_a_mesh_losing_all_its_portals() -> None:
    """Carving through every portal leaves the placeholder graph; carving back works."""
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])
    assert mesh.portal_graph.graph.num_nodes == 3  # one portal (its points, no edges)
    wall = mesh.add_obstacle(box(0.9, -1, 1.1, 2))
    check_graphs(mesh)
    assert mesh.portal_graph.sides.shape == (0, 2)
    assert mesh.portal_graph.graph.num_nodes == 1  # the placeholder
    assert not mesh.find_path((0.5, 0.5), (1.5, 0.5))
    mesh.remove_obstacle(wall)
    check_graphs(mesh)
    assert mesh.find_path((0.5, 0.5), (1.5, 0.5)).cost == pytest.approx(1.0)


def test_trusted_graphs_equal_checked_ones() -> None:
    """``Graph.from_trusted_csr`` (no checks, no sort) gives the graph the public constructor
    gives for the same edges: CSR arrays, edges and heuristic scale (the portal graph,
    the polygon graph, and the portal graph grown with links)."""
    mesh = NavMesh.from_geometry(polygon_scene(1))
    mesh.set_area_cost([0, 3], 2.5)
    rng = np.random.default_rng(5)
    pts = sample_points(shapely.union_all(mesh.shapes), rng, 6)
    mesh.add_link(pts[0], pts[1], cost=0.5)  # cheaper than its span: a lower scale
    mesh.add_link(pts[2], pts[3], two_way=False)
    mesh.add_link(pts[4], pts[5], cost=40.0)
    lg = mesh.link_graph
    # the link graph: each portal node's own edges first, then those to link ends
    base = mesh.portal_graph.graph
    for u in range(base.num_nodes):
        own = base.csr[1][base.csr[0][u] : base.csr[0][u + 1]]
        got = lg.graph.csr[1][lg.graph.csr[0][u] : lg.graph.csr[0][u] + own.size]
        np.testing.assert_array_equal(got, own)
    assert lg.graph.heuristic_scale < base.heuristic_scale
    for graph in (mesh.portal_graph.graph, mesh.parts.graph, lg.graph):
        src, dst, w = graph.edges
        checked = Graph(graph.num_nodes, src, dst, w, coords=graph.coords)
        for x, y in zip(graph.csr, checked.csr, strict=True):
            np.testing.assert_array_equal(x, y)
        for x, y in zip(graph.edges, checked.edges, strict=True):
            np.testing.assert_array_equal(x, y)
        assert graph.heuristic_scale == checked.heuristic_scale
        assert graph.num_edges == checked.num_edges


def test_splice_rows() -> None:
    """Rows replaced, grown into and dropped; the old arrays are not written."""
    offsets = np.array([0, 2, 2, 5, 6])
    values = np.arange(6)
    new_off, (new,) = splice_rows(offsets, [values], np.array([0, 2, 5]),
                                  np.array([1, 0, 2]), [np.array([10, 20, 21])], 6)  # fmt: skip
    assert new_off.tolist() == [0, 1, 1, 1, 2, 2, 4]
    assert new.tolist() == [10, 5, 20, 21]
    assert values.tolist() == list(range(6))
    new_off, (new,) = splice_rows(offsets, [values], np.empty(0, np.intp),
                                  np.empty(0, np.int64), [np.empty(0, int)], 2)  # fmt: skip
    assert new_off.tolist() == [0, 2, 2] and new.tolist() == [0, 1]

