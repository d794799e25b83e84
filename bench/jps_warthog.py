"""pathcraft's jump point search against warthog's, query by query, on Moving AI maps.

warthog is ShortestPathLab's C++ library (warthog-core, warthog-jps: public source,
built separately, never part of this repository). Its ``warthog-jps`` program solves a
scenario file and prints one tab-separated line per query (``id alg expanded generated
reopen surplus heapops nanos plen pcost scost map``), ``nanos`` being its own search
timer. This script:

- picks ``--queries`` evenly spaced scenarios per map (the files are sorted by bucket,
  so they run from short to long, as in ``grid_peers.py``) and writes them to a
  scenario file of their own;
- times pathcraft on them in this process: ``Grid.jps`` (the Python call and the full
  cell path), ``jps(fill=False)`` (the jump points only), ``path_cost(algorithm="jps")``
  (the cost only), and the first two on a grid with its offline jump table
  (``prepare("jps+")``); each query's fastest of ``--rounds`` rounds, the calls taking
  turns round by round, on grids prepared beforehand, every cost checked against the
  scenario's optimum;
- with ``--warthog BIN`` (the built ``warthog-jps``), runs it on the same scenario file
  ``--rounds`` times per algorithm of ``--algs`` (``jps``, ``jpsP``, ``jps+``,
  ``jpsP+``), a round of each after each of pathcraft's, on the map as the Moving AI
  rules read it (:func:`warthog_map`), and keeps each query's fastest ``nanos``, its
  cost checked too; with
  ``--warthog-output FILE...``, reads such output saved earlier instead (its queries
  must be the ones of this run: write them with ``--write-scen DIR`` first); with
  neither, compares with the medians recorded in ``../shared/PEERS.md`` (200
  scenarios per map, another selection: indicative only).

Times are medians over the queries, in microseconds; *ratio* is pathcraft's median over
warthog's on the same queries. This VM's CPU switches between two speeds about 1.8x
apart and is shared: the fastest of several rounds per query is the steadiest figure.

Usage::

    python bench/jps_warthog.py --warthog /work/ext/warthog-jps/build/warthog-jps
    python bench/jps_warthog.py --quick          # 40 queries, PEERS.md figures, prints only
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from _machine import git_rev, machine

import pathcraft
from pathcraft.io import read_map, read_scen

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "jps_warthog.md"
MAPS = ("dao/den520d", "street/Boston_0_512", "wc3maps512/battleground")
#: The 16 public Moving AI maps (``--maps all``).
ALL_MAPS = (
    "bg512/AR0011SR", "dao/arena2", "dao/brc202d", "dao/den520d", "dao/lak303d",
    "dao/orz900d", "maze/maze512-1-0", "maze/maze512-32-0", "random/random512-10-0",
    "random/random512-40-0", "room/32room_000", "room/8room_000", "sc1/TheFrozenSea",
    "street/Berlin_0_256", "street/Boston_0_512", "wc3maps512/battleground",
)  # fmt: skip

#: warthog's medians (us per query, 200 scenarios per map) from ../shared/PEERS.md:
#: JPS (jps_expansion_policy, online jumps) and jpsP+ (pruned, offline jump table).
#: They were measured on warthog's own reading of the maps: on battleground, whose swamp
#: ``S`` it blocks (see :func:`warthog_map`), they time another, cheaper graph.
PEERS_MD = {
    "AR0011SR": (27.9, 7.1),
    "arena2": (12.0, 7.1),
    "brc202d": (122.3, 55.3),
    "den520d": (8.8, 3.8),
    "lak303d": (46.3, 18.5),
    "orz900d": (262.3, 171.2),
    "maze512-1-0": (3066.3, 3979.0),
    "maze512-32-0": (46.5, 6.3),
    "random512-10-0": (601.5, 458.0),
    "random512-40-0": (3170.9, 2502.8),
    "32room_000": (70.3, 25.1),
    "8room_000": (801.8, 353.9),
    "TheFrozenSea": (294.5, 185.1),
    "Berlin_0_256": (15.4, 5.7),
    "Boston_0_512": (28.2, 17.8),
    "battleground": (8.8, 3.7),
}


def data_dir() -> Path:
    env = os.environ.get("PATHCRAFT_MOVINGAI")
    path = Path(env) if env else HERE.parent.parent / "shared" / "benchmarks" / "movingai"
    if not (path / "maps").is_dir():
        sys.exit(f"Moving AI data not found at {path}: set PATHCRAFT_MOVINGAI")
    return path


def select(n: int, k: int) -> np.ndarray:
    """``k`` evenly spaced scenario indices out of ``n`` (as ``grid_peers.select``)."""
    return np.unique(np.linspace(0, n - 1, min(k, n)).round().astype(np.intp))


def warthog_map(source: Path, folder: Path) -> Path:
    """The map as warthog must read it to search the graph of the Moving AI rules.

    warthog's map reader (``warthog/io/grid.h``) takes only ``.`` and ``G`` as ground
    and blocks swamp ``S``, which the rules (and every scenario's optimal length) treat
    as ground: on ``battleground`` that is another graph, where a quarter of the picked
    queries start, end or pass on swamp and warthog answers them wrongly (no path, or a
    detour), cheaply. A map holding ``S`` is copied into ``folder`` with ``S`` written as
    ``.``; any other map is used as it is.
    """
    lines = source.read_bytes().split(b"\n", 4)  # the four header lines, the grid
    if len(lines) < 5 or b"S" not in lines[4]:
        return source
    target = folder / source.name
    target.write_bytes(b"\n".join([*lines[:4], lines[4].replace(b"S", b".")]))
    return target


def write_scen(source: Path, picked: np.ndarray, target: Path) -> None:
    """The picked lines of a scenario file (version line kept), byte for byte."""
    lines = source.read_text().splitlines()
    body = lines[1:]
    target.write_text("\n".join([lines[0], *(body[i] for i in picked)]) + "\n")


class WarthogLine(NamedTuple):
    """One of warthog's per-query lines (``id alg expanded generated reopen surplus
    heapops nanos plen pcost scost map``)."""

    nanos: float
    pcost: float
    expanded: int
    #: The cost of the returned path walked cell by cell (-1: an illegal step), the
    #: extra last column of ``bench/warthog_wastar.cpp``; None in warthog's programs.
    walked: float | None


@dataclass
class Picked:
    """The scenarios picked on one map: its files (``scen``: the picked lines, for
    warthog), and per query the start and goal ``(row, col)`` cells and the optimum."""

    name: str
    mapfile: Path
    scen: Path
    starts: list[tuple[int, int]]
    goals: list[tuple[int, int]]
    optimal: np.ndarray


def pick(root: Path, name: str, queries: int, folder: Path) -> Picked:
    """``queries`` evenly spaced scenarios of map ``name`` (``family/map``) under the
    Moving AI folder ``root``, their lines written to a scenario file in ``folder``."""
    mapfile = root / "maps" / f"{name}.map"
    scenfile = root / "scen" / f"{name}.map.scen"
    scen = read_scen(scenfile)
    picked = select(len(scen.optimal), queries)
    mine = folder / f"{Path(name).name}.map.scen"
    write_scen(scenfile, picked, mine)
    return Picked(
        Path(name).name, mapfile, mine,
        [(int(scen.starts[i][0]), int(scen.starts[i][1])) for i in picked],
        [(int(scen.goals[i][0]), int(scen.goals[i][1])) for i in picked],
        np.asarray(scen.optimal, dtype=float)[picked],
    )  # fmt: skip


def parse_warthog(text: str) -> dict[int, WarthogLine]:
    """warthog's per-query lines: ``{id: WarthogLine}``."""
    out: dict[int, WarthogLine] = {}
    for line in text.splitlines():
        cols = line.split("\t")
        if len(cols) < 10 or not cols[0].isdigit():
            continue
        walked = float(cols[12]) if len(cols) > 12 else None
        out[int(cols[0])] = WarthogLine(float(cols[7]), float(cols[9]), int(cols[2]), walked)
    return out


