"""The game-loop benchmark (issue 29) runs: ``bench/game_loop.py --quick`` on a tiny
map, every recipe, every answer it checks checked, no agent left standing; and
``bench/budget_parity.py --pairs`` times twins that plan alike."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


@contextmanager
def bench_module(name: str) -> Iterator[ModuleType]:
    """``bench/<name>.py`` loaded as ``name``, with ``bench`` on the path (its scripts
    import ``game_loop``) until the block ends."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCH))
        sys.modules.pop(name, None)
        sys.modules.pop("game_loop", None)


def test_game_loop_quick_runs_every_recipe() -> None:
    with bench_module("game_loop") as module:
        before = sorted((BENCH / "results").iterdir())
        text = module.main(["--quick"])
        assert sorted((BENCH / "results").iterdir()) == before  # --quick writes nothing
    rows = [line.split(" | ") for line in text.splitlines() if "(quick)" in line]
    recipes = {row[2].split(";")[0] for row in rows}
    per_count = [sum(row[1] == n for row in rows) for n in ("5", "20")]
    assert per_count[0] == per_count[1] >= 11  # every recipe for 5 and 20 agents
    for want in ("Pursuer, blocking", "queue, budget", "FlowField", "ChaseField", "mesh Pursuer"):
        assert any(r.startswith(want) for r in recipes), want
    for row in rows:
        assert "stopped" not in row[2] and "skipped" not in row[2], row
        median, p99 = float(row[3]), float(row[5])
        assert 0 <= median <= p99
        assert row[9] == "0", row  # no agent stood still for lack of a path


def test_budget_parity_pairs_twins_that_plan_alike() -> None:
    """``--pairs`` charges a budget's price to plans that are the same for both twins:
    where the budget cannot bind, each set makes exactly its twins' plans."""
    with bench_module("budget_parity") as module:
        out = module.pairs(4, 60, 0.25, 10**9, 1e9, passes=1)
    assert list(out) == ["blocking", "frame_budget=250000000", "time_budget_us=2.5e+08"]
    for label, v in out.items():
        assert v["plans_own"] == v["plans_twin"] > 4, label  # the same plans, budget or not
        assert v["own_us"] > 0 and v["twin_us"] > 0
