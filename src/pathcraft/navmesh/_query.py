"""Path queries on a :class:`~pathcraft.navmesh.NavMesh`: the funnel and Polyanya.

Positions arrive checked and located (with every polygon holding them); this module
calls the kernels and wraps their output in :class:`~pathcraft.result.PathResult`.
A query reads the arrays of its :class:`~pathcraft.navmesh._filter.Policy` (the mesh's
own, or those of its filter) for everything it searches or prices, and the mesh for
its geometry.
Every query is a step machine (:func:`start_search`): :meth:`NavMesh.find_path` is
one unlimited step of it.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from functools import partial as partial_fn
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

from pathcraft._core import graph_search as _graph_kernel
from pathcraft._core import navmesh as _walk
from pathcraft._core import polyanya as _polyanya
from pathcraft._kernels import FOUND, thread_workspace
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.graph.kit import kernel_args
from pathcraft.navmesh._build import Topology
from pathcraft.navmesh._filter import Policy
from pathcraft.navmesh._links import LinkedPath, LinkGraph, Piece, join, split, with_links
from pathcraft.navmesh._portals import Portals, corridor_of
from pathcraft.result import Answer, PathResult, build_result

if TYPE_CHECKING:
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["corridor", "refuse", "start_search", "straight", "timed"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


def refuse(
    algorithm: str, radius: Any, wide: bool, filtered: bool, costs: bool, links: bool
) -> None:
    """Refuse, by name, a query the mesh cannot answer: Polyanya (``algorithm``
    ``"optimal"``) knows only lengths and straight moves, and a query of ``radius``
    (``wide``: > 0) runs on a shrunk mesh with other polygons, so neither takes area
    costs (``costs``: the query has some, a ``filtered`` one's or the mesh's own) or
    off-mesh ``links``, nor a filter (``radius``)."""
    if filtered and wide:
        raise ValueError(
            f"filter= names polygons and links of this mesh, and radius={radius!r} runs "
            "on a shrunk mesh with other polygons; query with radius=0 on a mesh built "
            "with agent_radius, or without a filter"
        )
    if costs and algorithm == "optimal":
        whose = "this mesh's area costs" if not filtered else (
            "the area costs of this query (the mesh's, with filter.area_costs over them)"
        )  # fmt: skip
        raise ValueError(
            f"algorithm='optimal' (Polyanya) knows only lengths and cannot honour {whose}; "
            "use algorithm='funnel', or set every cost back to 1"
        )
    what = "area costs" if costs else "off-mesh links" if links else None
    if wide and what is not None and not (links and algorithm == "optimal"):
        raise ValueError(
            f"radius={radius!r} runs on a shrunk mesh, which has none of this mesh's "
            f"{what}; query with radius=0 on a mesh built with agent_radius, or without "
            f"{'area costs' if costs else 'links'}"
        )
    if links and algorithm == "optimal":
        raise ValueError(
            "algorithm='optimal' (Polyanya) knows only straight moves and cannot take this "
            "mesh's off-mesh links; use algorithm='funnel', or remove the links"
        )


def timed(result: PathResult, elapsed: float) -> PathResult:
    """``result`` with its wall-clock time."""
    return dataclasses.replace(result, elapsed=elapsed)


def _corridor_args(
    policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys, limit: int | None,
    weight: float = 1.0, partial: bool = False, walk: bool = False,
) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    """The graph kernel's arguments for A* over the portal graph (see
    :mod:`pathcraft.navmesh._portals`) from the portals of the start's polygons (joined
    by their distance to the midpoints) to those of the goal's; ``walk``: on the
    portal graph without the off-mesh links."""
    portals: Portals | LinkGraph = policy.portals if walk else _search_graph(policy)
    src, src_cost = portals.ends(sp, s)
    dst, dst_cost = portals.ends(gp, g)
    return kernel_args(
        portals.graph, "astar", src, -1, dst, source_costs=src_cost, exit_costs=dst_cost,
        target=g, heuristic="euclidean", max_expansions=limit, weight=weight,
        partial=partial,
    )  # fmt: skip


def _polygons(
    policy: Policy, answer: tuple[Any, ...], sp: Polys, gp: Polys, partial: bool = False
) -> tuple[Polys, int, int, int, float]:
    """A corridor search's answer as ``(polygons, status, expanded, generated, cost)``;
    with ``partial``, a search that did not reach the goal gives the polygons to the one
    beyond the portal it expanded closest to the goal."""
    status, nodes, cost, expanded, generated = Answer.read(answer)[:5]
    portals, lg = policy.portals, policy.links
    if lg is not None and (status == FOUND or (partial and len(nodes))):
        found = status == FOUND
        way = np.asarray(nodes[:-1] if found else nodes)
        pieces = split(lg, way, np.zeros(2), sp, np.zeros(2), gp if found else None)
        polys = np.concatenate([_piece_polys(lg, p) for p in pieces])
    elif status == FOUND:
        polys = corridor_of(portals, np.asarray(nodes[:-1]), sp, gp)  # the virtual goal last
    elif partial and len(nodes):
        polys = corridor_of(portals, np.asarray(nodes), sp, None)
    elif partial:
        polys = sp[:1]
    else:
        polys = np.empty(0, dtype=np.int32)
    polys = np.ascontiguousarray(polys, dtype=np.int32)
    return polys, int(status), int(expanded), int(generated), float(cost)


def _search_graph(policy: Policy) -> Portals | LinkGraph:
    """The graph the corridor search runs on: the portal graph, with the off-mesh
    links' ends when the mesh has links."""
    return policy.portals if policy.links is None else policy.links


