"""The whole build: triangles to a polygon mesh, in one piece or in tiles.

``build`` runs Recast's solo-mesh pipeline (``build_compact`` then contours, polygons
and detail heights). ``build_tiles`` cuts the level into square tiles of
``tile_size`` cells, each built alone with a border of ``agent_radius + 3`` cells
around it (Recast's ``borderSize``) so that a tile sees the geometry next to it and
its polygons stop exactly on the tile's edges, where the next tile's start. Tiles are
numbered from the world's origin (tile ``(i, j)`` covers ``x`` from ``i * tile_size *
cell_size`` on, ``y`` from ``j * tile_size * cell_size`` on), so a tile keeps its
number whatever is added to the level elsewhere; ``rebuild_tile`` builds one tile
again after a change and puts it in place of the old one.
"""

from __future__ import annotations

import numbers

import numpy as np
import numpy.typing as npt

from pathcraft.navmesh3d._config import BuildConfig
from pathcraft.navmesh3d._contours import build_contours, check_config
from pathcraft.navmesh3d._heightfield import build_compact, check_mesh
from pathcraft.navmesh3d._polybuild import build_polymesh
from pathcraft.navmesh3d._polymesh import PolyMesh3D
from pathcraft.navmesh3d._tiles import concat, without

__all__ = ["build", "build_tiles", "rebuild_tile", "tile_id", "tile_of"]

#: Tile coordinates run from -TILE_SPAN to TILE_SPAN - 1 on each axis.
TILE_SPAN = 1 << 14


def tile_id(i: int, j: int) -> int:
    """The number :attr:`PolyMesh3D.tiles` holds for tile ``(i, j)``.

    Parameters
    ----------
    i, j : int
        The tile's column (along x) and row (along y), counted from the world's
        origin, -16384 to 16383.

    Examples
    --------
    >>> from pathcraft.navmesh3d import tile_id, tile_of
    >>> tile_of(tile_id(-2, 5))
    (-2, 5)
    """
    for name, v in (("i", i), ("j", j)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"{name} must be an integer tile coordinate; got {v!r}")
        if not -TILE_SPAN <= v < TILE_SPAN:
            raise ValueError(f"{name} must be from {-TILE_SPAN} to {TILE_SPAN - 1}; got {v}")
    return (int(j) + TILE_SPAN) * (2 * TILE_SPAN) + int(i) + TILE_SPAN


def tile_of(tile: int) -> tuple[int, int]:
    """The tile ``(i, j)`` numbered ``tile`` (the inverse of :func:`tile_id`).

    Parameters
    ----------
    tile : int
        A tile number, as :attr:`PolyMesh3D.tiles` holds them (>= 0).

    Returns
    -------
    tuple of int
        The tile's column ``i`` (along x) and row ``j`` (along y).

    Raises
    ------
    ValueError
        A negative number (-1 marks an untiled polygon).

    Examples
    --------
    >>> from pathcraft.navmesh3d import tile_id, tile_of
    >>> tile_id(1, 0)
    536887297
    >>> tile_of(536887297)
    (1, 0)
    >>> tile_of(-1)
    Traceback (most recent call last):
    ...
    ValueError: tile must be a tile number >= 0; got -1
    """
    t = int(tile)
    if t < 0:
        raise ValueError(f"tile must be a tile number >= 0; got {tile}")
    return t % (2 * TILE_SPAN) - TILE_SPAN, t // (2 * TILE_SPAN) - TILE_SPAN


