"""The corners of NavMesh3D's paths (``NavMesh3D.corners``, Detour's straight path)
against the path on the surface they come from: on RecastDemo's levels (tests/data/recast)
and on random polylines (hypothesis)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pathcraft.navmesh3d import BuildConfig, NavMesh3D, PolyMesh3D, build, read_obj

DATA = Path(__file__).parent / "data" / "recast"
CONFIG = BuildConfig()
FloatArray = npt.NDArray[np.float64]


def _length(path: FloatArray, dims: int = 3) -> float:
    return float(np.sqrt((np.diff(path[:, :dims], axis=0) ** 2).sum(axis=1)).sum())


def _check_corners(path: FloatArray, corners: FloatArray) -> None:
    """What the corners of ``path`` must be, checked point by point."""
    assert corners[0].tolist() == path[0].tolist()
    assert corners[-1].tolist() == path[-1].tolist()
    # the corners are points of the path, in the path's order (a subsequence)
    rest = iter(path.tolist())
    assert all(any(c == p for p in rest) for c in corners[1:].tolist())
    # seen from above nothing is cut: the same length, so the same line
    assert _length(corners, 2) == pytest.approx(_length(path, 2), rel=1e-9, abs=1e-9)
    # straight lines between points of the path: never longer than the path
    assert _length(corners) <= _length(path) + 1e-9
    # every inner corner turns (seen from above)
    step = np.diff(corners[:, :2], axis=0)
    a, b = step[:-1], step[1:]
    turn = np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    ahead = (a * b).sum(axis=1) > 0
    size = np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1))
    assert not ((turn <= 1e-9 * size) & ahead).any()


@pytest.fixture(scope="module", params=["dungeon.obj", "nav_test.obj"])
def level(request: pytest.FixtureRequest) -> NavMesh3D:
    verts, tris = read_obj(DATA / request.param)
    return NavMesh3D(build(verts, tris, CONFIG), height_tolerance=CONFIG.agent_max_climb)


def test_corners_of_paths_on_a_level(level: NavMesh3D) -> None:
    pts = level.random_points(80, seed=35)
    labels, _ = level.components()
    where = level.locate(pts)
    checked = shorter = 0
    for a, b, pa, pb in zip(pts[:40], pts[40:], where[:40], where[40:], strict=True):
        if labels[pa] != labels[pb]:
            continue
        result = level.find_path(a, b)
        corners = level.corners(result.path)
        _check_corners(result.path, corners)
        assert corners.shape[0] <= result.path.shape[0]
        shorter += level.path_cost(corners) < result.cost - 1e-6
        checked += 1
    assert checked >= 8
    assert shorter > 0  # the levels' bumps: the surface path is longer somewhere


def test_corners_at_a_step_take_the_height_walked_on() -> None:
    # two floors 0.5 apart joined by a step: the surface path climbs it at the portal
    verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (2, 0, 0.5), (4, 0, 0.5),
             (4, 2, 0.5), (2, 2, 0.5), (4, 4, 0.5), (2, 4, 0.5)]  # fmt: skip
    mesh = NavMesh3D(
        PolyMesh3D(verts, [[0, 1, 2, 3], [4, 5, 6, 7], [7, 6, 8, 9]]), height_tolerance=0.5
    )
    straight = mesh.find_path((1, 1, 0), (3, 1, 0.5))
    assert straight.path.tolist() == [[1, 1, 0], [2, 1, 0], [2, 1, 0.5], [3, 1, 0.5]]
    assert mesh.corners(straight.path).tolist() == [[1, 1, 0], [3, 1, 0.5]]
    turning = mesh.find_path((1, 1.5, 0), (3, 3.5, 0.5))
    got = mesh.corners(turning.path)
    _check_corners(turning.path, got)
    # it turns at the portal's end, on the step: the corner is on the upper floor
    assert got.tolist() == [[1, 1.5, 0], [2, 2, 0.5], [3, 3.5, 0.5]]


def test_corners_leave_short_paths_and_the_argument_alone() -> None:
    mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]))
    one = np.array([[0.2, 0.2, 0.0]])
    assert mesh.corners(one).tolist() == one.tolist()
    assert mesh.corners(np.empty((0, 3))).shape == (0, 3)
    path = np.array([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.0, 0.0]])
    before = path.copy()
    assert mesh.corners(path).tolist() == [[0, 0, 0], [1, 0, 0]]
    assert (path == before).all()


@pytest.mark.parametrize(
    ("path", "error", "message"),
    [
        ([(0, 0), (1, 1)], ValueError, r"path must have shape \(n, 3\)"),
        ([(0, 0, 0), (1, np.nan, 0)], ValueError, r"path\[1\] .* is not finite"),
        ("abc", TypeError, "path must be an array of points"),
    ],
)
def test_corners_bad_input(path: object, error: type[Exception], message: str) -> None:
    mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]))
    with pytest.raises(error, match=message):
        mesh.corners(path)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 12), st.just(3)),
        elements=st.integers(-4, 4).map(float),
    )
)
@example(np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]))  # over one place
def test_corners_of_any_polyline(path: FloatArray) -> None:
    mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [[0, 1, 2]]))
    _check_corners(path, mesh.corners(path))


def test_corner_lengths_against_detours_recorded_paths() -> None:
    """Detour's straight path lengths recorded on RecastDemo's levels (see the data
    file's header): ours, like with like (our corners), is never longer by more than
    2% and mostly within 2% (a shorter path is Detour's corridor going round the far
    side of something: its A* costs polygons by their edges' midpoints)."""
    rows = [line.split() for line in (DATA / "detour_paths.txt").read_text().splitlines()]
    rows = [r for r in rows if r and not r[0].startswith("#")]
    assert len(rows) == 80
    ratios = []
    for name in ("dungeon.obj", "nav_test.obj"):
        verts, tris = read_obj(DATA / name)
        mesh = NavMesh3D(build(verts, tris, CONFIG))
        for r in (r for r in rows if r[0] == name):
            numbers = [float(x) for x in r[1:]]
            result = mesh.find_path(numbers[0:3], numbers[3:6], snap=True)
            assert result, result.reason
            corners = mesh.corners(result.path)
            ours = mesh.path_cost(corners)
            assert ours <= result.cost + 1e-9
            ratios.append(ours / numbers[6])
    ratio = np.array(ratios)
    assert ratio.max() <= 1.02
    assert np.mean(np.abs(ratio - 1) <= 0.02) >= 0.95
    assert abs(np.median(ratio) - 1) <= 0.005
