"""3-D voxel grids: the compiled voxel kernel (pathcraft.VoxelGrid) against the generic
pure-Python search (pathcraft.search) and tcod's ``CustomGraph`` on the same worlds,
and the time and memory of building a 256^3 world.

Run on purpose, not in CI::

    python bench/voxel.py            # ~1.5 minutes; writes bench/results/voxel.md
    python bench/voxel.py --quick    # smoke run, nothing written

Worlds: boolean voxel grids (walkable voxels cost 1) with 25% random walls, 64^3 and
128^3, seeded; 26 neighbours (and 6 at 64^3). The rule is the one VoxelGrid documents
(no corner cutting: every voxel a diagonal move sweeps past is walkable). Queries:
random pairs of walkable voxels that are connected (seeded).

- Generic: ``pathcraft.search.astar`` / ``dijkstra`` over flat voxel indices, its
  neighbours a Python function reading a precomputed bit mask of the legal moves of
  each voxel (one uint32 per voxel, built with NumPy before timing), with the same
  octile heuristic as the kernel. Costs checked equal to the compiled ones.
- tcod 21 (``tcod.path.CustomGraph`` + ``Pathfinder``): one ``add_edge`` per move with
  a ``condition`` array holding where the move is legal (the same rule), integer edge
  costs 192070 / 271628 / 332675 (1, sqrt 2, sqrt 3 to 1e-8). Its A* heuristic is 2-D
  octile on (row, col) plus a per-layer cost ``z``: the largest admissible ``z`` for
  the connectivity is computed below. tcod's path is checked legal under the rule and
  its exact cost equal to the compiled optimum (relative 1e-6).

Per query each solver runs once, interleaved; the table reports medians per query and
ratios of medians. Generic queries are fewer (they are slow). Build: ``VoxelGrid(a)``
for a float cost array and a boolean array of 256^3, best of five, and the peak of
Python-traced memory during one build (``tracemalloc``: NumPy's allocations).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from _machine import cpu_model, git_rev

from pathcraft import VoxelGrid
from pathcraft.search import astar, dijkstra

OUT = Path(__file__).resolve().parent / "results" / "voxel.md"
B, B2, B3 = 192070, 271628, 332675
OFFSETS = [
    d for axes in (1, 2, 3) for d in itertools.product((-1, 0, 1), repeat=3)
    if sum(x != 0 for x in d) == axes
]  # fmt: skip
LENGTH = [math.sqrt(sum(x != 0 for x in d)) for d in OFFSETS]


def octile(connectivity: int, a: float, b: float, c: float) -> float:
    """The exact free-space cost of the move lattice (what the kernel uses)."""
    a, b, c = sorted((a, b, c), reverse=True)
    if connectivity == 6:
        return a + b + c
    if connectivity == 26:
        return math.sqrt(3) * c + math.sqrt(2) * (b - c) + (a - b)
    if a >= b + c:
        return math.sqrt(2) * (b + c) + (a - b - c)
    s = a + b + c
    return math.sqrt(2) * (s // 2) + s % 2


def legal_masks(walk: np.ndarray, connectivity: int) -> list[np.ndarray]:
    """For each of the first ``connectivity`` offsets, where the move is legal."""
    pad = np.pad(walk, 1)
    d, r, c = walk.shape

    def shifted(o: tuple[int, ...]) -> np.ndarray:
        return pad[1 + o[0] : 1 + o[0] + d, 1 + o[1] : 1 + o[1] + r, 1 + o[2] : 1 + o[2] + c]

    out = []
    for off in OFFSETS[:connectivity]:
        ok = walk.copy()
        for keep in itertools.product((0, 1), repeat=3):
            sub = tuple(x * k for x, k in zip(off, keep, strict=True))
            if any(sub):
                ok &= shifted(sub)
        out.append(ok)
    return out


def generic_world(walk: np.ndarray, connectivity: int) -> tuple[Any, Any]:
    """The generic search's neighbours over flat indices and a heuristic factory."""
    masks = legal_masks(walk, connectivity)
    bits = np.zeros(walk.shape, dtype=np.uint32)
    for k, m in enumerate(masks):
        bits |= m.astype(np.uint32) << np.uint32(k)
    flat_bits = bits.ravel().tolist()
    _, rows, cols = walk.shape
    plane = rows * cols
    deltas = [o[0] * plane + o[1] * cols + o[2] for o in OFFSETS]
    moves = [(k, deltas[k], LENGTH[k]) for k in range(connectivity)]

    def neighbours(v: int) -> list[tuple[int, float]]:
        b = flat_bits[v]
        return [(v + delta, step) for k, delta, step in moves if b >> k & 1]

    def heuristic_to(goal: int):
        gz, rest = divmod(goal, plane)
        gr, gc = divmod(rest, cols)

        def h(v: int) -> float:
            z, rest = divmod(v, plane)
            r, c = divmod(rest, cols)
            return octile(connectivity, abs(z - gz), abs(r - gr), abs(c - gc))

        return h

    return neighbours, heuristic_to


