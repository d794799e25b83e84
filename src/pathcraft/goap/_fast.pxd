# cython: language_level=3
# Compiled, FastPlans and Fast (written in _fast.py) are extension types with these
# C-level fields, and a plan call goes from one to the other by a C call: the fast
# path of a small plan is under a microsecond, so the look-ups on its way count.
# FastPlans is Planner's base class; a planner pickles by its own __reduce__.

cimport cython

from pathcraft._core.goap cimport Search, same_items


cdef int _UNREACHABLE
cdef object _OTHER


cpdef bint defaults(object weight, object tie_break, object seed, object max_expansions,
                    object max_depth, object max_cost, object prune)


cdef class Fast:
    cdef object _actions
    cdef object _classes
    cdef Py_ssize_t _considered
    cdef object _goals
    cdef object _idle
    cdef object _keys
    cdef object _missing
    cdef object _names
    cdef list _pool
    cdef object _positions
    cdef object _problem
    cdef bint _sorted
    cdef object _strs
    cdef object _tables
    cdef object _types

    cpdef object missing(self, object start)
    @cython.locals(search=Search)
    cdef object plan(self, dict state, object max_expansions)
    cdef object _dynamic(self, dict state)
    cdef object _spare(self)
    cdef object _warn(self, object plan)


cdef class FastPlans:
    cdef dict _entries
    cdef dict _recent
    cdef object _last_goal
    cdef object _last_copy
    cdef Fast _last_entry

    @cython.locals(entry=Fast)
    cdef object _quick(self, dict state, object goal, object max_expansions)
    @cython.locals(entry=Fast)
    cdef object _first(self, dict state, object goal, object max_expansions)
    cdef object _entry(self, object state, object goal)
