"""The mesh queries for agents (issue 29): what each costs a call on a real level.

The mesh of the bundled Dragon Age map ``arena2`` (``NavMesh.from_grid``) and of a
Moving AI 512 x 512 one when the benchmark maps are present (``bg512/AR0011SR``).
Timed per call, warm (each query's derived arrays made once before): ``raycast`` over
a short ray (up to 5 cells) and a long one (up to 60), ``move_along_surface`` over an
agent's step (up to 1 cell), ``distance_to_wall`` of one point and of 1,000 at once,
``random_point`` and ``random_points(10_000)``. Every answer is checked outside the
timed call: ray hits and moves stay on the mesh.

Usage::

    python bench/navmesh_agentq.py            # the full run (~20 s), writes the results
    python bench/navmesh_agentq.py --quick    # a smoke run, nothing written

Results go to ``bench/results/navmesh_agentq.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine, movingai_dir

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from pathcraft import NavMesh  # noqa: E402
from pathcraft.io import bundled_map, read_walkable  # noqa: E402

MAPS = movingai_dir() / "maps"
OUT = ROOT / "bench" / "results" / "navmesh_agentq.md"


def per_call(call: Any, reps: int) -> float:
    """The median time of ``call()`` in microseconds over ``reps`` calls."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e6


def rows_for(name: str, mesh: NavMesh, reps: int, rng: np.random.Generator) -> list[str]:
    starts = mesh.random_points(reps, seed=rng)
    rows = []

    def timed_pairs(label: str, reach: float, query: Any) -> None:
        ends = starts + rng.uniform(-reach, reach, size=starts.shape)
        times = []
        for s, e in zip(starts, ends, strict=True):
            t0 = time.perf_counter()
            out = query(s, e)
            times.append(time.perf_counter() - t0)
            where = out.point if hasattr(out, "point") else out.position
            assert mesh.distance_to_wall(mesh.nearest_point(where)).distance >= 0
            if hasattr(out, "position"):
                assert mesh.locate(out.position) >= 0
        med = float(np.median(times)) * 1e6
        p95 = float(np.percentile(times, 95)) * 1e6
        rows.append(f"| {name} | {label} | {med:.1f} | {p95:.1f} |")

    timed_pairs("raycast, short (<= 5 cells)", 5.0, mesh.raycast)
    timed_pairs("raycast, long (<= 60 cells)", 60.0, mesh.raycast)
    timed_pairs("move_along_surface, a step (<= 1 cell)", 1.0, mesh.move_along_surface)
    one = starts[0]
    many = starts[: min(1000, reps)]
    for label, call in (
        ("distance_to_wall, one point", lambda: mesh.distance_to_wall(one)),
        (f"distance_to_wall, {many.shape[0]} points", lambda: mesh.distance_to_wall(many)),
        ("random_point", lambda: mesh.random_point(seed=rng)),
        ("random_points(10_000)", lambda: mesh.random_points(10_000, seed=rng)),
    ):
        med = per_call(call, max(reps // 10, 5))
        rows.append(f"| {name} | {label} | {med:.1f} | - |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    reps = 50 if args.quick else 1000
    rng = np.random.default_rng(0)
    levels = [("arena2 (DAO, bundled)", bundled_map())]
    if (MAPS / "bg512/AR0011SR.map").exists():
        levels.append(("bg512/AR0011SR", MAPS / "bg512/AR0011SR.map"))
    lines = [
        "# Mesh queries for agents",
        "",
        f"`python bench/navmesh_agentq.py` on {machine()}; commit {git_rev()}.",
        "Microseconds per call (median, and 95th percentile over the ray and step pairs).",
        "",
        "| level | query | median us | p95 us |",
        "|---|---|---|---|",
    ]
    for name, path in levels:
        mesh = NavMesh.from_grid(read_walkable(path))
        mesh.distance_to_wall(mesh.random_points(2, seed=0))  # its walls' tree, made once
        lines += rows_for(f"{name}, {mesh.num_polygons} polygons", mesh, reps, rng)
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text)


if __name__ == "__main__":
    main()
