"""The one glue between a compiled world and its kernel, written once.

A compiled world keeps its places in a compiled form, an *adapter*: places in (a
checked place as the kernel's flat index, errors naming the argument), places out
(the kernel's answer in the world's terms), the kernel's settings for checked
options, and the kernel's entry points (:class:`Kernel`). Everything else a query
needs is here, once: :func:`find_path` (several sources and goals for Dijkstra, and
``goal=None``), :func:`start_search`, :func:`distance_field` (``parents=``), and the
batches (:func:`batch`, empty batches included).

Every cell world (:class:`~pathcraft.Grid`, :class:`~pathcraft.hexgrid.HexGrid`,
:class:`~pathcraft.hexgrid.MovesGrid`, :class:`~pathcraft.voxel.VoxelGrid`,
:class:`~pathcraft.layered.Level`) brings a :class:`CellAdapter` and uses all of it;
:class:`~pathcraft.graph.Graph` brings a :class:`QueryAdapter` (labels in and out) for
its single queries and its batches. Their public methods are one call into this
module. An adapter runs a query through its :meth:`~QueryAdapter.solver`: the
kernel's entry points for the skeleton's searches (:func:`kernel_solver`), or what
the world's table of further algorithms and its quick plans give (the grid's:
:mod:`pathcraft.grid._run`); a world whose options choose another world to search
(``Grid``'s ``size=``: the unit's view) says so in :meth:`~QueryAdapter.runs_on`.
A world with a lean way for plain queries (the grid's prepared plans) takes it in
its own method before calling here.

Adding a cell world: a compiled form with the :class:`CellAdapter` members
(:class:`PaddedCells` gives most) and a kernel following the skeleton's entry points
(``search``, ``search_costs``, ``field``, a step machine, a ``Workspace``); see
``docs/contributing-worlds.md``.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from pathcraft._batch import BatchDoor, query_batch
from pathcraft._fields import settled
from pathcraft._kernels import UNREACHABLE, thread_workspace
from pathcraft._options import SearchOptions, UnsupportedOptionError, check_flag
from pathcraft._sliced import CompiledSearch
from pathcraft.result import Answer, PathResult

if TYPE_CHECKING:
    from pathcraft._reach import Reachability

__all__ = [
    "CellAdapter",
    "Kernel",
    "PaddedCells",
    "QueryAdapter",
    "Solver",
    "check_place",
    "distance_field",
    "door",
    "find_path",
    "kernel_solver",
    "labelled_places",
    "places_by_one",
    "query",
    "reachable",
    "start_search",
    "stepped",
    "to_result",
]

Flat = npt.NDArray[np.intp]


class Kernel(NamedTuple):
    """A cell kernel's entry points (the skeleton's, ``_core/machine.pxd``).

    Attributes
    ----------
    workspace : type
        The kernel's ``Workspace`` class (``Workspace(capacity)``).
    search : callable
        ``search(data, ws, sources, goal, [goal_set,] **settings)``: the answer tuple.
    search_costs : callable or None
        ``search_costs(data, ws, starts, goals, costs, **settings)``: fills ``costs``
        (None: a kernel without one, whose batches of costs run ``search``).
    field : callable
        ``field(data, ws, sources, out, *args, **kwargs)``: a distance field.
    machine : type
        The step machine, built with ``search``'s arguments.
    goal_sets : bool
        Whether ``search`` and ``machine`` take a goal set after the goal.
    """

    workspace: Any
    search: Callable[..., tuple[Any, ...]]
    search_costs: Callable[..., Any] | None
    field: Callable[..., Any]
    machine: Any
    goal_sets: bool = True

    @classmethod
    def of(cls, module: Any, machine: Any, *, goal_sets: bool = True) -> Kernel:
        """The entry points of a kernel module that names them as the skeleton does
        (``Workspace``, ``search``, ``search_costs``, ``field``), and its machine."""
        return cls(
            module.Workspace, module.search, module.search_costs, module.field, machine,
            goal_sets,
        )  # fmt: skip


class Solver(NamedTuple):
    """How queries with one set of checked options run: what an adapter's
    :meth:`~QueryAdapter.solver` gives (:func:`kernel_solver` for the skeleton's
    entry points).

    Attributes
    ----------
    find : callable
        ``find(sources, goal, goal_set, t0)``: one search between checked flat places
        (``goal_set`` None: the one ``goal``), as a result.
    pair : callable
        ``pair(start, goal, t0)``: one search between two flat places (a batch's).
    machine : callable
        ``machine(ws, sources, goal, goal_set)``: its step machine.
    finish : callable
        ``finish(answer, t0)``: the machine's answer as a result.
    costs : callable or None
        ``costs(starts, goals, out)``: fills ``out`` with the costs of many searches
        (None: a kernel without a costs loop; batches of costs run ``pair``).
    goal_sets : bool
        Whether ``find`` and ``machine`` take a goal set.
    """

    find: Callable[[Flat, int, Flat | None, float], PathResult]
    pair: Callable[[int, int, float], PathResult]
    machine: Callable[[Any, Flat, int, Flat | None], Any]
    finish: Callable[[Any, float], PathResult]
    costs: Callable[[Flat, Flat, npt.NDArray[np.float64]], None] | None
    goal_sets: bool


def kernel_solver(adapter: QueryAdapter, opts: SearchOptions, data: Any = None) -> Solver:
    """The :class:`Solver` of a kernel of the skeleton's entry points
    (``adapter.kernel``), with ``adapter.settings(opts)`` (which may refuse them);
    ``data``: the kernel's first argument for its costs loop."""
    settings = adapter.settings(opts)
    kernel, size, args, result = adapter.kernel, adapter.size, adapter.args, adapter.result

    def find(sources: Flat, goal: int, goal_set: Flat | None, t0: float) -> PathResult:
        ws = thread_workspace(kernel.workspace, size)
        return result(kernel.search(*args(ws, sources, goal, goal_set), **settings), t0)

    def pair(start: int, goal: int, t0: float) -> PathResult:
        return find(np.array([start], dtype=np.intp), goal, None, t0)

    def machine(ws: Any, sources: Flat, goal: int, goal_set: Flat | None) -> Any:
        return kernel.machine(*args(ws, sources, goal, goal_set), **settings)

    search_costs = kernel.search_costs
    costs = None
    if search_costs is not None:

        def costs(starts: Flat, goals: Flat, out: npt.NDArray[np.float64]) -> None:
            ws = thread_workspace(kernel.workspace, size)
            search_costs(data, ws, starts, goals, out, **settings)

    return Solver(find, pair, machine, result, costs, kernel.goal_sets)


class PaddedCells:
    """The adapter members of a compiled form that is one padded cost array
    (``padded``): the kernel's data, its size in flat places, its arguments, and
    answers and goal-less Dijkstra over cells (the kernel writes cells already)."""

    __slots__ = ()
    padded: npt.NDArray[np.float64]
    kernel: ClassVar[Kernel]

    @property
    def data(self) -> Any:
        return self.padded

    @property
    def size(self) -> int:
        return int(self.padded.size)

    def args(self, ws: Any, sources: Flat, goal: int, goal_set: Flat | None) -> tuple[Any, ...]:
        if self.kernel.goal_sets:
            return self.data, ws, sources, goal, goal_set
        return self.data, ws, sources, goal

    def result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        return to_result(answer, t0)

    def settle(self, start: Any, opts: SearchOptions, t0: float) -> PathResult:
        return _settle(self, start, opts, t0)  # type: ignore[arg-type]

    def runs_on(self, opts: SearchOptions) -> Any:
        return self

    def pairs(self, starts: Any, goals: Any, opts: SearchOptions) -> list[tuple[int, int]]:
        return cell_pairs(self, starts, goals)  # type: ignore[arg-type]

    def solver(self, opts: SearchOptions) -> Solver:
        return kernel_solver(self, opts, self.data)  # type: ignore[arg-type]

    def field(
        self, flat: Flat, max_cost: float, tree: bool
    ) -> tuple[npt.NDArray[np.float64], Flat | None]:
        """The field kernel's costs and (with ``tree``) padded flat parents, from its
        arguments (``field_args``)."""
        shape: tuple[int, ...] = self.shape  # type: ignore[attr-defined]
        costs = np.empty(shape, dtype=np.float64)
        parents = np.empty(shape, dtype=np.intp) if tree else None
        args, kwargs = self.field_args(max_cost)  # type: ignore[attr-defined]
        if parents is not None:
            kwargs = {**kwargs, "out_parents": parents}
        kernel = self.kernel
        kernel.field(
            self.data, thread_workspace(kernel.workspace, self.size), flat, costs, *args,
            **kwargs,
        )  # fmt: skip
        return costs, parents

    #: The options a goal-less Dijkstra takes (``find_path(start, None)``).
    settle_options: ClassVar[tuple[str, ...]] = ("max_cost",)


class QueryAdapter(Protocol):
    """What a compiled world brings to the glue of its single queries
    (:func:`find_path`, :func:`start_search`)."""

    @property
    def name(self) -> str:
        """The world's name in :data:`pathcraft._options.SUPPORT` and in messages."""

    @property
    def kernel(self) -> Kernel:
        """The kernel's entry points."""

    @property
    def noun(self) -> str:
        """Its places in messages, plural (``"cells"``, ``"voxels"``)."""

    @property
    def size(self) -> int:
        """The workspace size: the kernel's number of flat places."""

    def place(self, name: str, value: Any) -> int:
        """The flat index of one checked, walkable place (errors name ``name``)."""

    def places(self, name: str, value: Any) -> Flat:
        """Flat indices of one place or a ``(k, d)`` array of them (``k`` may be 0)."""

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        """The kernel's search settings for checked options (it may refuse them)."""

    def args(self, ws: Any, sources: Flat, goal: int, goal_set: Flat | None) -> tuple[Any, ...]:
        """The positional arguments of the kernel's ``search`` and step machine."""

    def result(self, answer: tuple[Any, ...], t0: float) -> PathResult:
        """The kernel's answer as a result, its places in the world's terms."""

    def settle(self, start: Any, opts: SearchOptions, t0: float) -> PathResult:
        """A goal-less Dijkstra from ``start`` (``find_path(start, None, ...)``)."""

    def runs_on(self, opts: SearchOptions) -> Any:
        """The adapter a query with checked options runs on (itself, or another world
        those options choose: the grid's unit view for ``size=``)."""

    def solver(self, opts: SearchOptions) -> Solver:
        """How queries with checked options run (:func:`kernel_solver`, or the
        world's own table); it may refuse them (a ValueError naming why)."""

    def pairs(self, starts: Any, goals: Any, opts: SearchOptions) -> list[Any]:
        """A batch's checked ``(start, goal)`` pairs of flat places (errors name
        ``starts[i]``), what :attr:`Solver.pair` takes; none for empty arrays."""


class CellAdapter(QueryAdapter, Protocol):
    """What a compiled cell world brings to the glue (its compiled form): the
    single queries', and its distance fields and batches."""

    @property
    def data(self) -> Any:
        """The kernel's first argument (the padded costs, the tables)."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of a distance field."""

    @property
    def settle_options(self) -> tuple[str, ...]:
        """The options a goal-less Dijkstra takes."""

    def field(
        self, flat: Flat, max_cost: float, tree: bool
    ) -> tuple[npt.NDArray[np.float64], Flat | None]:
        """A distance field from checked flat sources within ``max_cost``, and with
        ``tree`` each place's padded flat parent (-1: none); :class:`PaddedCells`
        runs the field kernel with its ``field_args``."""

    def unflat(self, flat: Flat) -> Flat:
        """The places of flat indices, an ``(n, d)`` array (the inverse of
        :meth:`place`)."""


def check_place(
    name: str,
    value: Any,
    shape: tuple[int, ...],
    axes: str,
    world: str = "grid",
    noun: str = "cell",
) -> tuple[int, ...]:
    """A place of a cell world, ``len(shape)`` integers inside ``shape``, as a tuple of
    Python ints: the one check of every cell world's places (``axes`` spells one, as
    ``"(z, row, col)"``; ``world`` and ``noun`` name the world and a place in
    messages). TypeError naming ``name`` for anything but integers (not bools);
    ValueError naming it for a place outside the world, with the swap hint where the
    last two coordinates look swapped."""
    if type(value) is tuple and len(value) == len(shape):  # the common case, at once
        for v, n in zip(value, shape, strict=True):
            if type(v) is not int or not 0 <= v < n:
                break
        else:
            return value
    dims = len(shape)
    try:
        parts = tuple(value)
    except TypeError:
        parts = ()
    if len(parts) != dims:
        raise TypeError(f"{name} must be a {axes} {noun}; got {value!r}")
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, _NOT_INTEGERS) for v in parts):
        hint = ""
        if any(isinstance(v, (float, np.floating)) for v in parts):
            hint = f" ({axes} integers, not (x, y) positions)"
        raise TypeError(f"{name} must be a {axes} {noun} of integers; got {value!r}{hint}")
    place = tuple(int(v) for v in parts)
    if all(0 <= v < n for v, n in zip(place, shape, strict=True)):
        return place
    hint = ""
    if dims >= 2:
        *lead, row, col = place
        swapped = (*lead, col, row)
        if all(0 <= v < n for v, n in zip(swapped, shape, strict=True)):
            hint = f"; {noun}s are {axes}: did you mean {swapped}?"
    ranges = ", ".join(
        f"{axis} 0 to {n - 1}" for axis, n in zip(_axis_names(axes), shape, strict=True)
    )
    raise ValueError(f"{name} {place} is outside the {world} of shape {shape}: {ranges}{hint}")


