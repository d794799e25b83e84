# cython: language_level=3
"""Compiled stages of Recast's first half: triangles to a compact heightfield with regions.

The algorithms are Recast's (recastnavigation, zlib licence), rewritten over flat
arrays. Positions are ``(x, y, z)`` with z up: Recast's y (up) is our z and Recast's z
(rows) is our y, in the frame the build hands the kernels (the level mirrored, as
``pathcraft.navmesh3d._frame`` tells). Columns are ``c = x + y * width``.

The solid heightfield (Recast's ``rcHeightfield``) is returned as flat arrays: each
column's spans are contiguous, bottom to top (``col_first``, ``col_count``, ``smin``,
``smax``, ``area``), so a span's next one up is the next index within its column.
The compact heightfield links each span to its neighbour's *absolute* span index in
``con[i, dir]`` (-1: none), directions ``(dx, dy)`` = (-1, 0), (0, 1), (1, 0), (0, -1);
as each column's spans are contiguous and columns run in scan order, a scan over
``i`` ascending is Recast's ``for y: for x: for span`` scan.

Every function is called by :mod:`pathcraft.navmesh3d._heightfield` after it checked
shapes, dtypes and indices; the loops run with the GIL released.
"""

from libc.math cimport ceil, ceilf, floor, floorf, sqrt, cos, cosf, sqrtf, M_PI
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

cdef enum:
    SPAN_MAX_HEIGHT = 8191  # Recast's RC_SPAN_MAX_HEIGHT, cells of ch
    OPEN_TOP = 0xFFFF  # the open top of a column (Recast's MAX_HEIGHTFIELD_HEIGHT)
    BORDER_REG = 0x8000  # Recast's RC_BORDER_REG
    NULL_AREA = 0
    WALKABLE_AREA = 63

cdef int DX[4]
cdef int DY[4]
DX[:] = [-1, 0, 1, 0]
DY[:] = [0, 1, 0, -1]


# ----------------------------------------------------------------------------------
# Walkable triangles

def mark_walkable(const double[:, ::1] verts, const int32_t[:, ::1] tris,
                  double slope_degrees, uint8_t[::1] areas):
    """``areas[t]`` = WALKABLE_AREA where triangle t's normal is within the slope, else
    NULL_AREA (Recast's ``rcMarkWalkableTriangles``).

    ``verts`` is the level in Recast's frame as the build hands it over (mirrored:
    ``(x, y, z)`` is Recast's ``(X, Z, Y)``, z up), the triangles' corners in the
    caller's order: the top is the side they turn counter-clockwise from in the
    caller's frame, clockwise in this one, as in Recast's. In single precision and in
    Recast's order of operations (``calcTriNormal``: the cross product of the same
    edges, the squares summed X, Y (up), Z, scaled by the reciprocal of their root; the
    threshold ``cosf`` of the angle), so that a triangle at the limit (a 45-degree
    ramp) is walkable exactly where Recast keeps it."""
    cdef Py_ssize_t t, n = tris.shape[0]
    cdef float angle = <float>slope_degrees
    cdef float half_turn = 180.0
    cdef float pi = 3.14159265  # Recast's RC_PI, a float
    cdef float thr
    cdef float e0[3]
    cdef float e1[3]
    cdef float n0, n1, n2, d, one = 1
    cdef int32_t a, b, c
    angle = angle / half_turn
    thr = cosf(angle * pi)
    with nogil:
        for t in range(n):
            a = tris[t, 0]
            b = tris[t, 1]
            c = tris[t, 2]
            e0[0] = <float>verts[b, 0] - <float>verts[a, 0]
            e0[1] = <float>verts[b, 1] - <float>verts[a, 1]
            e0[2] = <float>verts[b, 2] - <float>verts[a, 2]
            e1[0] = <float>verts[c, 0] - <float>verts[a, 0]
            e1[1] = <float>verts[c, 1] - <float>verts[a, 1]
            e1[2] = <float>verts[c, 2] - <float>verts[a, 2]
            # Recast's normal (X, Y, Z) from our (x, y, z) = its (X, Z, Y)
            n0 = e0[2] * e1[1] - e0[1] * e1[2]
            n1 = e0[1] * e1[0] - e0[0] * e1[1]
            n2 = e0[0] * e1[2] - e0[2] * e1[0]
            d = sqrtf(n0 * n0 + n1 * n1 + n2 * n2)
            if d > 0:
                d = one / d  # a float division, as Recast's 1.0f / sqrtf
            if d > 0 and n1 * d > thr:
                areas[t] = WALKABLE_AREA
            else:
                areas[t] = NULL_AREA


# ----------------------------------------------------------------------------------
# Rasterisation into a heightfield of linked spans (a growable pool)

cdef struct Pool:
    int32_t* smin
    int32_t* smax
    uint8_t* area
    int32_t* nxt
    int32_t* heads
    Py_ssize_t cap
    Py_ssize_t used
    int32_t free_head


