"""Draw docs/tiled_cover.png: which cells Tiled obstacle objects make walls of, under
each rule of ``TiledLevel.grid(cover=...)`` (needs matplotlib, the viz extra).

    python docs/make_tiled_cover.py

A small level of 32-px tiles with a crate straddling four tiles, a wall a few pixels
off the grid, a rotated plank, an ellipse and a polygon; one panel per rule.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import Polygon, Rectangle

from pathcraft.io.tiled import read_tiled

DOCS = Path(__file__).resolve().parent
ROWS, COLS, TILE = 7, 10, 32

LEVEL = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="{COLS}" height="{ROWS}"
     tilewidth="{TILE}" tileheight="{TILE}" infinite="0">
 <objectgroup name="obstacles">
  <object id="1" name="crate" x="16" y="16" width="32" height="32"/>
  <object id="2" name="wall" x="100" y="4" width="26" height="90"/>
  <object id="3" name="plank" x="150" y="40" width="110" height="14" rotation="25"/>
  <object id="4" name="pond" x="40" y="120" width="90" height="70"><ellipse/></object>
  <object id="5" name="rock" x="200" y="130"><polygon points="0,0 80,20 60,80 10,70"/>
  </object>
 </objectgroup>
</map>
"""

RULES: list[tuple[str | float, str]] = [
    ("overlap", 'cover="overlap" (default): any overlap'),
    ("center", 'cover="center": the cell\'s centre'),
    (0.5, "cover=0.5: half the cell or more"),
]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cover.tmx"
        path.write_text(LEVEL)
        level = read_tiled(path)
    shapes = level.obstacles()
    fig, axes = plt.subplots(1, len(RULES), figsize=(4.2 * len(RULES), 3.8))
    for ax, (rule, title) in zip(axes, RULES, strict=True):
        walls = ~level.grid(obstacles="obstacles", cover=rule).walkable
        for r in range(ROWS):
            for c in range(COLS):
                colour = "#555555" if walls[r, c] else "#ffffff"
                ax.add_patch(Rectangle((c * TILE, r * TILE), TILE, TILE, facecolor=colour,
                                       edgecolor="#bbbbbb", linewidth=0.6))  # fmt: skip
        for shape in shapes:
            for poly in getattr(shape, "geoms", [shape]):
                ax.add_patch(Polygon(list(poly.exterior.coords), closed=True, fill=False,
                                     edgecolor="#e4572e", linewidth=1.6))  # fmt: skip
        ax.set_xlim(0, COLS * TILE)
        ax.set_ylim(ROWS * TILE, 0)  # y down, as Tiled draws it
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(f"{title}\n{int(walls.sum())} wall cells", fontsize=9)
    fig.tight_layout()
    fig.savefig(DOCS / "tiled_cover.png", dpi=90)


if __name__ == "__main__":
    main()