#: What NumPy counts among its integers and a place's coordinate is not.
_NOT_INTEGERS = (bool, np.bool_, np.timedelta64)


def _axis_names(axes: str) -> list[str]:
    """The axes of ``"(z, row, col)"``: ``["z", "row", "col"]``."""
    return [a.strip() for a in axes.strip("()").split(",")]


def places_by_one(adapter: CellAdapter, name: str, value: Any, dims: int, what: str) -> Flat:
    """:meth:`CellAdapter.places` by :meth:`CellAdapter.place` row by row: ``value``
    one place or a ``(k, dims)`` array (``k`` may be 0); errors name the row
    (``starts[3]``). ``what`` spells a place in messages (``"(row, col) cell"``).
    The coordinates keep their own types (an object array: NumPy would make floats of
    a uint64 beside an int64) for :meth:`CellAdapter.place` to check."""
    try:
        arr = np.array(value, dtype=object)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise TypeError(f"{name} must be a {what} or a (k, {dims}) array; got {value!r}") from exc
    if arr.size == 0 and arr.ndim <= 2:
        return np.empty(0, dtype=np.intp)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != dims:
        raise ValueError(f"{name} must be a {what} or a (k, {dims}) array; got {value!r}")
    rows = arr.tolist()
    if len(rows) == 1:
        return np.array([adapter.place(name, tuple(rows[0]))], dtype=np.intp)
    return np.array(
        [adapter.place(f"{name}[{i}]", tuple(v)) for i, v in enumerate(rows)], dtype=np.intp
    )


