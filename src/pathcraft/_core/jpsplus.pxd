# cython: language_level=3
"""Declarations of the offline jump table search (:mod:`jpsplus`), for
:mod:`pathcraft._core.quick`."""

from libc.stdint cimport int32_t, int64_t

from pathcraft._core.grid_search cimport Query, Workspace
from pathcraft._core.machine cimport Outcome


cdef int run_jpsplus(
    Query* q, const int32_t* table, Workspace ws, Outcome* out, int64_t budget
) noexcept nogil
