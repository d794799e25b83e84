"""A long jump point search on the workspaces a sliced search can get.

The long query of ``bench/sliced_memory.py`` for jump point search (a wall down the
middle with a gap at the bottom, one cell in ten a wall as well, seeded), from a
quarter of the way across to three quarters, on the grid's plan stepped by 256 to its
end: on one dense workspace reused (a pooled one), on a new dense workspace each time
(beyond the pool before hashed workspaces), and on a hashed workspace moving to dense
arrays at 4,096 cells (the default), at 16,384, or never. In one process, the variants
alternating, best of ``--runs``: a loaded machine compared side by side.

Usage::

    python bench/jps_hashed.py          # prints a Markdown table
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def variants(n: int) -> tuple[int, dict[str, Callable[[], None]]]:
    """The jump points the query expands, and each variant's run."""
    from pathcraft import Grid
    from pathcraft._core.grid_search import Workspace
    from pathcraft._core.hashed import hashed_workspace
    from pathcraft._kernels import IN_PROGRESS
    from pathcraft._options import SearchOptions

    cost = np.ones((n, n))
    cost[: n - n // 8, n // 2] = np.inf
    a, b = (n // 4, n // 4), (n // 4, 3 * n // 4)
    cost[np.random.default_rng(1).random((n, n)) < 0.1] = np.inf
    cost[a] = cost[b] = 1.0
    grid = Grid(cost)
    want = grid.jps(a, b)
    plan: Any = grid._plan(SearchOptions.check_call("Grid", "start_search", "jps", {}))
    size = grid.padded.size
    reused = Workspace(size)

    def run(ws: Any) -> None:
        machine = plan.start(ws, a, b)
        while machine.step(256) == IN_PROGRESS:
            pass
        assert machine.result(0.0).cost == want.cost

    return want.expanded, {
        "dense, reused": lambda: run(reused),
        "new dense workspace each": lambda: run(Workspace(size)),
        "hashed, dense at 4,096 (the default)": lambda: run(hashed_workspace(size)),
        "hashed, dense at 16,384": lambda: run(hashed_workspace(size, 16384)),
        "hashed, never dense": lambda: run(hashed_workspace(size, 2**31 - 2)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[256, 1024])
    parser.add_argument("--runs", type=int, default=6)
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        expanded, runs = variants(n)
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(args.runs):
            for name, fn in runs.items():
                t0 = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - t0)
        base = best["dense, reused"]
        cells = [f"{ms * 1e3:.2f} ms ({ms / base:.2f})" for ms in best.values()]
        rows.append(f"| {n}x{n} | {expanded:,} | " + " | ".join(cells) + " |")
        if len(rows) == 1:
            head = ["map", "jump points expanded", *runs]
            print("| " + " | ".join(head) + " |\n" + "|---" * len(head) + "|")
        print(rows[-1], flush=True)


if __name__ == "__main__":
    main()
