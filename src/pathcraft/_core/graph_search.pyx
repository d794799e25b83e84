# cython: language_level=3
"""Compiled best-first search on graphs stored as CSR arrays: A*, greedy, Dijkstra.

A graph is three flat arrays: ``offsets`` (``int64``, length ``n + 1``), ``targets``
(``int32``) and ``weights`` (``float64``); the edges leaving node ``u`` are the places
``offsets[u] .. offsets[u + 1] - 1``. An edge of weight ``inf`` is closed (skipped).
Optional node coordinates (``float64``, shape ``(n, 2)`` or ``(n, 3)``) give the
Euclidean heuristic, multiplied by a scale the caller keeps admissible.

Two extras serve callers that search from or to a place that is not a node (a waypoint
query from an arbitrary position, a navmesh query inside a polygon):

- ``source_costs``: each source starts at this g instead of 0 (a virtual start joined
  to the sources by edges of these costs);
- ``exit_costs``: with a goal set, the goals are joined to a virtual goal node (index
  ``n``) by edges of these costs, and the search ends when the virtual goal is popped;
  the heuristic then aims at ``target`` (a point), not at a node.

Search state lives in a :class:`Workspace` (one per thread, never shared), with
generation marks so nothing is cleared per query, and an indexed heap (decrease-key in
place). The loop runs with the GIL released. The expansion order follows
:mod:`pathcraft._engine` exactly: heap entries ordered by ``(f, tie, order)``, the
edges of a node visited in CSR order, a node reopened when a cheaper path to it is
found (A* and Dijkstra), kept at its first parent (greedy).

Every ``def`` entry checks the node indices, shapes and workspace size it is given
(O(k) and O(1) for the CSR arrays, before the GIL is released: IndexError or
ValueError, never a crash); the CSR contents and option codes are trusted
(:class:`pathcraft.graph.Graph` validates them when it is built). Edge places are
64-bit, so a graph of any size that fits in memory is addressed; nodes are int32
(fewer than 2**31).
"""

from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.bounds cimport check_indices, check_rows
from pathcraft._core.machine cimport Machine, Outcome, begin, end_node, end_search
from pathcraft._core.record cimport Recorder
from pathcraft._core.record cimport recorder_free, recorder_init, recorder_push
from pathcraft._core.heap cimport (
    Heap,
    HeapEntry,
    heap_clear,
    heap_free,
    heap_init,
    iheap_pop,
    iheap_push,
    iheap_update,
    TIE_G,
    tie_key,
)

from pathcraft._core.codes cimport (
    MODE_ASTAR,
    MODE_DIJKSTRA,
    MODE_GREEDY,
    ST_EXHAUSTED,
    ST_FOUND,
    ST_IN_PROGRESS,
    ST_MAX_COST,
    ST_MAX_EXPANSIONS,
    ST_UNREACHABLE,
    priority,
)

# Option codes shared with pathcraft.graph (keep in sync with the tables there).
cdef enum:
    H_ZERO = 0
    H_EUCLIDEAN = 1

FOUND = ST_FOUND
UNREACHABLE = ST_UNREACHABLE
MAX_EXPANSIONS = ST_MAX_EXPANSIONS
MAX_COST = ST_MAX_COST
EXHAUSTED = ST_EXHAUSTED
IN_PROGRESS = ST_IN_PROGRESS

# The parent edge of the virtual goal (it is reached by an exit edge, not a CSR edge).
cdef int64_t EXIT_EDGE = -2


cdef struct Query:
    const int64_t* offsets
    const int32_t* targets
    const double* weights
    const double* coords
    Py_ssize_t n              # nodes; the virtual goal is node n
    int dim                   # 2 or 3 (0: no coordinates)
    int hkind
    int mode
    int tie
    double hscale
    double weight
    double target[3]          # the point the heuristic aims at
    Py_ssize_t goal           # the single goal node, or -1
    bint use_goal_set
    bint use_exit             # goal-set members lead to the virtual goal
    int64_t max_expansions    # -1: no limit
    double max_cost           # INFINITY: no limit
    bint partial
    bint record
    uint64_t rng


cdef struct NodeState:
    double g                  # cost from the (virtual) start
    int64_t edge              # CSR place of the edge from the parent; -1 source
    int32_t parent            # parent node, -1 for a source
    uint32_t mark             # == gen: reached this query; == gen + 1: expanded


