"""``import pathcraft`` is light: optional and heavy modules load on first use only.

The budget: importing pathcraft and touching its main front doors costs at most 150 ms
more than NumPy (which pathcraft needs anyway), measured in fresh interpreters started
with ``python -X importtime``: the CPU time of the imports after NumPy's is held to the
budget (a busy machine stretches wall-clock times, not CPU time), importtime's
wall-clock breakdown explains a failure, and the best of several runs counts. The
modules are read from bytecode, as an installed package's are: the interpreters may
write it (``PYTHONDONTWRITEBYTECODE`` is dropped for them), and a first, untimed run
compiles it (compiling the sources each run measured the machine's compiler: 190-270
ms of CPU on a slow machine, 71-75 ms read from bytecode).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import pathcraft

#: What a program does first: import pathcraft and reach its main front doors.
FIRST_USE = "import pathcraft; pathcraft.Grid; pathcraft.Graph; pathcraft.astar"
BUDGET_MS = 150.0
RUNS = 10


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )


def top_level_ms(stderr: str) -> list[tuple[str, float]]:
    """``(module, cumulative ms)`` of the modules imported at top level, in order.

    ``-X importtime`` prints ``import time: self | cumulative | name``, the name
    indented by its nesting depth; a top-level import has no indentation.
    """
    entries = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        if cumulative.strip().isdigit() and not name[1:].startswith(" "):
            entries.append((name.strip(), int(cumulative) / 1000.0))
    return entries


def cost_beyond_numpy_ms(stderr: str) -> float:
    """Milliseconds spent importing after NumPy was imported (at top level)."""
    entries = top_level_ms(stderr)
    names = [name for name, _ in entries]
    assert "numpy" in names, stderr[-2000:]
    return sum(ms for _, ms in entries[names.index("numpy") + 1 :])


def test_top_level_parsing() -> None:
    stderr = (
        "import time: self [us] | cumulative | imported package\n"
        "import time:       100 |        100 | site\n"
        "import time:        50 |         50 |   numpy._core\n"
        "import time:      2000 |       3000 | numpy\n"
        "import time:        70 |         70 |   pathcraft._version\n"
        "import time:       400 |        500 | pathcraft\n"
        "import time:      1000 |       1500 | pathcraft.grid\n"
    )
    assert top_level_ms(stderr) == [("site", 0.1), ("numpy", 3.0), ("pathcraft", 0.5),
                                     ("pathcraft.grid", 1.5)]  # fmt: skip
    assert cost_beyond_numpy_ms(stderr) == pytest.approx(2.0)


#: Run after ``import numpy``: the CPU time (of this thread) that importing pathcraft
#: and reaching its front doors takes, in ms.
_TIMED = (
    "import time, numpy; t0 = time.thread_time(); "
    f"{FIRST_USE}; "
    "print((time.thread_time() - t0) * 1e3)"
)


def test_import_costs_at_most_150_ms_more_than_numpy() -> None:
    # Two measures of each fresh interpreter: -X importtime's wall-clock times of the
    # imports that follow NumPy's, and the CPU time they took. The budget holds the
    # CPU time, which a loaded machine does not inflate (waiting for a core is not
    # importing); the wall-clock breakdown names the culprits when it fails. Up to
    # RUNS runs, stopping at the first under budget, after one that compiles the
    # modules' bytecode (where the package's folder is writable).
    _run(_TIMED)
    cpu, wall = [], []
    for _ in range(RUNS):
        run = _run(_TIMED)
        cpu.append(float(run.stdout.split()[-1]))
        wall.append(cost_beyond_numpy_ms(run.stderr))
        if cpu[-1] < BUDGET_MS:
            return
    slowest = sorted(top_level_ms(run.stderr), key=lambda e: -e[1])[:5]
    pytest.fail(
        f"pathcraft's import takes {min(cpu):.0f} ms of CPU beyond NumPy's at best of "
        f"{RUNS} runs (budget {BUDGET_MS:.0f} ms; wall clock {min(wall):.0f} ms); slowest "
        f"top-level imports after NumPy (wall ms): {slowest}"
    )


def test_importtime_agrees_with_cpu_time_on_an_idle_core() -> None:
    # The two measures see the same imports: importtime's wall clock is never below
    # the CPU time (up to timer resolution), so the budget is not met by measuring less.
    run = _run(_TIMED)
    assert cost_beyond_numpy_ms(run.stderr) >= 0.8 * float(run.stdout.split()[-1])


def test_import_loads_no_optional_or_heavy_module() -> None:
    code = (
        f"import sys; {FIRST_USE}; "
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'tqdm', 'scipy', 'shapely', 'matplotlib', 'PIL', 'networkx', 'dask', 'rbloom'} "
        "or m in {'pathcraft.goap', 'pathcraft.navmesh', 'pathcraft.viz', "
        "'pathcraft.agents', 'pathcraft.io', 'pathcraft.cli'})))"
    )
    assert _run(code).stdout.split() == []


@pytest.mark.parametrize("name", ["agents", "costs", "goap", "io", "navmesh", "viz", "search"])
def test_subpackages_are_attributes(name: str) -> None:
    module = getattr(pathcraft, name)
    assert module.__name__ == f"pathcraft.{name}"


def test_dir_lists_public_names_only() -> None:
    names = dir(pathcraft)
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
    assert {"Grid", "Graph", "astar", "goap", "io", "viz", "NavMesh"} <= set(names)
    assert "Any" not in names and "TYPE_CHECKING" not in names


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pathcraft.nope  # noqa: B018


def test_version_everywhere() -> None:
    from importlib.metadata import version

    assert pathcraft.__version__ == version("pathcraft")
    out = subprocess.run([sys.executable, "-m", "pathcraft", "--version"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == f"pathcraft {pathcraft.__version__}"
