"""One front door for every multi-agent solver: :func:`solve` picks one by name.

Every solver is a function ``solver(problem, *, time_limit=..., **options) ->
MAPFResult`` in its own module, imported here and named in :data:`SOLVERS` (one line
each).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from pathcraft.mapf._cbs import cbs, ecbs
from pathcraft.mapf._lacam import lacam, pibt
from pathcraft.mapf._prioritized import prioritized
from pathcraft.mapf._problem import as_problem
from pathcraft.mapf._result import MAPFResult
from pathcraft.mapf._whca import whca

__all__ = ["SOLVERS", "check_time_limit", "solve", "solver_function"]

#: Solver name -> solver function. Two names may share one function.
SOLVERS: dict[str, Callable[..., MAPFResult]] = {
    "sipp": prioritized,
    "prioritized": prioritized,
    "whca": whca,
    "cbs": cbs,
    "ecbs": ecbs,
    "lacam": lacam,
    "pibt": pibt,
}


def check_time_limit(time_limit: Any) -> float:
    """``time_limit`` as a float (seconds, > 0; ``inf`` for none)."""
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"time_limit must be a number of seconds > 0; got {time_limit!r}")
    value = float(time_limit)
    if math.isnan(value) or value <= 0:
        raise ValueError(f"time_limit must be a number of seconds > 0; got {time_limit!r}")
    return value


def solver_function(name: str) -> Callable[..., MAPFResult]:
    """The solver function named ``name`` (one of :data:`SOLVERS`)."""
    if not isinstance(name, str) or name not in SOLVERS:
        listed = ", ".join(repr(s) for s in SOLVERS)
        kind = TypeError if not isinstance(name, str) else ValueError
        raise kind(f"solver must be one of {listed}; got {name!r}")
    return SOLVERS[name]


def solve(
    world_or_problem: Any,
    starts: Sequence[Hashable] | None = None,
    goals: Sequence[Hashable] | None = None,
    *,
    solver: str = "lacam",
    time_limit: float = 10.0,
    **options: Any,
) -> MAPFResult:
    """Solve a multi-agent pathfinding problem with the solver named ``solver``.

    Parameters
    ----------
    world_or_problem : Problem, Grid, Graph or any world with ``neighbors(place)``
        With a world, ``starts`` and ``goals`` make the :class:`Problem` (cells
        ``(row, col)`` on grids); with a Problem they must be None.
    starts, goals : sequences of places, or None
    solver : {"lacam", "pibt", "cbs", "ecbs", "whca", "prioritized", "sipp"}
        ``"sipp"`` and ``"prioritized"`` are one solver: prioritized planning, each
        agent planned by safe-interval path planning around the agents before it.
    time_limit : float
        Seconds; a solver that runs out returns a falsy result with status
        ``"time limit"``.
    **options
        Passed to the solver (see each solver's documentation).

    Returns
    -------
    MAPFResult

    Raises
    ------
    ValueError
        An unknown solver (the message lists the accepted names), a bad time limit,
        or a bad problem (see :class:`Problem`).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import solve
    >>> grid = Grid.from_ascii("....\\n.##.\\n....", diagonal="never")
    >>> result = solve(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)], solver="prioritized")
    >>> bool(result), result.sum_of_costs, result.lower_bound
    (True, 10, 6)
    >>> solve(grid, [(0, 0)], [(0, 3)], solver="astar")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: solver must be one of ...; got 'astar'
    """
    limit = check_time_limit(time_limit)
    function = solver_function(solver)
    problem = as_problem(world_or_problem, starts, goals)
    return function(problem, time_limit=limit, **options)
