"""The portal graph the funnel's corridor search runs on.

A *portal* is the boundary two neighbouring polygons share (one segment, made of one
or more collinear edges). The graph's nodes are portals placed at their midpoints;
inside each polygon every portal links to every other by the distance between their
midpoints (times the polygon's area cost), the straight move a walker makes across a
convex polygon. This is how Detour and Godot cost corridors (edge midpoints), and it
follows the way a path actually crosses the mesh much better than distances between
polygon centres: a long thin polygon no longer looks expensive to cross sideways.

A search starts at the portals of the start's polygons (at the distance from the start
to each midpoint) and ends through the portals of the goal's polygons (at the distance
from each midpoint to the goal), by the compiled graph search's start and exit costs,
so no graph is built per query. :func:`corridor_of` turns the portals it returns into
the polygons crossed, for the funnel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pathcraft.graph import Graph
from pathcraft.navmesh._build import Topology

__all__ = ["Portals", "build_portals", "corridor_of"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class Portals:
    """The portal graph of a mesh (see the module documentation).

    Attributes
    ----------
    graph : Graph
        Nodes are points on portals (coordinates ``(x, y)``, see ``mid``).
    sides : ndarray of int32, shape (m, 2)
        The two polygons of each portal, the lower index first.
    mid : ndarray of float64, shape (len(FRACTIONS) * m, 2)
        The graph's nodes: node ``f * m + i`` is the point at ``FRACTIONS[f]`` along
        portal ``i``.
    offsets, members : ndarray of int64, ndarray of int32
        The portals of polygon ``p`` are ``members[offsets[p]:offsets[p + 1]]`` (CSR).
    costs : ndarray of float64, shape (n,)
        The area cost of each polygon the graph was built with.
    """

    graph: Graph
    sides: IntArray
    mid: FloatArray
    offsets: npt.NDArray[np.int64]
    members: IntArray
    costs: FloatArray

    def ends(self, polys: IntArray, point: FloatArray) -> tuple[npt.NDArray[np.intp], FloatArray]:
        """The portals of ``polys`` and the cost of the straight move between
        ``point`` and each midpoint (times the polygon's area cost; the cheapest
        polygon when a portal borders two of them)."""
        m = self.sides.shape[0]
        picks = [self.members[self.offsets[p] : self.offsets[p + 1]] for p in polys.tolist()]
        owner = np.tile(np.repeat(polys, [len(x) for x in picks]), len(FRACTIONS))
        ids = np.concatenate(picks) if picks else np.empty(0, dtype=np.int32)
        ids = np.concatenate([ids + m * f for f in range(len(FRACTIONS))])
        dist = np.sqrt(((self.mid[ids] - point) ** 2).sum(axis=1)) * self.costs[owner]
        order = np.lexsort((dist, ids))
        ids, dist = ids[order], dist[order]
        first = np.ones(ids.shape[0], dtype=bool)
        first[1:] = ids[1:] != ids[:-1]
        return ids[first].astype(np.intp), dist[first]


#: Where on each portal the graph's nodes sit, as fractions from one end to the other:
#: both ends (where shortest paths bend, at corners), the midpoint and the quarters
#: (on Moving AI maps: 2 points worst 2.1x optimal, 3 points 1.6x, 5 points 1.3x,
#: 9 points 1.07x at 1.5x the query time of 5).
FRACTIONS = (0.0, 0.5, 1.0)


def build_portals(top: Topology, costs: FloatArray | None = None) -> Portals:
    """The portal graph of ``top`` with area ``costs`` per polygon (all 1 when
    ``None``; checked by the caller: finite and positive)."""
    npoly = top.poff.shape[0] - 1
    costs = np.ones(npoly) if costs is None else np.asarray(costs, dtype=np.float64)
    nedge = top.pv.shape[0]
    nxt = np.arange(1, nedge + 1)
    nxt[top.poff[1:] - 1] = top.poff[:-1]
    keep = np.flatnonzero((top.nbr >= 0) & (top.poly_of < top.nbr))
    a, b = top.poly_of[keep].astype(np.int64), top.nbr[keep].astype(np.int64)
    keys, first, inverse = np.unique(a * npoly + b, return_index=True, return_inverse=True)
    m = keys.shape[0]
    sides = np.stack((keys // npoly, keys % npoly), axis=1).astype(np.int32)
    # The portal is the segment all its collinear edges span: its ends are the
    # extreme edge ends along the direction of one of its edges.
    u, v = top.xy[top.pv[keep]], top.xy[top.pv[nxt[keep]]]
    ref, direction = u[first], (v - u)[first]
    pts = np.concatenate((u, v))
    which = np.concatenate((inverse, inverse))
    proj = ((pts - ref[which]) * direction[which]).sum(axis=1)
    order = np.lexsort((proj, which))
    starts = np.searchsorted(which[order], np.arange(m))
    stops = np.append(starts[1:], order.shape[0])[:m] - 1  # (none for a mesh without portals)
    end0, end1 = pts[order[starts]], pts[order[stops]]
    nf = len(FRACTIONS)
    point = np.concatenate([end0 + (end1 - end0) * f for f in FRACTIONS])
    # The portals of each polygon (CSR).
    poly = np.concatenate((sides[:, 0], sides[:, 1]))
    ids = np.concatenate((np.arange(m), np.arange(m))).astype(np.int32)
    order = np.argsort(poly, kind="stable")
    poly, ids = poly[order], ids[order]
    degree = np.bincount(poly, minlength=npoly)
    offsets = np.zeros(npoly + 1, dtype=np.int64)
    np.cumsum(degree, out=offsets[1:])
    # Within each polygon, every portal to every other (pairs of portals first).
    rep = degree[poly]
    src = np.repeat(ids, rep)
    base = np.repeat(offsets[poly], rep)
    local = np.arange(src.shape[0]) - np.repeat(np.cumsum(rep) - rep, rep)
    dst = ids[base + local]
    via = np.repeat(poly, rep)
    other = src != dst
    src, dst, via = src[other], dst[other], via[other]
    # Then every point of the one to every point of the other.
    fi, fj = np.meshgrid(np.arange(nf), np.arange(nf), indexing="ij")
    src = (src[:, None] + m * fi.ravel()[None, :]).ravel()
    dst = (dst[:, None] + m * fj.ravel()[None, :]).ravel()
    via = np.repeat(via, nf * nf)
    weight = np.sqrt(((point[src] - point[dst]) ** 2).sum(axis=1)) * costs[via]
    if m == 0:
        graph = Graph(1, [], [], coords=[[0.0, 0.0]])
    else:
        graph = Graph(nf * m, src, dst, weight, coords=point)
    return Portals(graph, sides, point, offsets, ids, costs)


def corridor_of(
    portals: Portals, nodes: npt.NDArray[np.int32], sp: IntArray, gp: IntArray | None
) -> IntArray:
    """The polygons a walk through the portals ``nodes`` crosses, from one of the
    start's polygons ``sp`` to one of the goal's ``gp`` (``None`` for a partial walk,
    which ends beyond its last portal)."""
    sides = portals.sides
    nodes = nodes % sides.shape[0]  # the portal of each point
    k = nodes.shape[0]
    if k == 0:
        return np.empty(0, dtype=np.int32)
    first = sides[nodes[0]]
    if k == 1:
        head = int(first[0]) if np.isin(first[0], sp) else int(first[1])
        tail = int(first[1]) if head == first[0] else int(first[0])
        return np.array([head, tail], dtype=np.int32)
    while True:
        # The polygon shared by each two consecutive portals; a portal between two
        # moves through the same polygon (a tie among collinear points) is a detour.
        a, b = sides[nodes[:-1]], sides[nodes[1:]]
        shared = np.where((a[:, 0] == b[:, 0]) | (a[:, 0] == b[:, 1]), a[:, 0], a[:, 1])
        again = np.flatnonzero(shared[1:] == shared[:-1]) + 1
        if again.size == 0:
            break
        nodes = np.delete(nodes, again)
        if nodes.shape[0] == 1:
            return corridor_of(portals, nodes, sp, gp)
    head = int(first[1]) if first[0] == shared[0] else int(first[0])
    last = sides[nodes[-1]]
    tail = int(last[1]) if last[0] == shared[-1] else int(last[0])
    polys = [head, *shared.tolist(), tail]
    if not np.isin(head, sp):  # the start is in the first shared polygon itself
        polys = polys[1:]
    if gp is not None and not np.isin(tail, gp):
        polys = polys[:-1]
    return np.asarray(polys, dtype=np.int32)