def labelled_places(labels: npt.NDArray[np.int32]) -> list[tuple[int, ...]]:
    """Capability ``"places"`` of a cell world: the cells its ``components()`` labels
    (walls are ``-1``), as tuples of ints in the order of the array."""
    return [tuple(cell) for cell in np.argwhere(labels >= 0).tolist()]


def to_result(answer: tuple[Any, ...], t0: float) -> PathResult:
    """A cell kernel's answer tuple as a :class:`PathResult` (the kernel writes the
    path in the world's own place shape: ``(row, col)``, ``(z, row, col)``, ...)."""
    return Answer.read(answer).result(t0)


def _ends(
    adapter: QueryAdapter, opts: SearchOptions, start: Any, goal: Any, goal_sets: bool
) -> tuple[Flat, int, Flat | None]:
    """A query's checked sources, goal and goal set (None: the one goal). Dijkstra
    takes several of either; a solver without goal sets takes one goal."""
    if opts.algorithm != "dijkstra":
        return (
            np.array([adapter.place("start", start)], dtype=np.intp),
            adapter.place("goal", goal),
            None,
        )
    sources = adapter.places("start", start)
    goals = adapter.places("goal", goal)
    for name, flat in (("start", sources), ("goal", goals)):
        if flat.size == 0:
            raise ValueError(f"{name} must hold at least one of the {adapter.noun}; got none")
    if goals.size == 1:
        return sources, int(goals[0]), None
    if not goal_sets:
        raise UnsupportedOptionError(
            f"{adapter.name}.find_path(algorithm='dijkstra') takes one goal; got "
            f"{goals.size}: search each, or use distance_field from the goal"
        )
    return sources, -1, goals


