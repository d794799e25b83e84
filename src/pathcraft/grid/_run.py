"""How a :class:`~pathcraft.grid.Grid` runs its kernels: checked options turned into
kernel settings, the per-thread workspaces, one query run and its answer wrapped in a
:class:`~pathcraft.result.PathResult`. Single and batch queries both go through here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial as partial_fn
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._core import theta as _theta_kernel
from pathcraft._core.quick import Plan
from pathcraft._kernels import thread_workspace
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.grid._packed import cost_range
from pathcraft.result import KERNEL_REASONS, Answer, PathResult

if TYPE_CHECKING:
    from pathcraft.grid import Grid

#: What every :class:`Plan` is made with: the padded costs, the workspace maker, the
#: result type, the reasons and the clock.
PlanCommon = tuple[
    npt.NDArray[np.float64], Callable[[int], Any], type[PathResult], dict[int, str],
    Callable[[], float],
]  # fmt: skip
#: The diagonal-move rules and their kernel codes.
DIAGONAL_RULES: dict[str, int] = _kernel.DIAGONALS
#: The grid heuristics and their kernel codes.
GRID_HEURISTICS: dict[str, int] = _kernel.HEURISTICS


def workspace(cells: int) -> Any:
    """This thread's grid workspace, grown to hold at least ``cells`` cells."""
    return thread_workspace(_kernel.Workspace, cells)


def search_settings(grid: Grid, opts: SearchOptions) -> dict[str, Any]:
    """Checked options (:class:`~pathcraft._options.SearchOptions`) as the grid
    kernel's keyword arguments."""
    heuristic = "zero" if opts.algorithm == "dijkstra" else opts.heuristic or grid.heuristic
    return {
        "diagonal": DIAGONAL_RULES[grid.diagonal],
        "hkind": GRID_HEURISTICS[heuristic],
        "hscale": grid.min_cost,
        "settings": opts.kernel_settings(),
        "unit": grid.uniform_cost or 0.0,
    }


def solve(
    grid: Grid,
    sources: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    settings: dict[str, Any],
    t0: float,
) -> PathResult:
    """One search between checked flat cells, with checked settings."""
    single_goal = goals.shape[0] == 1
    answer = _kernel.search(
        grid.padded,
        workspace(grid.padded.size),
        sources,
        int(goals[0]) if single_goal else -1,
        None if single_goal else goals,
        **settings,
    )
    return answer_result(grid, answer, t0)


def answer_result(grid: Grid, answer: tuple[Any, ...], t0: float) -> PathResult:
    """A grid kernel's answer tuple as a :class:`PathResult` (its path an ``(n, 2)``
    array of ``(row, col)`` cells; jump point search's jump points kept)."""
    read = Answer.read(answer)
    return read.result(t0, jump_points=read.extra)


def uniform_unit(algorithm: str, costs: tuple[float, float] | None) -> float:
    """The one cell cost of a grid whose cost range is ``costs`` (None: no walkable
    cell, 1.0), for the searches that need a uniform cost (ValueError otherwise)."""
    if costs is None:
        return 1.0
    if costs[0] != costs[1]:
        raise ValueError(
            f"{algorithm} needs a grid of uniform cost, and this one has cells costing "
            f"from {costs[0]!r} to {costs[1]!r}; use astar"
        )
    return costs[0]


def jps_settings(grid: Grid, opts: SearchOptions, *, block: bool = True) -> dict[str, Any]:
    """Checked options of a jump point search as the kernel's keyword arguments
    (``block``: jump by 64-cell blocks rather than cell by cell)."""
    if grid.diagonal not in ("no_corner_cut", "always"):
        raise ValueError(
            "jps needs an 8-connected grid with diagonal='no_corner_cut' or 'always'; "
            f"this grid has diagonal={grid.diagonal!r}: use astar"
        )
    costs, lines = grid.jump_tables
    return {
        "lines": lines,
        "diagonal": DIAGONAL_RULES[grid.diagonal],
        "unit": uniform_unit("jps", costs),
        "settings": opts.kernel_settings(),
        "block": bool(block),
    }


