"""Input checks and conversions of :class:`pathcraft.graph.Graph`.

Edge arrays, weights, coordinates and labels are checked here, before any compiled
code runs, with messages naming the argument; adjacency mappings, networkx graphs and
scipy sparse matrices are turned into edge arrays.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "Edges",
    "adjacency_edges",
    "coordinate_array",
    "edge_endpoints",
    "label_index",
    "networkx_edges",
    "node_count",
    "scipy_edges",
    "weight_array",
]

#: Edge arrays in input order: sources, targets (node indices) and weights.
Edges = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]

_MAX_NODES = 2**31 - 2  # node and edge indices are int32 in the kernel


def node_count(num_nodes: Any) -> int:
    """Check the number of nodes: an integer in ``[0, 2**31 - 2]``."""
    if isinstance(num_nodes, bool) or not isinstance(num_nodes, numbers.Integral):
        raise TypeError(f"num_nodes must be an integer >= 0; got {num_nodes!r}")
    if not 0 <= int(num_nodes) <= _MAX_NODES:
        raise ValueError(f"num_nodes must be in [0, {_MAX_NODES}]; got {num_nodes!r}")
    return int(num_nodes)


def edge_endpoints(name: str, values: Any, n: int) -> npt.NDArray[np.intp]:
    """A 1-D integer array of node indices, each in ``[0, n)``."""
    arr = _ids_below(
        name, values, n, "node indices",
        f"is not a node: node indices run from 0 to {n - 1} (the graph has {n} nodes)",
    )  # fmt: skip
    if arr.shape[0] > _MAX_NODES:
        raise ValueError(f"{name} has {arr.shape[0]} edges; at most {_MAX_NODES} are supported")
    return arr.astype(np.intp, copy=True)


def edge_ids(values: Any, m: int) -> npt.NDArray[np.intp]:
    """A 1-D integer array of edge ids (places in the input order of the edges), each
    in ``[0, m)``; errors name ``edges`` and say how many edges there are."""
    arr = _ids_below(
        "edges", values, m, "edge ids",
        f"is not an edge id: edge ids are places in Graph.edges, from 0 to {m - 1} "
        f"(the graph has {m} edges)",
    )  # fmt: skip
    return arr.astype(np.intp, copy=True)


def _ids_below(name: str, values: Any, n: int, kind: str, outside: str) -> npt.NDArray[Any]:
    """``values`` as a 1-D integer array of ``kind``, each in ``[0, n)``; the first one
    outside is refused as ``name[i] = value`` followed by ``outside``."""
    arr = _index_array(name, values, kind)
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name}[{i}] = {int(arr[i])} {outside}")
    return arr


def _index_array(name: str, values: Any, what: str) -> npt.NDArray[Any]:
    """``values`` as a 1-D integer array in its own dtype (an empty one when empty);
    the range is for the caller to check (nothing has wrapped around yet)."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 1-D array of {what}; got {values!r}") from exc
    if arr.size == 0:
        return np.empty(0, dtype=np.intp)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer {what}; got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}")
    return arr


def weight_total(weights: npt.NDArray[np.float64], name: str = "weights") -> None:
    """Refuse weights whose finite sum overflows: every simple path must have a finite
    cost, or a search could report ``found`` with ``cost=inf``."""
    finite = weights[np.isfinite(weights)]
    with np.errstate(over="ignore"):
        total = float(finite.sum())
    if not np.isfinite(total):
        raise ValueError(
            f"{name} are too large: their sum overflows float64 (largest "
            f"{float(finite.max())!r}), so a path could cost inf; weights must be small "
            "enough that every path's cost is finite (np.inf closes an edge)"
        )


def weight_array(
    values: Any,
    m: int,
    *,
    name: str = "weights",
    sources: npt.NDArray[np.intp] | None = None,
    targets: npt.NDArray[np.intp] | None = None,
) -> npt.NDArray[np.float64]:
    """Edge weights as a new float64 array of length ``m``: each >= 0 and not NaN
    (``inf`` closes an edge). None gives unit weights. Errors name the edge."""
    if values is None:
        return np.ones(m)
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 1-D array of numbers; got {values!r}") from exc
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)
    ):
        raise TypeError(f"{name} must hold numbers; got dtype {arr.dtype}")
    if arr.shape != (m,):
        raise ValueError(f"{name} must have shape ({m},), one per edge; got {arr.shape}")
    out = np.array(arr, dtype=np.float64, copy=True)
    bad = np.flatnonzero(~(out >= 0.0))  # negative or NaN
    if bad.size:
        i = int(bad[0])
        edge = ""
        if sources is not None and targets is not None:
            edge = f" (edge {sources[i]} -> {targets[i]})"
        raise ValueError(
            f"{name}[{i}] = {float(out[i])!r}{edge}: weights must be >= 0 and not NaN "
            "(np.inf closes an edge)"
        )
    return out


def coordinate_array(values: Any, n: int) -> npt.NDArray[np.float64] | None:
    """Node coordinates as a new ``(n, 2)`` or ``(n, 3)`` float64 array, all finite."""
    if values is None:
        return None
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"coords must be an array of shape (n, 2) or (n, 3) of numbers; got {values!r}"
        ) from exc
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] not in (2, 3):
        raise ValueError(
            f"coords must have shape ({n}, 2) or ({n}, 3), one (x, y) or (x, y, z) per "
            f"node; got {arr.shape}"
        )
    bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"coords[{i}] = {arr[i].tolist()} is not finite")
    out: npt.NDArray[np.float64] = np.ascontiguousarray(arr).copy()
    return out


