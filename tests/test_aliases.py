"""Every public type alias says what it is in help(), not what its class is.

``help(pathcraft.goap.Value)`` would show ``types.UnionType``'s text and
``help(pathcraft.grid.Diagonal)`` ``typing.Literal``'s; each public alias carries a
docstring of its own (``pathcraft._aliases.documented``), equal as a type to the alias
written in its module.
"""

from __future__ import annotations

import pydoc
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest
from _public_api import public_api

from pathcraft._aliases import documented


def _is_alias(obj: Any) -> bool:
    return isinstance(obj, types.UnionType) or typing.get_origin(obj) is not None


def _aliases() -> list[tuple[str, Any]]:
    entries, _ = public_api()
    return [(e.qualname, e.obj) for e in entries if e.kind == "data" and _is_alias(e.obj)]


def test_the_public_aliases_are_found() -> None:
    names = {name for name, _ in _aliases()}
    assert {"pathcraft.goap.Value", "pathcraft.goap.CostFunction", "pathcraft.grid.Cell",
            "pathcraft.grid.Diagonal", "pathcraft.result.Reason"} <= names  # fmt: skip


@pytest.mark.parametrize(("name", "alias"), _aliases(), ids=lambda x: str(x))
def test_help_shows_the_alias_docstring(name: str, alias: Any) -> None:
    doc = alias.__dict__.get("__doc__")
    assert doc and len(doc.split()) >= 4, name
    text = pydoc.render_doc(alias, renderer=pydoc.plaintext)
    assert " ".join(doc.split()[:4]) in " ".join(text.split()), name


def test_documented_aliases_keep_their_meaning() -> None:
    from pathcraft.goap import CostFunction, Effect, Value
    from pathcraft.goap._facts import Add, State
    from pathcraft.grid import Cell, Diagonal

    assert Value == (bool | int | str)
    assert typing.get_args(Effect) == (bool, int, str, Add)
    assert typing.get_args(CostFunction) == ([State], float)
    assert typing.get_args(Diagonal) == ("never", "no_corner_cut", "one_free", "always")
    assert Cell == (Sequence[int] | npt.NDArray[np.integer[Any]])


def test_documented_gives_every_kind_of_alias_a_docstring() -> None:
    kinds = [Literal["a", "b"], int | str, Callable[[int], float], Literal["a"] | float]
    for alias in kinds:
        held = documented(alias, "What it is.")
        assert held.__doc__ == "What it is."
        assert typing.get_args(held) == typing.get_args(alias)
        assert alias.__doc__ != "What it is."  # typing's cached alias is not changed
