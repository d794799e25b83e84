"""Every public name is documented: a docstring with an Examples section (a doctest),
a docstring for each property, a ``#:`` comment for each constant and type alias.

There is no allow-list: a public name without its documentation fails the test.
``python tests/_public_api.py`` prints every gap by source file.
"""

from __future__ import annotations

from pathlib import Path

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
    # Data: a `#:` comment where it is assigned (read by Sphinx's analyzer).
    assert Entry("x.Cell", "data", None, "pathcraft.grid._grid::Cell").lacks() == []
    assert Entry("x.N", "data", None, "pathcraft.grid._grid::GridAlgorithm").lacks() == [
        "comment"
    ]


def test_the_manual_shows_the_comment_of_re_exported_data() -> None:
    """docs/conf.py gives autodoc the ``#:`` comment of a type alias or constant that a
    package re-exports (autodoc alone would show ``types.UnionType``'s docstring)."""
    import runpy

    conf = runpy.run_path(str(Path(__file__).resolve().parents[1] / "docs" / "conf.py"))
    lines = ["Represent a PEP 604 union type"]
    conf["_reexported_data"](None, "data", "pathcraft.grid.Cell", None, {}, lines)
    assert lines and "(row, col)" in lines[0]
    kept = ["A docstring."]
    conf["_reexported_data"](None, "class", "pathcraft.grid.Grid", None, {}, kept)
    assert kept == ["A docstring."]
