"""pathcraft's weighted A* and greedy best-first search against warthog's, query by query.

warthog (ShortestPathLab's C++ library, warthog-core: public source, built separately,
never part of this repository) has weighted A* in its library only: its octile
heuristic takes a scale (``octile_heuristic::set_hscale``), which with its
``unidirectional_search`` orders the open list by ``g + w * h``. ``warthog_wastar.cpp``
(in this folder; build it outside the repository, the command is in its header) is
warthog's own ``astar`` with that scale, printing warthog's per-query lines plus the
cost of the returned path walked cell by cell. warthog has no greedy best-first
search: a scale of ``--greedy-hscale`` (1e9) stands for it, ordering by h with ties
to the smaller g. This script (with the scenario selection, the warthog runner and
reader of ``jps_warthog.py``, the timing loop of ``astar_warthog.py``):

- picks ``--queries`` evenly spaced scenarios per map and writes them to a scenario
  file of their own;
- for each weight of ``--weights`` (``greedy`` for greedy search), times pathcraft's
  ``Grid.astar(start, goal, weight=w)`` or ``Grid.greedy`` on them in this process
  (the Python call and the full cell path; the Moving AI rule), each query's fastest
  of ``--rounds`` rounds, and keeps its costs and expansions;
- with ``--warthog BIN`` (the built ``warthog_wastar``), runs it with ``--hscale w``
  on the same file (and on battleground's swamp written as ground, as
  ``jps_warthog.warthog_map`` does), a round after each of pathcraft's rounds, and
  keeps each query's fastest ``nanos``, its expansions, its reported cost and its
  walked one; without it, compares with the
  figures recorded in ``../shared/PEERS.md``: none for weighted A* or greedy search
  so far, so pathcraft runs alone;
- checks every cost against the scenario's optimum: a weighted A* path must cost at
  most ``w`` times the optimum (both sides: the correctness oracle), and warthog's
  paths must be legal moves;
- repeats the whole ``--runs`` times (minutes apart on a long run): each query's time
  is its fastest over all runs, and the table gives the range of the per-run ratios.

The two searches differ in two rules (the table's notes say which): neither
expands a cell twice, but warthog lowers a closed node's g and parent in place when
it is reached more cheaply, where pathcraft keeps a closed cell as it was (greedy too
keeps a cell's first parent); pathcraft stops when it expands the goal, warthog as
soon as it generates it.

Usage::

    python bench/weighted_warthog.py --warthog /work/ext/wastar/warthog_wastar --maps all
    python bench/weighted_warthog.py --quick     # 40 queries, 3 maps, pathcraft alone, prints only
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from astar_warthog import time_pathcraft
from jps_warthog import Warthog, command_line, data_dir, header, pick

import pathcraft
from pathcraft.grid import Cell
from pathcraft.io import read_map

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "weighted_warthog.md"
#: Relative slack of the cost checks (the .scen optima carry 8 decimals).
RTOL = 1e-7


def geo(values: list[float]) -> float:
    return float(np.exp(np.mean(np.log(values))))


def ratio_stats(costs: np.ndarray, optimal: np.ndarray, bound: float | None) -> dict[str, float]:
    """Mean and max of cost / optimal, and how many costs exceed ``bound`` x optimal."""
    q = costs / optimal
    over = 0 if bound is None else int(np.sum(costs > bound * optimal * (1 + RTOL)))
    return {"mean": float(np.mean(q)), "max": float(np.max(q)), "over": over}


def measure(
    grid: pathcraft.Grid,
    starts: Sequence[Cell],
    goals: Sequence[Cell],
    weight: float | None,
    scen: Path,
    mapfile: Path,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """One run of one weight (None: greedy) on one map, pathcraft's rounds alternating
    with warthog's: per-query arrays of both sides."""
    search = grid.greedy if weight is None else partial(grid.astar, weight=weight)
    warthog = None
    if args.warthog:
        hscale = args.greedy_hscale if weight is None else weight
        warthog = Warthog(args.warthog, "astar", scen, mapfile, ["--hscale", repr(hscale)])
    best, costs, expanded = time_pathcraft(search, starts, goals, args.rounds, warthog)
    out = {"us": np.array(best), "cost": np.array(costs), "expanded": np.array(expanded)}
    if warthog is not None:
        walked = warthog.walked
        if len(walked) != len(starts) or None in walked:
            sys.exit(f"{args.warthog}: {len(walked)} answers, {len(starts)} queries, or no cost")
        out["their us"] = np.array(warthog.times)
        out["their cost"] = np.array(walked, dtype=float)
        out["their pcost"] = np.array(warthog.costs)
        out["their expanded"] = np.array(warthog.expanded)
    return out


