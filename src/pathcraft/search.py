"""Generic best-first search over any hashable node: A*, Dijkstra, greedy, BFS.

This module is the reference semantics for every specialised search in pathcraft:
the same tie-breaking, the same meaning of ``weight``, of the limits and of "no path",
and the same :class:`~pathcraft.result.PathResult`.

:func:`find_path` is the one call every world answers (``algorithm=`` picks the search);
:func:`astar`, :func:`dijkstra`, :func:`greedy` and :func:`bfs` are it with the
algorithm chosen. A graph is described by callables, never stored: ``neighbors(node)`` yields
``(neighbor, step_cost)`` pairs and ``heuristic(node)`` estimates the cost left to the
goal. All search state (costs, parents, the open list) lives inside the call, so any
number of searches may run at once, in any number of threads, over the same graph.

Examples
--------
A 4-connected 3x3 grid whose centre is a wall:

>>> from pathcraft.search import astar
>>> free = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
>>> def neighbors(cell):
...     r, c = cell
...     for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
...         if nxt in free:
...             yield nxt, 1.0
>>> def manhattan(cell):
...     return abs(cell[0] - 2) + abs(cell[1] - 2)
>>> result = astar((0, 0), (2, 2), neighbors, manhattan)
>>> result.cost, len(result.path), result.path[0], result.path[-1]
(4.0, 5, (0, 0), (2, 2))

No path is an answer, not an exception:

>>> walled = astar((0, 0), (9, 9), neighbors, manhattan)
>>> bool(walled), walled.reason, walled.path
(False, 'unreachable', [])
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from pathcraft._aliases import documented
from pathcraft._bloom import BloomClosed
from pathcraft._engine import Search as _Search
from pathcraft._engine import Settings as _Settings
from pathcraft._engine import bad_heuristic, check_nodes
from pathcraft._engine import run as _run
from pathcraft._options import BaseOptions, SearchOptions
from pathcraft._validation import check_budget, check_callable, check_choice
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "BloomClosed",
    "SlicedSearch",
    "Status",
    "astar",
    "bfs",
    "dijkstra",
    "find_path",
    "greedy",
]

N = TypeVar("N", bound=Hashable)
Neighbors = Callable[[Any], Iterable[tuple[Any, float]]]
Heuristic = Callable[[Any], float]
Goal = Any  # a node, a predicate ``is_goal(node) -> bool``, or None (dijkstra only)
TieBreak = Literal["g", "fifo", "random"]
Status = Literal[
    "in_progress", "found", "unreachable", "max_expansions", "max_cost", "max_depth",
    "cancelled", "failed",
]  # fmt: skip
if not TYPE_CHECKING:
    Status = documented(
        Status,
        "What :meth:`SlicedSearch.step` returns (and every world's "
        "``start_search(...).step``): the search goes on, found its goal, ended for the "
        "reason its result gives (spelt as ``PathResult.reason``), was cancelled, or "
        "failed (a callback raised).",
    )
Algorithm = Literal["astar", "dijkstra", "greedy", "bfs"]
ALGORITHMS = ("astar", "dijkstra", "greedy", "bfs")
F = TypeVar("F", bound=Callable[..., Any])

TIE_BREAKS = ("g", "fifo", "random")
CLOSED_SETS = ("exact", "bloom")


class _Keywords(BaseOptions, total=False):
    """The keyword options of the generic searches: the options every world takes
    and this one's extras (checked by :func:`find_path`)."""

    closed: str | BloomClosed
    max_depth: int | None


# --------------------------------------------------------------------------- checks


def _prepare(
    neighbors: Any, heuristic: Any, algorithm: Any, options: dict[str, Any]
) -> SearchOptions:
    """Check a generic search's arguments: the options through the one options object
    (the heuristic counts as one when given), the callables and the world's extras."""
    check_callable("neighbors", neighbors)
    given = dict(options)
    if heuristic is not None:
        given["heuristic"] = heuristic
    opts = SearchOptions.check("search", algorithm, **given)
    if algorithm == "greedy" and heuristic is None:
        raise TypeError("greedy needs a heuristic: a callable heuristic(node) -> float")
    closed = opts.extra.get("closed", "exact")
    if not isinstance(closed, BloomClosed):
        check_choice("closed", closed, CLOSED_SETS)
    if "max_depth" in opts.extra:
        depth = opts.extra["max_depth"]
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or depth < 0
        ):
            wrong_type = isinstance(depth, bool) or not isinstance(depth, numbers.Integral)
            kind = TypeError if wrong_type else ValueError
            raise kind(f"max_depth must be an integer >= 0 or None; got {depth!r}")
    return opts


