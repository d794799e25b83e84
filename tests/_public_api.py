"""pathcraft's public API, name by name, and what its documentation lacks.

The public API is the ``__all__`` of the public modules below: every function, class,
constant and type alias listed there, and every public method and property of those
classes. Each object counts once, under the first module that lists it (``Grid`` is
``pathcraft.grid.Grid``, not ``pathcraft.Grid``), which is where the reference manual
documents it.

The standard: every function, class and method has a docstring with an ``Examples``
section (run as a doctest); every property a docstring; every constant a ``#:``
comment (what Sphinx shows for data), every type alias a docstring of its own
(``pathcraft._aliases.documented``, which help() shows too). Run this file to print the gaps, by
source file::

    python tests/_public_api.py
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

#: The public modules, in the order that decides where a re-exported name belongs.
PUBLIC_MODULES = (
    "pathcraft.search",
    "pathcraft.result",
    "pathcraft.grid",
    "pathcraft.layered",
    "pathcraft.graph",
    "pathcraft.waypoints",
    "pathcraft.replan",
    "pathcraft.navmesh",
    "pathcraft.hexgrid",
    "pathcraft.costs",
    "pathcraft.goap",
    "pathcraft.agents",
    "pathcraft.io",
    "pathcraft.viz",
    "pathcraft.cli",
    "pathcraft.voxel",
    "pathcraft.navmesh3d",
    "pathcraft.mapf",
    "pathcraft.world",
    "pathcraft",
)

#: A numpy-style Examples section title.
_EXAMPLES = re.compile(r"^\s*Examples\n\s*-{8,}\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Entry:
    """One public object: where the reference documents it, and what it is."""

    qualname: str  # e.g. "pathcraft.grid.Grid.astar"
    kind: str  # "function", "class", "method", "property" or "data"
    obj: Any
    source: str  # the file that defines it, relative to src/ when possible

    def lacks(self) -> list[str]:
        """What this entry's documentation lacks: "docstring", "example", "comment"."""
        if self.kind == "data":
            return [] if _has_data_comment(self) or _is_documented_alias(self.obj) else ["comment"]
        doc = _own_doc(self)
        if not doc or not doc.strip():
            return ["docstring"] if self.kind == "property" else ["docstring", "example"]
        if self.kind != "property" and not _EXAMPLES.search(inspect.cleandoc(doc)):
            return ["example"]
        return []


def _own_doc(entry: Entry) -> str | None:
    obj = entry.obj
    if entry.kind == "property":
        fget = getattr(obj, "fget", None)
        return getattr(obj, "__doc__", None) or getattr(fget, "__doc__", None)
    if entry.kind == "class":
        # A class without a docstring would show object's or its base's.
        return obj.__dict__.get("__doc__")
    return getattr(obj, "__doc__", None)


def _is_documented_alias(obj: Any) -> bool:
    """A type alias with a docstring of its own (``pathcraft._aliases.documented``),
    which help() and the manual show, in place of a ``#:`` comment."""
    own = obj.__dict__.get("__doc__") if hasattr(obj, "__dict__") else None
    return bool(own and own.strip())


def _source_of(obj: Any, fallback: str) -> str:
    try:
        path = Path(inspect.getsourcefile(obj) or "")
    except TypeError:
        return fallback
    parts = path.parts
    return "/".join(parts[parts.index("pathcraft") :]) if "pathcraft" in parts else str(path)


def _has_data_comment(entry: Entry) -> bool:
    module, _, name = entry.source.partition("::")
    return name in _commented_data().get(module, set())


_COMMENTED: dict[str, set[str]] = {}


def _commented_data() -> dict[str, set[str]]:
    """``{module: names}`` of the module-level assignments with a ``#:`` comment, in
    every pathcraft module (a public module may re-export a private module's data)."""
    if not _COMMENTED:
        from sphinx.pycode import ModuleAnalyzer

        import pathcraft

        root = Path(pathcraft.__file__).parent
        for path in root.rglob("*.py"):
            if path.name == "__main__.py":  # importing it runs the command line
                continue
            module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            try:
                docs = ModuleAnalyzer.for_module(module).find_attr_docs()
            except Exception:
                continue
            _COMMENTED[module] = {
                key[1] for key, lines in docs.items() if not key[0] and "".join(lines).strip()
            }
    return _COMMENTED


