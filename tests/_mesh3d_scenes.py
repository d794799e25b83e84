"""Hand-built 3-D navigation mesh scenes for the tests (ramps, stairs as steps of
polygons, a bridge over a floor, two storeys joined by a stair), and an oracle check
that a path lies on the surface, written apart from the library's own geometry."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from pathcraft.navmesh3d import PolyMesh3D

Height = Callable[[float, float], float]
Rect = tuple[float, float, float, float, Height]  # x0, y0, x1, y1, z(x, y)


def flat(z: float) -> Height:
    return lambda x, y: z


def slope(
    z0: float, dzdx: float = 0.0, dzdy: float = 0.0, x0: float = 0.0, y0: float = 0.0
) -> Height:
    return lambda x, y: z0 + dzdx * (x - x0) + dzdy * (y - y0)


def rect_mesh(rects: Sequence[Rect], tol: float = 1e-9) -> PolyMesh3D:
    """Axis-aligned rectangles (planar: their height a linear function) as convex
    polygons, each edge split at every corner of another rectangle lying on it at the
    same height, so neighbours share whole edges."""
    corners = []
    for x0, y0, x1, y1, z in rects:
        corners += [(x, y, z(x, y)) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    pts = np.unique(np.round(np.array(corners, dtype=float), 9), axis=0)
    index = {tuple(p): i for i, p in enumerate(pts.tolist())}
    polys = []
    for x0, y0, x1, y1, z in rects:
        ring = []
        sides = (
            ((x0, y0), (x1, y0)),
            ((x1, y0), (x1, y1)),
            ((x1, y1), (x0, y1)),
            ((x0, y1), (x0, y0)),
        )
        for (ax, ay), (bx, by) in sides:
            on = []
            for p in pts:
                px, py, pz = p
                t = (px - ax) * (bx - ax) + (py - ay) * (by - ay)
                length2 = (bx - ax) ** 2 + (by - ay) ** 2
                cross = (px - ax) * (by - ay) - (py - ay) * (bx - ax)
                if abs(cross) <= tol and -tol <= t < length2 - tol and abs(pz - z(px, py)) <= tol:
                    on.append((t, index[tuple(p.tolist())]))
            ring += [i for _, i in sorted(on)]
        polys.append(ring)
    width = max(len(r) for r in polys)
    rows = [r + [-1] * (width - len(r)) for r in polys]
    return PolyMesh3D(pts, rows)


def ramp_scene() -> PolyMesh3D:
    """A landing, a ramp rising 3 over 6, a landing; a wall-less wide strip."""
    return rect_mesh([
        (0, 0, 4, 4, flat(0.0)),
        (4, 0, 10, 4, slope(0.0, dzdx=0.5, x0=4)),
        (10, 0, 14, 4, flat(3.0)),
    ])  # fmt: skip


def stairs_scene(steps: int = 6, rise: float = 0.5) -> PolyMesh3D:
    """A floor, a stair of ``steps`` steps of ``rise`` (each a polygon), a landing."""
    rects: list[Rect] = [(0, 0, 4, 3, flat(0.0))]
    for k in range(steps):
        rects.append((4 + k, 0, 5 + k, 3, flat(rise * (k + 1))))
    rects.append((4 + steps, 0, 8 + steps, 3, flat(rise * steps)))
    return rect_mesh(rects)


def bridge_scene() -> PolyMesh3D:
    """A corridor at z = 0 (y from 4 to 6) with a bridge over it at z = 3 (x from 5 to
    7), reached by ramps from a pad south that a side corridor joins to the floor."""
    return rect_mesh([
        (0, 4, 2, 6, flat(0.0)), (2, 4, 5, 6, flat(0.0)), (5, 4, 7, 6, flat(0.0)),
        (7, 4, 12, 6, flat(0.0)),
        (0, -6, 2, 4, flat(0.0)),                              # side corridor
        (0, -10, 2, -6, flat(0.0)), (2, -10, 5, -6, flat(0.0)),
        (5, -10, 7, -6, flat(0.0)),                            # the pad
        (5, -6, 7, 0, slope(0.0, dzdy=0.5, y0=-6)),            # ramp up to the bridge
        (5, 0, 7, 4, flat(3.0)), (5, 4, 7, 6, flat(3.0)), (5, 6, 7, 10, flat(3.0)),
        (5, 10, 7, 16, slope(3.0, dzdy=-0.5, y0=10)),          # ramp down, north
        (5, 16, 7, 20, flat(0.0)),
    ])  # fmt: skip


def storeys_scene() -> PolyMesh3D:
    """Two storeys: a ground floor z = 0 and an upper floor z = 3 over most of it,
    joined by a stair of six steps of 0.5 outside the building and a landing."""
    rects: list[Rect] = [(0, 0, 10, 2, flat(0.0)), (0, 2, 10, 10, flat(0.0))]
    for k in range(6):
        rects.append((10 + k, 0, 11 + k, 2, flat(0.5 * (k + 1))))
    rects += [
        (16, 0, 18, 2, flat(3.0)),
        (16, 2, 18, 4, flat(3.0)),
        (16, 4, 18, 10, flat(3.0)),
        (0, 4, 16, 10, flat(3.0)),
    ]
    return rect_mesh(rects)


def hills_scene(n: int = 7, seed: int = 5) -> PolyMesh3D:
    """One floor of triangles over an n x n grid of random heights (no overhangs)."""
    rng = np.random.default_rng(seed)
    xs, ys = np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float), indexing="ij")
    z = rng.random((n, n)) * 1.5
    verts = np.stack((xs.ravel(), ys.ravel(), z.ravel()), axis=1)
    tris = []
    for i in range(n - 1):
        for j in range(n - 1):
            a, b, c, d = i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1
            tris += [[a, b, c], [a, c, d]]
    return PolyMesh3D(verts, tris)


def source_polygons(mesh: PolyMesh3D) -> list[npt.NDArray[np.float64]]:
    """Each polygon's corners ``(x, y, z)``: the hand-built scenes' source geometry
    (every polygon planar)."""
    return [mesh.vertices[row[row >= 0]] for row in mesh.polygons]


def _on_polygon(ring: npt.NDArray[np.float64], p: npt.NDArray[np.float64], eps: float) -> bool:
    """Whether ``p`` lies on the planar convex polygon ``ring`` (counter-clockwise)."""
    nxt = np.roll(ring, -1, axis=0)
    e = nxt[:, :2] - ring[:, :2]
    w = p[:2] - ring[:, :2]
    if ((e[:, 0] * w[:, 1] - e[:, 1] * w[:, 0]) < -eps).any():
        return False
    normal = np.cross(ring[1] - ring[0], ring[2] - ring[0])
    return abs(float(normal @ (p - ring[0]))) <= eps * float(np.linalg.norm(normal))


def segment_on_surface(
    rings: list[npt.NDArray[np.float64]],
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    climb: float,
    eps: float = 1e-6,
    samples: int = 33,
) -> bool:
    """Whether the segment ``a``-``b`` lies on the source polygons (``samples`` points
    along it, ends included, each on some polygon), or is a vertical step of at most
    ``climb`` between two points of the surface."""
    if np.allclose(a[:2], b[:2], atol=eps):
        on_a = any(_on_polygon(r, a, eps) for r in rings)
        on_b = any(_on_polygon(r, b, eps) for r in rings)
        return on_a and on_b and abs(a[2] - b[2]) <= climb + eps
    for t in np.linspace(0.0, 1.0, samples):
        p = a + t * (b - a)
        if not any(_on_polygon(r, p, eps) for r in rings):
            return False
    return True


def path_on_surface(mesh: PolyMesh3D, path: npt.NDArray[np.float64], climb: float) -> bool:
    """Every segment of ``path`` on the surface of ``mesh``'s source polygons."""
    rings = source_polygons(mesh)
    return all(segment_on_surface(rings, a, b, climb) for a, b in itertools.pairwise(path))


