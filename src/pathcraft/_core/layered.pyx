# cython: language_level=3
"""Compiled best-first search on layered levels: 2-D grid floors stacked in one flat
array and joined by portals (stairs, ladders, teleporters, one-way drops).

The floors, all ``rows x cols``, are stacked in one ``float64`` cost array of
``floors * (rows + 1) + 1`` rows and ``cols + 2`` columns: a wall row (``inf``) above
every floor and below the last, a wall column on each side. Floor ``f``'s cell
``(r, c)`` is padded row ``f * (rows + 1) + 1 + r``, column ``c + 1``. In-floor moves
are the grid's (straight, then diagonal by the corner rule; a step into ``v`` costs
``cost[v]`` straight, ``cost[v] * sqrt(2)`` diagonally) and never leave a floor: the
wall rows between floors are never entered. Portals are a CSR table over the padded
cells (``indptr`` of ``n + 1`` offsets into ``targets`` and ``pcost``): from cell
``u`` a portal leads to ``targets[j]`` for ``pcost[j]``, whatever floors they are on.

The heuristic (``H_PORTAL``) is a lower bound on the cost to the goal through any
sequence of portals. ``scale`` is the smallest cell cost; ``d(a, b)`` is the octile
distance (Manhattan on 4-connected levels) between two cells of one floor, times
``scale``: a lower bound on any in-floor walk between them. For each portal ``p``
(entry ``e_p``, exit ``x_p``, cost ``c_p``) the query first computes, by a Dijkstra
over the portals (O(P^2), no heap),

    LB(p) = c_p + min( d(x_p, goal) if x_p is on the goal's floor,
                       min over portals q entered on x_p's floor of d(x_p, e_q) + LB(q) ),

and then ``h(n) = min( d(n, goal) if n is on the goal's floor, min over portals p
entered on n's floor of d(n, e_p) + LB(p) )``. Any path from ``n`` to the goal either
stays on ``n``'s floor (cost >= ``d(n, goal)``) or first leaves it by some portal ``p``
(cost >= ``d(n, e_p) + c_p`` plus a path from ``x_p``, bounded the same way by
induction on the number of portals taken), so ``h`` never overestimates; it is also
consistent (an in-floor step changes each ``d`` term by at most its cost; a portal step
``e_p -> x_p`` has ``h(e_p) <= LB(p) = c_p + h(x_p)``). ``h`` is ``inf`` where no
portal sequence can reach the goal's floor: such cells are never opened.

Two caps keep a query's set-up cost bounded: with more than ``MAX_LB_PORTALS``
portals the Dijkstra is skipped and ``LB(p) = c_p`` (still a lower bound); a floor
with more than ``MAX_FLOOR_ENTRIES`` portal entries uses ``min LB(p)`` over them
without the distance term (admissible, no longer consistent; the machine reopens
cells, so A* stays optimal).

The search is the skeleton of :mod:`pathcraft._core.machine`, as in
:mod:`stencil`. Every ``def`` entry checks the cells, the CSR table and the workspace
size it is given before the GIL is released (IndexError or ValueError, never a crash)
and trusts the option codes, which the Python front door validates first.
"""

from libc.math cimport INFINITY, fabs
from libc.stdint cimport int64_t, uint64_t

import numpy as np

from pathcraft._core.grid_search cimport (  # the grid's moves and corner rules
    ALWAYS,
    DC,
    DR,
    NEVER,
    NO_CORNER_CUT,
    OCTILE_DIAG,
    ONE_FREE,
    move_cost,
)
from pathcraft._core cimport machine  # the search skeleton


cdef enum:
    H_ZERO = 0
    H_PORTAL = 1

#: The codes, for the Python front door.
DIAGONALS = {"never": NEVER, "no_corner_cut": NO_CORNER_CUT, "one_free": ONE_FREE, "always": ALWAYS}
HEURISTICS = {"zero": H_ZERO, "portal": H_PORTAL}

