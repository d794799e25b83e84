"""pathcraft.Graph against networkx, igraph, rustworkx and scipy.csgraph; waypoint builds.

Two graphs, built once, outside the timed region:

- *road*: a road-like planar graph: ``--nodes`` random points in a square, the edges of
  their Delaunay triangulation shorter than the 85th percentile of lengths (long
  triangulation edges along the hull are not roads), each weighted by its length times
  a random factor in [1, 1.6] (speed limits, slopes). Undirected.
- *waypoints*: the visibility graph of a scene: 2,000 random waypoints among 300
  obstacles (discs and boxes) in a 1000 x 1000 square, built by
  ``pathcraft.WaypointGraph``; links weigh their length. Undirected.

Queries: ``--queries`` random (start, goal) pairs in the largest component, the same
for every library, interleaved (for each query every library runs once, in an order
rotated per query), one untimed warm-up each. Each library runs its point-to-point
search; every answer's cost is checked right after its timed call against pathcraft's
Dijkstra, itself checked against ``scipy.sparse.csgraph.dijkstra`` (not timed); paths
are checked to run along edges with the reported cost for pathcraft.

Peers, each with its natural point-to-point call:

- networkx: ``astar_path`` (Euclidean heuristic) and ``bidirectional_dijkstra``;
- igraph: ``get_shortest_path`` (Dijkstra, stops at the target) and
  ``get_shortest_path_astar`` (heuristic as a Python callback);
- rustworkx: ``graph_dijkstra_shortest_paths(target=...)`` (``weight_fn=float``) and
  ``graph_astar_shortest_path`` (Python callbacks);
- scipy: ``csgraph.dijkstra(indices=start, return_predecessors=True)``; it has no target
  and settles the whole component, which is its cost per query.

Second part: the time to build the waypoint graph (2,000 points, 300 obstacles, all
1,999,000 pairs) with pathcraft against the per-pair loop (for each pair: a shapely
``LineString``, an STRtree query of the obstacles, then ``relate_pattern(seg, obstacle,
"T********")`` for each candidate), timed on a sample of ``--loop-pairs`` pairs and
extrapolated; the sample's answers are checked against pathcraft's links.

Usage::

    python bench/graphs.py            # ~100k-node road graph, 60 queries (~4 min)
    python bench/graphs.py --quick    # a smoke run: small graphs, nothing written

Results go to ``bench/results/graphs.md``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import itertools
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import igraph
import networkx as nx
import numpy as np
import rustworkx as rx
import scipy.sparse as sp
import shapely
from _machine import git_rev, machine
from scipy.sparse.csgraph import connected_components
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra
from scipy.spatial import Delaunay

from pathcraft import Graph, WaypointGraph

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


# ---------------------------------------------------------------------- graphs


@dataclass
class Problem:
    name: str
    describe: str
    coords: np.ndarray  # (n, 2)
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    queries: np.ndarray = field(default_factory=lambda: np.empty((0, 2), dtype=np.intp))
    optimal: np.ndarray = field(default_factory=lambda: np.empty(0))


def road_graph(n: int, seed: int) -> Problem:
    rng = np.random.default_rng(seed)
    side = math.sqrt(n) * 100.0
    pts = rng.random((n, 2)) * side
    tri = Delaunay(pts).simplices
    edges = np.concatenate((tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]))
    edges = np.unique(np.sort(edges, axis=1), axis=0)
    length = np.linalg.norm(pts[edges[:, 0]] - pts[edges[:, 1]], axis=1)
    keep = length <= np.quantile(length, 0.85)
    edges, length = edges[keep], length[keep]
    weight = length * rng.uniform(1.0, 1.6, size=length.shape[0])
    return Problem(
        "road",
        f"road-like planar graph: {n:,} nodes, {len(edges):,} undirected edges",
        pts,
        edges[:, 0],
        edges[:, 1],
        weight,
    )


def scene(seed: int, n_points: int = 2000, n_obstacles: int = 300) -> tuple[np.ndarray, list]:
    rng = np.random.default_rng(seed)
    pts = rng.random((n_points, 2)) * 1000
    centers = rng.random((n_obstacles, 2)) * 1000
    obstacles = []
    for k, c in enumerate(centers):
        if k % 2:
            obstacles.append(shapely.box(*c, *(c + rng.uniform(5, 40, 2))))
        else:
            obstacles.append(shapely.Point(c).buffer(rng.uniform(5, 25)))
    return pts, obstacles


def waypoint_problem(wg: WaypointGraph) -> Problem:
    links = wg.links
    pts = np.asarray(wg.points)
    length = np.linalg.norm(pts[links[:, 0]] - pts[links[:, 1]], axis=1)
    return Problem(
        "waypoints",
        f"waypoint graph of a scene: {len(pts):,} points, {len(wg.obstacles)} obstacles, "
        f"{len(links):,} links",
        pts,
        links[:, 0],
        links[:, 1],
        length,
    )


def pick_queries(p: Problem, k: int, seed: int) -> None:
    n = len(p.coords)
    m = sp.coo_array((p.weight, (p.src, p.dst)), shape=(n, n)).tocsr()
    _, label = connected_components(m, directed=False)
    big = np.flatnonzero(label == np.bincount(label).argmax())
    rng = np.random.default_rng(seed)
    p.queries = big[rng.integers(len(big), size=(k, 2))]
    p.optimal = np.array([csgraph_dijkstra(m, directed=False, indices=s)[t] for s, t in p.queries])


# ---------------------------------------------------------------------- peers


@dataclass
class Peer:
    name: str
    call: str
    solve: Callable[[int, int], Any]
    cost_of: Callable[[Any, int, int], float]
    build_s: float = 0.0
    times: dict[int, float] = field(default_factory=dict)  # query index -> seconds
    bad: list[str] = field(default_factory=list)


def make_peers(p: Problem) -> list[Peer]:
    n = len(p.coords)
    xy = p.coords
    peers: list[Peer] = []

    def timed_build(fn: Callable[[], Any]) -> tuple[Any, float]:
        t = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - t

    graph, t_pc = timed_build(lambda: Graph(n, p.src, p.dst, p.weight, directed=False, coords=xy))
    edge_w = {}

    def pc_cost(r: Any, s: int, t: int) -> float:
        """pathcraft's reported cost, when its path sums to it along real edges."""
        total = path_cost(r.path, s, t)
        return total if math.isclose(total, r.cost, rel_tol=1e-12) else math.nan

    for a, b, w in zip(p.src.tolist(), p.dst.tolist(), p.weight.tolist(), strict=True):
        edge_w[(a, b)] = edge_w[(b, a)] = min(w, edge_w.get((a, b), math.inf))

    def path_cost(path: list[int], s: int, t: int) -> float:
        """The sum of the edges along ``path``; NaN unless it runs from s to t."""
        if not len(path) or path[0] != s or path[-1] != t:
            return math.nan
        return sum(edge_w[(a, b)] for a, b in itertools.pairwise(path))

    peers.append(Peer("pathcraft", "Graph.astar (Euclidean)", graph.astar, pc_cost, t_pc))
    peers.append(Peer("pathcraft", "Graph.dijkstra", graph.dijkstra, pc_cost, t_pc))

    def nx_build() -> Any:
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from(
            zip(p.src.tolist(), p.dst.tolist(), p.weight.tolist(), strict=True)
        )
        return g

    g_nx, t_nx = timed_build(nx_build)
    scale = graph.heuristic_scale

    def nx_h(u: int, v: int) -> float:
        return math.hypot(xy[u, 0] - xy[v, 0], xy[u, 1] - xy[v, 1]) * scale

    peers.append(
        Peer(
            "networkx",
            "astar_path (Euclidean)",
            lambda s, t: nx.astar_path(g_nx, s, t, heuristic=nx_h, weight="weight"),
            path_cost,
            t_nx,
        )
    )
    peers.append(
        Peer(
            "networkx",
            "bidirectional_dijkstra",
            lambda s, t: nx.bidirectional_dijkstra(g_nx, s, t, weight="weight")[1],
            path_cost,
            t_nx,
        )
    )

    g_ig, t_ig = timed_build(
        lambda: igraph.Graph(
            n=n,
            edges=np.column_stack((p.src, p.dst)).tolist(),
            edge_attrs={"weight": p.weight.tolist()},
        )
    )
    peers.append(
        Peer(
            "igraph",
            "get_shortest_path (Dijkstra)",
            lambda s, t: g_ig.get_shortest_path(s, t, weights="weight"),
            path_cost,
            t_ig,
        )
    )
    peers.append(
        Peer(
            "igraph",
            "get_shortest_path_astar (Euclidean)",
            lambda s, t: g_ig.get_shortest_path_astar(
                s, t, heuristics=lambda _g, u, v: nx_h(u, v), weights="weight"
            ),
            path_cost,
            t_ig,
        )
    )

    def rx_build() -> Any:
        g = rx.PyGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(list(zip(p.src.tolist(), p.dst.tolist(), p.weight.tolist(), strict=True)))
        return g

    g_rx, t_rx = timed_build(rx_build)
    peers.append(
        Peer(
            "rustworkx",
            "graph_dijkstra_shortest_paths (target)",
            lambda s, t: list(
                rx.graph_dijkstra_shortest_paths(g_rx, s, target=t, weight_fn=float)[t]
            ),
            path_cost,
            t_rx,
        )
    )

    def rx_astar(s: int, t: int) -> list[int]:
        return list(
            rx.graph_astar_shortest_path(
                g_rx,
                s,
                goal_fn=lambda node: node == t,
                edge_cost_fn=float,
                estimate_cost_fn=lambda node: nx_h(node, t),
            )
        )

    # rustworkx's A* callbacks see node payloads: the payloads are the node indices.
    peers.append(
        Peer("rustworkx", "graph_astar_shortest_path (Euclidean)", rx_astar, path_cost, t_rx)
    )

    m, t_sp = timed_build(
        lambda: sp.coo_array(
            (
                np.concatenate((p.weight, p.weight)),
                (np.concatenate((p.src, p.dst)), np.concatenate((p.dst, p.src))),
            ),
            shape=(n, n),
        ).tocsr()
    )

    def sp_solve(s: int, t: int) -> float:
        dist = csgraph_dijkstra(m, directed=True, indices=s, return_predecessors=True)[0]
        return float(dist[t])

    peers.append(
        Peer("scipy", "csgraph.dijkstra (whole component)", sp_solve, lambda d, s, t: d, t_sp)
    )
    return peers


