"""pathcraft: pathfinding and planning for games and simulations.

The generic search over any hashable node lives in :mod:`pathcraft.search`; every
search returns a :class:`PathResult`. Goal-oriented action planning, on the same
search, lives in :mod:`pathcraft.goap`.

>>> import pathcraft
>>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m <= 3]
>>> pathcraft.astar(0, 3, line).path
[0, 1, 2, 3]
"""

from typing import TYPE_CHECKING, Any

from pathcraft import goap
from pathcraft._version import __version__
from pathcraft.graph import Graph
from pathcraft.grid import Grid
from pathcraft.result import Explored, PathResult
from pathcraft.search import BloomClosed, astar, bfs, dijkstra, greedy

if TYPE_CHECKING:
    from pathcraft.navmesh import NavMesh
    from pathcraft.waypoints import WaypointGraph


def __getattr__(name: str) -> Any:
    # WaypointGraph and NavMesh need shapely (the geometry extra): imported on first
    # use, so that `import pathcraft` works without it.
    if name == "WaypointGraph":
        from pathcraft.waypoints import WaypointGraph

        return WaypointGraph
    if name == "NavMesh":
        from pathcraft.navmesh import NavMesh

        return NavMesh
    raise AttributeError(f"module 'pathcraft' has no attribute {name!r}")


__all__ = [
    "BloomClosed",
    "Explored",
    "Graph",
    "Grid",
    "NavMesh",
    "PathResult",
    "WaypointGraph",
    "__version__",
    "astar",
    "bfs",
    "dijkstra",
    "goap",
    "greedy",
]
