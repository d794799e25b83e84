"""pathcraft's grid A* against the other Python pathfinders, on Moving AI maps.

Every library solves the same Moving AI scenarios (N. Sturtevant, "Benchmarks for
Grid-Based Pathfinding", IEEE TCIAIG 4(2):144-148, 2012) in this one process. Each
library is run under the movement rule it expresses, and each answer is checked, right
after its timed call, against the oracle of that rule:

- 8-connected, no corner cutting (the Moving AI rule): the scenario's optimal length,
  with the data set's tolerance ``abs(got - want) <= 1e-5 * max(1, want)``;
- 4-connected, and 8-connected with corner cutting: pathcraft's Dijkstra under that rule,
  itself cross-checked against ``scipy.sparse.csgraph.dijkstra`` on the sampled queries.

Every returned path is also checked: right ends, walkable cells, legal steps under the
rule, and its length equal to the reported cost. Graphs and maps are built once per map,
outside the timed region; one untimed warm-up query per library comes first. Queries are
interleaved: for each scenario every library runs once, in an order rotated per query.

Scenario selection (deterministic): scenario files are sorted by bucket (length / 4),
so ``--queries`` evenly spaced lines (``numpy.linspace`` over the file, rounded) cover
short to long problems; the slow pure-Python peers get every k-th of those
(``--slow-queries`` of them).

Usage::

    python bench/grid_peers.py            # default: 7 maps, ~100 queries each (~5 min)
    python bench/grid_peers.py --quick    # a smoke run: 20 / 4 queries, nothing written
    python bench/grid_peers.py --all      # all 16 maps, every scenario, pathcraft A* and JPS

Results go to ``bench/results/grid_peers.md`` (``--all``: ``grid_peers_all.md``).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from _machine import git_rev, machine, reset_peak_rss, vm_status

import pathcraft
from pathcraft import Grid
from pathcraft._core import grid_search
from pathcraft.io import read_scen, read_walkable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"

#: The maps of the default run: one or more per family, and one large map.
MAPS = (
    "dao/den520d",
    "random/random512-40-0",
    "room/32room_000",
    "maze/maze512-1-0",
    "street/Boston_0_512",
    "bg512/AR0011SR",
    "sc1/TheFrozenSea",
)

SQRT2 = math.sqrt(2.0)
# Integer step costs for the peers that want integers (tcod, igraph): 47321 / 33461 is a
# convergent of sqrt(2), off by 2.5e-10 relative, so integer lengths / 33461 meet the
# 1e-5 tolerance with four orders of magnitude to spare (10000 / 14142 is off by 1e-5).
CARD, DIAG = 33461, 47321

MAI = "no_corner_cut"
RULES = {
    MAI: "8-conn, no corner cut (Moving AI)",
    "never": "4-connected",
    "always": "8-conn, corners cut",
}


def data_dir() -> Path:
    """The Moving AI data: ``$PATHCRAFT_MOVINGAI`` or ``../shared/benchmarks/movingai``."""
    env = os.environ.get("PATHCRAFT_MOVINGAI")
    path = Path(env) if env else REPO.parent / "shared" / "benchmarks" / "movingai"
    if not (path / "maps").is_dir():
        sys.exit(f"Moving AI data not found at {path}: set PATHCRAFT_MOVINGAI")
    return path


def tolerance_ok(got: float, want: float) -> bool:
    """The data set's rule for comparing lengths."""
    return abs(got - want) <= 1e-5 * max(1.0, want)


@dataclass
class MapData:
    name: str
    walkable: np.ndarray  # bool (rows, cols)
    starts: np.ndarray  # (n, 2) (row, col)
    goals: np.ndarray
    optimal: np.ndarray  # (n,)


def load(name: str) -> MapData:
    root = data_dir()
    walkable = read_walkable(root / "maps" / f"{name}.map")
    scen = read_scen(root / "scen" / f"{name}.map.scen")
    return MapData(
        name,
        np.asarray(walkable, dtype=bool),
        np.asarray(scen.starts, dtype=np.intp),
        np.asarray(scen.goals, dtype=np.intp),
        np.asarray(scen.optimal, dtype=np.float64),
    )


def select(n: int, k: int) -> np.ndarray:
    """``k`` evenly spaced scenario indices out of ``n`` (all of them when k >= n)."""
    return np.unique(np.linspace(0, n - 1, min(k, n)).round().astype(np.intp))


# ---------------------------------------------------------------------- checking


