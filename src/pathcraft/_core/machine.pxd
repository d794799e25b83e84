# cython: language_level=3
"""The step machine every compiled search is: its outcome so far and the one ``step``
that advances it ``n`` expansions with the GIL released (``Machine``, subclassed by
``grid_search.GridSearch``, ``jps.JpsSearch``, ``graph_search.GraphSearch`` and
``polyanya.PolyanyaSearch``). A blocking search is one unlimited step of its machine."""

from libc.math cimport INFINITY
from libc.stdint cimport int64_t

from pathcraft._core.codes cimport (
    ST_EXHAUSTED,
    ST_FOUND,
    ST_IN_PROGRESS,
    ST_MAX_COST,
    ST_UNREACHABLE,
)


cdef struct Outcome:
    int status                # ST_IN_PROGRESS until the search ends
    Py_ssize_t reached        # the goal node expanded (found)
    Py_ssize_t best           # expanded node closest to the goal (partial paths)
    int64_t expanded
    int64_t generated
    double best_h             # the heuristic of ``best``
    bint pruned               # a step (or a source) was cut by max_cost


cdef inline void begin(Outcome* out) noexcept nogil:
    """Reset the outcome of a query about to start."""
    out.status = ST_IN_PROGRESS
    out.reached = -1
    out.best = -1
    out.best_h = INFINITY
    out.pruned = False
    out.expanded = 0
    out.generated = 0


cdef inline void end_search(bint has_goal, Outcome* out) noexcept nogil:
    """The open list ran dry: why the search ended."""
    if not has_goal:
        out.status = ST_EXHAUSTED
    elif out.pruned:
        out.status = ST_MAX_COST
    else:
        out.status = ST_UNREACHABLE


cdef inline Py_ssize_t end_node(const Outcome* out, bint partial, Py_ssize_t fallback) noexcept nogil:
    """Where the answer's path ends: the goal reached; for a partial path, the expanded
    node closest to the goal (``fallback``, a source, when none was); else -1."""
    if out.status == ST_FOUND:
        return out.reached
    if partial and out.status != ST_EXHAUSTED:
        return out.best if out.best >= 0 else fallback
    return -1


cdef class Machine:
    cdef Outcome out
    cdef int run(self, int64_t budget) noexcept nogil