def build(
    vertices: npt.ArrayLike, triangles: npt.ArrayLike, config: BuildConfig | None = None
) -> PolyMesh3D:
    """Build the navigation polygons of a triangle mesh in one piece.

    Recast's solo-mesh build (RecastDemo's ``Sample_SoloMesh``): the compact
    heightfield with regions (:func:`~pathcraft.navmesh3d.build_compact`), the region
    contours (``rcBuildContours``), convex polygons (``rcBuildPolyMesh``) and detail
    heights (a sampled ``rcBuildPolyMeshDetail``).

    Parameters
    ----------
    vertices : array_like, shape (n, 3)
        World points ``(x, y, z)``, z up.
    triangles : array_like of int, shape (t, 3)
        Vertex indices; a triangle's top is the side its vertices turn
        counter-clockwise seen from.
    config : BuildConfig, optional
        The parameters (RecastDemo's defaults when omitted; ``tile_size`` is ignored
        here, see :func:`build_tiles`).

    Returns
    -------
    PolyMesh3D
        Convex polygons counter-clockwise seen from above, with detail heights; no
        polygon where nobody can stand (a level where nobody can stand anywhere gives
        a mesh of no polygons, which :class:`NavMesh3D` refuses by name).

    Raises
    ------
    TypeError, ValueError
        Bad vertices, triangles or config (each named).

    Examples
    --------
    A 10 x 10 floor under a slab 1.5 up (too low to walk under, too small to stand
    on): polygons round the slab, which a path then goes round.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import NavMesh3D, build
    >>> v = np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0],
    ...               [4, 4, 1.5], [6, 4, 1.5], [6, 6, 1.5], [4, 6, 1.5]], float)
    >>> mesh = build(v, [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
    >>> mesh
    PolyMesh3D(12 vertices, 7 polygons, nvp=6, detail)
    >>> round(NavMesh3D(mesh).find_path((1, 1, 0), (9, 9, 0)).cost, 2), round(128**0.5, 2)
    (12.08, 11.31)
    """
    config = check_config(config)
    verts, tris = check_mesh(vertices, triangles)
    chf = build_compact(verts, tris, config)
    return build_polymesh(build_contours(chf, config), chf, config)


def _tile_world(config: BuildConfig) -> float:
    if config.tile_size <= 0:
        raise ValueError(
            f"config.tile_size must be > 0 cells for a tiled build; got {config.tile_size}"
        )
    return config.tile_size * config.cell_size


def _build_one(
    verts: npt.NDArray[np.float64],
    tris: npt.NDArray[np.int32],
    config: BuildConfig,
    i: int,
    j: int,
) -> PolyMesh3D:
    """Tile ``(i, j)`` alone (its polygons, numbered ``tile_id(i, j)``)."""
    size = _tile_world(config)
    zmin, zmax = float(verts[:, 2].min()), float(verts[:, 2].max())
    box = ((i * size, j * size, zmin), ((i + 1) * size, (j + 1) * size, max(zmax, zmin + 1e-6)))
    chf = build_compact(verts, tris, config, bounds=box, border=config.voxels().border_size)
    return build_polymesh(build_contours(chf, config), chf, config, tile=tile_id(i, j))


def _tile_range(verts: npt.NDArray[np.float64], config: BuildConfig) -> tuple[range, range]:
    size = _tile_world(config)
    lo = np.floor(verts[:, :2].min(axis=0) / size).astype(int)
    hi = np.floor(verts[:, :2].max(axis=0) / size).astype(int)
    return range(int(lo[0]), int(hi[0]) + 1), range(int(lo[1]), int(hi[1]) + 1)


def _weld_keys(verts: npt.NDArray[np.float64], config: BuildConfig) -> npt.NDArray[np.int64]:
    """One integer per vertex, equal for vertices welded together: the same cell corner
    in (x, y) and the same band of 3 cell heights (21 bits each)."""
    cells = np.round(verts[:, :2] / config.cell_size).astype(np.int64)
    level = np.floor(verts[:, 2] / (3 * config.cell_height)).astype(np.int64)
    span = 1 << 20
    return ((cells[:, 0] + span) << 42) | ((cells[:, 1] + span) << 21) | (level + span)


