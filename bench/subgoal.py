"""Subgoal graphs (``prepare("subgoal")``, ``find_path(algorithm="subgoal")``) against
JPS+ and A* on the Dragon Age, Baldur's Gate and StarCraft maps of the Moving AI set.

Per map: the build times of the subgoal graph and of the JPS+ table (each through
``Grid.prepare``), their bytes per cell, and per band of scenario buckets (the map's
buckets cut in four equal ranges, plus its top ``--top`` buckets) the median over the
band's queries of each query's fastest of ``--rounds`` rounds, the three searches
taking turns in one process (A* one round). Every answer is checked after its timing:
the costs of all three against the published optimum.

With ``--anchor RUN`` (the GPPC 2013 entry "SubgoalGraph-Fast" of Uras et al., built
from github.com/gppc-dev/algorithm-archive, ``classic/2023/2013-subgoal-fast``, with
``g++ -O3 -std=c++17 *.cpp -o run``; never part of this repository) each map is also
preprocessed and run by that program, in a temporary folder, and its per-query times
(one run each, its own timer) are summarised per band the same way.

Usage::

    python bench/subgoal.py                     # writes results/huge_worlds.md's section
    python bench/subgoal.py --maps dao/arena2 --queries 5 --no-write   # quick
"""

# ruff: noqa: E501  (the report's table rows)
from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine, movingai_dir, write_section
from hpa import fastest

from pathcraft.io import read_map, read_scen

MAPS = (
    "dao/arena2",
    "dao/brc202d",
    "dao/den520d",
    "dao/lak303d",
    "dao/orz900d",
    "bg512/AR0011SR",
    "sc1/TheFrozenSea",
)
RESULTS = Path(__file__).resolve().parent / "results" / "huge_worlds.md"
MARK = "## Subgoal graphs"


def bands(bucket: np.ndarray, top: int) -> list[tuple[str, np.ndarray]]:
    """The map's buckets in four equal ranges, then its top ``top`` buckets."""
    lo, hi = int(bucket.min()), int(bucket.max())
    edges = np.linspace(lo, hi + 1, 5).astype(int)
    out = [
        (
            f"{edges[i]}-{edges[i + 1] - 1}",
            np.flatnonzero((bucket >= edges[i]) & (bucket < edges[i + 1])),
        )
        for i in range(4)
    ]
    out.append((f"top {top}: {hi - top + 1}-{hi}", np.flatnonzero(bucket > hi - top)))
    return out


