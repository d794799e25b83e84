"""The planner: forward A* over world states on pathcraft's generic search."""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from pathcraft._options import SearchOptions
from pathcraft._validation import check_limit
from pathcraft.goap._action import Action, conditions
from pathcraft.goap._compile import (
    MISSING,
    Problem,
    Step,
    compile_problem,
    heuristic,
    missing_fact_warning,
    state_of,
    successor,
)
from pathcraft.goap._facts import OPERATORS, Condition, State, Value, kind_of
from pathcraft.result import PathResult, build_result
from pathcraft.search import astar

__all__ = ["Plan", "Planner"]

_INF = math.inf
_CACHE_SIZE = 64


#: The default ``max_expansions`` of :meth:`Planner.plan`: enough for every plan a
#: game's agents make in practice (hundreds to thousands of states), small enough that
#: a goal no action sequence reaches over an unbounded fact gives up in under a second
#: (0.75 s measured on a busy 2-core machine) instead of searching until memory runs
#: out. ``max_expansions=None`` lifts it.
DEFAULT_MAX_EXPANSIONS = 20_000


@dataclass(frozen=True, slots=True)
class Plan(PathResult):
    """What :meth:`Planner.plan` found: a :class:`~pathcraft.result.PathResult` whose
    nodes are world states, with the actions between them.

    A plan is truthy exactly when the goal is reached (``found``); an empty plan is
    found when the start already meets the goal. "No plan" is an answer, not an
    exception. Every :class:`~pathcraft.result.PathResult` field means what it means
    for any search: ``path`` is the list of states from ``start`` to the last (the
    start included; empty when nothing was found), ``cost`` the sum of the actions'
    costs (dynamic costs read in the state each runs in), ``reason`` ``"unreachable"``
    or the limit that stopped the search (``"max_expansions"``, ``"max_depth"``,
    ``"max_cost"``), ``expanded`` and ``generated`` count world states, ``elapsed``
    covers checks, pruning, search and replay. Unlike a path result, ``len(plan)`` and
    iteration go over the actions.

    Attributes
    ----------
    actions : tuple of Action
        The actions to run, first to last; empty when nothing was found.
    states : tuple of State
        ``states[i]`` is the world state after ``actions[i]``; the last meets the goal.
    start : State or None
        The state the plan starts from.
    considered : int
        How many actions the search considered after relevant-action pruning.

    Examples
    --------
    >>> from pathcraft import PathResult
    >>> from pathcraft.goap import Action, Planner, add
    >>> plan = Planner([Action("step", {}, {"x": add(1)})]).plan({"x": 0}, {"x": 2})
    >>> isinstance(plan, PathResult), plan.names, [s["x"] for s in plan.path], plan.cost
    (True, ['step', 'step'], [0, 1, 2], 2.0)
    """

    actions: tuple[Action, ...] = ()
    states: tuple[State, ...] = ()
    start: State | None = None
    considered: int = 0

    def __bool__(self) -> bool:
        return self.found

    def __len__(self) -> int:
        """The number of actions."""
        return len(self.actions)

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)

    @property
    def names(self) -> list[str]:
        """The names of the actions, in order."""
        return [a.name for a in self.actions]

    @property
    def final(self) -> State | None:
        """The state after the last action (the start for an empty plan)."""
        return self.states[-1] if self.states else self.start

    def __repr__(self) -> str:
        if not self.found:
            return f"Plan(found=False, reason={self.reason!r})"
        return f"Plan({self.names!r}, cost={self.cost!r})"


# --------------------------------------------------------------------------- planner


