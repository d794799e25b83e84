"""pathcraft's 3-D navmesh build against Recast's, level by level, side by side.

Recast (recastnavigation, zlib licence) is built separately from its public source,
never part of this repository, with a small driver program of one's own (``--recast
BIN``) called as ``BIN level.obj OUT ROUNDS [PAIRS]``: it runs the solo-mesh pipeline of
RecastDemo's ``Sample_SoloMesh`` with its default settings ``ROUNDS`` times and writes
``OUT.times`` (one ``stage seconds`` line per stage, each the fastest round: rasterize,
filter, compact, erode, distance, regions, contours, polymesh, detail, total; CPU time
of the process, as this script takes its own), ``OUT.chf`` (the compact heightfield with
regions: a header line ``width depth spans border regions bmin(3) bmax(3) cs ch
walkableHeight walkableClimb``, a ``first count`` line per column, a ``y h con(4) area
region dist`` line per span, ``con`` the neighbouring span's index or -1) and
``OUT.poly`` (a ``nverts npolys nvp bmin(3) cs ch`` line, the vertices in world units,
one line of ``nvp`` vertex indices (-1 unused) and the area per polygon); with ``PAIRS``
(lines of two points ``x y z``, its frame: y up), it builds a Detour navmesh of the
polygon mesh and writes ``OUT.paths``, one ``ok|partial|nopoly length corners
length_from_above`` line per pair (``findNearestPoly`` with extents (2, 4, 2),
``findPath``, ``findStraightPath``), and ``OUT.straight``, one line per pair of the
two snapped end points (``findNearestPoly``'s, 6 numbers), the number of corners and
the corners of the straight path (3 numbers each), all in its frame. It also writes
``OUT.detail`` (the detail mesh: a ``nmeshes nverts ntris`` line, a ``vbase nverts
tbase ntris`` line per polygon, the vertices in world units, a line of three local
vertex indices per triangle).

For each level (OBJ files; RecastDemo's ``dungeon.obj`` and ``nav_test.obj`` and any
other), this script reports:

- **on Recast's heightfield**: pathcraft's contours, polygons and detail mesh built
  from the heightfield Recast wrote (the second half of the pipeline alone): how many
  polygons are the same as Recast's (same vertices in the same order), and the times
  of contours + polygons + detail against Recast's ``rcBuildContours`` +
  ``rcBuildPolyMesh`` + ``rcBuildPolyMeshDetail``, and of the detail stages alone; how
  many polygons of the whole build have Recast's detail mesh (``OUT.detail``: the same
  vertices to its 6 digits, the same triangles);
- **whole build**: ``navmesh3d.build`` against the driver's solo build, each round of
  one followed by a round of the other, fastest rounds; the walkable area each mesh
  shares with the other, matched in 3-D (the parts of two polygons that overlap seen
  from above, at heights within ``agent_height / 2`` of each other), as a fraction of
  each mesh's own area;
- **on the source**: the share of sample points (each polygon's centre and its
  corners pulled 5% inward) that lie on a walkable triangle of the level (slope within
  ``agent_max_slope``) within ``agent_max_climb`` of its height;
- **tiles**: ``build_tiles`` with tiles of 32 cells; the busiest tile rebuilt alone
  after a crate is dropped in it (``rebuild_tile``) against that tile's own build,
  and whether it equals the same tile of a full rebuild;
- **paths**: path lengths over random pairs of points of our surface against
  Detour's (``findPath`` + ``findStraightPath`` on Recast's mesh), in 3-D, like with
  like: the length of our path's corners (``NavMesh3D.corners``: straight lines
  between the points where it turns, as Detour's straight path is) over Detour's
  straight path's; and apart, the length of our path on the surface (``cost``: over
  every bump of the detail mesh, which a straight line between corners cuts under)
  and both seen from above. Each as the share of pairs within 2%, longer by more than
  2% and shorter by more than 2%, with the median and mean ratio. Then the same
  pairs searched by our ``NavMesh3D`` on Recast's own polygons and detail mesh,
  between the points Detour snapped them to: the same mesh and ends for both, so a
  difference there is the search's and the funnel's alone (Detour's A* costs a
  corridor by its polygons' edge midpoints, ours by points on the portals: either
  can pick a corridor round the far side of a pillar). The same pairs are searched
  with ``algorithm="optimal"`` too (Polyanya over the polygons seen from above), the
  two searches timed in turn, into a section of their own (``--paths-only`` runs it
  alone: one build per level, no timings of the build, no tiles), with the pairs
  whose path (either search) is longer than Detour's by more than 2% listed. (Our
  build lays its grid as Recast lays it, the level mirrored inside: before it did,
  this section also built the level mirrored by hand to compare the two placements.)

Without ``--recast`` only pathcraft's side runs (timings, source check, tiles).

Usage::

    python bench/navmesh3d_recast.py --recast /path/to/rcdrive --levels dungeon.obj nav_test.obj
    python bench/navmesh3d_recast.py --levels level.obj --rounds 3 --no-write
    python bench/navmesh3d_recast.py --recast /path/to/rcdrive --paths-only --levels dungeon.obj
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
import shapely
from _machine import git_rev, machine

import pathcraft
from pathcraft import navmesh3d
from pathcraft.navmesh3d import (
    BuildConfig,
    CompactHeightfield,
    PolyMesh3D,
    _polybuild,
    build,
    build_contours,
    build_polymesh,
    build_tiles,
    read_obj,
    rebuild_tile,
    tile_of,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "navmesh3d.md"
SECTION = "## Polygons, detail and tiles against Recast"
PATHS_SECTION = "## Path lengths against Detour: the default and the optimal search"

#: ``NavMesh3D.find_path``'s algorithms, compared on the same pairs.
ALGORITHMS = ("funnel", "optimal")

FloatArray = npt.NDArray[np.float64]

#: Where the levels come from, for the report.
LEVELS = {
    "dungeon.obj": "RecastDemo/Bin/Meshes of recastnavigation (zlib licence; also in "
    "tests/data/recast)",
    "nav_test.obj": "RecastDemo/Bin/Meshes of recastnavigation (zlib licence; also in "
    "tests/data/recast)",
    "de_dust.obj": "Tests/Bin/Meshes of a recastnavigation fork (commit 085b76af, 'added 3d "
    "models to test'): Valve's Counter-Strike map de_dust as an OBJ; no licence is given "
    "for the mesh, so it is used here only, never shipped",
    "cs_siege.obj": "the same fork and commit: Counter-Strike's cs_siege; no licence given, "
    "used here only",
    "fdm6.obj": "Cube 2: Sauerbraten's map fdm6 by sheik (CC BY-SA 4.0, sauerbraten/fdm6.txt), "
    "as exported to OBJ in github.com/Calinou/game-maps-obj (commit 7f91695d, "
    "sauerbraten/fdm6.obj); scaled by 1/8 (cube units to metres: a player is about 15 "
    "units tall), texture coordinates dropped",
    "zdm2.obj": "Cube 2: Sauerbraten's map zdm2 (CC BY 4.0, sauerbraten/zdm2.txt), the same "
    "repository and commit (sauerbraten/zdm2.obj; Godot's demo projects use it too), "
    "scaled by 1/8 the same way",
}


def to_recast(points: FloatArray) -> FloatArray:
    """World ``(x, y, z)``, z up, in Recast's frame (y up): ``(x, z, -y)``."""
    p = np.asarray(points, dtype=np.float64)
    return np.stack([p[:, 0], p[:, 2], -p[:, 1]], axis=1)


