"""Checks of positions and numbers shared by the continuous worlds (waypoint graphs,
navigation meshes, agents); each error names the argument and what it accepts.

Positions are ``(x, y)`` (or ``(x, y, z)`` where a world is 3-D), never ``(row, col)``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "EXTENT",
    "QUAD_SEGS",
    "check_extent",
    "check_number",
    "check_points",
    "check_position",
    "check_xy",
]

Array = npt.NDArray[np.float64]

#: Segments per quarter circle of a corner rounded by growing or shrinking space for
#: an agent's radius, in every continuous world (``WaypointGraph`` ``agent_radius``
#: and ``radius=``, ``NavMesh.from_geometry`` ``agent_radius`` and ``radius=``): the
#: corners of ``obstacle.buffer(radius)``, so one radius gives one geometry everywhere
#: (the function ``shapely.buffer`` uses 8 by default).
QUAD_SEGS = 16


#: How far from the origin a continuous world's coordinates may lie: the squared
#: distances and cross products its searches compute, and the fourth powers of the
#: triangulation's in-circle tests (GEOS), stay finite (float64 holds 1.8e308).
EXTENT = 1e75


def check_extent(name: str, xy: npt.NDArray[np.float64]) -> None:
    """Refuse finite coordinates beyond :data:`EXTENT` (ValueError naming ``name``);
    ``xy`` holds points of 2 (or 3) coordinates in its last axis."""
    pts = xy.reshape(-1, xy.shape[-1]) if xy.ndim else xy.reshape(1, 1)
    far = np.flatnonzero((np.abs(pts) > EXTENT).any(axis=1))
    if far.size:
        i = int(far[0])
        raise ValueError(
            f"{name} holds the point {tuple(pts[i].tolist())}, too far out: coordinates "
            f"must lie within {EXTENT:g} of the origin (the areas and distances computed "
            "would overflow float64); scale the geometry down"
        )


def _coordinates(value: Any, wrong: str) -> npt.NDArray[np.float64]:
    """``value`` as a new float64 array of real numbers, or TypeError ``wrong`` (its
    ``{value}`` filled in): no bools (read as 0 and 1), strings (parsed), complex
    numbers (their imaginary part dropped) or other objects."""
    try:
        raw = np.asarray(value)
        if raw.dtype.kind == "O" or (
            raw.dtype.kind in "iu" and not isinstance(value, np.ndarray)
        ):  # a Python bool among ints, or objects: each looked at
            items = np.asarray(value, dtype=object).flat if raw.dtype.kind != "O" else raw.flat
            if not all(isinstance(x, numbers.Real) and not isinstance(x, _NOT_REAL) for x in items):
                raise TypeError
        elif raw.dtype.kind not in "iuf":
            raise TypeError
        with np.errstate(over="ignore"):
            return np.array(raw, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(wrong.format(value=repr(value))) from exc


#: What counts among Python's real numbers and is not a coordinate.
_NOT_REAL = (bool, np.bool_, np.timedelta64)


def check_points(name: str, values: Any, dims: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """A new ``(n, d)`` float array of finite points, ``d`` in ``dims``."""
    arr = _coordinates(values, f"{name} must be an array of points (x, y); got {{value}}")
    if arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, dims[0])
    if arr.ndim != 2 or arr.shape[1] not in dims:
        shapes = " or ".join(f"(n, {d})" for d in dims)
        raise ValueError(f"{name} must have shape {shapes}; got {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name}[{i}] = {arr[i].tolist()} is not finite")
    return arr


def check_position(name: str, value: Any, dim: int) -> npt.NDArray[np.float64]:
    """One finite position of ``dim`` coordinates."""
    arr = _coordinates(value, f"{name} must be a position of {dim} numbers; got {{value}}")
    if arr.shape != (dim,):
        axes = "(x, y)" if dim == 2 else "(x, y, z)"
        raise ValueError(f"{name} must be a position {axes}; got {value!r}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} {tuple(arr.tolist())} is not finite")
    return arr


def check_number(
    name: str, value: Any, *, low: float, inclusive: bool, inf: bool = False
) -> float:
    """``value`` as a float, checked against ``low`` (and finite unless ``inf``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number; got {value!r}")
    x = float(value)
    ok = (x >= low if inclusive else x > low) and (inf or math.isfinite(x)) and not math.isnan(x)
    if not ok:
        sign = ">=" if inclusive else ">"
        kind = "" if inf else "finite "
        raise ValueError(f"{name} must be a {kind}number {sign} {low:g}; got {value!r}")
    return x


def check_xy(name: str, value: Any) -> Array:
    """A non-empty ``(n, 2)`` float array of finite ``(x, y)`` points."""
    arr = _coordinates(value, f"{name} must be an (n, 2) array of (x, y) numbers; got {{value}}")
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] < 1:
        raise ValueError(f"{name} must be an (n, 2) array of (x, y) points; got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must hold finite numbers")
    return arr
