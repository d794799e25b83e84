from typing import TypeAlias, TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from pathcraft._core.machine import (
    BaseWorkspace,
    CellAnswer,
    CellSearch,
    Flat,
    Floats,
    KernelSettings,
    Pairs,
)

DIAGONALS: dict[str, int]
HEURISTICS: dict[str, int]
LB_PORTALS_CAP: int
FLOOR_ENTRIES_CAP: int

class Workspace(BaseWorkspace): ...

class Tables:
    size: int
    def __init__(
        self,
        padded: Floats,
        floors: int,
        diagonal: int,
        indptr: npt.NDArray[np.int64],
        targets: Flat,
        pcost: Floats,
    ) -> None: ...

#: A layered search's positional arguments: ``(t, ws, sources, goal)`` (no goal set).
LayeredQuery: TypeAlias = tuple[Tables, Workspace, Flat, int]

class LayeredArgs(TypedDict):
    """The keyword arguments of :class:`LayeredSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    hkind: int
    hscale: float
    settings: KernelSettings

class LayeredSearch(CellSearch):
    def __init__(self, *query: Unpack[LayeredQuery], **args: Unpack[LayeredArgs]) -> None: ...

def search(*query: Unpack[LayeredQuery], **args: Unpack[LayeredArgs]) -> CellAnswer: ...
def search_costs(*pairs: Unpack[Pairs[Tables, Workspace]], **args: Unpack[LayeredArgs]) -> None: ...
def field(
    t: Tables,
    ws: Workspace,
    sources: Flat,
    out_costs: Floats,
    max_cost: float,
    out_parents: Flat | None = ...,
) -> int: ...
