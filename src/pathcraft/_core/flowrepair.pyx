# cython: language_level=3
"""Flow fields that follow a changing grid: a distance field repaired where cells
changed, and the next cell of every cell whose choice may have moved.

The field is the distance from the nearest goal, a step into cell ``v`` costing
``cost[v]`` straight and ``cost[v] * sqrt(2)`` diagonally under the grid's diagonal
rule (what :mod:`grid_search`'s ``field`` computes), kept with its shortest-path tree
(``parent``: padded flat indices, -1 for goals and unreached cells). After cells
change, :func:`repair` brings both up to date without recomputing the whole field:

1. *The cells whose way in may have changed* (``H``): the changed cells and, under a
   corner rule, their four neighbours (a diagonal step passes between two of them).
   A cell of ``H`` whose tree step from its parent got dearer or closed, a goal that
   became a wall, and every cell below them in the tree lose their distance
   (``inf``): the region ``R`` whose distances can only have risen.
2. *One Dijkstra wave* from the cells around ``H`` and ``R``, each opened at its own
   distance (an upper bound that still holds): inside ``R`` it settles every cell
   again from the region's boundary; outside it goes on only where it improves a
   distance (a wall removed, a cost lowered) and stops where it improves nothing.
   Correct because every distance left is the length of a real path and every step
   that could improve one starts at a cell the wave opens or settles.
3. *The next cell* (:func:`point`) of every cell whose distance, neighbours'
   distances, cost or corner rule changed: the changed cells and their neighbours.

Everything runs on the grid workspace of :mod:`grid_search` (its slots, marks and
indexed heap: the shared skeleton of ``machine.pxd``) with the GIL released; a
repair costs what the change reaches, not the map's size.
"""

from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free

from pathcraft._core.codes cimport MODE_DIJKSTRA
from pathcraft._core.grow cimport grow
from pathcraft._core.heap cimport TIE_G
from pathcraft._core cimport grid_search  # the grid's moves, rules and workspace
from pathcraft._core cimport machine  # the search skeleton


cdef struct Stack:
    Py_ssize_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef inline int push(Stack* s, Py_ssize_t v) noexcept nogil:
    if s.size == s.cap and grow(<void**> &s.data, &s.cap, 256, sizeof(Py_ssize_t)) != 0:
        return -1
    s.data[s.size] = v
    s.size += 1
    return 0


cdef struct Moves:
    Py_ssize_t off[8]        # flat offsets: up, down, left, right, then the diagonals
    Py_ssize_t vert[8]       # the row part of each (dr * width)
    Py_ssize_t horz[8]       # its column part (dc)
    int count                # 4 under "never", else 8


cdef Moves moves_of(Py_ssize_t W, int diagonal) noexcept nogil:
    cdef Moves m
    cdef int k
    for k in range(8):
        m.vert[k] = grid_search.DR[k] * W
        m.horz[k] = grid_search.DC[k]
        m.off[k] = grid_search.DR[k] * W + grid_search.DC[k]
    m.count = 4 if diagonal == grid_search.NEVER else 8
    return m


cdef inline double step_cost(
    const double* cost, const Moves* m, int diagonal, Py_ssize_t u, int k
) noexcept nogil:
    """The cost of the move ``k`` from ``u`` (into ``u + off[k]``); ``inf`` when the
    cell is a wall or the diagonal rule forbids it."""
    cdef double c = cost[u + m.off[k]]
    if c == INFINITY:
        return INFINITY
    if k < 4:
        return c
    if not grid_search.corner_open(cost, u + m.vert[k], u + m.horz[k], diagonal):
        return INFINITY
    return c * grid_search.SQRT2


cdef inline int move_between(const Moves* m, Py_ssize_t u, Py_ssize_t v) noexcept nogil:
    """The move that leads from ``u`` to its neighbour ``v``."""
    cdef int k
    for k in range(8):
        if u + m.off[k] == v:
            return k
    return -1


