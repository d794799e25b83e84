"""Building a pathcraft.NavMesh: convex polygons and their portals, shapely geometry
(triangulation and merging), grids (rectangles without T-junctions), Moving AI maps,
and every kind of bad input."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
from _scenes import cells_geometry, pinch_free_grid, polygon_scene
from shapely import box

from pathcraft import Grid, NavMesh
from pathcraft.io import bundled_map, read_scen, read_walkable

SQUARES = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]


def assert_valid_mesh(mesh: NavMesh, walk: object) -> None:
    """Convex counter-clockwise polygons covering exactly ``walk``, and the public
    constructor (which checks convexity, overlaps and T-junctions) accepts them."""
    shapes = mesh.shapes
    assert shapely.equals(shapely.union_all(shapes), walk)
    assert math.isclose(mesh.area, shapely.area(walk), rel_tol=1e-9)
    assert np.allclose(shapely.area(shapes), shapely.area(shapely.convex_hull(shapes)))
    rebuilt = NavMesh(mesh.vertices, mesh.polygons)
    for a, b in zip(rebuilt.polygon_neighbors, mesh.polygon_neighbors, strict=True):
        np.testing.assert_array_equal(a, b)


def test_portals_from_shared_edges() -> None:
    mesh = NavMesh(SQUARES, [[0, 1, 4, 5], [1, 2, 3, 4]])
    assert [n.tolist() for n in mesh.polygon_neighbors] == [[-1, 1, -1, -1], [-1, -1, -1, 0]]
    assert repr(mesh) == "NavMesh(2 polygons, 6 vertices, 1 portals)"


def test_clockwise_polygons_are_reversed_and_inputs_kept() -> None:
    polygons = [[5, 4, 1, 0], [1, 2, 3, 4]]
    mesh = NavMesh(SQUARES, polygons)
    assert mesh.polygons[0].tolist() == [0, 1, 4, 5]
    assert polygons == [[5, 4, 1, 0], [1, 2, 3, 4]]
    assert mesh.find_path((0.5, 0.5), (1.5, 0.5))


def test_straight_angles_are_allowed() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (0, 1)], [[0, 1, 2, 3, 4]])
    assert mesh.num_polygons == 1


@pytest.mark.parametrize(
    ("vertices", "polygons", "error", "match"),
    [
        (SQUARES, [], ValueError, r"polygons is empty"),
        ([], [[0, 1, 2]], ValueError, r"vertices must have shape \(n, 2\)"),
        ([(0, 0), (1, 0), (math.nan, 1)], [[0, 1, 2]], ValueError, r"vertices\[2\] .* not finite"),
        ([(0, 0), (1, 0), (0, 0), (0, 1)], [[0, 1, 3]], ValueError,
         r"vertices\[0\] and vertices\[2\] are the same point \(0.0, 0.0\)"),
        (SQUARES, [[0, 1]], ValueError, r"polygons\[0\] has 2 vertices"),
        (SQUARES, [[0, 1, 9]], ValueError, r"polygons\[0\] names vertex 9"),
        (SQUARES, [[0, 1, 1, 4]], ValueError, r"polygons\[0\] repeats a vertex"),
        (SQUARES, [[0, 1, 2]], ValueError, r"polygons\[0\] has no area"),
        ([(0, 0), (2, 0), (2, 2), (0, 2)], [[0, 2, 1, 3]], ValueError,
         r"polygons\[0\] has no area: its vertices are collinear or it crosses itself"),
        ([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)], [[0, 1, 2, 3, 4]], ValueError,
         r"polygons\[0\] is not convex: it turns the wrong way at vertex 2 \(1.0, 1.0\)"),
        ([(0, 0), (3, 0), (3, 3), (0, 3), (1, 1)], [[0, 1, 4, 2, 3]], ValueError,
         r"polygons\[0\] is not convex"),
        (SQUARES, "abc", TypeError, r"polygons must be a sequence"),
        (SQUARES, [[0.5, 1, 4]], TypeError, r"polygons\[0\] must be a list of vertex indices"),
        ("xy", [[0, 1, 2]], TypeError, r"vertices must be an array of points"),
    ],
)  # fmt: skip
def test_bad_polygons(vertices: object, polygons: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        NavMesh(vertices, polygons)  # type: ignore[arg-type]


def test_self_intersecting_polygon_is_named() -> None:
    # A pentagram turns left at every vertex but winds twice.
    angles = np.pi / 2 + np.arange(5) * 4 * np.pi / 5
    star = np.c_[np.cos(angles), np.sin(angles)]
    with pytest.raises(ValueError, match=r"polygons\[0\] intersects itself"):
        NavMesh(star, [[0, 1, 2, 3, 4]])


def test_overlaps_are_named() -> None:
    vertices = [(0, 0), (2, 0), (2, 2), (0, 2), (1, 1), (3, 1), (3, 3), (1, 3)]
    with pytest.raises(ValueError, match=r"polygons\[0\] and polygons\[1\] overlap"):
        NavMesh(vertices, [[0, 1, 2, 3], [4, 5, 6, 7]])
    # The same square twice: the same edges on the same side.
    with pytest.raises(ValueError, match=r"polygons\[0\] and polygons\[1\] overlap"):
        NavMesh(vertices, [[0, 1, 2, 3], [1, 2, 3, 0]])


def test_t_junction_is_named() -> None:
    # A big square beside two small ones: vertex 5 (2, 1) sits inside edge 1 -> 2.
    vertices = [(0, 0), (2, 0), (2, 2), (0, 2), (3, 0), (2, 1), (3, 1), (3, 2)]
    with pytest.raises(ValueError, match=r"T-junction: vertex 5 \(2.0, 1.0\) of polygons\[1, 2\]"):
        NavMesh(vertices, [[0, 1, 2, 3], [1, 4, 6, 5], [5, 6, 7, 2]])
    # Split the edge and it is a valid mesh with two portals.
    mesh = NavMesh(vertices, [[0, 1, 5, 2, 3], [1, 4, 6, 5], [5, 6, 7, 2]])
    assert mesh.polygon_neighbors[0].tolist() == [-1, 1, 2, -1, -1]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_from_geometry_covers_the_walkable_space(seed: int) -> None:
    walk = polygon_scene(seed, holes=12)
    mesh = NavMesh.from_geometry(walk)
    assert_valid_mesh(mesh, walk)
    triangles = len(shapely.get_parts(shapely.constrained_delaunay_triangles(walk)))
    assert mesh.num_polygons * 1.6 <= triangles


def test_from_geometry_merges_a_game_level_into_few_polygons() -> None:
    # The bundled Dragon Age map as geometry: a real level, axis-aligned walls.
    walk = cells_geometry(read_walkable(bundled_map()))
    mesh = NavMesh.from_geometry(walk)
    assert_valid_mesh(mesh, walk)
    triangles = len(shapely.get_parts(shapely.constrained_delaunay_triangles(walk)))
    assert triangles >= 3 * mesh.num_polygons


def test_from_geometry_with_agent_radius() -> None:
    room = box(0, 0, 10, 10).difference(box(4, 0, 6, 8))
    mesh = NavMesh.from_geometry(room, agent_radius=0.5)
    shrunk = room.buffer(-0.5)  # corners of 16 segments a quarter circle
    assert math.isclose(mesh.area, shrunk.area, rel_tol=1e-9)
    result = mesh.find_path((1, 1), (9, 1), algorithm="optimal")
    assert (
        result and min(shapely.distance(box(4, 0, 6, 8), shapely.points(result.path))) >= 0.5 - 1e-9
    )


@pytest.mark.parametrize(
    ("geom", "kwargs", "error", "match"),
    [
        ("room", {}, TypeError, "walkable must be a shapely geometry"),
        (shapely.Polygon(), {}, ValueError, "walkable is an empty geometry"),
        (shapely.LineString([(0, 0), (1, 1)]), {}, ValueError, "must be a Polygon or MultiPolygon"),
        (shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)]), {}, ValueError, "not a valid geometry"),
        (box(0, 0, 1, 1), {"agent_radius": -1}, ValueError, "agent_radius must be a number >= 0"),
        (box(0, 0, 1, 1), {"agent_radius": 2}, ValueError, "nothing is walkable"),
        (box(0, 0, 1, 1), {"agent_radius": math.inf}, ValueError, "agent_radius must be finite"),
    ],
)  # fmt: skip
def test_bad_geometry(geom: object, kwargs: dict[str, float], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        NavMesh.from_geometry(geom, **kwargs)


@pytest.mark.parametrize("seed", range(6))
def test_from_grid_has_no_t_junctions_and_covers_the_cells(seed: int) -> None:
    walkable = pinch_free_grid(seed, n=20)
    mesh = NavMesh.from_grid(walkable)
    assert_valid_mesh(mesh, cells_geometry(walkable))
    assert mesh.num_polygons < walkable.sum() / 2


def test_from_grid_takes_a_grid_and_keeps_diagonal_pinches_closed() -> None:
    grid = Grid.from_ascii("""
    .#
    #.
    """)
    mesh = NavMesh.from_grid(grid)
    assert mesh.num_polygons == 2 and all((n < 0).all() for n in mesh.polygon_neighbors)
    result = mesh.find_path((0.5, 0.5), (1.5, 1.5), algorithm="optimal")
    assert not result and result.reason == "unreachable"


def test_bad_grid() -> None:
    with pytest.raises(TypeError, match=r"grid must be a pathcraft\.Grid or a 2-D boolean array"):
        NavMesh.from_grid(np.ones((3, 3)))
    with pytest.raises(ValueError, match="grid has no walkable cell"):
        NavMesh.from_grid(np.zeros((3, 3), dtype=bool))


@pytest.mark.parametrize("name", ["dao/arena2", "room/8room_000", "street/Berlin_0_256"])
def test_movingai_any_angle_never_longer_than_octile(movingai: Path, name: str) -> None:
    family, base = name.split("/")
    walkable = read_walkable(movingai / "maps" / family / f"{base}.map")
    scen = read_scen(movingai / "scen" / family / f"{base}.map.scen")
    mesh = NavMesh.from_grid(walkable)
    pick = np.linspace(0, len(scen) - 1, 60).astype(int)
    ratios = []
    for i in pick:
        start = scen.starts[i][::-1] + 0.5  # (row, col) -> (x, y) of the cell's centre
        goal = scen.goals[i][::-1] + 0.5
        optimal = mesh.find_path(start, goal, algorithm="optimal")
        funnel = mesh.find_path(start, goal)
        assert optimal and funnel
        # The .scen lengths are printed with limited precision.
        assert optimal.cost <= scen.optimal[i] * (1 + 1e-7) + 1e-6
        assert funnel.cost >= optimal.cost - 1e-9
        if scen.optimal[i] > 0:
            ratios.append(optimal.cost / scen.optimal[i])
    assert 0.85 < np.mean(ratios) < 1.0


def test_import_without_shapely_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['shapely'] = None\n"
        "import pathcraft\n"
        "try:\n"
        "    pathcraft.NavMesh\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install pathcraft[geometry]" in out.stdout
