# cython: language_level=3
"""Compiled component labels of a grid's walkable cells under its move rule.

Two walkable cells share a label when a unit can walk from one to the other. Every
diagonal rule but ``"always"`` joins the same cells as 4-connected moves: a diagonal
step allowed by ``"no_corner_cut"`` or ``"one_free"`` has a free orthogonal cell
beside it, through which two straight steps reach the same cell. ``"always"`` joins
the 8 neighbours. Moves are symmetric on a grid, so the labels are the connected
components, the same as ``scipy.ndimage.label`` with the matching structure.

Arrays are the grid's *padded* cost array (a border of ``inf`` all round, so no step
leaves it and the flood needs no bounds checks) and flat int32 labels of the same
size, ``-1`` on walls. :func:`label` floods every component breadth first over a
caller-given queue with the GIL released, labelling components ``0, 1, ...`` in
row-major order of their first cell. :func:`repair` keeps such labels current after
one cell changed between walkable and wall, by floods bounded by the smaller side.

:func:`strong` labels the strongly connected components of any directed graph given
as CSR arrays (the labels of every world whose moves are not a grid's: a symmetric
graph's are its connected components), and :func:`dag_reaches` answers whether one
component reaches another through the condensation.
"""

from libc.math cimport isfinite
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np


cdef void _neighbour_steps(Py_ssize_t* steps, Py_ssize_t cols) noexcept nogil:
    """The flat offsets of a padded cell's neighbours: the 4 orthogonal ones, then the
    4 diagonal ones."""
    steps[0] = -cols
    steps[1] = cols
    steps[2] = -1
    steps[3] = 1
    steps[4] = -cols - 1
    steps[5] = -cols + 1
    steps[6] = cols - 1
    steps[7] = cols + 1


cdef Py_ssize_t _flood(
    int32_t* labels, Py_ssize_t* queue, Py_ssize_t seed,
    const Py_ssize_t* steps, int nsteps, int32_t tag,
) noexcept nogil:
    """Label every walkable cell joined to ``seed`` with ``tag``; the cells labelled."""
    cdef Py_ssize_t head = 0, tail = 1, u, v
    cdef int k
    labels[seed] = tag
    queue[0] = seed
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(nsteps):
            v = u + steps[k]
            if labels[v] == -2:  # walkable, not labelled yet
                labels[v] = tag
                queue[tail] = v
                tail += 1
    return tail


def label(
    const double[:, ::1] padded not None,
    bint eight,
    int32_t[::1] labels not None,
    Py_ssize_t[::1] queue not None,
):
    """Label the walkable cells of ``padded`` by component into ``labels``.

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's padded costs (``inf``: a wall; the border all walls).
    eight : bool
        Join the 8 neighbours (``diagonal="always"``); else the 4 orthogonal ones.
    labels : ndarray of int32, shape (padded.size,)
        Written: the component of every cell, ``-1`` on walls.
    queue : ndarray of intp, shape (padded.size,)
        Scratch space.

    Returns
    -------
    int
        The number of components.
    """
    cdef Py_ssize_t rows = padded.shape[0], cols = padded.shape[1], n = rows * cols
    cdef Py_ssize_t i
    cdef int32_t count = 0
    cdef Py_ssize_t steps[8]
    cdef int nsteps = 8 if eight else 4
    if rows < 3 or cols < 3:
        raise ValueError(f"padded must be at least 3 x 3; got {rows} x {cols}")
    if labels.shape[0] != n or queue.shape[0] != n:
        raise ValueError(f"labels and queue must hold {n} cells")
    _neighbour_steps(steps, cols)
    cdef const double* cost = &padded[0, 0]
    cdef int32_t* out = &labels[0]
    cdef Py_ssize_t* q = &queue[0]
    with nogil:
        for i in range(n):
            out[i] = -2 if isfinite(cost[i]) else -1
        for i in range(cols):  # the border is a wall whatever it holds
            out[i] = -1
            out[n - 1 - i] = -1
        for i in range(rows):
            out[i * cols] = -1
            out[i * cols + cols - 1] = -1
        for i in range(n):
            if out[i] == -2:
                _flood(out, q, i, steps, nsteps, count)
                count += 1
    return count


# --------------------------------------------------------------------------- local repair

cdef struct Flood:
    Py_ssize_t* cells  # every cell the flood visited, in order (its queue)
    Py_ssize_t head, tail, cap
    int32_t tag  # the label it keeps (join: its component's)


