from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.machine import Machine

FOUND: int
UNREACHABLE: int
MAX_EXPANSIONS: int
MAX_COST: int
EXHAUSTED: int
IN_PROGRESS: int
DEBUG_BUILD: bool

def _probe_read(values: npt.NDArray[np.float64], i: int) -> float: ...

class Workspace:
    capacity: int
    def __init__(self, capacity: int) -> None: ...
    @property
    def bytes_per_cell(self) -> int: ...

def search(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    goal: int,
    goal_set: npt.NDArray[np.intp] | None,
    **settings: Any,
) -> tuple[
    int,
    npt.NDArray[np.intp],
    float,
    int,
    int,
    npt.NDArray[np.intp] | None,
    npt.NDArray[np.float64] | None,
]: ...
def field(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    out_costs: npt.NDArray[np.float64],
    *,
    diagonal: int,
    max_cost: float,
) -> Any: ...
def search_costs(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    starts: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64],
    **settings: Any,
) -> None: ...

class GridSearch(Machine):
    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        ws: Workspace,
        sources: npt.NDArray[np.intp],
        goal: int,
        goal_set: npt.NDArray[np.intp] | None,
        **settings: Any,
    ) -> None: ...
    def answer(self) -> tuple[Any, ...]: ...
