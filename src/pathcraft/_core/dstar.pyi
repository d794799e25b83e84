from typing import Any

import numpy as np
import numpy.typing as npt

class Planner:
    size: int
    start: int
    goal: int
    km: float
    hscale: float
    expanded: int
    total_expanded: int
    def reset(self, start: int, goal: int, hscale: float) -> None: ...
    def move_to(self, vertex: int) -> None: ...
    def update(self, vertices: npt.NDArray[np.intp]) -> None: ...
    def compute(self) -> int: ...
    def distance(self, vertex: int) -> float: ...
    def path(self) -> tuple[npt.NDArray[np.intp], float]: ...

def grid_planner(
    padded: npt.NDArray[np.float64], diagonal: int, start: int, goal: int, hscale: float
) -> Planner: ...
def graph_planner(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    coords: Any,
    start: int,
    goal: int,
    hscale: float,
) -> Planner: ...
