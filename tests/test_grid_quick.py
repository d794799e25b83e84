"""The lean per-call path of ``Grid.find_path`` (a prepared plan per grid and option
set, ``pathcraft._core.quick``) gives exactly the answer of the checked way (the one
cell-world glue over the grid's adapter without plans): same path, cost, counters,
reason, jump points; and the plan follows cell edits. Also ``Grid.path_cost`` and
``Grid.jps(fill=False)``."""

from __future__ import annotations

import pickle
import threading
from typing import Any

import numpy as np
import pytest
from _grids import oracle
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Grid, PathResult
from pathcraft._cellworld import query
from pathcraft._options import SearchOptions, UnsupportedOptionError
from pathcraft.grid._run import GridCells

RULES = ("never", "no_corner_cut", "one_free", "always")


def checked(grid: Grid, start: Any, goal: Any, algorithm: str, **options: Any) -> PathResult:
    """The answer of the checked way, without any plan."""
    opts = SearchOptions.check("Grid", algorithm, **options)
    return query(GridCells(grid), opts, start, goal, 0.0)


def assert_same(a: PathResult, b: PathResult) -> None:
    assert type(a) is type(b) is PathResult
    assert a.found == b.found and a.reason == b.reason
    assert a.cost == b.cost  # bit for bit: the same steps added in the same order
    assert a.expanded == b.expanded and a.generated == b.generated
    assert isinstance(a.path, np.ndarray) and a.path.dtype == np.intp
    assert a.path.shape == b.path.shape and a.path.tolist() == b.path.tolist()
    if b.jump_points is None:
        assert a.jump_points is None
    else:
        assert a.jump_points is not None
        assert np.array_equal(a.jump_points, b.jump_points)
    assert a.explored is b.explored is None and a.distances is b.distances is None


@st.composite
def queries(draw: Any) -> tuple[Grid, tuple[int, int], tuple[int, int], str, dict[str, Any]]:
    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    algorithm = draw(st.sampled_from(("astar", "dijkstra", "greedy", "jps")))
    if algorithm == "jps":
        rule = draw(st.sampled_from(("no_corner_cut", "always")))
        cost = np.where(rng.random((rows, cols)) < 0.3, np.inf, 1.5)
    else:
        rule = draw(st.sampled_from(RULES))
        cost = np.where(rng.random((rows, cols)) < 0.3, np.inf, rng.integers(1, 4, (rows, cols)))
    cost[0, 0] = cost[-1, -1] = 1.5 if algorithm == "jps" else 1.0
    free = [tuple(int(x) for x in c) for c in np.argwhere(np.isfinite(cost))]
    start = free[int(rng.integers(len(free)))]
    goal = free[int(rng.integers(len(free)))]
    options: dict[str, Any] = {}
    if algorithm in ("astar", "jps") and draw(st.booleans()):
        options["weight"] = draw(st.sampled_from((1.0, 1.5, 3.0)))
    if draw(st.booleans()):
        options["max_expansions"] = draw(st.integers(0, 20))
    if algorithm != "jps":
        if draw(st.booleans()):
            options["max_cost"] = draw(st.sampled_from((0.0, 2.0, 5.5)))
        if algorithm != "dijkstra" and draw(st.booleans()):
            options["partial"] = True
        tie = draw(st.sampled_from((None, "g", "fifo", "random")))
        if tie is not None:
            options["tie_break"] = tie
            if tie == "random":
                options["seed"] = draw(st.integers(0, 2**64 - 1))
    return Grid(cost, diagonal=rule), start, goal, algorithm, options  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(queries())
def test_the_lean_path_answers_as_the_checked_way(query: Any) -> None:
    grid, start, goal, algorithm, options = query
    expected = checked(grid, start, goal, algorithm, **options)
    for _ in range(2):  # the plan is made, then reused
        assert_same(grid.find_path(start, goal, algorithm=algorithm, **options), expected)
    if not options.get("partial"):
        assert grid.path_cost(start, goal, algorithm=algorithm, **options) == expected.cost


