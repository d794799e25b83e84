# cython: language_level=3
"""Compiled jump point search on 8-connected grids of uniform cost.

Jump point search (Harabor & Grastien, AAAI 2011) is A* that does not push every
neighbour: from each expanded cell it moves ("jumps") in straight and diagonal lines
until it meets a *jump point*, the goal or a cell with a *forced neighbour* (one that
no other optimal path reaches as well), and pushes only those. On open maps most cells
are never pushed at all. The optimal cost is A*'s, because on a grid where every
step into a cell costs the same, the paths it skips are symmetric copies of the ones
it keeps.

Two diagonal rules are supported:

- ``NO_CORNER_CUT`` (the Moving AI rule): a diagonal step needs both orthogonal
  neighbours free. Forced neighbours arise only on straight moves: moving right, a
  free cell above whose left neighbour (the cell above the previous one) is blocked.
  The successors there are the straight move up and the diagonal up-right.
- ``ALWAYS``: a diagonal step needs only its target free (Harabor & Grastien's original
  rules). Moving right, a blocked cell above with a free cell above-right forces the
  diagonal up-right; moving diagonally, a blocked cell behind one side forces the
  diagonal on that side.

Straight jumps are the inner loop. They come in two flavours, chosen per query:

- cell by cell over the cost array;
- by blocks (Harabor & Grastien, ICAPS 2014, "Improving Jump Point Search"): the
  walkable cells are packed into 64-bit words per row and per column (and mirrored,
  for jumps left and up), and one jump reads three words (the line and its two
  neighbours), finds every forced neighbour and the first wall of 64 cells with bit
  operations, and the first of either with a count of trailing zeros.

The search keeps its state in the grid kernel's :class:`Workspace` and uses the same
indexed heap and ``relax``; ``expanded`` counts jump points popped. A sliced search
beyond the pool runs on a ``hashed.HashedWorkspace`` (:func:`run_jps_hashed`): the
same loop on slots, a node's cell and its parent's looked up through the slots, moving
to dense arrays at the workspace's ``dense_at`` cells reached, with the same answers. Everything here
checks the cells and shapes it is given (O(k), before the GIL is released) and trusts
the options: :meth:`pathcraft.Grid.jps` validates them first.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int64_t, uint64_t

import numpy as np

from pathcraft._core.grid_search cimport (
    ALWAYS,
    H_OCTILE,
    NO_CORNER_CUT,
    SQRT2,
    Outcome,
    Query,
    Workspace,
    aim,
    check_cell,
    check_cells,
    copy_record_cells,
    heuristic_rc,
    make_query,
    open_start,
    relax,
    to_cells,
)
from pathcraft._core.codes cimport MODE_ASTAR, ST_FOUND, ST_IN_PROGRESS, ST_MAX_EXPANSIONS
from pathcraft._core.hashed cimport HashedWorkspace, hashed_relax
from pathcraft._core cimport machine  # the search skeleton

cdef extern from "bitscan.h":
    # Index of the lowest set bit (x != 0): MSVC, GCC and Clang branches in the header.
    int ctz64 "pathcraft_ctz64"(uint64_t x) nogil


cdef inline bint is_free(const double* cost, Py_ssize_t i) noexcept nogil:
    return cost[i] != INFINITY


cdef inline uint64_t window(const uint64_t* line, Py_ssize_t start) noexcept nogil:
    """Bits ``start`` to ``start + 63`` of a packed line, ``start`` in the lowest bit."""
    cdef Py_ssize_t w = start >> 6
    cdef int s = start & 63
    # branch-free: the second word shifted by 64 - s in two steps (a shift by 64 is
    # undefined in C), so s == 0 takes nothing from it
    return (line[w] >> s) | ((line[w + 1] << 1) << (63 - s))


cdef inline Py_ssize_t scan_line(
    const uint64_t* free, const uint64_t* forced, Py_ssize_t p, Py_ssize_t goal_p
) noexcept nogil:
    """Jump along a packed line from position ``p`` toward higher positions: the
    position of the first jump point (a forced cell, or the goal at ``goal_p``, -1 if
    the goal is not on the line), or -1 when a wall comes first."""
    cdef Py_ssize_t start = p + 1, i_forced, i_stop
    cdef uint64_t hits, stop
    while True:
        hits = window(forced, start)
        if start <= goal_p < start + 64:
            hits |= (<uint64_t> 1) << (goal_p - start)
        stop = ~window(free, start)
        if hits != 0 or stop != 0:
            i_forced = ctz64(hits) if hits != 0 else 64
            i_stop = ctz64(stop) if stop != 0 else 64
            if i_forced < i_stop:
                return start + i_forced
            if i_stop < 64:
                return -1
        start += 64


cdef inline Py_ssize_t scan_steps(
    const Lines* lines, int k, Py_ssize_t line, Py_ssize_t words, Py_ssize_t p,
    Py_ssize_t goal_p,
) noexcept nogil:
    """:func:`scan_line` along line ``line`` (``words`` words each) of the packed
    orientation ``k``: the number of steps from position ``p`` to the jump point, or
    -1 when a wall comes first."""
    cdef Py_ssize_t hit = scan_line(lines.free[k] + line * words,
                                    lines.forced[k] + line * words, p, goal_p)
    return -1 if hit < 0 else hit - p


cdef inline Py_ssize_t jump_straight(
    const Query* q, const Lines* lines, Py_ssize_t n, Py_ssize_t r, Py_ssize_t c,
    Py_ssize_t dr, Py_ssize_t dc,
) noexcept nogil:
    """The number of steps from cell ``n`` (at padded row ``r``, column ``c``) moving
    straight by ``(dr, dc)`` to the jump point it reaches, or -1 when a wall comes
    first: the jump point is ``n + steps * (dr * W + dc)``, at row ``r + steps * dr``,
    column ``c + steps * dc`` (no division needed by the caller)."""
    cdef const double* cost = q.cost
    cdef Py_ssize_t W = q.width, H = lines.height
    cdef Py_ssize_t d = dr * W + dc
    cdef Py_ssize_t side = W if dr == 0 else 1
    cdef Py_ssize_t m, k
    if lines.block:
        # Rows (mirrored for a jump left) and columns (mirrored for a jump up).
        if dr == 0:
            if dc > 0:
                return scan_steps(lines, 0, r, lines.row_words, c,
                                  q.goal_c if q.goal_r == r else -1)
            return scan_steps(lines, 1, r, lines.row_words, W - 1 - c,
                              W - 1 - q.goal_c if q.goal_r == r else -1)
        if dr > 0:
            return scan_steps(lines, 2, c, lines.col_words, r,
                              q.goal_r if q.goal_c == c else -1)
        return scan_steps(lines, 3, c, lines.col_words, H - 1 - r,
                          H - 1 - q.goal_r if q.goal_c == c else -1)
    k = 0
    while True:
        m = n + d
        k += 1
        if not is_free(cost, m):
            return -1
        if m == q.goal:
            return k
        if q.diagonal == NO_CORNER_CUT:
            if (is_free(cost, m + side) and not is_free(cost, n + side)) or (
                is_free(cost, m - side) and not is_free(cost, n - side)
            ):
                return k
        elif (not is_free(cost, m + side) and is_free(cost, m + side + d)) or (
            not is_free(cost, m - side) and is_free(cost, m - side + d)
        ):
            return k
        n = m


cdef inline Py_ssize_t sign(Py_ssize_t x) noexcept nogil:
    return (x > 0) - (x < 0)


cdef inline Py_ssize_t iabs(Py_ssize_t x) noexcept nogil:
    return x if x >= 0 else -x


cdef int successors(
    const Query* q, Py_ssize_t u, Py_ssize_t parent, Py_ssize_t* dirs
) noexcept nogil:
    """The directions to jump in from ``u``, reached from ``parent`` (-1 for the
    start): the natural ones and the forced ones. Fills ``dirs`` with (dr, dc) pairs
    and returns how many."""
    cdef const double* cost = q.cost
    cdef Py_ssize_t W = q.width
    cdef Py_ssize_t ur = u // W, uc = u - (u // W) * W, pr, pc, dr, dc, s
    cdef int k = 0
    if parent < 0:
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr != 0 or dc != 0:
                    dirs[2 * k] = dr
                    dirs[2 * k + 1] = dc
                    k += 1
        return k
    # The way ``u`` was reached: a parent's ray runs diagonally first, then straight,
    # so the last step is along the longer leg (diagonal when both are equal).
    pr = parent // W
    pc = parent - pr * W
    dr = sign(ur - pr)
    dc = sign(uc - pc)
    if iabs(ur - pr) > iabs(uc - pc):
        dc = 0
    elif iabs(ur - pr) < iabs(uc - pc):
        dr = 0
    if dr != 0 and dc != 0:
        dirs[0] = 0
        dirs[1] = dc
        dirs[2] = dr
        dirs[3] = 0
        dirs[4] = dr
        dirs[5] = dc
        k = 3
        if q.diagonal == ALWAYS:
            if not is_free(cost, u - dc):
                dirs[2 * k] = dr
                dirs[2 * k + 1] = -dc
                k += 1
            if not is_free(cost, u - dr * W):
                dirs[2 * k] = -dr
                dirs[2 * k + 1] = dc
                k += 1
        return k
    dirs[0] = dr
    dirs[1] = dc
    k = 1
    for s in range(-1, 2, 2):
        if dr == 0:  # moving along a row: the sides are the rows above and below
            if q.diagonal == NO_CORNER_CUT:
                if is_free(cost, u + s * W) and not is_free(cost, u + s * W - dc):
                    dirs[2 * k] = s
                    dirs[2 * k + 1] = 0
                    dirs[2 * k + 2] = s
                    dirs[2 * k + 3] = dc
                    k += 2
            elif not is_free(cost, u + s * W) and is_free(cost, u + s * W + dc):
                dirs[2 * k] = s
                dirs[2 * k + 1] = dc
                k += 1
        else:  # moving along a column: the sides are the columns left and right
            if q.diagonal == NO_CORNER_CUT:
                if is_free(cost, u + s) and not is_free(cost, u + s - dr * W):
                    dirs[2 * k] = 0
                    dirs[2 * k + 1] = s
                    dirs[2 * k + 2] = dr
                    dirs[2 * k + 3] = s
                    k += 2
            elif not is_free(cost, u + s) and is_free(cost, u + s + dr * W):
                dirs[2 * k] = dr
                dirs[2 * k + 1] = s
                k += 1
    return k


cdef inline int offer_jump(
    Query* q, Workspace ws, bint hashed, Outcome* out,
    Py_ssize_t un, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil:
    """``relax`` from the node ``un`` (a cell, or on a hashed workspace its slot) to
    the cell ``v`` (at padded row ``vr``, column ``vc``); -1 when memory ran out."""
    if hashed:
        return hashed_relax(q, <HashedWorkspace> ws, out, un, gu, v, vr, vc, step)
    return relax(q, ws, out, un, gu, v, vr, vc, step)


cdef int diagonal_ray(
    Query* q, const Lines* lines, Workspace ws, bint hashed, Outcome* out,
    Py_ssize_t u, Py_ssize_t un, double gu, Py_ssize_t dr, Py_ssize_t dc,
) noexcept nogil:
    """Jump diagonally from ``u`` by ``(dr, dc)``, offering ``u``'s successors on the
    way without pushing the cells of the ray itself: at each diagonal step, the jump
    points found by straight jumps along both components are offered with ``u`` as
    their parent (intermediate jump points pruned, as in Harabor & Grastien 2014). A
    cell of the ray is offered itself only when it is the goal or has a forced
    neighbour (``ALWAYS``); its expansion then goes on along the ray. ``un`` is
    ``u``'s node (``u`` itself, or its slot when ``hashed``). Returns -1 when memory
    ran out."""
    cdef const double* cost = q.cost
    cdef Py_ssize_t W = q.width
    cdef Py_ssize_t v = dr * W, h = dc
    cdef Py_ssize_t n = u, m, k, steps = 0, mr, mc
    cdef double diag = q.hscale * SQRT2, unit = q.hscale, gm
    mr = u // W
    mc = u - mr * W
    while True:
        m = n + v + h
        if not is_free(cost, m):
            return 0
        if q.diagonal == NO_CORNER_CUT and not (is_free(cost, n + v) and is_free(cost, n + h)):
            return 0
        steps += 1
        mr += dr
        mc += dc
        gm = steps * diag
        if m == q.goal or (q.diagonal == ALWAYS and (
            (not is_free(cost, m - h) and is_free(cost, m - h + v))
            or (not is_free(cost, m - v) and is_free(cost, m - v + h))
        )):
            return offer_jump(q, ws, hashed, out, un, gu, m, mr, mc, gm)
        k = jump_straight(q, lines, m, mr, mc, 0, dc)
        if k > 0 and offer_jump(
            q, ws, hashed, out, un, gu, m + k * h, mr, mc + k * dc, gm + k * unit
        ) != 0:
            return -1
        k = jump_straight(q, lines, m, mr, mc, dr, 0)
        if k > 0 and offer_jump(
            q, ws, hashed, out, un, gu, m + k * v, mr + k * dr, mc, gm + k * unit
        ) != 0:
            return -1
        n = m


cdef int run_jps(
    Query* q, const Lines* lines, Workspace ws, Outcome* out, int64_t budget
) noexcept nogil:
    """The search loop as a step machine (see ``grid_search.run_search``): expand at
    most ``budget`` jump points (-1: no bound); the start is already pushed. Returns -1
    when memory ran out."""
    return jps_loop(q, lines, ws, False, out, budget)


cdef int run_jps_hashed(
    Query* q, const Lines* lines, HashedWorkspace ws, Outcome* out, int64_t budget
) noexcept nogil:
    """:func:`run_jps` on a hashed workspace (its start opened by
    ``hashed.hashed_open_start``): the same expansions and pushes on slots, moving to
    dense arrays once ``ws.dense_at`` cells were reached."""
    return jps_loop(q, lines, ws, not ws.dense, out, budget)


cdef inline int jps_loop(
    Query* q, const Lines* lines, Workspace ws, bint hashed, Outcome* out, int64_t budget
) noexcept nogil:
    """The loop of :func:`run_jps` and :func:`run_jps_hashed` (``hashed``: ``ws`` is a
    ``HashedWorkspace`` still on slots, whose heap and parents hold slots)."""
    cdef Py_ssize_t u, un, p, j, ur, uc, dr, dc
    cdef Py_ssize_t W = q.width
    cdef Py_ssize_t dirs[16]
    cdef double gu, unit = q.hscale
    cdef int k, count
    cdef int64_t left = budget
    while True:
        if hashed and (<HashedWorkspace> ws).used >= (<HashedWorkspace> ws).dense_at:
            if (<HashedWorkspace> ws).densify() == 0:
                hashed = False  # from here the cells index the dense arrays
        un = machine.next_node(ws, out, &left, q.s.max_expansions, q.s.record, q.goal >= 0)
        if un < 0:
            return machine.stop(un)
        u = (<HashedWorkspace> ws).cells[un] if hashed else un
        if u == q.goal:
            machine.found(out, u)
            return 0
        gu = ws.cell[un].g
        ur = u // W
        uc = u - ur * W
        if q.s.partial:
            machine.note_best(out, u, heuristic_rc(q, ur, uc))
        p = ws.cell[un].parent
        if hashed and p >= 0:
            p = (<HashedWorkspace> ws).cells[p]
        count = successors(q, u, p, dirs)
        for k in range(count):
            dr = dirs[2 * k]
            dc = dirs[2 * k + 1]
            if dr != 0 and dc != 0:
                if diagonal_ray(q, lines, ws, hashed, out, u, un, gu, dr, dc) != 0:
                    return -1
                continue
            j = jump_straight(q, lines, u, ur, uc, dr, dc)
            if j < 0:
                continue
            if offer_jump(
                q, ws, hashed, out, un, gu, u + j * (dr * W + dc), ur + j * dr, uc + j * dc,
                j * unit,
            ) != 0:
                return -1


cdef Query jps_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, double unit,
    machine.KernelSettings settings,
) except *:
    """The query of a jump point search on a grid whose cells all cost ``unit``: A*
    by the octile distance times ``unit``, ties by g; of ``settings`` it reads the
    weight, the limits, ``partial`` (a search cut short answers the path to the
    expanded jump point closest to the goal by that distance) and ``record`` (its
    mode, ties and seed are A*'s, whatever they say)."""
    cdef Query q = make_query(padded, ws, diagonal, H_OCTILE, unit)
    q.s = machine.tie_g_settings(
        MODE_ASTAR, settings.s.weight, settings.s.max_expansions, settings.s.max_cost,
        settings.s.partial, settings.s.record,
    )
    return q


cdef int _unpack(object lines, const double[:, ::1] padded, Lines* packed) except -1:
    """Point ``packed`` at the eight arrays of ``lines``, after checking their shapes."""
    cdef const uint64_t[:, ::1] view
    cdef int i
    for i in range(8):
        view = lines[i]
        if view.shape[0] != (padded.shape[0] if i % 4 < 2 else padded.shape[1]):
            raise ValueError("the packed lines do not match the grid")
        if view.shape[1] < ((padded.shape[1] if i % 4 < 2 else padded.shape[0]) >> 6) + 2:
            raise ValueError("the packed lines are too short for the grid")
        if i < 4:
            packed.free[i] = &view[0, 0]
        else:
            packed.forced[i - 4] = &view[0, 0]
    packed.row_words = lines[0].shape[1]
    packed.col_words = lines[2].shape[1]
    packed.height = padded.shape[0]
    return 0


cdef inline void segment(
    const Py_ssize_t* jumps, Py_ssize_t i, Py_ssize_t W, Py_ssize_t* diag, Py_ssize_t* longer
) noexcept nogil:
    """The steps from jump point ``i - 1`` to ``i`` (padded flat cells, ``W`` columns):
    ``diag`` diagonal ones, ``longer`` in all (the longer of the row and column gaps)."""
    cdef Py_ssize_t ra = jumps[i - 1] // W, rb = jumps[i] // W
    cdef Py_ssize_t dr = iabs(rb - ra)
    cdef Py_ssize_t dc = iabs((jumps[i] - rb * W) - (jumps[i - 1] - ra * W))
    diag[0] = dr if dr < dc else dc
    longer[0] = dr if dr > dc else dc


cdef double _jumps_cost(const Py_ssize_t* jumps, Py_ssize_t n, Py_ssize_t W, double unit) noexcept nogil:
    """The cost of the path through ``n`` jump points on a grid whose free cells all
    cost ``unit``: segment by segment from the start, its diagonal steps then its
    straight ones, each part one product (the sum of the filled path's steps to
    within rounding, ~1e-16 of the cost per segment, not a chain of one addition
    per cell, which on long corridors cost more than the search)."""
    cdef Py_ssize_t i, diag, longer
    cdef double total = 0.0, step = unit * SQRT2
    for i in range(1, n):
        segment(jumps, i, W, &diag, &longer)
        total = total + <double> diag * step
        total = total + <double> (longer - diag) * unit
    return total


# This prologue repeats the other kernels' costs-only entries (search_costs, theta_costs,
# jps_costs), each typed for its own kernel; the checks and the loop they share are
# machine.costs_pairs and machine.run_costs.
def jps_costs(
    const double[:, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[::1] starts not None,
    const Py_ssize_t[::1] goals not None,
    lines not None,
    double[::1] costs not None,
    *,
    machine.KernelSettings settings not None,
    **args,
):
    """Run one jump point search per ``(starts[i], goals[i])`` pair, all with the GIL
    released, and write each path's cost (as :func:`jps` reports it) to ``costs[i]``,
    ``inf`` where none was found. ``settings`` and ``args`` are :class:`JpsSearch`'s
    keyword arguments; ``record`` must be False."""
    if not machine.costs_pairs("jps_costs", settings, starts, goals, costs, keeps_partial=True):
        return
    check_cells("starts", starts, padded.shape[0], padded.shape[1])
    check_cells("goals", goals, padded.shape[0], padded.shape[1])
    m = JpsSearch(padded, ws, starts[0], goals[0], lines, settings=settings, **args)
    machine.run_costs(m, starts, goals, costs)


cdef class JpsSearch(machine.Machine):
    """One jump point search as a step machine (see ``grid_search.GridSearch``):
    :meth:`step` expands at most ``n`` jump points; :meth:`answer` is then what
    :func:`jps` returns. The blocking :func:`jps` is one unlimited step of it."""

    cdef Query q
    cdef Lines packed
    cdef Workspace ws
    cdef Py_ssize_t start  # where a partial path ends before any jump point expanded
    cdef const double[:, ::1] padded
    cdef object lines

    # These arguments repeat those of the machine of theta.pyx (with the packed lines),
    # each typed for its own kernel: Cython types a def's arguments per function, so each
    # kernel writes its own (the search options are one of them, settings).
    def __init__(
        self,
        const double[:, ::1] padded not None,
        Workspace ws not None,
        Py_ssize_t start,
        Py_ssize_t goal,
        lines not None,
        *,
        int diagonal,
        double unit,
        machine.KernelSettings settings not None,
        bint block,
    ):
        cdef int failed
        self.q = jps_query(padded, ws, diagonal, unit, settings)
        aim(&self.q, goal)
        check_cell("start", start, padded.shape[0], padded.shape[1])
        check_cell("goal", goal, padded.shape[0], padded.shape[1])
        _unpack(lines, padded, &self.packed)
        self.packed.block = block
        self.ws = ws
        self.padded = padded
        self.lines = lines  # the packed arrays ``packed`` points into
        self.start = start
        with nogil:
            failed = open_start(&self.q, ws, start, &self.out)
        if failed:
            raise MemoryError("the jump point search ran out of memory")

    cdef int run(self, int64_t budget) noexcept nogil:
        return run_jps(&self.q, &self.packed, self.ws, &self.out, budget)

    cdef int restart(self, Py_ssize_t start, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)
        self.start = start
        return open_start(&self.q, self.ws, start, &self.out)

    cdef double found_cost(self) noexcept nogil:
        cdef Py_ssize_t n = self.ws.trace(self.out.reached)
        if n < 0:
            return -1.0
        return _jumps_cost(self.ws.trail, n, self.q.width, self.q.hscale)

    def best_so_far(self):
        """The answer a ``partial`` search stopped now would give (status
        ``max_expansions``, the path through the jump points to the expanded one
        closest to the goal, the start itself before any), while the search is in
        progress; None once it ended or when it is not ``partial``."""
        if self.out.status != ST_IN_PROGRESS or not self.q.s.partial:
            return None
        return self.answer_at(
            self.out.best if self.out.best >= 0 else self.start, ST_MAX_EXPANSIONS
        )

    def answer(self):
        """``(status, path_cells, jump_cells, cost, expanded, generated, rec_cells,
        rec_g)`` of the ended search (see :func:`jps`)."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        return self.answer_at(
            machine.end_node(&self.out, self.q.s.partial, self.start), self.out.status
        )

    cdef object answer_at(self, Py_ssize_t end, int status):
        """The answer tuple of the path through the jump points to ``end`` (-1: no
        path), with ``status``."""
        cdef Py_ssize_t W = self.q.width
        jumps = machine.walk_back(self.ws, end)
        cdef const Py_ssize_t[::1] flat = jumps
        cdef Py_ssize_t n = flat.shape[0]
        cdef const Py_ssize_t* first = &flat[0] if n else NULL
        path = filled_cells(first, n, W)
        cost = _jumps_cost(first, n, W, self.q.hscale) if n else INFINITY
        rec_cells, rec_g = copy_record_cells(self.ws, W) if self.q.s.record else (None, None)
        return (
            status, path, to_cells(flat, W), cost, self.out.expanded,
            self.out.generated, rec_cells, rec_g,
        )


def jps(padded, Workspace ws, Py_ssize_t start, Py_ssize_t goal, lines, **args):
    """Run one jump point search between padded flat cells ``start`` and ``goal`` (one
    unlimited step of a :class:`JpsSearch`) on a grid whose free cells all cost
    ``unit``; ``lines`` are its eight packed line sets
    (:class:`pathcraft.grid._packed.PackedLines`, made for the same diagonal rule).

    Returns ``(status, path_cells, jump_cells, cost, expanded, generated, rec_cells,
    rec_g)``: the path cell by cell and the jump points on it, as ``(n, 2)`` arrays of
    ``(row, col)`` cells (empty when not found); ``rec_*`` are None unless recording.
    """
    return JpsSearch(padded, ws, start, goal, lines, **args).finish()


cdef object filled_cells(const Py_ssize_t* jumps, Py_ssize_t n, Py_ssize_t W):
    """The cell-by-cell path through ``n`` jump points (padded flat cells, ``W``
    columns) as an ``(m, 2)`` array of the grid's ``(row, col)`` cells: between two,
    the way the search went, diagonally first, then straight. Each jump point is
    divided once; the cells between are stepped."""
    cdef Py_ssize_t i, k, length = 1 if n else 0
    cdef Py_ssize_t r0, c0, r1, c1, dr, dc, sr, sc, diag, longer
    for i in range(1, n):
        segment(jumps, i, W, &diag, &longer)
        length += longer
    cells = np.empty((length, 2), dtype=np.intp)
    if n == 0:
        return cells
    cdef Py_ssize_t[:, ::1] view = cells
    cdef Py_ssize_t* out = &view[0, 0]
    r0 = jumps[0] // W - 1  # grid cells: the padding's row and column off
    c0 = jumps[0] - (r0 + 1) * W - 1
    out[0] = r0
    out[1] = c0
    out += 2
    for i in range(1, n):
        r1 = jumps[i] // W - 1
        c1 = jumps[i] - (r1 + 1) * W - 1
        dr = r1 - r0
        dc = c1 - c0
        sr = sign(dr)
        sc = sign(dc)
        diag = min(iabs(dr), iabs(dc))
        longer = max(iabs(dr), iabs(dc))
        for k in range(diag):
            r0 += sr
            c0 += sc
            out[0] = r0
            out[1] = c0
            out += 2
        if iabs(dr) > iabs(dc):  # then straight, along the longer axis
            sc = 0
        else:
            sr = 0
        for k in range(longer - diag):
            r0 += sr
            c0 += sc
            out[0] = r0
            out[1] = c0
            out += 2
    return cells
