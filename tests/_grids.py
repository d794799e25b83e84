"""Shared helpers for the grid tests: random grids (hypothesis), the scipy oracle,
legality and cost checks."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra as csgraph_dijkstra

RULES = ("never", "no_corner_cut", "one_free", "always")
HEURISTICS = ("zero", "manhattan", "octile", "euclidean", "chebyshev")
#: Heuristics that never overestimate under each rule (every step costs at least
#: ``min_cost`` and moves each coordinate by at most one).
ADMISSIBLE = {
    "never": ("manhattan", "octile", "euclidean", "chebyshev", "zero"),
    "no_corner_cut": ("octile", "euclidean", "chebyshev", "zero"),
    "one_free": ("octile", "euclidean", "chebyshev", "zero"),
    "always": ("octile", "euclidean", "chebyshev", "zero"),
}
SQRT2 = math.sqrt(2.0)
OCTILE_DIAG = math.sqrt(2.0) - 1.0
#: The kernel's neighbour order: up, down, left, right, up-left, up-right, down-left,
#: down-right.
OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
RTOL = 1e-9


# --------------------------------------------------------------------------- helpers


@dataclass
class Case:
    """A random grid, its move rule and a start and goal on free cells."""

    cost: np.ndarray
    rule: str
    start: tuple[int, int]
    goal: tuple[int, int]
    seed: int

    def free_cells(self) -> np.ndarray:
        return np.argwhere(np.isfinite(self.cost))

    def pick(self, k: int, salt: int = 0) -> list[tuple[int, int]]:
        """``k`` free cells (repeats allowed), reproducible from the case's seed."""
        rng = np.random.default_rng([self.seed, salt])
        free = self.free_cells()
        return [tuple(int(x) for x in free[i]) for i in rng.integers(len(free), size=k)]


def make_cost(rng: np.random.Generator, shape: tuple[int, int], kind: str, walls: float):
    if kind == "unit":
        cost = np.ones(shape)
    elif kind == "integer":
        cost = rng.integers(1, 10, size=shape).astype(np.float64)
    elif kind == "uniform":
        cost = rng.uniform(0.05, 5.0, size=shape)
    else:  # "cheap": mostly 1, with reward cells far below 1
        cost = np.ones(shape)
        cheap = rng.random(shape) < 0.3
        cost[cheap] = rng.uniform(0.01, 0.5, size=int(cheap.sum()))
    cost[rng.random(shape) < walls] = np.inf
    return cost


@st.composite
def cases(draw: Any, max_side: int = 40, rules: tuple[str, ...] = RULES) -> Case:
    """Mostly small grids (up to 12x12), one in eight up to ``max_side``."""
    side = max_side if draw(st.integers(0, 7)) == 0 else min(12, max_side)
    rows = draw(st.integers(1, side), label="rows")
    cols = draw(st.integers(1, side), label="cols")
    rule = draw(st.sampled_from(rules), label="rule")
    kind = draw(st.sampled_from(("unit", "integer", "uniform", "cheap")), label="costs")
    walls = draw(st.sampled_from((0.0, 0.15, 0.3, 0.45)), label="walls")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    cost = make_cost(rng, (rows, cols), kind, walls)
    free = np.argwhere(np.isfinite(cost))
    if len(free) == 0:
        cost[0, 0] = 1.0
        free = np.argwhere(np.isfinite(cost))
    start, goal = (tuple(int(x) for x in free[i]) for i in rng.integers(len(free), size=2))
    return Case(cost, rule, start, goal, seed)


def oracle_graph(cost: np.ndarray, rule: str) -> csr_matrix:
    """The grid as a directed sparse graph: an edge a -> b costs ``cost[b]`` times the
    step length, for every move ``rule`` allows."""
    rows, cols = cost.shape
    free = np.isfinite(cost)
    index = np.arange(rows * cols).reshape(rows, cols)
    src, dst, weights = [], [], []
    for k, (dr, dc) in enumerate(OFFSETS):
        diagonal = k >= 4
        if diagonal and rule == "never":
            break
        # a = (r, c) over a_rows x a_cols; b = (r + dr, c + dc) over b_rows x b_cols.
        a_rows = slice(max(0, -dr), rows - max(0, dr))
        a_cols = slice(max(0, -dc), cols - max(0, dc))
        b_rows = slice(max(0, dr), rows - max(0, -dr))
        b_cols = slice(max(0, dc), cols - max(0, -dc))
        ok = free[a_rows, a_cols] & free[b_rows, b_cols]
        if diagonal and rule != "always":
            side_row = free[b_rows, a_cols]  # (r + dr, c)
            side_col = free[a_rows, b_cols]  # (r, c + dc)
            if rule == "no_corner_cut":
                ok &= side_row & side_col
            else:  # one_free
                ok &= side_row | side_col
        src.append(index[a_rows, a_cols][ok])
        dst.append(index[b_rows, b_cols][ok])
        weights.append(cost[b_rows, b_cols][ok] * (SQRT2 if diagonal else 1.0))
    n = rows * cols
    return csr_matrix(
        (np.concatenate(weights), (np.concatenate(src), np.concatenate(dst))), shape=(n, n)
    )


