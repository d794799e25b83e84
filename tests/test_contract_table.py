"""The query contract as one table: every world x capability x argument shape (one
source, several sources, several goals, ``goal=None``, empty batches, the shorthands,
distance fields, stepped searches) either answers what an independent oracle
(``scipy.sparse.csgraph``) answers on the same graph, or is refused by the world's
uniform error. The table (:data:`EXPECT`) is the contract; each row runs every
world."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from _grids import oracle_graph
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra
from shapely import box

from pathcraft import Graph, Grid, Level, NavMesh, VoxelGrid, WaypointGraph
from pathcraft._options import UnsupportedOptionError
from pathcraft.hexgrid import SIXTEEN, HexGrid, MovesGrid

GRID_ASCII = """
........
.####...
....#...
..#.#...
..#.....
"""


@dataclass
class Case:
    """A world, three walkable places ``a``, ``b`` (sources) and ``g`` (a goal), and
    its oracle: ``dist(sources)`` maps a place to its cost from the nearest source."""

    world: Any
    a: Any
    b: Any
    g: Any
    dist: Callable[[list[Any]], Callable[[Any], float]]
    every: list[Any]  # every walkable place (the distance field's domain)
    empty: Any  # an empty batch of places

    def step(self, a: Any, b: Any) -> float:
        """What the move from ``a`` to ``b`` costs (a KeyError if there is none)."""
        if isinstance(self.world, Grid):
            straight = a[0] == b[0] or a[1] == b[1]
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
            return float(self.world.cost[b]) * (1.0 if straight else np.sqrt(2.0))
        return float(dict(self.world.neighbors(a))[b])


def _csgraph(matrix: csr_matrix, index: Callable[[Any], int], directed: bool = True) -> Any:
    def dist(sources: list[Any]) -> Callable[[Any], float]:
        idx = [index(s) for s in sources]
        d = csgraph_dijkstra(matrix, directed=directed, indices=idx, min_only=True)
        return lambda place: float(d[index(place)])

    return dist


def _by_neighbors(world: Any, shape: tuple[int, ...], cells: list[Any]) -> Any:
    """The oracle over the world's own neighbour function (what each move costs)."""
    src, dst, w = [], [], []
    for cell in cells:
        for near, step in world.neighbors(cell):
            src.append(np.ravel_multi_index(cell, shape))
            dst.append(np.ravel_multi_index(near, shape))
            w.append(step)
    n = int(np.prod(shape))
    return _csgraph(
        csr_matrix((w, (src, dst)), shape=(n, n)),
        lambda p: int(np.ravel_multi_index(p, shape)),
    )


def _cells(walkable: np.ndarray) -> list[Any]:
    return [tuple(int(v) for v in c) for c in np.argwhere(walkable)]


def grid_case() -> Case:
    grid = Grid.from_ascii(GRID_ASCII)
    cols = grid.shape[1]
    dist = _csgraph(oracle_graph(grid.cost, grid.diagonal), lambda p: p[0] * cols + p[1])
    return Case(grid, (0, 0), (4, 0), (4, 7), dist, _cells(np.isfinite(grid.cost)),
                np.empty((0, 2), dtype=int))  # fmt: skip


def _stencil_case(world: Any) -> Case:
    cells = _cells(np.isfinite(Grid.from_ascii(GRID_ASCII).cost))
    return Case(world, (0, 0), (4, 0), (4, 7), _by_neighbors(world, world.shape, cells),
                cells, np.empty((0, 2), dtype=int))  # fmt: skip


def hex_case() -> Case:
    return _stencil_case(HexGrid(Grid.from_ascii(GRID_ASCII).cost, "even-q"))


def moves_case() -> Case:
    return _stencil_case(MovesGrid(Grid.from_ascii(GRID_ASCII).cost, SIXTEEN))


def voxel_case() -> Case:
    cost = np.stack([Grid.from_ascii(GRID_ASCII).cost, np.ones((5, 8))])
    world = VoxelGrid(cost, connectivity=18)
    cells = _cells(np.isfinite(cost))
    return Case(world, (0, 0, 0), (1, 4, 0), (0, 4, 7), _by_neighbors(world, cost.shape, cells),
                cells, np.empty((0, 3), dtype=int))  # fmt: skip


def level_case() -> Case:
    floor = Grid.from_ascii(GRID_ASCII)
    level = Level([floor, floor], portals=[((0, 0, 7), (1, 0, 7), 2.0)])
    cells = _cells(np.isfinite(level.cost))
    return Case(level, (0, 4, 0), (1, 0, 0), (1, 4, 7), _by_neighbors(level, level.shape, cells),
                cells, np.empty((0, 3), dtype=int))  # fmt: skip


