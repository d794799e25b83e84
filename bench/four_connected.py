"""4-connected grids: pathcraft's A* against pyastar2d on every Moving AI map.

Issue 22's goal: on 4-connected grids of unit cost, pathcraft's median time per query
at most 0.5x pyastar2d's on the geometric mean of the maps, and never slower on any
map. Both run in this process on the same queries, interleaved (for each query the two
run back to back, in an order alternated per query), each answer checked right after
its timed call: pathcraft's cost must equal pyastar2d's path length minus one (every
step costs 1) and pathcraft's path must be legal; on every tenth query both are also
checked against ``scipy.sparse.csgraph.dijkstra`` on the map's 4-connected graph.

pathcraft: ``Grid.from_walkable(walk, diagonal="never").astar(start, goal)`` (the whole
call: cells checked, search, the path as an (n, 2) array, the result). pyastar2d: its
compiled ``astar`` called directly with the weights flattened once (``astar_path``
would copy and scan the whole map on every call), as in ``bench/grid_peers.py``.

Usage::

    python bench/four_connected.py              # 16 maps, 100 queries each (~2 min)
    python bench/four_connected.py --queries 20 --maps dao/den520d  # a smoke run

Results go to ``bench/results/four_connected.md``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
from _machine import git_rev, machine
from jps_warthog import ALL_MAPS as MAPS  # the 16 public Moving AI maps
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from pathcraft import Grid
from pathcraft.io import read_scen, read_walkable

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "benchmarks" / "movingai"


def four_graph(walk: np.ndarray) -> csr_matrix:
    """The 4-connected unit-cost graph of a walkable mask (the scipy oracle)."""
    rows, cols = walk.shape
    index = np.arange(rows * cols).reshape(rows, cols)
    src, dst = [], []
    for a, b in (
        (np.s_[:-1, :], np.s_[1:, :]), (np.s_[1:, :], np.s_[:-1, :]),
        (np.s_[:, :-1], np.s_[:, 1:]), (np.s_[:, 1:], np.s_[:, :-1]),
    ):  # fmt: skip
        ok = walk[a] & walk[b]
        src.append(index[a][ok])
        dst.append(index[b][ok])
    s, d = np.concatenate(src), np.concatenate(dst)
    return csr_matrix((np.ones(s.size), (s, d)), shape=(rows * cols, rows * cols))


def legal(walk: np.ndarray, path: np.ndarray, start: tuple, goal: tuple) -> bool:
    """A 4-connected path on walkable cells from ``start`` to ``goal``."""
    if path.shape[0] == 0 or tuple(path[0]) != start or tuple(path[-1]) != goal:
        return False
    steps = np.abs(np.diff(path, axis=0)).sum(axis=1)
    return bool((steps == 1).all() and walk[path[:, 0], path[:, 1]].all())


def run_map(name: str, queries: int) -> dict:
    import pyastar2d

    walk = read_walkable(DATA / "maps" / f"{name}.map")
    scen = read_scen(DATA / "scen" / f"{name}.map.scen")
    picks = np.unique(np.linspace(0, len(scen.starts) - 1, queries).round().astype(int))
    rows, cols = walk.shape
    grid = Grid.from_walkable(walk, diagonal="never")
    weights = np.where(walk, 1.0, np.inf).astype(np.float32).ravel()
    kernel = pyastar2d.astar.astar
    graph = four_graph(walk)
    ours, theirs, expanded = [], [], []
    mismatches = checked = 0
    s0, g0 = (tuple(int(v) for v in scen.starts[0]), tuple(int(v) for v in scen.goals[0]))
    grid.astar(s0, g0)  # warm-up: the plan is made once per grid
    kernel(weights, rows, cols, s0[0] * cols + s0[1], g0[0] * cols + g0[1], False, 0)
    for k, i in enumerate(picks):
        s = (int(scen.starts[i][0]), int(scen.starts[i][1]))
        g = (int(scen.goals[i][0]), int(scen.goals[i][1]))
        a, b = s[0] * cols + s[1], g[0] * cols + g[1]
        for first in ((0, 1) if k % 2 == 0 else (1, 0)):
            if first == 0:
                t0 = time.perf_counter()
                result = grid.astar(s, g)
                ours.append(time.perf_counter() - t0)
            else:
                t0 = time.perf_counter()
                path = kernel(weights, rows, cols, a, b, False, 0)
                theirs.append(time.perf_counter() - t0)
        expanded.append(result.expanded)
        want = math.inf if path is None else float(len(path) - 1)
        ok = result.cost == want and (not result or legal(walk, result.path, s, g))
        if k % 10 == 0:
            checked += 1
            ok = ok and float(dijkstra(graph, indices=a)[b]) == result.cost
        mismatches += not ok
    return {
        "map": name, "size": f"{rows} x {cols}", "queries": len(picks),
        "ours": float(np.median(ours)) * 1e6, "theirs": float(np.median(theirs)) * 1e6,
        "expanded": float(np.median(expanded)), "mismatches": mismatches, "checked": checked,
    }  # fmt: skip


def report(runs: list[dict], args: argparse.Namespace, load: tuple[float, float]) -> str:
    ratios = [r["ours"] / r["theirs"] for r in runs]
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    worst = max(ratios)
    command = " ".join(["python bench/four_connected.py", *sys.argv[1:]])
    lines = [
        "# 4-connected grids: pathcraft A* against pyastar2d on Moving AI maps",
        "",
        f"- Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load[0]:.2f} / {load[1]:.2f} (a shared "
        "machine: the ratios, measured in the same run, are steadier than times)",
        f"- Versions: pathcraft (git {git_rev()}), pyastar2d "
        f"{importlib.metadata.version('pyastar2d')}, numpy {np.__version__}",
        f"- Command: `{command}`",
        "",
        "Unit-cost 4-connected grids from the maps' walkable cells; the scenario files' "
        f"start and goal cells ({args.queries} evenly spaced lines per file, short to long). "
        "Median microseconds per query, each library's call only, interleaved; pathcraft "
        "runs A* on its bucket open list (a uniform-cost 4-connected grid). Every answer "
        "checked (equal costs, legal path), every tenth also against scipy's Dijkstra.",
        "",
        f"**Geometric mean of pathcraft / pyastar2d: {geo:.2f}** (goal <= 0.5); "
        f"worst map {worst:.2f} (goal <= 1.0); "
        f"mismatches: {sum(r['mismatches'] for r in runs)} of "
        f"{sum(r['queries'] for r in runs)} queries.",
        "",
        "| map | size (rows x cols) | queries | pathcraft median us | pyastar2d median us | "
        "pathcraft / pyastar2d | median expanded | mismatches |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r, ratio in zip(runs, ratios, strict=True):
        lines.append(
            f"| {r['map']} | {r['size']} | {r['queries']} | {r['ours']:,.0f} | "
            f"{r['theirs']:,.0f} | {ratio:.2f} | {r['expanded']:,.0f} | {r['mismatches']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=100, help="queries per map")
    parser.add_argument("--maps", nargs="+", default=list(MAPS), help="family/name ...")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "four_connected.md")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"the Moving AI data is not at {DATA}")
    start_load = os.getloadavg()[0]
    runs = []
    for name in args.maps:
        run = run_map(name, args.queries)
        print(
            f"{name:28s} pathcraft {run['ours']:8.0f} us  pyastar2d {run['theirs']:8.0f} us  "
            f"ratio {run['ours'] / run['theirs']:.2f}  mismatches {run['mismatches']}",
            flush=True,
        )
        runs.append(run)
    text = report(runs, args, (start_load, os.getloadavg()[0]))
    args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
