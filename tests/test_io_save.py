"""Saving what was built: every world round-trips through one .npz file that loads
without pickle, answering every query as before; a file of another version, a
truncated or corrupted file, a missing or mistyped array each get a clear error."""

from __future__ import annotations

import inspect
import io
import math
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")

from pathcraft import Graph, Grid, NavMesh, WaypointGraph  # noqa: E402
from pathcraft.io import FORMAT_VERSION, bundled_map, load, read_map, save  # noqa: E402
from pathcraft.io._archive import write_archive  # noqa: E402


def mesh_algorithm(name: str) -> dict[str, str]:
    """The keyword choosing a navmesh search: ``mode=`` today, ``algorithm=`` once the
    query contract of issue 14 lands (the same values)."""
    params = inspect.signature(NavMesh.find_path).parameters
    return {"algorithm" if "algorithm" in params else "mode": name}


def round_trip(world: Any, tmp_path: Path, name: str = "world.npz") -> Any:
    path = tmp_path / name
    save(world, path)
    with np.load(path, allow_pickle=False) as raw:  # a plain npz, no pickle needed
        assert raw["format"].item() == "pathcraft.world"
        assert raw["version"].item() == FORMAT_VERSION
    return load(path)


def rewrite(path: Path, **changes: Any) -> None:
    """Write the file again with some arrays replaced (None: dropped), sealed by a new
    checksum (a file as a bad writer would make it, not a damaged one)."""
    with np.load(path, allow_pickle=False) as raw:
        arrays = {k: raw[k] for k in raw.files if k != "checksum"}
    for key, value in changes.items():
        if value is None:
            arrays.pop(key, None)
        else:
            arrays[key] = value
    write_archive(path, arrays)


# ---------------------------------------------------------------- round trips


