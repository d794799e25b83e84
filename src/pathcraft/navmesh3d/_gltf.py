"""Reading the triangles of a glTF 2.0 level (``.gltf`` or ``.glb``) with pygltflib (the
``mesh3d`` extra): every mesh of the scene placed by its nodes' transforms."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._validation import check_choice

__all__ = ["read_gltf"]

#: The NumPy type of each glTF accessor component type.
_COMPONENTS = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16,
               5125: np.uint32, 5126: np.float32}  # fmt: skip
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
#: glTF primitive modes: 4 triangles, 5 a strip, 6 a fan.
_TRIANGLES, _STRIP, _FAN = 4, 5, 6


def _gltf() -> Any:
    try:
        import pygltflib
    except ImportError as exc:
        raise ImportError(
            "read_gltf needs pygltflib (the mesh3d extra): pip install 'pathcraft[mesh3d]'"
        ) from exc
    return pygltflib


def read_gltf(
    path: str | os.PathLike[str], up: str = "y"
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
    """Read the triangles of a glTF 2.0 file (``.gltf`` with its buffers, or ``.glb``)
    as world points ``(x, y, z)``, z up.

    Every mesh of the default scene (every scene's root nodes when there is no
    default) is placed by its node's transform and its parents' (``matrix``, or
    ``translation``, ``rotation``, ``scale``); triangle lists, strips and fans are
    read; points, lines and Draco-compressed or sparse data are refused.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    up : {"y", "z"}
        The file's up axis: ``"y"`` (glTF's own convention), a point ``(X, Y, Z)``
        becomes ``(X, -Z, Y)``, a rotation that keeps handedness and faces' winding;
        ``"z"``: taken as it is.

    Returns
    -------
    vertices : ndarray of float64, shape (n, 3)
    triangles : ndarray of int32, shape (t, 3)

    Raises
    ------
    ImportError
        Without pygltflib, naming the ``mesh3d`` extra.
    ValueError
        A bad ``up``, or what the reader does not read (named).

    Examples
    --------
    >>> from pathcraft.navmesh3d import read_gltf
    >>> read_gltf("level.glb", up="x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: up must be one of 'y', 'z'; got 'x'
    """
    check_choice("up", up, ("y", "z"))
    lib = _gltf()
    file = Path(os.fspath(path))
    doc = lib.GLTF2().load(str(file))
    blobs = [_buffer(doc, file, i) for i in range(len(doc.buffers or []))]
    points: list[npt.NDArray[np.float64]] = []
    faces: list[npt.NDArray[np.int64]] = []
    count = 0
    for node, matrix in _placed(doc):
        mesh = doc.meshes[node.mesh]
        for k, prim in enumerate(mesh.primitives):
            where = f"{file}, mesh {node.mesh} primitive {k}"
            mode = _TRIANGLES if prim.mode is None else int(prim.mode)
            if mode not in (_TRIANGLES, _STRIP, _FAN):
                raise ValueError(f"{where}: mode {mode} is not triangles (4, 5 or 6)")
            if prim.extensions and "KHR_draco_mesh_compression" in prim.extensions:
                raise ValueError(f"{where}: Draco-compressed meshes are not read")
            pos = prim.attributes.POSITION
            if pos is None:
                raise ValueError(f"{where}: no POSITION attribute")
            xyz = _accessor(doc, blobs, pos, where).reshape(-1, 3).astype(np.float64)
            if prim.indices is None:
                order = np.arange(xyz.shape[0], dtype=np.int64)
            else:
                order = _accessor(doc, blobs, prim.indices, where).astype(np.int64).ravel()
            if order.size and (order.min() < 0 or order.max() >= xyz.shape[0]):
                raise ValueError(f"{where}: an index is out of range")
            world = xyz @ matrix[:3, :3].T + matrix[:3, 3]
            points.append(world)
            faces.append(_triangles(order, mode) + count)
            count += world.shape[0]
    vertices = np.concatenate(points) if points else np.zeros((0, 3))
    if not np.isfinite(vertices).all():
        raise ValueError(f"{file}: a vertex is not finite")
    if up == "y":
        vertices = np.stack((vertices[:, 0], -vertices[:, 2], vertices[:, 1]), axis=1)
    tris = np.concatenate(faces) if faces else np.zeros((0, 3), dtype=np.int64)
    return np.ascontiguousarray(vertices, dtype=np.float64), tris.astype(np.int32)


def _buffer(doc: Any, file: Path, i: int) -> bytes:
    """The bytes of buffer ``i``: the GLB's binary chunk, a data URI or a file."""
    uri = doc.buffers[i].uri
    if uri is None:
        blob = doc.binary_blob()
        if blob is None:
            raise ValueError(f"{file}: buffer {i} has no data")
        return bytes(blob)
    if uri.startswith("data:"):
        return bytes(doc.get_data_from_buffer_uri(uri))
    return (file.parent / str(uri)).read_bytes()


def _accessor(doc: Any, blobs: list[bytes], index: int, where: str) -> npt.NDArray[Any]:
    """The values of accessor ``index`` as an array of shape (count, width)."""
    acc = doc.accessors[index]
    if acc.sparse is not None:
        raise ValueError(f"{where}: sparse accessors are not read")
    dtype = np.dtype(_COMPONENTS[acc.componentType]).newbyteorder("<")
    width = _WIDTH[acc.type]
    if acc.bufferView is None:
        return np.zeros((acc.count, width), dtype=dtype)
    view = doc.bufferViews[acc.bufferView]
    data = blobs[view.buffer]
    start = (view.byteOffset or 0) + (acc.byteOffset or 0)
    item = dtype.itemsize * width
    stride = view.byteStride or item
    raw = np.frombuffer(data, dtype=np.uint8, count=(acc.count - 1) * stride + item, offset=start)
    rows = np.lib.stride_tricks.as_strided(raw, shape=(acc.count, item), strides=(stride, 1))
    out: npt.NDArray[Any] = np.ascontiguousarray(rows).view(dtype).reshape(acc.count, width)
    return out


def _triangles(order: npt.NDArray[np.int64], mode: int) -> npt.NDArray[np.int64]:
    """The triangles of a primitive's vertex order (a list, a strip or a fan)."""
    if mode == _TRIANGLES:
        return order[: order.size - order.size % 3].reshape(-1, 3)
    k = np.arange(max(order.size - 2, 0))
    if mode == _FAN:
        return np.stack((np.full(k.size, order[0] if order.size else 0), order[k + 1],
                         order[k + 2]), axis=1)  # fmt: skip
    even = k % 2 == 0  # a strip: every other triangle turned back to keep the winding
    a = np.where(even, order[k], order[k + 1])
    b = np.where(even, order[k + 1], order[k])
    return np.stack((a, b, order[k + 2]), axis=1)


def _local(node: Any) -> npt.NDArray[np.float64]:
    """A node's own transform as a 4 x 4 matrix."""
    if node.matrix is not None:
        given: npt.NDArray[np.float64] = np.array(node.matrix, dtype=np.float64)
        local: npt.NDArray[np.float64] = given.reshape(4, 4).T  # column-major
        return local
    out = np.eye(4)
    if node.scale is not None:
        out = np.diag([*node.scale, 1.0]) @ out
    if node.rotation is not None:
        x, y, z, w = node.rotation
        rot = np.array([
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ])  # fmt: skip
        turn = np.eye(4)
        turn[:3, :3] = rot
        out = turn @ out
    if node.translation is not None:
        move = np.eye(4)
        move[:3, 3] = node.translation
        out = move @ out
    return out


def _placed(doc: Any) -> list[tuple[Any, npt.NDArray[np.float64]]]:
    """Every node with a mesh in the scene, and its world transform."""
    if doc.scene is not None and doc.scenes:
        roots = list(doc.scenes[doc.scene].nodes or [])
    elif doc.scenes:
        roots = [n for scene in doc.scenes for n in (scene.nodes or [])]
    else:  # no scene: every node nobody names as a child
        children = {c for node in doc.nodes or [] for c in (node.children or [])}
        roots = [i for i in range(len(doc.nodes or [])) if i not in children]
    out = []
    stack = [(int(i), np.eye(4)) for i in roots]
    seen: set[int] = set()
    while stack:
        i, parent = stack.pop()
        if i in seen:
            raise ValueError(f"node {i} is its own ancestor (a cycle in the scene)")
        seen.add(i)
        node = doc.nodes[i]
        world = parent @ _local(node)
        if node.mesh is not None:
            out.append((node, world))
        stack.extend((int(c), world) for c in node.children or [])
    return out
