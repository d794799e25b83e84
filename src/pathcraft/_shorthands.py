"""The ``astar``, ``dijkstra`` and ``greedy`` shorthands the README promises on every
world, written once: :class:`Shorthands` for a world whose ``find_path`` takes those
three ``algorithm=`` values, :class:`RefusedShorthands` for one whose searches are
others (a navigation mesh's ``"funnel"`` and ``"optimal"``), where each shorthand is
refused by the one uniform error naming the world and its searches."""

from __future__ import annotations

from typing import Any, NoReturn, Protocol

from pathcraft._options import SUPPORT, UnsupportedOptionError
from pathcraft.result import PathResult

__all__ = ["RefusedShorthands", "Shorthands"]


class _FindPath(Protocol):
    def find_path(self, start: Any, goal: Any, *, algorithm: Any = ..., **options: Any) -> Any: ...


class Shorthands:
    """``astar``, ``dijkstra`` and ``greedy``: ``find_path`` with the algorithm chosen."""

    __slots__ = ()

    def astar(self: _FindPath, start: Any, goal: Any, **options: Any) -> PathResult:
        """A* from ``start`` to ``goal`` (the world's places):
        ``find_path(start, goal, algorithm="astar", **options)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((3, 3))).astar((0, 0), (2, 2)).cost
        3.0
        """
        result: PathResult = self.find_path(start, goal, algorithm="astar", **options)
        return result

    def dijkstra(self: _FindPath, start: Any, goal: Any = None, **options: Any) -> PathResult:
        """Dijkstra from ``start`` to ``goal``: ``find_path(start, goal,
        algorithm="dijkstra", **options)``; several places for either (a ``(k, d)``
        array) where the world's ``find_path`` takes them.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((1, 6))).dijkstra((0, 2), [(0, 0), (0, 5)]).path.tolist()
        [[0, 2], [0, 1], [0, 0]]
        """
        result: PathResult = self.find_path(start, goal, algorithm="dijkstra", **options)
        return result

    def greedy(self: _FindPath, start: Any, goal: Any, **options: Any) -> PathResult:
        """Greedy best-first search (fast, not the cheapest path):
        ``find_path(start, goal, algorithm="greedy", **options)``.

        Examples
        --------
        >>> import numpy as np
        >>> from pathcraft.hexgrid import HexGrid
        >>> HexGrid(np.ones((1, 4))).greedy((0, 0), (0, 3)).cost
        3.0
        """
        result: PathResult = self.find_path(start, goal, algorithm="greedy", **options)
        return result


def _refuse(world: object, name: str) -> NoReturn:
    kind = type(world).__name__
    searches = ", ".join(repr(a) for a in SUPPORT[kind].algorithms)
    raise UnsupportedOptionError(
        f"{kind}.{name} is not a {kind} search: its searches are algorithm={searches}; "
        "use find_path(start, goal, algorithm=...)"
    )


class RefusedShorthands:
    """``astar``, ``dijkstra`` and ``greedy`` on a world whose searches are others:
    each refused by the uniform error (an
    :class:`~pathcraft._options.UnsupportedOptionError`, a ``TypeError``), naming
    the world and the searches it has."""

    __slots__ = ()

    def astar(self, start: Any, goal: Any, **options: Any) -> PathResult:
        """Refused: this world's searches are its own ``algorithm=`` values.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> try:
        ...     NavMesh.from_geometry(box(0, 0, 4, 4)).astar((1, 1), (3, 3))
        ... except TypeError as error:
        ...     print(error)  # doctest: +ELLIPSIS
        NavMesh.astar is not a NavMesh search: ... use find_path(start, goal, algorithm=...)
        """
        _refuse(self, "astar")

    def dijkstra(self, start: Any, goal: Any = None, **options: Any) -> PathResult:
        """Refused, as :meth:`astar`.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> NavMesh.from_geometry(box(0, 0, 4, 4)).dijkstra((1, 1), (3, 3))
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: NavMesh.dijkstra is not a NavMesh search: ...
        """
        _refuse(self, "dijkstra")

    def greedy(self, start: Any, goal: Any, **options: Any) -> PathResult:
        """Refused, as :meth:`astar`.

        Examples
        --------
        >>> from shapely import box
        >>> from pathcraft import NavMesh
        >>> NavMesh.from_geometry(box(0, 0, 4, 4)).greedy((1, 1), (3, 3))
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: NavMesh.greedy is not a NavMesh search: ...
        """
        _refuse(self, "greedy")
