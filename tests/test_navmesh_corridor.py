"""The path corridor (PathCorridor, after Detour's dtPathCorridor): after any sequence of
moves of the agent and its target, the agent is inside the walkable area (shapely, the
oracle), the corridor is a chain of neighbours from the agent's polygon to the
target's, and its corners are find_path's path from where the agent is."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from _meshes import HOLED_CELLS, cells_area
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely import box

from pathcraft import NavMesh
from pathcraft.navmesh import PathCorridor

TOL = 1e-9

_PILLARS = box(0, 0, 20, 12).difference(
    shapely.union_all([box(4, 2, 6, 10), box(9, 0, 11, 5), box(9, 7, 11, 12),
                       shapely.Polygon([(14, 3), (17, 4), (15, 8)])])
)  # fmt: skip


def _scene(kind: str) -> tuple[NavMesh, Any]:
    """A mesh and its walkable area, made independently of the mesh."""
    if kind == "pillars":
        return NavMesh.from_geometry(_PILLARS), _PILLARS
    return NavMesh.from_grid(HOLED_CELLS), cells_area(HOLED_CELLS)


SCENES = {kind: _scene(kind) for kind in ("pillars", "grid")}


def _check(corridor: PathCorridor, mesh: NavMesh, area: Any, *, exact: bool) -> None:
    """The corridor's invariants, each against an independent answer; ``exact``: its
    corners are find_path's path from where the agent is."""
    pos = corridor.position
    walkable = area.buffer(TOL)
    assert walkable.covers(shapely.Point(pos)), pos
    polys = corridor.polygons
    shapes = mesh.shapes
    assert shapes[polys[0]].buffer(TOL).covers(shapely.Point(pos))
    assert shapes[polys[-1]].buffer(TOL).covers(shapely.Point(corridor.end))
    for a, b in zip(polys[:-1].tolist(), polys[1:].tolist(), strict=True):
        assert b in mesh.polygon_neighbors[a].tolist(), (a, b)
    corners = corridor.corners
    assert corners[0].tolist() == pos.tolist() and corners[-1].tolist() == corridor.end.tolist()
    if len(corners) > 1:  # on the walkable area, turning only at the mesh's vertices
        assert walkable.covers(shapely.LineString(corners))
        gap = np.hypot(*(corners[1:-1, None, :] - mesh.vertices[None, :, :]).transpose(2, 0, 1))
        assert (gap.min(axis=1, initial=np.inf) < TOL).all() if len(corners) > 2 else True
    length = float(np.hypot(*np.diff(corners, axis=0).T).sum())
    assert corridor.cost == pytest.approx(length, abs=TOL)
    best = mesh.find_path(pos, corridor.end, algorithm="optimal")
    assert length >= best.cost - TOL  # never shorter than the shortest path
    if exact:
        expected = mesh.find_path(pos, corridor.target, partial=True)
        assert corridor.found == bool(expected)
        assert corners.shape == expected.path.shape
        np.testing.assert_allclose(corners, expected.path, atol=TOL, rtol=0)
        assert corridor.cost == pytest.approx(expected.cost, abs=TOL)


def _ahead(corridor: PathCorridor, fraction: float) -> None:
    """Walk toward the next corner, a fraction of the way or a little past it."""
    step = corridor.next_corner - corridor.position
    corridor.move_position(corridor.position + step * fraction)


@settings(max_examples=100, deadline=None)
@given(
    kind=st.sampled_from(sorted(SCENES)),
    seed=st.integers(0, 10_000),
    steps=st.lists(st.floats(0.0, 1.2), min_size=1, max_size=25),
)
# the agent stops on a portal whose ends are in line with the path: the funnel starts
# past that portal instead of turning at its end behind the agent
@example(kind="grid", seed=433, steps=[1.0, 0.625])
def test_walking_the_corners_keeps_them_find_paths_path_from_the_agent(
    kind: str, seed: int, steps: list[float]
) -> None:
    mesh, area = SCENES[kind]
    start, goal = mesh.random_points(2, seed=seed)
    corridor = PathCorridor(mesh, start, goal)
    _check(corridor, mesh, area, exact=True)
    for fraction in steps:
        _ahead(corridor, fraction)
        _check(corridor, mesh, area, exact=True)
    assert corridor.searches == 1  # kept by the moves alone


_MOVES = st.lists(
    st.tuples(
        st.sampled_from(["ahead", "position", "target"]),
        st.floats(-3, 3),
        st.floats(-3, 3),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=100, deadline=None)
@given(kind=st.sampled_from(sorted(SCENES)), seed=st.integers(0, 10_000), moves=_MOVES)
def test_after_any_moves_the_agent_stays_on_the_mesh_and_the_corridor_holds(
    kind: str, seed: int, moves: list[tuple[str, float, float]]
) -> None:
    mesh, area = SCENES[kind]
    start, goal = mesh.random_points(2, seed=seed)
    corridor = PathCorridor(mesh, start, goal, snap=True)
    for what, dx, dy in moves:
        if what == "ahead":
            _ahead(corridor, abs(dx) / 2.5)
        elif what == "position":  # anywhere near: into walls, off the corridor
            corridor.move_position(corridor.position + np.array([dx, dy]))
        else:  # the target moves a little (snapped onto the mesh if it left it)
            corridor.move_target(corridor.target + np.array([dx, dy]))
        _check(corridor, mesh, area, exact=False)
        # the straight line whenever the target is in sight, as find_path takes it
        if not mesh.raycast(corridor.position, corridor.end).hit:
            assert len(corridor.corners) <= 2
    corridor.replan()
    _check(corridor, mesh, area, exact=True)


def test_a_start_on_a_portal_in_line_with_the_path_turns_nowhere() -> None:
    # Portals along one line (y = 0), the start on the first: the funnel starts past
    # it, so the path is straight to the goal (it turned at the portal's far end).
    from pathcraft._core import navmesh as kernel

    left = np.array([[3.5, 0.0], [3.0, 0.0], [0.0, 0.0], [-1.0, 0.5]])
    right = np.array([[3.5, 0.0], [4.0, 0.0], [2.0, 0.0], [-1.0, 0.5]])
    out = np.empty((4, 2))
    count = kernel.string_pull(left, right, out)
    assert out[:count].tolist() == [[3.5, 0.0], [2.0, 0.0], [-1.0, 0.5]]
