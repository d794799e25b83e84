"""Saving what was built: loading a saved navmesh (and grid) against building it.

For Moving AI maps (TheFrozenSea, 1024x1024, the goal map; and orz900d, 1491x656;
den520d, 256x257), a navmesh is built from the map's walkable cells
(``NavMesh.from_grid``), saved with ``pathcraft.io.save`` and loaded back with
``pathcraft.io.load`` (a baked mesh: no portal search, no checks beyond index ranges;
the polygons' shapely shapes and STRtree are made on the first query that needs
them). Reported, as medians of several runs in one process:

- build: ``NavMesh.from_grid(walkable)`` (the map already read);
- load: ``pathcraft.io.load(file)`` from the page cache;
- load + first query: load and one ``find_path`` (which makes the shapes), beside the
  same query on the built mesh;
- the grid the same way (``Grid.from_walkable`` against ``load``), and the file sizes.

Every loaded mesh is checked: the same vertices and polygons, and the same cost on 20
``find_path`` queries (funnel) as the built mesh.

Usage::

    python bench/saved_worlds.py          # writes bench/results/saved_worlds.md (~1 min)
    python bench/saved_worlds.py --quick  # TheFrozenSea only, 3 runs, prints only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import git_rev, machine
from grid_peers import RESULTS, load

from pathcraft import Grid, NavMesh
from pathcraft.io import load as load_world
from pathcraft.io import save

MAPS = ("sc1/TheFrozenSea", "dao/orz900d", "dao/den520d")
GOAL = 20.0


def median_time(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def check(built: NavMesh, loaded: NavMesh, walkable: np.ndarray) -> None:
    assert np.array_equal(built.vertices, loaded.vertices)
    assert all(np.array_equal(a, b) for a, b in zip(built.polygons, loaded.polygons, strict=True))
    rng = np.random.default_rng(0)
    free = np.argwhere(walkable)
    for a, b in free[rng.integers(len(free), size=(20, 2))]:
        s, g = (a[1] + 0.5, a[0] + 0.5), (b[1] + 0.5, b[0] + 0.5)
        assert built.find_path(s, g).cost == loaded.find_path(s, g).cost


def run(name: str, runs: int, folder: Path) -> dict[str, Any]:
    walkable = load(name).walkable
    build, mesh = median_time(lambda: NavMesh.from_grid(walkable), max(3, runs // 2))
    mesh_file = folder / "mesh.npz"
    save(mesh, mesh_file)
    load_time, loaded = median_time(lambda: load_world(mesh_file), runs)
    check(mesh, loaded, walkable)
    free = np.argwhere(walkable)
    s = (free[0][1] + 0.5, free[0][0] + 0.5)
    g = (free[-1][1] + 0.5, free[-1][0] + 0.5)
    first, _ = median_time(lambda: load_world(mesh_file).find_path(s, g), runs)
    query, _ = median_time(lambda: mesh.find_path(s, g), runs)
    grid_build, grid = median_time(lambda: Grid.from_walkable(walkable), runs)
    grid_file = folder / "grid.npz"
    save(grid, grid_file)
    grid_load, again = median_time(lambda: load_world(grid_file), runs)
    assert np.array_equal(again.cost, grid.cost)
    return {
        "map": name, "shape": walkable.shape, "polygons": mesh.num_polygons,
        "build": build, "load": load_time, "first": first, "query": query,
        "mesh_mb": mesh_file.stat().st_size / 2**20,
        "grid_build": grid_build, "grid_load": grid_load,
        "grid_mb": grid_file.stat().st_size / 2**20,
    }  # fmt: skip


def report(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Saving what was built: loading a baked navmesh against building it",
        "",
        f"`python bench/saved_worlds.py` on {machine()}; commit {git_rev()}.",
        "",
        "Medians of repeated runs in one process, files in the page cache. *build*: "
        "`NavMesh.from_grid` on the map's walkable cells; *load*: `pathcraft.io.load` of "
        "the saved mesh; *load + 1st query*: load and one `find_path`, which makes the "
        "polygons' shapely shapes and STRtree the loader defers. Every loaded mesh has the "
        "built mesh's vertices and polygons and the same costs on 20 queries. The goal "
        f"(issue 16): load at least {GOAL:g}x faster than build on the 1024x1024 map.",
        "",
        "| map | size | polygons | build ms | load ms | build / load | load + 1st query ms "
        "| same query on the built mesh ms | mesh file MB | grid build ms | grid load ms "
        "| grid file MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        rows_, cols = r["shape"]
        lines.append(
            f"| {r['map']} | {cols}x{rows_} | {r['polygons']} | {r['build'] * 1e3:.1f} | "
            f"{r['load'] * 1e3:.1f} | **{r['build'] / r['load']:.1f}x** | {r['first'] * 1e3:.1f} | "
            f"{r['query'] * 1e3:.1f} | {r['mesh_mb']:.2f} | {r['grid_build'] * 1e3:.1f} | "
            f"{r['grid_load'] * 1e3:.1f} | {r['grid_mb']:.2f} |"
        )
    goal = rows[0]
    verdict = "met" if goal["build"] / goal["load"] >= GOAL else "NOT met"
    lines += [
        "",
        f"Goal {verdict} on {goal['map']}: load is {goal['build'] / goal['load']:.1f}x faster "
        "than build. The first query after a load also makes the polygons' shapes and "
        "STRtree (load + 1st query, less the same query on the built mesh, less load); a "
        "grid is as fast to build from an array as to load (its file saves the level, not "
        "time).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one map, 3 runs, print only")
    args = parser.parse_args()
    runs = 3 if args.quick else 9
    maps = MAPS[:1] if args.quick else MAPS
    with tempfile.TemporaryDirectory() as folder:
        rows = [run(name, runs, Path(folder)) for name in maps]
    text = report(rows)
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "saved_worlds.md").write_text(text)


if __name__ == "__main__":
    main()
