# cython: language_level=3
"""One grid query at the lowest cost per call: a prepared :class:`Plan`.

:meth:`pathcraft.grid.Grid.find_path` checks its options once per option set and keeps
a :class:`Plan` per grid and option set: the kernel's settings as a ready ``Query``
(and, for jump point search, the packed lines). A query then costs one call here: the
``(row, col)`` tuples checked without allocating anything, the search run with the GIL
released (the grid kernel's ``run_search``, the jump point kernel's ``run_jps``), the
path traced once into one ``(n, 2)`` array and the :class:`~pathcraft.result.PathResult`
filled in directly (its fields set as ``object.__setattr__`` would, without the
dataclass's keyword parsing). The answers are exactly those of
:func:`grid_search.search` and :func:`jps.jps`: same expansions, path and cost (on a
4-connected grid of uniform cost both run on buckets, ``grid_search.run_buckets``).

Anything the plan does not take (a cell that is not a tuple of two Python ints inside
the grid and walkable, several cells) makes :meth:`Plan.find` return None, and the
caller takes the checked way, which raises the error naming the argument.
"""

cimport cython
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyObject_GenericSetAttr
from cpython.pythread cimport PyThread_get_thread_ident
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint64_t

cimport numpy as cnp

from pathcraft._core.grid_search cimport (
    H_OCTILE,
    Query,
    Workspace,
    aim,
    make_query,
    open_start,
    run_search,
    steps_cost,
    use_buckets,
)
from pathcraft._core.hashed cimport HashedWorkspace, hashed_open_start, run_hashed
from pathcraft._core.codes cimport ST_FOUND, ST_IN_PROGRESS, ST_MAX_EXPANSIONS, ST_UNREACHABLE
from pathcraft._core.jps cimport (
    Lines, _jumps_cost, _unpack, filled_cells, jps_query, run_jps, run_jps_hashed,
)
from pathcraft._core.jpsplus cimport run_jpsplus
from pathcraft._core.machine cimport KernelSettings, Machine, Outcome, end_node, take_settings

cnp.import_array()

_new = object.__new__


