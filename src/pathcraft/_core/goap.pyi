from collections.abc import Callable
from typing import Any, TypeVar, overload

T = TypeVar("T")

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
    def bind(self, positions: tuple[int, ...], strs: tuple[bool, ...]) -> None: ...
    def reset(
        self,
        values: tuple[Any, ...],
        rank: dict[str, int],
        classes: list[list[int]] | None,
        max_expansions: int,
    ) -> bool: ...
    @overload
    def solve(self) -> tuple[int, list[int], float, int, int, int]: ...
    @overload
    def solve(self, names: tuple[T, ...]) -> tuple[int, tuple[T, ...], float, int, int, int]: ...
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
