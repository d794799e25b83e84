from collections.abc import Callable
from typing import Any

MISSING: int
LIMIT: int
MAX_DEPTH: int

class Tables:
    width: int
    n_steps: int
    n_goals: int
    callbacks: bool
    def __init__(
        self,
        width: int,
        pre: list[list[tuple[int, int, int]]],
        eff: list[list[tuple[int, int, int]]],
        costs: list[float | None],
        goals: list[tuple[list[tuple[int, int, int, float, float, float, float]], int, float]],
    ) -> None: ...
    def bound_of(self, g: int, x: Any) -> float: ...

class Search:
    expanded: int
    generated: int
    phase: int
    status: int
    reached: int
    reached_goal: int
    def __init__(
        self,
        tables: Tables,
        start: Any,
        classes: list[list[int]],
        callback: Callable[[int, int, Search], float] | None,
        weight: float,
        tie: int,
        seed: int,
        max_expansions: int,
        depth_limit: int,
        max_cost: float,
    ) -> None: ...
    def bind(
        self,
        names: tuple[str, ...],
        types: tuple[type[Any], ...],
        positions: tuple[int, ...],
        strs: tuple[bool, ...],
        rank: dict[str, int],
        items: tuple[Any, ...],
        plans: Maker,
        goals: tuple[Any, ...],
        considered: int,
        order: tuple[str, ...] | None,
        reasons: dict[int, str],
    ) -> None: ...
    def plan(
        self,
        state: dict[str, Any],
        max_expansions: int,
        classes: list[list[int]] | None,
        start: Any = None,
    ) -> Any: ...
    def release(self) -> None: ...
    def run(self, budget: int) -> int: ...
    def state(self, i: int) -> tuple[int, ...]: ...
    def class_goal(self) -> int: ...
    def steps(self, i: int) -> tuple[list[int], float]: ...

class Maker:
    def __init__(self, cls: type[Any], names: tuple[str, ...]) -> None: ...
    def make(self, values: tuple[Any, ...]) -> Any: ...
    def state(self, facts: dict[str, Any]) -> Any: ...
    def replay(self, facts: dict[str, Any], actions: tuple[Any, ...]) -> list[Any]: ...
