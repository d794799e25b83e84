"""Generic search benchmark: pathcraft.astar against networkx.astar_path, and the memory
of the Bloom closed set.

Run on purpose, not in CI::

    python bench/generic_search.py            # full run, a few minutes
    python bench/generic_search.py --quick    # smoke run, ~30 s, nothing written
    python bench/generic_search.py --help

Part 1 runs the same point-to-point queries through ``pathcraft.search.astar`` (default
``tie_break="g"``, and ``tie_break="fifo"``, the order networkx uses) and
``networkx.astar_path`` on three graphs: a 200x200 grid with 25% random walls,
8-connected under the no-corner-cut rule with the octile heuristic; the same grid
4-connected with the Manhattan heuristic; a random geometric graph of 20,000 points with
Euclidean edge costs and heuristic. Each library gets its natural graph form (pathcraft:
``adjacency.__getitem__`` over lists of ``(neighbor, cost)`` tuples and ``heuristic(node)``;
networkx: an ``nx.Graph`` with ``weight`` attributes and ``heuristic(u, v)``), built before
any timing. Per query the libraries are interleaved, each timed 3 times with
``time.perf_counter`` (the minimum is kept), and each answer is checked (a valid path whose
cost agrees with the other library's; scipy's Dijkstra is the oracle for a sample).

Part 2 runs one long A* over an implicit, unbounded 2-D lattice (successors computed on
the fly, ~1.5 million expansions) with ``closed="exact"`` and ``closed="bloom"``, each in a
fresh subprocess, and reports the peak RSS growth of the search (Linux ``VmHWM`` reset
just before it; ``ru_maxrss`` of a child starts at the parent's peak) and, in separate
smaller runs, the tracemalloc peak (tracemalloc slows the search about tenfold and does
not see rbloom's Rust allocations). The Bloom search runs twice: from (0, 0) and from an
origin shifted by whole tiles (the same search), because ``hash(-1) == hash(-2)`` makes
``(x, -1)`` and ``(x, -2)`` one item to a Bloom filter.

The markdown tables go to ``bench/results/generic_search.md`` and are printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import itertools
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
from _machine import cpu_model, git_rev, reset_peak_rss, vm_status
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.sparse.csgraph import dijkstra as scipy_dijkstra
from scipy.spatial import cKDTree

import pathcraft
from pathcraft.search import BloomClosed, astar

SQRT2 = math.sqrt(2.0)
OCTILE_K = SQRT2 - 2.0  # octile = dr + dc + (sqrt(2) - 2) * min(dr, dc)
HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "results" / "generic_search.md"
SHIFT_TILES = 40  # part 2's second origin: (40 * 251, 40 * 241)
REL_TOL = 1e-9  # equal-cost paths sum their steps in different orders


# --------------------------------------------------------------------------- graphs


@dataclass
class Bench:
    """One graph in both libraries' forms, plus what the checks and queries need."""

    name: str
    edges_rule: str
    heuristic_name: str
    nodes: list[Any]  # index -> node
    adj: dict[Any, list[tuple[Any, float]]]  # pathcraft's form
    graph: nx.Graph  # networkx's form
    csr: csr_matrix  # scipy's form, over node indices
    pc_heuristic: Callable[[Any], Callable[[Any], float]]  # goal -> heuristic(node)
    nx_heuristic: Callable[[Any, Any], float]  # heuristic(u, v)
    n_edges: int
    main: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    other: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))


def assemble(
    name: str,
    edges_rule: str,
    heuristic_name: str,
    nodes: list[Any],
    us: np.ndarray,
    vs: np.ndarray,
    ws: np.ndarray,
    pc_heuristic: Callable[[Any], Callable[[Any], float]],
    nx_heuristic: Callable[[Any, Any], float],
) -> Bench:
    """Build both libraries' graphs from one undirected edge list, in the same order.

    networkx's ``add_weighted_edges_from`` appends ``v`` to ``adj[u]`` and ``u`` to
    ``adj[v]`` edge by edge, exactly as the adjacency lists are filled here, so both
    libraries see every node's neighbours in the same order.
    """
    adj: dict[Any, list[tuple[Any, float]]] = {node: [] for node in nodes}
    triples = []
    for u, v, w in zip(us.tolist(), vs.tolist(), ws.tolist(), strict=True):
        a, b = nodes[u], nodes[v]
        adj[a].append((b, w))
        adj[b].append((a, w))
        triples.append((a, b, w))
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from(triples, weight="weight")
    n = len(nodes)
    csr = csr_matrix(
        (np.concatenate([ws, ws]), (np.concatenate([us, vs]), np.concatenate([vs, us]))),
        shape=(n, n),
    )
    bench = Bench(
        name, edges_rule, heuristic_name, nodes, adj, graph, csr,
        pc_heuristic, nx_heuristic, len(triples),
    )  # fmt: skip
    _, labels = connected_components(csr, directed=False)
    sizes = np.bincount(labels)
    biggest = int(np.argmax(sizes))
    bench.main = np.flatnonzero(labels == biggest)
    bench.other = np.flatnonzero(labels != biggest)
    return bench


