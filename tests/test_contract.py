"""The query contract: every world x every option x every ``algorithm=`` value either
works (the same answer as an independent oracle) or is refused by the one uniform
error; ``partial`` means the same everywhere; the README's options table is the table
the code checks options with."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _grids import oracle
from _mesh3d_scenes import lifted, plane_oracle, slope
from _scenes import oracle_length
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra
from shapely import box

from pathcraft import Graph, Grid, NavMesh, PathResult, WaypointGraph
from pathcraft import search as generic
from pathcraft._options import OPTION_NAMES, SUPPORT, UnsupportedOptionError, options_table
from pathcraft.hexgrid import SIXTEEN, HexGrid, MovesGrid
from pathcraft.layered import Level
from pathcraft.navmesh3d import NavMesh3D
from pathcraft.voxel import VoxelGrid

README = Path(__file__).resolve().parent.parent / "README.md"

# --------------------------------------------------------------------------- worlds


@dataclass
class World:
    """One world, one query on it, and the oracle's cost of that query."""

    name: str
    ask: Any  # ask(algorithm, **options) -> PathResult
    optimal: float
    exact: set[str]  # the algorithms that must return the optimal cost


GRID_ASCII = """
........
.####...
....#...
..#.#...
..#.....
"""


def grid_world() -> World:
    grid = Grid.from_ascii(GRID_ASCII)
    start, goal = (0, 0), (4, 7)
    want = float(oracle(grid.cost, grid.diagonal, [start])[goal])
    return World(
        "Grid", lambda a, **o: grid.find_path(start, goal, algorithm=a, **o), want,
        {"astar", "dijkstra", "jps"},
    )  # fmt: skip


EDGES = [(0, 1, 2.0), (1, 2, 2.0), (0, 3, 1.5), (3, 4, 1.5), (4, 2, 1.2), (2, 5, 1.0),
         (3, 5, 4.0), (1, 5, 5.0)]  # fmt: skip
COORDS = [(0, 0), (2, 0), (3, 1), (1, 1), (2, 1.5), (4, 1)]


def graph_world() -> World:
    src, dst, w = (list(x) for x in zip(*EDGES, strict=True))
    graph = Graph(6, src, dst, w, directed=False, coords=COORDS)
    matrix = csr_matrix((w, (src, dst)), shape=(6, 6))
    want = float(csgraph_dijkstra(matrix, directed=False, indices=0)[5])
    return World(
        "Graph", lambda a, **o: graph.find_path(0, 5, algorithm=a, **o), want,
        {"astar", "dijkstra"},
    )  # fmt: skip


def search_world() -> World:
    src, dst, w = (list(x) for x in zip(*EDGES, strict=True))
    links: dict[int, list[tuple[int, float]]] = {i: [] for i in range(6)}
    for u, v, c in EDGES:
        links[u].append((v, c))
        links[v].append((u, c))
    xy = np.array(COORDS, dtype=float)
    scale = min(c / float(np.hypot(*(xy[u] - xy[v]))) for u, v, c in EDGES)

    def h(n: int) -> float:
        return scale * float(np.hypot(*(xy[n] - xy[5])))

    matrix = csr_matrix((w, (src, dst)), shape=(6, 6))
    want = float(csgraph_dijkstra(matrix, directed=False, indices=0)[5])

    def ask(algorithm: str, **options: Any) -> PathResult:
        if "heuristic" in options:
            options["heuristic"] = h if options["heuristic"] == "default" else options["heuristic"]
        elif algorithm in ("astar", "greedy"):
            options["heuristic"] = h
        return generic.find_path(0, 5, links.__getitem__, algorithm=algorithm, **options)

    return World("search", ask, want, {"astar", "dijkstra"})


#: A wall from (5, -1) to (5, 8) between start (0, 3) and goal (10, 3).
WALL = box(4.5, -1, 5.5, 8)
WAYPOINTS = [(4, 9), (6, 9), (4, -2), (6, -2), (2, 5), (8, 5)]


def waypoint_world() -> World:
    wp = WaypointGraph(WAYPOINTS, obstacles=[WALL])
    start, goal = np.array([0.0, 3.0]), np.array([10.0, 3.0])
    # the oracle: scipy over the visibility links of waypoints, start and goal
    points = np.vstack((WAYPOINTS, start, goal))
    full = WaypointGraph(points, obstacles=[WALL])
    links = full.links
    length = np.sqrt(((points[links[:, 0]] - points[links[:, 1]]) ** 2).sum(axis=1))
    n = points.shape[0]
    graph = csr_matrix((length, (links[:, 0], links[:, 1])), shape=(n, n))
    want = float(csgraph_dijkstra(graph, directed=False, indices=n - 2)[n - 1])
    return World(
        "WaypointGraph", lambda a, **o: wp.find_path(start, goal, algorithm=a, **o), want,
        {"astar", "dijkstra"},
    )  # fmt: skip


