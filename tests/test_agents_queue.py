"""The request queue in a game loop: re-requests that cost no search until served
(``request``, ``request_many``), the best partial path of a request under way
(``best_so_far``), the time of requests counted in the frame's time budget.

Oracles: the blocking search (``find_path``, with ``partial=True`` and
``max_expansions`` for partial paths), scipy's shortest paths for answers, and the
grid's own check of a path (``Grid.smooth`` raises for a step that is not clear)."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_agents_starve import frames_for, level

from pathcraft import Grid
from pathcraft.agents import PathRequestQueue
from pathcraft.agents._budget import FIRST, FrameBudget


class Counting:
    """A grid whose ``start_search`` calls are counted (the queue's only door to it)."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.started = 0

    def start_search(self, start: Any, goal: Any, **options: Any) -> Any:
        self.started += 1
        return self.grid.start_search(start, goal, **options)

    def agent_space(self) -> Any:
        return self.grid.agent_space()


def test_a_re_request_makes_no_search_until_it_is_served() -> None:
    grid = Counting(Grid(np.ones((40, 40))))
    queue = PathRequestQueue(budget=10)
    queue.request("a", grid, (0, 0), (39, 39))  # the world's checks: one search made
    assert grid.started == 1
    for col in range(30):  # the player moves: renewed in place, no search
        queue.request("a", grid, (0, 0), (39, col))
        queue.request_many(["b", "c"], grid, [(5, 5), (6, 6)], (39, col))
    assert grid.started == 1 and len(queue) == 3
    results: dict[str, Any] = {}
    while len(queue):
        results.update(queue.update())
    assert grid.started == 1 + 3  # and one for each request, when it was served
    for key, start in (("a", (0, 0)), ("b", (5, 5)), ("c", (6, 6))):
        assert results[key].path[0].tolist() == list(start)
        assert results[key].cost == grid.grid.astar(start, (39, 29)).cost


def test_request_many_is_request_for_each_agent() -> None:
    grid = level(3, 20)
    free = [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]
    starts, goal = free[:6], free[-1]
    one, many = PathRequestQueue(budget=7), PathRequestQueue(budget=7)
    for k, start in enumerate(starts):
        one.request(k, grid, start, goal, algorithm="dijkstra")
    many.request_many(range(6), grid, starts, goal, algorithm="dijkstra")
    while len(one) or len(many):
        a, b = one.update(), many.update()
        assert list(a) == list(b)
        assert all(a[k].path.tolist() == b[k].path.tolist() for k in a)


def test_bad_requests_are_refused_by_name_the_fast_way_too() -> None:
    grid = Grid.from_ascii("...#..\n......", diagonal="never")
    queue = PathRequestQueue(budget=20)
    queue.request("a", grid, (0, 0), (0, 5))  # the grid and its options are known now
    with pytest.raises(ValueError, match="start"):
        queue.request("a", grid, (0, 3), (0, 5))  # a wall
    with pytest.raises(ValueError, match="goal"):
        queue.request_many(["a", "b"], grid, [(0, 0), (0, 1)], (0, 9))  # off the grid
    queue.request_many(["b"], grid, [(0, 1)], (0, 5))  # "b" waits in line: renewed in place
    with pytest.raises(ValueError, match="start"):
        queue.request_many(["b"], grid, [(0, 3)], (0, 5))  # a wall, the lean way too
    assert queue.cancel("b")
    with pytest.raises(ValueError, match="keys and starts must have the same length"):
        queue.request_many(["a"], grid, [(0, 0), (0, 1)], (0, 5))
    with pytest.raises(TypeError, match="world must have start_search"):
        queue.request_many(["a"], object(), [(0, 0)], (0, 5))
    assert queue.update()["a"].cost == 7.0  # the last good request stands


_NODE = st.one_of(
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)),  # on the grid or off it, walls too
    st.lists(st.integers(0, 4), min_size=2, max_size=2),  # a list: converted, not as is
    st.tuples(st.integers(0, 4)).map(lambda t: (t[0], np.int64(t[0]))),  # NumPy ints
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),  # three ints
    st.just((2**70, 0)),  # past int64
    st.just((True, 1)),
)


@given(nodes=st.lists(_NODE, max_size=12), seed=st.integers(0, 2**16))
@settings(max_examples=60, deadline=None)
def test_open_nodes_is_key_returning_the_node_as_it_is(nodes: list[Any], seed: int) -> None:
    walkable = np.random.default_rng(seed).random((5, 6)) > 0.3
    space = Grid.from_walkable(walkable).agent_space()

    def as_is(node: Any) -> bool:  # the oracle: one node at a time, by ``key``
        try:
            return space.key(node) is node
        except (TypeError, ValueError):
            return False

    assert space.open_nodes(nodes).tolist() == [as_is(n) for n in nodes]