cdef class Plan:
    """The settings of one grid and option set, ready to run queries.

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's padded cost array (read, never written; the plan is dropped when a
        cell changes).
    workspace : callable
        ``workspace(cells)``: this thread's grid workspace holding at least ``cells``.
    result : type
        :class:`~pathcraft.result.PathResult`.
    reasons : dict
        The reason of each kernel outcome code (``result.KERNEL_REASONS``).
    clock : callable
        ``time.perf_counter``: ``elapsed`` is ``clock() - t0``.
    lines : PackedLines or None
        The packed lines of a jump point search (None: a best-first search).
    table : ndarray of int32 or None
        With ``lines``: the grid's offline jump table
        (:func:`pathcraft._core.jpsplus.build_table`), searched instead of jumping.
    diagonal, hkind, hscale, unit, block
        The grid kernel's own keyword arguments (``grid._run.search_settings`` or
        ``jps_settings``; ``block`` for jump point search).
    settings : KernelSettings
        The search's settings (``record`` refused: a plan keeps no records).
    """

    cdef Query q
    cdef Lines packed
    cdef readonly bint jps
    cdef readonly bint offline   # jump point search from an offline jump table
    cdef object table
    cdef const int32_t* jumps
    cdef const double[:, ::1] padded
    cdef object lines
    cdef Py_ssize_t rows, cols
    cdef uint64_t seed
    cdef object make_ws
    cdef Workspace ws
    cdef long ws_thread
    cdef object result
    cdef object reasons
    cdef object clock
    cdef const int32_t* labels  # the grid's component labels (NULL: none yet)
    cdef object label_array
    cdef object labeller

    def __init__(
        self,
        const double[:, ::1] padded not None,
        workspace,
        result,
        reasons,
        clock,
        lines=None,
        table=None,
        *,
        int diagonal,
        KernelSettings settings not None,
        int hkind=H_OCTILE,
        double hscale=1.0,
        double unit=0.0,
        bint block=True,
    ):
        if settings.s.record:
            raise ValueError("a plan keeps no records: record through the kernel's entry")
        self.make_ws = workspace
        self.ws = workspace(padded.shape[0] * padded.shape[1])
        self.ws_thread = PyThread_get_thread_ident()
        self.jps = lines is not None
        if self.jps:
            self.q = jps_query(padded, self.ws, diagonal, unit, settings)
            _unpack(lines, padded, &self.packed)
            self.packed.block = block
            if table is not None:
                self.attach_table(table, padded.shape[0] * padded.shape[1])
        else:
            self.q = make_query(padded, self.ws, diagonal, hkind, hscale)
            take_settings(&self.q.s, settings)
            use_buckets(&self.q, unit, 1)
        self.padded = padded
        self.lines = lines  # the arrays ``packed`` points into
        self.rows = padded.shape[0] - 2
        self.cols = padded.shape[1] - 2
        self.seed = settings.s.seed
        self.result = result
        self.reasons = reasons
        self.clock = clock
        self.labels = NULL

    def use_labels(self, labels, labeller=None):
        """Answer a goal of another component than the start's at once, unsearched
        (``reason="unreachable"``, nothing expanded; not with ``partial``, which
        still explores). ``labels``: the grid's component labels over the padded
        cells (int32, flat; :mod:`pathcraft._core.components`), or None and then
        ``labeller()``, called after the first search that ended unreachable, gives
        them (it floods every cell once; that search already flooded the start's
        component)."""
        cdef const int32_t[::1] view
        if labels is None:
            self.labeller = labeller
            return
        view = labels
        if view.shape[0] != self.padded.shape[0] * self.padded.shape[1]:
            raise ValueError("the labels must hold one int32 per padded cell")
        self.label_array = labels
        self.labels = &view[0]
        self.labeller = None

    cdef bint apart(self, Py_ssize_t s, Py_ssize_t g) noexcept:
        """Whether the labels say ``g`` cannot be reached from ``s``."""
        return not self.q.s.partial and self.labels[s] != self.labels[g]

    cdef int take_labels(self) except -1:
        """After the first search that ended unreachable: ask for the labels."""
        labeller = self.labeller
        if labeller is not None:
            self.use_labels(labeller())
        return 0

    cdef int attach_table(self, object table, Py_ssize_t cells) except -1:
        cdef const int32_t[::1] view = table
        if view.shape[0] != 8 * cells:
            raise ValueError(f"the jump table has {view.shape[0]} entries; the grid needs {8 * cells}")
        self.table = table
        self.jumps = &view[0]
        self.offline = True
        return 0

    cdef Py_ssize_t cell(self, object value):
        """The padded flat index of a ``(row, col)`` tuple of Python ints inside the
        grid and walkable; -1 for anything else (the checked way then reports it)."""
        cdef int overflow = 0
        cdef long long r, c
        cdef Py_ssize_t flat
        if type(value) is not tuple or PyTuple_GET_SIZE(value) != 2:
            return -1
        a = <object> PyTuple_GET_ITEM(value, 0)
        b = <object> PyTuple_GET_ITEM(value, 1)
        if type(a) is not int or type(b) is not int:
            return -1
        r = PyLong_AsLongLongAndOverflow(a, &overflow)
        if overflow:
            return -1
        c = PyLong_AsLongLongAndOverflow(b, &overflow)
        if overflow or not (0 <= r < self.rows and 0 <= c < self.cols):
            return -1
        flat = <Py_ssize_t> ((r + 1) * (self.cols + 2) + c + 1)
        if self.q.cost[flat] == INFINITY:
            return -1
        return flat

    cdef inline bint cells(self, object start, object goal, Py_ssize_t* s, Py_ssize_t* g):
        """Whether both cells are ones this plan takes (see :meth:`cell`); their padded
        flat indices go to ``s`` and ``g``."""
        s[0] = self.cell(start)
        if s[0] < 0:
            return False
        g[0] = self.cell(goal)
        return g[0] >= 0

    cdef Workspace workspace(self):
        """This thread's workspace (the one kept when the plan last ran here)."""
        cdef long me = PyThread_get_thread_ident()
        cdef Workspace ws = self.ws
        if me != self.ws_thread:
            ws = self.make_ws(self.padded.shape[0] * self.padded.shape[1])
            self.ws = ws
            self.ws_thread = me
        return ws

    cdef int run(self, Query* q, Workspace ws, Py_ssize_t s, Py_ssize_t g, Outcome* out) except -1:
        """Run one query from ``s`` to ``g`` (checked padded flat cells) to its end."""
        cdef int failed
        aim(q, g)
        q.s.rng = self.seed
        with nogil:
            failed = open_start(q, ws, s, out)  # the grid kernels' source opener
            if not failed:
                if not self.jps:
                    failed = run_search(q, ws, out, -1)
                elif self.offline:
                    failed = run_jpsplus(q, self.jumps, ws, out, -1)
                else:
                    failed = run_jps(q, &self.packed, ws, out, -1)
        if failed:
            raise MemoryError("the grid search ran out of memory")
        return 0

    def find(self, start, goal, double t0, bint fill=True, int64_t max_expansions=-1):
        """The :class:`~pathcraft.result.PathResult` of a query between two
        ``(row, col)`` tuples, or None when a cell is not one this plan takes (not a
        tuple of two ints, outside the grid, a wall). ``fill=False`` (jump point
        search): the path holds only the jump points. ``max_expansions`` >= 0 limits
        this query instead of the plan's own limit (-1: the plan's own), so a limit
        that changes per query shares one plan."""
        cdef Py_ssize_t s, g
        if not self.cells(start, goal, &s, &g):
            return None
        return self.answer(s, g, t0, fill, max_expansions)

    def find_flat(self, Py_ssize_t s, Py_ssize_t g, double t0):
        """:meth:`find` between padded flat cells already checked."""
        return self.answer(s, g, t0, True, -1)

    def cost_flat(self, Py_ssize_t s, Py_ssize_t g):
        """:meth:`cost` between padded flat cells already checked."""
        return self.answer_cost(s, g, -1)

    def cost(self, start, goal, int64_t max_expansions=-1):
        """Only the cost of a query between two ``(row, col)`` tuples (``inf`` when
        the goal is not reached), or None when a cell is not one this plan takes;
        ``max_expansions`` as in :meth:`find`."""
        cdef Py_ssize_t s, g
        if not self.cells(start, goal, &s, &g):
            return None
        return self.answer_cost(s, g, max_expansions)

    cdef double answer_cost(self, Py_ssize_t s, Py_ssize_t g, int64_t limit) except? -1.0:
        cdef Query q = self.q  # a copy: threads may share the plan
        cdef Outcome out
        cdef Workspace ws = self.workspace()
        cdef Py_ssize_t n
        if limit >= 0:
            q.s.max_expansions = limit
        if self.labels != NULL and self.apart(s, g):
            return INFINITY
        self.run(&q, ws, s, g, &out)
        if out.status != ST_FOUND:
            if out.status == ST_UNREACHABLE and self.labeller is not None:
                self.take_labels()
            return INFINITY
        n = ws.trace(out.reached)
        if n < 0:
            raise MemoryError("the grid search ran out of memory")
        if self.jps:
            return _jumps_cost(ws.trail, n, q.width, q.hscale)
        return steps_cost(q.cost, q.width, ws.trail, n)

    cdef object answer(self, Py_ssize_t s, Py_ssize_t g, double t0, bint fill, int64_t limit):
        cdef Query q = self.q  # a copy: threads may share the plan
        cdef Outcome out
        cdef Workspace ws
        if limit >= 0:
            q.s.max_expansions = limit
        if self.labels != NULL and self.apart(s, g):
            return _result(
                self.result, _cells(NULL, 0, 1), INFINITY, False, self.reasons[ST_UNREACHABLE],
                0, 0, self.clock() - t0, _cells(NULL, 0, 1) if self.jps else None,
            )
        ws = self.workspace()
        self.run(&q, ws, s, g, &out)
        if out.status == ST_UNREACHABLE and self.labeller is not None:
            self.take_labels()
        return self.build(&q, &out, ws, s, t0, fill)

    cdef object build(
        self, Query* q, Outcome* out, Workspace ws, Py_ssize_t s, double t0, bint fill
    ):
        """The :class:`~pathcraft.result.PathResult` of an ended query from ``s``."""
        cdef Py_ssize_t n = 0, end, W = q.width
        cdef double cost = INFINITY
        end = end_node(out, q.s.partial, s)
        if end >= 0:
            n = ws.trace(end)
            if n < 0:
                raise MemoryError("the grid search ran out of memory")
        jumps = None
        if self.jps:
            jumps = _cells(ws.trail, n, W)
            if fill:
                path = filled_cells(ws.trail, n, W)
            else:
                path = jumps
            if n:
                cost = _jumps_cost(ws.trail, n, W, q.hscale)
        else:
            path = _cells(ws.trail, n, W)
            if n:
                cost = steps_cost(q.cost, W, ws.trail, n)
        found = out.status == ST_FOUND
        reason = None if found else self.reasons[out.status]
        elapsed = self.clock() - t0
        return _result(
            self.result, path, cost, found, reason, out.expanded, out.generated, elapsed,
            jumps,
        )

    def takes(self, start, goal):
        """Whether :meth:`start` takes these cells (two ``(row, col)`` tuples of ints,
        inside the grid, walkable)."""
        cdef Py_ssize_t s, g
        return self.cells(start, goal, &s, &g)

    def start(self, Workspace ws not None, start, goal, int64_t max_expansions=-1):
        """The query between two ``(row, col)`` tuples as a step machine on ``ws`` (a
        workspace of this grid's size that the caller holds until the search ends: a
        dense one, or a ``hashed.HashedWorkspace``, state sized by the cells reached,
        for any search but jump point search from a jump table), or None when a cell is not one this plan takes.
        Stepped to its end it answers exactly :meth:`find` (see :class:`PlanSearch`);
        ``max_expansions`` as there."""
        cdef Py_ssize_t s, g
        cdef int failed
        cdef PlanSearch search
        cdef Py_ssize_t size = self.padded.shape[0] * self.padded.shape[1]
        cdef bint hashed = type(ws) is HashedWorkspace
        if not self.cells(start, goal, &s, &g):
            return None
        if hashed:
            if self.offline:
                raise ValueError("a jump point search from a jump table needs a dense workspace")
            if (<HashedWorkspace> ws).map_cells < size:
                raise ValueError("the workspace is smaller than the grid")
        elif ws.capacity < size:
            raise ValueError("the workspace is smaller than the grid")
        search = PlanSearch.__new__(PlanSearch)
        search.plan = self
        search.ws = ws
        search.hashed = hashed
        search.s = s
        search.q = self.q
        if max_expansions >= 0:
            search.q.s.max_expansions = max_expansions
        aim(&search.q, g)
        search.q.s.rng = self.seed
        with nogil:
            if hashed:
                failed = hashed_open_start(&search.q, <HashedWorkspace> ws, s, &search.out)
            else:
                failed = open_start(&search.q, ws, s, &search.out)
        if failed:
            raise MemoryError("the grid search ran out of memory")
        if self.labels != NULL and self.apart(s, g):  # ended before its first step
            search.out.status = ST_UNREACHABLE
            search.out.expanded = 0
            search.out.generated = 0
        return search


