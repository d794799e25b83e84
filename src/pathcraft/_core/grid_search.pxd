# cython: language_level=3
"""Declarations shared by the grid kernels (:mod:`grid_search` and :mod:`jps`).

The option codes, the settings of one query, the per-thread :class:`Workspace` and the
inline helpers every grid search uses: the heuristic, the tie-breaker and ``relax``,
which offers one step to the open list. Kernels ``cimport`` them and run them with the
GIL released.
"""

from libc.math cimport fabs, sqrt
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from pathcraft._core.codes cimport (
    MODE_ASTAR,
    MODE_DIJKSTRA,
    MODE_GREEDY,
    ST_EXHAUSTED,
    ST_FOUND,
    ST_IN_PROGRESS,
    ST_MAX_COST,
    ST_MAX_EXPANSIONS,
    ST_UNREACHABLE,
    priority,
)
from pathcraft._core.machine cimport Outcome
from pathcraft._core.record cimport Recorder
from pathcraft._core.heap cimport Heap, iheap_push, iheap_update, tie_key

cdef extern from *:
    """
    #define PATHCRAFT_SQRT2 1.4142135623730951
    #define PATHCRAFT_OCTILE_DIAG 0.41421356237309515
    """
    const double SQRT2 "PATHCRAFT_SQRT2"
    const double OCTILE_DIAG "PATHCRAFT_OCTILE_DIAG"

# Option codes shared with pathcraft.grid (keep in sync with the tables there).
cdef enum:
    NEVER = 0
    NO_CORNER_CUT = 1
    ONE_FREE = 2
    ALWAYS = 3

cdef enum:
    H_ZERO = 0
    H_MANHATTAN = 1
    H_OCTILE = 2
    H_EUCLIDEAN = 3
    H_CHEBYSHEV = 4




cdef struct Query:
    const double* cost
    Py_ssize_t width          # padded width: columns + 2
    int diagonal
    int hkind
    int mode
    int tie
    double hscale             # the heuristic is multiplied by this (the smallest cost)
    double weight
    Py_ssize_t goal           # padded flat index of the single goal, or -1
    Py_ssize_t goal_r
    Py_ssize_t goal_c
    bint use_goal_set         # goals marked in the workspace's goal marks
    int64_t max_expansions    # -1: no limit
    double max_cost           # INFINITY: no limit
    bint partial
    bint record
    uint64_t rng


cdef struct CellState:
    double g                  # cost from the nearest source
    int32_t parent            # padded flat index of the parent, -1 for a source
    uint32_t mark             # == gen: reached this query; == gen + 1: expanded


cdef class Workspace:
    cdef readonly Py_ssize_t capacity
    cdef CellState* cell      # one cache line holds four cells' whole state
    cdef int32_t* pos         # place in the heap of each open cell (mark == gen)
    cdef uint32_t* goal_mark  # == gen: a goal of this query (allocated on first use)
    cdef uint32_t gen
    cdef Heap heap
    cdef Recorder rec         # the expansions of a recording query
    cdef Py_ssize_t* trail    # scratch: the last path traced, start first
    cdef Py_ssize_t trail_capacity

    cdef int next_generation(self) noexcept nogil
    cdef Py_ssize_t trace(self, Py_ssize_t cell) noexcept nogil
    cdef int ensure_goal_marks(self) except -1
    cdef int record(self, Py_ssize_t cell, double g) noexcept nogil


cdef Query make_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, int hkind, int mode, int tie,
    double hscale, double weight, Py_ssize_t goal, bint use_goal_set,
    int64_t max_expansions, double max_cost, bint partial, bint record, uint64_t seed,
) except *

cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil
cdef int check_cell(str name, Py_ssize_t cell, Py_ssize_t rows, Py_ssize_t cols) except -1
cdef int check_cells(str name, const Py_ssize_t[:] cells, Py_ssize_t rows, Py_ssize_t cols) except -1
cdef object walk_back(Workspace ws, Py_ssize_t cell)
cdef double path_cost(const double[:, ::1] padded, const Py_ssize_t[::1] path) noexcept
cdef double steps_cost(
    const double* cost, Py_ssize_t width, const Py_ssize_t* path, Py_ssize_t n
) noexcept nogil
cdef object copy_record(Workspace ws, Py_ssize_t width)
cdef object to_cells(const Py_ssize_t[::1] flat, Py_ssize_t width)


cdef inline void aim(Query* q, Py_ssize_t goal) noexcept nogil:
    """Set the single goal of a query (a padded flat index, or -1 for none)."""
    q.goal = goal
    q.goal_r = goal // q.width if goal >= 0 else 0
    q.goal_c = goal % q.width if goal >= 0 else 0


cdef inline double heuristic_rc(const Query* q, Py_ssize_t r, Py_ssize_t c) noexcept nogil:
    """The heuristic from the padded cell ``(r, c)`` to the goal."""
    cdef double dr, dc, lo, hi
    if q.hkind == H_ZERO:
        return 0.0
    dr = fabs(<double> (r - q.goal_r))
    dc = fabs(<double> (c - q.goal_c))
    if dr < dc:
        lo = dr
        hi = dc
    else:
        lo = dc
        hi = dr
    if q.hkind == H_OCTILE:
        return (hi + OCTILE_DIAG * lo) * q.hscale
    if q.hkind == H_MANHATTAN:
        return (hi + lo) * q.hscale
    if q.hkind == H_EUCLIDEAN:
        return sqrt(dr * dr + dc * dc) * q.hscale
    return hi * q.hscale  # H_CHEBYSHEV


cdef inline double heuristic(const Query* q, Py_ssize_t cell) noexcept nogil:
    return heuristic_rc(q, cell // q.width, cell % q.width)


cdef inline double tie_value(Query* q, double d) noexcept nogil:
    return tie_key(q.tie, &q.rng, d)


cdef inline int relax(
    Query* q, Workspace ws, Outcome* out,
    Py_ssize_t u, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil:
    """Offer the step u -> v (v at padded row vr, column vc); push v when it is new
    or, for A* and Dijkstra, reached more cheaply than before: an open v has its heap
    entry updated in place, an expanded one is reopened."""
    cdef double d = gu + step
    cdef double h, f
    cdef uint32_t m = ws.cell[v].mark
    if m >= ws.gen:  # reached this query (marks of older queries are smaller)
        if q.mode == MODE_GREEDY or d >= ws.cell[v].g:
            return 0
    if d > q.max_cost:
        out.pruned = True
        return 0
    h = heuristic_rc(q, vr, vc)
    ws.cell[v].g = d
    ws.cell[v].parent = <int32_t> u
    ws.cell[v].mark = ws.gen
    f = priority(q.mode, q.weight, d, h)
    if m == ws.gen:  # open: in the heap already
        iheap_update(&ws.heap, ws.pos[v], f, tie_value(q, d), ws.pos)
    elif iheap_push(&ws.heap, f, tie_value(q, d), v, ws.pos) != 0:
        return -1
    out.generated += 1  # counted as a push, as the generic search counts them
    return 0
