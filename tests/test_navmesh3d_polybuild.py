"""Contours, convex polygons and detail heights from hand-made compact heightfields.

The heightfields here are built by hand (one span per walkable cell, regions given),
so the second half of the build is tested alone; shapely is the oracle for areas.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcraft.navmesh3d import BuildConfig, CompactHeightfield, PolyMesh3D
from pathcraft.navmesh3d._contours import build_contours
from pathcraft.navmesh3d._polybuild import build_polymesh

shapely = pytest.importorskip("shapely")
ndimage = pytest.importorskip("scipy.ndimage")

DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def chf_of(
    regions: npt.ArrayLike,
    heights: npt.ArrayLike | None = None,
    *,
    cs: float = 1.0,
    ch: float = 0.25,
    climb: int = 2,
    border: int = 0,
) -> CompactHeightfield:
    """One span per cell of ``regions[y, x]`` > 0 (its region; border regions carry
    0x8000), floors ``heights[y, x]`` (cells of ``ch``); neighbours linked when the
    step is within ``climb``. Several layers: pass 3-D arrays ``[layer, y, x]``. Cell
    ``(x, y)`` covers ``x * cs`` to ``(x + 1) * cs`` and ``y * cs`` to ``(y + 1) * cs``:
    it is row ``depth - 1 - y`` of the heightfield, whose rows run down from its
    largest y as Recast's (``DIRS`` are Recast's steps in those rows)."""
    reg = np.asarray(regions)
    if reg.ndim == 2:
        reg = reg[None]
    hgt = np.zeros(reg.shape, dtype=int) if heights is None else np.asarray(heights)
    if hgt.ndim == 2:
        hgt = hgt[None]
    reg, hgt = reg[:, ::-1], hgt[:, ::-1]  # rows counted down from the largest y
    layers, depth, width = reg.shape
    first = np.zeros(width * depth, dtype=np.int32)
    count = np.zeros(width * depth, dtype=np.int32)
    index = np.full(reg.shape, -1)
    n = 0
    for y in range(depth):
        for x in range(width):
            first[x + y * width] = n
            for k in range(layers):
                if reg[k, y, x]:
                    index[k, y, x] = n
                    n += 1
            count[x + y * width] = n - first[x + y * width]
    z = np.zeros(n, dtype=np.int32)
    region = np.zeros(n, dtype=np.uint16)
    con = np.full((n, 4), -1, dtype=np.int32)
    for k, y, x in zip(*np.nonzero(index >= 0), strict=True):
        i = index[k, y, x]
        z[i] = hgt[k, y, x]
        region[i] = reg[k, y, x]
        for d, (dx, dy) in enumerate(DIRS):
            ax, ay = x + dx, y + dy
            if 0 <= ax < width and 0 <= ay < depth:
                for k2 in range(layers):
                    j = index[k2, ay, ax]
                    if j >= 0 and abs(int(hgt[k2, ay, ax]) - int(hgt[k, y, x])) <= climb:
                        con[i, d] = j
    return CompactHeightfield(
        width=width, depth=depth, border=border,
        bmin=np.array([0.0, 0.0, 0.0]), bmax=np.array([width * cs, depth * cs, 10.0]),
        cs=cs, ch=ch, walkable_height=8, walkable_climb=climb,
        cell_first=first, cell_count=count, z=z, h=np.full(n, 50, dtype=np.int32), con=con,
        area=np.where(region > 0, 63, 0).astype(np.uint8), dist=np.zeros(n, dtype=np.uint16),
        region=region, n_regions=int(region[region < 0x8000].max(initial=0)),
    )  # fmt: skip


EXACT = BuildConfig(cell_size=1.0, cell_height=0.25, edge_max_error=0.0, edge_max_len=0.0)


def build(chf: CompactHeightfield, config: BuildConfig = EXACT) -> PolyMesh3D:
    return build_polymesh(build_contours(chf, config), chf, config)


def union(mesh: PolyMesh3D, rows: npt.ArrayLike | None = None) -> object:
    polys = mesh.polygons if rows is None else mesh.polygons[rows]
    return shapely.union_all([shapely.Polygon(mesh.vertices[p[p >= 0], :2]) for p in polys])


def cells_shape(mask: npt.NDArray[np.bool_], cs: float = 1.0) -> object:
    ys, xs = np.nonzero(mask)
    return shapely.union_all(
        [
            shapely.box(x * cs, y * cs, (x + 1) * cs, (y + 1) * cs)
            for x, y in zip(xs, ys, strict=True)
        ]
    )


def assert_tiles_exactly(mesh: PolyMesh3D, shape: object) -> None:
    """The polygons cover ``shape`` exactly, without overlapping one another."""
    polys = [shapely.Polygon(mesh.vertices[p[p >= 0], :2]) for p in mesh.polygons]
    total = sum(p.area for p in polys)
    cover = shapely.union_all(polys)
    assert total == pytest.approx(cover.area, abs=1e-9)  # no overlaps
    assert cover.symmetric_difference(shape).area == pytest.approx(0.0, abs=1e-9)


def test_rectangle_is_cut_into_convex_counter_clockwise_polygons() -> None:
    reg = np.zeros((8, 12), dtype=int)
    reg[1:7, 2:11] = 1
    mesh = build(chf_of(reg))
    assert mesh.num_polygons >= 1
    assert mesh.max_verts_per_poly == 6
    assert (mesh.areas == 63).all() and (mesh.tiles == -1).all()
    assert_tiles_exactly(mesh, shapely.box(2, 1, 11, 7))
    # the polygon check of PolyMesh3D (convex, counter-clockwise) passed on construction
    assert np.allclose(mesh.vertices[:, 2], 0.0)


@pytest.mark.parametrize("nvp", [3, 4, 6])
def test_l_shape_polygons_respect_verts_per_poly(nvp: int) -> None:
    reg = np.zeros((10, 10), dtype=int)
    reg[1:9, 1:4] = 1
    reg[1:4, 1:9] = 1
    config = BuildConfig(
        cell_size=1.0, cell_height=0.25, edge_max_error=0.0, edge_max_len=0.0, verts_per_poly=nvp
    )
    mesh = build(chf_of(reg), config)
    assert mesh.max_verts_per_poly == nvp
    assert ((mesh.polygons >= 0).sum(axis=1) <= nvp).all()
    assert_tiles_exactly(mesh, cells_shape(reg > 0))
    if nvp == 3:
        assert ((mesh.polygons >= 0).sum(axis=1) == 3).all()


def test_region_with_a_hole_keeps_the_hole() -> None:
    reg = np.zeros((12, 12), dtype=int)
    reg[1:11, 1:11] = 1
    reg[4:7, 5:8] = 0
    chf = chf_of(reg)
    contours = build_contours(chf, EXACT)
    # the hole was traced, then joined to the outline (its count set to 0)
    assert (contours.raw_count > 0).sum() == 2
    assert (contours.count > 0).sum() == 1
    mesh = build_polymesh(contours, chf, EXACT)
    shape = cells_shape(reg > 0)
    assert len(shape.interiors) == 1
    assert_tiles_exactly(mesh, shape)


def test_two_regions_share_their_portal_vertices() -> None:
    reg = np.zeros((8, 14), dtype=int)
    reg[1:7, 1:7] = 1
    reg[1:7, 7:13] = 2
    mesh = build(chf_of(reg))
    assert_tiles_exactly(mesh, shapely.box(1, 1, 13, 7))
    left = np.array([union(mesh, [k]).centroid.x < 7 for k in range(mesh.num_polygons)])
    adj = mesh.adjacency()
    crossing = [(p, q) for p in range(mesh.num_polygons) for q in adj[p] if q >= 0]
    assert any(left[p] != left[q] for p, q in crossing)


def test_simplification_stays_within_max_error() -> None:
    # a staircase edge: simplified to a straight line within edge_max_error
    reg = np.zeros((20, 20), dtype=int)
    for y in range(1, 19):
        reg[y, 1 : 2 + y // 2] = 1
    shape = cells_shape(reg > 0)
    for error in (0.0, 1.3, 3.0):
        config = BuildConfig(cell_size=1.0, cell_height=0.25, edge_max_error=error)
        contours = build_contours(chf_of(reg), config)
        assert (contours.count > 0).sum() == 1
        outline = shapely.Polygon(contours.world(contours.verts)[:, :2])
        raw = shapely.Polygon(contours.outlines(raw=True)[0][:, :2])
        assert raw.symmetric_difference(shape).area == pytest.approx(0.0)
        # every raw corner lies within the error of the simplified outline
        corners = shapely.points(contours.outlines(raw=True)[0][:, :2])
        assert shapely.distance(outline.exterior, corners).max() <= error + 1e-9


def test_long_walls_are_split_to_edge_max_len() -> None:
    reg = np.zeros((5, 40), dtype=int)
    reg[1:4, 1:39] = 1
    config = BuildConfig(cell_size=1.0, cell_height=0.25, edge_max_len=8.0)
    contours = build_contours(chf_of(reg), config)
    pts = contours.world(contours.verts)[:, :2]
    sides = np.hypot(*(np.roll(pts, -1, axis=0) - pts).T)
    assert sides.max() <= 8.0 + 1e-9


def test_ramp_polygons_follow_the_floor_and_detail_samples_it() -> None:
    # a floor rising 1 cell of ch per cell along x, then flat: the corner heights and
    # detail triangles lie on the floor
    reg = np.zeros((6, 20), dtype=int)
    reg[1:5, 1:19] = 1
    hgt = np.minimum(np.arange(20), 10)[None, :].repeat(6, axis=0)
    chf = chf_of(reg, hgt, climb=1)
    config = BuildConfig(
        cell_size=1.0, cell_height=0.25, edge_max_error=0.0, detail_sample_dist=1.0,
        detail_sample_max_error=0.0,
    )  # fmt: skip
    mesh = build(chf, config)
    assert_tiles_exactly(mesh, shapely.box(1, 1, 19, 5))
    floor = lambda x: np.minimum(np.floor(np.clip(x, 1, 18.999)), 10) * 0.25  # noqa: E731
    # every polygon vertex is at most one step (the corner's highest floor) above
    v = mesh.vertices
    assert (v[:, 2] >= floor(v[:, 0]) - 1e-9).all() and (
        v[:, 2] <= floor(v[:, 0]) + 0.25 + 1e-9
    ).all()
    assert mesh.detail is not None
    dv, dt, do = mesh.detail
    # Recast's triangulation: at least n - 2 triangles for an n-gon (more where edge or
    # inside samples were kept)
    assert (do[:, 1] >= (mesh.polygons >= 0).sum(axis=1) - 2).all()
    # each polygon's detail triangles wind counter-clockwise and cover it exactly
    a, b, c = dv[dt[:, 0], :2], dv[dt[:, 1], :2], dv[dt[:, 2], :2]
    u, w = b - a, c - a
    tri_area = 0.5 * (u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0])
    assert (tri_area > 0).all()
    for p, (first, count) in enumerate(do):
        poly = shapely.Polygon(mesh.vertices[mesh.polygons[p][mesh.polygons[p] >= 0], :2])
        assert tri_area[first : first + count].sum() == pytest.approx(poly.area)
    # Recast's samples sit one ch above the floor they read, and a sample within 0.01
    # cell of a cell's edge reads the next cell's floor (one step of the ramp)
    assert np.abs(dv[:, 2] - floor(dv[:, 0])).max() <= 2 * 0.25 + 1e-6


def test_floors_over_one_another_stay_apart() -> None:
    # a floor at height 0 and a bridge 12 cells of ch above it over the middle
    low = np.zeros((10, 10), dtype=int)
    low[1:9, 1:9] = 1
    high = np.zeros((10, 10), dtype=int)
    high[4:6, 0:10] = 2
    reg = np.stack([low, high])
    hgt = np.stack([np.zeros((10, 10), int), np.full((10, 10), 12)])
    chf = chf_of(reg, hgt)
    mesh = build(chf)
    z = mesh.vertices[mesh.polygons[:, 0], 2]
    upper = z > 1.0
    assert_tiles_exactly(_rows(mesh, ~upper), shapely.box(1, 1, 9, 9))
    assert_tiles_exactly(_rows(mesh, upper), shapely.box(0, 4, 10, 6))
    assert np.allclose(mesh.vertices[mesh.polygons[upper][mesh.polygons[upper] >= 0], 2], 3.0)
    # no portal between the floors
    adj = mesh.adjacency()
    assert all(upper[q] == upper[p] for p in range(mesh.num_polygons) for q in adj[p] if q >= 0)
    # each polygon's detail heights are read from its own floor (Recast's height patch
    # of the polygon's region): at its corners' height or one ch (Recast's lift) above
    assert mesh.detail is not None
    dv, dt, do = mesh.detail
    for p in range(mesh.num_polygons):
        heights = dv[dt[do[p, 0] : do[p, 0] + do[p, 1]].ravel(), 2]
        corner = mesh.vertices[mesh.polygons[p, 0], 2]
        lift = heights - corner
        assert np.all((np.abs(lift) < 1e-9) | (np.abs(lift - chf.ch) < 1e-6))


def _rows(mesh: PolyMesh3D, rows: npt.NDArray[np.bool_]) -> PolyMesh3D:
    return PolyMesh3D(mesh.vertices, mesh.polygons[rows])


def test_border_regions_make_no_polygons_and_coordinates_drop_the_border() -> None:
    # Recast paints the four border strips as four border regions
    reg = np.zeros((10, 10), dtype=int)
    reg[:, :3] = 0x8000 | 1
    reg[:, 7:] = 0x8000 | 2
    reg[:3, :] = 0x8000 | 3
    reg[7:, :] = 0x8000 | 4
    reg[3:7, 3:7] = 1
    chf = chf_of(reg, border=3)
    mesh = build(chf)
    # the tile proper starts 3 cells in: its polygons reach its edges (3 to 7 in world)
    assert_tiles_exactly(mesh, shapely.box(3, 3, 7, 7))
    assert build_contours(chf, EXACT).verts[:, [0, 2]].min() == 0


def test_tile_border_vertices_are_removed_as_recast_removes_them() -> None:
    # two regions meet on the tile's edge: the corners where they meet the border
    # strips are tile-border vertices, removed (the polygons round them redone)
    reg = np.zeros((10, 10), dtype=int)
    reg[:, :3] = 0x8000 | 1
    reg[:, 7:] = 0x8000 | 2
    reg[:3, :] = 0x8000 | 3
    reg[7:, :] = 0x8000 | 4
    reg[3:7, 3:5] = 1
    reg[3:7, 5:7] = 2
    chf = chf_of(reg, border=3)
    contours = build_contours(chf, EXACT)
    flagged = contours.world(contours.verts[(contours.verts[:, 3] & 0x10000) != 0])
    assert sorted(map(tuple, flagged[:, :2].tolist())) == [
        (5.0, 3.0),
        (5.0, 3.0),
        (5.0, 7.0),
        (5.0, 7.0),
    ]
    mesh = build_polymesh(contours, chf, EXACT)
    assert_tiles_exactly(mesh, shapely.box(3, 3, 7, 7))
    left = {tuple(v) for v in mesh.vertices[:, :2].tolist()}
    assert (5.0, 3.0) not in left and (5.0, 7.0) not in left


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14), st.integers(2, 8),
                          st.integers(2, 8)), min_size=1, max_size=5))  # fmt: skip
def test_union_of_rectangles_is_covered_exactly(rects: list[tuple[int, int, int, int]]) -> None:
    mask = np.zeros((24, 24), dtype=bool)
    for x, y, w, h in rects:
        mask[y : y + h, x : x + w] = True
    # regions: 4-connected parts (a region in Recast is 4-connected too)
    labels, _ = ndimage.label(mask)
    mesh = build(chf_of(labels))
    shape = cells_shape(mask)
    cover = union(mesh)
    # never outside the walkable cells, and covering them (pinched corners of unions
    # of rectangles are traced as Recast traces them, so nothing is lost)
    assert cover.difference(shape).area == pytest.approx(0.0, abs=1e-9)
    assert cover.area == pytest.approx(shape.area, rel=1e-9)


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="chf must be a CompactHeightfield"):
        build_contours("not a heightfield")  # type: ignore[arg-type]
    chf = chf_of(np.ones((3, 3), int))
    with pytest.raises(TypeError, match="config must be a BuildConfig"):
        build_contours(chf, {"cell_size": 1})  # type: ignore[arg-type]
    contours = build_contours(chf, EXACT)
    with pytest.raises(TypeError, match="contours must be a ContourSet"):
        build_polymesh(chf, chf)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="chf must be a CompactHeightfield"):
        build_polymesh(contours, contours)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tile must be an integer"):
        build_polymesh(contours, chf, EXACT, tile=1.5)  # type: ignore[arg-type]


def test_draw_build_shows_contours_and_polygons() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from pathcraft.navmesh3d import draw_build

    reg = np.zeros((10, 14), dtype=int)
    reg[1:9, 1:7] = 1
    reg[1:9, 7:13] = 2
    chf = chf_of(reg)
    contours = build_contours(chf, EXACT)
    mesh = build_polymesh(contours, chf, EXACT)
    ax = draw_build(contours, mesh)
    assert ax.get_title() == f"2 contours, {mesh.num_polygons} polygons"
    assert len(ax.lines) == 2 and len(ax.collections) == 1
    # each drawn outline is its contour, closed
    drawn = np.column_stack(ax.lines[0].get_data())
    assert np.allclose(drawn[:-1], contours.outlines()[0][:, :2]) and (drawn[0] == drawn[-1]).all()
    assert draw_build(contours, raw=True).get_title() == "2 raw contours"
    with pytest.raises(TypeError, match="needs contours, mesh or both"):
        draw_build()
    with pytest.raises(TypeError, match="mesh must be a PolyMesh3D"):
        draw_build(mesh=contours)  # type: ignore[arg-type]