# Not tracked by the cyclic collector (no_gc): it holds its plan and workspace, neither
# of which refers back to a search, so it is in no cycle; a budgeted agent makes one
# every plan, and each would count toward the collector's next pass.
@cython.no_gc
cdef class PlanSearch(Machine):
    """A plan's single query as a step machine (``Plan.start``): the sliced search of
    ``Grid.start_search`` when the grid has a plan for its options, with the plan's
    query and answer; ``answer()`` returns the machine itself, whose
    :meth:`result` builds the :class:`~pathcraft.result.PathResult`."""

    cdef Plan plan
    cdef Query q
    cdef Workspace ws
    cdef bint hashed          # ws is a HashedWorkspace (state sized by the cells reached)
    cdef Py_ssize_t s

    cdef int run(self, int64_t budget) noexcept nogil:
        if self.hashed:
            if self.plan.jps:
                return run_jps_hashed(
                    &self.q, &self.plan.packed, <HashedWorkspace> self.ws, &self.out, budget
                )
            return run_hashed(&self.q, <HashedWorkspace> self.ws, &self.out, budget)
        if not self.plan.jps:
            return run_search(&self.q, self.ws, &self.out, budget)
        if self.plan.offline:
            return run_jpsplus(&self.q, self.plan.jumps, self.ws, &self.out, budget)
        return run_jps(&self.q, &self.plan.packed, self.ws, &self.out, budget)

    def answer(self):
        """This machine (its :meth:`result` is the answer)."""
        return self

    def best_so_far(self):
        """While in progress, what :meth:`result` of a ``partial`` search stopped now
        would be (see ``Machine.best_so_far``), as an object with that ``result``; None
        once it ended or when not ``partial`` (jump point search: the path through the
        jump points to the expanded one closest to the goal)."""
        if self.out.status != ST_IN_PROGRESS or not self.q.s.partial:
            return None
        return _BestSoFar(self)

    cdef object partial_result(self, double t0):
        cdef Outcome out = self.out
        out.status = ST_MAX_EXPANSIONS
        return self.plan.build(&self.q, &out, self.ws, self.s, t0, True)

    def result(self, double t0):
        """The ended search's :class:`~pathcraft.result.PathResult` (``elapsed`` from
        ``t0``), exactly :meth:`Plan.find`'s."""
        if self.out.status == ST_IN_PROGRESS:
            raise RuntimeError("the search is still in progress")
        return self.plan.build(&self.q, &self.out, self.ws, self.s, t0, True)


