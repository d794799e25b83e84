"""Draw the pictures in docs/: a navigation mesh (a made-up level, needs the viz and
geometry extras) and searches on a Moving AI map (needs the data too).

    python docs/make_pictures.py [MOVINGAI_DIR]

MOVINGAI_DIR holds the Moving AI ``maps/`` and ``scen/`` folders (default: the shared
benchmark folder beside the repository). The query is the longest scenario of the
Dragon Age: Origins map ``den520d`` (257 rows x 256 cols).
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import shapely
from shapely import box

from pathcraft import NavMesh
from pathcraft.io import read_map, read_scen
from pathcraft.viz import animate_search, compare, plot_mesh

DOCS = Path(__file__).resolve().parent
DEFAULT_DATA = DOCS.parent.parent / "shared" / "benchmarks" / "movingai"


def level() -> shapely.Polygon:
    """A small made-up level: rooms joined by corridors, with pillars."""
    rooms = [
        box(0, 0, 30, 24), box(42, 0, 80, 18), box(42, 30, 80, 60), box(0, 36, 30, 60),
        box(28, 8, 44, 14), box(12, 22, 18, 38), box(58, 16, 64, 32), box(28, 44, 44, 50),
    ]  # fmt: skip
    pillars = [
        box(8, 8, 12, 12), box(18, 4, 22, 16), box(52, 40, 56, 44), box(66, 38, 70, 52),
        box(8, 44, 22, 48), shapely.Point(50, 8).buffer(3, quad_segs=3),
        shapely.Point(70, 8).buffer(4, quad_segs=2),
    ]  # fmt: skip
    return shapely.union_all(rooms).difference(shapely.union_all(pillars))


def navmesh_picture() -> None:
    """The mesh of :func:`level`, the funnel's corridor and both paths."""
    mesh = NavMesh.from_geometry(level())
    start, goal = (16.3, 15.7), (74.8, 35.4)
    funnel = mesh.find_path(start, goal, algorithm="funnel")
    optimal = mesh.find_path(start, goal, algorithm="optimal")
    ax = plot_mesh(
        mesh, {"funnel (A* over portals + string pulling)": funnel,
               "optimal (Polyanya)": optimal},
        corridor=mesh.corridor(start, goal),
        title=f"{mesh.num_polygons} convex polygons; the funnel's corridor in yellow",
    )  # fmt: skip
    ax.figure.savefig(DOCS / "navmesh-funnel-vs-optimal.png", dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print(f"navmesh: funnel {funnel.cost:.2f}, optimal {optimal.cost:.2f}")


def main() -> None:
    navmesh_picture()
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    grid = read_map(data / "maps" / "dao" / "den520d.map")
    scen = read_scen(data / "scen" / "dao" / "den520d.map.scen")
    i = int(np.argmax(scen.optimal))
    start, goal = tuple(scen.starts[i].tolist()), tuple(scen.goals[i].tolist())
    print(f"den520d scenario {i}: {start} -> {goal}, optimal {scen.optimal[i]:.3f}")

    fig = compare(grid, start, goal)
    fig.suptitle(f"den520d (Dragon Age: Origins), {start} to {goal}", fontsize=11)
    fig.savefig(DOCS / "astar-vs-dijkstra.png")
    plt.close(fig)

    result = grid.astar(start, goal, record=True)
    animate_search(grid, result, DOCS / "astar-search.gif", frames=48, size=520)
    for name in ("astar-vs-dijkstra.png", "astar-search.gif"):
        print(f"{DOCS / name}: {(DOCS / name).stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
