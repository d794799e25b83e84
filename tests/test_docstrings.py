"""Every public name is documented: a docstring with an Examples section (a doctest),
a docstring for each property, a ``#:`` comment for each constant, a docstring of its
own for each type alias (which help() shows).

There is no allow-list: a public name without its documentation fails the test.
``python tests/_public_api.py`` prints every gap by source file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from _public_api import Entry, gaps, public_api


def test_every_public_name_is_documented() -> None:
    found = gaps()
    message = [f"  {n}: no {', no '.join(w)}" for n, w in sorted(found.items())]
    assert not found, "public names that lack documentation (write it):\n" + "\n".join(
        message
    )


def test_the_api_is_found() -> None:
    entries, _ = public_api()
    names = {e.qualname for e in entries}
    assert {"pathcraft.grid.Grid", "pathcraft.grid.Grid.astar", "pathcraft.goap.Planner.plan",
            "pathcraft.io.read_map", "pathcraft.io.LENGTH_RTOL"} <= names  # fmt: skip
    assert "pathcraft.Grid" not in names  # documented once, under pathcraft.grid


def test_gaps_are_detected() -> None:
    def documented() -> None:
        """Do it.

        Examples
        --------
        >>> documented()
        """

    def no_example() -> None:
        """Do it."""

    def bare() -> None:
        pass

    assert Entry("x.documented", "function", documented, "x").lacks() == []
    assert Entry("x.no_example", "function", no_example, "x").lacks() == ["example"]
    assert Entry("x.bare", "function", bare, "x").lacks() == ["docstring", "example"]
    assert Entry("x.p", "property", property(bare), "x").lacks() == ["docstring"]
    # Data: a `#:` comment where it is assigned (read by Sphinx's analyzer), or for a
    # type alias a docstring of its own.
    assert Entry("x.D", "data", None, "pathcraft.grid._run::DIAGONAL_RULES").lacks() == []
    assert Entry("x.N", "data", None, "pathcraft.grid._grid::GridAlgorithm").lacks() == [
        "comment"
    ]
    from pathcraft.grid import Cell

    assert Entry("x.Cell", "data", Cell, "pathcraft.grid._grid::Cell").lacks() == []
    assert Entry("x.Mode", "data", Literal["a", "b"], "x::Mode").lacks() == ["comment"]


def test_the_manual_shows_the_comment_of_re_exported_data() -> None:
    """docs/conf.py gives autodoc the ``#:`` comment of a constant that a package
    re-exports (autodoc alone would show the value's class docstring); a type alias
    keeps its own docstring, which autodoc found."""
    import runpy

    conf = runpy.run_path(str(Path(__file__).resolve().parents[1] / "docs" / "conf.py"))
    lines = ["int([x]) -> integer"]
    conf["_reexported_data"](None, "data", "pathcraft.io.MAX_LOAD_BYTES", None, {}, lines)
    assert lines and "4 GiB" in " ".join(lines)
    from pathcraft.grid import Cell

    own = [str(Cell.__doc__)]
    conf["_reexported_data"](None, "data", "pathcraft.grid.Cell", None, {}, own)
    assert own == [str(Cell.__doc__)] and "(row, col)" in own[0]
    kept = ["A docstring."]
    conf["_reexported_data"](None, "class", "pathcraft.grid.Grid", None, {}, kept)
    assert kept == ["A docstring."]
