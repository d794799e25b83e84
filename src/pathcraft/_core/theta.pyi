from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.grid_search import Workspace
from pathcraft._core.machine import Machine

def theta(
    padded: npt.NDArray[np.float64], ws: Workspace, start: int, goal: int, **settings: Any
) -> tuple[
    int,
    npt.NDArray[np.intp],
    float,
    int,
    int,
    npt.NDArray[np.intp] | None,
    npt.NDArray[np.float64] | None,
]: ...
def theta_costs(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    starts: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    costs: npt.NDArray[np.float64],
    **settings: Any,
) -> None: ...
class ThetaSearch(Machine):
    def __init__(
        self, padded: npt.NDArray[np.float64], ws: Any, start: int, goal: int, **settings: Any
    ) -> None: ...
    def answer(self) -> tuple[Any, ...]: ...
def smooth_path(
    padded: npt.NDArray[np.float64], path: npt.NDArray[np.intp], diagonal: int
) -> tuple[npt.NDArray[np.intp], int]: ...
