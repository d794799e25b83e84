from typing import Any

import numpy as np
import numpy.typing as npt

def refine(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    goals: npt.NDArray[np.int32],
    dist: npt.NDArray[np.int32],
    configs: npt.NDArray[np.int32],
    deadline: float,
    lower_bound: int,
    following: bool = ...,
    seed: int = ...,
    patience: int = ...,
    adaptive: bool = ...,
    sideways: bool = ...,
    sipp: bool = ...,
) -> tuple[npt.NDArray[np.int32], dict[str, Any]]: ...
