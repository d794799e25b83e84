"""pathcraft's LaCAM against lacam3 (C++) and the Python peers on the MAPF benchmark.

The instances are the grid MAPF benchmark's (Stern, Sturtevant, Felner et al., SoCS
2019) in ``../shared/benchmarks/mapf``: five maps, scen files ``random-1..3``, the
k-agent instance being the first k lines; 4-connected moves plus waiting, unit costs,
vertex and edge (swap) conflicts forbidden, agents staying at their goals. Every
solution of every solver is checked by ``bench/mapf.py``'s conflict checker (written apart
from the library and from the tests) before it counts as solved.

Two phases, ``--limit`` seconds (10) per instance:

1. **First solution**, k rising on each map and scen file (steps of ``--step`` agents,
   then the whole file) until a solver fails twice in a row: pathcraft
   ``mapf.lacam(problem)`` (stops at its first solution), lacam3 with ``--no-star``
   (its first solution; the time its own log gives), and, on scen ``random-1``, the
   Python peers pymapf's ``LaCAM`` and w9-pathfinding's ``HCAStar`` (its default path
   length cap, the grid built with ``edge_collision=True``), each in a child process
   killed at the limit. Solve rate, time to the first solution (the solver's own
   clock: pathcraft's includes its distance tables, lacam3's its own preprocessing),
   sum of costs / lower bound.
2. **Refinement** on ``--refine-ks`` instance sizes per map (scen ``random-1``):
   pathcraft ``lacam(problem, refine=True)`` and lacam3 with its defaults (LaCAM*,
   refiners, scatter), both for the whole limit: sum of costs after refinement.
3. **Equal time** (``--phase equal-time``, on its own: it writes its own section), the
   Python peers on scen ``random-1``, k rising as in phase 1 until a peer fails twice
   in a row: on every instance a peer solved, pathcraft ``lacam(problem, refine=True,
   time_limit=T)`` with T the peer's own time on that instance, and again with T / 10;
   sums of costs compared. The converse: the time pathcraft needs to reach the peer's
   sum of costs, the first solution's time when that is enough, else the smallest
   refining ``time_limit`` of a doubling ladder (from twice the first solution's time
   up to ``--limit``) whose answer costs no more. Up to ``--cbs-k`` agents and
   wherever pathcraft is not lower, the instance's optimum: the bound when a solution
   reaches it, else ``mapf.cbs``'s (``--limit`` seconds).

lacam3 is Kei18/lacam3 (Okumura, AAMAS 2024), public source built outside this
repository (``cmake -B build && make -C build``; it needs its ``third_party/argparse``
submodule); give its ``main`` with ``--lacam3``. Without it, phase 1 and 2 run without
it. The machine is shared and its two cores are loaded: lacam3 runs threads, pathcraft
one thread; times are wall-clock.

Usage::

    python bench/mapf_lacam.py --lacam3 path/to/lacam3/build/main
    python bench/mapf_lacam.py --quick      # two maps, scen 1, k up to 200, no write
    python bench/mapf_lacam.py --phase equal-time   # against the peers at their time
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine, mapf_dir, write_section
from mapf import check

from pathcraft.io import read_mapf_scen
from pathcraft.mapf import Problem, cbs, lacam

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "mapf.md"
MAPS = ("random-32-32-20", "room-32-32-4", "maze-32-32-2", "empty-32-32",
        "warehouse-10-20-10-2-1")
Cell = tuple[int, int]
EQUAL_TIME = "LaCAM against the Python peers at equal time"


def read_instance(scen: Path, k: int) -> tuple[np.ndarray, list[Cell], list[Cell]]:
    """The walkable mask and the first k agents' (row, col) starts and goals."""
    grid, starts, goals = read_mapf_scen(scen, k)
    return np.isfinite(grid.cost), starts, goals


def sum_of_costs(paths: list[list[Cell]], goals: list[Cell]) -> int:
    total = 0
    for p, g in zip(paths, goals, strict=True):
        last = len(p) - 1
        while last > 0 and tuple(p[last - 1]) == tuple(g):
            last -= 1
        total += last
    return total


# ------------------------------------------------------------------ the solvers


