"""Draw the pictures in docs/ from a Moving AI map (needs the viz extra and the data).

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

from pathcraft.io import read_map, read_scen
from pathcraft.viz import animate_search, compare

DOCS = Path(__file__).resolve().parent
DEFAULT_DATA = DOCS.parent.parent / "shared" / "benchmarks" / "movingai"


def main() -> None:
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
