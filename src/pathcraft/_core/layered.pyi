from typing import Any

import numpy as np
import numpy.typing as npt

FOUND: int
UNREACHABLE: int
MAX_EXPANSIONS: int
MAX_COST: int
EXHAUSTED: int
IN_PROGRESS: int
DIAGONALS: dict[str, int]
HEURISTICS: dict[str, int]
LB_PORTALS_CAP: int
FLOOR_ENTRIES_CAP: int

class Workspace:
    capacity: int
    def __init__(self, capacity: int) -> None: ...

class Tables:
    size: int
    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        floors: int,
        diagonal: int,
        indptr: npt.NDArray[np.int64],
        targets: npt.NDArray[np.intp],
        pcost: npt.NDArray[np.float64],
    ) -> None: ...

class LayeredSearch:
    elapsed: float
    def __init__(
        self,
        t: Tables,
        ws: Workspace,
        sources: npt.NDArray[np.intp],
        goal: int,
        **settings: Any,
    ) -> None: ...
    def step(self, budget: int = ...) -> int: ...
    def answer(self) -> tuple[Any, ...]: ...

def search(
    t: Tables, ws: Workspace, sources: npt.NDArray[np.intp], goal: int, **settings: Any
) -> tuple[Any, ...]: ...
def search_costs(
    t: Tables,
    ws: Workspace,
    starts: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64],
    **settings: Any,
) -> None: ...
def field(
    t: Tables,
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    out_costs: npt.NDArray[np.float64],
    max_cost: float,
    out_parents: npt.NDArray[np.intp] | None = ...,
) -> int: ...