def run_pathcraft(scen: Path, k: int, limit: float, refine: bool) -> dict[str, Any]:
    grid, starts, goals = read_mapf_scen(scen, k)
    problem = Problem(grid, starts, goals)
    result = lacam(problem, time_limit=limit, refine=refine)
    out: dict[str, Any] = {"solved": bool(result), "bound": result.lower_bound,
                           "time": result.time_s}
    if result:
        out["paths"] = result.paths
        out["first"] = result.stats["time_to_first_s"]
    return out


def run_lacam3(binary: str, scen: Path, mapfile: Path, k: int, limit: float,
               refine: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "result.txt"
        cmd = [binary, "-m", str(mapfile), "-i", str(scen), "-N", str(k), "-t", str(limit),
               "-o", str(out_file)]
        if not refine:
            cmd.append("--no-star")
        began = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=limit * 3 + 30, check=False)
        wall = time.perf_counter() - began
        if not out_file.exists():
            return {"solved": False, "time": wall}
        fields: dict[str, str] = {}
        lines = out_file.read_text().splitlines()
        for line in lines:
            if "=" in line:
                key, _, value = line.partition("=")
                fields.setdefault(key, value)
    if fields.get("solved") != "1":
        return {"solved": False, "time": wall}
    steps = []
    at = lines.index("solution=")
    for line in lines[at + 1:]:
        if ":" not in line:
            break
        cells = line.split(":", 1)[1].strip().rstrip(",")
        pairs = [pair.strip("()").split(",") for pair in cells.split("),(")]
        steps.append([(int(y), int(x)) for x, y in pairs])  # lacam3 writes (x, y)
    paths = [[steps[t][i] for t in range(len(steps))] for i in range(k)]
    return {"solved": True, "paths": paths, "time": int(fields["comp_time"]) / 1000,
            "first": int(fields["comp_time_initial_solution"]) / 1000}


PEER_CODE = {
    "pymapf": """
import pymapf
from pymapf.algorithms.lacam import LaCAM
grid = pymapf.GridMap([[0 if w else 1 for w in row] for row in walkable])
agents = [pymapf.Agent(f"a{i}", tuple(s), tuple(g)) for i, (s, g) in enumerate(zip(starts, goals))]
problem = pymapf.MAPFProblem(grid, agents)
began = time.perf_counter()
solution = LaCAM(time_limit=limit).solve(problem)
took = time.perf_counter() - began
paths = None if solution is None else [
    list(map(tuple, solution.paths[f"a{i}"])) for i in range(len(agents))
]
""",
    "w9-hca": """
from w9_pathfinding.envs import Grid
from w9_pathfinding.mapf import HCAStar
grid = Grid([[0 if w else -1 for w in row] for row in walkable], edge_collision=True)
began = time.perf_counter()
found = HCAStar(grid).mapf([(c, r) for r, c in starts], [(c, r) for r, c in goals])
took = time.perf_counter() - began
paths = [[(r, c) for c, r in p] for p in found] if found else None
""",
}


def peer_main(name: str, scen: str, k: int, limit: float) -> None:
    """In a child process: one peer on one instance, JSON on stdout."""
    walkable, starts, goals = read_instance(Path(scen), k)
    scope: dict[str, Any] = {"walkable": walkable.tolist(), "starts": starts, "goals": goals,
                             "limit": limit, "time": time}
    exec(PEER_CODE[name], scope)
    print(json.dumps({"paths": scope["paths"], "time": scope["took"]}))


def run_peer(name: str, scen: Path, k: int, limit: float) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--peer", name, "--peer-scen", str(scen),
           "--peer-k", str(k), "--limit", str(limit)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 20,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"solved": False, "time": limit, "why": "killed at the limit"}
    if done.returncode != 0 or not done.stdout.strip():
        return {"solved": False, "time": limit, "why": done.stderr.strip()[-200:]}
    data = json.loads(done.stdout.strip().splitlines()[-1])
    if data["paths"] is None or data["time"] > limit:
        return {"solved": False, "time": data["time"], "why": "none within the limit"}
    return {"solved": True, "paths": [[tuple(c) for c in p] for p in data["paths"]],
            "time": data["time"], "first": data["time"]}


# ------------------------------------------------------------------ the phases


