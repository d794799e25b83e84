# cython: language_level=3
"""The open-list heap every compiled search shares.

A binary min-heap of fixed-size entries ordered by ``(key, tie, order)``:

- ``key``: the priority (f = g + w*h for A*, g for Dijkstra, h for greedy);
- ``tie``: the tie-breaker among equal keys (``-g`` to prefer larger g, a random
  number for random tie-breaking, 0 for first-in first-out);
- ``order``: a counter assigned at push time, unique per heap, so the order is total
  and every search is deterministic. It is the same rule as the pure-Python search's
  ``(f, tie, counter)`` heap tuples, so both pop nodes in the same order.

All functions are ``inline`` and ``nogil``: kernels ``cimport`` them and call them with
the GIL released. Memory comes from ``malloc``/``realloc``; a push that cannot grow the
heap returns -1 and leaves the heap unchanged, so a kernel can report MemoryError.
"""

from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc


# Tie-breaking rules (codes shared with the Python front doors): prefer the larger g,
# first in first out, or a random order reproducible from a seed.
cdef enum:
    TIE_G = 0
    TIE_FIFO = 1
    TIE_RANDOM = 2


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """The next number of a SplitMix64 stream (its state advanced in place)."""
    cdef uint64_t z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline double tie_key(int tie, uint64_t* rng, double g) noexcept nogil:
    """The ``tie`` field of an entry reached at cost ``g`` under rule ``tie``."""
    if tie == TIE_G:
        return -g
    if tie == TIE_RANDOM:
        return <double> (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0)
    return 0.0


cdef struct HeapEntry:
    double key
    double tie
    long long order
    Py_ssize_t item


cdef struct Heap:
    HeapEntry* data
    Py_ssize_t size
    Py_ssize_t capacity
    long long counter


cdef inline bint entry_less(const HeapEntry* a, const HeapEntry* b) noexcept nogil:
    # Written with < and > only: no NaN ever enters, and these compile to plain
    # compare-and-branch, without the parity checks that != needs.
    if a.key < b.key:
        return True
    if a.key > b.key:
        return False
    if a.tie < b.tie:
        return True
    if a.tie > b.tie:
        return False
    return a.order < b.order


cdef inline int heap_init(Heap* h, Py_ssize_t capacity) noexcept nogil:
    """Allocate room for ``capacity`` entries (at least 16). Return 0, or -1 on failure."""
    if capacity < 16:
        capacity = 16
    h.data = <HeapEntry*> malloc(capacity * sizeof(HeapEntry))
    h.size = 0
    h.counter = 0
    if h.data == NULL:
        h.capacity = 0
        return -1
    h.capacity = capacity
    return 0


cdef inline void heap_free(Heap* h) noexcept nogil:
    free(h.data)
    h.data = NULL
    h.size = 0
    h.capacity = 0


cdef inline void heap_clear(Heap* h) noexcept nogil:
    """Empty the heap and restart the order counter; keep the memory."""
    h.size = 0
    h.counter = 0


cdef inline int heap_grow(Heap* h) noexcept nogil:
    """Double the heap's room. Return 0, or -1 when memory ran out (heap unchanged)."""
    cdef Py_ssize_t new_capacity = h.capacity * 2 if h.capacity > 0 else 16
    cdef HeapEntry* grown = <HeapEntry*> realloc(h.data, new_capacity * sizeof(HeapEntry))
    if grown == NULL:
        return -1
    h.data = grown
    h.capacity = new_capacity
    return 0


cdef inline void _place(Heap* h, Py_ssize_t i, const HeapEntry* e, int32_t* pos) noexcept nogil:
    """Store ``e`` at place ``i``, and note the place in ``pos`` when there is one."""
    h.data[i] = e[0]
    if pos != NULL:
        pos[e.item] = <int32_t> i


cdef inline Py_ssize_t _smaller_child(const Heap* h, Py_ssize_t child, Py_ssize_t n) noexcept nogil:
    """The place of the smaller of the entries at ``child`` and its right sibling
    (when the sibling is among the first ``n`` places)."""
    if child + 1 < n and entry_less(&h.data[child + 1], &h.data[child]):
        child += 1
    return child


