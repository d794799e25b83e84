import numpy as np
import numpy.typing as npt

def compute(padded: npt.NDArray[np.float64], clear: npt.NDArray[np.int32]) -> None: ...
def repair(
    padded: npt.NDArray[np.float64],
    clear: npt.NDArray[np.int32],
    r0: int,
    r1: int,
    c0: int,
    c1: int,
) -> int: ...
def unit_costs(
    padded: npt.NDArray[np.float64],
    clear: npt.NDArray[np.int32],
    k: int,
    out: npt.NDArray[np.float64],
    r0: int,
    r1: int,
    c0: int,
    c1: int,
) -> None: ...