def octile_to(goal: tuple[int, int]) -> Callable[[tuple[int, int]], float]:
    gr, gc_ = goal

    def h(cell: tuple[int, int]) -> float:
        dr = abs(cell[0] - gr)
        dc = abs(cell[1] - gc_)
        return dr + dc + OCTILE_K * (dr if dr < dc else dc)

    return h


def octile_nx(u: tuple[int, int], v: tuple[int, int]) -> float:
    dr = abs(u[0] - v[0])
    dc = abs(u[1] - v[1])
    return dr + dc + OCTILE_K * (dr if dr < dc else dc)


def manhattan_to(goal: tuple[int, int]) -> Callable[[tuple[int, int]], float]:
    gr, gc_ = goal

    def h(cell: tuple[int, int]) -> float:
        return abs(cell[0] - gr) + abs(cell[1] - gc_)

    return h


def manhattan_nx(u: tuple[int, int], v: tuple[int, int]) -> float:
    return abs(u[0] - v[0]) + abs(u[1] - v[1])


def random_grid(size: int, walls: float, seed: int) -> np.ndarray:
    """A ``size x size`` boolean array, True where the cell is free."""
    return np.random.default_rng(seed).random((size, size)) >= walls


def grid_bench(free: np.ndarray, diagonal: bool) -> Bench:
    """The grid as a graph: 4-connected, or 8-connected under the no-corner-cut rule."""
    size = free.shape[0]
    rows, cols = np.nonzero(free)
    index = np.full(free.shape, -1, dtype=np.int64)
    index[rows, cols] = np.arange(rows.size)
    nodes = list(zip(rows.tolist(), cols.tolist(), strict=True))
    us, vs, ws = [], [], []

    def add(mask: np.ndarray, a: np.ndarray, b: np.ndarray, w: float) -> None:
        us.append(a[mask])
        vs.append(b[mask])
        ws.append(np.full(int(mask.sum()), w))

    add(free[:, :-1] & free[:, 1:], index[:, :-1], index[:, 1:], 1.0)  # right
    add(free[:-1, :] & free[1:, :], index[:-1, :], index[1:, :], 1.0)  # down
    name = f"grid {size}x{size}, 4-connected"
    rule = "4-connected, step 1"
    pc_h, nx_h, h_name = manhattan_to, manhattan_nx, "Manhattan"
    if diagonal:
        # No corner cutting: a diagonal step needs both orthogonal cells free, that is
        # the whole 2x2 block free; both diagonals of such a block are edges.
        block = free[:-1, :-1] & free[:-1, 1:] & free[1:, :-1] & free[1:, 1:]
        add(block, index[:-1, :-1], index[1:, 1:], SQRT2)  # down-right
        add(block, index[:-1, 1:], index[1:, :-1], SQRT2)  # down-left
        name = f"grid {size}x{size}, 8-connected"
        rule = "8-connected, no corner cutting, steps 1 and sqrt(2)"
        pc_h, nx_h, h_name = octile_to, octile_nx, "octile"
    return assemble(
        name, rule, h_name, nodes, np.concatenate(us), np.concatenate(vs),
        np.concatenate(ws), pc_h, nx_h,
    )  # fmt: skip


def rgg_radius(n: int) -> float:
    """Twice the connectivity threshold's area: pi r^2 n = 2 ln n (mean degree ~2 ln n)."""
    return math.sqrt(2.0 * math.log(n) / (math.pi * n))


def rgg_bench(n: int, radius: float, seed: int) -> Bench:
    """A random geometric graph: n points in the unit square, edges shorter than radius."""
    points = np.random.default_rng(seed).random((n, 2))
    pairs = cKDTree(points).query_pairs(radius, output_type="ndarray")
    pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]  # a fixed edge order
    pos = [tuple(p) for p in points.tolist()]
    dist = math.dist
    ws = np.array([dist(pos[u], pos[v]) for u, v in pairs.tolist()])

    def euclid_to(goal: int) -> Callable[[int], float]:
        gp = pos[goal]

        def h(node: int) -> float:
            return dist(pos[node], gp)

        return h

    def euclid_nx(u: int, v: int) -> float:
        return dist(pos[u], pos[v])

    return assemble(
        f"random geometric, {n:,} nodes", f"Euclidean, radius {radius:.4f}", "Euclidean",
        list(range(n)), pairs[:, 0].copy(), pairs[:, 1].copy(), ws, euclid_to, euclid_nx,
    )  # fmt: skip


# --------------------------------------------------------------------------- part 1


class _CountingAdj(dict):  # type: ignore[type-arg]
    """A stand-in for ``G._adj`` counting networkx A*'s lookups: one per expanded node."""

    count = 0

    def __getitem__(self, key: Any) -> Any:
        self.count += 1
        return dict.__getitem__(self, key)


