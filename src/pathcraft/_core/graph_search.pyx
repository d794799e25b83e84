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
from libc.stdint cimport int32_t, int64_t, uint64_t

import numpy as np

from pathcraft._core.bounds cimport check_indices, check_rows
from pathcraft._core.machine cimport (
    BaseWorkspace,
    KernelSettings,
    Machine,
    Outcome,
    Settings,
    begin,
    copy_record,
    end_node,
    field_settings,
    found,
    improves,
    is_goal,
    next_node,
    note_best,
    open_node,
    open_source,
    resident,
    small_pages,
    stop,
    take_settings,
    walk_back,
    zalloc,
    zfree,
)
from pathcraft._core.codes cimport ST_IN_PROGRESS


# The heuristics (``hkind=``), exported by name below for pathcraft.graph.
cdef enum:
    H_ZERO = 0
    H_EUCLIDEAN = 1

#: The heuristics by name (``hkind=``).
HEURISTICS = {"zero": H_ZERO, "euclidean": H_EUCLIDEAN}

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
    double hscale
    double target[3]          # the point the heuristic aims at
    Py_ssize_t goal           # the single goal node, or -1
    bint use_goal_set
    bint use_exit             # goal-set members lead to the virtual goal
    Settings s


cdef class Workspace(BaseWorkspace):
    """Per-thread search state for graphs of up to ``capacity`` nodes (a virtual goal
    included): the skeleton's workspace (``machine.BaseWorkspace``), plus the CSR place
    of each node's parent edge and, with goal marks, each goal's exit cost."""

    cdef int64_t* edge        # CSR place of the edge from the parent; -1 source
    cdef double* exit_cost    # the virtual goal's edge cost from each goal

    def __cinit__(self, Py_ssize_t capacity, *args, **kwargs):
        # Written only for the nodes a search reaches: pages taken on first touch.
        self.edge = <int64_t*> zalloc(self.capacity * sizeof(int64_t))
        self.exit_cost = NULL
        if self.edge == NULL:
            raise MemoryError(f"could not allocate a search workspace of {capacity} nodes")

    def __dealloc__(self):
        zfree(self.edge, self.capacity * sizeof(int64_t))
        zfree(self.exit_cost, self.capacity * sizeof(double))

    @property
    def nbytes(self):
        """:attr:`BaseWorkspace.nbytes`, and the parent edges and goals' exit costs."""
        return BaseWorkspace.nbytes.__get__(self) + self.capacity * (
            sizeof(int64_t) + (sizeof(double) if self.exit_cost != NULL else 0)
        )

    @property
    def resident_bytes(self):
        """:attr:`BaseWorkspace.resident_bytes`, and the parent edges' and goals'
        exit costs' pages in memory."""
        return (
            BaseWorkspace.resident_bytes.__get__(self)
            + resident(self.edge, self.capacity * sizeof(int64_t))
            + resident(self.exit_cost, self.capacity * sizeof(double))
        )

    def keep_pages_small(self):
        """:meth:`BaseWorkspace.keep_pages_small`, the parent edges included."""
        BaseWorkspace.keep_pages_small(self)
        small_pages(self.edge, self.capacity * sizeof(int64_t))
        small_pages(self.exit_cost, self.capacity * sizeof(double))

    cdef int ensure_goal_marks(self) except -1:
        BaseWorkspace.ensure_goal_marks(self)
        if self.exit_cost == NULL:
            self.exit_cost = <double*> zalloc(self.capacity * sizeof(double))
            if self.exit_cost != NULL and self.small:
                small_pages(self.exit_cost, self.capacity * sizeof(double))
            if self.exit_cost == NULL:
                raise MemoryError("could not allocate the goal marks")
        return 0


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


cdef inline int relax(
    Query* q, Workspace ws, Outcome* out,
    Py_ssize_t u, double gu, Py_ssize_t v, int64_t edge, double step,
) noexcept nogil:
    """Offer the step u -> v along ``edge`` to the open list: the skeleton's
    ``improves`` and ``open_node`` with the graph's heuristic, the edge noted."""
    cdef double d = gu + step
    if not improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
        return 0
    ws.edge[v] = edge
    return open_node(ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, u, v, d, heuristic(q, v))


