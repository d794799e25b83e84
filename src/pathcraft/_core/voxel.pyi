from typing import Any

import numpy as np
import numpy.typing as npt

FOUND: int
UNREACHABLE: int
MAX_EXPANSIONS: int
MAX_COST: int
EXHAUSTED: int
IN_PROGRESS: int
HEURISTICS: dict[str, int]
CONNECTIVITIES: tuple[int, ...]

def neighbour_offsets() -> list[tuple[int, int, int]]: ...
def need_masks() -> list[int]: ...

class Workspace:
    capacity: int
    def __init__(self, capacity: int) -> None: ...

class VoxelSearch:
    elapsed: float
    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        ws: Workspace,
        sources: npt.NDArray[np.intp],
        goal: int,
        goal_set: npt.NDArray[np.intp] | None,
        **settings: Any,
    ) -> None: ...
    def step(self, budget: int = ...) -> int: ...
    def answer(self) -> tuple[Any, ...]: ...

def search(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    goal: int,
    goal_set: npt.NDArray[np.intp] | None,
    **settings: Any,
) -> tuple[Any, ...]: ...
def search_costs(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    starts: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64],
    **settings: Any,
) -> None: ...
def field(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    sources: npt.NDArray[np.intp],
    out_costs: npt.NDArray[np.float64],
    *,
    connectivity: int,
    cut_corners: bool,
    max_cost: float,
    out_parents: npt.NDArray[np.intp] | None = ...,
) -> int: ...
def scan(padded: npt.NDArray[np.float64]) -> tuple[float, float, int]: ...