def _goal_none(adapter: QueryAdapter, method: str) -> UnsupportedOptionError:
    return UnsupportedOptionError(
        f"{adapter.name}.{method}(algorithm='dijkstra') does not take goal=None: a "
        "stepped search needs a goal; find_path(start, None, algorithm='dijkstra') or "
        "distance_field settles every cell"
    )


# --------------------------------------------------------------------------- snap=


#: What finds the nearest walkable cells: ``nearest(cells, name)`` gives them as an
#: array (``-1`` rows where there is none) and whether one cell was given.
Nearest = Callable[[Any, str], tuple[Flat, bool]]


def moved_ends(start: Any, goal: Any, nearest: Nearest) -> tuple[Any, Any]:
    """``start`` and ``goal`` (one cell or an array of them each; None kept) moved to
    their nearest walkable cells; a cell with none is kept (and refused later)."""
    ends = []
    for name, cells in (("start", start), ("goal", goal)):
        if cells is not None:
            found, one = nearest(cells, name)
            if one:
                cells = cells if found[0, 0] < 0 else tuple(found[0].tolist())
            else:
                cells = np.where(found < 0, np.asarray(cells), found)
        ends.append(cells)
    return ends[0], ends[1]


def snapped(adapter: Any, options: Any, start: Any, goal: Any) -> tuple[Any, Any, Any]:
    """``options`` without ``snap``, and with ``snap=True`` the start and goal moved
    to their nearest walkable cells (the adapter's ``nearest``). An adapter without
    ``nearest`` keeps ``snap`` in the options, for the options' check to refuse."""
    nearest = getattr(adapter, "nearest", None)
    if "snap" not in options or nearest is None:
        return options, start, goal
    rest = dict(options)
    if check_flag("snap", rest.pop("snap")):
        start, goal = moved_ends(start, goal, nearest)
    return rest, start, goal


