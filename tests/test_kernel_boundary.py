"""The compiled core's boundary: every ``def`` kernel entry checks indices, shapes and
workspace sizes before it runs (IndexError or ValueError, never a crash), the debug
build catches an out-of-range index inside a kernel, and every searching entry takes
the keyword arguments its stub names, the one settings object among them."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from pathcraft import Graph, Grid, NavMesh
from pathcraft._core import (
    graph_search,
    grid_search,
    jps,
    machine,
    navmesh,
    polyanya,
    theta,
    visibility,
)
from pathcraft._kernels import FOUND, KernelSettings
from pathcraft._options import SearchOptions, kernel_settings
from pathcraft.graph._search import kernel_args, run_kernel
from pathcraft.grid._run import jps_settings, search_settings, theta_settings
from pathcraft.hexgrid import HexGrid
from pathcraft.layered import Level
from pathcraft.voxel import VoxelGrid

INTP = np.intp


def test_the_private_graph_call_that_used_to_crash_raises() -> None:
    graph = Graph(3, [0, 1], [1, 2])
    assert not hasattr(graph, "run")
    with pytest.raises(IndexError, match="sources: node index 50000000"):
        run_kernel(graph, "astar", np.array([50_000_000]), 2, None)
    with pytest.raises(IndexError, match="goal_set: node index -4"):
        run_kernel(graph, "dijkstra", np.array([0]), -1, np.array([1, -4]))
    with pytest.raises(IndexError, match="goal: node index 3"):
        run_kernel(graph, "astar", np.array([0]), 3, None)


# ------------------------------------------------------------------ grid kernels


@pytest.fixture
def grid() -> Grid:
    return Grid(np.ones((4, 5)))


def grid_call(grid: Grid, sources: list[int], goal: int, goal_set: Any = None) -> Any:
    settings = search_settings(grid, SearchOptions.check("Grid", "astar"))
    ws = grid_search.Workspace(grid.padded.size)
    return grid_search.search(grid.padded, ws, np.array(sources, INTP), goal, goal_set, **settings)


@pytest.mark.parametrize("cell", [-1, 0, 6, 7 * 6 - 1, 7 * 6, 10**9])
def test_grid_search_checks_its_cells(grid: Grid, cell: int) -> None:
    # The padded grid is 6 x 7: row 0, row 5, column 0 and column 6 are the border.
    inside = 1 * 7 + 1
    with pytest.raises(IndexError, match="sources: padded cell index"):
        grid_call(grid, [cell], inside)
    if cell != -1:  # -1: no single goal
        with pytest.raises(IndexError, match="goal: padded cell index"):
            grid_call(grid, [inside], cell)
    with pytest.raises(IndexError, match="goal_set: padded cell index"):
        grid_call(grid, [inside], -1, np.array([inside, cell], INTP))


def test_grid_entries_check_shapes_and_workspace(grid: Grid) -> None:
    settings = search_settings(grid, SearchOptions.check("Grid", "astar"))
    small = grid_search.Workspace(10)
    with pytest.raises(ValueError, match="too small"):
        grid_search.search(grid.padded, small, np.array([8], INTP), 9, None, **settings)
    ws = grid_search.Workspace(grid.padded.size)
    with pytest.raises(ValueError, match="at least one cell"):
        grid_search.GridSearch(grid.padded, ws, np.array([], INTP), 9, None, **settings)
    costs = np.empty(2)
    with pytest.raises(ValueError, match="same length"):
        grid_search.search_costs(
            grid.padded, ws, np.array([8], INTP), np.array([9, 10], INTP), costs, **settings
        )
    with pytest.raises(ValueError, match="same length"):  # no goals[0] read past the end
        grid_search.search_costs(
            grid.padded, ws, np.array([8], INTP), np.array([], INTP), costs, **settings
        )
    with pytest.raises(IndexError, match="goals: padded cell index 0"):
        grid_search.search_costs(
            grid.padded, ws, np.array([8, 9], INTP), np.array([9, 0], INTP), costs, **settings
        )
    with pytest.raises(ValueError, match="out_costs has shape"):
        grid_search.field(
            grid.padded, ws, np.array([8], INTP), np.empty((5, 5)), diagonal=1, max_cost=math.inf
        )
    with pytest.raises(IndexError, match="sources"):
        grid_search.field(
            grid.padded, ws, np.array([3], INTP), np.empty((4, 5)), diagonal=1, max_cost=math.inf
        )
    with pytest.raises(ValueError, match="budget"):
        grid_search.GridSearch(grid.padded, ws, np.array([8], INTP), 9, None, **settings).step(-2)


def test_jps_entries_check_cells(grid: Grid) -> None:
    settings = jps_settings(grid, SearchOptions.check("Grid", "jps"))
    lines = settings.pop("lines")
    ws = grid_search.Workspace(grid.padded.size)
    for start, goal in ((0, 8), (8, 41), (8, -1), (-7, 8)):
        with pytest.raises(IndexError, match="padded cell index"):
            jps.jps(grid.padded, ws, start, goal, lines, **settings)
    with pytest.raises(IndexError, match="starts: padded cell index"):
        jps.jps_costs(
            grid.padded, ws, np.array([6], INTP), np.array([8], INTP), lines, np.empty(1),
            **settings,
        )  # fmt: skip
    with pytest.raises(ValueError, match="same length"):
        jps.jps_costs(
            grid.padded, ws, np.array([8], INTP), np.array([], INTP), lines, np.empty(1),
            **settings,
        )  # fmt: skip


# ------------------------------------------------------------------ graph kernels


def graph_arrays(graph: Graph) -> tuple[Any, ...]:
    return graph._offsets, graph._targets, graph._weights


SETTINGS = {"hkind": 0, "hscale": 1.0, "settings": kernel_settings("astar")}


def test_graph_entries_check_indices_and_shapes() -> None:
    graph = Graph(4, [0, 1, 2], [1, 2, 3])
    off, tgt, wts = graph_arrays(graph)
    ws = graph_search.Workspace(5)
    src = np.array([0], INTP)
    with pytest.raises(ValueError, match="too small"):
        graph_search.search(off, tgt, wts, None, graph_search.Workspace(2), src, None, 3,
                            None, None, None, **SETTINGS)  # fmt: skip
    with pytest.raises(ValueError, match="CSR arrays disagree"):
        graph_search.search(off, tgt[:1], wts[:1], None, ws, src, None, 3, None, None, None,
                            **SETTINGS)  # fmt: skip
    with pytest.raises(ValueError, match="source_costs has 2 entries"):
        graph_search.search(off, tgt, wts, None, ws, src, np.zeros(2), 3, None, None, None,
                            **SETTINGS)  # fmt: skip
    with pytest.raises(ValueError, match="exit_costs has 1 entries"):
        graph_search.search(off, tgt, wts, None, ws, src, None, -1, np.array([2, 3], INTP),
                            np.zeros(1), None, **SETTINGS)  # fmt: skip
    with pytest.raises(ValueError, match="coords must have shape"):
        graph_search.search(off, tgt, wts, np.zeros((3, 2)), ws, src, None, 3, None, None,
                            None, **SETTINGS)  # fmt: skip
    with pytest.raises(ValueError, match="target has 1 coordinates"):
        graph_search.search(off, tgt, wts, np.zeros((4, 2)), ws, src, None, 3, None, None,
                            np.zeros(1), **SETTINGS)  # fmt: skip
    with pytest.raises(IndexError, match="sources: node index 4"):
        graph_search.field(off, tgt, wts, ws, np.array([4], INTP), None, np.empty(4), None,
                           max_cost=math.inf)  # fmt: skip
    with pytest.raises(ValueError, match="out_dist has 3 entries"):
        graph_search.field(off, tgt, wts, ws, src, None, np.empty(3), None, max_cost=math.inf)
    with pytest.raises(ValueError, match="out_parent has 5 entries"):
        graph_search.field(off, tgt, wts, ws, src, None, np.empty(4),
                           np.empty(5, dtype=np.int64), max_cost=math.inf)  # fmt: skip


def test_graph_edge_places_are_64_bit() -> None:
    graph = Graph(3, [0, 1], [1, 2])
    status, path, edges, *_ = run_kernel(graph, "astar", np.array([0]), 2, None)
    assert status == 0 and path.tolist() == [0, 1, 2] and edges.dtype == np.intp


# ------------------------------------------------------------------ mesh kernels


@pytest.fixture
def mesh() -> NavMesh:
    return NavMesh([(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)], [[0, 1, 4, 5], [1, 2, 3, 4]])


def polyanya_args(mesh: NavMesh, ws: Any, sp: list[int], gp: list[int]) -> tuple[Any, ...]:
    t = mesh.parts.top
    return (
        t.xy, t.poff, t.pv, t.nbr, t.twin, t.poly_of, t.corner, t.degree, ws, 0.5, 0.5,
        np.array(sp, np.int32), 1.5, 0.5, np.array(gp, np.int32), -1,
    )  # fmt: skip


def test_polyanya_checks_polygons_shapes_and_workspace(mesh: NavMesh) -> None:
    ws = polyanya.Workspace(8)
    assert polyanya.search(*polyanya_args(mesh, ws, [0], [1]))[0] == FOUND
    with pytest.raises(IndexError, match="start_polys: polygon index 2"):
        polyanya.search(*polyanya_args(mesh, ws, [2], [1]))
    with pytest.raises(IndexError, match="goal_polys: polygon index -1"):
        polyanya.search(*polyanya_args(mesh, ws, [0], [-1]))
    with pytest.raises(ValueError, match="at least one polygon"):
        polyanya.search(*polyanya_args(mesh, ws, [], [1]))
    with pytest.raises(ValueError, match="workspace of 1 is too small"):
        polyanya.search(*polyanya_args(mesh, polyanya.Workspace(1), [0], [1]))
    args = list(polyanya_args(mesh, ws, [0], [1]))
    args[7] = args[7][:1]  # degree: one entry for two polygons
    with pytest.raises(ValueError, match="degree has 1 entries"):
        polyanya.search(*args)


def test_navmesh_walk_kernels_check_their_arguments(mesh: NavMesh) -> None:
    t = mesh.parts.top
    room = np.empty((1, 2))
    with pytest.raises(IndexError, match="corridor: polygon index 5"):
        navmesh.corridor_portals(t.xy, t.poff, t.pv, t.nbr, np.array([0, 5], np.int32), room, room)
    with pytest.raises(ValueError, match="left needs room"):
        navmesh.corridor_portals(
            t.xy, t.poff, t.pv, t.nbr, np.array([0, 1, 0], np.int32), room, np.empty((2, 2))
        )
    with pytest.raises(ValueError, match="out needs room"):
        navmesh.string_pull(np.zeros((3, 2)), np.zeros((3, 2)), np.empty((2, 2)))
    with pytest.raises(ValueError, match="one length"):
        navmesh.string_pull(np.zeros((3, 2)), np.zeros((2, 2)), np.empty((3, 2)))
    with pytest.raises(IndexError, match="poly: polygon index 7"):
        navmesh.raycast(t.xy, t.poff, t.pv, t.nbr, 7, 0.5, 0.5, 1.5, 0.5, np.empty(4, np.int32))
    with pytest.raises(ValueError, match="label has 1 entries"):
        navmesh.components(t.poff, t.nbr, np.empty(1, np.int32))
    with pytest.raises(ValueError, match="poff must run"):
        navmesh.corridor_portals(t.xy, t.poff[:2], t.pv, t.nbr, np.array([0], np.int32), room, room)


def test_visibility_kernel_checks_its_pairs() -> None:
    a = np.zeros((2, 2))
    centers = np.zeros((1, 2))
    radii = np.ones(1)
    out = np.empty(1, np.int8)
    with pytest.raises(IndexError, match="seg: segment index 2"):
        visibility.classify_pairs(a, a, np.array([2], INTP), np.array([0], INTP), centers,
                                  radii, radii, out)  # fmt: skip
    with pytest.raises(IndexError, match="obs: obstacle index 1"):
        visibility.classify_pairs(a, a, np.array([0], INTP), np.array([1], INTP), centers,
                                  radii, radii, out)  # fmt: skip
    with pytest.raises(ValueError, match="out has 1 entries"):
        visibility.classify_pairs(a, a, np.array([0, 1], INTP), np.array([0, 0], INTP),
                                  centers, radii, radii, out)  # fmt: skip


# ------------------------------------------------------------------ the debug build


@pytest.mark.skipif(
    not grid_search.DEBUG_BUILD,
    reason="a release build: bounds checks are compiled out (build with "
    "PATHCRAFT_DEBUG_BUILD=1, as stage 4 of .ci/run does, to run this)",
)
def test_the_debug_build_catches_an_out_of_range_index() -> None:
    values = np.arange(4.0)
    assert grid_search._probe_read(values, 3) == 3.0
    with pytest.raises(IndexError):
        grid_search._probe_read(values, 4)
    with pytest.raises(IndexError):
        grid_search._probe_read(values, -1)  # wraparound off too: no silent values[3]


# ------------------------------------------------------------------ the typed settings

CORE = Path(graph_search.__file__).parent


def stub_arguments(module: str) -> tuple[set[str], set[str]]:
    """The keys of the one TypedDict of ``_core/<module>.pyi`` that holds ``settings``
    (the keyword arguments its search entries unpack): required, and optional."""
    tree = ast.parse((CORE / f"{module}.pyi").read_text())
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and "TypedDict" in map(ast.unparse, node.bases):
            keys = [(item.target, ast.unparse(item.annotation)) for item in node.body
                    if isinstance(item, ast.AnnAssign)]  # fmt: skip
            names = {ast.unparse(target): ann for target, ann in keys}
            if "settings" in names:
                found.append(names)
    assert len(found) == 1, f"{module}.pyi: {len(found)} TypedDicts of kernel arguments"
    required = {k for k, ann in found[0].items() if not ann.startswith("NotRequired[")}
    return required, set(found[0]) - required


def test_the_settings_stub_is_the_settings_object() -> None:
    tree = ast.parse((CORE / "machine.pyi").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "KernelSettings")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert tuple(a.arg for a in init.args.kwonlyargs) == machine.SETTINGS
    assert tuple(kernel_settings("astar").as_dict()) == machine.SETTINGS


class Entries(NamedTuple):
    """A kernel's three searching entries, called with the same keyword arguments."""

    module: str
    search: Callable[[dict[str, Any]], Any]  # the blocking entry: the answer tuple
    machine: Callable[[dict[str, Any]], Any]  # the step machine
    costs: Callable[[dict[str, Any]], Any]  # the costs-only batch: the costs array
    arguments: dict[str, Any]  # what the world's front door passes


