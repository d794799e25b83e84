# cython: language_level=3
"""The search skeleton every compiled search shares (see ``machine.pxd``)."""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc

import numpy as np

from pathcraft._core.codes cimport (  # the statuses: cimported by machine.pxd
    MODE_ASTAR,
    MODE_DIJKSTRA,
    MODE_GREEDY,
)
from pathcraft._core.heap cimport TIE_FIFO, TIE_G, TIE_RANDOM, heap_clear, heap_free, heap_init
from pathcraft._core.record cimport recorder_free, recorder_init

# The kernel codes of ``codes.pxd`` and ``heap.pxd``, exported for the Python side from
# this one place (pathcraft._kernels reads them; no kernel module exports them again).
# The outcome of a search (its ``status``):
FOUND = ST_FOUND
UNREACHABLE = ST_UNREACHABLE
MAX_EXPANSIONS = ST_MAX_EXPANSIONS
MAX_COST = ST_MAX_COST
EXHAUSTED = ST_EXHAUSTED
IN_PROGRESS = ST_IN_PROGRESS
#: The search modes (``KernelSettings["mode"]``) by ``algorithm=`` name.
MODES = {"astar": MODE_ASTAR, "greedy": MODE_GREEDY, "dijkstra": MODE_DIJKSTRA}
#: The tie-breaking rules (``KernelSettings["tie"]``) by ``tie_break=`` name.
TIES = {"g": TIE_G, "fifo": TIE_FIFO, "random": TIE_RANDOM}


cdef enum:
    # Bytes of state per node: its slot and its place in the heap, one block.
    NODE_BYTES = sizeof(Slot) + sizeof(int32_t)


