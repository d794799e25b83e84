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

Every ``def`` entry checks the cells, shapes and workspace size it is given (O(k),
before the GIL is released: IndexError or ValueError, never a crash) and trusts the
option codes, which :mod:`pathcraft.grid` validates first.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.codes cimport PATHCRAFT_DEBUG_BUILD
from pathcraft._core.machine cimport Machine, begin, end_node, end_search
from pathcraft._core.record cimport recorder_free, recorder_init, recorder_push
from pathcraft._core.heap cimport (
    TIE_G,
    HeapEntry,
    heap_clear,
    heap_free,
    heap_init,
    iheap_pop,
    iheap_push,
)

FOUND = ST_FOUND
UNREACHABLE = ST_UNREACHABLE
MAX_EXPANSIONS = ST_MAX_EXPANSIONS
MAX_COST = ST_MAX_COST
EXHAUSTED = ST_EXHAUSTED
IN_PROGRESS = ST_IN_PROGRESS
#: Whether this is the debug build (PATHCRAFT_DEBUG_BUILD=1 at build time): bounds,
#: wraparound and initialisation checks on every memoryview index.
DEBUG_BUILD = bool(PATHCRAFT_DEBUG_BUILD)


def _probe_read(const double[::1] values, Py_ssize_t i):
    """``values[i]`` read as the kernels read memoryviews, under this build's checks:
    the debug build raises IndexError for ``i`` out of range, a release build does
    not look (never call it so there). For the test that proves the debug build."""
    return values[i]

cdef class Workspace:
    """Per-thread search state for grids of up to ``capacity`` (padded) cells."""

    def __cinit__(self, Py_ssize_t capacity):
        if capacity >= 2147483647:
            raise ValueError(f"grids of {capacity} cells are too large (2**31 at most)")
        self.capacity = capacity
        self.cell = <CellState*> malloc(capacity * sizeof(CellState))
        self.pos = <int32_t*> malloc(capacity * sizeof(int32_t))
        self.goal_mark = NULL
        recorder_init(&self.rec)
        self.trail = NULL
        self.trail_capacity = 0
        self.gen = 2
        if (
            self.cell == NULL or self.pos == NULL or heap_init(&self.heap, 1024) != 0
        ):
            raise MemoryError(f"could not allocate a search workspace of {capacity} cells")
        cdef Py_ssize_t i
        for i in range(capacity):
            self.cell[i].mark = 0

    def __dealloc__(self):
        free(self.cell)
        free(self.pos)
        free(self.goal_mark)
        recorder_free(&self.rec)
        free(self.trail)
        heap_free(&self.heap)

    @property
    def bytes_per_cell(self):
        """Bytes of per-cell state: g (8), parent (4), mark (4), heap place (4), and a
        goal mark (4) once a many-goal search has used this workspace."""
        return 20 + (4 if self.goal_mark != NULL else 0)

    cdef int next_generation(self) noexcept nogil:
        """Start a query: a new generation, or a reset of the marks when they wrap."""
        cdef Py_ssize_t i
        if self.gen >= 4294967290u:
            for i in range(self.capacity):
                self.cell[i].mark = 0
            if self.goal_mark != NULL:
                for i in range(self.capacity):
                    self.goal_mark[i] = 0
            self.gen = 2
        else:
            self.gen += 2
        heap_clear(&self.heap)
        self.rec.size = 0
        return 0

    cdef int ensure_goal_marks(self) except -1:
        cdef Py_ssize_t i
        if self.goal_mark == NULL:
            self.goal_mark = <uint32_t*> malloc(self.capacity * sizeof(uint32_t))
            if self.goal_mark == NULL:
                raise MemoryError("could not allocate the goal marks")
            for i in range(self.capacity):
                self.goal_mark[i] = 0
        return 0

    cdef Py_ssize_t trace(self, Py_ssize_t cell) noexcept nogil:
        """Write the path from a source to ``cell`` into ``trail``, start first; return
        its length, or -1 when memory ran out."""
        cdef Py_ssize_t n = 0, i, c = cell
        cdef Py_ssize_t* grown
        while c >= 0:
            n += 1
            c = self.cell[c].parent
        if n > self.trail_capacity:
            grown = <Py_ssize_t*> realloc(self.trail, n * sizeof(Py_ssize_t))
            if grown == NULL:
                return -1
            self.trail = grown
            self.trail_capacity = n
        c = cell
        for i in range(n - 1, -1, -1):
            self.trail[i] = c
            c = self.cell[c].parent
        return n

    cdef int record(self, Py_ssize_t cell, double g) noexcept nogil:
        return recorder_push(&self.rec, cell, g)


cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """The search loop, as a step machine: expand at most ``budget`` cells (-1: no
    bound) and return, ``out.status`` still ``ST_IN_PROGRESS`` when the slice ran out
    first. Sources are already pushed; returns -1 when memory ran out."""
    cdef HeapEntry e
    cdef Py_ssize_t u, v, ur, uc
    cdef Py_ssize_t W = q.width
    cdef double gu, h, c
    cdef const double* cost = q.cost
    cdef bint free_a, free_b
    cdef int k
    cdef int64_t left = budget
    # Neighbours: up, down, left, right, then up-left, up-right, down-left, down-right.
    cdef Py_ssize_t dr[8]
    cdef Py_ssize_t dc[8]
    dr[:] = [-1, 1, 0, 0, -1, -1, 1, 1]
    dc[:] = [0, 0, -1, 1, -1, 1, -1, 1]

    while left != 0:
        if iheap_pop(&ws.heap, &e, ws.pos) != 0:
            end_search(q.goal >= 0 or q.use_goal_set, out)
            return 0
        u = e.item  # open: the indexed heap holds each open cell once, nothing stale
        if out.expanded == q.max_expansions:
            out.status = ST_MAX_EXPANSIONS
            return 0
        left -= 1
        ws.cell[u].mark = ws.gen + 1
        out.expanded += 1
        gu = ws.cell[u].g
        if q.record and ws.record(u, gu) != 0:
            return -1
        if u == q.goal or (q.use_goal_set and ws.goal_mark[u] == ws.gen):
            out.status = ST_FOUND
            out.reached = u
            return 0
        ur = u // W
        uc = u - ur * W
        if q.partial:
            h = heuristic_rc(q, ur, uc)
            if h < out.best_h:
                out.best_h = h
                out.best = u
        for k in range(4):
            v = u + dr[k] * W + dc[k]
            c = cost[v]
            if c != INFINITY:
                if relax(q, ws, out, u, gu, v, ur + dr[k], uc + dc[k], c) != 0:
                    return -1
        if q.diagonal == NEVER:
            continue
        for k in range(4, 8):
            v = u + dr[k] * W + dc[k]
            c = cost[v]
            if c == INFINITY:
                continue
            if q.diagonal != ALWAYS:
                free_a = cost[u + dr[k] * W] != INFINITY
                free_b = cost[u + dc[k]] != INFINITY
                if q.diagonal == NO_CORNER_CUT:
                    if not (free_a and free_b):
                        continue
                elif not (free_a or free_b):
                    continue
            if relax(q, ws, out, u, gu, v, ur + dr[k], uc + dc[k], c * SQRT2) != 0:
                return -1
    return 0


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


cdef int push_sources(
    Query* q, Workspace ws, const Py_ssize_t[:] sources, Outcome* out
) noexcept nogil:
    """Open every source at g = 0 (repeats ignored); -1 when memory ran out."""
    cdef Py_ssize_t i, s
    cdef double f
    for i in range(sources.shape[0]):
        s = sources[i]
        if ws.cell[s].mark == ws.gen:
            continue  # a repeated source
        ws.cell[s].g = 0.0
        ws.cell[s].parent = -1
        ws.cell[s].mark = ws.gen
        f = heuristic(q, s) if q.mode == MODE_GREEDY else q.weight * heuristic(q, s)
        if iheap_push(&ws.heap, f, tie_value(q, 0.0), s, ws.pos) != 0:
            return -1
        out.generated += 1
    return 0


