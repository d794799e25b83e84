"""The scalable solvers: LaCAM (LaCAM* when refining) and PIBT, compiled.

Both take a :class:`~pathcraft.mapf.Problem`, hand its flat arrays (the CSR moves, the
starts and goals, the agents' distance tables) to :mod:`pathcraft._core.lacam` and
build a :class:`~pathcraft.mapf.MAPFResult` from the configurations it returns.
"""

from __future__ import annotations

import math
import numbers
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import lacam as _kernel
from pathcraft._core import mapf_lns as _lns
from pathcraft._core import scatter as _scatter
from pathcraft._validation import check_limit
from pathcraft.mapf._prioritized import unreachable
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._result import MAPFResult

__all__ = ["lacam", "pibt"]

_I32 = np.int32

#: With ``refine=True``: the share of the time left at the first solution given to
#: LaCAM*'s own refinement; the rest goes to large neighbourhood search.
STAR_SHARE = 0.1

#: The share of the time limit the spreading of paths may take at most (LaCAM3 gives
#: it half the time left), and the steps a spread path may be longer than the shortest.
SCATTER_SHARE = 0.5
SCATTER_MARGIN = 10

#: Large neighbourhood search stops after this many tries in a row (or 10 an agent)
#: that improve nothing.
PATIENCE = 1000

#: The stats of a first solution's search, taken over with the solution found while
#: comparing the first solutions when the search after runs out of time.
FIRST_STATS = ("time_to_first_s", "iterations_to_first", "first_sum_of_loss", "sum_of_loss")

#: Bytes of configurations LaCAM keeps at most by default (``node_limit=None``): each
#: configuration holds an agent's node, priority and rank (12 bytes an agent).
MEMORY_BUDGET = 1 << 29


def _time_limit(time_limit: Any) -> float:
    """Seconds (a number >= 0; None: no limit)."""
    limit = check_limit("time_limit", time_limit, integer=False)
    return math.inf if limit is None else float(limit)


def _positive_int(name: str, value: Any, *, allow_none: bool) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be a positive integer{' or None' if allow_none else ''}; got {value!r}"
        )
    if value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise TypeError(f"seed must be an integer >= 0; got {seed!r}")
    return int(seed) & 0xFFFFFFFFFFFFFFFF


def _sum_of_costs(configs: npt.NDArray[np.int32], goals: npt.NDArray[np.int32]) -> int:
    """The sum over agents of the step after which each never leaves its goal."""
    away = configs != goals[np.newaxis, :]
    steps = len(configs)
    last = steps - np.argmax(away[::-1], axis=0)  # one past the last step away
    return int(np.where(away.any(axis=0), last, 0).sum())


def _result(
    problem: Problem,
    name: str,
    found: bool,
    status: str,
    reason: str,
    configs: npt.NDArray[np.int32],
    stats: dict[str, Any],
    t0: float,
    bound: int,
    *,
    optimal_if: bool = False,
) -> MAPFResult:
    elapsed = time.perf_counter() - t0
    if not found:
        return MAPFResult.failed(problem, status, reason, solver=name, time_s=elapsed, stats=stats)
    paths = [np.ascontiguousarray(configs[:, i]) for i in range(problem.n_agents)]
    result = MAPFResult.from_node_paths(
        problem, paths, solver=name, time_s=elapsed, stats=stats, bound=bound
    )
    # LaCAM* minimises the sum of loss (agent-steps off the goal), a lower bound of
    # the sum of costs: the two agree on the solution proven best only when no agent
    # leaves its goal and comes back, and then it is the sum-of-costs optimum too.
    result.optimal = result.sum_of_costs == bound or (
        optimal_if and result.sum_of_costs == stats.get("sum_of_loss")
    )
    return result


def _search(
    problem: Problem,
    dist: npt.NDArray[np.int32],
    t0: float,
    limit: float,
    nodes: int,
    refine: bool,
    swap: bool,
    rng: int,
    guide: npt.NDArray[np.int32] | None,
) -> tuple[bool, int, npt.NDArray[np.int32], dict[str, Any]]:
    """The compiled LaCAM search (LaCAM* with ``refine``) over the problem's arrays."""
    return _kernel.lacam(
        problem.indptr,
        problem.indices,
        problem.starts,
        problem.goals,
        dist,
        t0,
        limit,
        nodes,
        refine,
        problem.following,
        swap,
        rng,
        STAR_SHARE,
        guide,
    )


