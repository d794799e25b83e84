import numpy as np
import numpy.typing as npt

def label(
    padded: npt.NDArray[np.float64],
    eight: bool,
    labels: npt.NDArray[np.int32],
    queue: npt.NDArray[np.intp],
) -> int: ...
