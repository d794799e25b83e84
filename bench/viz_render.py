"""How long pathcraft.viz takes to draw a search on large maps.

For the longest scenario of each map, a recorded Dijkstra search (the most cells to
draw) is drawn ``--repeats`` times by each picture function, on matplotlib's Agg
backend, and saved; the searches run before the timing (``compare`` runs its own two
searches inside, as a user calls it). Each file is read back and checked: the start
cell's pixel carries the start colour and the path colour is present.

Usage::

    python bench/viz_render.py            # writes bench/results/viz_render.md
    python bench/viz_render.py --quick    # one repeat, prints only
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_peers import RESULTS, header, load

from pathcraft import Grid
from pathcraft.viz import animate_search, compare, plot_search
from pathcraft.viz._image import PATH_RGB, START_RGB, search_rgba

MAPS = ("sc1/TheFrozenSea", "dao/orz900d", "bg512/AR0011SR")


def timed(action: Callable[[], Path], repeats: int) -> tuple[float, Path]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = action()
        times.append(time.perf_counter() - t0)
        plt.close("all")
    return statistics.median(times), out


def check(path: Path) -> str:
    """The picture's size and whether it shows the start and the path colours."""
    with Image.open(path) as image:
        image.seek(getattr(image, "n_frames", 1) - 1)
        rgb = np.asarray(image.convert("RGB"))
        size = image.size
    ok = all((rgb == colour).all(axis=2).any() for colour in (START_RGB, PATH_RGB))
    return f"{size[0]}x{size[1]}, {path.stat().st_size / 1024:.0f} KB{'' if ok else ', BAD'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one repeat, print only")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    load_start = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in MAPS:
            m = load(name)
            grid = Grid.from_walkable(m.walkable)
            i = int(np.argmax(m.optimal))
            start, goal = tuple(m.starts[i].tolist()), tuple(m.goals[i].tolist())
            result = grid.dijkstra(start, goal, record=True)
            assert result and abs(result.cost - m.optimal[i]) <= 1e-5 * m.optimal[i]
            stem = name.split("/")[1]

            def rgba() -> Path:
                image = search_rgba(grid, result)  # noqa: B023
                assert image.shape[:2] == grid.shape  # noqa: B023
                return folder / "none"

            def plot() -> Path:
                out = folder / f"{stem}-plot.png"  # noqa: B023
                plot_search(grid, result).figure.savefig(out)  # noqa: B023
                return out

            def side_by_side() -> Path:
                out = folder / f"{stem}-compare.png"  # noqa: B023
                compare(grid, start, goal).savefig(out)  # noqa: B023
                return out

            def gif() -> Path:
                return animate_search(grid, result, folder / f"{stem}.gif")  # noqa: B023

            for label, action in (
                ("`search_rgba` (the image array)", rgba),
                ("`plot_search` + savefig PNG", plot),
                ("`compare` (2 searches) + savefig PNG", side_by_side),
                ("`animate_search` GIF, 49 frames", gif),
            ):
                seconds, out = timed(action, repeats)
                made = "" if out.name == "none" else check(out)
                rows.append(
                    f"| {name} | {grid.shape[0]}x{grid.shape[1]} | {result.expanded:,} | "
                    f"{label} | {seconds:.3f} | {made} |"
                )
                print(rows[-1], flush=True)
    lines = header("Pictures of searches on large maps", load_start, ("matplotlib", "Pillow"))
    lines += [
        "## How to read",
        "",
        "- Per map, the longest scenario, searched by Dijkstra with `record=True` before "
        "the timing (every explored cell is drawn). *s*: median wall seconds of "
        f"{repeats} runs of the call, saving the file included (Agg backend, default "
        "sizes: 100 dpi figures, GIFs at most 600 pixels a side).",
        "- *file*: the picture's pixel size and bytes; `BAD` would mean the file lacks "
        "the start or the path colour.",
        "",
        "| map | rows x cols | cells drawn (expanded) | call | s | file |",
        "|---|---|---:|---|---:|---|",
        *rows,
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "viz_render.md").write_text(text)


if __name__ == "__main__":
    main()