cdef inline bint interior(Py_ssize_t v, Py_ssize_t W, Py_ssize_t H) noexcept nogil:
    cdef Py_ssize_t r = v // W
    cdef Py_ssize_t c = v - r * W
    return 1 <= r <= H - 2 and 1 <= c <= W - 2


cdef inline int relax(
    grid_search.Workspace ws, machine.Outcome* out, double* dist, Py_ssize_t u, double gu,
    Py_ssize_t v, double step,
) noexcept nogil:
    """Offer ``u -> v``: a cell this wave has not reached yet keeps the field's own
    distance unless this is a real improvement on it; then the skeleton's rule."""
    cdef double d = gu + step
    if ws.cell[v].mark < ws.gen and not d < dist[v] * machine.IMPROVE_KEEP:
        return 0
    if not machine.improves(ws, out, MODE_DIJKSTRA, True, INFINITY, v, d):
        return 0
    return machine.open_node(ws, out, MODE_DIJKSTRA, 1.0, TIE_G, NULL, u, v, d, 0.0)


cdef inline double candidate(
    const double* cost, const double* dist, const Moves* m, int diagonal, Py_ssize_t x,
    int k,
) noexcept nogil:
    """The distance of ``x`` through its neighbour of move ``k``: the neighbour's
    distance plus the step into ``x`` (``cost[x]`` priced); ``inf`` when the diagonal
    rule forbids the move."""
    if k < 4:
        return dist[x + m.off[k]] + cost[x]
    if not grid_search.corner_open(cost, x + m.vert[k], x + m.horz[k], diagonal):
        return INFINITY
    return dist[x + m.off[k]] + cost[x] * grid_search.SQRT2


cdef void point_cell(
    const double* cost, const double* dist, const Moves* m, int diagonal, Py_ssize_t x,
    Py_ssize_t W, Py_ssize_t* next_rc, double* direction,
) noexcept nogil:
    """The next cell of ``x``: the first neighbour in move order (straight ones first)
    whose distance plus the step into ``x`` is within rounding (1e-9 relative) of the
    smallest such sum, and of ``dist[x]``; ``x`` itself for a goal, a wall or an
    unreached cell. Ties are judged with a tolerance so that distances equal up to
    the rounding of sums taken in another order (a repaired field's, a fresh one's)
    pick the same cell. Writes ``(row, col)`` and the unit ``(x, y)`` direction (zero
    when it stays)."""
    cdef Py_ssize_t best_n = x, r, c, nr, nc
    cdef double best = INFINITY, lim, cand, dx, dy, norm
    cdef double here = dist[x]
    cdef int k
    if cost[x] != INFINITY and here != 0.0 and here != INFINITY:
        for k in range(m.count):
            cand = candidate(cost, dist, m, diagonal, x, k)
            if cand < best:
                best = cand
        lim = best + 1e-9 * (best if best > 1.0 else 1.0)
        if best <= here + 1e-9 * (here if here > 1.0 else 1.0):
            for k in range(m.count):
                if candidate(cost, dist, m, diagonal, x, k) <= lim:
                    best_n = x + m.off[k]
                    break
    r = x // W
    c = x - r * W
    nr = best_n // W
    nc = best_n - nr * W
    next_rc[0] = nr - 1
    next_rc[1] = nc - 1
    dx = <double> (nc - c)
    dy = <double> (nr - r)
    norm = sqrt(dx * dx + dy * dy)
    if norm > 0:
        direction[0] = dx / norm
        direction[1] = dy / norm
    else:
        direction[0] = 0.0
        direction[1] = 0.0


