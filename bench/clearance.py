"""Units of several sizes on one grid: what a size-k query and a clearance repair cost.

On Moving AI maps:

- **queries**: the same (start, goal) cells asked three ways, in interleaved rounds:
  ``grid.find_path(s, g, algorithm=a)`` (size 1, the plain call),
  ``grid.find_path(s, g, algorithm=a, size=k)`` and the size's view asked directly,
  ``grid.for_size(k).find_path(s, g, algorithm=a)`` (the view fetched beforehand), for
  ``astar`` and ``jps``, once the view is built (it is built once per grid and size,
  then kept; its build time is reported apart). Two sets of cells per map: the map's
  own scenarios (evenly spaced over their lengths) whose both ends a unit of the
  largest size fits and joins, and one-step queries (a start and its right neighbour),
  where the search is nothing and the call is everything. A bigger unit takes other
  (longer) paths and may expand more cells, so the table also gives the ratio of
  median times per expanded cell; *size=k / view* is the size machinery's own cost
  (the same search, the same answer). Every answer is checked: the size-k cost against
  the view's, inside the timed rounds' set-up.
- **repair**: a random walkable cell turned into a wall and back, with the clearance
  and the views of sizes 2 and 3 kept: the time of the repair (``grid[r, c] = v`` then
  ``grid.clearance``, which repairs the clearance and both views, minus the same
  assignment on a grid with no views) against recomputing the clearance and both
  views from scratch.

Usage::

    python bench/clearance.py          # writes bench/results/clearance.md (~3 min)
    python bench/clearance.py --quick  # one map, prints only
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load, select

from pathcraft import Grid
from pathcraft._core import clearance as kernel

MAPS = (
    "dao/den520d",
    "dao/arena2",
    "room/32room_000",
    "random/random512-10-0",
    "wc3maps512/battleground",
    "street/Boston_0_512",
)
SIZES = (2, 3, 4)
QUERIES = 40
#: Rounds: twice each order of the three ways (warm caches favour whichever comes
#: after a way that ran the same search).
ROUNDS = 12
#: Calls per timing of a one-step query (one call is about a microsecond).
STEP_REPS = 40
EDITS = 200
ALGORITHMS = ("astar", "jps")


def timed(call: object, *args: object, **kwargs: object) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = call(*args, **kwargs)  # type: ignore[operator]
    return time.perf_counter() - t0, out


def best_of(repeats: int, call: object, *args: object, **kwargs: object) -> tuple[float, object]:
    """The fastest of ``repeats`` runs (the machine is shared) and the last answer."""
    runs = [timed(call, *args, **kwargs) for _ in range(repeats)]
    return min(t for t, _ in runs), runs[-1][1]


Pair = tuple[tuple[int, int], tuple[int, int]]


def scenario_pairs(data: object, grid: Grid, rng: np.random.Generator) -> tuple[list[Pair], int]:
    """Up to QUERIES of the map's scenarios, evenly spaced over their lengths, that a
    unit of the largest size can travel (both ends fit, and they are joined), then
    pairs drawn at random among the cells it fits (joined too) up to QUERIES; and how
    many of them are scenarios."""
    view = grid.for_size(max(SIZES))
    starts, goals = data.starts, data.goals  # type: ignore[attr-defined]
    fits = grid.clearance >= max(SIZES)
    found: list[Pair] = []
    for i in select(len(starts), 20 * QUERIES):
        s, g = tuple(int(x) for x in starts[i]), tuple(int(x) for x in goals[i])
        if s != g and fits[s] and fits[g] and view.astar(s, g):
            found.append((s, g))  # type: ignore[arg-type]
    pairs = [found[i] for i in select(len(found), QUERIES)] if found else []
    scenarios = len(pairs)
    cells = np.argwhere(fits)
    while len(pairs) < QUERIES:  # maps whose scenarios a big unit seldom travels
        s, g = (tuple(int(x) for x in cells[i]) for i in rng.integers(len(cells), size=2))
        if s != g and view.astar(s, g):
            pairs.append((s, g))  # type: ignore[arg-type]
    return pairs, scenarios


def step_pairs(grid: Grid, rng: np.random.Generator) -> list[Pair]:
    """QUERIES one-step queries: a cell and its right neighbour, both fitting the
    largest unit."""
    fits = grid.clearance >= max(SIZES)
    both = np.argwhere(fits[:, :-1] & fits[:, 1:])
    cells = [tuple(int(x) for x in both[i]) for i in rng.integers(len(both), size=QUERIES)]
    return [((r, c), (r, c + 1)) for r, c in cells]


def timed_calls(call: object, reps: int, *args: object, **kwargs: object) -> float:
    """The time of one call, from ``reps`` calls in a row."""
    t0 = time.perf_counter()
    for _ in range(reps):
        call(*args, **kwargs)  # type: ignore[operator]
    return (time.perf_counter() - t0) / reps


def compare(grid: Grid, pairs: list[Pair], algorithm: str, k: int, reps: int) -> dict[str, float]:
    """Medians over ``pairs`` of the three ways' times (each pair's time the median of
    ROUNDS interleaved rounds) and of the per-pair ratios."""
    view = grid.for_size(k)
    ways = {
        "size 1": (grid.find_path, {}),
        "size=k": (grid.find_path, {"size": k}),
        "view": (view.find_path, {}),
    }
    expanded = {}
    for s, g in pairs:  # the answers, checked; the plans made before timing
        one, sized = grid.find_path(s, g, algorithm=algorithm), grid.find_path(
            s, g, algorithm=algorithm, size=k
        )
        direct = view.find_path(s, g, algorithm=algorithm)
        assert sized.cost == direct.cost and sized.expanded == direct.expanded, (s, g)
        expanded[(s, g)] = (max(one.expanded, 1), max(sized.expanded, 1))
    times: dict[str, dict[Pair, list[float]]] = {w: {p: [] for p in pairs} for w in ways}
    orders = list(itertools.permutations(ways))
    for r in range(ROUNDS):
        for s, g in pairs:
            for w in orders[r % len(orders)]:  # interleaved, in every order in turn
                call, extra = ways[w]
                times[w][(s, g)].append(timed_calls(call, reps, s, g, algorithm=algorithm, **extra))
    med = {w: {p: statistics.median(t) for p, t in times[w].items()} for w in ways}
    return {
        "size 1": statistics.median(med["size 1"].values()),
        "size=k": statistics.median(med["size=k"].values()),
        "view": statistics.median(med["view"].values()),
        "ratio": statistics.median(med["size=k"][p] / med["size 1"][p] for p in pairs),
        "overhead": statistics.median(med["size=k"][p] / med["view"][p] for p in pairs),
        "per expansion": statistics.median(
            (med["size=k"][p] / expanded[p][1]) / (med["size 1"][p] / expanded[p][0])
            for p in pairs
        ),
    }


def query_rows(
    name: str, data: object, grid: Grid, rng: np.random.Generator, ratios: dict[str, list[float]]
) -> list[str]:
    rows = []
    (scenarios, taken), steps = scenario_pairs(data, grid, rng), step_pairs(grid, rng)
    for algorithm in ALGORITHMS:
        for k in SIZES:
            build = min(timed(Grid.for_size, Grid(grid.cost), k)[0] for _ in range(3))
            long = compare(grid, scenarios, algorithm, k, 1)
            short = compare(grid, steps, algorithm, k, STEP_REPS)
            ratios["long"].append(long["ratio"])
            ratios["one-step"].append(short["ratio"])
            rows.append(
                f"| {name} | {algorithm} | {k} | {taken} + {len(scenarios) - taken} | "
                f"{long['size 1'] * 1e6:.1f} | "
                f"{long['size=k'] * 1e6:.1f} | {long['view'] * 1e6:.1f} | {long['ratio']:.2f}x | "
                f"{long['overhead']:.2f}x | {long['per expansion']:.2f}x | "
                f"{short['size 1'] * 1e6:.2f} | {short['size=k'] * 1e6:.2f} | "
                f"{short['view'] * 1e6:.2f} | {short['ratio']:.2f}x | {build * 1e3:.1f} |"
            )
    return rows


def stepped(grid: Grid, s: object, g: object, **options: object) -> object:
    search = grid.start_search(s, g, **options)  # type: ignore[arg-type]
    search.step()
    return search.result


def entry_rows(grid: Grid, rng: np.random.Generator) -> list[str]:
    """Every entry that takes ``size``, on one-step queries: size 1 against size 2
    (batches: per query, 64 queries per call)."""
    pairs = step_pairs(grid, rng)[:8]
    starts, goals = [p[0] for p in pairs] * 8, [p[1] for p in pairs] * 8
    entries: dict[str, tuple[object, tuple[object, ...], dict[str, object], int]] = {
        "find_path": (grid.find_path, (), {}, 1),
        "astar": (grid.astar, (), {}, 1),
        "greedy": (grid.greedy, (), {}, 1),
        "dijkstra": (grid.dijkstra, (), {}, 1),
        "jps": (grid.jps, (), {}, 1),
        "jps(fill=False)": (grid.jps, (), {"fill": False}, 1),
        "path_cost": (grid.path_cost, (), {}, 1),
        "start_search + step": (stepped, (grid,), {}, 1),
        "find_paths (64, workers=1)": (grid.find_paths, (), {"workers": 1}, len(starts)),
        "path_costs (64, workers=1)": (grid.path_costs, (), {"workers": 1}, len(starts)),
    }
    rows = []
    for name, (call, lead, extra, per) in entries.items():
        batch = per > 1
        times: dict[int, list[float]] = {1: [], 2: []}
        for r in range(ROUNDS):
            for k in (1, 2) if r % 2 else (2, 1):
                sized = {} if k == 1 else {"size": k}
                if batch:
                    args: tuple[object, ...] = (*lead, starts, goals)
                    t = timed_calls(call, 4, *args, **extra, **sized) / per
                else:
                    t = statistics.median(
                        timed_calls(call, STEP_REPS, *lead, s, g, **extra, **sized)
                        for s, g in pairs
                    )
                times[k].append(t)
        one, two = statistics.median(times[1]), statistics.median(times[2])
        rows.append(f"| {name} | {one * 1e6:.2f} | {two * 1e6:.2f} | {two / one:.2f}x |")
    return rows


def edit_and_repair(grid: Grid, cell: tuple[int, int], value: float) -> None:
    """An edit, then the clearance asked for: the views are repaired when next used."""
    grid[cell] = value
    grid.clearance  # noqa: B018


def repair_row(name: str, grid: Grid, rng: np.random.Generator) -> str:
    plain = Grid(grid.cost)
    views = Grid(grid.cost)
    views.for_size(2), views.for_size(3)
    free = np.argwhere(np.isfinite(grid.cost))
    cells = [tuple(int(x) for x in free[i]) for i in rng.integers(len(free), size=EDITS)]
    with_views, without = [], []
    for cell in cells:
        for value in (np.inf, 1.0):
            with_views.append(timed(edit_and_repair, views, cell, value)[0])
            without.append(timed(plain.__setitem__, cell, value)[0])
    repair = max(statistics.median(with_views) - statistics.median(without), 1e-9)
    padded = grid.padded
    clear = np.empty((padded.shape[0] - 1, padded.shape[1] - 1), dtype=np.int32)
    full = []
    for _ in range(5):
        t0 = time.perf_counter()
        kernel.compute(padded, clear)
        for k in (2, 3):
            out = np.full_like(padded, np.inf)
            kernel.unit_costs(padded, clear, k, out, 0, padded.shape[0], 0, padded.shape[1])
        full.append(time.perf_counter() - t0)
    kernel_only = []
    for cell in cells[:50]:
        work = padded.copy()
        clear2 = np.empty_like(clear)
        kernel.compute(work, clear2)
        work[cell[0] + 1, cell[1] + 1] = np.inf
        t0 = time.perf_counter()
        kernel.repair(work, clear2, cell[0], cell[0], cell[1], cell[1])
        kernel_only.append(time.perf_counter() - t0)
    rebuild = statistics.median(full)
    return (
        f"| {name} | {statistics.median(kernel_only) * 1e6:.1f} | {repair * 1e6:.1f} | "
        f"{rebuild * 1e6:.0f} | {rebuild / repair:.0f}x | "
        f"{statistics.median(without) * 1e6:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    maps = MAPS[:1] if args.quick else MAPS
    rng = np.random.default_rng(17)
    queries, repairs = [], []
    ratios: dict[str, list[float]] = {"long": [], "one-step": []}
    entries: list[str] = []
    for name in maps:
        data = load(name)
        grid = Grid.from_walkable(data.walkable)
        if not entries:
            entries = entry_rows(grid, rng)
            print(*entries, sep="\n", flush=True)
        queries += query_rows(name, data, grid, rng, ratios)
        repairs.append(repair_row(name, grid, rng))
        print(*queries[-len(ALGORITHMS) * len(SIZES) :], repairs[-1], sep="\n", flush=True)
    summary = ", ".join(
        f"{kind} queries: median {statistics.median(r):.2f}x (from {min(r):.2f}x to {max(r):.2f}x)"
        for kind, r in ratios.items()
    )
    report = "\n".join(
        [
            "# Units of several sizes: size-k queries and clearance repair",
            "",
            f"`python bench/clearance.py` on {machine()}; commit {git_rev()}.",
            "",
            f"`find_path(s, g, size=k)` against `find_path(s, g)` (size 1) and against "
            f"the size's view asked directly, `grid.for_size(k).find_path(s, g)`, on the "
            f"same cells: {QUERIES} long queries, the map's scenarios that a unit of size "
            f"{max(SIZES)} can travel, evenly spaced over their lengths, then pairs drawn "
            "at random among the cells it fits and joined by its view where the scenarios "
            "give fewer (*pairs*: scenarios + drawn; one call per timing), and "
            f"{QUERIES} "
            f"one-step queries (*one step*, {STEP_REPS} calls per timing). {ROUNDS} "
            "interleaved rounds; each pair's time is the median of its rounds; a row "
            "gives medians over the pairs, in microseconds. *size=k / size 1* and "
            "*size=k / view* are medians of the per-pair ratios; *per expansion* is the "
            "first for the time per expanded cell (jump point for jps): bigger units take "
            "longer detours, the kernel is the same. *view build* is the one-off cost of "
            "a size's view (clearance included), paid on the first query of that size.",
            "",
            f"Ratio size=k / size 1 over every map, algorithm and size: {summary}.",
            "",
            "| map | algorithm | size | pairs | size 1 µs | size=k µs | view µs "
            "| size=k / size 1 | size=k / view | per expansion | one step: size 1 µs "
            "| size=k µs | view µs | size=k / size 1 | view build ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            *queries,
            "",
            f"Every entry that takes `size`, on {maps[0]}: one-step queries (8 of them, "
            f"{STEP_REPS} calls per timing; the batches 64 queries per call, per query), "
            f"size 1 against size 2, {ROUNDS} interleaved rounds, medians in microseconds.",
            "",
            "| entry | size 1 µs | size 2 µs | ratio |",
            "|---|---|---|---|",
            *entries,
            "",
            f"Repair: {EDITS} random walkable cells turned into walls and back (two edits "
            "each), with the clearance and the views of sizes 2 and 3 kept. *kernel* is "
            "the compiled clearance repair alone after one new wall; *repair* is the "
            "median `grid[r, c] = v; grid.clearance` with the views (the clearance and "
            "both views repaired when next asked for) minus `grid[r, c] = v` without "
            "them; *recompute* is the clearance and both views from scratch; *plain "
            "edit* is `grid[r, c] = v` on a grid without views (its own O(cells) "
            "bookkeeping).",
            "",
            "| map | kernel µs | repair µs | recompute µs | recompute / repair | plain edit µs |",
            "|---|---|---|---|---|---|",
            *repairs,
            "",
        ]
    )
    if not args.quick:
        (RESULTS / "clearance.md").write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