def label_index(labels: Sequence[Hashable] | None, n: int) -> dict[Hashable, int] | None:
    """The map from label to node index; None for the default labels ``0 .. n-1``."""
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise TypeError(f"labels must be a sequence of hashable node labels; got {labels!r}")
    items = list(labels)
    if len(items) != n:
        raise ValueError(f"labels must have one label per node ({n}); got {len(items)}")
    index: dict[Hashable, int] = {}
    for i, label in enumerate(items):
        try:
            previous = index.setdefault(label, i)
        except TypeError as exc:
            raise TypeError(f"labels[{i}] = {label!r} is not hashable") from exc
        if previous != i:
            raise ValueError(f"labels[{i}] = {label!r} repeats labels[{previous}]")
    return index


def _mapping_coords(coords: Any, nodes: list[Hashable], index: dict[Hashable, int]) -> Any:
    """Coordinates given as a mapping label -> point, as a list in node order."""
    if not isinstance(coords, Mapping):
        return coords
    missing = [node for node in nodes if node not in coords]
    if missing:
        raise ValueError(f"coords has no position for node {missing[0]!r}")
    return [coords[node] for node in nodes]


def adjacency_edges(
    adjacency: Any, coords: Any, *, directed: bool
) -> tuple[list[Hashable], Edges, Any]:
    """Nodes, edges and coordinates (in node order) from ``{node: {neighbor: weight}}``
    or ``{node: [neighbor, ...]}`` (unit weights)."""
    if not isinstance(adjacency, Mapping):
        raise TypeError(
            "adjacency must be a mapping {node: {neighbor: weight}} or {node: [neighbor, ...]}"
            f"; got {type(adjacency).__name__}"
        )
    nodes = list(adjacency)
    index = {node: i for i, node in enumerate(nodes)}
    src: list[int] = []
    dst: list[int] = []
    wts: list[Any] = []
    seen: dict[tuple[int, int], Any] = {}
    for node, nbrs in adjacency.items():
        if isinstance(nbrs, Mapping):
            pairs: Iterable[tuple[Any, Any]] = nbrs.items()
        elif isinstance(nbrs, Iterable) and not isinstance(nbrs, (str, bytes)):
            pairs = ((nb, 1.0) for nb in nbrs)
        else:
            raise TypeError(
                f"adjacency[{node!r}] must be a mapping {{neighbor: weight}} or a list of "
                f"neighbors; got {nbrs!r}"
            )
        u = index[node]
        for nb, w in pairs:
            v = index.get(nb)
            if v is None:
                raise ValueError(
                    f"adjacency[{node!r}] has an edge to {nb!r}, which is not a node "
                    "(every node must be a key of adjacency)"
                )
            if isinstance(w, bool) or not isinstance(w, numbers.Real):
                raise TypeError(f"adjacency[{node!r}][{nb!r}] must be a number; got {w!r}")
            if not directed:
                key = (min(u, v), max(u, v))
                if key in seen:
                    if seen[key] != w and not (math.isnan(w) and math.isnan(seen[key])):
                        raise ValueError(
                            f"adjacency lists the undirected edge {node!r} - {nb!r} twice "
                            f"with different weights ({seen[key]!r} and {w!r})"
                        )
                    continue
                seen[key] = w
            src.append(u)
            dst.append(v)
            wts.append(w)
    edges = (
        np.asarray(src, dtype=np.intp),
        np.asarray(dst, dtype=np.intp),
        np.asarray(wts, dtype=np.float64),
    )
    return nodes, edges, _mapping_coords(coords, nodes, index)


def networkx_edges(
    graph: Any, weight: str, default_weight: float, coords: Any
) -> tuple[list[Hashable], Edges, Any]:
    """Nodes, edges and coordinates (in node order) from a networkx graph."""
    if not (hasattr(graph, "is_directed") and hasattr(graph, "edges")):
        raise TypeError(f"graph must be a networkx graph; got {type(graph).__name__}")
    nodes = list(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    src: list[int] = []
    dst: list[int] = []
    wts: list[Any] = []
    for u, v, w in graph.edges(data=weight, default=default_weight):
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise TypeError(f"edge {u!r} -> {v!r} has {weight}={w!r}; weights must be numbers")
        src.append(index[u])
        dst.append(index[v])
        wts.append(w)
    if isinstance(coords, str):
        attr = coords
        missing = [node for node in nodes if attr not in graph.nodes[node]]
        if missing:
            raise ValueError(f"node {missing[0]!r} has no {attr!r} attribute (coords={attr!r})")
        coords = [graph.nodes[node][attr] for node in nodes]
    edges = (
        np.asarray(src, dtype=np.intp),
        np.asarray(dst, dtype=np.intp),
        np.asarray(wts, dtype=np.float64),
    )
    return nodes, edges, _mapping_coords(coords, nodes, index)


def scipy_edges(matrix: Any) -> tuple[int, Edges]:
    """The node count and the stored entries (explicit zeros included) of a square
    scipy sparse matrix or array, row by row."""
    if not hasattr(matrix, "tocoo") or not hasattr(matrix, "shape"):
        raise TypeError(
            f"matrix must be a scipy.sparse matrix or array; got {type(matrix).__name__}"
        )
    shape = matrix.shape
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"matrix must be square (n, n); got shape {shape}")
    coo = matrix.tocoo()
    order = np.lexsort((coo.col, coo.row))  # row by row, columns ascending
    rows = np.asarray(coo.row, dtype=np.intp)[order]
    cols = np.asarray(coo.col, dtype=np.intp)[order]
    data = np.asarray(coo.data)[order]
    return int(shape[0]), (rows, cols, data)
