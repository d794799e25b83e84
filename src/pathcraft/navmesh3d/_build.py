"""The whole build: triangles to a polygon mesh, in one piece or in tiles.

``build`` runs Recast's solo-mesh pipeline (``build_compact`` then contours, polygons
and detail heights), its grid laid as Recast lays it over a y-up level (rows from the
level's largest ``y`` toward ``-y``; see ``_frame``), every output in the caller's
frame. ``build_tiles`` cuts the level into square tiles of
``tile_size`` cells, each built alone with a border of ``agent_radius + 3`` cells
around it (Recast's ``borderSize``) so that a tile sees the geometry next to it and
its polygons stop exactly on the tile's edges, where the next tile's start. Tiles are
numbered from the world's origin (tile ``(i, j)`` covers ``x`` from ``i * tile_size *
cell_size`` on, ``y`` from ``j * tile_size * cell_size`` on), so a tile keeps its
number whatever is added to the level elsewhere; ``rebuild_tile`` builds one tile
again after a change and puts it in place of the old one. Tile ``(0, 0)`` is the one
whose corner at its smallest ``x`` and ``y`` is the origin, in the caller's frame
(inside, its grid runs as Recast's: it is the mirrored level's tile ``(0, -1)``).
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
from pathcraft.navmesh3d._splice import join, splice

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
    heights (``rcBuildPolyMeshDetail``). The grid is laid as Recast lays it
    over the level as a y-up file (``read_obj``'s ``up="y"``): from the level's
    largest ``y``, rows along ``-y``, so that its cells and scans are Recast's (on
    RecastDemo's levels the polygons are Recast's, vertex for vertex, and so are the
    detail triangles); the mesh is in the caller's frame.

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
    (12.03, 11.31)
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
    reach: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
    zrange: tuple[float, float] | None = None,
) -> PolyMesh3D:
    """Tile ``(i, j)`` alone (its polygons, numbered ``tile_id(i, j)``). With
    ``reach`` (:func:`_reach`, made once for a tiled build) only the triangles that
    reach the tile's box with its border are read: the others are clipped away whole,
    so the heightfield is the one the whole level gives (one tile alone reads the
    whole level: picking costs more than it saves then). ``zrange`` is the level's
    lowest and highest ``z`` (the heightfield's floor, which every tile shares)."""
    size = _tile_world(config)
    if zrange is None:
        zrange = (float(verts[:, 2].min()), float(verts[:, 2].max()))
    if reach is not None:
        lo, hi = reach
        tris = tris[(lo[:, 0] <= i) & (hi[:, 0] >= i) & (lo[:, 1] <= j) & (hi[:, 1] >= j)]
        if tris.shape[0] == 0:
            nvp = int(config.voxels().max_verts_per_poly)
            return PolyMesh3D._trusted(
                np.zeros((0, 3)), np.zeros((0, nvp), dtype=np.int32),
                np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int32), None,
            )  # fmt: skip
        used, local = np.unique(tris, return_inverse=True)
        verts, tris = verts[used], local.reshape(tris.shape).astype(np.int32)
    zmin, zmax = zrange
    box = ((i * size, j * size, zmin), ((i + 1) * size, (j + 1) * size, max(zmax, zmin + 1e-6)))
    chf = build_compact(verts, tris, config, bounds=box, border=config.voxels().border_size)
    return build_polymesh(build_contours(chf, config), chf, config, tile=tile_id(i, j))


def _reach(
    verts: npt.NDArray[np.float64], tris: npt.NDArray[np.int32], config: BuildConfig
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each triangle the tiles whose box with its border its own box overlaps
    (with a cell to spare): the first ``(i, j)`` and the last, as floats."""
    v = config.voxels()
    pad = (v.border_size + 1) * v.cs
    size = _tile_world(config)
    xy = np.ascontiguousarray(verts[:, :2])
    a, b, c = (xy.take(tris[:, k], axis=0) for k in range(3))
    lo = np.floor((np.minimum(np.minimum(a, b), c) - pad) / size)
    hi = np.floor((np.maximum(np.maximum(a, b), c) + pad) / size)
    return lo, hi


def _tile_range(verts: npt.NDArray[np.float64], config: BuildConfig) -> tuple[range, range]:
    size = _tile_world(config)
    lo = np.floor(verts[:, :2].min(axis=0) / size).astype(int)
    hi = np.floor(verts[:, :2].max(axis=0) / size).astype(int)
    return range(int(lo[0]), int(hi[0]) + 1), range(int(lo[1]), int(hi[1]) + 1)


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
    reach = _reach(verts, tris, config)
    zrange = (float(verts[:, 2].min()), float(verts[:, 2].max()))
    tiles = [_build_one(verts, tris, config, i, j, reach, zrange) for j in ys for i in xs]
    return join(tiles, config, _tile_world(config))


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
    The tile is put in locally: its old polygons go, the new ones take the vertices
    its neighbours have on the shared edges, and only the sides along the tile's
    square (its own and its four neighbours') are redone, so a rebuild costs little
    more than the tile's own build whatever the level's size (the rest of the mesh is
    copied, not searched; the old tile's detail triangles stay, unused, until they
    outnumber the used ones).

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
    size = _tile_world(config)
    if not (mesh.tiles != number).any():
        return join([fresh], config, size)
    redo = sorted({number} | _neighbours(i, j))
    return splice(mesh, fresh, config, size, (i * size, j * size), number, redo)


def _neighbours(i: int, j: int) -> set[int]:
    """The numbers of the four tiles beside tile ``(i, j)``."""
    return {tile_id(i + di, j + dj) for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1))}
