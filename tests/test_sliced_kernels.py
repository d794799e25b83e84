"""Compiled sliced searches (``world.start_search``): any slice sizes give exactly the
blocking call's answer (path, cost, expanded, generated, reason, record) on every world
and algorithm; statuses, cancel, pickling, workspaces, the request queue."""

from __future__ import annotations

import pickle
import sys
from typing import Any

import numpy as np
import pytest
from _graphs import problems
from _grids import cases, oracle_graph
from _scenes import polygon_scene, sample_points
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

from pathcraft import Graph, Grid, NavMesh, WaypointGraph, _sliced
from pathcraft._options import UnsupportedOptionError
from pathcraft.agents import PathRequestQueue
from pathcraft.search import SlicedSearch

SLICES = st.lists(st.integers(0, 40), min_size=1, max_size=6).filter(any)


def summary(result: Any) -> tuple[Any, ...]:
    """Everything but the wall-clock time."""
    explored = result.explored
    jumps = result.jump_points
    return (
        np.asarray(result.path).tolist(), result.cost, result.found, result.reason,
        result.expanded, result.generated,
        None if explored is None else (np.asarray(explored.nodes).tolist(), list(explored.g)),
        None if jumps is None else jumps.tolist(),
    )  # fmt: skip


def run_sliced(search: Any, sizes: list[int]) -> Any:
    """Step ``search`` with the slice sizes in turn until it ends; check each slice
    keeps to its size and the statuses on the way."""
    i = 0
    while True:
        size = sizes[i % len(sizes)]
        before = search.expanded
        status = search.step(size)
        assert search.expanded - before <= size
        assert status == search.status
        i += 1
        if status != "in_progress":
            break
        assert i < 100_000
    result = search.result
    assert status == ("found" if result.found else result.reason)
    return result


def assert_same(world: Any, method: str, start: Any, goal: Any, sizes: list[int], **kw: Any):
    """``world.start_search`` stepped in ``sizes`` answers as ``world.<method>``."""
    want = getattr(world, method)(start, goal, **kw)
    if method != "find_path":
        kw["algorithm"] = method
    got = run_sliced(world.start_search(start, goal, **kw), sizes)
    assert summary(got) == summary(want)


GRID_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "max_expansions": st.integers(0, 60),
        "max_cost": st.floats(0.0, 20.0),
        "partial": st.booleans(),
        "record": st.booleans(),
        "tie_break": st.sampled_from(("g", "fifo", "random")),
    },
)


@settings(max_examples=60, deadline=None)
@given(cases(max_side=30), st.sampled_from(("astar", "greedy", "dijkstra")), GRID_OPTIONS, SLICES)
def test_grid_sliced_equals_blocking(
    case: Any, method: str, options: dict[str, Any], sizes: list[int]
):
    grid = Grid(case.cost, diagonal=case.rule)
    if method == "dijkstra":
        options.pop("partial", None)
    if options.get("tie_break") == "random":
        options["seed"] = case.seed
    if method == "astar" and case.seed % 3 == 0:
        options["weight"] = 1.5
    assert_same(grid, method, case.start, case.goal, sizes, **options)


@settings(max_examples=40, deadline=None)
@given(cases(max_side=30, rules=("no_corner_cut", "always")), st.booleans(), SLICES)
def test_jps_sliced_equals_blocking(case: Any, record: bool, sizes: list[int]) -> None:
    cost = np.where(np.isfinite(case.cost), 1.0, np.inf)
    grid = Grid(cost, diagonal=case.rule)
    limit = None if case.seed % 2 else case.seed % 15
    assert_same(grid, "jps", case.start, case.goal, sizes, record=record, max_expansions=limit)


def test_grid_dijkstra_many_sources_and_goals_sliced() -> None:
    grid = Grid(np.ones((20, 20)))
    want = grid.dijkstra([(0, 0), (19, 19)], [(10, 10), (5, 15)])
    got = run_sliced(
        grid.start_search([(0, 0), (19, 19)], [(10, 10), (5, 15)], algorithm="dijkstra"), [7]
    )
    assert summary(got) == summary(want)


