"""Hostile input on the worlds beside the grid (hex, move, voxel and layered grids,
waypoint graphs, tile coordinates, map files): each case answered right or refused by
a ``ValueError``/``TypeError`` naming the argument; a sliced search of an edited
waypoint graph refused; 16 threads editing and searching one waypoint graph giving the
answers of one thread; one corner rounding for every world's radius."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pathcraft import WaypointGraph, WorldChangedError
from pathcraft.coords import TileCoords
from pathcraft.hexgrid import HexGrid, MovesGrid
from pathcraft.layered import Level
from pathcraft.voxel import VoxelGrid

shapely = pytest.importorskip("shapely")
box = shapely.box

# --------------------------------------------------------------------------- cell places

FOUR = [(0, 1), (1, 0), (0, -1), (-1, 0)]


@pytest.mark.parametrize("make", [lambda c: HexGrid(c), lambda c: MovesGrid(c, FOUR)])
def test_a_hex_or_move_cell_outside_is_a_value_error_naming_it(make: Any) -> None:
    world = make(np.ones((3, 6)))
    with pytest.raises(ValueError, match=r"^start \(9, 9\) is outside the grid of shape \(3, 6\)"):
        world.find_path((9, 9), (0, 0))
    with pytest.raises(ValueError, match=r"^goal \(5, 1\) is outside .*did you mean \(1, 5\)\?"):
        world.find_path((0, 0), (5, 1))
    with pytest.raises(ValueError, match=r"^goal \(0, 9223372036854775808\) is outside"):
        world.find_path((0, 0), (0, 2**63))
    with pytest.raises(ValueError, match=r"^sources \(-1, 0\) is outside"):
        world.distance_field([(-1, 0)])
    with pytest.raises(ValueError, match=r"^goals\[1\] \(3, 0\) is outside"):
        world.find_paths([(0, 0), (0, 1)], [(0, 2), (3, 0)])
    with pytest.raises(ValueError, match=r"^goal \(3, 0\) is outside"):
        world.start_search((0, 0), (3, 0))
    with pytest.raises(TypeError, match=r"^start must be a \(row, col\) cell of integers"):
        world.find_path((True, 0), (0, 0))
    with pytest.raises(
        TypeError, match=r"^start must be a \(row, col\) cell of integers.*\(x, y\)"
    ):
        world.find_path((0.0, 1.0), (0, 0))
    assert world.find_path((np.uint64(0), np.int8(0)), (np.int64(2), np.uint8(5))).found


@pytest.mark.parametrize("method", ["find_path", "start_search"])
def test_a_level_place_on_a_floor_that_does_not_exist_is_a_value_error(method: str) -> None:
    level = Level(np.ones((2, 3, 4)))
    with pytest.raises(ValueError, match=r"^goal \(2, 0, 0\) is outside the level of shape"):
        getattr(level, method)((0, 0, 0), (2, 0, 0))
    with pytest.raises(ValueError, match=r"^sources \(2, 0, 0\) is outside the level"):
        level.distance_field([(2, 0, 0)])
    with pytest.raises(ValueError, match=r"^goals \(2, 0, 0\) is outside the level"):
        level.find_paths([(0, 0, 0)], [(2, 0, 0)])
    with pytest.raises(ValueError, match=r"^exit \(5, 0, 0\) is outside the level"):
        level.add_portal((0, 0, 0), (5, 0, 0))
    assert level.find_path((0, 0, 0), (0, 2, 3)).cost == pytest.approx(1 + np.sqrt(2) * 2)


def test_a_level_swap_hint_names_the_swapped_cell() -> None:
    level = Level(np.ones((2, 3, 5)))
    with pytest.raises(
        ValueError, match=r"^goal \(0, 4, 1\) is outside .*did you mean \(0, 1, 4\)\?"
    ):
        level.find_path((0, 0, 0), (0, 4, 1))


def test_voxel_places_keep_their_integer_types() -> None:
    world = VoxelGrid(np.ones((2, 3, 4)))
    mixed = [(np.uint64(1), np.int64(2), 3)]  # NumPy would make floats of these
    assert world.distance_field(mixed)[1, 2, 3] == 0.0
    with pytest.raises(ValueError, match=r"^sources must be a \(z, row, col\) voxel or a \(k, 3\)"):
        world.distance_field([[0, []]])
    with pytest.raises(TypeError, match=r"^sources\[1\] must be a \(z, row, col\) voxel of int"):
        world.distance_field([(0, 0, 1), (1, 2, True)])


# --------------------------------------------------------------------------- move grids


@pytest.mark.parametrize("far", [10**6, 2**40, 2**63 - 1, -(2**63)])
def test_a_move_longer_than_the_grid_is_kept_and_never_taken(far: int) -> None:
    world = MovesGrid(np.ones((3, 3)), [(1, 0), (far, 0)])
    res = world.find_path((0, 0), (2, 0))
    assert res.cost == 2.0 and res.path.tolist() == [[0, 0], [1, 0], [2, 0]]
    assert world.moves[1][:2] == (far, 0)
    again = MovesGrid.from_arrays(world.to_arrays())
    assert again.find_path((0, 0), (2, 0)).cost == 2.0


@pytest.mark.parametrize("far", [2**63, -(2**63) - 1, 2**70])
def test_a_move_beyond_64_bit_integers_is_refused_by_name(far: int) -> None:
    with pytest.raises(ValueError, match=r"^moves holds .*: a move's dr and dc are 64-bit"):
        MovesGrid(np.ones((3, 3)), [(1, 0), (far, 0)])


# --------------------------------------------------------------------------- cost arrays


@pytest.mark.parametrize(
    "make",
    [
        lambda c: VoxelGrid(c),
        lambda c: HexGrid(c[0]),
        lambda c: MovesGrid(c[0], FOUR),
    ],
)
def test_masked_and_long_double_costs_are_refused_by_name(make: Any) -> None:
    masked = np.ma.masked_array(np.ones((1, 2, 2)), mask=np.zeros((1, 2, 2)))
    with pytest.raises(TypeError, match=r"^cost must be a plain array, not a NumPy masked"):
        make(masked)
    huge = np.ones((1, 2, 2), dtype=np.longdouble)
    huge[0, 1, 1] = np.longdouble("1e400")
    if np.isinf(np.float64(huge[0, 1, 1])) and np.isfinite(huge[0, 1, 1]):
        with pytest.raises(ValueError, match=r"^cost holds .*not representable as float64"):
            make(huge)


# --------------------------------------------------------------------------- tile coords


def test_to_pixels_of_a_cell_beyond_float64_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^cells \(4611686018427387904, 0\) lies beyond"):
        TileCoords(1e300).to_pixels([(2**62, 0)])
    with pytest.raises(ValueError, match=r"^cells\[1\] = .* lies beyond"):
        TileCoords(1e300).to_pixels([(0, 0), (0, 2**62)])
    assert TileCoords(16).to_pixels([(2**62, 0)]).tolist() == [[8.0, 16.0 * 2**62 + 8.0]]


# --------------------------------------------------------------------------- map files


@pytest.mark.parametrize("height", ["\u0662", "0_2", "+2", "2.0", "\uff12"])
def test_a_map_header_number_in_other_forms_is_refused(height: str, tmp_path: Path) -> None:
    from pathcraft.io import read_map

    path = tmp_path / "a.map"
    path.write_text(f"type octile\nheight {height}\nwidth 2\nmap\n..\n..\n", encoding="utf-8")
    with pytest.raises(ValueError, match="height"):
        read_map(path)


# --------------------------------------------------------------------------- waypoints


def test_every_obstacle_edit_is_a_version_and_cancels_a_sliced_radius_search() -> None:
    wg = WaypointGraph([(0, 0), (10, 0), (5, 5), (20, 0)], [box(4, -3, 6, 3)])
    search = wg.start_search((0, 0), (10, 0), radius=0.5)
    assert search.step(1) == "in_progress"
    wg.add_obstacle(box(4.8, 5.3, 5.2, 5.45))  # closes no link of wg, one of its radius 0.5
    assert wg.version == 1 and wg.changes_since(0).tolist() == []
    with pytest.raises(WorldChangedError):
        search.step()
    assert wg.find_path((0, 0), (10, 0), radius=0.5).reason == "unreachable"


def test_a_recorded_waypoint_result_is_drawn() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    wg = WaypointGraph([(4, 5), (6, 5), (4, -5), (6, -5)], [box(4, -5, 6, 5)])
    res = wg.find_path((0, 0), (10, 0), record=True)
    ax = wg.plot(res)
    assert len(res.explored) and ax.get_title().startswith("cost 14.81")


def test_waypoint_positions_are_numbers_within_the_extent() -> None:
    wg = WaypointGraph([(4, 5), (6, 5), (4, -5), (6, -5)], [box(4, -4, 6, 4)])
    with pytest.raises(TypeError, match=r"^start must be a position of 2 numbers"):
        wg.find_path((True, 0), (10, 0))
    with pytest.raises(TypeError, match=r"^goal must be a position of 2 numbers"):
        wg.find_path((0, 0), ("10", "0"))
    with pytest.raises(TypeError, match=r"^goal must be a position of 2 numbers"):
        wg.find_path((0, 0), (10 + 1j, 0))
    with pytest.raises(ValueError, match=r"^goal holds the point \(1e\+300, 1e\+300\), too far"):
        wg.find_path((0, 0), (1e300, 1e300))
    with pytest.raises(ValueError, match=r"^points holds the point"):
        WaypointGraph([(0, 0), (1e200, 0)])
    with pytest.raises(ValueError, match=r"^radius must be a finite number >= 0 .* at most"):
        wg.find_path((0, 0), (10, 0), radius=1e300)
    with pytest.raises(ValueError, match=r"^start \(0.0, 0.0\) is inside obstacle 0 \(grown by"):
        wg.find_path((0, 0), (10, 0), radius=5.0)


def test_one_radius_gives_one_geometry_on_every_world() -> None:
    from pathcraft import NavMesh

    obstacle = box(4, 2, 6, 8)
    wg = WaypointGraph([(0, 0), (10, 0)], [obstacle])
    grown = wg.for_radius(1.5).obstacles[0]
    assert grown.equals(obstacle.buffer(1.5))  # 16 segments a quarter circle
    assert WaypointGraph([(0, 0)], [obstacle], agent_radius=1.5).obstacles[0].equals(grown)
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(obstacle))
    wide = shapely.union_all(mesh.for_radius(1.5).shapes)
    want = box(0, 0, 10, 10).buffer(-1.5).difference(grown)
    assert wide.symmetric_difference(want).area < 1e-9


# --------------------------------------------------------------------------- threads

POINTS = np.random.default_rng(1).uniform(0, 20, size=(50, 2))
WALLS = [box(9, 2, 11, 18)]
TOGGLED = [box(4, 4, 6, 16), box(14, 4, 16, 16), box(2, 9, 18, 11)]
QUERIES = [((0.5, 0.5), (19.5, 19.5)), ((0.5, 19.5), (19.5, 0.5)), ((0.5, 10.5), (19.5, 9.5))]
RADII = (0.0, 0.3)


def _single_thread_answers() -> set[tuple[Any, ...]]:
    """Each query's answer on every map the edits can make, in one thread."""
    out = set()
    for mask in itertools.product([False, True], repeat=len(TOGGLED)):
        wg = WaypointGraph(POINTS, WALLS + [t for t, m in zip(TOGGLED, mask, strict=True) if m])
        for radius, (s, g) in itertools.product(RADII, QUERIES):
            res = wg.find_path(s, g, radius=radius)
            out.add((radius, s, g, res.reason, round(res.cost, 9), len(res.path)))
    return out


