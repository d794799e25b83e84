"""Adapters that let agents move through grids and graphs (and, later, meshes).

An agent needs five things from the world it moves in, gathered in the
:class:`Space` protocol: check and normalise a node (``key``), plan a path
(``find_path``, a :class:`~pathcraft.result.PathResult` like every world's), the path
as a list of keys (``nodes``), the cost of each step along it (``step_costs``) and
where a node is in the plane (``point``, ``(x, y)``). A navigation mesh adapter provides the same
four: its nodes are ``(x, y)`` points located on the mesh, its paths the funnel's
corners, its step costs the Euclidean lengths of the straight segments.

Grid cells are ``(row, col)``; a cell's centre is the point ``(col + 0.5, row + 0.5)``
in ``(x, y)``: cell ``(r, c)`` covers ``c <= x < c + 1``, ``r <= y < r + 1``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Literal, Protocol, cast

import numpy as np
import numpy.typing as npt

from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.graph import Graph
from pathcraft.grid import Grid
from pathcraft.result import PathResult

__all__ = ["GraphSpace", "GridSpace", "Space", "space_for", "walkable_at"]

_SQRT2 = float(np.sqrt(2.0))


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


class GridSpace:
    """A :class:`~pathcraft.grid.Grid` as a :class:`Space`: nodes are ``(row, col)``.

    Parameters
    ----------
    grid : Grid
        The grid; it may change between searches (``grid[r, c] = cost``).
    algorithm : {"auto", "astar", "jps"}
        How paths are found. ``"auto"`` uses jump point search where it applies (an
        8-connected grid of uniform cost: the same optimal cost as A*, many times
        faster on open maps) and A* elsewhere.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.agents import GridSpace
    >>> space = GridSpace(Grid.from_ascii("...", diagonal="never"))
    >>> path = space.nodes(space.find_path((0, 0), (0, 2)))
    >>> path, space.step_costs(path).tolist(), space.point((0, 2))
    ([(0, 0), (0, 1), (0, 2)], [1.0, 1.0], (2.5, 0.5))
    """

    __slots__ = ("algorithm", "grid")

    def __init__(
        self, grid: Grid, *, algorithm: Literal["auto", "astar", "jps"] = "auto"
    ) -> None:
        if not isinstance(grid, Grid):
            raise TypeError(f"grid must be a pathcraft Grid; got {type(grid).__name__}")
        self.grid = grid
        self.algorithm: str = check_choice("algorithm", algorithm, ("auto", "astar", "jps"))

    def key(self, node: Any, name: str = "node") -> tuple[int, int]:
        """``node``, a ``(row, col)`` cell, checked (on the grid, not a wall) as a tuple
        of ints; ``name`` is the argument's name in the error raised.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii("..#"))
        >>> space.key(np.array([0, 1]))
        (0, 1)
        >>> space.key((0, 2), name="start")
        Traceback (most recent call last):
        ...
        ValueError: start (0, 2) is a wall
        """
        row, col = self.grid.check_cells(node, name=name, many=False)[0].tolist()
        return row, col

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The optimal path between two ``(row, col)`` cells, by jump point search or A*
        (see ``algorithm``); ``max_expansions`` as in :meth:`Grid.find_path
        <pathcraft.grid.Grid.find_path>`.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> grid = Grid.from_ascii('''
        ... ...
        ... .#.
        ... ...
        ... ''')
        >>> jps = GridSpace(grid).find_path((0, 0), (2, 2))
        >>> astar = GridSpace(grid, algorithm="astar").find_path((0, 0), (2, 2))
        >>> jps.cost, astar.cost, jps.jump_points.tolist(), astar.jump_points
        (4.0, 4.0, [[0, 0], [0, 2], [2, 2]], None)
        """
        result: PathResult = self._run(self.grid.find_path, start, goal, max_expansions)
        return result

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """:meth:`find_path`'s search as a compiled search (``world.start_search``),
        stepped a few expansions at a time (``search.step(n)``).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> search = GridSpace(Grid.from_ascii("....")).start_search((0, 0), (0, 3))
        >>> search.step(1), search.step(1), search.result.cost    # JPS: two jump points
        ('in_progress', 'found', 3.0)
        """
        search: CompiledSearch = self._run(self.grid.start_search, start, goal, max_expansions)
        return search

    def _run(self, method: Any, start: Hashable, goal: Hashable, limit: int | None) -> Any:
        """``method(start, goal, algorithm=..., max_expansions=limit)`` with this
        space's choice of algorithm (JPS where it applies)."""
        s, g = cast(tuple[int, int], start), cast(tuple[int, int], goal)
        if self.algorithm == "astar" or (
            self.algorithm == "auto" and self.grid.diagonal not in ("no_corner_cut", "always")
        ):
            return method(s, g, algorithm="astar", max_expansions=limit)
        try:
            return method(s, g, algorithm="jps", max_expansions=limit)
        except ValueError:
            if self.algorithm == "jps":
                raise
            return method(s, g, algorithm="astar", max_expansions=limit)  # costs vary

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The cells of ``result``'s path as ``(row, col)`` tuples.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents.spaces import GridSpace
        >>> space = GridSpace(Grid.from_ascii(".."))
        >>> space.nodes(space.find_path((0, 0), (0, 1)))
        [(0, 0), (0, 1)]
        """
        return [(int(r), int(c)) for r, c in np.asarray(result.path).tolist()]

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The cost of each step of a path of ``(row, col)`` cells: the cost of the cell
        entered, times ``sqrt(2)`` for a diagonal step.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii('''
        ... .2
        ... .4
        ... '''))
        >>> space.step_costs([(0, 0), (0, 1), (1, 0)]).round(4).tolist()
        [2.0, 1.4142]
        """
        if len(path) < 2:
            return np.zeros(0)
        cells = np.asarray(path, dtype=np.intp)
        moves = np.abs(np.diff(cells, axis=0)).sum(axis=1)
        length = np.where(moves == 2, _SQRT2, 1.0)
        return np.asarray(self.grid.cost[cells[1:, 0], cells[1:, 1]] * length, dtype=np.float64)

    def point(self, node: Hashable) -> tuple[float, float]:
        """The centre of cell ``(row, col)`` as ``(x, y)``: ``(col + 0.5, row + 0.5)``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> import numpy as np
        >>> GridSpace(Grid(np.ones((2, 3)))).point((1, 2))
        (2.5, 1.5)
        """
        r, c = cast(tuple[int, int], node)
        return float(c) + 0.5, float(r) + 0.5

    def contains(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which ``(x, y)`` points lie in walkable cells (an ``(n, 2)`` array in).

        Cell ``(row, col)`` covers ``col <= x < col + 1``, ``row <= y < row + 1``; points
        off the grid are not walkable.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.agents import GridSpace
        >>> space = GridSpace(Grid.from_ascii(".#"))
        >>> space.contains([(0.5, 0.5), (1.5, 0.5), (-0.5, 0.5)]).tolist()
        [True, False, False]
        """
        return walkable_at(self.grid.walkable, np.asarray(points, dtype=np.float64))


class GraphSpace:
    """A :class:`~pathcraft.graph.Graph` as a :class:`Space`: nodes are its labels.

    ``point`` needs the graph's coordinates (``coords=``).

    Examples
    --------
    >>> from pathcraft import Graph
    >>> from pathcraft.agents import GraphSpace
    >>> space = GraphSpace(Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0]))
    >>> path = space.nodes(space.find_path(0, 2))
    >>> path, space.step_costs(path).tolist()
    ([0, 1, 2], [1.0, 1.0])
    """

    __slots__ = ("graph",)

    def __init__(self, graph: Graph) -> None:
        if not isinstance(graph, Graph):
            raise TypeError(f"graph must be a pathcraft Graph; got {type(graph).__name__}")
        self.graph = graph

    def key(self, node: Any, name: str = "node") -> Hashable:
        """``node`` checked to be a label of the graph; ``name`` is the argument's name
        in the error raised.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}))
        >>> space.key("b")
        'b'
        >>> space.key("z", name="goal")
        Traceback (most recent call last):
        ...
        ValueError: goal 'z' is not a node of this graph
        """
        return self.graph.label(self.graph.index(node, name=name))

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """The optimal path between two labels, by the graph's A* (its default
        heuristic); ``max_expansions`` as in :meth:`Graph.find_path
        <pathcraft.graph.Graph.find_path>`.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(3, [0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0]))
        >>> space.find_path(0, 2).path, space.find_path(2, 0).found
        ([0, 1, 2], False)
        """
        return self.graph.astar(start, goal, max_expansions=max_expansions)

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """The graph's A* (as in :meth:`find_path`) to be advanced frame by frame.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> plan = GraphSpace(Graph(3, [0, 1], [1, 2], [1.0, 1.0])).start_search(0, 2)
        >>> [plan.step(1), plan.step(5)], plan.result.path
        (['in_progress', 'found'], [0, 1, 2])
        """
        return self.graph.start_search(start, goal, max_expansions=max_expansions)

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The labels on ``result``'s path.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents.spaces import GraphSpace
        >>> space = GraphSpace(Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}))
        >>> space.nodes(space.find_path("a", "b"))
        ['a', 'b']
        """
        return list(result.path)

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The weight of each step of a path of labels (the cheapest of parallel edges).

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(3, [0, 0, 1], [1, 1, 2], [4.0, 2.0, 3.0]))
        >>> space.step_costs([0, 1, 2]).tolist()
        [2.0, 3.0]
        """
        out = np.empty(max(len(path) - 1, 0))
        for i in range(len(path) - 1):
            out[i] = min(w for v, w in self.graph.neighbors(path[i]) if v == path[i + 1])
        return out

    def point(self, node: Hashable) -> tuple[float, float]:
        """Where the node labelled ``node`` is, ``(x, y)`` from the graph's coordinates.

        Raises
        ------
        ValueError
            The graph has no coordinates.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> from pathcraft.agents import GraphSpace
        >>> space = GraphSpace(Graph(2, [0], [1], coords=[(0, 0), (3, 4)]))
        >>> space.point(1)
        (3.0, 4.0)
        >>> GraphSpace(Graph(2, [0], [1])).point(1)
        Traceback (most recent call last):
        ...
        ValueError: positions need node coordinates: build the Graph with coords=
        """
        coords = self.graph.coords
        if coords is None:
            raise ValueError("positions need node coordinates: build the Graph with coords=")
        x, y = coords[self.graph.index(node)][:2]
        return float(x), float(y)


def walkable_at(
    walkable: npt.NDArray[np.bool_], points: npt.NDArray[np.float64]
) -> npt.NDArray[np.bool_]:
    """Which ``(x, y)`` points lie in True cells of a ``(rows, cols)`` mask."""
    rows, cols = walkable.shape
    col = np.floor(points[..., 0])
    row = np.floor(points[..., 1])
    inside = (row >= 0) & (row < rows) & (col >= 0) & (col < cols)
    out = np.zeros(points.shape[:-1], dtype=bool)
    r = row[inside].astype(np.intp)
    c = col[inside].astype(np.intp)
    out[inside] = walkable[r, c]
    return out


def space_for(world: Any) -> Space:
    """The :class:`Space` of a grid or graph; a Space is returned as it is.

    Raises
    ------
    TypeError
        ``world`` is none of these.

    Examples
    --------
    >>> from pathcraft import Graph, Grid
    >>> from pathcraft.agents import space_for
    >>> type(space_for(Grid.from_ascii(".."))).__name__
    'GridSpace'
    >>> type(space_for(Graph(2, [0], [1]))).__name__
    'GraphSpace'
    >>> space_for("maze")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: world must be a Grid, a Graph or a Space (...); got str
    """
    if isinstance(world, Grid):
        return GridSpace(world)
    if isinstance(world, Graph):
        return GraphSpace(world)
    needs = ("key", "find_path", "nodes", "step_costs", "point")
    if all(callable(getattr(world, n, None)) for n in needs):
        return world  # type: ignore[no-any-return]
    raise TypeError(
        "world must be a Grid, a Graph or a Space (key, find_path, nodes, step_costs, "
        "point); "
        f"got {type(world).__name__}"
    )
