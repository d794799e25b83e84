"""Step budgets: every sliced search, compiled or pure Python, takes ``step(n)`` with
``n`` an integer from 0 to 2**63 - 1 (or None) and refuses anything else by name,
never truncating ``2.7`` to 2 or taking ``True`` as 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from shapely import box

import pathcraft
from pathcraft import Graph, Grid, NavMesh, WaypointGraph
from pathcraft._sliced import CompiledSearch
from pathcraft.hexgrid import SIXTEEN, HexGrid, MovesGrid
from pathcraft.layered import Level
from pathcraft.search import SlicedSearch
from pathcraft.voxel import VoxelGrid


def _line(n: int) -> list[tuple[int, float]]:
    return [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]


#: World name -> a search from one end of a small open world to the other.
SEARCHES: dict[str, Callable[[], Any]] = {
    "Grid": lambda: Grid(np.ones((4, 6))).start_search((0, 0), (3, 5)),
    "Grid jps": lambda: Grid(np.ones((4, 6))).start_search((0, 0), (3, 5), algorithm="jps"),
    "Grid theta": lambda: Grid(np.ones((4, 6))).start_search((0, 0), (3, 5), algorithm="theta"),
    "HexGrid": lambda: HexGrid(np.ones((4, 6))).start_search((0, 0), (3, 5)),
    "MovesGrid": lambda: MovesGrid(np.ones((4, 6)), SIXTEEN).start_search((0, 0), (3, 5)),
    "VoxelGrid": lambda: VoxelGrid(np.ones((2, 3, 4))).start_search((0, 0, 0), (1, 2, 3)),
    "Level": lambda: Level(np.ones((2, 3, 4)), portals=[((0, 0, 3), (1, 0, 3))]).start_search(
        (0, 2, 0), (1, 2, 0)
    ),
    "Graph": lambda: Graph(4, [0, 1, 2], [1, 2, 3], [1.0, 1.0, 1.0]).start_search(0, 3),
    "WaypointGraph": lambda: WaypointGraph(
        [(4, 9), (6, 9), (4, -2), (6, -2)], obstacles=[box(4.5, -1, 5.5, 8)]
    ).start_search((0.0, 3.0), (10.0, 3.0)),
    "NavMesh": lambda: NavMesh.from_geometry(
        box(0, 0, 10, 10).difference(box(4, 2, 6, 10))
    ).start_search((1.0, 9.0), (9.0, 9.0)),
    "search": lambda: SlicedSearch(0, 9, _line),
}

BAD = [
    (2.7, TypeError, r"max_expansions must be an integer >= 0 or None; got 2\.7"),
    (True, TypeError, r"max_expansions must be an integer >= 0 or None; got True"),
    (np.float64(3.0), TypeError, r"max_expansions must be an integer >= 0 or None"),
    (-1, ValueError, r"max_expansions must be >= 0 or None; got -1"),
    (2**63, ValueError, r"max_expansions must be at most 9223372036854775807 or None"),
]


@pytest.mark.parametrize("world", list(SEARCHES))
@pytest.mark.parametrize(("budget", "error", "message"), BAD)
@pytest.mark.parametrize("started", [False, True])
def test_bad_budgets_are_refused_by_name_before_and_during_a_search(
    world: str, budget: Any, error: type[Exception], message: str, started: bool
) -> None:
    search = SEARCHES[world]()
    if started:
        assert search.step(1) == "in_progress"
    with pytest.raises(error, match=message):
        search.step(budget)
    assert search.status == "in_progress"  # a refused step changes nothing
    assert search.expanded == (1 if started else 0)


@pytest.mark.parametrize("world", list(SEARCHES))
@pytest.mark.parametrize("started", [False, True])
def test_the_largest_budget_runs_the_search_to_its_end(world: str, started: bool) -> None:
    search = SEARCHES[world]()
    if started:
        search.step(1)
    assert search.step(2**63 - 1) == "found"
    blocking = SEARCHES[world]()
    blocking.step()
    assert search.result.cost == pytest.approx(blocking.result.cost)


@pytest.mark.parametrize("world", [w for w in SEARCHES if w != "search"])
def test_every_compiled_world_returns_a_compiled_search(world: str) -> None:
    assert isinstance(SEARCHES[world](), CompiledSearch)


def test_world_changed_error_is_public() -> None:
    assert "WorldChangedError" in pathcraft.__all__
    assert issubclass(pathcraft.WorldChangedError, RuntimeError)
    grid = Grid(np.ones((1, 9)))
    search = grid.start_search((0, 0), (0, 8))
    search.step(2)
    grid[0, 5] = np.inf
    with pytest.raises(pathcraft.WorldChangedError, match="Grid changed under this search"):
        search.step(2)
    assert search.status == "cancelled"