cdef int pool_init(Pool* p, Py_ssize_t columns, Py_ssize_t cap) noexcept nogil:
    cdef Py_ssize_t c
    p.cap = cap
    p.used = 0
    p.free_head = -1
    p.smin = <int32_t*>malloc(cap * sizeof(int32_t))
    p.smax = <int32_t*>malloc(cap * sizeof(int32_t))
    p.area = <uint8_t*>malloc(cap * sizeof(uint8_t))
    p.nxt = <int32_t*>malloc(cap * sizeof(int32_t))
    p.heads = <int32_t*>malloc((columns if columns > 0 else 1) * sizeof(int32_t))
    if not (p.smin and p.smax and p.area and p.nxt and p.heads):
        return -1
    for c in range(columns):
        p.heads[c] = -1
    return 0


cdef void pool_free(Pool* p) noexcept nogil:
    free(p.smin)
    free(p.smax)
    free(p.area)
    free(p.nxt)
    free(p.heads)


cdef int32_t pool_alloc(Pool* p) noexcept nogil:
    cdef int32_t s
    cdef Py_ssize_t cap
    cdef void* q
    if p.free_head >= 0:
        s = p.free_head
        p.free_head = p.nxt[s]
        return s
    if p.used == p.cap:
        cap = p.cap * 2
        q = realloc(p.smin, cap * sizeof(int32_t))
        if not q:
            return -1
        p.smin = <int32_t*>q
        q = realloc(p.smax, cap * sizeof(int32_t))
        if not q:
            return -1
        p.smax = <int32_t*>q
        q = realloc(p.area, cap * sizeof(uint8_t))
        if not q:
            return -1
        p.area = <uint8_t*>q
        q = realloc(p.nxt, cap * sizeof(int32_t))
        if not q:
            return -1
        p.nxt = <int32_t*>q
        p.cap = cap
    s = <int32_t>p.used
    p.used += 1
    return s


cdef int add_span(Pool* p, Py_ssize_t col, int32_t smin, int32_t smax, uint8_t area,
                  int thr) noexcept nogil:
    """Recast's addSpan: insert a solid span, merging those it overlaps (the merged
    span keeps the larger area when the tops are within ``thr``)."""
    cdef int32_t s = pool_alloc(p)
    cdef int32_t prev = -1, cur, nxt, d
    if s < 0:
        return -1
    cur = p.heads[col]
    while cur != -1:
        if p.smin[cur] > smax:
            break
        if p.smax[cur] < smin:
            prev = cur
            cur = p.nxt[cur]
            continue
        if p.smin[cur] < smin:
            smin = p.smin[cur]
        if p.smax[cur] > smax:
            smax = p.smax[cur]
        d = smax - p.smax[cur]
        if -thr <= d <= thr and p.area[cur] > area:
            area = p.area[cur]
        nxt = p.nxt[cur]
        p.nxt[cur] = p.free_head
        p.free_head = cur
        if prev >= 0:
            p.nxt[prev] = nxt
        else:
            p.heads[col] = nxt
        cur = nxt
    p.smin[s] = smin
    p.smax[s] = smax
    p.area[s] = area
    if prev >= 0:
        p.nxt[s] = p.nxt[prev]
        p.nxt[prev] = s
    else:
        p.nxt[s] = p.heads[col]
        p.heads[col] = s
    return 0


cdef void divide_poly(const float* src, int n, float* out1, int* n1, float* out2,
                      int* n2, float offset, int axis) noexcept nogil:
    """Split a convex polygon by the line ``axis = offset``: ``out1`` the part below
    (coordinate <= offset), ``out2`` the part above (Recast's dividePoly, in single
    precision as Recast's)."""
    cdef float delta[12]
    cdef int i, j, k1 = 0, k2 = 0, c
    cdef float s
    for i in range(n):
        delta[i] = offset - src[i * 3 + axis]
    j = n - 1
    for i in range(n):
        if (delta[i] >= 0) != (delta[j] >= 0):
            s = delta[j] / (delta[j] - delta[i])
            for c in range(3):
                out1[k1 * 3 + c] = src[j * 3 + c] + (src[i * 3 + c] - src[j * 3 + c]) * s
                out2[k2 * 3 + c] = out1[k1 * 3 + c]
            k1 += 1
            k2 += 1
            if delta[i] > 0:
                for c in range(3):
                    out1[k1 * 3 + c] = src[i * 3 + c]
                k1 += 1
            elif delta[i] < 0:
                for c in range(3):
                    out2[k2 * 3 + c] = src[i * 3 + c]
                k2 += 1
        else:
            if delta[i] >= 0:
                for c in range(3):
                    out1[k1 * 3 + c] = src[i * 3 + c]
                k1 += 1
                if delta[i] != 0:
                    j = i
                    continue
            for c in range(3):
                out2[k2 * 3 + c] = src[i * 3 + c]
            k2 += 1
        j = i
    n1[0] = k1
    n2[0] = k2


cdef inline int clampi(int v, int lo, int hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)


