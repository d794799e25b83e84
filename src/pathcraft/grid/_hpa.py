"""HPA* (Botea, Muller, Schaeffer 2004): hierarchical path-finding on a grid.

The grid is cut into square clusters. Where two neighbouring clusters have a run of
cells walkable on both sides of their border (an *entrance*), one transition (runs
shorter than :data:`WIDE`: its middle) or two (longer runs: both ends) join them.
The transition cells are the nodes of an abstract graph whose edges are the straight
steps from a node to a node of another cluster and, inside each cluster, the cheapest
costs between its nodes. The build runs, per node, a Dijkstra confined to its cluster
(stopped once the cluster's nodes are settled) and keeps, besides the costs, the move
that entered each cell of the cluster (one byte a cell per node), so a query refines
the abstract path by walking these cached fields, never searching again. A cluster of
one cost without a wall needs no search: its costs are octile distances and its
fields octile paths (diagonal steps first), written directly.

The searches run in the compiled kernel (:mod:`pathcraft._core.hpa`, over flat
arrays, the GIL released; the build spreads its clusters over a few threads): the
entrances, the intra-cluster fields, and the query (a Dijkstra from the start confined
to its cluster, one towards the goal confined to the goal's, A* over the nodes, and the
refinement). The A*'s heuristic is the octile distance raised by landmarks (ALT,
Goldberg and Harrelson 2005): the build keeps every node's abstract costs from and to a
few far-apart nodes, whose differences bound the cost to the goal from below, so the
search expands several times fewer nodes for the same abstract path (an edit's
repair keeps them a feasible potential, lowering them where a change shortened the
graph; :meth:`Hierarchy.refresh_landmarks` makes them exact again). The
smoothing then pulls the string over the refined path's bends (the line of sight of
:meth:`~pathcraft.grid.Grid.smooth`) and, between two turning cells, replaces the
refined cells by the cheapest path inside their bounding box when it is cheaper (an
octile path when one costs the heuristic's bound, else a compiled A*); only its loop
over the turns is Python. Every path is a path of the grid under its diagonal rule
(entering cells, paying their cost), suboptimal by the abstraction.

The hierarchy holds its intra costs and fields in two flat buffers, each cluster's at
its own offset. An edit repairs only the clusters whose cells changed and the
entrances on their borders (:meth:`Hierarchy.repair`; the grid does it before its
next HPA* query): their new contents go at the ends of the buffers, which are
compacted when full.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core import hpa as _kernel
from pathcraft._core import theta as _theta_kernel
from pathcraft._unique import sorted_unique
from pathcraft.grid._run import DIAGONAL_RULES
from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["DEFAULT_CLUSTER", "LANDMARKS", "WIDE", "Hierarchy", "find_path"]

#: The side of a cluster in cells when ``prepare("hpa")`` is not told (by measurement:
#: bench/hpa.py --layout tile, the size that holds issue 32's targets on both maps;
#: 64 answers faster but strays further from the optimum).
DEFAULT_CLUSTER = 32
#: Entrances this long or longer get two transitions (their ends), shorter ones one.
WIDE = 6
#: Landmarks of the abstract graph whose costs sharpen the query's heuristic (ALT).
LANDMARKS = 8
#: Threads the build spreads its clusters over (the kernels release the GIL).
_WORKERS = min(4, os.cpu_count() or 1)
#: The share of the nodes (and at least how many) a repair's lowering of one
#: landmark's costs may settle before it drops that landmark instead
#: (:meth:`Hierarchy._lower_landmarks`).
_LOWER_SHARE, _LOWER_FLOOR = 0.25, 4096
#: The largest bounding box (in cells) the smoothing searches for a shortcut.
_SMOOTH_AREA = 1 << 16

_SQRT2 = math.sqrt(2.0)
Border = tuple[int, int, int]  # (0 vertical / 1 horizontal, cluster row, cluster col)
I64 = npt.NDArray[np.int64]


class Hierarchy:
    """The abstract graph of HPA* over one grid's cells.

    Parameters
    ----------
    grid : Grid
        The grid (its costs and diagonal rule) at its current :attr:`version`.
    cluster : int
        The side of a cluster in cells (>= 2).
    landmarks : int, optional
        How many landmarks (0 to 16; default :data:`LANDMARKS`) the build picks
        among the nodes (each the node farthest from those picked before) and keeps
        the abstract costs from and to, 8 bytes a node each: the query's A* takes
        the largest of the octile distance and the bounds they give (ALT), which
        are exact lower bounds on the abstract graph, so the abstract path is the
        same cost with fewer expansions. An edit's repair keeps them sound by
        lowering their costs where the edit shortened the graph (a Dijkstra from
        the redone clusters, as far as the change reaches; a landmark whose change
        reaches past a quarter of the nodes is dropped), so they stay lower bounds,
        looser where walls were added, until :meth:`refresh_landmarks` (about a
        tenth of a build) or a new build.

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> grid = Grid(np.ones((40, 40)))
    >>> h = Hierarchy(grid, 10)
    >>> h.clusters, h.nodes > 0
    ((4, 4), True)
    """

    def __init__(self, grid: Grid, cluster: int, landmarks: int = LANDMARKS) -> None:
        if type(cluster) is not int or cluster < 2:
            raise ValueError(
                f"cluster must be an int >= 2 (cells on a cluster's side); got {cluster!r}"
            )
        if type(landmarks) is not int or not 0 <= landmarks <= 16:
            raise ValueError(f"landmarks must be an int from 0 to 16; got {landmarks!r}")
        self.size = cluster
        self.diagonal = grid.diagonal
        self._rule = DIAGONAL_RULES[grid.diagonal]
        self.version = grid.version
        self._padded = grid.padded  # the grid's own cells: no copy
        self._cost = grid.cost
        rows, cols = self._cost.shape
        self.clusters = (-(-rows // cluster), -(-cols // cluster))
        ci, cj = self.clusters
        finite = self._cost[np.isfinite(self._cost)]
        self._min = float(finite.min()) if finite.size else 1.0
        # each cluster's cells: its box's area (the last row and column may be short)
        heights = np.minimum(cluster, rows - cluster * np.arange(ci, dtype=np.int64))
        widths = np.minimum(cluster, cols - cluster * np.arange(cj, dtype=np.int64))
        self._area: I64 = np.outer(heights, widths).ravel()
        #: Transition pairs (a, b) per border, flat cells, a on the upper/left side.
        self._pairs: dict[Border, list[tuple[int, int]]] = {}
        kind, bi, bj = (
            np.repeat(np.arange(2, dtype=np.int64), ci * cj),
            np.tile(np.repeat(np.arange(ci, dtype=np.int64), cj), 2),
            np.tile(np.arange(cj, dtype=np.int64), 2 * ci),
        )
        self._set_borders(kind, bi, bj)
        # the nodes, cluster by cluster, ascending cells in each
        found = [cell for pairs in self._pairs.values() for pair in pairs for cell in pair]
        cells = sorted_unique(np.array(found, dtype=np.int64))
        self._set_nodes(cells)
        count = np.diff(self._cl_ptr)
        mat_size, dir_size = count * count, count * self._area
        self._mat_off: I64 = np.concatenate(([0], np.cumsum(mat_size)[:-1])).astype(np.int64)
        self._dir_off: I64 = np.concatenate(([0], np.cumsum(dir_size)[:-1])).astype(np.int64)
        # room for repairs to append their clusters before a compaction
        self._mats = np.empty(int(mat_size.sum() * 1.25) + 64)
        self._dirs = np.empty(int(dir_size.sum() * 1.25) + 64, dtype=np.uint8)
        self._used = [int(mat_size.sum()), int(dir_size.sum())]
        self._intra(np.flatnonzero(count).astype(np.int64))
        self._marks = landmarks
        #: the one cost of every walkable cell, None when there are several
        self._one_cost = self._min if finite.size and float(finite.max()) == self._min else None
        self._lm = self._landmarks(landmarks, self._one_cost is not None)

    # ------------------------------------------------------------------ building

    @property
    def nodes(self) -> int:
        """The number of abstract nodes (transition cells)."""
        return len(self._node_cell)

    @property
    def nbytes(self) -> int:
        """The bytes the abstraction holds (it reads the grid's own cells): its
        buffers of intra costs (8 per pair of a cluster's nodes) and of refinement
        fields (1 per cell of a cluster per node of it), the node and offset arrays,
        the landmarks' costs (8 per node and landmark) and about 16 per transition
        pair."""
        pairs = sum(len(p) for p in self._pairs.values()) * 16
        arrays = self._node_cell, self._cl_ptr, self._mat_off, self._dir_off, self._area, self._lm
        return self._mats.nbytes + self._dirs.nbytes + sum(a.nbytes for a in arrays) + pairs

    def _box(self, cl: tuple[int, int]) -> tuple[int, int, int, int]:
        s = self.size
        rows, cols = self._cost.shape
        return cl[0] * s, min(rows, cl[0] * s + s), cl[1] * s, min(cols, cl[1] * s + s)

    def cluster_of(self, flat: int) -> tuple[int, int]:
        """The cluster ``(row, col)`` of a flat cell index."""
        r, c = divmod(flat, self._cost.shape[1])
        return r // self.size, c // self.size

    def _set_borders(self, kind: I64, bi: I64, bj: I64) -> None:
        """The transitions of the borders ``(kind, bi, bj)`` (none past the grid's edge)."""
        t, a, b = _kernel.entrances(self._padded, self.size, WIDE, kind, bi, bj)
        for k in range(len(kind)):
            self._pairs.pop((int(kind[k]), int(bi[k]), int(bj[k])), None)
        bounds = np.flatnonzero(np.diff(t, prepend=-1, append=len(kind)))
        a_list, b_list = a.tolist(), b.tolist()
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            k = int(t[lo])
            key = (int(kind[k]), int(bi[k]), int(bj[k]))
            self._pairs[key] = list(zip(a_list[lo:hi], b_list[lo:hi], strict=True))

    def _cluster_index(self, cells: I64) -> I64:
        cols = self._cost.shape[1]
        index: I64 = (cells // cols) // self.size * self.clusters[1] + (cells % cols) // self.size
        return index

    def _set_nodes(self, cells: I64) -> None:
        """Number the nodes ``cells`` (ascending) cluster by cluster."""
        index = self._cluster_index(cells)
        order = np.argsort(index, kind="stable")
        self._node_cell: I64 = cells[order]
        count = np.bincount(index, minlength=self.clusters[0] * self.clusters[1])
        self._cl_ptr: I64 = np.concatenate(([0], np.cumsum(count))).astype(np.int64)

    def _cluster_nodes(self, cl: tuple[int, int]) -> list[int]:
        i, j = cl
        found: set[int] = set()
        for key, side in (((0, i, j), 0), ((1, i, j), 0), ((0, i, j - 1), 1), ((1, i - 1, j), 1)):
            for pair in self._pairs.get(key, ()):
                found.add(pair[side])
        return sorted(found)

    def _intra(self, clusters: I64) -> None:
        """The intra-cluster costs and fields of ``clusters`` (indices ``i * cj + j``),
        at the offsets already set; many clusters in :data:`_WORKERS` threads, each
        on its share of the work (nodes times cells), into its own part of the
        buffers."""

        def run(part: I64) -> None:
            _kernel.intra(
                self._padded, self._rule, self.size, part, self._cl_ptr, self._node_cell,
                self._mat_off, self._dir_off, self._mats, self._dirs,
            )  # fmt: skip

        if _WORKERS < 2 or len(clusters) < 256:
            run(clusters)
            return
        work = np.cumsum(np.diff(self._cl_ptr)[clusters] * self._area[clusters])
        cuts = np.searchsorted(work, work[-1] * np.arange(1, _WORKERS) / _WORKERS)
        parts = np.split(clusters, cuts)
        with ThreadPoolExecutor(_WORKERS - 1) as pool:
            others = [pool.submit(run, part) for part in parts[1:]]
            run(parts[0])
            for job in others:
                job.result()

    def _landmarks(self, count: int, uniform: bool) -> npt.NDArray[np.float32]:
        """Per node, its abstract costs from then to each of ``count`` landmarks
        (``(nodes, 2 count)`` float32). The first four are the nodes nearest the
        grid's corners among the nodes of the main part (long queries
        run between far sides, and a landmark behind a start or beyond a goal bounds
        them best); each next one is the node farthest from those before. The costs
        to a landmark come from a backward search, unless every walkable cell costs
        the same (a path reversed then costs the same)."""
        n = self.nodes
        table = np.empty((n, 2 * count if n else 0), dtype=np.float32)
        if n == 0 or count == 0:
            return table
        rows, cols = self._cost.shape
        r, c = np.divmod(self._node_cell, cols)
        # the nodes the landmarks serve: those one node reaches, that node the one
        # nearest the middle unless it reaches less than half of them (a closed
        # room), then the first of some spread along the nodes that does
        middle = int(np.argmin(np.abs(r - rows // 2) + np.abs(c - cols // 2)))
        reached = np.isfinite(self._abstract(middle, backward=False))
        for other in (n * np.arange(1, 16) // 16).tolist():
            if reached.sum() * 2 >= n:
                break
            more = np.isfinite(self._abstract(other, backward=False))
            reached = more if more.sum() > reached.sum() else reached
        near = np.full(n, np.inf)
        for k in range(count):
            if k < 4:  # the corners: (0, 0), (0, cols), (rows, 0), (rows, cols)
                far = np.abs(r - (rows - 1) * (k // 2)) + np.abs(c - (cols - 1) * (k % 2))
                mark = int(np.argmin(np.where(reached & (near > 0), far, np.iinfo(np.int64).max)))
            else:
                mark = int(np.argmax(np.where(reached, near, -1.0)))
            if not reached[mark] or near[mark] <= 0.0:  # no node left away from the others
                keep = np.r_[0:k, count : count + k].astype(np.intp)
                return np.ascontiguousarray(table[:, keep])
            out = self._abstract(mark, backward=False)
            table[:, k] = out
            table[:, count + k] = out if uniform else self._abstract(mark, backward=True)
            near = np.minimum(near, out)
        return table

    def refresh_landmarks(self) -> None:
        """Pick the landmarks again and compute their costs over the current
        abstract graph (:meth:`repair` keeps them sound, not exact): 2 to 3
        abstract Dijkstras per landmark, about a tenth of a build."""
        self._lm = self._landmarks(self._marks, self._one_cost is not None)

    def _abstract(self, node: int, backward: bool) -> npt.NDArray[np.float64]:
        """The abstract graph's cheapest costs from ``node`` (``backward``: to it)."""
        out = np.empty(self.nodes)
        _kernel.abstract_costs(
            self._padded, self.size, self._cl_ptr, self._node_cell, self._mat_off,
            self._mats, node, backward, out,
        )  # fmt: skip
        return out

    def _place(self, clusters: I64) -> None:
        """Offsets for the new contents of ``clusters`` at the ends of the buffers
        (compacting them, every other cluster moved to the front, when they are full)."""
        count = np.diff(self._cl_ptr)
        mat_size, dir_size = count * count, count * self._area
        need = [int(mat_size[clusters].sum()), int(dir_size[clusters].sum())]
        if self._used[0] + need[0] > len(self._mats) or self._used[1] + need[1] > len(self._dirs):
            keep = np.flatnonzero(count)
            keep = keep[~np.isin(keep, clusters)].tolist()
            self._mats, self._used[0] = _compact(self._mats, self._mat_off, mat_size, keep, need[0])
            self._dirs, self._used[1] = _compact(self._dirs, self._dir_off, dir_size, keep, need[1])
        for k, (off, size) in enumerate(((self._mat_off, mat_size), (self._dir_off, dir_size))):
            off[clusters] = self._used[k] + np.concatenate(([0], np.cumsum(size[clusters])[:-1]))
            self._used[k] += need[k]

    def repair(self, grid: Grid) -> int:
        """Bring the hierarchy to the grid's current cells, rebuilding only the
        clusters whose cells changed (and the entrances on their borders and the
        neighbours those touch) and lowering the landmarks' costs where the edit
        shortened the graph (:meth:`_lower_landmarks`); the number of clusters
        rebuilt."""
        if grid.version == self.version:
            return 0
        changed = grid.changes_since(self.version)
        self.version = grid.version
        self._padded = grid.padded
        self._cost = grid.cost
        cells = np.asarray(changed).reshape(-1, 2)
        now = self._cost[cells[:, 0], cells[:, 1]]
        now = now[np.isfinite(now)]
        if now.size:  # the heuristic's scale only falls (a higher one would be stale)
            self._min = min(self._min, float(now.min()))
            if self._one_cost is not None and (now != self._one_cost).any():
                self._one_cost = None
        s = self.size
        touched = {(int(r) // s, int(c) // s) for r, c in cells.tolist()}
        ci, cj = self.clusters
        borders: set[Border] = set()
        redo: set[tuple[int, int]] = set()
        for i, j in touched:
            borders.update(
                key for key in ((0, i, j), (1, i, j), (0, i, j - 1), (1, i - 1, j))
                if key[1] >= 0 and key[2] >= 0
            )  # fmt: skip
            redo.update(
                (a, b) for a, b in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                if 0 <= a < ci and 0 <= b < cj
            )  # fmt: skip
        keys = np.array(sorted(borders), dtype=np.int64).reshape(-1, 3)
        self._set_borders(keys[:, 0].copy(), keys[:, 1].copy(), keys[:, 2].copy())
        again = np.array(sorted(i * cj + j for i, j in redo), dtype=np.int64)
        # the redone clusters' nodes spliced in where theirs were (no sort)
        ptr, keep = self._cl_ptr, np.ones(len(self._node_cell), dtype=bool)
        count = np.diff(ptr)
        fresh: list[int] = []
        where: list[int] = []
        gone = 0
        for c in again.tolist():
            lo, hi = int(ptr[c]), int(ptr[c + 1])
            keep[lo:hi] = False
            nodes = self._cluster_nodes((c // cj, c % cj))
            fresh.extend(nodes)
            where.extend([lo - gone] * len(nodes))
            count[c] = len(nodes)
            gone += hi - lo
        # a redone node starts from the old row of its cell when it was a node
        gone_cells, gone_rows = self._node_cell[~keep], self._lm[~keep]
        order = np.argsort(gone_cells)
        at = np.minimum(np.searchsorted(gone_cells[order], fresh), max(len(order) - 1, 0))
        rows = np.full((len(fresh), self._lm.shape[1]), np.inf, dtype=np.float32)
        if len(order):
            same = gone_cells[order][at] == fresh
            rows[same] = gone_rows[order][at[same]]
        self._lm = np.insert(self._lm[keep], where, rows, axis=0)
        self._node_cell = np.insert(self._node_cell[keep], where, fresh).astype(np.int64)
        self._cl_ptr = np.concatenate(([0], np.cumsum(count))).astype(np.int64)
        self._place(again)
        self._intra(again)
        self._lower_landmarks(again)
        return len(redo)

    def _lower_landmarks(self, again: I64) -> None:
        """Make the landmark table a feasible potential of the repaired graph again.

        The query's heuristic from a column ``f`` of costs from a landmark is
        ``f(goal) - f(v)`` (from a column ``b`` of costs to one, ``b(v) - b(goal)``).
        It needs ``f`` to be no true distance, only *feasible*: ``f(v) <= f(u) +
        c(u, v)`` on every abstract edge (``b(u) <= c(u, v) + b(v)``). Then, summed
        along any path, ``f(goal) - f(v)`` never exceeds the path's cost
        (admissible), and ``h(u) - h(v) = f(v) - f(u) <= c(u, v)`` (consistent: the
        A* expands each node once and its abstract path is the cheapest). The max
        with the octile bound keeps both. Exact costs are feasible, and a repair
        changes only the edges at the redone clusters' nodes (their intra costs,
        their border steps): every other edge still holds. So the redone nodes take
        the old value of their cell (inf for a new cell), and a Dijkstra seeded at
        them and the nodes of the clusters around them (the tails of every edge that
        may fail) lowers the values until every edge holds again
        (:func:`~pathcraft._core.hpa.lower_costs`). A wall that raises costs leaves
        the old values, lower than the new costs but feasible; an opened door lowers
        the values behind it, as far as it shortens them. A landmark whose lowering
        would settle more than :data:`_LOWER_SHARE` of the nodes (and more than
        :data:`_LOWER_FLOOR`) is dropped (its
        pair of columns removed) rather than paid for; :meth:`refresh_landmarks`
        computes them all again, exact."""
        marks = self._lm.shape[1] // 2
        if marks == 0:
            return
        ci, cj = self.clusters
        around = set(again.tolist())
        for c in again.tolist():
            i, j = divmod(c, cj)
            around.update(
                a * cj + b for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                if 0 <= a < ci and 0 <= b < cj
            )  # fmt: skip
        ptr = self._cl_ptr
        seeds = np.concatenate(
            [np.arange(ptr[c], ptr[c + 1], dtype=np.int64) for c in sorted(around)]
            + [np.empty(0, dtype=np.int64)]
        )
        limit = max(int(self.nodes * _LOWER_SHARE), _LOWER_FLOOR)
        uniform = self._one_cost is not None  # the costs to a landmark are those from it
        keep = []
        for k in range(marks):
            ok = True
            for col in (k,) if uniform else (k, marks + k):
                out = self._lm[:, col].astype(np.float64)
                settled = _kernel.lower_costs(
                    self._padded, self.size, ptr, self._node_cell, self._mat_off, self._mats,
                    seeds, col >= marks, out, limit,
                )  # fmt: skip
                ok = ok and settled >= 0
                self._lm[:, col] = out
            if uniform:
                self._lm[:, marks + k] = self._lm[:, k]
            if ok:
                keep.append(k)
        if len(keep) < marks:
            cols = np.array(keep + [marks + k for k in keep], dtype=np.intp)
            self._lm = np.ascontiguousarray(self._lm[:, cols])

    # ------------------------------------------------------------------ queries

    def path(self, start: int, goal: int) -> tuple[npt.NDArray[np.intp] | None, int]:
        """The refined (unsmoothed) cells ``(row, col)`` of HPA*'s path from the flat
        cell ``start`` to ``goal`` (both walkable) and the abstract expansions; None
        for the cells when the abstract graph joins them nowhere."""
        cells, _, expanded = _kernel.query(
            self._padded, self._rule, self.size, self._min, self._cl_ptr, self._node_cell,
            self._mat_off, self._dir_off, self._mats, self._dirs, self._lm, start, goal,
        )  # fmt: skip
        return (None if cells is None else cells.astype(np.intp, copy=False)), expanded

    def path_cost(self, path: npt.NDArray[np.intp]) -> float:
        """The cost of a path of cells: each entered cell's cost, times sqrt(2) on a
        diagonal step."""
        if len(path) < 2:
            return 0.0
        steps = np.abs(np.diff(path, axis=0)).sum(axis=1)
        entered = self._cost[path[1:, 0], path[1:, 1]]
        return float(np.sum(np.where(steps == 2, entered * _SQRT2, entered)))

    def _turns(self, path: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """The places in ``path`` of its string-pulled turning cells. The pulling runs
        over the cells where the path changes direction (it is straight between them),
        and over every cell when a straight stretch of it is no clear line."""
        step = np.diff(path, axis=0)
        bends = np.flatnonzero((step[1:] != step[:-1]).any(axis=1)) + 1
        places = np.concatenate(([0], bends, [len(path) - 1]))
        for candidates in (places, np.arange(len(path))):
            cells = path[candidates]
            width = self._cost.shape[1] + 2
            flat = ((cells[:, 0] + 1) * width + cells[:, 1] + 1).astype(np.intp)
            kept, bad = _theta_kernel.smooth_path(self._padded, flat, self._rule)
            if bad < 0:
                break
        # the kept cells are a subsequence of the candidates: their places, in order
        found, k, want = [], 0, kept.tolist()
        for place, cell in zip(candidates.tolist(), cells.tolist(), strict=True):
            if k < len(want) and cell == want[k]:
                found.append(place)
                k += 1
        return np.array(found, dtype=np.intp)

    def smooth(self, path: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``path`` (legal, as :meth:`path` gives it) with its stretches between the
        turning cells of the grid's line of sight (the string-pulling of
        :meth:`~pathcraft.grid.Grid.smooth`) replaced by a cheaper path over their
        bounding box, where there is one (an octile path or A*, in one compiled
        pass over the turns)."""
        if len(path) < 3:
            return path
        at = self._turns(path).astype(np.int64)
        cells = np.ascontiguousarray(path, dtype=np.int64)
        out = _kernel.smooth(self._padded, self._rule, self._min, cells, at, _SMOOTH_AREA)
        return out.astype(np.intp, copy=False)


def _compact(buffer: Any, offsets: I64, sizes: I64, keep: list[int], room: int) -> Any:
    """A new buffer holding the clusters ``keep`` of ``buffer`` one after another
    (``offsets`` set to their new places) with room for ``room`` more, and its use."""
    fresh = np.empty(int((int(sizes[keep].sum()) + room) * 1.25) + 64, dtype=buffer.dtype)
    at = 0
    for c in keep:
        n = int(sizes[c])
        fresh[at : at + n] = buffer[offsets[c] : offsets[c] + n]
        offsets[c] = at
        at += n
    return fresh, at


def find_path(
    grid: Grid, hierarchy: Hierarchy, start: Any, goal: Any, smooth: bool = True
) -> PathResult:
    """HPA*'s answer from ``start`` to ``goal`` (cells ``(row, col)``, checked as the
    grid checks them) on ``hierarchy`` (repaired first when the grid was edited)."""
    t0 = time.perf_counter()
    hierarchy.repair(grid)
    if not grid.reachable(start, goal):  # checks both cells; components answer at once
        nothing = PathResult.not_found("unreachable", elapsed=time.perf_counter() - t0)
        return replace(nothing, path=np.empty((0, 2), dtype=np.intp))
    a = (int(start[0]), int(start[1]))
    b = (int(goal[0]), int(goal[1]))
    cols = grid.cost.shape[1]
    if a == b:
        cells = np.array([a], dtype=np.intp)
        return PathResult(path=cells, cost=0.0, found=True, elapsed=time.perf_counter() - t0)
    found, expanded = hierarchy.path(a[0] * cols + a[1], b[0] * cols + b[1])
    if found is None:  # diagonal="always" may cross a border where no entrance is
        return grid.astar(a, b)
    cells = found
    if smooth:
        cells = hierarchy.smooth(cells)
    cost = hierarchy.path_cost(cells)
    return PathResult(
        path=cells, cost=cost, found=True, expanded=expanded, elapsed=time.perf_counter() - t0
    )
