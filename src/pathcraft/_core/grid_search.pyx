# cython: language_level=3
"""Compiled best-first search on grids: A*, greedy, Dijkstra and distance fields.

The grid is a flat ``float64`` cost array padded with a border of walls (``inf``), so
neighbour offsets are constants and the inner loop has no bounds checks. A step into
cell ``v`` costs ``cost[v]`` straight and ``cost[v] * sqrt(2)`` diagonally.

Search state lives in a :class:`Workspace` (one per thread, never shared): g-costs,
parents, a generation mark and a heap position per cell, plus the open-list heap. The
heap is indexed: a cell reached more cheaply while open has its entry updated in place
rather than pushed again, which halves the pops on open maps. A query bumps the
generation instead of clearing anything, so it costs what it explores, not the map's
size. The search loop runs with the GIL released.

The expansion order follows :mod:`pathcraft._engine` exactly: heap entries ordered by
``(f, tie, order)``, neighbours visited in the order straight (up, down, left, right)
then diagonal (up-left, up-right, down-left, down-right), a node reopened when a
cheaper path to it is found (A* and Dijkstra), kept at its first parent (greedy).
One exception: a single-source A* (weight 1, an integer heuristic) or Dijkstra on a
4-connected grid of uniform cost with the default ties runs on buckets of f counted
in steps (:func:`run_buckets`), O(1) per push and pop, expanding the cell reached last
among those of equal f first; same costs, possibly another path of that cost.

Every ``def`` entry checks the cells, shapes and workspace size it is given (O(k),
before the GIL is released: IndexError or ValueError, never a crash) and trusts the
option codes, which :mod:`pathcraft.grid` validates first.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, realloc

import numpy as np

from pathcraft._core.codes cimport (
    MODE_ASTAR,
    MODE_DIJKSTRA,
    PATHCRAFT_DEBUG_BUILD,
    ST_MAX_EXPANSIONS,
)
from pathcraft._core.machine cimport (
    CellSearch,
    KernelSettings,
    Machine,
    NO_NODE,
    OUT_OF_MEMORY,
    begin,
    begin_field,
    copy_record,
    end_search,
    found,
    is_goal,
    next_to_expand,
    note_best,
    open_source,
    costs_pairs,
    run_costs,
    stop,
)
from pathcraft._core.heap cimport TIE_G
from pathcraft._core.record cimport recorder_push

#: Whether this is the debug build (PATHCRAFT_DEBUG_BUILD=1 at build time): bounds,
#: wraparound and initialisation checks on every memoryview index.
DEBUG_BUILD = bool(PATHCRAFT_DEBUG_BUILD)
#: The diagonal-move rules (``diagonal=``) and the heuristics (``hkind=``) by name: the
#: codes of ``grid_search.pxd``, read by :mod:`pathcraft.grid` (never written again).
DIAGONALS = {"never": NEVER, "no_corner_cut": NO_CORNER_CUT, "one_free": ONE_FREE, "always": ALWAYS}
HEURISTICS = {
    "zero": H_ZERO, "manhattan": H_MANHATTAN, "octile": H_OCTILE, "euclidean": H_EUCLIDEAN,
    "chebyshev": H_CHEBYSHEV,
}


def _probe_read(const double[::1] values, Py_ssize_t i):
    """``values[i]`` read as the kernels read memoryviews, under this build's checks:
    the debug build raises IndexError for ``i`` out of range, a release build does
    not look (never call it so there). For the test that proves the debug build."""
    return values[i]

cdef class Workspace(BaseWorkspace):
    """Per-thread search state for grids of up to ``capacity`` (padded) cells: the
    skeleton's workspace (``machine.BaseWorkspace``), one slot per cell."""

    @property
    def bytes_per_cell(self):
        """Bytes of per-cell state: g (8), parent (4), mark (4), heap place (4), and a
        goal mark (4) once a many-goal search has used this workspace."""
        return 20 + (4 if self.goal_mark != NULL else 0)

    def __cinit__(self, *args, **kwargs):
        cdef int i
        for i in range(3):
            self.ring[i].items = NULL
            self.ring[i].size = 0
            self.ring[i].capacity = 0
        self.level = 0

    def __dealloc__(self):
        cdef int i
        for i in range(3):
            free(self.ring[i].items)