cdef class Workspace:
    """Per-thread search state for graphs of up to ``capacity`` nodes (a virtual goal
    included)."""

    cdef readonly Py_ssize_t capacity
    cdef NodeState* node
    cdef int32_t* pos         # place in the heap of each open node (mark == gen)
    cdef uint32_t* goal_mark  # == gen: a goal of this query (allocated on first use)
    cdef double* exit_cost    # the virtual goal's edge cost from each goal
    cdef uint32_t gen
    cdef Heap heap
    cdef Recorder rec         # the expansions of a recording query

    def __cinit__(self, Py_ssize_t capacity):
        if capacity >= 2147483647:
            raise ValueError(f"graphs of {capacity} nodes are too large (2**31 at most)")
        if capacity < 1:
            capacity = 1
        self.capacity = capacity
        self.node = <NodeState*> malloc(capacity * sizeof(NodeState))
        self.pos = <int32_t*> malloc(capacity * sizeof(int32_t))
        self.goal_mark = NULL
        self.exit_cost = NULL
        recorder_init(&self.rec)
        self.gen = 2
        if self.node == NULL or self.pos == NULL or heap_init(&self.heap, 1024) != 0:
            raise MemoryError(f"could not allocate a search workspace of {capacity} nodes")
        cdef Py_ssize_t i
        for i in range(capacity):
            self.node[i].mark = 0

    def __dealloc__(self):
        free(self.node)
        free(self.pos)
        free(self.goal_mark)
        free(self.exit_cost)
        recorder_free(&self.rec)
        heap_free(&self.heap)

    cdef int next_generation(self) noexcept nogil:
        """Start a query: a new generation, or a reset of the marks when they wrap."""
        cdef Py_ssize_t i
        if self.gen >= 4294967290u:
            for i in range(self.capacity):
                self.node[i].mark = 0
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
            self.exit_cost = <double*> malloc(self.capacity * sizeof(double))
            if self.goal_mark == NULL or self.exit_cost == NULL:
                raise MemoryError("could not allocate the goal marks")
            for i in range(self.capacity):
                self.goal_mark[i] = 0
        return 0

    cdef int record(self, Py_ssize_t u, double g) noexcept nogil:
        return recorder_push(&self.rec, u, g)


cdef inline double heuristic(const Query* q, Py_ssize_t u) noexcept nogil:
    """The Euclidean distance from node ``u`` to the target, times the scale."""
    cdef const double* p
    cdef double dx, dy, dz
    if q.hkind == H_ZERO or u == q.n:
        return 0.0
    p = q.coords + u * q.dim
    dx = p[0] - q.target[0]
    dy = p[1] - q.target[1]
    if q.dim == 3:
        dz = p[2] - q.target[2]
        return sqrt(dx * dx + dy * dy + dz * dz) * q.hscale
    return sqrt(dx * dx + dy * dy) * q.hscale


cdef inline double tie_value(Query* q, double d) noexcept nogil:
    return tie_key(q.tie, &q.rng, d)


cdef inline int relax(
    Query* q, Workspace ws, Outcome* out,
    Py_ssize_t u, double gu, Py_ssize_t v, int64_t edge, double step,
) noexcept nogil:
    """Offer the step u -> v along ``edge``; push v when it is new or, for A* and
    Dijkstra, reached more cheaply than before (an open v is updated in place, an
    expanded one reopened)."""
    cdef double d = gu + step
    cdef double h, f
    cdef uint32_t m = ws.node[v].mark
    if m >= ws.gen:  # reached this query (marks of older queries are smaller)
        if q.mode == MODE_GREEDY or d >= ws.node[v].g:
            return 0
    if d > q.max_cost:
        out.pruned = True
        return 0
    h = heuristic(q, v)
    ws.node[v].g = d
    ws.node[v].parent = <int32_t> u
    ws.node[v].edge = edge
    ws.node[v].mark = ws.gen
    f = priority(q.mode, q.weight, d, h)
    if m == ws.gen:  # open: in the heap already
        iheap_update(&ws.heap, ws.pos[v], f, tie_value(q, d), ws.pos)
    elif iheap_push(&ws.heap, f, tie_value(q, d), v, ws.pos) != 0:
        return -1
    out.generated += 1
    return 0


cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """The search loop as a step machine: expand at most ``budget`` nodes (-1: no
    bound), ``out.status`` still ``ST_IN_PROGRESS`` when the slice ran out first.
    Sources are already pushed; returns -1 when memory ran out."""
    cdef HeapEntry e
    cdef Py_ssize_t u
    cdef int64_t k, end
    cdef double gu, h, w
    cdef const int64_t* offsets = q.offsets
    cdef const int32_t* targets = q.targets
    cdef const double* weights = q.weights
    cdef bint is_goal
    cdef int64_t left = budget

    while left != 0:
        if iheap_pop(&ws.heap, &e, ws.pos) != 0:
            end_search(q.goal >= 0 or q.use_goal_set, out)
            return 0
        u = e.item
        if out.expanded == q.max_expansions:
            out.status = ST_MAX_EXPANSIONS
            return 0
        left -= 1
        ws.node[u].mark = ws.gen + 1
        out.expanded += 1
        gu = ws.node[u].g
        if q.record and ws.record(u, gu) != 0:
            return -1
        if u == q.n:  # the virtual goal
            out.status = ST_FOUND
            out.reached = u
            return 0
        is_goal = u == q.goal or (q.use_goal_set and ws.goal_mark[u] == ws.gen)
        if is_goal and not q.use_exit:
            out.status = ST_FOUND
            out.reached = u
            return 0
        if q.partial:
            h = heuristic(q, u)
            if h < out.best_h:
                out.best_h = h
                out.best = u
        end = offsets[u + 1]
        for k in range(offsets[u], end):
            w = weights[k]
            if w != INFINITY:
                if relax(q, ws, out, u, gu, targets[k], k, w) != 0:
                    return -1
        if is_goal:  # the exit edge comes after the node's own edges
            if relax(q, ws, out, u, gu, q.n, EXIT_EDGE, ws.exit_cost[u]) != 0:
                return -1
    return 0


cdef int push_sources(
    Query* q, Workspace ws, const Py_ssize_t[:] sources, const double[:] source_costs,
    Outcome* out,
) noexcept nogil:
    """Open every source at its starting cost (0 unless given; a repeated source keeps
    its cheapest cost); -1 when memory ran out."""
    cdef Py_ssize_t i, s
    cdef double f, g, h
    cdef uint32_t m
    cdef bint costs = source_costs is not None
    for i in range(sources.shape[0]):
        s = sources[i]
        g = source_costs[i] if costs else 0.0
        m = ws.node[s].mark
        if m == ws.gen and g >= ws.node[s].g:
            continue  # a repeated source, no cheaper
        if g > q.max_cost:
            out.pruned = True
            continue
        ws.node[s].g = g
        ws.node[s].parent = -1
        ws.node[s].edge = -1
        ws.node[s].mark = ws.gen
        h = heuristic(q, s)
        if q.mode == MODE_GREEDY:
            f = h
        else:
            f = g + q.weight * h
        if m == ws.gen:
            iheap_update(&ws.heap, ws.pos[s], f, tie_value(q, g), ws.pos)
        elif iheap_push(&ws.heap, f, tie_value(q, g), s, ws.pos) != 0:
            return -1
        out.generated += 1
    return 0


cdef int fill_query(
    Query* q, Workspace ws, const int64_t[::1] offsets, const int32_t[::1] targets,
    const double[::1] weights, const double[:, ::1] coords, int hkind,
) except -1:
    """The graph part of a query's settings, after checking the workspace's size and
    the CSR arrays' shapes (O(1): their contents are checked when a Graph is built)."""
    cdef Py_ssize_t n = offsets.shape[0] - 1
    if n < 0:
        raise ValueError("offsets must hold n + 1 entries; got none")
    if ws.capacity < n + 1:
        raise ValueError(f"workspace of {ws.capacity} nodes is too small for {n + 1}")
    if offsets[0] != 0 or offsets[n] != targets.shape[0] or weights.shape[0] != targets.shape[0]:
        raise ValueError(
            f"CSR arrays disagree: offsets run from {offsets[0]} to {offsets[n]}, with "
            f"{targets.shape[0]} targets and {weights.shape[0]} weights"
        )
    if n >= 2147483647:
        raise ValueError(f"graphs of {n} nodes are too large (2**31 - 1 at most)")
    q.offsets = &offsets[0]
    q.targets = &targets[0] if targets.shape[0] > 0 else NULL
    q.weights = &weights[0] if weights.shape[0] > 0 else NULL
    q.n = n
    q.dim = 0
    q.coords = NULL
    if coords is not None and coords.shape[0] > 0:
        if coords.shape[0] != n or coords.shape[1] not in (2, 3):
            raise ValueError(
                f"coords must have shape ({n}, 2) or ({n}, 3); got "
                f"({coords.shape[0]}, {coords.shape[1]})"
            )
        q.coords = &coords[0, 0]
        q.dim = <int> coords.shape[1]
    q.hkind = hkind if q.dim > 0 else H_ZERO
    q.target[0] = q.target[1] = q.target[2] = 0.0
    return 0


