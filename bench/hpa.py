"""HPA* (``prepare("hpa")``, ``find_path(algorithm="hpa")``) against A* and JPS+ on
enlarged Moving AI maps.

The Dragon Age and Baldur's Gate maps have closed borders, so ``np.tile`` of a map
gives ``k x k`` copies no path joins; this script enlarges each map instead by
``np.kron`` (every cell becomes a ``k x k`` block: the same walls, ``k`` times the
sizes) and scales the scenarios with it (``start * k + k // 2``): the longest
scenarios (top ``--buckets`` buckets) become long queries across a ``k``-times map.
Per map: the build times of the HPA* hierarchy (per cluster size of ``--clusters``)
and of the JPS+ table, the bytes per cell of the hierarchy, then per query the
fastest of ``--rounds`` rounds of A*, JPS+ and HPA* (taking turns), every HPA* path
checked legal and priced by its steps, and its cost over the optimum (A*'s) with
and without smoothing; and one edit's repair time against a full build.

Usage::

    python bench/hpa.py                      # k = 16, writes results/huge_worlds.md's section
    python bench/hpa.py --scale 4 --queries 5 --no-write   # quick
"""

# ruff: noqa: E501  (the report's table rows)
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine, movingai_dir, write_section

from pathcraft import Grid
from pathcraft.grid._hpa import Hierarchy, find_path
from pathcraft.io import read_scen, read_walkable

MAPS = ("dao/den520d", "bg512/AR0011SR")
RESULTS = Path(__file__).resolve().parent / "results" / "huge_worlds.md"
MARK = "## HPA*"


def legal(grid: Grid, path: np.ndarray) -> bool:
    """Every step one king move onto a walkable cell, no corner cut."""
    cost = np.asarray(grid.cost)
    d = np.diff(path, axis=0)
    if np.abs(d).max(initial=0) > 1 or not np.isfinite(cost[path[:, 0], path[:, 1]]).all():
        return False
    diag = (d[:, 0] != 0) & (d[:, 1] != 0)
    a = path[:-1][diag]
    dd = d[diag]
    return bool(
        np.isfinite(cost[a[:, 0] + dd[:, 0], a[:, 1]]).all()
        and np.isfinite(cost[a[:, 0], a[:, 1] + dd[:, 1]]).all()
    )


