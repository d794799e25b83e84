# cython: language_level=3
"""Compiled detail mesh of a 3-D navigation mesh: Recast's ``rcBuildPolyMeshDetail``.

A port of recastnavigation's ``Recast/Source/RecastMeshDetail.cpp`` (Mikko Mononen,
zlib licence), step for step and in single precision where Recast computes in
``float``, so that the triangles and their heights are Recast's:

Height patch (``getHeightData``)
    Each polygon reads the floors of its box of cells (one cell wider on each side):
    the spans of its own region, then a breadth-first walk outward from that region's
    border spans over the span links; a polygon of several regions (a tile's merged
    hole) walks from the span nearest one of its vertices toward its centre first.
Edges
    Each polygon edge is sampled every ``sample_dist`` (always from its lower x, or
    lower y, end, so the two polygons sharing it agree) and the sample farthest from
    the straight edge is kept while it is farther than ``sample_max_error``.
Inside
    The hull (corners and kept edge samples) is triangulated by the shortest
    diagonals; samples on a grid of ``sample_dist`` inside the polygon are then added,
    the one farthest above or below the triangles first (with Recast's fixed jitter),
    each time re-triangulating by Delaunay (``delaunayHull``), until every sample is
    within ``sample_max_error`` (at most 127 vertices per polygon).

Coordinates are Recast's: cells ``(x, h, r)`` with rows ``r`` (the heightfield's
column ``x + r * width``), and the output points ``(x, height, r-axis)`` in Recast's
frame; ``navmesh3d._detail`` turns them into the caller's frame. Every entry checks
its shapes before it releases the GIL.
"""

import numpy as np

from libc.float cimport FLT_MAX
from libc.math cimport ceilf, fabsf, floorf, sqrtf
from libc.stdint cimport int32_t, uint16_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memmove, memset

cdef enum:
    UNSET = 0xffff
    EV_UNDEF = -1
    EV_HULL = -2
    MAX_VERTS = 127
    MAX_TRIS = 255
    MAX_VERTS_PER_EDGE = 32
    MAX_EDGES = MAX_VERTS * 10
    MAX_FACES = MAX_EDGES * 2
    RETRACT_SIZE = 256
    MULTIPLE_REGS = 0


cdef struct IVec:
    int* d
    Py_ssize_t n
    Py_ssize_t cap


cdef int ivec_reserve(IVec* v, Py_ssize_t extra) except -1 nogil:
    cdef Py_ssize_t cap = v.cap
    cdef int* d
    if v.n + extra <= cap:
        return 0
    while cap < v.n + extra:
        cap = cap * 2 + 64
    d = <int*> realloc(v.d, cap * sizeof(int))
    if d == NULL:
        with gil:
            raise MemoryError("detail mesh: out of memory")
    v.d, v.cap = d, cap
    return 0


cdef inline int push3(IVec* v, int a, int b, int c) except -1 nogil:
    ivec_reserve(v, 3)
    v.d[v.n] = a
    v.d[v.n + 1] = b
    v.d[v.n + 2] = c
    v.n += 3
    return 0


cdef struct Chf:
    int width
    int border
    const int32_t* first
    const int32_t* count
    const int32_t* z
    const int32_t* con
    const uint16_t* reg


cdef struct Patch:
    uint16_t* data
    int xmin, ymin, width, height


cdef inline int dir_x(int d) noexcept nogil:
    return (d == 2) - (d == 0)


cdef inline int dir_y(int d) noexcept nogil:
    return (d == 1) - (d == 3)


cdef inline int dir_for(int ox, int oy) noexcept nogil:
    # Recast's rcGetDirForOffset: {3, 0, -1, 2, 1}[((oy + 1) << 1) + ox]
    cdef int k = ((oy + 1) << 1) + ox
    if k == 0:
        return 3
    if k == 1:
        return 0
    if k == 3:
        return 2
    return 1


# ---- geometry, in Recast's float arithmetic ------------------------------------------

cdef inline float vdot2(const float* a, const float* b) noexcept nogil:
    return a[0] * b[0] + a[2] * b[2]


cdef inline float vdist2(const float* p, const float* q) noexcept nogil:
    cdef float dx = q[0] - p[0]
    cdef float dy = q[2] - p[2]
    return sqrtf(dx * dx + dy * dy)


cdef inline float vcross2(const float* p1, const float* p2, const float* p3) noexcept nogil:
    cdef float u1 = p2[0] - p1[0]
    cdef float v1 = p2[2] - p1[2]
    cdef float u2 = p3[0] - p1[0]
    cdef float v2 = p3[2] - p1[2]
    return u1 * v2 - v1 * u2


cdef void circum_circle(
    const float* p1, const float* p2, const float* p3, float* c, float* r
) noexcept nogil:
    cdef float v1[3]
    cdef float v2[3]
    cdef float v3[3]
    cdef float cp, v1sq, v2sq, v3sq
    cdef int k
    for k in range(3):
        v1[k] = 0
        v2[k] = p2[k] - p1[k]
        v3[k] = p3[k] - p1[k]
    cp = vcross2(v1, v2, v3)
    if fabsf(cp) > <float> 1e-6:
        v1sq = vdot2(v1, v1)
        v2sq = vdot2(v2, v2)
        v3sq = vdot2(v3, v3)
        c[0] = (v1sq * (v2[2] - v3[2]) + v2sq * (v3[2] - v1[2]) + v3sq * (v1[2] - v2[2])) / (2 * cp)
        c[1] = 0
        c[2] = (v1sq * (v3[0] - v2[0]) + v2sq * (v1[0] - v3[0]) + v3sq * (v2[0] - v1[0])) / (2 * cp)
        r[0] = vdist2(c, v1)
        for k in range(3):
            c[k] = c[k] + p1[k]
        return
    for k in range(3):
        c[k] = p1[k]
    r[0] = 0


