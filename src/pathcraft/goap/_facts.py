"""World states and the small vocabulary of conditions and effects over their facts."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from pathcraft._aliases import documented

__all__ = [
    "OPERATORS",
    "Add",
    "Condition",
    "State",
    "Value",
    "add",
    "eq",
    "ge",
    "gt",
    "kind_of",
    "le",
    "lt",
    "ne",
]

Value = bool | int | str
if not TYPE_CHECKING:
    Value = documented(
        Value,
        "The value of a fact: a flag, a count or a label.",
    )

_KINDS: Final = "bool, int or str"


def kind_of(value: Any) -> str | None:
    """The kind of a fact value, ``"bool"``, ``"int"`` or ``"str"``; None if unsupported.

    ``True`` is a bool, not an int: a flag and a count are different kinds of fact.

    Examples
    --------
    >>> kind_of(True), kind_of(3), kind_of("idle"), kind_of(1.5)
    ('bool', 'int', 'str', None)
    """
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    return None


class State(Mapping[str, Value]):
    """An immutable world state: a mapping of fact names to values (bool, int or str).

    Hashable and comparable with any mapping; planners use states as search nodes and
    report the state after each action of a plan as one.

    Parameters
    ----------
    facts : mapping, optional
        Fact names (str) to values.
    **more
        More facts, as keyword arguments.

    Raises
    ------
    TypeError
        A fact name that is not a string or a value that is not a bool, int or str.

    Examples
    --------
    >>> from pathcraft.goap import State
    >>> s = State({"hunger": 3}, has_axe=False)
    >>> s["hunger"], len(s), s == {"has_axe": False, "hunger": 3}
    (3, 2, True)
    >>> s.replace(hunger=2)
    State({'has_axe': False, 'hunger': 2})
    >>> State(speed=1.5)
    Traceback (most recent call last):
    ...
    TypeError: fact 'speed' has the value 1.5 (float); a fact's value must be a bool, int or str
    """

    __slots__ = ("_facts", "_hash")

    def __init__(self, facts: Mapping[str, Value] | None = None, /, **more: Value) -> None:
        merged: dict[str, Value] = {}
        for source in (facts or {}, more):
            for name, value in source.items():
                check_fact(name, value)
                merged[name] = value
        self._facts = dict(sorted(merged.items()))
        self._hash: int | None = None

    @classmethod
    def from_checked(cls, facts: dict[str, Value]) -> State:
        """A state over facts already checked and sorted by name, taken without a copy
        or a check (for :mod:`pathcraft.goap`'s own modules: build states with
        ``State(...)``, which checks every fact).

        Examples
        --------
        >>> from pathcraft.goap import State
        >>> State.from_checked({"a": 1, "b": True}) == State({"b": True, "a": 1})
        True
        """
        state = cls.__new__(cls)
        state._facts = facts
        state._hash = None
        return state

    def to_dict(self) -> dict[str, Value]:
        """The facts as a new dict, sorted by name.

        Examples
        --------
        >>> from pathcraft.goap import State
        >>> State(b=1, a=True).to_dict()
        {'a': True, 'b': 1}
        """
        return self._facts.copy()

    def __getitem__(self, name: str) -> Value:
        return self._facts[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)

    def __contains__(self, name: object) -> bool:
        return name in self._facts

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._facts.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, State):
            return self._facts == other._facts
        if isinstance(other, Mapping):
            return self._facts == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"State({self._facts!r})"

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Value]]]:
        """Pickle the facts only: a cached hash of strings is valid in one process."""
        return (State, (self._facts,))

    def replace(self, **changes: Value) -> State:
        """A new state with some facts set to new values (or added); this one is kept.

        Examples
        --------
        >>> from pathcraft.goap import State
        >>> before = State(hunger=3, food=1)
        >>> before.replace(hunger=2, tired=True)
        State({'food': 1, 'hunger': 2, 'tired': True})
        >>> before["hunger"]
        3
        """
        return State(self._facts, **changes)


def check_fact(name: Any, value: Any, where: str = "") -> None:
    """Raise ``TypeError`` unless ``name`` is a str and ``value`` a bool, int or str."""
    if not isinstance(name, str):
        raise TypeError(f"{where}fact names must be strings; got {name!r}")
    if kind_of(value) is None:
        raise TypeError(
            f"{where}fact {name!r} has the value {value!r} ({type(value).__name__}); "
            f"a fact's value must be a {_KINDS}"
        )


# --------------------------------------------------------------------------- conditions

#: The comparison behind each condition operator.
OPERATORS: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_NAMES: Final = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


@dataclass(frozen=True, slots=True)
class Condition:
    """A test of one fact: ``fact <op> value``. Build one with :func:`eq`, :func:`ge`...

    Attributes
    ----------
    op : {"==", "!=", "<", "<=", ">", ">="}
        The comparison.
    value : bool, int or str
        The value the fact is compared with. Order comparisons take an int or a str.

    Examples
    --------
    >>> from pathcraft.goap import Condition, ge
    >>> ge(2) == Condition(">=", 2), ge(2).test(3)
    (True, True)
    >>> Condition("<", True)
    Traceback (most recent call last):
    ...
    TypeError: lt(True) orders a bool; only eq and ne take bools
    """

    op: str
    value: Value

    def __post_init__(self) -> None:
        if self.op not in OPERATORS:
            listed = ", ".join(repr(o) for o in OPERATORS)
            raise ValueError(f"a condition's op must be one of {listed}; got {self.op!r}")
        kind = kind_of(self.value)
        if kind is None:
            raise TypeError(
                f"{_NAMES[self.op]}() compares with a bool, int or str; got {self.value!r} "
                f"({type(self.value).__name__})"
            )
        if kind == "bool" and self.op not in ("==", "!="):
            raise TypeError(
                f"{_NAMES[self.op]}({self.value!r}) orders a bool; only eq and ne take bools"
            )

    def test(self, value: Value) -> bool:
        """Whether a fact with ``value`` meets the condition.

        Examples
        --------
        >>> from pathcraft.goap import lt
        >>> lt(5).test(4), lt(5).test(5)
        (True, False)
        """
        return OPERATORS[self.op](value, self.value)

    def __repr__(self) -> str:
        return f"{_NAMES[self.op]}({self.value!r})"


def eq(value: Value) -> Condition:
    """The fact equals ``value`` (a plain value in a precondition means the same).

    Examples
    --------
    >>> from pathcraft.goap import eq
    >>> eq(3).test(3), eq("idle").test("busy")
    (True, False)
    """
    return Condition("==", value)


def ne(value: Value) -> Condition:
    """The fact differs from ``value``.

    Examples
    --------
    >>> from pathcraft.goap import ne
    >>> ne("idle").test("busy"), ne(0).test(0)
    (True, False)
    """
    return Condition("!=", value)


def lt(value: Value) -> Condition:
    """The fact is below ``value`` (an int or a str).

    Examples
    --------
    >>> from pathcraft.goap import lt
    >>> lt(3).test(2), lt(3).test(3), lt("m").test("a")
    (True, False, True)
    """
    return Condition("<", value)


def le(value: Value) -> Condition:
    """The fact is at most ``value`` (an int or a str).

    Examples
    --------
    >>> from pathcraft.goap import le
    >>> le(0).test(0), le(0).test(1)
    (True, False)
    """
    return Condition("<=", value)


def gt(value: Value) -> Condition:
    """The fact is above ``value`` (an int or a str).

    Examples
    --------
    >>> from pathcraft.goap import gt
    >>> gt(0).test(1), gt(0).test(0)
    (True, False)
    """
    return Condition(">", value)


def ge(value: Value) -> Condition:
    """The fact is at least ``value`` (an int or a str).

    Examples
    --------
    >>> from pathcraft.goap import ge
    >>> ge(1).test(0), ge(1).test(2), ge(1)
    (False, True, ge(1))
    """
    return Condition(">=", value)


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Add:
    """An effect that adds ``delta`` to an int fact. Build one with :func:`add`.

    Examples
    --------
    >>> from pathcraft.goap import Add, add
    >>> add(2) == Add(2), add(2).delta
    (True, 2)
    >>> Add(1.5)
    Traceback (most recent call last):
    ...
    TypeError: add() takes an int delta; got 1.5
    """

    delta: int

    def __post_init__(self) -> None:
        if isinstance(self.delta, bool) or not isinstance(self.delta, int):
            raise TypeError(f"add() takes an int delta; got {self.delta!r}")

    def __repr__(self) -> str:
        return f"add({self.delta!r})"


def add(delta: int) -> Add:
    """An effect adding ``delta`` (an int, negative to subtract) to an int fact.

    Examples
    --------
    >>> from pathcraft.goap import add
    >>> add(-1)
    add(-1)
    """
    return Add(delta)
