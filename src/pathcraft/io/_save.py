"""Saving what was built: every world in one file format.

:func:`save` asks the world for its arrays (``world.kind``, ``world.to_arrays()``,
the saving capability of :mod:`pathcraft.world`); :func:`load` finds the class that
registered the file's kind (:func:`pathcraft.world.world_class`) and asks it
(``from_arrays``). Neither knows any world by type.

**The format** (version 2) is a NumPy ``.npz`` archive (an uncompressed zip of
``.npy`` arrays) that loads with ``numpy.load(path, allow_pickle=False)``: nothing in
it is Python objects, so a file cannot run code when it is read. Every file holds:

============ ======== =========================================================
array        dtype    meaning
============ ======== =========================================================
``format``   str      ``"pathcraft.world"``: what the file is
``version``  int64    the format version (2); versions 1 and 2 are read
``kind``     str      ``"grid"``, ``"graph"``, ``"waypoints"``, ``"navmesh"``,
                      ``"hexgrid"``, ``"movesgrid"``, ``"voxelgrid"`` or ``"level"``
``checksum`` str      ``"sha256:<hex>"`` of every other member, in name order, each
                      as its name, length, CRC-32 and ``.npy`` header (dtype,
                      shape): see :mod:`pathcraft.io._archive`
============ ======== =========================================================

files written by ``save(world, path, mappable=True)`` also hold ``mappable`` (bool,
``True``): their arrays are laid out as the world keeps them in memory, so that
``load(path, mmap=True)`` maps them; and by kind:

- ``grid``: ``cost`` (float64, ``(rows, cols)``, ``inf`` for walls) or, in a mappable
  file, ``cost_padded`` instead (float64, ``(rows + 2, cols + 2)``: the costs with a
  border of walls), ``diagonal`` and ``heuristic`` (str); when jump point search's tables were built
  (:meth:`pathcraft.Grid.prepare`), also the eight packed line sets ``jps_rows``,
  ``jps_rows_mirrored``, ``jps_cols``, ``jps_cols_mirrored``, ``jps_forced_rows``,
  ``jps_forced_rows_mirrored``, ``jps_forced_cols``, ``jps_forced_cols_mirrored``
  (uint64, 2-D: see :mod:`pathcraft.grid._packed`), loaded back ready (checked
  against the walls, not rebuilt); when the offline jump table was built
  (``prepare("jps+")``) or the subgoal graph (``prepare("subgoal")``), ``prepare``
  (str, 1-D: ``["jps+", "subgoal"]``) says so and loading
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
  rebuilt;
- ``hexgrid``: ``cost`` (float64, ``(rows, cols)``, ``inf`` for walls) and ``layout``
  (str);
- ``movesgrid``: ``cost``, ``moves`` (int64, ``(k, 2)``: ``dr, dc``), ``factors``
  (float64, ``(k,)``) and, when some moves are forbidden, ``allowed`` (bool,
  ``(rows, cols, k)``);
- ``voxelgrid``: ``cost`` (float64, ``(depth, rows, cols)``), ``connectivity`` (int64)
  and ``diagonal`` (str);
- ``level``: ``cost`` (float64, ``(floors, rows, cols)``), ``diagonal`` (str) and the
  portals: ``portal_entries``, ``portal_exits`` (int64, ``(k, 3)``),
  ``portal_costs`` (float64, ``(k,)``) and ``portal_two_way`` (bool, ``(k,)``).

**Loading** reads the zip itself (:mod:`pathcraft.io._archive`), never through
``numpy.load``: members must be plain ``.npy`` arrays, each once, stored or deflated,
not encrypted, together no larger than ``max_bytes`` (:data:`MAX_LOAD_BYTES`, 4 GiB by
default; checked on the zip directory before anything is read); each ``.npy`` header
is parsed by a strict pattern (no ``eval``) and its shape must be exactly the member's
data before the array is allocated; every member is read to its end, so its CRC-32 is
checked; then the checksum of a version 2 file must match, so a damaged file never
loads as another world (a dropped, renamed or added member, an edited shape or dtype,
a flipped byte anywhere that shapes the world). Then the header, and the world's
``from_arrays`` checks every array's presence, dtype and shape and builds the world
through its public constructor (a grid's costs and a graph's edges are checked again,
cheaply); a navmesh goes through :meth:`pathcraft.NavMesh.from_arrays`, which checks
indices without rebuilding. A truncated or corrupted file, a file of another version
or kind, a missing array: ``ValueError`` naming the file and what was expected, and
never another exception.

Files of version 1 (pathcraft before the checksum) still load, with the same strict
reading and CRC-32 checks but no checksum over the list of members: save them again
to seal them.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from pathcraft._saved import ArrayFormatError, SavedArrays
from pathcraft.io._archive import (
    CHECKSUM,
    MAX_LOAD_BYTES,
    ArchiveError,
    read_archive,
    write_archive,
)
from pathcraft.io._common import StrPath
from pathcraft.world import kind_of, world_class, world_kinds

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAPPABLE_KINDS",
    "MAX_LOAD_BYTES",
    "READ_VERSIONS",
    "WORLD_KINDS",
    "load",
    "save",
]

#: The ``format`` entry of every file.
FORMAT_NAME = "pathcraft.world"
#: The version this pathcraft writes.
FORMAT_VERSION = 2
#: The versions this pathcraft reads (version 1 files, without a checksum, still load).
READ_VERSIONS = (1, 2)
#: The kinds of world a file can hold (built in; :func:`pathcraft.world.register_kind`
#: adds more).
WORLD_KINDS = world_kinds()
#: The kinds :func:`save` writes with ``mappable=True`` (their ``to_arrays`` takes
#: ``mappable``), which :func:`load` with ``mmap=True`` maps without a copy.
MAPPABLE_KINDS = ("grid",)


def save(world: Any, path: StrPath | BinaryIO, *, mappable: bool = False) -> None:
    """Save a world to one ``.npz`` file: its ``kind`` and ``to_arrays()``.

    The format is described in :mod:`pathcraft.io._save` and in the README; files
    load with :func:`load`, and with ``numpy.load(path, allow_pickle=False)``.

    Parameters
    ----------
    world : Grid, HexGrid, MovesGrid, VoxelGrid, Level, Graph, WaypointGraph or NavMesh
        What to save (any world of a registered kind). A graph's labels must all be
        ``str`` or all ``int``; a waypoint graph with a ``line_of_sight`` callable
        cannot be saved.
    path : str, os.PathLike or binary file
        Where. NumPy adds ``.npz`` to a file name without it.
    mappable : bool
        Write the arrays as the world keeps them in memory, so that
        ``load(path, mmap=True)`` maps them from the file instead of copying them
        (several processes then share one world: see :func:`load`). A grid writes its
        costs with their border of walls, ``cost_padded`` (``(rows + 2, cols + 2)``),
        instead of ``cost``. Only grids have such a layout (``"grid"`` files); other
        kinds are refused.

    Raises
    ------
    TypeError
        Anything else than a world; labels or callables a file cannot hold;
        ``mappable`` not a bool.
    ValueError
        ``mappable=True`` for a world without a mappable layout.

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
    kind = kind_of(world)
    if kind is None:
        raise TypeError(
            "world must be a pathcraft Grid, Graph, WaypointGraph, NavMesh, HexGrid, "
            f"MovesGrid, VoxelGrid or Level; got {type(world).__name__}"
        )
    if not isinstance(mappable, bool):
        raise TypeError(f"mappable must be True or False; got {mappable!r}")
    if mappable:
        if kind not in MAPPABLE_KINDS:
            raise ValueError(
                f"mappable=True: a {kind} has no layout that loads without a copy; "
                f"the kinds that have one: {list(MAPPABLE_KINDS)}"
            )
        arrays = world.to_arrays(mappable=True)
    else:
        arrays = world.to_arrays()
    header: dict[str, Any] = {
        "format": np.array(FORMAT_NAME),
        "version": np.array(FORMAT_VERSION, dtype=np.int64),
        "kind": np.array(kind),
    }
    if mappable:
        header["mappable"] = np.array(True)
    target: Any = path
    if isinstance(path, (str, os.PathLike)):
        target = os.fspath(path)
        target = target if target.endswith(".npz") else f"{target}.npz"
    clash = set(arrays) & {*header, CHECKSUM}
    if clash:
        raise TypeError(f"{kind}.to_arrays() must not name its arrays {sorted(clash)}")
    write_archive(target, {**header, **arrays})