def test_a_grid_round_trips_with_its_rules(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    cost = rng.uniform(0.5, 4.0, (40, 30))
    cost[rng.random(cost.shape) < 0.2] = np.inf
    cost[0, 0] = cost[-1, -1] = 1.0
    grid = Grid(cost, diagonal="one_free", heuristic="euclidean")
    again = round_trip(grid, tmp_path)
    np.testing.assert_array_equal(again.cost, grid.cost)
    assert (again.diagonal, again.heuristic) == ("one_free", "euclidean")
    a, b = grid.astar((0, 0), (39, 29)), again.astar((0, 0), (39, 29))
    assert a.cost == b.cost and np.array_equal(a.path, b.path) and a.expanded == b.expanded


@pytest.mark.parametrize("labels", [None, "str", "int"])
@pytest.mark.parametrize("directed", [True, False])
def test_a_graph_round_trips_with_labels_and_coordinates(
    tmp_path: Path, labels: str | None, directed: bool
) -> None:
    rng = np.random.default_rng(1)
    n = 60
    src, dst = rng.integers(0, n, 300), rng.integers(0, n, 300)
    weights = rng.uniform(1, 5, 300)
    weights[:5] = np.inf
    names = {None: None, "str": [f"n{i}" for i in range(n)], "int": list(range(100, 100 + n))}
    graph = Graph(n, src, dst, weights, directed=directed, coords=rng.random((n, 2)) * 0.1,
                  labels=names[labels])  # fmt: skip
    again = round_trip(graph, tmp_path)
    assert again.labels == graph.labels and again.directed == directed
    for got, want in zip(again.edges, graph.edges, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(again.coords, graph.coords)
    assert again.heuristic_scale == graph.heuristic_scale
    first, last = graph.labels[0], graph.labels[-1]
    assert again.astar(first, last).cost == graph.astar(first, last).cost


def test_a_graph_with_other_labels_is_refused_naming_the_types(tmp_path: Path) -> None:
    graph = Graph.from_adjacency({("a", 1): {"b": 1.0}, "b": {}})
    with pytest.raises(TypeError, match=r"graph labels must all be str or all int .* str, tuple"):
        save(graph, tmp_path / "g.npz")


def test_a_waypoint_graph_round_trips_with_its_links(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    obstacles = [shapely.box(x, y, x + 3, y + 2) for x, y in rng.uniform(0, 40, (12, 2))]
    points = rng.uniform(0, 45, (80, 2))
    wg = WaypointGraph(points, obstacles, agent_radius=0.5, max_distance=20.0)
    wg.remove_obstacle(3)
    again = round_trip(wg, tmp_path)
    np.testing.assert_array_equal(again.links, wg.links)
    assert again.max_distance == 20.0
    assert list(again.obstacles) == list(range(len(wg.obstacles)))
    for got, want in zip(again.obstacles.values(), wg.obstacles.values(), strict=True):
        assert got.equals(want)
    for _ in range(20):
        s, g = rng.uniform(0, 45, (2, 2))
        try:
            want = wg.find_path(s, g)
        except ValueError:
            continue
        assert again.find_path(s, g).cost == want.cost


def test_a_waypoint_graph_with_a_line_of_sight_callable_is_refused(tmp_path: Path) -> None:
    wg = WaypointGraph([(0, 0), (1, 1)], line_of_sight=lambda a, b: True)
    with pytest.raises(TypeError, match="line_of_sight callable cannot be saved"):
        save(wg, tmp_path / "w.npz")


def test_a_navmesh_loads_without_rebuilding_and_answers_the_same(tmp_path: Path) -> None:
    grid = read_map(bundled_map())
    mesh = NavMesh.from_grid(grid)
    again = round_trip(mesh, tmp_path)
    np.testing.assert_array_equal(again.vertices, mesh.vertices)
    for a, b in zip(again.polygons, mesh.polygons, strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(again.polygon_neighbors, mesh.polygon_neighbors, strict=True):
        np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(3)
    free = np.argwhere(grid.walkable)
    points = free[rng.integers(len(free), size=(30, 2))][:, :, ::-1] + 0.5  # (x, y)
    np.testing.assert_array_equal(again.locate(points[:, 0]), mesh.locate(points[:, 0]))
    for s, g in points:
        for mode in ("funnel", "optimal"):
            how = mesh_algorithm(mode)
            a, b = mesh.find_path(s, g, **how), again.find_path(s, g, **how)
            assert a.cost == b.cost and np.array_equal(a.path, b.path)
    assert again.area == pytest.approx(mesh.area)
    assert repr(again) == repr(mesh)


def test_a_navmesh_from_geometry_round_trips_in_memory() -> None:
    room = shapely.box(0, 0, 10, 10).difference(shapely.box(4, 0, 6, 8))
    mesh = NavMesh.from_geometry(room)
    buffer = io.BytesIO()
    save(mesh, buffer)
    again = load(io.BytesIO(buffer.getvalue()))
    how = mesh_algorithm("optimal")
    assert again.find_path((1, 1), (9, 1), **how).path.tolist() == (
        mesh.find_path((1, 1), (9, 1), **how).path.tolist()
    )
    assert again.raycast((1, 1), (9, 1)).fraction == mesh.raycast((1, 1), (9, 1)).fraction


# ---------------------------------------------------------------- bad files


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "mesh.npz"
    save(NavMesh.from_grid(Grid.from_ascii("....\n.#..\n....")), path)
    return path


def test_a_file_of_another_version_says_which(saved: Path) -> None:
    rewrite(saved, version=np.array(FORMAT_VERSION + 1))
    with pytest.raises(ValueError, match=rf"mesh\.npz: written in pathcraft world format "
                       rf"version {FORMAT_VERSION + 1}; this pathcraft reads versions 1 to "
                       rf"{FORMAT_VERSION}"):  # fmt: skip
        load(saved)


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9, 0.999])
def test_a_truncated_file_is_named_not_crashed_on(saved: Path, keep: float) -> None:
    data = saved.read_bytes()
    saved.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ValueError, match=r"mesh\.npz: not a readable pathcraft world file "
                       r"\(truncated or corrupted\?\)"):  # fmt: skip
        load(saved)


def test_a_corrupted_array_fails_its_checksum(saved: Path) -> None:
    with zipfile.ZipFile(saved) as z:
        info = z.getinfo("vertices.npy")
        offset = info.header_offset + 30 + len(info.filename) + len(info.extra) + 200
    data = bytearray(saved.read_bytes())
    data[offset] ^= 0xFF
    saved.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"truncated or corrupted.*CRC"):
        load(saved)