def _replace(
    rest: PolyMesh3D, fresh: PolyMesh3D, config: BuildConfig, i: int, j: int
) -> PolyMesh3D:
    """``rest`` with the polygons of tile ``(i, j)`` built anew (``fresh``) put in: the
    fresh vertices on the tile's edges welded to ``rest``'s there, the tile-edge sides
    of the tile and of its four neighbours redone. Work in proportion to the tile and
    its edges, beside a few whole-array copies."""
    size = _tile_world(config)
    eps = 1e-6 * size
    v = rest.vertices
    x0, y0 = i * size, j * size
    in_x = (v[:, 0] > x0 - eps) & (v[:, 0] < x0 + size + eps)
    in_y = (v[:, 1] > y0 - eps) & (v[:, 1] < y0 + size + eps)
    on_x = (np.abs(v[:, 0] - x0) < eps) | (np.abs(v[:, 0] - x0 - size) < eps)
    on_y = (np.abs(v[:, 1] - y0) < eps) | (np.abs(v[:, 1] - y0 - size) < eps)
    edge = np.flatnonzero((on_x & in_y) | (on_y & in_x))
    known = dict(zip(_weld_keys(v[edge], config).tolist(), edge.tolist(), strict=True))
    found = np.array(
        [known.get(k, -1) for k in _weld_keys(fresh.vertices, config).tolist()], dtype=np.int64
    )
    new = found < 0
    found[new] = v.shape[0] + np.arange(int(new.sum()))
    verts = np.concatenate([v, fresh.vertices[new]])
    width = max(rest.max_verts_per_poly, fresh.max_verts_per_poly)
    poly = np.full((rest.num_polygons + fresh.num_polygons, width), -1, dtype=np.int64)
    poly[: rest.num_polygons, : rest.max_verts_per_poly] = rest.polygons
    fp = fresh.polygons
    poly[rest.num_polygons :, : fresh.max_verts_per_poly] = np.where(
        fp >= 0, found[np.maximum(fp, 0)], -1
    )
    tiles = np.concatenate([rest.tiles, fresh.tiles])
    which = np.isin(tiles, sorted({tile_id(i, j)} | _neighbours(i, j)))
    poly = _split_tile_edges(verts, poly, config, which)
    changed = poly[which]
    PolyMesh3D(verts, changed)  # the rows redone, checked (the others were)
    joined = concat(rest, fresh)  # areas, tiles and detail in the same row order
    return PolyMesh3D._trusted(
        verts, poly.astype(np.int32), joined.areas, joined.tiles, joined.detail
    )


