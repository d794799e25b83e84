"""``pathcraft.viz.plot_mesh``: what it draws (one polygon per mesh polygon, the
corridor's colour, the paths' points and legend) and its bad input."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from shapely import box

from pathcraft import NavMesh

plt = pytest.importorskip("matplotlib.pyplot")

from matplotlib.collections import PolyCollection  # noqa: E402

from pathcraft.viz import plot_mesh  # noqa: E402
from pathcraft.viz.mesh import _CORRIDOR_RGB, _FLOOR_RGB  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def level() -> NavMesh:
    return NavMesh.from_geometry(box(0, 0, 20, 10).difference(box(8, 0, 12, 7)))


def test_polygons_corridor_and_paths_are_drawn() -> None:
    mesh = level()
    start, goal = (2, 2), (18, 2)
    paths = {
        "funnel": mesh.find_path(start, goal),
        "optimal": mesh.find_path(start, goal, algorithm="optimal"),
    }
    corridor = mesh.corridor(start, goal)
    ax = plot_mesh(mesh, paths, corridor=corridor)
    (polys,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(polys.get_paths()) == mesh.num_polygons
    faces = polys.get_facecolors()[:, :3]
    expected = np.array([_FLOOR_RGB] * mesh.num_polygons, dtype=float) / 255
    expected[corridor.path] = np.array(_CORRIDOR_RGB) / 255
    np.testing.assert_allclose(faces, expected, atol=1e-6)
    drawn = {line.get_label().split(":")[0]: line.get_xydata() for line in ax.get_lines()}
    np.testing.assert_array_equal(drawn["optimal"], paths["optimal"].path)
    np.testing.assert_array_equal(drawn["funnel"], paths["funnel"].path)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [f"funnel: {paths['funnel'].cost:.2f}", f"optimal: {paths['optimal'].cost:.2f}"]
    assert ax.get_title() == f"navigation mesh: {mesh.num_polygons} polygons"


def test_one_result_unreachable_paths_and_inverted_axis() -> None:
    mesh = level()
    ax = plot_mesh(mesh, mesh.find_path((1, 1), (19, 1)), invert_y=True, title="t")
    assert ax.get_ylim()[0] > ax.get_ylim()[1] and ax.get_title() == "t"
    _fig, ax2 = plt.subplots()
    assert plot_mesh(mesh, None, ax2) is ax2 and ax2.get_legend() is None


def test_bad_input() -> None:
    mesh = level()
    with pytest.raises(TypeError, match="paths must be a PathResult, a mapping"):
        plot_mesh(mesh, [1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"paths\['a'\] must be a PathResult"):
        plot_mesh(mesh, {"a": 3})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="corridor names polygon 99"):
        plot_mesh(mesh, corridor=[0, 99])