def _apart(policy: Policy, sp: Polys, gp: Polys) -> bool:
    """Whether no polygon of ``gp`` is in the connected part of one of ``sp``."""
    comp = policy.component
    return not (comp[gp][:, None] == comp[sp][None, :]).any()


def _piece_polys(lg: LinkGraph, piece: Piece) -> Polys:
    """The corridor of one walked piece of a path with links."""
    if piece.nodes.size:
        return corridor_of(lg.base, piece.nodes, piece.polys0, piece.polys1)
    both = piece.polys0 if piece.polys1 is None else np.intersect1d(piece.polys0, piece.polys1)
    out: Polys = (both if both.size else piece.polys0)[:1].astype(np.int32)
    return out


def _rival(
    mesh: NavMesh, policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys
) -> tuple[PathResult | None, bool]:
    """The straight path when the goal is in sight (else None), and whether it is
    the answer without a search: always, unless an off-mesh link could be cheaper."""
    if straight(policy, s, sp, g, gp) is None:
        return None, False
    line = _line(policy, s, g)
    return line, policy.links is None or mesh.link_parts().bound(s, g) >= line.cost


def _with_links(policy: Policy, result: PathResult) -> PathResult:
    """``result`` with its ``links`` (every segment walked) on a mesh with links."""
    if policy.links is None or isinstance(result, LinkedPath):
        return result
    n = max(len(result.path) - 1, 0)
    return with_links(result, np.full(n, -1, dtype=np.intp))


def straight(
    policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys
) -> Polys | None:
    """The polygons the straight segment from ``s`` to ``g`` crosses when it stays on
    the mesh (the raycast, from each polygon holding ``s``, over the polygons the
    query may enter), else ``None``."""
    both = np.intersect1d(sp, gp)
    if both.size:  # one convex polygon holds both
        return both[:1].astype(np.int32)
    if policy.costs is not None:  # area costs: a detour can be cheaper
        return None
    top = policy.top
    visited = np.empty(2 * top.poff.shape[0] + 2, dtype=np.int32)
    for p in sp.tolist():
        t, count = _walk.raycast(
            top.xy, top.poff, top.pv, top.nbr, int(p), float(s[0]), float(s[1]),
            float(g[0]), float(g[1]), visited,
        )  # fmt: skip
        if t >= 1.0 and count > 0:
            found: Polys = visited[:count].copy()
            return found
    return None