def _spread(
    problem: Problem,
    dist: npt.NDArray[np.int32],
    t0: float,
    limit: float,
    nodes: int,
    swap: bool,
    rng: int,
    compare: bool,
) -> tuple[
    npt.NDArray[np.int32] | None,
    dict[str, Any],
    tuple[npt.NDArray[np.int32], dict[str, Any]] | None,
]:
    """The spread paths' guide for LaCAM and their stats; with ``compare``, the guide
    only when the first solution it leads to costs less than the one without (None
    else): spreading helps on open, crowded maps and can hurt in rooms. Third, with
    ``compare``, the cheaper of the two first solutions and its search's stats (None
    when neither was found in time). The one without comes first, before the paths are
    spread: the quickest answer, kept should the time run out after it."""

    def first_solution(
        candidate: npt.NDArray[np.int32] | None,
    ) -> tuple[float, npt.NDArray[np.int32], dict[str, Any]]:
        found, _, configs, first = _search(
            problem, dist, t0, limit, nodes, False, swap, rng, candidate
        )
        return (_sum_of_costs(configs, problem.goals) if found else math.inf), configs, first

    cheaper: tuple[npt.NDArray[np.int32], dict[str, Any]] | None = None
    costs = []
    if compare:
        cost, configs, first = first_solution(None)
        costs.append(cost)
        if cost < math.inf:
            cheaper = (configs, first)
    began = time.perf_counter()
    guide: npt.NDArray[np.int32] | None
    guide, more = _scatter.scatter(
        problem.indptr,
        problem.indices,
        problem.starts,
        problem.goals,
        dist,
        began + SCATTER_SHARE * (t0 + limit - began),
        SCATTER_MARGIN,
        rng,
    )
    stats: dict[str, Any] = {f"scatter_{key}": value for key, value in more.items()}
    stats["scatter_s"] = time.perf_counter() - began
    if compare:
        cost, configs, first = first_solution(guide)
        costs.append(cost)
        stats["scatter_first_costs"] = costs
        if costs[1] < costs[0]:
            cheaper = (configs, first)
        else:
            guide = None
    stats["scatter_used"] = guide is not None
    return guide, stats, cheaper


