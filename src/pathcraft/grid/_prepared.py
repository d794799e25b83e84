"""Everything a grid's searches derive from its cells, for one version of the cells.

A :class:`~pathcraft.grid.Grid` keeps one :class:`Prepared` object and asks for it
through one accessor (``Grid._derived``), which compares the object's
:attr:`Prepared.version` with the grid's :attr:`~pathcraft.grid.Grid.version` and
renews it when an edit moved the version: nothing is ever dropped by hand. Each item
is built on first use, for the cells of that version:

- the cost range and the heuristic's scale (the smallest cost, the one cost of a
  uniform grid);
- jump point search's packed lines (:mod:`pathcraft.grid._packed`) and the offline
  JPS+ table (:func:`pathcraft._core.jpsplus.build_table`, built only when asked);
- the subgoal graph (:class:`pathcraft.grid._subgoal.SubgoalGraph`) of
  ``prepare("subgoal")`` or of the first ``algorithm="subgoal"`` query;
- the component labels (:func:`pathcraft._core.components.label`): which cells a
  unit can walk between, built by ``prepare("components")``,
  :meth:`~pathcraft.grid.Grid.components` or :meth:`~pathcraft.grid.Grid.reachable`;
  from then on every plan answers a goal of another component at once. Asking for
  them once makes the grid keep them: every later version has them again after its
  first search that ended unreachable, or when asked, carried over from the last
  labelled version: after costs changed between finite values as they were, after
  one cell opened or walled repaired locally (floods from its neighbours bounded by
  the smaller side of what it split or joined), else labelled afresh (one pass over
  every cell). A grid never asked
  searches as before: labels built for a one-off query would cost the flood they
  save;
- the quick plans (:class:`pathcraft._core.quick.Plan`) per option set, which read the
  items above;
- the clearance and the unit views (:class:`~pathcraft.grid._sizes.SizeCache`): the
  one item carried from a version to the next, and repaired, when next asked for,
  over the cells the edits touched (recomputing it costs a hundred times more).

Threads: several threads may search one grid at once. Items are built lazily and
published by one assignment each: two threads may build the same item in a race (one
copy wins, both are right), never see half of one. The one step that changes arrays
in place, the repair of the unit views, runs once under the cache's lock, before any
thread gets a view of the new version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.components import label, repair
from pathcraft._core.jpsplus import build_table
from pathcraft.grid._packed import PackedLines, cost_range, pack_lines
from pathcraft.grid._run import make_plan
from pathcraft.grid._sizes import SizeCache
from pathcraft.grid._subgoal import SubgoalGraph

if TYPE_CHECKING:
    from pathcraft._core.quick import Plan
    from pathcraft._options import SearchOptions
    from pathcraft.grid._grid import Grid

__all__ = ["MAX_PLANS", "REPAIR_SHARE", "Labels", "Prepared", "Scale"]

#: Quick plans kept per version at most (e.g. a fresh option value per query).
MAX_PLANS = 64

#: A local repair of the labels gives up (and the cells are labelled afresh) once its
#: floods visited more than this share of the cells (1/8: the floods cost about
#: three times a full labelling's work a cell).
REPAIR_SHARE = 8

#: The heuristic's scale of a grid: its smallest cost and the one cost of every
#: walkable cell (0.0 when costs vary); ``(1.0, 1.0)`` when every cell is a wall.
Scale = tuple[float, float]
Range = tuple[float, float] | None
JumpTables = tuple[Range, PackedLines]
#: The component labels of the padded cells (flat int32, -1 on walls) and their count.
Labels = tuple[npt.NDArray[np.int32], int]
#: The ``(row, col)`` cells whose cost changed after a version (``Grid.changes_since``).
Changes = Callable[[int], npt.NDArray[np.intp]]

#: The options of a query that gives only ``size``: on the unit's view, its plain query.
_SIZE_ONLY = frozenset({"size"})

_UNSET: Any = object()  # "not built yet" where None is a value (no walkable cell)


class Prepared:
    """The derived state of one version of a grid's cells, each item built on first
    use.

    Parameters
    ----------
    version : int
        The grid's :attr:`~pathcraft.grid.Grid.version` this object describes.
    scale : (float, float) or None
        The heuristic's scale when it is not the cells' own (a unit's view keeps
        its grid's: it stays admissible there); None: from the cells.
    sizes : SizeCache or None
        The clearance and unit views carried from an earlier version (brought up to
        date when next asked for, by :meth:`sizes`).

    Examples
    --------
    >>> import numpy as np
    >>> padded = np.full((3, 4), np.inf)
    >>> padded[1, 1:3] = [2.0, 3.0]
    >>> prep = Prepared(0)
    >>> prep.scale(padded), prep.built()
    ((2.0, 0.0), ())
    >>> prep.jump_tables(padded, "no_corner_cut")[0], prep.built()
    ((2.0, 3.0), ('jps',))
    """

    __slots__ = (
        "_carry", "_jumps", "_labels", "_range", "_scale", "_subgoals", "_table", "plans",
        "reach", "units", "version",
    )  # fmt: skip

    def __init__(
        self,
        version: int,
        *,
        scale: Scale | None = None,
        sizes: SizeCache | None = None,
        reach: bool = False,
        carry: tuple[Labels, int] | None = None,
    ) -> None:
        self.version = version
        #: The labels of an earlier version and that version, to be carried over.
        self._carry = carry
        #: Whether the grid keeps component labels: its plans build them after their
        #: first search that ends unreachable (see :meth:`labels`).
        self.reach = reach
        #: Quick plans by algorithm (no options given) or by ``id`` of checked options:
        #: ``(options, plan or None)``; the grid's lean calls read it directly.
        self.plans: dict[Any, tuple[SearchOptions, Plan | None]] = {}
        self._range: Range = _UNSET
        self._scale = scale
        self._jumps: JumpTables | None = None
        self._table: npt.NDArray[np.int32] | None = None
        self._subgoals: SubgoalGraph | None = None
        self._labels: Labels | None = None
        #: The clearance and unit views (None until asked for): read it through
        #: :meth:`sizes`, which brings it up to date, or check its ``version``.
        self.units = sizes

    # ------------------------------------------------------------------ costs

    def cost_range(self, padded: npt.NDArray[np.float64]) -> Range:
        """The smallest and largest walkable cost (None: every cell is a wall)."""
        costs = self._range
        if costs is _UNSET:
            costs = self._range = cost_range(padded)
        return costs

    def scale(self, padded: npt.NDArray[np.float64]) -> Scale:
        """The heuristic's scale (see :data:`Scale`)."""
        scale = self._scale
        if scale is None:
            costs = self.cost_range(padded)
            if costs is None:
                scale = (1.0, 1.0)
            else:
                scale = (costs[0], costs[0] if costs[0] == costs[1] else 0.0)
            self._scale = scale
        return scale

    # ------------------------------------------------------------------ jump point search

    def jump_tables(self, padded: npt.NDArray[np.float64], diagonal: str) -> JumpTables:
        """The cost range and jump point search's packed lines (built now if needed)."""
        jumps = self._jumps
        if jumps is None:
            lines = pack_lines(padded, corner_cut=diagonal == "always")
            jumps = self._jumps = (self.cost_range(padded), lines)
        return jumps

    def use_lines(self, lines: PackedLines, padded: npt.NDArray[np.float64]) -> None:
        """Keep packed lines built elsewhere (checked by the caller); plans are made
        anew from them."""
        self._jumps = (self.cost_range(padded), lines)
        self.plans = {}

    @property
    def table(self) -> npt.NDArray[np.int32] | None:
        """The offline jump table, or None until :meth:`build_table`."""
        return self._table

    def build_table(self, padded: npt.NDArray[np.float64]) -> None:
        """Build the offline jump table (once per version); jump point search's plans
        are made anew and read it from then on."""
        if self._table is None:
            self._table = build_table(padded)
            self.plans = {}

    @property
    def subgoals(self) -> SubgoalGraph | None:
        """The subgoal graph, or None until :meth:`subgoal_graph`."""
        return self._subgoals

    def subgoal_graph(self, padded: npt.NDArray[np.float64]) -> SubgoalGraph:
        """The subgoal graph of the cells (built now if needed, once per version)."""
        graph = self._subgoals
        if graph is None:
            graph = self._subgoals = SubgoalGraph(padded)
        return graph

    def built(self) -> tuple[str, ...]:
        """What :meth:`Grid.prepare <pathcraft.grid.Grid.prepare>` names and this
        object holds, of ``("jps", "jps+", "components", "subgoal")`` in that order."""
        return (
            ("jps",) * (self._jumps is not None)
            + ("jps+",) * (self._table is not None)
            + ("components",) * (self._labels is not None)
            + ("subgoal",) * (self._subgoals is not None)
        )

    # ------------------------------------------------------------------ reachability

    def labels(
        self, padded: npt.NDArray[np.float64], diagonal: str, changes: Changes | None = None
    ) -> Labels:
        """The component labels of the cells (built now if needed: carried over from
        an earlier version with ``changes``, the grid's, where the edits allow, else
        one pass over every cell); every plan of this version reads them from then
        on, and later versions build theirs after their first unreachable answer."""
        labels = self._labels or self.carry_over(padded, diagonal, changes)
        if labels is None:
            flat = np.empty(padded.size, dtype=np.int32)
            count = label(padded, diagonal == "always", flat, np.empty(padded.size, np.intp))
            labels = self._publish((flat, count))
        return labels

    def carry_over(
        self, padded: npt.NDArray[np.float64], diagonal: str, changes: Changes | None
    ) -> Labels | None:
        """The labels carried over from the earlier version (:func:`carried`: only
        what a few cell reads decide), or None; tried once per version."""
        carry, self._carry = self._carry, None
        if carry is None or changes is None:
            return None
        labels = carried(carry[0], changes(carry[1]), padded, diagonal)
        return None if labels is None else self._publish(labels)

    def _publish(self, labels: Labels) -> Labels:
        self.reach = True
        self._labels = labels
        for _, plan in list(self.plans.values()):
            if plan is not None:
                plan.use_labels(labels[0])
        return labels

    # ------------------------------------------------------------------ plans

    def plan(self, opts: SearchOptions, world: Grid) -> Plan | None:
        """The quick plan of checked options on ``world`` (the grid this object
        belongs to), made on first use (see :func:`pathcraft.grid._run.make_plan`;
        None: the options need the checked way). Options that give nothing but the
        unit's size (which chose ``world``) share the algorithm's plain plan."""
        given = opts.given
        plain = not given or given == _SIZE_ONLY
        key: Any = opts.algorithm if plain else id(opts)
        plans = self.plans  # one dict: a plan made before a reset lands in the old one
        known = plans.get(key)
        if known is None or (known[0] is not opts and not plain):
            if len(plans) >= MAX_PLANS:
                plans.clear()
            plan = make_plan(world, opts)
            if plan is not None:
                padded, diagonal = world.padded, world.diagonal
                changes = world.changes_since if world.unit_size == 1 else None
                labels = self._labels or self.carry_over(padded, diagonal, changes)
                if labels is not None:
                    plan.use_labels(labels[0])
                elif self.reach:
                    plan.use_labels(None, lambda: self.labels(padded, diagonal, changes)[0])
            known = (opts, plan)
            plans[key] = known
        return known[1]

    # ------------------------------------------------------------------ unit sizes

    def sizes(self, new: Callable[[int], SizeCache]) -> SizeCache:
        """The clearance and unit views, up to date for :attr:`version`; the first
        time, ``new(version)`` builds the (empty) cache."""
        sizes = self.units
        if sizes is None:
            sizes = self.units = new(self.version)
        else:
            sizes.update(self.version)
        return sizes

    # ------------------------------------------------------------------ versions

    def renewed(self, version: int) -> Prepared:
        """The object of a later ``version`` of the same grid: empty but for the
        clearance and unit views, which are repaired when next asked for, and
        whether the grid keeps component labels."""
        carry = None if self._labels is None else (self._labels, self.version)
        return Prepared(version, sizes=self.units, reach=self.reach, carry=carry or self._carry)

    def shipped(self, padded: npt.NDArray[np.float64]) -> Prepared:
        """What a pickled grid carries: the scale only (cheap, and a unit's view
        cannot recompute its grid's); the rest is built again where it is used."""
        return Prepared(self.version, scale=self.scale(padded))

    def __getstate__(self) -> dict[str, Any]:
        return {"version": self.version, "scale": self._scale}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["version"], scale=state["scale"])  # type: ignore[misc]


