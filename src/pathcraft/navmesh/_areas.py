"""Area costs of a :class:`~pathcraft.navmesh.NavMesh` (issue 20): a multiplier per
polygon (mud, roads, water) that the funnel's corridor search weighs the portal graph
by (see :mod:`pathcraft.navmesh._portals`), and the cost of a path under them.

The cost of a path is the sum over its pieces of length x the multiplier of the
polygon the piece lies in; a piece along the boundary two polygons share costs the
cheaper one's multiplier.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

__all__ = ["check_cost", "check_ids", "path_cost"]

FloatArray = npt.NDArray[np.float64]


def check_cost(name: str, value: Any) -> float:
    """``value`` as a multiplier: a finite real number >= 1 (so the search's Euclidean
    heuristic stays admissible)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a finite number >= 1, got {value!r}")
    out = float(value)
    if not math.isfinite(out) or out < 1:
        raise ValueError(f"{name} must be a finite number >= 1, got {value!r}")
    return out


def check_costs(name: str, value: Any, n: int) -> npt.NDArray[np.float64] | None:
    """``value`` as the multipliers of ``n`` polygons (a saved mesh's ``area_costs``): a
    float array of shape ``(n,)``, every entry finite and >= 1. None when all are 1
    (a mesh without area costs).

    >>> check_costs("area_costs", np.array([1.0, 2.5]), 2).tolist()
    [1.0, 2.5]
    >>> check_costs("area_costs", np.array([1.0, 0.5]), 2)
    Traceback (most recent call last):
    ...
    ValueError: area_costs must hold 2 finite numbers >= 1 (float64, one per polygon)
    """
    arr = np.asarray(value)
    if (
        arr.shape != (n,)
        or not np.issubdtype(arr.dtype, np.floating)
        or not bool(np.isfinite(arr).all())
        or bool((arr < 1.0).any())
    ):
        raise ValueError(
            f"{name} must hold {n} finite numbers >= 1 (float64, one per polygon)"
        )
    return None if bool((arr == 1.0).all()) else arr.astype(np.float64, copy=True)


def check_ids(name: str, value: Any, n: int) -> npt.NDArray[np.intp]:
    """``value`` as polygon ids: integers in ``[0, n)`` (one id or a sequence)."""
    ids = np.atleast_1d(np.asarray(value))
    if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
        raise TypeError(f"{name} must be a polygon id or a sequence of them (ints), got {value!r}")
    bad = ids[(ids < 0) | (ids >= n)]
    if bad.size:
        raise ValueError(f"{name}: polygon id {int(bad[0])} is not in [0, {n})")
    return ids.astype(np.intp)


def path_cost(shapes: npt.NDArray[Any], tree: Any, costs: FloatArray, path: FloatArray) -> float:
    """The cost of ``path`` (``(n, 2)``, ``(x, y)``) under the area ``costs`` of the
    polygons ``shapes`` (indexed by the STRtree ``tree``): see the module docs."""
    total = 0.0
    for a, b in pairwise(path):
        d = b - a
        length = float(np.hypot(*d))
        if length == 0:
            continue
        seg = shapely.linestrings([a, b])
        hits = tree.query(seg, predicate="intersects")
        pieces = shapely.intersection(shapes[hits], seg)
        cuts = [0.0, 1.0]
        spans = []
        for poly, piece in zip(hits.tolist(), pieces.tolist(), strict=True):
            xy = shapely.get_coordinates(piece)
            if xy.shape[0] < 2:
                continue
            t = np.clip(((xy - a) @ d) / (length * length), 0.0, 1.0)
            lo, hi = float(t.min()), float(t.max())
            if hi > lo:
                spans.append((lo, hi, float(costs[poly])))
                cuts += [lo, hi]
        marks = np.unique(cuts)
        for lo, hi in pairwise(marks.tolist()):
            mid = 0.5 * (lo + hi)
            here = [c for s0, s1, c in spans if s0 <= mid <= s1]
            # a piece no polygon holds (rounding at a corner) costs the cheapest near it
            cost = min(here) if here else min((c for *_, c in spans), default=1.0)
            total += (hi - lo) * length * cost
    return total
