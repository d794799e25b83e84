"""LDtk levels (ldtk.io): IntGrid layers to a Grid, entities to spawns and waypoints.

:func:`read_ldtk` reads one level of a ``.ldtk`` project (plain JSON: no extra needed;
LDtk 1.0 to the current release, and older files from 0.6 on; levels kept in the
project or in external ``.ldtkl`` files beside it) and returns an :class:`LdtkLevel`,
the LDtk twin of :class:`~pathcraft.io.tiled.TiledLevel` (the same words, so a game
can swap one for the other):

- :meth:`LdtkLevel.grid`: the IntGrid layers as a :class:`~pathcraft.Grid`, one cell
  per IntGrid cell. By default every non-empty value is a wall; the caller names the
  values (by number or identifier) that cost something instead, or the walls;
- :meth:`LdtkLevel.entities`, :meth:`LdtkLevel.spawns` and
  :meth:`LdtkLevel.waypoints`: entities chosen by identifier, tag, field values or a
  predicate, as positions in level pixels (their centres) and cells;
- :attr:`LdtkLevel.coords` and :attr:`LdtkLevel.world_coords`: the
  :class:`~pathcraft.coords.TileCoords` between the grid's cells and the level's (or the
  world's) pixels.

Everything continuous is in level pixels ``(x, y)`` with y down, as LDtk draws it;
cells are ``(row, col)``. Errors are ``ValueError`` naming the file, the level, the
layer and the bad value.

Examples
--------
>>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
>>> level = read_ldtk(bundled_ldtk())
>>> level.identifier, level.shape, level.tile_size
('Dungeon', (20, 32), (16.0, 16.0))
>>> level.value_names("Collisions")
{1: 'wall', 2: 'water', 3: 'mud'}
>>> grid = level.grid(costs={"mud": 3})           # walls and water block, mud costs 3
>>> grid[12, 23], int((~grid.walkable).sum())
(3.0, 195)
>>> player = level.spawns(identifier="Player")["Player"][0]
>>> player, level.coords.cell(player)
((40.0, 40.0), (2, 2))
>>> level.coords.find_path(grid, player, (472, 280)).path[-1].tolist()
[472.0, 280.0]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft.coords import TileCoords
from pathcraft.io._ldtk_rules import Value, int_grid_cost
from pathcraft.io._ldtk_source import MAX_CELLS, Entity, IntGridLayer, LevelData, from_file
from pathcraft.io._tiled_tiles import names as name_list

if TYPE_CHECKING:
    from pathcraft.grid import Diagonal, Grid, HeuristicName

__all__ = ["MAX_CELLS", "Entity", "LdtkLevel", "bundled_ldtk", "read_ldtk"]


def bundled_ldtk() -> Path:
    """The path of the small LDtk project shipped with pathcraft (``dungeon.ldtk``).

    Two levels: ``Dungeon``, the bundled Tiled level (:func:`pathcraft.io.bundled_level`)
    drawn in LDtk (32 by 20 cells of 16 px; an IntGrid layer ``Collisions`` with values
    ``wall``, ``water`` and ``mud``; entities ``Player``, ``Enemy`` and ``Waypoint``), and
    a small ``Cellar`` east of it. See ``pathcraft/data/README.md``.

    Examples
    --------
    >>> from pathcraft.io.ldtk import bundled_ldtk
    >>> bundled_ldtk().name
    'dungeon.ldtk'
    """
    return Path(str(files("pathcraft") / "data" / "dungeon.ldtk"))


def read_ldtk(path: str | os.PathLike[str], level: int | str = 0) -> LdtkLevel:
    """Read one level of an LDtk project.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.ldtk`` project file. A level saved in its own ``.ldtkl`` file (the
        project's "save levels to separate files" option) is read from the project's
        folder; a level file outside that folder is refused.
    level : int or str
        The level: its index in the project (negative counts from the end; in a
        multi-world project, the levels of every world in order), its identifier or
        its iid. :attr:`LdtkLevel.levels` lists the identifiers.

    Raises
    ------
    FileNotFoundError
        No such project file.
    ValueError
        A file that is not an LDtk project (bad JSON: the message gives the line and
        column), no such level, an external level file outside the project's folder or
        missing, a layer whose data do not match its size or hold a value the layer
        does not define. The message names the file, the level and the layer.
    TypeError
        ``path`` is not a path, or ``level`` neither an int nor a str.

    Examples
    --------
    >>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
    >>> read_ldtk(bundled_ldtk(), "Cellar")  # doctest: +NORMALIZE_WHITESPACE
    LdtkLevel('dungeon.ldtk', level 'Cellar' (2 of 2), 6x8 cells of 16x16 px,
              IntGrid layers ['Collisions'], entity layers ['Markers'])
    >>> read_ldtk(bundled_ldtk(), "Attic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../dungeon.ldtk: no level 'Attic'; the levels are ['Dungeon', 'Cellar']
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a .ldtk file path; got {type(path).__name__}")
    return LdtkLevel(from_file(path, level))


def _known(where: str, what: str, wanted: list[str], known: Sequence[str]) -> None:
    missing = [w for w in wanted if w not in known]
    if missing:
        raise ValueError(
            f"{where}: no {what} {missing[0]!r} in the project; the {what}s are {list(known)}"
        )


class LdtkLevel:
    """One level of an LDtk project, read: see :func:`read_ldtk` and the module
    documentation.

    Attributes
    ----------
    data : LevelData
        The level as plain data (IntGrid value arrays, entities, fields).

    Examples
    --------
    >>> from pathcraft.io import bundled_ldtk, read_ldtk
    >>> level = read_ldtk(bundled_ldtk())
    >>> level.levels, level.world_position
    (['Dungeon', 'Cellar'], (0.0, 0.0))
    """

    def __init__(self, data: LevelData) -> None:
        self.data = data

    # ------------------------------------------------------------------ state

    @property
    def where(self) -> str:
        """The project file the level came from."""
        return self.data.where

    @property
    def identifier(self) -> str:
        """The level's identifier."""
        return self.data.identifier

    @property
    def levels(self) -> list[str]:
        """The identifiers of every level of the project, in order (for :func:`read_ldtk`)."""
        return list(self.data.levels)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` in cells of the level's grid (its first IntGrid layer's)."""
        return self.data.rows, self.data.cols

    @property
    def tile_size(self) -> tuple[float, float]:
        """``(width, height)`` of a cell in pixels."""
        return float(self.data.grid_size), float(self.data.grid_size)

    @property
    def layer_names(self) -> list[str]:
        """Every layer's identifier, in LDtk's order (the top layer first)."""
        return list(self.data.layer_names)

    @property
    def fields(self) -> dict[str, Any]:
        """The level's own fields (identifier to value)."""
        return dict(self.data.fields)

    @property
    def world_position(self) -> tuple[float, float] | None:
        """The pixel ``(x, y)`` of the level's top-left corner in the world
        (``worldX``, ``worldY``); None in a linear world layout, where LDtk keeps none."""
        return self.data.world_position

    @property
    def coords(self) -> TileCoords:
        """Cells to level pixels and back (origin at the level's top-left corner, y down)."""
        return TileCoords(self.tile_size, shape=self.shape)

    @property
    def world_coords(self) -> TileCoords:
        """Cells to world pixels and back (origin at :attr:`world_position`).

        Examples
        --------
        >>> from pathcraft.io import bundled_ldtk, read_ldtk
        >>> read_ldtk(bundled_ldtk(), "Cellar").world_coords.pixel((0, 0))
        (520.0, 40.0)
        """
        if self.data.world_position is None:
            raise ValueError(
                f"{self.where}: level {self.identifier!r} has no world position (the "
                "project's world layout is linear); use coords for level pixels"
            )
        return TileCoords(self.tile_size, origin=self.data.world_position, shape=self.shape)

    def __repr__(self) -> str:
        rows, cols = self.shape
        size = self.data.grid_size
        grids = [lay.name for lay in self.data.int_grids]
        return (
            f"LdtkLevel({Path(self.where).name!r}, level {self.identifier!r} "
            f"({self.data.index + 1} of {len(self.data.levels)}), {rows}x{cols} cells of "
            f"{size}x{size} px, IntGrid layers {grids}, entity layers "
            f"{list(self.data.entity_layers)})"
        )

    def _error(self, message: str) -> ValueError:
        return ValueError(f"{self.where}: level {self.identifier!r}: {message}")

    def _int_grid(self, name: str) -> IntGridLayer:
        for layer in self.data.int_grids:
            if layer.name == name:
                return layer
        known = [lay.name for lay in self.data.int_grids]
        raise self._error(f"no IntGrid layer {name!r}; the IntGrid layers are {known}")

    def values(self, layer: str) -> npt.NDArray[np.int64]:
        """The IntGrid layer's values, ``(rows, cols)``, 0 where the cell is empty (a copy).

        Examples
        --------
        >>> from pathcraft.io import bundled_ldtk, read_ldtk
        >>> read_ldtk(bundled_ldtk(), "Cellar").values("Collisions")[1].tolist()
        [1, 0, 0, 0, 0, 0, 0, 1]
        >>> read_ldtk(bundled_ldtk()).values("Walls")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: ...: no IntGrid layer 'Walls'; the IntGrid layers are ['Collisions']
        """
        values: npt.NDArray[np.int64] = self._int_grid(layer).values.copy()
        return values

    def value_names(self, layer: str) -> dict[int, str]:
        """The values the IntGrid layer defines and their identifiers ('' if none).

        Examples
        --------
        >>> from pathcraft.io import bundled_ldtk, read_ldtk
        >>> read_ldtk(bundled_ldtk()).value_names("Collisions")
        {1: 'wall', 2: 'water', 3: 'mud'}
        """
        return dict(self._int_grid(layer).names)

    # ------------------------------------------------------------------ the grid

    def grid(
        self,
        *,
        layers: str | Sequence[str] | None = None,
        walls: Value | Sequence[Value] | None = None,
        costs: Mapping[Value, float] | None = None,
        empty: Literal["floor", "wall"] = "floor",
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> Grid:
        """The level's IntGrid layers as a :class:`~pathcraft.Grid`, one cell per cell.

        Values are named by number (``2``) or by their identifier in the project
        (``"water"``). The rule, for each cell:

        - a value in ``walls`` is a wall; ``walls=None`` (the default): every value the
          layer defines that ``costs`` does not name is a wall (the usual LDtk level:
          one collision layer whose values are kinds of wall);
        - a value in ``costs`` costs that much to enter (``np.inf``: a wall);
        - any other value, and an empty cell (0), is floor of cost 1 (``empty="wall"``:
          a cell empty in every layer read is a wall).

        Layers combine as LDtk draws them: a wall in any layer is a wall, and the cost
        of the topmost layer whose value has one wins.

        Parameters
        ----------
        layers : name or list of names, or None
            The IntGrid layers read; None: every IntGrid layer of the level. They must
            have the level's cell size and no offset.
        walls : value or list of values, or None
            The values that are walls (see above).
        costs : mapping value -> float, or None
            The cost of entering a cell of each value (> 0; ``np.inf`` is a wall).
        empty : {"floor", "wall"}
            A cell with no value in any of ``layers``.
        diagonal, heuristic
            As for :class:`~pathcraft.Grid`.

        Raises
        ------
        ValueError
            A layer or value the level does not have (the message lists those there
            are), a value both in ``walls`` and ``costs``, a cost that is not > 0, a
            layer of another cell size than the level's or drawn at an offset.
        TypeError
            ``costs`` not a mapping, a value that is neither an int nor a str.

        Examples
        --------
        >>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
        >>> level = read_ldtk(bundled_ldtk())
        >>> int((~level.grid().walkable).sum())          # every value a wall: mud too
        239
        >>> int((~level.grid(walls="wall").walkable).sum())   # only 'wall': water is floor
        184
        >>> level.grid(costs={"lava": 5})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: ...: no value 'lava' in IntGrid layers ['Collisions']; they define 1 'wall', ...
        """
        from pathcraft.grid import Grid

        if empty not in ("floor", "wall"):
            raise ValueError(f"empty must be 'floor' or 'wall'; got {empty!r}")
        picked = name_list("layers", layers)
        read = list(self.data.int_grids) if picked is None else [self._int_grid(n) for n in picked]
        if not read:
            raise self._error(
                f"no IntGrid layer to read; the level's layers are {self.layer_names}"
            )
        for layer in read:
            self._check_cells(layer)
        cost = int_grid_cost(read, walls, costs, empty, self._error)
        return Grid(cost, diagonal=diagonal, heuristic=heuristic)

    def _check_cells(self, layer: IntGridLayer) -> None:
        if layer.offset != (0.0, 0.0):
            raise self._error(
                f"IntGrid layer {layer.name!r} is drawn at an offset {layer.offset}; a grid "
                "needs its cells on the level's cells (offset (0, 0))"
            )
        if layer.grid_size != self.data.grid_size or layer.values.shape != self.shape:
            raise self._error(
                f"IntGrid layer {layer.name!r} has {layer.values.shape[0]}x"
                f"{layer.values.shape[1]} cells of {layer.grid_size} px; the level's grid "
                f"has {self.shape[0]}x{self.shape[1]} cells of {self.data.grid_size} px "
                "(read layers of one size with layers=)"
            )

    def walkable_area(self, **grid_options: Any) -> Any:
        """The walkable cells of :meth:`grid` (with ``grid_options``) as one shapely
        geometry in level pixels, for :meth:`pathcraft.NavMesh.from_geometry` (as
        :meth:`pathcraft.io.tiled.TiledLevel.walkable_area`). Needs shapely.

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.io import bundled_ldtk, read_ldtk
        >>> level = read_ldtk(bundled_ldtk())
        >>> area = level.walkable_area(costs={"mud": 3})
        >>> area.area == 16 * 16 * int(level.grid(costs={"mud": 3}).walkable.sum())
        True
        >>> bool(NavMesh.from_geometry(area).find_path((40, 40), (472, 280)))
        True
        """
        import shapely

        cells = np.argwhere(self.grid(**grid_options).walkable)
        w, h = self.tile_size
        x, y = cells[:, 1] * w, cells[:, 0] * h
        return shapely.union_all(shapely.box(x, y, x + w, y + h))

    # ------------------------------------------------------------------ entities

    def entities(
        self,
        layers: str | Sequence[str] | None = None,
        *,
        identifier: str | Sequence[str] | None = None,
        tag: str | Sequence[str] | None = None,
        fields: Mapping[str, Any] | None = None,
        where: Callable[[Entity], bool] | None = None,
    ) -> list[Entity]:
        """The level's entities, chosen, in layer and placement order.

        Every filter given must hold: ``identifier`` (one of these identifiers),
        ``tag`` (has one of these tags), ``fields`` (each field has exactly this value),
        ``where`` (the predicate returns true). Identifiers, tags and field names must
        be defined in the project (a misspelt one is an error, not an empty answer).

        Examples
        --------
        >>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
        >>> level = read_ldtk(bundled_ldtk())
        >>> [(e.identifier, e.cell) for e in level.entities(tag="spawn")]
        [('Player', (2, 2)), ('Enemy', (17, 29)), ('Enemy', (3, 18))]
        >>> [e.cell for e in level.entities(identifier="Enemy", fields={"kind": "bat"})]
        [(17, 29)]
        >>> level.entities(identifier="Enemmy")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: .../dungeon.ldtk: no entity identifier 'Enemmy' in the project; ...
        """
        names = name_list("layers", layers)
        if names is None:
            chosen = list(self.data.entity_layers.values())
        else:
            known = list(self.data.entity_layers)
            missing = [n for n in names if n not in known]
            if missing:
                raise self._error(f"no entity layer {missing[0]!r}; the entity layers are {known}")
            chosen = [self.data.entity_layers[n] for n in names]
        found = [e for layer in chosen for e in layer]
        seen = {e.identifier for e in found}
        ids = name_list("identifier", identifier)
        if ids is not None:
            _known(
                self.where,
                "entity identifier",
                ids,
                sorted(set(self.data.entity_identifiers) | seen),
            )
            found = [e for e in found if e.identifier in ids]
        tags = name_list("tag", tag)
        if tags is not None:
            level_tags = {t for e in found for t in e.tags}
            _known(self.where, "entity tag", tags, sorted(set(self.data.entity_tags) | level_tags))
            found = [e for e in found if set(e.tags) & set(tags)]
        if fields is not None:
            if not isinstance(fields, Mapping):
                raise TypeError(f"fields must be a mapping field -> value; got {fields!r}")
            level_fields = {f for e in found for f in e.fields}
            _known(
                self.where,
                "entity field",
                list(fields),
                sorted(set(self.data.entity_fields) | level_fields),
            )
            found = [
                e for e in found
                if all(k in e.fields and e.fields[k] == v for k, v in fields.items())
            ]  # fmt: skip
        if where is not None:
            if not callable(where):
                raise TypeError(f"where must be a callable Entity -> bool; got {where!r}")
            found = [e for e in found if where(e)]
        return found

    def spawns(
        self,
        layers: str | Sequence[str] | None = None,
        *,
        identifier: str | Sequence[str] | None = None,
        tag: str | Sequence[str] | None = None,
        fields: Mapping[str, Any] | None = None,
        where: Callable[[Entity], bool] | None = None,
    ) -> dict[str, list[tuple[float, float]]]:
        """The chosen entities' centres in level pixels, by identifier (as
        :meth:`pathcraft.io.tiled.TiledLevel.spawns` gives them by name). The filters
        are :meth:`entities`'; with none, every entity of the level.

        Examples
        --------
        >>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
        >>> read_ldtk(bundled_ldtk()).spawns(tag="spawn")
        {'Player': [(40.0, 40.0)], 'Enemy': [(472.0, 280.0), (296.0, 56.0)]}
        """
        out: dict[str, list[tuple[float, float]]] = {}
        for e in self.entities(layers, identifier=identifier, tag=tag, fields=fields, where=where):
            out.setdefault(e.identifier, []).append((e.x, e.y))
        return out

    def waypoints(
        self, layers: str | Sequence[str] | None = None, *, name: str = "waypoint"
    ) -> npt.NDArray[np.float64]:
        """The centres of the entities whose identifier or a tag is ``name`` (any
        case), as an ``(n, 2)`` array of level pixels ``(x, y)``, in layer and
        placement order.

        Examples
        --------
        >>> from pathcraft.io.ldtk import bundled_ldtk, read_ldtk
        >>> read_ldtk(bundled_ldtk()).waypoints().tolist()
        [[136.0, 120.0], [360.0, 168.0], [200.0, 280.0], [456.0, 72.0]]
        """
        key = name.lower()
        pts = [
            (e.x, e.y) for e in self.entities(layers)
            if key == e.identifier.lower() or key in (t.lower() for t in e.tags)
        ]  # fmt: skip
        return np.array(pts, dtype=np.float64).reshape(-1, 2)
