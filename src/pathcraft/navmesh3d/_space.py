"""The 3-D navigation mesh as agents' space (:class:`MeshSpace3D`, a
:class:`pathcraft.agents.Space`): what :meth:`NavMesh3D.agent_space
<pathcraft.navmesh3d.NavMesh3D.agent_space>` returns.

A node is an ``(x, y, z)`` point on the surface (a tuple of three floats), a path the
lifted path of :meth:`NavMesh3D.find_path <pathcraft.navmesh3d.NavMesh3D.find_path>`
(by the space's ``algorithm``: the funnel by default) and a step's cost its length in 3-D, so
the step costs of a path add up to its result's ``cost``. The space is continuous: a
:class:`~pathcraft.agents.Pursuer` plans from where it stands, between nodes too, and
its ``position`` is ``(x, y, z)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from pathcraft._sliced import CompiledSearch
from pathcraft._validation import check_choice
from pathcraft.result import PathResult
from pathcraft.world import kind_of

if TYPE_CHECKING:
    from pathcraft.navmesh3d._world import NavMesh3D

__all__ = ["MeshSpace3D"]

Point3 = tuple[float, float, float]


class MeshSpace3D:
    """A :class:`~pathcraft.navmesh3d.NavMesh3D` as a :class:`~pathcraft.agents.Space`:
    nodes are ``(x, y, z)`` points on the surface.

    Parameters
    ----------
    mesh : NavMesh3D
        The mesh; its tiles may come and go between searches (agents watch its
        ``version`` and plan again from where they stand).
    algorithm : {"funnel", "optimal"}
        How paths are found (:meth:`NavMesh3D.find_path
        <pathcraft.navmesh3d.NavMesh3D.find_path>`'s ``algorithm``): the funnel by
        default.

    Examples
    --------
    >>> from pathcraft.agents import Pursuer
    >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
    >>> verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (6, 0, 3), (6, 2, 3)]
    >>> mesh = NavMesh3D(PolyMesh3D(verts, [[0, 1, 2, 3], [1, 4, 5, 2]]))
    >>> space = mesh.agent_space()
    >>> path = space.nodes(space.find_path((1, 1, 0), (6, 1, 3)))
    >>> path, space.step_costs(path).tolist()
    ([(1.0, 1.0, 0.0), (2.0, 1.0, 0.0), (6.0, 1.0, 3.0)], [1.0, 5.0])
    >>> runner = Pursuer(mesh, (1, 1, 0), speed=1.0)
    >>> runner.step((6, 1, 3), dt=3.5), runner.position
    ('chasing', (4.0, 1.0, 1.5))
    >>> mesh.agent_space(algorithm="optimal").algorithm
    'optimal'
    >>> mesh.agent_space(algorithm="theta")
    Traceback (most recent call last):
    ...
    ValueError: algorithm must be one of 'funnel', 'optimal'; got 'theta'
    """

    __slots__ = ("algorithm", "mesh")

    #: Positions are continuous: an agent between two corners plans from where it is.
    continuous = True

    #: Agents' points are ``(x, y, z)``: as a :class:`~pathcraft.agents.Floor`, a
    #: :class:`~pathcraft.agents.PathFollower` keeps three columns on it.
    dims = 3

    def __init__(
        self, mesh: NavMesh3D, *, algorithm: Literal["funnel", "optimal"] = "funnel"
    ) -> None:
        if kind_of(mesh) != "navmesh3d":
            raise TypeError(f"mesh must be a pathcraft NavMesh3D; got {type(mesh).__name__}")
        self.mesh = mesh
        self.algorithm: str = check_choice("algorithm", algorithm, ("funnel", "optimal"))

    @property
    def world(self) -> Any:
        """The mesh agents move on (its edits are watched)."""
        return self.mesh

    def key(self, node: Any, name: str = "node") -> Point3:
        """``node``, an ``(x, y, z)`` point on the mesh (within its vertical tolerance),
        as the point of the surface there, a tuple of three floats; ``name`` is the
        argument's name in the error raised for a point off the mesh.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.agent_space().key((3, 0.5, 0), name="goal")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: goal (3.0, 0.5, 0.0) is off the mesh ...
        """
        p = self.mesh.surface_point(node, name=name)
        return float(p[0]), float(p[1]), float(p[2])

    def snap(self, node: Any, name: str = "node") -> Point3:
        """The point of the surface nearest ``node`` (itself, on the surface, when on
        the mesh): what agents built with ``snap=True`` use in place of :meth:`key`.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> mesh = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0)],
        ...                             [[0, 1, 2, 3]]))
        >>> mesh.agent_space().snap((3, 0.5, 0))
        (2.0, 0.5, 0.0)
        """
        p = self.mesh.surface_point(node, snap=True, name=name)
        return float(p[0]), float(p[1]), float(p[2])

    @property
    def version(self) -> int:
        """The mesh's :attr:`~pathcraft.navmesh3d.NavMesh3D.version` (it grows with each
        tile added or removed: followers then check their way on)."""
        return self.mesh.version

    def walkable(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Which ``(x, y, z)`` points (an ``(n, 3)`` array) are on the mesh: over or
        under a polygon within its vertical tolerance (the :class:`~pathcraft.agents.Floor`
        protocol; with :meth:`slide` this space is its own floor, so a
        :class:`~pathcraft.agents.PathFollower` walks the surface).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> space.walkable([(1, 0.5, 0.2), (1, 0.5, 5), (3, 0.5, 0)]).tolist()
        [True, False, False]
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        out: npt.NDArray[np.bool_] = np.asarray(self.mesh.locate(pts)) >= 0
        return out

    def slide(
        self, points: npt.ArrayLike, delta: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Move ``(x, y, z)`` points on the mesh by ``delta`` (both ``(n, 3)``; its
        ``(x, y)`` steers) along the surface, sliding along walls, never leaving the
        mesh nor the start's floor (Detour's ``moveAlongSurface``, as
        :meth:`NavMesh.move_along_surface <pathcraft.navmesh.NavMesh.move_along_surface>`
        over the polygons seen from above): the new points, on the surface, and which
        were stopped short by a wall.

        Examples
        --------
        A ramp rising 1 over 2; a move up it, and one into the side wall that slides
        along it:

        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 1), (2, 1, 1), (0, 1, 0)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> moved, blocked = space.slide([(0.5, 0.5, 0.25)] * 2, [(1, 0, 0), (0.5, 1, 0)])
        >>> moved.tolist(), blocked.tolist()
        ([[1.5, 0.5, 0.75], [1.0, 1.0, 0.5]], [False, True])
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        ends = pts + np.asarray(delta, dtype=np.float64).reshape(-1, 3)
        out = pts.copy()
        blocked = np.zeros(pts.shape[0], dtype=bool)
        for i in range(pts.shape[0]):
            move = self.mesh.move_along_surface(pts[i], ends[i], snap=True)
            out[i], blocked[i] = move.position, not move.reached
        return out, blocked

    def cell_at(self, point: Any) -> Point3:
        """The node under ``point``: the point itself, ``(x, y, z)`` (nodes are points
        here; a follower whose way an edit cuts plans again from where it stands).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> space.cell_at([1, 0.5, 0])
        (1.0, 0.5, 0.0)
        """
        x, y, z = np.asarray(point, dtype=np.float64).tolist()
        return float(x), float(y), float(z)

    def find_path(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> PathResult:
        """:meth:`NavMesh3D.find_path` from ``start`` to ``goal`` (this space's
        ``algorithm``), giving up after ``max_expansions``.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> round(space.find_path((1, 0, 0), (1, 1, 2)).cost, 4)
        2.2361
        """
        return self.mesh.find_path(
            start, goal, algorithm=self.algorithm,  # type: ignore[arg-type]
            max_expansions=max_expansions,
        )  # fmt: skip

    def start_search(
        self, start: Hashable, goal: Hashable, *, max_expansions: int | None = None
    ) -> CompiledSearch:
        """:meth:`NavMesh3D.start_search` from ``start`` to ``goal`` (this space's
        ``algorithm``).

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> search = space.start_search((1, 0, 0), (3, 1, 2))
        >>> search.step(), search.result.path.tolist()
        ('found', [[1.0, 0.0, 0.0], [3.0, 1.0, 2.0]])
        """
        return self.mesh.start_search(
            start, goal, algorithm=self.algorithm,  # type: ignore[arg-type]
            max_expansions=max_expansions,
        )  # fmt: skip

    def nodes(self, result: PathResult) -> list[Hashable]:
        """The path of ``result`` as ``(x, y, z)`` tuples.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> space.nodes(space.find_path((1, 0, 0), (3, 1, 2)))
        [(1.0, 0.0, 0.0), (3.0, 1.0, 2.0)]
        """
        return [(float(x), float(y), float(z)) for x, y, z in np.asarray(result.path).tolist()]

    def step_costs(self, path: Sequence[Hashable]) -> npt.NDArray[np.float64]:
        """The length in 3-D of each step of ``path``.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> space.step_costs([(1, 0, 0), (1, 1, 2), (3, 1, 2)]).round(4).tolist()
        [2.2361, 2.0]
        """
        pts = np.asarray(path, dtype=np.float64).reshape(-1, 3)
        out: npt.NDArray[np.float64] = np.sqrt((np.diff(pts, axis=0) ** 2).sum(axis=1))
        return out

    def point(self, node: Hashable) -> Point3:
        """Where ``node`` is, ``(x, y, z)``.

        Examples
        --------
        >>> from pathcraft.navmesh3d import NavMesh3D, PolyMesh3D
        >>> space = NavMesh3D(PolyMesh3D([(0, 0, 0), (4, 0, 0), (4, 1, 2), (0, 1, 2)],
        ...                              [[0, 1, 2, 3]])).agent_space()
        >>> space.point((1, 0.5, 1))
        (1.0, 0.5, 1.0)
        """
        x, y, z = np.asarray(node, dtype=np.float64).tolist()
        return float(x), float(y), float(z)