def test_many_renewed_requests_are_served_in_order_of_first_request() -> None:
    grid = Grid(np.ones((30, 30)), diagonal="never")
    queue = PathRequestQueue(budget=40)
    starts = [(r, 0) for r in range(10)]
    queue.request_many(range(10), grid, starts, (29, 29))
    order: list[int] = []
    for col in range(29, 0, -1):  # renewed every frame, reversed: the order stands
        queue.request_many(range(9, -1, -1), grid, starts[::-1], (29, col))
        order += sorted(queue.update())
    while len(queue):
        order += sorted(queue.update())
    assert order[:10] == list(range(10))


def test_renewing_requests_makes_no_object_the_garbage_collector_counts() -> None:
    # agents re-requesting every few frames: served, then asked again, many times
    grid = Grid(np.ones((6, 8)))
    queue = PathRequestQueue(budget=10_000)
    keys = list(range(300))
    starts = [(k % 6, k % 7) for k in keys]
    answers: dict[int, Any] = {}
    gc.disable()
    try:
        for col in range(8):
            queue.request_many(keys, grid, starts, (5, 7 - col % 2))
            answers.update(queue.update())
            gc.collect()
            before = gc.get_count()[0]
            queue.request_many(keys, grid, starts, (5, 7 - col % 2))  # all new again
            made = gc.get_count()[0] - before
            answers.update(queue.update())
            assert made < len(keys) // 10  # (two objects a request before)
    finally:
        gc.enable()
    assert len(queue) == 0 and sorted(answers) == keys
    for k, start in zip(keys, starts, strict=True):  # each the last goal's answer
        assert answers[k].path[0].tolist() == list(start)
        assert answers[k].cost == grid.astar(start, tuple(answers[k].path[-1])).cost


def test_a_cell_walled_before_its_request_is_served_answers_unreachable() -> None:
    grid = Grid(np.ones((3, 8)))
    queue = PathRequestQueue(budget=100)
    queue.request("a", grid, (0, 0), (2, 7))
    queue.request("a", grid, (0, 0), (2, 6))  # renewed: started only when served
    grid[2, 6] = np.inf
    done = queue.update()
    assert not done["a"] and done["a"].reason == "unreachable"


def test_best_so_far_is_the_blocking_partial_search_stopped_there() -> None:
    grid = level(5, 24)
    free = [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]
    start, goal = free[0], free[-1]
    queue = PathRequestQueue(budget=9)
    queue.request("a", grid, start, goal, algorithm="astar", partial=True)
    assert queue.best_so_far("a") is None and queue.best_so_far("zz") is None
    n = 0
    while not queue.update():
        n += 9
        best = queue.best_so_far("a")
        blocking = grid.find_path(start, goal, algorithm="astar", partial=True, max_expansions=n)
        assert best is not None and best.path.tolist() == blocking.path.tolist()
        grid.smooth(best.path)  # legal steps
    # searches that tell no partial path
    queue.request("b", grid, start, goal, algorithm="astar")
    queue.request("c", grid, start, goal, algorithm="jps")
    queue.update()
    assert queue.best_so_far("b") is None and queue.best_so_far("c") is None


def test_requests_spend_the_frames_time_budget() -> None:
    budget = FrameBudget(None, 1000.0)
    search = Grid(np.ones((50, 50))).start_search((0, 0), (49, 49))
    budget.start(spent=0.002)  # the frame's requests took longer than its budget
    assert budget.run(search) == "in_progress"  # one slice, so every request ends
    assert budget.spent and search.expanded == FIRST  # the least: no time is left


