# cython: language_level=3
"""Compiled best-first search on 3-D voxel grids: A*, greedy, Dijkstra and distance
fields over voxels ``(z, row, col)`` with 6, 18 or 26 neighbours.

The grid is a flat ``float64`` cost array of shape ``(depth + 2, rows + 2, cols + 2)``:
the voxels padded by one layer of walls (``inf``) on every side, so the inner loop
has no bounds checks. Entering voxel ``v`` by a move of length ``L`` (1, sqrt 2 or
sqrt 3) costs ``cost[v] * L``; ``inf`` is a wall.

The 26 neighbour offsets are numbered faces first (0-5), then edges (6-17), then
corners (18-25); connectivity ``k`` uses the first ``k``. An expansion reads the ``k``
neighbours once into a bit mask of the walkable ones, and move ``i`` is allowed when
every bit of its need mask is set: its own voxel, and for a diagonal move every voxel
it sweeps past (an edge move: the two face neighbours it passes between; a corner
move: the three face and the three edge neighbours around it). With ``cut_corners``
a move needs only the voxel it enters.

The search is the skeleton of :mod:`pathcraft._core.machine`, like
:mod:`pathcraft._core.stencil`'s. Every ``def`` entry checks the voxels and the
workspace size it is given before the GIL is released (IndexError or ValueError,
never a crash) and trusts the option codes, which the Python front door validates.
"""

from libc.math cimport INFINITY, fabs, isnan, sqrt
from libc.stdint cimport int64_t, uint32_t, uint64_t

import numpy as np

from pathcraft._core cimport machine  # the search skeleton


# Heuristic codes: zero, or the octile distance of the connectivity.
cdef enum:
    H_ZERO = 0
    H_OCTILE = 1

#: The codes, for the Python front door.
HEURISTICS = {"zero": H_ZERO, "octile": H_OCTILE}
CONNECTIVITIES = (6, 18, 26)


def neighbour_offsets():
    """The 26 ``(dz, dr, dc)`` neighbour offsets in kernel order: faces, edges,
    corners (connectivity ``k`` uses the first ``k``)."""
    out = []
    for axes in (1, 2, 3):
        for dz in (-1, 0, 1):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dz != 0) + (dr != 0) + (dc != 0) == axes:
                        out.append((dz, dr, dc))
    return out


cdef list OFFSETS = neighbour_offsets()


def need_masks():
    """For each of the 26 offsets, the bit mask (over the offsets) of the voxels that
    must be walkable for the move: the voxel entered and every offset whose nonzero
    components are a proper subset of the move's (the voxels it sweeps past)."""
    masks = []
    for i, m in enumerate(OFFSETS):
        mask = 1 << i
        for j, o in enumerate(OFFSETS):
            if j != i and all(oc == 0 or oc == mc for oc, mc in zip(o, m)):
                mask |= 1 << j
        masks.append(mask)
    return masks


cdef list NEEDS = need_masks()

# The same tables as C arrays, filled once at import.
cdef int OFF[26][3]
cdef uint32_t NEED[26]
cdef double LENGTH[26]
for _k in range(26):
    OFF[_k][0], OFF[_k][1], OFF[_k][2] = OFFSETS[_k]
    NEED[_k] = NEEDS[_k]
    LENGTH[_k] = sqrt(<double> (OFF[_k][0] ** 2 + OFF[_k][1] ** 2 + OFF[_k][2] ** 2))


cdef class Workspace(machine.BaseWorkspace):
    """Per-thread search state for voxel grids of up to ``capacity`` (padded)
    voxels: the skeleton's workspace (``machine.BaseWorkspace``)."""
    pass


cdef struct Query:
    const double* cost
    Py_ssize_t plane          # padded rows * padded cols
    Py_ssize_t width          # padded cols
    int nk                    # connectivity: 6, 18 or 26
    Py_ssize_t delta[26]
    double factor[26]
    uint32_t need[26]
    int hkind
    double hscale
    Py_ssize_t goal
    Py_ssize_t goal_z         # padded coordinates (differences only)
    Py_ssize_t goal_r
    Py_ssize_t goal_c
    bint use_goal_set
    machine.Settings s


cdef inline void aim(Query* q, Py_ssize_t goal) noexcept nogil:
    q.goal = goal
    if goal < 0:
        goal = 0
    q.goal_z = goal // q.plane
    q.goal_r = (goal % q.plane) // q.width
    q.goal_c = goal % q.width


