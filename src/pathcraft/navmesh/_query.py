"""Path queries on a :class:`~pathcraft.navmesh.NavMesh`: the funnel and Polyanya.

Positions arrive checked and located (with every polygon holding them); this module
calls the kernels and wraps their output in :class:`~pathcraft.result.PathResult`.
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
from pathcraft._kernels import REASONS, thread_workspace
from pathcraft._sliced import CompiledSearch
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["corridor", "start_search", "timed"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]


def timed(result: PathResult, elapsed: float) -> PathResult:
    """``result`` with its wall-clock time."""
    return dataclasses.replace(result, elapsed=elapsed)


def _length(path: FloatArray) -> float:
    return float(np.sqrt((np.diff(path, axis=0) ** 2).sum(axis=1)).sum())


def _corridor_args(
    mesh: NavMesh, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys, limit: int | None
) -> tuple[Any, dict[str, Any]]:
    """The graph kernel's arguments for A* over the polygon graph from the start's
    polygons (joined by their distance to the centroids) to the goal's."""
    c = mesh._centroids
    return mesh._graph._kernel_args(
        "astar", sp.astype(np.intp), -1, gp.astype(np.intp),
        source_costs=np.sqrt(((c[sp] - s) ** 2).sum(axis=1)),
        exit_costs=np.sqrt(((c[gp] - g) ** 2).sum(axis=1)),
        target=g, heuristic="euclidean", max_expansions=limit,
    )  # fmt: skip


def _polygons(answer: tuple[Any, ...]) -> tuple[Polys, int, int, int]:
    """A corridor search's answer as ``(polygons, status, expanded, generated)``."""
    status, nodes, _e, _cost, expanded, generated, _rn, _rg = answer
    polys = np.empty(0, dtype=np.int32)
    if status == _graph_kernel.FOUND:
        polys = np.ascontiguousarray(nodes[:-1], dtype=np.int32)  # the virtual goal last
    return polys, int(status), int(expanded), int(generated)


def corridor(
    mesh: NavMesh, s: FloatArray, sp: Polys, g: FloatArray, gp: Polys, limit: int | None
) -> tuple[Polys, int, int, int]:
    """A* over the polygon graph from the start's polygons to the goal's: ``(polygons,
    status, expanded, generated)``."""
    args, settings = _corridor_args(mesh, s, sp, g, gp, limit)
    workspace = thread_workspace(_graph_kernel.Workspace, mesh._graph.num_nodes + 1)
    return _polygons(_graph_kernel.search(*args(workspace), **settings))


def _funnel(mesh: NavMesh, s: FloatArray, g: FloatArray, answer: tuple[Any, ...]) -> PathResult:
    """The string pulled taut through the corridor a search found."""
    polys, status, expanded, generated = _polygons(answer)
    if status != _graph_kernel.FOUND:
        return _nothing(REASONS[status], expanded, generated)
    top = mesh._top
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
    path = _drop_straight(out[:n])
    return PathResult(
        path=path, cost=_length(path), found=True, expanded=expanded, generated=generated
    )


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
    status, path, cost, expanded, generated = answer
    if status != _polyanya.FOUND:
        return _nothing(REASONS[status], expanded, generated)
    return PathResult(
        path=path, cost=float(cost), found=True, expanded=expanded, generated=generated
    )


def _nothing(reason: str, expanded: int, generated: int) -> PathResult:
    return PathResult(
        path=np.empty((0, 2)), cost=math.inf, found=False, reason=reason,  # type: ignore[arg-type]
        expanded=int(expanded), generated=int(generated),
    )  # fmt: skip


def _nearest_reachable(mesh: NavMesh, sp: Polys, g: FloatArray) -> tuple[FloatArray, Polys]:
    """The point nearest ``g`` among the polygons connected to the start's."""
    members = np.flatnonzero(np.isin(mesh._component, mesh._component[sp]))
    point = shapely.points(g)
    best = members[int(np.argmin(shapely.distance(mesh._shapes[members], point)))]
    line = shapely.shortest_line(mesh._shapes[best], point)
    near = shapely.get_coordinates(line)[0]
    polys = mesh._containing(near)
    if not np.isin(polys, members).any():  # rounding left it a hair outside
        near = near + (mesh._centroids[best] - near) * 1e-9
        polys = np.array([best], dtype=np.int32)
    return near, polys[np.isin(polys, members)].astype(np.int32)


def start_search(
    mesh: NavMesh,
    s: FloatArray,
    sp: Polys,
    g: FloatArray,
    gp: Polys,
    mode: str,
    partial: bool,
    limit: int | None,
) -> CompiledSearch:
    """A path search between located positions as a step machine:
    :meth:`NavMesh.find_path` is one unlimited step of it."""
    comp = mesh._component
    unreachable = not (comp[gp][:, None] == comp[sp][None, :]).any()
    if unreachable:
        if not partial:
            return CompiledSearch.ended(_nothing("unreachable", 0, 0))
        g, gp = _nearest_reachable(mesh, sp, g)
    finish: Callable[[tuple[Any, ...]], PathResult]
    if mode == "funnel":
        args, settings = _corridor_args(mesh, s, sp, g, gp, limit)
        make: Callable[[Any], Any] = lambda ws: _graph_kernel.GraphSearch(*args(ws), **settings)  # noqa: E731
        kind: Any = _graph_kernel.Workspace
        size = mesh._graph.num_nodes + 1
        finish = partial_fn(_funnel, mesh, s, g)
    else:
        top = mesh._top
        make = lambda ws: _polyanya.PolyanyaSearch(  # noqa: E731
            top.xy, top.poff, top.pv, top.nbr, top.twin, top.poly_of, top.corner,
            top.degree, ws, float(s[0]), float(s[1]), sp, float(g[0]), float(g[1]), gp,
            -1 if limit is None else int(limit),
        )  # fmt: skip
        kind, size = _polyanya.Workspace, max(top.xy.shape[0], mesh.num_polygons)
        finish = _optimal

    def result(answer: tuple[Any, ...], t0: float) -> PathResult:
        found = finish(answer)
        if unreachable and found:  # the path to the nearest reachable point
            found = dataclasses.replace(found, found=False, reason="unreachable")
        return timed(found, time.perf_counter() - t0)

    return CompiledSearch(make, result, kind, size)