class Walker:
    """An agent walking cell to cell along its path; answers and partial paths from a
    cell it passed are joined by walking back along its own steps."""

    def __init__(self, cell: tuple[int, int]) -> None:
        self.path, self.i = [cell], 0

    def adopt(self, path: list[tuple[int, int]]) -> None:
        k = len(self.path) - 1 - self.path[::-1].index(path[0])
        if k >= self.i:
            self.path = self.path[:k] + path
            return
        walked, t = self.path[k : self.i + 1], 0
        while t + 1 < min(len(walked), len(path)) and walked[t + 1] == path[t + 1]:
            t += 1
        self.path = self.path[: self.i + 1] + walked[t:][::-1][1:] + path[t + 1 :]

    def ask_from(self) -> tuple[int, int]:
        """It asks from the end of its path (walking no further meanwhile)."""
        return self.path[-1]


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    budget=st.integers(4, 40),
    keys=st.integers(1, 5),
    moves=st.sampled_from(["every frame", "alternating", "random"]),
)
def test_queued_agents_get_paths_within_the_bound_walking_legal_partial_paths(
    seed: int, budget: int, keys: int, moves: str
) -> None:
    grid = level(seed, 16)
    free = [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]
    rng = np.random.default_rng(seed)
    starts = [free[int(rng.integers(len(free)))] for _ in range(keys)]
    goals = [free[int(rng.integers(len(free)))] for _ in range(6)]
    walkers = [Walker(s) for s in starts]
    queue = PathRequestQueue(budget=budget)
    work = max(grid.astar(a, g).expanded for a in free[:: max(1, len(free) // 40)] for g in goals)
    waiting: dict[int, int] = {}
    delivered = 0
    for frame in range(60):
        if moves == "every frame":
            goal = goals[frame % len(goals)]
        elif moves == "alternating":
            goal = goals[frame % 2]
        else:
            goal = goals[int(rng.integers(len(goals)))]
        asked = [w.ask_from() for w in walkers]
        queue.request_many(range(keys), grid, asked, goal, algorithm="astar", partial=True)
        for k in range(keys):
            waiting.setdefault(k, frame)
        for k, result in queue.update().items():
            assert result  # every goal is in the start's region
            a, b = (tuple(result.path[i].tolist()) for i in (0, -1))
            assert result.cost == pytest.approx(oracle(grid.cost, grid.diagonal, [a])[b])
            if a in walkers[k].path:  # else the agent walked away from where it asked
                walkers[k].adopt([tuple(p) for p in result.path.tolist()])
            delivered += 1
            waiting.pop(k)
        for k, w in enumerate(walkers):
            best = queue.best_so_far(k)
            if best is not None:
                grid.smooth(best.path)  # a legal partial path
                part = [tuple(p) for p in best.path.tolist()]
                # walked at the end of its path, from a cell it has not walked away from
                if w.i + 1 >= len(w.path) and len(part) > 1 and part[0] in w.path:
                    w.adopt(part)
            w.i = min(w.i + 1, len(w.path) - 1)  # a cell a frame
            grid.smooth(w.path)  # it never walks across a wall
        for since in waiting.values():
            # ahead of a request: its own search, and two of every other key's at most
            assert frame - since + 1 <= frames_for(2 * keys * work, budget)
    assert delivered >= 1


def test_options_that_change_which_cells_fit_take_the_worlds_checks_every_time() -> None:
    grid = Grid.from_ascii("...#.\n.....\n.....")
    queue = PathRequestQueue(budget=50)
    queue.request("a", grid, (0, 0), (1, 1), size=2)  # known now, size and all
    with pytest.raises(ValueError, match="does not fit a unit of size 2"):
        queue.request("a", grid, (0, 0), (0, 2), size=2)  # walkable, too narrow
    with pytest.raises(ValueError, match="does not fit a unit of size 2"):
        queue.request_many(["b"], grid, [(0, 2)], (0, 0), size=2)
    queue.request("a", grid, (0, 0), (2, 9), snap=True)  # off the grid: snapped
    assert queue.update()["a"].path[-1].tolist() == [2, 4]


def test_a_plan_after_the_frames_time_ran_out_is_not_run() -> None:
    """A second plan in one frame (one adopted, the target moved meanwhile) once the
    time ran out: nothing is left, so it is not run (it was run with a negative cap,
    a ``max_expansions`` the search refuses)."""
    grid = Grid(np.ones((40, 40)))
    budget = FrameBudget(None, 1.0)  # 1 us: any search spends it
    budget.start()
    first = budget.whole(grid.astar, (0, 0), (39, 39), None, None)  # the frame's first
    assert first is not None and first[0].expanded == FIRST  # the least first slice
    assert budget.spent and budget.allowance() == 0
    for need in (None, 0, 5):
        assert budget.whole(grid.astar, (0, 0), (9, 9), need, None) is None
    frames = FrameBudget(3, None)
    frames.start()
    assert frames.whole(grid.astar, (0, 0), (0, 2), 3, None) is not None  # all 3 spent
    assert frames.left == 0 and frames.whole(grid.astar, (0, 0), (0, 0), 0, None) is None
