"""The ``pathcraft`` command line: ``demo`` on the bundled map, ``solve`` a scenario file,
``mapf`` a multi-agent instance, ``show`` a search as a picture (on a Moving AI map, a
text map, a Tiled or an LDtk level).

(Past 500 lines: the parser and the three commands it runs, read together.)"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pathcraft._version import __version__

if TYPE_CHECKING:
    from pathcraft.grid import Grid

__all__ = ["build_parser", "main"]

#: The diagonal-move rules of :class:`~pathcraft.Grid`.
DIAGONALS = ("never", "no_corner_cut", "one_free", "always")
#: The rule the Moving AI optimal lengths are computed under.
MOVINGAI_RULE = "no_corner_cut"
#: Where ``pathcraft demo`` writes its picture by default (the current directory).
DEMO_PICTURE = "pathcraft-demo.png"
#: The file endings ``show`` reads as Tiled levels.
TILED_SUFFIXES = (".tmx", ".tmj", ".json")
#: The file endings ``show`` reads as LDtk projects.
LDTK_SUFFIXES = (".ldtk",)


def grid_algorithms() -> tuple[str, ...]:
    """The searches ``pathcraft solve`` runs and ``pathcraft show`` draws: every
    ``algorithm=`` of :class:`~pathcraft.Grid`, as the options table lists them.

    >>> from pathcraft.cli import grid_algorithms
    >>> grid_algorithms()
    ('astar', 'dijkstra', 'greedy', 'jps', 'theta')
    """
    from pathcraft._options import SUPPORT

    return tuple(SUPPORT["Grid"].algorithms)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pathcraft`` command.

    Examples
    --------
    >>> from pathcraft.cli import build_parser
    >>> args = build_parser().parse_args(["solve", "den.map", "den.map.scen", "--limit", "5"])
    >>> args.command, args.algorithm, args.limit
    ('solve', 'astar', 5)
    """
    parser = argparse.ArgumentParser(
        prog="pathcraft",
        description="Pathfinding and planning for games and simulations.",
    )
    parser.add_argument("--version", action="version", version=f"pathcraft {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = _command(
        commands, "demo", _demo,
        help="solve scenarios of the bundled Moving AI map with A* and Dijkstra",
        description=(
            "Solve scenarios of the bundled Moving AI map (Dragon Age: Origins, arena2) "
            "with A* and Dijkstra, and compare every length with the published optimum."
        ),
    )
    demo.add_argument(
        "--scenarios",
        type=_positive_int,
        default=12,
        metavar="N",
        help="how many scenarios, spread from the shortest to the longest (default 12)",
    )
    demo.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path(DEMO_PICTURE),
        metavar="FILE",
        help=(
            f"where to write the picture of A* beside Dijkstra (default {DEMO_PICTURE} in "
            "the current directory; needs the viz extra)"
        ),
    )

    solve = _command(
        commands, "solve", _solve,
        help="solve a Moving AI scenario file and check every length",
        description=(
            "Solve the problems of a Moving AI .scen file on its .map, check each length "
            "against the file's optimum, print a summary; exit 1 on any mismatch. Lengths "
            "are checked for the optimal searches under the Moving AI rule "
            "(--diagonal no_corner_cut); otherwise the summary compares them with the "
            "optimum."
        ),
    )
    solve.add_argument("map", type=Path, help="the .map file")
    solve.add_argument("scen", type=Path, help="the .scen file")
    solve.add_argument(
        "--algorithm", choices=grid_algorithms(), default="astar", help="the search (default astar)"
    )
    solve.add_argument(
        "--diagonal",
        choices=DIAGONALS,
        default=MOVINGAI_RULE,
        help="the diagonal-move rule (default no_corner_cut, the rule of the published lengths)",
    )
    solve.add_argument(
        "--limit", type=_positive_int, default=None, metavar="N", help="solve the first N only"
    )
    solve.add_argument("--no-progress", action="store_true", help="do not draw the progress bar")
    parallel = solve.add_mutually_exclusive_group()
    parallel.add_argument(
        "--workers",
        type=_positive_int,
        default=None,
        metavar="N",
        help="solve the scenarios as one batch on N threads",
    )
    parallel.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="solve the scenarios as one batch on a Dask cluster (needs pathcraft[dask])",
    )

    mapf = _command(
        commands, "mapf", _mapf,
        help="solve a multi-agent (MAPF) benchmark instance and check the answer",
        description=(
            "Solve the k-agent instance of a MAPF benchmark .scen file (its first K "
            "agents) on its map, check the paths for conflicts, and print the solver, "
            "agents, sum of costs against the bound (the sum of the agents' shortest "
            "paths), makespan and time; exit 1 when not solved."
        ),
    )  # fmt: skip
    _mapf_arguments(mapf, _positive_int, DIAGONALS)

    show = _command(
        commands, "show", _show,
        help="draw a search on a map: what it explored and its path (needs the viz extra)",
        description=(
            "Search a map from START to GOAL and draw it: walls, explored cells coloured "
            "by their cost from the start, the path. Several algorithms are drawn side by "
            "side; --gif animates one search instead. Cells are ROW,COL (0-based, row 0 at "
            "the top); on a Tiled level (.tmx, .tmj, .json) or an LDtk project (.ldtk) "
            "--pixels reads them as X,Y level pixels and --layer picks the layers read "
            "(Tiled: tile layers, LDtk: IntGrid layers, every value a wall); --obstacles "
            "names a Tiled level's object layers that make walls, --level the LDtk level. "
            'Needs the viz extra: pip install "pathcraft[viz]".'
        ),
    )
    show.add_argument(
        "map", type=Path,
        help="a Moving AI .map file, a Tiled level (.tmx, .tmj, .json), an LDtk project "
        "(.ldtk), or a text map ('#' wall, '.' floor, 1-9)",
    )  # fmt: skip
    show.add_argument("--start", type=_cell_arg, required=True, metavar="ROW,COL")
    show.add_argument("--goal", type=_cell_arg, required=True, metavar="ROW,COL")
    show.add_argument(
        "--algorithm",
        type=_algorithms_arg,
        default=("astar",),
        metavar="NAME[,NAME...]",
        help=f"one or more of {', '.join(grid_algorithms())}, comma-separated (default astar)",
    )
    show.add_argument(
        "--diagonal",
        choices=DIAGONALS,
        default=MOVINGAI_RULE,
        help="the diagonal-move rule (default no_corner_cut, the Moving AI rule)",
    )
    level = show.add_argument_group("Tiled and LDtk levels")
    level.add_argument(
        "--layer", type=_names_arg, default=None, metavar="NAME[,NAME...]",
        help="the layers read for walls and costs: Tiled tile layers, LDtk IntGrid "
        "layers (default all)",
    )  # fmt: skip
    level.add_argument(
        "--level", type=_level_arg, default=None, metavar="NAME|INDEX",
        help="the level of an LDtk project: its identifier or index (default 0)",
    )  # fmt: skip
    level.add_argument(
        "--obstacles", type=_names_arg, default=None, metavar="NAME[,NAME...]",
        help="object layers whose shapes make walls (Tiled)",
    )  # fmt: skip
    level.add_argument(
        "--cover", type=_cover_arg, default="overlap", metavar="RULE",
        help="which cells obstacles wall: overlap (default: any overlap), center, or a "
        "fraction such as 0.5 (Tiled)",
    )  # fmt: skip
    level.add_argument(
        "--pixels", action="store_true", help="--start and --goal are X,Y level pixels"
    )
    show.add_argument("--gif", action="store_true", help="write a GIF of the search growing")
    show.add_argument(
        "--frames", type=_positive_int, default=48, metavar="N",
        help="growth frames of the GIF (default 48)",
    )  # fmt: skip
    show.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        metavar="FILE",
        help="the picture to write (default MAPNAME-ALGORITHM.png, or .gif with --gif)",
    )
    return parser


