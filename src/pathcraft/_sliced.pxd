# cython: language_level=3
# Compiled, CompiledSearch (written in _sliced.py) is an extension type with these
# C-level fields: a step of a game loop reads them without dictionary or slot look-ups.

cdef class CompiledSearch:
    cdef public object _args
    cdef public object _elapsed
    cdef public object _expanded
    cdef public object _finish
    cdef public object _kind
    cdef public object _machine
    cdef public object _make
    cdef public object _result
    cdef public object _size
    cdef public object _sparse
    cdef public object _status
    cdef public object _version
    cdef public object _world
    cdef public object _ws
