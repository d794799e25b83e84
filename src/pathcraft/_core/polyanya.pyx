# cython: language_level=3
"""Polyanya: optimal any-angle search over a navigation mesh, with no preprocessing.

After M. Cui, D. Harabor, A. Grastien, "Compromise-free Pathfinding on a Navigation
Mesh", IJCAI 2017. Written from the paper's description (no code copied).

Why one module of about 800 lines: it is one algorithm, and its node struct, the
interval geometry (``cross``, ``heuristic``, ``push_successor``, ``expand``) and the
step machine share ``cdef`` structs and ``inline`` functions that the C compiler can
inline only within one module; split, each piece would need a ``.pxd`` of its own for
no reader's gain.

A search node is an *interval* ``[pa, pb]`` on one edge of the mesh, a *root* (the
start point or a mesh vertex) that sees every point of the interval, and the polygon
on the far side of the interval from the root (the polygon the node expands into).
``g`` is the length of the taut path from the start to the root, and

    f = g + h,   h = the shortest distance from the root through the interval to the
                     goal (the goal mirrored across the interval's line when it lies on
                     the root's side; through an endpoint when the straight line misses
                     the interval),

a lower bound, so the first goal node popped is optimal.

Expanding a node projects the two rays root -> pa and root -> pb through its polygon.
The part of the polygon's far boundary between the rays is *observable*: successors
there keep the root. When an interval endpoint is a *corner* vertex (a vertex on the
mesh boundary, where a taut path may turn) the boundary beyond the ray on its side
gets *non-observable* successors rooted at that vertex. When the root lies on the
interval's own edge (a root at one of its vertices) the whole polygon is observable.
An interval seen edge-on (its edge's line passes through the root, which is not one of
its ends; common on grid meshes, whose edges line up) lets nothing through, but a path
can run along it to its nearer end: the node is kept with that end as its root, and
the root it replaced is remembered for the path. At a corner the path may turn there;
at a vertex inside the walkable area it goes on straight along the line of edges. A
root inside the walkable area that lies on the edge into a polygon sees the whole
polygon, and the polygons round it close into a fan: each is entered from that root
once per cost (a table of (polygon, root) -> g per query), or the fan is walked for
ever.
A ray through an interval end that is a vertex inside the walkable area, and runs on
along the polygon's own edges beyond it (a line of edges again), passes no corner: those
edges are seen edge-on and pushed with the node's root, so a straight path goes on along
them (only the run of edges on the ray itself: another edge whose line happens to pass
through the root lies beyond a wall).
Interval ends are computed crossings of rays with edges, so a vertex within rounding
of a ray (relative ``SNAP``) is taken to lie on it: the ray ends exactly at the vertex,
whose corner is then turned round (a ray from a corner that grazed a later corner by
2e-16 once missed the turn there, and the shortest path with it).
Every vertex on the mesh boundary counts as a corner (a superset of the reflex ones:
more nodes, never a missed path).

Pruning: a node entering a dead-end polygon (one neighbour) that holds no goal is
dropped; a node whose root vertex was reached before with a smaller g is dropped
(root-level pruning, with generation stamps so nothing is cleared per query).

Mesh arrays (their shapes are checked per query, their contents trusted:
:mod:`pathcraft.navmesh` builds and checks them): ``xy``
(vertex coordinates), ``poff``/``pv`` (polygon vertex lists as CSR, counter-clockwise),
``nbr`` (the polygon across each polygon edge ``pv[k] -> pv[k + 1]``, -1 on the
boundary), ``twin`` (that edge's place in the neighbour's list) and ``corner`` (1 for
vertices on the boundary).
"""

from libc.math cimport fabs, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.bounds cimport check_indices, check_mesh, check_rows
from pathcraft._core.codes cimport (
    ST_FOUND,
    ST_IN_PROGRESS,
    ST_MAX_EXPANSIONS,
    ST_UNREACHABLE,
)
from pathcraft._core.machine cimport Machine, begin, zalloc, zfree
from pathcraft._core.heap cimport Heap, HeapEntry, heap_clear, heap_free, heap_init, heap_pop, heap_push

# Kinds of node: an interval, or a goal node that reaches the goal straight from its
# root, or by turning at the interval's a-end or b-end first.
cdef enum:
    K_INTERVAL = 0
    K_GOAL_STRAIGHT = 1
    K_GOAL_VIA_A = 2
    K_GOAL_VIA_B = 3


# Relative tolerance of "a vertex lies on a ray" (of the cross product against the
# product of the two lengths, in the L1 norm): a few hundred roundings of a double.
cdef double SNAP = 1e-12


