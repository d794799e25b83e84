"""The :class:`PolyMesh3D`: convex polygons with heights, the one value a navigation
mesh build writes and the 3-D navigation mesh reads (Recast's ``rcPolyMesh`` with its
``rcPolyMeshDetail``).

Points are ``(x, y, z)`` with z up. Polygons are rows of vertex indices padded with -1
(Recast's ``nvp`` columns), convex and counter-clockwise seen from above (+z). Two
polygons are neighbours when they share an edge in 3-D: the same two end points in
``(x, y)``, run in opposite directions, at heights that differ by at most a tolerance
(Detour's ``walkableClimb`` test between tiles). Polygons over one another (a bridge
over a room) overlap in ``(x, y)`` and are not neighbours unless such an edge joins them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._positions import check_extent, check_number, check_points
from pathcraft._saved import SavedArrays

__all__ = ["WALKABLE_AREA", "Detail", "PolyMesh3D"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]

#: Recast's ``RC_WALKABLE_AREA``: the area id of plain walkable polygons (0 is
#: ``RC_NULL_AREA``: not walkable).
WALKABLE_AREA = 63

#: ``(detail_vertices (k, 3) float64, detail_triangles (t, 3) int32, detail_of (m, 2)
#: int32)``: Recast's ``rcPolyMeshDetail`` (each polygon's first triangle and count).
Detail = tuple[FloatArray, IntArray, IntArray]

#: Most vertices per polygon (Recast's ``DT_VERTS_PER_POLYGON`` is 6; more is allowed).
MAX_VERTS_PER_POLY = 32


class PolyMesh3D:
    """Convex polygons in 3-D: the polygon mesh a build writes and
    :class:`~pathcraft.navmesh3d.NavMesh3D` searches (Recast's ``rcPolyMesh``).

    Parameters
    ----------
    vertices : array_like, shape (n, 3)
        World positions ``(x, y, z)``, z up; finite.
    polygons : array_like of int, shape (m, nvp)
        Each row a polygon's vertex indices, padded at the end with -1 (Recast's
        ``RC_MESH_NULL_IDX``); at least 3 vertices, distinct, convex and
        counter-clockwise seen from above (straight angles allowed), with an area
        in ``(x, y)`` (no vertical polygons).
    areas : array_like of uint8, shape (m,), optional
        Each polygon's area id (Recast's convention: 63 walkable, 0 null); all 63 when
        omitted.
    tiles : array_like of int32, shape (m,), optional
        The tile of each polygon, -1 untiled; all -1 when omitted.
    detail : tuple, optional
        ``(detail_vertices (k, 3) float64, detail_triangles (t, 3) int32, detail_of (m, 2)
        int32)``, Recast's ``rcPolyMeshDetail``: polygon ``p``'s surface is the
        triangles ``detail_of[p, 0]`` to ``detail_of[p, 0] + detail_of[p, 1] - 1``,
        whose corners index ``detail_vertices`` (world ``(x, y, z)``). When omitted,
        heights come from the polygons' own vertices (a fan of triangles).

    Raises
    ------
    TypeError
        An argument of the wrong kind.
    ValueError
        Wrong shapes, non-finite values, indices out of range, a polygon with fewer
        than 3 vertices, a repeated vertex, padding inside a row, or a polygon that is
        degenerate, clockwise or not convex (its index in the message).

    Examples
    --------
    Two squares meeting at a ramp's foot (the second rises 1 over its length):

    >>> from pathcraft.navmesh3d import PolyMesh3D
    >>> mesh = PolyMesh3D(
    ...     [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (4, 0, 1), (4, 2, 1)],
    ...     [[0, 1, 2, 3], [1, 4, 5, 2]])
    >>> mesh.num_polygons, mesh.adjacency().tolist()
    (2, [[-1, 1, -1, -1], [-1, -1, -1, 0]])
    >>> PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 2, 1]])
    Traceback (most recent call last):
    ...
    ValueError: polygons[0] is clockwise seen from above (+z): list its vertices counter-clockwise
    """

    __slots__ = ("_areas", "_detail", "_polygons", "_tiles", "_vertices")

    def __init__(
        self,
        vertices: npt.ArrayLike,
        polygons: npt.ArrayLike,
        *,
        areas: npt.ArrayLike | None = None,
        tiles: npt.ArrayLike | None = None,
        detail: tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike] | None = None,
    ) -> None:
        verts = _float_array("vertices", vertices, 3)
        if verts.shape[0] == 0:
            raise ValueError("vertices is empty: a mesh needs at least one polygon")
        polys = _polygon_rows(polygons, verts.shape[0])
        m = polys.shape[0]
        _check_shapes(verts, polys)
        self._vertices = verts
        self._polygons = polys
        self._areas = _per_polygon("areas", areas, m, np.uint8, WALKABLE_AREA)
        self._tiles = _per_polygon("tiles", tiles, m, np.int32, -1)
        self._detail = None if detail is None else _check_detail(detail, m)
        for arr in (self._vertices, self._polygons, self._areas, self._tiles):
            arr.flags.writeable = False

    @classmethod
    def _trusted(
        cls, vertices: FloatArray, polygons: IntArray, areas: npt.NDArray[np.uint8],
        tiles: IntArray, detail: Detail | None,
    ) -> PolyMesh3D:  # fmt: skip
        """A mesh of arrays already checked (the package's own combinations)."""
        mesh = cls.__new__(cls)
        mesh._vertices, mesh._polygons = vertices, polygons
        mesh._areas, mesh._tiles, mesh._detail = areas, tiles, detail
        return mesh

    @property
    def vertices(self) -> FloatArray:
        """The vertices ``(x, y, z)``, shape (n, 3) (read-only)."""
        return self._vertices

    @property
    def polygons(self) -> IntArray:
        """The polygons' vertex indices, shape (m, nvp), padded with -1 (read-only)."""
        return self._polygons

    @property
    def areas(self) -> npt.NDArray[np.uint8]:
        """Each polygon's area id, uint8 (m,) (read-only; 63 walkable)."""
        return self._areas

    @property
    def tiles(self) -> IntArray:
        """Each polygon's tile, int32 (m,) (read-only; -1 untiled)."""
        return self._tiles

    @property
    def detail(self) -> Detail | None:
        """``(detail_vertices, detail_triangles, detail_of)`` or None (read-only)."""
        return self._detail

    @property
    def num_polygons(self) -> int:
        """How many polygons the mesh has."""
        return int(self._polygons.shape[0])

    @property
    def max_verts_per_poly(self) -> int:
        """``nvp``: the columns of :attr:`polygons` (Recast's ``nvp``)."""
        return int(self._polygons.shape[1])

    def sizes(self) -> IntArray:
        """How many vertices each polygon has, int32 (m,).

        Examples
        --------
        >>> from pathcraft.navmesh3d import PolyMesh3D
        >>> square = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
        >>> PolyMesh3D(square, [[0, 1, 2, 3], [0, 1, 2, -1]]).sizes().tolist()
        [4, 3]
        """
        sizes: IntArray = (self._polygons >= 0).sum(axis=1).astype(np.int32)
        return sizes

    def __repr__(self) -> str:
        return (
            f"PolyMesh3D({self._vertices.shape[0]} vertices, {self.num_polygons} polygons, "
            f"nvp={self.max_verts_per_poly}{', detail' if self._detail is not None else ''})"
        )

    def adjacency(self, height_tolerance: float = 0.0) -> IntArray:
        """The polygon across each polygon edge, int32 (m, nvp), -1 for a wall or padding.

        Edge ``k`` of polygon ``p`` runs from vertex ``polygons[p, k]`` to the next
        one (the first after the last). Two edges are shared when their end points
        coincide in ``(x, y)`` in opposite directions and their heights differ by at
        most ``height_tolerance`` (world units; Detour joins tiles within
        ``walkableClimb``) at both ends; shared vertex indices coincide. An edge with
        several such partners (a stack of floors) takes the nearest in height, and
        two edges join only when each is the other's choice.

        Raises
        ------
        ValueError
            ``height_tolerance`` negative or not finite.

        Examples
        --------
        A bridge over a floor: same ``(x, y)`` edges, 3 apart in height, no portal:

        >>> from pathcraft.navmesh3d import PolyMesh3D
        >>> mesh = PolyMesh3D(
        ...     [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (2, 0, 0), (2, 1, 0),
        ...      (1, 0, 3), (1, 1, 3), (2, 0, 3), (2, 1, 3)],
        ...     [[0, 1, 2, 3], [1, 4, 5, 2], [6, 8, 9, 7]])
        >>> mesh.adjacency().tolist()
        [[-1, 1, -1, -1], [-1, -1, -1, 0], [-1, -1, -1, -1]]
        >>> mesh.adjacency(height_tolerance=3.0).tolist()[2]  # the floor's edge is taken
        [-1, -1, -1, -1]
        """
        tol = check_number("height_tolerance", height_tolerance, low=0.0, inclusive=True)
        return _adjacency(self._vertices, self._polygons, tol)

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The mesh as named flat arrays, for :meth:`from_arrays`: ``vertices``,
        ``polygons``, ``areas``, ``tiles`` and, with a detail mesh,
        ``detail_vertices``, ``detail_triangles``, ``detail_of``. New arrays.

        Examples
        --------
        >>> from pathcraft.navmesh3d import PolyMesh3D
        >>> mesh = PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]])
        >>> sorted(mesh.to_arrays())
        ['areas', 'polygons', 'tiles', 'vertices']
        >>> PolyMesh3D.from_arrays(mesh.to_arrays()).polygons.tolist()
        [[0, 1, 2]]
        """
        out = {
            "vertices": self._vertices.copy(), "polygons": self._polygons.copy(),
            "areas": self._areas.copy(), "tiles": self._tiles.copy(),
        }  # fmt: skip
        if self._detail is not None:
            dv, dt, do = self._detail
            out |= {
                "detail_vertices": dv.copy(), "detail_triangles": dt.copy(),
                "detail_of": do.copy(),
            }  # fmt: skip
        return out

    @classmethod
    def from_arrays(cls, arrays: Any) -> PolyMesh3D:
        """The mesh :meth:`to_arrays` wrote, checked as the constructor checks.

        Raises
        ------
        ValueError
            An array missing, of the wrong dtype or shape, or a check of the
            constructor failing.

        Examples
        --------
        >>> from pathcraft.navmesh3d import PolyMesh3D
        >>> arrays = PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]).to_arrays()
        >>> PolyMesh3D.from_arrays(arrays).num_polygons
        1
        >>> PolyMesh3D.from_arrays({"vertices": arrays["vertices"]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._saved.ArrayFormatError: the array 'polygons' is missing; ...
        """
        saved = SavedArrays(arrays, "PolyMesh3D")
        detail = None
        if "detail_vertices" in saved:
            detail = (
                saved.take("detail_vertices", "float", 2),
                saved.take("detail_triangles", "int", 2),
                saved.take("detail_of", "int", 2),
            )
        return cls(
            saved.take("vertices", "float", 2),
            saved.take("polygons", "int", 2),
            areas=saved.take("areas", "uint8", 1),
            tiles=saved.take("tiles", "int", 1),
            detail=detail,
        )


def _float_array(name: str, value: Any, width: int) -> FloatArray:
    """A new finite float64 (n, width) array within :data:`~pathcraft._positions.EXTENT`."""
    arr = check_points(name, value, (width,))
    check_extent(name, arr)
    return arr


def _int_array(name: str, value: Any, ndim: int) -> npt.NDArray[np.int64]:
    """``value`` as an int64 array of ``ndim`` dimensions (TypeError for non-integers)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be an array of integers; got {value!r}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a rectangular array of integers") from exc
    if raw.dtype.kind not in "iu" and not (raw.size == 0 and raw.dtype.kind in "fO"):
        raise TypeError(f"{name} must be an array of integers; got dtype {raw.dtype}")
    if raw.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D; got shape {raw.shape}")
    out: npt.NDArray[np.int64] = raw.astype(np.int64)
    return out


def _polygon_rows(polygons: Any, num_vertices: int) -> IntArray:
    """The polygons as int32 (m, nvp), padding only at the end of each row, indices in
    range, at least 3 distinct vertices per row."""
    rows = _int_array("polygons", polygons, 2)
    m, nvp = rows.shape
    if m == 0:
        raise ValueError("polygons is empty: a mesh needs at least one polygon")
    if not 3 <= nvp <= MAX_VERTS_PER_POLY:
        raise ValueError(
            f"polygons must have 3 to {MAX_VERTS_PER_POLY} columns (vertices per polygon); "
            f"got {nvp}"
        )
    out = np.flatnonzero(((rows < -1) | (rows >= num_vertices)).any(axis=1))
    if out.size:
        p = int(out[0])
        bad = rows[p][(rows[p] < -1) | (rows[p] >= num_vertices)][0]
        raise ValueError(
            f"polygons[{p}] names vertex {int(bad)}, but vertex indices run from 0 to "
            f"{num_vertices - 1} (-1 pads a row)"
        )
    used = rows >= 0
    gap = np.flatnonzero((~used[:, :-1] & used[:, 1:]).any(axis=1))
    if gap.size:
        p = int(gap[0])
        raise ValueError(f"polygons[{p}] = {rows[p].tolist()}: -1 may only pad the end of a row")
    sizes = used.sum(axis=1)
    few = np.flatnonzero(sizes < 3)
    if few.size:
        p = int(few[0])
        raise ValueError(f"polygons[{p}] has {int(sizes[p])} vertices; a polygon needs 3 or more")
    srt = np.sort(np.where(used, rows, -1 - np.arange(nvp)), axis=1)
    rep = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
    if rep.size:
        p = int(rep[0])
        raise ValueError(f"polygons[{p}] repeats a vertex: {rows[p][used[p]].tolist()}")
    return rows.astype(np.int32)


def _next_columns(polys: IntArray) -> npt.NDArray[np.int64]:
    """For each place (p, k) the column of the next vertex of polygon p (wrapping)."""
    m, nvp = polys.shape
    sizes = (polys >= 0).sum(axis=1)
    cols = np.arange(1, nvp + 1, dtype=np.int64)[None, :].repeat(m, axis=0)
    cols[np.arange(m), sizes - 1] = 0
    out: npt.NDArray[np.int64] = np.minimum(cols, nvp - 1)
    return out


def _check_shapes(verts: FloatArray, polys: IntArray) -> None:
    """Each polygon non-degenerate, counter-clockwise and convex seen from above."""
    used = polys >= 0
    nxt = _next_columns(polys)
    xy = verts[np.maximum(polys, 0), :2]
    xy_next = np.take_along_axis(xy, nxt[:, :, None], axis=1)
    edge = np.where(used[:, :, None], xy_next - xy, 0.0)
    cross2 = np.where(used, xy[..., 0] * xy_next[..., 1] - xy_next[..., 0] * xy[..., 1], 0.0)
    area = 0.5 * cross2.sum(axis=1)
    scale = float(np.abs(verts[:, :2]).max()) + 1.0
    tol = 1e-12 * scale * scale
    flat = np.flatnonzero(np.abs(area) <= tol)
    if flat.size:
        p = int(flat[0])
        raise ValueError(
            f"polygons[{p}] has no area seen from above: its vertices are collinear in (x, y) "
            "(a vertical or degenerate polygon)"
        )
    cw = np.flatnonzero(area < 0)
    if cw.size:
        raise ValueError(
            f"polygons[{int(cw[0])}] is clockwise seen from above (+z): list its vertices "
            "counter-clockwise"
        )
    turn = np.take_along_axis(edge, nxt[:, :, None], axis=1)
    cross = edge[..., 0] * turn[..., 1] - edge[..., 1] * turn[..., 0]
    dot = (edge * turn).sum(axis=2)
    concave = used & ((cross < -tol) | ((np.abs(cross) <= tol) & (dot < 0)))
    bad = np.flatnonzero(concave.any(axis=1))
    if bad.size:
        p = int(bad[0])
        k = int(nxt[p, int(np.flatnonzero(concave[p])[0])])
        v = int(polys[p, k])
        raise ValueError(
            f"polygons[{p}] is not convex: it turns the wrong way at vertex {v} "
            f"{tuple(verts[v].tolist())}"
        )
    # a convex-turning polygon that winds around more than once crosses itself
    angles = np.arctan2(edge[..., 1], edge[..., 0])
    turns = np.mod(np.take_along_axis(angles, nxt, axis=1) - angles + np.pi, 2 * np.pi) - np.pi
    winding = np.where(used, turns, 0.0).sum(axis=1)
    loops = np.flatnonzero(winding > 3 * np.pi)
    if loops.size:
        raise ValueError(f"polygons[{int(loops[0])}] intersects itself (it winds around twice)")


def _per_polygon(
    name: str, value: Any, m: int, dtype: type[np.integer[Any]], fill: int
) -> npt.NDArray[Any]:
    """One value per polygon, of ``dtype`` (range-checked), or ``fill`` everywhere."""
    if value is None:
        return np.full(m, fill, dtype=dtype)
    arr = _int_array(name, value, 1)
    if arr.shape[0] != m:
        raise ValueError(f"{name} must have one value per polygon, shape ({m},); got {arr.shape}")
    info = np.iinfo(dtype)
    low = -1 if dtype is np.int32 else int(info.min)
    bad = np.flatnonzero((arr < low) | (arr > info.max))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{name}[{i}] = {int(arr[i])} is out of range: {name} take {low} to {int(info.max)}"
        )
    return arr.astype(dtype)


def _check_detail(detail: Any, m: int) -> Detail:
    """The detail mesh's three arrays, checked (shapes, indices, per-polygon ranges)."""
    if not isinstance(detail, (tuple, list)) or len(detail) != 3:
        raise TypeError(
            "detail must be a tuple (detail_vertices, detail_triangles, detail_of); "
            f"got {type(detail).__name__}"
        )
    dv = _float_array("detail_vertices", detail[0], 3)
    dt = _int_array("detail_triangles", detail[1], 2)
    do = _int_array("detail_of", detail[2], 2)
    if dt.shape[1] != 3:
        raise ValueError(f"detail_triangles must have shape (t, 3); got {dt.shape}")
    if do.shape != (m, 2):
        raise ValueError(f"detail_of must have shape ({m}, 2), one row per polygon; got {do.shape}")
    bad = np.flatnonzero(((dt < 0) | (dt >= dv.shape[0])).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"detail_triangles[{i}] = {dt[i].tolist()} names a vertex outside 0 to "
            f"{dv.shape[0] - 1}"
        )
    t = dt.shape[0]
    bad = np.flatnonzero((do[:, 0] < 0) | (do[:, 1] < 1) | (do[:, 0] + do[:, 1] > t))
    if bad.size:
        p = int(bad[0])
        raise ValueError(
            f"detail_of[{p}] = {do[p].tolist()}: each polygon needs a first triangle and a "
            f"count >= 1 within the {t} detail triangles"
        )
    out = (dv, dt.astype(np.int32), do.astype(np.int32))
    for arr in out:
        arr.flags.writeable = False
    return out


def next_places(polys: IntArray) -> npt.NDArray[np.int64]:
    """For every flat place ``p * nvp + k`` of ``polys`` the flat place of polygon
    ``p``'s next vertex (the first after the last; padding points at the last)."""
    m, nvp = polys.shape
    out: npt.NDArray[np.int64] = (np.arange(m)[:, None] * nvp + _next_columns(polys)).ravel()
    return out


def edge_places(polys: IntArray) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The used places of ``polys`` as flat indices ``p * nvp + k``, and the flat index
    of each one's next vertex place."""
    place = np.flatnonzero(polys.ravel() >= 0)
    return place, next_places(polys)[place]


def _adjacency(verts: FloatArray, polys: IntArray, tol: float) -> IntArray:
    """See :meth:`PolyMesh3D.adjacency`."""
    m, nvp = polys.shape
    out = np.full(m * nvp, -1, dtype=np.int32)
    mine, theirs = edge_matches(verts, polys, tol)
    out[mine] = theirs // nvp
    return out.reshape(m, nvp)


def edge_matches(
    verts: FloatArray, polys: IntArray, tol: float
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The shared edges of :meth:`PolyMesh3D.adjacency`, as pairs of flat places
    ``p * nvp + k`` (each pair twice, once from each side)."""
    nvp = polys.shape[1]
    place, nxt_place = edge_places(polys)
    flat = polys.ravel()
    a, b = flat[place], flat[nxt_place]
    # end points quantised in (x, y), so shared vertices and coincident copies match
    scale = float(np.abs(verts[:, :2]).max()) + 1.0
    quantum = scale * 1e-9
    q = np.round(verts[:, :2] / quantum).astype(np.int64)
    fwd = np.concatenate((q[a], q[b]), axis=1)
    rev = np.concatenate((q[b], q[a]), axis=1)
    _, inverse = np.unique(np.concatenate((fwd, rev)), axis=0, return_inverse=True)
    inverse = inverse.ravel()
    n = place.size
    fid, rid = inverse[:n], inverse[n:]
    # candidates: each edge against the edges whose forward key is its reverse key
    order = np.argsort(fid, kind="stable")
    sorted_f = fid[order]
    lo = np.searchsorted(sorted_f, rid, side="left")
    hi = np.searchsorted(sorted_f, rid, side="right")
    poly_of = place // nvp
    za, zb = verts[a, 2], verts[b, 2]
    slack = tol + 1e-9 * (float(np.abs(verts[:, 2]).max()) + 1.0)
    match = np.full(n, -1, dtype=np.int64)
    single = np.flatnonzero(hi - lo == 1)
    j = order[lo[single]]
    ok = (np.abs(za[single] - zb[j]) <= slack) & (np.abs(zb[single] - za[j]) <= slack)
    ok &= poly_of[single] != poly_of[j]
    match[single[ok]] = j[ok]
    for i in np.flatnonzero(hi - lo > 1).tolist():  # stacked floors: nearest in height
        cand = order[lo[i] : hi[i]]
        gap = np.maximum(np.abs(za[i] - zb[cand]), np.abs(zb[i] - za[cand]))
        gap = np.where(poly_of[cand] == poly_of[i], np.inf, gap)
        best = int(np.argmin(gap))
        if gap[best] <= slack:
            match[i] = cand[best]
    # only mutual choices join (an edge under a stack chose the nearer floor)
    linked = np.flatnonzero(match >= 0)
    linked = linked[match[match[linked]] == linked]
    return place[linked], place[match[linked]]