@settings(max_examples=200, deadline=None)
@given(queries(), st.integers(1, 7))
def test_a_sliced_search_on_the_plan_answers_as_the_checked_way(query: Any, frame: int) -> None:
    """``start_search`` of plain cells steps the plan's query (``_run.planned_search``):
    whatever the slice size, its result is the checked way's."""
    grid, start, goal, algorithm, options = query
    expected = checked(grid, start, goal, algorithm, **options)
    for _ in range(2):  # the plan is made, then reused
        search = grid.start_search(start, goal, algorithm=algorithm, **options)
        steps = 0
        while search.step(frame) == "in_progress":
            steps += 1
            assert search.expanded == steps * frame
        assert_same(search.result, expected)
        assert search.expanded == expected.expanded


def test_a_plan_follows_cell_changes_and_pickling() -> None:
    grid = Grid(np.ones((3, 6)))
    assert grid.jps((1, 0), (1, 5)).cost == 5.0
    assert grid.astar((1, 0), (1, 5)).cost == 5.0
    grid[:, 2] = np.inf
    assert not grid.jps((1, 0), (1, 5)) and not grid.astar((1, 0), (1, 5))
    grid[:, 2] = 2.0  # costs change: the heuristic's scale and JPS's refusal follow
    assert grid.astar((1, 0), (1, 5)).cost == 6.0
    with pytest.raises(ValueError, match="uniform cost"):
        grid.jps((1, 0), (1, 5))
    clone = pickle.loads(pickle.dumps(grid))
    assert clone.astar((1, 0), (1, 5)).cost == 6.0
    clone[:, 2] = np.inf
    assert not clone.astar((1, 0), (1, 5)) and grid.astar((1, 0), (1, 5))


def test_cells_the_plan_does_not_take_go_the_checked_way() -> None:
    grid = Grid.from_ascii(".#..")
    np_cell = (np.int64(0), np.int64(2))
    assert grid.astar(np_cell, [0, 3]).path.tolist() == [[0, 2], [0, 3]]
    assert grid.dijkstra((0, 0), [(0, 0), (0, 3)]).path.tolist() == [[0, 0]]
    with pytest.raises(ValueError, match="start \\(0, 1\\) is a wall"):
        grid.astar((0, 1), (0, 3))
    with pytest.raises(ValueError, match="outside the grid"):
        grid.astar((0, 0), (0, 2**70))
    with pytest.raises(ValueError, match="outside the grid"):
        grid.jps((0, 0), (-1, 0))
    with pytest.raises(TypeError, match="integers"):
        grid.astar(("0", 0), (0, 3))
    with pytest.raises(TypeError, match="integers"):
        grid.astar((0.0, 0.0), (0, 3))


def test_options_the_plan_does_not_take_go_the_checked_way() -> None:
    grid = Grid(np.ones((5, 5)))
    recorded = grid.astar((0, 0), (4, 4), record=True)
    assert recorded.explored is not None and len(recorded.explored) == recorded.expanded
    fresh = grid.astar((0, 0), (4, 4), tie_break="random")  # fresh entropy each query
    assert fresh.cost == grid.astar((0, 0), (4, 4)).cost


def test_threads_share_a_plan() -> None:
    grid = Grid(np.where(np.random.default_rng(3).random((60, 60)) < 0.2, np.inf, 1.0))
    grid[0, 0] = grid[59, 59] = grid[0, 59] = 1.0
    pairs = [((0, 0), (59, 59)), ((59, 59), (0, 59)), ((0, 59), (0, 0))] * 20
    expected = [checked(grid, s, g, "astar").cost for s, g in pairs]
    got: dict[int, list[float]] = {}

    def work(k: int) -> None:
        got[k] = [grid.astar(s, g).cost for s, g in pairs]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(got[k] == expected for k in range(4))


def test_jump_points_only() -> None:
    grid = Grid.from_ascii(
        """
        ........
        ..####..
        ........
        """
    )
    full = grid.jps((1, 0), (1, 7))
    lean = grid.jps((1, 0), (1, 7), fill=False)
    assert lean.path.tolist() == full.jump_points.tolist() == [[1, 0], [0, 6], [1, 7]]
    assert lean.cost == full.cost and lean.expanded == full.expanded
    recorded = grid.jps((1, 0), (1, 7), fill=False, record=True)
    assert recorded.path.tolist() == lean.path.tolist() and recorded.explored is not None
    with pytest.raises(TypeError, match="fill must be True or False"):
        grid.jps((1, 0), (1, 7), fill=1)  # type: ignore[arg-type]


