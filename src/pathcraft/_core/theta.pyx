# cython: language_level=3
"""Compiled any-angle search on grids: Theta* (Nash, Daniel, Koenig and Felner 2007).

**Why Theta* and not Lazy Theta*.** Theta* checks line of sight when it relaxes a
neighbour, so every open cell holds an exact g-cost and parent; Lazy Theta* defers the
check to the expansion and has to repair a parent then. On grids the check here is an
integer walk of at most ``|drow| + |dcol|`` cells, cheap next to a heap operation, and
Theta* keeps the search skeleton's relax unchanged (:func:`machine.improves`,
:func:`machine.open_node`): the step machine, the limits, the recorder and partial
paths are those of every other search.

**Line of sight** between two cell centres (:func:`sight`): the segment may not enter a
wall cell, and where it passes exactly through a grid corner (from one cell into the
diagonally opposite one) the two side cells obey the grid's ``diagonal`` rule as a
diagonal step would: ``no_corner_cut`` (and ``never``) needs both free, ``one_free``
one of them, ``always`` none. Segments join cell centres, so none runs along a cell
edge. Every move A* may make on the grid passes this test, so a Theta* path is never
longer than the octile A* path.

**Costs.** A grid of uniform cost ``c``: a segment costs ``c`` times its Euclidean
length through cell centres; the heuristic is ``c`` times the Euclidean distance.
(:mod:`pathcraft.grid` refuses grids of varied costs.) Cells are padded flat indices,
as in :mod:`grid_search`, whose workspace this search uses.
"""

from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int64_t, uint64_t

import numpy as np

from pathcraft._core.codes cimport MODE_ASTAR
from pathcraft._core.grid_search cimport (
    ALWAYS,
    DC,
    DR,
    NEVER,
    NO_CORNER_CUT,
    ONE_FREE,
    Workspace,
    check_cell,
    check_cells,
    check_grid,
    corner_open,
    move_open,
    to_cells,
)
from pathcraft._core.heap cimport TIE_G
from pathcraft._core cimport machine  # the search skeleton


cdef struct ThetaQuery:
    const double* cost
    Py_ssize_t width          # padded width: columns + 2
    int diagonal
    double unit               # the uniform cost of a cell
    Py_ssize_t goal
    machine.Settings s        # A*, ties by g


cdef inline bint free_cell(const double* cost, Py_ssize_t cell) noexcept nogil:
    return cost[cell] != INFINITY


cdef bint sight(
    const double* cost, Py_ssize_t width, int diagonal, Py_ssize_t a, Py_ssize_t b
) noexcept nogil:
    """Whether the segment between the centres of padded cells ``a`` and ``b`` (both
    free) is clear under the corner rule ``diagonal`` (see the module's docstring).

    An exact integer walk over the cells the segment crosses: in doubled coordinates
    the centres are odd and the grid lines even, and the next line crossed is chosen
    by comparing cross products, so a corner crossing is recognised exactly."""
    cdef Py_ssize_t ar = a // width, ac = a - (a // width) * width
    cdef Py_ssize_t br = b // width, bc = b - (b // width) * width
    cdef Py_ssize_t r = ar, c = ac
    cdef Py_ssize_t sr = 1 if br > ar else (-1 if br < ar else 0)
    cdef Py_ssize_t sc = 1 if bc > ac else (-1 if bc < ac else 0)
    cdef Py_ssize_t ddr = 2 * (br - ar), ddc = 2 * (bc - ac)
    cdef Py_ssize_t adr = ddr if ddr >= 0 else -ddr
    cdef Py_ssize_t adc = ddc if ddc >= 0 else -ddc
    cdef Py_ssize_t y0 = 2 * ar + 1, x0 = 2 * ac + 1
    cdef Py_ssize_t ey, ex, lr, lc
    while r != br or c != bc:
        # Doubled coordinate of the next row line and column line the segment crosses,
        # and the distances to them along the segment (scaled by |ddr| * |ddc|).
        lr = 2 * r + (2 if sr > 0 else 0)
        lc = 2 * c + (2 if sc > 0 else 0)
        if sr == 0:
            c += sc
        elif sc == 0:
            r += sr
        else:
            ey = (lr - y0 if lr >= y0 else y0 - lr) * adc
            ex = (lc - x0 if lc >= x0 else x0 - lc) * adr
            if ey < ex:
                r += sr
            elif ex < ey:
                c += sc
            else:  # through a grid corner: the two side cells follow the rule
                if not corner_open(cost, (r + sr) * width + c, r * width + c + sc, diagonal):
                    return False
                r += sr
                c += sc
        if not free_cell(cost, r * width + c):
            return False
    return True