cdef object _result(
    type kind, object path, double cost, bint found, object reason, int64_t expanded,
    int64_t generated, double elapsed, object jumps,
):
    """A :class:`~pathcraft.result.PathResult` with its fields set directly (the
    frozen dataclass's ``__init__`` sets each through ``object.__setattr__`` too)."""
    result = _new(kind)
    PyObject_GenericSetAttr(result, "path", path)
    PyObject_GenericSetAttr(result, "cost", cost)
    PyObject_GenericSetAttr(result, "found", found)
    PyObject_GenericSetAttr(result, "reason", reason)
    PyObject_GenericSetAttr(result, "expanded", expanded)
    PyObject_GenericSetAttr(result, "generated", generated)
    PyObject_GenericSetAttr(result, "elapsed", elapsed)
    PyObject_GenericSetAttr(result, "explored", None)
    PyObject_GenericSetAttr(result, "distances", None)
    PyObject_GenericSetAttr(result, "jump_points", jumps)
    PyObject_GenericSetAttr(result, "_parents", None)
    return result


cdef object _cells(const Py_ssize_t* flat, Py_ssize_t n, Py_ssize_t W):
    """``n`` padded flat indices as an ``(n, 2)`` array of ``(row, col)`` cells."""
    cdef cnp.npy_intp dims[2]
    cdef Py_ssize_t i, r
    dims[0] = n
    dims[1] = 2
    cells = cnp.PyArray_SimpleNew(2, dims, cnp.NPY_INTP)
    cdef Py_ssize_t* out = <Py_ssize_t*> cnp.PyArray_DATA(cells)
    for i in range(n):
        r = flat[i] // W
        out[2 * i] = r - 1
        out[2 * i + 1] = flat[i] - r * W - 1
    return cells


