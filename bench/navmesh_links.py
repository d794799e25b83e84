"""Off-mesh links on a navmesh: funnel query time with 0, 10 and 100 links against the
same mesh without links (issue 20).

A Moving AI map (``--map``, default ``dao/den520d``) meshed by ``NavMesh.from_grid``;
the queries are scenario problems spread evenly over its ``.scen`` file, start and goal
at cell centres. Each configuration is its own mesh of the same map: *without links*
(never had any), *0 links* (links added then removed: no cost left behind), *10* and
*100 links* between random walkable cell centres (seeded), each costing its length
times a factor drawn in [0.3, 2] (cheap jumps and dear ladders), half of them one way.
Queries are interleaved (each query runs every configuration once, in an order
rotated per query); the table gives the median and the median ratio to *without
links*, the time to build the search graph (the first query after the links change
does it), and how many paths took a link. Each answer is checked
after its timed call: its cost equals ``path_cost(path, links=...)``, its hops are
links, it never costs more than the path without links, and ``corridor`` gives its
cost.

Usage::

    python bench/navmesh_links.py            # writes bench/results/navmesh_links.md
    python bench/navmesh_links.py --quick    # a smoke run, nothing written
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine

from pathcraft import NavMesh
from pathcraft.io import read_scen, read_walkable

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(
    os.environ.get("PATHCRAFT_MOVINGAI", ROOT.parent / "shared" / "benchmarks" / "movingai")
)
OUT = ROOT / "bench" / "results" / "navmesh_links.md"


def add_links(mesh: NavMesh, walkable: np.ndarray, k: int, rng: np.random.Generator) -> None:
    cells = np.argwhere(walkable)
    for _ in range(k):
        (r0, c0), (r1, c1) = cells[rng.integers(len(cells), size=2)]
        a, b = (c0 + 0.5, r0 + 0.5), (c1 + 0.5, r1 + 0.5)
        cost = float(np.hypot(b[0] - a[0], b[1] - a[1])) * rng.uniform(0.3, 2.0)
        mesh.add_link(a, b, cost=cost, two_way=bool(rng.integers(2)))


def check(mesh: NavMesh, res: Any, plain: Any, s: Any, g: Any, bare: NavMesh) -> bool:
    """The answer's cost is its path's, its hops are links; it never costs more than
    the path without links, and the corridor costs it. Whether it took a link."""
    assert res, "a scenario query found no path"
    links = getattr(res, "links", None)
    if links is None:
        assert res.cost == plain.cost
        return False
    cost = mesh.path_cost(res.path, links=links)
    assert abs(cost - res.cost) <= 1e-9 * max(1.0, cost), (cost, res.cost)
    alone = bare.find_path(s, g).cost
    assert res.cost <= alone * (1 + 1e-9) + 1e-9, (res.cost, alone)
    assert mesh.corridor(s, g).cost == res.cost
    return bool((links >= 0).any())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="dao/den520d")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    nq = 30 if args.quick else args.queries
    family, base = args.map.split("/")
    walkable = read_walkable(DATA / "maps" / family / f"{base}.map")
    scen = read_scen(DATA / "scen" / family / f"{base}.map.scen")
    picks = np.linspace(0, len(scen.optimal) - 1, nq).astype(int)
    queries = [(scen.starts[i][::-1] + 0.5, scen.goals[i][::-1] + 0.5) for i in picks]
    rng = np.random.default_rng(args.seed)
    names = ["without links", "0 links", "10 links", "100 links"]
    meshes = {name: NavMesh.from_grid(walkable) for name in names}
    meshes["0 links"].remove_link(meshes["0 links"].add_link(queries[0][0], queries[0][1]))
    add_links(meshes["10 links"], walkable, 10, rng)
    add_links(meshes["100 links"], walkable, 100, rng)
    first: dict[str, float] = {}
    for name, mesh in meshes.items():  # the search graph, built on the first query
        if mesh.has_links:
            _ = mesh.portal_graph  # timed alone in the rows without links
        t0 = time.perf_counter()
        _ = mesh.link_graph if mesh.has_links else mesh.portal_graph
        first[name] = (time.perf_counter() - t0) * 1e3
    times: dict[str, list[float]] = {name: [] for name in names}
    hops = dict.fromkeys(names, 0)
    expanded: dict[str, list[int]] = {name: [] for name in names}
    for q, (s, g) in enumerate(queries):
        order = names[q % 4 :] + names[: q % 4]
        out = {}
        for name in order:
            t0 = time.perf_counter()
            out[name] = meshes[name].find_path(s, g)
            times[name].append((time.perf_counter() - t0) * 1e3)
        for name in names:
            expanded[name].append(out[name].expanded)
            bare = meshes["without links"]
            hops[name] += check(meshes[name], out[name], out["without links"], s, g, bare)
    base_ms = statistics.median(times["without links"])
    rows = []
    for name in names:
        ratio = statistics.median(
            t / b for t, b in zip(times[name], times["without links"], strict=True)
        )
        rows.append(
            f"| {name} | {statistics.median(times[name]):.3f} | {ratio:.2f}x | "
            f"{statistics.median(expanded[name]):.0f} | {first[name]:.1f} | "
            f"{hops[name]} / {nq} |"
        )
    mesh = meshes["without links"]
    text = "\n".join([
        "# Navmesh off-mesh links: funnel query time with and without links",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        f"- Load average (1 min): {os.getloadavg()[0]:.2f} (a shared machine: ratios "
        "are steadier than absolute times)",
        f"- pathcraft (git {git_rev()}); command: `python bench/navmesh_links.py` "
        f"({nq} queries, seed {args.seed})",
        f"- Map: {args.map} ({walkable.shape[1]} x {walkable.shape[0]}), "
        f"{mesh.num_polygons} polygons (`NavMesh.from_grid`)",
        "",
        "## How to read",
        "",
        "- *median ms*: median wall time of one `find_path` (funnel), the same scenario "
        "queries for every configuration, interleaved. *vs without links*: the median of "
        "the per-query ratios to the mesh that never had links.",
        "- *graph build ms*: building the search graph, which the first query after the "
        "links change does: the portal graph without links, the portal graph with the "
        "link ends (the portal graph itself already built) with them; kept until the "
        "links or area costs change.",
        "- *paths taking a link*: how many answers hop at least once. Checked after each "
        "timed call: cost equals `path_cost(path, links=...)`, never dearer than the path "
        "without links (the walk ignoring the links is searched too when it could be "
        "cheaper: a funnel path is the string pulled through its corridor, so the corridor "
        "through a link can pull to a longer path), and `corridor` gives that cost.",
        "- With links, a goal in sight is taken straight only when no chain of links "
        "can be cheaper (a lower bound from the link ends and costs); otherwise the "
        "corridor search runs and the straight line is its rival.",
        "",
        "## Results",
        "",
        "| configuration | median ms | vs without links | median expanded | graph build ms "
        "| paths taking a link |",
        "|---|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"Median without links: {base_ms:.3f} ms. *0 links* runs the same code as "
        "*without links*: their difference is this machine's noise.",
        "",
        "A link cheaper than its span (a jump or teleporter) scales the search's "
        "Euclidean heuristic down by the smallest cost / span ratio of the mesh's links, "
        "so it stays admissible (here "
        f"{meshes['10 links'].link_graph.graph.heuristic_scale:.2f} with 10 links, "
        f"{meshes['100 links'].link_graph.graph.heuristic_scale:.2f} with 100): the "
        "search expands more nodes. The rest of the extra time is Python work per "
        "walked piece (a corridor and a string pull each).",
        "",
    ])
    print(text)
    if not args.quick:
        OUT.write_text(text)


if __name__ == "__main__":
    main()