def from_recast(points: FloatArray) -> FloatArray:
    """Recast's ``(X, Y, Z)`` (y up) as world ``(X, -Z, Y)``."""
    p = np.asarray(points, dtype=np.float64)
    return np.stack([p[:, 0], -p[:, 2], p[:, 1]], axis=1)


def run_recast(binary: str, obj: Path, out: Path, rounds: int, pairs: Path | None = None) -> dict:
    args = [binary, str(obj), str(out), str(rounds)] + ([str(pairs)] if pairs else [])
    subprocess.run(args, check=True, capture_output=True, text=True)
    lines = Path(f"{out}.times").read_text().splitlines()
    return {k: float(v) for k, v in (line.split() for line in lines)}


def read_chf(path: str) -> CompactHeightfield:
    """Recast's compact heightfield as ours: the same cell layout (its rows run along
    its ``+Z``, our ``-y``, as ours do), its box turned to our frame."""
    with open(path) as f:
        head = f.readline().split()
        w, d = int(head[0]), int(head[1])
        cells = np.loadtxt(f, max_rows=w * d, dtype=np.int64).reshape(-1, 2)
        spans = np.loadtxt(f, dtype=np.int64).reshape(-1, 9)
    rmin, rmax = np.array(head[5:8], dtype=float), np.array(head[8:11], dtype=float)
    bmin = np.array([rmin[0], -rmax[2], rmin[1]])
    bmax = np.array([rmax[0], -rmin[2], rmax[1]])
    return CompactHeightfield(
        width=w, depth=d, border=int(head[3]), bmin=bmin, bmax=bmax,
        cs=float(head[11]), ch=float(head[12]), walkable_height=int(head[13]),
        walkable_climb=int(head[14]), cell_first=cells[:, 0].astype(np.int32),
        cell_count=cells[:, 1].astype(np.int32), z=spans[:, 0].astype(np.int32),
        h=spans[:, 1].astype(np.int32), con=np.ascontiguousarray(spans[:, 2:6], dtype=np.int32),
        area=spans[:, 6].astype(np.uint8), dist=spans[:, 8].astype(np.uint16),
        region=spans[:, 7].astype(np.uint16), n_regions=int(head[4]),
    )  # fmt: skip


