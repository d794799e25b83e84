# cython: language_level=3
"""HPA*'s compiled pieces (:mod:`pathcraft.grid._hpa`): entrances, intra-cluster
fields, the query (insertion, abstract A*, refinement) and a search confined to a box.

The grid is the padded flat ``float64`` cost array of the grid kernels (a border of
walls; cell ``(r, c)`` at ``(r + 1) * W + c + 1``), under the grid's diagonal rule
(``grid_search.pxd``'s moves and corner rule): a step into a cell costs its cost,
times sqrt(2) diagonally.

- **Entrances** (:func:`entrances`): per border between two clusters, the runs of cells
  walkable on both sides; a run shorter than ``wide`` gives one transition (its
  middle), a longer one two (its ends).
- **Nodes** are the transition cells, numbered cluster by cluster (``cl_ptr``: the
  cluster ``i * cj + j`` holds the nodes ``cl_ptr[c]:cl_ptr[c + 1]``, their flat
  cells ``r * cols + c`` ascending in ``node_cell``).
- **Intra fields** (:func:`intra`): from each node a Dijkstra confined to its
  cluster, stopped once every node of the cluster is settled; the costs between the
  cluster's nodes (an ``n x n`` matrix at ``mat_off[c]``) and, per source node, the
  move that entered each cell (one byte a cell, ``n`` planes of the cluster's box at
  ``dir_off[c]``), so refinement walks the cached fields and never searches. A
  cluster of one cost without a wall gets octile costs and octile fields (diagonal
  steps first) without a search.
- **Abstract edges** are those intra costs and every straight step from a node to a
  node of another cluster (found by binary search among that cluster's nodes).
- **A query** (:func:`query`) runs a Dijkstra from the start confined to its cluster,
  one from the goal backwards confined to the goal's, A* over the nodes with the
  start and goal joined by those fields, and walks the fields into cells. The A*'s
  heuristic is the octile distance or, where larger, the landmark bounds (ALT) of a
  table of abstract costs from and to a few landmarks (:func:`abstract_costs`, a
  Dijkstra over the abstract graph, fills it at build time; :func:`lower_costs`
  keeps it a feasible potential after a repair).

- **The smoothing's search** (:func:`box_path`): the cheapest path between two cells
  inside a box, an octile path when one costs the heuristic's bound, else A*.

Everything but argument checks runs with the GIL released; the search state of a
query is allocated for it (O(nodes + two clusters' cells)). (One file past 500 lines
on purpose: the build, the query and the box search share the confined search over a
box and the walks along its fields, and the landmarks' search the query's view of the
abstract graph.)
"""

from libc.math cimport INFINITY, fabs
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np

from pathcraft._core.codes cimport key_round
from pathcraft._core.grid_search cimport DC, DR, NEVER, SQRT2, corner_open, move_open
from pathcraft._core.heap cimport (
    Heap,
    HeapEntry,
    heap_clear,
    heap_free,
    heap_init,
    iheap_pop,
    iheap_push,
    iheap_update,
)

cdef uint8_t NO_MOVE = 255


cdef struct Box:
    const double* cost  # padded
    Py_ssize_t W        # padded width
    int diagonal
    Py_ssize_t r0, c0, h, w  # the box's first cell and its size (unpadded)


cdef enum:
    MAX_LANDMARKS = 16


cdef struct Guide:
    # the abstract A*'s heuristic towards the goal cell (gr, gc): the octile distance
    # times hscale, raised by the landmarks' bounds where they know more
    const int64_t* node_cell
    Py_ssize_t N, cols, gr, gc
    int diagonal
    double hscale
    const float* lm  # N rows of 2L: d(landmark, node), then d(node, landmark); or NULL
    Py_ssize_t L
    double to_goal[MAX_LANDMARKS]    # d(landmark, goal), or -1 when unknown
    double from_goal[MAX_LANDMARKS]  # d(goal, landmark), or -1 when unknown


cdef inline Py_ssize_t padded_of(const Box* b, Py_ssize_t li) noexcept nogil:
    cdef Py_ssize_t r = li // b.w
    return (b.r0 + r + 1) * b.W + b.c0 + (li - r * b.w) + 1


cdef inline Py_ssize_t opposite(Py_ssize_t k) noexcept nogil:
    """The move back of move ``k``: straight moves pair as (0, 1) and (2, 3),
    diagonal ones as (4, 7) and (5, 6)."""
    return k ^ 1 if k < 4 else 11 - k


cdef inline double octile(int diagonal, Py_ssize_t dr, Py_ssize_t dc) noexcept nogil:
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if diagonal == NEVER:
        return <double> (dr + dc)
    if dr < dc:
        return dc + (SQRT2 - 1.0) * dr
    return dr + (SQRT2 - 1.0) * dc


cdef enum:
    CLOSED = 1  # a flag's bits: the cell is settled,
    STOP = 2    # and it is one the search must settle before it may stop


cdef struct Scratch:
    # a confined search's state over the cells of a box (``capacity`` of them)
    double* g
    int32_t* pos  # an open cell's place in the heap
    uint8_t* flag
    Heap heap
    Py_ssize_t capacity


cdef int scratch_init(Scratch* s, Py_ssize_t capacity) noexcept nogil:
    """Room for boxes of ``capacity`` cells, no stop marks; -1 when out of memory."""
    cdef Py_ssize_t i
    s.capacity = capacity
    s.g = <double*> malloc(capacity * sizeof(double) + 8)
    s.pos = <int32_t*> malloc(capacity * sizeof(int32_t) + 8)
    s.flag = <uint8_t*> malloc(capacity + 8)
    s.heap.data = NULL
    if s.g == NULL or s.pos == NULL or s.flag == NULL or heap_init(&s.heap, 64) != 0:
        scratch_free(s)
        return -1
    for i in range(capacity):
        s.flag[i] = 0
    return 0


cdef void scratch_free(Scratch* s) noexcept nogil:
    free(s.g)
    free(s.pos)
    free(s.flag)
    heap_free(&s.heap)
    s.g = NULL
    s.pos = NULL
    s.flag = NULL


cdef inline Py_ssize_t step_to(
    const Box* b, const uint8_t* flag, Py_ssize_t ur, Py_ssize_t uc, Py_ssize_t pu,
    Py_ssize_t k,
) noexcept nogil:
    """The local cell move ``k`` enters from the box's cell ``(ur, uc)`` (padded
    ``pu``), or -1 when it leaves the box, enters a wall or a settled cell, or cuts a
    corner the rule forbids."""
    cdef Py_ssize_t vr = ur + DR[k], vc = uc + DC[k], v
    if vr < 0 or vr >= b.h or vc < 0 or vc >= b.w:
        return -1
    v = vr * b.w + vc
    if flag[v] & CLOSED or b.cost[pu + DR[k] * b.W + DC[k]] == INFINITY:
        return -1
    if k >= 4 and not corner_open(b.cost, pu + DR[k] * b.W, pu + DC[k], b.diagonal):
        return -1
    return v


