"""3-D navigation meshes built from triangle meshes; positions are ``(x, y, z)``, z up."""

from pathcraft.navmesh3d._config import BuildConfig, VoxelConfig
from pathcraft.navmesh3d._heightfield import build_compact
from pathcraft.navmesh3d._layers import (
    BORDER_REGION,
    DIRECTIONS,
    NULL_AREA,
    WALKABLE_AREA,
    CompactHeightfield,
)
from pathcraft.navmesh3d._obj import read_obj

__all__ = [
    "BORDER_REGION",
    "DIRECTIONS",
    "NULL_AREA",
    "WALKABLE_AREA",
    "BuildConfig",
    "CompactHeightfield",
    "VoxelConfig",
    "build_compact",
    "read_obj",
]