@settings(max_examples=60, deadline=None)
@given(problems(), st.sampled_from(("astar", "greedy", "dijkstra")), GRID_OPTIONS, SLICES)
def test_graph_sliced_equals_blocking(
    problem: Any, method: str, options: dict[str, Any], sizes: list[int]
) -> None:
    g, start, goal = problem
    us = [u for u, _ in g.edges]
    vs = [v for _, v in g.edges]
    coords = np.random.default_rng(g.n).uniform(0, 1, (g.n, 2))
    graph = Graph(
        g.n, us, vs, list(g.edges.values()), coords=coords if method == "greedy" else None
    )
    if method == "dijkstra":
        options.pop("partial", None)
    if options.get("tie_break") == "random":
        options["seed"] = 7
    assert_same(graph, method, start, goal, sizes, **options)


@pytest.fixture(scope="module")
def scene() -> tuple[Any, NavMesh]:
    walk = polygon_scene(3)
    return walk, NavMesh.from_geometry(walk)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from(("funnel", "optimal")), SLICES)
def test_navmesh_sliced_equals_blocking(scene: Any, seed: int, mode: str, sizes: list[int]) -> None:
    walk, mesh = scene
    s, g = sample_points(walk, np.random.default_rng(seed), 2)
    limit = None if seed % 3 else seed % 40
    assert_same(mesh, mode, tuple(s), tuple(g), sizes, max_expansions=limit)


def test_navmesh_partial_and_unreachable_sliced() -> None:
    from shapely import box

    mesh = NavMesh.from_geometry(box(0, 0, 4, 4).union(box(6, 0, 10, 4)))
    for mode in ("funnel", "optimal"):
        search = mesh.start_search((1, 1), (8, 1), algorithm=mode)
        assert search.status == "unreachable" and search.step(1) == "unreachable"
        near = mesh.start_search((1, 1), (8, 1), algorithm=mode, partial=True)
        want = mesh.find_path((1, 1), (8, 1), algorithm=mode, partial=True)
        assert summary(run_sliced(near, [1])) == summary(want)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**16), SLICES)
def test_waypoints_sliced_equals_blocking(seed: int, sizes: list[int]) -> None:
    from shapely import box

    rng = np.random.default_rng(seed)
    walls = [box(x, y, x + 2, y + 6) for x, y in rng.uniform(1, 15, (4, 2))]
    points = rng.uniform(0, 20, (30, 2))
    wg = WaypointGraph(points, walls)
    s, g = rng.uniform(0, 20, (2, 2))
    try:
        want = wg.find_path(s, g)
    except ValueError:  # a position inside an obstacle
        return
    got = run_sliced(wg.start_search(s, g), sizes)
    assert summary(got) == summary(want)


# ------------------------------------------------------------------ the object


def test_status_vocabulary_result_and_cancel() -> None:
    grid = Grid.from_ascii(".#.\n.#.\n...", diagonal="never")
    search = grid.start_search((0, 0), (0, 2))
    assert search.status == "in_progress"
    with pytest.raises(RuntimeError, match="still in progress"):
        _ = search.result
    assert search.step(0) == "in_progress" and search.expanded == 0
    assert search.step(2) == "in_progress" and search.expanded == 2
    search.cancel()
    assert search.status == "cancelled" and search.step(5) == "cancelled"
    with pytest.raises(RuntimeError, match="cancelled"):
        _ = search.result
    walled = Grid.from_ascii(".#.", diagonal="never").start_search((0, 0), (0, 2))
    assert walled.step() == "unreachable" and walled.result.reason == "unreachable"
    limited = grid.start_search((0, 0), (0, 2), max_expansions=3)
    assert limited.step(10) == "max_expansions"
    capped = grid.start_search((0, 0), (0, 2), max_cost=2.0)
    assert capped.step() == "max_cost"
    with pytest.raises(ValueError, match="max_expansions"):
        grid.start_search((0, 0), (0, 2)).step(-3)


