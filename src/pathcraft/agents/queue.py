"""A path-request queue: many agents' searches served a fixed budget per frame, in
order of first request, so that no request starves however often it is renewed.

One idea in one file, longer than most: about 240 of its lines are the docstrings and
their runnable examples (each public method has one); the queue's code is the rest.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Iterable
from time import perf_counter
from typing import Any, Protocol

import numpy as np

from pathcraft._sliced import WorldChangedError
from pathcraft.agents._budget import FrameBudget, check_budgets
from pathcraft.result import PathResult

__all__ = ["PathRequestQueue", "Steppable"]


class Steppable(Protocol):
    """What the queue runs: a world's compiled ``start_search(...)``,
    :class:`pathcraft.search.SlicedSearch`, or any look-alike."""

    @property
    def expanded(self) -> int: ...

    @property
    def result(self) -> PathResult: ...

    def step(self, max_expansions: int | None = None) -> str: ...

    def cancel(self) -> None: ...


class _Request:
    """One queued request: its place (``ticket``, the order of first request), what
    :meth:`PathRequestQueue.request` was asked (``world`` None: a search submitted),
    and its search (None until it is served: a renewed request costs no search)."""

    __slots__ = ("goal", "options", "search", "start", "ticket", "world")

    def __init__(
        self, ticket: int, search: Steppable | None, world: Any, start: Any, goal: Any,
        options: dict[str, Any],
    ) -> None:  # fmt: skip
        self.reset(ticket, search, world, start, goal, options)

    def reset(
        self, ticket: int, search: Steppable | None, world: Any, start: Any, goal: Any,
        options: dict[str, Any],
    ) -> None:  # fmt: skip
        """Make it a new request (a finished one is used again: see ``_SPARE``)."""
        self.ticket = ticket
        self.search = search
        self.world = world
        self.start = start
        self.goal = goal
        self.options = options

    @property
    def started(self) -> bool:
        """Its search is under way (served at least one expansion)."""
        search = self.search
        return search is not None and search.expanded > 0

    def renew(
        self, search: Steppable | None, world: Any, start: Any, goal: Any,
        options: dict[str, Any],
    ) -> None:  # fmt: skip
        """Ask it anew before it is served (a search made for the old ask is
        cancelled)."""
        if self.search is not None:
            _stop(self.search)
        self.search, self.world, self.start, self.goal = search, world, start, goal
        self.options = options

    def asks(self, world: Any, start: Any, goal: Any, options: dict[str, Any]) -> bool:
        """Whether it asks exactly this (cells may be tuples, lists or arrays)."""
        if world is not self.world or world is None:
            return False
        try:
            return (
                _same(start, self.start)
                and _same(goal, self.goal)
                and bool(options == self.options)
            )
        except (TypeError, ValueError):
            return False


class PathRequestQueue:
    """Serve many path requests a fixed budget of work per frame, oldest request first.

    Each :meth:`update` gives the oldest pending search as many expansions as it needs,
    then the next, until the frame's budget is spent; a search that is cut off goes on
    from where it stopped at the next update. Requests are served in order of **first
    request**: asking again under a pending key never sends it to the back, so no
    request starves however often its agent renews it.

    - A request not yet served that is asked again is updated in its place. Its search
      is started only when it is served: a renewed request on a world and options the
      queue has seen, with start and goal given as the world's agents' space gives
      nodes (``(row, col)`` tuples of ints on a grid), costs about a microsecond and
      no search; :meth:`request_many` renews many agents' requests of one goal.
    - A request whose search is under way is never restarted by a new goal: that
      search is finished and delivered (its path runs from the start to the goal it
      was started with: ``result.path[0]``, ``result.path[-1]``), and the newest
      request (goal, start, options) is served next, in order of the moment it was
      first asked (behind requests older than it, ahead of younger ones). An agent
      that walks on meanwhile asks from where it will be when the answer comes, and
      walks the search's best partial path (:meth:`best_so_far`) or a short glimpse
      toward its goal while it has none.
    - Asked again with the very request pending, nothing changes (a goal asked
      meanwhile is dropped: the pending search answers the newest request).

    Bound: a request that needs E expansions, with W expansions of older requests ahead
    of it, is delivered within ``ceil((W + E) / budget) + 1`` updates of being asked; a
    lone agent renewing its request every frame gets a path every
    ``ceil(E / budget) + 1`` updates at worst.

    :meth:`request` starts the world's compiled sliced search (``world.start_search``:
    grids, graphs, waypoint graphs, navigation meshes), whose steps run with the GIL
    released; :meth:`submit` queues any search already started, such as a
    :class:`~pathcraft.search.SlicedSearch` over callables.

    A grid or graph edited while a request's search is under way would give an answer
    mixing two maps: a :meth:`request` then starts again on the edited world, keeping
    its place in the queue (finished as unreachable if its start or goal became a
    wall); a search given to :meth:`submit` leaves the queue and its
    ``RuntimeError`` reaches the caller.

    Parameters
    ----------
    budget : int or None
        Node expansions per :meth:`update` (per frame) for all requests together, >= 1;
        None: no limit in expansions (then ``time_budget_us`` is the limit).
    time_budget_us : float or None
        Microseconds of the queue's work per frame, > 0: the requests made since the
        last :meth:`update` count against it, and the update steps searches in small
        slices until the rest is used (a frame overruns it by at most one slice and
        the answer of a search that ended, and always runs a first slice, at least 8
        expansions, so every request still ends). None: no limit in time.

    Raises
    ------
    ValueError
        Neither budget is given, or one is out of range.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import PathRequestQueue
    >>> grid = Grid.from_ascii("." * 50, diagonal="never")
    >>> queue = PathRequestQueue(budget=30)
    >>> queue.request("orc", grid, (0, 0), (0, 20))
    >>> queue.request("elf", grid, (0, 49), (0, 30))
    >>> sorted(queue.update())  # 21 expansions for the orc, 9 for the elf
    ['orc']
    >>> done = queue.update()
    >>> done["elf"].path[:3].tolist(), len(queue)
    ([[0, 49], [0, 48], [0, 47]], 0)

    Any graph given by callables, through the generic engine:

    >>> from pathcraft.search import SlicedSearch
    >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 50]
    >>> queue.submit("imp", SlicedSearch(0, 20, line, lambda n: abs(20 - n)))
    >>> queue.update()["imp"].cost
    20.0
    """

    __slots__ = (
        "_asking", "_budget", "_keys", "_known", "_next", "_order", "_pending", "_spare",
        "_tickets",
    )  # fmt: skip

    def __init__(self, budget: int | None = None, *, time_budget_us: float | None = None) -> None:
        expansions, micro = check_budgets("budget", budget, time_budget_us)
        if expansions is None and micro is None:
            raise ValueError(
                "budget must be an integer >= 1 (expansions per update), or give "
                "time_budget_us; got neither"
            )
        self._budget = FrameBudget(expansions, micro)
        self._tickets = itertools.count()
        self._pending: dict[Hashable, _Request] = {}  # by key: the search served now
        self._next: dict[Hashable, _Request] = {}  # by key: asked while that one runs
        # Tickets in a heap, their keys apart (stale ones skipped): a renewal in a game
        # loop allocates no object the cyclic garbage collector counts (see _SPARE).
        self._order: list[int] = []
        self._keys: dict[int, Hashable] = {}
        self._spare: list[_Request] = []  # finished requests, to be used again
        # by id(world): (world, its agents' node check, options its start_search took,
        # the check of many nodes at once or None)
        self._known: dict[int, tuple[Any, Any, list[dict[str, Any]], Any]] = {}
        self._asking = 0.0  # seconds spent in requests since the last update

    @property
    def budget(self) -> int | None:
        """Node expansions per :meth:`update` (None: only a time budget)."""
        return self._budget.expansions

    @property
    def time_budget_us(self) -> float | None:
        """Microseconds per :meth:`update` (None: only a budget in expansions)."""
        return self._budget.time_us

    def request(self, key: Hashable, world: Any, start: Any, goal: Any, **options: Any) -> None:
        """Queue a search on ``world`` (anything with ``start_search``: a Grid, Graph,
        WaypointGraph or NavMesh) under ``key``; ``options`` (``algorithm=`` among
        them) are the world's ``start_search`` options, checked now: ``snap=True``
        (grids and navigation meshes) moves a start or goal on a wall or off the map to
        the nearest walkable cell or point, as the world's ``find_path`` does.

        Under a key already pending, the request keeps its place in the queue (see the
        class: updated if not yet served, else served next, after the search under
        way is delivered).

        With ``reservations=`` a :class:`pathcraft.mapf.Reservations` over ``world``,
        the request is a booking of the unit ``key`` in that shared table (units that
        never collide; :meth:`~pathcraft.mapf.Reservations.start_booking`): ``key``
        holds ``start`` from now if it holds nothing yet, and when served it is booked
        a plan toward ``goal`` for the table's next ``window`` steps, from where its
        booking puts it then; the result's path is its place at every time step from
        the table's clock on (waits repeat a place). A booking runs whole when served
        (about ``window`` expansions when nothing is in its way). The only other
        option is ``max_expansions``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("......")
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.request("orc", grid, (0, 0), (0, 5), algorithm="dijkstra")
        >>> queue.update()["orc"].path.tolist()[-1]
        [0, 5]
        >>> queue.request("orc", grid, (0, 0), (3, 9), snap=True)   # off the map: (0, 5)
        >>> queue.update()["orc"].path.tolist()[-1]
        [0, 5]
        >>> queue.request("orc", grid, (0, 0), (0, 5), algorithm="bfs")
        Traceback (most recent call last):
        ...
        ValueError: algorithm must be one of ...

        A goal renewed while its search runs: that search is delivered first.

        >>> queue = PathRequestQueue(budget=4)
        >>> queue.request("orc", grid, (0, 0), (0, 5))
        >>> queue.update()
        {}
        >>> queue.request("orc", grid, (0, 0), (0, 4))    # the player moved
        >>> [r.path[-1].tolist() for r in queue.update().values()]
        [[0, 5]]
        >>> [r.path[-1].tolist() for r in queue.update().values()]
        [[0, 4]]

        Units booking in a shared reservation table (the elf follows the orc a step
        behind; the orc holds its goal):

        >>> from pathcraft.mapf import Reservations
        >>> line = Grid.from_ascii("....", diagonal="never")
        >>> table = Reservations(line, window=4)
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.request("orc", line, (0, 1), (0, 3), reservations=table)
        >>> queue.request("elf", line, (0, 0), (0, 2), reservations=table)
        >>> {k: r.path.tolist() for k, r in sorted(queue.update().items())}
        {'elf': [[0, 0], [0, 1], [0, 2]], 'orc': [[0, 1], [0, 2], [0, 3]]}
        """
        t0 = perf_counter()
        check = self._check(world, options)
        checked = check is not None and _as_is(check, start) and _as_is(check, goal)
        self._ask(key, world, start, goal, options, checked)
        self._asking += perf_counter() - t0

    def request_many(
        self, keys: Iterable[Hashable], world: Any, starts: Iterable[Any], goal: Any,
        **options: Any,
    ) -> None:  # fmt: skip
        """:meth:`request` for many agents chasing one ``goal`` (a player): the
        request of ``keys[i]`` from ``starts[i]``, the goal and options checked once.

        Raises
        ------
        ValueError
            ``keys`` and ``starts`` of different lengths, or a bad start, goal or
            option (as :meth:`request` raises them; the requests before it are made).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("......")
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.request_many(["orc", "elf"], grid, [(0, 0), (0, 1)], (0, 5))
        >>> {k: r.cost for k, r in sorted(queue.update().items())}
        {'elf': 4.0, 'orc': 5.0}
        """
        t0 = perf_counter()
        keys, starts = list(keys), list(starts)
        if len(keys) != len(starts):
            raise ValueError(
                f"keys and starts must have the same length; got {len(keys)} keys and "
                f"{len(starts)} starts"
            )
        pending, k = self._pending, 0
        while k < len(keys):  # until the world has taken the options: each on its own
            check = self._check(world, options)
            if check is not None and _as_is(check, goal):
                break
            self._ask(keys[k], world, starts[k], goal, options, False)
            k += 1
        else:
            self._asking += perf_counter() - t0
            return
        many = self._known[id(world)][3]  # the space's check of many nodes at once
        rest = starts[k:] if k else starts
        fits = many(rest) if many is not None else [_as_is(check, s) for s in rest]
        for key, start, checked in zip(keys[k:] if k else keys, rest, fits, strict=True):
            current = pending.get(key)
            if (
                checked
                and current is not None
                and current.search is None  # waiting in line (nothing asked meanwhile)
                and current.world is world
                and current.options == options
            ):  # the common case of a game loop, kept lean: renewed in place
                current.start, current.goal = start, goal
                continue
            self._ask(key, world, start, goal, options, bool(checked))
        self._asking += perf_counter() - t0

    def _ask(
        self, key: Hashable, world: Any, start: Any, goal: Any, options: dict[str, Any],
        checked: bool,
    ) -> None:  # fmt: skip
        current = self._pending.get(key)
        if current is not None and current.started and current.asks(world, start, goal, options):
            self._drop_next(key)  # the search under way answers it
            return
        # checked: no search is made until the request is served
        search = None if checked else self._start(key, world, start, goal, options)
        self._put(key, search, world, start, goal, options)

    def _check(self, world: Any, options: dict[str, Any]) -> Any:
        """The node check of requests on ``world`` with ``options`` that need no other
        (None: the world's ``start_search`` checks them): ``options`` were taken by
        this world's ``start_search`` before, and a node the ``key`` of the world's
        agents' space gives back as it is needs no conversion (a walkable ``(row,
        col)`` tuple of ints on a grid). A re-request then costs about a
        microsecond, not a search's setup."""
        known = self._known.get(id(world))
        if known is None or known[0] is not world or not _CHECKED.isdisjoint(options):
            return None
        return known[1] if options in known[2] else None

    def _start(
        self, key: Hashable, world: Any, start: Any, goal: Any, options: dict[str, Any]
    ) -> Steppable:
        """The world's search for the request (its checks raise here), noting the
        world and options it took for :meth:`_checked`; a booking of the reservation
        table given as ``reservations=``."""
        if options.get("reservations") is not None:
            return _booking(key, world, start, goal, options)
        start_search = getattr(world, "start_search", None)
        if not callable(start_search):
            raise TypeError(
                "world must have start_search() (a Grid, Graph, WaypointGraph or "
                f"NavMesh); got {type(world).__name__}: submit() a SlicedSearch instead"
            )
        search: Steppable = start_search(start, goal, **options)
        known = self._known.get(id(world))
        if known is None or known[0] is not world:
            if len(self._known) >= _WORLDS:
                self._known.clear()
            known = self._known[id(world)] = (world, *_node_check(world))
        if options not in known[2] and len(known[2]) < _WORLDS:
            known[2].append(dict(options))
        return search

    def submit(self, key: Hashable, search: Steppable) -> None:
        """Queue ``search`` under ``key``. Under a key already pending it keeps the
        request's place: it replaces (and cancels) a search not yet served; a search
        under way is finished and delivered first, then ``search`` is served in order
        of when it was submitted.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("......", diagonal="never")
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.submit("orc", grid.start_search((0, 0), (0, 5)))
        >>> queue.submit("orc", grid.start_search((0, 0), (0, 2)))  # replaces the first
        >>> len(queue), queue.update()["orc"].cost
        (1, 2.0)
        """
        if not callable(getattr(search, "step", None)) or not hasattr(type(search), "result"):
            raise TypeError(
                "search must have step() and result (a SlicedSearch or a world's "
                f"start_search()); got {search!r}"
            )
        self._put(key, search, None, None, None, {})

    def _put(
        self, key: Hashable, search: Steppable | None, world: Any, start: Any, goal: Any,
        options: dict[str, Any],
    ) -> None:  # fmt: skip
        current = self._pending.get(key)
        if current is None:
            ticket = next(self._tickets)
            self._queue(key, self._request(ticket, search, world, start, goal, options))
        elif not current.started:  # not served yet: updated in its place
            current.renew(search, world, start, goal, options)
            self._drop_next(key)
        else:  # under way: delivered first, then this one by its own first request
            follow = self._next.get(key)
            if follow is None:
                ticket = next(self._tickets)
                self._next[key] = self._request(ticket, search, world, start, goal, options)
            else:
                follow.renew(search, world, start, goal, options)

    def _request(
        self, ticket: int, search: Steppable | None, world: Any, start: Any, goal: Any,
        options: dict[str, Any],
    ) -> _Request:  # fmt: skip
        """A new request: a finished one used again where there is one."""
        if self._spare:
            request = self._spare.pop()
            request.reset(ticket, search, world, start, goal, options)
            return request
        return _Request(ticket, search, world, start, goal, options)

    def _queue(self, key: Hashable, request: _Request) -> None:
        self._pending[key] = request
        self._keys[request.ticket] = key
        heapq.heappush(self._order, request.ticket)

    def _drop_next(self, key: Hashable) -> None:
        follow = self._next.pop(key, None)
        if follow is not None and follow.search is not None:
            _stop(follow.search)

    def cancel(self, key: Hashable) -> bool:
        """Drop (and cancel) the pending request under ``key``, with the goal asked
        while it ran; whether there was one.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("......")
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.request("orc", grid, (0, 0), (0, 5))
        >>> queue.cancel("orc"), queue.cancel("orc"), "orc" in queue, queue.update()
        (True, False, False, {})
        """
        self._drop_next(key)
        current = self._pending.pop(key, None)
        if current is None:
            return False
        if current.search is not None:
            _stop(current.search)  # a compiled search gives its workspace back
        return True

    def best_so_far(self, key: Hashable) -> PathResult | None:
        """The best partial path of the request under ``key`` while its search is
        under way: the search's :meth:`~pathcraft.CompiledSearch.best_so_far` (a path
        from the request's start toward the node it reached closest to its goal,
        falsy, ``reason="max_expansions"``), what its agent walks meanwhile.

        None when there is none to tell: no request under ``key``, its search not
        served yet (waiting in line), or of a kind that does not tell one (asked
        without ``partial=True``, graphs, navigation meshes: see
        the world's ``start_search``). An agent given None can walk a short glimpse
        toward its goal meanwhile (a blocking search of a few expansions with
        ``partial=True``, such as ``grid.find_path(here, goal, algorithm="greedy",
        max_expansions=16, partial=True)``: legal steps, possibly none).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("." * 12, diagonal="never")
        >>> queue = PathRequestQueue(budget=4)
        >>> queue.request("orc", grid, (0, 0), (0, 11), algorithm="astar", partial=True)
        >>> queue.best_so_far("orc") is None    # waiting in line
        True
        >>> queue.update()
        {}
        >>> queue.best_so_far("orc").path.tolist()
        [[0, 0], [0, 1], [0, 2], [0, 3]]
        """
        current = self._pending.get(key)
        if current is None or current.search is None:
            return None
        tell = getattr(current.search, "best_so_far", None)
        if not callable(tell):
            return None
        best: PathResult | None = tell()
        return best

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, key: object) -> bool:
        return key in self._pending

    def _head(self) -> tuple[Hashable, _Request] | None:
        """The oldest pending request (entries of dropped requests are skipped)."""
        order, keys = self._order, self._keys
        while order:
            ticket = order[0]
            key = keys[ticket]
            current = self._pending.get(key)
            if current is not None and current.ticket == ticket:
                return key, current
            heapq.heappop(order)
            del keys[ticket]
        return None

    def _finish(self, key: Hashable) -> None:
        """The request under ``key`` left the queue; a goal asked meanwhile takes its
        turn by the order of its own first request. The request is kept to be used
        again (its ticket is never given again: its stale heap entry is skipped)."""
        request = self._pending.pop(key)
        if len(self._spare) < _SPARE:
            request.reset(-1, None, None, None, None, {})
            self._spare.append(request)
        follow = self._next.pop(key, None)
        if follow is not None:
            self._queue(key, follow)

    def update(self) -> dict[Hashable, PathResult]:
        """Spend one frame's budget; return the requests that finished, by key.

        Every returned result is exactly what the blocking search would return; a
        finished request leaves the queue. A search that raises (a callback of a
        :class:`~pathcraft.search.SlicedSearch`) leaves the queue and its error reaches
        the caller; the other requests stay queued.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("." * 10, diagonal="never")
        >>> queue = PathRequestQueue(budget=4)
        >>> queue.request("orc", grid, (0, 0), (0, 9))  # 10 expansions
        >>> queue.update(), queue.update(), "orc" in queue
        ({}, {}, True)
        >>> queue.update()["orc"].cost, len(queue)
        (9.0, 0)
        """
        budget = self._budget
        budget.start(self._asking, now=True)
        self._asking = 0.0
        done: dict[Hashable, PathResult] = {}
        while not budget.spent:
            head = self._head()
            if head is None:
                break
            key, current = head
            search = current.search
            if search is None:  # its turn: the search starts now
                search = current.search = _again(current)
                if search is None:  # its start or goal became a wall meanwhile
                    self._finish(key)
                    done[key] = PathResult.not_found("unreachable")
                    continue
            try:
                status = budget.run(search)
            except WorldChangedError:
                if current.world is None:  # submitted: the caller started it
                    self._finish(key)
                    raise
                again = _again(current)
                if again is None:  # its start or goal is a wall now
                    self._finish(key)
                    done[key] = PathResult.not_found("unreachable")
                else:
                    current.search = again  # the same place in the queue
                continue
            except BaseException:
                self._finish(key)
                raise
            if status == "in_progress":
                break  # the budget is spent (or the search expands nothing: no spin)
            self._finish(key)
            if status != "cancelled":
                done[key] = search.result
        return done


