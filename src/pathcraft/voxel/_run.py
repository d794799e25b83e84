"""How :class:`~pathcraft.voxel.VoxelGrid` runs the compiled voxel kernel
(:mod:`pathcraft._core.voxel`): the checked cost array padded into one flat block,
checked ``(z, row, col)`` voxels and checked options turned into kernel settings: the
adapter the one cell-world glue (:mod:`pathcraft._cellworld`) runs its queries through.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from pathcraft._cellworld import Kernel, PaddedCells, check_place, places_by_one
from pathcraft._core import voxel as _kernel
from pathcraft._options import SearchOptions
from pathcraft._validation import check_choice
from pathcraft.grid.kit import check_float64_kept, check_not_masked, nearest_walkable

#: The kernel's search state keeps parents as int32: the padded grid must fit.
MAX_VOXELS = 2**31 - 1
#: The diagonal rules: every voxel a diagonal move sweeps past walkable, or only the
#: voxel it enters (the names of :class:`~pathcraft.Grid`'s rules).
DIAGONALS = ("no_corner_cut", "always")


@dataclass(frozen=True)
class Voxels(PaddedCells):
    """A voxel world's compiled form: the costs padded by one layer of walls, the
    connectivity, the diagonal rule and the heuristic's scale (the smallest voxel
    cost)."""

    padded: npt.NDArray[np.float64]
    connectivity: int
    diagonal: str
    hscale: float

    @property
    def cut_corners(self) -> bool:
        return self.diagonal == "always"

    @property
    def shape(self) -> tuple[int, int, int]:
        depth, rows, cols = self.padded.shape
        return depth - 2, rows - 2, cols - 2

    #: The name of the world in :data:`pathcraft._options.SUPPORT` and in messages.
    name: ClassVar[str] = "VoxelGrid"
    noun: ClassVar[str] = "voxels"
    #: The voxel kernel's entry points, for :mod:`pathcraft._cellworld`.
    kernel: ClassVar[Kernel] = Kernel.of(_kernel, _kernel.VoxelSearch)

    def nearest(self, cells: Any, name: str, max_distance: Any = None) -> tuple[Any, bool]:
        """The nearest walkable voxel to each ``(z, row, col)`` voxel (Euclidean
        distance between voxels, ties to the smallest), over the padded costs."""
        return nearest_walkable(self.padded, cells, max_distance, name)

    def place(self, name: str, value: Any) -> int:
        return flat_voxel(self, name, value)

    def places(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        return flat_voxels(self, name, value)

    def settings(self, opts: SearchOptions) -> dict[str, Any]:
        """Checked options as the voxel kernel's keyword arguments."""
        zero = opts.algorithm == "dijkstra" or opts.heuristic == "zero"
        return {
            "connectivity": self.connectivity,
            "cut_corners": self.cut_corners,
            "hkind": _kernel.HEURISTICS["zero" if zero else "octile"],
            "hscale": self.hscale,
            "settings": opts.kernel_settings(),
        }

    def field_args(self, max_cost: float) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (), {
            "connectivity": self.connectivity, "cut_corners": self.cut_corners,
            "max_cost": max_cost,
        }  # fmt: skip

    def unflat(self, flat: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        """``(z, row, col)`` voxels of padded flat indices, an ``(n, 3)`` array."""
        return np.stack(np.unravel_index(flat, self.padded.shape), axis=-1) - 1


def check_connectivity(connectivity: Any) -> int:
    """``connectivity`` if it is 6, 18 or 26; TypeError or ValueError otherwise."""
    if isinstance(connectivity, (bool, np.bool_)) or not isinstance(connectivity, numbers.Integral):
        raise TypeError(f"connectivity must be 6, 18 or 26; got {connectivity!r}")
    if int(connectivity) not in _kernel.CONNECTIVITIES:
        raise ValueError(f"connectivity must be 6, 18 or 26; got {connectivity!r}")
    return int(connectivity)


def voxel_array(cost: Any) -> npt.NDArray[Any]:
    """``cost`` as a 3-D array of numbers or booleans (not copied), checked."""
    check_not_masked(cost, "cost")
    try:
        arr = np.asarray(cost)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"cost must be a 3-D array (depth, rows, cols) of numbers or booleans; got {cost!r}"
        ) from exc
    if not (
        arr.dtype == np.bool_
        or np.issubdtype(arr.dtype, np.floating)
        or np.issubdtype(arr.dtype, np.integer)
    ):
        raise TypeError(f"cost must be an integer, float or boolean array; got dtype {arr.dtype}")
    if arr.ndim != 3:
        raise ValueError(
            f"cost must be 3-D (depth, rows, cols): voxels are (z, row, col); "
            f"got {arr.ndim}-D shape {arr.shape}"
        )
    if 0 in arr.shape:
        raise ValueError(f"cost must have at least one voxel along each axis; got {arr.shape}")
    return arr