def run(p: Problem, slow_queries: int) -> list[Peer]:
    peers = make_peers(p)
    s0, t0 = (int(x) for x in p.queries[0])
    for peer in peers:  # untimed warm-up
        peer.solve(s0, t0)
    for q, (s, t) in enumerate(p.queries.tolist()):
        order = peers[q % len(peers) :] + peers[: q % len(peers)]
        for peer in order:
            if peer.name != "pathcraft" and "astar" in peer.call and q >= slow_queries:
                continue
            t_start = time.perf_counter()
            out = peer.solve(s, t)
            peer.times[q] = time.perf_counter() - t_start
            got = peer.cost_of(out, s, t)
            if not math.isclose(got, p.optimal[q], rel_tol=1e-9):
                peer.bad.append(f"query {q}: {got} != {p.optimal[q]}")
    return peers


# ---------------------------------------------------------------------- build


def per_pair_loop(points: np.ndarray, obstacles: list, pairs: np.ndarray) -> np.ndarray:
    """The O(n^2) baseline: one pair at a time."""
    tree = shapely.STRtree(obstacles)
    clear = np.ones(len(pairs), dtype=bool)
    for k, (i, j) in enumerate(pairs.tolist()):
        seg = shapely.LineString([points[i], points[j]])
        for o in tree.query(seg, predicate="intersects"):
            if shapely.relate_pattern(seg, obstacles[o], "T********"):
                clear[k] = False
                break
    return clear


