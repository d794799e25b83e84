"""A world's places and one-step moves as CSR arrays: a world that lists its places (the
``"places"`` capability) from its move graph, the one hook its reachability labels are
drawn from too (``_move_graph()``, CSR arrays in the order of its places); any other
world explored through ``neighbors``."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique
from pathcraft.world import CapabilityError

__all__ = ["MAX_PLACES", "adjacency", "csr"]

#: The most places explored from the starts and goals of a world known only through
#: ``neighbors(place)`` (such a world may be unbounded).
MAX_PLACES = 2_000_000

_I32 = np.int32


def csr(
    n: int, sources: npt.NDArray[Any], targets: npt.NDArray[Any]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Sorted, duplicate-free CSR arrays without self loops from edge lists."""
    keep = sources != targets
    key = sources[keep].astype(np.int64) * n + targets[keep].astype(np.int64)
    key = sorted_unique(key)
    src = (key // max(n, 1)).astype(_I32)
    indices = (key % max(n, 1)).astype(_I32)
    indptr = np.zeros(n + 1, dtype=_I32)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, indices


def _listed_adjacency(
    world: Any,
) -> tuple[list[Hashable], npt.NDArray[np.int32], npt.NDArray[np.int32]] | None:
    """The places of a world that lists them (``places()``) and its moves, read from
    its move graph (``_move_graph()``, :class:`pathcraft.world.World`'s hook: CSR
    arrays over slots, ``places`` marking the slots that are places, in the order
    ``places()`` lists them; a target of -1 is no move); None for a world without
    both, or whose move graph does not line up with its places (then it is
    explored)."""
    move_graph = getattr(world, "_move_graph", None)  # the protocol's private hook
    every = getattr(world, "places", None)
    if not (callable(move_graph) and callable(every)):
        return None
    try:
        listed = every()
        moves = move_graph()
    except (CapabilityError, NotImplementedError):
        return None
    slots = len(moves.offsets) - 1
    where = np.arange(slots) if moves.places is None else np.flatnonzero(moves.places)
    if len(where) != len(listed):
        return None
    node = np.full(slots, -1, dtype=np.int64)
    node[where] = np.arange(len(where))
    sources = node[np.repeat(np.arange(slots), np.diff(moves.offsets))]
    targets = np.asarray(moves.targets, dtype=np.int64)
    targets = np.where(targets >= 0, node[np.clip(targets, 0, max(slots - 1, 0))], -1)
    keep = (sources >= 0) & (targets >= 0)
    indptr, indices = csr(len(listed), sources[keep], targets[keep])
    if any(issubclass(kind, (list, np.ndarray)) for kind in set(map(type, listed))):
        listed = [tuple(p) if isinstance(p, (list, np.ndarray)) else p for p in listed]
    return list(listed), indptr, indices


def _explored_adjacency(
    world: Any, seeds: Sequence[Hashable]
) -> tuple[list[Hashable], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The places reachable from ``seeds`` through ``world.neighbors`` and their moves."""
    index: dict[Hashable, int] = {}
    places: list[Hashable] = []
    for seed in seeds:
        if seed not in index:
            index[seed] = len(places)
            places.append(seed)
    sources: list[int] = []
    targets: list[int] = []
    head = 0
    while head < len(places):
        here = places[head]
        for entry in world.neighbors(here):
            there, cost = entry
            if not cost < float("inf"):
                continue
            if there not in index:
                if len(places) >= MAX_PLACES:
                    raise ValueError(
                        f"the world has more than {MAX_PLACES} places reachable from the "
                        "starts and goals; give a Graph or a Grid instead"
                    )
                index[there] = len(places)
                places.append(there)
            sources.append(head)
            targets.append(index[there])
        head += 1
    indptr, indices = csr(
        len(places), np.asarray(sources, dtype=_I32), np.asarray(targets, dtype=_I32)
    )
    return places, indptr, indices


def adjacency(
    world: Any, seeds: Sequence[Hashable] = ()
) -> tuple[list[Hashable], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """A world's places and one-step moves as CSR arrays.

    Parameters
    ----------
    world : any world that lists its places, or any with ``neighbors(place)``
        A world that lists its places (the ``"places"`` capability of
        :mod:`pathcraft.world`: grids, hexagonal, move and voxel grids, levels,
        graphs) gives them in that order (a grid's walkable cells row by row) and the
        moves of its move graph (a grid's by its diagonal rule, a graph's edges of
        infinite weight closed); any other world the places reachable from ``seeds``
        through ``world.neighbors(place)`` (pairs ``(place, cost)``, infinite costs
        closed), in the order found. Step costs are ignored: every move takes one
        time step.
    seeds : sequence of places
        Where to explore from (only for worlds known through ``neighbors`` alone).

    Returns
    -------
    places : list
        Node -> place: ``(row, col)`` tuples on grids, labels on graphs.
    indptr, indices : numpy.ndarray of int32
        The neighbours of node ``v`` are ``indices[indptr[v]:indptr[v + 1]]``, sorted,
        without self loops (waiting is implicit).

    Raises
    ------
    TypeError
        ``world`` is none of these.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> places, indptr, indices = adjacency(Grid.from_ascii("..\\n#."))
    >>> places, indptr.tolist(), indices.tolist()
    ([(0, 0), (0, 1), (1, 1)], [0, 1, 3, 4], [1, 0, 2, 1])
    """
    listed = _listed_adjacency(world)
    if listed is not None:
        return listed
    if callable(getattr(world, "neighbors", None)):
        return _explored_adjacency(world, seeds)
    raise TypeError(
        "world must be a Grid, a world that lists its places or one with a "
        "neighbors(place) method; "
        f"got {type(world).__name__}"
    )
