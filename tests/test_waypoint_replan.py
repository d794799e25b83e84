"""``WaypointGraph.replanner`` (issue 18): the same cost as a fresh search over the
links after every obstacle added or removed, with the agent walking its path."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

shapely = pytest.importorskip("shapely")

from pathcraft import WaypointGraph, WorldChangedError  # noqa: E402


def oracle_cost(wg: WaypointGraph, start: int, goal: int) -> float:
    """The shortest path over the open links, by scipy."""
    links = wg.links
    n = wg.points.shape[0]
    a, b = wg.points[links[:, 0]], wg.points[links[:, 1]]
    w = np.sqrt(((a - b) ** 2).sum(axis=1))
    m = csr_matrix((w, (links[:, 0], links[:, 1])), shape=(n, n))
    return float(dijkstra(m, directed=False, indices=start)[goal])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(2, 25),
    edits=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6)), min_size=1, max_size=30),
    walk=st.booleans(),
)
def test_the_replanner_matches_a_fresh_search_after_every_edit(
    seed: int, n: int, edits: list[tuple[bool, int]], walk: bool
) -> None:
    rng = np.random.default_rng(seed)
    points = rng.uniform(0, 20, size=(n, 2))
    start, goal = 0, n - 1
    wg = WaypointGraph(points, max_distance=None if rng.random() < 0.5 else 9.0)
    plan = wg.replanner(start, goal)
    keys: list[int] = []
    at = start
    for add, pick in edits:
        if add or not keys:
            x, y = rng.uniform(0, 20, size=2)
            w, h = rng.uniform(0.2, 4, size=2)
            keys.append(wg.add_obstacle(shapely.box(x, y, x + w, y + h)))
        else:
            wg.remove_obstacle(keys.pop(pick % len(keys)))
        result = plan.path()
        want = oracle_cost(wg, at, goal)
        if np.isinf(want):
            assert not result and result.reason == "unreachable"
            continue
        assert result.cost == pytest.approx(want, rel=1e-9)
        path = result.path
        assert path[0] == at and path[-1] == goal
        open_links = {tuple(p) for p in wg.links.tolist()}
        assert all((min(a, b), max(a, b)) in open_links for a, b in itertools.pairwise(path))
        if walk and len(path) > 1:
            at = path[1]
            plan.move_to(at)


def test_a_replanner_follows_the_graph_it_was_made_from_only() -> None:
    wg = WaypointGraph([(0, 0), (10, 0), (5, 6)], [shapely.box(4, -1, 6, 1)])
    plan = wg.replanner(0, 1)
    assert plan.path().path == [0, 2, 1]
    assert plan.world.version == 0 and plan.world.num_edges == 3  # every candidate pair
    wg.remove_obstacle(0)
    assert plan.path().path == [0, 1] and plan.world.version == 1
    with pytest.raises(ValueError):
        wg.replanner(0, 7)


@pytest.mark.parametrize("radius", [0.0, 0.5])
def test_an_obstacle_edit_under_a_running_sliced_search_cancels_it(radius: float) -> None:
    points = [(x, y) for x in range(0, 40, 4) for y in (-6, 6)]
    wg = WaypointGraph(points, [shapely.box(x, -1, x + 1, 1) for x in range(2, 38, 4)])
    search = wg.start_search((0, 0), (39, 0), radius=radius)
    assert search.step(1) == "in_progress"
    wg.add_obstacle(shapely.box(10, 2, 11, 10))  # closes links the search may use
    with pytest.raises(RuntimeError, match=r"the WaypointGraph changed under this search"):
        search.step()
    assert search.status == "cancelled"
    assert wg.start_search((0, 0), (39, 0), radius=radius).step() == "found"
    # every obstacle edit is a version: one that flips no link of this graph may flip
    # those of a grown one (radius=), so it cancels too
    search = wg.start_search((0, 0), (39, 0), radius=radius)
    assert search.step(1) == "in_progress"
    version = wg.version
    wg.add_obstacle(shapely.box(100, 100, 101, 101))
    assert wg.version == version + 1
    with pytest.raises(WorldChangedError):
        search.step()
