"""Multi-agent pathfinding (issue 33) on the MAPF benchmark: k rising until failure.

For each of the five shared maps (scenario file ``-random-1``, the first k agents),
each solver runs with k = 25, 50, 100, 150, ... until its first failure (or every
agent of the file), with a time limit per instance. Every returned solution is
checked by this script's own conflict checker (:func:`check`, written apart from
``pathcraft.mapf.validate``) before it counts. Rules: 4-connected moves and waits at
unit cost, vertex and swap conflicts forbidden, agents stay at their goals; sum of
costs against the bound (the sum of the agents' individual BFS distances).

One function per solver (``run_NAME(grid, starts, goals, limit) -> dict``), listed in
:data:`SOLVERS`; peers and further solvers add theirs there.

Usage::

    python bench/mapf.py                    # 10 s per instance, writes bench/results/mapf.md
    python bench/mapf.py --limit 2 --quick  # a short run, prints only
    python bench/mapf.py --solvers whca --maps room-32-32-4
    python bench/mapf.py --game             # the game loop below, writes mapf_game.md

``--game``: 200 units cross a 512x512 Moving AI map (``bg512/AR0011SR``, 4-connected)
from its left third to its right third and back, moved one cell per turn by
:class:`pathcraft.mapf.Cooperative` (window 16) until all arrive; every turn's moves
are checked for vertex and swap conflicts. Beside it, per turn, the same units
replanning independently (one A* per unit per turn to its goal, taking its next
cell, collisions ignored), timed on the first turns.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine, mapf_dir, movingai_dir

from pathcraft.io import read_map, read_mapf_scen
from pathcraft.mapf import Cooperative, Problem, solve

RESULTS = Path(__file__).resolve().parent / "results" / "mapf.md"
GAME_RESULTS = RESULTS.with_name("mapf_game.md")
GAME_MAP = "bg512/AR0011SR"
MAPS = (
    "empty-32-32",
    "random-32-32-20",
    "maze-32-32-2",
    "room-32-32-4",
    "warehouse-10-20-10-2-1",
)


def steps_of(total: int) -> list[int]:
    """The agent counts tried: 25, 50, then every 50 (every 100 past 500), then all."""
    ks = [25, 50, *range(100, min(total, 500) + 1, 50), *range(600, total + 1, 100)]
    ks = [k for k in ks if k < total]
    return [*ks, total]


def check(
    paths: list[list[tuple[int, int]]], starts: list, goals: list, walkable: np.ndarray
) -> str:
    """Every fault of a solution under the rules above, as words ("" when valid): a
    step array per agent held at its goal, then vertex and swap conflicts by sorting
    (node, time) and (edge, time) keys."""
    k = len(paths)
    if k != len(starts):
        return f"{len(paths)} paths for {len(starts)} agents"
    horizon = max(len(p) for p in paths)
    rows, cols = walkable.shape
    at = np.empty((k, horizon), dtype=np.int64)
    for i, path in enumerate(paths):
        cells = np.asarray(path, dtype=np.int64).reshape(-1, 2)
        if tuple(cells[0]) != tuple(starts[i]) or tuple(cells[-1]) != tuple(goals[i]):
            return f"agent {i} does not run from its start to its goal"
        if not walkable[cells[:, 0], cells[:, 1]].all():
            return f"agent {i} enters a wall"
        if len(cells) > 1 and (np.abs(np.diff(cells, axis=0)).sum(axis=1) > 1).any():
            return f"agent {i} jumps"
        flat = cells[:, 0] * cols + cells[:, 1]
        at[i, : len(flat)] = flat
        at[i, len(flat) :] = flat[-1]
    times = np.broadcast_to(np.arange(horizon), at.shape)
    keys = np.sort((times * rows * cols + at).ravel())
    if (keys[1:] == keys[:-1]).any():
        return "a vertex conflict"
    a, b = at[:, :-1], at[:, 1:]
    moving = a != b
    n = rows * cols
    fwd = (times[:, 1:] * n + a) * n + b
    back = (times[:, 1:] * n + b) * n + a
    if np.isin(fwd[moving], back[moving]).any():
        return "a swap conflict"
    return ""


def _pathcraft(name: str, options: dict[str, Any]) -> Callable[..., dict[str, Any]]:
    def run(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
        t0 = time.perf_counter()
        problem = Problem(grid, starts, goals)
        result = solve(problem, solver=name, time_limit=limit, **options)
        seconds = time.perf_counter() - t0
        return {
            "solved": bool(result),
            "paths": result.paths,
            "cost": result.sum_of_costs,
            "bound": result.lower_bound,
            "seconds": seconds,
            "why": result.status if not result else "",
        }

    return run


def run_prioritized(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's prioritized planning (SIPP), longest first, restarts to the limit."""
    return _pathcraft("prioritized", {})(grid, starts, goals, limit)


