import numpy as np
import numpy.typing as npt

BORDER_VERTEX_FLAG: int
AREA_BORDER_FLAG: int

def build_contours(
    width: int,
    depth: int,
    border: int,
    cell_first: npt.NDArray[np.int32],
    cell_count: npt.NDArray[np.int32],
    z: npt.NDArray[np.int32],
    con: npt.NDArray[np.int32],
    area: npt.NDArray[np.uint8],
    region: npt.NDArray[np.uint16],
    max_error: float,
    max_edge_len: int,
) -> tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.uint8],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
]: ...
def build_polygons(
    verts: npt.NDArray[np.int32],
    start: npt.NDArray[np.int32],
    count: npt.NDArray[np.int32],
    areas: npt.NDArray[np.uint8],
    nvp: int,
) -> tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.uint8],
    npt.NDArray[np.int32],
    npt.NDArray[np.uint8],
    list[int],
]: ...
