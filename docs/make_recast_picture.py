"""Draw docs/recast-regions.png: RecastDemo's dungeon level as a compact heightfield seen
from above, its floor heights, distance field and watershed regions, built with
RecastDemo's default settings (needs matplotlib, the viz extra).

    python docs/make_recast_picture.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from pathcraft.navmesh3d import BuildConfig, build_compact, draw_layers, read_obj

DOCS = Path(__file__).resolve().parent
LEVEL = DOCS.parent / "tests" / "data" / "recast" / "dungeon.obj"


def main() -> None:
    vertices, triangles = read_obj(LEVEL)
    chf = build_compact(vertices, triangles, BuildConfig())
    fig, axes = plt.subplots(1, 3, figsize=(15, 6.6))
    for ax, layer in zip(axes, ("height", "distance", "regions"), strict=True):
        draw_layers(chf, layer, ax=ax)
    fig.suptitle("dungeon.obj (RecastDemo), cell 0.3, agent radius 0.6: from above")
    fig.tight_layout()
    fig.savefig(DOCS / "recast-regions.png", dpi=80)


if __name__ == "__main__":
    main()