cdef inline double dist(Py_ssize_t width, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """The Euclidean distance between the centres of padded cells ``a`` and ``b``."""
    cdef double dr = <double> (a // width - b // width)
    cdef double dc = <double> (a % width - b % width)
    return sqrt(dr * dr + dc * dc)


cdef inline double theta_h(const ThetaQuery* q, Py_ssize_t v) noexcept nogil:
    if q.goal < 0:
        return 0.0
    return dist(q.width, v, q.goal) * q.unit


cdef int run_theta(
    ThetaQuery* q, Workspace ws, machine.Outcome* out, int64_t budget
) noexcept nogil:
    """The Theta* loop as a step machine (see ``grid_search.run_search``): expand at
    most ``budget`` cells (-1: no bound). A neighbour ``v`` of ``u`` is offered at
    ``g(p) + |p v|`` with parent ``p``, ``u``'s parent, when ``p`` sees ``v``; else at
    ``g(u) + |u v|`` with parent ``u``. -1 when memory ran out."""
    cdef Py_ssize_t u, v, p, parent, W = q.width
    cdef double d
    cdef const double* cost = q.cost
    cdef int k, n_moves = 4 if q.diagonal == NEVER else 8
    cdef int64_t left = budget
    while True:
        u = machine.next_to_expand(ws, out, &left, &q.s, q.goal, False)
        if u < 0:
            return machine.stop(u)
        if q.s.partial:
            machine.note_best(out, u, theta_h(q, u))
        p = ws.cell[u].parent
        for k in range(n_moves):
            if not move_open(cost, W, q.diagonal, u, k):
                continue
            v = u + DR[k] * W + DC[k]
            if p >= 0 and ws.cell[v].mark >= ws.gen and (
                ws.cell[p].g + dist(W, p, v) * q.unit >= ws.cell[v].g * machine.IMPROVE_KEEP
            ):
                # Neither way improves v: g(u) + |u v| = g(p) + |p u| + |u v| is at
                # least g(p) + |p v|. Skip the line of sight (improves would refuse).
                continue
            if p >= 0 and sight(cost, W, q.diagonal, p, v):
                parent = p
            else:
                parent = u
            d = ws.cell[parent].g + dist(W, parent, v) * q.unit
            if not machine.improves(ws, out, MODE_ASTAR, q.s.reopen, q.s.max_cost, v, d):
                continue
            if machine.open_node(
                ws, out, MODE_ASTAR, q.s.weight, TIE_G, &q.s.rng, parent, v, d, theta_h(q, v)
            ) != 0:
                return -1


cdef class ThetaSearch(machine.CellSearch):
    """One Theta* search as a step machine (see ``machine.CellSearch``):
    :meth:`step` expands at most ``n`` cells; :meth:`answer` is then what :func:`theta`
    returns."""

    cdef ThetaQuery q
    cdef const double[:, ::1] padded

    # These arguments repeat those of the machine of jps.pyx (with no packed lines), each
    # typed for its own kernel: Cython types a def's arguments per function, so each
    # kernel writes its own (the search options are one of them, settings).
    def __init__(
        self,
        const double[:, ::1] padded not None,
        Workspace ws not None,
        Py_ssize_t start,
        Py_ssize_t goal,
        *,
        int diagonal,
        double unit,
        machine.KernelSettings settings not None,
    ):
        cdef int failed
        check_grid(padded, ws)
        if diagonal not in (NEVER, NO_CORNER_CUT, ONE_FREE, ALWAYS):
            raise ValueError(f"diagonal: unknown rule code {diagonal}")
        check_cell("start", start, padded.shape[0], padded.shape[1])
        check_cell("goal", goal, padded.shape[0], padded.shape[1])
        self.q.cost = &padded[0, 0]
        self.q.width = padded.shape[1]
        self.q.diagonal = diagonal
        self.q.unit = unit
        # Theta* is A* with ties by g: of ``settings`` it reads the weight, the limits,
        # ``partial`` and ``record`` (its mode, ties and seed are A*'s, whatever they say).
        self.q.s = machine.tie_g_settings(
            MODE_ASTAR, settings.s.weight, settings.s.max_expansions, settings.s.max_cost,
            settings.s.partial, settings.s.record,
        )
        self.s = &self.q.s
        self.ws = ws
        self.padded = padded
        with nogil:
            failed = self.restart(start, goal)
        if failed:
            raise MemoryError("the Theta* search ran out of memory")

    cdef int run(self, int64_t budget) noexcept nogil:
        return run_theta(&self.q, <Workspace> self.ws, &self.out, budget)

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        return check_cell(name, place, self.padded.shape[0], self.padded.shape[1])

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        self.q.goal = goal

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return theta_h(&self.q, place)

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        # The segments summed in path order, not the end's g: a cell reopened at a
        # lower g lowers the true cost of every cell whose parent it already is (a
        # line-of-sight child need not be its neighbour, so re-expanding it does not
        # reach them), and their g stays the older, higher sum.
        cdef Py_ssize_t i
        cdef double total = 0.0
        for i in range(n - 1):
            total += dist(self.q.width, path[i], path[i + 1]) * self.q.unit
        return total

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        return to_cells(flat, self.q.width)


def theta(padded, Workspace ws, Py_ssize_t start, Py_ssize_t goal, **args):
    """Run one Theta* search between padded flat cells (one unlimited step of a
    :class:`ThetaSearch`).

    Returns ``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)``:
    ``path_cells`` an ``(n, 2)`` array of the turning cells ``(row, col)``, start to
    goal, ``cost`` the sum of its segments (``inf`` when there is no path)."""
    return ThetaSearch(padded, ws, start, goal, **args).finish()


# This prologue repeats the other kernels' costs-only entries (search_costs, theta_costs,
# jps_costs), each typed for its own kernel; the checks and the loop they share are
# machine.costs_pairs and machine.run_costs.
def theta_costs(
    const double[:, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[::1] starts not None,
    const Py_ssize_t[::1] goals not None,
    double[::1] costs not None,
    *,
    machine.KernelSettings settings not None,
    **args,
):
    """One Theta* search per ``(starts[i], goals[i])`` pair, with the GIL released;
    each path's cost to ``costs[i]`` (``inf`` where none was found)."""
    if not machine.costs_pairs("theta_costs", settings, starts, goals, costs):
        return
    check_cells("starts", starts, padded.shape[0], padded.shape[1])
    check_cells("goals", goals, padded.shape[0], padded.shape[1])
    m = ThetaSearch(padded, ws, starts[0], goals[0], settings=settings, **args)
    machine.run_costs(m, starts, goals, costs)


def smooth_path(
    const double[:, ::1] padded not None, const Py_ssize_t[::1] path not None, int diagonal
):
    """String-pull a path of padded flat cells: from each kept cell, go straight to the
    last cell of the path it still sees (the walk stops at the first one it does
    not), under the corner rule ``diagonal``. Returns ``(kept, bad)``: the kept cells
    as an ``(m, 2)`` array of ``(row, col)``, and -1, or the index ``i`` of the first
    step ``path[i] -> path[i + 1]`` that is not clear (``kept`` is then empty). Each
    straight segment replaces a part of the path between its ends, so the result is
    never longer."""
    cdef Py_ssize_t n = path.shape[0], W = padded.shape[1]
    cdef Py_ssize_t i, j, m = 0, bad = -1
    cdef const double* cost
    check_cells("path", path, padded.shape[0], padded.shape[1])
    keep = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] kept = keep
    if n == 0:
        return to_cells(keep, W), -1
    cost = &padded[0, 0]
    with nogil:
        for i in range(n):
            if not free_cell(cost, path[i]):
                bad = i
                break
        if bad < 0:
            for i in range(n - 1):
                if not sight(cost, W, diagonal, path[i], path[i + 1]):
                    bad = i
                    break
        if bad < 0:
            i = 0
            kept[m] = path[0]
            m += 1
            while i < n - 1:
                j = i + 1
                while j + 1 < n and sight(cost, W, diagonal, path[i], path[j + 1]):
                    j += 1
                kept[m] = path[j]
                m += 1
                i = j
    if bad >= 0:
        return to_cells(keep[:0], W), bad
    return to_cells(keep[:m], W), -1
