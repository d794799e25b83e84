"""Moving points through a grid without leaving its walkable cells: slide along walls."""

from __future__ import annotations

import math

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
