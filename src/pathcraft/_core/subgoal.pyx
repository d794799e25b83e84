# cython: language_level=3
"""Simple subgoal graphs (SSG; T. Uras, S. Koenig, C. Hernandez, "Subgoal Graphs for
Optimal Pathfinding in Eight-Neighbor Grids", ICAPS 2013) on a grid of one cost under
the Moving AI rule (8-connected, a diagonal move only between two walkable cells).

- **Subgoals** are the walkable cells at convex corners of the walls: a cell with a
  wall diagonally next to it whose two cells beside that diagonal are walkable.
- **Clearances**: for every cell and each of the four straight directions, how many
  steps away the first wall or subgoal is (:func:`build`).
- **Sweeps**: from a cell, the subgoals reached by a straight ray, by a diagonal ray,
  and by the straight rays cast from each cell of a diagonal ray, each bounded by the
  rays before it (the paper's direct-h-reachable subgoals). Every subgoal a sweep
  finds lies at the end of a path of octile length: diagonal steps first, then
  straight ones.
- **The graph** joins every subgoal to the subgoals its sweep finds, both ways (CSR
  arrays; an edge costs the octile distance of its ends, computed, not stored).
- **A query** (:meth:`Workspace.path`) first asks whether the goal lies in the
  start's sweep (or the start in the goal's): then the path is direct. Otherwise the
  start is joined to the subgoals of its sweep and the goal to those of its own, and
  A* with the octile heuristic searches the graph; the subgoals of the answer are
  refined into cells (each leg diagonal-first from one of its ends).

The structure holds, per padded cell, 4 int32 clearances and one int32 subgoal id (20
bytes), plus 4 bytes per directed edge and 12 per subgoal. Everything runs with the
GIL released. (One file past 500 lines on purpose: the build, the sweeps, the search
and the refinement share the inline cell tests and the sweep.)
"""

from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, realloc

import numpy as np

from pathcraft._unique import sorted_unique

from pathcraft._core.heap cimport Heap, HeapEntry, heap_clear, heap_free, heap_init, heap_pop, heap_push

cdef double ROOT2 = sqrt(2.0)
cdef double INF = float("inf")

#: The straight directions of the clearances, in this order: N, S, W, E.
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


cdef struct Grid:
    const double* cost
    const int32_t* ids
    const int32_t* clear  # 4 planes of ``size`` values
    Py_ssize_t size
    Py_ssize_t width
    Py_ssize_t off[4]


cdef struct Node:
    # one subgoal's search state and place, together: one cache line read per edge
    double g
    int32_t seen  # the stamp of the search that reached it
    int32_t done  # the stamp of the search that expanded it
    int32_t parent
    int32_t near_goal  # the stamp of the search whose goal's sweep found it
    int32_t row
    int32_t col


cdef struct Found:
    int32_t* items
    Py_ssize_t count
    Py_ssize_t capacity


cdef inline bint walkable(const Grid* g, Py_ssize_t i) noexcept nogil:
    return g.cost[i] < INF


cdef inline int32_t clearance(const Grid* g, int k, Py_ssize_t i) noexcept nogil:
    return g.clear[k * g.size + i]


cdef inline int add(Found* f, int32_t item) noexcept nogil:
    cdef Py_ssize_t cap
    cdef int32_t* grown
    if f.count == f.capacity:
        cap = f.capacity * 2 if f.capacity > 0 else 64
        grown = <int32_t*> realloc(f.items, cap * sizeof(int32_t))
        if grown == NULL:
            return -1
        f.items = grown
        f.capacity = cap
    f.items[f.count] = item
    f.count += 1
    return 0


cdef inline double octile(Py_ssize_t dr, Py_ssize_t dc) noexcept nogil:
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if dr < dc:
        return (dc - dr) + ROOT2 * dr
    return (dr - dc) + ROOT2 * dc


