# cython: language_level=3
"""Compiled refinement of a multi-agent solution by large neighbourhood search.

Given a conflict-free solution (one node a time step per agent), :func:`refine`
repeatedly takes a few agents out, plans them again one by one around all the others
(every other agent's path a reservation), and keeps the new paths when their sum of
costs is no higher: the "MAPF-LNS" scheme (Li, Chen, Harabor, Stuckey and Koenig,
"Anytime multi-agent path finding via large neighborhood search", IJCAI 2021), which
LaCAM3 (Okumura, AAMAS 2024) also runs to refine its solutions, over SIPP as both do.
Keeping paths of equal cost lets the search drift along plateaus of the sum of costs
(LaCAM3's refiner keeps them too).

Which agents: as MAPF-LNS's adaptive LNS, one of three heuristics and one of four sizes
(4, 8, 16, 32 agents), drawn with probabilities proportional to weights that follow
what each choice saved an agent replanned lately (a reaction factor of 0.01):
*agent-based*, a late agent (its cost above its distance) and the agents standing
on a shortest way of it; *map-based*, the agents whose paths pass a junction (a node
of degree above two) and the nodes nearest it; *random*.

Each agent is planned by safe-interval path planning (SIPP, Phillips and Likhachev,
ICRA 2011; a state is a node and one of its safe intervals, the maximal runs of times
nobody else holds it, reached at the earliest time, so waiting costs no expansion),
or, with following conflicts, by a space-time A* (a state per node and time step).
Both bound the cost by what the neighbourhood's old paths cost, so a try that cannot
do as well stops early.

The reservation table is dense over time and stored node by node: ``occ[v * (T + 1)
+ t]`` is the agent at v at time t before it rests at its goal (-1 none), and
``next_busy`` the first time from t on that one is there (kept as paths come and go,
so a safe interval's end is one read); an agent resting at its goal from time
``rest_time[v]`` on holds v for ever after. A replanned agent may end at its goal
only when nobody passes there later. The search space is bounded by a horizon of time
steps (twice the makespan and a margin, at most about 16 million states), so a
refinement never lengthens the makespan past it. GIL released.

Why one module of about 800 lines: one state (the table, the solution and the
searches' workspace over it) and the loop that changes it, with its two planners
and three neighbourhoods.
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

import numpy as np

from pathcraft._core.mapf_tools cimport FAR, distance, rand01, randint, seeded


cdef extern from "clock.h":
    double pathcraft_now() nogil


cdef enum:
    MAX_STATES = 1 << 24   # time steps x nodes of the reservation table, at most
    MAX_NODES = 1 << 21    # nodes a heap key can hold


cdef struct Lns:
    int32_t V
    int32_t N
    int32_t T                  # the horizon: times 0..T
    const int32_t* indptr
    const int32_t* indices
    const int32_t* goals
    const int32_t* dist
    bint following
    uint64_t rng
    int32_t* occ               # V x (T + 1): the agent at node v at time t (-1 none)
    int32_t* next_busy         # V x (T + 1): the first time from t on that occ holds v
    int32_t* rest_time         # V: from when an agent rests there, T + 1 none
    int32_t* rest_agent        # V
    int32_t* stamp             # (T + 1) x V: generated in search number stamp
    int32_t* back              # (T + 1) x V: the node before, in the search
    int32_t current
    uint64_t* heap
    int64_t heap_n
    int64_t heap_cap
    int64_t expanded
    int64_t pruned
    int64_t exhausted
    int32_t* paths             # N x (T + 1): node at every time (goal after arrival)
    int32_t* cost              # N: arrival time (steps until it never leaves)
    int32_t* old_paths         # m x (T + 1)
    int32_t* old_cost
    int32_t* members
    int32_t* mark              # N: in the neighbourhood being built when == marking
    int32_t marking
    int32_t* queue             # V: the breadth-first search of a map-based neighbourhood
    int32_t* reached           # V: reached in that search when == marking
    int32_t* crossings         # the nodes of degree > 2
    int32_t n_crossings
    int64_t cut_short          # searches ended at once: the goal is crossed past the horizon
    # SIPP's states: a node, the arrival time, the state before (-1 at the start) and
    # the last time of the node's safe interval holding the arrival
    int32_t* s_node
    int32_t* s_time
    int32_t* s_parent
    int32_t* s_end
    int32_t n_states
    int32_t cap_states


cdef inline double _rand01(Lns* w) noexcept nogil:
    return rand01(&w.rng)


cdef inline int32_t _randint(Lns* w, int32_t n) noexcept nogil:
    return randint(&w.rng, n)


cdef inline int32_t _d(Lns* w, int32_t agent, int32_t v) noexcept nogil:
    return distance(w.dist, w.V, agent, v)


cdef inline int32_t _at(Lns* w, int32_t v, int32_t t) noexcept nogil:
    """The agent at node v at time t before it rests at its goal (-1 none)."""
    return w.occ[<int64_t>v * (w.T + 1) + t]


cdef void _place(Lns* w, int32_t a, bint on) noexcept nogil:
    """Write agent a's path into the table (or clear it)."""
    cdef int32_t t, c = w.cost[a]
    cdef int32_t* p = w.paths + <int64_t>a * (w.T + 1)
    cdef int64_t base
    cdef int32_t u, nxt
    for t in range(c):
        w.occ[<int64_t>p[t] * (w.T + 1) + t] = a if on else -1
    # the next busy time of each node the path holds, at its times and the free ones
    # before them (back to the busy time before, or to where nothing changes)
    for t in range(c - 1, -1, -1):
        base = <int64_t>p[t] * (w.T + 1)
        u = t
        nxt = t if w.occ[base + t] >= 0 else (w.next_busy[base + t + 1] if t < w.T else w.T + 1)
        w.next_busy[base + u] = nxt
        while u > 0 and w.occ[base + u - 1] < 0 and w.next_busy[base + u - 1] != nxt:
            u -= 1
            w.next_busy[base + u] = nxt
    if on:
        w.rest_time[p[c]] = c
        w.rest_agent[p[c]] = a
    else:
        w.rest_time[p[c]] = w.T + 1
        w.rest_agent[p[c]] = -1