class _Archive(SavedArrays):
    """The arrays of an opened file, each checked as it is taken."""

    def __init__(self, where: str, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        super().__init__(arrays, "world")
        self.where = where

    def error(self, message: str) -> ValueError:
        return ValueError(f"{self.where}: {message}")

    def take(
        self, name: str, dtype: str, ndim: int | None = None, *, optional: bool = False
    ) -> Any:
        try:
            return super().take(name, dtype, ndim, optional=optional)
        except ArrayFormatError as exc:
            raise self.error(str(exc)) from exc


def _read_all(
    path: StrPath | BinaryIO, where: str, max_bytes: int, mmap: bool = False
) -> dict[str, npt.NDArray[Any]]:
    source: Any = os.fspath(path) if isinstance(path, (str, os.PathLike)) else path
    try:
        arrays, digest = read_archive(source, max_bytes, mmap=mmap)
    except ArchiveError as exc:
        raise ValueError(
            f"{where}: not a readable pathcraft world file (truncated or corrupted?): {exc}"
        ) from exc
    version = arrays.get("version")
    if version is not None and version.shape == () and version.dtype.kind in "iu" and (
        int(version) >= 2
    ):
        sealed = arrays.pop(CHECKSUM, None)
        if sealed is None or sealed.shape != () or sealed.dtype.kind != "U":
            raise ValueError(
                f"{where}: not a readable pathcraft world file (truncated or corrupted?): "
                f"its {CHECKSUM!r} is missing or damaged"
            )
        if not hmac.compare_digest(str(sealed.item()), digest):
            raise ValueError(
                f"{where}: not a readable pathcraft world file (truncated or corrupted?): "
                "its checksum does not match its contents"
            )
    return arrays


def load(
    path: StrPath | BinaryIO, *, max_bytes: int = MAX_LOAD_BYTES, mmap: bool = False
) -> Any:
    """Load a world saved by :func:`save`, through its class's ``from_arrays``.

    Parameters
    ----------
    path : str, os.PathLike or binary file
        The ``.npz`` file (a file object is read from where it stands).
    max_bytes : int
        The most the world's arrays may take, all together, in bytes (as the file's zip
        directory declares them, checked before anything is read): a larger file is
        refused. :data:`MAX_LOAD_BYTES` (4 GiB) by default; raise it for larger worlds.
    mmap : bool
        Map the world's large arrays from the file instead of reading them into this
        process's memory (``path`` must be a file name, the file saved with
        ``save(world, path, mappable=True)``). Pages are read as the searches touch
        them and shared by every process that maps the file, so worker processes
        serving one large world hold it once (the recipe is in the guide to batches).
        The mapping is copy on write: editing the loaded world changes this process's
        copy of the touched pages, never the file. Every check of a normal load still
        runs (CRC-32s over the mapped data, the checksum, the costs), reading the file
        once through the shared page cache.

    Returns
    -------
    world
        Of the class that saved it, equal to what was saved: the same costs, edges,
        labels, links, portals and polygons, so every query gives the same answer. A
        waypoint graph comes back with the obstacles as they were tested (already
        grown by the agent radius) and ``agent_radius`` 0, its obstacle ids renumbered
        ``0 .. k-1`` in id order.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not a pathcraft world file; a truncated or corrupted one (bad zip, bad CRC, a
        checksum that does not match, a damaged ``.npy`` header, a member missing,
        added or twice, encrypted or of an unknown compression, arrays of Python
        objects); arrays larger than ``max_bytes``; a file of another format version,
        an unknown kind, a missing array or one of the wrong dtype or shape. The
        message names the file and what was expected. A damaged file raises nothing
        else, and never loads as another world.
        With ``mmap=True``: a file saved without ``mappable=True``.
    TypeError
        ``max_bytes`` is not an int; ``mmap`` is not a bool; ``mmap=True`` with a file
        object.

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
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        raise TypeError(f"max_bytes must be an int; got {type(max_bytes).__name__}")
    if max_bytes < 0:
        raise ValueError(f"max_bytes must be >= 0; got {max_bytes}")
    if not isinstance(mmap, bool):
        raise TypeError(f"mmap must be True or False; got {mmap!r}")
    if mmap and not isinstance(path, (str, os.PathLike)):
        raise TypeError("mmap=True maps a file: give its name, not a file object")
    archive = _Archive(where, _read_all(path, where, max_bytes, mmap))
    if (
        "format" not in archive.arrays
        or archive.arrays["format"].dtype.kind != "U"
        or (archive.arrays["format"].ndim != 0 or archive.arrays["format"].item() != FORMAT_NAME)
    ):
        raise archive.error(f"not a pathcraft world file: it has no 'format' entry {FORMAT_NAME!r}")
    version = archive.take("version", "int", 0)
    if version not in READ_VERSIONS:
        raise archive.error(
            f"written in pathcraft world format version {version}; this pathcraft reads "
            f"versions {READ_VERSIONS[0]} to {READ_VERSIONS[-1]}: save the world again with "
            "this version"
        )
    kind = archive.take("kind", "str", 0)
    cls = world_class(kind)
    if cls is None:
        raise archive.error(f"unknown kind {kind!r}; expected one of {list(world_kinds())}")
    archive.kind = kind
    flag = archive.arrays.get("mappable")
    mapped = flag is not None and flag.shape == () and flag.dtype == np.bool_ and bool(flag)
    if mmap and not mapped:
        raise archive.error(
            "mmap=True: this file has no array laid out to be mapped; save the world "
            "with save(world, path, mappable=True) (for the kinds "
            f"{list(MAPPABLE_KINDS)})"
        )
    try:
        return cls.from_arrays(archive.arrays)  # type: ignore[attr-defined]
    except ArrayFormatError as exc:
        raise archive.error(str(exc)) from exc
    except (TypeError, ValueError) as exc:
        if str(exc).startswith(f"{where}:"):
            raise
        raise archive.error(f"a bad saved {kind}: {exc}") from exc
