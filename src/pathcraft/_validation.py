"""Argument checks shared by every front door; each error names the argument."""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection
from typing import Any

__all__ = [
    "MAX_EXPANSIONS",
    "check_budget",
    "check_callable",
    "check_choice",
    "check_limit",
    "check_weight",
]

#: The largest ``max_expansions`` (the kernels count expansions in a signed 64-bit int).
MAX_EXPANSIONS = 2**63 - 1


def check_choice(name: str, value: Any, choices: Collection[str]) -> str:
    """Return ``value`` if it is one of ``choices``; otherwise raise with the list.

    >>> check_choice("tie_break", "fifo", ("g", "fifo"))
    'fifo'
    >>> check_choice("tie_break", "lifo", ("g", "fifo"))
    Traceback (most recent call last):
    ...
    ValueError: tie_break must be one of 'g', 'fifo'; got 'lifo'
    """
    if isinstance(value, str) and value in choices:
        return value  # the common case, without building the message
    listed = ", ".join(repr(c) for c in choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {listed}; got {value!r}")
    raise ValueError(f"{name} must be one of {listed}; got {value!r}")


def check_callable(name: str, value: Any, *, optional: bool = False) -> None:
    """Raise ``TypeError`` unless ``value`` is callable (or None when ``optional``)."""
    if value is None and optional:
        return
    if not callable(value):
        kind = "a callable or None" if optional else "a callable"
        raise TypeError(f"{name} must be {kind}; got {type(value).__name__} {value!r}")


def check_weight(weight: Any) -> float:
    """Return ``weight`` as a float if it is a finite real number >= 1."""
    if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
        raise TypeError(f"weight must be a real number >= 1; got {weight!r}")
    value = float(weight)
    if not (math.isfinite(value) and value >= 1.0):
        raise ValueError(f"weight must be a finite number >= 1; got {weight!r}")
    return value


def check_limit(name: str, value: Any, *, integer: bool) -> float | int | None:
    """Return a ``max_*`` limit: None (no limit) or a number >= 0, never NaN."""
    if value is None:
        return None
    if integer:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer >= 0 or None; got {value!r}")
        if value < 0:
            raise ValueError(f"{name} must be >= 0 or None; got {value!r}")
        return int(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number >= 0 or None; got {value!r}")
    number = float(value)
    if math.isnan(number) or number < 0:
        raise ValueError(f"{name} must be a number >= 0 or None; got {value!r}")
    return number


def check_budget(value: Any) -> int | None:
    """A step budget, ``max_expansions`` of a sliced search's ``step``: None (until
    the search ends) or an integer from 0 to :data:`MAX_EXPANSIONS`; floats and bools
    are refused, never truncated.

    >>> check_budget(2**63 - 1) == MAX_EXPANSIONS
    True
    >>> check_budget(2.7)
    Traceback (most recent call last):
    ...
    TypeError: max_expansions must be an integer >= 0 or None; got 2.7
    >>> check_budget(2**63)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: max_expansions must be at most 9223372036854775807 or None; got 9223...
    """
    budget = check_limit("max_expansions", value, integer=True)
    if budget is not None and budget > MAX_EXPANSIONS:
        raise ValueError(f"max_expansions must be at most {MAX_EXPANSIONS} or None; got {value!r}")
    return None if budget is None else int(budget)
