"""NavMesh3D tiles at run time: added and removed, stitched where their edges meet,
versions bumped, searches cancelled, and agents that keep their way while tiles
stream in ahead of them and out behind them or come and go beside their corridor; an
agent whose corridor loses a tile goes round, or waits while no way is left."""

from __future__ import annotations

import numpy as np
import pytest
from _mesh3d_scenes import Height, flat, rect_mesh, slope

from pathcraft import WorldChangedError
from pathcraft.agents import PathFollower, Pursuer
from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D

SIZE = 4.0


def _height(k: int) -> Height:
    """Tile ``k``'s height: level at z = 0, but tiles 3 and 4 a ramp up to z = 2 and
    back down."""
    x0 = k * SIZE
    if k == 3:
        return slope(0.0, dzdx=0.5, x0=x0)
    if k == 4:
        return slope(2.0, dzdx=-0.5, x0=x0)
    return flat(0.0)


def _tile(k: int) -> PolyMesh3D:
    """Tile ``k`` of a long road along x (y from 0 to 4), two polygons side by side."""
    x0, x1 = k * SIZE, (k + 1) * SIZE
    z = _height(k)
    mesh = rect_mesh([(x0, 0, x1, 2, z), (x0, 2, x1, 4, z)])
    return PolyMesh3D(mesh.vertices, mesh.polygons, tiles=[k, k])


def _road(n: int) -> NavMesh3D:
    mesh = NavMesh3D(_tile(0))
    for k in range(1, n):
        assert mesh.add_tile(_tile(k)) == k
    return mesh


def test_tiles_stitch_where_their_edges_meet() -> None:
    mesh = _road(6)
    assert mesh.tile_ids == list(range(6)) and mesh.version == 5
    result = mesh.find_path((1, 1, 0), (23, 3, 0))
    assert result and result.path[:, 2].max() == pytest.approx(2.0)
    # the same road as one polygon mesh gives the same path
    whole = _tile(0)
    from pathcraft.navmesh3d._tiles import concat

    for k in range(1, 6):
        whole = concat(whole, _tile(k))
    again = NavMesh3D(whole).find_path((1, 1, 0), (23, 3, 0))
    assert np.allclose(again.path, result.path) and again.cost == pytest.approx(result.cost)


def test_removing_a_tile_cuts_the_road_and_adding_it_back_joins_it() -> None:
    mesh = _road(6)
    mesh.remove_tile(2)
    assert mesh.tile_ids == [0, 1, 3, 4, 5] and mesh.version == 6
    cut = mesh.find_path((1, 1, 0), (23, 3, 0))
    assert not cut and cut.reason == "unreachable"
    with pytest.raises(ValueError, match="off the mesh"):
        mesh.find_path((1, 1, 0), (9, 1, 0))
    assert mesh.add_tile(_tile(2)) == 2
    assert mesh.find_path((1, 1, 0), (23, 3, 0))


def test_tile_ids_and_bad_tiles() -> None:
    mesh = _road(2)
    with pytest.raises(ValueError, match="in the mesh already"):
        mesh.add_tile(_tile(1))
    untiled = rect_mesh([(8, 0, 12, 4, flat(0.0))])
    assert mesh.add_tile(untiled) == 2  # the next free id
    with pytest.raises(ValueError, match="not in the mesh"):
        mesh.remove_tile(7)
    with pytest.raises(TypeError, match="tile_id"):
        mesh.remove_tile("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PolyMesh3D"):
        mesh.add_tile("tile")  # type: ignore[arg-type]
    lonely = NavMesh3D(_tile(0))
    with pytest.raises(ValueError, match="every polygon"):
        lonely.remove_tile(0)


def test_a_search_in_progress_is_cancelled_by_a_tile() -> None:
    mesh = _road(6)
    search = mesh.start_search((1, 1, 0), (23, 3, 0))
    assert search.step(1) == "in_progress"
    mesh.add_tile(_tile(6))
    with pytest.raises(WorldChangedError):
        search.step(10)


def test_streaming_tiles_while_agents_move() -> None:
    """Tiles come in three ahead of the leading agent and go once every agent is past
    them; the agents chase a target at the far end of what is loaded, and none ever
    loses its way: every frame each is chasing or has caught the target."""
    total = 12
    mesh = NavMesh3D(_tile(0))
    for k in range(1, 4):
        mesh.add_tile(_tile(k))
    agents = [
        Pursuer(mesh, (1.0, y, 0.0), speed=s) for y, s in ((1.0, 2.0), (2.0, 2.5), (3.0, 3.0))
    ]
    statuses: list[str] = []
    removed = 0
    for _ in range(200):
        loaded = mesh.tile_ids
        far = max(loaded)
        x = (far + 1) * SIZE - 1.0
        target = (x, 2.0, _height(far)(x, 2.0))
        for agent in agents:
            statuses.append(agent.step(target, dt=0.5))
            assert agent.position[2] >= -1e-9
        xs = [agent.position[0] for agent in agents]
        if far < total - 1 and max(xs) > (far - 2) * SIZE:
            mesh.add_tile(_tile(far + 1))
        behind = min(loaded)
        if min(xs) > (behind + 1) * SIZE + 1.0:
            mesh.remove_tile(behind)
            removed += 1
        if far == total - 1 and all(s == "caught" for s in statuses[-3:]):
            break
    assert set(statuses) <= {"chasing", "caught"}, set(statuses)
    assert statuses[-3:] == ["caught"] * 3
    assert removed >= 5 and mesh.version >= total - 4 + removed