#: Worlds (and option sets per world) a queue remembers as checked.
_WORLDS = 8
#: Finished requests a queue keeps to use again. Agents renewing their requests every
#: few frames would otherwise make a request object each time: hundreds a frame, and
#: Python's cyclic garbage collector, which counts them, then runs inside
#: ``request_many`` (2-5 ms a collection in ``bench/game_loop.py``'s 1,000 agents).
_SPARE = 4096
#: Options under which the agents' space's node check is not the search's: a start or
#: goal moved to the nearest walkable node, a unit of several cells.
_CHECKED = frozenset({"snap", "size", "reservations"})


def _booking(
    key: Hashable, world: Any, start: Any, goal: Any, options: dict[str, Any]
) -> Steppable:
    """A booking of ``key`` from the table ``options["reservations"]``
    (:meth:`pathcraft.mapf.Reservations.start_booking`), to be stepped like a search."""
    table = options["reservations"]
    if not callable(getattr(table, "start_booking", None)):
        raise TypeError(
            f"reservations must be a pathcraft.mapf.Reservations; got {type(table).__name__}"
        )
    if table.world is not world:
        raise ValueError("reservations must be a table over the world the request is on")
    other = sorted(set(options) - {"reservations", "max_expansions"})
    if other:
        raise ValueError(
            f"with reservations, the one other option is max_expansions; got {other}"
        )
    search: Steppable = table.start_booking(
        key, start, goal, max_expansions=options.get("max_expansions")
    )
    return search


