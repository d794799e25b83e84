"""Actions that move: going to a named place of a pathcraft world.

The cost of going there is the world's path cost from where the agent is, read for
every place at once (one ``path_costs`` call per place the agent plans from, kept
until the world changes); walking there is a :class:`~pathcraft.agents.PathFollower`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, cast

import numpy as np

from pathcraft._positions import check_number
from pathcraft.agents.follow import PathFollower
from pathcraft.agents.spaces import space_for
from pathcraft.goap._action import Action
from pathcraft.goap._facts import Condition, State, Value

__all__ = ["Places", "Walker"]

_ROWS = 4096  # the origins whose costs a Places keeps (the oldest are forgotten)


class Places:
    """Named places of a world, and actions that go there at the cost of the path.

    An agent's position is the fact ``fact``: a place's name when it stands on one,
    else a label for the node it stands on (:meth:`label`). ``go_to_<name>`` actions
    (:meth:`actions`) set the fact to the place, at the cost of the world's shortest
    path from the node the fact names; a place no path reaches is no option (its
    action's ``check`` fails). The costs from one node to every place are one batched
    call to the world's ``path_costs``, made the first time a plan needs them and kept
    (for the last 4,096 nodes) until the world changes (its ``version``).

    Parameters
    ----------
    world : world
        A pathcraft world with ``path_costs`` and an agents' space (a
        :class:`~pathcraft.Grid`: nodes are ``(row, col)`` cells; a
        :class:`~pathcraft.Graph` with coordinates...).
    places : mapping
        Place name (str) to its node.
    fact : str
        The fact that says where the agent is (default ``"at"``).

    Raises
    ------
    TypeError
        A world without ``path_costs`` or an agents' space; a name that is not a str.
    ValueError
        No places; a node that is not a walkable node of the world.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.goap import Places, Planner
    >>> grid = Grid.from_ascii('''
    ... ......
    ... .####.
    ... ......
    ... ''', diagonal="never")
    >>> places = Places(grid, {"door": (0, 5), "well": (2, 0)})
    >>> places.label((0, 0)), places.label((0, 5))
    ('@(0, 0)', 'door')
    >>> plan = Planner(places.actions()).plan({"at": places.label((0, 0))}, {"at": "well"})
    >>> plan.names, plan.cost
    (['go_to_well'], 2.0)
    >>> places.cost("door", "well")
    7.0
    """

    __slots__ = ("_index", "_nodes", "_rows", "_seen", "fact", "names", "space", "world")

    def __init__(self, world: Any, places: Mapping[str, Any], *, fact: str = "at") -> None:
        if not callable(getattr(world, "path_costs", None)):
            raise TypeError(
                f"world must be a pathcraft world with path_costs; got {type(world).__name__}"
            )
        self.world = world
        self.space = space_for(world)
        if not isinstance(fact, str) or not fact:
            raise TypeError(f"fact must be a non-empty str; got {fact!r}")
        self.fact = fact
        if not isinstance(places, Mapping) or not places:
            raise ValueError("places must be a non-empty mapping of names to nodes")
        self._nodes: dict[str, Hashable] = {}
        for name, node in places.items():
            if not isinstance(name, str) or not name or name.startswith("@"):
                raise TypeError(
                    f"places are named by non-empty str not starting with '@'; got {name!r}"
                )
            self._nodes[name] = self.space.key(node, f"places[{name!r}]")
        self.names: tuple[str, ...] = tuple(self._nodes)
        self._index = {name: i for i, name in enumerate(self.names)}
        self._rows: dict[str, np.ndarray[Any, Any]] = {}
        self._seen = getattr(world, "version", 0)

    def node(self, label: str) -> Hashable:
        """The node a place name or a :meth:`label` stands for.

        Raises
        ------
        ValueError
            Neither a place nor a label this :class:`Places` made.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places
        >>> places = Places(Grid.from_ascii("..."), {"end": (0, 2)})
        >>> places.node("end"), places.node(places.label((0, 1)))
        ((0, 2), (0, 1))
        """
        node = self._nodes.get(label)
        if node is None:
            raise ValueError(f"{label!r} is neither a place nor a node's label")
        return node

    def label(self, node: Any) -> str:
        """The value of the position fact for an agent on ``node``: the name of the
        place there, or ``"@<node>"``.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places
        >>> places = Places(Grid.from_ascii("..."), {"end": (0, 2)})
        >>> places.label((0, 2)), places.label([0, 1])
        ('end', '@(0, 1)')
        """
        key = self.space.key(node, "node")
        for name in self.names:
            if self._nodes[name] == key:
                return name
        label = f"@{key!r}"
        self._nodes[label] = key
        return label

    def cost(self, origin: str, place: str) -> float:
        """The path cost from ``origin`` (a place or a label) to the place ``place``
        (``inf``: no path).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places
        >>> places = Places(Grid.from_ascii(".#.", diagonal="never"), {"a": (0, 0), "b": (0, 2)})
        >>> places.cost("a", "a"), places.cost("a", "b")
        (0.0, inf)
        """
        version = getattr(self.world, "version", 0)
        if version != self._seen:
            self._rows.clear()
            self._seen = version
        row = self._rows.get(origin)
        if row is None:
            start = self.node(origin)
            goals = [self._nodes[n] for n in self.names]
            row = np.asarray(self.world.path_costs([start] * len(goals), goals), dtype=float)
            if len(self._rows) >= _ROWS:
                self._rows.pop(next(iter(self._rows)))
            self._rows[origin] = row
        return float(row[self._index[place]])

    def actions(
        self,
        *,
        prefix: str = "go_to_",
        preconditions: Mapping[str, Value | Condition] | None = None,
        effects: Mapping[str, Any] | None = None,
        scale: float = 1.0,
    ) -> list[Action]:
        """One action per place: ``<prefix><name>`` sets the position fact to it.

        Parameters
        ----------
        prefix : str
            Starts each action's name.
        preconditions, effects : mapping, optional
            More preconditions and effects, the same for every one of them.
        scale : float
            The action's cost is the path's cost times this (> 0): a time, if it is
            one over the speed.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places
        >>> places = Places(Grid.from_ascii("...."), {"a": (0, 0), "b": (0, 3)})
        >>> go = places.actions(prefix="run_to_", preconditions={"awake": True}, scale=0.5)
        >>> [a.name for a in go], go[1].cost_in({"at": "a", "awake": True})
        (['run_to_a', 'run_to_b'], 1.5)
        """
        scale = check_number("scale", scale, low=0.0, inclusive=False)
        out = []
        for name in self.names:
            pre = dict(preconditions or {})
            out.append(
                Action(
                    f"{prefix}{name}",
                    pre,
                    {**(effects or {}), self.fact: name},
                    cost=_Cost(self, name, scale),
                    check=_Reachable(self, name),
                    min_cost=0.0,
                    reads=[self.fact],
                )
            )
        return out


class _Cost:
    """The dynamic cost of going to one place (a named class: actions pickle)."""

    __slots__ = ("name", "places", "scale")

    def __init__(self, places: Places, name: str, scale: float) -> None:
        self.places, self.name, self.scale = places, name, scale

    def __call__(self, state: State) -> float:
        return self.places.cost(str(state[self.places.fact]), self.name) * self.scale


class _Reachable:
    """Whether some path leads to the place from where the state says the agent is."""

    __slots__ = ("name", "places")

    def __init__(self, places: Places, name: str) -> None:
        self.places, self.name = places, name

    def __call__(self, state: State) -> bool:
        where = state.get(self.places.fact)
        if not isinstance(where, str):
            return False
        return self.places.cost(where, self.name) < np.inf


class Walker:
    """One agent's body on a world: where it stands, and the executors of the
    :meth:`Places.actions` that walk it there along a :class:`~pathcraft.agents.PathFollower`.

    A walk starts with the world's path from the walker's node to the place, and
    steps a one-agent follower each tick (``"done"`` once it arrived, ``"failed"``
    when no path leads there or it is stuck or blocked). Each time it comes nearer to
    the path's next node than to the last, the agent's position fact becomes that
    node's label (:meth:`Places.label`), so plans made meanwhile (a better goal, a
    walk stopped or failed) start from where it is.

    Parameters
    ----------
    places : Places
        Where it may go.
    start : node
        Where it stands.
    speed : float
        Distance per unit of time, > 0.
    **follower_options
        More options of :class:`~pathcraft.agents.PathFollower` (``turn_rate``,
        ``lookahead``, ``tolerance``...).

    Attributes
    ----------
    node : node
        The node it stands on (between two nodes: the path's node nearest to it).
    position : tuple of float
        Where it is, ``(x, y)``.
    path : list of node
        The path of the walk in progress (empty: none).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.goap import Agent, Goal, Places, Planner, Walker
    >>> grid = Grid.from_ascii("......", diagonal="never")
    >>> places = Places(grid, {"door": (0, 5)})
    >>> legs = Walker(places, (0, 0), speed=5.0)
    >>> agent = Agent(Planner(places.actions()), [Goal("out", {"at": "door"})],
    ...               {"at": places.label(legs.node)}, executors=legs.executors())
    >>> while agent.tick(0.1) != "idle":
    ...     pass
    >>> legs.node, agent.beliefs["at"], agent.ticks
    ((0, 5), 'door', 10)
    """

    __slots__ = (
        "_follower", "_k", "_points", "node", "options", "path", "places", "position", "speed",
    )  # fmt: skip

    def __init__(
        self, places: Places, start: Any, *, speed: float, **follower_options: Any
    ) -> None:
        if not isinstance(places, Places):
            raise TypeError(f"places must be a goap.Places; got {type(places).__name__}")
        self.places = places
        self.node: Hashable = places.space.key(start, "start")
        self.position: tuple[float, float] = places.space.point(self.node)
        self.speed = check_number("speed", speed, low=0.0, inclusive=False)
        self.options = follower_options
        self.path: list[Hashable] = []
        self._points: list[tuple[float, float]] = []  # the path's points
        self._k = 0  # the index on the path of the node it is at
        self._follower: PathFollower | None = None

    def executors(self, prefix: str = "go_to_") -> dict[str, _Walk]:
        """The executors of ``places.actions(prefix=prefix)``, by action name.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places, Walker
        >>> places = Places(Grid.from_ascii("...."), {"a": (0, 0), "b": (0, 3)})
        >>> sorted(Walker(places, (0, 1), speed=1.0).executors())
        ['go_to_a', 'go_to_b']
        """
        return {f"{prefix}{name}": self.to(name) for name in self.places.names}

    def to(self, target: Any) -> _Walk:
        """An executor that walks to ``target``: a place's name, a label, or any node
        (for actions of your own that walk somewhere, as a patrol does).

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places, Walker
        >>> grid = Grid.from_ascii("....")
        >>> walker = Walker(Places(grid, {"end": (0, 3)}), (0, 0), speed=1.0)
        >>> walk = walker.to((0, 2))
        >>> walk.start(None)
        >>> while walk.update(None, 0.5) == "running":
        ...     pass
        >>> walker.node
        (0, 2)
        """
        places = self.places
        if isinstance(target, str):
            return _Walk(self, places.node(target))
        return _Walk(self, places.space.key(target, "target"))

    def stand(self, node: Any, agent: Any = None, position: Any = None) -> None:
        """Put the walker on ``node`` (a walk in progress is forgotten), at ``position``
        (default: the node's point); ``agent`` (an :class:`~pathcraft.goap.Agent`, if
        given) is told where it stands when the node changed.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.goap import Places, Walker
        >>> walker = Walker(Places(Grid.from_ascii("...."), {"a": (0, 0)}), (0, 0), speed=1.0)
        >>> walker.stand((0, 2))
        >>> walker.node, walker.position
        ((0, 2), (2.5, 0.5))
        """
        key = self.places.space.key(node, "node")
        self.position = self.places.space.point(key) if position is None else position
        self.path = []
        self._follower = None
        self._moved(key, agent)

    def _moved(self, node: Hashable, agent: Any) -> None:
        if node != self.node:
            self.node = node
            if agent is not None:
                agent.update({self.places.fact: self.places.label(node)})


class _Walk:
    """The executor of a walk to one node for one walker."""

    __slots__ = ("goal", "walker")

    def __init__(self, walker: Walker, goal: Hashable) -> None:
        self.walker, self.goal = walker, goal

    def start(self, agent: Any) -> None:
        w = self.walker
        space = w.places.space
        result = space.find_path(w.node, self.goal)
        w.path = space.nodes(result) if result else []
        w._points = [space.point(n) for n in w.path]
        w._k = 0
        w._follower = None
        if len(w.path) > 1:
            w._follower = PathFollower.from_cells(
                w.places.world, [cast(Any, w.path)], positions=[w.position], max_speed=w.speed,
                **w.options,
            )  # fmt: skip

    def update(self, agent: Any, dt: float) -> str:
        w = self.walker
        follower = w._follower
        if follower is None:
            done = bool(w.path)  # a path of one node: already there; none: no path
            w.path = []
            return "done" if done else "failed"
        follower.step(dt)
        x, y = follower.positions[0]
        w.position = (float(x), float(y))
        # the node it is at: the path's next point once that one is the nearer
        k, points = w._k, w._points
        while k + 1 < len(points):
            (x0, y0), (x1, y1) = points[k], points[k + 1]
            if (x1 - x) ** 2 + (y1 - y) ** 2 > (x0 - x) ** 2 + (y0 - y) ** 2:
                break
            k += 1
        w._k = k
        if follower.arrived[0]:
            k = len(w.path) - 1
        node = w.path[k]
        if node != w.node:  # (as Walker.stand tells it)
            w.node = node
            if agent is not None:
                agent.update({w.places.fact: w.places.label(node)})
        if follower.arrived[0]:
            w.path = []
            w._follower = None
            return "done"
        if follower.stuck[0] or follower.blocked[0]:
            w.path = []
            w._follower = None
            return "failed"
        return "running"

    def stop(self, agent: Any) -> None:
        w = self.walker
        w.path = []
        w._follower = None
