"""A budgeted pursuer's plan that fits in what is left of its frame is run whole, as
one blocking search capped at that (what a blocking call costs), and a plan that does
not is sliced after it: the same paths as an unbudgeted pursuer's where every plan
fits, the frame's budget held either way, every plan optimal (scipy oracle)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _grids import oracle

from pathcraft import Grid
from pathcraft.agents import GridSpace, Pursuer
from pathcraft.agents._budget import FIRST


class Counting(GridSpace):
    """A grid's space that counts the sliced searches started on it."""

    started = 0

    def start_search(self, *args: Any, **kwargs: Any) -> Any:
        self.started += 1
        return super().start_search(*args, **kwargs)


def _maze(seed: int, n: int = 40) -> Grid:
    rng = np.random.default_rng(seed)
    cost = np.where(rng.random((n, n)) < 0.2, np.inf, rng.integers(1, 4, (n, n)).astype(float))
    cost[0, 0] = cost[-1, -1] = 1.0
    return Grid(cost)


def _walk(grid: Grid, seed: int, frames: int) -> list[tuple[int, int]]:
    """A target walking the grid's walkable cells from its last corner."""
    rng = np.random.default_rng(seed)
    here, cells = (grid.shape[0] - 1, grid.shape[1] - 1), []
    for _ in range(frames):
        near = [
            (here[0] + dr, here[1] + dc)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= here[0] + dr < grid.shape[0] and 0 <= here[1] + dc < grid.shape[1]
            and grid.walkable[here[0] + dr, here[1] + dc]
        ]  # fmt: skip
        if near and rng.random() < 0.5:
            here = near[int(rng.integers(len(near)))]
        cells.append(here)
    return cells


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("budget", [{"frame_budget": 10**6}, {"time_budget_us": 1e6}])
def test_plans_that_fit_the_frame_are_the_blocking_pursuers(
    seed: int, budget: dict[str, Any]
) -> None:
    grid = _maze(seed)
    if not np.isfinite(grid.astar((0, 0), (39, 39)).cost):
        pytest.skip("corners apart")
    space = Counting(grid, algorithm="astar")
    budgeted = Pursuer(space, (0, 0), speed=0.7, **budget)
    blocking = Pursuer(GridSpace(grid, algorithm="astar"), (0, 0), speed=0.7)
    for target in _walk(grid, seed, 120):
        assert budgeted.step(target, dt=1.0) == blocking.step(target, dt=1.0)
        assert not budgeted.planning
        assert budgeted.position == blocking.position
        assert budgeted.path == blocking.path
    assert budgeted.plans == blocking.plans > 10
    assert budgeted.expanded == blocking.expanded
    # only the first plan, with nothing known of its length, was a sliced search
    # under an expansion budget; under a time budget it was tried whole too
    assert space.started == (0 if "time_budget_us" in budget else 1)


