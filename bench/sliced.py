"""Searches spread over frames: the compiled sliced search against the pure-Python one
and against the blocking call, and a request queue serving 1,000 agents.

Part 1, on den520d (Moving AI, 8-connected, no corner cutting): the same scenarios
(evenly spaced over the file) run three ways, A* with the octile heuristic, 200
expansions per frame for the sliced ones:

- **compiled sliced**: ``grid.start_search(s, g)`` then ``step(200)`` until it ends;
- **Python sliced**: ``pathcraft.search.SlicedSearch`` (the generic engine, the only
  sliced search before) over a ``neighbors`` callable of the same grid, ``step(200)``;
- **blocking**: ``grid.astar(s, g)``.

All three expand the same nodes in the same order (the kernels follow the generic
engine's order), so expansions are checked equal and time per expansion compares like
with like; every cost is checked against the published optimum. The goals: the
compiled sliced search >= 20x faster per expansion than the Python one, and <= 5% over
the blocking call (medians of per-scenario ratios over interleaved repeats).

Part 2: ``PathRequestQueue`` with a fixed budget of expansions per frame serving 1,000
agents on a 512 x 512 map (random512-10-0 and Boston_0_512): each agent asks for a
path between the start and goal of one Moving AI scenario (1,000 scenarios spread over
the file), all at frame 0; frames run until every request is served. Reported: frames,
frame time (median, p95, max), paths and expansions per second of frame time, and the
workspaces the pool held (a search holds one only while it runs). Every served path's
cost is checked against the published optimum.

Usage::

    python bench/sliced.py            # writes bench/results/sliced.md (~3 min)
    python bench/sliced.py --quick    # fewer scenarios and agents, prints only
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load, select, tolerance_ok

from pathcraft import Grid, _sliced
from pathcraft.agents import PathRequestQueue
from pathcraft.search import SlicedSearch

SQRT2 = math.sqrt(2.0)
FRAME = 200


def grid_callables(walkable: np.ndarray) -> tuple[Any, Any]:
    """``neighbors`` and an octile ``heuristic`` factory for the generic engine, with
    the grid kernel's rule and neighbour order (up, down, left, right, diagonals)."""
    rows, cols = walkable.shape
    free = walkable.tolist()
    straight = ((-1, 0), (1, 0), (0, -1), (0, 1))
    diagonal = ((-1, -1), (-1, 1), (1, -1), (1, 1))

    def neighbors(cell: tuple[int, int]) -> list[tuple[tuple[int, int], float]]:
        r, c = cell
        out = []
        for dr, dc in straight:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and free[rr][cc]:
                out.append(((rr, cc), 1.0))
        for dr, dc in diagonal:
            rr, cc = r + dr, c + dc
            if (
                0 <= rr < rows and 0 <= cc < cols and free[rr][cc]
                and free[rr][c] and free[r][cc]
            ):  # fmt: skip
                out.append(((rr, cc), SQRT2))
        return out

    def heuristic_to(goal: tuple[int, int]) -> Any:
        gr, gc = goal

        def h(cell: tuple[int, int]) -> float:
            dr = abs(cell[0] - gr)
            dc = abs(cell[1] - gc)
            return max(dr, dc) + (SQRT2 - 1.0) * min(dr, dc)

        return h

    return neighbors, heuristic_to


def run_steps(search: Any, frame: int) -> Any:
    while search.step(frame) == "in_progress":
        pass
    return search.result


