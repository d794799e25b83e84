"""A flow field over any world's moves: :class:`MoveFlow`, what the agents' spaces of
the hexagonal, move and voxel grids, levels, graphs and waypoint graphs build for
:class:`~pathcraft.agents.FlowField` (their ``flow_field``).

The world's space lists its moves as flat arrays (``tails``, ``heads``, ``weights``:
a step from place ``tails[i]`` to ``heads[i]`` costs ``weights[i]``, places numbered
row-major over its shape). The distance of every place *to* the nearest goal is a
Dijkstra from the goals over the reversed moves (the space passes it in: the compiled
graph search, :func:`pathcraft.graph.kit.reversed_field`), so one-way moves (a conveyor, a knight's
asymmetric stencil) and the cost of the cell entered are priced as the agent walks;
each place's next place is its parent in that search's tree: the head of a move
minimising step + distance. Following it from any place is a cheapest path to the
nearest goal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique

__all__ = ["Field", "MoveFlow", "Moves", "flat_goals"]

Flat = npt.NDArray[np.intp]
#: A world's moves: ``(tails, heads, weights)``, flat places; ``inf`` weights are none.
Moves = tuple[Flat, Flat, npt.NDArray[np.float64]]
#: ``field(places, moves, goals)``: the cost from every place to its nearest goal over
#: ``moves`` and each place's next place on a cheapest way (-1 for goals and places
#: that reach none).
Field = Callable[[int, Moves, list[int]], tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]]


class MoveFlow:
    """The next place toward the nearest goal for every place of a world, built again
    when the world changes (``version`` grows): no local repair (a grid's field is
    repaired in place; see :class:`~pathcraft.agents.FlowField`).

    Parameters
    ----------
    world : object
        The world (its ``version`` is watched when it has one).
    shape : tuple of int
        The world's places: a cell world's shape, ``(n,)`` for a graph's nodes.
    goals : ndarray of intp
        The goals, flat places.
    moves : callable
        The world's moves now (:data:`Moves`).
    point : callable
        A flat place's ``(x, y)`` (for :attr:`direction`).
    open_ : callable
        Whether a flat place is walkable now (a goal that is not is no goal).
    field : callable
        The distances and next places (:data:`Field`).
    asked : object
        The goals as the caller gave them: a pickled field is built again from them
        (``world.agent_space().flow_field(asked)``; the callables do not pickle).
    """

    __slots__ = (
        "_asked", "_dir", "_field", "_flat_goals", "_moves", "_open", "_point", "_version",
        "distance_flat", "goals", "last_repair", "next_flat", "shape", "size", "world",
    )  # fmt: skip

    def __init__(
        self,
        world: Any,
        shape: tuple[int, ...],
        goals: Flat,
        moves: Callable[[], Moves],
        point: Callable[[int], tuple[float, float]],
        open_: Callable[[int], bool],
        field: Field,
        asked: Any = None,
    ) -> None:
        self.world = world
        self._field = field
        self._asked = asked
        self.shape = shape
        self.size = 1
        self._flat_goals = sorted_unique(goals)
        #: The goals: cells along the last axis ``(k, ndim)``, or a graph's node indices.
        self.goals: Flat = (
            self._flat_goals if len(shape) == 1
            else np.stack(np.unravel_index(self._flat_goals, shape), axis=1).astype(np.intp)
        )  # fmt: skip
        self._moves = moves
        self._point = point
        self._open = open_
        self._version = getattr(world, "version", 0)
        self._dir: npt.NDArray[np.float64] | None = None
        self.last_repair: tuple[int, int, int, int] | None = None
        self._rebuild()

    def __reduce__(self) -> tuple[Any, tuple[Any, Any]]:
        """Pickled as the world and the goals asked: built again on load."""
        return _remade, (self.world, self._asked)

    def _rebuild(self) -> None:
        n = int(np.prod(self.shape))
        tails, heads, weights = self._moves()
        keep = np.isfinite(weights)
        tails, heads, weights = tails[keep], heads[keep], weights[keep]
        goals = [g for g in self._flat_goals.tolist() if self._open(g)]
        dist = np.full(n, np.inf)
        nxt = np.arange(n, dtype=np.intp)
        if goals:
            dist, tree = self._field(n, (tails, heads, weights), goals)
            has = tree >= 0
            nxt[has] = tree[has]
        self.distance_flat, self.next_flat = dist, nxt
        self._dir = None

    def update(self) -> int:
        """Build the field again if the world changed since it was built; return how
        many places changed (0, in a version check, when none did)."""
        now = getattr(self.world, "version", 0)
        if now == self._version:
            return 0
        since = getattr(self.world, "changes_since", None)
        changed = len(since(self._version)) if since is not None else 1
        self._version = now
        self._rebuild()
        n = int(np.prod(self.shape))
        self.last_repair = (changed, n, n, n)
        return changed

    @property
    def distance(self) -> npt.NDArray[np.float64]:
        """The cost from every place to its nearest goal, shaped as the world's
        places (``inf``: walls and places that reach no goal); read-only."""
        self.update()
        view = self.distance_flat.reshape(self.shape)
        view.flags.writeable = False
        return view

    @property
    def next_cell(self) -> npt.NDArray[np.intp]:
        """The place to go to next: for cell worlds, its coordinates along the last
        axis (shape ``(*shape, ndim)``); for graphs, node indices (``(n,)``). A goal
        and a place that reaches none point at themselves."""
        self.update()
        if len(self.shape) == 1:
            return self.next_flat
        return np.stack(np.unravel_index(self.next_flat, self.shape), axis=-1).reshape(
            (*self.shape, len(self.shape))
        )

    @property
    def direction(self) -> npt.NDArray[np.float64]:
        """The unit ``(x, y)`` direction from each place's point to its next place's,
        shape ``(*shape, 2)``; 0 where it is itself (or straight above or below)."""
        self.update()
        if self._dir is None:
            n = self.next_flat.size
            points = np.array([self._point(i) for i in range(n)], dtype=np.float64)
            step = points[self.next_flat] - points
            length = np.linalg.norm(step, axis=1)
            unit = np.divide(step, length[:, None], out=np.zeros_like(step),
                             where=length[:, None] > 1e-12)  # fmt: skip
            self._dir = unit.reshape((*self.shape, 2))
        return self._dir


def _remade(world: Any, asked: Any) -> MoveFlow:
    """A pickled :class:`MoveFlow` built again: the world's space's ``flow_field``."""
    flow: MoveFlow = world.agent_space().flow_field(asked)
    return flow


def flat_goals(
    goals: Any, many: Callable[[Any], list[Hashable]], index: Callable[[Hashable], int]
) -> Flat:
    """``goals`` as flat places: ``many(goals)`` lists the checked goals, ``index``
    numbers one."""
    listed = many(goals)
    if not listed:
        raise ValueError("goals must hold at least one place; got none")
    return np.array([index(g) for g in listed], dtype=np.intp)
