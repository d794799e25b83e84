"""Mesh queries for agents, after Detour's ``dtNavMeshQuery``: random points uniform by
area, the wall a ray hits (its normal), the distance to the nearest wall, and a move
along the surface that slides along walls.

A :class:`pathcraft.navmesh.NavMesh` answers them through short methods; the work is
here, in NumPy over the mesh's flat arrays (:class:`~pathcraft.navmesh._build.Topology`).
A query with a filter reads the filter's topology, where excluded polygons are walled
off, so they are walls to every query here. What a query derives from a topology (its
triangles, its wall segments and their STRtree) is kept by :class:`AgentCache` for the
last few topologies, which change object when the mesh is edited.
"""

from __future__ import annotations

import math
import numbers
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft.navmesh._build import Topology

__all__ = [
    "AgentCache",
    "MoveResult",
    "WallDistance",
    "check_count",
    "move_along_surface",
    "random_around",
    "random_points",
    "wall_distance",
    "wall_normal",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class WallDistance:
    """The nearest wall (boundary of the walkable area) to each point.

    Attributes
    ----------
    distance : float or ndarray, shape (n,)
        The distance to the nearest wall; ``inf`` where no wall is within
        ``max_distance``.
    point : ndarray, shape (2,) or (n, 2)
        The nearest wall point ``(x, y)``; NaN where no wall is within reach.
    normal : ndarray, shape (2,) or (n, 2)
        A unit vector from the wall point towards the query point (the wall's own
        normal into the walkable side where the point is on the wall); NaN where no
        wall is within reach.

    Examples
    --------
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (4, 0), (4, 2), (0, 2)], [[0, 1, 2, 3]])
    >>> near = mesh.distance_to_wall((1, 0.5))
    >>> near.distance, near.point.tolist(), near.normal.tolist()
    (0.5, [1.0, 0.0], [0.0, 1.0])
    """

    distance: Any
    point: FloatArray
    normal: FloatArray


@dataclass(frozen=True)
class MoveResult:
    """Where a move along the surface of a mesh ends.

    Attributes
    ----------
    position : ndarray, shape (2,)
        The position reached ``(x, y)``: the end when it is reachable within the move's
        search circle, else the point nearest the end on the walls met (``(3,)``,
        ``(x, y, z)`` on the surface, from a :class:`~pathcraft.navmesh3d.NavMesh3D`).
    polygons : ndarray of intp
        The polygons from the start's to the one holding ``position``, neighbour to
        neighbour.
    reached : bool
        Whether ``position`` is the end.

    Examples
    --------
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (4, 0), (4, 2), (0, 2)], [[0, 1, 2, 3]])
    >>> move = mesh.move_along_surface((1, 1), (3, 5))
    >>> move.position.tolist(), move.reached, move.polygons.tolist()
    ([3.0, 2.0], False, [0])
    """

    position: FloatArray
    polygons: npt.NDArray[np.intp]
    reached: bool


def check_count(n: Any) -> int:
    """``n`` as a count of points, an integer >= 0."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be an integer; got {n!r}")
    if int(n) < 0:
        raise ValueError(f"n must be >= 0; got {n!r}")
    return int(n)


def _rng(seed: Any) -> np.random.Generator:
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int, a numpy.random.Generator or None; got {seed!r}")
    if int(seed) < 0:
        raise ValueError(f"seed must be >= 0; got {seed!r}")
    return np.random.default_rng(int(seed))


@dataclass(frozen=True)
class _Derived:
    """What the queries read of one topology, made on first use."""

    tri: FloatArray  # (T, 3, 2): each polygon fanned from its first vertex
    tri_poly: npt.NDArray[np.intp]
    cum: FloatArray  # cumulative triangle areas, (T,)
    walls: FloatArray  # (W, 2, 2): the edges without a neighbour, from u to v
    tree: Any  # STRtree of the walls


class AgentCache:
    """The derived arrays of a mesh's last few topologies (compared by identity: a mesh
    and a filter's policy replace their topology object on every change). Safe to
    share between threads: two that miss make equal arrays."""

    __slots__ = ("_items", "_lock")

    def __init__(self) -> None:
        self._items: list[tuple[Topology, npt.NDArray[np.bool_] | None, _Derived]] = []
        self._lock = threading.Lock()

    def get(self, top: Topology, blocked: npt.NDArray[np.bool_] | None) -> _Derived:
        with self._lock:
            for t, b, d in self._items:
                if t is top and b is blocked:
                    return d
        made = _derive(top, blocked)
        with self._lock:
            self._items.append((top, blocked, made))
            del self._items[:-4]
        return made


def _derive(top: Topology, blocked: npt.NDArray[np.bool_] | None) -> _Derived:
    poly = top.poly_of.astype(np.intp)
    idx = np.arange(top.pv.shape[0])
    first = top.poff[poly]
    last = top.poff[poly + 1] - 1
    mid = np.flatnonzero((idx > first) & (idx < last))
    a = top.xy[top.pv[first[mid]]]
    b = top.xy[top.pv[mid]]
    c = top.xy[top.pv[mid + 1]]
    tri = np.stack([a, b, c], axis=1)
    tri_poly = poly[mid]
    area = 0.5 * (
        (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    )
    area = np.maximum(area, 0.0)
    if blocked is not None:
        area[blocked[tri_poly]] = 0.0
    nxt = idx + 1
    nxt[top.poff[1:] - 1] = top.poff[:-1]
    wall = np.flatnonzero(top.nbr < 0)
    if blocked is not None:
        wall = wall[~blocked[poly[wall]]]
    walls = np.stack([top.xy[top.pv[wall]], top.xy[top.pv[nxt[wall]]]], axis=1)
    tree = shapely.STRtree(shapely.linestrings(walls))
    return _Derived(tri, tri_poly, np.cumsum(area), walls, tree)


def random_points(d: _Derived, n: int, seed: Any) -> FloatArray:
    """``n`` points uniform by area over the triangles of ``d``, ``(n, 2)``."""
    rng = _rng(seed)
    if d.cum.shape[0] == 0 or not d.cum[-1] > 0:
        raise ValueError("the mesh has no walkable area to sample (every polygon excluded)")
    pick = rng.random(n) * d.cum[-1]
    k = np.minimum(np.searchsorted(d.cum, pick, side="right"), d.cum.shape[0] - 1)
    r1, r2 = rng.random(n), rng.random(n)
    s = np.sqrt(r1)[:, None]
    t = d.tri[k]
    out: FloatArray = (
        (1 - s) * t[:, 0] + s * (1 - r2[:, None]) * t[:, 1] + s * r2[:, None] * t[:, 2]
    )
    return out


def random_around(
    n: int,
    seed: Any,
    centre: FloatArray,
    reach: float,
    kept: Callable[[FloatArray], npt.NDArray[np.bool_]],
) -> FloatArray:
    """``n`` points uniform over the part of the disc of radius ``reach`` around
    ``centre`` where ``kept`` holds (on the mesh, in the centre's connected part):
    uniform points of the disc, rejected where it does not. Raises ValueError when
    fewer than one in a million draws is kept."""
    rng = _rng(seed)
    found: list[FloatArray] = []
    have = drawn = 0
    while have < n:
        batch = max(64, 2 * (n - have))
        r = reach * np.sqrt(rng.random(batch))
        angle = 2 * math.pi * rng.random(batch)
        pts = centre + np.stack([r * np.cos(angle), r * np.sin(angle)], axis=1)
        pts = pts[kept(pts)]
        found.append(pts)
        have += pts.shape[0]
        drawn += batch
        if have == 0 and drawn > 1_000_000:
            raise ValueError(
                f"max_distance {reach!r} around {tuple(centre.tolist())} holds too little "
                "walkable area to draw from (none in a million draws)"
            )
    out: FloatArray = np.concatenate(found)[:n]
    return out


def _closest_on(walls: FloatArray, p: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The point of each segment ``walls[i]`` nearest ``p[i]`` and the squared distance."""
    u, v = walls[:, 0], walls[:, 1]
    uv = v - u
    den = (uv * uv).sum(axis=1)
    w = np.clip(((p - u) * uv).sum(axis=1) / np.where(den > 0, den, 1.0), 0.0, 1.0)
    q = u + w[:, None] * uv
    return q, ((p - q) ** 2).sum(axis=1)


def _inward(walls: FloatArray) -> FloatArray:
    """The unit normal of each wall into the walkable side (polygons counter-clockwise:
    their inside is on the left of each edge)."""
    uv = walls[:, 1] - walls[:, 0]
    nrm = np.stack([-uv[:, 1], uv[:, 0]], axis=1)
    length = np.sqrt((nrm * nrm).sum(axis=1))
    out: FloatArray = nrm / np.where(length > 0, length, 1.0)[:, None] + 0.0  # no -0.0
    return out


def wall_distance(d: _Derived, pts: FloatArray, max_distance: float) -> WallDistance:
    """The nearest wall of ``d`` to each point ``(n, 2)`` (arrays, one row each)."""
    n = pts.shape[0]
    dist = np.full(n, math.inf)
    point = np.full((n, 2), math.nan)
    normal = np.full((n, 2), math.nan)
    if n and d.walls.shape[0]:
        reach = None if math.isinf(max_distance) else max_distance
        which, seg = d.tree.query_nearest(
            shapely.points(pts), max_distance=reach, all_matches=False
        )
        q, d2 = _closest_on(d.walls[seg], pts[which])
        dist[which] = np.sqrt(d2)
        point[which] = q
        away = pts[which] - q
        length = np.sqrt((away * away).sum(axis=1))
        on = length <= 1e-12 * (1.0 + np.abs(q).max(axis=1))
        unit = away / np.where(on, 1.0, length)[:, None] + 0.0
        if on.any():
            unit[on] = _inward(d.walls[seg[on]])
        normal[which] = unit
    return WallDistance(dist, point, normal)


def wall_normal(top: Topology, poly: int, hit: FloatArray) -> FloatArray:
    """The inward unit normal of the wall of polygon ``poly`` nearest ``hit`` (where a
    ray leaves the mesh)."""
    walls, nbr = _ring(top, poly)
    _, d2 = _closest_on(walls, np.broadcast_to(hit, (nbr.shape[0], 2)))
    d2[nbr >= 0] = math.inf
    k = int(np.argmin(d2))
    out: FloatArray = _inward(walls[k : k + 1])[0]
    return out


def _ring(top: Topology, p: int) -> tuple[FloatArray, npt.NDArray[np.int32]]:
    """Polygon ``p``'s edges ``(k, 2, 2)``, from each vertex to the next, and the
    polygon across each."""
    beg, stop = int(top.poff[p]), int(top.poff[p + 1])
    ring = top.pv[beg:stop]
    return np.stack([top.xy[ring], top.xy[np.roll(ring, -1)]], axis=1), top.nbr[beg:stop]


Pt = tuple[float, float]


def _on_segment(u: Pt, v: Pt, p: Pt) -> tuple[Pt, float]:
    """The point of segment ``u``-``v`` nearest ``p`` and its squared distance."""
    dx, dy = v[0] - u[0], v[1] - u[1]
    den = dx * dx + dy * dy
    w = 0.0 if den <= 0 else min(max(((p[0] - u[0]) * dx + (p[1] - u[1]) * dy) / den, 0.0), 1.0)
    q = (u[0] + w * dx, u[1] + w * dy)
    return q, (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def _inside(ring: list[Pt], p: Pt, slack: float) -> bool:
    """Whether ``p`` is in the convex polygon ``ring`` (counter-clockwise), within
    ``slack`` of each edge's line."""
    for k, u in enumerate(ring):
        v = ring[k - len(ring) + 1]
        dx, dy = v[0] - u[0], v[1] - u[1]
        if dx * (p[1] - u[1]) - dy * (p[0] - u[0]) < -slack * math.hypot(dx, dy):
            return False
    return True


def _tucked(ring: list[Pt], q: Pt) -> Pt:
    """``q``, a point of a polygon's wall, moved a hair towards the polygon's centre if
    rounding left it outside, so the next query from it finds it on the mesh."""
    cx = sum(u[0] for u in ring) / len(ring)
    cy = sum(u[1] for u in ring) / len(ring)
    for step in (0.0, 1e-12, 1e-9, 1e-7, 1e-5):
        p = (q[0] + step * (cx - q[0]), q[1] + step * (cy - q[1]))
        if _inside(ring, p, 0.0):
            return p
    return q


def move_along_surface(
    top: Topology, poly: int, start: FloatArray, end: FloatArray, scale: float
) -> MoveResult:
    """Detour's ``moveAlongSurface``: a breadth-first walk from polygon ``poly`` over
    the polygons whose portals lie within the circle around the move (centred halfway,
    of half its length), ending at ``end`` if a polygon met holds it, else at the wall
    point met nearest ``end`` (or ``start`` if none is nearer). Plain Python over each
    polygon's few vertices: cheaper than NumPy calls on arrays of four."""
    s: Pt = (float(start[0]), float(start[1]))
    e: Pt = (float(end[0]), float(end[1]))
    centre = (0.5 * (s[0] + e[0]), 0.5 * (s[1] + e[1]))
    eps = 1e-9 * scale
    r2 = (0.5 * math.hypot(e[0] - s[0], e[1] - s[1]) + eps) ** 2
    best, best_d2, best_poly = s, (e[0] - s[0]) ** 2 + (e[1] - s[1]) ** 2, poly
    parent = {poly: -1}
    todo = deque([poly])
    reached = False
    while todo:
        p = todo.popleft()
        beg, stop = int(top.poff[p]), int(top.poff[p + 1])
        ring: list[Pt] = [(x, y) for x, y in top.xy[top.pv[beg:stop]].tolist()]
        if _inside(ring, e, eps):
            best, best_poly, reached = e, p, True
            break
        for k, q_poly in enumerate(top.nbr[beg:stop].tolist()):
            u, v = ring[k], ring[k - len(ring) + 1]
            if q_poly < 0:
                q, d2 = _on_segment(u, v, e)
                if d2 < best_d2:
                    best, best_d2, best_poly = _tucked(ring, q), d2, p
            elif q_poly not in parent and _on_segment(u, v, centre)[1] <= r2:
                parent[q_poly] = p
                todo.append(q_poly)
    chain = [best_poly]
    while parent[chain[-1]] >= 0:
        chain.append(parent[chain[-1]])
    return MoveResult(
        np.array(best, dtype=np.float64), np.array(chain[::-1], dtype=np.intp), reached
    )