cdef int sweep(const Grid* g, Py_ssize_t o, Found* out) noexcept nogil:
    """Append to ``out`` the ids of the subgoals the sweep from cell ``o`` finds
    (each once); -1 when memory ran out."""
    cdef int k, v, h, j
    cdef int ray[2]
    cdef Py_ssize_t stop, p, q, dg, e
    cdef Py_ssize_t ext[2]  # how far the next straight rays along v and h may reach
    cdef int32_t sid
    for k in range(4):
        stop = o + clearance(g, k, o) * g.off[k]
        sid = g.ids[stop]
        if sid >= 0 and add(out, sid) < 0:
            return -1
    for v in range(2):  # N, S
        for h in range(2, 4):  # W, E
            dg = g.off[v] + g.off[h]
            ray[0] = v
            ray[1] = h
            ext[0] = clearance(g, v, o) - 1
            ext[1] = clearance(g, h, o) - 1
            p = o
            while True:
                q = p + dg
                if not (walkable(g, q) and walkable(g, p + g.off[v]) and walkable(g, p + g.off[h])):
                    break
                sid = g.ids[q]
                if sid >= 0:
                    if add(out, sid) < 0:
                        return -1
                    break
                p = q
                for j in range(2):  # the straight rays along v, then h
                    e = clearance(g, ray[j], p) - 1
                    if e < ext[j]:
                        sid = g.ids[p + (e + 1) * g.off[ray[j]]]
                        if sid >= 0 and add(out, sid) < 0:
                            return -1
                        ext[j] = e
    return 0


cdef bint direct(const Grid* g, Py_ssize_t o, Py_ssize_t t) noexcept nogil:
    """Whether cell ``t`` (walkable, not a subgoal, not ``o``) lies in the region the
    sweep from ``o`` covers: then the diagonal-first path from ``o`` reaches it at its
    octile distance."""
    cdef Py_ssize_t w = g.width
    cdef Py_ssize_t dr = t // w - o // w, dc = t % w - o % w
    cdef Py_ssize_t n, j, step, p, q, dg, ext_v, ext_h, e_v, e_h
    cdef int v = 0 if dr < 0 else 1
    cdef int h = 2 if dc < 0 else 3
    if dc == 0:
        return (dr if dr > 0 else -dr) < clearance(g, v, o)
    if dr == 0:
        return (dc if dc > 0 else -dc) < clearance(g, h, o)
    n = dr if dr > 0 else -dr
    j = dc if dc > 0 else -dc
    if j < n:
        n, j = j, n - j  # j > 0: straight steps along v
    else:
        j = -(j - n)  # j <= 0: straight steps along h
    dg = g.off[v] + g.off[h]
    ext_v = clearance(g, v, o) - 1
    ext_h = clearance(g, h, o) - 1
    p = o
    for step in range(n):
        q = p + dg
        if not (walkable(g, q) and walkable(g, p + g.off[v]) and walkable(g, p + g.off[h])):
            return False
        if g.ids[q] >= 0:
            return False
        p = q
        e_v = clearance(g, v, p) - 1
        e_h = clearance(g, h, p) - 1
        if step == n - 1:
            if j == 0:
                return True
            if j > 0:
                return j <= e_v and j <= ext_v
            return -j <= e_h and -j <= ext_h
        if e_v < ext_v:
            ext_v = e_v
        if e_h < ext_h:
            ext_h = e_h
    return False


cdef void set_grid(Grid* g, const double[:, ::1] padded, const int32_t[::1] ids,
                   const int32_t[:, ::1] clear):
    g.cost = &padded[0, 0]
    g.ids = &ids[0]
    g.clear = &clear[0, 0]
    g.size = padded.shape[0] * padded.shape[1]
    g.width = padded.shape[1]
    g.off[0] = -g.width
    g.off[1] = g.width
    g.off[2] = -1
    g.off[3] = 1


