"""A path-request queue: many agents' searches served a fixed budget per frame."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Protocol

from pathcraft._sliced import WorldChangedError
from pathcraft._validation import check_limit
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


class PathRequestQueue:
    """Serve many path requests a fixed number of node expansions per frame.

    Requests are served first come, first served: each :meth:`update` gives the oldest
    pending search as many expansions as it needs, then the next, until the frame's
    ``budget`` is spent; a search that is cut off goes on from where it stopped at the
    next update. Finishing the oldest requests first gives the smallest average wait
    (round-robin would make every request wait as long as the slowest).

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
    budget : int
        Node expansions per :meth:`update` (per frame), >= 1.

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

    __slots__ = ("_asked", "_budget", "_pending")

    def __init__(self, budget: int) -> None:
        limit = check_limit("budget", budget, integer=True)
        if limit is None or limit < 1:
            raise ValueError(f"budget must be an integer >= 1; got {budget!r}")
        self._budget = int(limit)
        self._pending: OrderedDict[Hashable, Steppable] = OrderedDict()
        # what request() was asked, to start a search again when its world is edited
        self._asked: dict[Hashable, tuple[Any, Any, Any, dict[str, Any]]] = {}

    @property
    def budget(self) -> int:
        """Node expansions per :meth:`update`."""
        return self._budget

    def request(
        self, key: Hashable, world: Any, start: Any, goal: Any, **options: Any
    ) -> None:
        """Queue a search on ``world`` (anything with ``start_search``: a Grid, Graph,
        WaypointGraph or NavMesh) under ``key``; ``options`` (``algorithm=`` among
        them) are the world's ``start_search`` options, checked now.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import PathRequestQueue
        >>> grid = Grid.from_ascii("......")
        >>> queue = PathRequestQueue(budget=100)
        >>> queue.request("orc", grid, (0, 0), (0, 5), algorithm="dijkstra")
        >>> queue.update()["orc"].path.tolist()[-1]
        [0, 5]
        >>> queue.request("orc", grid, (0, 0), (0, 5), algorithm="bfs")
        Traceback (most recent call last):
        ...
        ValueError: algorithm must be one of ...
        """
        start_search = getattr(world, "start_search", None)
        if not callable(start_search):
            raise TypeError(
                "world must have start_search() (a Grid, Graph, WaypointGraph or "
                f"NavMesh); got {type(world).__name__}: submit() a SlicedSearch instead"
            )
        self.submit(key, start_search(start, goal, **options))
        self._asked[key] = (world, start, goal, options)

    def submit(self, key: Hashable, search: Steppable) -> None:
        """Queue ``search`` under ``key``; a pending request with that key is replaced
        (and cancelled: an agent that asks again wants only its newest path) and the
        new one goes to the back.

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
        self.cancel(key)
        self._pending[key] = search

    def cancel(self, key: Hashable) -> bool:
        """Drop (and cancel) the pending request under ``key``; whether there was one.

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
        search = self._pending.pop(key, None)
        self._asked.pop(key, None)
        if search is None:
            return False
        stop = getattr(search, "cancel", None)
        if callable(stop):
            stop()  # a compiled search gives its workspace back
        return True

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, key: object) -> bool:
        return key in self._pending

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
        left = self._budget
        done: dict[Hashable, PathResult] = {}
        while self._pending and left > 0:
            key, search = next(iter(self._pending.items()))
            before = search.expanded
            try:
                status = search.step(left)
            except WorldChangedError:
                if key not in self._asked:  # submitted: the caller started it
                    del self._pending[key]
                    raise
                again = self._again(key)
                if again is None:  # its start or goal is a wall now
                    del self._pending[key]
                    self._asked.pop(key, None)
                    done[key] = PathResult.not_found("unreachable")
                else:
                    self._pending[key] = again  # the same place in the queue
                continue
            except BaseException:
                del self._pending[key]
                self._asked.pop(key, None)
                raise
            left -= search.expanded - before
            if status == "in_progress":
                break  # the budget is spent (a search that expanded none would loop)
            del self._pending[key]
            self._asked.pop(key, None)
            if status != "cancelled":
                done[key] = search.result
        return done

    def _again(self, key: Hashable) -> Steppable | None:
        """A fresh search for a request whose world was edited under it (None when
        its start or goal became a wall)."""
        world, start, goal, options = self._asked[key]
        try:
            search: Steppable = world.start_search(start, goal, **options)
        except ValueError:
            return None
        return search