def read_poly(path: str) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """Recast's polygon mesh: world vertices (its frame) and polygon rows."""
    with open(path) as f:
        nv, npoly, nvp = (int(x) for x in f.readline().split()[:3])
        verts = np.loadtxt(f, max_rows=nv).reshape(-1, 3)
        polys = np.loadtxt(f, max_rows=npoly, dtype=np.int64).reshape(-1, nvp + 1)
    return verts, polys[:, :nvp]


def rings(verts: FloatArray, polys: npt.NDArray[np.integer]) -> list[FloatArray]:
    return [verts[p[p >= 0]] for p in polys]


def ring_keys(verts: FloatArray, polys: npt.NDArray[np.integer]) -> set[tuple]:
    out = set()
    for r in rings(verts, polys):
        pts = [tuple(np.round(p, 3).tolist()) for p in r]
        k = pts.index(min(pts))
        out.add(tuple(pts[k:] + pts[:k]))
    return out


def planes(rs: list[FloatArray]) -> FloatArray:
    """Each ring's least-squares plane ``z = a x + b y + c``."""
    out = np.zeros((len(rs), 3))
    for i, r in enumerate(rs):
        a = np.c_[r[:, 0], r[:, 1], np.ones(len(r))]
        out[i] = np.linalg.lstsq(a, r[:, 2], rcond=None)[0]
    return out


def overlap_3d(a: list[FloatArray], b: list[FloatArray], tol: float) -> tuple[float, float, float]:
    """The area of ``a`` and ``b`` that overlap seen from above at heights within
    ``tol``, and each one's whole area."""
    pa = [shapely.Polygon(r[:, :2]) for r in a]
    pb = [shapely.Polygon(r[:, :2]) for r in b]
    za, zb = planes(a), planes(b)
    tree = shapely.STRtree(pb)
    left, right = tree.query(pa, predicate="intersects")
    shared = 0.0
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        part = pa[i].intersection(pb[j])
        if part.area <= 0:
            continue
        c = part.representative_point()
        ha = za[i] @ (c.x, c.y, 1.0)
        hb = zb[j] @ (c.x, c.y, 1.0)
        if abs(ha - hb) <= tol:
            shared += part.area
    return shared, sum(p.area for p in pa), sum(p.area for p in pb)


def on_source(
    mesh: PolyMesh3D, verts: FloatArray, tris: npt.NDArray[np.int32], config: BuildConfig
) -> float:
    """The share of sample points of the polygons on walkable source triangles."""
    a, b, c = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    normal = np.cross(b - a, c - a)
    length = np.linalg.norm(normal, axis=1)
    up = normal[:, 2] / np.where(length > 0, length, 1.0)
    walkable = up >= np.cos(np.radians(config.agent_max_slope)) - 1e-9
    a, b, c = a[walkable], b[walkable], c[walkable]
    tree = shapely.STRtree([shapely.Polygon(np.array(t)[:, :2]) for t in zip(a, b, c, strict=True)])
    samples = []
    for r in rings(mesh.vertices, mesh.polygons):
        centre = r.mean(axis=0)
        samples.append(centre + 0.95 * (r - centre))
        samples.append(centre[None])
    pts = np.vstack(samples)
    ok = np.zeros(len(pts), dtype=bool)
    pi, ti = tree.query(shapely.points(pts[:, :2]), predicate="intersects")
    # barycentric heights of each point in each triangle under it
    v0, v1 = a[ti, :2] - c[ti, :2], b[ti, :2] - c[ti, :2]
    det = v0[:, 0] * v1[:, 1] - v0[:, 1] * v1[:, 0]
    q = pts[pi, :2] - c[ti, :2]
    det = np.where(det == 0, 1e-300, det)
    wa = (q[:, 0] * v1[:, 1] - q[:, 1] * v1[:, 0]) / det
    wb = (v0[:, 0] * q[:, 1] - v0[:, 1] * q[:, 0]) / det
    z = wa * a[ti, 2] + wb * b[ti, 2] + (1 - wa - wb) * c[ti, 2]
    close = np.abs(z - pts[pi, 2]) <= config.agent_max_climb
    ok[pi[close]] = True
    return float(ok.mean())


def crate(x: float, y: float, z: float, side: float = 1.5, height: float = 1.5):
    v = np.array(
        [(x + dx, y + dy, z + dz) for dz in (0, height) for dy in (0, side) for dx in (0, side)]
    )
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    t = [(p, q, r) for p, q, r, s in quads] + [(p, r, s) for p, q, r, s in quads]
    return v, np.array(t, dtype=np.int32)


def best_of(fn, rounds: int) -> tuple[float, object]:
    """The fastest of ``rounds`` calls in CPU time of this process (the machine is
    shared: wall time counts the other jobs too), and the last result."""
    best, out = float("inf"), None
    for _ in range(rounds):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def detail_stage_s(chf: CompactHeightfield, config: BuildConfig, rounds: int) -> float:
    """Our detail stage alone (the CPU time ``build_polymesh`` spends building the
    detail mesh), the fastest of ``rounds``."""
    spent: list[float] = []
    inner = _polybuild.build_detail

    def timed(*args: object) -> object:
        t0 = time.process_time()
        out = inner(*args)
        spent.append(time.process_time() - t0)
        return out

    _polybuild.build_detail = timed
    try:
        for _ in range(rounds):
            build_polymesh(build_contours(chf, config), chf, config)
    finally:
        _polybuild.build_detail = inner
    return min(spent)