cdef struct Node:
    double ax, ay          # interval end towards the entry edge's first vertex (A)
    double bx, by          # interval end towards its second vertex (B)
    double rx, ry          # the root
    double g               # path length from the start to the root
    int32_t root           # vertex index, -1 for the start
    int32_t poly           # the polygon this node expands into
    int64_t edge           # the entry edge's place in pv (edge A -> B of poly)
    int32_t parent         # index in the node pool, -1 for the first nodes
    int32_t kind
    int32_t pre            # the root this node turned at before its own (-2: none)
    double px, py          # that earlier root


cdef inline double cross(double ox, double oy, double ax, double ay, double bx, double by) noexcept nogil:
    """Twice the signed area of (o, a, b): > 0 when b is left of the ray o -> a."""
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


cdef inline double dist(double ax, double ay, double bx, double by) noexcept nogil:
    return sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by))


cdef class Workspace:
    """Per-thread search state for meshes of up to ``capacity`` vertices and
    ``capacity`` polygons."""

    cdef readonly Py_ssize_t capacity
    cdef double* best_g
    cdef uint32_t* root_mark
    cdef uint32_t* goal_mark
    cdef uint32_t* point_mark
    cdef int32_t* point_v
    cdef double* point_g
    cdef uint32_t gen
    cdef Node* nodes
    cdef Py_ssize_t size
    cdef Py_ssize_t node_capacity
    cdef Heap heap
    # The fans walked round a root that is no corner (see push_successor): an open
    # addressing table of (polygon, root) -> g, entries of older queries read as empty.
    cdef int64_t* fan_key
    cdef double* fan_g
    cdef uint32_t* fan_mark
    cdef Py_ssize_t fan_capacity   # a power of two
    cdef Py_ssize_t fan_count      # entries of this query

    def __cinit__(self, Py_ssize_t capacity):
        cdef Py_ssize_t i
        self.capacity = max(capacity, 1)
        # Per-vertex and per-polygon arrays zeroed and untouched (machine.pxd's
        # zalloc): the marks start at 0, older than any generation, and a page takes
        # memory once a search writes it.
        self.best_g = <double*> zalloc(self.capacity * sizeof(double))
        self.root_mark = <uint32_t*> zalloc(self.capacity * sizeof(uint32_t))
        self.goal_mark = <uint32_t*> zalloc(self.capacity * sizeof(uint32_t))
        self.point_mark = <uint32_t*> zalloc(self.capacity * sizeof(uint32_t))
        self.point_v = <int32_t*> zalloc(self.capacity * sizeof(int32_t))
        self.point_g = <double*> zalloc(self.capacity * sizeof(double))
        self.node_capacity = 1024
        self.size = 0
        self.nodes = <Node*> malloc(self.node_capacity * sizeof(Node))
        self.gen = 1
        self.fan_capacity = 256
        self.fan_count = 0
        self.fan_key = <int64_t*> malloc(self.fan_capacity * sizeof(int64_t))
        self.fan_g = <double*> malloc(self.fan_capacity * sizeof(double))
        self.fan_mark = <uint32_t*> malloc(self.fan_capacity * sizeof(uint32_t))
        if (self.best_g == NULL or self.root_mark == NULL or self.goal_mark == NULL
                or self.point_mark == NULL or self.point_v == NULL or self.point_g == NULL
                or self.nodes == NULL or self.fan_key == NULL or self.fan_g == NULL
                or self.fan_mark == NULL or heap_init(&self.heap, 1024) != 0):
            raise MemoryError("could not allocate a Polyanya workspace")
        for i in range(self.fan_capacity):
            self.fan_mark[i] = 0

    def __dealloc__(self):
        zfree(self.best_g, self.capacity * sizeof(double))
        zfree(self.root_mark, self.capacity * sizeof(uint32_t))
        zfree(self.goal_mark, self.capacity * sizeof(uint32_t))
        zfree(self.point_mark, self.capacity * sizeof(uint32_t))
        zfree(self.point_v, self.capacity * sizeof(int32_t))
        zfree(self.point_g, self.capacity * sizeof(double))
        free(self.nodes)
        free(self.fan_key)
        free(self.fan_g)
        free(self.fan_mark)
        heap_free(&self.heap)

    cdef void clear_marks(self) noexcept nogil:
        """Zero every generation stamp: nothing is marked for any generation."""
        cdef Py_ssize_t i
        for i in range(self.capacity):
            self.root_mark[i] = 0
            self.goal_mark[i] = 0
            self.point_mark[i] = 0
        for i in range(self.fan_capacity):
            self.fan_mark[i] = 0

    cdef void next_generation(self) noexcept nogil:
        if self.gen >= 4294967290u:
            self.clear_marks()
            self.gen = 0
        self.gen += 1
        self.size = 0
        self.fan_count = 0
        heap_clear(&self.heap)

    cdef Py_ssize_t fan_slot(self, int64_t key) noexcept nogil:
        """The slot of ``key`` in the fan table, or the empty slot where it goes."""
        cdef Py_ssize_t mask = self.fan_capacity - 1
        cdef Py_ssize_t i = <Py_ssize_t> ((<uint64_t> key * 0x9E3779B97F4A7C15ULL) >> 20) & mask
        while self.fan_mark[i] == self.gen and self.fan_key[i] != key:
            i = (i + 1) & mask
        return i

    cdef int fan_grow(self) noexcept nogil:
        """Double the fan table, keeping this query's entries; -1 when memory ran out."""
        cdef Py_ssize_t old_cap = self.fan_capacity, i, j
        cdef int64_t* keys = self.fan_key
        cdef double* gs = self.fan_g
        cdef uint32_t* marks = self.fan_mark
        cdef int64_t* nk = <int64_t*> malloc(2 * old_cap * sizeof(int64_t))
        cdef double* ng = <double*> malloc(2 * old_cap * sizeof(double))
        cdef uint32_t* nm = <uint32_t*> malloc(2 * old_cap * sizeof(uint32_t))
        if nk == NULL or ng == NULL or nm == NULL:
            free(nk)
            free(ng)
            free(nm)
            return -1
        for i in range(2 * old_cap):
            nm[i] = 0
        self.fan_key, self.fan_g, self.fan_mark = nk, ng, nm
        self.fan_capacity = 2 * old_cap
        for i in range(old_cap):
            if marks[i] == self.gen:
                j = self.fan_slot(keys[i])
                nk[j] = keys[i]
                ng[j] = gs[i]
                nm[j] = self.gen
        free(keys)
        free(gs)
        free(marks)
        return 0

    cdef int fan_seen(self, int32_t poly, int32_t root, double g, Py_ssize_t nverts) noexcept nogil:
        """Whether ``poly`` was entered before, this query, from the non-corner ``root``
        on its boundary at a cost no higher than ``g`` (1: drop the node); else note
        it (0), or -1 when memory ran out."""
        cdef int64_t key = <int64_t> poly * nverts + root
        cdef Py_ssize_t i = self.fan_slot(key)
        if self.fan_mark[i] == self.gen:
            if g >= self.fan_g[i] * (1.0 - 1e-12) - 1e-12:
                return 1
            self.fan_g[i] = g
            return 0
        if 2 * (self.fan_count + 1) > self.fan_capacity:
            if self.fan_grow() != 0:
                return -1
            i = self.fan_slot(key)
        self.fan_key[i] = key
        self.fan_g[i] = g
        self.fan_mark[i] = self.gen
        self.fan_count += 1
        return 0

    cdef Node* new_node(self) noexcept nogil:
        """A fresh node at the end of the pool (NULL when memory ran out)."""
        cdef Py_ssize_t cap
        cdef Node* grown
        if self.size >= 2147483646:
            return NULL  # parents are int32: the pool is full (reported as out of memory)
        if self.size == self.node_capacity:
            cap = self.node_capacity * 2
            grown = <Node*> realloc(self.nodes, cap * sizeof(Node))
            if grown == NULL:
                return NULL
            self.nodes = grown
            self.node_capacity = cap
        self.size += 1
        return &self.nodes[self.size - 1]


