# cython: language_level=3
"""Compiled GOAP planning: A* over packed world states, toward goals by priority.

A world state is a vector of ``int64``, one per tracked fact: a bool as 0/1, an int as
itself, a str as its rank among the strings the problem knows (so order conditions on
strs compare ranks), a missing fact as ``MISSING`` (it meets no condition). A
:class:`Tables` holds a problem compiled to flat arrays: each action's preconditions
(fact, operator, value) and effects (fact, set or add, value), its static cost or a
flag that its cost or check is a Python callable, and each goal's conditions with the
heuristic's bounds (see :func:`pathcraft.goap._packed.heuristic`), raised by a small
pattern database per goal (``Tables.pattern``).

A :class:`Search` is one plan search: the A* of :mod:`pathcraft.goap._search` (several
goal classes, states set aside when a class's bound is infinite, the best state of
each lower class noted) with duplicate detection by a hash table over the packed
states (Zobrist hashes: a successor's from its parent's and the facts it changed), run
with the GIL released. A step's preconditions "equals 0" and "equals 1" (every bool
precondition) are bit masks of the facts at 0 and at 1; turned over (per fact, the
steps that want it at 0 or at 1), they give every step that may apply at a state in a
few word operations per fact. Actions
with a callable check or cost call back into Python (the GIL taken for that call only).
Before it searches, the same masks give a relaxed reachability check (which values at 0
and 1 the facts could ever take, what effects undo ignored: see
``Search.reachable_class``), so a goal out of reach costs no search. ``Search.plan``
serves the planner's fast path: it reads a dict state, answers a start that meets the
goal, or from which no goal is in reach (see ``Search.hopeless``), without starting the
search, searches otherwise, and builds the plan (its start state made on first
access, from the values read). :class:`Maker` builds the plan and states slot by slot.
One module past the usual size on purpose: the tables, the search reading them and the
builder of its answer change together, and the search's inner loop reads the tables'
arrays directly.
"""

from libc.math cimport INFINITY
from libc.stdint cimport INT64_MIN, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from cpython.dict cimport PyDict_Next, PyDict_Size
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE, PyTuple_New, PyTuple_SET_ITEM

from pathcraft._core.codes cimport (
    ST_FOUND, ST_IN_PROGRESS, ST_MAX_COST, ST_MAX_EXPANSIONS, ST_UNREACHABLE,
)
from pathcraft._core.grow cimport grow
from pathcraft._core.heap cimport (
    Heap, HeapEntry, TIE_RANDOM, heap_clear, heap_free, heap_init, heap_pop, heap_push,
    splitmix64, tie_key,
)
from pathcraft._core.machine cimport now


cdef extern from "bitscan.h":
    int ctz64 "pathcraft_ctz64"(uint64_t x) noexcept nogil

MISSING = INT64_MIN
cdef object ZERO = 0.0  # the costs of most plans that need no search, made once
cdef object INF = INFINITY
#: Int facts and constants must lie within +-LIMIT (adds never reach the sentinel).
LIMIT = 1 << 62

cdef int64_t LIMIT_C = (<int64_t> 1) << 62
cdef enum:
    PDB_FACTS = 8  # the most facts of a goal's pattern database (256 entries)

# operators, in the order of pathcraft.goap._facts.OPERATORS
cdef enum:
    OP_EQ = 0
    OP_NE = 1
    OP_LT = 2
    OP_LE = 3
    OP_GT = 4
    OP_GE = 5

# outcomes: the kernels' codes (codes.pxd, exported by pathcraft._kernels), and one of
# the planner's own, a search the depth limit cut off
cdef enum:
    C_MAX_DEPTH = 6
    C_ERROR = -1  # a Python callback raised, or memory ran out
MAX_DEPTH = C_MAX_DEPTH


cdef inline void bits(const int64_t* x, int width, uint64_t* ones,
                      uint64_t* zeros) noexcept nogil:
    """The first 64 facts of ``x`` at 1 and at 0, as bit masks."""
    cdef int f, lim = width if width < 64 else 64
    cdef uint64_t one = 0, zero = 0
    for f in range(lim):  # without a branch: the values are as good as random
        one |= (<uint64_t> (x[f] == 1)) << f
        zero |= (<uint64_t> (x[f] == 0)) << f
    ones[0] = one
    zeros[0] = zero


cdef inline bint holds(int op, int64_t x, int64_t v) noexcept nogil:
    if x == INT64_MIN:
        return False
    if op == OP_EQ:
        return x == v
    if op == OP_NE:
        return x != v
    if op == OP_LT:
        return x < v
    if op == OP_LE:
        return x <= v
    if op == OP_GT:
        return x > v
    return x >= v


