# cython: language_level=3
"""The checks every ``def`` kernel entry makes before it releases the GIL: indices in
range and shapes that agree, in O(k) for the k indices a query names and O(1) for the
world's arrays (their contents are checked when the world is built). A failed check
raises IndexError or ValueError naming the argument, never a crash."""

from libc.stdint cimport int32_t, int64_t

cdef inline int index_error(str name, Py_ssize_t value, Py_ssize_t n, str what) except -1:
    raise IndexError(f"{name}: {what} index {value} is not in [0, {n})")


ctypedef fused index_t:
    int32_t
    Py_ssize_t


cdef inline int check_indices(
    str name, const index_t[:] values, Py_ssize_t n, str what
) except -1:
    """IndexError unless every entry of ``values`` (int32 or intp) is in ``[0, n)``."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        if not 0 <= values[i] < n:
            index_error(name, values[i], n, what)
    return 0


cdef inline int check_rows(str name, object values, Py_ssize_t n, str of) except -1:
    """ValueError unless ``values`` (an array or memoryview, or None) has ``n`` rows."""
    if values is not None and len(values) != n:
        raise ValueError(f"{name} has {len(values)} entries; {of} has {n}")
    return 0


cdef inline Py_ssize_t check_mesh(
    const double[:, ::1] xy, const int64_t[::1] poff, const int32_t[::1] pv,
    const int32_t[::1] nbr,
) except -1:
    """The number of polygons of a mesh, after checking its arrays' shapes agree:
    ``xy`` (vertices, 2), ``poff`` running from 0 to ``len(pv)``, one neighbour per
    polygon edge."""
    cdef Py_ssize_t npoly = poff.shape[0] - 1
    if xy.shape[1] != 2:
        raise ValueError(f"xy must have shape (vertices, 2); got {xy.shape[1]} columns")
    if npoly < 0 or poff[0] != 0 or poff[npoly] != pv.shape[0]:
        raise ValueError("poff must run from 0 to len(pv)")
    check_rows("nbr", nbr, pv.shape[0], "pv")
    return npoly
