# cython: language_level=3
# Compiled, FrameBudget (written in _budget.py) is an extension type with these C
# fields, and its clock is read in C: a budgeted pursuer calls it around every plan.

cdef extern from "clock.h":
    # Seconds on a monotonic clock (time.perf_counter's), read in C.
    double _clock "pathcraft_now"() nogil


cdef class FrameBudget:
    cdef public object expansions
    cdef public object time_us
    cdef public object left
    cdef bint _timed
    cdef double _seconds
    cdef double _deadline
    cdef double _pending
    cdef bint _first
    cdef double _rate

    cdef double _now(self) noexcept
    cdef Py_ssize_t _first_slice(self, double seconds)
    cdef _measure(self, expanded, double seconds)
    cdef _spend(self, expanded)