cdef inline int _heap_push(Lns* w, uint64_t key) noexcept nogil:
    cdef int64_t i, j, cap
    cdef uint64_t* h
    if w.heap_n == w.heap_cap:
        cap = w.heap_cap * 2 if w.heap_cap else 1024
        h = <uint64_t*>realloc(w.heap, <size_t>cap * sizeof(uint64_t))
        if h == NULL:
            return 0
        w.heap = h
        w.heap_cap = cap
    i = w.heap_n
    w.heap_n += 1
    while i > 0:
        j = (i - 1) >> 1
        if w.heap[j] <= key:
            break
        w.heap[i] = w.heap[j]
        i = j
    w.heap[i] = key
    return 1


cdef inline uint64_t _heap_pop(Lns* w) noexcept nogil:
    cdef uint64_t top = w.heap[0], last
    cdef int64_t i = 0, c
    w.heap_n -= 1
    if w.heap_n == 0:
        return top
    last = w.heap[w.heap_n]
    while True:
        c = 2 * i + 1
        if c >= w.heap_n:
            break
        if c + 1 < w.heap_n and w.heap[c + 1] < w.heap[c]:
            c += 1
        if w.heap[c] >= last:
            break
        w.heap[i] = w.heap[c]
        i = c
    w.heap[i] = last
    return top


cdef inline uint64_t _key(int32_t f, int32_t t, int32_t v) noexcept nogil:
    # least f first, then latest time (deepest), then node
    return ((<uint64_t>f) << 42) | ((<uint64_t>((1 << 21) - 1 - t)) << 21) | <uint64_t>v


cdef int32_t _last_crossing(Lns* w, int32_t a, int32_t g) noexcept nogil:
    """The last time another agent than a stands on node g (-1: never); at the horizon
    or later, a search is cut short. Agent a arrives at its goal g for good after it, so
    no state costs less than that plus one: a tighter bound than the distance alone,
    which spares a search every state with a lower f while the goal is still crossed."""
    cdef int32_t k, o
    for k in range(w.T, -1, -1):
        o = _at(w, g, k)
        if o >= 0 and o != a:
            if k >= w.T:
                w.cut_short += 1
            return k
    return -1