def nx_astar(graph: nx.Graph, s: Any, t: Any, h: Callable[[Any, Any], float]) -> list[Any] | None:
    try:
        return nx.astar_path(graph, s, t, heuristic=h, weight="weight")
    except nx.NetworkXNoPath:
        return None


def path_cost(graph: nx.Graph, path: list[Any], s: Any, t: Any) -> float:
    """The cost of ``path`` after checking it runs from s to t along edges of ``graph``."""
    if not path or path[0] != s or path[-1] != t:
        raise AssertionError(f"path does not run from {s!r} to {t!r}")
    adj = graph.adj
    total = 0.0
    for a, b in itertools.pairwise(path):
        total += adj[a][b]["weight"]  # KeyError: not an edge
    return total


def close(a: float, b: float) -> bool:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a == b
    return abs(a - b) <= REL_TOL * max(1.0, abs(a), abs(b))


LIBS = ("pathcraft", "pathcraft fifo", "networkx")


@dataclass
class QueryStats:
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in LIBS})
    expanded: dict[str, list[int]] = field(default_factory=lambda: {k: [] for k in LIBS})
    generated: dict[str, list[int]] = field(default_factory=lambda: {k: [] for k in LIBS})
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    costs: list[float] = field(default_factory=list)
    pairs: list[tuple[int, int]] = field(default_factory=list)


def run_queries(
    bench: Bench, pairs: list[tuple[int, int]], repeats: int, reachable: bool
) -> QueryStats:
    """Time every query in every library (interleaved, min of ``repeats``) and check it."""
    stats = QueryStats()
    graph, nodes, nbrs = bench.graph, bench.nodes, bench.adj.__getitem__
    counting = nx.Graph()
    counting._node = graph._node
    counting._adj = _CountingAdj(graph._adj)
    perf = time.perf_counter
    for q, (si, ti) in enumerate(pairs):
        s, t = nodes[si], nodes[ti]
        h_pc = bench.pc_heuristic(t)
        h_nx = bench.nx_heuristic
        calls: dict[str, Callable[[], Any]] = {
            "pathcraft": lambda s=s, t=t, h=h_pc: astar(s, t, nbrs, h),
            "pathcraft fifo": lambda s=s, t=t, h=h_pc: astar(s, t, nbrs, h, tie_break="fifo"),
            "networkx": lambda s=s, t=t, h=h_nx: nx_astar(graph, s, t, h),
        }
        order = LIBS[q % 3 :] + LIBS[: q % 3]  # who goes first rotates per query
        best = dict.fromkeys(LIBS, math.inf)
        out: dict[str, Any] = {}
        for _ in range(repeats):
            for lib in order:
                call = calls[lib]
                t0 = perf()
                res = call()
                elapsed = perf() - t0
                if elapsed < best[lib]:
                    best[lib] = elapsed
                out[lib] = res
        for lib in LIBS:
            stats.times[lib].append(best[lib])
        # ---- checks (untimed): pathcraft's paths are valid and every cost agrees
        problems = []
        pc, fifo, nxp = out["pathcraft"], out["pathcraft fifo"], out["networkx"]
        if reachable:
            pc_cost = path_cost(graph, pc.path, s, t) if pc else math.inf
            fifo_cost = path_cost(graph, fifo.path, s, t) if fifo else math.inf
            nx_cost = path_cost(graph, nxp, s, t) if nxp is not None else math.inf
            if not (pc and close(pc_cost, pc.cost)):
                problems.append(f"pathcraft cost {pc.cost} vs its path {pc_cost}")
            if not (fifo and close(fifo_cost, fifo.cost)):
                problems.append(f"fifo cost {fifo.cost} vs its path {fifo_cost}")
            if not (close(pc.cost, nx_cost) and close(fifo.cost, nx_cost)):
                problems.append(f"costs differ: {pc.cost} / {fifo.cost} / networkx {nx_cost}")
            stats.costs.append(nx_cost)
        else:
            for lib, res in (("pathcraft", pc), ("pathcraft fifo", fifo)):
                if res or res.reason != "unreachable":
                    problems.append(f"{lib}: expected unreachable, got {res.reason}")
            if nxp is not None:
                problems.append("networkx found a path to another component")
        if problems:
            stats.mismatches.append(f"query {q} {s!r}->{t!r}: " + "; ".join(problems))
        else:
            stats.checked += 1
        stats.expanded["pathcraft"].append(pc.expanded)
        stats.expanded["pathcraft fifo"].append(fifo.expanded)
        stats.generated["pathcraft"].append(pc.generated)
        stats.generated["pathcraft fifo"].append(fifo.generated)
        counting._adj.count = 0
        found = nx_astar(counting, s, t, h_nx) is not None
        stats.expanded["networkx"].append(counting._adj.count + (1 if found else 0))
        stats.pairs.append((si, ti))
    return stats


