"""A path-request queue: many agents' searches served a fixed budget per frame."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Protocol

from pathcraft._validation import check_limit
from pathcraft.result import PathResult

__all__ = ["PathRequestQueue", "Steppable"]


class Steppable(Protocol):
    """What the queue runs: :class:`pathcraft.search.SlicedSearch` or any look-alike."""

    @property
    def expanded(self) -> int: ...

    def step(self, max_expansions: int | None = None) -> str: ...

    def result(self) -> PathResult: ...


class PathRequestQueue:
    """Serve many path requests a fixed number of node expansions per frame.

    Requests are served first come, first served: each :meth:`update` gives the oldest
    pending search as many expansions as it needs, then the next, until the frame's
    ``budget`` is spent; a search that is cut off goes on from where it stopped at the
    next update. Finishing the oldest requests first gives the smallest average wait
    (round-robin would make every request wait as long as the slowest).

    Parameters
    ----------
    budget : int
        Node expansions per :meth:`update` (per frame), >= 1.

    Examples
    --------
    >>> from pathcraft.search import SlicedSearch
    >>> from pathcraft.agents import PathRequestQueue
    >>> line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 50]
    >>> queue = PathRequestQueue(budget=30)
    >>> queue.submit("orc", SlicedSearch(0, 20, line, lambda n: abs(20 - n)))
    >>> queue.submit("elf", SlicedSearch(49, 30, line, lambda n: abs(30 - n)))
    >>> sorted(queue.update())  # 21 expansions for the orc, 9 for the elf
    ['orc']
    >>> done = queue.update()
    >>> done["elf"].path[:3], len(queue)
    ([49, 48, 47], 0)
    """

    __slots__ = ("_budget", "_pending")

    def __init__(self, budget: int) -> None:
        limit = check_limit("budget", budget, integer=True)
        if limit is None or limit < 1:
            raise ValueError(f"budget must be an integer >= 1; got {budget!r}")
        self._budget = int(limit)
        self._pending: OrderedDict[Hashable, Steppable] = OrderedDict()

    @property
    def budget(self) -> int:
        """Node expansions per :meth:`update`."""
        return self._budget

    def submit(self, key: Hashable, search: Steppable) -> None:
        """Queue ``search`` under ``key``; a pending request with that key is replaced
        (an agent that asks again wants only its newest path) and goes to the back."""
        for name in ("step", "result"):
            if not callable(getattr(search, name, None)):
                raise TypeError(
                    f"search must have step() and result() (a SlicedSearch); got {search!r}"
                )
        self._pending.pop(key, None)
        self._pending[key] = search

    def cancel(self, key: Hashable) -> bool:
        """Drop the pending request under ``key``; whether there was one."""
        return self._pending.pop(key, None) is not None

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, key: object) -> bool:
        return key in self._pending

    def update(self) -> dict[Hashable, PathResult]:
        """Spend one frame's budget; return the requests that finished, by key.

        Every returned result is exactly what the blocking search would return; a
        finished request leaves the queue.
        """
        left = self._budget
        done: dict[Hashable, PathResult] = {}
        while self._pending and left > 0:
            key, search = next(iter(self._pending.items()))
            before = search.expanded
            status = search.step(left)
            left -= search.expanded - before
            if status == "in_progress":
                break  # the budget is spent (a search that expanded none would loop)
            del self._pending[key]
            done[key] = search.result()
        return done
