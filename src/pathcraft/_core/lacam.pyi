from typing import Any

import numpy as np
import numpy.typing as npt

STOP_REASONS: dict[int, str]

def lacam(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int32],
    goals: npt.NDArray[np.int32],
    dist: npt.NDArray[np.int32],
    t0: float,
    time_limit: float,
    node_limit: int,
    refine: bool,
    following: bool = ...,
    swap: bool = ...,
    seed: int = ...,
    refine_share: float = ...,
    guide: npt.NDArray[np.int32] | None = ...,
) -> tuple[bool, int, npt.NDArray[np.int32], dict[str, Any]]: ...
def pibt(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int32],
    goals: npt.NDArray[np.int32],
    dist: npt.NDArray[np.int32],
    t0: float,
    time_limit: float,
    max_steps: int,
    following: bool = ...,
    swap: bool = ...,
    seed: int = ...,
) -> tuple[bool, int, npt.NDArray[np.int32], dict[str, Any]]: ...
