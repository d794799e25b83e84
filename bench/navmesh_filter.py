"""Navmesh queries with a per-query filter against queries without one (issue 28).

The mesh of a Moving AI 1024 x 1024 map (``sc1/TheFrozenSea``, ``NavMesh.from_grid``:
about 16,000 rectangles). Two units' filters (:class:`pathcraft.navmesh.QueryFilter`):
*mud*, area costs 2 to 5 on a random 10% of the polygons (a mapping), and *fenced*,
the polygons whose centre lies in one of 5 random discs of radius 40 cells excluded
(fields the unit may not enter; random polygons all over the map would cut most of
its one-cell-wide corridors). Funnel queries join two random walkable cells' centres.

Timed per query, interleaved in this order: the query without a filter (warm); the
same query on a second mesh with the mud costs set on it (warm: the search a mud query
runs, without a filter); with each filter, its policy kept by the mesh (warm: the
usual case, a unit type querying with its one filter); and with a filter value the
mesh has not seen (*cold*: its portal graph patched for the polygons it recosts or
excludes, or built whole when they are many, as the mud's are; the walled topology
and the components made; then the search). The peers of the cold query are what a
game did before filters: a second mesh per unit (its graphs built whole on its first
query), or ``set_area_cost`` on the one mesh (patched, but for every unit at once).
Checked outside the timed calls: every filtered answer equals the answer of a second
mesh with the filter's costs set on it (``set_area_cost``), path and cost.

Usage::

    python bench/navmesh_filter.py             # the full run (~1 min), writes the results
    python bench/navmesh_filter.py --quick     # a smoke run, nothing written

Results go to ``bench/results/navmesh_filter.md``.
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
from pathcraft.io import read_walkable  # noqa: E402
from pathcraft.navmesh import QueryFilter  # noqa: E402

MAPS = movingai_dir() / "maps"
OUT = ROOT / "bench" / "results" / "navmesh_filter.md"


def timed(call: Any) -> tuple[Any, float]:
    """``call()`` and its time in milliseconds."""
    t0 = time.perf_counter()
    out = call()
    return out, (time.perf_counter() - t0) * 1e3


def costed(mesh: NavMesh, flt: QueryFilter) -> NavMesh:
    """A second mesh of ``mesh``'s polygons with ``flt``'s area costs set on it."""
    other = NavMesh.from_arrays(mesh.to_arrays())
    costs = flt.area_costs
    for value in sorted(set(costs.values())):
        ids = [p for p, c in costs.items() if c == value]
        other.set_area_cost(ids, value)
    return other


def cells_of(walkable: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """The centres ``(x, y)`` of ``count`` random walkable cells."""
    cells = np.argwhere(walkable)
    out: np.ndarray = cells[rng.integers(0, cells.shape[0], size=count)][:, ::-1] + 0.5
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="sc1/TheFrozenSea")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    queries = 6 if args.quick else args.queries
    rng = np.random.default_rng(args.seed)
    walkable = read_walkable(MAPS / f"{args.map}.map")
    mesh = NavMesh.from_grid(walkable)
    n = mesh.num_polygons
    picks = rng.choice(n, size=n // 10, replace=False)
    mud = QueryFilter(area_costs={int(p): float(rng.integers(2, 6)) for p in picks})
    centres = cells_of(walkable, rng, 5)
    near = np.hypot(*(mesh.parts.centroids[:, None, :] - centres[None]).transpose(2, 0, 1))
    fenced_ids = np.flatnonzero((near < 40).any(axis=1)).tolist()
    fenced = QueryFilter(excluded=fenced_ids)
    cells = np.argwhere(walkable)
    pairs = cells[rng.integers(0, cells.shape[0], size=(queries, 2))][:, :, ::-1] + 0.5
    muddy = costed(mesh, mud)
    for s, g in pairs[:2]:  # warm both meshes' graphs and the filters' policies
        mesh.find_path(s, g, snap=True)
        muddy.find_path(s, g, snap=True)
        for flt in (mud, fenced):
            mesh.find_path(s, g, snap=True, filter=flt)
    rows: dict[str, list[float]] = {k: [] for k in (
        "no filter", "second mesh with the mud costs set, warm", "mud, warm", "fenced, warm",
        "mud, cold (a new filter value)", "fenced, cold (a new filter value)",
        "second mesh, its first query", "set_area_cost on the mesh, then the query",
    )}  # fmt: skip
    checked = unreachable = 0
    for k, (s, g) in enumerate(pairs):
        plain, t = timed(lambda: mesh.find_path(s, g, snap=True))  # noqa: B023
        rows["no filter"].append(t)
        want, t = timed(lambda: muddy.find_path(s, g, snap=True))  # noqa: B023
        rows["second mesh with the mud costs set, warm"].append(t)
        got, t = timed(lambda: mesh.find_path(s, g, snap=True, filter=mud))  # noqa: B023
        rows["mud, warm"].append(t)
        _, t = timed(lambda: mesh.find_path(s, g, snap=True, filter=fenced))  # noqa: B023
        rows["fenced, warm"].append(t)
        # a value the mesh has not seen: one more polygon in mud, one more fenced
        new_mud = QueryFilter(area_costs={**mud.area_costs, int(rng.integers(n)): 2.0})
        _, t = timed(lambda: mesh.find_path(s, g, snap=True, filter=new_mud))  # noqa: B023
        rows["mud, cold (a new filter value)"].append(t)
        new_fence = QueryFilter(excluded=[*fenced_ids, int(rng.integers(n))])
        _, t = timed(lambda: mesh.find_path(s, g, snap=True, filter=new_fence))  # noqa: B023
        rows["fenced, cold (a new filter value)"].append(t)
        if k < 8:  # (a second mesh per query is slow: a few)
            second = costed(mesh, new_mud)
            _, t = timed(lambda: second.find_path(s, g, snap=True))  # noqa: B023
            rows["second mesh, its first query"].append(t)
            spare = NavMesh.from_arrays(muddy.to_arrays())
            spare.find_path(s, g, snap=True)  # its graphs built: the patch is timed
            p = int(rng.integers(n))
            _, t = timed(lambda: (spare.set_area_cost(p, 2.0), spare.find_path(s, g, snap=True)))  # noqa: B023
            rows["set_area_cost on the mesh, then the query"].append(t)
        assert got.path.tolist() == want.path.tolist() and got.cost == want.cost, k
        checked += 1
        unreachable += not plain
    med = {k: float(np.median(v)) for k, v in rows.items()}
    lines = [
        "# Navmesh queries with a per-query filter vs without",
        "",
        f"`python bench/navmesh_filter.py` on {machine()}; commit {git_rev()}.",
        "",
        f"Map `{args.map}`, its mesh `NavMesh.from_grid`: {n} polygons. {queries} funnel "
        "queries between random walkable cells' centres; filters: *mud* (area costs 2-5 "
        f"on {len(picks)} polygons, a mapping) and *fenced* ({len(fenced_ids)} polygons "
        "excluded). Times in milliseconds.",
        "",
        "| query | median ms | mean ms | worst ms | runs |",
        "|---|---|---|---|---|",
    ]
    for name, values in rows.items():
        arr = np.asarray(values)
        lines.append(
            f"| {name} | {np.median(arr):.2f} | {arr.mean():.2f} | {arr.max():.2f} | {arr.size} |"
        )
    lines += [
        "",
        "- Warm mud filter over the same search on a second mesh with those costs set, "
        f"medians: {med['mud, warm'] / med['second mesh with the mud costs set, warm']:.2f}x "
        "(the filter's own cost: its policy looked up). Against no filter at all the "
        "search itself differs (area costs: more expansions, no straight-line shortcut): "
        f"mud {med['mud, warm'] / med['no filter']:.2f}x, fenced "
        f"{med['fenced, warm'] / med['no filter']:.2f}x.",
        f"- A new filter value (its policy made on the query): mud "
        f"{med['mud, cold (a new filter value)'] - med['mud, warm']:.1f} ms more than warm, "
        f"fenced {med['fenced, cold (a new filter value)'] - med['fenced, warm']:.1f} ms more; "
        f"a second mesh's first query costs {med['second mesh, its first query']:.1f} ms.",
        f"- Every mud answer ({checked}) equals a second mesh's with the costs set on it, "
        f"path and cost; {unreachable} of the pairs have no path.",
        "- The machine is shared (2 cores, other sessions running): the ratios come from "
        "interleaved runs in one process; absolute times vary from run to run.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        OUT.write_text(text)


if __name__ == "__main__":
    main()