cdef float dist_pt_tri(const float* p, const float* a, const float* b, const float* c) noexcept nogil:
    cdef float v0[3]
    cdef float v1[3]
    cdef float v2[3]
    cdef int k
    for k in range(3):
        v0[k] = c[k] - a[k]
        v1[k] = b[k] - a[k]
        v2[k] = p[k] - a[k]
    cdef float dot00 = vdot2(v0, v0)
    cdef float dot01 = vdot2(v0, v1)
    cdef float dot02 = vdot2(v0, v2)
    cdef float dot11 = vdot2(v1, v1)
    cdef float dot12 = vdot2(v1, v2)
    cdef float inv = <float> 1.0 / (dot00 * dot11 - dot01 * dot01)
    cdef float u = (dot11 * dot02 - dot01 * dot12) * inv
    cdef float v = (dot00 * dot12 - dot01 * dot02) * inv
    cdef float y
    if u >= -<float> 1e-4 and v >= -<float> 1e-4 and (u + v) <= 1 + <float> 1e-4:
        y = a[1] + v0[1] * u + v1[1] * v
        return fabsf(y - p[1])
    return FLT_MAX


cdef inline float seg_param(float t, float d) noexcept nogil:
    """The nearest point's parameter along a segment: ``t / d`` clamped to [0, 1]."""
    if d > 0:
        t /= d
    if t < 0:
        return 0
    if t > 1:
        return 1
    return t


cdef float dist_pt_seg(const float* pt, const float* p, const float* q) noexcept nogil:
    cdef float pqx = q[0] - p[0]
    cdef float pqy = q[1] - p[1]
    cdef float pqz = q[2] - p[2]
    cdef float dx = pt[0] - p[0]
    cdef float dy = pt[1] - p[1]
    cdef float dz = pt[2] - p[2]
    cdef float d = pqx * pqx + pqy * pqy + pqz * pqz
    cdef float t = pqx * dx + pqy * dy + pqz * dz
    t = seg_param(t, d)
    dx = p[0] + t * pqx - pt[0]
    dy = p[1] + t * pqy - pt[1]
    dz = p[2] + t * pqz - pt[2]
    return dx * dx + dy * dy + dz * dz


cdef float dist_pt_seg2d(const float* pt, const float* p, const float* q) noexcept nogil:
    cdef float pqx = q[0] - p[0]
    cdef float pqz = q[2] - p[2]
    cdef float dx = pt[0] - p[0]
    cdef float dz = pt[2] - p[2]
    cdef float d = pqx * pqx + pqz * pqz
    cdef float t = pqx * dx + pqz * dz
    t = seg_param(t, d)
    dx = p[0] + t * pqx - pt[0]
    dz = p[2] + t * pqz - pt[2]
    return dx * dx + dz * dz


cdef float dist_to_tri_mesh(const float* p, const float* verts, const int* tris, int ntris) noexcept nogil:
    cdef float dmin = FLT_MAX, d
    cdef int i
    for i in range(ntris):
        d = dist_pt_tri(p, &verts[tris[i * 4] * 3], &verts[tris[i * 4 + 1] * 3],
                        &verts[tris[i * 4 + 2] * 3])
        if d < dmin:
            dmin = d
    if dmin == FLT_MAX:
        return -1
    return dmin


