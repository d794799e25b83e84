"""The compiled engine and its pure-Python source give identical answers.

``pathcraft._engine`` is one source file, ``src/pathcraft/_engine.py``, that the build
also compiles with Cython. The tests load the source as plain Python beside the
compiled module and run both with the keyword arguments :mod:`pathcraft.search` passes.
"""

from __future__ import annotations

import importlib.machinery
import math
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import pytest
from _compiled import load
from _graphs import Graph, factor_lists, problems
from hypothesis import given, settings
from hypothesis import strategies as st

import pathcraft._engine as compiled_engine
from pathcraft.search import BloomClosed

ENGINE_SOURCE = Path(__file__).resolve().parents[1] / "src" / "pathcraft" / "_engine.py"
COMPILED_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


source_engine = load("pathcraft_engine_source", ENGINE_SOURCE)


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    path = str(compiled_engine.__file__)
    if not path.endswith(COMPILED_SUFFIXES):
        pytest.fail(
            f"pathcraft._engine is not compiled: it was imported from {path}. Build it "
            "(pip install -e . or cythonize -i -3 src/pathcraft/_engine.py) so these "
            "tests compare the compiled module with its source."
        )
    return compiled_engine


def test_the_compiled_engine_is_in_use(compiled: ModuleType) -> None:
    assert str(compiled.__file__).endswith(".so") or str(compiled.__file__).endswith(".pyd")
    assert Path(str(source_engine.__file__)) == ENGINE_SOURCE
    assert compiled.run is not source_engine.run
    # A compiled function is a Cython function, not one the interpreter runs.
    assert not isinstance(compiled.run, FunctionType)
    assert isinstance(source_engine.run, FunctionType)


def summary(result: Any) -> tuple[Any, ...]:
    """Everything but the wall-clock time; explored and distances as plain lists."""
    explored = result.explored
    return (
        list(result.path),
        result.cost,
        result.found,
        result.reason,
        result.expanded,
        result.generated,
        None if explored is None else (list(explored.nodes), list(explored.g)),
        None if result.distances is None else list(result.distances.items()),
        None if result._parents is None else list(result._parents.items()),
    )


def engine_run(engine: ModuleType, *args: Any, bloom: Any = None, **settings: Any) -> Any:
    """``engine.run`` with the settings given as keywords."""
    return engine.run(*args, engine.Settings(**settings), bloom)


