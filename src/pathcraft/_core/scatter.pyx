# cython: language_level=3
"""Space utilisation optimisation: spread the agents' intended paths apart before
LaCAM runs, so that PIBT does not send everybody down the same shortest ways.

This is the "SUO" of LaCAM3 (Okumura, "Engineering LaCAM*: towards real-time,
large-scale, and near-optimal multi-agent pathfinding", AAMAS 2024): every agent in
turn (a random order, round after round) takes the path to its goal that meets the
fewest other agents' current paths at the same time steps, among the paths at most
``margin`` steps longer than its distance, the shorter one on ties; rounds go on while
the number of meetings falls (two rounds at least) or until the deadline. PIBT then
tries, for an agent at node v, the node that follows v on its spread path first.

A meeting is another agent on the same node at the same step, one coming the other
way along the same edge in the same step (told by the sum of the ids of the agents
on each node: exact while one agent is there), or one on its goal after it arrived
there for good. Each agent's
search is an A* over nodes (a node is closed once: the paths are simple) ordered by
meetings, then by length. GIL released.
"""

from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

from pathcraft._core.heap cimport Heap, HeapEntry, heap_clear, heap_free, heap_init, heap_pop, heap_push
from pathcraft._core.mapf_tools cimport FAR, distance, randint, seeded


cdef extern from "clock.h":
    double pathcraft_now() nogil


cdef struct Spread:
    int32_t V
    int32_t N
    int32_t T               # the longest path allowed: times 0..T
    const int32_t* indptr
    const int32_t* indices
    const int32_t* dist
    int32_t* count          # (T + 1) x V: agents on node v at time t
    int64_t* ids            # (T + 1) x V: the sum of their ids plus one
    int32_t* rest           # V: from when the agent whose goal it is stays there
    int32_t* parent         # V: closed (and the node before) when closed == stamp
    int32_t* closed         # V: stamp of the search that closed the node
    int32_t* paths          # N x (T + 1)
    int32_t* length         # N: nodes on the path (0: none yet)
    Heap heap               # entries: meetings, then f = g + h; item: node and parent


cdef void _enrol(Spread* s, int32_t a, int32_t sign) noexcept nogil:
    """Count agent a's path in the table (sign 1) or take it out (sign -1)."""
    cdef int32_t t, n = s.length[a]
    cdef int32_t* p = s.paths + <int64_t>a * (s.T + 1)
    if n == 0:
        return
    for t in range(n):
        s.count[<int64_t>t * s.V + p[t]] += sign
        s.ids[<int64_t>t * s.V + p[t]] += sign * (<int64_t>a + 1)
    s.rest[p[n - 1]] = n - 1 if sign > 0 else FAR


cdef inline Py_ssize_t _item(int32_t v, int32_t parent) noexcept nogil:
    """A heap entry's item: node v, reached from parent (-1: none)."""
    return (<Py_ssize_t>(parent + 1) << 32) | v


cdef inline int32_t _meets(Spread* s, int32_t v, int32_t u, int32_t t) noexcept nogil:
    """Other agents met on a move from node v to node u arriving at time t."""
    cdef int64_t here, there
    cdef int32_t c = 0
    if t <= s.T:
        here = <int64_t>t * s.V
        there = here - s.V
        c = s.count[here + u]
        if (s.count[here + v] == 1 and s.count[there + u] == 1
                and s.ids[here + v] == s.ids[there + u]):
            c += 1  # the agent on u comes to v: a swap
    return c + (1 if s.rest[u] < t else 0)


cdef bint _search(Spread* s, int32_t a, int32_t start, int32_t goal, int32_t bound,
                  int32_t stamp) noexcept nogil:
    """Agent a's path of fewest meetings and at most bound steps into s.paths."""
    cdef const int32_t* d = s.dist + <int64_t>a * s.V
    cdef HeapEntry e
    cdef int32_t v, u, g, c, k, n
    cdef int32_t* p
    heap_clear(&s.heap)
    if heap_push(&s.heap, 0.0, <double>d[start], _item(start, -1)) != 0:
        return False
    while heap_pop(&s.heap, &e) == 0:
        v = <int32_t>(e.item & <Py_ssize_t>0xFFFFFFFF)
        if s.closed[v] == stamp:
            continue
        s.closed[v] = stamp
        s.parent[v] = <int32_t>(e.item >> 32) - 1
        g = <int32_t>e.tie - d[v]
        c = <int32_t>e.key
        if v == goal:
            n = g + 1
            p = s.paths + <int64_t>a * (s.T + 1)
            while v >= 0:
                n -= 1
                p[n] = v
                v = s.parent[v]
            s.length[a] = g + 1
            return True
        for k in range(s.indptr[v], s.indptr[v + 1]):
            u = s.indices[k]
            if u == start or s.closed[u] == stamp or d[u] < 0 or g + 1 + d[u] > bound:
                continue
            if heap_push(&s.heap, <double>(c + _meets(s, v, u, g + 1)), <double>(g + 1 + d[u]),
                         _item(u, v)) != 0:
                return False
    return False


cdef int64_t _meetings(Spread* s) noexcept nogil:
    """Meetings of every agent along its path (each pair counted from both sides)."""
    cdef int64_t total = 0
    cdef int32_t a, t, v
    cdef int32_t* p
    for a in range(s.N):
        p = s.paths + <int64_t>a * (s.T + 1)
        for t in range(1, s.length[a]):
            v = p[t]
            total += _meets(s, p[t - 1], v, t) - 1
    return total


