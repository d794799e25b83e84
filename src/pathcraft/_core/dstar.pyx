# cython: language_level=3
"""Incremental replanning for one agent: D* Lite (Koenig and Likhachev, 2002).

D* Lite searches *backwards*, from the goal towards the agent: ``g[s]`` estimates the
cost from ``s`` to the goal, ``rhs[s]`` is the one-step look-ahead
``min over successors s' of c(s, s') + g[s']`` (0 at the goal), and the open list holds
the *inconsistent* vertices (``g != rhs``) ordered by the key
``(min(g, rhs) + h(agent, s) + km, min(g, rhs))``. Because the search is rooted at the
goal, the distances it keeps stay true when the agent moves; only the heuristic's
origin shifts, which the offset ``km`` absorbs (``km += h(last, agent)`` when the
changes after a move are taken in) without reordering the heap. When a step cost
changes, only the vertices whose out-edges changed have their ``rhs`` recomputed and
the search repairs what depends on them; a change far from the agent's optimal path
costs a few expansions, and :func:`compute` stops as soon as the agent's vertex is
consistent and no open key is smaller than its own.

Two worlds, one loop: a grid (the padded flat cost array of
:mod:`pathcraft.grid`, a step into ``b`` costing ``cost[b]`` straight and
``cost[b] * sqrt(2)`` diagonally under the grid's diagonal rule; a wall has no
out-edges) and a graph (forward CSR for successors, a reverse CSR over the same live
weight array for predecessors). The world's arrays are read live: the caller edits
them, then names what changed (:meth:`Planner.update`).

Every ``def`` entry checks the indices it is given (``bounds.pxd``: IndexError, never a
crash) and :func:`compute` runs with the GIL released.

Why one module of about 630 lines: one algorithm over one state, the methods of
:class:`Planner` (its key, queue, ``rhs`` updates and the two worlds' edge loops), which
share that state and its ``inline`` helpers.
"""

from libc.math cimport INFINITY, fabs, sqrt
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.bounds cimport check_rows, index_error
from pathcraft._core.codes cimport ST_FOUND, ST_UNREACHABLE
from pathcraft._core.grid_search cimport DC, DR  # the grid's moves, in its order
from pathcraft._core.heap cimport (
    Heap,
    _sift_down,
    _sift_up,
    heap_clear,
    heap_free,
    heap_init,
    iheap_push,
    iheap_update,
)

cdef extern from *:
    """
    #define PATHCRAFT_DSTAR_SQRT2 1.4142135623730951
    #define PATHCRAFT_DSTAR_OCTILE 0.41421356237309515
    """
    const double SQRT2 "PATHCRAFT_DSTAR_SQRT2"
    const double OCTILE "PATHCRAFT_DSTAR_OCTILE"

# Worlds and the grid's diagonal rules (the codes of pathcraft.grid._run.DIAGONAL_RULES).
cdef enum:
    KIND_GRID = 0
    KIND_GRAPH = 1

cdef enum:
    NEVER = 0
    NO_CORNER_CUT = 1
    ONE_FREE = 2
    ALWAYS = 3


cdef inline bint key_less(double a1, double a2, double b1, double b2) noexcept nogil:
    return a1 < b1 or (a1 == b1 and a2 < b2)


cdef inline bint key_below(double a1, double b1) noexcept nogil:
    """Whether an open key's first part ``a1`` may still be at most the agent's
    ``b1``: equal up to rounding counts as below, whatever the second parts. The
    stopping test: two sums equal in exact arithmetic can land an ulp apart either
    way, so the heap's order among keys that tie on the first part is not to be
    trusted, and stopping at a tie could leave a stale distance behind. Expanding the
    tied vertices too is always safe (a superset of what D* Lite must expand)."""
    cdef double t = 1e-10 * (fabs(b1) if fabs(b1) > 1.0 else 1.0)
    return a1 <= b1 + t