def test_files_that_are_not_worlds(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    with pytest.raises(ValueError, match="not a pathcraft world file: it has no 'format' entry"):
        load(other)
    single = tmp_path / "one.npy"
    np.save(single, np.zeros(3))
    with pytest.raises(ValueError, match=r"one\.npy: not a readable .*a single \.npy array"):
        load(single)
    text = tmp_path / "level.npz"
    text.write_text("hello")
    with pytest.raises(ValueError, match=r"level\.npz: not a readable pathcraft world file"):
        load(text)
    with pytest.raises(FileNotFoundError, match=r"nothing\.npz: no such file"):
        load(tmp_path / "nothing.npz")
    with pytest.raises(TypeError, match="world must be a pathcraft Grid, Graph"):
        save({"not": "a world"}, tmp_path / "x.npz")


def test_an_object_array_is_refused_without_running_pickle(saved: Path) -> None:
    with np.load(saved, allow_pickle=False) as raw:
        arrays = {k: raw[k] for k in raw.files}
    np.savez(saved, **{**arrays, "kind": np.array(["navmesh"], dtype=object)})
    with pytest.raises(ValueError, match=r"mesh\.npz: .*the array 'kind' holds Python objects "
                       r"\(pickled data\), which a pathcraft world never holds"):  # fmt: skip
        load(saved)


def test_unknown_kinds_and_missing_or_mistyped_arrays(saved: Path, tmp_path: Path) -> None:
    rewrite(saved, kind=np.array("hexmap"))
    with pytest.raises(ValueError, match="unknown kind 'hexmap'; expected one of"):
        load(saved)
    rewrite(saved, kind=np.array("navmesh"), twin=None)
    with pytest.raises(ValueError, match=r"mesh\.npz: a bad saved navmesh: a baked navmesh "
                       r"needs the array 'twin'"):  # fmt: skip
        load(saved)
    grid_file = tmp_path / "grid.npz"
    save(Grid.from_ascii("..#"), grid_file)
    rewrite(grid_file, cost=np.array([1, 2, 3]))
    with pytest.raises(ValueError, match=r"grid\.npz: the array 'cost' must be float, 2-D; got "
                       r"dtype int64 and shape \(3,\)"):  # fmt: skip
        load(grid_file)
    rewrite(grid_file, cost=np.array([[1.0, -1.0]]))
    with pytest.raises(ValueError, match=r"grid\.npz: a bad saved grid: cost must be > 0"):
        load(grid_file)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("indices", lambda a: a + 1000, "indices holds values outside"),
        ("neighbour", lambda a: np.where(a >= 0, a + 50, a), "neighbour holds values outside"),
        ("twin", lambda a: np.roll(a, 1), "neighbour and twin must"),
        ("offsets", lambda a: a[:-1], "indices must have shape"),
        ("centroids", lambda a: a[:1], "centroids must have shape"),
        ("component", lambda a: a.astype(np.int64), "component must be int32"),
    ],
)
def test_a_baked_mesh_with_bad_indices_is_refused_before_any_kernel(
    saved: Path, name: str, value: Any, message: str
) -> None:
    with np.load(saved, allow_pickle=False) as raw:
        current = raw[name]
    rewrite(saved, **{name: value(current)})
    with pytest.raises(ValueError, match=message):
        load(saved)


def test_from_arrays_refuses_what_to_arrays_did_not_write() -> None:
    mesh = NavMesh([(0, 0), (1, 0), (0, 1)], [[0, 1, 2]])
    arrays = mesh.to_arrays()
    arrays["vertices"] = arrays["vertices"] * math.nan
    with pytest.raises(ValueError, match="vertices must be finite"):
        NavMesh.from_arrays(arrays)


def test_a_loaded_mesh_pickles_and_makes_its_shapes_once_under_threads(tmp_path: Path) -> None:
    import pickle
    from concurrent.futures import ThreadPoolExecutor

    grid = read_map(bundled_map())
    mesh = NavMesh.from_grid(grid)
    path = tmp_path / "m.npz"
    save(mesh, path)
    fresh = load(path)
    again = pickle.loads(pickle.dumps(load(path)))
    np.testing.assert_array_equal(again.vertices, mesh.vertices)
    free = np.argwhere(grid.walkable)[::500][:, ::-1] + 0.5
    with ThreadPoolExecutor(4) as pool:
        located = list(pool.map(lambda p: fresh.locate([p])[0], free))
    np.testing.assert_array_equal(located, mesh.locate(free))