cdef class Tables:
    """A compiled problem: flat arrays over the tracked facts (built by
    :func:`pathcraft.goap._packed.tables`)."""


    def __cinit__(self, int width, list pre, list eff, list costs, list goals):
        """``pre[s]``: (slot, op, value) triples of step s; ``eff[s]``: (slot, add,
        value); ``costs[s]``: a float or None (call back); ``goals[g]``: (facts, k,
        cheapest) with facts as (slot, op, value, set, up, down, any) tuples."""
        cdef int s, i, n, g
        self.width = width
        self.n_steps = len(costs)
        self.n_goals = len(goals)
        n = sum(len(p) for p in pre)
        self.need1 = <uint64_t*> malloc((self.n_steps + 1) * sizeof(uint64_t))
        self.need0 = <uint64_t*> malloc((self.n_steps + 1) * sizeof(uint64_t))
        self.set1 = <uint64_t*> malloc((self.n_steps + 1) * sizeof(uint64_t))
        self.set0 = <uint64_t*> malloc((self.n_steps + 1) * sizeof(uint64_t))
        self.wild = <uint64_t*> malloc((self.n_steps + 1) * sizeof(uint64_t))
        self.simple = <char*> malloc((self.n_steps + 1) * sizeof(char))
        self.goal1 = <uint64_t*> malloc((self.n_goals + 1) * sizeof(uint64_t))
        self.goal0 = <uint64_t*> malloc((self.n_goals + 1) * sizeof(uint64_t))
        self.pre_off = <int32_t*> malloc((self.n_steps + 1) * sizeof(int32_t))
        self.pre_slot = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.pre_op = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.pre_val = <int64_t*> malloc((n + 1) * sizeof(int64_t))
        n = sum(len(e) for e in eff)
        self.eff_off = <int32_t*> malloc((self.n_steps + 1) * sizeof(int32_t))
        self.eff_slot = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.eff_add = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.eff_val = <int64_t*> malloc((n + 1) * sizeof(int64_t))
        self.cost = <double*> malloc((self.n_steps + 1) * sizeof(double))
        n = sum(len(facts) for facts, _k, _c in goals)
        self.gf_off = <int32_t*> malloc((self.n_goals + 1) * sizeof(int32_t))
        self.gf_slot = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.gf_op = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.gf_val = <int64_t*> malloc((n + 1) * sizeof(int64_t))
        self.gf_set = <double*> malloc((n + 1) * sizeof(double))
        self.gf_up = <double*> malloc((n + 1) * sizeof(double))
        self.gf_down = <double*> malloc((n + 1) * sizeof(double))
        self.gf_any = <double*> malloc((n + 1) * sizeof(double))
        self.g_k = <int32_t*> malloc((self.n_goals + 1) * sizeof(int32_t))
        self.g_cheap = <double*> malloc((self.n_goals + 1) * sizeof(double))
        if (self.need1 == NULL or self.need0 == NULL or self.set1 == NULL
                or self.set0 == NULL or self.wild == NULL or self.simple == NULL or self.goal1 == NULL
                or self.goal0 == NULL
                or self.pre_off == NULL or self.pre_slot == NULL or self.pre_op == NULL
                or self.pre_val == NULL or self.eff_off == NULL or self.eff_slot == NULL
                or self.eff_add == NULL or self.eff_val == NULL or self.cost == NULL
                or self.gf_off == NULL or self.gf_slot == NULL or self.gf_op == NULL
                or self.gf_val == NULL or self.gf_set == NULL or self.gf_up == NULL
                or self.gf_down == NULL or self.gf_any == NULL or self.g_k == NULL
                or self.g_cheap == NULL):
            raise MemoryError("no memory for a compiled GOAP problem")
        self.callbacks = False
        i = 0
        for s in range(self.n_steps):
            self.pre_off[s] = i
            self.need1[s] = self.need0[s] = 0
            for slot, op, value in pre[s]:
                # "equals 0" and "equals 1" (every bool precondition) are tested at
                # once, against bit masks of the facts at 0 and at 1
                if op == OP_EQ and slot < 64 and (value == 0 or value == 1):
                    if value == 1:
                        self.need1[s] |= (<uint64_t> 1) << <int> slot
                    else:
                        self.need0[s] |= (<uint64_t> 1) << <int> slot
                    continue
                self.pre_slot[i] = slot
                self.pre_op[i] = op
                self.pre_val[i] = value
                i += 1
        self.pre_off[self.n_steps] = i
        i = 0
        for s in range(self.n_steps):
            self.eff_off[s] = i
            self.set1[s] = self.set0[s] = self.wild[s] = 0
            self.simple[s] = 1
            for slot, is_add, value in eff[s]:
                if slot < 64 and not is_add and (value == 0 or value == 1):
                    if value == 1:
                        self.set1[s] |= (<uint64_t> 1) << <int> slot
                    else:
                        self.set0[s] |= (<uint64_t> 1) << <int> slot
                else:  # an add, a value past 1, or a fact past the masks
                    self.simple[s] = 0
                    if slot < 64 and (is_add and value != 0):
                        self.wild[s] |= (<uint64_t> 1) << <int> slot
                self.eff_slot[i] = slot
                self.eff_add[i] = is_add
                self.eff_val[i] = value
                i += 1
            if costs[s] is None:
                self.cost[s] = float("nan")
                self.callbacks = True
            else:
                self.cost[s] = costs[s]
        self.eff_off[self.n_steps] = i
        self.turn_masks()
        self.can1 = self.can0 = 0
        for s in range(self.n_steps):
            self.can1 |= self.set1[s] | self.wild[s]
            self.can0 |= self.set0[s] | self.wild[s]
        i = 0
        for g in range(self.n_goals):
            facts, k, cheap = goals[g]
            self.gf_off[g] = i
            self.g_k[g] = k
            self.g_cheap[g] = cheap
            self.goal1[g] = self.goal0[g] = 0
            for slot, op, value, set_bound, up, down, any_add in facts:
                if op == OP_EQ and slot < 64 and (value == 0 or value == 1):
                    if value == 1:
                        self.goal1[g] |= (<uint64_t> 1) << <int> slot
                    else:
                        self.goal0[g] |= (<uint64_t> 1) << <int> slot
                self.gf_slot[i] = slot
                self.gf_op[i] = op
                self.gf_val[i] = value
                self.gf_set[i] = set_bound
                self.gf_up[i] = up
                self.gf_down[i] = down
                self.gf_any[i] = any_add
                i += 1
        self.gf_off[self.n_goals] = i
        self.pdb_k = <int32_t*> malloc((self.n_goals + 1) * sizeof(int32_t))
        self.pdb_slot = <int32_t*> malloc((self.n_goals * PDB_FACTS + 1) * sizeof(int32_t))
        self.pdb = <double*> malloc((self.n_goals * (1 << PDB_FACTS) + 1) * sizeof(double))
        if self.pdb_k == NULL or self.pdb_slot == NULL or self.pdb == NULL:
            raise MemoryError("no memory for a compiled GOAP problem")
        for g in range(self.n_goals):
            self.pattern(g)

    cdef turn_masks(self):
        """The step masks turned over: per fact, the steps that want or set it (see
        the declarations in goap.pxd)."""
        cdef int s, f, w, nw = (self.n_steps + 63) // 64
        cdef uint64_t bit
        cdef size_t n
        self.lim = self.width if self.width < 64 else 64
        self.n_words = nw
        n = (self.lim * nw + 1) * sizeof(uint64_t)
        self.req1 = <uint64_t*> calloc(1, n)
        self.req0 = <uint64_t*> calloc(1, n)
        self.put1 = <uint64_t*> calloc(1, n)
        self.put0 = <uint64_t*> calloc(1, n)
        self.rough = <uint64_t*> calloc(nw + 1, sizeof(uint64_t))
        self.every = <uint64_t*> calloc(nw + 1, sizeof(uint64_t))
        if (self.req1 == NULL or self.req0 == NULL or self.put1 == NULL
                or self.put0 == NULL or self.rough == NULL or self.every == NULL):
            raise MemoryError("no memory for a compiled GOAP problem")
        for s in range(self.n_steps):
            w = s >> 6
            bit = (<uint64_t> 1) << (s & 63)
            self.every[w] |= bit
            if not self.simple[s]:
                self.rough[w] |= bit
            for f in range(self.lim):
                if (self.need1[s] >> f) & 1:
                    self.req1[f * nw + w] |= bit
                if (self.need0[s] >> f) & 1:
                    self.req0[f * nw + w] |= bit
                if self.simple[s] and (self.set1[s] >> f) & 1:
                    self.put1[f * nw + w] |= bit
                if self.simple[s] and (self.set0[s] >> f) & 1:
                    self.put0[f * nw + w] |= bit

    cdef pattern(self, int g):
        """Goal ``g``'s pattern database: over up to PDB_FACTS facts only ever set to 0
        or 1 (the goal's own, then those its achievers' preconditions want at 0 or 1,
        then those their achievers' want, and so on),
        the cheapest cost to the goal from each combination of their values, where a
        step runs when its preconditions on them hold and costs its static cost (0 when
        Python gives it). Any plan, seen on these facts alone, is such a path: the
        table is an admissible, consistent bound (see :meth:`bound`)."""
        cdef uint64_t impure = 0, bit, p1, p0, e1, e0, g1 = 0, g0 = 0, want = 0
        cdef int s, e, i, j, k, slot, a, n, succ
        cdef double c, d
        cdef list slots = []
        cdef bint changed = True
        for e in range(self.eff_off[self.n_steps]):
            if self.eff_slot[e] < 64 and (self.eff_add[e] or not 0 <= self.eff_val[e] <= 1):
                impure |= (<uint64_t> 1) << self.eff_slot[e]
        for i in range(self.gf_off[g], self.gf_off[g + 1]):
            slot = self.gf_slot[i]
            if (self.gf_op[i] == OP_EQ and slot < 64 and 0 <= self.gf_val[i] <= 1
                    and not (impure >> slot) & 1 and slot not in slots
                    and len(slots) < PDB_FACTS):
                slots.append(slot)
                want |= (<uint64_t> 1) << slot
        while changed and len(slots) < PDB_FACTS:  # the achievers' wants, level by level
            changed = False
            for s in range(self.n_steps):
                if (self.set1[s] | self.set0[s]) & want:
                    for slot in range(64):
                        bit = (<uint64_t> 1) << slot
                        if ((self.need1[s] | self.need0[s]) & bit and not impure & bit
                                and slot not in slots and len(slots) < PDB_FACTS):
                            slots.append(slot)
                            changed = True
            for slot in slots:
                want |= (<uint64_t> 1) << <int> slot
        changed = True
        k = len(slots)
        self.pdb_k[g] = k
        if k == 0:
            return
        for j in range(k):
            self.pdb_slot[g * PDB_FACTS + j] = slots[j]
        for i in range(self.gf_off[g], self.gf_off[g + 1]):
            if self.gf_op[i] == OP_EQ and self.gf_slot[i] in slots:
                j = slots.index(self.gf_slot[i])
                if self.gf_val[i] == 1:
                    g1 |= (<uint64_t> 1) << j
                elif self.gf_val[i] == 0:
                    g0 |= (<uint64_t> 1) << j
        n = 1 << k
        cdef double* dist = &self.pdb[g * (1 << PDB_FACTS)]
        for a in range(n):
            dist[a] = 0.0 if (a & g1) == g1 and (~a & g0) == g0 else INFINITY
        # each step seen on the pattern's facts, once: what it wants and sets there (a
        # step setting none of them cannot lower a cost, and is left out)
        cdef int pat[PDB_FACTS]
        cdef uint64_t* seen = <uint64_t*> malloc((4 * self.n_steps + 1) * sizeof(uint64_t))
        cdef double* seen_cost = <double*> malloc((self.n_steps + 1) * sizeof(double))
        cdef int m = 0
        if seen == NULL or seen_cost == NULL:
            free(seen)
            free(seen_cost)
            raise MemoryError("no memory for a compiled GOAP problem")
        for j in range(k):
            pat[j] = slots[j]
        for s in range(self.n_steps):
            p1 = p0 = e1 = e0 = 0
            for j in range(k):
                bit = (<uint64_t> 1) << pat[j]
                if self.need1[s] & bit:
                    p1 |= (<uint64_t> 1) << j
                if self.need0[s] & bit:
                    p0 |= (<uint64_t> 1) << j
                if self.set1[s] & bit:
                    e1 |= (<uint64_t> 1) << j
                if self.set0[s] & bit:
                    e0 |= (<uint64_t> 1) << j
            if e1 | e0:
                seen[4 * m] = p1
                seen[4 * m + 1] = p0
                seen[4 * m + 2] = e1
                seen[4 * m + 3] = e0
                seen_cost[m] = self.cost[s] if self.cost[s] == self.cost[s] else 0.0
                m += 1
        while changed:  # Bellman-Ford over at most 2**PDB_FACTS states
            changed = False
            for i in range(m):
                p1 = seen[4 * i]
                p0 = seen[4 * i + 1]
                e1 = seen[4 * i + 2]
                e0 = seen[4 * i + 3]
                c = seen_cost[i]
                for a in range(n):
                    if (a & p1) != p1 or (~a & p0) != p0:
                        continue
                    succ = <int> ((a | e1) & ~e0)
                    d = c + dist[succ]
                    if d < dist[a]:
                        dist[a] = d
                        changed = True
        free(seen)
        free(seen_cost)

    def __dealloc__(self):
        free(self.req1)
        free(self.req0)
        free(self.put1)
        free(self.put0)
        free(self.rough)
        free(self.every)
        free(self.need1)
        free(self.need0)
        free(self.set1)
        free(self.set0)
        free(self.wild)
        free(self.simple)
        free(self.goal1)
        free(self.goal0)
        free(self.pre_off)
        free(self.pre_slot)
        free(self.pre_op)
        free(self.pre_val)
        free(self.eff_off)
        free(self.eff_slot)
        free(self.eff_add)
        free(self.eff_val)
        free(self.cost)
        free(self.gf_off)
        free(self.gf_slot)
        free(self.gf_op)
        free(self.gf_val)
        free(self.gf_set)
        free(self.gf_up)
        free(self.gf_down)
        free(self.gf_any)
        free(self.g_k)
        free(self.g_cheap)
        free(self.pdb_k)
        free(self.pdb_slot)
        free(self.pdb)

    def bound_of(self, int g, const int64_t[::1] x not None):
        """:meth:`bound` of goal ``g`` from the packed state ``x`` (for tests)."""
        if x.shape[0] != self.width or not 0 <= g < self.n_goals:
            raise ValueError("a packed state of the tables' width and a goal index")
        return self.bound(g, &x[0]) if self.width else self.bound(g, NULL)

    cdef bint meets(self, int g, const int64_t* x) noexcept nogil:
        cdef int i
        for i in range(self.gf_off[g], self.gf_off[g + 1]):
            if not holds(self.gf_op[i], x[self.gf_slot[i]], self.gf_val[i]):
                return False
        return True

    cdef double bound(self, int g, const int64_t* vals) noexcept nogil:
        """The goal's admissible, consistent bound (as _compile.heuristic)."""
        cdef int i, op, unmet = 0, index = 0
        cdef int64_t x, target, need
        cdef double worst = 0.0, b, by_adds, count
        for i in range(self.gf_off[g], self.gf_off[g + 1]):
            op = self.gf_op[i]
            x = vals[self.gf_slot[i]]
            if holds(op, x, self.gf_val[i]):
                continue
            unmet += 1
            b = self.gf_set[i]
            if x != INT64_MIN and self.gf_any[i] != INFINITY:
                if op == OP_NE:
                    if self.gf_any[i] < b:
                        b = self.gf_any[i]
                else:
                    target = self.gf_val[i]
                    if op == OP_GT:
                        target += 1
                    elif op == OP_LT:
                        target -= 1
                    need = target - x
                    if need > 0:
                        by_adds = need * self.gf_up[i]
                    else:
                        by_adds = -need * self.gf_down[i]
                    if by_adds < b:
                        b = by_adds
            if b > worst:
                worst = b
        if unmet == 0:
            return 0.0
        if self.g_k[g] == 0:
            return INFINITY
        count = ((unmet + self.g_k[g] - 1) // self.g_k[g]) * self.g_cheap[g]
        if count > worst:
            worst = count
        # the pattern database, when its facts are all at 0 or 1 (they stay so)
        for i in range(self.pdb_k[g]):
            x = vals[self.pdb_slot[g * PDB_FACTS + i]]
            if x == 1:
                index |= 1 << i
            elif x != 0:
                return worst
        if self.pdb_k[g] and self.pdb[g * (1 << PDB_FACTS) + index] > worst:
            return self.pdb[g * (1 << PDB_FACTS) + index]
        return worst


cdef extern from "Python.h":
    void* type_of "Py_TYPE"(PyObject* o) noexcept nogil
    # the bools as pointers (``<PyObject*> True`` would be the C constant 1)
    PyObject* PY_TRUE "Py_True"
    PyObject* PY_FALSE "Py_False"
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(type t, Py_ssize_t n)


cdef class Maker:
    """Builds objects of a slots class (a frozen dataclass too) with their slots set
    straight from a tuple, as ``cls.__new__`` then one store per slot: no
    ``__init__`` and no ``__setattr__`` (a result of 16 fields built about 20x
    faster). Only for classes whose ``__init__`` does nothing but store its fields,
    with values already checked.

    Parameters
    ----------
    cls : type
    names : tuple of str
        The slots to set, in the order of the tuples :meth:`make` takes; each must be
        a slot (a member descriptor) of ``cls`` or a base class.
    """


    def __cinit__(self, cls, tuple names):
        import types

        cdef Py_ssize_t k
        self.cls = cls
        self.n = len(names)
        self.offsets = <Py_ssize_t*> malloc((self.n + 1) * sizeof(Py_ssize_t))
        if self.offsets == NULL:
            raise MemoryError()
        for k in range(self.n):
            descr = None
            for klass in cls.__mro__:
                if names[k] in vars(klass):
                    descr = vars(klass)[names[k]]
                    break
            if type(descr) is not types.MemberDescriptorType:
                raise TypeError(f"{names[k]!r} is not a slot of {cls.__name__}")
            self.offsets[k] = (<PyMemberDescrObject*> descr).d_member.offset
        if cls.__new__ is not object.__new__ or "__dict__" in dir(cls):
            raise TypeError(f"{cls.__name__} must be a slots class without its own __new__")

    def __dealloc__(self):
        free(self.offsets)

    def make(self, tuple values):
        """A new object with the slots set to ``values``."""
        return self.build(values)

    cdef object build(self, tuple values):
        if len(values) != self.n:
            raise ValueError(f"{self.n} values expected; got {len(values)}")
        cdef object obj = PyType_GenericAlloc(<type> self.cls, 0)  # what object.__new__ does
        cdef Py_ssize_t k
        for k in range(self.n):
            self.put(obj, k, values[k])
        return obj

    cdef object blank(self):
        """A new object, its slots unset (fill every one with :meth:`put`)."""
        return PyType_GenericAlloc(<type> self.cls, 0)

    cdef void put(self, object obj, Py_ssize_t k, object value) noexcept:
        """Set slot ``k`` (of the names given) of ``obj``."""
        cdef PyObject** slot = <PyObject**> ((<char*> <void*> obj) + self.offsets[k])
        Py_INCREF(value)
        Py_XDECREF(slot[0])
        slot[0] = <PyObject*> value

    def state(self, dict facts):
        """For :class:`pathcraft.goap.State` (slots ``_facts``, ``_hash``): a state
        over ``facts``, its hash not computed yet."""
        return self.build((facts, None))

    def replay(self, dict facts, tuple actions):
        """The states after each action from ``facts`` (sorted by name), for a
        :class:`State` maker: each action's ``_sets`` dict updates a copy of the facts
        and its ``_adds`` pairs add to them; a fact new to the state sorts them anew."""
        cdef list out = []
        cdef dict new
        cdef Py_ssize_t size
        for action in actions:
            new = facts.copy()
            size = len(new)
            new.update(action._sets)
            for fact, delta in action._adds:
                new[fact] += delta
            if len(new) != size:
                new = dict(sorted(new.items()))
            out.append(self.build((new, None)))
            facts = new
        return out


cdef inline uint64_t mix(int k, int64_t v) noexcept nogil:
    """The hash of fact ``k`` holding ``v`` (``k = -1``: the depth)."""
    cdef uint64_t z = (<uint64_t> v * 0x9E3779B97F4A7C15ULL
                       + <uint64_t> (k + 1) * 0xD1B54A32D192ED03ULL)
    z = (z ^ (z >> 32)) * 0xBF58476D1CE4E5B9ULL
    return z ^ (z >> 29)


cdef inline uint64_t hash_state(const int64_t* x, int n, int32_t depth) noexcept nogil:
    """A node's hash: its facts' and its depth's, xor-ed (Zobrist hashing), so that a
    step's successor is hashed from its parent's hash and the facts it changed."""
    cdef uint64_t h = mix(-1, depth)
    cdef int i
    for i in range(n):
        h ^= mix(i, x[i])
    return h


cdef bint same_items(dict d, tuple items) noexcept:
    """Whether ``d`` holds the pairs of ``items`` (key, value, key, value...), in this
    order and the very objects: a dict changed since ``items`` were read from it is
    seen as changed (or as holding equal pairs anew, which is the same). For the
    planner's fast path: has a goal passed again been changed in place?"""
    cdef Py_ssize_t pos = 0, i = 0
    cdef PyObject* key
    cdef PyObject* value
    if d is None or PyDict_Size(d) * 2 != PyTuple_GET_SIZE(items):
        return False
    while PyDict_Next(d, &pos, &key, &value):
        if key != PyTuple_GET_ITEM(items, i) or value != PyTuple_GET_ITEM(items, i + 1):
            return False
        i += 2
    return True


cdef class Search:
    """One plan search over packed states (see the module docstring).

    Parameters
    ----------
    tables : Tables
    start : ndarray of int64 or bytes-like, the packed start state
    classes : list of lists of int
        Goal indices by priority class, highest first.
    callback : callable or None
        ``callback(step, node, search) -> float``: the cost of step ``step`` from node
        ``node`` (read with ``search.state(node)``), or -1 when its check fails.
    """


    def __cinit__(self, Tables tables not None, const int64_t[::1] start, list classes,
                  object callback, double weight, int tie, uint64_t seed,
                  long long max_expansions, int depth_limit, double max_cost):
        cdef int c, i, n
        self.t = tables
        self.W = tables.width
        self.n_classes = len(classes)
        n = sum(len(c_) for c_ in classes)  # room for as many classes as goals
        self.class_off = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.class_goals = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.best_g = <double*> malloc((n + 1) * sizeof(double))
        self.best_node = <int64_t*> malloc((n + 1) * sizeof(int64_t))
        self.best_goal = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.order = <int32_t*> malloc((tables.n_steps + 1) * sizeof(int32_t))
        self.fit = <int32_t*> malloc((tables.n_steps + 1) * sizeof(int32_t))
        self.cand = <uint64_t*> malloc((tables.n_words + 1) * sizeof(uint64_t))
        self.scratch = <int64_t*> malloc((self.W + 1) * sizeof(int64_t))
        self.cap_nodes = 16
        self.vals = <int64_t*> malloc(self.cap_nodes * (self.W + 1) * sizeof(int64_t))
        self.nodes = <Node*> malloc(self.cap_nodes * sizeof(Node))
        self.cap_table = 32
        self.table = <int64_t*> malloc(self.cap_table * sizeof(int64_t))
        self.cap_deferred = 0
        self.deferred = NULL
        if (self.class_off == NULL or self.class_goals == NULL or self.best_g == NULL
                or self.best_node == NULL or self.best_goal == NULL or self.order == NULL or self.fit == NULL
                or self.cand == NULL
                or self.scratch == NULL or self.vals == NULL or self.nodes == NULL
                or self.table == NULL or heap_init(&self.heap, 16) != 0):
            raise MemoryError("no memory for a plan search")
        memset(self.table, 0xFF, self.cap_table * sizeof(int64_t))
        i = 0
        for c in range(self.n_classes):
            self.class_off[c] = i
            self.best_g[c] = INFINITY
            self.best_node[c] = -1
            self.best_goal[c] = -1
            for g in classes[c]:
                self.class_goals[i] = g
                i += 1
        self.class_off[self.n_classes] = i
        for i in range(tables.n_steps):
            self.order[i] = i
        self.callback = callback
        self.error = None
        self.weight = weight
        self.tie = tie
        self.shuffle = tie == TIE_RANDOM
        self.rng = seed
        self.limit_exp = max_expansions
        self.depth_limit = depth_limit
        self.limit_cost = max_cost
        self.n_nodes = 0
        self.n_deferred = 0
        self.expanded = 0
        self.generated = 0
        self.phase = 0
        self.status = ST_IN_PROGRESS
        self.reached = -1
        self.reached_goal = -1
        self.cur_node = -1
        self.layout = NULL
        if start.shape[0] != self.W:
            raise ValueError("the packed start state has the wrong width")
        if self.W:
            memcpy(self.scratch, &start[0], self.W * sizeof(int64_t))
        self.begin()

    def __dealloc__(self):
        free(self.class_off)
        free(self.class_goals)
        free(self.best_g)
        free(self.best_node)
        free(self.best_goal)
        free(self.order)
        free(self.fit)
        free(self.cand)
        free(self.scratch)
        free(self.vals)
        free(self.nodes)
        free(self.table)
        free(self.deferred)
        free(self.layout)
        heap_free(&self.heap)

    def bind(self, tuple names not None, tuple types not None, positions, strs,
             dict rank not None, tuple items not None, Maker plans not None,
             tuple goals not None, object considered, tuple order, dict reasons not None):
        """The layout of the dict states :meth:`plan` reads: their keys in order and the
        type of each value; where each tracked fact is among them (``positions[k]``: its
        place in the dict, -1 when missing) and whether it is a str (coded by its rank
        in ``rank``); ``items``, one per step, what a plan lists for each. And what
        its answers are built with: ``plans`` makes a plan from the fields of
        ``pathcraft.goap._fast`` (``_FIELDS``), its start's facts (``_facts``) the keys
        in ``order`` (when given, else as they are) then the values in that order,
        ``goals`` the goals by index, ``considered`` the count of steps, ``reasons``
        the words of the outcomes."""
        cdef Py_ssize_t k, p, n = len(names)
        cdef Key* layout
        if (len(types) != n or len(positions) != self.W or len(strs) != self.W
                or len(items) != self.t.n_steps):
            raise ValueError(
                "one type per key, one position and one flag per tracked fact, one item "
                "per step")
        if plans.n != 15:
            raise ValueError("a maker of plans (15 slots)")
        if order is not None and sorted(order) != sorted(names):
            raise ValueError("the keys in order must be the keys")
        where = {name: i for i, name in enumerate(names if order is None else order)}
        layout = <Key*> malloc((n + 1) * sizeof(Key))
        if layout == NULL:
            raise MemoryError()
        for p in range(n):  # borrowed: the search keeps names and types
            layout[p].name = <PyObject*> names[p]
            layout[p].type = <void*> types[p]
            layout[p].slot = -1
            layout[p].at = where[names[p]] + 1
        for k in range(self.W):
            p = positions[k]
            if p >= 0:
                if p >= n:
                    free(layout)
                    raise ValueError("a position past the keys")
                layout[p].slot = -2 - k if strs[k] else k
        free(self.layout)
        self.layout = layout
        self.names = names
        self.types = types
        self.rank = rank
        self.items = items
        self.plans = plans
        self.goals = goals
        self.considered = considered
        self.keys_sorted = names if order is None else order
        self.reasons = tuple([reasons.get(code) for code in range(C_MAX_DEPTH + 1)])

    cpdef object plan(self, dict state, long long max_expansions, list classes,
                      object start=None):
        """Start anew from ``state``, a dict laid out as :meth:`bind` said, toward
        ``classes`` (None: as before), and run to the end: the plan, built as bound,
        its start ``start`` (None: the plan makes it on first access from the keys and
        the values read, kept in a tuple: cheaper than a copy of the dict and a
        state). None when the state's keys or value types are not the bound ones;
        False when it holds a str the ranks do not know (the search left as it was,
        either way)."""
        cdef double t0 = now()
        cdef Py_ssize_t pos = 0, p = 0, k
        cdef PyObject* key
        cdef PyObject* value
        cdef int64_t* y = self.scratch
        cdef Key* layout = self.layout
        cdef dict rank = self.rank
        cdef object v, r
        cdef tuple facts = None
        cdef int status, goal
        cdef int64_t iv
        if state is None:
            raise TypeError("state must be a dict")
        if layout == NULL:
            raise RuntimeError("bind() the search first")
        if self.vals == NULL:
            raise RuntimeError("this search was released")
        if PyDict_Size(state) != len(self.names):
            return None
        if start is None:  # the keys, then the values as read (in the keys' order)
            facts = PyTuple_New(len(self.names) + 1)
            Py_INCREF(self.keys_sorted)
            PyTuple_SET_ITEM(facts, 0, self.keys_sorted)
        for k in range(self.W):
            y[k] = INT64_MIN
        # one pass over the dict: its keys and value types checked against the layout
        # (a key is most often the very string bound), each tracked value packed
        while PyDict_Next(state, &pos, &key, &value):
            if (key != layout[p].name and not (<object> key == <object> layout[p].name)
                    or type_of(value) != layout[p].type):
                return None
            if facts is not None:
                Py_INCREF(<object> value)
                PyTuple_SET_ITEM(facts, layout[p].at, <object> value)
            k = layout[p].slot
            p += 1
            if k >= 0:
                if value == PY_TRUE:  # most facts are bools: no conversion
                    iv = 1
                elif value == PY_FALSE:
                    iv = 0
                else:
                    v = <object> value
                    try:
                        iv = v
                    except OverflowError:
                        iv = LIMIT_C + 1
                    if not -LIMIT_C <= iv <= LIMIT_C:
                        raise ValueError(
                            f"the planner packs int facts within -2**62..2**62; got {v!r}")
                y[k] = iv
            elif k != -1:
                r = rank.get(<object> value)
                if r is None:
                    return False
                y[-2 - k] = <int64_t> r
        if classes is not None:
            self.set_classes(classes)
        goal = self.class_meets(0, y) if max_expansions != 0 else -1
        if goal >= 0:
            # the start meets a goal of the first class: the search's answer after
            # expanding it, without the search (what it left is cleared next time)
            self.expanded = self.generated = 1
            self.phase = 0
            self.status = ST_FOUND
            self.reached = -1
            self.reached_goal = goal
        elif self.hopeless(y):
            # no goal within reach of any plan: the search's answer (nothing expanded,
            # the last class served), without starting it
            self.expanded = self.generated = 0
            self.phase = self.n_classes - 1
            status = self.status = ST_UNREACHABLE
            self.reached = -1
        else:
            self.restart(max_expansions)
            status = self.advance(-1)
        if goal >= 0:
            return self.answer(0.0, None, (), start, facts, goal, t0)
        if self.reached < 0:
            return self.answer(INFINITY, self.reasons[status], (), start, facts,
                               self.class_goals[self.class_off[self.phase]], t0)
        return self.answer(self.nodes[self.reached].g, None, self.items_to(self.reached),
                           start, facts, self.reached_goal, t0)

    cdef object answer(self, double cost, object reason, tuple actions, object start,
                       tuple facts, int goal, double t0):
        """The plan, its slots as ``pathcraft.goap._fast._FIELDS`` names them: its start
        ``start``, or when None (left unset), made from ``facts`` on first access."""
        cdef Maker m = self.plans
        cdef object plan = m.blank()
        m.put(plan, 0, ZERO if cost == 0.0 else INF if cost == INFINITY else cost)
        m.put(plan, 1, reason is None)
        m.put(plan, 2, reason)
        m.put(plan, 3, self.expanded)
        m.put(plan, 4, self.generated)
        m.put(plan, 6, None)
        m.put(plan, 7, None)
        m.put(plan, 8, None)
        m.put(plan, 9, None)
        m.put(plan, 10, actions)
        if start is not None:
            m.put(plan, 11, start)
        m.put(plan, 12, self.considered)
        m.put(plan, 13, self.goals[goal])
        m.put(plan, 14, facts)
        m.put(plan, 5, now() - t0)
        return plan

    cdef set_classes(self, list classes):
        """Search toward ``classes`` from now on (as many goals as before)."""
        cdef int c, i
        if sum(len(c_) for c_ in classes) != self.class_off[self.n_classes]:
            raise ValueError("classes over another number of goals")
        self.n_classes = len(classes)
        i = 0
        for c in range(self.n_classes):
            self.class_off[c] = i
            for g in classes[c]:
                self.class_goals[i] = g
                i += 1
        self.class_off[self.n_classes] = i

    cdef restart(self, long long max_expansions):
        """Start anew from the packed state in ``scratch``."""
        cdef int c
        for c in range(self.n_classes):
            self.best_g[c] = INFINITY
            self.best_node[c] = -1
            self.best_goal[c] = -1
        heap_clear(&self.heap)
        self.clear_table()
        self.n_nodes = 0
        self.n_deferred = 0
        self.expanded = self.generated = 0
        self.cut_depth = self.cut_cost = False
        self.status = ST_IN_PROGRESS
        self.reached = -1
        self.reached_goal = -1
        self.limit_exp = max_expansions
        self.begin()

    cdef begin(self):
        """Open the start state (in ``scratch``) toward the first class a relaxed plan
        reaches; when none does, the search ends unreachable at once."""
        cdef int c = self.reachable_class(self.scratch)
        if c < 0:
            self.phase = self.n_classes - 1
            self.status = ST_UNREACHABLE
            return
        self.phase = c
        if self.add(self.scratch, 0.0, -1, -1, 0, hash_state(self.scratch, self.W, 0)) < 0:
            raise MemoryError("no memory for a plan search")

    cdef int reachable_class(self, const int64_t* x) noexcept nogil:
        """The first class with a goal that a plan ignoring what effects undo can
        reach from ``x``; -1 when none.

        Over the facts at 0 and at 1 (bits of the first 64 facts): from the start's,
        an action whose "equals 0/1" preconditions the bits meet adds its effects'
        bits (an add makes every value possible), until nothing changes. A fact value
        that a real plan reaches is in the bits (the plan's actions, relaxed, add it
        in turn), so a goal whose "equals 0/1" conditions the bits miss is unreachable.
        Every other condition counts as met (an over-approximation: sound). The steps
        whose preconditions the bits meet come from the masks turned over (as in
        :meth:`loop`), each step's effects added once."""
        cdef const uint64_t* req1 = self.t.req1
        cdef const uint64_t* req0 = self.t.req0
        cdef const uint64_t* every = self.t.every
        cdef uint64_t* applied = self.cand  # the steps whose effects are in the bits
        cdef int nw = self.t.n_words, lim = self.t.lim, w, f
        cdef uint64_t blocked, word, off1, off0
        cdef const uint64_t* set1 = self.t.set1
        cdef const uint64_t* set0 = self.t.set0
        cdef const uint64_t* wild = self.t.wild
        cdef const uint64_t* goal1 = self.t.goal1
        cdef const uint64_t* goal0 = self.t.goal0
        cdef uint64_t r1, r0, n1, n0
        cdef int s, c, i, g
        cdef bint changed = True
        if self.hopeless(x):
            return -1
        bits(x, self.W, &r1, &r0)
        for w in range(nw):
            applied[w] = 0
        while True:
            for c in range(self.n_classes):
                for i in range(self.class_off[c], self.class_off[c + 1]):
                    g = self.class_goals[i]
                    if (r1 & goal1[g]) == goal1[g] and (r0 & goal0[g]) == goal0[g]:
                        return c
                if changed:  # only the first class until the bits stop growing
                    break
            if not changed:
                return -1
            n1 = r1
            n0 = r0
            for w in range(nw):
                blocked = 0
                for f in range(lim):
                    off1 = ((r1 >> f) & 1) - 1  # all ones when the fact cannot be 1
                    off0 = ((r0 >> f) & 1) - 1
                    blocked |= (req1[f * nw + w] & off1) | (req0[f * nw + w] & off0)
                word = every[w] & ~blocked & ~applied[w]
                applied[w] |= word
                while word:
                    s = (w << 6) + ctz64(word)
                    word &= word - 1
                    n1 |= set1[s] | wild[s]
                    n0 |= set0[s] | wild[s]
            changed = n1 != r1 or n0 != r0
            r1 = n1
            r0 = n0

    cdef bint hopeless(self, const int64_t* x) noexcept nogil:
        """Whether every goal wants at 1 (at 0) a fact that is not so at ``x`` and that
        no step sets so (the first test of :meth:`reachable_class`)."""
        cdef const uint64_t* goal1 = self.t.goal1
        cdef const uint64_t* goal0 = self.t.goal0
        cdef uint64_t r1, r0, most1, most0
        cdef int i, g
        bits(x, self.W, &r1, &r0)
        most1 = r1 | self.t.can1
        most0 = r0 | self.t.can0
        for i in range(self.class_off[self.n_classes]):
            g = self.class_goals[i]
            if (most1 & goal1[g]) == goal1[g] and (most0 & goal0[g]) == goal0[g]:
                return False
        return True

    cdef void clear_table(self) noexcept nogil:
        """Empty the hash table: slot by slot for the nodes of a small search before
        (so a planner that once searched far clears little for each small plan), else
        all of it."""
        cdef Py_ssize_t i, j, mask = self.cap_table - 1
        if 32 * self.n_nodes > self.cap_table:
            memset(self.table, 0xFF, self.cap_table * sizeof(int64_t))
            return
        for i in range(self.n_nodes):
            j = <Py_ssize_t> (self.nodes[i].hash & <uint64_t> mask)
            while self.table[j] != i:  # past slots of nodes cleared before it
                j = (j + 1) & mask
            self.table[j] = -1

    def release(self):
        """Drop the search's memory (a cancelled search)."""
        self.status = ST_UNREACHABLE if self.status == ST_IN_PROGRESS else self.status
        heap_free(&self.heap)
        free(self.vals)
        free(self.nodes)
        free(self.table)
        free(self.deferred)
        self.vals = NULL
        self.nodes = NULL
        self.table = NULL
        self.deferred = NULL
        self.n_nodes = self.cap_nodes = self.cap_table = 0
        self.n_deferred = self.cap_deferred = 0

    # ------------------------------------------------------------------ nodes

    cdef double class_bound(self, const int64_t* x) noexcept nogil:
        cdef double best = INFINITY, b
        cdef int i
        for i in range(self.class_off[self.phase], self.class_off[self.phase + 1]):
            b = self.t.bound(self.class_goals[i], x)
            if b < best:
                best = b
        return best

    cdef int class_meets(self, int c, const int64_t* x) noexcept nogil:
        cdef int i
        for i in range(self.class_off[c], self.class_off[c + 1]):
            if self.t.meets(self.class_goals[i], x):
                return self.class_goals[i]
        return -1

    cdef int push(self, int64_t i) noexcept nogil:
        cdef Node* n = &self.nodes[i]
        self.generated += 1
        return heap_push(&self.heap, n.g + self.weight * n.h,
                         tie_key(self.tie, &self.rng, n.g), i)

    cdef int place(self, int64_t i) noexcept nogil:
        """Open the node with the current class's bound, or set it aside."""
        cdef Node* n = &self.nodes[i]
        n.h = self.class_bound(&self.vals[i * self.W])
        if n.h != INFINITY:
            return self.push(i)
        if self.n_deferred == self.cap_deferred and grow(
            <void**> &self.deferred, &self.cap_deferred, 16, sizeof(int64_t)
        ) != 0:
            return -1
        self.deferred[self.n_deferred] = i
        self.n_deferred += 1
        return 0

    cdef int grow_table(self) noexcept nogil:
        cdef Py_ssize_t cap = self.cap_table * 2, i, j
        cdef int64_t* table = <int64_t*> malloc(cap * sizeof(int64_t))
        if table == NULL:
            return -1
        memset(table, 0xFF, cap * sizeof(int64_t))
        for i in range(self.n_nodes):
            j = <Py_ssize_t> (self.nodes[i].hash & <uint64_t> (cap - 1))
            while table[j] >= 0:
                j = (j + 1) & (cap - 1)
            table[j] = i
        free(self.table)
        self.table = table
        self.cap_table = cap
        return 0

    cdef int64_t find(self, const int64_t* x, int32_t depth, uint64_t h) noexcept nogil:
        cdef Py_ssize_t j = <Py_ssize_t> (h & <uint64_t> (self.cap_table - 1))
        cdef int64_t i
        cdef size_t size = self.W * sizeof(int64_t)
        while True:
            i = self.table[j]
            if i < 0:
                return -1
            if (self.nodes[i].hash == h and self.nodes[i].depth == depth
                    and memcmp(&self.vals[i * self.W], x, size) == 0):
                return i
            j = (j + 1) & (self.cap_table - 1)

    cdef int64_t add(self, const int64_t* x, double g, int64_t parent, int32_t via,
                     int32_t depth, uint64_t h) noexcept nogil:
        """A new node (its state copied); -1 when memory ran out."""
        cdef Py_ssize_t cap, j
        cdef int64_t i = self.n_nodes
        cdef void* grown
        if self.n_nodes == self.cap_nodes:
            cap = 2 * self.cap_nodes
            grown = realloc(self.vals, cap * (self.W + 1) * sizeof(int64_t))
            if grown == NULL:
                return -1
            self.vals = <int64_t*> grown
            grown = realloc(self.nodes, cap * sizeof(Node))
            if grown == NULL:
                return -1
            self.nodes = <Node*> grown
            self.cap_nodes = cap
        if 2 * (self.n_nodes + 1) > self.cap_table and self.grow_table() != 0:
            return -1
        if self.W:
            memcpy(&self.vals[i * self.W], x, self.W * sizeof(int64_t))
        self.nodes[i].g = g
        self.nodes[i].hash = h
        self.nodes[i].parent = parent
        self.nodes[i].via = via
        self.nodes[i].depth = depth
        self.nodes[i].closed = 0
        self.n_nodes += 1
        j = <Py_ssize_t> (h & <uint64_t> (self.cap_table - 1))
        while self.table[j] >= 0:
            j = (j + 1) & (self.cap_table - 1)
        self.table[j] = i
        if self.place(i) != 0:
            return -1
        return i

    cdef int next_class(self) noexcept nogil:
        """Turn to the next class (the nodes set aside searched anew): 1, or 0 when
        there is none, -1 when memory ran out."""
        cdef Py_ssize_t k, n
        cdef int64_t i
        cdef int64_t* aside
        self.phase += 1
        if self.phase >= self.n_classes:
            self.phase = self.n_classes - 1
            return 0
        aside = self.deferred
        n = self.n_deferred
        self.deferred = NULL
        self.n_deferred = self.cap_deferred = 0
        for k in range(n):
            i = aside[k]
            if not self.nodes[i].closed and self.nodes[i].h == INFINITY:
                if self.place(i) != 0:
                    free(aside)
                    return -1
                # a node listed twice in ``aside`` is placed once: the second time
                # its h is finite (or it is listed aside again, h still infinite)
        free(aside)
        return 1

    # ------------------------------------------------------------------ search

    def run(self, long long budget):
        """Expand at most ``budget`` states (-1: no limit); the outcome code."""
        return self.advance(budget)

    cdef int advance(self, long long budget) except -1:
        """:meth:`run`, for this module."""
        cdef int status
        cdef long long first = 64 if budget < 0 or budget > 64 else budget
        if self.status != ST_IN_PROGRESS:
            return self.status
        # a small plan ends within the first few expansions: releasing the GIL for
        # it would cost more than the search; a longer one goes on without the GIL
        status = self.loop(first)
        if status == ST_IN_PROGRESS and budget != first:
            with nogil:
                status = self.loop(-1 if budget < 0 else budget - first)
        if status == C_ERROR:
            error = self.error
            self.error = None
            self.status = ST_UNREACHABLE
            if error is None or error is MemoryError:
                raise MemoryError("no memory left for the plan search")
            raise error
        self.status = status
        return status

    cdef int loop(self, long long budget) noexcept nogil:
        cdef HeapEntry top
        cdef int64_t i, j
        cdef int goal, c, s, k, e, r, f
        cdef Node* n
        cdef const int64_t* x
        cdef int64_t* y = self.scratch
        cdef int n_steps = self.t.n_steps
        cdef const char* simple = self.t.simple
        cdef const int32_t* pre_off = self.t.pre_off
        cdef const int32_t* pre_slot = self.t.pre_slot
        cdef const int32_t* pre_op = self.t.pre_op
        cdef const int64_t* pre_val = self.t.pre_val
        cdef const int32_t* eff_off = self.t.eff_off
        cdef const int32_t* eff_slot = self.t.eff_slot
        cdef const int32_t* eff_add = self.t.eff_add
        cdef const int64_t* eff_val = self.t.eff_val
        cdef const double* step_cost = self.t.cost
        cdef int W = self.W
        cdef double d, cost
        cdef int32_t depth
        cdef uint64_t h
        cdef size_t size = W * sizeof(int64_t)
        cdef const int32_t* order = self.order
        cdef int32_t* fit = self.fit
        cdef int n_fit, w
        cdef int nw = self.t.n_words
        cdef int lim = self.t.lim
        cdef const uint64_t* req1 = self.t.req1
        cdef const uint64_t* req0 = self.t.req0
        cdef const uint64_t* put1 = self.t.put1
        cdef const uint64_t* put0 = self.t.put0
        cdef const uint64_t* rough = self.t.rough
        cdef const uint64_t* every = self.t.every
        cdef uint64_t* cand = self.cand
        cdef uint64_t blocked, changes, off1, off0, word
        while True:
            if self.heap.size == 0:
                if self.best_node[self.phase] >= 0:
                    self.reached = self.best_node[self.phase]
                    self.reached_goal = self.best_goal[self.phase]
                    return ST_FOUND
                r = self.next_class()
                if r < 0:
                    return C_ERROR
                if r == 0:
                    if self.cut_depth:
                        return C_MAX_DEPTH
                    return ST_MAX_COST if self.cut_cost else ST_UNREACHABLE
                continue
            if budget == 0:
                return ST_IN_PROGRESS
            top = self.heap.data[0]
            i = top.item
            if self.nodes[i].closed:
                heap_pop(&self.heap, &top)
                continue
            if self.best_node[self.phase] >= 0 and top.key >= self.best_g[self.phase]:
                self.reached = self.best_node[self.phase]
                self.reached_goal = self.best_goal[self.phase]
                return ST_FOUND
            if self.expanded == self.limit_exp:
                return ST_MAX_EXPANSIONS
            heap_pop(&self.heap, &top)
            n = &self.nodes[i]
            n.closed = 1
            self.expanded += 1
            budget -= 1
            x = &self.vals[i * W]
            goal = self.class_meets(self.phase, x)
            if goal >= 0:
                self.reached = i
                self.reached_goal = goal
                return ST_FOUND
            for c in range(self.phase + 1, self.n_classes):
                goal = self.class_meets(c, x)
                if goal >= 0 and n.g < self.best_g[c]:
                    self.best_g[c] = n.g
                    self.best_node[c] = i
                    self.best_goal[c] = goal
            depth = n.depth + 1
            if self.depth_limit >= 0 and depth > self.depth_limit:
                self.cut_depth = True
                continue
            if self.depth_limit < 0:
                depth = 0
            if self.shuffle:
                for k in range(n_steps - 1, 0, -1):
                    r = <int> (splitmix64(&self.rng) % <uint64_t> (k + 1))
                    s = self.order[k]
                    self.order[k] = self.order[r]
                    self.order[r] = s
            self.cur_node = i
            # the steps whose masked preconditions hold, less the simple ones that would
            # change nothing: from the masks turned over, a few word operations per fact
            # (not a test per step, whose outcome a branch would mispredict), as bits
            for w in range(nw):
                blocked = changes = 0
                for f in range(lim):
                    off1 = <uint64_t> 0 - <uint64_t> (x[f] != 1)  # all ones when not at 1
                    off0 = <uint64_t> 0 - <uint64_t> (x[f] != 0)
                    blocked |= (req1[f * nw + w] & off1) | (req0[f * nw + w] & off0)
                    changes |= (put1[f * nw + w] & off1) | (put0[f * nw + w] & off0)
                cand[w] = every[w] & ~blocked & (changes | rough[w])
            # ... listed in the order they are tried
            n_fit = 0
            if self.shuffle:
                for k in range(n_steps):
                    s = order[k]
                    fit[n_fit] = s
                    n_fit += <int> ((cand[s >> 6] >> (s & 63)) & 1)
            else:
                for w in range(nw):
                    word = cand[w]
                    while word:
                        fit[n_fit] = (w << 6) + ctz64(word)
                        n_fit += 1
                        word &= word - 1
            for k in range(n_fit):
                s = fit[k]
                for e in range(pre_off[s], pre_off[s + 1]):
                    if not holds(pre_op[e], x[pre_slot[e]], pre_val[e]):
                        break
                else:
                    if not simple[s]:
                        for e in range(eff_off[s], eff_off[s + 1]):  # a change at all?
                            if (eff_val[e] != 0 if eff_add[e]
                                    else x[eff_slot[e]] != eff_val[e]):
                                break
                        else:
                            continue  # the state it leads to is this one
                    memcpy(y, x, size)
                    for e in range(eff_off[s], eff_off[s + 1]):
                        if eff_add[e]:
                            y[eff_slot[e]] += eff_val[e]
                        else:
                            y[eff_slot[e]] = eff_val[e]
                    cost = step_cost[s]
                    if cost != cost:  # NaN: a check or a dynamic cost, in Python
                        cost = self.ask(s, i)
                        if cost == -2.0:
                            return C_ERROR
                        if cost < 0.0:
                            continue
                    n = &self.nodes[i]
                    d = n.g + cost
                    h = n.hash  # hash_state(y, W, depth) from the parent's
                    if depth != n.depth:
                        h ^= mix(-1, n.depth) ^ mix(-1, depth)
                    for e in range(eff_off[s], eff_off[s + 1]):  # one effect per fact
                        f = eff_slot[e]
                        if y[f] != x[f]:
                            h ^= mix(f, x[f]) ^ mix(f, y[f])
                    j = self.find(y, depth, h)
                    if j < 0:
                        if d > self.limit_cost:
                            self.cut_cost = True
                            continue
                        if self.add(y, d, i, s, depth, h) < 0:
                            return C_ERROR
                        x = &self.vals[i * W]  # the states may have moved
                        n = &self.nodes[i]
                    elif not self.nodes[j].closed and d < self.nodes[j].g:
                        self.nodes[j].g = d
                        self.nodes[j].parent = i
                        self.nodes[j].via = s
                        if self.nodes[j].h != INFINITY and self.push(j) != 0:
                            return C_ERROR

    cdef double ask(self, int s, int64_t i) noexcept nogil:
        """Step ``s``'s cost from node ``i`` by the Python callback: -1 when its check
        fails, -2 when it raised (the error kept)."""
        cdef double cost
        with gil:
            try:
                cost = self.callback(s, i, self)
            except BaseException as exc:
                self.error = exc
                return -2.0
        return cost

    # ------------------------------------------------------------------ reading

    def state(self, int64_t i):
        """The packed state of node ``i``, as a tuple of codes."""
        cdef int k
        cdef const int64_t* x = &self.vals[i * self.W]
        return tuple([x[k] for k in range(self.W)])

    def class_goal(self):
        """The first goal of the class being served (the last when all ended)."""
        return self.class_goals[self.class_off[self.phase]]

    def steps(self, int64_t i):
        """The steps from the start to node ``i``, in order, and its cost."""
        cdef list out = []
        cdef double g = self.nodes[i].g
        while self.nodes[i].parent >= 0:
            out.append(self.nodes[i].via)
            i = self.nodes[i].parent
        out.reverse()
        return out, g

    cdef tuple items_to(self, int64_t i):
        """The bound items of the steps from the start to node ``i``, in order."""
        cdef Py_ssize_t n = 0, k
        cdef int64_t j = i
        cdef object item
        while self.nodes[j].parent >= 0:
            n += 1
            j = self.nodes[j].parent
        cdef tuple out = PyTuple_New(n)
        for k in range(n - 1, -1, -1):
            item = self.items[self.nodes[i].via]
            Py_INCREF(item)
            PyTuple_SET_ITEM(out, k, item)
            i = self.nodes[i].parent
        return out
