# cython: language_level=3
"""What the multi-agent kernels (lacam.pyx, mapf_lns.pyx) share: their random numbers
(xorshift64*, reproducible from a seed) and the distance of a node to an agent's goal
read from the flat ``n_agents x n_nodes`` table. ``inline`` and ``nogil``."""

from libc.stdint cimport int32_t, int64_t, uint64_t

cdef enum:
    FAR = 1 << 29  # the distance of a node from which the goal cannot be reached


cdef inline uint64_t seeded(uint64_t seed, uint64_t salt) noexcept nogil:
    """A nonzero generator state from a seed."""
    cdef uint64_t x = seed * <uint64_t>0x9E3779B97F4A7C15ULL + salt
    return x if x != 0 else <uint64_t>88172645463325252ULL


cdef inline double rand01(uint64_t* state) noexcept nogil:
    """A uniform double in [0, 1)."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return <double>((x * <uint64_t>2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int32_t randint(uint64_t* state, int32_t n) noexcept nogil:
    """A uniform integer in [0, n), n >= 1."""
    cdef int32_t k = <int32_t>(rand01(state) * n)
    return k if k < n else n - 1


cdef inline int32_t distance(const int32_t* dist, int32_t n_nodes, int32_t agent,
                             int32_t v) noexcept nogil:
    """Steps from node v to agent's goal (FAR where unreachable)."""
    cdef int32_t d = dist[<int64_t>agent * n_nodes + v]
    return d if d >= 0 else FAR
