# cython: language_level=3
"""Compiled pre-test of line of sight: segments against disks around obstacles.

For each candidate (segment, obstacle) pair, the distance from the segment to the
obstacle's inscribed centre decides most pairs without shapely: closer than the inner
radius, the segment enters the obstacle's interior (blocked); farther than the outer
radius, it misses the obstacle (clear). The rest are left to an exact test. The radii
already carry their safety margins (see :mod:`pathcraft._visibility`).
"""

from libc.math cimport sqrt
from libc.stdint cimport int8_t

from pathcraft._core.bounds cimport check_indices, check_rows

cdef enum:
    C_CLEAR = 0
    C_BLOCKED = 1
    C_UNKNOWN = 2

CLEAR = C_CLEAR
BLOCKED = C_BLOCKED
UNKNOWN = C_UNKNOWN


def classify_pairs(
    const double[:, ::1] a not None,
    const double[:, ::1] b not None,
    const Py_ssize_t[::1] seg not None,
    const Py_ssize_t[::1] obs not None,
    const double[:, ::1] centers not None,
    const double[::1] inner not None,
    const double[::1] outer not None,
    int8_t[::1] out not None,
):
    """Write CLEAR, BLOCKED or UNKNOWN into ``out[k]`` for the pair
    ``(segment a[seg[k]] -> b[seg[k]], obstacle obs[k])``."""
    cdef Py_ssize_t k, s, o
    cdef double ax, ay, dx, dy, px, py, den, t, ex, ey, d
    if a.shape[1] != 2 or b.shape[1] != 2 or centers.shape[1] != 2:
        raise ValueError("a, b and centers must be (n, 2) arrays")
    check_rows("b", b, a.shape[0], "a")
    check_rows("obs", obs, seg.shape[0], "seg")
    check_rows("out", out, seg.shape[0], "seg")
    check_rows("inner", inner, centers.shape[0], "centers")
    check_rows("outer", outer, centers.shape[0], "centers")
    check_indices[Py_ssize_t]("seg", seg, a.shape[0], "segment")
    check_indices[Py_ssize_t]("obs", obs, centers.shape[0], "obstacle")
    with nogil:
        for k in range(seg.shape[0]):
            s = seg[k]
            o = obs[k]
            ax = a[s, 0]
            ay = a[s, 1]
            dx = b[s, 0] - ax
            dy = b[s, 1] - ay
            px = centers[o, 0] - ax
            py = centers[o, 1] - ay
            den = dx * dx + dy * dy
            t = 0.0
            if den > 0.0:
                t = (px * dx + py * dy) / den
                if t < 0.0:
                    t = 0.0
                elif t > 1.0:
                    t = 1.0
            ex = px - t * dx
            ey = py - t * dy
            d = sqrt(ex * ex + ey * ey)
            if d < inner[o]:
                out[k] = C_BLOCKED
            elif d > outer[o]:
                out[k] = C_CLEAR
            else:
                out[k] = C_UNKNOWN
