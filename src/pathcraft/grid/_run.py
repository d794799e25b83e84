"""How a :class:`~pathcraft.grid.Grid` runs its kernels: the grid's adapter for the one
cell-world glue (:class:`GridCells`, :mod:`pathcraft._cellworld` runs every query and
batch through it), checked options turned into kernel settings, the grid's table of
searches beyond the skeleton's three (:data:`ALGORITHMS`) and its quick plans
(:func:`make_plan`, what the adapter's solver and the grid's lean calls answer with).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial as partial_fn
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._cellworld import Kernel, PaddedCells, Solver, kernel_solver
from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._core import theta as _theta_kernel
from pathcraft._core.hashed import hashed_workspace
from pathcraft._core.quick import Plan
from pathcraft._fields import grid_parents
from pathcraft._kernels import thread_workspace
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.grid._packed import cost_range
from pathcraft.grid._sizes import batch_cells, unit_cells, unit_grid
from pathcraft.result import KERNEL_REASONS, Answer, PathResult

if TYPE_CHECKING:
    from pathcraft.grid import Grid

    #: A grid's plan look-up: ``plans(opts)``, the plan of checked options or None.
    Plans = Callable[[SearchOptions], Plan | None]

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


def planned_search(
    grid: Grid, plan: Plan, start: Any, goal: Any, max_expansions: int = -1
) -> CompiledSearch | None:
    """The sliced search of a query the grid's ``plan`` takes (two plain ``(row, col)``
    tuples, walkable), on the plan's prepared query: the glue's stepped search
    (:func:`pathcraft._cellworld.stepped`) without its per-call setup (limited to
    ``max_expansions`` instead of the plan's own limit when >= 0). None for cells
    the plan does not take."""
    if not plan.takes(start, goal):
        return None
    padded = grid.padded
    return CompiledSearch(
        _start_planned, _planned_result, _kernel.Workspace, padded.size, grid,
        None if plan.offline else hashed_workspace, (plan, start, goal, max_expansions),
    )  # fmt: skip


def _start_planned(ws: Any, plan: Plan, start: Any, goal: Any, max_expansions: int) -> Any:
    """A planned search's step machine on ``ws`` (what ``CompiledSearch`` makes at
    its first step, with the args :func:`planned_search` gave it)."""
    return plan.start(ws, start, goal, max_expansions)


def _planned_result(machine: Any, t0: float) -> PathResult:
    result: PathResult = machine.result(t0)
    return result


def make_plan(grid: Grid, opts: SearchOptions) -> Plan | None:
    """A :class:`~pathcraft._core.quick.Plan`: the grid's settings for ``opts`` ready to
    run single queries at the lowest cost per call (what the grid kernel's search
    and :func:`solve_jps` answer, exactly). None when the options need the checked way:
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


# --------------------------------------------------------------------------- the adapter


