"""A GOAP agent: goals, sensors, a plan that executes, fails and is made again.

Each :meth:`Agent.tick` runs the sensors that are due, checks the rest of the plan on
the agent's beliefs when they changed, spends the tick's planning budget on a plan in
progress (the planner's sliced :class:`~pathcraft.goap.PlanSearch`), and runs one tick
of the current action's executor. A tick where nothing changed costs a few attribute
reads and the executor's call.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pathcraft._aliases import documented
from pathcraft._positions import check_number
from pathcraft._validation import check_limit
from pathcraft.goap._action import Action
from pathcraft.goap._facts import State, Value
from pathcraft.goap._goal import Goal
from pathcraft.goap._plan import Plan
from pathcraft.goap._planner import Planner
from pathcraft.goap._search import PlanSearch
from pathcraft.goap._sensors import Sensor, as_sensor

__all__ = ["ActionStatus", "Agent", "AgentEvent", "AgentStatus", "Executor"]

ActionStatus = Literal["running", "done", "failed"]
if not TYPE_CHECKING:
    ActionStatus = documented(
        ActionStatus,
        'What an action\'s executor reports each tick: ``"running"``, ``"done"`` or ``"failed"``.',
    )
AgentStatus = Literal["acting", "planning", "idle"]
if not TYPE_CHECKING:
    AgentStatus = documented(
        AgentStatus,
        'What an agent did in a tick: ``"acting"`` (an action ran), ``"planning"`` '
        '(a plan is being searched, nothing to run) or ``"idle"`` (no plan: every goal '
        "met, or none reachable).",
    )

_STATUSES = frozenset(("running", "done", "failed"))


@runtime_checkable
class Executor(Protocol):
    """What runs one action of a plan, tick by tick (an object; a bare callable
    ``run(agent, dt) -> status`` is its ``update`` alone).

    ``start(agent)`` is called when the action starts, ``update(agent, dt)`` once per
    tick while it runs (``"running"``, ``"done"`` or ``"failed"``), ``stop(agent)``
    when the agent drops it before it ended (a better goal, facts that broke the plan).
    ``start`` and ``stop`` are optional.

    Examples
    --------
    >>> from pathcraft.goap import Action, Agent, Executor, Goal, Planner
    >>> class Nap:
    ...     def start(self, agent):
    ...         self.left = 2.0
    ...     def update(self, agent, dt):
    ...         self.left -= dt
    ...         return "running" if self.left > 0 else "done"
    >>> isinstance(Nap(), Executor)
    True
    >>> sleeper = Agent(Planner([Action("nap", {}, {"rested": True})]),
    ...                 [Goal("rest", {"rested": True})], {"rested": False},
    ...                 executors={"nap": Nap()})
    >>> [sleeper.tick(1.0) for _ in range(3)]
    ['acting', 'acting', 'idle']
    """

    def update(self, agent: Agent, dt: float) -> str:
        """One tick of the action: ``"running"``, ``"done"`` or ``"failed"``.

        Examples
        --------
        >>> from pathcraft.goap import Executor
        >>> Executor.update.__name__
        'update'
        """
        ...


@dataclass(frozen=True, slots=True)
class AgentEvent:
    """Something an :class:`Agent` did, for games (logs, speech bubbles) and tests.

    Attributes
    ----------
    tick : int
        The tick it happened in (the first tick is 1).
    kind : str
        ``"plan"`` (a plan adopted), ``"start"``, ``"done"``, ``"failed"``,
        ``"stop"`` (an action dropped before it ended), ``"reached"`` (a goal met),
        ``"replan"`` (a new plan is searched), ``"no_plan"`` (the search found none).
    goal : str or None
        The goal's name (the plan's goal; for ``"replan"`` the one given up, if any).
    action : str or None
        The action's name, for the action events.
    reason : str or None
        For ``"replan"`` and ``"stop"``, why: ``"start"`` (no plan yet),
        ``"plan_done"``, ``"action_failed"``, ``"facts_changed"`` (the rest of the plan
        no longer holds on the beliefs), ``"goal_met"`` (the beliefs meet the goal
        before the plan ended), ``"better_goal"`` (a goal of higher priority became
        achievable), ``"retry"`` (no plan was found before and the beliefs changed);
        for ``"no_plan"``, the plan's reason (``"unreachable"``, a limit).
    plan : tuple of str
        The action names of the plan concerned (for ``"plan"``: the new plan).

    Examples
    --------
    >>> from pathcraft.goap import Action, Agent, Goal, Planner
    >>> agent = Agent(Planner([Action("nap", {}, {"rested": True})]),
    ...               [Goal("rest", {"rested": True})], {"rested": False},
    ...               executors={"nap": lambda agent, dt: "failed"})
    >>> agent.tick()
    'acting'
    >>> agent.events[-1]
    AgentEvent(tick=1, kind='failed', goal='rest', action='nap', reason=None, plan=('nap',))
    """

    tick: int
    kind: str
    goal: str | None = None
    action: str | None = None
    reason: str | None = None
    plan: tuple[str, ...] = ()


class _Due:
    """A sensor, and the tick and time it is next due."""

    __slots__ = ("sensor", "tick", "time")

    def __init__(self, sensor: Sensor) -> None:
        self.sensor = sensor
        self.tick = 0
        self.time = 0.0


class _Call:
    """A bare callable as an executor."""

    __slots__ = ("update",)

    def __init__(self, run: Callable[[Agent, float], str]) -> None:
        self.update = run


class Agent:
    """A character run by goal-oriented action planning: goals with priorities,
    sensors, and a plan whose actions run, fail and are planned again.

    Each :meth:`tick`:

    1. runs the sensors that are due (each on its own interval of ticks or seconds);
       what they report updates the beliefs (a :class:`~pathcraft.goap.State`);
    2. when the beliefs changed since the last check, checks the rest of the plan on
       them: the running action's preconditions, then the following ones in turn on
       the states their effects lead to, and the goal at the end. A broken plan is
       dropped (``"facts_changed"``), a goal the beliefs already meet is reached
       (``"goal_met"``), and when a goal of higher priority than the current one is
       not met, a search for a plan to the higher goals starts meanwhile (adopted,
       ``"better_goal"``, only if it finds one);
    3. spends the tick's planning budget (``budget`` expansions) on the search in
       progress, from the planner's :meth:`~pathcraft.goap.Planner.start`: one search
       over every goal not yet met, the best plan by priority then cost. A plan found
       is adopted only if it still holds on the beliefs of that tick (or searched
       again);
    4. runs one tick of the current action's executor, only if the action's
       preconditions hold on the beliefs. ``"done"`` applies the action's effects to
       the beliefs (as the planner assumed) and the next action starts on the next
       tick; ``"failed"`` drops the plan and plans again (``"action_failed"``).

    Parameters
    ----------
    planner : Planner
        The actions the agent can do.
    goals : iterable of Goal
        What it wants (:class:`~pathcraft.goap.Goal`: conditions and a priority, fixed
        or a function of the beliefs).
    beliefs : mapping
        The facts it starts with (fact name to a bool, int or str).
    executors : mapping
        Action name to what runs it: an object with ``update(agent, dt) -> status``
        (and optionally ``start(agent)``, ``stop(agent)``; see :class:`Executor`), or a
        callable ``run(agent, dt) -> status``. Every action of the planner needs one.
    sensors : iterable of Sensor or callable, optional
        What updates the facts (a bare callable runs every tick).
    budget : int or None
        Planning expansions per tick (>= 1): a plan is searched over several ticks.
        None: every plan is searched to its end in the tick it starts.
    history : int
        How many of the latest :attr:`events` are kept (>= 0).
    on_event : callable or None
        ``on_event(event)``, called with every :class:`AgentEvent` as it happens.
    **plan_options
        Passed to :meth:`Planner.start <pathcraft.goap.Planner.start>`
        (``max_expansions``, ``max_depth``, ``max_cost``...).

    Attributes
    ----------
    beliefs : State
        What the agent believes now.
    goal : Goal or None
        The goal of the current plan.
    plan : Plan or None
        The current plan (its actions from the first; :attr:`remaining` from the
        current one).
    action : Action or None
        The action running (or about to start).
    events : collections.deque of AgentEvent
        The latest events, oldest first.
    ticks : int
        Ticks so far. ``time`` is the sum of their ``dt``.
    plans : int
        Plans adopted so far; ``searches`` the searches started.

    Raises
    ------
    TypeError
        A planner that is not a :class:`~pathcraft.goap.Planner`, an executor that is
        neither callable nor has ``update``, a sensor that is not callable, beliefs
        that are not a mapping of facts.
    ValueError
        An action with no executor (or an executor for no action), no goals, a bad
        ``budget`` or ``history``.

    Examples
    --------
    A worker that must fetch an axe before it can chop; chopping takes two ticks.

    >>> from pathcraft.goap import Action, Agent, Goal, Planner
    >>> planner = Planner([
    ...     Action("get_axe", {"has_axe": False}, {"has_axe": True}, cost=2),
    ...     Action("chop", {"has_axe": True}, {"wood": True}, cost=1),
    ... ])
    >>> swings = iter(["running", "done"])
    >>> worker = Agent(planner, [Goal("wood", {"wood": True})],
    ...                {"has_axe": False, "wood": False},
    ...                executors={"get_axe": lambda agent, dt: "done",
    ...                           "chop": lambda agent, dt: next(swings)})
    >>> [worker.tick() for _ in range(4)]
    ['acting', 'acting', 'acting', 'idle']
    >>> worker.beliefs
    State({'has_axe': True, 'wood': True})
    >>> [(e.kind, e.action or e.reason) for e in worker.events]  # doctest: +NORMALIZE_WHITESPACE
    [('replan', 'start'), ('plan', None), ('start', 'get_axe'), ('done', 'get_axe'),
     ('start', 'chop'), ('done', 'chop'), ('reached', None)]
    """

    __slots__ = (
        "_better_search",
        "_executor",
        "_executors",
        "_failed_at",
        "_goals",
        "_index",
        "_intent",
        "_on_event",
        "_options",
        "_planner",
        "_rest_ok",
        "_search",
        "_search_at",
        "_sensors",
        "_started",
        "_update",
        "_valid_at",
        "_version",
        "action",
        "beliefs",
        "budget",
        "events",
        "goal",
        "plan",
        "plans",
        "searches",
        "ticks",
        "time",
    )

    def __init__(
        self,
        planner: Planner,
        goals: Iterable[Goal],
        beliefs: Mapping[str, Value],
        *,
        executors: Mapping[str, Any],
        sensors: Iterable[Sensor | Callable[[State], Any]] = (),
        budget: int | None = None,
        history: int = 64,
        on_event: Callable[[AgentEvent], Any] | None = None,
        **plan_options: Any,
    ) -> None:
        if not isinstance(planner, Planner):
            raise TypeError(f"planner must be a goap.Planner; got {type(planner).__name__}")
        self._planner = planner
        self._goals = _goals(goals)
        if not isinstance(beliefs, Mapping):
            raise TypeError(
                f"beliefs must be a mapping of fact names to values; got {type(beliefs).__name__}"
            )
        self.beliefs: State = beliefs if isinstance(beliefs, State) else State(beliefs)
        self._executors = _executors(planner, executors)
        if isinstance(sensors, (Sensor, str)) or not isinstance(sensors, Iterable):
            raise TypeError(f"sensors must be an iterable of Sensor; got {sensors!r}")
        self._sensors = [_Due(as_sensor(s, i)) for i, s in enumerate(sensors)]
        limit = check_limit("budget", budget, integer=True)
        if limit is not None and limit < 1:
            raise ValueError(f"budget must be an integer >= 1 or None; got {budget!r}")
        self.budget: int | None = None if limit is None else int(limit)
        if isinstance(history, bool) or not isinstance(history, int) or history < 0:
            raise ValueError(f"history must be an int >= 0; got {history!r}")
        self.events: deque[AgentEvent] = deque(maxlen=history)
        if on_event is not None and not callable(on_event):
            raise TypeError(f"on_event must be a callable or None; got {on_event!r}")
        self._on_event = on_event
        self._options = plan_options
        self.goal: Goal | None = None
        self.plan: Plan | None = None
        self.action: Action | None = None
        self._index = 0  # the current action's index in the plan
        self._started = False  # the current action's executor has started
        self._executor: Any = None
        self._update: Any = None
        self._search: PlanSearch | None = None  # the search in progress
        self._better_search = False  # it looks for a goal above the current one
        self._search_at = 0  # the beliefs' version the search in flight started from
        self._intent: str | None = "start"  # why a plan is needed (None: none needed)
        self._version = 0  # bumped whenever the beliefs change
        self._valid_at = 0  # the version the plan was last checked on
        self._rest_ok = True
        self._failed_at = -1  # the version the last search found nothing at
        self.ticks = 0
        self.time = 0.0
        self.plans = 0
        self.searches = 0

    # ------------------------------------------------------------------ beliefs

    @property
    def goals(self) -> tuple[Goal, ...]:
        """The goals, in the order given."""
        return self._goals

    @property
    def remaining(self) -> tuple[Action, ...]:
        """The actions left in the plan, the current one first."""
        if self.plan is None:
            return ()
        return self.plan.actions[self._index :]

    @property
    def searching(self) -> bool:
        """A plan search is in progress."""
        return self._search is not None

    def update(self, facts: Mapping[str, Value] | None = None, /, **more: Value) -> bool:
        """Change some beliefs (as a sensor would); whether any changed.

        Examples
        --------
        >>> from pathcraft.goap import Action, Agent, Goal, Planner
        >>> agent = Agent(Planner([Action("nap", {}, {"rested": True})]),
        ...               [Goal("rest", {"rested": True})], {"rested": False},
        ...               executors={"nap": lambda agent, dt: "running"})
        >>> agent.update(rested=True), agent.update({"rested": True})
        (True, False)
        """
        merged = dict(facts or {})
        merged.update(more)
        beliefs = self.beliefs
        changed = {k: v for k, v in merged.items() if k not in beliefs or beliefs[k] != v
                   or type(beliefs[k]) is not type(v)}  # fmt: skip
        if not changed:
            return False
        new = beliefs.to_dict()
        new.update(changed)
        self.beliefs = State(new)
        self._version += 1
        return True

    # ------------------------------------------------------------------ the tick

    def tick(self, dt: float = 1.0) -> AgentStatus:
        """One frame of the agent: sense, check the plan, plan, act.

        Parameters
        ----------
        dt : float
            Time since the last tick (>= 0), for sensors with an interval in seconds
            and for executors.

        Returns
        -------
        str
            ``"acting"``, ``"planning"`` or ``"idle"`` (:data:`AgentStatus`).

        Raises
        ------
        ValueError
            A negative or NaN ``dt``; an executor that returned another status.

        Examples
        --------
        With a budget of 2 expansions a tick, a plan of 6 steps takes a few ticks to
        find; the agent acts once it has it.

        >>> from pathcraft.goap import Action, Agent, Goal, Planner, add, ge
        >>> counter = Agent(Planner([Action("inc", {}, {"n": add(1)})]),
        ...                 [Goal("six", {"n": ge(6)})], {"n": 0},
        ...                 executors={"inc": lambda agent, dt: "done"}, budget=2)
        >>> [counter.tick(0.1) for _ in range(5)]
        ['planning', 'planning', 'planning', 'acting', 'acting']
        >>> counter.tick(-1.0)
        Traceback (most recent call last):
        ...
        ValueError: dt must be a finite number >= 0; got -1.0
        """
        if dt != 1.0:
            dt = check_number("dt", dt, low=0.0, inclusive=True)
        self.ticks += 1
        self.time += dt
        if self._sensors:
            self._sense()
        if self._version != self._valid_at:
            self._check()
        if self._intent is not None or self._search is not None:
            self._think()
        action = self.action
        if action is None:
            return "planning" if self._search is not None else "idle"
        if not self._started:
            self._started = True
            self._emit("start", action=action.name)
            start = getattr(self._executor, "start", None)
            if start is not None:
                start(self)
                if self._version != self._valid_at:  # it changed the beliefs
                    self._check()
                    if self.action is not action:
                        return "acting"
        status = self._update(self, dt)
        if status == "running":
            return "acting"
        if status == "done":
            self._done(action)
        elif status == "failed":
            self._emit("failed", action=action.name)
            self._drop("action_failed", stop=False)
        else:
            raise ValueError(
                f"the executor of action {action.name!r} returned {status!r}; it must "
                "return 'running', 'done' or 'failed'"
            )
        return "acting"

    def _sense(self) -> None:
        ticks, now = self.ticks, self.time
        for due in self._sensors:
            sensor = due.sensor
            if sensor.seconds is None:
                if ticks < due.tick:
                    continue
                due.tick = ticks + sensor.every
            else:
                if now < due.time:
                    continue
                due.time = now + sensor.seconds
            facts = sensor.read(self.beliefs)
            if facts:
                self.update(facts)

    def _done(self, action: Action) -> None:
        self._emit("done", action=action.name)
        self.beliefs = action.apply(self.beliefs)
        self._version += 1  # the next tick checks the rest of the plan on them
        plan = self.plan
        assert plan is not None
        self._index += 1
        if self._index < len(plan.actions):
            self._set_action(plan.actions[self._index])
            return
        self._emit("reached")
        self._clear()
        self._cancel_search()
        self._intent = "plan_done"

    # ------------------------------------------------------------------ checking

    def _check(self) -> None:
        """The rest of the plan on the current beliefs; drop it, or look for better."""
        self._valid_at = self._version
        if self._failed_at >= 0:  # nothing was found (or to do) before; facts changed
            self._failed_at = -1
            self._intent = "retry"
        goal = self.goal
        if goal is None:
            return
        beliefs = self.beliefs
        if _met(goal, beliefs):
            self._emit("reached")
            self._drop("goal_met")
            return
        state = beliefs
        for action in self.remaining:
            if not action.applicable(state):
                self._drop("facts_changed")
                return
            state = action.apply(state)
        if not _met(goal, state):
            self._drop("facts_changed")
            return
        if self._search is None:  # a goal above this one may be reachable now
            mine = _priority(goal, beliefs)
            if any(_priority(g, beliefs) > mine and not _met(g, beliefs) for g in self._goals):
                self._start_search(better_than=mine, reason="better_goal")

    def _holds(self, plan: Plan, goal: Goal) -> bool:
        """Whether ``plan`` runs from the current beliefs to ``goal``."""
        state = self.beliefs
        for action in plan.actions:
            if not action.applicable(state):
                return False
            state = action.apply(state)
        return _met(goal, state)

    # ------------------------------------------------------------------ planning

    def _think(self) -> None:
        if self._search is None:
            if self._failed_at >= 0:
                return  # found nothing; wait for the facts to change
            if not self._start_search(better_than=None, reason=self._intent):
                return
        search = self._search
        assert search is not None
        if search.step(self.budget) == "in_progress":
            return
        self._search = None
        better, self._better_search = self._better_search, False
        plan: Plan = search.result
        if not plan:
            if better:
                return  # (nothing better than the current goal: keep going)
            if self._search_at != self._version:  # the beliefs changed while it searched:
                self._start_search(better_than=None, reason="facts_changed")  # ask anew
                return
            self._failed_at = self._version
            self._emit("no_plan", reason=plan.reason)
            return
        goal = plan.goal
        assert goal is not None  # a plan found serves one of the goals searched
        if not self._holds(plan, goal) or _met(goal, self.beliefs):
            if not better:  # the beliefs changed while it searched
                self._start_search(better_than=None, reason="facts_changed")
            return
        if better:
            self._emit("replan", goal=_name(self.goal), reason="better_goal")
            self._stop_action("better_goal")
        self._adopt(plan, goal)

    def _start_search(self, *, better_than: float | None, reason: str | None) -> bool:
        """Start a search for a plan to the goals not met (of priority above
        ``better_than``, if given); False when there are none."""
        beliefs = self.beliefs
        self._intent = None
        goals = [g for g in self._goals if not _met(g, beliefs)]
        if better_than is not None:
            goals = [g for g in goals if _priority(g, beliefs) > better_than]
        if not goals:  # every goal is met: nothing to plan until the facts change
            if better_than is None:
                self._failed_at = self._version
            return False
        if better_than is None:
            self._emit("replan", goal=None, reason=reason)
        self._better_search = better_than is not None
        self.searches += 1
        self._search_at = self._version
        self._search = self._planner.start(beliefs, goals, **self._options)
        return True

    def _cancel_search(self) -> None:
        if self._search is not None:
            self._search.cancel()
            self._search = None
        self._better_search = False

    def _adopt(self, plan: Plan, goal: Goal) -> None:
        self.plans += 1
        self.plan = plan
        self.goal = goal
        self._index = 0
        self._intent = None
        self._valid_at = self._version
        self._emit("plan", plan=tuple(plan.names))
        if plan.actions:
            self._set_action(plan.actions[0])
        else:
            self._emit("reached")
            self._clear()
            self._intent = "plan_done"

    def _set_action(self, action: Action) -> None:
        self.action = action
        self._started = False
        executor = self._executors[action.name]
        self._executor = executor
        self._update = executor.update

    def _stop_action(self, reason: str) -> None:
        action = self.action
        if action is not None and self._started:
            self._emit("stop", action=action.name, reason=reason)
            stop = getattr(self._executor, "stop", None)
            if stop is not None:
                stop(self)

    def _drop(self, reason: str, *, stop: bool = True) -> None:
        """Give up the plan (stopping its running action) and plan again."""
        if stop:
            self._stop_action(reason)
        self._clear()
        self._cancel_search()
        self._failed_at = -1
        self._intent = reason

    def _clear(self) -> None:
        self.plan = None
        self.goal = None
        self.action = None
        self._executor = self._update = None
        self._started = False
        self._index = 0

    def _emit(
        self,
        kind: str,
        *,
        goal: Any = ...,
        action: str | None = None,
        reason: str | None = None,
        plan: tuple[str, ...] = (),
    ) -> None:
        if goal is ...:
            goal = _name(self.goal)
        if not plan and self.plan is not None and kind != "replan":
            plan = tuple(self.plan.names)
        event = AgentEvent(self.ticks, kind, goal, action, reason, plan)
        self.events.append(event)
        if self._on_event is not None:
            self._on_event(event)

    def __repr__(self) -> str:
        goal = _name(self.goal)
        action = None if self.action is None else self.action.name
        return f"Agent(goal={goal!r}, action={action!r}, beliefs={self.beliefs!r})"


# --------------------------------------------------------------------------- helpers


def _name(goal: Goal | None) -> str | None:
    return None if goal is None else goal.name


def _priority(goal: Goal, state: State) -> float:
    return goal.priority_in(state)


def _met(goal: Goal, state: State) -> bool:
    for fact, cond in goal.conditions.items():
        value = state.get(fact)
        if value is None or type(value) is not type(cond.value) or not cond.test(value):
            return False
    return True


def _goals(goals: Iterable[Goal]) -> tuple[Goal, ...]:
    if isinstance(goals, (str, Mapping, Goal)) or not isinstance(goals, Iterable):
        raise TypeError(f"goals must be an iterable of goap.Goal; got {goals!r}")
    out = tuple(goals)
    if not out:
        raise ValueError("goals must hold at least one Goal")
    names: set[str] = set()
    for goal in out:
        if not isinstance(goal, Goal):
            raise TypeError(f"goals must be goap.Goal objects; got {goal!r}")
        if goal.name in names:
            raise ValueError(f"two goals are named {goal.name!r}; goal names must be unique")
        names.add(goal.name)
    return out


def _executors(planner: Planner, executors: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(executors, Mapping):
        raise TypeError(
            "executors must be a mapping of action names to executors; got "
            f"{type(executors).__name__}"
        )
    names = {a.name for a in planner.actions}
    missing = sorted(names - set(executors))
    if missing:
        raise ValueError(f"executors: no executor for the actions {missing}")
    unknown = sorted(set(executors) - names)
    if unknown:
        raise ValueError(f"executors: the planner has no actions named {unknown}")
    out: dict[str, Any] = {}
    for name, executor in executors.items():
        if callable(getattr(executor, "update", None)):
            out[name] = executor
        elif callable(executor):
            out[name] = _Call(executor)
        else:
            raise TypeError(
                f"executors[{name!r}] must be callable run(agent, dt) or have "
                f"update(agent, dt); got {executor!r}"
            )
    return out