EDGES = [(0, 1, 2.0), (1, 2, 2.0), (0, 3, 1.5), (3, 4, 1.5), (4, 2, 1.2), (2, 5, 1.0),
         (3, 5, 4.0), (1, 5, 5.0)]  # fmt: skip


def graph_case() -> Case:
    src, dst, w = (list(x) for x in zip(*EDGES, strict=True))
    coords = [(0, 0), (2, 0), (3, 1), (1, 1), (2, 1.5), (4, 1)]
    graph = Graph(6, src, dst, w, directed=False, coords=coords)
    matrix = csr_matrix((w + w, (src + dst, dst + src)), shape=(6, 6))
    return Case(graph, 0, 1, 5, _csgraph(matrix, lambda p: p), list(range(6)), [])


WALL = box(4.5, -1, 5.5, 8)
WAYPOINTS = [(4.0, 9.0), (6.0, 9.0), (4.0, -2.0), (6.0, -2.0)]


def waypoint_case() -> Case:
    start, goal = (0.0, 3.0), (10.0, 3.0)
    points = np.array([*WAYPOINTS, start, goal])
    links = WaypointGraph(points, obstacles=[WALL]).links
    length = np.hypot(*(points[links[:, 0]] - points[links[:, 1]]).T)
    n = len(points)
    matrix = csr_matrix((length, (links[:, 0], links[:, 1])), shape=(n, n))
    index = {tuple(p): i for i, p in enumerate(points.tolist())}
    return Case(WaypointGraph(WAYPOINTS, obstacles=[WALL]), start, (0.0, 4.0), goal,
                _csgraph(matrix, lambda p: index[tuple(p)], directed=False), [], [])  # fmt: skip


def navmesh_case() -> Case:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    return Case(mesh, (1.0, 9.0), (1.0, 8.0), (9.0, 9.0), lambda s: lambda p: np.nan, [], [])


CASES: dict[str, Callable[[], Case]] = {
    "Grid": grid_case,
    "HexGrid": hex_case,
    "MovesGrid": moves_case,
    "VoxelGrid": voxel_case,
    "Level": level_case,
    "Graph": graph_case,
    "WaypointGraph": waypoint_case,
    "NavMesh": navmesh_case,
}
CELL = ("HexGrid", "MovesGrid", "VoxelGrid", "Level")
SPACE = ("WaypointGraph", "NavMesh")

#: shape -> world -> "oracle" or the refusal (exception type, message pattern).
Expect = dict[str, dict[str, Any]]
_POSITION = (ValueError, "must be a position")
_GOAL_NONE = (
    UnsupportedOptionError,
    r"start_search\(algorithm='dijkstra'\) does not take goal=None",
)
EXPECT: Expect = {
    "one source": {w: "oracle" for w in CASES} | {"NavMesh": "shorthand refused"},
    "several sources": {w: "oracle" for w in CASES} | dict.fromkeys(SPACE, _POSITION),
    "several goals": {w: "oracle" for w in CASES}
    | dict.fromkeys(SPACE, _POSITION)
    | {"Level": (UnsupportedOptionError, r"Level.find_path\(algorithm='dijkstra'\) takes one")},
    "goal=None": {w: "oracle" for w in CASES}
    | dict.fromkeys(SPACE, (TypeError, "goal must be a position")),  # None: not numbers
    "stepped, goal=None": {"Graph": (TypeError, "goal")}
    | dict.fromkeys(("Grid", *CELL), _GOAL_NONE)
    | dict.fromkeys(SPACE, (TypeError, "goal must be a position")),
    "stepped, several sources": {w: "oracle" for w in CASES} | dict.fromkeys(SPACE, _POSITION),
    "distance field": {w: "oracle" for w in CASES} | dict.fromkeys(SPACE, "absent"),
    "distance field, parents": {w: "oracle" for w in CASES} | dict.fromkeys(SPACE, "absent"),
    "empty batches": {w: "oracle" for w in CASES} | dict.fromkeys(SPACE, "absent"),
}


def _starts_at(result: Any, sources: list[Any]) -> bool:
    first = result.path[0]
    return any(np.array_equal(np.asarray(first), np.asarray(s)) for s in sources)


