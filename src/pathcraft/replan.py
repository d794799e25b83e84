"""Incremental replanning for one agent on a changing world: :class:`Replanner`, over
the small protocol a world provides for it, :class:`ReplanSpace`.

A replanner keeps its search between calls. Each :meth:`Replanner.path` first asks the
world what changed since it last looked (``world.changes_since(version)``, the question
every editable world answers), repairs only the part of its search those changes
reach, and returns the current optimal path from the agent to the goal as a
:class:`~pathcraft.result.PathResult`: the same cost a fresh A* finds, after any
sequence of edits and moves. Tell it where the agent went with
:meth:`Replanner.move_to`.

**Why D* Lite.** The compiled core (``pathcraft._core.dstar``) runs D* Lite (Koenig and
Likhachev, 2002) rather than LPA*, its forward sibling, because the agent moves and the
goal does not: D* Lite searches from the goal, so the distances it keeps (cost *to the
goal*) stay true as the agent walks, and a move costs nothing but an offset on the
heap keys. LPA* keeps costs *from the start* and must start again whenever the start
moves. A change of goal (:meth:`Replanner.retarget`) restarts D* Lite too, at a cost
of the vertices the last search touched.

**What a world provides** (:class:`ReplanSpace`, from ``world.replan_space()``): its
places as the kernel's vertex numbers and back, the kernel's planner built over its
successors (a padded grid's stencil, or a CSR of successors from which the kernel
derives the predecessors), the heuristic's scale, and which vertices' edges its edits
since a version changed. The replanner knows no world by type: a grid, a graph, a
waypoint graph (over every candidate pair) and the hexagonal and move grids (over the
CSR of their moves) provide it; a world that cannot refuses by name
(:class:`~pathcraft.world.CapabilityError`).

When it pays: a change near the agent, or on its path, costs a repair of the region
whose distances changed, often a few hundred expansions where a fresh A* expands
thousands (``bench/results/replan.md``). A change that cuts the goal off, or a wall
that moves the optimal route far away, can cost more than a fresh search: D* Lite
re-expands every vertex whose distance rose before it can prove the new one.

Memory: a replanner holds about 22 bytes per cell (or node) of its world, allocated
once: plan for a few agents this way, not thousands on a large map (a crowd heading
for shared goals wants flow fields, :class:`~pathcraft.agents.FlowField`).

Grids: cells are ``(row, col)``; the grid's diagonal rule and costs apply exactly as
in :meth:`Grid.astar <pathcraft.grid.Grid.astar>`. Graphs: nodes are labels; weights
change with :meth:`Graph.set_weights <pathcraft.graph.Graph.set_weights>`. D* Lite
repairs need positive costs (a cycle of zero-weight edges can hold up a distance that
is no longer true), so while any edge of the graph weighs 0 (or less than 1e-12 of
the weights' sum, which rounding can lose), every change starts the search again:
still exact, not incremental. A wall built
on the agent's own cell, or on the goal, leaves no path: the result is empty with the
reason ``"unreachable"`` until it opens again.

Examples
--------
>>> from pathcraft import Grid
>>> grid = Grid.from_ascii('''
... ......
... ......
... ......
... ''', diagonal="never")
>>> agent = grid.replanner((1, 0), (1, 5))
>>> agent.path().cost
5.0
>>> grid[1, 3] = float("inf")               # a door closes ahead
>>> r = agent.path()
>>> r.cost, r.path[:3].tolist()
(7.0, [[1, 0], [0, 0], [0, 1]])
>>> agent.move_to((0, 1))                 # the agent walks: nothing to redo
>>> agent.path().cost, agent.path().expanded
(5.0, 0)
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pathcraft._core import dstar as _kernel
from pathcraft._kernels import FOUND
from pathcraft.result import PathResult, build_result

__all__ = ["ReplanSpace", "Replanner"]


class ReplanSpace(Protocol):
    """What D* Lite needs of a world (``world.replan_space()`` returns one).

    Vertices are the kernel's ints; nodes are the world's places (cells, labels).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> space = Grid.from_ascii("...").replan_space()
    >>> space.vertex((0, 2), "goal"), space.node(8)
    (8, (0, 2))
    """

    @property
    def world(self) -> Any:
        """The world, read live: ``version`` and ``changes_since`` are asked of it."""
        ...

    def vertex(self, node: Any, name: str) -> int:
        """``node`` checked (a ValueError naming ``name``) as a vertex.

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}).replan_space().vertex("b", "goal")
        1
        """
        ...

    def node(self, vertex: int) -> Hashable:
        """The place of ``vertex``: a ``(row, col)`` tuple, a label, ...

        Examples
        --------
        >>> from pathcraft import Graph
        >>> Graph.from_adjacency({"a": {"b": 1.0}, "b": {}}).replan_space().node(0)
        'a'
        """
        ...

    def planner(self, start: int, goal: int) -> _kernel.Planner:
        """The kernel's planner over the world's successors, searching now.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft._kernels import FOUND
        >>> planner = Grid.from_ascii("...").replan_space().planner(6, 8)
        >>> planner.compute() == FOUND, planner.path()[1]
        (True, 2.0)
        """
        ...

    def scale(self) -> float:
        """The heuristic's scale now (0 for none): a drop below the planner's restarts it.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("2.").replan_space().scale()
        1.0
        """
        ...

    def changed(self, since: int) -> tuple[int, npt.NDArray[np.intp] | None]:
        """How many edits since version ``since``, and the vertices whose successors
        they changed (None: start the search again).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("...")
        >>> grid[0, 1] = 3.0
        >>> count, vertices = grid.replan_space().changed(0)
        >>> count, vertices.tolist()
        (1, [7])
        """
        ...

    def path(self, vertices: npt.NDArray[np.intp] | None) -> Any:
        """The path value of ``vertices`` (an empty one for None).

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft import Grid
        >>> Grid.from_ascii("...").replan_space().path(np.array([6, 7])).tolist()
        [[0, 0], [0, 1]]
        """
        ...

    def open(self, start: int, goal: int) -> bool:
        """Whether both ends are walkable now.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> Grid.from_ascii(".#").replan_space().open(6, 7)
        False
        """
        ...


class Replanner:
    """One agent's incremental planner (D* Lite) on a world that provides a
    :class:`ReplanSpace`; see the module documentation.

    Build it with the world's ``replanner(start, goal)``: :meth:`Grid.replanner
    <pathcraft.grid.Grid.replanner>`, :meth:`Graph.replanner
    <pathcraft.graph.Graph.replanner>`, :meth:`WaypointGraph.replanner
    <pathcraft.waypoints.WaypointGraph.replanner>` (which plans on a graph of every
    candidate pair of waypoints, kept up to date with the obstacles), and the
    hexagonal and move grids'.

    Parameters
    ----------
    world : world
        The world, read live: edit it as usual (``grid[r, c] = cost``,
        ``graph.set_weights(...)``) between calls. Its ``replan_space()`` gives what
        the planner needs.
    start, goal : cell or node
        Walkable cells of a grid, or node labels of a graph.

    Attributes
    ----------
    expanded : int
        Expansions of every repair so far, together (the result of :meth:`path`
        counts its own call's).

    Raises
    ------
    CapabilityError
        ``world`` does not provide a replanner (a subclass of NotImplementedError).
    TypeError
        ``world`` is no world.
    ValueError
        A start or goal outside the world or on a wall (named ``start`` / ``goal``).

    Examples
    --------
    >>> from pathcraft import Graph
    >>> roads = Graph.from_adjacency({"a": {"b": 1.0, "c": 4.0}, "b": {"c": 1.0}, "c": {}})
    >>> plan = roads.replanner("a", "c")
    >>> plan.path().path
    ['a', 'b', 'c']
    >>> roads.set_weight("b", "c", 9.0)       # a bridge falls
    >>> plan.path().path, plan.path().cost
    (['a', 'c'], 4.0)
    """

    __slots__ = ("_core", "_goal", "_space", "_start", "_version", "expanded")

    def __init__(self, world: Any, start: Any, goal: Any) -> None:
        if not callable(getattr(world, "replan_space", None)):
            raise TypeError(
                f"world must be a pathcraft world (with replan_space); got {type(world).__name__}"
            )
        self._space: ReplanSpace = world.replan_space()
        self._version = self._space.world.version
        self.expanded = 0
        s, g = self._space.vertex(start, "start"), self._space.vertex(goal, "goal")
        self._start, self._goal = s, g
        self._core = self._space.planner(s, g)

    # ------------------------------------------------------------------ state

    @property
    def world(self) -> Any:
        """The world planned on (a waypoint graph's replanner: its graph of pairs)."""
        return self._space.world

    @property
    def position(self) -> Hashable:
        """Where the agent is: a ``(row, col)`` tuple on a grid, a label on a graph."""
        return self._space.node(self._start)

    @property
    def goal(self) -> Hashable:
        """The goal: a ``(row, col)`` tuple on a grid, a label on a graph."""
        return self._space.node(self._goal)

    def __repr__(self) -> str:
        return (
            f"Replanner({type(self.world).__name__}, at {self.position!r}, "
            f"goal {self.goal!r}, {self.expanded} expanded)"
        )

    # ------------------------------------------------------------------ moving

    def move_to(self, node: Any) -> None:
        """The agent is now at ``node`` (a walkable ``(row, col)`` cell, or a graph
        node): usually the next node of its path, but any node will do.

        Raises
        ------
        ValueError
            A cell outside the grid or on a wall, a label that is not a node.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii(".#..")
        >>> plan = grid.replanner((0, 2), (0, 3))
        >>> plan.move_to((0, 3)); plan.path().path.tolist()
        [[0, 3]]
        >>> plan.move_to((0, 1))
        Traceback (most recent call last):
        ...
        ValueError: node (0, 1) is a wall
        """
        v = self._space.vertex(node, "node")
        self._start = v
        self._core.move_to(v)

    def retarget(self, goal: Any) -> None:
        """Aim at another goal: the search starts again (D* Lite keeps distances *to
        the goal*), at a cost of the vertices it had touched.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> plan = Grid.from_ascii("....").replanner((0, 0), (0, 3))
        >>> plan.retarget((0, 1)); plan.path().cost
        1.0
        """
        g = self._space.vertex(goal, "goal")
        self._goal = g
        self._reset()

    def _reset(self) -> None:
        self._version = self._space.world.version
        self._core.reset(self._start, self._goal, self._space.scale())

    def update(self) -> int:
        """Take in the world's edits since the last look (:meth:`path` does this
        first); return how many cells or edges changed.

        The heuristic must stay admissible: when an edit lowers the grid's smallest
        cost (or the graph's heuristic scale) below the one the search uses, the
        search starts again.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii("....")
        >>> plan = grid.replanner((0, 0), (0, 3))
        >>> grid[0, 1:3] = 2.0
        >>> plan.update(), plan.update()
        (2, 0)
        """
        world = self._space.world
        if world.version == self._version:
            return 0
        count, vertices = self._space.changed(self._version)
        self._version = world.version
        scale = self._space.scale()
        if vertices is None or scale < self._core.hscale:
            self._core.reset(self._start, self._goal, scale)
        else:
            self._core.update(np.ascontiguousarray(vertices, dtype=np.intp))
        return count

    # ------------------------------------------------------------------ answers

    def path(self) -> PathResult:
        """The current optimal path from the agent to the goal, after taking in the
        world's edits since the last call.

        Returns
        -------
        PathResult
            ``path``: an ``(n, 2)`` int array of ``(row, col)`` cells on a grid, a list
            of labels on a graph, from the agent to the goal; ``cost`` its cost (a
            fresh A* finds the same); ``expanded`` the expansions of this call's
            repair. No path: empty and falsy, with the reason ``"unreachable"``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> grid = Grid.from_ascii('''
        ... .#.
        ... ...
        ... ''', diagonal="never")
        >>> plan = grid.replanner((0, 0), (0, 2))
        >>> plan.path().cost
        4.0
        >>> grid[1, 1] = float("inf")
        >>> r = plan.path()
        >>> bool(r), r.reason, r.path.shape
        (False, 'unreachable', (0, 2))
        """
        t0 = time.perf_counter()
        self.update()
        status = self._core.compute()
        expanded = int(self._core.expanded)
        self.expanded += expanded
        vertices, cost = self._core.path() if status == FOUND else (None, 0.0)
        if vertices is not None and not self._space.open(self._start, self._goal):
            vertices = None  # standing on a wall, or the goal walled up: no path
        if vertices is None or vertices.shape[0] == 0:
            empty = self._space.path(None)
            return build_result("unreachable", empty, np.inf, expanded=expanded, t0=t0)
        nodes = self._space.path(vertices)
        return build_result(None, nodes, float(cost), expanded=expanded, t0=t0)
