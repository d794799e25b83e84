# cython: language_level=3
"""Compiled best-first search on stencil grids: A*, greedy, Dijkstra and distance
fields over cells whose neighbours are a table of moves.

The grid is a flat ``float64`` cost array padded with a border of ``pad`` walls
(``inf``) on every side, ``pad`` at least the longest reach of a move, so the inner
loop has no bounds checks. A move is ``(dr, dc, factor)``; the table has two rows of
``k`` moves, one per parity class of the cell moved from: the parity of its row
(offset-layout hex grids staggered by rows: odd-r, even-r), of its column (odd-q,
even-q), or none (both rows equal: custom moves such as a knight's). Entering cell
``v`` by a move costs ``cost[v] * factor``; ``inf`` is a wall. Optional per-cell masks
(``allowed``, a ``uint64`` per padded cell, bit ``k`` for move ``k``) say which moves
may leave each cell: conveyor belts, one-way doors.

The search is the skeleton of :mod:`pathcraft._core.machine` (the workspace, the pop
prologue, ``improves``/``open_node``, the settings and the ``CellSearch`` machine), the
same as :mod:`grid_search`'s: neighbours are visited in table order. Every ``def`` entry
checks the cells, the table and the workspace size it is given before the GIL is
released (IndexError or ValueError, never a crash) and trusts the option codes, which
the Python front door validates first.
"""

from libc.math cimport INFINITY, fabs, sqrt
from libc.stdint cimport int64_t, uint64_t

import numpy as np

from pathcraft._core cimport machine  # the search skeleton


# Parity codes: which coordinate picks the row of the move table.
cdef enum:
    PARITY_NONE = 0
    PARITY_ROW = 1
    PARITY_COL = 2
# Heuristic codes: zero, Euclidean on (row, col), hex distance of one offset layout.
cdef enum:
    H_ZERO = 0
    H_EUCLIDEAN = 1
    H_HEX_ODD_R = 2
    H_HEX_EVEN_R = 3
    H_HEX_ODD_Q = 4
    H_HEX_EVEN_Q = 5

#: The codes, for the Python front door.
PARITIES = {"none": PARITY_NONE, "row": PARITY_ROW, "col": PARITY_COL}
HEURISTICS = {
    "zero": H_ZERO, "euclidean": H_EUCLIDEAN, "odd-r": H_HEX_ODD_R,
    "even-r": H_HEX_EVEN_R, "odd-q": H_HEX_ODD_Q, "even-q": H_HEX_EVEN_Q,
}

cdef enum:
    MAX_MOVES = 64


cdef class Workspace(machine.BaseWorkspace):
    """Per-thread search state for stencil grids of up to ``capacity`` (padded)
    cells: the skeleton's workspace (``machine.BaseWorkspace``)."""
    pass


cdef struct Query:
    const double* cost
    Py_ssize_t width          # padded width
    Py_ssize_t pad
    int parity
    int nk                    # moves per parity class
    Py_ssize_t delta[2 * MAX_MOVES]
    double factor[2 * MAX_MOVES]
    int hkind
    double hscale
    Py_ssize_t goal
    Py_ssize_t goal_r         # unpadded
    Py_ssize_t goal_c
    bint use_goal_set
    machine.Settings s
    const uint64_t* allowed   # per padded cell, bit k: move k may leave it (NULL: all)


cdef inline void aim(Query* q, Py_ssize_t goal) noexcept nogil:
    q.goal = goal
    q.goal_r = goal // q.width - q.pad if goal >= 0 else 0
    q.goal_c = goal % q.width - q.pad if goal >= 0 else 0


cdef inline void axial(int hkind, Py_ssize_t r, Py_ssize_t c, Py_ssize_t* aq, Py_ssize_t* ar) noexcept nogil:
    """Offset cell ``(r, c)`` (unpadded, both >= 0) in axial coordinates."""
    if hkind == H_HEX_ODD_R:
        aq[0] = c - (r - (r & 1)) // 2
        ar[0] = r
    elif hkind == H_HEX_EVEN_R:
        aq[0] = c - (r + (r & 1)) // 2
        ar[0] = r
    elif hkind == H_HEX_ODD_Q:
        aq[0] = c
        ar[0] = r - (c - (c & 1)) // 2
    else:
        aq[0] = c
        ar[0] = r - (c + (c & 1)) // 2


