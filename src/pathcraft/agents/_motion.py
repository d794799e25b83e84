"""Moving many discs apart without leaving the floor: close pairs by a spatial hash, and
:func:`separate` (the walls' :func:`~pathcraft._floors.slide` is in :mod:`pathcraft._floors`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pathcraft._floors import slide

__all__ = ["close_pairs", "separate", "slide"]


def close_pairs(
    points: npt.NDArray[np.float64], within: float
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Every pair ``i < j`` of points closer than ``within``: a uniform spatial hash
    (cells of side ``within``) searched in whole-array operations."""
    n = len(points)
    if n < 2:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    cell = np.floor(points / within).astype(np.int64)
    cell -= cell.min(axis=0) - 1
    width = int(cell[:, 1].max()) + 2
    key = cell[:, 0] * width + cell[:, 1]
    order = np.argsort(key, kind="stable")
    skey = key[order]
    found_i, found_j = [], []
    for dx, dy in ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1)):  # half the 3x3 block
        other = (cell[:, 0] + dx) * width + (cell[:, 1] + dy)
        lo = np.searchsorted(skey, other, "left")
        counts = np.searchsorted(skey, other, "right") - lo
        total = int(counts.sum())
        if total == 0:
            continue
        i = np.repeat(np.arange(n), counts)
        start = np.repeat(np.cumsum(counts) - counts, counts)
        j = order[np.repeat(lo, counts) + np.arange(total) - start]
        keep = i < j if (dx, dy) == (0, 0) else np.ones(total, dtype=bool)
        found_i.append(i[keep])
        found_j.append(j[keep])
    if not found_i:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    i = np.concatenate(found_i)
    j = np.concatenate(found_j)
    near = np.linalg.norm(points[i] - points[j], axis=1) < within
    return i[near].astype(np.intp), j[near].astype(np.intp)


def separate(
    points: npt.NDArray[np.float64],
    radii: npt.NDArray[np.float64],
    move: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64]], npt.NDArray[np.float64]],
    *,
    rounds: int = 25,
    tolerance: float = 0.01,
) -> npt.NDArray[np.float64]:
    """Push overlapping discs (``radii``, one per point) apart, each of a pair half
    the overlap, moved by ``move(points, delta)`` (a :func:`slide` that keeps each
    point where it may stand); up to ``rounds`` times, until no pair overlaps by more
    than ``tolerance`` times the sum of its radii."""
    pos: npt.NDArray[np.float64] = points.copy()
    reach = 2.0 * float(radii.max()) if len(radii) else 0.0
    for _ in range(rounds):
        i, j = close_pairs(pos, reach)
        gap = pos[i] - pos[j]
        dist = np.linalg.norm(gap, axis=1)
        sums = radii[i] + radii[j]
        deep = dist < sums * (1.0 - tolerance)
        if not deep.any():
            break  # no pair overlaps by more than tolerance * its radii
        over = dist < sums
        i, j, gap, dist, sums = i[over], j[over], gap[over], dist[over], sums[over]
        same = dist < 1e-9  # coincident points: split them along x
        gap[same] = (1.0, 0.0)
        dist[same] = 1.0
        push = (gap / dist[:, None]) * ((sums - np.where(same, 0.0, dist)) * 0.5)[:, None]
        delta = np.zeros_like(pos)
        np.add.at(delta, i, push)
        np.add.at(delta, j, -push)
        pos = move(pos, delta)
    return pos
