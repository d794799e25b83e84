"""A result's short ``repr``, its notebook display and ``plot``."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from pathcraft import Graph, Grid, PathResult


def test_repr_is_one_short_line_without_the_path() -> None:
    grid = Grid(np.ones((200, 200)))
    result = grid.astar((0, 0), (199, 199))
    text = repr(result)
    assert text.startswith("PathResult(found, cost=281.428, 200 nodes, ")
    assert "expanded" in text and "ms)" in text
    assert "\n" not in text and len(text) < 100
    assert "array" not in text
    missed = grid.astar((0, 0), (199, 199), max_expansions=3)
    assert repr(missed).startswith("PathResult(not found (max_expansions), 0 nodes, 3 expanded")
    partial = grid.astar((0, 0), (199, 199), max_expansions=3, partial=True)
    assert ", partial, " in repr(partial)


def test_notebook_display_draws_grid_paths_and_explored_cells() -> None:
    grid = Grid.from_ascii(
        """
        .....
        .###.
        .....
        """
    )
    result = grid.astar((0, 0), (2, 4), record=True)
    html = result._repr_html_()
    assert "<table>" in html and "<svg" in html and "<polyline" in html
    assert html.count("fill='#f6c177'") == result.expanded  # one square per expanded cell
    assert "found</th><td>yes" in html


def test_notebook_display_of_positions_and_labels() -> None:
    positions = PathResult(path=np.array([[0.0, 0.0], [3.0, 4.0]]), cost=5.0, found=True)
    assert "<polyline" in positions._repr_html_()
    graph = Graph.from_adjacency({"a": {"b": 1.0}, "b": {}})
    labels = graph.astar("a", "b")._repr_html_()
    assert "<table>" in labels and "<svg" not in labels  # nothing to draw without coords
    nothing = graph.astar("b", "a")._repr_html_()
    assert "reason</th><td>unreachable" in nothing and "<svg" not in nothing


def test_display_needs_no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    html = Grid(np.ones((3, 3))).astar((0, 0), (2, 2))._repr_html_()
    assert "<svg" in html


def test_plot_draws_on_the_world_and_names_bad_worlds() -> None:
    pytest.importorskip("matplotlib")
    grid = Grid(np.ones((3, 3)))
    result = grid.astar((0, 0), (2, 2), record=True)
    assert result.plot(grid).get_title().startswith("cost 2.83")
    graph = Graph(3, [0, 1], [1, 2], coords=[(0, 0), (1, 0), (2, 0)])
    assert graph.astar(0, 2).plot(graph) is not None
    with pytest.raises(TypeError, match="world must be the world that was searched; got str"):
        result.plot("grid")