cdef struct Mesh:
    const double* xy
    const int64_t* poff
    const int32_t* pv
    const int32_t* nbr
    const int64_t* twin
    const int32_t* poly_of
    const uint8_t* corner
    const int32_t* degree     # neighbours of each polygon
    double gx, gy             # the goal


cdef inline double heuristic(
    double rx, double ry, double ax, double ay, double bx, double by,
    double ex, double ey, double fx, double fy, double gx, double gy,
    int* via,
) noexcept nogil:
    """Shortest distance from root r through the interval [a, b] (on the edge line
    e -> f) to the goal g; ``via`` tells whether the straight line passes (0) or the
    path turns at a (1) or b (2)."""
    cdef double sr = cross(ex, ey, fx, fy, rx, ry)
    cdef double sg = cross(ex, ey, fx, fy, gx, gy)
    cdef double dx, dy, t, ll, da, db, ca, cb
    if (sr > 0 and sg > 0) or (sr < 0 and sg < 0):
        # Mirror the goal across the edge line.
        dx = fx - ex
        dy = fy - ey
        ll = dx * dx + dy * dy
        t = ((gx - ex) * dx + (gy - ey) * dy) / ll
        gx, gy = 2.0 * (ex + t * dx) - gx, 2.0 * (ey + t * dy) - gy
    if sr != 0:
        # a is on the root's left, b on its right (looking through the interval).
        ca = cross(rx, ry, ax, ay, gx, gy)
        cb = cross(rx, ry, bx, by, gx, gy)
        if ca <= 0 and cb >= 0:
            via[0] = 0
            return dist(rx, ry, gx, gy)
        if ca > 0:
            via[0] = 1
            return dist(rx, ry, ax, ay) + dist(ax, ay, gx, gy)
        via[0] = 2
        return dist(rx, ry, bx, by) + dist(bx, by, gx, gy)
    da = dist(rx, ry, ax, ay) + dist(ax, ay, gx, gy)
    db = dist(rx, ry, bx, by) + dist(bx, by, gx, gy)
    if da <= db:
        via[0] = 1
        return da
    via[0] = 2
    return db


