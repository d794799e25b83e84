import numpy as np
import numpy.typing as npt

DIRECTIONS: tuple[tuple[int, int], ...]

def build_table(padded: npt.NDArray[np.float64]) -> npt.NDArray[np.int32]: ...
