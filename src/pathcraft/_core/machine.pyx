# cython: language_level=3
"""The search skeleton every compiled search shares (see ``machine.pxd``)."""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.codes cimport MODE_DIJKSTRA  # the statuses: cimported by machine.pxd
from pathcraft._core.heap cimport TIE_G, heap_clear, heap_free, heap_init
from pathcraft._core.record cimport recorder_free, recorder_init

# The outcomes, for the Python front doors (each kernel module exports them).
FOUND = ST_FOUND
UNREACHABLE = ST_UNREACHABLE
MAX_EXPANSIONS = ST_MAX_EXPANSIONS
MAX_COST = ST_MAX_COST
EXHAUSTED = ST_EXHAUSTED
IN_PROGRESS = ST_IN_PROGRESS


cdef class BaseWorkspace:
    """Per-thread search state for up to ``capacity`` nodes (see ``machine.pxd``)."""

    def __cinit__(self, Py_ssize_t capacity, *args, **kwargs):
        if capacity >= 2147483647:
            raise ValueError(f"{capacity} nodes are too many for one search (2**31 at most)")
        if capacity < 1:
            capacity = 1
        self.capacity = capacity
        self.cell = <Slot*> malloc(capacity * sizeof(Slot))
        self.pos = <int32_t*> malloc(capacity * sizeof(int32_t))
        self.goal_mark = NULL
        recorder_init(&self.rec)
        self.trail = NULL
        self.trail_capacity = 0
        self.gen = 2
        if self.cell == NULL or self.pos == NULL or heap_init(&self.heap, 1024) != 0:
            raise MemoryError(f"could not allocate a search workspace of {capacity} nodes")
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
    str entry, dict settings, const Py_ssize_t[::1] starts, const Py_ssize_t[::1] goals,
    double[::1] costs, bint keeps_partial=False,
) except -1:
    """The prologue of every costs-only kernel entry (``entry`` names it): refuse the
    settings it cannot honour (``record``, and ``partial`` unless ``keeps_partial``)
    and arrays of different lengths, before any index is read; whether there is a
    pair to search."""
    if settings.get("record") or (not keeps_partial and settings.get("partial")):
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


#: The names :func:`take_settings` takes, in the order of :c:struct:`Settings`.
SETTINGS = ("mode", "tie", "weight", "max_expansions", "max_cost", "partial", "record", "seed")


cdef int take_settings(Settings* s, dict settings) except -1:
    """Unpack a kernel's best-first settings (``SearchOptions.kernel_settings()``:
    what is left of its keyword arguments once it took its own) into ``s``; TypeError
    when one is missing or one more is given."""
    missing = [name for name in SETTINGS if name not in settings]
    if missing:
        raise TypeError(f"missing kernel settings: {', '.join(missing)}")
    if len(settings) != len(SETTINGS):
        extra = sorted(name for name in settings if name not in SETTINGS)
        raise TypeError(f"unexpected kernel settings: {', '.join(extra)}")
    s.mode = settings["mode"]
    s.tie = settings["tie"]
    s.weight = settings["weight"]
    s.reopen = reopens(s.weight)
    s.max_expansions = settings["max_expansions"]
    s.max_cost = settings["max_cost"]
    s.partial = settings["partial"]
    s.record = settings["record"]
    s.seed = settings["seed"]
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

    cdef int use_settings(self, Settings* s, dict settings) except -1:
        """Fill the settings ``s`` inside the subclass's query from the kernel's
        keyword arguments (:func:`take_settings`) and search by them."""
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
        cdef const Py_ssize_t[::1] view
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        path = walk_back(self.ws, end_node(&self.out, self.s.partial, self.first_source))
        view = path
        cost = INFINITY if path.shape[0] == 0 else self.steps_cost_of(&view[0], path.shape[0])
        rec_places = rec_g = None
        if self.s.record:
            places, rec_g = copy_record(self.ws)
            rec_places = self.to_places(places)
        return (
            self.out.status, self.to_places(path), cost,
            self.out.expanded, self.out.generated, rec_places, rec_g,
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
