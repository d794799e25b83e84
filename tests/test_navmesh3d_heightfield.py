"""The first half of the 3-D navmesh build: config, compact heightfield, regions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pathcraft.navmesh3d import BuildConfig, build_compact

FLOOR = np.array([[0, 0, 0], [6, 0, 0], [6, 6, 0], [0, 6, 0]], float)
FLOOR_TRIS = np.array([[0, 1, 2], [0, 2, 3]])


def test_config_defaults_are_recastdemo_and_voxel_values_round_as_recast() -> None:
    config = BuildConfig()
    assert (config.cell_size, config.cell_height, config.agent_height) == (0.3, 0.2, 2.0)
    assert (config.agent_radius, config.agent_max_climb, config.agent_max_slope) == (
        0.6,
        0.9,
        45.0,
    )
    v = config.voxels()
    assert v.walkable_height == math.ceil(2.0 / 0.2 - 1e-9) == 10
    assert v.walkable_climb == 4  # floor(0.9 / 0.2) = floor(4.5)
    assert v.walkable_radius == 2  # ceil(0.6 / 0.3)
    assert (v.min_region_area, v.merge_region_area) == (64, 400)
    assert v.max_edge_len == 40
    assert v.detail_sample_dist == pytest.approx(1.8)
    assert v.detail_sample_max_error == pytest.approx(0.2)
    assert v.border_size == 0
    assert BuildConfig(tile_size=32).voxels().border_size == 5


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("cell_size", 0.0, ValueError),
        ("cell_height", -1.0, ValueError),
        ("agent_height", float("nan"), ValueError),
        ("agent_radius", -0.1, ValueError),
        ("agent_max_slope", 91.0, ValueError),
        ("verts_per_poly", 2, ValueError),
        ("verts_per_poly", 4.0, TypeError),
        ("tile_size", -1, ValueError),
        ("edge_max_len", "1", TypeError),
        ("region_min_size", True, TypeError),
    ],
)
def test_config_refuses_bad_values_by_name(name: str, value: object, error: type) -> None:
    with pytest.raises(error, match=name):
        BuildConfig(**{name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("vertices", "triangles", "match"),
    [
        ([[0, 0, float("nan")], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], "vertices must be finite"),
        (FLOOR, [[0, 1, 4]], "triangle 0"),
        (FLOOR, [[0, -1, 2]], "triangle 0"),
        (FLOOR, np.zeros((0, 3), int), "empty"),
        (FLOOR[:, :2], FLOOR_TRIS, r"shape \(n, 3\)"),
        (FLOOR, [[0, 1, 2, 3]], r"shape \(t, 3\)"),
    ],
)
def test_bad_meshes_are_refused_by_name(vertices: object, triangles: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        build_compact(vertices, triangles)  # type: ignore[arg-type]


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="triangles must be integer"):
        build_compact(FLOOR, FLOOR_TRIS.astype(float))
    with pytest.raises(TypeError, match="config"):
        build_compact(FLOOR, FLOOR_TRIS, {"cell_size": 0.3})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bounds"):
        build_compact(FLOOR, FLOOR_TRIS, bounds=[[0, 0, 0], [0, 1, 1]])
    with pytest.raises(ValueError, match="border"):
        build_compact(FLOOR, FLOOR_TRIS, border=-1)
