"""No starvation: budgeted pursuers and the request queue deliver paths however often
their targets move, within the documented bound (a search of E expansions under a
budget of B a frame: ceil(E / B) + 1 frames), every plan optimal (scipy oracle), the
queue in order of first request, budgets in expansions and in time."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import GridSpace, PathRequestQueue, Pursuer
from pathcraft.agents._budget import FIRST


def frames_for(expanded: int, budget: int) -> int:
    """The documented bound: frames (counting the one it starts in) a search of
    ``expanded`` expansions takes under ``budget`` a frame."""
    return -(-expanded // budget) + 1


# --------------------------------------------------------------------------- repros


@pytest.mark.parametrize("fb", [20, 50])
def test_the_issue_repro_a_budgeted_pursuer_of_a_target_flipping_every_3_frames_moves(
    fb: int,
) -> None:
    grid = Grid(np.ones((60, 60)), diagonal="never")
    enemy = Pursuer(grid, (0, 0), speed=5.0, frame_budget=fb)
    blocking = Pursuer(grid, (0, 0), speed=5.0)
    deliveries = []
    for frame in range(600):
        target = (59, 59) if (frame // 3) % 2 else (59, 58)
        before = enemy.plans
        enemy.step(target, dt=1 / 60)
        blocking.step(target, dt=1 / 60)
        if enemy.plans > before:
            deliveries.append(frame)
    assert enemy.last_plan is not None
    longest = frames_for(grid.astar((0, 0), (59, 59)).expanded, fb)
    assert deliveries[0] < longest
    assert max(np.diff(deliveries)) <= longest  # a path every few frames
    assert len(deliveries) >= 600 // longest
    # it keeps up with the blocking pursuer: 10 s at 5 cells/s, 50 cells on its way
    assert enemy.cost_to_target <= blocking.cost_to_target + 2.0
    assert enemy.node != (0, 0) and enemy.status == "chasing"


@pytest.mark.parametrize("budget", [50, 70])
def test_the_issue_repro_a_queue_renewed_every_3_frames_delivers_every_few_frames(
    budget: int,
) -> None:
    grid = Grid(np.ones((200, 200)))
    queue, deliveries, last = PathRequestQueue(budget=budget), [], {}
    goals = [(199, 100 + k % 50) for k in range(200)]
    longest = max(frames_for(grid.astar((0, 0), g).expanded, budget) for g in goals[:50])
    for frame in range(600):
        if frame % 3 == 0:
            last = {"goal": goals[frame // 3], "frame": frame}
            queue.request("z", grid, (0, 0), last["goal"])
        for result in queue.update().values():
            deliveries.append(frame)
            end = tuple(result.path[-1].tolist())
            assert result.cost == pytest.approx(grid.astar((0, 0), end).cost)
    assert deliveries[0] < longest
    assert max(np.diff(deliveries)) <= longest
    assert len(deliveries) >= 600 // longest


# ------------------------------------------------------- adversarial moving targets


def level(seed: int, side: int) -> Grid:
    """A random map of 25% walls, its largest region open, the rest walled."""
    rng = np.random.default_rng(seed)
    cost = np.ones((side, side))
    cost[rng.random((side, side)) < 0.25] = np.inf
    grid = Grid(cost)
    best = None
    for cell in np.argwhere(np.isfinite(cost))[:8]:
        field = grid.distance_field(tuple(int(x) for x in cell))
        if best is None or np.isfinite(field).sum() > np.isfinite(best).sum():
            best = field
    assert best is not None
    return Grid(np.where(np.isfinite(best), 1.0, np.inf))


def moves(kind: str, free: list[tuple[int, int]], rng: Any, frames: int) -> list[Any]:
    """Where the target is each frame: a random walk that moves every frame, two
    cells alternating every frame, or a jump to a random cell every frame."""
    if kind == "alternate":
        a, b = free[0], free[-1]
        return [a if f % 2 else b for f in range(frames)]
    if kind == "random":
        return [free[int(rng.integers(len(free)))] for _ in range(frames)]
    cells, here = [], free[int(rng.integers(len(free)))]
    walkable = set(free)
    for _ in range(frames):
        options = [
            (here[0] + dr, here[1] + dc)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if (here[0] + dr, here[1] + dc) in walkable
        ]
        here = options[int(rng.integers(len(options)))] if options else here
        cells.append(here)
    return cells


def chase_adversarially(
    seed: int, kind: str, budget: int, algorithm: str, timed: bool, speed: float
) -> None:
    grid = level(seed, 18)
    space = GridSpace(grid, algorithm=algorithm)
    free = [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]
    rng = np.random.default_rng(seed)
    targets = moves(kind, free, rng, 60)
    starts = [free[int(rng.integers(len(free)))] for _ in range(3)]
    options: dict[str, Any] = {"time_budget_us": 1e-3} if timed else {"frame_budget": budget}
    per_frame = FIRST if timed else budget  # a tiny time budget: the least first slice
    agents = [Pursuer(space, s, speed=speed, **options) for s in starts]
    distances: dict[tuple[int, int], np.ndarray] = {}
    for agent in agents:
        started, seen = 0, 0
        for frame, target in enumerate(targets):
            was, spent, where = agent.planning, agent.expanded, agent.position
            agent.step(target, dt=1.0)
            assert agent.expanded - spent <= per_frame  # the budget holds
            if was and agent.planning and not agent.plans - seen:
                assert agent.expanded - spent == per_frame  # and is used, all of it
            dx, dy = np.subtract(agent.position, where)
            assert math.hypot(dx, dy) <= speed + 1e-9  # never a jump at a splice
            delivered = agent.plans - seen
            seen = agent.plans
            if not was and (agent.planning or delivered):
                started = frame  # a plan started this frame
            if delivered == 1 and was:
                plan = agent.last_plan
                assert plan is not None and plan
                frames = frame - started + 1
                assert frames <= frames_for(plan.expanded, per_frame)
                first = tuple(plan.path[0].tolist())
                if first not in distances:
                    distances[first] = oracle(grid.cost, grid.diagonal, [first])
                end = tuple(plan.path[-1].tolist())
                assert plan.cost == pytest.approx(distances[first][end])  # optimal
            if delivered and agent.planning:
                started = frame  # the next plan started with what was left
            # never idle while the target is elsewhere: a plan runs, or the path ends
            # at the target (or it is caught)
            assert agent.planning or agent.path[-1] == target or agent.status == "caught"
        assert agent.plans >= 1 or agent.expanded == len(targets) * per_frame


#: seed, how the target moves, budget, algorithm, a time budget, the pursuer's speed
CHASES = (
    st.integers(0, 10_000),
    st.sampled_from(["walk", "alternate", "random"]),
    st.integers(1, 30),
    st.sampled_from(["astar", "jps"]),
    st.booleans(),
    st.sampled_from([0.5, 1.0, 2.5]),
)


@settings(max_examples=20)
@given(*CHASES)
def test_every_pursuer_gets_a_path_within_the_bound_whatever_its_target_does(
    seed: int, kind: str, budget: int, algorithm: str, timed: bool, speed: float
) -> None:
    chase_adversarially(seed, kind, budget, algorithm, timed, speed)


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=150)
@given(*CHASES)
def test_every_pursuer_gets_a_path_within_the_bound_many(
    seed: int, kind: str, budget: int, algorithm: str, timed: bool, speed: float
) -> None:
    chase_adversarially(seed, kind, budget, algorithm, timed, speed)


def test_a_pursuer_walks_on_while_its_next_plan_runs_and_never_turns_back() -> None:
    grid = Grid(np.ones((40, 40)))
    enemy = Pursuer(grid, (0, 0), speed=1.0, frame_budget=10)
    cells, points = [], []
    for frame in range(50):
        enemy.step((39, 39) if frame % 2 else (39, 38), dt=1.0)
        cells.append(enemy.node)
        points.append(enemy.position)
    first = next(f for f, cell in enumerate(cells) if cell != (0, 0))
    assert first < frames_for(grid.astar((0, 0), (39, 38)).expanded, 10)
    assert enemy.plans >= 10
    # after its first plan it moves every frame, at full speed, while the next run
    steps = np.hypot(*np.diff(np.array(points[first - 1 :]), axis=0).T)
    assert np.allclose(steps, 1.0)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(cells))


# --------------------------------------------------------------------------- the queue


def test_the_queue_serves_in_order_of_first_request_however_often_goals_change() -> None:
    grid = Grid(np.ones((30, 30)), diagonal="never")
    queue = PathRequestQueue(budget=20)
    starts = {"a": (0, 0), "b": (29, 0), "c": (0, 29)}
    order = []
    for frame in range(200):
        goal = (15 + frame % 5, 15)  # the player moves every frame
        for key, start in starts.items():  # every agent asks every frame
            queue.request(key, grid, start, goal)
        order += list(queue.update())
    assert order[:3] == ["a", "b", "c"]  # first served by first request
    assert order == ["a", "b", "c"] * (len(order) // 3) + ["a", "b", "c"][: len(order) % 3]
    assert len(order) >= 200 * 20 // (3 * 45)  # about 30 expansions each, no waste


def test_a_renewed_request_keeps_its_place_and_is_replaced_before_it_is_served() -> None:
    grid = Grid(np.ones((30, 30)), diagonal="never")
    queue = PathRequestQueue(budget=8)
    queue.request("a", grid, (0, 0), (0, 20))
    queue.request("b", grid, (0, 0), (0, 3))
    queue.request("a", grid, (0, 0), (0, 2))  # not served yet: updated in its place
    assert len(queue) == 2
    done = queue.update()
    assert list(done) == ["a", "b"] and done["a"].cost == 2.0 and done["b"].cost == 3.0
    queue.request("a", grid, (0, 0), (0, 20))
    queue.request("b", grid, (0, 0), (0, 4))
    assert queue.update() == {}  # a under way: 8 of its 21 expansions
    queue.request("a", grid, (0, 0), (0, 20))  # the same goal: nothing more to do
    queue.request("a", grid, (0, 0), (0, 1))  # a new goal: after b, the older request
    results = []
    while len(queue):
        results += [(k, r.cost) for k, r in queue.update().items()]
    assert results == [("a", 20.0), ("b", 4.0), ("a", 1.0)]
    queue.request("a", grid, (0, 0), (0, 20))
    queue.update()
    queue.request("a", grid, (0, 0), (0, 9))  # a goal to follow the one under way
    assert queue.cancel("a") and "a" not in queue and queue.update() == {}


def queue_under_fire(seed: int, budget: int, keys: int, timed: bool) -> None:
    grid = level(seed, 16)
    free = [(int(r), int(c)) for r, c in np.argwhere(grid.walkable)]
    rng = np.random.default_rng(seed)
    starts = [free[int(rng.integers(len(free)))] for _ in range(keys)]
    goals = [free[int(rng.integers(len(free)))] for _ in range(6)]
    work = max(grid.astar(s, g).expanded for s in starts for g in goals)
    per_frame = FIRST if timed else budget
    queue = (
        PathRequestQueue(time_budget_us=1e-3) if timed else PathRequestQueue(budget=budget)
    )
    fields = {s: oracle(grid.cost, grid.diagonal, [s]) for s in starts}
    asked: dict[int, list[Any]] = {k: [] for k in range(keys)}  # goals since delivered
    waiting: dict[int, int] = {}  # the frame each key's oldest unanswered goal was asked
    for frame in range(80):
        for k in range(keys):
            if rng.random() < 0.7:
                goal = goals[int(rng.integers(len(goals)))]
                queue.request(k, grid, starts[k], goal)
                asked[k].append(goal)
                waiting.setdefault(k, frame)
        for k, result in queue.update().items():
            end = tuple(result.path[-1].tolist())
            assert end in asked[k]  # a goal it was asked since its last delivery
            assert result.cost == pytest.approx(fields[starts[k]][end])
            last = max(i for i, g in enumerate(asked[k]) if g == end)
            asked[k] = asked[k][last + 1 :] if last + 1 < len(asked[k]) else []
            if asked[k]:
                waiting[k] = frame  # a newer goal waits from now at worst
            else:
                waiting.pop(k)
        for since in waiting.values():
            # ahead of a request: its own search under way, and at most two of every
            # other key (one under way or queued, one asked meanwhile)
            assert frame - since + 1 <= frames_for(2 * keys * work, per_frame)


@settings(max_examples=20)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(1, 5), st.booleans())
def test_no_queued_request_starves_whatever_its_agents_ask(
    seed: int, budget: int, keys: int, timed: bool
) -> None:
    queue_under_fire(seed, budget, keys, timed)


def test_budgets_are_checked() -> None:
    grid = Grid(np.ones((4, 4)))
    with pytest.raises(ValueError, match="budget must be an integer >= 1"):
        PathRequestQueue()
    with pytest.raises(ValueError, match="time_budget_us must be a finite number > 0"):
        PathRequestQueue(time_budget_us=0)
    with pytest.raises(ValueError, match="time_budget_us must be a finite number > 0"):
        Pursuer(grid, (0, 0), speed=1.0, time_budget_us=math.inf)
    with pytest.raises(TypeError, match="time_budget_us must be a number"):
        PathRequestQueue(10, time_budget_us="fast")  # type: ignore[arg-type]
    queue = PathRequestQueue(10, time_budget_us=500.0)
    assert queue.budget == 10 and queue.time_budget_us == 500.0


class Wrapped:
    """A space of the caller's own over a grid: the pursuer does not watch its edits,
    so only the search in flight sees them (it raises WorldChangedError)."""

    def __init__(self, grid: Grid) -> None:
        self.inner = GridSpace(grid, algorithm="astar")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_plan_in_flight_cut_by_an_edit_the_pursuer_cannot_see_starts_again() -> None:
    cost = np.ones((30, 30))
    cost[:29, 15] = np.inf  # a long wall: a plan of many expansions
    grid = Grid(cost)
    hunter = Pursuer(Wrapped(grid), (0, 0), speed=1.0, frame_budget=20)
    assert hunter.step((0, 29), dt=0.0) == "chasing" and hunter.planning
    grid[29, 15] = np.inf  # the only gap closes while the plan is under way
    while hunter.planning:
        hunter.step((0, 29), dt=0.0)
    assert hunter.status == "unreachable" and hunter.plans == 1  # the edited map's answer