def graded(out: dict[str, Any], walkable: np.ndarray, starts: list[Cell],
           goals: list[Cell]) -> dict[str, Any]:
    """The run with its solution checked: solved only when the checker agrees."""
    if out.get("solved"):
        why = check(out["paths"], starts, goals, walkable)
        if why:
            out = {"solved": False, "time": out["time"], "why": f"INVALID: {why}"}
        else:
            out["soc"] = sum_of_costs(out["paths"], goals)
    out.pop("paths", None)
    return out


def ladder(total: int, step: int, top: int | None) -> list[int]:
    ks = [10, 25, *range(step, total, step), total]
    return [k for k in ks if top is None or k <= top]


def phase_first(args: argparse.Namespace, base: Path) -> list[dict[str, Any]]:
    rows = []
    for name in args.maps:
        mapfile = base / "maps" / f"{name}.map"
        for number in args.scens:
            scen = base / "scen-random" / f"{name}-random-{number}.scen"
            total = len(scen.read_text().splitlines()) - 1
            solvers = ["pathcraft"] + (["lacam3"] if args.lacam3 else [])
            if number == 1 and args.peers:
                solvers += ["pymapf", "w9-hca"]
            misses = dict.fromkeys(solvers, 0)
            for k in ladder(total, args.step, args.top):
                walkable, starts, goals = read_instance(scen, k)
                bound = None
                for solver in solvers:
                    if misses[solver] >= 2:
                        continue
                    if solver == "pathcraft":
                        out = run_pathcraft(scen, k, args.limit, refine=False)
                        bound = out["bound"]
                    elif solver == "lacam3":
                        out = run_lacam3(args.lacam3, scen, mapfile, k, args.limit, False)
                    else:
                        out = run_peer(solver, scen, k, args.limit)
                    out = graded(out, walkable, starts, goals)
                    misses[solver] = 0 if out["solved"] else misses[solver] + 1
                    row = {"map": name, "scen": number, "k": k, "solver": solver,
                           "bound": bound, **out}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    return rows


def phase_refine(args: argparse.Namespace, base: Path) -> list[dict[str, Any]]:
    rows = []
    for name in args.maps:
        mapfile = base / "maps" / f"{name}.map"
        scen = base / "scen-random" / f"{name}-random-1.scen"
        total = len(scen.read_text().splitlines()) - 1
        for k in sorted({min(k, total) for k in args.refine_ks[name]}):
            walkable, starts, goals = read_instance(scen, k)
            for solver in ["pathcraft"] + (["lacam3"] if args.lacam3 else []):
                if solver == "pathcraft":
                    out = run_pathcraft(scen, k, args.limit, refine=True)
                    bound = out["bound"]
                else:
                    out = run_lacam3(args.lacam3, scen, mapfile, k, args.limit, True)
                out = graded(out, walkable, starts, goals)
                row = {"map": name, "scen": 1, "k": k, "solver": solver, "bound": bound,
                       **out}
                rows.append(row)
                print(json.dumps(row), flush=True)
    return rows


PEERS = ("pymapf", "w9-hca")


def time_to_reach(scen: Path, k: int, target: int, limit: float, walkable: np.ndarray,
                  starts: list[Cell], goals: list[Cell]) -> tuple[float | None, str]:
    """Seconds pathcraft needs to a sum of costs at most ``target``, and how: its first
    solution's time when that is enough, else the smallest refining ``time_limit`` of a
    doubling ladder whose answer costs no more (None past ``limit``)."""
    first = graded(run_pathcraft(scen, k, limit, refine=False), walkable, starts, goals)
    if not first["solved"]:
        return None, "no first solution"
    if first["soc"] <= target:
        return first["first"], "first solution"
    budget = max(2 * first["first"], 0.01)
    while budget <= limit:
        out = graded(run_pathcraft(scen, k, budget, refine=True), walkable, starts, goals)
        if out["solved"] and out["soc"] <= target:
            return budget, "refined"
        budget *= 2
    return None, f"not within {limit:g} s"


def optimum(scen: Path, k: int, bound: int, best: int, args: argparse.Namespace,
            known: dict[tuple[str, int], tuple[int | None, str]]) -> tuple[int | None, str]:
    """The instance's least sum of costs when known: the bound when a solution reaches
    it, else CBS's (up to ``--cbs-k`` agents; ``known`` keeps CBS's answers)."""
    if best == bound:
        return bound, "bound"
    if k > args.cbs_k:
        return None, "-"
    if (scen.name, k) not in known:
        grid, starts, goals = read_mapf_scen(scen, k)
        result = cbs(Problem(grid, starts, goals), time_limit=args.limit)
        known[scen.name, k] = ((result.sum_of_costs, "CBS") if result
                               else (None, f"CBS: {result.status}"))
    return known[scen.name, k]


