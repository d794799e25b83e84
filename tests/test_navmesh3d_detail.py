"""The detail mesh is Recast's: ``rcBuildPolyMeshDetail`` ported (``_core.recast_detail``).

The oracle is Recast's own detail mesh of RecastDemo's levels
(tests/data/recast/recast_detail.txt, dumped by Recast built from its public source with
RecastDemo's settings): polygon for polygon the same vertices (to the 6 digits Recast's
dump writes) and the same triangles. The corners are the only place that differs by
design: Recast lifts every detail vertex one cell height ``ch`` above its floor, and
Detour reads a polygon's corners from the polygon mesh, not from those copies; ours are
the polygon mesh's corners, as Detour's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import ndimage
from test_navmesh3d_polybuild import chf_of

from pathcraft._core import recast_detail
from pathcraft.navmesh3d import (
    BuildConfig,
    PolyMesh3D,
    build,
    build_compact,
    build_contours,
    build_polymesh,
    read_obj,
)

DATA = Path(__file__).parent / "data" / "recast"


def recast_detail_mesh(
    level: str,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Recast's detail mesh of ``level``: per-polygon ``(first vertex, count, first
    triangle, count)``, the vertices in our frame, the triangles' local indices."""
    lines = [ln for ln in (DATA / "recast_detail.txt").read_text().splitlines() if ln[:1] != "#"]
    at = lines.index(next(ln for ln in lines if ln.split()[:2] == ["level", level]))
    nm, nv, nt = (int(x) for x in lines[at].split()[2:])
    rows = lines[at + 1 : at + 1 + nm + nv + nt]
    meshes = np.array([r.split() for r in rows[:nm]], dtype=np.int64)
    yup = np.array([r.split() for r in rows[nm : nm + nv]], dtype=np.float64)
    tris = np.array([r.split() for r in rows[nm + nv :]], dtype=np.int64)
    verts = np.stack([yup[:, 0], -yup[:, 2], yup[:, 1]], axis=1)  # y-up (X, Y, Z): (X, -Z, Y)
    return meshes, verts, tris


def _rotated(tri: list[int]) -> tuple[int, ...]:
    k = tri.index(min(tri))
    return tuple(tri[k:] + tri[:k])


@pytest.mark.parametrize("level", ["dungeon", "nav_test"])
def test_the_detail_mesh_is_recasts(level: str) -> None:
    mesh = build(*read_obj(DATA / f"{level}.obj"))
    meshes, theirs, tris = recast_detail_mesh(level)
    assert mesh.detail is not None
    dv, dt, do = mesh.detail
    ch = BuildConfig().cell_height
    assert mesh.num_polygons == meshes.shape[0] and dt.shape[0] == tris.shape[0]
    sizes = mesh.sizes()
    for p, (v0, nv, t0, nt) in enumerate(meshes.tolist()):
        assert do[p, 1] == nt, f"polygon {p}: {do[p, 1]} triangles, Recast {nt}"
        ours = dt[do[p, 0] : do[p, 0] + nt]
        base = int(ours.min())
        local = ours - base
        assert int(local.max()) + 1 == nv, f"polygon {p}: vertex count"
        # the same triangles, each with the same corners in the same turn
        assert sorted(_rotated(t) for t in local.tolist()) == sorted(
            _rotated(t) for t in tris[t0 : t0 + nt].tolist()
        ), f"polygon {p}: triangles"
        mine, recast = dv[base : base + nv], theirs[v0 : v0 + nv]
        k = int(sizes[p])
        # corners: the polygon mesh's own, Recast's copies are ch higher
        np.testing.assert_array_equal(mine[:k], mesh.vertices[mesh.polygons[p, :k]])
        np.testing.assert_allclose(mine[:k] + np.array([0, 0, ch]), recast[:k], atol=1e-3)
        # the samples Recast kept, at its heights (its dump writes 6 digits)
        np.testing.assert_allclose(mine[k:], recast[k:], atol=1e-3)


def _ramp_mesh(**settings: float) -> PolyMesh3D:
    """A 12 x 12 floor rising 0.25 per unit along x (under the climb step)."""
    v = np.array([[0, 0, 0], [12, 0, 3], [12, 12, 3], [0, 12, 0]], dtype=float)
    config = BuildConfig(agent_radius=0, **settings)
    chf = build_compact(v, [[0, 1, 2], [0, 2, 3]], config)
    return build_polymesh(build_contours(chf, config), chf, config)


def test_a_ramp_gets_interior_samples_on_its_floor() -> None:
    mesh = _ramp_mesh(cell_size=0.5, cell_height=0.1, detail_sample_dist=2.0,
                         detail_sample_max_error=0.5)  # fmt: skip
    assert mesh.detail is not None
    dv = mesh.detail[0]
    # every detail vertex lies within a cell height or two of the ramp z = x / 4
    # (the heightfield's floors are whole cells of ch, Recast's samples ch above them)
    assert np.abs(dv[:, 2] - dv[:, 0] / 4).max() < 0.35
    assert dv.shape[0] > mesh.vertices.shape[0]