class Planner:
    """Goal-oriented action planning: the cheapest sequence of actions to a goal.

    Parameters
    ----------
    actions : iterable of Action
        Everything an agent can do; names must be unique.

    Raises
    ------
    TypeError
        An item that is not an :class:`~pathcraft.goap.Action`.
    ValueError
        Two actions with the same name.

    Examples
    --------
    >>> from pathcraft.goap import Action, Planner, ge
    >>> planner = Planner([
    ...     Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
    ...     Action("chop", {"has_axe": True}, {"wood": True}, cost=1),
    ...     Action("gather", {}, {"wood": True}, cost=5),
    ... ])
    >>> plan = planner.plan({"has_axe": False, "wood": False}, {"wood": True})
    >>> plan.names, plan.cost, plan.final["wood"]
    (['get_axe', 'chop'], 3.0, True)
    >>> Planner([Action("chop"), Action("chop")])
    Traceback (most recent call last):
    ...
    ValueError: two actions are named 'chop'; action names must be unique
    """

    def __init__(self, actions: Iterable[Action]) -> None:
        if isinstance(actions, Action) or not isinstance(actions, Iterable):
            raise TypeError(
                "actions must be an iterable of Action objects (a list or tuple); got "
                f"{type(actions).__name__} {actions!r}"
            )
        items = tuple(actions)
        seen: set[str] = set()
        for action in items:
            if not isinstance(action, Action):
                raise TypeError(
                    f"Planner takes Action objects; got {type(action).__name__} {action!r}"
                )
            if action.name in seen:
                raise ValueError(
                    f"two actions are named {action.name!r}; action names must be unique"
                )
            seen.add(action.name)
        self._actions = items
        self._cache: dict[Any, Problem] = {}

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions, in the order given."""
        return self._actions

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps: the actions (the compiled problems are rebuilt)."""
        return {"_actions": self._actions}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._actions = state["_actions"]
        self._cache = {}

    def plan(
        self,
        state: Mapping[str, Value],
        goal: Mapping[str, Value | Condition],
        *,
        weight: float = 1.0,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: Any = None,
        max_expansions: int | None = DEFAULT_MAX_EXPANSIONS,
        max_depth: int | None = None,
        max_cost: float | None = None,
        prune: bool = True,
    ) -> Plan:
        """The cheapest plan from ``state`` to a state meeting ``goal``.

        A forward A* (:func:`pathcraft.search.astar`) over world states: a node is a
        state, its neighbours are the states the applicable actions lead to, and a
        step costs the action's cost in the state it runs in.

        Parameters
        ----------
        state : mapping
            The current world state: fact name to a bool, int or str.
        goal : mapping
            Fact name to a plain value (equality) or a condition such as ``le(0)``;
            every one must hold at the end.
        weight : float
            ``>= 1``; weighted A*: the plan costs at most ``weight`` times the optimum.
        tie_break : {"g", "fifo", "random"}
            As in :func:`pathcraft.search.astar`. ``"random"`` also tries the actions
            in a random order at each state, so among equally cheap plans each
            ``seed`` picks its own, reproducibly: agents with equal choices vary.
        seed : int or None
            Seed of the ``"random"`` tie-breaking.
        max_expansions : int or None
            Expand at most this many states; then ``reason="max_expansions"``. The
            default, ``DEFAULT_MAX_EXPANSIONS`` (20,000 states, under a second),
            keeps a goal no plan reaches over an unbounded int fact from searching
            until memory runs out; None lifts the limit.
        max_depth : int or None
            Plans of at most this many actions. With it, a node is a state *and* the
            number of actions taken (the same state reached in fewer actions may
            still lead on when a cheaper, longer way to it could not), so the plan is
            the cheapest among those this short; a search that ran out of states
            because of the limit reports ``reason="max_depth"``.
        max_cost : float or None
            Never follow a plan prefix costing more than this; then
            ``reason="max_cost"``.
        prune : bool
            Relevant-action pruning (default on): only actions that change a fact the
            goal needs are considered, where a fact is needed when the goal names it,
            or a considered action's precondition does, or a considered action's
            ``check`` or dynamic cost reads it (its ``reads``, or every fact when not
            declared). Closed this way, no optimal plan is lost, and the states
            searched track the needed facts only; the reported states carry every
            fact. ``prune=False`` searches with every action over every fact.

        Returns
        -------
        Plan
            Truthy with the actions, the state after each and the total cost; falsy
            with ``reason`` when there is none.

        Warns
        -----
        MissingFactWarning
            When no plan is found (``reason="unreachable"``) and the start state lacks
            a fact that a considered action's precondition needs: the warning names
            the fact and the action (a missing fact meets no condition).

        Raises
        ------
        TypeError
            A state, goal, precondition or effect of the wrong kind (a str fact
            compared with an int, ``add`` on a bool...), naming the fact; a bad option.
        ValueError
            A goal or precondition naming a fact that neither the state nor any action
            knows; ``add`` on a fact the state lacks; ``weight < 1``; an unknown
            ``tie_break``; a dynamic cost that is negative, NaN or below its
            ``min_cost`` (naming the action), found during the search.

        Examples
        --------
        >>> from pathcraft.goap import Action, Planner
        >>> planner = Planner([
        ...     Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
        ...     Action("chop", {"has_axe": True}, {"wood": True}, cost=1),
        ...     Action("punch_tree", {}, {"wood": True}, cost=5),
        ... ])
        >>> plan = planner.plan({"has_axe": False, "wood": False}, {"wood": True})
        >>> plan.names, plan.cost
        (['get_axe', 'chop'], 3.0)
        >>> planner.plan({"has_axe": False, "wood": False}, {"wood": True},
        ...              max_expansions=1).reason
        'max_expansions'

        Notes
        -----
        The heuristic is admissible: every unmet goal condition needs an action that
        changes its fact, so it is at least the largest over unmet conditions of the
        cheapest such way (a set effect, or for an int fact the distance left times the
        cheapest cost per unit of its ``add`` effects), and at least ``ceil(unmet / k)``
        times the cheapest action changing a goal fact, where no action changes more
        than ``k`` of them. Dynamic costs count as their ``min_cost`` (0 when not
        declared). With ``weight=1`` the plan is optimal.
        """
        t0 = time.perf_counter()
        start = state if isinstance(state, State) else _as_state(state)
        goal_conds = conditions("goal", goal, "goal")
        opts = SearchOptions.check(
            "search", "astar", weight=weight, tie_break=tie_break, seed=seed,
            max_expansions=max_expansions, max_cost=max_cost,
        )  # fmt: skip
        w = opts.weight
        depth_limit = check_limit("max_depth", max_depth, integer=True)
        if not isinstance(prune, bool):
            raise TypeError(f"prune must be True or False; got {prune!r}")

        problem = self._problem(start, goal_conds, prune)
        names = problem.names
        values = tuple(start.get(n, MISSING) for n in names)
        rng = random.Random(seed) if tie_break == "random" else None
        expand, cut = _expander(problem, rng)
        h = heuristic(problem)
        goal_tests = [(g.index, OPERATORS[g.cond.op], g.cond.value) for g in problem.goal]

        def is_goal(vals: tuple[Any, ...]) -> bool:
            for i, compare, value in goal_tests:
                x = vals[i]
                if x is MISSING or not compare(x, value):
                    return False
            return True

        metrics: dict[str, Any] = {"considered": len(problem.steps)}
        if h(values) == _INF:  # a goal condition no considered action can meet
            if missing := missing_fact_warning(problem, start):
                warnings.warn(missing, stacklevel=2)
            return _plan("unreachable", (), (), start, _INF, t0, metrics)
        if depth_limit is None:
            result = astar(
                values, is_goal, expand, h, weight=w, tie_break=tie_break, seed=seed,
                max_expansions=max_expansions, max_cost=max_cost,
            )  # fmt: skip
            nodes = list(result.path)
        else:
            limit = int(depth_limit)

            def expand_deep(node: tuple[Any, int]) -> Iterator[tuple[Any, float]]:
                vals, depth = node
                if depth >= limit:
                    cut[0] = True
                    return
                for nb, c in expand(vals):
                    yield (nb, depth + 1), c

            result = astar(
                (values, 0), lambda n: is_goal(n[0]), expand_deep, lambda n: h(n[0]),
                weight=w, tie_break=tie_break, seed=seed, max_expansions=max_expansions,
                max_cost=max_cost,
            )  # fmt: skip
            nodes = [n[0] for n in result.path]

        metrics.update(expanded=result.expanded, generated=result.generated)
        if not result.found:
            reason = result.reason
            if reason == "unreachable" and (missing := missing_fact_warning(problem, start)):
                warnings.warn(missing, stacklevel=2)
            if reason == "unreachable" and cut[0]:
                reason = "max_depth"
            return _plan(reason, (), (), start, _INF, t0, metrics)
        steps = _recover(problem, nodes, rng)
        after: list[State] = []
        current = start
        cost = 0.0
        for step, step_cost in steps:
            current = step.action.apply(current)
            after.append(current)
            cost += step_cost
        actions = tuple(s.action for s, _ in steps)
        return _plan(None, actions, tuple(after), start, cost, t0, metrics)

    def _problem(self, start: State, goal: dict[str, Condition], prune: bool) -> Problem:
        kinds = {fact: kind_of(value) for fact, value in start.items()}
        key = (tuple(kinds.items()), tuple(goal.items()), prune)
        problem = self._cache.get(key)
        if problem is None:
            problem = compile_problem(self._actions, kinds, goal, prune)  # type: ignore[arg-type]
            if len(self._cache) >= _CACHE_SIZE:  # forget the oldest; threads may race here
                with contextlib.suppress(StopIteration, RuntimeError):
                    self._cache.pop(next(iter(self._cache)), None)
            self._cache[key] = problem
        return problem