def _again(request: _Request) -> Steppable | None:
    """A fresh search for a request: at its turn, or after its world was edited under
    it (None when its start or goal is a wall now)."""
    try:
        search: Steppable = request.world.start_search(
            request.start, request.goal, **request.options
        )
    except ValueError:
        return None
    return search


def _node_check(world: Any) -> tuple[Any, list[dict[str, Any]], Any]:
    """The ``key`` of ``world``'s agents' space (None for a world without one), an
    empty list of options, and the space's ``open_nodes`` (which of many nodes its
    ``key`` returns as they are, at once; None for a space without it)."""
    try:
        space = world.agent_space()
    except Exception:  # no agents' space: every request takes the world's checks
        return None, [], None
    return space.key, [], getattr(space, "open_nodes", None)


def _as_is(key: Any, node: Any) -> bool:
    """``node`` is a node exactly as the space's ``key`` gives it back (nothing to
    convert or snap; a wall, a bad node: False, the world's own checks say why)."""
    try:
        return key(node) is node
    except (TypeError, ValueError):
        return False


def _stop(search: Steppable) -> None:
    stop = getattr(search, "cancel", None)
    if callable(stop):
        stop()  # a compiled search gives its workspace back


def _same(a: Any, b: Any) -> bool:
    """Whether two nodes are the same (tuples, lists or arrays)."""
    if type(a) is tuple and type(b) is tuple:
        return a == b
    return bool(np.array_equal(a, b))