def build(cost: Any, connectivity: Any, diagonal: Any) -> Voxels:
    """A :class:`Voxels` from a cost or walkable array: one pass to copy it into the
    padded block (no other full-size array), one compiled pass to check it."""
    conn = check_connectivity(connectivity)
    rule = check_choice("diagonal", diagonal, DIAGONALS)
    arr = voxel_array(cost)
    shape = tuple(int(n) + 2 for n in arr.shape)
    total = shape[0] * shape[1] * shape[2]
    if total > MAX_VOXELS:
        raise ValueError(
            f"cost of shape {arr.shape} is too large: padded by one voxel on every side "
            f"it holds {total} voxels; at most {MAX_VOXELS} are allowed"
        )
    padded = np.empty(shape, dtype=np.float64)
    for axis in range(3):  # the six faces: walls
        face = [slice(None)] * 3
        for end in (0, -1):
            face[axis] = end  # type: ignore[call-overload]
            padded[tuple(face)] = np.inf
    inner = padded[1:-1, 1:-1, 1:-1]
    with np.errstate(over="ignore", under="ignore"):
        np.copyto(inner, arr, casting="unsafe")
    check_float64_kept(arr, inner, "cost", "at voxel")
    if arr.dtype == np.bool_:  # 1.0 / 0.0 in place: walkable 1, walls inf
        with np.errstate(divide="ignore"):
            np.divide(1.0, inner, out=inner)
    lo, hi, bad = _kernel.scan(padded)
    if bad >= 0:
        z, rest = divmod(bad, shape[1] * shape[2])
        r, c = divmod(rest, shape[2])
        value = float(padded.flat[bad])
        raise ValueError(
            f"cost must be > 0 and not NaN (np.inf marks a wall); got {value!r} at voxel "
            f"{(z - 1, r - 1, c - 1)} (z, row, col)"
        )
    limit = np.finfo(np.float64).max / (math.sqrt(3.0) * total)
    if hi > limit:
        raise ValueError(
            f"cost holds {hi!r}, too large for a grid of {total} voxels: a path could "
            f"cost more than float64 holds; costs must be at most {limit:.3g} here"
        )
    return Voxels(padded, conn, rule, lo if math.isfinite(lo) else 1.0)


def flat_voxel(world: Voxels, name: str, voxel: Any, *, walkable: bool = True) -> int:
    """The padded flat index of the ``(z, row, col)`` voxel ``voxel``: inside the grid
    and (with ``walkable``) not a wall, else TypeError or ValueError naming ``name``."""
    z, r, c = check_place(name, voxel, world.shape, "(z, row, col)", noun="voxel")
    _, prow, pcol = world.padded.shape
    flat = ((z + 1) * prow + r + 1) * pcol + c + 1
    if walkable and world.padded.flat[flat] == math.inf:
        raise ValueError(f"{name} {(z, r, c)} is a wall")
    return int(flat)


