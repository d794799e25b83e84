# cython: language_level=3
"""Compiled second half of the Recast pipeline: region contours and convex polygons.

This follows the steps of Recast's ``rcBuildContours`` and ``rcBuildPolyMesh``
(recastnavigation, zlib licence; the algorithms are described here in our own words
and written anew):

Contours
    Every span whose region is set (and not a tile-border region, flag ``0x8000``)
    marks the sides where the neighbour belongs to another region. A walk along those
    sides, turning right past a marked side and left into an unmarked one, gives the
    *raw* contour: one point per side, at the side's far corner, with the corner's
    height (the highest floor of the up to four spans around it) and, in the point's
    flags, the region across the side, whether the area changes there (``AREA_BORDER``)
    and whether the corner is a tile-border vertex to remove later (``BORDER_VERTEX``).
    The simplification keeps every point where the neighbouring region changes (or,
    without neighbours, the lowest-left and highest-right points), then adds the raw
    point farthest from each wall segment while it is farther than ``max_error``
    (walls only: portals between regions stay straight, so the two sides agree) and
    splits wall segments longer than ``max_edge_len`` at their middle raw point.
    Segments of zero length are dropped. Outlines wind one way, holes the other: each
    hole is joined to its region's outline by the shortest diagonal from one of its
    vertices (the leftmost first) that crosses no contour.

Polygons
    Each contour is ear-clipped (the shortest valid ear first; a looser test where
    the strict one finds none, as Recast), its vertices welded to the mesh's (same
    x and y, heights within 2 cells), and its triangles merged greedily, the pair
    sharing the longest edge first, while the result stays convex and has at most
    ``nvp`` vertices.

Coordinates are the heightfield's cells: contour and polygon vertices are
``(x, h, y)`` (``x`` and ``y`` corners of cells minus the border, ``h`` in cell
heights) and polygons wind clockwise seen from above in (x, y) cell space (Recast's
order); the Python side turns them into world points and counter-clockwise order.
Every entry checks its shapes before it releases the GIL.

One file past the usual length on purpose: the two stages share the integer geometry
below (inlined predicates on cell corners), and Recast keeps them apart only because
its contour and mesh files each repeat that geometry.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memcpy

import numpy as np

cdef int BORDER_REG = 0x8000
cdef int REG_MASK = 0xffff
cdef int BORDER_VERTEX = 0x10000
cdef int AREA_BORDER = 0x20000
cdef int DX[4]
cdef int DY[4]
DX[:] = [-1, 0, 1, 0]
DY[:] = [0, 1, 0, -1]

BORDER_VERTEX_FLAG = 0x10000
AREA_BORDER_FLAG = 0x20000


# ----------------------------------------------------------------------------------
# Integer geometry on points stored 4 ints apart: (x, h, y, flags).

cdef inline int _area2(const int* a, const int* b, const int* c) noexcept nogil:
    return (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2])


cdef inline bint _left(const int* a, const int* b, const int* c) noexcept nogil:
    return _area2(a, b, c) < 0


cdef inline bint _left_on(const int* a, const int* b, const int* c) noexcept nogil:
    return _area2(a, b, c) <= 0


cdef inline bint _collinear(const int* a, const int* b, const int* c) noexcept nogil:
    return _area2(a, b, c) == 0


cdef inline bint _same_xy(const int* a, const int* b) noexcept nogil:
    return a[0] == b[0] and a[2] == b[2]


cdef bint _cross_proper(const int* a, const int* b, const int* c, const int* d) noexcept nogil:
    """Segments ab and cd cross at a point inside both."""
    if _collinear(a, b, c) or _collinear(a, b, d) or _collinear(c, d, a) or _collinear(c, d, b):
        return False
    return (_left(a, b, c) != _left(a, b, d)) and (_left(c, d, a) != _left(c, d, b))


cdef bint _on_segment(const int* a, const int* b, const int* c) noexcept nogil:
    """c is collinear with ab and on the closed segment."""
    if not _collinear(a, b, c):
        return False
    if a[0] != b[0]:
        return (a[0] <= c[0] <= b[0]) or (a[0] >= c[0] >= b[0])
    return (a[2] <= c[2] <= b[2]) or (a[2] >= c[2] >= b[2])


cdef bint _cross(const int* a, const int* b, const int* c, const int* d) noexcept nogil:
    """Segments ab and cd meet, properly or touching."""
    if _cross_proper(a, b, c, d):
        return True
    return (_on_segment(a, b, c) or _on_segment(a, b, d)
            or _on_segment(c, d, a) or _on_segment(c, d, b))


cdef inline int _nxt(int i, int n) noexcept nogil:
    return i + 1 if i + 1 < n else 0


cdef inline int _prv(int i, int n) noexcept nogil:
    return i - 1 if i >= 1 else n - 1


# ----------------------------------------------------------------------------------
# Contours.

cdef struct Chf:
    int width
    int depth
    const int32_t* first
    const int32_t* count
    const int32_t* z
    const int32_t* con      # (n, 4)
    const uint8_t* area
    const uint16_t* reg


cdef int _corner_height(const Chf* c, int i, int d, bint* border_vertex) noexcept nogil:
    """The height of the corner after side ``d`` of span ``i`` (clockwise), the highest
    floor around it; flags a tile-border vertex (two border-region spans on one side of
    it, two interior spans of one area on the other)."""
    cdef int h = c.z[i], dp = (d + 1) & 3, a, a2, j, side, first, second
    cdef unsigned int regs[4]
    cdef unsigned int ra, rb, rc, rd
    regs[0] = c.reg[i] | (<unsigned int> c.area[i] << 16)
    regs[1] = 0
    regs[2] = 0
    regs[3] = 0
    for side in range(2):  # round the corner one way (regs 1, 2), then the other (3, 2)
        first = d if side == 0 else dp
        second = dp if side == 0 else d
        a = c.con[i * 4 + first]
        if a < 0:
            continue
        if c.z[a] > h:
            h = c.z[a]
        regs[1 + 2 * side] = c.reg[a] | (<unsigned int> c.area[a] << 16)
        a2 = c.con[a * 4 + second]
        if a2 >= 0:
            if c.z[a2] > h:
                h = c.z[a2]
            regs[2] = c.reg[a2] | (<unsigned int> c.area[a2] << 16)
    for j in range(4):
        ra = regs[j]
        rb = regs[(j + 1) & 3]
        rc = regs[(j + 2) & 3]
        rd = regs[(j + 3) & 3]
        if ((ra & rb & BORDER_REG) != 0 and ra == rb
                and ((rc | rd) & BORDER_REG) == 0
                and (rc >> 16) == (rd >> 16)
                and ra != 0 and rb != 0 and rc != 0 and rd != 0):
            border_vertex[0] = True
            break
    return h


cdef int _walk(const Chf* c, int x, int y, int i, uint8_t* flags, int* pts,
               int limit) noexcept nogil:
    """Trace the contour through span ``i`` of column (x, y) into ``pts``; the points."""
    cdef int d = 0, start_d, start_i = i, n = 0, px, py, r, a, it, h
    cdef bint bv
    cdef uint8_t area = c.area[i]
    while (flags[i] & (1 << d)) == 0:
        d += 1
    start_d = d
    for it in range(4 * limit):
        if flags[i] & (1 << d):
            bv = False
            h = _corner_height(c, i, d, &bv)
            px = x
            py = y
            if d == 0:
                py += 1
            elif d == 1:
                px += 1
                py += 1
            elif d == 2:
                px += 1
            r = 0
            a = c.con[i * 4 + d]
            if a >= 0:
                r = c.reg[a]
                if c.area[a] != area:
                    r |= AREA_BORDER
            if bv:
                r |= BORDER_VERTEX
            if n < limit:
                pts[n * 4] = px
                pts[n * 4 + 1] = h
                pts[n * 4 + 2] = py
                pts[n * 4 + 3] = r
                n += 1
            flags[i] &= ~(1 << d)
            d = (d + 1) & 3
        else:
            a = c.con[i * 4 + d]
            if a < 0:
                return n
            x += DX[d]
            y += DY[d]
            i = a
            d = (d + 3) & 3
        if i == start_i and d == start_d:
            break
    return n


cdef float _dist_pt_seg(int x, int y, int px, int py, int qx, int qy) noexcept nogil:
    """Squared distance from (x, y) to the segment p-q (float, as Recast)."""
    cdef float pqx = <float> (qx - px), pqy = <float> (qy - py)
    cdef float dx = <float> (x - px), dy = <float> (y - py)
    cdef float d = pqx * pqx + pqy * pqy, t = pqx * dx + pqy * dy
    if d > 0:
        t /= d
    if t < 0:
        t = 0
    elif t > 1:
        t = 1
    dx = px + t * pqx - x
    dy = py + t * pqy - y
    return dx * dx + dy * dy


cdef int _insert_after(int* s, int ns, int i, const int* pts, int pi) noexcept nogil:
    """Insert raw point ``pi`` after simplified point ``i``; the new count."""
    cdef int j, k
    j = ns
    while j > i + 1:
        for k in range(4):
            s[j * 4 + k] = s[(j - 1) * 4 + k]
        j -= 1
    s[(i + 1) * 4] = pts[pi * 4]
    s[(i + 1) * 4 + 1] = pts[pi * 4 + 1]
    s[(i + 1) * 4 + 2] = pts[pi * 4 + 2]
    s[(i + 1) * 4 + 3] = pi
    return ns + 1


cdef int _simplify(const int* pts, int pn, int* s, float max_error,
                   int max_edge_len) noexcept nogil:
    """Simplify the raw contour ``pts`` (``pn`` points) into ``s``; the count. While
    simplifying, ``s[k*4+3]`` is the raw index of the point; at the end it holds the
    flags (region across the following segment, area border, border vertex)."""
    cdef int ns = 0, i, ii, ax, ay, ai, bx, by, bi, ci, cinc, endi, maxi, n, t
    cdef bint connected = False, tess
    cdef float d, maxd
    for i in range(pn):
        if (pts[i * 4 + 3] & REG_MASK) != 0:
            connected = True
            break
    if connected:
        for i in range(pn):
            ii = (i + 1) % pn
            if ((pts[i * 4 + 3] & REG_MASK) != (pts[ii * 4 + 3] & REG_MASK)
                    or (pts[i * 4 + 3] & AREA_BORDER) != (pts[ii * 4 + 3] & AREA_BORDER)):
                s[ns * 4] = pts[i * 4]
                s[ns * 4 + 1] = pts[i * 4 + 1]
                s[ns * 4 + 2] = pts[i * 4 + 2]
                s[ns * 4 + 3] = i
                ns += 1
    if ns == 0:
        # no neighbours: start from the lowest-left and the highest-right points
        ai = 0
        bi = 0
        for i in range(1, pn):
            if pts[i * 4] < pts[ai * 4] or (pts[i * 4] == pts[ai * 4] and pts[i * 4 + 2] < pts[ai * 4 + 2]):
                ai = i
            if pts[i * 4] > pts[bi * 4] or (pts[i * 4] == pts[bi * 4] and pts[i * 4 + 2] > pts[bi * 4 + 2]):
                bi = i
        for t in range(2):
            i = ai if t == 0 else bi
            s[ns * 4] = pts[i * 4]
            s[ns * 4 + 1] = pts[i * 4 + 1]
            s[ns * 4 + 2] = pts[i * 4 + 2]
            s[ns * 4 + 3] = i
            ns += 1
    # add the farthest raw point while it is beyond the error
    i = 0
    while i < ns:
        ii = (i + 1) % ns
        ax = s[i * 4]
        ay = s[i * 4 + 2]
        ai = s[i * 4 + 3]
        bx = s[ii * 4]
        by = s[ii * 4 + 2]
        bi = s[ii * 4 + 3]
        maxd = 0
        maxi = -1
        # walk the raw points in a fixed (lexicographic) direction so that the two
        # sides of a shared segment pick the same point
        if bx > ax or (bx == ax and by > ay):
            cinc = 1
            ci = (ai + 1) % pn
            endi = bi
        else:
            cinc = pn - 1
            ci = (bi + cinc) % pn
            endi = ai
            ax, bx = bx, ax
            ay, by = by, ay
        if (pts[ci * 4 + 3] & REG_MASK) == 0 or (pts[ci * 4 + 3] & AREA_BORDER):
            while ci != endi:
                d = _dist_pt_seg(pts[ci * 4], pts[ci * 4 + 2], ax, ay, bx, by)
                if d > maxd:
                    maxd = d
                    maxi = ci
                ci = (ci + cinc) % pn
        if maxi != -1 and maxd > max_error * max_error:
            ns = _insert_after(s, ns, i, pts, maxi)
        else:
            i += 1
    # split wall segments longer than max_edge_len
    if max_edge_len > 0:
        i = 0
        while i < ns:
            ii = (i + 1) % ns
            ax = s[i * 4]
            ay = s[i * 4 + 2]
            ai = s[i * 4 + 3]
            bx = s[ii * 4]
            by = s[ii * 4 + 2]
            bi = s[ii * 4 + 3]
            maxi = -1
            ci = (ai + 1) % pn
            tess = (pts[ci * 4 + 3] & REG_MASK) == 0
            if tess and (bx - ax) * (bx - ax) + (by - ay) * (by - ay) > max_edge_len * max_edge_len:
                n = (bi + pn - ai) if bi < ai else (bi - ai)
                if n > 1:
                    if bx > ax or (bx == ax and by > ay):
                        maxi = (ai + n // 2) % pn
                    else:
                        maxi = (ai + (n + 1) // 2) % pn
            if maxi != -1:
                ns = _insert_after(s, ns, i, pts, maxi)
            else:
                i += 1
    for i in range(ns):
        ai = (s[i * 4 + 3] + 1) % pn
        bi = s[i * 4 + 3]
        s[i * 4 + 3] = ((pts[ai * 4 + 3] & (REG_MASK | AREA_BORDER))
                        | (pts[bi * 4 + 3] & BORDER_VERTEX))
    return ns


cdef int _drop_degenerate(int* s, int ns) noexcept nogil:
    """Remove points equal (in x, y) to the next one; the new count."""
    cdef int i = 0, j, k
    while i < ns:
        if _same_xy(&s[i * 4], &s[_nxt(i, ns) * 4]):
            for j in range(i, ns - 1):
                for k in range(4):
                    s[j * 4 + k] = s[(j + 1) * 4 + k]
            ns -= 1
        i += 1
    return ns


cdef int _signed_area(const int* v, int n) noexcept nogil:
    """Twice the signed area, positive for outlines (Recast's orientation)."""
    cdef int a = 0, i, j = n - 1
    for i in range(n):
        a += v[i * 4] * v[j * 4 + 2] - v[j * 4] * v[i * 4 + 2]
        j = i
    return (a + 1) // 2


cdef bint _in_cone_ring(int i, int n, const int* v, const int* pj) noexcept nogil:
    """The diagonal from vertex ``i`` of the ring ``v`` to point ``pj`` starts inside
    the ring's angle at ``i``."""
    cdef const int* pi = &v[i * 4]
    cdef const int* pi1 = &v[_nxt(i, n) * 4]
    cdef const int* pin1 = &v[_prv(i, n) * 4]
    if _left_on(pin1, pi, pi1):
        return _left(pi, pj, pin1) and _left(pj, pi, pi1)
    return not (_left_on(pi, pj, pi1) and _left_on(pj, pi, pin1))


cdef bint _seg_hits_ring(const int* d0, const int* d1, int skip, int n,
                         const int* v) noexcept nogil:
    """Segment d0-d1 meets a side of the ring ``v`` (sides at vertex ``skip`` and
    sides touching d0 or d1 aside)."""
    cdef int k, k1
    for k in range(n):
        k1 = _nxt(k, n)
        if skip == k or skip == k1:
            continue
        if (_same_xy(d0, &v[k * 4]) or _same_xy(d1, &v[k * 4])
                or _same_xy(d0, &v[k1 * 4]) or _same_xy(d1, &v[k1 * 4])):
            continue
        if _cross(d0, d1, &v[k * 4], &v[k1 * 4]):
            return True
    return False


cdef struct Keyed:
    int key0
    int key1
    int value


cdef int _cmp_keyed(const void* a, const void* b) noexcept nogil:
    cdef const Keyed* x = <const Keyed*> a
    cdef const Keyed* y = <const Keyed*> b
    if x.key0 != y.key0:
        return -1 if x.key0 < y.key0 else 1
    if x.key1 != y.key1:
        return -1 if x.key1 < y.key1 else 1
    return 0


def build_contours(
    int width, int depth, int border,
    const int32_t[::1] cell_first not None,
    const int32_t[::1] cell_count not None,
    const int32_t[::1] z not None,
    const int32_t[:, ::1] con not None,
    const uint8_t[::1] area not None,
    const uint16_t[::1] region not None,
    float max_error, int max_edge_len,
):
    """Region contours of a compact heightfield (Recast's ``rcBuildContours``).

    Returns
    -------
    (verts, start, count, reg, area, raw, raw_start, raw_count)
        ``verts`` int32 (k, 4): simplified points ``(x, h, y, flags)`` with holes merged
        into their outlines; contour ``c`` is ``verts[start[c]:start[c] + count[c]]``
        (count 0: a hole merged away); ``raw`` the same for the raw points (holes kept
        apart). ``x``, ``y`` are cell corners minus ``border``.
    """
    cdef Py_ssize_t n = z.shape[0], ncell = <Py_ssize_t> width * depth
    if width < 0 or depth < 0 or cell_first.shape[0] != ncell or cell_count.shape[0] != ncell:
        raise ValueError("cell_first and cell_count must have width * depth entries")
    if con.shape[0] != n or con.shape[1] != 4 or area.shape[0] != n or region.shape[0] != n:
        raise ValueError("con, area and region must have one row per span")
    cdef Chf c
    c.width = width
    c.depth = depth
    c.first = &cell_first[0] if ncell else NULL
    c.count = &cell_count[0] if ncell else NULL
    c.z = &z[0] if n else NULL
    c.con = &con[0, 0] if n else NULL
    c.area = &area[0] if n else NULL
    c.reg = &region[0] if n else NULL
    flags_a = np.zeros(max(n, 1), dtype=np.uint8)
    cdef uint8_t[::1] flags = flags_a
    cdef Py_ssize_t limit = 4 * n + 8
    raw_a = np.empty(max(limit, 1) * 4, dtype=np.int32)
    cdef int[::1] raw = raw_a
    buf_a = np.empty(limit * 4 + 16, dtype=np.int32)
    cdef int[::1] buf = buf_a
    simp_a = np.empty((limit + 16) * 4, dtype=np.int32)
    cdef int[::1] simp = simp_a
    cdef int x, y, i, d, a, r, npts, ns, nraw = 0, nsimp = 0, nc = 0
    cstart_l = []
    ccount_l = []
    rstart_l = []
    rcount_l = []
    creg_l = []
    carea_l = []
    for i in range(n):
        r = region[i]
        if r == 0 or (r & BORDER_REG):
            continue
        flags[i] = 0
        for d in range(4):
            a = con[i, d]
            if a < 0 or region[a] != r:
                flags[i] |= 1 << d
    for y in range(depth):
        for x in range(width):
            for i in range(cell_first[x + y * width], cell_first[x + y * width] + cell_count[x + y * width]):
                if flags[i] == 0 or flags[i] == 0xF:
                    flags[i] = 0
                    continue
                r = region[i]
                if r == 0 or (r & BORDER_REG):
                    continue
                with nogil:
                    npts = _walk(&c, x, y, i, &flags[0], &buf[0], <int> limit)
                    ns = _simplify(&buf[0], npts, &simp[nsimp * 4], max_error, max_edge_len)
                    ns = _drop_degenerate(&simp[nsimp * 4], ns)
                if ns < 3:
                    continue
                raw[nraw * 4:(nraw + npts) * 4] = buf[:npts * 4]
                for a in range(nsimp, nsimp + ns):
                    simp[a * 4] -= border
                    simp[a * 4 + 2] -= border
                for a in range(nraw, nraw + npts):
                    raw[a * 4] -= border
                    raw[a * 4 + 2] -= border
                cstart_l.append(nsimp)
                ccount_l.append(ns)
                rstart_l.append(nraw)
                rcount_l.append(npts)
                creg_l.append(r)
                carea_l.append(area[i])
                nsimp += ns
                nraw += npts
                nc += 1
    verts = simp_a[:nsimp * 4].reshape(-1, 4).copy()
    cstart = np.asarray(cstart_l, dtype=np.int32)
    ccount = np.asarray(ccount_l, dtype=np.int32)
    creg = np.asarray(creg_l, dtype=np.int32)
    verts, cstart, ccount = _merge_holes(verts, cstart, ccount, creg)
    return (verts, cstart, ccount, creg, np.asarray(carea_l, dtype=np.uint8),
            raw_a[:nraw * 4].reshape(-1, 4).copy(), np.asarray(rstart_l, dtype=np.int32),
            np.asarray(rcount_l, dtype=np.int32))


cdef int _leftmost(const int* v, int n) noexcept nogil:
    cdef int i, best = 0
    for i in range(1, n):
        if v[i * 4] < v[best * 4] or (v[i * 4] == v[best * 4] and v[i * 4 + 2] < v[best * 4 + 2]):
            best = i
    return best


def _merge_holes(verts, cstart, ccount, creg):
    """Join every hole (negative winding) to its region's outline; the contours as
    (verts, start, count), holes left with count 0."""
    cdef int nc = cstart.shape[0], k, h, it, j, nd, index, best, no, nh, q
    cdef int[:, ::1] v = verts
    windings = np.empty(nc, dtype=np.int32)
    for k in range(nc):
        windings[k] = -1 if _signed_area(&v[cstart[k], 0], ccount[k]) < 0 else 1
    if not (windings < 0).any():
        return verts, cstart, ccount
    outline = {}
    holes: dict[int, list[int]] = {}
    for k in range(nc):
        if windings[k] > 0:
            outline[int(creg[k])] = k
        else:
            holes.setdefault(int(creg[k]), []).append(k)
    # contours become Python-held int32 arrays while merging
    rings = [verts[cstart[k]:cstart[k] + ccount[k]].copy() for k in range(nc)]
    cdef int[:, ::1] o
    cdef int[:, ::1] hv
    cdef int[:, ::1] other
    cdef Keyed* diags
    cdef int dx, dy
    for reg, hs in holes.items():
        if reg not in outline:
            continue  # no outline (over-simplified): the holes stay out, as Recast
        oi = outline[reg]
        # holes from the leftmost (lowest x, then y)
        keys = []
        for h in hs:
            hv = rings[h]
            j = _leftmost(&hv[0, 0], hv.shape[0])
            keys.append((hv[j, 0], hv[j, 2], h, j))
        keys.sort()
        for t, (_, _, h, j) in enumerate(keys):
            hv = rings[h]
            nh = hv.shape[0]
            best = j
            index = -1
            for it in range(nh):
                o = rings[oi]
                no = o.shape[0]
                diags = <Keyed*> malloc(max(no, 1) * sizeof(Keyed))
                nd = 0
                for q in range(no):
                    if _in_cone_ring(q, no, &o[0, 0], &hv[best, 0]):
                        dx = o[q, 0] - hv[best, 0]
                        dy = o[q, 2] - hv[best, 2]
                        diags[nd].key0 = dx * dx + dy * dy
                        diags[nd].key1 = q
                        diags[nd].value = q
                        nd += 1
                qsort(diags, nd, sizeof(Keyed), _cmp_keyed)
                for q in range(nd):
                    hit = _seg_hits_ring(&o[diags[q].value, 0], &hv[best, 0], diags[q].value, no, &o[0, 0])
                    for _, _, h2, _ in keys[t:]:
                        if hit:
                            break
                        other = rings[h2]
                        hit = _seg_hits_ring(&o[diags[q].value, 0], &hv[best, 0], -1, other.shape[0], &other[0, 0])
                    if not hit:
                        index = diags[q].value
                        break
                free(diags)
                if index != -1:
                    break
                best = (best + 1) % nh
            if index == -1:
                continue
            ring = rings[oi]
            hole = rings[h]
            a_part = np.roll(ring, -index, axis=0)
            b_part = np.roll(hole, -best, axis=0)
            rings[oi] = np.concatenate([a_part, a_part[:1], b_part, b_part[:1]])
            rings[h] = np.empty((0, 4), dtype=np.int32)
    counts = np.array([r.shape[0] for r in rings], dtype=np.int32)
    starts = np.zeros(nc, dtype=np.int32)
    if nc > 1:
        starts[1:] = np.cumsum(counts)[:-1]
    return np.concatenate(rings).astype(np.int32), starts, counts


# ----------------------------------------------------------------------------------
# Polygons.

cdef bint _diag_clear(int i, int j, int n, const int* v, const int* idx,
                      bint loose) noexcept nogil:
    """The diagonal (i, j) of the ring ``idx`` over ``v`` crosses none of its sides."""
    cdef const int* d0 = &v[idx[i] * 4]
    cdef const int* d1 = &v[idx[j] * 4]
    cdef const int* p0
    cdef const int* p1
    cdef int k, k1
    for k in range(n):
        k1 = _nxt(k, n)
        if k == i or k1 == i or k == j or k1 == j:
            continue
        p0 = &v[idx[k] * 4]
        p1 = &v[idx[k1] * 4]
        if _same_xy(d0, p0) or _same_xy(d1, p0) or _same_xy(d0, p1) or _same_xy(d1, p1):
            continue
        if loose:
            if _cross_proper(d0, d1, p0, p1):
                return False
        elif _cross(d0, d1, p0, p1):
            return False
    return True


cdef bint _in_cone(int i, int j, int n, const int* v, const int* idx,
                   bint loose) noexcept nogil:
    cdef const int* pi = &v[idx[i] * 4]
    cdef const int* pj = &v[idx[j] * 4]
    cdef const int* pi1 = &v[idx[_nxt(i, n)] * 4]
    cdef const int* pin1 = &v[idx[_prv(i, n)] * 4]
    if _left_on(pin1, pi, pi1):
        if loose:
            return _left_on(pi, pj, pin1) and _left_on(pj, pi, pi1)
        return _left(pi, pj, pin1) and _left(pj, pi, pi1)
    return not (_left_on(pi, pj, pi1) and _left_on(pj, pi, pin1))


cdef inline bint _diagonal(int i, int j, int n, const int* v, const int* idx,
                           bint loose) noexcept nogil:
    return _in_cone(i, j, n, v, idx, loose) and _diag_clear(i, j, n, v, idx, loose)


cdef int _triangulate(int n, const int* v, int* idx, uint8_t* ear, int* tris) noexcept nogil:
    """Ear-clip the ring ``idx`` (n indices into ``v``); the triangles written (negative
    when the ring could not be finished)."""
    cdef int nt = 0, i, i1, i2, k, best, bestlen, dx, dy, ln
    cdef const int* p0
    cdef const int* p2
    for i in range(n):
        ear[_nxt(i, n)] = _diagonal(i, _nxt(_nxt(i, n), n), n, v, idx, False)
    while n > 3:
        best = -1
        bestlen = -1
        for i in range(n):
            i1 = _nxt(i, n)
            if ear[i1]:
                p0 = &v[idx[i] * 4]
                p2 = &v[idx[_nxt(i1, n)] * 4]
                dx = p2[0] - p0[0]
                dy = p2[2] - p0[2]
                ln = dx * dx + dy * dy
                if bestlen < 0 or ln < bestlen:
                    bestlen = ln
                    best = i
        if best == -1:
            # overlapping sides: a looser test (Recast's recovery)
            for i in range(n):
                i1 = _nxt(i, n)
                i2 = _nxt(i1, n)
                if _diagonal(i, i2, n, v, idx, True):
                    p0 = &v[idx[i] * 4]
                    p2 = &v[idx[_nxt(i2, n)] * 4]
                    dx = p2[0] - p0[0]
                    dy = p2[2] - p0[2]
                    ln = dx * dx + dy * dy
                    if bestlen < 0 or ln < bestlen:
                        bestlen = ln
                        best = i
            if best == -1:
                return -nt
        i = best
        i1 = _nxt(i, n)
        i2 = _nxt(i1, n)
        tris[nt * 3] = idx[i]
        tris[nt * 3 + 1] = idx[i1]
        tris[nt * 3 + 2] = idx[i2]
        nt += 1
        n -= 1
        for k in range(i1, n):
            idx[k] = idx[k + 1]
            ear[k] = ear[k + 1]
        if i1 >= n:
            i1 = 0
        i = _prv(i1, n)
        ear[i] = _diagonal(_prv(i, n), i1, n, v, idx, False)
        ear[i1] = _diagonal(i, _nxt(i1, n), n, v, idx, False)
    tris[nt * 3] = idx[0]
    tris[nt * 3 + 1] = idx[1]
    tris[nt * 3 + 2] = idx[2]
    return nt + 1


cdef int BUCKETS = 1 << 12


cdef inline int _bucket(int x, int y) noexcept nogil:
    cdef unsigned int h = <unsigned int> 0x8da6b343 * <unsigned int> x + <unsigned int> 0xcb1ab31f * <unsigned int> y
    return <int> (h & <unsigned int> (BUCKETS - 1))


cdef int _weld(int x, int h, int y, int* mv, int* first, int* nxt, int* nv) noexcept nogil:
    """The mesh vertex at (x, y) with a height within 2 of ``h``, added if new."""
    cdef int b = _bucket(x, y), i = first[b], dh
    while i != -1:
        dh = mv[i * 3 + 1] - h
        if mv[i * 3] == x and mv[i * 3 + 2] == y and -2 <= dh <= 2:
            return i
        i = nxt[i]
    i = nv[0]
    nv[0] += 1
    mv[i * 3] = x
    mv[i * 3 + 1] = h
    mv[i * 3 + 2] = y
    nxt[i] = first[b]
    first[b] = i
    return i


cdef inline int _count(const int* p, int nvp) noexcept nogil:
    cdef int i
    for i in range(nvp):
        if p[i] < 0:
            return i
    return nvp


cdef inline bint _uleft(const int* a, const int* b, const int* c) noexcept nogil:
    return (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]) < 0