cdef int32_t _plan(Lns* w, int32_t a, int32_t bound) noexcept nogil:
    """Space-time A* for agent a around the table; its new path into w.paths, its cost
    returned (-1: none within the horizon, or none costing less than bound)."""
    cdef int32_t s0 = w.paths[<int64_t>a * (w.T + 1)], g = w.goals[a]
    cdef int32_t v, t, u, k, t1, f, j, h, last = -1, o
    cdef int64_t s1
    cdef uint64_t key
    cdef int32_t* p
    w.current += 1
    w.heap_n = 0
    if _at(w, s0, 0) >= 0 and _at(w, s0, 0) != a:
        return -1
    last = _last_crossing(w, a, g)
    if last >= w.T:
        return -1
    w.stamp[s0] = w.current
    h = _d(w, a, s0)
    if not _heap_push(w, _key(h if h > last + 1 else last + 1, 0, s0)):
        return -1
    while w.heap_n > 0:
        key = _heap_pop(w)
        v = <int32_t>(key & ((1 << 21) - 1))
        t = (1 << 21) - 1 - <int32_t>((key >> 21) & ((1 << 21) - 1))
        f = <int32_t>(key >> 42)
        w.expanded += 1
        if f >= bound:
            w.pruned += 1
            return -1
        if v == g and t > last:
            p = w.paths + <int64_t>a * (w.T + 1)
            for k in range(t, w.T + 1):
                p[k] = g
            u = v
            k = t
            while k > 0:
                u = w.back[<int64_t>k * w.V + u]
                k -= 1
                p[k] = u
            return t
        t1 = t + 1
        if t1 > w.T:
            continue
        for k in range(w.indptr[v], w.indptr[v + 1] + 1):
            u = w.indices[k] if k < w.indptr[v + 1] else v
            s1 = <int64_t>t1 * w.V + u
            if w.stamp[s1] == w.current:
                continue
            if _at(w, u, t1) >= 0 or w.rest_time[u] <= t1:
                continue
            if u != v:
                j = _at(w, u, t)
                if j >= 0 and (_at(w, v, t1) == j
                               or (w.rest_agent[v] == j and w.rest_time[v] == t1)):
                    continue  # j comes the other way: an edge conflict
                if w.following and (j >= 0 or w.rest_time[u] <= t
                                    or _at(w, v, t1) >= 0
                                    or w.rest_time[v] == t1):
                    continue
            h = _d(w, a, u)
            if h >= FAR:
                continue
            w.stamp[s1] = w.current
            w.back[s1] = v
            f = t1 + h if t1 + h > last + 1 else last + 1
            if not _heap_push(w, _key(f, t1, u)):
                return -1
    w.exhausted += 1
    return -1


cdef enum:
    STATE_BITS = 21
    MAX_STATES_SEARCH = 1 << 21  # SIPP states of one search (a heap key's field)


cdef inline bint _busy(Lns* w, int32_t v, int32_t t) noexcept nogil:
    """Whether another agent holds node v at time t."""
    return _at(w, v, t) >= 0 or w.rest_time[v] <= t


cdef inline int32_t _free_until(Lns* w, int32_t v, int32_t t) noexcept nogil:
    """The last time of the run of free times of node v from time t (free), capped at
    the horizon."""
    cdef int32_t last = w.rest_time[v] - 1
    if t < w.T and w.next_busy[<int64_t>v * (w.T + 1) + t + 1] <= last:
        last = w.next_busy[<int64_t>v * (w.T + 1) + t + 1] - 1
    return last if last < w.T else w.T


