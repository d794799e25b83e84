"""No wasted expansions: with a consistent heuristic a node is expanded at most once.

Equal-cost paths summed in a different order differ by ~1e-15; every engine (grid and
graph kernels, the generic engine) reopens a node only on a real improvement, below
``g * (1 - IMPROVE_RTOL)`` (issue 22), so A* never expands more cells than are
reachable, and the demo's A* expands fewer cells than Dijkstra on every row.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import Case, cases, default_heuristic, neighbours
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Grid, _engine, search
from pathcraft.cli import main
from pathcraft.io import bundled_map, read_map, read_scen

REL = _engine.IMPROVE_RTOL


def reachable(grid: Grid, start: tuple[int, int]) -> int:
    return int(np.isfinite(grid.distance_field(start)).sum())


def expanded_once(result: Any) -> None:
    """Every expanded node appears once in the record."""
    nodes = [tuple(np.atleast_1d(n).tolist()) for n in result.explored.nodes]
    assert len(set(nodes)) == len(nodes) == result.expanded


@given(cases())
@settings(max_examples=60, deadline=None)
def test_astar_and_dijkstra_expand_each_reachable_cell_at_most_once(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    h = default_heuristic(case.rule)
    count = reachable(grid, case.start)
    for algorithm in ("astar", "dijkstra"):
        options = {"heuristic": h} if algorithm == "astar" else {}
        got = grid.find_path(case.start, case.goal, algorithm=algorithm, record=True, **options)
        assert got.expanded <= count
        expanded_once(got)


@given(cases(max_side=20))
@settings(max_examples=30, deadline=None)
def test_the_generic_engine_expands_each_node_at_most_once(case: Case) -> None:
    grid = Grid(case.cost, diagonal=case.rule)
    scale = float(np.min(case.cost[np.isfinite(case.cost)]))
    goal = case.goal

    def octile(cell: tuple[int, int]) -> float:
        dr, dc = abs(cell[0] - goal[0]), abs(cell[1] - goal[1])
        if case.rule == "never":
            return (dr + dc) * scale
        return (max(dr, dc) + (math.sqrt(2.0) - 1.0) * min(dr, dc)) * scale

    got = search.find_path(case.start, goal, neighbours(case.cost, case.rule), octile, record=True)
    assert got.expanded <= reachable(grid, case.start)
    expanded_once(got)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_graph_kernel_expands_each_node_at_most_once(seed: int) -> None:
    # Points joined to their nearest neighbours by edges at least as long as the
    # straight line: the Euclidean heuristic is consistent.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    xy = rng.uniform(0, 10, size=(n, 2))
    near = np.argsort(np.linalg.norm(xy[:, None] - xy[None], axis=2), axis=1)[:, 1:5]
    src = np.repeat(np.arange(n), near.shape[1])
    dst = near.ravel()
    length = np.linalg.norm(xy[src] - xy[dst], axis=1)
    weights = length * rng.choice([1.0, 1.0, 1.5], size=len(length))
    graph = Graph(n, src, dst, weights, directed=False, coords=xy)
    start, goal = (int(x) for x in rng.integers(n, size=2))
    got = graph.find_path(start, goal, record=True)
    count = int(np.isfinite(graph.distance_field(start)).sum())
    assert got.expanded <= count
    expanded_once(got)


def test_the_rule_is_relative_and_the_same_everywhere() -> None:
    assert REL == 1e-12
    source = (Path(__file__).parents[1] / "src/pathcraft/_core/machine.pxd").read_text()
    assert "#define PATHCRAFT_IMPROVE_RTOL 1e-12" in source
    assert "#define PATHCRAFT_IMPROVE_KEEP (1.0 - 1e-12)" in source


def test_the_bundled_maps_longest_query_expands_no_cell_twice() -> None:
    grid = read_map(bundled_map())
    start, goal = (101, 40), (196, 278)  # 25,873 expansions before the rule, 24,311 cells
    astar = grid.find_path(start, goal, record=True)
    dijkstra = grid.find_path(start, goal, algorithm="dijkstra")
    expanded_once(astar)
    assert astar.expanded <= reachable(grid, start)
    assert astar.expanded < dijkstra.expanded
    assert astar.cost == pytest.approx(dijkstra.cost, rel=1e-12)


def test_a_moving_ai_map_expands_no_cell_twice(movingai: Path) -> None:
    grid = read_map(movingai / "maps/dao/den520d.map")
    scen = read_scen(movingai / "scen/dao/den520d.map.scen")
    for i in np.argsort(scen.optimal)[-5:]:
        start, goal = tuple(scen.starts[i]), tuple(scen.goals[i])
        got = grid.find_path(start, goal, record=True)
        expanded_once(got)
        assert got.expanded <= reachable(grid, start)
        assert got.cost == pytest.approx(scen.optimal[i], abs=1e-3)


def test_the_demo_shows_astar_expanding_fewer_cells_than_dijkstra_on_every_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo", "-o", str(tmp_path / "demo.png")]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    table = [r for r in rows if r and r[-1] == "yes"]
    assert len(table) >= 12
    for r in table:
        astar_exp, dijkstra_exp = int(r[-5]), int(r[-3])
        assert astar_exp < dijkstra_exp, r
