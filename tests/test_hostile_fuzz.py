"""Hostile values at every public argument of ``find_path``, ``start_search`` and
``distance_field`` on every world: random integers (huge ones too), floats (inf, nan,
subnormal, huge), bools, strings, nested lists and NumPy scalars of every dtype. Each
call gives the answer of the same call with the plain value, or a ``ValueError`` /
``TypeError`` whose message names the argument. Never another exception, never an
answer for a value that means something else."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcraft import Graph, Grid, NavMesh, PathResult, WaypointGraph
from pathcraft.hexgrid import HexGrid, MovesGrid
from pathcraft.layered import Level
from pathcraft.voxel import VoxelGrid

shapely = pytest.importorskip("shapely")
box = shapely.box

#: Every dtype a NumPy scalar can have that a caller might pass.
DTYPES = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
    np.complex128, np.str_, np.bytes_,
]  # fmt: skip

FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 5e-324, 2.2e-308, 1e-300, 1e300, 1.7e308, 0.5, 1.5, 2.0]),
)
INTS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]),
)


def _numpy_scalar(dtype: Any, value: Any) -> Any:
    with np.errstate(all="ignore"):
        try:
            return dtype(value)
        except (OverflowError, ValueError, TypeError):
            return dtype(0)


SCALARS = st.one_of(
    INTS, FLOATS, st.booleans(), st.text(max_size=3), st.none(),
    st.builds(_numpy_scalar, st.sampled_from(DTYPES), st.one_of(INTS, FLOATS)),
)  # fmt: skip
#: A value for any argument: a scalar, a place-like tuple or array of them, or a
#: nested list or tuple of them.
HOSTILE = st.one_of(
    SCALARS,
    st.lists(SCALARS, min_size=2, max_size=3).map(tuple),
    st.lists(st.one_of(INTS, FLOATS), min_size=2, max_size=3).map(
        lambda v: np.array(v, dtype=object)
    ),
    st.recursive(
        SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple)
        ),
        max_leaves=8,
    ),
)


#: The doors a query goes through: a single query, a stepped one, a batch of one.
DOORS = ["find_path", "start_search", "find_paths"]


class Case:
    """A world, a valid start and goal, and the options its find_path takes."""

    def __init__(
        self, make: Callable[[], Any], start: Any, goal: Any, options: dict[str, Any],
        field: bool = True,
    ) -> None:  # fmt: skip
        self.make, self.start, self.goal, self.options, self.field = (
            make, start, goal, options, field,
        )  # fmt: skip


COMMON = {
    "algorithm": "astar", "weight": 1.0, "heuristic": None, "tie_break": "g",
    "seed": None, "max_expansions": None, "max_cost": None, "partial": False,
    "record": False,
}  # fmt: skip
CELLS = {k: v for k, v in COMMON.items() if k != "heuristic"}
CASES = {
    "Grid": Case(lambda: Grid(np.ones((4, 5))), (0, 0), (3, 4), {**COMMON, "size": 1}),
    "HexGrid": Case(lambda: HexGrid(np.ones((4, 5))), (0, 0), (3, 4), CELLS),
    "MovesGrid": Case(
        lambda: MovesGrid(np.ones((4, 5)), [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1)]),
        (0, 0),
        (3, 4),
        CELLS,
    ),
    "VoxelGrid": Case(lambda: VoxelGrid(np.ones((2, 3, 4))), (0, 0, 0), (1, 2, 3), CELLS),
    "Level": Case(lambda: Level(np.ones((2, 3, 4))), (0, 0, 0), (0, 2, 3), CELLS),
    "Graph": Case(
        lambda: Graph(5, [0, 1, 2, 3], [1, 2, 3, 4], [1.0, 2.0, 1.0, 0.5]),
        0,
        4,
        {k: v for k, v in COMMON.items() if k != "heuristic"},
    ),
    "WaypointGraph": Case(
        lambda: WaypointGraph([(4, 5), (6, 5), (4, -5), (6, -5)], [box(4, -4, 6, 4)]),
        (0.0, 0.0),
        (10.0, 0.0),
        {**COMMON, "heuristic": "euclidean", "radius": 0.0},
        field=False,
    ),
    "NavMesh": Case(
        lambda: NavMesh.from_geometry(box(0, 0, 10, 10).difference(box(4, 2, 6, 8))),
        (1.0, 5.0),
        (9.0, 5.0),
        {
            "algorithm": "funnel",
            "snap": False,
            "radius": 0.0,
            "max_expansions": None,
            "weight": 1.0,
            "partial": False,
        },
        field=False,
    ),
}
WORLDS = {name: case.make() for name, case in CASES.items()}
PLAIN = {
    name: WORLDS[name].find_path(case.start, case.goal, **case.options)
    for name, case in CASES.items()
}


def _plain(value: Any) -> Any:
    """``value`` as plain Python numbers (nested lists become tuples), or a sentinel
    when it holds anything but exact integers and floats."""
    if isinstance(value, (bool, np.bool_, str, bytes, np.str_, np.bytes_)) or value is None:
        return _Other
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)) and not isinstance(value, np.longdouble):
        return float(value)
    return _Other


_Other = object()


def _check(name: str, argument: str, call: Callable[[], Any], same: bool) -> None:
    """``call`` answers (the plain call's answer when ``same``) or raises a
    ValueError/TypeError naming ``argument``."""
    try:
        got = call()
    except (ValueError, TypeError) as exc:
        head = argument.split("[")[0]
        assert head in str(exc) or (argument == "start" and "sources" in str(exc)), (
            f"{name}: {type(exc).__name__} does not name {argument!r}: {exc}"
        )
        return
    if isinstance(got, PathResult):
        assert got.found == bool(got) and (not got.found or math.isfinite(got.cost))
        if same:
            plain = PLAIN[name]
            assert got.found == plain.found and got.cost == plain.cost, name
            np.testing.assert_array_equal(np.asarray(got.path), np.asarray(plain.path))


@pytest.mark.parametrize("name", sorted(CASES))
@settings(
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(slot=st.integers(0, 20), value=HOSTILE, door=st.sampled_from(DOORS))
def test_every_argument_answers_right_or_is_refused_by_name(
    name: str, slot: int, value: Any, door: str
) -> None:
    case, world = CASES[name], WORLDS[name]
    slots = ["start", "goal", *case.options]
    argument = slots[slot % len(slots)]
    start, goal, options = case.start, case.goal, dict(case.options)
    if argument == "start":
        start = value
    elif argument == "goal":
        goal = value
    else:
        options[argument] = value
    plain = _plain(value)
    good = {"start": case.start, "goal": case.goal, **case.options}[argument]
    same = plain is not _Other and plain == (
        tuple(good) if isinstance(good, (list, tuple)) else good
    )

    def run() -> Any:
        if door == "find_path":
            return world.find_path(start, goal, **options)
        if door == "start_search":
            search = world.start_search(start, goal, **options)
            search.step()
            return search.result
        if not hasattr(world, "find_paths"):
            return world.find_path(start, goal, **options)
        return world.find_paths([start], [goal], **options)[0]  # a batch of one

    _check(name, argument, run, same)


@settings(
    max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    name=st.sampled_from([n for n, c in CASES.items() if c.field]),
    argument=st.sampled_from(["sources", "parents", "max_cost"]),
    value=HOSTILE,
)
def test_distance_field_arguments_answer_or_are_refused_by_name(
    name: str, argument: str, value: Any
) -> None:
    world, case = WORLDS[name], CASES[name]
    call: dict[str, Any] = {"sources": [case.start], "parents": False, "max_cost": None}
    call[argument] = [value] if argument == "sources" else value
    try:
        field = world.distance_field(call.pop("sources"), **call)
    except (ValueError, TypeError) as exc:
        assert argument in str(exc), f"{name}: {exc}"
        return
    distances = field[0] if isinstance(field, tuple) else getattr(field, "distances", field)
    assert np.isfinite(np.asarray(distances, dtype=float)).any()
