# cython: language_level=3
"""A Python view of the shared open-list heap, for the tests only (built by
``tests/_compiled.py``, never shipped).

Kernels use the inline functions of ``heap.pxd`` directly with the GIL released; this
module only wraps them so the heap can be tested against :mod:`heapq` from Python.
"""

from libc.stdint cimport int32_t
from libc.stdlib cimport calloc, free, malloc

from pathcraft._core.heap cimport (
    Heap,
    HeapEntry,
    heap_clear,
    heap_free,
    heap_init,
    heap_pop,
    heap_push,
    iheap_pop,
    iheap_push,
    iheap_update,
)


cdef class OpenHeap:
    """Min-heap of ``(key, tie, order, item)`` entries; ``order`` is assigned on push."""

    cdef Heap heap

    def __cinit__(self, Py_ssize_t capacity=16):
        if heap_init(&self.heap, capacity) != 0:
            raise MemoryError("could not allocate the open-list heap")

    def __dealloc__(self):
        heap_free(&self.heap)

    def __len__(self):
        return self.heap.size

    def push(self, double key, double tie, Py_ssize_t item):
        """Insert an entry; equal ``(key, tie)`` pairs come out first in, first out."""
        if heap_push(&self.heap, key, tie, item) != 0:
            raise MemoryError("could not grow the open-list heap")

    def pop(self):
        """Remove and return the smallest entry as ``(key, tie, order, item)``."""
        cdef HeapEntry entry
        if heap_pop(&self.heap, &entry) != 0:
            raise IndexError("pop from an empty heap")
        return (entry.key, entry.tie, entry.order, entry.item)

    def clear(self):
        """Empty the heap, keeping its memory."""
        heap_clear(&self.heap)

    def push_many(self, const double[:] keys, const double[:] ties, const Py_ssize_t[:] items):
        """Insert many entries with the GIL released (all arrays of one length)."""
        cdef Py_ssize_t i, n = keys.shape[0]
        cdef int failed = 0
        if ties.shape[0] != n or items.shape[0] != n:
            raise ValueError(
                f"keys, ties and items must have one length; got {n}, "
                f"{ties.shape[0]} and {items.shape[0]}"
            )
        with nogil:
            for i in range(n):
                if heap_push(&self.heap, keys[i], ties[i], items[i]) != 0:
                    failed = 1
                    break
        if failed:
            raise MemoryError("could not grow the open-list heap")


cdef class IndexedHeap:
    """The indexed heap over items ``0 .. capacity - 1``: each item at most once.

    A Python view for tests: kernels call ``iheap_push``, ``iheap_update`` and
    ``iheap_pop`` directly.
    """

    cdef Heap heap
    cdef int32_t* pos
    cdef unsigned char* inside
    cdef Py_ssize_t capacity

    def __cinit__(self, Py_ssize_t capacity):
        if capacity < 1 or capacity >= 2147483647:
            raise ValueError(f"capacity must be in [1, 2**31 - 1); got {capacity}")
        self.capacity = capacity
        self.pos = <int32_t*> malloc(capacity * sizeof(int32_t))
        self.inside = <unsigned char*> calloc(capacity, 1)
        if self.pos == NULL or self.inside == NULL or heap_init(&self.heap, 16) != 0:
            raise MemoryError("could not allocate the indexed heap")

    def __dealloc__(self):
        heap_free(&self.heap)
        free(self.pos)
        free(self.inside)

    def __len__(self):
        return self.heap.size

    def __contains__(self, Py_ssize_t item):
        return 0 <= item < self.capacity and self.inside[item] != 0

    def push(self, double key, double tie, Py_ssize_t item):
        """Insert ``item`` with ``(key, tie)``, or give it a new key and tie (and a
        fresh order number) when it is in the heap already."""
        if not 0 <= item < self.capacity:
            raise IndexError(f"item {item} outside [0, {self.capacity})")
        if self.inside[item]:
            iheap_update(&self.heap, self.pos[item], key, tie, self.pos)
        elif iheap_push(&self.heap, key, tie, item, self.pos) != 0:
            raise MemoryError("could not grow the indexed heap")
        self.inside[item] = 1

    def pop(self):
        """Remove and return the smallest entry as ``(key, tie, order, item)``."""
        cdef HeapEntry entry
        if iheap_pop(&self.heap, &entry, self.pos) != 0:
            raise IndexError("pop from an empty heap")
        self.inside[entry.item] = 0
        return (entry.key, entry.tie, entry.order, entry.item)

    def position(self, Py_ssize_t item):
        """Where ``item`` sits in the heap's array (for checking the index)."""
        if item not in self:
            raise KeyError(item)
        return self.pos[item]

    def item_at(self, Py_ssize_t place):
        """The item stored at ``place`` of the heap's array."""
        if not 0 <= place < self.heap.size:
            raise IndexError(place)
        return self.heap.data[place].item
