# cython: language_level=3
"""Grid search state sized by the cells a search touches: the workspace a sliced grid
search gets when no pooled workspace is free (``pathcraft._sliced``).

A dense workspace (``grid_search.Workspace``) holds a slot per cell of the map: free
to reuse, but a new one costs a mapping of the map's size and a page fault per page
written (tens of microseconds for a search that expands a cell). A
:class:`HashedWorkspace` gives slots out in the order cells are first reached, from
arrays that start at 128 slots and double, and finds a cell's slot in an
open-addressing table (linear probing, Fibonacci hashing, at most half full, doubled
when it would be fuller). Made from a few small ``malloc`` blocks (about 2 kB), it
costs about what a pooled workspace does, and holds memory in proportion to the cells
reached (40 to 100 bytes each, as the arrays and the table double).

A look-up costs more than an index: a long search on slots takes about 1.7x the time
of a dense one. So a search that reached :data:`DENSE_AT` cells moves to dense arrays
of the map's size (:meth:`HashedWorkspace.densify`: mapped zeroed, each reached cell's
slot copied to its place, the heap's entries made cells) and runs on the grid kernel's
own loop from there, paying the page faults of the region it explores, as a new dense
workspace would.

The skeleton's inline pieces (``machine.next_node``, ``improves``, ``open_node``)
index the workspace's ``cell`` and ``pos`` arrays: here they are indexed by slot, and
the heap holds slots, so those pieces run unchanged; only the neighbour's look-up
(:func:`slot_of`) and the goal test (a slot's cell) are this module's. The loops
follow ``grid_search.run_search`` and ``run_buckets`` step for step (same pushes, same
heap order counter), so a search expands the same cells in the same order and answers
exactly as on a dense workspace; :meth:`HashedWorkspace.trace` writes cells, as the
dense one does. Single-goal queries without recording: what ``quick.Plan`` runs. Jump
point search runs its own loop on slots (``jps.run_jps_hashed``) through
:func:`hashed_relax`.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from pathcraft._core.grid_search cimport (
    DC,
    DR,
    NEVER,
    SQRT2,
    H_MANHATTAN,
    bucket_push,
    corner_open,
    heuristic,
    heuristic_rc,
    next_bucket_node,
    run_search,
    steps_to_goal,
)
from pathcraft._core.heap cimport heap_clear
from pathcraft._core.machine cimport (
    BaseWorkspace,
    resident,
    small_pages,
    zalloc,
    zfree,
    Slot,
    begin,
    found,
    improves,
    next_node,
    note_best,
    open_node,
    stop,
)

cdef enum:
    FIRST_SLOTS = 32          # slots of a new workspace (the table has twice as many places)
    FIRST_BITS = 6            # log2 of the table's first places
    DENSE_BYTES = sizeof(Slot) + sizeof(int32_t)  # a dense workspace's bytes per cell

#: Cells a search reaches before it moves to dense arrays (:func:`hashed_workspace`):
#: its hashed state is then about 150 kB, and on long queries (a 1024 x 1024 map, 438k
#: cells expanded) moving there takes as long as a new dense workspace all along,
#: where staying hashed takes 1.7x (``bench/results/sliced_memory.md``).
DENSE_AT = 4096


cdef class HashedWorkspace(Workspace):
    """The state of one grid search over a map of ``map_cells`` padded cells, sized by
    the cells it reaches (see the module's docstring). Make it with
    :func:`hashed_workspace`; a search on it is stepped by ``quick.PlanSearch``."""

    def __cinit__(self, *args, **kwargs):
        # The skeleton made its per-node block and open list for one node (the
        # constructor's capacity): the block is replaced by the slot arrays.
        free(self.cell)
        self.cell = NULL
        self.pos = NULL
        self.slot_cell = NULL
        self.slot_pos = NULL
        self.dense = False
        self.dense_at = 2147483647
        self.cells = NULL
        self.table = NULL
        self.used = 0
        self.room = 0
        self.map_cells = 0
        if self.grow_slots() != 0:
            raise MemoryError("could not allocate a hashed search workspace")
        self.mask = (1 << FIRST_BITS) - 1
        self.shift = 64 - FIRST_BITS
        self.table = <Entry*> malloc((self.mask + 1) * sizeof(Entry))
        if self.table == NULL:
            raise MemoryError("could not allocate a hashed search workspace")
        memset(self.table, 0xFF, (self.mask + 1) * sizeof(Entry))

    def __dealloc__(self):
        self.undensify()
        free(self.slot_cell)
        free(self.slot_pos)
        free(self.cells)
        free(self.table)
        self.cell = NULL  # the skeleton's own release then has nothing to give back
        self.pos = NULL

    @property
    def slots(self):
        """Cells reached by the current (or last) query: the slots given out."""
        return self.used

    @property
    def nbytes(self):
        """Bytes this workspace holds: its slots (24 bytes each), table places (8 each),
        the open list, the recording and the trail."""
        return (
            self.room * (sizeof(Slot) + 2 * sizeof(int32_t))
            + (self.mask + 1) * sizeof(Entry)
            + self._buffers()
            + (self.map_cells * DENSE_BYTES if self.dense else 0)
        )

    @property
    def resident_bytes(self):
        """Bytes of it in memory now: :attr:`nbytes`, of the dense arrays (once
        moved there) only the pages written."""
        cdef long long part = 0
        if self.dense:
            part = resident(self.cell, self.map_cells * DENSE_BYTES)
        return self.nbytes - (self.map_cells * DENSE_BYTES if self.dense else 0) + part

    def keep_pages_small(self):
        """Nothing to do: its blocks are small ``malloc`` blocks, never mapped."""

    cdef int grow_slots(self) noexcept nogil:
        """Double the slot arrays (the first time: ``FIRST_SLOTS``); -1 when memory ran
        out (the arrays then stay as they were)."""
        cdef Py_ssize_t room = FIRST_SLOTS if self.room == 0 else 2 * self.room
        cdef void* p
        if room > 2147483647:
            return -1
        p = realloc(self.slot_cell, room * sizeof(Slot))
        if p == NULL:
            return -1
        self.slot_cell = self.cell = <Slot*> p
        p = realloc(self.slot_pos, room * sizeof(int32_t))
        if p == NULL:
            return -1
        self.slot_pos = self.pos = <int32_t*> p
        p = realloc(self.cells, room * sizeof(int32_t))
        if p == NULL:
            return -1
        self.cells = <int32_t*> p
        self.room = room
        return 0

    cdef int grow_table(self) noexcept nogil:
        """Double the table's places and place every slot's cell again; -1 when memory
        ran out (the table then stays as it was)."""
        cdef Py_ssize_t places = 2 * (self.mask + 1), i, j, mask = places - 1
        cdef int shift = self.shift - 1
        cdef Entry* table = <Entry*> malloc(places * sizeof(Entry))
        if table == NULL:
            return -1
        memset(table, 0xFF, places * sizeof(Entry))
        for i in range(self.used):
            j = place_of(self.cells[i], shift)
            while table[j].cell >= 0:
                j = (j + 1) & mask
            table[j].cell = self.cells[i]
            table[j].slot = <int32_t> i
        free(self.table)
        self.table = table
        self.mask = mask
        self.shift = shift
        return 0

    cdef int densify(self) noexcept nogil:
        """Move the search to dense arrays of the map's size (zeroed, mapped, on small
        pages: they take the pages written): every reached cell's slot copied to its
        cell, parents as cells, the heap and bucket entries made cells. -1 when memory
        ran out (the search then stays hashed, and tries no more)."""
        cdef Py_ssize_t i, k, c, p
        cdef Slot* cell
        cdef int32_t* pos
        cdef size_t n = self.map_cells * DENSE_BYTES
        cell = <Slot*> zalloc(n)
        if cell == NULL:
            self.dense_at = 2147483647
            return -1
        small_pages(cell, n)
        pos = <int32_t*> (cell + self.map_cells)
        for i in range(self.used):
            c = self.cells[i]
            cell[c] = self.slot_cell[i]
            p = self.slot_cell[i].parent
            cell[c].parent = self.cells[p] if p >= 0 else -1
        for i in range(self.heap.size):
            c = self.cells[self.heap.data[i].item]
            self.heap.data[i].item = c
            pos[c] = <int32_t> i
        for k in range(3):
            for i in range(self.ring[k].size):
                self.ring[k].items[i] = self.cells[self.ring[k].items[i]]
        self.cell = cell
        self.pos = pos
        self.dense = True
        return 0

    cdef void undensify(self) noexcept nogil:
        """Give the dense arrays back and index the slots again (no search is on)."""
        if self.dense:
            zfree(self.cell, self.map_cells * DENSE_BYTES)
            self.cell = self.slot_cell
            self.pos = self.slot_pos
            self.dense = False

    cdef int next_generation(self) noexcept nogil:
        """Start a query: the table emptied (its places in proportion to the cells the
        last query reached), every slot given back, dense arrays (of a query that
        moved there) given back. The generation stays: a slot is marked 0 (unreached)
        when it is given out."""
        self.undensify()
        if self.used:
            memset(self.table, 0xFF, (self.mask + 1) * sizeof(Entry))
            self.used = 0
        heap_clear(&self.heap)
        self.rec.size = 0
        return 0

    cdef Py_ssize_t trace(self, Py_ssize_t node) noexcept nogil:
        """``Workspace.trace``: the path from the source to the cell ``node`` into
        ``trail`` as cells, start first; its length (0 for -1), or -1 when memory ran
        out. On slots: the skeleton's trace of the slots, each then made its cell."""
        cdef Py_ssize_t n, i
        if self.dense:
            return BaseWorkspace.trace(self, node)
        n = BaseWorkspace.trace(self, slot_of(self, node) if node >= 0 else -1)
        for i in range(n):
            self.trail[i] = self.cells[self.trail[i]]
        return n


