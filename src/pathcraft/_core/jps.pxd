# cython: language_level=3
"""Declarations of the jump point search kernel (:mod:`jps`) that other compiled
modules use: the packed lines a search jumps along and the search loop itself
(:mod:`pathcraft._core.quick` runs one query through them without the keyword
arguments of :func:`jps.jps`)."""

from libc.stdint cimport int64_t, uint64_t

from pathcraft._core.grid_search cimport Query, Workspace
from pathcraft._core.hashed cimport HashedWorkspace
from pathcraft._core.machine cimport KernelSettings, Outcome


cdef struct Lines:
    # Cells packed in bits: bit j of word w of line i is position 64 w + j. For each
    # orientation, the free cells and the forced ones (a jump point candidate for a
    # jump moving toward higher positions).
    const uint64_t* free[4]   # rows, rows mirrored, columns, columns mirrored
    const uint64_t* forced[4]
    Py_ssize_t row_words      # words per row line
    Py_ssize_t col_words      # words per column line
    Py_ssize_t height         # padded rows H
    bint block                # jump by blocks of 64 cells (else cell by cell)


cdef int run_jps(
    Query* q, const Lines* lines, Workspace ws, Outcome* out, int64_t budget
) noexcept nogil
cdef int run_jps_hashed(
    Query* q, const Lines* lines, HashedWorkspace ws, Outcome* out, int64_t budget
) noexcept nogil
cdef Query jps_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, double unit,
    KernelSettings settings,
) except *
cdef int _unpack(object lines, const double[:, ::1] padded, Lines* packed) except -1
cdef double _jumps_cost(
    const Py_ssize_t* jumps, Py_ssize_t n, Py_ssize_t W, double unit
) noexcept nogil
cdef object filled_cells(const Py_ssize_t* jumps, Py_ssize_t n, Py_ssize_t W)
cdef int successors(
    const Query* q, Py_ssize_t u, Py_ssize_t parent, Py_ssize_t* dirs
) noexcept nogil