cdef bint use_buckets(Query* q, double unit, Py_ssize_t sources) noexcept nogil:
    """Whether the query runs on the bucket open list (:func:`run_buckets`), and set
    ``q.buckets`` so: one source on a 4-connected grid whose walkable cells all cost
    ``unit`` (> 0; 0 means the costs vary), A* of weight 1 or Dijkstra, ties broken
    by g (the default), and an integer heuristic (zero, Manhattan or Chebyshev). Every
    step then costs ``unit`` and f counted in steps grows by 0, 1 or 2 per step."""
    q.buckets = (
        unit > 0.0 and sources == 1 and q.diagonal == NEVER
        and (q.s.mode == MODE_DIJKSTRA or (q.s.mode == MODE_ASTAR and q.s.weight == 1.0))
        and q.s.tie == TIE_G
        and (q.hkind == H_ZERO or q.hkind == H_MANHATTAN or q.hkind == H_CHEBYSHEV)
    )
    return q.buckets


cdef int open_start(Query* q, Workspace ws, Py_ssize_t start, Outcome* out) noexcept nogil:
    """Begin a query at ``start`` (a new generation, the outcome reset, the start
    opened on the query's open list); -1 when memory ran out."""
    cdef int i
    ws.next_generation()
    begin(out)
    if not q.buckets:
        return push_source(q, ws, start, out)
    for i in range(3):
        ws.ring[i].size = 0
    if not improves(ws, out, q.s.mode, True, q.s.max_cost, start, 0.0):
        return 0
    ws.cell[start].g = 0.0
    ws.cell[start].parent = -1
    ws.cell[start].mark = ws.gen
    ws.level = steps_to_goal(q, start // q.width, start % q.width)
    out.generated += 1
    return bucket_push(&ws.ring[ws.level % 3], start)


cdef int run_buckets(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """:func:`run_search` on a uniform-cost 4-connected grid (``q.buckets``, see
    :func:`use_buckets`): the open list is three stacks of cells by f counted in steps
    (Dial's buckets), so a push and a pop cost O(1) instead of a heap's O(log n).
    Among cells of equal f the one reached last is expanded first, which follows a
    straight line to the goal and, as the heap's tie rule by larger g, is
    deterministic. Each cell is expanded at most once: f never decreases along the
    buckets and the heuristic is consistent, so a cell's g is optimal when it is
    expanded. The same answers as the heap (cost, found or why not); the path may be
    another one of the same cost."""
    cdef Py_ssize_t u, v, ur, uc, hu, f, k
    cdef Py_ssize_t W = q.width
    cdef bint manhattan = q.hkind == H_MANHATTAN
    cdef Py_ssize_t dh[4]  # Manhattan: how each move changes the heuristic (-1 or +1)
    cdef double gu, d, c
    cdef const double* cost = q.cost
    cdef bint has_goal = q.goal >= 0 or q.use_goal_set
    cdef int64_t left = budget
    cdef Py_ssize_t offset[4]
    offset[0] = -W
    offset[1] = W
    offset[2] = -1
    offset[3] = 1

    while True:
        u = next_bucket_node(q, ws, out, &left, has_goal)
        if u < 0:
            return stop(u)
        if is_goal(ws, u, q.goal, q.use_goal_set):
            found(out, u)
            return 0
        gu = ws.cell[u].g
        ur = u // W
        uc = u - ur * W
        hu = steps_to_goal(q, ur, uc)
        if q.s.partial:
            note_best(out, u, hu * q.hscale)
        if manhattan:
            dh[0] = -1 if ur > q.goal_r else 1
            dh[1] = -1 if ur < q.goal_r else 1
            dh[2] = -1 if uc > q.goal_c else 1
            dh[3] = -1 if uc < q.goal_c else 1
        for k in range(4):
            v = u + offset[k]
            c = cost[v]
            if c == INFINITY:
                continue
            d = gu + c
            if not improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
                continue
            ws.cell[v].g = d
            ws.cell[v].parent = <int32_t> u
            ws.cell[v].mark = ws.gen
            if manhattan:
                f = ws.level + 1 + dh[k]
            else:
                f = ws.level - hu + 1 + steps_to_goal(q, v // W, v - (v // W) * W)
            out.generated += 1
            if bucket_push(&ws.ring[f % 3], v) != 0:
                return -1


cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """The search loop, as a step machine: expand at most ``budget`` cells (-1: no
    bound) and return, ``out.status`` still ``ST_IN_PROGRESS`` when the slice ran out
    first. Sources are already pushed; returns -1 when memory ran out."""
    if q.buckets:
        return run_buckets(q, ws, out, budget)
    cdef Py_ssize_t u, v, ur, uc
    cdef Py_ssize_t W = q.width
    cdef double gu, c
    cdef const double* cost = q.cost
    cdef int k
    cdef int64_t left = budget

    while True:
        u = next_to_expand(ws, out, &left, &q.s, q.goal, q.use_goal_set)
        if u < 0:
            return stop(u)
        gu = ws.cell[u].g
        ur = u // W
        uc = u - ur * W
        if q.s.partial:
            note_best(out, u, heuristic_rc(q, ur, uc))
        for k in range(4):
            v = u + DR[k] * W + DC[k]
            c = cost[v]
            if c != INFINITY:
                if relax(q, ws, out, u, gu, v, ur + DR[k], uc + DC[k], c) != 0:
                    return -1
        if q.diagonal == NEVER:
            continue
        for k in range(4, 8):
            v = u + DR[k] * W + DC[k]
            c = cost[v]
            if c == INFINITY:
                continue
            if not corner_open(cost, u + DR[k] * W, u + DC[k], q.diagonal):
                continue
            if relax(q, ws, out, u, gu, v, ur + DR[k], uc + DC[k], c * SQRT2) != 0:
                return -1


cdef int check_cell(str name, Py_ssize_t cell, Py_ssize_t rows, Py_ssize_t cols) except -1:
    """IndexError unless the padded flat index ``cell`` is an interior cell of a
    ``rows`` x ``cols`` padded grid (the border is walls, never a place to search)."""
    cdef Py_ssize_t r = cell // cols if cell >= 0 else -1
    cdef Py_ssize_t c = cell - r * cols
    if not (1 <= r <= rows - 2 and 1 <= c <= cols - 2):
        raise IndexError(
            f"{name}: padded cell index {cell} is not inside the {rows - 2} x {cols - 2} grid"
        )
    return 0


cdef int check_cells(
    str name, const Py_ssize_t[:] cells, Py_ssize_t rows, Py_ssize_t cols
) except -1:
    """:func:`check_cell` for every cell of ``cells`` (O(k), before any search runs)."""
    cdef Py_ssize_t i
    for i in range(cells.shape[0]):
        check_cell(name, cells[i], rows, cols)
    return 0


cdef inline int push_source(Query* q, Workspace ws, Py_ssize_t s, Outcome* out) noexcept nogil:
    """Open source ``s`` at g = 0 (a repeat ignored); -1 when memory ran out."""
    return open_source(
        ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, q.s.max_cost, s, 0.0, heuristic(q, s)
    )


cdef int check_grid(const double[:, ::1] padded, Workspace ws) except -1:
    """ValueError unless ``padded`` is a padded grid (3 x 3 cells at least) and the
    workspace is large enough for it."""
    cdef Py_ssize_t n = padded.shape[0] * padded.shape[1]
    if ws.capacity < n:
        raise ValueError(f"workspace of {ws.capacity} cells is too small for {n}")
    if padded.shape[0] < 3 or padded.shape[1] < 3:
        raise ValueError(
            f"a padded grid has at least 3 x 3 cells; got {padded.shape[0]} x {padded.shape[1]}"
        )
    return 0


cdef Query make_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, int hkind, double hscale
) except *:
    """The grid of one query (its settings ``s`` and goal are filled after), after
    :func:`check_grid`."""
    cdef Query q
    check_grid(padded, ws)
    q.cost = &padded[0, 0]
    q.width = padded.shape[1]
    q.diagonal = diagonal
    q.hkind = hkind
    q.hscale = hscale
    aim(&q, -1)
    q.use_goal_set = False
    q.buckets = False
    return q


cdef class GridSearch(CellSearch):
    """One grid search (A*, greedy or Dijkstra) as a step machine (see
    ``machine.CellSearch``): :meth:`step` expands at most ``n`` cells and returns the
    status, ``IN_PROGRESS`` until the search ends; :meth:`answer` is then what
    :func:`search` returns. The blocking :func:`search` is one unlimited step of it.
    The search holds its workspace (nothing else may use it until the search ended)
    and the cost array it reads."""

    cdef Query q
    cdef const double[:, ::1] padded

    # These arguments repeat those of the machines of stencil.pyx and voxel.pyx, each
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
        int diagonal,
        int hkind,
        double hscale,
        double unit=0.0,
        KernelSettings settings not None,
    ):
        self.q = make_query(padded, ws, diagonal, hkind, hscale)
        self.use_settings(&self.q.s, settings)
        use_buckets(&self.q, unit, sources.shape[0])
        self.padded = padded
        self.q.use_goal_set = self.open_sources("cell", ws, sources, goal, goal_set)

    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, <Workspace> self.ws, &self.out, budget)

    cdef int restart(self, Py_ssize_t start, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)
        self.q.s.rng = self.q.s.seed
        return open_start(&self.q, <Workspace> self.ws, start, &self.out)

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        return check_cell(name, place, self.padded.shape[0], self.padded.shape[1])

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return heuristic(&self.q, place)

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        return steps_cost(self.q.cost, self.q.width, path, n)

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        return to_cells(flat, self.q.width)


