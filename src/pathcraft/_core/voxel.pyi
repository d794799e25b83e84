from typing import TypedDict

from typing_extensions import Unpack

from pathcraft._core import machine as m

HEURISTICS: dict[str, int]
CONNECTIVITIES: tuple[int, ...]

def neighbour_offsets() -> list[tuple[int, int, int]]: ...
def need_masks() -> list[int]: ...

class Workspace(m.BaseWorkspace): ...

class VoxelArgs(TypedDict):
    """The keyword arguments of :class:`VoxelSearch` (and of :func:`search` and
    :func:`search_costs`, which pass them on)."""

    connectivity: int
    cut_corners: bool
    hkind: int
    hscale: float
    settings: m.KernelSettings

# The three entries below repeat those of grid_search.pyi and stencil.pyi, each over its
# kernel's own keyword arguments (VoxelArgs here): a TypedDict cannot be a type
# parameter of ``**kwargs`` (PEP 692), so each kernel's stub writes them.
class VoxelSearch(m.CellSearch):
    def __init__(
        self, *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[VoxelArgs]
    ) -> None: ...

def search(
    *query: Unpack[m.Query[m.Floats, Workspace]], **args: Unpack[VoxelArgs]
) -> m.CellAnswer: ...
def search_costs(
    *pairs: Unpack[m.Pairs[m.Floats, Workspace]], **args: Unpack[VoxelArgs]
) -> None: ...
def field(
    padded: m.Floats,
    ws: Workspace,
    sources: m.Flat,
    out_costs: m.Floats,
    *,
    connectivity: int,
    cut_corners: bool,
    max_cost: float,
    out_parents: m.Flat | None = ...,
) -> int: ...
def scan(padded: m.Floats) -> tuple[float, float, int]: ...
