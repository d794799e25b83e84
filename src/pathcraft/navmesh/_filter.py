"""Per-query filters of a :class:`~pathcraft.navmesh.NavMesh` (Detour's
``dtQueryFilter``): area costs and excluded polygons or links for one query, the mesh
left unchanged.

A :class:`QueryFilter` is a small immutable value, checked when it is made (and
against the mesh when a query takes it). A query reads a :class:`Policy`: the arrays
its search runs on. Without a filter that is the mesh's own (its portal graph, area
costs, links); with one, :func:`filtered` makes new ones from the mesh's without
writing them: the portal graph is patched for the polygons whose cost the filter
changes (:func:`~pathcraft.navmesh._portals.patch_portals`, an excluded polygon
costing ``inf``, so the graph search never crosses it), the topology walls the
excluded polygons off for Polyanya and the raycast (:func:`~pathcraft.navmesh._build.walled`),
and the graph with off-mesh links is made again without the excluded links. A mesh
keeps the policies of its last few filters (:class:`PolicyCache`), valid while its
:attr:`~pathcraft.navmesh.NavMesh.version` stays, so a unit type querying with its one
filter pays for it once.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import navmesh as _walk
from pathcraft.graph import Graph
from pathcraft.navmesh import _areas, _build
from pathcraft.navmesh._links import LinkGraph
from pathcraft.navmesh._portals import Portals, build_portals, patch_portals

if TYPE_CHECKING:
    from pathcraft.navmesh._mesh import NavMesh

__all__ = ["FilterArrays", "Policy", "PolicyCache", "QueryFilter", "filtered"]

FloatArray = npt.NDArray[np.float64]
Polys = npt.NDArray[np.int32]

#: A filter recosting more than one polygon in this many has its portal graph built
#: whole rather than patched (on a 16,000-polygon mesh the patch of 5% of the polygons
#: costs about what the whole build does, of 10% 1.3x: ``bench/navmesh_filter.py``).
_WHOLE = 16


def _read_only(arr: npt.NDArray[Any]) -> npt.NDArray[Any]:
    arr.flags.writeable = False
    return arr


def _ids(name: str, value: Any, what: str) -> npt.NDArray[np.int64]:
    """``value`` (one int or a sequence of them) as sorted distinct ids >= 0."""
    arr = np.atleast_1d(np.asarray(value))
    if arr.ndim != 1 or not (
        arr.size == 0 or (np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_)
    ):
        raise TypeError(f"{name} must be a {what} id or a sequence of them (ints); got {value!r}")
    if arr.size and int(arr.min()) < 0:
        raise ValueError(f"{name} must hold {what} ids >= 0; got {int(arr.min())}")
    out: npt.NDArray[np.int64] = np.unique(arr.astype(np.int64))
    return out


@dataclass(frozen=True, slots=True)
class FilterArrays:
    """A :class:`QueryFilter` checked against one mesh (:meth:`QueryFilter.resolve`).

    Attributes
    ----------
    ids, multipliers : ndarray of intp, ndarray of float64
        The polygons whose area cost the filter sets, and their costs.
    blocked : ndarray of bool or None
        One per polygon, True where the filter excludes it (None: none excluded).
    links : ndarray of int64
        The off-mesh link ids the filter excludes.
    """

    ids: npt.NDArray[np.intp]
    multipliers: FloatArray
    blocked: npt.NDArray[np.bool_] | None
    links: npt.NDArray[np.int64]


class QueryFilter:
    """What one query of a :class:`~pathcraft.NavMesh` may cross and at what price,
    like Detour's ``dtQueryFilter``: area costs and excluded polygons or off-mesh
    links for that query only. The mesh is never changed, so units that value swamp
    differently (or may not open doors) query one mesh, from several threads at once,
    each with its filter (``filter=`` of :meth:`~pathcraft.NavMesh.find_path`,
    :meth:`~pathcraft.NavMesh.start_search`, :meth:`~pathcraft.NavMesh.corridor`,
    :meth:`~pathcraft.NavMesh.path_cost`).

    A filter is an immutable, hashable value, checked when it is made; the ids it
    names are checked against the mesh when a query takes it.

    Parameters
    ----------
    area_costs : mapping of int to float, or array_like of float, optional
        Area costs (multipliers, as :meth:`~pathcraft.NavMesh.set_area_cost` takes)
        that override the mesh's own for the query: ``{polygon id: multiplier}``, or
        one multiplier per polygon of the mesh. Polygons not named keep the mesh's
        cost. Each a finite number ``>= 1``. The funnel weighs its corridor by them
        and prices its path by them; ``algorithm="optimal"`` (Polyanya) knows only
        lengths and refuses a filter under which some polygon costs other than 1.
    excluded : int or sequence of int
        Polygons the query never enters (a corridor never holds them, a path never
        crosses them): the mesh as if they were walls. A start or goal that only
        excluded polygons hold cannot be reached (a falsy result, ``"unreachable"``).
    excluded_links : int or sequence of int
        Off-mesh link ids (:meth:`~pathcraft.NavMesh.add_link`) the query never takes.

    Raises
    ------
    TypeError
        Ids that are not ints, multipliers that are not numbers, ``area_costs``
        neither a mapping nor an array.
    ValueError
        A negative id, a multiplier that is not finite or below 1.

    Examples
    --------
    Two units query one mesh: the tank pays 5 in the mud over the wall, the scout
    may not go under it.

    >>> from shapely import box
    >>> from pathcraft import NavMesh
    >>> from pathcraft.navmesh import QueryFilter
    >>> mesh = NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 8)))
    >>> mud, tunnel = int(mesh.locate((5, 9))), int(mesh.locate((5, 1)))
    >>> tank = QueryFilter(area_costs={mud: 5.0})
    >>> scout = QueryFilter(excluded=[tunnel])
    >>> mesh.find_path((1, 5), (9, 5), filter=tank).path.tolist()
    [[1.0, 5.0], [4.0, 2.0], [6.0, 2.0], [9.0, 5.0]]
    >>> mesh.find_path((1, 5), (9, 5), filter=scout).path.tolist()
    [[1.0, 5.0], [4.0, 8.0], [6.0, 8.0], [9.0, 5.0]]
    >>> mesh.has_area_costs                       # the mesh is as it was
    False
    >>> QueryFilter(area_costs={mud: 0.5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: area_costs[...] must be a finite number >= 1, got 0.5
    """

    __slots__ = ("_costs", "_dense", "_excluded", "_hash", "_ids", "_links", "_values")

    def __init__(
        self,
        *,
        area_costs: Mapping[int, float] | npt.ArrayLike | None = None,
        excluded: int | Collection[int] = (),
        excluded_links: int | Collection[int] = (),
    ) -> None:
        self._dense = area_costs is not None and not isinstance(area_costs, Mapping)
        if area_costs is None:
            ids, values = np.empty(0, dtype=np.int64), np.empty(0)
        elif isinstance(area_costs, Mapping):
            keys = list(area_costs)
            ids = _ids("area_costs (its keys)", keys, "polygon") if keys else np.empty(0, np.int64)
            if len(ids) != len(keys):  # (a key given twice, as 1 and np.int64(1))
                raise ValueError("area_costs names a polygon twice")
            values = np.array(
                [_areas.check_cost(f"area_costs[{k!r}]", area_costs[k]) for k in keys]
            )[np.argsort(np.asarray(keys, dtype=np.int64), kind="stable")]
        else:
            arr = np.asarray(area_costs)
            if arr.ndim != 1 or not (
                arr.size == 0 or (np.issubdtype(arr.dtype, np.number) and arr.dtype != np.bool_)
            ):
                raise TypeError(
                    "area_costs must be a mapping {polygon id: multiplier} or an array of "
                    f"multipliers, one per polygon; got {type(area_costs).__name__}"
                    + (f" of shape {arr.shape}" if arr.ndim != 1 else f" of dtype {arr.dtype}")
                )
            values = arr.astype(np.float64)
            bad = ~np.isfinite(values) | (values < 1)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"area_costs[{k}] must be a finite number >= 1, got {arr[k].item()!r}"
                )
            ids = np.arange(values.shape[0], dtype=np.int64)
        self._ids = _read_only(ids)
        self._values = _read_only(values)
        self._costs = MappingProxyType(dict(zip(ids.tolist(), values.tolist(), strict=True)))
        self._excluded = _read_only(_ids("excluded", excluded, "polygon"))
        self._links = _read_only(_ids("excluded_links", excluded_links, "link"))
        self._hash = hash(
            (self._dense, ids.tobytes(), values.tobytes(), self._excluded.tobytes(),
             self._links.tobytes())
        )  # fmt: skip

    @property
    def area_costs(self) -> Mapping[int, float]:
        """The multipliers the filter sets, by polygon id (read-only)."""
        return self._costs

    @property
    def excluded(self) -> tuple[int, ...]:
        """The polygons excluded, sorted."""
        return tuple(self._excluded.tolist())

    @property
    def excluded_links(self) -> tuple[int, ...]:
        """The off-mesh link ids excluded, sorted."""
        return tuple(self._links.tolist())

    @property
    def is_empty(self) -> bool:
        """Whether the filter changes nothing (no costs, nothing excluded)."""
        return not (self._ids.size or self._excluded.size or self._links.size)

    def resolve(self, num_polygons: int, link_ids: Collection[int]) -> FilterArrays:
        """The filter checked against a mesh of ``num_polygons`` polygons and off-mesh
        links ``link_ids``, as arrays (for the mesh's queries).

        Raises
        ------
        ValueError
            A polygon id not in ``[0, num_polygons)``, ``area_costs`` given as an
            array of another length, a link id the mesh does not have; the message
            names ``filter`` and the field.

        Examples
        --------
        >>> from pathcraft.navmesh import QueryFilter
        >>> QueryFilter(excluded=[1]).resolve(3, []).blocked.tolist()
        [False, True, False]
        >>> QueryFilter(excluded=[3]).resolve(3, [])
        Traceback (most recent call last):
        ...
        ValueError: filter.excluded: polygon id 3 is not in [0, 3) (the mesh has 3 polygons)
        """
        n = int(num_polygons)
        if self._dense and self._ids.shape[0] != n:
            raise ValueError(
                f"filter.area_costs holds {self._ids.shape[0]} multipliers; the mesh has {n} "
                "polygons (give one per polygon, or a mapping {polygon id: multiplier})"
            )
        for field, ids in (("area_costs", self._ids), ("excluded", self._excluded)):
            if ids.size and int(ids[-1]) >= n:
                raise ValueError(
                    f"filter.{field}: polygon id {int(ids[-1])} is not in [0, {n}) (the mesh "
                    f"has {n} polygons)"
                )
        known = set(link_ids)
        missing = [k for k in self._links.tolist() if k not in known]
        if missing:
            raise ValueError(
                f"filter.excluded_links: {missing[0]} is not a link of this mesh; its links "
                f"are {sorted(known)}"
            )
        blocked = None
        if self._excluded.size:
            blocked = np.zeros(n, dtype=bool)
            blocked[self._excluded] = True
        return FilterArrays(self._ids.astype(np.intp), self._values, blocked, self._links)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QueryFilter):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._dense == other._dense
            and np.array_equal(self._ids, other._ids)
            and np.array_equal(self._values, other._values)
            and np.array_equal(self._excluded, other._excluded)
            and np.array_equal(self._links, other._links)
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        parts = []
        if self._ids.size:
            costs = self._values.tolist() if self._dense else dict(self._costs)
            parts.append(f"area_costs={costs!r}")
        if self._excluded.size:
            parts.append(f"excluded={list(self.excluded)!r}")
        if self._links.size:
            parts.append(f"excluded_links={list(self.excluded_links)!r}")
        return f"QueryFilter({', '.join(parts)})"

    def __reduce__(self) -> tuple[Any, ...]:
        costs = self._values.copy() if self._dense else dict(self._costs) or None
        return (_make, (costs, self.excluded, self.excluded_links))


def _make(costs: Any, excluded: tuple[int, ...], links: tuple[int, ...]) -> QueryFilter:
    """A filter again from its fields (for pickle)."""
    return QueryFilter(area_costs=costs, excluded=excluded, excluded_links=links)


def check_filter(value: Any) -> QueryFilter | None:
    """``value`` as a query's filter: a :class:`QueryFilter` or None (an empty filter is
    None)."""
    if value is None:
        return None
    if not isinstance(value, QueryFilter):
        raise TypeError(
            "filter must be a pathcraft.navmesh.QueryFilter or None; got "
            f"{type(value).__name__} (make one: QueryFilter(area_costs=..., excluded=...))"
        )
    return None if value.is_empty else value


Graphs = tuple[Portals, LinkGraph | None]


class Policy:
    """What one query's search reads (see the module documentation). The graphs are
    made on first use (a Polyanya query never needs them).

    Attributes
    ----------
    top : Topology
        The flat arrays Polyanya and the raycast walk (excluded polygons walled off).
    costs : ndarray of float64 or None
        The area costs of the query (None: all 1).
    blocked : ndarray of bool or None
        The polygons excluded (None: none).
    price : callable
        The cost of a path ``(n, 2)`` under ``costs``.
    """

    __slots__ = ("_component", "_graphs", "_has_links", "_make", "blocked", "costs", "price", "top")

    def __init__(
        self,
        top: _build.Topology,
        component: npt.NDArray[Any],
        costs: FloatArray | None,
        blocked: npt.NDArray[np.bool_] | None,
        price: Callable[[FloatArray], float],
        has_links: bool,
        graphs: Callable[[], Graphs],
    ) -> None:
        self.top = top
        self.costs = costs
        self.blocked = blocked
        self.price = price
        self._component = component
        self._has_links = has_links
        self._make = graphs
        self._graphs: Graphs | None = None

    def _made(self) -> Graphs:
        if self._graphs is None:  # (two threads may both make them: the same arrays)
            self._graphs = self._make()
        return self._graphs

    @property
    def portals(self) -> Portals:
        """The portal graph, weighed by the query's area costs."""
        return self._made()[0]

    @property
    def links(self) -> LinkGraph | None:
        """The portal graph with the off-mesh links the query may take (None: the
        mesh has no links)."""
        return self._made()[1] if self._has_links else None

    @property
    def component(self) -> npt.NDArray[Any]:
        """Each polygon's connected part under the query (joined by the links)."""
        links = self.links
        return self._component if links is None else links.component

    @property
    def walk_component(self) -> npt.NDArray[Any]:
        """Each polygon's connected part under the query, on foot (no links)."""
        return self._component

    @property
    def graph(self) -> Graph:
        """The graph the corridor search runs on."""
        links = self.links
        return self.portals.graph if links is None else links.graph

    def allowed(self, polys: Polys) -> Polys:
        """``polys`` without the excluded ones."""
        if self.blocked is None:
            return polys
        out: Polys = polys[~self.blocked[polys]]
        return out


def length(path: FloatArray) -> float:
    """The length of ``path``, ``(n, 2)``."""
    return float(np.sqrt((np.diff(path, axis=0) ** 2).sum(axis=1)).sum())


def pricing(
    shapes: npt.NDArray[Any], tree: Any, costs: FloatArray | None
) -> Callable[[FloatArray], float]:
    """The cost of a path under area ``costs`` (its length when None)."""
    return length if costs is None else partial(_areas.path_cost, shapes, tree, costs)


def filtered(mesh: NavMesh, flt: QueryFilter, tree: Any) -> Policy:
    """The policy of a query of ``mesh`` with ``flt`` (checked against it); ``tree``,
    the STRtree of the mesh's polygons, for the pricing. Nothing of the mesh is
    written."""
    arrays = flt.resolve(mesh.num_polygons, list(mesh.links))
    parts = mesh.parts
    costs = mesh.area_costs  # (a copy)
    costs[arrays.ids] = arrays.multipliers
    blocked = arrays.blocked
    top, component = parts.top, parts.component
    if blocked is not None:
        top = _build.walled(parts.top, blocked)
        component = np.empty(mesh.num_polygons, dtype=np.int32)
        _walk.components(top.poff, top.nbr, component)
    gone = set(arrays.links.tolist())

    def graphs() -> Graphs:
        weighed = costs if blocked is None else np.where(blocked, math.inf, costs)
        base = mesh.portal_graph
        recost = np.flatnonzero(weighed != base.costs).astype(np.intp)
        portals = base
        if recost.size * _WHOLE > weighed.shape[0]:  # (the same graph, array for array)
            portals = build_portals(parts.top, weighed)
        elif recost.size:
            portals = patch_portals(base, parts.top, weighed, np.empty(0, dtype=np.intp), recost)
        if not mesh.has_links:
            return portals, None
        if portals is base and blocked is None and not gone:
            return portals, mesh.link_graph
        kept = {k: v for k, v in mesh.links.items() if k not in gone}
        return portals, LinkGraph.build(mesh, portals, kept, component, blocked)

    plain = None if bool((costs == 1.0).all()) else costs
    price = pricing(parts.shapes, tree, plain)
    return Policy(top, component, plain, blocked, price, mesh.has_links, graphs)


class PolicyCache:
    """The policies of a mesh's last few filters (at most ``size``), each valid while
    the mesh's version is the one it was made at. Safe to share between threads."""

    __slots__ = ("_items", "_lock", "_size")

    def __init__(self, size: int = 4) -> None:
        self._items: OrderedDict[QueryFilter, tuple[int, Policy]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, flt: QueryFilter, version: int, make: Callable[[], Policy]) -> Policy:
        """The policy of ``flt`` at ``version``, made by ``make`` when not kept."""
        with self._lock:
            held = self._items.get(flt)
            if held is not None and held[0] == version:
                self._items.move_to_end(flt)
                return held[1]
        policy = make()
        with self._lock:
            self._items[flt] = (version, policy)
            self._items.move_to_end(flt)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return policy