def navmesh_world() -> World:
    walk = box(0, 0, 10, 10).difference(box(4, 2, 6, 10))
    mesh = NavMesh.from_geometry(walk)
    start, goal = np.array([1.0, 9.0]), np.array([9.0, 9.0])
    want = oracle_length(walk, start, goal)
    return World(
        "NavMesh", lambda a, **o: mesh.find_path(start, goal, algorithm=a, **o), want,
        {"optimal"},
    )  # fmt: skip


def _stencil_world(name: str, world: Any) -> World:
    """A pathcraft.hexgrid world, its oracle scipy on the graph of its neighbours."""
    rows, cols = world.shape
    src, dst, w = [], [], []
    for r in range(rows):
        for c in range(cols):
            for (nr, nc), step in world.neighbors((r, c)):
                src.append(r * cols + c)
                dst.append(nr * cols + nc)
                w.append(step)
    matrix = csr_matrix((w, (src, dst)), shape=(rows * cols, rows * cols))
    start, goal = (0, 0), (4, 7)
    want = float(csgraph_dijkstra(matrix, indices=0)[goal[0] * cols + goal[1]])
    return World(
        name, lambda a, **o: world.find_path(start, goal, algorithm=a, **o), want,
        {"astar", "dijkstra"},
    )  # fmt: skip


def hex_world() -> World:
    return _stencil_world("HexGrid", HexGrid(Grid.from_ascii(GRID_ASCII).cost, "even-q"))


def moves_world() -> World:
    return _stencil_world("MovesGrid", MovesGrid(Grid.from_ascii(GRID_ASCII).cost, SIXTEEN))


def level_world() -> World:
    """Two floors of the test grid joined by a staircase; the oracle scipy on the graph
    of ``Level.neighbors``."""
    floor = Grid.from_ascii(GRID_ASCII)
    level = Level([floor, floor], portals=[((0, 0, 7), (1, 0, 7), 2.0)])
    shape = level.shape
    src, dst, w = [], [], []
    for cell in np.argwhere(np.isfinite(level.cost)):
        a = tuple(int(v) for v in cell)
        for b, step in level.neighbors(a):  # type: ignore[arg-type]
            src.append(np.ravel_multi_index(a, shape))
            dst.append(np.ravel_multi_index(b, shape))
            w.append(step)
    n = int(np.prod(shape))
    matrix = csr_matrix((w, (src, dst)), shape=(n, n))
    start, goal = (0, 4, 0), (1, 4, 7)
    start_flat = int(np.ravel_multi_index(start, shape))
    want = float(csgraph_dijkstra(matrix, indices=start_flat)[np.ravel_multi_index(goal, shape)])
    return World(
        "Level", lambda a, **o: level.find_path(start, goal, algorithm=a, **o), want,
        {"astar", "dijkstra"},
    )  # fmt: skip


def voxel_world() -> World:
    """A VoxelGrid: two layers of the grid above, the second without walls; its oracle
    scipy on the graph of its neighbours."""
    cost = np.stack([Grid.from_ascii(GRID_ASCII).cost, np.ones((5, 8))])
    world = VoxelGrid(cost, connectivity=18)
    depth, rows, cols = world.shape
    index = np.arange(cost.size).reshape(cost.shape)
    src, dst, w = [], [], []
    for z in range(depth):
        for r in range(rows):
            for c in range(cols):
                for near, step in world.neighbors((z, r, c)):
                    src.append(index[z, r, c])
                    dst.append(index[near])
                    w.append(step)
    matrix = csr_matrix((w, (src, dst)), shape=(cost.size, cost.size))
    start, goal = (0, 0, 0), (0, 4, 7)
    want = float(csgraph_dijkstra(matrix, indices=0)[index[goal]])
    return World(
        "VoxelGrid", lambda a, **o: world.find_path(start, goal, algorithm=a, **o), want,
        {"astar", "dijkstra"},
    )  # fmt: skip


