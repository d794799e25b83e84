"""Navigation meshes of 3-D levels: convex polygons with heights, floors over one another.

Points are ``(x, y, z)`` with z up (as :class:`~pathcraft.VoxelGrid`'s first axis is
up); loaders of y-up files take ``up="y"`` and map a file's ``(X, Y, Z)`` to
``(X, -Z, Y)``. A :class:`PolyMesh3D` is the polygon mesh a build writes (Recast's
``rcPolyMesh`` and ``rcPolyMeshDetail``); a :class:`NavMesh3D` is the world that
searches it (Detour's ``dtNavMesh`` and ``dtNavMeshQuery``): ``find_path`` in
``(x, y, z)``, ``nearest_point``, ``raycast`` along the surface, ``random_point``,
tiles added and removed at run time, saving, pictures and agents
(:class:`MeshSpace3D`).

Needs shapely (``pip install pathcraft[geometry]``), as :mod:`pathcraft.navmesh`.

Examples
--------
>>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
>>> PolyMesh3D([(0, 0, 0), (1, 0, 0), (1, 1, 0.5)], [[0, 1, 2]])
PolyMesh3D(3 vertices, 1 polygons, nvp=3)
>>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 2, 2), (0, 2, 2)], [[0, 1, 2, 3]]))
>>> mesh.find_path((0, 0, 0), (0, 2, 2)).cost == 8 ** 0.5
True
"""

from __future__ import annotations

from pathcraft.navmesh3d._build import build, build_tiles, rebuild_tile, tile_id, tile_of
from pathcraft.navmesh3d._config import BuildConfig, VoxelConfig
from pathcraft.navmesh3d._contours import ContourSet, build_contours
from pathcraft.navmesh3d._drawbuild import draw_build
from pathcraft.navmesh3d._drawlayers import draw_layers
from pathcraft.navmesh3d._gltf import read_gltf
from pathcraft.navmesh3d._heightfield import build_compact
from pathcraft.navmesh3d._layers import BORDER_REGION, DIRECTIONS, NULL_AREA, CompactHeightfield
from pathcraft.navmesh3d._obj import read_obj
from pathcraft.navmesh3d._polybuild import build_polymesh
from pathcraft.navmesh3d._polymesh import WALKABLE_AREA, PolyMesh3D
from pathcraft.navmesh3d._space import MeshSpace3D
from pathcraft.navmesh3d._world import NavMesh3D, SurfaceHit

__all__ = [
    "BORDER_REGION",
    "DIRECTIONS",
    "NULL_AREA",
    "WALKABLE_AREA",
    "BuildConfig",
    "CompactHeightfield",
    "ContourSet",
    "MeshSpace3D",
    "NavMesh3D",
    "PolyMesh3D",
    "SurfaceHit",
    "VoxelConfig",
    "build",
    "build_compact",
    "build_contours",
    "build_polymesh",
    "build_tiles",
    "draw_build",
    "draw_layers",
    "read_gltf",
    "read_obj",
    "rebuild_tile",
    "tile_id",
    "tile_of",
]
