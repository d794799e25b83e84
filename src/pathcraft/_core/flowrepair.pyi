from typing import Any

import numpy as np
import numpy.typing as npt

def point(
    padded: npt.NDArray[np.float64],
    dist: npt.NDArray[np.float64],
    cells: npt.NDArray[np.intp],
    next_cell: npt.NDArray[np.intp],
    direction: npt.NDArray[np.float64],
    *,
    diagonal: int,
) -> None: ...
def repair(
    padded: npt.NDArray[np.float64],
    ws: Any,
    dist: npt.NDArray[np.float64],
    parent: npt.NDArray[np.int32],
    goal: npt.NDArray[np.uint8],
    changed: npt.NDArray[np.intp],
    next_cell: npt.NDArray[np.intp],
    direction: npt.NDArray[np.float64],
    *,
    diagonal: int,
) -> tuple[int, int, int]: ...
