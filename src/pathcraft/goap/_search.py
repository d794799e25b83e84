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

With ``weight > 1`` each class's plan keeps the weighted bound. ``max_expansions`` and
``max_cost`` cut the whole search; a cut-off answer names the goal the search was
serving (:attr:`Plan.goal`).
"""

from __future__ import annotations

import heapq
import math
import random
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, cast

from pathcraft._engine import CANCELLED, FOUND, IN_PROGRESS, no_result
from pathcraft._validation import check_budget
from pathcraft.goap._compile import (
    MISSING,
    MissingFactWarning,
    Problem,
    Step,
    heuristic,
    missing_fact_warning,
    state_of,
    successor,
)
from pathcraft.goap._facts import OPERATORS, State
from pathcraft.goap._goal import Goal
from pathcraft.goap._plan import Plan, build_plan
from pathcraft.search import Status

__all__ = ["PlanSearch"]

_INF = math.inf

Tests = list[tuple[int, Callable[[Any, Any], bool], Any]]


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
        "_best",
        "_classes",
        "_closed",
        "_counter",
        "_cut_cost",
        "_cut_depth",
        "_deferred",
        "_depth",
        "_depth_limit",
        "_elapsed",
        "_expanded",
        "_g",
        "_generated",
        "_goal_tests",
        "_goals",
        "_h",
        "_heap",
        "_hs",
        "_limit_cost",
        "_limit_exp",
        "_nodes",
        "_parent",
        "_phase",
        "_problem",
        "_reached",
        "_result",
        "_rng",
        "_setup",
        "_start",
        "_status",
        "_t0",
        "_tie",
        "_vals",
        "_via",
        "_warned",
        "_weight",
    )

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
        self._classes = classes
        self._weight = weight
        self._tie = tie_break
        self._rng = random.Random(seed) if tie_break == "random" else None
        self._limit_exp = -1 if max_expansions is None else max_expansions
        self._depth_limit = max_depth
        self._limit_cost = _INF if max_cost is None else max_cost
        self._hs = [heuristic(problem, i) for i in range(len(problem.goals))]
        self._goal_tests: list[Tests] = [
            [(g.index, OPERATORS[g.cond.op], g.cond.value) for g in table.facts]
            for table in problem.goals
        ]
        self._nodes: dict[Any, int] = {}
        self._vals: list[tuple[Any, ...]] = []
        self._g: list[float] = []
        self._h: list[float] = []
        self._parent: list[int] = []
        self._via: list[Step | None] = []
        self._depth: list[int] = []
        self._closed: list[bool] = []
        self._heap: list[tuple[float, float, int, int]] = []
        self._deferred: list[int] = []
        self._counter = 0
        self._expanded = 0
        self._generated = 0
        self._cut_depth = self._cut_cost = False
        self._phase = 0
        # per class: (g, node, goal index) of the cheapest expanded state meeting it
        self._best: list[tuple[float, int, int] | None] = [None] * len(classes)
        self._reached: tuple[int, int] | None = None  # (node, goal index)
        self._status: str = IN_PROGRESS
        self._result: Plan | None = None
        self._t0 = t0
        self._elapsed = 0.0
        self._warned = False
        values = tuple(start.get(n, MISSING) for n in problem.names)
        self._add(values, 0.0, -1, None, 0)
        self._setup = time.perf_counter() - t0

    # ------------------------------------------------------------------ public

    def step(self, max_expansions: int | None = None) -> Status:
        """Expand at most ``max_expansions`` states (None: until the search ends).

        Returns ``"in_progress"``, ``"found"`` (then :attr:`result` holds the plan) or
        the reason the search ended without a plan, spelt as :attr:`Plan.reason`;
        ``"cancelled"`` after :meth:`cancel`. Stepping an ended search returns its
        status again and does nothing.

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
        status = self._run(budget)
        self._elapsed += time.perf_counter() - t
        if status != IN_PROGRESS:
            self._status = status
            self._result = self._finish()
        return cast(Status, status)

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
    def expanded(self) -> int:
        """How many states have been expanded so far, over all slices."""
        return self._expanded

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
            self._nodes.clear()
            self._heap.clear()
            self._deferred.clear()

    # ------------------------------------------------------------------ search

    def _meets(self, cls: int, values: tuple[Any, ...]) -> int:
        """The first goal of class ``cls`` that ``values`` meets, or -1."""
        for gi in self._classes[cls]:
            for i, compare, value in self._goal_tests[gi]:
                x = values[i]
                if x is MISSING or not compare(x, value):
                    break
            else:
                return gi
        return -1

    def _bound(self, values: tuple[Any, ...]) -> float:
        """The heuristic toward the current class: its goals' least bound."""
        hs = self._hs
        return min(hs[gi](values) for gi in self._classes[self._phase])

    def _add(self, values: tuple[Any, ...], g: float, parent: int, via: Step | None,
             depth: int) -> None:  # fmt: skip
        key = values if self._depth_limit is None else (values, depth)
        index = len(self._vals)
        self._nodes[key] = index
        self._vals.append(values)
        self._g.append(g)
        self._parent.append(parent)
        self._via.append(via)
        self._depth.append(depth)
        self._closed.append(False)
        self._h.append(_INF)
        self._place(index)

    def _place(self, index: int) -> None:
        """Put a node on the open list with the current class's bound, or aside."""
        h = self._bound(self._vals[index])
        self._h[index] = h
        if h == _INF:
            self._deferred.append(index)
        else:
            self._push(index)

    def _push(self, index: int) -> None:
        g = self._g[index]
        if self._tie == "g":
            tie = -g
        elif self._rng is not None:
            tie = self._rng.random()
        else:
            tie = 0.0
        f = g + self._weight * self._h[index]
        heapq.heappush(self._heap, (f, tie, self._counter, index))
        self._counter += 1
        self._generated += 1

    def _next_class(self) -> bool:
        """Turn to the next class; False when there is none."""
        self._phase += 1
        if self._phase >= len(self._classes):
            return False
        aside, self._deferred = self._deferred, []
        seen = set()
        for index in aside:
            if index not in seen and not self._closed[index]:
                seen.add(index)
                self._place(index)
        return True

    def _run(self, budget: int) -> str:
        heap = self._heap
        closed, g_of = self._closed, self._g
        n_classes = len(self._classes)
        limit = self._limit_exp
        while True:
            if not heap:
                best = self._best[self._phase]
                if best is not None:
                    self._reached = best[1], best[2]
                    return FOUND
                if not self._next_class():
                    self._phase = len(self._classes) - 1
                    if self._cut_depth:
                        return "max_depth"
                    return "max_cost" if self._cut_cost else "unreachable"
                continue
            if budget == 0:
                return IN_PROGRESS
            f, _tie, _c, index = heap[0]
            if closed[index]:
                heapq.heappop(heap)
                continue
            best = self._best[self._phase]
            if best is not None and f >= best[0]:
                self._reached = best[1], best[2]
                return FOUND
            if self._expanded == limit:
                return "max_expansions"
            heapq.heappop(heap)
            closed[index] = True
            self._expanded += 1
            budget -= 1
            values = self._vals[index]
            g = g_of[index]
            goal = self._meets(self._phase, values)
            if goal >= 0:
                self._reached = index, goal
                return FOUND
            for cls in range(self._phase + 1, n_classes):
                goal = self._meets(cls, values)
                if goal >= 0:
                    known = self._best[cls]
                    if known is None or g < known[0]:
                        self._best[cls] = (g, index, goal)
            self._expand(index, values, g)

    def _expand(self, index: int, values: tuple[Any, ...], g: float) -> None:
        depth = self._depth[index] + 1
        if self._depth_limit is not None and depth > self._depth_limit:
            self._cut_depth = True
            return
        steps = self._problem.steps
        if self._rng is not None:
            steps = steps[:]
            self._rng.shuffle(steps)
        names = self._problem.names
        state: State | None = None
        nodes, g_of, closed = self._nodes, self._g, self._closed
        deep = self._depth_limit is not None
        for step in steps:
            new = successor(step, values)
            if new is None or new == values:
                continue
            if step.needs_state:
                if state is None:
                    state = state_of(names, values)
                check = step.action.check
                if check is not None and not check(state):
                    continue
                cost = step.static if step.static is not None else step.action.cost_in(state)
            else:
                cost = cast(float, step.static)
            d = g + cost
            j = nodes.get((new, depth) if deep else new)
            if j is None:
                if d > self._limit_cost:
                    self._cut_cost = True
                    continue
                self._add(new, d, index, step, depth)
            elif not closed[j] and d < g_of[j]:
                g_of[j] = d
                self._parent[j] = index
                self._via[j] = step
                if self._h[j] != _INF:
                    self._push(j)

    # ------------------------------------------------------------------ result

    def _finish(self) -> Plan:
        goals = self._goals
        elapsed = self._elapsed + self._setup
        considered = len(self._problem.steps)
        if self._reached is None:
            serving = goals[self._classes[self._phase][0]]
            return build_plan(self._status, (), self._start, serving, elapsed,
                              self._expanded, self._generated, considered)  # fmt: skip
        node, goal = self._reached
        index = node
        steps: list[Step] = []
        while index > 0:
            steps.append(cast(Step, self._via[index]))
            index = self._parent[index]
        steps.reverse()
        return build_plan(None, tuple(s.action for s in steps), self._start, goals[goal],
                          elapsed, self._expanded, self._generated, considered,
                          self._g[node])  # fmt: skip


def run_to_end(search: PlanSearch) -> Plan:
    """Run ``search`` to its end and return the plan (for :meth:`Planner.plan`, which
    warns in its caller's name)."""
    search._advance(-1)
    if (missing := search._missing_fact()) is not None:
        warnings.warn(missing, stacklevel=3)
    return search.result
