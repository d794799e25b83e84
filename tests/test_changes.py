"""The "something changed" API: ``version`` and ``changes_since`` on grids, graphs and
waypoint graphs, in the same words."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Grid


def test_grid_logs_each_edit_that_changes_a_cost() -> None:
    grid = Grid(np.ones((4, 5)))
    assert grid.version == 0 and grid.changes_since(0).shape == (0, 2)
    grid[1, 2] = np.inf
    grid[-1, -1] = 3.0
    grid[0, :] = 1.0  # no cost changes: not an edit
    assert grid.version == 2
    assert grid.changes_since(0).tolist() == [[1, 2], [3, 4]]
    assert grid.changes_since(1).tolist() == [[3, 4]]
    grid[np.array([0, 2]), np.array([1, 3])] = 7.0
    grid[grid.cost > 5] = 2.0  # a boolean mask: the 7s and the wall at (1, 2)
    assert grid.changes_since(2).tolist() == [[0, 1], [1, 2], [2, 3]]
    assert grid.changes_since(grid.version).shape == (0, 2)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5),
                          st.sampled_from([1.0, 2.0, np.inf])), max_size=20))  # fmt: skip
def test_grid_changes_are_the_cells_that_differ(edits: list[tuple[int, int, float]]) -> None:
    grid = Grid(np.ones((6, 6)))
    marks = [(grid.version, grid.cost.copy())]
    for r, c, v in edits:
        grid[r, c] = v
        marks.append((grid.version, grid.cost.copy()))
    for version, before in marks:
        differ = np.argwhere(before != grid.cost)
        changed = grid.changes_since(version)
        assert set(map(tuple, differ.tolist())) <= set(map(tuple, changed.tolist()))
        # a cell changed and changed back is reported too; nothing untouched is
        touched = {(r, c) for r, c, _ in edits}
        assert set(map(tuple, changed.tolist())) <= touched


def test_an_old_version_beyond_the_log_answers_every_cell() -> None:
    grid = Grid(np.ones((8, 8)))
    for k in range(200):  # more cells changed than the log keeps
        grid[k % 8, (k // 8) % 8] = float(k % 3 + 1)
    assert grid.changes_since(0).shape == (64, 2)


@pytest.mark.parametrize("bad", [-1, 3, 10])
def test_a_version_out_of_range_is_refused(bad: int) -> None:
    grid = Grid(np.ones((2, 2)))
    grid[0, 0] = 2.0
    with pytest.raises(ValueError, match=r"version must be in \[0, 1\]"):
        grid.changes_since(bad)


def test_a_version_that_is_not_an_integer_is_refused() -> None:
    with pytest.raises(TypeError, match="version must be an integer"):
        Grid(np.ones((2, 2))).changes_since(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="version must be an integer"):
        Graph(2, [0], [1]).changes_since(True)


def test_a_failed_edit_logs_nothing() -> None:
    grid = Grid(np.ones((2, 2)))
    with pytest.raises(ValueError):
        grid[0, 0] = -1.0
    with pytest.raises(IndexError):
        grid[5, 5] = 2.0
    assert grid.version == 0


def test_graph_logs_edge_ids() -> None:
    g = Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0], directed=False)
    g.set_weight(2, 1, 3.0)  # undirected: given either way round
    g.set_weights([np.inf], edges=[0])
    g.set_weights([np.inf, 3.0, 5.0])  # equal to the current weights: no edit
    assert g.version == 2
    assert g.changes_since(0).tolist() == [0, 1] and g.changes_since(1).tolist() == [0]
    with pytest.raises(ValueError):
        g.set_weights([-1.0], edges=[0])
    assert g.version == 2


def test_the_version_survives_pickling() -> None:
    grid = Grid(np.ones((3, 3)))
    grid[1, 1] = np.inf
    copy = pickle.loads(pickle.dumps(grid))
    assert copy.version == 1 and copy.changes_since(0).tolist() == [[1, 1]]
    g = Graph(2, [0], [1])
    g.set_weights([2.0])
    assert pickle.loads(pickle.dumps(g)).changes_since(0).tolist() == [0]


def test_waypoint_graph_logs_links_that_open_or_close() -> None:
    shapely = pytest.importorskip("shapely")
    from pathcraft import WaypointGraph

    wg = WaypointGraph([(0, 0), (10, 0), (0, 10), (10, 10)])
    a = wg.add_obstacle(shapely.box(4, -1, 6, 1))
    b = wg.add_obstacle(shapely.box(4, -2, 6, 2))  # the same link again: no link flips
    # every obstacle edit is a version (a query's radius grows obstacles: an edit that
    # flips none of these links may flip those of the grown ones)
    assert wg.version == 2 and wg.changes_since(0).tolist() == [[0, 1]]
    assert wg.changes_since(1).tolist() == []
    wg.remove_obstacle(a)
    assert wg.version == 3 and wg.changes_since(2).tolist() == []  # still blocked by b
    wg.remove_obstacle(b)
    assert wg.version == 4 and wg.changes_since(3).tolist() == [[0, 1]]
    with pytest.raises(ValueError, match="is not an obstacle id"):
        wg.remove_obstacle(b)  # removing an obstacle twice


def _three_worlds() -> list[object]:
    """A grid, a graph and a waypoint graph, each edited once (version 1)."""
    shapely = pytest.importorskip("shapely")
    from pathcraft import WaypointGraph

    grid = Grid(np.ones((3, 3)))
    grid[1, 1] = np.inf
    graph = Graph(3, [0, 1], [1, 2])
    graph.set_weights([2.0], edges=[0])
    wg = WaypointGraph([(0, 0), (10, 0)])
    wg.add_obstacle(shapely.box(4, -1, 6, 1))
    return [grid, graph, wg]


@pytest.mark.parametrize("bad", [-1, 2, 10**9])
def test_every_world_refuses_a_bad_version_in_the_same_words(bad: int) -> None:
    for world in _three_worlds():
        assert world.version == 1  # type: ignore[attr-defined]
        with pytest.raises(ValueError, match=r"^version must be in \[0, 1\] \(this world's"):
            world.changes_since(bad)  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", [1.0, "1", None, True, np.float64(1.0)])
def test_every_world_refuses_a_version_that_is_not_an_integer(bad: object) -> None:
    for world in _three_worlds():
        with pytest.raises(TypeError, match=r"^version must be an integer; got"):
            world.changes_since(bad)  # type: ignore[attr-defined]


def test_every_world_answers_nothing_for_its_own_version_and_takes_numpy_integers() -> None:
    for world in _three_worlds():
        now = world.version  # type: ignore[attr-defined]
        assert len(world.changes_since(now)) == 0  # type: ignore[attr-defined]
        assert len(world.changes_since(np.int64(0))) == 1  # type: ignore[attr-defined]


def test_the_three_docstrings_have_the_same_shape() -> None:
    pytest.importorskip("shapely")
    from pathcraft import WaypointGraph

    for cls in (Grid, Graph, WaypointGraph):
        doc = cls.changes_since.__doc__ or ""
        for part in ("The same question every editable world answers", "Parameters",
                     "Returns", "Raises", "TypeError", "ValueError", "Examples",
                     "a correct, if unhelpful, answer"):  # fmt: skip
            assert part in " ".join(doc.split()), (cls.__name__, part)
        words = " ".join((cls.version.__doc__ or "").split())
        assert "How many edits the" in words and "give it back to :meth:`changes_since`" in words
