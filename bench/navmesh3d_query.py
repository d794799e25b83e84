"""Queries on 3-D navigation meshes: NavMesh3D's find_path, nearest_point and raycast
on RecastDemo's levels built by pathcraft, side by side with the flat NavMesh on the
same polygons seen from above where that is a valid flat mesh (one floor), and the
cost of adding and removing a tile at run time.

Run on purpose, not in CI::

    python bench/navmesh3d_query.py          # ~1 min; writes the queries section of
                                             # bench/results/navmesh3d.md
    python bench/navmesh3d_query.py --quick  # smoke run, nothing written

Each round times the 3-D query and the flat one on the same pairs, one after the
other (alternating, on this shared machine), and keeps the best round of each; each
answer is checked in the timed loop (a path found for pairs of one component).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from _machine import REPO, git_rev, machine, write_section

from pathcraft import NavMesh
from pathcraft.navmesh3d import BuildConfig, NavMesh3D, build, build_tiles, read_obj
from pathcraft.navmesh3d._tiles import without

LEVELS = REPO / "tests" / "data" / "recast"
NAMES = ("dungeon", "nav_test", "undulating")
RESULTS = REPO / "bench" / "results" / "navmesh3d.md"
SECTION = "## Queries (NavMesh3D)"
NOTES = """
Where the time goes: the 3-D search is the flat mesh's (the same compiled A* over the
portal graph, the same compiled funnel); the rest is Python over NumPy: locating the
start and goal in 3-D (an STRtree query, then the height of each candidate polygon's
surface), and lifting the path onto the detail triangles (crossing each portal, cutting
at triangle edges, heights), most of the 3-D query's time on these levels' detail meshes
(tens of triangles a polygon). `nearest_point` is one STRtree query for all points in
both; the 3-D one then weighs each candidate polygon's height (and looks for the nearest
point in 3-D, a pass over every surface triangle, for each point over no polygon within
the vertical tolerance). A tile edit makes the whole mesh's search arrays again
(adjacency, portal graph, surface), so it costs what the level costs, not what the tile
does: patching them locally, as the flat mesh patches its portal graph after carving, is
not done yet.
"""


def _flat(poly: Any) -> NavMesh | None:
    """The flat mesh of the polygons seen from above, or None (floors overlap)."""
    try:
        return NavMesh(poly.vertices[:, :2], [r[r >= 0] for r in poly.polygons])
    except ValueError:
        return None


def _best(run: Callable[[], None], rounds: int) -> float:
    best = np.inf
    for _ in range(rounds):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


def _runs(mesh: NavMesh3D, flat: NavMesh | None, a: Any, b: Any) -> dict[str, Callable[[], None]]:
    """The timed loops of one level: 3-D queries, and the flat ones where there is a
    flat mesh; each answer checked (a path found)."""

    def paths3d() -> None:
        for s, g in zip(a, b, strict=True):
            assert mesh.find_path(s, g)

    def near3d() -> None:
        mesh.nearest_point(a + np.array([0.3, -0.2, 0.5]))

    def ray3d() -> None:
        for s, g in zip(a, b, strict=True):
            mesh.raycast(s, g)

    runs = {"path3d": paths3d, "near3d": near3d, "ray3d": ray3d}
    if flat is None:
        return runs
    plane = flat

    def paths2d() -> None:
        for s, g in zip(a, b, strict=True):
            assert plane.find_path(s[:2], g[:2])

    def near2d() -> None:
        plane.nearest_point(a[:, :2] + np.array([0.3, -0.2]))

    def ray2d() -> None:
        for s, g in zip(a, b, strict=True):
            plane.raycast(s[:2], g[:2])

    # alternating: each 3-D loop next to its flat one
    return {"path3d": paths3d, "path2d": paths2d, "near3d": near3d, "near2d": near2d,
            "ray3d": ray3d, "ray2d": ray2d}  # fmt: skip


def _swap(mesh: NavMesh3D, tid: int, tile: Any) -> None:
    """Remove tile ``tid`` and add it back."""
    mesh.remove_tile(tid)
    mesh.add_tile(tile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="one round, nothing written")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    n = 20 if args.quick else args.pairs
    config = BuildConfig()
    rows = []
    for name in NAMES:
        vertices, triangles = read_obj(LEVELS / f"{name}.obj")
        poly = build(vertices, triangles, config)
        mesh = NavMesh3D(poly, height_tolerance=config.agent_max_climb)
        flat = _flat(poly)
        labels, _ = mesh.components()
        pts = mesh.random_points(2 * n, seed=7)
        where = mesh.locate(pts)
        same = labels[where[:n]] == labels[where[n:]]
        a, b = pts[:n][same], pts[n:][same]
        timings: dict[str, float] = {}
        runs = _runs(mesh, flat, a, b)
        for _ in range(rounds):  # alternating, the best round of each
            for key, run in runs.items():
                timings[key] = min(timings.get(key, np.inf), _best(run, 1))
        k = int(same.sum())
        per = {key: value / k * 1e3 for key, value in timings.items()}
        # tiles: the level in tiles of 64 cells; one tile removed and added back
        tiled = build_tiles(vertices, triangles, BuildConfig(tile_size=64))
        ids = np.unique(tiled.tiles)
        streamed = NavMesh3D(tiled, height_tolerance=config.agent_max_climb)
        tid = int(ids[len(ids) // 2])
        swap = partial(_swap, streamed, tid, without(tiled, tiled.tiles == tid))
        swap_ms = _best(swap, rounds) * 1e3 / 2
        rows.append((name, poly.num_polygons, k, per, flat is not None, len(ids),
                     tiled.num_polygons, swap_ms))  # fmt: skip
        print(name, {key: round(v, 3) for key, v in per.items()}, round(swap_ms, 2),
              file=sys.stderr)  # fmt: skip

    def cell(per: dict[str, float], key: str) -> str:
        return f"{per[key]:.2f}" if key in per else "n/a"

    lines = [
        SECTION,
        "",
        f"{dt.date.today()}, commit {git_rev()}; {machine()}.",
        f"Run: `python bench/navmesh3d_query.py` ({rounds} rounds, best of each, the 3-D "
        "and the flat query alternating).",
        "RecastDemo's levels built by `navmesh3d.build` with RecastDemo's defaults; "
        "milliseconds per query over random pairs of one component (the same pairs for "
        "both); flat: `NavMesh` on the same polygons seen from above, where they make a "
        "valid flat mesh (n/a: floors overlap, or vertices of two floors coincide). Tiles: "
        "the level built in tiles of 64 cells, one tile removed then added back "
        "(milliseconds per edit: the whole mesh's search arrays are made again).",
        "",
        "| level | polygons | pairs | find_path 3-D | flat | nearest_point 3-D | flat | "
        "raycast 3-D | flat | tiles | tiled polygons | tile edit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, polys, k, per, _, ntiles, tpolys, swap_ms in rows:
        lines.append(
            f"| {name} | {polys} | {k} | {cell(per, 'path3d')} | {cell(per, 'path2d')} | "
            f"{cell(per, 'near3d')} | {cell(per, 'near2d')} | {cell(per, 'ray3d')} | "
            f"{cell(per, 'ray2d')} | {ntiles} | {tpolys} | {swap_ms:.1f} |"
        )
    lines += ["", *NOTES.strip("\n").split("\n")]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.quick:
        return
    write_section(RESULTS, SECTION[3:], text.split("\n", 1)[1], "# 3-D navigation meshes")


if __name__ == "__main__":
    main()