def anchor_times(
    run: Path, map_path: Path, scen_path: Path
) -> tuple[np.ndarray, np.ndarray, float]:
    """The anchor's per-query seconds and lengths, and its preprocessing seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "index_data").mkdir()
        t = time.perf_counter()
        subprocess.run([str(run), "-pre", str(map_path)], cwd=tmp, check=True)
        pre = time.perf_counter() - t
        subprocess.run([str(run), "-run", str(map_path), str(scen_path)], cwd=tmp, check=True)
        with open(Path(tmp) / "result.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    seconds = np.array([float(r["time_cost"]) * 1e-9 for r in rows])
    lengths = np.array([float(r["path_length"]) for r in rows])
    return seconds, lengths, pre


def run_map(name: str, args: argparse.Namespace) -> dict[str, Any]:
    root = movingai_dir()
    map_path = root / "maps" / f"{name}.map"
    scen_path = root / "scen" / f"{name}.map.scen"
    scen = read_scen(scen_path)
    grid = read_map(map_path)
    cells = grid.shape[0] * grid.shape[1]
    t = time.perf_counter()
    grid.prepare("subgoal")
    sg_build = time.perf_counter() - t
    t = time.perf_counter()
    grid.prepare("jps+")
    jps_build = time.perf_counter() - t
    graph, table = grid.subgoal_graph, grid.offline_jumps
    assert graph is not None and table is not None
    anchor = None
    if args.anchor:
        anchor = anchor_times(Path(args.anchor), map_path, scen_path)
    out: dict[str, Any] = {
        "map": name, "shape": grid.shape, "sg build": sg_build, "jps build": jps_build,
        "sg bytes": graph.nbytes / cells, "jps bytes": table.nbytes / cells,
        "subgoals": graph.subgoals, "edges": graph.edges, "rows": [],
        "anchor pre": None if anchor is None else anchor[2],
    }  # fmt: skip
    bad = 0
    for label, idx in bands(scen.bucket, args.top):
        chosen = idx[:: max(1, len(idx) // args.queries)][: args.queries]
        times: dict[str, list[float]] = {"astar": [], "jps+": [], "subgoal": []}
        expanded: list[int] = []
        for i in chosen:
            s = (int(scen.starts[i][0]), int(scen.starts[i][1]))
            g = (int(scen.goals[i][0]), int(scen.goals[i][1]))
            ta, ra = fastest(lambda s=s, g=g: grid.astar(s, g), 1)
            tj, rj = fastest(lambda s=s, g=g: grid.jps(s, g), args.rounds)
            ts, rs = fastest(
                lambda s=s, g=g: grid.find_path(s, g, algorithm="subgoal"), args.rounds
            )
            want = float(scen.optimal[i])
            tol = 1e-5 * max(1.0, want)
            ok = all(abs(r.cost - want) <= tol for r in (rs, rj, ra))
            bad += not ok
            times["astar"].append(ta)
            times["jps+"].append(tj)
            times["subgoal"].append(ts)
            expanded.append(rs.expanded)
        med = {k: float(np.median(v)) for k, v in times.items()}
        row = {
            "band": label, "queries": len(chosen), **{f"{k} us": 1e6 * v for k, v in med.items()},
            "jps+/sg": float(np.median(np.array(times["jps+"]) / np.array(times["subgoal"]))),
            "astar/sg": float(np.median(np.array(times["astar"]) / np.array(times["subgoal"]))),
            "expanded": float(np.median(expanded)),
        }  # fmt: skip
        if anchor is not None:
            row["anchor us"] = 1e6 * float(np.median(anchor[0][idx]))
            row["anchor optimal"] = int(
                np.sum(
                    np.abs(anchor[1][idx] - scen.optimal[idx])
                    <= 1e-5 * np.maximum(1.0, scen.optimal[idx])
                )
            )
            row["anchor n"] = len(idx)
        out["rows"].append(row)
        print(f"{name} {label}: {row}", file=sys.stderr, flush=True)
    out["bad"] = bad
    return out


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    cmd = (
        f"python bench/subgoal.py --queries {args.queries} --rounds {args.rounds} --top {args.top}"
    )
    lines = [
        MARK, "",
        f"`{cmd}{' --anchor RUN' if args.anchor else ''}` on {machine()}.", "",
        "Simple subgoal graphs (Uras, Koenig, Hernandez 2013) against JPS+ and A* on the "
        "Moving AI maps (Sturtevant 2012). Per band of scenario buckets, medians over "
        f"up to {args.queries} queries (evenly spaced in the band) of each query's fastest "
        f"of {args.rounds} rounds, in microseconds, the searches taking turns in one process "
        "(A* one round), each a public call (`grid.astar`, `grid.jps` on the JPS+ table, "
        "`grid.find_path(..., algorithm=\"subgoal\")`); *JPS+/SG* is the median of the "
        "per-query ratios. Every answer of the three was checked against the "
        "published optimum.", "",
    ]  # fmt: skip
    if args.anchor:
        lines += [
            '*anchor*: the GPPC entry "SubgoalGraph-Fast" (Uras et al.\'s two-level '
            "subgoal graph, C++, `g++ -O3`) from gppc-dev/algorithm-archive, run by its "
            "own driver on the whole scenario file: the median of its own per-query "
            "times over every query of the band (one run each, no Python call), and how "
            "many of them it answered at the published length.",
            "",
        ]
    lines += [
        "Top buckets (the last row of each table), the issue's target being the subgoal "
        "query at least 3x faster than JPS+ (JPS+/SG >= 3) in at most JPS+'s memory:", "",
        "| map | JPS+/SG | SG bytes/cell | JPS+ bytes/cell |"
        + (" anchor us / JPS+ us |" if args.anchor else ""),
        "|---|---|---|---|" + ("---|" if args.anchor else ""),
    ]  # fmt: skip
    for res in results:
        top = res["rows"][-1]
        line = (
            f"| {res['map']} | {top['jps+/sg']:.2f}x | {res['sg bytes']:.1f} | "
            f"{res['jps bytes']:.1f} |"
        )
        if args.anchor:
            line += f" {top['anchor us'] / top['jps+ us']:.2f} |"
        lines.append(line)
    lines.append("")
    for res in results:
        head = (
            f"### {res['map']}: {res['shape'][0]} x {res['shape'][1]} cells, "
            f"{res['subgoals']} subgoals, {res['edges']} edges; built in "
            f"{1e3 * res['sg build']:.0f} ms ({res['sg bytes']:.1f} bytes/cell) vs JPS+ "
            f"{1e3 * res['jps build']:.0f} ms ({res['jps bytes']:.1f} bytes/cell)"
        )
        if res["anchor pre"] is not None:
            head += f"; anchor preprocessing {1e3 * res['anchor pre']:.0f} ms (process included)"
        lines += [head + f"; wrong answers: {res['bad']}", ""]
        cols = "| buckets | queries | A* us | JPS+ us | SG us | JPS+/SG | A*/SG | SG expanded |"
        sep = "|---|---|---|---|---|---|---|---|"
        if args.anchor:
            cols += " anchor us | anchor optimal |"
            sep += "---|---|"
        lines += [cols, sep]
        for r in res["rows"]:
            line = (
                f"| {r['band']} | {r['queries']} | {r['astar us']:.0f} | {r['jps+ us']:.0f} | "
                f"{r['subgoal us']:.0f} | {r['jps+/sg']:.2f}x | {r['astar/sg']:.1f}x | {r['expanded']:.0f} |"
            )
            if args.anchor:
                line += f" {r['anchor us']:.0f} | {r['anchor optimal']}/{r['anchor n']} |"
            lines.append(line)
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--maps", nargs="+", default=list(MAPS))
    p.add_argument("--queries", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--anchor", default=None, help="the built GPPC SubgoalGraph-Fast program")
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()
    results = [run_map(name, args) for name in args.maps]
    text = report(results, args)
    print(text)
    if not args.no_write:
        write_section(RESULTS, MARK[3:], text.split("\n", 1)[1], "# Huge worlds")


if __name__ == "__main__":
    main()
