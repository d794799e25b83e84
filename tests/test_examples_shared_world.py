"""The shared-world recipe (examples/shared_world.py): worker processes answer one
batch on a world each maps from its file, with the costs one process computes."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_recipe_answers_a_batch_as_one_process_does(tmp_path: Path) -> None:
    example = runpy.run_path(str(EXAMPLES / "shared_world.py"), run_name="example")
    world = example["tiled_world"](2)
    starts, goals = example["pairs"](world, 50, seed=1)
    labels, _ = world.components()
    assert (labels[tuple(starts.T)] == labels[tuple(goals.T)]).all()
    path = str(tmp_path / "world.npz")
    from pathcraft.io import save

    save(world, path, mappable=True)
    with ThreadPoolExecutor(2) as pool:  # the same chunks and calls, in threads here
        costs = example["answer"](pool, path, starts, goals, chunk=7)
    np.testing.assert_allclose(costs, world.path_costs(starts, goals))
    assert np.isfinite(costs).all()


def test_the_example_runs_on_two_processes() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "shared_world.py"), "--side", "1", "--queries", "40"],
        capture_output=True, text=True, check=True, timeout=300, env=env,
    )  # fmt: skip
    assert "40 queries on 2 processes" in out.stdout and "all found: True" in out.stdout
