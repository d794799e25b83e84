"""Off-mesh links of navmeshes (issue 20): the funnel's corridor search takes them as
edges of their cost; checked against scipy's Dijkstra on the portal-point graph with
the same links and area costs, built here from the mesh's public polygons."""

from __future__ import annotations

import io
import pickle
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra
from shapely import box

from pathcraft import NavMesh
from pathcraft import io as pio
from pathcraft.navmesh import _query

WALL = box(0, 0, 10, 10).difference(box(4, 0, 6, 10))  # two rooms, no way between
FRACTIONS = (0.0, 0.5, 1.0)  # the points on each portal the corridor search uses


def _portals(mesh: NavMesh) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """Each portal: the two polygons and the ends of the segment their shared edges span."""
    polys, nbrs, xy = mesh.polygons, mesh.polygon_neighbors, mesh.vertices
    spans: dict[tuple[int, int], list[np.ndarray]] = {}
    for p, ring in enumerate(polys):
        for i, q in enumerate(nbrs[p].tolist()):
            if q > p:
                spans.setdefault((p, q), []).extend([xy[ring[i]], xy[ring[(i + 1) % len(ring)]]])
    out = []
    for (p, q), pts in spans.items():
        arr = np.array(pts)
        t = (arr - arr[0]) @ (arr[1] - arr[0])
        out.append((p, q, arr[int(np.argmin(t))], arr[int(np.argmax(t))]))
    return out


def _oracle(
    mesh: NavMesh, s: np.ndarray, g: np.ndarray, direct: bool = True
) -> float:
    """The cheapest cost from ``s`` to ``g`` on the graph of points on portals, link
    ends, start and goal: inside each polygon every point to every point (not two
    points of one portal) at distance x the polygon's area cost, the links as edges of
    their cost, and the straight move when the goal is in sight (``direct``)."""
    costs = mesh.area_costs
    nodes: list[np.ndarray] = []
    tag: list[Any] = []  # ("portal", k) or ("end", e) or ("s",) or ("g",)
    members: dict[int, list[int]] = {p: [] for p in range(mesh.num_polygons)}
    for k, (p, q, a, b) in enumerate(_portals(mesh)):
        for f in FRACTIONS:
            members[p].append(len(nodes))
            members[q].append(len(nodes))
            nodes.append(a + (b - a) * f)
            tag.append(("portal", k))
    links = sorted(mesh.links.items())
    ends = []
    for _ident, link in links:
        for point in (link.a, link.b):
            ends.append(len(nodes))
            for p in mesh.polygons_at(np.asarray(point)).tolist():
                members[p].append(len(nodes))
            nodes.append(np.asarray(point))
            tag.append(("end", len(ends) - 1))
    sidx, gidx = len(nodes), len(nodes) + 1
    for point, idx in ((s, sidx), (g, gidx)):
        for p in mesh.polygons_at(point).tolist():
            members[p].append(idx)
        nodes.append(point)
        tag.append((idx,))
    best: dict[tuple[int, int], float] = {}

    def edge(i: int, j: int, w: float) -> None:
        if i != j and w < best.get((i, j), np.inf):
            best[i, j] = w

    for p, ks in members.items():
        for i in ks:
            for j in ks:
                if tag[i][0] == "portal" and tag[i] == tag[j]:
                    continue  # two points of one portal
                if i == gidx or j == sidx or (i, j) == (sidx, gidx):
                    continue
                edge(i, j, float(np.hypot(*(nodes[i] - nodes[j]))) * costs[p])
    for k, (_ident, link) in enumerate(links):
        a, b = ends[2 * k], ends[2 * k + 1]
        edge(a, b, link.cost)
        if link.two_way:
            edge(b, a, link.cost)
    if direct:
        both = np.intersect1d(mesh.polygons_at(s), mesh.polygons_at(g))
        if both.size:
            edge(sidx, gidx, float(np.hypot(*(g - s))) * float(costs[both].min()))
        elif not mesh.has_area_costs and not mesh.raycast(s, g).hit:
            edge(sidx, gidx, float(np.hypot(*(g - s))))
    n = len(nodes)
    keys = list(best)
    m = sp.csr_matrix(
        (list(best.values()), ([k[0] for k in keys], [k[1] for k in keys])), shape=(n, n)
    )
    return float(dijkstra(m, indices=sidx)[gidx])


