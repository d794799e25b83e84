"""read_gltf: glTF 2.0 levels (.glb and .gltf with a data URI) written here with
pygltflib, read back as z-up triangles, node transforms applied; its errors, and the
refusal naming the mesh3d extra when pygltflib is missing."""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import numpy as np
import pytest

from pathcraft.navmesh3d import NavMesh3D, build, read_gltf

QUAD = np.array([(0, 0, 0), (6, 0, 0), (6, 0, -6), (0, 0, -6)], dtype=np.float32)  # y-up
ORDER = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint16)


def _write(path: Path, *, translation: list[float] | None = None, glb: bool = True) -> None:
    lib = pytest.importorskip("pygltflib")
    blob = QUAD.tobytes() + ORDER.tobytes()
    doc = lib.GLTF2(
        scene=0,
        scenes=[lib.Scene(nodes=[0])],
        nodes=[lib.Node(children=[1], translation=translation), lib.Node(mesh=0)],
        meshes=[lib.Mesh(primitives=[lib.Primitive(attributes=lib.Attributes(POSITION=0),
                                                   indices=1)])],
        accessors=[
            lib.Accessor(bufferView=0, componentType=lib.FLOAT, count=4, type=lib.VEC3,
                         max=QUAD.max(axis=0).tolist(), min=QUAD.min(axis=0).tolist()),
            lib.Accessor(bufferView=1, componentType=lib.UNSIGNED_SHORT, count=6,
                         type=lib.SCALAR),
        ],
        bufferViews=[
            lib.BufferView(buffer=0, byteOffset=0, byteLength=QUAD.nbytes),
            lib.BufferView(buffer=0, byteOffset=QUAD.nbytes, byteLength=ORDER.nbytes),
        ],
        buffers=[lib.Buffer(byteLength=len(blob))],
    )  # fmt: skip
    if glb:
        doc.set_binary_blob(blob)
        doc.save_binary(str(path))
    else:
        doc.buffers[0].uri = (
            "data:application/octet-stream;base64," + base64.b64encode(blob).decode()
        )
        doc.save_json(str(path))


def test_a_glb_level_is_read_z_up_and_built(tmp_path: Path) -> None:
    target = tmp_path / "floor.glb"
    _write(target, translation=[1.0, 2.0, 0.0])
    vertices, triangles = read_gltf(target)
    # (X, Y, Z) -> (X, -Z, Y), after the parent's translation by (1, 2, 0)
    assert vertices.tolist() == [[1, 0, 2], [7, 0, 2], [7, 6, 2], [1, 6, 2]]
    assert triangles.tolist() == [[0, 1, 2], [0, 2, 3]]
    raw, _ = read_gltf(target, up="z")
    assert raw[2].tolist() == [7, 2, -6]
    mesh = NavMesh3D(build(vertices, triangles))
    assert mesh.find_path((3, 2, 2), (5, 4, 2))


def test_a_gltf_with_a_data_uri(tmp_path: Path) -> None:
    target = tmp_path / "floor.gltf"
    _write(target, glb=False)
    vertices, triangles = read_gltf(target)
    assert vertices.shape == (4, 3) and triangles.shape == (2, 3)


def test_without_pygltflib_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygltflib", None)
    with pytest.raises(ImportError, match=r"mesh3d extra"):
        read_gltf("level.glb")
