"""Public type aliases with a docstring that ``help()`` and the reference manual show.

A type alias (``Diagonal = Literal[...]``, ``Value = bool | int | str``) is an object of
:mod:`typing` or :mod:`types`: ``help(Diagonal)`` shows the text of its class
(``typing.Literal``'s, ``types.UnionType``'s) unless the alias holds a docstring of its
own, and autodoc shows the same docstring in the manual. :func:`documented` gives it
one. Some alias objects cannot hold one (``X | Y`` unions, ``collections.abc.Callable``
subscripted): for those it returns the same alias spelt with :mod:`typing`, which can
(``Union[X, Y] == X | Y``; the same ``__args__``). It documents a copy, never the alias
object :mod:`typing` caches and hands to everyone who spells the same type.

The type checker must keep seeing the plain alias, so a module rebinds the name where
mypy does not look::

    Diagonal = Literal["never", "always"]
    if not TYPE_CHECKING:
        Diagonal = documented(Diagonal, "A diagonal-move rule: ...")
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Any

__all__ = ["documented"]


def _holder(alias: Any) -> Any:
    """``alias``, or the equal alias of :mod:`typing` when ``alias`` cannot hold a
    docstring."""
    if isinstance(alias, types.UnionType):
        return typing.Union[alias.__args__]  # noqa: UP007 (the form that holds a docstring)
    origin = typing.get_origin(alias)
    if origin is collections.abc.Callable:
        params, result = typing.get_args(alias)
        return typing.Callable[params, result]
    return alias


def documented(alias: Any, doc: str) -> Any:
    """A copy of ``alias`` with ``doc`` as its docstring (spelt with :mod:`typing` where
    ``alias`` cannot hold one).

    Where this Python's alias objects hold no docstring at all (Python 3.14 made
    ``typing.Union[...]`` a ``types.UnionType``), the alias is returned unchanged and
    only the manual shows ``doc``.

    Examples
    --------
    >>> from typing import Literal
    >>> Side = documented(Literal["left", "right"], "Which side of a wall.")
    >>> Side.__doc__, Side == Literal["left", "right"]
    ('Which side of a wall.', True)
    >>> Literal["left", "right"].__doc__ == Side.__doc__   # typing's own is untouched
    False
    >>> Number = documented(int | float, "A count or a length.")
    >>> Number == (int | float), Number.__doc__
    (True, 'A count or a length.')
    """
    holder = _holder(alias)
    if not hasattr(holder, "__dict__"):
        return alias
    # A copy: typing caches its aliases, so the object ``Literal["a", "b"]`` returns is
    # the one every other module (and the caller's game) gets for the same words.
    own = object.__new__(type(holder))
    own.__dict__.update(holder.__dict__)
    own.__doc__ = doc
    return own
