"""Batches on voxel grids: ``find_paths`` and ``path_costs`` through the one batch
front door (:func:`pathcraft._batch.query_batch`), their chunks solved by the compiled
voxel kernel with the GIL released."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchDoor
from pathcraft._core import voxel as _kernel
from pathcraft._options import SearchOptions
from pathcraft.result import PathResult
from pathcraft.voxel._run import WORLD, Voxels, flat_voxels, search_settings, to_result, workspace


def pairs(world: Voxels, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
    """The checked ``(start, goal)`` flat voxels of a batch."""
    s = flat_voxels(world, "starts", starts)
    g = flat_voxels(world, "goals", goals)
    if s.shape != g.shape:
        raise ValueError(f"starts has {s.shape[0]} voxels and goals {g.shape[0]}")
    return list(zip(s.tolist(), g.tolist(), strict=True))


def solve_paths(
    world: Voxels, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> list[PathResult]:
    """One result per task (what ``find_path`` answers)."""
    settings = search_settings(world, opts)
    ws = workspace(world.padded.size)
    out = []
    for s, g in tasks:
        t0 = time.perf_counter()
        answer = _kernel.search(world.padded, ws, np.array([s], dtype=np.intp), g, None, **settings)
        out.append(to_result(answer, t0))
    return out


def solve_costs(
    world: Voxels, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> npt.NDArray[np.float64]:
    """The path cost of each task, ``inf`` where none was found."""
    starts = np.array([s for s, _ in tasks], dtype=np.intp)
    goals = np.array([g for _, g in tasks], dtype=np.intp)
    costs = np.empty(len(tasks), dtype=np.float64)
    _kernel.search_costs(
        world.padded, workspace(world.padded.size), starts, goals, costs,
        **search_settings(world, opts),
    )  # fmt: skip
    return costs


VOXEL_DOOR = BatchDoor(WORLD, pairs, solve_paths, solve_costs)
