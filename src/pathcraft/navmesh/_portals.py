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

After a local change (carving, new area costs) :func:`patch_portals` makes the graph
from the one before: the portals of the polygons that changed are found again and the
graph rows of every portal of the polygons around them are made again, by the same
pieces :func:`build_portals` builds with (:func:`_geometry`, :func:`_edges`); the
other rows are copied in runs (:func:`pathcraft.graph._csr.merge_rows`) and handed
to ``Graph.from_trusted_csr``, which trusts them (no checks, no sort). The result is
:func:`build_portals`' graph of the new mesh, array for array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique
from pathcraft.graph import Graph
from pathcraft.graph.kit import merge_rows, row_places, splice_rows
from pathcraft.navmesh._build import Topology

__all__ = ["FRACTIONS", "Portals", "build_portals", "corridor_of", "patch_portals"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class Portals:
    """The portal graph of a mesh (see the module documentation).

    Portals are numbered by polygon pair (``sides`` sorted), so that the graph
    :func:`patch_portals` makes after a change is the one :func:`build_portals` makes,
    array for array (and every search on it takes the same way, ties included).

    Attributes
    ----------
    graph : Graph
        Nodes are points on portals (coordinates ``(x, y)``, see ``mid``); made by
        ``Graph.from_trusted_csr`` from the arrays built here.
    sides : ndarray of int32, shape (m, 2)
        The two polygons of each portal, the lower index first, sorted.
    mid : ndarray of float64, shape (len(FRACTIONS) * m, 2)
        The graph's nodes: node ``f * m + i`` is the point at ``FRACTIONS[f]`` along
        portal ``i``.
    offsets, members : ndarray of int64, ndarray of int32
        The portals of polygon ``p`` are ``members[offsets[p]:offsets[p + 1]]`` (CSR):
        those where ``p`` is the lower side first, then those where it is the higher,
        each in increasing order (the order of a node's edges, which breaks a
        search's ties).
    costs : ndarray of float64, shape (n,)
        The area cost of each polygon the graph was built with.
    lengths : ndarray of float64
        The straight length of each edge of ``graph``, in CSR order (its weight is
        that times the area cost of the polygon it crosses).
    ratios : ndarray of float64, shape (len(FRACTIONS) * m,)
        For each node, the smallest ``weight / length`` over its edges of positive
        length (``inf`` for none): their minimum is the graph's heuristic scale (less
        its margin), kept per node so that a patch need not pass over every edge.
    """

    graph: Graph
    sides: IntArray
    mid: FloatArray
    offsets: npt.NDArray[np.int64]
    members: IntArray
    costs: FloatArray
    lengths: FloatArray
    ratios: FloatArray

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
    ``None``; checked by the caller: positive, finite but for ``inf``, which a query
    filter gives the polygons it excludes: every edge across them weighs ``inf``,
    which the graph search skips)."""
    npoly = top.poff.shape[0] - 1
    costs = np.ones(npoly) if costs is None else np.asarray(costs, dtype=np.float64)
    keep = np.flatnonzero((top.nbr >= 0) & (top.poly_of < top.nbr))
    sides, end0, end1 = _geometry(top, keep)
    m = sides.shape[0]
    point = _points(end0, end1)
    pairs = np.concatenate((sides[:, 0], sides[:, 1]))
    ids = np.tile(np.arange(m, dtype=np.int32), 2)
    side = np.repeat(np.arange(2), m)
    offsets, (members,) = splice_rows(
        np.zeros(1, dtype=np.int64), [np.empty(0, dtype=np.int32)], *_rows(pairs, side, ids), npoly
    )
    counts, fresh, ratios = _edges(np.arange(m), sides, point, offsets, members, costs)
    nodes = len(FRACTIONS) * m
    node_offsets = np.zeros(nodes + 1, dtype=np.int64)
    np.cumsum(counts, out=node_offsets[1:])
    targets, lengths, weights = fresh
    graph = _graph(node_offsets, targets, weights, point, lengths, ratios)
    return Portals(graph, sides, point, offsets, members, costs, lengths, ratios)


def patch_portals(
    old: Portals,
    top: Topology,
    costs: FloatArray | None,
    changed: npt.NDArray[np.intp],
    recost: npt.NDArray[np.intp] | None = None,
) -> Portals:
    """The portal graph of ``top`` made from ``old``, the graph of the mesh before a
    local change, in time proportional to the change (plus a few passes of ``memcpy``
    speed over the arrays).

    Parameters
    ----------
    old : Portals
        The graph of the mesh before the change (not written).
    top : Topology
        The mesh after it.
    costs : ndarray of float64 or None
        The area costs after it (None: all 1).
    changed : ndarray of intp
        The polygon ids (new numbering) whose polygon is new or another one than
        before (:attr:`pathcraft.navmesh._carve.Splice.changed`, or their union over
        several splices): every other id below both the old and the new polygon count
        holds the same polygon as before, with the same edges (its neighbours across
        them may have changed). Ids from the new count up are gone.
    recost : ndarray of intp or None
        Polygons whose area cost changed (:meth:`pathcraft.NavMesh.set_area_cost`).

    Returns
    -------
    Portals
        ``build_portals(top, costs)``, array for array: portals are numbered by
        polygon pair, so the portals a change leaves keep their order and only the
        portals around it are made again (:func:`_geometry`, :func:`_edges`, the
        pieces of the full build); the other rows of the graph are copied in runs,
        their targets renumbered (:func:`~pathcraft.graph._csr.merge_rows`).
    """
    nf = len(FRACTIONS)
    n = top.poff.shape[0] - 1
    old_n = old.offsets.shape[0] - 1
    costs = np.ones(n) if costs is None else np.asarray(costs, dtype=np.float64)
    changed = sorted_unique(np.asarray(changed, dtype=np.intp))
    changed = changed[changed < n]
    stale = np.union1d(changed[changed < old_n], np.arange(n, old_n, dtype=np.intp))
    # the portals of the polygons that changed or left are gone; new ones found
    dead = sorted_unique(old.members[row_places(old.offsets, stale)]).astype(np.intp)
    new_sides, end0, end1 = _geometry(top, _places(top, changed))
    m_old = old.sides.shape[0]
    alive = np.ones(m_old, dtype=bool)
    alive[dead] = False
    kept = np.flatnonzero(alive)
    # numbered by polygon pair (the kept ones are in order already): merge the new in
    kept_key = old.sides[kept, 0].astype(np.int64) * n + old.sides[kept, 1]
    new_key = new_sides[:, 0].astype(np.int64) * n + new_sides[:, 1]
    fresh_id = np.searchsorted(kept_key, new_key) + np.arange(new_key.shape[0])
    kept_id = np.arange(kept.shape[0]) + np.searchsorted(new_key, kept_key)
    m = kept.shape[0] + new_key.shape[0]
    renumber = np.full(m_old, -1, dtype=np.intp)
    renumber[kept] = kept_id
    # (each row of two as one item: a gather of rows, at the speed of a 1-D one)
    sides = np.empty((m, 2), dtype=np.int32)
    sides.view(np.int64)[kept_id] = np.ascontiguousarray(old.sides).view(np.int64)[kept]
    sides[fresh_id] = new_sides
    rank = np.arange(nf)[:, None]  # each node f * m + i, its old one f * m_old + i
    mid = np.empty((nf * m, 2))
    pairs_of = np.ascontiguousarray(old.mid).view(np.complex128)
    mid.view(np.complex128)[(rank * m + kept_id).ravel()] = pairs_of[(rank * m_old + kept).ravel()]
    mid[(rank * m + fresh_id).ravel()] = _points(end0, end1)
    # the portal lists of the polygons that lost or gained a portal
    touched = np.concatenate((old.sides[dead].ravel(), new_sides.ravel())).astype(np.intp)
    touched = sorted_unique(touched[touched < n])
    before = touched[touched < old_n]
    size = old.offsets[before + 1] - old.offsets[before]
    held = renumber[old.members[row_places(old.offsets, before)]]
    owner = np.repeat(before, size)
    owner, held = owner[held >= 0], held[held >= 0]
    pairs = np.concatenate((owner, new_sides[:, 0], new_sides[:, 1]))
    side = np.concatenate((sides[held, 1] == owner, np.repeat([False, True], fresh_id.size)))
    ids = np.concatenate((held, fresh_id, fresh_id)).astype(np.int32)
    offsets, (members,) = splice_rows(
        old.offsets, [renumber[old.members].astype(np.int32)], *_rows(pairs, side, ids, touched), n
    )
    # the graph rows of every portal of those polygons (and of the polygons recosted)
    again = touched if recost is None else np.union1d(touched, recost[recost < n])
    redo = sorted_unique(members[row_places(offsets, again)]).astype(np.intp)
    counts, fresh, fresh_ratios = _edges(redo, sides, mid, offsets, members, costs)
    origin = np.full(m, -1, dtype=np.intp)  # the old id of each portal (-1: new)
    origin[kept_id] = kept
    origin[redo] = -1  # (made again)
    source = np.where(origin >= 0, rank * m_old + origin, -1).ravel()
    old_offsets, old_targets, old_weights = old.graph.csr
    if m_old == 0:  # the placeholder node of a graph without portals
        old_offsets = np.zeros(1, dtype=np.int64)
    # the old targets renumbered (a row that names a portal gone is made again)
    node = np.where(renumber >= 0, rank * m + renumber, -1).ravel().astype(np.int32)
    node_offsets, (targets, lengths, weights) = merge_rows(
        old_offsets, [node[old_targets], old.lengths, old_weights], source, counts, fresh
    )
    ratios = np.empty(source.shape[0])
    ratios[source >= 0] = old.ratios[source[source >= 0]]
    ratios[source < 0] = fresh_ratios
    graph = _graph(node_offsets, targets, weights, mid, lengths, ratios)
    return Portals(graph, sides, mid, offsets, members, costs, lengths, ratios)


def _graph(
    offsets: npt.NDArray[np.int64], targets: IntArray, weights: FloatArray, point: FloatArray,
    lengths: FloatArray, ratios: FloatArray,
) -> Graph:  # fmt: skip
    """The portal graph of these CSR arrays (one placeholder node without portals)."""
    if offsets.shape[0] == 1:
        return Graph(1, [], [], coords=[[0.0, 0.0]])
    return Graph.from_trusted_csr(offsets, targets, weights, point, lengths, float(ratios.min()))


def _rows(
    owner: npt.NDArray[Any], side: npt.NDArray[Any], ids: IntArray,
    rows: npt.NDArray[np.intp] | None = None,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], list[IntArray]]:  # fmt: skip
    """The rows (``rows``, or every owner) of a polygon-to-portal CSR with portal
    ``ids[i]`` in the row of polygon ``owner[i]``, which is its side ``side[i]`` (0:
    the lower), each row in the order of :attr:`Portals.members`: ``(rows, counts,
    [values])`` for :func:`splice_rows`."""
    order = np.lexsort((ids, side, owner))
    owner, ids = owner[order], ids[order]
    if rows is None:
        rows = sorted_unique(owner).astype(np.intp)
    counts = np.bincount(np.searchsorted(rows, owner), minlength=rows.shape[0]).astype(np.int64)
    return rows, counts, [ids.astype(np.int32)]


def _places(top: Topology, polys: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The edge places (each on the lower-id side) of every portal with a side in
    ``polys``, sorted."""
    place = row_places(top.poff, polys)
    place = place[top.nbr[place] >= 0]
    low = top.poly_of[place] < top.nbr[place]
    out: npt.NDArray[np.intp] = sorted_unique(np.where(low, place, top.twin[place])).astype(np.intp)
    return out


