"""``Grid`` on the Moving AI benchmarks: published optimal lengths as the oracle.

Every one of the 16 maps in the shared benchmark folder is checked: a seeded sample of
its scenarios (the three longest, every start == goal problem, random others) solved by
``Grid.astar``, a few by ``Grid.dijkstra``, and one distance field. Lengths are compared
with the folder README's rule ``abs(got - want) <= 1e-5 * max(1, want)`` (the older
files print six significant digits).
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import numpy as np
import pytest

from pathcraft import Grid
from pathcraft.io import read_map, read_scen

MAPS = (
    "bg512/AR0011SR",
    "dao/arena2",
    "dao/brc202d",
    "dao/den520d",
    "dao/lak303d",
    "dao/orz900d",
    "maze/maze512-1-0",
    "maze/maze512-32-0",
    "random/random512-10-0",
    "random/random512-40-0",
    "room/32room_000",
    "room/8room_000",
    "sc1/TheFrozenSea",
    "street/Berlin_0_256",
    "street/Boston_0_512",
    "wc3maps512/battleground",
)
SAMPLE = 40  # A* problems per map: the 3 longest and 37 drawn at random
LONGEST = 3
DIJKSTRA_SAMPLE = 2
RTOL = 1e-5
SQRT2 = math.sqrt(2.0)

#: (checked, matched) per map, filled by the per-map tests, summed at the end.
TALLY: dict[str, tuple[int, int]] = {}


def matches(got: float, want: float) -> bool:
    return abs(got - want) <= RTOL * max(1.0, want)


def sample_indices(optimal: np.ndarray, name: str) -> np.ndarray:
    """The longest problems, every start == goal problem, and random others to ``SAMPLE``."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    longest = np.argsort(optimal, kind="stable")[-LONGEST:]
    zero = np.flatnonzero(optimal == 0.0)
    rest = np.setdiff1d(np.arange(len(optimal)), longest)
    drawn = rng.choice(rest, size=SAMPLE - LONGEST, replace=False)
    return np.unique(np.concatenate((longest, zero, drawn)))


def assert_legal_octile(walkable: np.ndarray, path: np.ndarray, start, goal) -> None:
    """8-connected moves through passable cells, no corner cutting (vectorised)."""
    assert path.ndim == 2 and path.shape[1] == 2 and np.issubdtype(path.dtype, np.integer)
    assert tuple(path[0]) == tuple(start) and tuple(path[-1]) == tuple(goal)
    assert walkable[path[:, 0], path[:, 1]].all(), "the path crosses a blocked cell"
    step = np.diff(path, axis=0)
    assert (np.abs(step) <= 1).all() and (np.abs(step).sum(axis=1) > 0).all()
    diagonal = (step[:, 0] != 0) & (step[:, 1] != 0)
    a = path[:-1][diagonal]
    s = step[diagonal]
    assert walkable[a[:, 0] + s[:, 0], a[:, 1]].all(), "a diagonal cuts a corner"
    assert walkable[a[:, 0], a[:, 1] + s[:, 1]].all(), "a diagonal cuts a corner"


def path_length(path: np.ndarray) -> float:
    step = np.abs(np.diff(path, axis=0))
    return float(np.where(step.sum(axis=1) == 2, SQRT2, 1.0).sum())


def test_the_shared_folder_holds_exactly_the_maps_checked(movingai: Path) -> None:
    maps = sorted(
        str(p.relative_to(movingai / "maps"))[: -len(".map")] for p in movingai.glob("maps/*/*.map")
    )
    scens = sorted(
        str(p.relative_to(movingai / "scen"))[: -len(".map.scen")]
        for p in movingai.glob("scen/*/*.map.scen")
    )
    assert maps == sorted(MAPS)
    assert scens == sorted(MAPS)


@pytest.mark.parametrize("name", MAPS)
def test_astar_dijkstra_and_field_match_the_published_lengths(movingai: Path, name: str) -> None:
    grid = read_map(movingai / "maps" / f"{name}.map")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    assert isinstance(grid, Grid) and grid.diagonal == "no_corner_cut"
    assert grid.shape == (scen.height, scen.width)
    walkable = grid.walkable
    starts, goals, optimal = scen.starts, scen.goals, scen.optimal

    picked = sample_indices(optimal, name)
    checked = matched = 0
    misses = []
    for i in picked:
        result = grid.astar(starts[i], goals[i])
        checked += 1
        if result and matches(result.cost, float(optimal[i])):
            matched += 1
        else:
            misses.append((int(i), result.cost, float(optimal[i])))
            continue
        assert_legal_octile(walkable, result.path, starts[i], goals[i])
        assert result.cost == pytest.approx(path_length(result.path), rel=1e-12)
    TALLY[name] = (checked, matched)
    assert not misses, f"{name}: (problem, got, want) {misses}"
    assert checked >= SAMPLE

    # Dijkstra, one goal and several goals.
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    for i in rng.choice(len(optimal), size=DIJKSTRA_SAMPLE, replace=False):
        result = grid.dijkstra(starts[i], goals[i])
        assert result and matches(result.cost, float(optimal[i])), (i, result.cost, optimal[i])
        assert_legal_octile(walkable, result.path, starts[i], goals[i])

    # The distance field from the start of the longest problem: its value at that
    # problem's goal is the published length; at every other goal it is what Dijkstra
    # to that goal set finds.
    far = int(np.argmax(optimal))
    field = grid.distance_field(starts[far])
    assert field.shape == grid.shape
    assert matches(float(field[tuple(goals[far])]), float(optimal[far]))
    assert np.isinf(field[~walkable]).all()
    others = goals[rng.choice(len(goals), size=5, replace=False)]
    nearest = grid.dijkstra(starts[far], others)
    assert nearest.cost == pytest.approx(float(field[tuple(others.T)].min()), rel=1e-12)


def test_scenario_totals() -> None:
    if len(TALLY) != len(MAPS):
        pytest.skip(f"only {len(TALLY)} of {len(MAPS)} maps ran")
    checked = sum(c for c, _ in TALLY.values())
    matched = sum(m for _, m in TALLY.values())
    print(f"\nMoving AI: {matched} of {checked} scenarios matched on {len(TALLY)} maps")
    assert matched == checked >= SAMPLE * len(MAPS)


@pytest.mark.parametrize("name", MAPS)
def test_jps_matches_the_published_lengths(movingai: Path, name: str) -> None:
    """Jump point search on the same sample as A*, against the published lengths; and
    with corner cutting allowed, against A* under that rule on a few problems."""
    grid = read_map(movingai / "maps" / f"{name}.map")
    scen = read_scen(movingai / "scen" / f"{name}.map.scen")
    walkable = grid.walkable
    misses = []
    for i in sample_indices(scen.optimal, name):
        result = grid.jps(scen.starts[i], scen.goals[i])
        if not (result and matches(result.cost, float(scen.optimal[i]))):
            misses.append((int(i), result.cost, float(scen.optimal[i])))
            continue
        assert_legal_octile(walkable, result.path, scen.starts[i], scen.goals[i])
        assert result.cost == pytest.approx(path_length(result.path), rel=1e-12)
    assert not misses, f"{name}: (problem, got, want) {misses}"

    cutting = read_map(movingai / "maps" / f"{name}.map", diagonal="always")
    for i in sample_indices(scen.optimal, name)[-5:]:
        want = cutting.astar(scen.starts[i], scen.goals[i])
        got = cutting.jps(scen.starts[i], scen.goals[i])
        assert got.cost == pytest.approx(want.cost, rel=1e-12), i
