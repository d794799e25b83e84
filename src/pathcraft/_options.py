"""The search options, checked once, and the table of which world takes which.

Every search in pathcraft, on every world, takes its options from one list
(:data:`OPTION_NAMES`): ``weight, heuristic, tie_break, seed, max_expansions,
max_cost, partial, record``. :data:`SUPPORT` says, for each world and each value of
``algorithm=``, which of them the search takes (plus the few options that only one
world has, its *extras*: ``size`` on a grid, ``radius`` on waypoint graphs and
navigation meshes, ``snap`` on a grid and a navigation mesh, ``closed`` in the generic search).
:meth:`SearchOptions.check` is the one place they are checked: an option the
search does not take is refused by one error, :class:`UnsupportedOptionError`, that
names the world, the algorithm, the option and what that search takes instead.

Seeds: ``tie_break="random"`` with the same ``seed`` gives the same tie order every
time on the same world. The compiled kernels (grids, graphs, waypoint graphs) and the
generic search draw their random ties from different generators, so the same seed
gives *different* tie orders on a :class:`~pathcraft.Grid` and in
:func:`pathcraft.search.astar` over the same cells; each is reproducible on its own.

Examples
--------
>>> from pathcraft._options import SearchOptions
>>> opts = SearchOptions.check("Grid", "astar", weight=1.5, max_expansions=100)
>>> opts.weight, opts.max_expansions, opts.partial
(1.5, 100, False)
>>> SearchOptions.check("Grid", "jps", tie_break="fifo")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pathcraft._options.UnsupportedOptionError: Grid.find_path(algorithm='jps') does not take ...
>>> SearchOptions.check("Grid", "astar", max_expansions=2**63)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: max_expansions must be an integer from 0 to 9223372036854775807 or None; ...
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np

from pathcraft._kernels import MODES, TIES, KernelSettings
from pathcraft._validation import MAX_EXPANSIONS, check_choice, check_weight

__all__ = [
    "OPTION_NAMES",
    "SUPPORT",
    "BaseOptions",
    "GridOptions",
    "Options",
    "SearchOptions",
    "UnsupportedOptionError",
    "WorldSpec",
    "check_flag",
    "kernel_seed",
    "kernel_settings",
    "options_table",
]

#: The options every search is described by, in the order the documentation lists them.
OPTION_NAMES: tuple[str, ...] = (
    "weight",
    "heuristic",
    "tie_break",
    "seed",
    "max_expansions",
    "max_cost",
    "partial",
    "record",
)

#: Seeds are integers in ``[0, MAX_SEED]`` (what NumPy's ``SeedSequence`` and
#: ``random.Random`` both take, bounded so every world accepts the same values).
MAX_SEED = 2**64 - 1
TIE_BREAKS = ("g", "fifo", "random")


class BaseOptions(TypedDict, total=False):
    """The keyword options of a search but ``heuristic``, for type checkers: the
    ``**options`` of a search that takes its heuristic as a parameter."""

    weight: float
    tie_break: str
    seed: int | None
    max_expansions: int | None
    max_cost: float | None
    partial: bool
    record: bool
    # Units of several sizes (issue 17): grids only, an extra of every grid search
    # (see GRID_UNIT_EXTRAS and pathcraft.grid._sizes).
    size: int


class Options(BaseOptions, total=False):
    """The keyword options of a search, for type checkers (``**options``)."""

    heuristic: Any


class GridOptions(Options, total=False):
    """A grid query's keyword options, for type checkers: :class:`Options` and
    ``snap``, a start or goal moved to its nearest walkable cell (a navigation mesh
    takes ``snap`` as a keyword of its own)."""

    snap: bool


class UnsupportedOptionError(TypeError):
    """An option the chosen search does not take (or one no search knows).

    The message names the world, the algorithm, the option and the options that
    search takes.
    """


@dataclass(frozen=True)
class WorldSpec:
    """What one world's searches take.

    Attributes
    ----------
    name : str
        The world, as messages name it (``"Grid"``, ``"NavMesh"``, ``"search"``).
    algorithms : mapping of str to tuple of str
        For each value of ``algorithm=``, the options of :data:`OPTION_NAMES` it takes.
    heuristics : tuple of str, or None
        The heuristic names the world knows; None: a callable ``heuristic(node)``.
    extras : mapping of str to tuple of str
        Options only this world has, by algorithm (checked by the world itself).
    """

    name: str
    algorithms: Mapping[str, tuple[str, ...]]
    heuristics: tuple[str, ...] | None
    extras: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


_ALL = OPTION_NAMES
_NO_WEIGHT = tuple(o for o in OPTION_NAMES if o != "weight")
_DIJKSTRA = ("tie_break", "seed", "max_expansions", "max_cost", "record")
#: The grid's own options, taken by every grid search: ``size``, the side of the
#: unit's square in cells (``pathcraft.grid._sizes`` checks it), and ``snap``, a start
#: or goal moved to its nearest walkable cell (``Grid.nearest_walkable``).
GRID_UNIT_EXTRAS: tuple[str, ...] = ("size", "snap")
#: The other cell worlds' own option: ``snap``, a start or goal moved to its nearest
#: walkable cell (their ``nearest_walkable``), taken by every search.
_SNAP: dict[str, tuple[str, ...]] = {name: ("snap",) for name in ("astar", "dijkstra", "greedy")}

#: Which world takes which option, by ``algorithm=``: the contract as data. The
#: README's options table is checked against it by the tests.
SUPPORT: dict[str, WorldSpec] = {
    spec.name: spec
    for spec in (
        WorldSpec(
            "Grid",
            {
                "astar": _ALL,
                "dijkstra": _DIJKSTRA,
                "greedy": _NO_WEIGHT,
                "jps": ("weight", "max_expansions", "max_cost", "partial", "record"),
                # Any-angle (Theta*): turning cells, Euclidean cost; uniform-cost grids.
                "theta": ("weight", "max_expansions", "max_cost", "partial", "record"),
            },
            heuristics=("zero", "manhattan", "octile", "euclidean", "chebyshev"),
            extras={
                **{name: GRID_UNIT_EXTRAS for name in ("astar", "dijkstra", "greedy", "jps")},
                "theta": ("snap",),
            },
        ),
        # pathcraft.hexgrid: the stencil kernel's worlds.
        WorldSpec(
            "HexGrid",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "hex"),
            extras=_SNAP,
        ),
        WorldSpec(
            "MovesGrid",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "euclidean"),
            extras=_SNAP,
        ),
        # pathcraft.layered: floors joined by portals (the layered kernel).
        WorldSpec(
            "Level",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "portal"),
            extras=_SNAP,
        ),
        # pathcraft.voxel: 3-D voxel grids (issue 19).
        WorldSpec(
            "VoxelGrid",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "octile"),
            extras=_SNAP,
        ),
        WorldSpec(
            "Graph",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "euclidean"),
        ),
        WorldSpec(
            "WaypointGraph",
            {"astar": _ALL, "dijkstra": _DIJKSTRA, "greedy": _NO_WEIGHT},
            heuristics=("zero", "euclidean"),
            extras={name: ("radius",) for name in ("astar", "dijkstra", "greedy")},
        ),
        WorldSpec(
            "NavMesh",
            {
                "funnel": ("weight", "max_expansions", "partial"),
                "optimal": ("max_expansions", "partial"),
            },
            heuristics=None,
            extras={name: ("snap", "radius", "filter") for name in ("funnel", "optimal")},
        ),
        # pathcraft.navmesh3d: polygons with heights (issue 35).
        WorldSpec(
            "NavMesh3D",
            {
                "funnel": ("weight", "max_expansions", "partial"),
                "optimal": ("max_expansions", "partial"),
            },
            heuristics=None,
            extras={name: ("snap",) for name in ("funnel", "optimal")},
        ),
        WorldSpec(
            "search",
            {
                "astar": _ALL,
                "dijkstra": _DIJKSTRA,
                "greedy": _NO_WEIGHT,
                "bfs": ("tie_break", "seed", "max_expansions", "record"),
            },
            heuristics=None,
            extras={
                "astar": ("closed",),
                "dijkstra": ("closed",),
                "greedy": ("closed",),
                "bfs": ("closed", "max_depth"),
            },
        ),
    )
}


def check_flag(name: str, value: Any) -> bool:
    """Return ``value`` if it is a real boolean (``bool`` or ``np.bool_``); raise otherwise.

    >>> check_flag("partial", True)
    True
    >>> check_flag("partial", "yes")
    Traceback (most recent call last):
    ...
    TypeError: partial must be True or False; got 'yes'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def _check_int(name: str, value: Any, high: int) -> int | None:
    if value is None:
        return None
    accepted = f"{name} must be an integer from 0 to {high} or None"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{accepted}; got {value!r}")
    number = int(value)
    if not 0 <= number <= high:
        raise ValueError(f"{accepted}; got {value!r}")
    return number