def search(padded, Workspace ws, sources, Py_ssize_t goal, goal_set, **args):
    """Run one search (one unlimited step of a :class:`GridSearch`, ``args`` its
    keyword arguments). Cells are flat indices into the padded array, checked to lie
    inside the grid.

    Returns ``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)`` where
    ``path_cells`` is an ``(n, 2)`` array of ``(row, col)`` cells (start to goal; the
    way to the best expanded cell for a partial path; empty otherwise) and ``rec_*``
    are None unless recording.
    """
    return GridSearch(padded, ws, sources, goal, goal_set, **args).finish()


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
    KernelSettings settings not None,
    **args,
):
    """Run one search per ``(starts[i], goals[i])`` pair, all with the GIL released,
    and write each path's cost (the sum of its steps, as :func:`search` reports it) to
    ``costs[i]``, ``inf`` where none was found. ``settings`` and ``args`` are
    :class:`GridSearch`'s keyword arguments; ``partial`` and ``record`` must be False."""
    if not costs_pairs("search_costs", settings, starts, goals, costs):
        return
    check_cells("starts", starts, padded.shape[0], padded.shape[1])
    check_cells("goals", goals, padded.shape[0], padded.shape[1])
    machine = GridSearch(padded, ws, starts[:1], goals[0], None, settings=settings, **args)
    run_costs(machine, starts, goals, costs)


