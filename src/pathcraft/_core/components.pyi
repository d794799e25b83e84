import numpy as np
import numpy.typing as npt

def label(
    padded: npt.NDArray[np.float64],
    eight: bool,
    labels: npt.NDArray[np.int32],
    queue: npt.NDArray[np.intp],
) -> int: ...
def repair(
    padded: npt.NDArray[np.float64],
    eight: bool,
    labels: npt.NDArray[np.int32],
    cell: int,
    top: int,
    marks: npt.NDArray[np.int32],
    limit: int,
) -> int: ...
def stencil_targets(
    padded: npt.NDArray[np.float64],
    width: int,
    pad: int,
    parity: int,
    delta: npt.NDArray[np.int64],
    allowed: npt.NDArray[np.uint64] | None,
    targets: npt.NDArray[np.int32],
) -> None: ...
def strong(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    labels: npt.NDArray[np.int32],
) -> int: ...
def dag_reaches(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    a: int,
    b: int,
    seen: npt.NDArray[np.int32],
) -> bool: ...
