"""Reading the arrays of a saved world, each checked as it is taken: the one helper
every world's ``from_arrays`` uses (the saving capability, :mod:`pathcraft.world`).

Examples
--------
>>> import numpy as np
>>> from pathcraft._saved import SavedArrays
>>> arrays = SavedArrays({"cost": np.ones((2, 2)), "layout": np.array("odd-r")}, "hexgrid")
>>> arrays.take("layout", "str", 0), arrays.take("cost", "float", 2).shape
('odd-r', (2, 2))
>>> arrays.take("moves", "int", 2)
Traceback (most recent call last):
...
pathcraft._saved.ArrayFormatError: the array 'moves' is missing; a saved hexgrid has it
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["ArrayFormatError", "SavedArrays"]

_DTYPES: dict[str, Callable[[npt.NDArray[Any]], bool]] = {
    "str": lambda a: a.dtype.kind == "U",
    "int": lambda a: a.dtype.kind in "iu",
    "float": lambda a: a.dtype.kind == "f",
    "bool": lambda a: a.dtype == np.bool_,
    "uint8": lambda a: a.dtype == np.uint8,
}


class ArrayFormatError(ValueError):
    """An array of a saved world is missing, or of the wrong dtype or shape."""


class SavedArrays:
    """The named arrays of one saved world of ``kind``, taken one by one and checked."""

    def __init__(self, arrays: Mapping[str, npt.NDArray[Any]], kind: str) -> None:
        self.arrays = arrays
        self.kind = kind

    def __contains__(self, name: str) -> bool:
        return name in self.arrays

    def take(
        self, name: str, dtype: str, ndim: int | None = None, *, optional: bool = False
    ) -> Any:
        """The array ``name`` (a Python scalar when 0-D), checked to be of ``dtype``
        (``"str"``, ``"int"``, ``"float"``, ``"bool"`` or ``"uint8"``) and ``ndim``;
        None when it is missing and ``optional``."""
        if name not in self.arrays:
            if optional:
                return None
            raise ArrayFormatError(f"the array {name!r} is missing; a saved {self.kind} has it")
        arr = np.asarray(self.arrays[name])
        if not _DTYPES[dtype](arr) or (ndim is not None and arr.ndim != ndim):
            dims = "" if ndim is None else f", {ndim}-D"
            raise ArrayFormatError(
                f"the array {name!r} must be {dtype}{dims}; got dtype {arr.dtype} and "
                f"shape {arr.shape}"
            )
        return arr.item() if arr.ndim == 0 else arr