def navmesh3d_world() -> World:
    """The mesh world's level on a plane tilted up along x; the oracle the visibility
    graph with its links weighed in 3-D."""
    walk = box(0, 0, 10, 10).difference(box(4, 2, 6, 10))
    height = slope(0.0, dzdx=0.25)
    mesh = NavMesh3D(lifted(NavMesh.from_geometry(walk), height))
    start, goal = np.array([1.0, 9.0, 0.25]), np.array([9.0, 9.0, 2.25])
    want = plane_oracle(walk, start, goal, height)
    return World(
        "NavMesh3D", lambda a, **o: mesh.find_path(start, goal, algorithm=a, **o), want, set()
    )


WORLDS = {
    "Grid": grid_world,
    "Graph": graph_world,
    "WaypointGraph": waypoint_world,
    "NavMesh": navmesh_world,
    "NavMesh3D": navmesh3d_world,
    "search": search_world,
    "HexGrid": hex_world,
    "MovesGrid": moves_world,
    "Level": level_world,
    "VoxelGrid": voxel_world,
}

#: A valid value for each option, one that must not change a reachable goal's answer
#: (beyond weight's bound).
VALUES: dict[str, Any] = {
    "weight": 1.5,
    "heuristic": "zero",
    "tie_break": "random",
    "seed": 7,
    "max_expansions": 10**6,
    "max_cost": 1e9,
    "partial": True,
    "record": True,
}

CASES = [
    pytest.param(world, algorithm, option, id=f"{world}-{algorithm}-{option}")
    for world, spec in SUPPORT.items()
    for algorithm in spec.algorithms
    for option in OPTION_NAMES
]


def test_every_world_has_a_test_world() -> None:
    assert set(WORLDS) == set(SUPPORT)


@pytest.fixture(scope="module")
def worlds() -> dict[str, World]:
    return {name: make() for name, make in WORLDS.items()}


@pytest.mark.parametrize(("world", "algorithm", "option"), CASES)
def test_each_option_works_or_is_refused_uniformly(
    worlds: dict[str, World], world: str, algorithm: str, option: str
) -> None:
    w = worlds[world]
    spec = SUPPORT[world]
    value = VALUES[option]
    if option == "heuristic" and spec.heuristics is None:
        value = "default" if world == "search" else (lambda n: 0.0)
    if option not in spec.algorithms[algorithm]:
        takes = ", ".join(spec.algorithms[algorithm])
        message = (
            f"{world}.find_path(algorithm={algorithm!r}) does not take {option}; it takes {takes}"
        )
        with pytest.raises(UnsupportedOptionError, match=re.escape(message)):
            w.ask(algorithm, **{option: value})
        return
    result = w.ask(algorithm, **{option: value})
    assert isinstance(result, PathResult)
    assert result.found and result.reason is None, result
    bound = VALUES["weight"] if option == "weight" else 1.0
    if algorithm in w.exact:
        assert w.optimal - 1e-9 <= result.cost <= bound * w.optimal + 1e-9
    elif algorithm == "theta":  # any-angle: within the straight line and the octile optimum
        assert math.hypot(4, 7) - 1e-9 <= result.cost <= bound * w.optimal + 1e-9
    else:  # greedy and the funnel: any legal path, never shorter than the optimum
        assert result.cost >= w.optimal - 1e-9
    if option == "record":
        assert result.explored is not None and len(result.explored) >= 1


@pytest.mark.parametrize(
    ("world", "algorithm"),
    [
        pytest.param(world, algorithm, id=f"{world}-{algorithm}")
        for world, spec in SUPPORT.items()
        for algorithm, takes in spec.algorithms.items()
        if "partial" in takes and "max_expansions" in takes
    ],
)
def test_partial_after_a_limit_leads_from_the_start_toward_the_goal(
    worlds: dict[str, World], world: str, algorithm: str
) -> None:
    w = worlds[world]
    full = w.ask(algorithm)
    capped = w.ask(algorithm, max_expansions=1, partial=True)
    assert not capped and capped.reason == "max_expansions"
    assert len(capped.path) >= 1
    first = capped.path[0]
    assert np.array_equal(np.asarray(first), np.asarray(full.path[0]))
    assert math.isfinite(capped.cost) and capped.cost >= 0
    nothing = w.ask(algorithm, max_expansions=1)
    assert not nothing and len(nothing.path) == 0 and nothing.cost == math.inf