cdef inline void extent(const float* poly, int n, int axis, float* lo,
                        float* hi) noexcept nogil:
    """The smallest and largest coordinate ``axis`` of a polygon's ``n`` points."""
    cdef int k
    lo[0] = poly[axis]
    hi[0] = poly[axis]
    for k in range(1, n):
        if poly[k * 3 + axis] < lo[0]:
            lo[0] = poly[k * 3 + axis]
        if poly[k * 3 + axis] > hi[0]:
            hi[0] = poly[k * 3 + axis]


cdef int rasterize_tri(const float* v0, const float* v1, const float* v2, uint8_t area,
                       Pool* p, const float* bmin, const float* bmax, float cs,
                       float ics, float ich, int w, int d, int thr) noexcept nogil:
    """Recast's ``rasterizeTri``, in single precision and in its order of operations
    (``ics`` and ``ich`` are ``1 / cs`` and ``1 / ch`` in float, as Recast's), so that a
    face on a cell boundary falls where it falls in Recast."""
    cdef float tmin[3]
    cdef float tmax[3]
    cdef float buf[7 * 3 * 4]
    cdef float* poly = buf
    cdef float* row = buf + 21
    cdef float* p1 = buf + 42
    cdef float* p2 = buf + 63
    cdef float* tmp
    cdef int c, y, x, y0, y1, x0, x1, nv_poly = 3, nv_row, nv, nv2
    cdef float by = bmax[2] - bmin[2], min_x, max_x, lo, hi, cell
    cdef float zero = 0
    cdef int ilo, ihi
    for c in range(3):
        tmin[c] = v0[c] if v0[c] < v1[c] else v1[c]
        if v2[c] < tmin[c]:
            tmin[c] = v2[c]
        tmax[c] = v0[c] if v0[c] > v1[c] else v1[c]
        if v2[c] > tmax[c]:
            tmax[c] = v2[c]
        if tmin[c] > bmax[c] or tmax[c] < bmin[c]:
            return 0
    y0 = clampi(<int>((tmin[1] - bmin[1]) * ics), -1, d - 1)
    y1 = clampi(<int>((tmax[1] - bmin[1]) * ics), 0, d - 1)
    for c in range(3):
        poly[c] = v0[c]
        poly[3 + c] = v1[c]
        poly[6 + c] = v2[c]
    for y in range(y0, y1 + 1):
        cell = bmin[1] + <float>y * cs
        divide_poly(poly, nv_poly, row, &nv_row, p1, &nv_poly, cell + cs, 1)
        tmp = poly
        poly = p1
        p1 = tmp
        if nv_row < 3 or y < 0:
            continue
        extent(row, nv_row, 0, &min_x, &max_x)
        x0 = <int>((min_x - bmin[0]) * ics)
        x1 = <int>((max_x - bmin[0]) * ics)
        if x1 < 0 or x0 >= w:
            continue
        x0 = clampi(x0, -1, w - 1)
        x1 = clampi(x1, 0, w - 1)
        nv2 = nv_row
        for x in range(x0, x1 + 1):
            cell = bmin[0] + <float>x * cs
            divide_poly(row, nv2, p1, &nv, p2, &nv2, cell + cs, 0)
            tmp = row
            row = p2
            p2 = tmp
            if nv < 3 or x < 0:
                continue
            extent(p1, nv, 2, &lo, &hi)
            lo -= bmin[2]
            hi -= bmin[2]
            if hi < zero or lo > by:
                continue
            if lo < zero:
                lo = zero
            if hi > by:
                hi = by
            ilo = clampi(<int>floorf(lo * ich), 0, SPAN_MAX_HEIGHT)
            ihi = clampi(<int>ceilf(hi * ich), ilo + 1, SPAN_MAX_HEIGHT)
            if add_span(p, x + y * w, ilo, ihi, area, thr) < 0:
                return -1
    return 0