def lifted(flat_mesh: object, height: Height) -> PolyMesh3D:
    """A flat :class:`pathcraft.NavMesh`'s polygons lifted onto ``z = height(x, y)``."""
    xy = np.asarray(flat_mesh.vertices)  # type: ignore[attr-defined]
    rows = [list(map(int, p)) for p in flat_mesh.polygons]  # type: ignore[attr-defined]
    width = max(len(r) for r in rows)
    z = np.array([height(float(x), float(y)) for x, y in xy])
    return PolyMesh3D(np.column_stack((xy, z)), [r + [-1] * (width - len(r)) for r in rows])


def plane_oracle(
    walk: object, start: npt.NDArray[np.float64], goal: npt.NDArray[np.float64], height: Height
) -> float:
    """The shortest path on the plane ``z = height(x, y)`` (linear) over the walkable
    ``walk`` (shapely): Dijkstra (scipy) over the visibility graph of its corners, start
    and goal (links by :class:`pathcraft.WaypointGraph`, seen from above), each link
    weighed by its length in 3-D (straight in the plane is straight in 3-D)."""
    import shapely
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra
    from shapely import box

    from pathcraft import WaypointGraph

    x0, y0, x1, y1 = walk.bounds  # type: ignore[attr-defined]
    frame = box(x0 - 10, y0 - 10, x1 + 10, y1 + 10)
    obstacles = list(shapely.get_parts(frame.difference(walk)))
    corners = np.unique(shapely.get_coordinates(walk), axis=0)
    points = np.vstack((corners, start[:2], goal[:2]))
    links = WaypointGraph(points, obstacles).links
    z = np.array([height(float(x), float(y)) for x, y in points])
    p3 = np.column_stack((points, z))
    n = points.shape[0]
    length = np.sqrt(((p3[links[:, 0]] - p3[links[:, 1]]) ** 2).sum(axis=1))
    graph = csr_matrix((length, (links[:, 0], links[:, 1])), shape=(n, n))
    return float(dijkstra(graph, directed=False, indices=n - 2)[n - 1])


