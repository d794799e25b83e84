"""Navigation meshes of 3-D levels: convex polygons with heights, floors over one another.

Points are ``(x, y, z)`` with z up (as :class:`~pathcraft.VoxelGrid`'s first axis is
up); loaders of y-up files take ``up="y"`` and map a file's ``(X, Y, Z)`` to
``(X, -Z, Y)``. A :class:`PolyMesh3D` is the polygon mesh a build writes (Recast's
``rcPolyMesh`` and ``rcPolyMeshDetail``).

Examples
--------
>>> from pathcraft.navmesh3d import PolyMesh3D
>>> PolyMesh3D([(0, 0, 0), (1, 0, 0), (1, 1, 0.5)], [[0, 1, 2]])
PolyMesh3D(3 vertices, 1 polygons, nvp=3)
"""

from __future__ import annotations

from pathcraft.navmesh3d._polymesh import WALKABLE_AREA, PolyMesh3D

__all__ = ["WALKABLE_AREA", "PolyMesh3D"]