class GridCells(PaddedCells):
    """A grid's adapter for the one cell-world glue (:mod:`pathcraft._cellworld`).

    Parameters
    ----------
    grid : Grid
        The grid a query searches: the grid, or a unit's view (``size=``).
    base : Grid or None
        The grid whose cells the caller names (errors name its walls; a cell where
        the unit does not fit is refused like one); None: ``grid``.
    plans : callable or None
        The grid's plan look-up (``plans(opts)``): single queries and batches of
        paths take the plan the options have, as the grid's lean calls do. None: the
        checked way always (what the plans are tested against).
    """

    __slots__ = ("base", "grid", "padded", "plans")

    name: ClassVar[str] = "Grid"
    noun: ClassVar[str] = "cells"
    kernel: ClassVar[Kernel] = Kernel.of(_kernel, _kernel.GridSearch)
    settle_options: ClassVar[tuple[str, ...]] = ("max_cost", "size")

    def __init__(self, grid: Grid, base: Grid | None = None, plans: Plans | None = None) -> None:
        self.grid = grid
        self.base = grid if base is None else base
        self.plans = plans
        #: The grid's padded costs, current (a unit's view repairs them in place).
        self.padded = grid.padded

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    def runs_on(self, opts: SearchOptions) -> GridCells:
        """The adapter of the unit's view for ``size=k`` (``size`` checked here)."""
        world = unit_grid(self.base, opts)
        return self if world is self.grid else GridCells(world, self.base, self.plans)

    def place(self, name: str, value: Any) -> int:
        return int(unit_cells(self.base, self.grid, name, value, many=False)[0])

    def places(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        return unit_cells(self.base, self.grid, name, value, many=True)

    def pairs(self, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
        """A batch's ``(start, goal)`` flat cells: ``(n, 2)`` arrays each, errors naming
        ``starts[i]`` (a grid a table entry cannot search is refused first)."""
        entry = ALGORITHMS.get(opts.algorithm)
        if entry is not None:
            entry.settings(self.grid, opts)
        flat_starts = batch_cells(self.base, self.grid, "starts", starts)
        flat_goals = batch_cells(self.base, self.grid, "goals", goals)
        if len(flat_starts) != len(flat_goals):
            raise ValueError(
                "starts and goals must have the same length; "
                f"got {len(flat_starts)} and {len(flat_goals)}"
            )
        return list(zip(flat_starts.tolist(), flat_goals.tolist(), strict=True))

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        return search_settings(self.grid, opts)

    def result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        return answer_result(self.grid, answer, t0)

    def unflat(self, flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``(row, col)`` cells of padded flat indices, an ``(n, 2)`` array."""
        return np.stack(np.divmod(flat, self.grid.shape[1] + 2), axis=-1) - 1

    def field(
        self, flat: npt.NDArray[np.intp], max_cost: float, tree: bool
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp] | None]:
        """The field kernel's costs; the tree (padded flat parents) read from them by
        :func:`~pathcraft._fields.grid_parents`."""
        grid = self.grid
        padded = grid.padded
        costs = np.empty(grid.shape)
        rule = DIAGONAL_RULES[grid.diagonal]
        _kernel.field(padded, workspace(padded.size), flat, costs, diagonal=rule, max_cost=max_cost)
        if not tree:
            return costs, None
        index = grid_parents(padded, costs, grid.diagonal)
        rows, cols = np.divmod(index, grid.shape[1])
        parents = np.where(index >= 0, (rows + 1) * padded.shape[1] + cols + 1, -1)
        return costs, parents.reshape(grid.shape).astype(np.intp)

    def solver(self, opts: SearchOptions) -> Solver:
        """The skeleton's kernel or the table's entry for ``opts.algorithm``, answered
        by the grid's plan where the options have one (one start and one goal)."""
        grid = self.grid
        entry = ALGORITHMS.get(opts.algorithm)
        if entry is None:
            run = kernel_solver(self, opts, grid.padded)
        else:
            run = _entry_solver(grid, entry, opts)
        plan = None if self.plans is None else self.plans(opts)
        if plan is None:
            return run
        find, find_flat = run.find, plan.find_flat

        def planned(sources: Any, goal: int, goal_set: Any, t0: float) -> PathResult:
            if goal_set is None and sources.shape[0] == 1:
                return find_flat(int(sources[0]), goal, t0)
            return find(sources, goal, goal_set, t0)

        costs = run.costs
        if plan.offline:  # JPS+: the offline table answers costs

            def costs(starts: Any, goals: Any, out: npt.NDArray[np.float64]) -> None:
                cost_flat = plan.cost_flat
                both = zip(starts.tolist(), goals.tolist(), strict=True)
                out[:] = [cost_flat(s, g) for s, g in both]

        return Solver(planned, find_flat, run.machine, run.finish, costs, run.goal_sets)


def _entry_solver(grid: Grid, entry: Algorithm, opts: SearchOptions) -> Solver:
    """The :class:`~pathcraft._cellworld.Solver` of a table entry (one start, one
    goal; its settings refuse a grid it cannot search)."""
    settings = entry.settings(grid, opts)
    solve, machine, costs = entry.solve, entry.machine, entry.costs

    def pair(start: int, goal: int, t0: float) -> PathResult:
        return solve(grid, start, goal, settings, t0)

    return Solver(
        lambda sources, goal, goal_set, t0: pair(int(sources[0]), goal, t0),
        pair,
        lambda ws, sources, goal, goal_set: machine(grid, ws, int(sources[0]), goal, settings),
        entry.finish(grid),
        lambda starts, goals, out: costs(grid, starts, goals, out, settings),
        False,
    )