def point(
    const double[:, ::1] padded not None,
    const double[:, ::1] dist not None,
    const Py_ssize_t[:] cells not None,
    Py_ssize_t[:, :, ::1] next_cell not None,
    double[:, :, ::1] direction not None,
    *,
    int diagonal,
):
    """Write the next cell and direction of every cell of ``cells`` (padded flat
    indices; all interior cells for a whole field) from the padded distance field
    ``dist`` (the same shape as ``padded``, ``inf`` on the border)."""
    cdef Py_ssize_t H = padded.shape[0], W = padded.shape[1], i, x, r
    cdef Moves m = moves_of(W, diagonal)
    _check_shapes(padded, dist, next_cell, direction)
    grid_search.check_cells("cells", cells, H, W)
    with nogil:
        for i in range(cells.shape[0]):
            x = cells[i]
            r = x // W
            point_cell(
                &padded[0, 0], &dist[0, 0], &m, diagonal, x, W,
                &next_cell[r - 1, x - r * W - 1, 0], &direction[r - 1, x - r * W - 1, 0],
            )


cdef int _check_shapes(
    const double[:, ::1] padded, const double[:, ::1] dist,
    Py_ssize_t[:, :, ::1] next_cell, double[:, :, ::1] direction,
) except -1:
    """ValueError unless ``dist`` has the padded shape and the next cells and
    directions the inner one, ``(rows, cols, 2)``."""
    cdef Py_ssize_t rows = padded.shape[0] - 2, cols = padded.shape[1] - 2
    if rows < 1 or cols < 1:
        raise ValueError(f"a padded grid has at least 3 x 3 cells; got {rows + 2} x {cols + 2}")
    if dist.shape[0] != padded.shape[0] or dist.shape[1] != padded.shape[1]:
        raise ValueError(f"dist must have the padded shape ({rows + 2}, {cols + 2})")
    for name, a, b, c in (
        ("next_cell", next_cell.shape[0], next_cell.shape[1], next_cell.shape[2]),
        ("direction", direction.shape[0], direction.shape[1], direction.shape[2]),
    ):
        if (a, b, c) != (rows, cols, 2):
            raise ValueError(f"{name} has shape ({a}, {b}, {c}); expected ({rows}, {cols}, 2)")
    return 0