cdef inline int push_successor(
    Workspace ws, Mesh* m, int32_t parent, int32_t root, double rx, double ry, double g,
    int64_t fe, double sx, double sy, double tx, double ty, int64_t* generated,
) noexcept nogil:
    """Push the node for the interval [s, t] on polygon edge ``fe`` (s towards the
    edge's first vertex), seen from the root, into the polygon across. 0, or -1 when
    memory ran out."""
    cdef int32_t q = m.nbr[fe]
    cdef int32_t u, v, corner_v
    cdef int64_t tw, beg, n
    cdef double c, h, ux, uy, vx, vy
    cdef int via = 0
    cdef int seen
    cdef int32_t pre = -2
    cdef double px = 0, py = 0
    cdef Node* node
    if q < 0:
        return 0
    if m.degree[q] == 1 and ws.goal_mark[q] != ws.gen:
        return 0
    u = m.pv[fe]
    beg = m.poff[m.poly_of[fe]]
    n = m.poff[m.poly_of[fe] + 1] - beg
    v = m.pv[beg + (fe - beg + 1) % n]
    ux = m.xy[2 * u]
    uy = m.xy[2 * u + 1]
    vx = m.xy[2 * v]
    vy = m.xy[2 * v + 1]
    if sx == tx and sy == ty and not (
        (sx == ux and sy == uy and m.corner[u]) or (sx == vx and sy == vy and m.corner[v])
    ):
        # An interval shrunk to a point lets nothing through, unless the point is a
        # corner at an end of the edge: a taut path can pass through it and turn there.
        return 0
    if sx == tx and sy == ty:
        # Such a point goes round its corner from polygon to polygon at the same cost:
        # enter each polygon through the corner once per cost, or the fan of polygons
        # around it is walked for ever (seconds and gigabytes on dao/orz900d).
        corner_v = u if (sx == ux and sy == uy) else v
        h = g + dist(rx, ry, sx, sy)
        if (ws.point_mark[q] == ws.gen and ws.point_v[q] == corner_v
                and h >= ws.point_g[q] * (1.0 - 1e-12) - 1e-12):
            return 0
        ws.point_mark[q] = ws.gen
        ws.point_v[q] = corner_v
        ws.point_g[q] = h
    c = cross(ux, uy, vx, vy, rx, ry)
    if c == 0 and root != u and root != v:
        # Seen edge-on: nothing beyond the edge is visible through it, but a path can
        # run along it to its nearer end: turn there if that end is a corner, or go on
        # straight along a line of edges through it if it is not (a vertex inside the
        # walkable area, where no taut path turns, but a straight one passes).
        pre = root
        px, py = rx, ry
        if dist(rx, ry, sx, sy) <= dist(rx, ry, tx, ty):
            if not (sx == ux and sy == uy):
                return 0
            g = g + dist(rx, ry, ux, uy)
            root = u
            rx, ry = ux, uy
        else:
            if not (tx == vx and ty == vy):
                return 0
            g = g + dist(rx, ry, vx, vy)
            root = v
            rx, ry = vx, vy
    if root >= 0 and not m.corner[root] and (root == u or root == v):
        # A root inside the walkable area on the edge into q sees all of q, and q's
        # edges at the root lead on round the root's fan of polygons, which closes on
        # itself: enter each polygon of the fan once per cost.
        seen = ws.fan_seen(q, root, g, ws.capacity)
        if seen != 0:
            return -1 if seen < 0 else 0
    if root >= 0:
        if ws.root_mark[root] == ws.gen:
            if g > ws.best_g[root] * (1.0 + 1e-12) + 1e-12:
                return 0
            if g < ws.best_g[root]:
                ws.best_g[root] = g
        else:
            ws.root_mark[root] = ws.gen
            ws.best_g[root] = g
    tw = m.twin[fe]
    # In q the edge runs v -> u: its a-end is towards v (our t), its b-end towards u.
    h = heuristic(rx, ry, tx, ty, sx, sy, vx, vy, ux, uy, m.gx, m.gy, &via)
    node = ws.new_node()
    if node == NULL:
        return -1
    node.ax = tx
    node.ay = ty
    node.bx = sx
    node.by = sy
    node.rx = rx
    node.ry = ry
    node.g = g
    node.root = root
    node.poly = q
    node.edge = tw
    node.parent = parent
    node.kind = K_INTERVAL
    node.pre = pre
    node.px = px
    node.py = py
    generated[0] += 1
    if heap_push(&ws.heap, g + h, -g, ws.size - 1) != 0:
        return -1
    return 0


