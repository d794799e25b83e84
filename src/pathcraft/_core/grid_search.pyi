from typing import TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import NotRequired, Unpack

from pathcraft._core import machine as m

DEBUG_BUILD: bool
DIAGONALS: dict[str, int]
HEURISTICS: dict[str, int]

def _probe_read(values: npt.NDArray[np.float64], i: int) -> float: ...

class Workspace(m.BaseWorkspace):
    @property
    def bytes_per_cell(self) -> int: ...

class GridArgs(TypedDict):
    """The keyword arguments of :class:`GridSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    diagonal: int
    hkind: int
    hscale: float
    unit: NotRequired[float]
    settings: m.KernelSettings

# The three entries below repeat those of stencil.pyi and voxel.pyi, each over its
# kernel's own keyword arguments (GridArgs here): a TypedDict cannot be a type
# parameter of ``**kwargs`` (PEP 692), so each kernel's stub writes them.
class GridSearch(m.CellSearch):
    def __init__(
        self, *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[GridArgs]
    ) -> None: ...

def search(
    *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[GridArgs]
) -> m.CellAnswer: ...
def search_costs(
    *pairs: Unpack[m.Pairs[m.Floats, Workspace]], **args: Unpack[GridArgs]
) -> None: ...
def field(
    padded: m.Floats,
    ws: Workspace,
    sources: m.Flat,
    out_costs: m.Floats,
    *,
    diagonal: int,
    max_cost: float,
) -> int: ...