def flat_voxels(world: Voxels, name: str, voxels: Any) -> npt.NDArray[np.intp]:
    """Flat indices of one ``(z, row, col)`` voxel or a ``(k, 3)`` array of them;
    errors name the bad row (``starts[3]``); none for an empty array. An integer
    array is checked at once; anything else voxel by voxel (the glue's check)."""
    arr = np.asarray(voxels) if isinstance(voxels, np.ndarray) else None
    if arr is not None and arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr is None or arr.dtype.kind not in "iu" or arr.ndim != 2 or arr.shape[1] != 3:
        return places_by_one(world, name, voxels, 3, "(z, row, col) voxel")
    shape = np.array(world.shape)
    bad = ((arr < 0) | (arr >= shape)).any(axis=1)  # compared in the array's own dtype
    if not bad.any():
        _, prow, pcol = world.padded.shape
        cells = arr.astype(np.intp) + 1
        flat = (cells[:, 0] * prow + cells[:, 1]) * pcol + cells[:, 2]
        bad = world.padded.ravel()[flat] == math.inf
        if not bad.any():
            return np.ascontiguousarray(flat, dtype=np.intp)
    at = int(np.argmax(bad))  # the first bad voxel, reported by the one-voxel check
    flat_voxel(world, f"{name}[{at}]" if arr.shape[0] > 1 else name, tuple(arr[at].tolist()))
    raise AssertionError("unreachable")  # pragma: no cover


def neighbours(world: Voxels, voxel: Any) -> list[tuple[tuple[int, int, int], float]]:
    """The legal moves from the ``(z, row, col)`` voxel: each voxel entered and the
    step's cost (the kernel's rule, for the generic search)."""
    z, r, c = (int(v) for v in voxel)
    p = world.padded
    out: list[tuple[tuple[int, int, int], float]] = []
    if p[z + 1, r + 1, c + 1] == math.inf:
        return out  # a wall: no moves
    for k, (dz, dr, dc) in enumerate(OFFSETS[: world.connectivity]):
        need = [k] if world.cut_corners else NEEDS[k]
        if all(
            p[z + 1 + OFFSETS[j][0], r + 1 + OFFSETS[j][1], c + 1 + OFFSETS[j][2]] != math.inf
            for j in need
        ):
            step = float(p[z + 1 + dz, r + 1 + dr, c + 1 + dc]) * math.sqrt(
                dz * dz + dr * dr + dc * dc
            )
            out.append(((z + dz, r + dr, c + dc), step))
    return out


def moves(
    world: Voxels,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Every legal move of :func:`neighbours` at once, as flat voxels (row-major over
    the world's shape): ``(tails, heads, weights)``, one whole-array pass per offset."""
    p = world.padded
    depth, rows, cols = (n - 2 for n in p.shape)
    free = np.isfinite(p)
    index = np.arange(depth * rows * cols, dtype=np.intp).reshape(depth, rows, cols)
    tails, heads, weights = [], [], []

    def shifted(a: npt.NDArray[Any], dz: int, dr: int, dc: int) -> npt.NDArray[Any]:
        return a[1 + dz : 1 + dz + depth, 1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]

    for k, (dz, dr, dc) in enumerate(OFFSETS[: world.connectivity]):
        ok = shifted(free, 0, 0, 0).copy()
        for j in [k] if world.cut_corners else NEEDS[k]:
            ok &= shifted(free, *OFFSETS[j])
        tails.append(index[ok])
        heads.append(index[ok] + (dz * rows + dr) * cols + dc)
        weights.append(shifted(p, dz, dr, dc)[ok] * math.sqrt(dz * dz + dr * dr + dc * dc))
    return np.concatenate(tails), np.concatenate(heads), np.concatenate(weights)


#: The 26 neighbour offsets ``(dz, dr, dc)`` in kernel order (faces, edges, corners).
OFFSETS: list[tuple[int, int, int]] = _kernel.neighbour_offsets()
#: For each offset, the offsets that must be walkable for the move (itself included).
NEEDS: list[list[int]] = [[j for j in range(26) if mask >> j & 1] for mask in _kernel.need_masks()]