cdef inline double heuristic_rc(const Query* q, Py_ssize_t r, Py_ssize_t c) noexcept nogil:
    """The heuristic from the unpadded cell ``(r, c)`` to the goal."""
    cdef double dr, dc
    cdef Py_ssize_t q1, r1, q2, r2, dq, da
    if q.hkind == H_ZERO:
        return 0.0
    if q.hkind == H_EUCLIDEAN:
        dr = <double> (r - q.goal_r)
        dc = <double> (c - q.goal_c)
        return sqrt(dr * dr + dc * dc) * q.hscale
    axial(q.hkind, r, c, &q1, &r1)
    axial(q.hkind, q.goal_r, q.goal_c, &q2, &r2)
    dq = q1 - q2
    da = r1 - r2
    return (fabs(<double> dq) + fabs(<double> da) + fabs(<double> (dq + da))) * 0.5 * q.hscale


cdef inline double heuristic(const Query* q, Py_ssize_t cell) noexcept nogil:
    return heuristic_rc(q, cell // q.width - q.pad, cell % q.width - q.pad)


cdef inline int move_class(const Query* q, Py_ssize_t r, Py_ssize_t c) noexcept nogil:
    """The row of the move table for the unpadded cell ``(r, c)``."""
    if q.parity == PARITY_ROW:
        return <int> (r & 1)
    if q.parity == PARITY_COL:
        return <int> (c & 1)
    return 0


cdef int run_search(
    Query* q, machine.BaseWorkspace ws, machine.Outcome* out, int64_t budget
) noexcept nogil:
    """The search loop as a step machine: expand at most ``budget`` cells (-1: no
    bound). Sources are already pushed; returns -1 when memory ran out."""
    cdef Py_ssize_t u, v, ur, uc, base
    cdef double gu, c, d
    cdef int k
    cdef int64_t left = budget
    while True:
        u = machine.next_to_expand(ws, out, &left, &q.s, q.goal, q.use_goal_set)
        if u < 0:
            return machine.stop(u)
        gu = ws.cell[u].g
        ur = u // q.width - q.pad
        uc = u % q.width - q.pad
        if q.s.partial:
            machine.note_best(out, u, heuristic_rc(q, ur, uc))
        base = move_class(q, ur, uc) * q.nk
        for k in range(q.nk):
            if q.allowed != NULL and not (q.allowed[u] >> k) & 1:
                continue  # a move this cell does not let out (a conveyor, a one-way door)
            v = u + q.delta[base + k]
            c = q.cost[v]
            if c == INFINITY:
                continue
            d = gu + c * q.factor[base + k]
            if machine.improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
                if machine.open_node(
                    ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, u, v, d, heuristic(q, v)
                ) != 0:
                    return -1


cdef int check_cell(str name, Py_ssize_t cell, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t pad) except -1:
    """IndexError unless the padded flat index ``cell`` lies inside the grid."""
    cdef Py_ssize_t r = cell // cols if cell >= 0 else -1
    cdef Py_ssize_t c = cell - r * cols
    if not (pad <= r < rows - pad and pad <= c < cols - pad):
        raise IndexError(
            f"{name}: padded cell index {cell} is not inside the "
            f"{rows - 2 * pad} x {cols - 2 * pad} grid"
        )
    return 0


cdef int check_cells(str name, const Py_ssize_t[:] cells, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t pad) except -1:
    cdef Py_ssize_t i
    for i in range(cells.shape[0]):
        check_cell(name, cells[i], rows, cols, pad)
    return 0


cdef Query make_query(
    const double[:, ::1] padded, Workspace ws, Py_ssize_t pad, int parity,
    const Py_ssize_t[:, ::1] moves, const double[:, ::1] factors,
    int hkind, double hscale, const uint64_t[::1] allowed,
) except *:
    """The world of one query (its settings ``s`` and goal are filled after), after
    checking the workspace, the padding, the move table (every move within the
    padding, so no read leaves the array) and the per-cell move masks (``allowed``:
    one per padded cell, or None)."""
    cdef Query q
    cdef Py_ssize_t n = padded.shape[0] * padded.shape[1], i, k, nk
    if ws.capacity < n:
        raise ValueError(f"workspace of {ws.capacity} cells is too small for {n}")
    if pad < 1 or padded.shape[0] <= 2 * pad or padded.shape[1] <= 2 * pad:
        raise ValueError(f"a grid padded by {pad} has more than {2 * pad} rows and columns")
    if moves.shape[0] != 2 or moves.shape[1] % 2 != 0 or factors.shape[0] != 2:
        raise ValueError("moves must have shape (2, 2k) and factors (2, k)")
    nk = moves.shape[1] // 2
    if nk < 1 or nk > MAX_MOVES or factors.shape[1] != nk:
        raise ValueError(f"the move table holds 1 to {MAX_MOVES} moves, with one factor each")
    if parity not in (PARITY_NONE, PARITY_ROW, PARITY_COL):
        raise ValueError(f"unknown parity code {parity}")
    q.cost = &padded[0, 0]
    q.width = padded.shape[1]
    q.pad = pad
    q.allowed = NULL
    if allowed is not None:
        if allowed.shape[0] != n:
            raise ValueError(f"allowed holds {allowed.shape[0]} masks; the padded grid has {n} cells")
        q.allowed = &allowed[0]
    q.parity = parity
    q.nk = <int> nk
    for i in range(2):
        for k in range(nk):
            if abs(moves[i, 2 * k]) > pad or abs(moves[i, 2 * k + 1]) > pad:
                raise ValueError(f"move {k} reaches beyond the padding of {pad}")
            if not factors[i, k] > 0.0:
                raise ValueError(f"move {k} has factor {factors[i, k]}; factors are > 0")
            q.delta[i * nk + k] = moves[i, 2 * k] * q.width + moves[i, 2 * k + 1]
            q.factor[i * nk + k] = factors[i, k]
    q.hkind = hkind
    q.hscale = hscale
    aim(&q, -1)
    q.use_goal_set = False
    return q


cdef double steps_cost(const Query* q, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
    """The sum of the steps along the ``n`` cells of ``path``, from start to goal (the
    cheapest move of the table between each two cells)."""
    cdef Py_ssize_t i, u, base, k
    cdef double total = 0.0, best
    for i in range(1, n):
        u = path[i - 1]
        base = move_class(q, u // q.width - q.pad, u % q.width - q.pad) * q.nk
        best = INFINITY
        for k in range(q.nk):
            if q.allowed != NULL and not (q.allowed[u] >> k) & 1:
                continue
            if u + q.delta[base + k] == path[i] and q.factor[base + k] < best:
                best = q.factor[base + k]
        total = total + q.cost[path[i]] * best
    return total


cdef object to_cells(const Py_ssize_t[::1] flat, Py_ssize_t width, Py_ssize_t pad):
    """Padded flat indices as an ``(n, 2)`` array of the grid's ``(row, col)`` cells."""
    cdef Py_ssize_t i, r
    cells = np.empty((flat.shape[0], 2), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] view = cells
    for i in range(flat.shape[0]):
        r = flat[i] // width
        view[i, 0] = r - pad
        view[i, 1] = flat[i] - r * width - pad
    return cells


cdef class StencilSearch(machine.CellSearch):
    """One stencil-grid search (A*, greedy or Dijkstra) as a step machine (see
    ``machine.CellSearch``): :meth:`step` expands at most ``n`` cells; then
    :meth:`answer` is what :func:`search` returns."""

    cdef Query q
    cdef const double[:, ::1] padded
    cdef const uint64_t[::1] allowed  # the masks q.allowed points into (or None)

    # These arguments repeat those of the machines of grid_search.pyx and voxel.pyx, each
    # typed for its own kernel: Cython types a def's arguments per function, so each
    # kernel writes its own (the search options are one of them, settings).
    def __init__(
        self,
        const double[:, ::1] padded not None,
        Workspace ws not None,
        const Py_ssize_t[:] sources not None,
        Py_ssize_t goal,
        const Py_ssize_t[:] goal_set,
        *,
        Py_ssize_t pad,
        int parity,
        const Py_ssize_t[:, ::1] moves not None,
        const double[:, ::1] factors not None,
        int hkind,
        double hscale,
        const uint64_t[::1] allowed=None,
        machine.KernelSettings settings not None,
    ):
        self.q = make_query(padded, ws, pad, parity, moves, factors, hkind, hscale, allowed)
        self.use_settings(&self.q.s, settings)
        self.padded = padded
        self.allowed = allowed
        self.q.use_goal_set = self.open_sources("cell", ws, sources, goal, goal_set)

    # The loop and the hooks below read as those of voxel.pyx and layered.pyx: each calls
    # its own kernel's inline functions on its own Query struct, and Cython has no
    # generics over a struct type to write them once (machine.CellSearch holds all the
    # rest).
    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, self.ws, &self.out, budget)

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        return check_cell(name, place, self.padded.shape[0], self.padded.shape[1], self.q.pad)

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return heuristic(&self.q, place)

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        return steps_cost(&self.q, path, n)

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        return to_cells(flat, self.q.width, self.q.pad)


def search(padded, Workspace ws, sources, Py_ssize_t goal, goal_set, **args):
    """Run one search (one unlimited step of a :class:`StencilSearch`). Returns
    ``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)`` where
    ``path_cells`` is an ``(n, 2)`` array of ``(row, col)`` cells."""
    return StencilSearch(padded, ws, sources, goal, goal_set, **args).finish()


# This prologue repeats the other kernels' costs-only entries (search_costs, theta_costs,
# jps_costs), each typed for its own kernel; the checks and the loop they share are
# machine.costs_pairs and machine.run_costs.
def search_costs(
    const double[:, ::1] padded not None,
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
    pad = args.get("pad")
    if pad is None:
        raise TypeError("search_costs() needs the keyword argument pad")
    check_cells("starts", starts, padded.shape[0], padded.shape[1], pad)
    check_cells("goals", goals, padded.shape[0], padded.shape[1], pad)
    m = StencilSearch(padded, ws, starts[:1], goals[0], None, settings=settings, **args)
    machine.run_costs(m, starts, goals, costs)


def field(
    const double[:, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[:] sources not None,
    double[:, ::1] out_costs not None,
    *,
    Py_ssize_t pad,
    int parity,
    const Py_ssize_t[:, ::1] moves not None,
    const double[:, ::1] factors not None,
    double max_cost,
    const uint64_t[::1] allowed=None,
    Py_ssize_t[:, ::1] out_parents=None,
):
    """Dijkstra from every source at once; each cell's cost to the nearest source in
    ``out_costs`` (the unpadded shape), ``inf`` where none is reachable; with
    ``out_parents`` (the same shape), each cell's parent on its cheapest path as a
    padded flat index (-1 for sources and cells not reached). Returns the number of
    expansions."""
    cdef machine.Outcome out
    cdef Py_ssize_t s, r, c, W = padded.shape[1]
    cdef Py_ssize_t rows = out_costs.shape[0], cols = out_costs.shape[1]
    cdef int failed = 0
    cdef bint tree = out_parents is not None
    if tree and (out_parents.shape[0] != rows or out_parents.shape[1] != cols):
        raise ValueError("out_parents must have the shape of out_costs")
    cdef Query q = make_query(padded, ws, pad, parity, moves, factors, H_ZERO, 0.0, allowed)
    if rows != padded.shape[0] - 2 * pad or cols != padded.shape[1] - 2 * pad:
        raise ValueError(
            f"out_costs has shape ({rows}, {cols}); the grid is "
            f"{padded.shape[0] - 2 * pad} x {padded.shape[1] - 2 * pad}"
        )
    check_cells("sources", sources, padded.shape[0], padded.shape[1], pad)
    with nogil:
        failed = machine.begin_field(ws, &out, &q.s, max_cost, sources)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for r in range(rows):
                for c in range(cols):
                    s = (r + pad) * W + c + pad
                    if ws.cell[s].mark == ws.gen + 1:
                        out_costs[r, c] = ws.cell[s].g
                        if tree:
                            out_parents[r, c] = ws.cell[s].parent
                    else:
                        out_costs[r, c] = INFINITY
                        if tree:
                            out_parents[r, c] = -1
    if failed:
        raise MemoryError("the distance field ran out of memory")
    return out.expanded
