from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.machine import KernelSettings
from pathcraft.result import PathResult

class Plan:
    jps: bool
    offline: bool
    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        workspace: Callable[[int], Any],
        result: type[PathResult],
        reasons: dict[int, str],
        clock: Callable[[], float],
        lines: Sequence[npt.NDArray[np.uint64]] | None = None,
        table: npt.NDArray[np.int32] | None = None,
        *,
        diagonal: int,
        settings: KernelSettings,
        hkind: int = ...,
        hscale: float = ...,
        unit: float = ...,
        block: bool = ...,
    ) -> None: ...
    def find(self, start: Any, goal: Any, t0: float, fill: bool = ...) -> PathResult | None: ...
    def find_flat(self, s: int, g: int, t0: float) -> PathResult: ...
    def cost(self, start: Any, goal: Any) -> float | None: ...
    def cost_flat(self, s: int, g: int) -> float: ...
    def takes(self, start: Any, goal: Any) -> bool: ...
    def use_labels(self, labels: Any, labeller: Any = ...) -> None: ...
    def start(self, ws: Any, start: Any, goal: Any) -> PlanSearch | None: ...

class PlanSearch:
    @property
    def status(self) -> int: ...
    @property
    def expanded(self) -> int: ...
    @property
    def elapsed(self) -> float: ...
    def step(self, budget: int = -1) -> int: ...
    def answer(self) -> PlanSearch: ...
    def result(self, t0: float) -> PathResult: ...