cdef class BaseWorkspace:
    """Per-thread search state for up to ``capacity`` nodes (see ``machine.pxd``)."""

    def __cinit__(self, Py_ssize_t capacity, *args, **kwargs):
        if capacity >= 2147483647:
            raise ValueError(f"{capacity} nodes are too many for one search (2**31 at most)")
        if capacity < 1:
            capacity = 1
        self.capacity = capacity
        # One zeroed block for the slots and the heap places, untouched: no loop
        # writes the marks (0 is older than any generation), and a page takes memory
        # once a search writes into it (one mapping: one system call to make it).
        self.cell = <Slot*> zalloc(capacity * NODE_BYTES)
        self.pos = NULL if self.cell == NULL else <int32_t*> (self.cell + capacity)
        self.goal_mark = NULL
        recorder_init(&self.rec)
        self.trail = NULL
        self.trail_capacity = 0
        self.gen = 2
        self.small = False
        # The open list starts at 1,024 entries, or the nodes when fewer (it doubles).
        if self.cell == NULL or self.pos == NULL or heap_init(&self.heap, min(capacity, 1024)) != 0:
            raise MemoryError(f"could not allocate a search workspace of {capacity} nodes")

    def __dealloc__(self):
        zfree(self.cell, self.capacity * NODE_BYTES)
        zfree(self.goal_mark, self.capacity * sizeof(uint32_t))
        recorder_free(&self.rec)
        free(self.trail)
        heap_free(&self.heap)

    @property
    def nbytes(self):
        """Bytes of address space this workspace holds: its per-node arrays (most of
        it never backed by memory, see :attr:`resident_bytes`), the open list, the
        recording and the trail."""
        cdef Py_ssize_t per_node = NODE_BYTES
        if self.goal_mark != NULL:
            per_node += sizeof(uint32_t)
        return self.capacity * per_node + self._buffers()

    @property
    def resident_bytes(self):
        """Bytes of this workspace in memory now: the pages of its per-node arrays
        that searches wrote (as the system reports them; the whole arrays where it
        does not say, on Windows) plus the open list, the recording and the trail.
        What a workspace costs grows with the nodes its searches touched."""
        cdef long long total = self._buffers(), part
        part = resident(self.cell, self.capacity * NODE_BYTES)
        part += resident(self.goal_mark, self.capacity * sizeof(uint32_t))
        return total + part

    def keep_pages_small(self):
        """Back the per-node arrays with small pages only (4 kB; Linux's
        ``MADV_NOHUGEPAGE``), so that a search costs the pages it writes even where the
        system makes transparent huge pages always (2 MB for a first write). The
        sliced searches' pool asks it of the workspaces it makes, which stay few
        searches long; a thread's workspace for blocking searches keeps the system's
        choice (huge pages speed long searches)."""
        self.small = True
        small_pages(self.cell, self.capacity * NODE_BYTES)
        small_pages(self.goal_mark, self.capacity * sizeof(uint32_t))

    def _set_generation(self, uint32_t gen):
        """For tests: the generation the next query steps on from (even, >= 2), to
        reach the wrap of the marks without four billion queries."""
        if gen < 2 or gen % 2:
            raise ValueError(f"gen must be even and >= 2; got {gen}")
        self.gen = gen

    cdef Py_ssize_t _buffers(self):
        """Bytes of the growing buffers: the heap, the recorder and the trail."""
        return (
            self.heap.capacity * sizeof(HeapEntry)
            + self.rec.capacity * (sizeof(Py_ssize_t) + sizeof(double))
            + self.trail_capacity * sizeof(Py_ssize_t)
        )

    cdef int next_generation(self) noexcept nogil:
        """Start a query: a new generation, or a reset of the marks when they wrap
        (the per-node arrays zeroed again, their pages given back)."""
        if self.gen >= 4294967290u:
            zreset(self.cell, self.capacity * NODE_BYTES)
            if self.goal_mark != NULL:
                zreset(self.goal_mark, self.capacity * sizeof(uint32_t))
            self.gen = 2
        else:
            self.gen += 2
        heap_clear(&self.heap)
        self.rec.size = 0
        return 0

    cdef int ensure_goal_marks(self) except -1:
        if self.goal_mark == NULL:
            self.goal_mark = <uint32_t*> zalloc(self.capacity * sizeof(uint32_t))
            if self.goal_mark == NULL:
                raise MemoryError("could not allocate the goal marks")
            if self.small:
                small_pages(self.goal_mark, self.capacity * sizeof(uint32_t))
        return 0

    cdef Py_ssize_t trace(self, Py_ssize_t node) noexcept nogil:
        """Write the path from a source to ``node`` into ``trail``, start first; return
        its length (0 when ``node`` is -1), or -1 when memory ran out."""
        cdef Py_ssize_t n = 0, i, c = node
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
        c = node
        for i in range(n - 1, -1, -1):
            self.trail[i] = c
            c = self.cell[c].parent
        return n


cdef object walk_back(BaseWorkspace ws, Py_ssize_t node):
    """The parents from ``node`` back to a source, as an index array in path order
    (empty when ``node`` is -1)."""
    cdef Py_ssize_t n = ws.trace(node), i
    if n < 0:
        raise MemoryError("could not trace the path")
    path = np.empty(n, dtype=np.intp)
    cdef Py_ssize_t[::1] view = path
    for i in range(n):
        view[i] = ws.trail[i]
    return path


cdef object copy_record(BaseWorkspace ws):
    """The recorded expansions: the nodes and their g-costs, two arrays."""
    cdef Py_ssize_t i
    nodes = np.empty(ws.rec.size, dtype=np.intp)
    gs = np.empty(ws.rec.size, dtype=np.float64)
    cdef Py_ssize_t[::1] nv = nodes
    cdef double[::1] gv = gs
    for i in range(ws.rec.size):
        nv[i] = ws.rec.items[i]
        gv[i] = ws.rec.g[i]
    return nodes, gs


cdef bint costs_pairs(
    str entry, KernelSettings settings, const Py_ssize_t[::1] starts,
    const Py_ssize_t[::1] goals, double[::1] costs, bint keeps_partial=False,
) except -1:
    """The prologue of every costs-only kernel entry (``entry`` names it): refuse the
    settings it cannot honour (``record``, and ``partial`` unless ``keeps_partial``)
    and arrays of different lengths, before any index is read; whether there is a
    pair to search."""
    if settings.s.record or (not keeps_partial and settings.s.partial):
        raise ValueError(
            f"{entry} keeps no records" if keeps_partial
            else f"{entry} keeps neither partial paths nor records"
        )
    if not (starts.shape[0] == goals.shape[0] == costs.shape[0]):
        raise ValueError("starts, goals and costs must have the same length")
    return starts.shape[0] > 0


