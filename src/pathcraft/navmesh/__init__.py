"""Navigation meshes: walkable space as convex polygons, searched as a corridor of
polygons and a string pulled taut through their shared edges.

Continuous positions are ``(x, y)``. A :class:`NavMesh` is built from convex polygons
(:class:`NavMesh` itself), from walkable shapely geometry (:meth:`NavMesh.from_geometry`:
constrained Delaunay triangles merged into convex polygons) or from a grid's walkable
cells (:meth:`NavMesh.from_grid`: rectangles, every Moving AI map becomes a mesh).

Queries: :meth:`~NavMesh.locate` (vectorised point in polygon through an STRtree: the
polygon at a point), :meth:`~NavMesh.nearest_point`, :meth:`~NavMesh.corridor` and
:meth:`~NavMesh.find_path` by two algorithms (``algorithm=``, also the methods
:meth:`~NavMesh.funnel` and :meth:`~NavMesh.optimal`):

- ``"funnel"``, what game engines ship: A* over the polygon graph (the compiled CSR
  search of :class:`pathcraft.Graph`), then the "simple stupid funnel algorithm"
  (Mikko Mononen) through the corridor's portals, compiled;
- ``"optimal"``: the Euclidean shortest path by Polyanya (Cui, Harabor and Grastien,
  IJCAI 2017), compiled, with no preprocessing.

Queries for agents, after Detour's ``dtNavMeshQuery``: :meth:`~NavMesh.random_point`
and :meth:`~NavMesh.random_points` (uniform by area, seeded), :meth:`~NavMesh.raycast`
(hit point, wall normal, polygons crossed), :meth:`~NavMesh.distance_to_wall` and
:meth:`~NavMesh.move_along_surface` (slides along walls, never leaves the mesh).

Agents: :meth:`NavMesh.agent_space` (a :class:`MeshSpace`: nodes are ``(x, y)`` points,
so a :class:`~pathcraft.agents.Pursuer` or the request queue works on a mesh), and
:class:`PathCorridor` (Detour's ``dtPathCorridor``: the polygons from an agent to its
target and the next corners, kept current as both move without searching again).

Needs shapely (``pip install pathcraft[geometry]``).

Examples
--------
>>> from shapely import box
>>> from pathcraft import NavMesh
>>> level = box(0, 0, 20, 10).difference(box(8, 0, 12, 7))
>>> mesh = NavMesh.from_geometry(level)
>>> result = mesh.find_path((2, 2), (18, 2), algorithm="optimal")
>>> result.path.tolist()
[[2.0, 2.0], [8.0, 7.0], [12.0, 7.0], [18.0, 2.0]]
>>> round(result.cost, 3)
19.62
"""

from __future__ import annotations

try:
    import shapely  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess test
    raise ImportError("pathcraft.NavMesh needs shapely: pip install pathcraft[geometry]") from exc

from pathcraft.navmesh._agentq import MoveResult, WallDistance
from pathcraft.navmesh._corridor import PathCorridor
from pathcraft.navmesh._filter import QueryFilter
from pathcraft.navmesh._links import Link, LinkedPath
from pathcraft.navmesh._mesh import NavMesh, RaycastHit
from pathcraft.navmesh._space import MeshSpace

__all__ = [
    "Link",
    "LinkedPath",
    "MeshSpace",
    "MoveResult",
    "NavMesh",
    "PathCorridor",
    "QueryFilter",
    "RaycastHit",
    "WallDistance",
]