def _module_of_data(module: ModuleType, name: str, depth: int = 0) -> str:
    """The module that assigns ``name`` with a ``#:`` comment: ``module`` itself, or the
    one it imports ``name`` from (found by reading its imports)."""
    commented = _commented_data()
    if name in commented.get(module.__name__, set()):
        return module.__name__
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return module.__name__
    pattern = re.compile(rf"^from (pathcraft[\w.]*) import [^\n]*\b{re.escape(name)}\b", re.M)
    block = re.compile(r"^from (pathcraft[\w.]*) import \(([^)]*)\)", re.M)
    owners = [m.group(1) for m in pattern.finditer(source)]
    owners += [m.group(1) for m in block.finditer(source)
               if re.search(rf"\b{re.escape(name)}\b", m.group(2))]  # fmt: skip
    if owners and owners[0] != module.__name__ and depth < 5:
        # Follow the chain of re-exports to the module that assigns it.
        return _module_of_data(importlib.import_module(owners[0]), name, depth + 1)
    return module.__name__


def _home(module: str) -> str:
    """The subpackage (or top-level module) of pathcraft a module belongs to."""
    return ".".join(module.split(".")[:2])


def _members(cls: type, qualname: str, source: str) -> list[Entry]:
    """The public methods and properties of ``cls``: its own and those of its bases
    from its own subpackage (a base written once for its worlds, as the stencil
    worlds' ``StencilGrid``), each once, the nearest definition first."""
    entries = []
    seen: set[str] = set()
    home = _home(cls.__module__)
    bases = [base for base in cls.__mro__ if base is cls or _home(base.__module__) == home]
    for name, value in ((n, v) for base in bases for n, v in vars(base).items()):
        if name.startswith("_") or name in seen:
            continue
        seen.add(name)
        if isinstance(value, property):
            entries.append(Entry(f"{qualname}.{name}", "property", value, source))
        elif isinstance(value, (staticmethod, classmethod)):
            entries.append(Entry(f"{qualname}.{name}", "method", value.__func__, source))
        elif inspect.isfunction(value) or _compiled_function(value):
            entries.append(Entry(f"{qualname}.{name}", "method", value, source))
    return entries


def _compiled_function(value: object) -> bool:
    """A function compiled by Cython (as ``Planner.plan``, a method of its compiled
    base class named in the class)."""
    return type(value).__name__ == "cython_function_or_method"


def public_api() -> tuple[list[Entry], list[str]]:
    """Every public object once, and the modules that could not be imported (extras)."""
    seen: set[int] = set()
    entries: list[Entry] = []
    skipped: list[str] = []
    for modname in PUBLIC_MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError as error:
            skipped.append(f"{modname}: {error}")
            continue
        for name in getattr(module, "__all__", []):
            if name.startswith("__"):
                continue
            obj = getattr(module, name)
            qualname = f"{modname}.{name}"
            is_code = inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismodule(obj)
            if is_code:
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
            if inspect.ismodule(obj):
                continue
            if inspect.isclass(obj):
                source = _source_of(obj, modname)
                entries.append(Entry(qualname, "class", obj, source))
                entries.extend(_members(obj, qualname, source))
            elif inspect.isfunction(obj) or (callable(obj) and hasattr(obj, "__wrapped__")):
                entries.append(Entry(qualname, "function", obj, _source_of(obj, modname)))
            elif modname != "pathcraft":
                owner = _module_of_data(module, name)
                entries.append(Entry(qualname, "data", obj, f"{owner}::{name}"))
    return entries, skipped


def gaps() -> dict[str, list[str]]:
    """``{qualname: [what it lacks]}`` for every public object that lacks something."""
    entries, _ = public_api()
    return {e.qualname: lacks for e in entries if (lacks := e.lacks())}


def report() -> str:
    """The gaps as text, grouped by source file."""
    entries, skipped = public_api()
    by_file: dict[str, list[str]] = defaultdict(list)
    total = 0
    for entry in entries:
        lacks = entry.lacks()
        if lacks:
            total += 1
            source = entry.source.split("::")[0]
            by_file[source].append(f"  {entry.qualname} ({entry.kind}): no {', no '.join(lacks)}")
    lines = [f"{total} of {len(entries)} public objects lack documentation"]
    for source in sorted(by_file):
        lines.append(f"{source}:")
        lines.extend(by_file[source])
    lines.extend(f"not checked (missing extra): {s}" for s in skipped)
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    print(report())
