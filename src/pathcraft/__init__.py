"""pathcraft: pathfinding and planning for games and simulations.

The generic search over any hashable node lives in :mod:`pathcraft.search`; every
search returns a :class:`PathResult`. Goal-oriented action planning, on the same
search, lives in :mod:`pathcraft.goap`.

Everything here is imported on first use, so that ``import pathcraft`` stays light:
the names below and the subpackages (``pathcraft.goap``, ``pathcraft.io``,
``pathcraft.viz``, ...) are reachable as attributes right after ``import pathcraft``.

>>> import pathcraft
>>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m <= 3]
>>> pathcraft.astar(0, 3, line).path
[0, 1, 2, 3]
>>> pathcraft.goap.Planner.__name__
'Planner'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pathcraft._version import __version__

if TYPE_CHECKING:
    # Subpackages reachable as attributes (re-exported for type checkers).
    from pathcraft import agents as agents
    from pathcraft import costs as costs
    from pathcraft import goap as goap
    from pathcraft import hexgrid as hexgrid
    from pathcraft import io as io
    from pathcraft import layered as layered
    from pathcraft import navmesh as navmesh
    from pathcraft import navmesh3d as navmesh3d
    from pathcraft import viz as viz
    from pathcraft import voxel as voxel
    from pathcraft._sliced import WorldChangedError
    from pathcraft.graph import Graph
    from pathcraft.grid import Grid
    from pathcraft.layered import Level
    from pathcraft.navmesh import NavMesh
    from pathcraft.navmesh3d import NavMesh3D
    from pathcraft.replan import Replanner
    from pathcraft.result import Explored, PathResult
    from pathcraft.search import BloomClosed, astar, bfs, dijkstra, greedy
    from pathcraft.voxel import VoxelGrid
    from pathcraft.waypoints import WaypointGraph
    from pathcraft.world import CapabilityError, World

# Public name -> the module that defines it. WaypointGraph and NavMesh need shapely (the
# geometry extra): imported on first use, `import pathcraft` works without it.
_NAMES = {
    "BloomClosed": "pathcraft.search",
    "CapabilityError": "pathcraft.world",
    "Explored": "pathcraft.result",
    "Graph": "pathcraft.graph",
    "Grid": "pathcraft.grid",
    "Level": "pathcraft.layered",
    "NavMesh": "pathcraft.navmesh",
    "NavMesh3D": "pathcraft.navmesh3d",
    "PathResult": "pathcraft.result",
    "Replanner": "pathcraft.replan",
    "VoxelGrid": "pathcraft.voxel",
    "WaypointGraph": "pathcraft.waypoints",
    "World": "pathcraft.world",
    "WorldChangedError": "pathcraft._sliced",
    "astar": "pathcraft.search",
    "bfs": "pathcraft.search",
    "dijkstra": "pathcraft.search",
    "greedy": "pathcraft.search",
}

# Public submodules, imported on first attribute access (``pathcraft.io``).
_SUBMODULES = (
    "agents",
    "cli",
    "costs",
    "goap",
    "graph",
    "grid",
    "hexgrid",
    "io",
    "layered",
    "navmesh",
    "navmesh3d",
    "replan",
    "result",
    "search",
    "viz",
    "voxel",
    "waypoints",
    "world",
)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        value = getattr(importlib.import_module(_NAMES[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"pathcraft.{name}")
    else:
        raise AttributeError(f"module 'pathcraft' has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_SUBMODULES})


__all__ = [
    "BloomClosed",
    "CapabilityError",
    "Explored",
    "Graph",
    "Grid",
    "Level",
    "NavMesh",
    "NavMesh3D",
    "PathResult",
    "Replanner",
    "VoxelGrid",
    "WaypointGraph",
    "World",
    "WorldChangedError",
    "__version__",
    "astar",
    "bfs",
    "dijkstra",
    "goap",
    "greedy",
]