# ---------------------------------------------------------------- format versions, damage


DATA = Path(__file__).parent / "data"


def test_files_of_format_version_1_still_load() -> None:
    # written by pathcraft before the checksum (format version 1): plain np.savez files
    grid = load(DATA / "world-v1-grid.npz")
    assert grid.cost.tolist() == [
        [1.0, 1.0, math.inf, 1.0],
        [3.0, 1.0, 1.0, math.inf],
        [1.0, math.inf, 1.0, 1.0],
    ]
    assert grid.diagonal == "never"
    roads = load(DATA / "world-v1-graph.npz")
    assert roads.dijkstra("a", "c").path == ["a", "b", "c"]
    assert roads.dijkstra("a", "c").cost == 3.0
    with np.load(DATA / "world-v1-grid.npz", allow_pickle=False) as raw:
        assert raw["version"].item() == 1 and "checksum" not in raw.files


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def _zip(path: Path, members: dict[str, bytes], **options: Any) -> None:
    with zipfile.ZipFile(path, "w", **options) as z:
        for name, data in members.items():
            z.writestr(name, data)


def test_a_mesh_whose_links_were_dropped_is_refused_not_loaded_without_them(
    tmp_path: Path,
) -> None:
    mesh = NavMesh.from_grid(Grid.from_ascii("....\n.#..\n...."))
    mesh.add_link((0.5, 0.5), (3.5, 2.5), cost=1.0)
    path = tmp_path / "mesh.npz"
    save(mesh, path)
    members = _members(path)
    for name in ("link_ids.npy", "link_points.npy", "link_costs.npy", "link_two_way.npy"):
        _zip(path, {k: v for k, v in members.items() if k != name})
        with pytest.raises(ValueError, match=r"mesh\.npz: .*checksum does not match"):
            load(path)
    _zip(path, {k: v for k, v in members.items() if k != "checksum.npy"})
    with pytest.raises(ValueError, match=r"mesh\.npz: .*'checksum' is missing or damaged"):
        load(path)
    _zip(path, members, compression=zipfile.ZIP_DEFLATED)  # recompressed: still the world
    assert dict(load(path).links) == dict(mesh.links)


def test_zip_oddities_are_refused_naming_the_file(saved: Path) -> None:
    members = _members(saved)
    pattern = r"mesh\.npz: not a readable pathcraft world file \(truncated or corrupted\?\): "
    member = "vertices.npy"
    for method in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        what = f"the member '{member}' uses zip compression method {method}; expected stored"
        _zip(saved, {k: v for k, v in members.items() if k != member})
        with zipfile.ZipFile(saved, "a") as z:
            z.writestr(member, members[member], compress_type=method)
        with pytest.raises(ValueError, match=pattern + what):
            load(saved)
    data = bytearray(saved.read_bytes())
    at = data.find(b"PK\x01\x02")
    data[at + 8] |= 0x01  # the first member marked encrypted in the directory
    saved.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=pattern + "the member '.*' is encrypted"):
        load(saved)
    _zip(saved, {**members, "notes.txt": b"hello"})
    with pytest.raises(ValueError, match=pattern + "the member 'notes.txt' is not an array"):
        load(saved)
    _zip(saved, members)
    with zipfile.ZipFile(saved, "a") as z, pytest.warns(UserWarning, match="Duplicate"):
        z.writestr("kind.npy", members["kind.npy"])
    with pytest.raises(ValueError, match=pattern + "the member 'kind.npy' occurs twice"):
        load(saved)


def test_a_file_object_is_read_from_where_it_stands() -> None:
    buffer = io.BytesIO(b"junk")
    buffer.seek(0, io.SEEK_END)
    save(Grid.from_ascii("..#"), buffer)
    buffer.seek(4)
    assert load(buffer).cost.tolist() == [[1.0, 1.0, math.inf]]
