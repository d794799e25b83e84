"""The GOAP agents benchmark runs: ``bench/goap_agents.py --quick``, every recipe, its
checks (no agent replanned, no pursuer searched again) passing, nothing written."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_goap_agents_quick_runs_every_recipe() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        module = runpy.run_path(str(BENCH / "goap_agents.py"), run_name="goap_agents")
        before = sorted((BENCH / "results").iterdir())
        text = module["main"](["--quick"])
        assert sorted((BENCH / "results").iterdir()) == before  # --quick writes nothing
    finally:
        sys.path.remove(str(BENCH))
    rows = [line for line in text.splitlines() if line.startswith("| Pursuer") or
            line.startswith("| Agent")]  # fmt: skip
    assert len(rows) == 4 and all(line.endswith("x |") for line in rows)
