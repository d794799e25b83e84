# cython: language_level=3
"""Declarations shared by the grid kernels (:mod:`grid_search` and :mod:`jps`; the
moves and corner rules also by layered levels, Theta*, D* Lite and flow repair).

The option codes, the settings of one query, the per-thread :class:`Workspace` and the
inline helpers every grid search uses: the eight moves and the corner rule
(:func:`move_open`, :func:`move_cost`), the heuristic and ``relax``, which offers one
step to the open list, and the bucket open list's pieces (``bucket_push``,
``steps_to_goal``, ``next_bucket_node``; also run by ``hashed``). Kernels ``cimport`` them and run them with the GIL released.
"""

from libc.math cimport INFINITY, fabs, sqrt
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from libc.stdlib cimport realloc

from pathcraft._core.codes cimport ST_MAX_EXPANSIONS
from pathcraft._core.machine cimport (
    NO_NODE,
    OUT_OF_MEMORY,
    BaseWorkspace,
    Outcome,
    Settings,
    end_search,
    improves,
    open_node,
)
from pathcraft._core.record cimport recorder_push

cdef extern from *:
    """
    #define PATHCRAFT_SQRT2 1.4142135623730951
    #define PATHCRAFT_OCTILE_DIAG 0.41421356237309515
    """
    const double SQRT2 "PATHCRAFT_SQRT2"
    const double OCTILE_DIAG "PATHCRAFT_OCTILE_DIAG"

cdef extern from *:
    """
    static CYTHON_UNUSED const Py_ssize_t pathcraft_grid_dr[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
    static CYTHON_UNUSED const Py_ssize_t pathcraft_grid_dc[8] = {0, 0, -1, 1, -1, 1, -1, 1};
    """
    # The grid's eight moves (row and column steps) in the order every grid loop
    # visits them: up, down, left, right, then up-left, up-right, down-left,
    # down-right (the first four alone on a 4-connected grid).
    const Py_ssize_t* DR "pathcraft_grid_dr"
    const Py_ssize_t* DC "pathcraft_grid_dc"

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
    double hscale             # the heuristic is multiplied by this (the smallest cost)
    Py_ssize_t goal           # padded flat index of the single goal, or -1
    Py_ssize_t goal_r
    Py_ssize_t goal_c
    bint use_goal_set         # goals marked in the workspace's goal marks
    Settings s
    bint buckets              # run by :func:`run_buckets` (see ``use_buckets``)


cdef struct Bucket:
    # One stack of the bucket open list: padded flat cells, the last pushed on top.
    int32_t* items
    Py_ssize_t size
    Py_ssize_t capacity


cdef class Workspace(BaseWorkspace):
    # The bucket open list of the uniform-cost 4-connected search: three stacks, the
    # cells whose f (in steps) is ``level``, ``level + 1`` and ``level + 2``, at
    # ``ring[f % 3]``.
    cdef Bucket ring[3]
    cdef int64_t level


cdef int check_grid(const double[:, ::1] padded, Workspace ws) except -1
cdef Query make_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, int hkind, double hscale
) except *

cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil
cdef bint use_buckets(Query* q, double unit, Py_ssize_t sources) noexcept nogil
cdef int open_start(Query* q, Workspace ws, Py_ssize_t start, Outcome* out) noexcept nogil
cdef int check_cell(str name, Py_ssize_t cell, Py_ssize_t rows, Py_ssize_t cols) except -1
cdef int check_cells(str name, const Py_ssize_t[:] cells, Py_ssize_t rows, Py_ssize_t cols) except -1
cdef double path_cost(const double[:, ::1] padded, const Py_ssize_t[::1] path) noexcept
cdef double steps_cost(
    const double* cost, Py_ssize_t width, const Py_ssize_t* path, Py_ssize_t n
) noexcept nogil
cdef object copy_record_cells(Workspace ws, Py_ssize_t width)
cdef object to_cells(const Py_ssize_t[::1] flat, Py_ssize_t width)


cdef inline bint corner_open(
    const double* cost, Py_ssize_t side_a, Py_ssize_t side_b, int diagonal
) noexcept nogil:
    """Whether a diagonal step passing between the cells ``side_a`` and ``side_b``
    obeys the corner rule ``diagonal``: ``always`` needs neither free, ``one_free``
    one of them, ``no_corner_cut`` (and ``never``) both."""
    if diagonal == ALWAYS:
        return True
    if diagonal == ONE_FREE:
        return cost[side_a] != INFINITY or cost[side_b] != INFINITY
    return cost[side_a] != INFINITY and cost[side_b] != INFINITY