def build_bench(seed: int, loop_pairs: int) -> tuple[dict[str, Any], WaypointGraph]:
    points, obstacles = scene(seed)
    t = time.perf_counter()
    wg = WaypointGraph(points, obstacles)
    build = time.perf_counter() - t
    n = len(points)
    total = n * (n - 1) // 2
    rng = np.random.default_rng(seed + 1)
    i = rng.integers(n, size=loop_pairs * 2)
    j = rng.integers(n, size=loop_pairs * 2)
    keep = i < j
    pairs = np.column_stack((i[keep], j[keep]))[:loop_pairs]
    t = time.perf_counter()
    clear = per_pair_loop(points, obstacles, pairs)
    loop_s = time.perf_counter() - t
    linked = {tuple(x) for x in wg.links.tolist()}
    agree = sum((tuple(x) in linked) == c for x, c in zip(pairs.tolist(), clear, strict=True))
    t = time.perf_counter()
    key = wg.add_obstacle(shapely.box(480, 480, 520, 520))
    add_s = time.perf_counter() - t
    t = time.perf_counter()
    wg.remove_obstacle(key)
    remove_s = time.perf_counter() - t
    return {
        "pairs": total,
        "links": len(linked),
        "build_s": build,
        "loop_sample": len(pairs),
        "loop_s": loop_s,
        "loop_total_s": loop_s * total / len(pairs),
        "agree": agree,
        "add_s": add_s,
        "remove_s": remove_s,
    }, wg


