# cython: language_level=3
"""Compiled component labels of a grid's walkable cells under its move rule.

Two walkable cells share a label when a unit can walk from one to the other. Every
diagonal rule but ``"always"`` joins the same cells as 4-connected moves: a diagonal
step allowed by ``"no_corner_cut"`` or ``"one_free"`` has a free orthogonal cell
beside it, through which two straight steps reach the same cell. ``"always"`` joins
the 8 neighbours. Moves are symmetric on a grid, so the labels are the connected
components, the same as ``scipy.ndimage.label`` with the matching structure.

Arrays are the grid's *padded* cost array (a border of ``inf`` all round, so no step
leaves it and the flood needs no bounds checks) and flat int32 labels of the same
size, ``-1`` on walls. :func:`label` floods every component breadth first over a
caller-given queue with the GIL released, labelling components ``0, 1, ...`` in
row-major order of their first cell.
"""

from libc.math cimport isfinite
from libc.stdint cimport int32_t


cdef Py_ssize_t _flood(
    int32_t* labels, Py_ssize_t* queue, Py_ssize_t seed,
    const Py_ssize_t* steps, int nsteps, int32_t tag,
) noexcept nogil:
    """Label every walkable cell joined to ``seed`` with ``tag``; the cells labelled."""
    cdef Py_ssize_t head = 0, tail = 1, u, v
    cdef int k
    labels[seed] = tag
    queue[0] = seed
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(nsteps):
            v = u + steps[k]
            if labels[v] == -2:  # walkable, not labelled yet
                labels[v] = tag
                queue[tail] = v
                tail += 1
    return tail


def label(
    const double[:, ::1] padded not None,
    bint eight,
    int32_t[::1] labels not None,
    Py_ssize_t[::1] queue not None,
):
    """Label the walkable cells of ``padded`` by component into ``labels``.

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's padded costs (``inf``: a wall; the border all walls).
    eight : bool
        Join the 8 neighbours (``diagonal="always"``); else the 4 orthogonal ones.
    labels : ndarray of int32, shape (padded.size,)
        Written: the component of every cell, ``-1`` on walls.
    queue : ndarray of intp, shape (padded.size,)
        Scratch space.

    Returns
    -------
    int
        The number of components.
    """
    cdef Py_ssize_t rows = padded.shape[0], cols = padded.shape[1], n = rows * cols
    cdef Py_ssize_t i
    cdef int32_t count = 0
    cdef Py_ssize_t steps[8]
    cdef int nsteps = 8 if eight else 4
    if rows < 3 or cols < 3:
        raise ValueError(f"padded must be at least 3 x 3; got {rows} x {cols}")
    if labels.shape[0] != n or queue.shape[0] != n:
        raise ValueError(f"labels and queue must hold {n} cells")
    steps[0] = -cols
    steps[1] = cols
    steps[2] = -1
    steps[3] = 1
    steps[4] = -cols - 1
    steps[5] = -cols + 1
    steps[6] = cols - 1
    steps[7] = cols + 1
    cdef const double* cost = &padded[0, 0]
    cdef int32_t* out = &labels[0]
    cdef Py_ssize_t* q = &queue[0]
    with nogil:
        for i in range(n):
            out[i] = -2 if isfinite(cost[i]) else -1
        for i in range(cols):  # the border is a wall whatever it holds
            out[i] = -1
            out[n - 1 - i] = -1
        for i in range(rows):
            out[i * cols] = -1
            out[i * cols + cols - 1] = -1
        for i in range(n):
            if out[i] == -2:
                _flood(out, q, i, steps, nsteps, count)
                count += 1
    return count