class Warthog:
    """One warthog algorithm on one scenario file, run a round at a time (so that its
    rounds can alternate with pathcraft's: this VM's CPU changes speed): per query, in
    scenario order, the fastest ``nanos`` so far (us), its cost and its expansions.
    ``mapfile`` is given to warthog as :func:`warthog_map` writes it; ``options`` are
    appended to the command (``bench/warthog_wastar.cpp``'s ``--hscale``)."""

    def __init__(
        self, binary: str, alg: str, scen: Path, mapfile: Path, options: Sequence[str] = ()
    ) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="pathcraft-warthog-")
        graph = warthog_map(mapfile, Path(self._folder.name))
        self.command = [binary, "--alg", alg, "--scen", str(scen), "--map", str(graph)]
        self.command += options
        self.best: dict[int, float] = {}
        self.answer: dict[int, WarthogLine] = {}

    def run(self) -> None:
        """One round over the scenario file."""
        text = subprocess.run(self.command, capture_output=True, text=True, check=True).stdout
        for i, line in parse_warthog(text).items():
            self.best[i] = min(self.best.get(i, np.inf), line.nanos / 1e3)
            self.answer[i] = line

    @property
    def times(self) -> list[float]:
        return [self.best[i] for i in sorted(self.best)]

    @property
    def costs(self) -> list[float]:
        return [self.answer[i].pcost for i in sorted(self.answer)]

    @property
    def expanded(self) -> list[int]:
        return [self.answer[i].expanded for i in sorted(self.answer)]

    @property
    def walked(self) -> list[float | None]:
        return [self.answer[i].walked for i in sorted(self.answer)]


