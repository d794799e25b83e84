from typing import TypedDict

from typing_extensions import Unpack

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

HEURISTICS: dict[str, int]
CONNECTIVITIES: tuple[int, ...]

def neighbour_offsets() -> list[tuple[int, int, int]]: ...
def need_masks() -> list[int]: ...

class Workspace(BaseWorkspace): ...

class VoxelArgs(TypedDict):
    """The keyword arguments of :class:`VoxelSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    connectivity: int
    cut_corners: bool
    hkind: int
    hscale: float
    settings: KernelSettings

class VoxelSearch(CellSearch):
    def __init__(
        self, *query: Unpack[Query[Floats, Workspace]], **args: Unpack[VoxelArgs]
    ) -> None: ...

def search(*query: Unpack[Query[Floats, Workspace]], **args: Unpack[VoxelArgs]) -> CellAnswer: ...
def search_costs(*pairs: Unpack[Pairs[Floats, Workspace]], **args: Unpack[VoxelArgs]) -> None: ...
def field(
    padded: Floats,
    ws: Workspace,
    sources: Flat,
    out_costs: Floats,
    *,
    connectivity: int,
    cut_corners: bool,
    max_cost: float,
    out_parents: Flat | None = ...,
) -> int: ...
def scan(padded: Floats) -> tuple[float, float, int]: ...