def run_whca(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's WHCA*, window 16, replanning every 8 steps."""
    return _pathcraft("whca", {"window": 16})(grid, starts, goals, limit)


def run_cbs(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's CBS (prioritised conflicts, bypass, CG heuristic): optimal."""
    return _pathcraft("cbs", {})(grid, starts, goals, limit)


def run_ecbs(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's ECBS, w = 1.5."""
    return _pathcraft("ecbs", {"w": 1.5})(grid, starts, goals, limit)


def run_ecbs_12(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's ECBS, w = 1.2."""
    return _pathcraft("ecbs", {"w": 1.2})(grid, starts, goals, limit)


def run_lacam(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's LaCAM, stopping at its first solution."""
    return _pathcraft("lacam", {})(grid, starts, goals, limit)


def run_pibt(grid: Any, starts: list, goals: list, limit: float) -> dict[str, Any]:
    """pathcraft's PIBT (with the swap operation)."""
    return _pathcraft("pibt", {})(grid, starts, goals, limit)


#: Solver name -> runner (each checked by :func:`check` here). LaCAM refined against
#: lacam3 and the Python peers: ``bench/mapf_lacam.py``.
SOLVERS: dict[str, Callable[..., dict[str, Any]]] = {
    "prioritized": run_prioritized,
    "whca": run_whca,
    "cbs": run_cbs,
    "ecbs": run_ecbs,
    "ecbs-1.2": run_ecbs_12,
    "lacam": run_lacam,
    "pibt": run_pibt,
}


def sweep(map_name: str, solver: str, limit: float, quick: bool) -> list[dict[str, Any]]:
    scen = mapf_dir() / "scen-random" / f"{map_name}-random-1.scen"
    grid, starts, goals = read_mapf_scen(scen)
    walkable = np.isfinite(grid.cost)
    rows = []
    for k in steps_of(len(starts))[: 4 if quick else None]:
        out = SOLVERS[solver](grid, starts[:k], goals[:k], limit)
        if out["solved"]:
            fault = check(out["paths"], starts[:k], goals[:k], walkable)
            if fault:
                out["solved"], out["why"] = False, f"INVALID: {fault}"
        out.pop("paths")
        rows.append({"k": k, "of": len(starts), **out})
        status = "ok" if out["solved"] else out["why"]
        print(f"{map_name:24} {solver:12} k={k:5} {status:12} {out['seconds']:7.3f} s", flush=True)
        if not out["solved"]:
            break
    return rows


def report(results: dict[tuple[str, str], list[dict[str, Any]]], limit: float) -> str:
    lines = [
        "# Multi-agent pathfinding: k rising until failure",
        "",
        f"`python bench/mapf.py` on {machine()}, commit {git_rev()}. Scenario file "
        f"`-random-1` of each map, the first k agents; {limit:g} s per instance; k = 25, "
        "50, then every 50 (every 100 past 500) up to the whole file; a solver stops at "
        "its first failure. 4-connected moves and waits at unit cost, vertex and swap "
        "conflicts forbidden, agents stay at their goals. Every solution counted passed "
        "the script's own conflict checker. *cost / bound*: sum of costs over the sum of "
        "the agents' individual shortest paths. The machine is shared with other jobs "
        "while this runs: compare times within one run only.",
        "",
        "| map | solver | largest k solved (of the file's) | time there (s) | "
        "cost / bound there | first failure |",
        "|---|---|---:|---:|---:|---|",
    ]
    for (map_name, solver), rows in results.items():
        solved = [r for r in rows if r["solved"]]
        failed = [r for r in rows if not r["solved"]]
        total = rows[0]["of"] if rows else 0
        if solved:
            best = solved[-1]
            ratio = best["cost"] / best["bound"]
            cells = f"{best['k']} ({total}) | {best['seconds']:.3f} | {ratio:.3f}"
        else:
            cells = f"0 ({total}) | | "
        end = f"k={failed[0]['k']}: {failed[0]['why']}" if failed else "none in the k run"
        if not failed and solved and solved[-1]["k"] == total:
            end = "none: the whole file solved"
        lines.append(f"| {map_name} | {solver} | {cells} | {end} |")
    lines += [
        "",
        "Every instance run:",
        "",
        "| map | solver | k | solved | time (s) | cost / bound |",
    ]
    lines += ["|---|---|---:|---|---:|---:|"]
    for (map_name, solver), rows in results.items():
        for r in rows:
            ratio = f"{r['cost'] / r['bound']:.3f}" if r["solved"] else ""
            lines.append(
                f"| {map_name} | {solver} | {r['k']} | {'yes' if r['solved'] else r['why']} | "
                f"{r['seconds']:.3f} | {ratio} |"
            )
    return "\n".join(lines) + "\n"


def _crossing(walkable: np.ndarray, units: int, seed: int) -> tuple[list, list]:
    """Distinct starts in the left third and goals in the right third (half the units)
    and the other way round (the other half), all in the largest walkable region."""
    from pathcraft import Grid

    labels, _ = Grid.from_walkable(walkable, diagonal="never").components()
    biggest = np.bincount(labels[labels >= 0]).argmax()
    cols = walkable.shape[1]
    rng = np.random.default_rng(seed)
    cells = np.argwhere(labels == biggest)
    left = cells[cells[:, 1] < cols // 3]
    right = cells[cells[:, 1] >= 2 * cols // 3]

    def pick(pool: np.ndarray, k: int) -> list[tuple[int, int]]:
        return [(int(r), int(c)) for r, c in pool[rng.choice(len(pool), k, replace=False)]]

    half = units // 2
    a, b = pick(left, units), pick(right, units)
    return a[:half] + b[half:], b[:half] + a[half:]


def game_loop(units: int = 200, window: int = 16, independent_turns: int = 10) -> str:
    grid = read_map(movingai_dir() / "maps" / f"{GAME_MAP}.map", diagonal="never")
    walkable = np.isfinite(grid.cost)
    here, goals = _crossing(walkable, units, seed=7)
    t0 = time.perf_counter()
    coop = Cooperative(grid, window=window)
    coop.plan(here, goals)  # builds the units' distance tables once
    setup = time.perf_counter() - t0
    frames: list[float] = []
    independent: list[float] = []
    turns = 0
    while here != goals and turns < 5000:
        if turns < independent_turns:  # the same units, each replanning alone
            t0 = time.perf_counter()
            for cell, goal in zip(here, goals, strict=True):
                grid.astar(cell, goal)
            independent.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        after = coop.step(here, goals)
        frames.append(time.perf_counter() - t0)
        fault = check([[a, b] for a, b in zip(here, after, strict=True)], here, after, walkable)
        if fault:
            raise AssertionError(f"turn {turns}: {fault}")
        here = after
        turns += 1
    arrived = sum(a == b for a, b in zip(here, goals, strict=True))
    ms = np.array(frames) * 1e3
    alone = np.array(independent) * 1e3
    return "\n".join(
        [
            "# Multi-agent pathfinding in a game loop",
            "",
            f"`python bench/mapf.py --game` on {machine()}, commit {git_rev()}. {units} "
            f"units on `{GAME_MAP}` (512x512, 4-connected), starts and goals drawn in its "
            "left and right thirds (half each way), moved one cell per turn by "
            f"`Cooperative(grid, window={window}).step` until all arrive; every turn's "
            "moves checked for vertex and swap conflicts by the script. *Independent*: "
            "the same units, one A* per unit per turn from its cell to its goal "
            f"(collisions ignored), timed on the first {independent_turns} turns. The "
            "machine is shared with other jobs: compare within one run.",
            "",
            "| | turns | arrived | collisions | ms per turn p50 | p95 | max | setup (s) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            f"| Cooperative (WHCA*) | {turns} | {arrived} of {units} | 0 | "
            f"{np.percentile(ms, 50):.1f} | {np.percentile(ms, 95):.1f} | {ms.max():.1f} | "
            f"{setup:.2f} |",
            f"| independent A* | {len(alone)} | | not checked | "
            f"{np.percentile(alone, 50):.1f} | {np.percentile(alone, 95):.1f} | "
            f"{alone.max():.1f} | |",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per instance")
    parser.add_argument("--quick", action="store_true", help="the first four k only, print")
    parser.add_argument(
        "--solvers", default="prioritized,whca",
        help=f"comma-separated, of {', '.join(SOLVERS)} (CBS/ECBS and LaCAM have their own "
        "scripts, bench/mapf_cbs.py and bench/mapf_lacam.py, with their own sections)",
    )
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated")
    parser.add_argument("--game", action="store_true", help="the game loop only")
    args = parser.parse_args()
    if args.game:
        text = game_loop()
        GAME_RESULTS.write_text(text)
        print(text)
        return
    if not (mapf_dir() / "maps").is_dir():
        sys.exit(f"no MAPF benchmark data at {mapf_dir()} (set PATHCRAFT_MAPF)")
    results = {}
    for map_name in args.maps.split(","):
        for solver in args.solvers.split(","):
            results[(map_name, solver)] = sweep(map_name, solver, args.limit, args.quick)
    text = report(results, args.limit)
    if args.quick:
        print(text)
    else:
        RESULTS.write_text(text + _other_sections())
        print(f"wrote {RESULTS}")


def _other_sections() -> str:
    """The sections the CBS and LaCAM scripts wrote into the results file, kept as
    they are (this script writes only the part before them)."""
    old = RESULTS.read_text() if RESULTS.exists() else ""
    starts = [i for i in (old.find("\n<!-- cbs:"), old.find("\n## LaCAM")) if i >= 0]
    return "\n" + old[min(starts) + 1 :] if starts else ""


if __name__ == "__main__":
    main()
