"""PolyMesh3D: validation at the boundary, 3-D adjacency (floors over one another kept
apart), saving round trips."""

from __future__ import annotations

import numpy as np
import pytest
from _mesh3d_scenes import hills_scene

from pathcraft.navmesh3d import WALKABLE_AREA, PolyMesh3D

SQUARE = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]


def test_defaults_and_read_only() -> None:
    mesh = PolyMesh3D(SQUARE, [[0, 1, 2, 3]])
    assert mesh.areas.tolist() == [WALKABLE_AREA]
    assert mesh.tiles.tolist() == [-1]
    assert mesh.detail is None
    assert mesh.polygons.dtype == np.int32 and mesh.vertices.dtype == np.float64
    with pytest.raises(ValueError):
        mesh.vertices[0, 0] = 5.0


def test_input_not_modified() -> None:
    verts = np.array(SQUARE, dtype=float)
    polys = np.array([[0, 1, 2, 3]])
    PolyMesh3D(verts, polys)
    assert verts.flags.writeable and polys.flags.writeable
    assert verts.tolist() == [list(map(float, v)) for v in SQUARE]


@pytest.mark.parametrize(
    ("vertices", "polygons", "kwargs", "error", "message"),
    [
        ("abc", [[0, 1, 2]], {}, TypeError, "vertices"),
        ([(0, 0), (1, 0), (0, 1)], [[0, 1, 2]], {}, ValueError, r"shape \(n, 3\)"),
        ([(0, 0, np.nan), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]], {}, ValueError, "not finite"),
        (SQUARE, [[0, 1, 5]], {}, ValueError, "names vertex 5"),
        (SQUARE, [[0, -1, 1, 2]], {}, ValueError, "pad the end"),
        (SQUARE, [[0, 1, -1]], {}, ValueError, "3 or more"),
        (SQUARE, [[0, 1, 1, 2]], {}, ValueError, "repeats a vertex"),
        (SQUARE, [[0.5, 1, 2]], {}, TypeError, "integers"),
        (SQUARE, [[0, 3, 2, 1]], {}, ValueError, "clockwise"),
        (SQUARE, [[0, 2, 1, 3]], {}, ValueError, r"polygons\[0\]"),
        ([(0, 0, 0), (1, 0, 1), (2, 0, 2)], [[0, 1, 2]], {}, ValueError, "no area"),
        ([*SQUARE, (0.3, 0.3, 0)], [[0, 1, 4, 3]], {}, ValueError, "convex"),
        (SQUARE, [[0, 1, 2, 3]], {"areas": [300]}, ValueError, r"areas\[0\]"),
        (SQUARE, [[0, 1, 2, 3]], {"tiles": [0, 1]}, ValueError, "one value per polygon"),
        (SQUARE, [[0, 1, 2, 3]], {"detail": "x"}, TypeError, "detail"),
        (SQUARE, [[0, 1, 2, 3]], {"detail": (SQUARE, [[0, 1, 9]], [[0, 1]])}, ValueError, "det"),
        (SQUARE, [[0, 1, 2, 3]], {"detail": (SQUARE, [[0, 1, 2]], [[0, 2]])}, ValueError, "_of"),
    ],
)
def test_bad_input(
    vertices: object, polygons: object, kwargs: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        PolyMesh3D(vertices, polygons, **kwargs)  # type: ignore[arg-type]


def _bridge() -> PolyMesh3D:
    """A floor of three squares in a row, and a bridge over the middle one at z = 3."""
    verts = [(x, y, 0.0) for x in range(4) for y in (0, 1)]  # vertex 2x + y
    bridge = [(1, -1, 3.0), (2, -1, 3.0), (2, 2, 3.0), (1, 2, 3.0)]
    polys = [[0, 2, 3, 1], [2, 4, 5, 3], [4, 6, 7, 5], [8, 9, 10, 11]]
    return PolyMesh3D(verts + bridge, polys)


def test_bridge_is_a_separate_floor() -> None:
    adj = _bridge().adjacency()
    assert adj[3].tolist() == [-1, -1, -1, -1]
    assert sorted(set(adj[1].tolist()) - {-1}) == [0, 2]


def test_copies_of_vertices_join_within_the_tolerance() -> None:
    # two tiles whose shared edge has its own vertex copies, 0.1 apart in height
    verts = [*SQUARE, (1, 0, 0.1), (2, 0, 0.1), (2, 1, 0.1), (1, 1, 0.1)]
    mesh = PolyMesh3D(verts, [[0, 1, 2, 3], [4, 5, 6, 7]], tiles=[0, 1])
    assert mesh.adjacency().tolist() == [[-1, -1, -1, -1]] * 2
    assert mesh.adjacency(height_tolerance=0.2).tolist() == [[-1, 1, -1, -1], [-1, -1, -1, 0]]
    with pytest.raises(ValueError, match="height_tolerance"):
        mesh.adjacency(height_tolerance=-1)


def test_stacked_edges_take_the_nearest_floor() -> None:
    # the same (x, y) edge at z = 0 and z = 3 on the left; one partner at z = 3 on the right
    verts = [*SQUARE, (0, 0, 3), (1, 0, 3), (1, 1, 3), (0, 1, 3), (2, 0, 3), (2, 1, 3)]
    mesh = PolyMesh3D(verts, [[0, 1, 2, 3], [4, 5, 6, 7], [5, 8, 9, 6]])
    adj = mesh.adjacency(height_tolerance=5.0)
    assert adj[2].tolist() == [-1, -1, -1, 1]
    assert adj[1].tolist() == [-1, 2, -1, -1]
    assert adj[0].tolist() == [-1, -1, -1, -1]


def test_adjacency_is_symmetric_on_a_grid_of_triangles() -> None:
    mesh = hills_scene(n=5, seed=3)
    adj = mesh.adjacency()
    pairs = {(p, int(q)) for p in range(mesh.num_polygons) for q in adj[p] if q >= 0}
    assert pairs == {(q, p) for p, q in pairs}
    interior = 3 * mesh.num_polygons - 4 * (5 - 1)  # edge places minus boundary edges
    assert len(pairs) == interior


def test_arrays_round_trip_with_detail() -> None:
    detail = (np.array(SQUARE, float), np.array([[0, 1, 2], [0, 2, 3]]), np.array([[0, 2]]))
    mesh = PolyMesh3D(SQUARE, [[0, 1, 2, 3]], areas=[5], tiles=[2], detail=detail)
    again = PolyMesh3D.from_arrays(mesh.to_arrays())
    for name, arr in mesh.to_arrays().items():
        assert np.array_equal(again.to_arrays()[name], arr), name
    assert again.detail is not None
    with pytest.raises(ValueError, match="polygons"):
        PolyMesh3D.from_arrays({"vertices": np.zeros((3, 3))})
