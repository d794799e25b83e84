# cython: language_level=3
"""The search skeleton every compiled search shares: the step machine (its outcome so
far and the one ``step`` that advances it ``n`` expansions with the GIL released:
``Machine``, subclassed by ``grid_search.GridSearch``, ``jps.JpsSearch``,
``graph_search.GraphSearch`` and ``polyanya.PolyanyaSearch``; ``CellSearch``, the
machine of a search over the places of one padded array, by ``stencil``, ``voxel``
and ``layered``), the settings every best-first kernel takes from the options
(``Settings``, carried by a ``KernelSettings`` and copied in by ``take_settings``), the workspace of the
node searches (``BaseWorkspace``: generation marks, g-costs, parents, the indexed heap,
the recorder and the goal marks), and the inline pieces of one expansion loop: the pop
prologue (:func:`next_node`), the goal test, the partial-path bookkeeping and the two
halves of ``relax`` (:func:`improves`, :func:`open_node`) with the one tolerance rule
for "no real improvement". A blocking search is one unlimited step of its machine."""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from pathcraft._core.codes cimport (
    MODE_GREEDY,
    ST_EXHAUSTED,
    ST_FOUND,
    ST_IN_PROGRESS,
    ST_MAX_COST,
    ST_MAX_EXPANSIONS,
    ST_UNREACHABLE,
    priority,
)
from pathcraft._core.heap cimport (
    Heap,
    HeapEntry,
    iheap_pop,
    iheap_push,
    iheap_update,
    tie_key,
)
from pathcraft._core.record cimport Recorder, recorder_push

cdef extern from *:
    """
    #define PATHCRAFT_IMPROVE_RTOL 1e-12
    #define PATHCRAFT_IMPROVE_KEEP (1.0 - 1e-12)
    """
    # A node already reached at cost g is reached again (its entry updated, or the
    # node reopened) only at a cost below g * (1 - IMPROVE_RTOL): a real improvement,
    # not the ~1e-15 rounding noise of equal-cost paths summed in another order. The
    # same rule as pathcraft._engine.IMPROVE_RTOL (keep the two equal).
    const double IMPROVE_RTOL "PATHCRAFT_IMPROVE_RTOL"
    const double IMPROVE_KEEP "PATHCRAFT_IMPROVE_KEEP"


cdef struct Outcome:
    int status                # ST_IN_PROGRESS until the search ends
    Py_ssize_t reached        # the goal node expanded (found)
    Py_ssize_t best           # expanded node closest to the goal (partial paths)
    int64_t expanded
    int64_t generated
    double best_h             # the heuristic of ``best``
    bint pruned               # a step (or a source) was cut by max_cost


cdef struct Slot:
    double g                  # cost from the nearest source
    int32_t parent            # the parent node, -1 for a source
    uint32_t mark             # == gen: reached this query; == gen + 1: expanded


cdef extern from "zeroed.h":
    # Zeroed per-node arrays whose pages take memory only once written (see zeroed.h).
    void* zalloc "pathcraft_zalloc"(size_t n) nogil
    void zfree "pathcraft_zfree"(void* p, size_t n) nogil
    void zreset "pathcraft_zreset"(void* p, size_t n) nogil
    long long resident "pathcraft_resident"(const void* p, size_t n) nogil
    void small_pages "pathcraft_small_pages"(void* p, size_t n) nogil


cdef class BaseWorkspace:
    # Per-thread state of the node searches (grid cells, graph nodes): one slot and one
    # heap place per node, goal marks allocated on first use, the open list, the
    # recorder and a scratch trail. A query bumps the generation instead of clearing.
    # The per-node arrays come zeroed from ``zalloc``: a page of them takes memory
    # only once a search writes it (marks start at 0, below every generation), so a
    # workspace costs what its searches touched, not the map's size.
    cdef readonly Py_ssize_t capacity
    cdef Slot* cell           # one cache line holds four nodes' whole state
    cdef int32_t* pos         # place in the heap of each open node (mark == gen)
    cdef uint32_t* goal_mark  # == gen: a goal of this query (allocated on first use)
    cdef uint32_t gen
    cdef Heap heap
    cdef Recorder rec         # the expansions of a recording query
    cdef Py_ssize_t* trail    # scratch: the last path traced, start first
    cdef Py_ssize_t trail_capacity
    cdef bint small               # per-node arrays on small pages (keep_pages_small)

    cdef Py_ssize_t _buffers(self)
    cdef int next_generation(self) noexcept nogil
    cdef Py_ssize_t trace(self, Py_ssize_t node) noexcept nogil
    cdef int ensure_goal_marks(self) except -1


cdef extern from "clock.h":
    # Seconds on a monotonic clock (time.perf_counter's), read in C.
    double now "pathcraft_now"() nogil


cdef struct Settings:
    # What every best-first kernel takes from the options (``kernel_settings()`` in
    # pathcraft._options, a :class:`KernelSettings`), copied in by
    # :func:`take_settings`; each kernel's query embeds it as ``s``.
    int mode
    int tie
    double weight
    bint reopen               # an expanded node reached more cheaply is expanded again
    int64_t max_expansions    # -1: no limit
    double max_cost           # INFINITY: no limit
    bint partial
    bint record
    uint64_t seed             # of random tie-breaking: ``rng`` at every (re)start
    uint64_t rng