cdef int _merge_value(const int* pa, const int* pb, const int* mv, int* ea, int* eb,
                      int nvp) noexcept nogil:
    """The squared length of the edge pa and pb share when their union is convex and
    small enough, else -1 (``ea``, ``eb``: the edge's place in each)."""
    cdef int na = _count(pa, nvp), nb = _count(pb, nvp), i, j, a0, a1, b0, b1, t
    if na + nb - 2 > nvp:
        return -1
    ea[0] = -1
    eb[0] = -1
    for i in range(na):
        a0 = pa[i]
        a1 = pa[(i + 1) % na]
        if a0 > a1:
            t = a0; a0 = a1; a1 = t
        for j in range(nb):
            b0 = pb[j]
            b1 = pb[(j + 1) % nb]
            if b0 > b1:
                t = b0; b0 = b1; b1 = t
            if a0 == b0 and a1 == b1:
                ea[0] = i
                eb[0] = j
                break
    if ea[0] == -1 or eb[0] == -1:
        return -1
    if not _uleft(&mv[pa[(ea[0] + na - 1) % na] * 3], &mv[pa[ea[0]] * 3], &mv[pb[(eb[0] + 2) % nb] * 3]):
        return -1
    if not _uleft(&mv[pb[(eb[0] + nb - 1) % nb] * 3], &mv[pb[eb[0]] * 3], &mv[pa[(ea[0] + 2) % na] * 3]):
        return -1
    a0 = pa[ea[0]]
    a1 = pa[(ea[0] + 1) % na]
    i = mv[a0 * 3] - mv[a1 * 3]
    j = mv[a0 * 3 + 2] - mv[a1 * 3 + 2]
    return i * i + j * j