def oracle_check(bench: Bench, stats: QueryStats, sample: int) -> tuple[int, int]:
    """Compare a sample of the agreed costs with scipy's Dijkstra; (agreeing, sampled)."""
    k = min(sample, len(stats.pairs))
    if k == 0:
        return 0, 0
    picks = np.linspace(0, len(stats.pairs) - 1, k).round().astype(int)
    srcs = np.array([stats.pairs[i][0] for i in picks])
    dist = scipy_dijkstra(bench.csr, directed=False, indices=srcs)
    good = 0
    for row, i in enumerate(picks):
        ti = stats.pairs[i][1]
        if close(float(dist[row, ti]), stats.costs[i]):
            good += 1
        else:
            stats.mismatches.append(
                f"oracle: query {i} scipy {dist[row, ti]} vs agreed {stats.costs[i]}"
            )
    return good, k


def pick_pairs(rng: np.random.Generator, a: np.ndarray, b: np.ndarray, k: int) -> list[Any]:
    pairs = []
    while len(pairs) < k:
        s, t = int(rng.choice(a)), int(rng.choice(b))
        if s != t:
            pairs.append((s, t))
    return pairs


def summarize(stats: QueryStats) -> dict[str, dict[str, float]]:
    nx_t = np.array(stats.times["networkx"]) * 1e3
    rows = {}
    for lib in LIBS:
        t = np.array(stats.times[lib]) * 1e3
        rows[lib] = {
            "median": float(np.median(t)),
            "p95": float(np.percentile(t, 95)),
            "ratio_medians": float(np.median(nx_t) / np.median(t)),
            "median_ratio": float(np.median(nx_t / t)),
            "expanded": float(np.median(stats.expanded[lib])),
            "generated": float(np.median(stats.generated[lib]))
            if stats.generated[lib]
            else math.nan,
        }
    return rows


def part_search(args: argparse.Namespace) -> dict[str, Any]:
    t_build = time.perf_counter()
    free = random_grid(args.grid, args.walls, args.seed)
    benches = [
        grid_bench(free, diagonal=True),
        grid_bench(free, diagonal=False),
        rgg_bench(args.rgg_nodes, args.rgg_radius or rgg_radius(args.rgg_nodes), args.seed),
    ]
    build_s = time.perf_counter() - t_build
    # The graphs live for the whole run: keep the collector from rescanning them.
    gc.collect()
    gc.freeze()
    results = []
    for k, bench in enumerate(benches):
        # Same seed per graph: both grids (same cells, same components) get the same queries.
        rng = np.random.default_rng(args.seed + (0 if k < 2 else 1))
        pairs = pick_pairs(rng, bench.main, bench.main, args.queries)
        no_path = (
            pick_pairs(rng, bench.main, bench.other, args.unreachable)
            if bench.other.size and args.unreachable
            else []
        )
        run_queries(bench, pairs[: args.warmup], 1, reachable=True)  # warm-up, discarded
        t0 = time.perf_counter()
        stats = run_queries(bench, pairs, args.repeats, reachable=True)
        oracle = oracle_check(bench, stats, args.oracle_sample)
        nopath_stats = run_queries(bench, no_path, args.repeats, reachable=False)
        wall = time.perf_counter() - t0
        print(
            f"  {bench.name}: {len(pairs)} queries, {len(no_path)} with no path, "
            f"{wall:.1f} s, {len(stats.mismatches) + len(nopath_stats.mismatches)} mismatches",
            file=sys.stderr,
        )
        for m in (stats.mismatches + nopath_stats.mismatches)[:10]:
            print("    MISMATCH", m, file=sys.stderr)
        results.append(
            {
                "bench": bench,
                "queries": len(pairs),
                "stats": stats,
                "summary": summarize(stats),
                "oracle": oracle,
                "nopath": nopath_stats,
                "nopath_summary": summarize(nopath_stats) if no_path else None,
                "path_len": float(np.median(stats.costs)),
            }
        )
    gc.unfreeze()
    return {"results": results, "build_s": build_s}


# --------------------------------------------------------------------------- part 2