def _geometry(top: Topology, keep: npt.NDArray[np.intp]) -> tuple[IntArray, FloatArray, FloatArray]:
    """The portals made of the edge places ``keep`` (sorted, on the lower-id side,
    every edge of each portal): ``(sides, end0, end1)``, by polygon pair."""
    npoly = top.poff.shape[0] - 1
    owner = top.poly_of[keep]
    nxt = keep + 1
    wrap = nxt == top.poff[owner + 1]
    nxt[wrap] = top.poff[owner[wrap]]
    a, b = owner.astype(np.int64), top.nbr[keep].astype(np.int64)
    keys, first, inverse = np.unique(a * npoly + b, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    m = keys.shape[0]
    sides = np.stack((keys // npoly, keys % npoly), axis=1).astype(np.int32)
    # The portal is the segment all its collinear edges span: its ends are the
    # extreme edge ends along the direction of one of its edges.
    u, v = top.xy[top.pv[keep]], top.xy[top.pv[nxt]]
    ref, direction = u[first], (v - u)[first]
    pts = np.concatenate((u, v))
    which = np.concatenate((inverse, inverse))
    proj = ((pts - ref[which]) * direction[which]).sum(axis=1)
    order = np.lexsort((proj, which))
    starts = np.searchsorted(which[order], np.arange(m))
    stops = np.append(starts[1:], order.shape[0])[:m] - 1  # (none for a mesh without portals)
    return sides, pts[order[starts]], pts[order[stops]]


def _points(end0: FloatArray, end1: FloatArray) -> FloatArray:
    """The graph nodes of portals with these ends, the portals' points at ``FRACTIONS[0]``
    first, then at ``FRACTIONS[1]``, ..."""
    out: FloatArray = np.concatenate([end0 + (end1 - end0) * f for f in FRACTIONS])
    return out


def _edges(
    portals: npt.NDArray[np.intp], sides: IntArray, point: FloatArray,
    offsets: npt.NDArray[np.int64], members: IntArray, costs: FloatArray,
) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[Any]], FloatArray]:  # fmt: skip
    """The CSR rows of the graph nodes of ``portals`` (sorted): inside each polygon of
    a portal (the lower first), every point of it to every point of each other portal
    of that polygon (in the polygon's order, see :attr:`Portals.members`), by the
    straight distance times the polygon's area cost. Returns the length of each row,
    in node order (the portals' nodes at ``FRACTIONS[0]`` first, ...), ``[targets, lengths,
    weights]`` for :func:`~pathcraft.graph._csr.merge_rows` and each row's smallest
    ``weight / length`` (see :attr:`Portals.ratios`)."""
    nf = len(FRACTIONS)
    m = sides.shape[0]
    k = portals.shape[0]
    poly = sides[portals].ravel().astype(np.intp)  # both sides of each
    group = np.repeat(np.arange(k), 2)
    size = offsets[poly + 1] - offsets[poly]
    dst = members[row_places(offsets, poly)].astype(np.intp)
    src = np.repeat(portals[group], size)
    via = np.repeat(poly, size)
    grp = np.repeat(group, size)
    other = src != dst
    src, dst, via, grp = src[other], dst[other], via[other], grp[other]
    # node fi * m + i of portal i: its pairs in order, each to the nf points of the other
    degree = np.bincount(grp, minlength=k).astype(np.int64)
    begin = np.cumsum(degree) - degree
    pairs = int(degree.sum())
    q = np.arange(grp.shape[0]) - begin[grp]
    fi, fj = np.arange(nf)[:, None], np.arange(nf)[None, :]
    pos = (nf * begin[grp] + nf * q)[:, None, None] + nf * pairs * fi + fj
    a = src[:, None, None] + m * fi + 0 * fj
    b = dst[:, None, None] + m * fj + 0 * fi
    delta = point[a.ravel()] - point[b.ravel()]
    length = np.sqrt((delta * delta).sum(axis=1))
    cost = np.repeat(costs[via], nf * nf)
    with np.errstate(invalid="ignore"):  # (0 x inf)
        weight = length * cost
    weight[np.isinf(cost)] = np.inf  # a polygon a query filter excludes: no way across
    total = nf * nf * pairs
    targets = np.empty(total, dtype=np.int32)
    lengths = np.empty(total)
    weights = np.empty(total)
    place = pos.ravel()
    targets[place] = b.ravel()
    lengths[place] = length
    weights[place] = weight
    counts: npt.NDArray[np.int64] = np.tile(nf * degree, nf)
    ratio = np.full(counts.shape[0], np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        each = np.where(lengths > 0, weights / lengths, np.inf)
    full = counts > 0
    if full.any():
        ratio[full] = np.minimum.reduceat(each, (np.cumsum(counts) - counts)[full])
    return counts, [targets, lengths, weights], ratio


def corridor_of(
    portals: Portals, nodes: npt.NDArray[np.int32], sp: IntArray, gp: IntArray | None
) -> IntArray:
    """The polygons a walk through the portals ``nodes`` crosses, from one of the
    start's polygons ``sp`` to one of the goal's ``gp`` (``None`` for a partial walk,
    which ends beyond its last portal)."""
    return _crossed(portals.sides, nodes % portals.sides.shape[0], sp, gp)


def _crossed(
    sides: IntArray, nodes: npt.NDArray[np.intp], sp: IntArray, gp: IntArray | None
) -> IntArray:
    """:func:`corridor_of` for the walk's portals ``nodes`` (ids into ``sides``)."""
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
            return _crossed(sides, nodes, sp, gp)
    head = int(first[1]) if first[0] == shared[0] else int(first[0])
    last = sides[nodes[-1]]
    tail = int(last[1]) if last[0] == shared[-1] else int(last[0])
    polys = [head, *shared.tolist(), tail]
    if not np.isin(head, sp):  # the start is in the first shared polygon itself
        polys = polys[1:]
    if gp is not None and not np.isin(tail, gp):
        polys = polys[:-1]
    return np.asarray(polys, dtype=np.int32)
