"""Draw docs/anyangle.png: one grid query as the octile A* path, that path smoothed
(``Grid.smooth``), Theta* (``find_path(algorithm="theta")``) and the optimal any-angle
path (the grid's navmesh, ``algorithm="optimal"``). Needs the viz extra (matplotlib).

    python docs/make_anyangle.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from pathcraft import Grid, NavMesh

DOCS = Path(__file__).resolve().parent
OUT = DOCS / "anyangle.png"
START, GOAL = (36, 2), (3, 57)


def level() -> Grid:
    """A made-up 40 x 60 level: blocks and a wall with a gap (walls are ``inf``)."""
    cost = np.ones((40, 60))
    for r0, r1, c0, c1 in [
        (6, 14, 8, 16), (20, 30, 6, 12), (10, 34, 24, 27), (0, 8, 34, 38),
        (16, 22, 38, 50), (28, 36, 36, 44), (8, 12, 50, 56),
    ]:  # fmt: skip
        cost[r0:r1, c0:c1] = np.inf
    return Grid(cost, diagonal="no_corner_cut")


def xy(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cell centres ``(row, col)`` as plot coordinates ``(x, y)``."""
    cells = np.asarray(cells, dtype=float)
    return cells[:, 1] + 0.5, cells[:, 0] + 0.5


def main() -> None:
    grid = level()
    astar = grid.find_path(START, GOAL)
    smooth = grid.smooth(astar.path)
    theta = grid.find_path(START, GOAL, algorithm="theta")
    mesh = NavMesh.from_grid(grid)
    start_xy = (START[1] + 0.5, START[0] + 0.5)
    goal_xy = (GOAL[1] + 0.5, GOAL[0] + 0.5)
    optimal = mesh.find_path(start_xy, goal_xy, algorithm="optimal")

    def span(cells: np.ndarray) -> float:
        return float(np.hypot(*np.diff(np.asarray(cells, float), axis=0).T).sum())

    rows, cols = grid.shape
    fig, ax = plt.subplots(figsize=(9, 6.2), dpi=100)
    ax.imshow(~grid.walkable, cmap="Greys", vmin=0, vmax=1.6, extent=(0, cols, rows, 0))
    lines = [
        (astar.path, f"A* (octile), {astar.cost:.2f}", "#bbbbbb", 3.0, "-"),
        (smooth, f"A* smoothed (Grid.smooth), {span(smooth):.2f}", "#1f77b4", 2.0, "-"),
        (theta.path, f"Theta* (algorithm='theta'), {theta.cost:.2f}", "#d62728", 2.0, "--"),
    ]
    for cells, label, color, width, style in lines:
        ax.plot(*xy(cells), style, color=color, lw=width, label=label)
    ox, oy = np.asarray(optimal.path, dtype=float).T
    label = f"optimal any-angle (NavMesh), {optimal.cost:.2f}"
    ax.plot(ox, oy, ":", color="#2ca02c", lw=2.2, label=label)
    ax.plot(*start_xy, "o", color="black")
    ax.plot(*goal_xy, "*", color="black", ms=12)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("One grid query, four paths (length through cell centres)")
    ax.legend(loc="upper left", fontsize=9, framealpha=0.95)
    fig.tight_layout()
    fig.savefig(OUT)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
