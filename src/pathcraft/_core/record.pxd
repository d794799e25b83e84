# cython: language_level=3
"""What a recording search keeps (``record=True``): each expanded item, in order, and its
g-cost, in buffers that grow by doubling (:mod:`grow`). Shared by every compiled search's workspace;
all functions are ``inline`` and ``nogil``."""

from libc.stdlib cimport free

from pathcraft._core.grow cimport grow


cdef struct Recorder:
    Py_ssize_t* items
    double* g
    Py_ssize_t size
    Py_ssize_t capacity


cdef inline void recorder_init(Recorder* r) noexcept nogil:
    r.items = NULL
    r.g = NULL
    r.size = 0
    r.capacity = 0


cdef inline void recorder_free(Recorder* r) noexcept nogil:
    free(r.items)
    free(r.g)
    recorder_init(r)


cdef inline int recorder_push(Recorder* r, Py_ssize_t item, double g) noexcept nogil:
    """Append one expansion; -1 (nothing appended) when memory ran out."""
    cdef Py_ssize_t capacity = r.capacity
    if r.size == r.capacity:
        # the two buffers grow in turn; r.capacity follows the second (the smaller)
        if grow(<void**> &r.items, &capacity, 1024, sizeof(Py_ssize_t)) != 0:
            return -1
        if grow(<void**> &r.g, &r.capacity, 1024, sizeof(double)) != 0:
            return -1
    r.items[r.size] = item
    r.g[r.size] = g
    r.size += 1
    return 0
