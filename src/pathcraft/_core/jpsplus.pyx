# cython: language_level=3
"""Jump point search from an offline jump table (JPS+; S. Rabin, "JPS+: An Extreme A*
Speed Optimization for Static Uniform Cost Grids", Game AI Pro 2, 2015).

For a static map, every walkable cell stores, for each of the 8 directions, how far a
jump from it goes (:func:`build_table`): ``+k`` when the jump point is ``k`` steps away,
``-k`` when a wall comes after ``k`` free steps (0: blocked at once). A straight jump
point is a cell with a forced neighbour (the Moving AI rule: diagonal moves never cut
a corner, so only straight moves have forced neighbours); a diagonal one is a cell from
which a straight jump along either component reaches a jump point. The search
(:func:`run_jpsplus`) is the online jump point search of :mod:`jps` with every jump
replaced by table reads, plus the goal: on a straight line toward it within the
jump's reach it is reached directly, and in a diagonal's quadrant the cell where the
diagonal meets its row or column is pushed (the "target jump point"). Diagonal jump
points are not pushed: the straight jump points found from each are, with the cell
expanded as their parent (as the online search prunes them; Harabor & Grastien 2014). The paths, as
jump points, run straight or diagonally between consecutive ones, so ``quick``'s fill
and cost (diagonal first, then straight) apply unchanged.

The table holds 8 int32 per padded cell (32 bytes a cell, four times the cost array);
it is built in one pass per direction with the GIL released, and dropped when a cell
changes (:meth:`pathcraft.Grid.prepare`).
"""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t

import numpy as np

from pathcraft._core.grid_search cimport SQRT2, Outcome, Query, Workspace, heuristic_rc, relax
from pathcraft._core.jps cimport successors
from pathcraft._core.machine cimport next_to_expand, note_best, stop

#: Direction ``k`` of the table is ``(DR[k], DC[k])``: N, S, W, E, NW, NE, SW, SE.
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


cdef inline int direction_index(Py_ssize_t dr, Py_ssize_t dc) noexcept nogil:
    if dc == 0:
        return 0 if dr < 0 else 1
    if dr == 0:
        return 2 if dc < 0 else 3
    if dr < 0:
        return 4 if dc < 0 else 5
    return 6 if dc < 0 else 7


cdef inline bint free_at(const double* cost, Py_ssize_t i) noexcept nogil:
    return cost[i] != INFINITY


cdef inline Py_ssize_t sign(Py_ssize_t x) noexcept nogil:
    return (x > 0) - (x < 0)


cdef inline Py_ssize_t iabs(Py_ssize_t x) noexcept nogil:
    return x if x >= 0 else -x


cdef inline int32_t further(int32_t t) noexcept nogil:
    """The entry of the cell before one whose entry is ``t`` (one more step)."""
    return t + 1 if t > 0 else t - 1


cdef inline int32_t straight_entry(
    const double* cost, const int32_t* table, Py_ssize_t i, Py_ssize_t d,
    Py_ssize_t side, int k,
) noexcept nogil:
    """The entry of free cell ``i`` for the straight direction ``k`` (a step of ``d``
    cells; ``side`` cells across it)."""
    cdef Py_ssize_t m = i + d
    if not free_at(cost, m):
        return 0
    if (free_at(cost, m + side) and not free_at(cost, i + side)) or (
        free_at(cost, m - side) and not free_at(cost, i - side)
    ):
        return 1
    return further(table[8 * m + k])


cdef inline int32_t diagonal_entry(
    const double* cost, const int32_t* table, Py_ssize_t i, Py_ssize_t dv,
    Py_ssize_t dh, int k, int kr, int kc,
) noexcept nogil:
    """The entry of free cell ``i`` for the diagonal direction ``k`` (a step of ``dv``
    and ``dh`` cells, its straight parts ``kr`` and ``kc``, already built)."""
    cdef Py_ssize_t m = i + dv + dh
    if not (free_at(cost, m) and free_at(cost, i + dv) and free_at(cost, i + dh)):
        return 0
    if table[8 * m + kr] > 0 or table[8 * m + kc] > 0:
        return 1
    return further(table[8 * m + k])


cdef void sweep(
    const double* cost, int32_t* table, Py_ssize_t H, Py_ssize_t W,
    Py_ssize_t dr, Py_ssize_t dc, bint diagonal,
) noexcept nogil:
    """The table's direction ``(dr, dc)`` (``diagonal``: both nonzero), cells visited
    against it so that the cell a step ahead is done first; a diagonal reads its
    straight parts, built before it. Every call passes constants: the compiler
    specialises the loop for each (with ``dr``, ``dc`` known it runs about 15%
    faster on Moving AI maps)."""
    cdef int k = direction_index(dr, dc)
    cdef int kr = direction_index(dr, 0), kc = direction_index(0, dc)
    cdef Py_ssize_t side = W if dr == 0 else 1
    cdef Py_ssize_t r, c, rr, cc, i
    for rr in range(1, H - 1):
        r = H - 1 - rr if dr > 0 else rr
        for cc in range(1, W - 1):
            c = W - 1 - cc if dc > 0 else cc
            i = r * W + c
            if not free_at(cost, i):
                continue
            if diagonal:
                table[8 * i + k] = diagonal_entry(cost, table, i, dr * W, dc, k, kr, kc)
            else:
                table[8 * i + k] = straight_entry(cost, table, i, dr * W + dc, side, k)