def test_options_are_the_blocking_methods() -> None:
    grid = Grid(np.ones((5, 5)))
    refused = r"Grid\.start_search\(algorithm='dijkstra'\) does not take partial"
    with pytest.raises(UnsupportedOptionError, match=refused):
        grid.start_search((0, 0), (4, 4), algorithm="dijkstra", partial=True)
    with pytest.raises(ValueError, match="algorithm"):
        grid.start_search((0, 0), (4, 4), algorithm="bfs")
    with pytest.raises(ValueError, match=r"wall|outside"):
        grid.start_search((0, 0), (9, 9))
    with pytest.raises(ValueError, match="coords"):
        Graph(3, [0, 1], [1, 2]).start_search(0, 2, algorithm="greedy")
    with pytest.raises(ValueError, match="algorithm"):
        NavMesh([(0, 0), (1, 0), (1, 1)], [[0, 1, 2]]).start_search(
            (0.5, 0.2), (0.8, 0.5), algorithm="astar"
        )


def test_workspaces_are_owned_pooled_and_given_back() -> None:
    _sliced.release_pooled_workspaces()
    grid = Grid(np.ones((30, 30)))
    a = grid.start_search((0, 0), (29, 29), algorithm="dijkstra")
    b = grid.start_search((29, 29), (0, 0), algorithm="dijkstra")
    a.step(10)
    b.step(10)
    assert a._ws is not None and b._ws is not None and a._ws is not b._ws
    blocking = grid.dijkstra((0, 0), (29, 29))  # the thread's workspace: no interference
    assert summary(run_sliced(a, [50])) == summary(blocking)
    assert a._ws is None  # given back when the search ended
    b.cancel()
    assert b._ws is None
    assert len(_sliced._pool[a._kind]) == 2


def test_pickling_an_ended_search_and_refusing_one_in_progress() -> None:
    grid = Grid(np.ones((6, 6)))
    search = grid.start_search((0, 0), (5, 5))
    search.step(3)
    with pytest.raises(TypeError, match="in progress cannot be pickled"):
        pickle.dumps(search)
    search.step()
    again = pickle.loads(pickle.dumps(search))
    assert again.status == "found" and summary(again.result) == summary(search.result)
    assert again.step(4) == "found"


def test_the_queue_serves_compiled_searches_for_every_world() -> None:
    grid = Grid(np.ones((40, 40)))
    graph = Graph(50, list(range(49)), list(range(1, 50)))
    queue = PathRequestQueue(budget=100)
    queue.request("a", grid, (0, 0), (39, 39), algorithm="dijkstra")
    queue.request("b", graph, 0, 49)
    queue.request("c", grid, (0, 0), (39, 39), algorithm="jps")
    done: dict[Any, Any] = {}
    frames = 0
    while len(queue):
        done.update(queue.update())
        frames += 1
    assert frames > 1
    assert summary(done["a"]) == summary(grid.dijkstra((0, 0), (39, 39)))
    assert summary(done["b"]) == summary(graph.astar(0, 49))
    assert summary(done["c"]) == summary(grid.jps((0, 0), (39, 39)))
    with pytest.raises(TypeError, match="start_search"):
        queue.request("d", object(), 0, 1)


def test_a_queued_search_replaced_or_cancelled_gives_its_workspace_back() -> None:
    grid = Grid(np.ones((40, 40)))
    queue = PathRequestQueue(budget=10)
    first = grid.start_search((0, 0), (39, 39), algorithm="dijkstra")
    queue.submit("orc", first)
    queue.update()
    assert first._ws is not None
    queue.request("orc", grid, (0, 0), (1, 1))  # under way: it is finished first
    assert first.status == "in_progress" and first._ws is not None
    assert queue.cancel("orc") and not queue.cancel("orc")
    assert first.status == "cancelled" and first._ws is None


# ------------------------------------------------------------------ the generic engine


