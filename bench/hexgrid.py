"""Hex-grid and custom-move search: the compiled stencil kernel (pathcraft.hexgrid)
against the generic pure-Python search (pathcraft.search.astar) on the same worlds.

Run on purpose, not in CI::

    python bench/hexgrid.py            # ~1 minute; writes bench/results/hexgrid.md
    python bench/hexgrid.py --quick    # smoke run, nothing written

Worlds: a 256 x 256 hex grid in each offset layout with 25% random walls and costs in
{1, 2, 3}, and a 256 x 256 knight-move grid (8 jumps, factor 1) with 10% walls.
Queries: random pairs of walkable cells (seeded). The generic search gets the world's
``neighbors`` method and the same admissible heuristic (hex distance or scaled
Euclidean distance), so both expand under the same rule (its neighbours are
``adjacency.__getitem__`` over lists of ``(cell, cost)`` built from ``neighbors``
before any timing); each answer's cost is checked
equal. Per query the two are interleaved and each is timed once; the table reports
the median per-query time of each and the ratio of the medians (generic / compiled).

tcod (libtcod's pathfinding, when installed: the ``bench`` extra) runs the same
queries on its edge maps, as its documentation suggests: a hex grid becomes an array
in axial coordinates (each offset cell moved to ``(r, q)``, the rest walls) with the
six-neighbour edge map ``[[0, 1, 1], [1, 0, 1], [1, 1, 0]]``; the knight grid a 5 x 5
edge map of the eight jumps; integer costs (the cell's cost), ``Pathfinder`` with no
heuristic (tcod's ``CustomGraph`` has none for these maps); every cost checked equal.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from _machine import cpu_model, git_rev

from pathcraft.hexgrid import (
    KNIGHT,
    LAYOUTS,
    HexGrid,
    MovesGrid,
    hex_distance,
    offset_to_axial,
)
from pathcraft.search import astar

OUT = Path(__file__).resolve().parent / "results" / "hexgrid.md"


def hex_world(layout: str, side: int, rng: np.random.Generator) -> tuple[HexGrid, np.ndarray]:
    cost = rng.choice([1.0, 2.0, 3.0], size=(side, side))
    cost[rng.random((side, side)) < 0.25] = np.inf
    return HexGrid(cost, layout=layout), cost


def knight_world(side: int, rng: np.random.Generator) -> tuple[MovesGrid, np.ndarray]:
    cost = np.ones((side, side))
    cost[rng.random((side, side)) < 0.10] = np.inf
    return MovesGrid(cost, [(dr, dc, 1.0) for dr, dc in KNIGHT]), cost


#: tcod's six-neighbour edge map of a hex grid stored in axial coordinates.
HEX_EDGES = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


def tcod_solver(cost: np.ndarray, layout: str | None):
    """A function ``(start, goal) -> cost`` solving on tcod's ``CustomGraph``: a hex
    grid of ``layout`` re-stored in axial coordinates, or (``layout`` None) the knight
    grid; None when tcod is not installed."""
    try:
        import tcod.path
    except ImportError:
        return None
    rows, cols = cost.shape
    if layout is None:
        edges = np.zeros((5, 5), dtype=np.int8)
        for dr, dc in KNIGHT:
            edges[dr + 2, dc + 2] = 1
        where = {(r, c): (r, c) for r in range(rows) for c in range(cols)}
        shape = cost.shape
        edge_map = edges
    else:
        axial = {(r, c): offset_to_axial(layout, (r, c)) for r in range(rows) for c in range(cols)}
        qs = [q for q, _ in axial.values()]
        rs = [r for _, r in axial.values()]
        q0, r0 = min(qs), min(rs)
        where = {cell: (ar - r0, q - q0) for cell, (q, ar) in axial.items()}
        shape = (max(rs) - r0 + 1, max(qs) - q0 + 1)
        edge_map = np.array(HEX_EDGES, dtype=np.int8)
    grid = np.zeros(shape, dtype=np.int32)  # 0: a wall for tcod
    for (r, c), at in where.items():
        if np.isfinite(cost[r, c]):
            grid[at] = int(cost[r, c])
    graph = tcod.path.CustomGraph(shape)
    graph.add_edges(edge_map=edge_map, cost=grid)
    finder = tcod.path.Pathfinder(graph)

    def solve(start: tuple[int, int], goal: tuple[int, int]) -> float:
        finder.clear()
        finder.add_root(where[start])
        finder.path_to(where[goal])
        return float(finder.distance[where[goal]])

    return solve


def pairs(world: HexGrid | MovesGrid, cost: np.ndarray, n: int, rng: np.random.Generator) -> list:
    """``n`` random pairs of cells of the region holding most walkable cells."""
    walkable = np.argwhere(np.isfinite(cost))
    for cell in walkable:
        free = np.argwhere(np.isfinite(world.distance_field(tuple(int(v) for v in cell))))
        if len(free) > len(walkable) // 2:
            break
    picks = rng.integers(0, len(free), size=(n, 2))
    return [(tuple(map(int, free[a])), tuple(map(int, free[b]))) for a, b in picks]


def run(name: str, world: HexGrid | MovesGrid, h_of, queries: list, tcod_solve) -> tuple:
    rows, cols = world.shape
    adjacency = {(r, c): world.neighbors((r, c)) for r in range(rows) for c in range(cols)}
    fast, slow, peer, expanded = [], [], [], []
    for s, g in queries:
        t = time.perf_counter()
        mine = world.find_path(s, g)
        fast.append(time.perf_counter() - t)
        h = h_of(g)
        t = time.perf_counter()
        theirs = astar(s, g, adjacency.__getitem__, h)
        slow.append(time.perf_counter() - t)
        assert math.isclose(mine.cost, theirs.cost, rel_tol=1e-9), (s, g)
        if tcod_solve is not None:
            t = time.perf_counter()
            other = tcod_solve(s, g)
            peer.append(time.perf_counter() - t)
            assert math.isclose(mine.cost, other, rel_tol=1e-9), (s, g, other)
        expanded.append(mine.expanded)
    mf, ms = statistics.median(fast), statistics.median(slow)
    mt = statistics.median(peer) if peer else math.nan
    return (name, len(queries), statistics.median(expanded), mf * 1e3, ms * 1e3, ms / mf,
            mt * 1e3, mt / mf)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    side, n = (64, 5) if args.quick else (256, 25)
    rng = np.random.default_rng(19)
    rows = []
    load0 = os.getloadavg()[0]
    for layout in sorted(LAYOUTS):
        world, cost = hex_world(layout, side, rng)
        scale = world.min_cost

        def h_of(goal, layout=layout, scale=scale):
            return lambda cell: scale * hex_distance(layout, cell, goal)

        queries = pairs(world, cost, n, rng)
        rows.append(run(f"hex {layout}", world, h_of, queries, tcod_solver(cost, layout)))
    knight, kcost = knight_world(side, rng)

    def knight_h(goal):  # the kernel's: Euclidean times min(factor / length) = 1/sqrt(5)
        return lambda cell: math.hypot(cell[0] - goal[0], cell[1] - goal[1]) / math.sqrt(5.0)

    queries = pairs(knight, kcost, n, rng)
    rows.append(run("knight moves", knight, knight_h, queries, tcod_solver(kcost, None)))
    load1 = os.getloadavg()[0]
    lines = [
        "# Hex grids and custom moves: compiled stencil kernel vs the generic search",
        "",
        f"- Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {cpu_model()}, {os.cpu_count()} cores; {platform.system()}; "
        f"CPython {platform.python_version()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f} "
        "(a shared machine: the ratios, measured in the same run, are steadier than times)",
        f"- Versions: pathcraft (git {git_rev()}), numpy {np.__version__}",
        "- Command: `python bench/hexgrid.py`",
        "",
        f"{side} x {side} worlds, {n} random reachable pairs each (see the script's "
        "docstring); `find_path` (A*) against `pathcraft.search.astar` with the world's "
        "neighbours (a dict of lists built before timing) and the same heuristic; costs "
        "checked equal. tcod: its `CustomGraph` edge maps (hex grids in axial coordinates, "
        "the knight's 5 x 5 map), no heuristic, costs checked equal; '-' when tcod is not "
        "installed.",
        "",
        "| world | queries | median expanded | compiled median ms | generic median ms "
        "| generic / compiled | tcod median ms | tcod / compiled |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, q, e, mf, ms, ratio, mt, tratio in rows:
        tcod_cells = "- | -" if math.isnan(mt) else f"{mt:.3f} | {tratio:.1f}"
        lines.append(
            f"| {name} | {q} | {e:.0f} | {mf:.3f} | {ms:.2f} | {ratio:.0f} | {tcod_cells} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