def solve_jps(grid: Grid, start: int, goal: int, settings: dict[str, Any], t0: float) -> PathResult:
    """One jump point search between checked flat cells, with checked settings."""
    options = dict(settings)
    lines = options.pop("lines")
    ws = workspace(grid.padded.size)
    answer = _jps_kernel.jps(grid.padded, ws, start, goal, lines, **options)
    return answer_result(grid, answer, t0)


def theta_settings(grid: Grid, opts: SearchOptions) -> dict[str, Any]:
    """Checked options of a Theta* search as the kernel's keyword arguments. A grid
    of varied costs is refused (a segment would need the costs of the cells it
    crosses): Theta* costs segments by their Euclidean length times the one cost."""
    return {
        "diagonal": DIAGONAL_RULES[grid.diagonal],
        "unit": uniform_unit("theta", cost_range(grid.padded)),
        "settings": opts.kernel_settings(),
    }


def solve_theta(
    grid: Grid, start: int, goal: int, settings: dict[str, Any], t0: float
) -> PathResult:
    """One Theta* search between checked flat cells, with checked settings."""
    answer = _theta_kernel.theta(grid.padded, workspace(grid.padded.size), start, goal, **settings)
    return answer_result(grid, answer, t0)


def sliced_search(
    grid: Grid,
    sources: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    opts: SearchOptions,
) -> CompiledSearch:
    """A compiled sliced search between checked flat cells, with checked options: the
    step machine of the search :func:`solve` (or the algorithm's own, see
    :data:`ALGORITHMS`) runs in one step."""
    padded = grid.padded
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None:
        settings = entry.settings(grid, opts)
        s0, g0 = int(sources[0]), int(goals[0])
        return CompiledSearch(
            lambda ws: entry.machine(grid, ws, s0, g0, settings),
            entry.finish(grid), _kernel.Workspace, padded.size, grid,
        )  # fmt: skip
    settings = search_settings(grid, opts)
    single = goals.shape[0] == 1
    goal_cell = int(goals[0]) if single else -1
    goal_set = None if single else goals
    return CompiledSearch(
        lambda ws: _kernel.GridSearch(padded, ws, sources, goal_cell, goal_set, **settings),
        partial_fn(answer_result, grid), _kernel.Workspace, padded.size, grid,
    )  # fmt: skip


def planned_search(grid: Grid, plan: Plan, start: Any, goal: Any) -> CompiledSearch | None:
    """The sliced search of a query the grid's ``plan`` takes (two plain ``(row, col)``
    tuples, walkable), on the plan's prepared query: :func:`sliced_search`'s answer
    without its per-call setup. None for cells the plan does not take."""
    if not plan.takes(start, goal):
        return None
    padded = grid.padded
    return CompiledSearch(
        lambda ws: plan.start(ws, start, goal), _planned_result, _kernel.Workspace,
        padded.size, grid,
    )  # fmt: skip


def _planned_result(machine: Any, t0: float) -> PathResult:
    result: PathResult = machine.result(t0)
    return result


def make_plan(grid: Grid, opts: SearchOptions) -> Plan | None:
    """A :class:`~pathcraft._core.quick.Plan`: the grid's settings for ``opts`` ready to
    run single queries at the lowest cost per call (what :func:`solve` and
    :func:`solve_jps` answer, exactly). None when the options need the checked way:
    ``record`` (the expansions are copied out there), and random ties without a
    ``seed`` (fresh entropy per query)."""
    entry = ALGORITHMS.get(opts.algorithm)
    if entry is not None and entry.plan is None:
        return None  # no quick plan: it always runs the checked way
    if opts.record or (opts.tie_break == "random" and opts.seed is None):
        return None
    common: PlanCommon = (grid.padded, workspace, PathResult, KERNEL_REASONS, time.perf_counter)
    if entry is not None and entry.plan is not None:
        return entry.plan(grid, entry.settings(grid, opts), common)
    return Plan(*common, **search_settings(grid, opts))


