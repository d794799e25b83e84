"""The package's shape: worlds are single classes composed of focused modules, no
module reaches into another class's private attributes, and no two modules import each
other (through any chain, inside functions too)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from pathcraft import Graph, Grid

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pathcraft"

#: Private attributes of other libraries' objects that have no public accessor.
FOREIGN = {("_batch.py", "executor._client")}


@pytest.mark.parametrize("world", [Grid, Graph])
def test_a_world_is_one_class_whose_methods_are_its_own(world: type) -> None:
    assert world.__mro__ == (world, object)  # no mixins
    for name in ("find_path", "astar", "dijkstra", "greedy", "start_search",
                 "distance_field", "find_paths", "path_costs"):  # fmt: skip
        method = world.__dict__[name]
        assert inspect.isfunction(method) and method.__qualname__ == f"{world.__name__}.{name}"
        assert method.__doc__ and ">>> " in method.__doc__


def _private_attributes(tree: ast.AST) -> dict[str, set[str]]:
    """Per class: the private names it defines (slots, ``self._x = ...``, methods)."""
    owned: dict[str, set[str]] = {}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        names = owned.setdefault(cls.name, set())
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # __slots__ entries
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return owned


def _reach_ins(path: Path, root: Path = PACKAGE) -> list[str]:
    tree = ast.parse(path.read_text())
    owned = _private_attributes(tree)
    modules = {
        (alias.asname or alias.name).split(".")[0]
        for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }  # fmt: skip
    found = []

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.ClassDef) else cls
            if (
                isinstance(child, ast.Attribute)
                and child.attr.startswith("_")
                and not child.attr.startswith("__")
            ):
                owner = child.value
                mine = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
                module = isinstance(owner, ast.Name) and owner.id in modules
                same_class = cls is not None and child.attr in owned.get(cls, set())
                text = ast.unparse(child)
                if not (mine or module or same_class or (path.name, text) in FOREIGN):
                    found.append(f"{path.relative_to(root)}:{child.lineno}: {text}")
            visit(child, inner)

    visit(tree, None)
    return found


def test_no_module_reaches_into_another_class_private_attributes() -> None:
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _reach_ins(path)]
    assert found == []


def test_the_reach_in_check_finds_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "class Box:\n"
        "    __slots__ = ('_items',)\n"
        "    def same(self, other):\n"
        "        return self._items == other._items\n"
        "def reach(graph):\n"
        "    return graph._weights\n"
    )
    assert _reach_ins(sample, tmp_path) == ["sample.py:6: graph._weights"]


# ---------------------------------------------------------------------- the import graph

#: Imports made by name (importlib), which the walk cannot see, each with its reason.
#: They point up on purpose and are the only ones that may.
DYNAMIC = {
    "pathcraft": "the facade loads its public names on first use; nothing inside imports it",
    "pathcraft.world": "world_class loads a saved kind's home module on the first load of a "
    "file of that kind (io knows no world)",
    "pathcraft.viz._deps": "imports the viz extra (matplotlib, Pillow) by name to say how to "
    "install it: outside the package",
}
#: Modules the worlds build on: they import nothing of pathcraft at run time.
GROUND = ("pathcraft.world", "pathcraft._saved", "pathcraft._movingai")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``: imports for the type checker, never run."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING", "typing.TYPE_CHECKING",
        ):  # fmt: skip
            skip.update(id(inner) for part in node.body for inner in ast.walk(part))
    return skip


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package modules it imports at run time: at module level and
    inside functions (``if TYPE_CHECKING:`` blocks left out). Importing ``a.b.c`` also
    runs the packages ``a.b`` (its ``__init__``) unless the importer is inside them."""
    paths = {_module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    top = root.name
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text())
        skip = _typing_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                found = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                    for alias in node.names
                ]
            else:
                continue
            for target in found:
                pieces = target.split(".")
                if pieces[0] != top:
                    continue
                for i in range(2, len(pieces) + 1):  # the packages it runs on the way
                    step = ".".join(pieces[:i])
                    if step in paths and step != name and not name.startswith(step + "."):
                        targets.add(step)
                if target in paths and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, without
    recursion): each is an import circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles


def test_no_two_modules_import_each_other_even_inside_functions() -> None:
    cycles = import_cycles(import_graph())
    assert cycles == [], "import circles (module groups that import each other): " + "; ".join(
        " <-> ".join(group) for group in cycles
    )


def test_the_ground_floor_imports_nothing_of_the_package() -> None:
    graph = import_graph()
    assert {name: sorted(graph[name]) for name in GROUND} == {name: [] for name in GROUND}


def test_only_the_named_modules_import_by_name() -> None:
    by_name = {
        _module_name(path, PACKAGE)
        for path in PACKAGE.rglob("*.py")
        if "importlib.import_module(" in path.read_text()
    }
    assert by_name <= set(DYNAMIC), sorted(by_name - set(DYNAMIC))


def test_the_cycle_check_finds_one_through_a_function_and_a_package(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "world").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "world" / "__init__.py").write_text("from pkg.world._cells import Cells\n")
    (package / "world" / "_cells.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg import draw\n"  # for the type checker only: not an edge
        "class Cells:\n"
        "    def plot(self):\n"
        "        from pkg.draw import picture\n"  # inside a function: an edge
        "        return picture(self)\n"
    )
    (package / "draw.py").write_text("from pkg.world._cells import Cells\n")  # runs pkg.world
    graph = import_graph(package)
    assert graph["pkg.draw"] == {"pkg.world", "pkg.world._cells"}
    assert import_cycles(graph) == [["pkg.draw", "pkg.world", "pkg.world._cells"]]


# ---------------------------------------------------------------------- seams

#: What packages share of each other's internals goes through each package's ``kit``
#: module (``pathcraft.grid.kit``, ``graph.kit``, ``navmesh.kit``: public-internal
#: names). The shared root modules (``pathcraft._x``) and the compiled core
#: (``pathcraft._core``) are the common kit already and do not count.
#: The one exception, with its reason:
EXEMPT = {
    ("pathcraft.cli", "pathcraft.viz._deps"): "the viz extra's check must import when the "
    "viz package cannot (no matplotlib): the command line finds it by its full name, "
    "left in sys.modules by the failed import of pathcraft.viz",
}


def private_imports(root: Path = PACKAGE) -> set[tuple[str, str]]:
    """(importer, module) for every import, type-only ones too, of a private module
    (a name part after the package starting with ``_``) of another package."""
    found = set()
    for path in sorted(root.rglob("*.py")):
        name = _module_name(path, root)
        own = name.split(".")[1] if name.count(".") else ""
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                parts = module.split(".")
                if (
                    len(parts) >= 3
                    and parts[0] == root.name
                    and not parts[1].startswith("_")
                    and parts[1] != own
                    and any(part.startswith("_") for part in parts[2:])
                ):
                    found.add((name, module))
    return found


def test_no_module_imports_another_package_private_module() -> None:
    found = sorted(private_imports() - set(EXEMPT))
    assert found == [], "import the shared name from the package's kit module: " + ", ".join(
        f"{importer} -> {module}" for importer, module in found
    )


def test_the_seam_check_finds_one(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    for sub in ("grid", "agents"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "grid" / "_sizes.py").write_text("SIZE = 1\n")
    (package / "grid" / "_grid.py").write_text("from pkg.grid._sizes import SIZE\n")  # its own
    (package / "agents" / "crowd.py").write_text("from pkg.grid._sizes import SIZE\n")
    assert private_imports(package) == {("pkg.agents.crowd", "pkg.grid._sizes")}