cdef double path_cost(const double[:, ::1] padded, const Py_ssize_t[::1] path) noexcept:
    """The sum of the steps along ``path``, added up from start to goal."""
    if path.shape[0] == 0:
        return INFINITY
    return steps_cost(&padded[0, 0], padded.shape[1], &path[0], path.shape[0])


cdef double steps_cost(
    const double* cost, Py_ssize_t width, const Py_ssize_t* path, Py_ssize_t n
) noexcept nogil:
    """The sum of the steps along the ``n`` cells of ``path``, from start to goal."""
    cdef Py_ssize_t i, delta
    cdef double total = 0.0
    for i in range(1, n):
        delta = path[i] - path[i - 1]
        if delta == 1 or delta == -1 or delta == width or delta == -width:
            total = total + cost[path[i]]
        else:
            total = total + cost[path[i]] * SQRT2
    return total


cdef object to_cells(const Py_ssize_t[::1] flat, Py_ssize_t width):
    """Padded flat indices (``width`` columns) as an ``(n, 2)`` array of the grid's
    ``(row, col)`` cells."""
    cdef Py_ssize_t i, r
    cells = np.empty((flat.shape[0], 2), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] view = cells
    for i in range(flat.shape[0]):
        r = flat[i] // width
        view[i, 0] = r - 1
        view[i, 1] = flat[i] - r * width - 1
    return cells


cdef object copy_record_cells(Workspace ws, Py_ssize_t width):
    """The recorded expansions: an ``(n, 2)`` array of cells and their g-costs."""
    cells, gs = copy_record(ws)
    return to_cells(cells, width), gs


def field(
    const double[:, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[:] sources not None,
    double[:, ::1] out_costs not None,
    *,
    int diagonal,
    double max_cost,
):
    """Dijkstra from every source at once; write each interior cell's cost to the
    nearest source into ``out_costs`` (shape: the padded shape minus the border),
    ``inf`` where no source is reachable (within ``max_cost``). Returns expansions."""
    cdef Outcome out
    cdef Py_ssize_t s, r, c, W = padded.shape[1]
    cdef Py_ssize_t rows = out_costs.shape[0], cols = out_costs.shape[1]
    cdef int failed = 0
    cdef Query q = make_query(padded, ws, diagonal, H_ZERO, 0.0)
    if out_costs.shape[0] != padded.shape[0] - 2 or out_costs.shape[1] != padded.shape[1] - 2:
        raise ValueError(
            f"out_costs has shape ({out_costs.shape[0]}, {out_costs.shape[1]}); the grid "
            f"is {padded.shape[0] - 2} x {padded.shape[1] - 2}"
        )
    check_cells("sources", sources, padded.shape[0], padded.shape[1])
    with nogil:
        failed = begin_field(ws, &out, &q.s, max_cost, sources)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for r in range(rows):
                for c in range(cols):
                    s = (r + 1) * W + c + 1
                    if ws.cell[s].mark == ws.gen + 1:
                        out_costs[r, c] = ws.cell[s].g
                    else:
                        out_costs[r, c] = INFINITY
    if failed:
        raise MemoryError("the distance field ran out of memory")
    return out.expanded
