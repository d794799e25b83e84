"""Moving points through a grid without leaving its walkable cells: slide along walls."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pathcraft.agents.spaces import walkable_at

__all__ = ["slide"]

_SUBSTEP = 0.45  # at most this far per axis per sub-step: never skip a cell
_EDGE = 1e-7  # how close to a wall's face a blocked point stops


def slide(
    positions: npt.NDArray[np.float64],
    delta: npt.NDArray[np.float64],
    walkable: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """Move ``(x, y)`` points by ``delta``, one axis at a time, stopping at walls.

    A point moves along x, then along y, in sub-steps of at most 0.45 cells; a move
    that would enter a wall cell (or leave the map) stops at that wall's face, and the
    other axis still moves: the point slides along the wall. Moving one axis at a time
    never passes diagonally between two walls that touch at a corner. Returns the new
    positions and which axes were blocked, both ``(n, 2)``.
    """
    pos = positions.copy()
    blocked = np.zeros(pos.shape, dtype=bool)
    largest = float(np.abs(delta).max()) if delta.size else 0.0
    steps = max(1, math.ceil(largest / _SUBSTEP))
    part = delta / steps
    for _ in range(steps):
        for axis in (0, 1):
            move = part[:, axis]
            trial = pos.copy()
            trial[:, axis] += move
            ok = walkable_at(walkable, trial)
            pos[ok, axis] = trial[ok, axis]
            stop = ~ok & (move != 0.0)
            if stop.any():
                cell = np.floor(pos[stop, axis])
                pos[stop, axis] = np.where(move[stop] > 0, cell + 1.0 - _EDGE, cell + _EDGE)
                blocked[stop, axis] = True
    return pos, blocked


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
