"""HPA* (Botea, Muller, Schaeffer 2004): hierarchical path-finding on a grid.

The grid is cut into square clusters. Where two neighbouring clusters have a run of
cells walkable on both sides of their border (an *entrance*), one transition (runs
shorter than :data:`WIDE`: its middle) or two (longer runs: both ends) join them.
The transition cells are the nodes of an abstract graph whose edges are the steps
across the border and, inside each cluster, the cheapest costs between its nodes
(compiled Dijkstra fields over the cluster's cells, as the paper caches them). A
query inserts the start and goal in their clusters, searches the abstract graph by A*,
refines each abstract edge to cells by a compiled A* inside its cluster, and smooths
the result: between the turning cells of the grid's line of sight
(:meth:`~pathcraft.grid.Grid.smooth`), a compiled A* over the two cells' bounding box
replaces the refined cells when it is cheaper. Every path is a path of the grid under
its diagonal rule (entering cells, paying their cost), suboptimal by the abstraction.

An edit repairs only the clusters whose cells changed and the entrances on their
borders (:meth:`Hierarchy.repair`); the grid does it before its next HPA* query.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft.result import PathResult

if TYPE_CHECKING:
    from pathcraft.grid._grid import Grid

__all__ = ["DEFAULT_CLUSTER", "WIDE", "Hierarchy", "find_path"]

#: The side of a cluster in cells when ``prepare("hpa")`` is not told (by measurement:
#: bench/hpa.py).
DEFAULT_CLUSTER = 64
#: Entrances this long or longer get two transitions (their ends), shorter ones one.
WIDE = 6
#: The largest bounding box (in cells) the smoothing searches for a shortcut.
_SMOOTH_AREA = 1 << 16

_SQRT2 = math.sqrt(2.0)
Border = tuple[int, int, int]  # (0 vertical / 1 horizontal, cluster row, cluster col)


class Hierarchy:
    """The abstract graph of HPA* over one grid's cells.

    Parameters
    ----------
    grid : Grid
        The grid (its costs and diagonal rule) at its current :attr:`version`.
    cluster : int
        The side of a cluster in cells (>= 2).

    Examples
    --------
    >>> import numpy as np
    >>> from pathcraft import Grid
    >>> grid = Grid(np.ones((40, 40)))
    >>> h = Hierarchy(grid, 10)
    >>> h.clusters, h.nodes > 0
    ((4, 4), True)
    """

    def __init__(self, grid: Grid, cluster: int) -> None:
        if type(cluster) is not int or cluster < 2:
            raise ValueError(
                f"cluster must be an int >= 2 (cells on a cluster's side); got {cluster!r}"
            )
        self.size = cluster
        self._kind = type(grid)  # the local grids' class (no import of the grid module)
        self.diagonal = grid.diagonal
        self.version = grid.version
        self._cost = grid.cost  # a read-only view of the grid's cells: no copy
        rows, cols = self._cost.shape
        self.clusters = (-(-rows // cluster), -(-cols // cluster))
        self._min = (
            float(self._cost[np.isfinite(self._cost)].min())
            if np.isfinite(self._cost).any()
            else 1.0
        )
        #: Transition pairs (a, b) per border, flat cells, a on the upper/left side.
        self._pairs: dict[Border, list[tuple[int, int]]] = {}
        #: Per cluster: its nodes (flat cells) and their intra-cluster cost matrix.
        self._intra: dict[tuple[int, int], tuple[list[int], npt.NDArray[np.float64]]] = {}
        #: Per node: its intra neighbours with costs, and its partners across borders.
        self._adj: dict[int, dict[int, float]] = {}
        self._across: dict[int, list[int]] = {}
        self._local: dict[tuple[int, int], Grid] = {}
        self._steps: dict[int, list[tuple[int, float]]] = {}  # _node_steps, filled by queries
        ci, cj = self.clusters
        for i in range(ci):
            for j in range(cj):
                self._set_border((0, i, j))
                self._set_border((1, i, j))
        for i in range(ci):
            for j in range(cj):
                self._set_intra((i, j))

    # ------------------------------------------------------------------ building

    @property
    def nodes(self) -> int:
        """The number of abstract nodes (transition cells)."""
        return len(self._adj)

    @property
    def nbytes(self) -> int:
        """About the bytes the abstraction holds (it reads the grid's own cells): 8
        per intra cost, 16 per transition pair and 64 per node (estimate of the
        dicts; the per-cluster grids kept for refinement not counted)."""
        intra = sum(m.size * 8 for _, m in self._intra.values())
        pairs = sum(len(p) for p in self._pairs.values()) * 16
        return intra + pairs + 64 * len(self._adj)

    def _box(self, cl: tuple[int, int]) -> tuple[int, int, int, int]:
        s = self.size
        rows, cols = self._cost.shape
        return cl[0] * s, min(rows, cl[0] * s + s), cl[1] * s, min(cols, cl[1] * s + s)

    def cluster_of(self, flat: int) -> tuple[int, int]:
        """The cluster ``(row, col)`` of a flat cell index."""
        r, c = divmod(flat, self._cost.shape[1])
        return r // self.size, c // self.size

    def _set_border(self, key: Border) -> None:
        """The transitions of one border (none past the grid's edge)."""
        vertical, i, j = key
        s, cost = self.size, self._cost
        rows, cols = cost.shape
        cols_n = cols
        for a, b in self._pairs.pop(key, []):
            self._across[a].remove(b)
            self._across[b].remove(a)
        if vertical == 0:
            c = j * s + s - 1
            if c + 1 >= cols:
                return
            lo, hi = i * s, min(rows, i * s + s)
            open_ = np.isfinite(cost[lo:hi, c]) & np.isfinite(cost[lo:hi, c + 1])
            cells = [(lo + k) * cols_n + c for k in range(hi - lo)]
            step = 1
        else:
            r = i * s + s - 1
            if r + 1 >= rows:
                return
            lo, hi = j * s, min(cols, j * s + s)
            open_ = np.isfinite(cost[r, lo:hi]) & np.isfinite(cost[r + 1, lo:hi])
            cells = [r * cols_n + lo + k for k in range(hi - lo)]
            step = cols_n
        pairs: list[tuple[int, int]] = []
        k, n = 0, len(cells)
        flags = open_.tolist()
        while k < n:
            if not flags[k]:
                k += 1
                continue
            end = k
            while end + 1 < n and flags[end + 1]:
                end += 1
            picks = (k, end) if end - k + 1 >= WIDE else ((k + end) // 2,)
            pairs.extend((cells[p], cells[p] + step) for p in picks)
            k = end + 1
        self._pairs[key] = pairs
        for a, b in pairs:
            self._across.setdefault(a, []).append(b)
            self._across.setdefault(b, []).append(a)

    def _cluster_nodes(self, cl: tuple[int, int]) -> list[int]:
        i, j = cl
        found: set[int] = set()
        for key, side in (((0, i, j), 0), ((1, i, j), 0), ((0, i, j - 1), 1), ((1, i - 1, j), 1)):
            for pair in self._pairs.get(key, ()):
                found.add(pair[side])
        return sorted(found)

    def local_grid(self, cl: tuple[int, int]) -> Grid:
        """The cluster's cells as a grid of their own (kept until a repair)."""
        got = self._local.get(cl)
        if got is None:
            r0, r1, c0, c1 = self._box(cl)
            got = self._kind(self._cost[r0:r1, c0:c1], diagonal=self.diagonal)  # type: ignore[arg-type]
            if len(self._local) > 4096:
                self._local.clear()
            self._local[cl] = got
        return got

    def _set_intra(self, cl: tuple[int, int]) -> None:
        """The cheapest costs between the cluster's nodes, inside the cluster."""
        for n in self._intra.pop(cl, ([], None))[0]:
            self._adj.pop(n, None)
        nodes = self._cluster_nodes(cl)
        if not nodes:
            return
        r0, _, c0, _ = self._box(cl)
        cols = self._cost.shape[1]
        local = np.array([divmod(n, cols) for n in nodes], dtype=np.intp) - (r0, c0)
        fields = self.local_grid(cl).distance_fields(local, workers=1)
        costs = fields[:, local[:, 0], local[:, 1]]
        self._intra[cl] = (nodes, costs)
        for k, n in enumerate(nodes):
            row = costs[k].tolist()
            self._adj[n] = {
                m: c for m, c in zip(nodes, row, strict=True) if m != n and c != math.inf
            }

    def repair(self, grid: Grid) -> int:
        """Bring the hierarchy to the grid's current cells, rebuilding only the
        clusters whose cells changed (and the entrances on their borders and the
        neighbours those touch); the number of clusters rebuilt."""
        if grid.version == self.version:
            return 0
        changed = grid.changes_since(self.version)
        self.version = grid.version
        self._steps = {}
        self._cost = grid.cost  # a read-only view of the grid's cells: no copy
        cells = np.asarray(changed).reshape(-1, 2)
        now = self._cost[cells[:, 0], cells[:, 1]]
        now = now[np.isfinite(now)]
        if now.size:  # the heuristic's scale only falls (a higher one would be stale)
            self._min = min(self._min, float(now.min()))
        s = self.size
        touched = {(int(r) // s, int(c) // s) for r, c in cells.tolist()}
        ci, cj = self.clusters
        redo: set[tuple[int, int]] = set()
        for i, j in touched:
            self._local.pop((i, j), None)
            for key in ((0, i, j), (1, i, j), (0, i, j - 1), (1, i - 1, j)):
                if key[1] >= 0 and key[2] >= 0:
                    self._set_border(key)
            redo.update(
                (a, b) for a, b in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))
                if 0 <= a < ci and 0 <= b < cj
            )  # fmt: skip
        for cl in redo:
            self._set_intra(cl)
        return len(redo)

    # ------------------------------------------------------------------ queries

    def _h(self, a: int, b: int) -> float:
        cols: int = self._cost.shape[1]
        ar, ac = divmod(a, cols)
        br, bc = divmod(b, cols)
        dr, dc = abs(ar - br), abs(ac - bc)
        if self.diagonal == "never":
            return (dr + dc) * self._min
        return (max(dr, dc) + (_SQRT2 - 1.0) * min(dr, dc)) * self._min

    def _ends(self, flat: int, to_goal: bool) -> dict[int, float]:
        """The cost from ``flat`` to each node of its cluster (or from each to it)."""
        cl = self.cluster_of(flat)
        nodes = self._cluster_nodes(cl)
        if not nodes:
            return {}
        r0, _, c0, _ = self._box(cl)
        cols = self._cost.shape[1]
        here = divmod(flat, cols)
        local = self.local_grid(cl)
        if not to_goal:
            field = local.distance_field((here[0] - r0, here[1] - c0))
            vals = [float(field[n // cols - r0, n % cols - c0]) for n in nodes]
        else:
            idx = np.array([divmod(n, cols) for n in nodes], dtype=np.intp) - (r0, c0)
            fields = local.distance_fields(idx, workers=1)
            vals = fields[:, here[0] - r0, here[1] - c0].tolist()
        return {n: v for n, v in zip(nodes, vals, strict=True) if v != math.inf}

    def abstract_path(self, start: int, goal: int) -> tuple[list[int], int] | None:
        """The abstract A* path of flat cells from ``start`` to ``goal`` (both
        inserted for this query only) and its expansions; None when the graph has
        none."""
        out = self._ends(start, False)
        into = self._ends(goal, True)
        if self.cluster_of(start) == self.cluster_of(goal):
            direct = self.local_grid(self.cluster_of(start))
            cols = self._cost.shape[1]
            r0, _, c0, _ = self._box(self.cluster_of(start))
            s, g = divmod(start, cols), divmod(goal, cols)
            if direct.reachable((s[0] - r0, s[1] - c0), (g[0] - r0, g[1] - c0)):
                out[goal] = direct.path_cost((s[0] - r0, s[1] - c0), (g[0] - r0, g[1] - c0))
        cols = self._cost.shape[1]
        gr, gc = divmod(goal, cols)
        scale, never, bend = self._min, self.diagonal == "never", _SQRT2 - 2.0
        best: dict[int, float] = {start: 0.0}
        parent: dict[int, int] = {start: -1}
        heap = [(self._h(start, goal), 0.0, start)]
        expanded = 0
        steps_of, push, pop = self._steps, heapq.heappush, heapq.heappop
        inf = math.inf
        while heap:
            _, g, node = pop(heap)
            if g > best.get(node, inf):
                continue
            expanded += 1
            if node == goal:
                path = [node]
                while parent[path[-1]] != -1:
                    path.append(parent[path[-1]])
                return path[::-1], expanded
            if node == start:
                steps = [*out.items(), *self._node_steps(node, only_across=True)]
            else:
                steps = steps_of.get(node) or self._node_steps(node)
                if node in into:
                    steps = [*steps, (goal, into[node])]
            for m, c in steps:
                ng = g + c
                if ng < best.get(m, inf):
                    best[m] = ng
                    parent[m] = node
                    dr, dc = abs(m // cols - gr), abs(m % cols - gc)
                    h = dr + dc if never else dr + dc + bend * (dr if dr < dc else dc)
                    push(heap, (ng + h * scale, ng, m))
        return None

    def _node_steps(self, node: int, only_across: bool = False) -> list[tuple[int, float]]:
        """The node's abstract edges: across its borders (a straight step) and, but
        with ``only_across``, to its cluster's other nodes; kept until a repair."""
        cost, cols = self._cost, self._cost.shape[1]
        steps = [(m, float(cost[m // cols, m % cols])) for m in self._across.get(node, ())]
        if only_across:
            return steps
        steps.extend(self._adj.get(node, {}).items())
        self._steps[node] = steps
        return steps

    def _local_cells(
        self, a: int, b: int, box: tuple[int, int, int, int]
    ) -> npt.NDArray[np.intp] | None:
        """The cells of a compiled A* path from ``a`` to ``b`` inside ``box``."""
        r0, r1, c0, c1 = box
        cols = self._cost.shape[1]
        sa, sb = divmod(a, cols), divmod(b, cols)
        if box == self._box(self.cluster_of(a)) and self.cluster_of(a) == self.cluster_of(b):
            world = self.local_grid(self.cluster_of(a))
        else:
            world = self._kind(self._cost[r0:r1, c0:c1], diagonal=self.diagonal)  # type: ignore[arg-type]
        found = world.astar((sa[0] - r0, sa[1] - c0), (sb[0] - r0, sb[1] - c0))
        if not found:
            return None
        cells: npt.NDArray[np.intp] = np.asarray(found.path, dtype=np.intp) + np.array([r0, c0])
        return cells

    def refine(self, abstract: list[int]) -> npt.NDArray[np.intp]:
        """The cells ``(row, col)`` of an abstract path."""
        cols = self._cost.shape[1]
        parts = [np.array([divmod(abstract[0], cols)], dtype=np.intp)]
        for a, b in itertools.pairwise(abstract):
            if self.cluster_of(a) == self.cluster_of(b):
                cells = self._local_cells(a, b, self._box(self.cluster_of(a)))
                assert cells is not None  # the abstract edge came from this cluster's field
                parts.append(cells[1:])
            else:
                parts.append(np.array([divmod(b, cols)], dtype=np.intp))
        return np.concatenate(parts)

    def path_cost(self, path: npt.NDArray[np.intp]) -> float:
        """The cost of a path of cells: each entered cell's cost, times sqrt(2) on a
        diagonal step."""
        if len(path) < 2:
            return 0.0
        steps = np.abs(np.diff(path, axis=0)).sum(axis=1)
        entered = self._cost[path[1:, 0], path[1:, 1]]
        return float(np.sum(np.where(steps == 2, entered * _SQRT2, entered)))

    def smooth(self, grid: Grid, path: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``path`` with its stretches between line-of-sight turning cells replaced by
        a cheaper compiled A* path over their bounding box, where there is one."""
        if len(path) < 3:
            return path
        turns = grid.smooth(path)
        index: dict[tuple[int, int], int] = {}
        for k, (r, c) in enumerate(path.tolist()):
            index.setdefault((r, c), k)
        cols = self._cost.shape[1]
        parts = [path[:1]]
        for a, b in itertools.pairwise(turns.tolist()):
            ia, ib = index[tuple(a)], index[tuple(b)]
            piece = path[ia : ib + 1]
            box = (min(a[0], b[0]), max(a[0], b[0]) + 1, min(a[1], b[1]), max(a[1], b[1]) + 1)
            fa, fb = a[0] * cols + a[1], b[0] * cols + b[1]
            small = (box[1] - box[0]) * (box[3] - box[2]) <= _SMOOTH_AREA
            now = self.path_cost(piece)
            if ib - ia > 1 and small and now > self._h(fa, fb) * (1 + 1e-12) + 1e-9:
                other = self._local_cells(fa, fb, box)  # None: the piece is already the cheapest
                if other is not None and self.path_cost(other) < now - 1e-9:
                    piece = other
            parts.append(piece[1:])
        return np.concatenate(parts)


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
    found = hierarchy.abstract_path(a[0] * cols + a[1], b[0] * cols + b[1])
    if found is None:  # diagonal="always" may cross a border where no entrance is
        return grid.astar(a, b)
    abstract, expanded = found
    cells = hierarchy.refine(abstract)
    if smooth:
        cells = hierarchy.smooth(grid, cells)
    cost = hierarchy.path_cost(cells)
    return PathResult(
        path=cells, cost=cost, found=True, expanded=expanded, elapsed=time.perf_counter() - t0
    )