def part_sliced(scenarios: int, python_scenarios: int, repeats: int) -> list[str]:
    data = load("dao/den520d")
    grid = Grid.from_walkable(data.walkable)
    neighbors, heuristic_to = grid_callables(data.walkable)
    pick = select(len(data.optimal), scenarios)
    py_pick = set(select(len(data.optimal), python_scenarios).tolist())
    per_exp: dict[str, list[float]] = {"compiled": [], "python": [], "blocking": []}
    ratio_block: list[float] = []
    long_block: list[float] = []  # scenarios of 10 frames or more
    ratio_python: list[float] = []
    expansions = 0
    for i in pick.tolist():
        s = tuple(int(x) for x in data.starts[i])
        g = tuple(int(x) for x in data.goals[i])
        want = float(data.optimal[i])
        t_sliced: list[float] = []
        t_block: list[float] = []
        for _ in range(repeats):  # interleaved, alternating which goes first
            for kind in ("sliced", "blocking") if _ % 2 == 0 else ("blocking", "sliced"):
                t0 = time.perf_counter()
                if kind == "sliced":
                    result = run_steps(grid.start_search(s, g), FRAME)
                    t_sliced.append(time.perf_counter() - t0)
                    sliced = result
                else:
                    blocking = grid.astar(s, g)
                    t_block.append(time.perf_counter() - t0)
        if not (tolerance_ok(sliced.cost, want) and tolerance_ok(blocking.cost, want)):
            raise AssertionError(f"scenario {i}: {sliced.cost}, {blocking.cost} != {want}")
        if sliced.expanded != blocking.expanded or not np.array_equal(sliced.path, blocking.path):
            raise AssertionError(f"scenario {i}: the sliced and blocking answers differ")
        n = max(sliced.expanded, 1)
        expansions += n
        per_exp["compiled"].append(min(t_sliced) / n)
        per_exp["blocking"].append(min(t_block) / n)
        ratio_block.append(min(t_sliced) / min(t_block))
        if n >= 10 * FRAME:
            long_block.append(min(t_sliced) / min(t_block))
        if i in py_pick:
            t0 = time.perf_counter()
            py = run_steps(SlicedSearch(s, g, neighbors, heuristic_to(g)), FRAME)
            t_py = time.perf_counter() - t0
            if py.expanded != sliced.expanded or not tolerance_ok(py.cost, want):
                raise AssertionError(
                    f"scenario {i}: Python sliced {py.expanded} expansions, cost {py.cost}; "
                    f"compiled {sliced.expanded}, optimum {want}"
                )
            per_exp["python"].append(t_py / n)
            ratio_python.append(t_py / min(t_sliced))
    med = {k: statistics.median(v) * 1e9 for k, v in per_exp.items()}
    speed = statistics.median(ratio_python)
    over = (statistics.median(ratio_block) - 1.0) * 100
    over_long = (statistics.median(long_block) - 1.0) * 100
    return [
        "## 1. den520d, A* sliced 200 expansions per frame",
        "",
        f"{len(pick)} scenarios (evenly spaced over the file; the Python sliced search on "
        f"{len(ratio_python)} of them), {expansions:,} expansions in all, best of {repeats} "
        "interleaved runs per scenario for the compiled ones. Every answer has the "
        "published optimal cost; the three expand the same nodes.",
        "",
        "| search | median ns per expansion | ratio |",
        "|---|---|---|",
        f"| compiled sliced, `grid.start_search(...).step({FRAME})` | {med['compiled']:.0f} | 1 |",
        f"| blocking `grid.astar` | {med['blocking']:.0f} | the step API costs "
        f"{over:+.1f}% (median per scenario), {over_long:+.1f}% on the {len(long_block)} "
        f"searches of 10 frames or more |",
        f"| Python sliced, `SlicedSearch(...).step({FRAME})` | {med['python']:.0f} | "
        f"{speed:.0f}x slower (median per scenario) |",
        "",
        f"Goals: >= 20x faster than the Python sliced search per expansion "
        f"({'met' if speed >= 20 else 'NOT met'}: {speed:.0f}x); step API <= 5% over the "
        f"blocking call ({'met' if over <= 5 else 'NOT met'} per scenario: {over:+.1f}%; "
        f"{'met' if over_long <= 5 else 'NOT met'} for searches of 10+ frames: "
        f"{over_long:+.1f}%). A short search is one or two steps: its extra cost is the "
        "fixed price of the search object (options bound, a pooled workspace taken and "
        "given back, the result built), not the steps.",
        "",
    ]


