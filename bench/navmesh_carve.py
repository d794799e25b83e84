"""Carving a building into a navigation mesh against rebuilding the mesh (issue 18).

The mesh of a Moving AI 1024 x 1024 map (``sc1/TheFrozenSea``, ``NavMesh.from_grid``:
about 16,000 rectangles). At each of ``--placements`` random places a square building
of 20 to 40 cells a side (cell-aligned, so the map with the building's cells blocked is
the same walkable space) is carved with ``NavMesh.add_obstacle`` and taken out again
with ``remove_obstacle``; the peer is rebuilding the whole mesh of the map with those
cells blocked, ``NavMesh.from_grid`` (the cheapest full rebuild pathcraft has: a mesh
of arbitrary geometry, ``from_geometry``, is slower still). The three are interleaved
per placement, in that order. Checked outside the timed calls: the carved mesh has the
rebuilt mesh's walkable area, and after the removal the original area again.

What the times hold: ``add_obstacle`` and ``remove_obstacle`` return a mesh ready for
queries (spatial index, components, portals of the polygons around the building); the
polygon graph and the funnel's portal graph are brought up to date on the next query
that needs them (patched: only the rows of the portals and polygons around the
building are made again), while a rebuilt mesh builds them whole on its first query.
So per placement, after the carve: the *first funnel query* (which pays for the
patch) against a *warm* one (the same query repeated at once), and the same query on
the rebuilt mesh, first and warm; after the removal, the *patch* itself, timed alone
(``mesh.portal_graph`` and ``mesh.parts``, which patch the two graphs), against
building the two graphs whole for the same mesh (``build_portals`` and the polygon
graph, as ``from_grid``'s mesh does on its first query). Funnel queries join two
random walkable cells (``snap=True``).

Usage::

    python bench/navmesh_carve.py             # the full run (~1 min), writes the results
    python bench/navmesh_carve.py --quick     # a smoke run, nothing written

Results go to ``bench/results/navmesh_carve.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from _machine import git_rev, machine, movingai_dir
from shapely import box

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from pathcraft import NavMesh  # noqa: E402
from pathcraft.io import read_walkable  # noqa: E402
from pathcraft.navmesh._graphs import polygon_graph  # noqa: E402
from pathcraft.navmesh._portals import build_portals  # noqa: E402

MAPS = movingai_dir() / "maps"
OUT = ROOT / "bench" / "results" / "navmesh_carve.md"


def placements(walkable: np.ndarray, count: int, seed: int) -> list[tuple[int, int, int]]:
    """``(row, col, side)`` of buildings at least half on walkable cells."""
    rng = np.random.default_rng(seed)
    rows, cols = walkable.shape
    out: list[tuple[int, int, int]] = []
    while len(out) < count:
        side = int(rng.integers(20, 41))
        r = int(rng.integers(0, rows - side))
        c = int(rng.integers(0, cols - side))
        if walkable[r : r + side, c : c + side].mean() >= 0.5:
            out.append((r, c, side))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="sc1/TheFrozenSea")
    parser.add_argument("--placements", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 5 if args.quick else args.placements
    walkable = read_walkable(MAPS / f"{args.map}.map")
    mesh = NavMesh.from_grid(walkable)
    area0 = mesh.area
    polys0 = mesh.num_polygons
    add, remove, rebuild, changed, q_carved, q_rebuilt = [], [], [], [], [], []
    warm_carved, warm_rebuilt, patch, whole = [], [], [], []
    rng = np.random.default_rng(args.seed + 1)
    free = np.argwhere(walkable)
    assert mesh.portal_graph.graph.num_edges and mesh.parts.graph.num_edges  # built once
    for r, c, side in placements(walkable, count, args.seed):
        shape = box(c, r, c + side, r + side)  # cell (row, col) is [col, col+1] x [row, row+1]
        seen = mesh.version
        t0 = time.perf_counter()
        ident = mesh.add_obstacle(shape)
        t1 = time.perf_counter()
        add.append(t1 - t0)
        changed.append(mesh.changes_since(seen).size)
        blocked = walkable.copy()
        blocked[r : r + side, c : c + side] = False
        # one funnel query each way after the change (the portal graph is built then)
        a, b = free[rng.integers(len(free), size=2)]
        start, goal = (a[1] + 0.5, a[0] + 0.5), (b[1] + 0.5, b[0] + 0.5)
        t0 = time.perf_counter()
        carved_answer = mesh.find_path(start, goal, snap=True)
        q_carved.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        again = mesh.find_path(start, goal, snap=True)
        warm_carved.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fresh = NavMesh.from_grid(blocked)
        t1 = time.perf_counter()
        rebuild.append(t1 - t0)
        t0 = time.perf_counter()
        fresh_answer = fresh.find_path(start, goal, snap=True)
        q_rebuilt.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fresh.find_path(start, goal, snap=True)
        warm_rebuilt.append(time.perf_counter() - t0)
        assert abs(mesh.area - fresh.area) < 1e-6, (mesh.area, fresh.area)
        assert bool(carved_answer) == bool(fresh_answer) == bool(again)
        assert again.cost == carved_answer.cost
        t0 = time.perf_counter()
        mesh.remove_obstacle(ident)
        remove.append(time.perf_counter() - t0)
        assert abs(mesh.area - area0) < 1e-6
        t0 = time.perf_counter()
        portals, parts = mesh.portal_graph, mesh.parts  # both patched
        patch.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        whole_portals = build_portals(parts.top, None)
        polygon_graph(parts.top, parts.centroids)
        whole.append(time.perf_counter() - t0)
        assert np.array_equal(portals.sides, whole_portals.sides)
        assert all(
            np.array_equal(x, y)
            for x, y in zip(portals.graph.csr, whole_portals.graph.csr, strict=True)
        )
    add_a, rem_a, reb_a = np.array(add), np.array(remove), np.array(rebuild)
    ratio = reb_a / add_a
    extra = np.array(q_carved) - np.array(warm_carved)
    rows = [
        ("add_obstacle", add_a),
        ("remove_obstacle", rem_a),
        ("rebuild (from_grid)", reb_a),
        ("first funnel query after add_obstacle", np.array(q_carved)),
        ("the same query again (warm), carved mesh", np.array(warm_carved)),
        ("first funnel query on the rebuilt mesh", np.array(q_rebuilt)),
        ("the same query again (warm), rebuilt mesh", np.array(warm_rebuilt)),
        ("patch of the portal and polygon graphs after remove_obstacle", np.array(patch)),
        ("the two graphs built whole, same mesh", np.array(whole)),
    ]
    lines = [
        "# Carving a building into a navigation mesh vs rebuilding it",
        "",
        f"`python bench/navmesh_carve.py` on {machine()}; commit {git_rev()}.",
        "",
        f"Map `{args.map}` ({walkable.shape[1]} x {walkable.shape[0]}), its mesh "
        f"`NavMesh.from_grid`: {polys0} polygons. {count} square buildings of 20 to 40 "
        "cells a side at random places (at least half on walkable cells), each carved "
        "(`add_obstacle`), then the whole mesh rebuilt with the building's cells blocked "
        "(`from_grid`, the peer), then the building removed (`remove_obstacle`); the "
        "carved mesh's area is checked against the rebuilt one's. Times in milliseconds.",
        "",
        "| operation | median ms | mean ms | worst ms |",
        "|---|---|---|---|",
    ]
    for name, values in rows:
        ms = values * 1000
        lines.append(f"| {name} | {np.median(ms):.1f} | {ms.mean():.1f} | {ms.max():.1f} |")
    lines += [
        "",
        f"- Rebuild over carve, medians: **{np.median(reb_a) / np.median(add_a):.1f}x** "
        f"(remove: {np.median(reb_a) / np.median(rem_a):.1f}x); per placement: median "
        f"{np.median(ratio):.1f}x, worst {ratio.min():.1f}x; the slowest carve against "
        f"the median rebuild: {np.median(reb_a) / add_a.max():.1f}x.",
        f"- Polygons a carve replaced or moved (`changes_since`): median "
        f"{int(np.median(changed))}, most {int(max(changed))}, of {polys0}.",
        f"- First funnel query after a carve over the same query repeated (warm), "
        f"medians: {np.median(q_carved) / np.median(warm_carved):.2f}x, "
        f"{1000 * (np.median(q_carved) - np.median(warm_carved)):.1f} ms more "
        f"(per placement: median {1000 * np.median(extra):.1f} ms more, worst "
        f"{1000 * extra.max():.1f} ms); on the rebuilt mesh, whose first query builds "
        f"the graphs whole: {np.median(q_rebuilt) / np.median(warm_rebuilt):.2f}x, "
        f"{1000 * (np.median(q_rebuilt) - np.median(warm_rebuilt)):.1f} ms more.",
        f"- The patch of the two graphs against building them whole: "
        f"{np.median(patch) * 1000:.1f} ms against {np.median(whole) * 1000:.1f} ms by "
        f"the median ({np.median(whole) / np.median(patch):.0f}x; the patched graphs are "
        "checked equal to the whole ones, array for array).",
        "- The machine is shared (2 cores, other sessions running): the ratios come "
        "from interleaved runs in one process; absolute times vary from run to run.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text)


if __name__ == "__main__":
    main()
