# cython: language_level=3
"""The step machine every compiled search is (see ``machine.pxd``)."""

from libc.stdint cimport int64_t

from pathcraft._core.codes cimport ST_IN_PROGRESS


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
        """Expand at most ``budget`` more nodes (-1: until the search ends); the status."""
        cdef int failed = 0
        if budget < -1:
            raise ValueError(f"budget must be -1 or >= 0; got {budget}")
        if self.out.status == ST_IN_PROGRESS:
            with nogil:
                failed = self.run(budget)
            if failed:
                raise MemoryError(f"{type(self).__name__} ran out of memory")
        return self.out.status

    cdef int run(self, int64_t budget) noexcept nogil:
        """Advance the search (the subclass's loop); -1 when memory ran out."""
        return 0