def corridor(
    policy: Policy,
    s: FloatArray,
    sp: Polys,
    g: FloatArray,
    gp: Polys,
    limit: int | None,
    weight: float = 1.0,
    partial: bool = False,
) -> tuple[Polys, int, int, int, float]:
    """A* over the portal graph from the start's polygons to the goal's: ``(polygons,
    status, expanded, generated, cost)``. With ``partial``, a search that did not reach
    the goal gives the corridor to the polygon it expanded closest to the goal."""
    args, settings = _corridor_args(policy, s, sp, g, gp, limit, weight, partial)
    workspace = thread_workspace(_graph_kernel.Workspace, policy.graph.num_nodes + 1)
    answer = _graph_kernel.search(*args(workspace), **settings)
    return _polygons(policy, answer, sp, gp, partial)


def corridor_result(
    mesh: NavMesh, policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    t0: float, limit: int | None = None,
) -> PathResult:  # fmt: skip
    """:meth:`NavMesh.corridor <pathcraft.navmesh.NavMesh.corridor>`: the corridor as a
    result whose ``path`` holds polygon ids (falsy, with the reason, when there is
    none) and whose ``cost`` is the search's (the straight length when the goal is in
    sight, else midpoint to midpoint through the portals, from the start and to the
    goal). Polygons the policy excludes are never in it: a start or goal only they
    hold is unreachable. ``limit``: the search's ``max_expansions``."""
    sp, gp = policy.allowed(sp), policy.allowed(gp)
    if sp.size == 0 or gp.size == 0 or _apart(policy, sp, gp):
        return build_result("unreachable", np.empty(0, dtype=np.intp), math.inf, t0=t0)
    rival, decisive = _rival(mesh, policy, s, sp, g, gp)
    if rival is not None and decisive:
        way: Way = (rival, _line_polys(policy, s, sp, g, gp))
    else:
        args, settings = _corridor_args(policy, s, sp, g, gp, limit)
        workspace = thread_workspace(_graph_kernel.Workspace, policy.graph.num_nodes + 1)
        answer = _graph_kernel.search(*args(workspace), **settings)
        way = _funnel_way(policy, s, sp, g, gp, rival, limit, 1.0, answer)
    found, polys = way
    return build_result(
        found.reason if not found else None, polys.astype(np.intp), found.cost,
        expanded=found.expanded, generated=found.generated, t0=t0,
    )  # fmt: skip


def _pull(top: Topology, s: FloatArray, g: FloatArray, polys: Polys) -> FloatArray:
    """The string pulled taut from ``s`` to ``g`` through the corridor ``polys``."""
    k = polys.shape[0]
    left = np.empty((k + 1, 2))
    right = np.empty((k + 1, 2))
    left[0] = right[0] = s
    left[k] = right[k] = g
    if k > 1:
        done = _walk.corridor_portals(
            top.xy, top.poff, top.pv, top.nbr, polys, left[1:k], right[1:k]
        )
        if done < 0:  # pragma: no cover - the graph only links neighbours
            raise RuntimeError("the corridor links polygons that are not neighbours")
    out = np.empty((k + 1, 2))
    n = _walk.string_pull(left, right, out)
    return _drop_straight(out[:n])


#: A funnel answer and the polygons its path crosses, in order.
Way = tuple[PathResult, Polys]


def _funnel(
    policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    rival: PathResult | None, limit: int | None, weight: float, answer: tuple[Any, ...],
) -> PathResult:  # fmt: skip
    """The funnel's answer (see :func:`_funnel_way`)."""
    return _funnel_way(policy, s, sp, g, gp, rival, limit, weight, answer)[0]


