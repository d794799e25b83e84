# cython: language_level=3
"""Space-time search for many agents: a reservation table and safe-interval path
planning (SIPP, Phillips and Likhachev, ICRA 2011) over CSR moves with unit steps.

Time runs in whole steps; every move and every wait takes one. The reservation table
says, per node, at which times another agent is there (a sorted array of times), from
which time on it stays there forever (an agent resting at its goal), and which moves
ended there at which time (so that a search never swaps places with a reserved agent).
With ``following`` every reserved time ``t`` also blocks ``t - 1`` and ``t + 1``: two
agents at one node in consecutive steps is exactly a following conflict (or a vertex
conflict).

The *safe intervals* of a node are the maximal runs of free times between its reserved
ones; interval ``k`` lies after the ``k``-th reserved time. SIPP searches states
``(node, interval)`` with the earliest arrival time as ``g`` and a true-distance table
``h`` (steps to the goal, -1 where the goal cannot be reached), so a state is expanded
once: arriving earlier in an interval is never worse, the agent can wait there. A move
``u -> v`` leaving in ``u``'s interval reaches every interval of ``v`` that overlaps
the times the agent can arrive (from ``g + 1`` to the end of ``u``'s interval plus
one), at the earliest time not blocked by a swap. The goal counts only in its last
interval, unbounded: the agent then stays there for good. With a ``window`` (windowed
cooperative A*), a state reached at ``t0 + window`` or later ends the search too (so
does waiting in a state's interval up to ``t0 + window``, pushed as a state of its
own); its ``f = g + h`` is the whole estimate, so the best such state is the first one
popped: the search minimises the steps to the goal when it gets there within the
window, else ``window`` plus the true distance left from where it is at the window's
end.

Reservations and the search's workspace (its state pool, per-node lists stamped by a
generation number so nothing is cleared between searches, and the heap) live in one
:class:`Reservations` object: one search at a time per object. :func:`sipp` releases
the GIL while it searches. :func:`distance_table` computes the ``h`` tables: a
breadth-first search per source over the (reverse) CSR arrays.

Why one module of about 500 lines: one state (the table and the search's workspace
over it) and the two kernels that read it.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memmove

import numpy as np

from pathcraft._core.bounds cimport index_error
from pathcraft._core.heap cimport Heap, HeapEntry, heap_clear, heap_free, heap_init, heap_pop, heap_push
from pathcraft._core.machine cimport now

cdef enum:
    # The end of an interval that never ends (no reservation after it).
    NEVER = 2147483647
    # The outcome of one search (returned by sipp()).
    FOUND = 0
    NO_PATH = 1
    EXPANSION_LIMIT = 2
    TIME_LIMIT = 3

SIPP_FOUND = FOUND
SIPP_NO_PATH = NO_PATH
SIPP_EXPANSION_LIMIT = EXPANSION_LIMIT
SIPP_TIME_LIMIT = TIME_LIMIT


cdef int check_nodes(str name, const int32_t[::1] values, Py_ssize_t n) except -1:
    """IndexError unless every entry of ``values`` is a node id in ``[0, n)``."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        if not 0 <= values[i] < n:
            index_error(name, values[i], n, "node")
    return 0


cdef Py_ssize_t check_walk(
    const int32_t[::1] path, long long start_time, long long until, Py_ssize_t n_nodes
) except -1:
    """The length of a walk to reserve or release, its nodes and times checked."""
    cdef Py_ssize_t n = path.shape[0]
    check_nodes("path", path, n_nodes)
    if start_time < 0 or start_time + n + 2 >= NEVER or until >= NEVER - 2:
        raise ValueError(f"times must be from 0 to {NEVER - 3}")
    return n


cdef struct Times:
    # A sorted array of distinct values (int64: arrivals pack a time and a node).
    int64_t* v
    int32_t n
    int32_t cap