def both(compiled: ModuleType, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    return summary(engine_run(compiled, *args, **kwargs)), summary(
        engine_run(source_engine, *args, **kwargs)
    )


def compiled_and_source_engines_agree(
    compiled: ModuleType,
    problem: tuple[Graph, int, int],
    factors: list[float],
    hvals: list[float],
    seed: int,
    max_expansions: int | None,
    max_cost: float | None,
    partial: bool,
    goal_kind: str,
) -> None:
    graph, start, goal_node = problem
    to_goal = graph.dist_to(goal_node)
    admissible = {
        n: math.inf if math.isinf(d) else float(d) * factors[n % len(factors)]
        for n, d in enumerate(to_goal)
    }
    goal: Any = goal_node if goal_kind == "node" else (lambda n: n == goal_node)

    def arbitrary(n: int) -> float:
        return hvals[n % len(hvals)]

    limits = {"seed": seed, "max_expansions": max_expansions, "record": True}
    runs: list[tuple[Any, Any, dict[str, Any]]] = []
    for bloom in (None, BloomClosed()):
        for tie_break in ("g", "fifo", "random"):
            for weight in (1.0, 1.5, 4.0):  # astar, weighted astar
                runs.append(
                    (goal, admissible.__getitem__, {
                        "mode": "astar", "weight": weight, "tie_break": tie_break,
                        "max_cost": max_cost, "partial": partial, "bloom": bloom,
                    })
                )  # fmt: skip
            runs.append(  # dijkstra
                (goal, None, {
                    "mode": "astar", "weight": 1.0, "tie_break": tie_break,
                    "max_cost": max_cost, "partial": False, "bloom": bloom,
                })
            )  # fmt: skip
            runs.append(
                (goal, arbitrary, {
                    "mode": "greedy", "weight": 1.0, "tie_break": tie_break,
                    "max_cost": max_cost, "partial": partial, "bloom": bloom,
                })
            )  # fmt: skip
            if bloom is None:  # dijkstra without a goal
                runs.append(
                    (None, None, {
                        "mode": "astar", "weight": 1.0, "tie_break": tie_break,
                        "max_cost": max_cost, "partial": False, "bloom": None,
                    })
                )  # fmt: skip
        for tie_break in ("fifo", "random"):
            depth = None if max_cost is None else float(int(max_cost) % 8)
            runs.append(
                (goal, None, {
                    "mode": "bfs", "weight": 1.0, "tie_break": tie_break,
                    "max_cost": depth, "partial": False, "bloom": bloom,
                    "cost_reason": "max_depth",
                })
            )  # fmt: skip
    for target, heuristic, options in runs:
        kwargs = {**limits, **options}
        got, expected = both(compiled, start, target, graph.neighbors, heuristic, **kwargs)
        assert got == expected, kwargs


@settings(max_examples=25)
@given(
    problem=problems(),
    factors=factor_lists(),
    hvals=st.lists(st.floats(0, 30), min_size=1, max_size=40),
    seed=st.integers(0, 2**32 - 1),
    max_expansions=st.none() | st.integers(0, 60),
    max_cost=st.none() | st.floats(0, 40),
    partial=st.booleans(),
    goal_kind=st.sampled_from(["node", "predicate"]),
)
def test_compiled_and_source_engines_agree(
    compiled: ModuleType,
    problem: tuple[Graph, int, int],
    factors: list[float],
    hvals: list[float],
    seed: int,
    max_expansions: int | None,
    max_cost: float | None,
    partial: bool,
    goal_kind: str,
) -> None:
    compiled_and_source_engines_agree(
        compiled, problem, factors, hvals, seed, max_expansions, max_cost, partial, goal_kind
    )


@pytest.mark.slow  # the same property, many more examples: `pytest -m slow`
@settings(max_examples=100)
@given(
    problem=problems(),
    factors=factor_lists(),
    hvals=st.lists(st.floats(0, 30), min_size=1, max_size=40),
    seed=st.integers(0, 2**32 - 1),
    max_expansions=st.none() | st.integers(0, 60),
    max_cost=st.none() | st.floats(0, 40),
    partial=st.booleans(),
    goal_kind=st.sampled_from(["node", "predicate"]),
)
def test_compiled_and_source_engines_agree_many(
    compiled: ModuleType,
    problem: tuple[Graph, int, int],
    factors: list[float],
    hvals: list[float],
    seed: int,
    max_expansions: int | None,
    max_cost: float | None,
    partial: bool,
    goal_kind: str,
) -> None:
    compiled_and_source_engines_agree(
        compiled, problem, factors, hvals, seed, max_expansions, max_cost, partial, goal_kind
    )


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_compiled_and_source_engines_raise_the_same_errors(
    compiled: ModuleType, bad: float
) -> None:
    kwargs: dict[str, Any] = {
        "mode": "astar", "weight": 1.0, "tie_break": "g", "seed": None,
        "max_expansions": None, "max_cost": None, "partial": False, "record": False,
        "bloom": None,
    }  # fmt: skip

    def bad_step(n: int) -> list[tuple[int, float]]:
        return [(n + 1, bad)]

    def bad_h(n: int) -> float:
        return bad if n == 1 else 0.0

    def line(n: int) -> list[tuple[int, float]]:
        return [(n + 1, 1.0)]

    for args in ((0, 5, bad_step, None), (0, 5, line, bad_h)):
        if args[3] is bad_h and bad == math.inf:
            continue  # an infinite heuristic is allowed: "cannot reach the goal"
        messages = []
        for engine in (compiled, source_engine):
            with pytest.raises(ValueError) as info:
                engine_run(engine, *args, **kwargs)
            messages.append(str(info.value))
        assert messages[0] == messages[1]