# ---------------------------------------------------------------------- report


def table(p: Problem, peers: list[Peer]) -> list[str]:
    ours = [x for x in peers if x.name == "pathcraft"]
    best = min(ours, key=lambda x: float(np.median(list(x.times.values()))))
    lines = [
        f"### {p.describe}",
        "",
        "| library | call | queries | median ms | ratio to pathcraft's best | build s | checked |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for peer in sorted(peers, key=lambda x: float(np.median(list(x.times.values())))):
        med = float(np.median(list(peer.times.values())))
        # The ratio compares medians over the same queries (the slow peers run fewer).
        mine = float(np.median([best.times[q] for q in peer.times]))
        ok = "all costs optimal" if not peer.bad else f"{len(peer.bad)} WRONG: {peer.bad[0]}"
        lines.append(
            f"| {peer.name} | `{peer.call}` | {len(peer.times)} | {med * 1e3:.3f} | "
            f"{med / mine:.1f}x | {peer.build_s:.2f} | {ok} |"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument(
        "--slow-queries",
        type=int,
        default=20,
        help="queries for the peers' A* with Python callbacks",
    )
    ap.add_argument("--loop-pairs", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.nodes, args.queries, args.slow_queries, args.loop_pairs = 5000, 10, 5, 2000

    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = os.getloadavg()[0]
    print("building the waypoint graph ...", file=sys.stderr)
    build, wg = build_bench(args.seed, args.loop_pairs)
    sections = []
    for problem in (road_graph(args.nodes, args.seed), waypoint_problem(wg)):
        print(f"{problem.name}: {problem.describe}", file=sys.stderr)
        pick_queries(problem, args.queries, args.seed)
        peers = run(problem, args.slow_queries)
        sections.append(table(problem, peers))
        print("\n".join(sections[-1]), file=sys.stderr)
    versions = ", ".join(
        f"{m} {importlib.metadata.version(m)}"
        for m in ("numpy", "scipy", "networkx", "igraph", "rustworkx", "shapely")
    )
    lines = [
        "# Graph search: pathcraft.Graph against networkx, igraph, rustworkx, scipy",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {os.getloadavg()[0]:.2f} "
        "(a shared machine: ratios are steadier than absolute times)",
        f"- Versions: pathcraft (git {git_rev()}), {versions}",
        f"- Command: `python bench/graphs.py{' --quick' if args.quick else ''}` (seed {args.seed})",
        "",
        "## How to read",
        "",
        f"- {args.queries} random (start, goal) pairs in the largest component of each "
        "graph, the same for every library, interleaved; the peers' A* with Python "
        f"callbacks run the first {args.slow_queries}. *median ms*: median wall time of "
        "one point-to-point query; *ratio*: that median over the median of pathcraft's "
        "fastest call on the same queries (below 1: faster than pathcraft). *build s*: "
        "building the library's graph from the edge arrays (not timed per query).",
        "- Every answer's cost is checked after its timed call against "
        "`scipy.sparse.csgraph.dijkstra` (relative 1e-9); pathcraft's and the peers' "
        "paths are summed along their edges.",
        "- scipy's `dijkstra` has no target: it settles the whole component each query.",
        "",
        "## Per-query time",
        "",
    ]
    for section in sections:
        lines += [*section, ""]
    lines += [
        "## Building a waypoint graph: 2,000 points, 300 obstacles",
        "",
        f"All {build['pairs']:,} pairs tested; {build['links']:,} links.",
        "",
        "| method | seconds | ratio |",
        "|---|---:|---:|",
        f"| pathcraft `WaypointGraph(points, obstacles)` (vectorised) | {build['build_s']:.2f} "
        "| 1.0x |",
        f"| per-pair loop (LineString, STRtree query, `relate_pattern`), extrapolated from "
        f"{build['loop_sample']:,} pairs timed in {build['loop_s']:.2f} s | "
        f"{build['loop_total_s']:.1f} | {build['loop_total_s'] / build['build_s']:.1f}x |",
        f"| pathcraft `add_obstacle` (a 40 x 40 box in the middle; local update) | "
        f"{build['add_s']:.3f} | |",
        f"| pathcraft `remove_obstacle` (the same box) | {build['remove_s']:.3f} | |",
        "",
        f"The loop's answers agree with pathcraft's links on {build['agree']:,} of "
        f"{build['loop_sample']:,} sampled pairs.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "graphs.md").write_text(text)


if __name__ == "__main__":
    main()
