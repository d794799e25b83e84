"""Incremental replanning for one agent on a changing grid, graph or waypoint graph:
:class:`Replanner`.

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

import math
import time
from collections.abc import Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import dstar as _kernel
from pathcraft._kernels import FOUND
from pathcraft.graph import Graph
from pathcraft.grid import Grid
from pathcraft.grid._run import DIAGONAL_RULES
from pathcraft.result import PathResult, build_result

__all__ = ["Replanner"]


class Replanner:
    """One agent's incremental planner (D* Lite) on a :class:`~pathcraft.grid.Grid`
    or a :class:`~pathcraft.graph.Graph`; see the module documentation.

    Build it with :meth:`Grid.replanner <pathcraft.grid.Grid.replanner>`,
    :meth:`Graph.replanner <pathcraft.graph.Graph.replanner>` or
    :meth:`WaypointGraph.replanner <pathcraft.waypoints.WaypointGraph.replanner>` (which
    plans on a graph of every candidate pair of waypoints, kept up to date with the
    obstacles).

    Parameters
    ----------
    world : Grid or Graph
        The world, read live: edit it as usual (``grid[r, c] = cost``,
        ``graph.set_weights(...)``) between calls.
    start, goal : cell or node
        Walkable ``(row, col)`` cells of a grid, or node labels of a graph.

    Attributes
    ----------
    expanded : int
        Expansions of every repair so far, together (the result of :meth:`path`
        counts its own call's).

    Raises
    ------
    TypeError
        ``world`` is neither a Grid nor a Graph.
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

    __slots__ = ("_core", "_edge_nodes", "_goal", "_start", "_version", "_world", "expanded")

    def __init__(self, world: Grid | Graph, start: Any, goal: Any) -> None:
        if not isinstance(world, Grid | Graph):
            raise TypeError(f"world must be a pathcraft Grid or Graph; got {type(world).__name__}")
        self._world = world
        self._version = world.version
        self.expanded = 0
        s, g = self._vertex(start, "start"), self._vertex(goal, "goal")
        self._start, self._goal = s, g
        if isinstance(world, Grid):
            self._edge_nodes: npt.NDArray[np.intp] | None = None
            self._core: Any = _kernel.grid_planner(
                world.padded, DIAGONAL_RULES[world.diagonal], s, g, world.min_cost
            )
        else:
            sources, targets, _ = world.edges
            self._edge_nodes = np.stack((sources, targets), axis=1)
            offsets, heads, weights = world.csr
            scale = world.heuristic_scale if world.coords is not None else 0.0
            self._core = _kernel.graph_planner(offsets, heads, weights, world.coords, s, g, scale)

    # ------------------------------------------------------------------ state

    @property
    def world(self) -> Grid | Graph:
        """The grid or graph planned on."""
        return self._world

    @property
    def position(self) -> Hashable:
        """Where the agent is: a ``(row, col)`` tuple on a grid, a label on a graph."""
        return self._key(self._start)

    @property
    def goal(self) -> Hashable:
        """The goal: a ``(row, col)`` tuple on a grid, a label on a graph."""
        return self._key(self._goal)

    def __repr__(self) -> str:
        return (
            f"Replanner({type(self._world).__name__}, at {self.position!r}, "
            f"goal {self.goal!r}, {self.expanded} expanded)"
        )

    def _vertex(self, node: Any, name: str) -> int:
        world = self._world
        if isinstance(world, Grid):
            rows, cols = world.shape
            if (
                type(node) is tuple
                and len(node) == 2
                and type(node[0]) is int
                and type(node[1]) is int
                and 0 <= node[0] < rows
                and 0 <= node[1] < cols
            ):  # the common case, checked here in a few hundred nanoseconds
                v = (node[0] + 1) * (cols + 2) + node[1] + 1
                if world.padded.flat[v] != math.inf:
                    return v
            r, c = (int(x) for x in world.check_cells(node, name=name, many=False)[0])
            return (r + 1) * (cols + 2) + c + 1
        return world.index(node, name=name)

    def _key(self, vertex: int) -> Hashable:
        world = self._world
        if isinstance(world, Grid):
            r, c = divmod(vertex, world.shape[1] + 2)
            return (r - 1, c - 1)
        return world.label(vertex)

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
        v = self._vertex(node, "node")
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
        g = self._vertex(goal, "goal")
        self._goal = g
        self._reset()

    def _reset(self) -> None:
        world = self._world
        self._version = world.version
        self._core.reset(self._start, self._goal, self._scale())

    def _zero_weights(self) -> bool:
        """Whether a graph edge weighs 0, or so little that adding it to a distance
        may change nothing (below 1e-12 of the finite weights' sum): D* Lite's repair
        needs costs that count."""
        world = self._world
        if not isinstance(world, Graph):
            return False
        weights = world.csr[2]
        finite = weights[np.isfinite(weights)]
        return finite.size > 0 and bool(finite.min() <= 1e-12 * finite.sum())

    def _scale(self) -> float:
        world = self._world
        if isinstance(world, Grid):
            return world.min_cost
        return world.heuristic_scale if world.coords is not None else 0.0

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
        world = self._world
        if world.version == self._version:
            return 0
        changed = world.changes_since(self._version)
        self._version = world.version
        if self._scale() < self._core.hscale or self._zero_weights():
            self._core.reset(self._start, self._goal, self._scale())
            return int(changed.shape[0])
        if isinstance(world, Grid):
            vertices = (changed[:, 0] + 1) * (world.shape[1] + 2) + changed[:, 1] + 1
        else:
            assert self._edge_nodes is not None
            ends = self._edge_nodes[changed]
            vertices = np.unique(ends if not world.directed else ends[:, 0])
        self._core.update(np.ascontiguousarray(vertices, dtype=np.intp))
        return int(changed.shape[0])

    # ------------------------------------------------------------------ answers

    def _open_ends(self, grid: Grid) -> bool:
        padded = grid.padded.ravel()
        return bool(np.isfinite(padded[self._start]) and np.isfinite(padded[self._goal]))

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
        world = self._world
        vertices, cost = self._core.path() if status == FOUND else (None, 0.0)
        if isinstance(world, Grid) and not self._open_ends(world):
            vertices = None  # standing on a wall, or the goal walled up: no path
        if vertices is None or vertices.shape[0] == 0:
            empty: Any = np.empty((0, 2), dtype=np.intp) if isinstance(world, Grid) else []
            return build_result("unreachable", empty, np.inf, expanded=expanded, t0=t0)
        if isinstance(world, Grid):
            rows, cols = np.divmod(vertices, world.shape[1] + 2)
            nodes: Any = np.stack((rows - 1, cols - 1), axis=1).astype(np.intp)
        else:
            nodes = [world.label(int(v)) for v in vertices]
        return build_result(None, nodes, float(cost), expanded=expanded, t0=t0)
