"""Windowed cooperative A* (WHCA*, Silver 2005): every few steps all agents plan the
next ``window`` steps one after another around each other's reservations, guided
beyond the window by their true distance to the goal, and walk the first steps."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.sipp import SIPP_FOUND, SIPP_TIME_LIMIT, Reservations, sipp
from pathcraft._validation import check_limit
from pathcraft.mapf._prioritized import unreachable
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._result import MAPFResult

__all__ = ["check_window", "plan_window", "whca"]


def check_window(window: Any, replan: Any) -> tuple[int, int]:
    """``window`` (>= 1) and ``replan`` (1 .. window; None: half the window) as ints."""
    win = check_limit("window", window, integer=True)
    if win is None or win < 1:
        raise ValueError(f"window must be an int >= 1; got {window!r}")
    if replan is None:
        return int(win), max(1, int(win) // 2)
    every = check_limit("replan", replan, integer=True)
    if every is None or not 1 <= every <= win:
        raise ValueError(f"replan must be an int from 1 to window ({win}); got {replan!r}")
    return int(win), int(every)


def plan_window(
    table: Reservations,
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    here: npt.NDArray[np.int32],
    goals: npt.NDArray[np.int32],
    heuristics: list[npt.NDArray[np.int32]],
    order: list[int],
    window: int,
    deadline: float,
) -> tuple[list[npt.NDArray[np.int32]] | None, int]:
    """One round: every agent of ``order`` plans ``window`` steps from ``here`` around
    the ones before it (cleared table first) and reserves its plan, resting at its end
    through the window. When an agent finds no plan, the round starts again with it
    first (at most once per agent). The plans (each at least ``window + 1`` nodes) or
    None, and the expansions spent. ``TimeoutError`` past the deadline."""
    spent = 0
    order = list(order)
    for _attempt in range(len(order) + 1):
        table.clear()
        plans: list[npt.NDArray[np.int32]] = [here[:0]] * len(here)
        stuck = -1
        for agent in order:
            if time.perf_counter() > deadline:  # (a search checks only every 256 steps)
                raise TimeoutError
            status, path = sipp(
                table,
                indptr,
                indices,
                heuristics[agent],
                int(here[agent]),
                int(goals[agent]),
                window=window,
                deadline=deadline,
            )
            spent += table.expanded
            if status == SIPP_TIME_LIMIT:
                raise TimeoutError
            if status != SIPP_FOUND or path is None:
                stuck = agent
                break
            table.reserve_path(path, until=window)
            plans[agent] = path
        if stuck < 0:
            return plans, spent
        order.remove(stuck)
        order.insert(0, stuck)
    return None, spent


def whca(
    problem: Problem,
    *,
    time_limit: float = 10.0,
    window: int = 16,
    replan: int | None = None,
    max_steps: int | None = None,
    seed: int = 0,
) -> MAPFResult:
    """Windowed cooperative A* (WHCA*): what a game loop runs for many units.

    Every ``replan`` steps, all agents plan the next ``window`` time steps in turn,
    each around the reservations of the agents before it (safe-interval path planning
    over the reservation table, with the true distance to its goal as the estimate
    beyond the window), and walk the first ``replan`` steps of their plans. The order
    is a fixed priority (the farthest from their goals at the start first), except
    that agents that have reached their goals once plan last, so they step aside and
    a displaced one does not push back; after two rounds without progress the
    priority is drawn at random. The walk ends when every agent is at its goal.
    Incomplete: agents can block or chase each other for good, which ends it at
    ``max_steps``.

    Parameters
    ----------
    problem : Problem
        Following conflicts (``Problem(..., following=True)``) are kept too.
    time_limit : float
        Seconds.
    window : int
        Time steps each round plans ahead (>= 1).
    replan : int or None
        Steps walked between rounds, 1 .. ``window``; None: ``window // 2``.
    max_steps : int or None
        The longest walk; None: ``4 * n_nodes + 100`` steps.
    seed : int
        The random orders tried after two rounds without progress (the sum of the
        agents' distances to their goals not below its best) come from this seed.

    Returns
    -------
    MAPFResult
        ``stats``: ``expansions``, ``rounds``, ``steps``. Falsy with ``"no solution"``
        only when an agent cannot reach its goal at all; ``"time limit"``; or
        ``"iteration limit"`` after ``max_steps`` or when a round finds no plan for
        some agent whichever goes first.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, validate
    >>> from pathcraft.mapf._whca import whca
    >>> grid = Grid.from_ascii("#.##\\n....", diagonal="never")
    >>> problem = Problem(grid, [(1, 0), (1, 3)], [(1, 3), (1, 0)])
    >>> result = whca(problem, window=4)
    >>> bool(result), validate(problem, result.paths), result.sum_of_costs
    (True, [], 8)
    """
    started = time.perf_counter()
    win, every = check_window(window, replan)
    steps_cap = check_limit("max_steps", max_steps, integer=True)
    cap = 4 * problem.n_nodes + 100 if steps_cap is None else int(steps_cap)
    deadline = started + time_limit if math.isfinite(time_limit) else math.inf
    solver = "whca"
    no_way = unreachable(problem, solver, started)
    if no_way is not None:
        return no_way
    heuristics = [problem.distances(a) for a in range(problem.n_agents)]
    table = Reservations(problem.n_nodes, problem.following)
    here = problem.starts.copy()
    goals = problem.goals
    walked: list[list[int]] = [[int(v)] for v in here]
    expansions = 0
    rounds = 0
    steps = 0
    agents = np.arange(problem.n_agents)
    rng = np.random.default_rng(seed)
    priority = np.argsort(np.argsort(-problem.distance_table()[agents, here], kind="stable"))
    best = np.iinfo(np.int64).max
    stalled = 0
    arrived = np.zeros(problem.n_agents, dtype=bool)
    while not np.array_equal(here, goals):
        if steps >= cap or time.perf_counter() > deadline:
            break
        rounds += 1
        left = np.array([heuristics[a][here[a]] for a in agents.tolist()], dtype=np.int64)
        total = int(left.sum())
        stalled = stalled + 1 if total >= best else 0
        best = min(best, total)
        # a fixed priority (the farthest at the start first), agents that have reached
        # their goals once last (so they step aside, and a displaced one does not push
        # back); after rounds without progress, a random priority breaks the jam
        if stalled >= 2:
            priority = rng.permutation(problem.n_agents)
        arrived |= left == 0
        order = [int(a) for a in np.lexsort((priority, arrived))]
        try:
            plans, spent = plan_window(
                table,
                problem.indptr,
                problem.indices,
                here,
                goals,
                heuristics,
                order,
                win,
                deadline,
            )
        except TimeoutError:
            break
        expansions += spent
        if plans is None:
            return MAPFResult.failed(
                problem,
                "iteration limit",
                f"round {rounds}: no order of the agents (each stuck one tried first) gave "
                "every agent a plan for the next window (WHCA* is incomplete: a solution "
                "may exist)",
                solver=solver,
                time_s=time.perf_counter() - started,
                stats={"expansions": expansions, "rounds": rounds},
            )
        for agent, plan in enumerate(plans):
            stretch = plan[1 : every + 1].tolist()
            stretch += [int(plan[-1])] * (every - len(stretch))
            walked[agent].extend(stretch)
            here[agent] = stretch[-1]
        steps += every
    stats = {"expansions": expansions, "rounds": rounds, "steps": steps}
    if np.array_equal(here, goals):
        return MAPFResult.from_node_paths(
            problem,
            [np.array(w, dtype=np.int32) for w in walked],
            solver=solver,
            time_s=time.perf_counter() - started,
            stats=stats,
        )
    over_time = time.perf_counter() > deadline
    return MAPFResult.failed(
        problem,
        "time limit" if over_time else "iteration limit",
        f"not every agent reached its goal within {time_limit} s"
        if over_time
        else f"not every agent reached its goal within max_steps={cap} steps",
        solver=solver,
        time_s=time.perf_counter() - started,
        stats=stats,
    )
