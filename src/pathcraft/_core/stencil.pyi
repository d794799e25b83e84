from typing import TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import NotRequired, Unpack

from pathcraft._core import machine as m

PARITIES: dict[str, int]
HEURISTICS: dict[str, int]

class Workspace(m.BaseWorkspace): ...

class StencilArgs(TypedDict):
    """The keyword arguments of :class:`StencilSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on): the move table, the heuristic, the
    settings."""

    pad: int
    parity: int
    moves: m.Flat
    factors: m.Floats
    hkind: int
    hscale: float
    allowed: NotRequired[npt.NDArray[np.uint64] | None]
    settings: m.KernelSettings

# The three entries below repeat those of grid_search.pyi and voxel.pyi, each over its
# kernel's own keyword arguments (StencilArgs here): a TypedDict cannot be a type
# parameter of ``**kwargs`` (PEP 692), so each kernel's stub writes them.
class StencilSearch(m.CellSearch):
    def __init__(
        self, *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[StencilArgs]
    ) -> None: ...

def search(
    *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[StencilArgs]
) -> m.CellAnswer: ...
def search_costs(
    *pairs: Unpack[m.Pairs[m.Floats, Workspace]], **args: Unpack[StencilArgs]
) -> None: ...
def field(
    padded: m.Floats,
    ws: Workspace,
    sources: m.Flat,
    out_costs: m.Floats,
    *,
    pad: int,
    parity: int,
    moves: m.Flat,
    factors: m.Floats,
    max_cost: float,
    allowed: npt.NDArray[np.uint64] | None = ...,
    out_parents: m.Flat | None = ...,
) -> int: ...
