"""The graphs a :class:`~pathcraft.navmesh.NavMesh` derives from its polygons, and the
bundle of arrays its queries read.

- The *polygon graph*: polygons linked across their portals by the distance between
  their centroids (the corridor search of the first funnel, kept for the queries that
  walk polygon to polygon, and for pictures).
- The *portal graph* the funnel's corridor search runs on
  (:mod:`pathcraft.navmesh._portals`), with the mesh's area costs.

:class:`MeshGraphs` keeps both for one mesh. A carve (:mod:`pathcraft.navmesh._carve`)
or new area costs mark the polygons they changed; each graph is brought up to date on
its first use after that, patched: only the rows around the change are made again
(:func:`patch_polygon_graph`, :func:`~pathcraft.navmesh._portals.patch_portals`), equal
array for array to building it whole (:func:`polygon_graph`,
:func:`~pathcraft.navmesh._portals.build_portals`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._unique import sorted_unique
from pathcraft.graph import Graph
from pathcraft.graph.kit import row_places, splice_rows
from pathcraft.navmesh import _build
from pathcraft.navmesh._portals import Portals, build_portals, patch_portals

__all__ = ["MeshGraphs", "MeshParts", "patch_polygon_graph", "polygon_graph"]

FloatArray = npt.NDArray[np.float64]
_NONE = np.empty(0, dtype=np.intp)  # no polygon (read only)
_NONE.flags.writeable = False


@dataclass(frozen=True, slots=True)
class MeshParts:
    """What a navigation-mesh query reads, for :mod:`pathcraft.navmesh`'s own modules
    (:attr:`NavMesh.parts`): never write to these arrays.

    Attributes
    ----------
    top : Topology
        The flat arrays of the compiled kernels (vertices, polygons, neighbours).
    shapes : ndarray of shapely.Polygon
        The polygons.
    centroids : ndarray of float64, shape (n, 2)
        Each polygon's centroid ``(x, y)``.
    component : ndarray of int
        Each polygon's connected part of the mesh.
    graph : Graph
        The polygon graph (centroids as coordinates) the corridor search runs on.
    """

    top: _build.Topology
    shapes: npt.NDArray[Any]
    centroids: npt.NDArray[np.float64]
    component: npt.NDArray[Any]
    graph: Graph


class MeshGraphs:
    """The polygon graph and the portal graph of one mesh (see the module
    documentation): the polygon graph built with the mesh, the portal graph on its
    first use; both patched on their first use after a change."""

    __slots__ = ("_graph", "_graph_due", "_portals", "_portals_due", "_recost_due")

    def __init__(self, top: _build.Topology, centroids: FloatArray) -> None:
        self._graph = polygon_graph(top, centroids)
        self._portals: Portals | None = None
        # the polygons changed since each graph was last brought up to date (carving,
        # issue 18), and those whose area cost changed since the portal graph was
        self._graph_due = _NONE
        self._portals_due = _NONE
        self._recost_due = _NONE

    def polygon_graph(self, top: _build.Topology, centroids: FloatArray) -> Graph:
        """The polygon graph of the mesh ``top`` (with its ``centroids``) as it is now."""
        if self._graph_due.size:  # after a carve: brought up to date on first use
            self._graph = patch_polygon_graph(self._graph, top, centroids, self._graph_due)
            self._graph_due = _NONE
        return self._graph

    def portal_graph(self, top: _build.Topology, costs: FloatArray | None) -> Portals:
        """The portal graph of the mesh ``top`` with area ``costs`` as it is now."""
        if self._portals is None:
            self._portals = build_portals(top, costs)
        elif self._portals_due.size or self._recost_due.size:
            self._portals = patch_portals(
                self._portals, top, costs, self._portals_due, self._recost_due
            )
        self._portals_due = self._recost_due = _NONE
        return self._portals

    def spliced(self, changed: npt.NDArray[np.intp]) -> None:
        """Note a carve whose new or replaced polygons are ``changed``."""
        self._graph_due = np.union1d(self._graph_due, changed).astype(np.intp)
        if self._portals is not None:
            self._portals_due = np.union1d(self._portals_due, changed).astype(np.intp)

    def recosted(self, ids: npt.NDArray[np.intp]) -> None:
        """Note new area costs of the polygons ``ids``."""
        if self._portals is not None:
            self._recost_due = np.union1d(self._recost_due, ids).astype(np.intp)


def polygon_graph(top: _build.Topology, centroids: FloatArray) -> Graph:
    """The polygon graph: polygons linked across their portals (one edge per shared
    edge), by the distance between their centroids."""
    n = top.poff.shape[0] - 1
    counts, fresh = _polygon_edges(top, centroids, np.arange(n, dtype=np.intp))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    targets, length = fresh
    return Graph.from_trusted_csr(offsets, targets, length, centroids, length.copy(), _unit(length))


def patch_polygon_graph(
    graph: Graph, top: _build.Topology, centroids: FloatArray, changed: npt.NDArray[np.intp]
) -> Graph:
    """:func:`polygon_graph` of ``top`` from ``graph``, the polygon graph before a local
    change whose new or replaced polygons are ``changed`` (see
    :func:`~pathcraft.navmesh._portals.patch_portals`): the rows of those polygons and
    of their neighbours before and after the change are made again, the others copied."""
    n = top.poff.shape[0] - 1
    old_offsets, old_targets, old_weights = graph.csr
    old_n = old_offsets.shape[0] - 1
    changed = changed[changed < n]
    stale = np.union1d(changed[changed < old_n], np.arange(n, old_n, dtype=np.intp))
    before = old_targets[row_places(old_offsets, stale)]
    after = top.nbr[row_places(top.poff, changed)]
    rows = sorted_unique(np.concatenate((changed, before, after)).astype(np.intp))
    rows = rows[(rows >= 0) & (rows < n)]
    counts, fresh = _polygon_edges(top, centroids, rows)
    offsets, (targets, length) = splice_rows(
        old_offsets, [old_targets, old_weights], rows, counts, fresh, n
    )
    return Graph.from_trusted_csr(offsets, targets, length, centroids, length.copy(), _unit(length))


def _unit(length: FloatArray) -> float:
    """The smallest ``weight / length`` of a graph weighed by its lengths (``x / x`` is
    exactly 1), for ``Graph.from_trusted_csr`` (given the lengths twice: as weights, and as a
    copy for the lengths, which :meth:`Graph.set_weights` must not overwrite)."""
    return 1.0 if bool((length > 0).any()) else math.inf


def _polygon_edges(
    top: _build.Topology, centroids: FloatArray, polys: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[Any]]]:
    """The polygon graph's rows of ``polys``: their lengths and ``[targets, lengths]``
    (the neighbour across each shared edge, in edge order, and the distance between
    the centroids), for :func:`~pathcraft.graph._csr.splice_rows`."""
    place = row_places(top.poff, polys)
    has = top.nbr[place] >= 0
    size = top.poff[polys + 1] - top.poff[polys]
    counts = np.bincount(np.repeat(np.arange(polys.shape[0]), size)[has], minlength=polys.shape[0])
    src = top.poly_of[place[has]]
    dst = top.nbr[place[has]]
    delta = centroids[src] - centroids[dst]
    return counts.astype(np.int64), [dst.astype(np.int32), np.sqrt((delta * delta).sum(axis=1))]
