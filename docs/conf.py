"""Sphinx configuration of pathcraft's reference manual.

Sphinx with numpydoc, because pathcraft's docstrings are numpy-style (Parameters,
Returns, Examples sections) and numpydoc renders them as they are written, the way the
NumPy and SciPy references do; autodoc documents each public module from its
``__all__``, so a new public name appears in the reference without editing a page.
MyST lets the guides stay in Markdown and include the README's sections, so the README
(doctested by pytest) remains the single source of those guides.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
"""

import ast

from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer

from pathcraft import __version__

project = "pathcraft"
author = "pathcraft developers"
copyright = "2026, pathcraft developers"
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "make_pictures.py"]
myst_heading_anchors = 3

# numpydoc renders the sections; autodoc lists the members. Types come from the
# docstrings, so the signatures stay short.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
autodoc_typehints = "none"
autodoc_member_order = "bysource"
# Each page's automodule documents the module's __all__; data that a package re-exports
# from a private module (autodoc skips it) is listed by autodata on the page (its ``#:``
# comment is read where it is assigned: _reexported_data below), and
# .ci/check_reference.py fails the build when a public name is missing.
autodoc_default_options = {"members": True, "undoc-members": True}

html_theme = "alabaster"
html_title = f"pathcraft {__version__}"
html_theme_options = {"description": "Pathfinding and planning for games and simulations"}


def _module_sections(app, what, name, obj, options, lines):  # type: ignore[no-untyped-def]
    """numpydoc leaves module docstrings alone: turn their numpy-style section titles
    (``Examples`` over a line of dashes) into rubrics, as numpydoc does for functions,
    so that they are not sections of the page (nor duplicate labels across pages)."""
    if what != "module":
        return
    for i in range(len(lines) - 1):
        title, rule = lines[i].strip(), lines[i + 1].strip()
        if title and rule and set(rule) == {"-"} and len(rule) >= len(title):
            lines[i] = f".. rubric:: {title}"
            lines[i + 1] = ""


def _assigned_comment(modname: str, attr: str, depth: int = 0) -> list[str] | None:
    """The ``#:`` comment of ``attr`` where it is assigned: in ``modname``, or in the
    module it imports ``attr`` from (``from x import attr``, followed through
    re-exports), or None."""
    try:
        docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        source = ModuleAnalyzer.for_module(modname).code
    except PycodeError:
        return None
    if ("", attr) in docs:
        return list(docs[("", attr)])
    if depth < 5:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if (alias.asname or alias.name) == attr:
                        return _assigned_comment(node.module, alias.name, depth + 1)
    return None


def _reexported_data(app, what, name, obj, options, lines):  # type: ignore[no-untyped-def]
    """autodoc reads a data item's ``#:`` comment only in the module it is documented
    under: for constants and type aliases a package re-exports from a private module
    (``pathcraft.grid.Cell``, assigned in ``pathcraft.grid._grid``) it would show the
    value's own docstring (a ``Cell`` union's is ``types.UnionType``'s) or nothing.
    Show the comment from the module that assigns it instead."""
    if what != "data":
        return
    modname, _, attr = name.rpartition(".")
    comment = _assigned_comment(modname, attr)
    if comment:
        lines[:] = comment


def setup(app):  # type: ignore[no-untyped-def]
    app.connect("autodoc-process-docstring", _module_sections)
    app.connect("autodoc-process-docstring", _reexported_data)
