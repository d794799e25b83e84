"""The waypoint graph's saved arrays (the saving capability of :mod:`pathcraft.world`):
``points``, the obstacles as tested (grown by the agent radius) in ``obstacles_wkb``
cut by ``obstacles_offsets``, ``max_distance`` (NaN for none) and ``agent_radius``.
:class:`~pathcraft.WaypointGraph`'s ``to_arrays`` and ``from_arrays`` call these."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._saved import ArrayFormatError, SavedArrays

if TYPE_CHECKING:
    from pathcraft.waypoints import WaypointGraph

__all__ = ["from_arrays", "to_arrays"]


def to_arrays(wg: WaypointGraph) -> dict[str, npt.NDArray[Any]]:
    """The arrays of ``wg``; a graph with a ``line_of_sight`` callable is refused."""
    import shapely

    if wg.line_of_sight is not None:
        raise TypeError(
            "a WaypointGraph with a line_of_sight callable cannot be saved (a file holds "
            "no code); save its points and build it again with the callable"
        )
    shapes = list(wg.obstacles.values())
    wkb = [bytes(b) for b in shapely.to_wkb(np.array(shapes, dtype=object))] if shapes else []
    offsets = np.zeros(len(wkb) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in wkb], out=offsets[1:])
    limit = wg.max_distance
    return {
        "points": np.array(wg.points, dtype=np.float64),
        "obstacles_wkb": np.frombuffer(b"".join(wkb), dtype=np.uint8).copy(),
        "obstacles_offsets": offsets,
        "max_distance": np.array(math.nan if limit is None else limit, dtype=np.float64),
        "agent_radius": np.array(wg.agent_radius, dtype=np.float64),
    }


def from_arrays(cls: type[WaypointGraph], arrays: Mapping[str, npt.NDArray[Any]]) -> WaypointGraph:
    """The waypoint graph :func:`to_arrays` wrote: its obstacles as they were tested
    (already grown), ``agent_radius`` 0, obstacle ids renumbered ``0 .. k-1``."""
    import shapely

    a = SavedArrays(arrays, "waypoints")
    blob = a.take("obstacles_wkb", "uint8", 1)
    offsets = a.take("obstacles_offsets", "int", 1)
    if (
        offsets.size < 1
        or offsets[0] != 0
        or offsets[-1] != blob.size
        or (np.diff(offsets) < 0).any()
    ):
        raise ArrayFormatError("obstacles_offsets must rise from 0 to the size of obstacles_wkb")
    data = blob.tobytes()
    pieces = [data[s:e] for s, e in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)]
    try:
        obstacles = list(shapely.from_wkb(pieces)) if pieces else []
    except shapely.errors.GEOSException as exc:
        raise ArrayFormatError(f"obstacles_wkb holds a broken shape: {exc}") from exc
    limit = float(a.take("max_distance", "float", 0))
    a.take("agent_radius", "float", 0)
    return cls(
        a.take("points", "float", 2), obstacles,
        max_distance=None if math.isnan(limit) else limit,
    )  # fmt: skip
