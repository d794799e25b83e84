"""Jump point search cut short with ``partial=True``: the path to the expanded jump
point closest to the goal, blocking (``find_path``) and while a sliced search is in
progress (``best_so_far``), as A*'s partial paths are.

Oracles: scipy's shortest paths (no partial path is shorter than the shortest way to
its end), the path's own step costs, the grid's own check of a path (``Grid.smooth``
raises for a step that is not clear), the octile distance to the goal (the end is no
farther than the start), and the blocking search cut at as many expansions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid
from pathcraft.agents import GridSpace, Pursuer


def octile(a: tuple[int, int], b: tuple[int, int]) -> float:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dr, dc) + (np.sqrt(2.0) - 1.0) * min(dr, dc)


def maze(seed: int, rule: str) -> tuple[Grid, list[tuple[int, int]]]:
    walkable = np.random.default_rng(seed).random((24, 30)) > 0.3
    grid = Grid.from_walkable(walkable, diagonal=rule)  # type: ignore[arg-type]
    free = [(int(r), int(c)) for r, c in np.argwhere(walkable)]
    return grid, free


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    rule=st.sampled_from(["no_corner_cut", "always"]),
    cut=st.integers(1, 40),
    pick=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
)
def test_a_jps_cut_short_answers_a_shortest_path_to_its_best_jump_point(
    seed: int, rule: str, cut: int, pick: tuple[int, int]
) -> None:
    grid, free = maze(seed, rule)
    start, goal = free[pick[0] % len(free)], free[pick[1] % len(free)]
    full = grid.find_path(start, goal, algorithm="jps")
    part = grid.find_path(start, goal, algorithm="jps", max_expansions=cut, partial=True)
    if part:  # found within the cut: the same answer
        assert full and part.cost == pytest.approx(full.cost)
        return
    # cut short, or unreachable (then too, as A*'s: the way to the best place reached)
    assert part.reason == ("max_expansions" if full else part.reason)
    assert part.reason in ("max_expansions", "unreachable")
    cells = [tuple(int(v) for v in c) for c in part.path.tolist()]
    assert cells[0] == start
    grid.smooth(part.path)  # every step clear under the diagonal rule
    end = cells[-1]
    distance = oracle(grid.cost, grid.diagonal, [start])
    # its cost is its steps' (a jump point's g need not be the shortest way to it:
    # jump point search is optimal to the goal, its pruned graph not to every cell)
    assert part.cost == pytest.approx(grid.agent_space().step_costs(cells).sum())
    assert part.cost >= distance[end] - 1e-9
    assert octile(end, goal) <= octile(start, goal) + 1e-9
    jumps = [tuple(int(v) for v in c) for c in part.jump_points.tolist()]
    assert jumps[0] == start and jumps[-1] == end and set(jumps) <= set(cells)
    # the sliced search tells the same path after as many expansions
    search = grid.start_search(start, goal, algorithm="jps", partial=True)
    if search.step(cut) == "in_progress":
        best = search.best_so_far()
        assert best is not None and best.path.tolist() == part.path.tolist()
        assert best.cost == part.cost and best.reason == "max_expansions"
    search.step()
    whole = grid.find_path(start, goal, algorithm="jps", partial=True)
    assert search.result.path.tolist() == whole.path.tolist()
    assert search.result.reason == whole.reason and whole.found == full.found


def test_jps_partial_paths_beyond_the_pool_of_workspaces() -> None:
    # more searches in flight than the pool holds: the later ones on hashed state
    grid, free = maze(3, "no_corner_cut")
    rng = np.random.default_rng(0)
    pairs = [(free[int(a)], free[int(b)]) for a, b in rng.integers(len(free), size=(10, 2))]
    searches = [grid.start_search(s, g, algorithm="jps", partial=True) for s, g in pairs]
    for (s, g), search in zip(pairs, searches, strict=True):
        if search.step(3) != "in_progress":
            continue
        best = search.best_so_far()
        blocking = grid.find_path(s, g, algorithm="jps", max_expansions=3, partial=True)
        assert best is not None and best.path.tolist() == blocking.path.tolist()
    with pytest.raises(Exception, match="partial"):
        grid.find_path(free[0], free[1], algorithm="dijkstra", partial=True)  # still refused


class Glimpsing(GridSpace):
    """A grid's space that counts its greedy glimpses (``toward``)."""

    def __init__(self, grid: Grid) -> None:
        super().__init__(grid, algorithm="jps")
        self.glimpses = 0

    def toward(self, start: Any, goal: Any) -> Any:
        self.glimpses += 1
        return super().toward(start, goal)


def test_a_budgeted_jps_pursuer_walks_the_partial_path_of_its_plan() -> None:
    grid, free = maze(5, "no_corner_cut")
    space = Glimpsing(grid)
    start = free[0]
    distance = oracle(grid.cost, grid.diagonal, [start])
    goal = tuple(int(v) for v in np.unravel_index(np.nanargmax(
        np.where(np.isfinite(distance), distance, np.nan)), distance.shape))  # fmt: skip
    assert grid.jps(start, goal).expanded > 20  # a plan of many frames at 1 a frame
    enemy = Pursuer(space, start, speed=1.0, frame_budget=1)
    moved_while_planning = False
    for _ in range(300):
        before = enemy.position
        enemy.step(goal, dt=1.0)
        moved_while_planning |= enemy.planning and enemy.position != before
    assert moved_while_planning and space.glimpses == 0  # its plan's partial paths
    assert enemy.plans >= 1 and enemy.status == "caught"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_jps_plus_cut_short_answers_a_shortest_path_toward_the_goal(seed: int) -> None:
    # the offline jump table (JPS+) reads its jumps, and expands jump points of its
    # own: its partial paths are checked by the same oracle, not against JPS's
    grid, free = maze(seed, "no_corner_cut")
    grid.prepare("jps+")
    rng = np.random.default_rng(seed)
    for a, b in rng.integers(len(free), size=(20, 2)):
        start, goal = free[int(a)], free[int(b)]
        distance = oracle(grid.cost, grid.diagonal, [start])
        for cut in (1, 3, 8):
            part = grid.find_path(start, goal, algorithm="jps", max_expansions=cut, partial=True)
            if part:
                continue
            cells = [tuple(int(v) for v in c) for c in part.path.tolist()]
            assert cells[0] == start
            grid.smooth(part.path)
            assert part.cost == pytest.approx(grid.agent_space().step_costs(cells).sum())
            assert part.cost >= distance[cells[-1]] - 1e-9
            assert octile(cells[-1], goal) <= octile(start, goal) + 1e-9
