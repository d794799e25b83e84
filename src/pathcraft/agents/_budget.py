# cython: annotation_typing=False
# (compiled, the types are in _budget.pxd: annotations stay hints)
"""One frame's allowance of search work: node expansions and, optionally, microseconds.

The budgeted :class:`~pathcraft.agents.Pursuer` and the
:class:`~pathcraft.agents.PathRequestQueue` both spend a frame's budget on sliced
searches (``search.step(n)``) through :class:`FrameBudget`. With an expansion budget
alone a search gets every expansion left in one ``step``; with a time budget it is
stepped in slices of :data:`SLICE` expansions until the time is used (read from the
clock between slices), so the frame overruns its time by at most one slice. The
first slice of a frame always runs, even when the time is already spent: a budget
too small for any work would starve every search, and one slice is the progress
that guarantees every search ends. That first slice is as many expansions as the
time allows at the measured rate, at least :data:`FIRST` and at most :data:`SLICE`:
a budget below one slice's price (2 us for each of 1,000 pursuers) binds at
:data:`FIRST` expansions a frame instead of never binding.

The clock is the one :func:`time.perf_counter` reads (wall time: a frame's budget is
a share of the frame's wall time, and ``time.thread_time`` is a system call of about
2 us here), read only where search work runs: a frame's time starts at its first
read (:meth:`FrameBudget.start` reads none, so a pursuer's step without a plan pays
no clock; a queue's update starts its time at once); a slice reads it once, a search
run whole twice (before, for the time left, and after, for the rate).

This module is compiled as it is (like ``pathcraft._sliced``): a budgeted pursuer
calls it around every plan, so its own price counts beside a search of a few
microseconds. Compiled, :class:`FrameBudget` is an extension type with the C fields
of ``_budget.pxd`` and the clock is read in C (``_core/clock.h``, the clock
``perf_counter`` reads: no call, no float object).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from time import perf_counter
from typing import Any

from pathcraft._validation import check_limit

# Seconds on the monotonic clock of time.perf_counter: perf_counter itself run as
# Python; compiled, the C function _budget.pxd declares under this name, which the
# compiled code may not assign (hence the binding through globals(), which sets the
# module's attribute only, unread there, and the linter's noqa where it is called).
_clock: Callable[[], float]
globals().setdefault("_clock", perf_counter)

__all__ = ["FIRST", "RATE", "SLICE", "FrameBudget", "check_budgets"]

#: Expansions per slice when a time budget is set: a few microseconds of grid search,
#: small enough to bound a frame's overrun, large enough that the clock reads and
#: calls cost little beside it.
SLICE = 32

#: The fewest expansions a frame's first slice runs with a time budget, however little
#: time is left: the progress that ends every search under a budget too small for any
#: work (a whole slice there would make the budget never bind: at 2 us a pursuer, 1,000
#: pursuers planned as often as blocking ones and paid the budget's calls on top).
FIRST = 8

#: Expansions a second assumed before any is measured (a time budget's first plan,
#: nothing known of its length, is tried whole within what this rate allows of the
#: budget): one a microsecond, below a grid search's rate with its call's price.
RATE = 1e6


def check_budgets(
    name: str, expansions: Any, time_us: Any
) -> tuple[int | None, float | None]:
    """The two budgets checked: ``expansions`` an integer >= 1 or None (``name`` is
    its argument's name), ``time_budget_us`` a finite number > 0 or None."""
    limit = check_limit(name, expansions, integer=True)
    if limit is not None and limit < 1:
        raise ValueError(f"{name} must be an integer >= 1 or None; got {expansions!r}")
    micro = check_limit("time_budget_us", time_us, integer=False)
    if micro is not None and (micro <= 0 or math.isinf(micro)):
        raise ValueError(
            f"time_budget_us must be a finite number > 0 or None; got {time_us!r}"
        )
    return (
        None if limit is None else int(limit),
        None if micro is None else float(micro),
    )


class FrameBudget:
    """What is left of one frame's budget; :meth:`run` spends it on a search.

    Parameters
    ----------
    expansions : int or None
        Expansions per frame (None: no limit in expansions).
    time_us : float or None
        Microseconds per frame (None: no limit in time). One of the two is set.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents._budget import FrameBudget
    >>> budget = FrameBudget(5, None)
    >>> search = Grid.from_ascii("." * 9, diagonal="never").start_search((0, 0), (0, 8))
    >>> budget.start()
    >>> budget.run(search), budget.left, budget.spent
    ('in_progress', 0, True)
    >>> budget.start()
    >>> budget.run(search), budget.left
    ('found', 1)
    """

    __slots__ = (
        "_deadline", "_first", "_pending", "_rate", "_seconds", "_timed", "expansions",
        "left", "time_us",
    )  # fmt: skip

    def __init__(self, expansions: int | None, time_us: float | None) -> None:
        self.expansions = expansions
        self.time_us = time_us
        self.left: int | None = expansions  # expansions left this frame
        self._timed = time_us is not None
        self._seconds = 0.0 if time_us is None else time_us * 1e-6
        self._deadline = math.inf
        # seconds spent before the frame's clock, < 0 once its clock started (its
        # deadline is set)
        self._pending = -1.0
        self._first = True  # no slice ran yet this frame
        self._rate = 0.0  # expansions a second, as last measured (0: none yet)

    def start(self, spent: float = 0.0, *, now: bool = False) -> None:
        """A new frame: the whole budget again, less ``spent`` seconds of it already
        used this frame (a queue's requests). The frame's time counts from the
        first clock read of its search work, or from here with ``now`` (a queue's
        update, whose own work between searches counts too)."""
        self.left = self.expansions
        self._first = True
        self._pending = spent
        if now and self._timed:
            self._now()

    def _now(self) -> float:
        """The clock, read; the first read of a frame sets its deadline."""
        now = _clock()  # noqa: F821 (bound through globals())
        if self._pending >= 0.0:
            self._deadline = now + self._seconds - self._pending
            self._pending = -1.0
        return now

    @property
    def spent(self) -> bool:
        """Nothing is left this frame (no expansion, or no time after the first
        slice)."""
        if self.left is not None and self.left <= 0:
            return True
        return not self._first and self._timed and self._now() >= self._deadline

    def allowance(self) -> int:
        """The expansions what is left of the frame allows: those left, and with a
        time budget as many as the time left allows at the measured rate (none
        before any measure), but at least the frame's first slice while none ran
        this frame (it runs whatever the time: :meth:`run` would spend it too): what
        the time allows at the measured rate (:data:`RATE` before any measure), at
        least :data:`FIRST` and at most :data:`SLICE` expansions.
        What a search run whole in one call may spend this frame.

        Examples
        --------
        >>> from pathcraft.agents._budget import FrameBudget
        >>> budget = FrameBudget(5, None)
        >>> budget.start()
        >>> budget.allowance(), FrameBudget(None, 100.0).allowance()   # a first slice
        (5, 32)
        >>> tight = FrameBudget(None, 2.0)    # 2 us: time for a few expansions only
        >>> tight.start()
        >>> tight.allowance()                 # the least first slice
        8
        """
        n = self.left if self.left is not None else 2**62
        if self._timed:
            now = self._now()
            timed = 0
            if self._rate > 0.0:
                timed = int((self._deadline - now) * self._rate)
            if self._first:
                timed = max(timed, self._first_slice(self._deadline - now))
            n = min(n, timed)
        return max(n, 0)

    def whole(
        self, search: Callable[..., Any], start: Any, goal: Any, need: int | None,
        limit: int | None,
    ) -> tuple[Any, bool] | None:
        """``search(start, goal, max_expansions=cap)``, a search run whole in one
        call, where one needing ``need`` expansions (those of the last like it;
        None: unknown) fits in :meth:`allowance` (None where it does not, or
        where nothing is left: not run; with no time budget, also where ``need``
        is unknown: with one, an unknown ``need`` is tried, and before any measure
        the time left is counted at :data:`RATE`). ``cap`` is the allowance, or the
        caller's ``limit`` where that is lower (None: none). Its expansions are
        spent, and with a time budget the rate is measured by them. The result and
        whether the allowance capped it (False: the caller's limit did).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents._budget import FrameBudget
        >>> grid = Grid.from_ascii("." * 9, diagonal="never")
        >>> budget = FrameBudget(5, None)
        >>> budget.start()
        >>> budget.whole(grid.astar, (0, 0), (0, 8), 8, None)     # it would not fit
        >>> result, capped = budget.whole(grid.astar, (0, 0), (0, 3), 3, None)
        >>> result.cost, capped, budget.left
        (3.0, True, 1)
        """
        timed = self._timed
        if need is None and not timed:
            return None
        # (as lean as a blocking call's own checks: it runs before every such plan)
        left = self.left
        cap = left if left is not None else 2**62
        if timed:
            began = _clock()  # noqa: F821 (bound through globals())
            if self._pending >= 0.0:  # (_now, inline)
                self._deadline = began + self._seconds - self._pending
                self._pending = -1.0
            rate = self._rate
            n = int((self._deadline - began) * (rate if rate > 0.0 else RATE))
            if self._first and n < FIRST:  # (the first slice; n is what the time allows)
                n = FIRST
            if n < cap:
                cap = n
        if cap <= 0 or (need is not None and need > cap):
            return None  # (or nothing is left: a frame's later plan after its time ran out)
        capped = limit is None or limit > cap
        result = search(start, goal, max_expansions=cap if capped else limit)
        expanded = result.expanded
        self._first = False
        if left is not None:
            self.left = left - expanded
        if timed and expanded > 0:
            seconds = _clock() - began  # noqa: F821 (bound through globals())
            self._measure(expanded, seconds)
        return result, capped

    def spend(self, expanded: int, seconds: float) -> None:
        """Count ``expanded`` expansions done in ``seconds`` outside :meth:`run` (a
        search run whole) against the frame, and measure the rate by them."""
        self._spend(expanded)
        self._measure(expanded, seconds)

    def run(self, search: Any) -> str:
        """Step ``search`` with what is left of the frame; its status."""
        if not self._timed:
            before = search.expanded
            status: str = search.step(self.left)
            self._spend(search.expanded - before)
            return status
        began, first = self._now(), search.expanded
        deadline = self._deadline
        k = self._first_slice(deadline - began) if self._first else SLICE
        while True:
            n = k if self.left is None else min(k, self.left)
            k = SLICE
            before = search.expanded
            status = search.step(n)
            self._spend(search.expanded - before)
            now = _clock()  # noqa: F821 (spent, inline: one read a slice)
            if (
                status != "in_progress" or now >= deadline or search.expanded == before
                or (self.left is not None and self.left <= 0)
            ):  # fmt: skip
                # (a search that expands nothing would spin)
                self._measure(search.expanded - first, now - began)
                return status

    def _first_slice(self, seconds: float) -> int:
        # The expansions of a frame's first slice with ``seconds`` left: what they
        # allow at the measured rate (RATE before any), within FIRST..SLICE.
        n = seconds * (self._rate if self._rate > 0.0 else RATE)
        return SLICE if n >= SLICE else max(FIRST, int(n))  # (n: inf before a start)

    def _measure(self, expanded: int, seconds: float) -> None:
        # A measure of fewer expansions than a slice is mostly its call's fixed price
        # (a tiny plan would judge the next, longer one too slow to run whole, and
        # slice it): it sets the rate only while none is known. (Letting it raise the
        # rate is no safer: a jump point search's expansions vary in price, and a few
        # cheap ones would set a rate its longer searches overrun the time with.)
        if expanded > 0 and seconds > 0.0 and (expanded >= SLICE or self._rate <= 0.0):
            self._rate = expanded / seconds

    def _spend(self, expanded: int) -> None:
        self._first = False
        if self.left is not None:
            self.left -= expanded