def build(const double[:, ::1] padded):
    """The subgoals, clearances and edges of a padded grid (walls ``inf``, a border of
    walls all round).

    Returns
    -------
    ids : ndarray of int32, shape (size,)
        The subgoal id of every padded cell, -1 where none.
    cells : ndarray of int32, shape (n,)
        The padded flat cell of every subgoal.
    clear : ndarray of int32, shape (4, size)
        The clearances (steps to the first wall or subgoal) along :data:`DIRECTIONS`.
    offsets : ndarray of int64, shape (n + 1,)
        Where each subgoal's neighbours start in ``targets``.
    targets : ndarray of int32
        The neighbours, by subgoal id, sorted per subgoal.
    """
    cdef Py_ssize_t rows = padded.shape[0], cols = padded.shape[1]
    cdef Py_ssize_t size = rows * cols
    if rows < 3 or cols < 3:
        raise ValueError("the padded grid needs at least 3 x 3 cells")
    if size >= 2**31:
        raise ValueError(f"subgoal graphs index cells by int32: {size} padded cells are too many")
    ids_a = np.full(size, -1, dtype=np.int32)
    clear_a = np.zeros((4, size), dtype=np.int32)
    cdef int32_t[::1] ids = ids_a
    cdef int32_t[:, ::1] clear = clear_a
    cdef Grid g
    set_grid(&g, padded, ids, clear)
    cdef Py_ssize_t i, r, c, n = 0, a
    cdef int k, v, h
    cdef Found found
    found.items = NULL
    found.count = 0
    found.capacity = 0
    cdef Found pairs
    pairs.items = NULL
    pairs.count = 0
    pairs.capacity = 0
    cdef int failed = 0
    with nogil:
        for r in range(1, rows - 1):
            for c in range(1, cols - 1):
                i = r * cols + c
                if not walkable(&g, i):
                    continue
                for v in range(2):
                    for h in range(2, 4):
                        if (walkable(&g, i + g.off[v]) and walkable(&g, i + g.off[h])
                                and not walkable(&g, i + g.off[v] + g.off[h])):
                            ids[i] = 0
        for i in range(size):
            if ids[i] == 0:
                ids[i] = <int32_t> n
                n += 1
        # Clearances: N and W read the cell before (increasing order), S and E after.
        for i in range(size):
            if walkable(&g, i):
                for k in range(0, 4, 2):
                    a = i + g.off[k]
                    clear[k, i] = 1 if (ids[a] >= 0 or not walkable(&g, a)) else clear[k, a] + 1
        for i in range(size - 1, -1, -1):
            if walkable(&g, i):
                for k in range(1, 4, 2):
                    a = i + g.off[k]
                    clear[k, i] = 1 if (ids[a] >= 0 or not walkable(&g, a)) else clear[k, a] + 1
    cells_a = np.flatnonzero(ids_a >= 0).astype(np.int32)
    cdef int32_t[::1] cells = cells_a
    with nogil:
        for a in range(n):
            found.count = 0
            if sweep(&g, cells[a], &found) < 0:
                failed = 1
                break
            for k in range(found.count):
                if found.items[k] != a and (add(&pairs, <int32_t> a) < 0
                                            or add(&pairs, found.items[k]) < 0):
                    failed = 1
                    break
            if failed:
                break
    try:
        if failed:
            raise MemoryError("out of memory while linking the subgoals")
        if pairs.count:
            flat = np.asarray(<int32_t[:pairs.count]> pairs.items).reshape(-1, 2)
        else:
            flat = np.empty((0, 2), dtype=np.int32)
        both = np.concatenate([flat, flat[:, ::-1]]).astype(np.int64)
        keys = sorted_unique(both[:, 0] * max(n, 1) + both[:, 1])
        src = keys // max(n, 1)
        targets_a = (keys % max(n, 1)).astype(np.int32)
        offsets_a = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=n), out=offsets_a[1:])
    finally:
        free(found.items)
        free(pairs.items)
    return ids_a, cells_a, clear_a, offsets_a, targets_a


