"""Mesh agents (issue 29): a pursuer chasing a target that moves every frame, re-aimed
by its path corridor against a new funnel search each frame.

On the mesh of the bundled Dragon Age map ``arena2`` (``NavMesh.from_grid``) and of a
Moving AI 512 x 512 one when the benchmark maps are present (``bg512/AR0011SR``): 20
chases, each a pursuer and a target placed at random at least 60 units apart; the
target walks a random walk along the surface (0.3 a frame), the pursuer runs at 6 a
second at 60 frames a second, for 300 frames. Two ways, run side by side on the same
chases, alternating:

- ``corridor``: ``Pursuer(mesh, ...)``, which re-aims by its corridor
  (``MeshSpace.reaim``) and searches again only when the target drifted;
- ``search``: the same pursuer over a space without ``reaim``: one funnel search
  (``mesh.find_path``) every frame the target moved.

Timed: each ``Pursuer.step`` (microseconds: median, 95th percentile, max); counted: the
searches run, and how much longer the pursuer's remaining path is than the funnel
search's from the same place (checked every 10th frame, outside the timing). Every
frame the pursuer is checked to be on the mesh.

Usage::

    python bench/navmesh_corridor.py            # the full run (~1 min), writes results
    python bench/navmesh_corridor.py --quick    # a smoke run, nothing written

Results go to ``bench/results/navmesh_corridor.md``.
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
from pathcraft.agents import Pursuer  # noqa: E402
from pathcraft.io import bundled_map, read_walkable  # noqa: E402

MAPS = movingai_dir() / "maps"
OUT = ROOT / "bench" / "results" / "navmesh_corridor.md"


class Searching:
    """A mesh's agents' space without ``reaim``: a pursuer over it searches anew."""

    continuous = True

    def __init__(self, mesh: NavMesh) -> None:
        self.space = mesh.agent_space()
        self.world = mesh
        for name in ("key", "snap", "find_path", "start_search", "nodes", "step_costs"):
            setattr(self, name, getattr(self.space, name))

    def point(self, node: Any) -> Any:
        return self.space.point(node)


def chases(mesh: NavMesh, n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        a, b = mesh.random_points(2, seed=rng)
        if np.hypot(*(a - b)) >= 60 and mesh.find_path(a, b):
            out.append((a, b))
    return out


def run(mesh: NavMesh, way: str, start: Any, goal: Any, frames: int, seed: int) -> dict[str, Any]:
    world = mesh if way == "corridor" else Searching(mesh)
    enemy = Pursuer(world, tuple(start), speed=6.0)
    rng = np.random.default_rng(seed)
    target = goal
    times, excess, searches = [], [], 0
    for frame in range(frames):
        target = mesh.move_along_surface(target, target + rng.uniform(-0.3, 0.3, 2)).position
        t0 = time.perf_counter()
        enemy.step(tuple(target), dt=1 / 60)
        times.append(time.perf_counter() - t0)
        assert mesh.locate(enemy.position) >= 0
        plan = enemy.last_plan
        searches += plan is not None and plan.expanded > 0
        if frame % 10 == 0 and enemy.status == "chasing":
            path = np.array(enemy.path)
            mine = float(np.hypot(*np.diff(path, axis=0).T).sum())
            best = mesh.find_path(enemy.plan_start, tuple(target)).cost
            excess.append(mine / best - 1.0 if best > 0 else 0.0)
    return {"times": times, "excess": excess, "searches": searches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n, frames = (3, 60) if args.quick else (20, 300)
    levels = [("arena2 (DAO, bundled)", bundled_map())]
    if (MAPS / "bg512/AR0011SR.map").exists():
        levels.append(("bg512/AR0011SR", MAPS / "bg512/AR0011SR.map"))
    lines = [
        "# Mesh agents: re-aiming by the path corridor",
        "",
        f"`python bench/navmesh_corridor.py` on {machine()}; commit {git_rev()}.",
        f"{n} chases of {frames} frames each, the target moving every frame; microseconds",
        "per `Pursuer.step`; searches per chase (mean); the pursuer's remaining path",
        "against a funnel search from the same place (mean and worst excess, every 10th",
        "frame). The two ways ran side by side on the same chases, alternating.",
        "",
        "| level | way | median us | p95 us | max us | searches / chase | excess mean | "
        "excess worst |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, path in levels:
        mesh = NavMesh.from_grid(read_walkable(path))
        found: dict[str, dict[str, list[float]]] = {
            w: {"times": [], "excess": [], "searches": []} for w in ("corridor", "search")
        }
        for i, (a, b) in enumerate(chases(mesh, n, seed=1)):
            for way in ("corridor", "search") if i % 2 == 0 else ("search", "corridor"):
                out = run(mesh, way, a, b, frames, seed=i)
                found[way]["times"] += out["times"]
                found[way]["excess"] += out["excess"]
                found[way]["searches"].append(out["searches"])
        for way, got in found.items():
            t = np.array(got["times"]) * 1e6
            ex = np.array(got["excess"]) * 100
            lines.append(
                f"| {name}, {mesh.num_polygons} polygons | {way} | {np.median(t):.0f} | "
                f"{np.percentile(t, 95):.0f} | {t.max():.0f} | {np.mean(got['searches']):.1f} | "
                f"{ex.mean():.2f}% | {ex.max():.2f}% |"
            )
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text)


if __name__ == "__main__":
    main()
