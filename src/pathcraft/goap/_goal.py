"""A goal with a priority: what one planning search may aim at among several."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pathcraft._aliases import documented
from pathcraft.goap._action import conditions
from pathcraft.goap._facts import Condition, State, Value

__all__ = ["Goal", "Priority"]

Priority = float | Callable[[State], float]
if not TYPE_CHECKING:
    Priority = documented(
        Priority,
        "A goal's priority: a number, or ``priority(state) -> float`` read on the start "
        "state of each plan.",
    )


class Goal:
    """A named goal: conditions on facts, and a priority among other goals.

    Parameters
    ----------
    name : str
        How plans name the goal they reach (:attr:`Plan.goal <pathcraft.goap.Plan>`).
    conditions : mapping
        Fact name to a plain value (equality) or a condition such as ``le(0)``; every
        one must hold at the end, as a goal given to :meth:`Planner.plan` as a mapping.
    priority : float or callable
        A finite number, or ``priority(state) -> float`` read on the start state of
        each plan. Given several goals, a plan serves the highest priority goal that
        some plan reaches; among goals of equal priority, the cheapest plan wins.

    Raises
    ------
    TypeError
        A name that is not a str, conditions of the wrong kind, a priority that is
        neither a number nor callable.
    ValueError
        An empty name; a NaN or infinite priority.

    Examples
    --------
    >>> from pathcraft.goap import Goal, State, le
    >>> eat = Goal("eat", {"hunger": le(0)}, priority=lambda s: s["hunger"])
    >>> eat.name, eat.conditions["hunger"], eat.priority_in(State(hunger=3))
    ('eat', le(0), 3.0)
    >>> Goal("rest", {"tired": False}, priority=2)
    Goal('rest', {'tired': eq(False)}, priority=2.0)
    """

    __slots__ = ("_conditions", "_key", "_name", "_priority")

    def __init__(
        self,
        name: str,
        conditions: Mapping[str, Value | Condition],
        priority: Priority = 0.0,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"a goal's name must be a str; got {name!r}")
        if not name:
            raise ValueError("a goal's name must not be empty")
        self._name = name
        conds = _conditions(f"goal {name!r}", conditions)
        self._conditions = MappingProxyType(conds)
        self._key = tuple(conds.items())
        if callable(priority):
            self._priority: Any = priority
        else:
            self._priority = _finite(name, priority)

    @property
    def name(self) -> str:
        """The goal's name."""
        return self._name

    @property
    def conditions(self) -> Mapping[str, Condition]:
        """Fact name to :class:`~pathcraft.goap.Condition` (plain values became ``eq``)."""
        return self._conditions

    @property
    def priority(self) -> Priority:
        """The fixed priority, or the callable ``priority(state)``."""
        return self._priority  # type: ignore[no-any-return]

    @property
    def key(self) -> tuple[tuple[str, Condition], ...]:
        """The conditions as a hashable tuple (what compiled problems are cached on)."""
        return self._key

    def priority_in(self, state: State) -> float:
        """The priority in ``state``, checked.

        Raises
        ------
        TypeError, ValueError
            A priority callable returning something other than a finite number.

        Examples
        --------
        >>> from pathcraft.goap import Goal, State
        >>> Goal("flee", {"safe": True}, priority=lambda s: 10 - s["health"]).priority_in(
        ...     State(health=4))
        6.0
        """
        priority = self._priority
        if not callable(priority):
            return priority  # type: ignore[no-any-return]
        return _finite(self._name, priority(state), f" in {state!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Goal):
            return NotImplemented
        return (self._name, self._key, self._priority) == (
            other._name, other._key, other._priority,
        )  # fmt: skip

    def __hash__(self) -> int:
        return hash((self._name, self._key))

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps: the name, conditions and priority."""
        return {"name": self._name, "conditions": dict(self._conditions),
                "priority": self._priority}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._name = state["name"]
        self._conditions = MappingProxyType(state["conditions"])
        self._key = tuple(state["conditions"].items())
        self._priority = state["priority"]

    def __repr__(self) -> str:
        priority = self._priority
        if callable(priority):
            priority = getattr(priority, "__name__", "callable")
        return f"Goal({self._name!r}, {dict(self._conditions)!r}, priority={priority!r})"


def _conditions(owner: str, given: Any) -> dict[str, Condition]:
    if given is None or not isinstance(given, Mapping):
        raise TypeError(
            f"{owner}: conditions must be a mapping of fact names to values or conditions "
            f"such as {{'wood': True}} or {{'gold': ge(5)}}; got {given!r}"
        )
    return conditions(owner, given, "goal")


def _finite(name: str, value: Any, where: str = "") -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"goal {name!r}: priority must be a number or a callable priority(state) "
            f"returning one; got {value!r}{where}"
        )
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"goal {name!r}: priority must be finite; got {value!r}{where}")
    return number
