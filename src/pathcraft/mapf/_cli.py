"""The ``pathcraft mapf`` command: solve a k-agent instance of the MAPF benchmark and
report like ``pathcraft solve``."""

from __future__ import annotations

import argparse
import math
from typing import Any

from pathcraft.mapf._problem import Problem
from pathcraft.mapf._solve import SOLVERS, solve
from pathcraft.mapf._validate import validate

__all__ = ["DEFAULT_SOLVER", "add_arguments", "run"]

#: The solver ``pathcraft mapf`` runs unless told: LaCAM where it is built.
DEFAULT_SOLVER = "lacam" if "lacam" in SOLVERS else "prioritized"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def add_arguments(command: argparse.ArgumentParser, positive_int: Any, diagonals: Any) -> None:
    """The arguments of ``pathcraft mapf``."""
    from pathlib import Path

    command.add_argument("scen", type=Path, help="the .scen file (its map found beside it)")
    command.add_argument(
        "--agents", type=positive_int, default=None, metavar="K",
        help="the first K agents of the file (default all)",
    )  # fmt: skip
    command.add_argument(
        "--solver", choices=tuple(SOLVERS), default=DEFAULT_SOLVER,
        help=f"the solver (default {DEFAULT_SOLVER})",
    )  # fmt: skip
    command.add_argument(
        "--time-limit", type=_seconds, default=10.0, metavar="S",
        help="seconds for the solver (default 10)",
    )  # fmt: skip
    command.add_argument(
        "--map", type=Path, default=None, metavar="FILE",
        help="the .map file (default: the one the scenario names, beside it or in ../maps)",
    )  # fmt: skip
    command.add_argument(
        "--diagonal", choices=diagonals, default="never",
        help="the move rule (default never: 4-connected, the benchmark's)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Solve, check the answer with :func:`~pathcraft.mapf.validate`, print one line;
    0 when solved (and valid), 1 otherwise."""
    from pathcraft.io import read_mapf_scen

    grid, starts, goals = read_mapf_scen(args.scen, args.agents, args.map, diagonal=args.diagonal)
    problem = Problem(grid, starts, goals)
    result = solve(problem, solver=args.solver, time_limit=args.time_limit)
    head = f"{result.solver} on {args.scen.name}: {problem.n_agents} agents"
    if not result:
        print(
            f"{head}, not solved ({result.status}: {result.reason}); bound "
            f"{result.lower_bound}; {result.time_s:.3f} s"
        )
        return 1
    faults = validate(problem, result.paths)
    ratio = result.sum_of_costs / result.lower_bound if result.lower_bound else 1.0
    print(
        f"{head}, solved; sum of costs {result.sum_of_costs} ({ratio:.3f}x the bound "
        f"{result.lower_bound}{', optimal' if result.optimal else ''}), makespan "
        f"{result.makespan}; {result.time_s:.3f} s; "
        + ("valid" if not faults else f"INVALID: {len(faults)} conflicts, first {faults[0]}")
    )
    return 1 if faults else 0
