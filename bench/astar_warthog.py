"""pathcraft's A* against warthog's, query by query, on Moving AI maps.

warthog is ShortestPathLab's C++ library (warthog-core: public source, built
separately, never part of this repository). Its ``warthog`` program solves a scenario
file and prints one tab-separated line per query (``id alg expanded generated reopen
surplus heapops nanos plen pcost scost map``), ``nanos`` being its own search timer.
This script, like ``jps_warthog.py`` (whose scenario selection and warthog runner it
uses):

- picks ``--queries`` evenly spaced scenarios per map and writes them to a scenario
  file of their own;
- times pathcraft's ``Grid.astar`` on them in this process (the Python call and the
  full cell path; the Moving AI rule: 8-connected, no corner cutting), each query's
  fastest of ``--rounds`` rounds, every cost checked against the scenario's optimum,
  and counts its expansions;
- with ``--warthog BIN`` (the built ``warthog`` of warthog-core), runs its ``astar``
  (octile, no corner cutting) on the same file ``--rounds`` times, a round after each
  of pathcraft's, on the map as the Moving AI rules read it (``warthog_map``), and
  keeps each query's fastest ``nanos``, its cost (checked too) and its expansions;
  without it, compares with the A* medians recorded in ``../shared/PEERS.md`` (another
  selection, and warthog's own reading of the maps: indicative only).

Times are medians over the queries, in microseconds; *ratio* is pathcraft's median over
warthog's on the same queries; *expanded* are means.

Usage::

    python bench/astar_warthog.py --warthog /path/to/warthog-core/build/warthog --maps all
    python bench/astar_warthog.py --quick        # 40 queries, PEERS.md figures, prints only
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from jps_warthog import Warthog, check_costs, command_line, data_dir, header, pick

from pathcraft.grid import Cell
from pathcraft.io import read_map
from pathcraft.result import PathResult

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "astar_warthog.md"

#: warthog's A* medians (us per query, 200 scenarios per map) from ../shared/PEERS.md.
#: They were measured on warthog's own reading of the maps: on battleground, whose swamp
#: ``S`` it blocks (see ``jps_warthog.warthog_map``), they time another, cheaper graph.
PEERS_MD = {
    "AR0011SR": 4239, "arena2": 533, "brc202d": 2418, "den520d": 255, "lak303d": 615,
    "orz900d": 8021, "maze512-1-0": 9333, "maze512-32-0": 29514, "random512-10-0": 915,
    "random512-40-0": 5591, "32room_000": 5208, "8room_000": 5523, "TheFrozenSea": 13929,
    "Berlin_0_256": 337, "Boston_0_512": 1518, "battleground": 230,
}  # fmt: skip


def time_pathcraft(
    search: Callable[[Cell, Cell], PathResult],
    starts: Sequence[Cell],
    goals: Sequence[Cell],
    rounds: int,
    warthog: Warthog | None,
) -> tuple[list[float], list[float], list[int]]:
    """Per query, the fastest of ``rounds`` calls of ``search(start, goal)`` (us), the
    costs and the expansions; each round is followed by one round of ``warthog`` (this
    VM's CPU changes speed: the two take turns)."""
    best = [float(np.inf)] * len(starts)
    costs = [0.0] * len(starts)
    expanded = [0] * len(starts)
    for s, g in zip(starts, goals, strict=True):  # warm up
        search(s, g)
    for _ in range(rounds):
        for i, (s, g) in enumerate(zip(starts, goals, strict=True)):
            t0 = time.perf_counter()
            result = search(s, g)
            best[i] = min(best[i], (time.perf_counter() - t0) * 1e6)
            costs[i], expanded[i] = result.cost, result.expanded
        if warthog is not None:
            warthog.run()
    return best, costs, expanded


def main() -> None:
    _, parse = command_line(__doc__, 100, 3, "the warthog program of warthog-core")
    args = parse()
    root = data_dir()
    load0 = os.getloadavg()[0]
    scen_dir = Path(tempfile.mkdtemp(prefix="pathcraft-astar-"))
    rows = []
    for name in args.maps:
        problems = pick(root, name, args.queries, scen_dir)
        grid = read_map(problems.mapfile)
        warthog = None
        if args.warthog:
            warthog = Warthog(args.warthog, "astar", problems.scen, problems.mapfile)
        best, costs, expanded = time_pathcraft(
            grid.astar, problems.starts, problems.goals, args.rounds, warthog
        )
        row: dict[str, object] = {
            "map": problems.name, "queries": len(best), "ours": statistics.median(best),
            "bad": check_costs(name, costs, problems.optimal),
            "expanded": float(np.mean(expanded)),
        }  # fmt: skip
        if warthog is not None:
            row["theirs"] = statistics.median(warthog.times)
            row["their bad"] = check_costs(name, warthog.costs, problems.optimal)
            row["their expanded"] = float(np.mean(warthog.expanded))
        else:
            row["theirs"] = PEERS_MD.get(Path(name).name)
            row["their expanded"] = row["their bad"] = None
        rows.append(row)
        print(row, file=sys.stderr)
    load1 = os.getloadavg()[0]
    source = "its own timer, same queries" if args.warthog else "PEERS.md, other queries"
    lines = [
        *header(
            "A*: pathcraft against warthog, the same queries", "astar_warthog.py", load0, load1
        ),
        "",
        f"Median microseconds per query, each query's fastest of {args.rounds} rounds; "
        "pathcraft's `Grid.astar` includes the Python call and the full cell path (the "
        f"Moving AI rule); warthog's `astar` ({source}), on the map as the Moving AI rules "
        "read it (swamp `S` is ground: warthog's reader blocks it, so maps holding `S` are "
        "given to it with `S` written as `.`). *bad*: costs off the scenario's optimum. "
        "*expanded*: mean per query. Goal (issue 22): ratio <= 1.2 on every map.",
        "",
        "| map | queries | pathcraft A* us | warthog A* us | ratio | bad | warthog bad | "
        "pathcraft expanded | warthog expanded |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ratios = []
    for row in rows:
        theirs = row["theirs"]
        ratio = float(row["ours"]) / float(theirs) if theirs else None  # type: ignore[arg-type]
        if ratio is not None:
            ratios.append(ratio)
        wexp = row["their expanded"]
        lines.append(
            f"| {row['map']} | {row['queries']} | {float(row['ours']):,.1f} | "  # type: ignore[arg-type]
            + ("-" if not theirs else f"{float(theirs):,.1f}")  # type: ignore[arg-type]
            + f" | {'-' if ratio is None else f'{ratio:.2f}'} | {row['bad']} | "
            + ("-" if row["their bad"] is None else str(row["their bad"]))
            + " | "
            + f"{float(row['expanded']):,.0f} | "  # type: ignore[arg-type]
            + ("-" if wexp is None else f"{float(wexp):,.0f}")  # type: ignore[arg-type]
            + " |"
        )
    if len(ratios) > 1:
        geo = float(np.exp(np.mean(np.log(ratios))))
        lines.append(f"| geometric mean of the ratios | | | | {geo:.2f} | | | | |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