def _command(
    commands: Any, name: str, handler: Callable[[argparse.Namespace], int], **text: str
) -> argparse.ArgumentParser:
    """A subcommand ``name`` (its ``help`` and ``description`` in ``text``) run by
    ``handler``."""
    command: argparse.ArgumentParser = commands.add_parser(name, **text)
    command.set_defaults(handler=handler)
    return command


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def _cell_arg(text: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        row, col = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ROW,COL (two whole numbers, e.g. 12,40), got {text!r}"
        ) from None
    return row, col


def _names_arg(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _cover_arg(text: str) -> str | float:
    if text in ("overlap", "center"):
        return text
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(
            f"expected overlap, center or a fraction in (0, 1], got {text!r}"
        )
    return value


def _level_arg(text: str) -> int | str:
    """An LDtk level: an index when the text is a whole number, else an identifier."""
    try:
        return int(text)
    except ValueError:
        return text


def _algorithms_arg(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in grid_algorithms():
            raise argparse.ArgumentTypeError(
                f"unknown algorithm {name!r}; choose from {', '.join(grid_algorithms())}"
            )
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code.

    ``argv`` are the arguments after the command name (default: ``sys.argv[1:]``).
    Errors in the input (a missing or malformed file, a missing extra) print one line
    on stderr and give exit code 2, not a traceback.

    Examples
    --------
    >>> from pathcraft.cli import main
    >>> main(["demo", "--scenarios", "1", "-o", "/dev/null"])  # doctest: +ELLIPSIS
    pathcraft ... demo: arena2.map ...
    0
    >>> main(["solve", "missing.map", "missing.map.scen"])  # the error goes to stderr
    2
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except (ImportError, OSError, ValueError) as exc:
        print(f"pathcraft {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return code


# ---------------------------------------------------------------------- commands


def _run(grid: Any, algorithm: str, start: Any, goal: Any) -> tuple[Any, float]:
    """One search and its wall-clock seconds."""
    t0 = time.perf_counter()
    result = grid.find_path(start, goal, algorithm=algorithm)
    return result, time.perf_counter() - t0


def _demo(args: argparse.Namespace) -> int:
    from pathcraft.io import bundled_map, bundled_scen, lengths_match, read_map, read_scen

    grid = read_map(bundled_map())
    scen = read_scen(bundled_scen())
    order = np.argsort(scen.optimal, kind="stable")
    picks = order[np.linspace(0, len(order) - 1, min(args.scenarios, len(order))).astype(int)]
    rows, cols = grid.shape
    print(
        f"pathcraft {__version__} demo: {bundled_map().name} (Dragon Age: Origins), "
        f"{rows} rows x {cols} cols, {int(grid.walkable.sum())} walkable cells, "
        f"8-connected, no corner cutting"
    )
    print(f"{len(picks)} of its {len(scen)} scenarios, shortest to longest:\n")
    header = (
        f"{'start':>11} {'goal':>11} {'optimal':>9} {'A* length':>10} {'A* exp':>7} "
        f"{'A* ms':>7} {'Dijkstra exp':>12} {'Dijkstra ms':>11}  ok"
    )
    print(header)
    print("-" * len(header))
    matched = 0
    astar_exp: list[int] = []
    dijkstra_exp: list[int] = []
    for i in picks:
        start, goal, want = tuple(scen.starts[i]), tuple(scen.goals[i]), float(scen.optimal[i])
        a, a_s = _run(grid, "astar", start, goal)
        d, d_s = _run(grid, "dijkstra", start, goal)
        ok = bool(lengths_match(a.cost, want) and lengths_match(d.cost, want))
        matched += ok
        astar_exp.append(a.expanded)
        dijkstra_exp.append(d.expanded)
        print(
            f"{_cell(start):>11} {_cell(goal):>11} {want:9.3f} {a.cost:10.3f} {a.expanded:7d} "
            f"{a_s * 1e3:7.2f} {d.expanded:12d} {d_s * 1e3:11.2f}  {'yes' if ok else 'NO'}"
        )
    saved = 1.0 - sum(astar_exp) / max(1, sum(dijkstra_exp))
    print(
        f"\n{matched}/{len(picks)} lengths equal the published optimum (both searches); "
        f"A* expanded {saved:.0%} fewer cells than Dijkstra."
    )
    # The picture: the query where A* saves Dijkstra the most cells.
    best = picks[int(np.argmax(np.subtract(dijkstra_exp, astar_exp)))]
    _demo_picture(grid, tuple(scen.starts[best]), tuple(scen.goals[best]), args.output)
    return 0 if matched == len(picks) else 1


def _pyplot() -> Any:
    """pyplot on the Agg backend (the command line only writes files), or ImportError
    naming the viz extra."""
    from pathcraft.viz._deps import require

    require()  # first: without the extra, the ImportError that names it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _demo_picture(grid: Any, start: Any, goal: Any, output: Path) -> None:
    """Write A* beside Dijkstra on one query, if the viz extra is installed."""
    try:
        plt = _pyplot()
    except ImportError:
        from pathcraft.viz._deps import INSTALL_HINT

        print(f"To also draw A* beside Dijkstra in {output}, install the viz extra: {INSTALL_HINT}")
        return
    from pathcraft.viz import compare

    fig = compare(grid, start, goal)
    try:
        fig.savefig(output)
    finally:
        plt.close(fig)
    print(
        f"Wrote {output.resolve()}: A* beside Dijkstra from {_cell(start)} to {_cell(goal)}, "
        "explored cells coloured by their cost from the start."
    )


def _cell(cell: tuple[Any, ...]) -> str:
    return f"({int(cell[0])},{int(cell[1])})"


def _mapf_arguments(command: argparse.ArgumentParser, positive_int: Any, diagonals: Any) -> None:
    from pathcraft.mapf.kit import add_arguments

    add_arguments(command, positive_int, diagonals)


def _mapf(args: argparse.Namespace) -> int:
    from pathcraft.mapf.kit import run

    return run(args)


def _solve(args: argparse.Namespace) -> int:
    from pathcraft.io import lengths_match, read_map, read_scen

    for given in (args.map, args.scen):
        kind = _level_kind(given)
        if kind:
            raise ValueError(
                f"solve checks Moving AI scenarios on a Moving AI .map; {given.name} is "
                f"{kind}: draw searches on it with pathcraft show {given.name} --start "
                "ROW,COL --goal ROW,COL (--pixels for X,Y)"
            )
    grid = read_map(args.map, diagonal=args.diagonal)
    scen = read_scen(args.scen)
    _check_scenarios_fit(args, grid, scen)
    n = len(scen) if args.limit is None else min(args.limit, len(scen))
    if args.workers is not None or args.scheduler is not None:
        costs, timing = _solve_batch(args, grid, scen.starts[:n], scen.goals[:n])
    else:
        costs, timing = _solve_one_by_one(args, grid, scen.starts[:n], scen.goals[:n])
    head = f"{args.algorithm} on {args.map.name}: solved {n} of {len(scen)} scenarios"
    from pathcraft.grid.kit import optimal_algorithms

    optimal = optimal_algorithms()
    if args.algorithm not in optimal or args.diagonal != MOVINGAI_RULE:
        why = (
            f"{args.algorithm} is not optimal"
            if args.algorithm not in optimal
            else f"--diagonal {args.diagonal} is not the rule of the published lengths"
        )
        found = np.isfinite(costs)
        ratio = costs[found] / np.maximum(scen.optimal[:n][found], 1e-12)
        mean = f"{float(ratio.mean()):.4f}" if ratio.size else "n/a"
        print(
            f"{head}, {int(found.sum())} found, lengths not checked ({why}); mean length / "
            f"published optimum {mean}; {timing}"
        )
        return 0
    ok = lengths_match(costs, scen.optimal[:n])
    bad = np.flatnonzero(~ok)
    print(f"{head}, {len(bad)} mismatches; {timing}")
    for i in bad[:10]:
        print(
            f"  mismatch at scenario {i}: start {_cell(tuple(scen.starts[i]))} goal "
            f"{_cell(tuple(scen.goals[i]))}: got {costs[i]:.6f}, want {scen.optimal[i]:.6f}"
        )
    return 1 if len(bad) else 0


def _check_scenarios_fit(args: argparse.Namespace, grid: Any, scen: Any) -> None:
    """Refuse a scenario file written for another map, naming the map it names."""
    named = Path(scen.map_name).name
    other = named != args.map.name
    try:
        scen.check_against(grid.walkable)
    except ValueError as exc:
        rows, cols = grid.shape
        if other or (scen.height, scen.width) != (rows, cols):
            raise ValueError(
                f"{args.scen.name} is for the map {scen.map_name!r} ({scen.height} rows x "
                f"{scen.width} cols), not {args.map.name} ({rows} rows x {cols} cols): "
                f"pass the map it names ({exc})"
            ) from None
        raise ValueError(f"{args.scen.name} does not fit {args.map.name}: {exc}") from None
    if other:
        print(
            f"note: {args.scen.name} names the map {scen.map_name!r}, not {args.map.name} "
            "(every problem fits it, so solving anyway)",
            file=sys.stderr,
        )


def _solve_one_by_one(
    args: argparse.Namespace, grid: Any, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, str]:
    """Costs of the queries solved one at a time, and per-query timings."""
    from tqdm import tqdm

    n = len(starts)
    times = np.empty(n)
    costs = np.empty(n)
    progress = tqdm(
        range(n), desc=f"{args.algorithm} {args.scen.name}", unit="query",
        disable=args.no_progress, file=sys.stderr,
    )  # fmt: skip
    for i in progress:
        result, times[i] = _run(grid, args.algorithm, tuple(starts[i]), tuple(goals[i]))
        costs[i] = result.cost
    timing = "no queries"
    if n:
        timing = (
            f"per query median {np.median(times) * 1e3:.3f} ms, "
            f"p95 {np.percentile(times, 95) * 1e3:.3f} ms"
        )
    return costs, timing


def _solve_batch(
    args: argparse.Namespace, grid: Any, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, str]:
    """Costs of the queries solved as one batch, on threads or a Dask cluster."""
    options: dict[str, Any] = {"algorithm": args.algorithm, "progress": not args.no_progress}
    client = None
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--scheduler needs Dask: pip install 'pathcraft[dask]'") from None
        client = Client(args.scheduler)
        options["executor"] = client
        where = f"Dask cluster {args.scheduler}"
    else:
        options["workers"] = args.workers
        where = f"{args.workers} thread{'s' if args.workers > 1 else ''}"
    try:
        t0 = time.perf_counter()
        costs = grid.path_costs(starts, goals, **options)
        seconds = time.perf_counter() - t0
    finally:
        if client is not None:
            client.close()
    rate = len(starts) / seconds if seconds > 0 else float("inf")
    return costs, f"{rate:,.0f} queries/s on {where} ({seconds:.2f} s)"


def _show(args: argparse.Namespace) -> int:
    from pathcraft.grid import Grid
    from pathcraft.io import read_map

    plt = _pyplot()
    from pathcraft.viz import animate_search, compare

    names: tuple[str, ...] = args.algorithm
    suffix = ".gif" if args.gif else ".png"
    output: Path = args.output or Path(f"{args.map.stem}-{'-'.join(names)}{suffix}")
    if args.gif and len(names) != 1:
        raise ValueError(f"--gif animates one search; got {len(names)}: {','.join(names)}")
    if args.gif and output.suffix.lower() != ".gif":
        raise ValueError(f"--gif writes a .gif file; got --output {str(output)!r}")
    if not args.gif and output.suffix.lower() == ".gif":
        raise ValueError(f"add --gif to write a GIF ({str(output)!r})")
    kind = _level_kind(args.map)
    if not kind and (args.layer or args.obstacles or args.pixels or args.level is not None):
        raise ValueError(
            "--layer, --obstacles, --level and --pixels are for Tiled levels (.tmx, .tmj, "
            ".json) and LDtk projects (.ldtk)"
        )
    if kind == "an LDtk project":
        grid = _ldtk_grid(args)
    elif kind:
        grid = _tiled_grid(args)
    elif args.map.suffix.lower() == ".map":
        grid = read_map(args.map, diagonal=args.diagonal)
    else:
        grid = Grid.from_ascii(args.map.read_text(), diagonal=args.diagonal)
    if args.gif:
        result = grid.find_path(args.start, args.goal, algorithm=names[0], record=True)  # type: ignore[arg-type]
        animate_search(grid, result, output, frames=args.frames)
        summary = _summary(names[0], result)
    else:
        fig = compare(grid, args.start, args.goal, names)
        try:
            formats = fig.canvas.get_supported_filetypes()
            if output.suffix.lower().lstrip(".") not in formats:
                raise ValueError(
                    f"--output must end in one of .gif (with --gif), "
                    f"{', '.join('.' + f for f in sorted(formats))}; got {str(output)!r}"
                )
            fig.savefig(output)
        finally:
            plt.close(fig)
        summary = "; ".join(ax.get_title() for ax in fig.axes[: len(names)])
    print(
        f"Wrote {output.resolve()}: {args.map.name} from {_cell(args.start)} to "
        f"{_cell(args.goal)}; {summary}"
    )
    return 0


def _level_kind(path: Path) -> str:
    """What kind of level a file is, by its ending ("" for none)."""
    suffix = path.suffix.lower()
    if suffix in LDTK_SUFFIXES:
        return "an LDtk project"
    return "a Tiled level" if suffix in TILED_SUFFIXES else ""


def _tiled_grid(args: argparse.Namespace) -> Grid:
    """The grid of a Tiled level; with ``--pixels``, ``args.start`` and ``args.goal``
    become the cells under those pixels."""
    from pathcraft.io.tiled import read_tiled

    if args.level is not None:
        raise ValueError("--level picks a level of an LDtk project; a Tiled map is one level")
    level = read_tiled(args.map)
    grid = level.grid(
        layers=args.layer, obstacles=args.obstacles, cover=args.cover, diagonal=args.diagonal
    )
    _pixels_to_cells(args, level.coords, grid)
    return grid


def _ldtk_grid(args: argparse.Namespace) -> Grid:
    """The grid of an LDtk level (``--level``, default the first): its IntGrid layers
    (``--layer``), every value a wall; ``--pixels`` as for Tiled."""
    from pathcraft.io.ldtk import read_ldtk

    if args.obstacles or args.cover != "overlap":
        raise ValueError(
            "--obstacles and --cover are for Tiled object layers; an LDtk level's walls "
            "are its IntGrid values (pick the layers with --layer)"
        )
    level = read_ldtk(args.map, 0 if args.level is None else args.level)
    grid = level.grid(layers=args.layer, diagonal=args.diagonal)
    _pixels_to_cells(args, level.coords, grid)
    return grid


def _pixels_to_cells(args: argparse.Namespace, coords: Any, grid: Grid) -> None:
    """With ``--pixels``: ``args.start`` and ``args.goal`` become the cells under them
    (one on a wall is refused as ``TileCoords.find_path`` refuses it, with the hint
    when its swapped X,Y is walkable)."""
    if not args.pixels:
        return
    points = {name: getattr(args, name) for name in ("start", "goal")}
    for name, point in points.items():
        try:
            setattr(args, name, coords.cell(point))
        except ValueError as exc:
            raise ValueError(f"--{name} {exc}") from None
    if not (grid.walkable[args.start] and grid.walkable[args.goal]):
        try:
            coords.find_path(grid, points["start"], points["goal"], max_expansions=1)
        except ValueError as exc:
            raise ValueError(f"--pixels: {exc}") from None


def _summary(name: str, result: Any) -> str:
    from pathcraft.viz.grid import ALGORITHMS, describe

    return f"{ALGORITHMS.get(name, name)}: {describe(result)}"
