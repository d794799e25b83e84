"""Building 3-D navigation meshes from RecastDemo's levels: the time of each stage,
side by side with Recast's own build of the same level when its binary is given.

Run on purpose, not in CI::

    python bench/navmesh3d_build.py                        # ~10 s; writes the
        # heightfield section of bench/results/navmesh3d.md
    python bench/navmesh3d_build.py --recast PATH/rcdrive  # and Recast's times
    python bench/navmesh3d_build.py --quick                # smoke run, nothing written

Levels: ``dungeon.obj``, ``nav_test.obj``, ``undulating.obj`` from recastnavigation's
RecastDemo (``tests/data/recast``), RecastDemo's default settings
(:class:`pathcraft.navmesh3d.BuildConfig`'s defaults: cell 0.3 x 0.2, agent 2.0 tall,
radius 0.6, climb 0.9, slope 45, regions 8 / 20), one tile.

Stages of :func:`pathcraft.navmesh3d.build_compact` (the first half of Recast's
pipeline): rasterise (walkable triangles and ``rcRasterizeTriangles``), the three span
filters, the compact heightfield, erosion, the distance field, the watershed and the
merging and filtering of regions ("regions" sums the last two, as Recast's timer).

``--recast`` names a driver program built from Recast's public source that builds a
level with the same settings as Sample_SoloMesh and writes the best time of each stage
over N repeats to ``PREFIX.times`` (``rcdrive mesh.obj PREFIX N``); each round runs
ours and Recast's one after the other, and each side keeps its best of the rounds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _machine import REPO, git_rev, machine, write_section

from pathcraft.navmesh3d import BuildConfig, read_obj
from pathcraft.navmesh3d._heightfield import _build

LEVELS = REPO / "tests" / "data" / "recast"
NAMES = ("dungeon", "nav_test", "undulating")
STAGES = ("rasterize", "filter", "compact", "erode", "distance", "regions")
RESULTS = REPO / "bench" / "results" / "navmesh3d.md"
SECTION = "## Heightfield layers (build_compact)"
NOTE = """
Recast's column: recastnavigation 9f4ce644 built from its public source (CMake
Release, -O3) with a small driver running Sample_SoloMesh's steps; its "total" is the
same six stages. Both give the same heightfield: ours lays its grid as Recast lays its
own over a y-up level (the level mirrored inside the build, rows from its largest y)
and rasterises in single precision as Recast does, and the span counts, walkable
spans and region sizes of dungeon and nav_test are Recast's
(`tests/test_navmesh3d_heightfield.py`; span for span on the six levels of
`bench/navmesh3d_recast.py`). The machine was shared with other
jobs: a single stage of either side varies up to 10x from run to run, so read the
totals. Our regions stage is the compiled
watershed plus Recast's merge and filter of regions run over regions in Python (every
per-span pass compiled): 1-2 ms of it on these levels.
"""


def ours(vertices: np.ndarray, triangles: np.ndarray) -> dict[str, float]:
    """One build's stage times, seconds."""
    _, times = _build(vertices, triangles, BuildConfig())
    times["regions"] = times.pop("watershed") + times.pop("merge")
    times["total"] = sum(times.values())
    return times


def recast(binary: str, level: Path, repeat: int) -> dict[str, float]:
    """Recast's best stage times over ``repeat`` builds, seconds."""
    with tempfile.TemporaryDirectory() as folder:
        prefix = Path(folder) / level.stem
        subprocess.run(
            [binary, str(level), str(prefix), str(repeat)], check=True, capture_output=True
        )
        pairs = (line.split() for line in prefix.with_suffix(".times").read_text().splitlines())
        times = {name: float(value) for name, value in pairs}
    times["total"] = sum(times[s] for s in STAGES)  # the heightfield half only
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recast", help="Recast's driver program (rcdrive)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one round, nothing written")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    rows = []
    for name in NAMES:
        vertices, triangles = read_obj(LEVELS / f"{name}.obj")
        best: dict[str, float] = {}
        theirs: dict[str, float] = {}
        for _ in range(rounds):
            for stage, value in ours(vertices, triangles).items():
                best[stage] = min(best.get(stage, np.inf), value)
            if args.recast:
                for stage, value in recast(args.recast, LEVELS / f"{name}.obj", 1).items():
                    theirs[stage] = min(theirs.get(stage, np.inf), value)
        chf = _build(vertices, triangles, BuildConfig())[0]
        rows.append((name, len(triangles), chf, best, theirs))
        print(name, {k: round(v * 1000, 2) for k, v in best.items()}, file=sys.stderr)
        if theirs:
            print("  recast", {k: round(v * 1000, 2) for k, v in theirs.items()}, file=sys.stderr)

    lines = [
        SECTION,
        "",
        f"{dt.date.today()}, commit {git_rev()}; {machine()}.",
        "Run: `python bench/navmesh3d_build.py"
        + (" --recast rcdrive" if args.recast else "")
        + f"` ({rounds} rounds, best of each).",
        "RecastDemo's levels with its default settings, one tile; milliseconds per stage"
        + (" (ours / Recast's, and the ratio of the totals)." if args.recast else "."),
        "",
        "| level | triangles | grid | spans | walkable | regions | "
        + " | ".join(STAGES)
        + " | total |"
        + (" ratio |" if args.recast else ""),
        "|---|---:|---|---:|---:|---:|"
        + "---:|" * (len(STAGES) + 1)
        + ("---:|" if args.recast else ""),
    ]
    for name, count, chf, best, theirs in rows:
        cells = []
        for stage in (*STAGES, "total"):
            text = f"{best[stage] * 1000:.1f}"
            if theirs:
                text += f" / {theirs[stage] * 1000:.1f}"
            cells.append(text)
        ratio = f" {best['total'] / theirs['total']:.2f} |" if theirs else ""
        lines.append(
            f"| {name} | {count:,} | {chf.width} x {chf.depth} | {chf.span_count:,} | "
            f"{int((chf.area > 0).sum()):,} | {chf.n_regions} | " + " | ".join(cells) + " |" + ratio
        )
    text = "\n".join(lines) + "\n" + (NOTE if args.recast else "")
    print(text)
    if args.quick:
        return
    write_section(RESULTS, SECTION[3:], text.split("\n", 1)[1], "# 3-D navigation meshes")


if __name__ == "__main__":
    main()
