"""What does ``record=True`` cost, and does recording cost anything when it is off?

The grid kernel records an expansion with one test in its loop
(``if q.record and ws.record(u, gu) != 0``). To measure what that test costs when
recording is off, this script compiles two copies of ``src/pathcraft/_core/grid_search.pyx``
side by side in a temporary folder, with the flags of ``setup.py``: one as it is, one
with the recording test removed (``if False:``). Both are loaded in this one process and
run the same A* queries (the Moving AI rule, octile heuristic) straight through the
kernel's ``search`` entry point, interleaved per query in a rotating order:

- *no test*: the copy without the recording test;
- *off*: the copy as shipped, ``record=False`` (what every search pays);
- *on*: the copy as shipped, ``record=True`` (the expansion list is kept and copied out).

Every run's cost must equal the scenario file's optimum. Needs Cython and a C compiler
(as building pathcraft does) and the Moving AI data.

Usage::

    python bench/record_cost.py            # writes bench/results/record_cost.md
    python bench/record_cost.py --quick    # fewer queries, prints only
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_peers import RESULTS, header, load, select, tolerance_ok

from pathcraft import Grid
from pathcraft._options import kernel_settings

REPO = Path(__file__).resolve().parent.parent
KERNEL = REPO / "src" / "pathcraft" / "_core" / "grid_search.pyx"
RECORD_LINE = "        if q.record and ws.record(u, gu) != 0:"
MAPS = ("dao/den520d", "bg512/AR0011SR", "sc1/TheFrozenSea")
VARIANTS = ("no test", "off", "on")

SETUP = """
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

ext = [
    Extension(name, [name + ".pyx"], include_dirs=[np.get_include()],
              define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
              extra_compile_args=["-O3"])
    for name in ("kernel_shipped", "kernel_no_test")
]
setup(ext_modules=cythonize(ext, include_path=[{src!r}], compiler_directives={{
    "language_level": "3", "boundscheck": False, "wraparound": False,
    "initializedcheck": False, "cdivision": True}}))
"""


def build(folder: Path) -> tuple[Any, Any]:
    """Compile the shipped kernel and the one without the recording test; import both."""
    source = KERNEL.read_text()
    if source.count(RECORD_LINE) != 1:
        raise SystemExit(f"the recording test is not where this script expects it: {KERNEL}")
    (folder / "kernel_shipped.pyx").write_text(source)
    (folder / "kernel_no_test.pyx").write_text(source.replace(RECORD_LINE, "        if False:"))
    (folder / "setup.py").write_text(textwrap.dedent(SETUP.format(src=str(REPO / "src"))))
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=folder, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit("building the kernels failed:\n" + done.stderr[-3000:])
    sys.path.insert(0, str(folder))
    return importlib.import_module("kernel_shipped"), importlib.import_module("kernel_no_test")


def run(kernel: Any, ws: Any, grid: Grid, start: int, goal: int, record: bool) -> float:
    """One A* query through the kernel's entry point; returns its cost."""
    _status, _path, cost, _exp, _gen, rec, _g = kernel.search(
        grid._padded, ws, np.array([start], dtype=np.intp), goal, None,
        diagonal=1, hkind=2, hscale=1.0, settings=kernel_settings("astar", record=record),
    )  # fmt: skip
    assert (rec is not None) == record
    return float(cost)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=150, help="queries per map")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each query")
    parser.add_argument("--quick", action="store_true", help="30 queries, 3 repeats, print")
    args = parser.parse_args()
    if args.quick:
        args.queries, args.repeats = 30, 3
    load_start = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="pathcraft-record-"))
    try:
        shipped, no_test = build(folder)
        rows = []
        for name in MAPS:
            m = load(name)
            grid = Grid.from_walkable(m.walkable)
            cols = grid._padded.shape[1]
            kernels = {"no test": no_test, "off": shipped, "on": shipped}
            spaces = {v: kernels[v].Workspace(grid._padded.size) for v in VARIANTS}
            best: dict[str, list[float]] = {v: [] for v in VARIANTS}
            expanded = []
            bad = 0
            for q, i in enumerate(select(len(m.optimal), args.queries)):
                start = int((m.starts[i][0] + 1) * cols + m.starts[i][1] + 1)
                goal = int((m.goals[i][0] + 1) * cols + m.goals[i][1] + 1)
                times: dict[str, float] = {v: math.inf for v in VARIANTS}
                for r in range(args.repeats):
                    for k in range(3):
                        v = VARIANTS[(q + r + k) % 3]
                        t0 = time.perf_counter()
                        cost = run(kernels[v], spaces[v], grid, start, goal, v == "on")
                        times[v] = min(times[v], time.perf_counter() - t0)
                        bad += not tolerance_ok(cost, float(m.optimal[i]))
                for v in VARIANTS:
                    best[v].append(times[v])
                expanded.append(grid.astar(tuple(m.starts[i]), tuple(m.goals[i])).expanded)
            total = {v: sum(best[v]) for v in VARIANTS}
            ratio_off = [o / n for o, n in zip(best["off"], best["no test"], strict=True)]
            ratio_on = [o / n for o, n in zip(best["on"], best["off"], strict=True)]
            rows.append(
                f"| {name} | {len(best['off'])} | {int(np.median(expanded)):,} | "
                f"{statistics.median(best['no test']) * 1e3:.3f} | "
                f"{statistics.median(best['off']) * 1e3:.3f} | "
                f"{statistics.median(best['on']) * 1e3:.3f} | "
                f"{total['off'] / total['no test']:.3f} ({statistics.median(ratio_off):.3f}) | "
                f"{total['on'] / total['off']:.3f} ({statistics.median(ratio_on):.3f}) | {bad} |"
            )
            print(rows[-1], flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    lines = header("Recording a grid search: its cost on and off", load_start, ("numpy",))
    lines += [
        "## How to read",
        "",
        "- Two builds of `_core/grid_search.pyx` made by this script with the flags of "
        "`setup.py`: the shipped one and one without the recording test in the "
        "expansion loop. Each query runs through the kernel's `search` entry point "
        "(the arrays `Grid.astar` passes), A* under the Moving AI rule.",
        f"- {args.queries} evenly spaced scenarios per map; each query runs "
        f"{args.repeats} times per variant, the variants interleaved in a rotating "
        "order; a query's time is its best run. *ms*: the median over queries.",
        "- *off / no test*: the time of the shipped kernel with `record=False` over the "
        "kernel without the test, summed over the queries (the median of per-query "
        "ratios in parentheses): what recording costs when it is off. 1.000 is free; "
        "differences of a percent or two are within this machine's noise.",
        "- *on / off*: `record=True` over `record=False`: what keeping the expansion "
        "list (and copying it out) costs when asked for.",
        "- *bad*: runs whose cost was not the scenario's published optimum.",
        "",
        "| map | queries | median expanded | no test ms | off ms | on ms | off / no test "
        "| on / off | bad |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
    ]
    text = "\n".join(lines)
    if args.quick:
        print(text)
        return
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "record_cost.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
