# cython: language_level=3
"""Compiled true clearance of grid cells, and the cost arrays a unit of size k sees.

The *true clearance* of a cell (Harabor & Botea, "Hierarchical path planning for
multi-size agents in heterogeneous environments", 2008) is the side of the largest
square of free cells that has the cell as its **top-left** corner: the cells
``(r .. r + k - 1, c .. c + k - 1)`` are all free for every ``k <= clearance[r, c]``
(0 on a wall; squares never leave the grid). It obeys, from the bottom-right corner,

    clearance[r, c] = 0 on a wall, else 1 + min(clearance[r + 1, c],
                                                clearance[r, c + 1],
                                                clearance[r + 1, c + 1])

with 0 outside the grid. Arrays here are the grid's *padded* cost array (a border of
``inf`` all round: cell ``(r, c)`` at ``(r + 1, c + 1)``) and an int32 clearance array
of shape ``(rows + 1, cols + 1)`` whose last row and column stay 0 (the sentinels of
the recurrence). A cell edit changes the clearance only above and to the left of it;
:func:`repair` recomputes those rows from the edit upward and stops at the first row
where nothing changed. :func:`unit_costs` writes, for the anchors of a box, the cost a
unit of size ``k`` pays to enter them: the largest cost under its ``k x k`` footprint
where it fits (``clearance >= k``), ``inf`` elsewhere. Every entry checks the shapes
(O(1)) and clips the box before it releases the GIL.
"""

from libc.math cimport INFINITY, isfinite
from libc.stdint cimport int32_t

import numpy as np


cdef int _check(const double[:, ::1] padded, const int32_t[:, ::1] clear) except -1:
    if padded.shape[0] < 3 or padded.shape[1] < 3:
        raise ValueError(f"padded must be at least 3 x 3; got {padded.shape[0]} x {padded.shape[1]}")
    if clear.shape[0] != padded.shape[0] - 1 or clear.shape[1] != padded.shape[1] - 1:
        raise ValueError(
            f"clear must have shape ({padded.shape[0] - 1}, {padded.shape[1] - 1}); "
            f"got ({clear.shape[0]}, {clear.shape[1]})"
        )
    return 0


cdef bint _clip(const double[:, ::1] padded, Py_ssize_t* r0, Py_ssize_t* r1,
                Py_ssize_t* c0, Py_ssize_t* c1) noexcept:
    """Clip the inner box ``[r0, r1] x [c0, c1]`` to the grid of ``padded``, in place;
    whether anything is left of it."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    r0[0] = max(r0[0], 0)
    r1[0] = min(r1[0], rows - 1)
    c0[0] = max(c0[0], 0)
    c1[0] = min(c1[0], cols - 1)
    return r0[0] <= r1[0] and c0[0] <= c1[0]


cdef inline int32_t _cell(const double[:, ::1] padded, int32_t[:, ::1] clear,
                          Py_ssize_t r, Py_ssize_t c) noexcept nogil:
    """The recurrence at inner cell ``(r, c)`` (its neighbours below/right are final)."""
    cdef int32_t m
    if not isfinite(padded[r + 1, c + 1]):
        return 0
    m = clear[r + 1, c]
    if clear[r, c + 1] < m:
        m = clear[r, c + 1]
    if clear[r + 1, c + 1] < m:
        m = clear[r + 1, c + 1]
    return m + 1


def compute(const double[:, ::1] padded, int32_t[:, ::1] clear):
    """Fill ``clear`` (shape ``(rows + 1, cols + 1)``) with every cell's clearance."""
    _check(padded, clear)
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t r, c
    with nogil:
        for c in range(cols + 1):
            clear[rows, c] = 0
        for r in range(rows + 1):
            clear[r, cols] = 0
        for r in range(rows - 1, -1, -1):
            for c in range(cols - 1, -1, -1):
                clear[r, c] = _cell(padded, clear, r, c)


def repair(const double[:, ::1] padded, int32_t[:, ::1] clear,
           Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t c0, Py_ssize_t c1):
    """Bring ``clear`` up to date after the cells of the inner box ``[r0, r1] x [c0,
    c1]`` changed; return the number of cells recomputed.

    Row by row upward from ``r1``: a row recomputes the box's columns (while in the
    box), the columns under which the row below changed and one more to their left,
    and keeps going left while a cell changes; it ends at the first row above the box
    where nothing changed. Only cells whose squares can reach an edited cell are read.
    """
    _check(padded, clear)
    if not _clip(padded, &r0, &r1, &c0, &c1):
        return 0
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t i, j, lo, hi, prev_lo = cols, prev_hi = -1, ch_lo, ch_hi
    cdef Py_ssize_t work = 0
    cdef int32_t value
    cdef bint changed
    with nogil:
        i = r1
        while i >= 0:
            lo = cols
            hi = -1
            if i >= r0:
                lo = c0
                hi = c1
            if prev_hi >= 0:
                if prev_lo - 1 < lo:
                    lo = prev_lo - 1 if prev_lo > 0 else 0
                if prev_hi > hi:
                    hi = prev_hi
            if hi < 0:
                break
            ch_lo = cols
            ch_hi = -1
            changed = False
            j = hi
            while j >= 0 and (j >= lo or changed):
                value = _cell(padded, clear, i, j)
                work += 1
                if value != clear[i, j]:
                    clear[i, j] = value
                    changed = True
                    if j < ch_lo:
                        ch_lo = j
                    if j > ch_hi:
                        ch_hi = j
                else:
                    changed = False
                j -= 1
            prev_lo = ch_lo
            prev_hi = ch_hi
            if i < r0 and ch_hi < 0:
                break
            i -= 1
    return work


def unit_costs(const double[:, ::1] padded, const int32_t[:, ::1] clear, int k,
               double[:, ::1] out, Py_ssize_t r0, Py_ssize_t r1,
               Py_ssize_t c0, Py_ssize_t c1):
    """Write into ``out`` (padded, like ``padded``) the cost a unit of size ``k`` pays
    to enter each anchor of the inner box ``[r0, r1] x [c0, c1]`` (clipped to the
    grid): the largest cost under its footprint where ``clearance >= k``, else ``inf``.
    The footprint maximum is taken along rows, then along columns (2k reads a cell)."""
    _check(padded, clear)
    if out.shape[0] != padded.shape[0] or out.shape[1] != padded.shape[1]:
        raise ValueError("out must have the shape of padded")
    if k < 1:
        raise ValueError(f"k must be >= 1; got {k}")
    if not _clip(padded, &r0, &r1, &c0, &c1):
        return
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t height = r1 - r0 + k, width = c1 - c0 + 1
    if r0 + height > rows:
        height = rows - r0
    cdef double[:, ::1] rowmax = np.empty((height, width))
    cdef Py_ssize_t i, j, t, last
    cdef double m, v
    with nogil:
        for i in range(height):
            for j in range(width):
                m = 0.0
                last = c0 + j + k
                if last > cols:
                    last = cols
                for t in range(c0 + j, last):
                    v = padded[r0 + i + 1, t + 1]
                    if v > m:
                        m = v
                rowmax[i, j] = m
        for i in range(r1 - r0 + 1):
            for j in range(width):
                if clear[r0 + i, c0 + j] < k:
                    out[r0 + i + 1, c0 + j + 1] = INFINITY
                    continue
                m = 0.0
                for t in range(i, i + k):
                    v = rowmax[t, j]
                    if v > m:
                        m = v
                out[r0 + i + 1, c0 + j + 1] = m