def test_a_plan_longer_than_the_frame_is_tried_whole_then_sliced() -> None:
    grid = _maze(7)
    budget = 12
    space = Counting(grid, algorithm="astar")
    enemy = Pursuer(space, (0, 0), speed=0.25, frame_budget=budget)
    frames, spent = 0, enemy.expanded
    while enemy.plans == 0:  # a short first plan, sliced
        enemy.step((0, 2), dt=1.0)
        assert enemy.expanded - spent <= budget
        spent, frames = enemy.expanded, frames + 1
    assert space.started == 1 and enemy.last_plan is not None
    assert enemy.last_plan.expanded <= budget  # it fitted: the next one is tried whole
    goal = (39, 39)
    whole = grid.astar(enemy.plan_start, goal)
    assert whole and whole.expanded > budget
    frames = 0
    while enemy.plans == 1:
        enemy.step(goal, dt=1.0)
        frames += 1
        assert enemy.expanded - spent <= budget  # the budget holds, the try included
        spent = enemy.expanded
    assert space.started == 2  # the try stopped at the budget: then sliced
    plan = enemy.last_plan
    assert plan is not None and plan
    first = tuple(plan.path[0].tolist())
    assert plan.cost == pytest.approx(oracle(grid.cost, grid.diagonal, [first])[goal])
    # the try's frame, then the sliced search's frames
    assert frames <= -(-plan.expanded // budget) + 1


class Keyed(GridSpace):
    """A grid's space that counts the nodes it checks."""

    checked = 0

    def key(self, node: Any, name: str = "node") -> Any:
        self.checked += 1
        return super().key(node, name)


def test_a_target_is_checked_once_while_it_stays_and_again_after_an_edit() -> None:
    grid = Grid(np.ones((6, 6)))
    space = Keyed(grid, algorithm="astar")
    hunter = Pursuer(space, (0, 0), speed=0.1, frame_budget=50)
    before = space.checked
    for _ in range(5):
        hunter.step((5, 5), dt=1.0)
    assert space.checked - before == 1  # the same plain tuple: its key kept
    hunter.step((5, 4), dt=1.0)
    assert space.checked - before == 2  # another target: checked
    grid[5, 4] = np.inf  # an edit: the same target is checked again, and refused
    with pytest.raises(ValueError, match="target"):
        hunter.step((5, 4), dt=1.0)
    assert hunter.step((5, 4), dt=1.0, snap=True) == "chasing"  # another snap: checked
    assert hunter.path[-1] != (5, 4)
    with pytest.raises(ValueError, match="target"):  # and not kept for snap=False
        hunter.step((5, 4), dt=1.0)
    checked = space.checked  # a target of numpy numbers is checked every time
    hunter.step((np.int64(0), np.int64(5)), dt=1.0)
    hunter.step((np.int64(0), np.int64(5)), dt=1.0)
    assert space.checked - checked == 2


def test_a_pursuer_whose_toward_takes_no_step_tries_again_every_retry_steps() -> None:
    from pathcraft.agents.chase import RETRY

    class Walled(GridSpace):
        """Searches that tell no partial path, and no step toward the target."""

        PARTIAL_PLANS = False
        tries: list[int] = []  # noqa: RUF012

        def toward(self, start: Any, goal: Any) -> Any:
            self.tries.append(frame)
            return None

    space = Walled(Grid(np.ones((200, 200))), algorithm="astar")
    hunter = Pursuer(space, (0, 0), speed=1.0, frame_budget=1)
    for frame in range(60):  # a plan of ~200 expansions; a target moving every frame
        hunter.step((199, 150 + frame % 2), dt=1.0)
    assert hunter.plans == 0 and hunter.planning
    assert space.tries[0] == 0  # at once ...
    assert len(space.tries) >= 2 and all(  # ... and again, but not every frame
        b - a == RETRY for a, b in zip(space.tries, space.tries[1:], strict=False)
    )


def test_a_short_plan_is_run_whole_however_little_time_the_budget_leaves() -> None:
    # the first slice of a frame runs whatever the time (FIRST expansions where no
    # time is left): a plan that fits in it is run whole, as a blocking one, not
    # sliced for lack of time left
    cost = np.ones((2, 8))
    cost[:, 4] = 3.0  # a costly column the target walks across
    grid = Grid(cost)
    space = Counting(grid)
    budgeted = Pursuer(space, (0, 0), speed=0.3, time_budget_us=1e-3)
    blocking = Pursuer(GridSpace(grid), (0, 0), speed=0.3)
    longest = 0
    for frame in range(200):
        target = (frame // 20 % 2, 3 + frame // 7 % 5)
        assert budgeted.step(target, dt=1.0) == blocking.step(target, dt=1.0)
        assert budgeted.path == blocking.path
        assert not budgeted.planning
        assert blocking.last_plan is not None
        longest = max(longest, blocking.last_plan.expanded)
    assert longest == FIRST
    assert budgeted.plans == blocking.plans > 10
    assert space.started == 0  # the first too, tried whole within the first slice
