# cython: language_level=3
"""Compiled walks over a navigation mesh: corridor portals, the funnel, raycasts and
connected components.

The mesh is the same flat arrays as in :mod:`pathcraft._core.polyanya`: ``xy``,
``poff``/``pv`` (counter-clockwise polygons as CSR) and ``nbr`` (the polygon across
each edge, -1 on the boundary). Arguments are trusted: :mod:`pathcraft.navmesh`
checks them first.

The funnel is the "simple stupid funnel algorithm" described by Mikko Mononen
(digestingduck.blogspot.com, 2010), written from that description: walk the portals
keeping an apex and a left and a right boundary; a portal end that tightens the funnel
replaces its side; one that crosses the other side makes that side's point the next
corner of the path, which restarts the walk from there.
"""

from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t

from pathcraft._core.bounds cimport check_indices, check_mesh, check_rows

import numpy as np


cdef inline double cross(double ox, double oy, double ax, double ay, double bx, double by) noexcept nogil:
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def corridor_portals(
    const double[:, ::1] xy not None,
    const int64_t[::1] poff not None,
    const int32_t[::1] pv not None,
    const int32_t[::1] nbr not None,
    const int32_t[::1] corridor not None,
    double[:, ::1] left not None,
    double[:, ::1] right not None,
):
    """Write the portal from ``corridor[i]`` into ``corridor[i + 1]`` as seen by a walker
    (``left[i]``, ``right[i]``). Where two polygons share several collinear edges the
    portal spans all of them. Returns the number of portals written (-1 if two
    consecutive polygons are not neighbours)."""
    cdef Py_ssize_t i, k, n, first, lastk, c
    cdef int64_t beg
    cdef int32_t p, q
    cdef bint broken = False
    cdef Py_ssize_t npoly = check_mesh(xy, poff, pv, nbr)
    check_indices[int32_t]("corridor", corridor, npoly, "polygon")
    if corridor.shape[0] > 0:
        for side, room in (("left", left), ("right", right)):
            if len(room) < corridor.shape[0] - 1 or room.shape[1] != 2:
                raise ValueError(
                    f"{side} needs room for {corridor.shape[0] - 1} portals, (k, 2)"
                )
    with nogil:
        for i in range(corridor.shape[0] - 1):
            p = corridor[i]
            q = corridor[i + 1]
            beg = poff[p]
            n = poff[p + 1] - beg
            first = -1
            for k in range(n):
                if nbr[beg + k] == q and nbr[beg + (k + n - 1) % n] != q:
                    first = k
                    break
            if first < 0:
                # Every edge leads to q (impossible in a valid mesh) or none does.
                for k in range(n):
                    if nbr[beg + k] == q:
                        first = k
                        break
                if first < 0:
                    broken = True
                    break
            lastk = first
            c = 0
            while c < n - 1 and nbr[beg + (lastk + 1) % n] == q:
                lastk = (lastk + 1) % n
                c += 1
            # Edges first .. lastk run A -> B counter-clockwise in p: crossing into q,
            # the far end B is on the walker's left and A on the right.
            right[i, 0] = xy[pv[beg + first], 0]
            right[i, 1] = xy[pv[beg + first], 1]
            left[i, 0] = xy[pv[beg + (lastk + 1) % n], 0]
            left[i, 1] = xy[pv[beg + (lastk + 1) % n], 1]
    if broken:
        return -1
    return corridor.shape[0] - 1


cdef inline Py_ssize_t add_corner(
    double[:, ::1] out, Py_ssize_t count, double x, double y
) except -1 nogil:
    """Append ``(x, y)`` to the ``count`` corners in ``out`` unless it repeats the last
    one; the new count."""
    if out[count - 1, 0] != x or out[count - 1, 1] != y:
        out[count, 0] = x
        out[count, 1] = y
        count += 1
    return count


#: How near a portal a funnel's start counts as on it (world units; rounding of a point
#: computed on an edge is far smaller).
cdef double ON_PORTAL = 1e-9