def _check_path(mesh: NavMesh, res: Any, s: np.ndarray, g: np.ndarray) -> None:
    """A found path: from s to g, each segment walked inside the mesh or a link hop the
    right way, its cost the cost path_cost gives."""
    path, seg = res.path, res.links
    assert path[0].tolist() == s.tolist() and path[-1].tolist() == g.tolist()
    assert seg.shape == (path.shape[0] - 1,)
    area = shapely.union_all(mesh.shapes).buffer(1e-7)
    for i, ident in enumerate(seg.tolist()):
        u, v = tuple(path[i].tolist()), tuple(path[i + 1].tolist())
        if ident < 0:
            assert area.covers(shapely.LineString([u, v]) if u != v else shapely.Point(u))
        else:
            link = mesh.links[ident]
            assert (u, v) == (link.a, link.b) or (link.two_way and (u, v) == (link.b, link.a))
    assert res.cost == pytest.approx(mesh.path_cost(path, links=seg), rel=1e-9, abs=1e-9)


def _random_links(mesh: NavMesh, rng: np.random.Generator, cells: np.ndarray, k: int) -> None:
    for _ in range(k):
        (r0, c0), (r1, c1) = cells[rng.integers(len(cells), size=2)]
        a = (c0 + rng.uniform(0.05, 0.95), r0 + rng.uniform(0.05, 0.95))
        b = (c1 + rng.uniform(0.05, 0.95), r1 + rng.uniform(0.05, 0.95))
        d = float(np.hypot(b[0] - a[0], b[1] - a[1]))
        cost = [None, 0.0, rng.uniform(0, 0.5) * d, rng.uniform(1.5, 4) * d + 1][rng.integers(4)]
        mesh.add_link(a, b, cost=cost, two_way=bool(rng.integers(2)))


def _check_query(mesh: NavMesh, s: np.ndarray, g: np.ndarray) -> None:
    want = _oracle(mesh, s, g)
    corridor = mesh.corridor(s, g)
    res = mesh.find_path(s, g)
    assert bool(corridor) == bool(res) == np.isfinite(want)
    if not res:
        return
    assert corridor.cost == res.cost
    policy, s_at, g_at = mesh._policy(None), mesh.polygons_at(s), mesh.polygons_at(g)
    searched = _query.corridor(policy, s, s_at, g, g_at, None)[4]  # the corridor search
    if _query.straight(policy, s, s_at, g, g_at) is not None:  # or the goal in sight
        searched = min(searched, mesh.path_cost([s, g]))
    assert searched == pytest.approx(want, rel=1e-9, abs=1e-9)
    _check_path(mesh, res, s, g)
    if not mesh.has_area_costs:  # pulled taut: never dearer than its graph walk
        assert res.cost <= want + 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_grid_windows_with_random_links_equal_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    walkable = rng.random((6, 8)) > 0.3
    walkable[rng.integers(6), :] = False  # a wall across, which links may jump
    if walkable.sum() < 2:
        return
    mesh = NavMesh.from_grid(walkable)
    cells = np.argwhere(walkable)
    _random_links(mesh, rng, cells, int(rng.integers(1, 6)))
    if rng.random() < 0.3:
        mesh.set_area_cost(rng.integers(mesh.num_polygons, size=3), float(rng.choice([1.5, 4.0])))
    for _ in range(4):
        (r0, c0), (r1, c1) = cells[rng.integers(len(cells), size=2)]
        s = np.array([c0 + rng.uniform(0.05, 0.95), r0 + rng.uniform(0.05, 0.95)])
        g = np.array([c1 + rng.uniform(0.05, 0.95), r1 + rng.uniform(0.05, 0.95)])
        if mesh.has_area_costs and np.intersect1d(mesh.polygons_at(s), mesh.polygons_at(g)).size:
            continue  # one polygon with area costs: the straight line, not a search
        _check_query(mesh, s, g)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_polygon_scenes_with_links_across_walls_equal_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scene = box(0, 0, 12, 10)
    for _ in range(int(rng.integers(1, 4))):  # walls top to bottom: links are the way
        x = rng.uniform(1, 10)
        scene = scene.difference(box(x, 0, x + 0.5, 10))
    for _ in range(int(rng.integers(0, 3))):  # and some pillars
        x, y = rng.uniform(0.5, 10.5), rng.uniform(0.5, 8.5)
        scene = scene.difference(box(x, y, x + 1, y + 1))
    walk = scene if scene.geom_type == "MultiPolygon" else shapely.MultiPolygon([scene])
    parts = [p for p in walk.geoms if p.area > 0.5]
    mesh = NavMesh.from_geometry(shapely.MultiPolygon(parts))

    def point() -> np.ndarray:
        while True:
            p = np.array([rng.uniform(0, 12), rng.uniform(0, 10)])
            if mesh.locate(p) >= 0:
                return p

    for _ in range(int(rng.integers(1, 6))):
        a, b = point(), point()
        d = float(np.hypot(*(b - a)))
        cost = [None, 0.0, 0.3 * d, 3 * d + 2][int(rng.integers(4))]
        mesh.add_link(tuple(a), tuple(b), cost=cost, two_way=bool(rng.integers(2)))
    for _ in range(4):
        _check_query(mesh, point(), point())