def cell_entries(module: str, adapter: Any, start: Any, goal: Any) -> Entries:
    kernel = adapter.kernel
    ws = kernel.workspace(adapter.size)
    s, g = adapter.place("start", start), adapter.place("goal", goal)
    query = adapter.args(ws, np.array([s], INTP), g, None)

    def costs(kw: dict[str, Any]) -> Any:
        out = np.empty(1)
        kernel.search_costs(adapter.data, ws, np.array([s], INTP), np.array([g], INTP), out, **kw)
        return out

    return Entries(
        module, lambda kw: kernel.search(*query, **kw), lambda kw: kernel.machine(*query, **kw),
        costs, adapter.settings(SearchOptions.check(adapter.name, "astar")),
    )  # fmt: skip


def grid_entries(module: str) -> Entries:
    grid = Grid(np.ones((4, 5)))
    ws = grid_search.Workspace(grid.padded.size)
    s, g, padded = 8, 4 * 7 + 5, grid.padded
    starts, goals = np.array([s], INTP), np.array([g], INTP)

    def costs(entry: Callable[..., Any], kw: dict[str, Any], *extra: Any) -> Any:
        out = np.empty(1)
        entry(padded, ws, starts, goals, *extra, out, **kw)
        return out

    if module == "grid_search":
        kw = search_settings(grid, SearchOptions.check("Grid", "astar"))
        return Entries(
            module, lambda k: grid_search.search(padded, ws, starts, g, None, **k),
            lambda k: grid_search.GridSearch(padded, ws, starts, g, None, **k),
            lambda k: costs(grid_search.search_costs, k), kw,
        )  # fmt: skip
    if module == "jps":
        kw = jps_settings(grid, SearchOptions.check("Grid", "jps"))
        lines = kw.pop("lines")
        return Entries(
            module, lambda k: jps.jps(padded, ws, s, g, lines, **k),
            lambda k: jps.JpsSearch(padded, ws, s, g, lines, **k),
            lambda k: costs(jps.jps_costs, k, lines), kw,
        )  # fmt: skip
    kw = theta_settings(grid, SearchOptions.check("Grid", "theta"))
    return Entries(
        module, lambda k: theta.theta(padded, ws, s, g, **k),
        lambda k: theta.ThetaSearch(padded, ws, s, g, **k),
        lambda k: costs(theta.theta_costs, k), kw,
    )  # fmt: skip


