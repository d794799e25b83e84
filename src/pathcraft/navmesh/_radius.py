"""Agents of several radii on one navigation mesh: the mesh of each radius, derived once.

A query with ``radius=r`` runs on the mesh of the walkable area shrunk by ``r``
(``shapely.buffer`` with distance ``-r``: what is left is where the centre of a disc of
radius ``r`` fits), so its path keeps the agent's centre at least ``r`` from every
wall. The walkable area is the union of the mesh's polygons (for a mesh of
:meth:`NavMesh.from_geometry <pathcraft.navmesh.NavMesh.from_geometry>` with an
``agent_radius``, the area already shrunk by it: the radii add up). Each radius's mesh
is triangulated once, on its first query, and kept: :data:`MAX_RADII` radii at most,
the oldest dropped first.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from shapely.geometry.polygon import orient

from pathcraft._positions import EXTENT, QUAD_SEGS

__all__ = ["MAX_RADII", "QUAD_SEGS", "RadiusCache", "check_radius", "shrink"]

#: Meshes kept per mesh, one per radius (the oldest is dropped first).
MAX_RADII = 8


def check_radius(value: Any, name: str = "radius") -> float:
    """A radius checked: a finite real number >= 0 (not a bool), at most
    :data:`~pathcraft._positions.EXTENT` (the geometry grown by it would overflow).

    >>> check_radius(0.5)
    0.5
    >>> check_radius(-1)
    Traceback (most recent call last):
    ...
    ValueError: radius must be a finite number >= 0 (the agent's radius); got -1
    """
    accepted = f"{name} must be a finite number >= 0 (the agent's radius)"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{accepted}; got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{accepted}; got {value!r}")
    if number > EXTENT:
        raise ValueError(f"{accepted} and at most {EXTENT:g}; got {value!r}")
    return number


def _ccw(ring: Any) -> Any:
    """The polygon inside ``ring``, counter-clockwise (shapely's ``box`` and most
    outlines are: GEOS places the points of a rounded corner by the ring's direction)."""
    return orient(shapely.Polygon(ring), 1.0)


def shrink(area: Any, radius: float) -> Any:
    """The points of ``area`` (a Polygon or MultiPolygon) at least ``radius`` from its
    boundary: each part's outline shrunk by ``radius``, minus its holes (the
    obstacles) grown by ``radius`` (``shapely.buffer``, :data:`QUAD_SEGS` segments a
    quarter circle). The same set as ``buffer(area, -radius)``, and the same polygons
    as the obstacles grown one by one: the rounded corners around a (counter-clockwise)
    obstacle are those of ``obstacle.buffer(radius)``.

    >>> from shapely import box
    >>> room = box(0, 0, 10, 4).difference(box(4, 1, 6, 3))
    >>> round(shrink(room, 0.5).area, 4) == round(
    ...     box(0, 0, 10, 4).buffer(-0.5).difference(box(4, 1, 6, 3).buffer(0.5)).area, 4)
    True
    """
    parts = []
    for poly in shapely.get_parts(area):
        outline = shapely.buffer(_ccw(poly.exterior), -radius, quad_segs=QUAD_SEGS)
        holes = [shapely.buffer(_ccw(ring), radius, quad_segs=QUAD_SEGS) for ring in poly.interiors]
        if holes:
            outline = shapely.difference(outline, shapely.union_all(holes))
        parts.append(outline)
    return shapely.union_all(parts)


class RadiusCache:
    """The meshes of one mesh's radii.

    Parameters
    ----------
    outline : callable
        ``outline()``: the walkable area (a shapely geometry), asked once.
    build : callable
        ``build(geometry)``: the mesh of a shrunk area.

    Examples
    --------
    >>> from shapely import box
    >>> cache = RadiusCache(lambda: box(0, 0, 4, 2), lambda geom: geom.bounds)
    >>> cache.mesh(0.5)
    (0.5, 0.5, 3.5, 1.5)
    >>> cache.mesh(1.0)
    Traceback (most recent call last):
    ...
    ValueError: nothing is walkable after shrinking by radius=1.0
    """

    __slots__ = ("_build", "_meshes", "_outline", "_walkable")

    def __init__(self, outline: Callable[[], Any], build: Callable[[Any], Any]) -> None:
        self._outline = outline
        self._build = build
        self._walkable: Any = None
        self._meshes: dict[float, Any] = {}

    def mesh(self, radius: float) -> Any:
        """The mesh of ``radius`` (> 0), built now on first use."""
        found = self._meshes.get(radius)
        if found is not None:
            return found
        if self._walkable is None:
            self._walkable = self._outline()
        geom = shrink(self._walkable, radius)
        if geom.is_empty or shapely.area(geom) == 0:
            raise ValueError(f"nothing is walkable after shrinking by radius={radius!r}")
        built = self._build(geom)
        if len(self._meshes) >= MAX_RADII:
            del self._meshes[next(iter(self._meshes))]
        self._meshes[radius] = built
        return built