class Lattice:
    """An unbounded 8-connected lattice whose walls repeat a random tile; nothing stored
    per cell: ``neighbors`` computes the successors of ``(x, y)`` on the fly, under the
    no-corner-cut rule (a diagonal step needs both orthogonal cells free)."""

    P, Q = 251, 241  # tile sides, coprime so the walls show no short period diagonally

    def __init__(self, walls: float, seed: int) -> None:
        rng = np.random.default_rng(seed)
        tile = bytearray((rng.random(self.P * self.Q) < walls).astype(np.uint8).tobytes())
        tile[0] = 0  # the start (0, 0) is free
        self.tile = bytes(tile)

    def blocked(self, x: int, y: int) -> bool:
        return bool(self.tile[(x % self.P) * self.Q + y % self.Q])

    def neighbors(self, node: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        x, y = node
        t, P, Q = self.tile, self.P, self.Q
        xm, xp, x0 = ((x - 1) % P) * Q, ((x + 1) % P) * Q, (x % P) * Q
        ym, yp, y0 = (y - 1) % Q, (y + 1) % Q, y % Q
        w, e, s, n = not t[xm + y0], not t[xp + y0], not t[x0 + ym], not t[x0 + yp]
        out = []
        if w:
            out.append(((x - 1, y), 1.0))
        if e:
            out.append(((x + 1, y), 1.0))
        if s:
            out.append(((x, y - 1), 1.0))
        if n:
            out.append(((x, y + 1), 1.0))
        if w and s and not t[xm + ym]:
            out.append(((x - 1, y - 1), SQRT2))
        if w and n and not t[xm + yp]:
            out.append(((x - 1, y + 1), SQRT2))
        if e and s and not t[xp + ym]:
            out.append(((x + 1, y - 1), SQRT2))
        if e and n and not t[xp + yp]:
            out.append(((x + 1, y + 1), SQRT2))
        return out

    def goal(self, distance: int) -> tuple[int, int]:
        x = distance
        while self.blocked(x, 0):
            x += 1
        return (x, 0)


def half_octile_to(goal: tuple[int, int]) -> Callable[[tuple[int, int]], float]:
    """Half the octile distance: admissible and consistent, deliberately weak."""
    gx, gy = goal

    def h(cell: tuple[int, int]) -> float:
        dx = abs(cell[0] - gx)
        dy = abs(cell[1] - gy)
        return 0.5 * (dx + dy + OCTILE_K * (dx if dx < dy else dy))

    return h


def memory_child(args: argparse.Namespace) -> None:
    """One search in this fresh process; prints one JSON line."""
    mode, measure, distance = args.memory_child, args.measure, args.distance
    space = Lattice(args.walls, args.seed)
    # The walls repeat every tile, so shifting the origin by whole tiles gives the very
    # same search with other coordinates.
    ox, oy = args.offset * Lattice.P, args.offset * Lattice.Q
    gx, gy = space.goal(distance)
    start, goal = (ox, oy), (ox + gx, oy + gy)
    h = half_octile_to(goal)
    limit = 4 * distance * distance + 10_000  # never search an unbounded space forever
    astar((0, 0), (3, 0), space.neighbors, half_octile_to((3, 0)), closed=mode)  # warm
    gc.collect()
    if measure == "tracemalloc":
        tracemalloc.start()
        tm_base = tracemalloc.get_traced_memory()[0]
    # ru_maxrss of a process started by subprocess begins at the *parent's* peak (Linux
    # carries the old memory map's high-water mark over exec), so a delta of it can read
    # 0. VmHWM is this memory map's own peak, and clear_refs "5" resets it to VmRSS.
    hwm_reset = reset_peak_rss()
    status = vm_status()
    maxrss_base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    rss_base = status["VmRSS"] if status else maxrss_base
    t0 = time.perf_counter()
    result = astar(start, goal, space.neighbors, h, closed=mode, max_expansions=limit)
    seconds = time.perf_counter() - t0
    status = vm_status()
    maxrss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    rss_peak = status["VmHWM"] if status and hwm_reset else maxrss_peak
    record = {
        "mode": mode,
        "measure": measure,
        "distance": distance,
        "start": list(start),
        "goal": list(goal),
        "found": bool(result),
        "reason": result.reason,
        "cost": result.cost,
        "expanded": result.expanded,
        "generated": result.generated,
        "seconds": seconds,
        "rss_delta": rss_peak - rss_base,
        "rss_source": "VmHWM" if status and hwm_reset else "ru_maxrss",
        "ru_maxrss_delta": maxrss_peak - maxrss_base,
    }
    if measure == "tracemalloc":
        record["tm_peak"] = tracemalloc.get_traced_memory()[1] - tm_base
        tracemalloc.stop()
    print(json.dumps(record))


def bloom_filter_bytes(n: int, settings: BloomClosed | None = None) -> int:
    """Bytes of the bit arrays of the filter chain ``closed="bloom"`` builds for n nodes
    (the same growth rule as pathcraft's ScalableBloom, from the public settings)."""
    from rbloom import Bloom

    s = settings or BloomClosed()
    cap, err, total, left = s.initial_capacity, s.error_rate * (1 - s.tightening), 0, n
    while True:
        total += Bloom(cap, err).size_in_bits // 8
        if left <= cap:
            return total
        left -= cap
        cap *= s.growth
        err *= s.tightening


def part_memory(args: argparse.Namespace) -> dict[str, Any]:
    runs = []
    far = SHIFT_TILES  # an origin where no coordinate is -1 or -2 (see render)
    plan = [(m, "rss", args.memory_distance, 0) for m in ("exact", "bloom")]
    plan += [("bloom", "rss", args.memory_distance, far)]
    plan += [(m, "tracemalloc", args.tracemalloc_distance, 0) for m in ("exact", "bloom")]
    for mode, measure, distance, offset in plan:
        cmd = [
            sys.executable, str(Path(__file__).resolve()), "--memory-child", mode,
            "--measure", measure, "--distance", str(distance), "--offset", str(offset),
            "--walls", str(args.walls), "--seed", str(args.seed),
        ]  # fmt: skip
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"memory child {mode}/{measure} failed:\n{proc.stderr}")
        rec = json.loads(proc.stdout.strip().splitlines()[-1])
        if mode == "bloom":
            rec["filter_bytes"] = bloom_filter_bytes(rec["expanded"])
        print(
            f"  {mode:5s} {measure:11s} D={distance} start {tuple(rec['start'])}: "
            f"expanded {rec['expanded']:,}, cost {rec['cost']:.3f}, "
            f"{rec['seconds']:.1f} s, RSS +{rec['rss_delta'] / 2**20:.1f} MiB",
            file=sys.stderr,
        )
        runs.append(rec)
    return {"runs": runs}