# --------------------------------------------------------------------------- the table
# The searches beyond the skeleton's astar/dijkstra/greedy, one entry each. Adding one:
# an entry here, its options in pathcraft._options.SUPPORT["Grid"] and the README's
# options table (docs/contributing-worlds.md).


def _jps_machine(grid: Grid, ws: Any, start: int, goal: int, settings: dict[str, Any]) -> Any:
    options = dict(settings)
    lines = options.pop("lines")
    return _jps_kernel.JpsSearch(grid.padded, ws, start, goal, lines, **options)


def _jps_costs(
    grid: Grid, starts: npt.NDArray[np.intp], goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64], settings: dict[str, Any],
) -> None:  # fmt: skip
    options = dict(settings)
    lines = options.pop("lines")
    padded = grid.padded
    _jps_kernel.jps_costs(padded, workspace(padded.size), starts, goals, lines, costs, **options)


def _jps_plan(grid: Grid, settings: dict[str, Any], common: PlanCommon) -> Plan:
    options = dict(settings)
    lines = options.pop("lines")
    return Plan(*common, lines, grid.offline_jumps, **options)


def _theta_machine(grid: Grid, ws: Any, start: int, goal: int, settings: dict[str, Any]) -> Any:
    return _theta_kernel.ThetaSearch(grid.padded, ws, start, goal, **settings)


def _theta_costs(
    grid: Grid, starts: npt.NDArray[np.intp], goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64], settings: dict[str, Any],
) -> None:  # fmt: skip
    padded = grid.padded
    _theta_kernel.theta_costs(padded, workspace(padded.size), starts, goals, costs, **settings)


class Algorithm(NamedTuple):
    """One grid search beyond the skeleton's three: an entry of :data:`ALGORITHMS`.

    Attributes
    ----------
    settings : callable
        ``settings(grid, opts)``: the kernel's settings for checked options; it
        refuses a grid the search cannot run on (ValueError naming why).
    solve : callable
        ``solve(grid, start, goal, settings, t0)``: one search between flat cells.
    machine : callable
        ``machine(grid, ws, start, goal, settings)``: its step machine.
    finish : callable
        ``finish(grid)``: the machine's answer and ``t0`` as a :class:`PathResult`.
    costs : callable
        ``costs(grid, starts, goals, out, settings)``: a costs-only batch.
    plan : callable or None
        ``plan(grid, settings, common)``: its quick :class:`Plan`; None: none.
    optimal : bool
        Whether its costs are optimal (the command line compares them with the
        published optimum).
    """

    settings: Callable[[Grid, SearchOptions], dict[str, Any]]
    solve: Callable[[Grid, int, int, dict[str, Any], float], PathResult]
    machine: Callable[[Grid, Any, int, int, dict[str, Any]], Any]
    finish: Callable[[Grid], Callable[[tuple[Any, ...], float], PathResult]]
    costs: Callable[..., None]
    plan: Callable[[Grid, dict[str, Any], PlanCommon], Plan] | None = None
    optimal: bool = False


def _answer_finish(grid: Grid) -> Callable[[tuple[Any, ...], float], PathResult]:
    return partial_fn(answer_result, grid)


#: The grid searches beyond astar, dijkstra and greedy, by ``algorithm=`` name.
ALGORITHMS: dict[str, Algorithm] = {
    "jps": Algorithm(
        jps_settings, solve_jps, _jps_machine, _answer_finish, _jps_costs, _jps_plan, optimal=True
    ),
    "theta": Algorithm(theta_settings, solve_theta, _theta_machine, _answer_finish, _theta_costs),
}


def optimal_algorithms() -> tuple[str, ...]:
    """The grid searches whose costs are optimal (weight 1): Dijkstra, A* (with the
    grid's admissible default heuristic) and the table's optimal entries."""
    return ("astar", "dijkstra", *(name for name, e in ALGORITHMS.items() if e.optimal))