def test_link_makes_an_unreachable_goal_reachable_one_way() -> None:
    mesh = NavMesh.from_geometry(WALL)
    s, g = np.array([1.0, 5.0]), np.array([9.0, 5.0])
    lost = mesh.find_path(s, g)
    assert not lost and lost.reason == "unreachable"
    jump = mesh.add_link((3, 3), (7, 3), two_way=False)
    res = mesh.find_path(s, g)
    assert res and res.links.tolist().count(jump) == 1
    assert [3.0, 3.0] in res.path.tolist() and [7.0, 3.0] in res.path.tolist()
    assert res.cost == pytest.approx(np.hypot(2, 2) + 4 + np.hypot(2, 2))
    _check_path(mesh, res, s, g)
    back = mesh.find_path(g, s)  # a one-way link is not taken backwards
    assert not back and back.path.shape[0] == 0
    assert not mesh.corridor(g, s)
    mesh.remove_link(jump)
    assert not mesh.find_path(s, g)


def test_expensive_link_is_skipped_and_cheap_link_beats_the_straight_line() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10))
    s, g = np.array([1.0, 1.0]), np.array([9.0, 1.0])
    dear = mesh.add_link((1, 2), (9, 2), cost=100.0)
    res = mesh.find_path(s, g)
    assert res.path.tolist() == [[1.0, 1.0], [9.0, 1.0]] and res.links.tolist() == [-1]
    mesh.remove_link(dear)
    portal = mesh.add_link((1.5, 1), (8.5, 1), cost=0.5)  # a teleporter on the line
    res = mesh.find_path(s, g)
    assert res.links.tolist() == [-1, portal, -1]
    assert res.cost == pytest.approx(0.5 + 0.5 + 0.5)
    assert mesh.corridor(s, g).cost == pytest.approx(1.5)
    assert mesh.find_path(g, s).cost == pytest.approx(1.5)  # two-way by default


def test_area_costs_still_weigh_the_walked_pieces() -> None:
    mesh = NavMesh.from_geometry(WALL)
    mesh.add_link((4, 5), (6, 5), cost=1.0)
    right = mesh.locate((8, 5))
    mesh.set_area_cost([right], 3.0)
    res = mesh.find_path((1, 5), (9, 5))
    assert res.cost == pytest.approx(3 + 1 + 3 * 3)
    _check_path(mesh, res, np.array([1.0, 5.0]), np.array([9.0, 5.0]))


def test_stepped_search_equals_find_path_and_partial_works() -> None:
    mesh = NavMesh.from_grid(np.array([[c == "." for c in r] for r in [
        "........", "....#...", "########", "........", "..#....."]]))  # fmt: skip
    mesh.add_link((1.5, 1.5), (6.5, 3.5), cost=2.0)
    whole = mesh.find_path((0.5, 0.5), (0.5, 4.5))
    search = mesh.start_search((0.5, 0.5), (0.5, 4.5))
    while search.step(1) == "in_progress":
        pass
    assert search.result.path.tolist() == whole.path.tolist()
    assert search.result.links.tolist() == whole.links.tolist()
    assert search.result.cost == whole.cost
    cut = mesh.find_path((0.5, 0.5), (0.5, 4.5), max_expansions=2, partial=True)
    assert not cut and cut.reason == "max_expansions" and cut.path.shape[1] == 2
    assert cut.links.shape == (cut.path.shape[0] - 1,)
    far = mesh.find_path((0.5, 0.5), (7.5, 4.5), partial=True)
    assert far