cdef int run_costs(
    Machine m, const Py_ssize_t[::1] starts, const Py_ssize_t[::1] goals, double[::1] costs
) except -1:
    """The batch loop of the costs-only queries: for each ``(starts[i], goals[i])``
    restart machine ``m``, run it to the end and write the found path's cost to
    ``costs[i]`` (``inf`` where none was found), all with the GIL released. The
    indices must be checked already (the machine's constructor checks its own)."""
    cdef Py_ssize_t i
    cdef int failed = 0
    cdef double c
    if not (starts.shape[0] == goals.shape[0] == costs.shape[0]):
        raise ValueError("starts, goals and costs must have the same length")
    with nogil:
        for i in range(starts.shape[0]):
            failed = m.restart(starts[i], goals[i])
            if not failed:
                failed = m.run(-1)
            if failed:
                break
            costs[i] = INFINITY
            if m.out.status == ST_FOUND:
                c = m.found_cost()
                if c < 0:
                    failed = 1
                    break
                costs[i] = c
    if failed:
        raise MemoryError(f"{type(m).__name__} ran out of memory")
    return 0


#: The settings of :class:`KernelSettings`, in the order of :c:struct:`Settings` (the
#: keys of ``KernelSettings.as_dict()``).
SETTINGS = ("mode", "tie", "weight", "max_expansions", "max_cost", "partial", "record", "seed")


cdef class KernelSettings:
    """The settings every kernel entry that searches takes, as one object
    (``settings=``): built once per query from checked options by
    ``pathcraft._options.SearchOptions.kernel_settings()``, read by the kernel with
    one struct copy.

    Parameters (keyword-only)
    -------------------------
    mode : int
        A value of :data:`MODES`.
    tie : int
        A value of :data:`TIES`.
    weight : float
        The heuristic weight, ``>= 1``.
    max_expansions : int
        -1 for no limit.
    max_cost : float
        ``inf`` for no limit.
    partial, record : bool
    seed : int
        The 64-bit seed of random tie-breaking.
    """

    def __init__(
        self, *, int mode, int tie, double weight, int64_t max_expansions, double max_cost,
        bint partial, bint record, uint64_t seed,
    ):
        if mode != MODE_ASTAR and mode != MODE_GREEDY and mode != MODE_DIJKSTRA:
            raise ValueError(f"mode must be a value of MODES {MODES}; got {mode}")
        if tie != TIE_G and tie != TIE_FIFO and tie != TIE_RANDOM:
            raise ValueError(f"tie must be a value of TIES {TIES}; got {tie}")
        if max_expansions < -1:
            raise ValueError(f"max_expansions must be -1 (no limit) or >= 0; got {max_expansions}")
        self.s.mode = mode
        self.s.tie = tie
        self.s.weight = weight
        self.s.reopen = reopens(weight)
        self.s.max_expansions = max_expansions
        self.s.max_cost = max_cost
        self.s.partial = partial
        self.s.record = record
        self.s.seed = seed
        self.s.rng = seed

    def as_dict(self):
        """The settings by name (the keys of :data:`SETTINGS`)."""
        return {
            "mode": self.s.mode, "tie": self.s.tie, "weight": self.s.weight,
            "max_expansions": self.s.max_expansions, "max_cost": self.s.max_cost,
            "partial": bool(self.s.partial), "record": bool(self.s.record),
            "seed": self.s.seed,
        }

    def __repr__(self):
        return "KernelSettings(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"


cdef int take_settings(Settings* s, KernelSettings settings) except -1:
    """Copy a kernel's settings into ``s`` (the random ties restart from the seed)."""
    s[0] = settings.s
    s.rng = s.seed
    return 0


