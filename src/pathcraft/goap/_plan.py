"""The answer of a plan search: :class:`Plan` (built by ``_fast.build_plan``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pathcraft._core import goap as _kernel
from pathcraft.goap._action import Action
from pathcraft.goap._facts import State
from pathcraft.goap._goal import Goal
from pathcraft.result import PathResult

__all__ = ["STATE", "Plan", "new_state"]

#: Builds a :class:`State` over facts already checked and sorted by name, the dict
#: taken as it is (its owner gives it up): ``new_state(facts)``.
STATE = _kernel.Maker(State, ("_facts", "_hash"))
new_state: Callable[[dict[str, Any]], State] = STATE.state
_REPLAY = STATE.replay


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
    covers checks, pruning and search. Unlike a path result, ``len(plan)`` and
    iteration go over the actions.

    The states after each action (``states``, and ``path`` which holds them) are built
    on first access, replayed from ``start`` (an agent reading only the actions never
    pays for them), and so is ``start`` of a plan from the fast path, from the values
    read; a plan is immutable all the same, and equal plans compare, copy and pickle
    alike whether or not their states were read.

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
    goal : Goal or None
        The goal the plan reaches (given several, the one chosen by priority, then
        cost); a goal given as a mapping is a :class:`~pathcraft.goap.Goal` named
        ``"goal"``. When nothing was found: the goal the search was serving when a
        limit stopped it (the lowest priority one when none is reachable).

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
    goal: Goal | None = None
    # a plan built without its start: the fact names (sorted) then their values
    _facts: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    if not TYPE_CHECKING:  # mypy keeps checking attribute names on plans

        def __getattr__(self, name: str) -> Any:
            """``start``, ``path`` and ``states`` of a plan built without them: made
            (the start from ``_facts``; the states replayed from it), kept."""
            if name == "start":
                facts = self._facts
                start = new_state(dict(zip(facts[0], facts[1:], strict=True)))
                object.__setattr__(self, "start", start)
                return start
            if name != "path" and name != "states":
                raise AttributeError(f"'Plan' object has no attribute {name!r}")
            found = self.found
            states = tuple(_REPLAY(self.start.to_dict(), self.actions)) if found else ()
            object.__setattr__(self, "states", states)
            object.__setattr__(self, "path", [self.start, *states] if found else [])
            return object.__getattribute__(self, name)

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