cdef inline bint settle(uint8_t* flag, Py_ssize_t u, Py_ssize_t* left) noexcept nogil:
    """Mark ``u`` settled; whether it was the last of the cells to settle."""
    flag[u] |= CLOSED
    if flag[u] & STOP:
        left[0] -= 1
        return left[0] == 0
    return False


cdef int confined(
    const Box* b, Py_ssize_t src, bint backward, Py_ssize_t target, double hscale,
    Py_ssize_t n_stop, Scratch* s, uint8_t* move,
) noexcept nogil:
    """A best-first search over the box's cells from the local cell ``src``: forward
    (``s.g``: the cost from ``src``; ``move``: the move that entered the cell) or
    ``backward`` (``s.g``: the cost to ``src``; ``move``: the move that leaves the
    cell towards it). A* to ``target`` (>= 0; forward only) with the octile heuristic
    times ``hscale``, else Dijkstra, stopped once the ``n_stop`` cells flagged STOP
    are settled (all of the box when ``n_stop`` is 0). The heap is indexed: a cell
    reached more cheaply while open has its entry lowered in place. Return -1 when out
    of memory."""
    cdef Py_ssize_t n = b.h * b.w, i, u, v, pu, pv, ur, uc, vr, vc, k, kmax
    cdef Py_ssize_t left = n_stop, tr = 0, tc = 0
    cdef double gu, c, ng, h
    cdef HeapEntry e
    cdef const double* cost = b.cost
    cdef Py_ssize_t W = b.W
    cdef double* g = s.g
    cdef uint8_t* flag = s.flag
    cdef Heap* heap = &s.heap
    for i in range(n):
        g[i] = INFINITY
        move[i] = NO_MOVE
        flag[i] &= STOP
    if target >= 0:
        tr = target // b.w
        tc = target - tr * b.w
    kmax = 4 if b.diagonal == NEVER else 8
    heap_clear(heap)
    g[src] = 0.0
    if iheap_push(heap, 0.0, 0.0, src, s.pos) != 0:
        return -1
    while heap.size > 0:
        iheap_pop(heap, &e, s.pos)
        u = e.item
        gu = g[u]
        if settle(flag, u, &left) or u == target:
            return 0
        ur = u // b.w
        uc = u - ur * b.w
        pu = (b.r0 + ur + 1) * W + b.c0 + uc + 1
        for k in range(kmax):
            v = step_to(b, flag, ur, uc, pu, k)
            if v < 0:
                continue
            vr = v // b.w
            vc = v - vr * b.w
            pv = pu + DR[k] * W + DC[k]
            # forward: u -> v enters v; backward: v -> u enters u (the same corner)
            c = cost[pu] if backward else cost[pv]
            if k >= 4:
                c = c * SQRT2
            ng = gu + c
            if ng < g[v]:
                h = hscale * octile(b.diagonal, vr - tr, vc - tc) if target >= 0 else 0.0
                if g[v] == INFINITY:
                    if iheap_push(heap, key_round(ng + h), -ng, v, s.pos) != 0:
                        return -1
                else:
                    iheap_update(heap, s.pos[v], key_round(ng + h), -ng, s.pos)
                g[v] = ng
                move[v] = <uint8_t> (opposite(k) if backward else k)
    return 0


