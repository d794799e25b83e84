"""Reachability on every world: the component labels of its move graph, one version
at a time.

A world's places (cells, nodes, waypoints, polygons) and its legal moves form a
directed graph. Two places share a *component* when each reaches the other: the
strongly connected components (:func:`pathcraft._core.components.strong`, one
compiled pass over CSR arrays), which are the connected components when every move
can be undone. One component reaches another, on a directed world, when the goal's
component is reachable in the *condensation* (the components and the moves between
them, a DAG): :meth:`Reach.reaches` reads two labels, and only when they differ on a
directed world searches the condensation (labels are numbered so that a component
reaching another has the larger label: most pairs are answered by the comparison;
the rest cost at most the condensation's size, never the world's).

:class:`Reachability` is the one helper a world keeps (made by the :class:`Labelled`
mixin the first time labels are asked for): ``labels()`` builds them for the
world's current version (from the world's ``_move_graph()``: its move graph as CSR
arrays), ``current()`` gives them only while they describe the current version. The
query glue (:mod:`pathcraft._cellworld`) asks ``apart(start, goal)`` before a search
and ``missed()`` after one that ended unreachable: a world asked for its labels once
keeps them, built again after an edit at the first search that ends unreachable (or
when asked), and a world never asked searches as before (labels built for a one-off
query would cost the flood they save). A ``partial=True`` search is never answered
from the labels: it explores to return the closest place. :class:`~pathcraft.Grid`
keeps its own labels among its prepared state (:mod:`pathcraft.grid._prepared`),
over its padded cells, repaired locally after one cell's edit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pathcraft._core.components import dag_reaches, strong
from pathcraft._unique import sorted_unique

__all__ = [
    "Labelled",
    "Moves",
    "Reach",
    "Reachability",
    "cell_components",
    "cell_moves",
    "compact",
    "graph_moves",
    "moves_from_edges",
    "padded_index",
]


class Moves(NamedTuple):
    """A world's move graph over its places ``0 .. n - 1`` as CSR arrays: the moves
    out of place ``u`` go to ``targets[offsets[u]:offsets[u + 1]]``. ``places``:
    which of the ``n`` are places (None: all; the others, walls, are labelled -1).
    ``directed``: False when every move can be undone (no condensation needed). A
    target of ``-1`` is no move (a closed edge, a missing neighbour). What every
    world's ``_move_graph()`` returns (:class:`pathcraft.world.World`)."""

    offsets: npt.NDArray[np.int64]
    targets: npt.NDArray[np.int32]
    places: npt.NDArray[np.bool_] | None
    directed: bool


def moves_from_edges(
    n: int,
    tails: npt.NDArray[np.intp],
    heads: npt.NDArray[np.intp],
    places: npt.NDArray[np.bool_] | None,
    directed: bool,
) -> Moves:
    """:class:`Moves` from the moves ``tails[i] -> heads[i]`` over ``n`` places."""
    order = np.argsort(tails, kind="stable")
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(tails, minlength=n), out=offsets[1:])
    return Moves(offsets, heads[order].astype(np.int32), places, directed)


def padded_index(adapter: Any) -> npt.NDArray[np.intp]:
    """The adapter's flat place (its padded index) of every cell of its ``shape``, in
    row-major order: what the glue's places are, for each place of the world's own
    moves (``agent_space().moves()``)."""
    flat = np.arange(adapter.size, dtype=np.intp)
    cells = adapter.unflat(flat)
    shape = np.asarray(adapter.shape)
    inside = ((cells >= 0) & (cells < shape)).all(axis=1)
    out = np.empty(int(np.prod(shape)), dtype=np.intp)
    out[np.ravel_multi_index(tuple(cells[inside].T), tuple(adapter.shape))] = flat[inside]
    return out


def cell_moves(
    adapter: Any,
    moves: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]],
    directed: bool,
) -> Moves:
    """:class:`Moves` over a cell world's flat places (its adapter's padded indices)
    from its moves ``(tails, heads, weights)`` over row-major cells (a move weighing
    ``inf`` is none); the places are the walkable cells. ``directed``: False when the
    world knows every move can be undone."""
    tails, heads, weights = moves
    index = padded_index(adapter)
    real = np.isfinite(weights)
    places = np.isfinite(np.asarray(adapter.padded).ravel())
    return moves_from_edges(adapter.size, index[tails[real]], index[heads[real]], places, directed)


