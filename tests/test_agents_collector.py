"""What CPython's cyclic collector sees of agents' paths and sliced searches.

Python's collector runs a pass whenever the objects it tracks, made less released
(never counted below zero), pass a threshold, and that pass lands in whichever frame
allocates then. Many agents each planning make many small objects; those of a
budgeted pursuer's sliced plans once made it pass two to three times as often as
blocking pursuers do, and the passes landed in its frames (``bench/budget_parity.py``,
``bench/results/game_loop.md``). These tests hold what keeps it down: the cells of a
grid path are tuples the collector does not track, a planned sliced search's step
machine is untracked and made without a closure, and budgeted pursuers make the
collector pass no more often than blocking ones.
"""

from __future__ import annotations

import doctest
import gc
from collections.abc import Hashable, Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathcraft import Grid
from pathcraft._core import quick
from pathcraft._core.quick import cell_tuples
from pathcraft.agents import GridSpace, Pursuer
from pathcraft.hexgrid import HexGrid
from pathcraft.io.tiled import bundled_level, read_tiled
from pathcraft.layered import Level
from pathcraft.result import PathResult


@given(arrays(np.intp, st.tuples(st.integers(0, 40), st.just(2)),
              elements=st.integers(-(2**40), 2**40)))  # fmt: skip
def test_cell_tuples_are_the_rows_as_untracked_tuples_of_ints(cells: np.ndarray) -> None:
    out = cell_tuples(cells)
    assert out == [tuple(row) for row in cells.tolist()]
    assert all(type(c) is tuple and type(c[0]) is int and type(c[1]) is int for c in out)
    assert not any(gc.is_tracked(c) for c in out)
    # the array is read, not changed, and a strided view reads the same
    assert cell_tuples(cells[::-1]) == out[::-1]


def test_cell_tuples_refuses_other_shapes_and_dtypes() -> None:
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        cell_tuples(np.zeros((3, 3), dtype=np.intp))
    with pytest.raises(ValueError):
        cell_tuples(np.zeros((3, 2), dtype=np.int32))  # (GridSpace.nodes converts)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    for test in finder.find(quick.cell_tuples, "cell_tuples"):
        runner.run(test)
    assert runner.summarize(verbose=False) == (0, 4)


def test_a_grid_spaces_path_nodes_are_untracked_cell_tuples() -> None:
    grid = Grid.from_ascii("""
    .....
    .###.
    .....
    """, diagonal="never")  # fmt: skip
    space = GridSpace(grid)
    result = space.find_path((0, 0), (2, 4))
    nodes = space.nodes(result)
    assert nodes == [tuple(c) for c in np.asarray(result.path).tolist()]
    assert not any(gc.is_tracked(n) for n in nodes)
    assert space.nodes(space.find_path((0, 0), (0, 0))) == [(0, 0)]
    # no path: none, whatever form its empty path takes
    assert space.nodes(space.find_path((0, 0), (2, 4), max_expansions=1)) == []
    assert space.nodes(PathResult.not_found("unreachable")) == []


def test_cell_worlds_path_nodes_are_untracked_tuples_of_their_width() -> None:
    # hexagonal grids (row, col) and levels (level, row, col): cell_tuples of the
    # world's width; a width the array does not have is refused by name
    assert cell_tuples(np.array([[0, 1, 2], [3, 4, 5]], dtype=np.intp), 3) == [
        (0, 1, 2), (3, 4, 5),
    ]  # fmt: skip
    with pytest.raises(ValueError, match=r"shape \(n, 3\)"):
        cell_tuples(np.zeros((2, 2), dtype=np.intp), 3)
    with pytest.raises(ValueError, match="width must be an integer >= 1"):
        cell_tuples(np.zeros((2, 0), dtype=np.intp), 0)
    for space, start, goal in (
        (Level([np.ones((2, 3)), np.ones((2, 3))]).agent_space(), (0, 0, 0), (0, 1, 2)),
        (HexGrid(np.ones((3, 3))).agent_space(), (0, 0), (2, 2)),
    ):
        result = space.find_path(start, goal)
        nodes = space.nodes(result)
        assert nodes == [tuple(c) for c in np.asarray(result.path).tolist()]
        assert nodes[0] == start and nodes[-1] == goal
        assert all(type(x) is int for n in nodes for x in n)
        assert not any(gc.is_tracked(n) for n in nodes)
        assert space.nodes(PathResult.not_found("unreachable")) == []


def test_a_planned_sliced_search_has_an_untracked_machine_and_no_closure() -> None:
    grid = Grid(np.ones((8, 8)), diagonal="never")
    searches = [grid.start_search((0, 0), (7, 7 - k), algorithm="astar") for k in range(2)]
    for search in searches:
        assert search.step(3) == "in_progress"
        assert not gc.is_tracked(search._machine)  # (it is in no cycle)
    # one function makes every such search's machine, from each search's own args
    assert searches[0]._make is searches[1]._make
    assert searches[0]._args[1:] == ((0, 0), (7, 7), -1)
    assert [s.step(None) for s in searches] == ["found", "found"]
    assert searches[1].result.cost == grid.astar((0, 0), (7, 6)).cost


@pytest.fixture
def collector() -> Iterator[list[int]]:
    """The collector's passes counted (enabled, as in a game), the state restored."""
    passes = [0]

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes[0] += 1

    was = gc.isenabled()
    gc.enable()
    gc.callbacks.append(count)
    try:
        yield passes
    finally:
        gc.callbacks.remove(count)
        if not was:
            gc.disable()


def test_budgeted_pursuers_make_the_collector_pass_no_more_than_blocking_ones(
    collector: list[int],
) -> None:
    """200 pursuers of each recipe chase a player walking the bundled Tiled level
    (240 frames, a new cell every 4). The budgeted sets made 14 and 11 passes against
    the blocking set's 4 before their sliced plans made fewer objects and their cuts
    released nodes with the paths that replace them; 5 each since."""
    level = read_tiled(bundled_level())
    grid = level.grid(obstacles="obstacles")
    space = GridSpace(grid)
    rng = np.random.default_rng(5)
    free = np.argwhere(np.isfinite(grid.cost))
    starts = [(int(r), int(c)) for r, c in free[rng.integers(len(free), size=200)]]
    walk: list[Hashable] = []
    here = starts[0]
    while len(walk) < 60:  # the player's cells: paths between random cells
        there = (int(free[rng.integers(len(free))][0]), int(free[rng.integers(len(free))][1]))
        if not np.isfinite(grid.cost[there]):
            continue
        walk += space.nodes(space.find_path(here, there))[1:]
        here = there
    passes = {}
    for label, options in (
        ("blocking", {}), ("frame_budget", {"frame_budget": 20}),
        ("time_budget_us", {"time_budget_us": 10.0}),
    ):  # fmt: skip
        agents = [Pursuer(space, s, speed=12.0, **options) for s in starts]
        gc.collect()
        before = collector[0]
        for frame in range(240):
            target = walk[frame // 4]
            for agent in agents:
                agent.step(target, dt=1 / 60)
        passes[label] = collector[0] - before
        assert sum(a.plans for a in agents) > 200  # every set planned, many times
    assert passes["blocking"] > 0
    assert passes["frame_budget"] <= passes["blocking"] + 2, passes
    assert passes["time_budget_us"] <= passes["blocking"] + 2, passes