def lacam(
    problem: Problem,
    *,
    time_limit: float | None = 10.0,
    refine: bool = False,
    node_limit: int | None = None,
    swap: bool = True,
    scatter: bool | None = None,
    seed: int = 0,
) -> MAPFResult:
    """Solve with LaCAM: quick, complete, and eventually optimal when refining (LaCAM*).

    LaCAM (Okumura, AAAI 2023) searches configurations (every agent's place at one
    time step) depth first, PIBT proposing each next configuration and a lazily grown
    tree of constraints making sure every successor is eventually tried: it finds a
    solution to problems with hundreds or thousands of agents in milliseconds, and
    says ``"no solution"`` only after trying every configuration reachable. With
    ``refine=True`` it is anytime: it first spreads the agents' intended paths apart
    (``scatter``), goes on after the first solution as LaCAM* (Okumura, IJCAI 2023),
    rewiring configurations met again and pruning those that cannot beat the best
    solution, for a tenth of the time left (when it has searched everything, the
    solution is optimal for the sum of loss); then, for the rest of ``time_limit``, a
    large neighbourhood search (MAPF-LNS, Li et al. IJCAI 2021, as in LaCAM3) plans a
    few agents at a time again around the others and keeps what costs no more,
    choosing which agents by adaptive weights (a late agent and those on its way, those
    passing a junction, or agents at random), until the bound is reached or many tries
    in a row lower nothing. Paths are lists of places (``(row, col)`` cells on
    grids).

    Parameters
    ----------
    problem : Problem
    time_limit : float or None
        Seconds for the whole query (distance tables included); None: no limit.
    refine : bool
        Keep improving the first solution until ``time_limit`` (anytime: LaCAM*,
        then large neighbourhood search).
    node_limit : int or None
        Most configurations stored (memory: 12 bytes an agent each); None: as many
        as fit in 512 MB.
    swap : bool
        PIBT's swap operation (LaCAM2): two agents meeting head on in a corridor trade
        places. Ignored with following conflicts.
    scatter : bool or None
        First spread the agents' intended paths apart (LaCAM3's space utilisation
        optimisation: each agent's path among those at most 10 steps longer than its
        shortest that meets the fewest others, rounds while the meetings fall) and
        let PIBT follow them: a first solution costing less on open crowded maps, for
        milliseconds to a second of work before it. None: with ``refine`` only, and
        then only when the first solution with them costs less than the one without
        (both are found, the cheaper one refined).
    seed : int
        Seed of the random tie-breaking and shuffling (the same seed, the same run).

    Returns
    -------
    MAPFResult
        Solver ``"lacam"``; ``stats`` holds ``iterations``, ``configurations``,
        ``constraints``, ``time_to_first_s``, ``iterations_to_first``,
        ``first_sum_of_loss``, ``sum_of_loss`` (LaCAM*'s) and ``stopped`` (why the
        LaCAM search ended: ``"first solution"``, ``"time limit"``, ``"node limit"``
        or ``"exhausted"``); with spread paths, ``scatter_s`` (their time, before
        LaCAM's), ``scatter_rounds``, ``scatter_meetings``, ``scatter_used`` and,
        compared, ``scatter_first_costs`` (without, with); with ``refine``, also
        ``lacam_sum_of_costs`` (before the neighbourhood search), ``lns_iterations``,
        ``lns_accepted`` and, when the
        neighbourhood search ran, ``lns_stopped`` (``"no improvement"``, ``"lower
        bound"`` or ``"time limit"``). A solution found before a limit is returned solved.
        ``optimal`` is True when the sum of costs equals the lower bound, or LaCAM*
        searched everything and the sum of costs equals its sum of loss.

    Raises
    ------
    TypeError, ValueError
        A bad option (the message names it and what it accepts).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, lacam
    >>> grid = Grid.from_ascii("....\\n.#..\\n....", diagonal="never")
    >>> problem = Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)])
    >>> result = lacam(problem, refine=True, time_limit=2.0)
    >>> bool(result), result.sum_of_costs, result.lower_bound, result.optimal
    (True, 8, 6, True)
    >>> corridor = Grid.from_ascii("...", diagonal="never")
    >>> lacam(Problem(corridor, [(0, 0), (0, 2)], [(0, 2), (0, 0)]))
    MAPFResult('lacam', no solution: every configuration reachable from the starts was searched)
    """
    t0 = time.perf_counter()
    limit = _time_limit(time_limit)
    refine = _flag("refine", refine)
    swap = _flag("swap", swap)
    spread_paths = refine if scatter is None else _flag("scatter", scatter)
    nodes = _positive_int("node_limit", node_limit, allow_none=True)
    rng = _seed(seed)
    if nodes is None:
        nodes = max(1024, MEMORY_BUDGET // (12 * problem.n_agents + 64))
    stuck = unreachable(problem, "lacam", t0)
    if stuck is not None:
        return stuck
    dist = np.ascontiguousarray(problem.distance_table())
    guide: npt.NDArray[np.int32] | None = None
    spread: dict[str, Any] = {}
    compared: tuple[npt.NDArray[np.int32], dict[str, Any]] | None = None
    if spread_paths:
        guide, spread, compared = _spread(
            problem, dist, t0, limit, nodes, swap, rng, scatter is None
        )
    found, stop, configs, stats = _search(
        problem, dist, t0, limit, nodes, refine, swap, rng, guide
    )
    if not found and compared is not None:
        # the time ran out in the search again: the first solution found while
        # comparing (the cheaper one) is still an answer found within the limit
        found, configs = True, compared[0]
        stats.update({key: compared[1][key] for key in FIRST_STATS})
    stats.update(spread)
    stopped = _kernel.STOP_REASONS[stop]
    stats["stopped"] = stopped
    bound = int(dist[np.arange(problem.n_agents), problem.starts].sum())
    if found and refine:
        soc = _sum_of_costs(configs, problem.goals)
        stats["lacam_sum_of_costs"] = soc
        if soc > bound and not (stopped == "exhausted" and soc == stats["sum_of_loss"]):
            configs, more = _lns.refine(
                problem.indptr,
                problem.indices,
                problem.goals,
                dist,
                configs,
                t0 + limit,
                bound,
                problem.following,
                rng,
                max(PATIENCE, 10 * problem.n_agents),
            )
            stats["lns_iterations"] = more["iterations"]
            stats["lns_accepted"] = more["accepted"]
            if more["stalled"]:
                stats["lns_stopped"] = "no improvement"
            elif _sum_of_costs(configs, problem.goals) <= bound:
                stats["lns_stopped"] = "lower bound"
            else:
                stats["lns_stopped"] = "time limit"
    if stopped == "exhausted":
        status, reason = "no solution", "every configuration reachable from the starts was searched"
    elif stopped == "time limit":
        status, reason = "time limit", f"no solution within {limit:g} s"
    else:
        status, reason = "node limit", f"no solution within {nodes} configurations"
    return _result(
        problem,
        "lacam",
        found,
        status,
        reason,
        configs,
        stats,
        t0,
        bound,
        optimal_if=refine and stopped == "exhausted",
    )


def pibt(
    problem: Problem,
    *,
    time_limit: float | None = 10.0,
    max_steps: int = 10_000,
    swap: bool = True,
    seed: int = 0,
) -> MAPFResult:
    """Solve with PIBT: every agent one step at a time, by priority inheritance.

    PIBT (Okumura, Machida, Defago and Tamura, AIJ 2022) plans one time step of all
    agents at once, the agent longest away from its goal first; an agent takes the
    free neighbour nearest its goal, and one that wants the place of an agent not
    planned yet lets that agent plan first (backtracking if it cannot move). It is
    very fast and has no search, so it is incomplete: it may wander until
    ``max_steps`` where LaCAM (which uses it inside) would find a solution. Paths are
    lists of places (``(row, col)`` cells on grids).

    Parameters
    ----------
    problem : Problem
    time_limit : float or None
        Seconds for the whole query; None: no limit.
    max_steps : int
        Most time steps before giving up (status ``"iteration limit"``).
    swap : bool
        The swap operation of LaCAM2 (agents meeting head on in a corridor trade
        places). Ignored with following conflicts.
    seed : int
        Seed of the random tie-breaking.

    Returns
    -------
    MAPFResult
        Solver ``"pibt"``; ``stats``: ``iterations`` (time steps made),
        ``time_to_first_s``, ``stopped``. Never ``"no solution"`` unless a goal cannot
        be reached at all.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, pibt
    >>> grid = Grid.from_ascii("....\\n.#..\\n....", diagonal="never")
    >>> result = pibt(Problem(grid, [(0, 0), (2, 3)], [(2, 3), (0, 0)]))
    >>> bool(result), result.lower_bound
    (True, 10)
    >>> pibt(Problem(grid, [(0, 0)], [(2, 3)]), max_steps=2)
    MAPFResult('pibt', iteration limit: not every agent at its goal after 2 steps)
    """
    t0 = time.perf_counter()
    limit = _time_limit(time_limit)
    steps = int(_positive_int("max_steps", max_steps, allow_none=False) or 1)
    swap = _flag("swap", swap)
    rng = _seed(seed)
    stuck = unreachable(problem, "pibt", t0)
    if stuck is not None:
        return stuck
    dist = np.ascontiguousarray(problem.distance_table())
    found, stop, configs, stats = _kernel.pibt(
        problem.indptr,
        problem.indices,
        problem.starts,
        problem.goals,
        dist,
        t0,
        limit,
        steps,
        problem.following,
        swap,
        rng,
    )
    stopped = _kernel.STOP_REASONS[stop] if not found else "solved"
    stats["stopped"] = stopped
    bound = int(dist[np.arange(problem.n_agents), problem.starts].sum())
    if stopped == "time limit":
        status, reason = "time limit", f"not every agent at its goal within {limit:g} s"
    else:
        status, reason = "iteration limit", f"not every agent at its goal after {steps} steps"
    return _result(problem, "pibt", found, status, reason, configs, stats, t0, bound)
