from typing import Any

import numpy as np
import numpy.typing as npt

def scatter(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int32],
    goals: npt.NDArray[np.int32],
    dist: npt.NDArray[np.int32],
    deadline: float,
    margin: int = ...,
    seed: int = ...,
) -> tuple[npt.NDArray[np.int32], dict[str, Any]]: ...
