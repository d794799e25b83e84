# cython: language_level=3
"""Compiled multi-agent pathfinding: PIBT and LaCAM* over a graph's CSR arrays.

Both solvers move every agent one step at a time from one *configuration* (the node of
every agent) to the next; an agent moves to a neighbour of its node or waits, no two
agents take one node (vertex conflict) or exchange nodes (edge conflict), and, when
``following`` is set, no agent enters a node another agent leaves in the same step.

- **PIBT** (Okumura, Machida, Defago and Tamura, "Priority inheritance with
  backtracking for iterative multi-agent path finding", AIJ 2022): one step of every
  agent at a time, agents in order of priority (the steps since each last stood at its
  goal); an agent takes the free neighbour nearest its goal, and an agent that wants
  the node of an agent not planned yet makes that one plan first (priority
  inheritance), backtracking when it can find no node. With ``swap`` on, two agents
  that meet head on in a corridor trade places by one stepping back and pulling the
  other (the swap operation of LaCAM2, Okumura IJCAI 2023).
- **LaCAM** (Okumura, "LaCAM: Search-Based Algorithm for Quick Multi-Agent
  Pathfinding", AAAI 2023): a depth-first search over configurations whose successors
  are generated lazily, PIBT filling the moves of the agents that the low-level
  search has not fixed. Each configuration keeps a breadth-first queue of
  *constraints* (agent i goes to node v, ...), one agent deeper per level, so every
  successor configuration is eventually generated: the search is complete, and says
  "no solution" only when every configuration reachable has been tried.
- **LaCAM*** (Okumura, "Improving LaCAM for Scalable Eventually Optimal Multi-Agent
  Pathfinding", IJCAI 2023): after the first solution, the search goes on; a
  configuration met again adds an edge between the two, and the cost from the start
  (sum of loss: each agent-step not spent staying at the goal) is relaxed through the
  edges Dijkstra-wise, parents rewired. Configurations no cheaper than the best
  solution (cost so far plus the sum of the agents' distances to their goals) are
  pruned; when nothing is left, the solution is optimal for the sum of loss. A small
  rate of restarts from the start configuration keeps the search from sticking.

Arrays are flat: ``indptr``/``indices`` the neighbours of every node (CSR), ``starts``
and ``goals`` node ids, ``dist`` the breadth-first distance of every node to every
agent's goal (``n_agents x n_nodes``, ``-1`` where unreachable). The search runs with
the GIL released and returns the configurations of the solution, one row a time step.
Its memory (configurations, search nodes) grows as it goes and is bounded by
``node_limit``; every pool is freed before returning.

This file is long (about 950 lines) because the two searches share one workspace and
one PIBT step; splitting them would split the workspace's allocation and cleanup.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy, memset

import numpy as np

from pathcraft._core.mapf_tools cimport FAR, distance, rand01, randint, seeded


cdef extern from "clock.h":
    double pathcraft_now() nogil


# Why a search stopped (returned to Python beside the solution).
cdef enum:
    STOP_EXHAUSTED = 0  # nothing left to search: no solution, or the best one proven
    STOP_TIME = 1
    STOP_NODES = 2      # node limit (or memory)
    STOP_FIRST = 3      # the first solution, refinement not asked
    STOP_STEPS = 4      # PIBT's step limit (or a step it could not make)

# The chance that a configuration met again sends the search back to the start.
cdef double RESTART_RATE = 0.001

STOP_REASONS = {
    STOP_EXHAUSTED: "exhausted",
    STOP_TIME: "time limit",
    STOP_NODES: "node limit",
    STOP_FIRST: "first solution",
    STOP_STEPS: "step limit",
}


cdef struct Work:
    # the problem
    int32_t V
    int32_t N
    int32_t width              # most neighbours of a node, plus one (waiting)
    const int32_t* indptr
    const int32_t* indices
    const int32_t* goals
    const int32_t* dist
    bint following
    bint swap
    const int32_t* guide       # n_agents x V: the node PIBT tries first (-1 none), or NULL
    uint64_t rng
    # high-level nodes (configurations)
    int64_t n_nodes
    int64_t cap_nodes
    int64_t node_limit
    int32_t* conf              # cap_nodes x N
    float* prio                # cap_nodes x N
    int32_t* order             # cap_nodes x N: agents by falling priority
    int32_t* parent
    int64_t* g
    int64_t* h
    uint64_t* hash
    char* at_goal
    int64_t* lhead             # the queue of constraints still to try, per node
    int64_t* ltail
    int64_t* ehead             # the edges to the node's successors
    # low-level nodes (constraints): agent who goes to where, then the parent's
    int64_t n_low
    int64_t cap_low
    int64_t* lparent
    int64_t* lnext
    int32_t* lwho
    int32_t* lwhere
    int32_t* ldepth
    # edges between configurations (LaCAM*)
    int64_t n_edges
    int64_t cap_edges
    int32_t* eto
    int64_t* ecost
    int64_t* enext
    # the hash table of configurations: node ids, -1 empty
    int64_t table_cap
    int32_t* table
    # the open stack and the rewiring queue
    int64_t n_open
    int64_t cap_open
    int32_t* open
    int64_t cap_fifo
    int32_t* fifo
    # one PIBT step
    int32_t* occ_now           # per graph node: the agent there now, -1
    int32_t* occ_next          # per graph node: the agent there next, -1
    int32_t* nxt               # per agent: its next node, -1 not planned yet
    int32_t* cand              # per agent: its candidate nodes, best first
    double* keys
    uint64_t* sortbuf


# ---------------------------------------------------------------------------------------
# small tools

cdef inline double _rand01(Work* w) noexcept nogil:
    return rand01(&w.rng)


cdef inline int32_t _randint(Work* w, int32_t n) noexcept nogil:
    return randint(&w.rng, n)


cdef inline int32_t _d(Work* w, int32_t agent, int32_t v) noexcept nogil:
    return distance(w.dist, w.V, agent, v)


cdef inline int32_t _deg(Work* w, int32_t v) noexcept nogil:
    return w.indptr[v + 1] - w.indptr[v]


cdef int _grow(void** p, int64_t* cap, int64_t need, size_t size) noexcept nogil:
    """Make the array at p hold at least need items of size bytes; 0 on failure."""
    cdef int64_t new_cap = cap[0] if cap[0] > 0 else 16
    cdef void* q
    if need <= cap[0]:
        return 1
    while new_cap < need:
        new_cap *= 2
    q = realloc(p[0], <size_t>new_cap * size)
    if q == NULL:
        return 0
    p[0] = q
    cap[0] = new_cap
    return 1


cdef int _cmp_u64(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x > y) - (x < y)


cdef void _sort_order(Work* w, const float* prio, int32_t* order) noexcept nogil:
    """Agents by falling priority, ties by rising index (priorities are >= 0)."""
    cdef int32_t i
    cdef uint32_t bits
    cdef float p
    for i in range(w.N):
        p = prio[i]
        memcpy(&bits, &p, 4)
        w.sortbuf[i] = ((<uint64_t>(~bits)) << 32) | <uint32_t>i
    qsort(w.sortbuf, w.N, sizeof(uint64_t), _cmp_u64)
    for i in range(w.N):
        order[i] = <int32_t>(w.sortbuf[i] & 0xFFFFFFFFULL)


cdef uint64_t _hash(const int32_t* c, int32_t n) noexcept nogil:
    cdef uint64_t x = 1469598103934665603ULL
    cdef int32_t i
    for i in range(n):
        x ^= <uint32_t>c[i]
        x *= 1099511628211ULL
        x ^= x >> 29
    return x ^ (x >> 32)


cdef inline bint _neighbour(Work* w, int32_t a, int32_t b) noexcept nogil:
    """Whether b is a neighbour of a."""
    cdef int32_t k
    for k in range(w.indptr[a], w.indptr[a + 1]):
        if w.indices[k] == b:
            return True
    return False


# ---------------------------------------------------------------------------------------
# one PIBT step

cdef inline bint _parked(Work* w, int32_t u) noexcept nogil:
    """Whether u is a dead end with an agent standing at its own goal there."""
    cdef int32_t a = w.occ_now[u]
    return _deg(w, u) == 1 and a >= 0 and w.goals[a] == u


cdef bint _swap_required(Work* w, int32_t pusher, int32_t puller, int32_t vp, int32_t vq) noexcept nogil:
    """Whether pusher (at vp, heading to vq, where puller stands) can only pass puller
    by trading places: the way ahead is a corridor with no room to step aside."""
    cdef int32_t n, k, u, tmp = -1
    cdef int64_t guard = 0
    while _d(w, pusher, vq) < _d(w, pusher, vp) and guard <= w.V:
        guard += 1
        n = _deg(w, vq)
        for k in range(w.indptr[vq], w.indptr[vq + 1]):
            u = w.indices[k]
            if u == vp or _parked(w, u):
                n -= 1
            else:
                tmp = u
        if n >= 2:
            return False  # a side node: puller can step aside
        if n <= 0:
            break
        vp = vq
        vq = tmp
    return (_d(w, puller, vp) < _d(w, puller, vq)
            and (_d(w, pusher, vp) == 0 or _d(w, pusher, vq) < _d(w, pusher, vp)))


cdef bint _swap_possible(Work* w, int32_t vp0, int32_t vq) noexcept nogil:
    """Whether pulling back from vq (away from vp0) reaches a node with room to turn."""
    cdef int32_t vp = vp0, n, k, u, tmp = -1
    cdef int64_t guard = 0
    while vq != vp0 and guard <= w.V:
        guard += 1
        n = _deg(w, vq)
        for k in range(w.indptr[vq], w.indptr[vq + 1]):
            u = w.indices[k]
            if u == vp or _parked(w, u):
                n -= 1
            else:
                tmp = u
        if n >= 2:
            return True
        if n <= 0:
            return False
        vp = vq
        vq = tmp
    return False


cdef int32_t _swap_agent(Work* w, int32_t i, const int32_t* C, int32_t best) noexcept nogil:
    """The agent that i should pull behind it to trade places with, or -1."""
    cdef int32_t v = C[i], j, k, u
    if best == v:
        return -1
    j = w.occ_now[best]
    if (j >= 0 and w.nxt[j] < 0 and _swap_required(w, i, j, v, best)
            and _swap_possible(w, best, v)):
        return j
    # clearing the way for a neighbour that must pass through i's node
    for k in range(w.indptr[v], w.indptr[v + 1]):
        u = w.indices[k]
        j = w.occ_now[u]
        if j < 0 or best == C[j]:
            continue
        if _swap_required(w, j, i, v, best) and _swap_possible(w, best, v):
            return j
    return -1


cdef bint _pibt(Work* w, int32_t i, const int32_t* C) noexcept nogil:
    """Plan agent i's next node (and, by inheritance, others'); False if it must stay
    where it is against its will."""
    cdef int32_t v = C[i], b = w.indptr[v], K = w.indptr[v + 1] - w.indptr[v]
    cdef int32_t* cd = w.cand + <int64_t>i * w.width
    cdef double* key = w.keys
    cdef int32_t k, m, u, ak, sa = -1
    cdef double kk
    for k in range(K):
        cd[k] = w.indices[b + k]
    cd[K] = v
    for k in range(K + 1):
        key[k] = _d(w, i, cd[k]) + _rand01(w)
    if w.guide != NULL:  # the next node on the agent's spread path goes first
        u = w.guide[<int64_t>i * w.V + v]
        for k in range(K + 1):
            if cd[k] == u:
                key[k] = -1.0
    for k in range(1, K + 1):  # insertion sort, nearest the goal first
        u = cd[k]
        kk = key[k]
        m = k - 1
        while m >= 0 and key[m] > kk:
            key[m + 1] = key[m]
            cd[m + 1] = cd[m]
            m -= 1
        key[m + 1] = kk
        cd[m + 1] = u
    if w.swap and not w.following:
        sa = _swap_agent(w, i, C, cd[0])
        if sa >= 0:  # step back first, pulling sa behind
            m = 0
            k = K
            while m < k:
                u = cd[m]
                cd[m] = cd[k]
                cd[k] = u
                m += 1
                k -= 1
    for k in range(K + 1):
        u = cd[k]
        if w.occ_next[u] >= 0:
            continue
        ak = w.occ_now[u]
        if ak >= 0 and ak != i:
            if w.following or w.nxt[ak] == v:
                continue
        w.occ_next[u] = i
        w.nxt[i] = u
        if ak >= 0 and ak != i and w.nxt[ak] < 0 and not _pibt(w, ak, C):
            continue
        if (k == 0 and sa >= 0 and w.nxt[sa] < 0 and w.occ_next[v] < 0
                and _neighbour(w, C[sa], v)):
            w.occ_next[v] = sa
            w.nxt[sa] = v
        return True
    w.occ_next[v] = i
    w.nxt[i] = v
    return False


cdef void _clear_step(Work* w, const int32_t* C) noexcept nogil:
    cdef int32_t i
    for i in range(w.N):
        w.occ_now[C[i]] = -1
        w.occ_next[C[i]] = -1
        if w.nxt[i] >= 0:
            w.occ_next[w.nxt[i]] = -1


cdef bint _step(Work* w, const int32_t* C, const int32_t* order, int64_t low) noexcept nogil:
    """The next configuration from C into w.nxt: the constraints of low-level node
    ``low`` (-1: none) first, PIBT for the other agents in ``order``; False if the
    constraints conflict or PIBT fails."""
    cdef int32_t i, j, v
    cdef int64_t l
    cdef bint ok = True
    for i in range(w.N):
        w.occ_now[C[i]] = i
        w.nxt[i] = -1
    l = low
    while l >= 0 and ok:
        i = w.lwho[l]
        if i >= 0:
            v = w.lwhere[l]
            if w.occ_next[v] >= 0:
                ok = False
            else:
                w.occ_next[v] = i
                w.nxt[i] = v
        l = w.lparent[l]
    if ok:  # edge (and following) conflicts among the constrained agents
        l = low
        while l >= 0 and ok:
            i = w.lwho[l]
            if i >= 0:
                v = w.lwhere[l]
                j = w.occ_now[v]
                if j >= 0 and j != i and (w.following or w.nxt[j] == C[i]):
                    ok = False
            l = w.lparent[l]
    if ok:
        for j in range(w.N):
            i = order[j]
            if w.nxt[i] < 0 and not _pibt(w, i, C):
                ok = False
                break
    if not ok:
        _clear_step(w, C)
    return ok


# ---------------------------------------------------------------------------------------
# the LaCAM* search

cdef inline int _resize(void** p, int64_t count, size_t size) noexcept nogil:
    """Reallocate the array at p to count items of size bytes; 0 on failure (p kept)."""
    cdef void* q = realloc(p[0], <size_t>count * size)
    if q == NULL:
        return 0
    p[0] = q
    return 1


cdef int _reserve_nodes(Work* w) noexcept nogil:
    """Room for one more configuration; 0 at the node limit or out of memory."""
    cdef int64_t cap, N = w.N
    if w.n_nodes + 1 <= w.cap_nodes:
        return 1
    if w.n_nodes >= w.node_limit:
        return 0
    cap = w.cap_nodes * 2 if w.cap_nodes > 0 else 64
    if cap > w.node_limit:
        cap = w.node_limit
    if not (_resize(<void**>&w.conf, cap * N, sizeof(int32_t))
            and _resize(<void**>&w.prio, cap * N, sizeof(float))
            and _resize(<void**>&w.order, cap * N, sizeof(int32_t))
            and _resize(<void**>&w.parent, cap, sizeof(int32_t))
            and _resize(<void**>&w.g, cap, sizeof(int64_t))
            and _resize(<void**>&w.h, cap, sizeof(int64_t))
            and _resize(<void**>&w.hash, cap, sizeof(uint64_t))
            and _resize(<void**>&w.at_goal, cap, sizeof(char))
            and _resize(<void**>&w.lhead, cap, sizeof(int64_t))
            and _resize(<void**>&w.ltail, cap, sizeof(int64_t))
            and _resize(<void**>&w.ehead, cap, sizeof(int64_t))):
        return 0
    w.cap_nodes = cap
    return _rehash(w, cap * 2)


cdef int _rehash(Work* w, int64_t want) noexcept nogil:
    """A table of at least want slots (a power of two) holding every configuration."""
    cdef int64_t cap = 1024, k, s, mask
    while cap < want:
        cap *= 2
    if cap <= w.table_cap:
        return 1
    cdef int32_t* t = <int32_t*>malloc(<size_t>cap * sizeof(int32_t))
    if t == NULL:
        return 0
    for k in range(cap):
        t[k] = -1
    mask = cap - 1
    for k in range(w.n_nodes):
        s = <int64_t>(w.hash[k] & <uint64_t>mask)
        while t[s] >= 0:
            s = (s + 1) & mask
        t[s] = <int32_t>k
    free(w.table)
    w.table = t
    w.table_cap = cap
    return 1


cdef int32_t _find(Work* w, const int32_t* C, uint64_t hv) noexcept nogil:
    """The node of configuration C, or -1."""
    cdef int64_t mask = w.table_cap - 1
    cdef int64_t s = <int64_t>(hv & <uint64_t>mask)
    cdef int32_t k
    while True:
        k = w.table[s]
        if k < 0:
            return -1
        if w.hash[k] == hv and memcmp(w.conf + <int64_t>k * w.N, C, <size_t>w.N * 4) == 0:
            return k
        s = (s + 1) & mask


cdef int64_t _edge_cost(Work* w, const int32_t* a, const int32_t* b) noexcept nogil:
    """Sum of loss of one step: the agents not staying at their goals."""
    cdef int64_t c = 0
    cdef int32_t i
    for i in range(w.N):
        if a[i] != w.goals[i] or b[i] != w.goals[i]:
            c += 1
    return c


cdef int _add_edge(Work* w, int32_t a, int32_t b, int64_t cost) noexcept nogil:
    cdef int64_t e = w.ehead[a], cap
    while e >= 0:
        if w.eto[e] == b:
            return 1
        e = w.enext[e]
    if w.n_edges + 1 > w.cap_edges:
        cap = w.cap_edges * 2 if w.cap_edges > 0 else 1024
        if not (_resize(<void**>&w.eto, cap, sizeof(int32_t))
                and _resize(<void**>&w.ecost, cap, sizeof(int64_t))
                and _resize(<void**>&w.enext, cap, sizeof(int64_t))):
            return 0
        w.cap_edges = cap
    e = w.n_edges
    w.n_edges += 1
    w.eto[e] = b
    w.ecost[e] = cost
    w.enext[e] = w.ehead[a]
    w.ehead[a] = e
    return 1


cdef int64_t _new_low(Work* w, int64_t parent, int32_t who, int32_t where, int32_t depth) noexcept nogil:
    """A low-level node; -1 out of memory."""
    cdef int64_t k = w.n_low
    cdef int64_t cap = w.cap_low * 2 if w.cap_low > 0 else 1024
    if k + 1 > w.cap_low:
        if not (_resize(<void**>&w.lparent, cap, sizeof(int64_t))
                and _resize(<void**>&w.lnext, cap, sizeof(int64_t))
                and _resize(<void**>&w.lwho, cap, sizeof(int32_t))
                and _resize(<void**>&w.lwhere, cap, sizeof(int32_t))
                and _resize(<void**>&w.ldepth, cap, sizeof(int32_t))):
            return -1
        w.cap_low = cap
    w.n_low += 1
    w.lparent[k] = parent
    w.lnext[k] = -1
    w.lwho[k] = who
    w.lwhere[k] = where
    w.ldepth[k] = depth
    return k


cdef inline void _enqueue_low(Work* w, int32_t node, int64_t low) noexcept nogil:
    if w.ltail[node] < 0:
        w.lhead[node] = low
    else:
        w.lnext[w.ltail[node]] = low
    w.ltail[node] = low


cdef int32_t _new_node(Work* w, const int32_t* C, uint64_t hv, int32_t parent) noexcept nogil:
    """Store configuration C as a search node reached from parent (-1: the root);
    -1 at the node limit or out of memory."""
    cdef int32_t i, k
    cdef int64_t N = w.N, h = 0, root
    cdef int32_t* c
    cdef float* pr
    cdef const float* pp
    cdef float p
    cdef char goal = 1
    if not _reserve_nodes(w):
        return -1
    root = _new_low(w, -1, -1, -1, 0)
    if root < 0:
        return -1
    k = <int32_t>w.n_nodes
    c = w.conf + k * N
    memcpy(c, C, <size_t>N * 4)
    pr = w.prio + k * N
    for i in range(w.N):
        h += _d(w, i, C[i])
        if C[i] != w.goals[i]:
            goal = 0
    if parent < 0:
        for i in range(w.N):
            pr[i] = <float>_d(w, i, C[i]) / <float>w.N
    else:
        pp = w.prio + <int64_t>parent * N
        for i in range(w.N):
            p = pp[i]
            if C[i] != w.goals[i]:
                pr[i] = p + 1.0
            else:
                pr[i] = p - <float>(<int64_t>p)
    _sort_order(w, pr, w.order + k * N)
    w.parent[k] = parent
    w.h[k] = h
    w.g[k] = 0 if parent < 0 else w.g[parent] + _edge_cost(w, w.conf + <int64_t>parent * N, c)
    w.hash[k] = hv
    w.at_goal[k] = goal
    w.lhead[k] = root
    w.ltail[k] = root
    w.ehead[k] = -1
    w.n_nodes += 1
    # into the table (it has room: rehashed at twice the node capacity)
    cdef int64_t mask = w.table_cap - 1
    cdef int64_t s = <int64_t>(hv & <uint64_t>mask)
    while w.table[s] >= 0:
        s = (s + 1) & mask
    w.table[s] = k
    if parent >= 0 and not _add_edge(w, parent, k, w.g[k] - w.g[parent]):
        return -1
    return k


cdef int _push_open(Work* w, int32_t node) noexcept nogil:
    cdef int64_t cap = w.cap_open
    if not _grow(<void**>&w.open, &cap, w.n_open + 1, sizeof(int32_t)):
        return 0
    w.cap_open = cap
    w.open[w.n_open] = node
    w.n_open += 1
    return 1


cdef int64_t _next_low(Work* w, int32_t node) noexcept nogil:
    """Take the next constraint of node's queue and queue its children (one more agent
    fixed: to each neighbour of its node, or staying); -1 out of memory."""
    cdef int64_t low = w.lhead[node], child
    cdef int32_t depth, i, v, K, k, m, u
    cdef int32_t* cd
    w.lhead[node] = w.lnext[low]
    if w.lhead[node] < 0:
        w.ltail[node] = -1
    depth = w.ldepth[low]
    if depth < w.N:
        i = w.order[<int64_t>node * w.N + depth]
        v = w.conf[<int64_t>node * w.N + i]
        K = _deg(w, v)
        cd = w.cand  # free between steps
        for k in range(K):
            cd[k] = w.indices[w.indptr[v] + k]
        cd[K] = v
        for k in range(K, 0, -1):  # shuffled
            m = _randint(w, k + 1)
            u = cd[k]
            cd[k] = cd[m]
            cd[m] = u
        for k in range(K + 1):
            child = _new_low(w, low, i, cd[k], depth + 1)
            if child < 0:
                return -1
            _enqueue_low(w, node, child)
    return low


cdef int _rewire(Work* w, int32_t a, int32_t b, int32_t goal) noexcept nogil:
    """An edge a -> b; the costs from the start relaxed through it (Dijkstra-wise, by a
    queue: all edges cost >= 1 but the goal's wait), nodes now cheaper than the goal
    put back on the open stack. 0 out of memory."""
    cdef int64_t head = 0, tail = 0, e, gv, cap, N = w.N
    cdef int32_t x, y
    if not _add_edge(w, a, b, _edge_cost(w, w.conf + <int64_t>a * N, w.conf + <int64_t>b * N)):
        return 0
    cap = w.cap_fifo
    if not _grow(<void**>&w.fifo, &cap, 1, sizeof(int32_t)):
        return 0
    w.cap_fifo = cap
    w.fifo[tail] = a
    tail += 1
    while head < tail:
        x = w.fifo[head]
        head += 1
        e = w.ehead[x]
        while e >= 0:
            y = w.eto[e]
            gv = w.g[x] + w.ecost[e]
            if gv < w.g[y]:
                w.g[y] = gv
                w.parent[y] = x
                cap = w.cap_fifo
                if not _grow(<void**>&w.fifo, &cap, tail + 1, sizeof(int32_t)):
                    return 0
                w.cap_fifo = cap
                w.fifo[tail] = y
                tail += 1
                if goal >= 0 and w.g[y] + w.h[y] < w.g[goal] + w.h[goal]:
                    if not _push_open(w, y):
                        return 0
            e = w.enext[e]
    return 1


cdef int _alloc_step(Work* w) noexcept nogil:
    """The PIBT scratch arrays; 0 out of memory."""
    cdef int32_t v
    cdef int64_t width = 1
    for v in range(w.V):
        if _deg(w, v) + 1 > width:
            width = _deg(w, v) + 1
    w.width = <int32_t>width
    w.occ_now = <int32_t*>malloc(<size_t>w.V * 4)
    w.occ_next = <int32_t*>malloc(<size_t>w.V * 4)
    w.nxt = <int32_t*>malloc(<size_t>w.N * 4)
    w.cand = <int32_t*>malloc(<size_t>(w.N * width) * 4)
    w.keys = <double*>malloc(<size_t>width * sizeof(double))
    w.sortbuf = <uint64_t*>malloc(<size_t>w.N * sizeof(uint64_t))
    if (w.occ_now == NULL or w.occ_next == NULL or w.nxt == NULL or w.cand == NULL
            or w.keys == NULL or w.sortbuf == NULL):
        return 0
    for v in range(w.V):
        w.occ_now[v] = -1
        w.occ_next[v] = -1
    return 1


cdef void _free_work(Work* w) noexcept nogil:
    free(w.conf); free(w.prio); free(w.order); free(w.parent); free(w.g); free(w.h)
    free(w.hash); free(w.at_goal); free(w.lhead); free(w.ltail); free(w.ehead)
    free(w.lparent); free(w.lnext); free(w.lwho); free(w.lwhere); free(w.ldepth)
    free(w.eto); free(w.ecost); free(w.enext); free(w.table); free(w.open); free(w.fifo)
    free(w.occ_now); free(w.occ_next); free(w.nxt); free(w.cand); free(w.keys)
    free(w.sortbuf)


cdef void _init_work(
    Work* w, const int32_t[::1] indptr, const int32_t[::1] indices,
    const int32_t[::1] goals, const int32_t[:, ::1] dist, bint following, bint swap,
    uint64_t seed,
) noexcept:
    memset(w, 0, sizeof(Work))
    w.V = <int32_t>(indptr.shape[0] - 1)
    w.N = <int32_t>goals.shape[0]
    w.indptr = &indptr[0]
    w.indices = &indices[0] if indices.shape[0] > 0 else NULL
    w.goals = &goals[0]
    w.dist = &dist[0, 0]
    w.following = following
    w.swap = swap
    w.rng = seeded(seed, <uint64_t>0x2545F4914F6CDD1DULL)


def _check(indptr, indices, starts, goals, dist):
    n = indptr.shape[0] - 1
    if n < 1:
        raise ValueError("the graph must have at least one node")
    if starts.shape[0] != goals.shape[0] or starts.shape[0] < 1:
        raise ValueError("starts and goals must hold one node per agent, at least one agent")
    if dist.shape[0] != goals.shape[0] or dist.shape[1] != n:
        raise ValueError(f"dist must be n_agents x n_nodes ({goals.shape[0]} x {n})")
    if indices.shape[0] != indptr[n]:
        raise ValueError("indices must hold indptr[-1] entries")
    for name, arr in (("starts", starts), ("goals", goals), ("indices", indices)):
        a = np.asarray(arr)
        if a.size and (a.min() < 0 or a.max() >= n):
            raise ValueError(f"{name} must be node ids in [0, {n})")


def lacam(
    const int32_t[::1] indptr not None,
    const int32_t[::1] indices not None,
    const int32_t[::1] starts not None,
    const int32_t[::1] goals not None,
    const int32_t[:, ::1] dist not None,
    double t0,
    double time_limit,
    long long node_limit,
    bint refine,
    bint following=False,
    bint swap=True,
    unsigned long long seed=0,
    double refine_share=1.0,
    const int32_t[:, ::1] guide=None,
):
    """Search configurations with LaCAM (LaCAM* when ``refine``).

    Parameters
    ----------
    indptr, indices : ndarray of int32
        The graph (CSR): the neighbours of node v are ``indices[indptr[v]:indptr[v+1]]``.
    starts, goals : ndarray of int32, shape (n_agents,)
        Every agent's start and goal node (distinct).
    dist : ndarray of int32, shape (n_agents, n_nodes)
        Breadth-first distance of every node to every agent's goal, -1 unreachable.
    t0 : float
        The ``time.perf_counter()`` time the query began (times are measured from it).
    time_limit : float
        Seconds after ``t0`` when the search stops.
    node_limit : int
        Most configurations stored.
    refine : bool
        Go on after the first solution (LaCAM*) until the limits or proof of optimality.
    following : bool
        Forbid entering a node that another agent leaves in the same step.
    swap : bool
        PIBT's swap operation (off when ``following``).
    seed : int
        Seed of the tie-breaking and shuffling.
    refine_share : float
        The share of the time left at the first solution that refinement may take.
    guide : ndarray of int32, shape (n_agents, n_nodes), optional
        The node PIBT tries first for agent i at node v, ``guide[i, v]`` (-1: none);
        :func:`pathcraft._core.scatter.scatter` makes one.

    Returns
    -------
    tuple
        ``(found, stop, configs, stats)``: whether a solution was found, why the
        search stopped (a key of ``STOP_REASONS``), the solution as an int32 array
        (time steps x agents; empty when not found), and a dict of numbers.
    """
    _check(indptr, indices, starts, goals, dist)
    cdef Work w
    _init_work(&w, indptr, indices, goals, dist, following, swap, seed)
    if guide is not None:
        if guide.shape[0] != w.N or guide.shape[1] != w.V:
            raise ValueError(f"guide must be n_agents x n_nodes ({w.N} x {w.V})")
        w.guide = &guide[0, 0]
    w.node_limit = node_limit if node_limit > 0 else 1
    cdef int stop = STOP_EXHAUSTED
    cdef int32_t goal = -1, top, found, ins, start_node
    cdef int64_t iterations = 0, first_iterations = -1, first_cost = -1, low, steps = 0
    cdef double first_time = -1.0, deadline = t0 + time_limit, now
    cdef uint64_t hv
    cdef int32_t* C
    cdef int64_t N = w.N
    with nogil:
        if not _alloc_step(&w):
            stop = STOP_NODES
        else:
            start_node = _new_node(&w, &starts[0], _hash(&starts[0], w.N), -1)
            if start_node < 0 or not _push_open(&w, start_node):
                stop = STOP_NODES
            while stop == STOP_EXHAUSTED and w.n_open > 0:
                now = pathcraft_now()
                if now >= deadline:
                    stop = STOP_TIME
                    break
                iterations += 1
                top = w.open[w.n_open - 1]
                if w.lhead[top] < 0:
                    w.n_open -= 1
                    continue
                if goal >= 0 and w.g[top] + w.h[top] >= w.g[goal] + w.h[goal]:
                    w.n_open -= 1
                    continue
                if goal < 0 and w.at_goal[top]:
                    goal = top
                    first_time = now - t0
                    first_iterations = iterations
                    first_cost = w.g[goal]
                    if not refine:
                        stop = STOP_FIRST
                    elif refine_share < 1.0:
                        deadline = now + refine_share * (deadline - now)
                    continue
                low = _next_low(&w, top)
                if low < 0:
                    stop = STOP_NODES
                    break
                C = w.conf + <int64_t>top * N
                if not _step(&w, C, w.order + <int64_t>top * N, low):
                    continue
                # w.nxt holds the new configuration; C's node may move on growth below
                hv = _hash(w.nxt, w.N)
                found = _find(&w, w.nxt, hv)
                _clear_step(&w, w.conf + <int64_t>top * N)
                if found >= 0:
                    if not _rewire(&w, top, found, goal):
                        stop = STOP_NODES
                        break
                    ins = found
                    if _rand01(&w) < RESTART_RATE:
                        ins = start_node
                    if goal < 0 or w.g[ins] + w.h[ins] < w.g[goal] + w.h[goal]:
                        if not _push_open(&w, ins):
                            stop = STOP_NODES
                            break
                else:
                    found = _new_node(&w, w.nxt, hv, top)
                    if found < 0:
                        stop = STOP_NODES
                        break
                    if goal < 0 or w.g[found] + w.h[found] < w.g[goal] + w.h[goal]:
                        if not _push_open(&w, found):
                            stop = STOP_NODES
                            break
            if goal >= 0:
                found = goal
                while found >= 0:
                    steps += 1
                    found = w.parent[found]
    elapsed = pathcraft_now() - t0
    stats = {
        "iterations": int(iterations),
        "configurations": int(w.n_nodes),
        "constraints": int(w.n_low),
        "time_to_first_s": float(first_time) if goal >= 0 else None,
        "iterations_to_first": int(first_iterations) if goal >= 0 else None,
        "first_sum_of_loss": int(first_cost) if goal >= 0 else None,
        "sum_of_loss": int(w.g[goal]) if goal >= 0 else None,
        "search_s": float(elapsed),
    }
    out = np.empty((steps, w.N), dtype=np.int32)
    cdef int32_t[:, ::1] o = out
    cdef int64_t t
    if goal >= 0:
        found = goal
        t = steps - 1
        while found >= 0:
            memcpy(&o[t, 0], w.conf + <int64_t>found * N, <size_t>N * 4)
            t -= 1
            found = w.parent[found]
    _free_work(&w)
    return goal >= 0, stop, out, stats


def pibt(
    const int32_t[::1] indptr not None,
    const int32_t[::1] indices not None,
    const int32_t[::1] starts not None,
    const int32_t[::1] goals not None,
    const int32_t[:, ::1] dist not None,
    double t0,
    double time_limit,
    long long max_steps,
    bint following=False,
    bint swap=True,
    unsigned long long seed=0,
):
    """Run PIBT step by step from the starts until every agent stands at its goal.

    Parameters are those of :func:`lacam`, with ``max_steps`` (the most time steps)
    in place of the node limit and refinement.

    Returns
    -------
    tuple
        ``(found, stop, configs, stats)`` as :func:`lacam`; when not found, ``configs``
        holds the steps made so far.
    """
    _check(indptr, indices, starts, goals, dist)
    cdef Work w
    _init_work(&w, indptr, indices, goals, dist, following, swap, seed)
    cdef int stop = STOP_STEPS
    cdef bint done = False, failed = False
    cdef int64_t steps = 1, cap = 0, N = w.N, t
    cdef int32_t i
    cdef int32_t* confs = NULL
    cdef float* pr = NULL
    cdef int32_t* order = NULL
    cdef double deadline = t0 + time_limit
    cdef float p
    with nogil:
        pr = <float*>malloc(<size_t>N * sizeof(float))
        order = <int32_t*>malloc(<size_t>N * 4)
        if (not _alloc_step(&w) or pr == NULL or order == NULL
                or not _grow(<void**>&confs, &cap, N * 64, 4)):
            failed = True
        else:
            memcpy(confs, &starts[0], <size_t>N * 4)
            for i in range(w.N):
                pr[i] = <float>_d(&w, i, starts[i]) / <float>w.N
            done = memcmp(confs, &goals[0], <size_t>N * 4) == 0
            while not done:
                if steps > max_steps:
                    stop = STOP_STEPS
                    break
                if pathcraft_now() >= deadline:
                    stop = STOP_TIME
                    break
                _sort_order(&w, pr, order)
                if not _grow(<void**>&confs, &cap, (steps + 1) * N, 4):
                    failed = True
                    break
                # without constraints PIBT does not fail for an agent first in its turn
                if not _step(&w, confs + (steps - 1) * N, order, -1):
                    break
                memcpy(confs + steps * N, w.nxt, <size_t>N * 4)
                _clear_step(&w, confs + (steps - 1) * N)
                steps += 1
                done = True
                for i in range(w.N):
                    p = pr[i]
                    if confs[steps * N - N + i] != w.goals[i]:
                        pr[i] = p + 1.0
                        done = False
                    else:
                        pr[i] = p - <float>(<int64_t>p)
    if failed:
        stop = STOP_NODES
    elif done:
        stop = STOP_EXHAUSTED
    elapsed = pathcraft_now() - t0
    out = np.empty((steps, w.N), dtype=np.int32)
    cdef int32_t[:, ::1] o = out
    if confs != NULL:
        for t in range(steps):
            memcpy(&o[t, 0], confs + t * N, <size_t>N * 4)
    free(confs)
    free(pr)
    free(order)
    _free_work(&w)
    stats = {
        "iterations": int(steps - 1),
        "time_to_first_s": float(elapsed) if done else None,
        "iterations_to_first": int(steps - 1) if done else None,
        "search_s": float(elapsed),
    }
    return bool(done), stop, out, stats

