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

PARITIES: dict[str, int]
HEURISTICS: dict[str, int]

class Workspace(BaseWorkspace): ...

class StencilArgs(TypedDict):
    """The keyword arguments of :class:`StencilSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on): the move table, the heuristic, the
    settings."""

    pad: int
    parity: int
    moves: Flat
    factors: Floats
    hkind: int
    hscale: float
    allowed: NotRequired[npt.NDArray[np.uint64] | None]
    settings: KernelSettings

class StencilSearch(CellSearch):
    def __init__(
        self, *query: Unpack[Query[Floats, Workspace]], **args: Unpack[StencilArgs]
    ) -> None: ...

def search(*query: Unpack[Query[Floats, Workspace]], **args: Unpack[StencilArgs]) -> CellAnswer: ...
def search_costs(*pairs: Unpack[Pairs[Floats, Workspace]], **args: Unpack[StencilArgs]) -> None: ...
def field(
    padded: Floats,
    ws: Workspace,
    sources: Flat,
    out_costs: Floats,
    *,
    pad: int,
    parity: int,
    moves: Flat,
    factors: Floats,
    max_cost: float,
    allowed: npt.NDArray[np.uint64] | None = ...,
    out_parents: Flat | None = ...,
) -> int: ...