cdef Py_ssize_t walk_back(
    const Box* b, const uint8_t* move, Py_ssize_t src, Py_ssize_t cell, Py_ssize_t* out
) noexcept nogil:
    """The local cells from ``cell`` back to ``src`` along a forward field's moves
    (``cell`` first, ``src`` excluded), written to ``out``; their number."""
    cdef Py_ssize_t n = 0, r, c, k
    while cell != src:
        out[n] = cell
        n += 1
        k = move[cell]
        r = cell // b.w - DR[k]
        c = cell - (cell // b.w) * b.w - DC[k]
        cell = r * b.w + c
    return n


cdef Py_ssize_t walk_on(
    const Box* b, const uint8_t* move, Py_ssize_t dst, Py_ssize_t cell, Py_ssize_t* out
) noexcept nogil:
    """The local cells after ``cell`` up to ``dst`` along a backward field's moves."""
    cdef Py_ssize_t n = 0, r, c, k
    while cell != dst:
        k = move[cell]
        r = cell // b.w + DR[k]
        c = cell - (cell // b.w) * b.w + DC[k]
        cell = r * b.w + c
        out[n] = cell
        n += 1
    return n


cdef inline Box cluster_box(
    const double[:, ::1] padded, int diagonal, Py_ssize_t size, Py_ssize_t ci, Py_ssize_t cj
) noexcept nogil:
    cdef Box b
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    b.cost = &padded[0, 0]
    b.W = padded.shape[1]
    b.diagonal = diagonal
    b.r0 = ci * size
    b.c0 = cj * size
    b.h = min(rows, b.r0 + size) - b.r0
    b.w = min(cols, b.c0 + size) - b.c0
    return b


cdef inline Py_ssize_t local_of(const Box* b, Py_ssize_t flat, Py_ssize_t cols) noexcept nogil:
    cdef Py_ssize_t r = flat // cols
    return (r - b.r0) * b.w + (flat - r * cols) - b.c0


cdef inline bint crossing_open(
    const double* cost, bint vertical, Py_ssize_t W, Py_ssize_t fixed, Py_ssize_t along
) noexcept nogil:
    """Whether the cell ``along`` of a border (its row on a vertical border whose left
    column is ``fixed``, its column on a horizontal one whose upper row is ``fixed``)
    and its partner across are both walkable (``cost`` padded, ``W`` wide)."""
    cdef Py_ssize_t p
    if vertical:
        p = (along + 1) * W + fixed + 1
        return cost[p] != INFINITY and cost[p + 1] != INFINITY
    p = (fixed + 1) * W + along + 1
    return cost[p] != INFINITY and cost[p + W] != INFINITY


def entrances(
    const double[:, ::1] padded, Py_ssize_t size, Py_ssize_t wide,
    const int64_t[::1] kind, const int64_t[::1] ci, const int64_t[::1] cj,
):
    """The transitions of the borders ``(kind[t], ci[t], cj[t])`` (kind 0: the
    vertical border right of cluster ``(ci, cj)``, 1: the horizontal one below it):
    int64 arrays ``(border, a, b)``, ``a`` and ``b`` flat cells ``r * cols + c`` on
    either side (``a`` upper or left), ``border`` the index ``t`` of the border."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t t, k, lo, hi, fixed, end, n, W = padded.shape[1], step
    cdef Py_ssize_t nb = kind.shape[0]
    if ci.shape[0] != nb or cj.shape[0] != nb:
        raise ValueError("entrances: kind, ci and cj must have one length")
    cap = nb * size + 16  # a transition per border cell at most
    cdef int64_t[::1] out_t = np.empty(cap, dtype=np.int64)
    cdef int64_t[::1] out_a = np.empty(cap, dtype=np.int64)
    cdef int64_t[::1] out_b = np.empty(cap, dtype=np.int64)
    cdef const double* cost = &padded[0, 0]
    cdef Py_ssize_t count = 0, cells_a, npick, q
    cdef Py_ssize_t picks[2]
    with nogil:
        for t in range(nb):
            if kind[t] == 0:
                fixed = cj[t] * size + size - 1  # the column left of the border
                if fixed + 1 >= cols:
                    continue
                lo = ci[t] * size
                hi = min(rows, lo + size)
                step = 1
            else:
                fixed = ci[t] * size + size - 1  # the row above it
                if fixed + 1 >= rows:
                    continue
                lo = cj[t] * size
                hi = min(cols, lo + size)
                step = cols
            n = hi - lo
            k = 0
            while k < n:
                if not crossing_open(cost, kind[t] == 0, W, fixed, lo + k):
                    k += 1
                    continue
                end = k
                while end + 1 < n and crossing_open(cost, kind[t] == 0, W, fixed, lo + end + 1):
                    end += 1
                if end - k + 1 >= wide:
                    picks[0] = k
                    picks[1] = end
                    npick = 2
                else:
                    picks[0] = (k + end) // 2
                    npick = 1
                for q in range(npick):
                    if kind[t] == 0:
                        cells_a = (lo + picks[q]) * cols + fixed
                    else:
                        cells_a = fixed * cols + lo + picks[q]
                    out_t[count] = t
                    out_a[count] = cells_a
                    out_b[count] = cells_a + step
                    count += 1
                k = end + 1
    return (
        np.asarray(out_t)[:count].copy(), np.asarray(out_a)[:count].copy(),
        np.asarray(out_b)[:count].copy(),
    )


cdef double walkable_cost(const Box* b) noexcept nogil:
    """The one cost of every walkable cell of the box (walls allowed), or -1 when
    there are two costs or no walkable cell."""
    cdef Py_ssize_t r, c, row
    cdef double first = -1.0, x
    for r in range(b.h):
        row = (b.r0 + r + 1) * b.W + b.c0 + 1
        for c in range(b.w):
            x = b.cost[row + c]
            if x == INFINITY:
                continue
            if first < 0.0:
                first = x
            elif x != first:
                return -1.0
    return first


cdef void dial(
    const Box* b, Py_ssize_t src, double unit, Py_ssize_t n_stop, Scratch* s,
    uint8_t* move, int32_t* ent_cell, int32_t* ent_next,
) noexcept nogil:
    """:func:`confined`'s forward Dijkstra without a target for a box whose walkable
    cells all cost ``unit``, over buckets ``unit`` wide (Dial's queue): a step costs
    at least ``unit``, so every cell of the lowest bucket is settled, and at most
    ``unit * sqrt(2)``, so four buckets in a ring hold every open cell. ``ent_cell``
    and ``ent_next`` hold room for 8 entries a cell of the box (one per cheaper
    arrival); a cell reached again more cheaply leaves its old entry, skipped once
    the cell is settled. The same costs as the heap's search; among equal paths it
    may keep another move."""
    cdef Py_ssize_t n = b.h * b.w, i, u, v, pu, ur, uc, k, kmax
    cdef Py_ssize_t left = n_stop, cur = 0, pending = 0, used = 0, e, slot
    cdef int32_t head[4]
    cdef double gu, ng
    cdef double diag = unit * SQRT2
    cdef Py_ssize_t W = b.W
    cdef double* g = s.g
    cdef uint8_t* flag = s.flag
    for i in range(n):
        g[i] = INFINITY
        move[i] = NO_MOVE
        flag[i] &= STOP
    for i in range(4):
        head[i] = -1
    kmax = 4 if b.diagonal == NEVER else 8
    g[src] = 0.0
    ent_cell[0] = <int32_t> src
    ent_next[0] = -1
    head[0] = 0
    used = 1
    pending = 1
    while pending > 0:
        slot = cur & 3
        e = head[slot]
        if e < 0:
            cur += 1
            continue
        head[slot] = ent_next[e]
        pending -= 1
        u = ent_cell[e]
        if flag[u] & CLOSED:
            continue
        if settle(flag, u, &left):
            return
        gu = g[u]
        ur = u // b.w
        uc = u - ur * b.w
        pu = (b.r0 + ur + 1) * W + b.c0 + uc + 1
        for k in range(kmax):
            v = step_to(b, flag, ur, uc, pu, k)
            if v < 0:
                continue
            ng = gu + (diag if k >= 4 else unit)
            if ng < g[v]:
                g[v] = ng
                move[v] = <uint8_t> k
                i = <Py_ssize_t> (ng / unit)
                if i < cur:  # rounding at a bucket's edge: this bucket then
                    i = cur
                slot = i & 3
                ent_cell[used] = <int32_t> v
                ent_next[used] = head[slot]
                head[slot] = <int32_t> used
                used += 1
                pending += 1


cdef double uniform_cost(const Box* b) noexcept nogil:
    """The one cost of every cell of the box, or -1 when a wall or a second cost is
    in it."""
    cdef Py_ssize_t r, c, row
    cdef double first = b.cost[(b.r0 + 1) * b.W + b.c0 + 1]
    if first == INFINITY:
        return -1.0
    for r in range(b.h):
        row = (b.r0 + r + 1) * b.W + b.c0 + 1
        for c in range(b.w):
            if b.cost[row + c] != first:
                return -1.0
    return first


cdef void open_field(const Box* b, Py_ssize_t src, uint8_t* move) noexcept nogil:
    """The forward field of moves from ``src`` over a box with no wall and one cost:
    every cell entered along an octile path, the diagonal steps first (straight
    steps only under ``never``: the columns first), which is a cheapest path there."""
    cdef Py_ssize_t r, c, dr, dc, adr, adc, sr = src // b.w, scol = src - (src // b.w) * b.w
    cdef uint8_t k
    for r in range(b.h):
        dr = r - sr
        adr = dr if dr >= 0 else -dr
        for c in range(b.w):
            dc = c - scol
            adc = dc if dc >= 0 else -dc
            if adr == 0 and adc == 0:
                k = NO_MOVE
            elif (b.diagonal == NEVER and adr > 0) or adr > adc:
                k = 1 if dr > 0 else 0
            elif b.diagonal == NEVER or adc > adr:
                k = 3 if dc > 0 else 2
            else:
                k = (6 if dc < 0 else 7) if dr > 0 else (4 if dc < 0 else 5)
            move[r * b.w + c] = k


def intra(
    const double[:, ::1] padded, int diagonal, Py_ssize_t size,
    const int64_t[::1] clusters, const int64_t[::1] cl_ptr, const int64_t[::1] node_cell,
    const int64_t[::1] mat_off, const int64_t[::1] dir_off,
    double[::1] mats, uint8_t[::1] dirs,
):
    """For each cluster index ``c`` of ``clusters`` (``c = i * cj + j``, ``cj`` the
    clusters per row): its nodes' cost matrix into ``mats[mat_off[c]:]`` (row: from,
    column: to; inf where the cluster has no path) and each node's forward field of
    moves into ``dirs[dir_off[c]:]`` (one plane of the cluster's box per node)."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t ncj = (cols + size - 1) // size, nci = (rows + size - 1) // size
    cdef Py_ssize_t t, c, n, k, m, area, first
    cdef double unit
    cdef Box b
    if (cl_ptr.shape[0] != nci * ncj + 1 or cl_ptr[nci * ncj] != node_cell.shape[0]
            or mat_off.shape[0] != nci * ncj or dir_off.shape[0] != nci * ncj):
        raise ValueError("intra: cl_ptr, mat_off or dir_off do not fit the grid and node_cell")
    cdef Scratch sc
    cdef int64_t* local = <int64_t*> malloc(4 * size * sizeof(int64_t) + 8)
    cdef int failed = 0
    for t in range(clusters.shape[0]):
        c = clusters[t]
        if not (0 <= c < nci * ncj) or cl_ptr[c + 1] - cl_ptr[c] > 4 * size:
            free(local)
            raise ValueError(f"intra: cluster {c} out of range or with too many nodes")
        n = cl_ptr[c + 1] - cl_ptr[c]
        b = cluster_box(padded, diagonal, size, c // ncj, c - (c // ncj) * ncj)
        if n and (mat_off[c] + n * n > mats.shape[0] or dir_off[c] + n * b.h * b.w > dirs.shape[0]):
            free(local)
            raise ValueError("intra: mats or dirs too small for the offsets")
    cdef int32_t* ent_cell = <int32_t*> malloc((8 * size * size + 8) * sizeof(int32_t))
    cdef int32_t* ent_next = <int32_t*> malloc((8 * size * size + 8) * sizeof(int32_t))
    if local == NULL or ent_cell == NULL or ent_next == NULL or scratch_init(&sc, size * size) != 0:
        free(local); free(ent_cell); free(ent_next)
        raise MemoryError()
    with nogil:
        for t in range(clusters.shape[0]):
            c = clusters[t]
            first = cl_ptr[c]
            n = cl_ptr[c + 1] - first
            if n == 0:
                continue
            b = cluster_box(padded, diagonal, size, c // ncj, c - (c // ncj) * ncj)
            area = b.h * b.w
            for k in range(n):
                local[k] = local_of(&b, node_cell[first + k], cols)
                sc.flag[local[k]] = STOP
            unit = uniform_cost(&b)
            if unit >= 0.0:  # open: octile costs and paths, no search
                for k in range(n):
                    open_field(&b, local[k], &dirs[dir_off[c] + k * area])
                    for m in range(n):
                        mats[mat_off[c] + k * n + m] = unit * octile(
                            diagonal, local[m] // b.w - local[k] // b.w,
                            local[m] % b.w - local[k] % b.w,
                        )
                for k in range(n):
                    sc.flag[local[k]] = 0
                continue
            unit = walkable_cost(&b)
            for k in range(n):
                if unit > 0.0:  # one cost: Dial's buckets instead of the heap
                    dial(&b, local[k], unit, n, &sc, &dirs[dir_off[c] + k * area],
                         ent_cell, ent_next)
                elif confined(&b, local[k], False, -1, 0.0, n, &sc,
                              &dirs[dir_off[c] + k * area]) != 0:
                    failed = 1
                    break
                for m in range(n):
                    mats[mat_off[c] + k * n + m] = sc.g[local[m]]
            for k in range(area):
                sc.flag[k] = 0
            if failed:
                break
    scratch_free(&sc)
    free(local); free(ent_cell); free(ent_next)
    if failed:
        raise MemoryError()


cdef inline Py_ssize_t find_node(
    const int64_t* node_cell, Py_ssize_t lo, Py_ssize_t hi, int64_t cell
) noexcept nogil:
    """The node of flat cell ``cell`` among ``node_cell[lo:hi]`` (ascending), or -1."""
    cdef Py_ssize_t mid, end = hi
    while lo < hi:
        mid = (lo + hi) >> 1
        if node_cell[mid] < cell:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < end and node_cell[lo] == cell else -1


def query(
    const double[:, ::1] padded, int diagonal, Py_ssize_t size, double hscale,
    const int64_t[::1] cl_ptr, const int64_t[::1] node_cell,
    const int64_t[::1] mat_off, const int64_t[::1] dir_off,
    const double[::1] mats, const uint8_t[::1] dirs, const float[:, ::1] lm,
    Py_ssize_t start, Py_ssize_t goal,
):
    """HPA*'s refined path from the flat cell ``start`` to ``goal`` (both walkable,
    ``r * cols + c``) over the nodes and fields of :func:`intra`: ``(cells, cost,
    expanded)``, ``cells`` an int64 ``(k, 2)`` array of ``(row, col)``; ``cells`` None
    when the abstract graph joins them nowhere. ``lm``: per node, its costs from
    then to each of ``L`` landmarks (``(N, 2L)``, NaN where unknown; ``L`` may be
    0), which sharpen the abstract A*'s heuristic."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t ncj = (cols + size - 1) // size, nci = (rows + size - 1) // size
    cdef Py_ssize_t N = node_cell.shape[0]
    if (cl_ptr.shape[0] != nci * ncj + 1 or cl_ptr[nci * ncj] != N
            or mat_off.shape[0] != nci * ncj or dir_off.shape[0] != nci * ncj):
        raise ValueError("query: cl_ptr, mat_off or dir_off do not fit the grid and node_cell")
    if not (0 <= start < rows * cols and 0 <= goal < rows * cols):
        raise IndexError("query: start or goal outside the grid")
    if lm.shape[1] % 2 or lm.shape[1] > 2 * MAX_LANDMARKS or (lm.shape[1] and lm.shape[0] != N):
        raise ValueError(f"query: lm must be (nodes, 2L) with L <= {MAX_LANDMARKS}")
    cdef Py_ssize_t S = N, G = N + 1, u, v, k, m, n, c, cu, first, r, cc, nr, nc, cv, pu
    cdef Py_ssize_t cs = (start // cols) // size * ncj + (start % cols) // size
    cdef Py_ssize_t cg = (goal // cols) // size * ncj + (goal % cols) // size
    cdef Box bs = cluster_box(padded, diagonal, size, cs // ncj, cs % ncj)
    cdef Box bg = cluster_box(padded, diagonal, size, cg // ncj, cg % ncj)
    cdef Py_ssize_t ls = local_of(&bs, start, cols), lg = local_of(&bg, goal, cols)
    cdef Scratch ss, sg
    cdef uint8_t* ms = <uint8_t*> malloc(bs.h * bs.w)
    cdef uint8_t* mg = <uint8_t*> malloc(bg.h * bg.w)
    cdef double* best = <double*> malloc((N + 2) * sizeof(double))
    cdef int32_t* parent = <int32_t*> malloc((N + 2) * sizeof(int32_t))
    cdef uint8_t* done = <uint8_t*> malloc(N + 2)
    cdef int32_t* pos = <int32_t*> malloc((N + 2) * sizeof(int32_t))
    cdef Py_ssize_t* trail = <Py_ssize_t*> malloc((N + 2) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* cells = NULL
    cdef Py_ssize_t ncells = 0, cap = 0, count, j, a, bb, la, lb, area
    cdef Heap heap
    cdef HeapEntry e
    cdef int failed = 0, reached = 0, ready = 0
    cdef long long expanded = 0
    cdef double gu, ng, w, cost_sum = 0.0
    cdef const double* cost = &padded[0, 0]
    cdef Py_ssize_t W = padded.shape[1], gr = goal // cols, gc = goal % cols
    cdef Box bx
    cdef Py_ssize_t* piece = NULL
    cdef const int64_t* nodes = &node_cell[0] if N > 0 else NULL
    cdef Guide q
    q.node_cell = nodes
    q.N, q.cols, q.gr, q.gc, q.diagonal, q.hscale = N, cols, gr, gc, diagonal, hscale
    q.L = lm.shape[1] // 2 if N > 0 else 0
    q.lm = &lm[0, 0] if q.L > 0 else NULL
    for k in range(MAX_LANDMARKS):
        q.to_goal[k] = q.from_goal[k] = -1.0
    ss.g = sg.g = NULL
    heap.data = NULL
    if scratch_init(&ss, bs.h * bs.w) == 0:
        if scratch_init(&sg, bg.h * bg.w) == 0:
            ready = heap_init(&heap, 64) == 0
            if not ready:
                scratch_free(&sg)
        if not ready:
            scratch_free(&ss)
    cdef double* gs = ss.g
    cdef double* gg = sg.g
    if (not ready or ms == NULL or mg == NULL or best == NULL
            or parent == NULL or done == NULL or trail == NULL or pos == NULL):
        if ready:
            scratch_free(&ss); scratch_free(&sg); heap_free(&heap)
        free(ms); free(mg); free(best); free(parent); free(done); free(trail); free(pos)
        raise MemoryError()
    with nogil:
        if q.L > 0 and confined(&bg, lg, False, -1, 0.0, 0, &sg, mg) == 0:
            # the costs from the goal first (the field below then overwrites them)
            goal_bounds(&q, &bg, sg.g, cl_ptr[cg], cl_ptr[cg + 1] - cl_ptr[cg], False)
        if confined(&bs, ls, False, -1, 0.0, 0, &ss, ms) != 0:
            failed = 1
        elif confined(&bg, lg, True, -1, 0.0, 0, &sg, mg) != 0:
            failed = 1
        else:
            if q.L > 0:
                goal_bounds(&q, &bg, gg, cl_ptr[cg], cl_ptr[cg + 1] - cl_ptr[cg], True)
            for u in range(N + 2):
                best[u] = INFINITY
                parent[u] = -1
                done[u] = 0
            heap_clear(&heap)
            best[S] = 0.0
            if iheap_push(&heap, 0.0, 0.0, S, pos) != 0:
                failed = 1
            while not failed and heap.size > 0:
                iheap_pop(&heap, &e, pos)
                u = e.item
                gu = -e.tie
                if done[u] or gu > best[u]:
                    continue
                done[u] = 1
                expanded += 1
                if u == G:
                    reached = 1
                    break
                # the steps out of u: (v, w) pairs offered by relax below
                if u == S:
                    first = cl_ptr[cs]
                    for k in range(cl_ptr[cs + 1] - first):
                        w = gs[local_of(&bs, node_cell[first + k], cols)]
                        if w < INFINITY and relax(first + k, u, gu + w, best, parent, done,
                                                  &heap, pos, &q) != 0:
                            failed = 1
                    if cs == cg and gs[local_of(&bs, goal, cols)] < INFINITY:
                        if relax(G, u, gu + gs[local_of(&bs, goal, cols)], best, parent, done,
                                 &heap, pos, &q) != 0:
                            failed = 1
                    continue
                r = node_cell[u] // cols
                cc = node_cell[u] - r * cols
                cu = (r // size) * ncj + cc // size
                first = cl_ptr[cu]
                n = cl_ptr[cu + 1] - first
                k = u - first
                for m in range(n):
                    w = mats[mat_off[cu] + k * n + m]
                    if m != k and w < INFINITY:
                        if relax(first + m, u, gu + w, best, parent, done,
                                 &heap, pos, &q) != 0:
                            failed = 1
                pu = (r + 1) * W + cc + 1
                for j in range(4):
                    nr = r + DR[j]
                    nc = cc + DC[j]
                    if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                        continue
                    cv = (nr // size) * ncj + nc // size
                    if cv == cu or cost[pu + DR[j] * W + DC[j]] == INFINITY:
                        continue
                    v = find_node(nodes, cl_ptr[cv], cl_ptr[cv + 1], nr * cols + nc)
                    if v >= 0 and relax(v, u, gu + cost[pu + DR[j] * W + DC[j]], best, parent,
                                        done, &heap, pos, &q) != 0:
                        failed = 1
                if cu == cg:
                    w = gg[local_of(&bg, node_cell[u], cols)]
                    if w < INFINITY and relax(G, u, gu + w, best, parent, done,
                                              &heap, pos, &q) != 0:
                        failed = 1
        if reached and not failed:
            # the abstract path, start first
            count = 0
            u = G
            while u != -1:
                trail[count] = u
                count += 1
                u = parent[u]
            cap = 4 * size * (count + 2) + 16
            cells = <Py_ssize_t*> malloc(cap * sizeof(Py_ssize_t))
            piece = <Py_ssize_t*> malloc(size * size * sizeof(Py_ssize_t) + 8)
            if cells == NULL or piece == NULL:
                failed = 1
            else:
                cells[0] = start
                ncells = 1
                for j in range(count - 1, 0, -1):
                    a = trail[j]
                    bb = trail[j - 1]
                    m = 0
                    if a == S and bb == G:  # the start's own field reaches the goal
                        m = walk_back(&bs, ms, ls, local_of(&bs, goal, cols), piece)
                        bx = bs
                        reverse_into(piece, m)
                    elif a == S:
                        m = walk_back(&bs, ms, ls, local_of(&bs, node_cell[bb], cols), piece)
                        bx = bs
                        reverse_into(piece, m)
                    elif bb == G:
                        m = walk_on(&bg, mg, lg, local_of(&bg, node_cell[a], cols), piece)
                        bx = bg
                    else:
                        r = node_cell[a] // cols
                        cc = node_cell[a] - r * cols
                        cu = (r // size) * ncj + cc // size
                        r = node_cell[bb] // cols
                        cc = node_cell[bb] - r * cols
                        cv = (r // size) * ncj + cc // size
                        if cu != cv:  # a step across a border
                            if grow(&cells, &cap, ncells + 1) != 0:
                                failed = 1
                                break
                            cells[ncells] = node_cell[bb]
                            ncells += 1
                            continue
                        bx = cluster_box(padded, diagonal, size, cu // ncj, cu % ncj)
                        area = bx.h * bx.w
                        la = local_of(&bx, node_cell[a], cols)
                        lb = local_of(&bx, node_cell[bb], cols)
                        m = walk_back(&bx, &dirs[dir_off[cu] + (a - cl_ptr[cu]) * area], la, lb, piece)
                        reverse_into(piece, m)
                    if grow(&cells, &cap, ncells + m) != 0:
                        failed = 1
                        break
                    for k in range(m):
                        r = piece[k] // bx.w
                        cells[ncells] = (bx.r0 + r) * cols + bx.c0 + piece[k] - r * bx.w
                        ncells += 1
            free(piece)
            cost_sum = best[G]
    heap_free(&heap)
    scratch_free(&ss)
    scratch_free(&sg)
    free(ms); free(mg); free(best); free(parent); free(done); free(trail); free(pos)
    if failed:
        free(cells)
        raise MemoryError()
    if not reached:
        return None, INFINITY, expanded
    out = np.empty((ncells, 2), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    for k in range(ncells):
        o[k, 0] = cells[k] // cols
        o[k, 1] = cells[k] % cols
    free(cells)
    return out, cost_sum, expanded


cdef int grow(Py_ssize_t** cells, Py_ssize_t* cap, Py_ssize_t need) noexcept nogil:
    """Room for ``need`` cells in ``cells[0]`` (doubled as needed); -1 when out of memory."""
    cdef Py_ssize_t* more
    if need <= cap[0]:
        return 0
    while cap[0] < need:
        cap[0] *= 2
    more = <Py_ssize_t*> realloc(cells[0], cap[0] * sizeof(Py_ssize_t))
    if more == NULL:
        return -1
    cells[0] = more
    return 0


cdef inline void reverse_into(Py_ssize_t* piece, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t i = 0, j = m - 1, t
    while i < j:
        t = piece[i]
        piece[i] = piece[j]
        piece[j] = t
        i += 1
        j -= 1


cdef inline double guide_h(const Guide* q, Py_ssize_t v) noexcept nogil:
    """The heuristic of node ``v`` (< N): the largest of the octile bound and, per
    landmark ``l`` (ALT: Goldberg and Harrelson 2005), d(l, goal) - d(l, v) and
    d(v, l) - d(goal, l), each less a millionth of its terms (the table holds float32);
    a landmark term is skipped where a distance is unknown (NaN) or infinite."""
    cdef Py_ssize_t r = q.node_cell[v] // q.cols, c = q.node_cell[v] - r * q.cols, l
    cdef double h = q.hscale * octile(q.diagonal, r - q.gr, c - q.gc), b, d
    cdef const float* row
    if q.lm == NULL:
        return h
    row = q.lm + v * 2 * q.L
    for l in range(q.L):
        d = row[l]
        if q.to_goal[l] >= 0.0 and d < INFINITY:
            b = (q.to_goal[l] - d) - 1e-6 * (q.to_goal[l] + d)
            if b > h:
                h = b
        d = row[q.L + l]
        if q.from_goal[l] >= 0.0 and d < INFINITY:
            b = (d - q.from_goal[l]) - 1e-6 * (d + q.from_goal[l])
            if b > h:
                h = b
    return h


cdef void goal_bounds(
    Guide* q, const Box* b, const double* g, Py_ssize_t first, Py_ssize_t n, bint to
) noexcept nogil:
    """Per landmark, its distance to the goal (``to``: ``g`` the goal cluster's costs
    to the goal, ``to_goal`` = min over the cluster's nodes m of d(l, m) + g[m]) or
    from it (``g`` the costs from the goal, ``from_goal`` = min of g[m] + d(m, l));
    -1 (unknown) when a node the goal's field reaches has no known distance, inf when
    none is finite. Exact on the abstract graph: a path through the goal cell is
    never cheaper than the cluster's own intra cost."""
    cdef Py_ssize_t l, m, at
    cdef double best, w, d
    cdef double* out = &q.to_goal[0] if to else &q.from_goal[0]
    for l in range(q.L):
        best = INFINITY
        for m in range(n):
            w = g[local_of(b, q.node_cell[first + m], q.cols)]
            if not (w < INFINITY):
                continue
            at = (first + m) * 2 * q.L + (l if to else q.L + l)
            d = q.lm[at]
            if d != d:  # NaN: unknown since a repair
                best = -1.0
                break
            if d + w < best:
                best = d + w
        out[l] = best


cdef inline int relax(
    Py_ssize_t v, Py_ssize_t u, double ng, double* best, int32_t* parent, uint8_t* done,
    Heap* heap, int32_t* pos, const Guide* q,
) noexcept nogil:
    """Offer the abstract node ``v`` (the goal when ``v == N + 1``) at cost ``ng``
    from ``u`` (an open node's entry lowered in place); -1 when the heap cannot grow."""
    cdef double h = 0.0
    if done[v] or not (ng < best[v]):
        return 0
    parent[v] = <int32_t> u
    if v < q.N:
        h = guide_h(q, v)
    if best[v] == INFINITY:
        best[v] = ng
        return iheap_push(heap, key_round(ng + h), -ng, v, pos)
    best[v] = ng
    iheap_update(heap, pos[v], key_round(ng + h), -ng, pos)
    return 0


def abstract_costs(
    const double[:, ::1] padded, Py_ssize_t size,
    const int64_t[::1] cl_ptr, const int64_t[::1] node_cell,
    const int64_t[::1] mat_off, const double[::1] mats,
    Py_ssize_t src, bint backward, double[::1] out,
):
    """Dijkstra over the abstract graph of :func:`intra`'s costs and the straight
    steps between nodes of neighbouring clusters: into ``out`` the cheapest cost from
    node ``src`` to every node (``backward``: from every node to ``src``), inf where
    there is none."""
    if out.shape[0] != node_cell.shape[0]:
        raise ValueError("abstract_costs: out does not fit node_cell")
    if not 0 <= src < node_cell.shape[0]:
        raise IndexError("abstract_costs: src is not a node")
    out[:] = INFINITY
    out[src] = 0.0
    lower_costs(padded, size, cl_ptr, node_cell, mat_off, mats,
                np.array([src], dtype=np.int64), backward, out, -1)


def lower_costs(
    const double[:, ::1] padded, Py_ssize_t size,
    const int64_t[::1] cl_ptr, const int64_t[::1] node_cell,
    const int64_t[::1] mat_off, const double[::1] mats,
    const int64_t[::1] seeds, bint backward, double[::1] out, Py_ssize_t limit,
):
    """Lower the labels ``out`` (one a node, inf where none) until no abstract edge
    ``u -> v`` of cost ``w`` leaves ``out[v] > out[u] + w`` (``backward``: no edge
    leaves ``out[u] > w + out[v]``): a Dijkstra from the ``seeds`` at their labels,
    which must hold every node one of whose edges may break that (every other edge
    keeps it already). The labels are then a feasible potential: their differences
    never exceed an abstract cost. The number of nodes settled, or -1 once more than
    ``limit`` (>= 0) are (``out`` then half lowered)."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t ncj = (cols + size - 1) // size, nci = (rows + size - 1) // size
    cdef Py_ssize_t N = node_cell.shape[0], W = padded.shape[1]
    if (cl_ptr.shape[0] != nci * ncj + 1 or cl_ptr[nci * ncj] != N
            or mat_off.shape[0] != nci * ncj or out.shape[0] != N):
        raise ValueError("lower_costs: cl_ptr, mat_off or out do not fit the grid and node_cell")
    for seed in seeds:
        if not 0 <= seed < N:
            raise IndexError("lower_costs: a seed is not a node")
    # state: 0 never queued, 1 queued, 2 settled
    cdef uint8_t* state = <uint8_t*> malloc(N + 8)
    cdef int32_t* pos = <int32_t*> malloc((N + 8) * sizeof(int32_t))
    cdef Heap heap
    cdef HeapEntry e
    cdef Py_ssize_t u, v, k, m, n, r, cc, nr, nc, cu, cv, first, j, pu, pv
    cdef Py_ssize_t settled = 0
    cdef double gu, ng, w
    cdef int failed = 0
    cdef const double* cost = &padded[0, 0]
    heap.data = NULL
    if state == NULL or pos == NULL or heap_init(&heap, 64) != 0:
        free(state); free(pos)
        raise MemoryError()
    with nogil:
        for u in range(N):
            state[u] = 0
        for k in range(seeds.shape[0]):
            u = seeds[k]
            if state[u] == 0 and out[u] < INFINITY:
                state[u] = 1
                if iheap_push(&heap, out[u], 0.0, u, pos) != 0:
                    failed = 1
                    break
        while not failed and heap.size > 0:
            iheap_pop(&heap, &e, pos)
            u = e.item
            state[u] = 2
            settled += 1
            if 0 <= limit < settled:
                settled = -1
                break
            gu = out[u]
            r = node_cell[u] // cols
            cc = node_cell[u] - r * cols
            cu = (r // size) * ncj + cc // size
            first = cl_ptr[cu]
            n = cl_ptr[cu + 1] - first
            k = u - first
            pu = (r + 1) * W + cc + 1
            for j in range(n + 4):
                if j < n:  # inside the cluster
                    if j == k:
                        continue
                    v = first + j
                    w = mats[mat_off[cu] + (j * n + k if backward else k * n + j)]
                else:  # a straight step into a node of the next cluster
                    m = j - n
                    nr = r + DR[m]
                    nc = cc + DC[m]
                    if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
                        continue
                    cv = (nr // size) * ncj + nc // size
                    pv = pu + DR[m] * W + DC[m]
                    if cv == cu or cost[pv] == INFINITY:
                        continue
                    v = find_node(&node_cell[0], cl_ptr[cv], cl_ptr[cv + 1], nr * cols + nc)
                    if v < 0:
                        continue
                    w = cost[pu] if backward else cost[pv]
                if state[v] == 2 or not (w < INFINITY):
                    continue
                ng = gu + w
                if ng < out[v]:
                    out[v] = ng
                    if state[v] == 0:
                        state[v] = 1
                        if iheap_push(&heap, ng, 0.0, v, pos) != 0:
                            failed = 1
                            break
                    else:
                        iheap_update(&heap, pos[v], ng, 0.0, pos)
    heap_free(&heap)
    free(state); free(pos)
    if failed:
        raise MemoryError()
    return settled


cdef Py_ssize_t straight_line(
    const Box* b, Py_ssize_t a, Py_ssize_t z, bint straight_first, double bound,
    Py_ssize_t* out,
) noexcept nogil:
    """The local cells after ``a`` up to ``z`` of an octile path from ``a`` (its
    diagonal steps first, or its straight ones first: rows, then columns), written to
    ``out`` in order, and their number; -1 when a step of it is not open or its cost
    passes ``bound`` (beyond rounding)."""
    cdef Py_ssize_t r = a // b.w, c = a - (a // b.w) * b.w
    cdef Py_ssize_t zr = z // b.w, zc = z - (z // b.w) * b.w, k, i, pu
    cdef Py_ssize_t adr = zr - r if zr >= r else r - zr, adc = zc - c if zc >= c else c - zc
    cdef Py_ssize_t diag = 0 if b.diagonal == NEVER else (adr if adr < adc else adc)
    cdef Py_ssize_t sv = adr - diag, sh = adc - diag, total = diag + sv + sh
    cdef Py_ssize_t kd, kv = 1 if zr > r else 0, kh = 3 if zc > c else 2
    cdef double spent = 0.0, step
    kd = (6 if zc < c else 7) if zr > r else (4 if zc < c else 5)
    for i in range(total):
        if straight_first:
            k = kv if i < sv else (kh if i < sv + sh else kd)
        else:
            k = kd if i < diag else (kv if i < diag + sv else kh)
        pu = (b.r0 + r + 1) * b.W + b.c0 + c + 1
        if not move_open(b.cost, b.W, b.diagonal, pu, k):
            return -1
        step = b.cost[pu + DR[k] * b.W + DC[k]]
        spent += step * SQRT2 if k >= 4 else step
        r += DR[k]
        c += DC[k]
        out[i] = r * b.w + c
    if spent > bound * (1 + 1e-12) + 1e-9:
        return -1
    return total


cdef Py_ssize_t box_search(
    const Box* bx, Py_ssize_t la, Py_ssize_t lb, double hscale, double limit,
    Scratch* sc, uint8_t* mv, Py_ssize_t* piece,
) noexcept nogil:
    """The local cells after ``la`` up to ``lb`` (in order, into ``piece``) of the
    cheapest path inside the box, and their number, when it costs less than
    ``limit``: an octile path (diagonal steps first, or last) when one costs the
    octile bound times ``hscale`` (then it is a cheapest one: no search), else A*
    with that heuristic; -1 when none costs less, -2 when out of memory."""
    cdef Py_ssize_t j, m
    cdef double bound = hscale * octile(
        bx.diagonal, lb // bx.w - la // bx.w, lb % bx.w - la % bx.w
    )
    for j in range(2):
        m = straight_line(bx, la, lb, j == 1, bound, piece)
        if m >= 0:
            return m
    if confined(bx, la, False, lb, hscale, 0, sc, mv) != 0:
        return -2
    if not (sc.g[lb] < limit):
        return -1
    m = walk_back(bx, mv, la, lb, piece)
    reverse_into(piece, m)
    return m


def box_path(
    const double[:, ::1] padded, int diagonal, double hscale,
    Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t c0, Py_ssize_t c1,
    Py_ssize_t a, Py_ssize_t b,
):
    """The cells (an int64 ``(k, 2)`` array) of the cheapest path from the flat cell
    ``a`` to ``b`` that stays inside rows ``r0:r1`` and columns ``c0:c1``, or None
    when the box holds none: an octile path when one costs the octile distance times
    ``hscale`` (the smallest cost), else A* with that heuristic."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    if not (0 <= r0 < r1 <= rows and 0 <= c0 < c1 <= cols):
        raise ValueError("box_path: the box must lie inside the grid")
    cdef Box bx
    bx.cost = &padded[0, 0]
    bx.W = padded.shape[1]
    bx.diagonal = diagonal
    bx.r0, bx.c0, bx.h, bx.w = r0, c0, r1 - r0, c1 - c0
    if not (0 <= a < rows * cols and 0 <= b < rows * cols
            and r0 <= a // cols < r1 and c0 <= a % cols < c1
            and r0 <= b // cols < r1 and c0 <= b % cols < c1):
        raise ValueError("box_path: a and b must lie inside the box")
    cdef Py_ssize_t la = local_of(&bx, a, cols), lb = local_of(&bx, b, cols)
    cdef Py_ssize_t area = bx.h * bx.w, m = 0, k, r
    cdef Scratch sc
    cdef uint8_t* mv = <uint8_t*> malloc(area)
    cdef Py_ssize_t* piece = <Py_ssize_t*> malloc(area * sizeof(Py_ssize_t))
    if mv == NULL or piece == NULL or scratch_init(&sc, area) != 0:
        free(mv); free(piece)
        raise MemoryError()
    with nogil:
        m = box_search(&bx, la, lb, hscale, INFINITY, &sc, mv, piece)
    scratch_free(&sc)
    if m < 0:
        free(mv); free(piece)
        if m == -2:
            raise MemoryError()
        return None
    out = np.empty((m + 1, 2), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    o[0, 0] = a // cols
    o[0, 1] = a % cols
    for k in range(m):
        r = piece[k] // bx.w
        o[k + 1, 0] = r0 + r
        o[k + 1, 1] = c0 + piece[k] - r * bx.w
    free(mv); free(piece)
    return out


def smooth(
    const double[:, ::1] padded, int diagonal, double hscale,
    const int64_t[:, ::1] path, const int64_t[::1] at, Py_ssize_t max_area,
):
    """``path`` (cells ``(row, col)``, a legal path) with each stretch between the
    places ``at[t]`` and ``at[t + 1]`` (ascending, from 0 to the last) replaced by the
    cheapest path inside the two cells' bounding box (:func:`box_path`'s: an octile
    path as cheap as the octile bound times ``hscale``, else A*) where that box holds
    at most ``max_area`` cells and the replacement is cheaper: an int64 ``(k, 2)``
    array."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    cdef Py_ssize_t k = path.shape[0], nt = at.shape[0], t, i, W = padded.shape[1]
    if path.shape[1] != 2 or k == 0 or nt < 1 or at[0] != 0 or at[nt - 1] != k - 1:
        raise ValueError("smooth: path must be (k, 2) and at run from 0 to k - 1")
    for t in range(nt - 1):
        if at[t + 1] <= at[t]:
            raise ValueError("smooth: at must be ascending")
    for i in range(k):
        if not (0 <= path[i, 0] < rows and 0 <= path[i, 1] < cols):
            raise IndexError("smooth: a cell of path lies outside the grid")
    if max_area < 1:
        raise ValueError("smooth: max_area must be >= 1")
    cdef double* prefix = <double*> malloc(k * sizeof(double))
    cdef uint8_t* mv = <uint8_t*> malloc(max_area)
    cdef Py_ssize_t* piece = <Py_ssize_t*> malloc(max_area * sizeof(Py_ssize_t))
    cdef Py_ssize_t cap = k + 16, n = 0, ia, ib, m, r, c, la, lb, j
    cdef Py_ssize_t* cells = <Py_ssize_t*> malloc(cap * sizeof(Py_ssize_t))
    cdef Scratch sc
    cdef Box bx
    cdef double now, bound, step
    cdef int failed = 0
    cdef bint better
    sc.g = NULL
    if (prefix == NULL or mv == NULL or piece == NULL or cells == NULL
            or scratch_init(&sc, max_area) != 0):
        free(prefix); free(mv); free(piece); free(cells)
        raise MemoryError()
    cdef const double* cost = &padded[0, 0]
    bx.cost = cost
    bx.W = W
    bx.diagonal = diagonal
    with nogil:
        prefix[0] = 0.0
        for i in range(1, k):
            step = cost[(path[i, 0] + 1) * W + path[i, 1] + 1]
            if path[i, 0] != path[i - 1, 0] and path[i, 1] != path[i - 1, 1]:
                step = step * SQRT2
            prefix[i] = prefix[i - 1] + step
        cells[0] = path[0, 0] * cols + path[0, 1]
        n = 1
        for t in range(nt - 1):
            ia = at[t]
            ib = at[t + 1]
            bx.r0 = min(path[ia, 0], path[ib, 0])
            bx.c0 = min(path[ia, 1], path[ib, 1])
            bx.h = max(path[ia, 0], path[ib, 0]) + 1 - bx.r0
            bx.w = max(path[ia, 1], path[ib, 1]) + 1 - bx.c0
            now = prefix[ib] - prefix[ia]
            bound = hscale * octile(diagonal, path[ib, 0] - path[ia, 0], path[ib, 1] - path[ia, 1])
            m = -1
            if ib - ia > 1 and bx.h * bx.w <= max_area and now > bound * (1 + 1e-12) + 1e-9:
                la = (path[ia, 0] - bx.r0) * bx.w + path[ia, 1] - bx.c0
                lb = (path[ib, 0] - bx.r0) * bx.w + path[ib, 1] - bx.c0
                m = box_search(&bx, la, lb, hscale, now - 1e-9, &sc, mv, piece)
                if m == -2:
                    failed = 1
                    break
            better = m >= 0
            if grow(&cells, &cap, n + (m if better else ib - ia)) != 0:
                failed = 1
                break
            if better:
                for j in range(m):
                    r = piece[j] // bx.w
                    cells[n] = (bx.r0 + r) * cols + bx.c0 + piece[j] - r * bx.w
                    n += 1
            else:
                for i in range(ia + 1, ib + 1):
                    cells[n] = path[i, 0] * cols + path[i, 1]
                    n += 1
    scratch_free(&sc)
    free(prefix); free(mv); free(piece)
    if failed:
        free(cells)
        raise MemoryError()
    out = np.empty((n, 2), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    for i in range(n):
        o[i, 0] = cells[i] // cols
        o[i, 1] = cells[i] % cols
    free(cells)
    return out