def hashed_workspace(Py_ssize_t cells, Py_ssize_t dense_at=-1):
    """A :class:`HashedWorkspace` for grids of up to ``cells`` padded cells (what a
    ``quick.Plan`` checks; nothing of that size is allocated until a search moves to
    dense arrays). A search on it moves to dense arrays once it reached ``dense_at``
    cells (-1: :data:`DENSE_AT`): past a few thousand cells the dense arrays' page
    faults cost less than the table's look-ups."""
    if cells >= 2147483647:
        raise ValueError(f"{cells} nodes are too many for one search (2**31 at most)")
    if dense_at < -1:
        raise ValueError(f"dense_at must be -1 (the default share) or >= 0; got {dense_at}")
    ws = HashedWorkspace(1)
    ws.map_cells = cells
    ws.dense_at = DENSE_AT if dense_at == -1 else dense_at
    return ws


cdef inline Py_ssize_t place_of(Py_ssize_t cell, int shift) noexcept nogil:
    """The table place a cell's probe starts at (Fibonacci hashing: the top bits of
    the cell times 2**64 / golden ratio, so neighbouring cells land far apart)."""
    return <Py_ssize_t> ((<uint64_t> cell * 0x9E3779B97F4A7C15ULL) >> shift)


cdef inline Py_ssize_t slot_of(HashedWorkspace ws, Py_ssize_t cell) noexcept nogil:
    """The slot of ``cell`` this query, or -1 when it was not reached."""
    cdef Py_ssize_t i = place_of(cell, ws.shift)
    while True:
        if ws.table[i].cell == cell:
            return ws.table[i].slot
        if ws.table[i].cell < 0:
            return -1
        i = (i + 1) & ws.mask