def _bloom(opts: SearchOptions) -> BloomClosed | None:
    closed = opts.extra.get("closed", "exact")
    if isinstance(closed, BloomClosed):
        return closed
    return BloomClosed() if closed == "bloom" else None


def find_path(
    start: Any,
    goal: Goal,
    neighbors: Neighbors,
    heuristic: Heuristic | None = None,
    *,
    algorithm: Algorithm = "astar",
    **options: Any,
) -> PathResult:
    """A path from ``start`` to ``goal`` over any graph given by callables, by ``algorithm``.

    The one query every world answers, here over any hashable node: :func:`astar`,
    :func:`dijkstra`, :func:`greedy` and :func:`bfs` are this with the algorithm
    chosen (see them for each option). Which option each algorithm takes is the
    README's options table; any other is refused with
    :class:`~pathcraft._options.UnsupportedOptionError`.

    Parameters
    ----------
    start : hashable
        The first node.
    goal : hashable, callable or None
        The node to reach, or a predicate ``is_goal(node) -> bool``; None only for
        ``algorithm="dijkstra"`` (settle every reachable node).
    neighbors : callable
        ``neighbors(node)`` yields ``(neighbor, step_cost)`` pairs.
    heuristic : callable or None
        ``heuristic(node) -> float`` (``astar``, ``greedy``; required by ``greedy``).
    algorithm : {"astar", "dijkstra", "greedy", "bfs"}
        The search.
    **options
        ``weight, tie_break, seed, max_expansions, max_cost, partial, record`` as the
        algorithm takes them, and the generic search's own ``closed`` (and
        ``max_depth`` for ``bfs``).

    Returns
    -------
    PathResult

    Examples
    --------
    >>> from pathcraft.search import find_path
    >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 5]
    >>> find_path(0, 4, line, algorithm="bfs").path
    [0, 1, 2, 3, 4]
    >>> find_path(0, 4, line, algorithm="bfs", weight=2.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pathcraft._options.UnsupportedOptionError: search.find_path(algorithm='bfs') does not ...
    """
    opts = _prepare(neighbors, heuristic, algorithm, options)
    bloom = _bloom(opts)
    if goal is None and algorithm != "dijkstra":
        raise ValueError("goal must be a node or a predicate is_goal(node) -> bool; got None")
    if goal is None and bloom is not None:
        raise ValueError(
            'closed="bloom" needs a goal: dijkstra(goal=None) returns the cost of every '
            'settled node, which a Bloom filter cannot keep; use closed="exact"'
        )
    return _run(start, goal, neighbors, heuristic, _Settings.of(opts), bloom)


# --------------------------------------------------------------------------- public

_SHARED_PARAMS = """
    max_expansions : int or None
        Expand at most this many nodes (the goal counts when it is expanded); when the
        limit is hit the result is falsy with ``reason="max_expansions"``.
    max_cost : float or None
        Never reach a node whose cost from the start exceeds this; when that is what
        kept the goal out of reach the result is falsy with ``reason="max_cost"``.
    record : bool
        Keep every expanded node and its g in expansion order in ``result.explored``
        (for pictures). It costs nothing when off.
    closed : {"exact", "bloom"} or BloomClosed
        ``"exact"`` (default) remembers every reached node. ``"bloom"`` remembers only
        the open nodes exactly and the expanded ones in a scalable Bloom filter (the
        ``bloom`` extra), for state spaces too large to keep: on a large lattice search
        it peaked at about 21 bytes per expanded node against about 350 for the exact
        set, and took 1.7x as long (``bench/results/generic_search.md``).
        **What it can cost:** a node wrongly taken for an expanded one is never
        reached through that edge, so a returned path may be longer than optimal, and
        a goal whose every route passes such a node is reported unreachable. Such a
        false positive has a probability of at most the filter's error rate per test,
        but is certain for two nodes with equal ``hash()``: in CPython ``-1`` and
        ``-2``, and so ``(x, -1)`` and ``(x, -2)``; give ``BloomClosed(key=...)`` a key
        that keeps them apart for lattices around the origin. Expanded nodes are
        never reopened, so with an inconsistent heuristic the path may also be longer.
        ``record=True`` keeps every expanded node again.
"""