def _block(i: int, j: int) -> PolyMesh3D:
    """Tile ``(i, j)`` of a flat field of 4 x 4 tiles, two polygons each, tile id
    ``10 * j + i``."""
    x0, y0 = i * SIZE, j * SIZE
    mesh = rect_mesh(
        [(x0, y0, x0 + SIZE, y0 + 2, flat(0.0)), (x0, y0 + 2, x0 + SIZE, y0 + SIZE, flat(0.0))]
    )
    return PolyMesh3D(mesh.vertices, mesh.polygons, tiles=[10 * j + i] * 2)


def _field(columns: int, rows: int) -> NavMesh3D:
    mesh = NavMesh3D(_block(0, 0))
    for j in range(rows):
        for i in range(columns):
            if (i, j) != (0, 0):
                mesh.add_tile(_block(i, j))
    return mesh


def _walk(mesh: NavMesh3D, toggle: bool) -> tuple[list[list[tuple[float, ...]]], list[str]]:
    """Three agents walk along the field's first row to its far end; with ``toggle``
    a tile of the third row (on no agent's corridor) is removed each frame and the
    one removed the frame before is added back. Every agent's position each frame,
    and every status."""
    agents = [
        Pursuer(mesh, (1.0, y, 0.0), speed=s) for y, s in ((1.0, 2.0), (2.0, 2.5), (3.0, 3.0))
    ]
    target = (23.0, 2.0, 0.0)
    frames, statuses = [], []
    out: int | None = None
    for frame in range(40):
        if toggle:
            if out is not None:
                mesh.add_tile(_block(out % 10, out // 10))
            out = 20 + frame % 6
            mesh.remove_tile(out)
        statuses += [agent.step(target, dt=0.5) for agent in agents]
        frames.append([agent.position for agent in agents])
        if all(s == "caught" for s in statuses[-3:]):
            break
    return frames, statuses


def test_agents_keep_their_way_while_tiles_off_their_corridor_come_and_go() -> None:
    """Tiles beside the agents' corridor are removed and added back every frame: each
    edit makes every agent plan again (the mesh's version grows), and every agent
    walks as it does on the field left alone (within a tenth: a plan after an edit
    starts at the next corner of the path before, which an edit may move along the
    same line), on the mesh, and arrives in as many frames."""
    still, _ = _walk(_field(6, 3), toggle=False)
    mesh = _field(6, 3)
    version = mesh.version
    moving, statuses = _walk(mesh, toggle=True)
    assert mesh.version >= version + 2 * len(moving) - 1
    assert set(statuses) <= {"chasing", "caught"} and statuses[-3:] == ["caught"] * 3
    assert len(moving) == len(still)
    np.testing.assert_allclose(np.array(moving), np.array(still), atol=0.1)
    assert (mesh.locate(np.array(moving).reshape(-1, 3)) >= 0).all()


def test_an_agent_whose_corridor_loses_a_tile_goes_round_or_waits() -> None:
    """The tile ahead on an agent's corridor is removed: it plans round through the
    next row; the whole column removed, no way is left: it reports the target
    unreachable and stands; the column back, it goes on and arrives."""
    mesh = _field(6, 3)
    runner = Pursuer(mesh, (1.0, 2.0, 0.0), speed=2.0)
    target = (23.0, 2.0, 0.0)
    assert runner.step(target, dt=0.5) == "chasing"
    mesh.remove_tile(3)  # tile (3, 0), x from 12 to 16
    assert runner.step(target, dt=0.5) == "chasing"
    path = np.array(runner.path)
    t = np.linspace(0, 1, 50)[:, None, None]
    along = (path[:-1] + t * (path[1:] - path[:-1])).reshape(-1, 3)  # points of each leg
    crossing = along[(along[:, 0] > 12) & (along[:, 0] < 16)]
    assert crossing.size and (crossing[:, 1] >= SIZE - 1e-9).all()  # round, through row 1
    assert runner.cost_to_target > 22.0 - runner.position[0] + 1.0
    mesh.remove_tile(13)
    mesh.remove_tile(23)
    where = runner.position
    assert runner.step(target, dt=0.5) == "unreachable"
    assert runner.step(target, dt=0.5) == "unreachable" and runner.position == where
    for k in (3, 13, 23):
        mesh.add_tile(_block(k % 10, k // 10))
    statuses = [runner.step(target, dt=0.5) for _ in range(40)]
    assert statuses[0] == "chasing" and statuses[-1] == "caught"
    assert set(statuses) <= {"chasing", "caught"}


def _on_surface(mesh: NavMesh3D, points: np.ndarray) -> None:
    """Every point on the mesh, at the surface's height there."""
    assert (mesh.locate(points) >= 0).all()
    np.testing.assert_allclose(points[:, 2], mesh.nearest_point(points)[:, 2], atol=1e-9)


def test_path_followers_walk_the_surface_up_a_ramp_and_down() -> None:
    """PathFollower on a NavMesh3D (its floor has three dimensions): agents follow
    find_path's paths over the ramp, always on the surface, and arrive."""
    mesh = _road(6)
    starts = [(1.0, y, 0.0) for y in (1.0, 2.0, 3.0)]
    paths = [mesh.find_path(s, (23.0, 4.0 - s[1], 0.0)).path for s in starts]
    crowd = PathFollower(paths, grid=mesh, max_speed=2.0, tolerance=0.05, turn_rate=4.0)
    assert crowd.positions.shape == crowd.velocities.shape == (3, 3)
    top = 0.0
    for _ in range(200):
        done = crowd.step(0.1)
        _on_surface(mesh, crowd.positions)
        top = max(top, float(crowd.positions[:, 2].max()))
        if done.all():
            break
    assert crowd.arrived.all() and not crowd.stuck.any()
    assert top == pytest.approx(2.0, abs=0.1)  # over the top of the ramp
    ends = np.array([p[-1] for p in paths])
    assert (np.linalg.norm(crowd.positions - ends, axis=1) <= 0.05).all()


def _follow_round(behind: bool) -> tuple[list[np.ndarray], list[int], PathFollower]:
    """Three followers along the first row of a 6 x 2 field; at frame 5 the tile
    ahead on their way (3: x from 12 to 16) is removed; with ``behind``, at frame 30
    the first tile too, behind them all. Their positions and replans each frame."""
    mesh = _field(6, 2)
    starts = [(1.0, y, 0.0) for y in (1.0, 2.0, 3.0)]
    paths = [mesh.find_path(s, (23.0, s[1], 0.0)).path for s in starts]
    crowd = PathFollower(paths, grid=mesh, max_speed=2.0, tolerance=0.05)
    frames, replans = [], []
    for frame in range(150):
        if frame == 5:
            mesh.remove_tile(3)
        if frame == 30 and behind:
            assert (crowd.positions[:, 0] > SIZE + 1).all()
            mesh.remove_tile(0)
        crowd.step(0.2)
        frames.append(crowd.positions.copy())
        replans.append(crowd.replans)
        _on_surface(mesh, crowd.positions)
        if crowd.arrived.all():
            break
    return frames, replans, crowd


def test_path_followers_go_round_a_tile_removed_ahead_and_keep_on_past_one_behind() -> None:
    """Followers walk the first row of a field of tiles; the tile ahead on their way
    is removed: each gets a new path round it through the second row; a tile behind
    them is removed too: none is blocked and all arrive as soon as without that edit,
    always on the surface and never on the removed tile. (Their paths round the gap
    touch its corners, which the followers' check of a path after an edit reads as
    cut: they plan again, from where they stand, the same way on.)"""
    frames, replans, crowd = _follow_round(behind=True)
    assert replans[4] == 0 and replans[5] == 3  # each one new path
    walked = np.concatenate(frames)
    assert not (
        (walked[:, 0] > 12 + 1e-9) & (walked[:, 0] < 16 - 1e-9) & (walked[:, 1] < SIZE)
    ).any()
    assert crowd.arrived.all() and not crowd.blocked.any()
    alone, _, _ = _follow_round(behind=False)
    assert abs(len(alone) - len(frames)) <= 2
    np.testing.assert_allclose(frames[-1], alone[-1], atol=0.1)


def test_a_move_along_the_surface_stays_on_its_floor() -> None:
    """move_along_surface (what followers step by) over a bridge crossing a floor 3
    below: along the bridge it stays up, under it it stays down, and off the bridge's
    side it stops at its edge rather than dropping onto the floor."""
    floor = [(0, 0, 0), (4, 0, 0), (4, 2, 0), (0, 2, 0), (8, 0, 0), (8, 2, 0)]
    bridge = [(2, -2, 3), (3, -2, 3), (3, 4, 3), (2, 4, 3)]
    mesh = NavMesh3D(PolyMesh3D(floor + bridge, [[0, 1, 2, 3], [1, 4, 5, 2], [6, 7, 8, 9]]))
    over = mesh.move_along_surface((2.5, -1, 3), (2.5, 3, 3))
    assert over.reached and over.position.tolist() == [2.5, 3.0, 3.0]
    assert over.polygons.tolist() == [2]
    under = mesh.move_along_surface((0.5, 1, 0), (7.5, 1, 0))
    assert under.reached and under.position.tolist() == [7.5, 1.0, 0.0]
    off = mesh.move_along_surface((2.5, 1, 3), (5, 1, 3))
    assert not off.reached and off.position.tolist() == [3.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="off the mesh"):
        mesh.move_along_surface((2.5, 1, 1.5), (5, 1, 3))
    assert mesh.move_along_surface((2.5, 1, 1.8), (5, 1, 3), snap=True).position[2] == 3.0
