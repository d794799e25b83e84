from typing import TypedDict

from typing_extensions import Unpack

from pathcraft._core.grid_search import Workspace
from pathcraft._core.machine import CellAnswer, CellSearch, Flat, Floats, KernelSettings, Pairs

class ThetaArgs(TypedDict):
    """The keyword arguments of :class:`ThetaSearch` (and of :func:`theta` and
    :func:`theta_costs`, which pass them on)."""

    diagonal: int
    unit: float
    settings: KernelSettings

class ThetaSearch(CellSearch):
    def __init__(
        self, padded: Floats, ws: Workspace, start: int, goal: int, **args: Unpack[ThetaArgs]
    ) -> None: ...

def theta(
    padded: Floats, ws: Workspace, start: int, goal: int, **args: Unpack[ThetaArgs]
) -> CellAnswer: ...
def theta_costs(*pairs: Unpack[Pairs[Floats, Workspace]], **args: Unpack[ThetaArgs]) -> None: ...
def smooth_path(padded: Floats, path: Flat, diagonal: int) -> tuple[Flat, int]: ...