def cell_components(adapter: Any, reach: Reach) -> tuple[npt.NDArray[np.int32], int]:
    """A cell world's ``components()``: the labels of :func:`cell_moves`'s places
    as an array of the world's shape (``-1`` on walls), and their count."""
    labels = reach.labels[padded_index(adapter)].reshape(tuple(adapter.shape))
    return labels, reach.count


def graph_moves(
    csr: tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float64]],
    directed: bool,
) -> Moves:
    """:class:`Moves` of a graph's CSR arrays ``(offsets, targets, weights)``: an edge
    weighing ``inf`` is closed (no move)."""
    offsets, targets, weights = csr
    return Moves(offsets, np.where(np.isinf(weights), -1, targets).astype(np.int32), None, directed)


def compact(labels: npt.NDArray[np.int32], top: int) -> tuple[npt.NDArray[np.int32], int]:
    """A copy of ``labels`` (``-1``: no place) numbered ``0 .. count - 1``, the
    order of the labels kept, and ``count``: labels kept current by local repairs
    may leave numbers unused (``top``: one more than the largest)."""
    live = labels >= 0
    used = np.bincount(labels[live], minlength=top) > 0
    if used.all():
        return labels.copy(), top
    rank = (np.cumsum(used, dtype=np.int32) - 1).astype(np.int32)
    return np.where(live, rank[np.where(live, labels, 0)], -1).astype(np.int32), int(used.sum())


class Reach:
    """The component labels of one version of a world's move graph.

    Parameters
    ----------
    moves : Moves
        The move graph.
    version : int
        The world's version it describes.

    Examples
    --------
    >>> import numpy as np
    >>> moves = moves_from_edges(3, np.array([0, 1, 1]), np.array([1, 0, 2]), None, True)
    >>> reach = Reach(moves, 0)
    >>> reach.count, reach.reaches(0, 2), reach.reaches(2, 0)
    (2, True, False)
    """

    __slots__ = ("_dag", "_seen", "count", "labels", "version")

    def __init__(self, moves: Moves, version: int) -> None:
        self.version = version
        offsets, targets, places, directed = moves
        n = offsets.shape[0] - 1
        labels = np.empty(n, dtype=np.int32)
        count = strong(offsets, targets, labels)
        if places is not None:  # walls: no moves in or out, each a component; dropped
            keep = np.zeros(count, dtype=bool)
            keep[labels[places]] = True
            rank = np.cumsum(keep, dtype=np.int32) - 1
            labels = np.where(places, rank[labels], -1).astype(np.int32)
            count = int(keep.sum())
        #: Each place's component (``-1``: not a place), numbered in reverse
        #: topological order of the condensation (a component reaching another has
        #: the larger label).
        self.labels = labels
        #: How many components.
        self.count = count
        #: The condensation as CSR arrays (None: no move joins two components, as
        #: on every world whose moves can all be undone), made now so the moves are
        #: not kept: the labels and this graph of components are all that stays.
        self._dag = _condensation(moves, labels, count) if directed else None
        self._seen = None if self._dag is None else np.zeros(count + 1, dtype=np.int32)

    @property
    def directed(self) -> bool:
        """Whether some move joins two components (then :meth:`reaches` may search the
        condensation)."""
        return self._dag is not None

    def reaches(self, a: int, b: int) -> bool:
        """Whether place ``b`` can be reached from place ``a`` (flat indices of
        places): the same component, or ``b``'s component reachable in the
        condensation (at most the condensation's size)."""
        la, lb = int(self.labels[a]), int(self.labels[b])
        if la < 0 or lb < 0:
            return False
        dag, seen = self._dag, self._seen
        if la == lb or dag is None or seen is None:
            return la == lb
        if la < lb:  # reverse topological numbering: b's component is downstream
            return False
        return bool(dag_reaches(dag[0], dag[1], la, lb, seen))