cdef inline bint on_segment(
    double x, double y, double ux, double uy, double vx, double vy
) noexcept nogil:
    """``(x, y)`` within ``ON_PORTAL`` of the segment ``u``-``v``."""
    cdef double dx = vx - ux, dy = vy - uy, t, len2 = dx * dx + dy * dy
    t = 0.0 if len2 == 0 else ((x - ux) * dx + (y - uy) * dy) / len2
    t = 0.0 if t < 0 else (1.0 if t > 1 else t)
    dx = ux + t * dx - x
    dy = uy + t * dy - y
    return dx * dx + dy * dy <= ON_PORTAL * ON_PORTAL


def string_pull(
    const double[:, ::1] left not None,
    const double[:, ::1] right not None,
    double[:, ::1] out not None,
):
    """The funnel over portals ``(left[i], right[i])``; the first portal is the start
    (both ends equal) and the last the goal. Writes the path corners into ``out`` (room
    for ``len(left)`` points) and returns how many."""
    cdef Py_ssize_t n = left.shape[0]
    cdef Py_ssize_t i, count = 0
    cdef int s, o
    cdef double ax, ay, turn
    # The funnel's sides, [0] the right and [1] the left: the end of each (x, y) and
    # the portal it came from, and the current portal's end on that side.
    cdef double fx[2]
    cdef double fy[2]
    cdef Py_ssize_t fi[2]
    cdef double px[2]
    cdef double py[2]
    if n == 0:
        return 0
    if right.shape[0] != n or left.shape[1] != 2 or right.shape[1] != 2:
        raise ValueError("left and right must be (n, 2) arrays of one length")
    if out.shape[0] < n or out.shape[1] != 2:
        raise ValueError(f"out needs room for {n} points (n, 2)")
    with nogil:
        ax = left[0, 0]
        ay = left[0, 1]
        for s in range(2):
            fx[s] = ax
            fy[s] = ay
            fi[s] = 0
        out[0, 0] = ax
        out[0, 1] = ay
        count = 1
        i = 1
        # A start lying on a portal (an agent stopped on a polygon's edge) is in the
        # polygon past it as well: the funnel starts after it (Detour's
        # findStraightPath does the same), else its sides open to a straight angle and
        # the walk turns at a portal's end behind the start.
        while i < n - 1 and on_segment(ax, ay, left[i, 0], left[i, 1], right[i, 0],
                                       right[i, 1]):
            i += 1
        while i < n:
            px[0] = right[i, 0]
            py[0] = right[i, 1]
            px[1] = left[i, 0]
            py[1] = left[i, 1]
            # The right side, then the left, the same mirrored (cross products negated).
            for s in range(2):
                o = 1 - s
                turn = 1.0 if s == 0 else -1.0
                # Tighten the side when its new end is inside (or on) it.
                if turn * cross(ax, ay, fx[s], fy[s], px[s], py[s]) >= 0:
                    if (ax == fx[s] and ay == fy[s]) or turn * cross(
                            ax, ay, fx[o], fy[o], px[s], py[s]) < 0:
                        fx[s] = px[s]
                        fy[s] = py[s]
                        fi[s] = i
                    else:
                        # It crosses the other side: that side's end is the next
                        # corner, and the walk restarts from the portal after it.
                        ax = fx[o]
                        ay = fy[o]
                        count = add_corner(out, count, ax, ay)
                        fx[s] = ax
                        fy[s] = ay
                        fi[s] = fi[o]
                        i = fi[o] + 1
                        break
            else:
                i += 1
        count = add_corner(out, count, left[n - 1, 0], left[n - 1, 1])
    return count


