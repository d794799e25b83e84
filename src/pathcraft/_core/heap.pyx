# cython: language_level=3
"""A Python view of the shared open-list heap, for tests and for checking the build.

Kernels use the inline functions of ``heap.pxd`` directly with the GIL released; this
module only wraps them so the heap can be tested against :mod:`heapq` from Python.
"""

from pathcraft._core.heap cimport (
    Heap,
    HeapEntry,
    heap_clear,
    heap_free,
    heap_init,
    heap_pop,
    heap_push,
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
