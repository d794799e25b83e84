"""The whole build from triangles: one piece, tiles, a tile rebuilt after a change."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from pathcraft.navmesh3d import (
    BuildConfig,
    PolyMesh3D,
    build,
    build_tiles,
    rebuild_tile,
    tile_id,
    tile_of,
)

shapely = pytest.importorskip("shapely")

Mesh = tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]


def floor(x0: float, y0: float, x1: float, y1: float, z: float = 0.0) -> Mesh:
    """A rectangle of two triangles facing up."""
    v = np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)], dtype=np.float64)
    return v, np.array([[0, 1, 2], [0, 2, 3]], dtype=np.int32)


def box(x0: float, y0: float, x1: float, y1: float, z0: float, z1: float) -> Mesh:
    """A closed box, faces outward (counter-clockwise seen from outside)."""
    v = np.array(
        [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)], dtype=np.float64
    )
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    t = [(a, b, c) for a, b, c, d in quads] + [(a, c, d) for a, b, c, d in quads]
    return v, np.array(t, dtype=np.int32)


def join(*meshes: Mesh) -> Mesh:
    verts, tris, base = [], [], 0
    for v, t in meshes:
        verts.append(v)
        tris.append(t + base)
        base += len(v)
    return np.concatenate(verts), np.concatenate(tris)


def cover(mesh: PolyMesh3D, rows: npt.ArrayLike | None = None) -> object:
    polys = mesh.polygons if rows is None else mesh.polygons[rows]
    return shapely.union_all([shapely.Polygon(mesh.vertices[p[p >= 0], :2]) for p in polys])


def poly_set(mesh: PolyMesh3D, rows: npt.NDArray[np.intp]) -> set[tuple[tuple[float, ...], ...]]:
    """Polygons as rounded vertex rings, each from its least vertex (order-free keys)."""
    out = set()
    for p in rows:
        ring = [tuple(np.round(mesh.vertices[v], 5).tolist()) for v in mesh.polygons[p] if v >= 0]
        k = ring.index(min(ring))
        out.add(tuple(ring[k:] + ring[:k]))
    return out


CONFIG = BuildConfig(region_min_size=2, region_merge_size=8)
LEVEL = join(floor(0, 0, 12, 12), box(5, 5, 7, 7, 0, 3))


def test_build_covers_the_floor_minus_the_agent_radius() -> None:
    mesh = build(*LEVEL, CONFIG)
    assert mesh.num_polygons > 0 and mesh.detail is not None
    assert (mesh.tiles == -1).all() and (mesh.areas == 63).all()
    z = mesh.vertices[mesh.polygons[:, 0], 2]
    ground = z < 1.0
    r = CONFIG.agent_radius
    expected = shapely.box(r, r, 12 - r, 12 - r).difference(shapely.box(5 - r, 5 - r, 7 + r, 7 + r))
    got = cover(mesh, ground)
    # within about a cell of the eroded shape along its outlines
    slack = 2 * CONFIG.cell_size * (expected.length + 4)
    assert got.symmetric_difference(expected).area <= slack
    assert got.difference(shapely.box(0, 0, 12, 12)).area == pytest.approx(0.0, abs=1e-9)
    # heights: the floor's (a span's top is rounded up to the next cell height)
    assert np.abs(mesh.vertices[mesh.polygons[ground][mesh.polygons[ground] >= 0], 2]).max() <= (
        2 * CONFIG.cell_height
    )
    # the crate's top (2 x 2 at height 3) is a floor of its own, inside its footprint
    assert cover(mesh, ~ground).difference(shapely.box(5, 5, 7, 7)).area == pytest.approx(0.0)


def test_build_keeps_a_bridge_and_the_floor_under_it_apart() -> None:
    level = join(floor(0, 0, 12, 12), floor(-2, 5, 14, 7.5, z=4.0))
    mesh = build(*level, CONFIG)
    z = mesh.vertices[mesh.polygons[:, 0], 2]
    upper = z > 2.0
    assert upper.any() and (~upper).any()
    # the bridge (16 x 2.5, eroded by the radius and its ledge cells) over the floor
    bridge = cover(mesh, upper)
    assert bridge.difference(shapely.box(-2, 5, 14, 7.5)).area == pytest.approx(0.0)
    assert bridge.contains(shapely.LineString([(-1, 6.25), (13, 6.25)]))
    under = cover(mesh, ~upper)
    assert under.contains(shapely.LineString([(6, 1), (6, 11)]))  # the floor runs under it
    adj = mesh.adjacency(height_tolerance=CONFIG.agent_max_climb)
    assert all(upper[q] == upper[p] for p in range(mesh.num_polygons) for q in adj[p] if q >= 0)


def test_every_polygon_lies_on_walkable_source_triangles() -> None:
    # a ramp of 20 degrees up to a platform, and a 60-degree slope nobody walks
    ramp_v = np.array([(0, 0, 0), (6, 0, 0), (6, 4, 6 * np.tan(np.radians(20))), (0, 4, 0)])
    ramp = (np.array([(0, 4, 0), (6, 4, 0), (6, 10, 2.18), (0, 10, 2.18)]),
            np.array([[0, 1, 2], [0, 2, 3]], dtype=np.int32))  # fmt: skip
    steep = (np.array([(8, 0, 0), (12, 0, 0), (12, 3, 5.2), (8, 3, 5.2)]),
             np.array([[0, 1, 2], [0, 2, 3]], dtype=np.int32))  # fmt: skip
    level = join(floor(0, 0, 6, 4), ramp, floor(0, 10, 6, 14, z=2.18), steep)
    del ramp_v
    mesh = build(*level, CONFIG)
    verts, tris = level
    # sample each polygon at its vertices pulled 5% toward its centre, and its centre
    for p in range(mesh.num_polygons):
        ring = mesh.vertices[mesh.polygons[p][mesh.polygons[p] >= 0]]
        centre = ring.mean(axis=0)
        for point in np.vstack([centre + 0.95 * (ring - centre), centre]):
            heights = []
            for t in tris:
                a, b, c = verts[t]
                normal = np.cross(b - a, c - a)
                if normal[2] <= 0:
                    continue
                slope = np.degrees(np.arccos(normal[2] / np.linalg.norm(normal)))
                if slope > CONFIG.agent_max_slope:
                    continue
                tri = shapely.Polygon(np.array([a, b, c])[:, :2])
                if tri.buffer(1e-6).contains(shapely.Point(point[:2])):
                    w = np.linalg.solve(
                        np.array([a[:2] - c[:2], b[:2] - c[:2]]).T, point[:2] - c[:2]
                    )
                    heights.append(w[0] * a[2] + w[1] * b[2] + (1 - w.sum()) * c[2])
            assert heights, f"polygon {p} leaves the walkable triangles at {point}"
            assert min(abs(h - point[2]) for h in heights) <= CONFIG.agent_max_climb


TILED = BuildConfig(region_min_size=2, region_merge_size=8, tile_size=16)


def test_tiles_cover_what_the_solo_build_covers_and_link_across_tile_edges() -> None:
    solo = build(*LEVEL, CONFIG)
    tiled = build_tiles(*LEVEL, TILED)
    tiles = np.unique(tiled.tiles)
    size = TILED.tile_size * TILED.cell_size
    assert len(tiles) == 9  # 12 world units in tiles of 4.8: 3 x 3
    assert {tile_of(int(t)) for t in tiles} == {(i, j) for i in range(3) for j in range(3)}
    a, b = cover(tiled), cover(solo)
    # the same area within a cell: the level's outer edge lies on cell lines, which
    # each grid computes in float32 from its own corner (as Recast does), so a tile's
    # grid may keep a sliver of the edge in the next cell, a ledge cell the solo grid
    # does not have, and erode one cell less there
    assert a.symmetric_difference(b).area <= 0.1 * b.area
    assert a.difference(b.buffer(TILED.cell_size + 1e-6)).area == pytest.approx(0, abs=1e-9)
    assert b.difference(a.buffer(TILED.cell_size + 1e-6)).area == pytest.approx(0, abs=1e-9)
    # each tile's polygons stay inside the tile's square
    for t in tiles:
        i, j = tile_of(int(t))
        square = shapely.box(i * size, j * size, (i + 1) * size, (j + 1) * size)
        assert cover(tiled, tiled.tiles == t).difference(square).area == pytest.approx(0, abs=1e-9)
    adj = tiled.adjacency(height_tolerance=TILED.agent_max_climb)
    across = {
        (int(tiled.tiles[p]), int(tiled.tiles[q]))
        for p in range(tiled.num_polygons)
        for q in adj[p]
        if q >= 0 and tiled.tiles[q] != tiled.tiles[p]
    }
    # every pair of side-by-side tiles is joined somewhere
    for t in tiles:
        i, j = tile_of(int(t))
        for di, dj in ((1, 0), (0, 1)):
            if i + di < 3 and j + dj < 3:
                assert (int(t), tile_id(i + di, j + dj)) in across


@pytest.mark.parametrize("where", [(1.5, 1.5), (3.6, 1.0)])  # inside; across the edge
def test_rebuilt_tile_equals_the_full_rebuild(where: tuple[float, float]) -> None:
    before = build_tiles(*LEVEL, TILED)
    x, y = where
    changed = join(LEVEL, box(x, y, x + 1.5, y + 1.5, 0, 2))  # a crate in tile (0, 0)
    after = rebuild_tile(before, 0, 0, *changed, TILED)
    full = build_tiles(*changed, TILED)
    t = tile_id(0, 0)
    mine = poly_set(after, np.flatnonzero(after.tiles == t))
    assert mine != poly_set(before, np.flatnonzero(before.tiles == t))
    # every tile as a full rebuild has it: the rebuilt one, and its neighbours, whose
    # sides along the shared edge take the rebuilt tile's vertices (a crate across the
    # edge changes the neighbour's own polygons too: it is rebuilt next)
    if x + 1.5 + TILED.agent_radius < TILED.tile_size * TILED.cell_size:
        for number in np.unique(full.tiles):
            got = poly_set(after, np.flatnonzero(after.tiles == number))
            assert got == poly_set(full, np.flatnonzero(full.tiles == number)), tile_of(int(number))
    else:
        after = rebuild_tile(after, 1, 0, *changed, TILED)
        for number in np.unique(full.tiles):
            got = poly_set(after, np.flatnonzero(after.tiles == number))
            assert got == poly_set(full, np.flatnonzero(full.tiles == number)), tile_of(int(number))
    # the input mesh is not changed
    assert poly_set(before, np.flatnonzero(before.tiles == t)) == poly_set(
        build_tiles(*LEVEL, TILED), np.flatnonzero(before.tiles == t)
    )


def test_an_old_neighbour_takes_the_rebuilt_tiles_new_vertex_on_their_edge() -> None:
    """A crate across the edge between tiles (0, 0) and (1, 0), only (0, 0) rebuilt:
    the old neighbour's side along the edge takes the vertex the crate made there, so
    the polygons on either side share an edge and a path crosses it straight; the
    crate taken away and (0, 0) rebuilt again, the mesh is the one before."""
    from pathcraft.navmesh3d import NavMesh3D

    before = build_tiles(*LEVEL, TILED)
    after = rebuild_tile(before, 0, 0, *join(LEVEL, box(3.6, 1.0, 5.1, 2.5, 0, 2)), TILED)
    east = tile_id(1, 0)
    corners = [(m.polygons[m.tiles == east] >= 0).sum() for m in (before, after)]
    assert corners[1] == corners[0] + 1  # the old tile's side took the new vertex
    mesh = NavMesh3D(after, height_tolerance=TILED.agent_max_climb)
    result = mesh.find_path((1, 4, 0), (7, 4, 0))
    assert result.cost == pytest.approx(6.0)
    # the crate gone and the tile rebuilt again: the neighbour's side drops the vertex
    again = rebuild_tile(after, 0, 0, *LEVEL, TILED)
    for number in np.unique(before.tiles):
        got = poly_set(again, np.flatnonzero(again.tiles == number))
        assert got == poly_set(before, np.flatnonzero(before.tiles == number))
    assert again.vertices.shape[0] == before.vertices.shape[0]


def ceiling(x0: float, y0: float, x1: float, y1: float, z: float) -> Mesh:
    """A rectangle facing down: too low over the floor to stand under, not walkable
    itself."""
    v, t = floor(x0, y0, x1, y1, z)
    return v, t[:, ::-1].copy()


def test_tiles_rebuilt_again_and_again_stay_equal_to_the_full_build() -> None:
    """Crates come and go and a low ceiling empties a tile then goes; after each change
    every tile is rebuilt in turn, and the mesh equals a full build of the level as it
    is: every tile's polygons, no vertex left unused, the retired detail triangles
    never more than the used ones, and the same paths."""
    from pathcraft.navmesh3d import NavMesh3D

    changes = [
        join(LEVEL, box(1, 1, 2.5, 2.5, 0, 1.5)),
        join(LEVEL, box(4, 3.9, 5.5, 5.4, 0, 1.5), ceiling(9.0, -0.5, 12.5, 5.4, 1.0)),
        join(LEVEL, ceiling(9.0, -0.5, 12.5, 5.4, 1.0)),
        LEVEL,
    ]
    mesh = build_tiles(*LEVEL, TILED)
    emptied = tile_id(2, 0)
    for k, level in enumerate(changes):
        for j in range(3):
            for i in range(3):
                mesh = rebuild_tile(mesh, i, j, *level, TILED)
        full = build_tiles(*level, TILED)
        assert (emptied in mesh.tiles) == (k in (0, 3))
        assert set(np.unique(mesh.tiles).tolist()) == set(np.unique(full.tiles).tolist())
        for number in np.unique(full.tiles):
            got = poly_set(mesh, np.flatnonzero(mesh.tiles == number))
            assert got == poly_set(full, np.flatnonzero(full.tiles == number)), k
        used = np.unique(mesh.polygons[mesh.polygons >= 0])
        assert used.size == mesh.vertices.shape[0]
        assert mesh.detail is not None
        assert mesh.detail[1].shape[0] <= 2 * int(mesh.detail[2][:, 1].sum())
        ours = NavMesh3D(mesh, height_tolerance=TILED.agent_max_climb)
        theirs = NavMesh3D(full, height_tolerance=TILED.agent_max_climb)
        assert ours.components()[1] == theirs.components()[1]
        pts = theirs.random_points(12, seed=k)
        for a, b in zip(pts[:6], pts[6:], strict=True):
            want = theirs.find_path(a, b)
            got = ours.find_path(a, b, snap=True)
            assert bool(got) == bool(want)
            if want:
                assert got.cost == pytest.approx(want.cost, rel=1e-6, abs=1e-6)


def test_a_tile_built_from_the_triangles_near_it_is_the_one_the_whole_level_gives() -> None:
    """Each tile of a tiled build reads only the triangles whose box reaches its own
    with its border; built from every triangle of the level instead (as a tile built
    alone is), each tile is the same, array for array (RecastDemo's nav_test.obj:
    stairs, bridges, long thin triangles)."""
    from pathlib import Path

    from pathcraft.navmesh3d import read_obj
    from pathcraft.navmesh3d._build import _build_one, _reach, _tile_range

    verts, tris = read_obj(Path(__file__).parent / "data" / "recast" / "nav_test.obj")
    config = BuildConfig(tile_size=48)
    near = _reach(verts, tris, config)
    assert ((near[1] - near[0]) < 4).mean() > 0.9  # most reach a few tiles
    xs, ys = _tile_range(verts, config)
    for j in ys:
        for i in xs:
            a = _build_one(verts, tris, config, i, j, near)
            b = _build_one(verts, tris, config, i, j)
            assert np.array_equal(a.vertices, b.vertices) and np.array_equal(a.polygons, b.polygons)
            if a.detail is not None and b.detail is not None:
                assert all(np.array_equal(x, y) for x, y in zip(a.detail, b.detail, strict=True))
            assert (a.detail is None) == (b.detail is None)


def test_joined_tiles_take_the_vertices_across_their_shared_edge() -> None:
    """Two tiles' meshes joined: the west tile's side along the shared edge takes the
    vertex where the east tile's two polygons meet on it, so all three link."""
    from pathcraft.navmesh3d._splice import join

    s = TILED.tile_size * TILED.cell_size  # 4.8
    west = PolyMesh3D([(0, 0, 0), (s, 0, 0), (s, s, 0), (0, s, 0)], [[0, 1, 2, 3]],
                      tiles=[tile_id(0, 0)])  # fmt: skip
    east = PolyMesh3D(
        [(s, 0, 0), (2 * s, 0, 0), (2 * s, s / 2, 0), (s, s / 2, 0), (2 * s, s, 0), (s, s, 0)],
        [[0, 1, 2, 3], [3, 2, 4, 5]], tiles=[tile_id(1, 0)] * 2,
    )  # fmt: skip
    mesh = join([west, east], TILED, s)
    assert mesh.vertices.shape[0] == 8  # the shared corners welded
    assert (mesh.polygons[0] >= 0).sum() == 5  # (s, s / 2) put into the west side
    adj = mesh.adjacency()
    assert sorted(q for q in adj[0].tolist() if q >= 0) == [1, 2]