cdef int32_t _new_state(Lns* w, int32_t v, int32_t t, int32_t parent, int32_t end) noexcept nogil:
    """A SIPP state; its index, -1 when out of room."""
    cdef int32_t cap, k
    if w.n_states == w.cap_states:
        cap = w.cap_states * 2 if w.cap_states else 4096
        if cap > MAX_STATES_SEARCH:
            return -1
        if not (_grow32(&w.s_node, cap) and _grow32(&w.s_time, cap)
                and _grow32(&w.s_parent, cap) and _grow32(&w.s_end, cap)):
            return -1
        w.cap_states = cap
    k = w.n_states
    w.n_states += 1
    w.s_node[k] = v
    w.s_time[k] = t
    w.s_parent[k] = parent
    w.s_end[k] = end
    return k


cdef inline bint _grow32(int32_t** p, int32_t cap) noexcept nogil:
    cdef int32_t* q = <int32_t*>realloc(p[0], <size_t>cap * 4)
    if q == NULL:
        return False
    p[0] = q
    return True


cdef inline uint64_t _skey(int32_t f, int32_t t, int32_t k) noexcept nogil:
    # least f first, then latest arrival (deepest), then the state
    return ((<uint64_t>f) << 42) | ((<uint64_t>((1 << 21) - 1 - t)) << STATE_BITS) | <uint64_t>k


cdef int32_t _plan_sipp(Lns* w, int32_t a, int32_t bound) noexcept nogil:
    """Safe-interval path planning (Phillips and Likhachev, ICRA 2011) for agent a
    around the table, over the same rules, bound and horizon as :func:`_plan` (vertex
    and edge conflicts; not following ones): a state is a node and one of its safe
    intervals (maximal runs of times nobody else holds it), reached at the earliest
    time, so waiting costs no expansions. Its new path into w.paths, its cost
    returned (-1: none within the horizon, or none costing less than bound)."""
    cdef int32_t s0 = w.paths[<int64_t>a * (w.T + 1)], g = w.goals[a]
    cdef int32_t v, t, u, k, f, j, h, last = -1, o, sk, hi, tt, end, uend, e, prev
    cdef int64_t slot
    cdef uint64_t key
    cdef int32_t* p
    w.current += 1
    w.heap_n = 0
    w.n_states = 0
    if _busy(w, s0, 0):
        return -1
    last = _last_crossing(w, a, g)
    if last >= w.T:
        return -1
    end = _free_until(w, s0, 0)
    sk = _new_state(w, s0, 0, -1, end)
    if sk < 0:
        return -1
    slot = <int64_t>s0 * (w.T + 1) + end  # a safe interval is known by its last time
    w.stamp[slot] = w.current
    w.back[slot] = sk
    h = _d(w, a, s0)
    if not _heap_push(w, _skey(h if h > last + 1 else last + 1, 0, sk)):
        return -1
    while w.heap_n > 0:
        key = _heap_pop(w)
        sk = <int32_t>(key & (MAX_STATES_SEARCH - 1))
        t = (1 << 21) - 1 - <int32_t>((key >> STATE_BITS) & ((1 << 21) - 1))
        f = <int32_t>(key >> 42)
        if t != w.s_time[sk]:
            continue  # reached earlier since
        w.expanded += 1
        if f >= bound:
            w.pruned += 1
            return -1
        v = w.s_node[sk]
        end = w.s_end[sk]
        if v == g and end == w.T:
            # free from t to the horizon: a stays for good; write the path
            p = w.paths + <int64_t>a * (w.T + 1)
            for k in range(t, w.T + 1):
                p[k] = g
            k = sk
            while w.s_parent[k] >= 0:
                prev = w.s_parent[k]
                for j in range(w.s_time[prev], w.s_time[k]):
                    p[j] = w.s_node[prev]  # waiting, then the move at s_time[k]
                k = prev
            return t
        for e in range(w.indptr[v], w.indptr[v + 1]):
            u = w.indices[e]
            h = _d(w, a, u)
            if h >= FAR:
                continue
            hi = end + 1 if end < w.T else w.T  # the latest arrival: leaving at the end
            tt = t + 1
            if hi > bound - 1 - h:
                hi = bound - 1 - h  # arriving later costs too much
            while tt <= hi:
                if _busy(w, u, tt):
                    tt += 1
                    continue
                j = _at(w, u, tt - 1)
                if j >= 0 and (_at(w, v, tt) == j
                               or (w.rest_agent[v] == j and w.rest_time[v] == tt)):
                    tt += 1  # j comes the other way: an edge conflict
                    continue
                uend = _free_until(w, u, tt)
                slot = <int64_t>u * (w.T + 1) + uend
                if w.stamp[slot] != w.current or tt < w.s_time[w.back[slot]]:
                    f = tt + h if tt + h > last + 1 else last + 1
                    if w.stamp[slot] == w.current:
                        k = w.back[slot]
                        w.s_time[k] = tt
                        w.s_parent[k] = sk
                    else:
                        k = _new_state(w, u, tt, sk, uend)
                        if k < 0:
                            return -1
                        w.stamp[slot] = w.current
                        w.back[slot] = k
                    if not _heap_push(w, _skey(f, tt, k)):
                        return -1
                tt = uend + 2  # the next safe interval of u, past the busy time after
    w.exhausted += 1
    return -1



