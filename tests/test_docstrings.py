"""Every public name is documented: a docstring with an Examples section (a doctest),
a docstring for each property, a ``#:`` comment for each constant and type alias.

``tests/docstring_gaps.txt`` lists the gaps still open (``qualname: what it lacks``);
this test fails on a gap that is not in the list, and on a listed gap that was closed
(remove its line), so the list only shrinks. ``python tests/_public_api.py`` prints
every gap by source file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _public_api import Entry, gaps, public_api

GAPS_FILE = Path(__file__).with_name("docstring_gaps.txt")


def known_gaps(path: Path = GAPS_FILE) -> dict[str, list[str]]:
    """``{qualname: [what it lacks]}`` from a gaps file (``#`` starts a comment)."""
    known = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, lacks = line.partition(":")
            known[name.strip()] = sorted(w.strip() for w in lacks.split(","))
    return known


def test_every_public_name_is_documented() -> None:
    found = {name: sorted(lacks) for name, lacks in gaps().items()}
    known = known_gaps()
    new = {n: w for n, w in found.items() if not set(w) <= set(known.get(n, []))}
    closed = {n: w for n, w in known.items() if not set(w) <= set(found.get(n, []))}
    message = []
    if new:
        message.append("public names that lack documentation (write it):")
        message += [f"  {n}: no {', no '.join(w)}" for n, w in sorted(new.items())]
    if closed:
        message.append(f"gaps closed: update {GAPS_FILE.name} to these lines:")
        message += [f"  {n}: {', '.join(found[n])}" if n in found else f"  {n}: (remove)"
                    for n in sorted(closed)]  # fmt: skip
    assert not message, "\n".join(message)


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


@pytest.mark.parametrize("line", ["x.y: example", "x.z: docstring, example"])
def test_gaps_file_format(line: str, tmp_path: Path) -> None:
    path = tmp_path / "gaps.txt"
    path.write_text(f"# comment\n\n{line}\n")
    name, _, lacks = line.partition(":")
    assert known_gaps(path) == {name: sorted(w.strip() for w in lacks.split(","))}
