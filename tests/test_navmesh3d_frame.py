"""The build lays its grid as Recast lays it, and gives everything in the caller's frame.

Recast's rows run along a y-up file's Z, our -y, from the level's largest y; the build
mirrors the level in, runs Recast's pipeline there and mirrors every output back. The
oracle for the placement is Recast's own polygon mesh of RecastDemo's levels
(tests/data/recast/recast_polymesh.txt); for the frame, the level's own triangles
(shapely).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from test_navmesh3d_build import box, floor, join

from pathcraft.navmesh3d import (
    BuildConfig,
    PolyMesh3D,
    build,
    build_compact,
    build_contours,
    build_polymesh,
    build_tiles,
    read_obj,
    rebuild_tile,
    tile_id,
    tile_of,
)

shapely = pytest.importorskip("shapely")

DATA = Path(__file__).parent / "data" / "recast"


def recast_polymesh(level: str) -> tuple[npt.NDArray[np.float64], list[list[int]]]:
    """Recast's polygon mesh of ``level`` (vertices in our frame, polygons in its
    order) as the data file holds it."""
    lines = [ln for ln in (DATA / "recast_polymesh.txt").read_text().splitlines() if ln[:1] != "#"]
    at = lines.index(next(ln for ln in lines if ln.split()[:2] == ["level", level]))
    nv, npoly = (int(x) for x in lines[at].split()[2:])
    verts = np.array([ln.split() for ln in lines[at + 1 : at + 1 + nv]], dtype=np.float64)
    polys = [[int(x) for x in ln.split()] for ln in lines[at + 1 + nv : at + 1 + nv + npoly]]
    return verts, polys


def area_of(mesh: PolyMesh3D) -> float:
    return float(shapely.union_all([shapely.Polygon(r[:, :2]) for r in rings(mesh)]).area)


def rings(mesh: PolyMesh3D) -> list[npt.NDArray[np.float64]]:
    return [mesh.vertices[p[p >= 0]] for p in mesh.polygons]


@pytest.mark.parametrize("level", ["dungeon", "nav_test"])
def test_the_default_build_is_recasts_polygon_mesh(level: str) -> None:
    mesh = build(*read_obj(DATA / f"{level}.obj"))
    theirs, polys = recast_polymesh(level)
    assert mesh.vertices.shape[0] == len(theirs) and mesh.num_polygons == len(polys)
    # each of our vertices is one of Recast's (it writes 6 digits)
    gap = np.linalg.norm(mesh.vertices[:, None, :] - theirs[None, :, :], axis=2)
    same = gap.argmin(axis=1)
    assert gap.min(axis=1).max() < 1e-3
    assert np.unique(same).size == len(theirs)

    # polygon for polygon, vertex for vertex, in Recast's order (from any first one)
    def key(ring: list[int]) -> tuple[int, ...]:
        k = ring.index(min(ring))
        return tuple(ring[k:] + ring[:k])

    ours = {key([int(same[v]) for v in p if v >= 0]) for p in mesh.polygons}
    assert ours == {key(p) for p in polys}
    recast_area = shapely.union_all([shapely.Polygon(theirs[p, :2]) for p in polys]).area
    assert area_of(mesh) == pytest.approx(recast_area, rel=1e-5)


#: An L-shaped floor that is not its own mirror image along y: a wide strip along the
#: bottom (y 0 to 4) and a narrow arm up the left (x 0 to 4, y 4 to 14).
L_LEVEL = join(floor(0, 0, 12, 4), floor(0, 4, 4, 14))
L_SHAPE = shapely.union_all([shapely.box(0, 0, 12, 4), shapely.box(0, 4, 4, 14)])
NO_RADIUS = BuildConfig(agent_radius=0)


def test_every_output_is_in_the_callers_frame_not_the_mirrors() -> None:
    verts, tris = L_LEVEL
    before = (verts.copy(), tris.copy())
    mesh = build(verts, tris, NO_RADIUS)
    assert np.array_equal(verts, before[0]) and np.array_equal(tris, before[1])
    cover = shapely.union_all([shapely.Polygon(r[:, :2]) for r in rings(mesh)])
    # the level less its ledge cells (contours simplified within edge_max_error), in
    # the level's place, not its mirror image's (its strip at the top)
    assert cover.difference(L_SHAPE).area < 0.01 * cover.area
    assert cover.area > 0.8 * L_SHAPE.area
    assert cover.contains(shapely.Point(10, 2)) and not cover.intersects(shapely.box(5, 6, 12, 14))
    # the layers: spans, contours and each column's image over the level too
    chf = build_compact(verts, tris, NO_RADIUS)
    points = chf.span_points()
    assert shapely.contains_xy(L_SHAPE, points[:, 0], points[:, 1]).all()
    contours = build_contours(chf, NO_RADIUS)
    for ring in contours.outlines():
        ring_area = shapely.Polygon(ring[:, :2]).area
        assert shapely.Polygon(ring[:, :2]).difference(L_SHAPE).area < 0.01 * ring_area
    image = chf.column_layer(np.ones(chf.span_count), fill=0.0)
    top = chf.bmax[1]
    ys = top - (chf.depth - np.arange(chf.depth) - 0.5) * chf.cs  # image row k's centre
    xs = chf.bmin[0] + (np.arange(chf.width) + 0.5) * chf.cs
    gx, gy = np.meshgrid(xs, ys)
    inside = shapely.contains_xy(L_SHAPE.buffer(-chf.cs), gx, gy)
    assert (image[inside] == 1).all()
    assert (image[~shapely.contains_xy(L_SHAPE, gx, gy)] == 0).all()
    cells = chf.span_cells()
    assert np.allclose(xs[cells[:, 0]], points[:, 0]) and np.allclose(ys[cells[:, 1]], points[:, 1])
    # the polygons are counter-clockwise seen from above (PolyMesh3D checks it) and
    # the step-by-step build gives the same mesh as build
    again = build_polymesh(contours, chf, NO_RADIUS)
    assert np.array_equal(again.vertices, mesh.vertices)
    assert np.array_equal(again.polygons, mesh.polygons)


def test_bounds_are_taken_in_the_callers_frame() -> None:
    verts, tris = L_LEVEL
    bounds = [[0, 8, -1], [4, 14, 1]]  # the arm's far end only
    chf = build_compact(verts, tris, NO_RADIUS, bounds=bounds)
    assert chf.bmin[:2].tolist() == [0, 8] and chf.bmax[:2].tolist() == [4, 14]
    points = chf.span_points()
    assert chf.span_count > 0
    assert (points[:, 1] > 8).all() and (points[:, 1] < 14).all()


def test_a_face_on_a_cell_boundary_lands_in_recasts_cell_in_the_mesh_too() -> None:
    # a floor and a step 0.5 up whose riser lies on a cell boundary (y = 1.5 on cells
    # of 0.25 counted down from y = 3). Recast gives the riser to the row on its + side
    # in its frame, the -y side in ours: the floor's row beside the step then tops at
    # 0.5, a cell below the step and a cell above the floor (a climb of one cell each
    # way), and rcFilterLedgeSpans drops that row alone (its neighbours differ by two
    # cells), so the step's polygon reaches down to the riser. Mirrored, the riser
    # lands in the step's own row, two cells above the floor's row beside it: the
    # step's row is a ledge (a drop of two cells) and the floor reaches the riser, so
    # the mesh is not the mirror image of the level's.
    config = BuildConfig(
        cell_size=0.25, cell_height=0.25, agent_radius=0, agent_max_climb=0.25, region_min_size=0
    )
    verts, tris = join(floor(0, 0, 3, 1.5), box(0, 1.5, 3, 3, 0, 0.5))

    def ends(mesh: PolyMesh3D) -> tuple[float, float, float, float]:
        low = np.vstack([r for r in rings(mesh) if r[:, 2].max() < 0.5])  # the floor
        high = np.vstack([r for r in rings(mesh) if r[:, 2].min() > 0.5])  # the step
        return low[:, 1].min(), low[:, 1].max(), high[:, 1].min(), high[:, 1].max()

    assert ends(build(verts, tris, config)) == pytest.approx((0.25, 1.25, 1.5, 2.75))
    mirrored = build(verts * [1, -1, 1], tris[:, ::-1], config)
    assert ends(mirrored) == pytest.approx((-1.5, -0.25, -2.75, -1.75))


def test_tiles_keep_their_boxes_and_numbers_in_the_callers_frame() -> None:
    config = BuildConfig(tile_size=16, agent_radius=0)  # tiles 4.8 wide
    verts, tris = L_LEVEL
    mesh = build_tiles(verts, tris, config)
    size = 16 * 0.3
    for t in np.unique(mesh.tiles):
        i, j = tile_of(int(t))
        square = shapely.box(i * size, j * size, (i + 1) * size, (j + 1) * size)
        for r in [mesh.vertices[p[p >= 0]] for p in mesh.polygons[mesh.tiles == t]]:
            assert shapely.Polygon(r[:, :2]).difference(square).area < 1e-9
    # tile (0, 0) is the one at the origin; (0, 2) is up the arm, (2, 2) is no tile
    numbers = set(np.unique(mesh.tiles).tolist())
    assert {tile_id(0, 0), tile_id(2, 0), tile_id(0, 2)} <= numbers
    assert tile_id(2, 2) not in numbers
    # a crate in tile (0, 2) (x 0 to 4.8, y 9.6 to 14.4): rebuilding that tile makes
    # the hole there, and equals the full build of the changed level
    level = join(L_LEVEL, box(1.5, 11, 2.5, 12, 0, 1.5))
    after = rebuild_tile(mesh, 0, 2, *level, config)
    full = build_tiles(*level, config)
    hole = shapely.box(1.5, 11, 2.5, 12)
    for m in (after, full):
        cover = shapely.union_all([shapely.Polygon(r[:, :2]) for r in rings(m)])
        assert cover.intersection(hole).area < 1e-9

    def keys(m: PolyMesh3D) -> set[tuple[tuple[float, ...], ...]]:
        out = set()
        for p in m.polygons:
            ring = [tuple(np.round(m.vertices[v], 5).tolist()) for v in p if v >= 0]
            k = ring.index(min(ring))
            out.add(tuple(ring[k:] + ring[:k]))
        return out

    assert keys(after) == keys(full)
