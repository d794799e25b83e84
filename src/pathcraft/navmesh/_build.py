"""Building a navigation mesh: checking convex polygons and finding their portals.

Everything here turns friendly input into the flat arrays the kernels read:

- ``xy``: ``(V, 2)`` float vertex coordinates ``(x, y)``;
- ``poff``/``pv``: the polygons as CSR, each counter-clockwise (``pv[poff[p]:poff[p+1]]``);
- ``nbr``: the polygon across each polygon edge ``pv[k] -> pv[k + 1]`` (-1: boundary);
- ``twin``: that edge's place in the neighbour's list (-1: boundary);
- ``poly_of``: the polygon of each edge place; ``corner``: 1 for every vertex on the
  mesh boundary (where a taut path may turn); ``degree``: neighbours per polygon.

Two polygons are neighbours when they share a whole edge (the same two vertices, in
opposite directions); the shared edge is a *portal*.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._positions import check_extent
from pathcraft._unique import sorted_unique

__all__ = [
    "Topology",
    "check_convex",
    "check_overlaps",
    "check_polygons",
    "check_vertices",
    "per_polygon",
    "topology",
    "walled",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class Topology:
    """The flat arrays of a mesh (see the module documentation)."""

    xy: FloatArray
    poff: npt.NDArray[np.int64]
    pv: npt.NDArray[np.int32]
    nbr: npt.NDArray[np.int32]
    twin: npt.NDArray[np.int64]
    poly_of: npt.NDArray[np.int32]
    corner: npt.NDArray[np.uint8]
    degree: npt.NDArray[np.int32]


def check_vertices(vertices: Any) -> FloatArray:
    """A new ``(V, 2)`` float array of finite, distinct vertices."""
    try:
        xy = np.array(vertices, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"vertices must be an array of points (x, y); got {vertices!r}") from exc
    if xy.ndim != 2 or xy.shape[1] != 2:
        raise ValueError(f"vertices must have shape (n, 2); got {xy.shape}")
    if xy.shape[0] == 0:
        raise ValueError("vertices is empty: a mesh needs at least one polygon")
    bad = np.flatnonzero(~np.isfinite(xy).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"vertices[{i}] = {xy[i].tolist()} is not finite")
    check_extent("vertices", xy)
    _, first, counts = np.unique(xy, axis=0, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = xy[first[np.flatnonzero(counts > 1)[0]]]
        same = np.flatnonzero((xy == dup).all(axis=1))
        raise ValueError(
            f"vertices[{int(same[0])}] and vertices[{int(same[1])}] are the same point "
            f"{tuple(dup.tolist())}: give each point once and share its index"
        )
    return xy


def check_polygons(polygons: Any, num_vertices: int) -> list[IntArray]:
    """Each polygon as an int array of at least 3 distinct vertex indices."""
    if isinstance(polygons, (str, bytes)) or not isinstance(polygons, Sequence | np.ndarray):
        raise TypeError(f"polygons must be a sequence of vertex index lists; got {polygons!r}")
    if len(polygons) == 0:
        raise ValueError("polygons is empty: a mesh needs at least one polygon")
    out: list[IntArray] = []
    for p, poly in enumerate(polygons):
        try:
            idx = np.asarray(poly)
        except (TypeError, ValueError) as exc:  # pragma: no cover - ragged input
            raise TypeError(f"polygons[{p}] must be a list of vertex indices") from exc
        if idx.ndim != 1 or not (idx.size == 0 or np.issubdtype(idx.dtype, np.integer)):
            raise TypeError(f"polygons[{p}] must be a list of vertex indices; got {poly!r}")
        if idx.size < 3:
            raise ValueError(f"polygons[{p}] has {idx.size} vertices; a polygon needs 3 or more")
        bad = np.flatnonzero((idx < 0) | (idx >= num_vertices))
        if bad.size:
            raise ValueError(
                f"polygons[{p}] names vertex {int(idx[bad[0]])}, but vertex indices run "
                f"from 0 to {num_vertices - 1}"
            )
        if np.unique(idx).size != idx.size:
            raise ValueError(f"polygons[{p}] repeats a vertex: {idx.tolist()}")
        out.append(idx.astype(np.intp))
    return out


def check_convex(xy: FloatArray, polys: list[IntArray]) -> list[IntArray]:
    """Each polygon counter-clockwise (clockwise ones are reversed), after checking that
    it is convex and simple. Collinear vertices (a straight angle) are allowed."""
    out: list[IntArray] = []
    scale = float(np.abs(xy).max()) + 1.0
    for p, idx in enumerate(polys):
        pts = xy[idx]
        nxt = np.roll(pts, -1, axis=0)
        area = 0.5 * float((pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1]).sum())
        if abs(area) <= 1e-12 * scale * scale:
            raise ValueError(
                f"polygons[{p}] has no area: its vertices are collinear or it crosses itself"
            )
        if area < 0:
            idx = idx[::-1].copy()
            pts = xy[idx]
            nxt = np.roll(pts, -1, axis=0)
        edge = nxt - pts
        turn = np.roll(edge, -1, axis=0)
        cross = edge[:, 0] * turn[:, 1] - edge[:, 1] * turn[:, 0]
        dot = (edge * turn).sum(axis=1)
        tol = 1e-12 * scale * scale
        concave = np.flatnonzero((cross < -tol) | ((np.abs(cross) <= tol) & (dot < 0)))
        if concave.size:
            k = (int(concave[0]) + 1) % idx.size
            raise ValueError(
                f"polygons[{p}] is not convex: it turns the wrong way at vertex "
                f"{int(idx[k])} {tuple(xy[idx[k]].tolist())}"
            )
        angles = np.arctan2(edge[:, 1], edge[:, 0])
        # signed turns in [-pi, pi): a straight angle rounded a hair concave turns ~0
        turns = np.mod(np.roll(angles, -1) - angles + math.pi, 2 * math.pi) - math.pi
        winding = float(turns.sum())
        if winding > 3 * math.pi:
            raise ValueError(f"polygons[{p}] intersects itself (it winds around more than once)")
        out.append(idx)
    return out


def topology(xy: FloatArray, polys: list[IntArray]) -> Topology:
    """The portals and per-edge arrays of counter-clockwise polygons."""
    nv = xy.shape[0]
    sizes = np.array([p.size for p in polys], dtype=np.int64)
    poff = np.zeros(len(polys) + 1, dtype=np.int64)
    np.cumsum(sizes, out=poff[1:])
    pv = np.concatenate(polys).astype(np.int32)
    poly_of = np.repeat(np.arange(len(polys), dtype=np.int32), sizes)
    place = np.arange(pv.size, dtype=np.int64)
    nxt_place = place + 1
    ends = poff[1:] - 1
    nxt_place[ends] = poff[:-1]
    u = pv.astype(np.int64)
    v = pv[nxt_place].astype(np.int64)
    key = u * nv + v
    order = np.argsort(key, kind="stable")
    sorted_keys = key[order]
    dup = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
    if dup.size:
        a, b = order[dup[0]], order[dup[0] + 1]
        raise ValueError(
            f"polygons[{int(poly_of[a])}] and polygons[{int(poly_of[b])}] overlap: both run "
            f"along edge {int(u[a])} -> {int(v[a])} on the same side"
        )
    rev = v * nv + u
    pos = np.searchsorted(sorted_keys, rev)
    pos = np.minimum(pos, sorted_keys.size - 1)
    matched = sorted_keys[pos] == rev
    twin = np.where(matched, order[pos], -1).astype(np.int64)
    nbr = np.where(matched, poly_of[np.maximum(twin, 0)], -1).astype(np.int32)
    corner, degree = _walls(nv, u, v, nbr, poly_of)
    return Topology(
        xy=np.ascontiguousarray(xy), poff=poff, pv=pv, nbr=nbr, twin=twin,
        poly_of=poly_of, corner=corner, degree=degree,
    )  # fmt: skip


def _walls(
    nv: int, u: npt.NDArray[Any], v: npt.NDArray[Any], nbr: npt.NDArray[np.int32],
    poly_of: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:  # fmt: skip
    """``corner`` and ``degree`` of a mesh whose edge places run from ``u`` to ``v``
    with the neighbours ``nbr`` (see the module documentation)."""
    corner = np.zeros(nv, dtype=np.uint8)
    boundary = nbr < 0
    corner[u[boundary]] = 1
    corner[v[boundary]] = 1
    npoly = int(poly_of[-1]) + 1 if poly_of.size else 0
    degree = np.bincount(poly_of[~boundary], minlength=npoly).astype(np.int32)
    return corner, degree


def per_polygon(top: Topology, values: npt.NDArray[Any]) -> list[IntArray]:
    """``values`` (one per edge place) cut into each polygon's, as new intp arrays."""
    return [
        values[a:b].astype(np.intp)
        for a, b in zip(top.poff[:-1].tolist(), top.poff[1:].tolist(), strict=True)
    ]