cdef inline void vertex_at(Mesh* m, int64_t beg, int64_t n, int64_t j, double* x, double* y) noexcept nogil:
    cdef int32_t w = m.pv[beg + j % n]
    x[0] = m.xy[2 * w]
    y[0] = m.xy[2 * w + 1]


cdef inline int push_edge_on(
    Workspace ws, Mesh* m, int32_t idx, Node* nd, int64_t beg, int64_t n, int64_t e,
    int64_t* generated,
) noexcept nogil:
    """Push the whole edge ``e`` of polygon (``beg``, ``n``) (its place ``beg + e % n``)
    with node ``idx``'s root when the edge's line passes through the root (seen
    edge-on: push_successor re-roots it at the nearer end). 0, or -1 when memory ran
    out."""
    cdef double wx, wy, w2x, w2y
    vertex_at(m, beg, n, e, &wx, &wy)
    vertex_at(m, beg, n, e + 1, &w2x, &w2y)
    if cross(wx, wy, w2x, w2y, nd.rx, nd.ry) != 0:
        return 0
    return push_successor(ws, m, idx, nd.root, nd.rx, nd.ry, nd.g, beg + e % n,
                          wx, wy, w2x, w2y, generated)


cdef int expand(Workspace ws, Mesh* m, int32_t idx, int64_t* generated, double* cr, double* cl) noexcept nogil:
    """Generate the successors of node ``idx``. 0, or -1 when memory ran out."""
    cdef Node nd = ws.nodes[idx]
    cdef int32_t P = nd.poly
    cdef int64_t beg = m.poff[P]
    cdef int64_t n = m.poff[P + 1] - beg
    cdef int64_t j = nd.edge - beg        # the entry edge A -> B is edge j of P
    cdef int32_t A = m.pv[nd.edge]
    cdef int32_t B = m.pv[beg + (j + 1) % n]
    cdef double Ax = m.xy[2 * A], Ay = m.xy[2 * A + 1]
    cdef double Bx = m.xy[2 * B], By = m.xy[2 * B + 1]
    cdef double wx, wy, w2x, w2y, rxx, rxy, lxx, lxy, t, g2, al, bl, wl
    cdef int64_t i, k, k2, last
    # The far boundary: vertices w_0 = B, w_1, ..., w_{n-1} = A and edges
    # E_i = w_i -> w_{i+1} (i < n - 1), at places beg + (j + 1 + i) % n.
    last = n - 1
    if nd.root == A or nd.root == B or cross(Ax, Ay, Bx, By, nd.rx, nd.ry) == 0:
        for i in range(last):
            vertex_at(m, beg, n, j + 1 + i, &wx, &wy)
            vertex_at(m, beg, n, j + 2 + i, &w2x, &w2y)
            if push_successor(ws, m, idx, nd.root, nd.rx, nd.ry, nd.g, beg + (j + 1 + i) % n,
                              wx, wy, w2x, w2y, generated) != 0:
                return -1
        return 0
    bl = fabs(nd.bx - nd.rx) + fabs(nd.by - nd.ry)
    al = fabs(nd.ax - nd.rx) + fabs(nd.ay - nd.ry)
    for i in range(n):
        vertex_at(m, beg, n, j + 1 + i, &wx, &wy)
        cr[i] = cross(nd.rx, nd.ry, nd.bx, nd.by, wx, wy)
        cl[i] = cross(nd.rx, nd.ry, nd.ax, nd.ay, wx, wy)
        # A vertex on a ray up to rounding is on it: interval ends are computed
        # crossings, and a ray through a vertex must end exactly there (so that a
        # corner there is turned round, a line of edges from it followed).
        wl = fabs(wx - nd.rx) + fabs(wy - nd.ry)
        if fabs(cr[i]) <= SNAP * bl * wl:
            cr[i] = 0
        if fabs(cl[i]) <= SNAP * al * wl:
            cl[i] = 0
    # Right ray (root -> b) leaves P on edge E_k; left ray (root -> a) on E_{k2 - 1}.
    k = 0
    while k + 1 < last and cr[k + 1] <= 0:
        k += 1
    k2 = last
    while k2 - 1 >= 1 and cl[k2 - 1] >= 0:
        k2 -= 1
    vertex_at(m, beg, n, j + 1 + k, &wx, &wy)
    if cr[k] == 0:
        rxx, rxy = wx, wy
    else:
        vertex_at(m, beg, n, j + 2 + k, &w2x, &w2y)
        t = cr[k] / (cr[k] - cr[k + 1])
        rxx, rxy = wx + t * (w2x - wx), wy + t * (w2y - wy)
    vertex_at(m, beg, n, j + 1 + k2, &w2x, &w2y)
    if cl[k2] == 0:
        lxx, lxy = w2x, w2y
    else:
        vertex_at(m, beg, n, j + k2, &wx, &wy)
        t = cl[k2 - 1] / (cl[k2 - 1] - cl[k2])
        lxx, lxy = wx + t * (w2x - wx), wy + t * (w2y - wy)
    # Observable successors: edges E_k .. E_{k2-1}, clipped to the rays.
    for i in range(k, k2):
        if i == k:
            wx, wy = rxx, rxy
        else:
            vertex_at(m, beg, n, j + 1 + i, &wx, &wy)
        if i == k2 - 1:
            w2x, w2y = lxx, lxy
        else:
            vertex_at(m, beg, n, j + 2 + i, &w2x, &w2y)
        if push_successor(ws, m, idx, nd.root, nd.rx, nd.ry, nd.g, beg + (j + 1 + i) % n,
                          wx, wy, w2x, w2y, generated) != 0:
            return -1
    # A ray through an interval end at a vertex inside the walkable area that goes on
    # along P's own edges (a line of edges, common on grid meshes) passes no corner:
    # those edges are seen edge-on from the root, and a straight path runs along them
    # into the polygons beyond (push_successor re-roots it at each edge's nearer end).
    # Only the run of edges on the ray itself, from B (or A) on: another edge whose line
    # passes through the root lies beyond a wall.
    if nd.bx == Bx and nd.by == By and not m.corner[B]:
        i = 0
        while i < last and cr[i + 1] == 0:
            if push_edge_on(ws, m, idx, &nd, beg, n, j + 1 + i, generated) != 0:
                return -1
            i += 1
    if nd.ax == Ax and nd.ay == Ay and not m.corner[A]:
        i = last - 1
        while i > 0 and cl[i] == 0:
            if push_edge_on(ws, m, idx, &nd, beg, n, j + 1 + i, generated) != 0:
                return -1
            i -= 1
    # Non-observable successors, turning at a corner at an end of the interval.
    if nd.bx == Bx and nd.by == By and m.corner[B]:
        g2 = nd.g + dist(nd.rx, nd.ry, Bx, By)
        for i in range(k + 1):
            vertex_at(m, beg, n, j + 1 + i, &wx, &wy)
            if i == k:
                w2x, w2y = rxx, rxy
            else:
                vertex_at(m, beg, n, j + 2 + i, &w2x, &w2y)
            if push_successor(ws, m, idx, B, Bx, By, g2, beg + (j + 1 + i) % n,
                              wx, wy, w2x, w2y, generated) != 0:
                return -1
    if nd.ax == Ax and nd.ay == Ay and m.corner[A]:
        g2 = nd.g + dist(nd.rx, nd.ry, Ax, Ay)
        for i in range(k2 - 1, last):
            if i == k2 - 1:
                wx, wy = lxx, lxy
            else:
                vertex_at(m, beg, n, j + 1 + i, &wx, &wy)
            vertex_at(m, beg, n, j + 2 + i, &w2x, &w2y)
            if push_successor(ws, m, idx, A, Ax, Ay, g2, beg + (j + 1 + i) % n,
                              wx, wy, w2x, w2y, generated) != 0:
                return -1
    return 0


