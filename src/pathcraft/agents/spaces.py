"""What agents need of the world they move in: the :class:`Space` protocol, and
:func:`space_for`, which asks a world for its space (``world.agent_space()``).

The worlds build their own spaces: :class:`GridSpace` (a grid's, defined in
:mod:`pathcraft.grid._space`), :class:`GraphSpace` (a graph's and a waypoint graph's,
:mod:`pathcraft.graph._space`) and the cell worlds' (hexagonal, move and voxel grids,
levels: :mod:`pathcraft._cellspace`) and a navigation mesh's
(:class:`~pathcraft.navmesh.MeshSpace`, continuous: its nodes are ``(x, y)`` points); a
world without one refuses by name (:class:`~pathcraft.world.CapabilityError`).

An agent needs five things from the world it moves in, gathered in the
:class:`Space` protocol: check and normalise a node (``key``), plan a path
(``find_path``, a :class:`~pathcraft.result.PathResult` like every world's), the path
as a list of keys (``nodes``), the cost of each step along it (``step_costs``) and
where a node is in the plane (``point``, ``(x, y)``). A navigation mesh adapter provides the same
four: its nodes are ``(x, y)`` points located on the mesh, its paths the funnel's
corners, its step costs the Euclidean lengths of the straight segments.

A space may also have ``snap(node, name)``, the nearest walkable node to any node
(:meth:`GridSpace.snap`): agents built with ``snap=True`` call it in place of
``key``; a space without it makes them refuse ``snap=True`` by name. A space whose
``continuous`` is True (a mesh's) makes a :class:`~pathcraft.agents.Pursuer` plan from
where it stands, between nodes too; one with ``reaim(corridor, start, goal)``
(:meth:`MeshSpace.reaim <pathcraft.navmesh.MeshSpace.reaim>`) lets it re-aim a moving
target without a search; one with ``toward(start, goal)`` (:meth:`GridSpace.toward`,
:meth:`MeshSpace.toward <pathcraft.navmesh.MeshSpace.toward>`: a few legal steps toward
the goal, or None) lets a budgeted pursuer walk on while a plan whose search tells no
partial path is found.

Agents at continuous ``(x, y)`` positions (:class:`~pathcraft.agents.PathFollower`)
need one thing more, a :class:`Floor`: which points are walkable (``walkable``) and a
move that never leaves them (``slide``). A space that has those two methods is its own
floor (a navigation mesh's space, with continuous positions); otherwise its
``floor()`` gives one, or refuses by name (:func:`floor_for` asks):

================== ==========================================================
world              floor
================== ==========================================================
Grid               its walkable square cells (a move stops at a wall's face)
HexGrid            its hexes (the regions nearest each hex's centre)
MovesGrid          free space: its jumps are the motion
Graph (coords=)    free space: its edges are the motion
WaypointGraph      free space: its links are lines of sight
VoxelGrid, Level   refused: their cells are 3-D
================== ==========================================================

Grid cells are ``(row, col)``; a cell's centre is the point ``(col + 0.5, row + 0.5)``
in ``(x, y)``: cell ``(r, c)`` covers ``c <= x < c + 1``, ``r <= y < r + 1``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pathcraft._cellspace import walkable_at
from pathcraft._sliced import CompiledSearch
from pathcraft.graph import GraphSpace
from pathcraft.grid import GridSpace
from pathcraft.result import PathResult
from pathcraft.world import CapabilityError

__all__ = ["Floor", "GraphSpace", "GridSpace", "Space", "floor_for", "space_for", "walkable_at"]


class Space(Protocol):
    """What an agent needs from the world it moves in.

    :class:`GridSpace` and :class:`GraphSpace` adapt pathcraft's worlds; any object with
    these five methods is a Space too, and :func:`space_for` (what
    :class:`~pathcraft.agents.Pursuer` calls on its ``world``) takes it as it is.

    Examples
    --------
    A corridor of ten rooms, numbered 0 to 9, one unit apart along ``x``:

    >>> import numpy as np
    >>> from pathcraft.agents import Pursuer, space_for
    >>> from pathcraft.search import astar
    >>> class Corridor:
    ...     def key(self, node, name="node"):
    ...         if node not in range(10):
    ...             raise ValueError(f"{name} {node!r} is not a room")
    ...         return node
    ...     def find_path(self, start, goal, *, max_expansions=None):
    ...         step = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m < 10]
    ...         return astar(start, goal, step, lambda n: abs(goal - n),
    ...                      max_expansions=max_expansions)
    ...     def nodes(self, result):
    ...         return list(result.path)
    ...     def step_costs(self, path):
    ...         return np.ones(max(len(path) - 1, 0))
    ...     def point(self, node):
    ...         return float(node), 0.0
    >>> corridor = Corridor()
    >>> space_for(corridor) is corridor
    True
    >>> runner = Pursuer(corridor, 0, speed=2.0)
    >>> runner.step(9, dt=1.0), runner.node, runner.position, runner.cost_to_target
    ('chasing', 2, (2.0, 0.0), 7.0)
    """

    def key(self, node: Any, name: str = "node") -> Hashable:
        """``node`` checked (it exists and is walkable) as a hashable value.

        ``name`` is the argument's name in the error raised for a bad node.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii(".#"))
        >>> space.key([0, 0])
        (0, 0)
        >>> space.key((0, 1), name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal (0, 1) is a wall
        """
        ...

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """An optimal search's result from ``start`` to ``goal`` (keys), giving up after
        ``max_expansions`` expanded nodes (None: no limit).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0]))
        >>> space.find_path(0, 2).cost, space.find_path(0, 2, max_expansions=1).reason
        (2.0, 'max_expansions')
        """
        ...

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """The same search as :meth:`find_path`, to be stepped across frames.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents.spaces import GridSpace
        >>> search = GridSpace(Grid.from_ascii("...")).start_search((0, 0), (0, 2))
        >>> search.step(1), search.step(10), search.result.cost
        ('in_progress', 'found', 2.0)
        """
        ...

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The path of ``result`` as a list of keys.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents.spaces import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..."))
        >>> space.nodes(space.find_path((0, 0), (0, 2)))
        [(0, 0), (0, 1), (0, 2)]
        """
        ...

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The cost of each step of ``path`` (``len(path) - 1`` values).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..3"))
        >>> space.step_costs([(0, 0), (0, 1), (0, 2)]).tolist()
        [1.0, 3.0]
        """
        ...

    def point(self, node: Hashable) -> tuple[float, float]:
        """Where ``node`` is, ``(x, y)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> GridSpace(Grid.from_ascii("...")).point((0, 2))  # a cell's centre
        (2.5, 0.5)
        """
        ...


def space_for(world: Any) -> Space:
    """The :class:`Space` of a world (what its ``agent_space()`` returns); a Space is
    returned as it is.

    Raises
    ------
    CapabilityError
        A world without an agents' space, naming it.
    TypeError
        ``world`` is neither a world nor a Space.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Graph, Grid
    >>> from pathcraft.agents import space_for
    >>> from pathcraft.hexgrid import HexGrid
    >>> type(space_for(Grid.from_ascii(".."))).__name__
    'GridSpace'
    >>> type(space_for(Graph(2, [0], [1]))).__name__
    'GraphSpace'
    >>> type(space_for(HexGrid(np.ones((2, 2))))).__name__
    'CellSpace'
    >>> space_for("maze")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: world must be a pathcraft world or a Space (...); got str
    """
    needs = ("key", "find_path", "nodes", "step_costs", "point")
    if all(callable(getattr(world, n, None)) for n in needs):
        return world  # type: ignore[no-any-return]
    if callable(getattr(world, "agent_space", None)):
        space: Space = world.agent_space()
        return space
    raise TypeError(
        "world must be a pathcraft world or a Space (key, find_path, nodes, step_costs, "
        f"point); got {type(world).__name__}"
    )


class Floor(Protocol):
    """Where agents at continuous ``(x, y)`` points may stand, and how they move.

    Any object with these two methods is a floor; a world's space is one when it has
    them (a navigation mesh's), or gives one from ``floor()``. A floor may also have
    ``version`` (the world's, growing with its edits: agents then see new walls) and
    ``cell_at(point)`` (the node under a point: agents whose way is cut by an edit are
    given a new path from there by the world's ``replanner``), and ``dims`` (3 when its
    points are ``(x, y, z)``, as a 3-D navigation mesh's; 2 when absent).

    Examples
    --------
    A floor of the unit disc, written by hand:

    >>> import numpy as np
    >>> from pathcraft._floors import slide_by
    >>> from pathcraft.agents import PathFollower
    >>> class Disc:
    ...     def walkable(self, points):
    ...         return np.hypot(points[..., 0], points[..., 1]) < 1.0
    ...     def slide(self, points, delta):
    ...         return slide_by(self.walkable, points, delta)
    >>> walker = PathFollower([[(0.0, 0.0), (0.5, 0.0)]], grid=Disc(), tolerance=0.01)
    >>> while not walker.step(0.1).all():
    ...     pass
    >>> walker.positions.round(1).tolist()
    [[0.5, 0.0]]
    """

    def walkable(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """Which ``(x, y)`` points (``(..., 2)``) an agent may stand on.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#").agent_space().floor().walkable(np.array([[1.5, 0.5]]))
        array([False])
        """
        ...

    def slide(
        self, points: npt.NDArray[np.float64], delta: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """``points`` (``(n, 2)``) moved by ``delta`` as far as the floor lets them,
        sliding along what blocks them; and which axes were blocked (``(n, 2)``).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> floor = Grid.from_ascii(".#").agent_space().floor()
        >>> floor.slide(np.array([[0.5, 0.5]]), np.array([[1.0, 0.0]]))[1].tolist()
        [[True, False]]
        """
        ...


def floor_for(world: Any, agent: str = "PathFollower") -> Floor:
    """The :class:`Floor` ``agent`` moves on in ``world``: the world's space when it
    has ``walkable`` and ``slide``, else what its ``floor()`` gives; a world or a
    space with neither is refused by name.

    Raises
    ------
    CapabilityError
        A world whose space has no floor (its cells are 3-D, a graph without
        coordinates, a space with neither method), naming the world and ``agent``.
    TypeError
        ``world`` is neither a world nor a Space.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid, VoxelGrid
    >>> from pathcraft.hexgrid import HexGrid
    >>> from pathcraft.agents import floor_for
    >>> type(floor_for(Grid.from_ascii(".."))).__name__
    'SquareFloor'
    >>> type(floor_for(HexGrid(np.ones((2, 2))))).__name__
    'CentreFloor'
    >>> floor_for(VoxelGrid(np.ones((1, 2, 2))))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pathcraft.world.CapabilityError: VoxelGrid does not provide agent_space: PathFollower ...
    """
    if callable(getattr(world, "walkable", None)) and callable(getattr(world, "slide", None)):
        return world  # type: ignore[no-any-return]
    space: Any = space_for(world)
    if callable(getattr(space, "walkable", None)) and callable(getattr(space, "slide", None)):
        return space  # type: ignore[no-any-return]
    make = getattr(space, "floor", None)
    if not callable(make):
        raise CapabilityError(
            type(world).__name__, "agent_space",
            f"{agent} needs a floor: a space with walkable(points) and slide(points, delta), "
            "or floor()",
        )  # fmt: skip
    try:
        floor: Floor = make()
    except CapabilityError as exc:
        why = str(exc).partition(": ")[2]
        raise CapabilityError(exc.world, exc.capability, f"{agent} needs a floor; {why}") from exc
    return floor
