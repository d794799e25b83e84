"""Adding a grid search is one table entry (``grid._run.ALGORITHMS``) and one row of the
options table (``_options.SUPPORT``; plus the README's copy of it): this test double
registers a toy search, bidirectional Dijkstra written in Python over the grid's
kernel entry (two Dijkstra fields from the ends meeting in the cheapest cell), in the
tests only, and every door sees it: ``find_path``, ``start_search``, ``find_paths``,
``path_costs``, the command line's choices and ``TileCoords``."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

import numpy as np
import pytest
from _grids import oracle

from pathcraft import Grid, _options
from pathcraft._core import grid_search as kernel
from pathcraft._options import SUPPORT, SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.cli import build_parser, grid_algorithms
from pathcraft.coords import TileCoords
from pathcraft.grid import _run
from pathcraft.result import PathResult

NAME = "bidijkstra"


def _settings(grid: Grid, opts: SearchOptions) -> dict[str, Any]:
    return _run.search_settings(grid, dataclasses.replace(opts, algorithm="dijkstra"))


def _fields(grid: Grid, start: int, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """The fields from both ends (on this undirected grid the cost from a cell to the
    goal is the cost from the goal to it, with the end cells' costs swapped)."""
    out = []
    for source in (start, goal):
        field = np.empty(grid.shape)
        ws = _run.workspace(grid.padded.size)
        rule = _run.DIAGONAL_RULES[grid.diagonal]
        kernel.field(grid.padded, ws, np.array([source]), field, diagonal=rule, max_cost=np.inf)
        out.append(field)
    return out[0], out[1]


def _solve(grid: Grid, start: int, goal: int, settings: dict[str, Any], t0: float) -> PathResult:
    """Meet in the middle: the cell minimising the two fields fixes the cost; the
    path is the kernel's Dijkstra between the ends (the same cost)."""
    ahead, back = _fields(grid, start, goal)
    cost = grid.cost
    with np.errstate(invalid="ignore"):  # walls: inf - inf
        # from the meeting cell to the goal: the goal's cost is paid, not the cell's
        meet = ahead + back - cost + float(grid.padded.flat[goal])
    best = float(np.min(meet[np.isfinite(meet)], initial=np.inf))
    ws = _run.workspace(grid.padded.size)
    answer = kernel.search(grid.padded, ws, np.array([start]), goal, None, **settings)
    result = _run.answer_result(grid, answer, t0)
    assert not result.found or result.cost == pytest.approx(best)
    return result


def _machine(grid: Grid, ws: Any, start: int, goal: int, settings: dict[str, Any]) -> Any:
    return kernel.GridSearch(grid.padded, ws, np.array([start]), goal, None, **settings)


def _costs(grid: Grid, starts: Any, goals: Any, out: Any, settings: dict[str, Any]) -> None:
    kernel.search_costs(
        grid.padded, _run.workspace(grid.padded.size), starts, goals, out, **settings
    )


ENTRY = _run.Algorithm(
    _settings, _solve, _machine, lambda grid: partial(_run.answer_result, grid), _costs,
    optimal=True,
)  # fmt: skip


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy search registered in the table and the options table (tests only)."""
    monkeypatch.setattr(_options, "_CHECKED", {})  # checked options are cached by name
    monkeypatch.setitem(_run.ALGORITHMS, NAME, ENTRY)
    monkeypatch.setitem(SUPPORT["Grid"].algorithms, NAME, SUPPORT["Grid"].algorithms["dijkstra"])  # type: ignore[index]


MAZE = """
..........
.########.
.#......#.
.#.####.#.
...#..#...
"""


def test_every_door_sees_a_registered_search(registered: None) -> None:
    grid = Grid.from_ascii(MAZE)
    start, goal = (2, 2), (0, 9)
    want = float(oracle(grid.cost, grid.diagonal, [start])[goal])
    assert np.isfinite(want)
    assert grid.find_path(start, goal, algorithm=NAME).cost == pytest.approx(want)
    search = grid.start_search(start, goal, algorithm=NAME)
    assert isinstance(search, CompiledSearch)
    while search.step(2) == "in_progress":
        pass
    assert search.result.cost == pytest.approx(want)
    [batch] = grid.find_paths([start], [goal], algorithm=NAME)
    assert batch.cost == pytest.approx(want)
    assert grid.path_costs([start], [goal], algorithm=NAME).tolist() == pytest.approx([want])
    assert NAME in grid_algorithms()
    assert (
        build_parser().parse_args(["solve", "a.map", "a.scen", "--algorithm", NAME]).algorithm
        == NAME
    )
    assert TileCoords(1).find_path(
        grid, (2.5, 2.5), (9.5, 0.5), algorithm=NAME
    ).cost == pytest.approx(want)
    assert NAME in _run.optimal_algorithms()


def test_an_unregistered_search_is_refused_everywhere() -> None:
    grid = Grid.from_ascii(MAZE)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        grid.find_path((0, 0), (0, 9), algorithm=NAME)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        TileCoords(1).find_path(grid, (0.5, 0.5), (9.5, 0.5), algorithm=NAME)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["solve", "a.map", "a.scen", "--algorithm", NAME])
    assert NAME not in grid_algorithms()


def test_theta_is_a_choice_of_every_name_list() -> None:
    assert "theta" in grid_algorithms()
    assert (
        build_parser().parse_args(["solve", "a.map", "a.scen", "--algorithm", "theta"]).algorithm
        == "theta"
    )
    grid = Grid.from_ascii(MAZE)
    got = TileCoords(1).find_path(grid, (0.5, 0.5), (9.5, 0.5), algorithm="theta")
    assert got.cost == pytest.approx(grid.find_path((0, 0), (0, 9), algorithm="theta").cost)
    assert "theta" not in _run.optimal_algorithms()
