"""What every world is: the :class:`World` protocol, and its capabilities provided or
refused by name.

A world (:class:`~pathcraft.Grid`, :class:`~pathcraft.hexgrid.HexGrid`,
:class:`~pathcraft.hexgrid.MovesGrid`, :class:`~pathcraft.VoxelGrid`,
:class:`~pathcraft.Level`, :class:`~pathcraft.Graph`, :class:`~pathcraft.WaypointGraph`,
:class:`~pathcraft.NavMesh`) answers the query contract (``find_path``, ``find_paths``,
``path_costs``, ``start_search``, ``version``) and has every capability as a method:

=================== ==================================================================
capability          methods
=================== ==================================================================
``"plot"``          ``plot(result=None, ax=None, **kwargs)``: a picture of the world
                    (and of a search on it); needs the ``viz`` extra
``"save"``          ``kind`` (a string), ``to_arrays()``, ``from_arrays(arrays)``:
                    what :func:`pathcraft.io.save` and :func:`pathcraft.io.load` use
``"agent_space"``   ``agent_space()``: the :class:`~pathcraft.agents.Space` agents move
                    through (:func:`pathcraft.agents.space_for` asks for it)
``"replanner"``     ``replanner(start, goal)``: an incremental planner
                    (:class:`~pathcraft.replan.Replanner`) over the world's edits
``"reachability"``  ``components()`` (the component of every place, and their
                    count) and ``reachable(start, goal)``: built on first use, kept
                    for the world's version; a world with them answers a goal out
                    of reach at once (``reason="unreachable"``, nothing expanded);
                    and the one hook they are drawn from, ``_move_graph()`` (the
                    world's move graph, private: its arrays are the package's own),
                    which :mod:`pathcraft.mapf` reads every world's moves from too
``"places"``        ``places()``: every place of the world in a list (walkable cells,
                    nodes), what multi-agent planners (:mod:`pathcraft.mapf`'s
                    reservation tables) number; refused where places are points of
                    the plane
=================== ==================================================================

A world without a capability still has the method: it raises :class:`CapabilityError`
naming the world and the capability (through :func:`refuse`). Agents, io, viz and the
replanner ask the world; they never switch on its type.

This module is the ground floor: it imports nothing of pathcraft but, when a saved
file names a kind no loaded world registered yet, the module of that built-in kind
(:func:`world_class`), the way ``import pathcraft`` loads its names on first use.

Examples
--------
>>> from pathcraft import Grid, VoxelGrid, World
>>> import numpy as np
>>> grid = Grid.from_ascii("...")
>>> isinstance(grid, World), grid.kind
(True, 'grid')
>>> VoxelGrid(np.ones((1, 2, 2))).plot(None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pathcraft.world.CapabilityError: VoxelGrid does not provide plot: ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pathcraft._reach import Moves
    from pathcraft.result import PathResult

__all__ = [
    "CAPABILITIES",
    "CapabilityError",
    "World",
    "kind_of",
    "refuse",
    "refused",
    "register_kind",
    "world_class",
    "world_kinds",
]

#: The capabilities a world provides or refuses by name.
CAPABILITIES = ("plot", "save", "agent_space", "replanner", "reachability", "places")


class CapabilityError(NotImplementedError):
    """A world was asked for a capability it does not provide.

    A subclass of :class:`NotImplementedError`, not of :class:`TypeError`: the
    argument *is* a world, of the right kind for the query contract; what it lacks is
    one method's meaning (a voxel grid has no picture yet, a mesh no replanner),
    which is what ``NotImplementedError`` says of a method left without a body.
    ``world`` and ``capability`` hold the names the message gives.

    Examples
    --------
    >>> from pathcraft.world import CapabilityError
    >>> error = CapabilityError("VoxelGrid", "plot", "3-D pictures are to come")
    >>> str(error), isinstance(error, NotImplementedError)
    ('VoxelGrid does not provide plot: 3-D pictures are to come', True)
    """

    def __init__(self, world: str, capability: str, reason: str = "") -> None:
        self.world = world
        self.capability = capability
        tail = f": {reason}" if reason else ""
        super().__init__(f"{world} does not provide {capability}{tail}")


def refuse(world: object, capability: str, reason: str = "") -> NoReturn:
    """Raise the one refusal: :class:`CapabilityError` naming ``world``'s class and
    ``capability`` (one of :data:`CAPABILITIES`), with ``reason`` after a colon.

    Examples
    --------
    >>> from pathcraft.world import refuse
    >>> refuse(object(), "plot", "no pictures")
    Traceback (most recent call last):
    ...
    pathcraft.world.CapabilityError: object does not provide plot: no pictures
    """
    if capability not in CAPABILITIES:
        raise ValueError(f"capability must be one of {list(CAPABILITIES)}; got {capability!r}")
    raise CapabilityError(type(world).__name__, capability, reason)


@runtime_checkable
class World(Protocol):
    """The protocol every world follows: the query contract and the capabilities.

    ``isinstance(x, World)`` checks that ``x`` has every name (a runtime-checkable
    protocol looks at names, not signatures). Cells, nodes and positions are each
    world's own: ``(row, col)`` cells, ``(z, row, col)`` voxels, ``(floor, row, col)``,
    graph labels, ``(x, y)`` points.

    Examples
    --------
    >>> from pathcraft import Graph, World
    >>> isinstance(Graph(2, [0], [1]), World), isinstance("maze", World)
    (True, False)
    """

    #: The name of the world in a saved file (``"grid"``, ``"hexgrid"``, ...).
    kind: str

    @property
    def version(self) -> int:
        """A number that grows with every edit of the world.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("..")
        >>> grid[0, 1] = 2.0
        >>> grid.version
        1
        """
        ...

    def find_path(self, start: Any, goal: Any, **options: Any) -> PathResult:
        """The path from ``start`` to ``goal`` (a falsy result when there is none).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#.").find_path((0, 0), (0, 2)).reason
        'unreachable'
        """
        ...

    def find_paths(self, starts: Any, goals: Any, **options: Any) -> list[PathResult]:
        """Many queries at once, one result each.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> [r.cost for r in Grid.from_ascii("...").find_paths([(0, 0)], [(0, 2)])]
        [2.0]
        """
        ...

    def path_costs(self, starts: Any, goals: Any, **options: Any) -> npt.NDArray[np.float64]:
        """The costs of many queries (``inf`` where there is no path).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#.").path_costs([(0, 0)], [(0, 2)]).tolist()
        [inf]
        """
        ...

    def start_search(self, start: Any, goal: Any, **options: Any) -> Any:
        """The search of :meth:`find_path`, to be stepped (``step(n)``).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> search = Grid.from_ascii("...").start_search((0, 0), (0, 2))
        >>> search.step(10), search.result.cost
        ('found', 2.0)
        """
        ...

    def plot(self, result: PathResult, ax: Any = None, **kwargs: Any) -> Any:
        """Capability ``"plot"``: draw the world and ``result`` on a matplotlib Axes.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("...")
        >>> grid.plot(grid.find_path((0, 0), (0, 2), record=True)).get_title()
        'cost 2.00, 3 expanded'
        """
        ...

    def to_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Capability ``"save"``: the world as named NumPy arrays (no Python objects).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph(2, [0], [1]).to_arrays()["targets"].tolist()
        [1]
        """
        ...

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[Any]]) -> Any:
        """Capability ``"save"``: the world :meth:`to_arrays` wrote, checked.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_arrays(Graph(2, [0], [1]).to_arrays()).num_edges
        1
        """
        ...

    def agent_space(self) -> Any:
        """Capability ``"agent_space"``: the space agents move through.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("..").agent_space().key((0, 1))
        (0, 1)
        """
        ...

    def replanner(self, start: Any, goal: Any) -> Any:
        """Capability ``"replanner"``: an incremental planner from ``start`` to ``goal``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").replanner((0, 0), (0, 2)).path().cost
        2.0
        """
        ...

    def components(self) -> tuple[npt.NDArray[np.int32], int]:
        """Capability ``"reachability"``: the component of every place (an array of
        the world's places: cells in its shape, nodes, waypoints or polygons in
        index order; ``-1`` on walls) and the number of components.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#.").components()[1]
        2
        """
        ...

    def reachable(self, start: Any, goal: Any) -> bool:
        """Capability ``"reachability"``: whether a path leads from ``start`` to
        ``goal`` (the places ``find_path`` takes).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#.").reachable((0, 0), (0, 2))
        False
        """
        ...

    def places(self) -> list[Any]:
        """Capability ``"places"``: every place of the world (the walkable cells, in
        the order of its array; the nodes, in index order), each as ``find_path``
        takes it.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#.").places()
        [(0, 0), (0, 2)]
        """
        ...

    def _move_graph(self) -> Moves:
        """Capability ``"reachability"``, the hook its labels are drawn from: the
        world's moves now, as :class:`pathcraft._reach.Moves` (CSR arrays over the
        world's own numbering: a cell world's padded cells, a graph's nodes, a mesh's
        polygons; ``places`` marks the ones that are places, in the order
        :meth:`places` lists them, a target of ``-1`` is no move, ``directed`` is
        False when every move can be undone). Private because those arrays are the
        package's own; :func:`pathcraft.mapf.adjacency` reads every world through
        it (a grid's own labels come from its compiled labelling, equal to these).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> moves = Graph(3, [0, 1], [1, 2], directed=False)._move_graph()
        >>> moves.offsets.tolist(), moves.targets.tolist(), moves.directed
        ([0, 1, 3, 4], [1, 2, 0, 1], False)
        """
        ...