def nearest_walkable(adapter: Any, cells: Any, max_distance: Any) -> Any:
    """``world.nearest_walkable`` (see :meth:`pathcraft.Grid.nearest_walkable`): one
    cell's as a tuple (None where there is none), several as an array (``-1`` rows)."""
    found, one = adapter.nearest(cells, "cells", max_distance)
    if not one:
        return found
    cell = tuple(int(v) for v in found[0].tolist())
    return None if cell[0] < 0 else cell


def find_path(
    adapter: QueryAdapter,
    start: Any,
    goal: Any,
    algorithm: Any,
    options: Any,
    reach: Reachability | None = None,
) -> PathResult:
    """``world.find_path``: one search from ``start`` to ``goal`` (the world's places;
    several of either for Dijkstra, and ``goal=None``; ``snap=`` where the adapter
    finds nearest walkable cells). ``reach``: the world's component labels, which
    answer a goal out of reach at once once built (see :mod:`pathcraft._reach`)."""
    t0 = time.perf_counter()
    options, start, goal = snapped(adapter, options, start, goal)
    opts = SearchOptions.check_call(adapter.name, "find_path", algorithm, options)
    return query(adapter, opts, start, goal, t0, reach)


def query(
    adapter: QueryAdapter,
    opts: SearchOptions,
    start: Any,
    goal: Any,
    t0: float,
    reach: Reachability | None = None,
) -> PathResult:
    """:func:`find_path` with options the world's method checked (``t0``: when the
    call began)."""
    adapter = adapter.runs_on(opts)
    if goal is None and opts.algorithm == "dijkstra":
        return adapter.settle(start, opts, t0)
    run = adapter.solver(opts)
    ends = _ends(adapter, opts, start, goal, run.goal_sets)
    if reach is None:
        return run.find(*ends, t0)
    answer = _apart(adapter, reach, opts, ends, t0)
    if answer is None:
        answer = run.find(*ends, t0)
        if answer.reason == "unreachable":
            reach.missed()
    return answer