cdef int _push(Flood* f, Py_ssize_t v) noexcept nogil:
    cdef Py_ssize_t* grown
    if f.tail == f.cap:
        grown = <Py_ssize_t*> realloc(f.cells, 2 * f.cap * sizeof(Py_ssize_t))
        if grown == NULL:
            return -1
        f.cells = grown
        f.cap *= 2
    f.cells[f.tail] = v
    f.tail += 1
    return 0


cdef inline int _root(int* parent, int f) noexcept nogil:
    while parent[f] != f:
        f = parent[f]
    return f


cdef int _live(Flood* floods, int* parent, int k, int* group) noexcept nogil:
    """How many groups still have cells to expand (one of them in ``group``)."""
    cdef int f, g, live = 0
    cdef bint seen[8]
    for f in range(k):
        seen[f] = False
    for f in range(k):
        if floods[f].head < floods[f].tail:
            g = _root(parent, f)
            if not seen[g]:
                seen[g] = True
                live += 1
                group[0] = g
    return live


def repair(
    const double[:, ::1] padded not None,
    bint eight,
    int32_t[::1] labels not None,
    Py_ssize_t cell,
    int32_t top,
    int32_t[::1] marks not None,
    Py_ssize_t limit,
):
    """Bring ``labels`` up to date after ``cell`` alone changed between walkable and
    wall (``padded`` holds the new costs; ``labels`` the old, correct ones).

    A wall built: one flood from each walkable neighbour, expanded in turn and
    merged where they meet; a side whose flood ends before the others met it is cut
    off and takes a new label (``top``, ``top + 1``, ...), and the floods stop as
    soon as at most one side is left: the work is about the neighbours' count times
    the smaller sides, never the grid. A cell opened: one flood from a neighbour of
    each distinct label; all sides but the one left when the others ended take its
    label (the smaller components are relabelled; their old labels stay unused).

    Parameters
    ----------
    padded : ndarray of float64, shape (rows + 2, cols + 2)
        The grid's padded costs after the edit.
    eight : bool
        The 8 neighbours join (``diagonal="always"``); else the 4 orthogonal ones.
    labels : ndarray of int32, shape (padded.size,)
        The labels before the edit (:func:`label`'s); updated in place.
    cell : int
        The flat padded index of the cell that changed.
    top : int
        One more than the largest label in use.
    marks : ndarray of int32, shape (padded.size,)
        Scratch space, all zero; left all zero.
    limit : int
        How many cells the floods may visit: beyond, the repair gives up.

    Returns
    -------
    int
        The new ``top``; -1 when the repair gave up (``labels`` left with the cell
        relabelled ``-1``: label them afresh).
    """
    cdef Py_ssize_t rows = padded.shape[0], cols = padded.shape[1], n = rows * cols
    cdef Py_ssize_t steps[8]
    cdef int nsteps = 8 if eight else 4
    cdef Flood floods[8]
    cdef int parent[8]
    cdef int k = 0, f, j, g, live, keep = -1, fail = 0
    cdef Py_ssize_t u, v, i
    cdef int32_t tag, m
    cdef bint opened, changed = True
    cdef Py_ssize_t visited = 0
    if labels.shape[0] != n or marks.shape[0] != n:
        raise ValueError(f"labels and marks must hold {n} cells")
    if not (cols < cell < n - cols and 0 < cell % cols < cols - 1):
        raise ValueError(f"cell {cell} is not an inner cell of the padded grid")
    _neighbour_steps(steps, cols)
    opened = isfinite(padded[cell // cols, cell % cols])
    if opened == (labels[cell] >= 0):
        return top  # nothing moved
    with nogil:
        labels[cell] = -1  # the floods go round it
        for j in range(nsteps):
            v = cell + steps[j]
            if labels[v] < 0:
                continue
            if opened:
                for f in range(k):
                    if floods[f].tag == labels[v]:
                        break
                else:
                    f = k
                if f < k:
                    continue  # a component that has a flood already
            elif marks[v] != 0:
                continue
            floods[k].cells = <Py_ssize_t*> malloc(64 * sizeof(Py_ssize_t))
            if floods[k].cells == NULL:
                fail = 1
                break
            floods[k].cap = 64
            floods[k].head = 0
            floods[k].tail = 1
            floods[k].cells[0] = v
            floods[k].tag = labels[v]
            marks[v] = k + 1
            parent[k] = k
            k += 1
        if fail == 0 and k >= 2:
            while True:
                if changed:  # a side ended or two met: how many are left
                    if _live(floods, parent, k, &g) <= 1:
                        break
                    changed = False
                for f in range(k):
                    if floods[f].head == floods[f].tail:
                        continue
                    u = floods[f].cells[floods[f].head]
                    floods[f].head += 1
                    for j in range(nsteps):
                        v = u + steps[j]
                        if labels[v] < 0:
                            continue
                        m = marks[v]
                        if m == 0:
                            marks[v] = f + 1
                            if _push(&floods[f], v) != 0:
                                fail = 1
                                break
                            visited += 1
                        elif m - 1 != f and _root(parent, m - 1) != _root(parent, f):
                            parent[_root(parent, m - 1)] = _root(parent, f)
                            changed = True
                    if fail:
                        break
                    if floods[f].head == floods[f].tail:
                        changed = True
                if fail:
                    break
                if visited > limit:
                    fail = 2  # as dear as labelling afresh: the caller does
                    break
        if fail == 0:
            live = _live(floods, parent, k, &g)
            keep = g if live == 1 else (_root(parent, k - 1) if k > 0 else -1)
            if opened:
                tag = floods[keep].tag if k > 0 else top
                if k == 0:
                    top += 1
                labels[cell] = tag
            for f in range(k):  # every side but the one kept ended: relabel it
                g = _root(parent, f)
                if g == keep:
                    continue
                if opened:
                    tag = floods[keep].tag
                else:
                    if floods[g].tag >= 0:  # the group's first flood takes a new label
                        floods[g].tag = -1 - top
                        top += 1
                    tag = -1 - floods[g].tag
                for i in range(floods[f].tail):
                    labels[floods[f].cells[i]] = tag
        for f in range(k):
            for i in range(floods[f].tail):
                marks[floods[f].cells[i]] = 0
            free(floods[f].cells)
    if fail == 1:
        raise MemoryError("out of memory relabelling the components")
    return -1 if fail else top


# --------------------------------------------------------------------------- stencil worlds


def stencil_targets(
    const double[::1] padded not None,
    Py_ssize_t width,
    Py_ssize_t pad,
    int parity,
    const int64_t[:, ::1] delta not None,
    const uint64_t[::1] allowed,
    int32_t[::1] targets not None,
):
    """The moves of a stencil world (hex and custom-move grids) as CSR targets,
    ``k`` slots a cell, in one pass: ``targets[u * k + j]`` is the flat padded cell
    that move ``j`` of cell ``u`` reaches, or ``-1`` (a wall at either end, or the
    move not allowed from ``u``).

    Parameters
    ----------
    padded : ndarray of float64, shape (height * width,)
        The costs with ``pad`` walls all round, flat (``inf``: a wall).
    width, pad : int
        The padded width and the padding.
    parity : int
        Which offsets a cell takes: 0 the first class for every cell, 1 by its row's
        parity, 2 by its column's (``(row - pad) & 1``, ``(col - pad) & 1``).
    delta : ndarray of int64, shape (2, k)
        The flat offset of every move, per parity class.
    allowed : ndarray of uint64, shape (height * width,), or None
        Bit ``j`` set where move ``j`` is allowed from the cell (None: every move).
    targets : ndarray of int32, shape (height * width * k,)
        Written.
    """
    cdef Py_ssize_t n = padded.shape[0], k = delta.shape[1], u, j, v, row, klass
    if delta.shape[0] != 2 or width <= 0 or n % width or targets.shape[0] != n * k:
        raise ValueError("delta must be (2, k) and targets hold k slots a cell")
    if allowed is not None and allowed.shape[0] != n:
        raise ValueError("allowed must hold one mask a cell")
    cdef bint masked = allowed is not None
    with nogil:
        for u in range(n):
            if not isfinite(padded[u]):
                for j in range(k):
                    targets[u * k + j] = -1
                continue
            klass = 0
            if parity == 1:
                row = u // width
                klass = (row - pad) & 1
            elif parity == 2:
                klass = ((u % width) - pad) & 1
            for j in range(k):
                v = u + delta[klass, j]
                if v < 0 or v >= n or not isfinite(padded[v]) or (
                    masked and not ((allowed[u] >> j) & 1)
                ):
                    targets[u * k + j] = -1
                else:
                    targets[u * k + j] = <int32_t> v
    return None


# --------------------------------------------------------------------------- any graph


def strong(
    const int64_t[::1] offsets not None,
    const int32_t[::1] targets not None,
    int32_t[::1] labels not None,
):
    """Label the strongly connected components of a directed graph (Tarjan's
    algorithm, iterative): two nodes share a label when each reaches the other.

    Components are numbered in the order Tarjan's algorithm closes them, a reverse
    topological order of the condensation: when one component reaches another, its
    label is the larger. Negative targets are no edge.

    Parameters
    ----------
    offsets : ndarray of int64, shape (n + 1,)
        The CSR row offsets: node ``u``'s edges are ``offsets[u]:offsets[u + 1]``.
    targets : ndarray of int32, shape (offsets[n],)
        Each edge's head.
    labels : ndarray of int32, shape (n,)
        Written: each node's component.

    Returns
    -------
    int
        The number of components.
    """
    cdef Py_ssize_t n = offsets.shape[0] - 1
    if n < 0 or offsets[0] != 0 or offsets[n] > targets.shape[0]:
        raise ValueError("offsets must run from 0 to at most len(targets)")
    if labels.shape[0] != n:
        raise ValueError(f"labels must hold {n} nodes")
    index_arr = np.full(max(n, 1), -1, dtype=np.int32)
    low_arr = np.empty(max(n, 1), dtype=np.int32)
    held_arr = np.empty(max(n, 1), dtype=np.int32)
    calls_arr = np.empty(max(n, 1), dtype=np.int32)
    next_arr = np.empty(max(n, 1), dtype=np.int64)
    on_arr = np.zeros(max(n, 1), dtype=np.uint8)
    cdef int32_t[::1] index = index_arr, low = low_arr, held = held_arr, calls = calls_arr
    cdef int64_t[::1] nxt = next_arr
    cdef uint8_t[::1] on = on_arr
    cdef Py_ssize_t s, u, v, p, top = 0, depth = 0
    cdef int32_t counter = 0, count = 0, w
    with nogil:
        for s in range(n):
            if index[s] >= 0:
                continue
            index[s] = low[s] = counter
            counter += 1
            held[top] = <int32_t> s
            top += 1
            on[s] = 1
            nxt[s] = offsets[s]
            calls[0] = <int32_t> s
            depth = 1
            while depth > 0:
                u = calls[depth - 1]
                if nxt[u] < offsets[u + 1]:
                    v = targets[nxt[u]]
                    nxt[u] += 1
                    if v < 0 or v >= n:
                        continue
                    if index[v] < 0:
                        index[v] = low[v] = counter
                        counter += 1
                        held[top] = <int32_t> v
                        top += 1
                        on[v] = 1
                        nxt[v] = offsets[v]
                        calls[depth] = <int32_t> v
                        depth += 1
                    elif on[v] and index[v] < low[u]:
                        low[u] = index[v]
                    continue
                depth -= 1
                if low[u] == index[u]:  # u closes a component
                    while True:
                        top -= 1
                        w = held[top]
                        on[w] = 0
                        labels[w] = count
                        if w == u:
                            break
                    count += 1
                if depth > 0:
                    p = calls[depth - 1]
                    if low[u] < low[p]:
                        low[p] = low[u]
    return count


def dag_reaches(
    const int64_t[::1] offsets not None,
    const int32_t[::1] targets not None,
    int32_t a,
    int32_t b,
    int32_t[::1] seen not None,
):
    """Whether component ``a`` reaches component ``b`` in a condensation given as
    CSR arrays over :func:`strong`'s labels (a depth-first search that skips every
    component labelled below ``b``: those cannot reach it).

    ``seen`` (one int32 per component and one more, all zero at first) marks what
    each call visited with a number of its own, kept in its last entry, so nothing
    is cleared between calls. The GIL is held: calls from several threads take
    turns over the one array.
    """
    cdef Py_ssize_t n = offsets.shape[0] - 1
    if not (0 <= a < n and 0 <= b < n) or seen.shape[0] != n + 1:
        raise ValueError(f"a and b must be components of the {n}, seen hold {n + 1}")
    if a == b:
        return True
    if a < b:
        return False
    cdef int32_t stamp = seen[n] + 1
    cdef Py_ssize_t i
    if stamp >= 2_000_000_000:  # once in two billion calls: start again
        for i in range(n):
            seen[i] = 0
        stamp = 1
    seen[n] = stamp
    stack_arr = np.empty(max(n, 1), dtype=np.int32)
    cdef int32_t[::1] stack = stack_arr
    cdef Py_ssize_t depth = 1
    cdef int64_t e
    cdef int32_t u, v
    stack[0] = a
    seen[a] = stamp
    while depth > 0:
        depth -= 1
        u = stack[depth]
        for e in range(offsets[u], offsets[u + 1]):
            v = targets[e]
            if v == b:
                return True
            if v > b and seen[v] != stamp:
                seen[v] = stamp
                stack[depth] = v
                depth += 1
    return False
