from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.machine import Machine

class Workspace:
    capacity: int
    def __init__(self, capacity: int) -> None: ...

def search(
    xy: npt.NDArray[np.float64],
    poff: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int32],
    nbr: npt.NDArray[np.int32],
    twin: npt.NDArray[np.int64],
    poly_of: npt.NDArray[np.int32],
    corner: npt.NDArray[np.uint8],
    degree: npt.NDArray[np.int32],
    ws: Workspace,
    sx: float,
    sy: float,
    start_polys: npt.NDArray[np.int32],
    gx: float,
    gy: float,
    goal_polys: npt.NDArray[np.int32],
    max_expansions: int,
) -> tuple[int, npt.NDArray[np.float64], float, int, int]: ...

class PolyanyaSearch(Machine):
    def __init__(self, *args: Any) -> None: ...
    def answer(self) -> tuple[Any, ...]: ...
    def corridor(self) -> npt.NDArray[np.int32]: ...