cdef class Planner:
    """The D* Lite state of one agent on one grid or graph (see the module)."""

    cdef int kind
    cdef readonly Py_ssize_t size       # vertices (padded cells for a grid)
    cdef double* g
    cdef double* rhs
    cdef int32_t* pos                   # place in the heap, -1 when not in it
    cdef unsigned char* mark            # 1: g, rhs or pos may differ from the fresh state
    cdef unsigned char[::1] seen        # path(): vertices on the walk (cleared after)
    cdef int32_t* touched               # the marked vertices (what reset() restores)
    cdef Py_ssize_t ntouched
    cdef Py_ssize_t touched_cap
    cdef Heap heap
    cdef readonly Py_ssize_t start
    cdef readonly Py_ssize_t goal
    cdef Py_ssize_t last                # the agent's vertex when km was last raised
    cdef readonly double km
    cdef readonly double hscale
    cdef readonly long long expanded    # by the last compute()
    cdef readonly long long total_expanded
    # grid
    cdef const double[::1] cost
    cdef Py_ssize_t width
    cdef int diagonal
    cdef Py_ssize_t off[8]
    cdef Py_ssize_t vert[8]            # the row part of each move (dr * width)
    cdef Py_ssize_t horz[8]            # its column part (dc)
    # graph
    cdef const int64_t[::1] offsets
    cdef const int32_t[::1] targets
    cdef const double[::1] weights
    cdef const int64_t[::1] roffsets
    cdef const int32_t[::1] rsources
    cdef const int64_t[::1] redges
    cdef const double[:, ::1] coords
    cdef bint has_coords

    def __cinit__(self):
        self.g = NULL
        self.rhs = NULL
        self.pos = NULL
        self.mark = NULL
        self.touched = NULL
        self.heap.data = NULL
        self.has_coords = False

    def __dealloc__(self):
        free(self.g)
        free(self.rhs)
        free(self.pos)
        free(self.mark)
        free(self.touched)
        heap_free(&self.heap)

    cdef int _allocate(self, Py_ssize_t n) except -1:
        if n >= 2147483647:
            raise ValueError(f"worlds of {n} vertices are too large (2**31 at most)")
        self.size = n
        self.g = <double*> malloc(max(n, 1) * sizeof(double))
        self.rhs = <double*> malloc(max(n, 1) * sizeof(double))
        self.pos = <int32_t*> malloc(max(n, 1) * sizeof(int32_t))
        self.mark = <unsigned char*> malloc(max(n, 1) * sizeof(unsigned char))
        self.touched_cap = 1024
        self.touched = <int32_t*> malloc(self.touched_cap * sizeof(int32_t))
        self.ntouched = 0
        if (self.g == NULL or self.rhs == NULL or self.pos == NULL or self.mark == NULL
                or self.touched == NULL or heap_init(&self.heap, 1024) != 0):
            raise MemoryError(f"could not allocate a replanner of {n} vertices")
        cdef Py_ssize_t i
        for i in range(n):
            self.g[i] = INFINITY
            self.rhs[i] = INFINITY
            self.pos[i] = -1
            self.mark[i] = 0
        return 0

    cdef inline int touch(self, Py_ssize_t u) noexcept nogil:
        """Note that ``u`` leaves its fresh state. Returns -1 when memory ran out."""
        cdef int32_t* grown
        if self.mark[u]:
            return 0
        if self.ntouched == self.touched_cap:
            grown = <int32_t*> realloc(self.touched, 2 * self.touched_cap * sizeof(int32_t))
            if grown == NULL:
                return -1
            self.touched = grown
            self.touched_cap *= 2
        self.mark[u] = 1
        self.touched[self.ntouched] = <int32_t> u
        self.ntouched += 1
        return 0

    # ------------------------------------------------------------------ the world

    cdef inline double h(self, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """The heuristic between two vertices (consistent, symmetric)."""
        cdef double dr, dc, lo, hi, s
        cdef Py_ssize_t k
        if self.hscale == 0.0:
            return 0.0
        if self.kind == KIND_GRID:
            dr = fabs(<double> (a // self.width - b // self.width))
            dc = fabs(<double> (a % self.width - b % self.width))
            if self.diagonal == NEVER:
                return (dr + dc) * self.hscale
            lo = dr if dr < dc else dc
            hi = dc if dr < dc else dr
            return (hi + OCTILE * lo) * self.hscale
        if not self.has_coords:
            return 0.0
        s = 0.0
        for k in range(self.coords.shape[1]):
            dr = self.coords[a, k] - self.coords[b, k]
            s += dr * dr
        return sqrt(s) * self.hscale

    cdef inline double step(self, Py_ssize_t a, int k) noexcept nogil:
        """The grid step from ``a`` in direction ``k`` (INFINITY when not allowed)."""
        cdef Py_ssize_t b = a + self.off[k]
        cdef double c = self.cost[b]
        cdef bint free_a, free_b
        if c == INFINITY or self.cost[a] == INFINITY:
            return INFINITY
        if k < 4:
            return c
        if self.diagonal == NEVER:
            return INFINITY
        if self.diagonal != ALWAYS:
            # the two cells the move passes between: (row of b, col of a), (row of a, col of b)
            free_a = self.cost[a + self.vert[k]] != INFINITY
            free_b = self.cost[a + self.horz[k]] != INFINITY
            if self.diagonal == NO_CORNER_CUT:
                if not (free_a and free_b):
                    return INFINITY
            elif not (free_a or free_b):
                return INFINITY
        return c * SQRT2

    cdef double lookahead(self, Py_ssize_t s) noexcept nogil:
        """``min over successors s' of c(s, s') + g[s']``."""
        cdef double best = INFINITY, d
        cdef int k
        cdef int64_t e
        if self.kind == KIND_GRID:
            if self.cost[s] == INFINITY:
                return INFINITY
            for k in range(8):
                d = self.step(s, k)
                if d != INFINITY:
                    d = d + self.g[s + self.off[k]]
                    if d < best:
                        best = d
            return best
        for e in range(self.offsets[s], self.offsets[s + 1]):
            d = self.weights[e] + self.g[self.targets[e]]
            if d < best:
                best = d
        return best

    # ------------------------------------------------------------------ the heap

    cdef inline int update_vertex(self, Py_ssize_t u) noexcept nogil:
        """Put ``u`` in the open list with its key when inconsistent, else take it out."""
        cdef double m, k1
        cdef Py_ssize_t i, last
        cdef int32_t p = self.pos[u]
        if self.touch(u) != 0:
            return -1
        if self.g[u] != self.rhs[u]:
            m = self.g[u] if self.g[u] < self.rhs[u] else self.rhs[u]
            k1 = m + self.h(self.start, u) + self.km
            if p >= 0:
                iheap_update(&self.heap, p, k1, m, self.pos)
            elif iheap_push(&self.heap, k1, m, u, self.pos) != 0:
                return -1
        elif p >= 0:
            self.remove(p)
        return 0

    cdef inline void remove(self, Py_ssize_t i) noexcept nogil:
        """Take the entry at heap place ``i`` out."""
        cdef Py_ssize_t item = self.heap.data[i].item
        self.pos[item] = -1
        self.heap.size -= 1
        if i == self.heap.size:
            return
        self.heap.data[i] = self.heap.data[self.heap.size]
        item = self.heap.data[i].item
        self.pos[item] = <int32_t> i
        _sift_up(&self.heap, i, self.pos)
        _sift_down(&self.heap, self.pos[item], self.pos)

    cdef inline int offer(
        self, Py_ssize_t p, double c, Py_ssize_t u, bint lowered, double gold
    ) noexcept nogil:
        """The change of ``g[u]`` as its predecessor ``p`` (a step of cost ``c`` away)
        sees it: when it fell, ``p`` may now go through ``u``; when it rose from
        ``gold``, ``p`` recomputes its look-ahead if it went through ``u``."""
        if p == self.goal or c == INFINITY:
            return 0
        if lowered:
            if c + self.g[u] < self.rhs[p]:
                self.rhs[p] = c + self.g[u]
                return self.update_vertex(p)
        elif self.rhs[p] == c + gold:
            self.rhs[p] = self.lookahead(p)
            return self.update_vertex(p)
        return 0

    cdef int expand(self, Py_ssize_t u, bint lowered, double gold) noexcept nogil:
        """Offer the change of ``g[u]`` to every predecessor of ``u``."""
        cdef int k
        cdef int64_t e
        cdef Py_ssize_t p
        cdef double c
        if self.kind == KIND_GRID:
            for k in range(8):
                p = u - self.off[k]
                if self.cost[p] == INFINITY:
                    continue  # a wall has no out-edges (the border is walls too)
                c = self.step(p, k)
                if self.offer(p, c, u, lowered, gold) != 0:
                    return -1
            return 0
        for e in range(self.roffsets[u], self.roffsets[u + 1]):
            p = self.rsources[e]
            c = self.weights[self.redges[e]]
            if self.offer(p, c, u, lowered, gold) != 0:
                return -1
        return 0

    cdef inline void catch_up(self) noexcept nogil:
        """The agent moved since the keys were made: raise ``km`` by the heuristic
        between where it was and where it is (the open keys stay lower bounds of the
        true ones, and :meth:`run` raises a stale key when it meets it)."""
        if self.last != self.start:
            self.km += self.h(self.last, self.start)
            self.last = self.start

    cdef int run(self) noexcept nogil:
        """ComputeShortestPath: expand until the agent's vertex is consistent and no
        open key is below its own. Returns -1 when memory ran out."""
        cdef Py_ssize_t u, s = self.start
        cdef double k1, k2, m, gold, top1, top2
        self.expanded = 0
        while self.heap.size > 0:
            top1 = self.heap.data[0].key
            top2 = self.heap.data[0].tie
            m = self.g[s] if self.g[s] < self.rhs[s] else self.rhs[s]
            if not (key_below(top1, m + self.km) or self.rhs[s] > self.g[s]):
                # (the agent's own key is (m + h(s, s) + km, m) with h(s, s) = 0)
                break
            u = self.heap.data[0].item
            m = self.g[u] if self.g[u] < self.rhs[u] else self.rhs[u]
            k1 = m + self.h(s, u) + self.km
            k2 = m
            if key_less(top1, top2, k1, k2):
                iheap_update(&self.heap, 0, k1, k2, self.pos)
                continue
            self.expanded += 1
            if self.g[u] > self.rhs[u]:
                self.g[u] = self.rhs[u]
                self.remove(0)
                if self.expand(u, True, 0.0) != 0:
                    return -1
            else:
                gold = self.g[u]
                self.g[u] = INFINITY
                if u != self.goal:
                    self.rhs[u] = self.lookahead(u)
                if self.update_vertex(u) != 0:
                    return -1
                if self.expand(u, False, gold) != 0:
                    return -1
        self.total_expanded += self.expanded
        return 0

    # ------------------------------------------------------------------ entries

    cdef int check_vertex(self, str name, Py_ssize_t v) except -1:
        """IndexError unless ``v`` is a vertex (for a grid: not on its border of walls,
        whose neighbours lie outside the array)."""
        if not 0 <= v < self.size:
            index_error(name, v, self.size, "vertex")
        if self.kind == KIND_GRID and (
            v < self.width or v >= self.size - self.width
            or v % self.width == 0 or v % self.width == self.width - 1
        ):
            raise IndexError(f"{name}: vertex {v} is on the grid's border of walls")
        return 0

    def reset(self, Py_ssize_t start, Py_ssize_t goal, double hscale):
        """Forget everything and aim at ``goal`` from ``start``: O(vertices touched
        since the last reset)."""
        cdef Py_ssize_t i, v
        self.check_vertex("start", start)
        self.check_vertex("goal", goal)
        if not hscale >= 0.0:
            raise ValueError(f"hscale must be >= 0; got {hscale}")
        for i in range(self.ntouched):
            v = self.touched[i]
            self.g[v] = INFINITY
            self.rhs[v] = INFINITY
            self.pos[v] = -1
            self.mark[v] = 0
        self.ntouched = 0
        heap_clear(&self.heap)
        self.start = start
        self.last = start
        self.goal = goal
        self.km = 0.0
        self.hscale = hscale
        self.rhs[goal] = 0.0
        if self.touch(goal) != 0 or iheap_push(&self.heap, self.h(start, goal), 0.0, goal, self.pos) != 0:
            raise MemoryError("the replanner's open list could not grow")

    def move_to(self, Py_ssize_t vertex):
        """The agent is now at ``vertex`` (any vertex: the caller checks it is legal)."""
        self.check_vertex("vertex", vertex)
        self.start = vertex

    def update(self, const Py_ssize_t[:] vertices):
        """The out-edges of ``vertices`` changed: recompute their look-ahead. (For a
        grid give the changed cells themselves: their neighbours, whose steps into or
        past them changed, are updated here.) Raises ``km`` by the agent's move since
        the last update, as D* Lite does before repairing."""
        cdef Py_ssize_t i, v, u
        cdef int k
        cdef int rc = 0
        for i in range(vertices.shape[0]):
            self.check_vertex("vertices", vertices[i])
        if vertices.shape[0] == 0:
            return
        with nogil:
            self.catch_up()
            for i in range(vertices.shape[0]):
                v = vertices[i]
                if self.kind == KIND_GRID:
                    for k in range(9):
                        u = v if k == 8 else v + self.off[k]
                        if u != self.goal:
                            self.rhs[u] = self.lookahead(u)
                        if self.update_vertex(u) != 0:
                            rc = -1
                else:
                    if v != self.goal:
                        self.rhs[v] = self.lookahead(v)
                    if self.update_vertex(v) != 0:
                        rc = -1
        if rc != 0:
            raise MemoryError("the replanner's open list could not grow")

    def compute(self):
        """Repair the search until the agent's distance is exact; returns ``FOUND`` or
        ``UNREACHABLE``. ``expanded`` counts this call's expansions."""
        cdef int rc
        with nogil:
            self.catch_up()
            rc = self.run()
        if rc != 0:
            raise MemoryError("the replanner's open list could not grow")
        return ST_FOUND if self.rhs[self.start] != INFINITY else ST_UNREACHABLE

    def state(self, Py_ssize_t vertex):
        """``(g, rhs, key1, key2)`` of ``vertex`` (the keys NaN when it is not open):
        for tests."""
        if not 0 <= vertex < self.size:
            index_error("vertex", vertex, self.size, "vertex")
        cdef int32_t p = self.pos[vertex]
        if p < 0:
            return self.g[vertex], self.rhs[vertex], float("nan"), float("nan")
        return self.g[vertex], self.rhs[vertex], self.heap.data[p].key, self.heap.data[p].tie

    def top(self):
        """``(key1, key2, vertex)`` of the smallest open entry, or None: for tests."""
        if self.heap.size == 0:
            return None
        return self.heap.data[0].key, self.heap.data[0].tie, self.heap.data[0].item

    def distance(self, Py_ssize_t vertex):
        """The look-ahead cost from ``vertex`` to the goal (exact at the agent after
        :meth:`compute`)."""
        if not 0 <= vertex < self.size:
            index_error("vertex", vertex, self.size, "vertex")
        return self.rhs[vertex]

    cdef Py_ssize_t next_tight(self, Py_ssize_t s, unsigned char[::1] seen,
                               double* step_cost) noexcept:
        """The best successor of ``s`` not yet seen whose step keeps to an optimal
        path (``c + g`` within rounding of ``rhs[s]``): the goal first, then the
        smallest ``c + g``; -1 when there is none."""
        cdef double bound = self.rhs[s] + 1e-10 * (self.rhs[s] if self.rhs[s] > 1.0 else 1.0)
        cdef double best = INFINITY, d, c
        cdef Py_ssize_t best_v = -1, v
        cdef int k
        cdef int64_t e, lo, hi
        if self.kind == KIND_GRID:
            lo, hi = 0, 8
        else:
            lo, hi = self.offsets[s], self.offsets[s + 1]
        for e in range(lo, hi):
            if self.kind == KIND_GRID:
                v = s + self.off[e]
                c = self.step(s, <int> e)
            else:
                v = self.targets[e]
                c = self.weights[e]
            if seen[v] or c == INFINITY:
                continue
            d = c if v == self.goal else c + self.g[v]
            if d > bound:
                continue
            if v == self.goal:
                step_cost[0] = c
                return v
            if d < best:
                best, best_v = d, v
                step_cost[0] = c
        return best_v

    def path(self):
        """The vertices from the agent to the goal along steps that keep to an
        optimal path (``c + g`` equal to the look-ahead): always the best such step
        when it leads on, backtracking out of dead ends (zero-cost plateaus), never
        visiting a vertex twice; and the sum of the steps. An empty array and ``inf``
        when the goal is not reached."""
        cdef Py_ssize_t n = 0, s = self.start, v
        cdef double c = 0.0
        cdef unsigned char[::1] seen
        cdef double[::1] costs
        cdef Py_ssize_t[::1] trail
        if self.rhs[s] == INFINITY:
            return np.empty(0, dtype=np.intp), INFINITY
        seen = self.seen
        out = np.empty(1024, dtype=np.intp)
        steps = np.zeros(1024)
        trail = out
        costs = steps
        trail[0] = s
        n = 1
        seen[s] = 1
        cdef Py_ssize_t nmarked = 1, i
        cdef Py_ssize_t[::1] marked = np.empty(1024, dtype=np.intp)  # to clear afterwards
        marked[0] = s
        try:
            while n > 0:
                s = trail[n - 1]
                if s == self.goal:
                    total = 0.0
                    for i in range(1, n):
                        total += costs[i]
                    return out[:n].copy(), total
                v = self.next_tight(s, seen, &c)
                if v < 0:
                    n -= 1  # a dead end: back up
                    continue
                if n == trail.shape[0]:
                    out = np.resize(out, 2 * n)
                    steps = np.resize(steps, 2 * n)
                    trail = out
                    costs = steps
                seen[v] = 1
                if nmarked == marked.shape[0]:
                    marked = np.resize(np.asarray(marked), 2 * nmarked)
                marked[nmarked] = v
                nmarked += 1
                trail[n] = v
                costs[n] = c
                n += 1
        finally:
            for i in range(nmarked):
                seen[marked[i]] = 0
        return np.empty(0, dtype=np.intp), INFINITY


def grid_planner(const double[:, ::1] padded, int diagonal, Py_ssize_t start,
                 Py_ssize_t goal, double hscale):
    """A planner on a padded grid (flat indices into ``padded``), read live."""
    cdef Planner p = Planner.__new__(Planner)
    cdef Py_ssize_t W = padded.shape[1]
    if not 0 <= diagonal <= 3:
        raise ValueError(f"diagonal must be a rule code in [0, 3]; got {diagonal}")
    if padded.shape[0] < 3 or W < 3:
        raise ValueError("padded must have a border of walls round at least one cell")
    p.kind = KIND_GRID
    p._allocate(padded.shape[0] * W)
    p.seen = np.zeros(padded.shape[0] * W, dtype=np.uint8)
    p.cost = np.asarray(padded).reshape(-1)
    p.width = W
    p.diagonal = diagonal
    # up, down, left, right, up-left, up-right, down-left, down-right
    p.off[0] = -W
    p.off[1] = W
    p.off[2] = -1
    p.off[3] = 1
    p.off[4] = -W - 1
    p.off[5] = -W + 1
    p.off[6] = W - 1
    p.off[7] = W + 1
    cdef int k
    for k in range(8):
        p.vert[k] = DR[k] * W
        p.horz[k] = DC[k]
    p.reset(start, goal, hscale)
    return p


def graph_planner(const int64_t[::1] offsets, const int32_t[::1] targets,
                  const double[::1] weights, coords, Py_ssize_t start, Py_ssize_t goal,
                  double hscale):
    """A planner on a graph's CSR arrays (``weights`` read live; ``coords`` an
    ``(n, d)`` float array or None for the zero heuristic)."""
    cdef Planner p = Planner.__new__(Planner)
    cdef Py_ssize_t n = offsets.shape[0] - 1
    if n < 1 or offsets[0] != 0 or offsets[n] != targets.shape[0]:
        raise ValueError("offsets must run from 0 to len(targets)")
    check_rows("weights", weights, targets.shape[0], "targets")
    cdef Py_ssize_t e
    for e in range(targets.shape[0]):
        if not 0 <= targets[e] < n:
            index_error("targets", targets[e], n, "node")
    p.kind = KIND_GRAPH
    p._allocate(n)
    p.seen = np.zeros(n, dtype=np.uint8)
    p.offsets = offsets
    p.targets = targets
    p.weights = weights
    tails = np.repeat(np.arange(n, dtype=np.int32), np.diff(np.asarray(offsets)))
    order = np.argsort(np.asarray(targets), kind="stable")
    p.rsources = np.ascontiguousarray(tails[order], dtype=np.int32)
    p.redges = np.ascontiguousarray(order, dtype=np.int64)
    roff = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(np.asarray(targets), minlength=n), out=roff[1:])
    p.roffsets = roff
    if coords is not None:
        check_rows("coords", coords, n, "offsets - 1")
        p.coords = np.ascontiguousarray(coords, dtype=np.float64)
        p.has_coords = True
    p.reset(start, goal, hscale)
    return p