cdef Query make_query(
    const double[:, ::1] padded, Workspace ws, int diagonal, int hkind, int mode, int tie,
    double hscale, double weight, Py_ssize_t goal, bint use_goal_set,
    int64_t max_expansions, double max_cost, bint partial, bint record, uint64_t seed,
) except *:
    """The settings of one query, after checking that the workspace is large enough."""
    cdef Query q
    cdef Py_ssize_t n = padded.shape[0] * padded.shape[1]
    if ws.capacity < n:
        raise ValueError(f"workspace of {ws.capacity} cells is too small for {n}")
    if padded.shape[0] < 3 or padded.shape[1] < 3:
        raise ValueError(f"a padded grid has at least 3 x 3 cells; got {padded.shape[0]} x {padded.shape[1]}")
    q.cost = &padded[0, 0]
    q.width = padded.shape[1]
    q.diagonal = diagonal
    q.hkind = hkind
    q.mode = mode
    q.tie = tie
    q.hscale = hscale
    q.weight = weight
    aim(&q, goal)
    q.use_goal_set = use_goal_set
    q.max_expansions = max_expansions
    q.max_cost = max_cost
    q.partial = partial
    q.record = record
    q.rng = seed
    return q


cdef class GridSearch(Machine):
    """One grid search (A*, greedy or Dijkstra) as a step machine: :meth:`step` expands
    at most ``n`` cells and returns the status, ``IN_PROGRESS`` until the search ends;
    :meth:`answer` is then what :func:`search` returns. The blocking :func:`search` is
    one unlimited step of it. The search holds its workspace (nothing else may use it
    until the search ended) and the cost array it reads."""

    cdef Query q
    cdef Workspace ws
    cdef const double[:, ::1] padded
    cdef Py_ssize_t first_source

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
        int mode,
        int tie,
        double hscale,
        double weight,
        int64_t max_expansions,
        double max_cost,
        bint partial,
        bint record,
        uint64_t seed,
    ):
        cdef Py_ssize_t i
        cdef int failed
        cdef bint use_set = goal_set is not None and goal_set.shape[0] > 0
        self.q = make_query(
            padded, ws, diagonal, hkind, mode, tie, hscale, weight, goal, use_set,
            max_expansions, max_cost, partial, record, seed,
        )
        if sources.shape[0] == 0:
            raise ValueError("sources: at least one cell is needed")
        check_cells("sources", sources, padded.shape[0], padded.shape[1])
        if goal >= 0:
            check_cell("goal", goal, padded.shape[0], padded.shape[1])
        if use_set:
            check_cells("goal_set", goal_set, padded.shape[0], padded.shape[1])
            ws.ensure_goal_marks()
        self.ws = ws
        self.padded = padded
        self.first_source = sources[0]
        begin(&self.out)
        with nogil:
            ws.next_generation()
            if use_set:
                for i in range(goal_set.shape[0]):
                    ws.goal_mark[goal_set[i]] = ws.gen
            failed = push_sources(&self.q, ws, sources, &self.out)
        if failed:
            raise MemoryError("the grid search ran out of memory")

    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, self.ws, &self.out, budget)

    def answer(self):
        """``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)`` of the
        ended search (see :func:`search`)."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        path = walk_back(self.ws, end_node(&self.out, self.q.partial, self.first_source))
        rec_cells, rec_g = copy_record(self.ws, self.q.width) if self.q.record else (None, None)
        return (
            self.out.status, to_cells(path, self.q.width), path_cost(self.padded, path),
            self.out.expanded, self.out.generated, rec_cells, rec_g,
        )


def search(padded, Workspace ws, sources, Py_ssize_t goal, goal_set, **settings):
    """Run one search (one unlimited step of a :class:`GridSearch`). Cells are flat
    indices into the padded array, checked to lie inside the grid.

    Returns ``(status, path_cells, cost, expanded, generated, rec_cells, rec_g)`` where
    ``path_cells`` is an ``(n, 2)`` array of ``(row, col)`` cells (start to goal; the
    way to the best expanded cell for a partial path; empty otherwise) and ``rec_*``
    are None unless recording.
    """
    machine = GridSearch(padded, ws, sources, goal, goal_set, **settings)
    machine.step(-1)
    return machine.answer()


def search_costs(
    const double[:, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[::1] starts not None,
    const Py_ssize_t[::1] goals not None,
    double[::1] costs not None,
    *,
    int diagonal,
    int hkind,
    int mode,
    int tie,
    double hscale,
    double weight,
    int64_t max_expansions,
    double max_cost,
    bint partial,
    bint record,
    uint64_t seed,
):
    """Run one search per ``(starts[i], goals[i])`` pair, all with the GIL released,
    and write each path's cost (the sum of its steps, as :func:`search` reports it) to
    ``costs[i]``, ``inf`` where none was found. ``partial`` and ``record`` must be
    False."""
    cdef Outcome out
    cdef Py_ssize_t i, n
    cdef int failed = 0
    cdef Query q = make_query(
        padded, ws, diagonal, hkind, mode, tie, hscale, weight, 0, False, max_expansions,
        max_cost, False, False, seed,
    )
    if partial or record:
        raise ValueError("search_costs keeps neither partial paths nor records")
    if not (starts.shape[0] == goals.shape[0] == costs.shape[0]):
        raise ValueError("starts, goals and costs must have the same length")
    check_cells("starts", starts, padded.shape[0], padded.shape[1])
    check_cells("goals", goals, padded.shape[0], padded.shape[1])
    with nogil:
        for i in range(starts.shape[0]):
            aim(&q, goals[i])
            q.rng = seed
            begin(&out)
            ws.next_generation()
            failed = push_sources(&q, ws, starts[i : i + 1], &out)
            if not failed:
                failed = run_search(&q, ws, &out, -1)
            if failed:
                break
            costs[i] = INFINITY
            if out.status == ST_FOUND:
                n = ws.trace(out.reached)
                if n < 0:
                    failed = 1
                    break
                costs[i] = steps_cost(q.cost, q.width, ws.trail, n)
    if failed:
        raise MemoryError("the grid search ran out of memory")


cdef object walk_back(Workspace ws, Py_ssize_t cell):
    """The parents from ``cell`` back to a source, as a flat-index array in path order
    (empty when ``cell`` is -1)."""
    cdef Py_ssize_t length = 0, i, c = cell
    if cell < 0:
        return np.empty(0, dtype=np.intp)
    while c >= 0:
        length += 1
        c = ws.cell[c].parent
    path = np.empty(length, dtype=np.intp)
    cdef Py_ssize_t[::1] view = path
    c = cell
    for i in range(length - 1, -1, -1):
        view[i] = c
        c = ws.cell[c].parent
    return path


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


cdef object copy_record(Workspace ws, Py_ssize_t width):
    """The recorded expansions: an ``(n, 2)`` array of cells and their g-costs."""
    cdef Py_ssize_t i
    cells = np.empty(ws.rec.size, dtype=np.intp)
    gs = np.empty(ws.rec.size, dtype=np.float64)
    cdef Py_ssize_t[::1] cv = cells
    cdef double[::1] gv = gs
    for i in range(ws.rec.size):
        cv[i] = ws.rec.items[i]
        gv[i] = ws.rec.g[i]
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
    cdef Query q = make_query(
        padded, ws, diagonal, H_ZERO, MODE_DIJKSTRA, TIE_G, 0.0, 1.0, -1, False, -1,
        max_cost, False, False, 0,
    )
    if out_costs.shape[0] != padded.shape[0] - 2 or out_costs.shape[1] != padded.shape[1] - 2:
        raise ValueError(
            f"out_costs has shape ({out_costs.shape[0]}, {out_costs.shape[1]}); the grid "
            f"is {padded.shape[0] - 2} x {padded.shape[1] - 2}"
        )
    check_cells("sources", sources, padded.shape[0], padded.shape[1])
    begin(&out)
    with nogil:
        ws.next_generation()
        failed = push_sources(&q, ws, sources, &out)
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
