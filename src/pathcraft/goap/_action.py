"""An action of a plan: preconditions, effects and a cost, static or dynamic."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pathcraft._aliases import documented
from pathcraft.goap._facts import Add, Condition, State, Value, eq, kind_of

__all__ = ["Action", "CostFunction", "Effect", "conditions"]

Effect = Value | Add
if not TYPE_CHECKING:
    Effect = documented(
        Effect,
        "What an effect does to a fact: set it to a value, or add a delta with "
        "``add(n)``.",
    )
CostFunction = Callable[[State], float]
if not TYPE_CHECKING:
    CostFunction = documented(
        CostFunction,
        "A dynamic cost: ``cost(state) -> float``.",
    )


def _finite_cost(name: str, what: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"action {name!r}: {what} must be a number >= 0 or a callable cost(state); "
            f"got {value!r}"
        )
    number = float(value)
    if not (math.isfinite(number) and number >= 0.0):
        raise ValueError(f"action {name!r}: {what} must be a finite number >= 0; got {value!r}")
    return number


class Action:
    """Something an agent can do: preconditions, effects and a cost.

    Parameters
    ----------
    name : str
        Unique within a :class:`~pathcraft.goap.Planner`; plans list actions by it.
    preconditions : mapping, optional
        Fact name to what it must be for the action to run: a plain value (the fact
        equals it: ``{"has_axe": True}``) or a condition built with ``eq``, ``ne``,
        ``lt``, ``le``, ``gt``, ``ge`` (``{"food": ge(1)}``). A fact missing from the
        state meets no condition.
    effects : mapping, optional
        Fact name to what running the action does to it: a plain value sets it
        (``{"has_axe": True}``); ``add(n)`` adds the int ``n`` to an int fact
        (``{"hunger": add(-1)}``).
    cost : float or callable
        A finite number >= 0, or a dynamic cost ``cost(state) -> float`` read when the
        action runs in ``state`` (the state before it), also a finite number >= 0.
    check : callable, optional
        A procedural precondition ``check(state) -> bool`` for what facts cannot say;
        the action runs only where it returns true (and its preconditions hold).
    min_cost : float, optional
        For a dynamic cost: a number the cost never goes below. The planner's
        heuristic uses it as the action's cost, so a larger true bound means fewer
        expansions; without it the bound is 0 (still optimal, searched more widely).
        A dynamic cost below ``min_cost`` is an error.
    reads : iterable of str, optional
        The facts ``check`` and a dynamic ``cost`` read. With it, the planner's
        relevant-action pruning knows what they depend on (and they see a state with
        at least those facts); without it an action with a check or a dynamic cost is
        assumed to read every fact, which keeps plans optimal but prunes nothing that
        such an action could depend on.

    Raises
    ------
    TypeError
        A name that is not a str, a precondition or effect of an unsupported type (the
        message names the action and the fact), a cost that is neither a number nor
        callable, a ``check`` that is not callable.
    ValueError
        An empty name, a negative, NaN or infinite cost, a ``min_cost`` given with a
        static cost.

    Examples
    --------
    >>> from pathcraft.goap import Action, State, add, ge
    >>> Action("eat", {"food": ge(1)}, {"hunger": add(-1)}, cost=1)
    Action('eat', preconditions={'food': ge(1)}, effects={'hunger': add(-1)}, cost=1.0)
    >>> walk = Action("walk", {}, {"at_tree": True}, cost=lambda s: 1 + s["tired"], min_cost=1,
    ...               reads=["tired"])
    >>> walk.cost_in(State(tired=2))
    3.0
    >>> Action("eat", {}, {"hunger": 0.5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: action 'eat': the effect on fact 'hunger' is 0.5 (float); an effect sets a ...
    """

    __slots__ = (
        "_adds",
        "_check",
        "_cost",
        "_dynamic",
        "_effects",
        "_lower",
        "_min_cost",
        "_name",
        "_preconditions",
        "_reads",
        "_sets",
    )

    def __init__(
        self,
        name: str,
        preconditions: Mapping[str, Value | Condition] | None = None,
        effects: Mapping[str, Effect] | None = None,
        cost: float | CostFunction = 1.0,
        *,
        check: Callable[[State], bool] | None = None,
        min_cost: float | None = None,
        reads: Iterable[str] | None = None,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"an action's name must be a str; got {name!r}")
        if not name:
            raise ValueError("an action's name must not be empty")
        self._name = name
        self._preconditions = MappingProxyType(conditions(f"action {name!r}", preconditions))
        self._effects = MappingProxyType(_effects(name, effects))
        self._sets = {f: e for f, e in self._effects.items() if not isinstance(e, Add)}
        self._adds = tuple((f, e.delta) for f, e in self._effects.items() if isinstance(e, Add))
        self._dynamic = callable(cost)
        if self._dynamic:
            self._cost: Any = cost
            lower = 0.0 if min_cost is None else _finite_cost(name, "min_cost", min_cost)
            self._min_cost: float | None = None if min_cost is None else lower
        else:
            if min_cost is not None:
                raise ValueError(
                    f"action {name!r}: min_cost is a lower bound for a dynamic cost; "
                    f"this action's cost is the number {cost!r}"
                )
            lower = self._cost = _finite_cost(name, "cost", cost)
            self._min_cost = None
        self._lower = lower
        if check is not None and not callable(check):
            raise TypeError(
                f"action {name!r}: check must be a callable check(state) -> bool or None; "
                f"got {check!r}"
            )
        self._check = check
        if reads is None:
            self._reads: frozenset[str] | None = None
        else:
            if isinstance(reads, str):
                raise TypeError(
                    f"action {name!r}: reads must be an iterable of fact names, not the "
                    f"string {reads!r} (write [{reads!r}])"
                )
            facts = frozenset(reads)
            for fact in facts:
                if not isinstance(fact, str):
                    raise TypeError(f"action {name!r}: reads names facts by str; got {fact!r}")
            self._reads = facts

    # ------------------------------------------------------------------ attributes

    @property
    def name(self) -> str:
        """The action's name."""
        return self._name

    @property
    def preconditions(self) -> Mapping[str, Condition]:
        """Fact name to :class:`~pathcraft.goap.Condition` (plain values became ``eq``)."""
        return self._preconditions

    @property
    def effects(self) -> Mapping[str, Effect]:
        """Fact name to the value set, or the :class:`~pathcraft.goap.Add` applied."""
        return self._effects

    @property
    def cost(self) -> float | CostFunction:
        """The static cost, or the dynamic ``cost(state)`` callable."""
        return self._cost  # type: ignore[no-any-return]

    @property
    def dynamic(self) -> bool:
        """Whether the cost is a callable of the state."""
        return self._dynamic

    @property
    def min_cost(self) -> float:
        """A lower bound of the cost: the static cost, or the declared ``min_cost`` (0 if
        none was declared) of a dynamic cost."""
        return self._lower

    @property
    def check(self) -> Callable[[State], bool] | None:
        """The procedural precondition, if any."""
        return self._check

    @property
    def reads(self) -> frozenset[str] | None:
        """The facts the check and a dynamic cost read, if declared."""
        return self._reads

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps: the slots, with the read-only mappings as dicts."""
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_preconditions"] = dict(self._preconditions)
        state["_effects"] = dict(self._effects)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            if name in ("_preconditions", "_effects"):
                value = MappingProxyType(value)
            object.__setattr__(self, name, value)
        effects = self._effects  # derived, so pickles from before they existed load
        self._sets = {f: e for f, e in effects.items() if not isinstance(e, Add)}
        self._adds = tuple((f, e.delta) for f, e in effects.items() if isinstance(e, Add))

    # ------------------------------------------------------------------ behaviour

    def cost_in(self, state: State) -> float:
        """The cost of running the action in ``state``, checked.

        Raises
        ------
        ValueError
            A dynamic cost that is negative, NaN, infinite or below ``min_cost``; the
            message names the action and the state.
        TypeError
            A dynamic cost that is not a number.

        Examples
        --------
        >>> from pathcraft.goap import Action, State
        >>> walk = Action("walk_home", {}, {"home": True}, cost=lambda s: 1 + 3 * s["tired"],
        ...               min_cost=1, reads=["tired"])
        >>> walk.cost_in(State(tired=0)), walk.cost_in(State(tired=2))
        (1.0, 7.0)
        """
        if not self._dynamic:
            return self._cost  # type: ignore[no-any-return]
        value = self._cost(state)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"action {self._name!r}: cost(state) returned {value!r} in {state!r}; "
                "it must return a number"
            )
        number = float(value)
        if not (math.isfinite(number) and number >= 0.0):
            raise ValueError(
                f"action {self._name!r}: cost(state) returned {value!r} in {state!r}; a "
                "cost must be a finite number >= 0"
            )
        if number < self._lower:
            raise ValueError(
                f"action {self._name!r}: cost(state) returned {value!r} in {state!r}, "
                f"below its min_cost {self._lower!r}; min_cost must never exceed the cost"
            )
        return number

    def applicable(self, state: Mapping[str, Value]) -> bool:
        """Whether the preconditions (and the check) hold in ``state``.

        Examples
        --------
        >>> from pathcraft.goap import Action, ge
        >>> eat = Action("eat", {"food": ge(1)}, {"food": 0})
        >>> eat.applicable({"food": 2}), eat.applicable({"food": 0}), eat.applicable({})
        (True, False, False)
        """
        for fact, cond in self._preconditions.items():
            if fact not in state or not _comparable(state[fact], cond) or not cond.test(
                state[fact]
            ):
                return False
        if self._check is None:
            return True
        return bool(self._check(state if isinstance(state, State) else State(state)))

    def apply(self, state: Mapping[str, Value]) -> State:
        """The state after running the action in ``state`` (preconditions not checked).

        Raises
        ------
        ValueError
            ``add(n)`` on a fact that ``state`` lacks.
        TypeError
            ``add(n)`` on a fact that is not an int.

        Examples
        --------
        >>> from pathcraft.goap import Action, add
        >>> eat = Action("eat", {}, {"food": add(-1), "hungry": False})
        >>> eat.apply({"food": 2, "hungry": True})
        State({'food': 1, 'hungry': False})
        """
        facts = state.to_dict() if isinstance(state, State) else dict(state)
        added = False
        for fact, effect in self._effects.items():
            if isinstance(effect, Add):
                if fact not in facts:
                    raise ValueError(
                        f"action {self._name!r} adds to fact {fact!r}, which the state "
                        "lacks; give it a starting value"
                    )
                old = facts[fact]
                if kind_of(old) != "int":
                    raise TypeError(
                        f"action {self._name!r} adds to fact {fact!r}, whose value "
                        f"{old!r} is not an int"
                    )
                facts[fact] = old + effect.delta  # type: ignore[operator]
            else:
                added = added or fact not in facts
                facts[fact] = effect
        if not isinstance(state, State):
            return State(facts)  # checks the caller's facts
        if added:
            facts = dict(sorted(facts.items()))
        return State.from_checked(facts)

    def apply_to(self, facts: dict[str, Value]) -> dict[str, Value]:
        """The facts after the action, as a new dict sorted by name, from ``facts``
        sorted by name, which holds every fact the action adds to (unchecked: for
        planners replaying a plan they found).

        Examples
        --------
        >>> from pathcraft.goap import Action, add
        >>> Action("eat", {}, {"food": add(-1), "full": True}).apply_to({"food": 2})
        {'food': 1, 'full': True}
        """
        new = facts.copy()
        size = len(new)
        new.update(self._sets)
        for fact, delta in self._adds:
            new[fact] += delta  # type: ignore[operator]
        return dict(sorted(new.items())) if len(new) != size else new

    def __repr__(self) -> str:
        cost = self._cost if not self._dynamic else getattr(self._cost, "__name__", "callable")
        return (
            f"Action({self._name!r}, preconditions={dict(self._preconditions)!r}, "
            f"effects={dict(self._effects)!r}, cost={cost!r})"
        )


def _comparable(value: Value, cond: Condition) -> bool:
    """Whether ``value`` and the condition's value are of one kind."""
    return kind_of(value) == kind_of(cond.value)


def conditions(
    owner: str, given: Mapping[str, Value | Condition] | None, what: str = "precondition"
) -> dict[str, Condition]:
    """Normalise a mapping of conditions; plain values become ``eq``.

    ``owner`` starts every error message: ``"action 'eat'"`` or ``"goal"``.
    """
    if given is None:
        if what == "goal":
            raise TypeError(
                f"{owner} must be a mapping of fact names to values or conditions such as "
                "{'wood': True} or {'gold': ge(5)}; got None"
            )
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(
            f"{owner}: {what}s must be a mapping of fact names to conditions; got {given!r}"
        )
    out: dict[str, Condition] = {}
    for fact, cond in given.items():
        if not isinstance(fact, str):
            raise TypeError(f"{owner}: {what}s name facts by str; got {fact!r}")
        if isinstance(cond, Condition):
            out[fact] = cond
        elif kind_of(cond) is not None:
            out[fact] = eq(cond)
        else:
            raise TypeError(
                f"{owner}: the {what} on fact {fact!r} is {cond!r} "
                f"({type(cond).__name__}); write a bool, int or str, or a condition such "
                "as ge(1)"
            )
    return out


def _effects(name: str, given: Mapping[str, Effect] | None) -> dict[str, Effect]:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(
            f"action {name!r}: effects must be a mapping of fact names to values or "
            f"add(n); got {given!r}"
        )
    out: dict[str, Effect] = {}
    for fact, effect in given.items():
        if not isinstance(fact, str):
            raise TypeError(f"action {name!r}: effects name facts by str; got {fact!r}")
        if not isinstance(effect, Add) and kind_of(effect) is None:
            raise TypeError(
                f"action {name!r}: the effect on fact {fact!r} is {effect!r} "
                f"({type(effect).__name__}); an effect sets a bool, int or str, or adds "
                "an int with add(n)"
            )
        out[fact] = effect
    return out
