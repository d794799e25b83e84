"""Prioritized planning: agents one after another, each by safe-interval path planning
(SIPP) around the paths of the agents before it, which then stay at their goals."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.sipp import (
    SIPP_EXPANSION_LIMIT,
    SIPP_FOUND,
    SIPP_TIME_LIMIT,
    Reservations,
    sipp,
)
from pathcraft._validation import check_choice, check_limit
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._result import MAPFResult

__all__ = ["ORDERS", "prioritized", "unreachable"]

#: The first order of the agents: their index, or the longest (shortest) individual
#: path first.
ORDERS = ("longest", "shortest", "index")


def unreachable(problem: Problem, solver: str, started: float) -> MAPFResult | None:
    """A "no solution" result when some agent cannot reach its goal at all, else None."""
    table = problem.distance_table()
    cannot = np.flatnonzero(table[np.arange(problem.n_agents), problem.starts] < 0)
    if cannot.size == 0:
        return None
    agent = int(cannot[0])
    return MAPFResult.failed(
        problem,
        "no solution",
        f"agent {agent} cannot reach its goal {problem.places[int(problem.goals[agent])]!r} "
        f"from its start {problem.places[int(problem.starts[agent])]!r}",
        solver=solver,
        time_s=time.perf_counter() - started,
    )


def first_order(problem: Problem, order: str) -> list[int]:
    """The agents in the order named by ``order`` (one of :data:`ORDERS`)."""
    if order == "index":
        return list(range(problem.n_agents))
    table = problem.distance_table()
    lengths = table[np.arange(problem.n_agents), problem.starts]
    ranked = np.argsort(-lengths if order == "longest" else lengths, kind="stable")
    return [int(a) for a in ranked]


def prioritized(
    problem: Problem,
    *,
    time_limit: float = 10.0,
    order: str = "longest",
    max_expansions: int | None = None,
) -> MAPFResult:
    """Prioritized planning with safe-interval path planning (SIPP).

    The agents are planned one at a time: each takes the path that reaches its goal
    earliest (and can stay there for good) without meeting the agents planned before
    it, which keep their goals reserved once there (Silver 2005; SIPP: Phillips and
    Likhachev 2011). When an agent finds no such path, the planning starts again with
    that agent first, until ``time_limit``. Fast and often good, but incomplete: it
    may fail where a solution exists, and it never proves one optimal (except for a
    single agent).

    Parameters
    ----------
    problem : Problem
    time_limit : float
        Seconds for all attempts.
    order : {"longest", "shortest", "index"}
        The first order: longest individual path first (the default), shortest first,
        or by agent index.
    max_expansions : int or None
        A limit on each SIPP search's expansions.

    Returns
    -------
    MAPFResult
        ``stats``: ``expansions`` (of all searches), ``attempts`` (orders tried).
        Falsy with status ``"no solution"`` only when an agent cannot reach its goal at
        all; ``"time limit"`` or ``"node limit"`` otherwise.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, validate
    >>> from pathcraft.mapf._prioritized import prioritized
    >>> grid = Grid.from_ascii("....\\n.##.\\n....", diagonal="never")
    >>> problem = Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)])
    >>> result = prioritized(problem)
    >>> result.sum_of_costs, result.lower_bound, validate(problem, result.paths)
    (10, 6, [])
    """
    started = time.perf_counter()
    check_choice("order", order, ORDERS)
    limit = check_limit("max_expansions", max_expansions, integer=True)
    expansions_cap = -1 if limit is None else int(limit)
    deadline = started + time_limit if math.isfinite(time_limit) else math.inf
    solver = "prioritized"
    no_way = unreachable(problem, solver, started)
    if no_way is not None:
        return no_way
    agents = first_order(problem, order)
    expansions = 0
    attempts = 0
    while True:
        attempts += 1
        paths, failed, status, spent = _plan_in_order(problem, agents, deadline, expansions_cap)
        expansions += spent
        stats: dict[str, Any] = {"expansions": expansions, "attempts": attempts}
        if failed < 0:
            return MAPFResult.from_node_paths(
                problem,
                paths,
                solver=solver,
                time_s=time.perf_counter() - started,
                optimal=problem.n_agents <= 1,
                stats=stats,
            )
        if status == SIPP_EXPANSION_LIMIT:
            return MAPFResult.failed(
                problem,
                "node limit",
                f"agent {failed}'s search reached max_expansions={expansions_cap}",
                solver=solver,
                time_s=time.perf_counter() - started,
                stats=stats,
            )
        if status == SIPP_TIME_LIMIT or time.perf_counter() > deadline:
            return MAPFResult.failed(
                problem,
                "time limit",
                f"no order of the agents worked within {time_limit} s ({attempts} tried; "
                "prioritized planning is incomplete: a solution may exist)",
                solver=solver,
                time_s=time.perf_counter() - started,
                stats=stats,
            )
        agents.remove(failed)
        agents.insert(0, failed)


def _plan_in_order(
    problem: Problem, agents: list[int], deadline: float, max_expansions: int
) -> tuple[list[npt.NDArray[np.int32]], int, int, int]:
    """Paths by agent in ``agents``' order; the first agent that failed (-1: none), the
    status of its search, and the expansions spent."""
    table = Reservations(problem.n_nodes, problem.following)
    paths: list[npt.NDArray[np.int32]] = [problem.starts[:0]] * problem.n_agents
    spent = 0
    for agent in agents:
        if time.perf_counter() > deadline:  # (a search checks only every 256 steps)
            return paths, agent, SIPP_TIME_LIMIT, spent
        status, path = sipp(
            table,
            problem.indptr,
            problem.indices,
            problem.distances(agent),
            int(problem.starts[agent]),
            int(problem.goals[agent]),
            max_expansions=max_expansions,
            deadline=deadline,
        )
        spent += table.expanded
        if status != SIPP_FOUND or path is None:
            return paths, agent, status, spent
        table.reserve_path(path, forever=True)
        paths[agent] = path
    return paths, -1, SIPP_FOUND, spent