def oracle(cost: np.ndarray, rule: str, sources: list[tuple[int, int]]) -> np.ndarray:
    """The cost from the nearest of ``sources`` to every cell, shaped like ``cost``."""
    flat = [r * cost.shape[1] + c for r, c in sources]
    dist = csgraph_dijkstra(oracle_graph(cost, rule), directed=True, indices=flat, min_only=True)
    return np.asarray(dist).reshape(cost.shape)


def step_allowed(cost: np.ndarray, rule: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether one move from ``a`` to ``b`` is legal (written apart from the oracle)."""
    rows, cols = cost.shape
    dr, dc = b[0] - a[0], b[1] - a[1]
    if (dr, dc) == (0, 0) or abs(dr) > 1 or abs(dc) > 1:
        return False
    if not (0 <= b[0] < rows and 0 <= b[1] < cols) or not math.isfinite(cost[b]):
        return False
    if dr == 0 or dc == 0:
        return True
    side_row = math.isfinite(cost[a[0] + dr, a[1]])
    side_col = math.isfinite(cost[a[0], a[1] + dc])
    return {
        "never": False,
        "no_corner_cut": side_row and side_col,
        "one_free": side_row or side_col,
        "always": True,
    }[rule]


def steps_cost(cost: np.ndarray, path: np.ndarray) -> float:
    """The sum of the step costs along ``path``, from start to end."""
    total = 0.0
    for (r0, c0), (r1, c1) in zip(path[:-1].tolist(), path[1:].tolist(), strict=True):
        diagonal = r0 != r1 and c0 != c1
        total += cost[r1, c1] * (SQRT2 if diagonal else 1.0)
    return total


def assert_legal(cost: np.ndarray, rule: str, path: np.ndarray, start: Any, goal: Any) -> None:
    """``path`` is an (n, 2) int array from a start to a goal through legal moves."""
    assert isinstance(path, np.ndarray)
    assert np.issubdtype(path.dtype, np.integer), path.dtype
    assert path.ndim == 2 and path.shape[1] == 2 and path.shape[0] >= 1, path.shape
    cells = [tuple(p) for p in path.tolist()]
    starts = {tuple(start)} if np.ndim(start) == 1 else {tuple(s) for s in start}
    goals = {tuple(goal)} if np.ndim(goal) == 1 else {tuple(g) for g in goal}
    assert cells[0] in starts, (cells[0], starts)
    assert cells[-1] in goals, (cells[-1], goals)
    assert math.isfinite(cost[cells[0]])
    for a, b in itertools.pairwise(cells):
        assert step_allowed(cost, rule, a, b), f"illegal move {a} -> {b} under {rule!r}"


def assert_answer(cost: np.ndarray, rule: str, result: Any, start: Any, goal: Any, want: float):
    """``result`` reaches ``goal`` at cost ``want`` by a legal path, or says unreachable."""
    if math.isinf(want):
        assert not result
        assert result.found is False
        assert result.reason == "unreachable"
        assert result.path.shape == (0, 2)
        assert np.issubdtype(result.path.dtype, np.integer)
        assert result.cost == math.inf
        return
    assert result, result
    assert result.found is True and result.reason is None
    assert_legal(cost, rule, result.path, start, goal)
    assert result.cost == pytest.approx(want, rel=RTOL, abs=0.0)
    assert result.cost == pytest.approx(steps_cost(cost, result.path), rel=1e-12, abs=0.0)


def h_value(rule: str, kind: str, scale: float, cell: Any, goal: Any) -> float:
    """A grid heuristic in the kernel's floating-point order."""
    dr = abs(float(cell[0] - goal[0]))
    dc = abs(float(cell[1] - goal[1]))
    lo, hi = (dr, dc) if dr < dc else (dc, dr)
    if kind == "zero":
        return 0.0
    if kind == "octile":
        return (hi + OCTILE_DIAG * lo) * scale
    if kind == "manhattan":
        return (hi + lo) * scale
    if kind == "euclidean":
        return math.sqrt(dr * dr + dc * dc) * scale
    return hi * scale  # chebyshev


def neighbours(cost: np.ndarray, rule: str):
    """The grid as a generic-search neighbours function, in the kernel's order."""
    rows, cols = cost.shape
    free = np.isfinite(cost)

    def nbrs(cell: tuple[int, int]):
        r, c = cell
        for k, (dr, dc) in enumerate(OFFSETS):
            if k >= 4 and rule == "never":
                return
            rr, cc = r + dr, c + dc
            if not (0 <= rr < rows and 0 <= cc < cols) or not free[rr, cc]:
                continue
            if k >= 4 and rule != "always":
                side_row, side_col = free[rr, c], free[r, cc]
                if rule == "no_corner_cut" and not (side_row and side_col):
                    continue
                if rule == "one_free" and not (side_row or side_col):
                    continue
            yield (rr, cc), float(cost[rr, cc]) * (SQRT2 if k >= 4 else 1.0)

    return nbrs


def as_cells(path: np.ndarray) -> list[tuple[int, int]]:
    return [tuple(p) for p in path.tolist()]


def assert_same_run(got: Any, want: Any) -> None:
    """A grid result and a generic-search result describe the same run."""
    assert as_cells(got.path) == list(want.path)
    assert got.expanded == want.expanded
    assert got.generated == want.generated
    assert got.cost == want.cost
    assert got.found == want.found
    assert got.reason == want.reason
    if want.explored is not None:
        assert as_cells(got.explored.nodes) == list(want.explored.nodes)
        assert list(got.explored.g) == list(want.explored.g)


def _sg(case: Case) -> tuple[tuple[int, int], tuple[int, int]]:
    return case.start, case.goal


def default_heuristic(rule: str) -> str:
    return "manhattan" if rule == "never" else "octile"


def uses_buckets(
    grid: Any, method: str, tie_break: str = "g", weight: float = 1.0, kind: str | None = None
) -> bool:
    """Whether the kernel runs this query on its bucket open list: a 4-connected grid
    of uniform cost, A* of weight 1 with an integer heuristic (``kind``, default the
    grid's) or Dijkstra, ties by g."""
    kind = kind or grid.heuristic
    return (
        grid.diagonal == "never"
        and grid.uniform_cost is not None
        and tie_break == "g"
        and (method == "dijkstra" or (method == "astar" and weight == 1.0))
        and (method == "dijkstra" or kind in ("manhattan", "chebyshev", "zero"))
    )


def bucket_reference(
    cost: np.ndarray,
    start: tuple[int, int],
    goal: tuple[int, int] | set[tuple[int, int]],
    kind: str,
    scale: float,
    *,
    max_expansions: int | None = None,
    max_cost: float | None = None,
    partial: bool = False,
    record: bool = False,
) -> Any:
    """The bucket search of a uniform-cost 4-connected grid, written out in Python
    (Dial's buckets by f in steps; the last cell pushed of the lowest f first; a cell
    expanded once; the kernel's order of neighbours): what the kernel must do, step
    for step. ``kind`` is the heuristic (zero, manhattan or chebyshev); ``goal`` a
    cell, or a set of cells with the zero heuristic."""
    from types import SimpleNamespace

    rows, cols = cost.shape
    limit = math.inf if max_cost is None else max_cost

    goals = goal if isinstance(goal, set) else {goal}

    def steps(cell: tuple[int, int]) -> int:
        if kind == "zero":
            return 0
        assert not isinstance(goal, set), "a heuristic needs one goal"
        dr, dc = abs(cell[0] - goal[0]), abs(cell[1] - goal[1])
        return dr + dc if kind == "manhattan" else max(dr, dc)

    g: dict[tuple[int, int], float] = {start: 0.0}
    parent: dict[tuple[int, int], Any] = {start: None}
    closed: set[tuple[int, int]] = set()
    level = steps(start)
    buckets: dict[int, list[tuple[int, int]]] = {level: [start]}
    expanded, generated, pruned = 0, 1, False
    best, best_h = None, math.inf
    explored: list[tuple[int, int]] = []
    explored_g: list[float] = []
    reason: str | None = "unreachable"
    reached = None
    while True:
        while buckets.get(level) and buckets[level][-1] in closed:
            buckets[level].pop()
        if not buckets.get(level):
            if not any(buckets.values()):
                reason = "max_cost" if pruned else "unreachable"
                break
            level += 1
            continue
        if expanded == max_expansions:
            reason = "max_expansions"
            break
        u = buckets[level].pop()
        closed.add(u)
        expanded += 1
        if record:
            explored.append(u)
            explored_g.append(g[u])
        if u in goals:
            reason, reached = None, u
            break
        hu = steps(u)
        if partial and hu * scale < best_h:
            best, best_h = u, hu * scale
        for dr, dc in OFFSETS[:4]:
            v = (u[0] + dr, u[1] + dc)
            if not (0 <= v[0] < rows and 0 <= v[1] < cols) or not math.isfinite(cost[v]):
                continue
            d = g[u] + float(cost[v])
            if v in g and d >= g[v] * (1.0 - 1e-12):
                continue
            if d > limit:
                pruned = True
                continue
            g[v], parent[v] = d, u
            buckets.setdefault(level - hu + 1 + steps(v), []).append(v)
            generated += 1
    end = reached if reached is not None else (best or start) if partial else None
    path: list[tuple[int, int]] = []
    while end is not None:
        path.append(end)
        end = parent[end]
    path.reverse()
    total = steps_cost(cost, np.array(path, dtype=np.intp).reshape(-1, 2)) if path else math.inf
    return SimpleNamespace(
        path=path, expanded=expanded, generated=generated, cost=total,
        found=reached is not None, reason=reason,
        explored=SimpleNamespace(nodes=explored, g=explored_g) if record else None,
    )