def path_cost(path: Any, walk: np.ndarray, rule: str, start: tuple, goal: tuple) -> float | str:
    """The length of ``path`` under ``rule``, or a string saying why it is not legal."""
    if path is None:
        return "no path returned"
    p = np.asarray(path, dtype=np.intp).reshape(-1, 2)
    if len(p) == 0:
        return "empty path"
    if tuple(p[0]) != tuple(start) or tuple(p[-1]) != tuple(goal):
        return f"path runs {tuple(p[0])} -> {tuple(p[-1])}"
    rows, cols = walk.shape
    if (p < 0).any() or (p[:, 0] >= rows).any() or (p[:, 1] >= cols).any():
        return "path leaves the map"
    if not walk[p[:, 0], p[:, 1]].all():
        return "path crosses a wall"
    d = np.diff(p, axis=0)
    ad = np.abs(d)
    if len(d) and (ad.max(axis=1) != 1).any():
        return "path has a step that is not to a neighbour"
    diag = ad.sum(axis=1) == 2
    if rule == "never" and diag.any():
        return "diagonal step on a 4-connected rule"
    if rule == MAI and diag.any():
        a = walk[p[:-1, 0] + d[:, 0], p[:-1, 1]]
        b = walk[p[:-1, 0], p[:-1, 1] + d[:, 1]]
        if (diag & ~(a & b)).any():
            return "diagonal step cuts a corner"
    return float((~diag).sum()) + SQRT2 * float(diag.sum())


# ---------------------------------------------------------------------- peers


@dataclass
class Peer:
    """One library under one rule: ``solve`` is timed; ``decode`` is not."""

    name: str
    rule: str
    slow: bool
    solve: Callable[[tuple, tuple], Any]
    decode: Callable[[Any], tuple[float | None, Any]]  # -> (reported cost or None, path)
    build_s: float = 0.0
    times: dict[int, float] = field(default_factory=dict)
    bad: list[tuple[int, str]] = field(default_factory=list)
    is_pathcraft: bool = False