cdef int push_goal(Workspace ws, Mesh* m, int32_t idx, int64_t* generated) noexcept nogil:
    """The node that ends the path: from ``idx``'s root through its interval to the goal
    in its polygon, with its exact cost as f."""
    cdef Node nd = ws.nodes[idx]
    cdef int64_t beg = m.poff[nd.poly]
    cdef int64_t n = m.poff[nd.poly + 1] - beg
    cdef int32_t A = m.pv[nd.edge]
    cdef int32_t B = m.pv[beg + (nd.edge - beg + 1) % n]
    cdef int via = 0
    cdef double cost
    cdef Node* goal
    cost = nd.g + heuristic(nd.rx, nd.ry, nd.ax, nd.ay, nd.bx, nd.by,
                            m.xy[2 * A], m.xy[2 * A + 1], m.xy[2 * B], m.xy[2 * B + 1],
                            m.gx, m.gy, &via)
    goal = ws.new_node()
    if goal == NULL:
        return -1
    goal[0] = nd
    goal.parent = idx
    goal.pre = -2
    goal.kind = K_GOAL_STRAIGHT if via == 0 else (K_GOAL_VIA_A if via == 1 else K_GOAL_VIA_B)
    goal.g = cost
    generated[0] += 1
    if heap_push(&ws.heap, cost, -cost, ws.size - 1) != 0:
        return -1
    return 0