def walled(top: Topology, blocked: npt.NDArray[np.bool_]) -> Topology:
    """``top`` with the polygons ``blocked`` (a mask, one per polygon) walled off: every
    edge of theirs and every edge into them is a wall (``nbr`` and ``twin`` -1), and
    ``corner`` and ``degree`` say so, so a search on it (Polyanya, the raycast) never
    enters them. New arrays where they differ; ``top`` is not written.

    >>> top = topology(np.array([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], float),
    ...                [np.array([0, 1, 4, 5]), np.array([1, 2, 3, 4])])
    >>> top.nbr.tolist(), walled(top, np.array([False, True])).nbr.tolist()
    ([-1, 1, -1, -1, -1, -1, -1, 0], [-1, -1, -1, -1, -1, -1, -1, -1])
    """
    into = np.zeros(top.nbr.shape[0], dtype=bool)
    has = top.nbr >= 0
    into[has] = blocked[top.nbr[has]]
    cut = into | blocked[top.poly_of]
    nbr = np.where(cut, -1, top.nbr).astype(np.int32)
    twin = np.where(cut, -1, top.twin).astype(np.int64)
    nxt = np.arange(1, top.pv.shape[0] + 1, dtype=np.int64)
    nxt[top.poff[1:] - 1] = top.poff[:-1]
    corner, degree = _walls(top.xy.shape[0], top.pv, top.pv[nxt], nbr, top.poly_of)
    return dataclasses.replace(top, nbr=nbr, twin=twin, corner=corner, degree=degree)


