"""CBS and ECBS on the MAPF benchmark in finer steps than ``bench/mapf.py``.

CBS fails between 15 and 60 agents on the shared maps, below ``bench/mapf.py``'s first
steps (25, 50, 100...), so this script runs the same runners (``run_cbs``,
``run_ecbs_12``, ``run_ecbs`` from ``bench/mapf.py``) with k rising by 5 (CBS) or 10
(ECBS) on each map's ``-random-1`` scenario file until the first failure, every
solution checked by ``bench/mapf.py``'s own conflict checker. It writes its table as
the "CBS and ECBS" section of ``bench/results/mapf.md`` (the rest of the file is kept).

Usage::

    python bench/mapf_cbs.py                  # 10 s per instance, the five maps
    python bench/mapf_cbs.py --limit 2 --maps random-32-32-20 --print
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine, mapf_dir
from mapf import MAPS, RESULTS, SOLVERS, check

from pathcraft.io import read_mapf_scen

BEGIN, END = "<!-- cbs: bench/mapf_cbs.py -->", "<!-- /cbs -->"
RUNS = (("cbs", "CBS", 5), ("ecbs-1.2", "ECBS w=1.2", 10), ("ecbs", "ECBS w=1.5", 10))


def rising(map_name: str, solver: str, step: int, limit: float) -> dict[str, Any]:
    """The largest k solved (its runner's answer) and what stopped the next k."""
    scen = mapf_dir() / "scen-random" / f"{map_name}-random-1.scen"
    grid, starts, goals = read_mapf_scen(scen)
    walkable = np.isfinite(grid.cost)
    best: dict[str, Any] = {"k": 0, "of": len(starts)}
    for k in [*range(step, len(starts), step), len(starts)]:
        out = SOLVERS[solver](grid, starts[:k], goals[:k], limit)
        if out["solved"]:
            fault = check(out["paths"], starts[:k], goals[:k], walkable)
            if fault:
                out["solved"], out["why"] = False, f"INVALID: {fault}"
        print(f"{map_name:24} {solver:9} k={k:5} {out['why'] or 'ok':12} "
              f"{out['seconds']:7.3f} s", flush=True)
        if not out["solved"]:
            best["stop"] = f"k={k}: {out['why']}"
            return best
        best.update(k=k, cost=out["cost"], bound=out["bound"], seconds=out["seconds"])
    best["stop"] = "none: the whole file solved"
    return best


def section(rows: list[str], limit: float, load: tuple[float, float]) -> str:
    return "\n".join([
        BEGIN,
        "## CBS and ECBS, k rising by 5 (CBS) or 10 (ECBS)",
        "",
        f"`python bench/mapf_cbs.py` on {machine()}, commit {git_rev()}; load average "
        f"(1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end (a shared machine: "
        f"times are inflated). {limit:g} s per instance; the runners, rules and checker "
        "of `bench/mapf.py`. Both solvers are pure Python (no compiled low level). CBS's "
        "sums of costs are proven optimal; ECBS's are at most w times the optimum.",
        "",
        "| map | solver | largest k solved (of the file's) | time there (s) | "
        "cost / bound there | first failure |",
        "|---|---|---:|---:|---:|---|",
        *rows,
        END,
        "",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per instance")
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated")
    parser.add_argument("--print", action="store_true", help="print, do not write")
    args = parser.parse_args()
    if not (mapf_dir() / "maps").is_dir():
        sys.exit(f"no MAPF benchmark data at {mapf_dir()} (set PATHCRAFT_MAPF)")
    load0 = os.getloadavg()[0]
    rows = []
    for map_name in args.maps.split(","):
        for solver, label, step in RUNS:
            r = rising(map_name, solver, step, args.limit)
            there = f"{r['seconds']:.2f} | {r['cost'] / r['bound']:.3f}" if r["k"] else " | "
            rows.append(
                f"| {map_name} | {label} | {r['k']} ({r['of']}) | {there} | {r['stop']} |"
            )
    text = section(rows, args.limit, (load0, os.getloadavg()[0]))
    if args.print:
        print(text)
        return
    old = RESULTS.read_text() if RESULTS.exists() else ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + text.rstrip("\n") + rest.split(END, 1)[1]
    else:
        new = old + ("\n" if old else "") + text
    RESULTS.write_text(new)
    print(f"wrote the CBS section of {RESULTS}")


if __name__ == "__main__":
    main()