cdef class Workspace:
    """One thread's searches over one subgoal graph (the arrays of :func:`build` and
    the padded cells they were built from, kept by reference, never changed): g-costs,
    parents and stamps per subgoal (plus one for a goal that is not a subgoal), the
    heap and the sweeps' buffers."""

    cdef const double[:, ::1] padded
    cdef const int32_t[::1] ids
    cdef const int32_t[::1] cells
    cdef const int32_t[:, ::1] clear
    cdef const int64_t[::1] offsets
    cdef const int32_t[::1] targets
    cdef Grid g
    cdef Node* nodes
    cdef int32_t stamp
    cdef Py_ssize_t n
    cdef Heap heap
    cdef Found start_found
    cdef Found goal_found
    cdef Found route

    def __cinit__(
        self,
        const double[:, ::1] padded,
        const int32_t[::1] ids,
        const int32_t[::1] cells,
        const int32_t[:, ::1] clear,
        const int64_t[::1] offsets,
        const int32_t[::1] targets,
    ):
        cdef Py_ssize_t size = padded.shape[0] * padded.shape[1], k
        cdef Py_ssize_t n = cells.shape[0]
        if (ids.shape[0] != size or clear.shape[0] != 4 or clear.shape[1] != size
                or offsets.shape[0] != n + 1 or offsets[n] != targets.shape[0]):
            raise ValueError("the subgoal graph's arrays do not fit these cells")
        self.padded = padded
        self.ids = ids
        self.cells = cells
        self.clear = clear
        self.offsets = offsets
        self.targets = targets
        set_grid(&self.g, padded, ids, clear)
        self.n = n
        self.nodes = <Node*> calloc(n + 1, sizeof(Node))
        self.stamp = 0
        self.start_found.items = NULL
        self.start_found.count = self.start_found.capacity = 0
        self.goal_found.items = NULL
        self.goal_found.count = self.goal_found.capacity = 0
        self.route.items = NULL
        self.route.count = self.route.capacity = 0
        if self.nodes == NULL or heap_init(&self.heap, 64) < 0:
            raise MemoryError("no memory for a subgoal search's workspace")
        for k in range(n):
            self.nodes[k].row = <int32_t> (cells[k] // self.g.width)
            self.nodes[k].col = <int32_t> (cells[k] % self.g.width)

    def __dealloc__(self):
        free(self.nodes)
        free(self.start_found.items)
        free(self.goal_found.items)
        free(self.route.items)
        heap_free(&self.heap)

    cdef int _search(self, Py_ssize_t start, Py_ssize_t goal, double* length,
                     long long* expanded) noexcept nogil:
        """A* on the graph joined to ``start`` and ``goal``; the turning cells of the
        answer, from the goal back, in ``self.route``. 2: direct, 1: found, 0: no
        path, -1: out of memory."""
        cdef const Grid* g = &self.g
        cdef Py_ssize_t w = g.width
        cdef Py_ssize_t gr = goal // w, gc = goal % w
        cdef Py_ssize_t n = self.n, node, u, k, target
        cdef Py_ssize_t cr, cc
        cdef const int32_t* cells = &self.cells[0] if n > 0 else NULL
        cdef const int64_t* offsets = &self.offsets[0]
        cdef const int32_t* targets = &self.targets[0] if self.targets.shape[0] > 0 else NULL
        cdef const int32_t* ids = g.ids
        cdef Node* nodes = self.nodes
        cdef Node* a
        cdef Node* b
        cdef int32_t q
        cdef double nd
        cdef HeapEntry top
        self.route.count = 0
        if direct(g, start, goal) or direct(g, goal, start):
            length[0] = octile(gr - start // w, gc - start % w)
            if add(&self.route, <int32_t> goal) < 0 or add(&self.route, <int32_t> start) < 0:
                return -1
            return 2
        if self.stamp >= 2147483000:
            for k in range(n + 1):
                nodes[k].seen = nodes[k].done = nodes[k].near_goal = 0
            self.stamp = 0
        self.stamp += 1
        q = self.stamp
        heap_clear(&self.heap)
        self.start_found.count = 0
        self.goal_found.count = 0
        target = ids[goal] if ids[goal] >= 0 else n
        nodes[n].row = <int32_t> gr
        nodes[n].col = <int32_t> gc
        if ids[goal] < 0:
            if sweep(g, goal, &self.goal_found) < 0:
                return -1
            for k in range(self.goal_found.count):
                nodes[self.goal_found.items[k]].near_goal = q
        if ids[start] >= 0:
            a = &nodes[ids[start]]
            a.seen = q
            a.g = 0.0
            a.parent = -1
            if heap_push(&self.heap, octile(start // w - gr, start % w - gc), 0.0, ids[start]) < 0:
                return -1
        else:
            if sweep(g, start, &self.start_found) < 0:
                return -1
            for k in range(self.start_found.count):
                node = self.start_found.items[k]
                a = &nodes[node]
                nd = octile(a.row - start // w, a.col - start % w)
                if a.seen != q or nd < a.g:
                    a.seen = q
                    a.g = nd
                    a.parent = -1
                    if heap_push(&self.heap, nd + octile(a.row - gr, a.col - gc), -nd, node) < 0:
                        return -1
        while self.heap.size > 0:
            heap_pop(&self.heap, &top)
            node = top.item
            a = &nodes[node]
            if a.done == q:
                continue
            a.done = q
            if node == target:
                length[0] = a.g
                if node == n:
                    if add(&self.route, <int32_t> goal) < 0:
                        return -1
                    node = a.parent
                while node >= 0:
                    if add(&self.route, cells[node]) < 0:
                        return -1
                    node = nodes[node].parent
                if self.route.items[self.route.count - 1] != start:
                    if add(&self.route, <int32_t> start) < 0:
                        return -1
                return 1
            expanded[0] += 1
            cr = a.row
            cc = a.col
            for k in range(offsets[node], offsets[node + 1]):
                u = targets[k]
                b = &nodes[u]
                if b.done == q:
                    continue
                nd = a.g + octile(b.row - cr, b.col - cc)
                if b.seen != q or nd < b.g:
                    b.seen = q
                    b.g = nd
                    b.parent = <int32_t> node
                    if heap_push(&self.heap, nd + octile(b.row - gr, b.col - gc), -nd, u) < 0:
                        return -1
            if a.near_goal == q and target == n:
                b = &nodes[n]
                nd = a.g + octile(gr - cr, gc - cc)
                if b.done != q and (b.seen != q or nd < b.g):
                    b.seen = q
                    b.g = nd
                    b.parent = <int32_t> node
                    if heap_push(&self.heap, nd, -nd, n) < 0:
                        return -1
        return 0

    def path(self, Py_ssize_t start, Py_ssize_t goal):
        """A shortest path from padded cell ``start`` to ``goal`` (both walkable: the
        caller checks them).

        Returns
        -------
        (length, expanded, cells)
            The octile length (``inf`` when no path joins them), the subgoals
            expanded, and the path's ``(row, col)`` cells of the grid (not padded) as
            an ``(n, 2)`` intp array, start and goal included (None when no path).
        """
        cdef Py_ssize_t size = self.g.size
        if not (0 <= start < size and 0 <= goal < size):
            raise ValueError("start and goal must be cells of the padded grid")
        cdef double length = INF
        cdef long long expanded = 0
        cdef int status
        cdef Py_ssize_t total, i, a, b, m, at, j, w = self.g.width
        cdef const double* cost = self.g.cost
        if not (cost[start] < INF and cost[goal] < INF):
            raise ValueError("start and goal must be walkable")
        if start == goal:
            out = np.empty((1, 2), dtype=np.intp)
            out[0, 0] = start // w - 1
            out[0, 1] = start % w - 1
            return 0.0, 0, out
        with nogil:
            status = self._search(start, goal, &length, &expanded)
        if status < 0:
            raise MemoryError("out of memory in a subgoal search")
        if status == 0:
            return INF, int(expanded), None
        cdef int32_t* route = self.route.items
        cdef Py_ssize_t legs = self.route.count
        total = 1
        for i in range(legs - 1, 0, -1):
            a, b = route[i], route[i - 1]
            total += max(iabs(b // w - a // w), iabs(b % w - a % w))
        flat_a = np.empty(total, dtype=np.int64)
        cdef int64_t[::1] flat = flat_a
        cdef bint broken = False
        with nogil:
            flat[0] = route[legs - 1]
            at = 1
            for i in range(legs - 1, 0, -1):
                a, b = route[i], route[i - 1]
                m = max(iabs(b // w - a // w), iabs(b % w - a % w))
                if not leg(cost, w, a, b, m, &flat[at]):
                    broken = True
                    break
                at += m
        if broken:
            raise RuntimeError(f"no direct path between padded cells {a} and {b}")
        out = np.empty((total, 2), dtype=np.intp)
        cdef Py_ssize_t[:, ::1] cells_out = out
        with nogil:
            for i in range(total):
                cells_out[i, 0] = flat[i] // w - 1
                cells_out[i, 1] = flat[i] % w - 1
        return length, int(expanded), out


cdef inline Py_ssize_t iabs(Py_ssize_t x) noexcept nogil:
    return x if x >= 0 else -x


cdef bint walk(const double* cost, Py_ssize_t width, Py_ssize_t a, Py_ssize_t b,
               int64_t* out) noexcept nogil:
    """Write the diagonal-first path from ``a`` to ``b`` (without ``a``) to ``out``
    when every step of it is legal; False when one is not."""
    cdef Py_ssize_t dr = b // width - a // width, dc = b % width - a % width
    cdef Py_ssize_t sr = (dr > 0) - (dr < 0), sc = (dc > 0) - (dc < 0)
    cdef Py_ssize_t nr = dr * sr, nc = dc * sc, nd = nr if nr < nc else nc
    cdef Py_ssize_t i, p = a, k = 0, straight
    for i in range(nd):
        if not (cost[p + sr * width] < INF and cost[p + sc] < INF and cost[p + sr * width + sc] < INF):
            return False
        p += sr * width + sc
        out[k] = p
        k += 1
    straight = sr * width if nr > nc else sc
    for i in range(nr + nc - 2 * nd):
        p += straight
        if not cost[p] < INF:
            return False
        out[k] = p
        k += 1
    return True


cdef bint leg(const double* cost, Py_ssize_t width, Py_ssize_t a, Py_ssize_t b,
              Py_ssize_t m, int64_t* out) noexcept nogil:
    """Write the ``m`` cells after ``a`` of a legal octile path from ``a`` to ``b``:
    diagonal-first from ``a``, or else the one diagonal-first from ``b`` reversed."""
    cdef Py_ssize_t j
    cdef int64_t t
    if walk(cost, width, a, b, out):
        return True
    if not walk(cost, width, b, a, out):
        return False
    # out holds b's path: the cells after b, ending with a; from a, the cells before
    # a in reverse order, then b
    for j in range((m - 1) // 2):
        t = out[j]
        out[j] = out[m - 2 - j]
        out[m - 2 - j] = t
    out[m - 1] = b
    return True
