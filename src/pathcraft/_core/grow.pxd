# cython: language_level=3
"""Growing a C buffer by doubling: how the recorder and flow-field repair's stack grow.
``inline`` and ``nogil``. (The bucket stacks of the 4-connected search keep their own
three lines: through this helper its loop measured up to ~8% slower on maze512-1-0.)"""

from libc.stdlib cimport realloc


cdef inline int grow(
    void** items, Py_ssize_t* capacity, Py_ssize_t first, size_t item
) noexcept nogil:
    """Reallocate the buffer ``*items`` of ``item``-byte entries to twice
    ``*capacity`` entries (``first`` when it holds none yet) and update both; -1,
    both unchanged, when memory ran out."""
    cdef Py_ssize_t wanted = first if capacity[0] == 0 else 2 * capacity[0]
    cdef void* grown = realloc(items[0], wanted * item)
    if grown == NULL:
        return -1
    items[0] = grown
    capacity[0] = wanted
    return 0
