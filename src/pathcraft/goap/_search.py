"""One planning search toward several goals by priority, sliced over frames.

The goals are grouped into classes of equal priority, highest first. The search is an
A* toward the top class (heuristic: the least of its goals' bounds, goal test: any of
them) that also notes, for every state it expands, the cheapest state meeting each
lower class. Why one search is enough:

- The heuristic is consistent (see :func:`pathcraft.goap._compile.heuristic`), so a
  state is expanded at its cheapest cost, and the first state meeting the top class
  that is expanded ends the cheapest plan to that class.
- A state whose bound toward the class is infinite cannot reach it, nor can any state
  after it (such a bound means an unmet condition on a fact no considered action
  changes, or from a missing fact only sets could give: it stays so along every
  action). Those states are set aside, not searched: every state that can reach the
  class is reached through states that can too, so the costs above stay exact.
- When no state is left to search toward a class, that class is unreachable (within
  the limits) and every state expanded so far has its exact cost. The search turns to
  the next class: the states set aside are searched from their current costs, as
  several starts of one A* with the new class's heuristic, and the best state meeting
  the class among those already expanded competes as a goal reached at its known
  cost: the search ends with it as soon as nothing left to expand is cheaper.

A class none of whose goals a relaxed plan reaches (see :meth:`Planner.plan`'s
notes: nothing it needs is lost) is passed over from the start, and the search
ends unreachable at once when no class is left. With ``weight > 1`` each class's plan
keeps the weighted bound. ``max_expansions`` and
``max_cost`` cut the whole search; a cut-off answer names the goal the search was
serving (:attr:`Plan.goal`).
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Sequence
from typing import Any, cast

from pathcraft._core import goap as _kernel
from pathcraft._engine import CANCELLED, FAILED, IN_PROGRESS, no_result
from pathcraft._validation import check_budget
from pathcraft.goap._compile import MissingFactWarning, Problem, missing_fact_warning
from pathcraft.goap._facts import State
from pathcraft.goap._fast import STATUS, Ask, build_plan
from pathcraft.goap._goal import Goal
from pathcraft.goap._packed import packed
from pathcraft.goap._plan import Plan
from pathcraft.search import Status

__all__ = ["PlanSearch"]

_TIES = {"g": 0, "fifo": 1, "random": 2}


class PlanSearch:
    """A plan being searched, a slice of expansions at a time (:meth:`Planner.start`).

    The same plan as :meth:`Planner.plan` with the same arguments, however the search
    is sliced; the interface of :class:`pathcraft.search.SlicedSearch`, so a
    :class:`~pathcraft.agents.PathRequestQueue` runs plans too.

    Examples
    --------
    >>> from pathcraft.goap import Action, Planner, add
    >>> planner = Planner([Action("step", {}, {"x": add(1)})])
    >>> search = planner.start({"x": 0}, {"x": 5})
    >>> search.step(2), search.expanded
    ('in_progress', 2)
    >>> while search.step(2) == "in_progress":
    ...     pass
    >>> search.status, search.result.names == planner.plan({"x": 0}, {"x": 5}).names
    ('found', True)
    """

    __slots__ = (
        "_core",
        "_elapsed",
        "_goals",
        "_problem",
        "_result",
        "_setup",
        "_start",
        "_status",
        "_warned",
    )  # fmt: skip

    def __init__(
        self,
        problem: Problem,
        start: State,
        goals: Sequence[Goal],
        classes: list[list[int]],
        *,
        weight: float,
        tie_break: str,
        seed: Any,
        max_expansions: int | None,
        max_depth: int | None,
        max_cost: float | None,
        t0: float,
    ) -> None:
        self._problem = problem
        self._start = start
        self._goals = goals
        tables, codes = packed(problem, start)
        tie = _TIES[tie_break]
        self._core = _kernel.Search(
            tables.tables, codes, classes,
            Ask(problem, tables) if tables.tables.callbacks else None,
            weight, tie, random.Random(seed).getrandbits(64) if tie == 2 else 0,
            -1 if max_expansions is None else max_expansions,
            -1 if max_depth is None else max_depth,
            math.inf if max_cost is None else max_cost,
        )  # fmt: skip
        self._status: str = IN_PROGRESS
        self._result: Plan | None = None
        self._warned = False
        self._elapsed = 0.0
        self._setup = time.perf_counter() - t0

    # ------------------------------------------------------------------ public

    def step(self, max_expansions: int | None = None) -> Status:
        """Expand at most ``max_expansions`` states (None: until the search ends).

        Returns ``"in_progress"``, ``"found"`` (then :attr:`result` holds the plan) or
        the reason the search ended without a plan, spelt as :attr:`Plan.reason`;
        ``"cancelled"`` after :meth:`cancel`; ``"failed"`` once an action's check or
        dynamic cost raised (the error reaches the caller of that step). Stepping an
        ended search returns its status again and does nothing.

        Warns
        -----
        MissingFactWarning
            As :meth:`Planner.plan` does, when the search ends unreachable.

        Examples
        --------
        >>> from pathcraft.goap import Action, Planner, add
        >>> search = Planner([Action("step", {}, {"x": add(1)})]).start({"x": 0}, {"x": 3})
        >>> search.step(2), search.step(2), search.result.names
        ('in_progress', 'found', ['step', 'step', 'step'])
        """
        budget = check_budget(max_expansions)
        if self._status != IN_PROGRESS:
            return cast(Status, self._status)
        status = self._advance(-1 if budget is None else budget)
        if (missing := self._missing_fact()) is not None:
            warnings.warn(missing, stacklevel=2)
        return status

    def _advance(self, budget: int) -> Status:
        """:meth:`step` with a checked budget (-1: no limit) and no warning."""
        if self._status != IN_PROGRESS:
            return cast(Status, self._status)
        t = time.perf_counter()
        try:
            status = STATUS[self._core.run(budget)]
        except BaseException:
            self._status = FAILED  # a check or a dynamic cost raised: no going on
            raise
        self._elapsed += time.perf_counter() - t
        if status != IN_PROGRESS:
            self._status = status
            self._result = self._finish()
        return cast(Status, status)

    def finish(self) -> tuple[Plan, MissingFactWarning | None]:
        """Run to the end, without a warning: the plan, and the warning :meth:`step`
        would give (a fact the start lacks, for an unreachable plan) or None, for the
        caller to give in its own name.

        Examples
        --------
        >>> from pathcraft.goap import Action, Planner
        >>> planner = Planner([Action("eat", {"has_food": True}, {"hungry": False}),
        ...                    Action("drop", {"has_food": True}, {"has_food": False})])
        >>> search = planner.start({"hungry": True}, {"hungry": False})
        >>> plan, missing = search.finish()
        >>> plan.reason, type(missing).__name__
        ('unreachable', 'MissingFactWarning')
        """
        self._advance(-1)
        return self.result, self._missing_fact()

    def _missing_fact(self) -> MissingFactWarning | None:
        """Once the search ended unreachable: the warning naming a fact the start
        state lacks that a considered action needs (the likely reason), if any."""
        if self._status != "unreachable" or self._warned:
            return None
        self._warned = True
        return missing_fact_warning(self._problem, self._start)

    @property
    def status(self) -> Status:
        """The status the last :meth:`step` returned (``"in_progress"`` before any)."""
        return cast(Status, self._status)

    @property
    def problem(self) -> Problem:
        """The compiled problem searched (for :mod:`pathcraft.goap`'s modules)."""
        return self._problem

    @property
    def goals(self) -> list[Goal]:
        """The goals, in the order given."""
        return list(self._goals)

    @property
    def expanded(self) -> int:
        """How many states have been expanded so far, over all slices."""
        return int(self._core.expanded)

    @property
    def result(self) -> Plan:
        """The plan, exactly :meth:`Planner.plan`'s; only once the search ended.

        Raises
        ------
        RuntimeError
            The search is in progress or was cancelled.
        """
        if self._result is None:
            raise no_result(self._status)
        return self._result

    def cancel(self) -> None:
        """Stop the search for good (status ``"cancelled"``) and drop its state.

        Examples
        --------
        >>> from pathcraft.goap import Action, Planner, add
        >>> search = Planner([Action("step", {}, {"x": add(1)})]).start({"x": 0}, {"x": 9})
        >>> search.step(1), search.cancel(), search.status
        ('in_progress', None, 'cancelled')
        """
        if self._status == IN_PROGRESS:
            self._status = CANCELLED
            self._core.release()

    # ------------------------------------------------------------------ result

    def _finish(self) -> Plan:
        core = self._core
        elapsed = self._elapsed + self._setup
        considered = len(self._problem.steps)
        if core.reached < 0:
            serving = self._goals[core.class_goal()]
            return build_plan(self._status, (), self._start, serving, elapsed, core.expanded,
                              core.generated, considered)  # fmt: skip
        path, cost = core.steps(core.reached)
        steps = self._problem.steps
        return build_plan(None, tuple(steps[s].action for s in path), self._start,
                          self._goals[core.reached_goal], elapsed, core.expanded,
                          core.generated, considered, cost)  # fmt: skip
