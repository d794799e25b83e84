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
- **A query** (:meth:`Workspace.search`) first asks whether the goal lies in the
  start's sweep (or the start in the goal's): then the path is direct. Otherwise the
  start is joined to the subgoals of its sweep and the goal to those of its own, and
  A* with the octile heuristic searches the graph; :func:`refine` turns the subgoals
  of the answer into cells (each leg diagonal-first from one of its ends).

The structure holds, per padded cell, 4 int32 clearances and one int32 subgoal id (20
bytes), plus 4 bytes per directed edge and 12 per subgoal. Everything runs with the
GIL released.
"""

from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

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
    cdef int k, v, h
    cdef Py_ssize_t stop, p, q, dg, ext_v, ext_h, e
    cdef int32_t sid
    for k in range(4):
        stop = o + clearance(g, k, o) * g.off[k]
        sid = g.ids[stop]
        if sid >= 0 and add(out, sid) < 0:
            return -1
    for v in range(2):  # N, S
        for h in range(2, 4):  # W, E
            dg = g.off[v] + g.off[h]
            ext_v = clearance(g, v, o) - 1
            ext_h = clearance(g, h, o) - 1
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
                e = clearance(g, v, p) - 1
                if e < ext_v:
                    sid = g.ids[p + (e + 1) * g.off[v]]
                    if sid >= 0 and add(out, sid) < 0:
                        return -1
                    ext_v = e
                e = clearance(g, h, p) - 1
                if e < ext_h:
                    sid = g.ids[p + (e + 1) * g.off[h]]
                    if sid >= 0 and add(out, sid) < 0:
                        return -1
                    ext_h = e
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
        keys = np.unique(both[:, 0] * max(n, 1) + both[:, 1])
        src = keys // max(n, 1)
        targets_a = (keys % max(n, 1)).astype(np.int32)
        offsets_a = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=n), out=offsets_a[1:])
    finally:
        free(found.items)
        free(pairs.items)
    return ids_a, cells_a, clear_a, offsets_a, targets_a


cdef class Workspace:
    """One thread's search state over one subgoal graph: g-costs, parents and stamps
    per subgoal (plus one for a goal that is not a subgoal), the heap, the sweeps."""

    cdef double* gval
    cdef int32_t* parent
    cdef int32_t* seen
    cdef int32_t* done
    cdef int32_t* near_goal
    cdef int32_t* row  # of each subgoal, filled by the first search
    cdef int32_t* col
    cdef bint placed
    cdef int32_t stamp
    cdef Py_ssize_t n
    cdef Heap heap
    cdef Found start_found
    cdef Found goal_found

    def __cinit__(self, Py_ssize_t subgoals):
        cdef Py_ssize_t m = subgoals + 1
        self.n = subgoals
        self.gval = <double*> malloc(m * sizeof(double))
        self.parent = <int32_t*> malloc(m * sizeof(int32_t))
        self.seen = <int32_t*> malloc(m * sizeof(int32_t))
        self.done = <int32_t*> malloc(m * sizeof(int32_t))
        self.near_goal = <int32_t*> malloc(m * sizeof(int32_t))
        self.row = <int32_t*> malloc(m * sizeof(int32_t))
        self.col = <int32_t*> malloc(m * sizeof(int32_t))
        self.placed = False
        self.stamp = 0
        self.start_found.items = NULL
        self.start_found.count = 0
        self.start_found.capacity = 0
        self.goal_found.items = NULL
        self.goal_found.count = 0
        self.goal_found.capacity = 0
        if (self.gval == NULL or self.parent == NULL or self.seen == NULL
                or self.done == NULL or self.near_goal == NULL
                or self.row == NULL or self.col == NULL
                or heap_init(&self.heap, 64) < 0):
            raise MemoryError("no memory for a subgoal search's workspace")
        self._reset()

    cdef void _reset(self) noexcept:
        cdef Py_ssize_t i
        for i in range(self.n + 1):
            self.seen[i] = 0
            self.done[i] = 0
            self.near_goal[i] = 0
        self.stamp = 0

    def __dealloc__(self):
        free(self.gval)
        free(self.parent)
        free(self.seen)
        free(self.done)
        free(self.near_goal)
        free(self.row)
        free(self.col)
        free(self.start_found.items)
        free(self.goal_found.items)
        heap_free(&self.heap)

    def search(
        self,
        const double[:, ::1] padded,
        const int32_t[::1] ids,
        const int32_t[::1] cells,
        const int32_t[:, ::1] clear,
        const int64_t[::1] offsets,
        const int32_t[::1] targets,
        Py_ssize_t start,
        Py_ssize_t goal,
    ):
        """The shortest path from padded cell ``start`` to ``goal`` (both walkable,
        distinct) on the subgoal graph.

        Returns
        -------
        (length, expanded, route)
            The octile length (``inf`` when unreachable), the subgoals expanded, and
            the padded cells the path turns at, start and goal included (empty when
            unreachable).
        """
        if offsets.shape[0] != self.n + 1:
            raise ValueError("this workspace belongs to another subgoal graph")
        cdef Grid g
        set_grid(&g, padded, ids, clear)
        cdef Py_ssize_t w = g.width
        cdef Py_ssize_t gr = goal // w, gc = goal % w
        cdef Py_ssize_t n = self.n, node, u, k, cell, target, last
        cdef int32_t q
        cdef double nd, best = INF
        cdef long long expanded = 0
        cdef HeapEntry top
        cdef int status = 0  # 0 searching/unreachable, 1 found, 2 direct, -1 memory
        cdef int32_t* row = self.row
        cdef int32_t* col = self.col
        cdef Py_ssize_t ur, uc, cr, cc
        if not self.placed:
            for k in range(n):
                row[k] = <int32_t> (cells[k] // w)
                col[k] = <int32_t> (cells[k] % w)
            self.placed = True
        with nogil:
            if direct(&g, start, goal) or direct(&g, goal, start):
                status = 2
            else:
                if self.stamp >= 2147483000:
                    with gil:
                        self._reset()
                self.stamp += 1
                q = self.stamp
                heap_clear(&self.heap)
                self.start_found.count = 0
                self.goal_found.count = 0
                target = ids[goal] if ids[goal] >= 0 else n
                if ids[goal] < 0:
                    if sweep(&g, goal, &self.goal_found) < 0:
                        status = -1
                    for k in range(self.goal_found.count):
                        self.near_goal[self.goal_found.items[k]] = q
                if ids[start] >= 0:
                    node = ids[start]
                    self.seen[node] = q
                    self.gval[node] = 0.0
                    self.parent[node] = -1
                    if heap_push(&self.heap, octile(start // w - gr, start % w - gc), 0.0, node) < 0:
                        status = -1
                elif status == 0:
                    if sweep(&g, start, &self.start_found) < 0:
                        status = -1
                    for k in range(self.start_found.count):
                        node = self.start_found.items[k]
                        cell = cells[node]
                        nd = octile(cell // w - start // w, cell % w - start % w)
                        if self.seen[node] != q or nd < self.gval[node]:
                            self.seen[node] = q
                            self.gval[node] = nd
                            self.parent[node] = -1
                            if heap_push(&self.heap, nd + octile(cell // w - gr, cell % w - gc),
                                         -nd, node) < 0:
                                status = -1
                while status == 0 and self.heap.size > 0:
                    heap_pop(&self.heap, &top)
                    node = top.item
                    if self.done[node] == q:
                        continue
                    self.done[node] = q
                    if node == target:
                        status = 1
                        best = self.gval[node]
                        break
                    expanded += 1
                    cr = row[node]
                    cc = col[node]
                    for k in range(offsets[node], offsets[node + 1]):
                        u = targets[k]
                        if self.done[u] == q:
                            continue
                        ur = row[u]
                        uc = col[u]
                        nd = self.gval[node] + octile(ur - cr, uc - cc)
                        if self.seen[u] != q or nd < self.gval[u]:
                            self.seen[u] = q
                            self.gval[u] = nd
                            self.parent[u] = <int32_t> node
                            if heap_push(&self.heap, nd + octile(ur - gr, uc - gc), -nd, u) < 0:
                                status = -1
                                break
                    if self.near_goal[node] == q and target == n and self.done[n] != q:
                        nd = self.gval[node] + octile(gr - cr, gc - cc)
                        if self.seen[n] != q or nd < self.gval[n]:
                            self.seen[n] = q
                            self.gval[n] = nd
                            self.parent[n] = <int32_t> node
                            if heap_push(&self.heap, nd, -nd, n) < 0:
                                status = -1
        if status < 0:
            raise MemoryError("out of memory in a subgoal search")
        if status == 2:
            return octile(goal // w - start // w, goal % w - start % w), 0, [start, goal]
        if status == 0:
            return INF, int(expanded), []
        route = [goal]
        last = goal
        node = target
        if target == n:
            node = self.parent[n]
        while node >= 0:
            if cells[node] != last:
                last = cells[node]
                route.append(last)
            node = self.parent[node]
        if last != start:
            route.append(start)
        route.reverse()
        return best, int(expanded), route


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


def refine(const double[:, ::1] padded, route):
    """The padded cells of the path through the turning cells ``route``: each leg the
    diagonal-first path from its first end, or else reversed from its second.

    Raises
    ------
    RuntimeError
        A leg neither way is a legal path (a broken graph; never for :func:`build`'s).
    """
    cdef Py_ssize_t width = padded.shape[1], total = 1, i, a, b, m, j
    cdef const double* cost = &padded[0, 0]
    legs = [int(x) for x in route]
    for i in range(len(legs) - 1):
        a, b = legs[i], legs[i + 1]
        total += max(abs(b // width - a // width), abs(b % width - a % width))
    out_a = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] out = out_a
    out[0] = legs[0]
    cdef Py_ssize_t at = 1
    for i in range(len(legs) - 1):
        a, b = legs[i], legs[i + 1]
        m = max(abs(b // width - a // width), abs(b % width - a % width))
        if not walk(cost, width, a, b, &out[at]):
            if not walk(cost, width, b, a, &out[at]):
                raise RuntimeError(f"no direct path between padded cells {a} and {b}")
            # the walk from b wrote b's path: its cells after b, ending with a; from a,
            # the same cells but a in reverse order, then b
            for j in range((m - 1) // 2):
                out[at + j], out[at + m - 2 - j] = out[at + m - 2 - j], out[at + j]
            out[at + m - 1] = b
        at += m
    return out_a
