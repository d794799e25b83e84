"""Vectorised line of sight among polygonal obstacles (shapely), for waypoint graphs.

**The rule.** A segment is blocked when its interior meets the interior of an
obstacle. A segment that only touches an obstacle's boundary is clear: it may graze a
corner, run along an edge, or end on the boundary. A zero-length segment (a point) is
blocked exactly when the point is strictly inside an obstacle. Obstacles are tested
one by one, so a segment along the seam where two obstacles meet passes between them;
merge such obstacles (``shapely.union_all``) or give an agent radius, which makes them
overlap.

In DE-9IM terms the rule is ``relate_pattern(segment, obstacle, "T********")``; for a
line against an area it is the same as ``crosses(obstacle, segment) or
contains(obstacle, segment)``, two predicates GEOS evaluates on a prepared obstacle.

**The test**, for many segments at once:

1. an STRtree of the obstacles gives the (segment, obstacle) pairs whose boxes meet;
2. a compiled loop measures each pair's distance from the segment to the obstacle's inscribed
   centre: a segment closer than the inscribed radius certainly enters the interior
   (blocked); one farther than the outer radius (the farthest vertex from that centre)
   certainly misses the obstacle (clear). Both margins are widened by a relative 1e-9
   so rounding cannot decide a close call;
3. shapely decides the remaining pairs, vectorised over the pairs: a segment that
   meets the obstacle shrunk by 1e-7 of its size enters the interior (blocked); one
   that misses the obstacle is clear; the few left between (grazing contacts) get the
   exact test ``crosses or contains``.

Nothing here loops over pairs in Python.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._core import visibility as _kernel

__all__ = ["ObstacleSet", "blocking_pairs", "chunks", "describe"]

#: Segments tested per batch: bounds the memory of the candidate pairs.
CHUNK = 40_000
# GEOS prepared geometries build their indexes lazily and are not thread-safe
# (libgeos/geos#825): two threads testing segments against the same prepared obstacles
# crashed the interpreter now and then. The shapely calls on them take turns; the
# compiled pre-test and the graph searches still run in parallel.
_GEOS_LOCK = threading.Lock()
_MARGIN = 1e-9
#: Obstacles shrunk by this fraction of their size lie inside their own interior.
_SHRINK = 1e-7

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class ObstacleSet:
    """Obstacles ready for the test: geometries (prepared), their STRtree, and for each
    an inscribed centre with its inner and outer radii."""

    geoms: npt.NDArray[np.object_]
    tree: Any
    centers: FloatArray  # (k, 2)
    inner: FloatArray  # radius of a disk inside the obstacle (shrunk by the margin)
    outer: FloatArray  # radius of a disk holding it (grown by the margin)
    shrunk: npt.NDArray[np.object_]  # the obstacles shrunk a little: inside the interior
    bounds: FloatArray  # (k, 4): minx, miny, maxx, maxy

    @classmethod
    def of(cls, geoms: list[Any]) -> ObstacleSet:
        arr = np.empty(len(geoms), dtype=object)
        arr[:] = geoms
        shapely.prepare(arr)
        centers = np.zeros((len(geoms), 2))
        inner = np.zeros(len(geoms))
        outer = np.zeros(len(geoms))
        for i, g in enumerate(geoms):
            centers[i], inner[i], outer[i] = _disks(g)
        bounds = shapely.bounds(arr) if len(geoms) else np.zeros((0, 4))
        size = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
        shrunk = np.empty(len(geoms), dtype=object)
        shrunk[:] = [
            shapely.buffer(g, -_SHRINK * max(float(s), 1.0))
            for g, s in zip(geoms, size, strict=True)
        ]
        shapely.prepare(shrunk)
        tree = shapely.STRtree(arr)
        return cls(arr, tree, centers, inner, outer, shrunk, bounds)

    def __len__(self) -> int:
        return int(self.geoms.shape[0])


def _disks(geom: Any) -> tuple[FloatArray, float, float]:
    """An inscribed centre of ``geom``, the radius of a disk around it inside ``geom``
    and the radius of one holding all of ``geom``."""
    line = shapely.maximum_inscribed_circle(geom)
    center = np.asarray(shapely.get_coordinates(line)[0], dtype=np.float64)
    point = shapely.points(center)
    inner = 0.0
    if shapely.contains_properly(geom, point):
        inner = float(shapely.distance(point, shapely.boundary(geom))) * (1.0 - _MARGIN)
    coords = shapely.get_coordinates(geom)
    outer = float(np.sqrt(((coords - center) ** 2).sum(axis=1)).max())
    outer = outer * (1.0 + _MARGIN) + _MARGIN
    return center, inner, outer


def describe(geom: Any) -> str:
    """A short description of a geometry for error messages."""
    text = str(geom)
    return text if len(text) <= 60 else text[:57] + "..."


def chunks(n: int, size: int = CHUNK) -> Iterator[slice]:
    for lo in range(0, n, size):
        yield slice(lo, min(n, lo + size))


def _segment_geoms(a: FloatArray, b: FloatArray) -> npt.NDArray[np.object_]:
    """Segments ``a[i] -> b[i]`` as shapely geometries; points where ``a[i] == b[i]``."""
    out: npt.NDArray[np.object_] = shapely.linestrings(np.stack((a, b), axis=1))
    same = (a == b).all(axis=1)
    if same.any():
        out[same] = shapely.points(a[same])
    return out


def blocking_pairs(
    a: FloatArray, b: FloatArray, obstacles: ObstacleSet, which: IntArray | None = None
) -> tuple[IntArray, IntArray]:
    """Every (segment, obstacle) pair where the obstacle blocks the segment
    ``a[i] -> b[i]`` (both ``(k, 2)`` float arrays).

    ``which`` limits the test to those obstacle indices (default: all). Returns
    ``(segment_index, obstacle_index)`` arrays, each pair once.
    """
    seg_out: list[IntArray] = []
    obs_out: list[IntArray] = []
    if len(obstacles) == 0 or a.shape[0] == 0:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    for part in chunks(a.shape[0]):
        pa, pb = a[part], b[part]
        if which is None:
            segs = _segment_geoms(pa, pb)
            with _GEOS_LOCK:
                si, oj = obstacles.tree.query(segs)
        else:
            si, oj = _box_pairs(pa, pb, obstacles, which)
            segs = None
        if si.shape[0] == 0:
            continue
        si = np.ascontiguousarray(si, dtype=np.intp)
        oj = np.ascontiguousarray(oj, dtype=np.intp)
        code = np.empty(si.shape[0], dtype=np.int8)
        _kernel.classify_pairs(
            pa, pb, si, oj, obstacles.centers, obstacles.inner, obstacles.outer, code
        )
        hit = code == _kernel.BLOCKED
        unknown = np.flatnonzero(code == _kernel.UNKNOWN)
        if unknown.shape[0]:
            us, uo = si[unknown], oj[unknown]
            geoms = segs[us] if segs is not None else _segment_geoms(pa[us], pb[us])
            # Entering the shrunk obstacle is entering the interior: blocked. Missing the
            # obstacle itself: clear. Only what lies between gets the exact test.
            with _GEOS_LOCK:  # prepared obstacles: one thread at a time
                deep = shapely.intersects(obstacles.shrunk[uo], geoms)
                hit[unknown[deep]] = True
                rest = np.flatnonzero(~deep)
                near = shapely.intersects(obstacles.geoms[uo[rest]], geoms[rest])
                close = rest[near]
                if close.shape[0]:
                    g, s = obstacles.geoms[uo[close]], geoms[close]
                    hit[unknown[close]] = shapely.crosses(g, s) | shapely.contains(g, s)
        seg_out.append(si[hit] + part.start)
        obs_out.append(oj[hit])
    if not seg_out:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    return np.concatenate(seg_out), np.concatenate(obs_out)


def _box_pairs(
    a: FloatArray, b: FloatArray, obstacles: ObstacleSet, which: IntArray
) -> tuple[IntArray, IntArray]:
    """Candidate pairs between all segments and a few obstacles by box overlap (NumPy,
    no tree: used for the local update after one obstacle changes)."""
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    seg_parts: list[IntArray] = []
    obs_parts: list[IntArray] = []
    for j in which.tolist():
        minx, miny, maxx, maxy = obstacles.bounds[j]
        near = np.flatnonzero(
            (lo[:, 0] <= maxx) & (hi[:, 0] >= minx) & (lo[:, 1] <= maxy) & (hi[:, 1] >= miny)
        )
        seg_parts.append(near)
        obs_parts.append(np.full(near.shape[0], j, dtype=np.intp))
    if not seg_parts:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    return np.concatenate(seg_parts), np.concatenate(obs_parts)
