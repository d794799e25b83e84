"""How a :class:`~pathcraft.grid.Grid` runs its kernels: checked options turned into
kernel settings, the per-thread workspaces, one query run and its answer wrapped in a
:class:`~pathcraft.result.PathResult`. Single and batch queries both go through here.
"""

from __future__ import annotations

import math
import time
from functools import partial as partial_fn
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import grid_search as _kernel
from pathcraft._core import jps as _jps_kernel
from pathcraft._kernels import MODES, REASONS, TIES, thread_workspace
from pathcraft._sliced import CompiledSearch, bind_options
from pathcraft._validation import check_choice, check_limit, check_seed, check_weight
from pathcraft.grid._packed import cost_range, pack_lines
from pathcraft.result import Explored, PathResult

if TYPE_CHECKING:
    from pathcraft.grid import Grid

#: The diagonal-move rules and their kernel codes.
DIAGONAL_RULES: dict[str, int] = {"never": 0, "no_corner_cut": 1, "one_free": 2, "always": 3}
#: The grid heuristics and their kernel codes.
GRID_HEURISTICS: dict[str, int] = {
    "zero": 0,
    "manhattan": 1,
    "octile": 2,
    "euclidean": 3,
    "chebyshev": 4,
}
def workspace(cells: int) -> Any:
    """This thread's grid workspace, grown to hold at least ``cells`` cells."""
    return thread_workspace(_kernel.Workspace, cells)


def search_settings(
    grid: Grid,
    mode: str,
    *,
    weight: float,
    heuristic: str | None,
    tie_break: str,
    seed: int | None,
    max_expansions: int | None,
    max_cost: float | None,
    partial: bool,
    record: bool,
) -> dict[str, Any]:
    """The checked options of a search, as the kernel's keyword arguments."""
    check_choice("tie_break", tie_break, tuple(TIES))
    if heuristic is not None:
        check_choice("heuristic", heuristic, tuple(GRID_HEURISTICS))
    limit_exp = check_limit("max_expansions", max_expansions, integer=True)
    limit_cost = check_limit("max_cost", max_cost, integer=False)
    check_seed(seed)
    rng_seed = 0  # only random tie-breaking draws: skip the entropy read otherwise
    if tie_break == "random":
        rng_seed = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
    return {
        "diagonal": DIAGONAL_RULES[grid._diagonal],
        "hkind": GRID_HEURISTICS[heuristic or grid._heuristic],
        "mode": MODES[mode],
        "tie": TIES[tie_break],
        "hscale": grid._min_cost,
        "weight": weight,
        "max_expansions": -1 if limit_exp is None else int(limit_exp),
        "max_cost": math.inf if limit_cost is None else float(limit_cost),
        "partial": bool(partial),
        "record": bool(record),
        "seed": int(rng_seed),
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
        grid._padded,
        workspace(grid._padded.size),
        sources,
        int(goals[0]) if single_goal else -1,
        None if single_goal else goals,
        **settings,
    )
    return answer_result(grid, answer, t0)


def answer_result(grid: Grid, answer: tuple[Any, ...], t0: float) -> PathResult:
    """The grid search kernel's answer tuple as a :class:`PathResult`."""
    status, path, cost, expanded, generated, rec_cells, rec_g = answer
    return to_result(grid, status, path, cost, expanded, generated, rec_cells, rec_g, t0)


def to_result(
    grid: Grid,
    status: int,
    path: npt.NDArray[np.intp],
    cost: float,
    expanded: int,
    generated: int,
    rec_cells: npt.NDArray[np.intp] | None,
    rec_g: npt.NDArray[np.float64] | None,
    t0: float,
    jumps: npt.NDArray[np.intp] | None = None,
) -> PathResult:
    """A kernel's answer (arrays of ``(row, col)`` cells) as a :class:`PathResult`."""
    explored = None
    if rec_cells is not None and rec_g is not None:
        explored = Explored(rec_cells, rec_g)
    found = status == _kernel.FOUND
    return PathResult(
        path=path,
        cost=float(cost),
        found=found,
        reason=None if found else REASONS[status],  # type: ignore[arg-type]
        expanded=int(expanded),
        generated=int(generated),
        elapsed=time.perf_counter() - t0,
        explored=explored,
        jump_points=jumps,
    )


