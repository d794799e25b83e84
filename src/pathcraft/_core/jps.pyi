from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft._core.grid_search import Workspace
from pathcraft._core.machine import Machine

def jps(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    start: int,
    goal: int,
    lines: Sequence[npt.NDArray[np.uint64]],
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
def jps_costs(
    padded: npt.NDArray[np.float64],
    ws: Workspace,
    starts: npt.NDArray[np.intp],
    goals: npt.NDArray[np.intp],
    lines: Sequence[npt.NDArray[np.uint64]],
    costs: npt.NDArray[np.float64],
    **settings: Any,
) -> None: ...

class JpsSearch(Machine):
    def __init__(
        self, padded: npt.NDArray[np.float64], ws: Any, start: int, goal: int, lines: Any,
        **settings: Any,
    ) -> None: ...
    def answer(self) -> tuple[Any, ...]: ...