_RETURNS_RAISES = """
Returns
    -------
    PathResult
        Truthy with ``path`` (start to goal, both included) and ``cost`` when the goal
        was reached; falsy with ``reason`` otherwise. Never raises for "no path".

    Raises
    ------
    TypeError
        ``neighbors`` or ``heuristic`` is not callable, or an option has the wrong type;
        ``start`` or ``goal`` is not hashable, or ``neighbors(node)`` gave a neighbor
        that is not (naming the node and the neighbor, during the search).
    ValueError
        An unknown option value; ``weight < 1``; a negative, NaN or infinite step cost
        (naming the edge) or a negative or NaN heuristic value (naming the node), found
        during the search. An exception raised by a callback propagates unchanged.
"""


def _fill_doc(func: F) -> F:
    """Put the shared parameter, return and raise sections into a docstring."""
    doc = func.__doc__ or ""
    doc = doc.replace("    {shared}", _SHARED_PARAMS.strip("\n"))
    # A blank line after the sections, before the docstring's own Examples section.
    doc = doc.replace("{returns}\n", _RETURNS_RAISES.lstrip("\n") + "\n")
    func.__doc__ = doc
    return func


@_fill_doc
def astar(
    start: Any,
    goal: Goal,
    neighbors: Neighbors,
    heuristic: Heuristic | None = None,
    **options: Unpack[_Keywords],
) -> PathResult:
    """A* search from ``start`` to ``goal``; weighted A* when ``weight > 1``.

    Parameters
    ----------
    start : hashable
        The first node.
    goal : hashable or callable
        The node to reach, or a predicate ``is_goal(node) -> bool`` (any callable is
        taken for a predicate).
    neighbors : callable
        ``neighbors(node)`` yields ``(neighbor, step_cost)`` pairs; costs are finite
        and >= 0.
    heuristic : callable or None
        ``heuristic(node)`` estimates the cost from ``node`` to the goal; >= 0, ``inf``
        for a node known not to reach it. With an admissible heuristic (never above the
        true cost) the path is optimal; None means 0 (Dijkstra's order).
    weight : float
        ``>= 1``; the priority is ``g + weight * h`` and the returned cost is at most
        ``weight`` times the optimal cost (with an admissible heuristic: a node reached
        more cheaply after its expansion is expanded again, as the bound then needs;
        the compiled worlds, whose own heuristics are consistent, never do that).
    tie_break : {"g", "fifo", "random"}
        Among equal priorities: ``"g"`` (default) prefers the larger g (fewer
        expansions, deterministic); ``"fifo"`` the first pushed; ``"random"`` picks at
        random, reproducibly for a given ``seed``, so agents vary their paths.
    seed : int or None
        Seed of the ``"random"`` tie-breaking.
    partial : bool
        When the goal is not reached, return in ``path`` the way to the expanded node
        with the smallest heuristic (the closest to the goal); the result stays falsy.
    {shared}
    {returns}
    Examples
    --------
    A line of five nodes where every step costs 2:

    >>> from pathcraft.search import astar
    >>> line = lambda n: [(m, 2.0) for m in (n - 1, n + 1) if 0 <= m < 5]
    >>> result = astar(0, 4, line, heuristic=lambda n: 2.0 * (4 - n))
    >>> result.path, result.cost, result.expanded
    ([0, 1, 2, 3, 4], 8.0, 5)

    Limits end a search with a falsy result, and ``partial`` keeps the best prefix:

    >>> stopped = astar(0, 4, line, lambda n: 2.0 * (4 - n), max_expansions=2, partial=True)
    >>> bool(stopped), stopped.reason, stopped.path
    (False, 'max_expansions', [0, 1])

    A negative step cost is an error that names the edge:

    >>> astar(0, 4, lambda n: [(n + 1, -1.0)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: neighbors(0) gave step cost -1.0 for the edge 0 -> 1; step costs must be ...
    """
    return find_path(start, goal, neighbors, heuristic, algorithm="astar", **options)


@_fill_doc
def dijkstra(
    start: Any, goal: Goal, neighbors: Neighbors, **options: Unpack[_Keywords]
) -> PathResult:
    """Dijkstra's search: the cheapest path to ``goal``, or to every reachable node.

    Parameters
    ----------
    start : hashable
        The first node.
    goal : hashable, callable or None
        The node to reach, a predicate ``is_goal(node) -> bool``, or None to settle
        every node reachable from ``start`` (within ``max_cost``, if given). With None
        the result's ``distances`` maps every settled node to its cost, ``path_to(node)``
        gives its path, ``path`` is empty, and ``found`` is True once the search ran out
        of nodes (False with ``reason="max_expansions"`` if that limit stopped it).
    neighbors : callable
        ``neighbors(node)`` yields ``(neighbor, step_cost)`` pairs; costs are finite
        and >= 0.
    tie_break : {"g", "fifo", "random"}
        As in :func:`astar`.
    seed : int or None
        Seed of the ``"random"`` tie-breaking.
    {shared}
    {returns}
    Examples
    --------
    >>> from pathcraft.search import dijkstra
    >>> roads = {"a": [("b", 4.0), ("c", 1.0)], "c": [("b", 1.0)], "b": [("d", 1.0)]}
    >>> nbrs = lambda n: roads.get(n, [])
    >>> dijkstra("a", "d", nbrs).path
    ['a', 'c', 'b', 'd']
    >>> everything = dijkstra("a", None, nbrs)
    >>> dict(everything.distances), everything.path_to("b")
    ({'a': 0.0, 'c': 1.0, 'b': 2.0, 'd': 3.0}, ['a', 'c', 'b'])
    """
    return find_path(start, goal, neighbors, algorithm="dijkstra", **options)


