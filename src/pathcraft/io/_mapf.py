"""The multi-agent benchmark's scenario files: a k-agent instance is the map plus the
first k lines of a ``.scen`` file (Stern, Sturtevant, Felner et al., SoCS 2019)."""

from __future__ import annotations

import numbers
import os
from pathlib import Path

import numpy as np

from pathcraft._movingai import read_walkable
from pathcraft.grid import Diagonal, Grid
from pathcraft.io._common import StrPath, file_error
from pathcraft.io._scen import read_scen

__all__ = ["read_mapf_scen"]

Cell = tuple[int, int]


def _mapf_map(scen_path: Path, map_name: str) -> Path:
    """The map a scenario file names: beside it, or in ``../maps/``."""
    name = Path(map_name.replace("\\", "/")).name
    places = [scen_path.parent / name, scen_path.parent.parent / "maps" / name]
    for place in places:
        if place.is_file():
            return place
    looked = ", ".join(str(place) for place in places)
    raise FileNotFoundError(
        f"no map {name!r} for {os.fspath(scen_path)}: looked at {looked} (pass map_path=)"
    )


def _data_lines(path: Path) -> list[int]:
    """The 1-based line numbers of the non-empty lines after the version line."""
    lines = path.read_bytes().split(b"\n")
    return [i for i, line in enumerate(lines[1:], start=2) if line.strip()]


def read_mapf_scen(
    scen_path: StrPath,
    k: int | None = None,
    map_path: StrPath | None = None,
    *,
    diagonal: Diagonal = "never",
) -> tuple[Grid, list[Cell], list[Cell]]:
    """Read a k-agent instance of the MAPF benchmark: the map and the first ``k`` lines.

    Agent ``i`` is the ``i``-th line after the header; the file's ``x`` is the column
    and ``y`` the row, returned as cells ``(row, col)``. The file's optimal lengths are
    single-agent octile numbers, not MAPF costs, and are not returned (use
    :func:`pathcraft.mapf.lower_bound`).

    Parameters
    ----------
    scen_path : str or os.PathLike
        A ``.scen`` file (version 1), e.g. ``random-32-32-20-random-1.scen``.
    k : int or None
        The number of agents (the first ``k`` lines); None: every line.
    map_path : str or os.PathLike or None
        The ``.map`` file; None: the file the scenario names, looked for beside the
        scenario file, then in ``../maps/`` (the benchmark's layout).
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The grid's move rule: ``"never"`` (4-connected) is the benchmark's.

    Returns
    -------
    grid : Grid
        Unit costs, walls where the map is blocked.
    starts, goals : list of (row, col)
        One per agent.

    Raises
    ------
    OSError
        A file cannot be read; ``FileNotFoundError`` when no map is found (the message
        lists where it looked).
    ValueError
        A malformed file (as :func:`read_scen`), a map whose size differs from the
        file's, a start or goal on a blocked cell, ``k`` outside ``1 ..`` the number of
        lines; the message names the file and the 1-based line.
    TypeError
        ``k`` is not an int.

    Examples
    --------
    >>> from pathcraft.io import bundled_scen, read_mapf_scen
    >>> grid, starts, goals = read_mapf_scen(bundled_scen(), k=3)
    >>> grid.shape, grid.diagonal, starts[0], goals[0]
    ((209, 281), 'never', (159, 99), (162, 101))
    """
    path = Path(scen_path)
    scen = read_scen(path)
    if k is not None:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"k must be an int or None; got {k!r}")
        if not 1 <= k <= len(scen):
            raise ValueError(f"k must be from 1 to {len(scen)} (the lines of {path}); got {k}")
        scen = scen[: int(k)]
    where = Path(map_path) if map_path is not None else _mapf_map(path, scen.map_name)
    walkable = read_walkable(where)
    if walkable.shape != (scen.height, scen.width):
        raise file_error(
            path,
            _data_lines(path)[0],
            f"the map {where.name} is {walkable.shape[1]} wide and {walkable.shape[0]} "
            f"high; the file says {scen.width} x {scen.height}",
        )
    for name, cells in (("start", scen.starts), ("goal", scen.goals)):
        blocked = ~walkable[cells[:, 0], cells[:, 1]]
        if blocked.any():
            i = int(np.argmax(blocked))
            cell = (int(cells[i, 0]), int(cells[i, 1]))
            raise file_error(
                path, _data_lines(path)[i], f"{name} {cell} (row, col) is a blocked cell"
            )
    grid = Grid.from_walkable(walkable, diagonal=diagonal)
    starts = [(int(r), int(c)) for r, c in scen.starts.tolist()]
    goals = [(int(r), int(c)) for r, c in scen.goals.tolist()]
    return grid, starts, goals