cdef enum:
    # Above this many portals, LB(p) is the portal's own cost (no Dijkstra per query).
    MAX_LB_PORTALS = 1024
    # Above this many portal entries on a floor, the floor's heuristic drops the
    # distance to each entry.
    MAX_FLOOR_ENTRIES = 32

#: The two caps, for the Python front door and the tests.
LB_PORTALS_CAP = MAX_LB_PORTALS
FLOOR_ENTRIES_CAP = MAX_FLOOR_ENTRIES


cdef class Workspace(machine.BaseWorkspace):
    """Per-thread search state for levels of up to ``capacity`` (padded) cells: the
    skeleton's workspace (``machine.BaseWorkspace``)."""
    pass


cdef struct Query:
    const double* cost
    Py_ssize_t width          # padded width: cols + 2
    Py_ssize_t fh             # rows + 1: padded rows per floor
    Py_ssize_t nfloors
    int diagonal
    const int64_t* indptr     # portal CSR over padded cells
    const Py_ssize_t* targets
    const double* pcost
    # The portals for the heuristic, sorted by entry floor (fstart: first of each
    # floor), and their order by exit floor (xorder, xstart).
    Py_ssize_t np_
    const Py_ssize_t* p_entry
    const Py_ssize_t* p_exit
    const double* p_cost
    const Py_ssize_t* fstart
    const Py_ssize_t* xorder
    const Py_ssize_t* xstart
    double* lb                # per portal, per query (scratch owned by the caller)
    double* floor_lb          # per floor: min LB over its entries
    unsigned char* done       # scratch for the LB Dijkstra
    int hkind
    double hscale
    Py_ssize_t goal
    Py_ssize_t goal_f
    Py_ssize_t goal_r
    Py_ssize_t goal_c
    machine.Settings s