def phase_equal_time(args: argparse.Namespace, base: Path) -> list[dict[str, Any]]:
    rows = []
    known: dict[tuple[str, int], tuple[int | None, str]] = {}
    for name in args.maps:
        scen = base / "scen-random" / f"{name}-random-1.scen"
        total = len(scen.read_text().splitlines()) - 1
        misses = dict.fromkeys(PEERS, 0)
        for k in ladder(total, args.step, args.top):
            walkable, starts, goals = read_instance(scen, k)
            for peer in PEERS:
                if misses[peer] >= 2:
                    continue
                theirs = graded(run_peer(peer, scen, k, args.limit), walkable, starts, goals)
                misses[peer] = 0 if theirs["solved"] else misses[peer] + 1
                if not theirs["solved"]:
                    continue
                row: dict[str, Any] = {"map": name, "k": k, "peer": peer,
                                       "peer_time": theirs["time"], "peer_soc": theirs["soc"]}
                for key, share in (("equal", 1.0), ("tenth", 0.1)):
                    out = run_pathcraft(scen, k, theirs["time"] * share, refine=True)
                    row["bound"] = out["bound"]
                    out = graded(out, walkable, starts, goals)
                    row[f"{key}_time"] = out["time"]
                    row[f"{key}_soc"] = out.get("soc")
                    row[f"{key}_why"] = out.get("why", "")
                row["reach"], row["reach_how"] = time_to_reach(
                    scen, k, theirs["soc"], args.limit, walkable, starts, goals)
                best = min(row["peer_soc"], row["equal_soc"] or row["peer_soc"])
                if (k <= args.cbs_k or best == row["bound"]
                        or row["equal_soc"] is None or row["equal_soc"] >= row["peer_soc"]):
                    row["optimum"], row["optimum_how"] = optimum(
                        scen, k, row["bound"], best, args, known)
                rows.append(row)
                print(json.dumps(row), flush=True)
    return rows


def _verdict(mine: int | None, theirs: int) -> str:
    if mine is None:
        return "none"
    return "lower" if mine < theirs else "equal" if mine == theirs else "higher"


