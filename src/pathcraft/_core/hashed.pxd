# cython: language_level=3
"""Search state sized by the cells a search touches: the workspace of a sliced grid
search that gets no pooled workspace (see ``hashed.pyx``)."""

from libc.stdint cimport int32_t, int64_t

from pathcraft._core.grid_search cimport Query, Workspace
from pathcraft._core.machine cimport Outcome, Slot


cdef struct Entry:
    # One place of the open-addressing table: a cell and its slot (cell -1: empty).
    int32_t cell
    int32_t slot


cdef class HashedWorkspace(Workspace):
    # The skeleton's per-node arrays (``cell``: the slots, ``pos``: their heap places)
    # indexed by slot, not by cell: slots are given out in the order cells are first
    # reached, and ``table`` maps a cell to its slot. The heap and the bucket stacks
    # hold slots; ``cells`` gives each slot's cell; parents are slots.
    cdef Entry* table
    cdef Py_ssize_t mask          # table places - 1 (a power of two)
    cdef int shift                # 64 - log2(table places): the hash's top bits
    cdef int32_t* cells
    cdef Py_ssize_t used          # slots given out this query
    cdef Py_ssize_t room          # slots allocated
    cdef readonly Py_ssize_t map_cells  # the padded grid's cells (what it may reach)
    # Past ``dense_at`` slots the search moves to dense arrays of the map's size
    # (``densify``): ``cell`` and ``pos`` then index cells, as a dense workspace's do,
    # and the grid kernel runs on it; the slot arrays wait in ``slot_cell``/``slot_pos``.
    cdef readonly Py_ssize_t dense_at
    cdef readonly bint dense
    cdef Slot* slot_cell
    cdef int32_t* slot_pos

    cdef int grow_slots(self) noexcept nogil
    cdef int grow_table(self) noexcept nogil
    cdef int densify(self) noexcept nogil
    cdef void undensify(self) noexcept nogil


cdef int hashed_open_start(
    Query* q, HashedWorkspace ws, Py_ssize_t start, Outcome* out
) noexcept nogil
cdef int run_hashed(Query* q, HashedWorkspace ws, Outcome* out, int64_t budget) noexcept nogil
cdef int hashed_relax(
    Query* q, HashedWorkspace ws, Outcome* out,
    Py_ssize_t us, double gu, Py_ssize_t v, Py_ssize_t vr, Py_ssize_t vc, double step,
) noexcept nogil