def rasterize(const double[:, ::1] verts, const int32_t[:, ::1] tris,
              const uint8_t[::1] areas, const double[::1] bmin, const double[::1] bmax,
              double cs, double ch, int width, int depth, int merge_threshold):
    """Rasterise triangles into solid spans (Recast's ``rcRasterizeTriangles``, in
    single precision as Recast's: the vertices, box and cell sizes are rounded to
    float first, as Recast holds them).

    Returns ``(col_first, col_count, smin, smax, area)``: each column's spans
    contiguous, bottom to top, heights in cells of ``ch`` above ``bmin[2]``.
    """
    cdef Pool pool
    cdef Py_ssize_t columns = <Py_ssize_t>width * depth, t, c, k, total = 0
    cdef int status = 0
    cdef int32_t s
    cdef float vb[3]
    cdef float vc[3]
    cdef float va[3]
    cdef float fmin[3]
    cdef float fmax[3]
    cdef float fcs = <float>cs, fch = <float>ch
    cdef float one = 1
    cdef float ics = one / fcs, ich = one / fch  # float divisions, as Recast's 1.0f / cs
    cdef int j
    for j in range(3):
        fmin[j] = <float>bmin[j]
        fmax[j] = <float>bmax[j]
    if pool_init(&pool, columns, 1024 + tris.shape[0] * 4) < 0:
        pool_free(&pool)
        raise MemoryError("rasterize: out of memory for the span pool")
    with nogil:
        for t in range(tris.shape[0]):
            for j in range(3):
                va[j] = <float>verts[tris[t, 0], j]
                vb[j] = <float>verts[tris[t, 1], j]
                vc[j] = <float>verts[tris[t, 2], j]
            status = rasterize_tri(va, vb, vc, areas[t], &pool, fmin, fmax,
                                   fcs, ics, ich, width, depth, merge_threshold)
            if status < 0:
                break
        if status == 0:
            for c in range(columns):
                s = pool.heads[c]
                while s != -1:
                    total += 1
                    s = pool.nxt[s]
    if status < 0:
        pool_free(&pool)
        raise MemoryError("rasterize: out of memory for the span pool")
    col_first_a = np.zeros(columns, dtype=np.int32)
    col_count_a = np.zeros(columns, dtype=np.int32)
    smin_a = np.empty(total, dtype=np.int32)
    smax_a = np.empty(total, dtype=np.int32)
    area_a = np.empty(total, dtype=np.uint8)
    cdef int32_t[::1] col_first = col_first_a, col_count = col_count_a
    cdef int32_t[::1] smin = smin_a, smax = smax_a
    cdef uint8_t[::1] area = area_a
    with nogil:
        k = 0
        for c in range(columns):
            col_first[c] = <int32_t>k
            s = pool.heads[c]
            while s != -1:
                smin[k] = pool.smin[s]
                smax[k] = pool.smax[s]
                area[k] = pool.area[s]
                k += 1
                s = pool.nxt[s]
            col_count[c] = <int32_t>(k - col_first[c])
    pool_free(&pool)
    return col_first_a, col_count_a, smin_a, smax_a, area_a


# ----------------------------------------------------------------------------------
# The three span filters (they only change areas)

def filter_low_hanging(const int32_t[::1] col_first, const int32_t[::1] col_count,
                       const int32_t[::1] smax, uint8_t[::1] area, int climb):
    """Recast's ``rcFilterLowHangingWalkableObstacles``: a non-walkable span whose top
    is within ``climb`` of the walkable span below it takes that span's area."""
    cdef Py_ssize_t c, i, first, last
    cdef bint prev_walkable, walkable
    cdef uint8_t prev_area
    with nogil:
        for c in range(col_first.shape[0]):
            first = col_first[c]
            last = first + col_count[c]
            prev_walkable = False
            prev_area = NULL_AREA
            for i in range(first, last):
                walkable = area[i] != NULL_AREA
                if not walkable and prev_walkable and smax[i] - smax[i - 1] <= climb:
                    area[i] = prev_area
                prev_walkable = walkable
                prev_area = area[i]


def filter_ledges(const int32_t[::1] col_first, const int32_t[::1] col_count,
                  const int32_t[::1] smin, const int32_t[::1] smax, uint8_t[::1] area,
                  int width, int depth, int height, int climb):
    """Recast's ``rcFilterLedgeSpans``: a walkable span beside a drop deeper than
    ``climb`` (a neighbour with headroom whose floor is that far below, or the edge of
    the field), or whose reachable neighbours differ by more than ``climb``, becomes
    non-walkable."""
    cdef int x, y, nx, ny, direction, floor_, ceiling, ncol
    cdef int lowest, low_trav, high_trav, nfloor, nceil, diff, top_
    cdef Py_ssize_t c, i, last, j, jlast
    with nogil:
        for y in range(depth):
            for x in range(width):
                c = x + y * width
                last = col_first[c] + col_count[c]
                for i in range(col_first[c], last):
                    if area[i] == NULL_AREA:
                        continue
                    floor_ = smax[i]
                    ceiling = smin[i + 1] if i + 1 < last else OPEN_TOP
                    lowest = OPEN_TOP
                    low_trav = floor_
                    high_trav = floor_
                    for direction in range(4):
                        nx = x + DX[direction]
                        ny = y + DY[direction]
                        if nx < 0 or ny < 0 or nx >= width or ny >= depth:
                            lowest = -climb - 1
                            break
                        ncol = nx + ny * width
                        j = col_first[ncol]
                        jlast = j + col_count[ncol]
                        nceil = smin[j] if j < jlast else OPEN_TOP
                        # the open space below the neighbour's first span: a drop
                        top_ = ceiling if ceiling < nceil else nceil
                        if top_ - floor_ >= height:
                            lowest = -climb - 1
                            break
                        while j < jlast:
                            nfloor = smax[j]
                            nceil = smin[j + 1] if j + 1 < jlast else OPEN_TOP
                            top_ = ceiling if ceiling < nceil else nceil
                            if top_ - (floor_ if floor_ > nfloor else nfloor) < height:
                                j += 1
                                continue
                            diff = nfloor - floor_
                            if diff < lowest:
                                lowest = diff
                            if -climb <= diff <= climb:
                                if nfloor < low_trav:
                                    low_trav = nfloor
                                if nfloor > high_trav:
                                    high_trav = nfloor
                            elif diff < -climb:
                                break
                            j += 1
                    if lowest < -climb or high_trav - low_trav > climb:
                        area[i] = NULL_AREA