cdef float dist_to_poly(int nvert, const float* verts, const float* p) noexcept nogil:
    cdef float dmin = FLT_MAX, d
    cdef int i, j = nvert - 1, c = 0
    cdef const float* vi
    cdef const float* vj
    for i in range(nvert):
        vi = &verts[i * 3]
        vj = &verts[j * 3]
        if ((vi[2] > p[2]) != (vj[2] > p[2])) and (
            p[0] < (vj[0] - vi[0]) * (p[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]
        ):
            c = not c
        d = dist_pt_seg2d(p, vj, vi)
        if d < dmin:
            dmin = d
        j = i
    return -dmin if c else dmin


cdef uint16_t get_height(
    float fx, float fy, float fz, float ics, float ch, int radius, const Patch* hp
) noexcept nogil:
    cdef int ix = <int> floorf(fx * ics + <float> 0.01)
    cdef int iz = <int> floorf(fz * ics + <float> 0.01)
    cdef int x = 1, z = 0, dx = 1, dz = 0, tmp, i, nx, nz
    cdef int max_size, max_iter, next_start = 8, next_iters = 16
    cdef float dmin = FLT_MAX, d
    cdef uint16_t h, nh
    if hp.width <= 0 or hp.height <= 0:
        return 0
    ix = min(max(ix - hp.xmin, 0), hp.width - 1)
    iz = min(max(iz - hp.ymin, 0), hp.height - 1)
    h = hp.data[ix + iz * hp.width]
    if h == UNSET:
        max_size = radius * 2 + 1
        max_iter = max_size * max_size - 1
        for i in range(max_iter):
            nx = ix + x
            nz = iz + z
            if nx >= 0 and nz >= 0 and nx < hp.width and nz < hp.height:
                nh = hp.data[nx + nz * hp.width]
                if nh != UNSET:
                    d = fabsf(nh * ch - fy)
                    if d < dmin:
                        h = nh
                        dmin = d
            if i + 1 == next_start:
                if h != UNSET:
                    break
                next_start += next_iters
                next_iters += 8
            if x == z or (x < 0 and x == -z) or (x > 0 and x == 1 - z):
                tmp = dx
                dx = -dz
                dz = tmp
            x += dx
            z += dz
    return h


# ---- triangulation ---------------------------------------------------------------------

cdef int find_edge(const int* edges, int nedges, int s, int t) noexcept nogil:
    cdef int i
    for i in range(nedges):
        if (edges[i * 4] == s and edges[i * 4 + 1] == t) or (
            edges[i * 4] == t and edges[i * 4 + 1] == s
        ):
            return i
    return EV_UNDEF


cdef int add_edge(int* edges, int* nedges, int max_edges, int s, int t, int l, int r) noexcept nogil:
    cdef int* e
    if nedges[0] >= max_edges:
        return EV_UNDEF
    if find_edge(edges, nedges[0], s, t) == EV_UNDEF:
        e = &edges[nedges[0] * 4]
        e[0] = s
        e[1] = t
        e[2] = l
        e[3] = r
        nedges[0] += 1
        return nedges[0] - 1
    return EV_UNDEF


cdef inline void update_left_face(int* e, int s, int t, int f) noexcept nogil:
    if e[0] == s and e[1] == t and e[2] == EV_UNDEF:
        e[2] = f
    elif e[1] == s and e[0] == t and e[3] == EV_UNDEF:
        e[3] = f


cdef bint overlap_seg_seg2d(const float* a, const float* b, const float* c, const float* d) noexcept nogil:
    cdef float a1 = vcross2(a, b, d)
    cdef float a2 = vcross2(a, b, c)
    cdef float a3, a4
    if a1 * a2 < 0:
        a3 = vcross2(c, d, a)
        a4 = a3 + a2 - a1
        if a3 * a4 < 0:
            return True
    return False


cdef bint overlap_edges(const float* pts, const int* edges, int nedges, int s1, int t1) noexcept nogil:
    cdef int i, s0, t0
    for i in range(nedges):
        s0 = edges[i * 4]
        t0 = edges[i * 4 + 1]
        if s0 == s1 or s0 == t1 or t0 == s1 or t0 == t1:
            continue
        if overlap_seg_seg2d(&pts[s0 * 3], &pts[t0 * 3], &pts[s1 * 3], &pts[t1 * 3]):
            return True
    return False


cdef void complete_facet(
    const float* pts, int npts, int* edges, int* nedges, int max_edges, int* nfaces, int e
) noexcept nogil:
    cdef int* edge = &edges[e * 4]
    cdef int s, t, pt, u
    cdef float c[3]
    cdef float r = -1, d
    if edge[2] == EV_UNDEF:
        s = edge[0]
        t = edge[1]
    elif edge[3] == EV_UNDEF:
        s = edge[1]
        t = edge[0]
    else:
        return
    pt = npts
    c[0] = 0
    c[1] = 0
    c[2] = 0
    for u in range(npts):
        if u == s or u == t:
            continue
        if vcross2(&pts[s * 3], &pts[t * 3], &pts[u * 3]) > <float> 1e-5:
            if r < 0:
                pt = u
                circum_circle(&pts[s * 3], &pts[t * 3], &pts[u * 3], c, &r)
                continue
            d = vdist2(c, &pts[u * 3])
            if d > r * (1 + <float> 0.001):
                continue
            elif d < r * (1 - <float> 0.001):
                pt = u
                circum_circle(&pts[s * 3], &pts[t * 3], &pts[u * 3], c, &r)
            else:
                if overlap_edges(pts, edges, nedges[0], s, u):
                    continue
                if overlap_edges(pts, edges, nedges[0], t, u):
                    continue
                pt = u
                circum_circle(&pts[s * 3], &pts[t * 3], &pts[u * 3], c, &r)
    if pt < npts:
        update_left_face(&edges[e * 4], s, t, nfaces[0])
        e = find_edge(edges, nedges[0], pt, s)
        if e == EV_UNDEF:
            add_edge(edges, nedges, max_edges, pt, s, nfaces[0], EV_UNDEF)
        else:
            update_left_face(&edges[e * 4], pt, s, nfaces[0])
        e = find_edge(edges, nedges[0], t, pt)
        if e == EV_UNDEF:
            add_edge(edges, nedges, max_edges, t, pt, nfaces[0], EV_UNDEF)
        else:
            update_left_face(&edges[e * 4], t, pt, nfaces[0])
        nfaces[0] += 1
    else:
        update_left_face(&edges[e * 4], s, t, EV_HULL)


cdef inline void face_edge(int* t, int a, int b) noexcept nogil:
    """Edge ``a -> b`` of triangle ``t``: its first two corners, or its third."""
    if t[0] == -1:
        t[0] = a
        t[1] = b
    elif t[0] == b:
        t[2] = a
    elif t[1] == a:
        t[2] = b


cdef int delaunay_hull(
    int npts, const float* pts, int nhull, const int* hull, int* tris, int* edges
) noexcept nogil:
    """Recast's ``delaunayHull``; the triangles (4 ints each) into ``tris``, their count
    returned."""
    cdef int nfaces = 0, nedges = 0, max_edges = npts * 10, i, j = nhull - 1, cur = 0, nt
    cdef int* e
    cdef int* t
    for i in range(nhull):
        add_edge(edges, &nedges, max_edges, hull[j], hull[i], EV_HULL, EV_UNDEF)
        j = i
    while cur < nedges:
        if edges[cur * 4 + 2] == EV_UNDEF:
            complete_facet(pts, npts, edges, &nedges, max_edges, &nfaces, cur)
        if edges[cur * 4 + 3] == EV_UNDEF:
            complete_facet(pts, npts, edges, &nedges, max_edges, &nfaces, cur)
        cur += 1
    for i in range(nfaces * 4):
        tris[i] = -1
    for i in range(nedges):
        e = &edges[i * 4]
        if e[3] >= 0:  # the face on the edge's right runs along it
            face_edge(&tris[e[3] * 4], e[0], e[1])
        if e[2] >= 0:  # the one on its left against it
            face_edge(&tris[e[2] * 4], e[1], e[0])
    nt = nfaces
    i = 0
    while i < nt:
        t = &tris[i * 4]
        if t[0] == -1 or t[1] == -1 or t[2] == -1:
            # a dangling face: the last one takes its place
            for j in range(4):
                t[j] = tris[(nt - 1) * 4 + j]
            nt -= 1
            continue
        i += 1
    return nt


cdef float poly_min_extent(const float* verts, int nverts) noexcept nogil:
    cdef float min_dist = FLT_MAX, max_edge, d
    cdef int i, j, ni
    for i in range(nverts):
        ni = (i + 1) % nverts
        max_edge = 0
        for j in range(nverts):
            if j == i or j == ni:
                continue
            d = dist_pt_seg2d(&verts[j * 3], &verts[i * 3], &verts[ni * 3])
            if d > max_edge:
                max_edge = d
        if max_edge < min_dist:
            min_dist = max_edge
    return sqrtf(min_dist)


cdef inline int prev_i(int i, int n) noexcept nogil:
    return i - 1 if i - 1 >= 0 else n - 1


cdef inline int next_i(int i, int n) noexcept nogil:
    return i + 1 if i + 1 < n else 0


cdef int triangulate_hull(const float* verts, int nhull, const int* hull, int nin, int* tris) noexcept nogil:
    """Recast's ``triangulateHull``: the shortest ear at an original vertex first, then
    the shorter diagonal each step; the triangles' count returned."""
    cdef int start = 0, left = 1, right = nhull - 1, i, pi, ni, nleft, nright, nt = 0
    cdef float dmin = FLT_MAX, d, dleft, dright
    for i in range(nhull):
        if hull[i] >= nin:
            continue
        pi = prev_i(i, nhull)
        ni = next_i(i, nhull)
        d = (vdist2(&verts[hull[pi] * 3], &verts[hull[i] * 3])
             + vdist2(&verts[hull[i] * 3], &verts[hull[ni] * 3])
             + vdist2(&verts[hull[ni] * 3], &verts[hull[pi] * 3]))
        if d < dmin:
            start = i
            left = ni
            right = pi
            dmin = d
    tris[0] = hull[start]
    tris[1] = hull[left]
    tris[2] = hull[right]
    tris[3] = 0
    nt = 1
    while next_i(left, nhull) != right:
        nleft = next_i(left, nhull)
        nright = prev_i(right, nhull)
        dleft = (vdist2(&verts[hull[left] * 3], &verts[hull[nleft] * 3])
                 + vdist2(&verts[hull[nleft] * 3], &verts[hull[right] * 3]))
        dright = (vdist2(&verts[hull[right] * 3], &verts[hull[nright] * 3])
                  + vdist2(&verts[hull[left] * 3], &verts[hull[nright] * 3]))
        tris[nt * 4] = hull[left]
        tris[nt * 4 + 3] = 0
        if dleft < dright:
            tris[nt * 4 + 1] = hull[nleft]
            tris[nt * 4 + 2] = hull[right]
            left = nleft
        else:
            tris[nt * 4 + 1] = hull[nright]
            tris[nt * 4 + 2] = hull[right]
            right = nright
        nt += 1
    return nt


cdef inline float jitter_x(int i) noexcept nogil:
    return ((<unsigned int> i * <unsigned int> 0x8da6b343) & 0xffff) / <float> 65535.0 * 2 - 1


cdef inline float jitter_y(int i) noexcept nogil:
    return ((<unsigned int> i * <unsigned int> 0xd8163841) & 0xffff) / <float> 65535.0 * 2 - 1


cdef struct Scratch:
    int* edges
    int* tris
    int* along  # per vertex: (corner, corner, k, n): k / n of the way along an edge
    IVec samples
    IVec queue


cdef int build_poly_detail(
    const float* inp, int nin, float sample_dist, float sample_max_error, int radius,
    float cs, float ch, const Patch* hp, float* verts, int* nverts_out, Scratch* w,
) except -1 nogil:
    """Recast's ``buildPolyDetail``: the vertices into ``verts``, the triangles into
    ``w.tris``; their count returned."""
    cdef float edge[(MAX_VERTS_PER_EDGE + 1) * 3]
    cdef int hull[MAX_VERTS]
    cdef int idx[MAX_VERTS_PER_EDGE]
    cdef int nhull = 0, nverts = nin, i, j, k, m, nn, nidx, a, b, maxi, nt
    cdef int x0, x1, z0, z1, x, z, nsamples, it, besti
    cdef float ics = <float> 1.0 / cs, min_extent, dx, dy, dz, d, u, maxd, dev, bestd
    cdef const float* vj
    cdef const float* vi
    cdef const float* tmp
    cdef float* pos
    cdef bint swapped
    cdef float bmin[3]
    cdef float bmax[3]
    cdef float pt[3]
    cdef float bestpt[3]
    cdef int* s
    for i in range(nin * 3):
        verts[i] = inp[i]
    for i in range(MAX_VERTS * 4):
        w.along[i] = -1
    min_extent = poly_min_extent(verts, nverts)
    if sample_dist > 0:
        j = nin - 1
        for i in range(nin):
            vj = &inp[j * 3]
            vi = &inp[i * 3]
            swapped = False
            # always sample from the same end, so both sides of an edge agree
            if fabsf(vj[0] - vi[0]) < <float> 1e-6:
                if vj[2] > vi[2]:
                    tmp = vj
                    vj = vi
                    vi = tmp
                    swapped = True
            elif vj[0] > vi[0]:
                tmp = vj
                vj = vi
                vi = tmp
                swapped = True
            dx = vi[0] - vj[0]
            dy = vi[1] - vj[1]
            dz = vi[2] - vj[2]
            d = sqrtf(dx * dx + dz * dz)
            nn = 1 + <int> floorf(d / sample_dist)
            if nn >= MAX_VERTS_PER_EDGE:
                nn = MAX_VERTS_PER_EDGE - 1
            if nverts + nn >= MAX_VERTS:
                nn = MAX_VERTS - 1 - nverts
            for k in range(nn + 1):
                u = <float> k / <float> nn
                pos = &edge[k * 3]
                pos[0] = vj[0] + dx * u
                pos[1] = vj[1] + dy * u
                pos[2] = vj[2] + dz * u
                pos[1] = get_height(pos[0], pos[1], pos[2], ics, ch, radius, hp) * ch
            idx[0] = 0
            idx[1] = nn
            nidx = 2
            k = 0
            while k < nidx - 1:
                a = idx[k]
                b = idx[k + 1]
                maxd = 0
                maxi = -1
                for m in range(a + 1, b):
                    dev = dist_pt_seg(&edge[m * 3], &edge[a * 3], &edge[b * 3])
                    if dev > maxd:
                        maxd = dev
                        maxi = m
                if maxi != -1 and maxd > sample_max_error * sample_max_error:
                    m = nidx
                    while m > k:
                        idx[m] = idx[m - 1]
                        m -= 1
                    idx[k + 1] = maxi
                    nidx += 1
                else:
                    k += 1
            hull[nhull] = j
            nhull += 1
            # the samples kept, in the polygon's turn (from ``j`` to ``i``); each
            # remembers where along its edge it lies (from the end sampled first)
            for m in range(1, nidx - 1):
                k = idx[nidx - 1 - m] if swapped else idx[m]
                verts[nverts * 3] = edge[k * 3]
                verts[nverts * 3 + 1] = edge[k * 3 + 1]
                verts[nverts * 3 + 2] = edge[k * 3 + 2]
                w.along[nverts * 4] = i if swapped else j
                w.along[nverts * 4 + 1] = j if swapped else i
                w.along[nverts * 4 + 2] = k
                w.along[nverts * 4 + 3] = nn
                hull[nhull] = nverts
                nhull += 1
                nverts += 1
            j = i
    else:
        # Recast leaves the hull empty here (and its triangulation undefined): the
        # polygon's corners are the hull
        for i in range(nin):
            hull[i] = i
        nhull = nin
    nverts_out[0] = nverts
    # a thin polygon (or no sampling): the hull's triangles only
    nt = triangulate_hull(verts, nhull, hull, nin, w.tris)
    if min_extent < sample_dist * 2 or nt == 0:
        return nt
    if sample_dist > 0:
        for k in range(3):
            bmin[k] = inp[k]
            bmax[k] = inp[k]
        for i in range(1, nin):
            for k in range(3):
                if inp[i * 3 + k] < bmin[k]:
                    bmin[k] = inp[i * 3 + k]
                if inp[i * 3 + k] > bmax[k]:
                    bmax[k] = inp[i * 3 + k]
        x0 = <int> floorf(bmin[0] / sample_dist)
        x1 = <int> ceilf(bmax[0] / sample_dist)
        z0 = <int> floorf(bmin[2] / sample_dist)
        z1 = <int> ceilf(bmax[2] / sample_dist)
        w.samples.n = 0
        for z in range(z0, z1):
            for x in range(x0, x1):
                pt[0] = x * sample_dist
                pt[1] = (bmax[1] + bmin[1]) * <float> 0.5
                pt[2] = z * sample_dist
                if dist_to_poly(nin, inp, pt) > -sample_dist / 2:
                    continue
                ivec_reserve(&w.samples, 4)
                s = &w.samples.d[w.samples.n]
                s[0] = x
                s[1] = get_height(pt[0], pt[1], pt[2], ics, ch, radius, hp)
                s[2] = z
                s[3] = 0
                w.samples.n += 4
        nsamples = <int> (w.samples.n // 4)
        for it in range(nsamples):
            if nverts >= MAX_VERTS:
                break
            bestpt[0] = 0
            bestpt[1] = 0
            bestpt[2] = 0
            bestd = 0
            besti = -1
            for i in range(nsamples):
                s = &w.samples.d[i * 4]
                if s[3]:
                    continue
                pt[0] = s[0] * sample_dist + jitter_x(i) * cs * <float> 0.1
                pt[1] = s[1] * ch
                pt[2] = s[2] * sample_dist + jitter_y(i) * cs * <float> 0.1
                if nt == 0:
                    continue
                d = dist_to_tri_mesh(pt, verts, w.tris, nt)
                if d < 0:
                    continue
                if d > bestd:
                    bestd = d
                    besti = i
                    bestpt[0] = pt[0]
                    bestpt[1] = pt[1]
                    bestpt[2] = pt[2]
            if bestd <= sample_max_error or besti == -1:
                break
            w.samples.d[besti * 4 + 3] = 1
            verts[nverts * 3] = bestpt[0]
            verts[nverts * 3 + 1] = bestpt[1]
            verts[nverts * 3 + 2] = bestpt[2]
            nverts += 1
            nverts_out[0] = nverts
            nt = delaunay_hull(nverts, verts, nhull, hull, w.tris, w.edges)
    if nt > MAX_TRIS:
        nt = MAX_TRIS
    return nt


# ---- the height patch ------------------------------------------------------------------

cdef int SEED_OFFSET[18]
SEED_OFFSET[:] = [0, 0, -1, -1, 0, -1, 1, -1, 1, 0, 1, 1, 0, 1, -1, 1, -1, 0]


cdef int seed_poly_center(
    const Chf* chf, const int32_t* poly, int npoly, const int32_t* mverts, Patch* hp,
    IVec* arr,
) except -1 nogil:
    """Recast's ``seedArrayWithPolyCenter``: from the span nearest a vertex, a walk
    toward the polygon's centre; the queue left holding the span reached."""
    cdef const int* offset = SEED_OFFSET
    cdef int start_x = 0, start_y = 0, start_i = -1, dmin = UNSET, j, k, i, ni, ax, ay, az
    cdef int pcx = 0, pcy = 0, cx = -1, cy = -1, ci = -1, direct, dr, nx, ny, hpx, hpy, tmp
    cdef int bs = chf.border, d
    cdef int dirs[4]
    j = 0
    while j < npoly and dmin > 0:
        k = 0
        while k < 9 and dmin > 0:
            ax = mverts[poly[j] * 3] + offset[k * 2]
            ay = mverts[poly[j] * 3 + 1]
            az = mverts[poly[j] * 3 + 2] + offset[k * 2 + 1]
            if not (ax < hp.xmin or ax >= hp.xmin + hp.width
                    or az < hp.ymin or az >= hp.ymin + hp.height):
                i = chf.first[(ax + bs) + (az + bs) * chf.width]
                ni = i + chf.count[(ax + bs) + (az + bs) * chf.width]
                while i < ni and dmin > 0:
                    d = ay - chf.z[i]
                    if d < 0:
                        d = -d
                    if d < dmin:
                        start_x = ax
                        start_y = az
                        start_i = i
                        dmin = d
                    i += 1
            k += 1
        j += 1
    if start_i == -1:
        return 0
    for j in range(npoly):
        pcx += mverts[poly[j] * 3]
        pcy += mverts[poly[j] * 3 + 2]
    pcx = pcx // npoly
    pcy = pcy // npoly
    arr.n = 0
    push3(arr, start_x, start_y, start_i)
    for k in range(4):
        dirs[k] = k
    memset(hp.data, 0, sizeof(uint16_t) * hp.width * hp.height)
    while True:
        if arr.n < 3:
            break  # the walk toward the centre failed (Recast warns and goes on)
        ci = arr.d[arr.n - 1]
        cy = arr.d[arr.n - 2]
        cx = arr.d[arr.n - 3]
        arr.n -= 3
        if cx == pcx and cy == pcy:
            break
        if cx == pcx:
            direct = dir_for(0, 1 if pcy > cy else -1)
        else:
            direct = dir_for(1 if pcx > cx else -1, 0)
        tmp = dirs[direct]
        dirs[direct] = dirs[3]
        dirs[3] = tmp
        for k in range(4):
            dr = dirs[k]
            if chf.con[ci * 4 + dr] < 0:
                continue
            nx = cx + dir_x(dr)
            ny = cy + dir_y(dr)
            hpx = nx - hp.xmin
            hpy = ny - hp.ymin
            if hpx < 0 or hpx >= hp.width or hpy < 0 or hpy >= hp.height:
                continue
            if hp.data[hpx + hpy * hp.width] != 0:
                continue
            hp.data[hpx + hpy * hp.width] = 1
            push3(arr, nx, ny, chf.con[ci * 4 + dr])
        tmp = dirs[direct]
        dirs[direct] = dirs[3]
        dirs[3] = tmp
    arr.n = 0
    push3(arr, cx + bs, cy + bs, ci)
    memset(hp.data, 0xff, sizeof(uint16_t) * hp.width * hp.height)
    hp.data[cx - hp.xmin + (cy - hp.ymin) * hp.width] = <uint16_t> chf.z[ci]
    return 0


cdef int get_height_data(
    const Chf* chf, const int32_t* poly, int npoly, const int32_t* mverts, Patch* hp,
    IVec* queue, int region,
) except -1 nogil:
    """Recast's ``getHeightData``: the floors of the polygon's box into ``hp``."""
    cdef int bs = chf.border, hx, hy, x, y, i, ni, dr, ax, ay, ai, head = 0, cx, cy, ci
    cdef bint empty = True, border
    queue.n = 0
    memset(hp.data, 0xff, sizeof(uint16_t) * hp.width * hp.height)
    if region != MULTIPLE_REGS:
        for hy in range(hp.height):
            y = hp.ymin + hy + bs
            for hx in range(hp.width):
                x = hp.xmin + hx + bs
                i = chf.first[x + y * chf.width]
                ni = i + chf.count[x + y * chf.width]
                while i < ni:
                    if chf.reg[i] == region:
                        hp.data[hx + hy * hp.width] = <uint16_t> chf.z[i]
                        empty = False
                        border = False
                        for dr in range(4):
                            ai = chf.con[i * 4 + dr]
                            if ai >= 0 and chf.reg[ai] != region:
                                border = True
                                break
                        if border:
                            push3(queue, x, y, i)
                        break
                    i += 1
    if empty:
        seed_poly_center(chf, poly, npoly, mverts, hp, queue)
    while head * 3 < queue.n:
        cx = queue.d[head * 3]
        cy = queue.d[head * 3 + 1]
        ci = queue.d[head * 3 + 2]
        head += 1
        if head >= RETRACT_SIZE:
            head = 0
            if queue.n > RETRACT_SIZE * 3:
                memmove(queue.d, &queue.d[RETRACT_SIZE * 3],
                        sizeof(int) * (queue.n - RETRACT_SIZE * 3))
            queue.n -= RETRACT_SIZE * 3
        for dr in range(4):
            ai = chf.con[ci * 4 + dr]
            if ai < 0:
                continue
            ax = cx + dir_x(dr)
            ay = cy + dir_y(dr)
            hx = ax - hp.xmin - bs
            hy = ay - hp.ymin - bs
            if <unsigned int> hx >= <unsigned int> hp.width or <unsigned int> hy >= <unsigned int> hp.height:
                continue
            if hp.data[hx + hy * hp.width] != UNSET:
                continue
            hp.data[hx + hy * hp.width] = <uint16_t> chf.z[ai]
            push3(queue, ax, ay, ai)
    return 0


def build_detail(
    const int32_t[:, ::1] mverts not None,
    const int32_t[:, ::1] polys not None,
    const uint16_t[::1] regions not None,
    int width,
    int depth,
    int border,
    const int32_t[::1] cell_first not None,
    const int32_t[::1] cell_count not None,
    const int32_t[::1] z not None,
    const int32_t[:, ::1] con not None,
    const uint16_t[::1] span_region not None,
    float cs,
    float ch,
    float sample_dist,
    float sample_max_error,
    int height_search_radius,
):
    """Recast's ``rcBuildPolyMeshDetail`` over polygons in cells.

    Parameters
    ----------
    mverts : int32 (v, 3)
        Polygon vertices ``(x, h, r)`` in cells, the border taken off (Recast's
        ``rcPolyMesh.verts``).
    polys : int32 (m, nvp)
        Vertex indices, -1 padded, in Recast's order.
    regions : uint16 (m,)
        Each polygon's region (0: several, Recast's ``RC_MULTIPLE_REGS``).
    width, depth, border, cell_first, cell_count, z, con, span_region
        The compact heightfield (``con``: the neighbour span per direction, -1 none).
    cs, ch, sample_dist, sample_max_error : float
        World units, single precision as Recast's.
    height_search_radius : int
        ``max(1, ceil(max_simplification_error))``.

    Returns
    -------
    (verts, tris, meshes, along)
        ``verts`` float32 (k, 3): every polygon's detail vertices ``(x, h, r)`` in world
        units from the polygon mesh's corner (its corners first; no origin or ``ch``
        offset added); ``tris`` int32 (t, 3): local vertex indices (Recast's edge
        flags are not kept); ``meshes`` int32 (m, 4): first vertex, vertex count, first triangle,
        triangle count; ``along`` int32 (k, 4): for each vertex kept on a polygon
        edge, the edge's corners (local, the end sampled from first) and ``k``, ``n``:
        it lies ``k / n`` of the way along (-1 for the others).
    """
    cdef int m = polys.shape[0], nvp = polys.shape[1], ncell = width * depth
    cdef Py_ssize_t n = z.shape[0]
    cdef int i, j, k, npoly, maxhw = 0, maxhh = 0, nverts, nt, xmin, xmax, ymin, ymax
    if m == 0:
        return (np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32),
                np.zeros((0, 4), np.int32), np.zeros((0, 4), np.int32))
    if regions.shape[0] != m:
        raise ValueError("regions must have one entry per polygon")
    if mverts.shape[1] != 3 or not 3 <= nvp <= 6:
        raise ValueError("mverts must be (v, 3) and polys (m, 3..6)")
    if (cell_first.shape[0] != ncell or cell_count.shape[0] != ncell or con.shape[0] != n
            or con.shape[1] != 4 or span_region.shape[0] != n or n == 0):
        raise ValueError("the heightfield's arrays disagree on their sizes")
    if not cs > 0 or not ch > 0 or sample_dist < 0 or sample_max_error < 0:
        raise ValueError("cs and ch must be > 0, the sampling settings >= 0")
    mv_max = np.asarray(mverts).max(axis=0) if mverts.shape[0] else np.zeros(3)
    if mverts.shape[0] and (np.asarray(mverts).min() < 0 or mv_max[0] + border > width
                            or mv_max[2] + border > depth):
        raise ValueError("mverts lie outside the heightfield")
    pa = np.asarray(polys)
    if ((pa >= mverts.shape[0]) | (pa < -1)).any() or (pa[:, :3] < 0).any():
        raise ValueError("polys name vertices outside mverts (or have fewer than 3)")
    ca = np.asarray(con)
    if ((ca < -1) | (ca >= n)).any():
        raise ValueError("con names spans outside the heightfield")
    bounds_a = np.zeros((m, 4), np.int32)
    cdef int[:, ::1] bounds = bounds_a
    for i in range(m):
        xmin, xmax, ymin, ymax = width, 0, depth, 0
        for j in range(nvp):
            if polys[i, j] < 0:
                break
            xmin = min(xmin, mverts[polys[i, j], 0])
            xmax = max(xmax, mverts[polys[i, j], 0])
            ymin = min(ymin, mverts[polys[i, j], 2])
            ymax = max(ymax, mverts[polys[i, j], 2])
        xmin = max(0, xmin - 1)
        xmax = min(width, xmax + 1)
        ymin = max(0, ymin - 1)
        ymax = min(depth, ymax + 1)
        bounds[i, 0], bounds[i, 1], bounds[i, 2], bounds[i, 3] = xmin, xmax, ymin, ymax
        if xmin >= xmax or ymin >= ymax:
            continue
        maxhw = max(maxhw, xmax - xmin)
        maxhh = max(maxhh, ymax - ymin)
    meshes_a = np.zeros((m, 4), np.int32)
    cdef int[:, ::1] meshes = meshes_a
    cdef Chf c
    c.width = width
    c.border = border
    c.first = &cell_first[0]
    c.count = &cell_count[0]
    c.z = &z[0]
    c.con = &con[0, 0]
    c.reg = &span_region[0]
    cdef Patch hp
    cdef Scratch w
    cdef IVec out_v, out_t, out_e
    cdef float poly[18]
    cdef float verts[256 * 3]
    cdef const int32_t* mv = &mverts[0, 0]
    cdef const int32_t* pp
    memset(&w, 0, sizeof(w))
    memset(&out_v, 0, sizeof(out_v))
    memset(&out_t, 0, sizeof(out_t))
    memset(&out_e, 0, sizeof(out_e))
    hp.data = <uint16_t*> malloc(sizeof(uint16_t) * max(maxhw * maxhh, 1))
    w.edges = <int*> malloc(sizeof(int) * MAX_EDGES * 4)
    w.tris = <int*> malloc(sizeof(int) * MAX_FACES * 4)
    w.along = <int*> malloc(sizeof(int) * MAX_VERTS * 4)
    try:
        if hp.data == NULL or w.edges == NULL or w.tris == NULL or w.along == NULL:
            raise MemoryError("detail mesh: out of memory")
        with nogil:
            for i in range(m):
                pp = &polys[i, 0]
                npoly = 0
                for j in range(nvp):
                    if pp[j] < 0:
                        break
                    poly[j * 3] = mv[pp[j] * 3] * cs
                    poly[j * 3 + 1] = mv[pp[j] * 3 + 1] * ch
                    poly[j * 3 + 2] = mv[pp[j] * 3 + 2] * cs
                    npoly += 1
                hp.xmin = bounds[i, 0]
                hp.ymin = bounds[i, 2]
                hp.width = bounds[i, 1] - bounds[i, 0]
                hp.height = bounds[i, 3] - bounds[i, 2]
                if hp.width <= 0 or hp.height <= 0:
                    hp.width = max(hp.width, 0)
                    hp.height = max(hp.height, 0)
                get_height_data(&c, pp, npoly, mv, &hp, &w.queue, regions[i])
                nverts = 0
                nt = build_poly_detail(poly, npoly, sample_dist, sample_max_error,
                                       height_search_radius, cs, ch, &hp, verts, &nverts, &w)
                meshes[i, 0] = <int> (out_v.n // 3)
                meshes[i, 1] = nverts
                meshes[i, 2] = <int> (out_t.n // 3)
                meshes[i, 3] = nt
                # (the floats stored in an int vector's bytes: both are 4 bytes wide)
                ivec_reserve(&out_v, nverts * 3)
                for j in range(nverts * 3):
                    (<float*> out_v.d)[out_v.n + j] = verts[j]
                out_v.n += nverts * 3
                ivec_reserve(&out_e, nverts * 4)
                for j in range(nverts * 4):
                    out_e.d[out_e.n + j] = w.along[j]
                out_e.n += nverts * 4
                ivec_reserve(&out_t, nt * 3)
                for j in range(nt):
                    for k in range(3):
                        out_t.d[out_t.n + j * 3 + k] = w.tris[j * 4 + k]
                out_t.n += nt * 3
        verts_a = np.empty((out_v.n // 3, 3), np.float32)
        tris_a = np.empty((out_t.n // 3, 3), np.int32)
        along_a = np.empty((out_e.n // 4, 4), np.int32)
        if out_e.n:
            along_a.reshape(-1)[:] = np.frombuffer(
                (<char*> out_e.d)[: out_e.n * sizeof(int)], np.int32)
        if out_v.n:
            verts_a.reshape(-1)[:] = np.frombuffer(
                (<char*> out_v.d)[: out_v.n * sizeof(float)], np.float32)
        if out_t.n:
            tris_a.reshape(-1)[:] = np.frombuffer(
                (<char*> out_t.d)[: out_t.n * sizeof(int)], np.int32)
    finally:
        free(hp.data)
        free(w.edges)
        free(w.tris)
        free(w.along)
        free(out_e.d)
        free(w.samples.d)
        free(w.queue.d)
        free(out_v.d)
        free(out_t.d)
    return verts_a, tris_a, meshes_a, along_a