def jps_settings(
    grid: Grid, *, weight: float, max_expansions: int | None, record: bool, block: bool = True
) -> dict[str, Any]:
    """The checked options of a jump point search (``block``: jump by 64-cell
    blocks rather than cell by cell), as the kernel's keyword arguments."""
    if grid._diagonal not in ("no_corner_cut", "always"):
        raise ValueError(
            "jps needs an 8-connected grid with diagonal='no_corner_cut' or 'always'; "
            f"this grid has diagonal={grid._diagonal!r}: use astar"
        )
    limit_exp = check_limit("max_expansions", max_expansions, integer=True)
    cache = grid._jps
    if cache is None:
        cache = (
            cost_range(grid._padded),
            pack_lines(grid._padded, corner_cut=grid._diagonal == "always"),
        )
        grid._jps = cache
    costs, lines = cache
    if costs is not None and costs[0] != costs[1]:
        raise ValueError(
            "jps needs a grid of uniform cost, and this one has cells costing from "
            f"{costs[0]!r} to {costs[1]!r}; use astar"
        )
    return {
        "lines": lines,
        "diagonal": DIAGONAL_RULES[grid._diagonal],
        "unit": 1.0 if costs is None else costs[0],
        "weight": weight,
        "max_expansions": -1 if limit_exp is None else int(limit_exp),
        "record": bool(record),
        "block": bool(block),
    }


def solve_jps(grid: Grid, start: int, goal: int, settings: dict[str, Any], t0: float) -> PathResult:
    """One jump point search between checked flat cells, with checked settings."""
    options = dict(settings)
    lines = options.pop("lines")
    status, path, jumps, cost, expanded, generated, rec_cells, rec_g = _jps_kernel.jps(
        grid._padded, workspace(grid._padded.size), start, goal, lines, **options
    )
    return to_result(
        grid, status, path, cost, expanded, generated, rec_cells, rec_g, t0, jumps=jumps
    )


#: What each grid algorithm passes to the search besides the caller's options.
_FIXED: dict[str, dict[str, Any]] = {
    "greedy": {"weight": 1.0},
    "dijkstra": {"weight": 1.0, "heuristic": "zero", "partial": False},
}


def start_search(
    grid: Grid, start: Any, goal: Any, algorithm: str, options: dict[str, Any]
) -> CompiledSearch:
    """A compiled sliced search on ``grid``, checked as the blocking method checks it."""
    algorithms = ("astar", "dijkstra", "greedy", "jps")
    named = bind_options(grid, algorithm, algorithms, options)
    if "weight" in named:
        named["weight"] = check_weight(named["weight"])
    padded = grid._padded
    if algorithm == "jps":
        settings = jps_settings(grid, **named)
        lines = settings.pop("lines")
        s = int(grid._cells("start", start, many=False)[0])
        g = int(grid._cells("goal", goal, many=False)[0])

        def finish_jps(answer: tuple[Any, ...], t0: float) -> PathResult:
            status, path, jumps, cost, expanded, generated, rec_cells, rec_g = answer
            return to_result(
                grid, status, path, cost, expanded, generated, rec_cells, rec_g, t0, jumps
            )

        return CompiledSearch(
            lambda ws: _jps_kernel.JpsSearch(padded, ws, s, g, lines, **settings),
            finish_jps, _kernel.Workspace, padded.size,
        )  # fmt: skip
    settings = search_settings(grid, algorithm, **{**named, **_FIXED.get(algorithm, {})})
    many = algorithm == "dijkstra"
    sources = grid._cells("start", start, many=many)
    goals = grid._cells("goal", goal, many=many)
    single = goals.shape[0] == 1
    goal_cell = int(goals[0]) if single else -1
    goal_set = None if single else goals
    return CompiledSearch(
        lambda ws: _kernel.GridSearch(padded, ws, sources, goal_cell, goal_set, **settings),
        partial_fn(answer_result, grid), _kernel.Workspace, padded.size,
    )  # fmt: skip
