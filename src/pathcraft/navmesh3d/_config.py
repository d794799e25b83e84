"""The settings of a 3-D navigation mesh build: Recast's parameters, with their units.

World units are those of the level's vertices (metres in RecastDemo's levels); cells are
``cell_size`` wide along x and y, and ``cell_height`` tall along z (up).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

__all__ = ["BuildConfig", "VoxelConfig"]


def _number(name: str, value: Any, *, low: float, strict: bool, high: float | None = None) -> float:
    """``value`` as a finite float above ``low`` (or at least it unless ``strict``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number; got {type(value).__name__} {value!r}")
    number = float(value)
    bound = f"> {low:g}" if strict else f">= {low:g}"
    if high is not None:
        bound += f" and <= {high:g}"
    if not math.isfinite(number) or number < low or (strict and number == low):
        raise ValueError(f"{name} must be a finite number {bound}; got {value!r}")
    if high is not None and number > high:
        raise ValueError(f"{name} must be a finite number {bound}; got {value!r}")
    return number


def _integer(name: str, value: Any, *, low: int, high: int | None = None) -> int:
    """``value`` as an int from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {type(value).__name__} {value!r}")
    number = int(value)
    bound = f">= {low}" if high is None else f"from {low} to {high}"
    if number < low or (high is not None and number > high):
        raise ValueError(f"{name} must be an integer {bound}; got {value!r}")
    return number


@dataclass(frozen=True)
class VoxelConfig:
    """A :class:`BuildConfig` in voxel units, as Recast's ``rcConfig`` holds it.

    Made by :meth:`BuildConfig.voxels`; every field is named as in ``rcConfig``
    (``walkable_height`` is ``walkableHeight``, and so on).

    Attributes
    ----------
    cs, ch : float
        Cell size (x and y) and cell height (z), world units.
    walkable_slope : float
        ``walkableSlopeAngle``: the steepest walkable slope, degrees.
    walkable_height : int
        ``walkableHeight = ceil(agent_height / ch)``, cells of ``ch``.
    walkable_climb : int
        ``walkableClimb = floor(agent_max_climb / ch)``, cells of ``ch``.
    walkable_radius : int
        ``walkableRadius = ceil(agent_radius / cs)``, cells of ``cs``.
    max_edge_len : int
        ``maxEdgeLen = int(edge_max_len / cs)``, cells.
    max_simplification_error : float
        ``maxSimplificationError = edge_max_error``, world units.
    min_region_area, merge_region_area : int
        ``region_min_size ** 2`` and ``region_merge_size ** 2``, cells (an area).
    max_verts_per_poly : int
        ``maxVertsPerPoly``.
    detail_sample_dist : float
        ``cs * detail_sample_dist`` (0 when ``detail_sample_dist < 0.9``), world units.
    detail_sample_max_error : float
        ``ch * detail_sample_max_error``, world units.
    tile_size : int
        Cells along a tile's side (0: one tile).
    border_size : int
        ``borderSize``: ``walkable_radius + 3`` cells around each tile when tiled, 0
        otherwise (as RecastDemo's tiled sample).

    Examples
    --------
    An agent 1.8 tall and 0.4 wide that climbs 0.5, in cells of 0.25 by 0.1, tiled:

    >>> from pathcraft.navmesh3d import BuildConfig
    >>> v = BuildConfig(cell_size=0.25, cell_height=0.1, agent_height=1.8,
    ...                 agent_radius=0.4, agent_max_climb=0.5, tile_size=32).voxels()
    >>> v.walkable_height, v.walkable_climb, v.walkable_radius, v.border_size
    (18, 5, 2, 5)
    >>> v.max_edge_len, v.detail_sample_dist  # 12 / 0.25 cells; 6 cells of 0.25
    (48, 1.5)
    """

    cs: float
    ch: float
    walkable_slope: float
    walkable_height: int
    walkable_climb: int
    walkable_radius: int
    max_edge_len: int
    max_simplification_error: float
    min_region_area: int
    merge_region_area: int
    max_verts_per_poly: int
    detail_sample_dist: float
    detail_sample_max_error: float
    tile_size: int
    border_size: int


@dataclass(frozen=True)
class BuildConfig:
    """How to build a 3-D navigation mesh: Recast's parameters, in world units.

    The defaults are RecastDemo's (``Sample::resetCommonSettings``), for a level in
    metres and a human-sized agent. Positions are ``(x, y, z)`` with z up.

    Parameters
    ----------
    cell_size : float
        ``cs``: the width of a cell along x and y, world units (> 0). Default 0.3.
    cell_height : float
        ``ch``: the height of a cell along z, world units (> 0). Default 0.2.
    agent_height : float
        The agent's height (Recast's ``walkableHeight`` in world units): the headroom a
        span needs to be walkable, world units (> 0). Default 2.0.
    agent_radius : float
        The agent's radius (``walkableRadius``): walkable spans this close to a wall or
        a drop are eroded, world units (>= 0). Default 0.6.
    agent_max_climb : float
        The highest step the agent climbs (``walkableClimb``), world units (>= 0).
        Default 0.9.
    agent_max_slope : float
        The steepest walkable slope (``walkableSlopeAngle``), degrees, from 0 to 90.
        Default 45.
    region_min_size : float
        Regions smaller than ``region_min_size ** 2`` cells are removed (unless they
        touch a tile's border), cells along a side as RecastDemo's slider (>= 0).
        Default 8.
    region_merge_size : float
        Regions smaller than ``region_merge_size ** 2`` cells are merged into a
        neighbour when they can be, cells along a side (>= 0). Default 20.
    edge_max_len : float
        The longest contour edge (``maxEdgeLen`` times ``cs``), world units (>= 0, 0: no
        limit). Default 12.
    edge_max_error : float
        How far a simplified contour may stray from the region's border
        (``maxSimplificationError``), world units (>= 0). Default 1.3.
    verts_per_poly : int
        The most vertices of a polygon (``maxVertsPerPoly``), 3 to 6. Default 6.
    detail_sample_dist : float
        The spacing of the detail mesh's height samples, cells (times ``cs``; below
        0.9: no sampling), >= 0. Default 6.
    detail_sample_max_error : float
        How far the detail mesh may stray from the heightfield, cells of ``ch``
        (times ``ch``), >= 0. Default 1.
    tile_size : int
        Cells along a tile's side (>= 0; 0 builds one tile). Default 0.

    Raises
    ------
    TypeError
        A parameter of the wrong kind (named).
    ValueError
        A parameter out of its range (named, with the range).

    Examples
    --------
    >>> from pathcraft.navmesh3d import BuildConfig
    >>> config = BuildConfig(agent_radius=0.5)
    >>> v = config.voxels()
    >>> v.walkable_height, v.walkable_climb, v.walkable_radius, v.min_region_area
    (10, 4, 2, 64)
    >>> BuildConfig(verts_per_poly=7)
    Traceback (most recent call last):
    ...
    ValueError: verts_per_poly must be an integer from 3 to 6; got 7
    """

    cell_size: float = 0.3
    cell_height: float = 0.2
    agent_height: float = 2.0
    agent_radius: float = 0.6
    agent_max_climb: float = 0.9
    agent_max_slope: float = 45.0
    region_min_size: float = 8
    region_merge_size: float = 20
    edge_max_len: float = 12.0
    edge_max_error: float = 1.3
    verts_per_poly: int = 6
    detail_sample_dist: float = 6.0
    detail_sample_max_error: float = 1.0
    tile_size: int = 0

    def __post_init__(self) -> None:
        checked = {
            "cell_size": _number("cell_size", self.cell_size, low=0.0, strict=True),
            "cell_height": _number("cell_height", self.cell_height, low=0.0, strict=True),
            "agent_height": _number("agent_height", self.agent_height, low=0.0, strict=True),
            "agent_radius": _number("agent_radius", self.agent_radius, low=0.0, strict=False),
            "agent_max_climb": _number(
                "agent_max_climb", self.agent_max_climb, low=0.0, strict=False
            ),
            "agent_max_slope": _number(
                "agent_max_slope", self.agent_max_slope, low=0.0, strict=False, high=90.0
            ),
            "region_min_size": _number(
                "region_min_size", self.region_min_size, low=0.0, strict=False
            ),
            "region_merge_size": _number(
                "region_merge_size", self.region_merge_size, low=0.0, strict=False
            ),
            "edge_max_len": _number("edge_max_len", self.edge_max_len, low=0.0, strict=False),
            "edge_max_error": _number("edge_max_error", self.edge_max_error, low=0.0, strict=False),
            "verts_per_poly": _integer("verts_per_poly", self.verts_per_poly, low=3, high=6),
            "detail_sample_dist": _number(
                "detail_sample_dist", self.detail_sample_dist, low=0.0, strict=False
            ),
            "detail_sample_max_error": _number(
                "detail_sample_max_error", self.detail_sample_max_error, low=0.0, strict=False
            ),
            "tile_size": _integer("tile_size", self.tile_size, low=0),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    def voxels(self) -> VoxelConfig:
        """The settings in voxel units, rounded as RecastDemo rounds them.

        Returns
        -------
        VoxelConfig
            ``walkable_height = ceil(agent_height / ch)``, ``walkable_climb =
            floor(agent_max_climb / ch)``, ``walkable_radius = ceil(agent_radius / cs)``,
            region areas squared, and so on (see :class:`VoxelConfig`).

        Examples
        --------
        >>> from pathcraft.navmesh3d import BuildConfig
        >>> BuildConfig().voxels().walkable_radius
        2
        """
        cs, ch = self.cell_size, self.cell_height
        # RecastDemo computes in 32-bit floats; a tiny slack keeps 0.9 / 0.2 at 4.5 -> 4
        # and 2.0 / 0.2 at 10, not 10.000000000000002 -> 11.
        eps = 1e-6
        radius = math.ceil(self.agent_radius / cs - eps)
        return VoxelConfig(
            cs=cs,
            ch=ch,
            walkable_slope=self.agent_max_slope,
            walkable_height=math.ceil(self.agent_height / ch - eps),
            walkable_climb=math.floor(self.agent_max_climb / ch + eps),
            walkable_radius=radius,
            max_edge_len=int(self.edge_max_len / cs + eps),
            max_simplification_error=self.edge_max_error,
            min_region_area=int(self.region_min_size**2),
            merge_region_area=int(self.region_merge_size**2),
            max_verts_per_poly=self.verts_per_poly,
            detail_sample_dist=0.0
            if self.detail_sample_dist < 0.9
            else cs * self.detail_sample_dist,
            detail_sample_max_error=ch * self.detail_sample_max_error,
            tile_size=self.tile_size,
            border_size=radius + 3 if self.tile_size > 0 else 0,
        )
