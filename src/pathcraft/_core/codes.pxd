# cython: language_level=3
"""The codes every compiled search shares with the Python front doors (see
:mod:`pathcraft._kernels`): search modes and the outcomes a search reports."""

cdef extern from *:
    """
    #ifndef PATHCRAFT_DEBUG_BUILD
    #define PATHCRAFT_DEBUG_BUILD 0
    #endif
    """
    # 1 in the debug build (setup.py with PATHCRAFT_DEBUG_BUILD=1: bounds checks on)
    const int PATHCRAFT_DEBUG_BUILD


cdef enum:
    MODE_ASTAR = 0
    MODE_GREEDY = 1
    MODE_DIJKSTRA = 2

cdef enum:
    ST_FOUND = 0
    ST_UNREACHABLE = 1
    ST_MAX_EXPANSIONS = 2
    ST_MAX_COST = 3
    ST_EXHAUSTED = 4  # no goal was asked for and every reachable node was settled
    ST_IN_PROGRESS = 5  # a sliced search whose slice ran out before the search ended


cdef extern from *:
    """
    static inline double pathcraft_key_round(double f) {
        double p;
        if (!(f < 1e300)) return f;
        p = f * 4097.0;
        return (f - p) + p;
    }
    """
    # ``f`` rounded to 41 significant bits (Veltkamp's split by 2**12 + 1; the build
    # turns floating-point contraction off so it is exact IEEE arithmetic, the same as
    # pathcraft._engine.key_round). f = g + h of nodes on equally good paths differ by
    # rounding noise (sums of 1 and sqrt(2) in another order); rounded, they are equal
    # and the tie rule (larger g first) decides, as it would with exact arithmetic.
    # A key moves by at most 2**-41 of itself, so a path found is within that of optimal.
    double key_round "pathcraft_key_round"(double f) nogil


cdef inline double priority(int mode, double weight, double g, double h) noexcept nogil:
    """The open-list key of a node reached at cost ``g`` with heuristic ``h``: ``h``
    for greedy search, ``g + weight * h`` otherwise (``g + h`` when ``weight == 1``),
    rounded by :func:`key_round`."""
    if mode == MODE_GREEDY:
        return h
    if weight == 1.0:
        return key_round(g + h)
    return key_round(g + weight * h)