def fastest(fn: Any, rounds: int) -> tuple[float, Any]:
    best, out = math.inf, None
    for _ in range(rounds):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def run_map(
    name: str, k: int, clusters: list[int], queries: int, buckets: int, rounds: int
) -> dict[str, Any]:
    root = movingai_dir()
    walk = read_walkable(root / "maps" / f"{name}.map")
    scen = read_scen(root / "scen" / f"{name}.map.scen")
    big = np.kron(walk, np.ones((k, k), dtype=bool))
    cost = np.where(big, 1.0, np.inf)
    grid = Grid(cost)
    top = scen.bucket >= scen.bucket.max() - buckets + 1
    idx = np.flatnonzero(top)[:: max(1, int(top.sum()) // queries)][:queries]
    starts = scen.starts[idx] * k + k // 2
    goals = scen.goals[idx] * k + k // 2
    out: dict[str, Any] = {"map": name, "shape": cost.shape, "k": k, "queries": len(idx)}
    builds = {}
    for c in clusters:
        t = time.perf_counter()
        h = Hierarchy(grid, c)
        builds[c] = (time.perf_counter() - t, h.nbytes / cost.size, h.nodes, h)
    t = time.perf_counter()
    jgrid = Grid(cost, prepare="jps+")
    out["jps+ build"] = time.perf_counter() - t
    grid.prepare("components")
    rows = []
    for c in clusters:
        h = builds[c][3]
        times: dict[str, list[float]] = {"astar": [], "jps+": [], "hpa": [], "hpa raw": []}
        jps_expanded = []
        over, over_raw, bad = [], [], 0
        for s, g in zip(map(tuple, starts.tolist()), map(tuple, goals.tolist()), strict=True):
            ta, ra = fastest(lambda s=s, g=g: grid.astar(s, g), 1 if c != clusters[0] else rounds)
            tj, rj = fastest(lambda s=s, g=g: jgrid.jps(s, g), rounds)
            th, rh = fastest(lambda h=h, s=s, g=g: find_path(grid, h, s, g), rounds)
            tr, rr = fastest(lambda h=h, s=s, g=g: find_path(grid, h, s, g, smooth=False), 1)
            print(
                f"{name} cluster {c}: A* {ta:.3f} s, JPS+ {tj:.6f} s, HPA* {th:.4f} s",
                file=sys.stderr,
                flush=True,
            )
            times["astar"].append(ta)
            times["jps+"].append(tj)
            times["hpa"].append(th)
            times["hpa raw"].append(tr)
            bad += not (
                legal(grid, rh.path)
                and abs(h.path_cost(rh.path) - rh.cost) < 1e-6
                and tuple(rh.path[-1]) == g
            )
            over.append(rh.cost / ra.cost - 1)
            over_raw.append(rr.cost / ra.cost - 1)
            # JPS+ answers in microseconds here (np.kron keeps its jump points): check
            # that it answered, and with A*'s cost, so its column is a real time
            assert ra and rj and tuple(rj.path[-1]) == g, (s, g)
            assert abs(rj.cost - ra.cost) < 1e-6 * ra.cost
            jps_expanded.append(rj.expanded)
        # one edit's repair: a wall on a walkable cell of the middle, then back
        free = np.argwhere(big[cost.shape[0] // 2 - 50 : cost.shape[0] // 2 + 50])[0] + (
            cost.shape[0] // 2 - 50,
            0,
        )
        edit = []
        for value in (np.inf, 1.0):
            grid[tuple(free)] = value
            t = time.perf_counter()
            h.repair(grid)
            edit.append(time.perf_counter() - t)
        rows.append(
            {
                "cluster": c, "build": builds[c][0], "bytes/cell": builds[c][1], "nodes": builds[c][2],
                **{f"{key} ms": 1e3 * float(np.median(v)) for key, v in times.items()},
                "astar/hpa": float(np.median(np.array(times["astar"]) / np.array(times["hpa"]))),
                "jps+/hpa": float(np.median(np.array(times["jps+"]) / np.array(times["hpa"]))),
                "mean over %": 100 * float(np.mean(over)), "max over %": 100 * float(np.max(over)),
                "raw mean over %": 100 * float(np.mean(over_raw)), "raw max over %": 100 * float(np.max(over_raw)),
                "bad paths": bad, "repair ms": 1e3 * max(edit), "repair/build": max(edit) / builds[c][0],
                "jps+ expanded": float(np.median(jps_expanded)), "build/jps+": builds[c][0] / out["jps+ build"],
            }
        )  # fmt: skip
    out["rows"] = rows
    return out


def misses(r: dict[str, Any]) -> list[str]:
    """The targets of issue 32 the row ``r`` misses."""
    checks = {
        "A*/HPA*": r["astar/hpa"] >= 10, "JPS+/HPA*": r["jps+/hpa"] >= 2,
        "mean over": r["mean over %"] <= 1, "max over": r["max over %"] <= 5,
        "bytes": r["bytes/cell"] <= 8, "build": r["build/jps+"] <= 1,
        "repair": r["repair/build"] <= 0.05, "bad paths": r["bad paths"] == 0,
    }  # fmt: skip
    return [name for name, held in checks.items() if not held]


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [
        MARK, "",
        f"`python bench/hpa.py --scale {args.scale} --clusters {' '.join(map(str, args.clusters))} "
        f"--queries {args.queries} --rounds {args.rounds} --maps {' '.join(args.maps)}` on {machine()}.", "",
        "Each map enlarged k times by `np.kron` (each cell a k x k block; "
        "`np.tile` of these closed-border maps leaves the copies unconnected), its top "
        f"{args.buckets} scenario buckets scaled with it ({args.queries} queries, evenly spaced). "
        "Medians over the queries of each query's fastest of "
        f"{args.rounds} rounds (A* once per cluster size after the first), in ms; *over* is "
        "the path's cost over A*'s optimum, smoothed and *raw* (refined, not smoothed); "
        "*repair* is the slower of one wall added and removed, against that build. "
        "Every JPS+ answer is checked found with A*'s cost: it takes microseconds because "
        "`np.kron` keeps the map's jump points (*JPS+ expanded*, the median). *misses* "
        "lists the targets of issue 32 a row does not meet: A*/HPA* >= 10x, JPS+/HPA* >= 2x, "
        "mean over <= 1 %, max over <= 5 %, <= 8 bytes/cell, build <= the JPS+ table's, "
        "repair <= 0.05x the build.", "",
    ]  # fmt: skip
    for res in results:
        lines += [
            f"### {res['map']} x{res['k']}: {res['shape'][0]} x {res['shape'][1]} cells, JPS+ table built in {res['jps+ build']:.2f} s", "",
            "| cluster | build s | build/JPS+ | bytes/cell | nodes | A* ms | JPS+ ms | JPS+ expanded | HPA* ms | HPA* raw ms | A*/HPA* | JPS+/HPA* | mean over % | max over % | raw mean % | raw max % | bad | repair ms | repair/build | misses |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]  # fmt: skip
        for r in res["rows"]:
            lines.append(
                f"| {r['cluster']} | {r['build']:.2f} | {r['build/jps+']:.2f}x | {r['bytes/cell']:.2f} | {r['nodes']} | {r['astar ms']:.1f} | "
                f"{r['jps+ ms']:.3f} | {r['jps+ expanded']:.0f} | {r['hpa ms']:.2f} | {r['hpa raw ms']:.2f} | {r['astar/hpa']:.1f}x | "
                f"{r['jps+/hpa']:.3f}x | {r['mean over %']:.2f} | {r['max over %']:.2f} | "
                f"{r['raw mean over %']:.2f} | {r['raw max over %']:.2f} | {r['bad paths']} | "
                f"{r['repair ms']:.1f} | {r['repair/build']:.4f}x | {', '.join(misses(r)) or 'none'} |"
            )
        lines.append("")
    rows = [r for res in results for r in res["rows"]]
    missed = {name for r in rows for name in misses(r)}
    every = {name for name in missed if all(name in misses(r) for r in rows)}
    lines.append(
        f"Targets missed in every row: {', '.join(sorted(every)) or 'none'}; in some rows: "
        f"{', '.join(sorted(missed - every)) or 'none'}; all the others held in every row."
    )
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=16)
    p.add_argument("--clusters", type=int, nargs="+", default=[16, 32, 64])
    p.add_argument("--queries", type=int, default=10)
    p.add_argument("--buckets", type=int, default=3)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--maps", nargs="+", default=list(MAPS))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()
    results = []
    for item in args.maps:  # "family/name" or "family/name@k" (its own enlargement)
        name, _, k = item.partition("@")
        results.append(
            run_map(
                name, int(k or args.scale), args.clusters, args.queries, args.buckets, args.rounds
            )
        )
    text = report(results, args)
    print(text)
    if not args.no_write:
        write_section(RESULTS, MARK[3:], text.split("\n", 1)[1], "# Huge worlds")


if __name__ == "__main__":
    main()