def detail_equal(mesh: PolyMesh3D, path: Path, ch: float) -> int:
    """How many polygons have Recast's detail mesh (``OUT.detail``): the same vertices
    (within 1e-3: the file's 6 digits; a polygon's corners are the polygon mesh's, one
    ``ch`` under Recast's copies) and the same triangles. The polygons are in Recast's
    order (the build's)."""
    with open(path) as f:
        nm, nv, nt = (int(x) for x in f.readline().split())
        meshes = np.loadtxt(f, max_rows=nm, dtype=np.int64).reshape(-1, 4)
        theirs = from_recast(np.loadtxt(f, max_rows=nv).reshape(-1, 3))
        tris = np.loadtxt(f, max_rows=nt, dtype=np.int64).reshape(-1, 3)
    if mesh.detail is None or nm != mesh.num_polygons:
        return 0
    dv, dt, do = mesh.detail
    sizes = mesh.sizes()

    def turns(t: npt.NDArray[np.int64]) -> list[tuple[int, ...]]:
        return sorted(tuple(np.roll(r, -int(np.argmin(r))).tolist()) for r in t)

    same = 0
    for p, (v0, n, t0, k) in enumerate(meshes.tolist()):
        ours = dt[do[p, 0] : do[p, 0] + do[p, 1]].astype(np.int64)
        if do[p, 1] != k or ours.max() - ours.min() + 1 != n:
            continue
        mine = dv[ours.min() : ours.min() + n].copy()
        mine[: sizes[p], 2] += ch
        if turns(ours - ours.min()) == turns(tris[t0 : t0 + k]) and np.allclose(
            mine, theirs[v0 : v0 + n], atol=1e-3, rtol=0
        ):
            same += 1
    return same


def tiles_row(verts: FloatArray, tris: npt.NDArray[np.int32], rounds: int) -> dict:
    """Tiles of 32 cells: whole tiled build, the busiest tile rebuilt after a crate."""
    config = BuildConfig(tile_size=32)
    t_all, mesh = best_of(lambda: build_tiles(verts, tris, config), 1)
    assert isinstance(mesh, PolyMesh3D)
    numbers, counts = np.unique(mesh.tiles, return_counts=True)
    busiest = int(numbers[np.argmax(counts)])
    i, j = tile_of(busiest)
    rows = np.flatnonzero(mesh.tiles == busiest)
    centre = mesh.vertices[mesh.polygons[rows][mesh.polygons[rows] >= 0]].mean(axis=0)
    cv, ct = crate(centre[0] - 0.75, centre[1] - 0.75, centre[2] - 0.1)
    v2 = np.concatenate([verts, cv])
    t2 = np.concatenate([tris, ct + len(verts)])
    from pathcraft.navmesh3d._build import _build_one  # the tile's own build, timed alone

    t_tile = t_rebuild = float("inf")
    rebuilt = None
    for _ in range(rounds):  # in turn: the tile's own build, then the rebuild
        t, _ = best_of(lambda: _build_one(v2, t2, config, i, j), 1)
        t_tile = min(t_tile, t)
        t, rebuilt = best_of(lambda: rebuild_tile(mesh, i, j, v2, t2, config), 1)
        t_rebuild = min(t_rebuild, t)
    assert isinstance(rebuilt, PolyMesh3D)
    full = build_tiles(v2, t2, config)
    same = ring_keys(rebuilt.vertices, rebuilt.polygons[rebuilt.tiles == busiest]) == ring_keys(
        full.vertices, full.polygons[full.tiles == busiest]
    )
    return {
        "tiles": len(numbers), "tiled_s": t_all, "tile_s": t_tile, "rebuild_s": t_rebuild,
        "same": same, "tile_polys": int(counts.max()),
    }  # fmt: skip


def random_points(mesh: PolyMesh3D, n: int, rng: np.random.Generator) -> FloatArray:
    """Points spread by area over the surface (the detail triangles)."""
    assert mesh.detail is not None
    dv, dt, _ = mesh.detail
    a, b, c = dv[dt[:, 0]], dv[dt[:, 1]], dv[dt[:, 2]]
    u2, w2 = b[:, :2] - a[:, :2], c[:, :2] - a[:, :2]
    area = 0.5 * np.abs(u2[:, 0] * w2[:, 1] - u2[:, 1] * w2[:, 0])
    pick = rng.choice(len(area), size=n, p=area / area.sum())
    u, v = rng.random(n), rng.random(n)
    flip = u + v > 1
    u, v = np.where(flip, 1 - u, u), np.where(flip, 1 - v, v)
    return a[pick] + u[:, None] * (b[pick] - a[pick]) + v[:, None] * (c[pick] - a[pick])


