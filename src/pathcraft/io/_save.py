"""Saving what was built: grids, graphs, waypoint graphs and navmeshes in one file format.

**The format** (version 1) is a NumPy ``.npz`` archive (a zip of ``.npy`` arrays, each
with its CRC-32) that loads with ``allow_pickle=False``: nothing in it is Python
objects, so a file cannot run code when it is read. Every file holds:

========== ======== ===========================================================
array      dtype    meaning
========== ======== ===========================================================
``format`` str      ``"pathcraft.world"``: what the file is
``version`` int64   the format version (1); another version is refused on load
``kind``   str      ``"grid"``, ``"graph"``, ``"waypoints"`` or ``"navmesh"``
========== ======== ===========================================================

and by kind:

- ``grid``: ``cost`` (float64, ``(rows, cols)``, ``inf`` for walls), ``diagonal`` and
  ``heuristic`` (str); when jump point search's tables were built
  (:meth:`pathcraft.Grid.prepare`), also the eight packed line sets ``jps_rows``,
  ``jps_rows_mirrored``, ``jps_cols``, ``jps_cols_mirrored``, ``jps_forced_rows``,
  ``jps_forced_rows_mirrored``, ``jps_forced_cols``, ``jps_forced_cols_mirrored``
  (uint64, 2-D: see :mod:`pathcraft.grid._packed`), loaded back ready (checked
  against the walls, not rebuilt); when the offline jump table was built
  (``prepare("jps+")``), ``prepare`` (str, 1-D: ``["jps+"]``) says so and loading
  builds it again (checking a saved table would cost as much as building it). They
  are optional arrays of version 1: a file without them loads as before, and a
  reader that does not know them ignores them;
- ``graph``: ``num_nodes`` (int64), ``sources``, ``targets`` (int64, node indices),
  ``weights`` (float64), ``directed`` (bool), optional ``coords`` (float64,
  ``(n, 2)`` or ``(n, 3)``) and ``labels`` (str or int64, one per node);
- ``waypoints``: ``points`` (float64, ``(n, 2)``), the obstacles as tested (grown by
  the agent radius) in ``obstacles_wkb`` (uint8, concatenated WKB) cut by
  ``obstacles_offsets`` (int64), ``max_distance`` (float64, NaN for none) and
  ``agent_radius`` (float64, what the obstacles were grown by);
- ``navmesh``: the arrays of :meth:`pathcraft.NavMesh.to_arrays` (vertices, polygons,
  portals, centroids, components; optional ``area_costs``, float64 ``(P,)``, when the
  mesh has area costs; optional ``link_ids`` int64 ``(L,)``, ``link_points`` float64
  ``(L, 4)`` (``ax, ay, bx, by``), ``link_costs`` float64 ``(L,)`` and ``link_two_way``
  bool ``(L,)``, all four when it has off-mesh links): a saved mesh loads without being
  rebuilt.

Loading checks the header, every array's presence, dtype and shape, then builds the
world through its public constructor (a grid's costs and a graph's edges are checked
again, cheaply); a navmesh goes through :meth:`pathcraft.NavMesh.from_arrays`, which
checks indices without rebuilding. A truncated or corrupted file, a file of another
version or kind, a missing array: ``ValueError`` naming the file and what was expected.
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from pathcraft.io._common import StrPath

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "WORLD_KINDS", "load", "save"]

#: The ``format`` entry of every file.
FORMAT_NAME = "pathcraft.world"
#: The version this pathcraft writes and reads.
FORMAT_VERSION = 1
#: The kinds of world a file can hold.
WORLD_KINDS = ("grid", "graph", "waypoints", "navmesh")


def _kind_of(world: Any) -> str:
    from pathcraft.graph import Graph
    from pathcraft.grid import Grid

    if isinstance(world, Grid):
        return "grid"
    if isinstance(world, Graph):
        return "graph"
    module = type(world).__module__
    if module.startswith("pathcraft.waypoints") and type(world).__name__ == "WaypointGraph":
        return "waypoints"
    if module.startswith("pathcraft.navmesh") and type(world).__name__ == "NavMesh":
        return "navmesh"
    raise TypeError(
        "world must be a pathcraft Grid, Graph, WaypointGraph or NavMesh; "
        f"got {type(world).__name__}"
    )


def _grid_arrays(grid: Any) -> dict[str, Any]:
    arrays = {
        "cost": np.array(grid.cost, dtype=np.float64),
        "diagonal": np.array(grid.diagonal),
        "heuristic": np.array(grid.heuristic),
    }
    if "jps" in grid.prepared:
        from pathcraft.grid._packed import LINE_NAMES

        lines = grid.jump_tables[1]
        arrays.update({f"jps_{name}": lines[i] for i, name in enumerate(LINE_NAMES)})
    if "jps+" in grid.prepared:
        arrays["prepare"] = np.array(["jps+"])
    return arrays


def _label_array(labels: list[Any], n: int) -> npt.NDArray[Any] | None:
    if labels == list(range(n)):
        return None
    if all(isinstance(x, str) for x in labels):
        return np.array(labels, dtype=str) if labels else np.zeros(0, dtype="<U1")
    if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in labels):
        return np.array(labels, dtype=np.int64)
    kinds = sorted({type(x).__name__ for x in labels})
    raise TypeError(
        "graph labels must all be str or all int to be saved (the file holds no pickled "
        f"objects); got labels of type {', '.join(kinds)}"
    )


def _graph_arrays(graph: Any) -> dict[str, Any]:
    sources, targets, weights = graph.edges
    out: dict[str, Any] = {
        "num_nodes": np.array(graph.num_nodes, dtype=np.int64),
        "sources": sources.astype(np.int64),
        "targets": targets.astype(np.int64),
        "weights": weights.astype(np.float64),
        "directed": np.array(bool(graph.directed)),
    }
    if graph.coords is not None:
        out["coords"] = np.array(graph.coords, dtype=np.float64)
    labels = _label_array(graph.labels, graph.num_nodes)
    if labels is not None:
        out["labels"] = labels
    return out


def _waypoint_arrays(wg: Any) -> dict[str, Any]:
    import shapely

    if wg.line_of_sight is not None:
        raise TypeError(
            "a WaypointGraph with a line_of_sight callable cannot be saved (a file holds "
            "no code); save its points and build it again with the callable"
        )
    shapes = list(wg.obstacles.values())
    wkb = [bytes(b) for b in shapely.to_wkb(np.array(shapes, dtype=object))] if shapes else []
    offsets = np.zeros(len(wkb) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in wkb], out=offsets[1:])
    limit = wg.max_distance
    return {
        "points": np.array(wg.points, dtype=np.float64),
        "obstacles_wkb": np.frombuffer(b"".join(wkb), dtype=np.uint8).copy(),
        "obstacles_offsets": offsets,
        "max_distance": np.array(math.nan if limit is None else limit, dtype=np.float64),
        "agent_radius": np.array(wg.agent_radius, dtype=np.float64),
    }


def save(world: Any, path: StrPath | BinaryIO) -> None:
    """Save a grid, graph, waypoint graph or navmesh to one ``.npz`` file.

    The format is described in :mod:`pathcraft.io._save` and in the README; files
    load with :func:`load`, and with ``numpy.load(path, allow_pickle=False)``.

    Parameters
    ----------
    world : Grid, Graph, WaypointGraph or NavMesh
        What to save. A graph's labels must all be ``str`` or all ``int``; a waypoint
        graph with a ``line_of_sight`` callable cannot be saved.
    path : str, os.PathLike or binary file
        Where. NumPy adds ``.npz`` to a file name without it.

    Raises
    ------
    TypeError
        Anything else than the four worlds; labels or callables a file cannot hold.

    Examples
    --------
    >>> import io
    >>> from pathcraft import Grid
    >>> from pathcraft.io import load, save
    >>> grid = Grid.from_ascii('''
    ... ..#
    ... 3..
    ... ''', diagonal="never")
    >>> buffer = io.BytesIO()
    >>> save(grid, buffer)
    >>> again = load(io.BytesIO(buffer.getvalue()))
    >>> again.cost.tolist(), again.diagonal
    ([[1.0, 1.0, inf], [3.0, 1.0, 1.0]], 'never')
    """
    kind = _kind_of(world)
    if kind == "grid":
        arrays = _grid_arrays(world)
    elif kind == "graph":
        arrays = _graph_arrays(world)
    elif kind == "waypoints":
        arrays = _waypoint_arrays(world)
    else:
        arrays = world.to_arrays()
    header: dict[str, Any] = {
        "format": np.array(FORMAT_NAME),
        "version": np.array(FORMAT_VERSION, dtype=np.int64),
        "kind": np.array(kind),
    }
    target: Any = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    everything: dict[str, Any] = {**header, **arrays}
    np.savez(target, **everything)


class _Archive:
    """The arrays of an opened file, each checked as it is taken."""

    def __init__(self, where: str, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        self.where = where
        self.arrays = arrays
        self.kind = "world"

    def error(self, message: str) -> ValueError:
        return ValueError(f"{self.where}: {message}")

    def take(self, name: str, kind: str, ndim: int | None = None, *, optional: bool = False) -> Any:
        if name not in self.arrays:
            if optional:
                return None
            raise self.error(f"the array {name!r} is missing; a saved {self.kind} has it")
        arr = self.arrays[name]
        ok = {
            "str": arr.dtype.kind == "U",
            "int": arr.dtype.kind in "iu",
            "float": arr.dtype.kind == "f",
            "bool": arr.dtype == np.bool_,
            "uint8": arr.dtype == np.uint8,
        }[kind]
        if not ok or (ndim is not None and arr.ndim != ndim):
            dims = "" if ndim is None else f", {ndim}-D"
            raise self.error(
                f"the array {name!r} must be {kind}{dims}; got dtype {arr.dtype} and "
                f"shape {arr.shape}"
            )
        return arr.item() if arr.ndim == 0 else arr


def _read_all(path: StrPath | BinaryIO, where: str) -> dict[str, npt.NDArray[Any]]:
    source: Any = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    try:
        opened = np.load(source, allow_pickle=False)
        if not isinstance(opened, np.lib.npyio.NpzFile):
            raise ValueError(
                f"{where}: not a pathcraft world file (a single .npy array, not an .npz archive)"
            )
        with opened as npz:
            return {name: npz[name] for name in npz.files}
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        if isinstance(exc, FileNotFoundError) or str(exc).startswith(f"{where}:"):
            raise
        raise ValueError(
            f"{where}: not a readable pathcraft world file (truncated or corrupted?): {exc}"
        ) from exc


def load(path: StrPath | BinaryIO) -> Any:
    """Load a world saved by :func:`save`: a Grid, Graph, WaypointGraph or NavMesh.

    Parameters
    ----------
    path : str, os.PathLike or binary file
        The ``.npz`` file.

    Returns
    -------
    Grid, Graph, WaypointGraph or NavMesh
        Equal to what was saved: the same costs, edges, labels, links and polygons, so
        every query gives the same answer. A waypoint graph comes back with the
        obstacles as they were tested (already grown by the agent radius) and
        ``agent_radius`` 0, its obstacle ids renumbered ``0 .. k-1`` in id order.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not a pathcraft world file, a truncated or corrupted one (bad zip, bad CRC), a
        file of another format version, an unknown kind, a missing array or one of the
        wrong dtype or shape. The message names the file and what was expected.

    Examples
    --------
    >>> import io
    >>> from pathcraft import Graph
    >>> from pathcraft.io import load, save
    >>> roads = Graph.from_adjacency({"a": {"b": 2.0}, "b": {"c": 1.0}, "c": {}})
    >>> buffer = io.BytesIO()
    >>> save(roads, buffer)
    >>> load(io.BytesIO(buffer.getvalue())).dijkstra("a", "c").path
    ['a', 'b', 'c']
    >>> load(io.BytesIO(buffer.getvalue()[:100]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: <file object>: not a readable pathcraft world file (truncated or corrupted?): ...
    """
    where = os.fspath(path) if isinstance(path, (str, os.PathLike)) else "<file object>"
    if isinstance(path, (str, os.PathLike)) and not Path(path).exists():
        raise FileNotFoundError(f"{where}: no such file")
    archive = _Archive(where, _read_all(path, where))
    if (
        "format" not in archive.arrays
        or archive.arrays["format"].dtype.kind != "U"
        or (archive.arrays["format"].ndim != 0 or archive.arrays["format"].item() != FORMAT_NAME)
    ):
        raise archive.error(f"not a pathcraft world file: it has no 'format' entry {FORMAT_NAME!r}")
    version = archive.take("version", "int", 0)
    if version != FORMAT_VERSION:
        raise archive.error(
            f"written in pathcraft world format version {version}; this pathcraft reads "
            f"version {FORMAT_VERSION}: save the world again with this version"
        )
    kind = archive.take("kind", "str", 0)
    if kind not in WORLD_KINDS:
        raise archive.error(f"unknown kind {kind!r}; expected one of {list(WORLD_KINDS)}")
    archive.kind = kind
    try:
        if kind == "grid":
            return _load_grid(archive)
        if kind == "graph":
            return _load_graph(archive)
        if kind == "waypoints":
            return _load_waypoints(archive)
        return _load_navmesh(archive)
    except (TypeError, ValueError) as exc:
        if str(exc).startswith(f"{where}:"):
            raise
        raise archive.error(f"a bad saved {kind}: {exc}") from exc


def _load_grid(a: _Archive) -> Any:
    from pathcraft.grid import Grid
    from pathcraft.grid._packed import LINE_NAMES, PackedLines

    grid = Grid(
        a.take("cost", "float", 2), diagonal=a.take("diagonal", "str", 0),
        heuristic=a.take("heuristic", "str", 0),
    )  # fmt: skip
    if "jps_rows" in a.arrays:
        grid.use_jump_tables(
            PackedLines(*(a.take(f"jps_{name}", "int", 2) for name in LINE_NAMES))
        )
    prepare = a.take("prepare", "str", 1, optional=True)
    if prepare is not None:
        grid.prepare(*prepare.tolist())
    return grid


def _load_graph(a: _Archive) -> Any:
    from pathcraft.graph import Graph

    given = a.arrays.get("labels")
    kind = "int" if given is not None and given.dtype.kind in "iu" else "str"
    labels = a.take("labels", kind, 1, optional=True)
    return Graph(
        int(a.take("num_nodes", "int", 0)), a.take("sources", "int", 1),
        a.take("targets", "int", 1), a.take("weights", "float", 1),
        directed=bool(a.take("directed", "bool", 0)),
        coords=a.take("coords", "float", 2, optional=True),
        labels=None if labels is None else labels.tolist(),
    )  # fmt: skip


def _load_waypoints(a: _Archive) -> Any:
    import shapely

    from pathcraft.waypoints import WaypointGraph

    blob = a.take("obstacles_wkb", "uint8", 1)
    offsets = a.take("obstacles_offsets", "int", 1)
    if (
        offsets.size < 1
        or offsets[0] != 0
        or offsets[-1] != blob.size
        or (np.diff(offsets) < 0).any()
    ):
        raise a.error("obstacles_offsets must rise from 0 to the size of obstacles_wkb")
    data = blob.tobytes()
    pieces = [data[s:e] for s, e in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)]
    try:
        obstacles = list(shapely.from_wkb(pieces)) if pieces else []
    except shapely.errors.GEOSException as exc:
        raise a.error(f"obstacles_wkb holds a broken shape: {exc}") from exc
    limit = float(a.take("max_distance", "float", 0))
    a.take("agent_radius", "float", 0)
    return WaypointGraph(
        a.take("points", "float", 2), obstacles,
        max_distance=None if math.isnan(limit) else limit,
    )  # fmt: skip


def _load_navmesh(a: _Archive) -> Any:
    from pathcraft.navmesh import NavMesh

    return NavMesh.from_arrays(a.arrays)