cdef struct State:
    int32_t node
    int32_t k        # the safe interval's index at that node
    int32_t g        # the earliest arrival time found
    int32_t parent   # the state it came from, -1 at the start
    int32_t next     # the next state of the same node, -1 at the end
    int32_t closed


cdef inline int32_t lower(const Times* s, int64_t value) noexcept nogil:
    """The number of entries of ``s`` smaller than ``value``."""
    cdef int32_t lo = 0, hi = s.n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if s.v[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline int insert(Times* s, int64_t value) noexcept nogil:
    """Insert ``value`` unless present. 0, or -1 when memory ran out."""
    cdef int32_t i = lower(s, value)
    cdef int32_t cap
    cdef int64_t* grown
    if i < s.n and s.v[i] == value:
        return 0
    if s.n == s.cap:
        cap = 4 if s.cap == 0 else 2 * s.cap
        grown = <int64_t*> realloc(s.v, cap * sizeof(int64_t))
        if grown == NULL:
            return -1
        s.v = grown
        s.cap = cap
    memmove(&s.v[i + 1], &s.v[i], (s.n - i) * sizeof(int64_t))
    s.v[i] = value
    s.n += 1
    return 0


cdef inline void remove(Times* s, int64_t value) noexcept nogil:
    """Remove ``value`` if present."""
    cdef int32_t i = lower(s, value)
    if i < s.n and s.v[i] == value:
        memmove(&s.v[i], &s.v[i + 1], (s.n - i - 1) * sizeof(int64_t))
        s.n -= 1


cdef inline bint contains(const Times* s, int64_t value) noexcept nogil:
    cdef int32_t i = lower(s, value)
    return i < s.n and s.v[i] == value


cdef class Reservations:
    """A reservation table over ``n_nodes`` nodes and the workspace of :func:`sipp`.

    Parameters
    ----------
    n_nodes : int
    following : bool
        Also keep agents one step apart in time at every node (no following).
    """

    cdef readonly Py_ssize_t n_nodes
    cdef readonly bint following
    cdef Times* busy          # reserved times per node
    cdef Times* arrivals      # (time << 32 | from) of reserved moves into each node
    cdef int32_t* forever     # reserved from this time on, NEVER when not
    cdef int32_t* touched     # the nodes with any reservation (for clear())
    cdef char* is_touched
    cdef Py_ssize_t n_touched
    # the search's workspace
    cdef int32_t* head
    cdef uint32_t* stamp
    cdef uint32_t generation
    cdef State* states
    cdef Py_ssize_t n_states
    cdef Py_ssize_t cap_states
    cdef Heap heap
    cdef readonly long long expanded

    def __cinit__(self, Py_ssize_t n_nodes, bint following=False):
        cdef Py_ssize_t i
        if n_nodes < 0 or n_nodes >= NEVER:
            raise ValueError(f"n_nodes must be from 0 to {NEVER - 1}; got {n_nodes}")
        self.n_nodes = n_nodes
        self.following = following
        cdef Py_ssize_t m = n_nodes if n_nodes > 0 else 1
        self.busy = <Times*> malloc(m * sizeof(Times))
        self.arrivals = <Times*> malloc(m * sizeof(Times))
        self.forever = <int32_t*> malloc(m * sizeof(int32_t))
        self.touched = <int32_t*> malloc(m * sizeof(int32_t))
        self.is_touched = <char*> malloc(m * sizeof(char))
        self.head = <int32_t*> malloc(m * sizeof(int32_t))
        self.stamp = <uint32_t*> malloc(m * sizeof(uint32_t))
        self.cap_states = 64
        self.states = <State*> malloc(self.cap_states * sizeof(State))
        if (
            self.busy == NULL or self.arrivals == NULL or self.forever == NULL
            or self.touched == NULL or self.is_touched == NULL or self.head == NULL
            or self.stamp == NULL or self.states == NULL
            or heap_init(&self.heap, 64) != 0
        ):
            raise MemoryError()
        for i in range(n_nodes):
            self.busy[i].v = NULL
            self.busy[i].n = self.busy[i].cap = 0
            self.arrivals[i].v = NULL
            self.arrivals[i].n = self.arrivals[i].cap = 0
            self.forever[i] = NEVER
            self.is_touched[i] = 0
            self.stamp[i] = 0
        self.n_touched = 0
        self.generation = 0
        self.n_states = 0
        self.expanded = 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.busy != NULL:
            for i in range(self.n_nodes):
                free(self.busy[i].v)
        if self.arrivals != NULL:
            for i in range(self.n_nodes):
                free(self.arrivals[i].v)
        free(self.busy)
        free(self.arrivals)
        free(self.forever)
        free(self.touched)
        free(self.is_touched)
        free(self.head)
        free(self.stamp)
        free(self.states)
        heap_free(&self.heap)

    cdef inline void touch(self, int32_t v) noexcept nogil:
        if not self.is_touched[v]:
            self.is_touched[v] = 1
            self.touched[self.n_touched] = v
            self.n_touched += 1

    cdef int block(self, int32_t v, int64_t t) noexcept nogil:
        """Reserve node ``v`` at time ``t`` (and its neighbours in time with following)."""
        cdef int64_t first = t - 1 if self.following and t > 0 else t
        cdef int64_t last = t + 1 if self.following else t
        self.touch(v)
        while first <= last:
            if first < NEVER - 1 and insert(&self.busy[v], first) != 0:
                return -1
            first += 1
        return 0

    def clear(self):
        """Drop every reservation (in the time of the nodes that had any)."""
        cdef Py_ssize_t i
        cdef int32_t v
        for i in range(self.n_touched):
            v = self.touched[i]
            self.busy[v].n = 0
            self.arrivals[v].n = 0
            self.forever[v] = NEVER
            self.is_touched[v] = 0
        self.n_touched = 0

    def reserve_path(
        self, const int32_t[::1] path, long long start_time=0, long long until=-1,
        bint forever=False,
    ):
        """Reserve an agent's walk: node ``path[i]`` at time ``start_time + i``, each move
        into its node, then its last node up to time ``until`` (when later) and, with
        ``forever``, from its arrival there on for good."""
        cdef Py_ssize_t i, n = path.shape[0]
        cdef int64_t t, last_time
        cdef int32_t v, prev
        if check_walk(path, start_time, until, self.n_nodes) == 0:
            return
        for i in range(n):
            v = path[i]
            t = start_time + i
            if self.block(v, t) != 0:
                raise MemoryError()
            if i > 0:
                prev = path[i - 1]
                if prev != v and insert(&self.arrivals[v], (t << 32) | prev) != 0:
                    raise MemoryError()
        v = path[n - 1]
        last_time = start_time + n - 1
        t = last_time + 1
        while t <= until:
            if self.block(v, t) != 0:
                raise MemoryError()
            t += 1
        if forever:
            # the time of its arrival: the first of its trailing waits
            i = n - 1
            while i > 0 and path[i - 1] == v:
                i -= 1
            t = start_time + i
            if self.following and t > 0:
                t -= 1
            if t < self.forever[v]:
                self.forever[v] = <int32_t> t

    def release_path(
        self, const int32_t[::1] path, long long start_time=0, bint forever=False
    ):
        """Drop what ``reserve_path(path, start_time, forever=forever)`` reserved
        (``until`` not given): right when no other reservation shares a node and a
        time with it (reservations that never conflict); not with ``following``
        (its times spill over one step either side: ValueError)."""
        cdef Py_ssize_t i, n = path.shape[0]
        cdef int64_t t
        cdef int32_t v
        if self.following:
            raise ValueError("release_path is not possible with following")
        if check_walk(path, start_time, -1, self.n_nodes) == 0:
            return
        for i in range(n):
            v = path[i]
            t = start_time + i
            remove(&self.busy[v], t)
            if i > 0 and path[i - 1] != v:
                remove(&self.arrivals[v], (t << 32) | path[i - 1])
        if forever:
            v = path[n - 1]
            i = n - 1
            while i > 0 and path[i - 1] == v:
                i -= 1
            if self.forever[v] == start_time + i:
                self.forever[v] = NEVER

    def free_from(self, Py_ssize_t node, long long time):
        """Whether ``node`` is free at ``time`` and at every time after it."""
        if not 0 <= node < self.n_nodes:
            index_error("node", node, self.n_nodes, "node")
        if self.forever[node] != NEVER:
            return False
        return self.busy[node].n == 0 or self.busy[node].v[self.busy[node].n - 1] < time

    def blocked(self, Py_ssize_t node, long long time):
        """Whether ``node`` is reserved at ``time``."""
        if not 0 <= node < self.n_nodes:
            index_error("node", node, self.n_nodes, "node")
        return time >= self.forever[node] or contains(&self.busy[node], time)

    def swap_blocked(self, Py_ssize_t a, Py_ssize_t b, long long time):
        """Whether a move ``a -> b`` ending at ``time`` swaps with a reserved agent
        (one that moved ``b -> a`` ending then)."""
        if not 0 <= a < self.n_nodes:
            index_error("a", a, self.n_nodes, "node")
        if not 0 <= b < self.n_nodes:
            index_error("b", b, self.n_nodes, "node")
        return contains(&self.arrivals[a], (time << 32) | b)

    # ------------------------------------------------------------------ search

    cdef inline int64_t interval_start(self, int32_t v, int32_t k) noexcept nogil:
        return 0 if k == 0 else self.busy[v].v[k - 1] + 1

    cdef inline int64_t interval_end(self, int32_t v, int32_t k) noexcept nogil:
        """The last free time of interval ``k`` of ``v`` (NEVER: no end)."""
        cdef int64_t end = self.busy[v].v[k] - 1 if k < self.busy[v].n else NEVER
        cdef int64_t f = self.forever[v]
        if f != NEVER and end > f - 1:
            end = f - 1
        return end

    cdef int32_t new_state(
        self, int32_t v, int32_t k, int32_t g, int32_t parent, bint link=True
    ) noexcept nogil:
        cdef Py_ssize_t cap
        cdef State* grown
        cdef int32_t s
        if self.n_states == self.cap_states:
            cap = 2 * self.cap_states
            grown = <State*> realloc(self.states, cap * sizeof(State))
            if grown == NULL:
                return -1
            self.states = grown
            self.cap_states = cap
        s = <int32_t> self.n_states
        self.n_states += 1
        self.states[s].node = v
        self.states[s].k = k
        self.states[s].g = g
        self.states[s].parent = parent
        self.states[s].closed = 0
        self.states[s].next = -1
        if not link:
            return s
        if self.stamp[v] != self.generation:
            self.stamp[v] = self.generation
            self.head[v] = -1
        self.states[s].next = self.head[v]
        self.head[v] = s
        return s

    cdef int32_t find_state(self, int32_t v, int32_t k) noexcept nogil:
        cdef int32_t s
        if self.stamp[v] != self.generation:
            return -1
        s = self.head[v]
        while s >= 0 and self.states[s].k != k:
            s = self.states[s].next
        return s

    cdef int relax(
        self, int32_t v, int32_t k, int64_t t, int32_t parent, const int32_t[::1] h
    ) noexcept nogil:
        """Offer arrival time ``t`` to state ``(v, k)``. 0, or -1 when memory ran out."""
        cdef int32_t s = self.find_state(v, k)
        if s >= 0:
            if self.states[s].closed or self.states[s].g <= t:
                return 0
            self.states[s].g = <int32_t> t
            self.states[s].parent = parent
        else:
            s = self.new_state(v, k, <int32_t> t, parent)
            if s < 0:
                return -1
        return heap_push(&self.heap, <double> (t + h[v]), -<double> t, s)

    cdef int search(
        self,
        const int32_t[::1] indptr,
        const int32_t[::1] indices,
        const int32_t[::1] h,
        int32_t start,
        int32_t goal,
        int64_t t0,
        int64_t window,
        long long max_expansions,
        double deadline,
        int32_t* found,
    ) noexcept nogil:
        """The search; ``found[0]`` the final state. A status code, or -1 (memory)."""
        cdef HeapEntry entry
        cdef int32_t s, u, v, k, m, parent_k
        cdef int64_t g, end_u, lo, hi, t, tmax, start_k, end_k, f
        cdef Py_ssize_t e
        self.generation += 1
        if self.generation == 0:  # the stamps wrapped around: forget every one
            for e in range(self.n_nodes):
                self.stamp[e] = 0
            self.generation = 1
        self.n_states = 0
        self.expanded = 0
        heap_clear(&self.heap)
        if h[start] < 0:
            return NO_PATH
        if t0 >= self.forever[start] or contains(&self.busy[start], t0):
            return NO_PATH
        k = lower(&self.busy[start], t0)
        if self.relax(start, k, t0, -1, h) != 0:
            return -1
        while heap_pop(&self.heap, &entry) == 0:
            s = <int32_t> entry.item
            g = <int64_t> (-entry.tie)
            if self.states[s].closed or self.states[s].g != g:
                continue
            self.states[s].closed = 1
            u = self.states[s].node
            parent_k = self.states[s].k
            end_u = self.interval_end(u, parent_k)
            if u == goal and end_u == NEVER:
                found[0] = s
                return FOUND
            if window > 0 and g >= t0 + window:
                found[0] = s
                return FOUND
            if self.expanded >= max_expansions:
                return EXPANSION_LIMIT
            self.expanded += 1
            if (self.expanded & 255) == 0 and now() > deadline:
                return TIME_LIMIT
            if window > 0 and end_u >= t0 + window:
                # waiting here through the window's end: a way to end the search too
                f = t0 + window
                k = self.new_state(u, parent_k, <int32_t> f, s, False)
                if k < 0 or heap_push(&self.heap, <double> (f + h[u]), -<double> f, k) != 0:
                    return -1
            lo = g + 1
            hi = NEVER if end_u == NEVER else end_u + 1
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if h[v] < 0:
                    continue
                m = self.busy[v].n
                # the first interval that may hold time lo: after every reserved time <= lo
                k = lower(&self.busy[v], lo + 1)
                while k <= m:
                    start_k = self.interval_start(v, k)
                    if start_k > hi or start_k >= self.forever[v]:
                        break
                    end_k = self.interval_end(v, k)
                    t = lo if lo > start_k else start_k
                    tmax = end_k if end_k < hi else hi
                    while t <= tmax and contains(&self.arrivals[u], (t << 32) | v):
                        t += 1
                    if t <= tmax and t < NEVER - 1:
                        if self.relax(v, k, t, s, h) != 0:
                            return -1
                    k += 1
        return NO_PATH

    cdef object path_of(self, int32_t s, int64_t t0):
        """The node at every time step from ``t0`` to state ``s``'s arrival."""
        cdef int64_t length = self.states[s].g - t0 + 1
        out = np.empty(length, dtype=np.int32)
        cdef int32_t[::1] path = out
        cdef int64_t t = self.states[s].g
        cdef int32_t p
        while s >= 0:
            p = self.states[s].parent
            # at this state's node from its arrival until the next state's arrival - 1
            path[t - t0] = self.states[s].node
            t -= 1
            if p >= 0:
                while t > self.states[p].g:
                    path[t - t0] = self.states[p].node
                    t -= 1
            s = p
        return out


def sipp(
    Reservations table,
    const int32_t[::1] indptr,
    const int32_t[::1] indices,
    const int32_t[::1] h,
    Py_ssize_t start,
    Py_ssize_t goal,
    long long start_time=0,
    long long window=0,
    long long max_expansions=-1,
    double deadline=float("inf"),
):
    """The earliest way from ``start`` (at ``start_time``) to ``goal`` that never meets
    the reservations of ``table`` and ends with the goal free for good; or, with
    ``window > 0``, the best way to a state reached at ``start_time + window`` or to
    the goal by ``g + h`` (windowed cooperative A*).

    ``h`` is the steps from every node to ``goal`` (-1: cannot get there), a
    consistent heuristic (:func:`distance_table`). ``indptr`` and ``indices`` are
    trusted CSR arrays (as :class:`pathcraft.mapf.Problem` builds them: node ids in
    range); only their sizes are checked here. Returns ``(status, path)``: a
    ``SIPP_*`` code and, when found, the node at every time step from ``start_time``
    (an int32 array), else None. ``table.expanded`` counts the expansions.
    """
    cdef Py_ssize_t n = table.n_nodes
    cdef int32_t found = -1
    cdef int status
    if indptr.shape[0] != n + 1:
        raise ValueError(f"indptr has {indptr.shape[0]} entries; the table has {n} nodes (+ 1)")
    if h.shape[0] != n:
        raise ValueError(f"h has {h.shape[0]} entries; the table has {n} nodes")
    if n == 0 or indptr[0] != 0 or indptr[n] != indices.shape[0]:
        raise ValueError("indptr must run from 0 to len(indices)")
    # the world's arrays: their contents are checked once, when the problem is built
    # (Problem makes them), not here on every search (O(1) checks for them, O(k) for
    # the k indices a query names)
    if not 0 <= start < n:
        index_error("start", start, n, "node")
    if not 0 <= goal < n:
        index_error("goal", goal, n, "node")
    if start_time < 0 or start_time >= NEVER // 2 or window < 0 or window >= NEVER // 2:
        raise ValueError(f"start_time and window must be from 0 to {NEVER // 2 - 1}")
    if max_expansions < 0:
        max_expansions = 2**62
    with nogil:
        status = table.search(
            indptr, indices, h, <int32_t> start, <int32_t> goal, start_time, window,
            max_expansions, deadline, &found,
        )
    if status < 0:
        raise MemoryError()
    if status != FOUND:
        return status, None
    return status, table.path_of(found, start_time)


def distance_table(
    const int32_t[::1] indptr, const int32_t[::1] indices, const int32_t[::1] sources,
    int32_t[:, ::1] out,
):
    """Breadth-first steps from ``sources[i]`` to every node into row ``i`` of ``out``
    (-1 where not reached). Over reverse CSR arrays these are the steps *to* each
    source."""
    cdef Py_ssize_t n = indptr.shape[0] - 1
    cdef Py_ssize_t i, e, head, tail, u, v
    cdef int32_t* queue
    if n < 0 or out.shape[1] != n or out.shape[0] != sources.shape[0]:
        raise ValueError("out must have shape (len(sources), len(indptr) - 1)")
    if n == 0 or indptr[0] != 0 or indptr[n] != indices.shape[0]:
        raise ValueError("indptr must run from 0 to len(indices)")
    check_nodes("indices", indices, n)
    check_nodes("sources", sources, n)
    queue = <int32_t*> malloc(n * sizeof(int32_t))
    if queue == NULL:
        raise MemoryError()
    with nogil:
        for i in range(sources.shape[0]):
            for v in range(n):
                out[i, v] = -1
            out[i, sources[i]] = 0
            queue[0] = sources[i]
            head = 0
            tail = 1
            while head < tail:
                u = queue[head]
                head += 1
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    if out[i, v] < 0:
                        out[i, v] = out[i, u] + 1
                        queue[tail] = <int32_t> v
                        tail += 1
    free(queue)
