"""Off-mesh links of a :class:`~pathcraft.navmesh.NavMesh` (issue 20): jumps, ladders,
doors and teleporters (Godot's NavigationLink, Detour's off-mesh connections).

A link joins two points on the mesh, ``a`` and ``b`` (``(x, y)``), one way (from ``a``
to ``b``) or both ways, at a cost (by default the straight distance between them). The
funnel's corridor search runs on the portal graph (see :mod:`pathcraft.navmesh._portals`)
with two more nodes per link, one at each end: each end is joined both ways to the
points on the portals of the polygons holding it and to the other link ends in those
polygons (by their distance, times the polygon's area cost), the start and the goal
reach the ends in their own polygons the same way, and the link itself is one edge of
its cost (both ways when ``two_way``). The answer is cut at the link hops into walked
pieces, each string-pulled through its own corridor (:func:`split`).

The graph with links is built on the first query after the links, the area costs or
the mesh (carving) change, and kept: the portal graph's CSR arrays with the rows that
gain edges to link ends made again (:func:`_grown`). Link ends are located again at
that moment, so a link whose end is no longer on the mesh is simply not reachable from
that end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._positions import check_position
from pathcraft.graph import Graph
from pathcraft.graph.kit import row_places, splice_rows
from pathcraft.navmesh._portals import Portals
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["Link", "LinkGraph", "LinkSet", "LinkedPath", "Piece", "split"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class Link:
    """One off-mesh link of a :class:`~pathcraft.NavMesh` (see
    :meth:`NavMesh.add_link <pathcraft.NavMesh.add_link>`).

    Attributes
    ----------
    a, b : tuple of float
        The two ends, ``(x, y)`` points on the mesh.
    cost : float
        What taking the link costs (``>= 0``).
    two_way : bool
        Whether it can be taken from ``b`` to ``a`` too (always from ``a`` to ``b``).

    Examples
    --------
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
    >>> link = mesh.links[mesh.add_link((0.1, 0.1), (0.9, 0.9), cost=0.5, two_way=False)]
    >>> link.a, link.b, link.cost, link.two_way
    ((0.1, 0.1), (0.9, 0.9), 0.5, False)
    """

    a: tuple[float, float]
    b: tuple[float, float]
    cost: float
    two_way: bool


@dataclass(frozen=True, slots=True, repr=False)
class LinkedPath(PathResult):
    """A :class:`~pathcraft.result.PathResult` of a navmesh with off-mesh links: its
    ``links`` holds, for each segment of ``path`` (from ``path[i]`` to
    ``path[i + 1]``), the id of the link it takes, -1 where it is walked.

    Examples
    --------
    >>> from pathcraft import NavMesh
    >>> mesh = NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2, 3]])
    >>> hop = mesh.add_link((0.1, 0.5), (0.9, 0.5), cost=0.1)
    >>> mesh.find_path((0.1, 0.1), (0.9, 0.1)).links.tolist()   # the link would be dearer
    [-1]
    """

    links: npt.NDArray[np.intp] | None = None


def with_links(result: PathResult, links: npt.NDArray[np.intp]) -> LinkedPath:
    """``result`` as a :class:`LinkedPath` with ``links``."""
    values = {f.name: getattr(result, f.name) for f in fields(PathResult)}
    return LinkedPath(**values, links=links)


def check_link_cost(value: Any, a: FloatArray, b: FloatArray) -> float:
    """``value`` as a link cost: a finite number >= 0; ``None`` is the distance."""
    if value is None:
        return float(np.hypot(*(b - a)))
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"cost must be a finite number >= 0 or None, got {value!r}")
    out = float(value)
    if not math.isfinite(out) or out < 0:
        raise ValueError(f"cost must be a finite number >= 0 or None, got {value!r}")
    return out


class LinkSet:
    """The links of one mesh, by id (ids count up from 0 and are never reused), and the
    search graph with them (:class:`LinkGraph`), built when first needed."""

    __slots__ = ("_cache", "_links", "_next", "_table")

    def __init__(self) -> None:
        self._links: dict[int, Link] = {}
        self._next = 0
        self._cache: tuple[Portals, LinkGraph] | None = None
        self._table: FloatArray | None = None  # (L, 6): a, b, cost, two_way (for bound)

    def __len__(self) -> int:
        return len(self._links)

    def __getstate__(self) -> tuple[dict[int, Link], int]:
        return self._links, self._next

    def __setstate__(self, state: tuple[dict[int, Link], int]) -> None:
        self._links, self._next = state
        self._cache = self._table = None

    @property
    def view(self) -> Mapping[int, Link]:
        """The links by id, read-only."""
        return MappingProxyType(self._links)

    def add(self, mesh: NavMesh, a: Any, b: Any, cost: Any, two_way: Any) -> int:
        """Check and add a link (see :meth:`NavMesh.add_link`); its id."""
        ends = []
        for name, value in (("a", a), ("b", b)):
            p = check_position(name, value, 2)
            if mesh.polygons_at(p).size == 0 and mesh.num_polygons == 0:
                raise ValueError(
                    f"link end {name} {tuple(p.tolist())} is off the mesh: it has no "
                    "polygons left (carved to nothing)"
                )
            if mesh.polygons_at(p).size == 0:
                near = mesh.nearest_point(p)
                far = float(np.hypot(*(near - p)))
                raise ValueError(
                    f"link end {name} {tuple(p.tolist())} is off the mesh ({far:.6g} from "
                    f"the nearest point on it, {tuple(near.tolist())}): both ends of a "
                    "link must lie on the mesh"
                )
            ends.append(p)
        if (ends[0] == ends[1]).all():
            raise ValueError(
                f"a and b must be two points: a link from {tuple(ends[0].tolist())} to "
                "itself goes nowhere"
            )
        price = check_link_cost(cost, ends[0], ends[1])
        if not isinstance(two_way, (bool, np.bool_)):
            raise TypeError(f"two_way must be True or False, got {two_way!r}")
        pa, pb = (tuple(float(v) for v in p.tolist()) for p in ends)
        return self.put(Link(pa, pb, price, bool(two_way)))  # type: ignore[arg-type]

    def put(self, link: Link, ident: int | None = None) -> int:
        """Store ``link`` (checked) under a new id, or under ``ident`` (a loaded mesh's)."""
        ident = self._next if ident is None else ident
        self._links[ident] = link
        self._next = max(self._next, ident + 1)
        self._cache = self._table = None
        return ident

    def remove(self, ident: Any) -> None:
        """Remove the link ``ident``."""
        if isinstance(ident, bool) or not isinstance(ident, (int, np.integer)):
            raise TypeError(f"link_id must be an int (an id add_link returned), got {ident!r}")
        key = int(ident)
        if key not in self._links:
            state = "was removed" if 0 <= key < self._next else "was never added"
            raise KeyError(f"link_id {key} is not a link of this mesh (it {state})")
        del self._links[key]
        self._cache = self._table = None

    def graph(self, mesh: NavMesh) -> LinkGraph:
        """The search graph with the links, for the mesh's current portal graph."""
        base = mesh.portal_graph
        if self._cache is None or self._cache[0] is not base:
            self._cache = (base, LinkGraph.build(mesh, base, self._links))
        return self._cache[1]

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The links as arrays for a saved mesh (none without links)."""
        if not self._links:
            return {}
        items = sorted(self._links.items())
        return {
            "link_ids": np.array([k for k, _ in items], dtype=np.int64),
            "link_points": np.array([(*v.a, *v.b) for _, v in items], dtype=np.float64),
            "link_costs": np.array([v.cost for _, v in items], dtype=np.float64),
            "link_two_way": np.array([v.two_way for _, v in items], dtype=np.bool_),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, Any]) -> LinkSet:
        """The links a saved mesh holds (``link_*`` arrays, all four or none; the ends
        are not located again: a link off the mesh is never reached)."""
        names = ("link_ids", "link_points", "link_costs", "link_two_way")
        out = cls()
        present = [n for n in names if n in arrays]
        if not present:
            return out
        if len(present) != len(names):
            missing = [n for n in names if n not in arrays]
            raise ValueError(f"a navmesh saved with links needs the array {missing[0]!r}")
        ids, pts = np.asarray(arrays["link_ids"]), np.asarray(arrays["link_points"])
        costs, two = np.asarray(arrays["link_costs"]), np.asarray(arrays["link_two_way"])
        k = ids.shape[0] if ids.ndim == 1 else -1
        checks = (
            (ids, "int64", (k,)), (pts, "float64", (k, 4)), (costs, "float64", (k,)),
            (two, "bool", (k,)),
        )  # fmt: skip
        for name, (arr, dtype, shape) in zip(names, checks, strict=True):
            if arr.dtype != np.dtype(dtype) or arr.shape != shape or k < 0:
                raise ValueError(f"{name} must be {dtype} of shape {shape} (one per link)")
        if not np.isfinite(pts).all() or not np.isfinite(costs).all() or (costs < 0).any():
            raise ValueError("link_points and link_costs must be finite, link_costs >= 0")
        if (ids < 0).any() or np.unique(ids).shape[0] != k:
            raise ValueError("link_ids must be distinct ids >= 0")
        rows = zip(ids.tolist(), pts.tolist(), costs.tolist(), two.tolist(), strict=True)
        for ident, p, c, t in rows:
            out.put(Link((p[0], p[1]), (p[2], p[3]), float(c), bool(t)), ident)
        return out

    def path_cost(
        self, pts: FloatArray, links: Any, price: Callable[[FloatArray], float]
    ) -> float:
        """The cost of the path ``pts`` whose segments take the links ``links`` (one id
        per segment, -1: walked, priced by ``price``)."""
        seg = np.asarray(links)
        n = max(pts.shape[0] - 1, 0)
        if seg.shape != (n,) or not (n == 0 or np.issubdtype(seg.dtype, np.integer)):
            raise ValueError(
                f"links must hold one int per segment of path ({n}: a link id or -1), "
                f"got shape {seg.shape}"
            )
        total, begin = 0.0, 0
        for i, ident in enumerate(seg.tolist()):
            if ident < 0:
                continue
            link = self._links.get(ident)
            if link is None:
                raise ValueError(f"links[{i}]: {ident} is not a link of this mesh")
            u, v = tuple(pts[i].tolist()), tuple(pts[i + 1].tolist())
            if not ((u, v) == (link.a, link.b) or (link.two_way and (u, v) == (link.b, link.a))):
                raise ValueError(
                    f"links[{i}]: segment {i} from {u} to {v} is not a way link {ident} "
                    f"can be taken ({link.a} to {link.b}{' or back' if link.two_way else ''})"
                )
            if i > begin:
                total += price(pts[begin : i + 1])
            total += link.cost
            begin = i + 1
        if n > begin:
            total += price(pts[begin:])
        return total

    def bound(self, s: FloatArray, g: FloatArray) -> float:
        """A lower bound on the cost of any path from ``s`` to ``g`` taking links:
        ``inf`` without links. One link: the straight distances to and from it, plus
        its cost. Several (a path may chain them): the straight distance to the
        nearest entry, the cheapest link and from the nearest exit; or the straight
        distance from ``s`` to ``g`` times the smallest ratio of a link's cost to
        its span, whichever is more."""
        if not self._links:
            return math.inf
        if self._table is None:
            self._table = np.array([(*v.a, *v.b, v.cost, v.two_way) for v in self._links.values()])
        arr = self._table
        a, b, c, two = arr[:, 0:2], arr[:, 2:4], arr[:, 4], arr[:, 5] > 0
        to_a, to_b = np.hypot(*(a - s).T), np.hypot(*(b - s).T)
        from_a, from_b = np.hypot(*(g - a).T), np.hypot(*(g - b).T)
        if arr.shape[0] == 1:
            back = to_b + c + from_a if two[0] else np.inf
            return float(min(float((to_a + c + from_b)[0]), float(np.min(back))))
        enter = min(float(to_a.min()), float(to_b[two].min(initial=np.inf)))
        leave = min(float(from_b.min()), float(from_a[two].min(initial=np.inf)))
        span = np.hypot(*(b - a).T)
        ratio = float(np.min(c[span > 0] / span[span > 0], initial=1.0))
        return max(enter + float(c.min()) + leave, min(ratio, 1.0) * float(np.hypot(*(g - s))))


def joined(
    component: npt.NDArray[Any], pairs: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]
) -> npt.NDArray[np.int64]:
    """The connected parts ``component`` (one label per polygon) joined by links between
    the polygons of each pair (either way: a goal in another of these parts is
    unreachable; in the same one, the search decides)."""
    label = np.unique(component, return_inverse=True)[1].ravel().astype(np.int64)
    parent = list(range(int(label.max()) + 1 if label.size else 0))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pa, pb in pairs:
        if pa.size and pb.size:
            ra, rb = find(int(label[pa[0]])), find(int(label[pb[0]]))
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([find(i) for i in range(len(parent))], dtype=np.int64)
    out: npt.NDArray[np.int64] = roots[label]
    return out


@dataclass(frozen=True, slots=True)
class LinkGraph:
    """The portal graph with two nodes per link (see the module documentation).

    Node ``n0 + 2 * k`` is end ``a`` of the ``k``-th link of ``ids``, ``n0 + 2 * k + 1``
    its end ``b``; below ``n0`` the nodes are the portal graph's.
    """

    graph: Graph
    base: Portals
    n0: int
    ids: npt.NDArray[np.int64]
    points: FloatArray  # (2L, 2) the ends
    costs: FloatArray  # (L,) the links' costs
    hop: npt.NDArray[np.bool_]  # (2L,) end e -> its other end is the link (not a walk)
    pair_end: npt.NDArray[np.intp]  # (end, polygon) pairs: the polygons holding each end
    pair_poly: npt.NDArray[np.intp]
    component: npt.NDArray[np.int64]  # the mesh's parts joined by the links (either way)
    price: dict[int, float]  # each link's cost by id

    @classmethod
    def build(
        cls, mesh: NavMesh, base: Portals, links: Mapping[int, Link],
        component: npt.NDArray[Any] | None = None,
        blocked: npt.NDArray[np.bool_] | None = None,
    ) -> LinkGraph:  # fmt: skip
        """The graph of ``base`` with ``links``: for a query filter (see
        :mod:`pathcraft.navmesh._filter`), ``component`` the mesh's parts under it
        (default: the mesh's own) and ``blocked`` the polygons it excludes, which hold
        no link end (an end only they hold is never walked to or from)."""
        n0 = base.graph.num_nodes
        items = sorted(links.items())
        nl = len(items)
        ids = np.array([k for k, _ in items], dtype=np.int64)
        points = np.array([p for _, v in items for p in (v.a, v.b)], dtype=np.float64)
        points = points.reshape(2 * nl, 2)
        costs = np.array([v.cost for _, v in items], dtype=np.float64)
        two = np.array([v.two_way for _, v in items], dtype=bool)
        held = [mesh.polygons_at(p).astype(np.intp) for p in points]
        if blocked is not None:
            held = [h[~blocked[h]] for h in held]
        pair_end = np.repeat(np.arange(2 * nl), [h.size for h in held]).astype(np.intp)
        pair_poly = np.concatenate(held) if held else np.empty(0, dtype=np.intp)
        parts_s: list[npt.NDArray[Any]] = []
        parts_d: list[npt.NDArray[Any]] = []
        parts_w: list[FloatArray] = []
        # each end and the points on the portals of its polygons, both ways (the
        # cheapest polygon's cost when a portal borders two holding the end)
        end, node, dist = _end_edges(base, pair_end, pair_poly, points)
        parts_s += [node, end + n0]
        parts_d += [end + n0, node]
        parts_w += [dist, dist]
        # the ends sharing a polygon, both ways, at the cheapest shared polygon's cost
        area = base.costs
        us, vs, ws = [np.empty(0, dtype=np.intp)], [np.empty(0, dtype=np.intp)], [np.empty(0)]
        for p in np.unique(pair_poly).tolist():
            ends = pair_end[pair_poly == p]
            if ends.size > 1:
                u, v = (x.ravel() for x in np.meshgrid(ends, ends, indexing="ij"))
                keep = u != v
                us.append(u[keep])
                vs.append(v[keep])
                ws.append(np.hypot(*(points[u[keep]] - points[v[keep]]).T) * area[p])
        u, v, w = _cheapest(np.concatenate(us), np.concatenate(vs), np.concatenate(ws))
        # a link end to its other end: the link when it is no dearer than walking
        walked = dict(zip((u * 2 * nl + v).tolist(), w.tolist(), strict=True))
        fwd, back = np.arange(0, 2 * nl, 2), np.arange(1, 2 * nl, 2)
        on_foot_f = np.array([walked.get(k, np.inf) for k in (fwd * 2 * nl + back).tolist()])
        on_foot_b = np.array([walked.get(k, np.inf) for k in (back * 2 * nl + fwd).tolist()])
        hop = np.zeros(2 * nl, dtype=bool)
        hop[fwd] = costs <= on_foot_f
        hop[back] = two & (costs <= on_foot_b)
        hf, hb = hop[fwd], hop[back]
        u, v, w = _cheapest(
            np.concatenate((u, fwd[hf], back[hb])), np.concatenate((v, back[hf], fwd[hb])),
            np.concatenate((w, costs[hf], costs[hb])),
        )  # fmt: skip
        parts_s.append(u + n0)
        parts_d.append(v + n0)
        parts_w.append(w)
        known: FloatArray = base.graph.coords  # type: ignore[assignment]
        coords = np.concatenate((known, points))
        graph = _grown(
            base, n0 + 2 * nl, np.concatenate(parts_s), np.concatenate(parts_d),
            np.concatenate(parts_w), coords,
        )  # fmt: skip
        parts = mesh.parts.component if component is None else component
        comp = joined(parts, [(held[2 * k], held[2 * k + 1]) for k in range(nl)])
        price = {int(k): float(c) for k, c in zip(ids.tolist(), costs.tolist(), strict=True)}
        return cls(graph, base, n0, ids, points, costs, hop, pair_end, pair_poly, comp, price)

    def ends(self, polys: Polys, point: FloatArray) -> tuple[npt.NDArray[np.intp], FloatArray]:
        """:meth:`Portals.ends` with the link ends in ``polys`` too."""
        nodes, dist = self.base.ends(polys, point)
        mask = (self.pair_poly[:, None] == polys[None, :]).any(axis=1)  # polys: a few
        if not mask.any():
            return nodes, dist
        ends, poly = self.pair_end[mask], self.pair_poly[mask]
        price = np.hypot(*(self.points[ends] - point).T) * self.base.costs[poly]
        best = np.full(self.points.shape[0], np.inf)
        np.minimum.at(best, ends, price)
        which = np.flatnonzero(np.isfinite(best))
        return (
            np.concatenate((nodes, which + self.n0)).astype(np.intp),
            np.concatenate((dist, best[which])),
        )

    def polys_of(self, end: int) -> Polys:
        """The polygons holding link end ``end``."""
        out: Polys = self.pair_poly[self.pair_end == end].astype(np.int32)
        return out


def _grown(
    base: Portals, n: int, src: npt.NDArray[Any], dst: npt.NDArray[Any], w: FloatArray,
    coords: FloatArray,
) -> Graph:  # fmt: skip
    """The portal graph of ``base`` grown to ``n`` nodes (at ``coords``) with the edges
    ``src -> dst`` of weights ``w`` (finite, ``>= 0``) after each node's own: what
    ``Graph(n, base edges + these edges, weights, coords=coords)`` makes, without its
    checks and its sort over every edge (only the rows that gain edges are made
    again, :func:`~pathcraft.graph._csr.splice_rows`), so a mesh with links pays little
    more than its patched portal graph after a carve."""
    offsets, targets, weights = base.graph.csr
    n0 = offsets.shape[0] - 1
    order = np.argsort(src, kind="stable")
    src, dst, w = src[order].astype(np.intp), dst[order].astype(np.intp), w[order]
    rows, which = np.unique(src, return_inverse=True)
    which = which.ravel()
    extra = np.bincount(which, minlength=rows.shape[0]).astype(np.int64)
    own = np.zeros(rows.shape[0], dtype=np.int64)
    mine = rows < n0
    own[mine] = offsets[rows[mine] + 1] - offsets[rows[mine]]
    counts = own + extra
    start = np.cumsum(counts) - counts
    total = int(counts.sum())
    out_t = np.empty(total, dtype=np.int32)
    out_l = np.empty(total)
    out_w = np.empty(total)
    # each row's own edges first, then the new ones, in order
    places = row_places(offsets, rows[mine])
    size = own[mine]
    pos = np.repeat(start[mine] - (np.cumsum(size) - size), size) + np.arange(places.shape[0])
    out_t[pos] = targets[places]
    out_l[pos] = base.lengths[places]
    out_w[pos] = weights[places]
    pos = start[which] + own[which] + (np.arange(src.shape[0]) - (np.cumsum(extra) - extra)[which])
    delta = coords[src] - coords[dst]
    length = np.sqrt((delta * delta).sum(axis=1))
    out_t[pos] = dst
    out_l[pos] = length
    out_w[pos] = w
    node_offsets, (new_t, new_l, new_w) = splice_rows(
        offsets, [targets, base.lengths, weights], rows, counts, [out_t, out_l, out_w], n,
    )  # fmt: skip
    usable = length > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float(np.min(np.where(usable, w / length, np.inf), initial=np.inf))
    ratio = min(ratio, float(np.min(base.ratios, initial=np.inf)))
    return Graph.from_trusted_csr(node_offsets, new_t, new_w, coords, new_l, ratio)


def _cheapest(
    u: npt.NDArray[np.intp], v: npt.NDArray[np.intp], w: FloatArray
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
    """The edges ``(u, v, w)`` with the cheapest of parallel ones only."""
    order = np.lexsort((w, v, u))
    u, v, w = u[order], v[order], w[order]
    first = np.ones(u.shape[0], dtype=bool)
    first[1:] = (u[1:] != u[:-1]) | (v[1:] != v[:-1])
    return u[first], v[first], w[first]


def _end_edges(
    base: Portals, pair_end: npt.NDArray[np.intp], pair_poly: npt.NDArray[np.intp],
    points: FloatArray,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:  # fmt: skip
    """:meth:`Portals.ends` of every link end at once: ``(end, node, cost)``."""
    m = base.sides.shape[0]
    nf = base.mid.shape[0] // m if m else 0
    count = (base.offsets[pair_poly + 1] - base.offsets[pair_poly]).astype(np.intp)
    rows = np.repeat(np.arange(pair_end.shape[0]), count)
    local = np.arange(rows.shape[0]) - np.repeat(np.cumsum(count) - count, count)
    portal = base.members[base.offsets[pair_poly][rows] + local].astype(np.intp)
    end = np.tile(pair_end[rows], nf)
    node = np.concatenate([portal + m * f for f in range(nf)]) if nf else portal
    poly = np.tile(pair_poly[rows], nf)
    dist = np.hypot(*(base.mid[node] - points[end]).T) * base.costs[poly]
    order = np.lexsort((dist, node, end))
    end, node, dist = end[order], node[order], dist[order]
    first = np.ones(end.shape[0], dtype=bool)
    first[1:] = (end[1:] != end[:-1]) | (node[1:] != node[:-1])
    return end[first].astype(np.intp), node[first].astype(np.intp), dist[first]


@dataclass(frozen=True, slots=True)
class Piece:
    """One walked piece of a path with links: from ``p0`` (in ``polys0``) to ``p1`` (in
    ``polys1``; ``None`` for the open end of a partial walk) through the portal nodes
    ``nodes``; ``hop`` is the id of the link taken after it (-1: none, a walk on)."""

    p0: FloatArray
    polys0: Polys
    p1: FloatArray
    polys1: Polys | None
    nodes: npt.NDArray[np.int32]
    hop: int


def split(
    lg: LinkGraph, nodes: npt.NDArray[Any], s: FloatArray, sp: Polys, g: FloatArray,
    gp: Polys | None,
) -> list[Piece]:  # fmt: skip
    """The node path of a search on ``lg`` (the virtual goal removed) as walked pieces
    between link hops. ``gp`` None: a partial walk, the last piece open."""
    pieces: list[Piece] = []
    p, pp = s, sp
    buf: list[int] = []
    i, k = 0, len(nodes)
    while i < k:
        u = int(nodes[i])
        if u < lg.n0:
            buf.append(u)
            i += 1
            continue
        e = u - lg.n0
        here, hp = lg.points[e], lg.polys_of(e)
        nxt = int(nodes[i + 1]) - lg.n0 if i + 1 < k else -1
        taken = nxt == (e ^ 1) and bool(lg.hop[e])
        link = int(lg.ids[e // 2]) if taken else -1
        pieces.append(Piece(p, pp, here, hp, np.asarray(buf, dtype=np.int32), link))
        buf = []
        if taken:
            p, pp = lg.points[nxt], lg.polys_of(nxt)
            i += 2
        else:
            p, pp = here, hp
            i += 1
    pieces.append(Piece(p, pp, g, gp, np.asarray(buf, dtype=np.int32), -1))
    return pieces


def join(
    pieces: list[Piece], pull: Callable[[Piece], FloatArray], price: Callable[[FloatArray], float],
    costs: Mapping[int, float],
) -> tuple[FloatArray, npt.NDArray[np.intp], float]:  # fmt: skip
    """The path of ``pieces`` (each pulled by ``pull``), the link id of each of its
    segments (-1: walked) and its cost (each walked piece by ``price``, plus the
    links')."""
    pts: list[FloatArray] = []
    seg: list[int] = []
    total = 0.0
    hop = -1
    for piece in pieces:
        path = pull(piece)
        keep = np.ones(path.shape[0], dtype=bool)
        keep[1:] = (path[1:] != path[:-1]).any(axis=1)
        path = path[keep]
        total += price(path)
        if pts and hop < 0:  # a walk on through a link end: the same point
            pts.append(path[1:])
        else:
            if pts:
                seg.append(hop)
                total += costs[hop]
            pts.append(path)
        seg += [-1] * (path.shape[0] - 1)
        hop = piece.hop
    return np.concatenate(pts), np.asarray(seg, dtype=np.intp), total