def repair(
    const double[:, ::1] padded not None,
    grid_search.Workspace ws not None,
    double[:, ::1] dist not None,
    int32_t[::1] parent not None,
    const uint8_t[::1] goal not None,
    const Py_ssize_t[:] changed not None,
    Py_ssize_t[:, :, ::1] next_cell not None,
    double[:, :, ::1] direction not None,
    *,
    int diagonal,
):
    """Repair the padded distance field ``dist``, its tree ``parent`` and the next
    cells after the cells ``changed`` (padded flat indices) changed cost (see the
    module). ``goal`` marks the goals (1), padded flat. Returns ``(invalidated,
    expanded, pointed)``: the cells whose distance was dropped, the cells the wave
    expanded, the cells whose next cell was recomputed."""
    cdef Py_ssize_t H = padded.shape[0], W = padded.shape[1], n = H * W
    cdef Py_ssize_t i, j, x, y, u, v, p, r
    cdef int k
    cdef double w, gu, step
    cdef const double* cost
    cdef double* d
    cdef int32_t* par
    cdef Moves m = moves_of(W, diagonal)
    cdef Stack hs, rs, cs
    cdef machine.Outcome out
    cdef int failed = 0, corners
    cdef int64_t left = -1
    cdef Py_ssize_t pointed = 0
    _check_shapes(padded, dist, next_cell, direction)
    if parent.shape[0] != n or goal.shape[0] != n:
        raise ValueError(f"parent and goal must hold {n} entries (the padded grid)")
    if ws.capacity < n:
        raise ValueError(f"workspace of {ws.capacity} cells is too small for {n}")
    grid_search.check_cells("changed", changed, H, W)
    cost = &padded[0, 0]
    d = &dist[0, 0]
    par = &parent[0]
    hs.data = rs.data = cs.data = NULL
    hs.size = rs.size = cs.size = 0
    hs.cap = rs.cap = cs.cap = 0
    machine.begin(&out)
    with nogil:
        # 1. H: the changed cells and, under a corner rule, their four neighbours.
        ws.next_generation()
        for i in range(changed.shape[0]):
            x = changed[i]
            corners = 4 if diagonal != grid_search.NEVER and diagonal != grid_search.ALWAYS else 0
            for k in range(-1, corners):
                y = x if k < 0 else x + m.off[k]
                if interior(y, W, H) and ws.cell[y].mark != ws.gen:
                    ws.cell[y].mark = ws.gen
                    if push(&hs, y) != 0:
                        failed = 1
        # ... whose tree step broke, with everything below them: R.
        for i in range(hs.size):
            y = hs.data[i]
            if par[y] == -2:
                continue  # already dropped
            if goal[y]:
                if cost[y] == INFINITY:
                    if d[y] == INFINITY:
                        continue
                elif d[y] != 0.0:  # a goal open again: a source again
                    d[y] = 0.0
                    par[y] = -1
                    if push(&cs, y) != 0:
                        failed = 1
                    continue
                else:
                    continue
            elif d[y] == INFINITY:
                continue  # nothing to lose (the wave will see if it is reached now)
            else:
                p = par[y]
                k = move_between(&m, p, y) if p >= 0 else -1
                w = step_cost(cost, &m, diagonal, p, k) if k >= 0 else INFINITY
                if p >= 0 and d[p] + w <= d[y]:
                    continue  # its way in holds (no dearer, or cheaper)
            d[y] = INFINITY
            par[y] = -2
            if push(&rs, y) != 0:
                failed = 1
        i = 0
        while i < rs.size:  # the subtrees below the dropped cells
            x = rs.data[i]
            i += 1
            for k in range(m.count):
                y = x + m.off[k]
                if par[y] == x:
                    d[y] = INFINITY
                    par[y] = -2
                    if push(&rs, y) != 0:
                        failed = 1
        # 2. One wave from the cells around H and R, each at its own distance.
        ws.next_generation()
        for j in range(2):
            for i in range(hs.size if j == 0 else rs.size):
                x = hs.data[i] if j == 0 else rs.data[i]
                for k in range(-1, 8):
                    y = x if k < 0 else x + m.off[k]
                    if d[y] != INFINITY:
                        if machine.open_source(ws, &out, MODE_DIJKSTRA, 1.0, TIE_G, NULL,
                                       INFINITY, y, d[y], 0.0) != 0:
                            failed = 1
        while not failed:
            u = machine.next_node(ws, &out, &left, -1, False, False)
            if u < 0:
                failed = machine.stop(u)
                break
            gu = ws.cell[u].g
            if gu < d[u]:
                d[u] = gu
                par[u] = ws.cell[u].parent
                if push(&cs, u) != 0:
                    failed = 1
            for k in range(m.count):
                step = step_cost(cost, &m, diagonal, u, k)
                if step != INFINITY:
                    if relax(ws, &out, d, u, gu, u + m.off[k], step) != 0:
                        failed = 1
        for i in range(rs.size):
            if par[rs.data[i]] == -2:
                par[rs.data[i]] = -1  # not reached again
        # 3. The next cell of every cell the change may have turned.
        ws.next_generation()
        for j in range(3):
            for i in range(hs.size if j == 0 else rs.size if j == 1 else cs.size):
                x = hs.data[i] if j == 0 else rs.data[i] if j == 1 else cs.data[i]
                for k in range(-1, 8):
                    y = x if k < 0 else x + m.off[k]
                    if interior(y, W, H) and ws.cell[y].mark != ws.gen:
                        ws.cell[y].mark = ws.gen
                        r = y // W
                        pointed += 1
                        point_cell(
                            cost, d, &m, diagonal, y, W,
                            &next_cell[r - 1, y - r * W - 1, 0],
                            &direction[r - 1, y - r * W - 1, 0],
                        )
    dropped = rs.size
    free(hs.data)
    free(rs.data)
    free(cs.data)
    if failed:
        raise MemoryError("the flow field repair ran out of memory")
    return dropped, out.expanded, pointed