def merge(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each query's fastest time over the runs; the per-run ratios of medians."""
    out = dict(runs[-1])
    out["us"] = np.min([r["us"] for r in runs], axis=0)
    if "their us" in out:
        out["their us"] = np.min([r["their us"] for r in runs], axis=0)
        out["run ratios"] = [float(np.median(r["us"]) / np.median(r["their us"])) for r in runs]
    return out


def expansions(values: np.ndarray) -> str:
    return f"{np.mean(values):,.0f} ({np.median(values):,.0f})"


def table(name: str, weight: float | None, rows: list[dict[str, Any]], runs: int) -> list[str]:
    """The markdown table of one weight over the maps, with its geometric-mean row."""
    lines = [
        f"### {name}",
        "",
        "| map | pathcraft us | warthog us | ratio | ratio range over runs | "
        "mean us: pathcraft, warthog | pathcraft cost / optimal: mean, max | "
        "warthog cost / optimal: mean, max | over the bound: pathcraft, warthog | "
        "warthog reported > walked | pathcraft expanded | warthog expanded |",
        "|---|" + "---:|" * 11,
    ]
    ratios = []
    for row in rows:
        m = row["measured"]
        mine = ratio_stats(m["cost"], row["optimal"], weight)
        ours = float(np.median(m["us"]))
        cells = [row["map"], f"{ours:,.1f}"]
        if "their us" in m:
            theirs = float(np.median(m["their us"]))
            ratio = ours / theirs
            ratios.append(ratio)
            # the bound on the larger of the walked and the reported cost
            worst = np.maximum(m["their cost"], m["their pcost"])
            wt = ratio_stats(m["their cost"], row["optimal"], weight)
            over = ratio_stats(worst, row["optimal"], weight)["over"]
            bad = int(np.sum((m["their cost"] < 0) | (m["their pcost"] > 1e300)))
            above = int(np.sum(m["their pcost"] > m["their cost"] * (1 + RTOL)))
            rr = m["run ratios"]
            cells += [
                f"{theirs:,.1f}",
                f"{ratio:.2f}",
                f"{min(rr):.2f}-{max(rr):.2f}" if runs > 1 else "-",
                f"{np.mean(m['us']):,.0f}, {np.mean(m['their us']):,.0f}",
                f"{mine['mean']:.4f}, {mine['max']:.3f}",
                f"{wt['mean']:.4f}, {wt['max']:.3f}",
                "-" if weight is None else f"{mine['over']:.0f}, {over:.0f}",
                str(above) + (f" ({bad} failed or illegal)" if bad else ""),
                expansions(m["expanded"]),
                expansions(m["their expanded"]),
            ]
        else:
            cells += [
                "-", "-", "-", f"{np.mean(m['us']):,.0f}, -",
                f"{mine['mean']:.4f}, {mine['max']:.3f}", "-",
                "-" if weight is None else f"{mine['over']:.0f}, -", "-",
                expansions(m["expanded"]), "-",
            ]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    if len(ratios) > 1:
        lines.append(f"| geometric mean | | | {geo(ratios):.2f} |" + " |" * 8)
    return lines


def parse_weights(values: list[str]) -> list[float | None]:
    out: list[float | None] = []
    for v in values:
        if v == "greedy":
            out.append(None)
        elif float(v) >= 1.0:
            out.append(float(v))
        else:
            sys.exit(f"--weights: {v!r} is neither a number >= 1 nor 'greedy'")
    return out


def main() -> None:
    parser, parse = command_line(
        __doc__, 100, 3, "the built warthog_wastar (bench/warthog_wastar.cpp)"
    )
    parser.add_argument(
        "--weights", nargs="+", default=["1.5", "2", "5", "greedy"],
        help="weights >= 1, and 'greedy' for greedy best-first search",
    )  # fmt: skip
    parser.add_argument("--runs", type=int, default=1, help="repeat the whole; see above")
    parser.add_argument("--greedy-hscale", type=float, default=1e9)
    args = parse()
    weights = parse_weights(args.weights)
    root = data_dir()
    load0 = os.getloadavg()[0]
    scen_dir = Path(tempfile.mkdtemp(prefix="pathcraft-weighted-"))
    maps: list[dict[str, Any]] = []
    for name in args.maps:
        problems = pick(root, name, args.queries, scen_dir)
        maps.append({
            "name": name, "scen": problems.scen, "grid": read_map(problems.mapfile),
            "mapfile": problems.mapfile, "starts": problems.starts, "goals": problems.goals,
            "optimal": problems.optimal,
        })  # fmt: skip
    runs: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for run in range(args.runs):
        for m, spec in enumerate(maps):
            for k, w in enumerate(weights):
                got = measure(
                    spec["grid"], spec["starts"], spec["goals"], w, spec["scen"],
                    spec["mapfile"], args,
                )  # fmt: skip
                runs.setdefault((m, k), []).append(got)
                print(run, spec["name"], w, float(np.median(got["us"])), file=sys.stderr)
    load1 = os.getloadavg()[0]
    source = (
        "`bench/warthog_wastar.cpp` on warthog-core's library, its own timer, the same queries"
        if args.warthog
        else "none: ../shared/PEERS.md records no weighted A* or greedy figures, so "
        "pathcraft runs alone"
    )
    lines = [
        *header(
            "Weighted A* and greedy search: pathcraft against warthog, the same queries",
            "weighted_warthog.py", load0, load1
        ),
        f"- Peer: {source}",
        "",
        f"Median microseconds per query over {len(maps[0]['starts']) if maps else 0} "
        f"queries a map, each query's fastest of {args.rounds} rounds x {args.runs} "
        "run(s); pathcraft's `Grid.astar(weight=w)` / `Grid.greedy` include the Python "
        "call and the full cell path (the Moving AI rule). *ratio*: pathcraft's median "
        "over warthog's; *ratio range over runs*: the same ratio in each run. *cost / "
        "optimal*: path cost over the scenario's optimum (warthog's: its returned path "
        "walked cell by cell). *over the bound*: paths costing more than w x optimal "
        "(must be 0; warthog's: the larger of its reported and its walked cost). "
        "*warthog reported > walked*: queries whose reported cost (`pcost`) is above "
        "the cost of the path it returns. *expanded*: mean (median) per query.",
        "",
        "Policies. pathcraft: priority `g + w * h` (octile h), ties to the larger g; an "
        "expanded cell is never reopened (an open one reached more cheaply is updated; "
        "greedy: priority h, ties to the larger g, a cell keeps its first parent); it "
        "stops when it expands the goal. warthog (`unidirectional_search`, default traits): "
        "the octile h scaled by w, ties (equal f) to the larger g; a closed node reached "
        "more cheaply gets the lower g and parent but is not expanded again "
        "(`reopen_policy::no`); it stops when it generates the goal. Greedy: warthog "
        f"with h scaled by {args.greedy_hscale:g}, which orders by h with ties to the "
        "smaller g.",
        "",
    ]
    summary = []
    for k, w in enumerate(weights):
        name = "greedy" if w is None else f"weight {w:g}"
        rows = []
        for m, spec in enumerate(maps):
            rows.append({
                "map": Path(spec["name"]).name, "optimal": spec["optimal"],
                "measured": merge(runs[(m, k)]),
            })  # fmt: skip
        lines += [*table(name, w, rows, args.runs), ""]
        if args.warthog and len(rows) > 1:
            r = [float(np.median(x["measured"]["us"]) / np.median(x["measured"]["their us"]))
                 for x in rows]  # fmt: skip
            summary.append(f"| {name} | {geo(r):.2f} | {min(r):.2f}-{max(r):.2f} | "
                           f"{sum(x > 1.2 for x in r)} |")  # fmt: skip
    if summary:
        lines += [
            "### Summary",
            "",
            "| search | geometric mean of the ratios | range over the maps | maps above 1.2 |",
            "|---|---:|---:|---:|",
            *summary,
            "",
        ]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