cdef inline bint reopens(double weight) noexcept nogil:
    """Whether a search of heuristic weight ``weight`` expands a node again when a
    cheaper way to it turns up after its expansion: at ``weight <= 1`` (A*, Dijkstra),
    so that the answer is optimal under an admissible heuristic; not for weighted A*,
    whose answers stay within ``weight`` times the optimum without it under a
    consistent heuristic (Likhachev, Gordon and Thrun 2003, the basis of ARA*), as
    the grid, hex, voxel and graph heuristics are, and which otherwise expands cells
    many times over (70x the distinct cells of a Boston_0_512 query at weight 5). A
    kernel whose heuristic is only admissible sets ``Settings.reopen`` itself."""
    return weight <= 1.0


cdef class KernelSettings:
    # The one settings object every kernel entry that searches takes (``settings=``),
    # built by ``SearchOptions.kernel_settings()``: a checked ``Settings``.
    cdef Settings s


cdef int take_settings(Settings* s, KernelSettings settings) except -1
cdef Settings tie_g_settings(
    int mode, double weight, int64_t max_expansions, double max_cost, bint partial,
    bint record,
) noexcept nogil
cdef Settings field_settings(double max_cost) noexcept nogil
cdef int begin_field(
    BaseWorkspace ws, Outcome* out, Settings* s, double max_cost, const Py_ssize_t[:] sources
) noexcept nogil


cdef class Machine:
    cdef Outcome out
    cdef readonly double elapsed  # seconds spent in steps
    cdef int run(self, int64_t budget) noexcept nogil
    cdef int restart(self, Py_ssize_t start, Py_ssize_t goal) noexcept nogil
    cdef double found_cost(self) noexcept nogil


cdef class CellSearch(Machine):
    # A best-first search over the places (cells, voxels) of one padded cost array,
    # its sources at g = 0: the set-up, restart, push, found_cost and answer() of
    # every such machine, over the small hooks below (one virtual call per source
    # pushed or per answer, none per expansion: the loop is the subclass's run).
    cdef BaseWorkspace ws
    cdef Settings* s          # the settings inside the subclass's query
    cdef Py_ssize_t first_source
    cdef int use_settings(self, Settings* s, KernelSettings settings) except -1
    cdef bint open_sources(
        self, str what, BaseWorkspace ws, const Py_ssize_t[:] sources, Py_ssize_t goal,
        const Py_ssize_t[:] goal_set,
    ) except -1
    cdef int push(self, Py_ssize_t place) noexcept nogil
    # The hooks.
    cdef int check_place(self, str name, Py_ssize_t place) except -1
    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil
    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil
    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil
    cdef object to_places(self, const Py_ssize_t[::1] flat)


cdef object walk_back(BaseWorkspace ws, Py_ssize_t node)
cdef object copy_record(BaseWorkspace ws)
cdef bint costs_pairs(
    str entry, KernelSettings settings, const Py_ssize_t[::1] starts,
    const Py_ssize_t[::1] goals, double[::1] costs, bint keeps_partial=*,
) except -1
cdef int run_costs(
    Machine m, const Py_ssize_t[::1] starts, const Py_ssize_t[::1] goals, double[::1] costs
) except -1


cdef enum:
    # What next_node returns when there is no node to expand.
    NO_NODE = -1              # the step is over (slice spent, or the search ended)
    OUT_OF_MEMORY = -2


cdef inline void begin(Outcome* out) noexcept nogil:
    """Reset the outcome of a query about to start."""
    out.status = ST_IN_PROGRESS
    out.reached = -1
    out.best = -1
    out.best_h = INFINITY
    out.pruned = False
    out.expanded = 0
    out.generated = 0


cdef inline void end_search(bint has_goal, Outcome* out) noexcept nogil:
    """The open list ran dry: why the search ended."""
    if not has_goal:
        out.status = ST_EXHAUSTED
    elif out.pruned:
        out.status = ST_MAX_COST
    else:
        out.status = ST_UNREACHABLE


cdef inline Py_ssize_t end_node(const Outcome* out, bint partial, Py_ssize_t fallback) noexcept nogil:
    """Where the answer's path ends: the goal reached; for a partial path, the expanded
    node closest to the goal (``fallback``, a source, when none was); else -1."""
    if out.status == ST_FOUND:
        return out.reached
    if partial and out.status != ST_EXHAUSTED:
        return out.best if out.best >= 0 else fallback
    return -1


