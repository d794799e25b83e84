"""The planner: forward A* over world states, toward one goal or several by priority."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pathcraft._options import SearchOptions
from pathcraft._validation import check_limit
from pathcraft.goap._action import Action, conditions
from pathcraft.goap._compile import Problem, compile_problem
from pathcraft.goap._facts import State, Value, kind_of
from pathcraft.goap._fast import (
    DEFAULT_MAX_EXPANSIONS,
    FastPlans,
    GoalArg,
    classes_of,
    defaults,
    remember,
)  # fmt: skip
from pathcraft.goap._goal import Goal
from pathcraft.goap._plan import Plan
from pathcraft.goap._search import PlanSearch

__all__ = ["DEFAULT_MAX_EXPANSIONS", "Plan", "Planner"]

# DEFAULT_MAX_EXPANSIONS (the default max_expansions) and the default weight live with
# the fast path, which checks them by identity.


# --------------------------------------------------------------------------- planner


class Planner(FastPlans):
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
        super().__init__()
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
        FastPlans.__init__(self)
        self._actions = state["_actions"]
        self._cache = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by :meth:`__getstate__` (said here: the compiled base class has a
        reduce of its own, which would keep the compiled problems)."""
        return (_unpickle, (type(self), self.__getstate__()))

    # The method is compiled (``_fast.FastPlans``, the base class): a call that needs
    # no search costs less than a microsecond, and a Python frame was a third of it.
    # Named here so that it is documented with the planner.
    plan = FastPlans.plan

    def _general(
        self, state: Mapping[str, Value], goal: GoalArg, weight: float, tie_break: Any,
        seed: Any, max_expansions: int | None, max_depth: int | None,
        max_cost: float | None, prune: bool,
    ) -> Plan:
        """:meth:`plan` when its fast path does not answer: checked, compiled (or
        taken from the cache) and searched; with the default options, an entry is kept
        for the fast path."""
        quick = defaults(weight, tie_break, seed, max_expansions, max_depth, max_cost, prune)
        search = self.start(
            state, goal, weight=weight, tie_break=tie_break, seed=seed,
            max_expansions=max_expansions, max_depth=max_depth, max_cost=max_cost,
            prune=prune,
        )  # fmt: skip
        plan, missing = search.finish()
        if missing is not None:  # level 2: the caller of plan (compiled: it has no frame)
            warnings.warn(missing, stacklevel=2)
        if quick:
            self._keep(state, goal, search.problem, search.goals)
        return plan

    def start(
        self,
        state: Mapping[str, Value],
        goal: GoalArg,
        *,
        weight: float = 1.0,
        tie_break: Literal["g", "fifo", "random"] = "g",
        seed: Any = None,
        max_expansions: int | None = DEFAULT_MAX_EXPANSIONS,
        max_depth: int | None = None,
        max_cost: float | None = None,
        prune: bool = True,
    ) -> PlanSearch:
        """A plan search to run a slice at a time: :meth:`plan` spread over frames.

        Takes the arguments of :meth:`plan`, checked at once; ``step(n)`` of the search
        returned expands at most ``n`` states, and once it ended its ``result`` is the
        plan :meth:`plan` returns with the same arguments, however it was sliced.

        Returns
        -------
        PlanSearch
            With ``step``, ``status``, ``expanded``, ``result`` and ``cancel``, as
            :class:`pathcraft.search.SlicedSearch` (a
            :class:`~pathcraft.agents.PathRequestQueue` can run it).

        Raises
        ------
        TypeError, ValueError
            As :meth:`plan`.

        Examples
        --------
        >>> from pathcraft.goap import Action, Goal, Planner
        >>> planner = Planner([Action("chop", {}, {"wood": True}, cost=3),
        ...                    Action("nap", {}, {"rested": True}, cost=1)])
        >>> search = planner.start({"wood": False, "rested": False},
        ...                        [Goal("work", {"wood": True}, priority=1),
        ...                         Goal("rest", {"rested": True}, priority=1)])
        >>> search.step(1), search.step(10)
        ('in_progress', 'found')
        >>> search.result.goal.name, search.result.names
        ('rest', ['nap'])
        """
        t0 = time.perf_counter()
        start = state if isinstance(state, State) else _as_state(state)
        goals = _goals(goal)
        opts = SearchOptions.check(
            "search", "astar", weight=weight, tie_break=tie_break, seed=seed,
            max_expansions=max_expansions, max_cost=max_cost,
        )  # fmt: skip
        depth_limit = check_limit("max_depth", max_depth, integer=True)
        if not isinstance(prune, bool):
            raise TypeError(f"prune must be True or False; got {prune!r}")
        problem = self._problem(start, goals, prune)
        return PlanSearch(
            problem, start, goals, classes_of(goals, start), weight=opts.weight,
            tie_break=tie_break, seed=seed, max_expansions=max_expansions,
            max_depth=None if depth_limit is None else int(depth_limit),
            max_cost=max_cost, t0=t0,
        )  # fmt: skip

    def _problem(self, start: State, goals: list[Goal], prune: bool) -> Problem:
        kinds = {fact: kind_of(value) for fact, value in start.items()}
        key = (tuple(kinds.items()), tuple(g.key for g in goals), prune)
        problem = self._cache.get(key)
        if problem is None:
            specs = [(_owner(g, len(goals)), dict(g.conditions)) for g in goals]
            problem = compile_problem(self._actions, kinds, specs, prune)  # type: ignore[arg-type]
            remember(self._cache, key, problem)
        return problem


def _unpickle(cls: type[Planner], state: dict[str, Any]) -> Planner:
    planner = cls.__new__(cls)
    planner.__setstate__(state)
    return planner


def _owner(goal: Goal, count: int) -> str:
    """How error messages name a goal: "goal" when it is the only one, given as a
    mapping; else by its name."""
    return "goal" if count == 1 and goal.name == "goal" else f"goal {goal.name!r}"


def _goals(goal: Any) -> list[Goal]:
    """The goals of a plan: a mapping (one goal named "goal"), a Goal or a sequence."""
    if isinstance(goal, Goal):
        return [goal]
    if isinstance(goal, Mapping) or goal is None:
        return [Goal("goal", conditions("goal", goal, "goal"))]
    goals = [] if isinstance(goal, (str, bytes)) or not isinstance(goal, Iterable) else list(goal)
    if not goals or not all(isinstance(item, Goal) for item in goals):
        raise TypeError(
            "goal: goals must be a mapping of fact names to conditions, a Goal, or a "
            f"non-empty sequence of Goals; got {type(goal).__name__} {goal!r}"
        )
    seen: set[str] = set()
    for item in goals:
        if item.name in seen:
            raise ValueError(f"two goals are named {item.name!r}; goal names must be unique")
        seen.add(item.name)
    return goals


def _as_state(state: Any) -> State:
    if not isinstance(state, Mapping):
        raise TypeError(
            f"state must be a mapping of fact names to values; got {type(state).__name__}"
        )
    return State(state)


# plan's examples: its docstring is the compiled method's, where doctest does not look
__test__ = {"Planner.plan": FastPlans.plan.__doc__}
