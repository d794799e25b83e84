"""A built mesh as named flat arrays, and the checks that make such arrays safe to trust.

:meth:`pathcraft.NavMesh.to_arrays` writes these arrays and
:meth:`pathcraft.NavMesh.from_arrays` reads them back without rebuilding: no convexity,
overlap or portal search, no triangulation. What a file could get wrong and a kernel
would then read out of bounds (an index, a length, a dtype) is checked here, in
vectorised NumPy, before anything else uses the arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.navmesh._build import Topology

__all__ = ["BAKED_ARRAYS", "Arrays", "baked", "check_baked"]

#: The named arrays of a baked mesh.
Arrays = Mapping[str, Any]

#: The arrays of a baked mesh, their dtype and what they hold.
BAKED_ARRAYS: dict[str, tuple[str, str]] = {
    "vertices": ("float64", "(V, 2) vertex coordinates (x, y)"),
    "offsets": ("int64", "(P + 1,) start of each polygon in indices"),
    "indices": ("int32", "(E,) vertex of each polygon corner, counter-clockwise"),
    "neighbour": ("int32", "(E,) polygon across each edge, -1 for a wall"),
    "twin": ("int64", "(E,) place of that edge in the neighbour, -1 for a wall"),
    "corner": ("uint8", "(V,) 1 for vertices on the mesh boundary"),
    "centroids": ("float64", "(P, 2) polygon centroids"),
    "component": ("int32", "(P,) connected component of each polygon"),
}


def baked(
    top: Topology, centroids: npt.NDArray[Any], component: npt.NDArray[Any]
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of :data:`BAKED_ARRAYS` of a mesh, new ones in their dtypes."""
    held: dict[str, npt.NDArray[Any]] = {
        "vertices": top.xy, "offsets": top.poff, "indices": top.pv, "neighbour": top.nbr,
        "twin": top.twin, "corner": top.corner, "centroids": centroids,
        "component": component,
    }  # fmt: skip
    return {name: held[name].astype(dtype, copy=True) for name, (dtype, _) in BAKED_ARRAYS.items()}


def _array(arrays: Mapping[str, Any], name: str) -> npt.NDArray[Any]:
    if name not in arrays:
        raise ValueError(f"a baked navmesh needs the array {name!r}; it is missing")
    arr = np.asarray(arrays[name])
    dtype, what = BAKED_ARRAYS[name]
    if arr.dtype != np.dtype(dtype):
        raise ValueError(f"{name} must be {dtype} ({what}); got dtype {arr.dtype}")
    return np.ascontiguousarray(arr)


def _in_range(name: str, arr: npt.NDArray[Any], low: int, high: int) -> None:
    if arr.size and (int(arr.min()) < low or int(arr.max()) >= high):
        raise ValueError(f"{name} holds values outside [{low}, {high - 1}]")


def _shape(name: str, arr: npt.NDArray[Any], shape: tuple[int, ...]) -> None:
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}; got {arr.shape}")


def check_baked(arrays: Mapping[str, Any]) -> tuple[Topology, dict[str, Any]]:
    """Check the arrays of a baked mesh; return its topology and the derived arrays
    (``centroids``, ``component``).

    Raises ``ValueError`` naming the first array that is missing, of the wrong dtype
    or shape, or holds an index out of range."""
    a = {name: _array(arrays, name) for name in BAKED_ARRAYS}
    xy, poff, pv = a["vertices"], a["offsets"], a["indices"]
    if xy.ndim != 2 or xy.shape[1] != 2 or xy.shape[0] < 3:
        raise ValueError(f"vertices must have shape (V, 2) with V >= 3; got {xy.shape}")
    if not np.isfinite(xy).all():
        raise ValueError("vertices must be finite")
    if poff.ndim != 1 or poff.size < 2 or poff[0] != 0:
        raise ValueError("offsets must be 1-D, start at 0 and hold at least two entries")
    sizes = np.diff(poff)
    if (sizes < 3).any():
        raise ValueError("offsets must give every polygon at least 3 corners")
    num_polys, num_edges = poff.size - 1, int(poff[-1])
    _shape("indices", pv, (num_edges,))
    _in_range("indices", pv, 0, xy.shape[0])
    for name in ("neighbour", "twin"):
        _shape(name, a[name], (num_edges,))
    _in_range("neighbour", a["neighbour"], -1, num_polys)
    _in_range("twin", a["twin"], -1, num_edges)
    if ((a["neighbour"] < 0) != (a["twin"] < 0)).any():
        raise ValueError("neighbour and twin must mark the same edges as walls (-1)")
    _shape("corner", a["corner"], (xy.shape[0],))
    _shape("centroids", a["centroids"], (num_polys, 2))
    _shape("component", a["component"], (num_polys,))
    _in_range("component", a["component"], 0, num_polys)
    poly_of = np.repeat(np.arange(num_polys, dtype=np.int32), sizes)
    has = a["neighbour"] >= 0
    twin = a["twin"][has]
    if (a["neighbour"][twin] != poly_of[has]).any() or (
        a["twin"][twin] != np.flatnonzero(has)
    ).any():
        raise ValueError("neighbour and twin must pair every portal with its reverse edge")
    degree = np.bincount(poly_of[has], minlength=num_polys).astype(np.int32)
    top = Topology(
        xy=xy, poff=poff, pv=pv, nbr=a["neighbour"], twin=a["twin"], poly_of=poly_of,
        corner=a["corner"], degree=degree,
    )  # fmt: skip
    return top, {"centroids": a["centroids"], "component": a["component"]}
