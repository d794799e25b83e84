"""Draw docs/navmesh3d-dungeon.png: RecastDemo's dungeon level built into a 3-D
navigation mesh (``navmesh3d.build``) and a path from the lower floor up to the upper
one, in perspective and from above (``NavMesh3D.plot``). Needs the viz extra.

    python docs/make_navmesh3d_picture.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from pathcraft.navmesh3d import BuildConfig, NavMesh3D, build, read_obj

DOCS = Path(__file__).resolve().parent
LEVEL = DOCS.parent / "tests" / "data" / "recast" / "dungeon.obj"
OUT = DOCS / "navmesh3d-dungeon.png"


def main() -> None:
    config = BuildConfig()
    vertices, triangles = read_obj(LEVEL)
    mesh = NavMesh3D(build(vertices, triangles, config), height_tolerance=config.agent_max_climb)
    labels, _ = mesh.components()
    biggest = np.bincount(labels).argmax()
    pts = mesh.random_points(400, seed=1)
    pts = pts[labels[mesh.locate(pts)] == biggest]
    low, high = pts[np.argmin(pts[:, 2])], pts[np.argmax(pts[:, 2])]
    result = mesh.find_path(low, high)
    fig = plt.figure(figsize=(12.0, 5.4))
    ax3d = fig.add_subplot(1, 2, 1, projection="3d")
    mesh.plot(result, ax3d, title="in 3-D")
    ax3d.view_init(elev=38, azim=-62)
    top = fig.add_subplot(1, 2, 2)
    mesh.plot(result, top, view="top", title="from above (upper floors over lower)")
    fig.suptitle(
        f"RecastDemo's dungeon: {mesh.num_polygons} polygons, a path of "
        f"{result.cost:.1f} climbing {high[2] - low[2]:.1f}"
    )
    fig.tight_layout()
    fig.savefig(OUT, dpi=110)
    print(OUT)


if __name__ == "__main__":
    main()