def _funnel_way(
    policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys,
    rival: PathResult | None, limit: int | None, weight: float, answer: tuple[Any, ...],
) -> Way:  # fmt: skip
    """The string pulled taut through the corridor a search found (on a mesh with
    links, piece by piece between the hops), and its polygons. The cheapest by its
    price wins among it, ``rival`` (the straight path) and, on a mesh with links, the
    funnel's path ignoring them (a search on the portal graph alone, with the same
    ``limit`` and ``weight``): the corridor search weighs portals by their midpoints,
    so the corridor it takes through a link can pull to a dearer path than the walk,
    and a link must never make a path dearer than ignoring it."""
    read = Answer.read(answer)
    status, expanded, generated = int(read.status), int(read.expanded), int(read.generated)
    found: Way | None = None
    lg = policy.links
    if status == FOUND and lg is None:
        polys = _polygons(policy, answer, sp, gp)[0]
        path = _pull(policy.top, s, g, polys)
        found = (build_result(None, path, policy.price(path)), polys)
    elif status == FOUND and lg is not None:
        pieces = split(lg, np.asarray(read.path[:-1]), s, sp, g, gp)
        crossed = {id(p): _piece_polys(lg, p) for p in pieces}
        path, seg, total = join(
            pieces, lambda p: _pull(policy.top, p.p0, p.p1, crossed[id(p)]), policy.price,
            lg.price,
        )  # fmt: skip
        polys = np.concatenate(list(crossed.values())).astype(np.int32)
        found = (with_links(build_result(None, path, total), seg), polys)
        walked = None
        if total > _walk_bound(policy, s, g):  # else no walk can be cheaper
            walked = _walked(policy, s, sp, g, gp, limit, weight)
        if walked is not None:
            walk, polys, more, also = walked
            expanded, generated = expanded + more, generated + also
            if walk is not None and walk.cost <= found[0].cost:
                found = (walk, polys)
    if rival is not None and (found is None or rival.cost <= found[0].cost):
        found = (rival, _line_polys(policy, s, sp, g, gp))
    if found is None:
        return _nothing(status, expanded, generated), np.empty(0, dtype=np.int32)
    result = dataclasses.replace(found[0], expanded=expanded, generated=generated)
    return result, found[1]


def _walk_bound(policy: Policy, s: FloatArray, g: FloatArray) -> float:
    """A lower bound on the cost of any walk from ``s`` to ``g``: the straight
    distance times the cheapest area cost."""
    cheapest = 1.0
    if policy.costs is not None:
        cheapest = float(np.min(policy.costs, initial=math.inf))
    return float(np.hypot(*(g - s))) * cheapest


def _walked(
    policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys, limit: int | None,
    weight: float,
) -> tuple[PathResult | None, Polys, int, int] | None:  # fmt: skip
    """The funnel's path from ``s`` to ``g`` on foot, ignoring the off-mesh links, its
    polygons and the search's expanded and generated counts (None: the goal is not in
    the start's part of the mesh without the links; no path: not found, within
    ``limit``)."""
    walk_part = policy.walk_component
    if not (walk_part[gp][:, None] == walk_part[sp][None, :]).any():
        return None
    args, settings = _corridor_args(policy, s, sp, g, gp, limit, weight, walk=True)
    workspace = thread_workspace(_graph_kernel.Workspace, policy.portals.graph.num_nodes + 1)
    answer = _graph_kernel.search(*args(workspace), **settings)
    status, nodes, _cost, expanded, generated = Answer.read(answer)[:5]
    if status != FOUND:
        return None, np.empty(0, dtype=np.int32), int(expanded), int(generated)
    polys = corridor_of(policy.portals, np.asarray(nodes[:-1]), sp, gp)
    path = _pull(policy.top, s, g, polys)
    walk = _with_links(policy, build_result(None, path, policy.price(path)))
    return walk, polys, int(expanded), int(generated)


def _line_polys(policy: Policy, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys) -> Polys:
    """The polygons the straight path from ``s`` to ``g`` crosses (it is on the mesh)."""
    line = straight(policy, s, sp, g, gp)
    return np.empty(0, dtype=np.int32) if line is None else line