def _apart(
    adapter: QueryAdapter,
    reach: Reachability,
    opts: SearchOptions,
    ends: tuple[Flat, int, Flat | None],
    t0: float,
) -> PathResult | None:
    """The answer of a query whose goal the labels put out of reach of its start
    (``"unreachable"``, nothing expanded), else None: the search decides. Not for a
    ``partial=True`` query (it explores to return the closest place), a recorded one
    (its picture shows what was explored), several starts or goals, or a world whose
    labels are not built for its current version."""
    sources, goal, goal_set = ends
    if opts.partial or opts.record or goal_set is not None or sources.size != 1:
        return None
    if not reach.apart(int(sources[0]), goal):
        return None
    return adapter.result((UNREACHABLE, reach.empty, math.inf, 0, 0, None, None), t0)


def reachable(adapter: QueryAdapter, reach: Reachability, start: Any, goal: Any) -> bool:
    """``world.reachable``: whether ``goal`` can be reached from ``start`` (both
    checked as :func:`find_path` checks them), from the world's labels."""
    s = adapter.place("start", start)
    g = adapter.place("goal", goal)
    return reach.labels().reaches(s, g)


def start_search(
    adapter: QueryAdapter,
    start: Any,
    goal: Any,
    algorithm: Any,
    options: Any,
    owner: Any = None,
    reach: Reachability | None = None,
) -> CompiledSearch:
    """``world.start_search``: the search :func:`find_path` runs, as a step machine,
    cancelled with ``WorldChangedError`` when ``owner`` (a world with a ``version``)
    is edited under it; ended before its first step when ``reach`` puts the goal out
    of reach."""
    options, start, goal = snapped(adapter, options, start, goal)
    opts = SearchOptions.check_call(adapter.name, "start_search", algorithm, options)
    return stepped(adapter, opts, start, goal, owner, reach)


def stepped(
    adapter: QueryAdapter,
    opts: SearchOptions,
    start: Any,
    goal: Any,
    owner: Any = None,
    reach: Reachability | None = None,
) -> CompiledSearch:
    """:func:`start_search` with options the world's method checked."""
    t0 = time.perf_counter()
    adapter = adapter.runs_on(opts)
    if goal is None and opts.algorithm == "dijkstra":
        raise _goal_none(adapter, "start_search")
    run = adapter.solver(opts)
    ends = _ends(adapter, opts, start, goal, run.goal_sets)
    if reach is not None:
        answer = _apart(adapter, reach, opts, ends, t0)
        if answer is not None:
            return CompiledSearch.ended(answer)
    machine = run.machine
    return CompiledSearch(
        lambda ws: machine(ws, *ends), run.finish, adapter.kernel.workspace, adapter.size, owner
    )


#: A distance field and its shortest-path tree (``distance_field(parents=True)``).
Tree = tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]


def distance_field(
    adapter: CellAdapter, sources: Any, max_cost: Any, parents: Any = False
) -> npt.NDArray[np.float64] | Tree:
    """``world.distance_field``: Dijkstra from every source at once, each place's
    cost (``inf`` for walls and places out of reach or beyond ``max_cost``); with
    ``parents``, also each place's parent on a cheapest path from the nearest source
    (its coordinates along the last axis, -1 for sources and places not reached)."""
    tree = check_flag("parents", parents)
    opts = SearchOptions.check(adapter.name, "dijkstra", max_cost=max_cost)
    costs, flat_parents = _field(adapter, adapter.places("sources", sources), opts, tree)
    if flat_parents is None:
        return costs
    out = np.full((*flat_parents.shape, len(adapter.shape)), -1, dtype=np.intp)
    has = flat_parents >= 0
    out[has] = adapter.unflat(flat_parents[has])
    return costs, out


