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

class Workspace:
    capacity: int
    def __init__(self, capacity: int) -> None: ...

def search(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    coords: npt.NDArray[np.float64] | None,
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    source_costs: npt.NDArray[np.float64] | None,
    goal: int,
    goal_set: npt.NDArray[np.intp] | None,
    exit_costs: npt.NDArray[np.float64] | None,
    target: npt.NDArray[np.float64] | None,
    **settings: Any,
) -> tuple[
    int,
    npt.NDArray[np.intp],
    npt.NDArray[np.intp],
    float,
    int,
    int,
    npt.NDArray[np.intp] | None,
    npt.NDArray[np.float64] | None,
]: ...
def field(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    source_costs: npt.NDArray[np.float64] | None,
    out_dist: npt.NDArray[np.float64],
    out_parent: npt.NDArray[np.int64] | None,
    *,
    max_cost: float,
) -> int: ...

class GraphSearch(Machine):
    def __init__(self, *args: Any, **settings: Any) -> None: ...
    def answer(self) -> tuple[Any, ...]: ...
