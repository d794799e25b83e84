# cython: annotation_typing=False
# (compiled, annotations stay hints: ``step(2.7)`` reaches the check, not a C cast)
"""Compiled searches spread over frames: the object every world's ``start_search``
returns.

A :class:`CompiledSearch` wraps one of the kernels' step machines
(``grid_search.GridSearch``, ``jps.JpsSearch``, ``graph_search.GraphSearch``,
``polyanya.PolyanyaSearch``): :meth:`CompiledSearch.step` advances it ``n`` expansions
with the GIL released and returns the status. The blocking calls are one unlimited
step of the same machines, so a search cut into slices of any size expands the same
nodes in the same order and ends with exactly the blocking call's result.

Memory: a search in progress holds a workspace of its own. It takes one from a pool at
its first step and gives it back the moment it ends (its result is built first) or is
cancelled, so a queue of 1,000 agents served one after the other needs a workspace or
two, not 1,000. A pooled workspace spans the map (20 bytes a grid cell of address
space) but takes memory only where its searches wrote: its per-node arrays are mapped
zeroed and never initialised, and a page (4 kB, 256 cells' state) is taken at its
first write, never a huge page (``keep_pages_small``). Beyond the pool's four in
flight, a grid's best-first search (A*, Dijkstra, greedy, weighted) or jump point
search gets a hashed workspace (``_core/hashed.pyx``): a few small blocks sized by the
cells it reaches (about 2 kB to start), made in about the time a pooled one is taken
(start + step(1) about 2x a one-cell blocking A* query on any map size), moved to
dense arrays once it reached 4,096 cells. Other searches beyond the pool (jump point
search from a jump table, graphs, meshes) make a dense workspace (a system call and a
page fault per page written, tens of microseconds). So a search costs
what it explores (``bench/results/sliced_memory.md``): thousands can be in flight.

Statuses, one vocabulary with :attr:`PathResult.reason <pathcraft.result.PathResult>`:
``"in_progress"``, ``"found"``, the reason the search ended without its goal
(``"unreachable"``, ``"max_expansions"``, ``"max_cost"``) or ``"cancelled"``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from time import perf_counter
from typing import Any

from pathcraft._engine import no_result
from pathcraft._kernels import IN_PROGRESS
from pathcraft._validation import MAX_EXPANSIONS, check_budget
from pathcraft.result import PathResult

__all__ = ["CompiledSearch", "WorldChangedError", "release_pooled_workspaces"]

#: Free workspaces kept per kernel (more are dropped when given back).
POOL_SIZE = 4

_pool: dict[Any, list[Any]] = {}
#: Workspaces of each pooled kind alive: in the pool or held by searches in flight.
_alive: dict[Any, int] = {}


def _acquire(kind: Any, size: int, sparse: Callable[[int], Any] | None = None) -> Any:
    """A workspace of class ``kind`` holding at least ``size`` cells or nodes, owned by
    the caller until :func:`_release`: a pooled one when one is free; else a new one
    while fewer than ``POOL_SIZE`` of the kind are alive (it joins the pool when given
    back), and beyond them ``sparse(size)`` when the search has a workspace sized by
    the nodes it reaches (a grid's best-first and jump point searches:
    ``hashed.hashed_workspace``), made in about the time a pooled one is taken, never
    pooled. No lock: a list's ``pop`` and ``append`` are atomic (under the GIL, and on
    their own in free-threaded builds), and a workspace popped is the popper's alone;
    one too small for ``size`` goes back. (The count alive is not atomic: threads racing may
    make a dense workspace more or fewer, never share one.)"""
    free = _pool.get(kind)
    if free:
        try:
            ws = free.pop()
        except IndexError:  # taken by another thread meanwhile
            return _made(kind, size, sparse)
        if ws.capacity >= size:
            return ws
        free.append(ws)
    return _made(kind, size, sparse)


def _made(kind: Any, size: int, sparse: Callable[[int], Any] | None) -> Any:
    """A new workspace for sliced searches: ``sparse(size)`` beyond ``POOL_SIZE``
    alive, else one of ``kind`` on small pages where it can be (a search in flight
    then holds the 4 kB pages it wrote, never 2 MB huge ones)."""
    alive = _alive.get(kind, 0)
    if sparse is not None and alive >= POOL_SIZE:
        return sparse(size)
    ws = kind(size)
    keep_pages_small = getattr(ws, "keep_pages_small", None)
    if keep_pages_small is not None:
        keep_pages_small()
    _pool.setdefault(kind, [])
    _alive[kind] = alive + 1
    return ws


def _release(ws: Any) -> None:
    """Give back a workspace :func:`_acquire` lent: pooled while the pool has room,
    else dropped (one made by ``sparse`` is always dropped)."""
    kind = type(ws)
    free = _pool.get(kind)
    if free is None:
        return
    if len(free) < POOL_SIZE:
        free.append(ws)
    else:
        _alive[kind] = max(0, _alive.get(kind, 1) - 1)


def release_pooled_workspaces() -> None:
    """Free the workspaces kept for sliced searches (they are made again on demand)."""
    for kind, free in list(_pool.items()):
        _alive[kind] = max(0, _alive.get(kind, 0) - len(free))
        free.clear()


def _ended(*args: Any) -> Any:
    raise RuntimeError("this search ended: it runs no more")


class WorldChangedError(RuntimeError):
    """A world (grid, graph, mesh) was edited under a compiled search in progress:
    raised by the search's next ``step``, which cancels it. A ``RuntimeError``, public
    as ``pathcraft.WorldChangedError``.

    Examples
    --------
    >>> import numpy as np, pathcraft
    >>> grid = pathcraft.Grid(np.ones((1, 9)))
    >>> search = grid.start_search((0, 0), (0, 8))
    >>> search.step(2)
    'in_progress'
    >>> grid[0, 5] = np.inf
    >>> try:
    ...     search.step(2)
    ... except pathcraft.WorldChangedError:
    ...     print(search.status)
    cancelled
    """


class CompiledSearch:
    """A compiled search a game loop spreads over frames (``world.start_search(...)``).

    ``step(n)`` expands at most ``n`` more nodes (cells, jump points, mesh intervals)
    and returns the status; once the search ended, :attr:`result` is exactly what the
    blocking call with the same arguments returns (``elapsed`` counts the time spent in
    steps). Examples: ``Grid.start_search`` and the other worlds' ``start_search``.

    A grid or graph edited while its search is in progress (its ``version`` moved)
    would give an answer that mixes two maps (a path through a cell that became a
    wall after it was expanded): the next :meth:`step` cancels the search and raises
    RuntimeError. Start a new search after the edit, or plan with
    ``world.replanner(...)``, which is made for maps that change.
    """

    # Its fields are declared in _sliced.pxd (an extension type once compiled).

    def __init__(
        self,
        make: Callable[..., Any],
        finish: Callable[[tuple[Any, ...], float], PathResult],
        kind: Any,
        size: int,
        world: Any = None,
        sparse: Callable[[int], Any] | None = None,
        args: tuple[Any, ...] = (),
    ) -> None:
        self._world = world  # a world with a ``version`` (grid, graph), or None
        self._version = 0 if world is None else world.version
        # make(workspace, *args) -> the kernel's step machine. A function shared by
        # many searches with each search's args, not a closure per search (a
        # closure is a function, its cells and their tuple: more objects for the
        # cyclic collector to count, in every plan of every budgeted agent).
        self._make = make
        self._args = args
        self._finish = finish  # (the machine's answer, t0) -> PathResult
        self._kind = kind
        self._size = size
        self._sparse = sparse  # size -> a workspace sized by what it reaches (or None)
        self._machine: Any = None
        self._ws: Any = None
        self._status = "in_progress"
        self._result: PathResult | None = None
        self._expanded = 0
        self._elapsed = 0.0

    @classmethod
    def ended(cls, result: PathResult) -> CompiledSearch:
        """A search answered before any expansion (a goal in another part of the
        world): it starts ended, with ``result``."""
        search = cls(lambda ws: None, lambda answer, t0: result, None, 0)
        search._result = result
        search._status = "found" if result.found else str(result.reason)
        return search

    def step(self, max_expansions: int | None = None) -> str:
        """Expand at most ``max_expansions`` more nodes (None: until the search ends).

        Returns ``"in_progress"``, ``"found"``, the reason the search ended without
        its goal (as :attr:`PathResult.reason` spells it) or ``"cancelled"``.
        Stepping an ended search returns its status again and does nothing.

        Raises
        ------
        TypeError
            ``max_expansions`` not an integer (``2.7``, ``True``).
        ValueError
            ``max_expansions`` negative or above ``2**63 - 1``.
        WorldChangedError
            The world was edited since the search started (it is cancelled).
        """
        machine = self._machine
        world = self._world
        if world is not None and world.version != self._version and self._status == "in_progress":
            self._changed(world)
        lean = type(max_expansions) is int and 0 <= max_expansions <= MAX_EXPANSIONS
        if lean and machine is not None:
            # The common case of a game loop, kept lean: a search under way, an int;
            # the machine times its own steps in C (``machine.elapsed``).
            if machine.step(max_expansions) == IN_PROGRESS:
                return "in_progress"
            return self._end()
        # Anything else goes through the one check (floats, bools, 2**63 refused by
        # name, as the pure-Python sliced search refuses them).
        budget = max_expansions if lean else check_budget(max_expansions)
        if self._status != "in_progress":
            return self._status
        if machine is None:
            t0 = perf_counter()
            self._ws = _acquire(self._kind, self._size, self._sparse)
            try:
                machine = self._machine = self._make(self._ws, *self._args)
            except BaseException:
                self._drop()
                raise
            self._elapsed += perf_counter() - t0  # the setup; the steps time themselves
        code = machine.step(-1 if budget is None else budget)
        if code == IN_PROGRESS:
            return "in_progress"
        return self._end()

    def _changed(self, world: Any) -> None:
        """The world was edited under the search: cancel it and say so."""
        self.cancel()
        raise WorldChangedError(
            f"the {type(world).__name__} changed under this search (version "
            f"{self._version} -> {world.version}): its answer would mix two maps, so it "
            "was cancelled; start a new search, or use world.replanner(...) for a map "
            "that changes"
        )

    def _end(self) -> str:
        """The search ended: build its result, give the workspace back."""
        t1 = perf_counter()
        machine = self._machine
        self._elapsed += machine.elapsed
        self._expanded = int(machine.expanded)
        answer = machine.answer()
        self._drop()
        result = self._finish(answer, t1 - self._elapsed)
        self._result = result
        self._status = "found" if result.found else str(result.reason)
        return self._status

    def _drop(self) -> None:
        """Give the workspace back; the machine that used it goes with it."""
        ws, self._ws, self._machine = self._ws, None, None
        if ws is not None:
            _release(ws)

    def cancel(self) -> None:
        """Stop the search for good (status ``"cancelled"``) and free its workspace.
        Cancelling an ended search does nothing."""
        if self._status == "in_progress":
            self._drop()
            self._status = "cancelled"

    def best_so_far(self) -> PathResult | None:
        """While the search is in progress: what the same search with ``partial=True``
        and ``max_expansions`` set to the nodes expanded so far returns, a path from
        the start to the expanded node closest to the goal (``reason=
        "max_expansions"``, falsy; the start alone before the first expansion). What a
        unit walks while its plan is being found (a budgeted
        :class:`~pathcraft.agents.Pursuer` does).

        None when the search cannot tell: it was not started with ``partial=True``,
        has not been stepped, has ended (read :attr:`result`), or is of a kind that
        does not track that node (graphs, navigation meshes). A jump point search
        tells the path through its jump points to the expanded one closest to the goal.

        Examples
        --------
        >>> import numpy as np, pathcraft
        >>> grid = pathcraft.Grid(np.ones((1, 9)))
        >>> search = grid.start_search((0, 0), (0, 8), algorithm="astar", partial=True)
        >>> search.step(3), search.best_so_far().path.tolist()
        ('in_progress', [[0, 0], [0, 1], [0, 2]])
        """
        machine = self._machine
        if machine is None or self._status != "in_progress":
            return None
        answer = machine.best_so_far()
        if answer is None:
            return None
        result: PathResult = self._finish(answer, perf_counter())
        return result

    @property
    def status(self) -> str:
        """The status the last :meth:`step` returned (``"in_progress"`` before any)."""
        return self._status

    @property
    def expanded(self) -> int:
        """Nodes expanded so far, over all slices."""
        machine = self._machine
        return self._expanded if machine is None else int(machine.expanded)

    @property
    def result(self) -> PathResult:
        """The result, exactly the blocking call's; only once the search ended.

        Raises
        ------
        RuntimeError
            The search is in progress or was cancelled.
        """
        if self._result is None:
            raise no_result(self._status)
        return self._result

    def __repr__(self) -> str:
        return f"<CompiledSearch {self._status}, {self._expanded} expanded>"

    def __del__(self) -> None:
        # A search dropped in progress gives its workspace back; at interpreter exit
        # the pool may be gone already, and then there is nothing to give back to.
        if self._ws is not None:
            with contextlib.suppress(Exception):
                self._drop()

    def __getstate__(self) -> dict[str, Any]:
        if self._status == "in_progress":
            raise TypeError(
                "a compiled search in progress cannot be pickled (its state lives in a "
                "workspace of compiled memory): pickle it once it ended, or pickle the "
                "world and start the search again"
            )
        return {"status": self._status, "result": self._result, "expanded": self._expanded}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._make = self._finish = _ended
        self._args = ()
        self._world = None
        self._version = 0
        self._kind = None
        self._size = 0
        self._sparse = None
        self._machine = self._ws = None
        self._status = state["status"]
        self._result = state["result"]
        self._expanded = state["expanded"]
        self._elapsed = 0.0