def test_path_cost_refuses_what_changes_nothing_and_checks_cells() -> None:
    grid = Grid.from_ascii("...#.")
    assert grid.path_cost((0, 0), (0, 2)) == 2.0
    assert grid.path_cost((0, 0), (0, 4)) == np.inf
    for name in ("partial", "record"):
        with pytest.raises(UnsupportedOptionError, match=f"path_cost does not take {name}"):
            grid.path_cost((0, 0), (0, 2), **{name: True})
    with pytest.raises(ValueError, match="goal \\(0, 3\\) is a wall"):
        grid.path_cost((0, 0), (0, 3))
    assert grid.path_cost(np.array([0, 0]), (0, 1), algorithm="dijkstra") == 1.0


def test_unit_sizes_answer_on_their_view_also_on_a_planned_grid() -> None:
    """``size=k`` bypasses the base grid's plans (they are for size 1) and answers as
    the unit's view does; a view's plans are dropped when the base grid is edited."""
    rng = np.random.default_rng(7)
    cost = np.where(rng.random((30, 30)) < 0.15, np.inf, 1.0)
    grid = Grid(cost, prepare="jps+")
    grid.find_path((0, 0), (0, 0))  # a size-1 plan exists
    view = grid.for_size(2)
    free = np.argwhere(view.cost < np.inf)
    for _ in range(40):
        s, g = (tuple(int(v) for v in free[i]) for i in rng.integers(len(free), size=2))
        for algorithm in ("astar", "jps"):
            assert_same(grid.find_path(s, g, algorithm=algorithm, size=2),
                        checked(view, s, g, algorithm))
        assert grid.path_cost(s, g, size=2) == checked(view, s, g, "astar").cost
        assert grid.jps(s, g, size=2, fill=False).cost == checked(view, s, g, "jps").cost
    s, g = (tuple(int(v) for v in free[0]), tuple(int(v) for v in free[-1]))
    before = grid.find_path(s, g, size=2)
    grid[:, :] = np.where(cost < np.inf, 1.0, np.inf)  # no change: same answer
    wall = tuple(int(v) for v in before.path[len(before.path) // 2]) if before else (5, 5)
    grid[wall] = np.inf  # the view's plan must not remember the old cell
    assert_same(grid.find_path(s, g, size=2), checked(grid.for_size(2), s, g, "astar"))


# ----------------------------------------------------------------- a limit apart
# ``max_expansions`` stays out of the checked options and the plans' key: a limit
# that changes every call (a frame budget's allowance) reuses the plan of the other
# options and passes the limit to the query.


def test_a_limit_stops_the_search_at_exactly_that_many_expansions() -> None:
    rng = np.random.default_rng(11)
    cost = np.where(rng.random((14, 14)) < 0.25, np.inf, rng.integers(1, 4, (14, 14)))
    cost[0, 0] = cost[-1, -1] = 1.0
    start, goal = (0, 0), (13, 13)
    truth = oracle(cost, "no_corner_cut", [start])[goal]
    assert np.isfinite(truth)
    grid = Grid(cost)
    for options in ({}, {"partial": True}, {"weight": 1.5}, {"tie_break": "fifo"}):
        needed = grid.astar(start, goal, **options).expanded
        for limit in [*range(needed + 2), needed + 50, None]:
            got = grid.astar(start, goal, max_expansions=limit, **options)
            assert_same(got, checked(grid, start, goal, "astar", max_expansions=limit, **options))
            if limit is not None and limit < needed:
                assert not got and got.reason == "max_expansions" and got.expanded == limit
            else:
                assert got and got.expanded == needed
                if not options:
                    assert got.cost == pytest.approx(truth, rel=1e-9)
            if "partial" not in options:
                assert grid.path_cost(start, goal, max_expansions=limit, **options) == got.cost
            search = grid.start_search(start, goal, max_expansions=limit, **options)
            while search.step(3) == "in_progress":
                pass
            assert_same(search.result, got)


def test_calls_that_differ_only_by_their_limit_share_one_option_entry_and_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pathcraft import _options

    monkeypatch.setattr(_options, "_CHECKED", {})
    grid = Grid(np.ones((20, 20)))
    for limit in (None, *range(0, 60, 3)):
        grid.find_path((0, 0), (19, 19), max_expansions=limit)
        grid.astar((0, 0), (19, 19), max_expansions=limit)
        grid.jps((0, 0), (19, 19), max_expansions=limit)
        grid.jps((0, 0), (19, 19), max_expansions=limit, fill=False)
        grid.path_cost((0, 0), (19, 19), max_expansions=limit)
        grid.start_search((0, 0), (19, 19), max_expansions=limit).step()
        grid.astar((0, 0), (19, 19), max_expansions=limit, weight=2.0)
    assert sorted(key[:3] for key in _options._CHECKED) == [
        ("Grid", "astar"), ("Grid", "astar", ("weight", float, 2.0)), ("Grid", "jps"),
    ]
    plans = grid._derived().plans
    assert len(plans) == 3 and {"astar", "jps"} <= set(plans)
    assert grid.astar((0, 0), (19, 19)).expanded == 20  # the plain plan keeps no limit


def test_a_partial_search_with_a_limit_keeps_its_plan_and_renews_it_with_the_cells() -> None:
    """``partial`` with a limit (a budgeted agent's every sliced plan) is checked once
    and its plan kept under a key of its own for the grid's version: the checked
    way's answers, on a grid edited between calls too."""
    grid = Grid(np.ones((5, 9)), diagonal="never")
    s, g = (2, 0), (2, 8)
    for wall in (False, True, False):
        grid[1:, 4] = np.inf if wall else 1.0  # a wall with a gap on the top row
        for limit in (None, 3, 7, None):
            search = grid.start_search(s, g, max_expansions=limit, partial=True)
            search.step()
            want = checked(grid, s, g, "astar", max_expansions=limit, partial=True)
            assert_same(search.result, want)
            assert_same(grid.astar(s, g, max_expansions=limit, partial=True), want)
            if limit is None:
                assert want.cost == (12.0 if wall else 8.0)  # the edit is seen
        assert grid._derived().plans[("astar", "partial", True)][1] is not None


def test_a_limit_the_plans_do_not_take_goes_the_checked_way() -> None:
    grid = Grid(np.ones((4, 9)), diagonal="never")
    for value, error in ((-1, ValueError), (2**63, ValueError), ("3", TypeError),
                         (True, TypeError), (2.0, TypeError)):  # fmt: skip
        for call in (grid.find_path, grid.path_cost, grid.start_search):
            with pytest.raises(error, match="max_expansions must be an integer"):
                call((0, 0), (0, 8), max_expansions=value)  # type: ignore[arg-type]
    with pytest.raises(UnsupportedOptionError, match=r"start_search.* unknown option 'colour'"):
        grid.start_search((0, 0), (0, 8), max_expansions=2, colour=1)  # type: ignore[call-arg]
    numpy_limit = grid.find_path((0, 0), (0, 8), max_expansions=np.int64(3))
    assert numpy_limit.expanded == 3 and numpy_limit.reason == "max_expansions"
    with pytest.raises(TypeError, match="algorithm='hpa'\\) takes no options"):
        grid.find_path((0, 0), (0, 8), algorithm="hpa", max_expansions=3)  # type: ignore[arg-type]
    assert grid.find_path((0, 0), (0, 8), algorithm="theta", max_expansions=2).expanded == 2


def test_budgeted_pursuers_plan_on_the_grids_one_plan() -> None:
    """A pursuer with ``budget=`` asks for the expansions left (a new limit every
    plan), a time-budgeted one for what is left of its frame: neither adds a plan."""
    from pathcraft.agents import GridSpace, Pursuer

    grid = Grid(np.ones((12, 40)), diagonal="never")
    hunters = [
        Pursuer(GridSpace(grid, algorithm="astar"), (0, 0), speed=1.0, budget=10**6),
        Pursuer(GridSpace(grid, algorithm="astar"), (11, 0), speed=1.0, time_budget_us=1e4),
    ]
    for frame in range(40):
        for hunter in hunters:
            hunter.step((frame % 12, 39 - frame % 3), dt=0.2)
    assert all(h.plans >= 30 for h in hunters)
    assert list(grid._derived().plans) == ["astar"]