def shapes(top: Topology) -> npt.NDArray[Any]:
    """The polygons as a shapely array."""
    rings = shapely.linearrings(top.xy[top.pv], indices=top.poly_of)
    return np.asarray(shapely.polygons(rings))


def check_overlaps(top: Topology, polys: npt.NDArray[Any], tree: Any) -> None:
    """Raise if two polygons overlap (share area) or one has a vertex inside another's
    edge without sharing that edge (a T-junction)."""
    left, right = tree.query(polys, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    if left.size:
        area = shapely.area(shapely.intersection(polys[left], polys[right]))
        scale = float(np.abs(top.xy).max()) + 1.0
        bad = np.flatnonzero(area > 1e-9 * scale * scale)
        if bad.size:
            i, j = int(left[bad[0]]), int(right[bad[0]])
            raise ValueError(f"polygons[{i}] and polygons[{j}] overlap")
    boundary = np.flatnonzero(top.nbr < 0)
    nxt = _next_place(top)
    a = top.pv[boundary]
    b = top.pv[nxt[boundary]]
    lines = shapely.linestrings(
        np.stack((top.xy[a], top.xy[b]), axis=1).reshape(-1, 2),
        indices=np.repeat(np.arange(boundary.size), 2),
    )
    used = sorted_unique(top.pv)
    points = shapely.points(top.xy[used])
    edge_tree = shapely.STRtree(lines)
    pi, ei = edge_tree.query(points, predicate="intersects")
    inner = (used[pi] != a[ei]) & (used[pi] != b[ei])
    if inner.any():
        k = int(np.flatnonzero(inner)[0])
        vert = int(used[pi[k]])
        e = int(boundary[ei[k]])
        owners = sorted({int(p) for p in top.poly_of[top.pv == vert]})
        raise ValueError(
            f"T-junction: vertex {vert} {tuple(top.xy[vert].tolist())} of polygons{owners} "
            f"lies inside edge {int(a[ei[k]])} -> {int(b[ei[k]])} of "
            f"polygons[{int(top.poly_of[e])}]; "
            "split that edge at the vertex so neighbouring polygons share whole edges"
        )


def _next_place(top: Topology) -> npt.NDArray[np.int64]:
    nxt = np.arange(1, top.pv.size + 1, dtype=np.int64)
    nxt[top.poff[1:] - 1] = top.poff[:-1]
    return nxt
