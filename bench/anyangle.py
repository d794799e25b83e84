"""Any-angle grid paths: Theta* and smoothed A* against the optimal any-angle length.

On Moving AI maps (``--maps``), ``--queries`` scenario problems spread evenly over each
``.scen`` file (all lengths), start and goal the centres of their cells, the rule the
maps' (``diagonal="no_corner_cut"``). Per query:

- *A\\**: ``Grid.find_path(algorithm="astar")``, the octile optimum (checked against the
  ``.scen`` file's published length);
- *smoothed A\\**: ``Grid.smooth`` of that path (its length; the smoothing time apart);
- *Theta\\**: ``Grid.find_path(algorithm="theta")``;
- *optimal*: the any-angle optimum, ``NavMesh.from_grid(grid)`` and its
  ``algorithm="optimal"`` search (Polyanya), the oracle.

Lengths are reported over the optimal one (mean and worst); every Theta* and smoothed
length is checked to lie between the optimal one and the octile one (1e-9). Times:
A* and Theta* run interleaved, ``--repeat`` times each per query (best of them), and
the report gives the median over the queries of Theta*'s time over A*'s.

Usage::

    python bench/anyangle.py           # the full run (~1 min), written to the results
    python bench/anyangle.py --quick   # a smoke run, nothing written

Results go to ``bench/results/anyangle.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time
from pathlib import Path

import numpy as np
from _machine import git_rev, machine

from pathcraft import NavMesh
from pathcraft.io import read_map, read_scen

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(
    os.environ.get("PATHCRAFT_MOVINGAI", ROOT.parent / "shared" / "benchmarks" / "movingai")
)
OUT = ROOT / "bench" / "results" / "anyangle.md"
MAPS = ("dao/arena2", "dao/den520d", "room/8room_000", "random/random512-10-0",
        "street/Berlin_0_256")  # fmt: skip
TOL = 1e-9


def length(path: np.ndarray) -> float:
    if len(path) < 2:
        return 0.0
    return float(np.hypot(*np.diff(path.astype(float), axis=0).T).sum())


def best_time(call: object, repeat: int) -> tuple[float, object]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        answer = call()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best, answer


def run_map(name: str, queries: int, repeat: int) -> dict[str, object]:
    grid = read_map(DATA / "maps" / f"{name}.map")
    scen = read_scen(DATA / "scen" / f"{name}.map.scen")
    mesh = NavMesh.from_grid(grid)
    picks = np.unique(np.linspace(0, len(scen.optimal) - 1, queries).astype(int))
    theta_r, smooth_r, ratios, octile_r = [], [], [], []
    for i in picks:
        s = tuple(int(x) for x in scen.starts[i])
        g = tuple(int(x) for x in scen.goals[i])
        if s == g:
            continue
        ta, astar = best_time(lambda s=s, g=g: grid.find_path(s, g), repeat)
        tt, theta = best_time(lambda s=s, g=g: grid.find_path(s, g, algorithm="theta"), repeat)
        octile = astar.cost  # type: ignore[attr-defined]
        assert abs(octile - scen.optimal[i]) <= 1e-5 * max(1.0, scen.optimal[i]), (name, i)
        smooth = length(grid.smooth(astar.path))  # type: ignore[attr-defined]
        xy = lambda c: (c[1] + 0.5, c[0] + 0.5)  # noqa: E731
        best = mesh.find_path(xy(s), xy(g), algorithm="optimal").cost
        cost = theta.cost  # type: ignore[attr-defined]
        for got in (cost, smooth):
            assert best - TOL * best <= got <= octile + TOL * octile, (name, i, got, best)
        theta_r.append(cost / best)
        smooth_r.append(smooth / best)
        octile_r.append(octile / best)
        ratios.append(tt / ta)
    return {
        "map": f"{name} ({grid.shape[1]} x {grid.shape[0]})",
        "queries": len(theta_r),
        "octile": (statistics.fmean(octile_r), max(octile_r)),
        "smooth": (statistics.fmean(smooth_r), max(smooth_r)),
        "theta": (statistics.fmean(theta_r), max(theta_r)),
        "time": statistics.median(ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=list(MAPS))
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="2 maps, 5 queries, no file")
    args = parser.parse_args()
    if args.quick:
        args.maps, args.queries = args.maps[:2], 5
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    rows = [run_map(name, args.queries, args.repeat) for name in args.maps]
    wall = time.perf_counter() - t0
    lines = [
        "# Any-angle grid paths: Theta* and smoothed A* against the optimal any-angle length",
        "",
        f"- Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {os.getloadavg()[0]:.2f} "
        "(a shared machine: ratios are steadier than absolute times)",
        f"- pathcraft (git {git_rev()}); command: `python bench/anyangle.py` "
        f"({args.queries} scenario problems per map spread over the file, best of "
        f"{args.repeat} runs per query; {wall:.0f} s in all)",
        "",
        "## How to read",
        "",
        "- Lengths over the optimal any-angle length (`NavMesh.from_grid` + "
        '`algorithm="optimal"`, the oracle), mean and worst over the queries. *A\\* '
        "(octile)*: the published 8-connected optimum; *smoothed A\\**: `Grid.smooth` of "
        'the A* path; *Theta\\**: `find_path(algorithm="theta")`. Every Theta* and '
        "smoothed length was checked to lie between the optimal and the octile length.",
        "- The navmesh lets a path graze a wall's corner, which the grid's rule (the "
        "Moving AI no-corner-cutting rule) forbids: where two diagonal neighbours have a "
        "wall beside them, the grid's paths (and Theta*'s) take two straight steps where "
        "the optimal one takes the diagonal, a worst ratio up to sqrt(2) on short queries.",
        "- *Theta\\* / A\\* time*: median over the queries of Theta*'s time over A*'s "
        "(same query, interleaved, best of the repeats each).",
        "",
        "## Results",
        "",
        "| map | queries | A* (octile) mean / worst | smoothed A* mean / worst | "
        "Theta* mean / worst | Theta* / A* time (median) |",
        "|---|---:|---|---|---|---:|",
    ]
    for r in rows:
        cells = " | ".join(f"{m:.4f} / {w:.4f}" for m, w in (r["octile"], r["smooth"], r["theta"]))  # type: ignore[misc]
        lines.append(f"| {r['map']} | {r['queries']} | {cells} | {r['time']:.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