def test_bad_input_is_refused_by_name() -> None:
    mesh = NavMesh.from_geometry(WALL)
    with pytest.raises(ValueError, match=r"link end a \(5.0, 5.0\) is off the mesh \(1 from"):
        mesh.add_link((5, 5), (7, 5))
    with pytest.raises(ValueError, match=r"link end b \(12.0, 5.0\) is off the mesh \(2 from"):
        mesh.add_link((1, 5), (12, 5))
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="cost must be a finite number >= 0"):
            mesh.add_link((1, 5), (7, 5), cost=bad)
    for bad in ("1", True):
        with pytest.raises(TypeError, match="cost must be"):
            mesh.add_link((1, 5), (7, 5), cost=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="two_way must be True or False"):
        mesh.add_link((1, 5), (7, 5), two_way=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"a \(1.0, nan\) is not finite"):
        mesh.add_link((1, float("nan")), (7, 5))
    assert len(mesh.links) == 0  # nothing was added
    with pytest.raises(KeyError, match=r"link_id 3 is not a link of this mesh \(it was never"):
        mesh.remove_link(3)
    ident = mesh.add_link((1, 5), (7, 5))
    mesh.remove_link(ident)
    with pytest.raises(KeyError, match="it was removed"):
        mesh.remove_link(ident)
    with pytest.raises(TypeError, match="link_id must be an int"):
        mesh.remove_link("0")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mesh.links[5] = None  # type: ignore[index]


def test_optimal_and_radius_refuse_a_mesh_with_links() -> None:
    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 10)))
    assert mesh.find_path((1, 5), (9, 5), algorithm="optimal")
    ident = mesh.add_link((1, 9), (9, 9))
    with pytest.raises(ValueError, match="algorithm='funnel'"):
        mesh.find_path((1, 5), (9, 5), algorithm="optimal")
    with pytest.raises(ValueError, match="off-mesh links"):
        mesh.start_search((1, 5), (9, 5), radius=0.2)
    mesh.remove_link(ident)
    assert mesh.find_path((1, 5), (9, 5), algorithm="optimal")


def test_path_cost_checks_its_links() -> None:
    mesh = NavMesh.from_geometry(WALL)
    ident = mesh.add_link((4, 5), (6, 5), cost=7.0, two_way=False)
    path = [(1, 5), (4, 5), (6, 5), (9, 5)]
    assert mesh.path_cost(path, links=[-1, ident, -1]) == pytest.approx(13.0)
    with pytest.raises(ValueError, match="one int per segment of path"):
        mesh.path_cost(path, links=[-1, ident])
    with pytest.raises(ValueError, match=r"links\[1\]: 5 is not a link"):
        mesh.path_cost(path, links=[-1, 5, -1])
    with pytest.raises(ValueError, match="is not a way link 0 can be taken"):
        mesh.path_cost(path[::-1], links=[-1, ident, -1])


def test_links_are_saved_with_the_mesh() -> None:
    mesh = NavMesh.from_geometry(WALL)
    mesh.remove_link(mesh.add_link((1, 1), (2, 2)))  # ids stay: the next is 1
    one = mesh.add_link((3, 3), (7, 3), cost=2.5, two_way=False)
    mesh.set_area_cost([0], 2.0)
    want = mesh.find_path((1, 5), (9, 5))
    arrays = mesh.to_arrays()
    assert arrays["link_ids"].tolist() == [one]
    buf = io.BytesIO()
    pio.save(mesh, buf)
    buf.seek(0)
    for again in (NavMesh.from_arrays(arrays), pio.load(buf), pickle.loads(pickle.dumps(mesh))):
        assert dict(again.links) == dict(mesh.links)
        got = again.find_path((1, 5), (9, 5))
        assert got.path.tolist() == want.path.tolist() and got.cost == want.cost
        assert again.add_link((1, 1), (2, 2)) == one + 1
    del arrays["link_costs"]
    with pytest.raises(ValueError, match="needs the array 'link_costs'"):
        NavMesh.from_arrays(arrays)
    arrays["link_costs"] = np.array([-1.0])
    with pytest.raises(ValueError, match="link_costs >= 0"):
        NavMesh.from_arrays(arrays)
    arrays["link_costs"] = np.array([1.0, 2.0])
    with pytest.raises(ValueError, match="link_costs must be float64 of shape"):
        NavMesh.from_arrays(arrays)
    plain = NavMesh.from_geometry(WALL)
    assert not any(k.startswith("link") for k in plain.to_arrays())
    assert not hasattr(plain.find_path((1, 5), (1, 6)), "links")  # a plain PathResult


