"""Moving AI ``.map`` files: a grid of characters under a four-line header, read into a
:class:`~pathcraft.grid.Grid` (the characters are parsed by :mod:`pathcraft._movingai`)."""

from __future__ import annotations

from pathcraft._movingai import BLOCKED_CHARS, PASSABLE_CHARS, StrPath, read_walkable
from pathcraft.grid import Diagonal, Grid

__all__ = ["BLOCKED_CHARS", "PASSABLE_CHARS", "read_map", "read_walkable"]


def read_map(path: StrPath, *, diagonal: Diagonal = "no_corner_cut") -> Grid:
    """Read a Moving AI ``.map`` file into a :class:`~pathcraft.grid.Grid` of unit costs.

    Passable cells cost 1, blocked cells are walls (see :func:`read_walkable`). With
    the default ``diagonal="no_corner_cut"`` (8-connected, no corner cutting) the
    grid follows the rules the published optimal lengths assume.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.map`` file.
    diagonal : {"never", "no_corner_cut", "one_free", "always"}
        The grid's diagonal-move rule.

    Returns
    -------
    Grid

    Raises
    ------
    OSError, ValueError
        As :func:`read_walkable`; ``ValueError`` also for an unknown ``diagonal``.

    Examples
    --------
    >>> from pathcraft.io import bundled_map, read_map
    >>> grid = read_map(bundled_map())
    >>> grid.shape, grid.diagonal
    ((209, 281), 'no_corner_cut')
    """
    return Grid.from_walkable(read_walkable(path), diagonal=diagonal)