def surface_oracle(
    mesh: PolyMesh3D,
    start: npt.NDArray[np.float64],
    goal: npt.NDArray[np.float64],
    lattice: int = 8,
) -> float:
    """The shortest path over a densely sampled surface: every polygon's triangles
    (fans) sampled on a barycentric lattice, every two samples of one triangle linked
    by their distance (a straight segment on the triangle), samples at one place merged;
    Dijkstra (scipy) from the start's sample to the goal's (both added to their
    triangles). An upper bound of the true shortest path that tends to it."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    tris = []
    for row in mesh.polygons:
        ring = mesh.vertices[row[row >= 0]]
        tris += [ring[[0, k, k + 1]] for k in range(1, ring.shape[0] - 1)]
    ij = [(i, j) for i in range(lattice + 1) for j in range(lattice + 1 - i)]
    bary = np.array([(1 - (i + j) / lattice, i / lattice, j / lattice) for i, j in ij])
    keys: dict[tuple[float, ...], int] = {}
    pts: list[npt.NDArray[np.float64]] = []

    def node(p: npt.NDArray[np.float64]) -> int:
        k = tuple(np.round(p, 7).tolist())
        if k not in keys:
            keys[k] = len(pts)
            pts.append(p)
        return keys[k]

    src, dst = [], []
    for t in tris:
        ids = [node(b @ t) for b in bary]
        for end in (start, goal):
            m = np.array(
                [[t[1, 0] - t[0, 0], t[2, 0] - t[0, 0]], [t[1, 1] - t[0, 1], t[2, 1] - t[0, 1]]]
            )
            u, v = np.linalg.solve(m, end[:2] - t[0, :2])
            if min(u, v, 1 - u - v) >= -1e-9:
                z = t[0, 2] + u * (t[1, 2] - t[0, 2]) + v * (t[2, 2] - t[0, 2])
                if abs(z - end[2]) < 1e-6:
                    ids.append(node(end.astype(float)))
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                src.append(ids[a])
                dst.append(ids[b])
    p = np.array(pts)
    src_a, dst_a = np.array(src), np.array(dst)
    w = np.sqrt(((p[src_a] - p[dst_a]) ** 2).sum(axis=1)) + 1e-12
    graph = csr_matrix((w, (src_a, dst_a)), shape=(len(p), len(p)))
    s = keys[tuple(np.round(start.astype(float), 7).tolist())]
    g = keys[tuple(np.round(goal.astype(float), 7).tolist())]
    return float(dijkstra(graph, directed=False, indices=s)[g])
