"""Draw docs/layered-path.png: an A* path across a two-floor level, the floors side by
side, the staircase and a one-way drop marked (needs matplotlib, the viz extra).

    python docs/make_layered_picture.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from pathcraft import Grid
from pathcraft.layered import Level

DOCS = Path(__file__).resolve().parent

GROUND = """
..............
.#######......
.#.....#......
.#.....#..###.
.#.....#..#...
.###.###..#...
..........#...
..............
"""
UPSTAIRS = """
..............
..........#...
.######...#...
......#...#...
......#.......
..#####...###.
..............
..............
"""


def main() -> None:
    ground, upstairs = Grid.from_ascii(GROUND), Grid.from_ascii(UPSTAIRS)
    level = Level([ground, upstairs])
    stairs = ((0, 7, 13), (1, 7, 13))
    drop = ((1, 4, 2), (0, 3, 3))
    level.add_portal(*stairs, cost=3.0)
    level.add_portal(*drop, cost=0.0, two_way=False)
    start, goal = (0, 0, 0), (1, 0, 0)
    result = level.find_path(start, goal, record=True)
    seen = {tuple(int(v) for v in cell) for cell in result.explored.nodes}  # type: ignore[union-attr]
    floors, rows, cols = level.shape
    fig, axes = plt.subplots(1, floors, figsize=(11, 4))
    for f, ax in enumerate(axes):
        image = np.ones((rows, cols, 3))
        for r in range(rows):
            for c in range(cols):
                if not np.isfinite(level.cost[f, r, c]):
                    image[r, c] = (0.2, 0.2, 0.2)
                elif (f, r, c) in seen:
                    image[r, c] = (0.66, 0.83, 0.96)
        ax.imshow(image, interpolation="nearest")
        for floor, cells in level.split_path(result):
            if floor == f:
                ax.plot(cells[:, 1], cells[:, 0], color="#e4572e", linewidth=3)
        for (fa, ra, ca), (fb, rb, cb), labels, marker in (
            (*stairs, ("stairs (cost 3)", "stairs (cost 3)"), "s"),
            (*drop, ("one-way drop", "the drop lands"), "v"),
        ):
            for fx, rx, cx, label in ((fa, ra, ca, labels[0]), (fb, rb, cb, labels[1])):
                if fx == f:
                    ax.plot(cx, rx, marker=marker, markersize=12, color="#2e7d32",
                            markeredgecolor="black")  # fmt: skip
                    ax.annotate(label, (cx, rx), xytext=(-8 if cx > cols / 2 else 8, 12),
                                textcoords="offset points", fontsize=8,
                                ha="right" if cx > cols / 2 else "left")  # fmt: skip
        for cell, text in ((start, "start"), (goal, "goal")):
            if cell[0] == f:
                ax.plot(cell[2], cell[1], "o", color="#7a1f0c", markersize=9)
                ax.annotate(text, (cell[2], cell[1]), xytext=(10, 10),
                            textcoords="offset points", fontsize=9)  # fmt: skip
        ax.set_title(f"floor {f}")
        ax.set_xticks([])
        ax.set_yticks([])
    fig.suptitle(
        f"Level A* from floor 0 to floor 1 by the stairs: cost {result.cost:.2f}, "
        f"{result.expanded} cells expanded (blue)"
    )
    fig.savefig(DOCS / "layered-path.png", dpi=80, bbox_inches="tight")


if __name__ == "__main__":
    main()
