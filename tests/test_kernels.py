"""The codes the Python front doors share with every compiled kernel: exported once, by
the compiled core, and equal to the ``.pxd`` enums they come from."""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pathcraft._core
from pathcraft import _kernels
from pathcraft._core import graph_search, grid_search, machine
from pathcraft._kernels import FOUND, MODES, TIES, thread_workspace
from pathcraft._options import SearchOptions, kernel_settings
from pathcraft.graph import GRAPH_HEURISTICS
from pathcraft.grid import DIAGONAL_RULES, GRID_HEURISTICS
from pathcraft.result import KERNEL_REASONS, build_result

CORE = Path(pathcraft._core.__file__).parent
STATUSES = ("FOUND", "UNREACHABLE", "MAX_EXPANSIONS", "MAX_COST", "EXHAUSTED", "IN_PROGRESS")


def enums(pxd: str) -> dict[str, int]:
    """The ``NAME = number`` members of the ``cdef enum`` blocks of a ``.pxd``."""
    text = (CORE / pxd).read_text()
    return {m[1]: int(m[2]) for m in re.finditer(r"^ {4}([A-Z][A-Z0-9_]*) = (\d+)", text, re.M)}


def test_the_python_view_of_the_codes_is_the_pxd_s() -> None:
    codes, heap = enums("codes.pxd"), enums("heap.pxd")
    assert {f"ST_{name}" for name in STATUSES} == {k for k in codes if k.startswith("ST_")}
    for name in STATUSES:
        assert getattr(_kernels, name) == getattr(machine, name) == codes[f"ST_{name}"]
    modes = ("astar", "greedy", "dijkstra")
    assert {name: codes[f"MODE_{name.upper()}"] for name in modes} == MODES
    assert len(MODES) == sum(k.startswith("MODE_") for k in codes)
    assert {name: heap[f"TIE_{name.upper()}"] for name in ("g", "fifo", "random")} == TIES
    assert len(TIES) == sum(k.startswith("TIE_") for k in heap)


def test_the_worlds_code_tables_are_the_kernels() -> None:
    grid = enums("grid_search.pxd")
    assert GRID_HEURISTICS is grid_search.HEURISTICS
    assert {name: grid[f"H_{name.upper()}"] for name in GRID_HEURISTICS} == GRID_HEURISTICS
    assert DIAGONAL_RULES is grid_search.DIAGONALS
    assert {name: grid[name.upper()] for name in DIAGONAL_RULES} == DIAGONAL_RULES
    assert GRAPH_HEURISTICS is graph_search.HEURISTICS == {"zero": 0, "euclidean": 1}


def test_the_codes_are_exported_by_one_module() -> None:
    others = sorted(p.name.split(".")[0] for p in CORE.glob("*.pyx") if p.stem != "machine")
    assert len(others) >= 10
    for name in others:
        module = importlib.import_module(f"pathcraft._core.{name}")
        again = [n for n in (*STATUSES, "MODES", "TIES", "KernelSettings") if hasattr(module, n)]
        assert not again, f"pathcraft._core.{name} exports {again} again"


def test_every_status_but_found_has_a_reason_or_is_not_an_end() -> None:
    ends = {code for code in (getattr(_kernels, n) for n in STATUSES) if code != FOUND}
    assert set(KERNEL_REASONS) == ends - {_kernels.EXHAUSTED, _kernels.IN_PROGRESS}
    assert KERNEL_REASONS[_kernels.UNREACHABLE] == "unreachable"
    assert KERNEL_REASONS[_kernels.MAX_EXPANSIONS] == "max_expansions"
    assert KERNEL_REASONS[_kernels.MAX_COST] == "max_cost"


# ------------------------------------------------------------------ the settings object


def test_kernel_settings_hold_the_checked_options() -> None:
    opts = SearchOptions.check(
        "Grid", "greedy", tie_break="random", seed=7, max_expansions=9, max_cost=4,
        partial=True, record=True,
    )  # fmt: skip
    values = opts.kernel_settings().as_dict()
    assert tuple(values) == machine.SETTINGS
    assert values == {
        "mode": MODES["greedy"], "tie": TIES["random"], "weight": 1.0, "max_expansions": 9,
        "max_cost": 4.0, "partial": True, "record": True, "seed": opts.kernel_seed(),
    }  # fmt: skip
    assert opts.kernel_seed() == SearchOptions.check("Grid", "astar", tie_break="random",
                                                     seed=7).kernel_seed() != 0  # fmt: skip
    unlimited = SearchOptions.check("Grid", "dijkstra").kernel_settings().as_dict()
    assert unlimited["max_expansions"] == -1 and unlimited["max_cost"] == float("inf")
    # The searches beyond the skeleton's three are A* variants.
    for algorithm in ("jps", "theta"):
        settings = SearchOptions.check("Grid", algorithm).kernel_settings()
        assert settings.as_dict()["mode"] == MODES["astar"]


def test_kernel_settings_refuse_codes_the_kernels_do_not_know() -> None:
    good = kernel_settings("astar").as_dict()
    with pytest.raises(ValueError, match="mode must be a value of MODES"):
        machine.KernelSettings(**{**good, "mode": 7})
    with pytest.raises(ValueError, match="tie must be a value of TIES"):
        machine.KernelSettings(**{**good, "tie": -1})
    with pytest.raises(ValueError, match="max_expansions must be -1"):
        machine.KernelSettings(**{**good, "max_expansions": -2})
    with pytest.raises(TypeError):
        machine.KernelSettings(**{k: v for k, v in good.items() if k != "seed"})
    with pytest.raises(TypeError):
        machine.KernelSettings(*good.values())  # keyword-only


def test_the_result_builder_reads_the_outcome_codes() -> None:
    found = build_result(FOUND, [1, 2], 1.0)
    assert found and found.reason is None and found.cost == 1.0
    for code, reason in KERNEL_REASONS.items():
        nothing = build_result(code, [], 0.0, expanded=3)
        assert not nothing and nothing.reason == reason and nothing.cost == float("inf")
        assert nothing.expanded == 3
    partial = build_result("max_cost", [1], 2.0)
    assert not partial and partial.cost == 2.0 and partial.path == [1]


def in_fresh_thread(job: Callable[[], Any]) -> Any:
    """Run ``job`` in a new thread (no workspaces yet) and return what it returned."""
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(job()))
    worker.start()
    worker.join()
    return out[0]


def test_workspaces_are_per_thread_per_kernel_and_grow() -> None:
    def job() -> tuple[Any, ...]:
        small = thread_workspace(grid_search.Workspace, 10)
        again = thread_workspace(grid_search.Workspace, 5)
        graph = thread_workspace(graph_search.Workspace, 10)
        grown = thread_workspace(grid_search.Workspace, 100)
        return small, again, graph, grown

    small, again, graph, grown = in_fresh_thread(job)
    assert again is small and small.capacity == 10
    assert isinstance(graph, graph_search.Workspace)
    assert grown is not small and grown.capacity == 100
    other = in_fresh_thread(lambda: thread_workspace(grid_search.Workspace, 100))
    assert other is not grown
