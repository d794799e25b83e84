import numpy as np
import numpy.typing as npt

def build_detail(
    mverts: npt.NDArray[np.int32],
    polys: npt.NDArray[np.int32],
    regions: npt.NDArray[np.uint16],
    width: int,
    depth: int,
    border: int,
    cell_first: npt.NDArray[np.int32],
    cell_count: npt.NDArray[np.int32],
    z: npt.NDArray[np.int32],
    con: npt.NDArray[np.int32],
    span_region: npt.NDArray[np.uint16],
    cs: float,
    ch: float,
    sample_dist: float,
    sample_max_error: float,
    height_search_radius: int,
) -> tuple[
    npt.NDArray[np.float32], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]
]: ...