def filter_low_height(const int32_t[::1] col_first, const int32_t[::1] col_count,
                      const int32_t[::1] smin, const int32_t[::1] smax, uint8_t[::1] area,
                      int height):
    """Recast's ``rcFilterWalkableLowHeightSpans``: a span with less than ``height``
    open above it becomes non-walkable."""
    cdef Py_ssize_t c, i, last
    cdef int ceiling
    with nogil:
        for c in range(col_first.shape[0]):
            last = col_first[c] + col_count[c]
            for i in range(col_first[c], last):
                ceiling = smin[i + 1] if i + 1 < last else OPEN_TOP
                if ceiling - smax[i] < height:
                    area[i] = NULL_AREA


# ----------------------------------------------------------------------------------
# The compact heightfield

def compact(const int32_t[::1] col_first, const int32_t[::1] col_count,
            const int32_t[::1] smin, const int32_t[::1] smax, const uint8_t[::1] sarea,
            int width, int depth, int height, int climb):
    """Recast's ``rcBuildCompactHeightfield``: the open space above each walkable
    solid span, linked to a neighbour span reachable within ``climb`` with ``height``
    of headroom over the step. Returns ``(cell_first, cell_count, z, h, area, con)``."""
    cdef Py_ssize_t columns = col_first.shape[0], c, i, last, total = 0, k, j, jlast
    cdef int x, y, nx, ny, direction, bot, top_, a_top, b_top
    with nogil:
        for i in range(sarea.shape[0]):
            if sarea[i] != NULL_AREA:
                total += 1
    cell_first_a = np.zeros(columns, dtype=np.int32)
    cell_count_a = np.zeros(columns, dtype=np.int32)
    z_a = np.empty(total, dtype=np.int32)
    h_a = np.empty(total, dtype=np.int32)
    area_a = np.empty(total, dtype=np.uint8)
    con_a = np.full((total, 4), -1, dtype=np.int32)
    cdef int32_t[::1] cell_first = cell_first_a, cell_count = cell_count_a
    cdef int32_t[::1] z = z_a, h = h_a
    cdef uint8_t[::1] area = area_a
    cdef int32_t[:, ::1] con = con_a
    with nogil:
        k = 0
        for c in range(columns):
            cell_first[c] = <int32_t>k
            last = col_first[c] + col_count[c]
            for i in range(col_first[c], last):
                if sarea[i] == NULL_AREA:
                    continue
                z[k] = smax[i]
                top_ = smin[i + 1] if i + 1 < last else OPEN_TOP
                h[k] = clampi(top_ - smax[i], 0, 0xFF)
                area[k] = sarea[i]
                k += 1
            cell_count[c] = <int32_t>(k - cell_first[c])
        for y in range(depth):
            for x in range(width):
                c = x + y * width
                for i in range(cell_first[c], cell_first[c] + cell_count[c]):
                    for direction in range(4):
                        nx = x + DX[direction]
                        ny = y + DY[direction]
                        if nx < 0 or ny < 0 or nx >= width or ny >= depth:
                            continue
                        j = cell_first[nx + ny * width]
                        jlast = j + cell_count[nx + ny * width]
                        while j < jlast:
                            bot = z[i] if z[i] > z[j] else z[j]
                            a_top = z[i] + h[i]
                            b_top = z[j] + h[j]
                            top_ = a_top if a_top < b_top else b_top
                            if top_ - bot >= height and -climb <= z[j] - z[i] <= climb:
                                con[i, direction] = <int32_t>j
                                break
                            j += 1
    return cell_first_a, cell_count_a, z_a, h_a, area_a, con_a


# ----------------------------------------------------------------------------------
# Chamfer distances (erosion and the distance field share the two sweeps)

cdef inline void relax(uint16_t* dist, Py_ssize_t i, int32_t a, int step,
                       int cap) noexcept nogil:
    """``dist[i]`` lowered to ``dist[a] + step`` (capped at ``cap``) when shorter."""
    cdef int nd
    if a < 0:
        return
    nd = dist[a] + step
    if nd > cap:
        nd = cap
    if nd < dist[i]:
        dist[i] = <uint16_t>nd


cdef inline void relax_pair(const int32_t[:, ::1] con, uint16_t* dist, Py_ssize_t i,
                            int first, int second, int cap) noexcept nogil:
    """Relax span ``i`` from its neighbour in direction ``first`` (2) and from that
    neighbour's neighbour in direction ``second`` (3: a diagonal step)."""
    cdef int32_t a = con[i, first]
    if a >= 0:
        relax(dist, i, a, 2, cap)
        relax(dist, i, con[a, second], 3, cap)


