"""How :class:`~pathcraft.layered.Level` runs the compiled layered kernel
(:mod:`pathcraft._core.layered`): checked ``(floor, row, col)`` cells as padded flat
indices, checked options as kernel settings, the answer as a
:class:`~pathcraft.result.PathResult`, and the batches through
:func:`pathcraft._batch.query_batch`.

Why a kernel of its own rather than the graph kernel on an explicit CSR of every move:
the floors stay flat cost arrays (no per-cell edge lists: a 4 x 256 x 256 level would be
two million edges), the in-floor moves are the grid's constant offsets with its corner
rules, only the few portal edges live in a CSR table, and the portal-aware heuristic
(see :mod:`pathcraft._core.layered`) needs the cells' floors and coordinates, which the
graph kernel does not have.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchDoor
from pathcraft._core import layered as _kernel
from pathcraft._kernels import thread_workspace
from pathcraft._options import SearchOptions
from pathcraft._sliced import CompiledSearch
from pathcraft.result import PathResult, build_result

#: A cell of a level: ``(floor, row, col)``.
Cell = tuple[int, int, int]


@dataclass(frozen=True)
class Compiled:
    """A level's compiled form: the stacked padded costs, the kernel's tables and what
    the heuristic needs."""

    padded: npt.NDArray[np.float64]
    tables: Any
    shape: tuple[int, int, int]
    min_cost: float

    def flat(self, cell: Cell) -> int:
        f, r, c = cell
        rows, cols = self.shape[1], self.shape[2]
        return (f * (rows + 1) + 1 + r) * (cols + 2) + c + 1


def compile_level(
    cost: npt.NDArray[np.float64],
    diagonal: str,
    edges: Sequence[tuple[Cell, Cell, float]],
    min_cost: float,
) -> Compiled:
    """Stack the ``(floors, rows, cols)`` costs with wall rows between floors and build
    the portal CSR over the padded cells from the directed ``edges``."""
    floors, rows, cols = cost.shape
    padded = np.full((floors * (rows + 1) + 1, cols + 2), np.inf)
    for f in range(floors):
        top = f * (rows + 1) + 1
        padded[top : top + rows, 1:-1] = cost[f]
    world = Compiled(padded, None, (floors, rows, cols), min_cost)
    src = np.array([world.flat(a) for a, _, _ in edges], dtype=np.intp)
    dst = np.array([world.flat(b) for _, b, _ in edges], dtype=np.intp)
    weights = np.array([w for _, _, w in edges], dtype=np.float64)
    order = np.argsort(src, kind="stable")
    src, dst, weights = src[order], dst[order], weights[order]
    indptr = np.zeros(padded.size + 1, dtype=np.int64)
    np.add.at(indptr, src + 1, 1)
    np.cumsum(indptr, out=indptr)
    tables = _kernel.Tables(padded, floors, _kernel.DIAGONALS[diagonal], indptr, dst, weights)
    return Compiled(padded, tables, (floors, rows, cols), min_cost)


def check_cell(shape: tuple[int, int, int], name: str, cell: Any) -> Cell:
    """``cell`` as a checked ``(floor, row, col)`` of integers inside the level."""
    try:
        f, r, c = cell
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a (floor, row, col) cell; got {cell!r}") from exc
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (f, r, c)):
        raise TypeError(f"{name} must be a (floor, row, col) cell of integers; got {cell!r}")
    f, r, c = int(f), int(r), int(c)
    floors, rows, cols = shape
    if not 0 <= f < floors:
        raise IndexError(
            f"{name} {(f, r, c)}: floor {f} does not exist; the level has floors 0 to {floors - 1}"
        )
    if not (0 <= r < rows and 0 <= c < cols):
        raise IndexError(f"{name} {(f, r, c)} is outside the {rows} x {cols} floor")
    return f, r, c


def walkable_cell(cost: npt.NDArray[np.float64], name: str, cell: Any) -> Cell:
    """A checked cell that is not a wall."""
    f, r, c = check_cell(cost.shape, name, cell)
    if math.isinf(cost[f, r, c]):
        raise ValueError(f"{name} {(f, r, c)} is a wall")
    return f, r, c


def flat_cells(
    world: Compiled, cost: npt.NDArray[np.float64], name: str, cells: Any
) -> npt.NDArray[np.intp]:
    """Padded flat indices of one ``(floor, row, col)`` cell or a ``(k, 3)`` array."""
    arr = np.asarray(cells)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(
            f"{name} must be a (floor, row, col) cell or a (k, 3) array; got {cells!r}"
        )
    out = [
        world.flat(walkable_cell(cost, f"{name}[{i}]", tuple(v)))
        for i, v in enumerate(arr.tolist())
    ]
    return np.array(out, dtype=np.intp)


def search_settings(world: Compiled, opts: SearchOptions) -> dict[str, Any]:
    """Checked options as the layered kernel's keyword arguments."""
    zero = opts.algorithm == "dijkstra" or opts.heuristic == "zero"
    return {
        "hkind": _kernel.HEURISTICS["zero" if zero else "portal"],
        "hscale": world.min_cost,
        **opts.kernel_settings(),
    }


