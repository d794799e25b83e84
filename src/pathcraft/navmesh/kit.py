"""What other packages share of the navigation mesh's internals, under public-internal
names: the one place they import them from (not the public API, which is
:mod:`pathcraft.navmesh`; these may change with the package).

The waypoint graph checks an agent's radius as the mesh does (:func:`check_radius`,
:data:`MAX_RADII`).
"""

from __future__ import annotations

from pathcraft.navmesh._radius import MAX_RADII, check_radius

__all__ = ["MAX_RADII", "check_radius"]
