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


def unit_sizes_picture(data: Path) -> None:
    """Units of sizes 1, 3 and 6 on den520d: each one's path, drawn through the centre
    of its footprint (a unit is anchored at its top-left cell), and its square at the
    start."""
    from matplotlib.patches import Rectangle

    from pathcraft.viz import plot_search

    grid = read_map(data / "maps" / "dao" / "den520d.map")
    start, goal = (102, 230), (152, 184)
    results = {k: grid.find_path(start, goal, algorithm="jps", size=k) for k in (1, 3, 6)}
    ax = plot_search(grid, results[1], colorbar=False, title="")
    colors = {1: "#1f5fd6", 3: "#e08a00", 6: "#c0186a"}
    for k, result in sorted(results.items(), reverse=True):  # the small on top
        centre = result.path + (k - 1) / 2
        ax.plot(centre[:, 1], centre[:, 0], color=colors[k], lw=1.2 + k / 3,
                label=f"size {k}: cost {result.cost:.1f}")  # fmt: skip
        ax.add_patch(Rectangle((start[1] - 0.5, start[0] - 0.5), k, k, fill=False,
                               ec=colors[k], lw=1.2))  # fmt: skip
    ax.legend(loc="lower left", fontsize=8, framealpha=0.9)
    ax.set_title("den520d: one map, units of three sizes (grid.find_path(..., size=k))",
                 fontsize=10)  # fmt: skip
    ax.figure.savefig(DOCS / "unit-sizes.png", dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print("unit sizes:", {k: round(r.cost, 3) for k, r in results.items()})


def main() -> None:
    navmesh_picture()
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    grid = read_map(data / "maps" / "dao" / "den520d.map")
    scen = read_scen(data / "scen" / "dao" / "den520d.map.scen")
    i = int(np.argmax(scen.optimal))
    start, goal = tuple(scen.starts[i].tolist()), tuple(scen.goals[i].tolist())
    print(f"den520d scenario {i}: {start} -> {goal}, optimal {scen.optimal[i]:.3f}")
    unit_sizes_picture(data)

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
