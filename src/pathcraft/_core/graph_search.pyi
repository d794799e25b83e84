from typing import TypeAlias, TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from pathcraft._core.machine import BaseWorkspace, Flat, Floats, KernelSettings, Machine, PathAnswer

HEURISTICS: dict[str, int]

class Workspace(BaseWorkspace): ...

#: A graph search's positional arguments: ``(offsets, targets, weights, coords, ws,
#: sources, source_costs, goal, goal_set, exit_costs, target)``.
GraphQuery: TypeAlias = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    Floats,
    Floats | None,
    Workspace,
    Flat,
    Floats | None,
    int,
    Flat | None,
    Floats | None,
    Floats | None,
]

class GraphArgs(TypedDict):
    """The keyword arguments of :class:`GraphSearch` (and of :func:`search`, which
    passes them on)."""

    hkind: int
    hscale: float
    settings: KernelSettings

class GraphSearch(Machine):
    def __init__(self, *query: Unpack[GraphQuery], **args: Unpack[GraphArgs]) -> None: ...
    def answer(self) -> PathAnswer: ...
    def finish(self) -> PathAnswer: ...

def search(*query: Unpack[GraphQuery], **args: Unpack[GraphArgs]) -> PathAnswer: ...
def field(
    offsets: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int32],
    weights: Floats,
    ws: Workspace,
    sources: Flat,
    source_costs: Floats | None,
    out_dist: Floats,
    out_parent: npt.NDArray[np.int64] | None,
    *,
    max_cost: float,
) -> int: ...