def ratio_stats(ours: list[float], theirs: list[float], prefix: str) -> dict:
    """The share of pairs within 2%, longer and shorter by more than 2%, and the median
    and mean of ``ours / theirs``, under keys ``prefix + name``."""
    r = np.array(ours) / np.maximum(np.array(theirs), 1e-9)
    if not len(r):
        return {}
    return {
        prefix + "within": float(np.mean(np.abs(r - 1) <= 0.02)),
        prefix + "longer": float(np.mean(r > 1.02)),
        prefix + "shorter": float(np.mean(r < 0.98)),
        prefix + "median": float(np.median(r)),
        prefix + "mean": float(np.mean(r)),
    }


def read_detail(path: Path) -> tuple[FloatArray, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Recast's detail mesh as ``PolyMesh3D``'s ``detail`` (world frame)."""
    with open(path) as f:
        nm, nv, nt = (int(x) for x in f.readline().split())
        meshes = np.loadtxt(f, max_rows=nm, dtype=np.int64).reshape(-1, 4)
        verts = np.loadtxt(f, max_rows=nv).reshape(-1, 3)
        tris = np.loadtxt(f, max_rows=nt, dtype=np.int64).reshape(-1, 3)
    dt = np.concatenate([tris[t0 : t0 + n] + v0 for v0, _, t0, n in meshes.tolist()])
    return from_recast(verts), dt.astype(np.int32), meshes[:, 2:4].astype(np.int32)


def length(path: FloatArray, dims: int = 3) -> float:
    return float(np.sqrt((np.diff(path[:, :dims], axis=0) ** 2).sum(axis=1)).sum())


def paths_row(
    mesh: PolyMesh3D,
    binary: str,
    obj: Path,
    tmp: Path,
    pairs: int,
) -> dict:
    """Our paths against Detour's over random pairs (see the module documentation)."""
    rng = np.random.default_rng(35)
    start, goal = random_points(mesh, pairs, rng), random_points(mesh, pairs, rng)
    pfile = tmp / "pairs.txt"
    np.savetxt(pfile, np.hstack([to_recast(start), to_recast(goal)]), fmt="%.6f")
    run_recast(binary, obj, tmp / "paths", 1, pfile)
    detour = [line.split() for line in (tmp / "paths.paths").read_text().splitlines()]
    straight = [
        np.array(line.split(), dtype=float)
        for line in (tmp / "paths.straight").read_text().splitlines()
    ]
    nav = navmesh3d.NavMesh3D(mesh)
    rverts, rpolys = read_poly(str(tmp / "paths.poly"))
    theirs = navmesh3d.NavMesh3D(
        PolyMesh3D(from_recast(rverts), rpolys, detail=read_detail(tmp / "paths.detail"))
    )
    found = 0
    cost, corner, seen, det, det_seen, on_rc, det_rc = [], [], [], [], [], [], []
    best, best_rc, det_rc_best, times = [], [], [], {a: [] for a in ALGORITHMS}
    over_cost = []  # the optimal path's length in 3-D over the funnel's
    longer: dict[str, list[int]] = {a: [] for a in ALGORITHMS}  # > 2% over Detour's
    for k in range(pairs):
        # the default and the optimal search in turn, each timed (wall clock, per query)
        got = {}
        for algorithm in ALGORITHMS if k % 2 == 0 else ALGORITHMS[::-1]:
            t0 = time.perf_counter()
            got[algorithm] = nav.find_path(
                tuple(start[k]), tuple(goal[k]), snap=True, algorithm=algorithm
            )
            times[algorithm].append(time.perf_counter() - t0)
        default, optimal = got["funnel"], got["optimal"]
        found += bool(default)
        if not (default and optimal and detour[k][0] == "ok"):
            continue
        cost.append(float(default.cost))
        corner.append(length(nav.corners(default.path)))
        best.append(length(nav.corners(optimal.path)))
        over_cost.append(optimal.cost / max(default.cost, 1e-9))
        for algorithm, ours in (("funnel", corner[-1]), ("optimal", best[-1])):
            if ours > 1.02 * float(detour[k][1]):
                longer[algorithm].append(k)
        seen.append(length(default.path, 2))
        det.append(float(detour[k][1]))
        det_seen.append(float(detour[k][3]))
        ends = from_recast(straight[k][:6].reshape(2, 3))
        same = theirs.find_path(tuple(ends[0]), tuple(ends[1]), snap=True)
        if same:
            on_rc.append(length(theirs.corners(same.path)))
            det_rc.append(float(detour[k][1]))
        same = theirs.find_path(tuple(ends[0]), tuple(ends[1]), snap=True, algorithm="optimal")
        if same:
            best_rc.append(length(theirs.corners(same.path)))
            det_rc_best.append(float(detour[k][1]))
    over = np.array(best) / np.maximum(np.array(corner), 1e-9) if best else np.ones(1)
    over_cost = over_cost or [1.0]
    return {
        "pairs": pairs,
        "ours_found": found,
        "detour_ok": sum(d[0] == "ok" for d in detour),
        "both": len(det),
        "on_recast_found": len(on_rc),
        **ratio_stats(corner, det, "corners_"),
        **ratio_stats(cost, det, "surface_"),
        **ratio_stats(seen, det_seen, "above_"),
        **ratio_stats(on_rc, det_rc, "recast_"),
        **ratio_stats(best, det, "optimal_"),
        **ratio_stats(best_rc, det_rc_best, "optimal_recast_"),
        **{f"{a}_longer_pairs": longer[a] for a in ALGORITHMS},
        "recast_polys": len(rpolys),
        "over_funnel_max": float(over.max()),
        "over_funnel_cost_max": float(np.max(over_cost)),
        "over_funnel_shorter": float(np.mean(over < 0.98)),
        **{f"{a}_ms": float(np.median(times[a])) * 1e3 for a in ALGORITHMS},
        **{f"{a}_mean_ms": float(np.mean(times[a])) * 1e3 for a in ALGORITHMS},
        **{f"{a}_max_ms": float(np.max(times[a])) * 1e3 for a in ALGORITHMS},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", required=True, help="OBJ files (y up)")
    parser.add_argument("--recast", help="the Recast driver program (see above)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--paths-only", action="store_true",
        help="build each level once and compare paths only (needs --recast; writes the "
        "paths section alone)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.recast and not os.access(args.recast, os.X_OK):
        sys.exit(f"--recast {args.recast}: not an executable program")
    if args.paths_only and not args.recast:
        sys.exit("--paths-only compares with Detour: give --recast")
    if not args.recast:
        print("no --recast driver: pathcraft's side only (no Recast figures)")
    config = BuildConfig()
    load0 = os.getloadavg()[0]
    lines = []
    for level in args.levels:
        obj = Path(level)
        verts, tris = read_obj(obj)
        row: dict = {"level": obj.name, "tris": len(tris)}
        with tempfile.TemporaryDirectory() as tmpdir:
            tmp = Path(tmpdir)
            if args.paths_only:
                mesh = build(verts, tris, config)
                row.update(polys=mesh.num_polygons)
                row.update(paths_row(mesh, args.recast, obj, tmp, args.pairs))
                print(row)
                lines.append(row)
                continue
            ours, rc = float("inf"), float("inf")
            mesh = None
            for _ in range(args.rounds):  # one round of each in turn
                t, mesh = best_of(lambda: build(verts, tris, config), 1)  # noqa: B023
                ours = min(ours, t)
                if args.recast:
                    rc = min(rc, run_recast(args.recast, obj, tmp / "rc", 1)["total"])
            assert isinstance(mesh, PolyMesh3D)
            row.update(ours_s=ours, polys=mesh.num_polygons)
            row["on_source"] = on_source(mesh, verts, tris, config)
            if args.recast:
                times = run_recast(args.recast, obj, tmp / "rc", args.rounds)
                rverts, rpolys = read_poly(str(tmp / "rc.poly"))
                shared, mine, theirs = overlap_3d(
                    rings(mesh.vertices, mesh.polygons),
                    rings(from_recast(rverts), rpolys),
                    config.agent_height / 2,
                )
                row.update(recast_s=rc, recast_polys=len(rpolys),
                           of_recast=shared / theirs, of_ours=shared / mine)  # fmt: skip
                chf = read_chf(str(tmp / "rc.chf"))
                t_half, half = best_of(
                    lambda: build_polymesh(build_contours(chf, config), chf, config),  # noqa: B023
                    args.rounds,
                )
                assert isinstance(half, PolyMesh3D)
                # in our frame, both: the same vertices in the same order
                theirs_keys = ring_keys(from_recast(rverts), rpolys)
                mine_keys = ring_keys(half.vertices, half.polygons)
                row.update(half_same=len(theirs_keys & mine_keys), half_polys=half.num_polygons,
                           half_s=t_half, recast_half_s=times["contours"] + times["polymesh"],
                           recast_detail_s=times["detail"],
                           detail_s=detail_stage_s(chf, config, args.rounds))  # fmt: skip
                row["detail_same"] = detail_equal(mesh, tmp / "rc.detail", config.cell_height)
                row.update(paths_row(mesh, args.recast, obj, tmp, args.pairs))
            row.update(tiles_row(verts, tris, 2 * args.rounds))
        print(row)
        lines.append(row)
    load1 = os.getloadavg()[0]
    reports = [] if args.paths_only else [format_report(lines, load0, load1, bool(args.recast))]
    if args.recast:
        reports.append(format_paths(lines, load0, load1))
    for report in reports:
        print("\n".join(report))
        if not args.no_write:
            write_section(report)


def fmt(row: dict, key: str, spec: str) -> str:
    return format(row[key], spec) if key in row else "-"


def ratio_cell(r: dict, p: str) -> str:
    """:func:`ratio_stats`' figures under ``p`` as one table cell."""
    if p + "within" not in r:
        return "-"
    return (
        f"{r[p + 'within']:.3f} / {r[p + 'longer']:.3f} / {r[p + 'shorter']:.3f}; "
        f"{r[p + 'median']:.4f}, {r[p + 'mean']:.4f}"
    )


def run_lines(load0: float, load1: float) -> list[str]:
    """When, where and how a report was made."""
    return [
        f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f}",
        f"- Versions: pathcraft {pathcraft.__version__} (git {git_rev()}), numpy {np.__version__}",
        f"- Command: `python {' '.join(['bench/navmesh3d_recast.py', *sys.argv[1:]])}`",
    ]


def format_report(rows: list[dict], load0: float, load1: float, recast: bool) -> list[str]:
    out = [
        SECTION,
        "",
        *run_lines(load0, load1),
        "- Settings: RecastDemo's defaults (cell 0.3 x 0.2, agent 2.0 high, radius 0.6, "
        "climb 0.9, slope 45, regions 8 / 20, edges 12 / 1.3, 6 vertices, detail 6 / 1).",
        "",
        "| level | tris | polys (Recast) | build ms (Recast) | ratio | shared / Recast's | "
        "shared / ours | on source |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = f"{r['ours_s'] / r['recast_s']:.2f}" if "recast_s" in r else "-"
        out.append(
            f"| {r['level']} | {r['tris']} | {r['polys']} ({r.get('recast_polys', '-')}) | "
            f"{r['ours_s'] * 1e3:.1f} ({r.get('recast_s', float('nan')) * 1e3:.1f}) | "
            f"{ratio} | {fmt(r, 'of_recast', '.4f')} | {fmt(r, 'of_ours', '.4f')} | "
            f"{r['on_source']:.4f} |"
        )
    if recast:
        out += [
            "",
            "The second half alone, on the heightfield Recast wrote (contours, polygons and "
            "detail mesh; *detail equal*: polygons of the whole build whose detail mesh is "
            "Recast's, vertices and triangles):",
            "",
            "| level | polygons equal to Recast's | detail equal | ms ours (contours + "
            "polygons + detail) | ms Recast (contours + polymesh + detail) | ms ours detail "
            "| ms Recast detail |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            out.append(
                f"| {r['level']} | {r['half_same']} of {r['half_polys']} | "
                f"{r['detail_same']} of {r['polys']} | {r['half_s'] * 1e3:.2f} | "
                f"{(r['recast_half_s'] + r['recast_detail_s']) * 1e3:.2f} | "
                f"{r['detail_s'] * 1e3:.2f} | {r['recast_detail_s'] * 1e3:.2f} |"
            )
    out += [
        "",
        "Tiles of 32 cells; the busiest tile rebuilt after a crate (1.5 x 1.5 x 1.5) is "
        "dropped at its centre:",
        "",
        "| level | tiles | tiled build s | tile polys | tile's own build ms | rebuild_tile ms "
        "| ratio | equal to full rebuild's tile |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['level']} | {r['tiles']} | {r['tiled_s']:.2f} | {r['tile_polys']} | "
            f"{r['tile_s'] * 1e3:.1f} | {r['rebuild_s'] * 1e3:.1f} | "
            f"{r['rebuild_s'] / r['tile_s']:.2f} | {'yes' if r['same'] else 'NO'} |"
        )
    out += [
        "",
        "Reading: times are CPU times of each process (the machine is shared with other "
        "jobs: its load is above), the fastest of the rounds, taken in turn; *ratio* is "
        "pathcraft's time over Recast's. *shared* "
        "is the walkable area both meshes cover at heights within 1 (half the agent), "
        "over each mesh's own area. *on source*: sample points of the polygons that lie "
        "on a walkable source triangle within the climb. The second-half table runs our "
        "contours and polygons on the heightfield Recast wrote, so the polygons can be "
        "compared one for one; the detail stage is Recast's `rcBuildPolyMeshDetail` "
        "ported (edges and inside sampled, a Delaunay triangulation refined to the "
        "error), so *detail equal* compares it vertex for vertex and triangle for "
        "triangle. A "
        "rebuilt tile (*rebuild_tile*; its *ratio*: over the tile's own build) "
        "includes checking the level's arrays and putting "
        "the tile into the whole mesh: a splice local to the tile and its four "
        "neighbours (the rest of the mesh is copied, not searched). A tile built alone "
        "reads the whole level; the tiled build picks each tile's triangles (those "
        "reaching the tile and its border) once.",
    ]
    sources = [f"- {r['level']}: {LEVELS[r['level']]}" for r in rows if r["level"] in LEVELS]
    if sources:
        out += ["", "Levels (kept outside the repository unless said):", "", *sources]
    if any("pairs" in r for r in rows):
        out += [
            "",
            "Paths between random points of pathcraft's surface (the same pairs for both; "
            "Detour's `findPath` + `findStraightPath` on Recast's mesh; lengths in 3-D). "
            "Each cell: the share of pairs within 2% of Detour's length / ours longer by "
            "more than 2% / ours shorter by more than 2%, then the median and mean of "
            "ours over Detour's. *corners*: our path's corners (`NavMesh3D.corners`) "
            "against Detour's straight path, like with like; *surface*: our path as "
            "`find_path` gives it, over the detail mesh's bumps, against the same; "
            "*from above*: both seen from above; *on Recast's polygons*: our search on "
            "Recast's own polygons and detail from the points Detour snapped the pair "
            "to (corners against Detour's straight path).",
            "",
            "| level | pairs | found: ours / Detour's (not partial) / both / ours on "
            "Recast's polygons | corners | "
            "surface | from above | on Recast's polygons |",
            "|---|---|---|---|---|---|---|",
        ]

        for r in rows:
            if "pairs" in r:
                out.append(
                    f"| {r['level']} | {r['pairs']} | {r['ours_found']} / {r['detour_ok']} / "
                    f"{r['both']} / {r['on_recast_found']} | {ratio_cell(r, 'corners_')} | "
                    f"{ratio_cell(r, 'surface_')} | {ratio_cell(r, 'above_')} | "
                    f"{ratio_cell(r, 'recast_')} |"
                )
    return out


def format_paths(rows: list[dict], load0: float, load1: float) -> list[str]:
    """The paths section: the default search (``"funnel"``) and the optimal one
    (``"optimal"``) against Detour on the same pairs, with their query times."""
    out = [
        PATHS_SECTION,
        "",
        *run_lines(load0, load1),
        "",
        "The pairs of the *paths* table above (random points of our surface, seed 35), "
        'each searched by `NavMesh3D.find_path` with `algorithm="funnel"` (the '
        'default) and `algorithm="optimal"` (Polyanya over the polygons seen from '
        "above, through their 3-D adjacency), in turn. Length cells: the share of pairs "
        "whose corners (`NavMesh3D.corners`) are within 2% of Detour's straight path "
        "(`findPath` + `findStraightPath` on Recast's mesh, in 3-D) / ours longer by more "
        "than 2% / ours shorter by more than 2%; then the median and mean of ours over "
        "Detour's. *on Recast's polygons*: the same search on Recast's own polygons and "
        "detail from the points Detour snapped the pair to. *optimal / funnel*: the "
        "largest ratio of the two paths' lengths in 3-D, of their corners and of their "
        "`cost` (over 1: the path shortest seen from above is the longer in 3-D), and "
        "the share of pairs whose optimal corners are shorter than the funnel's by "
        "more than 2%. Times: milliseconds per `find_path` "
        "(wall clock, snapping and lifting included), median / mean / max.",
        "",
        "| level | pairs (both found) | funnel | optimal | funnel on Recast's polygons | "
        "optimal on Recast's polygons | optimal / funnel: max corners, max cost, "
        "shorter by > 2% | "
        "ms funnel | ms optimal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    longer = [
        "",
        "The pairs whose path is longer than Detour's by more than 2% (corners against "
        "its straight path; their numbers: the k-th pair drawn), with each search, and "
        "our polygons against Recast's. Our grid is laid as Recast lays its own (the "
        "level mirrored inside the build), so there is no second build in Recast's "
        "frame to compare any more.",
        "",
        "| level | polygons (Recast's) | funnel: longer by > 2% | optimal: longer by > 2% |",
        "|---|---|---|---|",
    ]

    def listed(pairs: list[int]) -> str:
        return ", ".join(map(str, pairs)) or "none"

    def ms(r: dict, a: str) -> str:
        return f"{r[a + '_ms']:.2f} / {r[a + '_mean_ms']:.2f} / {r[a + '_max_ms']:.1f}"

    for r in rows:
        if "pairs" in r:
            out.append(
                f"| {r['level']} | {r['pairs']} ({r['both']}) | {ratio_cell(r, 'corners_')} | "
                f"{ratio_cell(r, 'optimal_')} | {ratio_cell(r, 'recast_')} | "
                f"{ratio_cell(r, 'optimal_recast_')} | {r['over_funnel_max']:.4f}, "
                f"{r['over_funnel_cost_max']:.4f}, {r['over_funnel_shorter']:.3f} | "
                f"{ms(r, 'funnel')} | {ms(r, 'optimal')} |"
            )
            longer.append(
                f"| {r['level']} | {r['polys']} ({r.get('recast_polys', '-')}) | "
                f"{listed(r['funnel_longer_pairs'])} | {listed(r['optimal_longer_pairs'])} |"
            )
    return out + longer


def write_section(report: list[str]) -> None:
    """Put the report in its own section of the results file (named by its first
    line; other sections kept)."""
    text = RESULTS.read_text() if RESULTS.exists() else "# 3-D navigation meshes\n"
    section = report[0]
    start = text.find(section)
    if start >= 0:
        end = text.find("\n## ", start + len(section))
        text = text[:start] + text[end + 1 :] if end >= 0 else text[:start]
    RESULTS.write_text(text.rstrip("\n") + "\n\n" + "\n".join(report) + "\n")


if __name__ == "__main__":
    main()