def graph_entries() -> Entries:
    graph = Graph(4, [0, 1, 2], [1, 2, 3], coords=np.arange(8.0).reshape(4, 2))
    args, kw = kernel_args(graph, "astar", np.array([0], INTP), 3, None, heuristic="euclidean")
    ws = graph_search.Workspace(5)

    def no_costs(k: dict[str, Any]) -> Any:
        return np.array([graph_search.search(*args(ws), **k)[3]])  # no costs-only entry

    return Entries(
        "graph_search", lambda k: graph_search.search(*args(ws), **k),
        lambda k: graph_search.GraphSearch(*args(ws), **k), no_costs, kw,
    )  # fmt: skip


ENTRIES: dict[str, Callable[[], Entries]] = {
    "stencil": lambda: cell_entries("stencil", HexGrid(np.ones((4, 4)))._world, (0, 0), (3, 3)),
    "voxel": lambda: cell_entries(
        "voxel", VoxelGrid(np.ones((2, 3, 3)))._world, (0, 0, 0), (1, 2, 2)
    ),
    "layered": lambda: cell_entries(
        "layered",
        Level(np.ones((2, 2, 3)), portals=[((0, 0, 0), (1, 1, 2))])._world(),
        (0, 0, 0),
        (1, 1, 2),
    ),
    "grid_search": lambda: grid_entries("grid_search"),
    "jps": lambda: grid_entries("jps"),
    "theta": lambda: grid_entries("theta"),
    "graph_search": graph_entries,
}


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_searching_entry_takes_the_keywords_its_stub_names(name: str) -> None:
    """The front door's keyword arguments are those of the kernel's stub (the settings
    object among them), and every entry takes them: the blocking search, the step
    machine and the costs-only batch agree; one missing, or the loose settings of
    old, is a TypeError."""
    entries = ENTRIES[name]()
    required, optional = stub_arguments(name)
    kw = entries.arguments
    assert required <= set(kw) <= required | optional
    assert isinstance(kw["settings"], KernelSettings)
    answer = entries.search(kw)
    assert answer[0] == FOUND
    cost = answer[-5]  # (status, path, [extra,] cost, expanded, generated, rec, rec_g)
    again = entries.machine(kw).finish()
    assert again[0] == FOUND and again[-5] == cost and np.array_equal(again[1], answer[1])
    assert entries.costs(kw)[0] == pytest.approx(cost)
    for key in required:
        with pytest.raises(TypeError):
            entries.machine({k: v for k, v in kw.items() if k != key})
    loose = {k: v for k, v in kw.items() if k != "settings"}
    with pytest.raises(TypeError):
        entries.search({**loose, **kw["settings"].as_dict()})