cdef int run_search(Query* q, Workspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """The search loop as a step machine: expand at most ``budget`` nodes (-1: no
    bound), ``out.status`` still ``ST_IN_PROGRESS`` when the slice ran out first.
    Sources are already pushed; returns -1 when memory ran out."""
    cdef Py_ssize_t u
    cdef int64_t k, end
    cdef double gu, w
    cdef const int64_t* offsets = q.offsets
    cdef const int32_t* targets = q.targets
    cdef const double* weights = q.weights
    cdef bint goal_here
    cdef bint has_goal = q.goal >= 0 or q.use_goal_set
    cdef int64_t left = budget

    while True:
        u = next_node(ws, out, &left, q.s.max_expansions, q.s.record, has_goal)
        if u < 0:
            return stop(u)
        goal_here = u == q.n or is_goal(ws, u, q.goal, q.use_goal_set)
        if goal_here and (u == q.n or not q.use_exit):  # the virtual goal, or a goal
            found(out, u)
            return 0
        gu = ws.cell[u].g
        if q.s.partial:
            note_best(out, u, heuristic(q, u))
        end = offsets[u + 1]
        for k in range(offsets[u], end):
            w = weights[k]
            if w != INFINITY:
                if relax(q, ws, out, u, gu, targets[k], k, w) != 0:
                    return -1
        if goal_here:  # the exit edge comes after the node's own edges
            if relax(q, ws, out, u, gu, q.n, EXIT_EDGE, ws.exit_cost[u]) != 0:
                return -1


cdef int push_sources(
    Query* q, Workspace ws, const Py_ssize_t[:] sources, const double[:] source_costs,
    Outcome* out,
) noexcept nogil:
    """Open every source at its starting cost (0 unless given; a repeated source keeps
    its cheapest cost); -1 when memory ran out."""
    cdef Py_ssize_t i, s
    cdef bint costs = source_costs is not None
    for i in range(sources.shape[0]):
        s = sources[i]
        ws.edge[s] = -1
        if open_source(
            ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, q.s.max_cost, s,
            source_costs[i] if costs else 0.0, heuristic(q, s),
        ) != 0:
            return -1
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
        double hscale,
        KernelSettings settings not None,
    ):
        cdef Query* q = &self.q
        cdef Py_ssize_t i, node
        cdef int failed = 0
        cdef int d
        fill_query(q, ws, offsets, targets, weights, coords, hkind)
        take_settings(&q.s, settings)
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
        q.hscale = hscale
        q.goal = goal
        q.use_goal_set = goal_set is not None and goal_set.shape[0] > 0
        q.use_exit = q.use_goal_set and exit_costs is not None
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

    def best_so_far(self):
        """None: this search does not tell its best partial path while in progress."""
        return None

    def answer(self):
        """``(status, path_nodes, path_edges, cost, expanded, generated, rec_nodes,
        rec_g)`` of the ended search (see :func:`search`)."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        path = walk_back(self.ws, end_node(&self.out, self.q.s.partial, self.first_source))
        edges = _edges(self.ws, path)
        total = _path_cost(self.ws, self.weights, path, edges)
        rec_nodes, rec_g = copy_record(self.ws) if self.q.s.record else (None, None)
        return (
            self.out.status, path, edges, total, self.out.expanded, self.out.generated,
            rec_nodes, rec_g,
        )


def search(offsets, targets, weights, coords, Workspace ws, sources, source_costs,
           Py_ssize_t goal, goal_set, exit_costs, target, **args):
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
        exit_costs, target, **args,
    )
    return machine.finish()


cdef object _edges(Workspace ws, const Py_ssize_t[::1] path):
    """The CSR places of the edges between consecutive nodes of ``path``."""
    cdef Py_ssize_t i
    edges = np.empty(max(path.shape[0] - 1, 0), dtype=np.intp)
    cdef Py_ssize_t[::1] ev = edges
    for i in range(1, path.shape[0]):
        ev[i - 1] = ws.edge[path[i]]
    return edges


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
    total = ws.cell[path[0]].g
    for i in range(edges.shape[0]):
        if edges[i] == EXIT_EDGE:
            last = path[i]
            total = total + ws.exit_cost[last]
        else:
            total = total + weights[edges[i]]
    return total


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
    q.s = field_settings(max_cost)
    q.hscale = 0.0
    q.goal = -1
    q.use_goal_set = False
    q.use_exit = False
    begin(&out)
    with nogil:
        ws.next_generation()
        failed = push_sources(&q, ws, sources, source_costs, &out)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for u in range(q.n):
                if ws.cell[u].mark == ws.gen + 1:
                    out_dist[u] = ws.cell[u].g
                    if parents:
                        out_parent[u] = ws.cell[u].parent
                else:
                    out_dist[u] = INFINITY
                    if parents:
                        out_parent[u] = -1
    if failed:
        raise MemoryError("the graph distance field ran out of memory")
    return out.expanded