cdef inline Py_ssize_t new_slot(HashedWorkspace ws, Py_ssize_t cell) noexcept nogil:
    """Give ``cell`` (not reached this query) a slot, marked unreached; the slot, or -1
    when memory ran out. The slot arrays may move: read them after."""
    cdef Py_ssize_t i, slot = ws.used
    if slot == ws.room and ws.grow_slots() != 0:
        return -1
    if 2 * (slot + 1) > ws.mask + 1 and ws.grow_table() != 0:
        return -1
    i = place_of(cell, ws.shift)
    while ws.table[i].cell >= 0:
        i = (i + 1) & ws.mask
    ws.table[i].cell = <int32_t> cell
    ws.table[i].slot = <int32_t> slot
    ws.cells[slot] = <int32_t> cell
    ws.cell[slot].mark = 0  # older than every generation: unreached
    ws.used = slot + 1
    return slot


cdef inline Py_ssize_t offer(
    Query* q, HashedWorkspace ws, Outcome* out, Py_ssize_t v, double d
) noexcept nogil:
    """``machine.improves`` for the cell ``v`` reached at cost ``d``: its slot (a new
    one for a cell first reached) when the step is offered to the open list; -1 when
    it is not, -2 when memory ran out."""
    cdef Py_ssize_t vs = slot_of(ws, v)
    if vs >= 0:
        return vs if improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, vs, d) else -1
    if d > q.s.max_cost:
        out.pruned = True
        return -1
    vs = new_slot(ws, v)
    return -2 if vs < 0 else vs


