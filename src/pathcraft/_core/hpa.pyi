import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]

def entrances(
    padded: npt.NDArray[np.float64], size: int, wide: int, kind: I64, ci: I64, cj: I64
) -> tuple[I64, I64, I64]: ...
def intra(
    padded: npt.NDArray[np.float64],
    diagonal: int,
    size: int,
    clusters: I64,
    cl_ptr: I64,
    node_cell: I64,
    mat_off: I64,
    dir_off: I64,
    mats: npt.NDArray[np.float64],
    dirs: npt.NDArray[np.uint8],
) -> None: ...
def query(
    padded: npt.NDArray[np.float64],
    diagonal: int,
    size: int,
    hscale: float,
    cl_ptr: I64,
    node_cell: I64,
    mat_off: I64,
    dir_off: I64,
    mats: npt.NDArray[np.float64],
    dirs: npt.NDArray[np.uint8],
    lm: npt.NDArray[np.float32],
    start: int,
    goal: int,
) -> tuple[I64 | None, float, int]: ...
def abstract_costs(
    padded: npt.NDArray[np.float64],
    size: int,
    cl_ptr: I64,
    node_cell: I64,
    mat_off: I64,
    mats: npt.NDArray[np.float64],
    src: int,
    backward: bool,
    out: npt.NDArray[np.float64],
) -> None: ...
def lower_costs(
    padded: npt.NDArray[np.float64],
    size: int,
    cl_ptr: I64,
    node_cell: I64,
    mat_off: I64,
    mats: npt.NDArray[np.float64],
    seeds: I64,
    backward: bool,
    out: npt.NDArray[np.float64],
    limit: int,
) -> int: ...
def box_path(
    padded: npt.NDArray[np.float64],
    diagonal: int,
    hscale: float,
    r0: int,
    r1: int,
    c0: int,
    c1: int,
    a: int,
    b: int,
) -> I64 | None: ...
def smooth(
    padded: npt.NDArray[np.float64],
    diagonal: int,
    hscale: float,
    path: I64,
    at: I64,
    max_area: int,
) -> I64: ...