def tcod_z(connectivity: int) -> int:
    """The largest per-layer heuristic cost keeping tcod's heuristic (2-D octile on
    (row, col) plus ``z`` per layer) admissible for the connectivity, in B units."""
    ratios = []
    for z in range(1, 30):
        for y in range(30):
            for x in range(30):
                lo, hi = min(x, y), max(x, y)
                plane = (lo * B2 + (hi - lo) * B) if connectivity != 6 else (x + y) * B
                ratios.append((octile(connectivity, z, y, x) * B - plane) / z)
    return max(0, int(min(ratios)) - 1)


def tcod_solver(walk: np.ndarray, connectivity: int, heuristic: bool) -> Any:
    import tcod.path

    cost = walk.astype(np.int8)
    graph = tcod.path.CustomGraph(walk.shape)
    weights = {1: B, 2: B2, 3: B3}
    for off, legal in zip(OFFSETS, legal_masks(walk, connectivity), strict=False):
        graph.add_edge(off, weights[sum(x != 0 for x in off)], cost=cost,
                       condition=legal.astype(np.int8))  # fmt: skip
    if heuristic:
        diagonal = 2 * B if connectivity == 6 else B2
        graph.set_heuristic(cardinal=B, diagonal=diagonal, z=tcod_z(connectivity))
    pf = tcod.path.Pathfinder(graph)

    def solve(s: tuple, g: tuple) -> np.ndarray:
        pf.clear()
        pf.add_root(s)
        return pf.path_to(g)

    return solve


def exact_cost(walk: np.ndarray, connectivity: int, path: np.ndarray) -> float:
    """The cost of a path under the rule (checking each step is legal)."""
    masks = legal_masks(walk, connectivity) if connectivity else None
    total = 0.0
    for a, b in itertools.pairwise(path.tolist()):
        off = tuple(y - x for x, y in zip(a, b, strict=True))
        k = OFFSETS.index(off)
        assert k < connectivity and masks is not None and masks[k][tuple(a)], (a, b)
        total += LENGTH[k]
    return total


def pick(world: VoxelGrid, walk: np.ndarray, n: int, rng: np.random.Generator) -> list:
    free = np.argwhere(walk)
    out: list = []
    while len(out) < n:
        a, b = rng.integers(0, len(free), size=2)
        s, g = tuple(map(int, free[a])), tuple(map(int, free[b]))
        if world.find_path(s, g):
            out.append((s, g))
    return out


def bench_world(side: int, connectivity: int, n: int, n_generic: tuple[int, int],
                rng: np.random.Generator, have_tcod: bool) -> list[tuple]:  # fmt: skip
    walk = rng.random((side, side, side)) >= 0.25
    world = VoxelGrid(walk, connectivity=connectivity)
    queries = pick(world, walk, n, rng)
    neighbours, heuristic_to = generic_world(walk, connectivity)
    plane = side * side
    solvers: dict[str, Any] = {}
    if have_tcod:
        solvers["astar"] = tcod_solver(walk, connectivity, heuristic=True)
        solvers["dijkstra"] = tcod_solver(walk, connectivity, heuristic=False)
    rows = []
    for algorithm, n_gen in zip(("astar", "dijkstra"), n_generic, strict=True):
        mine, theirs, peer, expanded = [], [], [], []
        for i, (s, g) in enumerate(queries):
            t = time.perf_counter()
            res = world.find_path(s, g, algorithm=algorithm)
            mine.append(time.perf_counter() - t)
            expanded.append(res.expanded)
            if i < n_gen:
                fs, fg = s[0] * plane + s[1] * side + s[2], g[0] * plane + g[1] * side + g[2]
                t = time.perf_counter()
                if algorithm == "astar":
                    other = astar(fs, fg, neighbours, heuristic_to(fg))
                else:
                    other = dijkstra(fs, fg, neighbours)
                theirs.append(time.perf_counter() - t)
                assert math.isclose(other.cost, res.cost, rel_tol=1e-9), (s, g)
            if algorithm in solvers:
                t = time.perf_counter()
                path = solvers[algorithm](s, g)
                peer.append(time.perf_counter() - t)
                got = exact_cost(walk, connectivity, path)
                assert math.isclose(got, res.cost, rel_tol=1e-6), (s, g, got, res.cost)
        mm = statistics.median(mine)
        mg = statistics.median(theirs) if theirs else math.nan
        mt = statistics.median(peer) if peer else math.nan
        rows.append((f"{side}^3", connectivity, algorithm, len(queries), len(theirs),
                     statistics.median(expanded), mm * 1e3, mg * 1e3, mg / mm,
                     mt * 1e3, mt / mm))  # fmt: skip
        print(rows[-1], flush=True)
    return rows