def test_tile_numbers_and_bad_arguments() -> None:
    assert tile_of(tile_id(0, 0)) == (0, 0)
    assert tile_of(tile_id(-16384, 16383)) == (-16384, 16383)
    with pytest.raises(ValueError, match="i must be from"):
        tile_id(1 << 14, 0)
    with pytest.raises(TypeError, match="j must be an integer"):
        tile_id(0, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tile_size must be > 0"):
        build_tiles(*LEVEL, CONFIG)
    with pytest.raises(TypeError, match="config must be a BuildConfig"):
        build(*LEVEL, {"cell_size": 0.3})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mesh must be a PolyMesh3D"):
        rebuild_tile("mesh", 0, 0, *LEVEL, TILED)  # type: ignore[arg-type]


# Recast (recastnavigation 9f4ce644, built from its public source; Sample_SoloMesh with
# RecastDemo's defaults) on RecastDemo's levels: its polygon mesh's polygons, vertices,
# and the area it covers seen from above (its polygons' union).
RECAST_POLYMESH = {"dungeon": (118, 223, 1574.967), "nav_test": (155, 349, 3511.774)}


@pytest.mark.parametrize("level", sorted(RECAST_POLYMESH))
def test_recastdemo_levels_cover_what_recast_covers(level: str) -> None:
    from pathlib import Path

    from pathcraft.navmesh3d import read_obj

    path = Path(__file__).parent / "data" / "recast" / f"{level}.obj"
    mesh = build(*read_obj(path))
    polys, verts, area = RECAST_POLYMESH[level]
    assert cover(mesh).area == pytest.approx(area, rel=0.01)
    assert abs(mesh.num_polygons - polys) <= 0.1 * polys
    assert abs(mesh.vertices.shape[0] - verts) <= 0.1 * verts
    assert mesh.max_verts_per_poly == 6 and ((mesh.polygons >= 0).sum(axis=1) <= 6).all()