def _join(
    pieces: list[PolyMesh3D], config: BuildConfig, redo: set[int] | None = None
) -> PolyMesh3D:
    """One mesh of tiles' meshes, vertices on tile edges welded (same cell corner and
    height band) and put into the tile-edge sides of the polygons across (of the tiles
    ``redo`` only, when given)."""
    pieces = [p for p in pieces if p.num_polygons]
    if not pieces:
        raise ValueError("the level has no walkable place: no polygon was built")
    nvp = max(p.max_verts_per_poly for p in pieces)
    verts = np.concatenate([p.vertices for p in pieces])
    polys = []
    offset = 0
    for p in pieces:
        rows = np.full((p.num_polygons, nvp), -1, dtype=np.int64)
        rows[:, : p.max_verts_per_poly] = np.where(p.polygons >= 0, p.polygons + offset, -1)
        polys.append(rows)
        offset += p.vertices.shape[0]
    poly = np.concatenate(polys)
    _, first, inverse = np.unique(_weld_keys(verts, config), return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    new_verts = verts[first]
    poly = np.where(poly >= 0, inverse[np.maximum(poly, 0)], -1)
    tiles = np.concatenate([p.tiles for p in pieces])
    which = None if redo is None else np.isin(tiles, sorted(redo))
    poly = _split_tile_edges(new_verts, poly, config, which)
    details = [p.detail for p in pieces]
    detail = None
    if all(d is not None for d in details):
        dv, dt, do = [], [], []
        vbase = tbase = 0
        for d in details:
            assert d is not None
            dv.append(d[0])
            dt.append(d[1] + vbase)
            do.append(d[2] + np.array([tbase, 0]))
            vbase += d[0].shape[0]
            tbase += d[1].shape[0]
        detail = (np.concatenate(dv), np.concatenate(dt), np.concatenate(do))
    return PolyMesh3D(
        new_verts,
        poly,
        areas=np.concatenate([p.areas for p in pieces]),
        tiles=tiles,
        detail=detail,
    )


def _split_tile_edges(
    verts: npt.NDArray[np.float64],
    poly: npt.NDArray[np.int64],
    config: BuildConfig,
    which: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.int64]:
    """Polygons with the vertices of the next tile that lie on their tile-edge sides
    put into those sides (straight angles), so that the polygons on either side of a
    tile edge share their vertices and :meth:`PolyMesh3D.adjacency` links them (Detour
    links tiles by overlapping edges instead). Rows may grow past ``verts_per_poly``.

    Only the rows ``which`` (all by default) are redone: their straight-angle vertices
    on tile edges (put there by an earlier join; the polygon build makes none) are
    taken out first, then the vertices there now are put in."""
    size = _tile_world(config)
    eps = 1e-6 * size
    climb = config.agent_max_climb
    line_of = np.round(verts[:, :2] / size).astype(np.int64)
    on = np.abs(verts[:, :2] - line_of * size) < eps  # (n, 2): on an x line, a y line
    on_axis = [np.flatnonzero(on[:, axis]) for axis in (0, 1)]
    lines: dict[tuple[int, int], npt.NDArray[np.intp]] = {}

    def line(axis: int, k: int) -> npt.NDArray[np.intp]:
        """The vertices on tile line ``k`` across ``axis``."""
        if (axis, k) not in lines:
            idx = on_axis[axis]
            lines[(axis, k)] = idx[line_of[idx, axis] == k]
        return lines[(axis, k)]

    touched = np.any(on, axis=1)[np.maximum(poly, 0)] & (poly >= 0)
    todo = touched.sum(axis=1) >= 2
    if which is not None:
        todo &= which
    picked = poly[todo]
    rows = dict(zip(np.flatnonzero(todo).tolist(), picked.tolist(), strict=True))
    rows = {r: [v for v in row if v >= 0] for r, row in rows.items()}
    # the tile lines of the vertices of these rows, as Python values
    ids = np.unique(picked[picked >= 0])
    where = dict(
        zip(
            ids.tolist(),
            zip(on[ids].tolist(), line_of[ids].tolist(), strict=True),
            strict=True,
        )
    )

    def same_line(a: int, b: int) -> int:
        """The axis of the tile line both vertices lie on, else -1."""
        (oa, la), (ob, lb) = where[a], where[b]
        for axis in (0, 1):
            if oa[axis] and ob[axis] and la[axis] == lb[axis]:
                return axis
        return -1

    changed = False
    for r, row in rows.items():
        n = len(row)
        if which is not None:  # drop the straight angles an earlier join put in
            kept = [
                row[k]
                for k in range(n)
                if not (
                    (axis := same_line(row[k - 1], row[k])) >= 0
                    and same_line(row[k], row[(k + 1) % n]) == axis
                )
            ]
            changed |= len(kept) != n
            row = kept
            n = len(row)
        out: list[int] = []
        for e in range(n):
            a, b = row[e], row[(e + 1) % n]
            out.append(a)
            axis = same_line(a, b)
            if axis < 0:
                continue
            along = 1 - axis
            cand = line(axis, where[a][1][axis])
            t = (verts[cand, along] - verts[a, along]) / (verts[b, along] - verts[a, along])
            inside = (t > 1e-9) & (t < 1 - 1e-9)
            z = verts[a, 2] + t * (verts[b, 2] - verts[a, 2])
            inside &= np.abs(verts[cand, 2] - z) <= climb
            if inside.any():
                order = np.argsort(t[inside])
                out.extend(cand[inside][order].tolist())
                changed = True
        rows[r] = out
    if not changed:
        return poly
    width = max([poly.shape[1], *(len(row) for row in rows.values())])
    grown = np.full((poly.shape[0], width), -1, dtype=np.int64)
    grown[:, : poly.shape[1]] = poly
    for r, row in rows.items():
        grown[r, :] = -1
        grown[r, : len(row)] = row
    return grown


def build_tiles(
    vertices: npt.ArrayLike, triangles: npt.ArrayLike, config: BuildConfig | None = None
) -> PolyMesh3D:
    """Build the navigation polygons of a triangle mesh tile by tile.

    RecastDemo's ``Sample_TileMesh``: square tiles of ``config.tile_size`` cells
    (``tileSize``), numbered from the world's origin (:func:`tile_id`), each built with
    a border of ``agent_radius / cell_size + 3`` cells (``borderSize``) so that its
    polygons end on its edges; the tiles' polygons in one :class:`PolyMesh3D`, each
    marked with its tile (:attr:`PolyMesh3D.tiles`), vertices on shared tile edges
    welded.

    Parameters
    ----------
    vertices : array_like, shape (n, 3)
        World points ``(x, y, z)``, z up.
    triangles : array_like of int, shape (t, 3)
        Vertex indices of each triangle.
    config : BuildConfig, optional
        ``tile_size`` must be > 0 (cells).

    Returns
    -------
    PolyMesh3D

    Raises
    ------
    TypeError, ValueError
        Bad vertices, triangles or config; ``tile_size`` 0.

    Examples
    --------
    A 10 x 10 floor in tiles of 20 cells of 0.3 (6 world units): four tiles, one
    polygon each, their vertices on the shared tile edges welded.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import BuildConfig, build_tiles, tile_of
    >>> floor = np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0]], float)
    >>> mesh = build_tiles(floor, [[0, 1, 2], [0, 2, 3]], BuildConfig(tile_size=20))
    >>> mesh
    PolyMesh3D(9 vertices, 4 polygons, nvp=6, detail)
    >>> sorted(tile_of(t) for t in mesh.tiles)
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    config = check_config(config)
    _tile_world(config)
    verts, tris = check_mesh(vertices, triangles)
    xs, ys = _tile_range(verts, config)
    return _join([_build_one(verts, tris, config, i, j) for j in ys for i in xs], config)


def rebuild_tile(
    mesh: PolyMesh3D,
    i: int,
    j: int,
    vertices: npt.ArrayLike,
    triangles: npt.ArrayLike,
    config: BuildConfig | None = None,
) -> PolyMesh3D:
    """``mesh`` with tile ``(i, j)`` built again from the level as it is now.

    After a change of the level (triangles added or removed: an obstacle, a door), the
    tiles whose box, border included, the change touches are rebuilt one by one; the
    result equals the same tile of a full :func:`build_tiles` of the changed level.

    Parameters
    ----------
    mesh : PolyMesh3D
        A tiled mesh (from :func:`build_tiles` or an earlier rebuild).
    i, j : int
        The tile (see :func:`tile_id`).
    vertices, triangles : array_like
        The whole level as it is now (only the tile's box and border is read).
    config : BuildConfig, optional
        The configuration ``mesh`` was built with.

    Returns
    -------
    PolyMesh3D
        A new mesh; ``mesh`` is not changed.

    Examples
    --------
    A slab 1.5 up is put over a tiled floor, inside tile ``(0, 0)``; that tile alone is
    built again, and the mesh is the one a full build of the changed level gives.

    >>> import numpy as np
    >>> from pathcraft.navmesh3d import BuildConfig, build_tiles, rebuild_tile
    >>> v = np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0],
    ...               [2, 2, 1.5], [4, 2, 1.5], [4, 4, 1.5], [2, 4, 1.5]], float)
    >>> tris = [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]]
    >>> config = BuildConfig(tile_size=20)
    >>> before = build_tiles(v, tris[:2], config)  # the floor alone
    >>> after = rebuild_tile(before, 0, 0, v, tris, config)
    >>> before.num_polygons, after.num_polygons  # tile (0, 0) now has a hole
    (4, 7)
    >>> full = build_tiles(v, tris, config)
    >>> np.array_equal(np.unique(after.vertices.round(6), axis=0),
    ...                np.unique(full.vertices.round(6), axis=0))
    True
    """
    config = check_config(config)
    if not isinstance(mesh, PolyMesh3D):
        raise TypeError(f"mesh must be a PolyMesh3D; got {type(mesh).__name__}")
    number = tile_id(i, j)
    verts, tris = check_mesh(vertices, triangles)
    fresh = _build_one(verts, tris, config, i, j)
    keep = mesh.tiles != number
    if not keep.any():
        return _join([fresh], config)
    if fresh.num_polygons == 0:  # nothing left in the tile: the neighbours' sides redone
        return _join([without(mesh, keep)], config, {number} | _neighbours(i, j))
    return _replace(without(mesh, keep), fresh, config, i, j)


def _neighbours(i: int, j: int) -> set[int]:
    """The numbers of the four tiles beside tile ``(i, j)``."""
    return {tile_id(i + di, j + dj) for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1))}