cdef inline double octile(int nk, double a, double b, double c) noexcept nogil:
    """The cost of the cheapest free-space path across ``|d|`` = (a, b, c) voxels of
    cost 1 with ``nk`` neighbours (the exact distance of the move lattice)."""
    cdef double t, s, pairs
    # sort descending: a >= b >= c
    if a < b:
        t = a; a = b; b = t
    if b < c:
        t = b; b = c; c = t
    if a < b:
        t = a; a = b; b = t
    if nk == 6:
        return a + b + c
    if nk == 26:
        return 1.7320508075688772 * c + 1.4142135623730951 * (b - c) + (a - b)
    # 18: each move changes one or two axes; use as many two-axis moves as possible
    if a >= b + c:
        return 1.4142135623730951 * (b + c) + (a - b - c)
    s = a + b + c
    pairs = <double> (<int64_t> s // 2)
    return 1.4142135623730951 * pairs + (s - 2.0 * pairs)


cdef inline double heuristic(const Query* q, Py_ssize_t v) noexcept nogil:
    cdef Py_ssize_t z, r, c
    if q.hkind == H_ZERO:
        return 0.0
    z = v // q.plane
    r = (v % q.plane) // q.width
    c = v % q.width
    return octile(
        q.nk, fabs(<double> (z - q.goal_z)), fabs(<double> (r - q.goal_r)),
        fabs(<double> (c - q.goal_c)),
    ) * q.hscale


cdef int run_search(
    Query* q, machine.BaseWorkspace ws, machine.Outcome* out, int64_t budget
) noexcept nogil:
    """The search loop as a step machine: expand at most ``budget`` voxels (-1: no
    bound). Sources are already pushed; returns -1 when memory ran out."""
    cdef Py_ssize_t u, v
    cdef double gu, d
    cdef int k
    cdef uint32_t free
    cdef int64_t left = budget
    while True:
        u = machine.next_to_expand(ws, out, &left, &q.s, q.goal, q.use_goal_set)
        if u < 0:
            return machine.stop(u)
        gu = ws.cell[u].g
        if q.s.partial:
            machine.note_best(out, u, heuristic(q, u))
        free = 0
        for k in range(q.nk):
            if q.cost[u + q.delta[k]] != INFINITY:
                free |= (<uint32_t> 1) << k
        for k in range(q.nk):
            if (free & q.need[k]) != q.need[k]:
                continue
            v = u + q.delta[k]
            d = gu + q.cost[v] * q.factor[k]
            if machine.improves(ws, out, q.s.mode, q.s.reopen, q.s.max_cost, v, d):
                if machine.open_node(
                    ws, out, q.s.mode, q.s.weight, q.s.tie, &q.s.rng, u, v, d, heuristic(q, v)
                ) != 0:
                    return -1


cdef int check_voxel(str name, Py_ssize_t v, const Py_ssize_t* shape) except -1:
    """IndexError unless the padded flat index ``v`` lies inside the (unpadded) grid."""
    cdef Py_ssize_t plane = shape[1] * shape[2]
    cdef Py_ssize_t z = v // plane if v >= 0 else -1
    cdef Py_ssize_t rest = v - z * plane
    cdef Py_ssize_t r = rest // shape[2]
    cdef Py_ssize_t c = rest - r * shape[2]
    if not (1 <= z < shape[0] - 1 and 1 <= r < shape[1] - 1 and 1 <= c < shape[2] - 1):
        raise IndexError(
            f"{name}: padded voxel index {v} is not inside the "
            f"{shape[0] - 2} x {shape[1] - 2} x {shape[2] - 2} grid"
        )
    return 0


cdef int check_voxels(str name, const Py_ssize_t[:] cells, const Py_ssize_t* shape) except -1:
    cdef Py_ssize_t i
    for i in range(cells.shape[0]):
        check_voxel(name, cells[i], shape)
    return 0


cdef Query make_query(
    const double[:, :, ::1] padded, Workspace ws, int connectivity, bint cut_corners,
    int hkind, double hscale,
) except *:
    """The world of one query (its settings ``s`` and goal are filled after), after
    checking the workspace and the padding."""
    cdef Query q
    cdef Py_ssize_t n = padded.shape[0] * padded.shape[1] * padded.shape[2], k
    if ws.capacity < n:
        raise ValueError(f"workspace of {ws.capacity} voxels is too small for {n}")
    if padded.shape[0] < 3 or padded.shape[1] < 3 or padded.shape[2] < 3:
        raise ValueError("a padded voxel grid has at least 3 layers, rows and columns")
    if connectivity not in CONNECTIVITIES:
        raise ValueError(f"connectivity must be 6, 18 or 26; got {connectivity}")
    q.cost = &padded[0, 0, 0]
    q.width = padded.shape[2]
    q.plane = padded.shape[1] * padded.shape[2]
    q.nk = connectivity
    for k in range(26):
        q.delta[k] = OFF[k][0] * q.plane + OFF[k][1] * q.width + OFF[k][2]
        q.factor[k] = LENGTH[k]
        q.need[k] = (<uint32_t> 1) << k if cut_corners else NEED[k]
    q.hkind = hkind
    q.hscale = hscale
    aim(&q, -1)
    q.use_goal_set = False
    return q


cdef double steps_cost(const Query* q, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
    """The sum of the steps along the ``n`` voxels of ``path``, from start to goal."""
    cdef Py_ssize_t i, k
    cdef double total = 0.0, f
    for i in range(1, n):
        f = INFINITY
        for k in range(q.nk):
            if path[i - 1] + q.delta[k] == path[i]:
                f = q.factor[k]
                break
        total = total + q.cost[path[i]] * f
    return total


cdef object to_voxels(const Py_ssize_t[::1] flat, Py_ssize_t plane, Py_ssize_t width):
    """Padded flat indices as an ``(n, 3)`` array of the grid's ``(z, row, col)``."""
    cdef Py_ssize_t i, v
    cells = np.empty((flat.shape[0], 3), dtype=np.intp)
    cdef Py_ssize_t[:, ::1] view = cells
    for i in range(flat.shape[0]):
        v = flat[i]
        view[i, 0] = v // plane - 1
        view[i, 1] = (v % plane) // width - 1
        view[i, 2] = v % width - 1
    return cells


cdef class VoxelSearch(machine.CellSearch):
    """One voxel-grid search (A*, greedy or Dijkstra) as a step machine (see
    ``machine.CellSearch``): :meth:`step` expands at most ``n`` voxels; then
    :meth:`answer` is what :func:`search` returns."""

    cdef Query q
    cdef const double[:, :, ::1] padded

    # These arguments repeat those of the machines of grid_search.pyx and stencil.pyx,
    # each typed for its own kernel: Cython types a def's arguments per function, so each
    # kernel writes its own (the search options are one of them, settings).
    def __init__(
        self,
        const double[:, :, ::1] padded not None,
        Workspace ws not None,
        const Py_ssize_t[:] sources not None,
        Py_ssize_t goal,
        const Py_ssize_t[:] goal_set,
        *,
        int connectivity,
        bint cut_corners,
        int hkind,
        double hscale,
        machine.KernelSettings settings not None,
    ):
        self.q = make_query(padded, ws, connectivity, cut_corners, hkind, hscale)
        self.use_settings(&self.q.s, settings)
        self.padded = padded
        self.q.use_goal_set = self.open_sources("voxel", ws, sources, goal, goal_set)

    # The loop and the hooks below read as those of stencil.pyx and layered.pyx: each
    # calls its own kernel's inline functions on its own Query struct, and Cython has no
    # generics over a struct type to write them once (machine.CellSearch holds all the
    # rest).
    cdef int run(self, int64_t budget) noexcept nogil:
        return run_search(&self.q, self.ws, &self.out, budget)

    cdef int check_place(self, str name, Py_ssize_t place) except -1:
        return check_voxel(name, place, &self.padded.shape[0])

    cdef void aim_at(self, Py_ssize_t goal) noexcept nogil:
        aim(&self.q, goal)

    cdef double heuristic_of(self, Py_ssize_t place) noexcept nogil:
        return heuristic(&self.q, place)

    cdef double steps_cost_of(self, const Py_ssize_t* path, Py_ssize_t n) noexcept nogil:
        return steps_cost(&self.q, path, n)

    cdef object to_places(self, const Py_ssize_t[::1] flat):
        return to_voxels(flat, self.q.plane, self.q.width)


def search(padded, Workspace ws, sources, Py_ssize_t goal, goal_set, **args):
    """Run one search (one unlimited step of a :class:`VoxelSearch`). Returns
    ``(status, path_voxels, cost, expanded, generated, rec_voxels, rec_g)`` where
    ``path_voxels`` is an ``(n, 3)`` array of ``(z, row, col)`` voxels."""
    return VoxelSearch(padded, ws, sources, goal, goal_set, **args).finish()


# This prologue repeats the other kernels' costs-only entries (search_costs, theta_costs,
# jps_costs), each typed for its own kernel; the checks and the loop they share are
# machine.costs_pairs and machine.run_costs.
def search_costs(
    const double[:, :, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[::1] starts not None,
    const Py_ssize_t[::1] goals not None,
    double[::1] costs not None,
    *,
    machine.KernelSettings settings not None,
    **args,
):
    """One search per ``(starts[i], goals[i])`` pair, the GIL released; each path's
    cost to ``costs[i]`` (``inf`` where none was found)."""
    if not machine.costs_pairs("search_costs", settings, starts, goals, costs):
        return
    check_voxels("starts", starts, &padded.shape[0])
    check_voxels("goals", goals, &padded.shape[0])
    m = VoxelSearch(padded, ws, starts[:1], goals[0], None, settings=settings, **args)
    machine.run_costs(m, starts, goals, costs)


def field(
    const double[:, :, ::1] padded not None,
    Workspace ws not None,
    const Py_ssize_t[:] sources not None,
    double[:, :, ::1] out_costs not None,
    *,
    int connectivity,
    bint cut_corners,
    double max_cost,
    Py_ssize_t[:, :, ::1] out_parents=None,
):
    """Dijkstra from every source at once; each voxel's cost to the nearest source in
    ``out_costs`` (the unpadded shape), ``inf`` where none is reachable; with
    ``out_parents`` (the same shape), each voxel's parent on its cheapest path as a
    padded flat index (-1 for sources and voxels not reached). Returns the number of
    expansions."""
    cdef machine.Outcome out
    cdef Py_ssize_t s, z, r, c
    cdef Py_ssize_t P = padded.shape[1] * padded.shape[2], W = padded.shape[2]
    cdef int failed = 0
    cdef bint tree = out_parents is not None
    if tree and (
        out_parents.shape[0] != out_costs.shape[0] or out_parents.shape[1] != out_costs.shape[1]
        or out_parents.shape[2] != out_costs.shape[2]
    ):
        raise ValueError("out_parents must have the shape of out_costs")
    cdef Query q = make_query(padded, ws, connectivity, cut_corners, H_ZERO, 0.0)
    if (
        out_costs.shape[0] != padded.shape[0] - 2 or out_costs.shape[1] != padded.shape[1] - 2
        or out_costs.shape[2] != padded.shape[2] - 2
    ):
        raise ValueError(
            f"out_costs has shape ({out_costs.shape[0]}, {out_costs.shape[1]}, "
            f"{out_costs.shape[2]}); the grid is {padded.shape[0] - 2} x "
            f"{padded.shape[1] - 2} x {padded.shape[2] - 2}"
        )
    check_voxels("sources", sources, &padded.shape[0])
    with nogil:
        failed = machine.begin_field(ws, &out, &q.s, max_cost, sources)
        if not failed:
            failed = run_search(&q, ws, &out, -1)
        if not failed:
            for z in range(out_costs.shape[0]):
                for r in range(out_costs.shape[1]):
                    for c in range(out_costs.shape[2]):
                        s = (z + 1) * P + (r + 1) * W + c + 1
                        if ws.cell[s].mark == ws.gen + 1:
                            out_costs[z, r, c] = ws.cell[s].g
                            if tree:
                                out_parents[z, r, c] = ws.cell[s].parent
                        else:
                            out_costs[z, r, c] = INFINITY
                            if tree:
                                out_parents[z, r, c] = -1
    if failed:
        raise MemoryError("the distance field ran out of memory")
    return out.expanded


def scan(const double[:, :, ::1] padded not None):
    """One pass over the voxels inside the padding: ``(smallest, largest finite,
    first bad)`` where ``first bad`` is the padded flat index of the first NaN or
    value <= 0 (-1 when none), ``smallest`` is ``inf`` when every voxel is a wall and
    ``largest finite`` 0.0 then. The GIL is released."""
    cdef Py_ssize_t z, r, c
    cdef Py_ssize_t P = padded.shape[1] * padded.shape[2], W = padded.shape[2]
    cdef Py_ssize_t bad = -1
    cdef double lo = INFINITY, hi = 0.0, x
    with nogil:
        for z in range(1, padded.shape[0] - 1):
            for r in range(1, padded.shape[1] - 1):
                for c in range(1, padded.shape[2] - 1):
                    x = padded[z, r, c]
                    if isnan(x) or x <= 0.0:
                        bad = z * P + r * W + c
                        break
                    if x < lo:
                        lo = x
                    if x > hi and x != INFINITY:
                        hi = x
                if bad >= 0:
                    break
            if bad >= 0:
                break
    return lo, hi, bad