# --------------------------------------------------------------------------- report


def machine_facts(load_start: tuple[float, ...]) -> list[str]:
    from importlib.metadata import version

    import scipy

    engine = pathcraft.search._run.__module__
    import pathcraft._engine as eng

    compiled = not eng.__file__.endswith(".py")
    built_at = dt.datetime.fromtimestamp(Path(eng.__file__).stat().st_mtime, dt.timezone.utc)
    built = f"{built_at:%Y-%m-%d %H:%M}"
    return [
        f"- CPU: {cpu_model()}; `nproc` = {os.cpu_count()}; load average (1 / 5 / 15 min) at start "
        f"{' / '.join(f'{x:.2f}' for x in load_start)}, at the end "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())} (a shared, noisy machine: "
        "ratios within a run are steadier than absolute times)",
        f"- Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.release()}",
        f"- numpy {np.__version__}, scipy {scipy.__version__}, networkx {nx.__version__}, "
        f"rbloom {version('rbloom')}",
        f"- pathcraft {pathcraft.__version__} at commit {git_rev()}; search loop `{engine}` "
        + (
            f"compiled by Cython ({Path(eng.__file__).name}, built {built} UTC)"
            if compiled
            else "pure Python"
        ),
    ]


def fmt_ms(x: float) -> str:
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def fmt_count(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:,.0f}"


def fmt_mib(b: float) -> str:
    return f"{b / 2**20:.1f} MiB"