def _edit_and_search(seconds: float, threads: int = 16) -> None:
    want = _single_thread_answers()
    wg = WaypointGraph(POINTS, WALLS)
    errors: list[BaseException] = []
    wrong: list[tuple[Any, ...]] = []
    stop = time.monotonic() + seconds

    def editor() -> None:
        rng = np.random.default_rng(7)
        held: dict[int, int] = {}
        try:
            while time.monotonic() < stop:
                i = int(rng.integers(len(TOGGLED)))
                if i in held:
                    wg.remove_obstacle(held.pop(i))
                else:
                    held[i] = wg.add_obstacle(TOGGLED[i])
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    def searcher(seed: int) -> None:
        rng = np.random.default_rng(seed)
        try:
            while time.monotonic() < stop:
                s, g = QUERIES[int(rng.integers(len(QUERIES)))]
                radius = RADII[int(rng.integers(len(RADII)))]
                if rng.integers(2):
                    res = wg.find_path(s, g, radius=radius)
                else:
                    search = wg.start_search(s, g, radius=radius)
                    try:
                        search.step()
                    except WorldChangedError:
                        continue  # edited while it ran: refused, as on every world
                    res = search.result
                key = (radius, s, g, res.reason, round(res.cost, 9), len(res.path))
                if key not in want:
                    wrong.append(key)
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    workers = [threading.Thread(target=editor)]
    workers += [threading.Thread(target=searcher, args=(k,)) for k in range(threads - 1)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors[:3]
    assert not wrong, wrong[:3]


def test_threads_editing_and_searching_a_waypoint_graph_answer_as_one_thread() -> None:
    _edit_and_search(1.5)


@pytest.mark.slow
def test_threads_editing_and_searching_a_waypoint_graph_for_a_minute() -> None:
    _edit_and_search(60.0)