def _window_queries(mesh: NavMesh, walkable: np.ndarray, rng: np.random.Generator) -> None:
    cells = np.argwhere(walkable)
    _random_links(mesh, rng, cells, int(rng.integers(1, 8)))
    for _ in range(6):
        (r0, c0), (r1, c1) = cells[rng.integers(len(cells), size=2)]
        s = np.array([c0 + rng.uniform(0.05, 0.95), r0 + rng.uniform(0.05, 0.95)])
        g = np.array([c1 + rng.uniform(0.05, 0.95), r1 + rng.uniform(0.05, 0.95)])
        _check_query(mesh, s, g)


def _map_windows(movingai: Any, count: int, seed: int) -> None:
    from pathcraft.io import read_walkable

    rng = np.random.default_rng(seed)
    names = ["dao/arena2", "room/8room_000", "random/random512-40-0", "maze/maze512-1-0"]
    for name in names:
        family, base = name.split("/")
        full = read_walkable(movingai / "maps" / family / f"{base}.map")
        done = 0
        while done < count:
            r, c = rng.integers(0, np.array(full.shape) - 24)
            walkable = full[r : r + 24, c : c + 24]
            if walkable.sum() < 40:
                continue
            _window_queries(NavMesh.from_grid(walkable), walkable, rng)
            done += 1


def test_moving_ai_windows_with_random_links_equal_scipy(movingai: Any) -> None:
    _map_windows(movingai, 2, 11)


@pytest.mark.slow
def test_moving_ai_windows_with_random_links_equal_scipy_many(movingai: Any) -> None:
    _map_windows(movingai, 40, 12)


@pytest.mark.slow
def test_many_random_windows_and_scenes_equal_scipy() -> None:
    grid = test_grid_windows_with_random_links_equal_scipy.hypothesis.inner_test  # type: ignore[attr-defined]
    scene = test_polygon_scenes_with_links_across_walls_equal_scipy.hypothesis.inner_test  # type: ignore[attr-defined]
    for seed in range(1000, 1600):
        grid(seed)
        scene(seed)


def test_links_and_carving_together() -> None:
    """Links are edits (version, changes_since); a carve that covers a link's end
    takes the link out of reach until the obstacle is removed; a search under way is
    cancelled by a link added under it."""
    from shapely import box

    from pathcraft._sliced import WorldChangedError

    mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 0, 6, 10)))
    seen = mesh.version
    jump = mesh.add_link((3, 5), (7, 5), cost=1.0)
    assert mesh.version == seen + 1
    held = set(mesh.polygons_at(np.array([3.0, 5.0])).tolist())
    held |= set(mesh.polygons_at(np.array([7.0, 5.0])).tolist())
    assert set(mesh.changes_since(seen).tolist()) == held
    assert mesh.find_path((1, 5), (9, 5)).links.tolist() == [-1, jump, -1]
    wall = mesh.add_obstacle(box(6.5, 4.5, 7.5, 5.5))  # covers the link's far end
    assert not mesh.find_path((1, 5), (9, 5))
    mesh.remove_obstacle(wall)
    assert mesh.find_path((1, 5), (9, 5)).cost == pytest.approx(2 + 1 + 2)
    search = mesh.start_search((1, 5), (9, 5))
    before = mesh.version
    mesh.remove_link(jump)
    assert mesh.version == before + 1
    with pytest.raises(WorldChangedError):
        search.step()
    assert not mesh.find_path((1, 5), (9, 5))
