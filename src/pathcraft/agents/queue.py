"""A path-request queue: many agents' searches served a fixed budget per frame, in
order of first request, so that no request starves however often it is renewed."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
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
    """One queued search: its place (``ticket``, the order of first request), the
    search, and what :meth:`PathRequestQueue.request` was asked (None: submitted)."""

    __slots__ = ("asked", "search", "ticket")

    def __init__(self, ticket: int, search: Steppable, asked: Any) -> None:
        self.ticket = ticket
        self.search = search
        self.asked: tuple[Any, Any, Any, dict[str, Any]] | None = asked


class PathRequestQueue:
    """Serve many path requests a fixed budget of work per frame, oldest request first.

    Each :meth:`update` gives the oldest pending search as many expansions as it needs,
    then the next, until the frame's budget is spent; a search that is cut off goes on
    from where it stopped at the next update. Requests are served in order of **first
    request**: asking again under a pending key never sends it to the back, so no
    request starves however often its agent renews it.

    - A request not yet served that is asked again is updated in its place (its search
      is replaced before it cost anything).
    - A request whose search is under way is never restarted by a new goal: that
      search is finished and delivered (its path runs from the start to the goal it
      was started with: ``result.path[0]``, ``result.path[-1]``), and the newest
      request (goal, start, options) is served next, in order of the moment it was
      first asked (behind requests older than it, ahead of younger ones). An agent
      that walks on meanwhile asks from where it will be when the answer comes.
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
        Microseconds per :meth:`update`, > 0: searches are stepped in small slices
        until the time is used (a frame overruns it by at most one slice, and always
        runs one slice, so every request still ends). None: no limit in time.

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

    __slots__ = ("_budget", "_next", "_order", "_pending", "_tickets")

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
        self._order: list[tuple[int, Hashable]] = []  # (ticket, key), stale ones skipped

    @property
    def budget(self) -> int | None:
        """Node expansions per :meth:`update` (None: only a time budget)."""
        return self._budget.expansions

    @property
    def time_budget_us(self) -> float | None:
        """Microseconds per :meth:`update` (None: only a budget in expansions)."""
        return self._budget.time_us

    def request(
        self, key: Hashable, world: Any, start: Any, goal: Any, **options: Any
    ) -> None:
        """Queue a search on ``world`` (anything with ``start_search``: a Grid, Graph,
        WaypointGraph or NavMesh) under ``key``; ``options`` (``algorithm=`` among
        them) are the world's ``start_search`` options, checked now: ``snap=True``
        (grids and navigation meshes) moves a start or goal on a wall or off the map to
        the nearest walkable cell or point, as the world's ``find_path`` does.

        Under a key already pending, the request keeps its place in the queue (see the
        class: updated if not yet served, else served next, after the search under
        way is delivered).

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
        """
        start_search = getattr(world, "start_search", None)
        if not callable(start_search):
            raise TypeError(
                "world must have start_search() (a Grid, Graph, WaypointGraph or "
                f"NavMesh); got {type(world).__name__}: submit() a SlicedSearch instead"
            )
        asked = (world, start, goal, options)
        current = self._pending.get(key)
        if current is not None and _same(current.asked, asked):
            self._drop_next(key)  # the search pending answers it
            return
        self._put(key, start_search(start, goal, **options), asked)

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
        self._put(key, search, None)

    def _put(self, key: Hashable, search: Steppable, asked: Any) -> None:
        current = self._pending.get(key)
        if current is None:
            self._queue(key, _Request(next(self._tickets), search, asked))
        elif current.search.expanded == 0:  # not served yet: updated in its place
            _stop(current.search)
            current.search, current.asked = search, asked
            self._drop_next(key)
        else:  # under way: delivered first, then this one by its own first request
            follow = self._next.get(key)
            if follow is None:
                self._next[key] = _Request(next(self._tickets), search, asked)
            else:
                _stop(follow.search)
                follow.search, follow.asked = search, asked

    def _queue(self, key: Hashable, request: _Request) -> None:
        self._pending[key] = request
        heapq.heappush(self._order, (request.ticket, key))

    def _drop_next(self, key: Hashable) -> None:
        follow = self._next.pop(key, None)
        if follow is not None:
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
        _stop(current.search)  # a compiled search gives its workspace back
        return True

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, key: object) -> bool:
        return key in self._pending

    def _head(self) -> tuple[Hashable, _Request] | None:
        """The oldest pending request (entries of dropped requests are skipped)."""
        order = self._order
        while order:
            ticket, key = order[0]
            current = self._pending.get(key)
            if current is not None and current.ticket == ticket:
                return key, current
            heapq.heappop(order)
        return None

    def _finish(self, key: Hashable) -> None:
        """The request under ``key`` left the queue; a goal asked meanwhile takes its
        turn by the order of its own first request."""
        del self._pending[key]
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
        budget.start()
        done: dict[Hashable, PathResult] = {}
        while not budget.spent:
            head = self._head()
            if head is None:
                break
            key, current = head
            try:
                status = budget.run(current.search)
            except WorldChangedError:
                if current.asked is None:  # submitted: the caller started it
                    self._finish(key)
                    raise
                again = _again(current.asked)
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
                done[key] = current.search.result
        return done


def _again(asked: tuple[Any, Any, Any, dict[str, Any]]) -> Steppable | None:
    """A fresh search for a request whose world was edited under it (None when its
    start or goal became a wall)."""
    world, start, goal, options = asked
    try:
        search: Steppable = world.start_search(start, goal, **options)
    except ValueError:
        return None
    return search


def _stop(search: Steppable) -> None:
    stop = getattr(search, "cancel", None)
    if callable(stop):
        stop()  # a compiled search gives its workspace back


def _same(a: Any, b: Any) -> bool:
    """Whether two requests asked the same (world, start, goal, options); cells may
    be tuples, lists or arrays."""
    if a is None or b is None or a[0] is not b[0]:
        return False
    try:
        return all(np.array_equal(x, y) for x, y in zip(a[1:3], b[1:3], strict=True)) and bool(
            a[3] == b[3]
        )
    except (TypeError, ValueError):
        return False
