"""The search loops behind :mod:`pathcraft.search`: plain Python, compiled when built.

This file is pure Python and runs as it is. The build also compiles it with Cython
(the same source, nothing rewritten), which makes the loops about 1.5-2x faster;
the locals annotated ``float`` become C doubles there. Both forms give the same
answers: the tests run the source file and the compiled module side by side.

Everything here trusts its arguments: the public functions in :mod:`pathcraft.search`
have checked them.

Why one module of about 670 lines: it is one idea, the generic search loop (the step
machine :class:`Search`, its :class:`Settings`, and the bloom-filter variant of the same
loop, ``_run_bloom``), compiled as one Cython module; the checks and the public
functions live in :mod:`pathcraft.search`.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable, Iterable
from heapq import heappop, heappush
from typing import TYPE_CHECKING, Any

from pathcraft._bloom import BloomClosed, ScalableBloom
from pathcraft.result import PathResult, build_result

if TYPE_CHECKING:
    from pathcraft._options import SearchOptions

__all__ = [
    "CANCELLED",
    "FAILED",
    "FOUND",
    "IN_PROGRESS",
    "Search",
    "Settings",
    "bad_heuristic",
    "no_result",
    "run",
]

Neighbors = Callable[[Any], Iterable[tuple[Any, float]]]
Heuristic = Callable[[Any], float]
_INF = math.inf
#: A node already reached at cost g is reached again (updated, or reopened once
#: closed) only at a cost below ``g * (1 - IMPROVE_RTOL)``: a real improvement, not
#: the ~1e-15 rounding noise of equal-cost paths summed in another order. The compiled
#: kernels use the same rule and constant (``pathcraft/_core/machine.pxd``).
IMPROVE_RTOL = 1e-12
_KEEP = 1.0 - IMPROVE_RTOL


def key_round(f: float) -> float:
    """An open-list key rounded to 41 significant bits (Veltkamp's split by
    2**12 + 1), exactly as the compiled kernels round theirs
    (``pathcraft._core.codes.key_round``): keys of equally good paths that differ
    only by rounding noise become equal, and the tie rule decides between them.

    >>> key_round(0.1 + 0.2) == key_round(0.3)
    True
    """
    if f < 1e300:
        p = f * 4097.0
        return (f - p) + p
    return f
class _Root:
    """The parent of the start (None may be a user's node). One instance, which
    pickles as a reference to itself, so an unpickled search still finds its root."""

    __slots__ = ()

    def __reduce__(self) -> str:
        return "_ROOT"


_ROOT = _Root()


class Settings:
    """How one generic search runs: its mode, limits and flags, already checked.

    ``mode`` is ``"astar"`` (priority g + weight*h, nodes reopened when a cheaper path
    is found; Dijkstra is A* without a heuristic), ``"greedy"`` (priority h, first
    discovery kept) or ``"bfs"`` (priority the number of steps, first discovery
    kept). ``max_cost`` bounds the path cost (the depth for ``"bfs"``); a search it
    stops ends with ``cost_reason``.
    """

    __slots__ = (
        "cost_reason",
        "max_cost",
        "max_expansions",
        "mode",
        "partial",
        "record",
        "seed",
        "tie_break",
        "weight",
    )

    def __init__(
        self,
        mode: str = "astar",
        weight: float = 1.0,
        tie_break: str = "g",
        seed: Any = None,
        max_expansions: int | None = None,
        max_cost: float | None = None,
        partial: bool = False,
        record: bool = False,
        cost_reason: str = "max_cost",
    ) -> None:
        self.mode = mode
        self.weight = weight
        self.tie_break = tie_break
        self.seed = seed
        self.max_expansions = max_expansions
        self.max_cost = max_cost
        self.partial = partial
        self.record = record
        self.cost_reason = cost_reason

    @classmethod
    def of(cls, opts: SearchOptions) -> Settings:
        """The settings of a search on the checked options of :mod:`pathcraft.search`
        (``max_depth`` is a ``"bfs"`` search's cost limit)."""
        bfs = opts.algorithm == "bfs"
        return cls(
            mode="astar" if opts.algorithm == "dijkstra" else opts.algorithm,
            weight=opts.weight,
            tie_break=opts.tie_break,
            seed=opts.seed,
            max_expansions=opts.max_expansions,
            max_cost=opts.extra.get("max_depth") if bfs else opts.max_cost,
            partial=opts.partial,
            record=opts.record,
            cost_reason="max_depth" if bfs else "max_cost",
        )


def _bad_step(node: Any, nb: Any, w: Any) -> ValueError:
    return ValueError(
        f"neighbors({node!r}) gave step cost {w!r} for the edge {node!r} -> {nb!r}; "
        "step costs must be finite numbers >= 0"
    )


def bad_heuristic(node: Any, h: Any) -> ValueError:
    return ValueError(
        f"heuristic({node!r}) returned {h!r}; a heuristic must return a number >= 0 "
        "(inf marks a node that cannot reach the goal)"
    )


def check_nodes(start: Any, goal: Any) -> None:
    """TypeError naming ``start`` or ``goal`` (a node, not a predicate or None) when it
    is not hashable: two hashes per search, not one per node."""
    for name, node in (("start", start), ("goal", goal)):
        if name == "goal" and (node is None or callable(node)):
            continue
        try:
            hash(node)
        except TypeError as exc:
            raise TypeError(
                f"{name} must be a hashable node (a tuple, not a list, for instance); "
                f"got {node!r} ({exc})"
            ) from None


def unhashable_neighbor(exc: TypeError, node: Any, nb: Any) -> TypeError | None:
    """After ``exc`` stopped the expansion of ``node``: a TypeError naming the
    neighbour ``neighbors(node)`` gave when that neighbour is not hashable (None when
    it is: the original error stands)."""
    try:
        hash(nb)
    except TypeError:
        return TypeError(
            f"neighbors({node!r}) gave the neighbor {nb!r}, which is not hashable ({exc}); "
            "nodes must be hashable (a tuple, not a list, for instance)"
        )
    return None


def callback_error(
    start: Any, neighbors: Neighbors, heuristic: Heuristic | None
) -> Exception | None:
    """After a search failed inside a user's callable: a clear error naming the callable
    that broke its contract, found by calling it again on the start and its neighbours
    (None when they behave, so that the original error stands)."""
    items: list[Any] = []
    try:
        items = list(neighbors(start))
    except TypeError as exc:
        if "not iterable" in str(exc):
            return TypeError(
                f"neighbors({start!r}) must return an iterable of (neighbor, step_cost) "
                f"pairs; it returned something else ({exc})"
            )
        return None
    except Exception:  # the user's own error, raised again: the original stands
        return None
    for item in items:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            fix = f"yield ({item!r}, step_cost)"
            if not isinstance(item, tuple | list):
                fix = f"a bare node without its cost? yield ({item!r}, 1.0) for a step of 1"
            return TypeError(
                f"neighbors({start!r}) must yield (neighbor, step_cost) pairs; it yielded "
                f"{item!r} ({fix})"
            )
        nb, w = item
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            return TypeError(
                f"neighbors({start!r}) gave step cost {w!r} ({type(w).__name__}) for the "
                f"edge {start!r} -> {nb!r}; step costs must be numbers >= 0"
            )
    if heuristic is not None:
        for node in [start, *(item[0] for item in items)]:
            try:
                h = heuristic(node)
            except Exception:
                return None
            if isinstance(h, bool) or not isinstance(h, numbers.Real):
                return TypeError(
                    f"heuristic({node!r}) returned {h!r} ({type(h).__name__}); a heuristic "
                    "must return a number >= 0 (inf marks a node that cannot reach the goal)"
                )
    return None


def _tie_source(tie_break: str, seed: Any) -> Callable[[], float] | None:
    """The tie value generator for ``"random"``; None for ``"g"`` and ``"fifo"``."""
    if tie_break == "random":
        return random.Random(seed).random
    return None


def run(
    start: Any,
    goal: Any,
    neighbors: Neighbors,
    heuristic: Heuristic | None,
    settings: Settings,
    bloom: BloomClosed | None = None,
) -> PathResult:
    """The one workhorse behind every public search (see :class:`Settings`).

    Heap entries are ``(priority, tie, counter, node, g)``: the counter makes the order
    total, so nodes are never compared and every run is deterministic for a given
    ``seed``.
    """
    t0 = time.perf_counter()
    check_nodes(start, goal)
    if goal is None:
        is_goal: Callable[[Any], bool] | None = None
        goal_node: Any = None
        has_goal = False
    elif callable(goal):
        is_goal, goal_node, has_goal = goal, None, True
    else:
        is_goal, goal_node, has_goal = None, goal, True

    try:
        h_start: float = 0.0 if heuristic is None else heuristic(start)
        if not h_start >= 0.0:
            raise bad_heuristic(start, h_start)

        if bloom is not None:
            return _run_bloom(
                start, h_start, is_goal, goal_node, has_goal, neighbors, heuristic,
                settings, bloom, t0,
            )  # fmt: skip

        search = Search(start, h_start, goal, neighbors, heuristic, settings, t0)
        search.step(-1)
        return search.result()
    except (TypeError, ValueError) as exc:
        # A user's callable broke its contract somewhere inside: name it.
        clear = callback_error(start, neighbors, heuristic)
        if clear is None:
            raise
        raise clear from exc


IN_PROGRESS = "in_progress"
FOUND = "found"
CANCELLED = "cancelled"
FAILED = "failed"  # a callback raised: the search cannot go on


def no_result(status: str) -> RuntimeError:
    """The error for asking a search in ``status`` for its result."""
    state = "still in progress" if status == IN_PROGRESS else status
    return RuntimeError(
        f"the search is {state}: it has no result (step() until it returns something "
        "else than 'in_progress')"
    )


class Search:
    """The search as a resumable step machine: the heap, the costs and the counters.

    :meth:`step` expands at most a given number of nodes and returns the status:
    ``"in_progress"``, ``"found"`` or the reason the search ended without reaching its
    goal (``"unreachable"``, ``"max_expansions"``, ``"max_cost"``, ...), as the result's
    ``reason`` spells it; ``"cancelled"`` after :meth:`cancel`. A callback that raises
    fails the search for good (``"failed"``): the error goes to the caller of that
    step, and later steps say so instead of answering wrongly. The blocking :func:`run` is one
    unlimited step, so a search cut into slices of any size expands the same nodes in
    the same order and ends with the same result.
    """

    def __init__(
        self,
        start: Any,
        h_start: float,
        goal: Any,
        neighbors: Neighbors,
        heuristic: Heuristic | None,
        settings: Settings,
        t0: float | None = None,
    ) -> None:
        self._t0 = time.perf_counter() if t0 is None else t0
        if goal is None:
            self._is_goal: Callable[[Any], bool] | None = None
            self._goal_node: Any = None
            self._has_goal = False
        elif callable(goal):
            self._is_goal, self._goal_node, self._has_goal = goal, None, True
        else:
            self._is_goal, self._goal_node, self._has_goal = None, goal, True
        self._start = start
        self._neighbors = neighbors
        self._heuristic = heuristic
        weight = settings.weight
        self._rand = _tie_source(settings.tie_break, settings.seed)
        self._prefer_g = settings.tie_break == "g"
        self._mode = settings.mode
        self._weight = weight
        self._limit_exp = -1 if settings.max_expansions is None else settings.max_expansions
        self._limit_cost = _INF if settings.max_cost is None else settings.max_cost
        self._partial = settings.partial
        self._record = settings.record
        self._cost_reason = settings.cost_reason
        # best[node] = (g, parent, step cost, h): one dict for the costs, the tree and
        # the heuristic values (computed once per node, like networkx does).
        self._best: dict[Any, tuple[float, Any, float, float]] = {
            start: (0.0, _ROOT, 0.0, h_start)
        }
        tie0 = self._rand() if self._rand is not None else 0.0
        # Heap entries: (f, tie, counter, node, g); the counter keeps nodes uncompared.
        self._heap: list[tuple[float, float, int, Any, float]] = [
            (key_round(weight * h_start), tie0, 0, start, 0.0)
        ]
        self._counter = 1
        self._expanded = 0
        self._pruned = False
        self._best_node: Any = start
        self._best_h = h_start
        self._rec_nodes: list[Any] = []
        self._rec_g: list[float] = []
        self._reached: Any = None  # the goal node expanded; only meaningful when found
        self._found = False  # a flag: None may be the user's goal
        self._reason: str | None = None
        self._settled: dict[Any, float] | None = {} if not self._has_goal else None
        self._status = IN_PROGRESS
        self._error: BaseException | None = None
        self._elapsed = time.perf_counter() - self._t0  # checks and set-up so far

    @property
    def status(self) -> str:
        """``"in_progress"``, ``"found"``, a reason, ``"cancelled"`` or ``"failed"``."""
        return self._status

    @property
    def expanded(self) -> int:
        """Nodes expanded so far."""
        return self._expanded

    def cancel(self) -> None:
        """Stop for good (status ``"cancelled"``) and drop the search's state."""
        if self._status == IN_PROGRESS:
            self._status = CANCELLED
            self._heap = []
            self._best = {}

    def step(self, budget: int) -> str:
        """Expand at most ``budget`` more nodes (-1: no bound) and return the status."""
        if self._status == FAILED:
            raise RuntimeError(
                f"this search failed at an earlier step ({self._error!r}); start a new one"
            ) from self._error
        if self._status != IN_PROGRESS:
            return self._status
        try:
            return self._step(budget)
        except BaseException as error:
            # The node being expanded is lost and the counters are stale: the search
            # cannot go on, and saying "unreachable" later would be a wrong answer.
            self._status = FAILED
            self._error = error
            raise

    def _step(self, budget: int) -> str:
        t_step = time.perf_counter()
        heuristic = self._heuristic
        neighbors = self._neighbors
        rand = self._rand
        prefer_g = self._prefer_g
        mode = self._mode
        unit_steps = mode == "bfs"  # BFS orders by the number of steps, not their cost
        greedy_mode = mode == "greedy"  # greedy orders by h alone
        reopen = mode == "astar"
        record = self._record
        partial = self._partial
        has_goal = self._has_goal
        is_goal = self._is_goal
        goal_node = self._goal_node
        settled = self._settled
        limit_exp = self._limit_exp
        rec_nodes = self._rec_nodes
        rec_g = self._rec_g
        best = self._best
        heap = self._heap
        counter = self._counter
        expanded = self._expanded
        pruned = self._pruned
        best_node = self._best_node
        reached = self._reached
        found = self._found
        reason = self._reason
        # a C double when compiled: exact for counts below 2**53, cheaper than an int object
        left: float = budget

        # Locals annotated float are C doubles when this file is compiled.
        inf: float = _INF
        weight: float = self._weight
        plain = not greedy_mode and weight == 1.0  # f = g + h, the common case
        limit_cost: float = self._limit_cost
        best_h: float = self._best_h
        gn: float
        hn: float
        w: float
        d: float
        hv: float
        f: float
        p: float
        tie: float

        push, pop, best_get = heappush, heappop, best.get  # locals: faster lookups
        node: Any = None
        nb: Any = None
        try:  # entered once per step: the loop itself pays nothing
            while heap:
                if left == 0:
                    break  # this slice is spent; the next step goes on from here
                _f, _t, _c, node, gn = pop(heap)
                if gn > best[node][0]:
                    continue  # stale: a cheaper entry for this node was pushed later
                if expanded == limit_exp:
                    reason = "max_expansions"
                    break
                expanded += 1
                left -= 1
                if settled is not None:
                    settled[node] = gn
                if record:
                    rec_nodes.append(node)
                    rec_g.append(gn)
                if has_goal and (node == goal_node if is_goal is None else is_goal(node)):
                    reached = node
                    found = True
                    break
                if partial:
                    hn = best[node][3]
                    if hn < best_h:
                        best_node = node
                        best_h = hn
                for nb, w in neighbors(node):
                    if not 0.0 <= w < inf:
                        raise _bad_step(node, nb, w)
                    d = gn + 1.0 if unit_steps else gn + w
                    old = best_get(nb)
                    if old is not None:
                        if d >= old[0] * _KEEP or not reopen:
                            continue
                        hv = old[3]  # a cheaper way to a known node (d < old g <= max_cost)
                    else:
                        if d > limit_cost:
                            pruned = True
                            continue
                        hv = heuristic(nb) if heuristic is not None else 0.0
                        if not hv >= 0.0:
                            raise bad_heuristic(nb, hv)
                        if hv == inf:
                            continue
                    best[nb] = (d, node, w, hv)
                    if prefer_g:
                        tie = -d
                    elif rand is not None:
                        tie = rand()
                    else:
                        tie = 0.0
                    f = d + hv if plain else (hv if greedy_mode else d + weight * hv)
                    if not greedy_mode and f < 1e300:  # key_round, inlined
                        p = f * 4097.0
                        f = (f - p) + p
                    push(heap, (f, tie, counter, nb, d))
                    counter += 1
        except TypeError as exc:
            named = unhashable_neighbor(exc, node, nb)
            if named is None:
                raise
            raise named from exc

        self._counter = counter
        self._expanded = expanded
        self._pruned = pruned
        self._best_node = best_node
        self._best_h = best_h
        self._reached = reached
        if not has_goal and not heap and reason is None:
            found = True  # a search without a goal ends when every node is settled
        self._found = found
        if found:
            self._status = FOUND
        elif reason is not None:
            self._status = reason
        elif not heap:
            reason = self._cost_reason if pruned else "unreachable"
            self._status = reason
        self._reason = reason
        self._elapsed += time.perf_counter() - t_step
        return self._status

    def result(self) -> PathResult:
        """The finished search's result (call once :meth:`step` left ``"in_progress"``)."""
        if self._status in (IN_PROGRESS, CANCELLED, FAILED):
            raise no_result(self._status)
        best = self._best
        explored = (self._rec_nodes, self._rec_g) if self._record else None
        elapsed = self._elapsed
        if not self._has_goal:
            settled = self._settled
            assert settled is not None
            start = self._start
            return build_result(
                None if self._found else self._reason, [], _INF, expanded=self._expanded,
                generated=self._counter, elapsed=elapsed, explored=explored,
                distances=settled, parents={n: best[n][1] for n in settled if n != start},
            )  # fmt: skip
        if self._found:
            path, cost = _walk_back(self._reached, best)
        elif self._partial:
            path, cost = _walk_back(self._best_node, best)
        else:
            path, cost = [], _INF
        return build_result(
            None if self._found else self._reason, path, cost, expanded=self._expanded,
            generated=self._counter, elapsed=elapsed, explored=explored,
        )  # fmt: skip


def _walk_back(
    node: Any, best: dict[Any, tuple[float, Any, float, float]]
) -> tuple[list[Any], float]:
    """The path from the start to ``node`` and its cost, summed from start to node."""
    path = [node]
    steps: list[float] = []
    entry = best[node]
    while entry[1] is not _ROOT:
        path.append(entry[1])
        steps.append(entry[2])
        entry = best[entry[1]]
    path.reverse()
    cost = 0.0
    for w in reversed(steps):
        cost += w
    return path, cost


def _run_bloom(
    start: Any,
    h_start: float,
    is_goal: Callable[[Any], bool] | None,
    goal_node: Any,
    has_goal: bool,
    neighbors: Neighbors,
    heuristic: Heuristic | None,
    settings: Settings,
    bloom: BloomClosed,
    t0: float,
) -> PathResult:
    """The workhorse with an approximate closed set and no per-node memory.

    Only the open nodes are remembered exactly (their g). Expanded nodes go into a
    scalable Bloom filter and are forgotten; paths live in parent links carried by the
    heap entries, ``(node, g, step_cost, parent_link)``, so the part of the search tree
    that no open node leads back to is freed. Closed nodes are never reopened.
    """
    assert has_goal, "dijkstra(goal=None) keeps every node; the front door refuses bloom"
    closed = ScalableBloom(bloom)
    weight: float = settings.weight
    partial, record, cost_reason = settings.partial, settings.record, settings.cost_reason
    rand = _tie_source(settings.tie_break, settings.seed)
    prefer_g = settings.tie_break == "g"
    mode = settings.mode
    greedy_mode = mode == "greedy"
    unit_steps = mode == "bfs"  # BFS orders by the number of steps, not their cost
    reopen = mode == "astar"
    limit_exp = -1 if settings.max_expansions is None else settings.max_expansions
    limit_cost = _INF if settings.max_cost is None else settings.max_cost

    Link = tuple[Any, float, float, Any]
    start_link: Link = (start, 0.0, 0.0, None)
    open_g: dict[Any, float] = {start: 0.0}
    open_h: dict[Any, float] = {start: h_start}
    counter = 1
    tie0 = rand() if rand is not None else 0.0
    f_start = h_start if greedy_mode else key_round(weight * h_start)
    heap: list[tuple[float, float, int, Link]] = [(f_start, tie0, 0, start_link)]
    expanded = 0
    pruned = False
    best_link, best_h = start_link, h_start
    rec_nodes: list[Any] = []
    rec_g: list[float] = []
    reached: Link | None = None
    reason: str | None = None

    node: Any = None
    nb: Any = None
    try:
        while heap:
            _f, _t, _c, link = heappop(heap)
            node, gn = link[0], link[1]
            if open_g.get(node) != gn:
                continue  # stale, or already closed
            if expanded == limit_exp:
                reason = "max_expansions"
                break
            del open_g[node]
            hn = open_h.pop(node)
            closed.add(node)
            expanded += 1
            if record:
                rec_nodes.append(node)
                rec_g.append(gn)
            if has_goal and (node == goal_node if is_goal is None else is_goal(node)):
                reached = link
                break
            if partial and hn < best_h:
                best_link, best_h = link, hn
            for nb, w in neighbors(node):
                if not 0.0 <= w < _INF:
                    raise _bad_step(node, nb, w)
                if nb in closed:
                    continue
                d = gn + 1.0 if unit_steps else gn + w
                old = open_g.get(nb)
                if old is not None and (d >= old * _KEEP or not reopen):
                    continue
                if d > limit_cost:
                    pruned = True
                    continue
                hv = open_h.get(nb)
                if hv is None:
                    hv = 0.0 if heuristic is None else heuristic(nb)
                    if not hv >= 0.0:
                        raise bad_heuristic(nb, hv)
                if hv == _INF:
                    continue
                open_g[nb] = d
                open_h[nb] = hv
                if prefer_g:
                    tie = -d
                elif rand is not None:
                    tie = rand()
                else:
                    tie = 0.0
                f = hv if greedy_mode else key_round(d + weight * hv)
                heappush(heap, (f, tie, counter, (nb, d, w, link)))
                counter += 1
    except TypeError as exc:
        named = unhashable_neighbor(exc, node, nb)
        if named is None:
            raise
        raise named from exc

    if reached is not None:
        path, cost = _links_back(reached)
    elif partial:
        path, cost = _links_back(best_link)
    else:
        path, cost = [], _INF
    if reached is None and reason is None:
        reason = cost_reason if pruned else "unreachable"
    return build_result(
        None if reached is not None else reason, path, cost, expanded=expanded,
        generated=counter, t0=t0, explored=(rec_nodes, rec_g) if record else None,
    )  # fmt: skip


def _links_back(link: Any) -> tuple[list[Any], float]:
    """The path and cost carried by a chain of ``(node, g, step, parent)`` links."""
    path: list[Any] = []
    steps: list[float] = []
    while link is not None:
        path.append(link[0])
        steps.append(link[2])
        link = link[3]
    path.reverse()
    cost = 0.0
    for w in reversed(steps):
        cost += w
    return path, cost