def part_queue(name: str, agents: int, budget: int) -> list[str]:
    data = load(name)
    grid = Grid.from_walkable(data.walkable)
    pick = select(len(data.optimal), agents)
    _sliced.release_pooled_workspaces()
    queue = PathRequestQueue(budget=budget)
    t0 = time.perf_counter()
    for k, i in enumerate(pick.tolist()):
        queue.request(k, grid, tuple(data.starts[i]), tuple(data.goals[i]))
    t_submit = time.perf_counter() - t0
    frames: list[float] = []
    served: dict[Any, Any] = {}
    while len(queue):
        t0 = time.perf_counter()
        served.update(queue.update())
        frames.append(time.perf_counter() - t0)
    expanded = 0
    for k, i in enumerate(pick.tolist()):
        result = served[k]
        expanded += result.expanded
        if not tolerance_ok(result.cost, float(data.optimal[i])):
            raise AssertionError(f"{name} scenario {i}: {result.cost} != {data.optimal[i]}")
    pooled = sum(len(v) for v in _sliced._pool.values())
    t0 = time.perf_counter()
    for i in pick.tolist():
        grid.astar(tuple(data.starts[i]), tuple(data.goals[i]))
    t_blocking = time.perf_counter() - t0
    total = sum(frames)
    ms = np.asarray(frames) * 1e3
    rows, cols = data.walkable.shape
    return [
        f"| {name} ({rows}x{cols}) | {len(pick):,} | {budget:,} | {len(frames):,} | "
        f"{np.median(ms):.2f} | {np.percentile(ms, 95):.2f} | {ms.max():.2f} | "
        f"{len(pick) / total:,.0f} | {expanded / total / 1e6:.2f} | "
        f"{total / t_blocking:.2f}x | {pooled} | {t_submit * 1e3:.0f} |"
    ]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--scenarios", type=int, default=300)
    p.add_argument("--python-scenarios", type=int, default=40)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--agents", type=int, default=1000)
    p.add_argument("--budget", type=int, default=20_000, help="expansions per frame")
    args = p.parse_args(argv)
    if args.quick:
        args.scenarios, args.python_scenarios, args.repeats, args.agents = 30, 6, 2, 100
    out = [
        "# Searches spread over frames",
        "",
        f"`python bench/sliced.py` on {machine()}; commit {git_rev()}.",
        "",
    ]
    out += part_sliced(args.scenarios, args.python_scenarios, args.repeats)
    print("\n".join(out), flush=True)
    queue_rows = [
        f"## 2. `PathRequestQueue`: {args.agents:,} agents, {args.budget:,} expansions per frame",
        "",
        "Every agent requests its path at frame 0 (`queue.request(key, grid, start, "
        "goal)`: a compiled A* search, checked, not yet run); each `update()` spends the "
        "budget on the oldest requests first. Frame times are one `update()` each; "
        "throughput is per second of frame time; 'frame time / blocking loop' compares "
        "all frames with a plain loop of `grid.astar` over the same queries. Workspaces: "
        "how many the pool kept at the end (a search takes one at its first step and "
        "gives it back when it ends, so 1,000 queued agents never hold 1,000 of them: "
        "about 7 MB each on these maps).",
        "",
        "| map | agents | budget | frames | median frame ms | p95 ms | max ms | paths/s | "
        "M expansions/s | frame time / blocking loop | workspaces | submit ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in ("random/random512-10-0", "street/Boston_0_512"):
        queue_rows += part_queue(name, args.agents, args.budget)
        print(queue_rows[-1], flush=True)
    text = "\n".join([*out, *queue_rows]) + "\n"
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "sliced.md").write_text(text)


if __name__ == "__main__":
    main()
