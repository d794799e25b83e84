"""The planner: forward A* over world states, toward one goal or several by priority."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pathcraft._options import SearchOptions
from pathcraft._validation import check_limit
from pathcraft.goap._action import Action, conditions
from pathcraft.goap._compile import Problem, compile_problem
from pathcraft.goap._facts import Condition, State, Value, kind_of
from pathcraft.goap._fast import (
    DEFAULT_MAX_EXPANSIONS,
    FastPlans,
    classes_of,
    defaults,
    remember,
)  # fmt: skip
from pathcraft.goap._fast import ONE as _ONE
from pathcraft.goap._goal import Goal
from pathcraft.goap._plan import Plan
from pathcraft.goap._search import PlanSearch

__all__ = ["DEFAULT_MAX_EXPANSIONS", "Plan", "Planner"]

GoalArg = Mapping[str, Value | Condition] | Goal | Sequence[Goal]


# DEFAULT_MAX_EXPANSIONS (the default max_expansions) and the default weight live with
# the fast path, which checks them by identity.


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
        self._fast = FastPlans()

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
        self._fast = FastPlans()

    def plan(
        self,
        state: Mapping[str, Value],
        goal: GoalArg,
        *,
        weight: float = _ONE,
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
        goal : mapping, Goal or sequence of Goal
            Fact name to a plain value (equality) or a condition such as ``le(0)``;
            every one must hold at the end. Or a :class:`~pathcraft.goap.Goal`, or
            several: then **one search** finds the plan to the highest priority goal
            that some plan reaches (priorities read on ``state``), the cheapest to
            it; among goals of equal priority, the cheapest plan to any of them.
            :attr:`Plan.goal` names the goal served (see :class:`PlanSearch` for why
            one search is enough).
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
        than ``k`` of them; and at least the exact cost to the goal over a few of its
        facts alone (a pattern database over up to six facts only ever set to 0 or 1:
        the goal's, then those its achievers' preconditions want; built once per
        compiled goal). Dynamic costs count as their ``min_cost`` (0 when not
        declared; 0 in the pattern database). With ``weight=1`` the plan is optimal.

        Before searching, the planner finds the values at 0 and 1 (bools, and ints or
        ranks of strs equal to 0 or 1) that any sequence of actions could give the
        facts when what effects undo is ignored; a goal asking "equals" one outside
        them is out of reach (every other condition counts as reachable), so a goal
        out of reach ends ``"unreachable"`` with nothing expanded, and among several
        goals a priority class with no goal in reach is passed over without being
        searched. A start that meets a goal of the first class is answered without
        the search (``expanded`` 1, as the search would count).
        """
        fast = self._fast
        plan = fast.plan(
            state, goal, weight, tie_break, seed, max_expansions, max_depth, max_cost, prune
        )  # None unless the options are the defaults and the entry is known
        if plan is not None:
            if plan.reason is not None and plan.reason == "unreachable":
                missing = fast.missing(state, goal, plan.start)  # type: ignore[arg-type]
                if missing is not None:
                    warnings.warn(missing, stacklevel=2)
            return plan
        quick = defaults(weight, tie_break, seed, max_expansions, max_depth, max_cost, prune)
        search = self.start(
            state, goal, weight=weight, tie_break=tie_break, seed=seed,
            max_expansions=max_expansions, max_depth=max_depth, max_cost=max_cost,
            prune=prune,
        )  # fmt: skip
        plan, missing = search.finish()
        if missing is not None:
            warnings.warn(missing, stacklevel=2)
        if quick:
            fast.remember(state, goal, search.problem, search.goals)
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