def _check_cost(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"max_cost must be a number >= 0 or None; got {value!r}")
    number = float(value)
    if math.isnan(number) or number < 0:
        raise ValueError(f"max_cost must be a number >= 0 or None; got {value!r}")
    return number


def _check_heuristic(spec: WorldSpec, value: Any) -> Any:
    if value is None:
        return None
    if spec.heuristics is None:
        if not callable(value):
            raise TypeError(
                f"heuristic must be a callable heuristic(node) -> float or None; got {value!r}"
            )
        return value
    return check_choice("heuristic", value, spec.heuristics)


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The checked options of one search (see :data:`OPTION_NAMES`).

    Build one with :meth:`check`, never directly: every field then holds a checked
    value, a default for an option that was not given.

    Attributes
    ----------
    world, algorithm : str
        The world and the search they were checked for.
    weight : float
        ``>= 1``, finite.
    heuristic : str, callable or None
        A heuristic name of the world, a callable (generic search), or None for the
        world's default.
    tie_break : {"g", "fifo", "random"}
    seed : int or None
        In ``[0, 2**64 - 1]``.
    max_expansions : int or None
        In ``[0, 2**63 - 1]``.
    max_cost : float or None
        ``>= 0`` (``inf`` is no limit), never NaN.
    partial, record : bool
    given : frozenset of str
        The options the caller passed (the others hold defaults).
    extra : dict
        The world's own options (``snap``, ``closed``, ``max_depth``), unchecked: the
        world checks them.
    """

    world: str
    algorithm: str
    weight: float = 1.0
    heuristic: Any = None
    tie_break: str = "g"
    seed: int | None = None
    max_expansions: int | None = None
    max_cost: float | None = None
    partial: bool = False
    record: bool = False
    given: frozenset[str] = frozenset()
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def check(cls, world: str, algorithm: Any, /, **options: Any) -> SearchOptions:
        """Check ``algorithm`` and ``options`` for ``world``'s ``find_path``.

        Parameters
        ----------
        world : str
            A key of :data:`SUPPORT` (``"Grid"``, ``"Graph"``, ``"WaypointGraph"``,
            ``"NavMesh"``, ``"search"``).
        algorithm : str
            One of the world's algorithms.
        **options
            The options as the caller gave them; only those given are checked against
            the table (defaults are never refused).

        Returns
        -------
        SearchOptions

        Raises
        ------
        UnsupportedOptionError
            An option this search does not take, or an unknown option name.
        ValueError, TypeError
            An unknown algorithm; a bad option value (the message names the option and
            what it accepts).

        Examples
        --------
        >>> from pathcraft._options import SearchOptions
        >>> SearchOptions.check("NavMesh", "optimal", partial=True).partial
        True
        >>> SearchOptions.check("NavMesh", "optimal", weight=2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: NavMesh.find_path(algorithm='optimal') ...
        >>> SearchOptions.check("Graph", "astar", partial="yes")
        Traceback (most recent call last):
        ...
        TypeError: partial must be True or False; got 'yes'
        """
        return cls.check_call(world, "find_path", algorithm, options)

    @classmethod
    def check_call(
        cls, world: str, method: str, algorithm: Any, options: Mapping[str, Any]
    ) -> SearchOptions:
        """:meth:`check` for any method of the world that takes the search options
        (``find_path``, ``start_search``, ``find_paths``, ``path_costs``): refusals
        name ``world.method``.

        Checked options are cached by the values given (and their types), so a query
        repeated with the same options costs one dictionary look-up here.

        >>> from pathcraft._options import SearchOptions
        >>> SearchOptions.check_call("Grid", "find_paths", "dijkstra", {"partial": True})
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: Grid.find_paths(algorithm='dijkstra') does ...
        """
        try:
            key: Any = (world, algorithm, *[(k, type(v), v) for k, v in options.items()])
            cached = _CHECKED.get(key)
        except TypeError:  # an unhashable value (a bad one): check it, cache nothing
            key, cached = None, None
        if cached is not None:
            return cached
        checked = cls._checked(world, method, algorithm, options)
        if key is not None:
            if len(_CHECKED) >= _CACHE_SIZE:
                _CHECKED.clear()  # e.g. a fresh seed per query: keep the cache small
            _CHECKED[key] = checked
        return checked

    @classmethod
    def _checked(
        cls, world: str, method: str, algorithm: Any, options: Mapping[str, Any]
    ) -> SearchOptions:
        spec = SUPPORT[world]
        check_choice("algorithm", algorithm, tuple(spec.algorithms))
        takes = spec.algorithms[algorithm]
        extras = spec.extras.get(algorithm, ())
        for name in options:
            if name not in takes and name not in extras:
                raise UnsupportedOptionError(_refusal(spec, method, algorithm, name))
        values: dict[str, Any] = {}
        if "weight" in options:
            values["weight"] = check_weight(options["weight"])
        if "heuristic" in options:
            values["heuristic"] = _check_heuristic(spec, options["heuristic"])
        if algorithm == "bfs":
            values["tie_break"] = "fifo"
        if "tie_break" in options:
            ties = ("fifo", "random") if algorithm == "bfs" else TIE_BREAKS
            values["tie_break"] = check_choice("tie_break", options["tie_break"], ties)
        if "seed" in options:
            values["seed"] = _check_int("seed", options["seed"], MAX_SEED)
        if "max_expansions" in options:
            values["max_expansions"] = _check_int(
                "max_expansions", options["max_expansions"], MAX_EXPANSIONS
            )
        if "max_cost" in options:
            values["max_cost"] = _check_cost(options["max_cost"])
        for flag in ("partial", "record"):
            if flag in options:
                values[flag] = check_flag(flag, options[flag])
        return cls(
            world=world,
            algorithm=algorithm,
            given=frozenset(options),
            extra={k: v for k, v in options.items() if k in extras},
            **values,
        )

    def refuse_beyond(self, allowed: tuple[str, ...], case: str) -> None:
        """Refuse, by the uniform error, a given option outside ``allowed``: for a case
        of the algorithm that takes fewer options (``case``, e.g. ``"goal=None"``).

        >>> from pathcraft._options import SearchOptions
        >>> opts = SearchOptions.check("Grid", "dijkstra", record=True)
        >>> opts.refuse_beyond(("max_cost",), "goal=None")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pathcraft._options.UnsupportedOptionError: ... with goal=None does not take record; ...
        """
        refused = sorted(self.given - set(allowed))
        if refused:
            raise UnsupportedOptionError(
                f"{self.world}.find_path(algorithm={self.algorithm!r}) with {case} does not "
                f"take {refused[0]}; it takes {', '.join(allowed)}"
            )

    def given_options(self) -> dict[str, Any]:
        """The options the caller gave, as checked values: keyword arguments that
        pass them on to another search of the same world and algorithm.

        >>> from pathcraft._options import SearchOptions
        >>> SearchOptions.check("Grid", "astar", weight=2).given_options()
        {'weight': 2.0}
        """
        return {
            name: self.extra[name] if name in self.extra else getattr(self, name)
            for name in self.given
        }

    def kernel_settings(self) -> KernelSettings:
        """The settings every compiled search takes from the options, as the one
        object its kernel entries take (``settings=``); a world adds its own keyword
        arguments (heuristic, scale, moves). The searches beyond the skeleton's three
        (``jps``, ``theta``) are A* variants: their mode is A*'s.

        >>> from pathcraft._options import SearchOptions
        >>> SearchOptions.check("Grid", "dijkstra", max_cost=5).kernel_settings()
        ... # doctest: +NORMALIZE_WHITESPACE
        KernelSettings(mode=2, tie=0, weight=1.0, max_expansions=-1, max_cost=5.0,
                       partial=False, record=False, seed=0)
        """
        return kernel_settings(
            self.algorithm if self.algorithm in MODES else "astar",
            tie_break=self.tie_break,
            seed=self.seed,
            weight=self.weight,
            max_expansions=self.max_expansions,
            max_cost=self.max_cost,
            partial=self.partial,
            record=self.record,
        )

    def kernel_seed(self) -> int:
        """The 64-bit seed of a compiled kernel's random tie-breaking (see
        :func:`kernel_seed`)."""
        return kernel_seed(self.tie_break, self.seed)


def kernel_settings(
    mode: str,
    *,
    tie_break: str = "g",
    seed: int | None = None,
    weight: float = 1.0,
    max_expansions: int | None = None,
    max_cost: float | None = None,
    partial: bool = False,
    record: bool = False,
) -> KernelSettings:
    """The :class:`~pathcraft._kernels.KernelSettings` of a compiled search in
    ``mode`` (a key of :data:`~pathcraft._kernels.MODES`) from option values checked
    already (None: no limit; the seed as :func:`kernel_seed` makes it).

    >>> kernel_settings("greedy", max_expansions=10).as_dict()["max_expansions"]
    10
    """
    return KernelSettings(
        mode=MODES[mode],
        tie=TIES[tie_break],
        weight=weight,
        max_expansions=-1 if max_expansions is None else max_expansions,
        max_cost=math.inf if max_cost is None else max_cost,
        partial=partial,
        record=record,
        seed=kernel_seed(tie_break, seed),
    )


def kernel_seed(tie_break: str, seed: int | None) -> int:
    """The 64-bit seed of a compiled kernel's random tie-breaking: 0 unless
    ``tie_break="random"``; a seed of None draws fresh entropy."""
    if tie_break != "random":
        return 0  # only random tie-breaking draws: skip the entropy read otherwise
    state = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)
    return int(state[0])


#: Checked options by ``(world, algorithm, (name, type, value), ...)``: a search
#: repeated with the same options is checked once (the values are frozen).
_CHECKED: dict[Any, SearchOptions] = {}
_CACHE_SIZE = 512


def _refusal(spec: WorldSpec, method: str, algorithm: str, name: str) -> str:
    where = f"{spec.name}.{method}(algorithm={algorithm!r})"
    takes = ", ".join(spec.algorithms[algorithm]) or "no options"
    extras = spec.extras.get(algorithm, ())
    also = f" (and {', '.join(extras)})" if extras else ""
    if name not in OPTION_NAMES and not any(name in e for e in spec.extras.values()):
        return f"{where} got an unknown option {name!r}; it takes {takes}{also}"
    return f"{where} does not take {name}; it takes {takes}{also}"


def options_table() -> str:
    """The options table of the README, as markdown: one row per world and algorithm,
    a mark where the search takes the option.

    >>> from pathcraft._options import options_table
    >>> print(options_table().splitlines()[2])
    | `Grid` | `astar` | yes | yes | yes | yes | yes | yes | yes | yes |
    """
    head = "| world | `algorithm=` | " + " | ".join(f"`{o}`" for o in OPTION_NAMES) + " |"
    rule = "|---|---|" + "---|" * len(OPTION_NAMES)
    rows = [head, rule]
    for spec in SUPPORT.values():
        for algorithm, takes in spec.algorithms.items():
            marks = " | ".join("yes" if o in takes else "-" for o in OPTION_NAMES)
            rows.append(f"| `{spec.name}` | `{algorithm}` | {marks} |")
    return "\n".join(rows)
