"""The codes the Python front doors share with every compiled kernel agree."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from pathcraft._core import graph_search, grid_search, polyanya
from pathcraft._kernels import IN_PROGRESS_CODE, thread_workspace
from pathcraft.result import KERNEL_REASONS, build_result


@pytest.mark.parametrize("kernel", [grid_search, graph_search, polyanya])
def test_every_kernel_reports_the_statuses_the_front_doors_read(kernel: object) -> None:
    assert kernel.FOUND == 0  # type: ignore[attr-defined]
    assert kernel.IN_PROGRESS == IN_PROGRESS_CODE  # type: ignore[attr-defined]
    assert KERNEL_REASONS == {
        kernel.UNREACHABLE: "unreachable",  # type: ignore[attr-defined]
        kernel.MAX_EXPANSIONS: "max_expansions",  # type: ignore[attr-defined]
        kernel.MAX_COST: "max_cost",  # type: ignore[attr-defined]
    }


def test_polyanya_reports_a_subset_of_those_statuses() -> None:
    assert polyanya.FOUND == 0
    assert KERNEL_REASONS[polyanya.UNREACHABLE] == "unreachable"
    assert KERNEL_REASONS[polyanya.MAX_EXPANSIONS] == "max_expansions"


def test_the_result_builder_reads_the_outcome_codes() -> None:
    found = build_result(grid_search.FOUND, [1, 2], 1.0)
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