@_fill_doc
def greedy(
    start: Any,
    goal: Goal,
    neighbors: Neighbors,
    heuristic: Heuristic,
    **options: Unpack[_Keywords],
) -> PathResult:
    """Greedy best-first search: always expand the node that looks closest to the goal.

    Fast on open maps and usually far from optimal: the priority is the heuristic
    alone, and a node keeps the parent it was first reached from. ``cost`` is the
    real cost of the path found.

    Parameters
    ----------
    start, goal, neighbors, tie_break, seed, partial
        As in :func:`astar`.
    heuristic : callable
        ``heuristic(node)`` estimates the cost from ``node`` to the goal; required.
    {shared}
    {returns}
    Examples
    --------
    >>> from pathcraft.search import greedy
    >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]
    >>> result = greedy(0, 9, line, heuristic=lambda n: 9 - n)
    >>> result.cost, result.expanded
    (9.0, 10)
    """
    return find_path(start, goal, neighbors, heuristic, algorithm="greedy", **options)


@_fill_doc
def bfs(
    start: Any, goal: Goal, neighbors: Neighbors, **options: Unpack[_Keywords]
) -> PathResult:
    """Breadth-first search: the path with the fewest steps, whatever they cost.

    Step costs are still checked and summed: ``cost`` is the real cost of the path,
    which need not be the cheapest. ``explored.g`` holds step counts.

    Parameters
    ----------
    start, goal, neighbors, seed
        As in :func:`astar`.
    tie_break : {"fifo", "random"}
        Which of the equally short paths is returned: the first found (default), or
        one picked at random, reproducibly for a given ``seed``.
    max_expansions : int or None
        As in :func:`astar`.
    max_depth : int or None
        Never go more than this many steps from the start; when that kept the goal out
        of reach the result is falsy with ``reason="max_depth"``.
    record, closed
        As in :func:`astar`.
    {returns}
    Examples
    --------
    >>> from pathcraft.search import bfs
    >>> edges = {0: [(1, 1.0), (2, 10.0)], 1: [(3, 1.0)], 3: [(2, 1.0)]}
    >>> result = bfs(0, 2, lambda n: edges.get(n, []))
    >>> result.path, result.cost
    ([0, 2], 10.0)
    """
    return find_path(start, goal, neighbors, algorithm="bfs", **options)


