import numpy as np
import numpy.typing as npt

SIPP_FOUND: int
SIPP_NO_PATH: int
SIPP_EXPANSION_LIMIT: int
SIPP_TIME_LIMIT: int

class Reservations:
    n_nodes: int
    following: bool
    expanded: int
    def __init__(self, n_nodes: int, following: bool = False) -> None: ...
    def clear(self) -> None: ...
    def reserve_path(
        self,
        path: npt.NDArray[np.int32],
        start_time: int = 0,
        until: int = -1,
        forever: bool = False,
    ) -> None: ...
    def release_path(
        self, path: npt.NDArray[np.int32], start_time: int = 0, forever: bool = False
    ) -> None: ...
    def free_from(self, node: int, time: int) -> bool: ...
    def blocked(self, node: int, time: int) -> bool: ...
    def swap_blocked(self, a: int, b: int, time: int) -> bool: ...

def sipp(
    table: Reservations,
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    h: npt.NDArray[np.int32],
    start: int,
    goal: int,
    start_time: int = 0,
    window: int = 0,
    max_expansions: int = -1,
    deadline: float = ...,
) -> tuple[int, npt.NDArray[np.int32] | None]: ...
def distance_table(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    sources: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
) -> None: ...
