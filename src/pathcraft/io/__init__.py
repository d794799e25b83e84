"""Moving AI grid benchmark files: ``.map`` grids and ``.scen`` scenario lists.

The Moving AI Lab benchmarks (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding",
IEEE TCIAIG 4(2):144-148, 2012; movingai.com/benchmarks) are the standard test set for
grid pathfinding. This module reads them into NumPy arrays:

- :func:`read_walkable` reads a ``.map`` file into a boolean ``(height, width)`` array;
- :func:`read_map` builds a :class:`~pathcraft.grid.Grid` from it;
- :func:`read_scen` reads a ``.scen`` file into :class:`Scenarios`;
- :func:`lengths_match` compares path costs with the published optimal lengths;
- :func:`map_for_scen` finds the map of a scenario file;
- :func:`read_mapf_scen` reads a k-agent instance of the multi-agent benchmark;
- :func:`bundled_map` and :func:`bundled_scen` locate the small map shipped with the
  package (Dragon Age: Origins, ``arena2``).

Game levels and what was built (see the README's "Game maps" section):

- :func:`read_tiled` (:mod:`pathcraft.io.tiled`): Tiled maps (``.tmx``/``.json``) to
  grids, shapes, waypoints; :func:`bundled_level` the small level shipped with pathcraft;
- :func:`read_ldtk` (:mod:`pathcraft.io.ldtk`): LDtk levels (``.ldtk``) to grids,
  spawns, waypoints; :func:`bundled_ldtk` the small project shipped with pathcraft;
- :func:`grid_from_zero_walls`: tcod / python-pathfinding arrays (0 is a wall);
- :func:`read_image`: a level painted as an image (colour table or threshold);
- :func:`save` and :func:`load`: grids, graphs, waypoint graphs and navmeshes in one
  versioned ``.npz`` format that loads without pickle (see :mod:`pathcraft.io._save`).

Coordinates: the files speak ``x`` = column and ``y`` = row. Everything returned here is
in pathcraft's ``(row, col)`` order; the conversion happens once, in :func:`read_scen`.

Errors in a file raise ``ValueError`` naming the file and the 1-based line (and column
for a bad map cell), so a broken file can be fixed in an editor.

Examples
--------
>>> from pathcraft.io import bundled_map, bundled_scen, read_scen, read_walkable
>>> walkable = read_walkable(bundled_map())
>>> walkable.shape                      # (height, width)
(209, 281)
>>> scen = read_scen(bundled_scen())
>>> len(scen), scen.starts[0].tolist()  # (row, col) of the first problem's start
(910, [159, 99])
>>> bool(walkable[tuple(scen.starts.T)].all())
True
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from pathcraft.io._common import StrPath
from pathcraft.io._levels import grid_from_zero_walls, read_image
from pathcraft.io._map import BLOCKED_CHARS, PASSABLE_CHARS, read_map, read_walkable
from pathcraft.io._mapf import read_mapf_scen
from pathcraft.io._save import FORMAT_VERSION, MAPPABLE_KINDS, MAX_LOAD_BYTES, load, save
from pathcraft.io._scen import LENGTH_RTOL, Scenarios, lengths_match, read_scen
from pathcraft.io.ldtk import LdtkLevel, bundled_ldtk, read_ldtk
from pathcraft.io.tiled import TiledLevel, bundled_level, read_tiled

__all__ = [
    "BLOCKED_CHARS",
    "FORMAT_VERSION",
    "LENGTH_RTOL",
    "MAPPABLE_KINDS",
    "MAX_LOAD_BYTES",
    "PASSABLE_CHARS",
    "LdtkLevel",
    "Scenarios",
    "TiledLevel",
    "bundled_ldtk",
    "bundled_level",
    "bundled_map",
    "bundled_scen",
    "grid_from_zero_walls",
    "lengths_match",
    "load",
    "map_for_scen",
    "read_image",
    "read_ldtk",
    "read_map",
    "read_mapf_scen",
    "read_scen",
    "read_tiled",
    "read_walkable",
    "save",
]

_DATA = "data"
_MAP_NAME = "arena2.map"
_SCEN_NAME = "arena2.map.scen"


def map_for_scen(scen_path: StrPath) -> Path:
    """The ``.map`` file of a scenario file, found from the scenario file's own name.

    The map's name is the scenario file's name without ``.scen``
    (``arena2.map.scen`` -> ``arena2.map``). The map field inside the file is not used:
    it is only a label and its form differs between releases. Places looked at, in
    order:

    1. ``<root>/maps/<family>/<name>`` when the scenario file is
       ``<root>/scen/<family>/<name>.scen`` (the layout of the Moving AI downloads);
    2. ``<name>`` beside the scenario file.

    Parameters
    ----------
    scen_path : str or os.PathLike
        The ``.scen`` file (it need not exist).

    Returns
    -------
    pathlib.Path
        The first place that holds a file.

    Raises
    ------
    ValueError
        The name does not end in ``.scen``.
    FileNotFoundError
        No map in any of the places; the message lists them.

    Examples
    --------
    >>> from pathcraft.io import bundled_map, bundled_scen, map_for_scen
    >>> map_for_scen(bundled_scen()) == bundled_map()
    True
    """
    scen = Path(scen_path)
    if not scen.name.endswith(".scen") or scen.name == ".scen":
        raise ValueError(f"scen_path must name a .scen file; got {os.fspath(scen_path)!r}")
    name = scen.name[: -len(".scen")]
    places = []
    if scen.parent.parent.name == "scen":
        places.append(scen.parent.parent.parent / "maps" / scen.parent.name / name)
    places.append(scen.parent / name)
    for place in places:
        if place.is_file():
            return place
    looked = ", ".join(str(place) for place in places)
    raise FileNotFoundError(f"no map {name!r} for {os.fspath(scen_path)}: looked at {looked}")


def _bundled(name: str) -> Path:
    # pathcraft ships compiled extensions, so it is always installed as plain files
    # (never run from a zip): the resource is a real path.
    return Path(str(files("pathcraft") / _DATA / name))


def bundled_map() -> Path:
    """The path of the bundled Moving AI map ``arena2.map`` (Dragon Age: Origins).

    281 columns by 209 rows; see ``pathcraft/data/README.md`` for its origin.

    Examples
    --------
    >>> from pathcraft.io import bundled_map
    >>> bundled_map().name
    'arena2.map'
    """
    return _bundled(_MAP_NAME)


def bundled_scen() -> Path:
    """The path of the bundled scenario file ``arena2.map.scen`` (910 problems).

    Examples
    --------
    >>> from pathcraft.io import bundled_scen
    >>> bundled_scen().name
    'arena2.map.scen'
    """
    return _bundled(_SCEN_NAME)