def report_equal_time(args: argparse.Namespace, rows: list[dict[str, Any]],
                      load: tuple[float, float]) -> str:
    """The equal-time section's body (its title is the caller's)."""
    out = [
        f"`python bench/mapf_lacam.py --phase equal-time` at {git_rev()}, {machine()}; "
        f"pymapf {_version('pymapf')} (`LaCAM`), w9-pathfinding {_version('w9_pathfinding')} "
        f"(`HCAStar`); load average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at "
        "the end, on the two cores (other jobs ran: times are wall-clock and inflated "
        "alike for both sides, each instance's runs back to back). Scen `random-1` of each "
        f"map, k = 10, 25, then steps of {args.step} until a peer fails twice in a row "
        f"({args.limit:g} s each, in a child process). On every instance a peer solved, "
        "pathcraft `lacam(problem, refine=True, time_limit=T)` with T the peer's own time "
        "(its solver's clock, without building its problem; pathcraft's includes its "
        "distance tables, not building the `Problem`), and with T / 10. Every solution "
        "passed the bench's own conflict checker (an invalid one would count as none). "
        "*lower / equal / higher*: pathcraft's sum of costs against the peer's; *none*: "
        "no solution within the time. *ratio*: pathcraft's sum of costs / the peer's "
        "(median, and the worst: the largest). *reach*: the time pathcraft needs to a "
        "sum of costs at most the peer's (its first solution's time when that is "
        "enough, else the smallest refining limit on a doubling ladder from twice the "
        f"first solution's time up to {args.limit:g} s), as a share of the peer's time.",
        "",
        "| map | peer | instances | at T: lower / equal / higher / none | ratio at T "
        "(median, worst) | at T / 10: lower / equal / higher / none | ratio at T / 10 "
        "(median, worst) | reached | reach / T (median, worst) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in args.maps:
        for peer in PEERS:
            mine = [r for r in rows if r["map"] == name and r["peer"] == peer]
            if not mine:
                continue
            cells = []
            for key in ("equal", "tenth"):
                verdicts = [_verdict(r[f"{key}_soc"], r["peer_soc"]) for r in mine]
                counts = " / ".join(str(verdicts.count(v))
                                    for v in ("lower", "equal", "higher", "none"))
                ratios = [r[f"{key}_soc"] / r["peer_soc"] for r in mine
                          if r[f"{key}_soc"] is not None]
                cells += [counts, f"{_median(ratios):.3f}, {max(ratios, default=math.nan):.3f}"]
            reached = [r["reach"] / r["peer_time"] for r in mine if r["reach"] is not None]
            out.append(
                f"| {name} | {peer} | {len(mine)} | {' | '.join(cells)} | "
                f"{len(reached)} / {len(mine)} | "
                f"{_median(reached):.3f}, {max(reached, default=math.nan):.3f} |")
    out += [
        "",
        "Every instance (times in ms; *optimum*, for k up to "
        f"{args.cbs_k} and wherever pathcraft was not lower at T: the bound when a solution "
        "reaches it, else CBS's proven optimum):",
        "",
        "| map | k | peer | peer time | bound | peer SoC | pathcraft SoC at T | at T / 10 "
        "| reach | optimum |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        soc = {key: "-" if r[f"{key}_soc"] is None else str(r[f"{key}_soc"])
               for key in ("equal", "tenth")}
        reach = ("-" if r["reach"] is None
                 else f"{r['reach'] * 1000:.0f} ({r['reach_how']})")
        best = (f"{r['optimum']} ({r['optimum_how']})" if r.get("optimum") is not None
                else r.get("optimum_how", ""))
        out.append(f"| {r['map']} | {r['k']} | {r['peer']} | {r['peer_time'] * 1000:.0f} | "
                   f"{r['bound']} | {r['peer_soc']} | {soc['equal']} | {soc['tenth']} | "
                   f"{reach} | {best} |")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ the report


def _median(values: list[float]) -> float:
    return float(np.median(values)) if values else float("nan")


def report(args: argparse.Namespace, first: list[dict[str, Any]],
           refined: list[dict[str, Any]]) -> str:
    solvers = []
    for r in first:
        if r["solver"] not in solvers:
            solvers.append(r["solver"])
    out = [
        "## LaCAM and PIBT (`mapf.lacam`) against lacam3 and the Python peers",
        "",
        f"`python bench/mapf_lacam.py` at {git_rev()}, {machine()}; lacam3 = Kei18/lacam3 "
        "(public source, built with cmake outside the repository); pymapf "
        f"{_version('pymapf')}, w9-pathfinding {_version('w9_pathfinding')}. "
        f"{args.limit:g} s per instance; every solution checked by the bench's own conflict "
        "checker (an invalid one counts as a failure). Rules: 4-connected moves plus wait, "
        "unit costs, vertex and swap conflicts, agents stay at their goals; cost = sum of "
        "costs; bound = sum of the agents' BFS distances. The machine's two cores are "
        "shared with other jobs: times are wall-clock and noisy; lacam3 runs threads.",
        "",
        "### First solution, k rising until a solver fails twice in a row",
        "",
        "Per map and solver: instances solved / tried (scen files "
        f"{', '.join(map(str, args.scens))}, k = 10, 25, then steps of {args.step} up to the "
        "whole file; the Python peers on scen 1 only), the largest k solved, the median time "
        "to the first solution and the median sum of costs / bound, both over the "
        "instances every solver listed solved.",
        "",
        "| map | solver | solved | largest k | first solution (median) | cost / bound (median) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in args.maps:
        mine = [r for r in first if r["map"] == name]
        for solver in solvers:
            rows = [r for r in mine if r["solver"] == solver]
            if not rows:
                continue
            keys = {(r["scen"], r["k"]) for r in rows if r["solved"]}
            for other in solvers:
                theirs = [r for r in mine if r["solver"] == other]
                if theirs and other in ("pathcraft", "lacam3"):
                    keys &= {(r["scen"], r["k"]) for r in theirs if r["solved"]}
            common = [r for r in rows if r["solved"] and (r["scen"], r["k"]) in keys]
            solved = [r for r in rows if r["solved"]]
            out.append(
                f"| {name} | {solver} | {len(solved)} / {len(rows)} | "
                f"{max((r['k'] for r in solved), default=0)} | "
                f"{_median([r['first'] for r in common]) * 1000:.1f} ms | "
                f"{_median([r['soc'] / r['bound'] for r in common]):.3f} |"
            )
    invalid = [r for r in first + refined if str(r.get("why", "")).startswith("INVALID")]
    out += ["", f"Invalid solutions: {len(invalid)}"
            + "".join(f"; {r['solver']} {r['map']} k={r['k']}: {r['why']}" for r in invalid)]
    out += [
        "",
        "### After refinement (scen 1, the whole limit each)",
        "",
        "| map | k | bound | pathcraft first | pathcraft cost / bound | lacam3 first | "
        "lacam3 cost / bound | pathcraft / lacam3 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in args.maps:
        for k in sorted({r["k"] for r in refined if r["map"] == name}):
            pc = next((r for r in refined if r["map"] == name and r["k"] == k
                       and r["solver"] == "pathcraft"), None)
            l3 = next((r for r in refined if r["map"] == name and r["k"] == k
                       and r["solver"] == "lacam3"), None)
            if pc is None:
                continue

            def cell(r: dict[str, Any] | None, key: str) -> str:
                if r is None or not r["solved"]:
                    return "-"
                if key == "first":
                    return f"{r['first'] * 1000:.0f} ms"
                return f"{r['soc'] / r['bound']:.3f}"

            ratio = (f"{pc['soc'] / l3['soc']:.3f}" if pc["solved"] and l3 and l3["solved"]
                     else "-")
            out.append(f"| {name} | {k} | {pc['bound']} | {cell(pc, 'first')} | "
                       f"{cell(pc, 'soc')} | {cell(l3, 'first')} | {cell(l3, 'soc')} | "
                       f"{ratio} |")
    return "\n".join(out) + "\n"


def _version(module: str) -> str:
    try:
        from importlib.metadata import version

        return version(module.replace("_", "-"))
    except Exception:
        return "(not installed)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lacam3", help="lacam3's built main program")
    parser.add_argument("--maps", nargs="+", default=list(MAPS))
    parser.add_argument("--scens", nargs="+", type=int, default=[1, 2, 3])
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--step", type=int, default=50)
    parser.add_argument("--top", type=int, default=None, help="largest k tried")
    parser.add_argument("--no-peers", dest="peers", action="store_false")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", help="also write every run as JSON lines here")
    parser.add_argument("--phase", choices=("both", "first", "refine", "equal-time"),
                        default="both",
                        help="first or refine: that phase only (prints, writes nothing); "
                        "equal-time: against the peers at their time (writes its section)")
    parser.add_argument("--cbs-k", type=int, default=25,
                        help="equal-time: CBS's optimum up to this many agents")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--peer-scen", help=argparse.SUPPRESS)
    parser.add_argument("--peer-k", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        peer_main(args.peer, args.peer_scen, args.peer_k, args.limit)
        return
    if args.quick:
        args.maps, args.scens, args.top = ["random-32-32-20", "room-32-32-4"], [1], 200
    args.refine_ks = {name: [100, 10_000] for name in args.maps}
    args.refine_ks["warehouse-10-20-10-2-1"] = [200, 500]
    base = mapf_dir()
    if not (base / "maps").is_dir():
        sys.exit(f"no MAPF benchmark at {base}: set PATHCRAFT_MAPF")
    if args.phase == "equal-time":
        began = os.getloadavg()[0]
        rows = phase_equal_time(args, base)
        body = report_equal_time(args, rows, (began, os.getloadavg()[0]))
        print(body)
        if args.json:
            Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in rows))
        if not args.quick:
            write_section(RESULTS, EQUAL_TIME, body)
        return
    first = phase_first(args, base) if args.phase != "refine" else []
    refined = phase_refine(args, base) if args.phase != "first" else []
    text = report(args, first, refined)
    print(text)
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in first + refined))
    if not args.quick and args.phase == "both":
        title, _, body = text.partition("\n")
        write_section(RESULTS, title.removeprefix("## "), body)


if __name__ == "__main__":
    main()