class SlicedSearch:
    """A search a game loop spreads over frames: ``step(n)`` expands at most n nodes.

    The same engine as :func:`astar`, :func:`dijkstra`, :func:`greedy` and :func:`bfs`
    (those are one unlimited step of it), so a search cut into slices of any size
    expands the same nodes in the same order and returns exactly the blocking call's
    result. All state (open list, costs, parents) lives in the object; the graph is
    never changed. Grids, graphs, waypoint graphs and navigation meshes have compiled
    sliced searches with the same interface (``world.start_search(...)``); this one
    serves any graph given by callables.

    A ``neighbors`` or ``heuristic`` callback that raises fails the search for good:
    the error reaches the caller of that :meth:`step`, the status becomes ``"failed"``
    and later steps raise RuntimeError (never a wrong ``"unreachable"``). A search
    pickles, in progress or ended, when its callbacks and nodes do.

    Parameters
    ----------
    start, goal, neighbors, heuristic
        As in :func:`astar`; ``goal`` may be None only for ``algorithm="dijkstra"``
        (settle every reachable node).
    algorithm : {"astar", "dijkstra", "greedy", "bfs"}
        Which search to run. Options are checked as :func:`find_path` checks them: one
        the algorithm does not take (``weight`` and ``partial`` for Dijkstra and BFS, a
        heuristic for Dijkstra and BFS) must keep its default, or it is refused by
        :class:`~pathcraft._options.UnsupportedOptionError`. For BFS, ``max_cost`` is
        the depth limit (``max_depth``).
    weight, tie_break, seed, max_expansions, max_cost, partial, record
        As in :func:`astar`. ``max_expansions`` bounds the whole search; the per-slice
        bound is the argument of :meth:`step`. The approximate ``closed="bloom"`` set is
        not offered here (its search is not sliced).

    Raises
    ------
    TypeError, ValueError
        As :func:`astar` does, for the same arguments.

    Examples
    --------
    >>> from pathcraft.search import SlicedSearch, astar
    >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 100]
    >>> search = SlicedSearch(0, 99, line, lambda n: 99 - n)
    >>> search.step(40), search.expanded
    ('in_progress', 40)
    >>> while search.step(40) == "in_progress":
    ...     pass
    >>> search.status, search.result.cost == astar(0, 99, line, lambda n: 99 - n).cost
    ('found', True)
    """

    __slots__ = ("_search",)

    def __init__(
        self,
        start: Any,
        goal: Goal,
        neighbors: Neighbors,
        heuristic: Heuristic | None = None,
        *,
        algorithm: Algorithm = "astar",
        weight: float = 1.0,
        tie_break: str = "g",
        seed: Any = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
    ) -> None:
        given: dict[str, Any] = {
            "tie_break": tie_break, "seed": seed, "max_expansions": max_expansions,
            "record": record,
        }  # fmt: skip
        # weight and partial count as given when not at their defaults (Dijkstra and
        # BFS refuse them by name) and, for the algorithms that take them, always
        if algorithm == "astar" or weight != 1.0:
            given["weight"] = weight
        if algorithm in ("astar", "greedy") or partial is not False:
            given["partial"] = partial
        if algorithm == "bfs":
            given["max_depth"] = max_cost
            if tie_break == "g":
                given["tie_break"] = "fifo"  # BFS's default: its order has no g to prefer
        else:
            given["max_cost"] = max_cost
        opts = _prepare(neighbors, heuristic, algorithm, given)
        if goal is None and algorithm != "dijkstra":
            raise ValueError("goal must be a node or a predicate is_goal(node) -> bool; got None")
        check_nodes(start, goal)
        h_start = 0.0 if heuristic is None else heuristic(start)
        if not h_start >= 0.0:
            raise bad_heuristic(start, h_start)
        self._search = _Search(start, h_start, goal, neighbors, heuristic, _Settings.of(opts))

    def step(self, max_expansions: int | None = None) -> Status:
        """Expand at most ``max_expansions`` nodes (None: until the search ends).

        Returns ``"in_progress"``, ``"found"`` (then :attr:`result` holds the path) or
        the reason the search ended without its goal, as :attr:`PathResult.reason`
        spells it (``"unreachable"``, ``"max_expansions"``, ``"max_cost"``,
        ``"max_depth"``); ``"cancelled"`` after :meth:`cancel`. Stepping an ended
        search returns its status again and does nothing.

        Raises
        ------
        RuntimeError
            A callback raised at an earlier step (the search failed).

        Examples
        --------
        >>> from pathcraft.search import SlicedSearch
        >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]
        >>> search = SlicedSearch(0, 9, line, lambda n: 9 - n)
        >>> search.step(4), search.step(4), search.step(4), search.expanded
        ('in_progress', 'in_progress', 'found', 10)
        >>> search.step(4), search.result.cost  # an ended search stays as it is
        ('found', 9.0)
        >>> SlicedSearch(0, 42, line).step()  # 42 is not on the line
        'unreachable'
        """
        budget = check_budget(max_expansions)
        return cast(Status, self._search.step(-1 if budget is None else budget))

    @property
    def status(self) -> Status:
        """The status the last :meth:`step` returned (``"in_progress"`` before any;
        ``"failed"`` once a callback raised)."""
        return cast(Status, self._search.status)

    @property
    def expanded(self) -> int:
        """How many nodes have been expanded so far, over all slices."""
        return int(self._search.expanded)

    @property
    def result(self) -> PathResult:
        """The result, exactly the blocking search's; only once the search ended.

        Raises
        ------
        RuntimeError
            The search is in progress, was cancelled or failed.
        """
        return self._search.result()

    def cancel(self) -> None:
        """Stop the search for good (status ``"cancelled"``) and drop its state.

        Examples
        --------
        >>> from pathcraft.search import SlicedSearch
        >>> line = lambda n: [(n + 1, 1.0)]
        >>> search = SlicedSearch(0, 100, line)
        >>> search.step(5)
        'in_progress'
        >>> search.cancel()
        >>> search.status
        'cancelled'
        """
        self._search.cancel()
