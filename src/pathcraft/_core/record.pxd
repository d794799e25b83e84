# cython: language_level=3
"""What a recording search keeps (``record=True``): each expanded item, in order, and its
g-cost, in buffers that grow by doubling. Shared by every compiled search's workspace;
all functions are ``inline`` and ``nogil``."""

from libc.stdlib cimport free, realloc


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
    cdef Py_ssize_t new_capacity
    cdef Py_ssize_t* items
    cdef double* gs
    if r.size == r.capacity:
        new_capacity = r.capacity * 2 if r.capacity > 0 else 1024
        items = <Py_ssize_t*> realloc(r.items, new_capacity * sizeof(Py_ssize_t))
        if items == NULL:
            return -1
        r.items = items
        gs = <double*> realloc(r.g, new_capacity * sizeof(double))
        if gs == NULL:
            return -1
        r.g = gs
        r.capacity = new_capacity
    r.items[r.size] = item
    r.g[r.size] = g
    r.size += 1
    return 0