cdef enum:
    # the ways to choose the agents planned again (MAPF-LNS's destroy heuristics)
    AGENT_BASED = 0   # a late agent and the agents standing on its way
    MAP_BASED = 1     # the agents that pass where the paths cross (around a junction)
    RANDOM = 2        # agents drawn at random
    N_HEURISTICS = 3
    N_SIZES = 4       # neighbourhoods of 4, 8, 16 or 32 agents
    N_ARMS = 12       # a heuristic and a size: what the adaptive choice weighs


cdef inline int32_t _add(Lns* w, int32_t n, int32_t agent) noexcept nogil:
    """Agent into the neighbourhood of n members unless there already; the new count."""
    if agent < 0 or w.mark[agent] == w.marking:
        return n
    w.mark[agent] = w.marking
    w.members[n] = agent
    return n + 1


cdef inline int32_t _holder(Lns* w, int32_t v, int32_t t) noexcept nogil:
    """The agent at node v at time t (-1 none)."""
    cdef int32_t o = _at(w, v, t)
    if o < 0 and w.rest_time[v] <= t:
        o = w.rest_agent[v]
    return o


cdef int32_t _agent_based(Lns* w, int32_t m) noexcept nogil:
    """A late agent (its cost above its distance) drawn at random and the agents that
    stand, at that time or the next, on a shortest way of it walked from its start."""
    cdef int32_t n = 0, a = -1, i, k, v, t, u, best, ties, late = 0
    for i in range(w.N):
        if w.cost[i] > _d(w, i, w.paths[<int64_t>i * (w.T + 1)]):
            late += 1
    if late == 0:
        return 0
    k = _randint(w, late)
    for i in range(w.N):
        if w.cost[i] > _d(w, i, w.paths[<int64_t>i * (w.T + 1)]):
            if k == 0:
                a = i
                break
            k -= 1
    n = _add(w, n, a)
    v = w.paths[<int64_t>a * (w.T + 1)]
    t = 0
    while n < m and t < w.T:
        for k in range(2):
            if t + k <= w.T and n < m:
                n = _add(w, n, _holder(w, v, t + k))
        if v == w.goals[a]:
            break
        best = -1
        ties = 0
        for k in range(w.indptr[v], w.indptr[v + 1]):
            u = w.indices[k]
            if _d(w, a, u) < _d(w, a, v):
                ties += 1
                if _randint(w, ties) == 0:
                    best = u
        if best < 0:
            break
        v = best
        t += 1
    return n


cdef int32_t _map_based(Lns* w, int32_t m) noexcept nogil:
    """The agents whose paths pass through a junction drawn at random (a node of degree
    more than two), then through the nodes nearest it, breadth first."""
    cdef int32_t n = 0, head = 0, tail = 1, v, u, k, t, o
    if w.n_crossings == 0:
        return 0
    v = w.crossings[_randint(w, w.n_crossings)]
    w.queue[0] = v
    w.reached[v] = w.marking
    while head < tail and n < m:
        v = w.queue[head]
        head += 1
        for t in range(w.T + 1):
            o = _at(w, v, t)
            if o >= 0:
                n = _add(w, n, o)
                if n == m:
                    return n
        n = _add(w, n, w.rest_agent[v])
        for k in range(w.indptr[v], w.indptr[v + 1]):
            u = w.indices[k]
            if w.reached[u] != w.marking:
                w.reached[u] = w.marking
                w.queue[tail] = u
                tail += 1
    return n