def _drop_straight(path: FloatArray) -> FloatArray:
    """The path without corners where it goes straight on (a portal end exactly on the
    line, which the funnel keeps as a corner)."""
    if path.shape[0] < 3:
        short: FloatArray = path.copy()
        return short
    a, b, c = path[:-2], path[1:-1], path[2:]
    turn = (b[:, 0] - a[:, 0]) * (c[:, 1] - b[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - b[:, 0])
    ahead = ((b - a) * (c - b)).sum(axis=1) > 0
    keep = np.ones(path.shape[0], dtype=bool)
    keep[1:-1] = (turn != 0) | ~ahead
    out: FloatArray = path[keep]
    return out


def _optimal(answer: tuple[Any, ...]) -> PathResult:
    """A Polyanya search's answer as a :class:`PathResult`."""
    status, path, cost, expanded, generated = Answer.read(answer)[:5]
    if status != FOUND:
        return _nothing(status, expanded, generated)
    return build_result(None, path, cost, expanded=expanded, generated=generated)


def _line(policy: Policy, s: FloatArray, g: FloatArray) -> PathResult:
    """The straight path from ``s`` to ``g`` (``[s]`` when they are the same point),
    costed under the query's area costs."""
    path = np.stack((s, g)) if (s != g).any() else s[None].copy()
    return build_result(None, path, policy.price(path), expanded=0, generated=0)


def _nothing(status: int | str, expanded: int, generated: int) -> PathResult:
    return build_result(status, np.empty((0, 2)), math.inf, expanded=expanded, generated=generated)


def _nearest_reachable(
    mesh: NavMesh, policy: Policy, sp: Polys, g: FloatArray
) -> tuple[FloatArray, Polys]:
    """The point nearest ``g`` among the polygons connected to the start's."""
    parts = mesh.parts
    comp = policy.component
    members = np.flatnonzero(np.isin(comp, comp[sp]))
    point = shapely.points(g)
    best = members[int(np.argmin(shapely.distance(parts.shapes[members], point)))]
    line = shapely.shortest_line(parts.shapes[best], point)
    near = shapely.get_coordinates(line)[0]
    polys = mesh.polygons_at(near)
    if not np.isin(polys, members).any():  # rounding left it a hair outside
        near = near + (parts.centroids[best] - near) * 1e-9
        polys = np.array([best], dtype=np.int32)
    return near, polys[np.isin(polys, members)].astype(np.int32)


def _toward(mesh: NavMesh, polys: Polys, g: FloatArray) -> tuple[FloatArray, Polys]:
    """The point of the polygon ``polys[-1]`` nearest ``g``, and the polygons holding it."""
    best = int(polys[-1])
    parts = mesh.parts
    line = shapely.shortest_line(parts.shapes[best], shapely.points(g))
    near = shapely.get_coordinates(line)[0]
    held = mesh.polygons_at(near)
    if not np.isin(best, held):  # rounding left it a hair outside
        near = near + (parts.centroids[best] - near) * 1e-9
        held = np.array([best], dtype=np.int32)
    return near, held.astype(np.int32)


Machine = tuple[Callable[[Any], Any], Any, int, Callable[[tuple[Any, ...]], PathResult]]


def _machine(
    policy: Policy,
    algorithm: str,
    s: FloatArray,
    sp: Polys,
    g: FloatArray,
    gp: Polys,
    limit: int | None,
    weight: float,
    rival: PathResult | None = None,
) -> Machine:
    """One search between located positions as a step machine: ``(make, workspace
    kind, workspace size, finish)``, ``make(workspace)`` building the kernel's machine
    and ``finish(answer)`` its result."""
    if algorithm == "funnel":
        args, settings = _corridor_args(policy, s, sp, g, gp, limit, weight)
        make: Callable[[Any], Any] = lambda ws: _graph_kernel.GraphSearch(*args(ws), **settings)  # noqa: E731
        size = policy.graph.num_nodes + 1
        finish = partial_fn(_funnel, policy, s, sp, g, gp, rival, limit, weight)
        return make, _graph_kernel.Workspace, size, finish
    top = policy.top
    make = lambda ws: _polyanya.PolyanyaSearch(  # noqa: E731
        top.xy, top.poff, top.pv, top.nbr, top.twin, top.poly_of, top.corner,
        top.degree, ws, float(s[0]), float(s[1]), sp, float(g[0]), float(g[1]), gp,
        -1 if limit is None else int(limit),
    )  # fmt: skip
    size = max(top.xy.shape[0], top.poff.shape[0] - 1)
    return make, _polyanya.Workspace, size, _optimal


def _search(
    mesh: NavMesh, policy: Policy, algorithm: str, s: FloatArray, sp: Polys, g: FloatArray,
    gp: Polys, weight: float,
) -> PathResult:  # fmt: skip
    """A search without limit, run to its end at once (a partial answer's path)."""
    gp = policy.allowed(gp)
    rival, decisive = (
        _rival(mesh, policy, s, sp, g, gp) if algorithm == "funnel" else (None, False)
    )
    if rival is not None and decisive:
        return _with_links(policy, rival)
    make, kind, size, finish = _machine(policy, algorithm, s, sp, g, gp, None, weight, rival)
    machine = make(thread_workspace(kind, size))
    machine.step(-1)
    return _with_links(policy, finish(machine.answer()))


def start_search(
    mesh: NavMesh,
    policy: Policy,
    s: FloatArray,
    sp: Polys,
    g: FloatArray,
    gp: Polys,
    opts: SearchOptions,
    world: Any = None,
) -> CompiledSearch:
    """A path search between located positions as a step machine (see
    :meth:`NavMesh.find_path`, one unlimited step of it); an edit of ``world`` (a
    mesh with a ``version``) cancels it at its next step.

    ``partial``: a goal in another part of the mesh leads to the reachable point
    nearest it; a search stopped by ``max_expansions`` leads to the point nearest the
    goal on the polygon the corridor search (with the same limit) expanded closest to
    the goal, by the chosen algorithm's path. Either way the result stays falsy. The
    searches a partial answer adds run when the stepped search ends. The polygons the
    policy excludes hold no start or goal: a start only they hold is unreachable (no
    partial path), a goal only they hold as a goal in another part."""
    algorithm, limit, weight = opts.algorithm, opts.max_expansions, opts.weight
    sp, gp = policy.allowed(sp), policy.allowed(gp)
    unreachable = sp.size == 0 or gp.size == 0 or _apart(policy, sp, gp)
    if unreachable:
        if not opts.partial or sp.size == 0:
            return CompiledSearch.ended(_with_links(policy, _nothing("unreachable", 0, 0)))
        g, gp = _nearest_reachable(mesh, policy, sp, g)
        limit = None
    rival, decisive = (
        _rival(mesh, policy, s, sp, g, gp) if algorithm == "funnel" else (None, False)
    )
    if rival is not None and decisive:
        line = _with_links(policy, rival)  # the goal in sight: no search
        if unreachable:
            line = dataclasses.replace(line, found=False, reason="unreachable")
        return CompiledSearch.ended(line)
    make, kind, size, finish = _machine(policy, algorithm, s, sp, g, gp, limit, weight, rival)

    def result(answer: tuple[Any, ...], t0: float) -> PathResult:
        found = finish(answer)
        if unreachable:  # the path to the nearest reachable point
            found = dataclasses.replace(found, found=False, reason="unreachable")
        elif opts.partial and not found:
            polys, *_ = corridor(policy, s, sp, g, gp, limit, weight, True)
            near, np_ = _toward(mesh, polys, g)
            toward = _search(mesh, policy, algorithm, s, sp, near, np_, weight)
            found = dataclasses.replace(
                toward, found=False, reason=found.reason, expanded=found.expanded,
                generated=found.generated,
            )  # fmt: skip
        return timed(_with_links(policy, found), time.perf_counter() - t0)

    return CompiledSearch(make, result, kind, size, world=world)