def workspace(cells: int) -> Any:
    """This thread's layered workspace, grown to hold at least ``cells`` cells."""
    return thread_workspace(_kernel.Workspace, cells)


def to_result(answer: tuple[Any, ...], t0: float) -> PathResult:
    """The kernel's answer as a :class:`PathResult` whose path is an ``(n, 3)`` array
    of ``(floor, row, col)`` cells."""
    status, path, cost, expanded, generated, rec_cells, rec_g = answer
    explored = None if rec_cells is None else (rec_cells, rec_g)
    return build_result(
        status, path, cost, expanded=expanded, generated=generated, t0=t0,
        explored=explored,
    )  # fmt: skip


def find_path(
    world: Compiled, cost: npt.NDArray[np.float64], start: Any, goal: Any, algorithm: Any,
    options: Any,
) -> PathResult:  # fmt: skip
    """One search from ``start`` to ``goal`` (``(floor, row, col)`` cells)."""
    t0 = time.perf_counter()
    opts = SearchOptions.check("Level", algorithm, **options)
    s = world.flat(walkable_cell(cost, "start", start))
    g = world.flat(walkable_cell(cost, "goal", goal))
    answer = _kernel.search(
        world.tables, workspace(world.padded.size), np.array([s], dtype=np.intp), g,
        **search_settings(world, opts),
    )  # fmt: skip
    return to_result(answer, t0)


def start_search(
    world: Compiled, cost: npt.NDArray[np.float64], start: Any, goal: Any, algorithm: Any,
    options: Any,
) -> CompiledSearch:  # fmt: skip
    """A steppable compiled search from ``start`` to ``goal``."""
    opts = SearchOptions.check("Level", algorithm, **options)
    sources = np.array([world.flat(walkable_cell(cost, "start", start))], dtype=np.intp)
    g = world.flat(walkable_cell(cost, "goal", goal))
    settings = search_settings(world, opts)
    tables = world.tables
    return CompiledSearch(
        lambda ws: _kernel.LayeredSearch(tables, ws, sources, g, **settings),
        to_result, _kernel.Workspace, world.padded.size,
    )  # fmt: skip


def distance_field(
    world: Compiled, cost: npt.NDArray[np.float64], sources: Any, max_cost: Any
) -> npt.NDArray[np.float64]:
    """Dijkstra from every source at once: each cell's cost, ``inf`` if unreachable."""
    opts = SearchOptions.check("Level", "dijkstra", max_cost=max_cost)
    flat = flat_cells(world, cost, "sources", sources)
    out = np.empty(world.shape, dtype=np.float64)
    _kernel.field(
        world.tables, workspace(world.padded.size), flat, out,
        math.inf if opts.max_cost is None else opts.max_cost,
    )  # fmt: skip
    return out


# --------------------------------------------------------------------------- batches
# The batch "world" is the pair (compiled, cost): what the chunk solvers need.


def pairs(world: Any, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
    """The checked ``(start, goal)`` flat cells of a batch."""
    compiled, cost = world
    s = flat_cells(compiled, cost, "starts", starts)
    g = flat_cells(compiled, cost, "goals", goals)
    if s.shape != g.shape:
        raise ValueError(f"starts has {s.shape[0]} cells and goals {g.shape[0]}")
    return [(int(a), int(b)) for a, b in zip(s.tolist(), g.tolist(), strict=True)]


def solve_paths(
    world: Any, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> list[PathResult]:
    """One result per task (what ``find_path`` answers)."""
    compiled = world[0]
    settings = search_settings(compiled, opts)
    ws = workspace(compiled.padded.size)
    out = []
    for s, g in tasks:
        t0 = time.perf_counter()
        answer = _kernel.search(compiled.tables, ws, np.array([s], dtype=np.intp), g, **settings)
        out.append(to_result(answer, t0))
    return out


def solve_costs(
    world: Any, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> npt.NDArray[np.float64]:
    """The path cost of each task, ``inf`` where none was found."""
    compiled = world[0]
    starts = np.array([s for s, _ in tasks], dtype=np.intp)
    goals = np.array([g for _, g in tasks], dtype=np.intp)
    costs = np.empty(len(tasks), dtype=np.float64)
    _kernel.search_costs(
        compiled.tables, workspace(compiled.padded.size), starts, goals, costs,
        **search_settings(compiled, opts),
    )  # fmt: skip
    return costs


LEVEL_DOOR = BatchDoor("Level", pairs, solve_paths, solve_costs)