cdef inline int relax(
    Query* q, HashedWorkspace ws, Outcome* out,
    Py_ssize_t us, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil:
    """``grid_search.relax`` on slots: offer the step from the slot ``us`` to the cell
    ``v`` (at padded row ``vr``, column ``vc``); -1 when memory ran out."""
    cdef double d = gu + step
    cdef Py_ssize_t vs = offer(q, ws, out, v, d)
    if vs < 0:
        return -1 if vs == -2 else 0
    return open_node(
        ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, us, vs, d, heuristic_rc(q, vr, vc)
    )


cdef int hashed_relax(
    Query* q, HashedWorkspace ws, Outcome* out,
    Py_ssize_t us, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil:
    """:func:`relax` for other kernels (the jump point search's loop on slots,
    ``jps.run_jps_hashed``): offer the step from the slot ``us`` to the cell ``v``;
    -1 when memory ran out."""
    return relax(q, ws, out, us, gu, v, vr, vc, step)


cdef int hashed_open_start(
    Query* q, HashedWorkspace ws, Py_ssize_t start, Outcome* out
) noexcept nogil:
    """``grid_search.open_start`` on a hashed workspace: a new query at ``start``
    (the cell gets slot 0); -1 when memory ran out."""
    cdef int i
    cdef Py_ssize_t ss
    ws.next_generation()
    begin(out)
    ss = offer(q, ws, out, start, 0.0)
    if ss < 0:
        return -1 if ss == -2 else 0
    if not q.buckets:
        return open_node(
            ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, -1, ss, 0.0, heuristic(q, start)
        )
    for i in range(3):
        ws.ring[i].size = 0
    ws.cell[ss].g = 0.0
    ws.cell[ss].parent = -1
    ws.cell[ss].mark = ws.gen
    ws.level = steps_to_goal(q, start // q.width, start % q.width)
    out.generated += 1
    return bucket_push(&ws.ring[ws.level % 3], ss)


cdef int run_hashed(Query* q, HashedWorkspace ws, Outcome* out, int64_t budget) noexcept nogil:
    """``grid_search.run_search`` on a hashed workspace: expand at most ``budget``
    cells (-1: no bound); -1 when memory ran out. Past ``dense_at`` cells reached,
    the grid kernel's own loop on the dense arrays (:meth:`HashedWorkspace.densify`)."""
    if ws.dense:
        return run_search(q, ws, out, budget)
    if q.buckets:
        return run_hashed_buckets(q, ws, out, budget)
    cdef Py_ssize_t us, u, v, ur, uc
    cdef Py_ssize_t W = q.width
    cdef double gu, c
    cdef const double* cost = q.cost
    cdef int k
    cdef int64_t left = budget

    while True:
        if ws.used >= ws.dense_at and ws.densify() == 0:
            return run_search(q, ws, out, left)
        us = next_node(ws, out, &left, q.s.max_expansions, False, q.goal >= 0)
        if us < 0:
            return stop(us)
        u = ws.cells[us]
        if u == q.goal:
            found(out, u)
            return 0
        gu = ws.cell[us].g
        ur = u // W
        uc = u - ur * W
        if q.s.partial:
            note_best(out, u, heuristic_rc(q, ur, uc))
        for k in range(4):
            v = u + DR[k] * W + DC[k]
            c = cost[v]
            if c != INFINITY:
                if relax(q, ws, out, us, gu, v, ur + DR[k], uc + DC[k], c) != 0:
                    return -1
        if q.diagonal == NEVER:
            continue
        for k in range(4, 8):
            v = u + DR[k] * W + DC[k]
            c = cost[v]
            if c == INFINITY:
                continue
            if not corner_open(cost, u + DR[k] * W, u + DC[k], q.diagonal):
                continue
            if relax(q, ws, out, us, gu, v, ur + DR[k], uc + DC[k], c * SQRT2) != 0:
                return -1


# The bucket open list of grid_search (Dial's buckets of f counted in steps), holding
# slots: the same pushes and pops as ``grid_search.run_buckets`` (its pieces, from
# grid_search.pxd, index ``ws.cell``: here the slots).

cdef int run_hashed_buckets(
    Query* q, HashedWorkspace ws, Outcome* out, int64_t budget
) noexcept nogil:
    """``grid_search.run_buckets`` on a hashed workspace."""
    cdef Py_ssize_t us, u, v, vs, ur, uc, hu, f, k
    cdef Py_ssize_t W = q.width
    cdef bint manhattan = q.hkind == H_MANHATTAN
    cdef Py_ssize_t dh[4]
    cdef double gu, d, c
    cdef const double* cost = q.cost
    cdef int64_t left = budget
    cdef Py_ssize_t offset[4]
    offset[0] = -W
    offset[1] = W
    offset[2] = -1
    offset[3] = 1

    while True:
        if ws.used >= ws.dense_at and ws.densify() == 0:
            return run_search(q, ws, out, left)
        us = next_bucket_node(q, ws, out, &left, q.goal >= 0)
        if us < 0:
            return stop(us)
        u = ws.cells[us]
        if u == q.goal:
            found(out, u)
            return 0
        gu = ws.cell[us].g
        ur = u // W
        uc = u - ur * W
        hu = steps_to_goal(q, ur, uc)
        if q.s.partial:
            note_best(out, u, hu * q.hscale)
        if manhattan:
            dh[0] = -1 if ur > q.goal_r else 1
            dh[1] = -1 if ur < q.goal_r else 1
            dh[2] = -1 if uc > q.goal_c else 1
            dh[3] = -1 if uc < q.goal_c else 1
        for k in range(4):
            v = u + offset[k]
            c = cost[v]
            if c == INFINITY:
                continue
            d = gu + c
            vs = offer(q, ws, out, v, d)
            if vs < 0:
                if vs == -2:
                    return -1
                continue
            ws.cell[vs].g = d
            ws.cell[vs].parent = <int32_t> us
            ws.cell[vs].mark = ws.gen
            if manhattan:
                f = ws.level + 1 + dh[k]
            else:
                f = ws.level - hu + 1 + steps_to_goal(q, v // W, v - (v // W) * W)
            out.generated += 1
            if bucket_push(&ws.ring[f % 3], vs) != 0:
                return -1
