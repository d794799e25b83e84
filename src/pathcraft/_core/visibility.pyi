import numpy as np
import numpy.typing as npt

CLEAR: int
BLOCKED: int
UNKNOWN: int

def classify_pairs(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    seg: npt.NDArray[np.intp],
    obs: npt.NDArray[np.intp],
    centers: npt.NDArray[np.float64],
    inner: npt.NDArray[np.float64],
    outer: npt.NDArray[np.float64],
    out: npt.NDArray[np.int8],
) -> None: ...