def rule_edges(walk: np.ndarray, rule: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected edges ``(u, v, is_diagonal)`` of the walkable cells under ``rule``,
    each once, as flat (row-major) indices of the unpadded map."""
    rows, cols = walk.shape
    pad = np.pad(walk, 1)
    us, vs, ds = [], [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        diag = dr != 0 and dc != 0
        if diag and rule == "never":
            continue
        ok = walk & pad[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
        if diag and rule == MAI:
            ok &= pad[1 + dr : 1 + dr + rows, 1 : 1 + cols]
            ok &= pad[1 : 1 + rows, 1 + dc : 1 + dc + cols]
        r, c = np.nonzero(ok)
        us.append(r * cols + c)
        vs.append((r + dr) * cols + (c + dc))
        ds.append(np.full(len(r), diag))
    return np.concatenate(us), np.concatenate(vs), np.concatenate(ds)


def csr_graph(walk: np.ndarray, rule: str) -> Any:
    import scipy.sparse as sp

    u, v, diag = rule_edges(walk, rule)
    w = np.where(diag, SQRT2, 1.0)
    n = walk.size
    return sp.csr_matrix((np.r_[w, w], (np.r_[u, v], np.r_[v, u])), shape=(n, n))


def cells_of(flat: Any, cols: int) -> np.ndarray:
    return np.stack(np.divmod(np.asarray(flat, dtype=np.intp), cols), axis=1)


def pathcraft_peer(walk: np.ndarray, rule: str, method: str) -> Peer:
    grid = Grid.from_walkable(walk, diagonal=rule)  # type: ignore[arg-type]
    search = getattr(grid, method)
    label = {"astar": "pathcraft A*", "dijkstra": "pathcraft Dijkstra", "jps": "pathcraft JPS"}[
        method
    ]
    return Peer(label, rule, False, search, lambda r: (r.cost, r.path), is_pathcraft=True)


def _tcod_solver(graph: Any) -> Callable[[tuple, tuple], Any]:
    """One query on a tcod graph: the path and its integer distance."""
    import tcod.path

    pf = tcod.path.Pathfinder(graph)

    def solve(s: tuple, g: tuple) -> Any:
        pf.clear()
        pf.add_root(s)
        path = pf.path_to(g)
        return path, int(pf.distance[g])

    return solve


def tcod_custom_peer(walk: np.ndarray) -> Peer:
    """tcod ``CustomGraph``: cardinal edges plus diagonal edges whose ``condition``
    arrays hold where both orthogonal neighbours are free (the Moving AI rule)."""
    import tcod.path

    rows, cols = walk.shape
    cost = walk.astype(np.int8)
    pad = np.pad(walk, 1)
    graph = tcod.path.CustomGraph(walk.shape)
    for edge in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        graph.add_edge(edge, CARD, cost=cost)
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        both = pad[1 + dr : 1 + dr + rows, 1 : 1 + cols] & pad[1 : 1 + rows, 1 + dc : 1 + dc + cols]
        graph.add_edge((dr, dc), DIAG, cost=cost, condition=both.astype(np.int8))
    graph.set_heuristic(cardinal=CARD, diagonal=DIAG)
    solve = _tcod_solver(graph)
    return Peer("tcod CustomGraph", MAI, False, solve, lambda r: (r[1] / CARD, r[0]))


def tcod_simple_peer(walk: np.ndarray, rule: str) -> Peer:
    """tcod ``SimpleGraph``: corner cutting always allowed (or 4-connected)."""
    import tcod.path

    graph = tcod.path.SimpleGraph(
        cost=walk.astype(np.int8), cardinal=CARD, diagonal=0 if rule == "never" else DIAG
    )
    solve = _tcod_solver(graph)
    return Peer("tcod SimpleGraph", rule, False, solve, lambda r: (r[1] / CARD, r[0]))


def tcod_path2d_peer(walk: np.ndarray) -> Peer:
    """``tcod.path.path2d``: a one-call A* with corner cutting."""
    import tcod.path

    cost = walk.astype(np.int8)

    def solve(s: tuple, g: tuple) -> Any:
        return tcod.path.path2d(
            cost, start_points=[s], end_points=[g], cardinal=CARD, diagonal=DIAG
        )

    return Peer("tcod path2d", "always", False, solve, lambda r: (None, r))


def pyastar2d_peer(walk: np.ndarray) -> Peer:
    """pyastar2d, 4-connected. Its compiled ``astar`` is called directly with weights
    flattened once: ``astar_path`` would flatten and scan the whole map every call."""
    import pyastar2d

    rows, cols = walk.shape
    weights = np.where(walk, 1.0, np.inf).astype(np.float32).ravel()
    kernel = pyastar2d.astar.astar

    def solve(s: tuple, g: tuple) -> Any:
        return kernel(weights, rows, cols, s[0] * cols + s[1], g[0] * cols + g[1], False, 0)

    return Peer("pyastar2d", "never", False, solve, lambda r: (None, r))


def pathfinding_peer(walk: np.ndarray) -> Peer:
    """python-pathfinding ``AStarFinder``, ``only_when_no_obstacle`` (the Moving AI
    rule, octile heuristic); ``find_path`` resets every node itself."""
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid as PFGrid
    from pathfinding.finder.a_star import AStarFinder

    grid = PFGrid(matrix=walk.astype(np.int8).tolist())
    finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)

    def solve(s: tuple, g: tuple) -> Any:
        return finder.find_path(grid.node(s[1], s[0]), grid.node(g[1], g[0]), grid)[0]

    return Peer("python-pathfinding", MAI, True, solve, lambda r: (None, [(n.y, n.x) for n in r]))


def networkx_peer(walk: np.ndarray) -> Peer:
    import networkx as nx

    cols = walk.shape[1]
    u, v, diag = rule_edges(walk, MAI)
    graph = nx.Graph()
    graph.add_nodes_from(np.flatnonzero(walk).tolist())
    graph.add_weighted_edges_from(
        zip(u.tolist(), v.tolist(), np.where(diag, SQRT2, 1.0).tolist(), strict=True)
    )

    def octile(a: int, b: int) -> float:
        ar, ac = divmod(a, cols)
        br, bc = divmod(b, cols)
        dr, dc = abs(ar - br), abs(ac - bc)
        return max(dr, dc) + (SQRT2 - 1.0) * min(dr, dc)

    def solve(s: tuple, g: tuple) -> Any:
        return nx.astar_path(graph, s[0] * cols + s[1], g[0] * cols + g[1], octile, "weight")

    return Peer("networkx A*", MAI, True, solve, lambda r: (None, cells_of(r, cols)))


def igraph_peers(walk: np.ndarray) -> list[Peer]:
    """igraph with integer weights (its A* crashed with float weights, PEERS.md):
    Dijkstra with a target, and A* with an octile heuristic (a Python callable)."""
    import igraph

    cols = walk.shape[1]
    u, v, diag = rule_edges(walk, MAI)
    graph = igraph.Graph(n=walk.size, edges=np.column_stack([u, v]).tolist())
    graph.es["w"] = np.where(diag, DIAG, CARD).tolist()

    def octile(_g: Any, a: int, b: int) -> int:
        ar, ac = divmod(a, cols)
        br, bc = divmod(b, cols)
        dr, dc = abs(ar - br), abs(ac - bc)
        return CARD * max(dr, dc) + (DIAG - CARD) * min(dr, dc)

    def dijkstra(s: tuple, g: tuple) -> Any:
        return graph.get_shortest_path(
            s[0] * cols + s[1], g[0] * cols + g[1], weights="w", algorithm="dijkstra"
        )

    def astar(s: tuple, g: tuple) -> Any:
        return graph.get_shortest_path_astar(
            s[0] * cols + s[1], g[0] * cols + g[1], octile, weights="w"
        )

    def decode(r: Any) -> tuple[None, np.ndarray]:
        return None, cells_of(r, cols)

    return [
        Peer("igraph Dijkstra", MAI, True, dijkstra, decode),
        Peer("igraph A*", MAI, True, astar, decode),
    ]


def scipy_peer(walk: np.ndarray) -> Peer:
    """``scipy.sparse.csgraph.dijkstra``: no target, so a full single-source search."""
    from scipy.sparse.csgraph import dijkstra

    cols = walk.shape[1]
    graph = csr_graph(walk, MAI)

    def solve(s: tuple, g: tuple) -> Any:
        a, b = s[0] * cols + s[1], g[0] * cols + g[1]
        dist, pred = dijkstra(graph, indices=a, return_predecessors=True)
        return float(dist[b]), pred, b

    def decode(r: Any) -> tuple[float, np.ndarray]:
        cost, pred, b = r
        chain = [b]
        while pred[chain[-1]] >= 0:
            chain.append(int(pred[chain[-1]]))
        return cost, cells_of(chain[::-1], cols)

    return Peer("scipy csgraph Dijkstra (full)", MAI, True, solve, decode)


def build_peers(walk: np.ndarray) -> list[Peer]:
    makers: list[Callable[[], Peer | list[Peer]]] = [
        lambda: pathcraft_peer(walk, MAI, "astar"),
        lambda: pathcraft_peer(walk, MAI, "dijkstra"),
        lambda: pathcraft_peer(walk, MAI, "jps"),
        lambda: tcod_custom_peer(walk),
        lambda: pathfinding_peer(walk),
        lambda: networkx_peer(walk),
        lambda: igraph_peers(walk),
        lambda: scipy_peer(walk),
        lambda: pathcraft_peer(walk, "never", "astar"),
        lambda: pyastar2d_peer(walk),
        lambda: tcod_simple_peer(walk, "never"),
        lambda: pathcraft_peer(walk, "always", "astar"),
        lambda: pathcraft_peer(walk, "always", "jps"),
        lambda: tcod_simple_peer(walk, "always"),
        lambda: tcod_path2d_peer(walk),
    ]
    peers: list[Peer] = []
    for make in makers:
        t0 = time.perf_counter()
        made = make()
        elapsed = time.perf_counter() - t0
        group = made if isinstance(made, list) else [made]
        for p in group:
            p.build_s = elapsed / len(group)
        peers.extend(group)
    return peers


# ---------------------------------------------------------------------- oracles


def oracles(m: MapData, fast: np.ndarray, slow: np.ndarray) -> tuple[dict, dict]:
    """The expected length of each query under each rule, and the cross-check notes.

    Moving AI rule: the scenario file. The other rules: pathcraft's Dijkstra, checked
    on the slow sample against scipy's Dijkstra on a graph built here."""
    from scipy.sparse.csgraph import dijkstra

    want: dict[str, dict[int, float]] = {MAI: {int(i): float(m.optimal[i]) for i in fast}}
    notes: dict[str, str] = {}
    cols = m.walkable.shape[1]
    for rule in ("never", "always"):
        grid = Grid.from_walkable(m.walkable, diagonal=rule)  # type: ignore[arg-type]
        want[rule] = {
            int(i): grid.dijkstra(tuple(m.starts[i]), tuple(m.goals[i])).cost for i in fast
        }
        graph = csr_graph(m.walkable, rule)
        starts = [int(m.starts[i][0] * cols + m.starts[i][1]) for i in slow]
        dist = dijkstra(graph, indices=starts)
        agree = sum(
            tolerance_ok(want[rule][int(i)], float(dist[k, m.goals[i][0] * cols + m.goals[i][1]]))
            for k, i in enumerate(slow)
        )
        notes[rule] = f"{agree}/{len(slow)}"
    return want, notes


# ---------------------------------------------------------------------- memory


def _kb(field_name: str) -> int:
    status = vm_status()
    return status[field_name] // 1024 if status else -1


def memory_child(name: str, lib: str, k: int) -> None:
    """Run in a fresh process: peak RSS growth of building and of querying one map."""
    m = load(name)
    fast = select(len(m.optimal), k)
    queries = [
        (tuple(int(x) for x in m.starts[i]), tuple(int(x) for x in m.goals[i])) for i in fast
    ]
    make = (lambda w: pathcraft_peer(w, MAI, "astar")) if lib == "pathcraft" else tcod_custom_peer
    tiny = make(np.ones((3, 3), dtype=bool))  # imports and lazy first-call set-up, untimed
    tiny.solve((0, 0), (2, 2))
    del tiny
    gc.collect()
    out: dict[str, Any] = {}
    reset_peak_rss()
    base = _kb("VmRSS")
    peer = make(m.walkable)
    out["build_peak_kb"] = _kb("VmHWM") - base
    gc.collect()
    reset_peak_rss()
    base = _kb("VmRSS")
    generated = 0
    for s, g in queries:
        r = peer.solve(s, g)
        if lib == "pathcraft":
            generated = max(generated, r.generated)
    out["query_peak_kb"] = _kb("VmHWM") - base
    out["max_generated"] = generated
    out["bytes_per_cell"] = grid_search.Workspace(16).bytes_per_cell
    print(json.dumps(out))


def memory(name: str, lib: str, k: int) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--_memory", name, lib, str(k)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- running


@dataclass
class MapRun:
    name: str
    shape: tuple[int, int]
    passable: int
    peers: list[Peer]
    oracle_notes: dict[str, str]
    memory: dict[str, dict[str, Any]]
    fast: int
    slow: int
    seconds: float


def run_map(name: str, k_fast: int, k_slow: int) -> MapRun:
    t_map = time.perf_counter()
    m = load(name)
    n = len(m.optimal)
    fast = select(n, k_fast)
    slow = fast[:: max(1, math.ceil(len(fast) / k_slow))]
    slow_set = {int(i) for i in slow}
    want, notes = oracles(m, fast, slow)
    peers = build_peers(m.walkable)
    queries = {
        int(i): (tuple(int(x) for x in m.starts[i]), tuple(int(x) for x in m.goals[i]))
        for i in fast
    }
    first = int(fast[0])
    for p in peers:  # warm-up: first-call allocations (workspaces, caches) untimed
        p.solve(*queries[first])
    perf = time.perf_counter
    gc.collect()
    gc.disable()
    try:
        for q, i in enumerate(fast.tolist()):
            s, g = queries[i]
            shift = q % len(peers)
            for p in peers[shift:] + peers[:shift]:
                if p.slow and i not in slow_set:
                    continue
                t0 = perf()
                raw = p.solve(s, g)
                t1 = perf()
                p.times[i] = t1 - t0
                check(p, i, raw, m.walkable, s, g, want[p.rule][i])
                del raw
            if q % 10 == 9:
                gc.collect()
    finally:
        gc.enable()
    mem = {lib: memory(name, lib, k_fast) for lib in ("pathcraft", "tcod")}
    result = MapRun(
        name, m.walkable.shape, int(m.walkable.sum()), peers, notes, mem,
        len(fast), len(slow), time.perf_counter() - t_map,
    )  # fmt: skip
    for p in peers:  # free the graphs before the next map
        p.solve = p.decode = None  # type: ignore[assignment]
    gc.collect()
    return result


def check(p: Peer, i: int, raw: Any, walk: np.ndarray, s: tuple, g: tuple, want: float) -> None:
    """Validate one answer: legal path, its length, the reported cost, the oracle."""
    reported, path = p.decode(raw)
    length = path_cost(path, walk, p.rule, s, g)
    if isinstance(length, str):
        p.bad.append((i, length))
    elif reported is not None and not tolerance_ok(reported, length):
        p.bad.append((i, f"reports {reported:.6f}, its path is {length:.6f}"))
    elif not tolerance_ok(length, want):
        p.bad.append((i, f"length {length:.6f}, optimal {want:.6f}"))


# ---------------------------------------------------------------------- report


def us(seconds: float) -> str:
    v = seconds * 1e6
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"


def median_on(p: Peer, keys: list[int]) -> float:
    return float(np.median([p.times[k] for k in keys]))


def reference(run: MapRun, rule: str) -> Peer:
    return next(p for p in run.peers if p.is_pathcraft and p.rule == rule and "A*" in p.name)


def ratio(run: MapRun, p: Peer) -> float:
    """The peer's median over pathcraft A*'s median (same rule) on the same queries."""
    keys = sorted(p.times)
    return median_on(p, keys) / median_on(reference(run, p.rule), keys)


def fastest_peer(run: MapRun, rule: str) -> tuple[Peer, float] | None:
    """The non-pathcraft peer of ``rule`` with the smallest ratio to pathcraft A*."""
    peers = [p for p in run.peers if p.rule == rule and not p.is_pathcraft and not p.bad]
    if not peers:
        return None
    best = min(peers, key=lambda p: ratio(run, p))
    return best, ratio(run, best)


def short(name: str) -> str:
    return name.split("/")[-1]


PEER_DISTS = ("tcod", "pyastar2d", "pathfinding", "networkx", "igraph", "scipy", "numpy")


def versions(dists: tuple[str, ...] = PEER_DISTS) -> list[tuple[str, str]]:
    out = [("pathcraft", f"{pathcraft.__version__} (git {git_rev()})")]
    for dist in dists:
        try:
            out.append((dist, importlib.metadata.version(dist)))
        except importlib.metadata.PackageNotFoundError:
            out.append((dist, "not installed"))
    return out


def header(
    title: str, load_start: tuple[float, ...], dists: tuple[str, ...] = PEER_DISTS
) -> list[str]:
    today = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    load_end = os.getloadavg()
    lines = [
        f"# {title}",
        "",
        f"- Date: {today}",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load_start[0]:.2f} / {load_end[0]:.2f} "
        "(a shared, noisy machine: ratios are steadier than absolute times)",
        "- Versions: " + ", ".join(f"{k} {v}" for k, v in versions(dists)),
        f"- Command: `{' '.join(['python', f'bench/{Path(sys.argv[0]).name}', *sys.argv[1:]])}`",
        '- Data: Moving AI benchmarks (N. Sturtevant, "Benchmarks for Grid-Based '
        'Pathfinding", IEEE TCIAIG 4(2):144-148, 2012), read with `pathcraft.io`',
        "",
    ]
    return lines


