"""The package's shape: worlds are single classes composed of focused modules, and no
module reaches into another class's private attributes."""

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