def _condensation(
    moves: Moves, labels: npt.NDArray[np.int32], count: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]] | None:
    """The moves between components as CSR arrays over the labels, each once (None
    when there are none)."""
    offsets, targets = moves.offsets, moves.targets
    n = offsets.shape[0] - 1
    tails = np.repeat(np.arange(n, dtype=np.intp), np.diff(offsets))
    heads = targets[: offsets[n]].astype(np.intp)
    real = heads >= 0  # a negative target is no move
    a, b = labels[tails[real]], labels[heads[real]]
    cross = (a != b) & (a >= 0) & (b >= 0)
    if not cross.any():
        return None
    pairs = sorted_unique(a[cross].astype(np.int64) * count + b[cross])
    dag = moves_from_edges(count, (pairs // count).astype(np.intp), (pairs % count).astype(np.intp),
                           None, True)  # fmt: skip
    return dag.offsets, dag.targets


class Reachability:
    """A world's component labels, kept for its current version.

    Parameters
    ----------
    owner : world
        The world (its ``version`` is read before every answer).
    moves : callable
        The world's move graph now (:class:`Moves`): a method of the world, so the
        object pickles with it (without its labels: built again where used).
    empty : array or None
        See :attr:`empty`.

    Examples
    --------
    >>> import numpy as np
    >>> class Pair:                              # two places joined, one apart
    ...     version = 0
    ...     def moves(self):
    ...         return moves_from_edges(3, np.array([0, 1]), np.array([1, 0]), None, False)
    >>> reach = Reachability(Pair(), Pair().moves)
    >>> reach.current() is None                  # never asked: searches as before
    True
    >>> reach.labels().labels.tolist(), reach.apart(0, 2)
    ([0, 0, 1], True)
    """

    __slots__ = ("_moves", "_reach", "empty", "owner")

    def __init__(self, owner: Any, moves: Callable[[], Moves], empty: Any = None) -> None:
        self.owner = owner
        self._moves = moves
        self._reach: Reach | None = None
        #: The path of a query answered unreachable, as the world's kernel writes an
        #: empty one (cells: a ``(0, ndim)`` array; nodes: an empty index array).
        self.empty = np.empty(0, dtype=np.intp) if empty is None else empty

    def labels(self) -> Reach:
        """The labels of the current version (built now if needed); the world keeps
        labels from then on (see :meth:`missed`)."""
        version = self.owner.version
        reach = self._reach
        if reach is None or reach.version != version:
            reach = self._reach = Reach(self._moves(), version)
        return reach

    def current(self) -> Reach | None:
        """The labels if they describe the current version, else None."""
        reach = self._reach
        return reach if reach is not None and reach.version == self.owner.version else None

    def apart(self, start: int, goal: int) -> bool:
        """Whether the current labels say ``goal`` cannot be reached from ``start``
        (False without current labels: the search decides)."""
        reach = self.current()
        return reach is not None and not reach.reaches(start, goal)

    def apart_any(self, starts: npt.NDArray[np.intp], goals: npt.NDArray[np.intp]) -> bool:
        """Whether the current labels say no place of ``goals`` can be reached from
        any of ``starts`` (False without current labels)."""
        reach = self.current()
        if reach is None:
            return False
        if not reach.directed:
            return not np.isin(reach.labels[goals], reach.labels[starts]).any()
        return not any(reach.reaches(int(a), int(b)) for a in starts for b in goals)

    def missed(self) -> None:
        """A search ended unreachable: a world that keeps labels builds them again
        for its current version, so the next such query is answered at once."""
        if self._reach is not None and self.current() is None:
            self.labels()

    def __getstate__(self) -> tuple[Any, Any, Any]:
        return self.owner, self._moves, self.empty

    def __setstate__(self, state: tuple[Any, Any, Any]) -> None:
        self.__init__(*state)  # type: ignore[misc]


class Labelled:
    """What a world mixes in to keep component labels: one :class:`Reachability`,
    made the first time the labels are asked for (before that a world's queries
    pass none and search as before). The world gives its move graph
    (:meth:`_move_graph`) and the empty path of its kernel (:attr:`_EMPTY_PATH`)."""

    __slots__ = ()

    #: The path of a query answered unreachable (see :attr:`Reachability.empty`).
    _EMPTY_PATH: Any = np.empty(0, dtype=np.intp)

    def _move_graph(self) -> Moves:
        """The world's move graph now."""
        raise NotImplementedError

    def _reachability(self) -> Reachability:
        """The world's labels keeper, made now if it was never asked for."""
        reach: Reachability | None = getattr(self, "_reach", None)
        if reach is None:
            reach = Reachability(self, self._move_graph, self._EMPTY_PATH)
            setattr(self, "_reach", reach)  # noqa: B010 (the world's own slot or attribute)
        return reach

    def _kept(self) -> Reachability | None:
        """The labels keeper if the labels were ever asked for (what queries pass)."""
        return getattr(self, "_reach", None)