def test_a_raising_callback_fails_the_sliced_search_instead_of_a_wrong_answer() -> None:
    calls = {"n": 0}

    def line(n: int) -> list[tuple[int, float]]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise ConnectionError("the level streamer hiccupped")
        return [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]

    search = SlicedSearch(0, 9, line)
    with pytest.raises(ConnectionError):
        search.step(5)
    assert search.status == "failed"
    with pytest.raises(RuntimeError, match="failed at an earlier step") as info:
        search.step(5)
    assert isinstance(info.value.__cause__, ConnectionError)
    with pytest.raises(RuntimeError, match="failed"):
        _ = search.result

    calls["n"] = 0
    queue = PathRequestQueue(budget=50)
    queue.submit("bad", SlicedSearch(0, 9, line))
    queue.submit("good", SlicedSearch(0, 5, lambda n: [(n + 1, 1.0)]))
    with pytest.raises(ConnectionError):
        queue.update()
    assert "bad" not in queue and "good" in queue
    assert queue.update()["good"].path == [0, 1, 2, 3, 4, 5]


def line_neighbors(n: int) -> list[tuple[int, float]]:
    return [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 30]


def test_an_unpickled_sliced_search_returns_its_result() -> None:
    for sizes in ([4], [100]):
        search = SlicedSearch(0, 20, line_neighbors, algorithm="dijkstra")
        search.step(sizes[0])
        again = pickle.loads(pickle.dumps(search))
        while again.step(4) == "in_progress":
            pass
        assert again.result.path == list(range(21)) and again.result.cost == 20.0


def test_the_pool_under_threads_gives_each_search_its_own_workspace() -> None:
    """Four threads each run 60 sliced searches in small steps at once, taking and
    giving back pooled workspaces without a lock: no workspace is ever held by two
    searches, and every answer is the blocking call's."""
    from concurrent.futures import ThreadPoolExecutor

    _sliced.release_pooled_workspaces()
    grid = Grid(np.ones((40, 40)))
    queries = [((i % 40, 0), (39 - i % 40, 39)) for i in range(60)]
    want = [summary(grid.astar(s, g)) for s, g in queries]
    held: set[int] = set()
    clashes: list[int] = []

    def work(offset: int) -> list[Any]:
        out = []
        for k in range(len(queries)):
            s, g = queries[(k + offset) % len(queries)]
            search = grid.start_search(s, g)
            while search.step(7) == "in_progress":
                ident = id(search._ws)
                if ident in held:
                    clashes.append(ident)
                held.add(ident)
                search.step(0)  # a zero step: still in progress, same workspace
                held.discard(ident)
            out.append(summary(search.result))
        return [out[(k - offset) % len(queries)] for k in range(len(queries))]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, [0, 15, 30, 45]))
    assert not clashes
    for got in results:
        assert got == want
    kind = grid.start_search((0, 0), (1, 1))._kind
    assert 1 <= len(_sliced._pool[kind]) <= _sliced.POOL_SIZE


def test_a_search_dropped_in_progress_gives_its_workspace_back() -> None:
    _sliced.release_pooled_workspaces()
    grid = Grid(np.ones((30, 30)))
    search = grid.start_search((0, 0), (29, 29), algorithm="dijkstra")
    search.step(5)
    kind, ws = search._kind, search._ws
    assert ws is not None and not _sliced._pool.get(kind)
    del search
    assert _sliced._pool[kind] == [ws]


# --------------------------------------------------------------------------- many in flight


@settings(max_examples=8, deadline=None)
@given(cases(max_side=24), st.integers(0, 2**32 - 1))
def test_two_hundred_searches_in_flight_interleaved_each_answer_as_blocking(
    case: Any, seed: int
) -> None:
    """200 searches on one grid, started together (far more than the pool's workspaces:
    most make their own) and stepped in random order by random slices: each ends with
    the blocking call's answer, and each found cost is scipy's shortest distance."""
    grid = Grid(case.cost, diagonal=case.rule)
    rng = np.random.default_rng(seed)
    algorithms = ("astar", "dijkstra", "greedy")
    starts, goals = case.pick(200, salt=1), case.pick(200, salt=2)
    pairs = zip(starts, goals, strict=True)
    queries = [(s, g, algorithms[i % 3]) for i, (s, g) in enumerate(pairs)]
    want = [summary(getattr(grid, a)(s, g)) for s, g, a in queries]
    _sliced.release_pooled_workspaces()
    searches = [grid.start_search(s, g, algorithm=a) for s, g, a in queries]
    live = list(range(len(searches)))
    while live:
        k = live[int(rng.integers(len(live)))]
        if searches[k].step(int(rng.integers(0, 9))) != "in_progress":
            live.remove(k)
    assert [summary(s.result) for s in searches] == want
    cols = case.cost.shape[1]
    flat = [r * cols + c for r, c in starts]
    dist = csgraph_dijkstra(oracle_graph(case.cost, case.rule), indices=flat)
    for i, (_, g, a) in enumerate(queries):
        if a == "greedy":
            continue
        expected = dist[i, g[0] * cols + g[1]]
        result = searches[i].result
        assert result.found == bool(np.isfinite(expected))
        if result.found:
            assert result.cost == pytest.approx(expected, rel=1e-9)


