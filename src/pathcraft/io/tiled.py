"""Tiled levels (mapeditor.org): tile layers to a Grid, objects to shapes and waypoints.

:func:`read_tiled` reads an orthogonal ``.tmx`` or ``.json`` map (with pytiled-parser,
``pip install "pathcraft[tiled]"``), or takes a map already loaded by pytiled-parser or
pytmx, and returns a :class:`TiledLevel`:

- :meth:`TiledLevel.grid`: the tile layers as a :class:`~pathcraft.Grid`. A cell is a
  wall when a tile on it (or the layer it is in) has a property saying so
  (``walkable``/``passable`` false, or ``collides``/``collision``/``solid``/
  ``blocked``/``wall`` true), when any tile sits on it in a named collision layer, or
  when obstacle objects cover it by the rule ``cover=`` picks (any overlap, the
  default; the centre; a fraction); its cost is the ``cost`` property of the
  topmost tile (or layer) that has one, else 1. Layers combine in drawing order:
  terrain below, walls above. Tile layers drawn above the player (tree tops, roofs,
  a bridge's railing) are not read by default: see ``player_layer``.
- :meth:`TiledLevel.select`: objects chosen by layer, name, class, kind, property or
  a predicate, for walls (``grid(obstacles=...)``) and for spawns.
- :meth:`TiledLevel.obstacles` and :meth:`TiledLevel.walkable_area`: object layers
  (rectangles, polygons, ellipses as 32-gons, tile objects) as shapely polygons in map
  pixels, for :meth:`pathcraft.NavMesh.from_geometry` and
  :class:`~pathcraft.WaypointGraph`;
- :meth:`TiledLevel.waypoints` and :meth:`TiledLevel.spawns`: objects named
  ``waypoint``, or of class ``spawn`` (or those chosen), as pixel positions (a
  point's, or the centre of any other shape);
- :attr:`TiledLevel.coords`: the :class:`~pathcraft.coords.TileCoords` between the
  grid's cells and the map's pixels.

Everything continuous is in map pixels ``(x, y)`` with y down, as Tiled draws it.
Errors name the file, the layer and what was expected.

(This file is one class, a level read, past 500 lines for its docstrings; the rules
behind it live in ``_tiled_tiles`` (tiles), ``_tiled_objects`` (objects), and the
readers in ``_tiled_source`` and ``_tiled_read``.)

Examples
--------
>>> from pathcraft.io.tiled import bundled_level, read_tiled
>>> level = read_tiled(bundled_level())
>>> level.shape, level.tile_size, level.layer_names
((20, 32), (16.0, 16.0), ['ground', 'walls', 'obstacles', 'markers'])
>>> grid = level.grid()
>>> grid.cost[7, 2:6].tolist(), grid[12, 23]      # floor, and a mud tile
([1.0, 1.0, 1.0, 1.0], 3.0)
>>> start = level.coords.cell(level.spawns()["player"][0])
>>> start
(2, 2)
>>> level.coords.find_path(grid, level.spawns()["player"][0], (472, 280)).path[-1].tolist()
[472.0, 280.0]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft.coords import TileCoords
from pathcraft.io._tiled_checks import MAX_TILES
from pathcraft.io._tiled_objects import COVER_RULES, Cover, centre, check_cover, covered_cells
from pathcraft.io._tiled_objects import select as select_objects
from pathcraft.io._tiled_read import read_file
from pathcraft.io._tiled_source import (
    MapData,
    MapObject,
    TileLayerData,
    from_file,
    from_pytiled,
    from_pytmx,
)
from pathcraft.io._tiled_tiles import (
    COST_PROPERTY,
    ELLIPSE_CORNERS,
    WALKABLE_PROPERTIES,
    WALL_PROPERTIES,
    check_tiles,
    gid_tables,
    outline,
    property_names,
)
from pathcraft.io._tiled_tiles import names as name_list

if TYPE_CHECKING:
    from pathcraft.grid import Diagonal, Grid, HeuristicName

#: Which objects: object layer names (None: every layer), or the objects themselves.
Objects = str | Sequence[str] | Sequence[MapObject] | None

__all__ = [
    "COST_PROPERTY",
    "COVER_RULES",
    "ELLIPSE_CORNERS",
    "MAX_TILES",
    "WALKABLE_PROPERTIES",
    "WALL_PROPERTIES",
    "Cover",
    "MapObject",
    "TiledLevel",
    "bundled_level",
    "read_tiled",
]


def bundled_level(fmt: Literal["tmx", "json"] = "tmx") -> Path:
    """The path of the small Tiled level shipped with pathcraft (``dungeon``).

    32 by 20 tiles of 16x16 pixels; both formats hold the same map. See
    ``pathcraft/data/README.md`` and ``docs/make_tiled_level.py``.

    Examples
    --------
    >>> from pathcraft.io.tiled import bundled_level
    >>> bundled_level().name, bundled_level("json").name
    ('dungeon.tmx', 'dungeon.json')
    """
    if fmt not in ("tmx", "json"):
        raise ValueError(f"fmt must be 'tmx' or 'json'; got {fmt!r}")
    return Path(str(files("pathcraft") / "data" / f"dungeon.{fmt}"))


def read_tiled(
    source: Any,
    *,
    allow_folders: Sequence[str | os.PathLike[str]] | None = None,
    max_tiles: int = MAX_TILES,
) -> TiledLevel:
    """Read a Tiled level: a ``.tmx``/``.json``/``.tmj`` file, or a map already loaded.

    A file is checked before it is parsed, so a level from a stranger (a mod, a
    download) is safe to open: see "Level files from strangers" below.

    Parameters
    ----------
    source : str, os.PathLike, pytiled_parser.TiledMap or pytmx.TiledMap
        A file, or a map loaded by pytiled-parser or pytmx (recognised by their
        attributes; neither is imported unless a file is given). A file is parsed
        with pytiled-parser (the ``tiled`` extra); one it refuses or cannot read
        whole (saved before Tiled 1.2, an infinite map) or any file when it is not
        installed, pathcraft reads itself: every Tiled version, fixed-size and
        infinite maps, embedded and external tilesets (TSX, TSJ), XML, CSV and base64
        data (zlib, gzip; zstd with the ``zstandard`` package), object templates,
        group layers.
    allow_folders : list of folders, or None
        Folders besides the level's own (absolute, or relative to the working
        directory) from which its external tilesets and object templates may be read
        (a file only).
    max_tiles : int
        The most tiles the map, or any of its layers or chunks, may have
        (:data:`MAX_TILES`, 4096 x 4096; a file only).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        A file that is not a readable Tiled map (the message names the file, the
        layer, what is wrong, and why pytiled-parser refused it), an orientation
        other than ``orthogonal``, an infinite map loaded by pytiled-parser; a level
        that breaks a rule below (the message names the file and the layer).
    TypeError
        Anything else.

    Notes
    -----
    Level files from strangers: before a parser sees the file, pathcraft reads it
    itself (XML through expat, which refuses entity bombs) and refuses an external
    tileset or template outside the level's folder and ``allow_folders`` (``../``,
    absolute paths, symbolic links out; images are never opened); a map or layer of
    more than ``max_tiles`` tiles; CSV rows of another length than the layer's width
    (a short row would shift every tile after it); base64 data of the wrong length;
    zlib, gzip or zstd data that would expand past the layer's own 4 bytes a tile
    (decompressed with a limit, never whole). Then every gid must be a tile of a
    tileset (-1, a gid past the last tileset, 2**31-1 are refused, checked against
    the tilesets' ranges), and every object's place, size and rotation finite. No
    pickle, no ``eval``: nothing in a level can run code.

    Examples
    --------
    >>> from pathcraft.io.tiled import bundled_level, read_tiled
    >>> read_tiled(bundled_level("json"))  # doctest: +NORMALIZE_WHITESPACE
    TiledLevel('dungeon.json', 20x32 tiles of 16x16 px, tile layers ['ground', 'walls'],
               object layers ['obstacles', 'markers'])
    """
    if isinstance(source, (str, os.PathLike)):
        return TiledLevel(
            from_file(source, allow_folders=allow_folders, max_tiles=max_tiles, fallback=read_file)
        )
    if hasattr(source, "map_size") and hasattr(source, "tilesets"):
        return TiledLevel(from_pytiled(source))
    if hasattr(source, "tilewidth") and hasattr(source, "get_tile_properties_by_gid"):
        return TiledLevel(from_pytmx(source))
    raise TypeError(
        "source must be a .tmx or .json path, a pytiled_parser TiledMap or a pytmx TiledMap; "
        f"got {type(source).__name__}"
    )


class TiledLevel:
    """An orthogonal Tiled map, read: see :func:`read_tiled` and the module documentation.

    Attributes
    ----------
    data : MapData
        The map as plain data (tile layers as gid arrays, objects, properties).

    Examples
    --------
    >>> from pathcraft.io import bundled_level, read_tiled
    >>> level = read_tiled(bundled_level())
    >>> level.shape, level.tile_size
    ((20, 32), (16.0, 16.0))
    """

    def __init__(self, data: MapData) -> None:
        self.data = data

    # ------------------------------------------------------------------ state

    @property
    def where(self) -> str:
        """The file the map came from (or what loaded it)."""
        return self.data.where

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` in tiles."""
        return self.data.rows, self.data.cols

    @property
    def tile_size(self) -> tuple[float, float]:
        """``(width, height)`` of a tile in pixels."""
        return self.data.tile_size

    @property
    def layer_names(self) -> list[str]:
        """The tile layers' then the object layers' names."""
        return [lay.name for lay in self.data.tile_layers] + list(self.data.object_layers)

    @property
    def coords(self) -> TileCoords:
        """Cells to map pixels and back (y down; origin at the map's top-left corner, or
        for an infinite map at its top-left chunk's)."""
        return TileCoords(self.tile_size, shape=self.shape, origin=self.data.origin)

    @property
    def objects(self) -> list[MapObject]:
        """Every object of every object layer, in layer order."""
        return [o for objs in self.data.object_layers.values() for o in objs]

    def __repr__(self) -> str:
        rows, cols = self.shape
        w, h = self.tile_size
        tiles = [lay.name for lay in self.data.tile_layers]
        return (
            f"TiledLevel({Path(self.where).name!r}, {rows}x{cols} tiles of {w:g}x{h:g} px, "
            f"tile layers {tiles}, object layers {list(self.data.object_layers)})"
        )

    def _error(self, message: str) -> ValueError:
        return ValueError(f"{self.where}: {message}")

    def tile_layer(self, name: str) -> TileLayerData:
        """The tile layer called ``name`` (a ``ValueError`` lists the names there are).

        Examples
        --------
        >>> from pathcraft.io import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> first = level.data.tile_layers[0].name
        >>> level.tile_layer(first).name == first
        True
        >>> level.tile_layer("lava")
        Traceback (most recent call last):
        ...
        ValueError: ...no tile layer 'lava'; the tile layers are [...]
        """
        for layer in self.data.tile_layers:
            if layer.name == name:
                return layer
        known = [lay.name for lay in self.data.tile_layers]
        raise self._error(f"no tile layer {name!r}; the tile layers are {known}")

    def _object_layer(self, name: str) -> list[MapObject]:
        if name not in self.data.object_layers:
            known = list(self.data.object_layers)
            raise self._error(f"no object layer {name!r}; the object layers are {known}")
        return self.data.object_layers[name]

    # ------------------------------------------------------------------ the grid

    def grid(
        self,
        *,
        layers: str | Sequence[str] | None = None,
        player_layer: str | None = None,
        collision_layer: str | Sequence[str] | None = None,
        wall_property: str | Sequence[str] | None = None,
        walkable_property: str | Sequence[str] | None = None,
        cost_property: str | None = None,
        obstacles: Objects = None,
        cover: Cover = "overlap",
        empty: Literal["floor", "wall"] = "floor",
        diagonal: Diagonal = "no_corner_cut",
        heuristic: HeuristicName | None = None,
    ) -> Grid:
        """The level's tiles as a :class:`~pathcraft.Grid`, one cell per tile.

        Parameters
        ----------
        layers : name or list of names, or None
            The tile layers read for walls and costs, bottom to top. None: every tile
            layer drawn below the player (see ``player_layer``) but the collision
            layers.
        player_layer : str or None
            The object layer the player is drawn in: with ``layers=None``, tile layers
            drawn above it (later in Tiled's layer list, a foreground of tree tops or
            roofs the player walks under) are not read. None: the first object layer
            named ``player`` or holding an object named or of class ``player`` (any
            case), if the map has one; else every tile layer is read (as for a map
            handed over by pytmx without its file: pytmx keeps no order between tile
            and object layers, so it is read from the file). Give ``layers`` to read
            layers above the player too.
        collision_layer : name or list of names, or None
            Tile layers where any tile makes a wall, whatever its properties.
        wall_property, walkable_property : name or list of names, or None
            The boolean tile/layer properties that make a wall when true
            (``wall_property``) or when false (``walkable_property``). None: the usual
            names (:data:`WALL_PROPERTIES`, :data:`WALKABLE_PROPERTIES`). A name given
            here must occur in the map.
        cost_property : str or None
            The numeric property holding a tile's cost (> 0, finite). None: ``"cost"``
            if present. A name given here must occur in the map.
        obstacles : name or list of names, list of MapObject, or None
            The objects that make walls: every area object of the object layers
            named, or the objects given (from :meth:`select`). Points, polylines and
            text have no area and make no walls.
        cover : {"overlap", "center"} or float
            Which cells the obstacles make walls of: ``"overlap"`` (the default) every
            cell they overlap by a positive area, so no obstacle vanishes between
            cells (a crate straddling four tiles walls all four); ``"center"`` the
            cells whose centres they cover; a fraction in (0, 1] the cells they cover
            at least that much of (0.5: half a cell). Obstacles are merged first:
            two covering half a cell each cover all of it. ``docs/tiled_cover.png``
            shows the three (made by ``docs/make_tiled_cover.py``).
        empty : {"floor", "wall"}
            A cell with no tile in any of ``layers``: floor (cost 1) or a wall.
        diagonal, heuristic
            As for :class:`~pathcraft.Grid`.

        Raises
        ------
        ValueError
            A layer or property name not in the map, a cost that is not a number > 0,
            a layer of tiles of another size than the map's or drawn at an offset,
            ``layers`` and ``player_layer`` both given. The message names the file,
            the layer and what was expected.

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> walls_only = level.grid(collision_layer="walls", layers=[])
        >>> int((~walls_only.walkable).sum()), int((~level.grid().walkable).sum())
        (195, 195)
        >>> crates = level.grid(obstacles="obstacles", cover="center")
        >>> int((~crates.walkable).sum()), int((~level.grid(obstacles="obstacles").walkable).sum())
        (203, 214)
        >>> level.grid(collision_layer="wals")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: .../dungeon.tmx: no tile layer 'wals'; the tile layers are ['ground', 'walls']
        """
        from pathcraft.grid import Grid

        if empty not in ("floor", "wall"):
            raise ValueError(f"empty must be 'floor' or 'wall'; got {empty!r}")
        collide = [self.tile_layer(n) for n in name_list("collision_layer", collision_layer) or []]
        picked = name_list("layers", layers)
        if picked is not None and player_layer is not None:
            raise ValueError(
                "give layers (the tile layers read) or player_layer (the tile layers below "
                "it are read), not both"
            )
        if picked is None:
            skip = {lay.name for lay in collide}
            read = [lay for lay in self.below_player(player_layer) if lay.name not in skip]
        else:
            read = [self.tile_layer(n) for n in picked]
        for layer in read + collide:
            check_tiles(self.data, layer)
        walls_by = property_names(self.data, "wall_property", wall_property, WALL_PROPERTIES)
        open_by = property_names(
            self.data, "walkable_property", walkable_property, WALKABLE_PROPERTIES
        )
        cost_by = property_names(
            self.data, "cost_property", cost_property, (COST_PROPERTY,), single=True
        )
        rows, cols = self.shape
        cost = np.ones((rows, cols))
        wall = np.zeros((rows, cols), dtype=bool)
        covered = np.zeros((rows, cols), dtype=bool)
        for layer in read:
            at, lut_wall, lut_cost = gid_tables(self.data, layer, walls_by, open_by, cost_by[0])
            present = layer.gids != 0
            covered |= present
            wall |= present & lut_wall[at]
            has_cost = present & ~np.isnan(lut_cost[at])
            cost[has_cost] = lut_cost[at][has_cost]
        for layer in collide:
            wall |= layer.gids != 0
            covered |= layer.gids != 0
        if empty == "wall":
            wall |= ~covered
        check_cover(cover)
        if obstacles is not None:
            wall |= covered_cells(self.data, self.obstacles(obstacles), cover)
        cost[wall] = np.inf
        return Grid(cost, diagonal=diagonal, heuristic=heuristic)

    def below_player(self, player_layer: str | None = None) -> list[TileLayerData]:
        """The tile layers drawn below the player, bottom first: those before the
        object layer ``player_layer`` in drawing order (None: the first object layer
        named ``player`` or holding an object named or of class ``player``, any case;
        when there is none, or the drawing order is unknown, every tile layer).

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())   # the player is drawn above every tile layer
        >>> [layer.name for layer in level.below_player()]
        ['ground', 'walls']
        >>> [layer.name for layer in level.below_player("obstacles")]
        ['ground', 'walls']
        """
        layers = self.data.tile_layers
        if player_layer is not None:
            self._object_layer(player_layer)
            name: str | None = player_layer
        else:
            name = next(
                (n for n, objects in self.data.object_layers.items()
                 if n.lower() == "player"
                 or any("player" in (o.name.lower(), o.class_.lower()) for o in objects)),
                None,
            )  # fmt: skip
        below = 0
        for kind, drawn in self.data.drawn if name is not None else ():
            if kind == "objects" and drawn == name:
                return layers[:below]
            below += kind == "tiles"
        return list(layers)

    # ------------------------------------------------------------------ objects

    def obstacles(self, layers: Objects = None) -> list[Any]:
        """The area objects of object layers (or the objects given) as shapely
        polygons, in map pixels (obstacles, or walkable areas: see
        :meth:`walkable_area`).

        Rectangles, polygons, ellipses (as :data:`ELLIPSE_CORNERS`-gons) and tile
        objects (their rectangle) count, rotated as in Tiled; points, polylines and
        text do not (they have no area).

        Parameters
        ----------
        layers : name or list of names, list of MapObject, or None
            The object layers (None: all of them), or objects (from :meth:`select`).

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> [round(shape.area) for shape in level.obstacles("obstacles")]
        [960, 1632, 449]
        """
        import shapely

        out = []
        for obj in self._chosen(layers):
            ring = outline(obj)
            if ring is not None:
                shape = shapely.polygons(ring)
                if not shape.is_valid:
                    shape = shapely.make_valid(shape)
                out.append(shape)
        return out

    def walkable_area(
        self,
        obstacle_layers: str | Sequence[str] | None = None,
        *,
        area_layers: str | Sequence[str] | None = None,
        **grid_options: Any,
    ) -> Any:
        """The walkable space in map pixels, for :meth:`pathcraft.NavMesh.from_geometry`:
        the walkable cells of :meth:`grid` (with ``grid_options``) as squares, merged,
        or, with ``area_layers``, the union of the shapes of those object layers (floor
        areas drawn as objects); less the shapes of the ``obstacle_layers`` object
        layers (None: none).

        Examples
        --------
        >>> from pathcraft import NavMesh
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> area = level.walkable_area("obstacles")
        >>> mesh = NavMesh.from_geometry(area)
        >>> bool(mesh.find_path((40, 40), (472, 280)))
        True
        """
        import shapely

        if area_layers is not None:
            if grid_options:
                raise ValueError("give area_layers or grid options, not both")
            area = shapely.union_all(self.obstacles(area_layers))
        else:
            walkable = self.grid(**grid_options).walkable
            cells = np.argwhere(walkable)
            w, h = self.tile_size
            corners = self.coords.to_pixels(cells, anchor="top_left")
            squares = shapely.box(
                corners[:, 0], corners[:, 1], corners[:, 0] + w, corners[:, 1] + h
            )
            area = shapely.union_all(squares)
        if obstacle_layers is not None:
            area = area.difference(shapely.union_all(self.obstacles(obstacle_layers)))
        return area

    def _chosen(self, layers: Objects) -> list[MapObject]:
        """The objects of the named object layers (None: all), or the objects given."""
        if isinstance(layers, (list, tuple)) and layers and isinstance(layers[0], MapObject):
            if not all(isinstance(o, MapObject) for o in layers):
                raise TypeError("layers must be layer names or MapObjects, not a mix of both")
            return list(layers)
        names = name_list("layers", layers)  # type: ignore[arg-type]
        chosen = list(self.data.object_layers) if names is None else names
        return [o for n in chosen for o in self._object_layer(n)]

    def select(
        self,
        layers: Objects = None,
        *,
        name: str | Iterable[str] | None = None,
        class_: str | Iterable[str] | None = None,
        kind: str | Iterable[str] | None = None,
        property: str | Mapping[str, Any] | None = None,
        where: Callable[[MapObject], bool] | None = None,
    ) -> list[MapObject]:
        """The objects of the object layers ``layers`` (None: all) that pass every test
        given, in layer and object order: for :meth:`grid`'s ``obstacles``, for
        :meth:`obstacles`, :meth:`spawns` and :meth:`waypoints`.

        Parameters
        ----------
        layers : name or list of names, list of MapObject, or None
            The object layers to look in, or objects to choose among.
        name, class_ : str or list of str, or None
            The objects' names, or classes (``class`` in Tiled 1.9 on, ``type``
            before), exactly as in the map; a name or class no object has is an error.
        kind : str or list of str, or None
            ``"rectangle"``, ``"ellipse"``, ``"polygon"``, ``"polyline"``, ``"point"``,
            ``"tile"`` or ``"text"``.
        property : str, mapping, or None
            A property name: the objects where it is true (as wall properties are
            read); a mapping: the objects where each named property has that value.
        where : callable, or None
            A test of one :class:`MapObject`.

        Raises
        ------
        ValueError
            An object layer, name, class or property not in the map (the message
            lists those there are).

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> [o.name for o in level.select("markers", class_="spawn")]
        ['player', 'enemy', 'enemy']
        >>> [o.name for o in level.select(kind=["rectangle", "ellipse"], where=lambda o: o.y > 100)]
        ['crates', 'pillar']
        >>> level.select(class_="spwan")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: ...: class_ ['spwan'] matches no object; the objects' classes are ['', 'spawn']
        """
        return select_objects(
            self.where, self._chosen(layers), name=name, class_=class_, kind=kind,
            property=property, predicate=where,
        )  # fmt: skip

    def _placed(self, layers: Objects) -> list[tuple[MapObject, tuple[float, float]]]:
        out = []
        for o in self._chosen(layers):
            at = centre(o)
            if at is not None:
                out.append((o, at))
        return out

    def waypoints(
        self, layers: Objects = None, *, name: str = "waypoint"
    ) -> npt.NDArray[np.float64]:
        """The objects named (or of class) ``name``, any case, as an ``(n, 2)`` array of
        map pixels ``(x, y)`` (a point's position, the centre of any other shape), in
        layer and object order.

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> read_tiled(bundled_level()).waypoints().tolist()
        [[136.0, 120.0], [360.0, 168.0], [200.0, 280.0], [456.0, 72.0]]
        """
        key = name.lower()
        pts = [at for o, at in self._placed(layers) if key in (o.name.lower(), o.class_.lower())]
        return np.array(pts, dtype=np.float64).reshape(-1, 2)

    def spawns(
        self,
        layers: Objects = None,
        *,
        name: str | Iterable[str] | None = None,
        class_: str | Iterable[str] | None = None,
    ) -> dict[str, list[tuple[float, float]]]:
        """Spawn places by name: each name's positions in map pixels ``(x, y)``, in
        object order. A point gives its position, any other shape (rectangle, ellipse,
        polygon, tile object) its centre.

        Which objects: those of class ``spawn`` or named ``spawn`` (any case), or,
        with ``name`` or ``class_``, those with that name or class (exactly; as
        :meth:`select`); ``layers`` may also be the objects themselves. An object with
        no name is listed under its class (or ``"spawn"``).

        Examples
        --------
        >>> from pathcraft.io.tiled import bundled_level, read_tiled
        >>> level = read_tiled(bundled_level())
        >>> level.spawns()
        {'player': [(40.0, 40.0)], 'enemy': [(472.0, 280.0), (296.0, 56.0)]}
        >>> level.spawns(name="player")
        {'player': [(40.0, 40.0)]}
        """
        if name is not None or class_ is not None:
            layers = self.select(layers, name=name, class_=class_)
        out: dict[str, list[tuple[float, float]]] = {}
        default = name is None and class_ is None
        for o, at in self._placed(layers):
            if default and "spawn" not in (o.class_.lower(), o.name.lower()):
                continue
            out.setdefault(o.name or o.class_ or "spawn", []).append(at)
        return out