def run(case: Case, shape: str) -> None:
    """Run one argument shape on one world against the oracle."""
    w, a, b, g = case.world, case.a, case.b, case.g
    algorithm = "funnel" if isinstance(w, NavMesh) else "dijkstra"

    def dijkstra(sources: Any, goals: Any) -> Any:
        return w.find_path(sources, goals, algorithm=algorithm)

    def many(*places: Any) -> Any:
        return np.array(places) if case.every and isinstance(places[0], tuple) else list(places)

    if shape == "one source":
        want = case.dist([a])(g)
        assert w.dijkstra(a, g).cost == pytest.approx(want)
        assert w.astar(a, g).cost == pytest.approx(want)
        greedy = w.greedy(a, g)
        assert greedy.found and greedy.cost >= want - 1e-9
    elif shape == "several sources":
        result = dijkstra(many(a, b), g)
        assert result.cost == pytest.approx(case.dist([a, b])(g))
        assert _starts_at(result, [a, b])
    elif shape == "several goals":
        result = dijkstra(a, many(g, b))
        assert result.cost == pytest.approx(min(case.dist([a])(g), case.dist([a])(b)))
    elif shape == "goal=None":
        settled = dijkstra(many(a, b) if case.every else a, None)
        dist = case.dist([a, b])
        assert settled and len(settled.path) == 0
        for place in case.every:
            want = dist(place)
            if np.isfinite(want):
                assert settled.distances[place] == pytest.approx(want)
                path = settled.path_to(place)
                assert path[0] in (a, b) and path[-1] == place
                assert sum(case.step(p, q) for p, q in pairwise(path)) == pytest.approx(want)
    elif shape == "stepped, several sources":
        search = w.start_search(many(a, b), g, algorithm=algorithm)
        while search.step(3) == "in_progress":
            pass
        assert search.result.cost == pytest.approx(case.dist([a, b])(g))
    elif shape == "stepped, goal=None":
        w.start_search(many(a, b) if case.every else a, None, algorithm=algorithm)
    elif shape == "distance field, parents":
        costs, tree = w.distance_field(many(a, b), parents=True)
        dist = case.dist([a, b])
        for place in case.every:
            parent = tree[place]
            if place in (a, b) or not np.isfinite(dist(place)):
                assert np.all(parent == -1)
                continue
            q = tuple(int(v) for v in parent) if np.ndim(parent) else int(parent)
            assert costs[place] == pytest.approx(dist(place))
            assert dist(q) + case.step(q, place) == pytest.approx(dist(place))
    elif shape == "distance field":
        field = w.distance_field(a)
        if isinstance(field, tuple):
            field = field[0]
        dist = case.dist([a])
        for place in case.every:
            assert field[place] == pytest.approx(dist(place))
    elif shape == "empty batches":
        assert w.find_paths(case.empty, case.empty) == []
        costs = w.path_costs(case.empty, case.empty)
        assert isinstance(costs, np.ndarray) and costs.shape == (0,)
    else:  # pragma: no cover
        raise AssertionError(shape)


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    return {name: make() for name, make in CASES.items()}


@pytest.mark.parametrize("world", list(CASES))
@pytest.mark.parametrize("shape", list(EXPECT))
def test_every_world_answers_every_shape_or_refuses_it(
    cases: dict[str, Case], world: str, shape: str
) -> None:
    case = cases[world]
    expect = EXPECT[shape][world]
    if expect == "oracle":
        run(case, shape)
    elif expect == "absent":
        name = "find_paths" if shape == "empty batches" else "distance_field"
        assert not hasattr(case.world, name)
    elif expect == "shorthand refused":
        for name in ("astar", "dijkstra", "greedy"):
            refusal = f"{world}.{name} is not a {world} search"
            with pytest.raises(UnsupportedOptionError, match=refusal):
                getattr(case.world, name)(case.a, case.g)
        assert case.world.find_path(case.a, case.g).found
    else:
        error, message = expect
        with pytest.raises(error, match=message):
            run(case, shape)


def test_the_table_covers_every_world_and_shape() -> None:
    assert all(set(row) == set(CASES) for row in EXPECT.values())


@pytest.mark.parametrize("world", list(CASES))
@pytest.mark.parametrize("method", ["find_path", "start_search", "find_paths", "path_costs"])
def test_a_refused_option_names_the_method_called(
    cases: dict[str, Case], world: str, method: str
) -> None:
    case = cases[world]
    if not hasattr(case.world, method):
        assert world in SPACE and method in ("find_paths", "path_costs")
        return
    algorithm = "optimal" if world == "NavMesh" else "dijkstra"
    ends = (case.a, case.g) if method in ("find_path", "start_search") else ([case.a], [case.g])
    with pytest.raises(UnsupportedOptionError, match=rf"^{world}\.{method}\(algorithm="):
        getattr(case.world, method)(*ends, algorithm=algorithm, weight=2)