def check_costs(name: str, got: list[float], want: np.ndarray) -> int:
    return sum(abs(g - w) > 1e-5 * max(1.0, w) for g, w in zip(got, want, strict=True))


def time_pathcraft(
    grid: pathcraft.Grid,
    plus: pathcraft.Grid,
    starts: list,
    goals: list,
    rounds: int,
    warthogs: Sequence[Warthog] = (),
) -> dict:
    """Per query, the fastest of ``rounds`` (us), and the costs, for each call
    (``plus``: the same map prepared with its offline jump table). A round runs every
    query through each call in turn, back to back as warthog runs them, each call's
    timed pass after an untimed one (the other grid's pass before evicted this one's
    tables from the cache: the first call on ``plus`` after ``grid``'s measured up to
    twice its time on Boston_0_512), then one round of each of ``warthogs``."""
    calls = {
        "jps": lambda s, g: grid.jps(s, g).cost,
        "jps fill=False": lambda s, g: grid.jps(s, g, fill=False).cost,
        "path_cost": lambda s, g: grid.path_cost(s, g, algorithm="jps"),
        "jps+": lambda s, g: plus.jps(s, g).cost,
        "jps+ fill=False": lambda s, g: plus.jps(s, g, fill=False).cost,
    }
    best = {name: [np.inf] * len(starts) for name in calls}
    costs = {name: [0.0] * len(starts) for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            for s, g in zip(starts, goals, strict=True):  # warm: the grid's tables in cache
                fn(s, g)
            for i, (s, g) in enumerate(zip(starts, goals, strict=True)):
                t0 = time.perf_counter()
                costs[name][i] = fn(s, g)
                best[name][i] = min(best[name][i], (time.perf_counter() - t0) * 1e6)
        for warthog in warthogs:
            warthog.run()
    return {name: (best[name], costs[name]) for name in calls}


def geometric_row(rows: list[dict], calls: tuple[str, ...], walgs: list[str]) -> str:
    """The table's last row: geometric means over the maps, and their ratios."""

    def geo(values: list[float]) -> float:
        return float(np.exp(np.mean(np.log(values))))

    ours = geo([float(r["jps"]) for r in rows])
    cells = ["geometric mean", ""]
    cells += [f"{geo([float(r[c]) for r in rows]):.1f}" for c in calls]
    cells += ["", ""]
    theirs = {
        a: geo([r["warthog"][a] for r in rows])
        for a in walgs
        if all(r["warthog"].get(a) for r in rows)
    }
    cells += [f"{theirs[a]:.1f}" if a in theirs else "-" for a in walgs]
    cells += [f"{ours / theirs[a]:.2f}" if a in theirs else "-" for a in walgs]
    pp = next((a for a in ("jpsP+", "jpsP+ (PEERS.md)") if a in theirs), None)
    for call in ("jps+", "jps+ fill=False"):
        plus = geo([float(r[call]) for r in rows])
        cells.append(f"{plus / theirs[pp]:.2f}" if pp else "-")
    cells += ["", ""]
    return "| " + " | ".join(cells) + " |"


def header(title: str, script: str, load0: float, load1: float) -> list[str]:
    """The first lines of a warthog script's results: title, date, machine, load,
    versions, the command that made them."""
    return [
        f"# {title}",
        "",
        f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- Machine: {machine()}",
        f"- Load average (1 min) at start / end: {load0:.2f} / {load1:.2f} (a shared "
        "machine: each query's fastest of several rounds is the steadiest figure)",
        f"- Versions: pathcraft {pathcraft.__version__} (git {git_rev()}), numpy {np.__version__}",
        f"- Command: `python {' '.join([f'bench/{script}', *sys.argv[1:]])}`",
    ]


def command_line(
    doc: str, queries: int, rounds: int, warthog: str
) -> tuple[argparse.ArgumentParser, Callable[[], argparse.Namespace]]:
    """The options every warthog script takes (``--maps``, ``--queries``, ``--rounds``,
    ``--warthog`` described by ``warthog``, ``--quick``), and the parse that applies
    ``--quick`` (40 queries, 3 rounds) and ``--maps all`` (the 16 maps): add a
    script's own options to the parser, then call the parse."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--maps", nargs="+", default=list(MAPS), help="family/name ..., or all (16 maps)"
    )
    parser.add_argument("--queries", type=int, default=queries)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--warthog", help=warthog)
    parser.add_argument("--quick", action="store_true", help="40 queries, 3 rounds, print only")

    def parse() -> argparse.Namespace:
        args = parser.parse_args()
        if args.quick:
            args.queries, args.rounds = 40, 3
        if args.maps == ["all"]:
            args.maps = list(ALL_MAPS)
        return args

    return parser, parse


def main() -> None:
    parser, parse = command_line(__doc__, 200, 5, "the warthog-jps program")
    parser.add_argument("--algs", nargs="+", default=["jps", "jpsP", "jpsP+"])
    parser.add_argument(
        "--warthog-output", nargs="+", type=Path, default=[],
        help="saved per-query output of warthog-jps, one file per map in --maps order",
    )  # fmt: skip
    parser.add_argument("--write-scen", type=Path, help="write the picked scenarios here")
    args = parse()
    root = data_dir()
    load0 = os.getloadavg()[0]
    scen_dir = args.write_scen or Path(tempfile.mkdtemp(prefix="pathcraft-jps-"))
    scen_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for m, name in enumerate(args.maps):
        problems = pick(root, name, args.queries, scen_dir)
        mapfile, mine = problems.mapfile, problems.scen
        starts, goals, want = problems.starts, problems.goals, problems.optimal
        grid = read_map(mapfile)
        grid.prepare("jps")
        plus = read_map(mapfile)
        t0 = time.perf_counter()
        plus.prepare("jps+")
        build_ms = (time.perf_counter() - t0) * 1e3
        runs = [Warthog(args.warthog, alg, mine, mapfile) for alg in args.algs if args.warthog]
        ours = time_pathcraft(grid, plus, starts, goals, args.rounds, runs)
        row: dict[str, object] = {"map": problems.name, "queries": len(starts)}
        row["build"] = build_ms
        row["MiB"] = plus.offline_jumps.nbytes / 2**20  # type: ignore[union-attr]
        for call, (best, costs) in ours.items():
            row[call] = statistics.median(best)
            row[f"bad {call}"] = check_costs(name, costs, want)
        theirs: dict[str, float | None] = {}
        if args.warthog:
            for alg, run in zip(args.algs, runs, strict=True):
                theirs[alg] = statistics.median(run.times)
                row["warthog bad"] = int(row.get("warthog bad", 0)) + check_costs(  # type: ignore[call-overload]
                    name, run.costs, want
                )
        elif m < len(args.warthog_output):
            got = parse_warthog(args.warthog_output[m].read_text())
            theirs["given"] = statistics.median(v[0] / 1e3 for v in got.values())
            row["warthog bad"] = check_costs(name, [got[i][1] for i in sorted(got)], want)
        else:
            base = PEERS_MD.get(Path(name).name)
            theirs["jps (PEERS.md)"] = base[0] if base else None
            theirs["jpsP+ (PEERS.md)"] = base[1] if base else None
        row["warthog"] = theirs
        rows.append(row)
        print(name, {k: v for k, v in row.items()}, file=sys.stderr)
    load1 = os.getloadavg()[0]
    calls = ("jps", "jps fill=False", "path_cost", "jps+", "jps+ fill=False")
    walgs = list(rows[0]["warthog"]) if rows else []  # type: ignore[call-overload]
    lines = [
        *header(
            "Jump point search: pathcraft against warthog, the same queries",
            "jps_warthog.py", load0, load1
        ),
        "",
        f"Median microseconds per query, each query's fastest of {args.rounds} rounds. "
        "pathcraft includes the Python call (`Grid.jps`: the full cell path; "
        "`fill=False`: the jump points; `path_cost`: the cost only), on a grid prepared "
        "beforehand; warthog's is its own search timer (`nanos`), on the map as the Moving "
        "AI rules read it (swamp `S` is ground: warthog's reader blocks it, so maps holding "
        "`S` are given to it with `S` written as `.`). *bad*: costs off the "
        "scenario's optimum (pathcraft's calls together; *warthog bad*: warthog's "
        "algorithms together). *ratio*: pathcraft "
        "`jps` over each warthog column; *jps+ / jpsP+*: pathcraft `jps` on a grid "
        "prepared with `prepare(\"jps+\")` (its offline jump table: *build ms*, *MiB*) "
        "over warthog's jpsP+, with the full cell path and (*jump points*) with "
        "`fill=False`, the answer warthog's timer covers (its path is the jump points). "
        "Each round runs the queries through each pathcraft call in turn (each timed pass "
        "after an untimed one: a game querying one map has its tables in cache), then "
        "through each warthog algorithm once.",
        "",
        "| map | queries | "
        + " | ".join(f"pathcraft {c}" for c in calls)
        + " | bad | warthog bad | "
        + " | ".join(f"warthog {a}" for a in walgs)
        + " | "
        + " | ".join(f"ratio vs {a}" for a in walgs)
        + " | jps+ / jpsP+ | jps+ jump points / jpsP+ | jps+ build ms | jps+ MiB |",
        "|---|---:|" + "---:|" * (len(calls) + 6 + 2 * len(walgs)),
    ]
    for row in rows:
        theirs = row["warthog"]
        assert isinstance(theirs, dict)
        bad = sum(int(row[f"bad {c}"]) for c in calls)  # type: ignore[call-overload]
        cells = [str(row["map"]), str(row["queries"])]
        cells += [f"{row[c]:.1f}" for c in calls]
        cells += [str(bad), str(row.get("warthog bad", "-"))]
        cells += ["-" if theirs.get(a) is None else f"{theirs[a]:.1f}" for a in walgs]
        cells += [
            "-" if theirs.get(a) is None else f"{float(row['jps']) / theirs[a]:.2f}"  # type: ignore[arg-type]
            for a in walgs
        ]
        pp = theirs.get("jpsP+") or theirs.get("jpsP+ (PEERS.md)")
        for call in ("jps+", "jps+ fill=False"):
            cells.append("-" if not pp else f"{float(row[call]) / pp:.2f}")  # type: ignore[arg-type]
        cells += [f"{row['build']:.1f}", f"{row['MiB']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    if len(rows) > 1:
        lines.append(geometric_row(rows, calls, walgs))
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
