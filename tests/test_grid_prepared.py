"""A grid's prepared state (``grid/_prepared.py``): everything derived from the cells is
valid exactly while the grid's version matches. After any edits, every kind of query
answers as a fresh grid of the same cells does (jump point search, JPS+, unit sizes,
the bucket searches of uniform costs, batches, stepped searches); a renewal builds
only what is asked for and repairs the unit views instead of rebuilding them; threads
racing into a renewal all get the fresh answers."""

from __future__ import annotations

import math
import pickle
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _grids import Case, cases, oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_grid_sizes import brute_clearance, unit_cost

from pathcraft import Grid
from pathcraft.grid import _prepared
from pathcraft.grid._sizes import MAX_SIZES, SizeCache

SIZES = (2, 3)


def outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """What ``call(*args, **kwargs)`` answers, comparable across grids: its result, or
    its error."""
    try:
        r = call(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        return ("refused", type(exc).__name__, str(exc))
    return described(r)


def described(r: Any) -> tuple[Any, ...]:
    if isinstance(r, float):
        return ("cost", r)
    if isinstance(r, np.ndarray):
        return ("costs", r.tolist())
    if isinstance(r, list):
        return ("batch", [described(x) for x in r])
    jumps = None if r.jump_points is None else r.jump_points.tolist()
    return ("path", r.found, r.reason, r.cost, r.path.tolist(), r.expanded, jumps)


def stepped(grid: Grid, s: Any, g: Any, **options: Any) -> Any:
    search = grid.start_search(s, g, **options)
    while search.step(3) == "in_progress":
        pass
    return search.result


def viewed(grid: Grid, s: Any, g: Any, size: int) -> Any:
    return grid.for_size(size).find_path(s, g)


def answers(grid: Grid, pairs: list[tuple[tuple[int, int], tuple[int, int]]]) -> list[Any]:
    """Every kind of query on ``pairs``: the plain and lean ways, jump point search
    (JPS+ when prepared), unit sizes on every entry, stepped searches and batches."""
    out: list[Any] = []
    plain = (grid.find_path, grid.astar, grid.dijkstra, grid.greedy, grid.jps, grid.path_cost)
    for s, g in pairs:
        out += [outcome(call, s, g) for call in plain]
        out += [
            outcome(grid.find_path, s, g, weight=1.5),
            outcome(grid.jps, s, g, fill=False),
            outcome(stepped, grid, s, g),
        ]
        for k in SIZES:
            out += [outcome(call, s, g, size=k) for call in plain]
            out += [outcome(stepped, grid, s, g, size=k), outcome(viewed, grid, s, g, k)]
    starts, goals = [p[0] for p in pairs], [p[1] for p in pairs]
    for algorithm in ("astar", "jps"):
        for k in (1, *SIZES):
            for batch in (grid.find_paths, grid.path_costs):
                out.append(outcome(batch, starts, goals, algorithm=algorithm, size=k, workers=1))
    return out


def fresh(grid: Grid) -> Grid:
    """A new grid of the same cells, with an offline jump table if ``grid`` has one
    (it changes jump point search's answers; the lines do not)."""
    new = Grid(grid.cost, diagonal=grid.diagonal)  # type: ignore[arg-type]
    if "jps+" in grid.prepared:
        new.prepare("jps+")
    return new


@st.composite
def edited(draw: Any) -> tuple[Case, list[tuple[tuple[int, int], float]], bool]:
    case = draw(cases(max_side=14))
    rows, cols = case.cost.shape
    values = st.sampled_from((math.inf, 1.0, 2.0, 0.5))
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    changes = draw(st.lists(st.tuples(cell, values), min_size=1, max_size=4))
    return case, changes, draw(st.booleans())


@settings(max_examples=40, deadline=None)
@given(data=edited())
def test_after_edits_every_query_answers_as_a_fresh_grid(
    data: tuple[Case, list[tuple[tuple[int, int], float]], bool],
) -> None:
    case, changes, offline = data
    grid = Grid(case.cost, diagonal=case.rule)  # type: ignore[arg-type]
    jps_plus = offline and case.rule == "no_corner_cut"
    pairs = list(zip(case.pick(3), case.pick(3, salt=1), strict=True))
    try:
        if jps_plus:
            grid.prepare("jps+")
    except ValueError:  # costs jump point search refuses: no table either
        jps_plus = False
    answers(grid, pairs)  # every item built, every plan made: then edit under them
    for cell, value in changes:
        if not any(np.isfinite(np.delete(grid.cost.ravel(), cell[0] * grid.shape[1] + cell[1]))):
            continue  # keep a walkable cell
        grid[cell] = value
        if jps_plus and grid.uniform_cost is not None:
            grid.prepare("jps+")  # an edit dropped the table: built again for these cells
        free = [tuple(int(x) for x in c) for c in np.argwhere(np.isfinite(grid.cost))]
        ends = [p for p in pairs if p[0] in free and p[1] in free] or [(free[0], free[-1])]
        assert answers(grid, ends) == answers(fresh(grid), ends)
        np.testing.assert_array_equal(grid.clearance, brute_clearance(grid.cost))


def test_no_stale_state_after_an_assignment() -> None:
    grid = Grid(np.ones((6, 6)), prepare="jps+")
    view = grid.for_size(2)
    assert grid.uniform_cost == view.uniform_cost == 1.0 and grid.prepared == ("jps", "jps+")
    assert grid.jps((0, 0), (5, 5)).cost == pytest.approx(5 * math.sqrt(2))
    grid[2, 2] = 0.5
    assert grid.prepared == () and grid.offline_jumps is None
    assert grid.min_cost == view.min_cost == 0.5
    assert grid.uniform_cost is None and view.uniform_cost is None
    with pytest.raises(ValueError, match="uniform cost"):
        grid.jps((0, 0), (5, 5))
    want = oracle(grid.cost, "no_corner_cut", [(0, 0)])[5, 5]
    assert grid.astar((0, 0), (5, 5)).cost == pytest.approx(want)
    grid[2, 2] = np.inf
    assert grid.uniform_cost == 1.0 and grid.clearance[1, 1] == 1
    assert view.cost[1, 1] == np.inf and view.cost[0, 0] == 1.0
    assert grid.for_size(2) is view  # repaired, not rebuilt
    np.testing.assert_array_equal(view.cost, unit_cost(grid.cost, 2))


def test_an_assignment_that_changes_nothing_keeps_everything() -> None:
    grid = Grid(np.ones((5, 5)), prepare="jps")
    tables, version = grid.jump_tables, grid.version
    grid[1:3, 1:3] = 1.0
    assert grid.version == version and grid.jump_tables is tables


class Counts:
    """How many times the builders of the prepared items ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n: dict[str, int] = {}
        for name in ("pack_lines", "build_table", "cost_range", "make_plan"):
            monkeypatch.setattr(_prepared, name, self.counted(name, getattr(_prepared, name)))
        for name in ("repair", "_derive", "rederive"):
            monkeypatch.setattr(SizeCache, name, self.counted(name, getattr(SizeCache, name)))

    def counted(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.n[name] = self.n.get(name, 0) + 1
            return fn(*args, **kwargs)

        return call

    def take(self) -> dict[str, int]:
        out, self.n = self.n, {}
        return out


def test_a_renewal_builds_only_what_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = Counts(monkeypatch)
    grid = Grid(np.ones((40, 40)), prepare="jps+")
    grid.find_path((0, 0), (38, 38), size=2)
    counts.take()
    grid[5, 5] = np.inf
    grid[30, 7] = np.inf  # two edits, one renewal
    assert counts.take() == {}  # an edit builds nothing
    grid.astar((0, 0), (39, 39))
    assert counts.take() == {"cost_range": 1, "make_plan": 1}  # no lines, no table, no views
    assert grid.prepared == ()
    grid.astar((0, 39), (39, 0))
    assert counts.take() == {}
    grid.jps((0, 0), (39, 39))
    assert counts.take() == {"pack_lines": 1, "make_plan": 1}
    grid.find_path((0, 0), (38, 38), size=2)  # the views are repaired for both edits
    assert counts.take() == {"repair": 1, "make_plan": 1}  # (the view keeps its grid's scale)
    grid[20, 20] = 2.0
    grid.clearance  # noqa: B018
    assert counts.take() == {"repair": 1}  # the clearance asked: repaired, not rebuilt
    grid.for_size(2).find_path((0, 0), (38, 38))
    assert counts.take() == {"cost_range": 1, "make_plan": 1}  # its scale follows the grid's
    assert grid.astar((0, 0), (39, 39)).cost == pytest.approx(
        oracle(grid.cost, "no_corner_cut", [(0, 0)])[39, 39]
    )


def test_a_view_dropped_from_the_cache_is_brought_up_to_date() -> None:
    grid = Grid(np.ones((30, 30)))
    kept = grid.for_size(2)
    for k in range(3, 4 + MAX_SIZES):
        grid.for_size(k)  # more sizes than the cache keeps: size 2 is dropped
    assert grid.for_size(2) is not kept
    grid[10, 10] = np.inf
    np.testing.assert_array_equal(kept.cost, unit_cost(grid.cost, 2))
    assert kept.find_path((8, 8), (12, 12)).cost == grid.find_path((8, 8), (12, 12), size=2).cost


def race(grid: Grid, pairs: Any, k: int, start: threading.Barrier, got: list[Any]) -> None:
    """One thread's queries for a unit of size ``k + 1``, once every thread is ready."""
    start.wait()
    got.append((k, [outcome(grid.find_path, s, g, size=k + 1) for s, g in pairs]))


def test_threads_racing_into_a_renewal_get_the_new_answers() -> None:
    rng = np.random.default_rng(11)
    cost = np.where(rng.random((80, 80)) < 0.2, np.inf, 1.0)
    cost[:4, :4] = cost[-4:, -4:] = 1.0
    grid = Grid(cost)
    for k in (1, 2, 3):
        grid.find_path((0, 0), (77, 77), size=k)
    pairs = [((0, 0), (77, 77)), ((77, 77), (0, 2)), ((2, 0), (76, 76))]
    for round_ in range(6):
        grid[rng.integers(10, 70), rng.integers(10, 70)] = np.inf if round_ % 2 else 1.0
        new = fresh(grid)
        want = [[outcome(new.find_path, s, g, size=k) for s, g in pairs] for k in (1, 2, 3)]
        got: list[Any] = []
        barrier = threading.Barrier(4)
        threads = [threading.Thread(target=race, args=(grid, pairs, i % 3, barrier, got))
                   for i in range(4)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == 4 and all(answer == want[k] for k, answer in got)


def test_a_pickled_grid_and_view_carry_no_derived_state_but_answer_the_same() -> None:
    grid = Grid(np.where(np.eye(12) > 0, 3.0, 1.0), prepare=None)
    grid.find_path((0, 1), (10, 0), size=2)
    view = grid.for_size(2)
    for original in (grid, view):
        clone = pickle.loads(pickle.dumps(original))
        assert clone.prepared == ()
        assert clone.min_cost == original.min_cost == 1.0
        assert outcome(clone.find_path, (0, 1), (10, 0)) == outcome(
            original.find_path, (0, 1), (10, 0)
        )