cdef inline void _sift_up(Heap* h, Py_ssize_t i, int32_t* pos) noexcept nogil:
    cdef Py_ssize_t parent
    cdef HeapEntry entry = h.data[i]
    while i > 0:
        parent = (i - 1) >> 1
        if not entry_less(&entry, &h.data[parent]):
            break
        _place(h, i, &h.data[parent], pos)
        i = parent
    _place(h, i, &entry, pos)


cdef inline void _sift_down(Heap* h, Py_ssize_t i, int32_t* pos) noexcept nogil:
    cdef Py_ssize_t child, n = h.size
    cdef HeapEntry entry = h.data[i]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        child = _smaller_child(h, child, n)
        if not entry_less(&h.data[child], &entry):
            break
        _place(h, i, &h.data[child], pos)
        i = child
    _place(h, i, &entry, pos)


cdef inline int _push(Heap* h, double key, double tie, Py_ssize_t item, int32_t* pos) noexcept nogil:
    if h.size == h.capacity and heap_grow(h) != 0:
        return -1
    h.data[h.size].key = key
    h.data[h.size].tie = tie
    h.data[h.size].order = h.counter
    h.data[h.size].item = item
    h.counter += 1
    h.size += 1
    _sift_up(h, h.size - 1, pos)
    return 0


cdef inline int _pop(Heap* h, HeapEntry* out, int32_t* pos) noexcept nogil:
    """Bottom-up deletion: the hole left at the root walks down to a leaf along the
    smaller children (one comparison per level), then the last entry is sifted up from
    there, which is usually a step or two. About half the comparisons of the textbook
    sift-down, with the same result order."""
    cdef Py_ssize_t i, child, n
    if h.size == 0:
        return -1
    out[0] = h.data[0]
    h.size -= 1
    n = h.size
    if n == 0:
        return 0
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        child = _smaller_child(h, child, n)
        _place(h, i, &h.data[child], pos)
        i = child
    h.data[i] = h.data[n]
    _sift_up(h, i, pos)
    return 0


cdef inline int heap_push(Heap* h, double key, double tie, Py_ssize_t item) noexcept nogil:
    """Insert an entry. Return 0, or -1 when memory ran out (heap unchanged)."""
    return _push(h, key, tie, item, NULL)


cdef inline int heap_pop(Heap* h, HeapEntry* out) noexcept nogil:
    """Remove the smallest entry into ``out``. Return 0, or -1 when the heap is empty."""
    return _pop(h, out, NULL)


# ---------------------------------------------------------------- indexed heap
# The same heap with a position index: ``pos[item]`` is the item's place in the heap,
# kept up to date on every move, so a search can lower an open item's key in place
# instead of pushing a second entry and skipping the stale one later. Each item is
# in the heap at most once; ``pos`` is owned by the caller and needs no clearing
# (the caller knows from its own marks which items are in the heap).


cdef inline int iheap_push(
    Heap* h, double key, double tie, Py_ssize_t item, int32_t* pos
) noexcept nogil:
    """Insert an item that is not in the heap. Return 0, or -1 when memory ran out."""
    return _push(h, key, tie, item, pos)


cdef inline void iheap_update(
    Heap* h, Py_ssize_t i, double key, double tie, int32_t* pos
) noexcept nogil:
    """Give the entry at place ``i`` a new key and tie and a fresh order number, as if
    it were pushed anew (the order then matches a push of a second entry)."""
    cdef Py_ssize_t item = h.data[i].item
    h.data[i].key = key
    h.data[i].tie = tie
    h.data[i].order = h.counter
    h.counter += 1
    _sift_up(h, i, pos)
    _sift_down(h, pos[item], pos)


cdef inline int iheap_pop(Heap* h, HeapEntry* out, int32_t* pos) noexcept nogil:
    """Remove the smallest entry into ``out``; -1 if empty."""
    return _pop(h, out, pos)