cdef void _merge_into(int* pa, const int* pb, int ea, int eb, int* tmp, int nvp) noexcept nogil:
    cdef int na = _count(pa, nvp), nb = _count(pb, nvp), i, n = 0
    for i in range(nvp):
        tmp[i] = -1
    for i in range(na - 1):
        tmp[n] = pa[(ea + 1 + i) % na]
        n += 1
    for i in range(nb - 1):
        tmp[n] = pb[(eb + 1 + i) % nb]
        n += 1
    memcpy(pa, tmp, nvp * sizeof(int))


def build_polygons(
    const int32_t[:, ::1] verts not None,
    const int32_t[::1] start not None,
    const int32_t[::1] count not None,
    const uint8_t[::1] areas not None,
    int nvp,
):
    """Convex polygons of the contours (Recast's ``rcBuildPolyMesh``; the removal of
    the tile-border vertices it flags is ``navmesh3d._polybuild``'s).

    Returns
    -------
    (mesh_verts, polys, poly_area, poly_contour, border_vertex, failed)
        ``mesh_verts`` int32 (v, 3) ``(x, h, y)``; ``polys`` int32 (m, nvp) padded with
        -1, clockwise in (x, y); ``border_vertex`` uint8 (v,) marks tile-border vertices;
        ``failed`` the contours whose triangulation could not be finished.
    """
    cdef int nc = start.shape[0], k, j, cn, nt, npl, nmv = 0, best, bpa, bpb, bea, beb
    cdef int ea, eb, val, q, total = 0, maxn = 0, tri_total = 0
    if count.shape[0] != nc or areas.shape[0] != nc or verts.shape[1] != 4:
        raise ValueError("start, count and areas must have one entry per contour")
    if not 3 <= nvp <= 6:
        raise ValueError(f"nvp must be 3..6, got {nvp}")
    for k in range(nc):
        if count[k] < 0 or start[k] < 0 or start[k] + count[k] > verts.shape[0]:
            raise ValueError(f"contour {k} is out of the vertex array")
        total += count[k]
        if count[k] >= 3:
            tri_total += count[k] - 2
        if count[k] > maxn:
            maxn = count[k]
    mv_a = np.zeros((max(total, 1), 3), dtype=np.int32)
    cdef int[:, ::1] mv = mv_a
    bflag_a = np.zeros(max(total, 1), dtype=np.uint8)
    cdef uint8_t[::1] bflag = bflag_a
    first_a = np.full(BUCKETS, -1, dtype=np.int32)
    cdef int[::1] first = first_a
    nxt_a = np.full(max(total, 1), -1, dtype=np.int32)
    cdef int[::1] nxt = nxt_a
    polys_a = np.full((max(tri_total, 1), nvp), -1, dtype=np.int32)
    cdef int[:, ::1] polys = polys_a
    parea_a = np.zeros(max(tri_total, 1), dtype=np.uint8)
    pcont_a = np.zeros(max(tri_total, 1), dtype=np.int32)
    cdef uint8_t[::1] parea = parea_a
    cdef int[::1] pcont = pcont_a
    idx_a = np.zeros(maxn + 1, dtype=np.int32)
    cdef int[::1] idx = idx_a
    ear_a = np.zeros(maxn + 1, dtype=np.uint8)
    cdef uint8_t[::1] ear = ear_a
    tris_a = np.zeros((maxn + 1) * 3, dtype=np.int32)
    cdef int[::1] tris = tris_a
    local_a = np.full(((maxn + 1), nvp), -1, dtype=np.int32)
    cdef int[:, ::1] local = local_a
    tmp_a = np.full(nvp, -1, dtype=np.int32)
    cdef int[::1] tmp = tmp_a
    wid_a = np.zeros(maxn + 1, dtype=np.int32)
    cdef int[::1] wid = wid_a
    cdef int npolys = 0
    failed = []
    cdef const int* cv
    for k in range(nc):
        cn = count[k]
        if cn < 3:
            continue
        cv = <const int*> &verts[start[k], 0]
        with nogil:
            for j in range(cn):
                idx[j] = j
            nt = _triangulate(cn, cv, &idx[0], &ear[0], &tris[0])
        if nt <= 0:
            failed.append(k)
            nt = -nt
        with nogil:
            for j in range(cn):
                wid[j] = _weld(cv[j * 4], cv[j * 4 + 1], cv[j * 4 + 2], &mv[0, 0], &first[0], &nxt[0], &nmv)
                if cv[j * 4 + 3] & BORDER_VERTEX:
                    bflag[wid[j]] = 1
            npl = 0
            for j in range(nt):
                if tris[j * 3] != tris[j * 3 + 1] and tris[j * 3] != tris[j * 3 + 2] and tris[j * 3 + 1] != tris[j * 3 + 2]:
                    for q in range(nvp):
                        local[npl, q] = -1
                    local[npl, 0] = wid[tris[j * 3]]
                    local[npl, 1] = wid[tris[j * 3 + 1]]
                    local[npl, 2] = wid[tris[j * 3 + 2]]
                    npl += 1
            if nvp > 3:
                while True:
                    best = 0
                    bpa = bpb = bea = beb = 0
                    for j in range(npl - 1):
                        for q in range(j + 1, npl):
                            val = _merge_value(&local[j, 0], &local[q, 0], &mv[0, 0], &ea, &eb, nvp)
                            if val > best:
                                best = val
                                bpa = j
                                bpb = q
                                bea = ea
                                beb = eb
                    if best <= 0:
                        break
                    _merge_into(&local[bpa, 0], &local[bpb, 0], bea, beb, &tmp[0], nvp)
                    if bpb != npl - 1:
                        memcpy(&local[bpb, 0], &local[npl - 1, 0], nvp * sizeof(int))
                    npl -= 1
            for j in range(npl):
                memcpy(&polys[npolys, 0], &local[j, 0], nvp * sizeof(int))
                parea[npolys] = areas[k]
                pcont[npolys] = k
                npolys += 1
    return (mv_a[:nmv].copy(), polys_a[:npolys].copy(), parea_a[:npolys].copy(),
            pcont_a[:npolys].copy(), bflag_a[:nmv].copy(), failed)