@pytest.mark.skipif(sys.platform == "win32", reason="Windows does not say what is in memory")
def test_searches_in_flight_hold_the_pages_they_touched_not_the_map() -> None:
    """Ten one-cell searches stepped once on a 1024 x 1024 grid, each on a workspace of
    its own (the pool's: map-sized address space each, 21 MB; beyond them hashed):
    under 1 MB in memory all together. A thousand on a 256 x 256 grid: under 128 kB
    each (the open list included)."""
    from pathcraft._core.hashed import HashedWorkspace

    grid = Grid(np.ones((1024, 1024)))
    _sliced.release_pooled_workspaces()
    held = [grid.start_search((500, 500), (500, 501)) for _ in range(10)]
    for s in held:
        assert s.step(1) == "in_progress"
    workspaces = {id(s._ws): s._ws for s in held}.values()
    assert len(workspaces) == 10
    dense = [ws for ws in workspaces if type(ws) is not HashedWorkspace]
    assert len(dense) <= _sliced.POOL_SIZE
    assert all(ws.nbytes >= 1026 * 1026 * 20 for ws in dense)
    assert sum(ws.resident_bytes for ws in workspaces) <= 2**20
    for s in held:
        assert s.step() == "found" and s.result.path.tolist() == [[500, 500], [500, 501]]
    small = Grid(np.ones((256, 256)))
    many = [small.start_search((9 + i % 200, 9), (9 + i % 200, 11)) for i in range(1000)]
    for s in many:
        s.step(2)
    resident = [s._ws.resident_bytes for s in many]
    assert max(resident) <= 128 * 2**10
    for s in many:
        assert s.step() == "found" and s.result.cost == 2.0


def test_a_graph_workspace_takes_memory_as_nodes_are_reached() -> None:
    from pathcraft._core import graph_search

    ws = graph_search.Workspace(2_000_000)
    assert ws.nbytes >= 2_000_000 * 28
    if sys.platform != "win32":
        assert ws.resident_bytes <= 2**17
    n = 200_000
    graph = Graph(n, np.arange(n - 1), np.arange(1, n))
    _sliced.release_pooled_workspaces()
    search = graph.start_search(0, 5)
    assert search.step(2) == "in_progress"
    if sys.platform != "win32":
        assert search._ws.resident_bytes <= 2**17
    assert search.step() == "found" and search.result.path == [0, 1, 2, 3, 4, 5]


def test_the_marks_wrapping_around_start_every_search_afresh() -> None:
    """A workspace whose generation stamps wrap (after about two billion searches)
    zeroes its marks and goal marks again: the searches on either side of the wrap
    answer as the blocking calls."""
    grid = Grid(np.ones((40, 40)))
    kind = grid.start_search((0, 0), (1, 1))._kind
    ws = kind(grid.padded.size)
    ws._set_generation(4294967288)  # the next search is the last before the wrap
    queries = [((0, 0), (39, 39)), ((39, 0), [(0, 39), (20, 20)]), ((5, 5), (30, 2))]
    for (start, goal), again in zip(queries, (False, True, True), strict=True):
        _sliced.release_pooled_workspaces()
        _sliced._release(ws)
        search = grid.start_search(start, goal, algorithm="dijkstra")
        assert search.step(3) == "in_progress" and search._ws is ws
        assert summary(run_sliced(search, [17])) == summary(grid.dijkstra(start, goal))
        assert again or ws.resident_bytes > 0
    with pytest.raises(ValueError, match="even"):
        ws._set_generation(3)
