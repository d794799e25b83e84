"""pathcraft: pathfinding and planning for games and simulations.

The generic search over any hashable node lives in :mod:`pathcraft.search`; every
search returns a :class:`PathResult`.

>>> import pathcraft
>>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m <= 3]
>>> pathcraft.astar(0, 3, line).path
[0, 1, 2, 3]
"""

from pathcraft._version import __version__
from pathcraft.graph import Graph
from pathcraft.grid import Grid
from pathcraft.result import Explored, PathResult
from pathcraft.search import BloomClosed, astar, bfs, dijkstra, greedy

__all__ = [
    "BloomClosed",
    "Explored",
    "Graph",
    "Grid",
    "PathResult",
    "__version__",
    "astar",
    "bfs",
    "dijkstra",
    "greedy",
]
