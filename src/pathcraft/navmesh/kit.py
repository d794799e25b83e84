"""What other packages share of the navigation mesh's internals, under public-internal
names: the one place they import them from (not the public API, which is
:mod:`pathcraft.navmesh`; these may change with the package).

The waypoint graph checks an agent's radius as the mesh does (:func:`check_radius`,
:data:`MAX_RADII`). The 3-D mesh (:mod:`pathcraft.navmesh3d`) searches the plane
projection of its polygons with the flat mesh's pieces: the flat arrays
(:class:`Topology`, :func:`topology`), the portal graph (:func:`build_portals`,
:func:`corridor_of`), the string pulled through a corridor (:func:`pull_string`),
the compiled raycast and the STRtree (:class:`SpatialIndex`, :class:`RaycastHit`),
and the seeds of random draws (:func:`seeded_rng`, :func:`check_count`).
"""

from __future__ import annotations

from pathcraft.navmesh._agentq import MoveResult, check_count, move_along_surface
from pathcraft.navmesh._agentq import _rng as seeded_rng
from pathcraft.navmesh._build import Topology, topology
from pathcraft.navmesh._portals import Portals, build_portals, corridor_of
from pathcraft.navmesh._query import _pull as pull_string
from pathcraft.navmesh._radius import MAX_RADII, check_radius
from pathcraft.navmesh._spatial import RaycastHit, SpatialIndex

__all__ = [
    "MAX_RADII",
    "MoveResult",
    "Portals",
    "RaycastHit",
    "SpatialIndex",
    "Topology",
    "build_portals",
    "check_count",
    "check_radius",
    "corridor_of",
    "move_along_surface",
    "pull_string",
    "seeded_rng",
    "topology",
]