def build_table(const double[:, ::1] padded not None):
    """The offline jump table of a padded cost array (``inf`` walls, a border of
    walls all round) under the Moving AI rule: an int32 array of shape
    ``(rows + 2) * (cols + 2) * 8``, entry ``8 * cell + k`` for direction
    ``DIRECTIONS[k]`` (0 for walls)."""
    cdef Py_ssize_t H = padded.shape[0], W = padded.shape[1]
    if H < 3 or W < 3:
        raise ValueError(f"a padded grid has at least 3 x 3 cells; got {H} x {W}")
    out = np.zeros(H * W * 8, dtype=np.int32)
    cdef int32_t[::1] view = out
    cdef int32_t* table = &view[0]
    cdef const double* cost = &padded[0, 0]
    with nogil:
        sweep(cost, table, H, W, -1, 0, False)
        sweep(cost, table, H, W, 1, 0, False)
        sweep(cost, table, H, W, 0, -1, False)
        sweep(cost, table, H, W, 0, 1, False)
        sweep(cost, table, H, W, -1, -1, True)
        sweep(cost, table, H, W, -1, 1, True)
        sweep(cost, table, H, W, 1, -1, True)
        sweep(cost, table, H, W, 1, 1, True)
    return out


cdef int run_jpsplus(
    Query* q, const int32_t* table, Workspace ws, Outcome* out, int64_t budget
) noexcept nogil:
    """The search loop of :func:`jps.run_jps` with table reads for jumps: expand at
    most ``budget`` jump points (-1: no bound); the start is already pushed. Returns
    -1 when memory ran out."""
    cdef Py_ssize_t u, ur, uc, dr, dc, gr, gc, reach, near, step, t, done, m, mr, mc
    cdef int kd
    cdef Py_ssize_t W = q.width
    cdef Py_ssize_t dirs[16]
    cdef double gu, unit = q.hscale, diag = q.hscale * SQRT2
    cdef int k, count
    cdef int64_t left = budget
    while True:
        u = next_to_expand(ws, out, &left, &q.s, q.goal, False)  # the skeleton's
        if u < 0:
            return stop(u)
        gu = ws.cell[u].g
        ur = u // W
        uc = u - ur * W
        if q.s.partial:
            note_best(out, u, heuristic_rc(q, ur, uc))
        gr = q.goal_r - ur
        gc = q.goal_c - uc
        count = successors(q, u, ws.cell[u].parent, dirs)
        for k in range(count):
            dr = dirs[2 * k]
            dc = dirs[2 * k + 1]
            t = table[8 * u + direction_index(dr, dc)]
            reach = iabs(t)
            step = dr * W + dc
            if dr == 0 or dc == 0:
                near = iabs(gr) + iabs(gc)
                if (
                    (dr == 0 and gr == 0 and sign(gc) == dc)
                    or (dc == 0 and gc == 0 and sign(gr) == dr)
                ) and near <= reach:
                    if relax(q, ws, out, u, gu, q.goal, q.goal_r, q.goal_c, near * unit) != 0:
                        return -1
                elif t > 0:
                    if relax(q, ws, out, u, gu, u + t * step, ur + t * dr, uc + t * dc,
                             t * unit) != 0:
                        return -1
                continue
            # A diagonal: walk its jump points, offering each one's straight jump
            # points with ``u`` as their parent (the diagonal ones themselves are
            # pruned, as the online search prunes them), until the ray ends or meets
            # the row or column of the goal in its quadrant (then that cell is offered).
            near = -1
            if sign(gr) == dr and sign(gc) == dc:
                near = iabs(gr) if iabs(gr) < iabs(gc) else iabs(gc)
            done = 0
            m = u
            kd = direction_index(dr, dc)
            while True:
                t = table[8 * m + kd]
                if near >= 0 and near - done <= iabs(t):
                    if relax(q, ws, out, u, gu, u + near * step, ur + near * dr,
                             uc + near * dc, near * diag) != 0:
                        return -1
                    break
                if t <= 0:
                    break
                done += t
                m = u + done * step
                mr = ur + done * dr
                mc = uc + done * dc
                t = table[8 * m + direction_index(dr, 0)]
                if t > 0 and relax(q, ws, out, u, gu, m + t * dr * W, mr + t * dr, mc,
                                   done * diag + t * unit) != 0:
                    return -1
                t = table[8 * m + direction_index(0, dc)]
                if t > 0 and relax(q, ws, out, u, gu, m + t * dc, mr, mc + t * dc,
                                   done * diag + t * unit) != 0:
                    return -1
