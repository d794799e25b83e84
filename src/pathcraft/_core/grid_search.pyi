from typing import TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import NotRequired, Unpack

from pathcraft._core.machine import (
    BaseWorkspace,
    CellAnswer,
    CellSearch,
    Flat,
    Floats,
    KernelSettings,
    Pairs,
    Query,
)

DEBUG_BUILD: bool
DIAGONALS: dict[str, int]
HEURISTICS: dict[str, int]

def _probe_read(values: npt.NDArray[np.float64], i: int) -> float: ...

class Workspace(BaseWorkspace):
    @property
    def bytes_per_cell(self) -> int: ...

class GridArgs(TypedDict):
    """The keyword arguments of :class:`GridSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    diagonal: int
    hkind: int
    hscale: float
    unit: NotRequired[float]
    settings: KernelSettings

class GridSearch(CellSearch):
    def __init__(
        self, *query: Unpack[Query[Floats, Workspace]], **args: Unpack[GridArgs]
    ) -> None: ...

def search(*query: Unpack[Query[Floats, Workspace]], **args: Unpack[GridArgs]) -> CellAnswer: ...
def search_costs(*pairs: Unpack[Pairs[Floats, Workspace]], **args: Unpack[GridArgs]) -> None: ...
def field(
    padded: Floats,
    ws: Workspace,
    sources: Flat,
    out_costs: Floats,
    *,
    diagonal: int,
    max_cost: float,
) -> int: ...
