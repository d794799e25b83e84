"""pathcraft.mapf's problems, results, validation and the benchmark's scenario files,
checked against oracles written here (scipy's BFS, a plain-loop move rule, the
independent conflict checker of tests/_mapf.py) and the benchmark README's facts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _grids import RULES
from _mapf import conflicts, grid_step, random_instance
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

from pathcraft import Graph, Grid, Level, VoxelGrid
from pathcraft.hexgrid import KNIGHT, HexGrid, MovesGrid
from pathcraft.io import read_mapf_scen
from pathcraft.mapf import (
    Conflict,
    MAPFResult,
    Problem,
    adjacency,
    lower_bound,
    solve,
    validate,
)

BENCH_MAPS = {
    # name: (width, height, passable cells, agents per scen file), from the README
    "empty-32-32": (32, 32, 1024, 512),
    "random-32-32-20": (32, 32, 819, 409),
    "maze-32-32-2": (32, 32, 666, 333),
    "room-32-32-4": (32, 32, 682, 341),
    "warehouse-10-20-10-2-1": (161, 63, 5699, 1000),
}


def _walkable_grid(walkable: np.ndarray, rule: str = "never") -> Grid:
    return Grid.from_walkable(walkable, diagonal=rule)


# ------------------------------------------------------------------ problems


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 9),
    cols=st.integers(1, 9),
    rule=st.sampled_from(RULES),
)
def test_grid_adjacency_is_the_move_rule(seed: int, rows: int, cols: int, rule: str) -> None:
    walkable = np.random.default_rng(seed).random((rows, cols)) >= 0.3
    places, indptr, indices = adjacency(_walkable_grid(walkable, rule))
    assert places == [(int(r), int(c)) for r, c in np.argwhere(walkable)]
    ok = grid_step(walkable, rule)
    for v, a in enumerate(places):
        got = [places[u] for u in indices[indptr[v] : indptr[v + 1]]]
        want = [b for b in places if b != a and ok(a, b)]
        assert sorted(got) == sorted(want)
        assert list(indices[indptr[v] : indptr[v + 1]]) == sorted(
            indices[indptr[v] : indptr[v + 1]]
        )
    assert indptr.dtype == indices.dtype == np.int32


def _hex(cost: np.ndarray) -> Any:
    return HexGrid(cost, "odd-r")


def _hex_columns(cost: np.ndarray) -> Any:
    return HexGrid(cost, "even-q")


def _knight(cost: np.ndarray) -> Any:
    return MovesGrid(cost, KNIGHT)


def _one_way_moves(cost: np.ndarray) -> Any:
    allowed = np.random.default_rng(int(cost.size)).random((*cost.shape, 3)) < 0.6
    return MovesGrid(cost, [(0, 1, 1.0), (1, 0, 2.0), (-1, -1, 1.5)], allowed=allowed)


def _voxels(cost: np.ndarray) -> Any:
    return VoxelGrid(np.stack([cost, cost[::-1]]))


def _level(cost: np.ndarray) -> Any:
    rows, cols = cost.shape
    upper = cost.copy()
    upper[0, 0] = upper[-1, -1] = 1.0  # the portals' ends
    floors = [np.ones((rows, cols)), upper]
    return Level(floors, portals=[((0, 0, 0), (1, rows - 1, cols - 1), 1.0, False),
                                  ((1, 0, 0), (0, rows - 1, 0), 2.0)])  # fmt: skip


def _graph(cost: np.ndarray) -> Any:
    rng = np.random.default_rng(int(cost.size))
    n = cost.shape[1] + 2
    tails, heads = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    weights = np.where(rng.random(3 * n) < 0.2, np.inf, 1.0)
    return Graph(n, tails, heads, weights, directed=True, labels=[f"n{i}" for i in range(n)])


@pytest.mark.parametrize(
    "make", [_hex, _hex_columns, _knight, _one_way_moves, _voxels, _level, _graph]
)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 6), cols=st.integers(1, 6))
def test_adjacency_of_every_world_that_lists_its_places_is_its_neighbors(
    make: Any, seed: int, rows: int, cols: int
) -> None:
    """The places a world lists, in its order, and the moves its ``neighbors`` gives
    (finite costs, no waits), explored here by plain loops."""
    cost = np.where(np.random.default_rng(seed).random((rows, cols)) < 0.3, np.inf, 1.0)
    if not np.isfinite(cost).any():
        cost[0, 0] = 1.0
    world = make(cost)
    listed = list(world.places())
    places, indptr, indices = adjacency(world)
    assert places == listed
    got = {
        (places[v], places[u])
        for v in range(len(places)) for u in indices[indptr[v] : indptr[v + 1]].tolist()
    }  # fmt: skip
    want = {
        (a, b) for a in listed for b, step in world.neighbors(a) if step < np.inf and b != a
    }
    assert got == want
    for v in range(len(places)):
        row = indices[indptr[v] : indptr[v + 1]]
        assert (np.diff(row) > 0).all()
    assert indptr.dtype == indices.dtype == np.int32


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), rule=st.sampled_from(("never", "no_corner_cut")))
def test_distances_match_scipy_bfs(seed: int, rule: str) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (7, 8), 0.3, 3)
    problem = Problem(_walkable_grid(walkable, rule), starts, goals)
    n = problem.n_nodes
    src = np.repeat(np.arange(n), np.diff(problem.indptr))
    matrix = csr_matrix((np.ones(src.size), (src, problem.indices)), shape=(n, n))
    for agent in range(problem.n_agents):
        want = shortest_path(matrix, unweighted=True, directed=True, indices=problem.goals[agent])
        got = problem.distances(agent)
        assert np.array_equal(np.where(np.isinf(want), -1, want).astype(int), got)
        assert not got.flags.writeable


def test_problem_on_a_graph_and_a_neighbours_world() -> None:
    graph = Graph(4, [0, 1, 2, 0], [1, 2, 3, 3], directed=False, labels=list("abcd"))
    problem = Problem(graph, ["a", "c"], ["c", "a"])
    assert problem.n_nodes == 4 and problem.place(problem.node("d")) == "d"
    assert lower_bound(problem) == 4

    class Line:  # any world with neighbors(place): an unbounded line, explored lazily
        def neighbors(self, x: int) -> list[tuple[int, float]]:
            return [(x - 1, 1.0), (x + 1, 1.0)] if -3 <= x <= 3 else []

    line = Problem(Line(), [0, 2], [2, -1])
    assert line.distances(0)[line.node(0)] == 2
    assert line.distances(1)[line.node(2)] == 3
    assert lower_bound(line) == 5


def test_from_arrays_drops_self_loops_and_repeats() -> None:
    p = Problem.from_arrays([0, 3, 4], [1, 0, 1, 0], [0], [1])
    assert p.indptr.tolist() == [0, 1, 2] and p.indices.tolist() == [1, 0]
    with pytest.raises(ValueError, match=r"starts\[0\] = 5 is not a node"):
        Problem.from_arrays([0, 1, 2], [1, 0], [5], [1])
    with pytest.raises(ValueError, match="indptr must start at 0"):
        Problem.from_arrays([1, 2], [0], [0], [0])


@pytest.mark.parametrize(
    ("starts", "goals", "match"),
    [
        ([(0, 0)], [(0, 0), (0, 1)], "one entry per agent; got 1 starts and 2 goals"),
        ([(0, 0), (1, 1)], [(0, 1), (0, 2)], r"starts\[1\] = \(1, 1\) of agent 1 .* wall"),
        ([(0, 0)], [(5, 0)], r"goals\[0\] = \(5, 0\) of agent 0"),
        ([(0, 0), (0, 0)], [(0, 1), (0, 2)], r"starts must be distinct: agents 0 and 1"),
        ([(0, 0), (0, 2)], [(0, 1), (0, 1)], r"goals must be distinct: agents 0 and 1"),
        ([(-1, 0)], [(0, 1)], r"starts\[0\] = \(-1, 0\)"),
        ([(0, 0.5)], [(0, 1)], r"starts\[0\]"),
    ],
)
def test_problem_refuses_bad_agents(starts: list, goals: list, match: str) -> None:
    grid = Grid.from_ascii("...\n.#.", diagonal="never")
    with pytest.raises(ValueError, match=match):
        Problem(grid, starts, goals)


def test_problem_refuses_bad_kinds() -> None:
    with pytest.raises(TypeError, match="world must be a Grid, a world that lists its places or"):
        Problem(object(), [0], [1])
    with pytest.raises(TypeError, match="starts must be a sequence"):
        Problem(Grid.from_ascii(".."), "ab", [(0, 0)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="following must be True or False"):
        Problem(Grid.from_ascii(".."), [(0, 0)], [(0, 1)], following=1)  # type: ignore[arg-type]


def test_inputs_not_modified() -> None:
    starts = [[0, 0], [0, 2]]
    goals = np.array([[0, 2], [0, 0]])
    before = (repr(starts), goals.copy())
    Problem(Grid.from_ascii("...\n..."), starts, goals)  # type: ignore[arg-type]
    assert repr(starts) == before[0] and np.array_equal(goals, before[1])


# ------------------------------------------------------------------ validate

GRID = Grid.from_ascii("....\n.#..\n....", diagonal="never")
WALKABLE = np.isfinite(GRID.cost)


def _kinds(found: list[Conflict]) -> list[tuple[str, tuple[int, ...], int]]:
    return [(c.kind, c.agents, c.time) for c in found]


def test_validate_accepts_a_valid_solution() -> None:
    paths = [[(0, 0), (0, 1), (0, 2)], [(0, 3), (1, 3), (1, 3), (2, 3)]]
    assert validate(GRID, paths, [(0, 0), (0, 3)], [(0, 2), (2, 3)]) == []


@pytest.mark.parametrize(
    ("paths", "starts", "goals", "want"),
    [
        # vertex: both in (0, 1) at t = 1
        (
            [[(0, 0), (0, 1)], [(0, 2), (0, 1), (0, 2)]],
            [(0, 0), (0, 2)],
            [(0, 1), (0, 2)],
            [("vertex", (0, 1), 1)],
        ),
        # edge: a swap through each other
        (
            [[(0, 0), (0, 1)], [(0, 1), (0, 0)]],
            [(0, 0), (0, 1)],
            [(0, 1), (0, 0)],
            [("edge", (0, 1), 1)],
        ),
        # illegal move: a jump and a step into a wall
        (
            [[(0, 0), (0, 2)], [(2, 1), (1, 1), (2, 1)]],
            [(0, 0), (2, 1)],
            [(0, 2), (2, 1)],
            [("move", (0,), 1), ("move", (1,), 1), ("move", (1,), 2)],
        ),
        # wrong goal and wrong start
        (
            [[(0, 0), (0, 1)], [(2, 0), (2, 1)]],
            [(0, 0), (2, 1)],
            [(0, 2), (2, 2)],
            [("goal", (0,), 1), ("start", (1,), 0), ("goal", (1,), 1)],
        ),
        # passing through a finished agent's goal
        (
            [[(0, 1)], [(0, 0), (0, 1), (0, 2)]],
            [(0, 1), (0, 0)],
            [(0, 1), (0, 2)],
            [("vertex", (0, 1), 1)],
        ),
        # an empty path
        ([[], [(0, 0)]], [(0, 1), (0, 0)], [(0, 1), (0, 0)], [("start", (0,), 0)]),
    ],
)
def test_validate_finds_each_kind(paths: list, starts: list, goals: list, want: list) -> None:
    assert _kinds(validate(GRID, paths, starts, goals)) == want
    assert set(want) == conflicts(paths, starts, goals, grid_step(WALKABLE))


def test_validate_following_only_when_asked() -> None:
    paths = [[(0, 0), (0, 1)], [(0, 1), (0, 2)]]
    starts, goals = [(0, 0), (0, 1)], [(0, 1), (0, 2)]
    assert validate(GRID, paths, starts, goals) == []
    want = [Conflict("following", (0, 1), 1, ((0, 1),))]
    assert validate(GRID, paths, starts, goals, following=True) == want
    problem = Problem(GRID, starts, goals, following=True)
    assert validate(problem, paths) == want


def test_validate_three_agents_in_one_place() -> None:
    paths = [[(0, 0), (0, 1)], [(0, 2), (0, 1)], [(1, 2), (1, 2), (0, 2), (0, 1)]]
    starts, goals = [(0, 0), (0, 2), (1, 2)], [(0, 1), (2, 0), (2, 2)]
    got = {(c.kind, c.agents, c.time) for c in validate(GRID, paths, starts, goals)}
    assert got == conflicts(paths, starts, goals, grid_step(WALKABLE))
    assert {("vertex", (0, 1), 1), ("vertex", (0, 2), 3), ("vertex", (1, 2), 3)} <= got


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), following=st.booleans())
def test_validate_agrees_with_the_independent_checker(seed: int, following: bool) -> None:
    rng = np.random.default_rng(seed)
    walkable, starts, goals = random_instance(rng, (4, 5), 0.2, 4)
    free = [tuple(map(int, c)) for c in np.argwhere(walkable)]
    ok = grid_step(walkable)
    paths = []
    for agent in range(4):  # random walks, sometimes jumping, sometimes off the goal
        path = [starts[agent] if rng.random() < 0.9 else free[rng.integers(len(free))]]
        for _ in range(rng.integers(0, 6)):
            options = [b for b in free if ok(path[-1], b)] + [path[-1]]
            if rng.random() < 0.1:
                options = free
            path.append(options[rng.integers(len(options))])
        if rng.random() < 0.5:
            path.append(goals[agent])
        paths.append(path)
    got = {
        (c.kind, c.agents, c.time)
        for c in validate(_walkable_grid(walkable), paths, starts, goals, following=following)
    }
    assert got == conflicts(paths, starts, goals, ok, following=following)


def test_validate_refuses_bad_calls() -> None:
    problem = Problem(GRID, [(0, 0)], [(0, 1)])
    with pytest.raises(ValueError, match=r"one path per agent \(1\)"):
        validate(problem, [])
    with pytest.raises(ValueError, match="not with a Problem"):
        validate(problem, [[(0, 0), (0, 1)]], [(0, 0)], [(0, 1)])
    with pytest.raises(ValueError, match="starts and goals are needed"):
        validate(GRID, [[(0, 0), (0, 1)]])


# ------------------------------------------------------------------ results and solve


def test_result_from_node_paths_costs() -> None:
    problem = Problem(GRID, [(0, 0), (0, 3), (2, 0)], [(0, 2), (2, 3), (2, 0)])
    result = MAPFResult.from_node_paths(
        problem, [[0, 1, 2, 2, 2], [3, 6, 6, 10, 10], [7]], solver="hand", time_s=0.5
    )
    assert result and result.found and result.status == "solved" and result.reason == ""
    assert [len(p) for p in result.paths] == [3, 4, 1]
    assert result.sum_of_costs == 2 + 3 + 0 and result.makespan == 3
    assert result.lower_bound == lower_bound(problem) == 2 + 2 + 0
    assert result.paths[1] == [(0, 3), (1, 3), (1, 3), (2, 3)]
    assert "sum of costs 5 (1.250x bound 4)" in repr(result)
    assert validate(problem, result.paths) == []
    with pytest.raises(ValueError, match="one path per agent"):
        MAPFResult.from_node_paths(problem, [[0]], solver="hand")


def test_result_failed_is_falsy() -> None:
    problem = Problem(GRID, [(0, 0)], [(0, 2)])
    failed = MAPFResult.failed(problem, "no solution", "the goal is walled off", solver="x")
    assert not failed and failed.paths == [] and failed.lower_bound == 2
    assert "no solution: the goal is walled off" in repr(failed)
    with pytest.raises(ValueError, match="status must be one of"):
        MAPFResult.failed(problem, "done", "?", solver="x")


def test_solve_refuses_unknown_solvers_and_limits() -> None:
    with pytest.raises(ValueError, match="solver must be one of"):
        solve(GRID, [(0, 0)], [(0, 1)], solver="astar")
    with pytest.raises(TypeError, match="solver must be one of"):
        solve(GRID, [(0, 0)], [(0, 1)], solver=3)  # type: ignore[arg-type]
    for limit in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="time_limit must be a number of seconds > 0"):
            solve(GRID, [(0, 0)], [(0, 1)], solver="lacam", time_limit=limit)


# ------------------------------------------------------------------ scenario files


@pytest.mark.parametrize("name", sorted(BENCH_MAPS))
def test_read_mapf_scen_matches_the_readme(mapf_benchmark, name: str) -> None:
    width, height, passable, agents = BENCH_MAPS[name]
    for number in (1, 2, 3):
        scen = mapf_benchmark / "scen-random" / f"{name}-random-{number}.scen"
        grid, starts, goals = read_mapf_scen(scen)
        assert grid.shape == (height, width) and grid.diagonal == "never"
        assert int(np.isfinite(grid.cost).sum()) == passable
        assert len(starts) == len(goals) == agents
        assert len(set(starts)) == len(set(goals)) == agents
        assert not set(starts) & set(goals)
        # agent i is data line i: x is the column, y the row
        first = scen.read_text().split("\n")[1].split("\t")
        assert starts[0] == (int(first[5]), int(first[4]))
        assert goals[0] == (int(first[7]), int(first[6]))
    grid, starts, goals = read_mapf_scen(scen, k=7)
    assert len(starts) == len(goals) == 7
    assert Problem(grid, starts, goals).n_nodes == passable


def test_the_bundled_benchmark_copy_is_the_original() -> None:
    # tests/data/mapf is the fixture's last resort: its files must be the benchmark's,
    # byte for byte, as its SHA256SUMS lists them (20 data files).
    import hashlib
    from pathlib import Path

    folder = Path(__file__).parent / "data" / "mapf"
    lines = (folder / "SHA256SUMS").read_text().split("\n")
    sums = dict(reversed(line.split(maxsplit=1)) for line in lines if line.strip())
    assert len(sums) == 20
    for name, digest in sums.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


def test_read_mapf_scen_errors(tmp_path, mapf_benchmark) -> None:
    scen = mapf_benchmark / "scen-random" / "room-32-32-4-random-1.scen"
    with pytest.raises(ValueError, match=r"k must be from 1 to 341"):
        read_mapf_scen(scen, k=342)
    with pytest.raises(TypeError, match="k must be an int"):
        read_mapf_scen(scen, k=2.0)  # type: ignore[arg-type]
    lone = tmp_path / "lone.scen"
    lone.write_text(scen.read_text())
    with pytest.raises(FileNotFoundError, match=r"no map 'room-32-32-4\.map'"):
        read_mapf_scen(lone)
    grid, _, _ = read_mapf_scen(lone, map_path=mapf_benchmark / "maps" / "room-32-32-4.map")
    assert grid.shape == (32, 32)
    (tmp_path / "tiny.map").write_text("type octile\nheight 2\nwidth 3\nmap\n..@\n...\n")
    bad = tmp_path / "tiny.scen"
    bad.write_text(
        "version 1\n0\ttiny.map\t3\t2\t0\t0\t1\t1\t1.4\n0\ttiny.map\t3\t2\t1\t0\t2\t0\t1\n"
    )
    with pytest.raises(
        ValueError, match=r"tiny.scen.*line 3.*goal \(0, 2\) \(row, col\) is a blocked"
    ):
        read_mapf_scen(bad)
    grid, starts, goals = read_mapf_scen(bad, k=1, diagonal="no_corner_cut")
    assert starts == [(0, 0)] and goals == [(1, 1)] and grid.diagonal == "no_corner_cut"
    (tmp_path / "tiny.map").write_text("type octile\nheight 2\nwidth 2\nmap\n..\n..\n")
    with pytest.raises(ValueError, match=r"line 2.*2 wide and 2 high; the file says 3 x 2"):
        read_mapf_scen(bad)