cdef void chamfer(const int32_t[:, ::1] con, uint16_t* dist, Py_ssize_t n,
                  int cap) noexcept nogil:
    """Two sweeps of the 2-3 chamfer distance over the span graph (Recast's
    erosion and calculateDistanceField): 2 per straight step, 3 per diagonal (a
    straight step then a turn), capped at ``cap``. Spans in scan order: forward from
    -x then its -y, and from -y then its +x; backward from +x then its +y, and from
    +y then its -x."""
    cdef Py_ssize_t i
    for i in range(n):
        relax_pair(con, dist, i, 0, 3, cap)
        relax_pair(con, dist, i, 3, 2, cap)
    for i in range(n - 1, -1, -1):
        relax_pair(con, dist, i, 2, 1, cap)
        relax_pair(con, dist, i, 1, 0, cap)


def erode(const int32_t[:, ::1] con, uint8_t[::1] area, int radius):
    """Recast's ``rcErodeWalkableArea``: spans closer than ``radius`` cells (chamfer
    distance < 2 * radius) to a non-walkable span or a missing neighbour become
    non-walkable."""
    cdef Py_ssize_t n = area.shape[0], i
    cdef int direction, count
    cdef int32_t a
    cdef uint16_t* dist = <uint16_t*>malloc((n if n > 0 else 1) * sizeof(uint16_t))
    if not dist:
        raise MemoryError("erode: out of memory")
    with nogil:
        for i in range(n):
            dist[i] = 0xFF
            if area[i] == NULL_AREA:
                dist[i] = 0
                continue
            count = 0
            for direction in range(4):
                a = con[i, direction]
                if a < 0 or area[a] == NULL_AREA:
                    break
                count += 1
            if count != 4:
                dist[i] = 0
        chamfer(con, dist, n, 0xFF)
        for i in range(n):
            if dist[i] < radius * 2:
                area[i] = NULL_AREA
    free(dist)


