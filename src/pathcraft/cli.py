"""The ``pathcraft`` command line: ``demo`` on the bundled map, ``solve`` a scenario file."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pathcraft._version import __version__

__all__ = ["build_parser", "main"]

ALGORITHMS = ("astar", "dijkstra", "jps")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pathcraft`` command."""
    parser = argparse.ArgumentParser(
        prog="pathcraft",
        description="Pathfinding and planning for games and simulations.",
    )
    parser.add_argument("--version", action="version", version=f"pathcraft {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser(
        "demo",
        help="solve scenarios of the bundled Moving AI map with A* and Dijkstra",
        description=(
            "Solve scenarios of the bundled Moving AI map (Dragon Age: Origins, arena2) "
            "with A* and Dijkstra, and compare every length with the published optimum."
        ),
    )
    demo.add_argument(
        "--scenarios",
        type=_positive_int,
        default=12,
        metavar="N",
        help="how many scenarios, spread from the shortest to the longest (default 12)",
    )
    demo.set_defaults(handler=_demo)

    solve = commands.add_parser(
        "solve",
        help="solve a Moving AI scenario file and check every length",
        description=(
            "Solve the problems of a Moving AI .scen file on its .map, check each length "
            "against the file's optimum, print a summary; exit 1 on any mismatch."
        ),
    )
    solve.add_argument("map", type=Path, help="the .map file")
    solve.add_argument("scen", type=Path, help="the .scen file")
    solve.add_argument(
        "--algorithm", choices=ALGORITHMS, default="astar", help="the search (default astar)"
    )
    solve.add_argument(
        "--limit", type=_positive_int, default=None, metavar="N", help="solve the first N only"
    )
    solve.add_argument("--no-progress", action="store_true", help="do not draw the progress bar")
    parallel = solve.add_mutually_exclusive_group()
    parallel.add_argument(
        "--workers",
        type=_positive_int,
        default=None,
        metavar="N",
        help="solve the scenarios as one batch on N threads",
    )
    parallel.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="solve the scenarios as one batch on a Dask cluster (needs pathcraft[dask])",
    )
    solve.set_defaults(handler=_solve)
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except (OSError, ValueError) as exc:
        print(f"pathcraft {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return code


# ---------------------------------------------------------------------- commands


def _run(grid: Any, algorithm: str, start: Any, goal: Any) -> tuple[Any, float]:
    """One search and its wall-clock seconds."""
    t0 = time.perf_counter()
    result = getattr(grid, algorithm)(start, goal)
    return result, time.perf_counter() - t0


def _demo(args: argparse.Namespace) -> int:
    from pathcraft.io import bundled_map, bundled_scen, lengths_match, read_map, read_scen

    grid = read_map(bundled_map())
    scen = read_scen(bundled_scen())
    order = np.argsort(scen.optimal, kind="stable")
    picks = order[np.linspace(0, len(order) - 1, min(args.scenarios, len(order))).astype(int)]
    rows, cols = grid.shape
    print(
        f"pathcraft {__version__} demo: {bundled_map().name} (Dragon Age: Origins), "
        f"{rows} rows x {cols} cols, {int(grid.walkable.sum())} walkable cells, "
        f"8-connected, no corner cutting"
    )
    print(f"{len(picks)} of its {len(scen)} scenarios, shortest to longest:\n")
    header = (
        f"{'start':>11} {'goal':>11} {'optimal':>9} {'A* length':>10} {'A* exp':>7} "
        f"{'A* ms':>7} {'Dijkstra exp':>12} {'Dijkstra ms':>11}  ok"
    )
    print(header)
    print("-" * len(header))
    matched = 0
    astar_exp: list[int] = []
    dijkstra_exp: list[int] = []
    for i in picks:
        start, goal, want = tuple(scen.starts[i]), tuple(scen.goals[i]), float(scen.optimal[i])
        a, a_s = _run(grid, "astar", start, goal)
        d, d_s = _run(grid, "dijkstra", start, goal)
        ok = bool(lengths_match(a.cost, want) and lengths_match(d.cost, want))
        matched += ok
        astar_exp.append(a.expanded)
        dijkstra_exp.append(d.expanded)
        print(
            f"{_cell(start):>11} {_cell(goal):>11} {want:9.3f} {a.cost:10.3f} {a.expanded:7d} "
            f"{a_s * 1e3:7.2f} {d.expanded:12d} {d_s * 1e3:11.2f}  {'yes' if ok else 'NO'}"
        )
    saved = 1.0 - sum(astar_exp) / max(1, sum(dijkstra_exp))
    print(
        f"\n{matched}/{len(picks)} lengths equal the published optimum (both searches); "
        f"A* expanded {saved:.0%} fewer cells than Dijkstra."
    )
    return 0 if matched == len(picks) else 1


def _cell(cell: tuple[Any, ...]) -> str:
    return f"({int(cell[0])},{int(cell[1])})"


def _solve(args: argparse.Namespace) -> int:
    from pathcraft.io import lengths_match, read_map, read_scen

    grid = read_map(args.map)
    scen = read_scen(args.scen)
    n = len(scen) if args.limit is None else min(args.limit, len(scen))
    if args.workers is not None or args.scheduler is not None:
        costs, timing = _solve_batch(args, grid, scen.starts[:n], scen.goals[:n])
    else:
        costs, timing = _solve_one_by_one(args, grid, scen.starts[:n], scen.goals[:n])
    ok = lengths_match(costs, scen.optimal[:n])
    bad = np.flatnonzero(~ok)
    print(
        f"{args.algorithm} on {args.map.name}: solved {n} of {len(scen)} scenarios, "
        f"{len(bad)} mismatches; {timing}"
    )
    for i in bad[:10]:
        print(
            f"  mismatch at scenario {i}: start {_cell(tuple(scen.starts[i]))} goal "
            f"{_cell(tuple(scen.goals[i]))}: got {costs[i]:.6f}, want {scen.optimal[i]:.6f}"
        )
    return 1 if len(bad) else 0


def _solve_one_by_one(
    args: argparse.Namespace, grid: Any, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, str]:
    """Costs of the queries solved one at a time, and per-query timings."""
    from tqdm import tqdm

    n = len(starts)
    times = np.empty(n)
    costs = np.empty(n)
    progress = tqdm(
        range(n), desc=f"{args.algorithm} {args.scen.name}", unit="query",
        disable=args.no_progress, file=sys.stderr,
    )  # fmt: skip
    for i in progress:
        result, times[i] = _run(grid, args.algorithm, tuple(starts[i]), tuple(goals[i]))
        costs[i] = result.cost
    timing = "no queries"
    if n:
        timing = (
            f"per query median {np.median(times) * 1e3:.3f} ms, "
            f"p95 {np.percentile(times, 95) * 1e3:.3f} ms"
        )
    return costs, timing


def _solve_batch(
    args: argparse.Namespace, grid: Any, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, str]:
    """Costs of the queries solved as one batch, on threads or a Dask cluster."""
    options: dict[str, Any] = {"paths": False, "progress": not args.no_progress}
    method = grid.jps_many if args.algorithm == "jps" else grid.astar_many
    if args.algorithm == "dijkstra":
        options["heuristic"] = "zero"  # A* without a heuristic is Dijkstra
    client = None
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'pathcraft[dask]'") from None
        client = Client(args.scheduler)
        options["executor"] = client
        where = f"Dask cluster {args.scheduler}"
    else:
        options["workers"] = args.workers
        where = f"{args.workers} thread{'s' if args.workers > 1 else ''}"
    try:
        t0 = time.perf_counter()
        costs = method(starts, goals, **options)
        seconds = time.perf_counter() - t0
    finally:
        if client is not None:
            client.close()
    rate = len(starts) / seconds if seconds > 0 else float("inf")
    return costs, f"{rate:,.0f} queries/s on {where} ({seconds:.2f} s)"
