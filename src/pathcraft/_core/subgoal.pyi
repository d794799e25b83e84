import numpy as np
import numpy.typing as npt

DIRECTIONS: tuple[tuple[int, int], ...]

def build(
    padded: npt.NDArray[np.float64],
) -> tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
]: ...

class Workspace:
    def __init__(
        self,
        padded: npt.NDArray[np.float64],
        ids: npt.NDArray[np.int32],
        cells: npt.NDArray[np.int32],
        clear: npt.NDArray[np.int32],
        offsets: npt.NDArray[np.int64],
        targets: npt.NDArray[np.int32],
    ) -> None: ...
    def path(self, start: int, goal: int) -> tuple[float, int, npt.NDArray[np.intp] | None]: ...