cdef inline bint move_open(
    const double* cost, Py_ssize_t width, int diagonal, Py_ssize_t u, int k
) noexcept nogil:
    """Whether the grid's move ``k`` (``DR[k]``, ``DC[k]``) from the padded cell ``u``
    of a grid ``width`` wide enters a free cell and, diagonally, passes a corner the
    rule ``diagonal`` opens (:func:`corner_open`). Whether ``never`` allows a
    diagonal move at all is the caller's test (loops over the first four moves only;
    :func:`move_cost` tests it)."""
    if cost[u + DR[k] * width + DC[k]] == INFINITY:
        return False
    return k < 4 or corner_open(cost, u + DR[k] * width, u + DC[k], diagonal)


cdef inline double move_cost(
    const double* cost, Py_ssize_t width, int diagonal, Py_ssize_t u, int k
) noexcept nogil:
    """The cost of the grid's move ``k`` from ``u``: the cost of the cell it enters,
    times ``SQRT2`` diagonally; ``INFINITY`` where :func:`move_open` says no and for
    a diagonal move under ``never``."""
    if not move_open(cost, width, diagonal, u, k):
        return INFINITY
    if k < 4:
        return cost[u + DR[k] * width + DC[k]]
    return INFINITY if diagonal == NEVER else cost[u + DR[k] * width + DC[k]] * SQRT2


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


cdef inline int relax(
    Query* q, Workspace ws, Outcome* out,
    Py_ssize_t u, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil:
    """Offer the step u -> v (v at padded row vr, column vc) to the open list: the
    skeleton's ``improves`` and ``open_node`` with the grid's heuristic."""
    cdef double d = gu + step
    if not improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
        return 0
    return open_node(
        ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, u, v, d, heuristic_rc(q, vr, vc)
    )


cdef inline int bucket_push(Bucket* b, Py_ssize_t v) noexcept nogil:
    """Put ``v`` on top of the stack ``b``; -1 when memory ran out."""
    cdef Py_ssize_t capacity
    cdef int32_t* grown
    if b.size == b.capacity:
        capacity = 1024 if b.capacity == 0 else 2 * b.capacity
        grown = <int32_t*> realloc(b.items, capacity * sizeof(int32_t))
        if grown == NULL:
            return -1
        b.items = grown
        b.capacity = capacity
    b.items[b.size] = <int32_t> v
    b.size += 1
    return 0


cdef inline Py_ssize_t steps_to_goal(const Query* q, Py_ssize_t r, Py_ssize_t c) noexcept nogil:
    """The heuristic from the padded cell ``(r, c)`` in steps (an integer: zero,
    Manhattan or Chebyshev), what the bucket search orders by."""
    cdef Py_ssize_t dr, dc
    if q.hkind == H_ZERO:
        return 0
    dr = r - q.goal_r
    dc = c - q.goal_c
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if q.hkind == H_MANHATTAN:
        return dr + dc
    return dr if dr > dc else dc  # H_CHEBYSHEV


cdef inline Py_ssize_t next_bucket_node(
    Query* q, Workspace ws, Outcome* out, int64_t* left, bint has_goal
) noexcept nogil:
    """:func:`machine.next_node` on the bucket open list: the top of the lowest
    non-empty bucket that is not expanded yet (a cell reached again more cheaply
    leaves its older entry behind, in a higher bucket, skipped here). The stacks
    hold what indexes ``ws.cell``: cells, or a hashed workspace's slots."""
    cdef Bucket* b
    cdef Py_ssize_t u
    if left[0] == 0:
        return NO_NODE
    while True:
        b = &ws.ring[ws.level % 3]
        if b.size == 0:
            if ws.ring[0].size == 0 and ws.ring[1].size == 0 and ws.ring[2].size == 0:
                end_search(has_goal, out)
                return NO_NODE
            ws.level += 1
            continue
        u = b.items[b.size - 1]
        if ws.cell[u].mark == ws.gen + 1:
            b.size -= 1
            continue
        break
    if out.expanded == q.s.max_expansions:
        out.status = ST_MAX_EXPANSIONS
        return NO_NODE
    b.size -= 1
    left[0] -= 1
    ws.cell[u].mark = ws.gen + 1
    out.expanded += 1
    if q.s.record and recorder_push(&ws.rec, u, ws.cell[u].g) != 0:
        return OUT_OF_MEMORY
    return u