def report(runs: list[MapRun], args: argparse.Namespace, load_start: tuple[float, ...]) -> str:
    L = header("Grid search: pathcraft against its peers on Moving AI maps", load_start)
    L += [
        "## How to read",
        "",
        "- Each library runs under the rule it expresses (column *rule*); costs under "
        "different rules are not comparable, so each row is compared with pathcraft A* "
        "under **the same rule**.",
        "- *median* and *p95*: microseconds per query (one start, one goal, the path and "
        "its cost), timed with `time.perf_counter` around the library's call only. Maps, "
        "graphs and workspaces are built before; one warm-up query per library is untimed.",
        "- *x pathcraft A\\**: the row's median over pathcraft A*'s median on **the same "
        "queries** (the sampled rows are compared on their sample only). Above 1: "
        "pathcraft is faster.",
        "- *mismatches*: answers that failed the check done right after the timed call: "
        "the path must start and end right, stay on walkable cells, take legal steps for "
        "the rule, have the length the library reported, and that length must equal the "
        "oracle (`abs(got - want) <= 1e-5 * max(1, want)`). Oracles: Moving AI rule, the "
        "scenario file's optimal length; 4-connected and corner-cutting rules, pathcraft's "
        "Dijkstra under that rule, itself cross-checked with scipy's Dijkstra on the "
        "sampled queries.",
        f"- Scenario selection: the scenario files are sorted by bucket (length / 4); "
        f"{args.queries} evenly spaced lines per file (`numpy.linspace` over the lines, "
        f"rounded) for the compiled libraries, every k-th of those ({args.slow_queries} "
        f"per map) for the slow ones (pure Python, graph libraries with Python "
        "heuristics, and scipy's full single-source Dijkstra). Queries are interleaved: "
        "for each scenario every library runs once, in an order rotated per query.",
        "- **Goal**: pathcraft A*'s median at most 0.5x the fastest peer's, i.e. the "
        "fastest peer's *x pathcraft A\\** at least 2.0. The Moving AI rule is the goal's "
        "rule; the other two rules are shown for the same comparison.",
        "",
        "## Goal check (median per query; the fastest peer of each rule, same queries)",
        "",
        "| map | size (rows x cols) | passable | rule | pathcraft A* median us "
        "| fastest peer | its median us | pathcraft / peer | goal <= 0.5 |",
        "|---|---|---:|---|---:|---|---:|---:|---|",
    ]
    held: dict[str, list[str]] = {rule: [] for rule in RULES}
    failed: dict[str, list[str]] = {rule: [] for rule in RULES}
    for run in runs:
        for rule in (MAI, "never", "always"):
            found = fastest_peer(run, rule)
            ref = reference(run, rule)
            if found is None:
                continue
            peer, r = found
            keys = sorted(peer.times)
            verdict = "**holds**" if 1 / r <= 0.5 else "**fails**"
            (held if 1 / r <= 0.5 else failed)[rule].append(
                f"{short(run.name)} {1 / r:.3f} vs {peer.name}"
            )
            L.append(
                f"| {short(run.name)} | {run.shape[0]} x {run.shape[1]} | {run.passable:,} "
                f"| {RULES[rule]} | {us(median_on(ref, keys))} | {peer.name} "
                f"| {us(median_on(peer, keys))} | {1 / r:.3f} | {verdict} |"
            )
    L += ["", "In short:", ""]
    for rule in RULES:
        n = len(held[rule]) + len(failed[rule])
        line = f"- {RULES[rule]}: the goal holds on {len(held[rule])} of {n} maps"
        if failed[rule]:
            line += "; it fails on " + ", ".join(failed[rule])
        L.append(line + ".")
    L += ["", "## Per map and library", ""]
    for run in runs:
        L += [
            f"### {run.name} ({run.shape[0]} x {run.shape[1]}, {run.passable:,} passable; "
            f"{run.fast} queries, {run.slow} for the slow rows; "
            f"oracle cross-check with scipy: 4-connected {run.oracle_notes['never']}, "
            f"corners cut {run.oracle_notes['always']}; {run.seconds:.0f} s)",
            "",
            "| library | rule | queries | median us | p95 us | x pathcraft A* (same rule) "
            "| mismatches | build s |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for p in run.peers:
            t = np.array(list(p.times.values()))
            rr = "1 (reference)" if reference(run, p.rule) is p else f"{ratio(run, p):.2f}"
            L.append(
                f"| {p.name} | {RULES[p.rule]} | {len(t)} | {us(float(np.median(t)))} "
                f"| {us(float(np.percentile(t, 95)))} | {rr} | {len(p.bad)} "
                f"| {p.build_s:.2f} |"
            )
        L.append("")
        bad = [(p.name, i, why) for p in run.peers for i, why in p.bad]
        if bad:
            L.append("Mismatches (first 10):")
            L += [f"- {name}, scenario line {i + 2}: {why}" for name, i, why in bad[:10]]
            L.append("")
    L += [
        "## Memory",
        "",
        "pathcraft's search state is one workspace per thread: "
        f"{runs[0].memory['pathcraft']['bytes_per_cell']} bytes per padded cell "
        "(`Workspace.bytes_per_cell`: g 8, parent 4, generation mark 4, heap position 4; "
        "4 more for goal marks, used only by many-goal Dijkstra), plus the open-list heap "
        "at 32 bytes per entry (key, tie, order, cell), grown by doubling from 1,024 "
        "entries; the heap is indexed, so it never holds more entries than open cells. "
        "The grid itself is a "
        "padded float64 cost array (8 bytes per padded cell). Peaks are resident-set "
        "growth (`VmHWM` after resetting it through `/proc/self/clear_refs`) measured in "
        "a fresh process per map and library, for building the grid/graph and then for "
        "running the same queries as above; tracemalloc cannot see these C allocations.",
        "",
        "| map | padded cells | workspace MiB (computed) | heap MiB, upper bound (32 B x "
        "capacity for the most cells generated) | pathcraft build peak MiB "
        "| pathcraft query peak MiB "
        "| tcod CustomGraph build peak MiB | tcod query peak MiB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        pc, tc = run.memory["pathcraft"], run.memory["tcod"]
        cells = (run.shape[0] + 2) * (run.shape[1] + 2)
        heap_cap = 1024
        while heap_cap < pc["max_generated"]:
            heap_cap *= 2
        L.append(
            f"| {short(run.name)} | {cells:,} | {cells * pc['bytes_per_cell'] / 2**20:.1f} "
            f"| {heap_cap * 32 / 2**20:.1f} | {pc['build_peak_kb'] / 1024:.1f} "
            f"| {pc['query_peak_kb'] / 1024:.1f} | {tc['build_peak_kb'] / 1024:.1f} "
            f"| {tc['query_peak_kb'] / 1024:.1f} |"
        )
    L += [
        "",
        "## Notes on the peers",
        "",
        "- tcod `CustomGraph`: four cardinal edges, four diagonal edges each with a "
        "`condition` array that is set where both orthogonal neighbours are free; integer "
        f"costs {CARD} / {DIAG} (a convergent of sqrt(2), off by 2.5e-10 relative; the "
        "common 10000 / 14142 is off by 1e-5, the size of the tolerance) with the matching "
        "octile heuristic. `Pathfinder.clear()` is part of each query, as the tcod "
        "documentation does it.",
        "- tcod `SimpleGraph` and `path2d` cut corners (only the target cell must be free); "
        'they are compared with pathcraft `diagonal="always"`. SimpleGraph with '
        "`diagonal=0` is 4-connected.",
        "- pyastar2d: its compiled `astar` is called directly with the weights flattened "
        "once (`astar_path` copies and scans the whole map on every call); 4-connected, "
        "because its diagonal mode charges 1 for a diagonal step (a different rule).",
        "- python-pathfinding: `AStarFinder(diagonal_movement=only_when_no_obstacle)`, "
        "default octile heuristic; `find_path` resets every node of the grid on each call.",
        "- networkx: `astar_path` on a `Graph` of the walkable cells with the Moving AI "
        "rule's edges, float weights, an octile heuristic in Python.",
        f"- igraph: the same edges with integer weights {CARD} / {DIAG}; Dijkstra with a "
        "target (`get_shortest_path`), and A* (`get_shortest_path_astar`) with an octile "
        "heuristic in Python. Run in this process: with integer weights it did not crash.",
        "- scipy: `csgraph.dijkstra(indices=start, return_predecessors=True)` on a CSR "
        "matrix of the same edges; it has no target, so every query settles the whole "
        "component.",
        "",
        "The `--all` check (every scenario of every map, pathcraft A* alone) writes "
        "`grid_peers_all.md`.",
        "",
    ]
    return "\n".join(L)


# ---------------------------------------------------------------------- --all


def run_all(load_start: tuple[float, ...]) -> str:
    root = data_dir()
    names = sorted(
        str(p.relative_to(root / "scen")).removesuffix(".map.scen")
        for p in (root / "scen").glob("*/*.map.scen")
    )
    rows = []
    total = 0
    matched = {"astar": 0, "jps": 0}
    t_all = time.perf_counter()
    for name in names:
        m = load(name)
        grid = Grid.from_walkable(m.walkable)
        t0 = time.perf_counter()
        n = len(m.optimal)
        bad: dict[str, list[tuple[int, float, float]]] = {"astar": [], "jps": []}
        expanded = {"astar": 0, "jps": 0}
        times = {"astar": np.empty(n), "jps": np.empty(n)}
        for i in range(n):
            s = (int(m.starts[i][0]), int(m.starts[i][1]))
            g = (int(m.goals[i][0]), int(m.goals[i][1]))
            for method in ("astar", "jps"):
                q0 = time.perf_counter()
                r = getattr(grid, method)(s, g)
                times[method][i] = time.perf_counter() - q0
                expanded[method] += r.expanded
                if not (r.found and tolerance_ok(r.cost, m.optimal[i])):
                    bad[method].append((i, r.cost, m.optimal[i]))
        elapsed = time.perf_counter() - t0
        total += n
        for method in matched:
            matched[method] += n - len(bad[method])
        rows.append((name, m.walkable.shape, n, times, expanded, elapsed, bad))
        print(
            f"{name}: A* {n - len(bad['astar'])}/{n}, JPS {n - len(bad['jps'])}/{n} "
            f"in {elapsed:.1f} s",
            flush=True,
        )
    L = header("Grid search: every Moving AI scenario, pathcraft A* and JPS", load_start)
    L += [
        rf"**A\*: {matched['astar']:,} of {total:,} scenarios matched; JPS: "
        f"{matched['jps']:,} of {total:,}** the published optimal length "
        f"(`abs(got - want) <= 1e-5 * max(1, want)`), {len(names)} maps, "
        f"{time.perf_counter() - t_all:.0f} s in all. `Grid.from_walkable(mask)` with the "
        "default rule (8-connected, no corner cutting); per scenario line one "
        "`grid.astar(start, goal)` and one `grid.jps(start, goal)`, each timed.",
        "",
        "| map | size (rows x cols) | scenarios | A* matched | JPS matched | A* median us "
        "| JPS median us | A* / JPS | A* p95 us | JPS p95 us | A* mean expanded "
        "| JPS mean expanded | seconds |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, shape, n, times, expanded, elapsed, bad in rows:
        a, j = np.median(times["astar"]), np.median(times["jps"])
        L.append(
            f"| {name} | {shape[0]} x {shape[1]} | {n:,} | {n - len(bad['astar']):,} "
            f"| {n - len(bad['jps']):,} | {us(a)} | {us(j)} | {a / j:.1f} "
            f"| {us(np.percentile(times['astar'], 95))} | {us(np.percentile(times['jps'], 95))} "
            f"| {expanded['astar'] / n:,.0f} | {expanded['jps'] / n:,.0f} | {elapsed:.1f} |"
        )
    bad_lines = [(name, method, b) for name, *_, bad in rows for method in bad for b in bad[method]]
    if bad_lines:
        L += ["", "Mismatches (first 20):", ""]
        L += [
            f"- {name} {method}, line {i + 2}: got {got!r}, want {want!r}"
            for name, method, (i, got, want) in bad_lines[:20]
        ]
    L.append("")
    return "\n".join(L)


# ---------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=100, help="queries per map")
    parser.add_argument(
        "--slow-queries", type=int, default=15, help="queries per map for the slow peers"
    )
    parser.add_argument("--maps", nargs="+", default=list(MAPS), help="family/name ...")
    parser.add_argument("--quick", action="store_true", help="20 / 4 queries, print only")
    parser.add_argument(
        "--all", action="store_true", help="every scenario of every map, pathcraft A* and JPS"
    )
    parser.add_argument("--out", type=Path, help="where to write the markdown")
    parser.add_argument("--_memory", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._memory:
        name, lib, k = args._memory
        memory_child(name, lib, int(k))
        return
    load_start = os.getloadavg()
    if args.all:
        text = run_all(load_start)
        out = args.out or RESULTS / "grid_peers_all.md"
    else:
        if args.quick:
            args.queries, args.slow_queries = 20, 4
        runs = []
        for name in args.maps:
            run = run_map(name, args.queries, args.slow_queries)
            print(f"{name}: {run.seconds:.0f} s", flush=True)
            for p in run.peers:
                t = np.array(list(p.times.values()))
                print(
                    f"  {p.name:30s} {p.rule:14s} n={len(t):3d} median {us(np.median(t)):>9s}"
                    f" us  x{ratio(run, p):6.2f}  bad {len(p.bad)}",
                    flush=True,
                )
            runs.append(run)
        text = report(runs, args, load_start)
        out = args.out or (None if args.quick else RESULTS / "grid_peers.md")
    if out is None:
        print(text)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