cdef inline Py_ssize_t next_node(
    BaseWorkspace ws, Outcome* out, int64_t* left, int64_t max_expansions,
    bint record, bint has_goal,
) noexcept nogil:
    """The prologue of every expansion: take the open list's best node, mark it
    expanded, count and record it, and return it. ``NO_NODE`` when this step is over:
    ``left`` (the slice's remaining expansions, -1 for no bound) is spent, the open
    list ran dry (``out.status`` says why) or ``max_expansions`` was reached;
    ``OUT_OF_MEMORY`` when recording ran out of memory."""
    cdef HeapEntry e
    cdef Py_ssize_t u
    if left[0] == 0:
        return NO_NODE
    if iheap_pop(&ws.heap, &e, ws.pos) != 0:
        end_search(has_goal, out)
        return NO_NODE
    if out.expanded == max_expansions:
        out.status = ST_MAX_EXPANSIONS
        return NO_NODE
    u = e.item  # open: the indexed heap holds each open node once, nothing stale
    left[0] -= 1
    ws.cell[u].mark = ws.gen + 1
    out.expanded += 1
    if record and recorder_push(&ws.rec, u, ws.cell[u].g) != 0:
        return OUT_OF_MEMORY
    return u


cdef inline int stop(Py_ssize_t u) noexcept nogil:
    """What a search loop returns when :func:`next_node` gave no node: 0, or -1 when
    memory ran out."""
    return -1 if u == OUT_OF_MEMORY else 0


cdef inline bint is_goal(
    BaseWorkspace ws, Py_ssize_t u, Py_ssize_t goal, bint use_goal_set
) noexcept nogil:
    """Whether ``u`` is the query's goal or one of its marked goals."""
    return u == goal or (use_goal_set and ws.goal_mark[u] == ws.gen)


cdef inline void found(Outcome* out, Py_ssize_t u) noexcept nogil:
    out.status = ST_FOUND
    out.reached = u


cdef inline void note_best(Outcome* out, Py_ssize_t u, double h) noexcept nogil:
    """For a partial path: keep the expanded node closest to the goal."""
    if h < out.best_h:
        out.best_h = h
        out.best = u


cdef inline Py_ssize_t next_to_expand(
    BaseWorkspace ws, Outcome* out, int64_t* left, const Settings* s, Py_ssize_t goal,
    bint use_goal_set,
) noexcept nogil:
    """:func:`next_node` with the goal test of a search to ``goal`` (-1: none) or,
    with ``use_goal_set``, to its marked goals: the node to expand; ``NO_NODE`` when
    this step is over, a goal reached among the ways (``out.status`` FOUND);
    ``OUT_OF_MEMORY`` when recording ran out of memory."""
    cdef Py_ssize_t u = next_node(
        ws, out, left, s.max_expansions, s.record, goal >= 0 or use_goal_set
    )
    if u >= 0 and is_goal(ws, u, goal, use_goal_set):
        found(out, u)
        return NO_NODE
    return u


cdef inline bint improves(
    BaseWorkspace ws, Outcome* out, int mode, bint reopen, double max_cost, Py_ssize_t v,
    double d,
) noexcept nogil:
    """The first half of ``relax``: whether reaching ``v`` at cost ``d`` is offered to
    the open list: ``v`` is new this query or, for A* and Dijkstra, ``d`` is a real
    improvement on its g (below ``g * (1 - IMPROVE_RTOL)``) and ``v`` is still open
    or ``reopen`` (see :func:`reopens`), and ``d`` is within ``max_cost`` (else the
    search notes that it pruned)."""
    if ws.cell[v].mark >= ws.gen:  # reached this query (older marks are smaller)
        if mode == MODE_GREEDY or d >= ws.cell[v].g * IMPROVE_KEEP:
            return False
        if not reopen and ws.cell[v].mark != ws.gen:  # expanded: it stays closed
            return False
    if d > max_cost:
        out.pruned = True
        return False
    return True


cdef inline int open_node(
    BaseWorkspace ws, Outcome* out, int mode, double weight, int tie, uint64_t* rng,
    Py_ssize_t u, Py_ssize_t v, double d, double h,
) noexcept nogil:
    """The second half of ``relax``: give ``v`` cost ``d`` and parent ``u`` and put
    it in the open list with heuristic ``h``: an open ``v`` has its entry updated in
    place, a new or expanded one is pushed. Returns -1 when memory ran out."""
    cdef uint32_t m = ws.cell[v].mark
    cdef double f = priority(mode, weight, d, h)
    ws.cell[v].g = d
    ws.cell[v].parent = <int32_t> u
    ws.cell[v].mark = ws.gen
    if m == ws.gen:  # open: in the heap already
        iheap_update(&ws.heap, ws.pos[v], f, tie_key(tie, rng, d), ws.pos)
    elif iheap_push(&ws.heap, f, tie_key(tie, rng, d), v, ws.pos) != 0:
        return -1
    out.generated += 1  # counted as a push, as the generic search counts them
    return 0


cdef inline int open_source(
    BaseWorkspace ws, Outcome* out, int mode, double weight, int tie, uint64_t* rng,
    double max_cost, Py_ssize_t s, double g, double h,
) noexcept nogil:
    """Open source ``s`` at starting cost ``g`` (a repeated source keeps its cheapest
    cost; one beyond ``max_cost`` is pruned). Returns -1 when memory ran out."""
    if not improves(ws, out, mode, True, max_cost, s, g):
        return 0
    return open_node(ws, out, mode, weight, tie, rng, -1, s, g, h)