def raycast(
    const double[:, ::1] xy not None,
    const int64_t[::1] poff not None,
    const int32_t[::1] pv not None,
    const int32_t[::1] nbr not None,
    int32_t poly,
    double sx, double sy, double ex, double ey,
    int32_t[::1] visited not None,
):
    """Walk the segment from ``(sx, sy)`` (in polygon ``poly``) towards ``(ex, ey)``.

    Returns ``(t, count)``: ``t`` in [0, 1] is the fraction of the segment inside the
    mesh before it first leaves it (1.0 when it stays inside to the end) and the first
    ``count`` entries of ``visited`` are the polygons crossed, in order (the walk stops
    if ``visited`` fills up, returning ``count = -1``).
    """
    cdef double dx = ex - sx, dy = ey - sy
    cdef double t = 0.0, best, tt, nx, ny, den, ux, uy, vx, vy, hx, hy, w, out, best_out
    cdef Py_ssize_t count = 0, cap = visited.shape[0]
    cdef int64_t beg, n, k, best_k
    cdef int32_t u, v, nxt
    cdef Py_ssize_t npoly = check_mesh(xy, poff, pv, nbr)
    if not 0 <= poly < npoly:
        raise IndexError(f"poly: polygon index {poly} is not in [0, {npoly})")
    if cap < 1:
        raise ValueError("visited needs room for at least one polygon")
    if dx == 0 and dy == 0:
        visited[0] = poly
        return 1.0, 1
    with nogil:
        while True:
            if count == cap:
                count = -1
                break
            visited[count] = poly
            count += 1
            beg = poff[poly]
            n = poff[poly + 1] - beg
            # The exit is the nearest supporting line ahead; collinear edges (split
            # sides) share it, so the edge is the one whose segment holds the point
            # (at a vertex, the one leading to a neighbour).
            best = 1e300
            for k in range(n):
                u = pv[beg + k]
                v = pv[beg + (k + 1) % n]
                nx = xy[v, 1] - xy[u, 1]
                ny = -(xy[v, 0] - xy[u, 0])
                den = nx * dx + ny * dy
                if den <= 0:
                    continue
                tt = (nx * (xy[u, 0] - sx) + ny * (xy[u, 1] - sy)) / den
                if tt < best:
                    best = tt
            best_k = -1
            best_out = 1e300
            if best < 1e300:
                hx = sx + best * dx
                hy = sy + best * dy
                for k in range(n):
                    u = pv[beg + k]
                    v = pv[beg + (k + 1) % n]
                    ux = xy[u, 0]
                    uy = xy[u, 1]
                    vx = xy[v, 0]
                    vy = xy[v, 1]
                    nx = vy - uy
                    ny = -(vx - ux)
                    den = nx * dx + ny * dy
                    if den <= 0:
                        continue
                    tt = (nx * (ux - sx) + ny * (uy - sy)) / den
                    if tt > best + 1e-10:
                        continue
                    w = ((hx - ux) * (vx - ux) + (hy - uy) * (vy - uy)) / (nx * nx + ny * ny)
                    out = -w if w < 0 else (w - 1 if w > 1 else 0.0)
                    if best_k < 0 or out < best_out - 1e-12 or (
                            out <= best_out + 1e-12 and nbr[beg + best_k] < 0
                            and nbr[beg + k] >= 0):
                        best_out = out
                        best_k = k
            if best_k < 0 or best >= 1.0:
                t = 1.0
                break
            if best < t:
                best = t
            nxt = nbr[beg + best_k]
            if nxt < 0:
                t = best
                break
            t = best
            poly = nxt
    return t, count


def components(
    const int64_t[::1] poff not None,
    const int32_t[::1] nbr not None,
    int32_t[::1] label not None,
):
    """Label each polygon with its connected component (0, 1, ...); returns the count."""
    cdef Py_ssize_t npoly = poff.shape[0] - 1
    cdef Py_ssize_t p, top, c = 0
    if npoly < 0 or poff[0] != 0 or poff[npoly] != nbr.shape[0]:
        raise ValueError("poff must run from 0 to len(nbr)")
    check_rows("label", label, npoly, "poff[1:]")
    cdef int64_t k
    cdef int32_t q, r
    stack_arr = np.empty(max(npoly, 1), dtype=np.int32)
    cdef int32_t[::1] stack = stack_arr
    with nogil:
        for p in range(npoly):
            label[p] = -1
        for p in range(npoly):
            if label[p] >= 0:
                continue
            label[p] = <int32_t> c
            stack[0] = <int32_t> p
            top = 1
            while top > 0:
                top -= 1
                r = stack[top]
                for k in range(poff[r], poff[r + 1]):
                    q = nbr[k]
                    if q >= 0 and label[q] < 0:
                        label[q] = <int32_t> c
                        stack[top] = q
                        top += 1
            c += 1
    return c