cdef int32_t _neighbourhood(Lns* w, int32_t heuristic, int32_t m) noexcept nogil:
    """Agents to plan again into w.members by the given heuristic, filled up with agents
    drawn at random; how many."""
    cdef int32_t n = 0, tries = 0
    w.marking += 1
    if heuristic == AGENT_BASED:
        n = _agent_based(w, m)
    elif heuristic == MAP_BASED:
        n = _map_based(w, m)
    while n < m and tries < 4 * m:
        tries += 1
        n = _add(w, n, _randint(w, w.N))
    return n


cdef int32_t _choose(Lns* w, const double* weights) noexcept nogil:
    """An arm drawn with probability proportional to its weight (roulette wheel)."""
    cdef double total = 0.0, r
    cdef int32_t i
    for i in range(N_ARMS):
        total += weights[i]
    r = _rand01(w) * total
    for i in range(N_ARMS - 1):
        r -= weights[i]
        if r < 0.0:
            return i
    return N_ARMS - 1


def refine(
    const int32_t[::1] indptr not None,
    const int32_t[::1] indices not None,
    const int32_t[::1] goals not None,
    const int32_t[:, ::1] dist not None,
    const int32_t[:, ::1] configs not None,
    double deadline,
    long long lower_bound,
    bint following=False,
    unsigned long long seed=0,
    long long patience=1000,
    bint adaptive=True,
    bint sideways=True,
    bint sipp=True,
):
    """Improve a solution's sum of costs until ``deadline`` (a ``time.perf_counter()``
    time) or until it reaches ``lower_bound``.

    Parameters
    ----------
    indptr, indices : ndarray of int32
        The graph (CSR).
    goals : ndarray of int32, shape (n_agents,)
    dist : ndarray of int32, shape (n_agents, n_nodes)
        Steps of every node to every goal (-1 unreachable).
    configs : ndarray of int32, shape (steps, n_agents)
        A conflict-free solution, one row a time step, the last row the goals.
    deadline : float
    lower_bound : int
        The sum of the agents' distances: no solution costs less.
    following : bool
        Forbid following conflicts too.
    seed : int
    patience : int
        Stop after this many tries in a row that lower nothing.
    adaptive : bool
        Choose the neighbourhood's heuristic and size by adaptive weights (ALNS);
        False: every choice equally likely.
    sideways : bool
        Also keep new paths that cost as much as the old ones (a move along a
        plateau of the sum of costs).
    sipp : bool
        Plan with safe intervals (SIPP); False, or with following conflicts: the
        space-time A* (one state a node and time step).

    Returns
    -------
    tuple
        ``(configs, stats)``: the refined solution (time steps x agents) and a dict
        (``iterations``, ``accepted`` (tries that lowered the cost), ``sideways``,
        ``horizon``, ``stalled``: whether it stopped for lack of improvement,
        ``weights``: the final weight of each heuristic, summed over the sizes);
        the solution unchanged when the reservation table would not fit.
    """
    cdef Lns w
    cdef int32_t V = <int32_t>(indptr.shape[0] - 1), N = <int32_t>goals.shape[0]
    cdef int32_t steps = <int32_t>configs.shape[0]
    if configs.shape[1] != N or dist.shape[0] != N or dist.shape[1] != V or steps < 1:
        raise ValueError("configs must be steps x n_agents and dist n_agents x n_nodes")
    cdef int64_t horizon = 2 * <int64_t>steps + 50
    if horizon * V > MAX_STATES:
        horizon = MAX_STATES // V
    stats = {"iterations": 0, "accepted": 0, "sideways": 0, "horizon": int(horizon)}
    if horizon < steps or V >= MAX_NODES or N < 1:
        return np.array(configs), stats
    cdef int64_t states = (horizon + 1) * V, k
    cdef int32_t T = <int32_t>horizon, i, j, t, m, n, c, total_old, total_new, placed, rest_old
    cdef int32_t arm
    cdef int64_t iterations = 0, accepted = 0, soc = 0, last_accepted = 0, level = 0
    cdef bint failed = False, stalled = False
    # ALNS (Ropke and Pisinger 2006, as MAPF-LNS runs it): each arm's weight moves a
    # share REACTION of the way to what its last try saved an agent replanned
    cdef double weights[N_ARMS]
    cdef double REACTION = 0.01, FLOOR = 1e-3
    for i in range(N_ARMS):
        weights[i] = 1.0
    w.V = V
    w.N = N
    w.T = T
    w.indptr = &indptr[0]
    w.indices = &indices[0] if indices.shape[0] > 0 else NULL
    w.goals = &goals[0]
    w.dist = &dist[0, 0]
    w.following = following
    w.rng = seeded(seed, <uint64_t>0xD1B54A32D192ED03ULL)
    w.current = 0
    w.expanded = 0
    w.pruned = 0
    w.exhausted = 0
    w.cut_short = 0
    w.marking = 0
    w.n_crossings = 0
    w.s_node = NULL
    w.s_time = NULL
    w.s_parent = NULL
    w.s_end = NULL
    w.n_states = 0
    w.cap_states = 0
    cdef bint by_intervals = sipp and not following
    w.heap = NULL
    w.heap_n = 0
    w.heap_cap = 0
    w.occ = <int32_t*>malloc(<size_t>states * 4)
    w.next_busy = <int32_t*>malloc(<size_t>states * 4)
    w.stamp = <int32_t*>malloc(<size_t>states * 4)
    w.back = <int32_t*>malloc(<size_t>states * 4)
    w.rest_time = <int32_t*>malloc(<size_t>V * 4)
    w.rest_agent = <int32_t*>malloc(<size_t>V * 4)
    w.paths = <int32_t*>malloc(<size_t>(N * (horizon + 1)) * 4)
    w.cost = <int32_t*>malloc(<size_t>N * 4)
    w.old_paths = <int32_t*>malloc(<size_t>(64 * (horizon + 1)) * 4)
    w.old_cost = <int32_t*>malloc(64 * 4)
    w.members = <int32_t*>malloc(64 * 4)
    w.mark = <int32_t*>malloc(<size_t>N * 4)
    w.queue = <int32_t*>malloc(<size_t>V * 4)
    w.reached = <int32_t*>malloc(<size_t>V * 4)
    w.crossings = <int32_t*>malloc(<size_t>V * 4)
    cdef int32_t sizes[N_SIZES]
    sizes[0] = 4
    sizes[1] = 8
    sizes[2] = 16
    sizes[3] = 32
    if (w.occ == NULL or w.next_busy == NULL or w.stamp == NULL or w.back == NULL or w.rest_time == NULL
            or w.rest_agent == NULL or w.paths == NULL or w.cost == NULL
            or w.old_paths == NULL or w.old_cost == NULL or w.members == NULL
            or w.mark == NULL or w.queue == NULL or w.reached == NULL
            or w.crossings == NULL):
        failed = True
    cdef int32_t* p
    if not failed:
        with nogil:
            for k in range(states):
                w.occ[k] = -1
                w.next_busy[k] = T + 1
                w.stamp[k] = 0
            for i in range(V):
                w.rest_time[i] = T + 1
                w.rest_agent[i] = -1
                w.reached[i] = 0
                if w.indptr[i + 1] - w.indptr[i] > 2:
                    w.crossings[w.n_crossings] = i
                    w.n_crossings += 1
            for i in range(N):
                w.mark[i] = 0
                p = w.paths + <int64_t>i * (T + 1)
                for t in range(T + 1):
                    p[t] = configs[t if t < steps else steps - 1, i]
                c = steps - 1
                while c > 0 and p[c - 1] == goals[i]:
                    c -= 1
                w.cost[i] = c
                soc += c
                _place(&w, i, True)
            while soc > lower_bound and pathcraft_now() < deadline:
                if iterations - last_accepted >= patience:
                    stalled = True
                    break
                iterations += 1
                arm = _choose(&w, weights) if adaptive else _randint(&w, N_ARMS)
                m = sizes[arm % N_SIZES]
                if m > N:
                    m = N
                n = _neighbourhood(&w, arm // N_SIZES, m)
                for j in range(n - 1, 0, -1):  # planned again in a random order
                    k = _randint(&w, j + 1)
                    i = w.members[j]
                    w.members[j] = w.members[k]
                    w.members[k] = i
                total_old = 0
                for j in range(n):
                    i = w.members[j]
                    memcpy(w.old_paths + <int64_t>j * (T + 1), w.paths + <int64_t>i * (T + 1),
                           <size_t>(T + 1) * 4)
                    w.old_cost[j] = w.cost[i]
                    total_old += w.cost[i]
                    _place(&w, i, False)
                total_new = 0
                placed = 0
                # each agent may cost at most its old cost plus what the agents
                # before it saved (plus one for the last one when sideways moves are
                # kept): a search that cannot do as well stops early
                rest_old = total_old
                for j in range(n):
                    i = w.members[j]
                    rest_old -= w.old_cost[j]
                    c = total_old - total_new - rest_old + (1 if j < n - 1 or sideways else 0)
                    c = _plan_sipp(&w, i, c) if by_intervals else _plan(&w, i, c)
                    if c < 0:
                        break
                    w.cost[i] = c
                    total_new += c
                    _place(&w, i, True)
                    placed += 1
                if adaptive:
                    weights[arm] = (1.0 - REACTION) * weights[arm] + REACTION * (
                        <double>(total_old - total_new) / n
                        if placed == n and total_new < total_old else 0.0)
                    if weights[arm] < FLOOR:
                        weights[arm] = FLOOR
                if placed == n and total_new <= total_old:
                    if total_new < total_old:
                        accepted += 1
                        last_accepted = iterations
                        soc += total_new - total_old
                    else:
                        level += 1
                    continue
                # undo: take the new paths out, put the old ones back
                for j in range(placed):
                    _place(&w, w.members[j], False)
                for j in range(n):
                    i = w.members[j]
                    memcpy(w.paths + <int64_t>i * (T + 1), w.old_paths + <int64_t>j * (T + 1),
                           <size_t>(T + 1) * 4)
                    w.cost[i] = w.old_cost[j]
                    _place(&w, i, True)
    stats["iterations"] = int(iterations)
    stats["accepted"] = int(accepted)
    stats["sideways"] = int(level)
    stats["stalled"] = bool(stalled)
    stats["expanded"] = int(w.expanded)
    stats["pruned"] = int(w.pruned)
    stats["exhausted"] = int(w.exhausted)
    stats["cut_short"] = int(w.cut_short)
    stats["weights"] = [sum(weights[h * N_SIZES + j] for j in range(N_SIZES))
                        for h in range(N_HEURISTICS)]
    stats["size_weights"] = [sum(weights[h * N_SIZES + j] for h in range(N_HEURISTICS))
                             for j in range(N_SIZES)]
    if failed:
        out = np.array(configs)
    else:
        c = 0
        for i in range(N):
            if w.cost[i] > c:
                c = w.cost[i]
        out = np.empty((c + 1, N), dtype=np.int32)
        _copy_out(&w, out, c)
    free(w.occ); free(w.next_busy); free(w.stamp); free(w.back); free(w.rest_time); free(w.rest_agent)
    free(w.paths); free(w.cost); free(w.old_paths); free(w.old_cost); free(w.members)
    free(w.mark); free(w.queue); free(w.reached); free(w.crossings)
    free(w.s_node); free(w.s_time); free(w.s_parent); free(w.s_end)
    free(w.heap)
    return out, stats


cdef void _copy_out(Lns* w, int32_t[:, ::1] out, int32_t last) noexcept:
    cdef int32_t i, t
    for i in range(w.N):
        for t in range(last + 1):
            out[t, i] = w.paths[<int64_t>i * (w.T + 1) + t]