def scatter(
    const int32_t[::1] indptr not None,
    const int32_t[::1] indices not None,
    const int32_t[::1] starts not None,
    const int32_t[::1] goals not None,
    const int32_t[:, ::1] dist not None,
    double deadline,
    int margin=10,
    unsigned long long seed=0,
):
    """Spread paths for LaCAM's PIBT: ``(guide, stats)``.

    Parameters
    ----------
    indptr, indices : ndarray of int32
        The graph (CSR).
    starts, goals : ndarray of int32, shape (n_agents,)
    dist : ndarray of int32, shape (n_agents, n_nodes)
        Steps of every node to every goal (-1 unreachable).
    deadline : float
        A ``time.perf_counter()`` time: no new round, nor agent, after it.
    margin : int
        Steps a spread path may be longer than the agent's distance.
    seed : int

    Returns
    -------
    tuple
        ``guide``, int32 of shape (n_agents, n_nodes): the node after v on agent i's
        spread path at ``guide[i, v]`` (-1: v not on it); and a dict (``rounds``,
        ``meetings``: those of the last round, ``first_meetings``: those of the first).
    """
    cdef int32_t V = <int32_t>(indptr.shape[0] - 1), N = <int32_t>goals.shape[0]
    if starts.shape[0] != N or dist.shape[0] != N or dist.shape[1] != V or V < 1:
        raise ValueError("starts, goals and dist must hold one entry (row) per agent")
    if margin < 0:
        raise ValueError(f"margin must be >= 0; got {margin}")
    guide = np.full((N, V), -1, dtype=np.int32)
    stats = {"rounds": 0, "meetings": None, "first_meetings": None}
    if N == 0:
        return guide, stats
    cdef int32_t[:, ::1] gd = guide
    cdef Spread s
    cdef int32_t i, j, a, t, longest = 0, stamp = 0
    cdef int64_t k, cells, meetings = -1, last = -1, first = -1
    cdef int32_t rounds = 0
    cdef uint64_t rng = seeded(seed, <uint64_t>0x5851F42D4C957F2DULL)
    cdef bint failed = False
    for i in range(N):
        if dist[i, starts[i]] > longest:
            longest = dist[i, starts[i]]
    s.V = V
    s.N = N
    s.T = longest + margin
    s.indptr = &indptr[0]
    s.indices = &indices[0] if indices.shape[0] > 0 else NULL
    s.dist = &dist[0, 0]
    cells = (<int64_t>s.T + 1) * V
    s.count = <int32_t*>malloc(<size_t>cells * 4)
    s.ids = <int64_t*>malloc(<size_t>cells * 8)
    s.rest = <int32_t*>malloc(<size_t>V * 4)
    s.parent = <int32_t*>malloc(<size_t>V * 4)
    s.closed = <int32_t*>malloc(<size_t>V * 4)
    s.paths = <int32_t*>malloc(<size_t>N * (s.T + 1) * 4)
    s.length = <int32_t*>malloc(<size_t>N * 4)
    cdef int32_t* order = <int32_t*>malloc(<size_t>N * 4)
    if heap_init(&s.heap, 1024) != 0:
        failed = True
    if (s.count == NULL or s.ids == NULL or s.rest == NULL or s.parent == NULL or s.closed == NULL
            or s.paths == NULL or s.length == NULL or order == NULL):
        failed = True
    if not failed:
        with nogil:
            for k in range(cells):
                s.count[k] = 0
                s.ids[k] = 0
            for i in range(V):
                s.rest[i] = FAR
                s.closed[i] = 0
            for i in range(N):
                s.length[i] = 0
                order[i] = i
            while pathcraft_now() < deadline:
                for i in range(N - 1, 0, -1):
                    j = randint(&rng, i + 1)
                    a = order[i]
                    order[i] = order[j]
                    order[j] = a
                for i in range(N):
                    if pathcraft_now() >= deadline:
                        break
                    a = order[i]
                    _enrol(&s, a, -1)
                    stamp += 1
                    if not _search(&s, a, starts[a], goals[a],
                                   distance(s.dist, V, a, starts[a]) + margin, stamp):
                        if s.heap.size > 0:  # memory ran out mid-search
                            failed = True
                            break
                    _enrol(&s, a, 1)
                if failed:
                    break
                rounds += 1
                meetings = _meetings(&s)
                if first < 0:
                    first = meetings
                if meetings == 0 or (rounds >= 2 and meetings >= last):
                    break
                last = meetings
            if not failed:
                for a in range(N):
                    for t in range(s.length[a] - 1):
                        gd[a, s.paths[<int64_t>a * (s.T + 1) + t]] = \
                            s.paths[<int64_t>a * (s.T + 1) + t + 1]
    free(s.count); free(s.ids); free(s.rest); free(s.parent); free(s.closed); free(s.paths)
    free(s.length); free(order)
    heap_free(&s.heap)
    if failed:
        raise MemoryError()
    stats["rounds"] = int(rounds)
    stats["meetings"] = int(meetings) if rounds else None
    stats["first_meetings"] = int(first) if rounds else None
    return guide, stats