cdef class PolyanyaSearch(Machine):
    """One Polyanya query as a step machine: :meth:`step` expands at most ``n`` search
    nodes and returns the status, ``IN_PROGRESS`` until the search ends; :meth:`answer`
    is then what :func:`search` returns. The blocking :func:`search` is one unlimited
    step of it. The search holds its workspace and the mesh arrays it reads."""

    cdef Mesh m
    cdef Workspace ws
    cdef object keep
    cdef double* cr
    cdef double* cl
    cdef int64_t max_expansions
    cdef int32_t found_idx
    cdef bint direct
    cdef int32_t direct_poly
    cdef double sx, sy

    def __cinit__(self, *args, **kwargs):
        self.cr = NULL
        self.cl = NULL

    def __dealloc__(self):
        free(self.cr)
        free(self.cl)

    def __init__(
        self,
        const double[:, ::1] xy not None,
        const int64_t[::1] poff not None,
        const int32_t[::1] pv not None,
        const int32_t[::1] nbr not None,
        const int64_t[::1] twin not None,
        const int32_t[::1] poly_of not None,
        const uint8_t[::1] corner not None,
        const int32_t[::1] degree not None,
        Workspace ws not None,
        double sx, double sy,
        const int32_t[::1] start_polys not None,
        double gx, double gy,
        const int32_t[::1] goal_polys not None,
        int64_t max_expansions,
    ):
        cdef Mesh* m = &self.m
        cdef Py_ssize_t i, s, nmax = 0
        cdef Py_ssize_t npoly = check_mesh(xy, poff, pv, nbr), nv = xy.shape[0]
        cdef int64_t beg, n, e
        cdef int32_t p
        cdef int failed = 0
        # The boundary: shapes in O(1), the query's polygons in O(k).
        check_rows("twin", twin, pv.shape[0], "pv")
        check_rows("poly_of", poly_of, pv.shape[0], "pv")
        check_rows("corner", corner, nv, "xy")
        check_rows("degree", degree, npoly, "poff[1:]")
        if ws.capacity < nv or ws.capacity < npoly:
            raise ValueError(
                f"workspace of {ws.capacity} is too small for {nv} vertices and {npoly} polygons"
            )
        if start_polys.shape[0] == 0 or goal_polys.shape[0] == 0:
            raise ValueError("start_polys and goal_polys need at least one polygon each")
        check_indices[int32_t]("start_polys", start_polys, npoly, "polygon")
        check_indices[int32_t]("goal_polys", goal_polys, npoly, "polygon")
        m.xy = &xy[0, 0]
        m.poff = &poff[0]
        m.pv = &pv[0]
        m.nbr = &nbr[0]
        m.twin = &twin[0]
        m.poly_of = &poly_of[0]
        m.corner = &corner[0]
        m.degree = &degree[0]
        m.gx = gx
        m.gy = gy
        self.keep = (xy, poff, pv, nbr, twin, poly_of, corner, degree)
        self.ws = ws
        self.sx = sx
        self.sy = sy
        begin(&self.out)
        self.max_expansions = max_expansions
        self.found_idx = -1
        self.direct = False
        self.direct_poly = -1
        for i in range(npoly):
            if poff[i + 1] - poff[i] > nmax:
                nmax = poff[i + 1] - poff[i]
        self.cr = <double*> malloc((nmax + 1) * sizeof(double))
        self.cl = <double*> malloc((nmax + 1) * sizeof(double))
        if self.cr == NULL or self.cl == NULL:
            raise MemoryError("could not allocate the Polyanya buffers")
        with nogil:
            ws.next_generation()
            for i in range(goal_polys.shape[0]):
                ws.goal_mark[goal_polys[i]] = ws.gen
            for i in range(start_polys.shape[0]):
                if ws.goal_mark[start_polys[i]] == ws.gen and not self.direct:
                    self.direct = True
                    self.direct_poly = start_polys[i]
            if self.direct:
                self.out.status = ST_FOUND
            else:
                for s in range(start_polys.shape[0]):
                    p = start_polys[s]
                    beg = poff[p]
                    n = poff[p + 1] - beg
                    for i in range(n):
                        e = beg + i
                        if push_successor(
                            ws, m, -1, -1, sx, sy, 0.0, e,
                            xy[pv[e], 0], xy[pv[e], 1],
                            xy[pv[beg + (i + 1) % n], 0], xy[pv[beg + (i + 1) % n], 1],
                            &self.out.generated,
                        ) != 0:
                            failed = 1
        if failed:
            raise MemoryError("Polyanya ran out of memory")

    cdef int run(self, int64_t budget) noexcept nogil:
        """The search loop; -1 when memory ran out."""
        cdef HeapEntry top
        cdef Node* nd
        cdef int64_t left = budget
        while left != 0:
            if heap_pop(&self.ws.heap, &top) != 0:
                self.out.status = ST_UNREACHABLE
                return 0
            nd = &self.ws.nodes[top.item]
            if nd.kind != K_INTERVAL:
                self.found_idx = <int32_t> top.item
                self.out.status = ST_FOUND
                return 0
            if nd.root >= 0 and nd.g > self.ws.best_g[nd.root] * (1.0 + 1e-12) + 1e-12:
                continue  # its root was reached more cheaply since
            if self.max_expansions >= 0 and self.out.expanded >= self.max_expansions:
                self.out.status = ST_MAX_EXPANSIONS
                return 0
            self.out.expanded += 1
            left -= 1
            if self.ws.goal_mark[nd.poly] == self.ws.gen:
                if push_goal(self.ws, &self.m, <int32_t> top.item, &self.out.generated) != 0:
                    return -1
                continue
            if expand(self.ws, &self.m, <int32_t> top.item, &self.out.generated, self.cr, self.cl) != 0:
                return -1
        return 0

    def best_so_far(self):
        """None: this search does not tell its best partial path while in progress."""
        return None

    def corridor(self):
        """The polygons the path found passes through, from a start polygon to a goal
        polygon (none twice in a row), as an int32 array: each is the neighbour of the
        one before, so the string pulled through them is the path (a 3-D mesh lifts
        the path onto its polygons with it). Empty unless the search found the goal."""
        cdef Workspace ws = self.ws
        cdef int32_t cur = self.found_idx
        cdef int32_t last = -1
        cdef Node* nd
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        if self.out.status != ST_FOUND:
            return np.empty(0, dtype=np.int32)
        if self.direct:
            return np.array([self.direct_poly], dtype=np.int32)
        polys = []
        while cur >= 0:
            nd = &ws.nodes[cur]
            if nd.poly != last:
                polys.append(nd.poly)
                last = nd.poly
            if nd.parent < 0:
                polys.append(self.m.nbr[nd.edge])  # the start's polygon, across the entry
            cur = nd.parent
        return np.array(polys[::-1], dtype=np.int32)

    def answer(self):
        """``(status, path, cost, expanded, generated)`` of the ended search (see
        :func:`search`)."""
        cdef Workspace ws = self.ws
        cdef double sx = self.sx, sy = self.sy, gx = self.m.gx, gy = self.m.gy
        cdef Node* nd
        cdef int32_t cur = self.found_idx
        cdef int32_t last_root = -2
        status, expanded, generated = self.out.status, self.out.expanded, self.out.generated
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        if status != ST_FOUND:
            return status, np.empty((0, 2)), float("inf"), expanded, generated
        if self.direct:
            if sx == gx and sy == gy:
                return status, np.array([[sx, sy]]), 0.0, expanded, generated
            return status, np.array([[sx, sy], [gx, gy]]), dist(sx, sy, gx, gy), expanded, generated
        # Walk back: the goal, a turn at an interval end if any, then each new root.
        points = [(gx, gy)]
        nd = &ws.nodes[cur]
        cost = nd.g
        if nd.kind == K_GOAL_VIA_A and not (nd.ax == nd.rx and nd.ay == nd.ry):
            points.append((nd.ax, nd.ay))
        elif nd.kind == K_GOAL_VIA_B and not (nd.bx == nd.rx and nd.by == nd.ry):
            points.append((nd.bx, nd.by))
        while cur >= 0:
            nd = &ws.nodes[cur]
            if nd.root != last_root:
                last_root = nd.root
                if nd.root >= 0:
                    points.append((nd.rx, nd.ry))
            if nd.pre != -2 and (nd.parent < 0 or nd.pre != ws.nodes[nd.parent].root):
                points.append((nd.px, nd.py))
            cur = nd.parent
        points.append((sx, sy))
        path = np.array(points[::-1], dtype=np.float64)
        n_points = path.shape[0]
        keep = np.ones(n_points, dtype=bool)
        keep[1:] = (path[1:] != path[: n_points - 1]).any(axis=1)
        path = path[keep]
        return status, path, cost, expanded, generated


def search(xy, poff, pv, nbr, twin, poly_of, corner, degree, Workspace ws,
           double sx, double sy, start_polys, double gx, double gy, goal_polys,
           int64_t max_expansions):
    """The shortest path from ``(sx, sy)`` to ``(gx, gy)`` (one unlimited step of a
    :class:`PolyanyaSearch`); the start lies in (on) every polygon of ``start_polys``,
    the goal in every polygon of ``goal_polys``. Indices and shapes are checked.

    Returns ``(status, path, cost, expanded, generated)``: ``path`` an ``(k, 2)`` array
    from start to goal (empty unless found).
    """
    machine = PolyanyaSearch(
        xy, poff, pv, nbr, twin, poly_of, corner, degree, ws, sx, sy, start_polys,
        gx, gy, goal_polys, max_expansions,
    )
    return machine.finish()