def carried(
    old: Labels, cells: npt.NDArray[np.intp], padded: npt.NDArray[np.float64], diagonal: str
) -> Labels | None:
    """The labels of ``old`` (an earlier version's) brought to the cells of
    ``padded``, where ``cells`` (``(row, col)``) changed since: None when more than
    one cell became or stopped being a wall, or when the repair would visit more
    than 1/:data:`REPAIR_SHARE` of the cells (labelled afresh), else updated in place
    (the earlier version's plans are gone with it: a grid is never edited while
    searched) by :func:`~pathcraft._core.components.repair`: floods from the cell's
    neighbours, bounded by the smaller side of a split or a join. The count becomes
    one more than the largest label: a join leaves the smaller sides' labels unused
    (:meth:`Grid.components <pathcraft.grid.Grid.components>` numbers them afresh)."""
    flat, count = old
    width = padded.shape[1]
    at = (cells[:, 0] + 1) * width + cells[:, 1] + 1
    now_wall = ~np.isfinite(padded.ravel()[at])
    moved = at[(flat[at] < 0) != now_wall]
    if len(moved) == 0:
        return old
    if len(moved) > 1:
        return None
    marks = np.zeros(flat.shape, dtype=np.int32)  # zero pages: paid for what is flooded
    limit = flat.size // REPAIR_SHARE
    top = repair(padded, diagonal == "always", flat, int(moved[0]), count, marks, limit)
    if top < 0:
        return None
    return old if top == count else (flat, top)
