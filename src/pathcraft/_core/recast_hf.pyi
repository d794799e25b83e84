import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_U8 = npt.NDArray[np.uint8]
_U16 = npt.NDArray[np.uint16]
_F64 = npt.NDArray[np.float64]

def mark_walkable(verts: _F64, tris: _I32, slope_degrees: float, areas: _U8) -> None: ...
def rasterize(
    verts: _F64,
    tris: _I32,
    areas: _U8,
    bmin: _F64,
    bmax: _F64,
    cs: float,
    ch: float,
    width: int,
    depth: int,
    merge_threshold: int,
) -> tuple[_I32, _I32, _I32, _I32, _U8]: ...
def filter_low_hanging(
    col_first: _I32, col_count: _I32, smax: _I32, area: _U8, climb: int
) -> None: ...
def filter_ledges(
    col_first: _I32,
    col_count: _I32,
    smin: _I32,
    smax: _I32,
    area: _U8,
    width: int,
    depth: int,
    height: int,
    climb: int,
) -> None: ...
def filter_low_height(
    col_first: _I32, col_count: _I32, smin: _I32, smax: _I32, area: _U8, height: int
) -> None: ...
def compact(
    col_first: _I32,
    col_count: _I32,
    smin: _I32,
    smax: _I32,
    sarea: _U8,
    width: int,
    depth: int,
    height: int,
    climb: int,
) -> tuple[_I32, _I32, _I32, _I32, _U8, _I32]: ...
def erode(con: _I32, area: _U8, radius: int) -> None: ...
def distance_field(con: _I32, area: _U8, dist: _U16) -> int: ...
def watershed(
    cell_first: _I32,
    cell_count: _I32,
    con: _I32,
    area: _U8,
    dist: _U16,
    max_dist: int,
    width: int,
    depth: int,
    border: int,
    reg: _U16,
) -> int: ...
def region_contours(
    con: _I32, reg: _U16, nreg: int
) -> tuple[_I32, _I32, npt.NDArray[np.int64]]: ...