cdef Settings tie_g_settings(
    int mode, double weight, int64_t max_expansions, double max_cost, bint partial,
    bint record,
) noexcept nogil:
    """The settings of a search that takes no tie-breaking option (jump point search,
    Theta*, distance fields): ties by g, never at random."""
    cdef Settings s
    s.mode = mode
    s.tie = TIE_G
    s.weight = weight
    s.reopen = reopens(weight)
    s.max_expansions = max_expansions
    s.max_cost = max_cost
    s.partial = partial
    s.record = record
    s.seed = 0
    s.rng = 0
    return s


cdef Settings field_settings(double max_cost) noexcept nogil:
    """The settings of a distance field: Dijkstra, ties by g, no limit but
    ``max_cost``, nothing recorded."""
    return tie_g_settings(MODE_DIJKSTRA, 1.0, -1, max_cost, False, False)


cdef int begin_field(
    BaseWorkspace ws, Outcome* out, Settings* s, double max_cost, const Py_ssize_t[:] sources
) noexcept nogil:
    """Begin a distance field: :func:`field_settings` in ``s``, a new generation and
    every source opened at g = 0 (heuristic 0; repeats ignored). -1 when memory ran
    out."""
    cdef Py_ssize_t i
    s[0] = field_settings(max_cost)
    begin(out)
    ws.next_generation()
    for i in range(sources.shape[0]):
        if open_source(ws, out, s.mode, s.weight, s.tie, &s.rng, s.max_cost, sources[i], 0.0, 0.0) != 0:
            return -1
    return 0


cdef class Machine:
    """A compiled search as a step machine: :meth:`step` expands at most ``n`` more
    nodes and returns the status (``IN_PROGRESS`` until the search ends); a subclass's
    ``answer()`` is then its blocking call's answer. A machine holds its workspace and
    the arrays it reads until it is dropped."""

    @property
    def status(self):
        return self.out.status

    @property
    def expanded(self):
        return self.out.expanded

    def step(self, int64_t budget=-1):
        """Expand at most ``budget`` more nodes (-1: until the search ends); the status.
        The time spent is added to :attr:`elapsed` (a clock read in C, so a step costs
        no Python clock calls)."""
        cdef int failed = 0
        cdef double t0
        if budget < -1:
            raise ValueError(f"budget must be -1 or >= 0; got {budget}")
        if self.out.status == ST_IN_PROGRESS:
            with nogil:
                t0 = now()
                failed = self.run(budget)
                self.elapsed += now() - t0
            if failed:
                raise MemoryError(f"{type(self).__name__} ran out of memory")
        return self.out.status

    def finish(self):
        """Step to the end (:meth:`step` without a bound) and return the subclass's
        ``answer()``: a blocking search."""
        self.step(-1)
        return self.answer()

    cdef int run(self, int64_t budget) noexcept nogil:
        """Advance the search (the subclass's loop); -1 when memory ran out."""
        return 0

    cdef int restart(self, Py_ssize_t start, Py_ssize_t goal) noexcept nogil:
        """Begin the same search again from ``start`` to ``goal`` (checked indices;
        for :func:`run_costs`); -1 when memory ran out."""
        return -1

    cdef double found_cost(self) noexcept nogil:
        """The cost of the path found (status FOUND), or -1 when memory ran out."""
        return -1.0