cdef inline Py_ssize_t floor_of(const Query* q, Py_ssize_t cell) noexcept nogil:
    return (cell // q.width - 1) // q.fh


cdef inline double dist(const Query* q, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """The in-floor lower bound between two padded cells of one floor (flat indices
    differ by whole floors only in rows, so row and column differences are local)."""
    cdef double dr = fabs(<double> (a // q.width - b // q.width))
    cdef double dc = fabs(<double> (a % q.width - b % q.width))
    if q.diagonal == NEVER:
        return (dr + dc) * q.hscale
    if dr < dc:
        return (dc + OCTILE_DIAG * dr) * q.hscale
    return (dr + OCTILE_DIAG * dc) * q.hscale


cdef void prepare(Query* q) noexcept nogil:
    """The per-goal portal bounds ``lb`` and ``floor_lb`` (see the module docstring)."""
    cdef Py_ssize_t i, j, k, p, best, f
    cdef double m, cand
    if q.hkind == H_ZERO or q.goal < 0:
        return
    for p in range(q.np_):
        q.done[p] = 0
        if floor_of(q, q.p_exit[p]) == q.goal_f:
            q.lb[p] = q.p_cost[p] + dist(q, q.p_exit[p], q.goal)
        else:
            q.lb[p] = INFINITY if q.np_ <= MAX_LB_PORTALS else q.p_cost[p]
    if q.np_ <= MAX_LB_PORTALS:
        for i in range(q.np_):
            best = -1
            m = INFINITY
            for p in range(q.np_):
                if not q.done[p] and q.lb[p] < m:
                    m = q.lb[p]
                    best = p
            if best < 0:
                break
            q.done[best] = 1
            f = floor_of(q, q.p_entry[best])
            for k in range(q.xstart[f], q.xstart[f + 1]):
                j = q.xorder[k]
                if q.done[j]:
                    continue
                cand = q.p_cost[j] + dist(q, q.p_exit[j], q.p_entry[best]) + m
                if cand < q.lb[j]:
                    q.lb[j] = cand
    for f in range(q.nfloors):
        m = INFINITY
        for p in range(q.fstart[f], q.fstart[f + 1]):
            if q.lb[p] < m:
                m = q.lb[p]
        q.floor_lb[f] = m


cdef inline double heuristic(const Query* q, Py_ssize_t cell) noexcept nogil:
    cdef Py_ssize_t f, p
    cdef double h, d
    if q.hkind == H_ZERO or q.goal < 0:
        return 0.0
    f = floor_of(q, cell)
    h = dist(q, cell, q.goal) if f == q.goal_f else INFINITY
    if q.fstart[f + 1] - q.fstart[f] > MAX_FLOOR_ENTRIES:
        return h if h < q.floor_lb[f] else q.floor_lb[f]
    for p in range(q.fstart[f], q.fstart[f + 1]):
        if q.lb[p] < h:
            d = dist(q, cell, q.p_entry[p]) + q.lb[p]
            if d < h:
                h = d
    return h


cdef inline void aim(Query* q, Py_ssize_t goal) noexcept nogil:
    q.goal = goal
    if goal >= 0:
        q.goal_f = floor_of(q, goal)
        q.goal_r = goal // q.width
        q.goal_c = goal % q.width
    prepare(q)


cdef inline int relax(
    Query* q, machine.BaseWorkspace ws, machine.Outcome* out,
    Py_ssize_t u, double gu, Py_ssize_t v, double step,
) noexcept nogil:
    cdef double d = gu + step
    cdef double h
    if not machine.improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
        return 0
    h = heuristic(q, v)
    if h == INFINITY:
        return 0
    return machine.open_node(ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, u, v, d, h)


cdef int run_search(
    Query* q, machine.BaseWorkspace ws, machine.Outcome* out, int64_t budget
) noexcept nogil:
    """The search loop as a step machine: expand at most ``budget`` cells (-1: no
    bound). Sources are already pushed; returns -1 when memory ran out."""
    cdef Py_ssize_t u, W = q.width
    cdef int64_t j
    cdef double gu, c
    cdef int k, n_moves = 4 if q.diagonal == NEVER else 8
    cdef int64_t left = budget
    while True:
        u = machine.next_to_expand(ws, out, &left, &q.s, q.goal, False)
        if u < 0:
            return machine.stop(u)
        gu = ws.cell[u].g
        if q.s.partial:
            machine.note_best(out, u, heuristic(q, u))
        for k in range(8):  # a fixed trip count: range(n_moves) ran 15-22% more instructions
            if k == n_moves:
                break
            c = move_cost(q.cost, W, q.diagonal, u, k)
            if c != INFINITY and relax(q, ws, out, u, gu, u + DR[k] * W + DC[k], c) != 0:
                return -1
        for j in range(q.indptr[u], q.indptr[u + 1]):
            if relax(q, ws, out, u, gu, q.targets[j], q.pcost[j]) != 0:
                return -1


cdef double step_cost(const Query* q, Py_ssize_t u, Py_ssize_t v) noexcept nogil:
    """The cheapest legal step from ``u`` to ``v``: an in-floor move or a portal."""
    cdef double best = INFINITY, c
    cdef int64_t j
    cdef int k
    for j in range(q.indptr[u], q.indptr[u + 1]):
        if q.targets[j] == v and q.pcost[j] < best:
            best = q.pcost[j]
    for k in range(8):
        if u + DR[k] * q.width + DC[k] == v:
            c = move_cost(q.cost, q.width, q.diagonal, u, k)
            return c if c < best else best
    return best


cdef double steps_cost(const Query* q, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef double total = 0.0
    for i in range(1, n):
        total = total + step_cost(q, path[i - 1], path[i])
    return total


cdef int check_cell(str name, Py_ssize_t cell, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t fh) except -1:
    """IndexError unless the padded flat index ``cell`` is a floor cell (not padding)."""
    cdef Py_ssize_t r = cell // cols if cell >= 0 else -1
    cdef Py_ssize_t c = cell - r * cols
    if not (1 <= r < rows - 1 and 1 <= c < cols - 1 and (r - 1) % fh != fh - 1):
        raise IndexError(f"{name}: padded cell index {cell} is not a cell of the level")
    return 0


cdef int check_cells(str name, const Py_ssize_t[:] cells, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t fh) except -1:
    cdef Py_ssize_t i
    for i in range(cells.shape[0]):
        check_cell(name, cells[i], rows, cols, fh)
    return 0


cdef class Tables:
    """A level's compiled form, checked once: the stacked cost array, the portal CSR
    over padded cells and the portal list the heuristic needs, with per-query
    scratch (a :class:`Tables` serves one thread at a time)."""

    cdef const double[:, ::1] padded
    cdef Py_ssize_t fh, nfloors
    cdef int diagonal
    cdef const int64_t[::1] indptr
    cdef const Py_ssize_t[::1] targets
    cdef const double[::1] pcost
    cdef const Py_ssize_t[::1] p_entry, p_exit, fstart, xorder, xstart
    cdef const double[::1] p_cost

    def __init__(
        self,
        const double[:, ::1] padded not None,
        Py_ssize_t floors,
        int diagonal,
        const int64_t[::1] indptr not None,
        const Py_ssize_t[::1] targets not None,
        const double[::1] pcost not None,
    ):
        cdef Py_ssize_t n = padded.shape[0] * padded.shape[1], i, j2, rows = padded.shape[0]
        cdef Py_ssize_t cols = padded.shape[1]
        cdef int64_t j
        if floors < 1 or (rows - 1) % floors != 0 or (rows - 1) // floors < 2 or cols < 3:
            raise ValueError(f"a stack of {floors} floors has 1 + floors * (rows + 1) rows")
        if diagonal not in (NEVER, NO_CORNER_CUT, ONE_FREE, ALWAYS):
            raise ValueError(f"unknown diagonal code {diagonal}")
        if indptr.shape[0] != n + 1 or indptr[0] != 0:
            raise ValueError(f"indptr has {indptr.shape[0]} entries; {n + 1} starting at 0")
        if targets.shape[0] != pcost.shape[0] or indptr[n] != targets.shape[0]:
            raise ValueError("targets and pcost hold indptr[-1] portals each")
        self.fh = (rows - 1) // floors
        # The padding must be walls: the kernel reads one cell past any cell it
        # reaches, and in-floor moves must never cross to another floor.
        for i in range(rows):
            if padded[i, 0] != INFINITY or padded[i, cols - 1] != INFINITY:
                raise ValueError(f"padded: row {i} has no wall at both ends")
        for i in range(0, rows, self.fh):
            for j2 in range(cols):
                if padded[i, j2] != INFINITY:
                    raise ValueError(
                        f"padded: row {i} separates floors (or closes the stack) and must be "
                        "walls only"
                    )
        for i in range(n):
            if indptr[i + 1] < indptr[i]:
                raise ValueError("indptr must not decrease")
        for i in range(n):
            if indptr[i + 1] > indptr[i]:
                check_cell("portal entry", i, rows, cols, self.fh)
        check_cells("targets", targets, rows, cols, self.fh)
        for j in range(targets.shape[0]):
            if not pcost[j] >= 0.0 or pcost[j] == INFINITY:
                raise ValueError(f"portal {j} costs {pcost[j]}; portal costs are finite and >= 0")
        self.padded = padded
        self.nfloors = floors
        self.diagonal = diagonal
        self.indptr = indptr
        self.targets = targets
        self.pcost = pcost
        # The portal list by entry floor (CSR order is by entry cell, hence by floor).
        P = targets.shape[0]
        entry = np.repeat(np.arange(n, dtype=np.intp), np.diff(np.asarray(indptr)))
        exit_ = np.asarray(targets, dtype=np.intp)
        efloor = (entry // cols - 1) // self.fh
        xfloor = (exit_ // cols - 1) // self.fh
        self.p_entry = entry
        self.p_exit = exit_.copy()
        self.p_cost = np.asarray(pcost, dtype=np.float64).copy()
        self.fstart = np.searchsorted(efloor, np.arange(floors + 1)).astype(np.intp)
        order = np.argsort(xfloor, kind="stable").astype(np.intp)
        self.xorder = order
        self.xstart = np.searchsorted(xfloor[order], np.arange(floors + 1)).astype(np.intp)

    @property
    def size(self):
        """The number of padded cells (the workspace capacity a search needs)."""
        return self.padded.shape[0] * self.padded.shape[1]

    cdef void fill(self, Query* q):
        q.cost = &self.padded[0, 0]
        q.width = self.padded.shape[1]
        q.fh = self.fh
        q.nfloors = self.nfloors
        q.diagonal = self.diagonal
        q.indptr = &self.indptr[0]
        q.targets = &self.targets[0] if self.targets.shape[0] else NULL
        q.pcost = &self.pcost[0] if self.pcost.shape[0] else NULL
        q.np_ = self.p_entry.shape[0]
        q.p_entry = &self.p_entry[0] if q.np_ else NULL
        q.p_exit = &self.p_exit[0] if q.np_ else NULL
        q.p_cost = &self.p_cost[0] if q.np_ else NULL
        q.fstart = &self.fstart[0]
        q.xorder = &self.xorder[0] if q.np_ else NULL
        q.xstart = &self.xstart[0]
        q.lb = NULL
        q.floor_lb = NULL
        q.done = NULL


cdef Query make_query(Tables t, Workspace ws, int hkind, double hscale) except *:
    """The world of one query (its settings ``s`` are filled after), after checking
    the workspace and the heuristic code."""
    cdef Query q
    if ws.capacity < t.size:
        raise ValueError(f"workspace of {ws.capacity} cells is too small for {t.size}")
    if hkind not in (H_ZERO, H_PORTAL):
        raise ValueError(f"unknown heuristic code {hkind}")
    t.fill(&q)
    q.hkind = hkind
    q.hscale = hscale
    q.goal = -1
    q.goal_f = q.goal_r = q.goal_c = 0
    return q


cdef object to_cells(const Py_ssize_t[::1] flat, Py_ssize_t width, Py_ssize_t fh):
    """Padded flat indices as an ``(n, 3)`` array of ``(floor, row, col)`` cells."""
    cdef Py_ssize_t i, r
    cells = np.empty((flat.shape[0], 3), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] view = cells
    for i in range(flat.shape[0]):
        r = flat[i] // width - 1
        view[i, 0] = r // fh
        view[i, 1] = r % fh
        view[i, 2] = flat[i] % width - 1
    return cells


cdef class LayeredSearch(machine.CellSearch):
    """One layered-level search (A*, greedy or Dijkstra) as a step machine (see
    ``machine.CellSearch``): :meth:`step` expands at most ``n`` cells; then
    :meth:`answer` is what :func:`search` returns."""

    cdef Query q
    cdef Tables t
    cdef double[::1] lb, floor_lb
    cdef unsigned char[::1] done

    # These arguments repeat those of the machine of voxel.pyx (with no goal set), each
    # typed for its own kernel: Cython types a def's arguments per function, so each
    # kernel writes its own (the search options are one of them, settings).
    def __init__(
        self,
        Tables t not None,
        Workspace ws not None,
        const Py_ssize_t[:] sources not None,
        Py_ssize_t goal,
        *,
        int hkind,
        double hscale,
        machine.KernelSettings settings not None,
    ):
        self.q = make_query(t, ws, hkind, hscale)
        self.use_settings(&self.q.s, settings)
        # On a floor with many entries the heuristic is capped by the floor's bound,
        # admissible but not consistent across stairs: weighted searches reopen too.
        self.q.s.reopen = True
        # The heuristic's per-query scratch, owned by this machine (thread-safe).
        self.lb = np.zeros(max(self.q.np_, 1), dtype=np.float64)
        self.floor_lb = np.zeros(t.nfloors, dtype=np.float64)
        self.done = np.zeros(max(self.q.np_, 1), dtype=np.uint8)
        self.q.lb = &self.lb[0]
        self.q.floor_lb = &self.floor_lb[0]
        self.q.done = &self.done[0]
        self.t = t
        self.open_sources("cell", ws, sources, goal, None)

    # The loop and the hooks below read as those of stencil.pyx and voxel.pyx: each calls
    # its own kernel's inline functions on its own Query struct, and Cython has no
    # generics over a struct type to write them once (machine.CellSearch holds all the
    # rest).
    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, self.ws, &self.out, budget)

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        return check_cell(name, place, self.t.padded.shape[0], self.t.padded.shape[1], self.t.fh)

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return heuristic(&self.q, place)

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        return steps_cost(&self.q, path, n)

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        return to_cells(flat, self.q.width, self.q.fh)


def search(Tables t, Workspace ws, sources, Py_ssize_t goal, **args):
    """Run one search (one unlimited step of a :class:`LayeredSearch`). Returns
    ``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)`` where
    ``path_cells`` is an ``(n, 3)`` array of ``(floor, row, col)`` cells."""
    return LayeredSearch(t, ws, sources, goal, **args).finish()


# This prologue repeats the other kernels' costs-only entries (search_costs, theta_costs,
# jps_costs), each typed for its own kernel; the checks and the loop they share are
# machine.costs_pairs and machine.run_costs.
def search_costs(
    Tables t not None,
    Workspace ws not None,
    const Py_ssize_t[::1] starts not None,
    const Py_ssize_t[::1] goals not None,
    double[::1] costs not None,
    *,
    machine.KernelSettings settings not None,
    **args,
):
    """One search per ``(starts[i], goals[i])`` pair, the GIL released; each path's
    cost to ``costs[i]`` (``inf`` where none was found)."""
    if not machine.costs_pairs("search_costs", settings, starts, goals, costs):
        return
    check_cells("starts", starts, t.padded.shape[0], t.padded.shape[1], t.fh)
    check_cells("goals", goals, t.padded.shape[0], t.padded.shape[1], t.fh)
    m = LayeredSearch(t, ws, starts[:1], goals[0], settings=settings, **args)
    machine.run_costs(m, starts, goals, costs)


def field(
    Tables t not None,
    Workspace ws not None,
    const Py_ssize_t[:] sources not None,
    double[:, :, ::1] out_costs not None,
    double max_cost,
    Py_ssize_t[:, :, ::1] out_parents=None,
):
    """Dijkstra from every source at once; each cell's cost to the nearest source in
    ``out_costs`` (shape ``(floors, rows, cols)``), ``inf`` where none is reachable;
    with ``out_parents`` (the same shape), each cell's parent on its cheapest path as
    a padded flat index (-1 for sources and cells not reached). Returns the number of
    expansions."""
    cdef machine.Outcome out
    cdef Py_ssize_t s, f, r, c, W = t.padded.shape[1]
    cdef Py_ssize_t F = out_costs.shape[0], rows = out_costs.shape[1], cols = out_costs.shape[2]
    cdef int failed = 0
    cdef bint tree = out_parents is not None
    if tree and (
        out_parents.shape[0] != F or out_parents.shape[1] != rows or out_parents.shape[2] != cols
    ):
        raise ValueError("out_parents must have the shape of out_costs")
    cdef Query q = make_query(t, ws, H_ZERO, 0.0)
    if F != t.nfloors or rows != t.fh - 1 or cols != W - 2:
        raise ValueError(
            f"out_costs has shape ({F}, {rows}, {cols}); the level is "
            f"{t.nfloors} x {t.fh - 1} x {W - 2}"
        )
    check_cells("sources", sources, t.padded.shape[0], W, t.fh)
    with nogil:
        failed = machine.begin_field(ws, &out, &q.s, max_cost, sources)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for f in range(F):
                for r in range(rows):
                    for c in range(cols):
                        s = (f * t.fh + r + 1) * W + c + 1
                        if ws.cell[s].mark == ws.gen + 1:
                            out_costs[f, r, c] = ws.cell[s].g
                            if tree:
                                out_parents[f, r, c] = ws.cell[s].parent
                        else:
                            out_costs[f, r, c] = INFINITY
                            if tree:
                                out_parents[f, r, c] = -1
    if failed:
        raise MemoryError("the distance field ran out of memory")
    return out.expanded