def _field(
    adapter: CellAdapter, flat: Flat, opts: SearchOptions, tree: bool
) -> tuple[npt.NDArray[np.float64], Flat | None]:
    """The field's costs and (with ``tree``) padded flat parents."""
    if flat.size == 0:
        raise ValueError(f"sources must hold at least one of the {adapter.noun}; got none")
    return adapter.field(flat, math.inf if opts.max_cost is None else opts.max_cost, tree)


def _settle(adapter: CellAdapter, start: Any, opts: SearchOptions, t0: float) -> PathResult:
    """A goal-less Dijkstra: every reachable place's cost and the tree, as mappings
    (``distances``, ``path_to``) keyed by the world's place tuples."""
    opts.refuse_beyond(adapter.settle_options, "goal=None")
    costs, padded_parents = _field(adapter, adapter.places("start", start), opts, True)
    assert padded_parents is not None
    shape = adapter.shape
    parents = np.full(costs.size, -1, dtype=np.int64)
    flat = padded_parents.ravel()
    has = flat >= 0
    parents[has] = np.ravel_multi_index(tuple(adapter.unflat(flat[has]).T), shape)

    def index(place: Any) -> int | None:
        if not (isinstance(place, tuple) and len(place) == len(shape)):
            return None
        inside = zip(place, shape, strict=True)
        if not all(isinstance(v, int | np.integer) and 0 <= v < n for v, n in inside):
            return None
        return int(np.ravel_multi_index(place, shape))

    def key(i: int) -> tuple[int, ...]:
        return tuple(int(v) for v in np.unravel_index(i, shape))

    empty = np.empty((0, len(shape)), dtype=np.intp)
    return settled(costs.ravel(), parents, index, key, empty, t0)


# --------------------------------------------------------------------------- batches


def pairs(adapter: CellAdapter, starts: Any, goals: Any, opts: SearchOptions) -> list[Any]:
    """The checked ``(start, goal)`` flat places of a batch (none for empty arrays),
    on the adapter the options run on (its own ``pairs``)."""
    run: Any = adapter.runs_on(opts)
    return run.pairs(starts, goals, opts)  # type: ignore[no-any-return]


def cell_pairs(adapter: CellAdapter, starts: Any, goals: Any) -> list[tuple[int, int]]:
    """:meth:`CellAdapter.pairs` by :meth:`CellAdapter.places`."""
    s = adapter.places("starts", starts)
    g = adapter.places("goals", goals)
    if s.shape != g.shape:
        raise ValueError(f"starts has {s.shape[0]} {adapter.noun} and goals {g.shape[0]}")
    return list(zip(s.tolist(), g.tolist(), strict=True))


def solve_paths(
    adapter: CellAdapter, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> list[PathResult]:
    """One result per task (what ``find_path`` answers)."""
    pair = adapter.runs_on(opts).solver(opts).pair
    clock = time.perf_counter
    return [pair(s, g, clock()) for s, g in tasks]


def solve_costs(
    adapter: CellAdapter, tasks: Sequence[tuple[int, int]], opts: SearchOptions
) -> npt.NDArray[np.float64]:
    """The path cost of each task, ``inf`` where none was found (one compiled loop
    where the solver has one)."""
    run = adapter.runs_on(opts).solver(opts)
    if run.costs is None:
        found = [run.pair(s, g, 0.0) for s, g in tasks]
        return np.array([r.cost if r.found else np.inf for r in found], dtype=np.float64)
    both = np.array(tasks, dtype=np.intp).reshape(-1, 2)
    costs = np.empty(len(tasks), dtype=np.float64)
    run.costs(np.ascontiguousarray(both[:, 0]), np.ascontiguousarray(both[:, 1]), costs)
    return costs


def door(name: str) -> BatchDoor:
    """What a world named ``name`` brings to :func:`pathcraft._batch.query_batch`."""
    return BatchDoor(name, pairs, solve_paths, solve_costs)


def batch(
    adapter: QueryAdapter, method: str, starts: Any, goals: Any, algorithm: Any, options: Any
) -> Any:
    """``world.find_paths`` / ``world.path_costs`` (``method``) through the one batch
    front door."""
    options, starts, goals = snapped(adapter, options, starts, goals)
    return query_batch(door(adapter.name), adapter, method, starts, goals, algorithm, options)
