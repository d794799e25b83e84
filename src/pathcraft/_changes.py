"""The "something changed" log every editable world keeps: a version number that
counts its edits and the items each edit touched, so a planner (or a cache) can ask
what changed since the version it last saw instead of starting again.

A :class:`Grid <pathcraft.grid.Grid>` logs cells, a :class:`Graph
<pathcraft.graph.Graph>` edge ids and a :class:`WaypointGraph
<pathcraft.waypoints.WaypointGraph>` the links that opened or closed; each answers
``world.version`` and ``world.changes_since(version)`` in its own terms. It lists what
the edits touched, not the net difference: an item changed and changed back since a
version is listed. The log is bounded: when it holds more items than the world has,
the oldest edits are folded into "everything may have changed", which
``changes_since`` then answers with every item (a correct, if unhelpful, answer).
"""

from __future__ import annotations

import bisect
import numbers
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique

__all__ = ["ChangeLog"]


def _version_of(entry: tuple[int, npt.NDArray[np.intp]]) -> int:
    return entry[0]


class ChangeLog:
    """The edits of one world: a version counter and the integer items each edit
    touched (flat cell indices, edge ids, link ids), kept up to ``limit`` items.

    Examples
    --------
    >>> from pathcraft._changes import ChangeLog
    >>> log = ChangeLog(limit=8)
    >>> log.version
    0
    >>> log.record([3, 1]); log.record([3]); log.version
    2
    >>> log.since(0, total=10).tolist(), log.since(1, total=10).tolist()
    ([1, 3], [3])
    >>> log.since(5, total=10)
    Traceback (most recent call last):
    ...
    ValueError: version must be in [0, 2] (this world's version is 2); got 5
    """

    __slots__ = ("_entries", "_floor", "_held", "_limit", "version")

    def __init__(self, *, limit: int) -> None:
        self._entries: list[tuple[int, npt.NDArray[np.intp]]] = []
        #: The number of edits that changed something (read it; only :meth:`record`
        #: moves it). A plain attribute: worlds compare it on every query.
        self.version = 0
        self._floor = 0  # edits at or below this version are forgotten
        self._held = 0
        self._limit = max(int(limit), 64)

    def record(self, items: npt.ArrayLike, *, empty: bool = False) -> None:
        """Log one edit touching ``items``; nothing when there are none, unless
        ``empty`` (an edit of the world that touched none of its items: a version
        all the same)."""
        arr = sorted_unique(np.asarray(items, dtype=np.intp))
        if arr.size == 0 and not empty:
            return
        self.version += 1
        self._entries.append((self.version, arr))
        self._held += int(arr.size)
        while self._held > self._limit and self._entries:
            version, dropped = self._entries.pop(0)
            self._held -= int(dropped.size)
            self._floor = version

    def since(self, version: Any, *, total: int) -> npt.NDArray[np.intp]:
        """The sorted unique items changed after ``version`` (every item of
        ``range(total)`` when those edits were folded away)."""
        if isinstance(version, bool) or not isinstance(version, numbers.Integral):
            raise TypeError(f"version must be an integer; got {version!r}")
        v = int(version)
        if not 0 <= v <= self.version:
            raise ValueError(
                f"version must be in [0, {self.version}] (this world's version is "
                f"{self.version}); got {version!r}"
            )
        if v < self._floor:
            return np.arange(total, dtype=np.intp)
        first = bisect.bisect_right(self._entries, v, key=_version_of)  # versions ascend
        parts = [items for _, items in self._entries[first:]]
        if not parts:
            return np.empty(0, dtype=np.intp)
        return sorted_unique(np.concatenate(parts))

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "_version" in state:  # pickled before the version was a plain attribute
            state = dict(state)
            state["version"] = state.pop("_version")
        for name, value in state.items():
            object.__setattr__(self, name, value)