def build_times(side: int) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(7)
    cost = rng.random((side, side, side)) + 0.5
    cost[rng.random((side, side, side)) < 0.25] = np.inf
    walk = np.isfinite(cost)
    out = []
    for name, arr in (("float64 costs", cost), ("boolean walkable", walk)):
        times = []
        for _ in range(5):
            t = time.perf_counter()
            world = VoxelGrid(arr)
            times.append(time.perf_counter() - t)
            del world
        tracemalloc.start()
        world = VoxelGrid(arr)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        del world
        out.append((name, min(times), peak / 2**20))
    return out


def rss_mib() -> float:
    """The process's resident memory now (Linux ``/proc/self/status``), in MiB."""
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kib / 1024


def big_query(side: int) -> tuple[float, int, float, float]:
    """One corner-to-corner A* on a ``side``^3 boolean world with 25% walls: seconds,
    expansions, cost, and how much the process's resident memory (MiB) grew over the
    first query (the per-thread workspace: 20 bytes per padded voxel, and the open
    list, both kept for the next query)."""
    rng = np.random.default_rng(1)
    walk = rng.random((side, side, side)) >= 0.25
    walk[0, 0, 0] = walk[-1, -1, -1] = True
    world = VoxelGrid(walk)
    del walk
    before = rss_mib()
    t = time.perf_counter()
    res = world.find_path((0, 0, 0), (side - 1, side - 1, side - 1))
    seconds = time.perf_counter() - t
    grew = rss_mib() - before
    return seconds, res.expanded, res.cost, grew


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    try:
        import tcod

        have_tcod, tcod_version = True, tcod.__version__
    except ImportError:
        have_tcod, tcod_version = False, "not installed"
    rng = np.random.default_rng(19)
    load0 = os.getloadavg()[0]
    rows = []
    if args.quick:
        rows += bench_world(24, 26, 4, (2, 1), rng, have_tcod)
        builds = build_times(64)
        big_side = 32
        big = big_query(big_side)
    else:
        rows += bench_world(64, 26, 25, (10, 2), rng, have_tcod)
        rows += bench_world(64, 6, 25, (10, 2), rng, have_tcod)
        rows += bench_world(128, 26, 10, (3, 1), rng, have_tcod)
        builds = build_times(256)
        big_side = 256
        big = big_query(big_side)
    load1 = os.getloadavg()[0]
    side = 64 if args.quick else 256
    lines = [
        "# 3-D voxel grids: compiled voxel kernel vs the generic search and tcod",
        "",
        f"- Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores; {platform.system()}; "
        f"CPython {platform.python_version()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f} "
        "(a shared machine: the ratios, measured in the same run, are steadier than times)",
        f"- Versions: pathcraft (git {git_rev()}), numpy {np.__version__}, tcod {tcod_version}",
        "- Command: `python bench/voxel.py`",
        "",
        "Boolean worlds with 25% random walls, random connected pairs (see the script's "
        "docstring). Each compiled answer's cost is checked equal to the generic search's; "
        "each tcod path is checked legal under VoxelGrid's rule (no corner cutting) and its "
        "exact cost equal to the compiled optimum. Generic: `pathcraft.search` over flat "
        "indices with a bit-mask neighbour function and the same heuristic, on the first "
        "queries only. Times are medians per query (ms), ratios are of medians "
        "(peer / compiled). tcod's A* heuristic is 2-D octile on (row, col) plus a "
        "per-layer cost (the largest admissible one), weaker than the kernel's 3-D octile "
        "distance, so its A* rows expand more voxels than the kernel's; its Dijkstra rows "
        "(no heuristic on either side) compare the two search loops like for like. "
        "`Pathfinder.clear()` before each tcod query resets its whole distance array.",
        "",
        "| world | neighbours | algorithm | queries | generic queries | median expanded "
        "| compiled ms | generic ms | generic / compiled | tcod ms | tcod / compiled |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for world, conn, alg, q, qg, e, mm, mg, rg, mt, rt in rows:
        lines.append(
            f"| {world} | {conn} | {alg} | {q} | {qg} | {e:.0f} | {mm:.2f} | {mg:.1f} "
            f"| {rg:.0f} | {mt:.2f} | {rt:.1f} |"
        )
    lines += [
        "",
        f"Building a {side}^3 world ({side**3:,} voxels; padded into one float64 block of "
        f"{(side + 2) ** 3 * 8 / 2**20:.0f} MiB): best of five, and the peak memory "
        "NumPy allocated during one build.",
        "",
        "| input | build s | peak MiB |",
        "|---|---:|---:|",
    ]
    for name, t, peak in builds:
        lines.append(f"| {name} | {t:.3f} | {peak:.0f} |")
    seconds, expanded, cost, grew = big
    lines += [
        "",
        f"One A* query corner to corner on a {big_side}^3 boolean world with 25% walls "
        f"(26 neighbours): {seconds:.2f} s, {expanded:,} voxels expanded, cost {cost:.2f}; "
        f"the process's resident memory grew by {grew:.0f} MiB over this first query (the "
        "per-thread search workspace, 20 bytes per padded voxel, allocated once and "
        "reused by later queries, plus the open list).",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