def refused(world: str, method: str, capability: str, reason: str) -> Callable[..., NoReturn]:
    """The method ``method`` of the class ``world`` that refuses ``capability``
    (:func:`refuse` with ``reason``), written once for every world that has not got it.

    Examples
    --------
    >>> from pathcraft.world import refused
    >>> class Cave:
    ...     plot = refused("Cave", "plot", "plot", "caves are dark")
    >>> Cave.plot.__qualname__
    'Cave.plot'
    >>> Cave().plot(None)
    Traceback (most recent call last):
    ...
    pathcraft.world.CapabilityError: Cave does not provide plot: caves are dark
    """
    if capability not in CAPABILITIES:
        raise ValueError(f"capability must be one of {list(CAPABILITIES)}; got {capability!r}")

    def refusal(self: object, *args: Any, **kwargs: Any) -> NoReturn:
        refuse(self, capability, reason)

    refusal.__name__ = method
    refusal.__qualname__ = f"{world}.{method}"
    refusal.__doc__ = f"""Capability ``"{capability}"``: refused ({reason}).

        Raises
        ------
        CapabilityError
            Always, naming the world and the capability (``tests/test_world.py``
            asserts it for every world).

        Examples
        --------
        >>> world.{method}(...)  # doctest: +SKIP
        Traceback (most recent call last):
        ...
        pathcraft.world.CapabilityError: {world} does not provide {capability}: {reason}
        """
    return refusal