cdef class CellSearch(Machine):
    """A search over the places of one padded cost array (see ``machine.pxd``): the
    subclass fills its query (the settings in it by :meth:`use_settings`, which
    points ``s`` at them), calls :meth:`open_sources` and provides ``run`` and the
    hooks; :meth:`answer` is then
    ``(status, path, cost, expanded, generated, rec_places, rec_g)``."""

    cdef int use_settings(self, Settings* s, KernelSettings settings) except -1:
        """Fill the settings ``s`` inside the subclass's query from the kernel's
        ``settings`` (:func:`take_settings`) and search by them."""
        self.s = s
        return take_settings(s, settings)

    cdef bint open_sources(
        self, str what, BaseWorkspace ws, const Py_ssize_t[:] sources, Py_ssize_t goal,
        const Py_ssize_t[:] goal_set,
    ) except -1:
        """Check the sources and goals (IndexError naming the argument; ``what`` a
        place is called), then begin the search: aim at ``goal``, mark the goal set,
        open every source. Whether there is a goal set (None or empty: none)."""
        cdef Py_ssize_t i
        cdef int failed = 0
        cdef bint use_set = goal_set is not None and goal_set.shape[0] > 0
        if sources.shape[0] == 0:
            raise ValueError(f"sources: at least one {what} is needed")
        for i in range(sources.shape[0]):
            self.check_place("sources", sources[i])
        if goal >= 0:
            self.check_place("goal", goal)
        if use_set:
            for i in range(goal_set.shape[0]):
                self.check_place("goal_set", goal_set[i])
            ws.ensure_goal_marks()
        self.ws = ws
        self.first_source = sources[0]
        with nogil:
            failed = self.restart(sources[0], goal)
            if use_set:
                for i in range(goal_set.shape[0]):
                    ws.goal_mark[goal_set[i]] = ws.gen
            for i in range(1, sources.shape[0]):
                if failed:
                    break
                failed = self.push(sources[i])
        if failed:
            raise MemoryError(f"{type(self).__name__} ran out of memory")
        return use_set

    cdef int push(self, Py_ssize_t place) noexcept nogil:
        """Open a source at g = 0 (a repeat ignored); -1 when memory ran out."""
        return open_source(
            self.ws, &self.out, self.s.mode, self.s.weight, self.s.tie, &self.s.rng,
            self.s.max_cost, place, 0.0, self.heuristic_of(place),
        )

    cdef int restart(self, Py_ssize_t start, Py_ssize_t goal) noexcept nogil:
        self.first_source = start
        self.aim_at(goal)
        self.s.rng = self.s.seed
        begin(&self.out)
        self.ws.next_generation()
        return self.push(start)

    cdef double found_cost(self) noexcept nogil:
        cdef Py_ssize_t n = self.ws.trace(self.out.reached)
        if n < 0:
            return -1.0
        return self.steps_cost_of(self.ws.trail, n)

    def answer(self):
        """``(status, path, cost, expanded, generated, rec_places, rec_g)`` of the
        ended search: the places as the subclass writes them (an ``(n, k)`` array)."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        return answer_at(
            self, end_node(&self.out, self.s.partial, self.first_source), self.out.status
        )

    def best_so_far(self):
        """The answer a ``partial`` search stopped now would give (status
        ``max_expansions``, the path from the source to the expanded node closest to
        the goal, the source itself before any), while the search is in progress; None
        once it ended or when it does not track that node (not ``partial``)."""
        if self.out.status != ST_IN_PROGRESS or not self.s.partial:
            return None
        return answer_at(
            self, self.out.best if self.out.best >= 0 else self.first_source,
            ST_MAX_EXPANSIONS,
        )

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        """IndexError unless ``place`` is a place of the world (not padding)."""
        return 0

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        """Aim the query at ``goal`` (-1: none)."""
        pass

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return 0.0

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        """The cost of the ``n`` places of ``path``, step by step from the start."""
        return INFINITY

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        """Padded flat indices as the world's places."""
        raise NotImplementedError


cdef object answer_at(CellSearch m, Py_ssize_t end, int status):
    """The answer tuple of ``m`` for a path ending at ``end`` (-1: no path), with
    ``status``: what :meth:`CellSearch.answer` and :meth:`CellSearch.best_so_far`
    return (a C call, not a method looked up per search)."""
    cdef const Py_ssize_t[::1] view
    path = walk_back(m.ws, end)
    view = path
    cost = INFINITY if path.shape[0] == 0 else m.steps_cost_of(&view[0], path.shape[0])
    rec_places = rec_g = None
    if m.s.record:
        places, rec_g = copy_record(m.ws)
        rec_places = m.to_places(places)
    return (
        status, m.to_places(path), cost, m.out.expanded, m.out.generated, rec_places, rec_g,
    )
