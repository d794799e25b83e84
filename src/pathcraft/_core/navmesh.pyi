import numpy as np
import numpy.typing as npt

def corridor_portals(
    xy: npt.NDArray[np.float64],
    poff: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int32],
    nbr: npt.NDArray[np.int32],
    corridor: npt.NDArray[np.int32],
    left: npt.NDArray[np.float64],
    right: npt.NDArray[np.float64],
) -> int: ...
def string_pull(
    left: npt.NDArray[np.float64],
    right: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> int: ...
def raycast(
    xy: npt.NDArray[np.float64],
    poff: npt.NDArray[np.int64],
    pv: npt.NDArray[np.int32],
    nbr: npt.NDArray[np.int32],
    poly: int,
    sx: float,
    sy: float,
    ex: float,
    ey: float,
    visited: npt.NDArray[np.int32],
) -> tuple[float, int]: ...
def components(
    poff: npt.NDArray[np.int64],
    nbr: npt.NDArray[np.int32],
    label: npt.NDArray[np.int32],
) -> int: ...
