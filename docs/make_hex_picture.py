"""Draw docs/hex-path.png: a path on a pointy-topped ``odd-r`` hex grid, drawn as
hexagons (needs matplotlib, the viz extra).

    python docs/make_hex_picture.py
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import RegularPolygon

from pathcraft.hexgrid import HexGrid

DOCS = Path(__file__).resolve().parent


def centre(row: int, col: int) -> tuple[float, float]:
    """The centre of the odd-r cell ``(row, col)`` for hexagons of radius 1 (odd rows
    shoved half a cell right; rows drawn downwards)."""
    return math.sqrt(3) * (col + 0.5 * (row & 1)), -1.5 * row


def main() -> None:
    rng = np.random.default_rng(3)
    rows, cols = 12, 18
    cost = rng.choice([1.0, 1.0, 1.0, 3.0], size=(rows, cols))
    cost[2:10, 6] = np.inf
    cost[4:12, 11] = np.inf
    cost[0, 0] = cost[rows - 1, cols - 1] = 1.0
    grid = HexGrid(cost, layout="odd-r")
    result = grid.find_path((0, 0), (rows - 1, cols - 1), record=True)
    on_path = set(result.path)
    seen = {tuple(int(v) for v in cell) for cell in result.explored.nodes}  # type: ignore[union-attr]
    fig, ax = plt.subplots(figsize=(9, 6))
    for r in range(rows):
        for c in range(cols):
            if not np.isfinite(cost[r, c]):
                colour = "#333333"
            elif (r, c) in on_path:
                colour = "#e4572e"
            elif (r, c) in seen:
                colour = "#a9d3f5" if cost[r, c] == 1.0 else "#6fa8dc"
            else:
                colour = "#ffffff" if cost[r, c] == 1.0 else "#d9d9d9"
            ax.add_patch(RegularPolygon(centre(r, c), 6, radius=1.0, facecolor=colour,
                                        edgecolor="#888888", linewidth=0.6))  # fmt: skip
    xs, ys = zip(*(centre(r, c) for r, c in result.path), strict=True)
    ax.plot(xs, ys, color="#7a1f0c", linewidth=1.5)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    ax.set_title(
        f"HexGrid (odd-r) A*: cost {result.cost:g}, {result.expanded} hexes expanded "
        "(grey: cost 3, blue: expanded)"
    )
    fig.savefig(DOCS / "hex-path.png", dpi=80, bbox_inches="tight")


if __name__ == "__main__":
    main()
