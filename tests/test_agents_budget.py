"""The frame budget's module, compiled (as installed) and as Python: its examples pass
in both forms, the compiled one reads the clock perf_counter reads."""

from __future__ import annotations

import doctest
import importlib.machinery
import sys
import time
from pathlib import Path
from types import FunctionType

import pytest
from _compiled import load

import pathcraft.agents._budget as compiled_budget

SOURCE = Path(__file__).resolve().parents[1] / "src" / "pathcraft" / "agents" / "_budget.py"
source_budget = load("pathcraft_budget_source", SOURCE)


def test_the_compiled_budget_is_in_use() -> None:
    path = str(compiled_budget.__file__)
    assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
        f"pathcraft.agents._budget is not compiled: imported from {path}; build it "
        "(pip install -e .)"
    )
    assert not isinstance(compiled_budget.check_budgets, FunctionType)
    assert isinstance(source_budget.check_budgets, FunctionType)
    # Python's form reads perf_counter; the compiled one the same clock, in C.
    assert source_budget._clock is time.perf_counter


@pytest.mark.parametrize("form", ["compiled", "source"])
def test_the_examples_pass(form: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = compiled_budget if form == "compiled" else source_budget
    # the examples import pathcraft.agents._budget: the form under test
    monkeypatch.setitem(sys.modules, "pathcraft.agents._budget", module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = doctest.DocTestFinder().find(module, "pathcraft.agents._budget")
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 12
    assert {t.name.rsplit(".", 1)[-1] for t in tests if t.examples} >= {
        "FrameBudget", "allowance", "whole",
    }  # fmt: skip


@pytest.mark.parametrize("form", ["compiled", "source"])
def test_a_time_budget_measures_its_deadline_on_the_frames_clock(form: str) -> None:
    """The frame's time counts from its first clock read, on perf_counter's clock:
    a budget of an hour is not spent after a slice, one of a microsecond is, and
    the time a queue spent before the frame's clock counts against it."""
    module = compiled_budget if form == "compiled" else source_budget
    from pathcraft import Grid

    grid = Grid.from_ascii("." * 80, diagonal="never")
    hour = module.FrameBudget(None, 3.6e9)
    hour.start(now=True)
    assert hour.run(grid.start_search((0, 0), (0, 79))) == "found" and not hour.spent
    tiny = module.FrameBudget(None, 1.0)
    tiny.start()
    assert tiny.run(grid.start_search((0, 0), (0, 79))) == "in_progress"
    assert tiny.spent  # after the first slice, 1 us is gone
    late = module.FrameBudget(None, 3.6e9)
    late.start(spent=3.6e3)  # the hour already spent by requests
    assert late.allowance() == module.FIRST  # no time left: the least first slice
    assert late.run(grid.start_search((0, 0), (0, 79))) == "in_progress" and late.spent


@pytest.mark.parametrize("form", ["compiled", "source"])
def test_a_search_smaller_than_a_slice_does_not_move_a_known_rate(form: str) -> None:
    """A few expansions measure mostly a call's fixed price: once a rate is known they
    neither lower it (a tiny plan would judge the next, longer one too slow to run
    whole) nor raise it; a measure of a slice or more sets it, and any measure sets
    the first."""
    module = compiled_budget if form == "compiled" else source_budget
    budget = module.FrameBudget(None, 1e6)  # a second: the time left is about the budget

    def allows() -> float:  # expansions a second, as the allowance tells it
        budget.start()
        return budget.allowance() / 1.0

    budget.spend(64, 64e-6)  # a slice's measure: a million a second
    assert allows() == pytest.approx(1e6, rel=1e-3)
    budget.spend(2, 20e-6)  # 100,000 a second, from two expansions: ignored
    assert allows() == pytest.approx(1e6, rel=1e-3)
    budget.spend(4, 1e-6)  # four million a second, from four: ignored too
    assert allows() == pytest.approx(1e6, rel=1e-3)
    budget.spend(module.SLICE, module.SLICE * 2e-6)  # a slice at half a million: taken
    assert allows() == pytest.approx(5e5, rel=1e-3)
    first = module.FrameBudget(None, 1e6)
    first.spend(2, 20e-6)  # nothing measured yet: any measure sets it
    first.start()
    assert first.allowance() == pytest.approx(1e5, rel=1e-3)


@pytest.mark.parametrize(
    ("budget_us", "spent_us", "first"),
    [(10.25, 0.0, 20), (100.0, 0.0, 32), (2.0, 0.0, 8), (100.0, 150.0, 8), (10.0, 4.25, 11)],
)
def test_a_frames_first_slice_is_what_its_time_allows_within_first_and_slice(
    budget_us: float, spent_us: float, first: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a time budget the frame's first slice runs whatever the time, as many
    expansions as the time left allows at the measured rate (two a microsecond here),
    at least FIRST (a budget below one slice's price binds there), at most SLICE.
    Python's form, on a clock that stands still until the slice ran."""
    from pathcraft import Grid

    module = source_budget
    assert (module.FIRST, module.SLICE) == (8, 32)
    ticks = iter([0.0, 1.0])  # the run's first read, then the read after its slice
    monkeypatch.setattr(module, "_clock", lambda: next(ticks))
    budget = module.FrameBudget(None, budget_us)
    budget.spend(64, 32e-6)  # two million expansions a second
    budget.start(spent_us * 1e-6)
    search = Grid.from_ascii("." * 80, diagonal="never").start_search((0, 0), (0, 79))
    assert budget.run(search) == "in_progress"  # the clock is past the deadline after it
    assert search.expanded == first