def render(
    args: argparse.Namespace, search: dict[str, Any] | None, mem: dict[str, Any] | None
) -> str:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "python bench/generic_search.py" + (" " + " ".join(sys.argv[1:]) if sys.argv[1:] else "")
    out = [
        "# Generic search: pathcraft.astar vs networkx.astar_path, and the Bloom closed set",
        "",
        f"Run {now} with `{cmd}` (seed {args.seed}).",
        "",
        *machine_facts(args.load_start),
        "",
        "## How to read",
        "",
        "- Times are per query: each library runs each query "
        f"{args.repeats} times, interleaved with the others (the one going first rotates), "
        "and the minimum is kept; the table gives the median and the 95th percentile of "
        "those minima over the queries.",
        "- **networkx ÷ this** is networkx's median over this row's median; **per-query** is "
        "the median over queries of (networkx time / this row's time). Above 1 means "
        "faster than networkx.",
        '- `tie_break="g"` (pathcraft\'s default) breaks ties on f toward the larger g; '
        '`"fifo"` takes the first pushed, as networkx does (its heap entries carry a '
        "counter). On grids, g-ties save many expansions; the fifo row does about the "
        "same work as networkx, so it isolates the speed of the loop itself.",
        "- **expanded**: median nodes expanded per query (the goal included); networkx's "
        "count comes from an extra, untimed run that counts its adjacency lookups. "
        "**generated**: median heap pushes (pathcraft's `result.generated`); pushes "
        "beyond the nodes reached are entries made stale by a cheaper path found later.",
        "- **checked**: queries where pathcraft's path (both tie rules) is a real path of "
        "the stated cost and that cost equals networkx's; **oracle**: sampled queries "
        "whose cost also equals scipy.sparse.csgraph.dijkstra's distance "
        f"(relative tolerance {REL_TOL:g}).",
        "- Graphs are built before any timing; the collector is frozen afterwards so "
        "neither library pays for rescanning them.",
    ]
    if search is not None:
        out += [
            "",
            "## 1. Point-to-point A*",
            "",
            f"Graphs (built in {search['build_s']:.1f} s). Queries join random nodes of the "
            "largest component (the two grids share cells, components and queries).",
            "",
            "| graph | nodes | edges | largest component | edges and costs | heuristic "
            "| queries | median path cost |",
            "|---|---:|---:|---:|---|---|---:|---:|",
        ]
        for r in search["results"]:
            b = r["bench"]
            out.append(
                f"| {b.name} | {len(b.nodes):,} | {b.n_edges:,} | {b.main.size:,} | "
                f"{b.edges_rule} | {b.heuristic_name} | {r['queries']} | {r['path_len']:.1f} |"
            )
        out += [
            "",
            "| graph | search | median ms | p95 ms | networkx ÷ this | per-query "
            "| expanded | generated | checked | oracle |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        label = {
            "pathcraft": 'pathcraft `astar` (tie_break="g")',
            "pathcraft fifo": 'pathcraft `astar` (tie_break="fifo")',
            "networkx": "networkx `astar_path`",
        }
        for r in search["results"]:
            b, st, sm = r["bench"], r["stats"], r["summary"]
            good, k = r["oracle"]
            for lib in LIBS:
                row = sm[lib]
                ratio = "1" if lib == "networkx" else f"**{row['ratio_medians']:.2f}x**"
                per_q = "1" if lib == "networkx" else f"{row['median_ratio']:.2f}x"
                out.append(
                    f"| {b.name} | {label[lib]} | {fmt_ms(row['median'])} | "
                    f"{fmt_ms(row['p95'])} | {ratio} | {per_q} | {row['expanded']:,.0f} | "
                    f"{fmt_count(row['generated'])} | {st.checked}/{r['queries']} | {good}/{k} |"
                )
        nopath = [r for r in search["results"] if r["nopath_summary"] is not None]
        if nopath:
            out += [
                "",
                "No path: the goal is a free node outside the largest component, so each "
                "search exhausts the start's component (both libraries must say no path).",
                "",
                "| graph | search | queries | median ms | p95 ms | networkx ÷ this "
                "| expanded | checked |",
                "|---|---|---:|---:|---:|---:|---:|---:|",
            ]
            for r in nopath:
                b, st, sm = r["bench"], r["nopath"], r["nopath_summary"]
                n = len(st.pairs)
                for lib in LIBS:
                    row = sm[lib]
                    ratio = "1" if lib == "networkx" else f"{row['ratio_medians']:.2f}x"
                    out.append(
                        f"| {b.name} | {label[lib]} | {n} | {fmt_ms(row['median'])} | "
                        f"{fmt_ms(row['p95'])} | {ratio} | {row['expanded']:,.0f} | "
                        f"{st.checked}/{n} |"
                    )
            skipped = [r["bench"].name for r in search["results"] if r["nopath_summary"] is None]
            if skipped:
                out += ["", f"({', '.join(skipped)}: connected, so no no-path queries.)"]
        bad = sum(
            len(r["stats"].mismatches) + len(r["nopath"].mismatches) for r in search["results"]
        )
        if bad:
            out += ["", f"**{bad} answers disagreed**; see the run's stderr."]
    if mem is not None:
        out += render_memory(args, mem["runs"])
    return "\n".join(out) + "\n"