cdef class _BestSoFar:
    """A plan search's best partial path so far, built by :meth:`result` like an
    ended search's."""

    cdef PlanSearch search

    def __cinit__(self, PlanSearch search):
        self.search = search

    def result(self, double t0):
        return self.search.partial_result(t0)


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void* op)


def cell_tuples(const Py_ssize_t[:, :] cells, Py_ssize_t width=2):
    """The rows of an ``(n, width)`` integer array as a list of ``width``-tuples of
    Python ints: the nodes of a cell world's path as an agent keeps them (``(row, col)`` on a
    grid, ``GridSpace.nodes``; hexagonal, move and voxel grids and levels,
    ``CellSpace.nodes``).

    Each tuple is made untracked by the cyclic collector. A tuple of ints is in no
    cycle, and CPython untracks it at the first pass that sees it; untracked at once,
    the tuples that many agents' new paths make each frame add nothing to the young
    generation that a pass walks, in whichever frame it runs.

    Examples
    --------
    >>> import gc, numpy as np
    >>> from pathcraft._core.quick import cell_tuples
    >>> cells = cell_tuples(np.array([[0, 1], [2, 300]], dtype=np.intp))
    >>> cells, gc.is_tracked(cells[1])
    ([(0, 1), (2, 300)], False)
    """
    cdef Py_ssize_t i, j, n = cells.shape[0], k = cells.shape[1]
    cdef list out = [None] * n
    cdef tuple cell
    if width < 1:
        raise ValueError(f"width must be an integer >= 1; got {width}")
    if k != width:
        raise ValueError(f"cells must have shape (n, {width}); got (n, {k})")
    for i in range(n):
        if k == 2:
            cell = (cells[i, 0], cells[i, 1])
        else:
            cell = tuple([cells[i, j] for j in range(k)])
        PyObject_GC_UnTrack(<void*> cell)
        out[i] = cell
    return out