cdef class GraphSearch(Machine):
    """One graph search (A*, greedy or Dijkstra) as a step machine: :meth:`step`
    expands at most ``n`` nodes and returns the status, ``IN_PROGRESS`` until the
    search ends; :meth:`answer` is then what :func:`search` returns. The blocking
    :func:`search` is one unlimited step of it. The search holds its workspace (nothing
    else may use it until the search ended) and the arrays it reads."""

    cdef Query q
    cdef Workspace ws
    cdef object keep             # the arrays the query points into
    cdef const double[::1] weights
    cdef const double[:] exit_costs
    cdef Py_ssize_t first_source

    def __init__(
        self,
        const int64_t[::1] offsets not None,
        const int32_t[::1] targets not None,
        const double[::1] weights not None,
        const double[:, ::1] coords,
        Workspace ws not None,
        const Py_ssize_t[:] sources not None,
        const double[:] source_costs,
        Py_ssize_t goal,
        const Py_ssize_t[:] goal_set,
        const double[:] exit_costs,
        const double[:] target,
        *,
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
        cdef Query* q = &self.q
        cdef Py_ssize_t i, node
        cdef int failed = 0
        cdef int d
        fill_query(q, ws, offsets, targets, weights, coords, hkind)
        check_indices("sources", sources, q.n, "node")
        check_rows("source_costs", source_costs, sources.shape[0], "sources")
        if not -1 <= goal < q.n:
            raise IndexError(f"goal: node index {goal} is not in [0, {q.n}) (or -1: none)")
        if goal_set is not None:
            check_indices("goal_set", goal_set, q.n, "node")
            check_rows("exit_costs", exit_costs, goal_set.shape[0], "goal_set")
        elif exit_costs is not None:
            raise ValueError("exit_costs need a goal_set")
        if target is not None and q.dim > 0 and target.shape[0] < q.dim:
            raise ValueError(f"target has {target.shape[0]} coordinates; the nodes have {q.dim}")
        q.mode = mode
        q.tie = tie
        q.hscale = hscale
        q.weight = weight
        q.goal = goal
        q.use_goal_set = goal_set is not None and goal_set.shape[0] > 0
        q.use_exit = q.use_goal_set and exit_costs is not None
        q.max_expansions = max_expansions
        q.max_cost = max_cost
        q.partial = partial
        q.record = record
        q.rng = seed
        if q.dim > 0:
            if target is not None:
                for d in range(q.dim):
                    q.target[d] = target[d]
            elif goal >= 0:
                for d in range(q.dim):
                    q.target[d] = q.coords[goal * q.dim + d]
        self.ws = ws
        self.keep = (offsets, targets, coords)
        self.weights = weights
        self.exit_costs = exit_costs
        self.first_source = sources[0] if sources.shape[0] > 0 else -1
        begin(&self.out)
        if q.use_goal_set:
            ws.ensure_goal_marks()
        with nogil:
            ws.next_generation()
            if q.use_goal_set:
                for i in range(goal_set.shape[0]):
                    node = goal_set[i]
                    if q.use_exit:
                        # A repeated goal keeps its cheapest exit.
                        if ws.goal_mark[node] != ws.gen or exit_costs[i] < ws.exit_cost[node]:
                            ws.exit_cost[node] = exit_costs[i]
                    ws.goal_mark[node] = ws.gen
            failed = push_sources(q, ws, sources, source_costs, &self.out)
        if failed:
            raise MemoryError("the graph search ran out of memory")

    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, self.ws, &self.out, budget)

    def answer(self):
        """``(status, path_nodes, path_edges, cost, expanded, generated, rec_nodes,
        rec_g)`` of the ended search (see :func:`search`)."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        path, edges = _walk_back(self.ws, end_node(&self.out, self.q.partial, self.first_source))
        total = _path_cost(self.ws, self.weights, path, edges)
        rec_nodes = rec_g = None
        if self.q.record:
            rec_nodes = np.empty(self.ws.rec.size, dtype=np.intp)
            rec_g = np.empty(self.ws.rec.size, dtype=np.float64)
            _copy_record(self.ws, rec_nodes, rec_g)
        return (
            self.out.status, path, edges, total, self.out.expanded, self.out.generated,
            rec_nodes, rec_g,
        )


def search(offsets, targets, weights, coords, Workspace ws, sources, source_costs,
           Py_ssize_t goal, goal_set, exit_costs, target, **settings):
    """Run one search over the CSR graph (one unlimited step of a
    :class:`GraphSearch`); nodes are indices ``0 .. n-1``, checked.

    ``goal`` is one goal node or -1; ``goal_set`` (or None) holds goal nodes, and with
    ``exit_costs`` (aligned with it) they lead to the virtual goal ``n``. ``target`` is
    the point the heuristic aims at (None: the coordinates of ``goal``).

    Returns ``(status, path_nodes, path_edges, cost, expanded, generated, rec_nodes,
    rec_g)``: ``path_nodes`` from start to goal (the virtual goal, when reached, is the
    last node, ``n``); ``path_edges[i]`` is the CSR place of the edge into
    ``path_nodes[i + 1]`` (-2 for the exit edge); ``cost`` is the sum of the steps from
    the start, the start's cost included; ``rec_*`` are None unless recording.
    """
    machine = GraphSearch(
        offsets, targets, weights, coords, ws, sources, source_costs, goal, goal_set,
        exit_costs, target, **settings,
    )
    machine.step(-1)
    return machine.answer()


cdef tuple _walk_back(Workspace ws, Py_ssize_t node):
    """The nodes from the source to ``node`` and the edges between them."""
    cdef Py_ssize_t length = 0, i, c = node
    if node < 0:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    while c >= 0:
        length += 1
        c = ws.node[c].parent
    path = np.empty(length, dtype=np.intp)
    edges = np.empty(length - 1, dtype=np.intp)
    cdef Py_ssize_t[::1] pv = path
    cdef Py_ssize_t[::1] ev = edges
    c = node
    for i in range(length - 1, -1, -1):
        pv[i] = c
        if i > 0:
            ev[i - 1] = ws.node[c].edge
        c = ws.node[c].parent
    return path, edges


cdef double _path_cost(
    Workspace ws, const double[::1] weights, const Py_ssize_t[::1] path,
    const Py_ssize_t[::1] edges,
):
    """The sum of the steps along the path, from its source's starting cost on."""
    cdef Py_ssize_t i, last
    cdef double total
    if path.shape[0] == 0:
        return INFINITY
    # The source's starting cost is its g (0 unless source costs were given).
    total = ws.node[path[0]].g
    for i in range(edges.shape[0]):
        if edges[i] == EXIT_EDGE:
            last = path[i]
            total = total + ws.exit_cost[last]
        else:
            total = total + weights[edges[i]]
    return total