@pytest.mark.parametrize("world", list(SUPPORT))
def test_unknown_options_and_algorithms_are_refused_by_name(
    worlds: dict[str, World], world: str
) -> None:
    w = worlds[world]
    algorithm = next(iter(SUPPORT[world].algorithms))
    with pytest.raises(UnsupportedOptionError, match=r"got an unknown option 'wieght'"):
        w.ask(algorithm, wieght=2.0)
    with pytest.raises(ValueError, match=r"algorithm must be one of"):
        w.ask("teleport")


@pytest.mark.parametrize("world", list(SUPPORT))
@pytest.mark.parametrize(
    ("option", "value", "kind", "message"),
    [
        ("max_expansions", 2**63, ValueError, r"max_expansions must be an integer from 0 to"),
        ("max_expansions", -1, ValueError, r"max_expansions must be an integer from 0 to"),
        ("partial", "yes", TypeError, r"partial must be True or False; got 'yes'"),
        ("partial", 1, TypeError, r"partial must be True or False; got 1"),
        ("record", None, TypeError, r"record must be True or False; got None"),
        ("seed", -1, ValueError, r"seed must be an integer from 0 to 18446744073709551615"),
        ("seed", "x", TypeError, r"seed must be an integer from 0 to"),
        ("max_cost", math.nan, ValueError, r"max_cost must be a number >= 0 or None"),
        ("weight", 0.5, ValueError, r"weight must be a finite number >= 1"),
    ],
)
def test_bad_option_values_get_the_same_error_on_every_world(
    worlds: dict[str, World], world: str, option: str, value: Any, kind: type, message: str
) -> None:
    spec = SUPPORT[world]
    takers = [a for a, takes in spec.algorithms.items() if option in takes]
    if not takers:
        pytest.skip(f"no {world} search takes {option}")
    with pytest.raises(kind, match=message):
        worlds[world].ask(takers[0], **{option: value})


def test_the_same_seed_gives_the_same_random_ties() -> None:
    grid = Grid(np.ones((12, 12)))
    runs = [grid.astar((0, 0), (11, 11), tie_break="random", seed=s, record=True) for s in (3, 3)]
    assert np.array_equal(runs[0].explored.nodes, runs[1].explored.nodes)  # type: ignore[union-attr]


# --------------------------------------------------------------------------- README


def test_the_readme_options_table_is_the_table_the_code_checks() -> None:
    assert options_table() in README.read_text(encoding="utf-8")


def test_the_grid_distance_field_tree_leads_every_cell_to_a_source() -> None:
    grid = Grid.from_ascii(GRID_ASCII)
    costs, tree = grid.distance_field([(0, 0), (4, 7)], parents=True)
    want = oracle(grid.cost, grid.diagonal, [(0, 0), (4, 7)])
    np.testing.assert_allclose(costs, want)
    for r, c in np.argwhere(np.isfinite(costs)):
        cell, total = (int(r), int(c)), 0.0
        while tuple(tree[cell]) != (-1, -1):
            parent = tuple(int(x) for x in tree[cell])
            step = float(np.hypot(cell[0] - parent[0], cell[1] - parent[1]))
            total += grid.cost[cell] * step
            cell = parent
        assert cell in ((0, 0), (4, 7))
        assert total == pytest.approx(costs[r, c])
    every = grid.dijkstra([(0, 0), (4, 7)])
    assert every and len(every.distances) == int(np.isfinite(costs).sum())  # type: ignore[arg-type]
    assert every.path_to((2, 3))[-1] == (2, 3)
    assert every.path_to((2, 3))[0] in ((0, 0), (4, 7))


def test_goal_less_dijkstra_takes_max_cost_only_and_says_so() -> None:
    grid = Grid.from_ascii(GRID_ASCII)
    graph = Graph(3, [0, 1], [1, 2], [2.0, 3.0])
    for world, ask in (("Grid", lambda **o: grid.dijkstra((0, 0), **o)),
                       ("Graph", lambda **o: graph.dijkstra(0, **o))):  # fmt: skip
        message = (
            f"{world}.find_path(algorithm='dijkstra') with goal=None does not take record; "
            "it takes max_cost"
        )
        with pytest.raises(UnsupportedOptionError, match=re.escape(message)):
            ask(record=True)
        near = ask(max_cost=2.0)
        assert near and all(cost <= 2.0 for cost in near.distances.values())  # type: ignore[union-attr]
    every = graph.dijkstra(0)
    assert dict(every.distances) == {0: 0.0, 1: 2.0, 2: 5.0}  # type: ignore[arg-type]
    assert every.path_to(2) == [0, 1, 2]