def test_a_flat_floor_without_sampling_is_the_polygons_triangulated() -> None:
    mesh = _ramp_mesh(detail_sample_dist=0.0)
    assert mesh.detail is not None
    dv, _, do = mesh.detail
    sizes = mesh.sizes()
    # n - 2 triangles per polygon over its own corners only
    np.testing.assert_array_equal(do[:, 1], sizes - 2)
    assert dv.shape[0] == int(sizes.sum())


def test_the_kernel_checks_its_arrays() -> None:
    mv = np.zeros((3, 3), np.int32)
    polys = np.array([[0, 1, 2, -1, -1, -1]], np.int32)
    cells = np.zeros(4, np.int32)
    z = np.zeros(1, np.int32)
    con = np.full((1, 4), -1, np.int32)
    reg = np.ones(1, np.uint16)
    args = (2, 2, 0, cells, cells, z, con, reg, 0.3, 0.2, 1.8, 0.2, 2)
    with pytest.raises(ValueError, match="regions"):
        recast_detail.build_detail(mv, polys, np.ones(2, np.uint16), *args)
    with pytest.raises(ValueError, match="heightfield"):
        recast_detail.build_detail(mv, polys, np.ones(1, np.uint16), 2, 3, *args[2:])
    bad = polys.copy()
    bad[0, 1] = 7
    with pytest.raises(ValueError, match="polys"):
        recast_detail.build_detail(mv, bad, np.ones(1, np.uint16), *args)


def test_edge_samples_lie_on_their_polygon_edges() -> None:
    # Recast computes an edge sample in single precision, a few 1e-6 off the edge at
    # coordinates near 100; ours are put on the edge, so a straight path across a row
    # of polygons stays straight seen from above (on dungeon's far corner too)
    mesh = build(*read_obj(DATA / "dungeon.obj"))
    assert mesh.detail is not None
    dv, dt, do = mesh.detail
    sizes = mesh.sizes()
    on_edges = 0
    for p in range(mesh.num_polygons):
        ring = mesh.vertices[mesh.polygons[p, : sizes[p]], :2]
        used = np.unique(dt[do[p, 0] : do[p, 0] + do[p, 1]])
        for q in dv[used[sizes[p] :], :2]:
            a, b = ring, np.roll(ring, -1, axis=0)
            e, w = b - a, q - a
            t = np.clip((w * e).sum(axis=1) / (e * e).sum(axis=1), 0, 1)
            gap = np.hypot(*(a + t[:, None] * e - q).T).min()
            if gap < 1e-3:  # an edge sample (the others lie inside)
                on_edges += 1
                assert gap < 1e-9 * 100
    assert on_edges > 40  # 46 on dungeon


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(3, 10),
                       st.integers(3, 10)), min_size=1, max_size=4),
    st.integers(0, 3),
)  # fmt: skip
def test_detail_triangles_cover_each_polygon_exactly(
    rects: list[tuple[int, int, int, int]], rise: int
) -> None:
    # unions of rectangles whose floor rises by one cell of ch every ``rise`` cells along
    # x (0: flat), sampled every 2 cells: edge and inside samples, Delaunay triangles
    shapely = pytest.importorskip("shapely")
    mask = np.zeros((24, 24), dtype=bool)
    for x, y, w, h in rects:
        mask[y : y + h, x : x + w] = True
    labels, _ = ndimage.label(mask)
    heights = np.arange(24)[None, :].repeat(24, axis=0) // rise if rise else None
    chf = chf_of(labels, heights, climb=1)
    config = BuildConfig(cell_size=1.0, cell_height=0.25, detail_sample_dist=2.0,
                         detail_sample_max_error=0.0)  # fmt: skip
    mesh = build_polymesh(build_contours(chf, config), chf, config)
    assert mesh.detail is not None
    dv, dt, do = mesh.detail
    sizes = mesh.sizes()
    for p in range(mesh.num_polygons):
        poly = shapely.Polygon(mesh.vertices[mesh.polygons[p, : sizes[p]], :2])
        tris = dv[dt[do[p, 0] : do[p, 0] + do[p, 1]]][:, :, :2]
        e1, e2 = tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
        areas = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]) / 2
        # seen from above the triangles tile the polygon: no gap, no overlap
        assert areas.sum() == pytest.approx(poly.area, rel=1e-9)
        cover = shapely.union_all([shapely.Polygon(t) for t in tris[areas > 1e-12]])
        assert cover.symmetric_difference(poly).area == pytest.approx(0.0, abs=1e-9)
        # every height a floor of the heightfield under it, or one ch above (Recast's
        # lift), within the ramp's step
        used = dv[dt[do[p, 0] : do[p, 0] + do[p, 1]].ravel()]
        floor = np.floor(np.clip(used[:, 0], 0, 23)) // rise * 0.25 if rise else 0.0
        z = used[:, 2]
        assert np.all(z >= floor - 0.25 - 1e-6) and np.all(z <= floor + 0.5 + 1e-6)