# ---------------------------------------------------------------------- saved kinds

_W = TypeVar("_W", bound=type)

#: kind -> the class that loads it (filled by the worlds, :func:`register_kind`).
_KINDS: dict[str, type] = {}
#: Where the built-in kinds live, imported on the first load of a kind not yet seen.
_HOMES = {
    "grid": "pathcraft.grid",
    "graph": "pathcraft.graph",
    "waypoints": "pathcraft.waypoints",
    "navmesh": "pathcraft.navmesh",
    "navmesh3d": "pathcraft.navmesh3d",
    "hexgrid": "pathcraft.hexgrid",
    "movesgrid": "pathcraft.hexgrid",
    "voxelgrid": "pathcraft.voxel",
    "level": "pathcraft.layered",
}


def register_kind(cls: _W) -> _W:
    """Register a world class under its ``kind``, for :func:`pathcraft.io.load`.

    The class needs ``kind`` (a string) and a ``from_arrays`` classmethod; a kind
    already registered by another class is refused.

    Examples
    --------
    >>> from pathcraft.world import register_kind, world_class
    >>> class Ring:
    ...     kind = "doc-ring"
    ...     @classmethod
    ...     def from_arrays(cls, arrays):
    ...         return cls()
    >>> register_kind(Ring) is Ring, world_class("doc-ring") is Ring
    (True, True)
    """
    kind = getattr(cls, "kind", None)
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__}.kind must be a non-empty string; got {kind!r}")
    if not callable(getattr(cls, "from_arrays", None)):
        raise TypeError(f"{cls.__name__} needs a from_arrays classmethod to be registered")
    known = _KINDS.get(kind)
    if known is not None and known is not cls and known.__qualname__ != cls.__qualname__:
        raise ValueError(f"kind {kind!r} is already registered by {known.__name__}")
    _KINDS[kind] = cls
    return cls


def world_kinds() -> tuple[str, ...]:
    """The kinds a file can hold: the built-in ones and every registered one.

    Examples
    --------
    >>> from pathcraft.world import world_kinds
    >>> world_kinds()[:4]
    ('grid', 'graph', 'waypoints', 'navmesh')
    """
    return tuple(dict.fromkeys([*_HOMES, *_KINDS]))


def world_class(kind: str) -> type | None:
    """The class registered for ``kind`` (its built-in home imported when needed), or
    None for a kind nobody registered.

    Examples
    --------
    >>> from pathcraft.world import world_class
    >>> world_class("hexgrid").__name__, world_class("hexmap")
    ('HexGrid', None)
    """
    if kind not in _KINDS and kind in _HOMES:
        importlib.import_module(_HOMES[kind])  # registers its worlds
    return _KINDS.get(kind)


def kind_of(world: object) -> str | None:
    """``world``'s saved kind when it is a world of a registered kind, else None.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.world import kind_of
    >>> kind_of(Grid.from_ascii(".")), kind_of("maze")
    ('grid', None)
    """
    kind = getattr(type(world), "kind", None)
    return kind if isinstance(kind, str) and _KINDS.get(kind) is type(world) else None
