"""3-D voxel grids searched in compiled code: voxels are ``(z, row, col)``.

Examples
--------
>>> import numpy as np
>>> from pathcraft.voxel import VoxelGrid
>>> VoxelGrid(np.ones((3, 3, 3)), connectivity=6).find_path((0, 0, 0), (2, 2, 2)).cost
6.0
"""

from pathcraft.voxel._grid import VoxelGrid

__all__ = ["VoxelGrid"]
