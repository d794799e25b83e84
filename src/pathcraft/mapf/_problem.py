"""A multi-agent pathfinding problem: a world's places and moves as CSR arrays, one start
and one goal per agent, and the distance tables every solver shares."""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.sipp import distance_table
from pathcraft.mapf._adjacency import MAX_PLACES, adjacency, csr

_I32 = np.int32

__all__ = [
    "MAX_PLACES",
    "Problem",
    "adjacency",
    "as_problem",
    "lower_bound",
]


def _node_ids(name: str, values: Any, n_nodes: int) -> npt.NDArray[np.int32]:
    arr = np.asarray(values)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise TypeError(f"{name} must be a 1-D sequence of node indices; got {values!r}")
    bad = np.flatnonzero((arr < 0) | (arr >= n_nodes))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{name}[{i}] = {int(arr[i])} is not a node: nodes run from 0 to {n_nodes - 1}"
        )
    return arr.astype(_I32)


class Problem:
    """A multi-agent pathfinding (MAPF) problem: a world, a start and a goal per agent.

    The rules: time runs in steps; at each step every agent moves to a neighbour of
    its place or waits there (one time step each, diagonal moves included on
    8-connected grids, which follow the grid's corner rule; step costs are ignored).
    Two agents may not be in one place at one time (a vertex conflict) nor swap
    places in one step (an edge conflict); with ``following=True`` an agent may not
    enter a place another agent leaves in the same step either. An agent stays at
    its goal once its path ends: a later agent passing there is a vertex conflict.

    Parameters
    ----------
    world : Grid, Graph or any world with ``neighbors(place)``
        See :func:`adjacency`. Grid places are cells ``(row, col)``; graph places
        are node labels.
    starts, goals : sequence of places
        One start and one goal per agent, all starts distinct, all goals distinct.
    following : bool
        Also forbid following conflicts.

    Attributes
    ----------
    n_agents, n_nodes : int
    indptr, indices : numpy.ndarray of int32
        The CSR moves (see :func:`adjacency`).
    starts, goals : numpy.ndarray of int32
        Node ids, one per agent.
    places : list
        Node -> place.
    following : bool
    world : object or None
        The world given (None from :meth:`from_arrays`).

    Raises
    ------
    TypeError
        A world of an unknown kind; starts or goals that are not sequences.
    ValueError
        Different numbers of starts and goals; a start or goal outside the world or
        in a wall (the message names the agent and the place); two agents with one
        start or one goal.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem
    >>> grid = Grid.from_ascii("...\\n.#.\\n...", diagonal="never")
    >>> problem = Problem(grid, [(0, 0), (2, 2)], [(2, 2), (0, 0)])
    >>> problem.n_agents, problem.n_nodes, problem.starts.tolist()
    (2, 8, [0, 7])
    >>> problem.distances(0).tolist()
    [4, 3, 2, 3, 1, 2, 1, 0]
    >>> Problem(grid, [(1, 1)], [(0, 0)])
    Traceback (most recent call last):
    ...
    ValueError: starts[0] = (1, 1) of agent 0 is not a place of the world (outside it or a wall)
    """

    __slots__ = (
        "_back",
        "_distances",
        "_index",
        "following",
        "goals",
        "indices",
        "indptr",
        "n_agents",
        "n_nodes",
        "places",
        "starts",
        "world",
    )

    def __init__(
        self,
        world: Any,
        starts: Sequence[Hashable],
        goals: Sequence[Hashable],
        *,
        following: bool = False,
    ) -> None:
        for name, value in (("starts", starts), ("goals", goals)):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
                raise TypeError(f"{name} must be a sequence of places; got {value!r}")
        if len(starts) != len(goals):
            raise ValueError(
                f"starts and goals must have one entry per agent; got {len(starts)} "
                f"starts and {len(goals)} goals"
            )
        self._build(world, [_hashable(p) for p in [*starts, *goals]], following)
        self.starts = self._nodes("starts", starts)
        self.goals = self._nodes("goals", goals)
        self._check_distinct()

    def _build(self, world: Any, seeds: list[Hashable], following: bool) -> None:
        """The world's places and moves (see :func:`adjacency`; ``seeds``: where to
        explore a world known through ``neighbors`` from)."""
        self._index: dict[Hashable, int] | None = None
        places, indptr, indices = adjacency(world, seeds)
        self._setup(indptr, indices, places, following)
        self.world = world

    @classmethod
    def of_places(cls, world: Any, *, following: bool = False) -> Problem:
        """A problem without agents over every place of ``world``: what a reservation
        table numbers. The world gives its places through its ``places()``
        capability (:mod:`pathcraft.world`), and its moves as :func:`adjacency` reads
        them.

        Raises
        ------
        CapabilityError
            A world that refuses ``"places"`` (a navigation mesh, a waypoint graph:
            their places are points of the plane), naming it.
        TypeError
            ``world`` has no ``places()`` method at all.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> from pathcraft.mapf import Problem
        >>> Problem.of_places(HexGrid(np.ones((2, 2))))
        Problem(0 agents, 4 places, 10 moves)
        """
        every = getattr(world, "places", None)
        if not callable(every):
            raise TypeError(
                "world must be a world that lists its places (the \"places\" capability "
                f"of pathcraft.world: places()); got {type(world).__name__}"
            )
        seeds = [_hashable(p) for p in every()]
        problem = cls.__new__(cls)
        problem._build(world, seeds, following)
        problem.starts = problem._nodes("starts", [])
        problem.goals = problem._nodes("goals", [])
        problem._check_distinct()
        return problem

    @classmethod
    def from_arrays(
        cls,
        indptr: npt.ArrayLike,
        indices: npt.ArrayLike,
        starts: npt.ArrayLike,
        goals: npt.ArrayLike,
        *,
        places: Sequence[Hashable] | None = None,
        following: bool = False,
    ) -> Problem:
        """A problem from CSR arrays and node ids (no world).

        Parameters
        ----------
        indptr, indices : array_like of int
            The moves: neighbours of node ``v`` are ``indices[indptr[v]:indptr[v+1]]``
            (self loops and repeats are dropped; waiting is always allowed).
        starts, goals : array_like of int
            Node ids, one per agent.
        places : sequence or None
            Node -> place; None: the node ids.
        following : bool
            Also forbid following conflicts.

        Raises
        ------
        TypeError, ValueError
            Arrays of the wrong kind or shape, node ids outside ``0 .. n - 1``,
            repeated starts or goals.

        Examples
        --------
        >>> from pathcraft.mapf import Problem
        >>> p = Problem.from_arrays([0, 1, 3, 4], [1, 0, 2, 1], [0, 2], [2, 0])
        >>> p.n_nodes, p.place(2), p.distances(0).tolist()
        (3, 2, [2, 1, 0])
        """
        ptr = np.asarray(indptr)
        idx = np.asarray(indices)
        if ptr.ndim != 1 or ptr.size < 1 or ptr.dtype.kind not in "iu":
            raise TypeError(f"indptr must be a 1-D integer array of n + 1 offsets; got {indptr!r}")
        if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
            raise TypeError(f"indices must be a 1-D integer array; got {indices!r}")
        n = ptr.size - 1
        if ptr[0] != 0 or np.any(np.diff(ptr) < 0) or ptr[-1] != idx.size:
            raise ValueError(
                "indptr must start at 0, never decrease and end at len(indices) "
                f"({idx.size}); got {ptr.tolist()[:10]}"
            )
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise ValueError(f"indices must be node ids from 0 to {n - 1}")
        src = np.repeat(np.arange(n, dtype=_I32), np.diff(ptr))
        csr_ptr, csr_idx = csr(n, src, idx.astype(_I32))
        if places is None:
            names: list[Hashable] = list(range(n))
        else:
            names = list(places)
            if len(names) != n:
                raise ValueError(f"places must have one entry per node ({n}); got {len(names)}")
        problem = cls.__new__(cls)
        problem._index = None
        problem._setup(csr_ptr, csr_idx, names, following)
        problem.world = None
        problem.starts = _node_ids("starts", starts, n)
        problem.goals = _node_ids("goals", goals, n)
        if problem.starts.size != problem.goals.size:
            raise ValueError(
                f"starts and goals must have one entry per agent; got {problem.starts.size} "
                f"starts and {problem.goals.size} goals"
            )
        problem._check_distinct()
        return problem

    def _setup(
        self,
        indptr: npt.NDArray[np.int32],
        indices: npt.NDArray[np.int32],
        places: list[Hashable],
        following: bool,
    ) -> None:
        if not isinstance(following, (bool, np.bool_)):
            raise TypeError(f"following must be True or False; got {following!r}")
        indptr.flags.writeable = False
        indices.flags.writeable = False
        self.indptr = indptr
        self.indices = indices
        self.places = places
        self.n_nodes = len(places)
        self.following = bool(following)
        self._distances: dict[int, npt.NDArray[np.int32]] = {}
        self._back: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]] | None = None

    def _nodes(self, name: str, values: Sequence[Hashable]) -> npt.NDArray[np.int32]:
        out = np.empty(len(values), dtype=_I32)
        for agent, place in enumerate(values):
            node = self._lookup(place)
            if node < 0:
                raise ValueError(
                    f"{name}[{agent}] = {place!r} of agent {agent} is not a place of the "
                    "world (outside it or a wall)"
                )
            out[agent] = node
        self.n_agents = len(values)
        out.flags.writeable = False
        return out

    def _check_distinct(self) -> None:
        for name, nodes in (("starts", self.starts), ("goals", self.goals)):
            uniq, counts = np.unique(nodes, return_counts=True)
            if np.any(counts > 1):
                node = int(uniq[np.flatnonzero(counts > 1)[0]])
                agents = np.flatnonzero(nodes == node)[:2].tolist()
                raise ValueError(
                    f"{name} must be distinct: agents {agents[0]} and {agents[1]} share "
                    f"{self.places[node]!r}"
                )
        self.n_agents = int(self.starts.size)

    def _lookup(self, place: Any) -> int:
        if self._index is None:
            self._index = dict(zip(self.places, range(len(self.places)), strict=True))
        key = _hashable(place)
        try:
            node = self._index.get(key, -1)
        except TypeError:
            return -1
        listed = self.places[node] if node >= 0 else None
        if isinstance(key, tuple) and isinstance(listed, tuple) and _kinds(key) != _kinds(listed):
            return -1  # (1.0, 2) is no cell, though it equals (1, 2)
        return node

    def node(self, place: Hashable) -> int:
        """The node id of a place (a cell ``(row, col)`` on grids).

        Raises
        ------
        ValueError
            The place is not in the world (or is a wall).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> p = Problem(Grid.from_ascii(".#.\\n..."), [(0, 0)], [(0, 2)])
        >>> p.node((0, 0)), p.node((0, 2)), p.node((1, 2))
        (0, 1, 4)
        >>> p.node((0, 1))
        Traceback (most recent call last):
        ...
        ValueError: place (0, 1) is not a place of the world
        """
        node = self._lookup(place)
        if node < 0:
            raise ValueError(f"place {place!r} is not a place of the world")
        return node

    def nodes(self, places: Sequence[Hashable]) -> npt.NDArray[np.int32]:
        """The node ids of many places at once: -1 for a place not in the world.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> p = Problem(Grid.from_ascii(".#."), [(0, 0)], [(0, 2)])
        >>> p.nodes([(0, 2), (0, 1), (5, 5)]).tolist()
        [1, -1, -1]
        """
        return np.array([self._lookup(p) for p in places], dtype=_I32)

    def place(self, node: int) -> Hashable:
        """The place of a node id (a cell ``(row, col)`` on grids).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> p = Problem(Grid.from_ascii(".#.\\n..."), [(0, 0)], [(0, 2)])
        >>> [p.place(v) for v in range(p.n_nodes)]
        [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]
        """
        return self.places[node]

    def distances(self, agent: int) -> npt.NDArray[np.int32]:
        """Steps from every node to agent ``agent``'s goal (-1 where it cannot get
        there), computed once and cached; the array is read-only.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> p = Problem(Grid.from_ascii(".#.\\n...", diagonal="never"),
        ...             [(0, 0), (1, 1)], [(0, 2), (0, 0)])
        >>> p.distances(0).tolist(), p.distances(1).tolist()
        ([4, 0, 3, 2, 1], [0, 4, 1, 2, 3])
        >>> p.distances(0).flags.writeable
        False
        """
        if not (isinstance(agent, numbers.Integral) and 0 <= agent < self.n_agents):
            raise ValueError(f"agent must be from 0 to {self.n_agents - 1}; got {agent!r}")
        return self.steps_to(int(self.goals[agent]))

    def steps_to(self, node: int, *, keep: bool = True) -> npt.NDArray[np.int32]:
        """Steps from every node to node ``node`` (-1 where it cannot be reached),
        read-only; kept for the next call unless ``keep=False``.

        Examples
        --------
        A wall cuts ``(0, 0)`` off (-1):

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> p = Problem(Grid.from_ascii(".#.\\n##.\\n...", diagonal="never"),
        ...             [(0, 2)], [(2, 0)])
        >>> [p.place(v) for v in range(p.n_nodes)]
        [(0, 0), (0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]
        >>> p.steps_to(p.node((2, 0))).tolist()
        [-1, 4, 3, 0, 1, 2]
        """
        if not (isinstance(node, numbers.Integral) and 0 <= node < self.n_nodes):
            raise ValueError(f"node must be from 0 to {self.n_nodes - 1}; got {node!r}")
        table = self._distances.get(int(node))
        if table is None:
            back_ptr, back_idx = self._reverse()
            out = np.empty((1, self.n_nodes), dtype=_I32)
            distance_table(back_ptr, back_idx, np.array([node], dtype=_I32), out)
            table = out[0]
            table.flags.writeable = False
            if keep:
                self._distances[int(node)] = table
        return table

    def distance_table(self) -> npt.NDArray[np.int32]:
        """Steps to every agent's goal from every node, shape ``(n_agents, n_nodes)``
        (-1 where an agent cannot get there): the rows of :meth:`distances`, computed
        in one compiled call and cached. A new array each call.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import Problem
        >>> corridor = Grid.from_ascii("....", diagonal="never")
        >>> p = Problem(corridor, [(0, 0), (0, 1), (0, 2)], [(0, 3), (0, 0), (0, 1)])
        >>> table = p.distance_table()
        >>> table
        array([[3, 2, 1, 0],
               [0, 1, 2, 3],
               [1, 0, 1, 2]], dtype=int32)
        >>> bool((table[2] == p.distances(2)).all())
        True
        """
        missing = [int(g) for g in self.goals if int(g) not in self._distances]
        if missing:
            self._fill_distances(np.array(missing, dtype=_I32))
        out = np.empty((self.n_agents, self.n_nodes), dtype=_I32)
        for agent, goal in enumerate(self.goals.tolist()):
            out[agent] = self._distances[goal]
        return out

    def _fill_distances(self, goals: npt.NDArray[np.int32]) -> None:
        back_ptr, back_idx = self._reverse()
        out = np.empty((goals.size, self.n_nodes), dtype=_I32)
        distance_table(back_ptr, back_idx, goals, out)
        for row, goal in zip(out, goals.tolist(), strict=True):
            row.flags.writeable = False
            self._distances[goal] = row

    def _reverse(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        if self._back is None:
            src = np.repeat(np.arange(self.n_nodes, dtype=_I32), np.diff(self.indptr))
            self._back = csr(self.n_nodes, self.indices, src)
        return self._back

    def __repr__(self) -> str:
        return (
            f"Problem({self.n_agents} agents, {self.n_nodes} places, "
            f"{self.indices.size} moves{', following' if self.following else ''})"
        )


def _kinds(place: tuple[Any, ...]) -> list[bool]:
    """Which numbers of a place are integers."""
    return [isinstance(x, numbers.Integral) for x in place]


def _hashable(place: Any) -> Hashable:
    """Lists and arrays (a cell given as ``[r, c]`` or ``np.array``) as tuples."""
    if isinstance(place, (list, np.ndarray)):
        return tuple(np.asarray(place).tolist())
    return place  # type: ignore[no-any-return]


def as_problem(
    world_or_problem: Any,
    starts: Sequence[Hashable] | None,
    goals: Sequence[Hashable] | None,
    *,
    following: bool = False,
) -> Problem:
    """A :class:`Problem` as given, or made from a world with ``starts`` and ``goals``
    (which must be None with a Problem)."""
    if isinstance(world_or_problem, Problem):
        if starts is not None or goals is not None:
            raise ValueError("give starts and goals with a world, not with a Problem")
        return world_or_problem
    if starts is None or goals is None:
        raise ValueError("starts and goals are needed when a world is given (not a Problem)")
    return Problem(world_or_problem, starts, goals, following=following)


def lower_bound(problem: Problem) -> int:
    """The sum over agents of their shortest-path steps to their goals, alone.

    Every solution's sum of costs is at least this. Raises ``ValueError`` when an
    agent cannot reach its goal at all.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, lower_bound
    >>> grid = Grid.from_ascii("....", diagonal="never")
    >>> lower_bound(Problem(grid, [(0, 0), (0, 3)], [(0, 2), (0, 1)]))
    4
    """
    total = 0
    for agent in range(problem.n_agents):
        d = int(problem.distances(agent)[problem.starts[agent]])
        if d < 0:
            raise ValueError(f"agent {agent} cannot reach its goal from its start")
        total += d
    return total