cdef void _copy_record(Workspace ws, Py_ssize_t[::1] nodes, double[::1] gs) noexcept:
    cdef Py_ssize_t i
    for i in range(ws.rec.size):
        nodes[i] = ws.rec.items[i]
        gs[i] = ws.rec.g[i]


def field(
    const int64_t[::1] offsets not None,
    const int32_t[::1] targets not None,
    const double[::1] weights not None,
    Workspace ws not None,
    const Py_ssize_t[:] sources not None,
    const double[:] source_costs,
    double[::1] out_dist not None,
    int64_t[::1] out_parent,
    *,
    double max_cost,
):
    """Dijkstra from every source at once: write each node's cost from the nearest
    source into ``out_dist`` (``inf`` where unreached within ``max_cost``) and, when
    given, its parent node into ``out_parent`` (-1 for sources and unreached nodes).
    Returns the number of expansions."""
    cdef Outcome out
    cdef Query q
    cdef Py_ssize_t u
    cdef int failed = 0
    cdef bint parents = out_parent is not None
    fill_query(&q, ws, offsets, targets, weights, None, H_ZERO)
    check_indices("sources", sources, q.n, "node")
    check_rows("source_costs", source_costs, sources.shape[0], "sources")
    check_rows("out_dist", out_dist, q.n, "the graph's node count")
    check_rows("out_parent", out_parent, q.n, "the graph's node count")
    q.mode = MODE_DIJKSTRA
    q.tie = TIE_G
    q.hscale = 0.0
    q.weight = 1.0
    q.goal = -1
    q.use_goal_set = False
    q.use_exit = False
    q.max_expansions = -1
    q.max_cost = max_cost
    q.partial = False
    q.record = False
    q.rng = 0
    begin(&out)
    with nogil:
        ws.next_generation()
        failed = push_sources(&q, ws, sources, source_costs, &out)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for u in range(q.n):
                if ws.node[u].mark == ws.gen + 1:
                    out_dist[u] = ws.node[u].g
                    if parents:
                        out_parent[u] = ws.node[u].parent
                else:
                    out_dist[u] = INFINITY
                    if parents:
                        out_parent[u] = -1
    if failed:
        raise MemoryError("the graph distance field ran out of memory")
    return out.expanded
