# cython: language_level=3
"""Declarations of the GOAP kernel (:mod:`goap`): its compiled problem, its plan search
and its object builder, so that the planner's fast path (``pathcraft.goap._fast``)
calls a search with a C call: a small plan costs a few hundred nanoseconds, and a
Python method call on its way would be a tenth of it."""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint64_t

from cpython.object cimport PyObject

from pathcraft._core.heap cimport Heap


cdef struct Node:
    double g
    double h
    uint64_t hash
    int64_t parent
    int32_t via
    int32_t depth
    char closed


@cython.final
cdef class Tables:
    cdef public int width
    cdef public int n_steps
    cdef public int n_goals
    cdef uint64_t* need1  # per step: the facts (slots < 64) its preconditions want at 1
    cdef uint64_t* need0  # ... and at 0 (the other preconditions are listed below)
    cdef uint64_t* set1  # per step: the facts (slots < 64) an effect sets to 1
    cdef uint64_t* set0  # ... to 0
    cdef uint64_t* wild  # ... adds to (any value may follow)
    cdef char* simple  # per step: 1 when its effects are all in set1 and set0
    cdef uint64_t* goal1  # per goal: the facts (slots < 64) it wants at 1
    cdef uint64_t* goal0  # ... and at 0 (its other conditions: see reachable_class)
    # the masks above turned over, for the steps that may apply at a state (see
    # Search.loop): per fact f < min(width, 64) (``lim`` rows) and word w of steps
    # (n_words of them, 64 steps a word), at [f * n_words + w]: the steps needing f at 1
    # (req1), at 0 (req0), the simple steps setting it to 1 (put1), to 0 (put0); per
    # word: the steps whose effects are not all in the masks (rough), every step (every)
    cdef int lim
    cdef int n_words
    cdef uint64_t* req1
    cdef uint64_t* req0
    cdef uint64_t* put1
    cdef uint64_t* put0
    cdef uint64_t* rough
    cdef uint64_t* every
    cdef uint64_t can1  # the facts (slots < 64) some step may set to 1
    cdef uint64_t can0  # ... to 0
    cdef int32_t* pre_off
    cdef int32_t* pre_slot
    cdef int32_t* pre_op
    cdef int64_t* pre_val
    cdef int32_t* eff_off
    cdef int32_t* eff_slot
    cdef int32_t* eff_add
    cdef int64_t* eff_val
    cdef double* cost  # static cost; NaN: ask Python (check or dynamic cost)
    cdef int32_t* gf_off
    cdef int32_t* gf_slot
    cdef int32_t* gf_op
    cdef int64_t* gf_val
    cdef double* gf_set
    cdef double* gf_up
    cdef double* gf_down
    cdef double* gf_any
    cdef int32_t* g_k
    cdef double* g_cheap
    cdef int32_t* pdb_k  # per goal: the facts of its pattern database (see pattern)
    cdef int32_t* pdb_slot  # ... which they are (PDB_FACTS per goal)
    cdef double* pdb  # ... its table (2**PDB_FACTS per goal)
    cdef public bint callbacks

    cdef bint meets(self, int g, const int64_t* x) noexcept nogil
    cdef double bound(self, int g, const int64_t* vals) noexcept nogil
    cdef turn_masks(self)
    cdef pattern(self, int g)


@cython.final
cdef class Maker:
    cdef object cls
    cdef Py_ssize_t* offsets
    cdef Py_ssize_t n

    cdef object build(self, tuple values)
    cdef object blank(self)
    cdef void put(self, object obj, Py_ssize_t k, object value) noexcept


cdef struct Key:
    PyObject* name  # the key (borrowed: the search keeps its names)
    void* type  # the type of its value (borrowed too)
    int32_t slot  # the tracked fact it holds: k, or -2 - k for a str; -1: none
    int32_t at  # where its value goes in a plan's start facts


@cython.final
cdef class Search:
    cdef Tables t
    cdef int W
    cdef int64_t* vals
    cdef Node* nodes
    cdef Py_ssize_t n_nodes
    cdef Py_ssize_t cap_nodes
    cdef int64_t* table
    cdef Py_ssize_t cap_table
    cdef Heap heap
    cdef int64_t* deferred
    cdef Py_ssize_t n_deferred
    cdef Py_ssize_t cap_deferred
    cdef int32_t* class_off
    cdef int32_t* class_goals
    cdef int n_classes
    cdef double* best_g
    cdef int64_t* best_node
    cdef int32_t* best_goal
    cdef int32_t* order
    cdef int32_t* fit  # the steps that may apply at the node expanded (see loop)
    cdef uint64_t* cand  # ... as bits (n_words words; reachable_class uses it too)
    cdef int64_t* scratch
    cdef uint64_t rng
    cdef int tie
    cdef bint shuffle
    cdef double weight
    cdef long long limit_exp
    cdef int32_t depth_limit
    cdef double limit_cost
    cdef public long long expanded
    cdef public long long generated
    cdef bint cut_depth
    cdef bint cut_cost
    cdef public int phase
    cdef public int status
    cdef public int64_t reached
    cdef public int reached_goal
    cdef object callback
    cdef object error
    cdef int64_t cur_node
    cdef Key* layout  # of the dict states plan() reads, one per key (see bind)
    cdef tuple names
    cdef tuple types
    cdef dict rank
    cdef tuple items
    cdef Maker plans  # what plan() answers with (see bind)
    cdef tuple goals
    cdef object considered
    cdef tuple keys_sorted
    cdef tuple reasons  # the words of the outcomes, by code

    cdef object answer(self, double cost, object reason, tuple actions, object start,
                       tuple facts, int goal, double t0)
    cdef set_classes(self, list classes)
    cdef restart(self, long long max_expansions)
    cdef begin(self)
    cdef bint hopeless(self, const int64_t* x) noexcept nogil
    cdef int reachable_class(self, const int64_t* x) noexcept nogil
    cdef void clear_table(self) noexcept nogil
    cdef double class_bound(self, const int64_t* x) noexcept nogil
    cdef int class_meets(self, int c, const int64_t* x) noexcept nogil
    cdef int push(self, int64_t i) noexcept nogil
    cdef int place(self, int64_t i) noexcept nogil
    cdef int grow_table(self) noexcept nogil
    cdef int64_t find(self, const int64_t* x, int32_t depth, uint64_t h) noexcept nogil
    cdef int64_t add(self, const int64_t* x, double g, int64_t parent, int32_t via,
                     int32_t depth, uint64_t h) noexcept nogil
    cdef int next_class(self) noexcept nogil
    cdef int advance(self, long long budget) except -1
    cdef int loop(self, long long budget) noexcept nogil
    cdef double ask(self, int s, int64_t i) noexcept nogil
    cdef tuple items_to(self, int64_t i)
    cpdef object plan(self, dict state, long long max_expansions, list classes,
                      object start=*)


# whether a dict holds these (key, value) pairs, the very objects (see goap.pyx)
cdef bint same_items(dict d, tuple items) noexcept