def distance_field(const int32_t[:, ::1] con, const uint8_t[::1] area,
                   uint16_t[::1] dist):
    """Recast's ``rcBuildDistanceField``: the chamfer distance to the nearest span
    whose four neighbours are not all there with its area, then a 3x3 box blur
    (threshold 2). Writes the blurred field into ``dist``; returns the largest
    unblurred distance (Recast's ``maxDistance``)."""
    cdef Py_ssize_t n = area.shape[0], i
    cdef int direction, count, d, d2
    cdef int32_t a, b
    cdef uint16_t max_dist = 0, cd
    cdef uint16_t* src = <uint16_t*>malloc((n if n > 0 else 1) * sizeof(uint16_t))
    if not src:
        raise MemoryError("distance_field: out of memory")
    with nogil:
        for i in range(n):
            src[i] = 0xFFFF
            count = 0
            for direction in range(4):
                a = con[i, direction]
                if a >= 0 and area[a] == area[i]:
                    count += 1
            if count != 4:
                src[i] = 0
        chamfer(con, src, n, 0xFFFF)
        for i in range(n):
            if src[i] > max_dist:
                max_dist = src[i]
        for i in range(n):
            cd = src[i]
            if cd <= 2:
                dist[i] = cd
                continue
            d = cd
            for direction in range(4):
                a = con[i, direction]
                if a >= 0:
                    d += src[a]
                    b = con[a, (direction + 1) & 3]
                    d += src[b] if b >= 0 else cd
                else:
                    d += cd * 2
            dist[i] = <uint16_t>((d + 5) // 9)
    free(src)
    return max_dist


# ----------------------------------------------------------------------------------
# Watershed regions (Recast's rcBuildRegions up to mergeAndFilterRegions)

cdef struct Watershed:
    const int32_t* con         # n x 4
    const uint8_t* area
    const uint16_t* dist
    uint16_t* reg
    uint16_t* rdist
    int32_t* flood             # the flood stack (n)
    int32_t* dirty_i           # n
    uint16_t* dirty_r
    uint16_t* dirty_d
    Py_ssize_t n


cdef bint flood_region(Watershed* w, int32_t start, uint16_t level, uint16_t r) noexcept nogil:
    """Recast's floodRegion: grow region ``r`` from ``start`` over spans of the same
    area at distance >= level - 2, stopping at spans next to another region."""
    cdef uint8_t area = w.area[start]
    cdef Py_ssize_t top = 0
    cdef int32_t ci, ai, ai2
    cdef uint16_t ar, nr, lev = level - 2 if level >= 2 else 0
    cdef int direction, count = 0
    w.flood[top] = start
    top += 1
    w.reg[start] = r
    w.rdist[start] = 0
    while top > 0:
        top -= 1
        ci = w.flood[top]
        ar = 0
        for direction in range(4):
            ai = w.con[ci * 4 + direction]
            if ai < 0 or w.area[ai] != area:
                continue
            nr = w.reg[ai]
            if nr & BORDER_REG:
                continue
            if nr != 0 and nr != r:
                ar = nr
                break
            ai2 = w.con[ai * 4 + ((direction + 1) & 3)]
            if ai2 >= 0:
                if w.area[ai2] != area:
                    continue
                nr = w.reg[ai2]
                if nr != 0 and nr != r:
                    ar = nr
                    break
        if ar != 0:
            w.reg[ci] = 0
            continue
        count += 1
        for direction in range(4):
            ai = w.con[ci * 4 + direction]
            if ai < 0 or w.area[ai] != area:
                continue
            if w.dist[ai] >= lev and w.reg[ai] == 0:
                w.reg[ai] = r
                w.rdist[ai] = 0
                w.flood[top] = ai
                top += 1
    return count > 0


cdef void expand_regions(Watershed* w, int max_iter, uint16_t level, int32_t* stack,
                         Py_ssize_t* size, bint fill) noexcept nogil:
    """Recast's expandRegions: grow the regions into the unassigned spans of
    ``stack`` (or of every span at distance >= level when ``fill``), one ring per
    iteration, each span taking the neighbour region nearest by ``rdist``."""
    cdef Py_ssize_t i, j, failed, ndirty
    cdef int32_t s, a
    cdef uint16_t r, d2
    cdef int direction, it = 0
    if fill:
        size[0] = 0
        for i in range(w.n):
            if w.dist[i] >= level and w.reg[i] == 0 and w.area[i] != NULL_AREA:
                stack[size[0]] = <int32_t>i
                size[0] += 1
    else:
        for j in range(size[0]):
            if stack[j] >= 0 and w.reg[stack[j]] != 0:
                stack[j] = -1
    while size[0] > 0:
        failed = 0
        ndirty = 0
        for j in range(size[0]):
            s = stack[j]
            if s < 0:
                failed += 1
                continue
            r = w.reg[s]
            d2 = 0xFFFF
            for direction in range(4):
                a = w.con[s * 4 + direction]
                if a < 0 or w.area[a] != w.area[s]:
                    continue
                if w.reg[a] > 0 and (w.reg[a] & BORDER_REG) == 0:
                    if <int>w.rdist[a] + 2 < <int>d2:
                        r = w.reg[a]
                        d2 = w.rdist[a] + 2
            if r:
                stack[j] = -1
                w.dirty_i[ndirty] = s
                w.dirty_r[ndirty] = r
                w.dirty_d[ndirty] = d2
                ndirty += 1
            else:
                failed += 1
        for i in range(ndirty):
            w.reg[w.dirty_i[i]] = w.dirty_r[i]
            w.rdist[w.dirty_i[i]] = w.dirty_d[i]
        if failed == size[0]:
            break
        if level > 0:
            it += 1
            if it >= max_iter:
                break


def watershed(const int32_t[::1] cell_first, const int32_t[::1] cell_count,
              const int32_t[:, ::1] con, const uint8_t[::1] area,
              const uint16_t[::1] dist, int max_dist, int width, int depth, int border,
              uint16_t[::1] reg):
    """Recast's watershed partition: regions flooded from the distance field's
    peaks down, two levels at a time, each level first expanding the regions there
    are. Writes raw region ids into ``reg`` (tile border regions flagged with
    0x8000); returns the next free id, or -1 on overflow of 16-bit ids."""
    cdef Py_ssize_t n = area.shape[0], i, j, c
    cdef Watershed w
    cdef int32_t* stacks[8]
    cdef Py_ssize_t sizes[8]
    cdef Py_ssize_t flood_size = 0
    cdef int32_t* fill_stack
    cdef int k, sid = -1, x, y, lvl, s_index, start_level, bw, bh, rect
    cdef int x0, x1, y0, y1
    cdef uint16_t region_id = 1, level
    cdef bint failed = False
    cdef Py_ssize_t cap = n if n > 0 else 1
    rdist_a = np.zeros(cap, dtype=np.uint16)
    work_a = np.empty(cap * 11, dtype=np.int32)
    dirty_a = np.empty(cap * 2, dtype=np.uint16)
    cdef uint16_t[::1] rdist = rdist_a, dirty = dirty_a
    cdef int32_t[::1] work = work_a
    w.con = &con[0, 0] if n > 0 else NULL
    w.area = &area[0] if n > 0 else NULL
    w.dist = &dist[0] if n > 0 else NULL
    w.reg = &reg[0] if n > 0 else NULL
    w.rdist = &rdist[0]
    w.flood = &work[0]
    w.dirty_i = &work[cap]
    fill_stack = &work[2 * cap]
    for k in range(8):
        stacks[k] = &work[(3 + k) * cap]
        sizes[k] = 0
    w.dirty_r = &dirty[0]
    w.dirty_d = &dirty[cap]
    w.n = n
    if n == 0:
        return 1
    with nogil:
        for i in range(n):
            reg[i] = 0
        if border > 0:
            bw = border if border < width else width
            bh = border if border < depth else depth
            for rect in range(4):
                x0 = width - bw if rect == 1 else 0
                x1 = bw if rect == 0 else width
                y0 = depth - bh if rect == 3 else 0
                y1 = bh if rect == 2 else depth
                for y in range(y0, y1):
                    for x in range(x0, x1):
                        c = x + y * width
                        for i in range(cell_first[c], cell_first[c] + cell_count[c]):
                            if area[i] != NULL_AREA:
                                reg[i] = region_id | BORDER_REG
                region_id += 1
        level = <uint16_t>((max_dist + 1) & ~1)
        while level > 0 and not failed:
            level = level - 2 if level >= 2 else 0
            sid = (sid + 1) & 7
            if sid == 0:
                # sort the unassigned spans into 8 stacks of 2 levels each
                start_level = level >> 1
                for k in range(8):
                    sizes[k] = 0
                for i in range(n):
                    if area[i] == NULL_AREA or reg[i] != 0:
                        continue
                    s_index = start_level - (dist[i] >> 1)
                    if s_index >= 8:
                        continue
                    if s_index < 0:
                        s_index = 0
                    stacks[s_index][sizes[s_index]] = <int32_t>i
                    sizes[s_index] += 1
            else:
                # carry the previous level's leftovers over
                for j in range(sizes[sid - 1]):
                    i = stacks[sid - 1][j]
                    if i < 0 or reg[i] != 0:
                        continue
                    stacks[sid][sizes[sid]] = <int32_t>i
                    sizes[sid] += 1
            expand_regions(&w, 8, level, stacks[sid], &sizes[sid], False)
            for j in range(sizes[sid]):
                i = stacks[sid][j]
                if i >= 0 and reg[i] == 0:
                    if flood_region(&w, <int32_t>i, level, region_id):
                        if region_id == 0xFFFF:
                            failed = True
                            break
                        region_id += 1
        if not failed:
            expand_regions(&w, 64, 0, fill_stack, &flood_size, True)
    return -1 if failed else <int>region_id


cdef inline uint16_t neighbour_region(const int32_t[:, ::1] con, const uint16_t[::1] reg,
                                      Py_ssize_t i, int direction) noexcept nogil:
    cdef int32_t a = con[i, direction]
    return reg[a] if a >= 0 else 0


def region_contours(const int32_t[:, ::1] con, const uint16_t[::1] reg, int nreg):
    """Each region's neighbours in order around its outline (Recast's walkContour,
    from the region's first span in scan order that has an edge): 0 for a wall.
    Returns ``(offsets int32 (nreg + 1,), neighbours int32, first int64 (nreg,))``;
    region r's list is ``neighbours[offsets[r]:offsets[r + 1]]`` (empty for ids not
    used) and ``first[r]`` the span it starts from (-1: none)."""
    cdef Py_ssize_t n = reg.shape[0], i, cur_i, start_i, size = 0, cap = 256, k, m
    cdef int direction, start_dir, d, it
    cdef uint16_t r, cur, nr
    cdef int32_t ni
    cdef int32_t* out = <int32_t*>malloc(cap * sizeof(int32_t))
    cdef int32_t* q
    cdef Py_ssize_t list_start
    offsets_a = np.zeros(nreg + 1, dtype=np.int32)
    first_a = np.full(nreg, -1, dtype=np.int64)
    first_dir_a = np.zeros(nreg, dtype=np.int32)
    cdef int32_t[::1] offsets = offsets_a
    cdef int64_t[::1] first = first_a
    cdef int32_t[::1] first_dir = first_dir_a
    if not out:
        raise MemoryError("region_contours: out of memory")
    with nogil:
        for i in range(n):
            r = reg[i]
            if r == 0 or r >= nreg or first[r] >= 0:
                continue
            for d in range(4):
                if neighbour_region(con, reg, i, d) != r:
                    first[r] = i
                    first_dir[r] = d
                    break
        for r in range(nreg):
            offsets[r] = <int32_t>size
            if first[r] < 0:
                continue
            list_start = size
            cur_i = first[r]
            start_i = cur_i
            direction = first_dir[r]
            start_dir = direction
            cur = neighbour_region(con, reg, cur_i, direction)
            if size == cap:
                cap *= 2
                q = <int32_t*>realloc(out, cap * sizeof(int32_t))
                if not q:
                    break
                out = q
            out[size] = cur
            size += 1
            it = 0
            while True:
                it += 1
                if it >= 40000:
                    break
                nr = neighbour_region(con, reg, cur_i, direction)
                if nr != reg[cur_i]:
                    if nr != cur:
                        cur = nr
                        if size == cap:
                            cap *= 2
                            q = <int32_t*>realloc(out, cap * sizeof(int32_t))
                            if not q:
                                break
                            out = q
                        out[size] = cur
                        size += 1
                    direction = (direction + 1) & 3
                else:
                    ni = con[cur_i, direction]
                    cur_i = ni
                    direction = (direction + 3) & 3
                if cur_i == start_i and direction == start_dir:
                    break
            # drop neighbours repeated next to each other, around the loop
            m = size - list_start
            if m > 1:
                k = 0
                while k < m and m > 1:
                    if out[list_start + k] == out[list_start + (k + 1) % m]:
                        for d in range(<int>k, <int>(m - 1)):
                            out[list_start + d] = out[list_start + d + 1]
                        m -= 1
                    else:
                        k += 1
                size = list_start + m
        offsets[nreg] = <int32_t>size
    neighbours_a = np.empty(size, dtype=np.int32)
    cdef int32_t[::1] neighbours = neighbours_a
    for k in range(size):
        neighbours[k] = out[k]
    free(out)
    return offsets_a, neighbours_a, first_a