def _plan(
    reason: str | None,
    actions: tuple[Action, ...],
    after: tuple[State, ...],
    start: State,
    cost: float,
    t0: float,
    metrics: dict[str, Any],
) -> Plan:
    """The plan, built like every result (:func:`pathcraft.result.build_result`)."""
    path = [start, *after] if reason is None else []
    plan = build_result(
        reason, path, cost, expanded=metrics.get("expanded", 0),
        generated=metrics.get("generated", 0), t0=t0, kind=Plan,
        fields={"actions": actions, "states": after, "start": start,
                "considered": metrics["considered"]},
    )  # fmt: skip
    return cast(Plan, plan)


def _as_state(state: Any) -> State:
    if not isinstance(state, Mapping):
        raise TypeError(
            f"state must be a mapping of fact names to values; got {type(state).__name__}"
        )
    return State(state)


class _LazyState:
    """The State of one node, built on first use (only checks and dynamic costs need it)."""

    __slots__ = ("_names", "_state", "_values")

    def __init__(self, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self._names, self._values = names, values
        self._state: State | None = None

    def get(self) -> State:
        if self._state is None:
            self._state = state_of(self._names, self._values)
        return self._state


def _step_cost(step: Step, lazy: _LazyState) -> float | None:
    """The cost of ``step`` from the node behind ``lazy``; None when its check fails."""
    if not step.needs_state:
        return step.static
    state = lazy.get()
    check = step.action.check
    if check is not None and not check(state):
        return None
    return step.static if step.static is not None else step.action.cost_in(state)


def _expander(
    problem: Problem, rng: random.Random | None
) -> tuple[Callable[[tuple[Any, ...]], Iterator[tuple[Any, float]]], list[bool]]:
    """``neighbors(values)`` for the search, and a flag the depth limit sets."""
    steps, names = problem.steps, problem.names
    cut = [False]

    def expand(values: tuple[Any, ...]) -> Iterator[tuple[Any, float]]:
        order = steps
        if rng is not None:
            order = steps[:]
            rng.shuffle(order)
        lazy = _LazyState(names, values)
        for step in order:
            new = successor(step, values)
            if new is None or new == values:
                continue
            cost = _step_cost(step, lazy)
            if cost is not None:
                yield new, cost

    return expand, cut


def _recover(
    problem: Problem, nodes: list[tuple[Any, ...]], rng: random.Random | None
) -> list[tuple[Step, float]]:
    """The cheapest action for each step of a path of nodes (the search's step cost).

    The search keeps the cheapest action between two states, the first met among
    equals; here equals go to the first in the actions' order, or to a random one
    with ``tie_break="random"``.
    """
    out = []
    for a, b in itertools.pairwise(nodes):
        best: list[Step] = []
        best_cost = _INF
        lazy = _LazyState(problem.names, a)
        for step in problem.steps:
            if successor(step, a) != b:
                continue
            cost = _step_cost(step, lazy)
            if cost is None:
                continue
            if cost < best_cost:
                best, best_cost = [step], cost
            elif cost == best_cost:
                best.append(step)
        chosen = best[0] if rng is None or len(best) == 1 else rng.choice(best)
        out.append((chosen, best_cost))
    return out
