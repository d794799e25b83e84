from typing import TypeAlias, TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from pathcraft._core import machine as m

DIAGONALS: dict[str, int]
HEURISTICS: dict[str, int]
LB_PORTALS_CAP: int
FLOOR_ENTRIES_CAP: int

class Workspace(m.BaseWorkspace): ...

class Tables:
    size: int
    def __init__(
        self,
        padded: m.Floats,
        floors: int,
        diagonal: int,
        indptr: npt.NDArray[np.int64],
        targets: m.Flat,
        pcost: m.Floats,
    ) -> None: ...

#: A layered search's positional arguments: ``(t, ws, sources, goal)`` (no goal set).
LayeredQuery: TypeAlias = tuple[Tables, Workspace, m.Flat, int]

class LayeredArgs(TypedDict):
    """The keyword arguments of :class:`LayeredSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    hkind: int
    hscale: float
    settings: m.KernelSettings

class LayeredSearch(m.CellSearch):
    def __init__(self, *query: Unpack[LayeredQuery], **args: Unpack[LayeredArgs]) -> None: ...

def search(*query: Unpack[LayeredQuery], **args: Unpack[LayeredArgs]) -> m.CellAnswer: ...
def search_costs(
    *pairs: Unpack[m.Pairs[Tables, Workspace]], **args: Unpack[LayeredArgs]
) -> None: ...
def field(
    t: Tables,
    ws: Workspace,
    sources: m.Flat,
    out_costs: m.Floats,
    max_cost: float,
    out_parents: m.Flat | None = ...,
) -> int: ...