def render_memory(args: argparse.Namespace, runs: list[dict[str, Any]]) -> list[str]:
    exact_cost = {(r["measure"], r["distance"]): r["cost"] for r in runs if r["mode"] == "exact"}
    far = (SHIFT_TILES * Lattice.P, SHIFT_TILES * Lattice.Q)
    out = [
        "",
        "## 2. Closed set: exact vs Bloom, peak memory",
        "",
        "One A* search on an unbounded 8-connected lattice (no corner cutting) whose walls "
        f"({args.walls:.0%}) repeat a random {Lattice.P}x{Lattice.Q} tile; `neighbors` "
        "computes successors on the fly and nodes are `(x, y)` tuples. The goal is about D "
        "cells east of the start; heuristic: half the octile distance (admissible, "
        "deliberately weak, so the search expands a wide region). Default Bloom settings "
        '(`closed="bloom"`: error rate 1e-6). Each row is a fresh subprocess.',
        "",
        "- **RSS**: the peak resident set during the search minus the resident set just "
        "before it (Linux `VmHWM`, reset through `/proc/self/clear_refs` before the search; "
        "`ru_maxrss` is no good here: in a child process it starts at the parent's peak, "
        "since exec carries the old memory map's high-water mark over). It includes "
        "rbloom's Rust-side bit arrays.",
        "- **tracemalloc**: the traced peak over the search, in separate, smaller runs "
        "(tracemalloc slows the search about tenfold and inflates RSS); it does not see "
        "rbloom's bit arrays, listed apart (computed from the filter chain's sizes).",
        f"- **start {far}**: the same search shifted by {SHIFT_TILES} whole tiles (same "
        "walls, same optimal cost), so that no coordinate is -1 or -2. In CPython "
        "`hash(-1) == hash(-2)`, so `(x, -1)` and `(x, -2)` have equal hashes; a Bloom "
        "filter sees only hashes, so once one of the pair is closed the other is taken "
        "for closed (a certain false positive, not a 1e-6 one). Near the origin that "
        "removes whole rows and columns of the lattice from the search.",
        "",
        "| closed | measured by | start | D | expanded | generated | peak memory "
        "| bytes / expanded node | Bloom bit arrays | time s | cost | same cost as exact |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        peak = r["rss_delta"] if r["measure"] == "rss" else r["tm_peak"]
        if r["mode"] == "exact":
            same = "—"
        else:
            ok = close(r["cost"], exact_cost[(r["measure"], r["distance"])])
            same = "yes" if ok else "**no**"
        found = f"{r['cost']:.3f}" if r["found"] else f"not found ({r['reason']})"
        bits = fmt_mib(r["filter_bytes"]) if "filter_bytes" in r else "—"
        t = "(slowed)" if r["measure"] == "tracemalloc" else f"{r['seconds']:.1f}"
        out.append(
            f"| {r['mode']} | {'RSS' if r['measure'] == 'rss' else 'tracemalloc'} | "
            f"{tuple(r['start'])} | {r['distance']} | {r['expanded']:,} | "
            f"{r['generated']:,} | {fmt_mib(peak)} | {peak / max(r['expanded'], 1):.1f} | "
            f"{bits} | {t} | {found} | {same} |"
        )
    rss = [r for r in runs if r["measure"] == "rss"]
    exact = next((r for r in rss if r["mode"] == "exact"), None)
    for b in (r for r in rss if r["mode"] == "bloom"):
        if exact is None:
            break
        out += [
            "",
            f"Bloom (start {tuple(b['start'])}) vs exact, RSS at D = {b['distance']}: "
            f"**{exact['rss_delta'] / max(b['rss_delta'], 1):.1f}x less peak memory** "
            f"({fmt_mib(exact['rss_delta'])} -> {fmt_mib(b['rss_delta'])}), "
            f"{b['seconds'] / exact['seconds']:.2f}x the time.",
        ]
    return out


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="pathcraft.astar vs networkx.astar_path; exact vs Bloom closed-set memory."
    )
    p.add_argument("--queries", type=int, default=None, help="queries per graph (200; 30 quick)")
    p.add_argument("--unreachable", type=int, default=None, help="no-path queries (10; 3 quick)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per query (min kept)")
    p.add_argument("--warmup", type=int, default=5, help="untimed queries first")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--quick", action="store_true", help="fewer queries, a smaller memory run, no file"
    )
    p.add_argument("--part", choices=("all", "search", "memory"), default="all")
    p.add_argument("--grid", type=int, default=200, help="grid side (200)")
    p.add_argument("--walls", type=float, default=0.25, help="fraction of wall cells (0.25)")
    p.add_argument("--rgg-nodes", type=int, default=20_000)
    p.add_argument("--rgg-radius", type=float, default=None, help="default sqrt(2 ln n/(pi n))")
    p.add_argument("--oracle-sample", type=int, default=None, help="queries checked by scipy")
    p.add_argument("--memory-distance", type=int, default=None, help="goal distance (1400)")
    p.add_argument("--tracemalloc-distance", type=int, default=None, help="(400)")
    p.add_argument(
        "--output", type=Path, default=None, help=f"default {DEFAULT_OUT} (--quick: none)"
    )
    # Internal: one memory search in a fresh process.
    p.add_argument("--memory-child", choices=("exact", "bloom"), help=argparse.SUPPRESS)
    p.add_argument("--measure", choices=("rss", "tracemalloc"), help=argparse.SUPPRESS)
    p.add_argument("--distance", type=int, help=argparse.SUPPRESS)
    p.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    q = args.quick

    def pick(value: Any, full: Any, quick: Any) -> Any:
        return value if value is not None else (quick if q else full)

    args.queries = pick(args.queries, 200, 30)
    args.unreachable = pick(args.unreachable, 10, 3)
    args.oracle_sample = pick(args.oracle_sample, 50, 10)
    args.memory_distance = pick(args.memory_distance, 1400, 500)
    args.tracemalloc_distance = pick(args.tracemalloc_distance, 400, 200)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.memory_child:
        memory_child(args)
        return
    t0 = time.perf_counter()
    args.load_start = os.getloadavg()
    search = mem = None
    if args.part in ("all", "search"):
        print("part 1: point-to-point A*", file=sys.stderr)
        search = part_search(args)
    if args.part in ("all", "memory"):
        print("part 2: closed-set memory", file=sys.stderr)
        mem = part_memory(args)
    text = render(args, search, mem)
    text += f"\nTotal run time {time.perf_counter() - t0:.0f} s.\n"
    print(text)
    output = args.output or (None if args.quick else DEFAULT_OUT)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text)
        print(f"written to {output}", file=sys.stderr)


if __name__ == "__main__":
    main()
